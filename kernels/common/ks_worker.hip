/*
 * ks_worker.hip: ks_worker.c for HIP targets, as ks_harness.hip is for
 * ks_harness.c (hipcc compiles every file as C++ and refuses a .c).  Host
 * code only: the device pass sees an empty file.
 */
#ifndef __HIP_DEVICE_COMPILE__
#include "ks_worker.c"
#endif
