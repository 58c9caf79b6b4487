/*
 * ks_harness_bench.c: a bench shape checked and timed: the warm-up, the
 * batches of timed calls on fresh inputs, the spot checks, the stop rule,
 * the statistics of the samples, the side-by-side rounds with the base.
 * A part of ks_harness.c, which includes it.
 */

#define WARMUP_CALLS	2	/* at least this many calls before timing */
#define FRESH_STREAM	0x66726573ULL	/* "fres": the seed stream of fresh inputs */
#define CALL_STREAM	0x63616c6c00000000ULL	/* "call": the inputs of timed call n */
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
