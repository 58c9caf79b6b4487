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

static __global__ void __launch_bounds__(THREADS)
fp8_mm_tile(int m, int n, int k, const uint8_t *a, const uint8_t *b,
    const float *a_scale, const float *b_scale, uint16_t *c)
{
	/* the slices, [buffer][k][element]; one element where unused */
	__shared__ float sa[NBUF][STAGE ? SK : 1][BM];
	__shared__ float sb[NBUF][STAGE ? SK : 1][BN];
	__shared__ float table[DECODE ? 256 : 1];
	int tx = threadIdx.x % TX, ty = threadIdx.x / TX;
	int i0 = blockIdx.y * BM, j0 = blockIdx.x * BN;
	float acc[RM][RN] = {}, part[RM][RN] = {};
	int slices = k / SK, per_kblock = KBLOCK / SK;

	if (DECODE) {
		for (int v = threadIdx.x; v < 256; v += THREADS)
			table[v] = fp8_e4m3fnuz_to_float(v);
		__syncthreads();
	}
	if (!STAGE) {
		for (int kb = 0; kb < k / KBLOCK; kb++) {
			multiply_direct(table, m, n, a, b, i0, j0, tx, ty,
			    kb * KBLOCK, KBLOCK, part);
			apply_scales(m, n, a_scale, b_scale, i0, j0, tx, ty,
			    kb, part, acc);
		}
	} else if (!DBUF) {
		for (int sl = 0; sl < slices; sl++) {
			load_slice<BM>(table, a, m, i0, sl * SK, sa[0]);
			load_slice<BN>(table, b, n, j0, sl * SK, sb[0]);
			__syncthreads();
			multiply_slice(sa[0], sb[0], tx, ty, part);
			__syncthreads();
			if (sl % per_kblock == per_kblock - 1)
				apply_scales(m, n, a_scale, b_scale, i0, j0,
				    tx, ty, sl / per_kblock, part, acc);
		}
	} else {
		/*
		 * Slice sl+1 goes into the buffer slice sl-1 used: the barrier
		 * at the end of step sl-1 saw every thread done with it.
		 */
		load_slice<BM>(table, a, m, i0, 0, sa[0]);
		load_slice<BN>(table, b, n, j0, 0, sb[0]);
		__syncthreads();
		for (int sl = 0; sl < slices; sl++) {
			int cur = sl % NBUF;

			if (sl + 1 < slices) {
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

			if (i < m && j < n)
				c[(size_t)i * n + j] = float_to_bf16_bits(acc[r][s]);
		}
	}
}

void
fp8_mm(int m, int n, int k, const uint8_t *a, const uint8_t *b,
    const float *a_scale, const float *b_scale, uint16_t *c)
{
	dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);

	fp8_mm_tile<<<grid, THREADS>>>(m, n, k, a, b, a_scale, b_scale, c);
}
