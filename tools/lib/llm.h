/*
 * llm.h - what the files of the LLM client share (ks_llm.c: the HTTP
 * exchange, retries, what the run learns of a model, the call;
 * ks_llm_provider.c: the request and reply of each provider's API;
 * ks_llm_record.c: the ledger, the transcripts, the cache).  Private to
 * them.
 */
#ifndef KS_LLM_PRIVATE_H
#define KS_LLM_PRIVATE_H

#include <curl/curl.h>

#include "ks_llm.h"

/* ks_llm_provider.c: a request's body, URL and headers, an error's message, a reply's text and tokens */
cJSON *ks_llm_request(const struct ks_llm *llm, const char *system, const char *const *turns, int n);
char *ks_llm_stream_endpoint(const struct ks_llm *llm);
cJSON *ks_llm_sent_body(const struct ks_llm *llm, const cJSON *body);
char *ks_llm_endpoint(const struct ks_llm *llm);
struct curl_slist *ks_llm_headers(const struct ks_llm *llm);
char *ks_llm_error_message(const char *body);
int ks_llm_parse_reply(const struct ks_llm *llm, const cJSON *j, struct ks_llm_reply *r);

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
