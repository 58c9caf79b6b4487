/*
 * expect.h - what the unit tests share: expect(), which counts a case and
 * prints it when it fails, and report(), the last line ("N cases, N
 * failed") and the exit status (1 when any failed).
 */
#ifndef KS_TEST_EXPECT_H
#define KS_TEST_EXPECT_H

#include <stdio.h>

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
report(void)
{
	printf("%d cases, %d failed\n", cases, failed);
	return failed != 0;
}

#endif
