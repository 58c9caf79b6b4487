/*
 * ks-profile - what a profiler says of one benched kernel: for one call on
 * the benchmark shape furthest from the speed of light, Nsight Compute's
 * occupancy, DRAM and SM throughput, warp stalls and shared-memory bank
 * conflicts (ks_prof_ncu.c), or rocprofv3's counters on AMD
 * (ks_prof_rocprof.c), in cS/profile.json, for the digest in the
 * hypothesize prompt.  Given POP/gen-NNN it profiles that generation's
 * base (select.json), once per kernel.
 *
 * An optional stage (make generation KS_PROFILE=1): where no profiler
 * runs (the CPU, a machine without one, a profiler that fails)
 * profile.json says why and the stage succeeds.  The runner runs under
 * the profiler in --profile mode: one warm call, then one call inside the
 * profiler's range; no check, no verdict, and not locked down, since
 * the profiler's injection opens files and sockets in the process.
 */
#include <sys/stat.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_stages.h"

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

/* the profiler's program: $ENV (a path, or a name on PATH), else on PATH, else in its usual places; NULL when none is there */
static char *
find_tool(const struct ks_profiler *pf)
{
	const char *e = getenv(pf->env);
	char *found;

	if (e && *e)
		return ks_find_in_path(e);
	if ((found = ks_find_in_path(pf->name)))
		return found;
	for (const char *const *pl = pf->places; *pl; pl++)
		if (access(*pl, X_OK) == 0)
			return ks_estrdup(*pl);
	return NULL;
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

/*
 * What the profiler said went wrong: its last error line on stdout
 * (ncu's ==ERROR==), else the last line of its stderr, for a message.
 */
static char *
profiler_error(const char *out_path, const char *err_path)
{
	char *out = ks_exists(out_path) ? ks_file_read(out_path, NULL) : NULL;
	char *err = ks_exists(err_path) ? ks_file_read(err_path, NULL) : NULL, *line = NULL, *p, *end;

	for (p = out; p && (p = strstr(p, "==ERROR==")); p++)
		if (p == out || p[-1] == '\n') {
			free(line);
			line = ks_estrndup(p, strcspn(p, "\r\n"));
		}
	if (!line && err && *err) {
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

/* the shape to profile, into rec ("shape", "shape_chosen"); its runner argument (caller frees) */
static char *
choose_shape(const struct prof *pr, cJSON *rec)
{
	char *why = NULL, *arg;
	int idx = shape_to_profile(&pr->bench, &why);
	const cJSON *s = cJSON_GetArrayItem(pr->prob.bench_shapes, idx), *d;
	cJSON *sh = cJSON_AddObjectToObject(rec, "shape");

	cJSON_ArrayForEach(d, pr->prob.dims)
		cJSON_AddNumberToObject(sh, d->valuestring, cJSON_GetObjectItemCaseSensitive(s, d->valuestring)->valuedouble);
	cJSON_AddStringToObject(rec, "shape_chosen", why);
	arg = ks_shape_arg(s, pr->prob.dims);
	free(why);
	return arg;
}

/*
 * Runs the profiler on the candidate's runner, with the GPU taken as a
 * bench takes it, in a box of its own removed after; adds "kernels" to
 * rec, or sets *skipped.  -1 on a tool error (said).
 */
static int
run_profiler(struct prof *pr, const struct ks_profiler *pf, const char *tool, cJSON *rec, char **skipped)
{
	/* absolute: the profiler and the runner start in the box */
	char *abs = realpath(pr->dir, NULL), *box = ks_easprintf("%s/.profile", abs ? abs : pr->dir);
	char *out = ks_easprintf("%s/stdout", box), *err = ks_easprintf("%s/stderr", box);
	char *shape = choose_shape(pr, rec), *device = NULL, **argv = NULL;
	char *rpath = ks_easprintf("%s/runner", abs ? abs : pr->dir);
	struct ks_proc_opts o = { 0 };
	struct ks_proc_result res;
	struct ks_gpus gpus;
	double rtol, atol;
	long seed;
	int rc = -1;

	ks_problem_check_args(&pr->prob, &rtol, &atol, &seed);
	if (ks_remove_tree(box) < 0 || mkdir(box, 0700) < 0) {
		ks_warn("cannot make the working directory '%s'", box);
		goto out;
	}
	argv = pf->argv(tool, box, rpath, seed, shape);
	o.out_path = out;
	o.err_path = err;
	o.timeout_s = pr->timeout_s;
	o.cwd = box;
	o.sandbox = 1;
	if (ks_gpus_load(pr->target, &gpus) < 0 || ks_device_take(pr->target, &gpus, pr->dir, &device) < 0 ||
	    ks_proc_run(argv, &o, &res) < 0)
		goto out;
	if (device)
		cJSON_AddStringToObject(rec, "device", device);
	if (res.timed_out) {
		*skipped = ks_easprintf("%s ran past KS_PROFILE_TIMEOUT_S=%.0f s", pf->name, pr->timeout_s);
	} else if (!res.exited || res.status != 0) {
		char *said = profiler_error(out, err), *how = ks_proc_describe(&res);

		*skipped = ks_easprintf("%s %s: %s", pf->name, how, said);
		free(said);
		free(how);
	} else {
		char *why = NULL;
		cJSON *kernels = pf->read(box, out, &why);

		if (kernels) {
			cJSON_AddItemToObject(rec, "kernels", kernels);
		} else {
			char *said = profiler_error(out, err);

			*skipped = ks_easprintf("%s; %s said: %s", why ? why : "no table", pf->name, said);
			free(said);
		}
		free(why);
	}
	rc = 0;
out:
	ks_remove_tree(box);
	ks_argv_free(argv);
	free(abs);
	free(box);
	free(out);
	free(err);
	free(shape);
	free(rpath);
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

/* the profiler of target t's device; NULL where it has none (the CPU, an external evaluator) */
static const struct ks_profiler *
target_profiler(const struct ks_target *t)
{
	return strcmp(t->device, "nvidia") == 0 ? &ks_ncu : strcmp(t->device, "amd") == 0 ? &ks_rocprof : NULL;
}

/* profile.json for pr, or NULL on a tool error (said) */
static cJSON *
profile(struct prof *pr)
{
	const struct ks_profiler *pf = target_profiler(pr->target);
	char *tool = NULL, *skipped = NULL;
	cJSON *rec = new_record(pr);

	if (!pf) {
		skipped = ks_easprintf("no profiler for target %s: ks-profile runs Nsight Compute on NVIDIA GPUs "
		    "and rocprofv3 on AMD GPUs", pr->target->name);
	} else if (!pr->bench.status || strcmp(pr->bench.status, "ok") != 0) {
		skipped = ks_easprintf("%s is not benched ok (status %s): nothing to profile", pr->id,
		    pr->bench.status ? pr->bench.status : "none");
	} else if (!(tool = find_tool(pf))) {
		skipped = ks_easprintf("no profiler here: %s (%s) is not on PATH (or %s)", pf->title, pf->name, pf->env);
	} else {
		cJSON_AddStringToObject(rec, "profiler", pf->name);
		if (run_profiler(pr, pf, tool, rec, &skipped) < 0) {
			cJSON_Delete(rec);
			rec = NULL;
		}
	}
	if (rec && skipped) {
		cJSON_AddStringToObject(rec, "skipped", skipped);
		ks_info("'%s': not profiled: %s", pr->dir, skipped);
	}
	free(skipped);
	free(tool);
	return rec;
}

/* whether dir names a generation, POP/gen-NNN (a trailing slash allowed), not a candidate */
static int
names_generation(const char *dir)
{
	const char *last;
	size_t len = strlen(dir);

	while (len > 1 && dir[len - 1] == '/')
		len--;
	for (last = dir + len; last > dir && last[-1] != '/'; last--)
		;
	return strncmp(last, "gen-", 4) == 0;
}

/* The candidate directory to profile: dir itself, or the base select.json names when dir is POP/gen-NNN. */
static char *
cand_to_profile(const char *dir)
{
	char *root = NULL, *path, *out = NULL;
	struct ks_select_rec sel;
	long gen, bgen, bslot;

	if (!names_generation(dir))
		return ks_estrdup(dir);
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

/*
 * Whether make's default (KS_PROFILE=auto) leaves operand alone: its
 * run's target has no profiler.  A profile.json saying so every
 * generation would tell the model nothing, and under KS_LAUNCH the
 * launch would cost a job.  Only run.json is read: on such a target a
 * select.json that does not load is for ks-hypothesize, after this, to
 * name.  1: leave it; 0: profile it; -1: operand does not load (said).
 */
static int
auto_skips(const char *operand)
{
	const char *mode = getenv("KS_PROFILE");
	const struct ks_target *t;
	struct ks_run r;
	char *root = NULL;
	long gen, slot;
	int skip = -1;

	if (!mode || strcmp(mode, "auto") != 0)
		return 0;
	if (names_generation(operand) ? ks_gen_dir_parse(operand, &root, &gen) < 0 :
	    ks_cand_dir_parse(operand, &root, &gen, &slot) < 0)
		return -1;
	if (ks_run_load(root, &r) == 0) {
		if ((t = ks_target_find(r.target)))
			skip = !target_profiler(t);
		ks_run_free(&r);
	}
	free(root);
	return skip;
}

static int
run(const char *operand, const char *out)
{
	struct prof pr = { 0 };
	char *dir = NULL, *path = NULL, *kpath = NULL, *bpath = NULL;
	cJSON *rec = NULL;
	int rc = 1;

	if (ks_profile_timeout(&pr.timeout_s) < 0)
		return 1;
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
	kpath = ks_easprintf("%s/kernel.%s", dir, ks_target_ext(pr.target, &pr.prob));
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
	    "  Where no profiler runs, profile.json says why (\"skipped\"), exit 0;\n"
	    "  with KS_PROFILE=auto (make's default), on a target without one\n"
	    "  (the CPU) it writes nothing.\n"
	    "  Environment: KS_LAUNCH, a launcher that runs ks-profile itself on the\n"
	    "  machine with the GPU (e.g. 'srun --gres=gpu:1 -N1 -n1'), as ks-bench.\n", &out);
	/* KS_LAUNCH: ks-profile again, whole, on the node that has the device, as ks-bench */
	const char *args[4] = { "-o", out, dir, NULL };
	const char *const *again = out ? args : args + 2;

	if ((rval = auto_skips(dir)) != 0)
		return rval < 0 || ks_fclose_stdout() < 0;
	if ((rval = ks_launch("KS_LAUNCH", (char *const *)again, dir)) < 0)
		rval = ks_launch_note(-1) < 0 ? 1 : run(dir, out);
	if (ks_launch_note(rval) < 0)
		rval = 1;
	if (ks_fclose_stdout() < 0)
		rval = 1;
	return rval;
}
