/*
 * hip/hip_runtime.h on the CPU: the stand-in (../ks_gpu_on_cpu.h) and the
 * few HIP calls a seed makes, on host memory.
 */
#ifndef KS_HIP_ON_CPU_H
#define KS_HIP_ON_CPU_H

#include "../ks_gpu_on_cpu.h"

typedef int hipError_t;
#define hipSuccess 0

static inline hipError_t
hipMalloc(void **p, size_t bytes)
{
	return (*p = malloc(bytes)) ? hipSuccess : 1;
}

static inline hipError_t
hipFree(void *p)
{
	free(p);
	return hipSuccess;
}

static inline hipError_t
hipMemsetAsync(void *p, int v, size_t bytes, int stream)
{
	(void)stream;
	memset(p, v, bytes);
	return hipSuccess;
}

#endif
