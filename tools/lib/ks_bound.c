/*
 * ks_bound.c - the speed of light of a benchmark shape: the least time
 * the target's peak FLOP/s or bandwidth allows for the shape's work, from
 * problem.json "bound".  A time under it means the harness missed work.
 */
#include <ctype.h>
#include <string.h>
#include <stdlib.h>

#include "ks_pop.h"

/*
 * A sum of products of numbers and the shape's dimensions, the way
 * problem.json's "bound" writes the work of a shape ("2*m*n*k",
 * "2*rows*cols*2 + cols*2"); -1 when expr is not one.
 */
double
ks_bound_work(const char *expr, const cJSON *shape)
{
	double sum = 0, prod = 1, f;
	const char *p = expr;
	char *end, name[64];

	for (;;) {
		while (*p == ' ')
			p++;
		if (isdigit((unsigned char)*p)) {
			f = strtod(p, &end);
			p = end;
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
			const cJSON *v;

			if (n >= sizeof name)
				return -1;
			memcpy(name, p, n);
			name[n] = '\0';
			p += n;
			if (!cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(shape, name)))
				return -1;
			f = v->valuedouble;
		} else {
			return -1;
		}
		prod *= f;
		while (*p == ' ')
			p++;
		if (*p == '*') {
			p++;
			continue;
		}
		sum += prod;
		prod = 1;
		if (*p == '+')
			p++;
		else
			return *p == '\0' ? sum : -1;
	}
}

/*
 * The problem's peak for target in bound: a number, "measured", or
 * something malformed; NULL when the peaks are per target and this one
 * has none.
 */
static const cJSON *
bound_peak(const cJSON *bound, const char *target)
{
	const char *key = ks_json_str(bound, "flops", NULL) ? "peak_flops_per_s" : "peak_bytes_per_s";
	const cJSON *peak = cJSON_GetObjectItemCaseSensitive(bound, key);

	return cJSON_IsObject(peak) ? cJSON_GetObjectItemCaseSensitive(peak, target) : peak;
}

int
ks_bound_measured(const struct ks_problem *p, const char *target)
{
	const cJSON *bound = cJSON_GetObjectItemCaseSensitive(p->json, "bound");
	const cJSON *peak = bound ? bound_peak(bound, target) : NULL;

	return cJSON_IsString(peak) && strcmp(peak->valuestring, "measured") == 0;
}

/*
 * The least time a shape can take on the target, in us, from problem.json
 * "bound": {"flops" or "bytes": work, "peak_flops_per_s" or
 * "peak_bytes_per_s": a number, "measured" (the runner measures the
 * machine's peak: measured_peak, 0 when it did not), or one of those per
 * target}.  0 when the problem gives none for this target (or a measured
 * peak is missing); -1, said, when the bound is malformed.
 */
double
ks_bound_us(const struct ks_problem *p, const char *target, const cJSON *shape, double measured_peak)
{
	const cJSON *bound = cJSON_GetObjectItemCaseSensitive(p->json, "bound"), *peak;
	const char *flops = ks_json_str(bound, "flops", NULL), *bytes = ks_json_str(bound, "bytes", NULL);
	const cJSON *peaks = cJSON_GetObjectItemCaseSensitive(bound, flops ? "peak_flops_per_s" : "peak_bytes_per_s");
	double work = -1, per_s = -1;

	if (!bound)
		return 0;
	/* peaks per target, none for this one */
	if (!(peak = bound_peak(bound, target)) && cJSON_IsObject(peaks))
		return 0;
	if (ks_bound_measured(p, target))
		per_s = measured_peak;
	else if (cJSON_IsNumber(peak) && peak->valuedouble > 0)
		per_s = peak->valuedouble;
	if (flops || bytes)
		work = ks_bound_work(flops ? flops : bytes, shape);
	if (per_s < 0 || work < 0) {
		ks_warnx("'%s': field \"bound\" must hold \"flops\" or \"bytes\" (a sum of products of numbers "
		    "and dims) and a positive peak per second or \"measured\"", p->path);
		return -1;
	}
	return per_s > 0 ? work / per_s * 1e6 : 0;
}
