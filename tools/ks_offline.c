/*
 * ks_offline.c - the proposer used when no LLM is configured.
 *
 * It works on the tunable parameters a kernel declares (ks_tune.c):
 * select takes the fastest kernel, hypothesize proposes changes of the
 * base's parameters scored from what the population measured, and
 * implement (in ks-implement) rewrites the values.  So the whole loop
 * runs, and improves, on a machine without an API key.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ks.h"

#define MAX_PARAMS 32

static int
is_ok(const struct ks_cand *c)
{
	return c->status && strcmp(c->status, "ok") == 0;
}

static const cJSON *
results_of(const struct ks_cand *c)
{
	return c->bench.results;
}

/* Shapes on which a is faster than b. */
static int
shapes_won(const struct ks_cand *a, const struct ks_cand *b)
{
	const cJSON *ra = results_of(a), *rb = results_of(b);
	int n = cJSON_GetArraySize(ra), won = 0;

	if (n != cJSON_GetArraySize(rb))
		return 0;
	for (int i = 0; i < n; i++) {
		double ta, tb;

		if (ks_json_num(cJSON_GetArrayItem(ra, i), "time_us", NULL, &ta) == 0 &&
		    ks_json_num(cJSON_GetArrayItem(rb, i), "time_us", NULL, &tb) == 0 && ta < tb)
			won++;
	}
	return won;
}

int
ks_offline_select(struct ks_cand *c, size_t n, cJSON **out)
{
	struct ks_cand *base = NULL, *ref = NULL;
	int ref_won = -1;
	char *reason;

	for (size_t i = 0; i < n; i++)
		if (is_ok(&c[i]) && (!base || c[i].score_us < base->score_us))
			base = &c[i];
	if (!base)
		return -1;
	/* The reference: the kernel that beats the base on the most shapes, then the next fastest. */
	for (size_t i = 0; i < n; i++) {
		int won;

		if (!is_ok(&c[i]) || &c[i] == base)
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
		reason = ks_easprintf("offline rule: %s has the best score (%.4g us); %s is faster on %d benchmark shape(s)",
		    base->id, base->score_us, ref->id, ref_won);
	else
		reason = ks_easprintf("offline rule: %s has the best score (%.4g us); %s is the next best (%.4g us)",
		    base->id, base->score_us, ref->id, ref->score_us);
	*out = cJSON_CreateObject();
	cJSON_AddStringToObject(*out, "base", base->id);
	cJSON_AddStringToObject(*out, "reference", ref ? ref->id : base->id);
	cJSON_AddStringToObject(*out, "reason", reason);
	free(reason);
	return 0;
}

/* One proposed change: one or two parameters set to new values. */
struct move {
	int nch;
	int param[2];
	long value[2];
	double est, lo, hi;
	int innovation;
	int measured;      /* est comes from kernels that have the new value */
	char why[160];
};

struct config {
	struct ks_param p[MAX_PARAMS];
	int n;
	const struct ks_cand *cand;
};

static int
load_configs(struct ks_cand *c, size_t n, struct config *cfg)
{
	int m = 0;

	for (size_t i = 0; i < n; i++) {
		char *path = ks_cand_kernel_path(&c[i]), *src;

		if (!path)
			continue;
		src = ks_file_read(path, NULL);
		free(path);
		if (!src)
			continue;
		cfg[m].n = ks_tune_parse(src, cfg[m].p, MAX_PARAMS);
		cfg[m].cand = &c[i];
		free(src);
		m++;
	}
	return m;
}

/* 1 when two kernels declare the same parameters with the same values, but for name. */
static int
same_but(const struct config *a, const struct config *b, const char *name)
{
	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (strcmp(a->p[i].name, name) != 0 &&
		    ks_tune_get(b->p, b->n, a->p[i].name, LONG_MIN) != a->p[i].value)
			return 0;
	return 1;
}

/*
 * What the population measured about setting name from cur to v: the
 * geometric mean of score(cur) / score(v) over pairs of correct kernels
 * that differ in that parameter alone.  Comparing kernels that differ
 * in other parameters too would credit this one with their effects.
 */
static int
evidence(const struct config *cfg, int m, const char *name, long v, long cur, double *speedup)
{
	double sum = 0;
	int k = 0;

	for (int i = 0; i < m; i++) {
		if (!is_ok(cfg[i].cand) || ks_tune_get(cfg[i].p, cfg[i].n, name, LONG_MIN) != v)
			continue;
		for (int j = 0; j < m; j++) {
			if (!is_ok(cfg[j].cand) || ks_tune_get(cfg[j].p, cfg[j].n, name, LONG_MIN) != cur ||
			    !same_but(&cfg[i], &cfg[j], name))
				continue;
			sum += log(cfg[j].cand->score_us / cfg[i].cand->score_us);
			k++;
		}
	}
	if (k == 0)
		return 0;
	*speedup = exp(sum / k);
	return k;
}

static int
explored(const struct config *cfg, int m, const char *name, long base_value)
{
	for (int i = 0; i < m; i++) {
		long v = ks_tune_get(cfg[i].p, cfg[i].n, name, base_value);

		if (v != base_value)
			return 1;
	}
	return 0;
}

static int
index_of(const struct ks_param *p, long v)
{
	for (int i = 0; i < p->nallowed; i++)
		if (p->allowed[i] == v)
			return i;
	return -1;
}

/* Scores setting base parameter p to v from what the population measured. */
static void
score_single(const struct ks_param *p, long v, const struct config *cfg, int m, struct move *mv)
{
	double speedup;
	int ci = index_of(p, p->value), vi = index_of(p, v);
	int neighbour = ci >= 0 && abs(ci - vi) == 1;
	int pairs = evidence(cfg, m, p->name, v, p->value, &speedup);

	if (pairs) {
		mv->est = (speedup - 1) * 100;
		mv->lo = mv->est - 10;
		mv->hi = mv->est + 10;
		mv->innovation = 2;
		mv->measured = 1;
		snprintf(mv->why, sizeof mv->why, "%d pair(s) of measured kernels differing only in %.63s: %ld is %.2fx as fast as %ld",
		    pairs, p->name, v, speedup, p->value);
	} else if (!explored(cfg, m, p->name, p->value)) {
		mv->est = neighbour ? 10 : 5;
		mv->lo = neighbour ? -10 : -30;
		mv->hi = neighbour ? 30 : 60;
		mv->innovation = neighbour ? 8 : 9;
		snprintf(mv->why, sizeof mv->why, "no kernel has changed %.63s yet", p->name);
	} else {
		mv->est = neighbour ? 8 : 3;
		mv->lo = neighbour ? -5 : -20;
		mv->hi = neighbour ? 20 : 30;
		mv->innovation = neighbour ? 6 : 7;
		snprintf(mv->why, sizeof mv->why, "%.63s = %ld is untested next to this base; it is %s the base's value",
		    p->name, v, neighbour ? "next to" : "further from");
	}
}

/* 1 when some kernel of the population already has exactly this configuration. */
static int
tried(const struct ks_param *base, int nb, const struct move *mv, const struct config *cfg, int m)
{
	for (int i = 0; i < m; i++) {
		int same = 1;

		for (int j = 0; j < nb && same; j++) {
			long want = base[j].value;

			for (int c = 0; c < mv->nch; c++)
				if (mv->param[c] == j)
					want = mv->value[c];
			same = ks_tune_get(cfg[i].p, cfg[i].n, base[j].name, LONG_MIN) == want;
		}
		if (same)
			return 1;
	}
	return 0;
}

static int
cmp_moves(const void *a, const void *b)
{
	const struct move *x = a, *y = b;
	double px = x->est + x->innovation, py = y->est + y->innovation;

	if (px != py)
		return px < py ? 1 : -1;
	if (x->nch != y->nch)
		return x->nch - y->nch;
	for (int c = 0; c < x->nch; c++) {
		if (x->param[c] != y->param[c])
			return x->param[c] - y->param[c];
		if (x->value[c] != y->value[c])
			return x->value[c] < y->value[c] ? -1 : 1;
	}
	return 0;
}

static size_t
propose_moves(const struct ks_param *bp, int nb, const struct config *cfg, int m, struct move **out)
{
	size_t n = 0, cap = 64;
	struct move *mv = ks_emalloc(cap * sizeof *mv), *singles;
	size_t nsingles;

	for (int i = 0; i < nb; i++)
		for (int a = 0; a < bp[i].nallowed; a++) {
			if (bp[i].allowed[a] == bp[i].value)
				continue;
			if (n == cap)
				mv = ks_erealloc(mv, (cap *= 2) * sizeof *mv);
			memset(&mv[n], 0, sizeof mv[n]);
			mv[n].nch = 1;
			mv[n].param[0] = i;
			mv[n].value[0] = bp[i].allowed[a];
			score_single(&bp[i], bp[i].allowed[a], cfg, m, &mv[n]);
			n++;
		}
	/*
	 * Pairs: two changes of different parameters that each measured
	 * faster.  Untested changes are tried one at a time first, so that
	 * every result says which change it was.
	 */
	nsingles = n;
	singles = ks_emalloc(nsingles * sizeof *singles);
	memcpy(singles, mv, nsingles * sizeof *singles);
	for (size_t i = 0; i < nsingles; i++)
		for (size_t j = i + 1; j < nsingles; j++) {
			const struct move *s = &singles[i], *t = &singles[j];

			if (s->param[0] == t->param[0] || !s->measured || !t->measured || s->est <= 0 || t->est <= 0)
				continue;
			if (n == cap)
				mv = ks_erealloc(mv, (cap *= 2) * sizeof *mv);
			memset(&mv[n], 0, sizeof mv[n]);
			mv[n].nch = 2;
			mv[n].param[0] = s->param[0];
			mv[n].value[0] = s->value[0];
			mv[n].param[1] = t->param[0];
			mv[n].value[1] = t->value[0];
			/* Gains rarely add up: count the smaller one half. */
			mv[n].est = fmax(s->est, t->est) + fmin(s->est, t->est) / 2;
			mv[n].lo = fmin(s->lo, t->lo);
			mv[n].hi = s->hi + t->hi;
			mv[n].innovation = (s->innovation > t->innovation ? s->innovation : t->innovation) - 1;
			snprintf(mv[n].why, sizeof mv[n].why, "both changes measured faster on their own");
			n++;
		}
	free(singles);
	/* Drop what the population already holds: an exact rerun teaches nothing. */
	size_t kept = 0;
	for (size_t i = 0; i < n; i++)
		if (!tried(bp, nb, &mv[i], cfg, m))
			mv[kept++] = mv[i];
	qsort(mv, kept, sizeof *mv, cmp_moves);
	*out = mv;
	return kept;
}

static char *
move_title(const struct ks_param *bp, const struct move *mv)
{
	struct ks_buf b = { 0 };

	ks_buf_add(&b, "", 0);
	for (int c = 0; c < mv->nch; c++)
		ks_buf_printf(&b, "%s%s %ld -> %ld", c ? ", " : "", bp[mv->param[c]].name,
		    bp[mv->param[c]].value, mv->value[c]);
	return b.s;
}

static cJSON *
move_plan(const struct ks_param *bp, const struct move *mv, const char *base_id)
{
	cJSON *plan = cJSON_CreateObject(), *changes = cJSON_CreateObject();
	char *title = move_title(bp, mv), *s;
	struct ks_buf rubric = { 0 };

	cJSON_AddStringToObject(plan, "title", title);
	s = ks_easprintf("Change the tunable parameter%s of %s: %s. Why: %s.", mv->nch > 1 ? "s" : "",
	    base_id, title, mv->why);
	cJSON_AddStringToObject(plan, "description", s);
	free(s);
	for (int c = 0; c < mv->nch; c++) {
		ks_buf_printf(&rubric, "set `#define %s %ld` (was %ld); ", bp[mv->param[c]].name, mv->value[c],
		    bp[mv->param[c]].value);
		cJSON_AddNumberToObject(changes, bp[mv->param[c]].name, (double)mv->value[c]);
	}
	ks_buf_puts(&rubric, "change nothing else");
	cJSON_AddStringToObject(plan, "rubric", rubric.s);
	cJSON_AddNumberToObject(plan, "uplift_min", round(mv->lo));
	cJSON_AddNumberToObject(plan, "uplift_max", round(mv->hi));
	cJSON_AddNumberToObject(plan, "innovation", mv->innovation < 1 ? 1 : mv->innovation);
	cJSON_AddItemToObject(plan, "changes", changes);
	ks_buf_free(&rubric);
	free(title);
	return plan;
}

static int
shares_param(const struct move *a, const struct move *b)
{
	for (int i = 0; i < a->nch; i++)
		for (int j = 0; j < b->nch; j++)
			if (a->param[i] == b->param[j])
				return 1;
	return 0;
}

/*
 * Moves the best k moves to the front, preferring ones that change
 * parameters no earlier pick changes: five plans on five knobs teach
 * more than five values of one.  The order stays deterministic.
 */
static void
pick_diverse(struct move *mv, size_t n, size_t k)
{
	size_t picked = 0;

	for (int pass = 0; pass < 2 && picked < k; pass++)
		for (size_t i = picked; i < n && picked < k; i++) {
			int clash = 0;

			for (size_t j = 0; j < picked && !pass; j++)
				clash |= shares_param(&mv[i], &mv[j]);
			if (clash)
				continue;
			struct move t = mv[i];
			memmove(&mv[picked + 1], &mv[picked], (i - picked) * sizeof *mv);
			mv[picked++] = t;
		}
}

cJSON *
ks_offline_hypothesize(const struct ks_cand *base, struct ks_cand *c, size_t n, char **why)
{
	struct ks_param bp[MAX_PARAMS];
	struct config *cfg;
	struct move *mv;
	char *path, *src;
	cJSON *out, *avenues, *plans;
	size_t nmoves;
	int nb, m;

	*why = NULL;
	if (!(path = ks_cand_kernel_path(base)) || !(src = ks_file_read(path, NULL))) {
		free(path);
		return NULL;
	}
	nb = ks_tune_parse(src, bp, MAX_PARAMS);
	free(src);
	if (nb == 0) {
		*why = ks_easprintf("'%s' declares no tunable parameter (\"#define NAME VALUE  ks-tune: ...\"), "
		    "so the offline proposer has nothing to change: configure an LLM", path);
		free(path);
		return NULL;
	}
	cfg = ks_ecalloc(n ? n : 1, sizeof *cfg);
	m = load_configs(c, n, cfg);
	nmoves = propose_moves(bp, nb, cfg, m, &mv);
	free(cfg);
	if (nmoves < 5) {
		*why = ks_easprintf("'%s': only %zu untried configuration(s) near the base are left; the offline "
		    "proposer needs 5: configure an LLM", path, nmoves);
		free(mv);
		free(path);
		return NULL;
	}
	free(path);
	out = cJSON_CreateObject();
	avenues = cJSON_AddArrayToObject(out, "avenues");
	plans = cJSON_AddArrayToObject(out, "plans");
	for (size_t i = 0; i < nmoves && i < 10; i++) {
		char *t = move_title(bp, &mv[i]), *s;

		s = ks_easprintf("%s (expected %+.0f%%: %s)", t, mv[i].est, mv[i].why);
		cJSON_AddItemToArray(avenues, cJSON_CreateString(s));
		free(s);
		free(t);
	}
	pick_diverse(mv, nmoves, 5);
	for (size_t i = 0; i < 5; i++)
		cJSON_AddItemToArray(plans, move_plan(bp, &mv[i], base->id));
	free(mv);
	return out;
}
