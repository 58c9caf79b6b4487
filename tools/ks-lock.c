/*
 * ks-lock - run a command (make's ks-pipeline) holding a population's
 * lock, pop/.lock, and stop all of it when the make that started it is
 * stopped.
 *
 * GNU make passes a signal on to its recipes only for SIGTERM, and only
 * to the recipe's own process; on SIGINT or SIGHUP it waits for its
 * recipes to end.  A terminal's Ctrl-C reaches every process of the
 * foreground group, but kill, timeout and a service manager signal
 * make's pid alone: the run went on, or outlived make holding the lock.
 * So ks-lock, exec'd by make's recipe, follows make: make's first act on
 * taking SIGINT, SIGTERM or SIGHUP is to reset its handler to the default,
 * which /proc/PID/status shows (SigCgt), and ks-lock then passes that
 * signal on to every process of the run, waits for them to end, and dies
 * of it as make does.  The tools stop their own children (ks_proc_run).
 */
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ks_stages.h"

/* flock -E 75 said a held lock so (EX_TEMPFAIL) */
#define EXIT_LOCKED 75
/* how long the run has to stop once signalled, before what is left of it is killed */
#define GRACE_S 10.0

static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP };
#define NSTOP (int)(sizeof stop_sigs / sizeof stop_sigs[0])
static volatile sig_atomic_t caught;

static void
on_signal(int sig)
{
	caught = sig;
}

/* (wakes the wait when a child ends) */
static void
on_child(int sig)
{
	(void)sig;
}

/* pid's command line, quoted for a shell; NULL when it cannot be read (gone, a kernel thread) */
static char *
proc_cmdline(pid_t pid)
{
	char *path = ks_easprintf("/proc/%d/cmdline", (int)pid), *text, **argv = NULL, *quoted;
	size_t len = 0, n = 0;

	text = ks_file_read_quiet(path, &len);
	free(path);
	if (!text || len == 0) {
		free(text);
		return NULL;
	}
	for (size_t i = 0; i < len; i += strlen(text + i) + 1)
		ks_argv_add(&argv, &n, ks_estrdup(text + i));
	free(text);
	quoted = ks_shell_quote_argv(argv);
	ks_argv_free(argv);
	return quoted;
}

/* The signals pid catches (SigCgt of /proc/pid/status, bit sig-1); -1 when it cannot be read. */
static int
proc_caught(pid_t pid, unsigned long long *mask)
{
	char *path = ks_easprintf("/proc/%d/status", (int)pid), *text = ks_file_read_quiet(path, NULL), *p;
	int rc = -1;

	free(path);
	if (text && (p = strstr(text, "\nSigCgt:"))) {
		*mask = strtoull(p + 8, NULL, 16);
		rc = 0;
	}
	free(text);
	return rc;
}

struct proc {
	pid_t pid, ppid, pgid;
	char state;
	int mark, signalled;
};

static int
by_pid(const void *a, const void *b)
{
	pid_t x = ((const struct proc *)a)->pid, y = ((const struct proc *)b)->pid;

	return (x > y) - (x < y);
}

/* Every process this user can see, sorted by pid; *n of them. */
static struct proc *
procs_load(size_t *n)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	struct proc *p = NULL;
	size_t cap = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		char *path, *text, *q;
		long pid;

		if (ks_parse_int(e->d_name, 1, 1L << 30, &pid) < 0)
			continue;
		path = ks_easprintf("/proc/%ld/stat", pid);
		text = ks_file_read_quiet(path, NULL);
		free(path);
		/* "pid (comm) S ppid pgrp ...": comm may hold anything, so from its last ')' */
		if (text && (q = strrchr(text, ')'))) {
			struct proc x = { (pid_t)pid, 0, 0, 0, 0, 0 };
			int ppid, pgid;

			if (sscanf(q + 1, " %c %d %d", &x.state, &ppid, &pgid) == 3) {
				x.ppid = ppid;
				x.pgid = pgid;
				if (*n == cap)
					p = ks_erealloc(p, (cap = cap ? cap * 2 : 256) * sizeof *p);
				p[(*n)++] = x;
			}
		}
		free(text);
	}
	closedir(d);
	if (*n)
		qsort(p, *n, sizeof *p, by_pid);
	return p;
}

static struct proc *
proc_find(struct proc *p, size_t n, pid_t pid)
{
	struct proc key = { .pid = pid };

	return n ? bsearch(&key, p, n, sizeof *p, by_pid) : NULL;
}

/* Marks root's descendants (mark 1; root itself 2). */
static void
procs_mark(struct proc *p, size_t n, pid_t root)
{
	struct proc *r = proc_find(p, n, root);
	int changed = 1;

	if (r)
		r->mark = 2;
	while (changed) {
		changed = 0;
		for (size_t i = 0; i < n; i++) {
			struct proc *parent = p[i].mark ? NULL : proc_find(p, n, p[i].ppid);

			if (parent && parent->mark) {
				p[i].mark = 1;
				changed = 1;
			}
		}
	}
}

/* The pids signalled already, so that each process of the run gets the signal once from us. */
struct sent {
	pid_t *pid;
	size_t n;
};

static int
sent_has(const struct sent *s, pid_t pid)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->pid[i] == pid)
			return 1;
	return 0;
}

/*
 * One round of stopping the run: sig to each live process of it that has
 * not had it from us (those of its process group, which is ours, and any
 * that ks-lock adopted: a process whose parent ended); with sig SIGKILL,
 * to every live descendant, whatever its group.  A process in a group of
 * its own, a compiler or a harness, is its tool's to stop.  Returns how
 * many descendants there are, the dead not yet reaped included (ks-lock
 * reaps those it adopts), so that none is left when it ends.
 */
static size_t
signal_run(int sig, struct sent *s)
{
	size_t n, left = 0;
	struct proc *p = procs_load(&n);
	pid_t self = getpid(), group = getpgrp();

	procs_mark(p, n, self);
	for (size_t i = 0; i < n; i++) {
		if (p[i].mark != 1)
			continue;
		left++;
		if (p[i].state == 'Z' || p[i].state == 'X')
			continue;
		if (sig == SIGKILL)
			kill(p[i].pid, SIGKILL);
		else if ((p[i].pgid == group || p[i].ppid == self) && !sent_has(s, p[i].pid)) {
			kill(p[i].pid, sig);
			s->pid = ks_erealloc(s->pid, (s->n + 1) * sizeof *s->pid);
			s->pid[s->n++] = p[i].pid;
		}
	}
	free(p);
	return left;
}

/*
 * The process that holds the lock open, as seen from here: of those that
 * have lockfd's file open, one whose parent does not (the top of the run
 * left behind); 0 when none can be seen.
 */
static pid_t
lock_holder(int lockfd)
{
	struct stat lk;
	size_t n;
	struct proc *p;
	pid_t self = getpid(), top = 0;

	if (fstat(lockfd, &lk) < 0 || !(p = procs_load(&n)))
		return 0;
	for (size_t i = 0; i < n; i++) {
		char *dir = ks_easprintf("/proc/%d/fd", (int)p[i].pid);
		DIR *d = p[i].pid == self ? NULL : opendir(dir);
		struct dirent *e;

		while (d && (e = readdir(d))) {
			char *fd = ks_easprintf("%s/%s", dir, e->d_name);
			struct stat st;

			if (e->d_name[0] != '.' && stat(fd, &st) == 0 && st.st_dev == lk.st_dev && st.st_ino == lk.st_ino)
				p[i].mark = 1;
			free(fd);
		}
		if (d)
			closedir(d);
		free(dir);
	}
	for (size_t i = 0; i < n && !top; i++) {
		struct proc *parent = proc_find(p, n, p[i].ppid);

		if (p[i].mark && !(parent && parent->mark))
			top = p[i].pid;
	}
	free(p);
	return top;
}

/*
 * The lock is held: says by whom.  Its holder wrote "pid N: command"
 * into it, the make that it follows; when that make is gone (a process
 * of its run lives on, holding the lock), the process that holds it.
 */
static void
say_held(const char *root, const char *lock, int fd)
{
	char rec[1024], *cmd = NULL, *now = NULL, *sep;
	ssize_t len = pread(fd, rec, sizeof rec - 1, 0);
	long rpid = 0;
	pid_t holder;

	rec[len > 0 ? len : 0] = '\0';
	rec[strcspn(rec, "\n")] = '\0';
	if (strncmp(rec, "pid ", 4) == 0 && (sep = strchr(rec, ':')) && sep[1] == ' ') {
		*sep = '\0';
		if (ks_parse_int(rec + 4, 1, 1L << 30, &rpid) == 0)
			cmd = sep + 2;
		*sep = ':';
	}
	if (cmd && (now = proc_cmdline((pid_t)rpid)) && strcmp(now, cmd) == 0) {
		ks_warnx("another make is running on '%s' (pid %ld: %s; it holds '%s'): let it finish, or stop it "
		    "first (kill %ld)", root, rpid, cmd, lock, rpid);
		free(now);
		return;
	}
	free(now);
	if ((holder = lock_holder(fd)) > 0) {
		now = proc_cmdline(holder);
		ks_warnx("'%s' is held by pid %d (%s), left running by a make that has ended%s%s%s: let it finish, or "
		    "stop it first (kill %d)", lock, (int)holder, now ? now : "?", cmd ? " (" : "", cmd ? rec : "",
		    cmd ? ")" : "", (int)holder);
		free(now);
	} else {
		ks_warnx("'%s' is held by a process that cannot be seen from here (another user's, or another "
		    "machine's)%s%s%s: let it finish", lock, cmd ? " (" : "", cmd ? rec : "", cmd ? ")" : "");
	}
}

/* Takes root/.lock and writes its holder's record; the descriptor, or -1 said (*held: 1 when another has it). */
static int
lock_take(const char *root, const char *lock, pid_t make, int *held)
{
	/*
	 * Not close-on-exec: the command inherits it, as under flock(1), so
	 * that a process of the run that outlives ks-lock keeps the lock.
	 * A population on a read-only disk is locked all the same, without
	 * the record (its tools then say what they cannot write).
	 */
	int fd = open(lock, O_RDWR | O_CREAT, 0666), ro = 0;
	char *cmd, *rec;

	*held = 0;
	if (fd < 0 && (errno == EROFS || errno == EACCES) && (fd = open(lock, O_RDONLY)) >= 0)
		ro = 1;
	if (fd < 0) {
		ks_warn("cannot open lock file '%s'", lock);
		return -1;
	}
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EINTR)
			continue;
		if (errno == EWOULDBLOCK) {
			*held = 1;
			say_held(root, lock, fd);
		} else {
			ks_warn("cannot lock '%s'", lock);
		}
		close(fd);
		return -1;
	}
	if (ro)
		return fd;
	cmd = proc_cmdline(make);
	rec = cmd ? ks_easprintf("pid %d: %s\n", (int)make, cmd) : ks_easprintf("pid %d\n", (int)make);
	if (ftruncate(fd, 0) < 0 || pwrite(fd, rec, strlen(rec), 0) < 0)
		ks_warn("cannot write '%s'", lock);
	free(rec);
	free(cmd);
	return fd;
}

/*
 * The signal that make (pid) took since it caught those of was: one whose
 * handler it has reset since; SIGTERM when make is gone.  0 when none.
 */
static int
make_took(pid_t make, unsigned long long was)
{
	unsigned long long now;

	if (getppid() != make || proc_caught(make, &now) < 0)
		return SIGTERM;
	for (int i = 0; i < NSTOP; i++) {
		unsigned long long bit = 1ULL << (stop_sigs[i] - 1);

		if ((was & bit) && !(now & bit))
			return stop_sigs[i];
	}
	return 0;
}

static void
nap(double s)
{
	struct timespec ts = { 0, (long)(s * 1e9) };

	/* (a signal, or a child's end, cuts it short) */
	nanosleep(&ts, NULL);
}

/* Runs command in its own process; its wait status, or -1 said. */
static int
run(const char *root, char **command, pid_t make)
{
	struct sigaction sa, chld;
	unsigned long long was = 0;
	sigset_t set;
	struct sent sent = { 0 };
	int pipefd[2], err = 0, status = 0, reaped, sig = 0, done = 0, killed = 0;
	double deadline = 0;
	ssize_t n;
	pid_t pid, w;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < NSTOP; i++) {
		struct sigaction old;

		ks_catch_signal(stop_sigs[i], &sa, &old);
	}
	memset(&chld, 0, sizeof chld);
	chld.sa_handler = on_child;
	sigemptyset(&chld.sa_mask);
	sigaction(SIGCHLD, &chld, NULL);
	/* (make may have started us with some blocked) */
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	for (int i = 0; i < NSTOP; i++)
		sigaddset(&set, stop_sigs[i]);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	/* what make catches now: a signal it takes resets one of them (a signal it ignores stays ignored by all) */
	if (proc_caught(make, &was) < 0)
		was = 0;
	/* make killed outright (kill -9 of its pid alone): the run stops as on SIGTERM */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	/* a process of the run whose parent ends is ours to wait for, and to stop */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (getppid() != make) {
		ks_warnx("the make that started it (pid %d) has ended: nothing run on '%s'", (int)make, root);
		return -1;
	}
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		ks_warn("cannot create a pipe");
		return -1;
	}
	if ((pid = fork()) < 0) {
		ks_warn("cannot fork");
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	if (pid == 0) {
		/* ks-lock killed outright: the command stops as on SIGTERM (make then stops its recipes) */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		close(pipefd[0]);
		execvp(command[0], command);
		err = errno;
		(void)!write(pipefd[1], &err, sizeof err);
		_exit(127);
	}
	close(pipefd[1]);
	while ((n = read(pipefd[0], &err, sizeof err)) < 0 && errno == EINTR)
		;
	close(pipefd[0]);
	if (n == (ssize_t)sizeof err) {
		waitpid(pid, NULL, 0);
		errno = err;
		ks_warn("cannot run '%s'", command[0]);
		return -1;
	}
	for (;;) {
		/* (an adopted process reaped after the command must not lend it its status) */
		while ((w = waitpid(-1, &reaped, WNOHANG)) > 0 || (w < 0 && errno == EINTR))
			if (w == pid) {
				done = 1;
				status = reaped;
			}
		if (done && !sig)
			break;
		if (!sig && (sig = caught ? caught : make_took(make, was)))
			deadline = ks_monotonic() + GRACE_S;
		if (sig) {
			killed |= ks_monotonic() > deadline;
			/* (a child that ended between the reaping above and the scan is reaped next round) */
			if (signal_run(killed ? SIGKILL : sig, &sent) == 0 && done)
				break;
		}
		nap(sig ? 0.05 : 0.1);
	}
	free(sent.pid);
	if (sig) {
		ks_warnx("stopped the run on '%s' (SIG%s%s): the same command resumes it", root, sigabbrev_np(sig),
		    killed ? "; what still ran after 10 s was killed" : "");
		/* die of it, as make does, so that whoever waits for make sees how it ended */
		signal(sig, SIG_DFL);
		raise(sig);
		_exit(128 + sig);
	}
	return status;
}

int
main(int argc, char *argv[])
{
	char **command = NULL;
	struct ks_args_spec spec = { "pop command [argument ...]",
		"  Runs command holding pop/.lock, as make generation runs make's\n"
		"  ks-pipeline: while it runs, another ks-lock on pop exits 75 and says\n"
		"  who holds the lock.  It follows the make that started it (its parent):\n"
		"  when make takes SIGINT, SIGTERM or SIGHUP, or ends, every process of\n"
		"  the command gets the signal, what still runs 10 s later is killed,\n"
		"  and ks-lock dies of the signal.  Otherwise, the command's exit status.\n",
		NULL, NULL, NULL, NULL, NULL, &command };
	const char *root = ks_args(argc, argv, &spec);
	char *lock = ks_easprintf("%s/.lock", root);
	pid_t make = getppid();
	int fd, held, status, rval = 1;

	if ((fd = lock_take(root, lock, make, &held)) < 0) {
		rval = held ? EXIT_LOCKED : 1;
	} else if ((status = run(root, command, make)) >= 0) {
		rval = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	}
	free(lock);
	if (ks_fclose_stdout() < 0)
		rval = 1;
	return rval;
}
