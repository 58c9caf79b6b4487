/*
 * ks_harness.c: main() of every kernel-scientist runner.
 *
 * The runner checks the candidate on the test shapes, then checks and
 * times it on the bench shapes, and writes one JSON object with the
 * verdict to the JSON fd.  Exit status: 0 when a verdict was written,
 * correct or not; 1 on an internal error (out of memory, write
 * failure); 2 on bad arguments.  A candidate that crashes takes the
 * runner down with it (the worker's signal or exit status is the
 * runner's), and whoever ran it sees the signal.
 *
 * The runner is a judge, linked with ks_judge.c: every call of the
 * candidate goes to the worker, a process of its own (ks_judge.h), and
 * the time is the judge's.
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

#define WARMUP_CALLS	2	/* at least this many calls before timing */
#define WARMUP_S	0.05	/* and at least this long (--warm-up) */
static double warmup_s = WARMUP_S;
#define MAX_RUNS	1000000L
#define FRESH_STREAM	0x66726573ULL	/* "fres": the seed stream of fresh inputs */
#define CALL_STREAM	0x63616c6c00000000ULL	/* "call": the inputs of timed call n */
#define SPOT_STREAM	0x73706f74ULL	/* "spot": which timed calls are checked */
#define BATCH_STREAM	0x62617463ULL	/* "batc": the seeds of a batch's states */
#define SPOT_ONE_IN	4		/* a timed call is checked with chance 1/4 */
#define WALL_CAPS	4		/* a shape's timing, checks and draws included, in time caps */
#define TARGET_RSE	0.005	/* stop once stderr/mean is under this */
/*
 * A GPU's timed sample is a batch: calls back to back in one exchange of
 * the judge's, each on a state (inputs, output) of its own, for at least
 * BATCH_S by the judge's own bound, within BATCH_BYTES of shared memory.
 * One exchange's cost and jitter (hundreds of microseconds on the H200)
 * are then a small share of a sample, and so is the margin the worker's
 * times are held to (kernels/common/ks_judge.h).
 */
#define BATCH_S		10e-3
#define BATCH_BYTES	((size_t)1 << 30)
#define BATCH_GROW	1.25	/* a batch grows when this many times its calls would fit */
#define SPOT_PER_BATCH	2	/* a batch's checks, about: each call's chance min(1/SPOT_ONE_IN, this/calls) */
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

/*
 * A call, not *s: clang warns of a logical operator over two constants
 * (-Wconstant-logical-operand), a line in every hip-amd candidate's build
 * log that a model would read as its own.
 */
static int
nonempty(const char *s)
{
	return *s != '\0';
}

static void
usage(FILE *fp)
{
	int i;

	fprintf(fp, "usage: runner [--seed S] [--salt S] [--rtol R] [--atol A] "
	    "[--time-cap SECONDS] [--warm-up SECONDS] [--min-runs N] [--batch N]\n"
	    "              [--json-fd FD] [--measure-peak] [--profile] [--worker PATH]\n"
	    "              [--versus PATH]\n"
	    "              --test SHAPE ... "
	    "--bench SHAPE ...\n"
	    "problem %s: SHAPE is ", P->name);
	for (i = 0; i < P->ndims; i++)
		fprintf(fp, "%s%s", i ? "x" : "", P->dim_names[i]);
	fprintf(fp, ", optionally @SEED for a per-shape seed\n"
	    "defaults (the problem's): --seed %llu --rtol %g --atol %g "
	    "--time-cap %g --warm-up %g --min-runs %ld --json-fd 1\n",
	    (unsigned long long)(KS_DEFAULT_SEED), (double)(KS_DEFAULT_RTOL),
	    (double)(KS_DEFAULT_ATOL), (double)(KS_DEFAULT_TIME_CAP), WARMUP_S,
	    (long)(KS_DEFAULT_MIN_RUNS));
	if (nonempty(KS_DEFAULT_TESTS) || nonempty(KS_DEFAULT_BENCHES))
		fprintf(fp, "  and, with no shape given, --test %s --bench %s\n",
		    KS_DEFAULT_TESTS, KS_DEFAULT_BENCHES);
	fprintf(fp,
	    "--salt: mixed into every shape's seed; by default drawn at random"
	    " each run (the JSON gives it), 0 for none; given, the timed calls'\n"
	    "  inputs are derived from it too (else drawn fresh for each call)\n"
	    "--worker: a judge runner's worker program (default: ./worker beside the runner)\n"
	    "--versus: the worker of the candidate's base, timed side by side with it (a judge runner's)\n"
	    "--batch: calls per timed sample, each on inputs of its own: 1 to %d, or auto (about 10 ms of\n"
	    "  calls by the judge's bound, within 1 GiB of their memory); default auto on a GPU, 1 on the CPU\n"
	    "tests are checked; bench shapes are checked and timed; one "
	    "JSON verdict goes to FD\n"
	    "--measure-peak: first measure the machine's FP32 FMA peak "
	    "(CPU runners), reported as \"peak\"\n"
	    "--profile: no check and no verdict: one call on the first bench "
	    "shape inside the profiler's range (GPU runners, under ncu "
	    "--profile-from-start off)\n", KS_JUDGE_MAX_BATCH);
}

/* a decimal integer without sign or spaces, all of s */
static int
parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || *end != '\0')
		return -1;
	return 0;
}

static long
parse_long(const char *opt, const char *s, long lo, long hi)
{
	uint64_t v;

	if (parse_u64(s, &v) < 0 || v < (uint64_t)lo || v > (uint64_t)hi)
		die(2, "bad %s '%s': expected an integer from %ld to %ld",
		    opt, s, lo, hi);
	return (long)v;
}

static double
parse_double(const char *opt, const char *s, double lo, int lo_open)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || errno || !isfinite(v) ||
	    v < lo || (lo_open && v == lo))
		die(2, "bad %s '%s': expected a number %s %g", opt, s,
		    lo_open ? ">" : ">=", lo);
	return v;
}

/* returns NULL or why s is not a shape */
static const char *
parse_shape(const char *s, struct shape *sh)
{
	const char *p = s;
	char *end;
	long v;
	int i;

	sh->has_seed = 0;
	for (i = 0; i < P->ndims; i++) {
		if (*p < '0' || *p > '9')
			return "expected a positive integer";
		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || v < 1 || v > INT_MAX)
			return "each dim must be from 1 to 2147483647";
		sh->dims[i] = (int)v;
		p = end;
		if (i + 1 == P->ndims)
			break;
		if (*p == '\0')
			return "too few dims";
		if (*p++ != 'x')
			return "expected dims joined by 'x'";
	}
	if (*p == 'x')
		return "too many dims";
	if (*p == '@') {
		if (parse_u64(p + 1, &sh->seed) < 0)
			return "the seed after '@' must be an unsigned integer";
		sh->has_seed = 1;
	} else if (*p != '\0')
		return "expected dims joined by 'x', then optionally @SEED";
	return NULL;
}

static void
check_json_fd(int fd)
{
	int fl;

	if ((fl = fcntl(fd, F_GETFL)) < 0)
		die(2, "bad --json-fd '%d': %s", fd, strerror(errno));
	if ((fl & O_ACCMODE) == O_RDONLY)
		die(2, "bad --json-fd '%d': not open for writing", fd);
}

/*
 * The verdict's descriptor moves to a number drawn from the salt, and the
 * one ks-bench gave (fd 3, which a kernel could guess) is closed, before
 * any test runs; the static check keeps kernels off descriptor calls.
 * The standard streams stay where they are (a run by hand on fd 1).
 */
static int
hide_json_fd(int fd, uint64_t salt)
{
	int nfd;

	if (fd <= 2)
		return fd;
	if ((nfd = fcntl(fd, F_DUPFD_CLOEXEC, 100 + (int)(salt % 800))) < 0)
		die(1, "cannot move --json-fd %d: %s", fd, strerror(errno));
	close(fd);
	return nfd;
}

/*
 * Shapes without a seed of their own get one derived from --seed, their
 * kind and position; then the run's salt is mixed in, so that no kernel
 * can know the inputs before the run.  Cut to 53 bits so that any JSON
 * reader keeps the seed exact and SHAPE@SEED with --salt 0 reproduces
 * the shape on its own.
 */
static void
derive_seeds(struct shape *sh, size_t n, uint64_t seed, int kind,
    uint64_t salt)
{
	uint64_t base;
	size_t i;

	base = ks_seed_derive(seed, kind);
	for (i = 0; i < n; i++) {
		if (!sh[i].has_seed)
			sh[i].seed = ks_seed_derive(base, i) & SEED_MASK;
		if (salt != 0)
			sh[i].seed = ks_seed_derive(sh[i].seed, salt) & SEED_MASK;
	}
}

/*
 * 53 random bits from the kernel's entropy (never 0, which means no
 * salt); the clock and the pid where there is none to read.
 */
static uint64_t
random_salt(void)
{
	uint64_t v = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		v = ks_seed_derive((uint64_t)time(NULL), (uint64_t)getpid());
	if (fd >= 0)
		close(fd);
	v &= SEED_MASK;
	return v ? v : 1;
}

static size_t
count_words(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		if (*s != ' ' && (s[1] == ' ' || s[1] == '\0'))
			n++;
	return n;
}

/* The shapes of a space-separated default list into sh; how many. */
static size_t
default_shapes(const char *list, struct shape *sh)
{
	char word[256];
	const char *why;
	size_t n = 0, len;

	while (*list) {
		list += strspn(list, " ");
		len = strcspn(list, " ");
		if (len == 0)
			break;
		if (len >= sizeof(word))
			die(2, "bad default shape list: a shape is too long");
		memcpy(word, list, len);
		word[len] = '\0';
		list += len;
		if ((why = parse_shape(word, &sh[n])) != NULL)
			die(2, "bad default shape '%s': %s", word, why);
		n++;
	}
	return n;
}

static void
parse_args(struct opts *o, int argc, char **argv)
{
	struct shape *sh;
	const char *arg, *val, *why;
	size_t *count;
	int i, bench = -1;
	size_t cap;

	o->seed = KS_DEFAULT_SEED;
	o->salt = random_salt();
	o->rtol = KS_DEFAULT_RTOL;
	o->atol = KS_DEFAULT_ATOL;
	o->time_cap = KS_DEFAULT_TIME_CAP;
	o->min_runs = KS_DEFAULT_MIN_RUNS;
	o->json_fd = 1;
	o->measure_peak = 0;
	o->profile = 0;
	o->salt_given = 0;
	o->batch = 0;
	o->worker = NULL;
	o->versus = NULL;
	/* room for the shapes of the command line or of the defaults */
	cap = (size_t)argc + count_words(KS_DEFAULT_TESTS) + count_words(KS_DEFAULT_BENCHES);
	o->tests = (struct shape *)xcalloc(cap, sizeof(*o->tests));
	o->benches = (struct shape *)xcalloc(cap, sizeof(*o->benches));
	o->ntests = o->nbenches = 0;

	for (i = 1; i < argc; i++) {
		arg = argv[i];
		if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			usage(stdout);
			exit(0);
		}
		if (!strcmp(arg, "--measure-peak")) {
			o->measure_peak = 1;
			continue;
		}
		if (!strcmp(arg, "--profile")) {
			o->profile = 1;
			continue;
		}
		if (!strcmp(arg, "--test") || !strcmp(arg, "--bench")) {
			bench = !strcmp(arg, "--bench");
			continue;
		}
		if (arg[0] != '-') {
			if (bench < 0)
				die(2, "bad shape '%s': give --test or "
				    "--bench before it", arg);
			count = bench ? &o->nbenches : &o->ntests;
			sh = bench ? &o->benches[*count] : &o->tests[*count];
			if ((why = parse_shape(arg, sh)) != NULL)
				die(2, "bad shape '%s': %s", arg, why);
			(*count)++;
			continue;
		}
		if (i + 1 >= argc)
			die(2, "bad option '%s': needs a value", arg);
		val = argv[++i];
		if (!strcmp(arg, "--seed")) {
			if (parse_u64(val, &o->seed) < 0)
				die(2, "bad --seed '%s': expected an unsigned "
				    "integer", val);
		} else if (!strcmp(arg, "--salt")) {
			if (parse_u64(val, &o->salt) < 0)
				die(2, "bad --salt '%s': expected an unsigned "
				    "integer", val);
			o->salt_given = 1;
		} else if (!strcmp(arg, "--worker")) {
			o->worker = val;
		} else if (!strcmp(arg, "--versus")) {
			o->versus = val;
		} else if (!strcmp(arg, "--rtol"))
			o->rtol = parse_double(arg, val, 0, 0);
		else if (!strcmp(arg, "--atol"))
			o->atol = parse_double(arg, val, 0, 0);
		else if (!strcmp(arg, "--time-cap"))
			o->time_cap = parse_double(arg, val, 0, 1);
		else if (!strcmp(arg, "--warm-up"))
			warmup_s = parse_double(arg, val, 0, 0);
		else if (!strcmp(arg, "--min-runs"))
			o->min_runs = parse_long(arg, val, 1, MAX_RUNS);
		else if (!strcmp(arg, "--batch"))
			o->batch = !strcmp(val, "auto") ? -1 : (int)parse_long(arg, val, 1, KS_JUDGE_MAX_BATCH);
		else if (!strcmp(arg, "--json-fd"))
			o->json_fd = (int)parse_long(arg, val, 0, INT_MAX);
		else
			die(2, "unknown option '%s': try -h", arg);
	}
	if (o->ntests == 0 && o->nbenches == 0) {
		o->ntests = default_shapes(KS_DEFAULT_TESTS, o->tests);
		o->nbenches = default_shapes(KS_DEFAULT_BENCHES, o->benches);
	}
	if (o->ntests == 0 && o->nbenches == 0)
		die(2, "no shapes: give --test SHAPE or --bench SHAPE; try -h");
	check_json_fd(o->json_fd);
	o->json_fd = hide_json_fd(o->json_fd, o->salt);
	derive_seeds(o->tests, o->ntests, o->seed, 0, o->salt);
	derive_seeds(o->benches, o->nbenches, o->seed, 1, o->salt);
	o->rng = ks_seed_derive(o->salt ^ (uint64_t)getpid(), SPOT_STREAM);
}

static int
format_shape(char *buf, size_t n, const struct shape *sh)
{
	int i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < P->ndims && (size_t)len < n; i++)
		len += snprintf(buf + len, n - len, "%s%d", i ? "x" : "",
		    sh->dims[i]);
	return len;
}

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

/*
 * The inputs of timed call n: fresh randomness drawn as the call is made,
 * so that nothing the candidate could ever see tells them in advance;
 * derived from the shape's seed when --salt was given, to repeat a run.
 */
static uint64_t
call_seed(const struct opts *o, const struct shape *sh, long n)
{
	uint64_t v;

	if (!o->salt_given && getrandom(&v, sizeof(v), 0) == (ssize_t)sizeof(v))
		return v & SEED_MASK;
	return ks_seed_derive(sh->seed, CALL_STREAM + (uint64_t)n) & SEED_MASK;
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

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median_of_sorted(const double *t, long n)
{
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

#define BATCHES 8

/*
 * The standard error of the median, from the medians of BATCHES batches
 * of the samples cut in time order.  Timings are not independent (load
 * comes and goes, clocks change), and the spread of batch medians sees
 * that drift where the spread of single samples does not.  Under
 * 2 * BATCHES runs, the mean's standard error times 1.2533 (the ratio for
 * normal samples); NAN with one run.
 */
static double
median_stderr(const double *t, long n, double sem)
{
	double m[BATCHES], *b, sum = 0, ss = 0, mean;
	long i, lo, hi;
	int k;

	if (n < 2 * BATCHES)
		return n > 1 ? 1.2533 * sem : NAN;
	if ((b = (double *)malloc(n * sizeof(*b))) == NULL)
		die(1, "out of memory");
	for (k = 0; k < BATCHES; k++) {
		lo = k * n / BATCHES;
		hi = (k + 1) * n / BATCHES;
		for (i = lo; i < hi; i++)
			b[i - lo] = t[i];
		qsort(b, hi - lo, sizeof(*b), cmp_double);
		m[k] = median_of_sorted(b, hi - lo);
		sum += m[k];
	}
	free(b);
	mean = sum / BATCHES;
	for (k = 0; k < BATCHES; k++)
		ss += (m[k] - mean) * (m[k] - mean);
	return sqrt(ss / (BATCHES - 1) / BATCHES);
}

static void
summarize(struct bench_rec *rec, double *t, long n)
{
	double sum = 0, ss = 0;
	long i;

	for (i = 0; i < n; i++)
		sum += t[i];
	rec->mean = sum / n;
	for (i = 0; i < n; i++)
		ss += (t[i] - rec->mean) * (t[i] - rec->mean);
	/* with one run there is no spread to report */
	rec->sem = n > 1 ? sqrt(ss / (n - 1) / n) : NAN;
	rec->median_sem = median_stderr(t, n, rec->sem);	/* t still in time order */
	qsort(t, n, sizeof(*t), cmp_double);
	rec->min = t[0];
	rec->max = t[n - 1];
	rec->median = median_of_sorted(t, n);
	rec->runs = n;
	/* the same test as the timing loop's stop (a recomputation may differ in the last bit: either is fine) */
	rec->converged = n > 1 && rec->sem < TARGET_RSE * rec->mean;
}

/* the checks of the shape being benched, and their time: where a bench's time goes beside its calls */
static struct {
	long n;
	double s;
} shape_checks;

/* P->check, counted and timed into shape_checks */
static void
bench_check(const struct opts *o, void *st, struct ks_check *c)
{
	double t0 = ks_now();

	P->check(st, o->rtol, o->atol, c);
	shape_checks.n++;
	shape_checks.s += ks_now() - t0;
}

/*
 * Whether a call that just returned is checked: with this chance, drawn
 * from the kernel's entropy now (the harness's own generator only where
 * getrandom fails).
 */
static int
spot_check_drawn(struct opts *o, double chance)
{
	uint64_t v;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != (ssize_t)sizeof(v))
		v = ks_rand_next(&o->rng);
	return (double)(v >> 11) * 0x1p-53 < chance;
}

/* no side-by-side from here on: the base's worker is ended, and every shape goes without */
static void
versus_lost(const char *what, const struct shape *sh, const char *why)
{
	int len;

	if (!V.on)
		return;
	V.on = 0;
	len = snprintf(V.why, sizeof V.why, "%s", what);
	len += format_shape(V.why + len, sizeof V.why - len, sh);
	snprintf(V.why + len, sizeof V.why - len, ": %s", why);
	ks_judge_use(0);
	ks_judge_drop(1);
}

/*
 * A shape's batch: the states its timed calls run on, one call each per
 * sample.  st[0] is the shape's own; the others are set up as the batch
 * grows, each with buffers of its own.
 */
struct batch {
	void *st[KS_JUDGE_MAX_BATCH];
	int n;			/* states, and calls per sample */
	int fixed;		/* --batch, or no batch to have: never grown */
	size_t state_bytes;	/* the shared memory of one state */
	double call_s;		/* the judge's least bound on one call so far */
};

/* a bound on one call from the judge's last exchange (of calls calls): the least one seen is kept */
static void
note_call_bound(struct batch *b, int calls)
{
	double t = ks_judge_last_bound() / calls;

	if (b->call_s <= 0 || t < b->call_s)
		b->call_s = t;
}

/* the calls a sample of this shape wants: BATCH_S by the least bound on one call, within memory */
static int
batch_wanted(const struct batch *b)
{
	size_t room = b->state_bytes ? BATCH_BYTES / b->state_bytes : KS_JUDGE_MAX_BATCH;
	double want = b->call_s > 0 ? ceil(BATCH_S / b->call_s) : KS_JUDGE_MAX_BATCH;

	if (room < 1)
		room = 1;
	if (room > KS_JUDGE_MAX_BATCH)
		room = KS_JUDGE_MAX_BATCH;
	return want < (double)room ? (int)want : (int)room;
}

/*
 * The batch grown to want states (fewer when the device has no room for
 * more: a setup that fails stops it), and its new states' first calls
 * made untimed by every worker (new memory's first use is no call's
 * time).  0; -1 when a call of the candidate's was refused.
 */
static int
batch_grow(const struct shape *sh, struct batch *b, int want)
{
	int was = b->n;

	while (b->n < want) {
		void *st = P->setup(sh->dims, ks_seed_derive(sh->seed, BATCH_STREAM + (uint64_t)b->n) & SEED_MASK);

		if (!st)
			break;
		b->st[b->n++] = st;
	}
	/* no room for more: the batch stays as it is from now on */
	if (b->n < want)
		b->fixed = 1;
	if (b->n == was)
		return 0;
	if (V.on) {
		ks_judge_use(1);
		if (ks_judge_call_batch(sh->dims, b->st, b->n, NULL, refused, sizeof refused) < 0)
			versus_lost("the base's call on bench shape ", sh, refused);
		ks_judge_use(0);
	}
	if (ks_judge_call_batch(sh->dims, b->st, b->n, NULL, refused, sizeof refused) < 0)
		return -1;
	note_call_bound(b, b->n);
	return 0;
}

/* the batch's calls for the first samples: --batch's, or from the warm-up's bound on one call */
static int
batch_start(const struct opts *o, const struct shape *sh, struct batch *b)
{
	/* without new_inputs every call sees the same inputs: nothing to batch them on */
	int chosen = (o->batch < 0 || (o->batch == 0 && ks_judge_on_device())) && P->new_inputs;

	b->fixed = !chosen;
	return batch_grow(sh, b, chosen ? batch_wanted(b) : o->batch > 0 ? o->batch : 1);
}

static void
batch_free(struct batch *b)
{
	for (int i = 0; i < b->n; i++)
		P->teardown(b->st[i]);
	b->n = 0;
}

/*
 * One timed sample of worker k (0: the candidate, 1: its base): a batch
 * of calls, each on fresh inputs, then each checked if drawn.  0 with the
 * time of one call (the batch's over its calls) in *dt; -1 when the
 * candidate's batch was refused (*refusal) or an output failed (spot,
 * *spot_run, the timed call's number); 1 when the base's was refused or
 * failed, which ends the side-by-side, not the bench.
 */
static int
one_timed_sample(struct opts *o, const struct shape *sh, struct batch *b, int k, long index, double *t0,
    double *dt, struct ks_check *spot, long *spot_run, int *refusal)
{
	double aside = ks_now(), batch_s, chance = 1.0 / SPOT_ONE_IN;

	if (V.on)
		ks_judge_use(k);
	if (P->new_inputs)
		for (int i = 0; i < b->n; i++)
			P->new_inputs(b->st[i], call_seed(o, sh, index * KS_JUDGE_MAX_BATCH + i));
	*t0 += ks_now() - aside;
	aside = ks_now();
	if (ks_judge_call_batch(sh->dims, b->st, b->n, &batch_s, refused, sizeof refused) < 0) {
		if (k) {
			versus_lost("the base's call on bench shape ", sh, refused);
			return 1;
		}
		*refusal = 1;
		return -1;
	}
	/* the judge's exchange around the calls (its quiet period, fingerprints) is no call's time either */
	*t0 += ks_now() - aside - batch_s;
	*dt = batch_s / b->n;
	if (!k)
		note_call_bound(b, b->n);
	if (SPOT_PER_BATCH < chance * b->n)
		chance = (double)SPOT_PER_BATCH / b->n;
	for (int i = 0; i < b->n; i++) {
		if (!spot_check_drawn(o, chance))
			continue;
		aside = ks_now();
		bench_check(o, b->st[i], spot);
		*t0 += ks_now() - aside;
		if (!spot->ok && k) {
			versus_lost("the base's output on bench shape ", sh, "wrong on a timed call checked");
			return 1;
		}
		if (!spot->ok) {
			*spot_run = i + 1;
			return -1;
		}
	}
	return 0;
}

/* room for sample n of *t (capacity *cap) */
static void
grow(double **t, long n, long *cap)
{
	double *nt;

	if (n < *cap)
		return;
	*cap = *cap ? 2 * *cap : 64;
	if ((nt = (double *)realloc(*t, *cap * sizeof(**t))) == NULL)
		die(1, "out of memory");
	*t = nt;
}

/* the base first in this round: drawn from the operating system's entropy, or the harness's generator */
static int
base_first(struct opts *o)
{
	uint64_t v;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != (ssize_t)sizeof(v))
		v = ks_rand_next(&o->rng);
	return (int)(v >> 7 & 1);
}

/*
 * Times samples (batches of calls, one_timed_sample) until the mean is
 * known to 0.5% or the time cap is spent, and at least min_runs samples
 * either way.  The cap counts the calls, not the drawing of their inputs
 * nor the spot checks: a GPU check computes a reference, and on the H200
 * one took the whole of a 0.2 s cap, leaving one timed call where
 * min_runs asked for three.  WALL_CAPS caps bound the whole, so that a
 * fast kernel whose times never settle cannot spend thousands of checks
 * on one shape.
 *
 * A batch that turns out too short (its calls faster than the warm-up's
 * bound said) grows, and the samples start again: every sample that
 * counts is of one batch, sized by the judge's own bound on a call, so a
 * kernel slow only while warming up gains nothing by it.
 *
 * Side by side, each round is one sample of the candidate and one of its
 * base, in an order drawn per round; the cap counts both, and the stop
 * rule asks the ratio of the two to be known to 0.5% too.  The base's
 * times go to rec's vs_base, the candidate's of the same rounds to
 * vs_cand.  Returns the number of the candidate's samples left in *tp.
 */
static long
time_runs(struct opts *o, const struct shape *sh, struct batch *b, double **tp, struct bench_rec *rec,
    struct ks_check *spot, long *spot_run, int *refusal)
{
	double *t = NULL, dt, bt, t0, wall0, mean = 0, m2 = 0, lmean = 0, lm2 = 0, d;
	long n = 0, cap = 0, vcap = 0, vn = 0, index = 0, in_batch;
	int side = V.on;

	*spot_run = 0;
	*refusal = 0;
	t0 = wall0 = ks_now();
	/* after min_runs, the cap on the calls, and 4 caps on the whole, checks and all */
	while (n < MAX_RUNS && (n < o->min_runs ||
	    (ks_now() - t0 < o->time_cap && ks_now() - wall0 < WALL_CAPS * o->time_cap))) {
		/*
		 * With the problem's new_inputs, every call gets inputs of its
		 * own, so a result kept from inputs seen before is worth
		 * nothing.  Calls picked at random after they returned are
		 * checked, outside the timed region: a kernel that skips its
		 * work on some calls is caught, and since the pick comes from
		 * the operating system's entropy after the call, no kernel can
		 * know beforehand which of its calls will be looked at.
		 */
		int first = side && V.on ? base_first(o) : 0;

		in_batch = 0;
		if (first && one_timed_sample(o, sh, b, 1, index++, &t0, &bt, spot, &in_batch, refusal) > 0)
			side = 0;
		if (one_timed_sample(o, sh, b, 0, index++, &t0, &dt, spot, &in_batch, refusal) < 0) {
			*spot_run = *refusal ? 0 : n * b->n + in_batch;
			*tp = t;
			return n;
		}
		if (side && !first && one_timed_sample(o, sh, b, 1, index++, &t0, &bt, spot, &in_batch, refusal) > 0)
			side = 0;
		rec->last_base = side && !first;
		if (!b->fixed && batch_wanted(b) > BATCH_GROW * b->n) {
			if (batch_grow(sh, b, batch_wanted(b)) < 0) {
				*refusal = 1;
				*tp = t;
				return n;
			}
			/* samples of one batch only: the shorter ones go */
			n = vn = 0;
			mean = m2 = lmean = lm2 = 0;
			side = V.on;
			continue;
		}
		grow(&t, n, &cap);
		t[n++] = dt;
		/* Welford's update keeps the stop test cheap per call */
		d = dt - mean;
		mean += d / n;
		m2 += d * (dt - mean);
		if (side) {
			/* (a time of 0, after the floor, is taken as 1 ps: the ratio stays finite) */
			double l = log((dt > 0 ? dt : 1e-12) / (bt > 0 ? bt : 1e-12));
			long bcap = vcap;

			grow(&rec->vs_cand, vn, &vcap);
			grow(&rec->vs_base, vn, &bcap);
			rec->vs_cand[vn] = dt;
			rec->vs_base[vn++] = bt;
			d = l - lmean;
			lmean += d / vn;
			lm2 += d * (l - lmean);
		}
		if (n >= o->min_runs && n >= 2 && sqrt(m2 / (n - 1) / n) < TARGET_RSE * mean &&
		    (!side || (vn >= 2 && sqrt(lm2 / (vn - 1) / vn) < TARGET_RSE)))
			break;
	}
	rec->vs.rounds = side ? vn : 0;
	*tp = t;
	return n;
}

/*
 * After the timed runs, one call on fresh inputs of the same shape, from
 * a seed of their own: a kernel that kept an output of an earlier call
 * (keyed by the shape, or by the pointers, which a new allocation may
 * well repeat) and returns it without computing fails here.
 */
static int
fresh_check(const struct opts *o, const struct shape *sh, void *st, struct ks_check *c)
{
	struct shape fresh = *sh;
	double t0 = ks_now();
	int rc;

	fresh.seed = ks_seed_derive(sh->seed, FRESH_STREAM) & SEED_MASK;
	/* in the same buffers: a kernel that keys a kept output by its pointers fails too */
	if (P->new_inputs) {
		P->new_inputs(st, fresh.seed);
		if ((rc = call_once(sh->dims, st)) == 0)
			P->check(st, o->rtol, o->atol, c);
	} else {
		void *fst = setup_shape(&fresh);

		if ((rc = call_once(sh->dims, fst)) == 0)
			P->check(fst, o->rtol, o->atol, c);
		P->teardown(fst);
	}
	/* one check, its fresh inputs and call counted with it */
	shape_checks.n++;
	shape_checks.s += ks_now() - t0;
	return rc;
}

/*
 * First calls pay for page faults, thread start-up, cold caches, and on a
 * GPU for clocks still rising from idle: calls, untimed (their times
 * would count for nothing), for warmup_s (WARMUP_S, or --warm-up) and at
 * least WARMUP_CALLS.
 */
static int
warm_up(const struct shape *sh, void *st, struct batch *b)
{
	double t0 = ks_now();
	long calls;

	for (calls = 0; calls < WARMUP_CALLS || ks_now() - t0 < warmup_s; calls++) {
		if (call_once(sh->dims, st) < 0)
			return -1;
		if (b)
			note_call_bound(b, 1);
	}
	return 0;
}

/*
 * The base's first call on a bench shape, checked (a base that is wrong
 * here cannot be compared with), its warm-up and its floor; on any
 * failure the side-by-side ends.  The candidate's worker is the one
 * called after.
 */
static void
prepare_base(const struct opts *o, const struct shape *sh, void *st)
{
	struct ks_check c;

	ks_judge_use(1);
	if (call_once(sh->dims, st) < 0 || warm_up(sh, st, NULL) < 0) {
		versus_lost("the base's call on bench shape ", sh, refused);
		return;
	}
	bench_check(o, st, &c);
	if (!c.ok) {
		versus_lost("the base's output on bench shape ", sh, "wrong on its first call");
		return;
	}
	ks_judge_refloor();
	ks_judge_use(0);
}

/* the end of a bench shape that ends here: its states gone, the samples freed; 0 (the shape failed) */
static int
bench_end(struct batch *b, double *t)
{
	batch_free(b);
	free(t);
	return 0;
}

static int
do_bench(struct opts *o, const struct shape *sh, struct report *r)
{
	struct ks_check c;
	struct bench_rec *rec;
	struct batch b;
	char what[300];
	double *t = NULL, wall0;
	long n, spot_run;
	int len, fresh = 0, refusal;
	size_t shared0;

	len = snprintf(what, sizeof(what), "bench shape ");
	len += format_shape(what + len, sizeof(what) - len, sh);

	wall0 = ks_now();
	shape_checks.n = 0;
	shape_checks.s = 0;
	memset(&b, 0, sizeof b);
	shared0 = ks_judge_shared_bytes();
	b.st[b.n++] = setup_shape(sh);
	b.state_bytes = ks_judge_shared_bytes() - shared0;
	if (call_once(sh->dims, b.st[0]) < 0) {
		bench_end(&b, t);
		return refuse(r, "bench shape ", sh);
	}
	bench_check(o, b.st[0], &c);
	if (!c.ok) {
		describe_failure(r, what, sh, &c, o->rtol, o->atol);
		return bench_end(&b, t);
	}

	if (warm_up(sh, b.st[0], &b) < 0) {
		bench_end(&b, t);
		return refuse(r, "bench shape ", sh);
	}
	/* the judge's floor, where these calls are timed */
	ks_judge_refloor();
	if (V.on)
		prepare_base(o, sh, b.st[0]);
	if (batch_start(o, sh, &b) < 0) {
		bench_end(&b, t);
		return refuse(r, "bench shape ", sh);
	}
	rec = &r->benches[r->nbenches];
	memset(rec, 0, sizeof *rec);
	n = time_runs(o, sh, &b, &t, rec, &c, &spot_run, &refusal);
	if (V.on)
		ks_judge_use(0);
	if (refusal) {
		bench_end(&b, t);
		return refuse(r, "bench shape ", sh);
	}
	if (spot_run) {
		snprintf(what + len, sizeof(what) - len, " on timed run %ld",
		    spot_run);
		describe_failure(r, what, sh, &c, o->rtol, o->atol);
		return bench_end(&b, t);
	}

	/*
	 * A kernel may go wrong only when called again and again: the last
	 * call is checked (the candidate's: not where the base's came after
	 * it), then one on fresh inputs.
	 */
	c.ok = 1;
	if (!rec->last_base)
		bench_check(o, b.st[b.n - 1], &c);
	if (c.ok) {
		fresh = 1;
		if (fresh_check(o, sh, b.st[0], &c) < 0) {
			bench_end(&b, t);
			return refuse(r, "bench shape ", sh);
		}
	}
	if (!c.ok) {
		snprintf(what + len, sizeof(what) - len,
		    " after %ld timed runs%s", n * b.n, fresh ? ", on fresh inputs" : "");
		describe_failure(r, what, sh, &c, o->rtol, o->atol);
		return bench_end(&b, t);
	}
	rec->shape = sh;
	rec->wall = ks_now() - wall0;
	summarize(rec, t, n);
	rec->runs = n * b.n;
	rec->batch = b.n;
	rec->checks = shape_checks.n;
	rec->checks_wall = shape_checks.s;
	rec->vs.cand = rec->vs_cand;
	rec->vs.base = rec->vs_base;
	r->nbenches++;
	bench_end(&b, t);
	return 1;
}

static void
json_num(FILE *fp, double v)
{
	if (isfinite(v))
		fprintf(fp, "%.17g", v);
	else
		fputs("null", fp);
}

static void
json_str(FILE *fp, const char *s)
{
	unsigned char ch;

	fputc('"', fp);
	for (; (ch = *s) != '\0'; s++) {
		if (ch == '"' || ch == '\\')
			fprintf(fp, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(fp, "\\u%04x", ch);
		else
			fputc(ch, fp);
	}
	fputc('"', fp);
}

static void
json_shape(FILE *fp, const struct shape *sh)
{
	int i;

	fputs("{\"shape\": [", fp);
	for (i = 0; i < P->ndims; i++)
		fprintf(fp, "%s%d", i ? "," : "", sh->dims[i]);
	fprintf(fp, "], \"seed\": %llu", (unsigned long long)sh->seed);
}

/* a shape's side-by-side: the ratio of the medians, its interval, the rounds, the base's median */
static void
json_versus_shape(FILE *fp, const struct ks_versus_shape *v)
{
	fputs(", \"versus\": {\"ratio\": ", fp);
	json_num(fp, v->ratio);
	fputs(", \"ci95\": [", fp);
	json_num(fp, v->lo);
	fputs(", ", fp);
	json_num(fp, v->hi);
	fprintf(fp, "], \"rounds\": %ld, \"base_time_us\": ", v->rounds);
	json_num(fp, v->base_median * 1e6);
	fputs(", \"time_us\": ", fp);
	json_num(fp, v->cand_median * 1e6);
	fputc('}', fp);
}

static void
json_report(FILE *fp, const struct report *r)
{
	const struct test_rec *t;
	const struct bench_rec *b;
	size_t i;

	fprintf(fp, "{\"correct\": %s, \"salt\": %llu,", r->correct ? "true" : "false",
	    (unsigned long long)r->salt);
	if (!r->correct) {
		fputs("\n \"failure\": ", fp);
		json_str(fp, r->failure);
		fputc(',', fp);
	}
	/* a rule broken (work after the return, a message out of turn), not a wrong answer */
	if (r->rejected)
		fputs("\n \"rejected\": true,", fp);
	fputs("\n \"tests\": [", fp);
	for (i = 0; i < r->ntests; i++) {
		t = &r->tests[i];
		fputs(i ? ",\n  " : "", fp);
		json_shape(fp, t->shape);
		fprintf(fp, ", \"ok\": %s, \"max_abs_err\": ",
		    t->ok ? "true" : "false");
		json_num(fp, t->max_abs_err);
		fputs(", \"worst_ratio\": ", fp);
		json_num(fp, t->worst_ratio);
		fputc('}', fp);
	}
	fputs("],\n \"results\": [", fp);
	for (i = 0; i < r->nbenches; i++) {
		b = &r->benches[i];
		fputs(i ? ",\n  " : "", fp);
		json_shape(fp, b->shape);
		fputs(", \"time_us\": ", fp);	/* the time that counts */
		json_num(fp, b->median * 1e6);
		fputs(", \"mean_us\": ", fp);
		json_num(fp, b->mean * 1e6);
		fputs(", \"median_us\": ", fp);
		json_num(fp, b->median * 1e6);
		fputs(", \"min_us\": ", fp);
		json_num(fp, b->min * 1e6);
		fputs(", \"max_us\": ", fp);
		json_num(fp, b->max * 1e6);
		fputs(", \"stderr_us\": ", fp);
		json_num(fp, b->sem * 1e6);
		fputs(", \"median_stderr_us\": ", fp);
		json_num(fp, b->median_sem * 1e6);
		fprintf(fp, ", \"runs\": %ld, \"batch\": %d, \"converged\": %s, \"wall_s\": ", b->runs,
		    b->batch, b->converged ? "true" : "false");
		json_num(fp, b->wall);
		fprintf(fp, ", \"checks\": %ld, \"checks_s\": ", b->checks);
		json_num(fp, b->checks_wall);
		if (r->versus.shapes)
			json_versus_shape(fp, &b->vs);
		fputc('}', fp);
	}
	fputs("],\n \"tests_s\": ", fp);
	json_num(fp, r->tests_wall);
	fputs(",\n \"cpu_s\": ", fp);
	json_num(fp, r->cpu_s);
	fputs(",\n \"timer\": ", fp);
	json_str(fp, ks_judge_timer_text());
	if (r->peak.flops_per_s > 0) {
		fputs(",\n \"peak\": {\"flops_per_s\": ", fp);
		json_num(fp, r->peak.flops_per_s);
		fprintf(fp, ", \"threads\": %d, \"vector_bits\": %d, "
		    "\"fma\": %s}", r->peak.threads, r->peak.vector_bits,
		    r->peak.fma ? "true" : "false");
	}
	if (r->versus.shapes) {
		fputs(",\n \"versus\": {\"ratio\": ", fp);
		json_num(fp, r->versus.ratio);
		fputs(", \"ci95\": [", fp);
		json_num(fp, r->versus.lo);
		fputs(", ", fp);
		json_num(fp, r->versus.hi);
		fputs("]}", fp);
	} else if (V.why[0]) {
		fputs(",\n \"versus_error\": ", fp);
		json_str(fp, V.why);
	}
	fputs("}\n", fp);
}

/*
 * The CPU time of this run: the runner's and its workers' (waited for:
 * the candidate's process, the base's), so that ks-bench can tell the
 * machine's other work from the bench's own.  Under bubblewrap ks-bench's
 * own count of its children misses them: bwrap's init is never waited for.
 */
static double
cpu_seconds(void)
{
	struct rusage self, children;

	if (getrusage(RUSAGE_SELF, &self) != 0 || getrusage(RUSAGE_CHILDREN, &children) != 0)
		return -1;
	return (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec + children.ru_utime.tv_sec +
	    children.ru_stime.tv_sec) + (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec +
	    children.ru_utime.tv_usec + children.ru_stime.tv_usec) * 1e-6;
}

/* one write of the whole object, so a reader never sees half of it */
static void
write_report(int fd, const struct report *r)
{
	char *buf = NULL;
	size_t len = 0, off;
	ssize_t w;
	FILE *fp;

	if ((fp = open_memstream(&buf, &len)) == NULL)
		die(1, "open_memstream failed 'json': %s", strerror(errno));
	json_report(fp, r);
	if (fclose(fp) != 0)
		die(1, "out of memory");
	/* what the candidate printed on stdout comes before the verdict */
	fflush(stdout);
	for (off = 0; off < len; off += w) {
		w = write(fd, buf + off, len - off);
		if (w < 0 && errno == EINTR)
			w = 0;
		else if (w < 0)
			die(1, "write failed 'fd %d': %s", fd,
			    strerror(errno));
	}
	free(buf);
}

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
