/*
 * seed.c: the generation-0 sgemm, C = A B, row major.
 *
 * Correct for any M, N, K >= 1, parallel over blocks of rows of C, and
 * left untuned on purpose: the lines marked ks-tune are the knobs, each
 * followed by the values it may take.  LOOP_ORDER picks the algorithm:
 * 0 and 1 loop over BM x BN blocks of C, BK deep (a dot product per
 * element, or rows of B scaled into rows of C); 2 is the register-blocked
 * product of BLAS libraries: KC = BK deep panels, MC = BM rows of A and
 * NC = 4 BN columns of B per cache block, packed (PACK) into contiguous
 * panels, and a micro-kernel that keeps an MR x (NV vectors of VW floats)
 * tile of C in registers, UNROLL steps of k at a time.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define BM 16		/* ks-tune: 8 16 32 64 128 */
#define BN 64		/* ks-tune: 16 32 64 128 256 */
#define BK 32		/* ks-tune: 16 32 64 128 256 */
#define UNROLL 1	/* ks-tune: 1 2 4 8 */
#define LOOP_ORDER 0	/* ks-tune: 0 1 2 */
#define MR 6		/* ks-tune: 1 2 4 6 8 */
#define NV 2		/* ks-tune: 1 2 3 4 */
#define VW 8		/* ks-tune: 4 8 16 */
#define PACK 0		/* ks-tune: 0 1 */

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

#if LOOP_ORDER == 0 || LOOP_ORDER == 2
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

/* LOOP_ORDER 0 and 1: BM x BN blocks of C, BK deep, over threads by rows */
static void
blocks(int M, int N, int K, const float *A, const float *B, float *C)
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

/* ---- LOOP_ORDER 2: the register-blocked product ---- */

#define NR (NV * VW)	/* the micro-tile's columns */

typedef float vec __attribute__((vector_size(VW * sizeof(float))));

static inline vec
vload(const float *p)
{
	vec v;

	memcpy(&v, p, sizeof v);
	return v;
}

static inline void
vstore(float *p, vec v)
{
	memcpy(p, &v, sizeof v);
}

/*
 * The MR x NR tile at c (row length ldc) from kc steps of a (element i of
 * step k at a[k * as + i * ai]) and b (step k at b + k * bs): stored, or
 * added to c when add.  Fused multiply-adds: -std=c11 alone leaves
 * a * b + c unfused.
 */
__attribute__((optimize("fp-contract=fast"))) static void
micro(int kc, const float *restrict a, int as, int ai, const float *restrict b, int bs, float *restrict c, int ldc,
    int add)
{
	vec acc[MR][NV];

	for (int i = 0; i < MR; i++)
		for (int v = 0; v < NV; v++)
			acc[i][v] = (vec){ 0 };
	UNROLL_LOOP
	for (int k = 0; k < kc; k++) {
		vec bv[NV];

		for (int v = 0; v < NV; v++)
			bv[v] = vload(b + (size_t)k * bs + v * VW);
		for (int i = 0; i < MR; i++) {
			vec ak = (vec){ 0 } + a[(size_t)k * as + (size_t)i * ai];

			for (int v = 0; v < NV; v++)
				acc[i][v] += ak * bv[v];
		}
	}
	for (int i = 0; i < MR; i++)
		for (int v = 0; v < NV; v++) {
			float *p = c + (size_t)i * ldc + v * VW;

			vstore(p, add ? vload(p) + acc[i][v] : acc[i][v]);
		}
}

/* B[kc][nc] (row length ldb) into panels of NR columns, step-major, padded with zeros */
static void
pack_b(int kc, int nc, const float *B, int ldb, float *bp)
{
	for (int j0 = 0; j0 < nc; j0 += NR) {
		int nr = MIN(NR, nc - j0);

		for (int k = 0; k < kc; k++) {
			float *d = bp + (size_t)j0 * kc + (size_t)k * NR;

			memcpy(d, B + (size_t)k * ldb + j0, (size_t)nr * sizeof(float));
			memset(d + nr, 0, (size_t)(NR - nr) * sizeof(float));
		}
	}
}

/* A[mc][kc] (row length lda) into panels of MR rows, step-major, padded with zeros */
static void
pack_a(int mc, int kc, const float *A, int lda, float *ap)
{
	for (int i0 = 0; i0 < mc; i0 += MR) {
		int mr = MIN(MR, mc - i0);

		for (int k = 0; k < kc; k++) {
			float *d = ap + (size_t)i0 * kc + (size_t)k * MR;

			for (int i = 0; i < MR; i++)
				d[i] = i < mr ? A[(size_t)(i0 + i) * lda + k] : 0;
		}
	}
}

/* an mr x nr edge of C, straight from A and B (stored, or added when add) */
static void
edge(int mr, int nr, int kc, const float *A, int lda, const float *B, int ldb, float *C, int ldc, int add)
{
	for (int i = 0; i < mr; i++)
		for (int j = 0; j < nr; j++) {
			float s = add ? C[(size_t)i * ldc + j] : 0;

			for (int k = 0; k < kc; k++)
				s += A[(size_t)i * lda + k] * B[(size_t)k * ldb + j];
			C[(size_t)i * ldc + j] = s;
		}
}

/*
 * One mc x nc block of C from kc steps: packed, every tile by the
 * micro-kernel (an edge tile through a scratch tile); else straight from
 * A and B, whole tiles by the micro-kernel and the edges in scalar code.
 */
static void
cache_block(int mc, int nc, int kc, const float *A, int lda, const float *B, int ldb, const float *bp, float *ap,
    float *C, int ldc, int add)
{
	float tile[MR * NR];

	if (PACK)
		pack_a(mc, kc, A, lda, ap);
	for (int j0 = 0; j0 < nc; j0 += NR)
		for (int i0 = 0; i0 < mc; i0 += MR) {
			int mr = MIN(MR, mc - i0), nr = MIN(NR, nc - j0);
			float *c = C + (size_t)i0 * ldc + j0;

			if (!PACK && (mr < MR || nr < NR)) {
				edge(mr, nr, kc, A + (size_t)i0 * lda, lda, B + j0, ldb, c, ldc, add);
			} else if (!PACK) {
				micro(kc, A + (size_t)i0 * lda, 1, lda, B + j0, ldb, c, ldc, add);
			} else if (mr == MR && nr == NR) {
				micro(kc, ap + (size_t)i0 * kc, MR, 1, bp + (size_t)j0 * kc, NR, c, ldc, add);
			} else {
				micro(kc, ap + (size_t)i0 * kc, MR, 1, bp + (size_t)j0 * kc, NR, tile, NR, 0);
				for (int i = 0; i < mr; i++)
					for (int j = 0; j < nr; j++)
						c[(size_t)i * ldc + j] = (add ? c[(size_t)i * ldc + j] : 0) + tile[i * NR + j];
			}
		}
}

/* round n up to a multiple of m */
static int
round_up(int n, int m)
{
	return (n + m - 1) / m * m;
}

static void
register_blocked(int M, int N, int K, const float *A, const float *B, float *C)
{
	int kcb = BK, mcb = round_up(BM, MR), ncb = round_up(4 * BN, NR);
	float *bp = PACK ? aligned_alloc(64, (size_t)round_up(ncb * kcb, 16) * sizeof(float)) : NULL;

	for (int j0 = 0; j0 < N; j0 += ncb) {
		int nc = MIN(ncb, N - j0);

		for (int k0 = 0; k0 < K; k0 += kcb) {
			int kc = MIN(kcb, K - k0);
			const float *b = B + (size_t)k0 * N + j0;

			if (PACK)
				pack_b(kc, nc, b, N, bp);
			#pragma omp parallel
			{
				float *ap = PACK ? aligned_alloc(64, (size_t)round_up(mcb * kcb, 16) * sizeof(float)) : NULL;

				#pragma omp for schedule(static)
				for (int i0 = 0; i0 < M; i0 += mcb)
					cache_block(MIN(mcb, M - i0), nc, kc, A + (size_t)i0 * K + k0, K, b, N, bp, ap,
					    C + (size_t)i0 * N + j0, N, k0 > 0);
				free(ap);
			}
		}
	}
	free(bp);
}

void
sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
	if (LOOP_ORDER == 2)
		register_blocked(M, N, K, A, B, C);
	else
		blocks(M, N, K, A, B, C);
}
