/*
 * ks_judge.h: the judge and its worker, two processes of one runner.
 *
 * The judge (the runner's main, ks_harness.c with ks_judge.c) draws the
 * inputs, keeps the clock and the samples, computes the reference,
 * compares and writes the verdict.  It never runs the candidate's code:
 * that is linked into a second program, the worker (ks_worker.c, the
 * problem's call glue and the kernel), which the judge starts as its
 * child and which gets, and keeps, nothing but
 *
 *	fd 0		/dev/null
 *	fd 1, fd 2	one pipe to the judge, which copies what arrives to
 *			its own stderr (the bench's log), capped
 *	fd 3		the command channel (a SOCK_SEQPACKET socket)
 *	the buffers	the kernel's arguments: on the CPU each a sealed memfd
 *			the judge sends over the channel and the worker maps
 *			and closes; on a GPU device memory of the judge's,
 *			which the worker opens by its IPC handle (CUDA or HIP)
 *
 * no seed, no descriptor of the verdict, no pointer into the judge.  The
 * worker installs its seccomp filter on every thread (TSYNC) before it
 * says it is ready, and the candidate's object has no constructors
 * (ks-build checks).  What holds even if code of the candidate's runs
 * before that (nvcc's registration inlines some; or it skips the worker's
 * filter by running the worker again) is the judge's, installed between
 * fork and exec, where the worker cannot undo it:
 *
 *	the judge is not dumpable (PR_SET_DUMPABLE 0), and the worker has
 *	no capability, now or after exec: nothing in it opens or traces the
 *	judge's memory, as root either
 *	the gate (ks_filter.c): the worker's own filter's list, every call
 *	outside it sent to the judge, which lets it through until READY and
 *	then closes the gate's listener (the call then fails, ENOSYS);
 *	other processes' memory and descriptors, new processes, io_uring,
 *	timers and SIGIO, signals to others and fds 0 to 3 changed refused
 *	from the start.  Its listener is the first message on the channel
 *	(GATE); there can be no second in the worker's process (EBUSY).
 *
 * Between calls the worker is stopped (SIGSTOP, and the judge waits until
 * the kernel of the operating system says every thread has stopped): the
 * candidate's code runs only inside the judge's timed interval and the
 * short quiet period after it, never while the judge draws, checks or
 * compares.  A call, as the judge sees it:
 *
 *	t0; SIGCONT; CALL n --> worker calls the kernel --> DONE n;
 *	SIGSTOP; wait until stopped; t1		time = t1 - t0 - floor
 *	fingerprint the arguments' memory (F1)
 *	SIGCONT; quiet period (no command); SIGSTOP; fingerprint (F2)
 *	F1 != F2: the kernel worked after its call returned
 *
 * The floor is the median of the same exchange with an empty call,
 * measured before any code of the candidate ran.
 *
 * A CALL may be a batch: several calls, each on buffers of its own, run
 * back to back in one exchange (ks_judge_call_batch), so that the
 * exchange's cost and jitter, and the margin below, are shared by every
 * call of the batch.
 *
 * On a GPU the kernel's work runs on the device, which a stopped process
 * does not stop, so a call goes:
 *
 *	the judge flushes the caches and waits for the device
 *	t0; SIGCONT; CALL n --> the worker queues a pad, its start event,
 *	the kernel, its end event; waits for the end; DONE n, with the
 *	events' time; SIGSTOP; wait until stopped; the judge's own empty
 *	kernel, waited for; t1
 *
 * The judge's kernel runs in a context of its own, which the device runs
 * only once the worker's work is done or pushed off it, so t1 - t0 holds
 * everything the worker's process had the device do.  The time that
 * counts is the worker's (its events are as close to the device as
 * timing gets), taken only as far as it agrees with the judge's: a time
 * less than t1 - t0 less the exchange's own cost (measured with empty
 * calls before the candidate's code ran) by more than a margin (from the
 * same calls' spread) is raised to that bound, and a worker that reports
 * such times on more than a tenth of its calls is rejected.  The
 * fingerprints are the judge's kernels, on the same memory.
 */
#ifndef KS_JUDGE_H
#define KS_JUDGE_H

#include <stddef.h>
#include <stdint.h>

#include "ks_harness.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KS_JUDGE_CHANNEL_FD	3	/* the worker's end of the channel */
#define KS_JUDGE_WORKERS	2	/* the candidate's and, side by side, its base's */
#define KS_JUDGE_MAX_ARGS	16	/* pointer arguments of one call */
#define KS_JUDGE_MAX_BATCH	128	/* calls of one timed batch */
#define KS_JUDGE_MAX_BUFFERS	1024	/* buffers shared at once */
#define KS_JUDGE_HANDLE_BYTES	64	/* a device buffer's IPC handle (cudaIpcMemHandle_t, hipIpcMemHandle_t) */

enum ks_msg_type {
	/* judge to worker */
	KS_MSG_MAP = 1,		/* map the memfd attached (device: open the handle) as buffer id, len bytes */
	KS_MSG_UNMAP,		/* buffer id is gone */
	KS_MSG_CALL,		/* ncalls calls of the kernel, back to back: dims, and each call's args */
	KS_MSG_EMPTY,		/* the same exchange without the kernel (the floor) */
	KS_MSG_QUIT,
	/* worker to judge */
	KS_MSG_READY = 100,	/* locked down; error says what failed when not */
	KS_MSG_MAPPED,
	KS_MSG_DONE,		/* the calls of seq returned */
	/* the judge's own code in the worker's process, between fork and exec */
	KS_MSG_GATE = 200	/* the gate's listener attached (ks_filter.c); error says what failed when none */
};

/* One pointer argument: an offset into a buffer the worker has mapped. */
struct ks_msg_arg {
	uint32_t id;
	uint32_t pad;
	uint64_t off;
};

/*
 * Every message, both ways: one datagram of a SOCK_SEQPACKET socket.  A
 * CALL's datagram goes on past the message with its arguments: ncalls
 * times nargs struct ks_msg_arg, call c's argument a at c * nargs + a
 * (ks_msg_args_bytes).  Every other datagram is the message alone.
 */
struct ks_msg {
	uint32_t type;
	uint32_t seq;			/* CALL, EMPTY, DONE: the exchange's number */
	uint32_t id;			/* MAP, UNMAP: the buffer */
	uint32_t nargs;			/* CALL: arguments of each call */
	uint32_t ncalls;		/* CALL: calls, 1 to KS_JUDGE_MAX_BATCH */
	uint32_t device;		/* MAP: the buffer is device memory, handle its IPC handle */
	uint32_t profile;		/* CALL: inside the profiler's range (--profile) */
	uint32_t pad;
	uint64_t len;			/* MAP: bytes */
	double seconds;			/* DONE, on a GPU: the worker's events, start to end */
	int32_t dims[KS_MAX_DIMS];	/* CALL: every call's */
	unsigned char handle[KS_JUDGE_HANDLE_BYTES];	/* MAP of device memory */
	char error[160];		/* READY, GATE: why the worker could not lock down; "" */
};

/* the bytes of a CALL's arguments after its message */
static inline size_t
ks_msg_args_bytes(const struct ks_msg *m)
{
	return (size_t)m->ncalls * m->nargs * sizeof(struct ks_msg_arg);
}

/*
 * The problem's call glue, in the worker (problem.json "worker_sources"):
 * calls the entry point with the shape's dims and the pointer arguments,
 * in the order the problem's args() gives them.
 */
void ks_call(const int *dims, void *const *args);

/*
 * The judge's side, for ks_harness.c.  ks_judge_start forks and execs
 * the worker (the program at path), waits until it is locked down and
 * measures the floor; on any failure the runner stops with a message
 * (exit 1).
 */
void ks_judge_start(const char *worker_path);

/*
 * The same for --profile: the worker is not locked down (a profiler's
 * injection opens files in it) and no floor is measured, since no time
 * is kept; ks_judge_profile_call then makes one call inside the
 * profiler's range.
 */
void ks_judge_start_unconfined(const char *worker_path);

/*
 * A side-by-side bench: a second worker, the base's kernel's (the
 * program at path, built by the same tools), started and locked down
 * like the first, its floor measured; -1 with why when it cannot be
 * (no side-by-side then, the candidate's bench goes on).
 * ks_judge_use(k) sends the next calls to worker k (0: the candidate's,
 * 1: the base's); only one worker runs at a time.  A call of the base's
 * that breaks a rule, or in which its process dies, returns -1 with why
 * and ends that worker, never the runner; ks_judge_drop(1) ends it
 * when the runner no longer needs it.
 */
int ks_judge_start_versus(const char *worker_path, char *why, size_t n);
void ks_judge_use(int k);
void ks_judge_drop(int k);
void ks_judge_profile_call(const int *dims, void *state);

/*
 * One call of the kernel on state's arguments (the problem's args()),
 * as the comment at the top says.  0, with *seconds the judge's interval
 * less the floor (never below 0); -1 when the call broke a rule (work
 * after its return, a message out of turn, on a GPU times that fall
 * short of the judge's), with why the verdict's rejection.  seconds
 * NULL: a call whose time counts for nothing (a check's, a warm-up's),
 * held to every rule but the time's.  A worker that dies takes the
 * runner down the same way: the same signal, or the same exit status.
 */
int ks_judge_call(const int *dims, void *state, double *seconds, char *why,
    size_t n);

/*
 * A batch: one call on each of nstates states (at most
 * KS_JUDGE_MAX_BATCH, every one with its own buffers), back to back in
 * one exchange, as ks_judge_call makes one: one wake-up, one flush of the
 * caches before, one settle after, the fingerprints over every state's
 * memory.  *seconds is the whole batch's, the floor subtracted once: the
 * exchange's cost and its jitter, and on a GPU the margin the worker's
 * times are held to, are spread over every call of the batch.
 */
int ks_judge_call_batch(const int *dims, void *const *states, int nstates, double *seconds, char *why,
    size_t n);

/*
 * The judge's own bound on the last exchange's calls, all of them: its
 * interval less an empty call's exchange (never below 0).  The worker
 * cannot make it smaller than the calls took; what the runner sizes a
 * batch by.
 */
double ks_judge_last_bound(void);

/* bytes of memory shared with the worker now, all buffers */
size_t ks_judge_shared_bytes(void);

/*
 * After the timed calls: 0 when their times stand, -1 with why the
 * verdict's rejection when not (on a GPU, the median shortfall of however
 * many there were, against the same margin as while they ran).
 */
int ks_judge_times_stand(char *why, size_t n);

/*
 * The floor measured again, before a shape's timed calls, and taken when
 * lower (never higher: the worker's code is the kernel's by then).
 */
void ks_judge_refloor(void);

/* the verdict's "timer": how the judge measures, with the floor */
const char *ks_judge_timer_text(void);

/* 1 in a GPU runner (linked with ks_gpu.hip): the kernel's work is on a device, which the judge waits for */
int ks_judge_on_device(void);

/*
 * Device memory for the worker (ks_gpu.hip's ks_gpu_shared_alloc): dev,
 * len bytes, opened by the worker from handle; release frees it once the
 * worker has closed it.  ks_judge_unshare_device gives it up (the
 * release comes at the next exchange).
 */
void ks_judge_share_device(void *dev, size_t len, const unsigned char *handle, void (*release)(void *));
void ks_judge_unshare_device(void *dev);

/*
 * The judge's device work around a call, in ks_gpu.hip: the caches
 * flushed before (waited for), one empty kernel of the judge's after
 * (waited for: it runs only once the worker's work is off the device),
 * and a keyed hash of n buffers of device memory.
 */
void ks_gpu_judge_before_call(void);
void ks_gpu_judge_settle(void);
uint64_t ks_gpu_fingerprint(const void *const *devs, const size_t *lens, int n, uint64_t key);
const char *ks_gpu_judge_device_text(void);

/*
 * The worker's device side, in ks_worker_gpu.hip: the runtime brought up
 * before the lockdown (NULL, or what failed), device memory opened and
 * closed by handle, and one call timed by the worker's events (a pad
 * kernel first, so the call's launches queue behind it; the seconds from
 * the start event to the end event).  call is NULL for an empty call.
 */
const char *ks_worker_device_start(void);
void *ks_worker_device_open(const unsigned char *handle, size_t len);
void ks_worker_device_close(void *dev);
double ks_worker_device_time(void (*call)(const struct ks_msg *), const struct ks_msg *m);
void ks_worker_device_profile(int on);

/* tells the worker to quit and reaps it */
void ks_judge_finish(void);

#ifdef __cplusplus
}
#endif

#endif
