/*
 * ks_judge_exchange.c: one exchange of calls with a worker, timed by
 * the judge: the fingerprints of the outputs around the quiet period, the
 * worker's times held to the judge's own within the margin, the calls'
 * arguments.  A part of ks_judge.c, which includes it.
 */

/* ---- fingerprints ---- */

static uint64_t
mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/*
 * A keyed hash of the bytes of every buffer in the call's arguments: the
 * worker cannot make a change that keeps it, never having seen the key.
 * Four lanes, so that the multiplications overlap.
 */
static uint64_t
fingerprint(const int *bufs, int nbufs)
{
	uint64_t h[4] = { J.key, ~J.key, J.key ^ 1, J.key ^ 2 };
	static const void *devs[MAX_CALL_BUFS];
	static size_t lens[MAX_CALL_BUFS];
	int ndev = 0;

	/* device memory: the judge's kernels hash it, all buffers in one wait */
	for (int b = 0; b < nbufs; b++)
		if (shared[bufs[b]].device) {
			devs[ndev] = shared[bufs[b]].p;
			lens[ndev++] = shared[bufs[b]].len;
		}
	if (ndev)
		h[0] ^= mix(ks_gpu_fingerprint(devs, lens, ndev, J.key));
	for (int b = 0; b < nbufs; b++) {
		const unsigned char *p = (const unsigned char *)shared[bufs[b]].p;
		size_t len = shared[bufs[b]].len, i = 0;
		uint64_t w[4];

		if (shared[bufs[b]].device)
			continue;

		for (; i + 32 <= len; i += 32) {
			memcpy(w, p + i, 32);
			for (int l = 0; l < 4; l++)
				h[l] = (h[l] ^ w[l]) * UINT64_C(0x9e3779b97f4a7c15);
		}
		for (; i < len; i++)
			h[0] = (h[0] ^ p[i]) * UINT64_C(0x100000001b3);
		h[1] ^= len;
	}
	return mix(h[0] ^ mix(h[1] ^ mix(h[2] ^ mix(h[3]))));
}

/* ---- one exchange ---- */

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* the median of t[0..n), sorted, and its middle half's width into *spread */
static double
median_of(double *t, int n, double *spread)
{
	qsort(t, n, sizeof t[0], cmp_double);
	if (spread)
		*spread = t[3 * n / 4] - t[n / 4];
	return t[n / 2];
}


/* a GPU runner: the kernel's work is on a device, which the judge waits for itself */
static int
on_device(void)
{
	return ks_gpu_judge_settle != NULL;
}

int
ks_judge_on_device(void)
{
	return on_device();
}

/*
 * The timed part of a call: from waking the worker to its being stopped
 * after it said the call returned (and, on a GPU, to the judge's own
 * kernel done after it).  Everything the worker does in between is inside
 * the interval; *worker_s is what the worker says it measured (a GPU's
 * events; 0 on the CPU).  -1 with why when the reply is not the one due.
 */
static int
timed_exchange(struct ks_msg *m, const struct ks_msg_arg *args, const int *bufs, int nbufs, uint64_t *print,
    double *dt, double *worker_s, char *why, size_t n)
{
	struct ks_msg r;
	double t0;

	m->seq = ++W->seq;
	if (on_device())
		ks_gpu_judge_before_call();
	t0 = now();
	worker_continue();
	if (send_msg(m, args, -1) < 0)
		channel_closed();
	W->spin = on_device() && !J.pinned;
	if (recv_msg(&r, why, n) < 0) {
		W->spin = 0;
		return -1;
	}
	W->spin = 0;
	if (r.type != KS_MSG_DONE || r.seq != m->seq) {
		snprintf(why, n, "the kernel's process sent the judge a message out of turn (type %u, call %u, "
		    "where the judge waited for type %u, call %u)", r.type, r.seq, KS_MSG_DONE, m->seq);
		return -1;
	}
	if (on_device()) {
		/*
		 * The worker stopped, so it queues nothing more; then the
		 * judge's own kernel, waited for: the device runs it once the
		 * worker's work is done (or pushed off, which the fingerprint
		 * after it then shows).  The fingerprint is outside the
		 * interval, but timed against its cost without the worker:
		 * work of the worker's still on the device would hold it up.
		 */
		double t3;
#ifdef KS_JUDGE_TRACE
		double t1 = now(), t2;
#endif

		worker_stop();
#ifdef KS_JUDGE_TRACE
		t2 = now();
#endif
		ks_gpu_judge_settle();
		t3 = now();
		*print = nbufs ? fingerprint(bufs, nbufs) : 0;
		W->last_fp_s = now() - t3;
		/* a fingerprint held up past its own cost: the worker's work went on; that wait counts */
		*dt = t3 - t0;
		if (nbufs && W->last_fp_s > FP_SLOW_SHARE * W->fp_s + FP_SLOW_S)
			*dt += W->last_fp_s - FP_SLOW_SHARE * W->fp_s - FP_SLOW_S;
#ifdef KS_JUDGE_TRACE
		fprintf(stderr, "judge-parts nbufs %d w %.2f done %.2f stop %.2f settle %.2f fp %.2f\n", nbufs,
		    r.seconds * 1e6, (t1 - t0) * 1e6, (t2 - t1) * 1e6, (t3 - t2) * 1e6, W->last_fp_s * 1e6);
#endif
	} else {
		worker_stop();
		*dt = now() - t0;
		*print = nbufs ? fingerprint(bufs, nbufs) : 0;
	}
	*worker_s = r.seconds;
	W->last_dt = *dt;
	return channel_quiet(why, n);
}

/*
 * What the judge's fingerprint of these buffers costs: measured by the
 * judge alone, with the worker stopped and nothing of its on the device,
 * once per set of buffers (a shape's).
 */
static void
measure_fingerprint(const int *bufs, int nbufs)
{
	double fp[9], t0;
	int same = W->fp_n == nbufs;

	for (int b = 0; b < nbufs && same; b++)
		same = W->fp_ids[b] == shared[bufs[b]].id;
	if (same)
		return;
	ks_gpu_judge_settle();
	for (int i = 0; i < 9; i++) {
		t0 = now();
		(void)fingerprint(bufs, nbufs);
		fp[i] = now() - t0;
	}
	W->fp_s = median_of(fp, 9, NULL);
	for (int b = 0; b < nbufs; b++)
		W->fp_ids[b] = shared[bufs[b]].id;
	W->fp_n = nbufs;
}

/* the worker runs with no command for a while, and is stopped again; its output drained */
static void
quiet_period(double call_s)
{
	double d = call_s * QUIET_SHARE, end;
	struct pollfd p = { W->out, POLLIN, 0 };

	if (d < QUIET_MIN_S)
		d = QUIET_MIN_S;
	if (d > QUIET_MAX_S)
		d = QUIET_MAX_S;
	worker_continue();
	end = now() + d;
	for (double left = d; left > 0; left = end - now()) {
		int ms = (int)(left * 1e3);

		if (W->out < 0 || ms < 1) {
			struct timespec ts = { 0, (long)(left * 1e9) };

			nanosleep(&ts, NULL);
			break;
		}
		if (poll(&p, 1, ms) > 0)
			drain_output();
	}
	worker_stop();
}

/* a worker that broke a rule is ended at once: the verdict is written without it */
static int
refused(void)
{
	int status;

	kill(W->pid, SIGKILL);
	while (waitpid(W->pid, &status, 0) < 0 && errno == EINTR)
		;
	drain_output();
	W->pid = -1;
	return -1;
}

/* the median of the latest timed calls' shortfalls */
static double
median_short(void)
{
	static double t[SHORTS_KEPT];
	int n = W->calls < SHORTS_KEPT ? (int)W->calls : SHORTS_KEPT;

	memcpy(t, W->shorts, n * sizeof t[0]);
	return median_of(t, n, NULL);
}

/* 0 while the median shortfall of the timed calls is within the margin; -1, with why, past it */
static int
shortfall_within(char *why, size_t n)
{
	double med;

	if (W->calls == 0 || (med = median_short()) <= W->margin_s)
		return 0;
	snprintf(why, n, "the kernel's process said its calls took less than the judge saw: by a median of "
	    "%.1f us more than %.0f%% of the call over its latest %ld timed calls, past a margin of %.1f us: "
	    "its times cannot stand", med * 1e6, MARGIN_SHARE * 100,
	    W->calls < SHORTS_KEPT ? W->calls : (long)SHORTS_KEPT, W->margin_s * 1e6);
	return -1;
}

/*
 * A floor (the field at offset off of struct worker), the least of the
 * live workers' measures: the exchange is the same harness code in each,
 * and a side-by-side's two kernels must have the same subtracted, or its
 * ratio would carry the difference of two noisy floors (30 us of 300 on
 * this project's 2-CPU machine before it was shared).
 */
static double
least_of_workers(size_t off)
{
	double least = *(const double *)((const char *)W + off);

	for (int k = 0; k < KS_JUDGE_WORKERS; k++) {
		double f = *(const double *)((const char *)&workers[k] + off);

		if (workers[k].pid > 0 && f < least)
			least = f;
	}
	return least;
}

/*
 * A GPU call's time: the worker's events, less their own cost, as far as
 * the judge's interval bears them out.  The judge's interval, less an
 * empty call's exchange, is the most the call can have taken; the
 * worker's time may fall short of it, since a real call's exchange costs
 * more than an empty one's and the judge's process is now and then held
 * up, but not by much for long: past the margin by the median of the
 * latest timed calls, the worker's times cannot stand (rejected); a
 * single call past CALL_MARGINS margins is taken at that bound.  Only
 * timed calls are held to it: a check's or a warm-up's time counts for
 * nothing, and a shape's first calls (new buffers, code loaded on first
 * use) stood further short on the H200 (kernels/GPU-RESULTS.md).
 */
static int
device_time(double dt, double worker_s, double *seconds, char *why, size_t n)
{
	double margin = W->margin_s + MARGIN_SHARE * dt, most = dt - W->gap_s, t = worker_s;

	/* not a number is no time at all */
	if (!(t >= 0))
		t = 0;
	W->shorts[W->calls % SHORTS_KEPT] = most - t - MARGIN_SHARE * dt;
	W->calls++;
#ifdef KS_JUDGE_TRACE
	fprintf(stderr, "judge-trace call %ld dt %.2f w %.2f fp %.2f/%.2f gap %.2f margin %.2f short %.2f\n", W->calls,
	    dt * 1e6, worker_s * 1e6, W->last_fp_s * 1e6, W->fp_s * 1e6, W->gap_s * 1e6, margin * 1e6,
	    (most - t) * 1e6);
#endif
	if (t < most - CALL_MARGINS * margin) {
		W->clamped++;
		t = most - CALL_MARGINS * margin;
	}
	/* the median looked at on every call while there are few, then on every 16th */
	if (W->calls >= SHORTS_MIN && (W->calls < 64 || W->calls % 16 == 0) && shortfall_within(why, n) < 0)
		return -1;
	t -= least_of_workers(offsetof(struct worker, events_floor_s));
	*seconds = t > 0 ? t : 0;
	return 0;
}

int
ks_judge_times_stand(char *why, size_t n)
{
	return on_device() && !W->unconfined ? shortfall_within(why, n) : 0;
}

/*
 * The pointer arguments of one call on each state, into the CALL's args
 * and the call's buffers, each once, into bufs; the number of buffers.
 */
static int
call_args(struct ks_msg *m, struct ks_msg_arg *args, void *const *states, int nstates, int *bufs)
{
	static unsigned stamp[MAX_SHARED], now_stamp;
	void *ptrs[KS_JUDGE_MAX_ARGS];
	int nbufs = 0, nargs = 0;

	if (!ks_problem.args)
		die("problem '%s' gives no args() for its judge", ks_problem.name);
	/* a buffer is in bufs once: its slot stamped with this exchange's number */
	if (++now_stamp == 0) {
		memset(stamp, 0, sizeof stamp);
		now_stamp = 1;
	}
	for (int c = 0; c < nstates; c++) {
		int got = ks_problem.args(states[c], ptrs, KS_JUDGE_MAX_ARGS);

		if (got < 0 || got > KS_JUDGE_MAX_ARGS || (c > 0 && got != nargs))
			die("problem '%s': args() gave %d arguments", ks_problem.name, got);
		nargs = got;
		for (int i = 0; i < nargs; i++) {
			struct ks_msg_arg *a = &args[c * nargs + i];
			int b = shared_holding(ptrs[i]);

			if (b < 0)
				die("problem '%s': argument %d is not in shared memory (a bug of its harness)",
				    ks_problem.name, i);
			a->id = shared[b].id;
			a->off = (uint64_t)((char *)ptrs[i] - (char *)shared[b].p);
			if (stamp[b] != now_stamp) {
				stamp[b] = now_stamp;
				bufs[nbufs++] = b;
			}
		}
	}
	m->nargs = (uint32_t)nargs;
	m->ncalls = (uint32_t)nstates;
	return nbufs;
}

static int
judge_call(const int *dims, void *const *states, int nstates, double *seconds, char *why, size_t n)
{
	static struct ks_msg_arg args[KS_JUDGE_MAX_BATCH * KS_JUDGE_MAX_ARGS];
	static int bufs[MAX_CALL_BUFS];
	double floor;
	int nbufs, i;
	struct ks_msg m;
	uint64_t before, after;
	double dt, worker_s;

	if (W->pid <= 0)
		die("a call after the kernel's process was ended (a bug of the runner)");
	if (nstates < 1 || nstates > KS_JUDGE_MAX_BATCH)
		die("a batch of %d calls (a bug of the runner)", nstates);
	if (sync_buffers(why, n) < 0)
		return refused();
	memset(&m, 0, sizeof m);
	m.type = KS_MSG_CALL;
	m.profile = (uint32_t)W->profiling;
	for (i = 0; i < ks_problem.ndims; i++)
		m.dims[i] = dims[i];
	nbufs = call_args(&m, args, states, nstates, bufs);
	if (on_device())
		measure_fingerprint(bufs, nbufs);
	/* what the kernel left when it said it was done, and again after it ran with no call */
	if (timed_exchange(&m, args, bufs, nbufs, &before, &dt, &worker_s, why, n) < 0)
		return refused();
	quiet_period(dt);
	after = fingerprint(bufs, nbufs);
	if (before != after) {
		snprintf(why, n, "the kernel's memory changed after its call returned (work after the return "
		    "counts for nothing and is not allowed)");
		return refused();
	}
	if (channel_quiet(why, n) < 0)
		return refused();
	if (!seconds)
		return 0;
	if (on_device() && W->unconfined) {
		/* --profile: no time is kept */
		*seconds = worker_s;
		return 0;
	}
	if (on_device())
		return device_time(dt, worker_s, seconds, why, n) < 0 ? refused() : 0;
	floor = least_of_workers(offsetof(struct worker, floor_s));
	*seconds = dt > floor ? dt - floor : 0;
	return 0;
}

int
ks_judge_call_batch(const int *dims, void *const *states, int nstates, double *seconds, char *why, size_t n)
{
	if (is_base() && setjmp(base_lost)) {
		snprintf(why, n, "%s", base_why);
		return -1;
	}
	return judge_call(dims, states, nstates, seconds, why, n);
}

int
ks_judge_call(const int *dims, void *state, double *seconds, char *why, size_t n)
{
	return ks_judge_call_batch(dims, &state, 1, seconds, why, n);
}

double
ks_judge_last_bound(void)
{
	double b = W->last_dt - (on_device() ? W->gap_s : W->floor_s);

	return b > 0 ? b : 0;
}

size_t
ks_judge_shared_bytes(void)
{
	size_t bytes = 0;

	for (int i = 0; i < MAX_SHARED; i++)
		if (shared[i].used && !shared[i].freed)
			bytes += shared[i].len;
	return bytes;
}
