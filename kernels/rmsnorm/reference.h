/*
 * reference.h: the trusted rmsnorm the candidate is compared with, and
 * the bf16 conversions the harness and the reference share.
 *
 * A bf16 is the top 16 bits of an IEEE binary32: sign, the 8 bits of
 * exponent and 7 of the 23 bits of mantissa.  The host side holds bf16
 * values as those 16 bits, so that C needs no bf16 type.
 */
#ifndef RMSNORM_REFERENCE_H
#define RMSNORM_REFERENCE_H

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* exact: every bf16 is a float */
static inline float
rmsnorm_bf16_to_f32(uint16_t h)
{
	uint32_t bits = (uint32_t)h << 16;
	float f;

	memcpy(&f, &bits, sizeof(f));
	return f;
}

/*
 * Rounds to the nearest bf16, ties to even, as __float2bfloat16 does.
 * Adding 0x7fff plus the lowest kept bit carries into the kept bits
 * exactly when the dropped half is above one half, or one half with
 * the kept part odd; a carry out of the mantissa rounds up the
 * exponent, up to infinity, as it should.  NaN stays NaN: rounding
 * could carry its mantissa into zero, which would make it infinity.
 */
static inline uint16_t
rmsnorm_f32_to_bf16(float f)
{
	uint32_t bits;

	memcpy(&bits, &f, sizeof(bits));
	if ((bits & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((bits >> 16) | 0x0040u);	/* quiet NaN */
	bits += 0x7fffu + ((bits >> 16) & 1u);
	return (uint16_t)(bits >> 16);
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
