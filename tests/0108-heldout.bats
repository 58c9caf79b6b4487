#!/usr/bin/env bats
# Held-out shapes: problem.json "heldout_shapes", never shown to a model and
# never in the score.  make heldout benches the seed and the best kernels on
# them (ks-bench -H, heldout.json), and the report shows each kernel's
# speed-up there beside its benchmark speed-up, so that a kernel tuned to
# the benchmark shapes shows at once.

bats_require_minimum_version 1.5.0
load helper/common

setup() {
	cd "$BATS_TEST_TMPDIR"
}

heldout() {
	make -s --no-print-directory -C "$KS_ROOT" heldout POP="$BATS_TEST_TMPDIR/pop" "$@"
}

@test "make heldout benches the seed and the TOP best kernels on the held-out shapes; the report shows the speed-up there" {
	run -0 gen N=1 K=2
	cp pop/gen-000/c0/bench.json seed-bench.json
	run -0 heldout TOP=1
	# the seed and the best of generation 1, nothing else
	run -0 ks-query -t 1 pop
	assert_equal "${lines[0]}" pop/gen-000/c0
	best=${lines[1]}
	assert_equal "${#lines[@]}" 2
	run sh -c "find pop -name heldout.json | sort"
	assert_output "$(printf '%s/heldout.json\n' pop/gen-000/c0 "$best" | sort)"
	# the held-out shapes timed, and the score left alone
	run jq -c '[.status, [.results[].shape], .kernel_sha256 == $sha]' \
		--arg sha "$(jget pop/gen-000/c0/bench.json .kernel_sha256)" pop/gen-000/c0/heldout.json
	assert_output "$(jq -c '["ok", .heldout_shapes, true]' "$KS_ROOT/kernels/sgemm/problem.json")"
	cmp seed-bench.json pop/gen-000/c0/bench.json
	# the report: a held-out column, the seed at 1.00x, the best with its own
	run -0 ks-report pop
	assert_line --index 0 --regexp '^id +base +ref +status +score_us +speedup +held-out +spread +plan$'
	assert_line --index 1 --regexp '^g000c0 .* 1\.00x +1\.00x '
	assert_line --regexp "^g001c${best##*/c} .*x[ ~] +[0-9]+\.[0-9]{2}x[ ?] "
}

@test "a kernel tuned to the benchmark shapes shows at once: a ? and a line saying so" {
	make_pop pop 1
	ks-implement pop/gen-000/c0 && ks-build pop/gen-000/c0 && ks-bench pop/gen-000/c0
	mkdir -p pop/gen-001/c0
	cp "$KS_ROOT/tests/fixtures/overfit/sgemm_bench_only.c" pop/gen-001/c0/kernel.c
	hand_candidate pop/gen-001/c0
	ks-build pop/gen-001/c0 && ks-bench pop/gen-001/c0
	assert_equal "$(jget pop/gen-001/c0/bench.json .status)" ok
	run -0 heldout TOP=1
	# (~: the two may be within the noise of each other on the benchmark shapes, on a busy machine)
	assert_line --regexp '^g001c0 .*x[ ~] +[0-9]+\.[0-9]{2}x\?'
	assert_line --regexp "^$BATS_TEST_TMPDIR/pop: g001c0 is [0-9.]+x the seed on the benchmark shapes but [0-9.]+x on the held-out ones: tuned to the benchmark shapes\?$"
}

@test "held-out shapes: a problem without them is named by ks-bench -H, malformed ones by ks-init" {
	mkdir kernels
	cp -r "$KS_ROOT/kernels/common" "$KS_ROOT/kernels/sgemm" kernels/
	jq 'del(.heldout_shapes)' "$KS_ROOT/kernels/sgemm/problem.json" >kernels/sgemm/problem.json
	export KS_KERNELS_DIR=$PWD/kernels
	make_pop pop 1
	ks-implement pop/gen-000/c0 && ks-build pop/gen-000/c0
	run -1 --separate-stderr ks-bench -H pop/gen-000/c0
	assert_equal "$stderr" "ks-bench: '$PWD/kernels/sgemm/problem.json': the problem holds no \"heldout_shapes\" to bench"
	assert_file_not_exists pop/gen-000/c0/heldout.json
	jq '.heldout_shapes = [{"M": 4, "N": 0, "K": 4}]' "$KS_ROOT/kernels/sgemm/problem.json" >kernels/sgemm/problem.json
	run -1 --separate-stderr ks-init -p sgemm -t cpu -k 1 other
	assert_output ""
	[[ $stderr == *"kernels/sgemm/problem.json'"*"\"N\""* ]] || fail "stderr: $stderr"
	assert_file_not_exists other/run.json
}

@test "a population copied without its runners: kernel-scientist(7)'s ks-build of the kernels ks-query -t lists, then make heldout" {
	run -0 gen N=1 K=2
	rm pop/gen-*/c*/runner
	cp pop/gen-000/c0/bench.json seed-bench.json
	run -2 heldout TOP=1
	assert_output --partial "/pop/gen-000/c0/runner' is missing: run ks-build again"
	# kernel-scientist(7)'s recipe (make heldout), word for word but for the names
	for d in $(ks-query -t 1 pop); do ks-build "$d"; done
	run -0 heldout TOP=1
	assert_line --regexp '^g000c0 .* 1\.00x +1\.00x '
	run -0 jget pop/gen-000/c0/heldout.json .status
	assert_output ok
	# the benchmark results stand
	cmp seed-bench.json pop/gen-000/c0/bench.json
	run -0 ks-report pop
	refute_output --partial stale
}


@test "a held-out shortfall inside the noise of the benches is no warning; beyond it, one line" {
	make_pop pop 1
	ks-implement pop/gen-000/c0 && ks-build pop/gen-000/c0 && ks-bench pop/gen-000/c0
	mkdir -p pop/gen-001/c0
	cp pop/gen-000/c0/kernel.c pop/gen-001/c0/kernel.c
	hand_candidate pop/gen-001/c0
	# records made by hand: g001c0 the seed's equal on the benchmark shapes, 0.794x of it held out
	# shapes: every shape's standard error 0.1 % and converged ($conv), times scaled by $f
	shapes() {
		jq --argjson conv "$1" --argjson f "$2" --arg id "$3" '.id = $id | .score_us *= $f
			| .results |= map(.time_us *= $f | .median_us *= $f | .rel_stderr = 0.001 | .converged = $conv)' \
			pop/gen-000/c0/bench.json
	}
	records() {
		shapes "$1" 1 g000c0 >b.json && mv b.json pop/gen-000/c0/bench.json
		shapes "$1" 1 g000c0 >pop/gen-000/c0/heldout.json
		shapes "$1" 1 g001c0 >pop/gen-001/c0/bench.json
		shapes "$1" 1.26 g001c0 >pop/gen-001/c0/heldout.json
	}
	records true
	run -0 ks-report pop
	assert_line --regexp '^g001c0 .* +0\.79x\? '
	assert_line "pop: g001c0 is 1.00x the seed on the benchmark shapes but 0.79x on the held-out ones: tuned to the benchmark shapes?"
	# every shape of the four benches ran into the time cap: 0.79x is inside their noise
	records false
	run -0 ks-report pop
	assert_line --regexp '^g001c0 .* +0\.79x '
	refute_line --partial "tuned to the benchmark shapes?"
}
