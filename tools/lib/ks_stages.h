/*
 * ks_stages.h - layer 8 of the library: what the stage tools share on top:
 * the report, the settings check of a whole run.
 *
 * A header includes only the layer below it (tests/0010-library.bats).
 */
#ifndef KS_STAGES_H
#define KS_STAGES_H

#include "ks_search.h"

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
