#!/usr/bin/env bats
# Several GPUs: one harness at a time on each, benches spread over the free
# ones (KS_GPUS), the runner shown only its own device.  No GPU is needed:
# a stand-in compiler builds a runner that records the device it was given.

bats_require_minimum_version 1.5.0
load helper/common

setup() {
	cd "$BATS_TEST_TMPDIR"
	# a stand-in nvcc whose runner logs CUDA_VISIBLE_DEVICES around a 1 s "bench"
	stand_in_nvcc 1
	ks-init -p fp8-mm -t hip-nvidia -k 2 pop
	for s in 0 1; do
		mkdir -p pop/gen-001/c$s
		cp "$KS_ROOT/kernels/fp8-mm/seed.hip" pop/gen-001/c$s/kernel.hip
		ks-build pop/gen-001/c$s
	done
}

# the two benches' [start, end] on one line each, by device: "DEV START END"
intervals() {
	awk '$1 == "start" { s[$2 " " NR] = $3 } $1 == "end" { for (k in s) if (split(k, a, " ") && a[1] == $2 && !(k in done)) { print $2, s[k], $3; done[k] = 1; break } }' gpu.log | sort -k2
}

@test "two benches on two GPUs run at once, each runner seeing only its own" {
	KS_GPUS=0,1 ks-bench pop/gen-001/c0 &
	KS_GPUS=0,1 ks-bench pop/gen-001/c1 &
	wait
	run -0 jf pop/gen-001/c0/bench.json .status
	assert_output ok
	run -0 sh -c "cut -d' ' -f2 gpu.log | sort -u | tr '\n' ' '"
	assert_output "0 1 "
	# the second started before the first ended
	run -0 intervals
	[ "$(echo "$output" | awk 'NR == 2 { s = $2 } NR == 1 { e = $3 } END { print (s < e) }')" = 1 ] || fail "not in parallel: $output"
	run -0 jq -nc '[inputs.device] | sort' pop/gen-001/c0/bench.json pop/gen-001/c1/bench.json
	assert_output '["nvidia GPU 0 (CUDA_VISIBLE_DEVICES=0)","nvidia GPU 1 (CUDA_VISIBLE_DEVICES=1)"]'
}

@test "two benches on one GPU take turns" {
	KS_GPUS=3 ks-bench pop/gen-001/c0 &
	KS_GPUS=3 ks-bench pop/gen-001/c1 &
	wait
	run -0 sh -c "cut -d' ' -f2 gpu.log | sort -u"
	assert_output 3
	run -0 intervals
	[ "$(echo "$output" | awk 'NR == 2 { s = $2 } NR == 1 { e = $3 } END { print (s >= e) }')" = 1 ] || fail "overlapped: $output"
}

@test "make -j with KS_GPUS benches a generation's candidates on different GPUs at once" {
	KS_GPUS=0,1 run -0 make -s -C "$KS_ROOT" -j4 generation N=1 K=2 POP="$PWD/pop2" PROBLEM=fp8-mm TARGET=hip-nvidia
	run -0 jq -nc '[inputs.device] | sort' pop2/gen-001/c0/bench.json pop2/gen-001/c1/bench.json
	assert_output '["nvidia GPU 0 (CUDA_VISIBLE_DEVICES=0)","nvidia GPU 1 (CUDA_VISIBLE_DEVICES=1)"]'
	run -0 intervals
	[ "$(echo "$output" | tail -2 | awk 'NR == 2 { s = $2 } NR == 1 { e = $3 } END { print (s < e) }')" = 1 ] || fail "not in parallel: $output"
}

@test "a GPU that fails before the kernel runs is marked failed, and the bench goes to another GPU of KS_GPUS" {
	local mark=$KS_LOCK_DIR/kernel-scientist-bench-$(hostname)-nvidia-0.failed
	touch dead-gpu-0
	KS_GPUS=0,1 run -0 ks-bench pop/gen-001/c0
	assert_output "ks-bench: nvidia GPU 0 (CUDA_VISIBLE_DEVICES=0) failed: the device failed before the kernel ran: no CUDA-capable device is detected; marked in '$mark' (remove it once the GPU is back)"
	run -0 jq -c '[.status, .device]' pop/gen-001/c0/bench.json
	assert_output '["ok","nvidia GPU 1 (CUDA_VISIBLE_DEVICES=1)"]'
	run -0 head -n 1 "$mark"
	assert_output "the device failed before the kernel ran: no CUDA-capable device is detected"
	# the next bench takes GPU 1 without trying GPU 0, even once it works again
	rm dead-gpu-0
	KS_GPUS=0,1 run -0 ks-bench pop/gen-001/c1
	assert_output ""
	run -0 jf pop/gen-001/c1/bench.json .device
	assert_output "nvidia GPU 1 (CUDA_VISIBLE_DEVICES=1)"
	run -0 sh -c "cut -d' ' -f2 gpu.log | sort -u"
	assert_output 1
}

@test "with every GPU of KS_GPUS failed, or its only GPU, no bench.json and exit 1; the rerun once they work benches" {
	touch dead-gpu-0 dead-gpu-1
	KS_GPUS=0,1 run -1 ks-bench pop/gen-001/c0
	assert_line --index 1 "ks-bench: nvidia GPU 1 (CUDA_VISIBLE_DEVICES=1) failed: the device failed before the kernel ran: no CUDA-capable device is detected; marked in '$KS_LOCK_DIR/kernel-scientist-bench-$(hostname)-nvidia-1.failed' (remove it once the GPU is back)"
	assert_line --index 2 "ks-bench: every GPU of KS_GPUS is marked failed ('$KS_LOCK_DIR/kernel-scientist-bench-$(hostname)-nvidia-0.failed' and the others): bench where a GPU works, or remove the marks once the GPUs are back"
	assert_file_not_exists pop/gen-001/c0/bench.json
	# marked: refused at once, the GPUs not tried
	KS_GPUS=1,0 run -1 ks-bench pop/gen-001/c0
	assert_output --partial "every GPU of KS_GPUS is marked failed"
	# one GPU: nothing to mark it against, no verdict
	touch dead-gpu-3
	KS_GPUS=3 run -1 ks-bench pop/gen-001/c1
	assert_output "ks-bench: nvidia GPU 3 (CUDA_VISIBLE_DEVICES=3) failed: the device failed before the kernel ran: no CUDA-capable device is detected; no bench.json: bench again once it works"
	assert_file_not_exists pop/gen-001/c1/bench.json
	assert_file_not_exists "$KS_LOCK_DIR/kernel-scientist-bench-$(hostname)-nvidia-3.failed"
	rm dead-gpu-* "$KS_LOCK_DIR"/*.failed
	KS_GPUS=0,1 run -0 ks-bench pop/gen-001/c0
	assert_equal "$(jf pop/gen-001/c0/bench.json .status)" ok
}

@test "a bad KS_GPUS is named in one line, exit 1, no bench.json" {
	KS_GPUS=0,x run -1 ks-bench pop/gen-001/c0
	assert_output "ks-bench: bad KS_GPUS '0,x': expected GPU indices such as 0,1,3 (at most 64)"
	assert_file_not_exists pop/gen-001/c0/bench.json
}

# What srun --gres=gpu:1 sets on a node under a device cgroup: the runtime
# sees the step's GPU as its 0, Slurm names it by its index on the node
# (SLURM_STEP_GPUS).  tests/0112 has a real Slurm give GPUs.
@test "under Slurm, two steps on two GPUs of a node run at once, each GPU locked by its index on the node" {
	CUDA_VISIBLE_DEVICES=0 SLURM_STEP_GPUS=2 SLURM_JOB_ID=7 SLURM_STEP_ID=0 ks-bench pop/gen-001/c0 &
	CUDA_VISIBLE_DEVICES=0 SLURM_STEP_GPUS=3 SLURM_JOB_ID=8 SLURM_STEP_ID=0 SLURMD_NODENAME=n3 ks-bench pop/gen-001/c1 &
	wait
	run -0 jq -nc '[inputs | [.status, .device, .launch]]' pop/gen-001/c0/bench.json pop/gen-001/c1/bench.json
	assert_output "[[\"ok\",\"nvidia GPU 2 (Slurm's, SLURM_STEP_GPUS=2)\",{\"slurm_job_id\":\"7\",\"slurm_step_id\":\"0\",\"node\":\"$(hostname)\"}],[\"ok\",\"nvidia GPU 3 (Slurm's, SLURM_STEP_GPUS=3)\",{\"slurm_job_id\":\"8\",\"slurm_step_id\":\"0\",\"node\":\"n3\"}]]"
	# the runners were left Slurm's numbering, and ran side by side
	run -0 sh -c "cut -d' ' -f2 gpu.log | sort -u"
	assert_output 0
	run -0 sh -c "awk '{ print \$1 }' gpu.log | tr '\n' ' '"
	assert_output "start start end end "
	assert_file_exists "$KS_LOCK_DIR/kernel-scientist-bench-$(hostname)-nvidia-2.lock"
	assert_file_exists "$KS_LOCK_DIR/kernel-scientist-bench-$(hostname)-nvidia-3.lock"
}

@test "under Slurm, a step and a bench outside Slurm on the same GPU of a node take turns" {
	CUDA_VISIBLE_DEVICES=0 SLURM_STEP_GPUS=3 SLURM_JOB_ID=7 ks-bench pop/gen-001/c0 &
	KS_GPUS=3 ks-bench pop/gen-001/c1 &
	wait
	run -0 sh -c "awk '{ print \$1 }' gpu.log | tr '\n' ' '"
	assert_output "start end start end "
	run -0 jq -nc '[inputs.device] | sort' pop/gen-001/c0/bench.json pop/gen-001/c1/bench.json
	assert_output "[\"nvidia GPU 3 (CUDA_VISIBLE_DEVICES=3)\",\"nvidia GPU 3 (Slurm's, SLURM_STEP_GPUS=3)\"]"
}

# stand_in_smi PIDS REASONS: bin/nvidia-smi (KS_NVIDIA_SMI names it), which
# logs its arguments to smi.log and says the GPU runs at 1755 of 1980 MHz,
# 41 C, with the throttle reasons REASONS and the processes PIDS on it
stand_in_smi() {
	mkdir -p bin
	cat >bin/nvidia-smi <<SH
#!/bin/sh
echo "\$*" >>$PWD/smi.log
case \$1 in
--query-gpu=*) echo "1755, 1980, 41, $2" ;;
--query-compute-apps=pid) for p in $1; do echo \$p; done ;;
esac
SH
	chmod +x bin/nvidia-smi
	export KS_NVIDIA_SMI=$PWD/bin/nvidia-smi
}

@test "a GPU bench records its GPU's clocks, temperature, throttle reasons and other processes, and is noisy where another shares it" {
	stand_in_smi 4242 0x0000000000000001
	KS_GPUS=1 run -0 ks-bench pop/gen-001/c0
	run -0 jq -c '.machine.gpu' pop/gen-001/c0/bench.json
	assert_output '{"index":"1","sm_mhz_before":1755,"sm_mhz_after":1755,"sm_max_mhz":1980,"temp_c_before":41,"temp_c_after":41,"throttle_before":["gpu_idle"],"throttle_after":["gpu_idle"],"other_pids":[4242]}'
	run -0 jf pop/gen-001/c0/bench.json .status .machine.noisy .machine.reason
	assert_output $'ok\ntrue\nother processes on the GPU around the bench (pid 4242)'
	# asked of the GPU the runner was shown, before and after the bench
	run -0 grep -c -- '-i 1$' smi.log
	assert_output 4
	# a GPU slowed down by its heat; its power cap is the kernel's own, not noise
	# (the stand-in's verdict is the same every time: a bench.json left would stand)
	rm smi.log pop/gen-001/c0/bench.json
	stand_in_smi "" 0x0000000000000044
	KS_GPUS=1 run -0 ks-bench pop/gen-001/c0
	run -0 jf pop/gen-001/c0/bench.json .machine.gpu.throttle_after .machine.noisy .machine.reason
	assert_output $'["sw_power_cap","hw_thermal_slowdown"]\ntrue\nthe GPU slowed down: hw_thermal_slowdown'
	rm pop/gen-001/c0/bench.json
	stand_in_smi "" 0x0000000000000004
	KS_GPUS=1 run -0 ks-bench pop/gen-001/c0
	run -0 jf pop/gen-001/c0/bench.json .machine.noisy .machine.reason
	assert_output $'false\nnull'
}

@test "a GPU bench without nvidia-smi, or with one that answers nonsense, says so in bench.json and is benched all the same" {
	KS_NVIDIA_SMI=no-such-smi KS_GPUS=0 run -0 ks-bench pop/gen-001/c0
	run -0 jq -c '[.status, .machine.gpu, .machine.noisy]' pop/gen-001/c0/bench.json
	assert_output '["ok",{"index":"0","error":"not sampled: no-such-smi is not on PATH (KS_NVIDIA_SMI)"},false]'
	rm pop/gen-001/c0/bench.json
	printf '#!/bin/sh\necho "No devices were found"\nexit 6\n' >bin/smi
	chmod +x bin/smi
	KS_NVIDIA_SMI=$PWD/bin/smi KS_GPUS=0 run -0 ks-bench pop/gen-001/c0
	run -0 jq -c '[.status, .machine.gpu, .machine.noisy]' pop/gen-001/c0/bench.json
	assert_output '["ok",{"index":"0","error":"not sampled: nvidia-smi -i 0 said '"'No devices were found'"'"},false]'
}

@test "tests/gpu/failed-gpu.sh: a GPU that is not there beside one that is, through ks-bench (here stand-ins)" {
	# the stand-in fails GPU 7 as the runtime would fail a GPU CUDA_VISIBLE_DEVICES shows none of
	touch dead-gpu-7
	TMPDIR=$PWD run -0 "$KS_ROOT/tests/gpu/failed-gpu.sh" rmsnorm cuda 0 7
	refute_output --partial FAIL
	assert_line "PASS GONE,OK: ok on GPU 0"
	assert_line "PASS GONE alone: the message says to bench again"
	assert_equal "$(grep -c '^PASS' <<<"$output")" 9
}

# What each device ran, one interval a line: "DEV START END" (every start with the end that follows it on DEV)
device_intervals() {
	awk '$1 == "start" { open[$2] = $3 } $1 == "end" && ($2 in open) { print $2, open[$2], $3; delete open[$2] }' gpu.log | sort -k1,1 -k2,2n
}

@test "two runs in two populations share the GPUs: every GPU busy at once, never two benches on one" {
	KS_GPUS=0,1 make -s -C "$KS_ROOT" -j2 generation N=1 K=2 POP="$PWD/pa" PROBLEM=fp8-mm TARGET=hip-nvidia >a.out 2>&1 &
	local a=$!
	KS_GPUS=0,1 make -s -C "$KS_ROOT" -j2 generation N=1 K=2 POP="$PWD/pb" PROBLEM=fp8-mm TARGET=hip-nvidia >b.out 2>&1 &
	local b=$!
	wait "$a" || fail "the first run failed: $(cat a.out)"
	wait "$b" || fail "the second run failed: $(cat b.out)"
	# six benches (each run's seed and its two candidates), on both GPUs (two at once on a GPU would pair fewer)
	assert_equal "$(grep -c '^start' gpu.log)" 6
	run -0 device_intervals
	assert_equal "${#lines[@]}" 6
	run -0 sh -c "cut -d' ' -f2 gpu.log | sort -u | tr '\n' ' '"
	assert_output "0 1 "
	# on one GPU one bench at a time (the lock); on two, some benches at once (no wait beyond the lock's)
	run -0 device_intervals
	echo "$output" | awk '$1 == dev && $2 < end { print "overlap on GPU " $1 ": " $0; bad = 1 } { dev = $1; end = $3 }
		END { exit bad }' || fail "two benches on one GPU at once: $output"
	echo "$output" | awk '{ d[NR] = $1; s[NR] = $2; e[NR] = $3 } END { for (i = 1; i <= NR; i++) for (j = 1; j <= NR; j++)
		if (d[i] != d[j] && s[i] < e[j] && s[j] < e[i]) exit 0; exit 1 }' || fail "never two GPUs at once: $output"
	for p in pa pb; do
		run -0 jq -r '.device' $p/gen-000/c0/bench.json $p/gen-001/c0/bench.json $p/gen-001/c1/bench.json
		refute_output --partial null
	done
}

@test "tests/gpu/multi-gpu.sh: one GPU against two, and two runs at once, through make (here stand-ins)" {
	TMPDIR=$PWD N=1 K=2 run "$KS_ROOT/tests/gpu/multi-gpu.sh" out 0,1
	# (all but the speed-up, which a loaded machine may hold back: 1 s stand-in benches, builds beside them)
	refute_line --regexp '^FAIL [^g]'
	assert_line "PASS multi: every GPU used (2 of 2)"
	for p in one multi pa pb; do
		assert_line "PASS $p: no two benches on one GPU at once"
	done
	assert_line "PASS pair: the two runs benched on different GPUs at the same time"
	# the seed and generation 1's two kernels, the same files in both runs
	assert_line "PASS one and multi benched the same kernels (3 in both)"
	assert_line --regexp '^gen-001: bench part [0-9.]+ s on one GPU, [0-9.]+ s on 2: [0-9.]+x \(the issue.s target 1.6x; 2 benches on 2 GPUs allow at most 2.00x\)$'
	assert_line --regexp '^pair: [0-9.]+ s of benches in [0-9.]+ s on 2 GPUs'
	cat out/report.txt
	run -0 tar tzf out/populations.tgz
	assert_line ./multi/gen-001/c1/bench.json
	# a GPU that ran two benches at once is seen: one of multi's moved to end within the other on its GPU
	local a=ks-multi-gpu/multi/gen-001/c0/bench.json b=ks-multi-gpu/multi/gen-001/c1/bench.json
	jq '.device = "nvidia GPU 0 (CUDA_VISIBLE_DEVICES=0)" | .seconds = 5' $a >x && mv x $a
	jq '.device = "nvidia GPU 0 (CUDA_VISIBLE_DEVICES=0)" | .seconds = 5' $b >x && mv x $b
	touch -d '@1000000010' $a
	touch -d '@1000000008' $b
	TMPDIR=$PWD STEPS=report run -1 "$KS_ROOT/tests/gpu/multi-gpu.sh" out 0,1
	assert_line "FAIL multi: no two benches on one GPU at once"
	assert_line "FAIL multi: every GPU used (1 of 2)"
	assert_line --regexp '^one: make generation took [0-9.]+ s, exit 0$'
}
