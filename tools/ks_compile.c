/*
 * ks_compile.c - one build of a kernel with its problem's harness, the
 * way ks-build records it and ks-implement checks a model's code.
 */
#include <ctype.h>
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

/*
 * One program's command line: flags of the target, the shared sources
 * common, the problem's sources listed under key, the kernel when
 * with_kernel, and -o out.
 */
static char **
program_argv(const struct ks_compile_job *j, const char *const *common, const char *key, int with_kernel,
    const char *out)
{
	char *kdir = ks_kernels_dir(), **argv;
	const cJSON *src;
	size_t n;

	argv = ks_compile_options(j, &n);
	for (const char *const *c = common; *c; c++)
		ks_argv_add(&argv, &n, ks_easprintf("%s/common/%s", kdir, *c));
	cJSON_ArrayForEach(src, cJSON_GetObjectItemCaseSensitive(j->prob->json, key))
		if (cJSON_IsString(src))
			ks_argv_add(&argv, &n, ks_easprintf("%s/%s", j->prob->dir, src->valuestring));
	if (with_kernel)
		ks_argv_add(&argv, &n, ks_estrdup(j->kernel));
	ks_argv_add(&argv, &n, ks_estrdup("-o"));
	ks_argv_add(&argv, &n, ks_estrdup(out));
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
 * The two programs of a build: the judge's runner (no kernel) and its
 * worker (the glue and the kernel), the worker first so that the
 * kernel's own errors come first.
 */
#define PLAN_PROGRAMS	2

struct build_plan {
	char **argv[PLAN_PROGRAMS];
	char *out[PLAN_PROGRAMS];
};

static int
plan_build(const struct ks_compile_job *j, struct build_plan *b)
{
	memset(b, 0, sizeof *b);
	/* every target runs the kernel under a judge: none is linked into the harness's process */
	if (!ks_problem_judged(j->prob)) {
		ks_warnx("'%s': target %s runs the kernel in a process of its own: give \"worker_sources\", the "
		    "call glue (ks-problem(5))", j->prob->path, j->target->name);
		return -1;
	}
	b->out[0] = ks_compile_worker_path(j->runner);
	b->argv[0] = program_argv(j, j->target->worker_common, "worker_sources", 1, b->out[0]);
	b->out[1] = ks_estrdup(j->runner);
	b->argv[1] = program_argv(j, j->target->judge_common, "harness_sources", 0, b->out[1]);
	return 0;
}

static void
plan_free(struct build_plan *b)
{
	for (int i = 0; i < PLAN_PROGRAMS; i++) {
		ks_argv_free(b->argv[i]);
		free(b->out[i]);
	}
}

/* the plan's commands, as a shell would run them one after the other */
static char *
plan_command(const struct build_plan *b)
{
	char *a = ks_shell_quote_argv(b->argv[0]), *c = ks_shell_quote_argv(b->argv[1]), *two;

	two = ks_easprintf("%s && %s", a, c);
	free(a);
	free(c);
	return two;
}

/*
 * Runs the plan's compilers in turn, each one's output added to log;
 * stops at the first that fails.  1 when every program was made, 0 when
 * not, -1 when a compiler could not be run; *r is the last run's, with
 * the seconds of all.
 */
static int
run_plan(const struct ks_compile_job *j, const struct build_plan *b, const char *runner_key, struct ks_proc_result *r,
    int *cached)
{
	struct ks_proc_opts o = { 0 };
	struct ks_buf all = { 0 };
	double seconds = 0;
	int ok = 1, lock = -1;

	o.timeout_s = ks_compile_limit_s(j->prob);
	/* the compiler reads untrusted source: no keys in its environment, no network */
	o.sandbox = 1;
	o.fsize_mb = 4096;
	o.out_path = o.err_path = j->log;
	ks_buf_add(&all, "", 0);
	*cached = 0;
	for (int i = 0; i < PLAN_PROGRAMS && ok; i++) {
		char *text;

		/* the runner (the last program) as an earlier build made it, with what its compiler printed then */
		if (i == PLAN_PROGRAMS - 1) {
			lock = ks_runner_cache_lock(runner_key);
			if (ks_runner_cache_get(runner_key, b->out[i], &text)) {
				ks_buf_puts(&all, text);
				free(text);
				*cached = 1;
				continue;
			}
		}
		if (ks_proc_run(b->argv[i], &o, r) < 0) {
			ks_runner_cache_unlock(runner_key, lock);
			ks_buf_free(&all);
			return -1;
		}
		seconds += r->seconds;
		ok = r->exited && r->status == 0 && ks_exists(b->out[i]);
		if ((text = ks_file_read(j->log, NULL))) {
			if (ok && i == PLAN_PROGRAMS - 1)
				ks_runner_cache_put(runner_key, b->out[i], text);
			ks_buf_puts(&all, text);
			free(text);
		}
	}
	ks_runner_cache_unlock(runner_key, lock);
	r->seconds = seconds;
	if (ks_file_write_atomic(j->log, all.s, all.len) < 0)
		ok = -1;
	ks_buf_free(&all);
	return ok;
}

int
ks_compile(const struct ks_compile_job *j, cJSON *rec)
{
	struct ks_proc_result r;
	struct build_plan b;
	char *cmd = NULL, *version = NULL, *diag, *ksum = NULL, *hsum = NULL, *rkey = NULL;
	cJSON *res;
	int ok = -1, cached;

	if (ks_target_arch_check(j->target) < 0 || plan_build(j, &b) < 0)
		return -1;
	if (!(version = ks_compile_version(b.argv[0][0])))
		goto out;
	/* what the record was measured on: the kernel and the harness as they are now */
	if (!(ksum = ks_sha256_file(j->kernel)) || !(hsum = ks_harness_sha256(j->prob)))
		goto out;
	cmd = plan_command(&b);
	/* Only programs of this very build may stand as the runner (and its worker). */
	for (int i = 0; i < PLAN_PROGRAMS; i++)
		unlink(b.out[i]);
	rkey = ks_runner_cache_key("runner", b.argv[1], b.out[1], version, hsum);
	if ((ok = run_plan(j, &b, rkey, &r, &cached)) < 0)
		goto out;
	diag = ks_compile_diagnostics(j->log, &r, ok, "compiler");
	cJSON_AddBoolToObject(rec, "ok", ok);
	cJSON_AddStringToObject(rec, "target", j->target->name);
	cJSON_AddStringToObject(rec, "compiler", version);
	cJSON_AddStringToObject(rec, "command", cmd);
	cJSON_AddNumberToObject(rec, "seconds", (double)(long)(r.seconds * 1000 + 0.5) / 1000);
	cJSON_AddBoolToObject(rec, "runner_cached", cached);
	cJSON_AddStringToObject(rec, "diagnostics", diag);
	res = ks_target_resources(j->target, diag);
	cJSON_AddItemToObject(rec, "resources", res ? res : cJSON_CreateNull());
	cJSON_AddStringToObject(rec, "kernel_sha256", ksum);
	cJSON_AddStringToObject(rec, "harness_sha256", hsum);
	free(diag);
	if (!ok)
		for (int i = 0; i < PLAN_PROGRAMS; i++)
			unlink(b.out[i]);
out:
	plan_free(&b);
	free(cmd);
	free(version);
	free(ksum);
	free(hsum);
	free(rkey);
	return ok;
}

/*
 * What the compiler reads of the kernel: its preprocessed text, each line
 * of the kernel's own file at its line number (line markers say whose a
 * line is), so that token pasting and macros hide nothing from the
 * static check.  NULL when the preprocessor failed (the build will say why).
 */
static char *
expanded(const struct ks_compile_job *j, const char *dir)
{
	size_t n;
	char **argv = ks_compile_options(j, &n), *out = ks_easprintf("%s/expanded", dir), *text;
	struct ks_proc_opts o = { 0 };
	struct ks_proc_result r;
	struct ks_buf b = { 0 };
	int mine = 1;

	ks_argv_add(&argv, &n, ks_estrdup("-E"));
	ks_argv_add(&argv, &n, ks_estrdup(j->kernel));
	o.out_path = out;
	o.timeout_s = ks_compile_limit_s(j->prob);
	o.sandbox = 1;
	o.fsize_mb = 1024;
	text = ks_proc_run(argv, &o, &r) == 0 && r.exited && r.status == 0 ? ks_file_read(out, NULL) : NULL;
	ks_argv_free(argv);
	free(out);
	if (!text)
		return NULL;
	/* each of the kernel's lines in its place: markers may set the number back */
	char **at = NULL;
	long cur = 1, max = 0;
	for (char *line = text, *next; *line; line = next) {
		long num;
		char file[4096];

		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		/* # 12 "kernel.cu" 2, or #line 12 "kernel.cu" */
		if ((sscanf(line, "# %ld \"%4095[^\"]\"", &num, file) == 2 ||
		    sscanf(line, "#line %ld \"%4095[^\"]\"", &num, file) == 2)) {
			mine = strcmp(file, j->kernel) == 0;
			cur = num > 0 && num < 10000000 ? num : 1;
			continue;
		}
		if (mine && *line) {
			if (cur > max) {
				at = ks_erealloc(at, (size_t)(cur + 1) * sizeof *at);
				for (long k = max + 1; k <= cur; k++)
					at[k] = NULL;
				max = cur;
			}
			char *joined = ks_easprintf("%s%s%s", at[cur] ? at[cur] : "", at[cur] ? " " : "", line);

			free(at[cur]);
			at[cur] = joined;
		}
		cur++;
	}
	ks_buf_add(&b, "", 0);
	for (long k = 1; k <= max; k++) {
		ks_buf_printf(&b, "%s\n", at[k] ? at[k] : "");
		free(at[k]);
	}
	free(at);
	free(text);
	return b.s;
}

/* 1 when name is allowed: the target's imports or the problem's "allowed_symbols". */
static int
import_allowed(const struct ks_compile_job *j, const char *name)
{
	const cJSON *a;

	for (const char *const *i = j->target->imports; *i; i++)
		if (strcmp(*i, name) == 0)
			return 1;
	cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(j->prob->json, "allowed_symbols"))
		if (cJSON_IsString(a) && strcmp(a->valuestring, name) == 0)
			return 1;
	return 0;
}

/*
 * Host instructions that read a clock or enter the operating system
 * without a call a name shows (inline assembly, a builtin): looked for in
 * the object's host code, disassembled (objdump -d).  A GPU kernel's device
 * code is not host code, and keeps its own inline assembly.
 */
static char *
host_instructions_refusal(const char *obj)
{
	static const char *const banned[] = { "rdtsc", "rdtscp", "rdpmc", "syscall", "sysenter", "int", NULL };
	char *argv[] = { "objdump", "-d", "--no-show-raw-insn", (char *)obj, NULL };
	char *text = ks_proc_capture(argv, 60), *why = NULL;

	for (char *line = text, *save = NULL, *l; text && !why && (l = strtok_r(line, "\n", &save)); line = NULL) {
		char *tab = strchr(l, '\t'), mnem[32];

		/* "  10c:\trdtsc", "  11e:\tint    $0x80" */
		if (!tab || sscanf(tab + 1, "%31s", mnem) != 1)
			continue;
		for (const char *const *b = banned; *b && !why; b++)
			if (strcmp(mnem, *b) == 0 && (strcmp(*b, "int") != 0 || strstr(tab, "$0x80")))
				why = ks_easprintf("executes '%s' in its host code: a clock or a system call that no name shows "
				    "(inline assembly or a builtin); the harness does the timing and the talking to the system",
				    strcmp(*b, "int") == 0 ? "int $0x80" : *b);
	}
	free(text);
	return why;
}

/* 1 when name is the entry point: as C names it, or C++'s mangling of it (_Z6fp8_mm...) */
static int
is_entry(const char *name, const char *entry)
{
	size_t n = strlen(entry);
	char *end;

	if (strcmp(name, entry) == 0)
		return 1;
	if (strncmp(name, "_Z", 2) != 0 || strtoul(name + 2, &end, 10) != n)
		return 0;
	return strncmp(end, entry, n) == 0;
}

/* Sections whose code runs before or after main: constructors and destructors. */
static const char *const init_sections[] = { ".init_array", ".fini_array", ".preinit_array", ".ctors", ".dtors",
	NULL };

/*
 * What a GPU compiler defines in every object with device code, not the
 * kernel: the C++ personality routine's reference (nvcc's host side), and
 * the constructor that registers the device code with the runtime
 * (nvcc's, hipcc's), the one entry of .init_array such an object has.
 */
static const char *const compiler_globals[] = { "DW.ref.__gxx_personality_v0", NULL };
static const char *const registration_ctors[] = { "_ZL24__sti____cudaRegisterAllv", "__hip_module_ctor", NULL };

/* 1 for a target whose kernels hold device code, compiled by a GPU compiler */
static int
device_code(const struct ks_target *t)
{
	return strcmp(t->device, "nvidia") == 0 || strcmp(t->device, "amd") == 0;
}

static int
listed(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (strcmp(*list, name) == 0)
			return 1;
	return 0;
}

/* the name of the function at offset addend of section sect in obj (readelf -sW), or NULL; allocated */
static char *
function_at(const char *obj, const char *sect, unsigned long addend)
{
	char *sh[] = { "readelf", "-SW", (char *)obj, NULL }, *sy[] = { "readelf", "-sW", (char *)obj, NULL };
	char *sections = ks_proc_capture(sh, 60), *symbols = NULL, *found = NULL, name[256];
	long index = -1;

	for (char *line = sections, *save = NULL, *l; sections && index < 0 && (l = strtok_r(line, "\n", &save));
	    line = NULL) {
		long i;

		/* "  [ 2] .text             PROGBITS ..." */
		if (sscanf(l, " [%ld] %255s", &i, name) == 2 && strcmp(name, sect) == 0)
			index = i;
	}
	if (index >= 0 && (symbols = ks_proc_capture(sy, 60)))
		for (char *line = symbols, *save = NULL, *l; !found && (l = strtok_r(line, "\n", &save)); line = NULL) {
			unsigned long value;
			char type[32], ndx[32];

			/* "    19: 000000000000038c   147 FUNC    LOCAL  DEFAULT    2 _ZL24__sti____cudaRegisterAllv" */
			if (sscanf(l, " %*[0-9]: %lx %*s %31s %*s %*s %31s %255s", &value, type, ndx, name) == 4 &&
			    strcmp(type, "FUNC") == 0 && strtol(ndx, NULL, 10) == index && value == addend)
				found = ks_estrdup(name);
		}
	free(sections);
	free(symbols);
	return found;
}

/*
 * NULL when .init_array holds only the compiler's registration of device
 * code (at most one entry), else why not.  readelf -rW gives each entry
 * as "SYMBOL + ADDEND", the symbol often a section (".text + 38c").
 */
static char *
init_array_refusal(const char *obj)
{
	char *rd[] = { "readelf", "-rW", (char *)obj, NULL }, *text = ks_proc_capture(rd, 60), *why = NULL;
	int in = 0, entries = 0;

	for (char *line = text, *save = NULL, *l; text && !why && (l = strtok_r(line, "\n", &save)); line = NULL) {
		char target[256], *fn;
		unsigned long addend = 0;

		if (strncmp(l, "Relocation section", 18) == 0) {
			in = strstr(l, "'.rela.init_array'") != NULL;
			continue;
		}
		/* "0000000000000000  0000000200000001 R_X86_64_64  0000000000000000 .text + 38c" */
		if (!in || sscanf(l, "%*x %*x %*s %*x %255s + %lx", target, &addend) < 1)
			continue;
		entries++;
		fn = target[0] == '.' ? function_at(obj, target, addend) : ks_estrdup(target);
		if (entries > 1 || !fn || !listed(registration_ctors, fn))
			why = ks_easprintf("has a constructor (%s in .init_array): code that runs before the call is not "
			    "allowed", fn ? fn : target);
		free(fn);
	}
	free(text);
	return why;
}

/*
 * What the kernel's object defines for others (nm --defined-only -g): the
 * entry point and nothing else.  A kernel that defined qsort, strtod or
 * memcpy would take the place of the C library's in every call of its
 * process; a constructor (.init_array, .ctors) or an IFUNC resolver would
 * run before the call.  Static functions and data are the kernel's own
 * business.  "allowed_symbols" widens what it may import, never this.
 */
static char *
definitions_refusal(const struct ks_compile_job *j, const char *obj)
{
	char *nm[] = { "nm", "--defined-only", (char *)obj, NULL }, *readelf[] = { "readelf", "-SW", (char *)obj, NULL };
	char *syms = ks_proc_capture(nm, 60), *sections = NULL, *why = NULL;

	for (char *line = syms, *save = NULL, *l; syms && !why && (l = strtok_r(line, "\n", &save)); line = NULL) {
		char type, name[512];

		/* "0000000000000490 T sgemm" */
		if (sscanf(l, "%*s %c %511s", &type, name) != 2)
			continue;
		if (type == 'i')
			why = ks_easprintf("defines '%s' as an indirect function (IFUNC), whose resolver would run before "
			    "main: define the entry point '%s' only", name, j->prob->entry_name);
		else if (((isupper((unsigned char)type) && type != 'N') || type == 'u') && !is_entry(name, j->prob->entry_name) &&
		    !(device_code(j->target) && listed(compiler_globals, name)))
			why = ks_easprintf("defines the global symbol '%s': a kernel's object may define its entry point "
			    "'%s' and nothing else (make '%s' static), so that it cannot stand in for a function of the C "
			    "library or of the harness", name, j->prob->entry_name, name);
	}
	if (!why && syms && (sections = ks_proc_capture(readelf, 60)))
		for (char *line = sections, *save = NULL, *l; !why && (l = strtok_r(line, "\n", &save)); line = NULL) {
			char *br = strchr(l, ']'), name[256];

			/* "  [ 5] .init_array        INIT_ARRAY ..." */
			if (!br || sscanf(br + 1, "%255s", name) != 1)
				continue;
			for (const char *const *s = init_sections; *s && !why; s++) {
				if (strncmp(name, *s, strlen(*s)) != 0)
					continue;
				/* a GPU object's .init_array registers its device code: that one entry, and no other */
				if (device_code(j->target) && strcmp(name, ".init_array") == 0)
					why = init_array_refusal(obj);
				else
					why = ks_easprintf("has a constructor or destructor (its object holds section %s): code "
					    "that runs before or after the call is not allowed", name);
			}
		}
	free(syms);
	free(sections);
	return why;
}

/*
 * The symbols the kernel's object imports (nm -u), each against the
 * target's list: a name the text hides (a macro, token pasting, a call
 * through a name built at run time still needs the symbol) shows here.
 * NULL when all are allowed or the object could not be made (the build
 * says why).
 */
static char *
imports_refusal(const struct ks_compile_job *j, const char *dir)
{
	size_t n;
	char **argv = ks_compile_options(j, &n), *obj = ks_easprintf("%s/kernel.o", dir), *why = NULL, *syms = NULL;
	struct ks_proc_opts o = { 0 };
	struct ks_proc_result r;

	ks_argv_add(&argv, &n, ks_estrdup("-c"));
	ks_argv_add(&argv, &n, ks_estrdup(j->kernel));
	ks_argv_add(&argv, &n, ks_estrdup("-o"));
	ks_argv_add(&argv, &n, ks_estrdup(obj));
	o.timeout_s = ks_compile_limit_s(j->prob);
	o.sandbox = 1;
	o.fsize_mb = 4096;
	if (ks_proc_run(argv, &o, &r) == 0 && r.exited && r.status == 0) {
		char *nm[] = { "nm", "-u", obj, NULL };

		syms = ks_proc_capture(nm, 60);
	}
	for (char *line = syms, *save = NULL, *tok; syms && !why && (tok = strtok_r(line, "\n", &save)); line = NULL) {
		char *name = strrchr(tok, ' ');

		name = name ? name + 1 : tok;
		name[strcspn(name, "@")] = '\0';	/* a versioned name: its base */
		if (*name && !import_allowed(j, name))
			why = ks_easprintf("imports '%s', which a kernel for target %s may not use (it is no compute: "
			    "files, threads, clocks, streams, code loading or patching); a problem that needs it lists "
			    "it in problem.json \"allowed_symbols\"", name, j->target->name);
	}
	if (!why && syms)
		why = host_instructions_refusal(obj);
	if (!why && syms)
		why = definitions_refusal(j, obj);
	ks_argv_free(argv);
	free(syms);
	free(obj);
	return why;
}

static int
ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Replaces each whole identifier word of text that is in words (a list of " name ") by spaces. */
static void
blank_words(char *text, const char *words)
{
	for (char *p = text; *p; ) {
		size_t n;

		if (!ident_char(*p) || (p > text && ident_char(p[-1]))) {
			p++;
			continue;
		}
		for (n = 0; ident_char(p[n]); n++)
			;
		char *w = ks_easprintf(" %.*s ", (int)n, p);
		if (strstr(words, w))
			memset(p, ' ', n);
		free(w);
		p += n;
	}
}

/*
 * The ks_ names that the target's own include folders (the HIP-on-CUDA
 * shims) put into a kernel's expansion, so that the static check does not
 * take the shims' names for the kernel's: each name found in those files,
 * exactly.  A kernel that pastes such a name gains nothing: they are error
 * markers, not the harness's functions.
 */
static void
blank_shim_names(const struct ks_compile_job *j, char *text)
{
	char *kdir = ks_kernels_dir();
	struct ks_buf words = { 0 };

	ks_buf_add(&words, " ", 1);
	for (const char *const *i = j->target->includes; *i; i++) {
		char *dir = ks_easprintf("%s/common/%s", kdir, *i);
		char *cmd[] = { "grep", "-rhoE", "\\bks_[A-Za-z0-9_]+", dir, NULL };
		char *found = ks_proc_capture(cmd, 30);

		for (char *save = NULL, *w = found ? strtok_r(found, "\n", &save) : NULL; w; w = strtok_r(NULL, "\n", &save))
			ks_buf_printf(&words, "%s ", w);
		free(found);
		free(dir);
	}
	if (words.len > 1)
		blank_words(text, words.s);
	ks_buf_free(&words);
	free(kdir);
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

char *
ks_compile_refusal(const struct ks_compile_job *j)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = ks_easprintf("%s/ks-check.XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp"), *text, *why = NULL;
	const cJSON *forbidden = cJSON_GetObjectItemCaseSensitive(j->prob->json, "forbidden");

	/* no compiler: the build itself says so, once */
	if (!ks_compiler_found(j->target)) {
		free(dir);
		return NULL;
	}
	if (!mkdtemp(dir)) {
		ks_warn("cannot make a temporary directory '%s'", dir);
		free(dir);
		return NULL;
	}
	if ((text = expanded(j, dir))) {
		blank_shim_names(j, text);
		why = ks_static_check_expanded(text, forbidden, !j->target->host_asm);
		free(text);
	}
	if (!why)
		why = imports_refusal(j, dir);
	ks_remove_tree(dir);
	free(dir);
	return why;
}
