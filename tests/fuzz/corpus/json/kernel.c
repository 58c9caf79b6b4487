#include <cblas.h>
/* pthread_create( */
void sgemm(int M) { const char *s = "main("; }
