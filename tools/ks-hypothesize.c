/*
 * ks-hypothesize - design the experiments of a generation: 10 avenues,
 * 5 plans, and the K plans kept by the rule of population(5).  The tool,
 * not the model, keeps the plans.
 */
#include <stdlib.h>
#include <string.h>

#include "ks_stages.h"

/* A reply must hold exactly 10 avenues and 5 complete plans. */
static int
check_reply(const char *text, void *arg, char **why)
{
	cJSON **out = arg, *j = ks_reply_json(text, why), *h;

	if (!j)
		return -1;
	if (ks_hypotheses_validate(j, 0, 1, why) < 0) {
		cJSON_Delete(j);
		return -1;
	}
	h = cJSON_CreateObject();
	cJSON_AddItemToObject(h, "avenues", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(j, "avenues"), 1));
	cJSON_AddItemToObject(h, "plans", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(j, "plans"), 1));
	cJSON_Delete(j);
	*out = h;
	return 0;
}

/* The model's plans; on two unusable replies the offline proposer's, said so. */
static cJSON *
ask_model(struct ks_stage *st, const struct ks_calibration *cal)
{
	char *task = NULL, *target = NULL, *knowledge = NULL, *findings = NULL, *pop = NULL, *code = NULL, *sol = NULL;
	char *record = NULL, *prof = NULL, *warnings = NULL, *rcode = NULL, *rsection = NULL, *reason = NULL;
	char *prompt = NULL, *why = NULL, *g = ks_easprintf("%ld", st->gen), *k = ks_easprintf("%ld", st->run.k);
	const struct ks_cand *base = st->base, *ref = st->ref;
	struct ks_cand *c = st->c;
	size_t n = st->n;
	struct ks_problem p;
	cJSON *h = NULL;
	size_t budget;
	double stop;
	int rc;

	if (ks_problem_load(st->run.problem, &p) < 0) {
		free(g);
		free(k);
		return NULL;
	}
	if (ks_ctx_budget(&budget) < 0 || ks_sol_stop_setting(&stop) < 0 || !(task = ks_ctx_task(&p, st->run.target)) ||
	    !(target = ks_ctx_target(&p, st->run.target, c, n)) || !(code = ks_cand_code(base)))
		goto out;
	knowledge = ks_ctx_knowledge(&p, st->run.target);
	findings = ks_ctx_findings(c, n, budget);
	pop = ks_ctx_population(c, n, &p, base, ref, budget);
	sol = ks_ctx_sol(base, &p, st->run.target, stop);
	record = ks_ctx_track_record(cal);
	prof = ks_ctx_profile(base, st->run.target);
	warnings = ks_ctx_build_warnings(base);
	reason = ks_ctx_selection_reason(st->dir);
	if (!(rcode = ks_cand_code(ref)))
		goto out;
	rsection = ks_ctx_reference(&p, base, ref, "", rcode);
	const char *keys[] = { "generation", "k", "task", "target", "knowledge", "findings", "population",
		"base_id", "base_code", "speed_of_light", "track_record", "profile", "base_warnings", "selection_reason",
		"reference" };
	const char *vals[] = { g, k, task, target, knowledge, findings, pop, base->id, code, sol, record, prof,
		warnings, reason, rsection };
	if (!(prompt = ks_prompt_render("hypothesize", keys, vals, 15)))
		goto out;
	if ((rc = ks_ask(&st->llm, st->run.target, prompt, st->dir, "hypothesize", check_reply, &h, &why)) < 0)
		goto out;
	if (rc == 1) {
		char *f = ks_easprintf("the model's replies could not be used (%s)", why), *off = NULL;

		if (!(h = ks_offline_hypothesize(base, c, n, &off))) {
			if (off)
				ks_warnx("'%s': %s, and the offline proposer cannot stand in: %s", st->dir, f, off);
			free(off);
			free(f);
			goto out;
		}
		ks_warnx("'%s': %s: the offline proposer made the plans", st->dir, f);
		cJSON_AddStringToObject(h, "fallback", f);
		free(f);
	}
	ks_llm_usage_json(&st->llm, h);
out:
	free(g);
	free(k);
	free(why);
	free(prompt);
	free(task);
	free(target);
	free(knowledge);
	free(findings);
	free(pop);
	free(code);
	free(sol);
	free(record);
	free(prof);
	free(warnings);
	free(reason);
	free(rcode);
	free(rsection);
	ks_problem_free(&p);
	return h;
}

/*
 * select.json's "stop" (a kernel at the speed of light), as the plans of
 * a search that ends here: none, and why.  NULL when it has none.
 */
static cJSON *
stopped(const char *dir)
{
	char *path = ks_easprintf("%s/select.json", dir);
	struct ks_select_rec sel;
	cJSON *h = NULL;

	if (ks_select_rec_load(path, 0, &sel) == 0 && sel.stop) {
		h = cJSON_CreateObject();
		cJSON_AddStringToObject(h, "exhausted", sel.stop);
		cJSON_AddArrayToObject(h, "avenues");
		cJSON_AddArrayToObject(h, "plans");
	}
	ks_select_rec_free(&sel);
	free(path);
	return h;
}

static int
hypothesize(const char *dir, const char *out)
{
	struct ks_stage st;
	char *path = NULL, *where = NULL;
	cJSON *h = NULL, *chosen, *usage, *plans;
	const char *ex;
	long picks[KS_MAX_K], nkeep;
	int rc = 1, asked = 0;
	struct ks_calibration cal;

	if (ks_stage_open(&st, "hypothesize", dir, KS_STAGE_RUN | KS_STAGE_LLM | KS_STAGE_CANDS |
	    KS_STAGE_SELECT) < 0)
		goto out;
	/* the track record of the plans before these: shown to the model, kept in hypotheses.json */
	ks_calibrate(st.c, st.n, &cal);
	/* a search that ends here (select.json "stop") makes no plans and asks no model */
	h = stopped(dir);
	if (!h && st.offline == 0) {
		asked = 1;
		h = ask_model(&st, &cal);
	} else if (!h) {
		char *why = NULL;

		if (!(h = ks_offline_hypothesize(st.base, st.c, st.n, &why)) && why)
			ks_warnx("%s", why);
		free(why);
	}
	if (!h)
		goto out;
	path = out ? ks_estrdup(out) : ks_easprintf("%s/hypotheses.json", dir);
	where = ks_easprintf("%s (as proposed)", path);
	plans = cJSON_GetObjectItemCaseSensitive(h, "plans");
	/* K plans are kept, or every plan when the offline proposer had fewer left */
	nkeep = st.run.k < cJSON_GetArraySize(plans) ? st.run.k : cJSON_GetArraySize(plans);
	if (ks_hypotheses_check(h, where, 0) < 0 || ks_plans_choose(plans, nkeep, picks) < 0)
		goto out;
	if ((ex = ks_json_str(h, "exhausted", NULL)))
		ks_warnx("'%s': %s: no candidates in this generation", dir, ex);
	else if (nkeep < st.run.k)
		ks_warnx("'%s': only %ld untried configuration(s) are left: %ld candidate(s) instead of K=%ld", dir, nkeep,
		    nkeep, st.run.k);
	chosen = cJSON_AddArrayToObject(h, "chosen");
	for (long i = 0; i < nkeep; i++)
		cJSON_AddItemToArray(chosen, cJSON_CreateNumber((double)picks[i]));
	cJSON_AddStringToObject(h, "base", st.base->id);
	cJSON_AddStringToObject(h, "model", asked ? st.llm.model : "offline");
	/* the track record as it stood when these plans were made */
	cJSON_AddItemToObject(h, "calibration", ks_calibration_json(&cal));
	/* usage last, beside the model that spent it */
	if ((usage = cJSON_DetachItemFromObjectCaseSensitive(h, "usage")))
		cJSON_AddItemToObject(h, "usage", usage);
	if (ks_json_save(path, h) == 0)
		rc = 0;
out:
	ks_stage_close(&st);
	cJSON_Delete(h);
	free(path);
	free(where);
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
	    "  pop/gen-NNN/hypotheses.json: {\"avenues\", \"plans\", \"chosen\", \"base\", \"model\"}.\n"
	    "  With an LLM configured the model proposes; else the offline proposer\n"
	    "  changes the base's tunable parameters.\n", &out);
	rval = hypothesize(dir, out);
	if (ks_fclose_stdout() < 0)
		rval = 1;
	return rval;
}
