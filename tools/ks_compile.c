/*
 * ks_compile.c - one build of a kernel with its problem's harness, the
 * way ks-build records it and ks-implement checks a model's code.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks.h"

#define MAX_DIAGNOSTICS 65536

/* -DKS_DEFAULT_DIMS="M N K": problem.json's dims, which the harness checks against its own. */
static char *
dims_define(const struct ks_problem *p)
{
	struct ks_buf b = { 0 };
	const cJSON *d;

	ks_buf_puts(&b, "-DKS_DEFAULT_DIMS=\"");
	cJSON_ArrayForEach(d, p->dims)
		ks_buf_printf(&b, "%s%s", b.s[b.len - 1] == '"' ? "" : " ", cJSON_IsString(d) ? d->valuestring : "?");
	ks_buf_puts(&b, "\"");
	return b.s;
}

/*
 * The problem's check and shapes as the runner's defaults, so that the
 * runner run by hand with no option checks and times what ks-bench has it
 * do (kernels/common/ks_harness.c, KS_DEFAULT_*).
 */
static void
add_defaults(char ***argv, size_t *n, const struct ks_problem *p)
{
	const cJSON *limits = cJSON_GetObjectItemCaseSensitive(p->json, "limits");
	double rtol, atol, cap = 2.0, runs = 5;
	long seed;
	char *tests = ks_shapes_arg(p->test_shapes, p->dims), *benches = ks_shapes_arg(p->bench_shapes, p->dims);

	ks_problem_check_args(p, &rtol, &atol, &seed);
	ks_json_num(limits, "time_cap_s", NULL, &cap);
	ks_json_num(limits, "min_runs", NULL, &runs);
	ks_argv_add(argv, n, ks_easprintf("-DKS_DEFAULT_RTOL=%.17g", rtol));
	ks_argv_add(argv, n, ks_easprintf("-DKS_DEFAULT_ATOL=%.17g", atol));
	ks_argv_add(argv, n, ks_easprintf("-DKS_DEFAULT_SEED=%ld", seed));
	ks_argv_add(argv, n, ks_easprintf("-DKS_DEFAULT_TIME_CAP=%.17g", cap));
	ks_argv_add(argv, n, ks_easprintf("-DKS_DEFAULT_MIN_RUNS=%ld", (long)runs));
	ks_argv_add(argv, n, dims_define(p));
	ks_argv_add(argv, n, ks_easprintf("-DKS_DEFAULT_TESTS=\"%s\"", tests));
	ks_argv_add(argv, n, ks_easprintf("-DKS_DEFAULT_BENCHES=\"%s\"", benches));
	free(tests);
	free(benches);
}

/* The compiler's command line: flags of the target, then the sources. */
static char **
compile_argv(const struct ks_compile_job *j)
{
	char *kdir = ks_kernels_dir(), **argv = NULL, *arch = ks_target_arch_flag(j->target);
	const cJSON *src;
	size_t n = 0;

	ks_argv_add(&argv, &n, ks_estrdup(ks_target_compiler(j->target)));
	for (const char *const *f = j->target->flags; *f; f++)
		ks_argv_add(&argv, &n, ks_estrdup(*f));
	if (arch)
		ks_argv_add(&argv, &n, arch);
	for (const char *const *i = j->target->includes; *i; i++)
		ks_argv_add(&argv, &n, ks_easprintf("-I%s/common/%s", kdir, *i));
	ks_argv_add(&argv, &n, ks_easprintf("-I%s/common", kdir));
	ks_argv_add(&argv, &n, ks_easprintf("-I%s", j->prob->dir));
	add_defaults(&argv, &n, j->prob);
	for (const char *const *c = j->target->common; *c; c++)
		ks_argv_add(&argv, &n, ks_easprintf("%s/common/%s", kdir, *c));
	cJSON_ArrayForEach(src, cJSON_GetObjectItemCaseSensitive(j->prob->json, "harness_sources"))
		if (cJSON_IsString(src))
			ks_argv_add(&argv, &n, ks_easprintf("%s/%s", j->prob->dir, src->valuestring));
	ks_argv_add(&argv, &n, ks_estrdup(j->kernel));
	ks_argv_add(&argv, &n, ks_estrdup("-o"));
	ks_argv_add(&argv, &n, ks_estrdup(j->runner));
	for (const char *const *l = j->target->libs; *l; l++)
		ks_argv_add(&argv, &n, ks_estrdup(*l));
	free(kdir);
	return argv;
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
build_limit_s(const struct ks_problem *p)
{
	const cJSON *limits = cJSON_GetObjectItemCaseSensitive(p->json, "limits");
	double v;

	return ks_json_num(limits, "build_s", NULL, &v) == 0 && v > 0 ? v : 120;
}

/* The compiler's output, cut to a size a prompt can hold, and why it failed. */
static char *
diagnostics(const char *log, const struct ks_proc_result *r, int ok)
{
	char *diag = ks_file_read(log, NULL), *why, *d;

	if (!diag)
		diag = ks_estrdup("");
	if (strlen(diag) > MAX_DIAGNOSTICS)
		strcpy(diag + MAX_DIAGNOSTICS - 32, "\n[diagnostics truncated]\n");
	if (ok)
		return diag;
	why = ks_proc_describe(r);
	d = ks_easprintf("%scompiler %s\n", diag, why);
	free(diag);
	free(why);
	return d;
}

/* A top-level file of the problem's folder that a harness may include. */
static int
is_header(const char *name)
{
	const char *dot = strrchr(name, '.');

	return dot && (strcmp(dot, ".h") == 0 || strcmp(dot, ".hpp") == 0 || strcmp(dot, ".cuh") == 0);
}

char *
ks_harness_sha256(const struct ks_problem *p)
{
	char *kdir = ks_kernels_dir(), *common = ks_easprintf("%s/common", kdir), *path;
	struct ks_hash *h = ks_hash_new();
	const cJSON *src;
	struct dirent **names;
	int n, rc = ks_hash_tree(h, common);

	cJSON_ArrayForEach(src, cJSON_GetObjectItemCaseSensitive(p->json, "harness_sources"))
		if (rc == 0 && cJSON_IsString(src)) {
			path = ks_easprintf("%s/%s", p->dir, src->valuestring);
			ks_hash_str(h, src->valuestring);
			rc = ks_hash_file(h, path);
			free(path);
		}
	if (rc == 0 && (n = scandir(p->dir, &names, NULL, alphasort)) >= 0) {
		for (int i = 0; i < n; i++) {
			if (rc == 0 && is_header(names[i]->d_name)) {
				path = ks_easprintf("%s/%s", p->dir, names[i]->d_name);
				ks_hash_str(h, names[i]->d_name);
				rc = ks_hash_file(h, path);
				free(path);
			}
			free(names[i]);
		}
		free(names);
	}
	free(kdir);
	free(common);
	if (rc < 0) {
		free(ks_hash_end(h));
		return NULL;
	}
	return ks_hash_end(h);
}

int
ks_compile(const struct ks_compile_job *j, cJSON *rec)
{
	struct ks_proc_opts o = { 0 };
	struct ks_proc_result r;
	char **argv = compile_argv(j), *cmd = NULL, *version, *diag, *ksum = NULL, *hsum = NULL;
	cJSON *res;
	int ok = -1;

	if (!(version = compiler_version(argv[0])))
		goto out;
	/* what the record was measured on: the kernel and the harness as they are now */
	if (!(ksum = ks_sha256_file(j->kernel)) || !(hsum = ks_harness_sha256(j->prob)))
		goto out;
	cmd = ks_shell_quote_argv(argv);
	o.out_path = o.err_path = j->log;
	o.timeout_s = build_limit_s(j->prob);
	/* the compiler reads untrusted source: no keys in its environment, no network */
	o.sandbox = 1;
	o.fsize_mb = 4096;
	/* Only a binary of this very build may stand as the runner. */
	unlink(j->runner);
	if (ks_proc_run(argv, &o, &r) < 0)
		goto out;
	ok = r.exited && r.status == 0 && ks_exists(j->runner);
	diag = diagnostics(j->log, &r, ok);
	cJSON_AddBoolToObject(rec, "ok", ok);
	cJSON_AddStringToObject(rec, "target", j->target->name);
	cJSON_AddStringToObject(rec, "compiler", version);
	cJSON_AddStringToObject(rec, "command", cmd);
	cJSON_AddNumberToObject(rec, "seconds", (double)(long)(r.seconds * 1000 + 0.5) / 1000);
	cJSON_AddStringToObject(rec, "diagnostics", diag);
	res = ks_target_resources(j->target, diag);
	cJSON_AddItemToObject(rec, "resources", res ? res : cJSON_CreateNull());
	cJSON_AddStringToObject(rec, "kernel_sha256", ksum);
	cJSON_AddStringToObject(rec, "harness_sha256", hsum);
	free(diag);
	if (!ok)
		unlink(j->runner);
out:
	ks_argv_free(argv);
	free(cmd);
	free(version);
	free(ksum);
	free(hsum);
	return ok;
}
