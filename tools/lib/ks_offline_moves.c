/*
 * ks_offline_moves.c - the offline proposer's hill climber: the untried
 * changes of the base's tunable parameters (one, two at once, one of
 * another good kernel's, the nearest untried of the whole space), each
 * scored from what the population measured and the offline model.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "offline.h"

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
		if (!ks_offline_ok(cfg[i].cand) || ks_tune_get(cfg[i].p, cfg[i].n, name, LONG_MIN) != v)
			continue;
		for (int j = 0; j < m; j++) {
			if (!ks_offline_ok(cfg[j].cand) || ks_tune_get(cfg[j].p, cfg[j].n, name, LONG_MIN) != cur ||
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

/* The index of each of the base's parameters' values in c; -1 when c lacks one or has a value not allowed. */
static int
value_indexes(const struct moves *ms, const struct config *c, int *idx)
{
	for (int j = 0; j < ms->nb; j++)
		if ((idx[j] = index_of(&ms->bp[j], ks_tune_get(c->p, c->n, ms->bp[j].name, LONG_MIN))) < 0)
			return -1;
	return 0;
}

/*
 * 1 when the kernel's own code failed: not built, wrong, crashed, too
 * slow or rejected.  A bench without a device, a verdict on a kernel
 * edited since (stale) or files that do not load say nothing of it.
 */
static int
failed_itself(const struct ks_cand *c)
{
	static const char *const own[] = { "incorrect", "build_failed", "crashed", "timeout", "rejected" };

	for (size_t i = 0; c->status && i < sizeof own / sizeof *own; i++)
		if (strcmp(c->status, own[i]) == 0)
			return 1;
	return 0;
}

/*
 * The model of every benched kernel with the base's parameters: a
 * correct one by log(score); one that failed itself as twice the slowest
 * correct one, so that the draws learn to avoid what breaks.
 */
static void
fit_model(struct moves *ms, const struct config *cfg, int m)
{
	int *idx = ks_emalloc((m ? m : 1) * (size_t)ms->nb * sizeof *idx), nvalues[MAX_PARAMS], nobs = 0;
	double *y = ks_emalloc((m ? m : 1) * sizeof *y), slowest = 0;

	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < m; i++) {
			const struct ks_cand *c = cfg[i].cand;

			/* pass 0: the correct kernels; pass 1: the failed ones, once the slowest is known */
			if (!(pass ? failed_itself(c) : ks_offline_ok(c)) || value_indexes(ms, &cfg[i], idx + (size_t)nobs * ms->nb) < 0)
				continue;
			y[nobs] = pass == 0 ? log(c->score_us) : slowest + log(2);
			if (pass == 0 && (nobs == 0 || y[nobs] > slowest))
				slowest = y[nobs];
			nobs++;
		}
	for (int j = 0; j < ms->nb; j++)
		nvalues[j] = ms->bp[j].nallowed;
	ks_tmodel_fit(&ms->model, ms->nb, nvalues, idx, y, nobs);
	ms->fitted = nobs;
	free(idx);
	free(y);
}

/* The fewest kernels the model must be fitted to before it ranks the hill climber's untested moves. */
#define MODEL_TRUSTED 10

/*
 * What the model expects of setting base parameter j to value index a
 * (the effect of the one value against the other's), when it was fitted
 * to enough kernels and some of them had that value; else 0.
 */
static int
model_single(const struct moves *ms, int j, int a, double *percent)
{
	const struct ks_tmodel *tm = &ms->model;
	int cur = index_of(&ms->bp[j], ms->bp[j].value);

	if (ms->fitted < MODEL_TRUSTED || cur < 0 || tm->count[j][a] == 0)
		return 0;
	*percent = 100 * expm1(tm->effect[j][cur] - tm->effect[j][a]);
	return 1;
}

/* Scores setting base parameter j to v from what the population measured. */
static void
score_single(const struct moves *ms, int j, long v, const struct config *cfg, int m, struct move *mv)
{
	const struct ks_param *p = &ms->bp[j];
	double speedup, expect;
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
	} else if (model_single(ms, j, vi, &expect)) {
		mv->est = expect;
		mv->lo = expect - 20;
		mv->hi = expect + 20;
		mv->innovation = neighbour ? 6 : 7;
		snprintf(mv->why, sizeof mv->why, "untested next to this base; the model of %d measured kernels expects "
		    "%+.0f%% from %.63s = %ld", ms->fitted, expect, p->name, v);
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
tried(const struct moves *ms, const long *cfgv, const struct config *cfg, int m)
{
	for (int i = 0; i < m; i++) {
		int same = 1;

		for (int j = 0; j < ms->nb && same; j++)
			same = ks_tune_get(cfg[i].p, cfg[i].n, ms->bp[j].name, LONG_MIN) == cfgv[j];
		if (same)
			return 1;
	}
	return 0;
}

static int
known(const struct moves *ms, const long *cfgv)
{
	for (size_t i = 0; i < ms->n; i++)
		if (memcmp(ms->m[i].cfg, cfgv, ms->nb * sizeof *cfgv) == 0)
			return 1;
	return 0;
}

/*
 * Fills *mv as the move to configuration cfgv; -1 when that is the base,
 * a configuration already proposed, or one the population holds (an
 * exact rerun teaches nothing).
 */
int
ks_offline_new_move(const struct moves *ms, const long *cfgv, const struct config *cfg, int m, struct move *mv)
{
	int nch = 0, first = -1;

	for (int j = 0; j < ms->nb; j++)
		if (cfgv[j] != ms->bp[j].value && nch++ == 0)
			first = j;
	if (nch == 0 || known(ms, cfgv) || tried(ms, cfgv, cfg, m))
		return -1;
	memset(mv, 0, sizeof *mv);
	memcpy(mv->cfg, cfgv, ms->nb * sizeof *cfgv);
	mv->nch = nch;
	mv->first = first;
	return 0;
}

/* A new move to configuration cfgv added to ms, or NULL (ks_offline_new_move). */
static struct move *
add_move(struct moves *ms, const long *cfgv, const struct config *cfg, int m)
{
	struct move mv;

	if (ks_offline_new_move(ms, cfgv, cfg, m, &mv) < 0)
		return NULL;
	if (ms->n == ms->cap)
		ms->m = ks_erealloc(ms->m, (ms->cap = ms->cap ? 2 * ms->cap : 64) * sizeof *ms->m);
	ms->m[ms->n] = mv;
	return &ms->m[ms->n++];
}

static void
base_cfg(const struct moves *ms, long *cfgv)
{
	for (int j = 0; j < ms->nb; j++)
		cfgv[j] = ms->bp[j].value;
}

/* Every other allowed value of one parameter of the base. */
static void
add_singles(struct moves *ms, const struct config *cfg, int m)
{
	long v[MAX_PARAMS];

	for (int i = 0; i < ms->nb; i++)
		for (int a = 0; a < ms->bp[i].nallowed; a++) {
			struct move *mv;

			base_cfg(ms, v);
			v[i] = ms->bp[i].allowed[a];
			if ((mv = add_move(ms, v, cfg, m)))
				score_single(ms, i, v[i], cfg, m, mv);
		}
}

/*
 * Two knobs at once: any two single changes of different parameters.
 * Changes that each measured faster come first (gains rarely add up:
 * the smaller one counts half); untested pairs rank below untested
 * single changes, so that every result says which change it was.
 */
static void
add_pairs(struct moves *ms, const struct config *cfg, int m)
{
	size_t nsingles = ms->n;
	struct move *singles = ks_emalloc((nsingles ? nsingles : 1) * sizeof *singles);
	long v[MAX_PARAMS];

	memcpy(singles, ms->m, nsingles * sizeof *singles);
	for (size_t i = 0; i < nsingles; i++)
		for (size_t j = i + 1; j < nsingles; j++) {
			const struct move *s = &singles[i], *t = &singles[j];
			int ps = s->first, pt = t->first;	/* a single move changes its first parameter only */
			struct move *mv;

			if (ps == pt)
				continue;
			base_cfg(ms, v);
			v[ps] = s->cfg[ps];
			v[pt] = t->cfg[pt];
			if (!(mv = add_move(ms, v, cfg, m)))
				continue;
			mv->lo = fmin(s->lo, t->lo);
			mv->hi = s->hi + t->hi;
			if (s->measured && t->measured && s->est > 0 && t->est > 0) {
				mv->est = fmax(s->est, t->est) + fmin(s->est, t->est) / 2;
				mv->innovation = (s->innovation > t->innovation ? s->innovation : t->innovation) - 1;
				snprintf(mv->why, sizeof mv->why, "both changes measured faster on their own");
			} else {
				mv->est = fmin(s->est, t->est) - 10;
				mv->innovation = (s->innovation < t->innovation ? s->innovation : t->innovation) - 2;
				snprintf(mv->why, sizeof mv->why, "two knobs at once (%.120s)", s->est < t->est ? s->why : t->why);
			}
		}
	free(singles);
}

/* Orders configs by score, fastest first, correct kernels only. */
static int
cmp_configs(const void *a, const void *b)
{
	const struct config *x = a, *y = b;
	int okx = ks_offline_ok(x->cand), oky = ks_offline_ok(y->cand);

	if (okx != oky)
		return oky - okx;
	if (okx && x->cand->score_us != y->cand->score_us)
		return x->cand->score_us < y->cand->score_us ? -1 : 1;
	return 0;
}

/*
 * Other good bases: one change of the other correct kernels that declare
 * the same parameters, best first, ranked below the base's own moves by
 * how much slower their kernel is.
 */
static void
add_other_bases(struct moves *ms, const struct ks_cand *base, struct config *cfg, int m)
{
	struct config *by_score = ks_emalloc((m ? m : 1) * sizeof *by_score);
	long v[MAX_PARAMS];

	memcpy(by_score, cfg, m * sizeof *cfg);
	qsort(by_score, m, sizeof *by_score, cmp_configs);
	for (int k = 0; k < m && ks_offline_ok(by_score[k].cand); k++) {
		const struct config *o = &by_score[k];
		int same = o->cand != base;

		for (int j = 0; j < ms->nb && same; j++)
			same = ks_tune_get(o->p, o->n, ms->bp[j].name, LONG_MIN) != LONG_MIN;
		if (!same)
			continue;
		for (int i = 0; i < ms->nb; i++)
			for (int a = 0; a < ms->bp[i].nallowed; a++) {
				struct move *mv;

				for (int j = 0; j < ms->nb; j++)
					v[j] = ks_tune_get(o->p, o->n, ms->bp[j].name, 0);
				if (v[i] == ms->bp[i].allowed[a])
					continue;
				v[i] = ms->bp[i].allowed[a];
				if (!(mv = add_move(ms, v, cfg, m)))
					continue;
				mv->est = -100 * (o->cand->score_us / base->score_us - 1) - 10;
				mv->lo = mv->est - 30;
				mv->hi = mv->est + 40;
				mv->innovation = 4;
				snprintf(mv->why, sizeof mv->why, "one change of %s (%.4g us): %.63s %ld -> %ld",
				    o->cand->id, o->cand->score_us, ms->bp[i].name,
				    ks_tune_get(o->p, o->n, ms->bp[i].name, 0), v[i]);
			}
	}
	free(by_score);
}

/*
 * The last resort: the untried configurations of the whole space nearest
 * to the base (fewest parameters changed), at most ten.  Returns the size
 * of the space, or -1 when it is larger than SPACE_MAX and only its first
 * SPACE_MAX configurations were searched.
 */
static long
add_farthest(struct moves *ms, const struct config *cfg, int m)
{
	long size = 1, v[MAX_PARAMS], searched;
	int idx[MAX_PARAMS] = { 0 };

	for (int j = 0; j < ms->nb; j++) {
		if (ms->bp[j].nallowed == 0)
			return 0;
		size = size > SPACE_MAX / ms->bp[j].nallowed ? SPACE_MAX + 1 : size * ms->bp[j].nallowed;
	}
	for (int dist = 2; dist <= ms->nb; dist++) {
		size_t found = 0;

		memset(idx, 0, sizeof idx);
		for (searched = 0; searched < SPACE_MAX && found < 10; searched++) {
			int nch = 0, j;
			struct move *mv;

			for (j = 0; j < ms->nb; j++) {
				v[j] = ms->bp[j].allowed[idx[j]];
				nch += v[j] != ms->bp[j].value;
			}
			if (nch == dist && (mv = add_move(ms, v, cfg, m))) {
				mv->est = -20 - 5 * dist;
				mv->lo = mv->est - 30;
				mv->hi = mv->est + 60;
				mv->innovation = 3;
				snprintf(mv->why, sizeof mv->why, "untried, %d parameters away from the base", dist);
				found++;
			}
			/* the next configuration, as a number in mixed radix */
			for (j = 0; j < ms->nb && ++idx[j] == ms->bp[j].nallowed; j++)
				idx[j] = 0;
			if (j == ms->nb)
				break;
		}
		if (found)
			break;
	}
	return size > SPACE_MAX ? -1 : size;
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
	if (x->first != y->first)
		return x->first - y->first;
	for (int j = 0; j < MAX_PARAMS; j++)
		if (x->cfg[j] != y->cfg[j])
			return x->cfg[j] < y->cfg[j] ? -1 : 1;
	return 0;
}

/*
 * The untried configurations worth a run, best first: the base's single
 * changes and pairs, then single changes of the other correct kernels,
 * then whatever is left untried nearest the base.  *space gets the size
 * of the space when the last resort searched it whole, else -1.
 */
void
ks_offline_propose_moves(struct moves *ms, const struct ks_cand *base, struct config *cfg, int m, long *space)
{
	*space = -1;
	fit_model(ms, cfg, m);
	add_singles(ms, cfg, m);
	add_pairs(ms, cfg, m);
	if (ms->n < 10)
		add_other_bases(ms, base, cfg, m);
	if (ms->n < 10)
		*space = add_farthest(ms, cfg, m);
	qsort(ms->m, ms->n, sizeof *ms->m, cmp_moves);
}
