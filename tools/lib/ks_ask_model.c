/*
 * ks_ask_model.c - ks_ask(), the one way a stage asks the model: the
 * system prompt, the request, the reply checked by the stage's own check
 * and asked again, once, with what was wrong; and ks_check_code, the
 * check of a reply that must hold a kernel.
 */
#include <stdlib.h>
#include <string.h>

#include "ks_ask.h"

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
/*
 * prompts/system.md, its {{role}} the target's kind of machine: a CPU
 * prompt never calls the model a GPU kernel scientist.
 */
static char *
system_prompt(const char *target)
{
	const struct ks_target *t = ks_target_find(target);
	const char *keys[] = { "role" }, *vals[1];

	if (!t)
		return NULL;
	vals[0] = ks_target_external(t) ? "a kernel scientist" : strcmp(t->device, "cpu") == 0 ?
	    "a CPU kernel scientist" : "a GPU kernel scientist";
	return ks_prompt_render("system", keys, vals, 1);
}

int
ks_ask(struct ks_llm *llm, const char *target, const char *prompt, const char *dir, const char *name,
    ks_check_fn check, void *ctx, char **why)
{
	char *system = system_prompt(target), *note = NULL;
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
		double t0 = ks_monotonic();
		int got;

		ks_progress("%s: %s asks %s (try %d)", dir, name, llm->model, attempt);
		got = ks_llm_chat(llm, system, turns, n, dir, tname, &r);
		if (got >= 0 && r.cached)
			ks_progress("%s: %s answered from the cache", dir, name);
		else if (got >= 0)
			ks_progress("%s: %s answered in %.1f s: %ld prompt and %ld completion tokens (this stage: %ld)", dir,
			    llm->model, ks_monotonic() - t0, r.prompt_tokens, r.completion_tokens,
			    llm->prompt_tokens + llm->completion_tokens);
		ks_progress_end();
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

	cc->form = "file";
	cc->edits = 0;
	if (cc->base && ks_edit_count(text) > 0) {
		cc->form = "edits";
		if (!(cc->code = ks_edit_apply(cc->base, text, &cc->edits, why)))
			return -1;
		if (!ks_code_defines(cc->code, cc->entry)) {
			*why = ks_easprintf("the kernel after the edits does not define the entry point %s", cc->entry);
			free(cc->code);
			cc->code = NULL;
			return -1;
		}
	} else if (!(cc->code = ks_reply_code(text, cc->entry, why))) {
		return -1;
	}
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
