/*
 * ks_noise.c - when one measured time is faster than another.
 *
 * A bench's own standard error understates how far the same kernel moves
 * between benches: bench/noise.sh benched one sgemm kernel 8 times over;
 * on an idle machine each shape's median moved by up to 1.3 % between
 * benches while each bench's standard error said 0.3-0.5 %, and with
 * load that comes and goes by 26-50 % (each bench said 5-22 %).  So each
 * result's noise is its standard error and a floor for the bench it came
 * from: 1 % when every shape met the harness's stop rule, 10 % when one
 * ran into the time cap instead (the sign of a busy machine: 13-21 of 24
 * shapes under load, 1-2 of 24 idle).  A time is faster only when the
 * difference is more than twice the noise of both (about 95 %
 * confidence): a difference inside it is no evidence.
 */
#include <math.h>
#include <string.h>

#include "ks.h"

#define FLOOR_CONVERGED   0.01
#define FLOOR_UNCONVERGED 0.10
#define Z 2.0

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
 * standard error is the root of the sum of theirs squared, over n.
 */
double
ks_score_noise(const struct ks_cand *c)
{
	const cJSON *r;
	double ss = 0, rse;
	int n = 0, all = 1, conv;

	cJSON_ArrayForEach(r, c->bench.results) {
		rse = shape_rse(r, &conv);
		ss += rse * rse;
		all &= conv;
		n++;
	}
	rse = n ? sqrt(ss) / n : 0;
	return sqrt(rse * rse + (all ? FLOOR_CONVERGED * FLOOR_CONVERGED : FLOOR_UNCONVERGED * FLOOR_UNCONVERGED));
}

int
ks_time_faster(double ta, double na, double tb, double nb)
{
	return ta > 0 && tb > 0 && log(tb / ta) > Z * sqrt(na * na + nb * nb);
}

int
ks_faster(const struct ks_cand *a, const struct ks_cand *b)
{
	return ks_time_faster(a->score_us, ks_score_noise(a), b->score_us, ks_score_noise(b));
}
