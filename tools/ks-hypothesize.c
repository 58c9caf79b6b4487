/*
 * ks-hypothesize - design the experiments of a generation: 10 avenues,
 * 5 plans, and the K plans kept by the rule of DESIGN.md.
 */
#include <stdlib.h>
#include <string.h>

#include "ks.h"

static int
hypothesize(const char *dir, const char *out)
{
	struct ks_cand *c = NULL, *base, *ref;
	struct ks_run run;
	const char *provider;
	char *root = NULL, *path = NULL, *where;
	cJSON *h = NULL, *chosen;
	long gen, picks[KS_MAX_K];
	size_t n = 0;
	int rc = 1;

	if (ks_gen_dir_parse(dir, &root, &gen) < 0)
		return 1;
	if (ks_run_load(root, &run) < 0)
		goto out;
	if (!(provider = ks_llm_provider()) || ks_cands_load(root, gen, &c, &n) < 0 ||
	    ks_select_load(dir, c, n, &base, &ref) < 0)
		goto out_run;
	if (!(h = ks_offline_hypothesize(base, c, n)))
		goto out_run;
	path = out ? ks_estrdup(out) : ks_easprintf("%s/hypotheses.json", dir);
	where = ks_easprintf("%s (as proposed)", path);
	if (ks_hypotheses_check(h, where, 0) < 0 || ks_plans_choose(cJSON_GetObjectItemCaseSensitive(h, "plans"),
	    run.k, picks) < 0) {
		free(where);
		goto out_run;
	}
	free(where);
	chosen = cJSON_AddArrayToObject(h, "chosen");
	for (long i = 0; i < run.k; i++)
		cJSON_AddItemToArray(chosen, cJSON_CreateNumber((double)picks[i]));
	cJSON_AddStringToObject(h, "base", base->id);
	cJSON_AddStringToObject(h, "model", provider);
	if (ks_json_save(path, h) == 0)
		rc = 0;
out_run:
	ks_run_free(&run);
out:
	cJSON_Delete(h);
	ks_cands_free(c, n);
	free(path);
	free(root);
	return rc;
}

int
main(int argc, char *argv[])
{
	const char *out, *dir;
	int rval;

	dir = ks_args_dir_out(argc, argv, "pop/gen-NNN",
	    "  Reads pop/gen-NNN/select.json and the base kernel, proposes 10 avenues\n"
	    "  and 5 experiment plans, keeps K of them (the most innovative, the\n"
	    "  highest max uplift, the highest min uplift) and writes\n"
	    "  pop/gen-NNN/hypotheses.json: {\"avenues\", \"plans\", \"chosen\", \"base\", \"model\"}.\n", &out);
	rval = hypothesize(dir, out);
	if (ks_fclose_stdout() < 0)
		rval = 1;
	return rval;
}
