/*
 * harness.hip: the fp8-mm problem, the block-scaled FP8 matrix product of
 * the AMD developer challenge 2025 (the GPU Kernel Scientist paper's
 * problem), for targets hip-amd and hip-nvidia.
 *
 *	c[i][j] = sum over kb of a_scale[i][kb] * b_scale[j/128][kb] *
 *	          sum over k in block kb of a[i][k] * b[j][k]
 *
 * a (m x k) and b (n x k) are e4m3fnuz bytes, column-major; a_scale
 * (m x k/128) and b_scale (ceil(n/128) x k/128) are fp32, column-major;
 * c (m x n) is bf16, row-major.
 *
 * Every call gets inputs of its own, drawn on the device from a seed
 * (ks_harness.h's new_inputs), and the reference is computed only when
 * a call is checked, after it: first the inputs on the device are drawn
 * again and compared with what the kernel left there (inputs are
 * read-only); then a plain GPU kernel of the harness computes every
 * element of c in fp32 from them, and that reference is checked against
 * a double computation on the host (every element of a small shape, a
 * sample of 1024 of a large one).  The candidate is compared with the
 * reference everywhere and with the host's values on the sample.
 */
#include <hip/hip_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_gpu.h"
#include "ks_harness.h"
#include "reference.h"

#define REF_TILE	16	/* the reference kernel's square tile */

/*
 * The GPU reference: one element of c per thread, in fp32, each K-block's
 * products summed before its scales are applied, as the problem's
 * PyTorch reference does.  Plain on purpose; it runs once per shape.
 * Not static: nvcc's device pass does not see the host code that
 * launches it and would warn that it is never used.
 */
__global__ void
ks_fp8mm_reference(int m, int n, int k, const uint8_t *a, const uint8_t *b,
    const float *a_scale, const float *b_scale, float *c)
{
	__shared__ float ta[REF_TILE][REF_TILE + 1];	/* [k][i] */
	__shared__ float tb[REF_TILE][REF_TILE + 1];	/* [k][j] */
	int tx = threadIdx.x, ty = threadIdx.y;
	int i0 = blockIdx.y * REF_TILE, j0 = blockIdx.x * REF_TILE;
	int i = i0 + ty, j = j0 + tx, scale_n = (n + FP8_MM_BLOCK_N - 1) / FP8_MM_BLOCK_N;
	float acc = 0, part;
	int kb, k0, kk;

	for (kb = 0; kb < k / FP8_MM_BLOCK_K; kb++) {
		part = 0;
		for (k0 = kb * FP8_MM_BLOCK_K; k0 < (kb + 1) * FP8_MM_BLOCK_K;
		    k0 += REF_TILE) {
			size_t col = (size_t)(k0 + ty);

			ta[ty][tx] = i0 + tx < m ?
			    fp8_mm_reference_decode(a[(size_t)(i0 + tx) + col * m]) : 0;
			tb[ty][tx] = j0 + tx < n ?
			    fp8_mm_reference_decode(b[(size_t)(j0 + tx) + col * n]) : 0;
			__syncthreads();
			for (kk = 0; kk < REF_TILE; kk++)
				part += ta[kk][ty] * tb[kk][tx];
			__syncthreads();
		}
		if (i < m && j < n)
			acc += a_scale[(size_t)i + (size_t)kb * m] *
			    b_scale[(size_t)(j / FP8_MM_BLOCK_N) +
			    (size_t)kb * scale_n] * part;
	}
	if (i < m && j < n)
		c[(size_t)i * n + j] = acc;
}

#define DRAW_BLOCKS	4096	/* the draw's grid, strided over the array */
#define DRAW_THREADS	256

/*
 * A standard normal deviate from numbers 2x and 2x+1 of stream (Box-Muller;
 * u1 in (0, 1], never log(0)), as the host drew a_scale and b_scale with
 * two calls of ks_rand_next each.
 */
static __device__ float
ks_fp8mm_normal_at(uint64_t stream, size_t x)
{
	double u1 = ((ks_rand_at(stream, 2 * x) >> 11) + 1) * 1.1102230246251565e-16;
	double u2 = (ks_rand_at(stream, 2 * x + 1) >> 11) * 1.1102230246251565e-16;

	return (float)(sqrt(-2 * log(u1)) * cos(2 * M_PI * u2));
}

/*
 * Draws x[0..n) of stream on the device: FP8 bytes by table t, or (t
 * NULL) normal floats.  With changed not NULL it draws them again and
 * counts the elements that differ from x instead of writing: the check
 * that the kernel left its inputs as they were, without a copy it could
 * reach.  Not static, as ks_fp8mm_reference.
 */
__global__ void
ks_fp8mm_draw(const struct fp8_mm_draw_table *t, uint64_t stream, size_t n,
    void *x, unsigned long long *changed)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	size_t step = (size_t)gridDim.x * blockDim.x;
	unsigned long long differ = 0;

	for (; i < n; i += step) {
		if (t) {
			uint8_t v = fp8_mm_reference_draw_with(t, ks_rand_at(stream, i));

			if (!changed)
				((uint8_t *)x)[i] = v;
			else
				differ += ((uint8_t *)x)[i] != v;
		} else {
			float v = ks_fp8mm_normal_at(stream, i);

			if (!changed)
				((float *)x)[i] = v;
			else
				differ += __float_as_uint(((float *)x)[i]) != __float_as_uint(v);
		}
	}
	if (differ)
		atomicAdd(changed, differ);
}

/*
 * Host code only: in hipcc's device pass, ks_problem's initializer would
 * name host functions that pass does not compile.
 */
#ifndef __HIP_DEVICE_COMPILE__

/* hipcc compiles every source as C++ and refuses a .c: the host's reference comes in here */
#include "reference.c"

#define BF16_NAN	0xff	/* every byte: 0xffff is a bf16 NaN */
#define SAMPLES		1024	/* elements checked on the host, large shapes */
#define FULL_MACS	((size_t)1 << 26) /* up to this m*n*k, every element */
#define REF_RTOL	1e-4	/* GPU reference vs host, of the terms' magnitude */

/* the candidate's entry point: device pointers, C++ linkage */
void fp8_mm(int m, int n, int k, const uint8_t *a, const uint8_t *b,
    const float *a_scale, const float *b_scale, uint16_t *c);

struct ks_fp8mm {
	int m, n, k, scale_n;
	size_t na, nb, nas, nbs, nc;	/* elements of each array */
	uint64_t seed;			/* the inputs' */
	uint8_t *a, *b;			/* the inputs read back, for the host's sample */
	float *as, *bs;
	uint16_t *c;			/* the candidate's c, read back */
	float *got, *ref;		/* c as float; the reference, in bf16 */
	size_t nsamples, *sample;	/* elements checked on the host */
	float *sample_want;		/* the host's value there, in bf16 */
	uint8_t *da, *db;		/* device */
	float *das, *dbs, *dref;
	uint16_t *dc;
	struct fp8_mm_draw_table *dtable; /* the draw's table, on the device */
	unsigned long long *dchanged;	/* input elements found changed */
};

static const char *const ks_fp8mm_dims[] = { "m", "n", "k" };

/* n elements of size bytes, or NULL, also when n*size overflows */
static void *
ks_fp8mm_alloc(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return malloc(n ? n * size : 1);
}

static void
ks_fp8mm_teardown(void *state)
{
	struct ks_fp8mm *s = (struct ks_fp8mm *)state;

	ks_gpu_free(s->da);
	ks_gpu_free(s->db);
	ks_gpu_free(s->das);
	ks_gpu_free(s->dbs);
	ks_gpu_free(s->dref);
	ks_gpu_free(s->dc);
	ks_gpu_free(s->dtable);
	ks_gpu_free(s->dchanged);
	free(s->a);
	free(s->b);
	free(s->as);
	free(s->bs);
	free(s->c);
	free(s->got);
	free(s->ref);
	free(s->sample);
	free(s->sample_want);
	free(s);
}

/*
 * Launches the draw of one input (see ks_fp8mm_draw): bytes when fp8,
 * else normal floats; counting the changed elements into changed when
 * not NULL.  In stream order: nothing waits.
 */
static void
ks_fp8mm_draw_one(struct ks_fp8mm *s, int input, int fp8, size_t n, void *x,
    unsigned long long *changed)
{
	size_t blocks = (n + DRAW_THREADS - 1) / DRAW_THREADS;

	if (n == 0)
		return;
	ks_fp8mm_draw<<<(unsigned)(blocks < DRAW_BLOCKS ? blocks : DRAW_BLOCKS),
	    DRAW_THREADS>>>(fp8 ? s->dtable : NULL, ks_seed_derive(s->seed,
	    (uint64_t)input), n, x, changed);
}

/*
 * New inputs from seed, drawn on the device into the same buffers (the
 * same numbers the host's streams give: a, b, a_scale, b_scale from
 * streams 0 to 3 of seed), and c reset to NaN.  No reference: check
 * computes it after the call.  Done before it returns: a kernel allowed
 * a stream of its own would not wait for the null stream.
 */
static void
ks_fp8mm_new_inputs(void *state, uint64_t seed)
{
	struct ks_fp8mm *s = (struct ks_fp8mm *)state;

	/* a fault of the kernel's last call is named as its own */
	ks_gpu_sync("the kernel's last call");
	s->seed = seed;
	ks_fp8mm_draw_one(s, 0, 1, s->na, s->da, NULL);
	ks_fp8mm_draw_one(s, 1, 1, s->nb, s->db, NULL);
	ks_fp8mm_draw_one(s, 2, 0, s->nas, s->das, NULL);
	ks_fp8mm_draw_one(s, 3, 0, s->nbs, s->dbs, NULL);
	/* a kernel that leaves any of c unwritten must fail the check */
	ks_gpu_fill(s->dc, BF16_NAN, s->nc * sizeof(uint16_t), "NaN c");
	ks_gpu_sync("draw the inputs");
}

/* NULL, or the name of the first input the kernel changed */
static const char *
ks_fp8mm_changed_input(struct ks_fp8mm *s)
{
	static const char *const names[] = { "a", "b", "a_scale", "b_scale" };
	void *dev[] = { s->da, s->db, s->das, s->dbs };
	size_t n[] = { s->na, s->nb, s->nas, s->nbs };
	unsigned long long changed[4];
	int x;

	ks_gpu_fill(s->dchanged, 0, sizeof(changed), "count changed inputs");
	for (x = 0; x < 4; x++)
		ks_fp8mm_draw_one(s, x, x < 2, n[x], dev[x], s->dchanged + x);
	ks_gpu_download(changed, s->dchanged, sizeof(changed), "count changed inputs");
	for (x = 0; x < 4; x++)
		if (changed[x])
			return names[x];
	return NULL;
}

/*
 * The elements the host computes: all of a small shape; else the four
 * corners and the rest drawn from the seed's own stream.
 */
static void
ks_fp8mm_pick_samples(struct ks_fp8mm *s)
{
	uint64_t st = ks_seed_derive(s->seed, 4);
	size_t x;

	if (s->nc * (size_t)s->k <= FULL_MACS) {
		s->nsamples = s->nc;
		for (x = 0; x < s->nc; x++)
			s->sample[x] = x;
		return;
	}
	s->nsamples = SAMPLES;
	s->sample[0] = 0;
	s->sample[1] = (size_t)s->n - 1;
	s->sample[2] = (size_t)(s->m - 1) * s->n;
	s->sample[3] = s->nc - 1;
	for (x = 4; x < SAMPLES; x++)
		s->sample[x] = ks_rand_next(&st) % s->nc;
}

/*
 * The GPU reference of the inputs on the device, then its check on the
 * host's sample of them: a reference that disagrees is a broken harness
 * or device, not a wrong candidate, so the runner stops.
 */
static void
ks_fp8mm_reference_run(struct ks_fp8mm *s)
{
	dim3 block(REF_TILE, REF_TILE);
	dim3 grid((s->n + REF_TILE - 1) / REF_TILE,
	    (s->m + REF_TILE - 1) / REF_TILE);
	double want, mag;
	size_t x, e;
	int i, j;

	ks_fp8mm_reference<<<grid, block>>>(s->m, s->n, s->k, s->da, s->db,
	    s->das, s->dbs, s->dref);
	ks_gpu_download(s->ref, s->dref, s->nc * sizeof(float),
	    "reference kernel");
	ks_gpu_download(s->a, s->da, s->na, "read back a");
	ks_gpu_download(s->b, s->db, s->nb, "read back b");
	ks_gpu_download(s->as, s->das, s->nas * sizeof(float), "read back a_scale");
	ks_gpu_download(s->bs, s->dbs, s->nbs * sizeof(float), "read back b_scale");
	ks_fp8mm_pick_samples(s);
	for (x = 0; x < s->nsamples; x++) {
		e = s->sample[x];
		i = (int)(e / s->n);
		j = (int)(e % s->n);
		want = fp8_mm_reference_element(s->m, s->n, s->k, s->a, s->b,
		    s->as, s->bs, i, j, &mag);
		if (!(fabs(s->ref[e] - want) <= REF_RTOL * mag + 1e-30)) {
			fprintf(stderr, "runner: the GPU reference disagrees "
			    "with the host at c[%d][%d] of %dx%dx%d: %.9g, "
			    "host %.9g\n", i, j, s->m, s->n, s->k,
			    (double)s->ref[e], want);
			exit(1);
		}
		s->sample_want[x] = ks_bf16_to_f32(ks_f32_to_bf16((float)want));
	}
	/* the candidate's bf16 is compared with the reference's */
	for (x = 0; x < s->nc; x++)
		s->ref[x] = ks_bf16_to_f32(ks_f32_to_bf16(s->ref[x]));
}

static int
ks_fp8mm_allocate(struct ks_fp8mm *s)
{
	s->a = (uint8_t *)ks_fp8mm_alloc(s->na, 1);
	s->b = (uint8_t *)ks_fp8mm_alloc(s->nb, 1);
	s->as = (float *)ks_fp8mm_alloc(s->nas, sizeof(float));
	s->bs = (float *)ks_fp8mm_alloc(s->nbs, sizeof(float));
	s->c = (uint16_t *)ks_fp8mm_alloc(s->nc, sizeof(uint16_t));
	s->got = (float *)ks_fp8mm_alloc(s->nc, sizeof(float));
	s->ref = (float *)ks_fp8mm_alloc(s->nc, sizeof(float));
	s->sample = (size_t *)ks_fp8mm_alloc(s->nc < SAMPLES ? SAMPLES : s->nc,
	    sizeof(size_t));
	s->sample_want = (float *)ks_fp8mm_alloc(s->nc < SAMPLES ? SAMPLES :
	    s->nc, sizeof(float));
	s->da = (uint8_t *)ks_gpu_malloc(s->na, "allocate a");
	s->db = (uint8_t *)ks_gpu_malloc(s->nb, "allocate b");
	s->das = (float *)ks_gpu_malloc(s->nas * sizeof(float), "allocate a_scale");
	s->dbs = (float *)ks_gpu_malloc(s->nbs * sizeof(float), "allocate b_scale");
	s->dref = (float *)ks_gpu_malloc(s->nc * sizeof(float), "allocate reference");
	s->dc = (uint16_t *)ks_gpu_malloc(s->nc * sizeof(uint16_t), "allocate c");
	s->dtable = (struct fp8_mm_draw_table *)ks_gpu_malloc(sizeof(*s->dtable),
	    "allocate the draw's table");
	s->dchanged = (unsigned long long *)ks_gpu_malloc(4 * sizeof(*s->dchanged),
	    "allocate the input check");
	if (s->dtable)
		ks_gpu_upload(s->dtable, fp8_mm_reference_draw_table(),
		    sizeof(*s->dtable), "upload the draw's table");
	return s->a && s->b && s->as && s->bs && s->c && s->got && s->ref &&
	    s->sample && s->sample_want && s->da && s->db && s->das &&
	    s->dbs && s->dref && s->dc && s->dtable && s->dchanged ? 0 : -1;
}

static void *
ks_fp8mm_setup(const int *dims, uint64_t seed)
{
	struct ks_fp8mm *s;

	if (dims[2] % FP8_MM_BLOCK_K != 0) {
		fprintf(stderr, "runner: bad shape for fp8-mm: k = %d is not "
		    "a multiple of %d\n", dims[2], FP8_MM_BLOCK_K);
		exit(2);
	}
	if ((s = (struct ks_fp8mm *)calloc(1, sizeof(*s))) == NULL)
		return NULL;
	s->m = dims[0];
	s->n = dims[1];
	s->k = dims[2];
	s->scale_n = fp8_mm_reference_scale_n(s->n);
	s->na = (size_t)s->m * s->k;
	s->nb = (size_t)s->n * s->k;
	s->nas = (size_t)s->m * (s->k / FP8_MM_BLOCK_K);
	s->nbs = (size_t)s->scale_n * (s->k / FP8_MM_BLOCK_K);
	s->nc = (size_t)s->m * s->n;
	if (ks_fp8mm_allocate(s) < 0) {
		ks_fp8mm_teardown(s);
		return NULL;
	}
	ks_fp8mm_new_inputs(s, seed);
	return s;
}

static void
ks_fp8mm_run(void *state)
{
	struct ks_fp8mm *s = (struct ks_fp8mm *)state;

	fp8_mm(s->m, s->n, s->k, s->da, s->db, s->das, s->dbs, s->dc);
}

/*
 * Every timed call starts from a c of NaN, outside the timed region, so
 * the check after the timed runs sees what the last call wrote.
 */
static double
ks_fp8mm_time_call(void (*run)(void *), void *state)
{
	struct ks_fp8mm *s = (struct ks_fp8mm *)state;

	ks_gpu_fill(s->dc, BF16_NAN, s->nc * sizeof(uint16_t), "NaN c");
	return ks_gpu_time_call(run, state);
}

/* The candidate on the host's sample, when the full check passed. */
static void
ks_fp8mm_check_sample(struct ks_fp8mm *s, double rtol, double atol,
    struct ks_check *res)
{
	double err;
	size_t x, e;

	for (x = 0; x < s->nsamples && res->ok; x++) {
		e = s->sample[x];
		err = fabs((double)s->got[e] - s->sample_want[x]);
		if (err <= atol + rtol * fabs((double)s->sample_want[x]))
			continue;
		res->ok = 0;
		res->bad = 1;
		res->worst_index = e;
		res->worst_got = s->got[e];
		res->worst_want = s->sample_want[x];
		snprintf(res->reason, sizeof(res->reason), "c[%zu][%zu] = "
		    "%.9g, but the host computes %.9g there (the GPU "
		    "reference agreed with the kernel)", e / s->n, e % s->n,
		    (double)s->got[e], (double)s->sample_want[x]);
	}
}

static void
ks_fp8mm_check(void *state, double rtol, double atol, struct ks_check *res)
{
	struct ks_fp8mm *s = (struct ks_fp8mm *)state;
	const char *changed;
	size_t x;

	/* waits first: a launch error or a fault ends the runner here */
	ks_gpu_download(s->c, s->dc, s->nc * sizeof(uint16_t), "candidate fp8_mm");
	changed = ks_fp8mm_changed_input(s);
	/* only now, after the call, does the answer to its inputs exist */
	ks_fp8mm_reference_run(s);
	for (x = 0; x < s->nc; x++)
		s->got[x] = ks_bf16_to_f32(s->c[x]);
	ks_check_f32(s->got, s->ref, s->nc, rtol, atol, res);
	ks_fp8mm_check_sample(s, rtol, atol, res);
	if (changed) {
		res->ok = 0;
		snprintf(res->reason, sizeof(res->reason), "the kernel changed "
		    "its input %s (inputs are read-only)", changed);
	}
}

static void
ks_fp8mm_describe(const int *dims, size_t index, char *buf, size_t n)
{
	size_t cols = (size_t)dims[1];

	snprintf(buf, n, "c[%zu][%zu]", index / cols, index % cols);
}

/* the timer's text is ks_gpu_timer's: only the NaN fill is added */
static const struct ks_timer ks_fp8mm_timer = {
	ks_gpu_timer_text,	/* description */
	ks_fp8mm_time_call,	/* time_call */
	ks_gpu_timer_prepare,	/* prepare */
	ks_gpu_timer_verify,	/* verify */
};

extern "C" const struct ks_problem ks_problem = {
	"fp8-mm",		/* name */
	3,			/* ndims */
	ks_fp8mm_dims,		/* dim_names */
	ks_fp8mm_setup,		/* setup */
	ks_fp8mm_run,		/* run */
	ks_fp8mm_check,		/* check */
	ks_fp8mm_teardown,	/* teardown */
	ks_fp8mm_describe,	/* describe */
	&ks_fp8mm_timer,	/* timer */
	ks_fp8mm_new_inputs,	/* new_inputs */
};

#endif
