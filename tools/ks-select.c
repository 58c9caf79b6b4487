/*
 * ks-select - pick the base and the reference kernel of a generation
 * from every finished kernel of the generations before it.
 */
#include <stdlib.h>
#include <string.h>

#include "ks_stages.h"

struct pick {
	struct ks_cand *c;
	size_t n;
	cJSON *sel;     /* the valid reply */
};

/* A reply must name two correct kernels of the population and say why. */
static int
check_reply(const char *text, void *arg, char **why)
{
	struct pick *pk = arg;
	const char *keys[] = { "base", "reference" };
	cJSON *j = ks_reply_json(text, why);
	const char *reason;

	if (!j)
		return -1;
	for (int i = 0; i < 2; i++) {
		const char *id = ks_json_str(j, keys[i], NULL);
		struct ks_cand *k = id ? ks_cands_find(pk->c, pk->n, id) : NULL;

		if (!id)
			*why = ks_easprintf("\"%s\" is missing or not a string", keys[i]);
		else if (!k)
			*why = ks_easprintf("\"%s\" names '%s', which is not a kernel of the population", keys[i], id);
		else if (!k->status || strcmp(k->status, "ok") != 0)
			*why = ks_easprintf("\"%s\" names '%s', whose status is %s, not ok", keys[i], id,
			    k->status ? k->status : "unknown");
		if (*why) {
			cJSON_Delete(j);
			return -1;
		}
	}
	if (!(reason = ks_json_str(j, "reason", NULL))) {
		*why = ks_estrdup("\"reason\" is missing or not a string");
		cJSON_Delete(j);
		return -1;
	}
	pk->sel = cJSON_CreateObject();
	cJSON_AddStringToObject(pk->sel, "base", ks_json_str(j, "base", NULL));
	cJSON_AddStringToObject(pk->sel, "reference", ks_json_str(j, "reference", NULL));
	cJSON_AddStringToObject(pk->sel, "reason", reason);
	cJSON_Delete(j);
	return 0;
}

static cJSON *
ask_model(struct ks_stage *st)
{
	struct ks_problem p;
	struct pick pk = { st->c, st->n, NULL };
	char *pop = NULL, *task = NULL, *summary = NULL, *target = NULL, *prompt = NULL, *why = NULL, *g;
	cJSON *sel = NULL;
	size_t budget;
	int rc;

	if (ks_problem_load(st->run.problem, &p) < 0)
		return NULL;
	g = ks_easprintf("%ld", st->gen);
	if (ks_ctx_budget(&budget) < 0 || !(task = ks_ctx_task(&p, st->run.target)) ||
	    !(target = ks_ctx_target(&p, st->run.target, st->c, st->n)))
		goto out;
	/* choosing two kernels needs what they compute, not how to write one (the 7 KB of fp8-mm's task) */
	summary = ks_ctx_task_summary(task);
	pop = ks_ctx_population(st->c, st->n, &p, NULL, NULL, budget);
	const char *keys[] = { "generation", "task_summary", "task", "target", "population" };
	const char *vals[] = { g, summary, task, target, pop };
	if (!(prompt = ks_prompt_render("select", keys, vals, 5)) || ks_mkdir_p(st->dir) < 0)
		goto out;
	if ((rc = ks_ask(&st->llm, st->run.target, prompt, st->dir, "select", check_reply, &pk, &why)) < 0)
		goto out;
	if (rc == 0) {
		sel = pk.sel;
	} else if (ks_offline_select(st->c, st->n, &sel) == 0) {
		/* The model failed twice: the offline rule decides, and says it did. */
		char *f = ks_easprintf("the model's replies could not be used (%s): the offline rule chose", why);
		ks_warnx("'%s': %s", st->dir, f);
		cJSON_AddStringToObject(sel, "fallback", f);
		free(f);
	}
	if (sel) {
		cJSON_AddStringToObject(sel, "model", st->llm.model);
		ks_llm_usage_json(&st->llm, sel);
	}
out:
	free(g);
	free(why);
	free(prompt);
	free(pop);
	free(task);
	free(summary);
	free(target);
	ks_problem_free(&p);
	return sel;
}

/*
 * A kernel at the speed of light on every shape (KS_SOL_STOP) ends the
 * search: it is base and reference, chosen without a model, and "stop"
 * says why, for ks-hypothesize to make no plans.  NULL when none is.
 */
static cJSON *
stop_at_sol(const char *dir, const struct ks_cand *c, size_t n, double share)
{
	const struct ks_cand *k;
	char *why = ks_sol_reached(c, n, share, &k);
	cJSON *sel;

	if (!why)
		return NULL;
	sel = cJSON_CreateObject();
	cJSON_AddStringToObject(sel, "base", k->id);
	cJSON_AddStringToObject(sel, "reference", k->id);
	cJSON_AddStringToObject(sel, "reason", why);
	cJSON_AddStringToObject(sel, "model", "offline");
	cJSON_AddStringToObject(sel, "stop", why);
	ks_warnx("'%s': %s", dir, why);
	free(why);
	return sel;
}

/*
 * What the choice was made from: every kernel's status and score as this
 * stage saw them, so that a result changed later (a bench redone) is seen
 * to postdate the generations that used it (ks-report says so).
 */
static void
add_seen(cJSON *sel, const struct ks_cand *c, size_t n)
{
	cJSON *seen = cJSON_AddArrayToObject(sel, "seen");

	for (size_t i = 0; i < n; i++) {
		cJSON *e = cJSON_CreateObject();

		cJSON_AddStringToObject(e, "id", c[i].id);
		ks_json_set_str(e, "status", c[i].status);
		if (c[i].score_us > 0)
			cJSON_AddNumberToObject(e, "score_us", c[i].score_us);
		else
			cJSON_AddNullToObject(e, "score_us");
		cJSON_AddItemToArray(seen, e);
	}
}

/*
 * What the kernels are, for the message that none is correct: each one's
 * id and status, the first few, so that a seed that timed out on a loaded
 * machine reads as that and not as a bare refusal.
 */
static void
say_none_correct(const struct ks_stage *st)
{
	enum { SHOWN = 4 };
	char list[512] = "";
	size_t len = 0;

	for (size_t i = 0; i < st->n && i < SHOWN; i++)
		len += snprintf(list + len, sizeof list - len, "%s%s %s", i ? ", " : "", st->c[i].id,
		    st->c[i].status ? st->c[i].status : "not benched");
	if (st->n > SHOWN)
		snprintf(list + len, sizeof list - len, " and %zu more", st->n - SHOWN);
	ks_warnx("no correct kernel before generation %ld in '%s' to select from (%s)", st->gen, st->root,
	    st->n ? list : "it has no kernels");
}

static int
select_gen(const char *dir, const char *out)
{
	struct ks_stage st;
	char *path = NULL;
	cJSON *sel = NULL;
	int rc = 1;
	double stop;

	/* opened in steps for select's own checks: KS_SOL_STOP before run.json, generation 0 before the model */
	if (ks_stage_open(&st, "select", dir, 0) < 0 || ks_sol_stop_setting(&stop) < 0 ||
	    ks_stage_load(&st, KS_STAGE_RUN) < 0)
		goto out;
	if (st.gen == 0) {
		ks_warnx("'%s' is generation 0, the seed kernels: selection starts at generation 1", dir);
		goto out;
	}
	if (ks_stage_load(&st, KS_STAGE_LLM | KS_STAGE_CANDS) < 0)
		goto out;
	sel = stop_at_sol(dir, st.c, st.n, stop);
	if (!sel && st.offline == 1 && ks_offline_select(st.c, st.n, &sel) == 0)
		cJSON_AddStringToObject(sel, "model", "offline");
	if (!sel && st.offline == 0) {
		struct ks_cand *any = NULL;
		for (size_t i = 0; i < st.n && !any; i++)
			if (st.c[i].score_us > 0)
				any = &st.c[i];
		if (any)
			sel = ask_model(&st);
		if (!sel && any)
			goto out;
	}
	if (!sel) {
		say_none_correct(&st);
		goto out;
	}
	add_seen(sel, st.c, st.n);
	path = out ? ks_estrdup(out) : ks_easprintf("%s/select.json", dir);
	if (ks_mkdir_p(dir) == 0 && ks_json_save(path, sel) == 0)
		rc = 0;
out:
	ks_stage_close(&st);
	cJSON_Delete(sel);
	free(path);
	return rc;
}

int
main(int argc, char *argv[])
{
	const char *out, *dir;
	int rval;

	dir = ks_args_dir_out(argc, argv, "pop/gen-NNN",
	    "  Picks the base and the reference kernel of generation NNN from the\n"
	    "  finished kernels of the generations before it, and writes\n"
	    "  pop/gen-NNN/select.json: {\"base\", \"reference\", \"reason\", \"model\"}.\n"
	    "  With an LLM configured (KS_LLM_PROVIDER, KS_LLM_URL, KS_MODEL, ...) the\n"
	    "  model chooses; its prompt and reply are kept in pop/gen-NNN/llm/.\n", &out);
	rval = select_gen(dir, out);
	if (ks_fclose_stdout() < 0)
		rval = 1;
	return rval;
}
