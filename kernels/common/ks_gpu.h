/*
 * ks_gpu.h: what the runner of a GPU problem shares, on every GPU target
 * (cuda, hip-nvidia, hip-amd): checked wrappers of the runtime calls a
 * problem's harness makes, and the device memory it shares with the
 * worker.  The judge's own device work around a call (the cache flush,
 * its kernel after the call, the fingerprints) is declared in ks_judge.h.
 * The implementation, ks_gpu.hip, is HIP: hipcc builds it for AMD, and
 * nvcc for NVIDIA through the project's HIP-on-CUDA headers
 * (common/hip-on-cuda).  This header needs neither runtime, so a CUDA
 * harness and a HIP one both include it.
 *
 * Every runtime error ends the runner: "runner: WHAT: MESSAGE" on stderr
 * and exit status 1.  A fault (an illegal address, a trap) leaves the
 * context unusable, so there is nothing to go on with.
 */
#ifndef KS_GPU_H
#define KS_GPU_H

#include <stddef.h>

#include "ks_harness.h"

#ifdef __cplusplus
extern "C" {
#endif

/* err is a hipError_t or cudaError_t (0 is success); on an error, prints "runner: WHAT: MESSAGE" and exits 1 */
void ks_gpu_check(int err, const char *what);

/*
 * Waits for all work on the device and checks the launches before it:
 * a bad launch configuration is only reported by hipGetLastError, a
 * fault in a kernel only by the synchronization.
 */
void ks_gpu_sync(const char *what);

/* bytes of device memory, or NULL when the device has too little */
void *ks_gpu_malloc(size_t bytes, const char *what);
void ks_gpu_free(void *dev);

/* synchronous copies; ks_gpu_download first waits for the device */
void ks_gpu_upload(void *dev, const void *host, size_t bytes,
    const char *what);
void ks_gpu_download(void *host, const void *dev, size_t bytes,
    const char *what);

/* every byte of dev[0..bytes) set to value, in stream order */
void ks_gpu_fill(void *dev, int value, size_t bytes, const char *what);

/*
 * The device memory of the kernel's arguments (ks_judge.h):
 * hipMalloc'd, and opened by the worker by its IPC handle.  NULL when the
 * device has too little.  ks_gpu_shared_free gives it back once the
 * worker has closed it.
 */
void *ks_gpu_shared_alloc(size_t bytes, const char *what);
void ks_gpu_shared_free(void *dev);

/*
 * The judge's runtime up, before any code of the candidate runs: 0, or -1
 * with why the device failed (ks_harness.c's verdict then says
 * device_failed); and with its cache flush, before its worker starts
 * (ks_judge.c calls it).
 */
int ks_gpu_judge_device_ok(char *why, size_t n);
void ks_gpu_judge_start(void);

/* the name of the current device, "NVIDIA H200" say */
const char *ks_gpu_device_name(void);

#ifdef __cplusplus
}
#endif

#endif
