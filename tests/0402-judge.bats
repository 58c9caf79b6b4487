#!/usr/bin/env bats
# The judge outside the candidate's process (integrity round three): the
# runner of a CPU problem is a judge that never runs the kernel, and the
# kernel runs in a worker process locked down before any of its code runs
# (kernels/common/ks_judge.h).  Each test is a kernel that tries to get
# around one part of it, or a verdict someone else wrote; tests/INTEGRITY.md
# is the table.

bats_require_minimum_version 1.5.0
load helper/common
load helper/adversarial

setup() {
	cd "$BATS_TEST_TMPDIR"
	export KS_BENCH_TIMEOUT_S=30 KS_TIME_CAP_S=0.2
	ks-init -p sgemm -t cpu -k 1 pop
}

@test "judge_denies: on an OpenMP thread other than the first, the worker's filter refuses mprotect, MAP_FIXED, PROT_EXEC, open, fork, kill, other descriptors and another process's CPUs" {
	# (before: the filter was installed on the main thread only, and MAP_FIXED was allowed everywhere)
	run -0 judge judge_denies
	assert_line --index 0 rejected
	# the runner and worker built as ks-build builds the seed's, with this kernel instead: nothing checks its text
	build_unchecked judge_denies
	# two threads at least, so that one of the team is not the first
	OMP_NUM_THREADS=2 run -0 ./denies --time-cap 0.01 --min-runs 1
	run jq -r .correct <<<"$output"
	assert_output true
}

@test "after_return: work a thread of the kernel's own does after the call returned is caught" {
	# The worker runs only inside the judge's intervals: stopped when it says a call returned, its
	# memory fingerprinted, run for a quiet period with no command, fingerprinted again.  A thread that
	# writes in the quiet period is caught by the fingerprint; one that does not get the CPU then has
	# left C incomplete, and the first call of every shape is checked.
	# (before the judge: caught only when scheduling delayed it past a spot check)
	allow clone
	run -0 judge after_return
	# (a 1x1x1 shape's one element may be done before the worker is stopped: then it was timed, and is right)
	assert_output --regexp "^(rejected
(bench )?shape [0-9x]+: the kernel's memory changed after its call returned \(work after the return counts for nothing and is not allowed\)|incorrect
shape [0-9x]+: C\[[0-9]+\]\[[0-9]+\] = nan, expected .*)$"
}

@test "early_done: a reply forged before the work is done stops the clock, and the work that follows is caught" {
	allow write
	run -0 judge early_done
	# caught either way: by the fingerprint when the worker ran in the quiet period, or, when a loaded machine
	# gave it no CPU then, by the check of C as it was at the forged reply (a clean-clone CI saw the second)
	assert_output --regexp "^(rejected
shape [0-9x]+: the kernel's (memory changed after its call returned|process sent the judge a message nobody asked for).*|incorrect
shape [0-9x]+: C\[[0-9]+\]\[[0-9]+\] = nan, expected .*)$"
}

@test "the kernel's object may define its entry point and nothing else: qsort, strtod, a global variable, a constructor, an IFUNC" {
	local name
	mkdir -p pop/gen-000/c0
	# (before: the import check read only what the object imports, and a kernel defining qsort
	# scaled the harness's sorted samples by 0.4; one defining strtod made --rtol 1e30)
	for name in qsort strtod; do
		{ echo 'void sgemm(int M, int N, int K, const float *A, const float *B, float *C) { (void)M; (void)N; (void)K; (void)A; (void)B; (void)C; }'
		  case $name in
		  qsort) echo 'void qsort(void *b, unsigned long n, unsigned long w, int (*c)(const void *, const void *)) { (void)b; (void)n; (void)w; (void)c; }' ;;
		  strtod) echo 'double strtod(const char *s, char **end) { (void)s; (void)end; return 1e30; }' ;;
		  esac; } >pop/gen-000/c0/kernel.c
		ks-build pop/gen-000/c0
		run -0 jf pop/gen-000/c0/build.json .rejected
		assert_output "the kernel defines the global symbol '$name': a kernel's object may define its entry point 'sgemm' and nothing else (make '$name' static), so that it cannot stand in for a function of the C library or of the harness"
		assert_file_not_exists pop/gen-000/c0/runner
	done
	{ cat "$KS_ROOT/kernels/sgemm/seed.c"; echo "int calls;"; } >pop/gen-000/c0/kernel.c
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .rejected
	assert_output --partial "defines the global symbol 'calls'"
	# a constructor by a section of its own: the text names the section (the object's own check, behind it, is
	# tested on the cuda target, where host assembly is allowed: tests/0401)
	{ cat "$KS_ROOT/kernels/sgemm/seed.c"; echo 'static void early(void) {}'
	  echo '__attribute__((used, section(".init_array"))) static void (*const run_early)(void) = early;'; } >pop/gen-000/c0/kernel.c
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .rejected
	assert_output --partial "the kernel puts code or data in a section of its choosing ('section' in an attribute on line"
	{ cat "$KS_ROOT/kernels/sgemm/seed.c"; echo 'static void *pick(void) { return 0; }'
	  echo 'static void chosen(void) __attribute__((ifunc("pick")));'; echo 'void (*use_chosen)(void) = chosen;'; } >pop/gen-000/c0/kernel.c
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .rejected
	assert_output --regexp "^the kernel (defines 'chosen' as an indirect function \(IFUNC\)|defines the global symbol 'use_chosen')"
	# allowed_symbols widens imports, never definitions
	allow qsort
	{ echo 'void sgemm(int M, int N, int K, const float *A, const float *B, float *C) { (void)M; (void)N; (void)K; (void)A; (void)B; (void)C; }'
	  echo 'void qsort(void *b, unsigned long n, unsigned long w, int (*c)(const void *, const void *)) { (void)b; (void)n; (void)w; (void)c; }'; } >pop/gen-000/c0/kernel.c
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .rejected
	assert_output --partial "defines the global symbol 'qsort'"
}

@test "the worker holds no descriptor but its pipe to the judge, the channel and /dev/null" {
	# a kernel that spoils C when any descriptor from 4 to 1023 is open in its process
	allow fcntl
	mkdir -p pop/gen-000/c0
	cat >pop/gen-000/c0/kernel.c <<'C'
#include <fcntl.h>
void
sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
	int (*flags_of)(int, int, ...) = fcntl, open_fds = 0;

	for (int fd = 4; fd < 1024; fd++)
		open_fds += flags_of(fd, F_GETFD) >= 0;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			float acc = 0;

			for (int k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc + open_fds;
		}
}
C
	ks-build pop/gen-000/c0
	ks-bench pop/gen-000/c0
	run -0 jf pop/gen-000/c0/bench.json .status
	assert_output ok
}

# fake_runner BODY: the built candidate's runner replaced by a script that writes BODY (printf format) to fd 3
fake_runner() {
	mkdir -p pop/gen-000/c0
	cp "$KS_ROOT/kernels/sgemm/seed.c" pop/gen-000/c0/kernel.c
	ks-build pop/gen-000/c0
	printf '#!/bin/sh\nprintf '"'%s'"' >&3\n' "$1" >pop/gen-000/c0/runner
	chmod +x pop/gen-000/c0/runner
	ks-bench pop/gen-000/c0
}

ok_verdict='{"correct": true, "salt": 1, "tests": [], "results": [{"shape": [256,256,256], "median_us": 100000, "mean_us": 100000, "min_us": 100000, "max_us": 100000, "stderr_us": 1, "median_stderr_us": 1, "runs": 9, "converged": true}, {"shape": [512,384,320], "median_us": 100000, "mean_us": 100000, "min_us": 100000, "max_us": 100000, "stderr_us": 1, "median_stderr_us": 1, "runs": 9, "converged": true}, {"shape": [200,640,448], "median_us": 100000, "mean_us": 100000, "min_us": 100000, "max_us": 100000, "stderr_us": 1, "median_stderr_us": 1, "runs": 9, "converged": true}], "timer": "t", "peak": {"flops_per_s": 1e11, "threads": 2, "vector_bits": 256, "fma": true}}'

@test "ks-bench reads the verdict whole: a NUL, bytes after it or a second object are rejected" {
	fake_runner "$ok_verdict"
	run -0 jf pop/gen-000/c0/bench.json .status
	assert_output ok
	fake_runner "$ok_verdict"'\000{"correct": false}'
	run -0 jf pop/gen-000/c0/bench.json .status .message
	assert_output --regexp "^rejected
the harness's verdict holds a NUL byte at byte [0-9]+ of [0-9]+: only the harness writes it, whole, and this one cannot stand$"
	fake_runner "$ok_verdict"'{"correct": true}'
	run -0 jf pop/gen-000/c0/bench.json .status .message
	assert_output "rejected
the harness's verdict is not one JSON object (bytes after it, or a second one): only the harness writes it, whole, and this one cannot stand"
	fake_runner "$ok_verdict"' trailing'
	run -0 jf pop/gen-000/c0/bench.json .status
	assert_output rejected
}

@test "a verdict file put in the place of the one ks-bench made is rejected" {
	# (before: where bubblewrap does not run, code of the kernel's before the worker's filter, which the gate
	# lets open and rename then, could put a forged verdict in the place of the real one, and it was read)
	local forged=${ok_verdict//\"/\\\"}
	mkdir -p pop/gen-000/c0
	cp "$KS_ROOT/kernels/sgemm/seed.c" pop/gen-000/c0/kernel.c
	ks-build pop/gen-000/c0
	# the runner's own verdict says incorrect; a file beside it, renamed over it, says ok
	printf '#!/bin/sh\nprintf "%%s" "{\\"correct\\": false, \\"failure\\": \\"wrong\\"}" >&3\nfor f in ../.harness.json.*; do printf "%%s" "%s" >../forged && mv ../forged "$f"; done\n' \
		"$forged" >pop/gen-000/c0/runner
	chmod +x pop/gen-000/c0/runner
	KS_SANDBOX=basic ks-bench pop/gen-000/c0
	run -0 jf pop/gen-000/c0/bench.json .status .message
	assert_output "rejected
the harness's verdict file was replaced while it ran: only the harness writes it, on the descriptor it was given, and this one cannot stand"
}

@test "a verdict without the measured peak never skips the speed of light" {
	# (before: a verdict without "peak" was scored with no bound at all)
	fake_runner "${ok_verdict%, \"peak\"*}}"
	run -0 jf pop/gen-000/c0/bench.json .status .message .score_us
	assert_output "rejected
the harness's verdict gives no measured peak, which problem.json's \"bound\" for this target needs: no time stands without its speed of light
null"
}

@test "the judge's verdict says how it timed, with the floor it measured before the kernel ran" {
	mkdir -p pop/gen-000/c0
	cp "$KS_ROOT/kernels/sgemm/seed.c" pop/gen-000/c0/kernel.c
	ks-build pop/gen-000/c0
	assert_file_executable pop/gen-000/c0/worker
	ks-bench pop/gen-000/c0
	run -0 jf pop/gen-000/c0/bench.json .status .timer
	assert_line --index 0 ok
	assert_line --index 1 --regexp "^the judge's CLOCK_MONOTONIC, in a process the kernel never runs in, .*; [0-9.]+ us \(the median of 401 empty calls measured before the kernel ran; middle half [0-9.]+ us wide\), or the median of 31 measured again before a shape.s timed calls where lower \(at least [0-9.]+ us\), is subtracted from each time"
	# the runner holds none of the kernel's code: the kernel's object is linked into the worker only
	nm pop/gen-000/c0/worker | grep -q ' T sgemm$'
	run -1 bash -c "nm pop/gen-000/c0/runner | grep -q ' T sgemm$'"
}

# ratio_to_control NAME [MIN]: NAME.c's score over the same file's with TRICK 0 (the same honest work, no
# trick), each the least of three benches taken alternately: the least is what load spoils least
# (tests run side by side here), and one thread each, which a busy neighbour slows less than two.
# Where the ratio is not above MIN, three more of each: a trick stays below, a control that met only
# busy moments does not (r3_unwind_t0 read 0.425 once in make test, where its trick is worth 0.30).
ratio_to_control() {
	local i trick= control= t c
	sed 's/^#define TRICK 1/#define TRICK 0/' "$ADV/$1.c" >control.c
	for i in 1 2 3 4 5 6; do
		if [ "$i" -eq 4 ] && awk -v t="$trick" -v c="$control" -v m="${2:-0}" 'BEGIN { exit !(t / c > m) }'; then
			break
		fi
		OMP_NUM_THREADS=1 ADV=$ADV judge "$1" >/dev/null
		t=$(jget pop/gen-000/c0/bench.json .score_us)
		OMP_NUM_THREADS=1 ADV=$PWD judge control >/dev/null
		c=$(jget pop/gen-000/c0/bench.json .score_us)
		trick=$(awk -v a="${trick:-$t}" -v b="$t" 'BEGIN { print (b < a ? b : a) }')
		control=$(awk -v a="${control:-$c}" -v b="$c" 'BEGIN { print (b < a ? b : a) }')
	done
	awk -v t="$trick" -v c="$control" 'BEGIN { printf "%.3f\n", t / c }'
}

@test "round three, items 4 and 5: libc reached without imports, the callers' saved start time, the samples in the heap: nothing of the judge's to move" {
	# (at e1c1778, each ok with the same work: r3_resolve_libc at 0.30x (the runner's clock_gettime
	# slot pointed at a slow clock), r3_unwind_t0 at 0.30x (host_time_call's t0 moved through the
	# registers __builtin_unwind_init spilled), r3_heap_samples at 0.60x (the samples found by their
	# malloc chunks and shrunk))
	# Under the suite's own load a ratio of 0.72 was seen once: make test asks more than 0.5, which the
	# 0.30x tricks fail; make test-all (the test below) asks 0.75, which r3_heap_samples' 0.60x fails too.
	local k r
	for k in r3_resolve_libc r3_unwind_t0 r3_heap_samples; do
		r=$(ratio_to_control $k 0.5)
		awk -v r="$r" 'BEGIN { exit !(r > 0.5) }' || fail "$k scored $r of its control"
	done
}

@test "round three, item 5 (slow): r3_heap_samples, whose trick was worth 0.60x, within 0.75 of its control" {
	slow
	local r
	r=$(ratio_to_control r3_heap_samples 0.75)
	awk -v r="$r" 'BEGIN { exit !(r > 0.75) }' || fail "r3_heap_samples scored $r of its control"
}

@test "round three, items 3 and 5: patching ks_problem (from another thread, or by MAP_FIXED over RELRO) or aiming the reference at C finds nothing of the judge's" {
	# (at e1c1778: each ok with wrong output: the check replaced by one that passes, or comparing C with itself)
	local k
	for k in r3_seccomp_thread r3_map_fixed r3_ref_alias; do
		run -0 judge $k
		assert_line --index 0 incorrect
		# (the first shape that fails: r3_ref_alias writes 0 to C[0][0], which passes 1x1x1 when its product
		# falls within the tolerance, about one draw in 500; 17x31x9 failed then, once in a clean-clone run)
		assert_line --index 1 --regexp "^shape [0-9]+x[0-9]+x[0-9]+: C\[[0-9]+\]\[[0-9]+\] = [^,]*, expected .* out of tolerance$"
	done
}

@test "round three, items 1, 2, 6 and 7: a forged verdict, qsort and strtod of the kernel's, predicted inputs, a thread left working" {
	# (at e1c1778: each ok, with a false time or wrong output; the numbers are in each file and tests/INTEGRITY.md)
	run -0 judge r3_forge_fd
	# its verdict goes to descriptors the worker does not have: the kernel did no work
	assert_line --index 0 incorrect
	assert_line --index 1 --regexp '^shape 1x1x1: C\[0\]\[0\] = nan, expected '
	local name
	for name in qsort strtod; do
		run -0 judge r3_define_$name
		assert_output "rejected
the kernel defines the global symbol '$name': a kernel's object may define its entry point 'sgemm' and nothing else (make '$name' static), so that it cannot stand in for a function of the C library or of the harness"
	done
	# no seed, no opts, no future input anywhere in the worker: its scan of the stack for them runs off it
	run -0 judge r3_predict_inputs
	assert_line --index 0 --regexp '^(crashed|incorrect)$'
	run -0 judge r3_work_after_return
	if [[ ${lines[0]} == ok ]]; then
		# Under load the caller can be held up until its thread has done all the rows: then they were
		# done inside the timed call, and the time is honest.  An ok must be no faster than the same
		# rows done honestly (the trick, when it worked at e1c1778: 0.52 to 0.55 times as fast).
		local trick honest
		trick=$(jget pop/gen-000/c0/bench.json .score_us)
		{ echo '#define HONEST 1'; cat "$ADV/r3_work_after_return.c"; } >pop/gen-000/c0/kernel.c
		ks-build pop/gen-000/c0
		ks-bench pop/gen-000/c0
		honest=$(jget pop/gen-000/c0/bench.json .score_us)
		awk -v t="$trick" -v h="$honest" 'BEGIN { exit !(t >= 0.75 * h) }' ||
			fail "r3_work_after_return ok at $trick us, the same rows done honestly $honest us"
		return
	fi
	assert_output --regexp "^(rejected
(bench )?shape [0-9x]+: the kernel's memory changed after its call returned \(work after the return counts for nothing and is not allowed\)|incorrect
.*)$"
}

# built NAME: NAME.c (a fixture, or the seed for "seed") built into pop/gen-000/c0 as ks-build builds a candidate
built() {
	mkdir -p pop/gen-000/c0
	if [ "$1" = seed ]; then
		cp "$KS_ROOT/kernels/sgemm/seed.c" pop/gen-000/c0/kernel.c
	else
		cp "$ADV/$1.c" pop/gen-000/c0/kernel.c
	fi
	ks-build pop/gen-000/c0
}

@test "--batch N: a timed sample is N calls back to back, each on a state of its own; runs counts the calls" {
	built seed
	run -0 pop/gen-000/c0/runner --batch 4 --time-cap 0.1 --bench 32x32x32 48x16x40
	run -0 jq -r '.correct, ([.results[] | .batch == 4 and .runs % 4 == 0 and .runs >= 20] | all), .timer' \
		<<<"$output"
	assert_line --index 0 true
	assert_line --index 1 true
	assert_line --index 2 --partial "(of a batch of calls, where a result gives one: a call's time is its batch's over its calls)"
	run -2 pop/gen-000/c0/runner --batch 0 --bench 32x32x32
	assert_output "runner: bad --batch '0': expected an integer from 1 to 128"
	run -2 pop/gen-000/c0/runner --batch 129 --bench 32x32x32
	assert_output "runner: bad --batch '129': expected an integer from 1 to 128"
	# a CPU's default is one call a sample, and bench.json says so; KS_BENCH_BATCH sets it
	ks-bench pop/gen-000/c0
	run -0 jq -r '[.results[].batch] | unique | @csv' pop/gen-000/c0/bench.json
	assert_output 1
	KS_BENCH_BATCH=3 ks-bench pop/gen-000/c0
	run -0 jq -r '.status, ([.results[].batch] | unique | @csv)' pop/gen-000/c0/bench.json
	assert_output $'ok\n3'
	rm pop/gen-000/c0/bench.json
	KS_BENCH_BATCH=many run -1 ks-bench pop/gen-000/c0
	assert_output "ks-bench: bad KS_BENCH_BATCH 'many': expected auto or calls per timed sample, 1 to 128"
	assert [ ! -e pop/gen-000/c0/bench.json ]
	# ks-bench's bound is the judge's
	grep -q '^#define KS_JUDGE_MAX_BATCH	128	' "$KS_ROOT/kernels/common/ks_judge.h"
	grep -qE '^#define KS_BATCH_MAX[[:space:]]+128$' "$KS_ROOT/tools/lib/ks_pop.h"
}

@test "batch_first_only: a kernel that computes only the output it saw first is honest alone, caught in a batch" {
	built batch_first_only
	run -0 pop/gen-000/c0/runner --time-cap 0.1 --bench 32x32x32
	run -0 jq -r .correct <<<"$output"
	assert_output true
	# each call of a batch is on a state of its own, checked at random, and the last of the last always
	run -0 pop/gen-000/c0/runner --batch 4 --time-cap 0.1 --bench 32x32x32
	run -0 jq -r .correct,.failure <<<"$output"
	assert_line --index 0 false
	assert_line --index 1 --regexp "^bench shape 32x32x32 (on timed run [0-9]+|after [0-9]+ timed runs): C\[[0-9]+\]\[[0-9]+\] = "
}

@test "batch_after_return: work after the last call of a batch is caught as after a single call" {
	allow clone
	built batch_after_return
	# bench shapes only: the first output the kernel sees is the one the warm-up uses
	run -0 pop/gen-000/c0/runner --batch 3 --time-cap 0.1 --bench 64x64x64
	run -0 jq -r .rejected,.failure <<<"$output"
	assert_line --index 0 true
	assert_line --index 1 --regexp "^bench shape 64x64x64: the kernel's memory changed after its call returned"
}

@test "batch_slow_warmup: --batch auto grows a batch to what the timed calls want, not the warm-up" {
	built batch_slow_warmup
	# its warm-up calls take 500 times its timed ones: sized by them alone, the batch would be 1 call
	run -0 pop/gen-000/c0/runner --batch auto --time-cap 0.2 --bench 64x64x64
	run -0 jq -r '.correct, (.results[0].batch >= 16)' <<<"$output"
	assert_line --index 0 true
	assert_line --index 1 true
}

@test "round five: code in .init before the worker's filter, assembly in a section's name or behind a #line: refused, nothing read" {
	# (before: each built and benched ok: r5_init_judge_floor at 0.40x of its honest time, the other two
	# printing the file they embedded at build time; each fixture's header says how)
	echo TOPSECRET-42 >secret.txt
	run -0 judge r5_init_judge_floor
	assert_line --index 0 rejected
	assert_line --index 1 --partial "the kernel puts code or data in a section of its choosing ('section' in an attribute on line"
	run -0 judge r5_section_asm
	assert_line --index 0 rejected
	assert_line --index 1 --partial "the kernel puts code or data in a section of its choosing ('section' in an attribute on line"
	run -0 judge r5_line_hides_asm
	assert_line --index 0 rejected
	assert_line --index 1 "the kernel holds a line directive ('#line' on line 13): the static check reads the kernel's lines by the preprocessor's line markers, which a kernel may not set"
	run grep -r TOPSECRET pop
	assert_failure
}

@test "round five: a line directive however spelled, a raw string, a NUL byte: refused by the text as written" {
	local body
	mkdir -p pop/gen-000/c0
	# each a line before the seed: "#line" by a digraph, a trigraph, a spliced line, a comment, GCC's marker,
	# and behind a header name whose "/*" opens no comment
	for body in '#line 5 "x.h"' '  #  line 5' '%:line 5' '??=line 5' '#li\\\nne 5' '#/* a\n */line 5' \
		'/**/ # 33 "/usr/include/stdio.h" 3' '#if __has_include(<a/*>)\n#endif\n#line 1 "/usr/include/stdio.h"\n/* */' \
		'#pragma note ??/\n# 1 "/usr/include/stdio.h" 3'; do
		{ printf '%b\n' "$body"; cat "$KS_ROOT/kernels/sgemm/seed.c"; } >pop/gen-000/c0/kernel.c
		ks-build pop/gen-000/c0
		run -0 jf pop/gen-000/c0/build.json .rejected
		assert_output --partial "the kernel holds a line directive ("
	done
	# (the last: "??/" splices the next line in C11, which reads trigraphs, not in C++17, which nvcc's
	# and hipcc's kernels are: the text is read both ways)
	# a section named inside an attribute list however nested, a constructor anywhere in one (before: a regular
	# expression read one level of parentheses, and the constructor rule only a list that began with it)
	{ echo 'static int placed __attribute__((aligned((16)), __section__(".data.k"))) = 1;'
	  cat "$KS_ROOT/kernels/sgemm/seed.c"; } >pop/gen-000/c0/kernel.c
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .rejected
	assert_output --partial "the kernel puts code or data in a section of its choosing ('__section__' in an attribute on line 1)"
	{ echo '__attribute__((used, constructor)) static void early(void) {}'; cat "$KS_ROOT/kernels/sgemm/seed.c"; } \
		>pop/gen-000/c0/kernel.c
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .rejected
	assert_output "the kernel runs code before or after the call ('constructor' in an attribute on line 1): nothing of the kernel's may run before its process is locked down"
	# a string that reads like a directive or ends in R, a function called section: none of them is refused
	{ echo 'static const char *note = "#line 5", *layout = "rows x cols, layout R";'
	  sed 's/\bblock(/section(/g' "$KS_ROOT/kernels/sgemm/seed.c"; } >pop/gen-000/c0/kernel.c
	grep -q 'section(' pop/gen-000/c0/kernel.c
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .ok .rejected
	assert_output "true
null"
	{ echo 'static const char *s = R"(# 1 "/usr/include/stdio.h" 3)";'; cat "$KS_ROOT/kernels/sgemm/seed.c"; } >pop/gen-000/c0/kernel.c
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .rejected
	assert_output --partial "the kernel holds a raw string literal (on line 1)"
	# (before: the text's check read up to the NUL, the compiler on past it)
	{ printf 'int unused;\0\n#include <cblas.h>\n'; cat "$KS_ROOT/kernels/sgemm/seed.c"; } >pop/gen-000/c0/kernel.c
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .rejected
	assert_output "the kernel holds a NUL byte (at byte 11): a kernel's source is text, and the check reads it to the end"
	rm pop/gen-000/c0/kernel.c
	mkdir pop/gen-000/c0/kernel.c
	run -1 ks-build pop/gen-000/c0
	assert_output "ks-build: 'pop/gen-000/c0/kernel.c' is not a regular file: a kernel's source is one file"
}

@test "round five: what the kernel includes, by the preprocessor's own account: another candidate's file, a user's file, a vendor header by a macro, /dev/zero" {
	mkdir -p pop/gen-000/c0 pop/gen-000/c1/cub
	echo 'int borrowed;' >pop/gen-000/c1/kernel.c
	touch pop/gen-000/c1/cub/util.h
	echo 'KEY=TOPSECRET-42' >secret.env
	inc() {
		{ printf '%b\n' "$1"; cat "$KS_ROOT/kernels/sgemm/seed.c"; } >pop/gen-000/c0/kernel.c
		ks-build pop/gen-000/c0
		run -0 jf pop/gen-000/c0/build.json .rejected
	}
	# the check of what was included, without the compiler's bubblewrap (which would hide these files: next test)
	export KS_SANDBOX=basic
	# (before: a file named by a macro, or by a quoted path, was read and compiled with no check of its text)
	inc '#define OTHER "../c1/kernel.c"\n#include OTHER'
	assert_output "the kernel includes 'pop/gen-000/c0/../c1/kernel.c', which is neither a system header, the compiler's own nor the harness's: a kernel is one file"
	inc "#include \"$PWD/secret.env\""
	assert_output "the kernel includes '$PWD/secret.env', which is neither a system header, the compiler's own nor the harness's: a kernel is one file"
	run grep -r TOPSECRET pop
	assert_failure
	inc '#define VENDOR "../c1/cub/util.h"\n#include VENDOR'
	assert_output "the kernel includes a vendor library's header ('pop/gen-000/c0/../c1/cub/util.h'): the kernel must do the work itself"
	# the preprocessor's own failure is the kernel's: what it says of the kernel, then no build
	# a branch only the compiler would take: its log is there while it compiles, and so while the check reads
	# (before: the check's preprocessor did not see build.log, the compiler did, and compiled the include)
	inc "#if __has_include(\"build.log\")\n#include \"$PWD/secret.env\"\n#endif"
	assert_output "the kernel includes '$PWD/secret.env', which is neither a system header, the compiler's own nor the harness's: a kernel is one file"
	# and on the CPU no assembly in the text as written, whatever branch it is in (before: only the
	# preprocessed text was read for it)
	inc '#if __has_include("build.log")\n__asm__(".section .rodata\\n.incbin \\"secret.env\\"\\n.text");\n#endif'
	assert_output "the kernel uses inline assembly ('__asm__(' on line 2): a kernel for the CPU must be C"
	inc '#include "no-such-header.h"'
	assert_output "the kernel could not be preprocessed (the preprocessor failed), so the static check cannot read it:
pop/gen-000/c0/kernel.c:1:10: fatal error: no-such-header.h: No such file or directory"
	assert_file_not_exists pop/gen-000/c0/runner
	# (before: the preprocessor grew by hundreds of megabytes a second with no limit but the build's 120 s)
	mkdir -p kernels
	cp -r "$KS_ROOT/kernels/common" "$KS_ROOT/kernels/sgemm" kernels/
	jq '.limits.build_memory_mb = 256' "$KS_ROOT/kernels/sgemm/problem.json" >kernels/sgemm/problem.json
	export KS_KERNELS_DIR=$PWD/kernels
	inc '#include "/dev/zero"'
	assert_output --partial "the kernel could not be preprocessed ("
	run -0 jf pop/gen-000/c0/build.json .seconds
	(( $(printf '%.0f' "$output") < 30 ))
}

@test "round five: where bubblewrap runs, the compiler sees the system's folders and what its command names, no file of the user's" {
	command -v bwrap >/dev/null && bwrap --ro-bind / / true 2>/dev/null || skip "bubblewrap does not run here: the include check alone keeps other files out"
	mkdir -p pop/gen-000/c0 pop/gen-000/c1
	echo 'int borrowed;' >pop/gen-000/c1/kernel.c
	echo 'KEY=TOPSECRET-42' >secret.env
	# (before: the compiler read any file of the user's: an #include, or top-level assembly's .incbin on a GPU target)
	{ echo "#include \"$PWD/secret.env\""; cat "$KS_ROOT/kernels/sgemm/seed.c"; } >pop/gen-000/c0/kernel.c
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .rejected
	assert_output "the kernel could not be preprocessed (the preprocessor failed), so the static check cannot read it:
pop/gen-000/c0/kernel.c:1:10: fatal error: $PWD/secret.env: No such file or directory"
	{ echo '#include "../c1/kernel.c"'; cat "$KS_ROOT/kernels/sgemm/seed.c"; } >pop/gen-000/c0/kernel.c
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .rejected
	assert_output --partial "fatal error: ../c1/kernel.c: No such file or directory"
	run grep -r TOPSECRET pop
	assert_failure
	# what the build needs it sees, and it writes the build's files
	cp "$KS_ROOT/kernels/sgemm/seed.c" pop/gen-000/c0/kernel.c
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .ok
	assert_output true
}

@test "r6_before_lockdown: code of the candidate's that runs before the worker's filter cannot reach the judge, fork, keep a capability, or escape the judge's own filter by running the worker again unconfined" {
	# (before: as root its constructor opened the judge's /proc/PID/mem read-write, and the worker it ran
	# again with --unconfined ran the kernel with no filter at all; here built unchecked, since ks-build
	# refuses constructors, as code inlined into nvcc's registration would run)
	local user=$(id -un) box
	build_unchecked r6_before_lockdown
	# as this user, and as root also as nobody: the judge's memory is kept from a worker of the same user
	# by the judge being not dumpable, from one of root's by the worker having no capability
	box=$(mktemp -d) && chmod 755 "$box" && cp denies worker "$box/"
	for user in $user $( ((EUID == 0)) && command -v setpriv >/dev/null && echo nobody); do
		# (a traced judge would wait for ever: the timeout makes that a failure)
		if [[ $user == nobody ]]; then
			cd "$box"
			run -0 timeout 60 setpriv --reuid=nobody --regid=nogroup --clear-groups ./denies --time-cap 0.01 --min-runs 1
			cd - >/dev/null
		else
			run -0 timeout 60 ./denies --time-cap 0.01 --min-runs 1
		fi
		refute_output --partial "r6_before_lockdown: succeeded"
		run jq -r .correct <<<"$output"
		assert_output true
	done
}
