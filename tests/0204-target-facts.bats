#!/usr/bin/env bats
# What the model is told about the machine is the target's (issue 13,
# item 3): task.md's "(target T)" sections, knowledge/<target>/ notes and
# prompts/targets/<target>[-<arch>].md, with the architecture built.

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
	assert_output --partial "The kernels are compiled for: sm_90a."
	assert_output --partial "nvcc -std=c++17 -O3 -Xptxas -v -x cu -gencode=arch=compute_90a,code=sm_90a"
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
	assert_output --partial "The kernels are compiled for: gfx942."
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
	assert_output --partial "The kernels are compiled for: sm_80."
	llm_server_stop
	cp -r "$KS_ROOT/prompts" prompts
	echo "An NVIDIA A100 (sm_80): 108 SMs." >prompts/targets/hip-nvidia-sm_80.md
	rm -rf pop
	fp8_pop hip-nvidia
	KS_PROMPTS_DIR=$PWD/prompts KS_GPU_ARCH=sm_80 run -0 hyp_prompt
	assert_output --partial $'An NVIDIA A100 (sm_80): 108 SMs.\nThe kernels are compiled for: sm_80.'
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
