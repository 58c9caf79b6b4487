#!/usr/bin/env bats
# ks-bench: runs a built candidate in a child process with limits and
# records ok, incorrect, build_failed, crashed or timeout (exit 0); a
# broken setup is a tool error (exit 1, one line).

bats_require_minimum_version 1.5.0
load helper/common

# kernel NAME: pop NAME (made from fixture "pop") with kernel.c read from stdin.
kernel() {
	cp -r pop "$1"
	cat > "$1/gen-000/c0/kernel.c"
}

# Every kernel the tests bench is built once here, two compilers at a time
# (a build of the harness takes about a second).
setup_file() {
	cd "$BATS_FILE_TMPDIR" || return
	make_pop pop
	ks-implement pop/gen-000/c0
	cp -r pop seeded
	kernel build_failed <<'C'
void sgemm(int M, int N, int K, const float *A, const float *B, float *C) { this is not C; }
C
	# right everywhere but one element of shape 17x31x9
	kernel wrong <<'C'
void sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
	if (M == 17 && N == 31 && K == 9)
		C[5 * N + 3] += 1.0f;
}
C
	# right on the small test shapes, wrong on the (larger) benchmark shapes
	kernel wrong_bench <<'C'
void sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
	if ((long)M * N * K > 4000000)
		C[0] += 1.0f;
}
C
	kernel no_write <<'C'
void sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
	(void)M; (void)N; (void)K; (void)A; (void)B; (void)C;
}
C
	kernel segv <<'C'
#include <signal.h>
void sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
	(void)M; (void)N; (void)K; (void)A; (void)B; (void)C;
	raise(SIGSEGV);
}
C
	kernel null_write <<'C'
#include <stdio.h>
void sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
	(void)M; (void)N; (void)K; (void)A; (void)B; (void)C;
	fprintf(stderr, "about to write through NULL\n");
	*(volatile float *)0 = 1.0f;
}
C
	kernel loop <<'C'
void sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
	(void)M; (void)N; (void)K; (void)A; (void)B; (void)C;
	for (volatile int spin = 1; spin; )
		;
}
C
	# 16 GiB, touched page by page
	kernel huge <<'C'
#include <stdlib.h>
void sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
	size_t n = (size_t)1 << 34;
	volatile char *p = malloc(n);

	for (size_t i = 0; i < n; i += 4096)
		p[i] = 1;
	C[0] = p[0];
	(void)M; (void)N; (void)K; (void)A; (void)B;
}
C
	kernel quits <<'C'
#include <stdlib.h>
void sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
	(void)M; (void)N; (void)K; (void)A; (void)B; (void)C;
	exit(0);
}
C
	local d pids=
	for d in seeded build_failed wrong wrong_bench no_write segv null_write loop huge quits; do
		ks-build "$d/gen-000/c0" &
		pids="$pids $!"
		[ "$(jobs -r | wc -l)" -lt 2 ] || wait -n
	done
	wait $pids
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	C=pop/gen-000/c0
}

# assert_failed FILE STATUS: a bench.json of a kernel that is not ok:
# its status, not correct, no results, no score, no timer.
assert_failed() {
	run -0 jf "$1" .id .status .correct .results 'must("score_us")' 'must("timer")' \
		'.device | test("^cpu: .+ \\([0-9]+ threads\\)$")'
	assert_output "g000c0
$2
false
[]
null
null
true"
}

# shape_name WHICH I: the name ("17x31x9") of test_shapes[I] or
# bench_shapes[I] of the sgemm problem.
shape_name() {
	jq -r --arg which "$1" --argjson i "$2" '.[$which][$i] | "\(.M)x\(.N)x\(.K)"' \
		"$KS_ROOT/kernels/sgemm/problem.json"
}

# n_bench_shapes: how many benchmark shapes the sgemm problem has.
n_bench_shapes() {
	jq '.bench_shapes | length' "$KS_ROOT/kernels/sgemm/problem.json"
}

# runners_left: the command lines of runners still running in this test's directory.
runners_left() {
	local p here
	here=$(pwd -P)
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/cwd" 2>/dev/null)" = "$here" ] || continue
		tr '\0' ' ' < "$p/cmdline" 2>/dev/null | grep runner || true
	done
}

@test "ks-bench times the seed on every benchmark shape; the score is their geometric mean" {
	use seeded
	run -0 ks-bench $C
	assert_output ""
	# (jq cannot tell 3 from 3.0: "runs" is checked to be a whole number)
	run -0 jq -rn --slurpfile p "$KS_ROOT/kernels/sgemm/problem.json" --slurpfile b $C/bench.json '
		$p[0] as $prob | $b[0] as $b | $b.results as $r
		| [$prob.bench_shapes[] as $s | [$prob.dims[] as $d | {($d): $s[$d]}] | add] as $shapes
		| ($r | map(.time_us | log) | add / length | exp) as $gm
		| def sound:
			keys == ["batch", "bound_us", "checks", "checks_s", "converged", "max_us", "mean_us", "median_stderr_us", "median_us",
				"min_us", "rel_stderr", "runs", "shape", "sol_us", "stderr_us", "time_us", "wall_s"]
			and .wall_s >= .runs * .mean_us * 1e-6
			and (.checks | . == floor and . >= 3) and 0 < .checks_s and .checks_s < .wall_s
			and (.converged | type == "boolean") and ((.rel_stderr == null) == (.stderr_us == null))
			and ((.median_stderr_us == null) == (.stderr_us == null))
			and (.runs | type == "number" and . == floor and . >= 1) and .batch == 1
			and 0 < .min_us and .min_us <= .median_us and .median_us <= .max_us
			and .min_us <= .mean_us and .mean_us <= .max_us
			and .time_us == .median_us
			and ((.stderr_us == null) == (.runs == 1))
			and (.stderr_us == null or .stderr_us >= 0);
		($b | keys | tojson),
		"\($b.id) \($b.status) \($b.correct) \($b.message)",
		"shapes as in problem.json: \([$r[].shape] == $shapes) \(($r | length) == ($shapes | length))",
		"results not sound: \([$r[] | select(sound | not)])",
		"score is the geometric mean: \((($b.score_us - $gm) | fabs) <= 1e-9 * ([($b.score_us | fabs), ($gm | fabs)] | max))",
		"device: \($b.device | test("^cpu: .+ \\([0-9]+ threads\\)$"))",
		"timer: \($b.timer | startswith("the judge'"'"'s CLOCK_MONOTONIC, in a process the kernel never runs in"))",
		"the whole run holds the checks and every shape: \($b.seconds > $b.tests_s + ($r | map(.wall_s) | add) and $b.tests_s > 0)"'
	assert_output '["correct","device","id","kernel_sha256","machine","message","peak","results","runner_sha256","salt","sandbox","score_stat","score_us","seconds","status","tests_s","timer"]
g000c0 ok true null
shapes as in problem.json: true true
results not sound: []
score is the geometric mean: true
device: true
timer: true
the whole run holds the checks and every shape: true'
	assert_no_temp_files pop
}

@test "sgemm's speed of light is measured where it runs: every thread's FMA peak, each shape's FLOPs at it" {
	use seeded
	run -0 ks-bench $C
	# the widest vectors the compiler targets here, as the runner was built
	bits=128
	macros=$(cc -march=native -dM -E - </dev/null)
	if grep -q '__AVX512F__' <<<"$macros"; then bits=512
	elif grep -q '__AVX__' <<<"$macros" && grep -q '__FMA__' <<<"$macros"; then bits=256; fi
	run -0 jq -r --argjson threads "$(nproc)" --argjson bits $bits '
		.peak as $p
		| "threads \($p.threads == $threads), bits \($p.vector_bits == $bits), fma \($p.fma | type)",
		  "at least 1 GFLOP/s a thread: \($p.flops_per_s > 1e9 * $p.threads)",
		  (.results[] | (2 * .shape.M * .shape.N * .shape.K / $p.flops_per_s * 1e6) as $want
		   | "\(.shape.M)x\(.shape.N)x\(.shape.K): bound \((.bound_us - $want) | fabs < 1e-9 * $want), sol = bound \(.sol_us == .bound_us), under the time \(.bound_us < .time_us)")' $C/bench.json
	assert_output "threads true, bits true, fma boolean
at least 1 GFLOP/s a thread: true
256x256x256: bound true, sol = bound true, under the time true
512x384x320: bound true, sol = bound true, under the time true
200x640x448: bound true, sol = bound true, under the time true"
	# the candidate gets the threads OpenMP gives it, and so does the peak
	OMP_NUM_THREADS=1 run -0 ks-bench $C
	assert_equal "$(jget $C/bench.json .peak.threads)" 1
}

@test "every bench draws its inputs with a new salt, which bench.json records and KS_BENCH_SALT repeats" {
	use seeded
	ks-bench -o a.json $C
	ks-bench -o b.json $C
	a=$(jget a.json .salt) b=$(jget b.json .salt)
	[[ $a =~ ^[0-9]+$ && $b =~ ^[0-9]+$ ]] || fail "salts: '$a' '$b'"
	[ "$a" != "$b" ] || fail "the same salt twice: $a"
	KS_BENCH_SALT=$a ks-bench -o c.json $C
	assert_equal "$(jget c.json .salt)" "$a"
	KS_BENCH_SALT=x run -1 ks-bench -o d.json $C
	assert_output "ks-bench: bad KS_BENCH_SALT 'x': expected an unsigned integer (the salt of a bench.json)"
}

@test "ks-bench -o writes the file named, and not bench.json" {
	use seeded
	run -0 ks-bench -o b.json $C
	assert_file_not_exists $C/bench.json
	run -0 jf b.json .id .status '.results | length'
	assert_output "g000c0
ok
$(n_bench_shapes)"
}

@test "ks-bench records a kernel that did not compile as build_failed without running anything" {
	use build_failed
	assert_file_not_exists $C/runner
	run -0 ks-bench $C
	assert_output ""
	assert_failed $C/bench.json build_failed
	assert_equal "$(jget $C/bench.json .message)" "the kernel did not compile: see diagnostics in build.json"
	assert_no_temp_files pop
}

@test "ks-bench a second time on the same outcome leaves bench.json untouched" {
	use build_failed
	ks-bench $C
	cp -r "$BATS_FILE_TMPDIR/wrong" wpop
	# the same inputs (a wrong kernel's message names values from them)
	export KS_BENCH_SALT=7
	ks-bench wpop/gen-000/c0
	touch -d '2020-01-01' $C/bench.json wpop/gen-000/c0/bench.json
	before=$(stat -c %Y $C/bench.json wpop/gen-000/c0/bench.json)
	run -0 ks-bench $C
	run -0 ks-bench wpop/gen-000/c0
	assert_equal "$(stat -c %Y $C/bench.json wpop/gen-000/c0/bench.json)" "$before"
	assert_no_temp_files .
}

@test "ks-bench records a wrong element as incorrect, naming the shape and the element" {
	use wrong
	run -0 ks-bench $C
	assert_output ""
	assert_failed $C/bench.json incorrect
	run -0 jget $C/bench.json .message
	assert_output --regexp '^shape 17x31x9: C\[5\]\[3\] = -?[0-9.e+-]+, expected -?[0-9.e+-]+ \([|]err[|] 1 > tol [0-9.e+-]+\); 1 of 527 elements out of tolerance$'
}

@test "ks-bench checks the benchmark shapes too" {
	use wrong_bench
	run -0 ks-bench $C
	assert_failed $C/bench.json incorrect
	run -0 jget $C/bench.json .message
	assert_output --regexp "^bench shape $(shape_name bench_shapes 0): C\[0\]\[0\] = .*; 1 of [0-9]+ elements out of tolerance$"
}

@test "ks-bench records a kernel that never writes C as incorrect" {
	use no_write
	run -0 ks-bench $C
	assert_failed $C/bench.json incorrect
	run -0 jget $C/bench.json .message
	assert_output --regexp "^shape $(shape_name test_shapes 0): C\[0\]\[0\] = nan, expected .*elements out of tolerance$"
}

@test "ks-bench records raise(SIGSEGV) as crashed, naming the signal" {
	use segv
	run -0 ks-bench $C
	assert_output ""
	assert_failed $C/bench.json crashed
	assert_equal "$(jget $C/bench.json .message)" "the harness killed by signal 11 (Segmentation fault)"
	assert_no_temp_files pop
}

@test "ks-bench records a write through NULL as crashed, with the kernel's last output" {
	use null_write
	run -0 ks-bench $C
	assert_failed $C/bench.json crashed
	assert_equal "$(jget $C/bench.json .message)" \
		"the harness killed by signal 11 (Segmentation fault); its last output: about to write through NULL"
}

@test "ks-bench kills an endless kernel at KS_BENCH_TIMEOUT_S and records a timeout" {
	use loop
	SECONDS=0
	KS_BENCH_TIMEOUT_S=2 run -0 ks-bench $C
	[ "$SECONDS" -le 6 ] || fail "ks-bench took $SECONDS s with KS_BENCH_TIMEOUT_S=2"
	assert_failed $C/bench.json timeout
	run -0 jget $C/bench.json .message
	assert_output --regexp '^the harness was killed after 2\.[0-9] s, past its time limit \(limit 2 s; KS_BENCH_TIMEOUT_S\)$'
	# nothing of the runner is left running
	run -0 runners_left
	assert_output ""
}

@test "ks-bench records a kernel over KS_BENCH_MEMORY_MB as crashed, not a hang" {
	use huge
	SECONDS=0
	KS_BENCH_MEMORY_MB=256 KS_BENCH_TIMEOUT_S=30 run -0 ks-bench $C
	[ "$SECONDS" -le 10 ] || fail "ks-bench took $SECONDS s"
	assert_failed $C/bench.json crashed
	run -0 jget $C/bench.json .message
	assert_output --regexp '^the harness killed by signal [0-9]+ \((Segmentation fault|Aborted|Killed)\)'
}

@test "ks-bench records a kernel that quits the harness as crashed" {
	use quits
	run -0 ks-bench $C
	assert_failed $C/bench.json crashed
	assert_equal "$(jget $C/bench.json .message)" "the harness exited without a valid result"
}

@test "ks-bench waits for the device lock in KS_LOCK_DIR" {
	use segv
	# timed from the moment the lock is held, not from a guess at it
	hold_cpu_lock -x 1.5
	run_timed -0 ks-bench $C
	wait
	[ "$elapsed_ms" -ge 900 ] || fail "ks-bench did not wait for the lock ($elapsed_ms ms)"
	assert_equal "$(jget $C/bench.json .status)" crashed
}

@test "ks-bench rejects bad settings in one line and writes nothing" {
	use seeded
	KS_BENCH_TIMEOUT_S=abc run -1 ks-bench $C
	assert_output "ks-bench: KS_BENCH_TIMEOUT_S must be a positive number, not 'abc'"
	KS_TIME_CAP_S=0 run -1 ks-bench $C
	assert_output "ks-bench: KS_TIME_CAP_S must be a positive number, not '0'"
	KS_BENCH_MEMORY_MB=-5 run -1 ks-bench $C
	assert_output "ks-bench: KS_BENCH_MEMORY_MB must be a positive integer, not '-5'"
	KS_MIN_RUNS=many run -1 ks-bench $C
	assert_output "ks-bench: KS_MIN_RUNS must be a positive integer, not 'many'"
	KS_BENCH_WARMUP_S=fast run -1 ks-bench $C
	assert_output "ks-bench: KS_BENCH_WARMUP_S must be a positive number, not 'fast'"
	KS_BENCH_WARMUP_S=2 run -1 ks-bench $C
	assert_output "ks-bench: KS_BENCH_WARMUP_S (or limits.warmup_s) must be at most 1 second, not 2"
	assert_file_not_exists $C/bench.json
}

@test "KS_BENCH_WARMUP_S: each bench shape is called untimed for that long first; the runner's --warm-up" {
	use seeded
	KS_BENCH_WARMUP_S=0.3 run -0 ks-bench $C
	run -0 jq -c '[.results[].wall_s > 0.3] | unique' $C/bench.json
	assert_output '[true]'
	run -2 $C/runner --warm-up -1
	assert_output --partial "bad --warm-up '-1'"
}

@test "ks-bench refuses KS_BENCH_SETTLE_S and KS_BENCH_BUSY_MAX out of range in one line naming the setting" {
	use seeded
	for v in -1 3601 soon; do
		KS_BENCH_SETTLE_S=$v run -1 ks-bench $C
		assert_output "ks-bench: KS_BENCH_SETTLE_S must be the seconds to wait for a busy machine, 0 (no wait) to 3600, not '$v'"
	done
	for v in 0 -0.5 many; do
		KS_BENCH_BUSY_MAX=$v run -1 ks-bench $C
		assert_output "ks-bench: KS_BENCH_BUSY_MAX must be a positive number (the CPUs' worth of other processes' work a bench may meet), not '$v'"
	done
	assert_file_not_exists $C/bench.json
	KS_BENCH_SETTLE_S=0 KS_BENCH_BUSY_MAX=0.5 run -0 ks-bench $C
	assert_equal "$(jget $C/bench.json .status)" ok
}

@test "ks-bench rejects a fractional KS_MIN_RUNS below 1 instead of blaming the kernel" {
	use seeded
	KS_MIN_RUNS=0.5 run -1 ks-bench $C
	assert_equal "${#lines[@]}" 1
	assert_output --regexp "^ks-bench: KS_MIN_RUNS .*'0\.5'"
	assert_file_not_exists $C/bench.json
}

@test "ks-bench names a missing build.json" {
	use seeded
	rm $C/build.json
	run -1 ks-bench $C
	assert_output "ks-bench: cannot open '$C/build.json': No such file or directory"
	assert_file_not_exists $C/bench.json
}

@test "ks-bench names a missing runner and keeps the old bench.json" {
	use build_failed
	ks-bench $C
	cp $C/bench.json old.json
	# a build.json that says ok, from a build whose runner is gone
	ks-build $C
	sed -i 's/"ok":\t*false/"ok":\ttrue/' $C/build.json
	jq -e .ok $C/build.json
	rm -f $C/runner
	run -1 ks-bench $C
	assert_output "ks-bench: '$C/build.json' says the build succeeded, but '$C/runner' is missing: run ks-build again"
	cmp old.json $C/bench.json
	assert_no_temp_files pop
}

@test "ks-bench names a malformed build.json, or one without \"ok\"" {
	use seeded
	printf '{"ok": tru' > $C/build.json
	run -1 ks-bench $C
	assert_output --regexp "^ks-bench: '$C/build.json' is not valid JSON \(line [0-9]+, column [0-9]+\)$"
	echo '{"ok": "yes"}' > $C/build.json
	run -1 ks-bench $C
	assert_output "ks-bench: '$C/build.json': field \"ok\" is not a boolean"
	echo '{"target": "cpu"}' > $C/build.json
	run -1 ks-bench $C
	assert_output "ks-bench: '$C/build.json': field \"ok\" is missing"
	assert_file_not_exists $C/bench.json
}

@test "ks-bench names a missing run.json" {
	use seeded
	rm pop/run.json
	run -1 ks-bench $C
	assert_output "ks-bench: 'pop/run.json' does not exist: make the population with ks-init first"
	assert_file_not_exists $C/bench.json
}

@test "ks-bench rejects a directory that is not POP/gen-NNN/cS" {
	use seeded
	for dir in pop/gen-000 pop/gen-000/runner pop/gen-000/c0x pop/gen-00/c0 pop; do
		run -1 ks-bench "$dir"
		assert_output "ks-bench: '$dir' is not a candidate directory (expected POP/gen-NNN/cS)"
	done
	run find pop -name bench.json
	assert_output ""
}

@test "a ks-bench that must wait for the device says whose the lock is; the holder wrote it there" {
	use segv
	cp -r pop other
	# another ks-bench holds the CPU: its lock file names it
	ks-bench other/gen-000/c0
	run cat "$KS_LOCK_DIR/kernel-scientist-bench-$(hostname)-cpu.lock"
	assert_output --regexp "^ks-bench [0-9]+ on other/gen-000/c0$"
	flock "$KS_LOCK_DIR/kernel-scientist-bench-$(hostname)-cpu.lock" sh -c 'touch held; sleep 1' &
	for ((i = 0; i < 500; i++)); do [ -e held ] && break; sleep 0.02; done
	KS_QUIET=0 run -0 --separate-stderr ks-bench $C
	wait
	[[ $stderr == "ks-bench: waiting: '$KS_LOCK_DIR/kernel-scientist-bench-$(hostname)-cpu.lock' is held by ks-bench "*" on other/gen-000/c0" ]] ||
		fail "stderr: $stderr"
}

@test "the report of a harness whose ks-bench was killed is removed by the next bench" {
	use seeded
	echo '{"correct": true}' >$C/.harness.json.Ab12Cd
	run -0 ks-bench $C
	assert_file_not_exists $C/.harness.json.Ab12Cd
	assert_no_temp_files pop
	run find $C -name '.harness.json.*'
	assert_output ""
}

@test "each shape says how far its time can be trusted: rel_stderr, converged; ks-report shows the spread" {
	use seeded
	# time enough for the stop rule (standard error under 0.5 %) on a quiet machine, or not under load
	KS_TIME_CAP_S=0.3 KS_MIN_RUNS=3 run -0 ks-bench $C
	# rel_stderr is the median's (the time that counts); the stop rule is on the mean's
	run jf $C/bench.json '[.results[] | (.rel_stderr | type == "number") and ((.rel_stderr - .median_stderr_us / .median_us) | fabs < 1e-12) and (.converged | type == "boolean")] | all' \
		'[.results[] | .converged == (.stderr_us / .mean_us < 0.005)] | all' .score_stat
	assert_output $'true\ntrue\nmedian'
	# a cap spent before min_runs calls still gets them (before: a cap spent by the first call, or
	# by a GPU spot check, left one timed call whatever KS_MIN_RUNS asked)
	KS_TIME_CAP_S=0.000001 KS_MIN_RUNS=4 run -0 ks-bench $C
	run jf $C/bench.json '[.results[] | .runs == 4] | all'
	assert_output true
	# one run a shape: no spread, not converged, and the report says so
	KS_TIME_CAP_S=0.000001 KS_MIN_RUNS=1 run -0 ks-bench $C
	run jf $C/bench.json '[.results[] | .rel_stderr == null and .converged == false] | all'
	assert_output true
	run -0 ks-report pop
	assert_line --regexp '^g000c0 +- +- +ok +[0-9.]+ +1\.00x +-!  \(seed\)$'
}

@test "a kernel slow on one call in four (as when the machine is busy now and then) scores by its median, not its mean" {
	# (before: the score was the geometric mean of the means, here 3x the kernel's usual time)
	use seeded
	# (static: the kernel's object may define its entry point only)
	sed -e 's/^sgemm(int M/sgemm_once(int M/' -e 's/^void$/static void/' "$KS_ROOT/kernels/sgemm/seed.c" >$C/kernel.c
	cat >>$C/kernel.c <<'K'

void
sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
	static int calls;
	int reps = ++calls % 4 == 0 ? 10 : 1;

	for (int r = 0; r < reps; r++)
		sgemm_once(M, N, K, A, B, C);
}
K
	run -0 ks-build $C
	# a quarter of the timed calls (a second of them a shape) is 10 times slower: the mean is well above the median
	KS_TIME_CAP_S=1 KS_MIN_RUNS=12 run -0 ks-bench $C
	run jf $C/bench.json .status '[.results[] | .time_us == .median_us and .mean_us > 1.5 * .median_us] | all' \
		'(.results | map(.median_us | log) | add / length | exp) as $gm | (.score_us - $gm) | fabs < 1e-9 * $gm'
	assert_output $'ok\ntrue\ntrue'
}

@test "the harness's random streams are counters: number n of a stream is ks_rand_at(seed, n), on host and device alike" {
	# what lets a GPU harness draw its inputs on the device, element by
	# element, as the host's ks_rand_next and ks_fill_uniform_f32 draw them
	cat >streams.c <<'C'
#include <stdio.h>
#include "ks_harness.h"

int
main(void)
{
	uint64_t seeds[] = { 0, 1, 20251129, UINT64_C(0x8000000000000005) }, st, old, u;
	float x;
	int bad = 0;

	/* splitmix64's published first number from seed 0 */
	bad += ks_rand_at(0, 0) != UINT64_C(0xe220a8397b1dcdaf);
	for (int s = 0; s < 4; s++) {
		st = seeds[s];
		for (uint64_t n = 0; n < 1000; n++) {
			u = ks_rand_next(&st);
			bad += u != ks_rand_at(seeds[s], n);
			/* the float: the top 24 bits, step 2^-24, scaled to [lo, hi) */
			x = -2 + 4 * ((float)(u >> 40) * 0x1p-24f);
			bad += x != ks_uniform_at(seeds[s], n, -2, 2) || !(x >= -2 && x < 2);
		}
		/* derive: one step, n mixed in, one step */
		old = seeds[s];
		ks_rand_next(&old);
		old ^= 7 * UINT64_C(0xd1b54a32d192ed03);
		bad += ks_seed_derive(seeds[s], 7) != ks_rand_next(&old);
	}
	printf("%d differ\n", bad);
	return bad != 0;
}
C
	cc -std=c99 -Wall -Werror -I"$KS_ROOT/kernels/common" streams.c -o streams
	run -0 ./streams
	assert_output "0 differ"
}

# The machine around a bench (ks_load.c): on a loaded 2-core machine every
# CPU bench ran into the time cap and the measured peak swung 203-314
# GFLOP/s between benches, and nothing said the machine was busy.
@test "bench.json records the machine around the bench: CPUs, other processes' work before and during it, steal, load" {
	use seeded
	run -0 ks-bench $C
	run -0 jq -r --argjson cpus "$(getconf _NPROCESSORS_ONLN)" '.machine
		| (keys | tojson),
		  "cpus \(.cpus == $cpus)",
		  "busy \([.busy_before, .busy_during] | map(type == "number" and . >= 0) | all)",
		  "steal \(.steal_pct | type == "number" and . >= 0 and . <= 100)",
		  "load \([.load1_before, .load1_after] | map(type == "number" and . >= 0) | all)",
		  "runnable \(.runnable_max | type == "number" and . >= 0 and . == floor)",
		  "not noisy: \(.waited_s) \(.noisy) \(.reason)"' $C/bench.json
	assert_output '["busy_before","busy_during","cpus","load1_after","load1_before","noisy","reason","runnable_max","steal_pct","waited_s"]
cpus true
busy true
steal true
load true
runnable true
not noisy: 0 false null'
	# a verdict without a harness run has no machine to speak of
	cp -r "$BATS_FILE_TMPDIR/build_failed" bf
	run -0 ks-bench bf/gen-000/c0
	assert_equal "$(jget bf/gen-000/c0/bench.json 'has("machine")')" false
}

@test "a CPU bench on a busy machine waits up to KS_BENCH_SETTLE_S for it to settle, then is timed, ok and noisy, and says why" {
	use seeded
	busy_proc proc 30
	writer=$!
	KS_BENCH_PROC=$PWD/proc KS_BENCH_BUSY_MAX=0.25 KS_BENCH_SETTLE_S=2 KS_QUIET=0 KS_PROGRESS=1 \
		run_timed -0 --separate-stderr ks-bench $C
	[ "$elapsed_ms" -ge 2000 ] || fail "ks-bench did not wait ($elapsed_ms ms)"
	[ "$elapsed_ms" -lt 20000 ] || fail "ks-bench waited past KS_BENCH_SETTLE_S ($elapsed_ms ms)"
	run -0 jf $C/bench.json .status '.score_us > 0' .machine.cpus .machine.load1_before .machine.runnable_max \
		.machine.steal_pct '.machine.waited_s | . >= 2 and . < 6' '.machine.busy_before > 0.25' .machine.noisy
	assert_output $'ok\ntrue\n2\n1.5\n2\n0\ntrue\ntrue\ntrue'
	run -0 jget $C/bench.json .machine.reason
	assert_output --regexp '^other processes used [0-9.]+ CPUs before the timing, still, after waiting [0-9]+ s for the machine to settle \(KS_BENCH_SETTLE_S\); other processes used [0-9.]+ CPUs during the bench \(over KS_BENCH_BUSY_MAX, 0\.25\)$'
	[[ $stderr == *"ks-bench: g000c0: the machine is busy (other processes use "*" CPUs, KS_BENCH_BUSY_MAX 0.25): waiting up to 2 s for it to settle"* ]] ||
		fail "stderr: $stderr"
	[[ $stderr == *"ks-bench: g000c0: ok, "*" us, after "*" s; noisy: other processes used "* ]] || fail "stderr: $stderr"
	# KS_BENCH_SETTLE_S=0: no wait, noisy all the same
	KS_BENCH_PROC=$PWD/proc KS_BENCH_BUSY_MAX=0.25 KS_BENCH_SETTLE_S=0 run -0 ks-bench $C
	run -0 jf $C/bench.json .status .machine.waited_s .machine.noisy
	assert_output $'ok\n0\ntrue'
	run -0 jget $C/bench.json .machine.reason
	assert_output --regexp '^other processes used [0-9.]+ CPUs before the timing; other processes used [0-9.]+ CPUs during'
	kill $writer
}

@test "a CPU bench waits while the machine is busy, and goes ahead, not noisy, once it settles" {
	use seeded
	# busy for about a second, then idle
	busy_proc proc 1
	KS_BENCH_PROC=$PWD/proc KS_BENCH_BUSY_MAX=0.25 KS_BENCH_SETTLE_S=60 run_timed -0 ks-bench $C
	wait
	run -0 jf $C/bench.json .status '.machine.waited_s > 0' '.machine.waited_s < 30' .machine.busy_before \
		.machine.busy_during .machine.noisy .machine.reason
	assert_output $'ok\ntrue\ntrue\n0\n0\nfalse\nnull'
	[ "$elapsed_ms" -lt 30000 ] || fail "ks-bench waited on an idle machine ($elapsed_ms ms)"
}
