/*
 * rmsseed.cc - rmsnorm's seed kernel (KERNEL, a copy with its knobs set and
 * its launches written KS_LAUNCH) run on the CPU through
 * tests/unit/gpu-on-cpu, every element of y compared with the host's
 * reference within the problem's tolerance.  Shapes whose rows leave a
 * partial block of ROWS, whose columns take the 2-byte path (not a
 * multiple of VEC) or the vector path, fit the registers or not.  Prints
 * one line per shape and "N shapes, N failed"; exits 1 when any failed.
 */
#include <math.h>
#include <stdio.h>

#include "ks_harness.h"
#include "reference.h"

#include KERNEL

#define RTOL	1.6e-2	/* problem.json's */
#define ATOL	1e-5
#define EPS	1e-6f

static int
run_shape(int rows, int cols, uint64_t seed)
{
	size_t n = (size_t)rows * cols, x, bad = 0;
	std::vector<uint16_t> in(n), w(cols), out(n, 0xffff);
	std::vector<float> want(n);

	for (x = 0; x < n; x++)
		in[x] = ks_f32_to_bf16(ks_uniform_at(seed, x, -4, 4));
	for (x = 0; x < (size_t)cols; x++)
		w[x] = ks_f32_to_bf16(ks_uniform_at(seed + 1, x, -2, 2));
	rmsnorm(rows, cols, (const __nv_bfloat16 *)in.data(), (const __nv_bfloat16 *)w.data(),
	    (__nv_bfloat16 *)out.data(), EPS);
	rmsnorm_reference(rows, cols, in.data(), w.data(), EPS, want.data());
	for (x = 0; x < n; x++) {
		double got = ks_bf16_to_f32(out[x]);

		if (!(fabs(got - want[x]) <= ATOL + RTOL * fabs(want[x])) && bad++ == 0)
			printf("%dx%d: y[%zu][%zu] = %.9g, want %.9g\n", rows, cols,
			    x / cols, x % cols, got, (double)want[x]);
	}
	printf("%dx%d: %zu of %zu elements out of tolerance\n", rows, cols, bad, n);
	return bad != 0;
}

int
main(void)
{
	static const int shapes[][2] = { {5, 8}, {7, 1000}, {3, 4096}, {9, 2056}, {2, 16392}, {70, 16} };
	int failed = 0, s, count = sizeof(shapes) / sizeof(shapes[0]);

	for (s = 0; s < count; s++)
		failed += run_shape(shapes[s][0], shapes[s][1], 2000 + s);
	printf("%d shapes, %d failed\n", count, failed);
	return failed != 0;
}
