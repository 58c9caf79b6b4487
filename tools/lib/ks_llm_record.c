/*
 * ks_llm_record.c - what a call leaves behind: its line in the run's
 * ledger (POP/llm-usage.jsonl, which KS_MAX_TOKENS is counted from), its
 * transcript next to what the call produced, and its reply in the
 * content-addressed cache (POP/llm-cache/) that answers the same request
 * again; the key, redacted, is in none of them.
 */
#include <sys/file.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "llm.h"

char *
ks_llm_sha256_hex(const char *a, const char *b, const char *c)
{
	struct ks_hash *h = ks_hash_new();

	/* a and b with their NULs, c without: the cache keys of earlier runs stay valid */
	ks_hash_str(h, a);
	ks_hash_str(h, b);
	ks_hash_add(h, c, strlen(c));
	return ks_hash_end(h);
}

/* One line per call, appended whole under a lock: parallel stages share the ledger. */
/*
 * One line of POP/llm-usage.jsonl: a reply's usage, or (r NULL) a try that
 * failed after its request went out, which the provider may have billed.
 */
int
ks_llm_ledger_add(const struct ks_llm *llm, const char *ledger, const char *where, const struct ks_llm_reply *r,
    const char *failed)
{
	cJSON *j = cJSON_CreateObject();
	char when[32], *line, *text;
	time_t now = time(NULL);
	int fd, rc = 0;

	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	cJSON_AddStringToObject(j, "time", when);
	cJSON_AddStringToObject(j, "stage", llm->stage);
	cJSON_AddStringToObject(j, "where", where);
	cJSON_AddStringToObject(j, "provider", llm->provider);
	cJSON_AddStringToObject(j, "model", llm->model);
	cJSON_AddNumberToObject(j, "prompt_tokens", r ? (double)r->prompt_tokens : 0);
	cJSON_AddNumberToObject(j, "completion_tokens", r ? (double)r->completion_tokens : 0);
	cJSON_AddNumberToObject(j, "cached_prompt_tokens", r ? (double)r->cached_prompt_tokens : 0);
	cJSON_AddBoolToObject(j, "cached", r && r->cached);
	if (failed)
		cJSON_AddStringToObject(j, "failed", failed);
	text = cJSON_PrintUnformatted(j);
	line = ks_easprintf("%s\n", text);
	cJSON_free(text);
	cJSON_Delete(j);
	if ((fd = open(ledger, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644)) < 0 ||
	    flock(fd, LOCK_EX) < 0 || write(fd, line, strlen(line)) != (ssize_t)strlen(line) || fsync(fd) < 0) {
		ks_warn("cannot append to '%s'", ledger);
		rc = -1;
	}
	if (fd >= 0)
		close(fd);
	free(line);
	return rc;
}

/* The transcript: the whole exchange as JSON, and the prompt and reply as markdown. */
int
ks_llm_transcript_save(const struct ks_llm *llm, const char *dir, const char *name, const char *url, cJSON *body,
    const char *system, const char *const *turns, int n, const struct ks_llm_reply *r, int tries)
{
	char *ldir = ks_easprintf("%s/llm", dir), *path = NULL, *safe_url = NULL, *safe_reply = NULL;
	cJSON *t = cJSON_CreateObject(), *usage;
	struct ks_buf md = { 0 };
	int rc = -1;

	if (ks_mkdir_p(ldir) < 0)
		goto out;
	cJSON_AddStringToObject(t, "stage", llm->stage);
	cJSON_AddStringToObject(t, "provider", llm->provider);
	safe_url = ks_redact(url, llm->key);
	safe_reply = ks_redact_key(r->text, llm->key);
	cJSON_AddStringToObject(t, "url", safe_url);
	cJSON_AddStringToObject(t, "model", llm->model);
	cJSON_AddItemToObject(t, "request", cJSON_Duplicate(body, 1));
	cJSON_AddStringToObject(t, "reply", safe_reply);
	if (r->finish)
		cJSON_AddStringToObject(t, "finish_reason", r->finish);
	else
		cJSON_AddNullToObject(t, "finish_reason");
	if (r->stopped)
		cJSON_AddStringToObject(t, "stopped", r->stopped);
	cJSON_AddBoolToObject(t, "truncated", r->truncated);
	cJSON_AddBoolToObject(t, "cached", r->cached);
	cJSON_AddNumberToObject(t, "tries", tries);
	usage = cJSON_AddObjectToObject(t, "usage");
	cJSON_AddNumberToObject(usage, "prompt_tokens", (double)r->prompt_tokens);
	cJSON_AddNumberToObject(usage, "completion_tokens", (double)r->completion_tokens);
	cJSON_AddNumberToObject(usage, "cached_prompt_tokens", (double)r->cached_prompt_tokens);
	path = ks_easprintf("%s/%s.json", ldir, name);
	if (ks_json_save(path, t) < 0)
		goto out;
	free(path);
	if (system)
		ks_buf_printf(&md, "# system\n\n%s\n\n", system);
	for (int i = 0; i < n; i++)
		ks_buf_printf(&md, "# %s\n\n%s\n\n", i % 2 ? "assistant" : "user", turns[i]);
	ks_buf_printf(&md, "# reply (%s%s%s%s%s)\n\n%s\n", llm->model, r->cached ? ", from the cache" : "",
	    r->truncated ? ", cut off at the token limit" : "", r->stopped ? ", " : "", r->stopped ? r->stopped : "",
	    safe_reply);
	path = ks_easprintf("%s/%s.md", ldir, name);
	rc = ks_file_write_atomic(path, md.s, md.len);
out:
	ks_buf_free(&md);
	cJSON_Delete(t);
	free(path);
	free(ldir);
	free(safe_url);
	free(safe_reply);
	return rc;
}

/* A cached reply (written by cache_put); -1 when there is none or it does not load. */
int
ks_llm_cache_get(const char *path, struct ks_llm_reply *r)
{
	cJSON *j;
	const char *t;
	double in = 0, out = 0, cached = 0;

	if (!ks_exists(path) || !(j = ks_json_load(path)))
		return -1;
	if (!(t = ks_json_str(j, "reply", NULL))) {
		cJSON_Delete(j);
		return -1;
	}
	r->text = ks_estrdup(t);
	r->truncated = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "truncated"));
	ks_json_num(j, "prompt_tokens", NULL, &in);
	ks_json_num(j, "completion_tokens", NULL, &out);
	ks_json_num(j, "cached_prompt_tokens", NULL, &cached);
	r->prompt_tokens = (long)in;
	r->completion_tokens = (long)out;
	r->cached_prompt_tokens = (long)cached;
	if ((t = ks_json_str(j, "finish_reason", NULL)))
		r->finish = ks_estrdup(t);
	if ((t = ks_json_str(j, "stopped", NULL)))
		r->stopped = ks_estrdup(t);
	r->cached = 1;
	cJSON_Delete(j);
	return 0;
}

int
ks_llm_cache_put(const char *dir, const char *path, const struct ks_llm_reply *r)
{
	cJSON *j = cJSON_CreateObject();
	int rc;

	cJSON_AddStringToObject(j, "reply", r->text);
	cJSON_AddBoolToObject(j, "truncated", r->truncated);
	if (r->finish)
		cJSON_AddStringToObject(j, "finish_reason", r->finish);
	if (r->stopped)
		cJSON_AddStringToObject(j, "stopped", r->stopped);
	cJSON_AddNumberToObject(j, "prompt_tokens", (double)r->prompt_tokens);
	cJSON_AddNumberToObject(j, "completion_tokens", (double)r->completion_tokens);
	cJSON_AddNumberToObject(j, "cached_prompt_tokens", (double)r->cached_prompt_tokens);
	rc = ks_mkdir_p(dir) == 0 ? ks_json_save(path, j) : -1;
	cJSON_Delete(j);
	return rc;
}

/*
 * Says, once, when a billed call takes the run's tokens past 50 % and
 * past 80 % of KS_MAX_TOKENS: someone who left a run alone reads it in
 * the log before the budget stops the run.
 */
void
ks_llm_budget_passed(const struct ks_llm *llm, long before, long after, const char *ledger)
{
	static const int marks[] = { 80, 50 };

	if (llm->budget <= 0)
		return;
	for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
		if (before * 100 < (long long)marks[i] * llm->budget && after * 100 >= (long long)marks[i] * llm->budget) {
			ks_warnx("token budget: %ld tokens used, past %d %% of KS_MAX_TOKENS=%ld (see '%s')", after,
			    marks[i], llm->budget, ledger);
			return;
		}
}
