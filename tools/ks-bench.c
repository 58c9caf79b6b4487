/*
 * ks-bench - run one built candidate's harness in a child process with a
 * wall-clock and a memory limit: correctness on every test shape, then a
 * time for every benchmark shape.  Records bench.json.  A wrong, crashing
 * or hanging kernel is a result (exit 0); a broken setup is not.
 */
#include <sys/stat.h>
#include <sys/utsname.h>

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks.h"

struct bench {
	const char *dir;
	char *root, id[24];
	long gen, slot;
	struct ks_run run;
	struct ks_problem prob;
	const struct ks_target *target;
	double time_cap_s, timeout_s;
	long mem_mb, min_runs, fsize_mb, max_procs;
	int gpus[KS_LOCK_ANY_MAX], ngpus;	/* GPU targets: indices to use */
	int gpus_given;				/* from KS_GPUS, not found */
	char *device;				/* "device" of bench.json */
	const char *salt;			/* KS_BENCH_SALT, or NULL */
	char *sandbox;				/* "sandbox" of bench.json */
};

/*
 * A setting: the environment overrides problem.json's "limits".  Counts
 * (integer) must be whole numbers: 0.5 runs is a mistake to name, not
 * something to round to 0.
 */
static int
setting(const struct ks_problem *p, const char *env, const char *key, int integer, double dflt, double *out)
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

/* how many /dev/<dir>/<prefix>N entries there are */
static int
count_devices(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t len = strlen(prefix);
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (strncmp(e->d_name, prefix, len) == 0 && e->d_name[len] &&
		    strspn(e->d_name + len, "0123456789") == strlen(e->d_name + len))
			n++;
	closedir(d);
	return n;
}

/* the variable that tells a target's GPU runtime which GPUs it sees */
static const char *
visibility_var(const struct ks_target *t)
{
	return strcmp(t->device, "amd") == 0 ? "HIP_VISIBLE_DEVICES" : "CUDA_VISIBLE_DEVICES";
}

/*
 * The GPUs a GPU target's benches may use, one harness on each at a
 * time: KS_GPUS ("0,1,3"), else every GPU this machine has (/dev/nvidiaN;
 * /dev/dri/renderDN for AMD, which KS_GPUS overrides where that counts
 * other GPUs too).  Where the user set CUDA_VISIBLE_DEVICES or
 * HIP_VISIBLE_DEVICES, what it shows is used as one device.
 */
static int
load_gpus(struct bench *b)
{
	const char *given = getenv("KS_GPUS"), *p;
	int amd = strcmp(b->target->device, "amd") == 0, n;
	char *end;

	if (strcmp(b->target->device, "cpu") == 0)
		return 0;
	if (given && *given) {
		for (p = given; *p; p = *end ? end + 1 : end) {
			long v = strtol(p, &end, 10);

			if (end == p || v < 0 || v > 4095 || (*end && *end != ',') ||
			    b->ngpus == KS_LOCK_ANY_MAX) {
				ks_warnx("bad KS_GPUS '%s': expected GPU indices such as 0,1,3 (at most %d)",
				    given, KS_LOCK_ANY_MAX);
				return -1;
			}
			b->gpus[b->ngpus++] = (int)v;
		}
		b->gpus_given = 1;
		return 0;
	}
	if (getenv(visibility_var(b->target)))
		return 0;
	n = amd ? count_devices("/dev/dri", "renderD") : count_devices("/dev", "nvidia");
	for (b->ngpus = 0; b->ngpus < n && b->ngpus < KS_LOCK_ANY_MAX; b->ngpus++)
		b->gpus[b->ngpus] = b->ngpus;
	return 0;
}

static int
load_settings(struct bench *b)
{
	double mem, min_runs, fsize, procs;

	if (setting(&b->prob, "KS_TIME_CAP_S", "time_cap_s", 0, 2.0, &b->time_cap_s) < 0 ||
	    setting(&b->prob, "KS_BENCH_FILE_MB", "file_mb", 1, 1024, &fsize) < 0 ||
	    setting(&b->prob, "KS_BENCH_PROCS", "procs", 1, 4096, &procs) < 0 ||
	    setting(&b->prob, "KS_BENCH_TIMEOUT_S", "bench_s", 0, 300, &b->timeout_s) < 0 ||
	    setting(&b->prob, "KS_BENCH_MEMORY_MB", "memory_mb", 1, 4096, &mem) < 0 ||
	    setting(&b->prob, "KS_MIN_RUNS", "min_runs", 1, 5, &min_runs) < 0)
		return -1;
	b->mem_mb = (long)mem;
	b->min_runs = (long)min_runs;
	b->fsize_mb = (long)fsize;
	b->max_procs = (long)procs;
	if ((b->salt = getenv("KS_BENCH_SALT")) && (!*b->salt || strspn(b->salt, "0123456789") != strlen(b->salt))) {
		ks_warnx("bad KS_BENCH_SALT '%s': expected an unsigned integer (the salt of a bench.json)", b->salt);
		return -1;
	}
	return load_gpus(b);
}

static void
add_shapes(char ***argv, size_t *n, const struct ks_problem *p, const cJSON *shapes, const char *flag)
{
	const cJSON *s;

	cJSON_ArrayForEach(s, shapes) {
		char *name = ks_shape_name(s, p->dims);
		long seed;

		ks_argv_add(argv, n, ks_estrdup(flag));
		if (ks_json_int(s, "seed", NULL, 0, 1L << 62, &seed) == 0)
			ks_argv_add(argv, n, ks_easprintf("%s@%ld", name, seed));
		else
			ks_argv_add(argv, n, ks_estrdup(name));
		free(name);
	}
}

static char **
runner_argv(const struct bench *b)
{
	const cJSON *tol = cJSON_GetObjectItemCaseSensitive(b->prob.json, "tolerance");
	char **argv = NULL;
	double rtol = 1e-4, atol = 1e-3;
	long seed = 1;
	size_t n = 0;

	ks_json_num(tol, "rtol", NULL, &rtol);
	ks_json_num(tol, "atol", NULL, &atol);
	ks_json_int(b->prob.json, "seed", NULL, 0, 1L << 62, &seed);
	/* absolute: the runner starts in a directory of its own */
	char *dir = realpath(b->dir, NULL);

	ks_argv_add(&argv, &n, ks_easprintf("%s/runner", dir ? dir : b->dir));
	free(dir);
	ks_argv_add(&argv, &n, ks_estrdup("--json-fd"));
	ks_argv_add(&argv, &n, ks_estrdup("3"));
	ks_argv_add(&argv, &n, ks_estrdup("--seed"));
	ks_argv_add(&argv, &n, ks_easprintf("%ld", seed));
	ks_argv_add(&argv, &n, ks_estrdup("--rtol"));
	ks_argv_add(&argv, &n, ks_easprintf("%.17g", rtol));
	ks_argv_add(&argv, &n, ks_estrdup("--atol"));
	ks_argv_add(&argv, &n, ks_easprintf("%.17g", atol));
	ks_argv_add(&argv, &n, ks_estrdup("--time-cap"));
	ks_argv_add(&argv, &n, ks_easprintf("%.17g", b->time_cap_s));
	ks_argv_add(&argv, &n, ks_estrdup("--min-runs"));
	ks_argv_add(&argv, &n, ks_easprintf("%ld", b->min_runs));
	/* Otherwise the harness draws a salt no kernel can know; this one repeats a run. */
	if (b->salt) {
		ks_argv_add(&argv, &n, ks_estrdup("--salt"));
		ks_argv_add(&argv, &n, ks_estrdup(b->salt));
	}
	add_shapes(&argv, &n, &b->prob, b->prob.test_shapes, "--test");
	add_shapes(&argv, &n, &b->prob, b->prob.bench_shapes, "--bench");
	return argv;
}

static char *
cpu_name(void)
{
	char *info = ks_file_read("/proc/cpuinfo", NULL), *line, *colon, *nl, *name = NULL;
	long threads = sysconf(_SC_NPROCESSORS_ONLN);
	struct utsname u;

	if (info && (line = strstr(info, "model name")) && (colon = strchr(line, ':'))) {
		colon += 1 + (colon[1] == ' ');
		if ((nl = strchr(colon, '\n')))
			*nl = '\0';
		name = ks_easprintf("cpu: %s (%ld threads)", colon, threads);
	} else if (uname(&u) == 0) {
		name = ks_easprintf("cpu: %s (%ld threads)", u.machine, threads);
	}
	free(info);
	return name ? name : ks_estrdup("cpu");
}

static cJSON *
new_result(const struct bench *b, const char *status, const char *message)
{
	cJSON *r = cJSON_CreateObject();
	char *device = b->device ? ks_estrdup(b->device) : cpu_name();

	cJSON_AddStringToObject(r, "id", b->id);
	cJSON_AddStringToObject(r, "status", status);
	cJSON_AddBoolToObject(r, "correct", 0);
	cJSON_AddArrayToObject(r, "results");
	cJSON_AddNullToObject(r, "score_us");
	cJSON_AddStringToObject(r, "device", device);
	cJSON_AddNullToObject(r, "timer");
	ks_json_set_str(r, "message", message);
	free(device);
	return r;
}

/*
 * A sum of products of numbers and the shape's dimensions, the way
 * problem.json's "bound" writes the work of a shape ("2*m*n*k",
 * "2*rows*cols*2 + cols*2"); -1 when expr is not one.
 */
static double
eval_work(const char *expr, const cJSON *shape)
{
	double sum = 0, prod = 1, f;
	const char *p = expr;
	char *end, name[64];

	for (;;) {
		while (*p == ' ')
			p++;
		if (isdigit((unsigned char)*p)) {
			f = strtod(p, &end);
			p = end;
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
			const cJSON *v;

			if (n >= sizeof name)
				return -1;
			memcpy(name, p, n);
			name[n] = '\0';
			p += n;
			if (!cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(shape, name)))
				return -1;
			f = v->valuedouble;
		} else {
			return -1;
		}
		prod *= f;
		while (*p == ' ')
			p++;
		if (*p == '*') {
			p++;
			continue;
		}
		sum += prod;
		prod = 1;
		if (*p == '+')
			p++;
		else
			return *p == '\0' ? sum : -1;
	}
}

/*
 * The least time a shape can take on the target, in us, from problem.json
 * "bound": {"flops" or "bytes": work, "peak_flops_per_s" or
 * "peak_bytes_per_s": a number, or one per target}.  0 when the problem
 * gives none for this target; -1, said, when the bound is malformed.
 */
static double
sol_us(const struct bench *b, const cJSON *shape)
{
	const cJSON *bound = cJSON_GetObjectItemCaseSensitive(b->prob.json, "bound"), *peak;
	const char *flops = ks_json_str(bound, "flops", NULL), *bytes = ks_json_str(bound, "bytes", NULL);
	double work;

	if (!bound)
		return 0;
	peak = cJSON_GetObjectItemCaseSensitive(bound, flops ? "peak_flops_per_s" : "peak_bytes_per_s");
	if (cJSON_IsObject(peak) && !(peak = cJSON_GetObjectItemCaseSensitive(peak, b->target->name)))
		return 0;
	if (!(flops || bytes) || !cJSON_IsNumber(peak) || peak->valuedouble <= 0 ||
	    (work = eval_work(flops ? flops : bytes, shape)) < 0) {
		ks_warnx("'%s': field \"bound\" must hold \"flops\" or \"bytes\" (a sum of products of numbers "
		    "and dims) and a positive peak per second", b->prob.path);
		return -1;
	}
	return work / peak->valuedouble * 1e6;
}

static const char *const stat_keys[] = {
	"time_us", "mean_us", "median_us", "min_us", "max_us", "stderr_us", "runs"
};

/* Copies the harness's per-shape numbers under the problem's own shape. */
/*
 * Copies the harness's per-shape numbers into res under the problem's
 * shapes and computes the score.  A time under the shape's speed of light
 * sets *faster, the reason the result cannot stand.  Returns 0, -1 when
 * the numbers do not fit the shapes, -2 when the problem's bound is bad.
 */
static int
add_results(const struct bench *b, const cJSON *hres, cJSON *res, double *score, char **faster)
{
	const cJSON *shapes = b->prob.bench_shapes, *d;
	cJSON *results = cJSON_GetObjectItemCaseSensitive(res, "results");
	int n = cJSON_GetArraySize(shapes);
	double logsum = 0;

	if (!cJSON_IsArray(hres) || cJSON_GetArraySize(hres) != n)
		return -1;
	for (int i = 0; i < n; i++) {
		const cJSON *h = cJSON_GetArrayItem(hres, i), *s = cJSON_GetArrayItem(shapes, i);
		cJSON *e = cJSON_CreateObject(), *shape = cJSON_AddObjectToObject(e, "shape");
		double v;

		cJSON_AddItemToArray(results, e);
		cJSON_ArrayForEach(d, b->prob.dims)
			cJSON_AddNumberToObject(shape, d->valuestring,
			    cJSON_GetObjectItemCaseSensitive(s, d->valuestring)->valuedouble);
		/* The spread of a single run is unknown: null, not a number. */
		for (size_t k = 0; k < sizeof stat_keys / sizeof stat_keys[0]; k++) {
			const cJSON *x = cJSON_GetObjectItemCaseSensitive(h, stat_keys[k]);

			if (cJSON_IsNull(x) && strcmp(stat_keys[k], "stderr_us") == 0)
				cJSON_AddNullToObject(e, stat_keys[k]);
			else if (ks_json_num(h, stat_keys[k], NULL, &v) < 0 || v < 0)
				return -1;
			else
				cJSON_AddNumberToObject(e, stat_keys[k], v);
		}
		if (ks_json_num(h, "time_us", NULL, &v) < 0 || v <= 0)
			return -1;
		logsum += log(v);
		double sol = sol_us(b, shape);

		if (sol < 0)
			return -2;
		if (sol > 0) {
			cJSON_AddNumberToObject(e, "bound_us", sol);
			if (v < sol && !*faster) {
				char *name = ks_shape_name(s, b->prob.dims);

				*faster = ks_easprintf("bench shape %s: %.4g us is faster than the speed of light "
				    "of that shape on %s, %.4g us (problem.json \"bound\"): the harness cannot have "
				    "seen all the work", name, v, b->target->name, sol);
				free(name);
			}
		}
	}
	*score = exp(logsum / n);
	return 0;
}

/* What the harness printed decides ok or incorrect; anything else is a crash. */
static cJSON *
verdict(const struct bench *b, const char *json_path, const struct ks_proc_result *pr, const char *log_path)
{
	cJSON *h = NULL, *res;
	char *text, *why;
	const cJSON *correct, *salt;
	double score;

	if (pr->timed_out) {
		char *d = ks_proc_describe(pr);

		why = ks_easprintf("the harness was %s (limit %.0f s; KS_BENCH_TIMEOUT_S)", d, b->timeout_s);
		res = new_result(b, "timeout", why);
		free(d);
		free(why);
		return res;
	}
	if (!pr->exited || pr->status != 0) {
		char *d = ks_proc_describe(pr), *log = ks_file_read(log_path, NULL);
		size_t len = log ? strlen(log) : 0;

		why = ks_easprintf("the harness %s%s%s", d, len ? "; its last output: " : "",
		    len ? log + (len > 400 ? len - 400 : 0) : "");
		res = new_result(b, "crashed", why);
		free(d);
		free(log);
		free(why);
		return res;
	}
	/* the harness's own report: anything that is not one JSON object is a crash below */
	text = ks_file_read(json_path, NULL);
	if (text && *text)
		h = ks_json_parse(text, strlen(text), NULL);
	free(text);
	correct = h ? cJSON_GetObjectItemCaseSensitive(h, "correct") : NULL;
	salt = h ? cJSON_GetObjectItemCaseSensitive(h, "salt") : NULL;
	if (!cJSON_IsBool(correct)) {
		res = new_result(b, "crashed", "the harness exited without a valid result");
	} else if (cJSON_IsFalse(correct)) {
		const char *f = ks_json_str(h, "failure", NULL);
		res = new_result(b, "incorrect", f ? f : "wrong result");
	} else {
		char *faster = NULL;
		int added;

		res = new_result(b, "ok", NULL);
		if ((added = add_results(b, cJSON_GetObjectItemCaseSensitive(h, "results"), res, &score, &faster)) == -2) {
			cJSON_Delete(res);
			res = NULL;
		} else if (added < 0) {
			cJSON_Delete(res);
			res = new_result(b, "crashed", "the harness printed results that do not match the benchmark shapes");
		} else {
			cJSON_ReplaceItemInObjectCaseSensitive(res, "correct", cJSON_CreateTrue());
			ks_json_set_str(res, "timer", ks_json_str(h, "timer", NULL));
			/* faster than physics: a timer that missed the work, not a record */
			if (faster) {
				ks_json_set_str(res, "status", "rejected");
				ks_json_set_str(res, "message", faster);
			} else {
				ks_json_set_num(res, "score_us", score);
			}
		}
		free(faster);
	}
	if (res && b->sandbox)
		cJSON_AddStringToObject(res, "sandbox", b->sandbox);
	/* the inputs' salt: KS_BENCH_SALT=it repeats this run's inputs */
	/* all its digits (up to 2^53), never an exponent, so that it can be pasted back */
	if (res && cJSON_IsNumber(salt) && salt->valuedouble >= 0 && salt->valuedouble < 9007199254740992.0) {
		char digits[32];

		snprintf(digits, sizeof digits, "%.0f", salt->valuedouble);
		cJSON_AddRawToObject(res, "salt", digits);
	}
	cJSON_Delete(h);
	return res;
}

/* the lock of one device: "cpu", or a GPU's index */
static char *
lock_path(const char *device, int index)
{
	const char *dir = getenv("KS_LOCK_DIR");

	if (!dir || !*dir)
		dir = "/tmp";
	if (index < 0)
		return ks_easprintf("%s/kernel-scientist-bench-%s.lock", dir, device);
	return ks_easprintf("%s/kernel-scientist-bench-%s-%d.lock", dir, device, index);
}

/*
 * One harness at a time per device, even under make -j: waits for the
 * first free device of the target's and, for a GPU, makes it the only one
 * the runner sees.  Returns 0 with the lock held, -1 on an error.
 */
static int
take_device(struct bench *b)
{
	char *paths[KS_LOCK_ANY_MAX];
	int n = b->ngpus ? b->ngpus : 1, got, i;
	const char *var = visibility_var(b->target);

	for (i = 0; i < n; i++)
		paths[i] = lock_path(b->target->device, b->ngpus ? b->gpus[i] : -1);
	got = ks_lock_any(paths, n);
	for (i = 0; i < n; i++)
		free(paths[i]);
	if (got < 0 || !b->ngpus)
		return got < 0 ? -1 : 0;
	char *index = ks_easprintf("%d", b->gpus[got]);

	if (setenv(var, index, 1) < 0) {
		ks_warn("cannot set %s", var);
		free(index);
		return -1;
	}
	free(b->device);
	b->device = ks_easprintf("%s GPU %s (%s=%s)", b->target->device, index, var, index);
	free(index);
	return 0;
}

/* 1 when bubblewrap runs here with what the sandbox asks of it */
static int
bwrap_works(void)
{
	char *argv[] = { "bwrap", "--ro-bind", "/", "/", "--dev-bind", "/dev", "/dev", "--proc", "/proc",
		"--unshare-net", "--unshare-pid", "--die-with-parent", "true", NULL };
	struct ks_proc_opts o = { .timeout_s = 20 };
	struct ks_proc_result r;
	char *found = ks_find_in_path("bwrap");

	if (!found)
		return 0;
	free(found);
	return ks_proc_run(argv, &o, &r) == 0 && r.exited && r.status == 0;
}

/*
 * How the harness is shut in.  With bubblewrap (KS_SANDBOX=bwrap, the
 * default where it works): the whole file system read-only but for the
 * run's own directory, /dev as it is (the GPU), a /proc and /dev/shm of
 * its own, no network, its own process tree (nothing it starts outlives
 * it), dying with ks-bench.  Always (KS_SANDBOX=basic alone): a minimal
 * environment, a network namespace, file-size and memory limits (ks_proc.c).
 * Returns the argv to run (argv itself, or a new one that took argv's
 * strings and freed it), or NULL with argv untouched.
 */
static char **
sandbox_argv(struct bench *b, char **argv, const char *box)
{
	const char *want = getenv("KS_SANDBOX");
	char **out = NULL, *abox;
	size_t n = 0;

	if (want && *want && strcmp(want, "bwrap") != 0 && strcmp(want, "basic") != 0) {
		ks_warnx("bad KS_SANDBOX '%s': expected bwrap or basic", want);
		return NULL;
	}
	if ((want && strcmp(want, "basic") == 0) || (!(want && *want) && !bwrap_works())) {
		b->sandbox = ks_estrdup("basic: minimal environment, own network namespace where permitted, "
		    "file-size, memory and process limits, own working directory");
		return argv;
	}
	if (want && *want && !bwrap_works()) {
		ks_warnx("KS_SANDBOX=bwrap, but bwrap does not run here (install bubblewrap; it needs namespaces)");
		return NULL;
	}
	if (!(abox = realpath(box, NULL))) {
		ks_warn("cannot resolve '%s'", box);
		return NULL;
	}
	const char *pre[] = { "bwrap", "--ro-bind", "/", "/", "--dev-bind", "/dev", "/dev", "--tmpfs", "/dev/shm",
		"--proc", "/proc", "--bind", abox, abox, "--chdir", abox, "--unshare-net", "--unshare-pid",
		"--unshare-ipc", "--die-with-parent", "--", NULL };
	for (const char **p = pre; *p; p++)
		ks_argv_add(&out, &n, ks_estrdup(*p));
	for (char **a = argv; *a; a++)
		ks_argv_add(&out, &n, *a);
	free(argv);
	free(abox);
	b->sandbox = ks_estrdup("bwrap: file system read-only but its own directory, no network, own process "
	    "tree, minimal environment, file-size, memory and process limits");
	return out;
}

static cJSON *
run_harness(struct bench *b)
{
	struct ks_proc_opts o = { 0 };
	struct ks_proc_result pr;
	char **argv = runner_argv(b), *json = ks_easprintf("%s/.harness.json.XXXXXX", b->dir);
	char *log = ks_easprintf("%s/bench.log", b->dir), *box = ks_easprintf("%s/.sandbox", b->dir), **wrapped;
	cJSON *res = NULL;
	int fd;

	/* the runner's own working directory, empty at the start, removed at the end */
	if (ks_remove_tree(box) < 0 || mkdir(box, 0700) < 0) {
		ks_warn("cannot make the working directory '%s'", box);
		goto out;
	}
	if (!(wrapped = sandbox_argv(b, argv, box)))
		goto out;
	argv = wrapped;
	/* A name of its own, so no harness left over from a killed run can write into it. */
	if ((fd = mkstemp(json)) < 0) {
		ks_warn("cannot create a temporary file in '%s'", b->dir);
		goto out;
	}
	close(fd);
	o.out_path = o.err_path = log;
	o.result_fd = 3;
	o.result_path = json;
	o.timeout_s = b->timeout_s;
	/*
	 * The address-space limit holds memory to account on the CPU; a GPU
	 * runtime reserves terabytes of virtual addresses for unified memory
	 * and cannot even start under it, so GPU targets go without.
	 */
	o.mem_mb = strcmp(b->target->device, "cpu") == 0 ? b->mem_mb : 0;
	o.cpu_s = (long)(b->timeout_s * 4) + 10;
	o.cwd = box;
	o.sandbox = 1;
	o.fsize_mb = b->fsize_mb;
	o.max_procs = b->max_procs;
	if (take_device(b) == 0 && ks_proc_run(argv, &o, &pr) == 0) {
		/* bubblewrap passes on a signal that killed the runner as 128 + its number */
		if (strcmp(argv[0], "bwrap") == 0 && pr.exited &&
		    pr.status > 128 && pr.status < 128 + 65) {
			pr.exited = 0;
			pr.signaled = 1;
			pr.sig = pr.status - 128;
		}
		res = verdict(b, json, &pr, log);
	}
	unlink(json);
	ks_remove_tree(box);
out:
	free(box);
	for (char **a = argv; a && *a; a++)
		free(*a);
	free(argv);
	free(json);
	free(log);
	return res;
}

/* The verdict on a built candidate, or the record of why it was not built; NULL on a tool error (said). */
static cJSON *
bench_cand(struct bench *b)
{
	char *bpath = ks_easprintf("%s/build.json", b->dir), *runner = ks_easprintf("%s/runner", b->dir);
	struct ks_build_rec build;
	cJSON *res = NULL;

	if (ks_build_rec_load(bpath, 0, &build) < 0)
		goto out_paths;
	if (build.rejected) {
		/* refused by ks-implement or by ks-build's static check */
		res = new_result(b, "rejected", build.rejected);
	} else if (!build.ok) {
		res = new_result(b, "build_failed", "the kernel did not compile: see diagnostics in build.json");
	} else if (!b->gpus_given && !ks_target_device_present(b->target)) {
		/* A GPU kernel built on a machine without that GPU waits for one: not a failure. */
		char *why = ks_easprintf("no %s device on this machine for target %s: bench it where there is one",
		    b->target->device, b->target->name);
		res = new_result(b, "no_device", why);
		free(why);
	} else if (!ks_exists(runner)) {
		ks_warnx("'%s' says the build succeeded, but '%s' is missing: run ks-build again", bpath, runner);
	} else {
		res = run_harness(b);
	}
	ks_build_rec_free(&build);
out_paths:
	free(bpath);
	free(runner);
	return res;
}

static int
bench(const char *dir, const char *out)
{
	struct bench b = { .dir = dir };
	char *path = NULL;
	cJSON *res = NULL;
	int rc = 1;

	if (ks_cand_dir_parse(dir, &b.root, &b.gen, &b.slot) < 0)
		return 1;
	ks_id_format(b.id, sizeof b.id, b.gen, b.slot);
	if (ks_run_load(b.root, &b.run) < 0)
		goto out;
	if (!(b.target = ks_target_find(b.run.target)) || ks_problem_load(b.run.problem, &b.prob) < 0)
		goto out_run;
	if (load_settings(&b) < 0 || !(res = bench_cand(&b)))
		goto out_prob;
	path = out ? ks_estrdup(out) : ks_easprintf("%s/bench.json", dir);
	if (ks_json_save(path, res) == 0)
		rc = 0;
out_prob:
	ks_problem_free(&b.prob);
out_run:
	ks_run_free(&b.run);
out:
	cJSON_Delete(res);
	free(path);
	free(b.root);
	free(b.device);
	free(b.sandbox);
	return rc;
}

int
main(int argc, char *argv[])
{
	const char *out, *dir;
	int rval;

	dir = ks_args_dir_out(argc, argv, "pop/gen-NNN/cS",
	    "  Runs the candidate's harness (pop/gen-NNN/cS/runner) in a child process:\n"
	    "  every test shape is checked, then every benchmark shape is timed.\n"
	    "  Writes bench.json: {\"id\", \"status\", \"correct\", \"results\", \"score_us\",\n"
	    "  \"device\", \"timer\", \"message\"}; status is ok, incorrect, build_failed,\n"
	    "  crashed or timeout.  Environment: KS_TIME_CAP_S (timing per shape),\n"
	    "  KS_BENCH_TIMEOUT_S (wall clock), KS_BENCH_MEMORY_MB, KS_MIN_RUNS,\n"
	    "  KS_LOCK_DIR (where the per-device locks live, default /tmp),\n"
	    "  KS_GPUS (the GPUs to bench on, e.g. 0,1: the first free one is taken),\n"
	    "  KS_BENCH_SALT (the inputs of an earlier bench.json's \"salt\"; default random),\n"
	    "  KS_BENCH_FILE_MB (the largest file the harness may write, default 1024),\n"
	    "  KS_BENCH_PROCS (processes and threads of the harness, default 4096),\n"
	    "  KS_SANDBOX (bwrap, the default where bubblewrap runs, or basic).\n", &out);
	rval = bench(dir, out);
	if (ks_fclose_stdout() < 0)
		rval = 1;
	return rval;
}
