#!/usr/bin/env bats
# Target cuda on a machine without a GPU: built with nvcc, the ptxas
# report recorded, and the bench waiting for a device (no_device).

bats_require_minimum_version 1.5.0
load helper/common

setup_file() {
	command -v nvcc >/dev/null || command -v /usr/local/cuda/bin/nvcc >/dev/null || return 0
	export PATH="$PATH:/usr/local/cuda/bin"
	cd "$BATS_FILE_TMPDIR"
	ks-init -p rmsnorm -t cuda -k 1 pop
	ks-implement pop/gen-000/c0
	ks-build pop/gen-000/c0
}

setup() {
	export PATH="$PATH:/usr/local/cuda/bin"
	command -v nvcc >/dev/null || skip "nvcc is not installed: the cuda target cannot build here"
	cd "$BATS_TEST_TMPDIR"
	cp -a "$BATS_FILE_TMPDIR/pop" pop
}

@test "ks-build compiles a cuda candidate with nvcc for sm_90a" {
	run -0 jget pop/gen-000/c0/build.json .ok
	assert_output true
	assert_file_exists pop/gen-000/c0/runner
	assert_file_exists pop/gen-000/c0/kernel.cu
	run -0 jget pop/gen-000/c0/build.json .command
	assert_output --regexp '^nvcc -std=c\+\+17 -O3 -Xptxas -v -Xcompiler -Wall -x cu -gencode=arch=compute_90a,code=sm_90a -I[^ ]*/kernels/common/hip-on-cuda '
	assert_output --partial "/kernels/common/ks_gpu.hip "
	run -0 jget pop/gen-000/c0/build.json .compiler
	assert_output --regexp '^Cuda compilation tools, release [0-9]+\.[0-9]+'
	run -0 jget pop/gen-000/c0/build.json .diagnostics
	assert_output --partial "ptxas info    : Used 30 registers"
}

@test "build.json holds ptxas's report of the candidate's kernels, not the harness's" {
	run -0 jget pop/gen-000/c0/build.json .resources.kernels
	assert_output '[{"name":"_Z12rmsnorm_rowsILi1EEviiPK13__nv_bfloat16S2_PS0_f","stack_bytes":0,"spill_store_bytes":0,"spill_load_bytes":0,"registers":30,"barriers":1,"smem_bytes":1024}]'
}

@test "KS_GPU_ARCH picks another architecture" {
	rm pop/gen-000/c0/build.json
	KS_GPU_ARCH=sm_80 run -0 ks-build pop/gen-000/c0
	run -0 jget pop/gen-000/c0/build.json .command
	assert_output --partial " -gencode=arch=compute_80,code=sm_80 "
}

@test "an sm_90a-only instruction (wgmma) builds unguarded: nvcc makes no compute_90 PTX beside sm_90a's" {
	# (before: -arch=sm_90a, under which nvcc 13.0 also checks a compute_90 PTX: "Instruction 'wgmma.fence'
	# not supported on .target 'sm_90'", so every wgmma or setmaxnreg kernel needed an arch guard)
	sed '/^rmsnorm_rows(/,/^{/s/^{/{\n\tasm volatile("wgmma.fence.sync.aligned;" ::: "memory");/' \
		"$KS_ROOT/kernels/rmsnorm/seed.cu" >pop/gen-000/c0/kernel.cu
	run -0 grep -c wgmma.fence pop/gen-000/c0/kernel.cu
	rm pop/gen-000/c0/build.json
	run ks-build pop/gen-000/c0
	run -0 jq -r '.ok, .command, .diagnostics' pop/gen-000/c0/build.json
	refute_output --partial "not supported on .target"
	assert_line --index 0 true
	assert_output --partial " -gencode=arch=compute_90a,code=sm_90a "
}

@test "without a GPU ks-bench records no_device, and selection ignores the kernel" {
	[ ! -e /dev/nvidiactl ] || skip "this machine has an NVIDIA GPU"
	run -0 ks-bench pop/gen-000/c0
	assert_equal "$(jget pop/gen-000/c0/bench.json .status)" no_device
	assert_equal "$(jget pop/gen-000/c0/bench.json 'must("score_us")')" null
	run -0 jget pop/gen-000/c0/bench.json .message
	assert_output "no nvidia device on this machine for target cuda: bench it where there is one"
	run -1 ks-select pop/gen-001
	assert_output "ks-select: no correct kernel before generation 1 in 'pop' to select from (g000c0 no_device)"
}

@test "a ptxas report with stack and spills is read field by field; the harness's kernels are left out" {
	mkdir bin
	cat >bin/nvcc <<'SH'
#!/bin/sh
# a stand-in for nvcc: prints a ptxas report with two kernels, writes the output file (an empty object for
# an object, which the static check reads); preprocesses to nothing
case " $* " in *" -E "*) exit 0 ;; esac
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
cat >&2 <<'R'
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z3fooPf' for 'sm_90a'
ptxas info    : Function properties for _Z3fooPf
    16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads
ptxas info    : Used 255 registers, used 1 barriers, 49152 bytes smem
ptxas info    : Compiling entry function '_Z12ks_gpu_emptyv' for 'sm_90a'
ptxas info    : Used 4 registers, used 0 barriers
R
case $out in *.o) exec cc -x c -c /dev/null -o "$out" ;; esac
echo '#!/bin/sh' >"$out"; chmod +x "$out"
SH
	chmod +x bin/nvcc
	rm pop/gen-000/c0/build.json
	KS_NVCC=$PWD/bin/nvcc run -0 ks-build pop/gen-000/c0
	run -0 jget pop/gen-000/c0/build.json .resources.kernels
	assert_output '[{"name":"_Z3fooPf","stack_bytes":16,"spill_store_bytes":8,"spill_load_bytes":4,"registers":255,"barriers":1,"smem_bytes":49152}]'
}

@test "the seed's tunable space builds at its extremes, every knob lowest and every knob highest" {
	run -0 grep -c 'ks-tune:' "$KS_ROOT/kernels/rmsnorm/seed.cu"
	assert_output 7		# THREADS ROWS VEC UNROLL REGS REDUCE STREAM
	knob_extremes "$KS_ROOT/kernels/rmsnorm/seed.cu" k
	for s in 0 1; do
		mkdir -p pop/gen-001/c$s
		cp k/$([ $s = 0 ] && echo low || echo high)/kernel.cu pop/gen-001/c$s/
		hand_candidate pop/gen-001/c$s
		ks-build pop/gen-001/c$s &
	done
	wait
	for d in pop/gen-001/c0 pop/gen-001/c1; do
		run -0 jf $d/build.json .rejected .ok
		assert_output $'null\ntrue'
		run -0 jget $d/build.json .diagnostics
		refute_output --regexp 'kernel\.cu[:(][0-9]+.*warning'
	done
	# VEC 8 aligned rows and 2-byte loads otherwise: two instances of the kernel
	run -0 jget pop/gen-001/c1/build.json '[.resources.kernels[].name] | sort | join(" ")'
	assert_output '_Z12rmsnorm_rowsILi1EEviiPK13__nv_bfloat16S2_PS0_f _Z12rmsnorm_rowsILi8EEviiPK13__nv_bfloat16S2_PS0_f'
}
