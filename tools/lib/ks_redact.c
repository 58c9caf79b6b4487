/*
 * ks_redact.c - an API key never reaches a message, a transcript or a log.
 *
 * Providers and proxies echo keys back: OpenAI's 401 says "Incorrect API
 * key provided: sk-VKMIs****wjh3.", a proxy may repeat the whole header.
 * Every text that leaves the LLM client goes through ks_redact, which
 * replaces with [redacted] each word that
 *   - shares a run of REDACT_RUN characters with the key (the key, a
 *     prefix or a suffix of it, the key inside a longer word),
 *   - is masked the way providers mask keys (holds "***"),
 *   - follows "Bearer ", "x-api-key:", "x-goog-api-key:", "api-key:" or
 *     "key=" (whatever the key: another one may be echoed too),
 * and the user and password of a URL (KS_LLM_URL=https://user:pw@proxy/).
 * A word is a run of characters other than white space, quotes and
 * brackets.  A model's reply (ks_redact_key) loses only what shares a run
 * with the key.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "ks_llm.h"

#define REDACT_RUN 6

static const char *const key_labels[] = { "bearer ", "x-api-key:", "x-goog-api-key:", "api-key:", "key=", NULL };

static int
word_char(char ch)
{
	return ch && !isspace((unsigned char)ch) && !strchr("\"'`()[]{}<>,;", ch);
}

/* 1 when s[0..n) and the key share a run of REDACT_RUN characters. */
static int
shares_run(const char *s, size_t n, const char *key)
{
	size_t kn = key ? strlen(key) : 0;

	if (kn < REDACT_RUN)
		return kn > 0 && n == kn && strncmp(s, key, n) == 0;
	for (size_t i = 0; i + REDACT_RUN <= n; i++)
		for (size_t j = 0; j + REDACT_RUN <= kn; j++)
			if (memcmp(s + i, key + j, REDACT_RUN) == 0)
				return 1;
	return 0;
}

static int
masked(const char *s, size_t n)
{
	for (size_t i = 0; i + 3 <= n; i++)
		if (s[i] == '*' && s[i + 1] == '*' && s[i + 2] == '*')
			return 1;
	return 0;
}

/* The length of a key label that ends at s + i, or 0. */
static size_t
label_before(const char *s, size_t i)
{
	for (const char *const *l = key_labels; *l; l++) {
		size_t n = strlen(*l);

		/* a space may follow the colon: "x-api-key: sk-..." */
		size_t at = i > 0 && s[i - 1] == ' ' && (*l)[n - 1] == ':' ? i - 1 : i;

		if (at >= n && strncasecmp(s + at - n, *l, n) == 0)
			return n;
	}
	return 0;
}

/*
 * A label inside the word w[0..n) ("?key=...", "x-api-key:sk-..."): sets
 * *at and *len to the value after it (up to '&' or the word's end) and
 * returns 1, or 0 when there is none.
 */
static int
label_inside(const char *w, size_t n, size_t *at, size_t *len)
{
	for (size_t p = 0; p < n; p++)
		for (const char *const *l = key_labels; *l; l++) {
			size_t ln = strlen(*l), e;

			if (p + ln >= n || strncasecmp(w + p, *l, ln) != 0 || strchr(*l, ' '))
				continue;
			/* key= only as a parameter: ?key=, &key=, or the word's start */
			if (strcmp(*l, "key=") == 0 && p > 0 && w[p - 1] != '?' && w[p - 1] != '&')
				continue;
			for (e = p + ln; e < n && w[e] != '&'; e++)
				;
			*at = p + ln;
			*len = e - *at;
			return 1;
		}
	return 0;
}

/*
 * A URL's user and password inside the word w[0..n) ("http://u:pw@host/"):
 * sets *at and *len to them and returns 1, or 0 when there are none.  Only
 * what stands between "://" and an '@' before the host's end counts: a '@'
 * in the path or the query is no password.
 */
static int
userinfo_inside(const char *w, size_t n, size_t *at, size_t *len)
{
	for (size_t p = 0; p + 3 < n; p++) {
		if (memcmp(w + p, "://", 3) != 0)
			continue;
		for (size_t e = p + 3; e < n && !strchr("/?#", w[e]); e++)
			if (w[e] == '@') {
				*at = p + 3;
				*len = e - *at;
				return *len > 0;
			}
		return 0;
	}
	return 0;
}

static char *
redact(const char *text, const char *key, int labels)
{
	struct ks_buf b = { 0 };
	size_t i = 0, n, at, len;

	if (!text)
		return NULL;
	ks_buf_add(&b, "", 0);
	while (text[i]) {
		if (!word_char(text[i])) {
			ks_buf_add(&b, text + i, 1);
			i++;
			continue;
		}
		for (n = 0; word_char(text[i + n]); n++)
			;
		if (shares_run(text + i, n, key) || (labels && (masked(text + i, n) || label_before(text, i)))) {
			ks_buf_puts(&b, "[redacted]");
		} else if (labels && (userinfo_inside(text + i, n, &at, &len) || label_inside(text + i, n, &at, &len))) {
			ks_buf_add(&b, text + i, at);
			ks_buf_puts(&b, "[redacted]");
			ks_buf_add(&b, text + i + at + len, n - at - len);
		} else {
			ks_buf_add(&b, text + i, n);
		}
		i += n;
	}
	return b.s;
}

char *
ks_redact(const char *text, const char *key)
{
	return redact(text, key, 1);
}

/*
 * A model's reply, as kept in transcripts and the cache: only what shares
 * a run with the key (code may hold "***" or "key=" of its own).
 */
char *
ks_redact_key(const char *text, const char *key)
{
	return redact(text, key, 0);
}
