/*
 * ks_llm_provider.c - the providers' APIs by name, and what is done the
 * same way around each API's functions (struct ks_llm_api, llm.h:
 * ks_llm_openai.c, ks_llm_anthropic.c, ks_llm_gemini.c): the settings
 * applied to a request's body, the body streamed, the message of an error
 * body, a reply's text and tokens set.  ks_llm.c sends them.
 */
#include <string.h>

#include "llm.h"

static const struct ks_llm_api *const apis[] = { &ks_llm_openai, &ks_llm_anthropic, &ks_llm_gemini };

/* The API of a provider's name (KS_LLM_PROVIDER's word, llm->provider), or NULL: the one place a name picks one. */
const struct ks_llm_api *
ks_llm_api_named(const char *name)
{
	for (size_t i = 0; i < sizeof apis / sizeof apis[0]; i++)
		if (strcmp(apis[i]->name, name) == 0)
			return apis[i];
	return NULL;
}

/* Any other name's stream is read as OpenAI's, which most servers speak. */
cJSON *
ks_sse_assemble(const char *provider, const char *sse, char **why)
{
	const struct ks_llm_api *api = ks_llm_api_named(provider);

	return ks_sse_reply(api ? api : &ks_llm_openai, sse, why);
}

/* The request: the API's body, the extra body merged in, the refused parameters left out. */
cJSON *
ks_llm_request(const struct ks_llm *llm, const char *system, const char *const *turns, int n)
{
	cJSON *b = llm->api->request(llm, system, turns, n);

	if (llm->extra_body)
		ks_json_merge(b, llm->extra_body);
	for (int i = 0; i < llm->ndropped; i++)
		cJSON_DeleteItemFromObjectCaseSensitive(b, llm->dropped[i]);
	return b;
}

/* The body as sent: streamed when asked, where the API asks for a stream in the body. */
cJSON *
ks_llm_sent_body(const struct ks_llm *llm, const cJSON *body)
{
	cJSON *b = cJSON_Duplicate(body, 1);

	if (llm->stream && llm->api->stream_body)
		llm->api->stream_body(b);
	return b;
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
	if (llm->api->parse_reply(j, &text, r, &in, &out, &cached) < 0) {
		ks_buf_free(&text);
		return -1;
	}
	r->text = text.s;
	r->prompt_tokens = (long)in;
	r->completion_tokens = (long)out;
	r->cached_prompt_tokens = (long)cached;
	return 0;
}
