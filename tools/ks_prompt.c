/* ks_prompt.c - prompt templates, and reading what the model replied. */
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "ks.h"

static char *
prompt_path(const char *name)
{
	char *dir = ks_data_dir("prompts", "KS_PROMPTS_DIR"), *path = ks_easprintf("%s/%s", dir, name);

	free(dir);
	return path;
}

char *
ks_prompt_file(const char *name)
{
	char *path = prompt_path(name), *text = ks_file_read(path, NULL);

	free(path);
	return text;
}

char *
ks_prompt_render(const char *name, const char *const *keys, const char *const *values, int n)
{
	char *file = ks_easprintf("%s.md", name), *path = prompt_path(file), *tpl = ks_file_read(path, NULL);
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

cJSON *
ks_reply_json(const char *text, char **why)
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


char *
ks_reply_code(const char *text, const char *entry, char **why)
{
	const char *p = text, *after;
	char *best = NULL, *body;

	*why = NULL;
	while ((body = fence(p, NULL, &after))) {
		if (!best || strlen(body) > strlen(best)) {
			free(best);
			best = body;
		} else {
			free(body);
		}
		p = after;
	}
	if (!best) {
		*why = ks_estrdup("the reply holds no fenced code block (```c ... ```)");
		return NULL;
	}
	if (!ks_code_defines(best, entry)) {
		*why = ks_easprintf("the code does not define the entry point %s", entry);
		free(best);
		return NULL;
	}
	return best;
}
