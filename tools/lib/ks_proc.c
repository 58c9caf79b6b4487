/* ks_proc.c - child processes with a wall-clock limit and resource limits. */
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ks_proc.h"

static volatile sig_atomic_t caught_signal;

static void
on_signal(int sig)
{
	caught_signal = sig;
}

/* SIGINT, SIGTERM and SIGHUP: what stops a run */
static void
stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

static sigset_t held_mask;
static int held_depth;

void
ks_signals_hold(void)
{
	sigset_t set;

	stop_signals(&set);
	if (held_depth++ == 0)
		sigprocmask(SIG_BLOCK, &set, &held_mask);
}

void
ks_signals_release(void)
{
	if (held_depth > 0 && --held_depth == 0)
		sigprocmask(SIG_SETMASK, &held_mask, NULL);
}

/* A signal ignored on entry (a background job's SIGINT) stays ignored (ks_proc.h). */
void
ks_catch_signal(int sig, const struct sigaction *sa, struct sigaction *old)
{
	sigaction(sig, NULL, old);
	if (old->sa_handler != SIG_IGN)
		sigaction(sig, sa, NULL);
}


static void
redirect(const char *path, int fd, int flags)
{
	int f = open(path ? path : "/dev/null", flags, 0644);

	if (f < 0) {
		dprintf(2, "%s: cannot open '%s': %s\n", ks_progname, path, strerror(errno));
		_exit(126);
	}
	if (f != fd) {
		dup2(f, fd);
		close(f);
	}
}

static void
set_limit(int resource, rlim_t v)
{
	struct rlimit rl = { v, v };

	setrlimit(resource, &rl);
}

/* Closes descriptors lo..hi (hi -1: all above lo). */
static void
close_fds(int lo, int hi)
{
	if (hi != -1 && hi < lo)
		return;
	if (close_range((unsigned)lo, hi == -1 ? ~0U : (unsigned)hi, 0) == 0)
		return;
	for (int fd = lo; fd <= (hi == -1 ? 4095 : hi); fd++)
		close(fd);
}

/*
 * Nothing open of ours reaches the child but 0-2, its result descriptor
 * and the error pipe (closed by exec): a descriptor a tool inherited, such
 * as make's POP/.lock under flock, must neither reach untrusted code nor
 * stay held by an orphaned compiler pass after the tool was killed.
 */
static void
close_other_fds(int keep_a, int keep_b)
{
	int lo = keep_a < keep_b ? keep_a : keep_b, hi = keep_a < keep_b ? keep_b : keep_a;

	if (lo > 3)
		close_fds(3, lo - 1);
	close_fds(lo < 3 ? 3 : lo + 1, hi - 1);
	close_fds(hi + 1, -1);
}

/* In the child: limits, descriptors, then exec; errno goes back on errpipe. */
static _Noreturn void
child(char *const argv[], const struct ks_proc_opts *o, int errpipe, pid_t parent, const char *cgroup)
{
	int err;

	setpgid(0, 0);
	/*
	 * If we are killed outright (kill -9 of make's group), the child
	 * must not live on in its own group, timing against the next run.
	 */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(126);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	redirect(o->in_path, 0, O_RDONLY);
	redirect(o->out_path, 1, O_WRONLY | O_CREAT | O_TRUNC);
	if (o->err_path && o->out_path && strcmp(o->err_path, o->out_path) == 0)
		dup2(1, 2);
	else
		redirect(o->err_path, 2, O_WRONLY | O_CREAT | O_TRUNC);
	if (o->result_fd > 2 && o->result_path)
		redirect(o->result_path, o->result_fd, O_WRONLY | O_CREAT | O_TRUNC);
	close_other_fds(errpipe, o->result_fd > 2 && o->result_path ? o->result_fd : 2);
	set_limit(RLIMIT_CORE, 0);
	if (o->mem_mb > 0)
		set_limit(RLIMIT_AS, (rlim_t)o->mem_mb << 20);
	if (o->cpu_s > 0)
		set_limit(RLIMIT_CPU, (rlim_t)o->cpu_s);
	/* after the redirections, whose paths may be relative to where we were */
	if (o->cwd && chdir(o->cwd) < 0) {
		err = errno;
		(void)!write(errpipe, &err, sizeof err);
		_exit(126);
	}
	if (cgroup)
		ks_sandbox_cgroup_join(cgroup);
	if (o->sandbox)
		ks_sandbox_enter(o);
	execvp(argv[0], argv);
	err = errno;
	(void)!write(errpipe, &err, sizeof err);
	_exit(127);
}

int
ks_proc_run(char *const argv[], const struct ks_proc_opts *o, struct ks_proc_result *r)
{
	struct sigaction sa, old_int, old_term, old_hup;
	sigset_t stop, old_mask;
	int pipefd[2], status, err = 0;
	char *cgroup;
	double start, deadline;
	pid_t pid, w, parent;
	ssize_t n;

	memset(r, 0, sizeof *r);
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		ks_warn("cannot create a pipe");
		return -1;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	caught_signal = 0;
	ks_catch_signal(SIGINT, &sa, &old_int);
	ks_catch_signal(SIGTERM, &sa, &old_term);
	ks_catch_signal(SIGHUP, &sa, &old_hup);
	/* held by the caller while it made the scratch files (ks_signals_hold): ours to take now */
	stop_signals(&stop);
	sigprocmask(SIG_UNBLOCK, &stop, &old_mask);

	start = ks_monotonic();
	parent = getpid();
	cgroup = o->sandbox && o->max_procs > 0 ? ks_sandbox_cgroup(o->max_procs) : NULL;
	if ((pid = fork()) < 0) {
		ks_warn("cannot fork");
		close(pipefd[0]);
		close(pipefd[1]);
		if (cgroup)
			ks_sandbox_cgroup_remove(cgroup);
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		sigaction(SIGHUP, &old_hup, NULL);
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		return -1;
	}
	if (pid == 0) {
		close(pipefd[0]);
		child(argv, o, pipefd[1], parent, cgroup);
	}
	/* Both sides set the group, so a kill right after fork reaches it. */
	setpgid(pid, pid);
	close(pipefd[1]);
	while ((n = read(pipefd[0], &err, sizeof err)) < 0 && errno == EINTR)
		;
	close(pipefd[0]);

	deadline = o->timeout_s > 0 ? start + o->timeout_s : 0;
	for (;;) {
		w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			ks_warn("cannot wait for '%s'", argv[0]);
			break;
		}
		if (caught_signal)
			kill(-pid, SIGKILL);
		else if (deadline && ks_monotonic() > deadline) {
			r->timed_out = 1;
			kill(-pid, SIGKILL);
		}
		struct timespec ts = { 0, 2000000 };
		nanosleep(&ts, NULL);
	}
	/* Whatever it forked dies with it. */
	kill(-pid, SIGKILL);
	if (cgroup)
		ks_sandbox_cgroup_remove(cgroup);
	r->seconds = ks_monotonic() - start;

	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	/* Interrupted: die of the same signal, and never record a result. */
	if (caught_signal) {
		for (const char *const *s = o->scratch; s && *s; s++)
			ks_remove_tree(*s);
		raise(caught_signal);
		_exit(128 + caught_signal);
	}
	sigprocmask(SIG_SETMASK, &old_mask, NULL);

	if (n == (ssize_t)sizeof err && err) {
		errno = err;
		ks_warn("cannot run '%s'", argv[0]);
		return -1;
	}
	if (WIFEXITED(status)) {
		r->exited = 1;
		r->status = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		r->signaled = 1;
		r->sig = WTERMSIG(status);
	}
	return 0;
}

char *
ks_proc_describe(const struct ks_proc_result *r)
{
	if (r->timed_out)
		return ks_easprintf("killed after %.1f s, past its time limit", r->seconds);
	if (r->signaled)
		return ks_easprintf("killed by signal %d (%s)", r->sig, strsignal(r->sig));
	return ks_easprintf("exited with status %d", r->status);
}

/* Quotes for a POSIX shell, so a recorded command can be pasted back. */
char *
ks_shell_quote_argv(char *const argv[])
{
	struct ks_buf b = { 0 };

	ks_buf_add(&b, "", 0);
	for (int i = 0; argv[i]; i++) {
		const char *a = argv[i];
		int plain = *a != '\0';

		for (const char *p = a; *p; p++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%", *p))
				plain = 0;
		if (i)
			ks_buf_puts(&b, " ");
		if (plain) {
			ks_buf_puts(&b, a);
			continue;
		}
		ks_buf_puts(&b, "'");
		for (const char *p = a; *p; p++) {
			if (*p == '\'')
				ks_buf_puts(&b, "'\\''");
			else
				ks_buf_add(&b, p, 1);
		}
		ks_buf_puts(&b, "'");
	}
	return b.s;
}

char *
ks_proc_capture(char *const argv[], double timeout_s)
{
	char tmp[] = "/tmp/ks-capture.XXXXXX", *text;
	struct ks_proc_opts o = { 0 };
	struct ks_proc_result r;
	int fd;

	if ((fd = mkstemp(tmp)) < 0) {
		ks_warn("cannot create a temporary file in '/tmp'");
		return NULL;
	}
	close(fd);
	o.out_path = tmp;
	o.timeout_s = timeout_s;
	text = ks_proc_run(argv, &o, &r) == 0 ? ks_file_read(tmp, NULL) : NULL;
	unlink(tmp);
	if (text && strlen(text) > 65536)
		text[65536] = '\0';
	return text;
}

/* Who holds a lock, as its holder wrote it into the file; "" when unknown. */
static void
say_holders(char *const *paths, int n)
{
	for (int i = 0; i < n; i++) {
		char who[256] = "";
		int fd = open(paths[i], O_RDONLY | O_CLOEXEC);
		ssize_t len = fd >= 0 ? read(fd, who, sizeof who - 1) : -1;

		if (fd >= 0)
			close(fd);
		who[len > 0 ? len : 0] = '\0';
		who[strcspn(who, "\n")] = '\0';
		ks_info("waiting: '%s' is held%s%s", paths[i], *who ? " by " : "", who);
	}
}

/* ks_lock_any and ks_lock_shared: op is LOCK_EX or LOCK_SH; *held gets the descriptor held */
static int
lock_any(char *const *paths, int n, const char *who, int op, int *held)
{
	int fds[KS_LOCK_ANY_MAX], got = -1, i, said = 0;

	if (n < 1 || n > KS_LOCK_ANY_MAX) {
		ks_warnx("cannot lock one of %d files (1 to %d)", n, KS_LOCK_ANY_MAX);
		return -1;
	}
	for (i = 0; i < n; i++)
		if ((fds[i] = open(paths[i], O_RDWR | O_CREAT | O_CLOEXEC, 0666)) < 0) {
			ks_warn("cannot open lock file '%s'", paths[i]);
			while (i-- > 0)
				close(fds[i]);
			return -1;
		}
	/*
	 * The first free one, polled: a blocking wait on one lock would queue
	 * behind that device while another falls idle.
	 */
	while (got < 0) {
		for (i = 0; i < n && got < 0; i++) {
			if (flock(fds[i], op | LOCK_NB) == 0)
				got = i;
			else if (errno != EWOULDBLOCK && errno != EINTR) {
				ks_warn("cannot lock '%s'", paths[i]);
				got = -2;
			}
		}
		if (got == -1 && !said++)
			say_holders(paths, n);
		if (got == -1)
			usleep(20 * 1000);
	}
	/* the next one to wait can say whom it waits for */
	if (got >= 0 && who && ftruncate(fds[got], 0) == 0)
		(void)!pwrite(fds[got], who, strlen(who), 0);
	/* The one held stays open until the process exits; the others close. */
	for (i = 0; i < n; i++)
		if (i != got)
			close(fds[i]);
	if (got >= 0 && held)
		*held = fds[got];
	return got < 0 ? -1 : got;
}

int
ks_lock_any(char *const *paths, int n, const char *who, int *held)
{
	return lock_any(paths, n, who, LOCK_EX, held);
}

int
ks_lock_shared(const char *path, const char *who)
{
	char *const paths[1] = { (char *)path };
	int fd = -1;

	return lock_any(paths, 1, who, LOCK_SH, &fd) < 0 ? -1 : fd;
}

