/*
 * ks_sse.c - a streamed reply (server-sent events) made into the reply
 * the API gives without streaming.
 *
 * The LLM client streams so that a model that thinks for minutes keeps
 * bytes flowing through proxies, and so that a dead connection is told
 * from a slow model (KS_LLM_IDLE_S).  What comes back is assembled here
 * into the provider's non-streamed JSON (the text, the finish reason, the
 * usage), which the client then reads as it reads any reply: a streamed
 * and an unstreamed answer to one request give the same result.
 *
 *   OpenAI and compatible servers: "data: {chunk}" lines, choices[0].delta
 *     content and refusal, finish_reason, usage in the last chunk
 *     (stream_options.include_usage), then "data: [DONE]".
 *   Anthropic: events message_start (usage of the prompt),
 *     content_block_start/delta (text_delta; thinking is left out),
 *     message_delta (stop_reason, output tokens), message_stop; ping.
 *   Gemini (streamGenerateContent?alt=sse): each event a whole
 *     GenerateContentResponse; the text is the parts' text in order.
 */
#include <stdlib.h>
#include <string.h>

#include "ks_llm.h"

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

/* What the stream said so far, for any provider. */
struct assembly {
	struct ks_buf text, refusal;
	char *finish;
	cJSON *usage;           /* the provider's usage object, the last one sent */
	cJSON *feedback;        /* Gemini's promptFeedback */
	char *error;            /* an error event: its message */
	int done;               /* the stream's own end: [DONE], message_stop, a finish */
};

static void
set_str(char **dst, const char *s)
{
	free(*dst);
	*dst = s ? ks_estrdup(s) : NULL;
}

static void
keep_obj(cJSON **dst, const cJSON *src)
{
	if (!cJSON_IsObject(src))
		return;
	cJSON_Delete(*dst);
	*dst = cJSON_Duplicate(src, 1);
}

static void
error_of(struct assembly *a, const cJSON *j)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
	const char *m = cJSON_IsString(e) ? e->valuestring : ks_json_str(e, "message", NULL);

	set_str(&a->error, m ? m : "an error event without a message");
}

static void
openai_chunk(struct assembly *a, const char *data)
{
	cJSON *j;
	const cJSON *choice, *delta;
	const char *s;

	if (strcmp(data, "[DONE]") == 0) {
		a->done = 1;
		return;
	}
	if (!(j = ks_json_parse(data, strlen(data), NULL)))
		return;
	if (cJSON_GetObjectItemCaseSensitive(j, "error"))
		error_of(a, j);
	choice = cJSON_GetArrayItem(ks_json_arr(j, "choices", NULL), 0);
	delta = ks_json_obj(choice, "delta", NULL);
	if ((s = ks_json_str(delta, "content", NULL)))
		ks_buf_puts(&a->text, s);
	if ((s = ks_json_str(delta, "refusal", NULL)))
		ks_buf_puts(&a->refusal, s);
	if ((s = ks_json_str(choice, "finish_reason", NULL)))
		set_str(&a->finish, s);
	keep_obj(&a->usage, cJSON_GetObjectItemCaseSensitive(j, "usage"));
	cJSON_Delete(j);
}

static void
anthropic_event(struct assembly *a, const char *event, const char *data)
{
	cJSON *j = ks_json_parse(data, strlen(data), NULL);
	const char *type = ks_json_str(j, "type", NULL), *s;
	const cJSON *u;

	if (!j)
		return;
	if (!type)
		type = event;
	if (strcmp(type, "error") == 0) {
		error_of(a, j);
	} else if (strcmp(type, "message_start") == 0) {
		keep_obj(&a->usage, cJSON_GetObjectItemCaseSensitive(ks_json_obj(j, "message", NULL), "usage"));
	} else if (strcmp(type, "content_block_delta") == 0) {
		const cJSON *d = ks_json_obj(j, "delta", NULL);

		/* text_delta only: thinking_delta and signature_delta are the model's reasoning */
		if ((s = ks_json_str(d, "type", NULL)) && strcmp(s, "text_delta") == 0 && (s = ks_json_str(d, "text", NULL)))
			ks_buf_puts(&a->text, s);
	} else if (strcmp(type, "message_delta") == 0) {
		if ((s = ks_json_str(ks_json_obj(j, "delta", NULL), "stop_reason", NULL)))
			set_str(&a->finish, s);
		/* the output count is cumulative; the prompt's came with message_start */
		if ((u = ks_json_obj(j, "usage", NULL)) && a->usage) {
			const cJSON *m;

			cJSON_ArrayForEach(m, u)
				if (cJSON_IsNumber(m))
					ks_json_set_num(a->usage, m->string, m->valuedouble);
		} else if (u) {
			keep_obj(&a->usage, u);
		}
	} else if (strcmp(type, "message_stop") == 0) {
		a->done = 1;
	}
	cJSON_Delete(j);
}

static void
gemini_chunk(struct assembly *a, const char *data)
{
	cJSON *j = ks_json_parse(data, strlen(data), NULL);
	const cJSON *cand, *part;
	const char *s;

	if (!j)
		return;
	if (cJSON_GetObjectItemCaseSensitive(j, "error"))
		error_of(a, j);
	cand = cJSON_GetArrayItem(ks_json_arr(j, "candidates", NULL), 0);
	/* thought parts are the model's reasoning */
	cJSON_ArrayForEach(part, ks_json_arr(ks_json_obj(cand, "content", NULL), "parts", NULL))
		if ((s = ks_json_str(part, "text", NULL)) && !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(part, "thought")))
			ks_buf_puts(&a->text, s);
	if ((s = ks_json_str(cand, "finishReason", NULL))) {
		set_str(&a->finish, s);
		a->done = 1;
	}
	keep_obj(&a->usage, cJSON_GetObjectItemCaseSensitive(j, "usageMetadata"));
	if (cJSON_GetObjectItemCaseSensitive(j, "promptFeedback")) {
		keep_obj(&a->feedback, cJSON_GetObjectItemCaseSensitive(j, "promptFeedback"));
		if (ks_json_str(a->feedback, "blockReason", NULL))
			a->done = 1;
	}
	cJSON_Delete(j);
}

/* The non-streamed reply of the provider, from what was assembled. */
static cJSON *
unstreamed(const char *provider, struct assembly *a)
{
	cJSON *r = cJSON_CreateObject();

	if (strcmp(provider, "anthropic") == 0) {
		cJSON *block = cJSON_CreateObject();

		cJSON_AddStringToObject(block, "type", "text");
		cJSON_AddStringToObject(block, "text", a->text.s);
		cJSON_AddItemToArray(cJSON_AddArrayToObject(r, "content"), block);
		if (a->finish)
			cJSON_AddStringToObject(r, "stop_reason", a->finish);
		if (a->usage)
			cJSON_AddItemToObject(r, "usage", cJSON_Duplicate(a->usage, 1));
	} else if (strcmp(provider, "gemini") == 0) {
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
	} else {
		cJSON *choice = cJSON_CreateObject(), *msg = cJSON_AddObjectToObject(choice, "message");

		cJSON_AddStringToObject(msg, "role", "assistant");
		cJSON_AddStringToObject(msg, "content", a->text.s);
		if (a->refusal.len)
			cJSON_AddStringToObject(msg, "refusal", a->refusal.s);
		if (a->finish)
			cJSON_AddStringToObject(choice, "finish_reason", a->finish);
		cJSON_AddItemToArray(cJSON_AddArrayToObject(r, "choices"), choice);
		if (a->usage)
			cJSON_AddItemToObject(r, "usage", cJSON_Duplicate(a->usage, 1));
	}
	return r;
}

cJSON *
ks_sse_assemble(const char *provider, const char *sse, char **why)
{
	struct assembly a = { 0 };
	struct sse_event e = { 0 };
	const char *p = sse;
	cJSON *r = NULL;

	*why = NULL;
	ks_buf_add(&a.text, "", 0);
	ks_buf_add(&a.refusal, "", 0);
	while (next_event(&p, &e)) {
		if (strcmp(provider, "anthropic") == 0)
			anthropic_event(&a, e.event, e.data.s);
		else if (strcmp(provider, "gemini") == 0)
			gemini_chunk(&a, e.data.s);
		else
			openai_chunk(&a, e.data.s);
	}
	/* a stream whose last chunk gave the finish reason but no [DONE] is whole too */
	if (a.error)
		*why = ks_easprintf("a stream that reported an error: %s", a.error);
	else if (!a.done && !a.finish)
		*why = ks_estrdup("a stream that ended before the reply was complete");
	else
		r = unstreamed(provider, &a);
	ks_buf_free(&e.data);
	ks_buf_free(&a.text);
	ks_buf_free(&a.refusal);
	free(a.finish);
	free(a.error);
	cJSON_Delete(a.usage);
	cJSON_Delete(a.feedback);
	return r;
}
