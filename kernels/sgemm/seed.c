/*
 * seed.c: the generation-0 sgemm, C = A B, row major.
 *
 * Correct for any M, N, K >= 1, parallel over blocks of rows of C, and
 * left untuned on purpose: the lines marked ks-tune are the knobs, each
 * followed by the values it may take.
 */
#include <stddef.h>

#define BM 16		/* ks-tune: 8 16 32 64 128 */
#define BN 64		/* ks-tune: 16 32 64 128 256 */
#define BK 32		/* ks-tune: 16 32 64 128 256 */
#define UNROLL 1	/* ks-tune: 1 2 4 8 */
#define LOOP_ORDER 0	/* ks-tune: 0 1 */

/* _Pragma takes a string, so the unroll count is stringified first */
#define STR_(x) #x
#define UNROLL_PRAGMA(n) _Pragma(STR_(GCC unroll n))
#define UNROLL_LOOP UNROLL_PRAGMA(UNROLL)

#define MIN(a, b) ((a) < (b) ? (a) : (b))

/*
 * C[i0..i1)[j0..j1) += A[i0..i1)[k0..k1) B[k0..k1)[j0..j1).
 * ldX is the row length of X.
 */
static void
block(int i0, int i1, int j0, int j1, int k0, int k1,
    const float *restrict A, int lda, const float *restrict B, int ldb,
    float *restrict C, int ldc)
{
	int i, j, k;

#if LOOP_ORDER == 0
	/* a dot product per element; B is walked down a column */
	for (i = i0; i < i1; i++)
		for (j = j0; j < j1; j++) {
			float s = C[(size_t)i * ldc + j];

			UNROLL_LOOP
			for (k = k0; k < k1; k++)
				s += A[(size_t)i * lda + k] *
				    B[(size_t)k * ldb + j];
			C[(size_t)i * ldc + j] = s;
		}
#else
	/* a row of B scaled into a row of C; vectorizes over j */
	for (i = i0; i < i1; i++)
		for (k = k0; k < k1; k++) {
			float a = A[(size_t)i * lda + k];
			const float *restrict b = B + (size_t)k * ldb;
			float *restrict c = C + (size_t)i * ldc;

			UNROLL_LOOP
			for (j = j0; j < j1; j++)
				c[j] += a * b[j];
		}
#endif
}

void
sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
	int i0;

	#pragma omp parallel for schedule(static)
	for (i0 = 0; i0 < M; i0 += BM) {
		int i1 = MIN(i0 + BM, M), i, j, j0, k0;

		for (j0 = 0; j0 < N; j0 += BN) {
			int j1 = MIN(j0 + BN, N);

			for (i = i0; i < i1; i++)
				for (j = j0; j < j1; j++)
					C[(size_t)i * N + j] = 0;
			for (k0 = 0; k0 < K; k0 += BK)
				block(i0, i1, j0, j1, k0, MIN(k0 + BK, K),
				    A, K, B, N, C, N);
		}
	}
}
