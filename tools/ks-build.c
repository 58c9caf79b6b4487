/*
 * ks-build - compile one candidate with its problem's harness for the
 * population's target, and record the outcome in build.json.  A kernel
 * that does not compile is a result (exit 0); a missing compiler is not.
 * It writes build.json, build.log and the runner, and nothing else: the
 * kernel and candidate.json are ks-implement's (population(5)).
 */
#include <sys/stat.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_stages.h"

struct build {
	const char *dir;
	char *root;
	long gen, slot;
	struct ks_run run;
	struct ks_problem prob;
	const struct ks_target *target;
	char *kernel, *runner, *log;
};

/*
 * The record of a candidate that is not built because it breaks a rule:
 * ks-implement rejected it, or the static check refuses its source.
 * "rejected" says why, and ks-bench records the candidate as rejected.
 */
static cJSON *
not_built(const struct build *b, const char *diagnostics, const char *why)
{
	cJSON *res = cJSON_CreateObject();

	unlink(b->runner);
	cJSON_AddBoolToObject(res, "ok", 0);
	cJSON_AddStringToObject(res, "target", b->target->name);
	cJSON_AddNullToObject(res, "compiler");
	cJSON_AddNullToObject(res, "command");
	cJSON_AddNumberToObject(res, "seconds", 0);
	cJSON_AddStringToObject(res, "diagnostics", diagnostics);
	cJSON_AddNullToObject(res, "resources");
	cJSON_AddStringToObject(res, "rejected", why);
	return res;
}

/*
 * The static check's reason to refuse the kernel; NULL when it passes (or
 * could not be read: said).  The source as written, then as the compiler
 * reads it, preprocessed; its object is checked as it is built (ks_compile).
 */
static char *
refusal(const struct build *b)
{
	size_t size;
	char *src = ks_file_read(b->kernel, &size), *why;
	struct ks_compile_job job = { b->target, &b->prob, b->kernel, b->runner, b->log, NULL };

	if (!src)
		return NULL;
	/* the checks read text up to a NUL byte; the compiler reads on past it */
	if (memchr(src, '\0', size))
		why = ks_easprintf("holds a NUL byte (at byte %zu): a kernel's source is text, and the check reads it "
		    "to the end", (size_t)((char *)memchr(src, '\0', size) - src));
	else
		why = ks_static_check_source(src, cJSON_GetObjectItemCaseSensitive(b->prob.json, "forbidden"),
		    b->target->host_asm ? KS_ASM_ALLOWED : KS_ASM_REFUSED_CPU);
	free(src);
	return why ? why : ks_compile_refusal(&job);
}

/*
 * Target external: nothing is compiled here, the evaluator named by
 * KS_EVAL_CMD takes the source as it is (ks_external.c), and neither
 * the harness's static check nor its symbol list applies to a kernel
 * that another system runs.  The record says so, and hashes the kernel
 * so that an edit of it is benched again.
 */
static cJSON *
not_compiled(const struct build *b)
{
	cJSON *res = cJSON_CreateObject();
	char *sum = ks_sha256_file(b->kernel);

	if (!sum) {
		cJSON_Delete(res);
		return NULL;
	}
	unlink(b->runner);
	cJSON_AddBoolToObject(res, "ok", 1);
	cJSON_AddStringToObject(res, "target", b->target->name);
	cJSON_AddNullToObject(res, "compiler");
	cJSON_AddNullToObject(res, "command");
	cJSON_AddNumberToObject(res, "seconds", 0);
	cJSON_AddStringToObject(res, "diagnostics", "not compiled: target external hands the source to the "
	    "evaluator (KS_EVAL_CMD), which builds and judges it");
	cJSON_AddNullToObject(res, "resources");
	cJSON_AddStringToObject(res, "kernel_sha256", sum);
	free(sum);
	/* the user's own check, when set: a kernel it fails is not built, and no evaluator sees it */
	if (ks_external_check(&b->prob, b->kernel, b->log, res) < 0) {
		cJSON_Delete(res);
		return NULL;
	}
	return res;
}

/* The record of a kernel that the static check refused (why, freed): not built, and why. */
static cJSON *
refused(const struct build *b, char *why)
{
	char *rule = ks_easprintf("the kernel %s", why), *sum = ks_sha256_file(b->kernel);
	char *d = ks_easprintf("not built: %s", rule);
	cJSON *res = not_built(b, d, rule);

	/* an edit of the refused kernel is a new record, so make benches it again */
	ks_json_set_str(res, "kernel_sha256", sum);
	free(sum);
	free(rule);
	free(d);
	free(why);
	return res;
}

/* The kernel's build record; NULL when the compiler could not be run (said). */
static cJSON *
compile(struct build *b)
{
	struct ks_compile_job job = { b->target, &b->prob, b->kernel, b->runner, b->log, ks_compile_object_refusal };
	char *why;
	cJSON *res;
	struct stat st;

	if (!ks_exists(b->kernel)) {
		ks_warnx("'%s' does not exist: run ks-implement on '%s' first", b->kernel, b->dir);
		return NULL;
	}
	if (stat(b->kernel, &st) != 0 || !S_ISREG(st.st_mode)) {
		ks_warnx("'%s' is not a regular file: a kernel's source is one file", b->kernel);
		return NULL;
	}
	if (ks_target_external(b->target))
		return not_compiled(b);
	/*
	 * The static checks compile too: not beside a CPU bench, whose times
	 * would be the compiler's as much as the kernel's (held until exit)
	 */
	if (ks_cpu_share(b->target, b->dir) == -1)
		return NULL;
	/* the harness's names: a problem's mistake, said before the first build of its run (make check's too) */
	if (b->gen == 0 && ks_names_check(&job) < 0)
		return NULL;
	if ((why = refusal(b)))
		return refused(b, why);
	res = cJSON_CreateObject();
	ks_progress("%s: compiling", job.kernel);
	double t0 = ks_monotonic();
	if (ks_compile(&job, res, &why) < 0 || why) {
		ks_progress_end();
		cJSON_Delete(res);
		return why ? refused(b, why) : NULL;
	}
	ks_progress("%s: %s in %.1f s", job.kernel, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(res, "ok")) ?
	    "built" : "did not compile", ks_monotonic() - t0);
	ks_progress_end();
	return res;
}

static int
build(const char *dir, const char *out)
{
	struct build b = { .dir = dir };
	struct ks_cand_rec cand = { 0 };
	char *path = NULL, *cpath = ks_easprintf("%s/candidate.json", dir);
	cJSON *res = NULL;
	int rc = 1;

	if (ks_cand_dir_parse(dir, &b.root, &b.gen, &b.slot) < 0) {
		free(cpath);
		return 1;
	}
	/* a slot the generation's plans leave empty: nothing to build (make asks anyway) */
	if (access(dir, F_OK) != 0 && ks_slot_unplanned(b.root, b.gen, b.slot)) {
		rc = 0;
		goto out;
	}
	if (ks_run_load(b.root, &b.run) < 0)
		goto out;
	if (!(b.target = ks_target_find(b.run.target)) || ks_problem_load(b.run.problem, &b.prob) < 0)
		goto out_run;
	/* a kernel put in a slot by hand, without candidate.json, is built too */
	if (ks_cand_rec_load(cpath, KS_OPTIONAL, &cand) < 0)
		goto out_prob;
	b.kernel = ks_easprintf("%s/kernel.%s", dir, ks_target_ext(b.target, &b.prob));
	b.runner = ks_easprintf("%s/runner", dir);
	b.log = ks_easprintf("%s/build.log", dir);
	if (cand.rejected) {
		char *d = ks_easprintf("not built: ks-implement rejected the candidate: %s", cand.rejected);

		res = not_built(&b, d, cand.rejected);
		free(d);
	} else if (!(res = compile(&b))) {
		goto out_prob;
	}
	path = out ? ks_estrdup(out) : ks_easprintf("%s/build.json", dir);
	/* a rebuild that changed nothing but its duration: make does not bench it again */
	ks_json_keep_old(path, res, (const char *const[]){ "seconds", NULL });
	if (ks_json_save(path, res) == 0)
		rc = 0;
out_prob:
	ks_problem_free(&b.prob);
out_run:
	ks_run_free(&b.run);
out:
	cJSON_Delete(res);
	ks_cand_rec_free(&cand);
	free(path);
	free(cpath);
	free(b.kernel);
	free(b.runner);
	free(b.log);
	free(b.root);
	return rc;
}

int
main(int argc, char *argv[])
{
	const char *out, *dir;
	int rval;

	dir = ks_args_dir_out(argc, argv, "pop/gen-NNN/cS",
	    "  Compiles the candidate's kernel with its problem's harness for the\n"
	    "  population's target into pop/gen-NNN/cS/runner, and writes build.json:\n"
	    "  {\"ok\", \"target\", \"compiler\", \"command\", \"seconds\", \"diagnostics\", \"resources\"},\n"
	    "  and \"rejected\" when the candidate is not built because it breaks a rule\n"
	    "  (ks-implement rejected it, or the static check refuses its source).\n"
	    "  A kernel that does not compile is recorded with \"ok\": false (exit 0).\n"
	    "  Builds share the CPU's bench lock (in KS_LOCK_DIR, default /tmp): they wait\n"
	    "  for a bench of target cpu in progress, and it waits for them.\n"
	    "  Environment: KS_CC, the C compiler of target cpu (default cc);\n"
	    "  KS_LAUNCH_BUILD, a launcher that runs ks-build itself elsewhere\n"
	    "  (e.g. 'srun -N1 -n1'; split into words, never run by a shell).\n"
	    "  Target external compiles nothing: the evaluator (KS_EVAL_CMD) does;\n"
	    "  KS_EVAL_CHECK_CMD, when set, checks the kernel first.\n"
	    "  See population(5) for every field.\n", &out);
	/* KS_LAUNCH_BUILD: ks-build again, whole, where the launcher puts it (a node with the compiler) */
	const char *args[4] = { "-o", out, dir, NULL };
	const char *const *again = out ? args : args + 2;

	if ((rval = ks_launch("KS_LAUNCH_BUILD", (char *const *)again, dir)) < 0)
		rval = ks_launch_note(-1) < 0 ? 1 : build(dir, out);
	if (ks_launch_note(rval) < 0)
		rval = 1;
	if (ks_fclose_stdout() < 0)
		rval = 1;
	return rval;
}
