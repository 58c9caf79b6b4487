#!/usr/bin/env bats
# Progress: a long stage says on stderr what it does, a line per step
# (which candidate, what it does, how long it took, the tokens of an LLM
# call), a terminal one line rewritten in place; make generation ends each
# generation with one line (its kernels by status, its best, the best so
# far).  KS_QUIET=1 or KS_PROGRESS=0 (which the other tests set) silences
# it.

bats_require_minimum_version 1.5.0
load helper/common
load helper/llm

setup() {
	cd "$BATS_TEST_TMPDIR"
	make_pop pop 1
	ks-implement pop/gen-000/c0
}

teardown() {
	llm_server_stop
}

@test "a pipe gets a line per step: the build, the bench with its verdict and how long each took" {
	KS_QUIET=0 KS_PROGRESS=1 run -0 --separate-stderr ks-build pop/gen-000/c0
	assert_equal "${#stderr_lines[@]}" 2
	assert_equal "${stderr_lines[0]}" "ks-build: pop/gen-000/c0/kernel.c: compiling"
	[[ ${stderr_lines[1]} =~ ^ks-build:\ pop/gen-000/c0/kernel\.c:\ built\ in\ [0-9]+\.[0-9]\ s$ ]] || fail "${stderr_lines[1]}"
	KS_QUIET=0 KS_PROGRESS=1 run -0 --separate-stderr ks-bench pop/gen-000/c0
	assert_equal "${stderr_lines[0]}" "ks-bench: g000c0: checking 10 test shapes, timing 3 shapes on the cpu"
	[[ ${stderr_lines[1]} =~ ^ks-bench:\ g000c0:\ ok,\ [0-9.]+\ us,\ after\ [0-9]+\.[0-9]\ s$ ]] || fail "${stderr_lines[1]}"
	assert_equal "${#stderr_lines[@]}" 2
	# and KS_QUIET=1 silences it
	run -0 --separate-stderr ks-bench pop/gen-000/c0
	assert_equal "$stderr" ""
}

@test "a terminal gets one line, rewritten in place, ended when the step is done" {
	ks-build pop/gen-000/c0
	KS_QUIET=0 KS_PROGRESS=1 run -0 script -qec "$KS_ROOT/tools/ks-bench pop/gen-000/c0" /dev/null
	# the first state, then the verdict over it on the same line, then a newline (the terminal's \r\n; run drops the \n)
	[[ $output == $'\r\e[Kks-bench: g000c0: checking 10 test shapes, timing 3 shapes on the cpu\r\e[Kks-bench: g000c0: ok, '*$' s\r' ]] ||
		fail "$(printf '%q' "$output")"
}

@test "an LLM call says which stage asks which model, then how long the answer took and its tokens" {
	plans_reply plans.json
	fake_cand pop 0 0 ok 100 ''
	mkdir -p pop/gen-001
	jq -n '{base: "g000c0", reference: "g000c0", reason: "the seed"}' >pop/gen-001/select.json
	llm_server_start "$(jq -nc --rawfile p plans.json '{hyp: [{content: $p, usage: {prompt_tokens: 1200, completion_tokens: 300}}]}')"
	KS_QUIET=0 KS_PROGRESS=1 KS_HYPOTHESIZE_MODEL=hyp run -0 --separate-stderr ks-hypothesize pop/gen-001
	assert_equal "${stderr_lines[0]}" "ks-hypothesize: pop/gen-001: hypothesize asks hyp (try 1)"
	[[ ${stderr_lines[1]} =~ ^ks-hypothesize:\ pop/gen-001:\ hyp\ answered\ in\ [0-9]+\.[0-9]\ s:\ 1200\ prompt\ and\ 300\ completion\ tokens\ \(this\ stage:\ 1500\)$ ]] ||
		fail "${stderr_lines[1]}"
}

@test "make generation ends each generation with one line: its kernels by status, its best, the best so far" {
	KS_QUIET=0 KS_PROGRESS=1 run -0 make -s --no-print-directory -C "$KS_ROOT" generation N=2 K=2 POP="$BATS_TEST_TMPDIR/run"
	assert_line --regexp "^$BATS_TEST_TMPDIR/run: generation 0: 1 kernel \(1 ok\); its best g000c0 [0-9.]+ us; best so far g000c0 [0-9.]+ us, 1\.00x the seed$"
	assert_line --regexp "^$BATS_TEST_TMPDIR/run: generation 1: 2 kernels \(2 ok\); its best g001c[01] [0-9.]+ us; best so far g00[01]c[01] [0-9.]+ us, [0-9.]+x the seed$"
	assert_line --regexp "^$BATS_TEST_TMPDIR/run: generation 2: 2 kernels \(2 ok\); its best g002c[01] [0-9.]+ us; best so far g00[012]c[01] [0-9.]+ us, [0-9.]+x the seed$"
	# the last line is the run's summary, as before
	assert_line --index $((${#lines[@]} - 1)) --regexp "^$BATS_TEST_TMPDIR/run: generations 0\.\.2, 5 kernels, 5 correct; best "
	# quiet: none of it; with the notes on and KS_PROGRESS=0, none either
	KS_PROGRESS=1 run -0 make -s --no-print-directory -C "$KS_ROOT" generation N=1 K=2 POP="$BATS_TEST_TMPDIR/quiet"
	refute_output --partial ": generation 0:"
	KS_QUIET=0 run -0 --separate-stderr ks-bench run/gen-002/c0
	assert_equal "$stderr" ""
}
