/*
 * hip/hip_bf16.h for target hip-nvidia: HIP's bfloat16 is CUDA's
 * __nv_bfloat16, with the same conversion functions (__float2bfloat16,
 * __bfloat162float, ...).
 */
#ifndef KS_HIP_ON_CUDA_BF16_H
#define KS_HIP_ON_CUDA_BF16_H

#include "hip_runtime.h"

typedef __nv_bfloat16	__hip_bfloat16;
typedef __nv_bfloat162	__hip_bfloat162;

#endif
