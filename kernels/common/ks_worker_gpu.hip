/*
 * ks_worker_gpu.hip: the device side of a GPU worker (ks_judge.h), in
 * HIP for every GPU target (nvcc reads it through common/hip-on-cuda).
 *
 * Before the filter: the runtime is brought up with the host spinning on
 * the device (a blocking wait would put the wake-up of a sleeping thread
 * into every call's time as the judge sees it), its threads started and
 * its device files opened, the events made and one whole timed call done,
 * so that nothing the runtime does only once happens under the filter.
 *
 * A call, timed by the worker's events, all queued on the null stream
 * without the host waiting in between:
 *
 *	pad kernel	spins PAD_NS on the device's clock and touches no
 *			memory: the host queues what follows while it runs,
 *			so no host latency falls between the events, and the
 *			judge's flush of the caches stays a flush
 *	start event
 *	the call	the candidate's launches
 *	end event	waited for, spinning
 *
 * None of this is trusted: the candidate can change all of it.  The judge
 * takes the time only as far as its own interval bears it out.
 */
#include <stdio.h>
#include <string.h>

#include <hip/hip_runtime.h>

#include "ks_judge.h"

#define PAD_NS	20000ull	/* the pad's spin */
#define TAIL_NS	10000ull	/* the tail's */

static hipEvent_t ev_start, ev_end;
static int tail_blocks, tail_smem;

/* the device's clock in ns: NVIDIA's global timer; AMD's real-time counter at the fixed 100 MHz of gfx9 */
static __device__ unsigned long long
ks_worker_clock_ns(void)
{
#ifdef __HIP_PLATFORM_AMD__
	return __builtin_amdgcn_s_memrealtime() * 10;
#else
	unsigned long long t;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
#endif
}

/* spins for ns on the device's clock; writes nothing (not static: nvcc's device pass would call it unused) */
__global__ void
ks_worker_pad(unsigned long long ns)
{
	unsigned long long t0 = ks_worker_clock_ns();

	while (ks_worker_clock_ns() - t0 < ns)
		;
}

__global__ void
ks_worker_empty(void)
{
}

/*
 * After the end event, on every call, empty or not: every SM busy for
 * a while with the most shared memory a block may have, so that the
 * device leaves this process's context from the same state whatever the
 * kernel was (the switch's cost varies with it; tried on the H200).
 */
__global__ void
ks_worker_tail(unsigned long long ns)
{
	extern __shared__ unsigned ks_worker_tail_smem[];
	unsigned long long t0 = ks_worker_clock_ns();

	ks_worker_tail_smem[threadIdx.x] = threadIdx.x;
	while (ks_worker_clock_ns() - t0 < ns)
		;
}

static const char *
failed(const char *what, hipError_t err)
{
	static char why[160];

	snprintf(why, sizeof why, "%s: %s", what, hipGetErrorString(err));
	return why;
}

double
ks_worker_device_time(void (*call)(const struct ks_msg *), const struct ks_msg *m)
{
	float ms = 0;

	ks_worker_pad<<<1, 1, 0, 0>>>(PAD_NS);
	(void)hipEventRecord(ev_start, 0);
	if (call)
		call(m);
	else
		ks_worker_empty<<<1, 1, 0, 0>>>();
	(void)hipEventRecord(ev_end, 0);
	ks_worker_tail<<<tail_blocks, 256, tail_smem, 0>>>(TAIL_NS);
	/* a launch that failed, or a fault: the worker's time says so, the judge's check the rest */
	if (hipEventSynchronize(ev_end) != hipSuccess || hipEventElapsedTime(&ms, ev_start, ev_end) != hipSuccess) {
		fprintf(stderr, "worker: the call failed on the device: %s\n", hipGetErrorString(hipGetLastError()));
		exit(1);
	}
	return ms * 1e-3;
}

const char *
ks_worker_device_start(void)
{
	hipError_t err;
	int dev, sms, smem;

	if ((err = hipSetDeviceFlags(hipDeviceScheduleSpin)) != hipSuccess)
		return failed("hipSetDeviceFlags", err);
	if ((err = hipFree(0)) != hipSuccess)
		return failed("the device's runtime", err);
	if ((err = hipEventCreate(&ev_start)) != hipSuccess || (err = hipEventCreate(&ev_end)) != hipSuccess)
		return failed("hipEventCreate", err);
	if ((err = hipGetDevice(&dev)) != hipSuccess ||
	    (err = hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev)) != hipSuccess ||
	    (err = hipDeviceGetAttribute(&smem, hipDeviceAttributeMaxSharedMemoryPerBlock, dev)) != hipSuccess)
		return failed("the device's attributes", err);
	tail_blocks = sms;
	tail_smem = smem;
	/* one call's whole path, the pad and the empty kernel loaded */
	(void)ks_worker_device_time(NULL, NULL);
	if ((err = hipDeviceSynchronize()) != hipSuccess)
		return failed("the first empty call", err);
	return NULL;
}

void *
ks_worker_device_open(const unsigned char *handle, size_t len)
{
	hipIpcMemHandle_t h;
	void *p = NULL;

	(void)len;
	memcpy(&h, handle, sizeof h < KS_JUDGE_HANDLE_BYTES ? sizeof h : KS_JUDGE_HANDLE_BYTES);
	if (hipIpcOpenMemHandle(&p, h, hipIpcMemLazyEnablePeerAccess) != hipSuccess)
		return NULL;
	return p;
}

void
ks_worker_device_close(void *dev)
{
	(void)hipIpcCloseMemHandle(dev);
}

void
ks_worker_device_profile(int on)
{
	(void)hipDeviceSynchronize();
#ifdef __HIP_PLATFORM_NVIDIA__
	(void)(on ? hipProfilerStart() : hipProfilerStop());
#else
	(void)on;
#endif
}
