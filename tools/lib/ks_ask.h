/*
 * ks_ask.h - layer 6 of the library: asking the model: prompts, reply
 * parsing and edits, the context shown, calibration, the target facts.
 *
 * A header includes only the layer below it (tests/0010-library.bats).
 */
#ifndef KS_ASK_H
#define KS_ASK_H

#include "ks_llm.h"

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

/*
 * ks_context.c, ks_findings.c, ks_task.c: what the LLM stages show the
 * model (KS_CONTEXT_CHARS: ks_settings.c); ks_ask_model.c: how they ask
 */
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
 * ks_ctx_track_record (ks_findings.c) says it for the hypothesize prompt.
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

#endif
