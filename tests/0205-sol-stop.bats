#!/usr/bin/env bats
# The speed of light ends a search: once a kernel runs at KS_SOL_STOP
# (default 90 %) of the speed of light or more on every benchmark shape,
# ks-select takes it without asking a model and says why, ks-hypothesize
# makes no plans, and the generations after it have no candidates.

bats_require_minimum_version 1.5.0
load helper/common
load helper/llm

setup() {
	cd "$BATS_TEST_TMPDIR"
	make_pop pop
	# the seed at 50, 10 and 75 % of SOL; g001c0 at 95, 92 and 99 %; g001c1 faster but at 85 % on one shape
	fake_cand pop 0 0 ok 100 ''
	fake_cand pop 1 0 ok 50 'LOOP_ORDER=1' g000c0 g000c0
	fake_cand pop 1 1 ok 40 'BM=32' g000c0 g000c0
	with_sol pop/gen-000/c0 80/40 80/8 80/60
	with_sol pop/gen-001/c0 100/95 100/92 100/99
	with_sol pop/gen-001/c1 50/49 50/42.5 50/49
	# a server that knows no model: any request would fail the stage
	llm_server_start '{}'
}

teardown() {
	llm_server_stop
}

STOP="speed of light reached: g001c0 runs at 92.0 % or more of the speed of light on every shape (95.3 % overall; KS_SOL_STOP=90): nothing left worth an API call"

@test "a kernel at 90 % of SOL on every shape: select takes it, says why, and asks no model; no plans follow" {
	run -0 --separate-stderr ks-select pop/gen-002
	assert_equal "$stderr" "ks-select: 'pop/gen-002': $STOP"
	run jf pop/gen-002/select.json .base .reference .model .stop .reason
	assert_output "g001c0
g001c0
offline
$STOP
$STOP"
	run -0 --separate-stderr ks-hypothesize pop/gen-002
	assert_equal "$stderr" "ks-hypothesize: 'pop/gen-002': $STOP: no candidates in this generation"
	run jf pop/gen-002/hypotheses.json .exhausted '[.plans, .chosen, .model]'
	assert_output "$STOP
[[],[],\"offline\"]"
	assert_equal "$(llm_requests)" 0
	# no candidate: the slots are empty, and the report says why the search ended
	run -0 ks-implement pop/gen-002/c0
	assert_file_not_exists pop/gen-002/c0/candidate.json
	run -0 ks-report pop
	assert_line "pop: generation 2: $STOP"
}

@test "KS_SOL_STOP moves the line: at 95 % g001c0 is not there; at 0 nothing stops; a bad value is named" {
	# offline: the rule chooses (the fastest, g001c1) where the search goes on
	llm_server_stop
	unset KS_LLM_URL KS_LLM_API_KEY KS_LLM_PROVIDER KS_MODEL
	run -0 ks-select -o sel90.json pop/gen-002
	run jf sel90.json .base .stop
	assert_output "g001c0
$STOP"
	for share in 95 0; do
		KS_SOL_STOP=$share run -0 --separate-stderr ks-select -o sel.json pop/gen-002
		assert_equal "$stderr" ""
		run jf sel.json .base 'has("stop")'
		assert_output $'g001c1\nfalse'
	done
	# 85 % is enough for g001c1, the faster of the two
	KS_SOL_STOP=85 run -0 ks-select -o sel85.json pop/gen-002
	assert_equal "$(jget sel85.json .base)" g001c1
	for bad in 101 -1 ninety 0.9; do
		KS_SOL_STOP=$bad run -1 --separate-stderr ks-select pop/gen-002
		assert_equal "$stderr" "ks-select: KS_SOL_STOP must be a percentage from 0 (never stop) to 100, not '$bad'"
		assert_file_not_exists pop/gen-002/select.json
	done
}

@test "make generation stops at the speed of light: later generations have no candidates, and the report says why" {
	llm_server_stop
	unset KS_LLM_URL KS_LLM_API_KEY KS_LLM_PROVIDER KS_MODEL
	# a copy of sgemm whose shapes' own limit ("sol_us") any kernel meets
	mkdir kernels
	cp -r "$KS_ROOT/kernels/common" "$KS_ROOT/kernels/sgemm" kernels/
	jq '.bench_shapes |= map(.sol_us = 1e9)' "$KS_ROOT/kernels/sgemm/problem.json" >kernels/sgemm/problem.json
	export KS_KERNELS_DIR=$PWD/kernels
	run -0 make -s --no-print-directory -C "$KS_ROOT" generation N=2 POP="$PWD/sol" K=2
	assert_output --regexp "ks-select: '[^']*/sol/gen-001': speed of light reached: g000c0 runs at [0-9.]+ % or more"
	assert_output --regexp "/sol: generation 1: speed of light reached: g000c0"
	run ls sol/gen-001 sol/gen-002
	assert_output $'sol/gen-001:\nhypotheses.json\nselect.json\n\nsol/gen-002:\nhypotheses.json\nselect.json'
}
