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
 * element of c in fp32 from them, and the candidate is compared with it
 * on the GPU, element by element, by ks_check_f32's own rule (only the
 * verdict comes back, not c).  That reference is itself checked against
 * a double computation on the host, from inputs the host draws from the
 * same seed: every element of a small shape, a grid of 32 rows by 32
 * columns of a large one (the corners included), where the candidate is
 * compared with the host's values too.
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
#define REF_RTOL	1e-4	/* GPU reference vs host, of the terms' magnitude */

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
 * u1 in (0, 1], never log(0)).  The host draws the same (to the last
 * bit of the double's math, which the reference's check tolerates).
 */
static KS_HOST_DEVICE float
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

#define COMPARE_BLOCKS	1024	/* the comparison's grid: the parts the host merges */
#define COMPARE_THREADS	256

/*
 * The candidate's c against the reference, rounded to bf16 as c is: a
 * ks_check_part per block, merged by the host.  Not static, as
 * ks_fp8mm_reference.
 */
__global__ void __launch_bounds__(COMPARE_THREADS)
ks_fp8mm_compare(const uint16_t *c, const float *ref, size_t n, double rtol,
    double atol, struct ks_check_part *parts)
{
	__shared__ struct ks_check_part part[COMPARE_THREADS];
	struct ks_check_part mine;
	float got0 = ks_bf16_to_f32(c[0]);
	float want0 = ks_bf16_to_f32(ks_f32_to_bf16(ref[0]));
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	size_t step = (size_t)gridDim.x * blockDim.x;
	int t;

	ks_check_part_init(&mine);
	for (; i < n; i += step)
		ks_check_part_add(&mine, i, ks_bf16_to_f32(c[i]),
		    ks_bf16_to_f32(ks_f32_to_bf16(ref[i])), got0, want0, rtol, atol);
	part[threadIdx.x] = mine;
	__syncthreads();
	if (threadIdx.x != 0)
		return;
	for (t = 1; t < (int)blockDim.x; t++)
		ks_check_part_merge(&part[0], &part[t]);
	parts[blockIdx.x] = part[0];
}

/*
 * c and the reference (fp32, before rounding) at the host's sample, rows
 * by columns: got[r * ncols + q] is c[rows[r]][cols[q]].
 */
__global__ void
ks_fp8mm_gather(const uint16_t *c, const float *ref, int n, const int *rows,
    int nrows, const int *cols, int ncols, uint16_t *got, float *want)
{
	size_t x = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	size_t e;

	if (x >= (size_t)nrows * ncols)
		return;
	e = (size_t)rows[x / ncols] * n + cols[x % ncols];
	got[x] = c[e];
	want[x] = ref[e];
}

/*
 * Host code only: in hipcc's device pass, ks_problem's initializer would
 * name host functions that pass does not compile.
 */
#ifndef __HIP_DEVICE_COMPILE__

/* hipcc compiles every source as C++ and refuses a .c: the host's reference comes in here */
#include "reference.c"

#define BF16_NAN	0xff	/* every byte: 0xffff is a bf16 NaN */
#define SAMPLE_SIDE	32	/* rows and columns of the host's grid, large shapes */
#define FULL_MACS	((size_t)1 << 26) /* up to this m*n*k, every element */

/*
 * The host's sample: c at rows x cols.  Its inputs are drawn on the host
 * from the seed, one row of a (k bytes) per sampled row and one of b per
 * sampled column, so nothing the size of an input is downloaded.
 */
struct ks_fp8mm_sample {
	int nrows, ncols, *rows, *cols;	/* which rows and columns of c */
	int *drows, *dcols;		/* the same on the device */
	uint8_t *arow, *brow;		/* nrows (ncols) rows of k bytes */
	float *asrow, *bsrow;		/* and of k/128 scales */
	uint16_t *got, *dgot;		/* c there, on the host and the device */
	float *ref, *dref;		/* the GPU reference there (fp32); once checked, the host's value in bf16 */
};

struct ks_fp8mm {
	int m, n, k, scale_n;
	size_t na, nb, nas, nbs, nc;	/* elements of each array */
	uint64_t seed;			/* the inputs' */
	struct ks_fp8mm_sample smp;
	uint8_t *da, *db;		/* device */
	float *das, *dbs, *dref;
	uint16_t *dc;
	struct fp8_mm_draw_table *dtable; /* the draw's table, on the device */
	unsigned long long *dchanged;	/* input elements found changed */
	struct ks_check_part *parts, *dparts; /* the comparison's, per block */
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
	struct ks_fp8mm_sample *p = &s->smp;

	ks_gpu_shared_free(s->da);
	ks_gpu_shared_free(s->db);
	ks_gpu_shared_free(s->das);
	ks_gpu_shared_free(s->dbs);
	ks_gpu_shared_free(s->dc);
	ks_gpu_free(s->dref);
	ks_gpu_free(s->dtable);
	ks_gpu_free(s->dchanged);
	ks_gpu_free(s->dparts);
	ks_gpu_free(p->drows);
	ks_gpu_free(p->dcols);
	ks_gpu_free(p->dgot);
	ks_gpu_free(p->dref);
	free(s->parts);
	free(p->rows);
	free(p->cols);
	free(p->arow);
	free(p->brow);
	free(p->asrow);
	free(p->bsrow);
	free(p->got);
	free(p->ref);
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

/* a, b, a_scale, b_scale of the seed, from streams 0 to 3 */
static void
ks_fp8mm_draw_inputs(struct ks_fp8mm *s)
{
	ks_fp8mm_draw_one(s, 0, 1, s->na, s->da, NULL);
	ks_fp8mm_draw_one(s, 1, 1, s->nb, s->db, NULL);
	ks_fp8mm_draw_one(s, 2, 0, s->nas, s->das, NULL);
	ks_fp8mm_draw_one(s, 3, 0, s->nbs, s->dbs, NULL);
}

/*
 * New inputs from seed, drawn on the device into the same buffers (a,
 * b, a_scale, b_scale from streams 0 to 3 of seed, as the host draws
 * them for its sample), and c reset to NaN.  No reference: check
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
	ks_fp8mm_draw_inputs(s);
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

/* whether the host computes every element of c (a small shape), not a grid of SAMPLE_SIDE */
static int
ks_fp8mm_host_checks_all(const struct ks_fp8mm *s)
{
	return s->nc * (size_t)s->k <= FULL_MACS;
}

/*
 * want of them all, or (want < all) the first and the last and the rest
 * drawn from stream st: which rows (columns) the host's sample has.
 */
static int
ks_fp8mm_pick(int *pick, int all, int want, uint64_t *st)
{
	int x;

	if (want >= all) {
		for (x = 0; x < all; x++)
			pick[x] = x;
		return all;
	}
	pick[0] = 0;
	pick[1] = all - 1;
	for (x = 2; x < want; x++)
		pick[x] = (int)(ks_rand_next(st) % (uint64_t)all);
	return want;
}

/*
 * The host's sample of this call: every row and column of a small shape;
 * else SAMPLE_SIDE of each, drawn from the seed's own stream.  Then the
 * host draws their inputs (the device's draw, element by element).
 */
static void
ks_fp8mm_pick_samples(struct ks_fp8mm *s)
{
	struct ks_fp8mm_sample *p = &s->smp;
	uint64_t st = ks_seed_derive(s->seed, 4), sa = ks_seed_derive(s->seed, 0),
	    sb = ks_seed_derive(s->seed, 1), sas = ks_seed_derive(s->seed, 2),
	    sbs = ks_seed_derive(s->seed, 3);
	int full = ks_fp8mm_host_checks_all(s), kblocks = s->k / FP8_MM_BLOCK_K;
	int r, q, kk;

	p->nrows = ks_fp8mm_pick(p->rows, s->m, full ? s->m : SAMPLE_SIDE, &st);
	p->ncols = ks_fp8mm_pick(p->cols, s->n, full ? s->n : SAMPLE_SIDE, &st);
	for (r = 0; r < p->nrows; r++) {
		for (kk = 0; kk < s->k; kk++)
			p->arow[(size_t)r * s->k + kk] = fp8_mm_reference_draw(
			    ks_rand_at(sa, (size_t)p->rows[r] + (size_t)kk * s->m));
		for (kk = 0; kk < kblocks; kk++)
			p->asrow[(size_t)r * kblocks + kk] = ks_fp8mm_normal_at(sas,
			    (size_t)p->rows[r] + (size_t)kk * s->m);
	}
	for (q = 0; q < p->ncols; q++) {
		for (kk = 0; kk < s->k; kk++)
			p->brow[(size_t)q * s->k + kk] = fp8_mm_reference_draw(
			    ks_rand_at(sb, (size_t)p->cols[q] + (size_t)kk * s->n));
		for (kk = 0; kk < kblocks; kk++)
			p->bsrow[(size_t)q * kblocks + kk] = ks_fp8mm_normal_at(sbs,
			    (size_t)(p->cols[q] / FP8_MM_BLOCK_N) + (size_t)kk * s->scale_n);
	}
	ks_gpu_upload(p->drows, p->rows, p->nrows * sizeof(int), "the sample's rows");
	ks_gpu_upload(p->dcols, p->cols, p->ncols * sizeof(int), "the sample's columns");
}

/* c[rows[r]][cols[q]] on the host, in double: its inputs are rows r and q */
static double
ks_fp8mm_host_element(const struct ks_fp8mm *s, int r, int q, double *mag)
{
	const struct ks_fp8mm_sample *p = &s->smp;
	int kblocks = s->k / FP8_MM_BLOCK_K;

	/* one row of each input is a 1 x k matrix of the same layout */
	return fp8_mm_reference_element(1, 1, s->k, p->arow + (size_t)r * s->k,
	    p->brow + (size_t)q * s->k, p->asrow + (size_t)r * kblocks,
	    p->bsrow + (size_t)q * kblocks, 0, 0, mag);
}

/*
 * The GPU reference of the inputs on the device, and c, at the host's
 * sample; a reference that disagrees with the host's double there is a
 * broken harness or device, not a wrong candidate, so the runner stops.
 */
static void
ks_fp8mm_reference_sample(struct ks_fp8mm *s)
{
	struct ks_fp8mm_sample *p = &s->smp;
	size_t x, nx;
	double want, mag;

	ks_fp8mm_pick_samples(s);
	nx = (size_t)p->nrows * p->ncols;
	ks_fp8mm_gather<<<(unsigned)((nx + 255) / 256), 256>>>(s->dc, s->dref,
	    s->n, p->drows, p->nrows, p->dcols, p->ncols, p->dgot, p->dref);
	ks_gpu_download(p->got, p->dgot, nx * sizeof(uint16_t), "gather the sample");
	ks_gpu_download(p->ref, p->dref, nx * sizeof(float), "gather the sample");
	for (x = 0; x < nx; x++) {
		int r = (int)(x / p->ncols), q = (int)(x % p->ncols);

		want = ks_fp8mm_host_element(s, r, q, &mag);
		if (!(fabs(p->ref[x] - want) <= REF_RTOL * mag + 1e-30)) {
			fprintf(stderr, "runner: the GPU reference disagrees "
			    "with the host at c[%d][%d] of %dx%dx%d: %.9g, "
			    "host %.9g\n", p->rows[r], p->cols[q], s->m, s->n,
			    s->k, (double)p->ref[x], want);
			exit(1);
		}
		/* from here on, the host's value in bf16, as c holds it */
		p->ref[x] = ks_bf16_to_f32(ks_f32_to_bf16((float)want));
	}
}

/* The candidate against the GPU reference, every element, on the GPU. */
static void
ks_fp8mm_compare_all(struct ks_fp8mm *s, double rtol, double atol,
    struct ks_check *res)
{
	struct ks_check_part all;
	size_t blocks = (s->nc + COMPARE_THREADS - 1) / COMPARE_THREADS, b;

	if (blocks > COMPARE_BLOCKS)
		blocks = COMPARE_BLOCKS;
	ks_check_part_init(&all);
	if (blocks) {
		ks_fp8mm_compare<<<(unsigned)blocks, COMPARE_THREADS>>>(s->dc,
		    s->dref, s->nc, rtol, atol, s->dparts);
		ks_gpu_download(s->parts, s->dparts, blocks * sizeof(*s->parts),
		    "compare c with the reference");
		for (b = 0; b < blocks; b++)
			ks_check_part_merge(&all, &s->parts[b]);
	}
	/* the sample starts at c[0][0] (ks_fp8mm_pick): the constant rule names it */
	ks_check_from_part(&all, s->nc, s->nc ? ks_bf16_to_f32(s->smp.got[0]) : 0, res);
}

static int
ks_fp8mm_allocate(struct ks_fp8mm *s)
{
	struct ks_fp8mm_sample *p = &s->smp;
	int full = ks_fp8mm_host_checks_all(s);
	size_t rows = full ? (size_t)s->m : SAMPLE_SIDE, cols = full ? (size_t)s->n : SAMPLE_SIDE;
	size_t kblocks = s->k / FP8_MM_BLOCK_K;

	p->rows = (int *)ks_fp8mm_alloc(rows, sizeof(int));
	p->cols = (int *)ks_fp8mm_alloc(cols, sizeof(int));
	p->arow = (uint8_t *)ks_fp8mm_alloc(rows * s->k, 1);
	p->brow = (uint8_t *)ks_fp8mm_alloc(cols * s->k, 1);
	p->asrow = (float *)ks_fp8mm_alloc(rows * kblocks, sizeof(float));
	p->bsrow = (float *)ks_fp8mm_alloc(cols * kblocks, sizeof(float));
	p->got = (uint16_t *)ks_fp8mm_alloc(rows * cols, sizeof(uint16_t));
	p->ref = (float *)ks_fp8mm_alloc(rows * cols, sizeof(float));
	s->parts = (struct ks_check_part *)ks_fp8mm_alloc(COMPARE_BLOCKS, sizeof(*s->parts));
	p->drows = (int *)ks_gpu_malloc(rows * sizeof(int), "allocate the sample");
	p->dcols = (int *)ks_gpu_malloc(cols * sizeof(int), "allocate the sample");
	p->dgot = (uint16_t *)ks_gpu_malloc(rows * cols * sizeof(uint16_t), "allocate the sample");
	p->dref = (float *)ks_gpu_malloc(rows * cols * sizeof(float), "allocate the sample");
	s->dparts = (struct ks_check_part *)ks_gpu_malloc(COMPARE_BLOCKS * sizeof(*s->parts),
	    "allocate the comparison");
	/* the kernel's arguments, which its worker opens; the rest is the judge's alone */
	s->da = (uint8_t *)ks_gpu_shared_alloc(s->na, "allocate a");
	s->db = (uint8_t *)ks_gpu_shared_alloc(s->nb, "allocate b");
	s->das = (float *)ks_gpu_shared_alloc(s->nas * sizeof(float), "allocate a_scale");
	s->dbs = (float *)ks_gpu_shared_alloc(s->nbs * sizeof(float), "allocate b_scale");
	s->dc = (uint16_t *)ks_gpu_shared_alloc(s->nc * sizeof(uint16_t), "allocate c");
	s->dref = (float *)ks_gpu_malloc(s->nc * sizeof(float), "allocate reference");
	s->dtable = (struct fp8_mm_draw_table *)ks_gpu_malloc(sizeof(*s->dtable),
	    "allocate the draw's table");
	s->dchanged = (unsigned long long *)ks_gpu_malloc(4 * sizeof(*s->dchanged),
	    "allocate the input check");
	if (s->dtable)
		ks_gpu_upload(s->dtable, fp8_mm_reference_draw_table(),
		    sizeof(*s->dtable), "upload the draw's table");
	return p->rows && p->cols && p->arow && p->brow && p->asrow &&
	    p->bsrow && p->got && p->ref && s->parts && p->drows && p->dcols &&
	    p->dgot && p->dref && s->dparts && s->da && s->db && s->das &&
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

/* the kernel's arguments, in call.hip's order: a, b, a_scale, b_scale, c */
static int
ks_fp8mm_args(void *state, void **ptrs, int max)
{
	struct ks_fp8mm *s = (struct ks_fp8mm *)state;

	if (max < 5)
		return -1;
	ptrs[0] = s->da;
	ptrs[1] = s->db;
	ptrs[2] = s->das;
	ptrs[3] = s->dbs;
	ptrs[4] = s->dc;
	return 5;
}

/* The candidate on the host's sample, when the full check passed. */
static void
ks_fp8mm_check_sample(struct ks_fp8mm *s, double rtol, double atol,
    struct ks_check *res)
{
	struct ks_fp8mm_sample *p = &s->smp;
	size_t x, nx = (size_t)p->nrows * p->ncols;
	double got, err;

	for (x = 0; x < nx && res->ok; x++) {
		got = ks_bf16_to_f32(p->got[x]);
		err = fabs(got - p->ref[x]);
		if (err <= atol + rtol * fabs((double)p->ref[x]))
			continue;
		res->ok = 0;
		res->bad = 1;
		res->worst_index = (size_t)p->rows[x / p->ncols] * s->n +
		    p->cols[x % p->ncols];
		res->worst_got = got;
		res->worst_want = p->ref[x];
		snprintf(res->reason, sizeof(res->reason), "c[%d][%d] = "
		    "%.9g, but the host computes %.9g there (the GPU "
		    "reference agreed with the kernel)", p->rows[x / p->ncols],
		    p->cols[x % p->ncols], got, (double)p->ref[x]);
	}
}

static void
ks_fp8mm_check(void *state, double rtol, double atol, struct ks_check *res)
{
	struct ks_fp8mm *s = (struct ks_fp8mm *)state;
	const char *changed;

	/* waits first: a launch error or a fault ends the runner here */
	ks_gpu_sync("candidate fp8_mm");
	changed = ks_fp8mm_changed_input(s);
	/* the reference answers the inputs as drawn, which the host draws too */
	if (changed)
		ks_fp8mm_draw_inputs(s);
	/* only now, after the call, does the answer to its inputs exist */
	ks_fp8mm_reference<<<dim3((s->n + REF_TILE - 1) / REF_TILE,
	    (s->m + REF_TILE - 1) / REF_TILE), dim3(REF_TILE, REF_TILE)>>>(s->m,
	    s->n, s->k, s->da, s->db, s->das, s->dbs, s->dref);
	ks_fp8mm_reference_sample(s);
	ks_fp8mm_compare_all(s, rtol, atol, res);
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

extern "C" const struct ks_problem ks_problem = {
	"fp8-mm",		/* name */
	3,			/* ndims */
	ks_fp8mm_dims,		/* dim_names */
	ks_fp8mm_setup,		/* setup */
	ks_fp8mm_check,		/* check */
	ks_fp8mm_teardown,	/* teardown */
	ks_fp8mm_describe,	/* describe */
	ks_fp8mm_new_inputs,	/* new_inputs */
	ks_fp8mm_args,		/* args */
};

#endif
