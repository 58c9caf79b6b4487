/*
 * ks_tune.c - the tunable parameters a kernel declares, one per line:
 *
 *	#define BM 16	// ks-tune: 8 16 32 64 128
 *
 * The offline proposer reads the current value and the allowed ones, and
 * rewrites the value; nothing else of the source changes.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ks.h"

/* Parses one line; 1 when it declares a parameter. */
static int
parse_line(const char *line, size_t len, struct ks_param *p)
{
	char buf[512], *s, *tune, *end;
	size_t n;

	if (len >= sizeof buf)
		return 0;
	memcpy(buf, line, len);
	buf[len] = '\0';
	if (!(tune = strstr(buf, "ks-tune:")))
		return 0;
	s = buf;
	while (isspace((unsigned char)*s))
		s++;
	if (*s++ != '#')
		return 0;
	while (isspace((unsigned char)*s))
		s++;
	if (strncmp(s, "define", 6) != 0 || !isspace((unsigned char)s[6]))
		return 0;
	s += 6;
	while (isspace((unsigned char)*s))
		s++;
	for (n = 0; isalnum((unsigned char)s[n]) || s[n] == '_'; n++)
		;
	if (n == 0 || n >= sizeof p->name)
		return 0;
	memcpy(p->name, s, n);
	p->name[n] = '\0';
	p->value = strtol(s + n, &end, 10);
	if (end == s + n)
		return 0;
	p->nallowed = 0;
	for (s = tune + 8; p->nallowed < KS_TUNE_MAX_VALUES; s = end) {
		long v = strtol(s, &end, 10);

		if (end == s)
			break;
		p->allowed[p->nallowed++] = v;
	}
	return p->nallowed > 0;
}

int
ks_tune_parse(const char *src, struct ks_param *p, int max)
{
	int n = 0;

	for (const char *line = src; *line && n < max; ) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		n += parse_line(line, len, &p[n]);
		line += len + (nl != NULL);
	}
	return n;
}

long
ks_tune_get(const struct ks_param *p, int n, const char *name, long dflt)
{
	for (int i = 0; i < n; i++)
		if (strcmp(p[i].name, name) == 0)
			return p[i].value;
	return dflt;
}

/* Replaces the number after "#define NAME" on the line holding it. */
static int
apply_one(struct ks_buf *out, const char *line, size_t len, const char *name, long value)
{
	struct ks_param p;
	size_t i;

	if (!parse_line(line, len, &p) || strcmp(p.name, name) != 0)
		return 0;
	/* parse_line accepted the line, so "define NAME" is in it, then a number. */
	i = (size_t)(strstr(line, "define") - line) + 6;
	while (isspace((unsigned char)line[i]))
		i++;
	i += strlen(name);
	while (line[i] == ' ' || line[i] == '\t')
		i++;
	ks_buf_add(out, line, i);
	ks_buf_printf(out, "%ld", value);
	if (line[i] == '-' || line[i] == '+')
		i++;
	while (i < len && isdigit((unsigned char)line[i]))
		i++;
	ks_buf_add(out, line + i, len - i);
	return 1;
}

char *
ks_tune_apply(const char *src, const char *const *names, const long *values, int n)
{
	struct ks_buf out = { 0 };
	int found[64] = { 0 };

	if (n > 64)
		return NULL;
	ks_buf_add(&out, "", 0);
	for (const char *line = src; *line; ) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		int done = 0;

		for (int i = 0; i < n && !done; i++)
			if ((done = apply_one(&out, line, len, names[i], values[i])))
				found[i] = 1;
		if (!done)
			ks_buf_add(&out, line, len);
		if (nl)
			ks_buf_add(&out, "\n", 1);
		line += len + (nl != NULL);
	}
	for (int i = 0; i < n; i++)
		if (!found[i]) {
			ks_buf_free(&out);
			return NULL;
		}
	return out.s;
}
