/*
 * ks_llm_provider.c - what differs between the providers' APIs
 * (OpenAI-compatible chat completions, Anthropic Messages, Gemini
 * generateContent): a request's body, its URL (streamed or not) and
 * headers, the message of an error body, and a reply's text, finish,
 * tokens and refusals.  ks_llm.c sends them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "llm.h"

/* The request body of each API; turns alternate user, assistant, user, ... */
static cJSON *
request_body(const struct ks_llm *llm, const char *system, const char *const *turns, int n)
{
	cJSON *b = cJSON_CreateObject(), *msgs, *m;

	if (strcmp(llm->provider, "gemini") == 0) {
		cJSON *cfg;

		if (system) {
			m = cJSON_AddObjectToObject(b, "systemInstruction");
			cJSON_AddItemToObject(m, "parts", cJSON_CreateArray());
			cJSON *part = cJSON_CreateObject();
			cJSON_AddStringToObject(part, "text", system);
			cJSON_AddItemToArray(cJSON_GetObjectItem(m, "parts"), part);
		}
		msgs = cJSON_AddArrayToObject(b, "contents");
		for (int i = 0; i < n; i++) {
			cJSON *parts, *part = cJSON_CreateObject();

			m = cJSON_CreateObject();
			cJSON_AddStringToObject(m, "role", i % 2 ? "model" : "user");
			parts = cJSON_AddArrayToObject(m, "parts");
			cJSON_AddStringToObject(part, "text", turns[i]);
			cJSON_AddItemToArray(parts, part);
			cJSON_AddItemToArray(msgs, m);
		}
		cfg = cJSON_AddObjectToObject(b, "generationConfig");
		if (llm->temperature >= 0)
			cJSON_AddNumberToObject(cfg, "temperature", llm->temperature);
		cJSON_AddNumberToObject(cfg, "maxOutputTokens", (double)llm->max_tokens);
		return b;
	}
	cJSON_AddStringToObject(b, "model", llm->model);
	if (strcmp(llm->provider, "anthropic") == 0) {
		cJSON_AddNumberToObject(b, "max_tokens", (double)llm->max_tokens);
		if (system)
			cJSON_AddStringToObject(b, "system", system);
	}
	msgs = cJSON_AddArrayToObject(b, "messages");
	if (system && strcmp(llm->provider, "openai") == 0) {
		m = cJSON_CreateObject();
		cJSON_AddStringToObject(m, "role", "system");
		cJSON_AddStringToObject(m, "content", system);
		cJSON_AddItemToArray(msgs, m);
	}
	for (int i = 0; i < n; i++) {
		m = cJSON_CreateObject();
		cJSON_AddStringToObject(m, "role", i % 2 ? "assistant" : "user");
		cJSON_AddStringToObject(m, "content", turns[i]);
		cJSON_AddItemToArray(msgs, m);
	}
	if (llm->temperature >= 0)
		cJSON_AddNumberToObject(b, "temperature", llm->temperature);
	/* OpenAI's reasoning models want max_completion_tokens; most servers max_tokens. */
	if (strcmp(llm->provider, "openai") == 0)
		cJSON_AddNumberToObject(b, llm->tokens_param, (double)llm->max_tokens);
	return b;
}

/* The request: the API's body, the extra body merged in, the refused parameters left out. */
cJSON *
ks_llm_request(const struct ks_llm *llm, const char *system, const char *const *turns, int n)
{
	cJSON *b = request_body(llm, system, turns, n);

	if (llm->extra_body)
		ks_json_merge(b, llm->extra_body);
	for (int i = 0; i < llm->ndropped; i++)
		cJSON_DeleteItemFromObjectCaseSensitive(b, llm->dropped[i]);
	return b;
}

/* The URL a streamed request goes to: Gemini streams from another method. */
char *
ks_llm_stream_endpoint(const struct ks_llm *llm)
{
	if (strcmp(llm->provider, "gemini") == 0)
		return ks_easprintf("%s/models/%s:streamGenerateContent?alt=sse", llm->url, llm->model);
	return ks_llm_endpoint(llm);
}

/* The body as sent: streamed, with the usage in the stream (OpenAI's include_usage). */
cJSON *
ks_llm_sent_body(const struct ks_llm *llm, const cJSON *body)
{
	cJSON *b = cJSON_Duplicate(body, 1);

	if (!llm->stream || strcmp(llm->provider, "gemini") == 0)
		return b;
	cJSON_DeleteItemFromObjectCaseSensitive(b, "stream");
	cJSON_AddBoolToObject(b, "stream", 1);
	if (strcmp(llm->provider, "openai") == 0 && !cJSON_GetObjectItemCaseSensitive(b, "stream_options"))
		cJSON_AddBoolToObject(cJSON_AddObjectToObject(b, "stream_options"), "include_usage", 1);
	return b;
}

char *
ks_llm_endpoint(const struct ks_llm *llm)
{
	if (strcmp(llm->provider, "anthropic") == 0)
		return ks_easprintf("%s/messages", llm->url);
	if (strcmp(llm->provider, "gemini") == 0)
		return ks_easprintf("%s/models/%s:generateContent", llm->url, llm->model);
	return ks_easprintf("%s/chat/completions", llm->url);
}

struct curl_slist *
ks_llm_headers(const struct ks_llm *llm)
{
	struct curl_slist *h = curl_slist_append(NULL, "Content-Type: application/json");
	char *line = NULL;

	if (strcmp(llm->provider, "anthropic") == 0) {
		const char *v = getenv("KS_ANTHROPIC_VERSION");
		char *ver = ks_easprintf("anthropic-version: %s", v && *v ? v : "2023-06-01");
		h = curl_slist_append(h, ver);
		free(ver);
		if (llm->key)
			line = ks_easprintf("x-api-key: %s", llm->key);
	} else if (strcmp(llm->provider, "gemini") == 0) {
		if (llm->key)
			line = ks_easprintf("x-goog-api-key: %s", llm->key);
	} else if (llm->key) {
		line = ks_easprintf("Authorization: Bearer %s", llm->key);
	}
	if (line) {
		h = curl_slist_append(h, line);
		memset(line, 0, strlen(line));
		free(line);
	}
	return h;
}

/* The message of an error body: OpenAI, Anthropic, Gemini and vLLM shapes. */
char *
ks_llm_error_message(const char *body)
{
	cJSON *j = ks_json_parse(body, strlen(body), NULL), *e;
	const char *m = NULL;
	char *out;

	if (j) {
		e = cJSON_GetObjectItemCaseSensitive(j, "error");
		if (cJSON_IsString(e))
			m = e->valuestring;
		else if (!(m = ks_json_str(e, "message", NULL)) && !(m = ks_json_str(j, "message", NULL)))
			m = ks_json_str(j, "detail", NULL);
	}
	if (m)
		out = ks_estrdup(m);
	else
		out = ks_easprintf("%.200s", body);
	for (char *p = out; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	cJSON_Delete(j);
	return out;
}

/* Gemini's finish reasons that mean the provider stopped the reply, not the model. */
static const char *const gemini_stops[] = { "SAFETY", "RECITATION", "LANGUAGE", "BLOCKLIST", "PROHIBITED_CONTENT",
	"SPII", "IMAGE_SAFETY", "MALFORMED_FUNCTION_CALL", "OTHER", NULL };

static int
listed_in(const char *s, const char *const *list)
{
	for (; s && *list; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

static void
anthropic_reply(const cJSON *j, struct ks_buf *text, struct ks_llm_reply *r, double *in, double *out, double *cached)
{
	const cJSON *part, *u = cJSON_GetObjectItemCaseSensitive(j, "usage");
	double creation = 0;

	/* text blocks only: thinking and redacted_thinking blocks are the model's reasoning */
	cJSON_ArrayForEach(part, ks_json_arr(j, "content", NULL)) {
		const char *type = ks_json_str(part, "type", NULL), *t = ks_json_str(part, "text", NULL);
		if (t && (!type || strcmp(type, "text") == 0))
			ks_buf_puts(text, t);
	}
	r->finish = ks_json_str(j, "stop_reason", NULL) ? ks_estrdup(ks_json_str(j, "stop_reason", NULL)) : NULL;
	r->truncated = r->finish && strcmp(r->finish, "max_tokens") == 0;
	if (r->finish && strcmp(r->finish, "refusal") == 0)
		r->stopped = ks_estrdup("the model refused (stop_reason refusal)");
	/* input_tokens leaves out what was written to and read from the prompt cache */
	ks_json_num(u, "input_tokens", NULL, in);
	ks_json_num(u, "output_tokens", NULL, out);
	ks_json_num(u, "cache_read_input_tokens", NULL, cached);
	ks_json_num(u, "cache_creation_input_tokens", NULL, &creation);
	*in += *cached + creation;
}

static void
gemini_reply(const cJSON *j, struct ks_buf *text, struct ks_llm_reply *r, double *in, double *out, double *cached)
{
	const cJSON *cand = cJSON_GetArrayItem(ks_json_arr(j, "candidates", NULL), 0), *part;
	const cJSON *u = cJSON_GetObjectItemCaseSensitive(j, "usageMetadata");
	const char *block = ks_json_str(ks_json_obj(j, "promptFeedback", NULL), "blockReason", NULL);
	double thoughts = 0;

	/* parts marked "thought" are the model's thinking, not its answer */
	cJSON_ArrayForEach(part, ks_json_arr(ks_json_obj(cand, "content", NULL), "parts", NULL)) {
		const char *t = ks_json_str(part, "text", NULL);
		if (t && !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(part, "thought")))
			ks_buf_puts(text, t);
	}
	if (!cand && block) {
		r->finish = ks_easprintf("blockReason %s", block);
		r->stopped = ks_easprintf("the provider blocked the prompt (promptFeedback.blockReason %s)", block);
	} else if (ks_json_str(cand, "finishReason", NULL)) {
		r->finish = ks_estrdup(ks_json_str(cand, "finishReason", NULL));
		r->truncated = strcmp(r->finish, "MAX_TOKENS") == 0;
		if (listed_in(r->finish, gemini_stops))
			r->stopped = ks_easprintf("the provider stopped the reply (finishReason %s)", r->finish);
	}
	ks_json_num(u, "promptTokenCount", NULL, in);
	ks_json_num(u, "candidatesTokenCount", NULL, out);
	/* thinking is billed as output */
	ks_json_num(u, "thoughtsTokenCount", NULL, &thoughts);
	*out += thoughts;
	ks_json_num(u, "cachedContentTokenCount", NULL, cached);
}

static void
openai_reply(const cJSON *j, struct ks_buf *text, struct ks_llm_reply *r, double *in, double *out, double *cached)
{
	const cJSON *choice = cJSON_GetArrayItem(ks_json_arr(j, "choices", NULL), 0);
	const cJSON *msg = ks_json_obj(choice, "message", NULL), *u = cJSON_GetObjectItemCaseSensitive(j, "usage");
	const char *t = ks_json_str(msg, "content", NULL), *refusal = ks_json_str(msg, "refusal", NULL);

	if (t)
		ks_buf_puts(text, t);
	r->finish = ks_json_str(choice, "finish_reason", NULL) ? ks_estrdup(ks_json_str(choice, "finish_reason", NULL))
	    : NULL;
	r->truncated = r->finish && strcmp(r->finish, "length") == 0;
	if (refusal && *refusal)
		r->stopped = ks_easprintf("the model refused: %.300s", refusal);
	else if (r->finish && strcmp(r->finish, "content_filter") == 0)
		r->stopped = ks_estrdup("the provider's content filter stopped the reply (finish_reason content_filter)");
	/* completion_tokens counts the reasoning tokens already */
	ks_json_num(u, "prompt_tokens", NULL, in);
	ks_json_num(u, "completion_tokens", NULL, out);
	ks_json_num(ks_json_obj(u, "prompt_tokens_details", NULL), "cached_tokens", NULL, cached);
}

/*
 * Text, finish reason, truncation, a stop by the provider and usage from a
 * reply body; -1 when it has not the API's shape.  A blocked prompt or a
 * refusal is a reply (with r->stopped), not an error to retry.
 */
int
ks_llm_parse_reply(const struct ks_llm *llm, const cJSON *j, struct ks_llm_reply *r)
{
	struct ks_buf text = { 0 };
	double in = 0, out = 0, cached = 0;

	ks_buf_add(&text, "", 0);
	if (strcmp(llm->provider, "anthropic") == 0) {
		if (!ks_json_arr(j, "content", NULL))
			goto bad;
		anthropic_reply(j, &text, r, &in, &out, &cached);
	} else if (strcmp(llm->provider, "gemini") == 0) {
		if (!cJSON_GetArrayItem(ks_json_arr(j, "candidates", NULL), 0) &&
		    !ks_json_str(ks_json_obj(j, "promptFeedback", NULL), "blockReason", NULL))
			goto bad;
		gemini_reply(j, &text, r, &in, &out, &cached);
	} else {
		if (!ks_json_obj(cJSON_GetArrayItem(ks_json_arr(j, "choices", NULL), 0), "message", NULL))
			goto bad;
		openai_reply(j, &text, r, &in, &out, &cached);
	}
	r->text = text.s;
	r->prompt_tokens = (long)in;
	r->completion_tokens = (long)out;
	r->cached_prompt_tokens = (long)cached;
	return 0;
bad:
	ks_buf_free(&text);
	return -1;
}
