/*
 * ks_estimate.c - ks-report -E N (make estimate N=...): the LLM calls and
 * tokens that making generations up to N takes, by stage, from the
 * ledger so far, a stage not yet billed guessed from its prompt's parts;
 * with KS_MAX_TOKENS, how far the budget lasts.  Nothing is asked.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ks_stages.h"

/* -E: one stage's part of an estimate: its calls so far and what one costs, from the ledger or a guess */
struct stage_cost {
	const char *stage;
	double calls_per_gen, prompt, completion;	/* tokens per billed call */
	long billed;					/* its billed calls in the ledger so far */
};

/* "1,234,567": a count of tokens as a person reads it */
static void
print_count(double v)
{
	char digits[32];
	int len, i;

	len = snprintf(digits, sizeof digits, "%.0f", v);
	for (i = 0; i < len; i++)
		printf("%c%s", digits[i], (len - i - 1) % 3 == 0 && i < len - 1 ? "," : "");
}

/* the characters of a problem file or a prompt template, 0 when it cannot be read */
static double
file_chars(const char *path)
{
	size_t n = 0;
	char *text = path && ks_exists(path) ? ks_file_read(path, &n) : NULL;

	free(text);
	return (double)n;
}

/*
 * What a stage's call costs where the ledger has none billed yet: its
 * prompt from the sizes of what it holds (the template, the task, the
 * seed's code once or twice), at about 4 characters a token; its reply
 * a choice (select), five plans (hypothesize, about 2,500 tokens as
 * BENCHMARKS.md measured them) or a kernel a little longer than the seed.
 */
static void
guess_cost(struct stage_cost *sc, const struct ks_problem *p, double seed_chars)
{
	char *prompts = ks_data_dir("prompts", "KS_PROMPTS_DIR"), *tpath, *task = ks_problem_file(p, "task");
	double tmpl, task_chars = file_chars(task);

	tpath = ks_easprintf("%s/%s.md", prompts, sc->stage);
	tmpl = file_chars(tpath);
	if (strcmp(sc->stage, "select") == 0) {
		sc->prompt = (tmpl + 1500) / 4;
		sc->completion = 100;
	} else if (strcmp(sc->stage, "hypothesize") == 0) {
		sc->prompt = (tmpl + task_chars + seed_chars + 3000) / 4;
		sc->completion = 2500;
	} else {
		sc->prompt = (tmpl + task_chars + 2 * seed_chars + 1500) / 4;
		sc->completion = 1.2 * seed_chars / 4;
	}
	free(tpath);
	free(prompts);
	free(task);
}

/* the highest generation whose plans are made (hypotheses.json), 0 when none is */
static long
last_planned(const char *root)
{
	size_t ngens;
	long *gens = ks_gens_list(root, &ngens), last = 0;

	for (size_t i = 0; i < ngens; i++)
		if (gens[i] > last && ks_plans_kept(root, gens[i]) >= 0)
			last = gens[i];
	free(gens);
	return last;
}

/*
 * -E N: the LLM calls and tokens that making generations up to N will
 * take, from the ledger's calls so far (per generation and per call, by
 * stage), or from the prompts' sizes before any call was billed.
 */
int
ks_estimate_print(const char *pop, const struct ks_run *run, long n)
{
	struct stage_cost sc[3] = { { "select", 1, 0, 0, 0 }, { "hypothesize", 1, 0, 0, 0 },
		{ "implement", (double)run->k, 0, 0, 0 } };
	struct ks_stage_usage su[8];
	struct ks_problem p;
	size_t ns;
	long done = last_planned(run->root), todo = n - done, budget = 0;
	double calls = 0, prompt = 0, completion = 0, seed_chars = 0;
	const char *b = getenv("KS_MAX_TOKENS");
	struct ks_usage u;
	char *seed;
	int guessed = 0;

	if (todo <= 0) {
		printf("%s: the plans of generations 1..%ld are made: making generation %ld takes no LLM call\n", pop,
		    done, n);
		return 0;
	}
	if (ks_ledger_stages(run->root, su, 8, &ns) < 0 || ks_ledger_load(run->root, &u) < 0 ||
	    ks_problem_load(run->problem, &p) < 0)
		return -1;
	seed = ks_problem_file(&p, "seed_kernel");
	seed_chars = file_chars(seed);
	free(seed);
	for (int i = 0; i < 3; i++) {
		for (size_t k = 0; k < ns; k++) {
			const struct ks_usage *x = &su[k].u;
			long billed = x->calls - x->cached_calls;

			if (strcmp(su[k].stage, sc[i].stage) != 0 || billed <= 0)
				continue;
			sc[i].billed = billed;
			sc[i].prompt = (double)x->prompt_tokens / billed;
			sc[i].completion = (double)x->completion_tokens / billed;
			/* re-asks and repairs included: the calls each generation made so far */
			if (done > 0)
				sc[i].calls_per_gen = (double)x->calls / done;
		}
		if (!sc[i].billed) {
			guess_cost(&sc[i], &p, seed_chars);
			guessed = 1;
		}
		calls += sc[i].calls_per_gen * todo;
		prompt += sc[i].calls_per_gen * todo * sc[i].prompt;
		completion += sc[i].calls_per_gen * todo * sc[i].completion;
	}
	printf("%s: making generations %ld..%ld (%ld of K=%ld) takes about %.0f LLM calls, ", pop, done + 1, n, todo,
	    run->k, calls);
	print_count(prompt);
	printf(" prompt and ");
	print_count(completion);
	printf(" completion tokens%s\n", guessed ? " (a stage with no call billed yet is guessed from the sizes of "
	    "its prompt's parts, at 4 characters a token)" : "");
	for (int i = 0; i < 3; i++) {
		printf("  %s: %.1f calls a generation, each about ", sc[i].stage, sc[i].calls_per_gen);
		print_count(sc[i].prompt);
		printf(" prompt and ");
		print_count(sc[i].completion);
		if (sc[i].billed)
			printf(" completion tokens (the ledger's %ld billed calls)\n", sc[i].billed);
		else
			printf(" completion tokens (guessed)\n");
	}
	if (b && *b && ks_parse_int(b, 1, 1000000000000L, &budget) == 0) {
		double used = (double)(u.prompt_tokens + u.completion_tokens), per_gen = (prompt + completion) / todo;
		long lasts = per_gen > 0 ? (long)((budget - used) / per_gen) : todo;

		printf("  KS_MAX_TOKENS=%ld: %.0f tokens billed so far; ", budget, used);
		if (lasts >= todo)
			printf("the rest of the budget covers these generations\n");
		else if (lasts <= 0)
			printf("the budget is spent: raise it to go on\n");
		else
			printf("the rest of the budget lasts about %ld generations, to generation %ld\n", lasts, done + lasts);
	}
	ks_problem_free(&p);
	return 0;
}
