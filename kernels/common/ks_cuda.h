/*
 * ks_cuda.h: what the runner of a CUDA problem shares: a GPU timer and
 * checked wrappers of the CUDA runtime calls a problem's harness makes.
 *
 * Every CUDA error ends the runner: "runner: WHAT: MESSAGE" on stderr
 * and exit status 1.  A kernel that faults (an illegal address, a
 * trap) leaves the context unusable, so there is nothing to go on
 * with; exiting at once also keeps a broken candidate from hanging the
 * runner in a later call.
 */
#ifndef KS_CUDA_H
#define KS_CUDA_H

#include <stddef.h>

#include <cuda_runtime.h>

#include "ks_harness.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Times one call on the GPU: flushes the L2, waits for the whole
 * device, records a start event, calls run(state), waits for the whole
 * device again and records the end event.  The host's share of that
 * (launch, wake-up, event record), measured once with an empty kernel,
 * is subtracted.  Its description, the "timer" of the JSON, is
 * completed on first use with the device, its L2 and those numbers.
 */
extern const struct ks_timer ks_cuda_timer;

/*
 * The same timing as ks_cuda_timer.time_call, and the text its
 * description points to, for a problem that wraps the timer in one of
 * its own (to reset the output before each call, say).
 */
double ks_cuda_time_call(void (*run)(void *), void *state);
extern char ks_cuda_timer_text[];

/* on an error, prints "runner: WHAT: MESSAGE" and exits 1 */
void ks_cuda_check(cudaError_t err, const char *what);

/*
 * Waits for all work on the device and checks the launches before it:
 * a bad launch configuration is only reported by cudaGetLastError, a
 * fault in a kernel only by the synchronization.
 */
void ks_cuda_sync(const char *what);

/* bytes of device memory, or NULL when the device has too little */
void *ks_cuda_malloc(size_t bytes, const char *what);
void ks_cuda_free(void *dev);

/* synchronous copies; ks_cuda_download first waits for the device */
void ks_cuda_upload(void *dev, const void *host, size_t bytes,
    const char *what);
void ks_cuda_download(void *host, const void *dev, size_t bytes,
    const char *what);

/* every byte of dev[0..bytes) set to value, in stream order */
void ks_cuda_fill(void *dev, int value, size_t bytes, const char *what);

/* the name of the current device, "NVIDIA H200" say */
const char *ks_cuda_device_name(void);

#ifdef __cplusplus
}
#endif

#endif
