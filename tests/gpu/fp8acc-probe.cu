/*
 * fp8acc-probe.cu: how many bits Hopper's FP8 tensor cores keep when they
 * add into their f32 accumulator (kernels/fp8-mm/knowledge/hip-nvidia/
 * fp8-accumulation.md).  One warp (mma.sync m16n8k32) or one warpgroup
 * (wgmma m64n8k32) with every byte of A equal to 1.0 in e4m3 and every
 * byte of B equal to 1.0 or 1.5, so that each element of D is C + 32 or
 * C + 48 whatever the fragment layout; C = 2^j for j = 8..30.
 *
 * In fp32 (23 mantissa bits, the products summed and rounded once) C + 32
 * is exact up to j = 28 and C + 48 at j = 28 reads +64 (nearest even).
 * An adder that cuts each product to the accumulator's leading bit less B
 * before the sum keeps C + 32 up to j = B and loses every product after;
 * there C + 48 reads +32 (each 1.5 cut to 1).  Prints, per instruction and
 * j, what D - C came to for both, then the largest j at which + 32 held.
 * (2026-12-06, an H100: mma.sync as fp32; wgmma B = 13, cut toward zero.)
 *
 * Usage: nvcc -O3 -arch=sm_90a tests/gpu/fp8acc-probe.cu -o fp8acc && ./fp8acc
 */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <cuda_runtime.h>

#define J_LO	8
#define J_HI	30
#define E4M3_ONE	0x38u	/* 1.0: exponent 7 (the bias), mantissa 0 */
#define E4M3_ONE_HALF	0x3cu	/* 1.5 */

static __global__ void
probe_mma_sync(float c, unsigned b_byte, float *d_out)
{
	unsigned a4 = E4M3_ONE * 0x01010101u, b4 = b_byte * 0x01010101u;
	float d0, d1, d2, d3;

	asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 "
	    "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
	    : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
	    : "r"(a4), "r"(a4), "r"(a4), "r"(a4), "r"(b4), "r"(b4), "f"(c), "f"(c), "f"(c), "f"(c));
	if (threadIdx.x == 0)
		d_out[0] = d0 == d1 && d1 == d2 ? d0 : nanf("");	/* every element is the same sum */
	if (threadIdx.x == 31)
		d_out[1] = d3;
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
/* a shared-memory matrix descriptor, no swizzle: address, leading and stride byte offsets, each >> 4 */
static __device__ uint64_t
descriptor(const void *smem, unsigned lbo, unsigned sbo)
{
	uint64_t addr = (uint64_t)__cvta_generic_to_shared(smem);

	return ((addr >> 4) & 0x3fff) | ((uint64_t)((lbo >> 4) & 0x3fff) << 16) |
	    ((uint64_t)((sbo >> 4) & 0x3fff) << 32);
}
#endif

static __global__ void
probe_wgmma(float c, unsigned b_byte, float *d_out)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
	__shared__ __align__(128) uint8_t a[8192], b[8192];
	float d0 = c, d1 = c, d2 = c, d3 = c;

	for (int i = threadIdx.x; i < 8192; i += blockDim.x) {
		a[i] = E4M3_ONE;
		b[i] = (uint8_t)b_byte;
	}
	asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
	__syncthreads();
	uint64_t da = descriptor(a, 128, 256), db = descriptor(b, 128, 256);
	asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
	asm volatile("wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 "
	    "{%0,%1,%2,%3}, %4, %5, 1, 1, 1;"
	    : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
	    : "l"(da), "l"(db));
	asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
	asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
	if (threadIdx.x == 0)
		d_out[0] = d0;
	if (threadIdx.x == 127)
		d_out[1] = d3;
#else
	if (threadIdx.x == 0)
		d_out[0] = d_out[1] = nanf("");
#endif
}

static int
run(const char *name, int wgmma)
{
	float *d, h[2];
	int exact_to = -1;

	cudaMalloc(&d, 2 * sizeof(float));
	printf("%s: j, D - C for + 32 (B = 1.0) and + 48 (B = 1.5), C = 2^j\n", name);
	for (int j = J_LO; j <= J_HI; j++) {
		float c = ldexpf(1.0f, j), add[2];

		for (int k = 0; k < 2; k++) {
			unsigned bb = k ? E4M3_ONE_HALF : E4M3_ONE;

			if (wgmma)
				probe_wgmma<<<1, 128>>>(c, bb, d);
			else
				probe_mma_sync<<<1, 32>>>(c, bb, d);
			if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess) {
				printf("%s: %s\n", name, cudaGetErrorString(cudaGetLastError()));
				return 1;
			}
			if (h[0] != h[1])
				printf("%s: j %d: the two elements read differ (%.9g, %.9g)\n", name, j, h[0], h[1]);
			add[k] = h[0] - c;
		}
		printf("%s j %2d  +32 -> %+g  +48 -> %+g\n", name, j, add[0], add[1]);
		if (add[0] == 32.0f && exact_to == j - 1)
			exact_to = j;
		if (j == J_LO && add[0] == 32.0f)
			exact_to = j;
	}
	printf("%s: C + 32 exact up to C = 2^%d (fp32: 2^28; each product cut at the accumulator's leading bit "
	    "less B: 2^B)\n", name, exact_to);
	fflush(stdout);
	cudaFree(d);
	return 0;
}

int
main(void)
{
	cudaDeviceProp p;

	cudaGetDeviceProperties(&p, 0);
	printf("device: %s (sm_%d%d)\n", p.name, p.major, p.minor);
	if (run("mma.sync", 0) || run("wgmma", 1))
		return 1;
	return 0;
}
