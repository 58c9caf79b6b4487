/* ks_stage.c - the files the stages hand to each other, validated on reading. */
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

static int
plan_check(const cJSON *plan, const char *file, int i)
{
	static const char *const text[] = { "title", "description", "rubric" };
	char where[64];
	double lo, hi;
	long innov;

	snprintf(where, sizeof where, "%s: plan %d", file, i);
	if (!cJSON_IsObject(plan)) {
		ks_warnx("'%s': plan %d is not an object", file, i);
		return -1;
	}
	for (size_t j = 0; j < sizeof text / sizeof text[0]; j++) {
		const char *s = ks_json_str(plan, text[j], where);

		if (!s)
			return -1;
		if (!*s) {
			ks_warnx("'%s': field \"%s\" is empty", where, text[j]);
			return -1;
		}
	}
	if (ks_json_num(plan, "uplift_min", where, &lo) < 0 || ks_json_num(plan, "uplift_max", where, &hi) < 0 ||
	    ks_json_int(plan, "innovation", where, 1, 10, &innov) < 0)
		return -1;
	if (lo > hi) {
		ks_warnx("'%s': uplift_min %g is above uplift_max %g", where, lo, hi);
		return -1;
	}
	return 0;
}

int
ks_hypotheses_check(const cJSON *h, const char *file, long k)
{
	const cJSON *avenues, *plans, *chosen, *v;
	int i = 0, seen[5] = { 0 };

	if (!(avenues = ks_json_arr(h, "avenues", file)) || !(plans = ks_json_arr(h, "plans", file)))
		return -1;
	if (cJSON_GetArraySize(avenues) < 1 || cJSON_GetArraySize(avenues) > 10) {
		ks_warnx("'%s': \"avenues\" holds %d entries, not 1 to 10", file, cJSON_GetArraySize(avenues));
		return -1;
	}
	cJSON_ArrayForEach(v, avenues)
		if (!cJSON_IsString(v)) {
			ks_warnx("'%s': an entry of \"avenues\" is not a string", file);
			return -1;
		}
	if (cJSON_GetArraySize(plans) != 5) {
		ks_warnx("'%s': \"plans\" holds %d plans, not 5", file, cJSON_GetArraySize(plans));
		return -1;
	}
	cJSON_ArrayForEach(v, plans)
		if (plan_check(v, file, i++) < 0)
			return -1;
	if (k <= 0)
		return 0;
	if (!(chosen = ks_json_arr(h, "chosen", file)))
		return -1;
	if (cJSON_GetArraySize(chosen) != k) {
		ks_warnx("'%s': \"chosen\" holds %d plan indexes, not K=%ld", file, cJSON_GetArraySize(chosen), k);
		return -1;
	}
	cJSON_ArrayForEach(v, chosen) {
		int x = cJSON_IsNumber(v) ? v->valueint : -1;

		if (!cJSON_IsNumber(v) || v->valuedouble != x || x < 0 || x > 4 || seen[x]++) {
			ks_warnx("'%s': \"chosen\" must hold distinct plan indexes from 0 to 4", file);
			return -1;
		}
	}
	return 0;
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
