/*
 * verdict.h - what the unit tests of the runner's check share
 * (checkpart.c, fp8harness.cc): expect(), which counts a case and prints
 * it when it fails; same_verdict(), two struct ks_check equal in every
 * field, NaN equal to NaN; and report(), the last line and exit status.
 */
#ifndef KS_TEST_VERDICT_H
#define KS_TEST_VERDICT_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ks_harness.h"

static int cases, failed;

static void
expect(const char *what, int ok)
{
	cases++;
	if (!ok) {
		failed++;
		printf("FAIL %s\n", what);
	}
}

static int
same_double(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

static int
same_verdict(const struct ks_check *a, const struct ks_check *b)
{
	return a->ok == b->ok && a->checked == b->checked && a->bad == b->bad &&
	    a->worst_index == b->worst_index && same_double(a->worst_got, b->worst_got) &&
	    same_double(a->worst_want, b->worst_want) &&
	    same_double(a->worst_ratio, b->worst_ratio) &&
	    same_double(a->max_abs_err, b->max_abs_err) &&
	    strcmp(a->reason, b->reason) == 0;
}

/* "N cases, N failed"; the exit status: 1 when any failed */
static int
report(void)
{
	printf("%d cases, %d failed\n", cases, failed);
	return failed != 0;
}

#endif
