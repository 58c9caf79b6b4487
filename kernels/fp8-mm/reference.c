/*
 * reference.c: the host's side of fp8-mm's reference: drawing the
 * inputs and computing single elements of c in double, against which
 * the harness checks its GPU reference and, on a sample, the candidate.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "reference.h"

/* the table and whether it is made */
static struct fp8_mm_draw_table D;
static int D_ready;

/* P(Z <= x) for a standard normal Z */
static double
normal_cdf(double x)
{
	return 0.5 * erfc(-x / sqrt(2.0));
}

/* codes in the order of their values, NaN left out */
static int
codes_by_value(uint8_t *out)
{
	int n = 0, c;

	for (c = 0xff; c > 0x80; c--)		/* -240 ... smallest negative */
		out[n++] = (uint8_t)c;
	for (c = 0; c < 0x80; c++)		/* 0 ... 240 */
		out[n++] = (uint8_t)c;
	return n;
}

/*
 * A value rounds to the code whose interval holds it: from the midpoint
 * with the code below to the midpoint with the code above, and beyond
 * the largest magnitude, 240, it saturates (a normal value never gets
 * there).  Midpoints themselves have probability zero.
 */
static void
draw_init(void)
{
	double v, lo, hi, p = 0;
	int r, g;

	D.ncodes = codes_by_value(D.code_of);
	for (r = 0; r < D.ncodes; r++) {
		v = fp8_mm_reference_decode(D.code_of[r]);
		lo = r == 0 ? -INFINITY :
		    (v + fp8_mm_reference_decode(D.code_of[r - 1])) / 2;
		hi = r == D.ncodes - 1 ? INFINITY :
		    (v + fp8_mm_reference_decode(D.code_of[r + 1])) / 2;
		p += normal_cdf(hi) - normal_cdf(lo);
		/* 2^64 * p, clamped; the last threshold is the maximum */
		D.cdf[r] = r == D.ncodes - 1 || p >= 1 ? UINT64_MAX :
		    (uint64_t)ldexp(p, 64);
	}
	for (g = 0, r = 0; g < 1 << FP8_MM_GUIDE_BITS; g++) {
		while (D.cdf[r] <= (uint64_t)g << (64 - FP8_MM_GUIDE_BITS))
			r++;
		D.guide[g] = r;
	}
	D_ready = 1;
}

const struct fp8_mm_draw_table *
fp8_mm_reference_draw_table(void)
{
	if (!D_ready)
		draw_init();
	return &D;
}

uint8_t
fp8_mm_reference_draw(uint64_t u)
{
	return fp8_mm_reference_draw_with(fp8_mm_reference_draw_table(), u);
}

/*
 * Every code's value, made on first use: a check computes thousands of
 * elements of K products each, and a lookup is several times cheaper than
 * the decode's arithmetic (the same values: the table is the decode's).
 */
static float decoded[FP8_MM_CODES];
static int decoded_ready;

static const float *
decode_table(void)
{
	int v;

	if (!decoded_ready) {
		for (v = 0; v < FP8_MM_CODES; v++)
			decoded[v] = fp8_mm_reference_decode((uint8_t)v);
		decoded_ready = 1;
	}
	return decoded;
}

double
fp8_mm_reference_element(int m, int n, int k, const uint8_t *a,
    const uint8_t *b, const float *a_scale, const float *b_scale, int i,
    int j, double *abs_sum)
{
	const float *value = decode_table();
	int scale_n = fp8_mm_reference_scale_n(n), kb, kk;
	double sum = 0, mag = 0, part, part_mag, s;
	size_t col;

	for (kb = 0; kb < k / FP8_MM_BLOCK_K; kb++) {
		part = part_mag = 0;
		for (kk = kb * FP8_MM_BLOCK_K; kk < (kb + 1) * FP8_MM_BLOCK_K;
		    kk++) {
			col = (size_t)kk;
			double p = (double)value[a[(size_t)i + col * (size_t)m]] *
			    value[b[(size_t)j + col * (size_t)n]];

			part += p;
			part_mag += fabs(p);
		}
		s = (double)a_scale[(size_t)i + (size_t)kb * m] *
		    b_scale[(size_t)(j / FP8_MM_BLOCK_N) +
		    (size_t)kb * scale_n];
		sum += s * part;
		mag += fabs(s) * part_mag;
	}
	*abs_sum = mag;
	return sum;
}
