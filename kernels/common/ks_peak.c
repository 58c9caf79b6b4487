/*
 * ks_peak.c: the single-precision peak of the machine a CPU runner runs
 * on, measured (runner --measure-peak) before any code of the candidate
 * runs, for a problem whose speed of light is "measured" (sgemm).
 *
 * Every thread OpenMP gives the runner (the candidate may use as many)
 * runs independent chains of fused multiply-adds on the widest vectors
 * the compiler targets (-march=native): AVX-512, AVX2 with FMA, NEON, or
 * the compiler's own 16-byte vectors.  Twelve chains cover the latency of
 * two FMA units of four or five cycles each, the most a core of today
 * has, and fit in sixteen vector registers.  Each thread's rate is per
 * second of its own CPU time, so a busy machine (a thread set aside by
 * the scheduler) does not make it read low; the best of five rounds is
 * the peak.  What contention is left can only make it read low, never
 * high, and ks-bench allows for that.
 */
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "ks_harness.h"

#if defined(__AVX512F__)
#include <immintrin.h>
typedef __m512 ks_vec;
#define KS_VEC_BITS 512
#define KS_VEC_FMA 1
#define ks_vec_set1(x) _mm512_set1_ps(x)
#define ks_vec_fma(a, b, c) _mm512_fmadd_ps(a, b, c)
#elif defined(__AVX__) && defined(__FMA__)
#include <immintrin.h>
typedef __m256 ks_vec;
#define KS_VEC_BITS 256
#define KS_VEC_FMA 1
#define ks_vec_set1(x) _mm256_set1_ps(x)
#define ks_vec_fma(a, b, c) _mm256_fmadd_ps(a, b, c)
#elif defined(__ARM_NEON)
#include <arm_neon.h>
typedef float32x4_t ks_vec;
#define KS_VEC_BITS 128
#define KS_VEC_FMA 1
#define ks_vec_set1(x) vdupq_n_f32(x)
#define ks_vec_fma(a, b, c) vfmaq_f32(c, a, b)
#else
typedef float ks_vec __attribute__((vector_size(16)));
#define KS_VEC_BITS 128
#define KS_VEC_FMA 0
#define ks_vec_set1(x) ((ks_vec){ (x), (x), (x), (x) })
#define ks_vec_fma(a, b, c) ((a) * (b) + (c))
#endif

#define KS_PEAK_CHAINS 12
#define KS_PEAK_LANES (KS_VEC_BITS / 32)

/* CPU seconds of the calling thread: time it did not run (a busy machine) is not counted */
static double
ks_peak_cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * iters steps of every chain; the sum of the chains, so the compiler
 * keeps the work.  acc = acc * m + c with m just under 1 settles at
 * c / (1 - m): no overflow, no denormals.
 */
static float
ks_peak_chains(long iters)
{
	ks_vec acc[KS_PEAK_CHAINS], m = ks_vec_set1(0.999999f), c = ks_vec_set1(1e-6f);
	float sum = 0;

	for (int i = 0; i < KS_PEAK_CHAINS; i++)
		acc[i] = ks_vec_set1((float)i);
	for (long it = 0; it < iters; it++)
		for (int i = 0; i < KS_PEAK_CHAINS; i++)
			acc[i] = ks_vec_fma(acc[i], m, c);
	for (int i = 0; i < KS_PEAK_CHAINS; i++) {
		float lanes[KS_PEAK_LANES];

		__builtin_memcpy(lanes, &acc[i], sizeof lanes);
		for (int l = 0; l < KS_PEAK_LANES; l++)
			sum += lanes[l];
	}
	return sum;
}

/*
 * One round: every thread runs iters steps of its chains.  The rate is
 * the sum of each thread's FLOPs per second of its own CPU time, so a
 * thread the scheduler set aside for a while does not read slow; *cpu_s
 * is the least CPU time a thread spent, *threads how many ran.
 */
static double
ks_peak_round(long iters, int *threads, double *cpu_s, volatile float *sink)
{
	double rate = 0, least = 1e30, flops = 2.0 * KS_PEAK_CHAINS * KS_PEAK_LANES * (double)iters;
	int n = 1;
	float total = 0;

#ifdef _OPENMP
#pragma omp parallel reduction(+ : total, rate) reduction(min : least)
#endif
	{
		double t0 = ks_peak_cpu_now(), t;

#ifdef _OPENMP
#pragma omp single
		n = omp_get_num_threads();
#endif
		total += ks_peak_chains(iters);
		t = ks_peak_cpu_now() - t0;
		if (t > 0)
			rate += flops / t;
		if (t < least)
			least = t;
	}
	*sink += total;
	*threads = n;
	*cpu_s = least;
	return rate;
}

void
ks_measure_peak(struct ks_peak *peak)
{
	volatile float sink = 0;
	long iters = 1 << 12;
	double best = 0, rate, cpu_s;
	int threads = 1;

	/* the threads started and the clocks up, then rounds of at least 2 ms of CPU each */
	while (ks_peak_round(iters, &threads, &cpu_s, &sink), cpu_s < 2e-3 && iters < (1L << 30))
		iters *= 2;
	for (int r = 0; r < 5; r++)
		if ((rate = ks_peak_round(iters, &threads, &cpu_s, &sink)) > best)
			best = rate;
	peak->flops_per_s = best;
	peak->threads = threads;
	peak->vector_bits = KS_VEC_BITS;
	peak->fma = KS_VEC_FMA;
}
