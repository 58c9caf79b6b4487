/*
 * checkpart.c - unit tests of ks_check_part (kernels/common/ks_harness.h):
 * a GPU harness compares an output in parts, one per thread, merged per
 * block and then on the host in any order; the verdict must be the one
 * ks_check_f32 gives over the whole output.  Built with ks_harness.c, its
 * main renamed, and the judge it calls (ks_judge.c, ks_versus.c).  Prints
 * one line per failed case and "N cases, N failed"; exits 1 when any
 * failed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_harness.h"
#include "verdict.h"

/* ks_harness.c names a problem; these tests call none of it */
const struct ks_problem ks_problem;

/*
 * The verdict as a GPU harness reaches it: threads of a block take every
 * threads-th element of the grid's stride, blocks are merged from the
 * last to the first (any order must do).
 */
static void
check_in_parts(const float *got, const float *want, size_t n, int blocks,
    int threads, struct ks_check *res)
{
	struct ks_check_part all, block, mine;
	size_t i, step = (size_t)blocks * threads;
	int b, t;

	ks_check_part_init(&all);
	for (b = blocks - 1; b >= 0; b--) {
		ks_check_part_init(&block);
		for (t = threads - 1; t >= 0; t--) {
			ks_check_part_init(&mine);
			for (i = (size_t)b * threads + t; i < n; i += step)
				ks_check_part_add(&mine, i, got[i], want[i], got[0],
				    want[0], 1e-2, 1e-3);
			ks_check_part_merge(&block, &mine);
		}
		ks_check_part_merge(&all, &block);
	}
	ks_check_from_part(&all, n, n ? got[0] : 0, res);
}

static void
compare(const char *what, const float *got, const float *want, size_t n)
{
	static const int shapes[][2] = { {1, 1}, {3, 4}, {7, 32}, {64, 256} };
	struct ks_check whole, parts;
	char name[200];
	size_t s;

	ks_check_f32(got, want, n, 1e-2, 1e-3, &whole);
	for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		check_in_parts(got, want, n, shapes[s][0], shapes[s][1], &parts);
		snprintf(name, sizeof(name), "%s, %d blocks of %d threads: the "
		    "verdict of ks_check_f32", what, shapes[s][0], shapes[s][1]);
		expect(name, same_verdict(&whole, &parts));
	}
}

int
main(void)
{
	enum { N = 5000 };
	static float got[N], want[N];
	struct ks_check res;
	size_t i;

	srand(7);
	for (i = 0; i < N; i++) {
		want[i] = (float)(rand() % 2000 - 1000) / 64;
		got[i] = want[i] * (1 + (float)(rand() % 100 - 50) * 1e-4f);
	}
	compare("all within tolerance", got, want, N);

	got[4000] = want[4000] + 5;
	got[123] = want[123] + 5;	/* the same ratio, earlier: the worst */
	got[3001] = want[3001] * 2 + 1;
	compare("three out of tolerance", got, want, N);
	ks_check_f32(got, want, N, 1e-2, 1e-3, &res);
	expect("three out of tolerance: three bad", res.bad == 3 && !res.ok);

	got[2500] = NAN;
	compare("a NaN", got, want, N);
	ks_check_f32(got, want, N, 1e-2, 1e-3, &res);
	expect("a NaN: the worst, and the largest error NaN", res.worst_index == 2500 &&
	    isinf(res.worst_ratio) && isnan(res.max_abs_err));

	for (i = 0; i < N; i++)
		got[i] = NAN;
	compare("all NaN", got, want, N);
	ks_check_f32(got, want, N, 1e-2, 1e-3, &res);
	expect("all NaN: element 0 the worst", res.worst_index == 0 && res.bad == N);

	/* a constant output within a loose tolerance still fails */
	for (i = 0; i < N; i++) {
		want[i] = (float)(i % 3) * 1e-4f;
		got[i] = 1e-4f;
	}
	compare("a constant output", got, want, N);
	ks_check_f32(got, want, N, 1e-2, 1e-3, &res);
	expect("a constant output: named", !res.ok && res.bad == 0 &&
	    strstr(res.reason, "a constant output") != NULL);

	for (i = 0; i < N; i++)
		want[i] = got[i];
	compare("a constant output of a constant reference", got, want, N);
	ks_check_f32(got, want, N, 1e-2, 1e-3, &res);
	expect("a constant reference: a constant output passes", res.ok);

	compare("no elements", got, want, 0);
	compare("one element", got, want, 1);

	return report();
}
