/*
 * ks_settings_check.c - every setting of every stage, checked before a run.
 *
 * A stage reads its settings when it starts, and a bad one stops it there
 * with one line: KS_IMPLEMENT_MODEL='m:0' only after select and
 * hypothesize had called (and billed) the model, KS_TIME_CAP_S=fast only
 * after the seed had compiled, a run left overnight found stopped at its
 * first hour.  ks-init, which make generation and make check run first,
 * calls this: each stage's rules, read by the same functions the stages
 * call, with the run's problem and target; nothing asked, built, written
 * or said when the settings are good.
 */
#include <stdlib.h>
#include <string.h>

#include "ks_stages.h"

/*
 * Whether make runs ks-profile on target t: KS_PROFILE 1 always, 0 never,
 * auto (make's default, which it does not export) where the target has a
 * profiler: the GPUs (ks-profile's own rule).
 */
static int
profiled(const struct ks_target *t)
{
	const char *mode = getenv("KS_PROFILE");

	if (mode && strcmp(mode, "0") == 0)
		return 0;
	if (mode && strcmp(mode, "1") == 0)
		return 1;
	return strcmp(t->device, "nvidia") == 0 || strcmp(t->device, "amd") == 0;
}

/* select, hypothesize and implement: their LLM settings and the settings of how they ask */
static int
llm_stages_check(const char *root)
{
	static const char *const stages[] = { "select", "hypothesize", "implement" };
	size_t budget;
	double stop;
	int online = 0;

	for (size_t i = 0; i < sizeof stages / sizeof stages[0]; i++) {
		int r = ks_llm_check(stages[i], root);

		if (r < 0)
			return -1;
		online |= r == 0;
	}
	/* KS_CONTEXT_CHARS shapes a prompt: read only where a model is asked */
	if (ks_sol_stop_setting(&stop) < 0 || (online && ks_ctx_budget(&budget) < 0) || ks_repair_tries() < 0)
		return -1;
	return 0;
}

/* build, bench and profile on target t, problem p's limits under the bench's */
static int
machine_stages_check(const struct ks_problem *p, const struct ks_target *t)
{
	struct ks_bench_settings bench;
	struct ks_load load;
	struct ks_gpus gpus;
	int external = ks_target_external(t), rc;
	double limit;

	if (ks_launch_check("KS_LAUNCH_BUILD") < 0 || ks_target_arch_check(t) < 0 ||
	    (external && ks_external_settings() < 0))
		return -1;
	if (ks_bench_settings_load(p, &bench) < 0 || ks_launch_check("KS_LAUNCH") < 0 ||
	    ks_gpus_load(t, &gpus) < 0 || (!external && !ks_sandbox_mode()))
		return -1;
	rc = ks_load_open(&load, t);
	ks_load_close(&load);
	if (rc < 0 || (profiled(t) && ks_profile_timeout(&limit) < 0))
		return -1;
	return 0;
}

int
ks_settings_check(const char *root, const char *problem, const char *target)
{
	struct ks_run run = { 0 };
	struct ks_problem p = { 0 };
	const struct ks_target *t;
	char *path = ks_easprintf("%s/run.json", root);
	int rc = -1;

	/* a population's own problem and target; others given are ks-init's to refuse, naming both */
	if (ks_exists(path)) {
		if (ks_run_load(root, &run) < 0)
			goto out;
		if ((problem && strcmp(problem, run.problem) != 0) || (target && strcmp(target, run.target) != 0)) {
			rc = 0;
			goto out;
		}
		problem = run.problem;
		target = run.target;
	}
	if (ks_problem_load(problem ? problem : "sgemm", &p) < 0)
		goto out;
	if (!target) {
		const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(p.json, "targets"), 0);

		target = cJSON_IsString(first) ? first->valuestring : "cpu";
	}
	if ((t = ks_target_find(target)) && llm_stages_check(root) == 0 && machine_stages_check(&p, t) == 0)
		rc = 0;
out:
	ks_problem_free(&p);
	ks_run_free(&run);
	free(path);
	return rc;
}
