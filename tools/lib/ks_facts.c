/*
 * ks_facts.c - the target section of every prompt: the target's facts
 * file, how the kernels are compiled (the flags of the targets table,
 * the compiler's version), on the CPU the machine's cores, caches,
 * instruction set and measured peak, the device benched, and how a
 * kernel is timed.  Read when the prompt is made; a fact whose source
 * says nothing is "unknown", never an error.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_ask.h"

/* ---- the CPU, from sysfs ---- */

#define MAX_CPUS 4096

/* The first line of root/path, trimmed; NULL when there is none.  Quiet: sysfs may lack any file. */
static char *
sys_line(const char *root, const char *path)
{
	char *full = ks_easprintf("%s%s", root ? root : "", path), buf[4096];
	FILE *f = fopen(full, "r");
	char *out = NULL;

	free(full);
	if (!f)
		return NULL;
	if (fgets(buf, sizeof buf, f)) {
		size_t len = strcspn(buf, "\n");

		while (len > 0 && isspace((unsigned char)buf[len - 1]))
			len--;
		if (len > 0)
			out = ks_estrndup(buf, len);
	}
	fclose(f);
	return out;
}

/* sys_line of the file name in the folder dir */
static char *
sys_field(const char *root, const char *dir, const char *name)
{
	char *path = ks_easprintf("%s/%s", dir, name), *out = sys_line(root, path);

	free(path);
	return out;
}

/* The CPUs of a sysfs list ("0-3,8-11") marked in on; how many, or -1 when it does not parse. */
static int
cpu_list(const char *s, char *on)
{
	int n = 0;

	if (!s)
		return -1;
	while (*s) {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;

		if (end == s || lo < 0 || lo >= MAX_CPUS)
			return -1;
		if (*end == '-') {
			s = end + 1;
			hi = strtol(s, &end, 10);
			if (end == s || hi < lo || hi >= MAX_CPUS)
				return -1;
		}
		for (long c = lo; c <= hi; c++)
			if (on && !on[c]++)
				n++;
			else if (!on)
				n++;
		s = end;
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return n;
}

/*
 * Physical cores and hardware threads of the online CPUs: threads from
 * the online list, cores as distinct (package, core) pairs.  -1 each
 * where sysfs does not say.
 */
static void
cpu_counts(const char *root, int *cores, int *threads)
{
	char *online = sys_line(root, "/sys/devices/system/cpu/online"), *on = ks_ecalloc(MAX_CPUS, 1);
	long *pairs = ks_ecalloc(MAX_CPUS, sizeof *pairs);
	int n = 0;

	*cores = *threads = -1;
	if ((*threads = cpu_list(online, on)) <= 0) {
		*threads = -1;
		goto out;
	}
	for (int c = 0; c < MAX_CPUS; c++) {
		char *dir, *pkg, *core;
		long key;
		int j;

		if (!on[c])
			continue;
		dir = ks_easprintf("/sys/devices/system/cpu/cpu%d/topology", c);
		pkg = sys_field(root, dir, "physical_package_id");
		core = sys_field(root, dir, "core_id");
		free(dir);
		if (!pkg || !core) {
			free(pkg);
			free(core);
			goto out;
		}
		key = atol(pkg) * 1000000 + atol(core);
		free(pkg);
		free(core);
		for (j = 0; j < n && pairs[j] != key; j++)
			;
		if (j == n)
			pairs[n++] = key;
	}
	*cores = n;
out:
	free(online);
	free(on);
	free(pairs);
}

/* sysfs's "48K" as "48 KiB", "2048K" as "2 MiB" */
static char *
cache_size(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s)
		return ks_estrdup(s);
	if (*end == 'M')
		v *= 1024;
	return v >= 1024 && v % 1024 == 0 ? ks_easprintf("%ld MiB", v / 1024) : ks_easprintf("%ld KiB", v);
}

/* "L1d 48 KiB per core, L2 2 MiB per core, L3 480 MiB shared by 16 threads" of cpu0; "" when sysfs has none */
static void
add_caches(struct ks_buf *b, const char *root, int smt)
{
	int shown = 0;

	for (int i = 0; i < 16; i++) {
		char *dir = ks_easprintf("/sys/devices/system/cpu/cpu0/cache/index%d", i);
		char *level, *type, *size, *shared;
		int sharing;

		level = sys_field(root, dir, "level");
		type = sys_field(root, dir, "type");
		size = sys_field(root, dir, "size");
		shared = sys_field(root, dir, "shared_cpu_list");
		free(dir);
		if (level && type && size && strcmp(type, "Instruction") != 0) {
			char *sz = cache_size(size);

			sharing = cpu_list(shared, NULL);
			ks_buf_printf(b, "%sL%s%s %s", shown++ ? ", " : "", level, strcmp(type, "Data") == 0 ? "d" : "", sz);
			if (sharing > 0 && smt > 0 && sharing <= smt)
				ks_buf_puts(b, " per core");
			else if (sharing > 0)
				ks_buf_printf(b, " shared by %d hardware threads", sharing);
			free(sz);
		}
		free(level);
		free(type);
		free(size);
		free(shared);
	}
}

/* The "model name" of root/proc/cpuinfo, or NULL. */
static char *
cpu_model(const char *root)
{
	char *path = ks_easprintf("%s/proc/cpuinfo", root ? root : ""), buf[1024], *out = NULL;
	FILE *f = fopen(path, "r");

	free(path);
	if (!f)
		return NULL;
	while (!out && fgets(buf, sizeof buf, f)) {
		char *colon = strchr(buf, ':');

		if (strncmp(buf, "model name", 10) == 0 && colon) {
			colon += 1 + strspn(colon + 1, " \t");
			out = ks_estrndup(colon, strcspn(colon, "\n"));
		}
	}
	fclose(f);
	return out;
}

char *
ks_facts_cpu(const char *root, int *cores_out)
{
	struct ks_buf b = { 0 };
	int cores, threads, smt;
	size_t before;

	cpu_counts(root, &cores, &threads);
	smt = cores > 0 && threads > 0 && threads % cores == 0 ? threads / cores : -1;
	if (cores_out)
		*cores_out = cores;
	if (smt == 1)
		ks_buf_printf(&b, "- CPU: %d physical cores, %d hardware threads (no SMT).\n", cores, threads);
	else if (smt > 1)
		ks_buf_printf(&b, "- CPU: %d physical cores, %d hardware threads (SMT: %d per core).\n", cores, threads,
		    smt);
	else if (threads > 0)
		ks_buf_printf(&b, "- CPU: %d hardware threads; physical cores unknown.\n", threads);
	else
		ks_buf_puts(&b, "- CPU: cores and hardware threads unknown.\n");
	ks_buf_puts(&b, "- Caches (of cpu0): ");
	before = b.len;
	add_caches(&b, root, smt);
	ks_buf_puts(&b, b.len == before ? "unknown.\n" : ".\n");
	return b.s;
}

/* ---- the compiler ---- */

/* what the compiler prints for its flags and extra (NULL-terminated), or NULL when it is not here */
static char *
compiler_says(const struct ks_target *t, const char *const *extra)
{
	const char *cc = ks_target_compiler(t);
	char *found = ks_find_in_path(cc), **argv = NULL, *text;
	size_t n = 0;

	if (!found)
		return NULL;
	free(found);
	ks_argv_add(&argv, &n, ks_estrdup(cc));
	for (const char *const *f = t->flags; *f; f++)
		ks_argv_add(&argv, &n, ks_estrdup(*f));
	for (const char *const *e = extra; *e; e++)
		ks_argv_add(&argv, &n, ks_estrdup(*e));
	text = ks_proc_capture(argv, 30);
	ks_argv_free(argv);
	return text;
}

/* the value gcc's -Q --help=target gives option on its own line ("  -march=   rocketlake"), or NULL */
static char *
target_option(const char *help, const char *option)
{
	size_t olen = strlen(option);

	for (const char *line = help; line && *line; line += strcspn(line, "\n"), line += *line == '\n') {
		const char *p = line + strspn(line, " \t"), *end;

		if (strncmp(p, option, olen) != 0 || (p[olen] != ' ' && p[olen] != '\t'))
			continue;
		p += olen + strspn(p + olen, " \t");
		end = p + strcspn(p, " \t\n");
		/* "[enabled]", "[default]": no value of its own */
		return end > p && *p != '[' ? ks_estrndup(p, (size_t)(end - p)) : NULL;
	}
	return NULL;
}

/*
 * The instruction set a CPU kernel is compiled for: the feature macros
 * the compiler defines under the target's flags (what a kernel guards its
 * intrinsics with), and, from gcc, what -march=native resolves to and
 * the vector width its auto-vectorizer prefers.
 */
static void
add_isa(struct ks_buf *b, const struct ks_target *t)
{
	static const char *const macros[] = {
		"__SSE4_2__", "__AVX__", "__AVX2__", "__FMA__", "__F16C__", "__AVX512F__", "__AVX512BW__",
		"__AVX512DQ__", "__AVX512VL__", "__AVX512VNNI__", "__AVX512BF16__", "__AVX512FP16__", "__AVXVNNI__",
		"__AMX_TILE__", "__ARM_NEON", "__ARM_FEATURE_FMA", "__ARM_FEATURE_SVE", "__ARM_FEATURE_SVE2",
		"__ARM_FEATURE_SME", NULL,
	};
	static const char *const dm[] = { "-dM", "-E", "-x", "c", "/dev/null", NULL };
	static const char *const help[] = { "-Q", "--help=target", NULL };
	char *defs = compiler_says(t, dm), *h = defs ? compiler_says(t, help) : NULL;
	char *march = target_option(h, "-march="), *width = target_option(h, "-mprefer-vector-width=");
	int n = 0;

	ks_buf_puts(b, "- Instruction set: ");
	if (!defs) {
		ks_buf_printf(b, "unknown (%s is not on this machine's PATH).\n", ks_target_compiler(t));
		return;
	}
	if (march)
		ks_buf_printf(b, "-march=native is %s here; ", march);
	for (const char *const *m = macros; *m; m++) {
		char *line = ks_easprintf("#define %s ", *m);

		if (strstr(defs, line))
			ks_buf_printf(b, "%s%s", n++ ? " " : "the compiler defines ", *m);
		free(line);
	}
	if (!n)
		ks_buf_puts(b, "no SIMD feature macro defined beyond the base architecture's");
	if (width && strcmp(width, "none") != 0) {
		ks_buf_printf(b, "; its auto-vectorizer prefers %s-bit vectors (-mprefer-vector-width=%s)", width, width);
		if (strstr(defs, "#define __AVX512F__ ") && atoi(width) < 512)
			ks_buf_puts(b, ", so 512-bit code takes intrinsics or #pragma GCC target(\"prefer-vector-width=512\")");
	}
	ks_buf_puts(b, ".\n");
	free(defs);
	free(h);
	free(march);
	free(width);
}

/* The compiler's version: the newest build.json's, else what it says now; NULL when neither says. */
static char *
compiler_version(const struct ks_target *t, const struct ks_cand *c, size_t n)
{
	char *found;

	for (size_t i = n; i-- > 0;) {
		char *path = ks_easprintf("%s/build.json", c[i].dir);
		struct ks_build_rec rec;
		char *v = NULL;

		if (ks_build_rec_load(path, KS_LOAD_SILENT, &rec) == 0) {
			if (rec.compiler && *rec.compiler && rec.target && strcmp(rec.target, t->name) == 0)
				v = ks_estrdup(rec.compiler);
			ks_build_rec_free(&rec);
		}
		free(path);
		if (v)
			return v;
	}
	if (!(found = ks_find_in_path(ks_target_compiler(t))))
		return NULL;
	free(found);
	return ks_compile_version(ks_target_compiler(t));
}

/*
 * "The kernels are compiled for sm_90a with `nvcc ...` (version)": the
 * flags of the targets table, as ks-build gives them, with the target's
 * own include folders; and for nvcc's sm_XXa under -gencode, that its own
 * instructions need no guard.
 */
static void
add_build(struct ks_buf *b, const struct ks_target *t, const struct ks_cand *c, size_t n)
{
	const char *arch = ks_target_arch(t), *cc = ks_target_compiler(t), *slash = strrchr(cc, '/');
	char *flag = ks_target_arch_flag(t), *version = compiler_version(t, c, n);

	if (arch)
		ks_buf_printf(b, "The kernels are compiled for %s with `%s", arch, slash ? slash + 1 : cc);
	else
		ks_buf_printf(b, "The kernels are compiled with `%s", slash ? slash + 1 : cc);
	for (const char *const *f = t->flags; *f; f++)
		ks_buf_printf(b, " %s", *f);
	if (flag)
		ks_buf_printf(b, " %s", flag);
	for (const char *const *i = t->includes; *i; i++)
		ks_buf_printf(b, " -I kernels/common/%s", *i);
	ks_buf_printf(b, "` (%s)", version ? version : "its version unknown: it is not on this machine's PATH");
	if (t->gencode && arch && strncmp(arch, "sm_", 3) == 0 && arch[strlen(arch) - 1] == 'a')
		ks_buf_printf(b, ": %s's code only, no PTX for another architecture, so %s's own instructions need no "
		    "`__CUDA_ARCH_FEAT_SM%.*s_ALL` guard", arch, arch, (int)strlen(arch) - 4, arch + 3);
	ks_buf_puts(b, ".\n");
	free(flag);
	free(version);
}

/* ---- measured on the bench machine ---- */

/* The newest candidate's bench.json that has key, or NULL. */
static const struct ks_cand *
newest_with(const struct ks_cand *c, size_t n, const char *key)
{
	for (size_t i = n; i-- > 0;)
		if (c[i].bench.json && cJSON_GetObjectItemCaseSensitive(c[i].bench.json, key) &&
		    !cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(c[i].bench.json, key)))
			return &c[i];
	return NULL;
}

/* the peak the runner measured before the newest such candidate ran, per core where the cores are known */
static void
add_peak(struct ks_buf *b, const struct ks_cand *c, size_t n, int cores)
{
	const struct ks_cand *k = newest_with(c, n, "peak");
	const cJSON *peak = k ? cJSON_GetObjectItemCaseSensitive(k->bench.json, "peak") : NULL;
	double flops = 0, threads = 0, bits = 0;

	if (!peak || ks_json_num(peak, "flops_per_s", NULL, &flops) < 0 || !(flops > 0))
		return;
	ks_json_num(peak, "threads", NULL, &threads);
	ks_json_num(peak, "vector_bits", NULL, &bits);
	ks_buf_printf(b, "- Peak: %.4g GFLOP/s fp32 with all %.0f OpenMP threads", flops / 1e9, threads);
	if (cores > 0)
		ks_buf_printf(b, ", %.4g GFLOP/s per physical core", flops / 1e9 / cores);
	else if (threads > 0)
		ks_buf_printf(b, ", %.4g GFLOP/s per thread", flops / 1e9 / threads);
	ks_buf_printf(b, " (%.0f-bit vectors%s), measured by the runner before %s ran.\n", bits,
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(peak, "fma")) ? ", fused multiply-add" : "", k->id);
}

/*
 * The device the benchmarks ran on: bench.json's "device", with the GPU's
 * name and L2 where the harness's timer text gives them ("... on NVIDIA
 * H200 (L2 60.0 MiB): ...").
 */
static void
add_device(struct ks_buf *b, const struct ks_cand *c, size_t n)
{
	const struct ks_cand *k = newest_with(c, n, "device");
	const char *timer, *on, *l2, *end;

	if (!k)
		return;
	ks_buf_printf(b, "The benchmarks run on: %s", k->bench.device);
	timer = k->bench.timer;
	if (timer && (on = strstr(timer, " on ")) && (l2 = strstr(on, " (L2 ")) && (end = strchr(l2, ')')) &&
	    !memchr(on, ':', (size_t)(l2 - on)))
		ks_buf_printf(b, " (%.*s, L2 %.*s as the device reports it)", (int)(l2 - on - 4), on + 4,
		    (int)(end - l2 - 5), l2 + 5);
	ks_buf_puts(b, "\n");
}

/* ---- how a kernel is timed ---- */

/* ks-bench's setting: the variable, else problem.json's limits, else its default */
static double
bench_setting(const struct ks_problem *p, const char *env, const char *key, double dflt)
{
	const char *e = getenv(env);
	double v;

	if (e && *e && ks_parse_double(e, &v) == 0 && v > 0)
		return v;
	if (ks_json_num(ks_json_obj(p->json, "limits", NULL), key, NULL, &v) == 0 && v > 0)
		return v;
	return dflt;
}

/*
 * The harness's timing rules, in a few lines: each number is the
 * harness's (kernels/common/ks_harness.c: WARMUP_S; ks_harness_bench.c:
 * WARMUP_CALLS, TARGET_RSE, WALL_CAPS, SPOT_ONE_IN, SPOT_PER_BATCH,
 * BATCH_S, BATCH_BYTES; ks_judge.h: KS_JUDGE_MAX_BATCH; ks_gpu.hip: FLUSH_LLCS,
 * LLC_FLOOR) or ks-bench's (its defaults: a time cap of 2 s, 5 runs, a
 * warm-up of 50 ms),
 * and tests/0204 holds them to it.  "" for target external, whose
 * evaluator times as it does.
 */
static char *
timing_rules(const struct ks_target *t, const struct ks_problem *p)
{
	double cap = bench_setting(p, "KS_TIME_CAP_S", "time_cap_s", 2.0);
	double runs = bench_setting(p, "KS_MIN_RUNS", "min_runs", 5);
	double warm = bench_setting(p, "KS_BENCH_WARMUP_S", "warmup_s", 0.05);
	int gpu = strcmp(t->device, "cpu") != 0;
	struct ks_buf b = { 0 };

	ks_buf_add(&b, "", 0);
	if (ks_target_external(t))
		return b.s;
	ks_buf_printf(&b, "\nHow the score is measured: each benchmark shape is called to warm up (at least 2 calls and "
	    "%g ms), then timed %s until the standard error of the mean is under 0.5 %% of it or %g s of timed calls "
	    "are spent (%g s with the checks), at least %g %s%s either way. The shape's time is the median of the "
	    "timed %s, and the score the geometric mean over the shapes. Every timed call gets new input contents, "
	    "written %s, and calls picked at random are checked after they return (one in four%s).",
	    warm * 1e3, gpu ? "in batches" : "call by call", cap, 4 * cap, runs, gpu ? "batch" : "call",
	    runs == 1 ? "" : gpu ? "es" : "s", gpu ? "batches' time per call" : "calls",
	    gpu ? "before its batch" : "just before it", gpu ? ", at most about two a batch" : "");
	if (gpu)
		ks_buf_printf(&b, " A batch is calls back to back, about 10 ms of them (at most 128, and 1 GiB of "
		    "buffers), each on inputs and an output of its own; before it the harness flushes the caches "
		    "(it reads twice %s) and waits for the device. The worker's events on the default stream time "
		    "the batch, from before your first launch to after your last, an empty call's time subtracted, "
		    "and a call's time is the batch's over its calls; work still running after your function "
		    "returns counts, since another process times the same batch from outside and raises times "
		    "it cannot bear out.\n", strcmp(t->device, "amd") == 0 ?
		    "the larger of the L2 and the 256 MiB Infinity Cache" : "the L2");
	else
		ks_buf_puts(&b, " A call's time runs from waking the kernel's process to its being stopped after the call "
		    "returned, an empty call's time subtracted: OpenMP's fork and join (waking the thread team, the "
		    "barrier at the end) are inside it. The caches are not flushed: the harness writes each call's "
		    "inputs from its own process just before the call.\n");
	return b.s;
}

/* ---- the section ---- */

/* prompts/targets/<target>-<arch>.md where one describes the architecture built, else <target>.md with a caveat */
static char *
facts_file(const struct ks_target *t)
{
	const char *arch = ks_target_arch(t);
	char *file = arch ? ks_easprintf("targets/%s-%s.md", t->name, arch) : NULL, *path, *text = NULL, *out;

	path = file ? ks_prompt_path(file) : NULL;
	if (path && ks_exists(path))
		text = ks_prompt_file(file);
	free(path);
	free(file);
	if (text)
		return text;
	file = ks_easprintf("targets/%s.md", t->name);
	text = ks_prompt_file(file);
	free(file);
	if (!text || !arch || !t->arch_default || strcmp(arch, t->arch_default) == 0)
		return text;
	out = ks_easprintf("%s\nThese facts describe %s; this run builds for %s (KS_GPU_ARCH), which may differ: trust "
	    "the measurements over them.\n", text, t->arch_default, arch);
	free(text);
	return out;
}

/*
 * The CPU's facts, of this machine: the stages of a CPU run are made
 * where it is benched.  Where the newest bench says another CPU ran it,
 * the section says so.
 */
static void
add_cpu(struct ks_buf *b, const struct ks_target *t, const struct ks_cand *c, size_t n)
{
	const struct ks_cand *k = newest_with(c, n, "device");
	char *model = cpu_model(NULL), *cpu;
	int cores = -1;

	cpu = ks_facts_cpu(NULL, &cores);
	if (k && model && !strstr(k->bench.device, model))
		ks_buf_printf(b, "This machine (%s), where this prompt is made; the benchmarks ran on %s:\n", model,
		    k->bench.device);
	else if (model)
		ks_buf_printf(b, "This machine (%s), where the benchmarks run:\n", model);
	else
		ks_buf_puts(b, "This machine, where the benchmarks run:\n");
	ks_buf_puts(b, cpu);
	add_isa(b, t);
	add_peak(b, c, n, cores);
	free(model);
	free(cpu);
}

char *
ks_ctx_target(const struct ks_problem *p, const char *target, const struct ks_cand *c, size_t n)
{
	const struct ks_target *t = ks_target_find(target);
	struct ks_buf b = { 0 };
	char *text, *timing;

	if (!t || !(text = facts_file(t)))
		return NULL;
	ks_buf_puts(&b, text);
	free(text);
	if (!ks_target_external(t))
		add_build(&b, t, c, n);
	if (strcmp(t->device, "cpu") == 0)
		add_cpu(&b, t, c, n);
	else
		add_device(&b, c, n);
	timing = timing_rules(t, p);
	ks_buf_puts(&b, timing);
	free(timing);
	return b.s;
}
