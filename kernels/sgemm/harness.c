/*
 * harness.c: the sgemm problem, C = A B with A M x K, B K x N and C
 * M x N, all float and row major.
 *
 * The judge's side (ks_judge.h): A, B and C (with its guards) are the
 * memory shared with the worker, where the kernel runs; the reference and
 * the inputs drawn again for the check stay in the judge.  call.c, in the
 * worker, hands the three to the kernel.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_harness.h"
#include "reference.h"

#define GUARD	256		/* floats of guard before and after C */
#define GUARD_BITS 0x7fa5a5a5u	/* a NaN no arithmetic produces */

struct ks_sgemm {
	int M, N, K;
	float *A, *B, *C, *ref;
	float *Cmem;		/* C with GUARD floats of guard on each side */
	/* A, B and Cmem are shared with the worker (ks_shared_alloc); the rest is the judge's own */
	float *A0, *B0;		/* the inputs drawn again, for the check */
	uint64_t seed;		/* the inputs' */
};

static const char *const ks_sgemm_dims[] = { "M", "N", "K" };

/* a zeroed array of n floats, or NULL when n*4 overflows */
static float *
ks_sgemm_alloc_n(size_t n)
{
	if (n > SIZE_MAX / sizeof(float))
		return NULL;
	return calloc(n, sizeof(float));
}

/* the same for a*b floats, also when a*b overflows */
static float *
ks_sgemm_alloc(int a, int b)
{
	return ks_sgemm_alloc_n((size_t)a * (size_t)b);
}

/* n floats the kernel works on, shared with the worker; NULL when n*4 overflows */
static float *
ks_sgemm_shared(size_t n)
{
	if (n > SIZE_MAX / sizeof(float))
		return NULL;
	return ks_shared_alloc(n * sizeof(float));
}

static void
ks_sgemm_teardown(void *state)
{
	struct ks_sgemm *s = state;

	ks_shared_free(s->A);
	ks_shared_free(s->B);
	ks_shared_free(s->Cmem);
	free(s->A0);
	free(s->B0);
	free(s->ref);
	free(s);
}

/*
 * A kernel that leaves any of C unwritten must fail the check; one that
 * writes just outside C changes the guards around it.
 */
static void
ks_sgemm_poison(struct ks_sgemm *s)
{
	size_t i, nc = (size_t)s->M * s->N;
	uint32_t g = GUARD_BITS;

	for (i = 0; i < nc; i++)
		s->C[i] = NAN;
	for (i = 0; i < GUARD; i++) {
		memcpy(&s->Cmem[i], &g, sizeof(g));
		memcpy(&s->C[nc + i], &g, sizeof(g));
	}
}

/* NULL, or where a guard around C changed */
static const char *
ks_sgemm_guards_changed(const struct ks_sgemm *s)
{
	size_t i, nc = (size_t)s->M * s->N;
	uint32_t g = GUARD_BITS;

	for (i = 0; i < GUARD; i++) {
		if (memcmp(&s->Cmem[i], &g, sizeof(g)) != 0)
			return "before its start";
		if (memcmp(&s->C[nc + i], &g, sizeof(g)) != 0)
			return "past its end";
	}
	return NULL;
}

/* A and B drawn from seed */
static void
ks_sgemm_draw(float *A, float *B, int M, int N, int K, uint64_t seed)
{
	ks_fill_uniform_f32(A, (size_t)M * K, ks_seed_derive(seed, 0), -1, 1);
	ks_fill_uniform_f32(B, (size_t)K * N, ks_seed_derive(seed, 1), -1, 1);
}

/* new A and B in the same buffers, C poisoned (ks_harness.h) */
static void
ks_sgemm_new_inputs(void *state, uint64_t seed)
{
	struct ks_sgemm *s = state;

	s->seed = seed;
	ks_sgemm_draw(s->A, s->B, s->M, s->N, s->K, seed);
	ks_sgemm_poison(s);
}

static void *
ks_sgemm_setup(const int *dims, uint64_t seed)
{
	struct ks_sgemm *s;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	s->M = dims[0];
	s->N = dims[1];
	s->K = dims[2];
	s->A = ks_sgemm_shared((size_t)s->M * s->K);
	s->B = ks_sgemm_shared((size_t)s->K * s->N);
	s->Cmem = ks_sgemm_shared((size_t)s->M * s->N + 2 * GUARD);
	s->C = s->Cmem ? s->Cmem + GUARD : NULL;
	s->ref = ks_sgemm_alloc(s->M, s->N);
	s->A0 = ks_sgemm_alloc(s->M, s->K);
	s->B0 = ks_sgemm_alloc(s->K, s->N);
	if (!s->A || !s->B || !s->Cmem || !s->ref || !s->A0 || !s->B0) {
		ks_sgemm_teardown(s);
		return NULL;
	}
	ks_sgemm_new_inputs(s, seed);
	return s;
}

/* the kernel's arguments, in call.c's order */
static int
ks_sgemm_args(void *state, void **ptrs, int max)
{
	struct ks_sgemm *s = state;

	if (max < 3)
		return -1;
	ptrs[0] = s->A;
	ptrs[1] = s->B;
	ptrs[2] = s->C;
	return 3;
}

static void
ks_sgemm_check(void *state, double rtol, double atol, struct ks_check *res)
{
	struct ks_sgemm *s = state;
	const char *where, *changed = NULL;

	/*
	 * The reference, only now that the call is over, from the inputs
	 * drawn again: while the kernel ran, no answer to its inputs
	 * existed, and it can change no copy the reference is made from.
	 */
	ks_sgemm_draw(s->A0, s->B0, s->M, s->N, s->K, s->seed);
	sgemm_reference(s->M, s->N, s->K, s->A0, s->B0, s->ref);
	ks_check_f32(s->C, s->ref, (size_t)s->M * s->N, rtol, atol, res);
	if ((where = ks_sgemm_guards_changed(s)) != NULL) {
		res->ok = 0;
		snprintf(res->reason, sizeof(res->reason), "the kernel wrote "
		    "outside C, %s", where);
	}
	if (memcmp(s->A, s->A0, (size_t)s->M * s->K * sizeof(float)) != 0)
		changed = "A";
	else if (memcmp(s->B, s->B0, (size_t)s->K * s->N * sizeof(float)) != 0)
		changed = "B";
	if (changed) {
		res->ok = 0;
		snprintf(res->reason, sizeof(res->reason), "the kernel changed "
		    "its input %s (inputs are read-only)", changed);
	}
}

static void
ks_sgemm_describe(const int *dims, size_t index, char *buf, size_t n)
{
	size_t N = (size_t)dims[1];

	snprintf(buf, n, "C[%zu][%zu]", index / N, index % N);
}

const struct ks_problem ks_problem = {
	.name = "sgemm",
	.ndims = 3,
	.dim_names = ks_sgemm_dims,
	.setup = ks_sgemm_setup,
	.check = ks_sgemm_check,
	.teardown = ks_sgemm_teardown,
	.describe = ks_sgemm_describe,
	.new_inputs = ks_sgemm_new_inputs,
	.args = ks_sgemm_args,
};
