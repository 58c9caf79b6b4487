/*
 * ks_stages.h - layer 8 of the library: what the stage tools share on top:
 * the opening and closing of an LLM stage, the report, the settings check
 * of a whole run.
 *
 * A header includes only the layer below it (tests/0010-library.bats).
 */
#ifndef KS_STAGES_H
#define KS_STAGES_H

#include "ks_search.h"

/*
 * ks_stage.c: what ks-select, ks-hypothesize and ks-implement open before
 * their work and close after it.  ks_stage_open parses dir (POP/gen-NNN,
 * or POP/gen-NNN/cS with KS_STAGE_SLOT), then loads what flags name;
 * ks_stage_load loads more, for a stage that checks something of its own
 * in between.  However split, the loads come in this order, which is the
 * order of the errors said: run.json; the stage's model (a bad setting
 * said before anything is asked; a slot's stage has run.json loaded
 * first, for its K); the run's problem; the kernels of the generations
 * before gen; the base and the reference that gdir/select.json names
 * (from those kernels).  0, or -1 said; either way ks_stage_close frees
 * what was loaded.
 */
struct ks_stage {
	const char *name;       /* select, hypothesize, implement: whose settings choose the model */
	const char *dir;        /* as given */
	char *root;             /* the population */
	char *gdir;             /* the generation's directory: dir itself, or a slot's */
	long gen, slot;         /* slot: -1 for a generation's stage */
	struct ks_run run;
	struct ks_llm llm;      /* open when offline is 0 */
	int offline;            /* ks_llm_open's answer: 1 when no model is configured; -1 not asked */
	struct ks_problem prob;
	struct ks_cand *c;      /* the kernels before gen */
	size_t n;
	struct ks_cand *base, *ref;     /* into c */
};
#define KS_STAGE_SLOT 1         /* dir is a candidate slot's */
#define KS_STAGE_RUN 2
#define KS_STAGE_LLM 4
#define KS_STAGE_PROBLEM 8
#define KS_STAGE_CANDS 16
#define KS_STAGE_SELECT 32
int ks_stage_open(struct ks_stage *st, const char *name, const char *dir, unsigned flags);
int ks_stage_load(struct ks_stage *st, unsigned flags);
void ks_stage_close(struct ks_stage *st);

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

/*
 * ks_estimate.c: ks-report -E n: prints the LLM calls and tokens that
 * making generations up to n of run (pop as the user named it) takes;
 * 0, or -1 said.
 */
int ks_estimate_print(const char *pop, const struct ks_run *run, long n);

#endif
