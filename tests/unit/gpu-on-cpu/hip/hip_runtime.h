/*
 * hip/hip_runtime.h for the CPU: just enough of HIP to run a problem's
 * seed kernel or a harness's own kernels on the host, so that their
 * arithmetic (indexing, tiles, K slices, split-K shares, reductions) is
 * checked where no GPU is (tests/unit/fp8seed.cc, tests/unit/fp8harness.cc).
 * Blocks run one after another; the threads of a block are POSIX threads
 * meeting at a barrier for __syncthreads, and __shared__ arrays are static,
 * so all threads of the running block share them.  A launch is written
 * KS_LAUNCH(kernel, grid, block, args...) (the test rewrites the
 * <<<grid, block>>> syntax, which a C++ compiler does not take).  Nothing
 * here says anything of speed, of the memory model, or of races a GPU
 * would show.
 */
#ifndef KS_GPU_ON_CPU_H
#define KS_GPU_ON_CPU_H

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <functional>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __shared__ static
#define __forceinline__ inline
#define __launch_bounds__(...)

using std::max;
using std::min;

struct dim3 {
	unsigned x, y, z;
	dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

/* the running block's, and each thread's own */
static dim3 gridDim, blockDim, blockIdx;
static thread_local dim3 threadIdx;
static pthread_barrier_t ks_block_barrier;
static pthread_mutex_t ks_atomic_lock = PTHREAD_MUTEX_INITIALIZER;

static inline void
__syncthreads(void)
{
	pthread_barrier_wait(&ks_block_barrier);
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
			}
	pthread_attr_destroy(&attr);
}

#define KS_LAUNCH(kernel, grid, block, ...) \
	ks_launch(dim3(grid), dim3(block), [&]() { kernel(__VA_ARGS__); })

typedef int hipError_t;
#define hipSuccess 0

static inline hipError_t
hipMalloc(void **p, size_t bytes)
{
	return (*p = malloc(bytes)) ? hipSuccess : 1;
}

static inline hipError_t
hipFree(void *p)
{
	free(p);
	return hipSuccess;
}

static inline hipError_t
hipMemsetAsync(void *p, int v, size_t bytes, int stream)
{
	(void)stream;
	memset(p, v, bytes);
	return hipSuccess;
}

#endif
