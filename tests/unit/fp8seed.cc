/*
 * fp8seed.cc - fp8-mm's seed kernel (KERNEL, a copy with its knobs set and
 * its launches written KS_LAUNCH) run on the CPU through
 * tests/unit/gpu-on-cpu, every element of c compared with the host's
 * reference in double, within the problem's tolerance.  Shapes that leave
 * partial tiles, K of one to seven scale blocks, and a split of K that
 * does not divide it.  Prints one line per shape and "N shapes, N failed";
 * exits 1 when any failed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ks_harness.h"
#include "reference.h"

#include KERNEL

#define RTOL	2e-2	/* problem.json's */
#define ATOL	1e-3

static int
run_shape(int m, int n, int k, uint64_t seed)
{
	int kblocks = k / FP8_MM_BLOCK_K, scale_n = fp8_mm_reference_scale_n(n);
	std::vector<uint8_t> a((size_t)m * k), b((size_t)n * k);
	std::vector<float> as((size_t)m * kblocks), bs((size_t)scale_n * kblocks);
	std::vector<uint16_t> c((size_t)m * n, 0xffff);
	size_t x, bad = 0;
	double mag, want, got;

	for (x = 0; x < a.size(); x++)
		a[x] = fp8_mm_reference_draw(ks_rand_at(seed, x));
	for (x = 0; x < b.size(); x++)
		b[x] = fp8_mm_reference_draw(ks_rand_at(seed + 1, x));
	for (x = 0; x < as.size(); x++)
		as[x] = ks_uniform_at(seed + 2, x, -2, 2);
	for (x = 0; x < bs.size(); x++)
		bs[x] = ks_uniform_at(seed + 3, x, -2, 2);
	fp8_mm(m, n, k, a.data(), b.data(), as.data(), bs.data(), c.data());
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			want = fp8_mm_reference_element(m, n, k, a.data(), b.data(),
			    as.data(), bs.data(), i, j, &mag);
			got = ks_bf16_to_f32(c[(size_t)i * n + j]);
			if (!(fabs(got - want) <= ATOL + RTOL * fabs(want)) && bad++ == 0)
				printf("%dx%dx%d: c[%d][%d] = %.9g, want %.9g\n", m, n, k,
				    i, j, got, want);
		}
	printf("%dx%dx%d: %zu of %zu elements out of tolerance\n", m, n, k, bad,
	    c.size());
	return bad != 0;
}

int
main(void)
{
	static const int shapes[][3] = { {40, 72, 512}, {1, 130, 128}, {33, 9, 896} };
	int failed = 0, s, count = sizeof(shapes) / sizeof(shapes[0]);

	for (s = 0; s < count; s++)
		failed += run_shape(shapes[s][0], shapes[s][1], shapes[s][2], 1000 + s);
	printf("%d shapes, %d failed\n", count, failed);
	return failed != 0;
}
