/*
 * ks_llm_anthropic.c - Anthropic's Messages API: the request, its URL and
 * headers, the reply, and the stream: events message_start (usage of the
 * prompt), content_block_start/delta (text_delta; thinking is left out),
 * message_delta (stop_reason, output tokens), message_stop; ping.
 */
#include <stdlib.h>
#include <string.h>

#include "llm.h"

static cJSON *
request(const struct ks_llm *llm, const char *system, const char *const *turns, int n)
{
	cJSON *b = cJSON_CreateObject(), *msgs;

	cJSON_AddStringToObject(b, "model", llm->model);
	cJSON_AddNumberToObject(b, "max_tokens", (double)llm->max_tokens);
	if (system)
		cJSON_AddStringToObject(b, "system", system);
	msgs = cJSON_AddArrayToObject(b, "messages");
	for (int i = 0; i < n; i++) {
		cJSON *m = cJSON_CreateObject();

		cJSON_AddStringToObject(m, "role", i % 2 ? "assistant" : "user");
		cJSON_AddStringToObject(m, "content", turns[i]);
		cJSON_AddItemToArray(msgs, m);
	}
	if (llm->temperature >= 0)
		cJSON_AddNumberToObject(b, "temperature", llm->temperature);
	return b;
}

static char *
endpoint(const struct ks_llm *llm)
{
	return ks_easprintf("%s/messages", llm->url);
}

/* The API's version, which every request names. */
static char *
version_header(void)
{
	const char *v = getenv("KS_ANTHROPIC_VERSION");

	return ks_easprintf("anthropic-version: %s", v && *v ? v : "2023-06-01");
}

static void
stream_body(cJSON *b)
{
	cJSON_DeleteItemFromObjectCaseSensitive(b, "stream");
	cJSON_AddBoolToObject(b, "stream", 1);
}

static int
parse_reply(const cJSON *j, struct ks_buf *text, struct ks_llm_reply *r, double *in, double *out, double *cached)
{
	const cJSON *part, *u = cJSON_GetObjectItemCaseSensitive(j, "usage");
	double creation = 0;

	if (!ks_json_arr(j, "content", NULL))
		return -1;
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
	return 0;
}

static void
sse_event(struct ks_sse_assembly *a, const char *event, const char *data)
{
	cJSON *j = ks_json_parse(data, strlen(data), NULL);
	const char *type = ks_json_str(j, "type", NULL), *s;
	const cJSON *u;

	if (!j)
		return;
	if (!type)
		type = event;
	if (strcmp(type, "error") == 0) {
		ks_sse_error(a, j);
	} else if (strcmp(type, "message_start") == 0) {
		ks_sse_keep_obj(&a->usage, cJSON_GetObjectItemCaseSensitive(ks_json_obj(j, "message", NULL), "usage"));
	} else if (strcmp(type, "content_block_delta") == 0) {
		const cJSON *d = ks_json_obj(j, "delta", NULL);

		/* text_delta only: thinking_delta and signature_delta are the model's reasoning */
		if ((s = ks_json_str(d, "type", NULL)) && strcmp(s, "text_delta") == 0 && (s = ks_json_str(d, "text", NULL)))
			ks_buf_puts(&a->text, s);
	} else if (strcmp(type, "message_delta") == 0) {
		if ((s = ks_json_str(ks_json_obj(j, "delta", NULL), "stop_reason", NULL)))
			ks_sse_set_str(&a->finish, s);
		/* the output count is cumulative; the prompt's came with message_start */
		if ((u = ks_json_obj(j, "usage", NULL)) && a->usage) {
			const cJSON *m;

			cJSON_ArrayForEach(m, u)
				if (cJSON_IsNumber(m))
					ks_json_set_num(a->usage, m->string, m->valuedouble);
		} else if (u) {
			ks_sse_keep_obj(&a->usage, u);
		}
	} else if (strcmp(type, "message_stop") == 0) {
		a->done = 1;
	}
	cJSON_Delete(j);
}

static cJSON *
unstreamed(const struct ks_sse_assembly *a)
{
	cJSON *r = cJSON_CreateObject(), *block = cJSON_CreateObject();

	cJSON_AddStringToObject(block, "type", "text");
	cJSON_AddStringToObject(block, "text", a->text.s);
	cJSON_AddItemToArray(cJSON_AddArrayToObject(r, "content"), block);
	if (a->finish)
		cJSON_AddStringToObject(r, "stop_reason", a->finish);
	if (a->usage)
		cJSON_AddItemToObject(r, "usage", cJSON_Duplicate(a->usage, 1));
	return r;
}

const struct ks_llm_api ks_llm_anthropic = {
	.name = "anthropic",
	.url = "https://api.anthropic.com/v1",
	.key_env = "ANTHROPIC_API_KEY",
	.key_header = "x-api-key:",
	.extra_header = version_header,
	.request = request,
	.endpoint = endpoint,
	.stream_endpoint = endpoint,
	.stream_body = stream_body,
	.parse_reply = parse_reply,
	.sse_event = sse_event,
	.unstreamed = unstreamed,
};
