/*
 * ks_offline_draw.c - the offline proposer's draw across the whole space
 * of the base's tunable parameters, by the offline model.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "offline.h"

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
int
ks_offline_draw_move(struct moves *ms, const struct ks_cand *base, const struct config *cfg, int m, struct move *mv)
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
		if (ks_offline_new_move(ms, v, cfg, m, mv) < 0)
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
