/*
 * ks_harness.c: main() of every kernel-scientist runner.
 *
 * The runner checks the candidate on the test shapes, then checks and
 * times it on the bench shapes, and writes one JSON object with the
 * verdict to the JSON fd.  Exit status: 0 when a verdict was written,
 * correct or not (or saying device_failed: a GPU that failed before
 * any code of the candidate ran); 1 on an internal error (out of memory, write
 * failure); 2 on bad arguments.  A candidate that crashes takes the
 * runner down with it (the worker's signal or exit status is the
 * runner's), and whoever ran it sees the signal.
 *
 * The runner is a judge, linked with ks_judge.c: every call of the
 * candidate goes to the worker, a process of its own (ks_judge.h), and
 * the time is the judge's.
 *
 * Its parts are files of their own, by job: the command line
 * (ks_harness_args.c), a bench shape's timing (ks_harness_bench.c) and
 * the verdict (ks_harness_verdict.c); this file has what they share, a
 * test shape and main.  It includes them, and the runner is built as one
 * unit: its functions stay static, out of the way of the problem's
 * harness linked beside it (whose names are its own), and every target
 * compiles the same files it did (nvcc's -x cu makes each further source
 * a CUDA compile of its own, about a second each).
 */
#define _POSIX_C_SOURCE 200809L

#include <sys/resource.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/random.h>
#endif

#include "ks_harness.h"
#include "ks_judge.h"
#include "ks_versus.h"

#define WARMUP_S	0.05	/* a bench shape's warm-up, at least (--warm-up; ks_harness_bench.c) */
static double warmup_s = WARMUP_S;
#define MAX_RUNS	1000000L
#define SPOT_STREAM	0x73706f74ULL	/* "spot": which timed calls are checked */
#define SEED_MASK	((UINT64_C(1) << 53) - 1)

/*
 * The problem's own check and shapes, which ks-build gives from
 * problem.json (-DKS_DEFAULT_...): a runner run with no option checks and
 * times what ks-bench has it do, with the problem's tolerance.  A build
 * by hand without them falls back to these.
 */
#ifndef KS_DEFAULT_RTOL
#define KS_DEFAULT_RTOL	1e-4
#endif
#ifndef KS_DEFAULT_ATOL
#define KS_DEFAULT_ATOL	1e-3
#endif
#ifndef KS_DEFAULT_SEED
#define KS_DEFAULT_SEED	1
#endif
#ifndef KS_DEFAULT_TIME_CAP
#define KS_DEFAULT_TIME_CAP	2.0
#endif
#ifndef KS_DEFAULT_MIN_RUNS
#define KS_DEFAULT_MIN_RUNS	5
#endif
#ifndef KS_DEFAULT_DIMS
#define KS_DEFAULT_DIMS	""	/* problem.json's dims, space-separated: checked against the harness's */
#endif
#ifndef KS_DEFAULT_TESTS
#define KS_DEFAULT_TESTS	""
#endif
#ifndef KS_DEFAULT_BENCHES
#define KS_DEFAULT_BENCHES	""
#endif

struct shape {
	int dims[KS_MAX_DIMS];
	uint64_t seed;
	int has_seed;		/* seed given as @SEED */
};

struct opts {
	uint64_t seed;
	uint64_t salt;		/* mixed into every shape's seed; 0: none */
	uint64_t rng;		/* which timed calls are spot-checked, where getrandom fails */
	double rtol, atol, time_cap;
	long min_runs;
	int json_fd;
	int measure_peak;	/* --measure-peak */
	int profile;		/* --profile */
	int salt_given;		/* --salt: timed calls' inputs derived from it, to repeat a run */
	int batch;		/* --batch: calls per timed sample; -1 (auto): chosen; 0: auto on a GPU, else 1 */
	const char *worker;	/* --worker: a judge's worker program */
	const char *versus;	/* --versus: the base's worker, timed side by side */
	struct shape *tests, *benches;
	size_t ntests, nbenches;
};

struct test_rec {
	const struct shape *shape;
	int ok;
	double max_abs_err, worst_ratio;
};

struct bench_rec {
	const struct shape *shape;
	double mean, median, min, max, sem;	/* seconds */
	double median_sem;			/* the median's standard error */
	long runs;		/* timed calls: samples times batch */
	int batch;		/* calls per timed sample */
	int converged;		/* the stop rule was met, not the time cap */
	double wall;		/* the shape's whole time: set-up, checks, warm-up, calls (s) */
	long checks;		/* the checks of the candidate's output on this shape */
	double checks_wall;	/* their time (s), a fresh call's inputs and call included */
	/* side by side: the rounds' times (s) of the candidate and of its base, and their statistics */
	double *vs_cand, *vs_base;
	struct ks_versus_shape vs;
	int last_base;		/* the last timed call was the base's */
};

/* the peak's measure (ks_peak.c), present in a CPU runner only */
#ifdef __cplusplus
extern "C"
#endif
void ks_measure_peak(struct ks_peak *peak) __attribute__((weak));
/* the device's first use (ks_gpu.hip), present in a GPU runner only */
#ifdef __cplusplus
extern "C"
#endif
int ks_gpu_judge_device_ok(char *why, size_t n) __attribute__((weak));

/*
 * A side-by-side bench (--versus): whether the base's worker still
 * stands, and why not when it was asked for and does not; every shape is
 * then without its side-by-side (a ratio over some shapes only would
 * weigh them as the whole).
 */
static struct {
	int on;
	char why[600];
} V;

struct report {
	const char *rejected;		/* why the judge refused a call (a rule broken); NULL */
	double tests_wall;		/* every test shape's check (s) */
	double cpu_s;			/* the CPU time of the runner and its workers, once they are waited for */
	struct ks_peak peak;		/* with --measure-peak */
	int correct;
	int device_failed;		/* the device failed before any code of the candidate ran */
	uint64_t salt;
	char failure[1024];
	struct test_rec *tests;
	struct bench_rec *benches;
	size_t ntests, nbenches;	/* records filled so far */
	struct ks_versus_total versus;	/* side by side: shapes 0 when there is none */
};

static const struct ks_problem *const P = &ks_problem;

/* why the judge refused a call: the verdict's "rejected" */
static char refused[512];

static void
die(int status, const char *fmt, ...)
{
	va_list ap;

	fputs("runner: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

static void *
xcalloc(size_t n, size_t size)
{
	void *p;

	if ((p = calloc(n ? n : 1, size)) == NULL)
		die(1, "out of memory");
	return p;
}

double
ks_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * One call of the candidate on st, through the judge's worker, untimed:
 * the judge holds it to every rule but the time's.  0; -1 when the judge
 * refused the call (refused says why).  Timed calls go in batches
 * (one_timed_sample).
 */
static int
call_once(const int *dims, void *st)
{
	return ks_judge_call(dims, st, NULL, refused, sizeof refused);
}

void
ks_fill_uniform_f32(float *x, size_t n, uint64_t seed, float lo, float hi)
{
	size_t i;

	for (i = 0; i < n; i++)
		x[i] = ks_uniform_at(seed, i, lo, hi);
}

/*
 * An output whose elements are all equal where the reference's are not
 * fails, whatever the tolerance: a zero or constant output must never
 * pass as the result, even where a loose atol would let each element by.
 */
void
ks_check_from_part(const struct ks_check_part *p, size_t n, float got0,
    struct ks_check *res)
{
	memset(res, 0, sizeof(*res));
	res->bad = p->bad;
	res->worst_index = p->worst_index;
	res->worst_got = p->worst_got;
	res->worst_want = p->worst_want;
	res->worst_ratio = n ? p->worst_ratio : 0;
	res->max_abs_err = p->nan_err ? NAN : p->max_abs_err;
	res->checked = n;
	res->ok = res->bad == 0;
	if (res->ok && n >= 2 && p->got_differs == 0 && p->want_differs > 0) {
		res->ok = 0;
		snprintf(res->reason, sizeof(res->reason), "every one of the "
		    "%zu output elements is %.9g, but the reference's differ: "
		    "a constant output", n, (double)got0);
	}
}

void
ks_check_f32(const float *got, const float *want, size_t n, double rtol,
    double atol, struct ks_check *res)
{
	struct ks_check_part p;
	size_t i;

	ks_check_part_init(&p);
	for (i = 0; i < n; i++)
		ks_check_part_add(&p, i, got[i], want[i], got[0], want[0],
		    rtol, atol);
	ks_check_from_part(&p, n, n ? got[0] : 0, res);
}

void
ks_check_i32(const int32_t *got, const int32_t *want, size_t n,
    struct ks_check *res)
{
	double err;
	size_t i;

	memset(res, 0, sizeof(*res));
	for (i = 0; i < n; i++) {
		if (got[i] == want[i])
			continue;
		err = fabs((double)got[i] - (double)want[i]);
		if (res->bad++ == 0 || err > res->max_abs_err) {
			res->max_abs_err = err;
			res->worst_index = i;
			res->worst_got = got[i];
			res->worst_want = want[i];
		}
	}
	/* exact: any difference is out of tolerance, without limit */
	res->worst_ratio = res->bad ? INFINITY : 0;
	res->checked = n;
	/*
	 * No constant-output rule is needed here: an output equal to the
	 * reference everywhere is constant only where the reference is.
	 */
	res->ok = res->bad == 0;
}

/* ---- the command line ---- */
#include "ks_harness_args.c"

/* ---- a test shape ---- */

static void *
setup_shape(const struct shape *sh)
{
	char name[256];
	void *st;

	if ((st = P->setup(sh->dims, sh->seed)) == NULL) {
		format_shape(name, sizeof(name), sh);
		die(1, "setup failed '%s': out of memory", name);
	}
	return st;
}

static void
describe_failure(struct report *r, const char *what, const struct shape *sh,
    const struct ks_check *c, double rtol, double atol)
{
	char elem[128];
	char *buf = r->failure;
	size_t n = sizeof(r->failure);
	int len;

	len = snprintf(buf, n, "%s: ", what);
	if (c->reason[0] != '\0') {
		snprintf(buf + len, n - len, "%s", c->reason);
		return;
	}
	if (c->bad == 0) {
		/* the problem's check failed for a reason of its own */
		snprintf(buf + len, n - len, "output check failed");
		return;
	}
	if (P->describe != NULL)
		P->describe(sh->dims, c->worst_index, elem, sizeof(elem));
	else
		snprintf(elem, sizeof(elem), "element %zu", c->worst_index);
	snprintf(buf + len, n - len, "%s = %.9g, expected %.9g "
	    "(|err| %.3g > tol %.3g); %zu of %zu elements out of tolerance",
	    elem, c->worst_got, c->worst_want,
	    fabs(c->worst_got - c->worst_want),
	    atol + rtol * fabs(c->worst_want), c->bad, c->checked);
}

/* the judge refused a call of shape sh (what names the call): the verdict is a rejection, and says why */
static int
refuse(struct report *r, const char *what, const struct shape *sh)
{
	size_t n = sizeof(r->failure);
	int len = snprintf(r->failure, n, "%s", what);

	len += format_shape(r->failure + len, n - len, sh);
	snprintf(r->failure + len, n - len, ": %s", refused);
	r->rejected = r->failure;
	return 0;
}

static int
do_test(const struct opts *o, const struct shape *sh, struct report *r)
{
	struct test_rec *rec = &r->tests[r->ntests++];
	struct ks_check c;
	char what[300];
	int len;
	void *st;

	rec->shape = sh;
	st = setup_shape(sh);
	if (call_once(sh->dims, st) < 0) {
		P->teardown(st);
		return refuse(r, "shape ", sh);
	}
	P->check(st, o->rtol, o->atol, &c);
	P->teardown(st);

	rec->ok = c.ok;
	rec->max_abs_err = c.max_abs_err;
	rec->worst_ratio = c.worst_ratio;
	if (!c.ok) {
		len = snprintf(what, sizeof(what), "shape ");
		format_shape(what + len, sizeof(what) - len, sh);
		describe_failure(r, what, sh, &c, o->rtol, o->atol);
	}
	return c.ok;
}

/* ---- a bench shape ---- */
#include "ks_harness_bench.c"

/* ---- the verdict ---- */
#include "ks_harness_verdict.c"

/* ---- the run ---- */

/*
 * problem.json's dims (from ks-build) are the harness's own, in order: a
 * problem whose two disagree is named at its first run, not met as
 * shapes of the wrong meaning.
 */
static void
check_dims(void)
{
	char mine[256] = "";
	int i, len = 0;

	if (!*KS_DEFAULT_DIMS)
		return;
	for (i = 0; i < P->ndims && len < (int)sizeof(mine); i++)
		len += snprintf(mine + len, sizeof(mine) - len, "%s%s", i ? " " : "", P->dim_names[i]);
	if (strcmp(mine, KS_DEFAULT_DIMS) != 0)
		die(1, "problem.json's dims (%s) are not those of the harness's ks_problem (%s)",
		    KS_DEFAULT_DIMS, mine);
}

static const char *worker_path(const struct opts *o);

/* --versus: the base's worker started beside the candidate's, or the reason it is not */
static void
start_versus(const struct opts *o)
{
	if (!o->versus)
		return;
	if (!o->nbenches) {
		snprintf(V.why, sizeof V.why, "no bench shape to time side by side");
		return;
	}
	V.on = ks_judge_start_versus(o->versus, V.why, sizeof V.why) == 0;
}

/* the side-by-side's figures, when every shape has its rounds and the base's times stand */
static void
versus_stats(struct report *r)
{
	struct ks_versus_shape *vs;
	char why[sizeof refused];
	size_t i;

	if (!V.on)
		return;
	ks_judge_use(1);
	if (ks_judge_times_stand(why, sizeof why) < 0) {
		ks_judge_use(0);
		V.on = 0;
		snprintf(V.why, sizeof V.why, "the base's times: %s", why);
		return;
	}
	ks_judge_use(0);
	vs = (struct ks_versus_shape *)xcalloc(r->nbenches, sizeof(*vs));
	for (i = 0; i < r->nbenches; i++)
		vs[i] = r->benches[i].vs;
	if (ks_versus_stats(vs, (int)r->nbenches, &r->versus) < 0) {
		V.on = 0;
		snprintf(V.why, sizeof V.why, "a bench shape has no rounds of the two");
	} else {
		for (i = 0; i < r->nbenches; i++)
			r->benches[i].vs = vs[i];
	}
	free(vs);
}

/*
 * --profile: calls to warm up as a bench does, then one call inside the
 * profiler's range, on the first bench shape.  A profile is no verdict:
 * nothing is checked or reported, and the worker is not locked down (a
 * profiler's injection opens files and sockets in its process).
 */
static void
profile_one(const struct opts *o)
{
	void *st;

	if (!ks_judge_on_device())
		die(2, "--profile: this runner has no profiler range (GPU "
		    "runners have)");
	if (o->nbenches == 0)
		die(2, "--profile: give the shape with --bench SHAPE");
	ks_judge_start_unconfined(worker_path(o));
	st = setup_shape(&o->benches[0]);
	/* warmed up as a bench is: a profile of one call on a GPU still at idle clocks is no bench's call */
	(void)warm_up(&o->benches[0], st, NULL);
	/* the worker opens the range around the call alone */
	ks_judge_profile_call(o->benches[0].dims, st);
	ks_judge_finish();
	P->teardown(st);
}

/*
 * The judge's worker: --worker, else the program "worker" beside this
 * runner (ks-build makes the two side by side).
 */
static const char *
worker_path(const struct opts *o)
{
	static char path[4096];
	ssize_t len;
	char *slash;

	if (o->worker)
		return o->worker;
	if ((len = readlink("/proc/self/exe", path, sizeof(path) - 8)) <= 0)
		die(1, "cannot find this runner's own path (/proc/self/exe): give --worker PATH");
	path[len] = '\0';
	slash = strrchr(path, '/');
	strcpy(slash ? slash + 1 : path, "worker");
	return path;
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct report r;
	size_t i;

	if (P->ndims < 1 || P->ndims > KS_MAX_DIMS)
		die(1, "bad problem '%s': ndims %d", P->name, P->ndims);
	check_dims();
	parse_args(&o, argc, argv);
	if (o.profile) {
		profile_one(&o);
		return 0;
	}

	memset(&r, 0, sizeof(r));
	r.correct = 1;
	r.salt = o.salt;
	r.tests = (struct test_rec *)xcalloc(o.ntests, sizeof(*r.tests));
	r.benches = (struct bench_rec *)xcalloc(o.nbenches, sizeof(*r.benches));
	/* the machine's peak, before any code of the candidate runs */
	if (o.measure_peak) {
		if (!ks_measure_peak)
			die(2, "--measure-peak: this runner cannot measure a "
			    "peak (CPU runners can)");
		ks_measure_peak(&r.peak);
	}
	/*
	 * The device first: one that fails before any code of the candidate
	 * has run is the machine's fault, not the kernel's, and the verdict
	 * says so (ks-bench benches on another GPU, or stops).
	 */
	if (ks_gpu_judge_device_ok && ks_gpu_judge_device_ok(r.failure, sizeof r.failure) < 0) {
		r.correct = 0;
		r.device_failed = 1;
		write_report(o.json_fd, &r);
		return 0;
	}
	/* the worker started, locked down and the floor measured, before any code of the candidate runs */
	ks_judge_start(worker_path(&o));
	start_versus(&o);
	double tests0 = ks_now();

	for (i = 0; r.correct && i < o.ntests; i++)
		r.correct = do_test(&o, &o.tests[i], &r);
	r.tests_wall = ks_now() - tests0;
	for (i = 0; r.correct && i < o.nbenches; i++)
		r.correct = do_bench(&o, &o.benches[i], &r);
	/* and checked after: a GPU worker's times that fell short of the judge's cannot stand, however few the calls */
	if (r.correct && !r.rejected && o.nbenches && ks_judge_times_stand(refused, sizeof refused) < 0) {
		snprintf(r.failure, sizeof r.failure, "%s", refused);
		r.rejected = r.failure;
		r.correct = 0;
	}
	if (r.correct && o.nbenches)
		versus_stats(&r);
	ks_judge_finish();
	r.cpu_s = cpu_seconds();
	write_report(o.json_fd, &r);

	free(r.tests);
	free(r.benches);
	free(o.tests);
	free(o.benches);
	return 0;
}
