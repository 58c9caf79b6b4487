/*
 * ks_llm.c - the LLM client: one module over libcurl.
 *
 * Providers: OpenAI-compatible chat completions (OpenAI, vLLM,
 * llama.cpp, Ollama, OpenRouter, Gemini's compatible endpoint),
 * Anthropic Messages and Gemini generateContent.  Every call goes
 * through ks_llm_chat(), which answers identical requests from a
 * content-addressed cache in POP/llm-cache/, retries what is worth
 * retrying, keeps a transcript next to what the call produced and adds
 * its tokens to the run's ledger, POP/llm-usage.jsonl.  The API key is
 * sent in a header and written nowhere.  The client is configured from
 * the environment by ks_llm_open.c; each API's request and reply shapes
 * are its own file's, called through llm->api (ks_llm_openai.c,
 * ks_llm_anthropic.c, ks_llm_gemini.c; ks_llm_provider.c), the ledger,
 * transcripts and cache ks_llm_record.c's (llm.h).
 */
#include <sys/file.h>

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "llm.h"

void
ks_llm_reply_free(struct ks_llm_reply *r)
{
	free(r->text);
	free(r->finish);
	free(r->stopped);
	memset(r, 0, sizeof *r);
}

/* What one HTTP exchange gave. */
struct http {
	struct ks_buf body;
	long status;
	double retry_after;     /* seconds; < 0 when the server did not say */
	int retry_after_ms;     /* it came from retry-after-ms, which wins over Retry-After */
	int should_retry;       /* x-should-retry: 1 true, 0 false, -1 not said */
	CURLcode rc;
	int sent;               /* the request went out: a failure after it may have been billed */
	double last_byte;       /* when the last byte came (or the request started) */
	double idle_s;          /* the idle limit of a stream; 0: none */
	int idle;               /* ended for it */
	char err[CURL_ERROR_SIZE];
};

static size_t
on_body(char *p, size_t size, size_t n, void *arg)
{
	struct http *h = arg;

	ks_buf_add(&h->body, p, size * n);
	h->last_byte = ks_monotonic();
	return size * n;
}

/*
 * libcurl calls this at least once a second: a stream that sent no byte
 * for the idle limit (from the request on) is a dead connection, ended
 * here; a slow one that keeps sending goes on to the total timeout.
 */
static int
on_progress(void *arg, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow)
{
	struct http *h = arg;

	(void)dltotal;
	(void)dlnow;
	(void)ultotal;
	(void)ulnow;
	if (h->idle_s > 0 && ks_monotonic() - h->last_byte > h->idle_s) {
		h->idle = 1;
		return 1;
	}
	return 0;
}

/* The value of header line p (len bytes) if it is header name, trimmed, in buf; NULL if not. */
static char *
header_value(const char *p, size_t len, const char *name, char *buf, size_t n)
{
	size_t nl = strlen(name);
	char *v = buf, *end;

	if (len >= n + nl || len <= nl || strncasecmp(p, name, nl) != 0 || p[nl] != ':')
		return NULL;
	memcpy(buf, p + nl + 1, len - nl - 1);
	buf[len - nl - 1] = '\0';
	while (*v == ' ' || *v == '\t')
		v++;
	end = v + strlen(v);
	while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	return v;
}

/*
 * The headers that say when to retry, as the official SDKs read them:
 * retry-after-ms (milliseconds) before Retry-After (seconds or an HTTP
 * date), and x-should-retry, the server's own word on retrying.
 */
static size_t
on_header(char *p, size_t size, size_t n, void *arg)
{
	struct http *h = arg;
	size_t len = size * n;
	char line[256], *v;
	double x;

	if ((v = header_value(p, len, "retry-after-ms", line, sizeof line)) && ks_parse_double(v, &x) == 0 && x >= 0) {
		h->retry_after = x / 1000;
		h->retry_after_ms = 1;
	} else if (!h->retry_after_ms && (v = header_value(p, len, "retry-after", line, sizeof line))) {
		if (ks_parse_double(v, &x) == 0)
			h->retry_after = x;
		else {
			time_t t = curl_getdate(v, NULL);
			if (t > 0)
				h->retry_after = difftime(t, time(NULL));
		}
	} else if ((v = header_value(p, len, "x-should-retry", line, sizeof line))) {
		h->should_retry = strcasecmp(v, "true") == 0 ? 1 : strcasecmp(v, "false") == 0 ? 0 : -1;
	}
	return len;
}

/* The request's headers: the API's own, and the key (wiped from the line made for it). */
static struct curl_slist *
headers(const struct ks_llm *llm)
{
	struct curl_slist *h = curl_slist_append(NULL, "Content-Type: application/json");
	char *line;

	if (llm->api->extra_header) {
		line = llm->api->extra_header();
		h = curl_slist_append(h, line);
		free(line);
	}
	if (llm->key) {
		line = ks_easprintf("%s %s", llm->api->key_header, llm->key);
		h = curl_slist_append(h, line);
		memset(line, 0, strlen(line));
		free(line);
	}
	return h;
}

static void
http_post(const struct ks_llm *llm, const char *url, const char *body, struct http *h)
{
	struct curl_slist *hdr = headers(llm), *resolve = NULL;
	CURL *c = curl_easy_init();
	const char *r = getenv("KS_LLM_RESOLVE");

	/* as curl --resolve HOST:PORT:ADDRESS: a host reached at another address (a tunnel, split DNS) */
	if (r && *r)
		resolve = curl_slist_append(NULL, r);

	ks_buf_free(&h->body);
	ks_buf_add(&h->body, "", 0);
	h->status = 0;
	h->retry_after = -1;
	h->retry_after_ms = 0;
	h->should_retry = -1;
	h->err[0] = '\0';
	if (!c) {
		h->rc = CURLE_FAILED_INIT;
		curl_slist_free_all(hdr);
		curl_slist_free_all(resolve);
		return;
	}
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, h);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, h);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, h->err);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)(llm->timeout_s * 1000));
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, (long)fmin(llm->timeout_s * 1000, 30000));
	/* TCP keep-alive, so that a quiet connection is not dropped by a NAT or a proxy */
	curl_easy_setopt(c, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(c, CURLOPT_TCP_KEEPIDLE, 30L);
	curl_easy_setopt(c, CURLOPT_TCP_KEEPINTVL, 15L);
	/* a stream with no byte for KS_LLM_IDLE_S is a dead connection */
	h->idle = 0;
	h->idle_s = llm->stream ? llm->idle_s : 0;
	h->last_byte = ks_monotonic();
	curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(c, CURLOPT_XFERINFODATA, h);
	curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "kernel-scientist/" KS_VERSION);
	if (resolve)
		curl_easy_setopt(c, CURLOPT_RESOLVE, resolve);
	h->rc = curl_easy_perform(c);
	if (h->rc == CURLE_OK)
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &h->status);
	long sent = 0;
	curl_easy_getinfo(c, CURLINFO_REQUEST_SIZE, &sent);
	h->sent = sent > 0;
	curl_easy_cleanup(c);
	curl_slist_free_all(hdr);
	curl_slist_free_all(resolve);
}

static int
retryable_status(long s)
{
	return s == 408 || s == 409 || s == 429 || (s >= 500 && s <= 599);
}

static int
retryable_curl(CURLcode rc)
{
	return rc != CURLE_URL_MALFORMAT && rc != CURLE_UNSUPPORTED_PROTOCOL && rc != CURLE_FAILED_INIT &&
	    rc != CURLE_COULDNT_RESOLVE_PROXY;
}

/*
 * Whether a failed try looks like the provider (or the way to it) being
 * down for a while: no connection, a timeout, a 5xx (529: Anthropic's
 * "overloaded").  Those are ridden out for KS_LLM_OUTAGE_S, past
 * KS_LLM_TRIES; a 408, 409 or 429 is the server's answer to this
 * request, retried KS_LLM_TRIES times only.
 */
static int
outage_like(const struct http *h)
{
	if (h->rc != CURLE_OK)
		return retryable_curl(h->rc);
	return h->status >= 500 && h->status <= 599;
}

/* "1m05s", "15m00s", "42.0 s": a span of seconds as a progress line says it */
static void
format_span(char *buf, size_t n, double s)
{
	if (s < 60)
		snprintf(buf, n, "%.1f s", s);
	else
		snprintf(buf, n, "%dm%02ds", (int)(s / 60), (int)fmod(s, 60));
}

static double
jitter(void)
{
	static unsigned seed;

	if (!seed)
		seed = (unsigned)time(NULL) ^ (unsigned)getpid() << 16;
	return 0.5 + 0.5 * ((double)rand_r(&seed) / RAND_MAX);
}

static void
sleep_s(double s)
{
	struct timespec ts;

	if (s <= 0)
		return;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * OpenAI's reasoning models (o-series, gpt-5) refuse max_tokens and any
 * temperature but 1: a 400 with code unsupported_parameter or
 * unsupported_value naming the "param".  Sets llm->refused to it (and
 * use_completion_tokens when the message says to use
 * max_completion_tokens), unless it was refused before; returns 1 then.
 */
static int
refused_parameter(struct ks_llm *llm, const char *body)
{
	cJSON *j = ks_json_parse(body, strlen(body), NULL);
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
	const char *code = ks_json_str(e, "code", NULL), *param = ks_json_str(e, "param", NULL);
	const char *msg = ks_json_str(e, "message", NULL);
	int found = code && param && *param && strlen(param) < sizeof llm->refused &&
	    (strcmp(code, "unsupported_parameter") == 0 || strcmp(code, "unsupported_value") == 0);

	for (int i = 0; found && i < llm->ndropped; i++)
		found = strcmp(llm->dropped[i], param) != 0;
	if (found) {
		snprintf(llm->refused, sizeof llm->refused, "%s", param);
		llm->use_completion_tokens = msg && strstr(msg, "max_completion_tokens") &&
		    strcmp(param, llm->tokens_param) == 0;
	}
	cJSON_Delete(j);
	return found;
}

/*
 * A local server's 400 for a prompt and reply limit over the model's
 * context: vLLM ("maximum context length is 32768 tokens. However, you
 * requested 40000 tokens (23616 in the messages, 16384 in the
 * completion)", or "... your request has 23616 input tokens"), OpenAI
 * (context_length_exceeded, same words), llama.cpp
 * (exceed_context_size_error with n_ctx and n_prompt_tokens).  Sets
 * llm->fit_tokens to the largest reply that fits, less a margin, when one
 * of at least 256 tokens does; returns 1 then.
 */
static int
context_exceeded(struct ks_llm *llm, const char *body)
{
	cJSON *j = ks_json_parse(body, strlen(body), NULL);
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
	const char *msg = cJSON_IsString(e) ? e->valuestring : ks_json_str(e, "message", NULL);
	double nctx = -1, nprompt = -1;
	long ctx, in, fit;

	if (!msg)
		msg = ks_json_str(j, "message", NULL);
	ks_json_num(e, "n_ctx", NULL, &nctx);
	ks_json_num(e, "n_prompt_tokens", NULL, &nprompt);
	ctx = nctx > 0 ? (long)nctx : ks_number_after(msg, "maximum context length is ");
	in = nprompt > 0 ? (long)nprompt : ks_number_before(msg, " in the messages");
	if (in < 0)
		in = ks_number_after(msg, "your request has ");
	cJSON_Delete(j);
	llm->fit_tokens = 0;
	if (ctx <= 0 || in < 0)
		return 0;
	/* a margin for the server's own count of the template's tokens */
	fit = ctx - in - 64;
	if (fit < 256 || fit >= llm->max_tokens)
		return 0;
	llm->fit_tokens = fit;
	return 1;
}

/*
 * After a refused parameter: the reply limit under the name the server
 * asked for, or the parameter left out of later requests (the caller
 * remembers it for the run: ks_llm_adapt_save).  Returns 0 when there is
 * nothing more to change.
 */
static int
adapt(struct ks_llm *llm)
{
	if (!llm->refused[0])
		return 0;
	if (llm->use_completion_tokens) {
		snprintf(llm->tokens_param, sizeof llm->tokens_param, "max_completion_tokens");
		llm->tokens_learnt = 1;
		ks_info("retrying with max_completion_tokens instead of %s (set KS_LLM_MAX_TOKENS_PARAM="
		    "max_completion_tokens to ask so at once)", llm->refused);
		return 1;
	}
	if (llm->ndropped == (int)(sizeof llm->dropped / sizeof llm->dropped[0]))
		return 0;
	snprintf(llm->dropped[llm->ndropped++], sizeof llm->dropped[0], "%s", llm->refused);
	ks_info("retrying without %s, which the model does not take", llm->refused);
	return 1;
}

/*
 * The reply of a 2xx body as the API gives it unstreamed: the body when it
 * is a JSON object (a server that does not stream), else the stream
 * assembled.  NULL with *why (a stream cut short, an error event).
 */
static cJSON *
reply_json(const struct ks_llm *llm, const char *body, char **why)
{
	cJSON *j = ks_json_parse(body, strlen(body), NULL);
	char *w = NULL;

	/* no "data:" line: not a stream either (a proxy's HTML page, say) */
	if (cJSON_IsObject(j) || !llm->stream || !strstr(body, "data:")) {
		if (!cJSON_IsObject(j))
			*why = ks_easprintf("a body that is not JSON: %.80s", body);
		if (!cJSON_IsObject(j)) {
			cJSON_Delete(j);
			j = NULL;
		}
		return j;
	}
	cJSON_Delete(j);
	if (!(j = ks_sse_reply(llm->api, body, &w)))
		*why = w;
	return j;
}

/*
 * A try that failed after its request went out and the provider may have
 * worked on (a timeout, a connection cut mid-reply, a 200 whose body is
 * not a reply) goes into the ledger as such: the bill may hold it.
 */
static void
ledger_failed_try(const struct ks_llm *llm, const struct http *h, const char *why)
{
	int maybe_billed = h->sent && (h->rc == CURLE_OPERATION_TIMEDOUT || h->rc == CURLE_RECV_ERROR || h->idle ||
	    h->rc == CURLE_GOT_NOTHING || h->rc == CURLE_PARTIAL_FILE || (h->rc == CURLE_OK && h->status == 200));
	char *ledger, *safe, *f;

	if (!maybe_billed || !llm->where)
		return;
	ledger = ks_easprintf("%s/llm-usage.jsonl", llm->root);
	safe = ks_redact(why, llm->key);
	f = ks_easprintf("%s (the provider may have billed it)", safe);
	ks_llm_ledger_add(llm, ledger, llm->where, NULL, f);
	free(f);
	free(safe);
	free(ledger);
}

/*
 * Posts with retries: backoff with jitter on 408, 409, 429, 5xx and
 * connection errors, honouring Retry-After (clamped), KS_LLM_TRIES tries;
 * an outage (outage_like) is ridden out past them until KS_LLM_OUTAGE_S
 * have passed since its first failed try, a progress line per wait.
 * Returns 0 with r filled from a 2xx reply, or -1 after one error line
 * naming the URL and the last status and message.
 */
static int
post_with_retries(struct ks_llm *llm, const char *url, const char *body, int *tries_used,
    struct ks_llm_reply *r)
{
	struct http h = { 0 };
	char *why = NULL, *safe, *safe_url, *w = NULL;
	cJSON *j = NULL;
	double first_fail = -1, into = 0;
	int t, outage = 0;

	llm->refused[0] = '\0';
	llm->fit_tokens = 0;

	for (t = 1;; t++) {
		int retry;

		http_post(llm, url, body, &h);
		free(why);
		why = NULL;
		if (h.rc != CURLE_OK && h.idle) {
			why = ks_easprintf("no byte for %g s: the stream is dead (KS_LLM_IDLE_S)", llm->idle_s);
			retry = 1;
		} else if (h.rc != CURLE_OK) {
			why = ks_easprintf("%s", h.err[0] ? h.err : curl_easy_strerror(h.rc));
			retry = retryable_curl(h.rc);
		} else if (h.status < 200 || h.status > 299) {
			char *m = ks_llm_error_message(h.body.s);
			why = ks_easprintf("HTTP %ld: %s", h.status, m);
			free(m);
			retry = retryable_status(h.status);
			if (h.status == 400 && (refused_parameter(llm, h.body.s) || context_exceeded(llm, h.body.s)))
				break;	/* ks_llm_chat adapts the request and asks again */
		} else if (!(j = reply_json(llm, h.body.s, &w))) {
			why = ks_easprintf("HTTP %ld with %s", h.status, w);
			free(w);
			retry = 1;
		} else if (ks_llm_parse_reply(llm, j, r) < 0) {
			/* A proxy's hiccup or a wrong endpoint: worth another try, then named. */
			why = ks_easprintf("HTTP %ld with a body that is not an %s reply: %.80s", h.status, llm->provider,
			    h.body.s);
			cJSON_Delete(j);
			j = NULL;
			retry = 1;
		} else {
			break;
		}
		ledger_failed_try(llm, &h, why);
		/* the server's word wins: x-should-retry */
		if (h.rc == CURLE_OK && h.should_retry >= 0)
			retry = h.should_retry;
		if (first_fail < 0)
			first_fail = ks_monotonic();
		into = ks_monotonic() - first_fail;
		outage = retry && outage_like(&h) && into < llm->outage_s;
		if (!retry || (t >= llm->tries && !outage))
			break;
		/*
		 * The server's wait, with up to a quarter more at random so that
		 * the jobs of make -j do not all come back at one instant; else
		 * exponential backoff with jitter, capped; and in an outage no
		 * later than its window's end, for one last try there.
		 */
		double wait = h.retry_after >= 0 ? fmin(h.retry_after * (1 + 0.5 * (jitter() - 0.5)), llm->retry_max_s)
		    : fmin(llm->backoff_s * pow(2, t - 1), llm->retry_max_s) * jitter();
		safe = ks_redact(why, llm->key);
		if (t < llm->tries) {
			ks_info("%s (try %d of %d); retrying in %.1f s", safe, t, llm->tries, wait);
		} else {
			char so_far[24], window[24];

			wait = fmin(wait, fmax(llm->outage_s - into, 0));
			format_span(so_far, sizeof so_far, into);
			format_span(window, sizeof window, llm->outage_s);
			ks_info("%s (try %d, %s into an outage, ridden out for %s: KS_LLM_OUTAGE_S); retrying in %.1f s",
			    safe, t, so_far, window, wait);
		}
		free(safe);
		sleep_s(wait);
	}
	*tries_used = t;
	/* a provider's error may echo the key: every line out goes through ks_redact */
	safe = ks_redact(why, llm->key);
	safe_url = ks_redact(url, llm->key);
	if (!j && (llm->refused[0] || llm->fit_tokens > 0))
		ks_info("LLM request to '%s' refused: %s", safe_url, safe);
	else if (!j && *tries_used > llm->tries) {
		char span[24];

		format_span(span, sizeof span, into);
		ks_warnx("LLM request to '%s' failed after %d tries over %s (KS_LLM_OUTAGE_S): %s; rerun the same "
		    "command to resume once the provider is back", safe_url, *tries_used, span, safe);
	} else if (!j && *tries_used > 1)
		ks_warnx("LLM request to '%s' failed after %d tries: %s", safe_url, *tries_used, safe);
	else if (!j)
		ks_warnx("LLM request to '%s' failed: %s", safe_url, safe);
	free(llm->last_error);
	llm->last_error = j ? NULL : ks_estrdup(safe);
	free(safe);
	free(safe_url);
	free(why);
	ks_buf_free(&h.body);
	cJSON_Delete(j);
	return j ? 0 : -1;
}

int
ks_llm_chat(struct ks_llm *llm, const char *system, const char *const *turns, int n, const char *dir,
    const char *name, struct ks_llm_reply *r)
{
	cJSON *body = NULL, *sent = NULL;
	char *url = llm->api->endpoint(llm), *surl = llm->api->stream_endpoint(llm);
	char *text = NULL, *stext = NULL, *hash = NULL;
	char *cdir = ks_easprintf("%s/llm-cache", llm->root), *cpath = NULL;
	char *ledger = ks_easprintf("%s/llm-usage.jsonl", llm->root);
	int rc = -1, tries = 0;
	long used, refit = 0, before = 0;

	memset(r, 0, sizeof *r);
	free(llm->last_error);
	llm->last_error = NULL;
	llm->where = dir;
	/* a parameter the model refuses is changed or left out, and the request made again */
	for (int adapted = 0; ; adapted++) {
		cJSON_Delete(body);
		cJSON_Delete(sent);
		cJSON_free(text);
		cJSON_free(stext);
		free(hash);
		free(cpath);
		/* the cache's key is the request unstreamed: streaming or not, one question */
		body = ks_llm_request(llm, system, turns, n);
		text = cJSON_PrintUnformatted(body);
		sent = ks_llm_sent_body(llm, body);
		stext = cJSON_PrintUnformatted(sent);
		hash = ks_llm_sha256_hex(llm->provider, url, text);
		cpath = ks_easprintf("%s/%s.json", cdir, hash);
		if (llm->cache && ks_llm_cache_get(cpath, r) == 0)
			break;
		struct ks_usage u;

		if (llm->budget > 0 && ks_ledger_load(llm->root, &u) < 0)
			goto out;
		if (llm->budget > 0)
			before = u.prompt_tokens + u.completion_tokens;
		if (llm->budget > 0 && (used = u.prompt_tokens + u.completion_tokens) >= llm->budget) {
			ks_warnx("token budget reached: %ld tokens used of KS_MAX_TOKENS=%ld (see '%s'); "
			    "raise KS_MAX_TOKENS to go on", used, llm->budget, ledger);
			goto out;
		}
		if (post_with_retries(llm, llm->stream ? surl : url, stext, &tries, r) == 0)
			break;
		/* over the context: once more with a reply limit that fits, for this request */
		if (llm->fit_tokens > 0 && !refit) {
			ks_info("the prompt and a reply of %ld tokens exceed the model's context: asking again with a "
			    "reply limit of %ld", llm->max_tokens, llm->fit_tokens);
			refit = llm->max_tokens;
			llm->max_tokens = llm->fit_tokens;
			continue;
		}
		if (!llm->refused[0] || adapted >= 3 || !adapt(llm)) {
			if (llm->refused[0] || llm->fit_tokens > 0) {
				char *safe_url = ks_redact(url, llm->key);

				ks_warnx("LLM request to '%s' failed: %s", safe_url, llm->last_error);
				free(safe_url);
			}
			goto out;
		}
		/* the run's later requests, in this process and the others, ask so at once */
		if (ks_llm_adapt_save(llm) < 0)
			goto out;
	}
	if (!r->cached && llm->cache && ks_llm_cache_put(cdir, cpath, r) < 0)
		goto out;
	if (ks_llm_transcript_save(llm, dir, name, r->cached || !llm->stream ? url : surl, r->cached ? body : sent, system, turns,
	    n, r, tries) < 0 ||
	    ks_llm_ledger_add(llm, ledger, dir, r, NULL) < 0)
		goto out;
	llm->calls++;
	llm->cached_calls += r->cached;
	if (!r->cached) {
		llm->prompt_tokens += r->prompt_tokens;
		llm->completion_tokens += r->completion_tokens;
		ks_llm_budget_passed(llm, before, before + r->prompt_tokens + r->completion_tokens, ledger);
	}
	rc = 0;
out:
	if (refit)
		llm->max_tokens = refit;
	if (rc < 0)
		ks_llm_reply_free(r);
	cJSON_Delete(body);
	cJSON_Delete(sent);
	cJSON_free(text);
	cJSON_free(stext);
	free(url);
	free(surl);
	free(hash);
	free(cdir);
	free(cpath);
	free(ledger);
	return rc;
}

void
ks_llm_usage_json(const struct ks_llm *llm, cJSON *obj)
{
	cJSON *u = cJSON_CreateObject();

	cJSON_AddNumberToObject(u, "calls", llm->calls);
	cJSON_AddNumberToObject(u, "cached_calls", llm->cached_calls);
	cJSON_AddNumberToObject(u, "prompt_tokens", (double)llm->prompt_tokens);
	cJSON_AddNumberToObject(u, "completion_tokens", (double)llm->completion_tokens);
	if (cJSON_GetObjectItemCaseSensitive(obj, "usage"))
		cJSON_ReplaceItemInObjectCaseSensitive(obj, "usage", u);
	else
		cJSON_AddItemToObject(obj, "usage", u);
}
