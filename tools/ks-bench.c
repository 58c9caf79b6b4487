/*
 * ks-bench - run one built candidate's harness in a child process with a
 * wall-clock and a memory limit: correctness on every test shape, then a
 * time for every benchmark shape.  Records bench.json.  A wrong, crashing
 * or hanging kernel is a result (exit 0); a broken setup is not.
 *
 * In order: load the run, the problem and the settings; read build.json,
 * and candidate.json for the base, whose bench.json and worker it reads
 * to time the two side by side; take a free device
 * (ks_target.c); run the harness in the sandbox (ks_sandbox.c); turn what
 * it printed into the verdict, each time checked against the shape's
 * speed of light (ks_bound.c); write bench.json.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_stages.h"

struct bench {
	const char *dir;
	char *root, id[24];
	long gen, slot;
	struct ks_run run;
	struct ks_problem prob;
	const struct ks_target *target;
	struct ks_bench_settings set;		/* KS_TIME_CAP_S, ... over problem.json's limits */
	struct ks_gpus gpus;			/* GPU targets: the devices to bench on */
	char *device;				/* "device" of bench.json */
	char *sandbox;				/* "sandbox" of bench.json */
	int heldout;				/* -H: the held-out shapes, into heldout.json */
	const cJSON *shapes;			/* the shapes timed: bench_shapes, or heldout_shapes with -H */
	char versus_id[24];			/* the base timed beside it; "" for none */
	char *versus_worker;			/* its worker, or NULL */
	char *versus_error;			/* why the base cannot be, where there is one; NULL */
	struct ks_load load;			/* the machine around the bench: bench.json "machine" */
};

static int
load_settings(struct bench *b)
{
	if (ks_bench_settings_load(&b->prob, &b->set) < 0 || ks_load_open(&b->load, b->target) < 0)
		return -1;
	return ks_gpus_load(b->target, &b->gpus);
}

static void
add_shapes(char ***argv, size_t *n, const struct ks_problem *p, const cJSON *shapes, const char *flag)
{
	const cJSON *s;

	cJSON_ArrayForEach(s, shapes) {
		ks_argv_add(argv, n, ks_estrdup(flag));
		ks_argv_add(argv, n, ks_shape_arg(s, p->dims));
	}
}

/*
 * The base to time side by side with: candidate.json's parents.base,
 * when that kernel was benched ok and its worker is there.  Nothing for
 * the seed, a held-out bench, target external or KS_VERSUS=0; where the
 * candidate has a base that cannot be timed, b->versus_error says why
 * (the bench goes on without).
 */
static void
find_versus(struct bench *b)
{
	struct ks_cand_rec cand;
	struct ks_bench_rec base;
	char *path, *bdir;
	long g, s;

	if (!b->set.versus_on || b->heldout || !b->target->judge_common)
		return;
	path = ks_easprintf("%s/candidate.json", b->dir);
	if (ks_cand_rec_load(path, KS_LOAD_SILENT, &cand) != 0) {
		free(path);
		return;
	}
	free(path);
	if (!cand.base || ks_id_parse(cand.base, &g, &s) < 0 || (g == b->gen && s == b->slot)) {
		ks_cand_rec_free(&cand);
		return;
	}
	snprintf(b->versus_id, sizeof b->versus_id, "%s", cand.base);
	ks_cand_rec_free(&cand);
	bdir = ks_cand_dir(b->root, g, s);
	path = ks_easprintf("%s/bench.json", bdir);
	if (ks_bench_rec_load(path, KS_LOAD_SILENT, &base) != 0)
		b->versus_error = ks_easprintf("the base %s has no bench.json to stand on", b->versus_id);
	else if (strcmp(base.status, "ok") != 0)
		b->versus_error = ks_easprintf("the base %s has no time (status %s)", b->versus_id, base.status);
	if (!b->versus_error)
		ks_bench_rec_free(&base);
	free(path);
	if (!b->versus_error) {
		path = ks_easprintf("%s/worker", bdir);
		char *abs = realpath(path, NULL);

		if (!abs || access(abs, X_OK) != 0)
			b->versus_error = ks_easprintf("the base %s has no worker to run ('%s': %s)", b->versus_id, path,
			    strerror(errno));
		else
			b->versus_worker = ks_estrdup(abs);
		free(abs);
		free(path);
	}
	free(bdir);
}

/* What a verdict is made with: this bench's. */
static struct ks_verdict_job
verdict_job(const struct bench *b)
{
	struct ks_verdict_job j = { b->id, &b->prob, b->target, b->shapes, b->device, b->sandbox, b->set.timeout_s,
		b->versus_id, b->versus_error };

	return j;
}

static cJSON *
new_result(const struct bench *b, const char *status, const char *message)
{
	struct ks_verdict_job j = verdict_job(b);

	return ks_verdict_new(&j, status, message);
}

static char **
runner_argv(const struct bench *b)
{
	char **argv = NULL;
	double rtol, atol;
	long seed;
	size_t n = 0;

	ks_problem_check_args(&b->prob, &rtol, &atol, &seed);
	/* absolute: the runner starts in a directory of its own */
	char *dir = realpath(b->dir, NULL);

	ks_argv_add(&argv, &n, ks_easprintf("%s/runner", dir ? dir : b->dir));
	free(dir);
	ks_argv_add(&argv, &n, ks_estrdup("--json-fd"));
	ks_argv_add(&argv, &n, ks_estrdup("3"));
	if (b->versus_worker) {
		ks_argv_add(&argv, &n, ks_estrdup("--versus"));
		ks_argv_add(&argv, &n, ks_estrdup(b->versus_worker));
	}
	ks_argv_add(&argv, &n, ks_estrdup("--seed"));
	ks_argv_add(&argv, &n, ks_easprintf("%ld", seed));
	ks_argv_add(&argv, &n, ks_estrdup("--rtol"));
	ks_argv_add(&argv, &n, ks_easprintf("%.17g", rtol));
	ks_argv_add(&argv, &n, ks_estrdup("--atol"));
	ks_argv_add(&argv, &n, ks_easprintf("%.17g", atol));
	ks_argv_add(&argv, &n, ks_estrdup("--time-cap"));
	ks_argv_add(&argv, &n, ks_easprintf("%.17g", b->set.time_cap_s));
	/* only where set: a runner built before the option knows none */
	if (b->set.warmup_s != 0.05) {
		ks_argv_add(&argv, &n, ks_estrdup("--warm-up"));
		ks_argv_add(&argv, &n, ks_easprintf("%.17g", b->set.warmup_s));
	}
	ks_argv_add(&argv, &n, ks_estrdup("--min-runs"));
	ks_argv_add(&argv, &n, ks_easprintf("%ld", b->set.min_runs));
	if (b->set.batch) {
		ks_argv_add(&argv, &n, ks_estrdup("--batch"));
		ks_argv_add(&argv, &n, ks_estrdup(b->set.batch));
	}
	/* Otherwise the harness draws a salt no kernel can know; this one repeats a run. */
	if (b->set.salt) {
		ks_argv_add(&argv, &n, ks_estrdup("--salt"));
		ks_argv_add(&argv, &n, ks_estrdup(b->set.salt));
	}
	/* a speed of light from the machine's own peak, measured before the candidate runs */
	if (ks_bound_measured(&b->prob, b->target->name))
		ks_argv_add(&argv, &n, ks_estrdup("--measure-peak"));
	/* held out: the kernel passed the tests when it was benched; the held-out shapes are checked as timed */
	if (!b->heldout)
		add_shapes(&argv, &n, &b->prob, b->prob.test_shapes, "--test");
	add_shapes(&argv, &n, &b->prob, b->shapes, "--bench");
	return argv;
}

/*
 * The reports of harnesses whose ks-bench was killed (make's group killed
 * mid-bench): nothing will read them, and only one ks-bench runs on a
 * candidate at a time (make makes each bench.json once).
 */
static void
remove_old_reports(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)))
		if (strncmp(e->d_name, ".harness.json.", 14) == 0 && strlen(e->d_name) == 20) {
			char *p = ks_easprintf("%s/%s", dir, e->d_name);

			unlink(p);
			free(p);
		}
	closedir(d);
}

/* whether path names the file fd has open (the same device and inode) */
static int
same_file(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* The harness's verdict, NULL on a tool error (said) or where the device failed first (*device_failed says why). */
static cJSON *
run_harness(struct bench *b, char **device_failed)
{
	struct ks_proc_opts o = { 0 };
	struct ks_proc_result pr;
	char **argv = runner_argv(b), *json = ks_easprintf("%s/.harness.json.XXXXXX", b->dir);
	char *log = ks_easprintf("%s/bench.log", b->dir), *box = ks_easprintf("%s/.sandbox", b->dir), **wrapped;
	const char *scratch[] = { json, box, NULL }, *status;
	char *noisy = NULL;
	cJSON *res = NULL;
	double score = -1;
	int fd = -1;

	*device_failed = NULL;
	remove_old_reports(b->dir);
	o.out_path = o.err_path = log;
	o.result_fd = 3;
	o.result_path = json;
	o.timeout_s = b->set.timeout_s;
	/*
	 * The address-space limit holds memory to account on the CPU; a GPU
	 * runtime reserves terabytes of virtual addresses for unified memory
	 * and cannot even start under it, so GPU targets go without.
	 */
	o.mem_mb = strcmp(b->target->device, "cpu") == 0 ? b->set.mem_mb : 0;
	o.cpu_s = (long)(b->set.timeout_s * 4) + 10;
	o.cwd = box;
	o.scratch = scratch;
	o.sandbox = 1;
	o.fsize_mb = b->set.fsize_mb;
	o.max_procs = b->set.max_procs;
	if (ks_device_take(b->target, &b->gpus, b->dir, &b->device) < 0)
		goto out;
	/*
	 * The device held: no compile starts beside a CPU bench from here on
	 * (ks-build).  The machine sampled, and waited for where busy, before
	 * the signals are held below: a stopped run never waits on it.
	 */
	ks_load_before(&b->load, &b->gpus, b->id);
	/*
	 * The scratch, the runner's own working directory (empty at the start)
	 * and the file of its verdict, made and removed with the signals that
	 * stop a run held: ks_proc_run takes them in between, and removes it.
	 */
	ks_signals_hold();
	if (ks_remove_tree(box) < 0 || mkdir(box, 0700) < 0) {
		ks_warn("cannot make the working directory '%s'", box);
		goto out_held;
	}
	if (!(wrapped = ks_sandbox_wrap(argv, box, &b->sandbox)))
		goto out_box;
	argv = wrapped;
	/*
	 * A name of its own, so no harness left over from a killed run can write
	 * into it; kept open, so that a file put in its place meanwhile is seen.
	 */
	if ((fd = mkostemp(json, O_CLOEXEC)) < 0) {
		ks_warn("cannot create a temporary file in '%s'", b->dir);
		goto out_box;
	}
	ks_progress("%s: checking %d test shapes, timing %d %sshapes on %s", b->id, b->heldout ? 0 :
	    cJSON_GetArraySize(b->prob.test_shapes), cJSON_GetArraySize(b->shapes), b->heldout ? "held-out " : "",
	    b->device ? b->device : "the cpu");
	if (ks_proc_run(argv, &o, &pr) == 0) {
		double cpu_s;

		ks_sandbox_signal_fix(argv, &pr);
		struct ks_verdict_job j = verdict_job(b);

		/*
		 * Where bubblewrap does not run, the kernel's process could reach the
		 * folder: a verdict that is not the file made here is no harness's
		 */
		if (!same_file(fd, json))
			res = ks_verdict_new(&j, "rejected", "the harness's verdict file was replaced while it ran: only "
			    "the harness writes it, on the descriptor it was given, and this one cannot stand");
		else
			res = ks_verdict(&j, json, &pr, log, &cpu_s, device_failed);
		/* what the candidate cost: the harness's whole run, start-up and every check included */
		if (res)
			cJSON_AddNumberToObject(res, "seconds", pr.seconds);
		/*
		 * what else ran meanwhile, less the harness's own CPU time: its
		 * word, else outside bubblewrap its processes' rusage (bwrap's
		 * init is never waited for: under it, unknown)
		 */
		if (cpu_s < 0 && b->sandbox && strncmp(b->sandbox, "bwrap", 5) != 0)
			cpu_s = ks_load_children_s(&b->load);
		/* the status stands, and the record says how far to trust it */
		if (res)
			ks_load_after(&b->load, res, cpu_s, &noisy);
	}
	status = ks_json_str(res, "status", NULL);
	if (res && ks_json_num(res, "score_us", NULL, &score) == 0 && score > 0)
		ks_progress("%s: %s, %.1f us, after %.1f s%s%s", b->id, status, score, pr.seconds,
		    noisy ? "; noisy: " : "", noisy ? noisy : "");
	else if (res)
		ks_progress("%s: %s after %.1f s%s%s", b->id, status, pr.seconds, noisy ? "; noisy: " : "",
		    noisy ? noisy : "");
	ks_progress_end();
	unlink(json);
out_box:
	if (fd >= 0)
		close(fd);
	ks_remove_tree(box);
out_held:
	ks_signals_release();
out:
	free(noisy);
	free(box);
	ks_argv_free(argv);
	free(json);
	free(log);
	return res;
}

/*
 * The harness run on a device that works: where the GPU fails before any
 * code of the kernel ran (a verdict's device_failed), it is marked failed
 * and the bench goes to another GPU of KS_GPUS; with none left, no
 * verdict (NULL, said): make stops, and the rerun benches again.  A
 * kernel is never blamed for its GPU, nor scored on another than it says.
 */
static cJSON *
run_on_working_device(struct bench *b)
{
	char *why = NULL;
	cJSON *res;

	while (!(res = run_harness(b, &why)) && why) {
		int again = ks_device_failed(b->target, &b->gpus, b->device, why);

		free(why);
		why = NULL;
		free(b->device);
		b->device = NULL;
		/* the machine sampled anew for the next GPU */
		ks_load_close(&b->load);
		if (again < 0 || ks_load_open(&b->load, b->target) < 0)
			break;
	}
	return res;
}

/* Target external: the verdict of the evaluator the user names (ks_external.c); NULL when there is none (said). */
static cJSON *
bench_external(struct bench *b)
{
	char *kernel = ks_easprintf("%s/kernel.%s", b->dir, ks_target_ext(b->target, &b->prob));
	struct ks_external_job j = { &b->prob, b->shapes, b->heldout, b->id, b->dir, kernel, b->set.timeout_s };
	cJSON *res = NULL;

	if (!ks_exists(kernel))
		ks_warnx("'%s' does not exist: run ks-implement on '%s' first", kernel, b->dir);
	/* one evaluation at a time from this machine, as one harness per device: a leaderboard limits its rate */
	else if (ks_device_take(b->target, &b->gpus, b->dir, &b->device) == 0) {
		res = new_result(b, "crashed", NULL);
		if (ks_external_judge(&j, res) < 0) {
			cJSON_Delete(res);
			res = NULL;
		}
	}
	free(kernel);
	return res;
}

/* The verdict on a built candidate, or the record of why it was not built; NULL on a tool error (said). */
static cJSON *
bench_cand(struct bench *b)
{
	char *bpath = ks_easprintf("%s/build.json", b->dir), *runner = ks_easprintf("%s/runner", b->dir);
	struct ks_build_rec build;
	cJSON *res = NULL;
	char *sum = NULL;

	if (ks_build_rec_load(bpath, 0, &build) < 0)
		goto out_paths;
	if (build.rejected) {
		/* refused by ks-implement or by ks-build's static check */
		res = new_result(b, "rejected", build.rejected);
	} else if (!build.ok) {
		res = new_result(b, "build_failed", ks_target_external(b->target) ? "the kernel failed the check "
		    "KS_EVAL_CHECK_CMD: see diagnostics in build.json" : "the kernel did not compile: see diagnostics in "
		    "build.json");
	} else if (ks_target_external(b->target)) {
		/* judged by the user's evaluator (KS_EVAL_CMD), not by a harness here: no runner */
		res = bench_external(b);
	} else if (!b->gpus.given && !ks_target_device_present(b->target)) {
		/* A GPU kernel built on a machine without that GPU waits for one: not a failure. */
		char *why = ks_easprintf("no %s device on this machine for target %s: bench it where there is one",
		    b->target->device, b->target->name);
		res = new_result(b, "no_device", why);
		free(why);
	} else if (!ks_exists(runner)) {
		ks_warnx("'%s' says the build succeeded, but '%s' is missing: run ks-build again", bpath, runner);
	} else if ((sum = ks_sha256_file(runner))) {
		/* hashed before it runs: what ran, whatever the run does to the folder */
		res = run_on_working_device(b);
	}
	/* what this verdict was measured on, so that it is never taken for another kernel's */
	if (res) {
		ks_json_set_str(res, "kernel_sha256", build.kernel_sha256);
		ks_json_set_str(res, "runner_sha256", sum);
	}
	free(sum);
	ks_build_rec_free(&build);
out_paths:
	free(bpath);
	free(runner);
	return res;
}

/*
 * KS_LAUNCH: ks-bench again, whole, on the machine the launcher picks
 * (srun: a node of the cluster), where it takes the device's lock and
 * runs the harness in its sandbox; only a candidate that was built goes
 * there (any other verdict is written here, at once).  -1: no launcher.
 */
static int
launch(const char *dir, const char *out, int heldout)
{
	const char *args[5] = { 0 }, *launcher = getenv("KS_LAUNCH");
	struct ks_build_rec build;
	char *bpath;
	int built, n = 0;

	if (!launcher || !*launcher)
		return -1;
	bpath = ks_easprintf("%s/build.json", dir);
	if (ks_build_rec_load(bpath, KS_LOAD_SILENT, &build) == 0) {
		built = build.ok && !build.rejected;
		ks_build_rec_free(&build);
	} else {
		built = 0;
	}
	free(bpath);
	if (!built)
		return -1;
	if (heldout)
		args[n++] = "-H";
	if (out) {
		args[n++] = "-o";
		args[n++] = out;
	}
	args[n] = dir;
	return ks_launch("KS_LAUNCH", (char *const *)args, dir);
}

static int
bench(const char *dir, const char *out, int heldout)
{
	struct bench b = { .dir = dir, .heldout = heldout };
	char *path = NULL;
	cJSON *res = NULL;
	int rc = 1;

	/* launched: the first thing, so that the launcher's failure is never taken for ours */
	if (ks_launch_note(-1) < 0 || ks_cand_dir_parse(dir, &b.root, &b.gen, &b.slot) < 0)
		return 1;
	ks_id_format(b.id, sizeof b.id, b.gen, b.slot);
	/* a slot the generation's plans leave empty: nothing to bench (make asks anyway) */
	if (access(dir, F_OK) != 0 && ks_slot_unplanned(b.root, b.gen, b.slot)) {
		rc = 0;
		goto out;
	}
	if ((rc = launch(dir, out, heldout)) >= 0)
		goto out;
	rc = 1;
	if (ks_run_load(b.root, &b.run) < 0)
		goto out;
	if (!(b.target = ks_target_find(b.run.target)) || ks_problem_load(b.run.problem, &b.prob) < 0)
		goto out_run;
	b.shapes = heldout ? b.prob.heldout_shapes : b.prob.bench_shapes;
	if (!b.shapes) {
		ks_warnx("'%s': the problem holds no \"heldout_shapes\" to bench", b.prob.path);
		goto out_prob;
	}
	if (load_settings(&b) < 0)
		goto out_prob;
	find_versus(&b);
	if (!(res = bench_cand(&b)))
		goto out_prob;
	/* where it ran: the Slurm job and node, when one ran it */
	cJSON *where = ks_launch_where();

	if (where)
		cJSON_AddItemToObject(res, "launch", where);
	path = out ? ks_estrdup(out) : ks_easprintf("%s/%s", dir, heldout ? "heldout.json" : "bench.json");
	/*
	 * The same verdict again (a failure's) leaves the file as it was: make
	 * redoes nothing after it.  Its duration and the machine's state around
	 * it are the old bench's then, which the verdict does not hang on.
	 */
	ks_json_keep_old(path, res, (const char *const[]){ "seconds", "machine", NULL });
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
	free(b.versus_worker);
	free(b.versus_error);
	ks_load_close(&b.load);
	return rc;
}

struct opts {
	const char *out;	/* -o */
	int heldout;		/* -H */
};

static int
on_flag(int ch, const char *value, void *arg)
{
	struct opts *o = arg;

	if (ch == 'H')
		o->heldout = 1;
	else
		o->out = value;
	return 0;
}

int
main(int argc, char *argv[])
{
	struct opts o = { 0 };
	const char *dir;
	int rval;
	struct ks_args_spec spec = { "[-H] [-o file] pop/gen-NNN/cS",
	    "  Runs the candidate's harness (pop/gen-NNN/cS/runner) in a child process:\n"
	    "  every test shape is checked, then every benchmark shape is timed.\n"
	    "  Writes bench.json: {\"id\", \"status\", \"correct\", \"results\", \"score_us\",\n"
	    "  \"device\", \"timer\", \"message\"}; status is ok, incorrect, build_failed,\n"
	    "  crashed, timeout, rejected (refused by a rule: see build.json, or faster\n"
	    "  than the speed of light) or no_device (no GPU of the target here).\n"
	    "  \"machine\" says what else the machine was doing, and \"noisy\" where it\n"
	    "  was busy.  See population(5) for every field.\n"
	    "  Environment: KS_TIME_CAP_S (timing per shape), KS_BENCH_WARMUP_S (warm-up per shape),\n"
	    "  KS_BENCH_TIMEOUT_S (wall clock), KS_BENCH_MEMORY_MB, KS_MIN_RUNS,\n"
	    "  KS_BENCH_BATCH (calls per timed sample: auto, the default on a GPU, or 1-128),\n"
	    "  KS_LOCK_DIR (where the per-device locks live, default /tmp),\n"
	    "  KS_LAUNCH (a launcher that runs ks-bench itself elsewhere, e.g.\n"
	    "  'srun --gres=gpu:1 -N1 -n1'; split into words, never run by a shell),\n"
	    "  KS_GPUS (the GPUs to bench on, e.g. 0,1: the first free one is taken),\n"
	    "  KS_BENCH_SALT (the inputs of an earlier bench.json's \"salt\"; default random),\n"
	    "  KS_BENCH_FILE_MB (the largest file the harness may write, default 1024),\n"
	    "  KS_BENCH_PROCS (processes and threads of the harness, default 4096),\n"
	    "  KS_BENCH_SETTLE_S (the longest wait of a CPU bench for a busy machine\n"
	    "  to settle, default 30 s; 0: none), KS_BENCH_BUSY_MAX (other processes'\n"
	    "  CPUs that make it busy, default 0.25), KS_NVIDIA_SMI (the nvidia-smi\n"
	    "  that reads a GPU's clocks; default on PATH),\n"
	    "  KS_SANDBOX (bwrap, the default where bubblewrap runs, or basic).\n"
	    "  Target external: KS_EVAL_CMD, the command that judges the kernel instead\n"
	    "  of the harness (population(5), \"External evaluators\").\n"
	    "  -H: time the problem's held-out shapes instead (never shown to a model,\n"
	    "  never in the score) and write heldout.json (make heldout).\n", "Ho:", on_flag, &o, NULL, NULL, NULL };

	dir = ks_args(argc, argv, &spec);
	rval = bench(dir, o.out, o.heldout);
	/* under KS_LAUNCH: how this ended, for the ks-bench that launched this one */
	if (ks_launch_note(rval) < 0)
		rval = 1;
	if (ks_fclose_stdout() < 0)
		rval = 1;
	return rval;
}
