/*
 * fp8harness.cc - the device kernels of fp8-mm's harness
 * (kernels/fp8-mm/harness.hip: the draw, the reference, the comparison,
 * the sample's gather) run on the CPU through tests/unit/gpu-on-cpu, each
 * against what the host computes: the draw gives the host's bytes and
 * scales and counts a changed byte; the reference is the host's double
 * within the harness's own tolerance; the comparison, reduced per block
 * and merged, is ks_check_f32's verdict on the same elements; the gather
 * takes the elements named.  Built with ks_harness.c (its main renamed)
 * and the judge it calls (ks_judge.c, ks_versus.c).
 * Prints one line per failed case and "N cases, N failed".
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

/* the harness's device part only: its host part drives a GPU runtime */
#define __HIP_DEVICE_COMPILE__ 1
#include "harness.hip"
#undef __HIP_DEVICE_COMPILE__
#include "verdict.h"

/* ks_harness.c names a problem; these tests call none of it */
extern "C" const struct ks_problem ks_problem = {};

/* the harness's comparison, as ks_fp8mm_compare_all runs it, against ks_check_f32 */
static void
compare_case(const char *what, const std::vector<uint16_t> &c, const std::vector<float> &ref)
{
	size_t n = c.size(), blocks = (n + COMPARE_THREADS - 1) / COMPARE_THREADS, b, i;
	std::vector<struct ks_check_part> parts(COMPARE_BLOCKS);
	std::vector<float> got(n), want(n);
	struct ks_check_part all;
	struct ks_check gpu, host;
	char name[200];

	if (blocks > COMPARE_BLOCKS)
		blocks = COMPARE_BLOCKS;
	KS_LAUNCH(ks_fp8mm_compare, (unsigned)blocks, COMPARE_THREADS, c.data(), ref.data(), n,
	    2e-2, 1e-3, parts.data());
	ks_check_part_init(&all);
	for (b = 0; b < blocks; b++)
		ks_check_part_merge(&all, &parts[b]);
	ks_check_from_part(&all, n, ks_bf16_to_f32(c[0]), &gpu);
	for (i = 0; i < n; i++) {
		got[i] = ks_bf16_to_f32(c[i]);
		want[i] = ks_bf16_to_f32(ks_f32_to_bf16(ref[i]));
	}
	ks_check_f32(got.data(), want.data(), n, 2e-2, 1e-3, &host);
	snprintf(name, sizeof(name), "compare, %s: ks_check_f32's verdict (ok %d/%d, bad %zu/%zu, worst %zu/%zu)",
	    what, gpu.ok, host.ok, gpu.bad, host.bad, gpu.worst_index, host.worst_index);
	expect(name, same_verdict(&gpu, &host));
}

int
main(void)
{
	const int m = 33, n = 140, k = 256, kblocks = k / FP8_MM_BLOCK_K;
	const int scale_n = fp8_mm_reference_scale_n(n);
	const struct fp8_mm_draw_table *t = fp8_mm_reference_draw_table();
	const uint64_t seed = 20251202;
	std::vector<uint8_t> a((size_t)m * k), b((size_t)n * k);
	std::vector<float> as((size_t)m * kblocks), bs((size_t)scale_n * kblocks), ref((size_t)m * n);
	unsigned long long changed = 0;
	size_t x, wrong = 0;
	double want, mag;

	/* the draw, as ks_fp8mm_draw_one launches it, and the host's numbers of the same streams */
	KS_LAUNCH(ks_fp8mm_draw, 4, DRAW_THREADS, t, ks_seed_derive(seed, 0), a.size(), a.data(), NULL);
	KS_LAUNCH(ks_fp8mm_draw, 4, DRAW_THREADS, t, ks_seed_derive(seed, 1), b.size(), b.data(), NULL);
	KS_LAUNCH(ks_fp8mm_draw, 1, DRAW_THREADS, (const struct fp8_mm_draw_table *)NULL,
	    ks_seed_derive(seed, 2), as.size(), as.data(), NULL);
	KS_LAUNCH(ks_fp8mm_draw, 1, DRAW_THREADS, (const struct fp8_mm_draw_table *)NULL,
	    ks_seed_derive(seed, 3), bs.size(), bs.data(), NULL);
	for (x = 0; x < a.size(); x++)
		wrong += a[x] != fp8_mm_reference_draw(ks_rand_at(ks_seed_derive(seed, 0), x));
	for (x = 0; x < as.size(); x++)
		wrong += as[x] != ks_fp8mm_normal_at(ks_seed_derive(seed, 2), x);
	expect("draw: the bytes and scales the host draws from the same streams", wrong == 0);

	/* drawn again over a kernel's write: the changed element counted */
	as[5] += 1;
	KS_LAUNCH(ks_fp8mm_draw, 1, DRAW_THREADS, (const struct fp8_mm_draw_table *)NULL,
	    ks_seed_derive(seed, 2), as.size(), as.data(), &changed);
	expect("draw: one changed scale counted", changed == 1);
	as[5] -= 1;

	/* the reference: every element within the harness's REF_RTOL of the host's double */
	KS_LAUNCH(ks_fp8mm_reference, dim3((n + REF_TILE - 1) / REF_TILE, (m + REF_TILE - 1) / REF_TILE),
	    dim3(REF_TILE, REF_TILE), m, n, k, a.data(), b.data(), as.data(), bs.data(), ref.data());
	wrong = 0;
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			want = fp8_mm_reference_element(m, n, k, a.data(), b.data(), as.data(), bs.data(), i, j, &mag);
			wrong += !(fabs(ref[(size_t)i * n + j] - want) <= REF_RTOL * mag + 1e-30);
		}
	expect("reference: every element the host's, two scale blocks, a partial b_scale block", wrong == 0);

	/* the comparison */
	std::vector<uint16_t> c(ref.size());
	for (x = 0; x < c.size(); x++)
		c[x] = ks_f32_to_bf16(ref[x]);
	compare_case("c the reference", c, ref);
	c[4000] = ks_f32_to_bf16(ref[4000] * 3 + 1);
	c[77] = ks_f32_to_bf16(ref[77] * 3 + 1);
	compare_case("two wrong elements", c, ref);
	c[2100] = 0xffff;
	compare_case("a NaN", c, ref);
	for (x = 0; x < c.size(); x++)
		c[x] = ks_f32_to_bf16(1e-4f);
	compare_case("a constant output", c, ref);

	/* the gather: c and the reference at rows x columns */
	int rows[] = { 0, 32, 7 }, cols[] = { 0, 139, 128, 5 };
	uint16_t g[12];
	float w[12];
	for (x = 0; x < c.size(); x++)
		c[x] = (uint16_t)x;
	KS_LAUNCH(ks_fp8mm_gather, 1, 256, c.data(), ref.data(), n, rows, 3, cols, 4, g, w);
	wrong = 0;
	for (x = 0; x < 12; x++) {
		size_t e = (size_t)rows[x / 4] * n + cols[x % 4];

		wrong += g[x] != c[e] || w[x] != ref[e];
	}
	expect("gather: rows by columns, in order", wrong == 0);

	return report();
}
