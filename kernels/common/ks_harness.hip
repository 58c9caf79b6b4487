/*
 * ks_harness.hip: the shared harness, for HIP targets.  hipcc compiles
 * every file of its command line as C++ (it adds -std=c++11 even to a .c
 * file, which clang then refuses), so HIP runners take ks_harness.c
 * through this file; ks_harness.c is written to be both C and C++.  It is
 * host code only: the device pass sees an empty file.
 */
#ifndef __HIP_DEVICE_COMPILE__
#include "ks_harness.c"
#endif
