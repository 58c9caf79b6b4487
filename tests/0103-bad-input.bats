#!/usr/bin/env bats
# Bad input: one clear error line, exit 1 or 2, nothing half-written.

bats_require_minimum_version 1.5.0
load helper/common

setup() {
	cd "$BATS_TEST_TMPDIR"
}

@test "N that is not a number is refused before anything runs" {
	run -2 gen N=abc
	assert_output --partial "N must be a generation number from 0 to 999, not 'abc'"
	assert_equal "${#lines[@]}" 1
	assert_file_not_exists pop
}

@test "a missing N is refused with the command to use" {
	run -2 gen
	assert_output --partial "N is not set: say which generation to make, e.g. make generation N=5"
	assert_equal "${#lines[@]}" 1
}

@test "K out of range is refused" {
	run -2 gen N=1 K=7
	assert_output --partial "K must be a number of candidates from 1 to 5, not '7'"
}

@test "N over 999 and K of 0 are refused" {
	run -2 gen N=1000
	assert_output --partial "N must be a generation number from 0 to 999, not '1000'"
	run -2 gen N=1 K=0
	assert_output --partial "K must be a number of candidates from 1 to 5, not '0'"
	assert_file_not_exists pop
}

@test "an unknown problem is named and nothing is written" {
	run -2 gen N=1 PROBLEM=no-such
	assert_line --partial "ks-init: unknown problem 'no-such'"
	assert_file_not_exists pop/run.json
}

@test "a POP made for one problem refuses another" {
	gen N=0
	mkdir kernels && cp -r "$KS_ROOT/kernels/common" kernels/ && cp -r "$KS_ROOT/kernels/sgemm" kernels/other
	KS_KERNELS_DIR=$PWD/kernels run -2 gen N=1 PROBLEM=other
	assert_line "ks: '$BATS_TEST_TMPDIR/pop' is a run of problem sgemm on target cpu with K=3 (its run.json), not PROBLEM=other: continue it with 'make generation N=1 POP=$BATS_TEST_TMPDIR/pop', or start another with a new POP"
	assert_file_not_exists pop/gen-001
}

@test "a malformed run.json stops the run with its name" {
	mkdir pop && printf '{"problem": "sgemm", "target": "cpu", "k": 3' >pop/run.json
	run -2 gen N=1
	assert_line "ks-init: '$BATS_TEST_TMPDIR/pop/run.json' is not valid JSON (line 1, column 45)"
	assert_file_not_exists pop/gen-000
}

@test "a run.json without a field names the field" {
	mkdir pop && echo '{"problem": "sgemm", "k": 3}' >pop/run.json
	run -2 gen N=0
	assert_line "ks-init: '$BATS_TEST_TMPDIR/pop/run.json': field \"target\" is missing"
}

@test "a malformed select.json stops the generation; fixing it resumes" {
	gen N=0
	mkdir -p pop/gen-001
	echo '{"base": "g000c0", "reference": }' >pop/gen-001/select.json
	run -2 gen N=1
	assert_line "ks-hypothesize: '$BATS_TEST_TMPDIR/pop/gen-001/select.json' is not valid JSON (line 1, column 33)"
	assert_file_not_exists pop/gen-001/hypotheses.json
	rm pop/gen-001/select.json
	run -0 gen N=1
	assert_equal "$(jget pop/gen-001/select.json .base)" g000c0
}

@test "a select.json naming a kernel that does not exist is refused" {
	gen N=0
	mkdir -p pop/gen-001
	echo '{"base": "g007c1", "reference": "g000c0", "reason": "x"}' >pop/gen-001/select.json
	run -2 gen N=1
	assert_line "ks-hypothesize: '$BATS_TEST_TMPDIR/pop/gen-001/select.json': field \"base\" names 'g007c1', which is not in the population before this generation"
	assert_file_not_exists pop/gen-001/hypotheses.json
}

@test "a missing compiler is a tool error, not a candidate result" {
	run -2 gen N=0 KS_CC=/no/such/cc
	assert_line --partial "ks-build: cannot run '/no/such/cc': No such file or directory"
	assert_file_not_exists pop/gen-000/c0/build.json
}

@test "a read-only POP gives one clear error and nothing half-written" {
	gen N=0
	unshare --mount true 2>/dev/null || skip "no mount namespaces here (unshare --mount)"
	# a read-only bind mount in a mount namespace of its own: root ignores permissions
	run -2 unshare --mount sh -c 'mount --bind pop pop && mount -o remount,bind,ro pop && exec "$@"' sh \
		make -s --no-print-directory -C "$KS_ROOT" generation POP="$BATS_TEST_TMPDIR/pop" N=1
	assert_line --partial "ks-select: cannot create directory '$BATS_TEST_TMPDIR/pop/gen-001': Read-only file system"
	assert_file_not_exists pop/gen-001
}

@test "a full disk gives one clear error, nothing half-written, and the same command completes once there is room" {
	unshare --mount true 2>/dev/null || skip "no mount namespaces here (unshare --mount)"
	gen N=0
	cp -a pop pop.saved
	# POP on a 3 MiB file system of its own, filled up before generation 1
	cat >full.sh <<'SH'
mount -t tmpfs -o size=3m tmpfs pop && cp -a pop.saved/. pop/ &&
dd if=/dev/zero of=pop/filler bs=64k 2>/dev/null
make -s --no-print-directory -C "$KS_ROOT" generation POP="$PWD/pop" N=1 2>&1
echo "make: $?"
find pop -name '.*.json.*' -o -name '*.json' -size 0 | sed 's/^/left: /'
rm pop/filler
make -s --no-print-directory -C "$KS_ROOT" generation POP="$PWD/pop" N=1 2>&1
echo "again: $?"
ls pop/gen-001/c0/bench.json
SH
	KS_ROOT=$KS_ROOT run -0 unshare --mount sh full.sh
	assert_line --regexp "^ks-select: .*'$BATS_TEST_TMPDIR/pop/gen-001.*No space left on device$"
	assert_line "make: 2"
	refute_line --partial "left: "
	assert_line "again: 0"
	assert_line "pop/gen-001/c0/bench.json"
}

@test "a POP path with a space is refused before anything is written" {
	run -2 make -s --no-print-directory -C "$KS_ROOT" generation N=0 POP="$BATS_TEST_TMPDIR/my pop"
	assert_output --partial "POP must be a path without spaces, ':' or '%' (make cannot name such files): '$BATS_TEST_TMPDIR/my pop'"
	refute_output --partial "overriding recipe"
	assert_not_exist "$BATS_TEST_TMPDIR/my pop"
	run -2 make -s --no-print-directory -C "$KS_ROOT" generation N=0 POP="$BATS_TEST_TMPDIR/a:b"
	assert_output --partial "POP must be a path without spaces"
	assert_not_exist "$BATS_TEST_TMPDIR/a:b"
}
