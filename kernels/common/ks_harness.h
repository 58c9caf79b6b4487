/*
 * ks_harness.h: the part of a kernel-scientist runner shared by all
 * problems.
 *
 * A runner is a judge, built from ks_harness.c (which holds main),
 * ks_judge.c and a problem's harness sources.  The problem's harness
 * describes itself by defining ks_problem; main parses the shapes given
 * on the command line, checks the candidate against the problem's
 * reference and times it.  The candidate is never linked into the
 * runner: it is linked with the problem's call glue (problem.json
 * "worker_sources") into a program of its own, the worker, which the
 * judge runs as a separate process and reaches only through the buffers
 * of ks_shared_alloc and a command channel (ks_judge.h).  Every external
 * symbol of the harness starts with ks_ (or the problem's name plus
 * _reference) to keep clear of the candidate's names.
 */
#ifndef KS_HARNESS_H
#define KS_HARNESS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* the harness is C; a problem's harness may be CUDA C++ or HIP */
#ifdef __cplusplus
extern "C" {
#endif

#define KS_MAX_DIMS	8	/* most integers one shape may have */

/* The outcome of comparing an output with the reference. */
struct ks_check {
	int ok;			/* every element within tolerance */
	size_t checked, bad;	/* elements compared, out of tolerance */
	size_t worst_index;	/* flat index of the largest err/tol ratio */
	double worst_got, worst_want;
	double worst_ratio;	/* |got-want| / (atol + rtol*|want|) */
	double max_abs_err;	/* NaN when some output was NaN */
	/*
	 * Why the check failed when no element says it: "the kernel wrote
	 * into its input a", say.  Empty otherwise; a problem's check sets
	 * it after ks_check_f32, which clears it.
	 */
	char reason[200];
};

/*
 * What a problem's harness provides.
 *
 * setup allocates and owns everything: inputs, output, reference
 * output.  It fills the inputs from seed, computes the reference and
 * returns a state that only the problem's own functions look into, or
 * NULL when memory ran out.  teardown frees the state and all it owns.
 * The judge calls the candidate in its worker on the buffers args
 * gives; the candidate must overwrite the whole output.  check compares
 * the output with the reference and fills res.  dims always has ndims
 * integers, each at least 1.
 */
struct ks_problem {
	const char *name;
	int ndims;			/* integers per shape: 3 for M, N, K */
	const char *const *dim_names;	/* "M", "N", "K" */
	void *(*setup)(const int *dims, uint64_t seed);
	void (*check)(void *state, double rtol, double atol,
	    struct ks_check *res);
	void (*teardown)(void *state);
	/* optional: names output element index, e.g. "C[3][5]"; NULL
	 * gives "element 42" */
	void (*describe)(const int *dims, size_t index, char *buf,
	    size_t n);
	/*
	 * optional, and what a problem should give: new inputs drawn from
	 * seed into the same buffers (keep the seed: check needs it) and the
	 * output reset to garbage; no reference.  With it, every timed call
	 * gets inputs of its own, and check computes the reference after the
	 * call, from inputs it draws again from the seed (not from a copy the
	 * kernel could reach): while the kernel runs, the answer to its
	 * inputs exists nowhere, a result kept from inputs seen before is
	 * worth nothing, and one kept by its pointers is stale.  setup then
	 * only allocates and calls new_inputs.  Without it, setup computes the
	 * reference, every timed call sees the same inputs and the
	 * fresh-input check allocates new ones.
	 */
	void (*new_inputs)(void *state, uint64_t seed);
	/*
	 * The kernel's pointer arguments for the call glue, in its order,
	 * each inside memory from ks_shared_alloc (ks_gpu_shared_alloc on a
	 * GPU); how many (at most max).  The judge hands the worker only
	 * these buffers.
	 */
	int (*args)(void *state, void **ptrs, int max);
};

/*
 * The memory the kernel works on: bytes shared with the worker (zeroed),
 * or NULL when there is no room.  Everything else the problem allocates
 * (the reference, the inputs drawn again for the check) stays in the
 * judge, out of the worker's reach.  ks_shared_free takes only a pointer
 * ks_shared_alloc returned, or NULL.
 */
void *ks_shared_alloc(size_t bytes);
void ks_shared_free(void *p);

extern const struct ks_problem ks_problem;	/* each problem defines it */

/* seconds on CLOCK_MONOTONIC since an arbitrary start */
double ks_now(void);

/*
 * The machine's single-precision peak (runner --measure-peak), measured
 * before any candidate code runs: ks_peak.c, in CPU runners only (a weak
 * symbol elsewhere).
 */
struct ks_peak {
	double flops_per_s;	/* 0: not measured */
	int threads;		/* OpenMP threads that ran, as the candidate may */
	int vector_bits;	/* the widest vectors the compiler targets */
	int fma;		/* fused multiply-add instructions */
};
void ks_measure_peak(struct ks_peak *peak);

/* what a GPU harness's device code shares with its host code */
#if defined(__CUDACC__) || defined(__HIPCC__)
#define KS_HOST_DEVICE	__host__ __device__
#else
#define KS_HOST_DEVICE
#endif

/*
 * splitmix64: small, fast, and any 64-bit seed, zero included, gives a
 * good stream.  Its n-th number (from 0) is a function of the seed and
 * n alone, ks_rand_at: a GPU draws an array in parallel, element by
 * element, exactly as the host draws it with ks_rand_next.
 */
static inline KS_HOST_DEVICE uint64_t
ks_rand_at(uint64_t seed, uint64_t n)
{
	uint64_t z = seed + (n + 1) * UINT64_C(0x9e3779b97f4a7c15);

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* the next number of the stream *state, which moves on */
static inline KS_HOST_DEVICE uint64_t
ks_rand_next(uint64_t *state)
{
	uint64_t z = ks_rand_at(*state, 0);

	*state += UINT64_C(0x9e3779b97f4a7c15);
	return z;
}

/*
 * A seed for stream n derived from seed; distinct n give unrelated
 * streams.  Two steps, so that seed+1 with n and seed with n+1 differ.
 */
static inline KS_HOST_DEVICE uint64_t
ks_seed_derive(uint64_t seed, uint64_t n)
{
	return ks_rand_at((seed + UINT64_C(0x9e3779b97f4a7c15)) ^
	    (n * UINT64_C(0xd1b54a32d192ed03)), 0);
}

/*
 * Number n of the stream seed as a float uniform in [lo, hi): the top 24
 * bits give every float in [0, 1) with step 2^-24.
 */
static inline KS_HOST_DEVICE float
ks_uniform_at(uint64_t seed, uint64_t n, float lo, float hi)
{
	float u = (float)(ks_rand_at(seed, n) >> 40) * 5.9604644775390625e-8f;

	return lo + (hi - lo) * u;
}

/* x[0..n) uniform in [lo, hi), a function of seed alone: x[i] = ks_uniform_at(seed, i, lo, hi) */
void ks_fill_uniform_f32(float *x, size_t n, uint64_t seed, float lo,
    float hi);

/*
 * ks_check_f32's verdict over some of the elements, so that a GPU can
 * compare an output it would cost much to download and reach the same
 * verdict: each thread adds its elements to a part of its own, parts are
 * merged in any order, and ks_check_from_part makes the ks_check.
 * ks_check_f32 itself is these three steps, so the two cannot disagree.
 */
struct ks_check_part {
	size_t bad;			/* elements out of tolerance */
	size_t worst_index;		/* the first element of the largest ratio */
	double worst_ratio;		/* -1 before any element */
	double worst_got, worst_want;
	double max_abs_err;		/* of the errors that are numbers */
	int nan_err;			/* some |got - want| is NaN */
	size_t got_differs;		/* elements after the first unlike got[0] */
	size_t want_differs;		/* the same of want, for the constant-output rule */
};

static inline KS_HOST_DEVICE void
ks_check_part_init(struct ks_check_part *p)
{
	p->bad = p->worst_index = p->got_differs = p->want_differs = 0;
	p->worst_ratio = -1;
	p->worst_got = p->worst_want = p->max_abs_err = 0;
	p->nan_err = 0;
}

/* element i: got g, want w; got0 and want0 are element 0's */
static inline KS_HOST_DEVICE void
ks_check_part_add(struct ks_check_part *p, size_t i, float g, float w,
    float got0, float want0, double rtol, double atol)
{
	double err = fabs((double)g - (double)w);
	double tol = atol + rtol * fabs((double)w), ratio;

	if (isnan(err))
		ratio = INFINITY;
	else if (tol > 0)
		ratio = err / tol;
	else
		ratio = err > 0 ? INFINITY : 0;
	/* written so that a NaN error fails too */
	if (!(err <= tol))
		p->bad++;
	if (isnan(err))
		p->nan_err = 1;
	else if (err > p->max_abs_err)
		p->max_abs_err = err;
	if (ratio > p->worst_ratio) {
		p->worst_ratio = ratio;
		p->worst_index = i;
		p->worst_got = g;
		p->worst_want = w;
	}
	if (i > 0) {
		p->got_differs += g != got0;
		p->want_differs += w != want0;
	}
}

/* into gets part p too; of equal ratios, the lower index is the worst */
static inline KS_HOST_DEVICE void
ks_check_part_merge(struct ks_check_part *into, const struct ks_check_part *p)
{
	into->bad += p->bad;
	into->nan_err |= p->nan_err;
	if (p->max_abs_err > into->max_abs_err)
		into->max_abs_err = p->max_abs_err;
	if (p->worst_ratio > into->worst_ratio || (p->worst_ratio ==
	    into->worst_ratio && p->worst_index < into->worst_index)) {
		into->worst_ratio = p->worst_ratio;
		into->worst_index = p->worst_index;
		into->worst_got = p->worst_got;
		into->worst_want = p->worst_want;
	}
	into->got_differs += p->got_differs;
	into->want_differs += p->want_differs;
}

/*
 * The verdict of n elements merged into p, got0 element 0 of the output
 * (named by the constant-output rule): as ks_check_f32 gives it.
 */
void ks_check_from_part(const struct ks_check_part *p, size_t n, float got0,
    struct ks_check *res);

/*
 * Elementwise |got-want| <= atol + rtol*|want|.  A NaN in got is out
 * of tolerance whatever want is.
 */
void ks_check_f32(const float *got, const float *want, size_t n,
    double rtol, double atol, struct ks_check *res);

/*
 * Exact equality, for integer outputs (counts, indexes, hashes): any
 * difference fails, whatever --rtol and --atol say.  A constant output
 * never passes where the reference is not constant, as with ks_check_f32
 * (here because nothing but the reference's own values passes).
 */
void ks_check_i32(const int32_t *got, const int32_t *want, size_t n,
    struct ks_check *res);

/*
 * bf16 held as its 16 bits (the top half of an IEEE binary32), so that
 * C needs no bf16 type.  To float is exact.  To bf16 rounds to nearest,
 * ties to even, as __float2bfloat16 does: adding 0x7fff plus the lowest
 * kept bit carries into the kept bits exactly when the dropped half is
 * above one half, or one half with the kept part odd; a carry out of
 * the mantissa rounds up the exponent, up to infinity, as it should.
 * NaN stays NaN: rounding could carry its mantissa into zero, which
 * would make it infinity.
 */
static inline KS_HOST_DEVICE float
ks_bf16_to_f32(uint16_t h)
{
	union { uint32_t u; float f; } v;

	v.u = (uint32_t)h << 16;
	return v.f;
}

static inline KS_HOST_DEVICE uint16_t
ks_f32_to_bf16(float f)
{
	union { uint32_t u; float f; } v;

	v.f = f;
	if ((v.u & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((v.u >> 16) | 0x0040u);	/* quiet NaN */
	v.u += 0x7fffu + ((v.u >> 16) & 1u);
	return (uint16_t)(v.u >> 16);
}

#ifdef __cplusplus
}
#endif

#endif
