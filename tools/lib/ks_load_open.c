/*
 * ks_load_open.c - the settings of the look at the machine around a
 * bench (ks_load.c): KS_BENCH_SETTLE_S, KS_BENCH_BUSY_MAX, KS_BENCH_PROC.
 * ks-bench reads them here, and so does ks_settings_check before a run,
 * in ks-init, which looks at no machine and runs no nvidia-smi.
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "ks_build.h"

#define SETTLE_MAX_S	3600
#define SETTLE_DEFAULT_S 30
#define BUSY_DEFAULT	0.25

/* KS_BENCH_SETTLE_S, KS_BENCH_BUSY_MAX (ks_build.h) */
int
ks_load_open(struct ks_load *l, const struct ks_target *t)
{
	const char *proc = getenv("KS_BENCH_PROC");
	char settle_what[96];

	memset(l, 0, sizeof *l);
	snprintf(settle_what, sizeof settle_what, "the seconds to wait for a busy machine, 0 (no wait) to %d",
	    SETTLE_MAX_S);
	/* (positive: DBL_MIN, the least positive double, and up) */
	if (ks_env_num("KS_BENCH_SETTLE_S", 0, SETTLE_MAX_S, SETTLE_DEFAULT_S, settle_what, &l->settle_s) < 0 ||
	    ks_env_num("KS_BENCH_BUSY_MAX", DBL_MIN, DBL_MAX, BUSY_DEFAULT, "a positive number (the CPUs' worth of "
	    "other processes' work a bench may meet)", &l->busy_max) < 0)
		return -1;
	l->proc = proc && *proc ? proc : "/proc";
	l->cpu = strcmp(t->device, "cpu") == 0;
	l->nvidia = strcmp(t->device, "nvidia") == 0;
	l->amd = strcmp(t->device, "amd") == 0;
	return 0;
}

void
ks_load_close(struct ks_load *l)
{
	free(l->smi);
	free(l->gpu);
	free(l->gpu_error);
	memset(l, 0, sizeof *l);
}
