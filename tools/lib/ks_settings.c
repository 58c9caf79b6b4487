/*
 * ks_settings.c - the stages' settings that no module of the library
 * reads for itself: the bench's limits (the environment over
 * problem.json's "limits"), implement's repairs, the characters of a
 * prompt's section, the profiler's time limit.  The stage that uses one
 * reads it here, and so does ks_settings_check (ks_settings_check.c)
 * before a run: each rule is written once.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ks_pop.h"

/*
 * A limit of the bench: the environment overrides problem.json's
 * "limits".  Counts (integer) must be whole numbers: 0.5 runs is a
 * mistake to name, not something to round to 0.
 */
static int
limit(const struct ks_problem *p, const char *env, const char *key, int integer, double dflt, double *out)
{
	const char *e = getenv(env), *what = integer ? "a positive integer" : "a positive number";
	const cJSON *limits = cJSON_GetObjectItemCaseSensitive(p->json, "limits");

	if (e && *e) {
		if (ks_parse_double(e, out) < 0 || *out <= 0 || (integer && *out != floor(*out))) {
			ks_warnx("%s must be %s, not '%s'", env, what, e);
			return -1;
		}
		return 0;
	}
	*out = dflt;
	if (!limits || !cJSON_GetObjectItemCaseSensitive(limits, key))
		return 0;
	if (ks_json_num(limits, key, p->path, out) < 0)
		return -1;
	if (*out <= 0 || (integer && *out != floor(*out))) {
		ks_warnx("'%s': limits.%s must be %s", p->path, key, what);
		return -1;
	}
	return 0;
}

int
ks_bench_settings_load(const struct ks_problem *p, struct ks_bench_settings *s)
{
	double mem, min_runs, fsize, procs;
	const char *vs = getenv("KS_VERSUS");

	memset(s, 0, sizeof *s);
	if (limit(p, "KS_TIME_CAP_S", "time_cap_s", 0, 2.0, &s->time_cap_s) < 0 ||
	    limit(p, "KS_BENCH_WARMUP_S", "warmup_s", 0, 0.05, &s->warmup_s) < 0 ||
	    limit(p, "KS_BENCH_FILE_MB", "file_mb", 1, 1024, &fsize) < 0 ||
	    limit(p, "KS_BENCH_PROCS", "procs", 1, 4096, &procs) < 0 ||
	    limit(p, "KS_BENCH_TIMEOUT_S", "bench_s", 0, 300, &s->timeout_s) < 0 ||
	    limit(p, "KS_BENCH_MEMORY_MB", "memory_mb", 1, 4096, &mem) < 0 ||
	    limit(p, "KS_MIN_RUNS", "min_runs", 1, 5, &min_runs) < 0)
		return -1;
	if (s->warmup_s > 1) {
		ks_warnx("KS_BENCH_WARMUP_S (or limits.warmup_s) must be at most 1 second, not %g", s->warmup_s);
		return -1;
	}
	s->mem_mb = (long)mem;
	s->min_runs = (long)min_runs;
	s->fsize_mb = (long)fsize;
	s->max_procs = (long)procs;
	if ((s->salt = getenv("KS_BENCH_SALT")) && (!*s->salt || strspn(s->salt, "0123456789") != strlen(s->salt))) {
		ks_warnx("bad KS_BENCH_SALT '%s': expected an unsigned integer (the salt of a bench.json)", s->salt);
		return -1;
	}
	if (vs && *vs && strcmp(vs, "0") != 0 && strcmp(vs, "1") != 0) {
		ks_warnx("bad KS_VERSUS '%s': expected 1 (time each candidate side by side with its base) or 0", vs);
		return -1;
	}
	s->versus_on = !vs || !*vs || strcmp(vs, "1") == 0;
	if ((s->batch = getenv("KS_BENCH_BATCH")) && !*s->batch)
		s->batch = NULL;
	if (s->batch && strcmp(s->batch, "auto") != 0 && (strspn(s->batch, "0123456789") != strlen(s->batch) ||
	    atol(s->batch) < 1 || atol(s->batch) > KS_BATCH_MAX)) {
		ks_warnx("bad KS_BENCH_BATCH '%s': expected auto or calls per timed sample, 1 to %d", s->batch,
		    KS_BATCH_MAX);
		return -1;
	}
	return 0;
}

int
ks_repair_tries(void)
{
	long v;

	return ks_env_int("KS_REPAIR_TRIES", 0, 10, 2, NULL, &v) < 0 ? -1 : (int)v;
}

int
ks_ctx_budget(size_t *budget)
{
	long v;

	if (ks_env_int("KS_CONTEXT_CHARS", 1000, 100000000L, KS_CONTEXT_CHARS_DEFAULT,
	    "an integer from 1000 to 100000000 (characters of one section of a prompt)", &v) < 0)
		return -1;
	*budget = (size_t)v;
	return 0;
}

int
ks_profile_timeout(double *s)
{
	return ks_env_num("KS_PROFILE_TIMEOUT_S", DBL_MIN, DBL_MAX, 600, "a positive number of seconds", s);
}
