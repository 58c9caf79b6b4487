#!/usr/bin/env bats
# Target external: a kernel judged by the command the user names
# (KS_EVAL_CMD), with the protocol of population(5) "External evaluators";
# then tools/ks-eval-popcorn, the adapter for GPU MODE's popcorn-cli,
# against recorded outputs (tests/fixtures/popcorn) and a fake popcorn-cli.

bats_require_minimum_version 1.5.0
load helper/common
load helper/llm

SHAPES='[{"M":256,"N":256,"K":256},{"M":512,"N":384,"K":320},{"M":200,"N":640,"K":448}]'

setup() {
	cd "$BATS_TEST_TMPDIR"
	# sgemm's problem, for target external only
	mkdir -p kernels
	cp -r "$KS_ROOT/kernels/common" kernels/
	cp -r "$KS_ROOT/kernels/sgemm" kernels/xsgemm
	jq '.name = "xsgemm" | .targets = ["external"]' "$KS_ROOT/kernels/sgemm/problem.json" >kernels/xsgemm/problem.json
	export KS_KERNELS_DIR=$BATS_TEST_TMPDIR/kernels
	unset KS_EVAL_CMD
}

teardown() {
	llm_server_stop
}

# evaluator NAME: an executable ./NAME from stdin
evaluator() {
	cat >"$1"
	chmod +x "$1"
}

# seed: pop/gen-000/c0 implemented and built for target external (ks-init
# needs an evaluator named: the tests name theirs after, for ks-bench)
seed() {
	KS_EVAL_CMD=${KS_EVAL_CMD:-true} ks-init -p xsgemm -t external -k "${1:-3}" pop
	ks-implement pop/gen-000/c0
	ks-build pop/gen-000/c0
}

# The evaluator of the end-to-end runs: the kernel's knobs decide its time
# (the smaller their sum, the faster), every shape correct; it writes what
# it was given into calls.log.
knob_evaluator() {
	evaluator eval.py <<'EOF'
#!/usr/bin/env python3
import json, os, re, sys
src = open(sys.argv[-1]).read()
knobs = sum(int(v) for v in re.findall(r"^#define \w+ (\d+)", src, re.M))
with open(os.path.join(os.environ["BATS_TEST_TMPDIR"], "calls.log"), "a") as log:
    log.write(json.dumps({"argv": sys.argv[1:], "source": os.environ["KS_EVAL_SOURCE"],
        "id": os.environ["KS_EVAL_ID"], "mode": os.environ["KS_EVAL_MODE"], "cwd": os.getcwd(),
        "problem": os.environ["KS_EVAL_PROBLEM"], "problem_dir": os.environ["KS_EVAL_PROBLEM_DIR"],
        "dims": json.loads(os.environ["KS_EVAL_DIMS"]), "shapes": json.loads(os.environ["KS_EVAL_SHAPES"]),
        "tests": len(json.loads(os.environ["KS_EVAL_TEST_SHAPES"])), "timeout": os.environ["KS_EVAL_TIMEOUT_S"],
        "knobs": knobs}) + "\n")
shapes = json.loads(os.environ["KS_EVAL_SHAPES"])
# in reverse order: the protocol matches shapes by their dims, not their place
print(json.dumps({"status": "correct", "evaluator": "knobs", "device": "a test GPU", "timer": "wall clock",
    "shapes": [{"shape": s, "time_us": knobs * (i + 1) / 100.0, "mean_us": knobs * (i + 1) / 100.0,
                "stderr_us": 0.001, "runs": 20} for i, s in reversed(list(enumerate(shapes)))]}))
EOF
	export KS_EVAL_CMD="$BATS_TEST_TMPDIR/eval.py --flag 'two words'"
	# the evaluator sees an exact list of variables: it names its log's folder
	export KS_EVAL_ENV=BATS_TEST_TMPDIR
}

@test "ks-build compiles nothing for target external, and says so in build.json" {
	seed
	assert_file_exists pop/gen-000/c0/kernel.c
	assert_file_not_exists pop/gen-000/c0/runner
	run -0 jf pop/gen-000/c0/build.json .ok .target '.compiler == null and .command == null' .seconds .diagnostics \
		'.kernel_sha256 | length' 'has("rejected")'
	assert_output "true
external
true
0
not compiled: target external hands the source to the evaluator (KS_EVAL_CMD), which builds and judges it
64
false"
}

@test "a correct verdict: times per shape in the problem's order, the geometric mean as the score, what the evaluator was given" {
	seed
	knob_evaluator
	run -0 ks-bench pop/gen-000/c0
	local b=pop/gen-000/c0/bench.json k
	k=$(jq -r .knobs calls.log)
	run -0 jf $b .id .status .correct .evaluator .device .timer .message .score_stat '.runner_sha256 == null' \
		'[.results[].shape]' '.results[0] | [.time_us, .mean_us, .stderr_us, .runs, .converged, .median_us]'
	assert_output "g000c0
ok
true
eval.py: knobs
a test GPU
wall clock
null
evaluator
true
$SHAPES
[$(jq -n "$k / 100"),$(jq -n "$k / 100"),0.001,20,true,null]"
	# the score is the geometric mean of the times, and the record loads as every local one does
	run -0 jq -e --argjson k "$k" '(.score_us - ([1, 2, 3] | map($k * . / 100 | log) | add / 3 | exp) | fabs) < 1e-9' $b
	run -0 jq -e '.kernel_sha256 == input.kernel_sha256' $b pop/gen-000/c0/build.json
	run -0 ks-report pop
	assert_output --partial "g000c0"
	# the protocol's inputs: the kernel as the last argument, the command's own words before it
	local src
	src=$(realpath pop/gen-000/c0/kernel.c)
	run -0 jf calls.log .argv .source .id .mode .problem .problem_dir .dims .shapes .tests .timeout
	assert_output "[\"--flag\",\"two words\",\"$src\"]
$src
g000c0
bench
xsgemm
$BATS_TEST_TMPDIR/kernels/xsgemm
[\"M\",\"N\",\"K\"]
$SHAPES
10
300"
	# its working directory is gone, and no output file is left
	assert_file_not_exists pop/gen-000/c0/.eval
	run -0 find pop -name '.eval*'
	assert_output ""
}

@test "ks-bench -H hands the held-out shapes to the evaluator, and no test shapes" {
	seed
	knob_evaluator
	run -0 ks-bench -H pop/gen-000/c0
	run -0 jf calls.log .mode '.shapes | length' .tests
	assert_output "heldout
3
0"
	run -0 jf pop/gen-000/c0/heldout.json .status '[.results[].shape.M]'
	assert_output "ok
[384,129,1000]"
}

# verdict JSON: the evaluator prints JSON (shell-expanded with $SHAPES, $S0..$S2)
verdict() {
	evaluator eval.sh <<EOF
#!/bin/sh
cat <<'OUT'
$1
OUT
EOF
	export KS_EVAL_CMD=$BATS_TEST_TMPDIR/eval.sh
}

S0='{"M":256,"N":256,"K":256}'
S1='{"M":512,"N":384,"K":320}'
S2='{"M":200,"N":640,"K":448}'

# bench_says STATUS MESSAGE: ks-bench records STATUS with MESSAGE, no score, no results
bench_says() {
	run -0 ks-bench pop/gen-000/c0
	run -0 jf pop/gen-000/c0/bench.json .status .message .score_us .results .correct
	assert_output "$1
$2
null
[]
false"
}

@test "incorrect: the evaluator's words, and a shape it found wrong names that shape" {
	seed
	verdict '{"status": "incorrect", "message": "mismatch at (3, 4): 1.5 vs 2.5"}'
	bench_says incorrect "the evaluator said incorrect: mismatch at (3, 4): 1.5 vs 2.5"
	verdict "{\"status\": \"correct\", \"shapes\": [{\"shape\": $S0, \"time_us\": 5}, {\"shape\": $S1, \"time_us\": 6, \"status\": \"incorrect\", \"message\": \"NaN in the output\"}, {\"shape\": $S2, \"time_us\": 7}]}"
	bench_says incorrect "the evaluator found shape 512x384x320 wrong: NaN in the output"
}

@test "the evaluator's other statuses map to the population's" {
	seed
	verdict '{"status": "build_failed", "message": "nvcc: error: expected a ;"}'
	bench_says build_failed "the evaluator said build_failed: nvcc: error: expected a ;"
	verdict '{"status": "crashed", "message": "CUDA error: an illegal memory access"}'
	bench_says crashed "the evaluator said crashed: CUDA error: an illegal memory access"
	verdict '{"status": "timeout"}'
	bench_says timeout "the evaluator said timeout"
	verdict '{"status": "rejected", "message": "the kernel caches its output"}'
	bench_says rejected "the evaluator said rejected: the kernel caches its output"
	verdict '{"status": "maybe"}'
	bench_says crashed "the evaluator's status 'maybe' is not one of correct, incorrect, build_failed, crashed, timeout, rejected, unavailable"
	verdict '{"message": "no status"}'
	bench_says crashed 'the evaluator'"'"'s output has no "status" string'
}

@test "an evaluator that crashes, prints no JSON or hangs is the candidate's verdict, not a failure of ks-bench" {
	seed
	evaluator eval.sh <<'EOF'
#!/bin/sh
echo "Traceback: KeyError: 'leaderboard'" >&2
exit 3
EOF
	export KS_EVAL_CMD=$BATS_TEST_TMPDIR/eval.sh
	bench_says crashed "the evaluator eval.sh exited with status 3; its last output: Traceback: KeyError: 'leaderboard'"
	run -0 jget pop/gen-000/c0/bench.json .device
	assert_output "eval.sh"
	verdict 'Submission result: all good'
	bench_says crashed "the evaluator's output is not one JSON object (it printed: Submission result: all good
)"
	verdict ''
	bench_says crashed "the evaluator's output is not one JSON object (it printed: 
)"
	verdict '[1, 2]'
	bench_says crashed "the evaluator's output is not one JSON object (it printed: [1, 2]
)"
	evaluator eval.sh <<'EOF'
#!/bin/sh
sleep 30
EOF
	SECONDS=0
	KS_BENCH_TIMEOUT_S=1 bench_says timeout "the evaluator eval.sh was killed after 1 s (KS_BENCH_TIMEOUT_S, else the problem's limits.bench_s)"
	[ "$SECONDS" -lt 10 ] || fail "the timeout took $SECONDS s"
}

@test "shapes that do not fit: missing, unknown, twice, a time that is not a positive number" {
	seed
	verdict "{\"status\": \"correct\", \"shapes\": [{\"shape\": $S0, \"time_us\": 5}, {\"shape\": $S2, \"time_us\": 7}]}"
	bench_says crashed "the evaluator gave no time for benchmark shape 512x384x320"
	verdict '{"status": "correct"}'
	bench_says crashed 'the evaluator said correct but gave no "shapes" array of times'
	verdict "{\"status\": \"correct\", \"shapes\": [{\"shape\": $S0, \"time_us\": 5}, {\"shape\": $S1, \"time_us\": 6}, {\"shape\": $S2, \"time_us\": 7}, {\"shape\": {\"M\": 1, \"N\": 2, \"K\": 3}, \"time_us\": 1}]}"
	bench_says crashed 'the evaluator'"'"'s shapes[3] ({"M":1,"N":2,"K":3}) is not one of the benchmark shapes'
	verdict "{\"status\": \"correct\", \"shapes\": [{\"shape\": $S0, \"time_us\": 5}, {\"shape\": $S1, \"time_us\": 6}, {\"shape\": $S0, \"time_us\": 7}]}"
	bench_says crashed "the evaluator timed shape 256x256x256 twice"
	verdict "{\"status\": \"correct\", \"shapes\": [{\"shape\": $S0, \"time_us\": 5}, {\"shape\": $S1, \"time_us\": -6}, {\"shape\": $S2, \"time_us\": 7}]}"
	bench_says crashed 'the evaluator'"'"'s time of shape 512x384x320 is not a positive number of microseconds ("time_us")'
	verdict "{\"status\": \"correct\", \"shapes\": [{\"shape\": $S0, \"time_us\": 5}, {\"shape\": $S1, \"time_us\": \"fast\"}, {\"shape\": $S2, \"time_us\": 7}]}"
	bench_says crashed 'the evaluator'"'"'s time of shape 512x384x320 is not a positive number of microseconds ("time_us")'
	verdict "{\"status\": \"correct\", \"shapes\": [{\"shape\": $S0, \"time_us\": 5, \"runs\": 0.5}, {\"shape\": $S1, \"time_us\": 6}, {\"shape\": $S2, \"time_us\": 7}]}"
	bench_says crashed 'the evaluator'"'"'s "runs" of shape 256x256x256 is not a positive integer'
	# the shape's sol_us of problem.json is kept, as a local bench keeps it
	jset kernels/xsgemm/problem.json '.bench_shapes[1].sol_us = 2'
	verdict "{\"status\": \"correct\", \"shapes\": [{\"shape\": $S0, \"time_us\": 5}, {\"shape\": $S1, \"time_us\": 6, \"converged\": false}, {\"shape\": $S2, \"time_us\": 7}]}"
	run -0 ks-bench pop/gen-000/c0
	run -0 jf pop/gen-000/c0/bench.json .status '[.results[] | .sol_us]' '[.results[] | .converged]' '[.results[] | .rel_stderr]'
	assert_output 'ok
[null,2,null]
[true,false,true]
[null,null,null]'
}

@test "unavailable, an unset or malformed KS_EVAL_CMD, a missing program: ks-bench exits 1 and records nothing" {
	seed
	verdict '{"status": "unavailable", "message": "rate limited: 429 Too Many Requests"}'
	run -1 ks-bench pop/gen-000/c0
	assert_output "ks-bench: the evaluator could not judge 'pop/gen-000/c0': rate limited: 429 Too Many Requests"
	assert_file_not_exists pop/gen-000/c0/bench.json
	unset KS_EVAL_CMD
	run -1 ks-bench pop/gen-000/c0
	assert_output 'ks-bench: target external needs KS_EVAL_CMD, the command that judges a kernel (population(5), "External evaluators")'
	KS_EVAL_CMD="eval.sh 'open" run -1 ks-bench pop/gen-000/c0
	assert_output "ks-bench: KS_EVAL_CMD 'eval.sh 'open': a ' quote is not closed"
	KS_EVAL_CMD="   " run -1 ks-bench pop/gen-000/c0
	assert_output "ks-bench: KS_EVAL_CMD '   ' holds no words"
	# split as KS_LAUNCH is: what a shell would expand is refused, not passed on as it is
	KS_EVAL_CMD='eval.sh --out $HOME/x' run -1 ks-bench pop/gen-000/c0
	assert_output "ks-bench: KS_EVAL_CMD 'eval.sh --out \$HOME/x': '\$' is not expanded (its words are split as a shell would, but no shell runs them): quote it with '...'"
	KS_EVAL_CMD="$BATS_TEST_TMPDIR/no-such-evaluator" run -1 ks-bench pop/gen-000/c0
	assert_output --partial "no-such-evaluator"
	assert_file_not_exists pop/gen-000/c0/bench.json
	run -0 find pop -name '.eval*'
	assert_output ""
}

@test "make generation N=2 with target external: ks-select takes the kernel the evaluator timed fastest" {
	knob_evaluator
	run -0 gen N=2 PROBLEM=xsgemm TARGET=external K=3
	run -0 jq -s 'length' calls.log
	assert_output 7
	# the fastest kernel of generations 0 and 1, as the evaluator timed them, is generation 2's base
	local best
	best=$(for f in pop/gen-00[01]/c*/bench.json; do jq -r '[.score_us, .id] | @tsv' "$f"; done | sort -g | head -1 | cut -f2)
	run -0 jget pop/gen-002/select.json .base
	assert_output "$best"
	[ "$best" != g000c0 ] || fail "no candidate of generation 1 beat the seed: the test shows nothing"
	run -0 jq -r '.status' pop/gen-001/c0/bench.json pop/gen-001/c1/bench.json pop/gen-001/c2/bench.json
	assert_output "ok
ok
ok"
	run -0 ks-report pop
	assert_output --partial "$best"
}

# fake_popcorn TEST BENCHMARK: a popcorn-cli on PATH that prints the
# recorded output tests/fixtures/popcorn/TEST.txt for --mode test and
# BENCHMARK.txt for --mode benchmark, after the lines popcorn-cli prints
# before a direct submission's result (src/cmd/submit.rs); the error
# fixtures go to stderr with exit status 1, as popcorn-cli's errors do.
# Each call's arguments go to popcorn.log, the file it was given to
# popcorn-submitted.MODE.
fake_popcorn() {
	mkdir -p bin
	cat >bin/popcorn-cli <<'EOF2'
#!/bin/sh
log=$FAKE_POPCORN_DIR/popcorn.log
printf '%s\n' "$*" >>"$log"
mode= gpu= lb= prev=
for a; do
	case $prev in --mode) mode=$a ;; --gpu) gpu=$a ;; --leaderboard) lb=$a ;; esac
	prev=$a
	file=$a
done
cp "$file" "$FAKE_POPCORN_DIR/popcorn-submitted.$mode"
case $mode in test) fixture=$FAKE_POPCORN_TEST ;; benchmark) fixture=$FAKE_POPCORN_BENCHMARK ;; *) exit 64 ;; esac
case $fixture in
rate-limit | unknown-leaderboard | too-large)
	cat "$FAKE_POPCORN_FIXTURES/$fixture.txt" >&2
	exit 1 ;;
esac
printf 'Submitting solution directly with:\n  File: %s\n  Leaderboard: %s\n  GPU: %s\n  Mode: %s\nSubmission result: ' \
	"$file" "$lb" "$gpu" "$mode"
cat "$FAKE_POPCORN_FIXTURES/$fixture.txt"
EOF2
	chmod +x bin/popcorn-cli
	export PATH="$BATS_TEST_TMPDIR/bin:$PATH" FAKE_POPCORN_DIR=$BATS_TEST_TMPDIR
	export FAKE_POPCORN_FIXTURES=$KS_ROOT/tests/fixtures/popcorn FAKE_POPCORN_TEST=$1 FAKE_POPCORN_BENCHMARK=${2:-}
	export KS_EVAL_CMD="ks-eval-popcorn --leaderboard amd-fp8-mm --gpu MI300"
	export KS_EVAL_ENV="FAKE_POPCORN_DIR FAKE_POPCORN_FIXTURES FAKE_POPCORN_TEST FAKE_POPCORN_BENCHMARK"
}

@test "ks-eval-popcorn: test mode, then benchmark mode, with the leaderboard, the GPU and the kernel; three timed shapes" {
	seed
	fake_popcorn test-pass benchmark
	run -0 ks-bench pop/gen-000/c0
	run -0 cat popcorn.log
	assert_line --index 0 --regexp '^submit --no-tui --gpu MI300 --leaderboard amd-fp8-mm --mode test /[^ ]*/ks-eval-popcorn\.[^/ ]*/submission\.c$'
	assert_line --index 1 --regexp '^submit --no-tui --gpu MI300 --leaderboard amd-fp8-mm --mode benchmark /[^ ]*/ks-eval-popcorn\.[^/ ]*/submission\.c$'
	assert_equal "${#lines[@]}" 2
	# the copy it submitted is gone (find's complaints, of other tests' folders going as it reads, aside)
	run --separate-stderr find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'ks-eval-popcorn.*' -newer pop/gen-000/c0/build.json
	assert_output ""
	cmp popcorn-submitted.test pop/gen-000/c0/kernel.c
	cmp popcorn-submitted.benchmark pop/gen-000/c0/kernel.c
	run -0 jf pop/gen-000/c0/bench.json .status .evaluator .device .timer '[.results[].shape]' \
		'[.results[] | [.time_us, .stderr_us, .min_us, .max_us, .runs]]' '.score_us * 1000 | round'
	assert_output "ok
ks-eval-popcorn: GPU MODE leaderboard amd-fp8-mm on MI300 (popcorn-cli)
MI300 (GPU MODE leaderboard amd-fp8-mm on MI300)
GPU MODE's eval.py: the mean of its timed calls
$SHAPES
[[8.43,0.021,8.12,9.87,null],[21.6,0.05,21,24.3,null],[1.803,0.0021,1.771,1.95,null]]
$(jq -n '[8.43, 21.6, 1.803] | map(log) | add / 3 | exp * 1000 | round')"
}

@test "ks-eval-popcorn reads eval.py's key-value lines, printed as a JSON string" {
	seed
	fake_popcorn test-pass benchmark-raw
	run -0 ks-bench pop/gen-000/c0
	run -0 jf pop/gen-000/c0/bench.json .status '[.results[] | [.time_us, .stderr_us, .min_us, .max_us, .runs]]'
	assert_output "ok
[[8.4305,0.021,8.12,9.87,100],[21.6,0.05,21,24.3,100],[1.8032,0.0021,1.771,1.95,57]]"
}

@test "ks-eval-popcorn: a failed test, a compile error, a timeout and a failed benchmark are the kernel's verdicts" {
	seed
	fake_popcorn test-fail benchmark
	run -0 ks-bench pop/gen-000/c0
	run -0 jf pop/gen-000/c0/bench.json .status .message .device
	assert_output "incorrect
the evaluator said incorrect: test: k: 512; m: 64; n: 128; seed: 4582: mismatch found! custom implementation doesn't match reference: Number of mismatched elements: 81
MI300 (GPU MODE leaderboard amd-fp8-mm on MI300)"
	# no benchmark after a failed test
	run -0 cat popcorn.log
	assert_output --regexp '^submit --no-tui --gpu MI300 --leaderboard amd-fp8-mm --mode test [^ ]*/submission\.c$'
	fake_popcorn compile-fail benchmark
	run -0 ks-bench pop/gen-000/c0
	run -0 jf pop/gen-000/c0/bench.json .status .message
	assert_output "build_failed
the evaluator said build_failed: test: compilation failed with code 1: submission.hip:41:5: error: use of undeclared identifier 'acc'"
	fake_popcorn run-timeout benchmark
	run -0 ks-bench pop/gen-000/c0
	run -0 jf pop/gen-000/c0/bench.json .status .message
	assert_output "timeout
the evaluator said timeout: test: timed out after 180.00 seconds"
	fake_popcorn test-pass benchmark-fail
	run -0 ks-bench pop/gen-000/c0
	run -0 jf pop/gen-000/c0/bench.json .status .message
	assert_output "incorrect
the evaluator said incorrect: benchmark: k: 320; m: 512; n: 384; seed: 9123: mismatch found! custom implementation doesn't match reference: Number of mismatched elements: 12"
}

@test "ks-eval-popcorn: a rate limit or an unknown leaderboard is unavailable: ks-bench exits 1 and records nothing" {
	seed
	fake_popcorn rate-limit benchmark
	run -1 ks-bench pop/gen-000/c0
	assert_output "ks-bench: the evaluator could not judge 'pop/gen-000/c0': popcorn-cli --mode test exited with status 1: Error: Server returned status 429 Too Many Requests: Rate limit exceeded: 6 submissions per hour per user on amd-fp8-mm; try again in 23 minutes"
	assert_file_not_exists pop/gen-000/c0/bench.json
	rm popcorn.log
	fake_popcorn test-pass unknown-leaderboard
	run -1 ks-bench pop/gen-000/c0
	assert_output "ks-bench: the evaluator could not judge 'pop/gen-000/c0': popcorn-cli --mode benchmark exited with status 1: Error: Server returned status 404 Not Found: Leaderboard 'amd-fp8-mmm' does not exist"
	assert_file_not_exists pop/gen-000/c0/bench.json
	run -0 wc -l <popcorn.log
	assert_output 2
	# no popcorn-cli at all
	KS_POPCORN_CLI=$BATS_TEST_TMPDIR/none run -1 ks-bench pop/gen-000/c0
	assert_output "ks-bench: the evaluator could not judge 'pop/gen-000/c0': cannot run $BATS_TEST_TMPDIR/none: No such file or directory"
}

@test "ks-eval-popcorn: the server refusing the submission itself (HTTP 413) is the kernel's verdict, rejected, and the run goes on" {
	# (before: every failure of popcorn-cli was unavailable, so one oversized kernel stopped make for good)
	seed
	fake_popcorn too-large
	run -0 ks-bench pop/gen-000/c0
	run -0 jf pop/gen-000/c0/bench.json .status .message
	assert_output "rejected
the evaluator said rejected: popcorn-cli --mode test exited with status 1: Error: Server returned status 413 Payload Too Large: submission is larger than 1 MB"
	# its copy of the kernel was made in ks-bench's scratch folder, which is gone
	run -0 find pop -name 'ks-eval-popcorn.*'
	assert_output ""
}

@test "the evaluator sees an environment cut to an exact list: no LLM key, the names of KS_EVAL_ENV; a relative path to it works" {
	# (before: it inherited everything, the LLM keys too, and a relative path was looked up in its scratch folder)
	seed
	evaluator eval.sh <<'EOF'
#!/bin/sh
env | sort >"$SAVE_TO/env.txt"
echo '{"status": "crashed", "message": "env written"}'
EOF
	OPENAI_API_KEY=sk-test ANTHROPIC_API_KEY=a-test NVIDIA_API_KEY_X=n KS_LLM_URL=http://x MY_TOKEN=t OTHER=o \
		SAVE_TO=$BATS_TEST_TMPDIR KS_EVAL_ENV='MY_TOKEN SAVE_TO' KS_EVAL_CMD=./eval.sh run -0 ks-bench pop/gen-000/c0
	run -0 jget pop/gen-000/c0/bench.json .message
	assert_output "the evaluator said crashed: env written"
	run -0 cut -d= -f1 env.txt
	refute_line OPENAI_API_KEY
	refute_line ANTHROPIC_API_KEY
	refute_line NVIDIA_API_KEY_X
	refute_line KS_LLM_URL
	refute_line OTHER
	assert_line MY_TOKEN
	assert_line KS_EVAL_SOURCE
	assert_line PATH
	assert_line HOME
}

@test "an evaluator that times fewer shapes than the problem has: crashed, naming the shape it left out" {
	# (before: its flags were sized by its own entries and indexed by the problem's shapes: a heap overflow)
	seed
	evaluator eval.sh <<'EOF'
#!/bin/sh
echo '{"status": "correct", "shapes": [{"shape": {"M": 200, "N": 640, "K": 448}, "time_us": 1}]}'
EOF
	KS_EVAL_CMD=./eval.sh run -0 ks-bench pop/gen-000/c0
	run -0 jf pop/gen-000/c0/bench.json .status .message
	assert_line --index 0 crashed
	assert_line --index 1 --partial "256x256x256"
}

@test "ks-eval-popcorn: usage errors exit 2" {
	run -2 ks-eval-popcorn --gpu MI300 kernel.c
	assert_line --index 0 "ks-eval-popcorn: no leaderboard: give --leaderboard or KS_POPCORN_LEADERBOARD"
	run -2 ks-eval-popcorn --gpu MI300 --leaderboard x
	assert_line --index 0 "ks-eval-popcorn: one kernel file is needed"
	run -2 ks-eval-popcorn --bogus kernel.c
	assert_line --index 0 "ks-eval-popcorn: unknown flag '--bogus'"
	run -0 ks-eval-popcorn --help
	assert_line --index 0 "usage: ks-eval-popcorn [--gpu GPU] [--leaderboard NAME] [--cli PROGRAM] file"
}

@test "an LLM stage on target external: the model is told the evaluator judges, and where the benchmarks ran" {
	seed 3
	knob_evaluator
	run -0 ks-bench pop/gen-000/c0
	mkdir -p pop/gen-001
	jq -n '{base: "g000c0", reference: "g000c0", reason: "the only kernel"}' >pop/gen-001/select.json
	local plans
	plans=$(jq -n '{avenues: [range(10) | "avenue \(.)"], plans: [range(5) | {title: "plan \(.)",
		description: "d", rubric: "r", uplift_min: 0, uplift_max: 10, innovation: 5}]}')
	llm_server_start "$(jq -nc --arg t "$plans" '{fixture: [{content: $t}]}')"
	run -0 ks-hypothesize pop/gen-001
	run -0 llm_request 1 '.body.messages[1].content'
	assert_output --partial "An external evaluator (target \`external\`): the kernel is not compiled or run on this machine."
	assert_output --partial "The benchmarks run on: a test GPU"
	refute_output --partial "The kernels are compiled for"
}

@test "a problem in Python for target external only: no harness, kernel.py, the offline proposer's knobs reach the evaluator" {
	mkdir -p kernels/pyvec
	cat >kernels/pyvec/problem.json <<'J'
{
  "name": "pyvec", "description": "a vector add, as a GPU MODE leaderboard takes it: a Python submission",
  "language": "python", "targets": ["external"],
  "entry_point": "def custom_kernel(data: input_t) -> output_t", "entry_name": "custom_kernel",
  "dims": ["size"], "harness_sources": [], "seed_kernel": "submission.py", "task": "task.md",
  "tolerance": {"rtol": 1e-5, "atol": 1e-8},
  "test_shapes": [{"size": 127}, {"size": 4096}],
  "bench_shapes": [{"size": 1024}, {"size": 65536}]
}
J
	echo "Add two vectors." >kernels/pyvec/task.md
	cat >kernels/pyvec/submission.py <<'P'
#!POPCORN leaderboard vectoradd
# the knob the offline proposer turns, read by the evaluator of this test:
#define BLOCK 256  # ks-tune: 64 128 256 512
import torch
from task import input_t, output_t

def custom_kernel(data: input_t) -> output_t:
    a, b = data
    return a + b
P
	evaluator eval.py <<'EOF2'
#!/usr/bin/env python3
import json, os, re, sys
src = open(sys.argv[-1]).read()
block = int(re.search(r"^#define BLOCK (\d+)", src, re.M).group(1))
with open(os.path.join(os.environ["BATS_TEST_TMPDIR"], "calls.log"), "a") as log:
    log.write(json.dumps({"file": os.path.basename(sys.argv[-1]), "block": block}) + "\n")
shapes = json.loads(os.environ["KS_EVAL_SHAPES"])
print(json.dumps({"status": "correct", "shapes": [{"shape": s, "time_us": s["size"] * block / 1e4} for s in shapes]}))
EOF2
	export KS_EVAL_CMD=$BATS_TEST_TMPDIR/eval.py KS_EVAL_ENV=BATS_TEST_TMPDIR
	run -0 gen N=2 PROBLEM=pyvec TARGET=external K=2
	assert_file_exists pop/gen-000/c0/kernel.py
	cmp kernels/pyvec/submission.py pop/gen-000/c0/kernel.py
	run -0 jq -sc 'map(.file) | unique' calls.log
	assert_output '["kernel.py"]'
	# the seed's 256, then each plan's; the smallest block is the fastest, and generation 2 starts from it
	run -0 jq -sc 'map(.block)' calls.log
	assert_output --regexp '^\[256,(64|128|512),(64|128|512),'
	local best
	best=$(for f in pop/gen-00[01]/c*/bench.json; do jq -r '[.score_us, .id] | @tsv' "$f"; done | sort -g | head -1 | cut -f2)
	[ "$best" != g000c0 ] || fail "no plan beat the seed"
	run -0 jget pop/gen-002/select.json .base
	assert_output "$best"
}

@test "KS_EVAL_CHECK_CMD: ks-build checks the kernel first; a kernel it fails is build_failed, and no evaluator sees it" {
	evaluator check.sh <<'EOF2'
#!/bin/sh
# a check that refuses a kernel holding the word FORBIDDEN
echo "checking $(basename "$1")"
if grep -q FORBIDDEN "$1"; then echo "line 3: FORBIDDEN is not allowed" >&2; exit 1; fi
EOF2
	export KS_EVAL_CHECK_CMD="$BATS_TEST_TMPDIR/check.sh"
	knob_evaluator
	seed
	run -0 jf pop/gen-000/c0/build.json .ok .command .diagnostics
	assert_output "true
$BATS_TEST_TMPDIR/check.sh $(realpath pop/gen-000/c0/kernel.c)
not compiled: target external hands the source to the evaluator (KS_EVAL_CMD), which builds and judges it
checking kernel.c"
	echo "/* FORBIDDEN */" >>pop/gen-000/c0/kernel.c
	run -0 ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .ok .diagnostics
	assert_output "false
not compiled: target external hands the source to the evaluator (KS_EVAL_CMD), which builds and judges it
checking kernel.c
line 3: FORBIDDEN is not allowed
the check (KS_EVAL_CHECK_CMD) exited with status 1"
	run -0 ks-bench pop/gen-000/c0
	run -0 jf pop/gen-000/c0/bench.json .status .message
	assert_output "build_failed
the kernel failed the check KS_EVAL_CHECK_CMD: see diagnostics in build.json"
	assert_file_not_exists calls.log
	KS_EVAL_CHECK_CMD="check.sh 'x" run -1 ks-build pop/gen-000/c0
	assert_output "ks-build: KS_EVAL_CHECK_CMD 'check.sh 'x': a ' quote is not closed"
}
