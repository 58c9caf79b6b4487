/*
 * reference.c: rmsnorm as plainly as it can be written, in double, so
 * that its own rounding is far below what the candidate's bf16 output
 * is allowed.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "reference.h"

/* 1 / sqrt(mean of the squares of x[0..cols) + eps) */
static double
inverse_rms(const uint16_t *x, int cols, float eps)
{
	double ss = 0, v;
	int c;

	for (c = 0; c < cols; c++) {
		v = rmsnorm_bf16_to_f32(x[c]);
		ss += v * v;
	}
	return 1 / sqrt(ss / cols + (double)eps);
}

void
rmsnorm_reference(int rows, int cols, const uint16_t *x, const uint16_t *w,
    float eps, float *y)
{
	const uint16_t *xr;
	double inv;
	float *yr;
	int r, c;

	for (r = 0; r < rows; r++) {
		xr = x + (size_t)r * cols;
		yr = y + (size_t)r * cols;
		inv = inverse_rms(xr, cols, eps);
		for (c = 0; c < cols; c++)
			yr[c] = (float)(rmsnorm_bf16_to_f32(xr[c]) * inv *
			    rmsnorm_bf16_to_f32(w[c]));
	}
}
