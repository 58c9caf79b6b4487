/*
 * ks_devices.c - the devices a target's benches may use, found on this
 * machine or given by KS_GPUS or Slurm: read without taking any, so that
 * ks_settings_check checks KS_GPUS in a tool that locks nothing
 * (ks_device_lock.c takes them).
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "ks_build.h"

int
ks_target_device_present(const struct ks_target *t)
{
	if (strcmp(t->device, "nvidia") == 0)
		return ks_exists("/dev/nvidiactl") || ks_exists("/dev/nvidia0");
	if (strcmp(t->device, "amd") == 0)
		return ks_exists("/dev/kfd");
	return 1;
}

/* how many /dev/<dir>/<prefix>N entries there are */
static int
count_devices(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t len = strlen(prefix);
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (strncmp(e->d_name, prefix, len) == 0 && e->d_name[len] &&
		    strspn(e->d_name + len, "0123456789") == strlen(e->d_name + len))
			n++;
	closedir(d);
	return n;
}

/*
 * Where Slurm gave this step its GPUs (srun --gres=gpu:1), it has shown
 * the runtime those alone (CUDA_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES),
 * numbered as the node numbers them or, under a device cgroup, from 0;
 * SLURM_STEP_GPUS (else SLURM_JOB_GPUS) names them by their index on the
 * node either way (srun(1)).  The lock to take is the first one's (the
 * runtime's device 0, on which the runner runs), by that index: the lock
 * a ks-bench outside Slurm takes for that GPU, so that two steps on two
 * GPUs of a node never wait for each other.  1 when Slurm gave GPUs.
 */
static int
slurm_gpus(struct ks_gpus *g)
{
	const char *var = "SLURM_STEP_GPUS", *ids = getenv(var);
	char *first;
	long v;
	int got = 0;

	if (!ids || !*ids)
		ids = getenv(var = "SLURM_JOB_GPUS");
	if (!ids || !*ids)
		return 0;
	/* "2,3" or "2-3": the first */
	first = ks_estrndup(ids, strcspn(ids, ",-"));
	if (ks_parse_int(first, 0, 4095, &v) == 0) {
		g->index[0] = (int)v;
		g->n = 1;
		g->slurm = var;
		/* the allocation says the GPU is there, as KS_GPUS does */
		g->given = 1;
		got = 1;
	}
	free(first);
	return got;
}

/* KS_GPUS, else the machine's GPUs (ks_build.h) */
int
ks_gpus_load(const struct ks_target *t, struct ks_gpus *g)
{
	const char *given = getenv("KS_GPUS"), *p;
	int amd = strcmp(t->device, "amd") == 0, n;
	char *end;

	memset(g, 0, sizeof *g);
	if (strcmp(t->device, "cpu") == 0 || ks_target_external(t))
		return 0;
	if (given && *given) {
		for (p = given; *p; p = *end ? end + 1 : end) {
			long v = strtol(p, &end, 10);

			if (end == p || v < 0 || v > 4095 || (*end && *end != ',') ||
			    g->n == KS_LOCK_ANY_MAX) {
				ks_warnx("bad KS_GPUS '%s': expected GPU indices such as 0,1,3 (at most %d)",
				    given, KS_LOCK_ANY_MAX);
				return -1;
			}
			g->index[g->n++] = (int)v;
		}
		g->given = 1;
		return 0;
	}
	if (slurm_gpus(g) || getenv(ks_target_visibility_var(t)))
		return 0;
	n = amd ? count_devices("/dev/dri", "renderD") : count_devices("/dev", "nvidia");
	for (g->n = 0; g->n < n && g->n < KS_LOCK_ANY_MAX; g->n++)
		g->index[g->n] = g->n;
	return 0;
}
