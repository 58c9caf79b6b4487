/*
 * hip/hip_fp16.h for target hip-nvidia: __half and __half2 are the same
 * names in HIP and CUDA.
 */
#ifndef KS_HIP_ON_CUDA_FP16_H
#define KS_HIP_ON_CUDA_FP16_H

#include "hip_runtime.h"

#endif
