#!/usr/bin/env bats
# Target hip-amd on a machine without an AMD GPU: built by hipcc for
# gfx940 (Debian 12's hipcc 5.2 does not know MI300X's gfx942), the
# compiler's resource report recorded, the bench waiting for a device.

bats_require_minimum_version 1.5.0
load helper/common

setup() {
	command -v hipcc >/dev/null || skip "hipcc is not installed: the hip-amd target cannot build here"
	cd "$BATS_TEST_TMPDIR"
	# the fixture problem beside the shared harness, as a kernels/ folder
	mkdir kernels
	cp -r "$KS_ROOT/kernels/common" "$KS_ROOT/tests/fixtures/kernels/hipscale" kernels/
	export KS_KERNELS_DIR=$PWD/kernels KS_GPU_ARCH=gfx940
	ks-init -p hipscale -t hip-amd -k 1 pop
	ks-implement pop/gen-000/c0
}

@test "ks-build compiles a HIP candidate with hipcc --offload-arch" {
	run -0 ks-build pop/gen-000/c0
	assert_equal "$(jget pop/gen-000/c0/build.json .ok)" true
	assert_file_exists pop/gen-000/c0/runner
	assert_file_exists pop/gen-000/c0/worker
	# the kernel to its object, the worker's shared sources to theirs, the worker linked from them, the judge
	# (the harness, no kernel)
	run -0 jf pop/gen-000/c0/build.json .command .compiler
	assert_line --index 0 --regexp '^hipcc -O3 -Rpass-analysis=kernel-resource-usage -Wall --offload-arch=gfx940 .* -c pop/gen-000/c0/kernel.hip -o pop/gen-000/c0/kernel.o && hipcc .* -c .*/common/ks_worker.hip -o pop/gen-000/c0/ks_worker.o && hipcc .* -c .*/common/ks_worker_gpu.hip -o pop/gen-000/c0/ks_worker_gpu.o && hipcc .* -c .*/hipscale/call.hip -o pop/gen-000/c0/call.o && hipcc -O3 -Rpass-analysis=kernel-resource-usage -Wall --offload-arch=gfx940 pop/gen-000/c0/kernel.o pop/gen-000/c0/ks_worker.o pop/gen-000/c0/ks_worker_gpu.o pop/gen-000/c0/call.o -o pop/gen-000/c0/worker && hipcc .*/common/ks_harness.hip .*/common/ks_judge.hip .*/common/ks_gpu.hip .*/hipscale/harness.hip -o pop/gen-000/c0/runner$'
	assert_line --index 1 --regexp '^HIP version: [0-9]'
}

@test "build.json holds the AMD resource report: SGPRs, VGPRs, AGPRs, scratch, occupancy, spills, LDS" {
	ks-build pop/gen-000/c0
	run -0 jget pop/gen-000/c0/build.json .resources.kernels
	assert_output '[{"name":"_ZL12scale_kernelifPKfPf","sgprs":16,"vgprs":6,"agprs":0,"scratch_bytes_per_lane":0,"occupancy_waves_per_simd":8,"sgpr_spills":0,"vgpr_spills":0,"lds_bytes":1024}]'
}

@test "the LDS a kernel declares shows in the report" {
	sed -i 's/^#define BLOCK 256/#define BLOCK 512/' pop/gen-000/c0/kernel.hip
	ks-build pop/gen-000/c0
	run -0 jget pop/gen-000/c0/build.json '.resources.kernels[0].lds_bytes'
	assert_output 2048
}

@test "without an AMD GPU ks-bench records no_device" {
	[ ! -e /dev/kfd ] || skip "this machine has an AMD GPU"
	ks-build pop/gen-000/c0
	run -0 ks-bench pop/gen-000/c0
	run -0 jf pop/gen-000/c0/bench.json .status .message 'must("score_us")'
	assert_output "no_device
no amd device on this machine for target hip-amd: bench it where there is one
null"
}

@test "a kernel that does not compile for gfx940 is build_failed with hipcc's error" {
	echo 'void scale(int n, float a, const float *x, float *y) { this is not HIP; }' >pop/gen-000/c0/kernel.hip
	run -0 ks-build pop/gen-000/c0
	assert_equal "$(jget pop/gen-000/c0/build.json .ok)" false
	run -0 jget pop/gen-000/c0/build.json .diagnostics
	assert_output --partial "error:"
	assert_file_not_exists pop/gen-000/c0/runner
}
