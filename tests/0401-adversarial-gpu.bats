#!/usr/bin/env bats
# Adversarial kernels for the GPU problem fp8-mm (target hip-nvidia): all
# but one need the GPU, and skip without it.  The kernels are in
# tests/fixtures/adversarial/fp8-mm; tests/gpu/adversarial.sh runs them.

bats_require_minimum_version 1.5.0
load helper/common

setup() {
	export PATH="$PATH:/usr/local/cuda/bin"
	command -v nvcc >/dev/null || skip "nvcc is not installed: the hip-nvidia target cannot build here"
	cd "$BATS_TEST_TMPDIR"
}

@test "the adversarial kernels all compile for hip-nvidia; an honest one builds through ks-build" {
	local pids= k p
	for k in "$KS_ROOT"/tests/fixtures/adversarial/fp8-mm/*.hip; do
		nvcc -std=c++17 -O1 -x cu -arch=sm_90a -I"$KS_ROOT/kernels/common/hip-on-cuda" -c "$k" \
			-o "$(basename "$k").o" 2>"$(basename "$k").err" &
		pids="$pids $!"
	done
	for p in $pids; do
		wait "$p" || fail "a kernel did not compile: $(cat ./*.err)"
	done
	ks-init -p fp8-mm -t hip-nvidia -k 5 pop
	mkdir -p pop/gen-001/c0
	cp "$KS_ROOT"/tests/fixtures/adversarial/fp8-mm/same_stream.hip pop/gen-001/c0/kernel.hip
	ks-build pop/gen-001/c0
	run -0 jf pop/gen-001/c0/build.json .ok
	assert_output true
}

@test "hip-nvidia: streams, device flags, files, names built by token pasting and host inline assembly are refused by what the compiler reads" {
	# (before: other_stream, set_flags, pasted and host_clock passed the static check)
	local k want
	ks-init -p fp8-mm -t hip-nvidia -k 3 pop
	local -A wants=(
		[other_stream]="the kernel imports 'cudaStreamCreateWithFlags'"
		[set_flags]="the kernel imports 'cudaSetDeviceFlags'"
		[pasted]="the kernel reaches into the process ('mprotect' on line "
		[host_clock]="the kernel executes 'rdtsc' in its host code"
		[read_maps]="the kernel imports '"
	)
	for k in other_stream set_flags pasted host_clock read_maps; do
		mkdir -p pop/gen-001/c0
		cp "$KS_ROOT/tests/fixtures/adversarial/fp8-mm/$k.hip" pop/gen-001/c0/kernel.hip
		ks-build pop/gen-001/c0
		run -0 jf pop/gen-001/c0/build.json .rejected
		assert_output --partial "${wants[$k]}"
	done
	# read_maps is refused for a call of C's file interface, whichever comes first
	assert_output --regexp "^the kernel imports '(fopen|fgets|__fgets_chk|fclose|__isoc[0-9]+_sscanf)', which a kernel for target hip-nvidia may not use"
}

@test "on an NVIDIA GPU: every trick is caught, and work on another stream is timed" {
	[ -e /dev/nvidiactl ] || skip "no NVIDIA GPU on this machine: run tests/gpu/adversarial.sh where there is one"
	TMPDIR=$BATS_TEST_TMPDIR run -0 "$KS_ROOT/tests/gpu/adversarial.sh" fp8-mm hip-nvidia
	refute_output --partial FAIL
}
