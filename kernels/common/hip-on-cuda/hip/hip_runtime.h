/*
 * hip/hip_runtime.h for target hip-nvidia: HIP source compiled by nvcc.
 *
 * kernel-scientist's own HIP-on-CUDA layer, because the HIP headers for
 * NVIDIA that Debian ships do not compile with CUDA 13.  It covers what
 * kernels and harnesses of this project use: the runtime calls, types and
 * constants, the launch syntax, thread indices, warp shuffles and votes.
 * Each HIP name is the CUDA one it stands for; where HIP's meaning differs
 * (the shuffles and votes take no lane mask, a ballot is 64 bits), the
 * definition says so.
 *
 * AMD-only intrinsics (MFMA, DPP, LDS permutes, s_waitcnt...) have no
 * NVIDIA counterpart: using one stops the build with a static assertion
 * that names it.  Guard such code with #ifdef __HIP_PLATFORM_AMD__.
 *
 * The CUDA headers come first, all of them: the macros below would
 * otherwise rewrite names inside them.
 */
#ifndef KS_HIP_ON_CUDA_RUNTIME_H
#define KS_HIP_ON_CUDA_RUNTIME_H

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
/*
 * libcu++ declares a struct __any whose constructor is __any(...), which
 * the __any macro below would rewrite: read first, its header guard keeps
 * it whole when <cuda/barrier>, <cuda/pipeline>, <cooperative_groups.h> or
 * another libcu++ header is included after this one.
 */
#if defined(__cplusplus) && __has_include(<cuda/std/__functional/invoke.h>)
#include <cuda/std/__functional/invoke.h>
#endif

#include "hip_runtime_api.h"

/* ---- kernels: qualifiers, launch, indices ---- */

#define HIP_KERNEL_NAME(...)		__VA_ARGS__
#define HIP_SYMBOL(sym)			sym
#define HIP_DYNAMIC_SHARED(type, var)	extern __shared__ type var[];
#define HIP_DYNAMIC_SHARED_ATTRIBUTE

#define hipLaunchKernelGGL(kernel, grid, block, shmem, stream, ...) \
	kernel<<<(grid), (block), (shmem), (stream)>>>(__VA_ARGS__)

#define hipThreadIdx_x	threadIdx.x
#define hipThreadIdx_y	threadIdx.y
#define hipThreadIdx_z	threadIdx.z
#define hipBlockIdx_x	blockIdx.x
#define hipBlockIdx_y	blockIdx.y
#define hipBlockIdx_z	blockIdx.z
#define hipBlockDim_x	blockDim.x
#define hipBlockDim_y	blockDim.y
#define hipBlockDim_z	blockDim.z
#define hipGridDim_x	gridDim.x
#define hipGridDim_y	gridDim.y
#define hipGridDim_z	gridDim.z

/*
 * ---- warp shuffles and votes ----
 * HIP's take no lane mask and act over the lanes that are active; the CUDA
 * *_sync forms are given exactly those lanes.  HIP's ballot is 64 bits
 * wide (a wave64 on AMD); here the upper 32 are zero.
 */
#ifdef __CUDACC__
#define __shfl(...)		__shfl_sync(__activemask(), __VA_ARGS__)
#define __shfl_up(...)		__shfl_up_sync(__activemask(), __VA_ARGS__)
#define __shfl_down(...)	__shfl_down_sync(__activemask(), __VA_ARGS__)
#define __shfl_xor(...)		__shfl_xor_sync(__activemask(), __VA_ARGS__)
#define __ballot(pred)	((unsigned long long)__ballot_sync(__activemask(), (pred)))
#define __any(pred)		__any_sync(__activemask(), (pred))
#define __all(pred)		__all_sync(__activemask(), (pred))

static __device__ __forceinline__ unsigned
__lane_id(void)
{
	unsigned lane;

	asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
	return lane;
}
#endif

/*
 * ---- AMD-only intrinsics: a clear error instead of a wrong program ----
 * ks_hip_amd_only<Name>() fails to instantiate, and nvcc prints the
 * assertion's text with Name, which spells the intrinsic that was used.
 */
template <class Name>
struct ks_hip_never {
	enum { value = 0 };
};

template <class Name>
__host__ __device__ inline int
ks_hip_amd_only(void)
{
	static_assert(ks_hip_never<Name>::value,
	    "hip-nvidia: this AMD-only intrinsic (named in the instantiation "
	    "below) has no NVIDIA equivalent; guard it with "
	    "#ifdef __HIP_PLATFORM_AMD__ or use portable code");
	return 0;
}

#define KS_HIP_AMD_ONLY(name) \
	ks_hip_amd_only<struct name##_is_amd_only_and_has_no_nvidia_equivalent>()

#define __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(...)	KS_HIP_AMD_ONLY(__builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8)
#define __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(...)	KS_HIP_AMD_ONLY(__builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8)
#define __builtin_amdgcn_mfma_f32_32x32x16_bf8_bf8(...)	KS_HIP_AMD_ONLY(__builtin_amdgcn_mfma_f32_32x32x16_bf8_bf8)
#define __builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8(...)	KS_HIP_AMD_ONLY(__builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8)
#define __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(...)	KS_HIP_AMD_ONLY(__builtin_amdgcn_mfma_f32_32x32x8bf16_1k)
#define __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(...)	KS_HIP_AMD_ONLY(__builtin_amdgcn_mfma_f32_16x16x16bf16_1k)
#define __builtin_amdgcn_mfma_f32_32x32x8f16(...)	KS_HIP_AMD_ONLY(__builtin_amdgcn_mfma_f32_32x32x8f16)
#define __builtin_amdgcn_mfma_f32_16x16x16f16(...)	KS_HIP_AMD_ONLY(__builtin_amdgcn_mfma_f32_16x16x16f16)
#define __builtin_amdgcn_mfma_f32_32x32x2f32(...)	KS_HIP_AMD_ONLY(__builtin_amdgcn_mfma_f32_32x32x2f32)
#define __builtin_amdgcn_mfma_f32_16x16x4f32(...)	KS_HIP_AMD_ONLY(__builtin_amdgcn_mfma_f32_16x16x4f32)
#define __builtin_amdgcn_cvt_pk_f32_fp8(...)	KS_HIP_AMD_ONLY(__builtin_amdgcn_cvt_pk_f32_fp8)
#define __builtin_amdgcn_cvt_f32_fp8(...)	KS_HIP_AMD_ONLY(__builtin_amdgcn_cvt_f32_fp8)
#define __builtin_amdgcn_cvt_pk_fp8_f32(...)	KS_HIP_AMD_ONLY(__builtin_amdgcn_cvt_pk_fp8_f32)
#define __builtin_amdgcn_s_waitcnt(...)		KS_HIP_AMD_ONLY(__builtin_amdgcn_s_waitcnt)
#define __builtin_amdgcn_s_barrier(...)		KS_HIP_AMD_ONLY(__builtin_amdgcn_s_barrier)
#define __builtin_amdgcn_s_setprio(...)		KS_HIP_AMD_ONLY(__builtin_amdgcn_s_setprio)
#define __builtin_amdgcn_s_sleep(...)		KS_HIP_AMD_ONLY(__builtin_amdgcn_s_sleep)
#define __builtin_amdgcn_sched_barrier(...)	KS_HIP_AMD_ONLY(__builtin_amdgcn_sched_barrier)
#define __builtin_amdgcn_sched_group_barrier(...) KS_HIP_AMD_ONLY(__builtin_amdgcn_sched_group_barrier)
#define __builtin_amdgcn_iglp_opt(...)		KS_HIP_AMD_ONLY(__builtin_amdgcn_iglp_opt)
#define __builtin_amdgcn_wave_barrier(...)	KS_HIP_AMD_ONLY(__builtin_amdgcn_wave_barrier)
#define __builtin_amdgcn_readfirstlane(...)	KS_HIP_AMD_ONLY(__builtin_amdgcn_readfirstlane)
#define __builtin_amdgcn_readlane(...)		KS_HIP_AMD_ONLY(__builtin_amdgcn_readlane)
#define __builtin_amdgcn_ds_bpermute(...)	KS_HIP_AMD_ONLY(__builtin_amdgcn_ds_bpermute)
#define __builtin_amdgcn_ds_permute(...)	KS_HIP_AMD_ONLY(__builtin_amdgcn_ds_permute)
#define __builtin_amdgcn_ds_swizzle(...)	KS_HIP_AMD_ONLY(__builtin_amdgcn_ds_swizzle)
#define __builtin_amdgcn_mov_dpp(...)		KS_HIP_AMD_ONLY(__builtin_amdgcn_mov_dpp)
#define __builtin_amdgcn_update_dpp(...)	KS_HIP_AMD_ONLY(__builtin_amdgcn_update_dpp)
#define __builtin_amdgcn_mbcnt_lo(...)		KS_HIP_AMD_ONLY(__builtin_amdgcn_mbcnt_lo)
#define __builtin_amdgcn_mbcnt_hi(...)		KS_HIP_AMD_ONLY(__builtin_amdgcn_mbcnt_hi)
#define __builtin_amdgcn_raw_buffer_load_b32(...) KS_HIP_AMD_ONLY(__builtin_amdgcn_raw_buffer_load_b32)
#define __builtin_amdgcn_global_load_lds(...)	KS_HIP_AMD_ONLY(__builtin_amdgcn_global_load_lds)

#endif
