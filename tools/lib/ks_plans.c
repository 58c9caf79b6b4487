/*
 * ks_plans.c - the plans of a generation's hypotheses.json: each checked
 * (what a model must give), and the K kept of five.  The file's loader,
 * and how many plans a generation keeps, are ks_records.c's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ks_records.h"

/* A text field of a plan: present, a string, not empty. */
static int
plan_text(const cJSON *plan, int i, const char *key, char **why)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(plan, key);

	if (!v)
		*why = ks_easprintf("plan %d: field \"%s\" is missing", i, key);
	else if (!cJSON_IsString(v))
		*why = ks_easprintf("plan %d: field \"%s\" is not a string", i, key);
	else if (!*v->valuestring)
		*why = ks_easprintf("plan %d: field \"%s\" is empty", i, key);
	return *why ? -1 : 0;
}

static int
plan_number(const cJSON *plan, int i, const char *key, int integer, double *out, char **why)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(plan, key);

	if (!v)
		*why = ks_easprintf("plan %d: field \"%s\" is missing", i, key);
	else if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
		*why = ks_easprintf("plan %d: field \"%s\" is not a number", i, key);
	else if (integer && (v->valuedouble != floor(v->valuedouble) || v->valuedouble < 1 || v->valuedouble > 10))
		*why = ks_easprintf("plan %d: field \"%s\" is not an integer from 1 to 10", i, key);
	else
		*out = v->valuedouble;
	return *why ? -1 : 0;
}

static int
plan_validate(const cJSON *plan, int i, char **why)
{
	double lo, hi, innov;

	if (!cJSON_IsObject(plan)) {
		*why = ks_easprintf("plan %d is not an object", i);
		return -1;
	}
	if (plan_text(plan, i, "title", why) < 0 || plan_text(plan, i, "description", why) < 0 ||
	    plan_text(plan, i, "rubric", why) < 0 || plan_number(plan, i, "uplift_min", 0, &lo, why) < 0 ||
	    plan_number(plan, i, "uplift_max", 0, &hi, why) < 0 ||
	    plan_number(plan, i, "innovation", 1, &innov, why) < 0)
		return -1;
	if (lo > hi) {
		*why = ks_easprintf("plan %d: uplift_min %g is above uplift_max %g", i, lo, hi);
		return -1;
	}
	/* optional: the findings of a long run are grouped by it */
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(plan, "kind");
	if (kind && (!cJSON_IsString(kind) || !*kind->valuestring || strlen(kind->valuestring) > 40)) {
		*why = ks_easprintf("plan %d: field \"kind\" is not a word of at most 40 characters", i);
		return -1;
	}
	return 0;
}

/*
 * A model's reply (strict) holds exactly 10 avenues and 5 plans.  A file
 * may hold fewer when the offline proposer had fewer untried
 * configurations left, and none at all when it found the search space
 * exhausted (the string "exhausted" says why).  chosen, checked when k > 0,
 * keeps min(K, plans) of them.
 */
int
ks_hypotheses_validate(const cJSON *h, long k, int strict, char **why)
{
	const cJSON *avenues = NULL, *plans = NULL, *chosen, *v, *ex = NULL;
	int i = 0, seen[5] = { 0 }, na, np, lo = 1;

	*why = NULL;
	if (!cJSON_IsObject(h))
		*why = ks_estrdup("it is not a JSON object");
	else if (!(avenues = cJSON_GetObjectItemCaseSensitive(h, "avenues")) || !cJSON_IsArray(avenues))
		*why = ks_estrdup(avenues ? "field \"avenues\" is not an array" : "field \"avenues\" is missing");
	else if (!(plans = cJSON_GetObjectItemCaseSensitive(h, "plans")) || !cJSON_IsArray(plans))
		*why = ks_estrdup(plans ? "field \"plans\" is not an array" : "field \"plans\" is missing");
	else if (!strict && (ex = cJSON_GetObjectItemCaseSensitive(h, "exhausted")) &&
	    (!cJSON_IsString(ex) || !*ex->valuestring))
		*why = ks_estrdup("field \"exhausted\" is not a non-empty string");
	if (*why)
		return -1;
	na = cJSON_GetArraySize(avenues);
	np = cJSON_GetArraySize(plans);
	if (ex)
		lo = 0;
	if (strict ? na != 10 : (na < lo || na > 10)) {
		*why = ks_easprintf("\"avenues\" holds %d entries, not %s", na, strict ? "10" : ex ? "0 to 10" : "1 to 10");
		return -1;
	}
	cJSON_ArrayForEach(v, avenues)
		if (!cJSON_IsString(v) || !*v->valuestring) {
			*why = ks_estrdup("an entry of \"avenues\" is not a string");
			return -1;
		}
	if (ex ? np != 0 : strict ? np != 5 : (np < 1 || np > 5)) {
		*why = ks_easprintf("\"plans\" holds %d plans, not %s", np,
		    ex ? "0 (the search space is exhausted)" : strict ? "5" : "1 to 5");
		return -1;
	}
	cJSON_ArrayForEach(v, plans)
		if (plan_validate(v, i++, why) < 0)
			return -1;
	if (k <= 0)
		return 0;
	if (!(chosen = cJSON_GetObjectItemCaseSensitive(h, "chosen")) || !cJSON_IsArray(chosen)) {
		*why = ks_estrdup(chosen ? "field \"chosen\" is not an array" : "field \"chosen\" is missing");
		return -1;
	}
	if (cJSON_GetArraySize(chosen) != (k < np ? k : np)) {
		*why = ks_easprintf("\"chosen\" holds %d plan indexes, not %ld (K=%ld of %d plans)",
		    cJSON_GetArraySize(chosen), k < np ? k : np, k, np);
		return -1;
	}
	cJSON_ArrayForEach(v, chosen) {
		int x = cJSON_IsNumber(v) ? v->valueint : -1;

		if (!cJSON_IsNumber(v) || v->valuedouble != x || x < 0 || x >= np || seen[x]++) {
			*why = ks_easprintf("\"chosen\" must hold distinct plan indexes from 0 to %d", np - 1);
			return -1;
		}
	}
	return 0;
}

int
ks_hypotheses_check(const cJSON *h, const char *file, long k)
{
	char *why;

	if (ks_hypotheses_validate(h, k, 0, &why) == 0)
		return 0;
	ks_warnx("'%s': %s", file, why);
	free(why);
	return -1;
}

/*
 * The rule that keeps K of the 5 plans (population(5), hypotheses.json):
 * in turn the most innovative, the highest uplift_max, the highest
 * uplift_min, again and again; a plan that repeats a kept one (same title
 * and rubric) only when nothing else is left; ties to the lower index.
 */
static double
plan_value(const cJSON *plan, const char *key)
{
	double v;

	return ks_json_num(plan, key, NULL, &v) == 0 ? v : -INFINITY;
}

static int
same_plan(const cJSON *a, const cJSON *b)
{
	const char *ta = ks_json_str(a, "title", NULL), *tb = ks_json_str(b, "title", NULL);
	const char *ra = ks_json_str(a, "rubric", NULL), *rb = ks_json_str(b, "rubric", NULL);

	return ta && tb && ra && rb && strcmp(ta, tb) == 0 && strcmp(ra, rb) == 0;
}

int
ks_plans_choose(const cJSON *plans, long k, long *chosen)
{
	static const char *const criteria[] = { "innovation", "uplift_max", "uplift_min" };
	int n = cJSON_GetArraySize(plans);
	long nchosen = 0;

	for (long pick = 0; pick < k; pick++) {
		const char *key = criteria[pick % 3];
		int best = -1, allow_repeat;

		/* First pass skips plans that repeat a chosen one; the second takes any. */
		for (allow_repeat = 0; allow_repeat < 2 && best < 0; allow_repeat++)
			for (int i = 0; i < n; i++) {
				const cJSON *p = cJSON_GetArrayItem(plans, i);
				int taken = 0;

				for (long j = 0; j < nchosen; j++)
					if (chosen[j] == i || (!allow_repeat && same_plan(p, cJSON_GetArrayItem(plans, (int)chosen[j]))))
						taken = 1;
				if (taken)
					continue;
				if (best < 0 || plan_value(p, key) > plan_value(cJSON_GetArrayItem(plans, best), key))
					best = i;
			}
		if (best < 0)
			return -1;
		chosen[nchosen++] = best;
	}
	return 0;
}
