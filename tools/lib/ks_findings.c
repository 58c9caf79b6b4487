/*
 * ks_findings.c - what the model is shown of earlier generations: the
 * track record of its predictions (calibration) and the findings, each
 * kind of plan with the kernels that tried it and what they measured,
 * within the prompt's budget of characters.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"

/* The plan's kind as the model named it; the offline proposer's are "tuning"; else "other". */
static const char *
plan_kind(const cJSON *plan)
{
	const char *k = ks_json_str(plan, "kind", NULL);

	if (k && *k)
		return k;
	return cJSON_GetObjectItemCaseSensitive(plan, "changes") ? "tuning" : "other";
}

char *
ks_ctx_track_record(const struct ks_calibration *calp)
{
	const struct ks_calibration cal = *calp;

	if (cal.measured == 0 && cal.failed == 0)
		return ks_estrdup("No plan has been measured yet.");
	return ks_easprintf("Of the %ld plans measured so far, %ld (%.0f %%) measured inside the uplift range they "
	    "predicted, %ld below it and %ld above it; %ld more failed (wrong, crashed, did not build or were "
	    "rejected). On average (a geometric mean, so that one large speed-up does not drown the rest) a measured "
	    "plan's kernel ran %.2f times as fast as the middle of its range promised (an uplift of +100 %% is 2x "
	    "the base's speed; over 1: faster than promised, under 1: slower). The plans are kept by these numbers: predict the range you expect to hit, not the one that gets a plan kept.",
	    cal.measured, cal.inside, cal.measured ? 100.0 * (double)cal.inside / (double)cal.measured : 0,
	    cal.below, cal.above, cal.failed, cal.speed_ratio);
}

/* One finding in full: the plan, what it expected, what it measured (and against the range) or why it failed. */
static void
add_finding(struct ks_buf *b, const struct ks_cand *c, size_t n, const struct ks_cand *k)
{
	static const char *const where[] = { "below the range", "inside the range", "above the range" };
	long bi = ks_ctx_find_id(c, n, k->cand.base);
	double lo = 0, hi = 0, pct, r, rlo, rhi;

	ks_json_num(k->cand.plan, "uplift_min", NULL, &lo);
	ks_json_num(k->cand.plan, "uplift_max", NULL, &hi);
	ks_buf_printf(b, "- generation %ld, %s from %s: \"%s\" (expected %+.0f%% to %+.0f%%): ", k->gen, k->id,
	    ks_ctx_parent_of(k, "base"), ks_ctx_plan_title(k), lo, hi);
	if (ks_plan_uplift(c, n, k, &pct) && ks_versus(k, &c[bi], &r, &rlo, &rhi))
		ks_buf_printf(b, "measured %+.1f%% timed side by side with its base (95%% interval %+.1f%% to %+.1f%%), "
		    "%s (%.2f us, its base %.2f us benched alone)\n", pct, (1 / rhi - 1) * 100, (1 / rlo - 1) * 100,
		    ks_faster(k, &c[bi]) || ks_faster(&c[bi], k) ? where[ks_plan_against_range(k->cand.plan, pct) + 1] :
		    "within noise", k->score_us, c[bi].score_us);
	else if (ks_plan_uplift(c, n, k, &pct))
		ks_buf_printf(b, "measured %+.1f%%, %s (%.2f us against %.2f us, benched apart)\n", pct,
		    ks_faster(k, &c[bi]) || ks_faster(&c[bi], k) ? where[ks_plan_against_range(k->cand.plan, pct) + 1] :
		    "within noise", k->score_us, c[bi].score_us);
	else if (k->bench.message)
		ks_buf_printf(b, "%s: %.200s\n", k->status ? k->status : "not benched", k->bench.message);
	else
		ks_buf_printf(b, "%s\n", k->status ? k->status : "not benched");
}

/* the kernels of plans of one kind: newest first */
static size_t
kind_members(const struct ks_cand *c, size_t n, const char *kind, size_t *out)
{
	size_t m = 0;

	for (size_t i = n; i-- > 0;)
		if (cJSON_IsObject(c[i].cand.plan) && strcmp(plan_kind(c[i].cand.plan), kind) == 0)
			out[m++] = i;
	return m;
}

/* members by measured uplift, largest first; those without one last (as_uplift[i] is member i's) */
static int
by_uplift(const void *x, const void *y, void *arg)
{
	const double *up = arg;
	double a = up[*(const size_t *)x], b = up[*(const size_t *)y];

	return (a < b) - (a > b);
}

/*
 * A kind of plan: a line of counts, then in full, as the share allows,
 * the most recent, the largest wins and the most recent failures that
 * say why.
 */
static void
add_kind(struct ks_buf *b, const struct ks_cand *c, size_t n, const char *kind, size_t *m, size_t nm,
    size_t limit)
{
	/* at most 3 newest, 3 wins, every failure and every member */
	size_t faster = 0, slower = 0, failed = 0, *order = ks_ecalloc(2 * nm + 7, sizeof(*order)), no = 0;
	size_t *wins = ks_ecalloc(nm + 1, sizeof(*wins));
	double *up = ks_ecalloc(nm + 1, sizeof(*up)), pct, best_pct = 0;
	char *done = ks_ecalloc(n ? n : 1, 1);
	const struct ks_cand *best = NULL;

	for (size_t i = 0; i < nm; i++) {
		const struct ks_cand *k = &c[m[i]];

		up[i] = -1e300;
		wins[i] = i;
		if (ks_plan_uplift(c, n, k, &pct)) {
			up[i] = pct;
			pct > 0 ? faster++ : slower++;
			if (!best || pct > best_pct)
				best = k, best_pct = pct;
		} else if (k->status && strcmp(k->status, "ok") != 0) {
			failed++;
		}
	}
	ks_buf_printf(b, "### %s: %zu plans, %zu faster than their base", kind, nm, faster);
	if (best && best_pct > 0)
		ks_buf_printf(b, " (best %+.1f%%, %s)", best_pct, best->id);
	ks_buf_printf(b, ", %zu slower, %zu failed\n", slower, failed);
	/* the order of showing: 3 newest, then the largest wins, then failures with a reason, then the rest */
	for (size_t i = 0; i < nm && i < 3; i++)
		order[no++] = m[i];
	qsort_r(wins, nm, sizeof(*wins), by_uplift, up);
	for (size_t i = 0; i < nm && i < 3; i++)
		order[no++] = m[wins[i]];
	/* failures that say why, each reason once: the same reason again teaches nothing */
	for (size_t i = 0; i < nm; i++) {
		const char *why = c[m[i]].bench.message;
		size_t j;

		if (!why || c[m[i]].score_us > 0)
			continue;
		for (j = 0; j < i && !(c[m[j]].bench.message && c[m[j]].score_us <= 0 &&
		    strncmp(c[m[j]].bench.message, why, 40) == 0); j++)
			;
		if (j == i)
			order[no++] = m[i];
	}
	for (size_t i = 0; i < nm; i++)
		order[no++] = m[i];
	for (size_t i = 0; i < no; i++) {
		struct ks_buf e = { 0 };

		if (done[order[i]])
			continue;
		add_finding(&e, c, n, &c[order[i]]);
		if (ks_ctx_add_within(b, &e, limit) < 0) {
			ks_buf_free(&e);
			break;
		}
		done[order[i]] = 1;
		ks_buf_free(&e);
	}
	free(wins);
	free(up);
	free(order);
	free(done);
}

/*
 * Every plan with what it measured, while that fits the budget.  Beyond
 * it, grouped by the plan's kind: a line of counts for each kind, then as
 * many plans in full as its share allows.
 */
char *
ks_ctx_findings(const struct ks_cand *c, size_t n, size_t budget)
{
	struct ks_buf b = { 0 };
	size_t *m, nkinds = 0, nplans = 0;
	const char **kinds;

	ks_buf_add(&b, "", 0);
	for (size_t i = 0; i < n; i++)
		if (cJSON_IsObject(c[i].cand.plan)) {
			add_finding(&b, c, n, &c[i]);
			nplans++;
		}
	if (b.len == 0)
		ks_buf_puts(&b, "(none yet: this is the first generation)\n");
	if (b.len <= budget)
		return b.s;
	b.len = 0;
	b.s[0] = '\0';
	m = ks_ecalloc(n, sizeof(*m));
	kinds = ks_ecalloc(n, sizeof(*kinds));
	for (size_t i = 0; i < n; i++) {
		const char *k;
		size_t j;

		if (!cJSON_IsObject(c[i].cand.plan))
			continue;
		k = plan_kind(c[i].cand.plan);
		for (j = 0; j < nkinds && strcmp(kinds[j], k) != 0; j++)
			;
		if (j == nkinds)
			kinds[nkinds++] = k;
	}
	ks_buf_printf(&b, "(%zu plans: more than KS_CONTEXT_CHARS=%zu characters in full, so by kind: the newest, "
	    "the largest wins and failures that say why)\n", nplans, budget);
	for (size_t j = 0; j < nkinds; j++) {
		size_t nm = kind_members(c, n, kinds[j], m);

		add_kind(&b, c, n, kinds[j], m, nm, b.len + (budget - b.len) / (nkinds - j));
	}
	free(m);
	free(kinds);
	return b.s;
}
