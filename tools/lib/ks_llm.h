/*
 * ks_llm.h - layer 5 of the library: the LLM client: settings, requests,
 * the providers, retries, the ledger, redaction, streamed replies.
 *
 * A header includes only the layer below it (tests/0010-library.bats).
 */
#ifndef KS_LLM_H
#define KS_LLM_H

#include "ks_build.h"

/*
 * ks_llm_provider.c (ks_sse.c): a streamed reply (server-sent events of
 * openai, anthropic or gemini) as the provider's non-streamed JSON reply;
 * NULL with *why ("a stream that ...") when it reported an error or ended
 * before the reply was complete.
 */
cJSON *ks_sse_assemble(const char *provider, const char *sse, char **why);

/* ks_redact.c: text with each word that holds or echoes the key (or follows a key's label) replaced by [redacted] */
char *ks_redact(const char *text, const char *key);
char *ks_redact_key(const char *text, const char *key);   /* only what shares a run with the key: for replies */

/*
 * ks_llm.c: the LLM client (each API's file, ks_llm_provider.c,
 * ks_llm_record.c: llm.h); ks_llm_open.c: its settings; ks_llm_adapt.c:
 * what the run learnt of a model
 */
struct ks_llm_api;
struct ks_llm {
	char provider[16];       /* openai, anthropic, gemini: as the ledger, transcripts and cache keys say it */
	const struct ks_llm_api *api;   /* the provider's API (llm.h) */
	const char *stage;       /* select, hypothesize, implement */
	char *model, *url, *key, *root;
	double temperature;      /* < 0: the server's default */
	long max_tokens;         /* per reply */
	int tries;
	double timeout_s, backoff_s, retry_max_s;
	double outage_s;         /* KS_LLM_OUTAGE_S: how long connection errors and 5xx are ridden out, past tries */
	int stream;              /* KS_LLM_STREAM: ask for server-sent events (default on) */
	double idle_s;           /* KS_LLM_IDLE_S: a stream silent this long is a dead connection */
	int cache;
	long budget;             /* KS_MAX_TOKENS for the run; 0: none */
	char *last_error;        /* why the last request failed at the API (redacted); NULL when it did not */
	const char *where;       /* the directory of the call under way, for the ledger */
	cJSON *extra_body;       /* KS_LLM_EXTRA_BODY merged with KS_<STAGE>_EXTRA_BODY; NULL: none */
	char tokens_param[40];   /* OpenAI's field for the reply limit: max_tokens, or max_completion_tokens */
	int tokens_learnt;       /* tokens_param came from the model's refusal of the other, here or earlier in the run */
	char dropped[8][40];     /* parameters the server refused, left out of later requests */
	int ndropped;
	char refused[40];        /* the parameter the last 400 refused ("" when none) */
	int use_completion_tokens;   /* and that message said to use max_completion_tokens */
	long fit_tokens;         /* > 0: the last 400 said the prompt and reply exceed the context; this reply fits */
	/* what this process's calls used */
	int calls, cached_calls;
	long prompt_tokens, completion_tokens;
};
struct ks_llm_reply {
	char *text;
	int truncated;           /* cut off at the token limit: not a whole answer */
	int cached;
	long prompt_tokens, completion_tokens;   /* completion counts thinking, which is billed */
	long cached_prompt_tokens;               /* of the prompt, read from the provider's prompt cache */
	char *finish;            /* the provider's finish/stop reason, as it said it; NULL when none */
	char *stopped;           /* why the provider stopped or blocked the reply (a refusal, SAFETY...); NULL */
};
/*
 * Configures the client for a stage from the environment
 * (kernel-scientist(7), ENVIRONMENT).  Returns 0 when an LLM is configured, 1 when none is
 * (the offline proposer is then used, and a note says so), -1 with a
 * message for a bad setting.  root is the population directory, where
 * the cache and the ledger live.  draw numbers the stage's calls in the
 * run (0, 1, ...: a generation's, or a candidate slot's): where the model
 * setting names several models with weights, it picks one of them.
 */
int ks_llm_open(struct ks_llm *llm, const char *stage, const char *root, long draw);
void ks_llm_close(struct ks_llm *llm);
/*
 * The stage's settings checked as ks_llm_open reads them, for every model
 * the setting names (a later draw may pick any), with no note, no request
 * and nothing written: 0 when an LLM is configured, 1 when none is, -1
 * after the line that ks_llm_open would print.
 */
int ks_llm_check(const char *stage, const char *root);
/*
 * POP/llm-adapt.json (population(5)): what a model refused (max_tokens,
 * temperature), by provider, URL and model, so that every process of the
 * run asks so from its first request.  _load applies llm's entry, if any,
 * to llm (ks_llm_open does); _save merges llm's into the file under a
 * lock, atomically (ks_llm_chat does, after adapting).  0, or -1 with a
 * message naming the file.
 */
int ks_llm_adapt_load(struct ks_llm *llm);
int ks_llm_adapt_save(const struct ks_llm *llm);
/*
 * One call: system may be NULL; turns alternate user, assistant, user.
 * Saves dir/llm/<name>.json and .md, adds a ledger line, and fills r
 * (free with ks_llm_reply_free).  -1 with a message after the retries.
 */
int ks_llm_chat(struct ks_llm *llm, const char *system, const char *const *turns, int n, const char *dir,
    const char *name, struct ks_llm_reply *r);
void ks_llm_reply_free(struct ks_llm_reply *r);
/* Sets obj's "usage" to what this process's calls used. */
void ks_llm_usage_json(const struct ks_llm *llm, cJSON *obj);

#endif
