/*
 * ks_judge.c: the judge's side of a judge runner (ks_judge.h): the
 * memory it shares with the worker, the worker's start and lockdown, the
 * timed exchange of one call, the fingerprints around the quiet period,
 * and the worker's end.
 *
 * Everything here runs in the judge's process, which the candidate's code
 * never enters; all the worker can touch is the shared buffers (the
 * kernel's arguments) and its end of the channel. *
 * The parts are files of their own, included here: the shared memory
 * (ks_judge_shared.c), the worker's process and channel
 * (ks_judge_channel.c), one timed exchange (ks_judge_exchange.c); this
 * file has the state they share and the start and end.  One unit, as
 * ks_harness.c is (see there): the judge's functions stay static.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stddef.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <linux/capability.h>

#include "ks_judge.h"

#define MAX_SHARED	KS_JUDGE_MAX_BUFFERS	/* live shared buffers */
#define MAX_CALL_BUFS	(KS_JUDGE_MAX_BATCH * KS_JUDGE_MAX_ARGS)	/* the buffers of one exchange */
#define FLOOR_WARMUP_S	0.05		/* empty calls for this long before the floor is measured */
#define FLOOR_CALLS	401		/* empty calls measured */
#define REFLOOR_CALLS	31		/* empty calls of a shape's own measure of the floor */
#define LOG_CAP		((size_t)1 << 20) /* the worker's output copied to the log, at most */
#define OUTPUT_MAX	((size_t)64 << 20) /* and what it may write in all */
#define QUIET_MIN_S	100e-6		/* the quiet period after a call: at least this, */
#define QUIET_SHARE	0.1		/* or this share of the call */
#define QUIET_MAX_S	20e-3		/* and at most this */
#define TEXT_MAX	1024
/*
 * How far a GPU worker's times may fall short of the judge's interval
 * less an empty call's exchange: by the median over the calls, at most
 * MARGIN_MIN_S (or MARGIN_IQRS widths of the empty calls' middle half)
 * and MARGIN_SHARE of the interval; a single call, CALL_MARGINS times as
 * far (a call beyond is taken at that bound).  Not less: on the H200 an
 * honest call's interval stood a median of 40 us (rmsnorm's seed, 70 us
 * calls) and 220 us (fp8-mm's, 37 to 81 ms) further above its events than
 * an empty call's, and single calls up to 200 and 450 us
 * (kernels/GPU-RESULTS.md): the two GPU context switches and the wake-ups
 * it holds cost more after a real kernel than after an empty one.  200 us,
 * not 100: traced on the H200 (fourteenth run), honest workers' median
 * shortfall stood at 25-95 us, within 5 us of a 100 us margin side by side,
 * and 3 of 25 honest benches were refused at it.
 */
#define MARGIN_MIN_S	200e-6
#define MARGIN_IQRS	4
#define MARGIN_SHARE	0.01
#define CALL_MARGINS	3
#define SHORTS_KEPT	1024		/* the timed calls the median is over: the latest */
#define SHORTS_MIN	16		/* and no fewer while they run (after them, however many there were) */
/* the fingerprint after a call may take this much longer than the judge's own measure of it */
#define FP_SLOW_SHARE	4
#define FP_SLOW_S	1e-3

/* a GPU runner's device work (ks_gpu.hip); absent from a CPU runner */
void ks_gpu_judge_before_call(void) __attribute__((weak));
void ks_gpu_judge_settle(void) __attribute__((weak));
uint64_t ks_gpu_fingerprint(const void *const *devs, const size_t *lens, int n, uint64_t key) __attribute__((weak));
const char *ks_gpu_judge_device_text(void) __attribute__((weak));
void ks_gpu_judge_start(void) __attribute__((weak));

static struct {
	void *p;
	size_t len;
	int fd;			/* a memfd; -1 for device memory, or once freed */
	int device;		/* device memory, opened by its IPC handle */
	uint32_t id;
	unsigned mapped;	/* the workers that have it: bit k for workers[k] */
	int freed;		/* ks_shared_free'd: the worker must drop it */
	int used;
	unsigned char handle[KS_JUDGE_HANDLE_BYTES];	/* device memory's IPC handle */
	void (*release)(void *);	/* device memory: frees p once the worker closed it */
} shared[MAX_SHARED];

/* the judge's own state, no worker's */
static struct {
	uint32_t next_id;	/* of the shared buffers */
	uint64_t key;		/* of the fingerprints; no worker ever sees it */
	int pinned;		/* the judge's thread and its workers share one CPU */
	char text[TEXT_MAX];
} J;

/*
 * A worker: the candidate's (workers[0]) and, in a side-by-side bench,
 * its base's (workers[1]), each a process of its own with its own
 * channel, calibration and record of its calls.  W is the one the next
 * call goes to; only one ever runs at a time.
 */
struct worker {
	pid_t pid;
	int chan;		/* the judge's end of the channel */
	int gate;		/* the listener of its gate (ks_filter.c) until it said READY; else -1 */
	int out;		/* the read end of the worker's stdout and stderr */
	uint32_t seq;
	double floor_s;		/* the empty call's median: the least of every measure */
	double first_floor_s;	/* the measure before any code of the candidate ran */
	double floor_spread_s;	/* the middle half of the empty calls' spread, then */
	/* a GPU runner's: what the worker's events say of an empty call, and how far the judge's interval is above them */
	double events_floor_s;	/* the worker's time of an empty call: subtracted from each time */
	double gap_s;		/* the judge's interval less the worker's time, an empty call's median */
	double margin_s;	/* how far below the judge's bound a time may be */
	long calls, clamped;	/* calls timed; those whose worker's time was under a call's bound */
	double shorts[SHORTS_KEPT];	/* by how much each timed call's time was short of the interval, less
					   the gap and MARGIN_SHARE of the interval */
	int unconfined;		/* --profile: the worker was not locked down */
	int profiling;		/* the next call is the profiled one */
	int spin;		/* waits for the worker's reply spinning, not sleeping */
	/* what the judge's own fingerprint of a call's buffers costs, measured with the worker stopped */
	uint32_t fp_ids[MAX_CALL_BUFS];	/* the buffers it was measured for */
	int fp_n;
	double fp_s;		/* the fingerprint's own cost, for these buffers */
	double last_fp_s;	/* the last call's fingerprint, as timed after it */
	double last_dt;		/* the last exchange's interval, the judge's */
	size_t logged, dropped;	/* bytes of the worker's output copied, and not */
};

static struct worker workers[KS_JUDGE_WORKERS] = {
	{ .pid = -1, .chan = -1, .gate = -1, .out = -1 }, { .pid = -1, .chan = -1, .gate = -1, .out = -1 }
};
static struct worker *W = &workers[0];

/*
 * A base's worker that died, or closed its channel, in a side-by-side
 * call: back to ks_judge_call, which returns -1 with base_why.  The
 * candidate's worker takes the runner down with it instead.
 */
static jmp_buf base_lost;
static char base_why[200];

static int
is_base(void)
{
	return W != &workers[0];
}

/* W's bit in a shared buffer's mapped */
static unsigned
w_bit(void)
{
	return 1u << (W - workers);
}

static void
die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void
die(const char *fmt, ...)
{
	va_list ap;

	fputs("runner: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	for (int k = 0; k < KS_JUDGE_WORKERS; k++)
		if (workers[k].pid > 0)
			kill(workers[k].pid, SIGKILL);
	exit(1);
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- memory shared with the worker ---- */
#include "ks_judge_shared.c"

/* ---- the worker's process and its channel ---- */
#include "ks_filter.c"
#include "ks_judge_channel.c"

/* ---- one exchange ---- */
#include "ks_judge_exchange.c"

/* ---- start and end ---- */

/*
 * n empty calls: the judge's intervals into t, and on a GPU the
 * worker's times into w and the intervals less them into gap (sorted,
 * each); the median of t, and its middle half's width into *spread.
 */
static double
empty_calls(double *t, double *w, double *gap, int n, double *spread)
{
	struct ks_msg m;
	char why[200];
	double ws;

	memset(&m, 0, sizeof m);
	m.type = KS_MSG_EMPTY;
	for (int i = 0; i < n; i++) {
		uint64_t none;

		if (timed_exchange(&m, NULL, NULL, 0, &none, &t[i], &ws, why, sizeof why) < 0)
			die("the kernel's process broke the judge's protocol on an empty call: %s", why);
		if (w) {
			w[i] = ws;
			gap[i] = t[i] - ws;
		}
	}
	if (w) {
		median_of(w, n, NULL);
		median_of(gap, n, NULL);
	}
	return median_of(t, n, spread);
}

/*
 * The floor: the median of FLOOR_CALLS empty calls, before any code of
 * the candidate ran, after FLOOR_WARMUP_S of them (the two processes'
 * CPUs awake and their caches warm, as they are between timed calls).
 */
static void
measure_floor(void)
{
	static double t[FLOOR_CALLS], w[FLOOR_CALLS], gap[FLOOR_CALLS];
	double end, iqr;

	for (end = now() + FLOOR_WARMUP_S; now() < end;)
		empty_calls(t, NULL, NULL, 1, NULL);
	W->floor_s = W->first_floor_s = empty_calls(t, w, gap, FLOOR_CALLS, &W->floor_spread_s);
	if (!on_device())
		return;
	/* the worker's own measure of an empty call, and how far the judge's interval lies above it */
	W->events_floor_s = w[FLOOR_CALLS / 2];
	W->gap_s = gap[FLOOR_CALLS / 2];
	iqr = gap[3 * FLOOR_CALLS / 4] - gap[FLOOR_CALLS / 4];
	W->margin_s = MARGIN_IQRS * iqr > MARGIN_MIN_S ? MARGIN_IQRS * iqr : MARGIN_MIN_S;
}

/*
 * The floor measured again where a shape's calls are timed: an idle
 * machine's CPUs wake more slowly before the first calls than between
 * them.  Only a lower floor is taken: the worker, whose code the kernel
 * may have changed by now, could make empty calls slow to have more
 * subtracted, but never faster than the exchange itself.
 */
void
ks_judge_refloor(void)
{
	double t[REFLOOR_CALLS], w[REFLOOR_CALLS], gap[REFLOOR_CALLS], f;

	if (W->pid <= 0 || W->unconfined)
		return;
	f = empty_calls(t, w, gap, REFLOOR_CALLS, NULL);
	if (f < W->floor_s)
		W->floor_s = f;
	/* on a GPU, the same: only what makes the worker's times count for more */
	if (on_device() && w[REFLOOR_CALLS / 2] < W->events_floor_s)
		W->events_floor_s = w[REFLOOR_CALLS / 2];
	if (on_device() && gap[REFLOOR_CALLS / 2] < W->gap_s)
		W->gap_s = gap[REFLOOR_CALLS / 2];
}

/*
 * The worker's process, before exec: no capability, now or after exec (as
 * root, CAP_SYS_PTRACE would open any process's memory, the judge's
 * included).  The bounding set can be emptied only with CAP_SETPCAP; where
 * it cannot, no_new_privs (set next) keeps exec from granting what was
 * dropped here.  NULL, or what failed.
 */
static const char *
drop_capabilities(void)
{
	struct __user_cap_header_struct head = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct none[2];

	for (int cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++)
		(void)prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
	(void)prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	memset(none, 0, sizeof none);
	if (syscall(SYS_capset, &head, none) != 0)
		return "capset, to drop every capability, failed";
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return "prctl(PR_SET_NO_NEW_PRIVS) failed";
	return NULL;
}

/*
 * The worker's process, before exec: its gate (ks_filter.c) installed, and
 * the gate's listener sent to the judge on the channel (fd 3, which the gate
 * lets it write to), with the reason in place of it when that failed.  From
 * here every call outside the list waits for the judge, the exec first.
 */
static void
install_gate(int device)
{
	static struct filter fl;
	struct sock_fprog prog;
	struct ks_msg m;
	const char *why = drop_capabilities();
	int listener = -1;

	memset(&m, 0, sizeof m);
	m.type = KS_MSG_GATE;
	fl.deny = SECCOMP_RET_USER_NOTIF;
	build_filter(&fl, getpid(), device, 1, KS_JUDGE_CHANNEL_FD);
	prog.len = fl.n;
	prog.filter = fl.f;
	if (!why && fl.overflow)
		why = "the gate's filter is too long (a bug of ks_filter.c)";
	if (!why && (listener = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER,
	    &prog)) < 0)
		why = errno == EINVAL ? "seccomp's user notification is missing (Linux 5.5 or later has it)"
		    : errno == EBUSY ? "seccomp(NEW_LISTENER) found a listener already (the runner runs under a "
		    "supervisor of its own)" : "seccomp(SECCOMP_SET_MODE_FILTER, NEW_LISTENER) failed";
	if (why)
		snprintf(m.error, sizeof m.error, "%s: %s", why, strerror(errno));
	W->chan = KS_JUDGE_CHANNEL_FD;	/* which send_msg writes to: in this process, fd 3 */
	if (send_msg(&m, NULL, listener) < 0 || why)
		_exit(126);
	close(listener);
}

/* the child: fds 0 to 3 as ks_judge.h says, nothing else, its gate, then the worker */
static void __attribute__((noreturn))
exec_worker(const char *path, int chan, int out, int unconfined)
{
	extern char **environ;
	char *argv[] = { (char *)path, unconfined ? (char *)"--unconfined" : NULL, NULL };
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	/* out of the way of 0 to 3 first, so that no dup2 below is of a descriptor onto itself */
	chan = fcntl(chan, F_DUPFD_CLOEXEC, 10);
	out = fcntl(out, F_DUPFD_CLOEXEC, 10);
	null = null >= 0 ? fcntl(null, F_DUPFD_CLOEXEC, 10) : -1;
	if (chan < 0 || out < 0 || null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0 ||
	    dup2(chan, KS_JUDGE_CHANNEL_FD) < 0)
		_exit(126);
	/* the verdict's descriptor among them: every other is closed (the dup2 ones are not close-on-exec) */
	if (close_range(KS_JUDGE_CHANNEL_FD + 1, ~0U, CLOSE_RANGE_CLOEXEC) != 0)
		for (long fd = KS_JUDGE_CHANNEL_FD + 1, max = sysconf(_SC_OPEN_MAX); fd < max; fd++)
			(void)fcntl((int)fd, F_SETFD, FD_CLOEXEC);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* a profile's worker (--unconfined) runs a profiler's injection, which opens files: no gate */
	if (!unconfined)
		install_gate(on_device());
	execve(path, argv, environ);
	_exit(127);
}

/*
 * A GPU runner's judge and worker on one CPU, the one the judge is on:
 * the worker, continued, runs on a CPU that is awake (the judge's, which
 * then sleeps in its wait), not on one that went idle while it was
 * stopped, whose wake-up would be in the interval; and the judge wakes
 * where the worker just went to sleep.  The worker inherits the mask.
 */
static void
pin_to_one_cpu(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

#ifdef KS_JUDGE_TRACE
	if (getenv("KS_JUDGE_PIN") && atoi(getenv("KS_JUDGE_PIN")) == 0)
		return;
#endif
	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	J.pinned = sched_setaffinity(0, sizeof set, &set) == 0;
}

static void
start_worker(const char *worker_path, int unconfined)
{
	int sv[2], pipefd[2];
	struct ks_msg m;
	char why[200];

	if (access(worker_path, X_OK) != 0)
		die("cannot run the worker '%s': %s", worker_path, strerror(errno));
	if (ks_gpu_judge_start && !is_base())
		ks_gpu_judge_start();
	if (!J.key && getrandom(&J.key, sizeof J.key, 0) != (ssize_t)sizeof J.key)
		J.key = mix((uint64_t)getpid() ^ (uint64_t)(now() * 1e9));
	/* a dead worker's channel must fail the write, not kill the judge; so must a buffer too large */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0 || pipe2(pipefd, O_CLOEXEC) != 0)
		die("cannot make the worker's channel: %s", strerror(errno));
	fflush(NULL);
	if (on_device() && !is_base())
		pin_to_one_cpu();
	/*
	 * Nothing of the same user opens or traces the judge's memory without
	 * CAP_SYS_PTRACE, which no worker has: not before the worker locked
	 * itself down either.  (A profile's judge keeps the default.)
	 */
	if (!unconfined && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
		die("prctl(PR_SET_DUMPABLE, 0) failed: %s", strerror(errno));
	if ((W->pid = fork()) < 0)
		die("cannot start the worker: %s", strerror(errno));
	if (W->pid == 0)
		exec_worker(worker_path, sv[1], pipefd[1], unconfined);
	close(sv[1]);
	close(pipefd[1]);
	W->chan = sv[0];
	W->out = pipefd[0];
	fcntl(W->out, F_SETFL, O_NONBLOCK);
	if (!unconfined)
		receive_gate();
	/* the gate's calls are let through while the worker starts (recv_msg) */
	if (recv_msg(&m, why, sizeof why) < 0)
		die("the worker '%s' did not start as one: %s", worker_path, why);
	/* and fail from here on (ENOSYS, where the worker's own filter does not say EPERM first) */
	close_gate();
	if (m.type != KS_MSG_READY)
		die("the worker '%s' did not start as one: its first message is no READY", worker_path);
	m.error[sizeof m.error - 1] = '\0';
	if (m.error[0])
		die("the worker could not lock itself down (%s): the kernel is not run unconfined", m.error);
	W->unconfined = unconfined;
	worker_stop();
}

void
ks_judge_start(const char *worker_path)
{
	start_worker(worker_path, 0);
	measure_floor();
}

void
ks_judge_start_unconfined(const char *worker_path)
{
	start_worker(worker_path, 1);
}

int
ks_judge_start_versus(const char *worker_path, char *why, size_t n)
{
	if (access(worker_path, X_OK) != 0) {
		snprintf(why, n, "cannot run the base's worker '%s': %s", worker_path, strerror(errno));
		return -1;
	}
	W = &workers[1];
	if (setjmp(base_lost)) {
		snprintf(why, n, "%s", base_why);
		W = &workers[0];
		return -1;
	}
	start_worker(worker_path, 0);
	measure_floor();
	W = &workers[0];
	return 0;
}

/*
 * Worker k the one called from now on.  The candidate's (0) may have been
 * ended by a refusal: it is still the one the verdict is about, and a call
 * of it dies in judge_call; a base that is gone is a bug of the runner.
 */
void
ks_judge_use(int k)
{
	if (k < 0 || k >= KS_JUDGE_WORKERS || (k > 0 && workers[k].pid <= 0))
		die("no worker %d to call (a bug of the runner)", k);
	W = &workers[k];
}

void
ks_judge_drop(int k)
{
	struct worker *was = W;

	if (k <= 0 || k >= KS_JUDGE_WORKERS || workers[k].pid <= 0)
		return;
	W = &workers[k];
	(void)refused();
	W = was == &workers[k] ? &workers[0] : was;
}

/* one call inside the profiler's range: the worker opens it around the call alone */
void
ks_judge_profile_call(const int *dims, void *state)
{
	char why[300];
	double dt;

	W->profiling = 1;
	if (ks_judge_call(dims, state, &dt, why, sizeof why) < 0)
		die("the profiled call: %s", why);
	W->profiling = 0;
}

const char *
ks_judge_timer_text(void)
{
	W = &workers[0];
	if (on_device()) {
		snprintf(J.text, sizeof J.text,
		    "%s; calls are timed in batches (each result's batch: calls back to back in one exchange, "
		    "each on inputs of its own, for about 10 ms where memory allows); the kernel runs in a "
		    "process of its own, which times each batch with its events (a pad kernel, the start event, "
		    "the calls, the end event), %.2f us (an empty call's, measured before the kernel ran) "
		    "subtracted; the judge, in a process the kernel never runs in, times the same batch from "
		    "waking that process to its own kernel done after it, and takes the kernel's times only "
		    "while their median falls short of its interval less %.1f us (an empty call's exchange) by "
		    "at most %.1f us and %.0f%% of the batch (%ld of %ld batches, short by %d times that, were "
		    "raised to it); a call's time is its batch's over its calls; time_us = median of the timed "
		    "batches after warm-up, repeated until the standard error of the mean is under 0.5%% of the "
		    "mean or the time cap", ks_gpu_judge_device_text(), W->events_floor_s * 1e6, W->gap_s * 1e6,
		    W->margin_s * 1e6, MARGIN_SHARE * 100, W->clamped, W->calls, CALL_MARGINS);
		return J.text;
	}
	snprintf(J.text, sizeof J.text,
	    "the judge's CLOCK_MONOTONIC, in a process the kernel never runs in, from waking the kernel's "
	    "process to its being stopped after it said the call returned; %.1f us (the median of %d empty "
	    "calls measured before the kernel ran; middle half %.1f us wide), or the median of %d measured "
	    "again before a shape's timed calls where lower (at least %.1f us), is subtracted from each time "
	    "(of a batch of calls, where a result gives one: a call's time is its batch's over its calls); "
	    "time_us = median of the timed runs after warm-up, repeated until the standard error of the mean "
	    "is under 0.5%% of the mean or the time cap", W->first_floor_s * 1e6, FLOOR_CALLS,
	    W->floor_spread_s * 1e6, REFLOOR_CALLS, W->floor_s * 1e6);
	return J.text;
}

static void
finish_worker(void)
{
	struct ks_msg m;
	int status;

	if (W->pid <= 0)
		return;
	memset(&m, 0, sizeof m);
	m.type = KS_MSG_QUIT;
	worker_continue();
	(void)send_msg(&m, NULL, -1);
	for (int i = 0; i < 200; i++) {
		pid_t r = waitpid(W->pid, &status, WNOHANG);

		drain_output();
		if (r == W->pid && (WIFEXITED(status) || WIFSIGNALED(status)))
			break;
		if (i == 199) {
			kill(W->pid, SIGKILL);
			waitpid(W->pid, &status, 0);
		}
		usleep(5000);
	}
	drain_output();
	if (W->dropped)
		fprintf(stderr, "runner: %zu more bytes of the kernel's output were not kept\n", W->dropped);
	W->pid = -1;
}

void
ks_judge_finish(void)
{
	for (int k = KS_JUDGE_WORKERS - 1; k >= 0; k--) {
		W = &workers[k];
		if (is_base() && setjmp(base_lost))
			continue;
		finish_worker();
	}
}
