/*
 * ks_harness_args.c: the runner's command line: its options, the
 * shapes and their seeds, the salt, the verdict's descriptor.  A part of
 * ks_harness.c, which includes it (see there why the runner is one
 * unit).
 */

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
