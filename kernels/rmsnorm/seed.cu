/*
 * seed.cu: the generation-0 rmsnorm, y = x / rms(row) * w in bf16 with
 * float accumulation.
 *
 * A block of THREADS threads takes ROWS rows, THREADS / ROWS threads a
 * row: they sum the squares of their row, then normalize it.  Correct
 * for any rows, cols >= 1, and for every value of every knob below; the
 * values it starts with are the plain ones (one row per block, 2-byte
 * loads, one load in flight, x read twice, a tree reduction with a
 * barrier per level, no cache hints): the room the loop is to find.
 *
 * Each line marked ks-tune is a knob, followed by the values it may
 * take (what the offline proposer changes, one knob at a time):
 *   THREADS  threads per block
 *   ROWS     rows per block (each row gets THREADS / ROWS threads)
 *   VEC      bf16 per load and store (2 to 16 bytes), where cols is a
 *            multiple of it and the pointers are aligned to it
 *   UNROLL   loads each thread has in flight before it uses them
 *   REGS     vectors of x each thread keeps in registers, so that a
 *            row that fits is read from memory once; 0 reads it twice
 *   REDUCE   0: a tree through shared memory; 1: warp shuffles
 *   STREAM   1: x and y loaded and stored evict-first (__ldcs, __stcs),
 *            leaving the L2 to w, which every row reads
 */
#include <stdint.h>
#include <string.h>

#include <cuda_bf16.h>

#define THREADS 256	/* ks-tune: 32 64 128 256 512 1024 */
#define ROWS 1		/* ks-tune: 1 2 4 8 */
#define VEC 1		/* ks-tune: 1 2 4 8 */
#define UNROLL 1	/* ks-tune: 1 2 4 8 */
#define REGS 0		/* ks-tune: 0 1 2 4 8 16 */
#define REDUCE 0	/* ks-tune: 0 1 */
#define STREAM 0	/* ks-tune: 0 1 */

#define GROUP (THREADS / ROWS)	/* threads of a row: a power of two */
#define WARP 32

/* the type one load of V bf16 moves */
template <int V> struct pack;
template <> struct pack<1> { typedef unsigned short t; };
template <> struct pack<2> { typedef unsigned int t; };
template <> struct pack<4> { typedef uint2 t; };
template <> struct pack<8> { typedef uint4 t; };

template <typename P>
static __device__ P
load_x(const P *p)
{
	return STREAM ? __ldcs(p) : *p;
}

template <typename P>
static __device__ void
store_y(P *p, P v)
{
	if (STREAM)
		__stcs(p, v);
	else
		*p = v;
}

/* the V floats of one load */
template <int V>
static __device__ void
unpack(typename pack<V>::t p, float *f)
{
	__nv_bfloat16 h[V];

	memcpy(h, &p, sizeof(h));
	for (int i = 0; i < V; i++)
		f[i] = __bfloat162float(h[i]);
}

template <int V>
static __device__ float
sum_squares(typename pack<V>::t p)
{
	float f[V], s = 0;

	unpack<V>(p, f);
	for (int i = 0; i < V; i++)
		s += f[i] * f[i];
	return s;
}

/* x * inv * w for the V bf16 of one load, rounded to nearest */
template <int V>
static __device__ typename pack<V>::t
scale(typename pack<V>::t xp, typename pack<V>::t wp, float inv)
{
	float fx[V], fw[V];
	__nv_bfloat16 h[V];
	typename pack<V>::t out;

	unpack<V>(xp, fx);
	unpack<V>(wp, fw);
	for (int i = 0; i < V; i++)
		h[i] = __float2bfloat16(fx[i] * inv * fw[i]);
	memcpy(&out, h, sizeof(out));
	return out;
}

/* the UNROLL loads of x from c0 on, a group's width apart, all issued before any is used */
template <typename P>
static __device__ void
load_in_flight(const P *xr, int c0, int nv, P *v)
{
#pragma unroll
	for (int u = 0; u < UNROLL; u++)
		if (c0 + u * GROUP < nv)
			v[u] = load_x(xr + c0 + u * GROUP);
}

/*
 * The sum of v over the GROUP threads of a row, returned to each of
 * them.  Every thread of the block calls it (it has barriers).
 */
static __device__ float
group_sum(float v)
{
	__shared__ float part[THREADS];
	int t = threadIdx.x, lane = t % GROUP, base = t - lane;

	if constexpr (REDUCE == 0) {
		part[t] = v;
		__syncthreads();
		for (int s = GROUP / 2; s > 0; s /= 2) {
			if (lane < s)
				part[t] += part[t + s];
			__syncthreads();
		}
		return part[base];
	} else {
		/* shuffles within the warp (or the group, where it is smaller) */
		for (int o = (GROUP < WARP ? GROUP : WARP) / 2; o > 0; o /= 2)
			v += __shfl_xor_sync(0xffffffffu, v, o);
		if constexpr (GROUP <= WARP)
			return v;
		/* then a partial sum per warp of the group, through shared memory */
		if (t % WARP == 0)
			part[t / WARP] = v;
		__syncthreads();
		v = 0;
		for (int i = 0; i < GROUP / WARP; i++)
			v += part[base / WARP + i];
		return v;
	}
}

/*
 * The rows of x as loads of V bf16: the row's first element is aligned
 * to V (cols is a multiple of V and x, w, y are aligned), nv loads a row.
 */
template <int V>
static __global__ void __launch_bounds__(THREADS)
rmsnorm_rows(int rows, int cols, const __nv_bfloat16 *x,
    const __nv_bfloat16 *w, __nv_bfloat16 *y, float eps)
{
	typedef typename pack<V>::t P;
	const int lane = threadIdx.x % GROUP, nv = cols / V;
	/* size_t: rows * cols may not fit in an int */
	const size_t row = (size_t)blockIdx.x * ROWS + threadIdx.x / GROUP;
	const int live = row < (size_t)rows;
	const P *xr = (const P *)(x + row * cols), *wv = (const P *)w;
	P *yr = (P *)(y + row * cols);
	/* the whole row in registers, when REGS loads a thread hold it */
	const int hold = REGS > 0 && nv <= REGS * GROUP;
	P held[REGS > 0 ? REGS : 1];
	float ss = 0, inv;

	if (live && hold) {
#pragma unroll
		for (int i = 0; i < REGS; i++) {
			int c = lane + i * GROUP;

			if (c < nv) {
				held[i] = load_x(xr + c);
				ss += sum_squares<V>(held[i]);
			}
		}
	} else if (live) {
		for (int c0 = lane; c0 < nv; c0 += GROUP * UNROLL) {
			P v[UNROLL];

			load_in_flight(xr, c0, nv, v);
#pragma unroll
			for (int u = 0; u < UNROLL; u++)
				if (c0 + u * GROUP < nv)
					ss += sum_squares<V>(v[u]);
		}
	}
	inv = rsqrtf(group_sum(ss) / cols + eps);
	if (!live)
		return;
	if (hold) {
#pragma unroll
		for (int i = 0; i < REGS; i++) {
			int c = lane + i * GROUP;

			if (c < nv)
				store_y(yr + c, scale<V>(held[i], __ldg(wv + c), inv));
		}
		return;
	}
	for (int c0 = lane; c0 < nv; c0 += GROUP * UNROLL) {
		P v[UNROLL];

		load_in_flight(xr, c0, nv, v);
#pragma unroll
		for (int u = 0; u < UNROLL; u++)
			if (c0 + u * GROUP < nv)
				store_y(yr + c0 + u * GROUP,
				    scale<V>(v[u], __ldg(wv + c0 + u * GROUP), inv));
	}
}

static int
aligned(const void *p, size_t bytes)
{
	return (uintptr_t)p % bytes == 0;
}

void
rmsnorm(int rows, int cols, const __nv_bfloat16 *x, const __nv_bfloat16 *w,
    __nv_bfloat16 *y, float eps)
{
	/* gridDim.x may be up to 2^31 - 1, so any int rows is one launch */
	int blocks = (rows + ROWS - 1) / ROWS;

	/* rows that do not start on a VEC boundary take 2-byte loads */
	if (VEC > 1 && cols % VEC == 0 && aligned(x, 2 * VEC) &&
	    aligned(w, 2 * VEC) && aligned(y, 2 * VEC))
		rmsnorm_rows<VEC><<<blocks, THREADS>>>(rows, cols, x, w, y, eps);
	else
		rmsnorm_rows<1><<<blocks, THREADS>>>(rows, cols, x, w, y, eps);
}
