#!/usr/bin/env bats
# Side by side: a candidate is timed with its base in one bench, a call of
# each per round in a drawn order, each on fresh inputs, so that their
# ratio does not depend on when each was benched (bench.json "versus",
# population(5)).

bats_require_minimum_version 1.5.0
load helper/common
load helper/llm

teardown() {
	llm_server_stop
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	export KS_BENCH_TIMEOUT_S=60 KS_TIME_CAP_S=0.2 KS_MIN_RUNS=5
	make_pop pop 3
	ks-implement pop/gen-000/c0
	ks-build pop/gen-000/c0
	ks-bench pop/gen-000/c0
}

# by_hand SLOT FILE: FILE as gen-001/cSLOT, based on the seed, built and benched
by_hand() {
	mkdir -p "pop/gen-001/c$1"
	cp "$2" "pop/gen-001/c$1/kernel.c"
	hand_candidate "pop/gen-001/c$1"
	ks-build "pop/gen-001/c$1"
	ks-bench "pop/gen-001/c$1"
}

@test "a candidate is timed side by side with its base: the ratio, its interval and each shape's rounds" {
	# (before: a candidate's time was set against its base's score, benched earlier under other load)
	# one thread each: under a parallel test suite an OpenMP team's barrier waits out whole time slices,
	# which made the register-blocked kernel read 0.5x of the seed where it is 0.08x on an idle machine
	export OMP_NUM_THREADS=1
	by_hand 0 "$KS_ROOT/kernels/sgemm/seed.c"
	with_defines "$KS_ROOT/kernels/sgemm/seed.c" BN=128 BK=256 UNROLL=2 LOOP_ORDER=2 VW=16 >fast.c
	by_hand 1 fast.c
	# the seed has no base: nothing to compare with
	run jq -c 'has("versus")' pop/gen-000/c0/bench.json
	assert_output false
	local c
	for c in 0 1; do
		run jq -r --argjson min 5 '.versus | .id, (.per_shape | length),
			(.ratio >= .ci95[0] and .ratio <= .ci95[1]),
			all(.per_shape[]; .rounds >= $min and .ratio >= .ci95[0] and .ratio <= .ci95[1]
			    and .base_time_us > 0 and .time_us > 0),
			([.per_shape[].shape | keys_unsorted] == [["M", "N", "K"], ["M", "N", "K"], ["M", "N", "K"]])' \
			"pop/gen-001/c$c/bench.json"
		assert_output $'g000c0\n3\ntrue\ntrue\ntrue' || { jq -c "[.results[].runs], [.versus.per_shape[].rounds], .message" "pop/gen-001/c$c/bench.json"; false; }
	done
	# the same kernel against itself: about 1; the register-blocked one (0.08x alone, here) well under
	run jq -e '.versus.ratio > 0.67 and .versus.ratio < 1.5' pop/gen-001/c0/bench.json
	assert_success
	run jq -e '.versus.ratio < 0.5 and .versus.ci95[1] < 0.6' pop/gen-001/c1/bench.json
	assert_success
	# the ratio is the geometric mean of the shapes'
	run jq -e '(.versus.per_shape | map(.ratio | log) | add / length | exp) as $g
		| ($g / .versus.ratio - 1 | fabs) < 1e-9' pop/gen-001/c1/bench.json
	assert_success
}

@test "KS_VERSUS=0 benches a candidate alone; a bad value is named before anything runs" {
	KS_VERSUS=0 by_hand 0 "$KS_ROOT/kernels/sgemm/seed.c"
	run jq -c '[.status, has("versus")]' pop/gen-001/c0/bench.json
	assert_output '["ok",false]'
	rm pop/gen-001/c0/bench.json
	KS_VERSUS=yes run -1 ks-bench pop/gen-001/c0
	assert_output "ks-bench: bad KS_VERSUS 'yes': expected 1 (time each candidate side by side with its base) or 0"
	assert [ ! -e pop/gen-001/c0/bench.json ]
}

@test "a base that cannot be run or is wrong leaves the candidate's bench as it was, with the reason" {
	mkdir -p pop/gen-001/c0
	cp "$KS_ROOT/kernels/sgemm/seed.c" pop/gen-001/c0/kernel.c
	hand_candidate pop/gen-001/c0
	ks-build pop/gen-001/c0
	# no worker: the base's binaries are gone
	mv pop/gen-000/c0/worker pop/gen-000/c0/worker.was
	ks-bench pop/gen-001/c0
	run jq -r '.status, (.score_us > 0), .versus.id, .versus.ratio, .versus.error' pop/gen-001/c0/bench.json
	assert_line --index 0 ok
	assert_line --index 1 true
	assert_line --index 2 g000c0
	assert_line --index 3 null
	assert_line --index 4 --regexp "^the base g000c0 has no worker to run \('.*pop/gen-000/c0/worker': No such file or directory\)$"
	# a base whose kernel now gives wrong answers (its worker swapped for one of zeros): not compared with
	mv pop/gen-000/c0/worker.was pop/gen-000/c0/worker
	mkdir -p zeros/gen-000/c0
	make_pop zeros 1 >/dev/null
	cp "$KS_ROOT/tests/fixtures/adversarial/sgemm/zeros.c" zeros/gen-000/c0/kernel.c
	ks-build zeros/gen-000/c0
	cp zeros/gen-000/c0/worker pop/gen-000/c0/worker
	ks-bench -o again.json pop/gen-001/c0
	run jq -r '.status, .versus.ratio, .versus.error' again.json
	assert_output --regexp $'^ok\nnull\nthe base.s output on bench shape 256x256x256: wrong on its first call$'
	# a base that dies on a bench shape
	cat >dies.c <<-'EOF'
	#include <stdlib.h>
	void sgemm(int M, int N, int K, const float *A, const float *B, float *C)
	{
		if (M * N * K > 100000)
			abort();
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++) {
				float s = 0;
				for (int k = 0; k < K; k++)
					s += A[i * K + k] * B[k * N + j];
				C[i * N + j] = s;
			}
	}
	EOF
	cp dies.c zeros/gen-000/c0/kernel.c
	ks-build zeros/gen-000/c0
	cp zeros/gen-000/c0/worker pop/gen-000/c0/worker
	ks-bench -o again.json pop/gen-001/c0
	run jq -r '.status, .versus.ratio, .versus.error' again.json
	assert_output --regexp $'^ok\nnull\nthe base.s call on bench shape 256x256x256: the base.s process was killed by signal 6$'
}

@test "a candidate refused in the middle of its timed calls beside its base: rejected with the reason, not a crash" {
	# (before, on the H200: "crashed: runner: no worker 0 to call (a bug of the runner)", the refusal lost)
	mkdir -p kernels
	cp -r "$KS_ROOT/kernels/common" "$KS_ROOT/kernels/sgemm" kernels/
	jq '.allowed_symbols = ["write"]' <"$KS_ROOT/kernels/sgemm/problem.json" >kernels/sgemm/problem.json
	mkdir -p pop/gen-001/c0
	cp "$KS_ROOT/tests/fixtures/adversarial/sgemm/timed_stray.c" pop/gen-001/c0/kernel.c
	hand_candidate pop/gen-001/c0
	KS_KERNELS_DIR=$PWD/kernels ks-build pop/gen-001/c0
	KS_KERNELS_DIR=$PWD/kernels run -0 ks-bench pop/gen-001/c0
	run jq -r '.status, .message' pop/gen-001/c0/bench.json
	assert_output --regexp $'^rejected\nbench shape [0-9x]+: the kernel.s process sent the judge 64 bytes that are no message of its protocol$'
	# and alone, the same verdict
	KS_VERSUS=0 KS_KERNELS_DIR=$PWD/kernels run -0 ks-bench -o alone.json pop/gen-001/c0
	run jq -r '.status, .message' alone.json
	assert_output --regexp $'^rejected\nbench shape [0-9x]+: the kernel.s process sent the judge 64 bytes that are no message of its protocol$'
}

# versus POP ID RATIO LO HI: ID's bench.json timed side by side with the seed, at RATIO in [LO, HI]
versus() {
	local dir
	dir=$(printf '%s/gen-%03d/c%d' "$1" "$((10#${2:1:3}))" "${2#*c}")
	jq --argjson r "$3" --argjson lo "$4" --argjson hi "$5" \
		'.versus = {id: "g000c0", ratio: $r, ci95: [$lo, $hi], per_shape: []}' "$dir/bench.json" >"$dir/b.json"
	mv "$dir/b.json" "$dir/bench.json"
}

@test "the side-by-side ratio, not two scores benched apart, says which is faster: select, findings, the track record" {
	# (before: findings compared a kernel with its base's score measured earlier, under other load;
	# a change read +95 %, above its range, where the same change measured beside its base was +6.6 %)
	rm -rf pop
	make_pop pop
	fake_cand pop 0 0 ok 100 ''
	# the scores say 1 % (inside their noise); side by side 10 % faster, its interval well under 1
	fake_cand pop 1 0 ok 99 'BM=32' g000c0 g000c0
	versus pop g001c0 0.90 0.88 0.92
	run -0 ks-select pop/gen-002
	assert_equal "$(jget pop/gen-002/select.json .base)" g001c0
	# the scores say 2x; side by side the same within its interval: no win
	rm -rf pop/gen-002 pop/gen-001/c0
	fake_cand pop 1 0 ok 50 'BM=32' g000c0 g000c0
	versus pop g001c0 0.99 0.97 1.01
	run -0 ks-select pop/gen-002
	assert_equal "$(jget pop/gen-002/select.json .base)" g000c0
	# what the hypothesize prompt shows of it: the uplift side by side, its interval, within noise
	jq '.plan = {title: "Loop order", kind: "tiling", description: "d", rubric: "r", uplift_min: 50,
		uplift_max: 120, innovation: 3}' pop/gen-001/c0/candidate.json >c.json
	mv c.json pop/gen-001/c0/candidate.json
	llm_server_start "$(jq -nc '{fixture: [{content: ({avenues: [range(10) | "avenue \(.)"], plans: [range(5) |
		{title: "plan \(.)", kind: "tiling", description: "d", rubric: "r", uplift_min: 0, uplift_max: 10,
		 innovation: 5}]} | tojson)}]}')"
	KS_HYPOTHESIZE_MODEL=fixture run -0 ks-hypothesize pop/gen-002
	run -0 llm_request 1 '.body.messages[1].content'
	assert_output --partial '"Loop order" (expected +50% to +120%): measured +1.0% timed side by side with its base (95% interval -1.0% to +3.1%), within noise (50.00 us, its base 100.00 us benched alone)'
	# and the population: every time with its noise, the side-by-side ratio beside the score
	assert_output --partial '- g001c0 (base g000c0, reference g000c0; plan: Loop order): status ok, score 50.00 us ±2.0 %; side by side with its base g000c0: 0.990x (95 % interval 0.970-1.010)'
}

@test "every time a prompt shows carries its noise, and a shape that ran into its time cap says so" {
	# (before: times to 0.01 us with no spread and no word of convergence, on a machine whose spreads were 3.8-72 %)
	rm -rf pop
	make_pop pop
	fake_cand pop 0 0 ok 100 ''
	jq '.results[0] += {rel_stderr: 0.0265, converged: false} | .results[1] += {rel_stderr: 0.004, converged: true}
		| .results[2] += {rel_stderr: null, runs: 1}' pop/gen-000/c0/bench.json >b.json
	mv b.json pop/gen-000/c0/bench.json
	llm_server_start "$(jq -nc '{fixture: [{content: ({base: "g000c0", reference: "g000c0", reason: "r"} | tojson)}]}')"
	KS_SELECT_MODEL=fixture run -0 ks-select pop/gen-001
	run -0 llm_request 1 '.body.messages[1].content'
	# the score's noise: sqrt(0.0265^2 + 0.004^2 + (0.1^2 - 0.01^2)) / 3 and 1 % of drift, twice: 7.2 %
	assert_output --partial '- g000c0 (base -, reference -; plan: (the seed kernel)): status ok, score 100.00 us ±7.2 %
  per shape: 8x8x8 100.00 us ±5.3 % (did not converge); 8x8x8 100.00 us ±0.8 %; 8x8x8 100.00 us (one call: no spread);'
	assert_output --partial '"did not converge": the shape ran into its time cap'
}

@test "ks-bench(1)'s runner by hand: --versus times it side by side with another kernel's worker" {
	# (one OpenMP thread a kernel: on two loaded cores a team's scheduling alone can move a self-ratio past 2)
	OMP_NUM_THREADS=1 run -0 pop/gen-000/c0/runner --test 7x5x3 --bench 64x64x64 --bench 96x32x48 \
		--versus pop/gen-000/c0/worker --json-fd 3 3>v.json
	jq -c .versus v.json
	run jq -r '.correct, (.versus.ratio > 1/3 and .versus.ratio < 3), (.versus.ci95 | length),
		([.results[].versus.rounds > 0] | all), has("versus_error")' v.json
	assert_output $'true\ntrue\n2\ntrue\nfalse'
	# a worker that is not there: the runner times the kernel alone, and says why
	run -0 pop/gen-000/c0/runner --test 7x5x3 --bench 64x64x64 --versus no/such/worker --json-fd 3 3>v.json
	run jq -r '.correct, has("versus"), .versus_error' v.json
	assert_output --regexp $'^true\nfalse\ncannot run the base.s worker .no/such/worker.: No such file or directory$'
}
