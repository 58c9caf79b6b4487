/*
 * ks_llm_gemini.c - Gemini's generateContent: the request, its URLs and
 * key, the reply, and the stream (streamGenerateContent?alt=sse): each
 * event a whole GenerateContentResponse; the text is the parts' text in
 * order.
 */
#include <string.h>

#include "llm.h"

static cJSON *
request(const struct ks_llm *llm, const char *system, const char *const *turns, int n)
{
	cJSON *b = cJSON_CreateObject(), *msgs, *m, *cfg;

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

static char *
endpoint(const struct ks_llm *llm)
{
	return ks_easprintf("%s/models/%s:generateContent", llm->url, llm->model);
}

/* Gemini streams from another method, not for a field of the body. */
static char *
stream_endpoint(const struct ks_llm *llm)
{
	return ks_easprintf("%s/models/%s:streamGenerateContent?alt=sse", llm->url, llm->model);
}

/* The finish reasons that mean the provider stopped the reply, not the model. */
static const char *const stops[] = { "SAFETY", "RECITATION", "LANGUAGE", "BLOCKLIST", "PROHIBITED_CONTENT",
	"SPII", "IMAGE_SAFETY", "MALFORMED_FUNCTION_CALL", "OTHER", NULL };

static int
parse_reply(const cJSON *j, struct ks_buf *text, struct ks_llm_reply *r, double *in, double *out, double *cached)
{
	const cJSON *cand = cJSON_GetArrayItem(ks_json_arr(j, "candidates", NULL), 0), *part;
	const cJSON *u = cJSON_GetObjectItemCaseSensitive(j, "usageMetadata");
	const char *block = ks_json_str(ks_json_obj(j, "promptFeedback", NULL), "blockReason", NULL);
	double thoughts = 0;

	if (!cand && !block)
		return -1;
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
		if (ks_str_listed(r->finish, stops))
			r->stopped = ks_easprintf("the provider stopped the reply (finishReason %s)", r->finish);
	}
	ks_json_num(u, "promptTokenCount", NULL, in);
	ks_json_num(u, "candidatesTokenCount", NULL, out);
	/* thinking is billed as output */
	ks_json_num(u, "thoughtsTokenCount", NULL, &thoughts);
	*out += thoughts;
	ks_json_num(u, "cachedContentTokenCount", NULL, cached);
	return 0;
}

static void
sse_event(struct ks_sse_assembly *a, const char *event, const char *data)
{
	cJSON *j = ks_json_parse(data, strlen(data), NULL);
	const cJSON *cand, *part;
	const char *s;

	(void)event;
	if (!j)
		return;
	if (cJSON_GetObjectItemCaseSensitive(j, "error"))
		ks_sse_error(a, j);
	cand = cJSON_GetArrayItem(ks_json_arr(j, "candidates", NULL), 0);
	/* thought parts are the model's reasoning */
	cJSON_ArrayForEach(part, ks_json_arr(ks_json_obj(cand, "content", NULL), "parts", NULL))
		if ((s = ks_json_str(part, "text", NULL)) && !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(part, "thought")))
			ks_buf_puts(&a->text, s);
	if ((s = ks_json_str(cand, "finishReason", NULL))) {
		ks_sse_set_str(&a->finish, s);
		a->done = 1;
	}
	ks_sse_keep_obj(&a->usage, cJSON_GetObjectItemCaseSensitive(j, "usageMetadata"));
	if (cJSON_GetObjectItemCaseSensitive(j, "promptFeedback")) {
		ks_sse_keep_obj(&a->feedback, cJSON_GetObjectItemCaseSensitive(j, "promptFeedback"));
		if (ks_json_str(a->feedback, "blockReason", NULL))
			a->done = 1;
	}
	cJSON_Delete(j);
}

static cJSON *
unstreamed(const struct ks_sse_assembly *a)
{
	cJSON *r = cJSON_CreateObject();

	if (a->finish || a->text.len) {
		cJSON *cand = cJSON_CreateObject(), *part = cJSON_CreateObject();

		cJSON_AddStringToObject(part, "text", a->text.s);
		cJSON_AddItemToArray(cJSON_AddArrayToObject(cJSON_AddObjectToObject(cand, "content"), "parts"), part);
		if (a->finish)
			cJSON_AddStringToObject(cand, "finishReason", a->finish);
		cJSON_AddItemToArray(cJSON_AddArrayToObject(r, "candidates"), cand);
	}
	if (a->feedback)
		cJSON_AddItemToObject(r, "promptFeedback", cJSON_Duplicate(a->feedback, 1));
	if (a->usage)
		cJSON_AddItemToObject(r, "usageMetadata", cJSON_Duplicate(a->usage, 1));
	return r;
}

const struct ks_llm_api ks_llm_gemini = {
	.name = "gemini",
	.url = "https://generativelanguage.googleapis.com/v1beta",
	.key_env = "GEMINI_API_KEY",
	.key_header = "x-goog-api-key:",
	.request = request,
	.endpoint = endpoint,
	.stream_endpoint = stream_endpoint,
	.parse_reply = parse_reply,
	.sse_event = sse_event,
	.unstreamed = unstreamed,
};
