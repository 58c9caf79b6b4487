/*
 * ks_bwrap.c - the harness shut in by bubblewrap, where it runs: a
 * read-only file system but its own directory, its own /proc, process
 * tree, network and IPC (KS_SANDBOX: bwrap, basic, or empty: bwrap where
 * it works, read by ks_proc_settings.c).  The basic sandbox under it is
 * ks_sandbox.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "ks_proc.h"

/* 1 when bubblewrap runs here with what the sandbox asks of it */
static int
bwrap_works(void)
{
	char *argv[] = { "bwrap", "--ro-bind", "/", "/", "--dev-bind", "/dev", "/dev", "--proc", "/proc",
		"--unshare-net", "--unshare-pid", "--die-with-parent", "true", NULL };
	struct ks_proc_opts o = { .timeout_s = 20 };
	struct ks_proc_result r;
	char *found = ks_find_in_path("bwrap");

	if (!found)
		return 0;
	free(found);
	return ks_proc_run(argv, &o, &r) == 0 && r.exited && r.status == 0;
}

char **
ks_sandbox_wrap(char **argv, const char *box, char **desc)
{
	const char *want = ks_sandbox_mode();
	char **out = NULL, *abox;
	size_t n = 0;

	*desc = NULL;
	if (!want)
		return NULL;
	if (strcmp(want, "basic") == 0 || (!*want && !bwrap_works())) {
		*desc = ks_estrdup("basic: minimal environment, own network namespace where permitted, "
		    "file-size, memory and process limits, own working directory");
		return argv;
	}
	if (*want && !bwrap_works()) {
		ks_warnx("KS_SANDBOX=bwrap, but bwrap does not run here (install bubblewrap; it needs namespaces)");
		return NULL;
	}
	if (!(abox = realpath(box, NULL))) {
		ks_warn("cannot resolve '%s'", box);
		return NULL;
	}
	const char *pre[] = { "bwrap", "--ro-bind", "/", "/", "--dev-bind", "/dev", "/dev", "--tmpfs", "/dev/shm",
		"--proc", "/proc", "--bind", abox, abox, "--chdir", abox, "--unshare-net", "--unshare-pid",
		"--unshare-ipc", "--die-with-parent", "--", NULL };
	for (const char **p = pre; *p; p++)
		ks_argv_add(&out, &n, ks_estrdup(*p));
	for (char **a = argv; *a; a++)
		ks_argv_add(&out, &n, *a);
	free(argv);
	free(abox);
	*desc = ks_estrdup("bwrap: file system read-only but its own directory, no network, own process "
	    "tree, minimal environment, file-size, memory and process limits");
	return out;
}

void
ks_sandbox_signal_fix(char *const *argv, struct ks_proc_result *r)
{
	/* bubblewrap passes on a signal that killed the runner as 128 + its number */
	if (strcmp(argv[0], "bwrap") == 0 && r->exited && r->status > 128 && r->status < 128 + 65) {
		r->exited = 0;
		r->signaled = 1;
		r->sig = r->status - 128;
	}
}
