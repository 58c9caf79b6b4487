#!/usr/bin/env bats
# GPU code run on the CPU, where no GPU is: the seeds of fp8-mm and rmsnorm
# under their knobs' extremes and the settings that change how they work
# (split-K, shuffles, rows per block, vector loads), fp8-mm's hand-written
# variants, and fp8-mm's harness kernels, each held to the host's reference.  tests/unit/gpu-on-cpu is the
# stand-in (a kernel's blocks in turn, each block's threads as POSIX
# threads at a barrier); it says nothing of speed or of what only a GPU's
# memory model would show.

bats_require_minimum_version 1.5.0
load helper/common

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# on_cpu PROBLEM SOURCE [KNOB=VALUE...]: the kernel SOURCE with those knobs set and its launches
# rewritten KS_LAUNCH(kernel, grid, block, args...), built through the stand-in into the problem's
# driver (tests/unit/fp8seed.cc, rmsseed.cc) with its host reference (ref.o), and run
on_cpu() {
	local problem=$1 source=$2 args=() kv ext=${2##*.} driver
	shift 2
	case $problem in
	fp8-mm) driver=fp8seed.cc ;;
	rmsnorm) driver=rmsseed.cc ;;
	esac
	for kv in "$@"; do
		args+=(-e "s/^#define ${kv%=*} [0-9]*/#define ${kv%=*} ${kv#*=}/")
	done
	sed "${args[@]}" -e 's/\([A-Za-z_0-9]*\(<[A-Za-z_0-9]*>\)\{0,1\}\)<<<\([^>]*\)>>>(/KS_LAUNCH(\1, \3, /' \
		"$source" >"k.$ext"
	g++ -std=c++17 -O1 -Wall -Wno-unknown-pragmas -Werror -pthread -I"$KS_ROOT/tests/unit/gpu-on-cpu" \
		-I"$KS_ROOT/kernels/common" -I"$KS_ROOT/kernels/$problem" -I. -DKERNEL="\"k.$ext\"" \
		-x c++ "$KS_ROOT/tests/unit/$driver" -x none ref.o -o on-cpu -lm
	./on-cpu
}

# reference OBJECT PROBLEM: the problem's host reference, compiled
reference() {
	gcc -O2 -c -I"$KS_ROOT/kernels/common" -I"$KS_ROOT/kernels/$2" "$KS_ROOT/kernels/$2/reference.c" -o "$1"
}

@test "fp8-mm's seed computes c right under every way its knobs stage, buffer and split K" {
	reference ref.o fp8-mm
	fp8() {
		on_cpu fp8-mm "$KS_ROOT/kernels/fp8-mm/seed.hip" "$@"
	}
	# the seed as it is, every knob lowest, every knob highest
	run -0 fp8
	assert_line "3 shapes, 0 failed"
	run -0 fp8 TX=8 TY=1 RN=1 RM=1 STAGE=0 KT=8 DBUF=0 LOAD4=0 DECODE=0 SPLITK=1
	assert_line "3 shapes, 0 failed"
	run -0 fp8 TX=64 TY=16 RN=8 RM=8 STAGE=1 KT=128 DBUF=1 LOAD4=1 DECODE=1 SPLITK=8
	assert_line "3 shapes, 0 failed"
	# split-K with each way of staging K: direct, slices, double-buffered slices, 4-byte loads, the table
	for knobs in "SPLITK=2" "SPLITK=4 STAGE=1 KT=16" "SPLITK=4 STAGE=1 DECODE=1 TX=32 RM=4" \
		"SPLITK=8 STAGE=1 DBUF=1 LOAD4=1 KT=64 TX=16 TY=8 RN=4 RM=2" "SPLITK=2 STAGE=1 DBUF=1 KT=128 RN=2 TX=8" \
		"SPLITK=8 STAGE=1 DBUF=1 KT=128 TX=16 TY=4"; do
		# shellcheck disable=SC2086
		run -0 fp8 $knobs
		assert_line "3 shapes, 0 failed"
	done
	# (the last: 7 scale blocks in 7 shares of one slice each, so a share starts on an odd slice)
	assert_line "33x9x896: 0 of 297 elements out of tolerance"
}

@test "fp8-mm's hand-written variants compute c right" {
	reference ref.o fp8-mm
	for v in "$KS_ROOT"/kernels/fp8-mm/variants/*.hip; do
		run -0 on_cpu fp8-mm "$v"
		assert_line "3 shapes, 0 failed"
	done
}

@test "rmsnorm's seed computes y right under its knobs: rows per block, vector loads, registers, shuffles" {
	reference ref.o rmsnorm
	rms() {
		on_cpu rmsnorm "$KS_ROOT/kernels/rmsnorm/seed.cu" "$@"
	}
	run -0 rms
	assert_line "6 shapes, 0 failed"
	run -0 rms THREADS=32 ROWS=1 VEC=1 UNROLL=1 REGS=0 REDUCE=0 STREAM=0
	assert_line "6 shapes, 0 failed"
	run -0 rms THREADS=1024 ROWS=8 VEC=8 UNROLL=8 REGS=16 REDUCE=1 STREAM=1
	assert_line "6 shapes, 0 failed"
	# shuffles within a group smaller than a warp, then across warps; vectors with and without the registers
	for knobs in "REDUCE=1" "REDUCE=1 THREADS=1024 ROWS=1" "REDUCE=1 THREADS=64 ROWS=4 VEC=4" \
		"VEC=8 REGS=4 UNROLL=4" "VEC=2 UNROLL=8 ROWS=2" "THREADS=512 ROWS=2 REDUCE=1 REGS=1 VEC=8"; do
		# shellcheck disable=SC2086
		run -0 rms $knobs
		assert_line "6 shapes, 0 failed"
	done
}

@test "fp8-mm's harness kernels: the draw is the host's, the reference the host's double, the comparison ks_check_f32's verdict" {
	reference ref.o fp8-mm
	gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I"$KS_ROOT/kernels/common" -Dmain=ks_harness_main -c \
		"$KS_ROOT/kernels/common/ks_harness.c" -o ks_harness.o
	g++ -std=c++17 -O1 -Wall -Wextra -Werror -pthread -I"$KS_ROOT/tests/unit/gpu-on-cpu" -I"$KS_ROOT/kernels/common" \
		-I"$KS_ROOT/kernels/fp8-mm" -c "$KS_ROOT/tests/unit/fp8harness.cc" -o fp8harness.o
	# the judge the harness calls, though these cases do not
	gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I"$KS_ROOT/kernels/common" -c \
		"$KS_ROOT/kernels/common/ks_judge.c" "$KS_ROOT/kernels/common/ks_versus.c"
	g++ -pthread fp8harness.o ks_harness.o ks_judge.o ks_versus.o ref.o -o fp8harness -lm
	run -0 ./fp8harness
	assert_output "8 cases, 0 failed"
}
