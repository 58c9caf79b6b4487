/* ks_prompt.c - prompt templates, and reading what the model replied. */
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ks_ask.h"

char *
ks_prompt_path(const char *name)
{
	char *dir = ks_data_dir("prompts", "KS_PROMPTS_DIR"), *path = ks_easprintf("%s/%s", dir, name);

	free(dir);
	return path;
}

char *
ks_prompt_file(const char *name)
{
	char *path = ks_prompt_path(name), *text = ks_file_read(path, NULL);

	free(path);
	return text;
}

char *
ks_prompt_render(const char *name, const char *const *keys, const char *const *values, int n)
{
	char *file = ks_easprintf("%s.md", name), *path = ks_prompt_path(file), *tpl = ks_file_read(path, NULL);
	struct ks_buf out = { 0 };
	const char *p, *open, *close;

	if (!tpl) {
		free(file);
		free(path);
		return NULL;
	}
	ks_buf_add(&out, "", 0);
	p = tpl;
	/* A leading <!-- comment --> documents the template for its editors; the model does not see it. */
	if (strncmp(p, "<!--", 4) == 0 && (close = strstr(p, "-->"))) {
		p = close + 3;
		while (*p == '\n')
			p++;
	}
	for (; (open = strstr(p, "{{")); p = close + 2) {
		int i;

		if (!(close = strstr(open + 2, "}}")))
			break;
		ks_buf_add(&out, p, (size_t)(open - p));
		for (i = 0; i < n; i++)
			if (strlen(keys[i]) == (size_t)(close - open - 2) && strncmp(open + 2, keys[i], strlen(keys[i])) == 0)
				break;
		if (i == n) {
			ks_warnx("'%s': unknown placeholder {{%.*s}} (known: see the comment at its top)", path,
			    (int)(close - open - 2), open + 2);
			ks_buf_free(&out);
			free(tpl);
			free(file);
			free(path);
			return NULL;
		}
		ks_buf_puts(&out, values[i] ? values[i] : "");
	}
	ks_buf_puts(&out, p);
	free(tpl);
	free(file);
	free(path);
	return out.s;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *
ks_prompt_knowledge(const char *dir)
{
	struct ks_buf out = { 0 };
	char **names = NULL;
	size_t n = 0;
	struct dirent *e;
	DIR *d;

	ks_buf_add(&out, "", 0);
	if (!(d = opendir(dir)))
		return out.s;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.' || len < 4 || strcmp(e->d_name + len - 3, ".md") != 0)
			continue;
		names = ks_erealloc(names, (n + 1) * sizeof *names);
		names[n++] = ks_estrdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof *names, cmp_str);
	for (size_t i = 0; i < n; i++) {
		char *path = ks_easprintf("%s/%s", dir, names[i]), *text = ks_file_read(path, NULL);

		if (text)
			ks_buf_printf(&out, "%s%s", out.len ? "\n" : "", text);
		free(text);
		free(path);
		free(names[i]);
	}
	free(names);
	return out.s;
}

/* The body of the first ``` fence whose info string is lang (NULL: any). */
static char *
fence(const char *text, const char *lang, const char **after)
{
	const char *p = text, *start, *end;

	while ((p = strstr(p, "```"))) {
		const char *info = p + 3, *nl = strchr(info, '\n');

		if (!nl)
			return NULL;
		start = nl + 1;
		if (!(end = strstr(start, "```")))
			end = start + strlen(start);
		if (!lang || ((size_t)(nl - info) >= strlen(lang) && strncmp(info, lang, strlen(lang)) == 0)) {
			char *body = ks_emalloc((size_t)(end - start) + 1);

			memcpy(body, start, (size_t)(end - start));
			body[end - start] = '\0';
			*after = *end ? end + 3 : end;
			return body;
		}
		p = *end ? end + 3 : end;
	}
	return NULL;
}

/* The first place in s of any of the tags, case-insensitive; NULL when none. */
static const char *
find_tag(const char *s, const char *const *tags, size_t *len)
{
	const char *best = NULL;

	for (const char *const *t = tags; *t; t++)
		for (const char *p = s; (p = strchr(p, '<')); p++)
			if (strncasecmp(p, *t, strlen(*t)) == 0) {
				if (!best || p < best) {
					best = p;
					*len = strlen(*t);
				}
				break;
			}
	return best;
}

static cJSON *reply_json(const char *text, char **why);

static const char *const open_tags[] = { "<think>", "<thinking>", "<reasoning>", NULL };
static const char *const close_tags[] = { "</think>", "</thinking>", "</reasoning>", NULL };

/*
 * The reply without the reasoning that some models and servers put in the
 * content (vLLM without a reasoning parser, DeepSeek-R1, QwQ): every
 * <think>...</think> (or <thinking>, <reasoning>) block; all before a
 * closing tag whose opening tag the chat template sent in the prompt; all
 * after an opening tag that never closes (thinking cut off).  A draft in
 * the thinking must not pass for the answer.
 */
char *
ks_strip_reasoning(const char *text)
{
	struct ks_buf b = { 0 };
	const char *p = text, *o, *c;
	size_t olen = 0, clen = 0;

	ks_buf_add(&b, "", 0);
	/* text up to a closing tag with no opening before it is reasoning */
	if ((c = find_tag(p, close_tags, &clen)) && (!(o = find_tag(p, open_tags, &olen)) || c < o))
		p = c + clen;
	while (*p) {
		if (!(o = find_tag(p, open_tags, &olen))) {
			ks_buf_puts(&b, p);
			break;
		}
		ks_buf_add(&b, p, (size_t)(o - p));
		if (!(c = find_tag(o + olen, close_tags, &clen)))
			break;	/* never closed: the rest is reasoning */
		p = c + clen;
	}
	return b.s;
}

cJSON *
ks_reply_json(const char *reply, char **why)
{
	char *text = ks_strip_reasoning(reply);
	cJSON *j = reply_json(text, why);

	free(text);
	return j;
}

static cJSON *
reply_json(const char *text, char **why)
{
	const char *after, *open, *close;
	cJSON *j;
	char *body;

	*why = NULL;
	if ((j = ks_json_parse(text, strlen(text), NULL)) && cJSON_IsObject(j))
		return j;
	cJSON_Delete(j);
	if ((body = fence(text, "json", &after))) {
		j = ks_json_parse(body, strlen(body), NULL);
		free(body);
		if (cJSON_IsObject(j))
			return j;
		cJSON_Delete(j);
	}
	/* JSON surrounded by prose: from the first brace to the last. */
	if ((open = strchr(text, '{')) && (close = strrchr(text, '}')) && close > open) {
		body = ks_estrndup(open, (size_t)(close - open) + 1);
		j = ks_json_parse(body, strlen(body), NULL);
		free(body);
		if (cJSON_IsObject(j))
			return j;
		cJSON_Delete(j);
	}
	*why = ks_estrdup("the reply holds no JSON object");
	return NULL;
}


/*
 * The code of a reply: the last fenced block that defines the entry point
 * (a model often shows a draft, or a snippet of the base, first), after
 * the reasoning is stripped.
 */
char *
ks_reply_code(const char *reply, const char *entry, char **why)
{
	char *text = ks_strip_reasoning(reply), *last = NULL, *defining = NULL, *named = NULL, *body;
	const char *p = text, *after;

	*why = NULL;
	/* a block with the entry point's body; failing that, one that names it (a macro may define it) */
	while ((body = fence(p, NULL, &after))) {
		free(last);
		last = body;
		if (ks_code_defines_body(body, entry)) {
			free(defining);
			defining = ks_estrdup(body);
		} else if (ks_code_defines(body, entry)) {
			free(named);
			named = ks_estrdup(body);
		}
		p = after;
	}
	free(text);
	if (!defining) {
		defining = named;
		named = NULL;
	}
	free(named);
	if (!last)
		*why = ks_estrdup("the reply holds no fenced code block (```c ... ```)");
	else if (!defining)
		*why = ks_easprintf("the code does not define the entry point %s", entry);
	free(last);
	return defining;
}
