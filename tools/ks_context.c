/*
 * ks_context.c - what the LLM stages show the model: the population,
 * the findings of earlier generations, the task, the target, the
 * knowledge notes; and ks_ask(), the one way a stage asks and checks.
 */
#include <stdlib.h>
#include <string.h>

#include "ks.h"

static const char *
parent_of(const struct ks_cand *c, const char *key)
{
	const char *id = strcmp(key, "base") == 0 ? c->cand.base : c->cand.reference;

	return id ? id : "-";
}

static const char *
plan_title(const struct ks_cand *c)
{
	const char *t = ks_json_str(c->cand.plan, "title", NULL);

	return t ? t : c->gen == 0 ? "(the seed kernel)" : "-";
}

/* The build's resource report, when the compiler gave one. */
static void
add_resources(struct ks_buf *b, const struct ks_cand *c)
{
	char *path = ks_easprintf("%s/build.json", c->dir);
	struct ks_build_rec build;

	/* a build.json that does not load was said; the prompt goes without its resources */
	if (ks_build_rec_load(path, KS_OPTIONAL, &build) == 0) {
		if (build.resources) {
			char *r = cJSON_PrintUnformatted(build.resources);
			ks_buf_printf(b, "  resources: %s\n", r);
			cJSON_free(r);
		}
		ks_build_rec_free(&build);
	}
	free(path);
}

char *
ks_ctx_population(const struct ks_cand *c, size_t n, const struct ks_problem *p)
{
	struct ks_buf b = { 0 };

	ks_buf_add(&b, "", 0);
	for (size_t i = 0; i < n; i++) {
		const cJSON *res = c[i].bench.results, *r;
		const char *msg = c[i].bench.message;

		ks_buf_printf(&b, "- %s (base %s, reference %s; plan: %s): status %s", c[i].id, parent_of(&c[i], "base"),
		    parent_of(&c[i], "reference"), plan_title(&c[i]), c[i].status ? c[i].status : "not benched");
		if (c[i].score_us > 0)
			ks_buf_printf(&b, ", score %.2f us", c[i].score_us);
		ks_buf_puts(&b, "\n");
		if (c[i].score_us > 0) {
			ks_buf_puts(&b, "  per shape:");
			cJSON_ArrayForEach(r, res) {
				char *shape = ks_shape_name(ks_json_obj(r, "shape", NULL), p->dims);
				double t = 0;

				ks_json_num(r, "time_us", NULL, &t);
				ks_buf_printf(&b, " %s %.2f us;", shape, t);
				free(shape);
			}
			ks_buf_puts(&b, "\n");
		} else if (msg) {
			ks_buf_printf(&b, "  why: %.300s\n", msg);
		}
		add_resources(&b, &c[i]);
	}
	return b.s;
}

char *
ks_ctx_findings(const struct ks_cand *c, size_t n)
{
	struct ks_buf b = { 0 };

	ks_buf_add(&b, "", 0);
	for (size_t i = 0; i < n; i++) {
		const cJSON *plan = c[i].cand.plan;
		const struct ks_cand *base = NULL;
		double lo = 0, hi = 0;

		if (!cJSON_IsObject(plan))
			continue;
		for (size_t j = 0; j < n; j++)
			if (strcmp(c[j].id, parent_of(&c[i], "base")) == 0)
				base = &c[j];
		ks_json_num(plan, "uplift_min", NULL, &lo);
		ks_json_num(plan, "uplift_max", NULL, &hi);
		ks_buf_printf(&b, "- generation %ld, %s from %s: \"%s\" (expected %+.0f%% to %+.0f%%): ", c[i].gen, c[i].id,
		    parent_of(&c[i], "base"), plan_title(&c[i]), lo, hi);
		if (c[i].score_us > 0 && base && base->score_us > 0)
			ks_buf_printf(&b, "measured %+.1f%% (%.2f us against %.2f us)\n",
			    (base->score_us / c[i].score_us - 1) * 100, c[i].score_us, base->score_us);
		else
			ks_buf_printf(&b, "%s\n", c[i].status ? c[i].status : "not benched");
	}
	if (b.len == 0)
		ks_buf_puts(&b, "(none yet: this is the first generation)\n");
	return b.s;
}

char *
ks_ctx_target(const char *target, const struct ks_cand *c, size_t n)
{
	char *file = ks_easprintf("targets/%s.md", target), *text = ks_prompt_file(file);
	const char *device = NULL;
	char *out;

	free(file);
	if (!text)
		return NULL;
	for (size_t i = 0; i < n && !device; i++)
		device = c[i].bench.device;
	out = device ? ks_easprintf("%s\nThe benchmarks run on: %s\n", text, device) : ks_estrdup(text);
	free(text);
	return out;
}

char *
ks_ctx_knowledge(const struct ks_problem *p)
{
	char *dir = ks_data_dir("prompts", "KS_PROMPTS_DIR"), *kdir = ks_easprintf("%s/knowledge", dir);
	char *pdir = ks_easprintf("%s/knowledge", p->dir);
	char *general = ks_prompt_knowledge(kdir), *specific = ks_prompt_knowledge(pdir);
	char *out = ks_easprintf("%s%s%s", general, *general && *specific ? "\n" : "", specific);

	if (!*out) {
		free(out);
		out = ks_estrdup("(no notes)\n");
	}
	free(general);
	free(specific);
	free(dir);
	free(kdir);
	free(pdir);
	return out;
}

char *
ks_ctx_file(const struct ks_problem *p, const char *key)
{
	char *path = ks_problem_file(p, key), *text;

	if (!path)
		return NULL;
	text = ks_file_read(path, NULL);
	free(path);
	return text;
}

/*
 * The re-ask after an unusable reply.  The model sees its reply and what
 * was wrong with it, as [prompt, reply, note]; but never an empty
 * assistant turn (Anthropic and Gemini refuse one with a 400) nor a reply
 * cut off at the token limit: then the prompt is asked again as one turn
 * with the note, and after a cut-off with twice the reply limit, once.
 */
static int
reask_turns(const char *prompt, const struct ks_llm_reply *r, const char *why, const char **turns, char **note)
{
	int empty = strspn(r->text, " \t\r\n") == strlen(r->text);

	if (r->truncated) {
		*note = ks_easprintf("%s\n\nYour previous reply to this was cut off at the token limit, so it could "
		    "not be used. Reply again, complete and shorter: the code or JSON asked for, with no long "
		    "explanation.", prompt);
	} else if (empty) {
		*note = ks_easprintf("%s\n\nYour previous reply to this was empty. Reply in the format asked for.",
		    prompt);
	} else {
		*note = ks_easprintf("That reply could not be used: %s. Reply again, complete, in the format asked for.",
		    why);
		turns[1] = r->text;
		turns[2] = *note;
		return 3;
	}
	turns[0] = *note;
	return 1;
}

/*
 * Asks, checks the reply, asks once more with the reason.  Returns 0 with
 * a reply check() took, 1 when both replies were unusable or the second
 * request failed at the API (*why says why: the stage goes on without the
 * model), -1 when the first request failed or the token budget is spent.
 */
int
ks_ask(struct ks_llm *llm, const char *prompt, const char *dir, const char *name, ks_check_fn check, void *ctx,
    char **why)
{
	char *system = ks_prompt_file("system.md"), *note = NULL;
	const char *turns[3] = { prompt, NULL, NULL };
	struct ks_llm_reply first = { 0 };
	long limit = llm->max_tokens;
	int rc = -1, n = 1;

	*why = NULL;
	if (!system)
		return -1;
	for (int attempt = 1; attempt <= 2; attempt++) {
		struct ks_llm_reply r;
		char *tname = ks_easprintf("%s-%d", name, attempt);
		int got = ks_llm_chat(llm, system, turns, n, dir, tname, &r);

		free(tname);
		if (got < 0 && attempt == 2 && llm->last_error) {
			free(*why);
			*why = ks_easprintf("the second request failed: %s", llm->last_error);
			break;
		}
		if (got < 0)
			goto out;
		free(*why);
		*why = NULL;
		/* a refusal or a block by the provider: named, and not asked again */
		if (r.stopped) {
			*why = ks_estrdup(r.stopped);
			ks_llm_reply_free(&r);
			break;
		}
		if (r.truncated && llm->max_tokens != limit)
			*why = ks_easprintf("the reply was cut off at the token limit (%ld tokens, twice "
			    "KS_LLM_MAX_TOKENS=%ld)", llm->max_tokens, limit);
		else if (r.truncated)
			*why = ks_easprintf("the reply was cut off at the token limit (KS_LLM_MAX_TOKENS=%ld)", limit);
		else if (check(r.text, ctx, why) == 0) {
			ks_llm_reply_free(&r);
			rc = 0;
			goto out;
		}
		if (attempt == 1) {
			first = r;
			n = reask_turns(prompt, &first, *why, turns, &note);
			if (first.truncated)
				llm->max_tokens = 2 * limit;
			continue;
		}
		ks_llm_reply_free(&r);
	}
	rc = 1;
out:
	llm->max_tokens = limit;
	ks_llm_reply_free(&first);
	free(note);
	free(system);
	return rc;
}

int
ks_check_code(const char *text, void *arg, char **why)
{
	struct ks_code_check *cc = arg;

	if (!(cc->code = ks_reply_code(text, cc->entry, why)))
		return -1;
	/* what ks-build would refuse goes back to the model now, with the reason */
	if ((*why = ks_static_check(cc->code, cc->forbidden))) {
		char *w = ks_easprintf("the kernel %s", *why);

		free(*why);
		*why = w;
		free(cc->code);
		cc->code = NULL;
		return -1;
	}
	return 0;
}
