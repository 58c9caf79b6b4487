/*
 * ks_launch.c - a tool run again under a launcher (KS_LAUNCH: srun, say),
 * so that it does its whole job on another machine, sandbox and timing
 * included, and its results come back through the shared population.
 *
 * The launcher cannot tell its own failure from the tool's: srun exits 1
 * for a partition that does not exist and for a tool that exited 1.  So
 * the tool on the far side notes in a file of the candidate's folder that
 * it started, and how it ended; the caller reads the note once the
 * launcher is gone, and names the launcher only when the tool never
 * started or never finished.
 *
 * The launcher's setting, split into words, is ks_proc_settings.c's.
 */
#include <sys/prctl.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_proc.h"

/* The environment variable that carries the note's path to the launched tool. */
#define NOTE_VAR "KS_LAUNCHED"

/* This machine's name, for lock files and bench.json (ks_proc.h) */
char *
ks_host_name(void)
{
	char host[HOST_NAME_MAX + 1] = "";

	if (gethostname(host, sizeof host) < 0 || !*host)
		return ks_estrdup("localhost");
	host[sizeof host - 1] = '\0';
	/* a name that makes one file name, whatever the system allows in it */
	for (char *p = host; *p; p++)
		if (*p == '/')
			*p = '_';
	return ks_estrdup(host);
}

/* KS_LAUNCHED: the note of the tool this one was launched as, appended (ks_proc.h) */
int
ks_launch_note(int rc)
{
	const char *path = getenv(NOTE_VAR);
	char *host, *line;
	int fd, r = 0;

	if (!path || !*path)
		return 0;
	/* never created here: a note that is not there is a launcher that changed folders */
	if ((fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)) < 0) {
		ks_warn("cannot open the launcher's note '%s' (%s; is the population at the same path here?)",
		    path, NOTE_VAR);
		/* said once: the end has nowhere to go either */
		unsetenv(NOTE_VAR);
		return -1;
	}
	host = ks_host_name();
	line = rc < 0 ? ks_easprintf("started %s\n", host) : ks_easprintf("exit %d\n", rc);
	if (write(fd, line, strlen(line)) != (ssize_t)strlen(line) || fsync(fd) < 0) {
		ks_warn("cannot write the launcher's note '%s'", path);
		r = -1;
	}
	if (close(fd) < 0 && r == 0) {
		ks_warn("cannot write the launcher's note '%s'", path);
		r = -1;
	}
	free(host);
	free(line);
	return r;
}

/* where this process runs, as Slurm placed it (ks_proc.h) */
cJSON *
ks_launch_where(void)
{
	const char *job = getenv("SLURM_JOB_ID"), *step = getenv("SLURM_STEP_ID"), *node = getenv("SLURMD_NODENAME");
	cJSON *w;
	char *host;

	if (!job || !*job)
		return NULL;
	w = cJSON_CreateObject();
	cJSON_AddStringToObject(w, "slurm_job_id", job);
	ks_json_set_str(w, "slurm_step_id", step && *step ? step : NULL);
	host = node && *node ? ks_estrdup(node) : ks_host_name();
	cJSON_AddStringToObject(w, "node", host);
	free(host);
	return w;
}

static volatile sig_atomic_t caught_signal, caught_count;

static void
on_signal(int sig)
{
	caught_signal = sig;
	caught_count++;
}

/*
 * The launcher: in a group of its own, so that the terminal's Ctrl-C
 * reaches it only as the SIGTERM we pass on (srun takes a lone SIGINT
 * for a question, SIGTERM for "cancel the step"); stdin from /dev/null,
 * so that it never stops for the terminal from the background.
 */
static _Noreturn void
launcher_child(char *const argv[], int errpipe, pid_t parent)
{
	int fd, err;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(126);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if ((fd = open("/dev/null", O_RDONLY)) >= 0 && fd != 0) {
		dup2(fd, 0);
		close(fd);
	}
	/* make's POP/.lock under flock must not stay held by a launcher left behind */
	for (fd = 3; fd < 4096; fd++)
		if (fd != errpipe)
			close(fd);
	execvp(argv[0], argv);
	err = errno;
	(void)!write(errpipe, &err, sizeof err);
	_exit(127);
}

/* Runs argv to its end, passing on SIGINT, SIGTERM and SIGHUP; -1 with a message when it could not start. */
static int
run_launcher(const char *var, char *const argv[], int *status, int *sig)
{
	struct sigaction sa, old[3];
	const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
	int pipefd[2], err = 0, forwarded = 0;
	double first = 0;
	ssize_t n;
	pid_t pid, parent = getpid();

	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		ks_warn("cannot create a pipe");
		return -1;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	caught_signal = caught_count = 0;
	for (int i = 0; i < 3; i++)
		ks_catch_signal(sigs[i], &sa, &old[i]);
	if ((pid = fork()) < 0) {
		ks_warn("cannot fork");
		close(pipefd[0]);
		close(pipefd[1]);
		for (int i = 0; i < 3; i++)
			sigaction(sigs[i], &old[i], NULL);
		return -1;
	}
	if (pid == 0) {
		close(pipefd[0]);
		launcher_child(argv, pipefd[1], parent);
	}
	setpgid(pid, pid);
	close(pipefd[1]);
	while ((n = read(pipefd[0], &err, sizeof err)) < 0 && errno == EINTR)
		;
	close(pipefd[0]);
	/*
	 * Polled, as ks_proc_run waits: a signal that lands between the check
	 * and a blocking waitpid would not be passed on until the launcher
	 * ended (hours, for a job in a queue).  A second signal kills it; one
	 * within a second of the first is the same stop said twice (the
	 * terminal's to the group, then ks-lock's on make's behalf), not a
	 * second Ctrl-C.
	 */
	for (;;) {
		pid_t w;

		if (caught_signal && forwarded == 1 && caught_count > 1 && ks_monotonic() < first + 1.0)
			caught_count = 1;
		if (caught_signal && forwarded < 2 && caught_count > forwarded) {
			kill(pid, forwarded ? SIGKILL : SIGTERM);
			if (!forwarded)
				first = ks_monotonic();
			forwarded++;
		}
		if ((w = waitpid(pid, status, WNOHANG)) == pid)
			break;
		if (w < 0 && errno != EINTR) {
			ks_warn("cannot wait for %s's '%s'", var, argv[0]);
			*status = 1 << 8;
			break;
		}
		usleep(20000);
	}
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	*sig = caught_signal;
	if (n == (ssize_t)sizeof err && err) {
		errno = err;
		ks_warn("cannot run %s's '%s'", var, argv[0]);
		return -1;
	}
	return 0;
}

/* what a launcher's wait status says, in words */
static char *
describe(int status)
{
	if (WIFSIGNALED(status))
		return ks_easprintf("was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	return ks_easprintf("exited with status %d", WEXITSTATUS(status));
}

/* argv under the launcher that var names, words already split */
static int
launch_run(const char *var, char *const *words, char *const argv[], const char *dir)
{
	char *note = ks_easprintf("%s/.launch.XXXXXX", dir), **full = NULL, *text = NULL, *how = NULL;
	char *started, *ended, *value = ks_estrdup(getenv(var) ? getenv(var) : "");
	size_t n = 0;
	int fd, status = 0, sig = 0, rc = 1, r;
	long tool_rc;

	if ((fd = mkstemp(note)) < 0) {
		ks_warn("cannot create a temporary file in '%s'", dir);
		free(note);
		return 1;
	}
	close(fd);
	for (size_t i = 0; words[i]; i++)
		ks_argv_add(&full, &n, ks_estrdup(words[i]));
	for (size_t i = 0; argv[i]; i++)
		ks_argv_add(&full, &n, ks_estrdup(argv[i]));
	/* the tool on the far side runs where it is, and says how it went */
	if (setenv(NOTE_VAR, note, 1) < 0 || unsetenv(var) < 0) {
		ks_warn("cannot set %s", NOTE_VAR);
		goto out;
	}
	r = run_launcher(var, full, &status, &sig);
	/* this process is the launching one again, not a launched one */
	unsetenv(NOTE_VAR);
	setenv(var, value, 1);
	if (r < 0)
		goto out;
	if (!(text = ks_file_read(note, NULL)) && !sig)
		goto out;
	how = describe(status);
	started = text ? strstr(text, "started ") : NULL;
	ended = text ? strstr(text, "exit ") : NULL;
	for (char *nl = text; nl && (nl = strchr(nl, '\n'));)
		*nl++ = '\0';
	if (sig) {
		/* interrupted: the tool's own signal handling stopped its harness; nothing to record */
		unlink(note);
		signal(sig, SIG_DFL);
		raise(sig);
		_exit(128 + sig);
	}
	if (!started) {
		ks_warnx("%s '%s' %s before %s started on '%s'", var, value, how, ks_progname, dir);
	} else if (!ended || ks_parse_int(ended + 5, 0, 255, &tool_rc) < 0) {
		ks_warnx("%s '%s' %s while %s ran on '%s' (on %s), before it finished", var, value, how,
		    ks_progname, dir, started + 8);
	} else if (tool_rc == 0 && status != 0) {
		ks_warnx("%s '%s' %s after %s finished on '%s'", var, value, how, ks_progname, dir);
	} else {
		/* the tool's own outcome, said by the tool itself */
		rc = (int)tool_rc;
	}
out:
	unlink(note);
	free(note);
	free(text);
	free(how);
	free(value);
	ks_argv_free(full);
	return rc;
}


/* this tool again, under the launcher that var names (ks_proc.h) */
int
ks_launch(const char *var, char *const args[], const char *dir)
{
	const char *value = ks_launcher(var);
	char **words, **argv = NULL, *self;
	size_t n = 0;
	int rc;

	if (!value)
		return -1;
	if (!(words = ks_launch_words(var, value)))
		return 1;
	/* the path the launcher runs: the same on every node of a shared file system */
	if (!(self = realpath("/proc/self/exe", NULL))) {
		ks_warn("cannot find the path of %s itself", ks_progname);
		ks_argv_free(words);
		return 1;
	}
	ks_argv_add(&argv, &n, self);
	for (size_t i = 0; args[i]; i++)
		ks_argv_add(&argv, &n, ks_estrdup(args[i]));
	rc = launch_run(var, words, argv, dir);
	ks_argv_free(words);
	ks_argv_free(argv);
	return rc;
}
