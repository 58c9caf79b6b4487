/*
 * ks-query - what the pipeline asks of a population, one answer a line:
 * the run's problem, target and K (-r), the candidate folders the plans
 * leave empty (-e), the seed's and the best kernels' folders (-t N).
 * pipeline.mk and scripts read it; ks-report is the report for people.
 */
#include <stdlib.h>
#include <string.h>

#include "ks_stages.h"

struct opts {
	int empty;	/* -e */
	int run;	/* -r */
	long top;	/* -t N; 0: not asked */
};

static int
on_flag(int ch, const char *value, void *arg)
{
	struct opts *o = arg;

	if (ch == 'e')
		o->empty = 1;
	else if (ch == 'r')
		o->run = 1;
	else if (ch == 't' && ks_parse_int(value, 1, 1000, &o->top) < 0) {
		ks_warnx("-t takes a number of kernels from 1 to 1000, not '%s'", value);
		return 2;
	}
	if (o->empty + o->run + (o->top > 0) > 1) {
		ks_warnx("-e, -r and -t do not go together: each asks a question of its own");
		return 2;
	}
	return 0;
}

/*
 * -e: the candidate directories that the generations' plans leave empty
 * (fewer kept plans than K: the offline proposer had fewer untried
 * configurations, or none), one per line, for pipeline.mk not to wait for.
 */
static void
print_empty_slots(const char *pop, const struct ks_run *run)
{
	size_t ngens;
	long *gens = ks_gens_list(run->root, &ngens);

	for (size_t i = 0; i < ngens; i++) {
		int kept = ks_plans_kept(run->root, gens[i]);

		if (kept < 0)	/* no plans yet */
			continue;
		/* named as make names them: pop as given */
		for (long s = kept; s < run->k; s++)
			printf("%s/gen-%03ld/c%ld\n", pop, gens[i], s);
	}
	free(gens);
}

/* -t N: the seed's directory and the N best correct kernels', one a line: what make heldout benches */
static void
print_top(const struct ks_cand *c, size_t n, long top)
{
	size_t *order = ks_ecalloc(n ? n : 1, sizeof(*order)), m = 0;

	for (size_t i = 0; i < n; i++)
		if (c[i].gen == 0 && c[i].score_us > 0)
			printf("%s\n", c[i].dir);
	for (size_t i = 0; i < n; i++)
		if (c[i].gen > 0 && c[i].score_us > 0)
			order[m++] = i;
	/* a selection by score, as few as asked */
	for (size_t k = 0; k < m && (long)k < top; k++) {
		size_t best = k;

		for (size_t j = k + 1; j < m; j++)
			if (c[order[j]].score_us < c[order[best]].score_us)
				best = j;
		size_t t = order[k];
		order[k] = order[best];
		order[best] = t;
		printf("%s\n", c[order[k]].dir);
	}
	free(order);
}

int
main(int argc, char *argv[])
{
	struct opts o = { 0 };
	struct ks_args_spec spec = { "-r | -e | -t N pop",
		"  Answers what the pipeline asks of a population, one answer a line\n"
		"  (ks-report is the report for people):\n"
		"  -r  the run's problem, target and K (run.json), on one line: what\n"
		"      make generation goes on with\n"
		"  -e  the candidate directories that the generations' plans leave empty\n"
		"      (the offline proposer had fewer than K untried configurations\n"
		"      left): what pipeline.mk skips\n"
		"  -t N  the directories of the seed and of the N best correct kernels:\n"
		"      what make heldout benches on the held-out shapes\n",
		"ert:", on_flag, &o, NULL, NULL, NULL };
	const char *root = ks_args(argc, argv, &spec);
	struct ks_cand *c;
	struct ks_run run;
	size_t n;
	int rval = 0;

	if (!o.empty && !o.run && o.top == 0) {
		fprintf(stderr, "usage: %s %s\n", ks_progname, spec.synopsis);
		ks_warnx("one of -r, -e and -t asks the question");
		return 2;
	}
	if (ks_run_load(root, &run) < 0)
		return 1;
	if (o.run) {
		printf("%s %s %ld\n", run.problem, run.target, run.k);
	} else if (o.empty) {
		print_empty_slots(root, &run);
	} else if (ks_cands_load(run.root, KS_MAX_GEN + 1, KS_KEEP_GOING, &c, &n) < 0) {
		rval = 1;
	} else {
		print_top(c, n, o.top);
		ks_cands_free(c, n);
	}
	ks_run_free(&run);
	return ks_fclose_stdout() < 0 ? 1 : rval;
}
