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
 * c (m x n) is bf16, row-major.  The trust chain: a plain GPU kernel of
 * the harness computes every element of c in fp32, and that reference is
 * checked against a double computation on the host (every element of a
 * small shape, a sample of 1024 of a large one) before the candidate
 * runs.  The candidate is then compared with the reference everywhere
 * and with the host's values on the sample, and its inputs must be as
 * they were.
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
	uint8_t *a, *b;			/* host inputs, kept to check them */
	float *as, *bs;
	uint16_t *c;			/* the candidate's c, read back */
	float *got, *ref;		/* c as float; the reference, in bf16 */
	void *scratch;			/* an input read back */
	size_t nsamples, *sample;	/* elements checked on the host */
	float *sample_want;		/* the host's value there, in bf16 */
	uint8_t *da, *db;		/* device */
	float *das, *dbs, *dref;
	uint16_t *dc;
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
	free(s->a);
	free(s->b);
	free(s->as);
	free(s->bs);
	free(s->c);
	free(s->got);
	free(s->ref);
	free(s->scratch);
	free(s->sample);
	free(s->sample_want);
	free(s);
}

/* a standard normal deviate (Box-Muller; u1 in (0, 1], never log(0)) */
static float
ks_fp8mm_normal(uint64_t *st)
{
	double u1 = ((ks_rand_next(st) >> 11) + 1) * 0x1p-53;
	double u2 = (ks_rand_next(st) >> 11) * 0x1p-53;

	return (float)(sqrt(-2 * log(u1)) * cos(2 * M_PI * u2));
}

/* The inputs, each from a stream of its own: bytes as randn cast to FP8. */
static void
ks_fp8mm_inputs(struct ks_fp8mm *s, uint64_t seed)
{
	uint64_t st;
	size_t x;

	st = ks_seed_derive(seed, 0);
	for (x = 0; x < s->na; x++)
		s->a[x] = fp8_mm_reference_draw(ks_rand_next(&st));
	st = ks_seed_derive(seed, 1);
	for (x = 0; x < s->nb; x++)
		s->b[x] = fp8_mm_reference_draw(ks_rand_next(&st));
	st = ks_seed_derive(seed, 2);
	for (x = 0; x < s->nas; x++)
		s->as[x] = ks_fp8mm_normal(&st);
	st = ks_seed_derive(seed, 3);
	for (x = 0; x < s->nbs; x++)
		s->bs[x] = ks_fp8mm_normal(&st);
}

/*
 * The elements the host computes: all of a small shape; else the four
 * corners and the rest drawn from the seed's own stream.
 */
static void
ks_fp8mm_pick_samples(struct ks_fp8mm *s, uint64_t seed)
{
	uint64_t st = ks_seed_derive(seed, 4);
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
 * The GPU reference, then its check on the host's sample: a reference
 * that disagrees is a broken harness or device, not a wrong candidate,
 * so the runner stops.
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
	size_t big = s->na > s->nb ? s->na : s->nb;

	s->a = (uint8_t *)ks_fp8mm_alloc(s->na, 1);
	s->b = (uint8_t *)ks_fp8mm_alloc(s->nb, 1);
	s->as = (float *)ks_fp8mm_alloc(s->nas, sizeof(float));
	s->bs = (float *)ks_fp8mm_alloc(s->nbs, sizeof(float));
	s->c = (uint16_t *)ks_fp8mm_alloc(s->nc, sizeof(uint16_t));
	s->got = (float *)ks_fp8mm_alloc(s->nc, sizeof(float));
	s->ref = (float *)ks_fp8mm_alloc(s->nc, sizeof(float));
	s->scratch = ks_fp8mm_alloc(big > s->nas * 4 ? big : s->nas * 4, 1);
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
	return s->a && s->b && s->as && s->bs && s->c && s->got && s->ref &&
	    s->scratch && s->sample && s->sample_want && s->da && s->db &&
	    s->das && s->dbs && s->dref && s->dc ? 0 : -1;
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
	ks_fp8mm_inputs(s, seed);
	ks_gpu_upload(s->da, s->a, s->na, "upload a");
	ks_gpu_upload(s->db, s->b, s->nb, "upload b");
	ks_gpu_upload(s->das, s->as, s->nas * sizeof(float), "upload a_scale");
	ks_gpu_upload(s->dbs, s->bs, s->nbs * sizeof(float), "upload b_scale");
	ks_fp8mm_pick_samples(s, seed);
	ks_fp8mm_reference_run(s);
	/* a kernel that leaves any of c unwritten must fail the check */
	ks_gpu_fill(s->dc, BF16_NAN, s->nc * sizeof(uint16_t), "NaN c");
	ks_gpu_sync("NaN c");
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

/* 0 when dev[0..bytes) still holds host's bytes; else sets the reason */
static int
ks_fp8mm_unchanged(struct ks_fp8mm *s, const void *dev, const void *host,
    size_t bytes, const char *name, struct ks_check *res)
{
	ks_gpu_download(s->scratch, dev, bytes, name);
	if (memcmp(s->scratch, host, bytes) == 0)
		return 0;
	res->ok = 0;
	snprintf(res->reason, sizeof(res->reason), "the kernel changed its "
	    "input %s (inputs are read-only)", name);
	return -1;
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
	size_t x;

	/* waits first: a launch error or a fault ends the runner here */
	ks_gpu_download(s->c, s->dc, s->nc * sizeof(uint16_t), "candidate fp8_mm");
	for (x = 0; x < s->nc; x++)
		s->got[x] = ks_bf16_to_f32(s->c[x]);
	ks_check_f32(s->got, s->ref, s->nc, rtol, atol, res);
	ks_fp8mm_check_sample(s, rtol, atol, res);
	if (ks_fp8mm_unchanged(s, s->da, s->a, s->na, "a", res) == 0 &&
	    ks_fp8mm_unchanged(s, s->db, s->b, s->nb, "b", res) == 0 &&
	    ks_fp8mm_unchanged(s, s->das, s->as, s->nas * sizeof(float), "a_scale", res) == 0)
		ks_fp8mm_unchanged(s, s->dbs, s->bs, s->nbs * sizeof(float), "b_scale", res);
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
};

#endif
