/*
 * ks-profile - what a profiler says of one benched kernel: for one call on
 * the benchmark shape furthest from the speed of light, Nsight Compute's
 * achieved occupancy, DRAM and SM throughput as % of peak, the warp-stall
 * reasons and the shared-memory bank conflicts, in cS/profile.json, for
 * the digest in the hypothesize prompt.  Given POP/gen-NNN it profiles
 * that generation's base (select.json), once per kernel.
 *
 * An optional stage (make generation KS_PROFILE=1): where no profiler
 * runs (the CPU, an AMD GPU, a machine without ncu, a profiler that
 * fails) profile.json says why and the stage succeeds.  The runner runs
 * under ncu in --profile mode: one warm call, then one call inside the
 * profiler's range; no check, no verdict, and not locked down, since
 * the profiler's injection opens files and sockets in the process.
 */
#include <sys/stat.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks.h"

/* the metrics asked of ncu, and the warp-stall reasons (smsp__average_warps_issue_stalled_<r>_per_issue_active.ratio) */
static const char *const metrics[] = {
	"gpu__time_duration.sum",
	"sm__warps_active.avg.pct_of_peak_sustained_active",
	"sm__maximum_warps_per_active_cycle_pct",
	"dram__throughput.avg.pct_of_peak_sustained_elapsed",
	"sm__throughput.avg.pct_of_peak_sustained_elapsed",
	"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
	"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
};
static const char *const stalls[] = {
	"long_scoreboard", "short_scoreboard", "barrier", "mio_throttle", "math_pipe_throttle", "lg_throttle",
	"wait", "not_selected", "no_instruction", "dispatch_stall", "drain", "imc_miss", "membar", "misc",
	"sleeping", "tex_throttle", "branch_resolving",
};
#define NSTALLS (sizeof stalls / sizeof stalls[0])
#define TOP_STALLS 5

struct prof {
	const char *dir;         /* the candidate's */
	char *root, id[24];
	long gen, slot;
	struct ks_run run;
	struct ks_problem prob;
	const struct ks_target *target;
	struct ks_bench_rec bench;
	char *kernel_sha256;
	double timeout_s;        /* KS_PROFILE_TIMEOUT_S */
};

static char *
stall_metric(const char *reason)
{
	return ks_easprintf("smsp__average_warps_issue_stalled_%s_per_issue_active.ratio", reason);
}

/* KS_NCU, else ncu on PATH, else CUDA's default place; NULL when none is there */
static char *
find_ncu(void)
{
	const char *e = getenv("KS_NCU"), *path = getenv("PATH");

	if (e && *e)
		return access(e, X_OK) == 0 ? ks_estrdup(e) : NULL;
	for (const char *p = path ? path : ""; *p;) {
		size_t n = strcspn(p, ":");
		char *f = ks_easprintf("%.*s/ncu", (int)n, p);

		if (n && access(f, X_OK) == 0)
			return f;
		free(f);
		p += n + (p[n] == ':');
	}
	return access("/usr/local/cuda/bin/ncu", X_OK) == 0 ? ks_estrdup("/usr/local/cuda/bin/ncu") : NULL;
}

/* ---- ncu's CSV (--csv --page raw --print-units base): a header, a row of units, a row per kernel ---- */

/* The fields of one CSV line (quotes honoured), in *f (caller frees each and the array); their number. */
static int
csv_fields(const char *line, char ***f)
{
	int n = 0, cap = 16;

	*f = ks_emalloc(cap * sizeof(**f));
	for (const char *p = line;;) {
		struct ks_buf b = { 0 };

		ks_buf_add(&b, "", 0);
		if (*p == '"') {
			for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
				if (*p == '"')
					p++;
				ks_buf_add(&b, p, 1);
			}
			if (*p == '"')
				p++;
		} else {
			size_t len = strcspn(p, ",\r\n");

			ks_buf_add(&b, p, len);
			p += len;
		}
		if (n == cap)
			*f = ks_erealloc(*f, (cap *= 2) * sizeof(**f));
		(*f)[n++] = b.s;
		if (*p != ',')
			return n;
		p++;
	}
}

static void
fields_free(char **f, int n)
{
	for (int i = 0; i < n; i++)
		free(f[i]);
	free(f);
}

/* a value as ncu prints it ("25,313", "93.49"): -1 when it is none */
static double
csv_number(const char *s)
{
	char buf[64];
	size_t n = 0;
	double v;

	for (; *s && n + 1 < sizeof buf; s++)
		if (*s != ',')
			buf[n++] = *s;
	buf[n] = '\0';
	return n && ks_parse_double(buf, &v) == 0 ? v : -1;
}

static int
column(char **head, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(head[i], name) == 0)
			return i;
	return -1;
}

/* stall entries, most cycles per issued instruction first */
static int
by_per_issue(const void *x, const void *y)
{
	double a = 0, b = 0;

	ks_json_num(*(cJSON *const *)x, "per_issue", NULL, &a);
	ks_json_num(*(cJSON *const *)y, "per_issue", NULL, &b);
	return (a < b) - (a > b);
}

/* One kernel's row as profile.json keeps it. */
static cJSON *
kernel_entry(char **head, int nh, char **row, int nr)
{
	static const struct {
		const char *metric, *key;
		double scale;
	} keep[] = {
		{ "gpu__time_duration.sum", "duration_us", 1e-3 },
		{ "sm__warps_active.avg.pct_of_peak_sustained_active", "achieved_occupancy_pct", 1 },
		{ "sm__maximum_warps_per_active_cycle_pct", "theoretical_occupancy_pct", 1 },
		{ "dram__throughput.avg.pct_of_peak_sustained_elapsed", "dram_throughput_pct", 1 },
		{ "sm__throughput.avg.pct_of_peak_sustained_elapsed", "sm_throughput_pct", 1 },
		{ "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "shared_bank_conflicts_load", 1 },
		{ "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "shared_bank_conflicts_store", 1 },
	};
	cJSON *k = cJSON_CreateObject(), *st;
	int c;

	c = column(head, nh, "Kernel Name");
	cJSON_AddStringToObject(k, "name", c >= 0 && c < nr ? row[c] : "?");
	for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++) {
		double v = (c = column(head, nh, keep[i].metric)) >= 0 && c < nr ? csv_number(row[c]) : -1;

		if (v >= 0)
			cJSON_AddNumberToObject(k, keep[i].key, v * keep[i].scale);
		else
			cJSON_AddNullToObject(k, keep[i].key);
	}
	/* the stall reasons by cycles per issued instruction, most first */
	cJSON *all = cJSON_CreateArray();
	for (size_t i = 0; i < NSTALLS; i++) {
		char *m = stall_metric(stalls[i]);
		double v = (c = column(head, nh, m)) >= 0 && c < nr ? csv_number(row[c]) : -1;

		free(m);
		if (v > 0) {
			cJSON *e = cJSON_CreateObject();

			cJSON_AddStringToObject(e, "reason", stalls[i]);
			cJSON_AddNumberToObject(e, "per_issue", v);
			cJSON_AddItemToArray(all, e);
		}
	}
	st = cJSON_AddArrayToObject(k, "stalls");
	int n = cJSON_GetArraySize(all);
	cJSON **items = ks_ecalloc((size_t)n + 1, sizeof(*items));
	for (int i = 0; i < n; i++)
		items[i] = cJSON_GetArrayItem(all, i);
	qsort(items, (size_t)n, sizeof(*items), by_per_issue);
	for (int i = 0; i < n && i < TOP_STALLS; i++)
		cJSON_AddItemToArray(st, cJSON_Duplicate(items[i], 1));
	free(items);
	cJSON_Delete(all);
	return k;
}

/* The kernels of ncu's CSV in text, in launch order; NULL with *why when it holds none. */
static cJSON *
parse_csv(const char *text, char **why)
{
	char **head = NULL, **row;
	int nh = 0, nr, line = 0;
	cJSON *kernels = cJSON_CreateArray();

	*why = NULL;
	for (const char *p = text; *p; line++) {
		size_t len = strcspn(p, "\n");
		char *l = ks_estrndup(p, len);

		p += len + (p[len] == '\n');
		/* ncu's own lines (==PROF==, ==WARNING==) are not the table's */
		if (strncmp(l, "==", 2) == 0 || !*l) {
			free(l);
			continue;
		}
		if (!head) {
			nh = csv_fields(l, &head);
		} else if ((nr = csv_fields(l, &row)) > 0) {
			int id = column(head, nh, "ID");

			/* the row of units has no ID */
			if (id >= 0 && id < nr && *row[id])
				cJSON_AddItemToArray(kernels, kernel_entry(head, nh, row, nr));
			fields_free(row, nr);
		}
		free(l);
	}
	if (head)
		fields_free(head, nh);
	if (cJSON_GetArraySize(kernels) == 0) {
		*why = ks_estrdup("ncu profiled no kernel in the call");
		cJSON_Delete(kernels);
		return NULL;
	}
	return kernels;
}

/* ---- which shape, and the run ---- */

/* The index of the bench shape furthest from the speed of light, else the slowest. */
static int
shape_to_profile(const struct ks_bench_rec *b, char **why)
{
	const cJSON *r;
	int i = 0, pick = 0;
	double least = INFINITY, slowest = -1, t;

	cJSON_ArrayForEach(r, b->results) {
		double share = ks_sol_share(r);

		if (share > 0 && share < least) {
			least = share;
			pick = i;
		}
		i++;
	}
	if (isfinite(least)) {
		char pct[32];

		*why = ks_easprintf("the furthest from the speed of light, at %s %% of it", ks_sol_pct(least, pct, sizeof pct));
		return pick;
	}
	i = 0;
	cJSON_ArrayForEach(r, b->results) {
		if (ks_json_num(r, "time_us", NULL, &t) == 0 && t > slowest) {
			slowest = t;
			pick = i;
		}
		i++;
	}
	*why = ks_estrdup("the slowest");
	return pick;
}

static char **
ncu_argv(const char *ncu, const char *runner, long seed, const char *shape)
{
	struct ks_buf m = { 0 };
	char **argv = NULL;
	size_t n = 0;

	ks_buf_add(&m, "", 0);
	for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++)
		ks_buf_printf(&m, "%s%s", i ? "," : "", metrics[i]);
	for (size_t i = 0; i < NSTALLS; i++) {
		char *s = stall_metric(stalls[i]);

		ks_buf_printf(&m, ",%s", s);
		free(s);
	}
	/* the table and ncu's own ==PROF== and ==ERROR== lines on stdout (--log-file would take the table too) */
	const char *words[] = { ncu, "--profile-from-start", "off", "--csv", "--page", "raw", "--print-units", "base",
		"--metrics", m.s, runner, "--profile", "--salt", "0", "--seed" };
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		ks_argv_add(&argv, &n, ks_estrdup(words[i]));
	ks_argv_add(&argv, &n, ks_easprintf("%ld", seed));
	ks_argv_add(&argv, &n, ks_estrdup("--bench"));
	ks_argv_add(&argv, &n, ks_estrdup(shape));
	ks_buf_free(&m);
	return argv;
}

/* what ncu said went wrong: its last ==ERROR== line on stdout, else the last line of its stderr, for a message */
static char *
ncu_error(const char *out_path, const char *err_path)
{
	char *out = ks_exists(out_path) ? ks_file_read(out_path, NULL) : NULL;
	char *err = ks_exists(err_path) ? ks_file_read(err_path, NULL) : NULL, *line = NULL, *p, *end;

	for (p = out; p && (p = strstr(p, "==ERROR==")); p++)
		if (p == out || p[-1] == '\n') {
			free(line);
			line = ks_estrndup(p, strcspn(p, "\r\n"));
		}
	if (!line && err) {
		end = err + strlen(err);
		while (end > err && (end[-1] == '\n' || end[-1] == '\r'))
			*--end = '\0';
		p = strrchr(err, '\n');
		line = ks_estrdup(p ? p + 1 : err);
	}
	free(out);
	free(err);
	if (!line)
		return ks_estrdup("(nothing said)");
	p = ks_easprintf("%.300s", line);
	free(line);
	return p;
}

/* Runs ncu on the candidate's runner; adds "kernels" to rec, or sets *skipped. */
static int
run_ncu(struct prof *pr, const char *ncu, cJSON *rec, char **skipped)
{
	/* absolute: ncu and the runner start in the box */
	char *abs = realpath(pr->dir, NULL), *box = ks_easprintf("%s/.profile", abs ? abs : pr->dir);
	char *log = ks_easprintf("%s/ncu.log", box), *csv = ks_easprintf("%s/ncu.csv", box), *why = NULL, *text = NULL;
	char *shape = NULL, *device = NULL, **argv = NULL, *rpath = NULL;
	struct ks_proc_opts o = { 0 };
	struct ks_proc_result res;
	struct ks_gpus gpus;
	double rtol, atol;
	long seed;
	int idx, rc = -1;

	idx = shape_to_profile(&pr->bench, &why);
	const cJSON *s = cJSON_GetArrayItem(pr->prob.bench_shapes, idx);
	shape = ks_shape_arg(s, pr->prob.dims);
	cJSON *sh = cJSON_AddObjectToObject(rec, "shape");
	const cJSON *d;
	cJSON_ArrayForEach(d, pr->prob.dims)
		cJSON_AddNumberToObject(sh, d->valuestring, cJSON_GetObjectItemCaseSensitive(s, d->valuestring)->valuedouble);
	cJSON_AddStringToObject(rec, "shape_chosen", why);
	ks_problem_check_args(&pr->prob, &rtol, &atol, &seed);
	rpath = ks_easprintf("%s/runner", abs ? abs : pr->dir);
	if (ks_remove_tree(box) < 0 || mkdir(box, 0700) < 0) {
		ks_warn("cannot make the working directory '%s'", box);
		goto out;
	}
	argv = ncu_argv(ncu, rpath, seed, shape);
	o.out_path = csv;
	o.err_path = log;
	o.timeout_s = pr->timeout_s;
	o.cwd = box;
	o.sandbox = 1;
	if (ks_gpus_load(pr->target, &gpus) < 0 || ks_device_take(pr->target, &gpus, pr->dir, &device) < 0 ||
	    ks_proc_run(argv, &o, &res) < 0)
		goto out;
	if (device)
		cJSON_AddStringToObject(rec, "device", device);
	text = ks_file_read(csv, NULL);
	if (res.timed_out) {
		*skipped = ks_easprintf("ncu ran past KS_PROFILE_TIMEOUT_S=%.0f s", pr->timeout_s);
	} else if (!res.exited || res.status != 0) {
		char *l = ncu_error(csv, log), *d2 = ks_proc_describe(&res);

		*skipped = ks_easprintf("ncu %s: %s", d2, l);
		free(l);
		free(d2);
	} else {
		char *perr = NULL;
		cJSON *kernels = text ? parse_csv(text, &perr) : NULL;

		if (kernels) {
			cJSON_AddItemToObject(rec, "kernels", kernels);
		} else {
			char *l = ncu_error(csv, log);

			*skipped = ks_easprintf("%s; ncu said: %s", perr ? perr : "ncu wrote no table", l);
			free(l);
			free(perr);
		}
	}
	rc = 0;
out:
	ks_remove_tree(box);
	ks_argv_free(argv);
	free(box);
	free(log);
	free(csv);
	free(abs);
	free(rpath);
	free(why);
	free(text);
	free(shape);
	free(device);
	return rc;
}

/* ---- the candidate, the record ---- */

static cJSON *
new_record(const struct prof *pr)
{
	cJSON *rec = cJSON_CreateObject();

	cJSON_AddStringToObject(rec, "id", pr->id);
	ks_json_set_str(rec, "kernel_sha256", pr->kernel_sha256);
	return rec;
}

/* profile.json for pr, or NULL on a tool error (said) */
static cJSON *
profile(struct prof *pr)
{
	char *ncu = NULL, *skipped = NULL;
	cJSON *rec = new_record(pr);

	if (strcmp(pr->target->device, "nvidia") != 0) {
		skipped = ks_easprintf("no profiler for target %s: ks-profile runs Nsight Compute on NVIDIA GPUs "
		    "(rocprofv3 on AMD is not built yet)", pr->target->name);
	} else if (!pr->bench.status || strcmp(pr->bench.status, "ok") != 0) {
		skipped = ks_easprintf("%s is not benched ok (status %s): nothing to profile", pr->id,
		    pr->bench.status ? pr->bench.status : "none");
	} else if (!(ncu = find_ncu())) {
		skipped = ks_estrdup("no profiler here: Nsight Compute (ncu) is not on PATH (or KS_NCU)");
	} else {
		cJSON_AddStringToObject(rec, "profiler", "ncu");
		if (run_ncu(pr, ncu, rec, &skipped) < 0) {
			cJSON_Delete(rec);
			rec = NULL;
		}
	}
	if (rec && skipped) {
		cJSON_AddStringToObject(rec, "skipped", skipped);
		ks_info("'%s': not profiled: %s", pr->dir, skipped);
	}
	free(skipped);
	free(ncu);
	return rec;
}

/* The candidate directory to profile: dir itself, or the base select.json names when dir is POP/gen-NNN. */
static char *
cand_to_profile(const char *dir)
{
	char *root = NULL, *path, *out = NULL;
	struct ks_select_rec sel;
	long gen, bgen, bslot;

	if (ks_cand_dir_parse(dir, &root, &gen, &bslot) == 0) {
		free(root);
		return ks_estrdup(dir);
	}
	if (ks_gen_dir_parse(dir, &root, &gen) < 0)
		return NULL;
	path = ks_easprintf("%s/select.json", dir);
	if (ks_select_rec_load(path, 0, &sel) == 0) {
		if (ks_id_parse(sel.base, &bgen, &bslot) == 0)
			out = ks_cand_dir(root, bgen, bslot);
		else
			ks_warnx("'%s': field \"base\" is not a kernel id", path);
		ks_select_rec_free(&sel);
	}
	free(path);
	free(root);
	return out;
}

/* whether path already holds a profile of the kernel there now (one that was skipped is tried again) */
static int
up_to_date(const char *path, const char *sha)
{
	char *text = ks_exists(path) ? ks_file_read(path, NULL) : NULL;
	cJSON *j = text ? ks_json_parse(text, strlen(text), NULL) : NULL;
	const char *was = ks_json_str(j, "kernel_sha256", NULL);
	int same = sha && was && strcmp(sha, was) == 0 && !cJSON_GetObjectItemCaseSensitive(j, "skipped");

	cJSON_Delete(j);
	free(text);
	return same;
}

static int
run(const char *operand, const char *out)
{
	struct prof pr = { .timeout_s = 600 };
	const char *t = getenv("KS_PROFILE_TIMEOUT_S");
	char *dir = NULL, *path = NULL, *kpath = NULL, *bpath = NULL;
	cJSON *rec = NULL;
	int rc = 1;

	if (t && *t && (ks_parse_double(t, &pr.timeout_s) < 0 || !(pr.timeout_s > 0))) {
		ks_warnx("KS_PROFILE_TIMEOUT_S must be a positive number of seconds, not '%s'", t);
		return 1;
	}
	if (!(dir = cand_to_profile(operand)) || ks_cand_dir_parse(dir, &pr.root, &pr.gen, &pr.slot) < 0)
		goto out;
	pr.dir = dir;
	ks_id_format(pr.id, sizeof pr.id, pr.gen, pr.slot);
	if (ks_run_load(pr.root, &pr.run) < 0)
		goto out;
	if (!(pr.target = ks_target_find(pr.run.target)) || ks_problem_load(pr.run.problem, &pr.prob) < 0)
		goto out_run;
	bpath = ks_easprintf("%s/bench.json", dir);
	if (ks_bench_rec_load(bpath, 0, &pr.bench) < 0)
		goto out_prob;
	kpath = ks_easprintf("%s/kernel.%s", dir, pr.target->ext);
	pr.kernel_sha256 = ks_sha256_file(kpath);
	path = out ? ks_estrdup(out) : ks_easprintf("%s/profile.json", dir);
	/* a base chosen again: its profile stands while its kernel does */
	if (!out && up_to_date(path, pr.kernel_sha256)) {
		rc = 0;
		goto out_bench;
	}
	if ((rec = profile(&pr)) && ks_json_save(path, rec) == 0)
		rc = 0;
out_bench:
	ks_bench_rec_free(&pr.bench);
out_prob:
	ks_problem_free(&pr.prob);
out_run:
	ks_run_free(&pr.run);
out:
	cJSON_Delete(rec);
	free(pr.kernel_sha256);
	free(pr.root);
	free(dir);
	free(path);
	free(kpath);
	free(bpath);
	return rc;
}

int
main(int argc, char *argv[])
{
	const char *out, *dir;
	int rval;

	dir = ks_args_dir_out(argc, argv, "pop/gen-NNN[/cS]",
	    "  Profiles candidate S (or, given pop/gen-NNN, the base its select.json\n"
	    "  names) with Nsight Compute: one call on the benchmark shape furthest\n"
	    "  from the speed of light, and writes pop/gen-NNN/cS/profile.json with\n"
	    "  occupancy, DRAM and SM throughput, warp stalls and bank conflicts.\n"
	    "  Where no profiler runs, profile.json says why (\"skipped\"), exit 0.\n", &out);
	rval = run(dir, out);
	if (ks_fclose_stdout() < 0)
		rval = 1;
	return rval;
}
