/*
 * ks_versus.c: the statistics of a side-by-side bench (ks_versus.h).
 *
 * A candidate and its base are called in rounds, each round one call of
 * each in an order drawn at random, each call on fresh inputs; what two
 * kernels' times share within a round (the machine's load, its clocks,
 * the device's temperature) cancels in their ratio.  The ratio is that
 * of the two medians, as the score is the median; its interval is a
 * bootstrap over the rounds, each round's pair kept together.
 *
 * Host code only, and both C and C++ (a HIP runner takes it through
 * ks_versus.hip).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ks_versus.h"

#define RESAMPLES	400	/* bootstrap resamples */
#define LO_RANK		10	/* the 2.5th percentile of RESAMPLES: rank 10 of 400 */
#define HI_RANK		389	/* and the 97.5th */

/* a fixed stream, so that the same samples always give the same interval */
static uint64_t
next_random(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static void
swap(double *a, double *b)
{
	double t = *a;

	*a = *b;
	*b = t;
}

/* the k-th smallest of t[0..n), which is reordered (Hoare's selection) */
static double
select_kth(double *t, long n, long k)
{
	long lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = t[lo + (hi - lo) / 2];
		long i = lo, j = hi;

		while (i <= j) {
			while (t[i] < pivot)
				i++;
			while (t[j] > pivot)
				j--;
			if (i <= j)
				swap(&t[i++], &t[j--]);
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return t[k];
}

/* the median of t[0..n), reordered; as the harness's (the mean of the two middle ones for even n) */
static double
median_reordering(double *t, long n)
{
	double hi = select_kth(t, n, n / 2), lo;

	if (n % 2)
		return hi;
	lo = t[0];
	for (long i = 1; i < n / 2; i++)
		if (t[i] > lo)
			lo = t[i];
	return (lo + hi) / 2;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* the ratio of medians of one resample of s's rounds, drawn into the scratch arrays */
static double
resampled_ratio(const struct ks_versus_shape *s, double *a, double *b, uint64_t *rng)
{
	for (long i = 0; i < s->rounds; i++) {
		long r = (long)(next_random(rng) % (uint64_t)s->rounds);

		a[i] = s->cand[r];
		b[i] = s->base[r];
	}
	return median_reordering(a, s->rounds) / median_reordering(b, s->rounds);
}

static long
most_rounds(const struct ks_versus_shape *s, int n)
{
	long most = 0;

	for (int i = 0; i < n; i++)
		if (s[i].rounds > most)
			most = s[i].rounds;
	return most;
}

int
ks_versus_stats(struct ks_versus_shape *s, int nshapes, struct ks_versus_total *total)
{
	long most = most_rounds(s, nshapes);
	double *a, *b, *logs, *boot;
	uint64_t rng = UINT64_C(0x76657273);	/* "vers" */
	int i, k;

	memset(total, 0, sizeof *total);
	if (nshapes <= 0 || most <= 0)
		return -1;
	for (i = 0; i < nshapes; i++)
		if (s[i].rounds <= 0)
			return -1;
	a = (double *)malloc(most * sizeof *a);
	b = (double *)malloc(most * sizeof *b);
	logs = (double *)calloc((size_t)RESAMPLES * nshapes, sizeof *logs);
	boot = (double *)malloc(RESAMPLES * sizeof *boot);
	if (!a || !b || !logs || !boot) {
		free(a);
		free(b);
		free(logs);
		free(boot);
		return -1;
	}
	for (i = 0; i < nshapes; i++) {
		memcpy(a, s[i].cand, s[i].rounds * sizeof *a);
		memcpy(b, s[i].base, s[i].rounds * sizeof *b);
		s[i].cand_median = median_reordering(a, s[i].rounds);
		s[i].base_median = median_reordering(b, s[i].rounds);
		s[i].ratio = s[i].cand_median / s[i].base_median;
		total->ratio += log(s[i].ratio) / nshapes;
		for (k = 0; k < RESAMPLES; k++) {
			boot[k] = resampled_ratio(&s[i], a, b, &rng);
			logs[(size_t)k * nshapes + i] = log(boot[k]);
		}
		qsort(boot, RESAMPLES, sizeof *boot, cmp_double);
		/* (with a handful of rounds the resamples can all fall to one side of the estimate: it is kept inside) */
		s[i].lo = fmin(boot[LO_RANK], s[i].ratio);
		s[i].hi = fmax(boot[HI_RANK], s[i].ratio);
	}
	/* the geometric mean over the shapes, and its interval from the same resamples, shape by shape */
	total->ratio = exp(total->ratio);
	for (k = 0; k < RESAMPLES; k++) {
		double sum = 0;

		for (i = 0; i < nshapes; i++)
			sum += logs[(size_t)k * nshapes + i];
		boot[k] = exp(sum / nshapes);
	}
	qsort(boot, RESAMPLES, sizeof *boot, cmp_double);
	total->lo = fmin(boot[LO_RANK], total->ratio);
	total->hi = fmax(boot[HI_RANK], total->ratio);
	total->shapes = nshapes;
	free(a);
	free(b);
	free(logs);
	free(boot);
	return 0;
}
