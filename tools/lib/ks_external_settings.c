/*
 * ks_external_settings.c - target external's settings: KS_EVAL_CMD and
 * KS_EVAL_CHECK_CMD, split into words as they run (the protocol is
 * ks_external.c's).  The judge reads them here, and so does
 * ks_settings_check before a run, in ks-init, which runs no evaluator.
 */
#include <stdlib.h>

#include "ks_build.h"

/* the words of the command variable var with path appended; NULL said (ks_build.h) */
char **
ks_external_argv(const char *var, const char *cmd, const char *path)
{
	char **argv;
	size_t n;

	/* split as KS_LAUNCH is: quotes, no shell, what one would expand refused (not passed on literally) */
	if (!(argv = ks_launch_words(var, cmd)))
		return NULL;
	for (n = 0; argv[n]; n++)
		;
	ks_argv_add(&argv, &n, ks_estrdup(path));
	return argv;
}

/* KS_EVAL_CMD; NULL said when it is not set (ks_build.h) */
const char *
ks_external_cmd(void)
{
	const char *cmd = getenv("KS_EVAL_CMD");

	if (!cmd || !*cmd) {
		ks_warnx("target external needs KS_EVAL_CMD, the command that judges a kernel (population(5), "
		    "\"External evaluators\")");
		return NULL;
	}
	return cmd;
}

int
ks_external_settings(void)
{
	const char *cmd = ks_external_cmd(), *check = getenv("KS_EVAL_CHECK_CMD");
	char **argv;

	if (!cmd || !(argv = ks_external_argv("KS_EVAL_CMD", cmd, "kernel")))
		return -1;
	ks_argv_free(argv);
	if (check && *check) {
		if (!(argv = ks_external_argv("KS_EVAL_CHECK_CMD", check, "kernel")))
			return -1;
		ks_argv_free(argv);
	}
	return 0;
}
