/*
 * harness.cu: the rmsnorm problem, y = x / rms(row of x) * w over the
 * rows of x, in bf16 on the GPU.  x and y are rows x cols, w is cols,
 * all row major.
 *
 * The inputs are made and the reference is computed on the host; the
 * candidate gets device pointers and launches without waiting, so the
 * check waits for the device before it reads y back.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_bf16.h>

#include "ks_gpu.h"
#include "ks_harness.h"
#include "reference.h"

#define KS_RMSNORM_EPS	1e-6f
#define KS_RMSNORM_NAN	0xff	/* every byte: 0xffff is a bf16 NaN */

/* the candidate's entry point: device pointers, C++ linkage */
void rmsnorm(int rows, int cols, const __nv_bfloat16 *x,
    const __nv_bfloat16 *w, __nv_bfloat16 *y, float eps);

struct ks_rmsnorm {
	int rows, cols;
	size_t n;			/* elements of x and y */
	__nv_bfloat16 *dx, *dw, *dy;	/* device */
	uint16_t *x, *w;		/* the inputs as made, to see them unchanged */
	uint16_t *y;			/* y read back, bf16 bits; also x and w read back */
	float *got, *ref;		/* y as float; the reference */
};

static const char *const ks_rmsnorm_dims[] = { "rows", "cols" };

/* malloc of n elements of size bytes, or NULL, also when n*size overflows */
static void *
ks_rmsnorm_alloc(size_t n, size_t size)
{
	if (n > SIZE_MAX / size)
		return NULL;
	return malloc(n ? n * size : 1);
}

/* a device array of n bf16, or NULL */
static __nv_bfloat16 *
ks_rmsnorm_dev(size_t n, const char *what)
{
	if (n > SIZE_MAX / sizeof(__nv_bfloat16))
		return NULL;
	return (__nv_bfloat16 *)ks_gpu_malloc(n * sizeof(__nv_bfloat16),
	    what);
}

static void
ks_rmsnorm_teardown(void *state)
{
	struct ks_rmsnorm *s = (struct ks_rmsnorm *)state;

	ks_gpu_free(s->dx);
	ks_gpu_free(s->dw);
	ks_gpu_free(s->dy);
	free(s->x);
	free(s->w);
	free(s->y);
	free(s->got);
	free(s->ref);
	free(s);
}

/* n bf16 uniform in [lo, hi), rounded from floats; tmp holds n floats */
static void
ks_rmsnorm_fill(uint16_t *h, float *tmp, size_t n, uint64_t seed, float lo,
    float hi)
{
	size_t i;

	ks_fill_uniform_f32(tmp, n, seed, lo, hi);
	for (i = 0; i < n; i++)
		h[i] = rmsnorm_f32_to_bf16(tmp[i]);
}

/*
 * Makes x and w on the host, row by row so that no float copy of all
 * of x is needed, computes the reference and uploads the inputs, whose
 * host copies stay for the check.  Returns 0, or -1 when host memory ran
 * out.
 */
static int
ks_rmsnorm_inputs(struct ks_rmsnorm *s, uint64_t seed)
{
	uint64_t xseed = ks_seed_derive(seed, 0);
	uint16_t *x, *w;
	float *tmp;
	size_t r, cols = (size_t)s->cols;

	x = s->x = (uint16_t *)ks_rmsnorm_alloc(s->n, sizeof(*x));
	w = s->w = (uint16_t *)ks_rmsnorm_alloc(cols, sizeof(*w));
	tmp = (float *)ks_rmsnorm_alloc(cols, sizeof(*tmp));
	if (x == NULL || w == NULL || tmp == NULL) {
		free(tmp);
		return -1;
	}
	ks_rmsnorm_fill(w, tmp, cols, ks_seed_derive(seed, 1), 0.5f, 1.5f);
	for (r = 0; r < (size_t)s->rows; r++)
		ks_rmsnorm_fill(x + r * cols, tmp, cols,
		    ks_seed_derive(xseed, r), -2.0f, 2.0f);
	rmsnorm_reference(s->rows, s->cols, x, w, KS_RMSNORM_EPS, s->ref);
	ks_gpu_upload(s->dx, x, s->n * sizeof(*x), "upload x");
	ks_gpu_upload(s->dw, w, cols * sizeof(*w), "upload w");
	free(tmp);
	return 0;
}

static void *
ks_rmsnorm_setup(const int *dims, uint64_t seed)
{
	struct ks_rmsnorm *s;

	if ((s = (struct ks_rmsnorm *)calloc(1, sizeof(*s))) == NULL)
		return NULL;
	s->rows = dims[0];
	s->cols = dims[1];
	s->n = (size_t)s->rows * (size_t)s->cols;
	s->y = (uint16_t *)ks_rmsnorm_alloc(s->n, sizeof(*s->y));
	s->got = (float *)ks_rmsnorm_alloc(s->n, sizeof(*s->got));
	s->ref = (float *)ks_rmsnorm_alloc(s->n, sizeof(*s->ref));
	s->dx = ks_rmsnorm_dev(s->n, "allocate x");
	s->dw = ks_rmsnorm_dev((size_t)s->cols, "allocate w");
	s->dy = ks_rmsnorm_dev(s->n, "allocate y");
	if (!s->y || !s->got || !s->ref || !s->dx || !s->dw || !s->dy ||
	    ks_rmsnorm_inputs(s, seed) < 0) {
		ks_rmsnorm_teardown(s);
		return NULL;
	}
	/* a kernel that leaves any of y unwritten must fail the check */
	ks_gpu_fill(s->dy, KS_RMSNORM_NAN, s->n * sizeof(*s->dy), "NaN y");
	ks_gpu_sync("NaN y");
	return s;
}

static void
ks_rmsnorm_run(void *state)
{
	struct ks_rmsnorm *s = (struct ks_rmsnorm *)state;

	rmsnorm(s->rows, s->cols, s->dx, s->dw, s->dy, KS_RMSNORM_EPS);
}

/*
 * Every timed call starts from a y of NaN, outside the timed region,
 * so the check after the timed runs sees what the last call wrote: a
 * kernel that computes only once and then skips its work fails.
 */
static double
ks_rmsnorm_time_call(void (*run)(void *), void *state)
{
	struct ks_rmsnorm *s = (struct ks_rmsnorm *)state;

	ks_gpu_fill(s->dy, KS_RMSNORM_NAN, s->n * sizeof(*s->dy), "NaN y");
	return ks_gpu_time_call(run, state);
}

static void
ks_rmsnorm_changed(struct ks_check *res, const char *name)
{
	res->ok = 0;
	snprintf(res->reason, sizeof(res->reason),
	    "the kernel changed its input %s (inputs are read-only)", name);
}

static void
ks_rmsnorm_check(void *state, double rtol, double atol, struct ks_check *res)
{
	struct ks_rmsnorm *s = (struct ks_rmsnorm *)state;
	size_t i;

	/* waits first: a launch error or a fault ends the runner here */
	ks_gpu_download(s->y, s->dy, s->n * sizeof(*s->y),
	    "candidate rmsnorm");
	for (i = 0; i < s->n; i++)
		s->got[i] = rmsnorm_bf16_to_f32(s->y[i]);
	ks_check_f32(s->got, s->ref, s->n, rtol, atol, res);
	/* y's host buffer is free now: x and w read back into it */
	ks_gpu_download(s->y, s->dx, s->n * sizeof(*s->y), "read back x");
	if (memcmp(s->y, s->x, s->n * sizeof(*s->y)) != 0)
		ks_rmsnorm_changed(res, "x");
	ks_gpu_download(s->y, s->dw, (size_t)s->cols * sizeof(*s->y), "read back w");
	if (memcmp(s->y, s->w, (size_t)s->cols * sizeof(*s->y)) != 0)
		ks_rmsnorm_changed(res, "w");
}

static void
ks_rmsnorm_describe(const int *dims, size_t index, char *buf, size_t n)
{
	size_t cols = (size_t)dims[1];

	snprintf(buf, n, "y[%zu][%zu]", index / cols, index % cols);
}

/* the timer's text is ks_gpu_timer's: only the NaN fill is added */
static const struct ks_timer ks_rmsnorm_timer = {
	ks_gpu_timer_text,	/* description */
	ks_rmsnorm_time_call,	/* time_call */
	ks_gpu_timer_prepare,	/* prepare */
	ks_gpu_timer_verify,	/* verify */
};

const struct ks_problem ks_problem = {
	"rmsnorm",		/* name */
	2,			/* ndims */
	ks_rmsnorm_dims,	/* dim_names */
	ks_rmsnorm_setup,	/* setup */
	ks_rmsnorm_run,		/* run */
	ks_rmsnorm_check,	/* check */
	ks_rmsnorm_teardown,	/* teardown */
	ks_rmsnorm_describe,	/* describe */
	&ks_rmsnorm_timer,	/* timer */
};
