#!/usr/bin/env bats
# ks-profile: Nsight Compute on a benched kernel, one call on the shape
# furthest from the speed of light, kept in cS/profile.json, and its
# digest in the hypothesize prompt.  Here, without a GPU, ncu is
# tests/fixtures/ncu/fake-ncu printing a table recorded on the H200 (the
# fp8-mm seed under ncu 2025.3.1; kernels/GPU-RESULTS.md); the real run
# is tests/gpu/profile.sh.

bats_require_minimum_version 1.5.0
load helper/common
load helper/llm

setup() {
	cd "$BATS_TEST_TMPDIR"
	ks-init -p fp8-mm -t hip-nvidia -k 1 pop >/dev/null
	ks-implement pop/gen-000/c0
	# benched ok: every shape at 10 % of SOL but 1024x4608x7168, at 1 %
	jq '{id: "g000c0", status: "ok", correct: true, device: "nvidia", timer: "test", score_us: 1000,
		results: [.bench_shapes | to_entries[] | {shape: (.value | del(.seed)), time_us: 1000,
			sol_us: (if .key == 5 then 10 else 100 end), bound_us: 10, runs: 5}]}' \
		"$KS_ROOT/kernels/fp8-mm/problem.json" >pop/gen-000/c0/bench.json
	export KS_NCU=$KS_ROOT/tests/fixtures/ncu/fake-ncu FAKE_NCU_CSV=$KS_ROOT/tests/fixtures/ncu/fp8-mm-seed.csv
	export FAKE_NCU_ARGS=$PWD/ncu-args KS_SANDBOX_ENV="FAKE_NCU_CSV FAKE_NCU_ARGS FAKE_NCU_FAIL"
}

teardown() {
	llm_server_stop
}

@test "ks-profile runs ncu on one call of the shape furthest from SOL and keeps occupancy, throughput, stalls, conflicts" {
	run -0 ks-profile pop/gen-000/c0
	# ncu: only the profiler's range (the candidate's call), its table in base units, the runner in --profile mode
	run cat ncu-args
	assert_output --partial $'--target-processes\nall\n--target-processes-filter\nworker\n--profile-from-start\noff\n--csv\n--page\nraw\n--print-units\nbase\n--metrics\n'
	assert_output --partial "$PWD/pop/gen-000/c0/runner"$'\n--profile\n--salt\n0\n--seed\n20250601\n--bench\n1024x4608x7168@7531'
	assert_output --regexp "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"
	assert_output --regexp "sm__warps_active.avg.pct_of_peak_sustained_active"
	# what profile.json keeps, as the H200 measured it
	run jq -c '{id, profiler, shape, shape_chosen, sha: (.kernel_sha256 == $sha), n: (.kernels | length)}, (.kernels[0] | del(.stalls)), .kernels[0].stalls' \
		--arg sha "$(sha256sum pop/gen-000/c0/kernel.hip | cut -d' ' -f1)" pop/gen-000/c0/profile.json
	assert_output '{"id":"g000c0","profiler":"ncu","shape":{"m":1024,"n":4608,"k":7168},"shape_chosen":"the furthest from the speed of light, at 1.0 % of it","sha":true,"n":1}
{"name":"fp8_mm_naive(int, int, int, const unsigned char *, const unsigned char *, const float *, const float *, unsigned short *)","duration_us":419218.848,"achieved_occupancy_pct":99.76,"theoretical_occupancy_pct":100,"dram_throughput_pct":0.01,"sm_throughput_pct":86.3,"shared_bank_conflicts_load":0,"shared_bank_conflicts_store":0}
[{"reason":"not_selected","per_issue":5.61},{"reason":"long_scoreboard","per_issue":4.46},{"reason":"math_pipe_throttle","per_issue":3.5},{"reason":"wait","per_issue":2.65},{"reason":"dispatch_stall","per_issue":0.57}]'
	# the working directory is gone
	assert_file_not_exists pop/gen-000/c0/.profile
}

@test "the worker's own kernels around the call (ks_worker_pad, ks_worker_tail) are not the kernel's profile" {
	# (before, on the H200: the digest listed ks_worker_pad and ks_worker_tail beside the candidate's kernel)
	local csv=$PWD/with-worker.csv
	{
		sed -n 1,2p "$FAKE_NCU_CSV"
		sed -n 3p "$FAKE_NCU_CSV" | sed 's/"fp8_mm_naive([^"]*)"/"ks_worker_pad(unsigned long long)"/'
		sed -n '3,$p' "$FAKE_NCU_CSV"
		sed -n 3p "$FAKE_NCU_CSV" | sed 's/"fp8_mm_naive([^"]*)"/"void ks_worker_tail<1>(unsigned long long)"/'
	} >"$csv"
	FAKE_NCU_CSV=$csv run -0 ks-profile pop/gen-000/c0
	run jq -r '.kernels[].name' pop/gen-000/c0/profile.json
	assert_output 'fp8_mm_naive(int, int, int, const unsigned char *, const unsigned char *, const float *, const float *, unsigned short *)'
}

@test "the hypothesize prompt shows the digest; a kernel edited since its profile has none" {
	ks-profile pop/gen-000/c0
	mkdir -p pop/gen-001
	jq -n '{base: "g000c0", reference: "g000c0", reason: "the seed"}' >pop/gen-001/select.json
	plans_reply plans.json
	llm_server_start "$(jq -nc --rawfile p plans.json '{hyp: [{content: $p}]}')"
	export KS_HYPOTHESIZE_MODEL=hyp
	run -0 ks-hypothesize pop/gen-001
	run llm_request 1 '.body.messages[1].content'
	assert_output --partial $'## What the profiler says of the base\n\nNsight Compute on the base g000c0, one call on shape 1024x4608x7168 (the furthest from the speed of light, at 1.0 % of it):\n- kernel fp8_mm_naive, 419218.85 us; achieved occupancy 99.8 %; theoretical occupancy 100.0 %; DRAM throughput 0.0 % of peak; SM throughput 86.3 % of peak; warp stalls (cycles per issued instruction): not_selected 5.61, long_scoreboard 4.46, math_pipe_throttle 3.50, wait 2.65, dispatch_stall 0.57; shared-memory bank conflicts: 0 on loads, 0 on stores\n'
	echo '// edited by hand' >>pop/gen-000/c0/kernel.hip
	rm pop/gen-001/hypotheses.json
	KS_LLM_CACHE=off run -0 ks-hypothesize pop/gen-001
	run llm_request 2 '.body.messages[1].content'
	assert_output --partial $'## What the profiler says of the base\n\nNo profile of the base g000c0 (make generation profiles each base where Nsight Compute runs, unless KS_PROFILE=0).\n'
}

@test "given POP/gen-NNN, ks-profile profiles the base select.json names, once per kernel" {
	mkdir -p pop/gen-001
	jq -n '{base: "g000c0", reference: "g000c0", reason: "the seed"}' >pop/gen-001/select.json
	run -0 ks-profile pop/gen-001
	assert_file_exists pop/gen-000/c0/profile.json
	assert_file_exists ncu-args
	# chosen again: the profile stands, ncu is not run
	rm ncu-args
	run -0 ks-profile pop/gen-001
	assert_file_not_exists ncu-args
	# the kernel changed: profiled again
	echo '// edited' >>pop/gen-000/c0/kernel.hip
	run -0 ks-profile pop/gen-001
	assert_file_exists ncu-args
}

@test "where no profiler runs, profile.json says why and ks-profile succeeds" {
	# ncu refused (no permission for the counters): its last line
	FAKE_NCU_FAIL=1 run -0 --separate-stderr ks-profile pop/gen-000/c0
	run jf pop/gen-000/c0/profile.json .skipped 'has("kernels")'
	assert_output $'ncu exited with status 1: ==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0.\nfalse'
	# no ncu
	KS_NCU=/nonexistent/ncu run -0 ks-profile pop/gen-000/c0
	assert_equal "$(jget pop/gen-000/c0/profile.json .skipped)" "no profiler here: Nsight Compute (ncu) is not on PATH (or KS_NCU)"
	# a kernel that is not benched ok
	jq '.status = "incorrect" | .correct = false | .score_us = null' pop/gen-000/c0/bench.json >b && mv b pop/gen-000/c0/bench.json
	run -0 ks-profile pop/gen-000/c0
	assert_equal "$(jget pop/gen-000/c0/profile.json .skipped)" "g000c0 is not benched ok (status incorrect): nothing to profile"
	# a bad setting is an error, named before anything is run
	rm ncu-args
	KS_PROFILE_TIMEOUT_S=soon run -1 --separate-stderr ks-profile pop/gen-000/c0
	assert_file_not_exists ncu-args
	assert_equal "$stderr" "ks-profile: KS_PROFILE_TIMEOUT_S must be a positive number of seconds, not 'soon'"
}

@test "make generation KS_PROFILE=1 profiles each base before its plans; on the CPU it says there is no profiler" {
	run -0 make -s --no-print-directory -C "$KS_ROOT" generation N=1 K=1 POP="$PWD/cpu" KS_PROFILE=1
	assert_equal "$(jget cpu/gen-000/c0/profile.json .skipped)" \
		"no profiler for target cpu: ks-profile runs Nsight Compute on NVIDIA GPUs and rocprofv3 on AMD GPUs"
	run -0 make -s --no-print-directory -C "$KS_ROOT" generation N=1 K=1 POP="$PWD/plain"
	assert_file_not_exists plain/gen-000/c0/profile.json
}

@test "by default (KS_PROFILE=auto) make profiles each base where a profiler runs, and on the CPU writes nothing" {
	# (before: the base was profiled only with KS_PROFILE=1, so a model on a GPU saw no profile by default)
	mkdir -p pop/gen-001
	jq -n '{base: "g000c0", reference: "g000c0", reason: "the seed"}' >pop/gen-001/select.json
	run -0 make -n -s --no-print-directory -C "$KS_ROOT" ks-pipeline N=1 K=1 POP="$PWD/pop"
	assert_output --regexp "KS_PROFILE=auto [^ ]*/ks-profile $PWD/pop/gen-001 && [^ ]*/ks-hypothesize -o $PWD/pop/gen-001/hypotheses.json"
	run -0 make -n -s --no-print-directory -C "$KS_ROOT" ks-pipeline N=1 K=1 POP="$PWD/pop" KS_PROFILE=0
	refute_output --partial ks-profile
	# ks-profile itself, as make runs it: the GPU's base profiled, the CPU's left alone
	KS_PROFILE=auto run -0 ks-profile pop/gen-001
	assert_equal "$(jget pop/gen-000/c0/profile.json .profiler)" ncu
	ks-init -p sgemm -t cpu -k 1 cpu >/dev/null
	ks-implement cpu/gen-000/c0
	cp pop/gen-000/c0/bench.json cpu/gen-000/c0/
	KS_PROFILE=auto run -0 --separate-stderr ks-profile cpu/gen-000/c0
	assert_equal "$stderr" ""
	assert_file_not_exists cpu/gen-000/c0/profile.json
	# a value make does not know is refused before anything runs
	run -2 make -s --no-print-directory -C "$KS_ROOT" generation N=1 K=1 POP="$PWD/bad" KS_PROFILE=yes
	assert_output --partial "KS_PROFILE must be 0, 1 or auto, not 'yes'"
	assert_file_not_exists bad/run.json
}

# amd_pop: the fp8-mm seed for hip-amd, benched ok as in setup, and a fake rocprofv3
amd_pop() {
	ks-init -p fp8-mm -t hip-amd -k 1 amd >/dev/null
	ks-implement amd/gen-000/c0
	cp pop/gen-000/c0/bench.json amd/gen-000/c0/
	export KS_ROCPROF=$KS_ROOT/tests/fixtures/rocprof/fake-rocprofv3 FAKE_ROCPROF_ARGS=$PWD/rocprof-args
	export KS_SANDBOX_ENV="$KS_SANDBOX_ENV FAKE_ROCPROF_ARGS FAKE_ROCPROF_FAIL"
}

@test "on AMD, rocprofv3 counts the candidate's call, a pass per counter set (its documented CSV; no AMD GPU here)" {
	amd_pop
	run -0 ks-profile amd/gen-000/c0
	# the passes in an input file, the tables in the box, the runner in --profile mode
	run cat rocprof-args
	assert_line --index 1 --regexp '/amd/gen-000/c0/\.profile/counters\.txt$'
	assert_output --partial $'-o\nprof\n--output-format\ncsv\n--\n'"$PWD/amd/gen-000/c0/runner"$'\n--profile\n--salt\n0\n--seed\n20250601\n--bench\n1024x4608x7168@7531'
	# of the candidate's kernel, the later dispatch (the call that counts); the harness's own kernels left out
	run jq -c '.profiler, (.kernels | length), .kernels[0]' amd/gen-000/c0/profile.json
	assert_output '"rocprofv3"
1
{"name":"fp8_mm_naive(int, int, int, unsigned char const*, unsigned char const*, float const*, float const*, unsigned short*)","achieved_occupancy_pct":42.5,"valu_busy_pct":61.25,"mem_unit_stalled_pct":7.5,"lds_bank_conflict_pct":0,"fetch_kb":81920,"write_kb":12288,"duration_us":419.219,"stalls":[]}'
	# and the digest the hypothesize prompt shows
	mkdir -p amd/gen-001
	jq -n '{base: "g000c0", reference: "g000c0", reason: "the seed"}' >amd/gen-001/select.json
	plans_reply plans.json
	llm_server_start "$(jq -nc --rawfile p plans.json '{hyp: [{content: $p}]}')"
	KS_HYPOTHESIZE_MODEL=hyp run -0 ks-hypothesize amd/gen-001
	run llm_request 1 '.body.messages[1].content'
	assert_output --partial $'rocprofv3 on the base g000c0, one call on shape 1024x4608x7168 (the furthest from the speed of light, at 1.0 % of it):\n- kernel fp8_mm_naive, 419.22 us; achieved occupancy 42.5 %; VALU busy 61.2 %; memory unit stalled 7.5 %; LDS stalled by bank conflicts 0.0 %; 81920 KB fetched, 12288 KB written\n'
}

@test "on AMD, a rocprofv3 that fails leaves its reason in profile.json" {
	amd_pop
	FAKE_ROCPROF_FAIL=134 run -0 ks-profile amd/gen-000/c0
	assert_equal "$(jget amd/gen-000/c0/profile.json .skipped)" \
		"rocprofv3 exited with status 134: Could not construct profile cfg failed with error code 38: Request exceeds the capabilities of the hardware to collect"
}
