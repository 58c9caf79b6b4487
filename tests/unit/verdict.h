/*
 * verdict.h - what the unit tests of the runner's check share
 * (checkpart.c, fp8harness.cc): expect.h, and same_verdict(), two struct
 * ks_check equal in every field, NaN equal to NaN.
 */
#ifndef KS_TEST_VERDICT_H
#define KS_TEST_VERDICT_H

#include <math.h>
#include <string.h>

#include "expect.h"
#include "ks_harness.h"

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

#endif
