#!/usr/bin/env bats
# Broken candidates are results: recorded with their status while the
# generation completes.

bats_require_minimum_version 1.5.0
load helper/common

setup() {
	cd "$BATS_TEST_TMPDIR"
}

mk() {
	make -s --no-print-directory -C "$KS_ROOT" POP="$BATS_TEST_TMPDIR/pop" "$@"
}

# break_slot S FILE: replace the kernel of gen-001/cS by FILE's text.
break_slot() {
	cat >"pop/gen-001/c$1/kernel.c"
}

@test "a generation with a kernel that does not compile, one wrong, one crashing and one looping completes" {
	# make the candidates of generation 1, then break them before they are built
	# (its output shown if it fails: before, a failure here read only "kernel.c: No such file or directory")
	run -0 mk N=1 K=4 generation
	rm -f pop/gen-001/c*/build.json pop/gen-001/c*/bench.json pop/gen-001/c*/runner
	break_slot 0 <<'C'
void sgemm(int M, int N, int K, const float *A, const float *B, float *C) { this is not C; }
C
	break_slot 1 <<'C'
void sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
	for (int i = 0; i < M * N; i++)
		C[i] = 1.0f;
	(void)K; (void)A; (void)B;
}
C
	break_slot 2 <<'C'
#include <signal.h>
void sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
	(void)M; (void)N; (void)K; (void)A; (void)B; (void)C;
	raise(SIGSEGV);
}
C
	break_slot 3 <<'C'
void sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
	(void)M; (void)N; (void)K; (void)A; (void)B; (void)C;
	for (volatile int spin = 1; spin; )
		;
}
C
	# the looping kernel stopped after 3 s (only here: under load the seed's honest bench, made above, took longer)
	SECONDS=0
	KS_BENCH_TIMEOUT_S=3 run -0 mk N=1 K=4 generation
	assert_output --partial "pop: generations 0..1, 5 kernels, 1 correct; best g000c0"
	assert_equal "$(jget pop/gen-001/c0/build.json .ok)" false
	run jget pop/gen-001/c0/build.json .diagnostics
	assert_output --partial "error"
	assert_equal "$(jget pop/gen-001/c0/bench.json .status)" build_failed
	assert_equal "$(jget pop/gen-001/c1/bench.json .status)" incorrect
	run jget pop/gen-001/c1/bench.json .message
	assert_output --regexp '^shape 1x1x1: C\[0\]\[0\] = 1, expected'
	assert_equal "$(jget pop/gen-001/c2/bench.json .status)" crashed
	run jget pop/gen-001/c2/bench.json .message
	assert_output --partial "killed by signal 11"
	assert_equal "$(jget pop/gen-001/c3/bench.json .status)" timeout
	for s in 0 1 2 3; do
		assert_equal "$(jget pop/gen-001/c$s/bench.json 'must("score_us")')" null
		assert_equal "$(jget pop/gen-001/c$s/bench.json .correct)" false
	done
	[ "$SECONDS" -lt 60 ] || fail "the looping kernel was not stopped at its limit ($SECONDS s)"

	# the next generation builds on what is correct: the seed
	run -0 mk N=2 K=4 generation
	assert_equal "$(jget pop/gen-002/select.json .base)" g000c0
	assert_equal "$(jget pop/gen-002/select.json .reference)" g000c0
}
