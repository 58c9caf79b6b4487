#!/usr/bin/env bats
# What the model is told about the machine is the target's (issue 13,
# item 3): task.md's "(target T)" sections, knowledge/<target>/ notes and
# prompts/targets/<target>[-<arch>].md; and every stage's target section
# holds the facts a kernel engineer needs (issue 27, items 4 and 5): the
# build's flags and compiler, on the CPU the machine's cores, caches,
# instruction set and measured peak, the timing rules; the headers and
# instructions the NVIDIA facts name, compiled here under ks-build's flags.

bats_require_minimum_version 1.5.0
load helper/common
load helper/llm

setup() {
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	llm_server_stop
}

# fp8_pop TARGET: fp8-mm's population for TARGET, its seed faked as measured, generation 1 selected
fp8_pop() {
	ks-init -p fp8-mm -t "$1" -k 3 pop
	ks-implement pop/gen-000/c0
	jq -n '{id: "g000c0", status: "ok", correct: true, device: "test", timer: "test", score_us: 50000,
		results: [{shape: {m: 1024, n: 1536, k: 7168}, time_us: 50000, runs: 3}]}' >pop/gen-000/c0/bench.json
	mkdir -p pop/gen-001
	jq -n '{base: "g000c0", reference: "g000c0", reason: "the only kernel"}' >pop/gen-001/select.json
}

# hyp_prompt: the hypothesize prompt of generation 1, through the fixture server
hyp_prompt() {
	local plans
	plans=$(jq -n '{avenues: [range(10) | "avenue \(.)"], plans: [range(5) | {title: "plan \(.)",
		description: "d", rubric: "r", uplift_min: 0, uplift_max: 10, innovation: 5}]}')
	llm_server_start "$(jq -nc --arg t "$plans" '{fixture: [{content: $t}]}')"
	ks-hypothesize pop/gen-001 >/dev/null
	llm_request 1 '.body.messages[1].content'
}

@test "hip-nvidia: the model is told about the H200 and sm_90a, nothing of the MI300X, its notes or its builtins" {
	fp8_pop hip-nvidia
	run -0 hyp_prompt
	assert_output --partial "NVIDIA H200 (sm_90a)"
	# the flags of ks-build's table, once, with the compiler's version where it is here, and the guard it spares
	assert_output --regexp "The kernels are compiled for sm_90a with \`nvcc -std=c\+\+17 -O3 -Xptxas -v -Xcompiler -Wall -x cu -gencode=arch=compute_90a,code=sm_90a -I kernels/common/hip-on-cuda\` \((Cuda compilation tools, release [0-9.]+, V[0-9.]+|its version unknown: it is not on this machine's PATH)\): sm_90a's code only, no PTX for another architecture, so sm_90a's own instructions need no \`__CUDA_ARCH_FEAT_SM90_ALL\` guard\."
	assert_equal "$(grep -c -- "-gencode=arch=compute_90a,code=sm_90a" <<<"$output")" 1
	assert_output --partial "take e4m3fn, whose exponent bias is 7"
	refute_output --partial "MI300X"
	refute_output --partial "Infinity Cache"
	refute_output --partial "__builtin_amdgcn_mfma"
	refute_output --partial "What is known about fp8-mm on MI300X"
	# no section heading keeps its target suffix
	refute_output --partial "(target hip"
	refute_output --partial "(targets "
}

@test "hip-amd: the MI300X's facts, its notes and its builtins; no H200" {
	fp8_pop hip-amd
	run -0 hyp_prompt
	assert_output --partial "AMD Instinct MI300X: 304 compute units"
	assert_output --partial "The kernels are compiled for gfx942 with \`hipcc -O3 -Rpass-analysis=kernel-resource-usage -Wall --offload-arch=gfx942\` ("
	assert_output --partial "What is known about fp8-mm on MI300X"
	assert_output --partial "__builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8"
	refute_output --partial "H200"
	refute_output --partial "(target hip"
	refute_output --partial "(targets "
}

@test "KS_GPU_ARCH: the facts say which architecture they describe and which is built; a file for that architecture replaces them" {
	fp8_pop hip-nvidia
	KS_GPU_ARCH=sm_80 run -0 hyp_prompt
	assert_output --partial "These facts describe sm_90a; this run builds for sm_80 (KS_GPU_ARCH), which may differ: trust the measurements over them."
	assert_output --partial "The kernels are compiled for sm_80 with \`nvcc -std=c++17 -O3 -Xptxas -v -Xcompiler -Wall -x cu -gencode=arch=compute_80,code=sm_80 -I kernels/common/hip-on-cuda\` ("
	refute_output --partial "__CUDA_ARCH_FEAT"
	llm_server_stop
	cp -r "$KS_ROOT/prompts" prompts
	echo "An NVIDIA A100 (sm_80): 108 SMs." >prompts/targets/hip-nvidia-sm_80.md
	rm -rf pop
	fp8_pop hip-nvidia
	KS_PROMPTS_DIR=$PWD/prompts KS_GPU_ARCH=sm_80 run -0 hyp_prompt
	assert_output --partial $'An NVIDIA A100 (sm_80): 108 SMs.\nThe kernels are compiled for sm_80 with `nvcc'
	refute_output --partial "These facts describe"
}

@test "every __builtin_amdgcn_ the AMD notes name compiles with hipcc" {
	command -v hipcc >/dev/null || skip "hipcc is not installed"
	local names
	names=$(grep -ohE '__builtin_amdgcn_[a-z0-9_]+' "$KS_ROOT/prompts/targets/hip-amd.md" \
		"$KS_ROOT/kernels/fp8-mm/task.md" "$KS_ROOT"/kernels/fp8-mm/knowledge/hip-amd/*.md | sort -u)
	[ -n "$names" ]
	# each with arguments of its kind: MFMA (fp8 or f16), DPP, s_waitcnt
	{
		echo '#include <hip/hip_runtime.h>'
		echo 'typedef float f16v __attribute__((ext_vector_type(16))); typedef float f4v __attribute__((ext_vector_type(4)));'
		echo 'typedef _Float16 h4v __attribute__((ext_vector_type(4)));'
		echo '__global__ void k(float *o, long a, long b) { f16v x = {0}; f4v y = {0}; h4v h = {1, 2, 3, 4}; int d = 0;'
		local n
		for n in $names; do
			case $n in
			*mfma_f32_32x32x*fp8*) echo "x = $n(a, b, x, 0, 0, 0);" ;;
			*mfma_f32_16x16x*fp8*) echo "y = $n(a, b, y, 0, 0, 0);" ;;
			*mfma_f32_32x32x8f16) echo "x = $n(h, h, x, 0, 0, 0);" ;;
			*mov_dpp) echo "d += $n((int)a, 0x111, 0xf, 0xf, false);" ;;
			*s_waitcnt) echo "$n(0);" ;;
			*) fail "no call written for $n: add one to this test" ;;
			esac
		done
		echo 'o[threadIdx.x] = x[0] + y[0] + d; }'
	} >builtins.hip
	run -0 hipcc --offload-arch=gfx940 -O1 -c builtins.hip -o builtins.o
}

@test "task.md: a \"(target T)\" or \"(targets T1, T2)\" section is kept, its heading without the suffix, for those targets only" {
	mkdir -p kernels
	cp -r "$KS_ROOT/kernels/common" "$KS_ROOT/kernels/sgemm" kernels/
	cat >kernels/sgemm/task.md <<-'MD'
		# sgemm

		For everyone.

		## Build (target cpu)

		cc, for the CPU.

		## Build (targets cuda, hip-nvidia)

		nvcc.

		## Score

		Lower is better.
	MD
	export KS_KERNELS_DIR=$PWD/kernels
	make_pop pop
	fake_cand pop 0 0 ok 100 ''
	# (the stages that write plans and code get the task whole; select its opening alone)
	mkdir -p pop/gen-001
	jq -n '{base: "g000c0", reference: "g000c0", reason: "the seed"}' >pop/gen-001/select.json
	plans_reply plans.json
	llm_server_start "$(jq -nc --rawfile p plans.json '{fixture: [{content: $p}]}')"
	run -0 ks-hypothesize pop/gen-001
	run -0 llm_request 1 '.body.messages[1].content'
	assert_output --partial $'# sgemm\n\nFor everyone.\n\n## Build\n\ncc, for the CPU.\n\n## Score\n\nLower is better.\n'
	refute_output --partial "nvcc."
}

# feature_kernel FACTS EXT: a kernel that uses every header (<...>) and
# every instruction or attribute (in backquotes) the facts file FACTS
# names, for the entry point of fp8-mm (EXT hip) or rmsnorm (EXT cu): two
# kernels with setmaxnreg, one under __launch_bounds__(128, 1) and one
# under __launch_bounds__(128), and one in clusters of two
feature_kernel() {
	local facts=$1 ext=$2 h f
	[ "$ext" = hip ] && echo '#include <hip/hip_runtime.h>'
	echo '#include <stdint.h>'
	for h in $(grep -oE '<[a-z0-9_/]+(\.h)?>' "$facts" | sort -u); do
		[ "$h" = "<hip/hip_runtime.h>" ] || echo "#include $h"
	done
	echo '#define SHARED_ADDR(p) ((uint32_t)__cvta_generic_to_shared(p))'
	echo 'static __device__ __forceinline__ float features(const uint8_t *a, const void *tmap) {'
	echo '	__shared__ alignas(128) uint8_t s[8192]; __shared__ alignas(8) uint64_t bar;'
	echo '	uint32_t ss = SHARED_ADDR(s), sbar = SHARED_ADDR(&bar), r0 = 0, r1 = 0, r2 = 0, r3 = 0;'
	echo '	float d0 = 0, d1 = 0, d2 = 0, d3 = 0;'
	for f in $(grep -oE '`(wgmma\.mma_async|mma\.sync|ldmatrix|stmatrix|cp\.async[a-z.]*|mbarrier|setmaxnreg|__cluster_dims__)`' \
		"$facts" | tr -d '`' | sort -u); do
		case $f in
		wgmma.mma_async)
			echo '	{ uint64_t da = (ss & 0x3FFFF) >> 4 | 8ull << 16 | 8ull << 32, db = da;'
			echo '	asm volatile("wgmma.fence.sync.aligned;" ::: "memory");'
			echo '	asm volatile("wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 {%0, %1, %2, %3}, %4, %5, 1, 1, 1;"'
			echo '	    : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "l"(da), "l"(db));'
			echo '	asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");'
			echo '	asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory"); }' ;;
		mma.sync)
			echo '	asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0, %1, %2, %3}, {%4, %4, %4, %4}, {%5, %5}, {%0, %1, %2, %3};"'
			echo '	    : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(r0), "r"(r1));' ;;
		ldmatrix)
			echo '	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"'
			echo '	    : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(ss + 16 * (threadIdx.x % 32)));' ;;
		stmatrix)
			echo '	asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"'
			echo '	    :: "r"(ss + 16 * (threadIdx.x % 32)), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");' ;;
		cp.async)
			echo '	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(ss + 16 * threadIdx.x), "l"(a + 16 * threadIdx.x) : "memory");'
			echo '	asm volatile("cp.async.commit_group;" ::: "memory");'
			echo '	asm volatile("cp.async.wait_group 0;" ::: "memory");' ;;
		cp.async.bulk | mbarrier) # one completes on the other
			[[ ${done_bulk:-} ]] && continue
			done_bulk=1
			echo '	if (threadIdx.x == 0) {'
			echo '		asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sbar));'
			echo '		asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(sbar), "r"(4096));'
			echo '		asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"'
			echo '		    :: "r"(ss), "l"(a), "r"(4096), "r"(sbar) : "memory");'
			echo '	}'
			echo '	__syncthreads();'
			echo '	asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1; @!p bra W; }" :: "r"(sbar), "r"(0));' ;;
		cp.async.bulk.tensor)
			echo '	if (threadIdx.x == 0)'
			echo '		asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"'
			echo '		    :: "r"(ss), "l"(tmap), "r"(0), "r"(0), "r"(sbar) : "memory");' ;;
		setmaxnreg)
			echo '	asm volatile("setmaxnreg.inc.sync.aligned.u32 240;");' ;;
		__cluster_dims__) ;; # feat_cluster below
		*) fail "no use of $f written: add one to this test" ;;
		esac
	done
	echo '	return d0 + d1 + d2 + d3 + (float)(r0 + r1 + r2 + r3) + s[threadIdx.x];'
	echo '}'
	echo 'static __global__ void __launch_bounds__(128, 1) feat_bounded(const uint8_t *a, float *out, const void *tmap) { out[threadIdx.x] = features(a, tmap); }'
	echo 'static __global__ void __launch_bounds__(128) feat_plain(const uint8_t *a, float *out, const void *tmap) { out[threadIdx.x] = features(a, tmap); }'
	echo 'static __global__ void __cluster_dims__(2, 1, 1) feat_cluster(float *out) {'
	echo '	__shared__ float s[128];'
	echo '	cooperative_groups::cluster_group cl = cooperative_groups::this_cluster();'
	echo '	s[threadIdx.x] = (float)threadIdx.x;'
	echo '	cl.sync();'
	echo '	out[threadIdx.x] = cl.map_shared_rank(s, (cl.block_rank() + 1) % 2)[threadIdx.x];'
	echo '	cl.sync();'
	echo '}'
	if [ "$ext" = hip ]; then
		echo 'void fp8_mm(int m, int n, int k, const uint8_t *a, const uint8_t *b, const float *a_scale, const float *b_scale, uint16_t *c) {'
		echo '	hipLaunchKernelGGL(feat_bounded, dim3(1), dim3(128), 0, 0, a, (float *)c, (const void *)b);'
		echo '	hipLaunchKernelGGL(feat_plain, dim3(1), dim3(128), 0, 0, a, (float *)c, (const void *)b);'
		echo '	hipLaunchKernelGGL(feat_cluster, dim3(2), dim3(128), 0, 0, (float *)c);'
	else
		echo 'void rmsnorm(int rows, int cols, const __nv_bfloat16 *x, const __nv_bfloat16 *w, __nv_bfloat16 *y, float eps) {'
		echo '	feat_bounded<<<1, 128>>>((const uint8_t *)x, (float *)y, (const void *)w);'
		echo '	feat_plain<<<1, 128>>>((const uint8_t *)x, (float *)y, (const void *)w);'
		echo '	feat_cluster<<<2, 128>>>((float *)y);'
	fi
	echo '}'
}

# assert_features_build DIR: the candidate in DIR, the feature kernel, built by ks-build; setmaxnreg
# applied under __launch_bounds__(128, 1) (240 registers) and ignored, with note C7508, under (128)
assert_features_build() {
	run -0 ks-build "$1"
	run -0 jq -r '.ok, .rejected' "$1/build.json"
	assert_output $'true\nnull'
	run -0 jq -r '.resources.kernels[] | select(.name | test("feat_bounded")) | .registers' "$1/build.json"
	assert_output 240
	run -0 jq -r '.diagnostics | [scan("C7508")] | length' "$1/build.json"
	assert_output 1
}

@test "every header and instruction the hip-nvidia facts name compiles through <hip/hip_runtime.h> under ks-build's own flags" {
	export PATH="$PATH:/usr/local/cuda/bin"
	command -v nvcc >/dev/null || skip "nvcc is not installed: the hip-nvidia facts cannot be checked here"
	ks-init -p fp8-mm -t hip-nvidia -k 1 pop
	ks-implement pop/gen-000/c0
	feature_kernel "$KS_ROOT/prompts/targets/hip-nvidia.md" hip >pop/gen-000/c0/kernel.hip
	# CUDA's C++ headers come after the HIP header (they used to break under its __any macro)
	run -0 grep -c -e '#include <cuda/barrier>' -e '#include <cooperative_groups.h>' -e '#include <cuda_fp8.h>' \
		pop/gen-000/c0/kernel.hip
	assert_output 3
	assert_features_build pop/gen-000/c0
}

@test "every header and instruction the cuda facts name compiles under ks-build's own flags" {
	export PATH="$PATH:/usr/local/cuda/bin"
	command -v nvcc >/dev/null || skip "nvcc is not installed: the cuda facts cannot be checked here"
	ks-init -p rmsnorm -t cuda -k 1 pop
	ks-implement pop/gen-000/c0
	feature_kernel "$KS_ROOT/prompts/targets/cuda.md" cu >pop/gen-000/c0/kernel.cu
	assert_features_build pop/gen-000/c0
}

@test "no TMA tensor map can be made: the build refuses cuTensorMapEncodeTiled and cudaGetDriverEntryPoint" {
	export PATH="$PATH:/usr/local/cuda/bin"
	command -v nvcc >/dev/null || skip "nvcc is not installed"
	local f
	ks-init -p fp8-mm -t hip-nvidia -k 1 pop
	ks-implement pop/gen-000/c0
	for f in cuTensorMapEncodeTiled cudaGetDriverEntryPoint; do
		{
			echo '#include <hip/hip_runtime.h>'
			echo '#include <stdint.h>'
			echo '#include <cuda.h>'
			echo 'void fp8_mm(int m, int n, int k, const uint8_t *a, const uint8_t *b, const float *a_scale, const float *b_scale, uint16_t *c) {'
			if [ $f = cuTensorMapEncodeTiled ]; then
				echo '	CUtensorMap map; cuuint64_t dims[2] = { (cuuint64_t)m, (cuuint64_t)k }, strides[1] = { (cuuint64_t)m };'
				echo '	cuuint32_t box[2] = { 64, 64 }, es[2] = { 1, 1 };'
				echo '	cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, (void *)a, dims, strides, box, es,'
				echo '	    CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,'
				echo '	    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);'
			else
				echo '	void *fn = 0; cudaDriverEntryPointQueryResult q;'
				echo '	cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &fn, cudaEnableDefault, &q);'
			fi
			echo '}'
		} >pop/gen-000/c0/kernel.hip
		rm -f pop/gen-000/c0/build.json
		run ks-build pop/gen-000/c0
		run -0 jq -r '.ok, .rejected' pop/gen-000/c0/build.json
		assert_line --index 0 false
		assert_line --index 1 --partial "the kernel imports '$f', which a kernel for target hip-nvidia may not use"
	done
}

# sysfs_size INDEX: cpu0's cache INDEX's size as the facts give it ("48K" is "48 KiB", "2048K" "2 MiB")
sysfs_size() {
	local k
	k=$(sed 's/K$//' "/sys/devices/system/cpu/cpu0/cache/index$1/size")
	if ((k >= 1024 && k % 1024 == 0)); then echo "$((k / 1024)) MiB"; else echo "$k KiB"; fi
}

@test "cpu: every stage's target section states the cores, SMT, caches, instruction set, measured peak and timing rules; no prompt says GPU or Nsight" {
	command -v lscpu >/dev/null || skip "lscpu is not installed: nothing to check the cores against"
	local cores threads smt n peak line
	gen_reply() {
		jq -nc --arg sel '{"base": "g000c0", "reference": "g000c0", "reason": "the only kernel"}' \
			--arg hyp "$(jq -n '{avenues: [range(10) | "avenue \(.)"], plans: [range(5) | {title: "plan \(.)",
				description: "d", rubric: "r", uplift_min: 0, uplift_max: 10, innovation: 5}]}')" \
			--arg impl "$(printf '```c\n%s\n```\n' "$(cat "$KS_ROOT/kernels/sgemm/seed.c")")" \
			'{fixture: [{content: $sel}, {content: $hyp}, {content: $impl}]}'
	}
	llm_server_start "$(gen_reply)"
	run -0 make -s --no-print-directory -C "$KS_ROOT" generation N=1 K=1 POP="$PWD/pop"
	assert_equal "$(llm_requests)" 3
	# the machine, counted here by lscpu: online CPUs and distinct (core, socket) pairs
	threads=$(lscpu -p=CPU | grep -vc '^#')
	cores=$(lscpu -p=CORE,SOCKET | grep -v '^#' | sort -u | wc -l)
	smt=$((threads / cores))
	peak=$(jq -r '.peak | "\(.flops_per_s / 1e9) \(.threads) \(.flops_per_s / 1e9 / '"$cores"') \(.vector_bits) \(.fma)"' \
		pop/gen-000/c0/bench.json | awk '{ printf "- Peak: %.4g GFLOP/s fp32 with all %d OpenMP threads, %.4g GFLOP/s per physical core (%d-bit vectors%s), measured by the runner before g000c0 ran.", $1, $2, $3, $4, $5 == "true" ? ", fused multiply-add" : "" }')
	for n in 1 2 3; do
		run -0 llm_request "$n" '.body.messages[0].content'
		assert_output --regexp '^You are a CPU kernel scientist: '
		run -0 llm_request "$n" '.body.messages[0].content, .body.messages[1].content'
		refute_output --partial GPU
		refute_output --partial Nsight
		refute_output --partial rocprof
		if ((smt == 1)); then
			assert_line "- CPU: $cores physical cores, $threads hardware threads (no SMT)."
		else
			assert_line "- CPU: $cores physical cores, $threads hardware threads (SMT: $smt per core)."
		fi
		assert_line --regexp "^- Caches \(of cpu0\): L1d $(sysfs_size 0) per core, L2 "
		assert_line --regexp '^- Instruction set: (-march=native is [a-z0-9-]+ here; )?the compiler defines __'
		assert_line "$peak"
		assert_line --regexp '^The kernels are compiled with `cc -std=c11 -O3 -march=native -fopenmp -Wall -Wextra` \(.+\)\.$'
		assert_line --regexp '^How the score is measured: .* timed call by call until the standard error of the mean is under 0\.5 % of it .* at least 1 call either way\. The shape.s time is the median of the timed calls, and the score the geometric mean over the shapes\. Every timed call gets new input contents, .* OpenMP.s fork and join \(waking the thread team, the barrier at the end\) are inside it\. The caches are not flushed'
		# each fact once
		assert_equal "$(grep -c -e 'compiled with .cc ' -e 'OpenMP.s fork' -e 'GFLOP/s per physical core' <<<"$output")" 3
	done
	# the line __AVX2__ stands for, where the compiler targets it
	if cc -march=native -dM -E -x c /dev/null | grep -q '__AVX2__ '; then
		run -0 llm_request 1 '.body.messages[1].content'
		assert_line --regexp '^- Instruction set: .*__AVX2__'
	fi
}

@test "hip-nvidia on fp8-mm: the system prompt says GPU; the usable headers and sm_90a instructions, the TMA limit, batches, fp8-mm's numbers and the FP8 accumulator" {
	fp8_pop hip-nvidia
	run -0 hyp_prompt
	assert_output --partial "CUDA's headers, included after it or before: <cuda_fp16.h>, <cuda_bf16.h>, <cuda_fp8.h>"
	assert_output --partial "\`wgmma.mma_async\` (e4m3 inputs too), \`mma.sync\` with e4m3 inputs (m16n8k32)"
	assert_output --partial "\`setmaxnreg\` (which ptxas applies only in a kernel with \`__launch_bounds__(threads, 1)\`"
	assert_output --partial "No TMA tensor map can be made"
	assert_output --partial "then timed in batches until the standard error of the mean is under 0.5 % of it"
	assert_output --partial "before it the harness flushes the caches (it reads twice the L2) and waits for the device"
	# the numbers of the problem, for every target, and the H200's accumulator, for this one
	assert_output --partial "# fp8-mm's numbers"
	assert_output --partial "# FP8 tensor cores on Hopper"
	run -0 llm_request 1 '.body.messages[0].content'
	assert_output --regexp '^You are a GPU kernel scientist: '
}

@test "hip-amd: the profile section names rocprofv3, not Nsight; its timing flushes the Infinity Cache; fp8-mm's numbers, no note of Hopper's accumulator" {
	fp8_pop hip-amd
	run -0 hyp_prompt
	assert_output --partial $'## What the profiler says of the base\n\nNo profile of the base g000c0 (make generation profiles each base where rocprofv3 runs, unless KS_PROFILE=0).\n\n## The base kernel'
	assert_output --partial "(it reads twice the larger of the L2 and the 256 MiB Infinity Cache)"
	assert_output --partial "# fp8-mm's numbers"
	refute_output --partial "Nsight"
	refute_output --partial "Hopper"
}

@test "the timing rules the prompts state are the harness's numbers, and ks-bench's defaults" {
	# (the harness and its parts: WARMUP_S is ks_harness.c's, the bench's rules ks_harness_bench.c's)
	local h=$BATS_TEST_TMPDIR/harness.c def
	cat "$KS_ROOT"/kernels/common/ks_harness*.c >"$h"
	def() { sed -nE "s/^#define $2[[:space:]]+([^[:space:]]+).*/\1/p" "$1" | head -1; }
	# the constants the sentences put in words
	assert_equal "$(def "$h" WARMUP_CALLS) $(def "$h" WARMUP_S) $(def "$h" TARGET_RSE) $(def "$h" WALL_CAPS)" "2 0.05 0.005 4"
	assert_equal "$(def "$h" SPOT_ONE_IN) $(def "$h" SPOT_PER_BATCH) $(def "$h" BATCH_S)" "4 2 10e-3"
	grep -qE '^#define BATCH_BYTES[[:space:]]+\(\(size_t\)1 << 30\)' "$h" || fail "BATCH_BYTES is not 1 GiB"
	assert_equal "$(def "$KS_ROOT/kernels/common/ks_judge.h" KS_JUDGE_MAX_BATCH)" 128
	assert_equal "$(def "$KS_ROOT/kernels/common/ks_gpu.hip" FLUSH_LLCS)" 2
	grep -qE '^#define LLC_FLOOR[[:space:]]+\(\(size_t\)256 << 20\)' "$KS_ROOT/kernels/common/ks_gpu.hip" ||
		fail "LLC_FLOOR (AMD's Infinity Cache) is not 256 MiB"
	# a problem without limits: ks-bench's defaults, 2 s, 5 runs and 50 ms of warm-up (read in ks_settings.c)
	run -0 grep -c -e '"time_cap_s", 0, 2.0,' -e '"min_runs", 1, 5,' -e '"warmup_s", 0, 0.05,' "$KS_ROOT/tools/lib/ks_settings.c"
	assert_output 3
	mkdir kernels
	cp -r "$KS_ROOT/kernels/common" "$KS_ROOT/kernels/sgemm" kernels/
	jq 'del(.limits.time_cap_s, .limits.min_runs)' "$KS_ROOT/kernels/sgemm/problem.json" >kernels/sgemm/problem.json
	export KS_KERNELS_DIR=$PWD/kernels
	unset KS_TIME_CAP_S KS_MIN_RUNS KS_BENCH_WARMUP_S
	make_pop pop
	fake_cand pop 0 0 ok 100 ''
	llm_server_start "$(jq -nc '{fixture: [{content: ({base: "g000c0", reference: "g000c0", reason: "r"} | tojson)}]}')"
	run -0 ks-select pop/gen-001
	run -0 llm_request 1 '.body.messages[1].content'
	assert_output --partial "each benchmark shape is called to warm up (at least 2 calls and 50 ms), then timed call by call until the standard error of the mean is under 0.5 % of it or 2 s of timed calls are spent (8 s with the checks), at least 5 calls either way."
	assert_output --partial "(one in four)."
}

@test "the CPU's cores, SMT and caches from sysfs trees, unknown where a tree lacks the files (tests/unit/facts.c)" {
	make -s --no-print-directory -C "$KS_ROOT" tests/unit/bin/facts
	run -0 "$KS_ROOT/tests/unit/bin/facts" trees
	assert_output "4 cases, 0 failed"
}

@test "fp8-mm's notes quote what an accumulator of 13 mantissa bits, and fp32, do to the check (tests/unit/fp8acc.c)" {
	local notes out blocks steps
	make -s --no-print-directory -C "$KS_ROOT" tests/unit/bin/fp8acc
	out=$("$KS_ROOT/tests/unit/bin/fp8acc" 1 2 3)
	# fp32 accumulation: no element fails, about 1e-5 of error on average and 2e-4 at most
	run -0 awk -F'[ ,;]+' '{ for (i = 1; i <= NF; i++) { if ($i == "fp32" && $(i+1) ~ /^[0-9]+$/) f += $(i+1);
		if ($i == "mean") m = m > $(i+1) ? m : $(i+1); if ($i == "greatest") g = g > $(i+1) ? g : $(i+1) } }
		END { print f, (m < 1.5e-5), (g <= 2e-4) }' <<<"$out"
	assert_output "0 1 1"
	blocks=$(grep -oE 'block [a-z-]+ [0-9]+' <<<"$out" | awk '{ print $3 }' | sort -n | sed -n '1p;$p' | paste -sd' ')
	steps=$(grep -oE 'step [a-z-]+ [0-9]+' <<<"$out" | awk '{ print $3 }' | sort -n | sed -n '1p;$p' | paste -sd' ')
	notes=$(cat "$KS_ROOT"/kernels/fp8-mm/knowledge/hip-nvidia/fp8-accumulation.md | tr -s ' \n' '  ')
	assert_equal "$(grep -o "fails ${blocks% *} to ${blocks#* } of the 98,304 elements of 64x1536x7168 when each 128-deep block is summed in it, and ${steps% *} to ${steps#* } when each k = 32 step" <<<"$notes" | wc -l)" 1
	notes=$(tr -s ' \n' '  ' <"$KS_ROOT/kernels/fp8-mm/knowledge/numerics.md")
	assert_equal "$(grep -c "erred by about 1e-5 on average, 2e-4 at most" <<<"$notes")" 1
}
