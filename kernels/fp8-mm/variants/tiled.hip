/*
 * tiled.hip: a hand-written fp8-mm faster than the seed, to validate the
 * harness with.  A 64x64 tile of c per block of 256 threads, each thread
 * computing 4x4 elements; per 32-wide slice of K, the block decodes its
 * 64x32 bytes of a and of b once into shared memory as floats, and each
 * thread's 4x4 partial sums take 8 multiply-adds per two 16-byte shared
 * loads.  The K-block's scales are applied once per 128.  Handles any m
 * and any n that is a multiple of 8 (as every fp8-mm shape is).
 */
#include <hip/hip_runtime.h>
#include <stdint.h>

#define TM 64		/* rows of c per block */
#define TN 64		/* columns of c per block: divides 128, so one b_scale */
#define TK 32		/* K per shared-memory slice */
#define THREADS 256	/* 16 x 16, each 4 x 4 of c */

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

/*
 * 8 consecutive bytes of column kk of x (rows x0..x0+7 of rows), decoded
 * into dst[0..8); rows past the end read as 0.  rows is a multiple of 8
 * when the 8-byte load is aligned and in bounds.
 */
static __device__ void
load8(const uint8_t *x, int rows, int x0, size_t kk, float *dst)
{
	const uint8_t *p = x + (size_t)x0 + kk * (size_t)rows;

	if (x0 + 8 <= rows && ((uintptr_t)p & 7) == 0) {
		uint2 v = *(const uint2 *)p;

		for (int t = 0; t < 4; t++) {
			dst[t] = fp8_e4m3fnuz_to_float((v.x >> (8 * t)) & 0xff);
			dst[4 + t] = fp8_e4m3fnuz_to_float((v.y >> (8 * t)) & 0xff);
		}
		return;
	}
	for (int t = 0; t < 8; t++)
		dst[t] = x0 + t < rows ? fp8_e4m3fnuz_to_float(p[t]) : 0.0f;
}

static __global__ __launch_bounds__(THREADS) void
fp8_mm_tiled(int m, int n, int k, const uint8_t *a, const uint8_t *b,
    const float *a_scale, const float *b_scale, uint16_t *c)
{
	__shared__ __align__(16) float sa[TK][TM];	/* [k][i] */
	__shared__ __align__(16) float sb[TK][TN];	/* [k][j] */
	int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
	int i0 = blockIdx.y * TM, j0 = blockIdx.x * TN;
	int lk = tid / 8, lx = (tid % 8) * 8;	/* this thread's loads */
	int scale_n = (n + 127) / 128;
	float acc[4][4] = {};

	for (int kb = 0; kb < k / 128; kb++) {
		float part[4][4] = {};

		for (int k0 = kb * 128; k0 < kb * 128 + 128; k0 += TK) {
			load8(a, m, i0 + lx, (size_t)(k0 + lk), &sa[lk][lx]);
			load8(b, n, j0 + lx, (size_t)(k0 + lk), &sb[lk][lx]);
			__syncthreads();
#pragma unroll 8
			for (int kk = 0; kk < TK; kk++) {
				float4 va = *(const float4 *)&sa[kk][ty * 4];
				float4 vb = *(const float4 *)&sb[kk][tx * 4];
				float ra[4] = { va.x, va.y, va.z, va.w };
				float rb[4] = { vb.x, vb.y, vb.z, vb.w };

				for (int x = 0; x < 4; x++)
					for (int y = 0; y < 4; y++)
						part[x][y] += ra[x] * rb[y];
			}
			__syncthreads();
		}
		float sbv = b_scale[j0 / 128 + (size_t)kb * scale_n];

		for (int x = 0; x < 4; x++) {
			int i = i0 + ty * 4 + x;
			float s = i < m ? a_scale[i + (size_t)kb * m] * sbv : 0.0f;

			for (int y = 0; y < 4; y++)
				acc[x][y] += s * part[x][y];
		}
	}
	for (int x = 0; x < 4; x++) {
		int i = i0 + ty * 4 + x, j = j0 + tx * 4;

		if (i >= m || j >= n)
			continue;
		uint16_t *row = c + (size_t)i * n + j;

		if (j + 4 <= n && ((uintptr_t)row & 7) == 0) {
			uint2 v;

			v.x = float_to_bf16_bits(acc[x][0]) | float_to_bf16_bits(acc[x][1]) << 16;
			v.y = float_to_bf16_bits(acc[x][2]) | float_to_bf16_bits(acc[x][3]) << 16;
			*(uint2 *)row = v;
		} else {
			for (int y = 0; y < 4 && j + y < n; y++)
				row[y] = (uint16_t)float_to_bf16_bits(acc[x][y]);
		}
	}
}

void
fp8_mm(int m, int n, int k, const uint8_t *a, const uint8_t *b,
    const float *a_scale, const float *b_scale, uint16_t *c)
{
	dim3 grid((n + TN - 1) / TN, (m + TM - 1) / TM);

	fp8_mm_tiled<<<grid, THREADS>>>(m, n, k, a, b, a_scale, b_scale, c);
}
