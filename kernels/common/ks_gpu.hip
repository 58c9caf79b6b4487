/*
 * ks_gpu.hip: the checked runtime calls of ks_gpu.h and the judge's
 * device work (ks_judge.h), in HIP for every GPU target (see ks_gpu.h).
 *
 * The judge's side of a call: before it, a kernel reads twice the
 * last-level cache, so that the candidate finds nothing of its own data
 * in the caches, as in a model where other layers ran in between, and no
 * dirty line to write back on its time, and the judge waits for the
 * device; after it, one empty kernel of the judge's, waited for, which
 * the device runs only once the worker's work is off it; then a keyed
 * hash of the arguments' memory.  The worker times the call itself
 * (ks_worker_gpu.hip), and ks_judge.c holds that time to the judge's own
 * interval.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hip/hip_runtime.h>

#include "ks_gpu.h"
#include "ks_judge.h"

#define FLUSH_LLCS	2	/* the flush reads this many last-level caches */

/*
 * The last-level cache.  On NVIDIA it is the L2, which the runtime
 * reports.  On AMD's MI300X the L2 is 4 MiB per XCD, but behind it sits
 * the 256 MiB Infinity Cache (MALL), which no HIP attribute reports: the
 * flush takes the larger of the two.
 */
/* EVENTS_NAME: what the worker times a call with here, for the verdict's "timer" */
#ifdef __HIP_PLATFORM_AMD__
#define LLC_FLOOR	((size_t)256 << 20)
#define EVENTS_NAME	"HIP events"
#else
#define LLC_FLOOR	((size_t)0)
#define EVENTS_NAME	"CUDA events"
#endif
#define TEXT_MAX	1024

/* the cache flush, set up when the judge's runtime comes up */
static struct {
	int ready;
	void *flush;
	size_t flush_bytes;
	unsigned *sink;			/* where the flush could write */
	int flush_blocks;
} T;

void
ks_gpu_check(int err, const char *what)
{
	if (err == (int)hipSuccess)
		return;
	fprintf(stderr, "runner: %s: %s\n", what,
	    hipGetErrorString((hipError_t)err));
	exit(1);
}

void
ks_gpu_sync(const char *what)
{
	ks_gpu_check(hipGetLastError(), what);
	ks_gpu_check(hipDeviceSynchronize(), what);
}

void *
ks_gpu_malloc(size_t bytes, const char *what)
{
	hipError_t err;
	void *p = NULL;

	err = hipMalloc(&p, bytes ? bytes : 1);
	if (err == hipErrorMemoryAllocation) {
		/* not sticky: clear it so the next check does not see it */
		(void)hipGetLastError();
		return NULL;
	}
	ks_gpu_check(err, what);
	return p;
}

void
ks_gpu_free(void *dev)
{
	ks_gpu_check(hipFree(dev), "hipFree");
}

void
ks_gpu_upload(void *dev, const void *host, size_t bytes, const char *what)
{
	ks_gpu_check(hipMemcpy(dev, host, bytes, hipMemcpyHostToDevice),
	    what);
}

void
ks_gpu_download(void *host, const void *dev, size_t bytes, const char *what)
{
	/* a fault of the kernel before is reported as such, not as a copy */
	ks_gpu_sync(what);
	ks_gpu_check(hipMemcpy(host, dev, bytes, hipMemcpyDeviceToHost),
	    what);
}

void
ks_gpu_fill(void *dev, int value, size_t bytes, const char *what)
{
	ks_gpu_check(hipMemsetAsync(dev, value, bytes, 0),
	    what);
}

const char *
ks_gpu_device_name(void)
{
	static char name[sizeof(((hipDeviceProp_t *)0)->name) + 1];
	hipDeviceProp_t prop;
	int dev;

	if (name[0] == '\0') {
		ks_gpu_check(hipGetDevice(&dev), "hipGetDevice");
		ks_gpu_check(hipGetDeviceProperties(&prop, dev),
		    "hipGetDeviceProperties");
		snprintf(name, sizeof(name), "%s", prop.name);
	}
	return name;
}

static int
device_attribute(hipDeviceAttribute_t attr, const char *what)
{
	int dev, v;

	ks_gpu_check(hipGetDevice(&dev), "hipGetDevice");
	ks_gpu_check(hipDeviceGetAttribute(&v, attr, dev), what);
	return v;
}

/*
 * Reads the whole flush buffer.  Reading, not writing: a written buffer
 * leaves the L2 full of dirty lines, and the timed kernel would pay for
 * writing them back to HBM (about 10 us on the H200, measured against
 * Nsight Compute); read lines are clean and simply dropped.
 */
static __global__ void
ks_gpu_flush_read(const uint4 *buf, size_t n, unsigned *sink)
{
	unsigned acc = 0;
	size_t i;

	for (i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	    i += (size_t)gridDim.x * blockDim.x) {
		uint4 v = buf[i];

		acc ^= v.x ^ v.y ^ v.z ^ v.w;
	}
	/* the buffer holds zeros, so never: it only keeps the loads */
	if (acc == 0x9e3779b9u)
		*sink = acc;
}

static void
flush_caches(void)
{
	ks_gpu_flush_read<<<T.flush_blocks, 256, 0, 0>>>(
	    (const uint4 *)T.flush, T.flush_bytes / sizeof(uint4), T.sink);
	ks_gpu_check(hipGetLastError(), "cache flush");
}

/* the judge's kernel after a call (ks_gpu_judge_settle) */
static __global__ void
ks_gpu_empty(void)
{
}

/* the flush's buffer, made once */
static void
flush_setup(void)
{
	size_t llc;
	int l2, sms;

	l2 = device_attribute(hipDeviceAttributeL2CacheSize, "L2 size");
	sms = device_attribute(hipDeviceAttributeMultiprocessorCount, "SM count");
	/* a device without an L2 still gets a flush of some size */
	llc = l2 > 0 ? (size_t)l2 : (size_t)1 << 20;
	T.flush_bytes = FLUSH_LLCS * (llc > LLC_FLOOR ? llc : LLC_FLOOR);
	if ((T.flush = ks_gpu_malloc(T.flush_bytes, "cache flush")) == NULL ||
	    (T.sink = (unsigned *)ks_gpu_malloc(sizeof(unsigned), "cache flush")) == NULL)
		ks_gpu_check(hipErrorMemoryAllocation, "cache flush buffer");
	ks_gpu_fill(T.flush, 0, T.flush_bytes, "cache flush");
	ks_gpu_sync("cache flush");
	T.flush_blocks = 8 * (sms > 0 ? sms : 1);
	T.ready = 1;
}

/* ---- a judge's side (ks_judge.h): device memory the worker opens, and the judge's device work around a call ---- */

static void
shared_release(void *dev)
{
	ks_gpu_free(dev);
}

/*
 * The runtime may carve small allocations out of one larger block, and
 * an IPC handle shares the whole block, so a worker would get whatever
 * of the judge's lies beside its buffer (and a pointer to the block's
 * start, not the buffer's: seen on the H200).  An allocation of a
 * multiple of 2 MiB is never carved so (CUDA's programming guide,
 * "Interprocess Communication"): each shared buffer is one, alone.
 */
#define SHARED_GRAIN	((size_t)2 << 20)

void *
ks_gpu_shared_alloc(size_t bytes, const char *what)
{
	unsigned char handle[KS_JUDGE_HANDLE_BYTES];
	hipIpcMemHandle_t h;
	void *p;

	if (bytes > SIZE_MAX - SHARED_GRAIN)
		return NULL;
	bytes = (bytes + SHARED_GRAIN - 1) / SHARED_GRAIN * SHARED_GRAIN;
	if (bytes == 0)
		bytes = SHARED_GRAIN;
	if ((p = ks_gpu_malloc(bytes, what)) == NULL)
		return NULL;
	ks_gpu_check(hipIpcGetMemHandle(&h, p), "hipIpcGetMemHandle");
	memset(handle, 0, sizeof handle);
	memcpy(handle, &h, sizeof h < sizeof handle ? sizeof h : sizeof handle);
	ks_judge_share_device(p, bytes, handle, shared_release);
	return p;
}

void
ks_gpu_shared_free(void *dev)
{
	ks_judge_unshare_device(dev);
}

/*
 * The judge's runtime up before its worker's, with the host spinning on
 * the device as the worker's does: a blocking wait would put a sleeping
 * thread's wake-up into every interval.  The device's first use, before
 * any code of the candidate runs: one that fails here (gone from the bus,
 * not one this process may see) is the machine's fault, and the verdict
 * says so (device_failed) for ks-bench to bench on another GPU.
 */
int
ks_gpu_judge_device_ok(char *why, size_t n)
{
	static int up;
	hipError_t err;

	if (up)
		return 0;
	if ((err = hipSetDeviceFlags(hipDeviceScheduleSpin)) == hipSuccess)
		err = hipFree(NULL);	/* the context made: a device that cannot make one fails here */
	if (err != hipSuccess) {
		snprintf(why, n, "the device failed before the kernel ran: %s", hipGetErrorString(err));
		return -1;
	}
	up = 1;
	return 0;
}

/* the runtime up (ks_gpu_judge_device_ok, where main has not asked it already) and the cache flush set up */
void
ks_gpu_judge_start(void)
{
	char why[256];

	if (ks_gpu_judge_device_ok(why, sizeof why) < 0) {
		fprintf(stderr, "runner: %s\n", why);
		exit(1);
	}
	if (!T.ready)
		flush_setup();
}

/* before a call: the caches flushed, the device idle (the judge's work done) */
void
ks_gpu_judge_before_call(void)
{
	if (!T.ready)
		flush_setup();
	flush_caches();
	ks_gpu_sync("cache flush");
}

/*
 * After a call: one empty kernel of the judge's, waited for.  The device
 * runs one process's context at a time, so it runs only when the
 * worker's work is done or pushed off the device.
 */
void
ks_gpu_judge_settle(void)
{
	ks_gpu_empty<<<1, 1, 0, 0>>>();
	ks_gpu_sync("the judge's kernel after the call");
}

static __device__ unsigned long long
ks_gpu_mix(unsigned long long z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * A keyed hash of n bytes: the sum over every 8-byte word of a mix of
 * the key, its index and the word; the tail of n % 8 bytes as one more
 * word.  A sum, so the blocks may add in any order.  Not static, as
 * ks_gpu_flush_read.
 */
__global__ void
ks_gpu_hash(const unsigned char *p, size_t n, unsigned long long key, unsigned long long *out)
{
	const unsigned long long *w = (const unsigned long long *)p;
	size_t words = n / 8, i;
	unsigned long long h = 0;

	for (i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < words; i += (size_t)gridDim.x * blockDim.x)
		h += ks_gpu_mix(key ^ ks_gpu_mix(w[i] + i * 0x9e3779b97f4a7c15ull));
	if (blockIdx.x == 0 && threadIdx.x == 0 && n % 8) {
		unsigned long long tail = 0;

		for (i = words * 8; i < n; i++)
			tail = tail << 8 | p[i];
		h += ks_gpu_mix(key ^ ks_gpu_mix(tail + words * 0x9e3779b97f4a7c15ull + n));
	}
	atomicAdd(out, h);
}

/* the buffers one fingerprint hashes, at most: a batch's */
#define FP_MAX	(KS_JUDGE_MAX_BATCH * KS_JUDGE_MAX_ARGS)

/* the keyed hash of n buffers of device memory, each with a key of its own, in one wait */
uint64_t
ks_gpu_fingerprint(const void *const *devs, const size_t *lens, int n, uint64_t key)
{
	static unsigned long long *sum, h[FP_MAX];
	unsigned long long all = 0;
	int i;

	if (n > FP_MAX)
		n = FP_MAX;
	if (!sum && (sum = (unsigned long long *)ks_gpu_malloc(FP_MAX * sizeof *sum, "fingerprint")) == NULL)
		ks_gpu_check(hipErrorMemoryAllocation, "fingerprint");
	ks_gpu_fill(sum, 0, n * sizeof *sum, "fingerprint");
	for (i = 0; i < n; i++)
		ks_gpu_hash<<<T.flush_blocks ? T.flush_blocks : 1024, 256, 0, 0>>>((const unsigned char *)devs[i],
		    lens[i], key + 0x9e3779b97f4a7c15ull * (unsigned long long)(i + 1), sum + i);
	ks_gpu_download(h, sum, n * sizeof *sum, "fingerprint");
	for (i = 0; i < n; i++)
		all = (all ^ h[i]) * 0x100000001b3ull + (unsigned long long)i;
	return all;
}

const char *
ks_gpu_judge_device_text(void)
{
	static char text[TEXT_MAX];

	snprintf(text, sizeof text, "%s on %s (L2 %.1f MiB): before each call the judge reads %.1f MiB to "
	    "flush the caches (clean lines only) and waits for the device", EVENTS_NAME, ks_gpu_device_name(),
	    T.flush_bytes / FLUSH_LLCS / 1048576.0, T.flush_bytes / 1048576.0);
	return text;
}
