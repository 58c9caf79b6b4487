/*
 * ks_noise.c - when one measured time is faster than another.
 *
 * A bench's own standard error understates how far the same kernel moves
 * between benches: bench/noise.sh benched one sgemm kernel 8 times over;
 * on an idle machine each shape's median moved by up to 1.3 % between
 * benches while each bench's standard error said 0.3-0.5 %, and with
 * load that comes and goes by 26-50 % (each bench said 5-22 %).  So each
 * shape's noise is its standard error and a floor: 1 % when it met the
 * harness's stop rule, 10 % when it ran into the time cap instead (the
 * sign of a busy machine: 13-21 of 24 shapes under load, 1-2 of 24 idle);
 * a score's is below (ks_score_noise).  A time is faster only when the
 * difference is more than twice the noise of both (about 95 %
 * confidence): a difference inside it is no evidence.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ks_pop.h"

#define FLOOR_CONVERGED   0.01
#define FLOOR_UNCONVERGED 0.10
#define Z 2.0
#define VERSUS_FLOOR 0.025	/* side by side: a ratio nearer 1 than this is no difference */

/* A shape's relative standard error (0 when unknown) and whether it converged. */
static double
shape_rse(const cJSON *r, int *converged)
{
	double v;

	*converged = !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(r, "converged"));
	return ks_json_num(r, "rel_stderr", NULL, &v) == 0 && v > 0 ? v : 0;
}

double
ks_shape_noise(const cJSON *r)
{
	int conv;
	double rse = shape_rse(r, &conv), fl = conv ? FLOOR_CONVERGED : FLOOR_UNCONVERGED;

	return sqrt(rse * rse + fl * fl);
}

/*
 * A score is the geometric mean of the shapes' times, so its relative
 * standard error is the root of the sum of theirs squared, over n.  The
 * machine's drift between benches moves every shape alike: the 1 % floor
 * is the score's.  A shape that ran into the time cap is one event of
 * its own: it adds its share of the 10 % floor, so one such shape of
 * three leaves the score 3.5 % unsure, not 10 % (which kept a kernel 24 %
 * faster on every shape from becoming the base for seven generations).
 */
double
ks_score_noise(const struct ks_cand *c)
{
	const cJSON *r;
	double ss = 0, rse;
	int n = 0, conv;

	cJSON_ArrayForEach(r, c->bench.results) {
		rse = shape_rse(r, &conv);
		ss += rse * rse;
		if (!conv)
			ss += FLOOR_UNCONVERGED * FLOOR_UNCONVERGED - FLOOR_CONVERGED * FLOOR_CONVERGED;
		n++;
	}
	rse = n ? sqrt(ss) / n : 0;
	return sqrt(rse * rse + FLOOR_CONVERGED * FLOOR_CONVERGED);
}

int
ks_score_unconverged(const struct ks_cand *c)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, c->bench.results)
		if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(r, "converged")))
			return 1;
	return 0;
}

double
ks_score_worst_rse(const struct ks_cand *c)
{
	const cJSON *r;
	double worst = -1, v;

	cJSON_ArrayForEach(r, c->bench.results)
		if (ks_json_num(r, "rel_stderr", NULL, &v) == 0 && v > worst)
			worst = v;
	return worst;
}

void
ks_score_spread(char *buf, size_t n, const struct ks_cand *c)
{
	double worst = ks_score_worst_rse(c);
	int unconverged = ks_score_unconverged(c);

	if (c->score_us <= 0)
		snprintf(buf, n, "-");
	else if (worst < 0)	/* one run a shape: no spread to give */
		snprintf(buf, n, "-%s", unconverged ? "!" : "");
	else
		snprintf(buf, n, "%.1f%%%s", 100 * worst, unconverged ? "!" : "");
}

int
ks_time_faster(double ta, double na, double tb, double nb)
{
	return ta > 0 && tb > 0 && log(tb / ta) > Z * sqrt(na * na + nb * nb);
}

int
ks_versus(const struct ks_cand *a, const struct ks_cand *b, double *ratio, double *lo, double *hi)
{
	if (a->bench.versus_ratio > 0 && strcmp(a->bench.versus_id, b->id) == 0) {
		*ratio = a->bench.versus_ratio;
		*lo = a->bench.versus_lo;
		*hi = a->bench.versus_hi;
		return 1;
	}
	if (b->bench.versus_ratio > 0 && strcmp(b->bench.versus_id, a->id) == 0) {
		*ratio = 1 / b->bench.versus_ratio;
		*lo = 1 / b->bench.versus_hi;
		*hi = 1 / b->bench.versus_lo;
		return 1;
	}
	return 0;
}

/*
 * Side by side, a is faster when the whole interval of its ratio to b is
 * under 1 and the ratio under 1 - VERSUS_FLOOR: what one process is given
 * and the other is not is no sampling noise, and no interval sees it
 * (the sgemm seed against itself read 0.976 to 1.014 over ten benches,
 * BENCHMARKS.md).  Else the two scores, each with its noise.
 */
int
ks_faster(const struct ks_cand *a, const struct ks_cand *b)
{
	double r, lo, hi;

	if (a->score_us > 0 && b->score_us > 0 && ks_versus(a, b, &r, &lo, &hi))
		return hi < 1 && r < 1 - VERSUS_FLOOR;
	return ks_time_faster(a->score_us, ks_score_noise(a), b->score_us, ks_score_noise(b));
}
