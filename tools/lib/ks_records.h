/*
 * ks_records.h - layer 1 of the library: the population's names and the
 * files the stages hand to each other, one loader each.
 *
 * A header includes only the layer below it (tests/0010-library.bats).
 */
#ifndef KS_RECORDS_H
#define KS_RECORDS_H

#include "ks_core.h"

/* ks_records.c: the population's names (population(5)) */
#define KS_MAX_GEN 999
#define KS_MAX_K 5   /* the hypothesize stage writes 5 plans */

int ks_id_parse(const char *id, long *gen, long *slot);    /* 0, or -1 without a message */
void ks_id_format(char *buf, size_t n, long gen, long slot);
char *ks_gen_dir(const char *root, long gen);
char *ks_cand_dir(const char *root, long gen, long slot);
/* name is a generation folder's, gen-NNN (*gen), or a candidate's, cS (*slot): 0, else -1 quietly */
int ks_gen_name_parse(const char *name, long *gen);
int ks_slot_name_parse(const char *name, long *slot);
/* dir is POP/gen-NNN: sets *root (caller frees) and *gen. */
int ks_gen_dir_parse(const char *dir, char **root, long *gen);
/* dir is POP/gen-NNN/cS: sets *root, *gen, *slot. */
int ks_cand_dir_parse(const char *dir, char **root, long *gen, long *slot);

/*
 * ks_records.c: the files the stages hand to each other, one loader each.
 * A loader reads the file, checks every field that population(5) gives
 * it (an error line names the file and the field), and fills a record
 * whose pointers point into its json; free it with the matching _free.
 * Returns 0 when loaded, -1 with a message (none under KS_LOAD_SILENT), and 1
 * under KS_OPTIONAL when the file does not exist (yet).
 */
#define KS_OPTIONAL 1   /* absent: return 1, quietly */
#define KS_LOAD_SILENT 2      /* no message at all: a file about to be replaced, say */
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

/* dir/hypotheses.json, checked (ks_hypotheses_check) with what the tools add: base, model */
cJSON *ks_hypotheses_load(const char *dir, long k);
/* The number of plans gen's hypotheses.json keeps, -1 without a valid one (quiet). */
int ks_plans_kept(const char *root, long gen);
/* 1 when the generation's plans leave slot empty (fewer kept plans than K): no candidate there. */
int ks_slot_unplanned(const char *root, long gen, long slot);

/*
 * ks_plans.c: checks a hypotheses object: 1..10 avenues (exactly 10 when
 * strict, as a model must give), 5 complete plans, and "chosen" too when
 * k > 0.  validate sets *why (caller frees); check prints it with the
 * file name.
 */
int ks_hypotheses_validate(const cJSON *h, long k, int strict, char **why);
int ks_hypotheses_check(const cJSON *h, const char *file, long k);
/* The K plans kept of 5 (population(5)): most innovative, highest max uplift, highest min uplift, ...; -1 when fewer distinct plans exist */
int ks_plans_choose(const cJSON *plans, long k, long *chosen);

#endif
