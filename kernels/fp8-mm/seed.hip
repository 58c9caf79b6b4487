/*
 * seed.hip: the generation-0 fp8-mm, c = block-scaled a * b^T in bf16,
 * correct and plain: one thread per element of c, each reading its row
 * of a and its row of b straight from global memory, every byte decoded
 * by arithmetic, fp32 accumulation.  No tiling, no shared memory, no
 * vector loads, no matrix instructions: the room the loop is to find.
 */
#include <hip/hip_runtime.h>
#include <stdint.h>

#define BLOCK_J 64	/* ks-tune: 32 64 128 256 */
#define BLOCK_I 4	/* ks-tune: 1 2 4 8 */

/* e4m3fnuz: bias 8, no infinities, 0x80 the only NaN */
static __device__ float
fp8_e4m3fnuz_to_float(uint8_t v)
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

/* threads along j: b's bytes and c's elements are consecutive in j */
static __global__ void
fp8_mm_naive(int m, int n, int k, const uint8_t *a, const uint8_t *b,
    const float *a_scale, const float *b_scale, uint16_t *c)
{
	int j = blockIdx.x * BLOCK_J + threadIdx.x;
	int i = blockIdx.y * BLOCK_I + threadIdx.y;
	int scale_n = (n + 127) / 128;
	float acc = 0;

	if (i >= m || j >= n)
		return;
	for (int kb = 0; kb < k / 128; kb++) {
		float part = 0;

		for (int kk = kb * 128; kk < kb * 128 + 128; kk++)
			part += fp8_e4m3fnuz_to_float(a[i + (size_t)kk * m]) *
			    fp8_e4m3fnuz_to_float(b[j + (size_t)kk * n]);
		acc += a_scale[i + (size_t)kb * m] *
		    b_scale[j / 128 + (size_t)kb * scale_n] * part;
	}
	c[(size_t)i * n + j] = float_to_bf16_bits(acc);
}

void
fp8_mm(int m, int n, int k, const uint8_t *a, const uint8_t *b,
    const float *a_scale, const float *b_scale, uint16_t *c)
{
	dim3 block(BLOCK_J, BLOCK_I);
	dim3 grid((n + BLOCK_J - 1) / BLOCK_J, (m + BLOCK_I - 1) / BLOCK_I);

	fp8_mm_naive<<<grid, block>>>(m, n, k, a, b, a_scale, b_scale, c);
}
