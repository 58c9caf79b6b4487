/*
 * reference.h: what the fp8-mm harness computes on the host: the exact
 * value of an e4m3fnuz byte, the draw of such bytes from a standard
 * normal distribution, and elements of the product in double.
 *
 * e4m3fnuz (MI300's FP8): 1 sign bit, 4 exponent bits with bias 8, 3
 * mantissa bits; no infinities and no negative zero: 0x80 is the only
 * NaN.  Exponent field 0 is subnormal: mantissa * 2^-10.
 */
#ifndef FP8_MM_REFERENCE_H
#define FP8_MM_REFERENCE_H

#include <math.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FP8_MM_NAN	0x80	/* the only NaN of e4m3fnuz */

/* the decode serves the host and the harness's GPU reference alike */
#if defined(__HIPCC__) || defined(__CUDACC__)
#define FP8_MM_HOST_DEVICE	__host__ __device__
#else
#define FP8_MM_HOST_DEVICE
#endif
#define FP8_MM_BLOCK_K	128	/* K-block of one a_scale, one b_scale */
#define FP8_MM_BLOCK_N	128	/* N-block of one b_scale */

/* exact: every e4m3fnuz value is a float */
static inline FP8_MM_HOST_DEVICE float
fp8_mm_reference_decode(uint8_t v)
{
	int e = (v >> 3) & 15, m = v & 7;
	float mag;

	if (v == FP8_MM_NAN)
		return NAN;
	/* (1 + m/8) * 2^(e-8) = (8 + m) * 2^(e-11); subnormal m * 2^-10 */
	mag = e ? ldexpf((float)(8 + m), e - 11) : ldexpf((float)m, -10);
	return (v & 0x80) ? -mag : mag;
}

/* the rows of b_scale: one per 128 columns of c, the last maybe partial */
static inline int
fp8_mm_reference_scale_n(int n)
{
	return (n + FP8_MM_BLOCK_N - 1) / FP8_MM_BLOCK_N;
}

#define FP8_MM_CODES		256
#define FP8_MM_GUIDE_BITS	12	/* the guide table's index: top bits of u */

/*
 * The table that turns 64 uniform random bits into an e4m3fnuz byte:
 * cdf[r], 2^64 * P(a normal value rounds to a code of rank <= r in the
 * order of value), over the 255 codes that are numbers, as 64-bit
 * thresholds; code_of[r], the code of rank r; guide[g], the first rank
 * whose threshold exceeds g << (64 - GUIDE_BITS), where the search
 * starts.  Plain data, so that a GPU can draw with a copy of it.
 */
struct fp8_mm_draw_table {
	uint64_t cdf[FP8_MM_CODES];
	uint8_t code_of[FP8_MM_CODES];
	int ncodes;
	int guide[1 << FP8_MM_GUIDE_BITS];
};

/* the table, made on first use */
const struct fp8_mm_draw_table *fp8_mm_reference_draw_table(void);

/* the byte of u by table t: host and device alike */
static inline FP8_MM_HOST_DEVICE uint8_t
fp8_mm_reference_draw_with(const struct fp8_mm_draw_table *t, uint64_t u)
{
	int r;

	/* the first rank whose threshold exceeds u */
	for (r = t->guide[u >> (64 - FP8_MM_GUIDE_BITS)];
	    t->cdf[r] <= u && r < t->ncodes - 1; r++)
		;
	return t->code_of[r];
}

/*
 * A byte with the distribution of a standard normal value rounded to
 * the nearest e4m3fnuz (ties to even), from u, 64 uniform random bits.
 * Same distribution as torch.randn(...).to(torch.float8_e4m3fnuz), one
 * random number per byte instead of a normal deviate and a rounding.
 */
uint8_t fp8_mm_reference_draw(uint64_t u);

/*
 * c[i][j] of the product in double, from the inputs in the harness's
 * layouts (a: m x k column-major, b: n x k column-major, a_scale:
 * m x k/128 column-major, b_scale: ceil(n/128) x k/128 column-major).
 * *abs_sum gets the sum of the magnitudes of the terms, which bounds
 * the rounding error of any order of summation.
 */
double fp8_mm_reference_element(int m, int n, int k, const uint8_t *a,
    const uint8_t *b, const float *a_scale, const float *b_scale, int i,
    int j, double *abs_sum);

#ifdef __cplusplus
}
#endif

#endif
