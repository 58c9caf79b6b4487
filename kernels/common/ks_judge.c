/*
 * ks_judge.c: the judge's side of a judge runner (ks_judge.h): the
 * memory it shares with the worker, the worker's start and lockdown, the
 * timed exchange of one call, the fingerprints around the quiet period,
 * and the worker's end.
 *
 * Everything here runs in the judge's process, which the candidate's code
 * never enters; all the worker can touch is the shared buffers (the
 * kernel's arguments) and its end of the channel.
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

#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

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
	{ .pid = -1, .chan = -1, .out = -1 }, { .pid = -1, .chan = -1, .out = -1 }
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

/* a free slot of the table of shared buffers */
static int
shared_slot(void)
{
	int i;

	for (i = 0; i < MAX_SHARED && shared[i].used; i++)
		;
	if (i == MAX_SHARED)
		die("more than %d shared buffers at once (a bug of the problem's harness)", MAX_SHARED);
	memset(&shared[i], 0, sizeof shared[i]);
	return i;
}

void *
ks_shared_alloc(size_t bytes)
{
	size_t len = bytes ? bytes : 1;
	void *p;
	int fd, i = shared_slot();

	if ((fd = memfd_create("ks-shared", MFD_CLOEXEC | MFD_ALLOW_SEALING)) < 0)
		die("memfd_create failed: %s", strerror(errno));
	/* a memfd is a file: past the file-size limit ftruncate fails (SIGXFSZ is ignored, ks_judge_start) */
	if (ftruncate(fd, (off_t)len) != 0 && errno == EFBIG)
		die("a buffer of %zu MiB for the kernel is over the file-size limit (ks-bench's KS_BENCH_FILE_MB)",
		    len >> 20);
	/* sealed at its size: the worker can neither shrink it under the judge (SIGBUS) nor grow it */
	if (ftruncate(fd, (off_t)len) != 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0 ||
	    (p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED) {
		close(fd);
		return NULL;
	}
	shared[i].p = p;
	shared[i].len = len;
	shared[i].fd = fd;
	shared[i].id = ++J.next_id;
	shared[i].mapped = 0;
	shared[i].freed = 0;
	shared[i].used = 1;
	return p;
}

void
ks_judge_share_device(void *dev, size_t len, const unsigned char *handle, void (*release)(void *))
{
	int i = shared_slot();

	shared[i].p = dev;
	shared[i].len = len;
	shared[i].fd = -1;
	shared[i].device = 1;
	memcpy(shared[i].handle, handle, KS_JUDGE_HANDLE_BYTES);
	shared[i].release = release;
	shared[i].id = ++J.next_id;
	shared[i].used = 1;
}

/* the live shared buffer that starts at p */
static int
shared_at(const void *p, const char *who)
{
	int i;

	for (i = 0; i < MAX_SHARED; i++)
		if (shared[i].used && !shared[i].freed && shared[i].p == p)
			return i;
	die("%s of memory the judge does not share (a bug of the problem's harness)", who);
}

/* the worker has dropped buffer i, or never had it: its memory goes */
static void
shared_gone(int i)
{
	if (shared[i].release)
		shared[i].release(shared[i].p);
	shared[i].used = 0;
}

/* buffer i's mapped, less the workers that are gone (whose mappings went with them) */
static unsigned
live_mappers(int i)
{
	unsigned m = shared[i].mapped;

	for (int k = 0; k < KS_JUDGE_WORKERS; k++)
		if (workers[k].pid <= 0)
			m &= ~(1u << k);
	return m;
}

void
ks_shared_free(void *p)
{
	int i;

	if (!p)
		return;
	i = shared_at(p, "ks_shared_free");
	munmap(shared[i].p, shared[i].len);
	close(shared[i].fd);
	shared[i].fd = -1;
	shared[i].freed = 1;
	/* each worker that has it is told at its next exchange; never mapped, none needs a word */
	if (!shared[i].mapped)
		shared_gone(i);
}

/* device memory outlives its mapping in the worker: released once the worker closed it */
void
ks_judge_unshare_device(void *dev)
{
	int i;

	if (!dev)
		return;
	i = shared_at(dev, "ks_judge_unshare_device");
	shared[i].freed = 1;
	if (!live_mappers(i))
		shared_gone(i);
}

/*
 * The shared buffer that holds p, or -1; p may also be a buffer's end
 * (an empty argument), but a buffer that starts at p comes first: two
 * allocations can lie end to start (2 MiB device buffers on the H200 do),
 * and the end of one must not stand for the other.
 */
static int
shared_holding(const void *p)
{
	const char *c = (const char *)p;
	int end = -1;

	for (int i = 0; i < MAX_SHARED; i++) {
		const char *lo = (const char *)shared[i].p;

		if (!shared[i].used || shared[i].freed || c < lo || c > lo + shared[i].len)
			continue;
		if (c < lo + shared[i].len)
			return i;
		end = i;
	}
	return end;
}

/* ---- the worker's output, copied to the log ---- */

static void
drain_output(void)
{
	char buf[65536];
	ssize_t r;

	while (W->out >= 0 && (r = read(W->out, buf, sizeof buf)) > 0) {
		/* the log is the candidate's: a base's output is read and dropped */
		size_t keep = W->logged < LOG_CAP && !is_base() ? LOG_CAP - W->logged : 0;

		if (keep > (size_t)r)
			keep = (size_t)r;
		if (keep && write(2, buf, keep) < 0)
			keep = 0;
		W->logged += keep;
		if (!is_base())
			W->dropped += (size_t)r - keep;
		if (W->logged + W->dropped > OUTPUT_MAX)
			die("the kernel's process wrote more than %zu MiB to its output", OUTPUT_MAX >> 20);
	}
}

/* ---- the worker's life ---- */

/*
 * The worker died: the runner goes the same way (the same signal, the same
 * exit status), so that whoever ran it sees what the kernel did, as when
 * the kernel ran in its own process.
 */
static void __attribute__((noreturn))
worker_died(int status)
{
	struct rlimit none = { 0, 0 };
	int sig;

	drain_output();
	W->pid = -1;
	if (is_base()) {
		if (WIFEXITED(status))
			snprintf(base_why, sizeof base_why, "the base's process exited with status %d",
			    WEXITSTATUS(status));
		else
			snprintf(base_why, sizeof base_why, "the base's process was killed by signal %d",
			    WTERMSIG(status));
		longjmp(base_lost, 1);
	}
	if (WIFEXITED(status))
		exit(WEXITSTATUS(status));
	sig = WTERMSIG(status);
	/* the kernel's core, if any, was the worker's to dump */
	setrlimit(RLIMIT_CORE, &none);
	signal(sig, SIG_DFL);
	raise(sig);
	exit(128 + sig);
}

/* waits until every thread of the worker has stopped */
static void
wait_stopped(void)
{
	int status;
	pid_t r;

	for (;;) {
		r = waitpid(W->pid, &status, WUNTRACED);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			die("waitpid of the kernel's process failed: %s", strerror(errno));
		if (WIFSTOPPED(status))
			return;
		if (WIFEXITED(status) || WIFSIGNALED(status))
			worker_died(status);
	}
}

static void
worker_stop(void)
{
	if (kill(W->pid, SIGSTOP) != 0)
		die("cannot stop the kernel's process: %s", strerror(errno));
	wait_stopped();
}

static void
worker_continue(void)
{
	if (kill(W->pid, SIGCONT) != 0)
		die("cannot continue the kernel's process: %s", strerror(errno));
}

/* ---- the channel ---- */

/* m, with a CALL's args after it in the same datagram (NULL: none), and fd attached (-1: none) */
static int
send_msg(const struct ks_msg *m, const struct ks_msg_arg *args, int fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	size_t extra = args ? ks_msg_args_bytes(m) : 0;
	struct iovec iov[2] = { { (void *)m, sizeof *m }, { (void *)args, extra } };
	struct msghdr h;
	ssize_t w;

	memset(&h, 0, sizeof h);
	h.msg_iov = iov;
	h.msg_iovlen = extra ? 2 : 1;
	if (fd >= 0) {
		struct cmsghdr *c;

		memset(&u, 0, sizeof u);
		h.msg_control = u.buf;
		h.msg_controllen = sizeof u.buf;
		c = CMSG_FIRSTHDR(&h);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof fd);
	}
	do
		w = sendmsg(W->chan, &h, MSG_NOSIGNAL);
	while (w < 0 && errno == EINTR);
	return w == (ssize_t)(sizeof *m + extra) ? 0 : -1;
}

/* the worker's end of the channel closed: it is dying, or it closed it itself */
static void __attribute__((noreturn))
channel_closed(void)
{
	int status;

	/* a worker that closed its channel and lives on is ended here */
	kill(W->pid, SIGCONT);
	for (int i = 0; i < 100; i++) {
		if (waitpid(W->pid, &status, WNOHANG) == W->pid && (WIFEXITED(status) || WIFSIGNALED(status)))
			worker_died(status);
		usleep(10000);
	}
	kill(W->pid, SIGKILL);
	if (is_base()) {
		waitpid(W->pid, &status, 0);
		W->pid = -1;
		snprintf(base_why, sizeof base_why, "the base's process closed the judge's channel");
		longjmp(base_lost, 1);
	}
	die("the kernel's process closed the judge's channel");
}

/*
 * One message from the worker, *m; the worker's output copied meanwhile.
 * 0; -1 when what came is not one well-formed message (why says so).
 */
static int
recv_msg(struct ks_msg *m, char *why, size_t n)
{
	union {
		char buf[CMSG_SPACE(4 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct pollfd p[2] = { { W->chan, POLLIN, 0 }, { W->out, POLLIN, 0 } };
	struct iovec iov = { m, sizeof *m };
	struct msghdr h;
	struct cmsghdr *c;
	ssize_t r;

	for (;;) {
		/* on a GPU the judge spins: a sleeping judge's wake-up would be in every interval */
		if (poll(p, W->out >= 0 ? 2 : 1, W->spin ? 0 : -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll failed: %s", strerror(errno));
		}
		if (p[1].revents)
			drain_output();
		if (p[1].revents & (POLLHUP | POLLERR)) {
			close(W->out);
			W->out = -1;
		}
		if (p[0].revents)
			break;
	}
	memset(&h, 0, sizeof h);
	h.msg_iov = &iov;
	h.msg_iovlen = 1;
	h.msg_control = u.buf;
	h.msg_controllen = sizeof u.buf;
	do
		r = recvmsg(W->chan, &h, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		channel_closed();
	if (r < 0 && errno != EAGAIN)
		die("the judge's channel failed: %s", strerror(errno));
	/* descriptors from the worker are never wanted */
	for (c = CMSG_FIRSTHDR(&h); r > 0 && c; c = CMSG_NXTHDR(&h, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			for (size_t k = 0; k < (c->cmsg_len - CMSG_LEN(0)) / sizeof(int); k++) {
				int fd;

				memcpy(&fd, CMSG_DATA(c) + k * sizeof(int), sizeof fd);
				close(fd);
			}
	if (r != (ssize_t)sizeof *m || (h.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
		snprintf(why, n, "the kernel's process sent the judge %zd bytes that are no message of its "
		    "protocol", r);
		return -1;
	}
	return 0;
}

/* the reply expected, of this type and seq; -1 with why for anything else */
static int
expect(uint32_t type, uint32_t seq, char *why, size_t n)
{
	struct ks_msg m;

	if (recv_msg(&m, why, n) < 0)
		return -1;
	if (m.type != type || m.seq != seq) {
		snprintf(why, n, "the kernel's process sent the judge a message out of turn (type %u, call %u, "
		    "where the judge waited for type %u, call %u)", m.type, m.seq, type, seq);
		return -1;
	}
	return 0;
}

/* nothing may wait on the channel once the worker is stopped: -1 with why when something does */
static int
channel_quiet(char *why, size_t n)
{
	char c;
	ssize_t r = recv(W->chan, &c, 1, MSG_DONTWAIT | MSG_PEEK);

	if (r == 0)
		channel_closed();
	if (r > 0) {
		snprintf(why, n, "the kernel's process sent the judge a message nobody asked for");
		return -1;
	}
	return 0;
}

/*
 * The buffers the worker must drop and those it must map, told while it
 * runs outside any timed interval (it is stopped again after).  No call's
 * inputs are new here that a timed call uses: timed calls reuse buffers
 * the worker has mapped.
 */
static int
sync_buffers(char *why, size_t n)
{
	struct ks_msg m;
	int i, pending = 0;

	for (i = 0; i < MAX_SHARED; i++)
		pending += shared[i].used && !shared[i].freed == !(shared[i].mapped & w_bit());
	if (!pending)
		return 0;
	worker_continue();
	for (i = 0; i < MAX_SHARED; i++) {
		/* a live buffer W lacks (map it), or a freed one W has (unmap it) */
		if (!shared[i].used || !shared[i].freed != !(shared[i].mapped & w_bit()))
			continue;
		memset(&m, 0, sizeof m);
		m.type = shared[i].freed ? KS_MSG_UNMAP : KS_MSG_MAP;
		m.id = shared[i].id;
		m.len = shared[i].len;
		m.device = (uint32_t)shared[i].device;
		if (m.device)
			memcpy(m.handle, shared[i].handle, sizeof m.handle);
		if (send_msg(&m, NULL, shared[i].freed ? -1 : shared[i].fd) < 0)
			channel_closed();
		if (expect(KS_MSG_MAPPED, 0, why, n) < 0)
			return -1;
		shared[i].mapped ^= w_bit();
		if (shared[i].freed && !live_mappers(i))
			shared_gone(i);
	}
	worker_stop();
	return channel_quiet(why, n);
}

/* ---- fingerprints ---- */

static uint64_t
mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/*
 * A keyed hash of the bytes of every buffer in the call's arguments: the
 * worker cannot make a change that keeps it, never having seen the key.
 * Four lanes, so that the multiplications overlap.
 */
static uint64_t
fingerprint(const int *bufs, int nbufs)
{
	uint64_t h[4] = { J.key, ~J.key, J.key ^ 1, J.key ^ 2 };
	static const void *devs[MAX_CALL_BUFS];
	static size_t lens[MAX_CALL_BUFS];
	int ndev = 0;

	/* device memory: the judge's kernels hash it, all buffers in one wait */
	for (int b = 0; b < nbufs; b++)
		if (shared[bufs[b]].device) {
			devs[ndev] = shared[bufs[b]].p;
			lens[ndev++] = shared[bufs[b]].len;
		}
	if (ndev)
		h[0] ^= mix(ks_gpu_fingerprint(devs, lens, ndev, J.key));
	for (int b = 0; b < nbufs; b++) {
		const unsigned char *p = (const unsigned char *)shared[bufs[b]].p;
		size_t len = shared[bufs[b]].len, i = 0;
		uint64_t w[4];

		if (shared[bufs[b]].device)
			continue;

		for (; i + 32 <= len; i += 32) {
			memcpy(w, p + i, 32);
			for (int l = 0; l < 4; l++)
				h[l] = (h[l] ^ w[l]) * UINT64_C(0x9e3779b97f4a7c15);
		}
		for (; i < len; i++)
			h[0] = (h[0] ^ p[i]) * UINT64_C(0x100000001b3);
		h[1] ^= len;
	}
	return mix(h[0] ^ mix(h[1] ^ mix(h[2] ^ mix(h[3]))));
}

/* ---- one exchange ---- */

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* the median of t[0..n), sorted, and its middle half's width into *spread */
static double
median_of(double *t, int n, double *spread)
{
	qsort(t, n, sizeof t[0], cmp_double);
	if (spread)
		*spread = t[3 * n / 4] - t[n / 4];
	return t[n / 2];
}


/* a GPU runner: the kernel's work is on a device, which the judge waits for itself */
static int
on_device(void)
{
	return ks_gpu_judge_settle != NULL;
}

int
ks_judge_on_device(void)
{
	return on_device();
}

/*
 * The timed part of a call: from waking the worker to its being stopped
 * after it said the call returned (and, on a GPU, to the judge's own
 * kernel done after it).  Everything the worker does in between is inside
 * the interval; *worker_s is what the worker says it measured (a GPU's
 * events; 0 on the CPU).  -1 with why when the reply is not the one due.
 */
static int
timed_exchange(struct ks_msg *m, const struct ks_msg_arg *args, const int *bufs, int nbufs, uint64_t *print,
    double *dt, double *worker_s, char *why, size_t n)
{
	struct ks_msg r;
	double t0;

	m->seq = ++W->seq;
	if (on_device())
		ks_gpu_judge_before_call();
	t0 = now();
	worker_continue();
	if (send_msg(m, args, -1) < 0)
		channel_closed();
	W->spin = on_device() && !J.pinned;
	if (recv_msg(&r, why, n) < 0) {
		W->spin = 0;
		return -1;
	}
	W->spin = 0;
	if (r.type != KS_MSG_DONE || r.seq != m->seq) {
		snprintf(why, n, "the kernel's process sent the judge a message out of turn (type %u, call %u, "
		    "where the judge waited for type %u, call %u)", r.type, r.seq, KS_MSG_DONE, m->seq);
		return -1;
	}
	if (on_device()) {
		/*
		 * The worker stopped, so it queues nothing more; then the
		 * judge's own kernel, waited for: the device runs it once the
		 * worker's work is done (or pushed off, which the fingerprint
		 * after it then shows).  The fingerprint is outside the
		 * interval, but timed against its cost without the worker:
		 * work of the worker's still on the device would hold it up.
		 */
		double t3;
#ifdef KS_JUDGE_TRACE
		double t1 = now(), t2;
#endif

		worker_stop();
#ifdef KS_JUDGE_TRACE
		t2 = now();
#endif
		ks_gpu_judge_settle();
		t3 = now();
		*print = nbufs ? fingerprint(bufs, nbufs) : 0;
		W->last_fp_s = now() - t3;
		/* a fingerprint held up past its own cost: the worker's work went on; that wait counts */
		*dt = t3 - t0;
		if (nbufs && W->last_fp_s > FP_SLOW_SHARE * W->fp_s + FP_SLOW_S)
			*dt += W->last_fp_s - FP_SLOW_SHARE * W->fp_s - FP_SLOW_S;
#ifdef KS_JUDGE_TRACE
		fprintf(stderr, "judge-parts nbufs %d w %.2f done %.2f stop %.2f settle %.2f fp %.2f\n", nbufs,
		    r.seconds * 1e6, (t1 - t0) * 1e6, (t2 - t1) * 1e6, (t3 - t2) * 1e6, W->last_fp_s * 1e6);
#endif
	} else {
		worker_stop();
		*dt = now() - t0;
		*print = nbufs ? fingerprint(bufs, nbufs) : 0;
	}
	*worker_s = r.seconds;
	W->last_dt = *dt;
	return channel_quiet(why, n);
}

/*
 * What the judge's fingerprint of these buffers costs: measured by the
 * judge alone, with the worker stopped and nothing of its on the device,
 * once per set of buffers (a shape's).
 */
static void
measure_fingerprint(const int *bufs, int nbufs)
{
	double fp[9], t0;
	int same = W->fp_n == nbufs;

	for (int b = 0; b < nbufs && same; b++)
		same = W->fp_ids[b] == shared[bufs[b]].id;
	if (same)
		return;
	ks_gpu_judge_settle();
	for (int i = 0; i < 9; i++) {
		t0 = now();
		(void)fingerprint(bufs, nbufs);
		fp[i] = now() - t0;
	}
	W->fp_s = median_of(fp, 9, NULL);
	for (int b = 0; b < nbufs; b++)
		W->fp_ids[b] = shared[bufs[b]].id;
	W->fp_n = nbufs;
}

/* the worker runs with no command for a while, and is stopped again; its output drained */
static void
quiet_period(double call_s)
{
	double d = call_s * QUIET_SHARE, end;
	struct pollfd p = { W->out, POLLIN, 0 };

	if (d < QUIET_MIN_S)
		d = QUIET_MIN_S;
	if (d > QUIET_MAX_S)
		d = QUIET_MAX_S;
	worker_continue();
	end = now() + d;
	for (double left = d; left > 0; left = end - now()) {
		int ms = (int)(left * 1e3);

		if (W->out < 0 || ms < 1) {
			struct timespec ts = { 0, (long)(left * 1e9) };

			nanosleep(&ts, NULL);
			break;
		}
		if (poll(&p, 1, ms) > 0)
			drain_output();
	}
	worker_stop();
}

/* a worker that broke a rule is ended at once: the verdict is written without it */
static int
refused(void)
{
	int status;

	kill(W->pid, SIGKILL);
	while (waitpid(W->pid, &status, 0) < 0 && errno == EINTR)
		;
	drain_output();
	W->pid = -1;
	return -1;
}

/* the median of the latest timed calls' shortfalls */
static double
median_short(void)
{
	static double t[SHORTS_KEPT];
	int n = W->calls < SHORTS_KEPT ? (int)W->calls : SHORTS_KEPT;

	memcpy(t, W->shorts, n * sizeof t[0]);
	return median_of(t, n, NULL);
}

/* 0 while the median shortfall of the timed calls is within the margin; -1, with why, past it */
static int
shortfall_within(char *why, size_t n)
{
	double med;

	if (W->calls == 0 || (med = median_short()) <= W->margin_s)
		return 0;
	snprintf(why, n, "the kernel's process said its calls took less than the judge saw: by a median of "
	    "%.1f us more than %.0f%% of the call over its latest %ld timed calls, past a margin of %.1f us: "
	    "its times cannot stand", med * 1e6, MARGIN_SHARE * 100,
	    W->calls < SHORTS_KEPT ? W->calls : (long)SHORTS_KEPT, W->margin_s * 1e6);
	return -1;
}

/*
 * A floor (the field at offset off of struct worker), the least of the
 * live workers' measures: the exchange is the same harness code in each,
 * and a side-by-side's two kernels must have the same subtracted, or its
 * ratio would carry the difference of two noisy floors (30 us of 300 on
 * this project's 2-CPU machine before it was shared).
 */
static double
least_of_workers(size_t off)
{
	double least = *(const double *)((const char *)W + off);

	for (int k = 0; k < KS_JUDGE_WORKERS; k++) {
		double f = *(const double *)((const char *)&workers[k] + off);

		if (workers[k].pid > 0 && f < least)
			least = f;
	}
	return least;
}

/*
 * A GPU call's time: the worker's events, less their own cost, as far as
 * the judge's interval bears them out.  The judge's interval, less an
 * empty call's exchange, is the most the call can have taken; the
 * worker's time may fall short of it, since a real call's exchange costs
 * more than an empty one's and the judge's process is now and then held
 * up, but not by much for long: past the margin by the median of the
 * latest timed calls, the worker's times cannot stand (rejected); a
 * single call past CALL_MARGINS margins is taken at that bound.  Only
 * timed calls are held to it: a check's or a warm-up's time counts for
 * nothing, and a shape's first calls (new buffers, code loaded on first
 * use) stood further short on the H200 (kernels/GPU-RESULTS.md).
 */
static int
device_time(double dt, double worker_s, double *seconds, char *why, size_t n)
{
	double margin = W->margin_s + MARGIN_SHARE * dt, most = dt - W->gap_s, t = worker_s;

	/* not a number is no time at all */
	if (!(t >= 0))
		t = 0;
	W->shorts[W->calls % SHORTS_KEPT] = most - t - MARGIN_SHARE * dt;
	W->calls++;
#ifdef KS_JUDGE_TRACE
	fprintf(stderr, "judge-trace call %ld dt %.2f w %.2f fp %.2f/%.2f gap %.2f margin %.2f short %.2f\n", W->calls,
	    dt * 1e6, worker_s * 1e6, W->last_fp_s * 1e6, W->fp_s * 1e6, W->gap_s * 1e6, margin * 1e6,
	    (most - t) * 1e6);
#endif
	if (t < most - CALL_MARGINS * margin) {
		W->clamped++;
		t = most - CALL_MARGINS * margin;
	}
	/* the median looked at on every call while there are few, then on every 16th */
	if (W->calls >= SHORTS_MIN && (W->calls < 64 || W->calls % 16 == 0) && shortfall_within(why, n) < 0)
		return -1;
	t -= least_of_workers(offsetof(struct worker, events_floor_s));
	*seconds = t > 0 ? t : 0;
	return 0;
}

int
ks_judge_times_stand(char *why, size_t n)
{
	return on_device() && !W->unconfined ? shortfall_within(why, n) : 0;
}

/*
 * The pointer arguments of one call on each state, into the CALL's args
 * and the call's buffers, each once, into bufs; the number of buffers.
 */
static int
call_args(struct ks_msg *m, struct ks_msg_arg *args, void *const *states, int nstates, int *bufs)
{
	static unsigned stamp[MAX_SHARED], now_stamp;
	void *ptrs[KS_JUDGE_MAX_ARGS];
	int nbufs = 0, nargs = 0;

	if (!ks_problem.args)
		die("problem '%s' gives no args() for its judge", ks_problem.name);
	/* a buffer is in bufs once: its slot stamped with this exchange's number */
	if (++now_stamp == 0) {
		memset(stamp, 0, sizeof stamp);
		now_stamp = 1;
	}
	for (int c = 0; c < nstates; c++) {
		int got = ks_problem.args(states[c], ptrs, KS_JUDGE_MAX_ARGS);

		if (got < 0 || got > KS_JUDGE_MAX_ARGS || (c > 0 && got != nargs))
			die("problem '%s': args() gave %d arguments", ks_problem.name, got);
		nargs = got;
		for (int i = 0; i < nargs; i++) {
			struct ks_msg_arg *a = &args[c * nargs + i];
			int b = shared_holding(ptrs[i]);

			if (b < 0)
				die("problem '%s': argument %d is not in shared memory (a bug of its harness)",
				    ks_problem.name, i);
			a->id = shared[b].id;
			a->off = (uint64_t)((char *)ptrs[i] - (char *)shared[b].p);
			if (stamp[b] != now_stamp) {
				stamp[b] = now_stamp;
				bufs[nbufs++] = b;
			}
		}
	}
	m->nargs = (uint32_t)nargs;
	m->ncalls = (uint32_t)nstates;
	return nbufs;
}

static int
judge_call(const int *dims, void *const *states, int nstates, double *seconds, char *why, size_t n)
{
	static struct ks_msg_arg args[KS_JUDGE_MAX_BATCH * KS_JUDGE_MAX_ARGS];
	static int bufs[MAX_CALL_BUFS];
	double floor;
	int nbufs, i;
	struct ks_msg m;
	uint64_t before, after;
	double dt, worker_s;

	if (W->pid <= 0)
		die("a call after the kernel's process was ended (a bug of the runner)");
	if (nstates < 1 || nstates > KS_JUDGE_MAX_BATCH)
		die("a batch of %d calls (a bug of the runner)", nstates);
	if (sync_buffers(why, n) < 0)
		return refused();
	memset(&m, 0, sizeof m);
	m.type = KS_MSG_CALL;
	m.profile = (uint32_t)W->profiling;
	for (i = 0; i < ks_problem.ndims; i++)
		m.dims[i] = dims[i];
	nbufs = call_args(&m, args, states, nstates, bufs);
	if (on_device())
		measure_fingerprint(bufs, nbufs);
	/* what the kernel left when it said it was done, and again after it ran with no call */
	if (timed_exchange(&m, args, bufs, nbufs, &before, &dt, &worker_s, why, n) < 0)
		return refused();
	quiet_period(dt);
	after = fingerprint(bufs, nbufs);
	if (before != after) {
		snprintf(why, n, "the kernel's memory changed after its call returned (work after the return "
		    "counts for nothing and is not allowed)");
		return refused();
	}
	if (channel_quiet(why, n) < 0)
		return refused();
	if (!seconds)
		return 0;
	if (on_device() && W->unconfined) {
		/* --profile: no time is kept */
		*seconds = worker_s;
		return 0;
	}
	if (on_device())
		return device_time(dt, worker_s, seconds, why, n) < 0 ? refused() : 0;
	floor = least_of_workers(offsetof(struct worker, floor_s));
	*seconds = dt > floor ? dt - floor : 0;
	return 0;
}

int
ks_judge_call_batch(const int *dims, void *const *states, int nstates, double *seconds, char *why, size_t n)
{
	if (is_base() && setjmp(base_lost)) {
		snprintf(why, n, "%s", base_why);
		return -1;
	}
	return judge_call(dims, states, nstates, seconds, why, n);
}

int
ks_judge_call(const int *dims, void *state, double *seconds, char *why, size_t n)
{
	return ks_judge_call_batch(dims, &state, 1, seconds, why, n);
}

double
ks_judge_last_bound(void)
{
	double b = W->last_dt - (on_device() ? W->gap_s : W->floor_s);

	return b > 0 ? b : 0;
}

size_t
ks_judge_shared_bytes(void)
{
	size_t bytes = 0;

	for (int i = 0; i < MAX_SHARED; i++)
		if (shared[i].used && !shared[i].freed)
			bytes += shared[i].len;
	return bytes;
}

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

/* the child: fds 0 to 3 as ks_judge.h says, nothing else, then the worker */
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
	if ((W->pid = fork()) < 0)
		die("cannot start the worker: %s", strerror(errno));
	if (W->pid == 0)
		exec_worker(worker_path, sv[1], pipefd[1], unconfined);
	close(sv[1]);
	close(pipefd[1]);
	W->chan = sv[0];
	W->out = pipefd[0];
	fcntl(W->out, F_SETFL, O_NONBLOCK);
	if (recv_msg(&m, why, sizeof why) < 0)
		die("the worker '%s' did not start as one: %s", worker_path, why);
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
