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

@test "the adversarial fp8-mm kernels all build for hip-nvidia" {
	ks-init -p fp8-mm -t hip-nvidia -k 5 pop
	n=0
	for k in "$KS_ROOT"/tests/fixtures/adversarial/fp8-mm/*.hip; do
		mkdir -p pop/gen-001/c$n
		cp "$k" pop/gen-001/c$n/kernel.hip
		n=$((n + 1))
	done
	run -0 sh -c 'for d in pop/gen-001/c*; do ks-build $d & done; wait'
	for d in pop/gen-001/c*; do
		run -0 jf $d/build.json '["ok"]'
		assert_output true
	done
}

@test "on an NVIDIA GPU: every trick is caught, and work on another stream is timed" {
	[ -e /dev/nvidiactl ] || skip "no NVIDIA GPU on this machine: run tests/gpu/adversarial.sh where there is one"
	TMPDIR=$BATS_TEST_TMPDIR run -0 "$KS_ROOT/tests/gpu/adversarial.sh" fp8-mm hip-nvidia
	refute_output --partial FAIL
}
