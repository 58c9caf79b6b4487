/*
 * ks_edit.c: a reply's SEARCH/REPLACE edits, in the format aider and
 * OpenEvolve use, applied to the code they were written against:
 *
 *	<<<<<<< SEARCH
 *	the exact old lines
 *	=======
 *	the new lines
 *	>>>>>>> REPLACE
 *
 * A model changing twenty lines of a thousand-line kernel writes the
 * twenty, not the thousand.  Blocks apply in order, each to the code as
 * the blocks before it left it, and each SEARCH must match whole lines
 * exactly once there: a block that matches nowhere, or in two places,
 * makes the whole reply unusable (the model is told which and why).
 * Text outside the blocks (prose, fences, a file name) is ignored.
 */
#include <stdlib.h>
#include <string.h>

#include "ks_ask.h"

#define SEARCH_MARK  "<<<<<<< SEARCH"
#define DIVIDER_MARK "======="
#define REPLACE_MARK ">>>>>>> REPLACE"

/* whether the line at s (len bytes, no newline) is mark, give or take trailing blanks and a CR */
static int
is_mark(const char *s, size_t len, const char *mark)
{
	size_t m = strlen(mark);

	if (len < m || strncmp(s, mark, m) != 0)
		return 0;
	for (size_t i = m; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return 0;
	return 1;
}

int
ks_edit_count(const char *reply)
{
	char *text = ks_strip_reasoning(reply);
	int n = 0;

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		n += is_mark(p, len, SEARCH_MARK);
		p += len + (nl != NULL);
	}
	free(text);
	return n;
}

/* The places where the lines of s begin a line of text: how many, and the first. */
static int
line_matches(const char *text, const char *s, const char **first)
{
	int n = 0;

	*first = NULL;
	for (const char *p = text; (p = strstr(p, s)); p++) {
		if (p != text && p[-1] != '\n')
			continue;
		if (n++ == 0)
			*first = p;
	}
	return n;
}

/* the first line of s, for a message: at most 60 characters */
static char *
first_line(const char *s)
{
	size_t len = strcspn(s, "\r\n");

	return ks_estrndup(s, len > 60 ? 60 : len);
}

/* Replaces the one place search matches in *code by replace; -1 with *why when it is not one. */
static int
apply_block(char **code, const char *search, const char *replace, int nth, char **why)
{
	const char *at;
	char *line;
	int n;

	if (!*search) {
		*why = ks_easprintf("edit %d has an empty SEARCH section: copy the lines it replaces", nth);
		return -1;
	}
	if ((n = line_matches(*code, search, &at)) != 1) {
		line = first_line(search);
		*why = n == 0 ?
		    ks_easprintf("the SEARCH section of edit %d (first line '%s') matches no lines of the kernel: "
		    "copy them exactly, whitespace included", nth, line) :
		    ks_easprintf("the SEARCH section of edit %d (first line '%s') matches %d places in the kernel: "
		    "include enough lines around it to match one", nth, line, n);
		free(line);
		return -1;
	}
	size_t head = (size_t)(at - *code), slen = strlen(search), rlen = strlen(replace);
	size_t tail = strlen(at + slen);
	char *out = ks_emalloc(head + rlen + tail + 1);

	memcpy(out, *code, head);
	memcpy(out + head, replace, rlen);
	memcpy(out + head + rlen, at + slen, tail + 1);
	free(*code);
	*code = out;
	return 0;
}

enum part { OUTSIDE, SEARCH, REPLACE };

char *
ks_edit_apply(const char *base, const char *reply, int *nedits, char **why)
{
	char *text = ks_strip_reasoning(reply);
	size_t blen = strlen(base);
	/* the last line of the base matches with its newline like every other */
	char *code = ks_easprintf("%s%s", base, blen && base[blen - 1] != '\n' ? "\n" : "");
	struct ks_buf search = { 0 }, replace = { 0 };
	enum part part = OUTSIDE;
	int n = 0;

	*why = NULL;
	for (const char *p = text; *p && !*why;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p), keep = len;

		if (keep && p[keep - 1] == '\r')
			keep--;
		if (is_mark(p, len, SEARCH_MARK)) {
			if (part != OUTSIDE)
				*why = ks_easprintf("edit %d is not closed by '%s' before the next '%s'", n, REPLACE_MARK,
				    SEARCH_MARK);
			part = SEARCH;
			n++;
			search.len = replace.len = 0;
			ks_buf_add(&search, "", 0);
			ks_buf_add(&replace, "", 0);
		} else if (part == SEARCH && is_mark(p, len, DIVIDER_MARK)) {
			part = REPLACE;
		} else if (part == REPLACE && is_mark(p, len, REPLACE_MARK)) {
			part = OUTSIDE;
			apply_block(&code, search.s, replace.s, n, why);
		} else if (part != OUTSIDE) {
			struct ks_buf *b = part == SEARCH ? &search : &replace;

			ks_buf_add(b, p, keep);
			ks_buf_add(b, "\n", 1);
		}
		p += len + (nl != NULL);
	}
	if (!*why && part != OUTSIDE)
		*why = ks_easprintf("edit %d is not closed by '%s'", n, part == SEARCH ? DIVIDER_MARK : REPLACE_MARK);
	if (!*why && n == 0)
		*why = ks_easprintf("the reply holds no '%s' block", SEARCH_MARK);
	ks_buf_free(&search);
	ks_buf_free(&replace);
	free(text);
	if (*why) {
		free(code);
		return NULL;
	}
	*nedits = n;
	return code;
}
