#!/usr/bin/env bats
# Target hip-nvidia on a machine without a GPU: HIP source built by nvcc
# through the project's HIP-on-CUDA headers (kernels/common/hip-on-cuda),
# the ptxas report recorded, AMD-only code refused by name, and the bench
# waiting for a device.

bats_require_minimum_version 1.5.0
load helper/common

setup() {
	export PATH="$PATH:/usr/local/cuda/bin"
	command -v nvcc >/dev/null || skip "nvcc is not installed: the hip-nvidia target cannot build here"
	cd "$BATS_TEST_TMPDIR"
	# the fixture problem beside the shared harness, as a kernels/ folder
	mkdir kernels
	cp -r "$KS_ROOT/kernels/common" "$KS_ROOT/tests/fixtures/kernels/hipscale" kernels/
	export KS_KERNELS_DIR=$PWD/kernels
	ks-init -p hipscale -t hip-nvidia -k 1 pop
	ks-implement pop/gen-000/c0
}

@test "ks-build compiles a HIP candidate with nvcc -x cu and the HIP-on-CUDA headers" {
	run -0 ks-build pop/gen-000/c0
	assert_equal "$(jget pop/gen-000/c0/build.json .ok)" true
	assert_file_exists pop/gen-000/c0/runner
	assert_file_exists pop/gen-000/c0/worker
	# the kernel to its object, the worker's shared sources to theirs, the worker linked from them without
	# -x cu (which would read the objects as sources), the judge (the harness, no kernel)
	run -0 jget pop/gen-000/c0/build.json .command
	assert_output --regexp '^nvcc -std=c\+\+17 -O3 -Xptxas -v -Xcompiler -Wall -x cu -gencode=arch=compute_90a,code=sm_90a -I[^ ]*/kernels/common/hip-on-cuda -I[^ ]*/kernels/common .* -c pop/gen-000/c0/kernel.hip -o pop/gen-000/c0/kernel.o && nvcc .* -c .*/common/ks_worker.c -o pop/gen-000/c0/ks_worker.o && nvcc .* -c .*/common/ks_worker_gpu.hip -o pop/gen-000/c0/ks_worker_gpu.o && nvcc .* -c .*/hipscale/call.hip -o pop/gen-000/c0/call.o && nvcc -std=c\+\+17 -O3 -Xptxas -v -Xcompiler -Wall -gencode=arch=compute_90a,code=sm_90a pop/gen-000/c0/kernel.o pop/gen-000/c0/ks_worker.o pop/gen-000/c0/ks_worker_gpu.o pop/gen-000/c0/call.o -o pop/gen-000/c0/worker && nvcc .*/common/ks_judge.c .*/common/ks_gpu.hip .*/hipscale/harness.hip -o pop/gen-000/c0/runner$'
}

@test "build.json holds ptxas's report of the candidate's kernel, without the harness's" {
	ks-build pop/gen-000/c0
	run -0 jget pop/gen-000/c0/build.json .resources.kernels
	assert_output --regexp '^\[\{"name":"_Z[A-Z0-9]*12scale_kernelifPKfPf","stack_bytes":0,"spill_store_bytes":0,"spill_load_bytes":0,"registers":[0-9]+,"barriers":1,"smem_bytes":1024\}\]$'
}

@test "HIP names map to CUDA: runtime calls, launch macro, indices, shuffles, ballot, bf16" {
	cat >pop/gen-000/c0/kernel.hip <<'HIP'
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>

static __global__ void
scale_kernel(int n, float a, const float *x, float *y)
{
	int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
	float v = i < n ? x[i] : 0.0f;
	unsigned long long mask = __ballot(i < n);
	__hip_bfloat16 h = __float2bfloat16(v);

	v += __shfl_xor(v, 1) * 0.0f + __bfloat162float(h) * 0.0f;
	if (i < n && mask != 0 && __lane_id() < 32)
		y[i] = a * v;
}

void
scale(int n, float a, const float *x, float *y)
{
	hipDeviceProp_t prop;
	int dev = 0;

	(void)hipGetDevice(&dev);
	(void)hipGetDeviceProperties(&prop, dev);
	hipLaunchKernelGGL(scale_kernel, dim3((n + 255) / 256), dim3(256), 0, 0, n, a, x, y);
	(void)hipGetLastError();
}
HIP
	run -0 ks-build pop/gen-000/c0
	assert_equal "$(jget pop/gen-000/c0/build.json .ok)" true
}

@test "an AMD-only intrinsic stops the build with an error that names it" {
	cat >pop/gen-000/c0/kernel.hip <<'HIP'
#include <hip/hip_runtime.h>

static __global__ void
scale_kernel(int n, float a, const float *x, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		y[i] = a * x[i] + __builtin_amdgcn_readfirstlane(0);
}

void
scale(int n, float a, const float *x, float *y)
{
	scale_kernel<<<(n + 255) / 256, 256>>>(n, a, x, y);
}
HIP
	run -0 ks-build pop/gen-000/c0
	assert_equal "$(jget pop/gen-000/c0/build.json .ok)" false
	run -0 jget pop/gen-000/c0/build.json .diagnostics
	assert_output --partial "hip-nvidia: this AMD-only intrinsic"
	assert_output --partial "__builtin_amdgcn_readfirstlane_is_amd_only_and_has_no_nvidia_equivalent"
}

@test "code guarded by __HIP_PLATFORM_AMD__ builds: the platform macros are NVIDIA's" {
	cat >pop/gen-000/c0/kernel.hip <<'HIP'
#include <hip/hip_runtime.h>

#if !defined(__HIP_PLATFORM_NVIDIA__) || defined(__HIP_PLATFORM_AMD__)
#error "wrong platform macros"
#endif

static __global__ void
scale_kernel(int n, float a, const float *x, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef __HIP_PLATFORM_AMD__
	a += __builtin_amdgcn_readfirstlane(0);
#endif
	if (i < n)
		y[i] = a * x[i];
}

void
scale(int n, float a, const float *x, float *y)
{
	scale_kernel<<<(n + 255) / 256, 256>>>(n, a, x, y);
}
HIP
	run -0 ks-build pop/gen-000/c0
	assert_equal "$(jget pop/gen-000/c0/build.json .ok)" true
}

@test "hip_fp8.h is refused: CUDA's e4m3 is not e4m3fnuz" {
	sed -i '1a #include <hip/hip_fp8.h>' pop/gen-000/c0/kernel.hip
	run -0 ks-build pop/gen-000/c0
	assert_equal "$(jget pop/gen-000/c0/build.json .ok)" false
	run -0 jget pop/gen-000/c0/build.json .diagnostics
	assert_output --partial "hip/hip_fp8.h is not available on target hip-nvidia"
}

@test "without an NVIDIA GPU ks-bench records no_device" {
	[ ! -e /dev/nvidiactl ] || skip "this machine has an NVIDIA GPU"
	ks-build pop/gen-000/c0
	run -0 ks-bench pop/gen-000/c0
	run -0 jf pop/gen-000/c0/bench.json .status .message
	assert_output "no_device
no nvidia device on this machine for target hip-nvidia: bench it where there is one"
}
