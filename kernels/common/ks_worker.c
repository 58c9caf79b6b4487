/*
 * ks_worker.c: main() of the worker, the process in which the candidate's
 * kernel runs (ks_judge.h says what it gets and how the judge drives it).
 *
 * It locks itself down before it answers the judge, and so before any
 * code of the candidate can run (the candidate's object has no
 * constructors: ks-build refuses them): a seccomp filter on every thread
 * (SECCOMP_FILTER_FLAG_TSYNC, after OpenMP's team has started, since
 * thread stacks need mprotect) that lets through only the system calls a
 * computation and this loop need.  Then it serves the channel: maps the
 * buffers it is sent, calls the kernel when told, says when it returned.
 *
 * Nothing here is trusted by the judge: the candidate can read and write
 * all of this process.  What it cannot do is reach the judge, which is
 * what the filter and the process boundary are for; and the judge does
 * not rely on this file for that: the process starts without capabilities
 * and under the judge's gate (ks_judge.c, ks_filter.c), which holds even
 * where this filter was never installed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <linux/seccomp.h>

#include "ks_judge.h"

#define MAX_BUFFERS	(2 * KS_JUDGE_MAX_BUFFERS)	/* slots of the buffers mapped: half empty at most */

/* a GPU worker's device side (ks_worker_gpu.hip); absent from a CPU worker */
const char *ks_worker_device_start(void) __attribute__((weak));
void *ks_worker_device_open(const unsigned char *handle, size_t len) __attribute__((weak));
void ks_worker_device_close(void *dev) __attribute__((weak));
double ks_worker_device_time(void (*call)(const struct ks_msg *), const struct ks_msg *m) __attribute__((weak));
void ks_worker_device_profile(int on) __attribute__((weak));

/* the buffers mapped, by id: open addressing from slot id % MAX_BUFFERS (a batch's arguments are many) */
static struct {
	uint32_t id;
	void *p;
	size_t len;
	int used;	/* 1: a buffer; -1: one was here (a lookup goes on past it) */
	int device;	/* opened by its IPC handle */
} buffers[MAX_BUFFERS];
static int nbuffers;

/* a CALL's arguments, which follow its message, and the pointers they stand for */
static struct ks_msg_arg call_args[KS_JUDGE_MAX_BATCH * KS_JUDGE_MAX_ARGS];
static void *call_ptrs[KS_JUDGE_MAX_BATCH][KS_JUDGE_MAX_ARGS];

static void
fail(const char *what)
{
	fprintf(stderr, "worker: %s\n", what);
	exit(3);
}

/* ---- the seccomp filter ---- */

#include "ks_filter.c"

/*
 * What a call outside the list gets: EPERM; built with -DKS_WORKER_TRACE
 * (by hand, to learn what a runtime needs), a SIGSYS that prints the
 * call's number and then fails it with EPERM.
 */
#ifdef KS_WORKER_TRACE
#define DENIED		(SECCOMP_RET_TRAP)
#else
#define DENIED		RET_EPERM
#endif

#ifdef KS_WORKER_TRACE
#include <ucontext.h>

static void
on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	char line[64];
	int len = snprintf(line, sizeof line, "worker: denied system call %d\n", si->si_syscall);

	(void)sig;
	if (write(2, line, (size_t)len) < 0)
		return;
	((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RAX] = -EPERM;
}

static void
trace_denied(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSYS, &sa, NULL);
}
#endif

static const char *
lock_down(void)
{
	static char why[160];
	static struct filter fl;
	struct sock_fprog prog;

#ifdef KS_WORKER_TRACE
	trace_denied();
#endif
	fl.deny = DENIED;
	build_filter(&fl, getpid(), ks_worker_device_start != NULL, 0, KS_JUDGE_CHANNEL_FD);
	if (fl.overflow)
		fail("the seccomp filter is too long (a bug of ks_filter.c)");
	prog.len = fl.n;
	prog.filter = fl.f;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		snprintf(why, sizeof why, "prctl(PR_SET_NO_NEW_PRIVS) failed: %s", strerror(errno));
		return why;
	}
	if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog) != 0) {
		snprintf(why, sizeof why, "seccomp(SECCOMP_SET_MODE_FILTER, TSYNC) failed: %s", strerror(errno));
		return why;
	}
	return NULL;
}

/* ---- the channel ---- */

static void
reply(uint32_t type, uint32_t seq, uint32_t id, const char *error, double seconds)
{
	struct ks_msg m;

	memset(&m, 0, sizeof m);
	m.type = type;
	m.seq = seq;
	m.id = id;
	m.seconds = seconds;
	if (error)
		snprintf(m.error, sizeof m.error, "%s", error);
	if (send(KS_JUDGE_CHANNEL_FD, &m, sizeof m, MSG_NOSIGNAL) != (ssize_t)sizeof m)
		exit(3);
}

/* the next message (a CALL's arguments into call_args), and the descriptor sent with it (-1: none) */
static void
receive(struct ks_msg *m, int *fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov[2] = { { m, sizeof *m }, { call_args, sizeof call_args } };
	struct msghdr h;
	struct cmsghdr *c;
	ssize_t r;

	memset(&h, 0, sizeof h);
	h.msg_iov = iov;
	h.msg_iovlen = 2;
	h.msg_control = u.buf;
	h.msg_controllen = sizeof u.buf;
	*fd = -1;
	do
		r = recvmsg(KS_JUDGE_CHANNEL_FD, &h, MSG_CMSG_CLOEXEC);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		exit(0);	/* the judge is gone */
	if (r < (ssize_t)sizeof *m || (h.msg_flags & MSG_TRUNC))
		fail("a message of the wrong size on the channel");
	if (m->type == KS_MSG_CALL && (m->ncalls < 1 || m->ncalls > KS_JUDGE_MAX_BATCH ||
	    m->nargs > KS_JUDGE_MAX_ARGS))
		fail("a call of too many calls or arguments");
	if ((size_t)r != sizeof *m + (m->type == KS_MSG_CALL ? ks_msg_args_bytes(m) : 0))
		fail("a message of the wrong size on the channel");
	for (c = CMSG_FIRSTHDR(&h); c; c = CMSG_NXTHDR(&h, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			memcpy(fd, CMSG_DATA(c), sizeof *fd);
}

static void
map_buffer(const struct ks_msg *m, int fd)
{
	void *p;
	uint32_t i = m->id % MAX_BUFFERS;

	if (nbuffers >= KS_JUDGE_MAX_BUFFERS)
		fail("too many buffers");
	while (buffers[i].used == 1)
		i = (i + 1) % MAX_BUFFERS;
	if (m->device) {
		if (!ks_worker_device_open)
			fail("device memory sent to a worker without a device");
		if ((p = ks_worker_device_open(m->handle, m->len)) == NULL)
			fail("cannot open a device buffer by its IPC handle");
	} else {
		if (fd < 0)
			fail("MAP without a descriptor");
		p = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		close(fd);
		if (p == MAP_FAILED)
			fail("cannot map a buffer");
	}
	buffers[i].id = m->id;
	buffers[i].p = p;
	buffers[i].len = m->len;
	buffers[i].device = m->device != 0;
	buffers[i].used = 1;
	nbuffers++;
}

static uint32_t
find_buffer(uint32_t id)
{
	for (uint32_t i = id % MAX_BUFFERS, n = 0; n < MAX_BUFFERS && buffers[i].used; i = (i + 1) % MAX_BUFFERS, n++)
		if (buffers[i].used == 1 && buffers[i].id == id)
			return i;
	fail("a buffer the judge never sent");
	return 0;
}

static void
unmap_buffer(uint32_t id)
{
	uint32_t i = find_buffer(id);

	if (buffers[i].device)
		ks_worker_device_close(buffers[i].p);
	else
		munmap(buffers[i].p, buffers[i].len);
	buffers[i].used = -1;
	nbuffers--;
}

/* a CALL's arguments made pointers, every call's, before any call runs (and before a GPU's timing starts) */
static void
resolve_args(const struct ks_msg *m)
{
	for (uint32_t c = 0; c < m->ncalls; c++)
		for (uint32_t a = 0; a < m->nargs; a++) {
			const struct ks_msg_arg *arg = &call_args[c * m->nargs + a];
			uint32_t i = find_buffer(arg->id);

			if (arg->off > buffers[i].len)
				fail("an argument outside its buffer");
			call_ptrs[c][a] = (char *)buffers[i].p + arg->off;
		}
}

/* the calls of a CALL, back to back */
static void
call(const struct ks_msg *m)
{
	int dims[KS_MAX_DIMS];

	memcpy(dims, m->dims, sizeof dims);
	for (uint32_t c = 0; c < m->ncalls; c++)
		ks_call(dims, call_ptrs[c]);
}

/* a call, or an empty one (call NULL): on a GPU timed by the worker's events, else 0 */
static double
serve_call(void (*fn)(const struct ks_msg *), const struct ks_msg *m)
{
	double t = 0;

	if (!ks_worker_device_time) {
		if (fn)
			fn(m);
		return 0;
	}
	if (m->profile)
		ks_worker_device_profile(1);
	t = ks_worker_device_time(fn, m);
	if (m->profile)
		ks_worker_device_profile(0);
	return t;
}

/*
 * OpenMP's team started now, one thread a CPU as a kernel's parallel
 * regions will use: the filter lets no new thread stack be made writable.
 */
static void
start_threads(void)
{
#ifdef _OPENMP
	int spin = 0;

#pragma omp parallel
	{
#pragma omp atomic
		spin++;
	}
	(void)spin;
#endif
}

/*
 * --unconfined: for a profile (ks_harness.c's --profile), which keeps no
 * time and writes no verdict; a profiler's injection opens files in the
 * process.  The judge starts the worker so only then.
 */
int
main(int argc, char **argv)
{
	struct ks_msg m;
	const char *why = NULL;
	int fd, unconfined = argc > 1 && strcmp(argv[1], "--unconfined") == 0;

	/* every thread's allocations from one arena: a new arena needs mprotect */
	mallopt(M_ARENA_MAX, 1);
	/* a GPU's runtime up, its threads started and its device files open, before the filter */
	if (ks_worker_device_start)
		why = ks_worker_device_start();
	start_threads();
	if (!why && !unconfined)
		why = lock_down();
	reply(KS_MSG_READY, 0, 0, why ? why : "", 0);
	if (why)
		return 3;
	for (;;) {
		receive(&m, &fd);
		if (m.type != KS_MSG_MAP && fd >= 0)
			close(fd);
		switch (m.type) {
		case KS_MSG_MAP:
			map_buffer(&m, fd);
			reply(KS_MSG_MAPPED, 0, m.id, NULL, 0);
			break;
		case KS_MSG_UNMAP:
			unmap_buffer(m.id);
			reply(KS_MSG_MAPPED, 0, m.id, NULL, 0);
			break;
		case KS_MSG_CALL:
			resolve_args(&m);
			reply(KS_MSG_DONE, m.seq, 0, NULL, serve_call(call, &m));
			break;
		case KS_MSG_EMPTY:
			reply(KS_MSG_DONE, m.seq, 0, NULL, serve_call(NULL, &m));
			break;
		case KS_MSG_QUIT:
			fflush(stdout);
			return 0;
		default:
			fail("an unknown message on the channel");
		}
	}
}
