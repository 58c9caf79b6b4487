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
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
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

#define MAX_SHARED	64		/* live shared buffers */
#define FLOOR_WARMUP_S	0.05		/* empty calls for this long before the floor is measured */
#define FLOOR_CALLS	401		/* empty calls measured */
#define REFLOOR_CALLS	31		/* empty calls of a shape's own measure of the floor */
#define LOG_CAP		((size_t)1 << 20) /* the worker's output copied to the log, at most */
#define OUTPUT_MAX	((size_t)64 << 20) /* and what it may write in all */
#define QUIET_MIN_S	100e-6		/* the quiet period after a call: at least this, */
#define QUIET_SHARE	0.1		/* or this share of the call */
#define QUIET_MAX_S	20e-3		/* and at most this */
#define TEXT_MAX	1024

static struct {
	void *p;
	size_t len;
	int fd;
	uint32_t id;
	int mapped;		/* the worker has it */
	int freed;		/* ks_shared_free'd: the worker must drop it */
	int used;
} shared[MAX_SHARED];

static struct {
	pid_t pid;
	int chan;		/* the judge's end of the channel */
	int out;		/* the read end of the worker's stdout and stderr */
	uint32_t next_id, seq;
	double floor_s;		/* the empty call's median: the least of every measure */
	double first_floor_s;	/* the measure before any code of the candidate ran */
	double floor_spread_s;	/* the middle half of the empty calls' spread, then */
	uint64_t key;		/* of the fingerprints; the worker never sees it */
	size_t logged, dropped;	/* bytes of the worker's output copied, and not */
	char text[TEXT_MAX];
} W = { .pid = -1, .chan = -1, .out = -1 };

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
	if (W.pid > 0)
		kill(W.pid, SIGKILL);
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

void *
ks_shared_alloc(size_t bytes)
{
	size_t len = bytes ? bytes : 1;
	void *p;
	int fd, i;

	for (i = 0; i < MAX_SHARED && shared[i].used; i++)
		;
	if (i == MAX_SHARED)
		die("more than %d shared buffers at once (a bug of the problem's harness)", MAX_SHARED);
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
	shared[i].id = ++W.next_id;
	shared[i].mapped = shared[i].freed = 0;
	shared[i].used = 1;
	return p;
}

void
ks_shared_free(void *p)
{
	int i;

	if (!p)
		return;
	for (i = 0; i < MAX_SHARED; i++)
		if (shared[i].used && !shared[i].freed && shared[i].p == p)
			break;
	if (i == MAX_SHARED)
		die("ks_shared_free of memory ks_shared_alloc did not give (a bug of the problem's harness)");
	munmap(shared[i].p, shared[i].len);
	close(shared[i].fd);
	shared[i].p = NULL;
	shared[i].fd = -1;
	shared[i].freed = 1;
	/* the worker is told at the next exchange; never mapped, it needs no word */
	if (!shared[i].mapped)
		shared[i].used = 0;
}

/* the shared buffer that holds p, or -1 */
static int
shared_holding(const void *p)
{
	for (int i = 0; i < MAX_SHARED; i++)
		if (shared[i].used && !shared[i].freed && (const char *)p >= (const char *)shared[i].p &&
		    (const char *)p <= (const char *)shared[i].p + shared[i].len)
			return i;
	return -1;
}

/* ---- the worker's output, copied to the log ---- */

static void
drain_output(void)
{
	char buf[65536];
	ssize_t r;

	while (W.out >= 0 && (r = read(W.out, buf, sizeof buf)) > 0) {
		size_t keep = W.logged < LOG_CAP ? LOG_CAP - W.logged : 0;

		if (keep > (size_t)r)
			keep = (size_t)r;
		if (keep && write(2, buf, keep) < 0)
			keep = 0;
		W.logged += keep;
		W.dropped += (size_t)r - keep;
		if (W.logged + W.dropped > OUTPUT_MAX)
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
	W.pid = -1;
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
		r = waitpid(W.pid, &status, WUNTRACED);
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
	if (kill(W.pid, SIGSTOP) != 0)
		die("cannot stop the kernel's process: %s", strerror(errno));
	wait_stopped();
}

static void
worker_continue(void)
{
	if (kill(W.pid, SIGCONT) != 0)
		die("cannot continue the kernel's process: %s", strerror(errno));
}

/* ---- the channel ---- */

static int
send_msg(const struct ks_msg *m, int fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { (void *)m, sizeof *m };
	struct msghdr h;
	ssize_t w;

	memset(&h, 0, sizeof h);
	h.msg_iov = &iov;
	h.msg_iovlen = 1;
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
		w = sendmsg(W.chan, &h, MSG_NOSIGNAL);
	while (w < 0 && errno == EINTR);
	return w == (ssize_t)sizeof *m ? 0 : -1;
}

/* the worker's end of the channel closed: it is dying, or it closed it itself */
static void __attribute__((noreturn))
channel_closed(void)
{
	int status;

	/* a worker that closed its channel and lives on is ended here */
	kill(W.pid, SIGCONT);
	for (int i = 0; i < 100; i++) {
		if (waitpid(W.pid, &status, WNOHANG) == W.pid && (WIFEXITED(status) || WIFSIGNALED(status)))
			worker_died(status);
		usleep(10000);
	}
	kill(W.pid, SIGKILL);
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
	struct pollfd p[2] = { { W.chan, POLLIN, 0 }, { W.out, POLLIN, 0 } };
	struct iovec iov = { m, sizeof *m };
	struct msghdr h;
	struct cmsghdr *c;
	ssize_t r;

	for (;;) {
		if (poll(p, W.out >= 0 ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll failed: %s", strerror(errno));
		}
		if (p[1].revents)
			drain_output();
		if (p[1].revents & (POLLHUP | POLLERR)) {
			close(W.out);
			W.out = -1;
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
		r = recvmsg(W.chan, &h, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
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
	ssize_t r = recv(W.chan, &c, 1, MSG_DONTWAIT | MSG_PEEK);

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
		pending += shared[i].used && (shared[i].freed || !shared[i].mapped);
	if (!pending)
		return 0;
	worker_continue();
	for (i = 0; i < MAX_SHARED; i++) {
		if (!shared[i].used || (shared[i].mapped && !shared[i].freed))
			continue;
		memset(&m, 0, sizeof m);
		m.type = shared[i].freed ? KS_MSG_UNMAP : KS_MSG_MAP;
		m.id = shared[i].id;
		m.len = shared[i].len;
		if (send_msg(&m, shared[i].freed ? -1 : shared[i].fd) < 0)
			channel_closed();
		if (expect(KS_MSG_MAPPED, 0, why, n) < 0)
			return -1;
		if (shared[i].freed)
			shared[i].used = 0;
		else
			shared[i].mapped = 1;
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
	uint64_t h[4] = { W.key, ~W.key, W.key ^ 1, W.key ^ 2 };

	for (int b = 0; b < nbufs; b++) {
		const unsigned char *p = (const unsigned char *)shared[bufs[b]].p;
		size_t len = shared[bufs[b]].len, i = 0;
		uint64_t w[4];

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

/*
 * The timed part of a call: from waking the worker to its being stopped
 * after it said the call returned.  Everything the worker does in between
 * is inside the interval.  -1 with why when the reply is not the one due.
 */
static int
timed_exchange(struct ks_msg *m, double *dt, char *why, size_t n)
{
	double t0;

	m->seq = ++W.seq;
	t0 = now();
	worker_continue();
	if (send_msg(m, -1) < 0)
		channel_closed();
	if (expect(KS_MSG_DONE, m->seq, why, n) < 0)
		return -1;
	worker_stop();
	*dt = now() - t0;
	return channel_quiet(why, n);
}

/* the worker runs with no command for a while, and is stopped again; its output drained */
static void
quiet_period(double call_s)
{
	double d = call_s * QUIET_SHARE, end;
	struct pollfd p = { W.out, POLLIN, 0 };

	if (d < QUIET_MIN_S)
		d = QUIET_MIN_S;
	if (d > QUIET_MAX_S)
		d = QUIET_MAX_S;
	worker_continue();
	end = now() + d;
	for (double left = d; left > 0; left = end - now()) {
		int ms = (int)(left * 1e3);

		if (W.out < 0 || ms < 1) {
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

	kill(W.pid, SIGKILL);
	while (waitpid(W.pid, &status, 0) < 0 && errno == EINTR)
		;
	drain_output();
	W.pid = -1;
	return -1;
}

int
ks_judge_call(const int *dims, void *state, double *seconds, char *why, size_t n)
{
	void *ptrs[KS_JUDGE_MAX_ARGS];
	int bufs[KS_JUDGE_MAX_ARGS], nbufs = 0, nargs, i, b, k;
	struct ks_msg m;
	uint64_t before, after;
	double dt;

	if (W.pid <= 0)
		die("a call after the kernel's process was ended (a bug of the runner)");
	if (!ks_problem.args)
		die("problem '%s' gives no args() for its judge", ks_problem.name);
	nargs = ks_problem.args(state, ptrs, KS_JUDGE_MAX_ARGS);
	if (nargs < 0 || nargs > KS_JUDGE_MAX_ARGS)
		die("problem '%s': args() gave %d arguments", ks_problem.name, nargs);
	if (sync_buffers(why, n) < 0)
		return refused();
	memset(&m, 0, sizeof m);
	m.type = KS_MSG_CALL;
	m.nargs = (uint32_t)nargs;
	for (i = 0; i < ks_problem.ndims; i++)
		m.dims[i] = dims[i];
	for (i = 0; i < nargs; i++) {
		if ((b = shared_holding(ptrs[i])) < 0)
			die("problem '%s': argument %d is not in shared memory (a bug of its harness)",
			    ks_problem.name, i);
		m.args[i].id = shared[b].id;
		m.args[i].off = (uint64_t)((char *)ptrs[i] - (char *)shared[b].p);
		for (k = 0; k < nbufs && bufs[k] != b; k++)
			;
		if (k == nbufs)
			bufs[nbufs++] = b;
	}
	if (timed_exchange(&m, &dt, why, n) < 0)
		return refused();
	/* what the kernel left when it said it was done, and again after it ran with no call */
	before = fingerprint(bufs, nbufs);
	quiet_period(dt);
	after = fingerprint(bufs, nbufs);
	if (before != after) {
		snprintf(why, n, "the kernel's memory changed after its call returned (work after the return "
		    "counts for nothing and is not allowed)");
		return refused();
	}
	if (channel_quiet(why, n) < 0)
		return refused();
	*seconds = dt > W.floor_s ? dt - W.floor_s : 0;
	return 0;
}

/* ---- start and end ---- */

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* the median of n empty calls into t, and their middle half's width into *spread */
static double
empty_calls(double *t, int n, double *spread)
{
	struct ks_msg m;
	char why[200];

	memset(&m, 0, sizeof m);
	m.type = KS_MSG_EMPTY;
	for (int i = 0; i < n; i++)
		if (timed_exchange(&m, &t[i], why, sizeof why) < 0)
			die("the kernel's process broke the judge's protocol on an empty call: %s", why);
	qsort(t, n, sizeof t[0], cmp_double);
	if (spread)
		*spread = t[3 * n / 4] - t[n / 4];
	return t[n / 2];
}

/*
 * The floor: the median of FLOOR_CALLS empty calls, before any code of
 * the candidate ran, after FLOOR_WARMUP_S of them (the two processes'
 * CPUs awake and their caches warm, as they are between timed calls).
 */
static void
measure_floor(void)
{
	double t[FLOOR_CALLS], end;

	for (end = now() + FLOOR_WARMUP_S; now() < end;)
		empty_calls(t, 1, NULL);
	W.floor_s = W.first_floor_s = empty_calls(t, FLOOR_CALLS, &W.floor_spread_s);
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
	double t[REFLOOR_CALLS], f;

	if (W.pid <= 0)
		return;
	f = empty_calls(t, REFLOOR_CALLS, NULL);
	if (f < W.floor_s)
		W.floor_s = f;
}

/* the child: fds 0 to 3 as ks_judge.h says, nothing else, then the worker */
static void __attribute__((noreturn))
exec_worker(const char *path, int chan, int out)
{
	extern char **environ;
	char *argv[] = { (char *)path, NULL };
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

void
ks_judge_start(const char *worker_path)
{
	int sv[2], pipefd[2];
	struct ks_msg m;
	char why[200];

	if (access(worker_path, X_OK) != 0)
		die("cannot run the worker '%s': %s", worker_path, strerror(errno));
	if (getrandom(&W.key, sizeof W.key, 0) != (ssize_t)sizeof W.key)
		W.key = mix((uint64_t)getpid() ^ (uint64_t)(now() * 1e9));
	/* a dead worker's channel must fail the write, not kill the judge; so must a buffer too large */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0 || pipe2(pipefd, O_CLOEXEC) != 0)
		die("cannot make the worker's channel: %s", strerror(errno));
	fflush(NULL);
	if ((W.pid = fork()) < 0)
		die("cannot start the worker: %s", strerror(errno));
	if (W.pid == 0)
		exec_worker(worker_path, sv[1], pipefd[1]);
	close(sv[1]);
	close(pipefd[1]);
	W.chan = sv[0];
	W.out = pipefd[0];
	fcntl(W.out, F_SETFL, O_NONBLOCK);
	if (recv_msg(&m, why, sizeof why) < 0)
		die("the worker '%s' did not start as one: %s", worker_path, why);
	if (m.type != KS_MSG_READY)
		die("the worker '%s' did not start as one: its first message is no READY", worker_path);
	m.error[sizeof m.error - 1] = '\0';
	if (m.error[0])
		die("the worker could not lock itself down (%s): the kernel is not run unconfined", m.error);
	worker_stop();
	measure_floor();
}

const char *
ks_judge_timer_text(void)
{
	snprintf(W.text, sizeof W.text,
	    "the judge's CLOCK_MONOTONIC, in a process the kernel never runs in, from waking the kernel's "
	    "process to its being stopped after it said the call returned; %.1f us (the median of %d empty "
	    "calls measured before the kernel ran; middle half %.1f us wide), or the median of %d measured "
	    "again before a shape's timed calls where lower (at least %.1f us), is subtracted from each time; "
	    "time_us = median of the timed runs after warm-up, repeated until the standard error of the mean "
	    "is under 0.5%% of the mean or the time cap", W.first_floor_s * 1e6, FLOOR_CALLS,
	    W.floor_spread_s * 1e6, REFLOOR_CALLS, W.floor_s * 1e6);
	return W.text;
}

void
ks_judge_finish(void)
{
	struct ks_msg m;
	int status;

	if (W.pid <= 0)
		return;
	memset(&m, 0, sizeof m);
	m.type = KS_MSG_QUIT;
	worker_continue();
	(void)send_msg(&m, -1);
	for (int i = 0; i < 200; i++) {
		pid_t r = waitpid(W.pid, &status, WNOHANG);

		drain_output();
		if (r == W.pid && (WIFEXITED(status) || WIFSIGNALED(status)))
			break;
		if (i == 199) {
			kill(W.pid, SIGKILL);
			waitpid(W.pid, &status, 0);
		}
		usleep(5000);
	}
	drain_output();
	if (W.dropped)
		fprintf(stderr, "runner: %zu more bytes of the kernel's output were not kept\n", W.dropped);
	W.pid = -1;
}
