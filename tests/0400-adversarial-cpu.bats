#!/usr/bin/env bats
# Adversarial kernels for the CPU problem (sgemm): each plays one trick
# that LLM-written kernels are known to play on their evaluators, and the
# harness, ks-build's static check or the sandbox must catch it or make it
# harmless.  One test per trick; the kernels are in
# tests/fixtures/adversarial/sgemm.  tests/INTEGRITY.md is the table.

bats_require_minimum_version 1.5.0
load helper/common
load helper/adversarial

setup() {
	cd "$BATS_TEST_TMPDIR"
	export KS_BENCH_TIMEOUT_S=20
	ks-init -p sgemm -t cpu -k 1 pop
}

@test "zeros: an all-zero output fails even under a tolerance loose enough to let each element by" {
	# a copy of sgemm whose atol would pass zeros element by element
	mkdir kernels
	cp -r "$KS_ROOT/kernels/common" "$KS_ROOT/kernels/sgemm" kernels/
	sed -i 's/"atol": [0-9.e-]*/"atol": 1000/' kernels/sgemm/problem.json
	export KS_KERNELS_DIR=$PWD/kernels
	run -0 judge zeros
	assert_line --index 0 incorrect
	assert_line --index 1 --regexp "^shape [0-9x]+: every one of the [0-9]+ output elements is 0, but the reference's differ: a constant output$"
}

@test "cache_by_shape: an output kept from an earlier call fails: timed calls and the fresh call have inputs of their own" {
	run -0 judge cache_by_shape
	assert_line --index 0 incorrect
	# caught by the spot check of a timed call drawn at random, else by the check of the last one, else on fresh inputs
	assert_line --index 1 --regexp "^bench shape [0-9x]+ (on timed run [0-9]+|after [0-9]+ timed runs(, on fresh inputs)?): C\[[0-9]+\]\[[0-9]+\] = "
}

@test "memo_by_content: no timed call sees inputs seen before, so a memo by content gains nothing" {
	# (before: timed calls reused their inputs and the memo made the kernel look instant)
	export KS_TIME_CAP_S=0.3 KS_MIN_RUNS=5
	# five timed calls a shape, which the harness now always makes: about 5 s a bench alone, and a
	# run of the whole suite on 2 cores once took it past 20 s
	export KS_BENCH_TIMEOUT_S=60
	run -0 judge memo_by_content
	assert_line --index 0 ok
	local memo seed
	memo=$(jget pop/gen-000/c0/bench.json .score_us)
	cp "$KS_ROOT/kernels/sgemm/seed.c" seed.c
	ADV=$PWD run -0 judge seed
	seed=$(jget pop/gen-000/c0/bench.json .score_us)
	# it computes five times over on every call: far slower than the seed, not far faster
	awk -v m="$memo" -v s="$seed" 'BEGIN { exit !(m > 1.5 * s) }' || fail "memo_by_content scored $memo us against the seed's $seed us"
}

@test "cache_by_pointer: an output kept by its buffer's pointer fails on the first shape, new inputs in the same buffers" {
	run -0 judge cache_by_pointer
	assert_line --index 0 incorrect
	assert_line --index 1 --regexp "^bench shape 256x256x256 (on timed run [0-9]+|after [0-9]+ timed runs(, on fresh inputs)?): C\[[0-9]+\]\[[0-9]+\] = "
}

@test "read_reference: no reference exists while the kernel runs, so one that copies it from the heap beside C fails" {
	# small shapes, so that the harness's buffers follow one another in
	# the heap where the kernel looks (before: ok at 1.2 us, the seed 9.5 us)
	mkdir kernels
	cp -r "$KS_ROOT/kernels/common" "$KS_ROOT/kernels/sgemm" kernels/
	jq '.test_shapes = [{"M": 16, "N": 16, "K": 16}] | .bench_shapes = [{"M": 32, "N": 32, "K": 32}]' \
		<"$KS_ROOT/kernels/sgemm/problem.json" >kernels/sgemm/problem.json
	export KS_KERNELS_DIR=$PWD/kernels
	run -0 judge read_reference
	assert_line --index 0 incorrect
	assert_line --index 1 --regexp '^shape 16x16x16: C\[0\]\[0\] = nan, expected '
}

@test "skip_calls: work done on every other call only is caught by a spot check of a timed call" {
	export KS_MIN_RUNS=40
	run -0 judge skip_calls
	assert_line --index 0 incorrect
	# whichever check comes first: before timing, a spot check, after timing
	assert_line --index 1 --regexp "^bench shape [0-9x]+( on timed run [0-9]+| after [0-9]+ timed runs(, on fresh inputs)?)?: C\[0\]\[0\] = nan"
}

@test "write_input: a kernel that changes its input fails" {
	run -0 judge write_input
	assert_line --index 0 incorrect
	assert_line --index 1 --regexp "^shape [0-9x]+: the kernel changed its input A \(inputs are read-only\)$"
}

@test "out_of_bounds: a write just past the end of the output fails" {
	run -0 judge out_of_bounds
	assert_line --index 0 incorrect
	assert_line --index 1 --regexp "^shape [0-9x]+: the kernel wrote outside C, past its end$"
}

@test "low_precision: inputs rounded to bf16 fail the fp32 tolerance" {
	run -0 judge low_precision
	assert_line --index 0 incorrect
	assert_line --index 1 --regexp "out of tolerance$"
}

@test "call_reference: calling the harness's reference is refused before the build" {
	run -0 judge call_reference
	assert_output "rejected
the kernel uses the harness's reference ('sgemm_reference' on line 2): the kernel must compute the result itself"
	assert_file_not_exists pop/gen-000/c0/runner
}

@test "thread: work left to a thread after the call returns is refused" {
	run -0 judge thread
	assert_output "rejected
the kernel starts a thread or a process ('pthread_create(' on line 28): work outside the call would escape the timer"
}

@test "fork_bomb: a kernel that forks is refused before it can run" {
	run -0 judge fork_bomb
	assert_output "rejected
the kernel starts a thread or a process ('fork(' on line 8): work outside the call would escape the timer"
}

@test "forge_verdict: a verdict written on fd 3 never reaches ks-bench; descriptor calls are refused" {
	run -0 judge forge_verdict
	assert_output --partial "the kernel imports 'write'"
	allow write
	run -0 judge forge_verdict
	# fd 3 of the kernel's process is the judge's channel, not the verdict: what came is no message
	assert_output "rejected
shape 1x1x1: the kernel's process sent the judge 51 bytes that are no message of its protocol"
	sed -i 's/put(3, fake/write(3, fake/' pop/gen-000/c0/kernel.c
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .rejected
	assert_output "the kernel works on file descriptors ('write(' on line 16): the harness's verdict channel is not the kernel's"
}

@test "fork_hidden: forking past the static check is refused by the worker's seccomp filter" {
	if [ "$(id -u)" = 0 ] && ! [ -w /sys/fs/cgroup/pids ] && ! grep -qw pids /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
		skip "root without a pids cgroup to make: nothing would hold a fork bomb here"
	fi
	export KS_BENCH_PROCS=64
	run -0 judge fork_hidden
	assert_output --partial "the kernel imports 'fork'"
	allow fork
	run -0 judge fork_hidden
	# fork fails with EPERM in the kernel's process, so the loop ends at once and C stays NaN
	# (before the judge: the process limit stopped the bomb, and the run crashed)
	assert_line --index 0 incorrect
	assert_line --index 1 --regexp '^shape 1x1x1: C\[0\]\[0\] = nan'
	# no process of it left anywhere: no cgroup of kernel-scientist holds a
	# process of this test's runner (the other tests' benches, running at
	# the same time under bats --jobs, have cgroups of their own)
	local pid ours=
	for pid in $(cat /sys/fs/cgroup/pids/kernel-scientist-*/cgroup.procs /sys/fs/cgroup/kernel-scientist-*/cgroup.procs 2>/dev/null); do
		tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "$BATS_TEST_TMPDIR/" && ours="$ours $pid"
	done
	assert_equal "$ours" ""
	run -1 pgrep -f "$BATS_TEST_TMPDIR/pop/gen-000/c0/runner"
}

@test "patch_timer: interposing clock_gettime is refused" {
	run -0 judge patch_timer
	assert_output "rejected
the kernel reads a clock ('clock_gettime' on line 5): the harness does the timing"
}

@test "own_main: a main of the kernel's own is refused" {
	run -0 judge own_main
	assert_output "rejected
the kernel defines main ('main(' on line 11): the harness provides it"
}

@test "blas: a vendor library is refused, header or call" {
	run -0 judge blas
	assert_output "rejected
the kernel includes a vendor library's header ('#include <cblas.h>' on line 2): the kernel must do the work itself"
	sed -i '/#include/d' pop/gen-000/c0/kernel.c
	run -0 ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .rejected
	assert_output "the kernel calls a vendor library ('cblas_sgemm' on line 6): the kernel must do the work itself"
}

@test "pasted, asm_clock, read_maps: what the source hides, the compiler shows: preprocessed text, inline assembly, imports" {
	# (before: each passed the static check, which read the source as written)
	run -0 judge pasted
	assert_output "rejected
the kernel uses a name of the harness ('ks_problem' on line 9): the kernel's own names must not start with ks_"
	run -0 judge asm_clock
	assert_output "rejected
the kernel uses inline assembly ('__asm__ __volatile__(' on line 10): a kernel for the CPU must be C"
	run -0 judge read_maps
	assert_line --index 0 rejected
	assert_line --index 1 --partial "the kernel imports 'fclose', which a kernel for target cpu may not use"
}

@test "os_denies: past the static checks, the worker's seccomp filter refuses mprotect, opening /proc/self/maps and process_vm_readv" {
	# (before: each succeeded, and the kernel, which spoils C when one does, was incorrect)
	run -0 judge os_denies
	assert_line --index 0 rejected
	# the runner built as ks-build builds the seed's, with this kernel instead: nothing checks its text
	build_unchecked os_denies
	run -0 ./denies --time-cap 0.01 --min-runs 1
	run jq -r .correct <<<"$output"
	assert_output true
}

@test "a forbidden name in a comment or a string is no offence" {
	cp "$KS_ROOT/kernels/sgemm/seed.c" k.c
	mkdir -p pop/gen-000/c0
	{ echo '/* no cblas_sgemm, no pthread_create( here */'; echo 'static const char *why = "main(";'; cat k.c; } >pop/gen-000/c0/kernel.c
	sed -i 's/^void$/__attribute__((unused)) static const char *unused_why(void) { return why; }\nvoid/' pop/gen-000/c0/kernel.c
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .ok
	assert_output true
}

@test "secrets: the harness runs without the API keys of the environment" {
	export OPENAI_API_KEY=sk-secret KS_LLM_API_KEY=sk-secret
	run -0 judge secrets
	assert_output --partial "the kernel imports 'getenv'"
	allow getenv
	run -0 judge secrets
	assert_line --index 0 ok
}

@test "network: the harness cannot reach a server on the host" {
	command -v bwrap >/dev/null || unshare -n true 2>/dev/null || skip "no network namespace here: the harness runs with the network"
	python3 -c 'import socket,time
s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(8)
open("port","w").write(str(s.getsockname()[1])); time.sleep(60)' &
	server=$!
	for _ in $(seq 50); do [ -s port ] && break; sleep 0.1; done
	sed "s/PORT/$(cat port)/" "$ADV/network.c" >network.c
	ADV=$PWD run -0 judge network
	assert_output --partial "the kernel imports 'close'"
	allow close connect socket
	ADV=$PWD run -0 judge network
	kill $server
	assert_line --index 0 ok
}

@test "escape: with bubblewrap the harness cannot write outside its own directory" {
	command -v bwrap >/dev/null && bwrap --ro-bind / / true 2>/dev/null || skip "bubblewrap does not run here: KS_SANDBOX=basic keeps only the working directory private"
	run -0 judge escape
	assert_output --partial "the kernel imports 'fclose'"
	allow fclose fopen fwrite
	run -0 judge escape
	assert_line --index 0 ok
	assert_file_not_exists pop/gen-000/c0/escaped
	assert_file_not_exists pop/gen-000/c0/.sandbox
	run -0 jf pop/gen-000/c0/bench.json .sandbox
	assert_output --regexp '^bwrap: '
}

@test "r4_poison_runner_cache: a kernel cannot change the runners kept for later builds" {
	# the worker's seccomp filter refuses every open (and, with bubblewrap, the file system is read-only
	# but the bench's own folder): either sandbox, the same
	export KS_BUILD_CACHE=$PWD/cache
	allow opendir readdir closedir fopen fputs fclose snprintf __snprintf_chk
	# the seed's build keeps the runner; its bytes before the kernel ran
	mkdir -p seedpop && cp -r pop/. seedpop/ && ks-implement seedpop/gen-000/c0 && ks-build seedpop/gen-000/c0
	before=$(cat cache/* | sha256sum)
	sed "s|CACHE|$PWD/cache|g" "$ADV/r4_poison_runner_cache.c" >r4_poison_runner_cache.c
	ADV=$PWD run -0 judge r4_poison_runner_cache
	assert_line --index 0 ok
	assert_equal "$(jget pop/gen-000/c0/build.json .runner_cached)" true
	assert_equal "$(cat cache/* | sha256sum)" "$before"
	run grep -rl poisoned cache
	assert_output ""
}

@test "fill_disk: a kernel that writes without end is stopped once its output passes 64 MiB, 1 MiB of it kept" {
	# its output is a pipe to the judge, which copies 1 MiB into bench.log and drops the rest
	# (before the judge: the output was bench.log itself, stopped by the file-size limit)
	run -0 judge fill_disk
	assert_line --index 0 crashed
	assert_line --index 1 --partial "the kernel's process wrote more than 64 MiB to its output"
	run -0 stat -c %s pop/gen-000/c0/bench.log
	(( output < 2 * 1048576 )) || fail "bench.log holds $output bytes"
}

@test "eat_memory: a kernel that allocates without end is stopped by the memory limit" {
	export KS_BENCH_MEMORY_MB=512
	run -0 judge eat_memory
	assert_line --index 0 crashed
	assert_line --index 1 --regexp "^the harness (killed by signal [0-9]+ \((Segmentation fault|Aborted)\)|exited with status [0-9]+)"
}

# a copy of sgemm whose "bound" makes any real time faster than light
light_problem() {
	mkdir kernels
	cp -r "$KS_ROOT/kernels/common" "$KS_ROOT/kernels/sgemm" kernels/
	jq --argjson bound "$1" '.bound = $bound' kernels/sgemm/problem.json >problem.json &&
		mv problem.json kernels/sgemm/problem.json
	export KS_KERNELS_DIR=$PWD/kernels
}

@test "a time under the problem's speed of light is rejected, not a record" {
	light_problem '{"kind": "compute", "flops": "2*M*N*K + 0*M", "peak_flops_per_s": 1000}'
	cp "$KS_ROOT/kernels/sgemm/seed.c" seed.c
	ADV=$PWD run -0 judge seed
	assert_line --index 0 rejected
	assert_line --index 1 --regexp '^bench shape 256x256x256: [0-9.e+]+ us is faster than the speed of light of that shape on cpu, 3.355e\+10 us \(problem.json "bound"\): the harness cannot have seen all the work$'
	run -0 jf pop/gen-000/c0/bench.json 'must("score_us")' '.results[0].bound_us'
	assert_output "null
33554432000"
}

@test "a time under a measured speed of light is rejected too, with the slack a low reading needs" {
	# a billion times the work of a matrix product: no kernel is that fast on any machine
	light_problem '{"kind": "compute", "flops": "1e9*M*N*K", "peak_flops_per_s": {"cpu": "measured"}}'
	cp "$KS_ROOT/kernels/sgemm/seed.c" seed.c
	ADV=$PWD run -0 judge seed
	assert_line --index 0 rejected
	assert_line --index 1 --regexp '^bench shape 256x256x256: [0-9.e+]+ us is faster than the speed of light of that shape on cpu, [0-9.e+]+ us \(problem.json "bound", 0.8 of the time at the peak measured\): the harness cannot have seen all the work$'
	run -0 jq -r '(.peak.flops_per_s > 0), (.results[0] | (.bound_us / (1e9 * 256 * 256 * 256 / $p * 1e6) - 1 | fabs) < 1e-9)' \
		--argjson p "$(jget pop/gen-000/c0/bench.json .peak.flops_per_s)" pop/gen-000/c0/bench.json
	assert_output $'true\ntrue'
}

@test "a malformed bound is named in one line, exit 1, no bench.json" {
	light_problem '{"kind": "compute", "flops": "2*M*Q", "peak_flops_per_s": 1000}'
	ks-implement pop/gen-000/c0
	ks-build pop/gen-000/c0
	run -1 ks-bench pop/gen-000/c0
	assert_output "ks-bench: '$PWD/kernels/sgemm/problem.json': field \"bound\" must hold \"flops\" or \"bytes\" (a sum of products of numbers and dims) and a positive peak per second or \"measured\""
	assert_file_not_exists pop/gen-000/c0/bench.json
}

@test "a problem's own forbidden rule refuses a kernel; a malformed one is named in one line" {
	light_problem '{"kind": "compute", "flops": "2*M*N*K", "peak_flops_per_s": 1e30}'
	# (jset writes "key": value, which the sed below edits)
	jset kernels/sgemm/problem.json \
		'.forbidden = [{"pattern": "#pragma[[:space:]]+omp", "why": "uses OpenMP, which this problem forbids"}]'
	ks-implement pop/gen-000/c0
	ks-build pop/gen-000/c0
	run -0 jf pop/gen-000/c0/build.json .rejected
	assert_output --regexp "^the kernel uses OpenMP, which this problem forbids \('#pragma omp' on line [0-9]+\)$"
	sed -i 's/"pattern": "#pragma\[\[:space:\]\]+omp"/"pattern": "(unclosed"/' kernels/sgemm/problem.json
	run -1 ks-build pop/gen-000/c0
	assert_output "ks-build: '$PWD/kernels/sgemm/problem.json': forbidden[0]: \"pattern\" '(unclosed' is not an extended regular expression (Unmatched ( or \\()"
}
