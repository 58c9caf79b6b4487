/*
 * ks_versus.hip: ks_versus.c for HIP runners (hipcc compiles every file
 * as C++ and refuses a .c; see ks_harness.hip).  Host code only.
 */
#ifndef __HIP_DEVICE_COMPILE__
#include "ks_versus.c"
#endif
