/*
 * llm.h - what the files of the LLM client share (ks_llm.c: the HTTP
 * exchange, retries, what the run learns of a model, the call;
 * ks_llm_openai.c, ks_llm_anthropic.c, ks_llm_gemini.c: each API's
 * request, reply and stream, behind a struct ks_llm_api;
 * ks_llm_provider.c: that table by the provider's name, and what is done
 * the same way around every API's; ks_sse.c: a stream's events and what
 * they said; ks_llm_record.c: the ledger, the transcripts, the cache).
 * Private to them.
 */
#ifndef KS_LLM_PRIVATE_H
#define KS_LLM_PRIVATE_H

#include "ks_llm.h"

/* What a stream said so far, for any API (ks_sse.c, and each API's sse_event). */
struct ks_sse_assembly {
	struct ks_buf text, refusal;
	char *finish;
	cJSON *usage;           /* the provider's usage object, the last one sent */
	cJSON *feedback;        /* Gemini's promptFeedback */
	char *error;            /* an error event: its message */
	int done;               /* the stream's own end: [DONE], message_stop, a finish */
};

/*
 * What differs between the providers' APIs (OpenAI-compatible chat
 * completions, Anthropic Messages, Gemini generateContent): one table in
 * each API's file, llm->api.  No libcurl in them: ks-init checks the
 * settings, and so links the tables, without a client.  What their files
 * share is ks_sse.c's, not ks_llm_provider.c's, which names the tables:
 * no two files call each other round a cycle (tests/helper/layers.py).
 */
struct ks_llm_api {
	const char *name;        /* as KS_LLM_PROVIDER says it, and llm->provider */
	const char *url;         /* the provider's own base URL, the default */
	const char *key_env;     /* the provider's own key variable */
	const char *base_env;    /* the base URL's variable its SDKs read beside key_env; NULL: none */
	const char *key_header;  /* the header line before the key ("x-api-key:") */
	char *(*extra_header)(void);   /* a header line of every request besides the key's; NULL: none */
	/* the request body; turns alternate user, assistant, user, ... */
	cJSON *(*request)(const struct ks_llm *llm, const char *system, const char *const *turns, int n);
	char *(*endpoint)(const struct ks_llm *llm);
	char *(*stream_endpoint)(const struct ks_llm *llm);
	void (*stream_body)(cJSON *body);   /* asks body for a stream; NULL: the stream's URL does */
	/*
	 * A reply body's text (into text), finish, truncation, stop by the
	 * provider (into r) and tokens; -1 when it has not the API's shape.
	 */
	int (*parse_reply)(const cJSON *j, struct ks_buf *text, struct ks_llm_reply *r, double *in, double *out,
	    double *cached);
	/* one event of a stream added to a; event is "" when it had no type */
	void (*sse_event)(struct ks_sse_assembly *a, const char *event, const char *data);
	cJSON *(*unstreamed)(const struct ks_sse_assembly *a);   /* the reply a stream gave, as unstreamed */
};
extern const struct ks_llm_api ks_llm_openai, ks_llm_anthropic, ks_llm_gemini;

/* ks_llm_provider.c: the API by name, a request's body, the body as sent, an error's message, a reply */
const struct ks_llm_api *ks_llm_api_named(const char *name);
cJSON *ks_llm_request(const struct ks_llm *llm, const char *system, const char *const *turns, int n);
cJSON *ks_llm_sent_body(const struct ks_llm *llm, const cJSON *body);
char *ks_llm_error_message(const char *body);
int ks_llm_parse_reply(const struct ks_llm *llm, const cJSON *j, struct ks_llm_reply *r);

/* ks_sse.c: a stream assembled by api's functions (as ks_sse_assemble); what its events said, kept */
cJSON *ks_sse_reply(const struct ks_llm_api *api, const char *sse, char **why);
void ks_sse_set_str(char **dst, const char *s);
void ks_sse_keep_obj(cJSON **dst, const cJSON *src);
void ks_sse_error(struct ks_sse_assembly *a, const cJSON *j);

/* ks_llm_record.c: the cache's key, the ledger's line, the transcript, the cache, the budget's marks */
char *ks_llm_sha256_hex(const char *a, const char *b, const char *c);
int ks_llm_ledger_add(const struct ks_llm *llm, const char *ledger, const char *where, const struct ks_llm_reply *r,
    const char *failed);
int ks_llm_transcript_save(const struct ks_llm *llm, const char *dir, const char *name, const char *url, cJSON *body,
    const char *system, const char *const *turns, int n, const struct ks_llm_reply *r, int tries);
int ks_llm_cache_get(const char *path, struct ks_llm_reply *r);
int ks_llm_cache_put(const char *dir, const char *path, const struct ks_llm_reply *r);
void ks_llm_budget_passed(const struct ks_llm *llm, long before, long after, const char *ledger);

#endif
