/*
 * ks_offline_select.c - the proposer used when no LLM is configured:
 * its select (ks_offline.c: its hypothesize).
 *
 * It works on the tunable parameters a kernel declares (ks_tune.c):
 * select takes the fastest kernel, hypothesize proposes changes of the
 * base's parameters scored from what the population measured, and
 * implement (in ks-implement) rewrites the values.  So the whole loop
 * runs, and improves, on a machine without an API key.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ks_search.h"

int
ks_offline_ok(const struct ks_cand *c)
{
	return c->status && strcmp(c->status, "ok") == 0;
}

static const cJSON *
results_of(const struct ks_cand *c)
{
	return c->bench.results;
}

/* Shapes on which a is faster than b, outside the noise of both. */
static int
shapes_won(const struct ks_cand *a, const struct ks_cand *b)
{
	const cJSON *ra = results_of(a), *rb = results_of(b);
	int n = cJSON_GetArraySize(ra), won = 0;

	if (n != cJSON_GetArraySize(rb))
		return 0;
	for (int i = 0; i < n; i++) {
		const cJSON *x = cJSON_GetArrayItem(ra, i), *y = cJSON_GetArrayItem(rb, i);
		double ta, tb;

		if (ks_json_num(x, "time_us", NULL, &ta) == 0 && ks_json_num(y, "time_us", NULL, &tb) == 0 &&
		    ks_time_faster(ta, ks_shape_noise(x), tb, ks_shape_noise(y)))
			won++;
	}
	return won;
}

/*
 * The base: the fastest correct kernel, unless an earlier kernel is as
 * fast within the noise; then the earliest of those stays (a new kernel
 * must beat the old ones by more than the noise to take over: a
 * difference inside it is no evidence).  *fastest gets the fastest.
 */
static struct ks_cand *
choose_base(struct ks_cand *c, size_t n, struct ks_cand **fastest)
{
	struct ks_cand *best = NULL;

	for (size_t i = 0; i < n; i++)
		if (ks_offline_ok(&c[i]) && (!best || c[i].score_us < best->score_us))
			best = &c[i];
	*fastest = best;
	if (!best)
		return NULL;
	/* c is in generation and slot order: the first tie is the earliest */
	for (size_t i = 0; i < n; i++)
		if (ks_offline_ok(&c[i]) && !ks_faster(best, &c[i]))
			return &c[i];
	return best;
}

int
ks_offline_select(struct ks_cand *c, size_t n, cJSON **out)
{
	struct ks_cand *base, *ref = NULL, *fastest;
	int ref_won = -1;
	char *reason, *tie = NULL;

	if (!(base = choose_base(c, n, &fastest)))
		return -1;
	if (fastest != base)
		tie = ks_easprintf(" within the noise: %s, %.4g us, is %.2g %% faster, inside the noise, so the earlier "
		    "kernel stays", fastest->id, fastest->score_us, 100 * (base->score_us / fastest->score_us - 1));
	/* The reference: the kernel that beats the base on the most shapes, then the next fastest. */
	for (size_t i = 0; i < n; i++) {
		int won;

		if (!ks_offline_ok(&c[i]) || &c[i] == base)
			continue;
		won = shapes_won(&c[i], base);
		if (!ref || won > ref_won || (won == ref_won && c[i].score_us < ref->score_us)) {
			ref = &c[i];
			ref_won = won;
		}
	}
	if (!ref)
		reason = ks_easprintf("offline rule: %s is the only correct kernel (%.4g us), so it is both base and reference",
		    base->id, base->score_us);
	else if (ref_won > 0)
		reason = ks_easprintf("offline rule: %s has the best score (%.4g us)%s; %s is faster on %d benchmark shape(s)",
		    base->id, base->score_us, tie ? tie : "", ref->id, ref_won);
	else
		reason = ks_easprintf("offline rule: %s has the best score (%.4g us)%s; %s is the next best (%.4g us)",
		    base->id, base->score_us, tie ? tie : "", ref->id, ref->score_us);
	*out = cJSON_CreateObject();
	cJSON_AddStringToObject(*out, "base", base->id);
	cJSON_AddStringToObject(*out, "reference", ref ? ref->id : base->id);
	cJSON_AddStringToObject(*out, "reason", reason);
	free(reason);
	free(tie);
	return 0;
}
