/* ks_stage.c - the files the stages hand to each other, validated on reading. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ks.h"

static struct ks_cand *
find_correct(const char *file, const char *key, const char *id, struct ks_cand *c, size_t n)
{
	struct ks_cand *k;
	long g, s;

	if (ks_id_parse(id, &g, &s) < 0) {
		ks_warnx("'%s': field \"%s\" is not a kernel id like g003c1: '%s'", file, key, id);
		return NULL;
	}
	if (!(k = ks_cands_find(c, n, id))) {
		ks_warnx("'%s': field \"%s\" names '%s', which is not in the population before this generation",
		    file, key, id);
		return NULL;
	}
	if (!k->status || strcmp(k->status, "ok") != 0) {
		ks_warnx("'%s': field \"%s\" names '%s', which is not a correct benched kernel (status %s)",
		    file, key, id, k->status ? k->status : "none");
		return NULL;
	}
	return k;
}

int
ks_select_load(const char *dir, struct ks_cand *c, size_t n, struct ks_cand **base, struct ks_cand **ref)
{
	char *path = ks_easprintf("%s/select.json", dir);
	const char *b, *r;
	cJSON *sel;
	int rc = -1;

	if (!(sel = ks_json_load(path)))
		goto out;
	if (!(b = ks_json_str(sel, "base", path)) || !(r = ks_json_str(sel, "reference", path)))
		goto out;
	if (!(*base = find_correct(path, "base", b, c, n)) || !(*ref = find_correct(path, "reference", r, c, n)))
		goto out;
	rc = 0;
out:
	cJSON_Delete(sel);
	free(path);
	return rc;
}

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
	return 0;
}

int
ks_hypotheses_validate(const cJSON *h, long k, int strict, char **why)
{
	const cJSON *avenues = NULL, *plans = NULL, *chosen, *v;
	int i = 0, seen[5] = { 0 }, na;

	*why = NULL;
	if (!cJSON_IsObject(h))
		*why = ks_estrdup("it is not a JSON object");
	else if (!(avenues = cJSON_GetObjectItemCaseSensitive(h, "avenues")) || !cJSON_IsArray(avenues))
		*why = ks_estrdup(avenues ? "field \"avenues\" is not an array" : "field \"avenues\" is missing");
	else if (!(plans = cJSON_GetObjectItemCaseSensitive(h, "plans")) || !cJSON_IsArray(plans))
		*why = ks_estrdup(plans ? "field \"plans\" is not an array" : "field \"plans\" is missing");
	if (*why)
		return -1;
	na = cJSON_GetArraySize(avenues);
	if (strict ? na != 10 : (na < 1 || na > 10)) {
		*why = ks_easprintf("\"avenues\" holds %d entries, not %s", na, strict ? "10" : "1 to 10");
		return -1;
	}
	cJSON_ArrayForEach(v, avenues)
		if (!cJSON_IsString(v) || !*v->valuestring) {
			*why = ks_estrdup("an entry of \"avenues\" is not a string");
			return -1;
		}
	if (cJSON_GetArraySize(plans) != 5) {
		*why = ks_easprintf("\"plans\" holds %d plans, not 5", cJSON_GetArraySize(plans));
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
	if (cJSON_GetArraySize(chosen) != k) {
		*why = ks_easprintf("\"chosen\" holds %d plan indexes, not K=%ld", cJSON_GetArraySize(chosen), k);
		return -1;
	}
	cJSON_ArrayForEach(v, chosen) {
		int x = cJSON_IsNumber(v) ? v->valueint : -1;

		if (!cJSON_IsNumber(v) || v->valuedouble != x || x < 0 || x > 4 || seen[x]++) {
			*why = ks_estrdup("\"chosen\" must hold distinct plan indexes from 0 to 4");
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

cJSON *
ks_hypotheses_load(const char *dir, long k)
{
	char *path = ks_easprintf("%s/hypotheses.json", dir);
	cJSON *h = ks_json_load(path);

	if (h && ks_hypotheses_check(h, path, k) < 0) {
		cJSON_Delete(h);
		h = NULL;
	}
	free(path);
	return h;
}
