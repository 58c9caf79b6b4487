/*
 * call.cu: the rmsnorm problem's call glue, in the worker (ks_judge.h):
 * the judge's arguments (x, w, y, as harness.cu's args gives them,
 * device pointers the worker opened) to the candidate's entry point.
 */
#include <cuda_bf16.h>

#include "ks_judge.h"
#include "reference.h"

/* the candidate's entry point: device pointers, C++ linkage */
void rmsnorm(int rows, int cols, const __nv_bfloat16 *x, const __nv_bfloat16 *w, __nv_bfloat16 *y, float eps);

void
ks_call(const int *dims, void *const *args)
{
	rmsnorm(dims[0], dims[1], (const __nv_bfloat16 *)args[0], (const __nv_bfloat16 *)args[1],
	    (__nv_bfloat16 *)args[2], RMSNORM_EPS);
}
