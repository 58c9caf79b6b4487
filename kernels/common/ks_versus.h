/*
 * ks_versus.h: a side-by-side bench's statistics (ks_versus.c).  The
 * harness (ks_harness.c) times a candidate and its base in rounds of one
 * call each, in an order drawn per round; these are the two kernels'
 * ratio per shape and over the shapes, with 95 % intervals.
 */
#ifndef KS_VERSUS_H
#define KS_VERSUS_H

#ifdef __cplusplus
extern "C" {
#endif

/* one shape's rounds: cand[i] and base[i] (seconds) were timed in round i */
struct ks_versus_shape {
	const double *cand, *base;
	long rounds;
	/* out: the medians, cand_median / base_median, and its bootstrap 95 % interval */
	double cand_median, base_median, ratio, lo, hi;
};

struct ks_versus_total {
	double ratio, lo, hi;	/* the geometric mean of the shapes' ratios, and its 95 % interval */
	int shapes;
};

/*
 * Fills each shape's ratio and interval and the total: a bootstrap of
 * 400 resamples of each shape's rounds (pairs kept together, a fixed
 * random stream: the same samples give the same figures).  0; -1 when a
 * shape has no rounds or memory ran out.
 */
int ks_versus_stats(struct ks_versus_shape *s, int nshapes, struct ks_versus_total *total);

#ifdef __cplusplus
}
#endif

#endif
