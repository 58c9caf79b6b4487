/*
 * wide.hip: a hand-written fp8-mm faster than tiled.hip, to validate the
 * harness with.  A 128x128 tile of c per block of 256 threads, each
 * thread computing 8x8 elements (two 4-row by two 4-column quadrants, so
 * that a warp's shared-memory reads are 16-byte and conflict-free), with
 * the next 16-wide slice of K loaded into registers while the current one
 * is computed.  Bytes past the edge of a or b load as 0x00, which decodes
 * to zero.  Any m; n a multiple of 8.
 */
#include <hip/hip_runtime.h>
#include <stdint.h>

#define TM 128		/* rows of c per block */
#define TN 128		/* columns of c per block: one b_scale */
#define TK 16		/* K per shared-memory slice */
#define THREADS 256	/* 16 x 16, each 8 x 8 of c */

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

static __device__ uint32_t
float_to_bf16_bits(float f)
{
	uint32_t u = __float_as_uint(f);

	if ((u & 0x7fffffffu) > 0x7f800000u)
		return (u >> 16) | 0x40u;
	u += 0x7fffu + ((u >> 16) & 1u);
	return u >> 16;
}

/* bytes x0..x0+7 of column kk of x, which has rows rows; 0x00 past the end */
static __device__ uint2
fetch8(const uint8_t *x, int rows, int x0, int kk)
{
	const uint8_t *p = x + (size_t)x0 + (size_t)kk * (size_t)rows;
	uint2 v = make_uint2(0, 0);

	if (x0 + 8 <= rows && ((uintptr_t)p & 7) == 0)
		return *(const uint2 *)p;
	for (int t = 0; t < 8 && x0 + t < rows; t++) {
		if (t < 4)
			v.x |= (uint32_t)p[t] << (8 * t);
		else
			v.y |= (uint32_t)p[t] << (8 * (t - 4));
	}
	return v;
}

static __device__ void
store8(float *dst, uint2 v)
{
	for (int t = 0; t < 4; t++) {
		dst[t] = fp8_e4m3fnuz_to_float((v.x >> (8 * t)) & 0xff);
		dst[4 + t] = fp8_e4m3fnuz_to_float((v.y >> (8 * t)) & 0xff);
	}
}

/* c[i][j..j+3] from four floats */
static __device__ void
put4(uint16_t *c, int m, int n, int i, int j, const float *v)
{
	if (i >= m || j >= n)
		return;
	uint16_t *row = c + (size_t)i * n + j;

	if (j + 4 <= n && ((uintptr_t)row & 7) == 0) {
		uint2 w;

		w.x = float_to_bf16_bits(v[0]) | float_to_bf16_bits(v[1]) << 16;
		w.y = float_to_bf16_bits(v[2]) | float_to_bf16_bits(v[3]) << 16;
		*(uint2 *)row = w;
		return;
	}
	for (int y = 0; y < 4 && j + y < n; y++)
		row[y] = (uint16_t)float_to_bf16_bits(v[y]);
}

static __global__ __launch_bounds__(THREADS) void
fp8_mm_wide(int m, int n, int k, const uint8_t *a, const uint8_t *b,
    const float *a_scale, const float *b_scale, uint16_t *c)
{
	__shared__ __align__(16) float sa[TK][TM];	/* [k][i] */
	__shared__ __align__(16) float sb[TK][TN];	/* [k][j] */
	int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
	int i0 = blockIdx.y * TM, j0 = blockIdx.x * TN;
	int lk = tid / 16, lx = (tid % 16) * 8;	/* this thread's loads */
	int scale_n = (n + 127) / 128, slices = k / TK;
	float acc[8][8] = {}, part[8][8] = {};
	uint2 na = fetch8(a, m, i0 + lx, lk), nb = fetch8(b, n, j0 + lx, lk);

	for (int s = 0; s < slices; s++) {
		store8(&sa[lk][lx], na);
		store8(&sb[lk][lx], nb);
		__syncthreads();
		if (s + 1 < slices) {
			na = fetch8(a, m, i0 + lx, (s + 1) * TK + lk);
			nb = fetch8(b, n, j0 + lx, (s + 1) * TK + lk);
		}
#pragma unroll 4
		for (int kk = 0; kk < TK; kk++) {
			float4 a0 = *(const float4 *)&sa[kk][ty * 4];
			float4 a1 = *(const float4 *)&sa[kk][64 + ty * 4];
			float4 b0 = *(const float4 *)&sb[kk][tx * 4];
			float4 b1 = *(const float4 *)&sb[kk][64 + tx * 4];
			float ra[8] = { a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w };
			float rb[8] = { b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w };

			for (int x = 0; x < 8; x++)
				for (int y = 0; y < 8; y++)
					part[x][y] += ra[x] * rb[y];
		}
		__syncthreads();
		/* end of a 128-wide K-block: apply its scales */
		if (((s + 1) * TK) % 128 == 0) {
			int kb = (s + 1) * TK / 128 - 1;
			float sbv = b_scale[j0 / 128 + (size_t)kb * scale_n];

			for (int x = 0; x < 8; x++) {
				int i = i0 + (x < 4 ? ty * 4 + x : 64 + ty * 4 + x - 4);
				float sc = i < m ? a_scale[i + (size_t)kb * m] * sbv : 0.0f;

				for (int y = 0; y < 8; y++) {
					acc[x][y] += sc * part[x][y];
					part[x][y] = 0;
				}
			}
		}
	}
	for (int x = 0; x < 8; x++) {
		int i = i0 + (x < 4 ? ty * 4 + x : 64 + ty * 4 + x - 4);

		put4(c, m, n, i, j0 + tx * 4, &acc[x][0]);
		put4(c, m, n, i, j0 + 64 + tx * 4, &acc[x][4]);
	}
}

void
fp8_mm(int m, int n, int k, const uint8_t *a, const uint8_t *b,
    const float *a_scale, const float *b_scale, uint16_t *c)
{
	dim3 grid((n + TN - 1) / TN, (m + TM - 1) / TM);

	fp8_mm_wide<<<grid, THREADS>>>(m, n, k, a, b, a_scale, b_scale, c);
}
