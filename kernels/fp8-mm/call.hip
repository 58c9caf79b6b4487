/*
 * call.hip: the fp8-mm problem's call glue, in the worker (ks_judge.h):
 * the judge's arguments (a, b, a_scale, b_scale, c, as harness.hip's
 * args gives them, device pointers the worker opened) to the
 * candidate's entry point.  Host code only.
 */
#include <stdint.h>

#include "ks_judge.h"

#ifndef __HIP_DEVICE_COMPILE__
/* the candidate's entry point: device pointers, C++ linkage */
void fp8_mm(int m, int n, int k, const uint8_t *a, const uint8_t *b, const float *a_scale, const float *b_scale,
    uint16_t *c);

void
ks_call(const int *dims, void *const *args)
{
	fp8_mm(dims[0], dims[1], dims[2], (const uint8_t *)args[0], (const uint8_t *)args[1],
	    (const float *)args[2], (const float *)args[3], (uint16_t *)args[4]);
}
#endif
