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
		if [ "$(basename "$k")" = slow_base.hip ]; then
			# a tail to tiled.hip, its entry point made static (as adversarial.sh does)
			{ sed 's/^void$/static void/; s/^fp8_mm(/tiled_fp8_mm(/' "$KS_ROOT/kernels/fp8-mm/variants/tiled.hip"
			  cat "$k"; } >slow_base_whole.hip
			k=$PWD/slow_base_whole.hip
		fi
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

@test "cuda: host assembly is refused in what nvcc's host pass reads; device assembly builds" {
	# (before: GPU targets allowed host assembly, since device code has it: a section of the kernel's own
	# (.init, code before main), or .incbin of any file the user could read where bubblewrap does not run;
	# the object's own check behind it is tested on hip-amd, below, where the host pass is not read)
	local sandbox
	ks-init -p rmsnorm -t cuda -k 1 pop
	mkdir -p pop/gen-000/c0
	echo TOPSECRET-42 >secret.txt
	for sandbox in basic ""; do
		{ cat "$KS_ROOT/kernels/rmsnorm/seed.cu"
		  printf 'asm(".section .rodata.k,\\"a\\"\\nleaked: .incbin \\"%s/secret.txt\\"\\n.text");\n' "$PWD"; } \
			>pop/gen-000/c0/kernel.cu
		KS_SANDBOX=$sandbox ks-build pop/gen-000/c0
		run -0 jf pop/gen-000/c0/build.json .rejected
		# (nvcc's host pass writes asm as __asm__)
		assert_output "the kernel uses inline assembly in host code ('__asm__(' on line $(($(wc -l <"$KS_ROOT/kernels/rmsnorm/seed.cu") + 1))): a GPU kernel's assembly belongs in its device code"
		assert_file_not_exists pop/gen-000/c0/worker
	done
	# a function of the host's made by hand, in a branch the device pass does not take
	{ cat "$KS_ROOT/kernels/rmsnorm/seed.cu"
	  printf '#ifndef __CUDA_ARCH__\nstatic void early(void) { __asm__ volatile(".pushsection .init,\\"ax\\"\\ncall early\\n.popsection"); }\n#endif\n'; } \
		>pop/gen-000/c0/kernel.cu
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .rejected
	assert_output --partial "the kernel uses inline assembly in host code ('__asm__ volatile(' on line"
	# PTX in device code, which the host pass does not hold, builds
	{ printf 'static __device__ unsigned lane_id(void) { unsigned r; asm volatile("mov.u32 %%0, %%%%laneid;" : "=r"(r)); return r; }\n'
	  cat "$KS_ROOT/kernels/rmsnorm/seed.cu"; } >pop/gen-000/c0/kernel.cu
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .ok
	assert_output true
	# code inside nvcc's own registration, which takes each device variable's address before main: an
	# operator& of the kernel's (before: built, and ran before the worker's filter, the one .init_array entry
	# nvcc's own)
	{ printf 'struct hook { int pad; __host__ char *operator&() { return reinterpret_cast<char *>(this); } };\n'
	  printf 'static __device__ hook hooked;\n'; cat "$KS_ROOT/kernels/rmsnorm/seed.cu"; } >pop/gen-000/c0/kernel.cu
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .rejected
	assert_output --partial "the kernel overloads operator& ('operator&()' on line 1)"
	# an operator& from a CUDA header, reaching a class the kernel specialises (before: built ok, its code run
	# inside nvcc's registration before main): the registration code may call nothing but the runtime's registration
	cp "$KS_ROOT/tests/fixtures/adversarial/rmsnorm/r5_bitref_registration.cu" pop/gen-000/c0/kernel.cu
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .rejected
	assert_output --regexp "^the kernel (jumps out of|calls '[^']*' from) the GPU compiler's registration code \(_ZL24__sti____cudaRegisterAllv"
	assert_file_not_exists pop/gen-000/c0/worker
	# a & of two operands is no address: an enum's bit mask builds
	{ printf 'enum class Opt : unsigned { none = 0, fast = 1 };\n'
	  printf 'static constexpr Opt operator&(Opt a, Opt b) { return Opt(unsigned(a) & unsigned(b)); }\n'
	  cat "$KS_ROOT/kernels/rmsnorm/seed.cu"; } >pop/gen-000/c0/kernel.cu
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .ok .rejected
	assert_output "true
null"
	# what only the host pass reads (nvcc -E is the device pass, __CUDA_ARCH__ defined): the include check
	# and the rules read it too (before: neither did)
	echo 'int secret_value = 42;' >secret.h
	{ printf '#if !defined(__CUDA_ARCH__)\n#include "%s/secret.h"\n#endif\n' "$PWD"
	  cat "$KS_ROOT/kernels/rmsnorm/seed.cu"; } >pop/gen-000/c0/kernel.cu
	KS_SANDBOX=basic ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .rejected
	assert_output "the kernel includes '$PWD/secret.h', which is neither a system header, the compiler's own nor the harness's: a kernel is one file"
	{ printf '#if !defined(__CUDA_ARCH__)\n#define JOIN(a, b) a##b\nstatic int t = JOIN(clock_, gettime)(0, 0);\n#endif\n'
	  cat "$KS_ROOT/kernels/rmsnorm/seed.cu"; } >pop/gen-000/c0/kernel.cu
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .rejected
	assert_output "the kernel reads a clock ('clock_gettime' on line 3): the harness does the timing"
	# the seed's own object, nvcc's sections and its one registration in .init_array, passes
	cp "$KS_ROOT/kernels/rmsnorm/seed.cu" pop/gen-000/c0/kernel.cu
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .ok
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
		[host_clock]="the kernel uses inline assembly in host code"
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

@test "hip-nvidia: the kernel's object defines its entry point only, and no constructor but nvcc's registration of its device code" {
	# (round three, item 2: a GPU runner sorts its samples with qsort and parses --rtol with strtod, and
	# the kernel is linked into it: a kernel defining either would change the harness's own calls)
	ks-init -p fp8-mm -t hip-nvidia -k 3 pop
	mkdir -p pop/gen-001/c0
	{ cat "$KS_ROOT/kernels/fp8-mm/seed.hip"
	  echo 'extern "C" void qsort(void *b, size_t n, size_t w, int (*c)(const void *, const void *)) { (void)b; (void)n; (void)w; (void)c; }'; } \
		>pop/gen-001/c0/kernel.hip
	ks-build pop/gen-001/c0
	run -0 jf pop/gen-001/c0/build.json .rejected
	assert_output "the kernel defines the global symbol 'qsort': a kernel's object may define its entry point 'fp8_mm' and nothing else (make 'qsort' static), so that it cannot stand in for a function of the C library or of the harness"
	# a dynamic initializer is a constructor of the kernel's own, beside nvcc's
	{ cat "$KS_ROOT/kernels/fp8-mm/seed.hip"; echo '#include <cstdio>'; echo 'static int early = printf("before main\n");'; } \
		>pop/gen-001/c0/kernel.hip
	ks-build pop/gen-001/c0
	run -0 jf pop/gen-001/c0/build.json .rejected
	assert_output --regexp "^the kernel has a constructor \(_GLOBAL__sub_I_[A-Za-z0-9_]+ in \.init_array\): code that runs before the call is not allowed$"
	# the seed itself: nvcc's registration constructor and personality reference are the compiler's
	cp "$KS_ROOT/kernels/fp8-mm/seed.hip" pop/gen-001/c0/kernel.hip
	ks-build pop/gen-001/c0
	run -0 jf pop/gen-001/c0/build.json .ok .rejected
	assert_output "true
null"
}

@test "hip-amd: host assembly may name any section, and the object's own check allows the compiler's sections only" {
	# (before: .init was allowed, the C runtime's call before main and so before the worker's filter; the same
	# code as tests/fixtures/adversarial/sgemm/r5_init_judge_floor.c, where the CPU target's text check stops it
	# first, as nvcc's host pass does on cuda and hip-nvidia; hipcc's host pass keeps device functions' bodies,
	# so hip-amd keeps host assembly and this check is what stands)
	local sect
	command -v hipcc >/dev/null || skip "hipcc is not installed: the hip-amd target cannot build here"
	mkdir kernels
	cp -r "$KS_ROOT/kernels/common" "$KS_ROOT/tests/fixtures/kernels/hipscale" kernels/
	export KS_KERNELS_DIR=$PWD/kernels KS_GPU_ARCH=gfx940
	ks-init -p hipscale -t hip-amd -k 1 pop
	mkdir -p pop/gen-000/c0
	for sect in '.init,\"ax\",@progbits\ncall _ZL5earlyv' '.note.GNU-stack,\"x\",@progbits' \
		'.interp,\"a\"\n.string \"/tmp/x\"' '.text.k,\"awx\",@progbits\nret' '.preinit_array,\"aw\"\n.quad _ZL5earlyv'; do
		{ cat kernels/hipscale/seed.hip
		  echo '__attribute__((used)) static void early(void) {}'
		  printf 'asm(".section %s\\n.text");\n' "$sect"; } >pop/gen-000/c0/kernel.hip
		ks-build pop/gen-000/c0
		run -0 jf pop/gen-000/c0/build.json .rejected
		case $sect in
		.init*) assert_output "the kernel has a constructor or destructor (its object holds section .init): code that runs before or after the call is not allowed" ;;
		.note*) assert_output --partial "the kernel makes section .note.GNU-stack executable" ;;
		.interp*) assert_output --partial "the kernel holds a section named '.interp', which a kernel's object has no use for" ;;
		.text*) assert_output "the kernel makes section .text.k both writable and executable: code made at run time is not allowed" ;;
		.preinit*) assert_output --partial "(its object holds section .preinit_array)" ;;
		esac
		assert_file_not_exists pop/gen-000/c0/worker
	done
	# host assembly reads a file at build time (.incbin) only where the compiler sees it: where bubblewrap
	# runs, not the user's (before: a build embedded any file the user could read, for the kernel to print)
	if command -v bwrap >/dev/null && bwrap --ro-bind / / true 2>/dev/null; then
		echo TOPSECRET-42 >secret.txt
		{ cat kernels/hipscale/seed.hip
		  printf 'asm(".section .rodata.k,\\"a\\"\\nleaked: .incbin \\"%s/secret.txt\\"\\n.text");\n' "$PWD"; } \
			>pop/gen-000/c0/kernel.hip
		ks-build pop/gen-000/c0
		run -0 jf pop/gen-000/c0/build.json .ok .diagnostics
		assert_line --index 0 false
		assert_output --partial "Could not find incbin file '$PWD/secret.txt'"
		assert_file_not_exists pop/gen-000/c0/worker
	fi
	# the seed's own object, hipcc's sections and its one registration in .init_array, passes
	cp kernels/hipscale/seed.hip pop/gen-000/c0/kernel.hip
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .ok
	assert_output true
}
