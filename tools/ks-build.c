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

/* The compiler's command line: flags of the target, then the sources. */
static char **
build_argv(struct build *b)
{
	char *kdir = ks_kernels_dir(), **argv = NULL, *arch = ks_target_arch_flag(b->target);
	const cJSON *src;
	size_t n = 0;

	ks_argv_add(&argv, &n, ks_estrdup(ks_target_compiler(b->target)));
	for (const char *const *f = b->target->flags; *f; f++)
		ks_argv_add(&argv, &n, ks_estrdup(*f));
	if (arch)
		ks_argv_add(&argv, &n, arch);
	for (const char *const *i = b->target->includes; *i; i++)
		ks_argv_add(&argv, &n, ks_easprintf("-I%s/common/%s", kdir, *i));
	ks_argv_add(&argv, &n, ks_easprintf("-I%s/common", kdir));
	ks_argv_add(&argv, &n, ks_easprintf("-I%s", b->prob.dir));
	for (const char *const *c = b->target->common; *c; c++)
		ks_argv_add(&argv, &n, ks_easprintf("%s/common/%s", kdir, *c));
	cJSON_ArrayForEach(src, cJSON_GetObjectItemCaseSensitive(b->prob.json, "harness_sources"))
		if (cJSON_IsString(src))
			ks_argv_add(&argv, &n, ks_easprintf("%s/%s", b->prob.dir, src->valuestring));
	ks_argv_add(&argv, &n, ks_estrdup(b->kernel));
	ks_argv_add(&argv, &n, ks_estrdup("-o"));
	ks_argv_add(&argv, &n, ks_estrdup(b->runner));
	for (const char *const *l = b->target->libs; *l; l++)
		ks_argv_add(&argv, &n, ks_estrdup(*l));
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

/*
 * What "cc --version" says of the compiler: the first line naming a
 * version or release (nvcc's first line names only the driver), else
 * the first line.
 */
static char *
compiler_version(const char *cc)
{
	char *argv[] = { (char *)cc, "--version", NULL };
	char *text = ks_proc_capture(argv, 30), *line, *save = NULL, *pick = NULL, *out;

	if (!text)
		return NULL;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!pick)
			pick = line;
		if (strcasestr(line, "version") || strcasestr(line, "release")) {
			pick = line;
			break;
		}
	}
	out = ks_estrdup(pick ? pick : "");
	free(text);
	return out;
}

static double
limit_of(const struct ks_problem *p, const char *key, double dflt)
{
	const cJSON *limits = cJSON_GetObjectItemCaseSensitive(p->json, "limits");
	double v;

	return ks_json_num(limits, key, NULL, &v) == 0 && v > 0 ? v : dflt;
}

/*
 * A kernel the static check refuses is not built: build.json says why in
 * "rejected" and "diagnostics" (which a repair shows the model), and
 * ks-bench records the candidate as rejected.  Returns 1 when refused.
 */
static int
refuse(struct build *b, cJSON *out)
{
	char *src = ks_file_read(b->kernel, NULL), *why, *d;

	if (!src)
		return 0;
	why = ks_static_check(src, cJSON_GetObjectItemCaseSensitive(b->prob.json, "forbidden"));
	free(src);
	if (!why)
		return 0;
	unlink(b->runner);
	d = ks_easprintf("not built: the kernel %s", why);
	cJSON_AddBoolToObject(out, "ok", 0);
	cJSON_AddStringToObject(out, "target", b->target->name);
	cJSON_AddNullToObject(out, "compiler");
	cJSON_AddNullToObject(out, "command");
	cJSON_AddNumberToObject(out, "seconds", 0);
	cJSON_AddStringToObject(out, "diagnostics", d);
	cJSON_AddNullToObject(out, "resources");
	cJSON_AddStringToObject(out, "rejected", d + strlen("not built: "));
	free(d);
	free(why);
	return 1;
}

static int
compile(struct build *b, cJSON *out)
{
	struct ks_proc_opts o = { 0 };
	struct ks_proc_result r;
	char **argv, *cmd, *version, *diag;
	int ok;

	if (refuse(b, out))
		return 0;
	argv = build_argv(b);
	if (!(version = compiler_version(argv[0]))) {
		argv_free(argv);
		return -1;
	}
	cmd = ks_shell_quote_argv(argv);
	o.out_path = o.err_path = b->log;
	o.timeout_s = limit_of(&b->prob, "build_s", 120);
	/* the compiler reads untrusted source: no keys in its environment, no network */
	o.sandbox = 1;
	o.fsize_mb = 4096;
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
	cJSON *res = ks_target_resources(b->target, diag);
	cJSON_AddItemToObject(out, "resources", res ? res : cJSON_CreateNull());
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

/* A candidate ks-implement rejected has no kernel: recorded, not built. */
static cJSON *
rejected_result(const struct build *b, const char *why)
{
	cJSON *res = cJSON_CreateObject();
	char *d = ks_easprintf("not built: ks-implement rejected the candidate: %s", why);

	cJSON_AddBoolToObject(res, "ok", 0);
	cJSON_AddStringToObject(res, "target", b->target->name);
	cJSON_AddNullToObject(res, "compiler");
	cJSON_AddNullToObject(res, "command");
	cJSON_AddNumberToObject(res, "seconds", 0);
	cJSON_AddStringToObject(res, "diagnostics", d);
	cJSON_AddNullToObject(res, "resources");
	free(d);
	return res;
}

/* The model's fix for a kernel that did not compile; NULL when it gave none. */
static char *
ask_repair(struct build *b, struct ks_llm *llm, int attempt, const char *diagnostics)
{
	struct ks_code_check cc = { b->prob.entry_name, NULL,
		cJSON_GetObjectItemCaseSensitive(b->prob.json, "forbidden") };
	char *task = ks_ctx_file(&b->prob, "task"), *target = ks_ctx_target(b->target->name, NULL, 0);
	char *code = ks_file_read(b->kernel, NULL), *prompt = NULL, *name = ks_easprintf("repair%d", attempt), *why;
	const char *entry_point = ks_json_str(b->prob.json, "entry_point", b->prob.path);

	if (task && target && code && entry_point) {
		const char *keys[] = { "task", "target", "entry_point", "language", "code", "diagnostics" };
		const char *vals[] = { task, target, entry_point, b->target->ext, code, diagnostics };
		if ((prompt = ks_prompt_render("repair", keys, vals, 6)) &&
		    ks_ask(llm, prompt, b->dir, name, ks_check_code, &cc, &why) == 1) {
			ks_info("'%s': repair %d gave no usable code: %s", b->dir, attempt, why);
			free(why);
		}
	}
	free(task);
	free(target);
	free(code);
	free(prompt);
	free(name);
	return cc.code;
}

static int
repair_tries(void)
{
	const char *e = getenv("KS_REPAIR_TRIES");
	long v = 2;

	if (e && *e && ks_parse_int(e, 0, 10, &v) < 0) {
		ks_warnx("KS_REPAIR_TRIES must be an integer from 0 to 10, not '%s'", e);
		return -1;
	}
	return (int)v;
}

/*
 * A kernel an LLM wrote that does not compile goes back to the model with
 * the diagnostics, at most KS_REPAIR_TRIES times; each try is kept in
 * llm/ and in build.json "repairs", and its tokens in candidate.json.
 */
static int
repair(struct build *b, cJSON *cand, const char *cand_path, cJSON **res)
{
	const char *model = ks_json_str(cand, "model", NULL);
	int tries, online, ok = 0;
	struct ks_llm llm;
	cJSON *repairs;

	if (!model || strcmp(model, "seed") == 0 || strcmp(model, "offline") == 0)
		return 0;
	if ((tries = repair_tries()) < 0)
		return -1;
	if (tries == 0)
		return 0;
	if ((online = ks_llm_open(&llm, "implement", b->root)) != 0)
		return online < 0 ? -1 : 0;
	repairs = cJSON_CreateArray();
	for (int t = 1; t <= tries && !ok; t++) {
		const char *diag = ks_json_str(*res, "diagnostics", NULL);
		cJSON *entry = cJSON_CreateObject(), *next;
		char *code = ask_repair(b, &llm, t, diag ? diag : "");

		cJSON_AddNumberToObject(entry, "try", t);
		cJSON_AddStringToObject(entry, "diagnostics", diag ? diag : "");
		cJSON_AddItemToArray(repairs, entry);
		if (!code || ks_file_write_atomic(b->kernel, code, strlen(code)) < 0) {
			cJSON_AddBoolToObject(entry, "ok", 0);
			free(code);
			break;
		}
		free(code);
		next = cJSON_CreateObject();
		if ((ok = compile(b, next)) < 0) {
			cJSON_Delete(next);
			cJSON_Delete(repairs);
			ks_llm_close(&llm);
			return -1;
		}
		cJSON_AddBoolToObject(entry, "ok", ok);
		cJSON_Delete(*res);
		*res = next;
	}
	cJSON_AddItemToObject(*res, "repairs", repairs);
	/* The candidate's usage grows by what the repairs spent. */
	const cJSON *u = ks_json_obj(cand, "usage", NULL);
	double calls = 0, cached = 0, in = 0, out_t = 0;
	ks_json_num(u, "calls", NULL, &calls);
	ks_json_num(u, "cached_calls", NULL, &cached);
	ks_json_num(u, "prompt_tokens", NULL, &in);
	ks_json_num(u, "completion_tokens", NULL, &out_t);
	llm.calls += (int)calls;
	llm.cached_calls += (int)cached;
	llm.prompt_tokens += (long)in;
	llm.completion_tokens += (long)out_t;
	ks_llm_usage_json(&llm, cand);
	ks_llm_close(&llm);
	return ks_json_save(cand_path, cand) < 0 ? -1 : ok;
}

static int
build(const char *dir, const char *out)
{
	struct build b = { .dir = dir };
	struct ks_cand self = { 0 };
	char *path = NULL, *cpath = ks_easprintf("%s/candidate.json", dir);
	cJSON *res = NULL, *cand = NULL;
	const char *rejected;
	int rc = 1, ok;

	if (ks_cand_dir_parse(dir, &b.root, &b.gen, &b.slot) < 0) {
		free(cpath);
		return 1;
	}
	if (ks_run_load(b.root, &b.run) < 0)
		goto out;
	if (!(b.target = ks_target_find(b.run.target)) || ks_problem_load(b.run.problem, &b.prob) < 0)
		goto out_run;
	if (ks_exists(cpath) && !(cand = ks_json_load(cpath)))
		goto out_prob;
	b.runner = ks_easprintf("%s/runner", dir);
	b.log = ks_easprintf("%s/build.log", dir);
	if ((rejected = ks_json_str(cand, "rejected", NULL))) {
		unlink(b.runner);
		res = rejected_result(&b, rejected);
	} else {
		self.dir = (char *)dir;
		if (!(b.kernel = ks_cand_kernel_path(&self)))
			goto out_prob;
		res = cJSON_CreateObject();
		if ((ok = compile(&b, res)) < 0)
			goto out_prob;
		if (!ok && cand && (ok = repair(&b, cand, cpath, &res)) < 0)
			goto out_prob;
		if (!ok)
			unlink(b.runner);
	}
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
	cJSON_Delete(cand);
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
	    "  {\"ok\", \"target\", \"compiler\", \"command\", \"seconds\", \"diagnostics\", \"resources\"}.\n"
	    "  A kernel that does not compile is recorded with \"ok\": false (exit 0).\n"
	    "  A kernel an LLM wrote that does not compile goes back to the model with\n"
	    "  the diagnostics, up to KS_REPAIR_TRIES times (default 2; 0 turns it off).\n"
	    "  Environment: KS_CC, the C compiler of target cpu (default cc).\n", &out);
	rval = build(dir, out);
	if (ks_fclose_stdout() < 0)
		rval = 1;
	return rval;
}
