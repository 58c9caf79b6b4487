/*
 * fp8acc.c - what an accumulator narrower than fp32 does to fp8-mm under
 * its check: the numbers kernels/fp8-mm/knowledge/hip-nvidia/
 * fp8-accumulation.md quotes.  On 64x1536x7168 with the problem's inputs
 * (bytes drawn by reference.c's table, the scales standard normal as the
 * harness draws them), each element is summed as a tensor core with an
 * accumulator of 13 mantissa bits would (k = 32 steps, each step's 32
 * products summed exactly and added to the accumulator with one
 * rounding), to nearest or toward zero, the accumulator added into fp32
 * after each 128-deep block, or after each step; and in fp32 throughout.
 * Each is checked as the harness checks c: both rounded to bf16,
 * |c - c_ref| <= 1e-3 + 0.02 |c_ref|, c_ref in double.
 *
 * Prints "seed S: fp32 F, block nearest N, block toward-zero Z, step
 * nearest N, step toward-zero Z", the failing elements of each, and the
 * fp32 sum's mean and greatest error (before the rounding to bf16).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"

#define M	64
#define N	1536
#define K	7168
#define STEP	32	/* k of one FP8 wgmma or mma.sync */
#define BITS	13	/* mantissa bits the accumulator keeps */

static uint64_t
splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* a standard normal float, by Box-Muller as the harness's ks_fp8mm_normal_at */
static float
normal(uint64_t *s)
{
	double u1 = ((splitmix(s) >> 11) + 1) * 1.1102230246251565e-16;
	double u2 = (splitmix(s) >> 11) * 1.1102230246251565e-16;

	return (float)(sqrt(-2 * log(u1)) * cos(2 * M_PI * u2));
}

/* x with BITS mantissa bits: to nearest (even), or toward zero */
static double
narrow(double x, int toward_zero)
{
	int e;
	double f;

	if (x == 0)
		return 0;
	f = ldexp(frexp(x, &e), BITS + 1);
	f = toward_zero ? trunc(f) : nearbyint(f);
	return ldexp(f, e - BITS - 1);
}

static float
bf16(float x)
{
	uint32_t u;

	memcpy(&u, &x, sizeof u);
	u = (u + 0x7fff + ((u >> 16) & 1)) & 0xffff0000u;
	memcpy(&x, &u, sizeof x);
	return x;
}

static int
fails(double got, double want)
{
	double g = bf16((float)got), w = bf16((float)want);

	return !(fabs(g - w) <= 1e-3 + 2e-2 * fabs(w));
}

int
main(int argc, char **argv)
{
	static float a[M][K], b[N][K], as[M][K / 128], bs[N / 128][K / 128];
	uint64_t s;

	for (int arg = 1; arg < argc; arg++) {
		long f32 = 0, f[4] = { 0 };
		double err = 0, worst = 0;

		s = strtoull(argv[arg], NULL, 10);
		for (int i = 0; i < M; i++)
			for (int k = 0; k < K; k++)
				a[i][k] = fp8_mm_reference_decode(fp8_mm_reference_draw(splitmix(&s)));
		for (int j = 0; j < N; j++)
			for (int k = 0; k < K; k++)
				b[j][k] = fp8_mm_reference_decode(fp8_mm_reference_draw(splitmix(&s)));
		for (int i = 0; i < M; i++)
			for (int kb = 0; kb < K / 128; kb++)
				as[i][kb] = normal(&s);
		for (int j = 0; j < N / 128; j++)
			for (int kb = 0; kb < K / 128; kb++)
				bs[j][kb] = normal(&s);
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++) {
				double ref = 0, blk[2] = { 0, 0 }, stp[2] = { 0, 0 };
				float c32 = 0;

				for (int kb = 0; kb < K / 128; kb++) {
					double part = 0, acc[2] = { 0, 0 }, sc = (double)as[i][kb] * bs[j / 128][kb];
					float p32 = 0;

					for (int k0 = kb * 128; k0 < kb * 128 + 128; k0 += STEP) {
						double sum = 0;

						for (int k = k0; k < k0 + STEP; k++) {
							double p = (double)a[i][k] * b[j][k];

							sum += p;
							p32 += (float)p;
						}
						part += sum;
						for (int z = 0; z < 2; z++) {
							acc[z] = narrow(acc[z] + sum, z);
							stp[z] = (float)(stp[z] + (float)(sc * narrow(sum, z)));
						}
					}
					ref += sc * part;
					c32 += (float)sc * p32;
					for (int z = 0; z < 2; z++)
						blk[z] = (float)(blk[z] + (float)(sc * acc[z]));
				}
				err += fabs(c32 - ref);
				if (fabs(c32 - ref) > worst)
					worst = fabs(c32 - ref);
				f32 += fails(c32, ref);
				f[0] += fails(blk[0], ref);
				f[1] += fails(blk[1], ref);
				f[2] += fails(stp[0], ref);
				f[3] += fails(stp[1], ref);
			}
		printf("seed %s: fp32 %ld, block nearest %ld, block toward-zero %ld, step nearest %ld, step toward-zero %ld; "
		    "fp32 error mean %.0e, greatest %.0e\n", argv[arg], f32, f[0], f[1], f[2], f[3], err / (M * N), worst);
	}
	return 0;
}
