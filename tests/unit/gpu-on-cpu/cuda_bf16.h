/*
 * cuda_bf16.h on the CPU: the stand-in (ks_gpu_on_cpu.h) with CUDA's
 * bf16 type and conversions, and the cache-hinted loads
 * and stores a seed uses (on the CPU, plain loads and stores).
 */
#ifndef KS_CUDA_BF16_ON_CPU_H
#define KS_CUDA_BF16_ON_CPU_H

#include "ks_gpu_on_cpu.h"

struct __nv_bfloat16 {
	unsigned short x;
};

static inline float
__bfloat162float(__nv_bfloat16 h)
{
	return __int_as_float((int)((unsigned)h.x << 16));
}

/* to nearest, ties to even, as CUDA's; NaN stays NaN */
static inline __nv_bfloat16
__float2bfloat16(float f)
{
	unsigned u = __float_as_uint(f);
	__nv_bfloat16 h;

	if ((u & 0x7fffffffu) > 0x7f800000u)
		h.x = (unsigned short)((u >> 16) | 0x40u);
	else
		h.x = (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
	return h;
}

static inline float
rsqrtf(float x)
{
	return 1.0f / sqrtf(x);
}

template <typename P>
static inline P
__ldcs(const P *p)
{
	return *p;
}

template <typename P>
static inline P
__ldg(const P *p)
{
	return *p;
}

template <typename P>
static inline void
__stcs(P *p, P v)
{
	*p = v;
}

#endif
