#!/usr/bin/env bats
# Every setting of every stage is checked before a make builds or asks
# anything (issue 28 item 3): ks-init, which make generation and make
# check run first, names a bad one in the line the stage would print,
# exits 1, and nothing runs after it: no request, no compile, no file.

bats_require_minimum_version 1.5.0
load helper/common
load helper/llm

# A kernels folder with the shipped problems and xsgemm, sgemm for target external.
setup_file() {
	cd "$BATS_FILE_TMPDIR" || return
	mkdir kernels
	ln -s "$KS_ROOT"/kernels/* kernels/
	cp -r "$KS_ROOT/kernels/sgemm" kernels/xsgemm
	jq '.name = "xsgemm" | .targets = ["external"]' "$KS_ROOT/kernels/sgemm/problem.json" >kernels/xsgemm/problem.json
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return
	export KS_KERNELS_DIR=$BATS_FILE_TMPDIR/kernels
}

teardown() {
	llm_server_stop
}

# make generation N=1 on ./pop with ARGS (make's variables)
make_gen() {
	make -s --no-print-directory -C "$KS_ROOT" generation N=1 POP="$BATS_TEST_TMPDIR/pop" "$@"
}

# serve: the fake server, select and hypothesize answering as a run needs (sel, hyp)
serve() {
	plans_reply plans.md
	llm_server_start "$(jq -nc --rawfile plans plans.md '{
		sel: [{content: ({base: "g000c0", reference: "g000c0", reason: "the only kernel"} | tojson)}],
		hyp: [{content: $plans}], "*": [{content: "no"}]}')"
	export KS_SELECT_MODEL=sel KS_HYPOTHESIZE_MODEL=hyp
}

# assert_stopped LINE: nothing asked, compiled or written; make failed on ks-init's LINE alone (and make's own)
assert_stopped() {
	assert_equal "$(llm_requests)" 0
	assert_file_not_exists pop/gen-000/c0/build.json
	assert_file_not_exists pop/run.json
	assert_equal "${lines[0]}" "ks-init: $1"
	assert_equal "${#lines[@]}" 2
	assert_line --index 1 --regexp '^make(\[[0-9]+\])?: \*\*\* .*generation\] Error 1$'
}

@test "KS_IMPLEMENT_MODEL='m:0' stops make generation at once: no request, no compile" {
	# (before: ks-implement refused it, after select and hypothesize had asked the model, and been billed)
	serve
	KS_IMPLEMENT_MODEL='m:0' run -2 make_gen
	assert_stopped "KS_IMPLEMENT_MODEL: the weight of 'm:0' must be an integer from 1 to 1000"
	# set right, the same command runs, the model asked as before
	KS_IMPLEMENT_MODEL=impl run -0 make_gen K=1
	assert_equal "$(llm_log .model | head -2 | tr '\n' ' ')" "sel hyp "
}

@test "KS_TIME_CAP_S=fast stops make generation before the seed compiles" {
	# (before: ks-bench refused it, after ks-build had compiled the seed)
	KS_TIME_CAP_S=fast run -2 make_gen
	assert_stopped "KS_TIME_CAP_S must be a positive number, not 'fast'"
}

@test "a bad setting of each stage, on its target, stops make generation in one line" {
	serve
	export KS_IMPLEMENT_MODEL=impl KS_EVAL_CMD=true
	local -a cases=(
		# make's variables | the setting | the line
		"|KS_LLM_TRIES=0|KS_LLM_TRIES must be an integer from 1 to 100, not '0'"
		"|KS_SELECT_MODEL=sel@far|KS_SELECT_MODEL puts sel on endpoint 'far', but KS_ENDPOINT_FAR_URL is not set"
		"|KS_SOL_STOP=95%|KS_SOL_STOP must be a percentage from 0 (never stop) to 100, not '95%'"
		"|KS_HYPOTHESIZE_EXTRA_BODY=[1]|KS_HYPOTHESIZE_EXTRA_BODY must be a JSON object, e.g. '{\"reasoning_effort\": \"high\"}', not '[1]'"
		"|KS_CONTEXT_CHARS=10|KS_CONTEXT_CHARS must be an integer from 1000 to 100000000 (characters of one section of a prompt), not '10'"
		"|KS_IMPLEMENT_MODEL=impl:0|KS_IMPLEMENT_MODEL: the weight of 'impl:0' must be an integer from 1 to 1000"
		"|KS_REPAIR_TRIES=11|KS_REPAIR_TRIES must be an integer from 0 to 10, not '11'"
		"|KS_LAUNCH_BUILD=srun; rm|KS_LAUNCH_BUILD 'srun; rm': ';' is not expanded (its words are split as a shell would, but no shell runs them): quote it with '...'"
		"PROBLEM=rmsnorm TARGET=cuda|KS_GPU_ARCH=sm 90|KS_GPU_ARCH must be an architecture such as sm_90a, not 'sm 90'"
		"PROBLEM=xsgemm TARGET=external|KS_EVAL_CMD=|target external needs KS_EVAL_CMD, the command that judges a kernel (population(5), \"External evaluators\")"
		"PROBLEM=xsgemm TARGET=external|KS_EVAL_CHECK_CMD=check 'x|KS_EVAL_CHECK_CMD 'check 'x': a ' quote is not closed"
		"|KS_TIME_CAP_S=fast|KS_TIME_CAP_S must be a positive number, not 'fast'"
		"|KS_MIN_RUNS=2.5|KS_MIN_RUNS must be a positive integer, not '2.5'"
		"|KS_VERSUS=2|bad KS_VERSUS '2': expected 1 (time each candidate side by side with its base) or 0"
		"|KS_BENCH_BATCH=0|bad KS_BENCH_BATCH '0': expected auto or calls per timed sample, 1 to 128"
		"|KS_BENCH_SETTLE_S=-1|KS_BENCH_SETTLE_S must be the seconds to wait for a busy machine, 0 (no wait) to 3600, not '-1'"
		"|KS_SANDBOX=docker|bad KS_SANDBOX 'docker': expected bwrap or basic"
		"|KS_LAUNCH=srun \$X|KS_LAUNCH 'srun \$X': '\$' is not expanded (its words are split as a shell would, but no shell runs them): quote it with '...'"
		"PROBLEM=rmsnorm TARGET=cuda|KS_GPUS=0,x|bad KS_GPUS '0,x': expected GPU indices such as 0,1,3 (at most 64)"
		"PROBLEM=rmsnorm TARGET=cuda|KS_PROFILE_TIMEOUT_S=0|KS_PROFILE_TIMEOUT_S must be a positive number of seconds, not '0'"
		"KS_PROFILE=1|KS_PROFILE_TIMEOUT_S=soon|KS_PROFILE_TIMEOUT_S must be a positive number of seconds, not 'soon'"
	)
	local c vars setting line
	for c in "${cases[@]}"; do
		IFS='|' read -r vars setting line <<<"$c"
		# shellcheck disable=SC2086 # make's variables are words
		run -2 env "$setting" make -s --no-print-directory -C "$KS_ROOT" generation N=1 POP="$BATS_TEST_TMPDIR/pop" $vars
		assert_stopped "$line"
	done
	# where a stage does not read a setting, it is not checked: no profiler on the CPU, no sandbox for external
	KS_PROFILE_TIMEOUT_S=0 run -0 ks-init -p sgemm -t cpu cpu-pop
	KS_SANDBOX=docker run -0 ks-init -p xsgemm -t external external-pop
}

@test "a run made before is checked again by the next make: a bad setting now stops it, and the run is as it was" {
	# (before: generation 1 was selected, planned, implemented and compiled before ks-bench refused it)
	make_gen N=0 >/dev/null
	cp pop/run.json run.json.before
	KS_TIME_CAP_S=fast run -2 make_gen
	assert_dir_not_exists pop/gen-001
	assert_equal "${lines[0]}" "ks-init: KS_TIME_CAP_S must be a positive number, not 'fast'"
	assert_equal "${#lines[@]}" 2
	cmp run.json.before pop/run.json
}

@test "make check says a bad setting before it builds the seed" {
	# (before: ks-bench said it, once the seed was built)
	KS_TIME_CAP_S=fast run -2 make -s --no-print-directory -C "$KS_ROOT" check PROBLEM=sgemm
	assert_equal "${lines[0]}" "ks-init: KS_TIME_CAP_S must be a positive number, not 'fast'"
	assert_equal "${#lines[@]}" 2
}

@test "good settings are checked without a word: no note, no request, nothing written but run.json" {
	serve
	# a key that is not sent to this server (a note where a stage calls), several models, one on an endpoint
	OPENAI_API_KEY=sk-other KS_IMPLEMENT_MODEL='impl:3,impl@local' KS_ENDPOINT_LOCAL_URL=$LLM_URL \
		KS_QUIET=0 run -0 ks-init -p sgemm -t cpu -k 2 pop
	assert_output "ks-init: created 'pop/run.json' (problem sgemm, target cpu, K=2)"
	assert_equal "$(llm_requests)" 0
	run find pop
	assert_output $'pop\npop/run.json'
	# offline, no note that the stages would print either
	llm_server_stop
	unset KS_LLM_URL KS_LLM_API_KEY KS_LLM_PROVIDER
	KS_QUIET=0 run -0 ks-init -p sgemm -t cpu -k 2 offline
	assert_output "ks-init: created 'offline/run.json' (problem sgemm, target cpu, K=2)"
}
