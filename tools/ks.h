/*
 * ks.h - the shared library of the kernel-scientist tools.
 *
 * Conventions, written once here:
 * - Errors: a library function that fails prints one line on stderr,
 *   "prog: what failed 'subject': reason", and returns -1 or NULL; the
 *   caller adds nothing and exits 1.  The ks_e* wrappers die instead.
 * - Ownership: every char * and cJSON * returned by a ks_ function
 *   belongs to the caller (free() or cJSON_Delete()), unless the comment
 *   says it points into an argument; borrowed pointers stay valid as long
 *   as that argument does.
 * - Writes of results go through ks_file_write_atomic(): readers see the
 *   old file or the new one, never a torn one, and an unchanged file keeps
 *   its timestamp so make does not redo the stages after it.
 */
#ifndef KS_H
#define KS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <getopt.h>
#include <cJSON.h>

#define KS_VERSION "0.1.0"

/* ks_util.c: program name, errors, memory */
extern const char *ks_progname;
void ks_setprogname(const char *argv0);   /* also points cJSON's allocations at ks_emalloc */
void ks_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));  /* appends strerror(errno) */
void ks_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ks_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));  /* progress notes; silent under KS_QUIET */
int ks_quiet(void);    /* KS_QUIET is set (and not 0) */
double ks_monotonic(void);   /* seconds on CLOCK_MONOTONIC */
/*
 * A step of a long stage on stderr ("tool: message"), silent under
 * KS_QUIET or KS_PROGRESS=0 (ks_progress_off): on a terminal one line
 * rewritten in place (ks_progress_end ends it), else a line per step.
 */
int ks_progress_off(void);
void ks_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ks_progress_end(void);
_Noreturn void ks_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void ks_diex(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *ks_emalloc(size_t n);
void *ks_ecalloc(size_t n, size_t size);
void *ks_erealloc(void *p, size_t n);
char *ks_estrdup(const char *s);
char *ks_estrndup(const char *s, size_t n);
char *ks_easprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int ks_parse_int(const char *s, long lo, long hi, long *out);   /* 0, or -1 without a message */
int ks_parse_double(const char *s, double *out);                /* 0, or -1 without a message */
char *ks_path_dirname(const char *path);   /* "a/b/" -> "a", "b" -> "." */
const char *ks_path_basename(const char *path, char *buf, size_t n);  /* trailing slashes dropped */
/*
 * The command line of every tool, "tool [flags] operand", in one place:
 * sets ks_progname; -h and --help print "usage: tool synopsis" and help
 * to stdout and exit 0; an unknown flag or a wrong number of operands
 * print them to stderr and exit 2.  Each of the tool's own flags (flags,
 * getopt's syntax) goes to on_flag(ch, optarg, arg), which returns 0, or
 * the exit status after saying what is wrong.  Returns the operand.
 * With command set, the operand is followed by a command and its
 * arguments, which go to *command untouched: flags end at the operand.
 */
struct ks_args_spec {
	const char *synopsis;     /* after the program's name: "[-b] pop" */
	const char *help;         /* the lines after the usage line */
	const char *flags;
	int (*on_flag)(int ch, const char *value, void *arg);
	void *arg;
	const char **second;      /* when set, a second operand may follow: here, else NULL */
	const struct option *longopts;  /* getopt_long's table (its val goes to on_flag); NULL: none */
	char ***command;          /* when set, a command follows the operand: here (ks-lock) */
};
const char *ks_args(int argc, char *argv[], const struct ks_args_spec *spec);
/* The stage tools' "tool [-o file] dir": *out is NULL unless -o names a file. */
const char *ks_args_dir_out(int argc, char *argv[], const char *operand, const char *help, const char **out);
int ks_fclose_stdout(void);   /* 0, or -1 with a message when stdout could not be written */

/* growable string buffer */
struct ks_buf {
	char *s;
	size_t len, cap;
};
void ks_buf_add(struct ks_buf *b, const char *s, size_t n);
void ks_buf_puts(struct ks_buf *b, const char *s);
void ks_buf_printf(struct ks_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ks_buf_free(struct ks_buf *b);
char *ks_replace_all(const char *text, const char *from, const char *to);  /* every from made to; caller frees */

/* ks_file.c: files */
char *ks_file_read(const char *path, size_t *len);  /* NUL-terminated; NULL with a message */
int ks_file_write_atomic(const char *path, const char *data, size_t len);
int ks_file_copy_atomic(const char *from, const char *to);
int ks_mkdir_p(const char *path);
int ks_exists(const char *path);
int ks_remove_tree(const char *path);   /* rm -r, links not followed; -1 with a message */
int ks_is_dir(const char *path);

/* ks_json.c: the one way JSON comes in and goes out */
/*
 * what names the text in the error line, which says at which line and column
 * the parse stopped; NULL parses quietly (a model's reply, a provider's body)
 */
cJSON *ks_json_parse(const char *text, size_t len, const char *what);
cJSON *ks_json_load(const char *path);
int ks_json_save(const char *path, const cJSON *v);  /* atomic, byte-stable, newline-terminated */
/*
 * A record that differs from the one at path only in keys (NULL-ended:
 * a duration, what the machine was doing) takes the old values, so that
 * saving it keeps the file's bytes and mtime, and make does not redo the
 * stages after it.  An old file that is missing or does not parse
 * changes nothing.
 */
void ks_json_keep_old(const char *path, cJSON *res, const char *const *keys);
/* src's members copied into dst, objects merged into objects (Gemini's generationConfig.thinkingConfig) */
void ks_json_merge(cJSON *dst, const cJSON *src);
/*
 * Typed field access.  file names the document in the error line; a
 * NULL file makes the lookup quiet (for optional fields).  The string
 * returned by ks_json_str points into obj.
 */
const char *ks_json_str(const cJSON *obj, const char *key, const char *file);
int ks_json_int(const cJSON *obj, const char *key, const char *file, long lo, long hi, long *out);
int ks_json_num(const cJSON *obj, const char *key, const char *file, double *out);
const cJSON *ks_json_arr(const cJSON *obj, const char *key, const char *file);
const cJSON *ks_json_obj(const cJSON *obj, const char *key, const char *file);
void ks_json_set_num(cJSON *obj, const char *key, double v);   /* add or replace; non-finite as null */
void ks_json_set_str(cJSON *obj, const char *key, const char *s);  /* NULL as null */

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
/* KS_SANDBOX: "bwrap", "basic", or "" (bwrap where it runs); NULL after a line naming a bad one */
const char *ks_sandbox_mode(void);
/* A status 128+N from bubblewrap is the runner killed by signal N. */
void ks_sandbox_signal_fix(char *const *argv, struct ks_proc_result *r);
/*
 * Waits for the first free of n lock files; returns its index, held until
 * exit, or -1.  Once held, who is written into it ("ks-bench 123 on
 * pop/gen-001/c0"), so that a process that has to wait says whom for.
 */
#define KS_LOCK_ANY_MAX 64
int ks_lock_any(char *const *paths, int n, const char *who);
/* The same for one file, held shared with others who ask so: its descriptor (close() lets go), or -1 said. */
int ks_lock_shared(const char *path, const char *who);

/*
 * ks_launch.c: a tool run again under a launcher that var names
 * (KS_LAUNCH='srun --gres=gpu:1 -N1 -n1'), so that it does all its work
 * on the machine the launcher picks.
 */
char *ks_host_name(void);   /* gethostname(), never NULL; '/' as '_' so that it fits in a file name */
/*
 * The launcher's words, split as a shell splits them ('...', "...", \),
 * but never run by a shell: what a shell would expand or run ($, `, ;,
 * |, &, <, >, globs) is refused.  NULL with a message naming var.
 */
char **ks_launch_words(const char *var, const char *s);   /* KS_EVAL_CMD's too */
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
/* var's launcher split into words as ks_launch splits it, and nothing run: 0 (unset too), or -1 said */
int ks_launch_check(const char *var);
/* Under a launcher: rc -1 notes the start, else the exit status; 0, or -1 with a message. */
int ks_launch_note(int rc);
/* Where this process runs under Slurm: {"slurm_job_id", "slurm_step_id", "node"}; NULL outside a job. */
cJSON *ks_launch_where(void);

/*
 * ks_stage.c: the files the stages hand to each other, one loader each.
 * A loader reads the file, checks every field that population(5) gives
 * it (an error line names the file and the field), and fills a record
 * whose pointers point into its json; free it with the matching _free.
 * Returns 0 when loaded, -1 with a message (none under KS_QUIET), and 1
 * under KS_OPTIONAL when the file does not exist (yet).
 */
#define KS_OPTIONAL 1   /* absent: return 1, quietly */
#define KS_QUIET 2      /* no message at all: a file about to be replaced, say */
struct ks_cand_rec {          /* candidate.json, written by ks-implement */
	cJSON *json;
	const char *id;
	long gen, slot;
	const char *base, *reference;   /* NULL for the seed */
	const char *model;              /* "seed", "offline" or the model's name */
	const cJSON *plan;              /* NULL for the seed */
	const cJSON *usage;             /* NULL when none */
	const cJSON *repairs;           /* NULL when no repair was needed */
	const char *rejected;           /* NULL unless ks-implement rejected it */
};
int ks_cand_rec_load(const char *path, int flags, struct ks_cand_rec *c);
void ks_cand_rec_free(struct ks_cand_rec *c);
struct ks_build_rec {         /* build.json, written by ks-build */
	cJSON *json;
	int ok;
	const char *target, *diagnostics;
	const char *compiler, *command; /* NULL when nothing was compiled */
	double seconds;
	const cJSON *resources;         /* NULL when the compiler reports none */
	const char *rejected;           /* NULL unless it was not built for a reason of the rules */
	const char *kernel_sha256, *harness_sha256;   /* what was built; NULL in records older than them */
};
int ks_build_rec_load(const char *path, int flags, struct ks_build_rec *b);
void ks_build_rec_free(struct ks_build_rec *b);
extern const char *const ks_bench_statuses[];   /* every status of bench.json, NULL-terminated */
struct ks_bench_rec {         /* bench.json, written by ks-bench */
	cJSON *json;
	const char *id, *status, *device;
	const char *timer, *message;    /* may be NULL */
	const char *kernel_sha256;      /* the kernel benched; NULL when none was or the record is older */
	const char *runner_sha256;      /* the runner run; NULL when none was */
	int correct;
	double score_us;                /* -1 unless status is ok */
	const cJSON *results;
	/* timed side by side with versus_id (NULL: not): score over its score, and the 95 % interval; -1 when none */
	const char *versus_id;
	double versus_ratio, versus_lo, versus_hi;
	/* "machine": the machine was busy around the bench, and why (ks_load.c); 0 and NULL when not, or no record */
	int noisy;
	const char *noisy_reason;
};
int ks_bench_rec_load(const char *path, int flags, struct ks_bench_rec *b);
void ks_bench_rec_free(struct ks_bench_rec *b);
struct ks_select_rec {        /* select.json, written by ks-select */
	cJSON *json;
	const char *base, *reference;
	const char *reason, *model;     /* may be NULL */
	const char *stop;               /* why the search ends here (the speed of light reached); NULL */
	const cJSON *seen;              /* [{"id", "status", "score_us"}] as select saw them; NULL in older files */
};
int ks_select_rec_load(const char *path, int flags, struct ks_select_rec *s);
void ks_select_rec_free(struct ks_select_rec *s);
/* What the run's LLM calls cost, from POP/llm-usage.jsonl (zeros when there is none). */
struct ks_usage {
	long calls, cached_calls;
	long prompt_tokens, completion_tokens;   /* billed: calls answered from the cache cost nothing */
	long cached_prompt_tokens;               /* of prompt_tokens, read from the provider's prompt cache */
	long failed_calls;       /* tries that failed after the request went out: the provider may have billed them */
};
int ks_ledger_load(const char *root, struct ks_usage *u);
/* The same by stage ("select", "hypothesize", "implement"), in the order each first appears, at most max. */
struct ks_stage_usage {
	char stage[24];
	struct ks_usage u;
};
int ks_ledger_stages(const char *root, struct ks_stage_usage *s, size_t max, size_t *n);

/* ks_pop.c: the population directory, ids, problems */
struct ks_run {
	char *root;       /* the population directory, as given */
	char *path;       /* root/run.json */
	cJSON *json;
	const char *problem, *target;   /* point into json */
	const char *kernels_dir;        /* into json: the kernels folder it was made with (KS_KERNELS_DIR); NULL: the default */
	long k;
};
struct ks_problem {
	char *name, *dir, *path;        /* path: dir/problem.json */
	cJSON *json;
	const char *language, *entry_name, *seed_kernel;
	const cJSON *dims, *test_shapes, *bench_shapes;
	const cJSON *heldout_shapes;    /* never shown to a model nor scored (make heldout); NULL when none */
};
struct ks_cand {
	long gen, slot;
	char id[24];
	char *dir;
	struct ks_cand_rec cand;
	struct ks_bench_rec bench; /* bench.json == NULL when not benched yet */
	const char *status;        /* bench status, NULL when not benched, "stale" (below) */
	double score_us;           /* < 0 unless status is ok */
	int stale;                 /* bench.json measured another kernel than the one there now: no result */
};

#define KS_MAX_GEN 999
#define KS_MAX_K 5   /* the hypothesize stage writes 5 plans */

int ks_id_parse(const char *id, long *gen, long *slot);    /* 0, or -1 without a message */
void ks_id_format(char *buf, size_t n, long gen, long slot);
char *ks_gen_dir(const char *root, long gen);
/* The numbers of root's gen-NNN directories, sorted (free it); NULL when none. */
long *ks_gens_list(const char *root, size_t *n);
char *ks_cand_dir(const char *root, long gen, long slot);
/* name is a generation folder's, gen-NNN (*gen), or a candidate's, cS (*slot): 0, else -1 quietly */
int ks_gen_name_parse(const char *name, long *gen);
int ks_slot_name_parse(const char *name, long *slot);
/* dir is POP/gen-NNN: sets *root (caller frees) and *gen. */
int ks_gen_dir_parse(const char *dir, char **root, long *gen);
/* dir is POP/gen-NNN/cS: sets *root, *gen, *slot. */
int ks_cand_dir_parse(const char *dir, char **root, long *gen, long *slot);

/*
 * Reads root/run.json (-1 said).  A run made with KS_KERNELS_DIR goes on
 * with the same folder: its kernels_dir becomes KS_KERNELS_DIR where that
 * is unset, for ks_kernels_dir() and any tool this process runs.
 */
int ks_run_load(const char *root, struct ks_run *run);
void ks_run_free(struct ks_run *run);

/* A data folder: $env_var, else <bin>/../share/kernel-scientist/name (installed), else <tools>/../name. */
char *ks_data_dir(const char *name, const char *env_var);
char *ks_kernels_dir(void);    /* $KS_KERNELS_DIR, else ks_data_dir's kernels */
int ks_problem_load(const char *name, struct ks_problem *p);
void ks_problem_free(struct ks_problem *p);
char *ks_problem_file(const struct ks_problem *p, const char *key);  /* dir/<string field>, NULL with a message */
char *ks_shape_name(const cJSON *shape, const cJSON *dims);           /* "17x31x9" */
char *ks_shape_arg(const cJSON *shape, const cJSON *dims);            /* "17x31x9@5": with its seed, as a runner takes it */
char *ks_shapes_arg(const cJSON *shapes, const cJSON *dims);          /* each ks_shape_arg, space-separated */
/* The check's settings of problem.json: tolerance rtol, atol (default 1e-4, 1e-3) and seed (1). */
void ks_problem_check_args(const struct ks_problem *p, double *rtol, double *atol, long *seed);

/*
 * Loads every candidate of generations [0, before_gen) that has a
 * candidate.json, in id order; their bench.json when present.
 */
int ks_cands_load(const char *root, long before_gen, int flags, struct ks_cand **out, size_t *n);
/* for ks_cands_load: a candidate whose files do not load is said and kept, with status "unreadable" */
#define KS_KEEP_GOING 4
void ks_cands_free(struct ks_cand *c, size_t n);
struct ks_cand *ks_cands_find(struct ks_cand *c, size_t n, const char *id);
char *ks_cand_kernel_path(const struct ks_cand *c);   /* dir/kernel.<ext>, the one that exists */
char *ks_cand_code(const struct ks_cand *c);          /* that file's text; NULL with a message */

/* ks_stage.c, continued: the handing over between stages */
/* dir/select.json; *base and *ref point into c, to correct kernels. */
int ks_select_load(const char *dir, struct ks_cand *c, size_t n, struct ks_cand **base, struct ks_cand **ref);
/*
 * Checks a hypotheses object: 1..10 avenues (exactly 10 when strict, as
 * a model must give), 5 complete plans, and "chosen" too when k > 0.
 * validate sets *why (caller frees); check prints it with the file name.
 */
int ks_hypotheses_validate(const cJSON *h, long k, int strict, char **why);
int ks_hypotheses_check(const cJSON *h, const char *file, long k);
cJSON *ks_hypotheses_load(const char *dir, long k);
/* The number of plans gen's hypotheses.json keeps, -1 without a valid one (quiet). */
int ks_plans_kept(const char *root, long gen);
/* 1 when the generation's plans leave slot empty (fewer kept plans than K): no candidate there. */
int ks_slot_unplanned(const char *root, long gen, long slot);
/* The K plans kept of 5 (population(5)): most innovative, highest max uplift, highest min uplift, ...; -1 when fewer distinct plans exist */
int ks_plans_choose(const cJSON *plans, long k, long *chosen);

/* ks_target.c: the build targets, defined in one place */
enum ks_resource_report {
	KS_RES_NONE,      /* the compiler reports nothing per kernel */
	KS_RES_PTXAS,     /* nvcc -Xptxas -v: registers, spills, shared memory */
	KS_RES_AMDGPU,    /* -Rpass-analysis=kernel-resource-usage: SGPRs, VGPRs, AGPRs, LDS, occupancy */
};
struct ks_target {
	const char *name;
	const char *ext;            /* kernel source extension; NULL: the problem's seed's (ks_target_ext) */
	const char *compiler;       /* the program run ... */
	const char *compiler_env;   /* ... unless this variable names another */
	const char *const *flags;
	const char *arch_flag;      /* printf format of the architecture flag; NULL: none */
	const char *arch_default;   /* overridden by KS_GPU_ARCH */
	/*
	 * Every kernel is built as a judge and its worker
	 * (kernels/common/ks_judge.h): the runner from judge_common and the
	 * problem's harness sources, without the kernel; the worker from
	 * worker_common, the problem's call glue ("worker_sources") and the
	 * kernel.  NULL for target external, which compiles nothing.
	 */
	const char *const *judge_common;
	const char *const *worker_common;
	const char *const *includes; /* include folders under kernels/common, before the system's */
	const char *const *libs;
	const char *device;         /* what ks-bench needs: "cpu", "nvidia", "amd", "external" (KS_EVAL_CMD) */
	enum ks_resource_report resources;
	const char *const *imports; /* the symbols a kernel's object may import (nm -u), exactly */
	int host_asm;               /* inline assembly may appear (device code has it); 0: refused */
	/*
	 * nvcc: an architecture sm_X is given as -gencode=arch=compute_X,code=sm_X,
	 * since under -arch=sm_90a nvcc 13.0 also checks a compute_90 PTX, where
	 * sm_90a's own instructions (wgmma, setmaxnreg) do not assemble
	 */
	int gencode;
};
const struct ks_target *ks_target_find(const char *name);   /* NULL with a message */
const char *ks_target_names(void);
int ks_harness_symbol(const char *mangled);   /* 1 when a compiled kernel's name (_Z13ks_worker_pady) is the harness's */
/* the extension of the target's kernel file: its own, else the problem's seed's (target external) */
const char *ks_target_ext(const struct ks_target *t, const struct ks_problem *p);
/* 1 for the target judged by the user's command (KS_EVAL_CMD): nothing compiled, no harness run here */
int ks_target_external(const struct ks_target *t);
const char *ks_target_compiler(const struct ks_target *t);
char *ks_target_arch_flag(const struct ks_target *t);       /* NULL when the target has none */
const char *ks_target_arch(const struct ks_target *t);      /* KS_GPU_ARCH or the default; NULL for the CPU */
/* KS_GPU_ARCH is an architecture's name (sm_90a, gfx942) where the target takes one: 0, or -1 said */
int ks_target_arch_check(const struct ks_target *t);
/* The per-kernel resource report of a build's diagnostics; NULL when none. */
cJSON *ks_target_resources(const struct ks_target *t, const char *diagnostics);
/*
 * The GPUs a GPU target's benches may use, one harness on each at a time:
 * KS_GPUS ("0,1,3"), else every GPU this machine has (/dev/nvidiaN;
 * /dev/dri/renderDN for AMD, which KS_GPUS overrides where that counts
 * other GPUs too).  Where the user set CUDA_VISIBLE_DEVICES or
 * HIP_VISIBLE_DEVICES, what it shows is one device (n == 0), as a CPU is.
 * Where Slurm gave GPUs (SLURM_STEP_GPUS, else SLURM_JOB_GPUS, first of
 * all), the device is the first, by its index on the node (slurm).
 */
struct ks_gpus {
	int index[KS_LOCK_ANY_MAX], n;
	int given;                  /* from KS_GPUS or Slurm: benched even where no device node is seen */
	const char *slurm;          /* Slurm gave the step index[0]: the variable that says so; NULL: not Slurm */
};
int ks_gpus_load(const struct ks_target *t, struct ks_gpus *g);   /* -1 with a message for a bad KS_GPUS */
/*
 * One harness at a time per device, even under make -j: waits for the
 * first free device of g (the CPU when g->n is 0) and holds its lock
 * (in KS_LOCK_DIR, default /tmp, named by the host and the device) until
 * the process exits; a GPU is made
 * the only one the runner sees, and *desc names it (caller frees; NULL
 * for the CPU).  what (the candidate's folder) goes into the lock, and a
 * bench that must wait says whose it waits for.  Returns 0, or -1 with a
 * message.
 */
int ks_device_take(const struct ks_target *t, const struct ks_gpus *g, const char *what, char **desc);
/*
 * A compile's share of the CPU's bench lock: a bench of target cpu runs
 * its kernel on every core, and a compiler beside it holds up its threads
 * (a score twice as slow, shapes that never settle), so compiles for every
 * target wait for a CPU bench in progress, and a CPU bench waits for the
 * compiles in progress.  what names the candidate.  Returns the lock's
 * descriptor, which ks_cpu_unshare lets go (else exit does); KS_NO_LOCK
 * where nothing is compiled (target external); -1 with a message.
 */
#define KS_NO_LOCK (-2)
int ks_cpu_share(const struct ks_target *t, const char *what);
void ks_cpu_unshare(int lock);
/* dir/kernel.<ext> by the extensions of the target table; NULL with a message when none exists. */
char *ks_kernel_path_find(const char *dir);
char *ks_kernel_path_quiet(const char *dir);   /* the same, NULL without a word */
/* 1 when this machine has the device the target runs on. */
int ks_target_device_present(const struct ks_target *t);

/*
 * ks_load.c: the machine's state around a bench, bench.json's "machine"
 * (population(5)): the other processes' work on the CPU before and during
 * it, steal time, the load average, and for an nvidia GPU its clocks,
 * temperature, throttle reasons and the other processes on it
 * (nvidia-smi, where there is one: never a failure where there is not).
 * A CPU bench on a busy machine waits, up to KS_BENCH_SETTLE_S, and is
 * marked noisy where the machine was busy all the same.
 */
#define KS_LOAD_PIDS_MAX 16
struct ks_load_sample {
	int ok;                     /* the counters were read */
	double t;                   /* ks_monotonic() then */
	unsigned long long busy, total, steal;   /* ticks of /proc/stat's "cpu" line */
	int cpus;                   /* online: its cpuN lines */
	long others_running;        /* procs_running, less this process */
	double load1;               /* /proc/loadavg's first; -1 unread */
};
struct ks_load_gpu {
	double sm_mhz, sm_max_mhz, temp_c;   /* -1 where nvidia-smi gives none */
	unsigned long long reasons;          /* the clocks event (throttle) reasons' bits */
	long pids[KS_LOAD_PIDS_MAX];         /* the processes on the GPU */
	int npids;
};
struct ks_load {
	double settle_s;            /* KS_BENCH_SETTLE_S: the longest wait, 0 none (default 30) */
	double busy_max;            /* KS_BENCH_BUSY_MAX: others' CPUs' worth that makes a machine busy (0.25) */
	const char *proc;           /* KS_BENCH_PROC (tests: a made-up /proc), else /proc */
	int cpu, nvidia, amd;       /* the target's device */
	int sampled;                /* ks_load_before ran */
	double waited_s, busy_before, children_s;
	struct ks_load_sample start;             /* the last look before the harness started */
	char *smi, *gpu, *gpu_error;             /* nvidia-smi, the GPU as it numbers it, why not sampled */
	int gpu_ok;
	struct ks_load_gpu gpu_before, gpu_after;
};
/* The settings, checked: 0, or -1 with one line naming the setting. */
int ks_load_open(struct ks_load *l, const struct ks_target *t);
/*
 * Just before the harness starts, its device held (ks_device_take: no
 * compile runs beside a CPU bench): a look at the machine, and for a CPU
 * target on a busy machine, a wait (one progress line names id) until it
 * settles or KS_BENCH_SETTLE_S runs out.
 */
void ks_load_before(struct ks_load *l, const struct ks_gpus *g, const char *id);
/*
 * Just after the harness was waited for: a second look, and res gains
 * "machine".  harness_s: the CPU seconds of the harness's processes
 * since ks_load_before (-1: unknown, and so is the others' work during
 * the bench).  *noisy: why the bench is noisy (caller frees), or NULL.
 * Nothing when ks_load_before did not run.
 */
void ks_load_after(struct ks_load *l, cJSON *res, double harness_s, char **noisy);
/* the CPU seconds of this process's children waited for since ks_load_before */
double ks_load_children_s(const struct ks_load *l);
void ks_load_close(struct ks_load *l);

/*
 * ks_external.c: target external, a kernel judged by the command the
 * user names in KS_EVAL_CMD (the protocol is written there and in
 * population(5), "External evaluators").
 */
struct ks_external_job {
	const struct ks_problem *prob;
	const cJSON *shapes;     /* the shapes to time: bench_shapes, or heldout_shapes */
	int heldout;             /* ks-bench -H: no test shapes */
	const char *id, *dir;    /* the candidate */
	const char *source;      /* its kernel file */
	double timeout_s;        /* KS_BENCH_TIMEOUT_S, else limits.bench_s */
};
/*
 * KS_EVAL_CHECK_CMD, ks-build's check of a kernel for target external
 * before any evaluator sees it (a syntax check, say, which costs no
 * leaderboard submission): unset, 0 and nothing done; else it runs with
 * the kernel's absolute path appended, its output in log, and sets ok,
 * command, seconds and diagnostics of the build record rec; 1 when it
 * ran.  -1 with a message when it is malformed or cannot be started.
 */
int ks_external_check(const struct ks_problem *p, const char *source, const char *log, cJSON *rec);
/*
 * Runs the evaluator on the candidate and sets the verdict in res (a
 * bench.json record): status, message, correct, results, score_us,
 * score_stat, timer, device, evaluator.  A broken or silent evaluator is
 * a verdict (0).  -1 with a message when KS_EVAL_CMD is unset or
 * malformed, the program cannot be started, or it said "unavailable".
 */
int ks_external_judge(const struct ks_external_job *j, cJSON *res);
/* KS_EVAL_CMD set and KS_EVAL_CHECK_CMD unset or both split as they run, and nothing run: 0, or -1 said */
int ks_external_settings(void);

/* ks_hash.c: SHA-256, as lowercase hex, of what a result was measured on */
struct ks_hash;
struct ks_hash *ks_hash_new(void);
void ks_hash_add(struct ks_hash *h, const void *data, size_t len);
void ks_hash_str(struct ks_hash *h, const char *s);
int ks_hash_file(struct ks_hash *h, const char *path);    /* -1 with a message */
int ks_hash_tree(struct ks_hash *h, const char *dir);     /* every file under dir, by name; -1 with a message */
char *ks_hash_end(struct ks_hash *h);                    /* the hex digest (caller frees); h is gone */
char *ks_sha256_file(const char *path);                  /* NULL with a message */

/* ks_compile.c: one build of a kernel with its problem's harness */
struct ks_compile_job {
	const struct ks_target *target;
	const struct ks_problem *prob;
	const char *kernel;      /* the candidate's source */
	const char *runner;      /* the program made; removed first and when the build fails */
	                         /* (and the worker beside it, ks_compile_worker_path) */
	const char *log;         /* the compiler's output */
	/* the static check on the kernel's object, run before the worker is linked from it; NULL: none */
	char *(*check_object)(const struct ks_compile_job *j, const char *obj);
};
/*
 * ks_compile_check.c: the static check on what the compiler reads, the
 * kernel preprocessed (cc -E, nvcc -E, hipcc -E).  The reason to refuse
 * it, or NULL.
 */
char *ks_compile_refusal(const struct ks_compile_job *j);
/*
 * The static check on the kernel's object (obj), the one its worker is
 * linked from: what it imports (nm -u) against the target's list, host
 * instructions that read a clock or enter the OS, what it defines (the
 * entry point alone).  The reason to refuse it, or NULL.
 */
char *ks_compile_object_refusal(const struct ks_compile_job *j, const char *obj);
/*
 * Runs the target's compiler (sandboxed: the source is untrusted; not
 * for target external, which compiles nothing) and adds to rec the
 * fields of a build record: ok, target, compiler, command, seconds,
 * diagnostics, resources, kernel_sha256 and harness_sha256
 * (population(5)).  A refusal of the job's check_object ends the build
 * before the worker is linked: *refused says why (else NULL), and 0 is
 * returned.
 * Returns 1 when the runner was built, 0 when it was not (a result), -1
 * with a message when the compiler could not be run at all.
 */
int ks_compile(const struct ks_compile_job *j, cJSON *rec, char **refused);
/* 1 when the target's compiler is there to run (a path that is executable, or a name on PATH) */
int ks_compiler_found(const struct ks_target *t);
/* The compiler and its options for the target and problem, before any source; *n of them, NULL-terminated */
char **ks_compile_options(const struct ks_compile_job *j, size_t *n);
/*
 * ks_names.c: each harness and call-glue source of the problem compiled
 * alone, and the global names its object defines checked: each starts
 * with ks_ or holds _reference, the names the static check keeps
 * kernels from.  0 when they do (or a source did not compile: the build
 * says why); -1 after a line that names the file and the symbol.
 */
int ks_names_check(const struct ks_compile_job *j);
/* 1 when the problem is built as a judge and a worker (problem.json "worker_sources") */
int ks_problem_judged(const struct ks_problem *p);
/* The worker beside a judge's runner: the same folder, "worker"; allocated */
char *ks_compile_worker_path(const char *runner);
/* The wall-clock limit of a build: problem.json limits.build_s, else 120 s. */
double ks_compile_limit_s(const struct ks_problem *p);
/* What "cc --version" names as its version (the first line with "version" or "release"); NULL with a message */
char *ks_compile_version(const char *cc);
/* What a build's log holds, cut to a size a prompt can hold, and, when !ok, a last line "<who> <how it failed>". */
char *ks_compile_diagnostics(const char *log, const struct ks_proc_result *r, int ok, const char *who);
/*
 * Diagnostics as a model is shown them: kernel (the path it was built
 * from) called shown_as and its folder's other paths relative, so that a
 * prompt holds no temporary path; the compiler's own lines first, then
 * ptxas's report of the candidate's kernels; the harness's kernels' ptxas
 * lines left out, with a line that says so.  Caller frees.
 */
char *ks_compile_for_model(const char *diag, const char *kernel, const char *shown_as);
/* The SHA-256 of the harness's files: kernels/common, the problem's harness sources and headers. */
char *ks_harness_sha256(const struct ks_problem *p);

/*
 * ks_runner_cache.c: the judge's runner and the worker's shared objects
 * kept by what their compiler sees (KS_BUILD_CACHE; off: none).  The key
 * of what ("runner", "object", "names": a word, the start of the entry's
 * file names) made by argv, whose output is out; get makes out from the cache
 * (1) and gives what the compiler printed (caller frees), or returns 0;
 * put keeps out and printed.  checked: 1 when check_passed marked key.
 */
char *ks_runner_cache_key(const char *what, char *const *argv, const char *out, const char *version,
    const char *harness_sum);
int ks_runner_cache_get(const char *key, const char *out, char **printed);
void ks_runner_cache_put(const char *key, const char *out, const char *printed);
int ks_runner_cache_lock(const char *key);
void ks_runner_cache_unlock(const char *key, int fd);
int ks_runner_cache_checked(const char *key);
void ks_runner_cache_check_passed(const char *key);

/* ks_bound.c: the speed of light of a shape, from problem.json "bound" */
/* The value of a sum of products of numbers and the shape's dims ("2*m*n*k"); -1 when expr is not one. */
double ks_bound_work(const char *expr, const cJSON *shape);
/* The least time of shape on target in us; 0 when the problem gives none for it; -1 said when malformed. */
double ks_bound_us(const struct ks_problem *p, const char *target, const cJSON *shape, double measured_peak);
/* whether the problem's peak for target is "measured" (by the runner: --measure-peak) */
int ks_bound_measured(const struct ks_problem *p, const char *target);

/*
 * ks_static.c: what a candidate's source may not do (vendor libraries,
 * threads, clocks, main, interposition, the harness's names, and the
 * problem's own "forbidden" rules); the reason, or NULL when none.
 */
char *ks_static_check(const char *src, const cJSON *forbidden);
/* The same rules on a kernel's preprocessed lines (no #include left); no_asm: inline assembly refused too. */
char *ks_static_check_expanded(const char *text, const cJSON *forbidden, int no_asm);
/* 1 when name appears in code as an identifier followed by '(' (a definition or a call). */
int ks_code_defines(const char *code, const char *name);
/* name defined with its body: name(...) { */
int ks_code_defines_body(const char *code, const char *name);

/* ks_tune.c: tunable parameters a kernel declares ("#define X 8  ks-tune: 4 8 16") */
#define KS_TUNE_MAX_VALUES 16
struct ks_param {
	char name[64];
	long value;
	long allowed[KS_TUNE_MAX_VALUES];
	int nallowed;
};
/* Fills at most max params from the source; returns how many. */
int ks_tune_parse(const char *src, struct ks_param *p, int max);
/*
 * The first line of src meant as a knob that declares no parameter
 * ("ks-tune 8 16" without its colon, "ks-tune:" on a line that is no
 * #define): what is wrong with it, a constant string, and its number in
 * *lineno; NULL when there is none.  Prose that names ks-tune is no knob.
 */
const char *ks_tune_lint(const char *src, long *lineno);
long ks_tune_get(const struct ks_param *p, int n, const char *name, long dflt);
/* Returns a new source with the values of the named defines replaced; NULL when one is absent. */
char *ks_tune_apply(const char *src, const char *const *names, const long *values, int n);
#define KS_TUNE_MAX_PARAMS 32

/*
 * ks_offline_model.c: an additive model of log(time) over the tunable
 * parameters, for the offline proposer.  Configurations are given as the
 * index of each parameter's value in its allowed list (idx: nobs rows of
 * nparams); y is log(time) of each.
 */
struct ks_tmodel {
	int nparams, nobs;
	int nvalues[KS_TUNE_MAX_PARAMS];
	int count[KS_TUNE_MAX_PARAMS][KS_TUNE_MAX_VALUES];     /* kernels measured with each value */
	double effect[KS_TUNE_MAX_PARAMS][KS_TUNE_MAX_VALUES]; /* what each value adds to log(time) */
	double mu, sigma, tau;      /* the mean; the spread of the residuals, of the values' effects (log) */
};
void ks_tmodel_fit(struct ks_tmodel *m, int nparams, const int *nvalues, const int *idx, const double *y, int nobs);
double ks_tmodel_predict(const struct ks_tmodel *m, const int *idx);   /* log(time) */
double ks_tmodel_doubt(const struct ks_tmodel *m, const int *idx);     /* one standard error of it */

/*
 * ks_sse.c: a streamed reply (server-sent events of openai, anthropic or
 * gemini) as the provider's non-streamed JSON reply; NULL with *why ("a
 * stream that ...") when it reported an error or ended before the reply
 * was complete.
 */
cJSON *ks_sse_assemble(const char *provider, const char *sse, char **why);

/* ks_redact.c: text with each word that holds or echoes the key (or follows a key's label) replaced by [redacted] */
char *ks_redact(const char *text, const char *key);
char *ks_redact_key(const char *text, const char *key);   /* only what shares a run with the key: for replies */

/* ks_llm.c: the LLM client; ks_llm_open.c: its settings; ks_llm_adapt.c: what the run learnt of a model */
struct ks_llm {
	char provider[16];       /* openai, anthropic, gemini */
	const char *stage;       /* select, hypothesize, implement */
	char *model, *url, *key, *root;
	double temperature;      /* < 0: the server's default */
	long max_tokens;         /* per reply */
	int tries;
	double timeout_s, backoff_s, retry_max_s;
	double outage_s;         /* KS_LLM_OUTAGE_S: how long connection errors and 5xx are ridden out, past tries */
	int stream;              /* KS_LLM_STREAM: ask for server-sent events (default on) */
	double idle_s;           /* KS_LLM_IDLE_S: a stream silent this long is a dead connection */
	int cache;
	long budget;             /* KS_MAX_TOKENS for the run; 0: none */
	char *last_error;        /* why the last request failed at the API (redacted); NULL when it did not */
	const char *where;       /* the directory of the call under way, for the ledger */
	cJSON *extra_body;       /* KS_LLM_EXTRA_BODY merged with KS_<STAGE>_EXTRA_BODY; NULL: none */
	char tokens_param[40];   /* OpenAI's field for the reply limit: max_tokens, or max_completion_tokens */
	int tokens_learnt;       /* tokens_param came from the model's refusal of the other, here or earlier in the run */
	char dropped[8][40];     /* parameters the server refused, left out of later requests */
	int ndropped;
	char refused[40];        /* the parameter the last 400 refused ("" when none) */
	int use_completion_tokens;   /* and that message said to use max_completion_tokens */
	long fit_tokens;         /* > 0: the last 400 said the prompt and reply exceed the context; this reply fits */
	/* what this process's calls used */
	int calls, cached_calls;
	long prompt_tokens, completion_tokens;
};
struct ks_llm_reply {
	char *text;
	int truncated;           /* cut off at the token limit: not a whole answer */
	int cached;
	long prompt_tokens, completion_tokens;   /* completion counts thinking, which is billed */
	long cached_prompt_tokens;               /* of the prompt, read from the provider's prompt cache */
	char *finish;            /* the provider's finish/stop reason, as it said it; NULL when none */
	char *stopped;           /* why the provider stopped or blocked the reply (a refusal, SAFETY...); NULL */
};
/*
 * Configures the client for a stage from the environment
 * (kernel-scientist(7), ENVIRONMENT).  Returns 0 when an LLM is configured, 1 when none is
 * (the offline proposer is then used, and a note says so), -1 with a
 * message for a bad setting.  root is the population directory, where
 * the cache and the ledger live.  draw numbers the stage's calls in the
 * run (0, 1, ...: a generation's, or a candidate slot's): where the model
 * setting names several models with weights, it picks one of them.
 */
int ks_llm_open(struct ks_llm *llm, const char *stage, const char *root, long draw);
void ks_llm_close(struct ks_llm *llm);
/*
 * The stage's settings checked as ks_llm_open reads them, for every model
 * the setting names (a later draw may pick any), with no note, no request
 * and nothing written: 0 when an LLM is configured, 1 when none is, -1
 * after the line that ks_llm_open would print.
 */
int ks_llm_check(const char *stage, const char *root);
/*
 * POP/llm-adapt.json (population(5)): what a model refused (max_tokens,
 * temperature), by provider, URL and model, so that every process of the
 * run asks so from its first request.  _load applies llm's entry, if any,
 * to llm (ks_llm_open does); _save merges llm's into the file under a
 * lock, atomically (ks_llm_chat does, after adapting).  0, or -1 with a
 * message naming the file.
 */
int ks_llm_adapt_load(struct ks_llm *llm);
int ks_llm_adapt_save(const struct ks_llm *llm);
/*
 * One call: system may be NULL; turns alternate user, assistant, user.
 * Saves dir/llm/<name>.json and .md, adds a ledger line, and fills r
 * (free with ks_llm_reply_free).  -1 with a message after the retries.
 */
int ks_llm_chat(struct ks_llm *llm, const char *system, const char *const *turns, int n, const char *dir,
    const char *name, struct ks_llm_reply *r);
void ks_llm_reply_free(struct ks_llm_reply *r);
/* Sets obj's "usage" to what this process's calls used. */
void ks_llm_usage_json(const struct ks_llm *llm, cJSON *obj);

/* ks_prompt.c: prompt templates and what the stages read from replies */
/*
 * Renders prompts/<name>.md: every {{key}} is replaced by its value.  A
 * placeholder the stage does not know is an error naming the template,
 * so a typo in an edited prompt does not reach the model.
 */
char *ks_prompt_render(const char *name, const char *const *keys, const char *const *values, int n);
char *ks_prompt_file(const char *name);   /* prompts/<name>, NULL with a message */
char *ks_prompt_path(const char *name);   /* the path of prompts/<name> (KS_PROMPTS_DIR) */
/* The markdown files of a folder, sorted by name, concatenated; "" when none. */
char *ks_prompt_knowledge(const char *dir);
/* The reply without <think>...</think> (and <thinking>, <reasoning>) reasoning. */
char *ks_strip_reasoning(const char *text);

/*
 * ks_edit.c: SEARCH/REPLACE edits (aider's and OpenEvolve's format) in
 * a reply.  ks_edit_count: how many blocks it opens.  ks_edit_apply: base
 * with every block applied in order, each SEARCH matching whole lines
 * exactly once; NULL with *why (caller frees) when one does not.
 */
int ks_edit_count(const char *reply);
char *ks_edit_apply(const char *base, const char *reply, int *nedits, char **why);
/* The JSON object of a reply (reasoning stripped): whole, in a ```json fence, or between the outer braces. */
cJSON *ks_reply_json(const char *text, char **why);
/* The code of a reply (reasoning stripped): the last fenced block that defines entry. */
char *ks_reply_code(const char *text, const char *entry, char **why);

/* ks_context.c: what the LLM stages show the model, and how they ask (KS_CONTEXT_CHARS: ks_settings.c) */
/* the population (base and ref may be NULL: not chosen yet), within budget */
char *ks_ctx_population(const struct ks_cand *c, size_t n, const struct ks_problem *p, const struct ks_cand *base,
    const struct ks_cand *ref, size_t budget);
/* "score S us; per shape: MxNxK T us; ..." of a measured kernel, else why not */
char *ks_ctx_times(const struct ks_cand *c, const struct ks_problem *p);
/*
 * What the profiler said of base (its profile.json, ks-profile), or why
 * there is nothing, under a heading; "" on a target where ks-profile
 * runs no profiler.
 */
char *ks_ctx_profile(const struct ks_cand *base, const char *target);
/* how far base is from the speed of light overall and on which shapes, and the share that stops the search */
char *ks_ctx_sol(const struct ks_cand *base, const struct ks_problem *p, const char *target, double stop);
/*
 * ks_calib.c: how the plans' predicted uplift ranges compare with what
 * their kernels measured against their base: ks_calibrate counts;
 * ks_calibration_json is hypotheses.json's "calibration"; and
 * ks_ctx_track_record (ks_context.c) says it for the hypothesize prompt.
 */
struct ks_calibration {
	long measured;		/* plans whose kernel and base both have a score */
	long inside, below, above;	/* of those, against [uplift_min, uplift_max] */
	long failed;		/* plans whose kernel was benched and has no score */
	double mean_error;	/* mean of measured minus the middle of the range, in points */
	/*
	 * the geometric mean of the measured speed-up over the one the middle
	 * of the range promised (1 + uplift / 100 each): on a log scale, so
	 * that one plan of +25,000 % does not drown the +-20 % of the rest;
	 * 1 when none was measured
	 */
	double speed_ratio;
};
/* the speed-up a plan's uplift in percent stands for: +100 % is 2x; never below 0.01x (a range below -99 %) */
double ks_uplift_factor(double pct);
/* k's measured uplift over its base in percent (side by side where k was timed beside it): 1, or 0 when either has no score */
int ks_plan_uplift(const struct ks_cand *c, size_t n, const struct ks_cand *k, double *pct);
/* where pct fell against plan's [uplift_min, uplift_max]: -1 below, 0 inside, 1 above */
int ks_plan_against_range(const cJSON *plan, double pct);
void ks_calibrate(const struct ks_cand *c, size_t n, struct ks_calibration *cal);
cJSON *ks_calibration_json(const struct ks_calibration *cal);
char *ks_ctx_track_record(const struct ks_calibration *cal);
/* each plan with what it measured, within budget */
char *ks_ctx_findings(const struct ks_cand *c, size_t n, size_t budget);
/* the reference's times and code in a fence of ext (rcode NULL: a line saying it is left out), or a line saying it is the base */
char *ks_ctx_reference(const struct ks_problem *p, const struct ks_cand *base, const struct ks_cand *ref, const char *ext,
    const char *rcode);
/* whether implement shows ref's code: the plan's text names it or the reference, or both codes fit budget */
int ks_ctx_show_reference(const char *plan, const struct ks_cand *ref, size_t base_len, size_t ref_len, size_t budget);
/* the kernels the plan's text names by id (not base, not ref), each with its code and times or failure; "" if none */
char *ks_ctx_named_kernels(const char *plan, const struct ks_cand *c, size_t n, const struct ks_cand *base,
    const struct ks_cand *ref, const struct ks_problem *p, const char *ext, size_t budget);
char *ks_ctx_selection_reason(const char *gdir);   /* gdir/select.json's reason, or "(no reason given)" */
char *ks_ctx_build_warnings(const struct ks_cand *base);   /* its build's warnings, under a heading; "" if none */
/* the plans hypotheses h keeps for the generation's other slots than slot, under a heading; "" if none */
char *ks_ctx_other_plans(const cJSON *h, long slot);
/* prompts/knowledge and the problem's knowledge/, each with its <target>/ notes */
char *ks_ctx_knowledge(const struct ks_problem *p, const char *target);
/* the problem's task file, with only this target's "(target T)" sections */
char *ks_ctx_task(const struct ks_problem *p, const char *target);
/* the task's opening (before its first "## " section), with a line saying the rest goes elsewhere */
char *ks_ctx_task_summary(const char *task);
char *ks_ctx_file(const struct ks_problem *p, const char *key);  /* a problem file's text */
/*
 * ks_facts.c: the target section of every prompt (ks_ctx_target):
 * prompts/targets/<t>-<arch>.md or <t>.md; how the kernels are compiled
 * (the targets table's flags, the compiler's version from the newest
 * build.json, else from the compiler); on the CPU this machine's cores,
 * caches and instruction set and the newest measured peak; the device
 * benched; how a kernel is timed.  c may be NULL (n 0): nothing benched.
 * NULL with a message for an unknown target or a missing facts file.
 */
char *ks_ctx_target(const struct ks_problem *p, const char *target, const struct ks_cand *c, size_t n);
/*
 * The CPU's cores, hardware threads and caches from root's
 * /sys/devices/system/cpu (root "" or NULL: this machine's), as lines
 * "- CPU: ..." and "- Caches ...", "unknown" where sysfs does not say;
 * *cores gets the physical cores, or -1.
 */
char *ks_facts_cpu(const char *root, int *cores);
/* Checks a reply: 0 and keeps what it needs in ctx, or -1 and sets *why (caller frees). */
typedef int (*ks_check_fn)(const char *text, void *ctx, char **why);
/*
 * The check of a reply that must hold code defining entry and passing
 * ks_static_check: a whole file, or SEARCH/REPLACE edits to base where
 * base is set.  Sets code (caller frees), form ("file" or "edits") and
 * edits (how many).
 */
struct ks_code_check {
	const char *entry;
	char *code;
	const cJSON *forbidden;	/* the problem's own static-check rules, or NULL */
	const char *base;	/* the code edits apply to; NULL: whole files only */
	const char *form;
	int edits;
};
int ks_check_code(const char *text, void *arg, char **why);
/*
 * Asks the model (transcripts dir/llm/<name>-1, -2), with the system
 * prompt of target, and checks the reply; an unusable reply is shown
 * back once with the reason.  Returns 0 when a reply passed, 1 when both
 * failed (*why says why), -1 when the call itself failed (a message was
 * printed).
 */
int ks_ask(struct ks_llm *llm, const char *target, const char *prompt, const char *dir, const char *name,
    ks_check_fn check, void *ctx, char **why);

/* ks_csv.c: the CSV tables profilers write */
int ks_csv_fields(const char *line, char ***f);     /* a line's fields in *f (free with ks_csv_free); their number */
void ks_csv_free(char **f, int n);
int ks_csv_column(char **head, int n, const char *name);   /* the index of name in the header, or -1 */
double ks_csv_number(const char *s);                /* "25,313" -> 25313; -1 when it is no number */
/* 1 when a profiled kernel's name ("void ks_worker_tail<1>(unsigned long long)") is the harness's */
int ks_csv_harness_kernel(const char *name);

/*
 * ks_prof_ncu.c, ks_prof_rocprof.c: the profilers ks-profile runs.  argv
 * runs the runner's --profile mode on shape under the profiler (box: its
 * working directory, where it may write); read turns what it wrote (out:
 * its stdout) into profile.json's "kernels", or NULL with *why.
 */
struct ks_profiler {
	const char *name, *title;       /* "ncu", "Nsight Compute" */
	const char *env;                /* the variable naming the program: KS_NCU */
	const char *const *places;      /* where to look for it after PATH */
	char **(*argv)(const char *tool, const char *box, const char *runner, long seed, const char *shape);
	cJSON *(*read)(const char *box, const char *out, char **why);
};
extern const struct ks_profiler ks_ncu, ks_rocprof;

/*
 * ks_sol.c: how far a measured kernel is from the speed of light.
 * ks_sol_share: a bench.json result's "sol_us" over its "time_us", 0 when
 * it has none; ks_sol_overall: the geometric mean over c's shapes, 0
 * unless c is measured and every shape has one.  KS_SOL_STOP (percent,
 * default 90, 0 never) is the share at which the search stops:
 * ks_sol_reached says why, with the fastest kernel at that share or more
 * on every shape (*which), or NULL when none is.
 */
double ks_sol_share(const cJSON *result);
double ks_sol_overall(const struct ks_cand *c);
/* a share as a percentage for people and prompts: "61.1", "0.021" (buf, returned) */
const char *ks_sol_pct(double share, char *buf, size_t n);
int ks_sol_stop_setting(double *share);
char *ks_sol_reached(const struct ks_cand *c, size_t n, double share, const struct ks_cand **which);

/*
 * ks_report_html.c: what ks-report shows.  ks_report_summary: the line
 * that sums up a run ("POP: generations 0..5, 16 kernels, ..."), without
 * its newline.  ks_report_html: the whole run as one HTML page that needs
 * no network (inline CSS, SVG and script), everything from the population
 * escaped; NULL with a message when a file it needs does not load.
 */
char *ks_report_summary(const char *root, const struct ks_cand *c, size_t n);
char *ks_report_html(const struct ks_run *run, const struct ks_cand *c, size_t n);

/*
 * ks_noise.c: when one time is faster than another.  The noise of a
 * result is relative: its standard error and the floor of the bench it
 * came from (larger when a shape did not converge).
 */
double ks_shape_noise(const cJSON *result);           /* one entry of bench.json "results" */
double ks_score_noise(const struct ks_cand *c);
/*
 * How far to trust a score, as the reports print it: the largest relative
 * standard error of its shapes ("1.3%"), with a ! when a shape's timing hit
 * the time cap before the harness's stop rule (0.5 %) was met; "-" when
 * unknown.
 */
void ks_score_spread(char *buf, size_t n, const struct ks_cand *c);
/* the largest relative standard error of c's shapes; -1 when none is known */
double ks_score_worst_rse(const struct ks_cand *c);
/* 1 when some shape of c's bench did not converge (ran into the time cap) */
int ks_score_unconverged(const struct ks_cand *c);
/* 1 when time ta (noise na) is faster than tb (noise nb) by more than twice their noise */
int ks_time_faster(double ta, double na, double tb, double nb);
int ks_faster(const struct ks_cand *a, const struct ks_cand *b);
/*
 * a's time over b's as measured side by side, with its 95 % interval: 1
 * when either was benched beside the other (b beside a: the figures
 * inverted), else 0.
 */
int ks_versus(const struct ks_cand *a, const struct ks_cand *b, double *ratio, double *lo, double *hi);

/*
 * ks_settings.c: the stages' settings that no module above reads for
 * itself, read by the stage that uses each and by ks_settings_check.
 * Each returns 0 (or the value), or -1 after one line naming the setting
 * and its value.
 */
/* the most calls of one timed sample: kernels/common/ks_judge.h's KS_JUDGE_MAX_BATCH */
#define KS_BATCH_MAX 128
struct ks_bench_settings {
	/* the environment over problem.json's "limits": KS_TIME_CAP_S, KS_BENCH_TIMEOUT_S, ... */
	double time_cap_s, timeout_s;
	double warmup_s;          /* KS_BENCH_WARMUP_S: each shape's warm-up, at least (the harness's 0.05) */
	long mem_mb, min_runs, fsize_mb, max_procs;
	const char *salt;         /* KS_BENCH_SALT, or NULL; points into the environment */
	int versus_on;            /* KS_VERSUS: time a candidate side by side with its base */
	const char *batch;        /* KS_BENCH_BATCH: the runner's --batch; NULL: its default */
};
/* ks-bench's settings; a limit of problem.json that is not one is named with the file */
int ks_bench_settings_load(const struct ks_problem *p, struct ks_bench_settings *s);
int ks_repair_tries(void);   /* KS_REPAIR_TRIES: repairs of a kernel that does not compile (2) */
/* KS_CONTEXT_CHARS: the most characters of one section of a prompt (the population, the findings) */
#define KS_CONTEXT_CHARS_DEFAULT 16000
int ks_ctx_budget(size_t *budget);
int ks_profile_timeout(double *s);   /* KS_PROFILE_TIMEOUT_S: ks-profile's limit in seconds (600) */

/*
 * ks_settings_check.c: every setting of every stage, checked before a
 * run by the rules the stages read them with (ks-init runs it, so that
 * every make generation and make check does, before anything is built or
 * asked): the LLM settings of select, hypothesize and implement, build's
 * launcher and architecture, bench's limits, sandbox, GPUs, machine and
 * launcher, target external's evaluator, the profiler's limit.  The run
 * is root's run.json where there is one (a problem or target given that
 * it contradicts: 0, unchecked, for ks-init to refuse), else problem and
 * target (NULL: sgemm, the problem's first target).  Nothing is written,
 * asked or said when they are good: 0; -1 after the one line that the
 * stage would print (a problem or a run.json that does not load is named
 * the same way).
 */
int ks_settings_check(const char *root, const char *problem, const char *target);

/* ks_offline.c: the rules used when no LLM is configured */
int ks_offline_select(struct ks_cand *c, size_t n, cJSON **out);
/* NULL and *why (caller prints and frees) when it has nothing to propose; NULL alone after an I/O error it printed. */
cJSON *ks_offline_hypothesize(const struct ks_cand *base, struct ks_cand *c, size_t n, char **why);

#endif
