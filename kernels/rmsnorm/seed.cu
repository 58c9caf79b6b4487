/*
 * seed.cu: the generation-0 rmsnorm, y = x / rms(row) * w in bf16 with
 * float accumulation.
 *
 * One block per row: the block sums the squares of its row through
 * shared memory, then normalizes the row, reading x a second time.
 * Correct for any rows, cols >= 1 and left untuned on purpose: scalar
 * 2-byte loads, a tree reduction with a barrier per level, one row per
 * block whatever the row length.  The line marked ks-tune is the knob,
 * followed by the values it may take (powers of two: the tree needs
 * them).
 */
#include <cuda_bf16.h>

#define THREADS 256	/* ks-tune: 64 128 256 512 1024 */

/* the sum over the block of each thread's v, returned to every thread */
static __device__ float
block_sum(float v)
{
	__shared__ float part[THREADS];
	int t = threadIdx.x, s;

	part[t] = v;
	__syncthreads();
	for (s = THREADS / 2; s > 0; s /= 2) {
		if (t < s)
			part[t] += part[t + s];
		__syncthreads();
	}
	return part[0];
}

static __global__ void __launch_bounds__(THREADS)
rmsnorm_rows(int cols, const __nv_bfloat16 *x, const __nv_bfloat16 *w,
    __nv_bfloat16 *y, float eps)
{
	/* size_t: rows * cols may not fit in an int */
	const __nv_bfloat16 *xr = x + (size_t)blockIdx.x * cols;
	__nv_bfloat16 *yr = y + (size_t)blockIdx.x * cols;
	float ss = 0, v, inv;
	int c;

	for (c = threadIdx.x; c < cols; c += THREADS) {
		v = __bfloat162float(xr[c]);
		ss += v * v;
	}
	inv = rsqrtf(block_sum(ss) / cols + eps);
	for (c = threadIdx.x; c < cols; c += THREADS)
		yr[c] = __float2bfloat16(__bfloat162float(xr[c]) * inv *
		    __bfloat162float(w[c]));
}

void
rmsnorm(int rows, int cols, const __nv_bfloat16 *x, const __nv_bfloat16 *w,
    __nv_bfloat16 *y, float eps)
{
	/* gridDim.x may be up to 2^31 - 1, so any int rows is one launch */
	rmsnorm_rows<<<rows, THREADS>>>(cols, x, w, y, eps);
}
