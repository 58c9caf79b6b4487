/*
 * ks_pop.h - layer 2 of the library: the population and its problems:
 * candidates, run.json, problem.json, what a source may not do, knobs,
 * noise, speed of light.
 *
 * A header includes only the layer below it (tests/0010-library.bats).
 */
#ifndef KS_POP_H
#define KS_POP_H

#include "ks_records.h"

/* ks_pop.c: the population directory, run.json, problems, candidates */
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

/* The numbers of root's gen-NNN directories, sorted (free it); NULL when none. */
long *ks_gens_list(const char *root, size_t *n);

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
/* Where inline assembly is refused as well: nowhere, in a CPU kernel, or in the host code nvcc's host pass reads */
enum ks_asm_rule { KS_ASM_ALLOWED, KS_ASM_REFUSED_CPU, KS_ASM_REFUSED_HOST };
/* The same, inline assembly refused too as asm says (a CPU target's): what no preprocessing branch can hide */
char *ks_static_check_source(const char *src, const cJSON *forbidden, enum ks_asm_rule asm_rule);
/* The same rules on a kernel's preprocessed lines (no #include left), inline assembly as asm_rule says. */
char *ks_static_check_expanded(const char *text, const cJSON *forbidden, enum ks_asm_rule asm_rule);
/* Why the file at path, which the kernel's preprocessing read, is a vendor library's header; NULL when it is not */
char *ks_static_vendor_header(const char *path);
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

/* ks_pop.c, continued: */
/* dir/select.json; *base and *ref point into c, to correct kernels. */
int ks_select_load(const char *dir, struct ks_cand *c, size_t n, struct ks_cand **base, struct ks_cand **ref);

#endif
