/*
 * ks-init - create a population directory for a problem and a target,
 * or check that an existing one was made for them.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ks_stages.h"

struct opts {
	const char *problem, *target, *out;
	long k;
};

static int
on_flag(int ch, const char *value, void *arg)
{
	struct opts *o = arg;

	switch (ch) {
	case 'k':
		if (ks_parse_int(value, 1, KS_MAX_K, &o->k) < 0) {
			ks_warnx("K must be an integer from 1 to %d, not '%s'", KS_MAX_K, value);
			return 2;
		}
		break;
	case 'o':
		o->out = value;
		break;
	case 'p':
		o->problem = value;
		break;
	case 't':
		o->target = value;
		break;
	}
	return 0;
}

/* An existing run.json: every option given must agree with it. */
static int
check_existing(const char *root, const char *problem, const char *target, long k)
{
	struct ks_run run;
	int rc = 0;

	if (ks_run_load(root, &run) < 0)
		return 1;
	if (problem && strcmp(problem, run.problem) != 0) {
		ks_warnx("'%s' was made for problem '%s', not '%s': use another POP", run.path, run.problem, problem);
		rc = 1;
	} else if (target && strcmp(target, run.target) != 0) {
		ks_warnx("'%s' was made for target '%s', not '%s': use another POP", run.path, run.target, target);
		rc = 1;
	} else if (k && k != run.k) {
		ks_warnx("'%s' was made with K=%ld, not K=%ld: pass K=%ld or use another POP", run.path, run.k, k, run.k);
		rc = 1;
	}
	ks_run_free(&run);
	return rc;
}

static int
target_supported(const struct ks_problem *p, const char *target)
{
	const cJSON *t;

	cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(p->json, "targets"))
		if (cJSON_IsString(t) && strcmp(t->valuestring, target) == 0)
			return 1;
	return 0;
}

/* 1 when code holds an identifier that starts with prefix. */
static int
names_prefix(const char *code, const char *prefix)
{
	size_t n = strlen(prefix);

	for (const char *q = code; (q = strstr(q, prefix)); q += n)
		if (q == code || !(isalnum((unsigned char)q[-1]) || q[-1] == '_'))
			return 1;
	return 0;
}

/*
 * The seed's knobs as the offline proposer reads them: a line meant as
 * one that is not (a colon left out) would be passed over without a
 * word, and the search would have nothing, or less, to turn.
 */
static int
knobs_valid(const char *path, const char *code)
{
	long line;
	const char *why = ks_tune_lint(code, &line);

	if (why)
		ks_warnx("'%s:%ld': %s: a tunable parameter is written '#define NAME VALUE /* ks-tune: V1 V2 ... */'",
		    path, line, why);
	return why == NULL;
}

/*
 * The task a model reads is there: without it the first LLM call fails,
 * a generation into the run.
 */
static int
task_valid(const struct ks_problem *p)
{
	char *path = ks_problem_file(p, "task");
	int ok = path && ks_exists(path);

	if (path && !ok)
		ks_warnx("'%s': field \"task\": '%s' does not exist", p->path, path);
	free(path);
	return ok;
}

/*
 * The seed kernel is there, defines the entry point and writes its knobs
 * well, the task is there, each harness source is there, and one of them
 * names the reference <entry_name>_reference...: mistakes of a new
 * problem named before a run, not met as a seed recorded incorrect or a
 * stage that fails generations later.  The reference's name matters: the
 * static check keeps kernels from calling names with _reference in them,
 * and any other name would be theirs to call.  Target external runs no
 * harness here (its evaluator has its own): its problem needs the seed
 * and the task alone.
 */
static int
problem_files_valid(const struct ks_problem *p, int external)
{
	char *path = ks_problem_file(p, "seed_kernel"), *code = path ? ks_file_read(path, NULL) : NULL;
	char *ref = ks_easprintf("%s_reference", p->entry_name);
	const cJSON *src;
	int ok = code != NULL, named = 0;

	if (code && !ks_code_defines(code, p->entry_name)) {
		ks_warnx("'%s': the seed kernel '%s' does not define the entry point '%s' (entry_name)", p->path, path,
		    p->entry_name);
		ok = 0;
	}
	ok = ok && knobs_valid(path, code) && task_valid(p);
	free(code);
	free(path);
	if (external) {
		free(ref);
		return ok;
	}
	cJSON_ArrayForEach(src, cJSON_GetObjectItemCaseSensitive(p->json, "harness_sources")) {
		char *h = cJSON_IsString(src) ? ks_easprintf("%s/%s", p->dir, src->valuestring) : NULL;

		if (ok && (!h || !ks_exists(h))) {
			ks_warnx("'%s': field \"harness_sources\": '%s' does not exist", p->path, h ? h : "(not a string)");
			ok = 0;
		} else if (ok && (code = ks_file_read(h, NULL))) {
			named |= names_prefix(code, ref);
			free(code);
		}
		free(h);
	}
	cJSON_ArrayForEach(src, cJSON_GetObjectItemCaseSensitive(p->json, "worker_sources")) {
		char *w = cJSON_IsString(src) ? ks_easprintf("%s/%s", p->dir, src->valuestring) : NULL;

		if (ok && (!w || !ks_exists(w))) {
			ks_warnx("'%s': field \"worker_sources\": '%s' does not exist", p->path, w ? w : "(not a string)");
			ok = 0;
		}
		free(w);
	}
	if (ok && !named) {
		ks_warnx("'%s': no harness source names the reference '%s' (the reference is named after "
		    "entry_name, so that no kernel may call it)", p->path, ref);
		ok = 0;
	}
	free(ref);
	return ok;
}

static const char *
stage_model(const char *stage_var)
{
	const char *m = getenv(stage_var);

	if (m && *m)
		return m;
	m = getenv("KS_MODEL");
	return m && *m ? m : "offline";
}

static int
create(const char *root, const char *out, const char *problem, const char *target, long k)
{
	struct ks_problem p;
	cJSON *run, *models;
	const char *kdir = getenv("KS_KERNELS_DIR");
	char when[32], *full;
	time_t now = time(NULL);
	int rc = 1;

	if (ks_problem_load(problem, &p) < 0)
		return 1;
	if (!target) {
		const cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(p.json, "targets"), 0);
		target = cJSON_IsString(t) ? t->valuestring : "cpu";
	}
	const struct ks_target *t = ks_target_find(target);

	if (!t || !problem_files_valid(&p, ks_target_external(t)))
		goto out;
	if (!target_supported(&p, target)) {
		ks_warnx("problem '%s' does not support target '%s' (see '%s')", problem, target, p.path);
		goto out;
	}
	if (kdir && !*kdir)
		kdir = NULL;
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	run = cJSON_CreateObject();
	cJSON_AddStringToObject(run, "problem", problem);
	cJSON_AddStringToObject(run, "target", target);
	cJSON_AddNumberToObject(run, "k", (double)k);
	/* a folder of one's own, so that the run goes on without it set again */
	if (kdir) {
		if (!(full = realpath(kdir, NULL))) {
			ks_warn("cannot resolve KS_KERNELS_DIR '%s'", kdir);
			cJSON_Delete(run);
			goto out;
		}
		cJSON_AddStringToObject(run, "kernels_dir", full);
		free(full);
	}
	models = cJSON_AddObjectToObject(run, "models");
	cJSON_AddStringToObject(models, "select", stage_model("KS_SELECT_MODEL"));
	cJSON_AddStringToObject(models, "hypothesize", stage_model("KS_HYPOTHESIZE_MODEL"));
	cJSON_AddStringToObject(models, "implement", stage_model("KS_IMPLEMENT_MODEL"));
	cJSON_AddStringToObject(run, "created_at", when);
	cJSON_AddStringToObject(run, "version", KS_VERSION);
	if (ks_mkdir_p(root) == 0 && ks_json_save(out, run) == 0) {
		ks_info("created '%s' (problem %s, target %s, K=%ld)", out, problem, target, k);
		rc = 0;
	}
	cJSON_Delete(run);
out:
	ks_problem_free(&p);
	return rc;
}

int
main(int argc, char *argv[])
{
	struct opts o = { 0 };
	struct ks_args_spec spec = { "[-p problem] [-t target] [-k K] [-o file] pop",
		"  Writes pop/run.json (problem, target, K) once; later calls check that\n"
		"  the options match it and change nothing.  Defaults: -p sgemm, the\n"
		"  problem's first target, -k 3.  See population(5).\n", "k:o:p:t:", on_flag, &o, NULL, NULL, NULL };
	const char *root = ks_args(argc, argv, &spec);
	char *out = o.out ? ks_estrdup(o.out) : ks_easprintf("%s/run.json", root);
	int rval;

	/* every stage's settings for the run, before make builds or asks anything: a bad one writes nothing */
	if (ks_settings_check(root, o.problem, o.target) < 0) {
		free(out);
		return 1;
	}
	if (ks_exists(out))
		rval = check_existing(root, o.problem, o.target, o.k);
	else
		rval = create(root, out, o.problem ? o.problem : "sgemm", o.target, o.k ? o.k : 3);
	free(out);
	if (ks_fclose_stdout() < 0)
		rval = 1;
	return rval;
}
