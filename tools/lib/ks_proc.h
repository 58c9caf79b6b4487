/*
 * ks_proc.h - layer 3 of the library: processes: child processes with
 * limits, the sandbox, launchers, the machine around a bench.
 *
 * A header includes only the layer below it (tests/0010-library.bats).
 */
#ifndef KS_PROC_H
#define KS_PROC_H

#include "ks_pop.h"

/* ks_proc.c: child processes with limits */
struct ks_proc_opts {
	const char *cwd;         /* NULL: the caller's */
	const char *in_path;     /* stdin from this file; NULL: /dev/null */
	const char *out_path;    /* stdout to this file (truncated); NULL: /dev/null */
	const char *err_path;    /* stderr; NULL: /dev/null; equal to out_path: shared */
	int result_fd;           /* >2: open result_path on this fd in the child */
	const char *result_path;
	double timeout_s;        /* wall clock; 0: none */
	long mem_mb;             /* address-space limit; 0: none */
	long cpu_s;              /* CPU-time limit; 0: none */
	/*
	 * Untrusted code: a minimal environment (no keys or secrets: see
	 * ks_proc.c), HOME and TMPDIR set to cwd, no network where the
	 * system lets a process have a network namespace of its own, a
	 * file-size limit and, for a user other than root, a process limit.
	 */
	int sandbox;
	long fsize_mb;           /* with sandbox: largest file it may write; 0: none */
	long max_procs;          /* with sandbox: processes and threads, in a pids cgroup where possible; 0: none */
	/* files and folders of the caller's for this run alone (NULL-terminated): removed if a signal interrupts it */
	const char *const *scratch;
};
struct ks_proc_result {
	int exited, status;      /* exit status when exited */
	int signaled, sig;       /* killed by signal sig */
	int timed_out;           /* killed by us at the wall-clock limit */
	double seconds;          /* wall clock */
};
/*
 * Runs argv[0] (searched in PATH) in its own process group and waits.
 * Returns 0 when it ran (whatever its outcome), -1 with a message when it
 * could not be started (e.g. the program does not exist).  A SIGINT,
 * SIGTERM or SIGHUP that reaches us meanwhile kills the child's whole
 * group, removes the scratch files, then is re-raised, so Ctrl-C on make
 * leaves no orphan and no temporary file behind.
 */
int ks_proc_run(char *const argv[], const struct ks_proc_opts *o, struct ks_proc_result *r);
char *ks_proc_describe(const struct ks_proc_result *r);  /* "exited with status 1", ... */
char *ks_shell_quote_argv(char *const argv[]);
void ks_argv_add(char ***argv, size_t *n, char *s);  /* appends s (owned) and keeps argv NULL-terminated */
void ks_argv_free(char **argv);                       /* frees every string, then argv; NULL is fine */
/* Runs argv and returns what it printed on stdout (at most 64 KiB); NULL with a message. */
char *ks_proc_capture(char *const argv[], double timeout_s);
/* The path of an executable name in PATH (malloc'd), or NULL. */
char *ks_find_in_path(const char *name);
/*
 * SIGINT, SIGTERM and SIGHUP held (blocked) from ks_signals_hold to the
 * matching ks_signals_release (they nest), while scratch files are made
 * or removed: a signal then cannot leave them behind.  ks_proc_run takes
 * them in between, and removes its scratch as it dies of one.
 */
void ks_signals_hold(void);
void ks_signals_release(void);
/* sigaction(sig, sa), the old action into old; a signal ignored on entry (a background job's SIGINT) stays ignored */
struct sigaction;
void ks_catch_signal(int sig, const struct sigaction *sa, struct sigaction *old);

/*
 * ks_sandbox.c: how untrusted code is shut in (the compiler of a kernel,
 * the harness that runs it).  ks_proc_run applies the basic sandbox in
 * the child when opts.sandbox is set: ks_sandbox_enter there, and the
 * pids cgroup made before the fork.
 */
void ks_sandbox_enter(const struct ks_proc_opts *o);   /* in the child, before exec */
/* 1 when sandboxed code may see var ("NAME=value"): an exact list, *_VISIBLE_DEVICES, KS_SANDBOX_ENV; never a secret */
int ks_env_kept(const char *var);
/* 1 when a name (len bytes) holds KEY, TOKEN, SECRET, PASSWORD or CREDENTIAL, in any case */
int ks_env_secret(const char *name, size_t len);
/* 1 when list (names separated by spaces or commas) holds the name of len bytes at var, exactly */
int ks_env_listed(const char *list, const char *var, size_t len);
char *ks_sandbox_cgroup(long max);          /* a pids cgroup (caller frees), NULL where none can be had */
void ks_sandbox_cgroup_join(const char *dir);          /* in the child */
void ks_sandbox_cgroup_remove(char *dir);   /* kills what is left in it, removes it, frees dir */
/*
 * Wraps argv in bubblewrap where it runs (KS_SANDBOX=bwrap, the default
 * there, or basic): returns the argv to run (argv itself, or a new one
 * that took argv's strings and freed it) and sets *desc (caller frees),
 * the sandbox in words for bench.json; NULL with a message, argv untouched.
 */
char **ks_sandbox_wrap(char **argv, const char *box, char **desc);
/*
 * ks_bwrap_compiler.c: argv (a kernel's compiler and its words) to run
 * where bubblewrap runs (KS_SANDBOX as above) in a file system of the
 * system's folders, its search paths' and those its words name, /tmp its
 * own, the output's folder the only one it may write; a copy of argv
 * where it does not run (basic).  Allocated; NULL with a message.
 */
char **ks_sandbox_wrap_compiler(char *const *argv);
/* Where the compiler prog is installed: two folders above its program, links resolved (/usr/local/cuda-13.0); NULL */
char *ks_compiler_home(const char *prog);
/* A status 128+N from bubblewrap is the runner killed by signal N. */
void ks_sandbox_signal_fix(char *const *argv, struct ks_proc_result *r);
/*
 * Waits for the first free of n lock files; returns its index, held until
 * exit (or until *held, its descriptor, is closed), or -1.  Once held, who
 * is written into it ("ks-bench 123 on pop/gen-001/c0"), so that a process
 * that has to wait says whom for.
 */
#define KS_LOCK_ANY_MAX 64
int ks_lock_any(char *const *paths, int n, const char *who, int *held);
/* The same for one file, held shared with others who ask so: its descriptor (close() lets go), or -1 said. */
int ks_lock_shared(const char *path, const char *who);

/*
 * ks_proc_settings.c: the sandbox's and the launchers' settings, read
 * without running anything (ks_settings_check checks them in ks-init).
 */
/* KS_SANDBOX: "bwrap", "basic", or "" (bwrap where it runs); NULL after a line naming a bad one */
const char *ks_sandbox_mode(void);
/*
 * The launcher's words, split as a shell splits them ('...', "...", \),
 * but never run by a shell: what a shell would expand or run ($, `, ;,
 * |, &, <, >, globs) is refused.  NULL with a message naming var.
 */
char **ks_launch_words(const char *var, const char *s);   /* KS_EVAL_CMD's too */
/* var's launcher, what ks_launch runs under: NULL when var is unset or blank (nothing is launched) */
const char *ks_launcher(const char *var);
/* var's launcher split into words as ks_launch splits it, and nothing run: 0 (unset too), or -1 said */
int ks_launch_check(const char *var);

/*
 * ks_launch.c: a tool run again under a launcher that var names
 * (KS_LAUNCH='srun --gres=gpu:1 -N1 -n1'), so that it does all its work
 * on the machine the launcher picks.
 */
char *ks_host_name(void);   /* gethostname(), never NULL; '/' as '_' so that it fits in a file name */
/*
 * This tool again (its own absolute path, then args), under the launcher
 * that var names, when var holds a word; waits.  The tool is told
 * (KS_LAUNCHED, var unset) to note in a file of dir that it started, and
 * its exit status (ks_launch_note).  Returns -1 when var is unset or
 * blank (nothing run: do the work here); else the tool's exit status
 * when it finished, or 1 after one line naming var and what the
 * launcher did (exited with status 1 before the tool started, say).  A
 * SIGINT, SIGTERM or SIGHUP is passed on to the launcher as SIGTERM,
 * then re-raised once it is gone.
 */
int ks_launch(const char *var, char *const args[], const char *dir);
/* Under a launcher: rc -1 notes the start, else the exit status; 0, or -1 with a message. */
int ks_launch_note(int rc);
/* Where this process runs under Slurm: {"slurm_job_id", "slurm_step_id", "node"}; NULL outside a job. */
cJSON *ks_launch_where(void);

#endif
