#!/usr/bin/env bats
# ks-build: compiles a candidate with its problem's harness; a kernel that
# does not compile is a result (exit 0), a missing compiler is not.

bats_require_minimum_version 1.5.0
load helper/common

# A population with the seed in gen-000/c0, made once, copied by each test.
setup_file() {
	cd "$BATS_FILE_TMPDIR" || return
	make_pop seeded
	ks-implement seeded/gen-000/c0
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	cp -r "$BATS_FILE_TMPDIR/seeded" pop
	C=pop/gen-000/c0
}

@test "ks-build compiles the seed and records target, compiler, a command that can be pasted, seconds, diagnostics" {
	run -0 ks-build $C
	assert_output ""
	assert_file_executable $C/runner
	# the seed compiles without a warning: the diagnostics are empty
	run -0 jf $C/build.json keys .ok .target .compiler '.diagnostics | tojson' \
		'must("resources")' '(.seconds | type) == "number" and 0 <= .seconds and .seconds < 120'
	assert_output "[\"command\",\"compiler\",\"diagnostics\",\"harness_sha256\",\"kernel_sha256\",\"ok\",\"resources\",\"runner_cached\",\"seconds\",\"target\"]
true
cpu
$(cc --version | head -n 1)
\"\"
null
true"
	# the runner is the sgemm harness
	run -0 $C/runner -h
	assert_output --partial "problem sgemm"
	# the command, pasted into a shell, builds it again
	cmd=$(jget $C/build.json .command)
	[[ $cmd == "cc -std=c11 "* ]] || fail "command: $cmd"
	# the kernel compiled once, to the object the static check reads; the worker's shared sources each to an
	# object; the worker linked from them; then the judge (the harness, no kernel)
	[[ $cmd == "cc "*" -c $C/kernel.c -o $C/kernel.o && "* ]] || fail "command: $cmd"
	assert_equal "$(grep -o 'kernel\.c' <<<"$cmd" | wc -l)" 1
	[[ $cmd == *" -c $KS_ROOT/kernels/common/ks_worker.c -o $C/ks_worker.o && "* ]] || fail "command: $cmd"
	[[ $cmd == *" -c $KS_ROOT/kernels/sgemm/call.c -o $C/call.o && "* ]] || fail "command: $cmd"
	[[ $cmd == *" $C/kernel.o $C/ks_worker.o $C/call.o -o $C/worker -lm && "* ]] || fail "command: $cmd"
	[[ ${cmd##*&&} == *"/kernels/sgemm/harness.c "*" -o $C/runner "* ]] || fail "command: $cmd"
	[[ ${cmd##*&&} != *kernel.[co]* ]] || fail "the judge is built with the kernel: $cmd"
	# the objects go once linked
	run -0 find $C -name '*.o'
	assert_output ""
	rm $C/runner $C/worker
	run -0 sh -c "$cmd"
	assert_file_executable $C/runner
	assert_file_executable $C/worker
}

@test "ks-build records a kernel that does not compile: ok false, the error, no runner, exit 0" {
	printf 'void sgemm(int M, int N, int K, const float *A, const float *B, float *C)\n{\n\tint x = ;\n}\n' > $C/kernel.c
	touch $C/runner
	run -0 ks-build $C
	assert_output ""
	assert_file_not_exists $C/runner
	run -0 jf $C/build.json .ok .target 'must("resources")'
	assert_output 'false
cpu
null'
	run -0 jget $C/build.json .diagnostics
	assert_output --regexp "$C/kernel.c:3:[0-9]+: error: expected expression"
	assert_line --index -1 "compiler exited with status 1"
	assert_no_temp_files pop
}

@test "ks-build records a kernel without the entry point as a failed build" {
	printf 'static void not_sgemm(void)\n{\n}\n' > $C/kernel.c
	run -0 ks-build $C
	assert_file_not_exists $C/runner
	assert_equal "$(jget $C/build.json .ok)" false
	run -0 jget $C/build.json .diagnostics
	assert_output --partial "undefined reference to \`sgemm'"
	assert_line --index -1 "compiler exited with status 1"
}

@test "ks-build keeps the compiler's warnings of a kernel that builds" {
	printf 'static void extra(void);\nstatic void extra(void) { int unused_here; }\n' >> $C/kernel.c
	run -0 ks-build $C
	assert_equal "$(jget $C/build.json .ok)" true
	assert_file_executable $C/runner
	run -0 jget $C/build.json .diagnostics
	assert_output --regexp "warning: unused variable .unused_here."
}

@test "ks-build -o writes the file named; KS_CC picks the compiler" {
	run -0 env KS_CC=gcc ks-build -o b.json $C
	assert_file_exists b.json
	assert_file_not_exists $C/build.json
	assert_file_executable $C/runner
	run -0 jf b.json .ok .compiler '[.command | splits("\\s+") | select(length > 0)][0]'
	assert_output "true
$(gcc --version | head -n 1)
gcc"
}

@test "ks-build a second time on the same kernel leaves build.json untouched" {
	printf 'void sgemm(int M, int N, int K, const float *A, const float *B, float *C)\n{\n\tint x = ;\n}\n' > $C/kernel.c
	ks-build $C
	touch -d '2020-01-01' $C/build.json
	before=$(stat -c %Y $C/build.json)
	run -0 ks-build $C
	assert_equal "$(stat -c %Y $C/build.json)" "$before"
	assert_no_temp_files pop
}

@test "ks-build with a compiler that cannot run fails in one line and keeps build.json" {
	ks-build $C
	cp $C/build.json old.json
	run -1 env KS_CC=/nonexistent ks-build $C
	assert_output "ks-build: cannot run '/nonexistent': No such file or directory"
	cmp old.json $C/build.json
	rm $C/build.json
	run -1 env KS_CC=/nonexistent ks-build $C
	assert_output "ks-build: cannot run '/nonexistent': No such file or directory"
	assert_file_not_exists $C/build.json
	assert_no_temp_files pop
}

@test "ks-build names a candidate without a kernel source" {
	rm $C/kernel.c
	run -1 ks-build $C
	assert_output "ks-build: '$C/kernel.c' does not exist: run ks-implement on '$C' first"
	assert_file_not_exists $C/build.json
}

@test "ks-build names a missing run.json" {
	rm pop/run.json
	run -1 ks-build $C
	assert_output "ks-build: 'pop/run.json' does not exist: make the population with ks-init first"
	assert_file_not_exists $C/build.json
}

@test "ks-build names a malformed run.json" {
	printf '{"problem": "sgemm", "target": ' > pop/run.json
	run -1 ks-build $C
	assert_output --regexp "^ks-build: 'pop/run.json' is not valid JSON \(line [0-9]+, column [0-9]+\)$"
	assert_file_not_exists $C/build.json
}

@test "ks-build rejects a directory that is not POP/gen-NNN/cS" {
	for dir in pop/gen-000 pop/gen-000/x0 pop/gen-000/c00 pop/gen-0/c0 pop; do
		run -1 ks-build "$dir"
		assert_output "ks-build: '$dir' is not a candidate directory (expected POP/gen-NNN/cS)"
	done
	run find pop -name build.json
	assert_output ""
}

@test "ks-build compiles with a minimal environment, temporary files outside the folder it is run from" {
	mkdir -p bin here
	# a stand-in compiler that reports its environment and where it is
	printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done\n[ -n "$out" ] || exit 0\nenv | sort >%s/env.txt\n: >"$out"\n' "$PWD" >bin/cc
	chmod +x bin/cc
	cd here
	OPENAI_API_KEY=sk-secret KS_CC=$PWD/../bin/cc run -0 ks-build ../pop/gen-000/c0
	cd ..
	run -0 cat env.txt
	refute_output --partial sk-secret
	assert_line --regexp '^TMPDIR=/'
	refute_line "TMPDIR=$PWD/here"
	assert_line "LC_ALL=C"
	run -0 ls -A here
	assert_output ""
}

@test "sandboxed code sees the variables compilers and GPU runtimes read, by exact name, and never a secret" {
	# (before: every CUDA_, HIP_, NVIDIA_... variable came through, NVIDIA_API_KEY among them)
	mkdir -p bin
	printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done\n[ -n "$out" ] || exit 0\nenv | sort >%s/env.txt\n: >"$out"\n' "$PWD" >bin/cc
	chmod +x bin/cc
	NVIDIA_API_KEY=nv-secret HIP_AUTH_TOKEN=hip-secret CUDA_SECRET=cu-secret OMP_PASSWORD=omp-secret \
		ROCM_CREDENTIALS=rocm-secret CUDA_VISIBLE_DEVICES=1 HIP_VISIBLE_DEVICES=2 OMP_NUM_THREADS=3 \
		CUDA_HOME=/opt/cuda HIP_PLATFORM=amd CUDA_ANYTHING=else MY_TOOL_VISIBLE_DEVICES=4 \
		EXTRA_ONE=x MY_API_KEY=k KS_SANDBOX_ENV="EXTRA_ONE MY_API_KEY" \
		KS_CC=$PWD/bin/cc run -0 ks-build pop/gen-000/c0
	run -0 cat env.txt
	refute_output --partial secret
	refute_output --partial CUDA_ANYTHING
	refute_output --partial MY_API_KEY
	for v in CUDA_VISIBLE_DEVICES=1 HIP_VISIBLE_DEVICES=2 OMP_NUM_THREADS=3 CUDA_HOME=/opt/cuda HIP_PLATFORM=amd \
		MY_TOOL_VISIBLE_DEVICES=4 EXTRA_ONE=x; do
		assert_line "$v"
	done
}

@test "the compiler inherits no descriptor of ks-build's but 0-2: make's POP/.lock, say, stays with make" {
	printf '#!/bin/sh\nls /proc/$$/fd >%s/fds\nexec cc "$@"\n' "$BATS_TEST_TMPDIR" >cc-spy
	chmod +x cc-spy
	KS_CC=$PWD/cc-spy run -0 ks-build $C 7>held 9<held
	run cat fds
	assert_line 0
	assert_line 2
	refute_line 7
	refute_line 9
	assert_equal "$(jget $C/build.json .ok)" true
}

@test "the runner's defaults are the problem's: by hand, with no option, it gives ks-bench's verdict" {
	# a copy of sgemm whose tolerance is 5 %, and a kernel 1 % off
	mkdir kernels
	cp -r "$KS_ROOT/kernels/common" "$KS_ROOT/kernels/sgemm" kernels/
	jq '.tolerance = {rtol: 0.05, atol: 0.001} | .seed = 77' kernels/sgemm/problem.json >p.json
	mv p.json kernels/sgemm/problem.json
	export KS_KERNELS_DIR=$PWD/kernels
	sed -i 's/s += A\[/s += 1.01f * A[/' $C/kernel.c
	grep -q '1.01f' $C/kernel.c
	run -0 ks-build $C
	run -0 $C/runner -h
	assert_line "defaults (the problem's): --seed 77 --rtol 0.05 --atol 0.001 --time-cap 2 --warm-up 0.05 --min-runs 5 --json-fd 1"
	assert_line --regexp "^  and, with no shape given, --test 1x1x1 17x31x9 .* --bench 256x256x256 512x384x320 200x640x448$"
	# no option: the problem's tolerance, its test and bench shapes
	run -0 $C/runner --time-cap 0.01 --min-runs 1
	run jq -c '[.correct, (.tests | length), (.results | length)]' <<<"$output"
	assert_output '[true,10,3]'
	run -0 ks-bench $C
	assert_equal "$(jget $C/bench.json .status)" ok
	# the old fixed default, 1e-4, would have failed what ks-bench passes
	run -0 $C/runner --time-cap 0.01 --min-runs 1 --rtol 1e-4
	assert_equal "$(jq .correct <<<"$output")" false
}

# A bench of target cpu runs its kernel on every core: a compiler beside it
# took one core and doubled sgemm's score with shapes that never settled
# (8.6 ms alone, 18 ms beside one busy core, on this 2-core machine; on the
# H200 machine's 16 cores make -j2 was 1.7x slower than -j1).  So builds
# share the CPU's bench lock, and a CPU bench holds it alone.
@test "ks-build waits while a CPU bench holds the CPU, and says whose bench it waits for" {
	echo "ks-bench 4242 on other/gen-001/c3" >"$(cpu_lock)"
	hold_cpu_lock -x 1.5
	KS_QUIET=0 run_timed -0 --separate-stderr ks-build $C
	wait
	[ "$elapsed_ms" -ge 1200 ] || fail "ks-build did not wait for the bench ($elapsed_ms ms)"
	[[ $stderr == "ks-build: waiting: '$(cpu_lock)' is held by ks-bench 4242 on other/gen-001/c3"* ]] ||
		fail "stderr: $stderr"
	assert_equal "$(jget $C/build.json .ok)" true
}

@test "a CPU bench waits for a build in progress; builds do not wait for each other" {
	ks-build $C
	# another build holds its share for 30 s: this build goes ahead
	hold_cpu_lock -s 30
	holder=$!
	run -0 timeout 20 ks-build $C
	assert_equal "$(jget $C/build.json .ok)" true
	kill $holder
	wait
	rm held
	# a build holds its share for 1.5 s: the bench waits for it
	hold_cpu_lock -s 1.5
	run_timed -0 ks-bench $C
	wait
	[ "$elapsed_ms" -ge 1200 ] || fail "ks-bench did not wait for the build ($elapsed_ms ms)"
	assert_equal "$(jget $C/bench.json .status)" ok
}

@test "a build waits while a CPU bench waits for a busy machine to settle: its compiler would be load the bench waits out" {
	ks-build $C
	cp -r "$BATS_FILE_TMPDIR/seeded" other
	# a compiler that notes when it first runs (the static check's cc -E is the first)
	mkdir bin
	printf '#!/bin/sh\n[ -e %s ] || date +%%s%%N >%s\nexec cc "$@"\n' "$PWD/cc-started" "$PWD/cc-started" >bin/cc-noted
	chmod +x bin/cc-noted
	busy_proc proc 30
	writer=$!
	KS_BENCH_PROC=$PWD/proc KS_BENCH_BUSY_MAX=0.25 KS_BENCH_SETTLE_S=3 ks-bench $C &
	bench=$!
	# the bench holds the CPU once its lock names it, and waits for the machine from then on
	for ((i = 0; i < 500; i++)); do grep -qs "^ks-bench" "$(cpu_lock)" && break; sleep 0.02; done
	held=$(date +%s%N)
	KS_CC=$PWD/bin/cc-noted run -0 ks-build other/gen-000/c0
	wait $bench
	kill $writer
	waited_ms=$(( ($(cat cc-started) - held) / 1000000 ))
	[ "$waited_ms" -ge 2500 ] || fail "the compiler ran $waited_ms ms after the bench took the CPU, while it waited to settle"
	assert_equal "$(jget other/gen-000/c0/build.json .ok)" true
	run -0 jf $C/bench.json .status .machine.noisy
	assert_output $'ok\ntrue'
}

@test "under make -j2 no CPU bench runs beside a build" {
	# the compiler, while it runs, looks for a harness of this population
	# running; slot 1's takes 2 s longer, so that slot 0's bench could start
	# beside it
	mkdir bin
	cat >bin/cc-watched <<EOF
#!/bin/bash
{ [[ "\$*" == */c1/* ]] && sleep 2; cc "\$@"; } & pid=\$!
while kill -0 \$pid 2>/dev/null; do
	p=\$(pgrep -af "^$PWD/par/gen-[0-9]+/c[0-9]+/runner") && echo "beside a build: \$p" >>$PWD/overlaps
	sleep 0.01
done
wait \$pid
EOF
	chmod +x bin/cc-watched
	export KS_CC=$PWD/bin/cc-watched
	run -0 make -s -C "$KS_ROOT" -j2 generation N=2 K=4 POP="$PWD/par"
	run -0 jq -s -c 'map(.status)' par/gen-00[12]/c*/bench.json
	assert_output '["ok","ok","ok","ok","ok","ok","ok","ok"]'
	[ ! -e overlaps ] || fail "$(sort -u overlaps)"
}

# build_in DIR: ./pop copied to DIR, its seed built there; prints runner_cached
build_in() {
	cp -r pop "$1"
	ks-build "$1/gen-000/c0" || return
	jget "$1/gen-000/c0/build.json" .runner_cached
}

@test "the runner is built once for a harness, compiler and command: later builds take it from KS_BUILD_CACHE" {
	export KS_BUILD_CACHE=$PWD/cache
	assert_equal "$(build_in a)" false
	assert_equal "$(build_in b)" true
	cmp a/gen-000/c0/runner b/gen-000/c0/runner
	cmp a/gen-000/c0/build.log b/gen-000/c0/build.log
	assert_file_executable b/gen-000/c0/runner
	assert_equal "$(jget a/gen-000/c0/build.json .command)" "$(jget b/gen-000/c0/build.json .command | sed 's| b/gen| a/gen|g')"
	run -0 b/gen-000/c0/runner -h
	assert_output --partial "problem sgemm"
	# the worker is the kernel's own: built every time
	[ b/gen-000/c0/worker -nt a/gen-000/c0/runner ] || fail "the worker was not built"
	# one runner and the worker's two shared objects, what their compiler printed beside each, and the mark of the
	# seed's check of the harness's names
	run -0 sh -c 'cd cache && ls'
	assert_equal "$(sed 's/-[0-9a-f]\{64\}/-KEY/' <<<"$output" | sort | tr '\n' ' ')" \
		"names-KEY.ok object-KEY object-KEY object-KEY.log object-KEY.log runner-KEY runner-KEY.log "

	# the cached runner judges: the seed benched with it is ok
	run -0 ks-bench b/gen-000/c0
	assert_equal "$(jget b/gen-000/c0/bench.json .status)" ok
}

@test "a later build compiles the kernel once and links: the worker's shared objects come from the cache" {
	# (before: every build compiled the kernel twice, for the static check and for the worker, and the
	# worker's shared sources with it: on a GPU target four nvcc compiles a build instead of one)
	export KS_BUILD_CACHE=$PWD/cache
	printf '#!/bin/sh\necho "$*" >>%s/calls\nexec cc "$@"\n' "$PWD" >logged-cc
	chmod +x logged-cc
	# (the wrapper logs outside the build's folders, which the compiler's bubblewrap would not let it write)
	export KS_CC=$PWD/logged-cc KS_SANDBOX=basic
	build_in a >/dev/null
	: >calls
	assert_equal "$(build_in b)" true
	run -0 grep -c -- ' -o b/gen-000/c0/kernel\.o$' calls
	assert_output 1
	run -0 grep -c -- ' -o b/gen-000/c0/worker -lm$' calls
	assert_output 1
	run -1 grep -- '-o b/gen-000/c0/\(ks_worker\|call\)\.o\|-o b/gen-000/c0/runner' calls
	# the worker from the cache's objects judges: ok
	run -0 ks-bench b/gen-000/c0
	assert_equal "$(jget b/gen-000/c0/bench.json .status)" ok
}

@test "builds started together build the runner once; another copy of the kernels folder shares it" {
	# (before: each of make -j's builds of a generation missed the cache and built the runner itself, and a
	# second checkout's kernels folder, the same files at another path, was another key)
	export KS_BUILD_CACHE=$PWD/cache
	cp -r pop a && cp -r pop b && cp -r pop c
	ks-build a/gen-000/c0 &
	ks-build b/gen-000/c0 &
	wait
	run -0 jq -s -c 'map(.runner_cached) | sort' a/gen-000/c0/build.json b/gen-000/c0/build.json
	assert_output '[false,true]'
	cmp a/gen-000/c0/runner b/gen-000/c0/runner
	# no lock left behind: one runner and two objects, their logs and the check's mark
	run -0 find cache -type f
	assert_equal "${#lines[@]}" 7
	# the same kernels at two other paths, their harness with a warning that names its file: the second
	# takes the first's runner, and what its compiler printed names the second's folder
	local k
	for k in one two; do
		cp -r "$KS_ROOT/kernels" $k
		echo '#warning "the harness warns"' >>$k/sgemm/harness.c
		KS_KERNELS_DIR=$PWD/$k ks-init -p sgemm -t cpu -k 2 pop-$k
		KS_KERNELS_DIR=$PWD/$k ks-implement pop-$k/gen-000/c0
		KS_KERNELS_DIR=$PWD/$k run -0 ks-build pop-$k/gen-000/c0
	done
	assert_equal "$(jget pop-one/gen-000/c0/build.json .runner_cached)" false
	assert_equal "$(jget pop-two/gen-000/c0/build.json .runner_cached)" true
	run -0 grep -c "$PWD/two/sgemm/harness.c:[0-9]*:[0-9]*: warning: #warning \"the harness warns\"" pop-two/gen-000/c0/build.log
	run -1 grep -c "$PWD/one/" pop-two/gen-000/c0/build.log
	KS_KERNELS_DIR=$PWD/two run -0 ks-bench pop-two/gen-000/c0
	assert_equal "$(jget pop-two/gen-000/c0/bench.json .status)" ok
}

@test "another harness, compiler flag or compiler environment is another runner; KS_BUILD_CACHE=off keeps none" {
	export KS_BUILD_CACHE=$PWD/cache
	cp -r "$KS_ROOT/kernels" kernels
	export KS_KERNELS_DIR=$PWD/kernels
	assert_equal "$(build_in a)" false
	# a harness file changed: its hash, and the runner, change
	echo '/* changed */' >>kernels/sgemm/reference.c
	assert_equal "$(build_in b)" false
	# a problem.json setting the runner is built with (its tolerance, a -D of the command)
	jq '.tolerance.rtol = 2e-4' kernels/sgemm/problem.json >p && mv p kernels/sgemm/problem.json
	assert_equal "$(build_in c)" false
	# a variable the compiler is given (CPATH reaches the compiler; HOME does not)
	assert_equal "$(CPATH=/nonexistent build_in d)" false
	assert_equal "$(HOME=/nonexistent-home build_in e)" true
	# a search list's folder again later changes no lookup (PATH after a setup script sourced twice);
	# a folder put before the others does
	assert_equal "$(PATH=$PATH:${PATH%%:*}:/usr/bin:/usr/bin CPATH=/nonexistent:/nonexistent build_in e2)" true
	mkdir first
	assert_equal "$(PATH=$PWD/first:$PATH CPATH=/nonexistent build_in e3)" false
	run -0 find cache -type f -name 'runner-*.log'
	assert_equal "${#lines[@]}" 5
	run -0 find cache -type f
	assert_equal "${#lines[@]}" 35
	# off: nothing kept, nothing taken
	assert_equal "$(KS_BUILD_CACHE=off build_in f)" false
	run -0 find cache -type f
	assert_equal "${#lines[@]}" 35
}

@test "a cache folder that others may write is not used: said once, the build goes on" {
	mkdir -m 0777 cache
	chmod 0777 cache
	KS_BUILD_CACHE=$PWD/cache run -0 ks-build $C
	assert_output "ks-build: KS_BUILD_CACHE: '$PWD/cache' is not a folder of this user's that only it may write: runners are built, not kept"
	assert_equal "$(jget $C/build.json .ok)" true
	assert_equal "$(jget $C/build.json .runner_cached)" false
	run -0 find cache -type f
	assert_output ""
}

@test "the cache without KS_BUILD_CACHE: under XDG_CACHE_HOME, else ~/.cache" {
	unset KS_BUILD_CACHE
	XDG_CACHE_HOME=$PWD/xdg ks-build $C
	run -0 find xdg/kernel-scientist/runners -type f -name 'runner-*.log'
	assert_equal "${#lines[@]}" 1
	rm $C/build.json
	HOME=$PWD/home ks-build $C
	run -0 find home/.cache/kernel-scientist/runners -type f -name 'runner-*.log'
	assert_equal "${#lines[@]}" 1
}
