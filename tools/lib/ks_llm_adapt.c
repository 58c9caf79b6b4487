/*
 * ks_llm_adapt.c - what a model refused, remembered for the run.
 *
 * OpenAI's reasoning models refuse max_tokens (and a temperature) with a
 * 400 that names the parameter; the client then asks again with
 * max_completion_tokens, or without it (ks_llm.c).  Each stage is a
 * process of its own, and a generation runs 2 + K of them: learnt again by
 * each, that is a refused request per process.  So what one process learns
 * goes into POP/llm-adapt.json, by provider, URL and model, and every
 * later process of the run asks so from its first request, which is then
 * the request the cache holds: a generation made again is answered from
 * it without a request.  The file holds no key: the URL is kept without
 * a user or password, and with what holds or follows a key redacted.
 */
#include <sys/file.h>

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_llm.h"

#define ADAPT_FILE "llm-adapt.json"
/* the room of a field's name in struct ks_llm (tokens_param, dropped[i]) */
#define FIELD_MAX sizeof ((struct ks_llm *)0)->tokens_param

/* The URL as the file keeps it: no user:password@, nothing that holds or follows a key (ks_redact). */
static char *
kept_url(const struct ks_llm *llm)
{
	const char *u = llm->url, *host = strstr(u, "://"), *at;
	char *bare, *out;

	host = host ? host + 3 : u;
	at = strchr(host, '@');
	if (at && at < host + strcspn(host, "/?#"))
		bare = ks_easprintf("%.*s%s", (int)(host - u), u, at + 1);
	else
		bare = ks_estrdup(u);
	out = ks_redact(bare, llm->key);
	free(bare);
	return out;
}

/* A parameter's name as a request field: lower case and underscores, short enough to keep. */
static int
field_name(const char *s, size_t max)
{
	return s && *s && strlen(s) < max && strspn(s, "abcdefghijklmnopqrstuvwxyz_") == strlen(s);
}

/* The file's entry of llm's provider, URL and model, or NULL; models is its "models" array. */
static cJSON *
entry_of(const cJSON *models, const struct ks_llm *llm, const char *url)
{
	cJSON *e;

	cJSON_ArrayForEach(e, models) {
		const char *p = ks_json_str(e, "provider", NULL), *u = ks_json_str(e, "url", NULL);
		const char *m = ks_json_str(e, "model", NULL);

		if (p && u && m && strcmp(p, llm->provider) == 0 && strcmp(u, url) == 0 && strcmp(m, llm->model) == 0)
			return e;
	}
	return NULL;
}

/* The file, checked as population(5) gives it; NULL with a message naming it. */
static cJSON *
load(const char *path)
{
	cJSON *j = ks_json_load(path), *e;
	const cJSON *models, *drop, *d;

	if (!j)
		return NULL;
	if (!(models = ks_json_arr(j, "models", path)))
		goto bad;
	cJSON_ArrayForEach(e, models) {
		const char *t = ks_json_str(e, "tokens_param", NULL);

		if (!ks_json_str(e, "provider", path) || !ks_json_str(e, "url", path) || !ks_json_str(e, "model", path) ||
		    !(drop = ks_json_arr(e, "dropped", path)))
			goto bad;
		if (cJSON_GetObjectItemCaseSensitive(e, "tokens_param") && !field_name(t, FIELD_MAX)) {
			ks_warnx("'%s': field \"tokens_param\" must be a request field such as max_completion_tokens", path);
			goto bad;
		}
		cJSON_ArrayForEach(d, drop)
			if (!cJSON_IsString(d) || !field_name(d->valuestring, FIELD_MAX)) {
				ks_warnx("'%s': field \"dropped\" must hold request fields, such as temperature", path);
				goto bad;
			}
	}
	return j;
bad:
	cJSON_Delete(j);
	return NULL;
}

/* 1 when llm leaves name out of its requests already */
static int
dropped(const struct ks_llm *llm, const char *name)
{
	for (int i = 0; i < llm->ndropped; i++)
		if (strcmp(llm->dropped[i], name) == 0)
			return 1;
	return 0;
}

int
ks_llm_adapt_load(struct ks_llm *llm)
{
	char *path, *url;
	const cJSON *e, *d;
	cJSON *j;

	if (!llm->root)
		return 0;
	path = ks_easprintf("%s/%s", llm->root, ADAPT_FILE);
	if (!ks_exists(path)) {
		free(path);
		return 0;
	}
	if (!(j = load(path))) {
		free(path);
		return -1;
	}
	url = kept_url(llm);
	if ((e = entry_of(cJSON_GetObjectItemCaseSensitive(j, "models"), llm, url))) {
		const char *t = ks_json_str(e, "tokens_param", NULL);

		if (t) {
			snprintf(llm->tokens_param, sizeof llm->tokens_param, "%s", t);
			llm->tokens_learnt = 1;
		}
		cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(e, "dropped"))
			if (!dropped(llm, d->valuestring) &&
			    llm->ndropped < (int)(sizeof llm->dropped / sizeof llm->dropped[0]))
				snprintf(llm->dropped[llm->ndropped++], sizeof llm->dropped[0], "%s", d->valuestring);
	}
	free(url);
	free(path);
	cJSON_Delete(j);
	return 0;
}

int
ks_llm_adapt_save(const struct ks_llm *llm)
{
	char *path = ks_easprintf("%s/%s", llm->root, ADAPT_FILE), *url = kept_url(llm);
	cJSON *j = NULL, *models, *old, *e, *d;
	const cJSON *have;
	const char *tokens;
	int fd, rc = -1;

	/* stages of one generation run side by side under make -j: one read-and-write at a time */
	if ((fd = open(llm->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 || flock(fd, LOCK_EX) < 0) {
		ks_warn("cannot lock '%s'", llm->root);
		goto out;
	}
	if (ks_exists(path) ? !(j = load(path)) : !(j = cJSON_CreateObject()))
		goto out;
	if (!(models = cJSON_GetObjectItemCaseSensitive(j, "models")))
		models = cJSON_AddArrayToObject(j, "models");
	/* the entry made again, its keys always in this order: what this process learnt added to the run's */
	old = entry_of(models, llm, url);
	tokens = llm->tokens_learnt ? llm->tokens_param : ks_json_str(old, "tokens_param", NULL);
	e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "provider", llm->provider);
	cJSON_AddStringToObject(e, "url", url);
	cJSON_AddStringToObject(e, "model", llm->model);
	if (tokens)
		cJSON_AddStringToObject(e, "tokens_param", tokens);
	d = old ? cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(old, "dropped"), 1) : cJSON_CreateArray();
	cJSON_AddItemToObject(e, "dropped", d);
	for (int i = 0; i < llm->ndropped; i++) {
		int found = 0;

		cJSON_ArrayForEach(have, d)
			found |= strcmp(have->valuestring, llm->dropped[i]) == 0;
		if (!found)
			cJSON_AddItemToArray(d, cJSON_CreateString(llm->dropped[i]));
	}
	if (old)
		cJSON_ReplaceItemViaPointer(models, old, e);
	else
		cJSON_AddItemToArray(models, e);
	rc = ks_json_save(path, j);
out:
	if (fd >= 0)
		close(fd);
	cJSON_Delete(j);
	free(url);
	free(path);
	return rc;
}
