/* reference.h: the trusted sgemm the candidate is compared with */
#ifndef SGEMM_REFERENCE_H
#define SGEMM_REFERENCE_H

/* C = A B, row major, A is M x K, B is K x N, C is M x N */
void sgemm_reference(int M, int N, int K, const float *A, const float *B,
    float *C);

#endif
