/*
 * ks_sol.c - how far a measured kernel is from the speed of light: per
 * shape, the shape's speed of light over its time (bench.json "sol_us"
 * over "time_us", ks-bench), overall their geometric mean (as the score
 * is the geometric mean of the times); and the rule that ends a search
 * with nothing left worth an API call (KS_SOL_STOP).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_pop.h"

const char *
ks_sol_pct(double share, char *buf, size_t n)
{
	double pct = 100 * share;

	/* a kernel far from the speed of light still shows how far: 0.021, not 0.0 */
	snprintf(buf, n, pct >= 1 || pct <= 0 ? "%.1f" : "%.2g", pct);
	return buf;
}

double
ks_sol_share(const cJSON *result)
{
	double sol, t;

	if (ks_json_num(result, "sol_us", NULL, &sol) < 0 || ks_json_num(result, "time_us", NULL, &t) < 0 ||
	    !(sol > 0) || !(t > 0))
		return 0;
	return sol / t;
}

double
ks_sol_overall(const struct ks_cand *c)
{
	const cJSON *r;
	double logsum = 0;
	int n = 0;

	if (!(c->score_us > 0))
		return 0;
	cJSON_ArrayForEach(r, c->bench.results) {
		double s = ks_sol_share(r);

		if (!(s > 0))
			return 0;
		logsum += log(s);
		n++;
	}
	return n ? exp(logsum / n) : 0;
}

/* the least share of the speed of light over c's shapes; 0 when a shape has none */
static double
least_share(const struct ks_cand *c)
{
	const cJSON *r;
	double least = INFINITY;

	cJSON_ArrayForEach(r, c->bench.results) {
		double s = ks_sol_share(r);

		if (!(s > 0))
			return 0;
		if (s < least)
			least = s;
	}
	return isinf(least) ? 0 : least;
}

int
ks_sol_stop_setting(double *share)
{
	long v;

	if (ks_env_int("KS_SOL_STOP", 0, 100, 90, "a percentage from 0 (never stop) to 100", &v) < 0)
		return -1;
	*share = (double)v / 100;
	return 0;
}

char *
ks_sol_reached(const struct ks_cand *c, size_t n, double share, const struct ks_cand **which)
{
	const struct ks_cand *best = NULL;
	double best_least = 0;

	*which = NULL;
	if (!(share > 0))
		return NULL;
	for (size_t i = 0; i < n; i++) {
		double least;

		if (!(c[i].score_us > 0) || (least = least_share(&c[i])) < share)
			continue;
		if (!best || c[i].score_us < best->score_us) {
			best = &c[i];
			best_least = least;
		}
	}
	if (!best)
		return NULL;
	*which = best;
	return ks_easprintf("speed of light reached: %s runs at %.1f %% or more of the speed of light on every "
	    "shape (%.1f %% overall; KS_SOL_STOP=%.0f): nothing left worth an API call", best->id,
	    100 * best_least, 100 * ks_sol_overall(best), 100 * share);
}
