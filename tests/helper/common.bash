# tests/helper/common.bash - loaded by every test file.
bats_load_library bats-support
bats_load_library bats-assert
bats_load_library bats-file

KS_ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
KS_TOOLS="$KS_ROOT/tools"
PATH="$KS_TOOLS:$PATH"
export KS_QUIET=1
# a test that turns the notes on (KS_QUIET=0) sees no progress lines unless it asks (KS_PROGRESS=1)
export KS_PROGRESS=0
# Fast timing: tests check behaviour, not speed.
export KS_TIME_CAP_S=0.02 KS_MIN_RUNS=1
# each bench shape's warm-up: 1 ms, not 50 (the first calls' speed is no test's business; 50 ms a shape
# was a quarter of make test's CPU, in the workers' warm-up calls)
export KS_BENCH_WARMUP_S=0.001
# OpenMP's idle threads sleep rather than spin between a kernel's parallel regions: in make test the
# spinning was a third of each worker's CPU (sgemm's seed: 0.42 s against 0.29 s, lastcomm), where 2 CPUs
# run 4 tests at once and no test times a kernel against the hardware
export OMP_WAIT_POLICY=passive
# An LLM outage is not ridden out past KS_LLM_TRIES (the default rides out 15 minutes): the tests of that set it
export KS_LLM_OUTAGE_S=0
# ks-bench's per-device locks: each test's own, and setup_file's its file's
# (not /tmp, which every run on the machine shares).
export KS_LOCK_DIR="${BATS_TEST_TMPDIR:-$BATS_FILE_TMPDIR}"
# The test machine's own load (bats --jobs, other runs beside this one) must
# neither hold benches back nor mark them noisy: the tests of that set
# KS_BENCH_BUSY_MAX themselves, on a made-up /proc (busy_proc).
export KS_BENCH_BUSY_MAX=4096
# The runners of one make test shared by all its tests (not ~/.cache: a run
# depends on no earlier one); the tests of the cache set their own.
export KS_BUILD_CACHE="${BATS_RUN_TMPDIR:?}/runners"
unset KS_LLM_PROVIDER KS_LLM_URL OPENAI_BASE_URL KS_LLM_API_KEY OPENAI_API_KEY ANTHROPIC_API_KEY GEMINI_API_KEY
unset XDG_CACHE_HOME KS_KERNELS_DIR KS_BENCH_TIMEOUT_S KS_BENCH_MEMORY_MB KS_BENCH_SETTLE_S KS_BENCH_PROC KS_NVIDIA_SMI POP PROBLEM TARGET K N

slow() {
	[ -n "${KS_TEST_ALL:-}" ] || skip "slow test: run it with make test-all"
}

# Every JSON file under a directory parses (one JSON value, as Python's
# json.tool asks; an empty file does not); names the first that does not.
# One jq run per file: jq reads several files as one stream, so a torn
# file followed by its rest would pass.
assert_all_json_valid() {
	local f
	while IFS= read -r f; do
		jq -e -s 'length == 1' "$f" >/dev/null 2>&1 || fail "not valid JSON: $f"
	done < <(find "$1" -name '*.json')
}

# JSON is read with jq (a few milliseconds a run; python3 took a tenth of
# a second, and the suite ran it hundreds of times).  Both accessors print
# strings raw and other values as compact JSON ([0,1], {"a":1}); jq prints
# 2.0 as 2, and a missing field as null: a test that wants a field to be
# null asks jf for must("x"), which fails when the field is missing.

# jget FILE FILTER: one value of a JSON file, e.g. jget f.json .status (the
# filter may call must and rule, below)
jget() {
	jq -rc "$JQ_DEFS $2" "$1"
}

# jf FILE FILTER...: each jq FILTER's value on its own line, as jget prints
# it, from one jq run.  The filters may call must and rule (below).
jf() {
	local file=$1 f prog=
	shift
	for f; do
		prog+="${prog:+, }($f)"
	done
	jq -rc "$JQ_DEFS $prog" "$file"
}

# must("x"): field x, which must be there (null or not); an error if not.
# rule(K): population(5)'s choice of K of the plans (.plans): the most
# innovative, the highest max uplift, the highest min uplift, again in that
# order; distinct, ties to the lower index.  rule is rule(3).
JQ_DEFS='
def must($k): if has($k) then .[$k] else error("field \($k) is missing") end;
def rule($k): .plans as $p
	| reduce range(0; $k) as $pick ([];
		. as $chosen
		| (["innovation", "uplift_max", "uplift_min"][$pick % 3]) as $key
		| . + [[range(0; $p | length) | select(. as $i | $chosen | index([$i]) | not)]
			| max_by([$p[.][$key], -.])]);
def rule: rule(3);
'

# jset FILE FILTER: FILE rewritten by a jq FILTER, e.g. jset f.json '.k = 1'
jset() {
	jq "$2" "$1" >"$1.jset" && mv -f "$1.jset" "$1"
}

# No temporary files of the atomic writer left behind.
assert_no_temp_files() {
	run find "$1" -name '.*.json.*'
	assert_output ""
}

# use NAME [DIR]: copies population NAME, made once by the file's
# setup_file in $BATS_FILE_TMPDIR, to DIR (./pop).
use() {
	cp -r "$BATS_FILE_TMPDIR/$1" "${2:-pop}"
}

# gen ARGS...: make generation on ./pop.
gen() {
	make -s --no-print-directory -C "$KS_ROOT" generation POP="$BATS_TEST_TMPDIR/pop" "$@"
}

# assert_complete: ./pop is a complete, consistent run of generations 0
# and 1 (K=3): every JSON file parses and none is empty, every candidate
# has its candidate.json and a bench.json with status ok, and no candidate
# is lost or duplicated.
assert_complete() {
	local dir
	assert_all_json_valid pop
	for dir in pop/gen-000/c0 pop/gen-001/c0 pop/gen-001/c1 pop/gen-001/c2; do
		assert_file_exists "$dir/candidate.json"
		assert_equal "$(jget "$dir/bench.json" .status)" ok
	done
	run find pop -mindepth 2 -maxdepth 2 -name 'c*' -type d
	assert_equal "${#lines[@]}" 4
	run find pop -name '*.json' -size 0
	assert_output ""
}

# with_defines FILE NAME=VALUE...: FILE with those #define values.
with_defines() {
	local f=$1 p script=
	shift
	for p in "$@"; do
		script="$script;s/^\(#define ${p%%=*}[[:space:]]\+\)[0-9-]\+/\1${p#*=}/"
	done
	sed "${script#;}" "$f"
}

# make_pop DIR [K]: a population with run.json for sgemm on cpu.
make_pop() {
	ks-init -p sgemm -t cpu -k "${2:-3}" "$1"
}

# with_sol CAND_DIR T/S T/S T/S: the candidate's bench.json measured on
# sgemm's three benchmark shapes, time T and speed of light S us each.
with_sol() {
	local dir=$1
	shift
	jq --arg ts "$*" '
		($ts | split(" ") | map(split("/") | map(tonumber))) as $ts
		| [{M: 256, N: 256, K: 256}, {M: 512, N: 384, K: 320}, {M: 200, N: 640, K: 448}] as $shapes
		| .results = [range(3) as $i | {shape: $shapes[$i], time_us: $ts[$i][0], sol_us: $ts[$i][1],
			bound_us: $ts[$i][1], runs: 3}]
		| .score_us = ([$ts[][0] | log] | add / 3 | exp)
		| .peak = {flops_per_s: 4.5e11, threads: 2, vector_bits: 512, fma: true}' "$dir/bench.json" >"$dir/b.json" &&
		mv "$dir/b.json" "$dir/bench.json"
}

# five_knobs FILE: sgemm's seed with only the knobs of its first paths
# tunable (BM, BN, BK, UNROLL, LOOP_ORDER 0 or 1), for the tests of the
# offline proposer's rules, which do not follow every knob a seed gains;
# fake_cand writes it when FAKE_SEED names it.
five_knobs() {
	sed -E -e 's|^(#define LOOP_ORDER [0-9]+).*|\1\t/* ks-tune: 0 1 */|' \
		-e 's@^(#define (MR|NV|VW|PACK) [0-9]+).*@\1@' "$KS_ROOT/kernels/sgemm/seed.c" >"$1"
}

# fake_cand POP GEN SLOT STATUS SCORE 'BM=16 BN=32 ...' [BASE REF]:
# a finished candidate with a kernel declaring those parameter values (the
# seed's, or FAKE_SEED's) and a bench.json with one time per benchmark
# shape equal to SCORE.
fake_cand() {
	local pop=$1 gen=$2 slot=$3 status=$4 score=$5 params=$6 base=${7:-} ref=${8:-}
	local dir id
	dir=$(printf '%s/gen-%03d/c%d' "$pop" "$gen" "$slot")
	id=$(printf 'g%03dc%d' "$gen" "$slot")
	mkdir -p "$dir"
	# shellcheck disable=SC2086 # one NAME=VALUE a word
	with_defines "${FAKE_SEED:-$KS_ROOT/kernels/sgemm/seed.c}" $params >"$dir/kernel.c"
	jq -nc --arg id "$id" --argjson gen "$gen" --argjson slot "$slot" --arg base "$base" --arg ref "$ref" '
		{id: $id, generation: $gen, slot: $slot,
		 parents: {base: (if $base == "" then null else $base end),
		          reference: (if $ref == "" then null else $ref end)},
		 plan: null, model: "offline", usage: null}' >"$dir/candidate.json"
	jq -nc --arg id "$id" --arg status "$status" --argjson score "$score" '
		($status == "ok") as $ok
		| {id: $id, status: $status, correct: $ok,
		   results: (if $ok then [range(3) | {shape: {M: 8, N: 8, K: 8}, time_us: $score, runs: 3}] else [] end),
		   score_us: (if $ok then $score else null end), device: "cpu", timer: "test"}' >"$dir/bench.json"
}

# knob_extremes SRC DIR: DIR/low/kernel.EXT and DIR/high/kernel.EXT hold SRC (kernel.EXT) with every
# ks-tune knob at its first, last value
knob_extremes() {
	python3 - "$1" "$2" <<'PY'
import os, re, sys
src, out = sys.argv[1], sys.argv[2]
text = open(src).read()
knobs = re.findall(r"^#define (\w+) -?\d+\s*/\* ks-tune: ([-\d ]+)\*/", text, re.M)
for name, pick in (("low", 0), ("high", -1)):
    t = text
    for k, vals in knobs:
        t = re.sub(r"^(#define %s )-?\d+" % k, r"\g<1>" + vals.split()[pick], t, flags=re.M)
    os.makedirs(out + "/" + name)
    open("%s/%s/kernel.%s" % (out, name, src.rsplit(".", 1)[1]), "w").write(t)
PY
}

# hand_candidate DIR: DIR/candidate.json of a kernel put there by hand (gen-NNN/cS read from DIR),
# based on the seed
hand_candidate() {
	local gen slot
	gen=$(basename "$(dirname "$1")") slot=$(basename "$1")
	gen=$((10#${gen#gen-})) slot=${slot#c}
	jq -nc --argjson g "$gen" --argjson s "$slot" '{id: ("g" + ("00\($g)" | .[-3:]) + "c\($s)"), generation: $g,
		slot: $s, parents: {base: "g000c0", reference: "g000c0"}, plan: null, model: "by hand", usage: null}' \
		>"$1/candidate.json"
}

# stand_in_nvcc SECONDS: bin/nvcc, whose "runner" logs "start|end CUDA_VISIBLE_DEVICES TIME" to
# ./gpu.log around SECONDS of "bench", and reports 0.1 s (slower than light) for every bench shape;
# KS_NVCC names it, KS_SANDBOX=basic (the runner logs outside its directory, which bubblewrap forbids)
stand_in_nvcc() {
	mkdir -p bin
	cat >bin/nvcc <<'SH'
#!/bin/sh
# the static check's preprocessing: nothing to read
case " $* " in *" -E "*) exit 0 ;; esac
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
# an object: an empty one, which ks-build's check of objects reads
case $out in *.o) exec cc -x c -c /dev/null -o "$out" ;; esac
cat >"$out" <<RUNNER
#!/bin/sh
# a GPU made to fail (a file dead-gpu-N beside gpu.log): the judge's verdict before any kernel runs
if [ -e "$GPU_DIR/dead-gpu-\$CUDA_VISIBLE_DEVICES" ]; then
	printf '{"correct": false, "device_failed": true, "failure": "the device failed before the kernel ran: no CUDA-capable device is detected", "tests": [], "results": [], "timer": "stand-in"}' >&3
	exit 0
fi
echo "start \$CUDA_VISIBLE_DEVICES \$(date +%s.%N)" >>$GPU_LOG
res=
for a in "\$@"; do
	[ "\$prev" = --bench ] && res="\$res\${res:+, }{\"shape\": [\$(echo "\${a%@*}" | tr x ,)], \"seed\": 1, \"time_us\": 100000, \"mean_us\": 100000, \"median_us\": 100000, \"min_us\": 100000, \"max_us\": 100000, \"stderr_us\": 0, \"runs\": 5}"
	prev=\$a
done
sleep $SECONDS
echo "end \$CUDA_VISIBLE_DEVICES \$(date +%s.%N)" >>$GPU_LOG
printf '{"correct": true, "tests": [], "results": [%s], "timer": "stand-in"}' "\$res" >&3
RUNNER
chmod +x "$out"
SH
	# the log's path and the seconds written in: compilers run with a minimal environment
	sed -i -e "s|\$GPU_LOG|$PWD/gpu.log|" -e "s|\$GPU_DIR|$PWD|" -e "s|\$SECONDS|$1|" bin/nvcc
	chmod +x bin/nvcc
	export KS_NVCC=$PWD/bin/nvcc KS_SANDBOX=basic
	unset CUDA_VISIBLE_DEVICES
}

# busy_proc DIR SECONDS: DIR made a /proc for ks-bench (KS_BENCH_PROC) on
# which other processes keep 8 CPUs busy (their ticks grow by 40 every
# 0.05 s) for about SECONDS (whole), then none; 2 CPUs, a load of 1.50, 3 processes
# running (ks-bench and 2 others).  The writer runs in the background ($!)
# and has written once when this returns.
busy_proc() {
	mkdir -p "$1"
	echo "1.50 1.20 0.90 3/200 4242" >"$1/loadavg"
	(
		t=1000
		for ((i = 0; i <= $2 * 20; i++)); do
			t=$((t + 40))
			printf 'cpu  %d 0 500 90000 10 0 3 0 0 0\ncpu0 %d 0 250 45000 5 0 2 0 0 0\ncpu1 %d 0 250 45000 5 0 1 0 0 0\nintr 0\nprocs_running 3\nprocs_blocked 0\n' \
				$t $((t / 2)) $((t / 2)) >"$1/stat.new"
			mv -f "$1/stat.new" "$1/stat"
			sleep 0.05
		done
	) 3>&- &
	for ((i = 0; i < 500; i++)); do [ -e "$1/stat" ] && break; sleep 0.02; done
	assert_file_exists "$1/stat"
}

# A test signals only processes of its own.  Under make test pids come round again within minutes
# (32,768 of them, some 280 a second here), so a pid kept from a process that has since ended may
# name another test's process: 0012's lock holder was once stopped so, and its lock taken.
# proc_start PID: when PID started (the 22nd field of /proc/PID/stat, clock ticks since boot); fails
# when there is no such process.
proc_start() {
	local stat
	stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	# (the command name, in parentheses, may hold spaces: the fields after its last ')')
	set -- ${stat##*) }
	echo "${20}"
}

# signal_same SIGNAL PID START: SIGNAL to PID only while it is the process that started at START.
signal_same() {
	[ -n "$3" ] && [ "$(proc_start "$2")" = "$3" ] && kill -"$1" "$2" 2>/dev/null
}

# kill_session PID START: SIGKILL to every process of the session that PID led, started at START,
# unless PID is now another process (a session whose leader ended keeps its id while a member lives).
kill_session() {
	local now
	[ -n "$1" ] || return 0
	now=$(proc_start "$1") && [ "$now" != "$2" ] && return 0
	pkill -KILL -s "$1" 2>/dev/null || true
}

# cpu_lock: the path of the CPU's bench lock (KS_LOCK_DIR is the test's own)
cpu_lock() { echo "$KS_LOCK_DIR/kernel-scientist-bench-$(hostname)-cpu.lock"; }

# hold_cpu_lock FLOCK_ARGS SECONDS: the CPU's lock held in the background
# for SECONDS, from when this returns (on a busy machine, bats --jobs, the
# holder may take its time to start); $! is the holder
hold_cpu_lock() {
	flock $1 "$(cpu_lock)" sh -c "touch held; sleep $2" &
	for ((i = 0; i < 500; i++)); do [ -e held ] && break; sleep 0.02; done
	assert_file_exists held
}

# run_timed ARGS...: bats' run of ARGS; elapsed_ms gets how long it took
run_timed() {
	local start
	start=$(date +%s%N)
	run "$@"
	elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
}
