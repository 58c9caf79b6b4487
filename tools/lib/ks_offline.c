/*
 * ks_offline.c - the proposer used when no LLM is configured: its
 * hypothesize, changes of the base's tunable parameters scored from what
 * the population measured (the offline model, ks_offline_model.c), a draw
 * across the whole space among them.  Its select is ks_offline_select.c's.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ks_search.h"

#define MAX_PARAMS KS_TUNE_MAX_PARAMS

/*
 * One proposed configuration of the base's parameters: the values it sets
 * (cfg, in the base's order), how many differ from the base, and the
 * estimate that ranks it.
 */
struct move {
	long cfg[MAX_PARAMS];
	int nch;
	int first;         /* the first parameter it changes, for a stable order */
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

/* The moves found so far; every one differs from the base and from each other. */
struct moves {
	struct move *m;
	size_t n, cap;
	const struct ks_param *bp;
	int nb;
	struct ks_tmodel model;	/* of the population measured (ks_offline_model.c) */
	int fitted;		/* the kernels it was fitted to */
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
static int
new_move(const struct moves *ms, const long *cfgv, const struct config *cfg, int m, struct move *mv)
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

/* A new move to configuration cfgv added to ms, or NULL (new_move). */
static struct move *
add_move(struct moves *ms, const long *cfgv, const struct config *cfg, int m)
{
	struct move mv;

	if (new_move(ms, cfgv, cfg, m, &mv) < 0)
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

/* The most configurations the last resort enumerates. */
#define SPACE_MAX 1000000L

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

/*
 * The model's draw: one configuration anywhere in the space, so that the
 * search is not held to the hill around its first good kernel.  From a
 * pool of random configurations (the generator seeded from the
 * population: a rerun draws the same) it takes the untried one the
 * model expects fastest less one standard error of its doubt: at first,
 * with little measured, the draw goes where values are untested; as the
 * population grows, where the model expects speed.
 */
#define DRAW_POOL 2000
#define UPLIFT_MAX 900	/* percent: 10x faster */

/* splitmix64 */
static uint64_t
next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct draw {
	double score;	/* expected log(time) less the doubt: lower is better */
	int idx[MAX_PARAMS];
};

static int
cmp_draws(const void *a, const void *b)
{
	const struct draw *x = a, *y = b;

	return (x->score > y->score) - (x->score < y->score);
}

/* What a draw is worth: its expected log(time) less one standard error of the model's doubt. */
static double
draw_score(const struct ks_tmodel *tm, const int *idx)
{
	return ks_tmodel_predict(tm, idx) - ks_tmodel_doubt(tm, idx);
}

/*
 * Improves d one parameter at a time (each set to its best value for the
 * score, the others held) until no change helps: the model is additive
 * but for the doubt, so this nearly finds its best configuration of the
 * whole space, which a pool of random draws of a large space misses.
 */
static void
refine_draw(const struct moves *ms, struct draw *d)
{
	for (int changed = 1, round = 0; changed && round < 20; round++) {
		changed = 0;
		for (int j = 0; j < ms->nb; j++) {
			int keep = d->idx[j];

			for (int a = 0; a < ms->bp[j].nallowed; a++) {
				double score;

				d->idx[j] = a;
				if ((score = draw_score(&ms->model, d->idx)) < d->score - 1e-12) {
					d->score = score;
					keep = a;
					changed = 1;
				}
			}
			d->idx[j] = keep;
		}
	}
}

/* The seed of the draws: the base and the population's size, so each generation draws anew. */
static uint64_t
draw_seed(const struct ks_cand *base, int m)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	for (const char *p = base->id; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	return h ^ (uint64_t)m;
}

/* Fills *mv with the model's draw; 0, or -1 when the pool held nothing untried. */
static int
draw_move(struct moves *ms, const struct ks_cand *base, const struct config *cfg, int m, struct move *mv)
{
	const struct ks_tmodel *tm = &ms->model;
	struct draw *pool = ks_emalloc((DRAW_POOL + 1) * sizeof *pool);
	uint64_t state = draw_seed(base, m);
	long v[MAX_PARAMS];
	int found = -1, best = 0;

	for (int i = 0; i < DRAW_POOL; i++) {
		for (int j = 0; j < ms->nb; j++)
			pool[i].idx[j] = (int)(next_random(&state) % (uint64_t)ms->bp[j].nallowed);
		pool[i].score = draw_score(tm, pool[i].idx);
		if (pool[i].score < pool[best].score)
			best = i;
	}
	/* and the best of them improved one parameter at a time */
	pool[DRAW_POOL] = pool[best];
	refine_draw(ms, &pool[DRAW_POOL]);
	qsort(pool, DRAW_POOL + 1, sizeof *pool, cmp_draws);
	for (int i = 0; i < DRAW_POOL + 1 && found < 0; i++) {
		double pred, doubt;
		int untested = 0;

		for (int j = 0; j < ms->nb; j++) {
			v[j] = ms->bp[j].allowed[pool[i].idx[j]];
			untested += tm->count[j][pool[i].idx[j]] == 0;
		}
		if (new_move(ms, v, cfg, m, mv) < 0)
			continue;
		pred = ks_tmodel_predict(tm, pool[i].idx);
		doubt = ks_tmodel_doubt(tm, pool[i].idx);
		/*
		 * One standard error each side, and no more than 10x faster,
		 * which no additive guess makes likely (a slow base and a model
		 * that multiplies good values' effects can promise 100x).
		 */
		mv->hi = fmin(100 * (base->score_us / exp(pred - doubt) - 1), UPLIFT_MAX);
		mv->lo = fmin(100 * (base->score_us / exp(pred + doubt) - 1), mv->hi);
		mv->est = fmin(100 * (base->score_us / exp(pred) - 1), mv->hi);
		mv->innovation = 10;
		snprintf(mv->why, sizeof mv->why, "a draw across the whole space: the model of %d measured kernel(s) "
		    "expects %.4g us (+-%.0f%%), %d of its values untested", ms->fitted, exp(pred), 100 * expm1(doubt), untested);
		found = i;
	}
	free(pool);
	return found < 0 ? -1 : 0;
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
static void
propose_moves(struct moves *ms, const struct ks_cand *base, struct config *cfg, int m, long *space)
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

static char *
move_title(const struct moves *ms, const struct move *mv)
{
	struct ks_buf b = { 0 };
	int c = 0;

	ks_buf_add(&b, "", 0);
	for (int j = 0; j < ms->nb; j++)
		if (mv->cfg[j] != ms->bp[j].value)
			ks_buf_printf(&b, "%s%s %ld -> %ld", c++ ? ", " : "", ms->bp[j].name, ms->bp[j].value, mv->cfg[j]);
	return b.s;
}

static cJSON *
move_avenue(const struct moves *ms, const struct move *mv)
{
	char *t = move_title(ms, mv), *s = ks_easprintf("%s (expected %+.0f%%: %s)", t, mv->est, mv->why);
	cJSON *avenue = cJSON_CreateString(s);

	free(s);
	free(t);
	return avenue;
}

static cJSON *
move_plan(const struct moves *ms, const struct move *mv, const char *base_id)
{
	cJSON *plan = cJSON_CreateObject(), *changes = cJSON_CreateObject();
	char *title = move_title(ms, mv), *s;
	struct ks_buf rubric = { 0 };

	cJSON_AddStringToObject(plan, "title", title);
	s = ks_easprintf("Change the tunable parameter%s of %s: %s. Why: %s.", mv->nch > 1 ? "s" : "",
	    base_id, title, mv->why);
	cJSON_AddStringToObject(plan, "description", s);
	free(s);
	for (int j = 0; j < ms->nb; j++) {
		if (mv->cfg[j] == ms->bp[j].value)
			continue;
		ks_buf_printf(&rubric, "set `#define %s %ld` (was %ld); ", ms->bp[j].name, mv->cfg[j], ms->bp[j].value);
		cJSON_AddNumberToObject(changes, ms->bp[j].name, (double)mv->cfg[j]);
	}
	ks_buf_puts(&rubric, "change nothing else");
	cJSON_AddStringToObject(plan, "rubric", rubric.s);
	cJSON_AddNumberToObject(plan, "uplift_min", round(mv->lo));
	cJSON_AddNumberToObject(plan, "uplift_max", round(mv->hi));
	cJSON_AddNumberToObject(plan, "innovation", mv->innovation < 1 ? 1 : mv->innovation > 10 ? 10 : mv->innovation);
	cJSON_AddItemToObject(plan, "changes", changes);
	ks_buf_free(&rubric);
	free(title);
	return plan;
}

static int
shares_param(const struct moves *ms, const struct move *a, const struct move *b)
{
	for (int j = 0; j < ms->nb; j++)
		if (a->cfg[j] != ms->bp[j].value && b->cfg[j] != ms->bp[j].value)
			return 1;
	return 0;
}

/*
 * Moves the best k moves to the front, preferring ones that change
 * parameters no earlier pick changes: five plans on five knobs teach
 * more than five values of one.  The order stays deterministic.
 */
static void
pick_diverse(const struct moves *ms, size_t k)
{
	struct move *mv = ms->m;
	size_t picked = 0, n = ms->n;

	for (int pass = 0; pass < 2 && picked < k; pass++)
		for (size_t i = picked; i < n && picked < k; i++) {
			int clash = 0;

			for (size_t j = 0; j < picked && !pass; j++)
				clash |= shares_param(ms, &mv[i], &mv[j]);
			if (clash)
				continue;
			struct move t = mv[i];
			memmove(&mv[picked + 1], &mv[picked], (i - picked) * sizeof *mv);
			mv[picked++] = t;
		}
}

/* hypotheses.json for a space with nothing untried left: no plans, and why. */
static cJSON *
exhausted(const struct moves *ms, const char *path, long space)
{
	cJSON *out = cJSON_CreateObject();
	struct ks_buf names = { 0 };
	char *s;

	ks_buf_add(&names, "", 0);
	for (int j = 0; j < ms->nb; j++)
		ks_buf_printf(&names, "%s%s", j ? ", " : "", ms->bp[j].name);
	if (space > 0)
		s = ks_easprintf("search space exhausted: all %ld configurations of the tunable parameters of '%s' "
		    "(%s) have been measured (an LLM can still propose other changes)", space, path, names.s);
	else
		s = ks_easprintf("search space exhausted: no untried configuration of the tunable parameters of '%s' "
		    "(%s) among the first %ld searched (an LLM can still propose other changes)", path, names.s,
		    SPACE_MAX);
	cJSON_AddStringToObject(out, "exhausted", s);
	cJSON_AddArrayToObject(out, "avenues");
	cJSON_AddArrayToObject(out, "plans");
	free(s);
	ks_buf_free(&names);
	return out;
}

cJSON *
ks_offline_hypothesize(const struct ks_cand *base, struct ks_cand *c, size_t n, char **why)
{
	struct ks_param bp[MAX_PARAMS];
	struct moves ms = { 0 };
	struct config *cfg;
	char *path, *src;
	cJSON *out, *avenues, *plans;
	struct move draw;
	size_t nlocal;
	long space;
	int m, has_draw;

	*why = NULL;
	if (!(path = ks_cand_kernel_path(base)) || !(src = ks_file_read(path, NULL))) {
		free(path);
		return NULL;
	}
	ms.bp = bp;
	ms.nb = ks_tune_parse(src, bp, MAX_PARAMS);
	free(src);
	if (ms.nb == 0) {
		*why = ks_easprintf("'%s' declares no tunable parameter (\"#define NAME VALUE  ks-tune: ...\"), "
		    "so the offline proposer has nothing to change: configure an LLM", path);
		free(path);
		return NULL;
	}
	cfg = ks_ecalloc(n ? n : 1, sizeof *cfg);
	m = load_configs(c, n, cfg);
	propose_moves(&ms, base, cfg, m, &space);
	has_draw = draw_move(&ms, base, cfg, m, &draw) == 0;
	free(cfg);
	if (ms.n == 0 && !has_draw) {
		out = exhausted(&ms, path, space);
		free(path);
		return out;
	}
	free(path);
	/* the hill climber's best moves, and the draw last: innovation 10, it is the first plan kept */
	nlocal = ms.n < (size_t)(10 - has_draw) ? ms.n : (size_t)(10 - has_draw);
	out = cJSON_CreateObject();
	avenues = cJSON_AddArrayToObject(out, "avenues");
	plans = cJSON_AddArrayToObject(out, "plans");
	for (size_t i = 0; i < nlocal; i++)
		cJSON_AddItemToArray(avenues, move_avenue(&ms, &ms.m[i]));
	if (has_draw)
		cJSON_AddItemToArray(avenues, move_avenue(&ms, &draw));
	/* five plans while five configurations are untried; the last few take fewer */
	nlocal = ms.n < (size_t)(5 - has_draw) ? ms.n : (size_t)(5 - has_draw);
	pick_diverse(&ms, nlocal);
	for (size_t i = 0; i < nlocal; i++)
		cJSON_AddItemToArray(plans, move_plan(&ms, &ms.m[i], base->id));
	if (has_draw)
		cJSON_AddItemToArray(plans, move_plan(&ms, &draw, base->id));
	free(ms.m);
	return out;
}
