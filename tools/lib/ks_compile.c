/*
 * ks_compile.c - one build of a kernel with its problem's harness, the
 * way ks-build records it and ks-implement checks a model's code.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_build.h"

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

char **
ks_compile_options(const struct ks_compile_job *j, size_t *n)
{
	char *kdir = ks_kernels_dir(), **argv = NULL, *arch = ks_target_arch_flag(j->target);

	*n = 0;
	ks_argv_add(&argv, n, ks_estrdup(ks_target_compiler(j->target)));
	for (const char *const *f = j->target->flags; *f; f++)
		ks_argv_add(&argv, n, ks_estrdup(*f));
	if (arch)
		ks_argv_add(&argv, n, arch);
	for (const char *const *i = j->target->includes; *i; i++)
		ks_argv_add(&argv, n, ks_easprintf("-I%s/common/%s", kdir, *i));
	ks_argv_add(&argv, n, ks_easprintf("-I%s/common", kdir));
	ks_argv_add(&argv, n, ks_easprintf("-I%s", j->prob->dir));
	add_defaults(&argv, n, j->prob);
	free(kdir);
	return argv;
}

int
ks_problem_judged(const struct ks_problem *p)
{
	return cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(p->json, "worker_sources")) > 0;
}

char *
ks_compile_worker_path(const char *runner)
{
	const char *slash = strrchr(runner, '/');

	return slash ? ks_easprintf("%.*s/worker", (int)(slash - runner), runner) : ks_estrdup("worker");
}

/* The runner's command line: the target's options, the judge's shared sources, the problem's harness, -o out. */
static char **
runner_argv(const struct ks_compile_job *j, const char *out)
{
	char *kdir = ks_kernels_dir(), **argv;
	const cJSON *src;
	size_t n;

	argv = ks_compile_options(j, &n);
	for (const char *const *c = j->target->judge_common; *c; c++)
		ks_argv_add(&argv, &n, ks_easprintf("%s/common/%s", kdir, *c));
	cJSON_ArrayForEach(src, cJSON_GetObjectItemCaseSensitive(j->prob->json, "harness_sources"))
		if (cJSON_IsString(src))
			ks_argv_add(&argv, &n, ks_easprintf("%s/%s", j->prob->dir, src->valuestring));
	ks_argv_add(&argv, &n, ks_estrdup("-o"));
	ks_argv_add(&argv, &n, ks_estrdup(out));
	for (const char *const *l = j->target->libs; *l; l++)
		ks_argv_add(&argv, &n, ks_estrdup(*l));
	free(kdir);
	return argv;
}

/* One source compiled to an object: the target's options, -c src -o out. */
static char **
object_argv(const struct ks_compile_job *j, const char *src, const char *out)
{
	size_t n;
	char **argv = ks_compile_options(j, &n);

	ks_argv_add(&argv, &n, ks_estrdup("-c"));
	ks_argv_add(&argv, &n, ks_estrdup(src));
	ks_argv_add(&argv, &n, ks_estrdup("-o"));
	ks_argv_add(&argv, &n, ks_estrdup(out));
	return argv;
}

/*
 * The worker linked from objects: the target's flags and architecture,
 * but its language option (nvcc's -x cu), which would have the objects
 * read as sources; then the objects, -o out and the libraries.
 */
static char **
link_argv(const struct ks_compile_job *j, char *const *objects, const char *out)
{
	char **argv = NULL, *arch = ks_target_arch_flag(j->target);
	size_t n = 0;

	ks_argv_add(&argv, &n, ks_estrdup(ks_target_compiler(j->target)));
	for (const char *const *f = j->target->flags; *f; f++) {
		if (strcmp(*f, "-x") == 0 && f[1]) {
			f++;
			continue;
		}
		ks_argv_add(&argv, &n, ks_estrdup(*f));
	}
	if (arch)
		ks_argv_add(&argv, &n, arch);
	for (char *const *o = objects; *o; o++)
		ks_argv_add(&argv, &n, ks_estrdup(*o));
	ks_argv_add(&argv, &n, ks_estrdup("-o"));
	ks_argv_add(&argv, &n, ks_estrdup(out));
	for (const char *const *l = j->target->libs; *l; l++)
		ks_argv_add(&argv, &n, ks_estrdup(*l));
	return argv;
}

/*
 * What "cc --version" says of the compiler: the first line naming a
 * version or release (nvcc's first line names only the driver), else
 * the first line.
 */
char *
ks_compile_version(const char *cc)
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

double
ks_compile_limit_s(const struct ks_problem *p)
{
	const cJSON *limits = cJSON_GetObjectItemCaseSensitive(p->json, "limits");
	double v;

	return ks_json_num(limits, "build_s", NULL, &v) == 0 && v > 0 ? v : 120;
}

/*
 * The address space a compiler of the kernel may use: a source can ask
 * for any amount (#include "/dev/zero" grows the preprocessor by hundreds
 * of megabytes a second), and the machine is shared with the benches.
 */
long
ks_compile_mem_mb(const struct ks_problem *p)
{
	const cJSON *limits = cJSON_GetObjectItemCaseSensitive(p->json, "limits");
	double v;

	return ks_json_num(limits, "build_memory_mb", NULL, &v) == 0 && v >= 1 ? (long)v : 8192;
}

char *
ks_compile_diagnostics(const char *log, const struct ks_proc_result *r, int ok, const char *who)
{
	char *diag = ks_file_read(log, NULL), *why, *d;

	if (!diag)
		diag = ks_estrdup("");
	if (strlen(diag) > MAX_DIAGNOSTICS)
		strcpy(diag + MAX_DIAGNOSTICS - 32, "\n[diagnostics truncated]\n");
	if (ok)
		return diag;
	why = ks_proc_describe(r);
	d = ks_easprintf("%s%s %s\n", diag, who, why);
	free(diag);
	free(why);
	return d;
}

/*
 * nvcc's intermediate files named as the source they come from:
 * "/tmp/tmpxft_00007e00_00000000-22_kernel.compute_90.ptx" is
 * "kernel.compute_90.ptx", the same in every run.  In place.
 */
static void
strip_nvcc_temps(char *text)
{
	char *p, *q;

	while ((p = strstr(text, "tmpxft_")) != NULL && (q = strchr(p, '-')) != NULL) {
		char *name = q + strspn(q + 1, "0123456789") + 1, *start = p;

		if (*name != '_')
			break;
		name++;
		while (start > text && start[-1] != ' ' && start[-1] != '\n' && start[-1] != '\'')
			start--;
		memmove(start, name, strlen(name) + 1);
		text = start;
	}
}

/* the kernel a ptxas info line is about ("Compiling entry function 'X'", "Function properties for X"), or NULL */
static char *
ptxas_subject(const char *line)
{
	const char *p;

	if ((p = strstr(line, "Compiling entry function '")) != NULL) {
		p += strlen("Compiling entry function '");
		return ks_estrndup(p, strcspn(p, "'"));
	}
	if ((p = strstr(line, "Function properties for ")) != NULL) {
		p += strlen("Function properties for ");
		return ks_estrndup(p, strcspn(p, " \n"));
	}
	return NULL;
}

char *
ks_compile_for_model(const char *diag, const char *kernel, const char *shown_as)
{
	const char *slash = strrchr(kernel, '/');
	char *dir = slash ? ks_estrndup(kernel, (size_t)(slash - kernel + 1)) : ks_estrdup("");
	char *named = ks_replace_all(diag, kernel, shown_as), *text = ks_replace_all(named, dir, "");

	strip_nvcc_temps(text);
	struct ks_buf first = { 0 }, report = { 0 }, out = { 0 };
	enum { FIRST, REPORT, DROPPED } section = FIRST;
	int harness = 0, left_out = 0;

	ks_buf_puts(&first, "");
	ks_buf_puts(&report, "");
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		char *line = ks_estrndup(p, len), *subject;

		p += len + (p[len] == '\n');
		if (strncmp(line, "ptxas info", 10) == 0) {
			if ((subject = ptxas_subject(line)) != NULL) {
				/* a kernel's block of lines begins: the harness's own are left out */
				harness = ks_harness_symbol(subject);
				left_out += harness && strstr(line, "Compiling entry function") != NULL;
				free(subject);
			} else if (strstr(line, "bytes gmem")) {
				harness = 1;	/* a compilation unit's total: the harness's units have one too */
			}
			section = harness ? DROPPED : REPORT;
		} else if (!(len > 0 && isspace((unsigned char)line[0]))) {
			/* the compiler's own line; an indented one goes with the line before it */
			section = FIRST;
			harness = 0;
		}
		if (section != DROPPED)
			ks_buf_printf(section == FIRST ? &first : &report, "%s\n", line);
		free(line);
	}
	ks_buf_printf(&out, "%s%s", first.s, report.s);
	if (left_out)
		ks_buf_printf(&out, "(ptxas's report of the harness's own %d kernel%s left out)\n", left_out,
		    left_out == 1 ? "" : "s");
	ks_buf_free(&first);
	ks_buf_free(&report);
	free(named);
	free(text);
	free(dir);
	return out.s;
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

	for (int k = 0; k < 2; k++)
		cJSON_ArrayForEach(src, cJSON_GetObjectItemCaseSensitive(p->json, k ? "worker_sources" : "harness_sources"))
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

/*
 * A build's steps, one compiler run each: the kernel to its object (its
 * own errors first); each shared source of the worker (the target's
 * worker_common, the problem's call glue) to an object; the worker linked
 * from those; the runner, the judge, which holds no kernel.  The shared
 * objects and the runner are the same for every kernel of a problem on a
 * target, so they are kept in the build cache (ks_runner_cache.c) and a
 * build compiles the kernel alone.  The kernel's object is the one the
 * static check reads (the job's check_object) and the worker runs.  The objects
 * are made beside the runner (kernel.o, ks_worker.o, ...) and removed once
 * the worker is linked.
 */
enum step_kind { STEP_KERNEL, STEP_PART, STEP_LINK, STEP_RUNNER };

struct step {
	enum step_kind kind;
	char **argv;
	char *out;
};

struct build_plan {
	struct step *step;
	size_t n;
	char *objdir;
	char **objects;   /* the worker's objects, NULL-terminated (the strings are the steps' outs) */
	size_t nobj;
};

static void
plan_add(struct build_plan *b, enum step_kind kind, char **argv, char *out)
{
	b->step = ks_erealloc(b->step, (b->n + 1) * sizeof *b->step);
	b->step[b->n++] = (struct step){ kind, argv, out };
	if (kind == STEP_KERNEL || kind == STEP_PART) {
		b->objects = ks_erealloc(b->objects, (b->nobj + 2) * sizeof *b->objects);
		b->objects[b->nobj++] = out;
		b->objects[b->nobj] = NULL;
	}
}

/* NAME.o beside the runner for the source src: its file name's, numbered when an earlier source had the same */
static char *
object_path(const struct build_plan *b, const char *src)
{
	const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src, *dot = strrchr(base, '.');
	int len = dot ? (int)(dot - base) : (int)strlen(base);
	char *path = ks_easprintf("%s/%.*s.o", b->objdir, len, base);

	for (size_t i = 0; i < b->nobj; i++)
		if (strcmp(b->objects[i], path) == 0) {
			free(path);
			return ks_easprintf("%s/%zu-%.*s.o", b->objdir, b->nobj, len, base);
		}
	return path;
}

static void
plan_add_object(struct build_plan *b, const struct ks_compile_job *j, enum step_kind kind, char *src)
{
	char *out = object_path(b, src);

	plan_add(b, kind, object_argv(j, src, out), out);
	free(src);
}

static int
plan_build(const struct ks_compile_job *j, struct build_plan *b)
{
	char *kdir, *worker;
	const cJSON *src;

	memset(b, 0, sizeof *b);
	/* every target runs the kernel under a judge: none is linked into the harness's process */
	if (!ks_problem_judged(j->prob)) {
		ks_warnx("'%s': target %s runs the kernel in a process of its own: give \"worker_sources\", the "
		    "call glue (ks-problem(5))", j->prob->path, j->target->name);
		return -1;
	}
	kdir = ks_kernels_dir();
	worker = ks_compile_worker_path(j->runner);
	b->objdir = strrchr(worker, '/') ? ks_estrndup(worker, (size_t)(strrchr(worker, '/') - worker)) : ks_estrdup(".");
	plan_add_object(b, j, STEP_KERNEL, ks_estrdup(j->kernel));
	for (const char *const *c = j->target->worker_common; *c; c++)
		plan_add_object(b, j, STEP_PART, ks_easprintf("%s/common/%s", kdir, *c));
	cJSON_ArrayForEach(src, cJSON_GetObjectItemCaseSensitive(j->prob->json, "worker_sources"))
		if (cJSON_IsString(src))
			plan_add_object(b, j, STEP_PART, ks_easprintf("%s/%s", j->prob->dir, src->valuestring));
	plan_add(b, STEP_LINK, link_argv(j, b->objects, worker), worker);
	plan_add(b, STEP_RUNNER, runner_argv(j, j->runner), ks_estrdup(j->runner));
	free(kdir);
	return 0;
}

static void
plan_free(struct build_plan *b)
{
	for (size_t i = 0; i < b->n; i++) {
		ks_argv_free(b->step[i].argv);
		free(b->step[i].out);
	}
	free(b->step);
	free(b->objects);
	free(b->objdir);
}

/* the plan's commands, as a shell would run them one after the other */
static char *
plan_command(const struct build_plan *b)
{
	struct ks_buf all = { 0 };

	ks_buf_add(&all, "", 0);
	for (size_t i = 0; i < b->n; i++) {
		char *one = ks_shell_quote_argv(b->step[i].argv);

		ks_buf_printf(&all, "%s%s", i ? " && " : "", one);
		free(one);
	}
	return all.s;
}

/* The build's objects gone (once linked, or never to be) */
static void
plan_clean_objects(const struct build_plan *b)
{
	for (size_t i = 0; i < b->nobj; i++)
		unlink(b->objects[i]);
}

/* The build's programs and objects gone: only what this very build makes may stand as its runner and worker. */
static void
plan_clean(const struct build_plan *b)
{
	for (size_t i = 0; i < b->n; i++)
		if (b->step[i].kind == STEP_LINK || b->step[i].kind == STEP_RUNNER)
			unlink(b->step[i].out);
	plan_clean_objects(b);
}

/* What a step's cache entry is kept under, or NULL for the kernel's own steps. */
static char *
step_key(const struct step *s, const char *version, const char *harness_sum)
{
	if (s->kind == STEP_PART)
		return ks_runner_cache_key("object", s->argv, s->out, version, harness_sum);
	if (s->kind == STEP_RUNNER)
		return ks_runner_cache_key("runner", s->argv, s->out, version, harness_sum);
	return NULL;
}

struct plan_run {
	const char *version, *harness_sum;
	char **refused;       /* the object check's reason, when asked for */
	int runner_cached;
	double seconds;
	struct ks_proc_result last;   /* the last compiler run: how a failed build ended */
};

/*
 * One step: taken from the cache where kept (with what its compiler
 * printed then), else run; its compiler's output added to all.  1 when
 * its file was made, 0 when not, -1 when the compiler could not be run.
 */
static int
run_step(const struct ks_compile_job *j, const struct step *s, struct plan_run *pr, struct ks_buf *all)
{
	struct ks_proc_opts o = { 0 };
	struct ks_proc_result r;
	char *key = step_key(s, pr->version, pr->harness_sum), *text;
	int lock = ks_runner_cache_lock(key), ok;

	if (ks_runner_cache_get(key, s->out, &text)) {
		ks_buf_puts(all, text);
		free(text);
		pr->runner_cached |= s->kind == STEP_RUNNER;
		ks_runner_cache_unlock(key, lock);
		free(key);
		return 1;
	}
	o.timeout_s = ks_compile_limit_s(j->prob);
	/* the compiler reads untrusted source: no keys in its environment, no network, limits */
	o.sandbox = 1;
	o.fsize_mb = 1024;
	o.mem_mb = ks_compile_mem_mb(j->prob);
	o.out_path = o.err_path = j->log;
	/* and a file system of the system's and of what its words name, where bubblewrap runs */
	char **boxed = ks_sandbox_wrap_compiler(s->argv);

	if (!boxed || ks_proc_run(boxed, &o, &r) < 0) {
		ks_argv_free(boxed);
		ks_runner_cache_unlock(key, lock);
		free(key);
		return -1;
	}
	ks_sandbox_signal_fix(boxed, &r);
	ks_argv_free(boxed);
	pr->seconds += r.seconds;
	pr->last = r;
	ok = r.exited && r.status == 0 && ks_exists(s->out);
	if ((text = ks_file_read(j->log, NULL))) {
		if (ok && key)
			ks_runner_cache_put(key, s->out, text);
		ks_buf_puts(all, text);
		free(text);
	}
	ks_runner_cache_unlock(key, lock);
	free(key);
	return ok;
}

/*
 * Runs the plan's steps in turn, each one's output added to the log;
 * stops at the first that fails, or at the kernel's object when the
 * static check refuses it.  1 when every program was made, 0 when not,
 * -1 when a compiler could not be run.
 */
static int
run_plan(const struct ks_compile_job *j, const struct build_plan *b, struct plan_run *pr)
{
	struct ks_buf all = { 0 };
	int ok = 1;

	ks_buf_add(&all, "", 0);
	for (size_t i = 0; i < b->n && ok == 1; i++) {
		ok = run_step(j, &b->step[i], pr, &all);
		if (ok == 1 && b->step[i].kind == STEP_KERNEL && j->check_object &&
		    (*pr->refused = j->check_object(j, b->step[i].out)))
			ok = 0;
	}
	if (ok >= 0 && ks_file_write_atomic(j->log, all.s, all.len) < 0)
		ok = -1;
	ks_buf_free(&all);
	return ok;
}

int
ks_compile(const struct ks_compile_job *j, cJSON *rec, char **refused)
{
	struct build_plan b;
	struct plan_run pr = { 0 };
	char *cmd = NULL, *version = NULL, *diag, *ksum = NULL, *hsum = NULL;
	cJSON *res;
	int ok = -1;

	*refused = NULL;
	if (ks_target_arch_check(j->target) < 0 || plan_build(j, &b) < 0)
		return -1;
	if (!(version = ks_compile_version(b.step[0].argv[0])))
		goto out;
	/* what the record was measured on: the kernel and the harness as they are now */
	if (!(ksum = ks_sha256_file(j->kernel)) || !(hsum = ks_harness_sha256(j->prob)))
		goto out;
	cmd = plan_command(&b);
	plan_clean(&b);
	pr.version = version;
	pr.harness_sum = hsum;
	pr.refused = refused;
	ok = run_plan(j, &b, &pr);
	plan_clean_objects(&b);
	if (ok < 0)
		goto out;
	diag = ks_compile_diagnostics(j->log, &pr.last, ok, "compiler");
	cJSON_AddBoolToObject(rec, "ok", ok);
	cJSON_AddStringToObject(rec, "target", j->target->name);
	cJSON_AddStringToObject(rec, "compiler", version);
	cJSON_AddStringToObject(rec, "command", cmd);
	cJSON_AddNumberToObject(rec, "seconds", (double)(long)(pr.seconds * 1000 + 0.5) / 1000);
	cJSON_AddBoolToObject(rec, "runner_cached", pr.runner_cached);
	cJSON_AddStringToObject(rec, "diagnostics", diag);
	res = ks_target_resources(j->target, diag);
	cJSON_AddItemToObject(rec, "resources", res ? res : cJSON_CreateNull());
	cJSON_AddStringToObject(rec, "kernel_sha256", ksum);
	cJSON_AddStringToObject(rec, "harness_sha256", hsum);
	free(diag);
	if (!ok)
		plan_clean(&b);
out:
	plan_free(&b);
	free(cmd);
	free(version);
	free(ksum);
	free(hsum);
	return ok;
}

int
ks_compiler_found(const struct ks_target *t)
{
	const char *cc = ks_target_compiler(t);
	char *found;
	int ok;

	if (strchr(cc, '/'))
		return access(cc, X_OK) == 0;
	found = ks_find_in_path(cc);
	ok = found != NULL;
	free(found);
	return ok;
}

