/*
 * ks_calib.c - the plans' predictions against what their kernels
 * measured: the uplift of a kernel over its base, where it fell against
 * the plan's [uplift_min, uplift_max], and the counts over a run (the
 * track record of the hypothesize prompt, hypotheses.json "calibration",
 * ks-report's line).
 */
#include <math.h>
#include <string.h>

#include "ks_ask.h"

int
ks_plan_uplift(const struct ks_cand *c, size_t n, const struct ks_cand *k, double *pct)
{
	const struct ks_cand *base = k->cand.base ? ks_cands_find((struct ks_cand *)c, n, k->cand.base) : NULL;
	double r, lo, hi;

	if (k->score_us > 0 && base && base->score_us > 0) {
		/* side by side where the two were: the base's score was benched at another time */
		*pct = ((ks_versus(k, base, &r, &lo, &hi) ? 1 / r : base->score_us / k->score_us) - 1) * 100;
		return 1;
	}
	return 0;
}

int
ks_plan_against_range(const cJSON *plan, double pct)
{
	double lo = 0, hi = 0;

	ks_json_num(plan, "uplift_min", NULL, &lo);
	ks_json_num(plan, "uplift_max", NULL, &hi);
	return pct < lo ? -1 : pct > hi ? 1 : 0;
}

double
ks_uplift_factor(double pct)
{
	double f = 1 + pct / 100;

	return f > 0.01 ? f : 0.01;
}

void
ks_calibrate(const struct ks_cand *c, size_t n, struct ks_calibration *cal)
{
	double err = 0, lerr = 0, pct, lo, hi;
	int where;

	memset(cal, 0, sizeof(*cal));
	for (size_t i = 0; i < n; i++) {
		const cJSON *plan = c[i].cand.plan;

		if (!cJSON_IsObject(plan) || !c[i].status)
			continue;
		if (!ks_plan_uplift(c, n, &c[i], &pct)) {
			cal->failed += c[i].score_us <= 0 && strcmp(c[i].status, "stale") != 0;
			continue;
		}
		where = ks_plan_against_range(plan, pct);
		cal->measured++;
		cal->below += where < 0;
		cal->inside += where == 0;
		cal->above += where > 0;
		lo = hi = 0;
		ks_json_num(plan, "uplift_min", NULL, &lo);
		ks_json_num(plan, "uplift_max", NULL, &hi);
		err += pct - (lo + hi) / 2;
		lerr += log(ks_uplift_factor(pct) / ks_uplift_factor((lo + hi) / 2));
	}
	cal->mean_error = cal->measured ? err / (double)cal->measured : 0;
	cal->speed_ratio = cal->measured ? exp(lerr / (double)cal->measured) : 1;
}

cJSON *
ks_calibration_json(const struct ks_calibration *cal)
{
	cJSON *j = cJSON_CreateObject();

	cJSON_AddNumberToObject(j, "measured", (double)cal->measured);
	cJSON_AddNumberToObject(j, "inside", (double)cal->inside);
	cJSON_AddNumberToObject(j, "below", (double)cal->below);
	cJSON_AddNumberToObject(j, "above", (double)cal->above);
	cJSON_AddNumberToObject(j, "failed", (double)cal->failed);
	cJSON_AddNumberToObject(j, "mean_error", round(cal->mean_error * 10) / 10);
	cJSON_AddNumberToObject(j, "speed_ratio", round(cal->speed_ratio * 1000) / 1000);
	return j;
}
