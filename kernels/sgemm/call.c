/*
 * call.c: the sgemm problem's call glue, in the worker (ks_judge.h): the
 * judge's arguments (A, B, C, as harness.c's args gives them) to the
 * candidate's entry point.
 */
#include "ks_judge.h"

void sgemm(int M, int N, int K, const float *A, const float *B, float *C);

void
ks_call(const int *dims, void *const *args)
{
	sgemm(dims[0], dims[1], dims[2], (const float *)args[0], (const float *)args[1], (float *)args[2]);
}
