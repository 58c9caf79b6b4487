/*
 * ks_device_lock.c - one harness at a time per device: the locks of the
 * CPU and of each GPU, in KS_LOCK_DIR, that benches and builds take.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ks_build.h"

/*
 * The lock of one device: "cpu", or a GPU's index.  The host's name is in
 * it: a KS_LOCK_DIR that the nodes of a cluster share must not make the
 * benches of two machines wait for each other.
 */
static char *
device_file(const char *device, int index, const char *suffix)
{
	const char *dir = getenv("KS_LOCK_DIR");
	char *host = ks_host_name(), *p;

	if (!dir || !*dir)
		dir = "/tmp";
	if (index < 0)
		p = ks_easprintf("%s/kernel-scientist-bench-%s-%s.%s", dir, host, device, suffix);
	else
		p = ks_easprintf("%s/kernel-scientist-bench-%s-%s-%d.%s", dir, host, device, index, suffix);
	free(host);
	return p;
}

static char *
lock_path(const char *device, int index)
{
	return device_file(device, index, "lock");
}

/*
 * A GPU of KS_GPUS that failed (ks_device_failed) is marked so beside its
 * lock, and no bench of this host takes it until the mark is removed: a
 * GPU gone from the bus stays gone, and each bench on it would fail.
 */
static char *
failed_path(const char *device, int index)
{
	return device_file(device, index, "failed");
}

/* the device this process holds: its position in KS_GPUS (-1: none, or no KS_GPUS) and its lock */
static struct {
	int at, lock;
} held = { -1, -1 };

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

/* g's GPUs not marked failed, their positions in at[]; how many (said when none is left) */
static int
usable(const struct ks_target *t, const struct ks_gpus *g, int *at)
{
	int n = 0;
	char *first = NULL;

	for (int i = 0; i < g->n; i++) {
		char *f = failed_path(t->device, g->index[i]);

		if (access(f, F_OK) != 0)
			at[n++] = i;
		else if (!first)
			first = ks_estrdup(f);
		free(f);
	}
	if (!n)
		ks_warnx("every GPU of KS_GPUS is marked failed ('%s' and the others): bench where a GPU works, or "
		    "remove the marks once the GPUs are back", first);
	free(first);
	return n;
}

/* the first free device, its lock held until exit or ks_device_failed (ks_build.h) */
int
ks_device_take(const struct ks_target *t, const struct ks_gpus *g, const char *what, char **desc)
{
	char *paths[KS_LOCK_ANY_MAX] = { 0 }, *who;
	int at[KS_LOCK_ANY_MAX], n = 1, got, i;
	const char *var = ks_target_visibility_var(t);

	*desc = NULL;
	at[0] = -1;
	if (g->n && !g->slurm && (n = usable(t, g, at)) == 0)
		return -1;
	if (g->slurm)
		at[0] = 0;
	for (i = 0; i < n; i++)
		paths[i] = lock_path(t->device, g->n ? g->index[at[i]] : -1);
	who = ks_easprintf("%s %ld on %s", ks_progname, (long)getpid(), what);
	got = ks_lock_any(paths, n, who, &held.lock);
	free(who);
	for (i = 0; i < n; i++)
		free(paths[i]);
	if (got < 0 || !g->n)
		return got < 0 ? -1 : 0;
	held.at = at[got];
	got = held.at;
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

int
ks_device_failed(const struct ks_target *t, const struct ks_gpus *g, const char *desc, const char *why)
{
	char *path, *text;
	int rc = -1, at[KS_LOCK_ANY_MAX];

	/* one GPU only, or Slurm's: nothing to go on with (make stops; the rerun benches again) */
	if (held.at < 0 || g->slurm || g->n < 2) {
		ks_warnx("%s failed: %s; no bench.json: bench again once it works", desc ? desc : t->device, why);
		return -1;
	}
	path = failed_path(t->device, g->index[held.at]);
	text = ks_easprintf("%s\n%s at %lld by %s %ld\n", why, desc, (long long)time(NULL), ks_progname,
	    (long)getpid());
	if (ks_file_write_atomic(path, text, strlen(text)) < 0) {
		ks_warn("cannot mark %s failed in '%s'", desc, path);
	} else {
		close(held.lock);
		held.lock = held.at = -1;
		ks_warnx("%s failed: %s; marked in '%s' (remove it once the GPU is back)", desc, why, path);
		rc = usable(t, g, at) > 0 ? 0 : -1;
	}
	free(text);
	free(path);
	return rc;
}
