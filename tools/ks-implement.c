/*
 * ks-implement - write the kernel of one candidate slot: the problem's
 * seed in generation 0, else the base kernel changed by the kept plan.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ks.h"

struct slot {
	const char *dir;
	char *root;
	long gen, slot;
	struct ks_run run;
	const struct ks_target *target;
};

static cJSON *
new_candidate(const struct slot *s, const char *base, const char *ref, const char *model)
{
	cJSON *cand = cJSON_CreateObject(), *parents, *usage;
	char id[24];

	ks_id_format(id, sizeof id, s->gen, s->slot);
	cJSON_AddStringToObject(cand, "id", id);
	cJSON_AddNumberToObject(cand, "generation", (double)s->gen);
	cJSON_AddNumberToObject(cand, "slot", (double)s->slot);
	parents = cJSON_AddObjectToObject(cand, "parents");
	ks_json_set_str(parents, "base", base);
	ks_json_set_str(parents, "reference", ref);
	cJSON_AddNullToObject(cand, "plan");
	cJSON_AddStringToObject(cand, "model", model);
	usage = cJSON_AddObjectToObject(cand, "usage");
	cJSON_AddNumberToObject(usage, "calls", 0);
	cJSON_AddNumberToObject(usage, "prompt_tokens", 0);
	cJSON_AddNumberToObject(usage, "completion_tokens", 0);
	return cand;
}

/* Generation 0: the problem's seed kernel, unchanged. */
static char *
seed_source(const struct slot *s, cJSON **cand)
{
	struct ks_problem p;
	char *path, *src = NULL;

	if (s->slot != 0) {
		ks_warnx("'%s': generation 0 holds one seed kernel, in slot c0", s->dir);
		return NULL;
	}
	if (ks_problem_load(s->run.problem, &p) < 0)
		return NULL;
	if ((path = ks_problem_file(&p, "seed_kernel")))
		src = ks_file_read(path, NULL);
	free(path);
	ks_problem_free(&p);
	if (src)
		*cand = new_candidate(s, NULL, NULL, "seed");
	return src;
}

/* Applies the plan's "changes" ({"NAME": value}) to the base source. */
static char *
apply_changes(const char *src, const cJSON *plan, const char *where)
{
	const cJSON *changes = ks_json_obj(plan, "changes", where), *ch;
	const char *names[64];
	long values[64];
	int n = 0;
	char *out;

	if (!changes)
		return NULL;
	cJSON_ArrayForEach(ch, changes) {
		if (n == 64 || !cJSON_IsNumber(ch) || ch->valuedouble != floor(ch->valuedouble) ||
		    fabs(ch->valuedouble) > 1e15) {
			ks_warnx("'%s': \"changes\" must map parameter names to integers", where);
			return NULL;
		}
		names[n] = ch->string;
		values[n++] = (long)ch->valuedouble;
	}
	if (n == 0) {
		ks_warnx("'%s': the plan's \"changes\" change nothing", where);
		return NULL;
	}
	if (!(out = ks_tune_apply(src, names, values, n)))
		ks_warnx("'%s': the base kernel does not declare every parameter the plan changes", where);
	return out;
}

static char *
planned_source(const struct slot *s, cJSON **cand)
{
	struct ks_cand *c = NULL, *base, *ref;
	char *gdir = ks_gen_dir(s->root, s->gen), *where = NULL, *kpath = NULL, *bsrc = NULL, *src = NULL;
	const cJSON *plan;
	cJSON *h = NULL;
	const char *provider;
	size_t n = 0;
	long idx;

	if (!(provider = ks_llm_provider()) || ks_cands_load(s->root, s->gen, &c, &n) < 0 ||
	    ks_select_load(gdir, c, n, &base, &ref) < 0 || !(h = ks_hypotheses_load(gdir, s->run.k)))
		goto out;
	where = ks_easprintf("%s/hypotheses.json", gdir);
	/* Plans written for one base make no sense applied to another. */
	const char *hbase = ks_json_str(h, "base", NULL);
	if (hbase && strcmp(hbase, base->id) != 0) {
		ks_warnx("'%s': the plans were made for base %s, but select.json now names %s: "
		    "remove hypotheses.json to make new plans", where, hbase, base->id);
		goto out;
	}
	if (s->slot >= s->run.k) {
		ks_warnx("'%s': slot c%ld is beyond K=%ld of '%s'", s->dir, s->slot, s->run.k, s->run.path);
		goto out;
	}
	idx = (long)cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(h, "chosen"), (int)s->slot)->valuedouble;
	plan = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(h, "plans"), (int)idx);
	if (!(kpath = ks_cand_kernel_path(base)) || !(bsrc = ks_file_read(kpath, NULL)))
		goto out;
	if (!(src = apply_changes(bsrc, plan, where)))
		goto out;
	*cand = new_candidate(s, base->id, ref->id, provider);
	cJSON *p = cJSON_Duplicate(plan, 1);
	cJSON_AddNumberToObject(p, "index", (double)idx);
	cJSON_ReplaceItemInObjectCaseSensitive(*cand, "plan", p);
out:
	cJSON_Delete(h);
	ks_cands_free(c, n);
	free(bsrc);
	free(kpath);
	free(where);
	free(gdir);
	return src;
}

static int
implement(const char *dir, const char *out)
{
	struct slot s = { .dir = dir };
	char *src = NULL, *kpath = NULL, *cpath = NULL;
	cJSON *cand = NULL;
	int rc = 1;

	if (ks_cand_dir_parse(dir, &s.root, &s.gen, &s.slot) < 0)
		return 1;
	if (ks_run_load(s.root, &s.run) < 0)
		goto out;
	if (!(s.target = ks_target_find(s.run.target)))
		goto out_run;
	src = s.gen == 0 ? seed_source(&s, &cand) : planned_source(&s, &cand);
	if (!src)
		goto out_run;
	kpath = ks_easprintf("%s/kernel.%s", dir, s.target->ext);
	cpath = out ? ks_estrdup(out) : ks_easprintf("%s/candidate.json", dir);
	/* The kernel first: candidate.json is what make waits for. */
	if (ks_mkdir_p(dir) == 0 && ks_file_write_atomic(kpath, src, strlen(src)) == 0 &&
	    ks_json_save(cpath, cand) == 0)
		rc = 0;
out_run:
	ks_run_free(&s.run);
out:
	cJSON_Delete(cand);
	free(src);
	free(kpath);
	free(cpath);
	free(s.root);
	return rc;
}

int
main(int argc, char *argv[])
{
	const char *out, *dir;
	int rval;

	dir = ks_args_dir_out(argc, argv, "pop/gen-NNN/cS",
	    "  Writes the kernel of candidate slot S (kernel.c, .hip or .cu, by target)\n"
	    "  and pop/gen-NNN/cS/candidate.json.  Generation 0 takes the problem's seed\n"
	    "  kernel; later generations apply kept plan S of hypotheses.json to the\n"
	    "  base kernel named in select.json.\n", &out);
	rval = implement(dir, out);
	if (ks_fclose_stdout() < 0)
		rval = 1;
	return rval;
}
