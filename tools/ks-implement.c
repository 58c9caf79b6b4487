/*
 * ks-implement - write the kernel of one candidate slot: the problem's
 * seed in generation 0, else the base kernel changed by the kept plan.
 * A kernel a model wrote is compiled here, in a temporary directory, and
 * one that does not compile goes back to the model with the diagnostics
 * (KS_REPAIR_TRIES): the kernel, candidate.json and llm/ are this tool's
 * alone (population(5)).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_stages.h"

struct slot {
	struct ks_stage st;     /* the slot, its run; past generation 0 its model, problem, kernels, base, reference */
	const struct ks_target *target;
	char ext[32];           /* the kernel file's extension (ks_target_ext) */
	int unplanned;          /* the generation keeps no plan for this slot */
};

static cJSON *
new_candidate(const struct slot *s, const char *base, const char *ref, const char *model)
{
	cJSON *cand = cJSON_CreateObject(), *parents, *usage;
	char id[24];

	ks_id_format(id, sizeof id, s->st.gen, s->st.slot);
	cJSON_AddStringToObject(cand, "id", id);
	cJSON_AddNumberToObject(cand, "generation", (double)s->st.gen);
	cJSON_AddNumberToObject(cand, "slot", (double)s->st.slot);
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

	if (s->st.slot != 0) {
		ks_warnx("'%s': generation 0 holds one seed kernel, in slot c0", s->st.dir);
		return NULL;
	}
	if (ks_problem_load(s->st.run.problem, &p) < 0)
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

/* How the model's code came: "form": "file", or "form": "edits" and "edits": N, added to obj. */
static void
add_reply_form(cJSON *obj, const struct ks_code_check *cc)
{
	cJSON_AddStringToObject(obj, "form", cc->form);
	if (strcmp(cc->form, "edits") == 0)
		cJSON_AddNumberToObject(obj, "edits", cc->edits);
}

static char *
plan_text(const cJSON *plan, const char *key)
{
	const char *t = ks_json_str(plan, key, NULL);

	return ks_estrdup(t ? t : "");
}

/*
 * The model writes the kernel from the base, the reference, the task and
 * the plan, with the selector's reason, both kernels' times per shape and
 * the knowledge notes, as a whole file or as edits to the base (*form
 * says which).  Two unusable replies make a rejected candidate
 * (*rejected says why), not a tool error.
 */
static char *
ask_model(struct slot *s, const cJSON *h, const cJSON *plan, char **rejected, cJSON **form)
{
	const struct ks_problem *p = &s->st.prob;
	const struct ks_cand *base = s->st.base, *ref = s->st.ref;
	struct ks_cand *c = s->st.c;
	size_t n = s->st.n;
	char *task = NULL, *target = NULL, *bcode = NULL, *rcode = NULL, *prompt = NULL, *knowledge = NULL;
	char *btimes = NULL, *rsection = NULL, *reason = NULL, *warnings = NULL, *others = NULL;
	char *named = NULL, *all = NULL;
	char *title = plan_text(plan, "title"), *desc = plan_text(plan, "description"), *rubric = plan_text(plan, "rubric");
	size_t budget;
	const char *entry_point = ks_json_str(p->json, "entry_point", p->path);
	struct ks_code_check cc = { .entry = p->entry_name,
		.forbidden = cJSON_GetObjectItemCaseSensitive(p->json, "forbidden") };

	if (!entry_point || ks_ctx_budget(&budget) < 0 || !(task = ks_ctx_task(p, s->st.run.target)) ||
	    !(target = ks_ctx_target(p, s->st.run.target, c, n)) || !(bcode = ks_cand_code(base)) ||
	    !(rcode = ks_cand_code(ref)))
		goto out;
	knowledge = ks_ctx_knowledge(p, s->st.run.target);
	btimes = ks_ctx_times(base, p);
	all = ks_easprintf("%s\n%s\n%s", title, desc, rubric);
	/* the reference's code where the plan draws on it, or where it costs little */
	rsection = ks_ctx_reference(p, base, ref, s->ext,
	    ks_ctx_show_reference(all, ref, strlen(bcode), strlen(rcode), budget) ? rcode : NULL);
	named = ks_ctx_named_kernels(all, c, n, base, ref, p, s->ext, budget);
	reason = ks_ctx_selection_reason(s->st.gdir);
	warnings = ks_ctx_build_warnings(base);
	others = ks_ctx_other_plans(h, s->st.slot);
	const char *keys[] = { "task", "target", "entry_point", "language", "base_id", "base_code", "reference_id",
		"reference_code", "plan_title", "plan_description", "plan_rubric", "knowledge", "base_times",
		"reference", "selection_reason", "base_warnings", "other_plans", "named_kernels" };
	const char *vals[] = { task, target, entry_point, s->ext, base->id, bcode, ref->id, rcode, title,
		desc, rubric, knowledge, btimes, rsection, reason, warnings, others, named };
	if (!(prompt = ks_prompt_render("implement", keys, vals, 18)) || ks_mkdir_p(s->st.dir) < 0)
		goto out;
	cc.base = bcode;
	if (ks_ask(&s->st.llm, s->st.run.target, prompt, s->st.dir, "implement", ks_check_code, &cc, rejected) != 1) {
		free(*rejected);
		*rejected = NULL;
	}
	if (cc.code)
		add_reply_form(*form = cJSON_CreateObject(), &cc);
out:
	free(task);
	free(target);
	free(bcode);
	free(rcode);
	free(prompt);
	free(knowledge);
	free(btimes);
	free(rsection);
	free(reason);
	free(warnings);
	free(others);
	free(named);
	free(all);
	free(title);
	free(desc);
	free(rubric);
	return cc.code;
}

/*
 * Builds code with the problem's harness in a temporary directory, as
 * ks-build will: 1 when it compiles, 0 when not (*diagnostics says why;
 * caller frees), -1 when the compiler could not be run (said).
 */
static int
compiles(const struct slot *s, const char *code, char **diagnostics)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = ks_easprintf("%s/ks-implement.XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp");
	char *kernel = NULL, *runner = NULL, *log = NULL;
	cJSON *rec = cJSON_CreateObject();
	int ok = -1;

	*diagnostics = NULL;
	if (!mkdtemp(dir)) {
		ks_warn("cannot make a temporary directory '%s'", dir);
		goto out;
	}
	kernel = ks_easprintf("%s/kernel.%s", dir, s->ext);
	runner = ks_easprintf("%s/runner", dir);
	log = ks_easprintf("%s/build.log", dir);
	struct ks_compile_job job = { s->target, &s->st.prob, kernel, runner, log, NULL };
	/* not beside a CPU bench (ks-build's reason); let go before the model is asked again */
	int lock = ks_cpu_share(s->target, s->st.dir);

	char *refused = NULL;	/* (no object check: ks-build's) */

	if (lock != -1 && ks_file_write_atomic(kernel, code, strlen(code)) == 0 &&
	    (ok = ks_compile(&job, rec, &refused)) == 0) {
		/* as the model sees them: no temporary path (a rerun's prompt is the same), its own lines first */
		char *shown = ks_easprintf("kernel.%s", s->ext);

		*diagnostics = ks_compile_for_model(ks_json_str(rec, "diagnostics", ""), kernel, shown);
		free(shown);
	}
	ks_cpu_unshare(lock);
	ks_remove_tree(dir);
out:
	cJSON_Delete(rec);
	free(dir);
	free(kernel);
	free(runner);
	free(log);
	return ok;
}

/*
 * The model's fix for code that did not compile, as a whole file or edits
 * to it (added to entry); NULL when it gave none (or on an error: said).
 */
static char *
ask_repair(struct slot *s, const cJSON *plan, int attempt, const char *code, const char *diagnostics,
    cJSON *entry)
{
	const struct ks_problem *p = &s->st.prob;
	struct ks_code_check cc = { .entry = p->entry_name, .base = code,
		.forbidden = cJSON_GetObjectItemCaseSensitive(p->json, "forbidden") };
	char *task = ks_ctx_task(p, s->st.run.target), *target = ks_ctx_target(p, s->target->name, NULL, 0);
	char *prompt = NULL, *name = ks_easprintf("repair%d", attempt), *why;
	const char *entry_point = ks_json_str(p->json, "entry_point", p->path);

	char *title = plan_text(plan, "title"), *desc = plan_text(plan, "description"), *rubric = plan_text(plan, "rubric");

	if (task && target && entry_point) {
		const char *keys[] = { "task", "target", "entry_point", "language", "code", "diagnostics", "plan_title",
			"plan_description", "plan_rubric" };
		const char *vals[] = { task, target, entry_point, s->ext, code, diagnostics, title, desc,
			rubric };
		if ((prompt = ks_prompt_render("repair", keys, vals, 9)) &&
		    ks_ask(&s->st.llm, s->st.run.target, prompt, s->st.dir, name, ks_check_code, &cc, &why) == 1) {
			ks_info("'%s': repair %d gave no usable code: %s", s->st.dir, attempt, why);
			free(why);
		}
	}
	if (cc.code)
		add_reply_form(entry, &cc);
	free(task);
	free(target);
	free(prompt);
	free(name);
	free(title);
	free(desc);
	free(rubric);
	return cc.code;
}

/*
 * A model's kernel that does not compile goes back to the model with the
 * diagnostics, at most KS_REPAIR_TRIES times; each try is kept in llm/
 * and in candidate.json "repairs".  Returns the last code (code itself
 * or a fix), which ks-build records as build_failed if it still does
 * not compile; NULL on a tool error (said).
 */
static char *
repaired(struct slot *s, const cJSON *plan, int tries, char *code, cJSON *repairs)
{
	char *diag = NULL, *fix;
	int ok;

	if (tries == 0)
		return code;
	if ((ok = compiles(s, code, &diag)) < 0)
		goto fail;
	for (int t = 1; t <= tries && !ok; t++) {
		cJSON *entry = cJSON_CreateObject();

		cJSON_AddNumberToObject(entry, "try", t);
		cJSON_AddStringToObject(entry, "diagnostics", diag);
		cJSON_AddItemToArray(repairs, entry);
		if (!(fix = ask_repair(s, plan, t, code, diag, entry))) {
			cJSON_AddBoolToObject(entry, "ok", 0);
			break;
		}
		free(code);
		free(diag);
		code = fix;
		if ((ok = compiles(s, code, &diag)) < 0)
			goto fail;
		cJSON_AddBoolToObject(entry, "ok", ok);
	}
	free(diag);
	return code;
fail:
	free(diag);
	free(code);
	return NULL;
}

static char *
planned_source(struct slot *s, cJSON **cand, char **rejected)
{
	struct ks_stage *st = &s->st;
	char *where = NULL, *kpath = NULL, *bsrc = NULL, *src = NULL;
	const cJSON *plan;
	cJSON *h = NULL, *repairs = cJSON_CreateArray(), *form = NULL;
	long idx;
	int tries;

	/* a bad setting is said before any call is paid for */
	if ((tries = ks_repair_tries()) < 0)
		goto out;
	/* target external compiles nothing here: its evaluator says whether the code builds */
	if (ks_target_external(s->target))
		tries = 0;
	if (ks_stage_load(st, KS_STAGE_LLM | KS_STAGE_PROBLEM | KS_STAGE_CANDS | KS_STAGE_SELECT) < 0 ||
	    !(h = ks_hypotheses_load(st->gdir, st->run.k)))
		goto out;
	where = ks_easprintf("%s/hypotheses.json", st->gdir);
	/* Plans written for one base make no sense applied to another. */
	const char *hbase = ks_json_str(h, "base", NULL);
	if (hbase && strcmp(hbase, st->base->id) != 0) {
		ks_warnx("'%s': the plans were made for base %s, but select.json now names %s: "
		    "remove hypotheses.json to make new plans", where, hbase, st->base->id);
		goto out;
	}
	if (st->slot >= st->run.k) {
		ks_warnx("'%s': slot c%ld is beyond K=%ld of '%s'", st->dir, st->slot, st->run.k, st->run.path);
		goto out;
	}
	if (st->slot >= cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(h, "chosen"))) {
		const char *ex = ks_json_str(h, "exhausted", NULL);

		ks_warnx("'%s': no candidate: %s", st->dir,
		    ex ? "the search space is exhausted (hypotheses.json)" : "hypotheses.json keeps fewer plans than K");
		s->unplanned = 1;
		goto out;
	}
	idx = (long)cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(h, "chosen"), (int)st->slot)->valuedouble;
	plan = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(h, "plans"), (int)idx);
	/* A plan with "changes" is applied as it stands; other plans need a model. */
	if (cJSON_GetObjectItemCaseSensitive(plan, "changes")) {
		if (!(kpath = ks_cand_kernel_path(st->base)) || !(bsrc = ks_file_read(kpath, NULL)) ||
		    !(src = apply_changes(bsrc, plan, where)))
			goto out;
	} else if (st->offline == 1) {
		ks_warnx("'%s': plan %ld has no \"changes\" for the offline proposer to apply: "
		    "configure an LLM (KS_LLM_PROVIDER, KS_LLM_URL, KS_MODEL)", where, idx);
		goto out;
	} else if (!(src = ask_model(s, h, plan, rejected, &form)) && !*rejected) {
		goto out;
	} else if (src && !(src = repaired(s, plan, tries, src, repairs))) {
		goto out;
	}
	*cand = new_candidate(s, st->base->id, st->ref->id,
	    st->offline == 0 && !cJSON_GetObjectItemCaseSensitive(plan, "changes") ? st->llm.model : "offline");
	cJSON *kept = cJSON_Duplicate(plan, 1);
	cJSON_AddNumberToObject(kept, "index", (double)idx);
	cJSON_ReplaceItemInObjectCaseSensitive(*cand, "plan", kept);
	if (st->offline == 0)
		ks_llm_usage_json(&st->llm, *cand);
	if (*rejected)
		cJSON_AddStringToObject(*cand, "rejected", *rejected);
	if (form) {
		cJSON_AddItemToObject(*cand, "reply", form);
		form = NULL;
	}
	if (cJSON_GetArraySize(repairs) > 0) {
		cJSON_AddItemToObject(*cand, "repairs", repairs);
		repairs = NULL;
	}
out:
	cJSON_Delete(form);
	cJSON_Delete(repairs);
	cJSON_Delete(h);
	free(bsrc);
	free(kpath);
	free(where);
	return src;
}

static int
implement(const char *dir, const char *out)
{
	struct slot s = { 0 };
	char *src = NULL, *kpath = NULL, *cpath = NULL, *rejected = NULL;
	cJSON *cand = NULL;
	int rc = 1;

	if (ks_stage_open(&s.st, "implement", dir, KS_STAGE_SLOT | KS_STAGE_RUN) < 0 ||
	    !(s.target = ks_target_find(s.st.run.target)))
		goto out;
	if (s.target->ext) {
		snprintf(s.ext, sizeof s.ext, "%s", s.target->ext);
	} else {
		struct ks_problem p;

		if (ks_problem_load(s.st.run.problem, &p) < 0)
			goto out;
		snprintf(s.ext, sizeof s.ext, "%s", ks_target_ext(s.target, &p));
		ks_problem_free(&p);
	}
	src = s.st.gen == 0 ? seed_source(&s, &cand) : planned_source(&s, &cand, &rejected);
	if (!cand) {
		rc = s.unplanned ? 0 : 1;
		goto out;
	}
	kpath = ks_easprintf("%s/kernel.%s", dir, s.ext);
	cpath = out ? ks_estrdup(out) : ks_easprintf("%s/candidate.json", dir);
	if (ks_mkdir_p(dir) < 0)
		goto out;
	/* A rejected candidate has no kernel; no stale one may stand in for it. */
	if (rejected)
		unlink(kpath);
	else if (ks_file_write_atomic(kpath, src, strlen(src)) < 0)
		goto out;
	/* The kernel first: candidate.json is what make waits for. */
	if (ks_json_save(cpath, cand) == 0)
		rc = 0;
	if (rejected)
		ks_warnx("'%s': candidate rejected: %s", dir, rejected);
out:
	ks_stage_close(&s.st);
	cJSON_Delete(cand);
	free(src);
	free(kpath);
	free(cpath);
	free(rejected);
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
