/*
 * ks_llm_openai.c - OpenAI's chat completions, which most servers speak
 * too (vLLM, llama.cpp, Ollama, OpenRouter, Gemini's compatible
 * endpoint): the request, its URL and key, the reply, and the stream:
 * "data: {chunk}" lines, choices[0].delta content and refusal,
 * finish_reason, usage in the last chunk (stream_options.include_usage),
 * then "data: [DONE]".
 */
#include <string.h>

#include "llm.h"

static cJSON *
request(const struct ks_llm *llm, const char *system, const char *const *turns, int n)
{
	cJSON *b = cJSON_CreateObject(), *msgs, *m;

	cJSON_AddStringToObject(b, "model", llm->model);
	msgs = cJSON_AddArrayToObject(b, "messages");
	if (system) {
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
	cJSON_AddNumberToObject(b, llm->tokens_param, (double)llm->max_tokens);
	return b;
}

static char *
endpoint(const struct ks_llm *llm)
{
	return ks_easprintf("%s/chat/completions", llm->url);
}

/* Streamed, with the usage in the stream (include_usage). */
static void
stream_body(cJSON *b)
{
	cJSON_DeleteItemFromObjectCaseSensitive(b, "stream");
	cJSON_AddBoolToObject(b, "stream", 1);
	if (!cJSON_GetObjectItemCaseSensitive(b, "stream_options"))
		cJSON_AddBoolToObject(cJSON_AddObjectToObject(b, "stream_options"), "include_usage", 1);
}

static int
parse_reply(const cJSON *j, struct ks_buf *text, struct ks_llm_reply *r, double *in, double *out, double *cached)
{
	const cJSON *choice = cJSON_GetArrayItem(ks_json_arr(j, "choices", NULL), 0);
	const cJSON *msg = ks_json_obj(choice, "message", NULL), *u = cJSON_GetObjectItemCaseSensitive(j, "usage");
	const char *t = ks_json_str(msg, "content", NULL), *refusal = ks_json_str(msg, "refusal", NULL);

	if (!msg)
		return -1;
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
	return 0;
}

static void
sse_event(struct ks_sse_assembly *a, const char *event, const char *data)
{
	cJSON *j;
	const cJSON *choice, *delta;
	const char *s;

	(void)event;
	if (strcmp(data, "[DONE]") == 0) {
		a->done = 1;
		return;
	}
	if (!(j = ks_json_parse(data, strlen(data), NULL)))
		return;
	if (cJSON_GetObjectItemCaseSensitive(j, "error"))
		ks_sse_error(a, j);
	choice = cJSON_GetArrayItem(ks_json_arr(j, "choices", NULL), 0);
	delta = ks_json_obj(choice, "delta", NULL);
	if ((s = ks_json_str(delta, "content", NULL)))
		ks_buf_puts(&a->text, s);
	if ((s = ks_json_str(delta, "refusal", NULL)))
		ks_buf_puts(&a->refusal, s);
	if ((s = ks_json_str(choice, "finish_reason", NULL)))
		ks_sse_set_str(&a->finish, s);
	ks_sse_keep_obj(&a->usage, cJSON_GetObjectItemCaseSensitive(j, "usage"));
	cJSON_Delete(j);
}

static cJSON *
unstreamed(const struct ks_sse_assembly *a)
{
	cJSON *r = cJSON_CreateObject(), *choice = cJSON_CreateObject(), *msg = cJSON_AddObjectToObject(choice, "message");

	cJSON_AddStringToObject(msg, "role", "assistant");
	cJSON_AddStringToObject(msg, "content", a->text.s);
	if (a->refusal.len)
		cJSON_AddStringToObject(msg, "refusal", a->refusal.s);
	if (a->finish)
		cJSON_AddStringToObject(choice, "finish_reason", a->finish);
	cJSON_AddItemToArray(cJSON_AddArrayToObject(r, "choices"), choice);
	if (a->usage)
		cJSON_AddItemToObject(r, "usage", cJSON_Duplicate(a->usage, 1));
	return r;
}

const struct ks_llm_api ks_llm_openai = {
	.name = "openai",
	.url = "https://api.openai.com/v1",
	.key_env = "OPENAI_API_KEY",
	/* the pair the OpenAI SDKs read */
	.base_env = "OPENAI_BASE_URL",
	.key_header = "Authorization: Bearer",
	.request = request,
	.endpoint = endpoint,
	.stream_endpoint = endpoint,
	.stream_body = stream_body,
	.parse_reply = parse_reply,
	.sse_event = sse_event,
	.unstreamed = unstreamed,
};
