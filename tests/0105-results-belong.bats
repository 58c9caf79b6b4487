#!/usr/bin/env bats
# A result always belongs to the code it measured, and make never
# rewrites a finished generation: the kernel's hash in build.json and
# bench.json, a hand edit seen by make, a stale verdict never shown as a
# result, and earlier benches redone without touching later generations.

bats_require_minimum_version 1.5.0
load helper/common

setup_file() {
	cd "$BATS_FILE_TMPDIR" || return
	# generations 0, 1 and 2 with one candidate each, made once, copied by each test
	make -s --no-print-directory -C "$KS_ROOT" generation N=2 K=1 POP="$BATS_FILE_TMPDIR/two" >/dev/null
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	cp -a "$BATS_FILE_TMPDIR/two" pop   # -a: the files keep their times, as make left them
	S=pop/gen-000/c0
}

# spoil DIR: the kernel of DIR made wrong whichever path its LOOP_ORDER
# takes (the last element of C off by one, after either path)
spoil() {
	sed -i 's/^\t\tblocks(M, N, K, A, B, C);$/&\n\tC[(size_t)M * N - 1] += 1.0f;/' "$1/kernel.c"
	grep -q 'C\[(size_t)M \* N - 1\] += 1.0f;' "$1/kernel.c"
}

@test "build.json and bench.json name the kernel and the harness they measured" {
	run jf $S/build.json '.kernel_sha256 | test("^[0-9a-f]{64}$")' '.harness_sha256 | test("^[0-9a-f]{64}$")'
	assert_output $'true\ntrue'
	assert_equal "$(jget $S/bench.json .kernel_sha256)" "$(sha256sum $S/kernel.c | cut -d' ' -f1)"
	assert_equal "$(jget $S/bench.json .runner_sha256)" "$(sha256sum $S/runner | cut -d' ' -f1)"
	assert_equal "$(jget $S/bench.json .kernel_sha256)" "$(jget $S/build.json .kernel_sha256)"
}

@test "a hand edit of kernel.c alone is built and benched again: the old score does not stand" {
	assert_equal "$(jget pop/gen-002/c0/bench.json .status)" ok
	spoil pop/gen-002/c0
	run -0 make -s --no-print-directory -C "$KS_ROOT" generation N=2 K=1 POP="$BATS_TEST_TMPDIR/pop"
	run jf pop/gen-002/c0/bench.json .status .kernel_sha256
	assert_line --index 0 incorrect
	assert_line --index 1 "$(sha256sum pop/gen-002/c0/kernel.c | cut -d' ' -f1)"
}

@test "the issue's recipe: a wrong kernel.c and a touched candidate.json give a new build.json and a new verdict" {
	# (before, only build.json's seconds differed, which ks-build kept: make benched nothing);
	# a population of its own, made where it stays: build.json names its paths
	rm -r pop
	gen N=0 K=1
	spoil $S
	touch $S/candidate.json
	cp $S/build.json old-build.json
	run -0 make -s --no-print-directory -C "$KS_ROOT" generation N=0 K=1 POP="$BATS_TEST_TMPDIR/pop"
	run cmp -s old-build.json $S/build.json
	assert_failure
	assert_equal "$(jget $S/bench.json .status)" incorrect
}

@test "a verdict on a kernel edited since is stale: not shown as a result, never selected" {
	spoil pop/gen-002/c0
	run -0 ks-report pop
	assert_line --regexp '^g002c0 +g[0-9]{3}c0 +g[0-9]{3}c0 +stale +- +- '
	# g002c0 was the best; as a stale record it is no base
	run -0 ks-select -o sel.json pop/gen-003
	assert [ "$(jget sel.json .base)" != g002c0 ]
	run jf sel.json '.seen[] | select(.id == "g002c0") | .status'
	assert_output stale
}

@test "re-benching an earlier candidate never rewrites a later generation; the report says the result changed after use" {
	find pop/gen-001 pop/gen-002 -type f -exec sha256sum {} + | sort >before
	ls -l --time-style=full-iso -R pop/gen-002 >before-times
	jset pop/gen-000/c0/bench.json '.score_us = 123456.5'
	rm pop/gen-001/c0/bench.json
	run -0 make -s --no-print-directory -C "$KS_ROOT" generation N=2 K=1 POP="$BATS_TEST_TMPDIR/pop"
	assert_file_exists pop/gen-001/c0/bench.json
	# gen-002 is as it was, to the byte and to the time
	ls -l --time-style=full-iso -R pop/gen-002 >after-times
	diff before-times after-times
	find pop/gen-001 pop/gen-002 -type f -exec sha256sum {} + | sort | grep -v 'gen-001/c0/bench' >after
	grep -v 'gen-001/c0/bench' before | diff - after
	run -0 make -s --no-print-directory -C "$KS_ROOT" generation N=2 K=1 POP="$BATS_TEST_TMPDIR/pop"
	assert_output --partial "complete: nothing to do"
	# the seed's changed score postdates generation 1, which was made from it
	run -0 ks-report pop
	assert_line --regexp "^pop: g000c0 changed after generation 1 was made from it: ok [0-9.]+ us then, ok 123456.5 us now$"
}

@test "deleting a later generation makes it again from the results as they are now" {
	rm -r pop/gen-002
	run -0 make -s --no-print-directory -C "$KS_ROOT" generation N=2 K=1 POP="$BATS_TEST_TMPDIR/pop"
	assert_equal "$(jget pop/gen-002/c0/bench.json .status)" ok
	run jf pop/gen-002/select.json '.seen | map(.id) | join(" ")'
	assert_output "g000c0 g001c0"
}
