#!/usr/bin/env bats
# A generation's files, made by every stage with a scripted model, against
# tests/golden/generation/: what a move of code (issue 29: the library in
# layers) must leave byte for byte as it was, timings, paths and the
# machine aside (tests/golden/normalize.py says what is set aside).
#
# A change that means to change what the stages write updates the copy:
#	GOLDEN_UPDATE=1 tests/run tests/0013-golden.bats
# and its git diff is the change, to be read like code.

bats_require_minimum_version 1.5.0
load helper/common
load helper/llm

setup() {
	cd "$BATS_TEST_TMPDIR"
	GOLDEN=$KS_ROOT/tests/golden/generation
	# the test's own build cache: the seed's runner is built, not taken from another test's (runner_cached)
	export KS_BUILD_CACHE=$BATS_TEST_TMPDIR/cache
}

teardown() {
	llm_server_stop
}

# fenced FILE: a reply holding FILE as the kernel
fenced() {
	printf 'The change:\n```c\n%s\n```\n' "$(cat "$1")"
}

# benched DIR SCORE: DIR's bench, then its times set to SCORE: what the later stages read is the same
# in every run (the measured bench.json is compared first, its timings aside)
benched() {
	ks-bench "$1"
	python3 "$KS_ROOT/tests/golden/normalize.py" pop measured
	jq --argjson t "$2" '.results |= map(.time_us = $t | .mean_us = $t | .median_us = $t | .min_us = $t
		| .max_us = $t | .stderr_us = $t / 100 | .median_stderr_us = $t / 100 | .runs = 5 | .rel_stderr = 0.01
		| .converged = true | .batch = 1 | .wall_s = 0.5 | .checks = 3 | .checks_s = 0.1 | .bound_us = 50 | .sol_us = 50)
		| .score_us = $t | .timer = "the test'"'"'s" | .device = "cpu: the test'"'"'s" | .peak.flops_per_s = 1e11
		| .peak.threads = 2 | .tests_s = 0.1 | .salt = 1 | .seconds = 1 | del(.machine)
		| if .versus then .versus |= (.ci95 = [0.9, 1.0] | .ratio = 0.95 | .rounds = 2
			| .per_shape |= map(.base_time_us = 20000 | .time_us = $t | .ci95 = [0.9, 1.0] | .ratio = 0.95
			| .rounds = 2)) else . end' "$1/bench.json" >b
	mv b "$1/bench.json"
}

@test "a generation's files are those of tests/golden/generation, timings, paths and the machine aside" {
	local seed=$KS_ROOT/kernels/sgemm/seed.c
	sed 's/^\tint i0;$/\tint i0 = undeclared_thing_xyz;/' "$seed" >broken.c
	grep -q undeclared_thing_xyz broken.c
	with_defines "$seed" MR=4 >four.c
	plan='{"title": "Loop order", "description": "Reorder the loops.", "rubric": "faster", "uplift_min": 1,
		"uplift_max": 5, "innovation": 3}'
	# select and hypothesize answer once; implement: c0 broken, then repaired; c1 at once
	jq -n --rawfile broken <(fenced broken.c) --rawfile fixed <(fenced "$seed") --rawfile four <(fenced four.c) \
		--argjson plan "$plan" '{
		sel: [{content: ({base: "g000c0", reference: "g000c0", reason: "the only one"} | tojson)}],
		hyp: [{content: ({avenues: [range(10) | "avenue \(.)"],
		                  plans: [range(5) as $i | $plan | .title += " \($i)" | .innovation = 1 + $i]} | tojson)}],
		impl: [{content: $broken}, {content: $fixed}, {content: $four}]}' >script.json
	llm_server_start "$(cat script.json)"
	export KS_SELECT_MODEL=sel KS_HYPOTHESIZE_MODEL=hyp KS_IMPLEMENT_MODEL=impl
	ks-init -p sgemm -t cpu -k 2 pop
	ks-implement pop/gen-000/c0
	ks-build pop/gen-000/c0
	benched pop/gen-000/c0 20000
	ks-select pop/gen-001
	ks-hypothesize pop/gen-001
	for s in 0 1; do
		ks-implement pop/gen-001/c$s
		ks-build pop/gen-001/c$s
		benched pop/gen-001/c$s $((9000 + s * 1000))
	done
	ks-report pop >pop/report.txt
	python3 "$KS_ROOT/tests/golden/normalize.py" pop measured
	if [ -n "${GOLDEN_UPDATE:-}" ]; then
		rm -rf "$GOLDEN"
		cp -r measured "$GOLDEN"
		skip "GOLDEN_UPDATE: $GOLDEN written"
	fi
	run diff -r "$GOLDEN" measured
	assert_success
}
