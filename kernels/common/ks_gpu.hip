/*
 * ks_gpu.hip: the GPU timer and the checked runtime calls of ks_gpu.h,
 * in HIP for every GPU target (see ks_gpu.h).
 *
 * One timed call is queued on the null stream (CUDA's legacy default
 * stream, which waits for and holds up every blocking stream) without
 * the host waiting in between:
 *
 *	read of 2x the last-	the candidate finds nothing of its own
 *	level cache		data in the caches, as in a model where other
 *				layers ran in between, and no dirty line
 *				to write back on its time
 *	start event
 *	run(state)		its launches queue up while the flush runs,
 *				so no host latency falls inside the events
 *	end event
 *	hipDeviceSynchronize	device-wide, then a third event: work that
 *	after event		escaped the null stream's order shows as a
 *				gap from end to after longer than the host's
 *
 * The time is end - start less the device's own time for an empty
 * kernel between two events (the events' and a launch's cost, measured
 * once).  A kernel has no stream of its own to escape on unless its
 * problem allows one (problem.json "allowed_symbols"): the import check
 * refuses stream creation.  So a gap from end to after longer than the
 * host's own (measured with the empty kernel) by more than max(5 us,
 * 10 %) is host noise, and left out of the time; but should it come in
 * more than half of the run's timed calls, work ran past the end event, and
 * verify says the times cannot stand.  With --idle-start (ks-bench gives
 * it where the problem allows streams) the device is idle at the start
 * event, the flush waited for first, so nothing launched by the call runs
 * before it, and every call is timed from start to after, less the
 * host's share of both ends as the empty kernel measured it: work on a
 * stream of the kernel's own counts however short.  The JSON's "timer"
 * text gives the numbers.
 */
#include <math.h>
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
#ifdef __HIP_PLATFORM_AMD__
#define LLC_FLOOR	((size_t)256 << 20)
#define EVENTS_NAME	"HIP events"
#else
#define LLC_FLOOR	((size_t)0)
#define EVENTS_NAME	"CUDA events"
#endif
#define FLOOR_WARMUP	10	/* empty calls before the floor is measured */
#define FLOOR_CALLS	101	/* empty calls timed, each way */
#define TEXT_MAX	1024

/* what the timer holds once the device is first timed */
static struct {
	int ready;
	void *flush;
	size_t flush_bytes;
	unsigned *sink;			/* where the flush could write */
	int flush_blocks;
	hipEvent_t start, end, after;
	double kernel_s;		/* the empty kernel, start to end */
	double tail_s;			/* the host's gap from end to after */
	double floor_s;			/* subtracted from each time */
	long calls, escaped;		/* timed calls; those with a gap past the end event */
	unsigned flags;			/* the device's flags before any candidate code */
	char moved[512];		/* why the times cannot stand; "" */
} T;

/*
 * The JSON's "timer".  ks_gpu_timer must be a constant the C harness
 * can point to before main runs, so its description is this buffer,
 * rewritten with the measured facts once the timer is set up.
 */
char ks_gpu_timer_text[TEXT_MAX] =
    EVENTS_NAME " queued around each call behind a flush of the caches, then "
    "a device synchronization and a third event (no call was timed)";

const struct ks_timer ks_gpu_timer = {
	ks_gpu_timer_text,	/* description */
	ks_gpu_time_call,	/* time_call */
	ks_gpu_timer_prepare,	/* prepare */
	ks_gpu_timer_verify,	/* verify */
};

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

/* one call's three events, as the comment at the top says */
struct raw {
	double span_s;		/* start to end */
	double tail_s;		/* end to after */
};

static double
elapsed(hipEvent_t a, hipEvent_t b)
{
	float ms;

	ks_gpu_check(hipEventElapsedTime(&ms, a, b), "hipEventElapsedTime");
	return ms * 1e-3;
}

static struct raw
time_raw(void (*run)(void *), void *state)
{
	struct raw r;

	flush_caches();
	if (ks_timer_idle_start)
		ks_gpu_sync("cache flush");
	ks_gpu_check(hipEventRecord(T.start, 0), "start event");
	run(state);
	ks_gpu_check(hipEventRecord(T.end, 0), "end event");
	ks_gpu_sync("timed call");
	ks_gpu_check(hipEventRecord(T.after, 0), "after event");
	ks_gpu_check(hipEventSynchronize(T.after), "after event");
	r.span_s = elapsed(T.start, T.end);
	r.tail_s = elapsed(T.end, T.after);
	return r;
}

static __global__ void
ks_gpu_empty(void)
{
}

/* the least a call can do: launch one kernel, which does nothing */
static void
run_empty(void *state)
{
	(void)state;
	ks_gpu_empty<<<1, 1, 0, 0>>>();
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median(double *t, int n)
{
	qsort(t, n, sizeof(t[0]), cmp_double);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/*
 * What an empty kernel's call measures, each the median of FLOOR_CALLS:
 * its span (the events' and the launch's own cost, subtracted from each
 * time) and the host's gap from end to after; with --idle-start, the
 * span is the host's launch after an idle start and all of it is
 * subtracted.
 */
static double
measure_floor(double *kernel_s, double *tail_s)
{
	double span[FLOOR_CALLS], tail[FLOOR_CALLS];
	struct raw r;
	int i;

	for (i = 0; i < FLOOR_WARMUP; i++)
		time_raw(run_empty, NULL);
	for (i = 0; i < FLOOR_CALLS; i++) {
		r = time_raw(run_empty, NULL);
		span[i] = r.span_s;
		tail[i] = r.tail_s;
	}
	*kernel_s = median(span, FLOOR_CALLS);
	*tail_s = median(tail, FLOOR_CALLS);
	return *kernel_s;
}

static unsigned
device_flags(void)
{
	unsigned f = 0;

	ks_gpu_check(hipGetDeviceFlags(&f), "hipGetDeviceFlags");
	return f;
}

/* The flags must stay as they were before the candidate ran: they move the timer's floor. */
static void
check_flags(const char *when)
{
	unsigned f = device_flags();

	if (f != T.flags && !T.moved[0])
		snprintf(T.moved, sizeof(T.moved), "the device's scheduling flags changed %s (0x%x, "
		    "not 0x%x as before the kernel ran): the host's share subtracted from each time no "
		    "longer holds", when, f, T.flags);
}

static void
describe_timer(int l2_bytes, int sms)
{
	snprintf(ks_gpu_timer_text, TEXT_MAX,
	    EVENTS_NAME " on %s (%d compute units, L2 %.1f MiB): before each call a "
	    "kernel reads %.1f MiB to flush the caches (clean lines only); %s; %.2f us (the "
	    "median span of an empty kernel%s) is subtracted from each time; time_us = median of "
	    "the timed runs after warm-up, repeated until the standard error of the mean is under "
	    "0.5%% of the mean or the time cap",
	    ks_gpu_device_name(), sms, l2_bytes / 1048576.0, T.flush_bytes / 1048576.0,
	    ks_timer_idle_start ? "the start event is recorded on an idle device (--idle-start: "
	    "the problem allows streams of the kernel's own), and each call timed to an event "
	    "after the device is synchronized, less the host's share" :
	    "the start event, the call and the end event are queued behind the flush without the "
	    "host waiting; a device synchronization and a third event after them check that no "
	    "work ran past the end event",
	    T.floor_s * 1e6, ks_timer_idle_start ? ", the host's launch included" : "");
}

/* allocated on first use: a problem that never times pays nothing */
static void
timer_setup(void)
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
	ks_gpu_check(hipEventCreate(&T.start), "hipEventCreate");
	ks_gpu_check(hipEventCreate(&T.end), "hipEventCreate");
	ks_gpu_check(hipEventCreate(&T.after), "hipEventCreate");
	T.ready = 1;
	T.floor_s = measure_floor(&T.kernel_s, &T.tail_s);
	T.flags = device_flags();
	describe_timer(l2, sms);
}

void
ks_gpu_timer_prepare(void)
{
	if (!T.ready)
		timer_setup();
}

/*
 * After the timing: the flags as before, and the floor measured again
 * within its noise of the first (the larger of 2 us and half of it).
 */
const char *
ks_gpu_timer_verify(void)
{
	double kernel, tail, again;

	if (!T.ready)
		return NULL;
	check_flags("during the run");
	if (T.moved[0])
		return T.moved;
	if (!ks_timer_idle_start && T.escaped * 2 > T.calls)
		snprintf(T.moved, sizeof(T.moved), "work ran past the end event in %ld of %ld timed calls "
		    "(the gap from it to a device synchronization was over max(5 us, 10 %%) longer than an "
		    "empty kernel's): the events did not hold the kernel's work", T.escaped, T.calls);
	if (T.moved[0])
		return T.moved;
	again = measure_floor(&kernel, &tail);
	if (fabs(again - T.floor_s) > 2e-6 && fabs(again - T.floor_s) > 0.5 * T.floor_s)
		snprintf(T.moved, sizeof(T.moved), "the timer's floor moved during the run, from %.2f us "
		    "before the kernel ran to %.2f us after: the times measured against it cannot stand",
		    T.floor_s * 1e6, again * 1e6);
	return T.moved[0] ? T.moved : NULL;
}

/*
 * The profiled call's range.  On NVIDIA, the CUDA profiler's capture,
 * which "ncu --profile-from-start off" honours; ROCm deprecates
 * hipProfilerStart for rocTX, so an AMD runner only waits for the device.
 */
void
ks_profile_range(int on)
{
	ks_gpu_sync(on ? "before the profiled call" : "the profiled call");
#ifdef __HIP_PLATFORM_NVIDIA__
	ks_gpu_check(on ? hipProfilerStart() : hipProfilerStop(), on ? "hipProfilerStart" : "hipProfilerStop");
#endif
}

/* work past the end event: the host's gap longer than its own by max(5 us, 10 % of the span) */
static int
escaped(const struct raw *r)
{
	double margin = 0.1 * r->span_s > 5e-6 ? 0.1 * r->span_s : 5e-6;

	return r->tail_s > T.tail_s + margin;
}

double
ks_gpu_time_call(void (*run)(void *), void *state)
{
	struct raw r;
	double t;

	if (!T.ready)
		timer_setup();
	r = time_raw(run, state);
	T.calls++;
	T.escaped += escaped(&r);
	/* idle start: to the event after the synchronization, less the host's share at both ends */
	t = ks_timer_idle_start ? r.span_s + r.tail_s - T.tail_s - T.floor_s : r.span_s - T.floor_s;
	check_flags("during a timed call");
	/* a call as short as the floor is within its noise of zero */
	return t > 0 ? t : 0;
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
 * thread's wake-up into every interval.
 */
void
ks_gpu_judge_start(void)
{
	ks_gpu_check(hipSetDeviceFlags(hipDeviceScheduleSpin), "hipSetDeviceFlags");
	if (!T.ready)
		timer_setup();
}

/* before a call: the caches flushed, the device idle (the judge's work done) */
void
ks_gpu_judge_before_call(void)
{
	if (!T.ready)
		timer_setup();
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

/* the keyed hash of n buffers of device memory, each with a key of its own, in one wait */
uint64_t
ks_gpu_fingerprint(const void *const *devs, const size_t *lens, int n, uint64_t key)
{
	static unsigned long long *sum;
	unsigned long long h[KS_JUDGE_MAX_ARGS], all = 0;
	int i;

	if (n > KS_JUDGE_MAX_ARGS)
		n = KS_JUDGE_MAX_ARGS;
	if (!sum && (sum = (unsigned long long *)ks_gpu_malloc(KS_JUDGE_MAX_ARGS * sizeof *sum,
	    "fingerprint")) == NULL)
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
