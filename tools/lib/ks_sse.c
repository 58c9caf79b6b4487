/*
 * ks_sse.c - a streamed reply (server-sent events) made into the reply
 * the API gives without streaming.
 *
 * The LLM client streams so that a model that thinks for minutes keeps
 * bytes flowing through proxies, and so that a dead connection is told
 * from a slow model (KS_LLM_IDLE_S).  What comes back is assembled here
 * into the provider's non-streamed JSON (the text, the finish reason, the
 * usage), which the client then reads as it reads any reply: a streamed
 * and an unstreamed answer to one request give the same result.  The
 * events are read here; what each API's events mean is its file's
 * (sse_event, unstreamed: ks_llm_openai.c, ks_llm_anthropic.c,
 * ks_llm_gemini.c).
 */
#include <stdlib.h>
#include <string.h>

#include "llm.h"

/* One event of the stream: its type ("" when none) and its data lines joined. */
struct sse_event {
	char event[64];
	struct ks_buf data;
};

/*
 * The next event of the stream at *p (advanced past it); 0 at the end.
 * Lines "event: X" and "data: Y" (data lines joined by newlines), ":"
 * comments skipped, a blank line ends the event; CRLF or LF.
 */
static int
next_event(const char **p, struct sse_event *e)
{
	int any = 0;

	e->event[0] = '\0';
	ks_buf_free(&e->data);
	ks_buf_add(&e->data, "", 0);
	while (**p) {
		const char *line = *p, *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		*p = nl ? nl + 1 : line + len;
		if (len > 0 && line[len - 1] == '\r')
			len--;
		if (len == 0) {
			if (any)
				return 1;
			continue;
		}
		if (line[0] == ':')
			continue;
		if (len >= 5 && strncmp(line, "data:", 5) == 0) {
			size_t skip = len > 5 && line[5] == ' ' ? 6 : 5;

			if (e->data.len)
				ks_buf_add(&e->data, "\n", 1);
			ks_buf_add(&e->data, line + skip, len - skip);
			any = 1;
		} else if (len >= 6 && strncmp(line, "event:", 6) == 0) {
			size_t skip = len > 6 && line[6] == ' ' ? 7 : 6, n = len - skip;

			if (n >= sizeof e->event)
				n = sizeof e->event - 1;
			memcpy(e->event, line + skip, n);
			e->event[n] = '\0';
			any = 1;
		}
	}
	return any;
}

/* What each API's events said, kept: a string (NULL: none), an object (the last one), an error's message. */
void
ks_sse_set_str(char **dst, const char *s)
{
	free(*dst);
	*dst = s ? ks_estrdup(s) : NULL;
}

void
ks_sse_keep_obj(cJSON **dst, const cJSON *src)
{
	if (!cJSON_IsObject(src))
		return;
	cJSON_Delete(*dst);
	*dst = cJSON_Duplicate(src, 1);
}

void
ks_sse_error(struct ks_sse_assembly *a, const cJSON *j)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
	const char *m = cJSON_IsString(e) ? e->valuestring : ks_json_str(e, "message", NULL);

	ks_sse_set_str(&a->error, m ? m : "an error event without a message");
}

/* The reply of what a stream said; NULL with *why when it was not a whole reply. */
static cJSON *
whole(const struct ks_llm_api *api, const struct ks_sse_assembly *a, char **why)
{
	/* a stream whose last chunk gave the finish reason but no [DONE] is whole too */
	if (a->error)
		*why = ks_easprintf("a stream that reported an error: %s", a->error);
	else if (!a->done && !a->finish)
		*why = ks_estrdup("a stream that ended before the reply was complete");
	else
		return api->unstreamed(a);
	return NULL;
}

/* The stream sse assembled by api's functions: ks_sse_assemble's answer. */
cJSON *
ks_sse_reply(const struct ks_llm_api *api, const char *sse, char **why)
{
	struct ks_sse_assembly a = { 0 };
	struct sse_event e = { 0 };
	const char *p = sse;
	cJSON *r;

	*why = NULL;
	ks_buf_add(&a.text, "", 0);
	ks_buf_add(&a.refusal, "", 0);
	while (next_event(&p, &e))
		api->sse_event(&a, e.event, e.data.s);
	r = whole(api, &a, why);
	ks_buf_free(&e.data);
	ks_buf_free(&a.text);
	ks_buf_free(&a.refusal);
	free(a.finish);
	free(a.error);
	cJSON_Delete(a.usage);
	cJSON_Delete(a.feedback);
	return r;
}
