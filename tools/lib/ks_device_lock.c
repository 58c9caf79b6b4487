/*
 * ks_device_lock.c - one harness at a time per device: the locks of the
 * CPU and of each GPU, in KS_LOCK_DIR, that benches and builds take.
 */
#include <stdlib.h>
#include <unistd.h>

#include "ks_build.h"

/*
 * The lock of one device: "cpu", or a GPU's index.  The host's name is in
 * it: a KS_LOCK_DIR that the nodes of a cluster share must not make the
 * benches of two machines wait for each other.
 */
static char *
lock_path(const char *device, int index)
{
	const char *dir = getenv("KS_LOCK_DIR");
	char *host = ks_host_name(), *p;

	if (!dir || !*dir)
		dir = "/tmp";
	if (index < 0)
		p = ks_easprintf("%s/kernel-scientist-bench-%s-%s.lock", dir, host, device);
	else
		p = ks_easprintf("%s/kernel-scientist-bench-%s-%s-%d.lock", dir, host, device, index);
	free(host);
	return p;
}

/*
 * Builds share the CPU's lock (ks_build.h).  A GPU bench takes its GPU's lock,
 * never the CPU's, so that builds go on beside it: its times are the
 * GPU's own events, around calls queued behind a pad kernel that keeps
 * the host's launches off the clock, and its host thread needs one core,
 * which a compiler beside it leaves on a GPU machine's many.  Holding
 * every build back for every GPU bench would idle the CPU for the whole
 * search; bench.json's "machine" still records the CPU's load there.
 */
int
ks_cpu_share(const struct ks_target *t, const char *what)
{
	char *path, *who;
	int rc;

	if (ks_target_external(t))
		return KS_NO_LOCK;
	path = lock_path("cpu", -1);
	who = ks_easprintf("%s %ld on %s", ks_progname, (long)getpid(), what);
	rc = ks_lock_shared(path, who);
	free(who);
	free(path);
	return rc;
}

void
ks_cpu_unshare(int lock)
{
	if (lock >= 0)
		close(lock);
}

/* the first free device, its lock held until exit (ks_build.h) */
int
ks_device_take(const struct ks_target *t, const struct ks_gpus *g, const char *what, char **desc)
{
	char *paths[KS_LOCK_ANY_MAX] = { 0 }, *who;
	int n = g->n ? g->n : 1, got, i;
	const char *var = ks_target_visibility_var(t);

	*desc = NULL;
	for (i = 0; i < n; i++)
		paths[i] = lock_path(t->device, g->n ? g->index[i] : -1);
	who = ks_easprintf("%s %ld on %s", ks_progname, (long)getpid(), what);
	got = ks_lock_any(paths, n, who);
	free(who);
	for (i = 0; i < n; i++)
		free(paths[i]);
	if (got < 0 || !g->n)
		return got < 0 ? -1 : 0;
	if (g->slurm) {
		/* the node's numbering; the runtime sees what Slurm showed it, left alone */
		*desc = ks_easprintf("%s GPU %d (Slurm's, %s=%s)", t->device, g->index[0], g->slurm, getenv(g->slurm));
		return 0;
	}
	char *index = ks_easprintf("%d", g->index[got]);

	if (setenv(var, index, 1) < 0) {
		ks_warn("cannot set %s", var);
		free(index);
		return -1;
	}
	*desc = ks_easprintf("%s GPU %s (%s=%s)", t->device, index, var, index);
	free(index);
	return 0;
}
