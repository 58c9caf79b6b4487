/*
 * seed.hip: the generation-0 fp8-mm, c = block-scaled a * b^T in bf16,
 * correct and plain at the values it starts with: one thread per
 * element of c, each reading its row of a and its row of b straight
 * from global memory, every byte decoded by arithmetic, fp32
 * accumulation.  No tiling, no shared memory, no matrix instructions:
 * the room the loop is to find.
 *
 * Each line marked ks-tune is a knob, followed by the values it may
 * take (what the offline proposer changes, one knob at a time); every
 * combination is correct:
 *   TX, TY   threads of a block along j (columns of c) and along i
 *   RN, RM   columns and rows of c each thread computes (its tile is
 *            strided: column j0 + tx + s * TX, row i0 + ty + r * TY),
 *            so a block computes TY * RM rows by TX * RN columns
 *   STAGE    1: the block decodes a slice of KT of K of its rows of a
 *            and columns of b once into shared memory as floats, and
 *            every thread reads them from there; 0: each thread loads
 *            and decodes its own bytes from global memory
 *   KT       K per shared-memory slice (halved until the slices and the
 *            decode table fit in 48 KiB of shared memory)
 *   DBUF     1: two slices, the next loaded while the current one is
 *            used, one barrier per slice instead of two
 *   LOAD4    1: the slices loaded 4 bytes at a time (where the tile's
 *            rows are a multiple of 4), not byte by byte
 *   DECODE   0: e4m3fnuz decoded by arithmetic; 1: through a table of
 *            the 256 values in shared memory
 *   SPLITK   blocks along K (split-K): each sums its share of the K
 *            blocks into a float workspace with atomics, and a second
 *            kernel rounds the sums into c; more blocks where m x n is
 *            small and K long.  1: each block writes c itself
 */
#include <hip/hip_runtime.h>
#include <stdint.h>

#define TX 64		/* ks-tune: 8 16 32 64 */
#define TY 4		/* ks-tune: 1 2 4 8 16 */
#define RN 1		/* ks-tune: 1 2 4 8 */
#define RM 1		/* ks-tune: 1 2 4 8 */
#define STAGE 0		/* ks-tune: 0 1 */
#define KT 32		/* ks-tune: 8 16 32 64 128 */
#define DBUF 0		/* ks-tune: 0 1 */
#define LOAD4 0		/* ks-tune: 0 1 */
#define DECODE 0	/* ks-tune: 0 1 */
#define SPLITK 1	/* ks-tune: 1 2 4 8 */

#define THREADS (TX * TY)
#define BM (TY * RM)		/* rows of c per block */
#define BN (TX * RN)		/* columns of c per block */
#define KBLOCK 128		/* K per scale */
#define SHARED_MAX (48 * 1024)

/* the K of a slice: KT, halved until the slices (and the decode table) fit in shared memory */
static constexpr __host__ __device__ int
slice_k(int kt)
{
	return kt > 1 && kt * (BM + BN) * 4 * (1 + DBUF) + (DECODE ? 256 * 4 : 0) > SHARED_MAX ?
	    slice_k(kt / 2) : kt;
}
#define SK slice_k(KT)
#define NBUF (STAGE ? 1 + DBUF : 1)	/* slice buffers (1, unused, without STAGE) */

/* e4m3fnuz: bias 8, no infinities, 0x80 the only NaN */
static __device__ float
fp8_e4m3fnuz_to_float(uint32_t v)
{
	int e = (v >> 3) & 15, m = v & 7;
	float mag;

	if (v == 0x80)
		return __int_as_float(0x7fc00000);
	mag = e ? ldexpf((float)(8 + m), e - 11) : ldexpf((float)m, -10);
	return (v & 0x80) ? -mag : mag;
}

/* round to nearest even; NaN stays NaN */
static __device__ uint16_t
float_to_bf16_bits(float f)
{
	uint32_t u = __float_as_uint(f);

	if ((u & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((u >> 16) | 0x40u);
	u += 0x7fffu + ((u >> 16) & 1u);
	return (uint16_t)(u >> 16);
}

static __device__ float
decode(const float *table, uint32_t v)
{
	return DECODE ? table[v] : fp8_e4m3fnuz_to_float(v);
}

/*
 * One slice of K (rows k0 .. k0 + SK of the column-major x, its
 * elements x0 .. x0 + width of each) into dst[kk][e], decoded; elements
 * at or past `rows` read as 0.  All the block's threads take part.
 */
template <int WIDTH>
static __device__ void
load_slice(const float *table, const uint8_t *x, int rows, int x0, int k0,
    float (*dst)[WIDTH])
{
	if (LOAD4 && WIDTH % 4 == 0 && rows % 4 == 0) {
		/* W4: the words of a row of the slice (never 0, to compile when unused) */
		const int W4 = WIDTH / 4 ? WIDTH / 4 : 1;

		for (int q = threadIdx.x; q < SK * W4; q += THREADS) {
			int kk = q / W4, e = (q % W4) * 4;
			uint32_t v = x0 + e < rows ? *(const uint32_t *)(x +
			    (size_t)(k0 + kk) * rows + x0 + e) : 0;

			for (int t = 0; t < 4; t++)
				dst[kk][e + t] = decode(table, (v >> (8 * t)) & 0xff);
		}
		return;
	}
	for (int q = threadIdx.x; q < SK * WIDTH; q += THREADS) {
		int kk = q / WIDTH, e = q % WIDTH;

		dst[kk][e] = x0 + e < rows ?
		    decode(table, x[(size_t)(k0 + kk) * rows + x0 + e]) : 0.0f;
	}
}

/* part[r][s] += the products of this thread's tile over one slice */
static __device__ void
multiply_slice(const float (*sa)[BM], const float (*sb)[BN], int tx, int ty,
    float (*part)[RN])
{
	for (int kk = 0; kk < SK; kk++) {
		float ra[RM], rb[RN];

		for (int r = 0; r < RM; r++)
			ra[r] = sa[kk][ty + r * TY];
		for (int s = 0; s < RN; s++)
			rb[s] = sb[kk][tx + s * TX];
		for (int r = 0; r < RM; r++)
			for (int s = 0; s < RN; s++)
				part[r][s] += ra[r] * rb[s];
	}
}

/* the same, each thread loading its own bytes from global memory */
static __device__ void
multiply_direct(const float *table, int m, int n, const uint8_t *a,
    const uint8_t *b, int i0, int j0, int tx, int ty, int k0, int klen,
    float (*part)[RN])
{
	for (int kk = k0; kk < k0 + klen; kk++) {
		float ra[RM], rb[RN];

		for (int r = 0; r < RM; r++) {
			int i = i0 + ty + r * TY;

			ra[r] = i < m ? decode(table, a[i + (size_t)kk * m]) : 0.0f;
		}
		for (int s = 0; s < RN; s++) {
			int j = j0 + tx + s * TX;

			rb[s] = j < n ? decode(table, b[j + (size_t)kk * n]) : 0.0f;
		}
		for (int r = 0; r < RM; r++)
			for (int s = 0; s < RN; s++)
				part[r][s] += ra[r] * rb[s];
	}
}

/* acc += the K-block's scales times its partial sums; part cleared */
static __device__ void
apply_scales(int m, int n, const float *a_scale, const float *b_scale,
    int i0, int j0, int tx, int ty, int kb, float (*part)[RN],
    float (*acc)[RN])
{
	int scale_n = (n + KBLOCK - 1) / KBLOCK;
	float sa[RM], sb[RN];

	for (int r = 0; r < RM; r++) {
		int i = i0 + ty + r * TY;

		sa[r] = i < m ? a_scale[i + (size_t)kb * m] : 0.0f;
	}
	for (int s = 0; s < RN; s++) {
		int j = j0 + tx + s * TX;

		sb[s] = j < n ? b_scale[j / KBLOCK + (size_t)kb * scale_n] : 0.0f;
	}
	for (int r = 0; r < RM; r++)
		for (int s = 0; s < RN; s++) {
			acc[r][s] += sa[r] * sb[s] * part[r][s];
			part[r][s] = 0;
		}
}

/*
 * The tile of c at block (x, y), over this block's share of the K blocks
 * (blockIdx.z of gridDim.z): into c when there is one share (sums == NULL),
 * else added into sums, which fp8_mm_finish rounds into c.
 */
static __global__ void __launch_bounds__(THREADS)
fp8_mm_tile(int m, int n, int k, const uint8_t *a, const uint8_t *b,
    const float *a_scale, const float *b_scale, uint16_t *c, float *sums)
{
	/* the slices, [buffer][k][element]; one element where unused */
	__shared__ float sa[NBUF][STAGE ? SK : 1][BM];
	__shared__ float sb[NBUF][STAGE ? SK : 1][BN];
	__shared__ float table[DECODE ? 256 : 1];
	int tx = threadIdx.x % TX, ty = threadIdx.x / TX;
	int i0 = blockIdx.y * BM, j0 = blockIdx.x * BN;
	float acc[RM][RN] = {}, part[RM][RN] = {};
	int kblocks = k / KBLOCK, share = (kblocks + gridDim.z - 1) / gridDim.z;
	int kb0 = min(kblocks, (int)blockIdx.z * share), kb1 = min(kblocks, kb0 + share);
	int per_kblock = KBLOCK / SK, sl0 = kb0 * per_kblock, sl1 = kb1 * per_kblock;

	if (DECODE) {
		for (int v = threadIdx.x; v < 256; v += THREADS)
			table[v] = fp8_e4m3fnuz_to_float(v);
		__syncthreads();
	}
	if (!STAGE) {
		for (int kb = kb0; kb < kb1; kb++) {
			multiply_direct(table, m, n, a, b, i0, j0, tx, ty,
			    kb * KBLOCK, KBLOCK, part);
			apply_scales(m, n, a_scale, b_scale, i0, j0, tx, ty,
			    kb, part, acc);
		}
	} else if (!DBUF) {
		for (int sl = sl0; sl < sl1; sl++) {
			load_slice<BM>(table, a, m, i0, sl * SK, sa[0]);
			load_slice<BN>(table, b, n, j0, sl * SK, sb[0]);
			__syncthreads();
			multiply_slice(sa[0], sb[0], tx, ty, part);
			__syncthreads();
			if (sl % per_kblock == per_kblock - 1)
				apply_scales(m, n, a_scale, b_scale, i0, j0,
				    tx, ty, sl / per_kblock, part, acc);
		}
	} else if (sl0 < sl1) {
		/*
		 * Slice sl+1 goes into the buffer slice sl-1 used: the barrier
		 * at the end of step sl-1 saw every thread done with it.
		 */
		load_slice<BM>(table, a, m, i0, sl0 * SK, sa[0]);
		load_slice<BN>(table, b, n, j0, sl0 * SK, sb[0]);
		__syncthreads();
		for (int sl = sl0; sl < sl1; sl++) {
			int cur = (sl - sl0) % NBUF;

			if (sl + 1 < sl1) {
				load_slice<BM>(table, a, m, i0, (sl + 1) * SK,
				    sa[(cur + 1) % NBUF]);
				load_slice<BN>(table, b, n, j0, (sl + 1) * SK,
				    sb[(cur + 1) % NBUF]);
			}
			multiply_slice(sa[cur], sb[cur], tx, ty, part);
			__syncthreads();
			if (sl % per_kblock == per_kblock - 1)
				apply_scales(m, n, a_scale, b_scale, i0, j0,
				    tx, ty, sl / per_kblock, part, acc);
		}
	}
	for (int r = 0; r < RM; r++) {
		int i = i0 + ty + r * TY;

		for (int s = 0; s < RN; s++) {
			int j = j0 + tx + s * TX;

			if (i >= m || j >= n)
				continue;
			if (sums)
				atomicAdd(&sums[(size_t)i * n + j], acc[r][s]);
			else
				c[(size_t)i * n + j] = float_to_bf16_bits(acc[r][s]);
		}
	}
}

/* c from the sums of the K shares, rounded to bf16 */
static __global__ void
fp8_mm_finish(const float *sums, uint16_t *c, size_t elements)
{
	size_t e = blockIdx.x * (size_t)blockDim.x + threadIdx.x;

	if (e < elements)
		c[e] = float_to_bf16_bits(sums[e]);
}

/*
 * The split-K sums' workspace, kept between calls and grown when a shape
 * needs more (its contents are cleared by every call); NULL when it
 * cannot be had, and then one share writes c itself.
 */
static float *
split_workspace(size_t elements)
{
	static float *sums;
	static size_t have;

	if (elements > have) {
		hipFree(sums);		/* (NULL at first: nothing) */
		have = hipMalloc((void **)&sums, elements * sizeof(float)) == hipSuccess ? elements : 0;
		if (!have)
			sums = NULL;
	}
	return sums;
}

void
fp8_mm(int m, int n, int k, const uint8_t *a, const uint8_t *b,
    const float *a_scale, const float *b_scale, uint16_t *c)
{
	size_t elements = (size_t)m * n;
	int kblocks = k / KBLOCK, splits = SPLITK < kblocks ? SPLITK : kblocks;
	float *sums;

	/* as many shares as it takes at the share's size, so that none is empty */
	if (splits > 1) {
		int share = (kblocks + splits - 1) / splits;

		splits = (kblocks + share - 1) / share;
	}
	sums = splits > 1 ? split_workspace(elements) : NULL;

	if (!sums)
		splits = 1;
	else
		hipMemsetAsync(sums, 0, elements * sizeof(float), 0);
	dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM, splits);
	fp8_mm_tile<<<grid, THREADS>>>(m, n, k, a, b, a_scale, b_scale, c, sums);
	if (sums)
		fp8_mm_finish<<<(unsigned)((elements + 255) / 256), 256>>>(sums, c, elements);
}
