/*
 * reference.h: the trusted rmsnorm the candidate is compared with, and
 * the bf16 conversions the harness and the reference share (the host
 * holds bf16 values as their 16 bits; see ks_harness.h).
 */
#ifndef RMSNORM_REFERENCE_H
#define RMSNORM_REFERENCE_H

#include <stdint.h>

#include "ks_harness.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the eps of every call: the harness's reference and the worker's call glue (call.cu) */
#define RMSNORM_EPS	1e-6f

/* the shared harness's bf16 conversions, under this problem's names */
static inline float
rmsnorm_bf16_to_f32(uint16_t h)
{
	return ks_bf16_to_f32(h);
}

static inline uint16_t
rmsnorm_f32_to_bf16(float f)
{
	return ks_f32_to_bf16(f);
}

/*
 * y[r][c] = x[r][c] / sqrt(mean over c of x[r][c]^2 + eps) * w[c] for
 * x rows x cols and w cols, both bf16 bits, row major.  The result is
 * left unrounded, as float, so that the candidate's own rounding to
 * bf16 is part of the error the tolerance allows.
 */
void rmsnorm_reference(int rows, int cols, const uint16_t *x,
    const uint16_t *w, float eps, float *y);

#ifdef __cplusplus
}
#endif

#endif
