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

#include "ks_pop.h"

/* What follows "#define" and its blanks in the line s, or NULL when s is no #define. */
static char *
after_define(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	if (*s++ != '#')
		return NULL;
	while (isspace((unsigned char)*s))
		s++;
	if (strncmp(s, "define", 6) != 0 || !isspace((unsigned char)s[6]))
		return NULL;
	s += 6;
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/*
 * 1 when a line without "ks-tune:" was meant as a knob: "ks-tune" before
 * a number ("ks-tune 1 2", "ks-tune= 1 2"), or a #define that names it
 * in another spelling ("ks_tune:", "KS-TUNE:").  Prose that names
 * ks-tune ("the lines marked ks-tune are the knobs") is not.
 */
static int
meant_as_knob(const char *line, int is_define)
{
	const char *t = strstr(line, "ks-tune");

	if (t) {
		t += 7 + strspn(t + 7, " \t=");
		if (isdigit((unsigned char)t[0]) || (t[0] == '-' && isdigit((unsigned char)t[1])))
			return 1;
	}
	return is_define && (strcasestr(line, "ks-tune") || strcasestr(line, "ks_tune") || strcasestr(line, "kstune"));
}

/*
 * Parses one line; 1 when it declares a parameter.  A line meant as a
 * knob that declares none is a knob mistyped, which the offline proposer
 * would pass over without a word: *why says what is wrong with it.
 */
static int
parse_line(const char *line, size_t len, struct ks_param *p, const char **why)
{
	char buf[512], *s, *tune, *end;
	size_t n;

	*why = NULL;
	if (len >= sizeof buf) {
		if (memmem(line, len, "ks-tune:", 8))
			*why = "the line is longer than 511 bytes";
		return 0;
	}
	memcpy(buf, line, len);
	buf[len] = '\0';
	s = after_define(buf);
	if (!(tune = strstr(buf, "ks-tune:"))) {
		if (meant_as_knob(buf, s != NULL))
			*why = "no 'ks-tune:' (with its colon) in it";
		return 0;
	}
	if (!s) {
		*why = "'ks-tune:' on a line that is not a #define";
		return 0;
	}
	for (n = 0; isalnum((unsigned char)s[n]) || s[n] == '_'; n++)
		;
	if (n == 0 || n >= sizeof p->name) {
		*why = n ? "the name is longer than 63 characters" : "the #define names nothing";
		return 0;
	}
	memcpy(p->name, s, n);
	p->name[n] = '\0';
	p->value = strtol(s + n, &end, 10);
	if (end == s + n) {
		*why = "the #define's value is not an integer";
		return 0;
	}
	p->nallowed = 0;
	for (s = tune + 8; p->nallowed < KS_TUNE_MAX_VALUES; s = end) {
		long v = strtol(s, &end, 10);

		if (end == s)
			break;
		p->allowed[p->nallowed++] = v;
	}
	if (p->nallowed == 0)
		*why = "no integer after 'ks-tune:'";
	return p->nallowed > 0;
}

int
ks_tune_parse(const char *src, struct ks_param *p, int max)
{
	int n = 0;

	for (const char *line = src; *line && n < max; ) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		const char *why;

		n += parse_line(line, len, &p[n], &why);
		line += len + (nl != NULL);
	}
	return n;
}

const char *
ks_tune_lint(const char *src, long *lineno)
{
	struct ks_param p;
	const char *why = NULL;

	*lineno = 0;
	for (const char *line = src; *line && !why; ) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		(*lineno)++;
		parse_line(line, len, &p, &why);
		line += len + (nl != NULL);
	}
	return why;
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
	const char *why;
	size_t i;

	if (!parse_line(line, len, &p, &why) || strcmp(p.name, name) != 0)
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
