/*
 * harness.cu: the rmsnorm problem, y = x / rms(row of x) * w over the
 * rows of x, in bf16 on the GPU.  x and y are rows x cols, w is cols,
 * all row major.
 *
 * Every call gets inputs of its own, drawn on the device from a seed
 * (ks_harness.h's new_inputs); the candidate gets device pointers and
 * launches without waiting.  The reference is computed only when a call
 * is checked, after it: the check waits for the device, draws the inputs
 * again on the device and compares them with what the kernel left there
 * (inputs are read-only), computes the reference of every row on the
 * GPU in double, and checks that against the host's reference.c on a
 * sample of rows before it compares y.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_bf16.h>

#include "ks_gpu.h"
#include "ks_harness.h"
#include "reference.h"

#define KS_RMSNORM_EPS	RMSNORM_EPS
#define KS_RMSNORM_NAN	0xff	/* every byte: 0xffff is a bf16 NaN */
#define DRAW_BLOCKS	4096	/* the draw's grid, strided over the array */
#define THREADS		256	/* the draw's and the reference's blocks */
#define SAMPLE_ROWS	8	/* rows the host computes at each check */
#define REF_RTOL	1e-5	/* GPU reference vs host: both in double */

struct ks_rmsnorm {
	int rows, cols;
	size_t n;			/* elements of x and y */
	uint64_t seed;			/* the inputs' */
	__nv_bfloat16 *dx, *dw, *dy;	/* device */
	float *dref;			/* the reference, on the device */
	unsigned long long *dchanged;	/* input elements found changed */
	uint16_t *y;			/* y read back, bf16 bits */
	uint16_t *xrow, *w;		/* a sample row of x and w, read back */
	float *got, *ref;		/* y as float; the reference */
	float *want;			/* the host's reference of a sample row */
};

/*
 * Draws an input of bf16 values uniform in [lo, hi) on the device: x, row
 * r from stream ks_seed_derive(stream, r), when cols is not 0; w, from
 * stream itself, when it is (the numbers of ks_fill_uniform_f32 on the
 * host).  With changed not NULL it draws them again and counts the
 * elements that differ from v instead of writing: the check that the
 * kernel left its inputs as they were, without a copy it could reach.
 */
__global__ void
ks_rmsnorm_draw(uint64_t stream, size_t n, int cols, float lo, float hi,
    uint16_t *v, unsigned long long *changed)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	size_t step = (size_t)gridDim.x * blockDim.x;
	unsigned long long differ = 0;
	uint16_t want;

	for (; i < n; i += step) {
		want = ks_f32_to_bf16(cols ?
		    ks_uniform_at(ks_seed_derive(stream, i / cols), i % cols, lo, hi) :
		    ks_uniform_at(stream, i, lo, hi));
		if (!changed)
			v[i] = want;
		else
			differ += v[i] != want;
	}
	if (differ)
		atomicAdd(changed, differ);
}

/*
 * The GPU reference, one row a block, in double as reference.c: the sum
 * of squares, then each element times 1/rms and w.  Plain on purpose.
 */
__global__ void
ks_rmsnorm_reference(int cols, const uint16_t *x, const uint16_t *w,
    float eps, float *y)
{
	__shared__ double part[THREADS];
	const uint16_t *xr = x + (size_t)blockIdx.x * cols;
	float *yr = y + (size_t)blockIdx.x * cols;
	double ss = 0, v, inv;
	int c, half;

	for (c = threadIdx.x; c < cols; c += THREADS) {
		v = ks_bf16_to_f32(xr[c]);
		ss += v * v;
	}
	part[threadIdx.x] = ss;
	__syncthreads();
	for (half = THREADS / 2; half > 0; half /= 2) {
		if ((int)threadIdx.x < half)
			part[threadIdx.x] += part[threadIdx.x + half];
		__syncthreads();
	}
	inv = 1 / sqrt(part[0] / cols + (double)eps);
	for (c = threadIdx.x; c < cols; c += THREADS)
		yr[c] = (float)(ks_bf16_to_f32(xr[c]) * inv * ks_bf16_to_f32(w[c]));
}

static const char *const ks_rmsnorm_dims[] = { "rows", "cols" };

/* malloc of n elements of size bytes, or NULL, also when n*size overflows */
static void *
ks_rmsnorm_alloc(size_t n, size_t size)
{
	if (n > SIZE_MAX / size)
		return NULL;
	return malloc(n ? n * size : 1);
}

/* a device array of n bf16 the worker opens, or NULL */
static __nv_bfloat16 *
ks_rmsnorm_dev(size_t n, const char *what)
{
	if (n > SIZE_MAX / sizeof(__nv_bfloat16))
		return NULL;
	return (__nv_bfloat16 *)ks_gpu_shared_alloc(n * sizeof(__nv_bfloat16),
	    what);
}

static void
ks_rmsnorm_teardown(void *state)
{
	struct ks_rmsnorm *s = (struct ks_rmsnorm *)state;

	ks_gpu_shared_free(s->dx);
	ks_gpu_shared_free(s->dw);
	ks_gpu_shared_free(s->dy);
	ks_gpu_free(s->dref);
	ks_gpu_free(s->dchanged);
	free(s->y);
	free(s->xrow);
	free(s->w);
	free(s->got);
	free(s->ref);
	free(s->want);
	free(s);
}

/* Launches the draw of x (when x) or w: see ks_rmsnorm_draw. */
static void
ks_rmsnorm_draw_one(struct ks_rmsnorm *s, int x, unsigned long long *changed)
{
	size_t n = x ? s->n : (size_t)s->cols;
	size_t blocks = (n + THREADS - 1) / THREADS;

	ks_rmsnorm_draw<<<(unsigned)(blocks < DRAW_BLOCKS ? blocks : DRAW_BLOCKS),
	    THREADS>>>(ks_seed_derive(s->seed, x ? 0 : 1), n, x ? s->cols : 0,
	    x ? -2.0f : 0.5f, x ? 2.0f : 1.5f,
	    (uint16_t *)(x ? s->dx : s->dw), changed);
}

/*
 * New x and w from seed, drawn on the device into the same buffers, and
 * y reset to NaN (a kernel that leaves any of y unwritten must fail).
 * No reference: check computes it after the call.  Done before it
 * returns: a kernel allowed a stream of its own would not wait for the
 * null stream.
 */
static void
ks_rmsnorm_new_inputs(void *state, uint64_t seed)
{
	struct ks_rmsnorm *s = (struct ks_rmsnorm *)state;

	/* a fault of the kernel's last call is named as its own */
	ks_gpu_sync("the kernel's last call");
	s->seed = seed;
	ks_rmsnorm_draw_one(s, 1, NULL);
	ks_rmsnorm_draw_one(s, 0, NULL);
	ks_gpu_fill(s->dy, KS_RMSNORM_NAN, s->n * sizeof(*s->dy), "NaN y");
	ks_gpu_sync("draw the inputs");
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
	s->xrow = (uint16_t *)ks_rmsnorm_alloc((size_t)s->cols, sizeof(*s->xrow));
	s->w = (uint16_t *)ks_rmsnorm_alloc((size_t)s->cols, sizeof(*s->w));
	s->got = (float *)ks_rmsnorm_alloc(s->n, sizeof(*s->got));
	s->ref = (float *)ks_rmsnorm_alloc(s->n, sizeof(*s->ref));
	s->want = (float *)ks_rmsnorm_alloc((size_t)s->cols, sizeof(*s->want));
	/* the kernel's arguments, which its worker opens; the rest is the judge's alone */
	s->dx = ks_rmsnorm_dev(s->n, "allocate x");
	s->dw = ks_rmsnorm_dev((size_t)s->cols, "allocate w");
	s->dy = ks_rmsnorm_dev(s->n, "allocate y");
	s->dref = s->n > SIZE_MAX / sizeof(float) ? NULL :
	    (float *)ks_gpu_malloc(s->n * sizeof(float), "allocate the reference");
	s->dchanged = (unsigned long long *)ks_gpu_malloc(2 *
	    sizeof(*s->dchanged), "allocate the input check");
	if (!s->y || !s->xrow || !s->w || !s->got || !s->ref || !s->want ||
	    !s->dx || !s->dw || !s->dy || !s->dref || !s->dchanged) {
		ks_rmsnorm_teardown(s);
		return NULL;
	}
	ks_rmsnorm_new_inputs(s, seed);
	return s;
}

/* the kernel's arguments, in call.cu's order: x, w, y (eps is call.cu's constant) */
static int
ks_rmsnorm_args(void *state, void **ptrs, int max)
{
	struct ks_rmsnorm *s = (struct ks_rmsnorm *)state;

	if (max < 3)
		return -1;
	ptrs[0] = s->dx;
	ptrs[1] = s->dw;
	ptrs[2] = s->dy;
	return 3;
}

/* NULL, or the name of the first input the kernel changed */
static const char *
ks_rmsnorm_changed_input(struct ks_rmsnorm *s)
{
	unsigned long long changed[2];

	ks_gpu_fill(s->dchanged, 0, sizeof(changed), "count changed inputs");
	ks_rmsnorm_draw_one(s, 1, s->dchanged);
	ks_rmsnorm_draw_one(s, 0, s->dchanged + 1);
	ks_gpu_download(changed, s->dchanged, sizeof(changed), "count changed inputs");
	return changed[0] ? "x" : changed[1] ? "w" : NULL;
}

/*
 * The GPU reference of the inputs on the device, then its check on the
 * host, on the first and last rows and some drawn from the seed: a
 * reference that disagrees is a broken harness or device, not a wrong
 * candidate, so the runner stops.
 */
static void
ks_rmsnorm_reference_run(struct ks_rmsnorm *s)
{
	uint64_t st = ks_seed_derive(s->seed, 2);
	size_t cols = (size_t)s->cols, r, c;
	int x;

	ks_rmsnorm_reference<<<s->rows, THREADS>>>(s->cols,
	    (const uint16_t *)s->dx, (const uint16_t *)s->dw, KS_RMSNORM_EPS,
	    s->dref);
	ks_gpu_download(s->ref, s->dref, s->n * sizeof(float), "reference kernel");
	ks_gpu_download(s->w, s->dw, cols * sizeof(*s->w), "read back w");
	for (x = 0; x < SAMPLE_ROWS; x++) {
		r = x == 0 ? 0 : x == 1 ? (size_t)s->rows - 1 :
		    ks_rand_next(&st) % (size_t)s->rows;
		ks_gpu_download(s->xrow, s->dx + r * cols, cols * sizeof(*s->xrow),
		    "read back x");
		rmsnorm_reference(1, s->cols, s->xrow, s->w, KS_RMSNORM_EPS, s->want);
		for (c = 0; c < cols; c++) {
			if (fabs((double)s->ref[r * cols + c] - s->want[c]) <=
			    REF_RTOL * fabs((double)s->want[c]) + 1e-30)
				continue;
			fprintf(stderr, "runner: the GPU reference disagrees with "
			    "the host at y[%zu][%zu] of %dx%d: %.9g, host %.9g\n",
			    r, c, s->rows, s->cols, (double)s->ref[r * cols + c],
			    (double)s->want[c]);
			exit(1);
		}
	}
}

static void
ks_rmsnorm_check(void *state, double rtol, double atol, struct ks_check *res)
{
	struct ks_rmsnorm *s = (struct ks_rmsnorm *)state;
	const char *changed;
	size_t i;

	/* waits first: a launch error or a fault ends the runner here */
	ks_gpu_download(s->y, s->dy, s->n * sizeof(*s->y),
	    "candidate rmsnorm");
	changed = ks_rmsnorm_changed_input(s);
	/* only now, after the call, does the answer to its inputs exist */
	ks_rmsnorm_reference_run(s);
	for (i = 0; i < s->n; i++)
		s->got[i] = rmsnorm_bf16_to_f32(s->y[i]);
	ks_check_f32(s->got, s->ref, s->n, rtol, atol, res);
	if (changed) {
		res->ok = 0;
		snprintf(res->reason, sizeof(res->reason), "the kernel changed "
		    "its input %s (inputs are read-only)", changed);
	}
}

static void
ks_rmsnorm_describe(const int *dims, size_t index, char *buf, size_t n)
{
	size_t cols = (size_t)dims[1];

	snprintf(buf, n, "y[%zu][%zu]", index / cols, index % cols);
}

const struct ks_problem ks_problem = {
	"rmsnorm",		/* name */
	2,			/* ndims */
	ks_rmsnorm_dims,	/* dim_names */
	ks_rmsnorm_setup,	/* setup */
	ks_rmsnorm_check,	/* check */
	ks_rmsnorm_teardown,	/* teardown */
	ks_rmsnorm_describe,	/* describe */
	ks_rmsnorm_new_inputs,	/* new_inputs */
	ks_rmsnorm_args,	/* args */
};
