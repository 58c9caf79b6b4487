/*
 * hip/hip_runtime_api.h for target hip-nvidia: the HIP runtime's types,
 * constants and calls as the CUDA runtime's (see hip_runtime.h).  Host
 * code that only calls the runtime may include this alone.
 */
#ifndef KS_HIP_ON_CUDA_RUNTIME_API_H
#define KS_HIP_ON_CUDA_RUNTIME_API_H

#include <cuda_runtime_api.h>
#include <cuda_profiler_api.h>

/* what HIP code tests to tell the platforms apart */
#ifndef __HIP_PLATFORM_NVIDIA__
#define __HIP_PLATFORM_NVIDIA__	1
#endif
#ifndef __HIP_PLATFORM_NVCC__
#define __HIP_PLATFORM_NVCC__	1	/* the name before ROCm 5 */
#endif
/* hipcc defines it in the device pass; nvcc's device pass defines __CUDA_ARCH__ */
#if defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#define __HIP_DEVICE_COMPILE__	1
#endif

/* ---- types ---- */
typedef cudaError_t		hipError_t;
typedef cudaStream_t		hipStream_t;
typedef cudaEvent_t		hipEvent_t;
typedef cudaDeviceProp		hipDeviceProp_t;
typedef enum cudaDeviceAttr	hipDeviceAttribute_t;
typedef enum cudaMemcpyKind	hipMemcpyKind;
typedef enum cudaFuncAttribute	hipFuncAttribute;
typedef cudaIpcMemHandle_t	hipIpcMemHandle_t;

/* ---- errors ---- */
#define hipSuccess			cudaSuccess
#define hipErrorInvalidValue		cudaErrorInvalidValue
#define hipErrorOutOfMemory		cudaErrorMemoryAllocation
#define hipErrorMemoryAllocation	cudaErrorMemoryAllocation
#define hipErrorNotReady		cudaErrorNotReady
#define hipErrorInvalidDevice		cudaErrorInvalidDevice
#define hipErrorNoDevice		cudaErrorNoDevice
#define hipErrorLaunchFailure		cudaErrorLaunchFailure
#define hipGetLastError			cudaGetLastError
#define hipPeekAtLastError		cudaPeekAtLastError
#define hipGetErrorString		cudaGetErrorString
#define hipGetErrorName			cudaGetErrorName

/* ---- devices ---- */
#define hipGetDevice			cudaGetDevice
#define hipSetDevice			cudaSetDevice
#define hipGetDeviceCount		cudaGetDeviceCount
#define hipGetDeviceProperties		cudaGetDeviceProperties
#define hipDeviceGetAttribute		cudaDeviceGetAttribute
#define hipDeviceSynchronize		cudaDeviceSynchronize
#define hipDeviceReset			cudaDeviceReset
#define hipSetDeviceFlags		cudaSetDeviceFlags
#define hipGetDeviceFlags		cudaGetDeviceFlags
#define hipDeviceScheduleAuto		cudaDeviceScheduleAuto
#define hipDeviceScheduleSpin		cudaDeviceScheduleSpin
#define hipDeviceScheduleYield		cudaDeviceScheduleYield
#define hipDeviceScheduleBlockingSync	cudaDeviceScheduleBlockingSync
#define hipDriverGetVersion		cudaDriverGetVersion
#define hipRuntimeGetVersion		cudaRuntimeGetVersion

#define hipDeviceAttributeL2CacheSize		cudaDevAttrL2CacheSize
#define hipDeviceAttributeMultiprocessorCount	cudaDevAttrMultiProcessorCount
#define hipDeviceAttributeWarpSize		cudaDevAttrWarpSize
#define hipDeviceAttributeMaxThreadsPerBlock	cudaDevAttrMaxThreadsPerBlock
#define hipDeviceAttributeMaxSharedMemoryPerBlock cudaDevAttrMaxSharedMemoryPerBlock
#define hipDeviceAttributeSharedMemPerBlockOptin cudaDevAttrMaxSharedMemoryPerBlockOptin
#define hipDeviceAttributeMaxRegistersPerBlock	cudaDevAttrMaxRegistersPerBlock
#define hipDeviceAttributeComputeCapabilityMajor cudaDevAttrComputeCapabilityMajor
#define hipDeviceAttributeComputeCapabilityMinor cudaDevAttrComputeCapabilityMinor
#define hipDeviceAttributeMemoryBusWidth	cudaDevAttrGlobalMemoryBusWidth

/* ---- memory ---- */
#define hipMalloc			cudaMalloc
#define hipMallocManaged		cudaMallocManaged
#define hipFree				cudaFree
#define hipHostMalloc			cudaHostAlloc
#define hipHostMallocDefault		cudaHostAllocDefault
#define hipHostMallocPortable		cudaHostAllocPortable
#define hipHostMallocMapped		cudaHostAllocMapped
#define hipHostFree			cudaFreeHost
#define hipMemGetInfo			cudaMemGetInfo
#define hipMemcpy			cudaMemcpy
#define hipMemcpyAsync			cudaMemcpyAsync
#define hipMemcpyToSymbol		cudaMemcpyToSymbol
#define hipMemcpyFromSymbol		cudaMemcpyFromSymbol
#define hipMemset			cudaMemset
#define hipMemsetAsync			cudaMemsetAsync
#define hipMemcpyHostToDevice		cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost		cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice		cudaMemcpyDeviceToDevice
#define hipMemcpyHostToHost		cudaMemcpyHostToHost
#define hipMemcpyDefault		cudaMemcpyDefault

/* ---- streams and events ---- */
#define hipStreamCreate			cudaStreamCreate
#define hipStreamCreateWithFlags	cudaStreamCreateWithFlags
#define hipStreamDestroy		cudaStreamDestroy
#define hipStreamSynchronize		cudaStreamSynchronize
#define hipStreamWaitEvent		cudaStreamWaitEvent
#define hipStreamQuery			cudaStreamQuery
#define hipStreamDefault		cudaStreamDefault
#define hipStreamNonBlocking		cudaStreamNonBlocking
#define hipStreamPerThread		cudaStreamPerThread
#define hipEventCreate			cudaEventCreate
#define hipEventCreateWithFlags		cudaEventCreateWithFlags
#define hipEventDestroy			cudaEventDestroy
#define hipEventRecord			cudaEventRecord
#define hipEventSynchronize		cudaEventSynchronize
#define hipEventQuery			cudaEventQuery
#define hipEventElapsedTime		cudaEventElapsedTime
#define hipEventDefault			cudaEventDefault
#define hipEventBlockingSync		cudaEventBlockingSync
#define hipEventDisableTiming		cudaEventDisableTiming

/* ---- functions ---- */
#define hipFuncSetAttribute		cudaFuncSetAttribute
#define hipFuncAttributeMaxDynamicSharedMemorySize \
	cudaFuncAttributeMaxDynamicSharedMemorySize
#define hipOccupancyMaxActiveBlocksPerMultiprocessor \
	cudaOccupancyMaxActiveBlocksPerMultiprocessor

/* ---- device memory shared between processes (a judge and its worker) ---- */
#define hipIpcGetMemHandle		cudaIpcGetMemHandle
#define hipIpcOpenMemHandle		cudaIpcOpenMemHandle
#define hipIpcCloseMemHandle		cudaIpcCloseMemHandle
#define hipIpcMemLazyEnablePeerAccess	cudaIpcMemLazyEnablePeerAccess

/* ---- the profiler's capture range (ncu --profile-from-start off) ---- */
#define hipProfilerStart		cudaProfilerStart
#define hipProfilerStop			cudaProfilerStop

#endif
