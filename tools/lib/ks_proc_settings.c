/*
 * ks_proc_settings.c - the settings of the sandbox and of the launchers,
 * read without running anything: KS_SANDBOX, and a launcher's words
 * (KS_LAUNCH, KS_LAUNCH_BUILD; KS_EVAL_CMD's are split the same way).
 * The tools that sandbox or launch read them here, and so does
 * ks_settings_check before a run, in ks-init, which holds no sandbox, no
 * launcher and no child process of its own.
 */
#include <stdlib.h>
#include <string.h>

#include "ks_proc.h"

/* KS_SANDBOX (ks_proc.h) */
const char *
ks_sandbox_mode(void)
{
	const char *want = getenv("KS_SANDBOX");

	if (!want || !*want)
		return "";
	if (strcmp(want, "bwrap") != 0 && strcmp(want, "basic") != 0) {
		ks_warnx("bad KS_SANDBOX '%s': expected bwrap or basic", want);
		return NULL;
	}
	return want;
}

/* the words of a launcher (ks_proc.h) */
char **
ks_launch_words(const char *var, const char *s)
{
	struct ks_buf w = { 0 };
	char **argv = NULL, quote = 0;
	size_t n = 0;
	int in_word = 0;

	for (const char *p = s;; p++) {
		if (quote == '\'' && *p && *p != '\'') {
			ks_buf_add(&w, p, 1);
			continue;
		}
		if (!*p && quote) {
			ks_warnx("%s '%s': a %c quote is not closed", var, s, quote);
			goto bad;
		}
		if (!*p || (!quote && strchr(" \t\n", *p))) {
			if (in_word)
				ks_argv_add(&argv, &n, ks_estrndup(w.s ? w.s : "", w.len));
			w.len = 0;
			in_word = 0;
			if (!*p)
				break;
			continue;
		}
		in_word = 1;
		if (*p == quote) {
			quote = 0;
		} else if (!quote && (*p == '\'' || *p == '"')) {
			quote = *p;
		} else if (*p == '\\' && p[1] && (!quote || strchr("\"\\$`", p[1]))) {
			ks_buf_add(&w, ++p, 1);
		} else if (strchr(quote ? "$`" : "$`;&|<>()*?[]{}~#", *p)) {
			/* what a shell would expand or run: refused, never done behind the user's back */
			ks_warnx("%s '%s': '%c' is not expanded (its words are split as a shell "
			    "would, but no shell runs them): quote it with '...'", var, s, *p);
			goto bad;
		} else {
			ks_buf_add(&w, p, 1);
		}
	}
	ks_buf_free(&w);
	if (!argv)
		ks_warnx("%s '%s' holds no words", var, s);
	return argv;
bad:
	ks_buf_free(&w);
	ks_argv_free(argv);
	return NULL;
}

/* var's launcher: NULL when it is unset or blank, nothing launched (ks_proc.h) */
const char *
ks_launcher(const char *var)
{
	const char *value = getenv(var);

	return !value || strspn(value, " \t\n") == strlen(value) ? NULL : value;
}

int
ks_launch_check(const char *var)
{
	const char *value = ks_launcher(var);
	char **words;

	if (!value)
		return 0;
	if (!(words = ks_launch_words(var, value)))
		return -1;
	ks_argv_free(words);
	return 0;
}
