/*
 * harness.c: the sgemm problem, C = A B with A M x K, B K x N and C
 * M x N, all float and row major.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ks_harness.h"
#include "reference.h"

/* the candidate's entry point */
void sgemm(int M, int N, int K, const float *A, const float *B, float *C);

struct ks_sgemm {
	int M, N, K;
	float *A, *B, *C, *ref;
};

static const char *const ks_sgemm_dims[] = { "M", "N", "K" };

/* a zeroed array of a*b floats, or NULL, also when a*b*4 overflows */
static float *
ks_sgemm_alloc(int a, int b)
{
	size_t n = (size_t)a * (size_t)b;

	if (n > SIZE_MAX / sizeof(float))
		return NULL;
	return calloc(n, sizeof(float));
}

static void
ks_sgemm_teardown(void *state)
{
	struct ks_sgemm *s = state;

	free(s->A);
	free(s->B);
	free(s->C);
	free(s->ref);
	free(s);
}

static void *
ks_sgemm_setup(const int *dims, uint64_t seed)
{
	struct ks_sgemm *s;
	size_t i, nc;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	s->M = dims[0];
	s->N = dims[1];
	s->K = dims[2];
	s->A = ks_sgemm_alloc(s->M, s->K);
	s->B = ks_sgemm_alloc(s->K, s->N);
	s->C = ks_sgemm_alloc(s->M, s->N);
	s->ref = ks_sgemm_alloc(s->M, s->N);
	if (!s->A || !s->B || !s->C || !s->ref) {
		ks_sgemm_teardown(s);
		return NULL;
	}
	ks_fill_uniform_f32(s->A, (size_t)s->M * s->K,
	    ks_seed_derive(seed, 0), -1, 1);
	ks_fill_uniform_f32(s->B, (size_t)s->K * s->N,
	    ks_seed_derive(seed, 1), -1, 1);
	sgemm_reference(s->M, s->N, s->K, s->A, s->B, s->ref);

	/* a kernel that leaves any of C unwritten must fail the check */
	nc = (size_t)s->M * s->N;
	for (i = 0; i < nc; i++)
		s->C[i] = NAN;
	return s;
}

static void
ks_sgemm_run(void *state)
{
	struct ks_sgemm *s = state;

	sgemm(s->M, s->N, s->K, s->A, s->B, s->C);
}

static void
ks_sgemm_check(void *state, double rtol, double atol, struct ks_check *res)
{
	struct ks_sgemm *s = state;

	ks_check_f32(s->C, s->ref, (size_t)s->M * s->N, rtol, atol, res);
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
	.run = ks_sgemm_run,
	.check = ks_sgemm_check,
	.teardown = ks_sgemm_teardown,
	.describe = ks_sgemm_describe,
	.timer = NULL,
};
