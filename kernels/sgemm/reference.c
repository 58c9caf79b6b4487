/*
 * reference.c: sgemm as plainly as it can be written, accumulating in
 * double so that its own rounding is far below the tolerance the
 * candidate is held to.
 */
#include <stddef.h>

#include "reference.h"

#define STRIP	256	/* columns of C accumulated at once, on the stack */

void
sgemm_reference(int M, int N, int K, const float *A, const float *B,
    float *C)
{
	double acc[STRIP];
	size_t i, j, k, j0, w;

	/* i-k-j over a strip of columns: B is read along its rows */
	for (i = 0; i < (size_t)M; i++) {
		for (j0 = 0; j0 < (size_t)N; j0 += STRIP) {
			w = (size_t)N - j0 < STRIP ? (size_t)N - j0 : STRIP;
			for (j = 0; j < w; j++)
				acc[j] = 0;
			for (k = 0; k < (size_t)K; k++) {
				double a = A[i * K + k];
				const float *b = B + k * N + j0;

				for (j = 0; j < w; j++)
					acc[j] += a * b[j];
			}
			for (j = 0; j < w; j++)
				C[i * N + j0 + j] = (float)acc[j];
		}
	}
}
