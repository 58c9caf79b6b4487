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
	llm_server_start "$(jq -nc '{fixture: [{content: ({base: "g000c0", reference: "g000c0", reason: "r"} | tojson)}]}')"
	run -0 ks-select pop/gen-001
	run -0 llm_request 1 '.body.messages[1].content'
	assert_output --partial $'# sgemm\n\nFor everyone.\n\n## Build\n\ncc, for the CPU.\n\n## Score\n\nLower is better.\n'
	refute_output --partial "nvcc."
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

@test "hip-amd: the profile section names rocprofv3, not Nsight; its timing flushes the Infinity Cache" {
	fp8_pop hip-amd
	run -0 hyp_prompt
	assert_output --partial $'## What the profiler says of the base\n\nNo profile of the base g000c0 (make generation KS_PROFILE=1 profiles each base where rocprofv3 runs).\n\n## The base kernel'
	assert_output --partial "(it reads twice the larger of the L2 and the 256 MiB Infinity Cache)"
	refute_output --partial "Nsight"
}

@test "the timing rules the prompts state are the harness's numbers, and ks-bench's defaults" {
	local h=$KS_ROOT/kernels/common/ks_harness.c def
	def() { sed -nE "s/^#define $2[[:space:]]+([^[:space:]]+).*/\1/p" "$1" | head -1; }
	# the constants the sentences put in words
	assert_equal "$(def "$h" WARMUP_CALLS) $(def "$h" WARMUP_S) $(def "$h" TARGET_RSE) $(def "$h" WALL_CAPS)" "2 0.05 0.005 4"
	assert_equal "$(def "$h" SPOT_ONE_IN) $(def "$h" SPOT_PER_BATCH) $(def "$h" BATCH_S)" "4 2 10e-3"
	grep -qE '^#define BATCH_BYTES[[:space:]]+\(\(size_t\)1 << 30\)' "$h" || fail "BATCH_BYTES is not 1 GiB"
	assert_equal "$(def "$KS_ROOT/kernels/common/ks_judge.h" KS_JUDGE_MAX_BATCH)" 128
	assert_equal "$(def "$KS_ROOT/kernels/common/ks_gpu.hip" FLUSH_LLCS)" 2
	grep -qE '^#define LLC_FLOOR[[:space:]]+\(\(size_t\)256 << 20\)' "$KS_ROOT/kernels/common/ks_gpu.hip" ||
		fail "LLC_FLOOR (AMD's Infinity Cache) is not 256 MiB"
	# a problem without limits: ks-bench's defaults, 2 s and 5 runs
	run -0 grep -c -e '"time_cap_s", 0, 2.0,' -e '"min_runs", 1, 5,' "$KS_ROOT/tools/ks-bench.c"
	assert_output 2
	mkdir kernels
	cp -r "$KS_ROOT/kernels/common" "$KS_ROOT/kernels/sgemm" kernels/
	jq 'del(.limits.time_cap_s, .limits.min_runs)' "$KS_ROOT/kernels/sgemm/problem.json" >kernels/sgemm/problem.json
	export KS_KERNELS_DIR=$PWD/kernels
	unset KS_TIME_CAP_S KS_MIN_RUNS
	make_pop pop
	fake_cand pop 0 0 ok 100 ''
	llm_server_start "$(jq -nc '{fixture: [{content: ({base: "g000c0", reference: "g000c0", reason: "r"} | tojson)}]}')"
	run -0 ks-select pop/gen-001
	run -0 llm_request 1 '.body.messages[1].content'
	assert_output --partial "each benchmark shape is called to warm up (at least 2 calls and 50 ms), then timed call by call until the standard error of the mean is under 0.5 % of it or 2 s of timed calls are spent (8 s with the checks), at least 5 calls either way."
	assert_output --partial "(one in four)."
}

@test "the CPU's cores, SMT and caches from sysfs trees, unknown where a tree lacks the files (tests/unit/facts.c)" {
	# shellcheck disable=SC2046
	cc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I"$KS_ROOT/tools" $(pkg-config --cflags libcjson) \
		"$KS_ROOT/tests/unit/facts.c" "$KS_ROOT/tools/libks.a" -o facts $(pkg-config --libs libcjson libcurl libcrypto) -lm
	run -0 ./facts trees
	assert_output "4 cases, 0 failed"
}
