/*
 * ks_gpu_on_cpu.h: just enough of a GPU to run a problem's seed kernel or
 * a harness's own kernels on the host, so that their arithmetic
 * (indexing, tiles, K slices, split-K shares, reductions, shuffles) is
 * checked where no GPU is (tests/unit/fp8seed.cc, fp8harness.cc,
 * rmsseed.cc); hip/hip_runtime.h and cuda_bf16.h beside it include it.
 * Blocks run one after another; the threads of a block are POSIX threads
 * meeting at a barrier for __syncthreads (and at their warp's barrier for
 * a shuffle), and __shared__ arrays are static, so all threads of the
 * running block share them.  A launch is written KS_LAUNCH(kernel, grid,
 * block, args...) (the tests rewrite the <<<grid, block>>> syntax, which a
 * C++ compiler does not take).  Nothing here says anything of speed, of
 * the memory model, or of races a GPU would show.
 */
#ifndef KS_GPU_ON_CPU_H
#define KS_GPU_ON_CPU_H

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include <algorithm>
#include <functional>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __shared__ static
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))

using std::max;
using std::min;

struct uint2 {
	unsigned x, y;
};

struct uint4 {
	unsigned x, y, z, w;
};

struct float4 {
	float x, y, z, w;
};

static inline uint2
make_uint2(unsigned x, unsigned y)
{
	return uint2{ x, y };
}

static inline uint4
make_uint4(unsigned x, unsigned y, unsigned z, unsigned w)
{
	return uint4{ x, y, z, w };
}

static inline float4
make_float4(float x, float y, float z, float w)
{
	return float4{ x, y, z, w };
}

struct dim3 {
	unsigned x, y, z;
	dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

/* the running block's, and each thread's own */
static dim3 gridDim, blockDim, blockIdx;
static thread_local dim3 threadIdx;
static pthread_barrier_t ks_block_barrier;
static std::vector<pthread_barrier_t> ks_warp_barriers;	/* one a warp of 32 threads */
static std::vector<float> ks_shuffle_slots;		/* one a thread of the block */
static pthread_mutex_t ks_atomic_lock = PTHREAD_MUTEX_INITIALIZER;

static inline void
__syncthreads(void)
{
	pthread_barrier_wait(&ks_block_barrier);
}

/* the thread's place in its block */
static inline unsigned
ks_flat_thread(void)
{
	return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

/* v of lane (this lane ^ mask) of the warp; every lane of the warp calls it */
static inline float
__shfl_xor_sync(unsigned lanes, float v, int mask)
{
	unsigned t = ks_flat_thread(), warp = t / 32;
	float r;

	(void)lanes;
	ks_shuffle_slots[t] = v;
	pthread_barrier_wait(&ks_warp_barriers[warp]);
	r = ks_shuffle_slots[warp * 32 + ((t % 32) ^ (unsigned)mask)];
	pthread_barrier_wait(&ks_warp_barriers[warp]);
	return r;
}

static inline float
atomicAdd(float *p, float v)
{
	float old;

	pthread_mutex_lock(&ks_atomic_lock);
	old = *p;
	*p = old + v;
	pthread_mutex_unlock(&ks_atomic_lock);
	return old;
}

static inline unsigned long long
atomicAdd(unsigned long long *p, unsigned long long v)
{
	unsigned long long old;

	pthread_mutex_lock(&ks_atomic_lock);
	old = *p;
	*p = old + v;
	pthread_mutex_unlock(&ks_atomic_lock);
	return old;
}

static inline float
__int_as_float(int i)
{
	float f;

	memcpy(&f, &i, sizeof(f));
	return f;
}

static inline unsigned
__float_as_uint(float f)
{
	unsigned u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

struct ks_thread_arg {
	dim3 idx;
	const std::function<void()> *body;
};

static void *
ks_thread_main(void *p)
{
	struct ks_thread_arg *a = (struct ks_thread_arg *)p;

	threadIdx = a->idx;
	(*a->body)();
	return NULL;
}

/* every block of grid in turn, each with its block of threads running body */
static inline void
ks_launch(dim3 grid, dim3 block, const std::function<void()> &body)
{
	unsigned n = block.x * block.y * block.z, t;
	std::vector<pthread_t> threads(n);
	std::vector<struct ks_thread_arg> args(n);
	pthread_attr_t attr;

	/* a GPU thread's stack is small; a thousand of 8 MiB each would not be */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 1 << 20);
	gridDim = grid;
	blockDim = block;
	for (unsigned z = 0; z < grid.z; z++)
		for (unsigned y = 0; y < grid.y; y++)
			for (unsigned x = 0; x < grid.x; x++) {
				blockIdx = dim3(x, y, z);
				pthread_barrier_init(&ks_block_barrier, NULL, n);
				ks_warp_barriers.resize((n + 31) / 32);
				ks_shuffle_slots.assign(n, 0);
				for (t = 0; t < ks_warp_barriers.size(); t++)
					pthread_barrier_init(&ks_warp_barriers[t], NULL,
					    n - 32 * t < 32 ? n - 32 * t : 32);
				for (t = 0; t < n; t++) {
					args[t].idx = dim3(t % block.x, t / block.x % block.y,
					    t / (block.x * block.y));
					args[t].body = &body;
					if (pthread_create(&threads[t], &attr, ks_thread_main, &args[t]) != 0)
						abort();
				}
				for (t = 0; t < n; t++)
					pthread_join(threads[t], NULL);
				pthread_barrier_destroy(&ks_block_barrier);
				for (t = 0; t < ks_warp_barriers.size(); t++)
					pthread_barrier_destroy(&ks_warp_barriers[t]);
			}
	pthread_attr_destroy(&attr);
}

#define KS_LAUNCH(kernel, grid, block, ...) \
	ks_launch(dim3(grid), dim3(block), [&]() { kernel(__VA_ARGS__); })

#endif
