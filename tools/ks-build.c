/*
 * ks-build - compile one candidate with its problem's harness for the
 * population's target, and record the outcome in build.json.  A kernel
 * that does not compile is a result (exit 0); a missing compiler is not.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks.h"

#define MAX_DIAGNOSTICS 65536

struct build {
	const char *dir;
	char *root;
	long gen, slot;
	struct ks_run run;
	struct ks_problem prob;
	const struct ks_target *target;
	char *kernel, *runner, *log;
};

static void
argv_add(char ***argv, size_t *n, char *s)
{
	*argv = ks_erealloc(*argv, (*n + 2) * sizeof **argv);
	(*argv)[(*n)++] = s;
	(*argv)[*n] = NULL;
}

static const char *
compiler_of(const struct ks_target *t)
{
	const char *env = getenv(t->compiler_env);

	return env && *env ? env : t->compiler;
}

/* The compiler's command line: flags of the target, then the sources. */
static char **
build_argv(struct build *b)
{
	char *kdir = ks_kernels_dir(), **argv = NULL;
	const cJSON *src;
	size_t n = 0;

	argv_add(&argv, &n, ks_estrdup(compiler_of(b->target)));
	for (const char *const *f = b->target->flags; *f; f++)
		argv_add(&argv, &n, ks_estrdup(*f));
	argv_add(&argv, &n, ks_easprintf("-I%s/common", kdir));
	argv_add(&argv, &n, ks_easprintf("-I%s", b->prob.dir));
	argv_add(&argv, &n, ks_easprintf("%s/common/ks_harness.c", kdir));
	cJSON_ArrayForEach(src, cJSON_GetObjectItemCaseSensitive(b->prob.json, "harness_sources"))
		if (cJSON_IsString(src))
			argv_add(&argv, &n, ks_easprintf("%s/%s", b->prob.dir, src->valuestring));
	argv_add(&argv, &n, ks_estrdup(b->kernel));
	argv_add(&argv, &n, ks_estrdup("-o"));
	argv_add(&argv, &n, ks_estrdup(b->runner));
	for (const char *const *l = b->target->libs; *l; l++)
		argv_add(&argv, &n, ks_estrdup(*l));
	free(kdir);
	return argv;
}

static void
argv_free(char **argv)
{
	for (char **a = argv; a && *a; a++)
		free(*a);
	free(argv);
}

/* The first line of "cc --version", which names the compiler and its version. */
static char *
compiler_version(const char *cc)
{
	char *argv[] = { (char *)cc, "--version", NULL };
	char *text = ks_proc_capture(argv, 30), *nl;

	if (!text)
		return NULL;
	if ((nl = strchr(text, '\n')))
		*nl = '\0';
	return text;
}

static double
limit_of(const struct ks_problem *p, const char *key, double dflt)
{
	const cJSON *limits = cJSON_GetObjectItemCaseSensitive(p->json, "limits");
	double v;

	return ks_json_num(limits, key, NULL, &v) == 0 && v > 0 ? v : dflt;
}

static int
compile(struct build *b, cJSON *out)
{
	struct ks_proc_opts o = { 0 };
	struct ks_proc_result r;
	char **argv = build_argv(b), *cmd, *version, *diag;
	int ok;

	if (!(version = compiler_version(argv[0]))) {
		argv_free(argv);
		return -1;
	}
	cmd = ks_shell_quote_argv(argv);
	o.out_path = o.err_path = b->log;
	o.timeout_s = limit_of(&b->prob, "build_s", 120);
	/* Only a binary of this very build may stand as the runner. */
	unlink(b->runner);
	if (ks_proc_run(argv, &o, &r) < 0) {
		argv_free(argv);
		free(cmd);
		free(version);
		return -1;
	}
	ok = r.exited && r.status == 0 && ks_exists(b->runner);
	diag = ks_file_read(b->log, NULL);
	if (!diag)
		diag = ks_estrdup("");
	if (strlen(diag) > MAX_DIAGNOSTICS)
		strcpy(diag + MAX_DIAGNOSTICS - 32, "\n[diagnostics truncated]\n");
	if (!ok) {
		char *why = ks_proc_describe(&r);
		char *d = ks_easprintf("%scompiler %s\n", diag, why);
		free(diag);
		free(why);
		diag = d;
	}
	cJSON_AddBoolToObject(out, "ok", ok);
	cJSON_AddStringToObject(out, "target", b->target->name);
	cJSON_AddStringToObject(out, "compiler", version);
	cJSON_AddStringToObject(out, "command", cmd);
	cJSON_AddNumberToObject(out, "seconds", (double)(long)(r.seconds * 1000 + 0.5) / 1000);
	cJSON_AddStringToObject(out, "diagnostics", diag);
	cJSON_AddNullToObject(out, "resources");
	argv_free(argv);
	free(cmd);
	free(version);
	free(diag);
	return ok;
}

/*
 * A rebuild that changed nothing but its duration keeps the old
 * duration, so build.json keeps its bytes and mtime and make does not
 * bench the candidate again.
 */
static void
keep_old_seconds(const char *path, cJSON *res)
{
	cJSON *old, *secs;
	char *text;

	if (!ks_exists(path) || !(text = ks_file_read(path, NULL)))
		return;
	old = cJSON_Parse(text);
	free(text);
	secs = cJSON_GetObjectItemCaseSensitive(old, "seconds");
	if (cJSON_IsNumber(secs)) {
		cJSON *trial = cJSON_Duplicate(res, 1);

		ks_json_set_num(trial, "seconds", secs->valuedouble);
		if (cJSON_Compare(trial, old, 1))
			ks_json_set_num(res, "seconds", secs->valuedouble);
		cJSON_Delete(trial);
	}
	cJSON_Delete(old);
}

static int
build(const char *dir, const char *out)
{
	struct build b = { .dir = dir };
	struct ks_cand self = { 0 };
	char *path = NULL;
	cJSON *res = NULL;
	int rc = 1, ok;

	if (ks_cand_dir_parse(dir, &b.root, &b.gen, &b.slot) < 0)
		return 1;
	if (ks_run_load(b.root, &b.run) < 0)
		goto out;
	if (!(b.target = ks_target_find(b.run.target)) || ks_problem_load(b.run.problem, &b.prob) < 0)
		goto out_run;
	self.dir = (char *)dir;
	if (!(b.kernel = ks_cand_kernel_path(&self)))
		goto out_prob;
	b.runner = ks_easprintf("%s/runner", dir);
	b.log = ks_easprintf("%s/build.log", dir);
	res = cJSON_CreateObject();
	if ((ok = compile(&b, res)) < 0)
		goto out_prob;
	if (!ok)
		unlink(b.runner);
	path = out ? ks_estrdup(out) : ks_easprintf("%s/build.json", dir);
	keep_old_seconds(path, res);
	if (ks_json_save(path, res) == 0)
		rc = 0;
out_prob:
	ks_problem_free(&b.prob);
out_run:
	ks_run_free(&b.run);
out:
	cJSON_Delete(res);
	free(path);
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
	    "  {\"ok\", \"target\", \"compiler\", \"command\", \"seconds\", \"diagnostics\", \"resources\"}.\n"
	    "  A kernel that does not compile is recorded with \"ok\": false (exit 0).\n"
	    "  Environment: KS_CC, the C compiler of target cpu (default cc).\n", &out);
	rval = build(dir, out);
	if (ks_fclose_stdout() < 0)
		rval = 1;
	return rval;
}
