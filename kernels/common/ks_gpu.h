/*
 * ks_gpu.h: what the runner of a GPU problem shares, on every GPU target
 * (cuda, hip-nvidia, hip-amd): a GPU timer and checked wrappers of the
 * runtime calls a problem's harness makes.  The implementation,
 * ks_gpu.hip, is HIP: hipcc builds it for AMD, and nvcc for NVIDIA through
 * the project's HIP-on-CUDA headers (common/hip-on-cuda).  This header
 * needs neither runtime, so a CUDA harness and a HIP one both include it.
 *
 * Every runtime error ends the runner: "runner: WHAT: MESSAGE" on stderr
 * and exit status 1.  A kernel that faults (an illegal address, a
 * trap) leaves the context unusable, so there is nothing to go on
 * with; exiting at once also keeps a broken candidate from hanging the
 * runner in a later call.
 */
#ifndef KS_GPU_H
#define KS_GPU_H

#include <stddef.h>

#include "ks_harness.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Times one call on the GPU: queues a flush of the caches, a start
 * event, the call and an end event without waiting in between, then
 * waits for the whole device and records a third event (work past the
 * end event counts).  The span of an empty kernel, measured once, is
 * subtracted.  With ks_timer_idle_start (ks_harness.h) the device is
 * idle at the start event instead.  Its description, the "timer" of the
 * JSON, is completed on first use with the device, its L2 and those
 * numbers (ks_gpu.hip says it all).
 */
extern const struct ks_timer ks_gpu_timer;

/*
 * The same timing as ks_gpu_timer.time_call, and the text its
 * description points to, for a problem that wraps the timer in one of
 * its own (to reset the output before each call, say).
 */
double ks_gpu_time_call(void (*run)(void *), void *state);
extern char ks_gpu_timer_text[];

/*
 * ks_gpu_timer's prepare and verify (ks_harness.h), for a problem's own
 * timer too: the floor is measured and the device's scheduling flags read
 * before any candidate code runs; after the timing, the flags must be the
 * same (they are checked after every timed call too) and the floor
 * measured again must not have moved beyond its noise.
 */
void ks_gpu_timer_prepare(void);
const char *ks_gpu_timer_verify(void);

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
 * A judge runner's device memory for the kernel's arguments (ks_judge.h):
 * hipMalloc'd, and opened by the worker by its IPC handle.  NULL when the
 * device has too little.  ks_gpu_shared_free gives it back once the
 * worker has closed it.
 */
void *ks_gpu_shared_alloc(size_t bytes, const char *what);
void ks_gpu_shared_free(void *dev);

/* a judge's runtime brought up before its worker starts (ks_judge.c calls it) */
void ks_gpu_judge_start(void);

/* the name of the current device, "NVIDIA H200" say */
const char *ks_gpu_device_name(void);

#ifdef __cplusplus
}
#endif

#endif
