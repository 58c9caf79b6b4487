#!/usr/bin/env bats
# An interrupted make generation resumes with the same command, and N and
# POP alone continue a run, with the problem, target, K and kernels folder
# it was made with.

bats_require_minimum_version 1.5.0
load helper/common

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# start_gen ARGS...: make generation in a session of its own; sets $pid.
start_gen() {
	# A background job starts with SIGINT ignored; a terminal's Ctrl-C
	# reaches a foreground make that has it: restore the default.
	setsid env --default-signal=INT \
		make -s --no-print-directory -C "$KS_ROOT" generation POP="$BATS_TEST_TMPDIR/pop" "$@" \
		>make.log 2>&1 &
	pid=$!
}

# wait_for FILE: up to 120 s.
wait_for() {
	local i
	for i in $(seq 1200); do
		[ -e "$1" ] && return 0
		sleep 0.1
	done
	fail "timed out waiting for $1"
}

# stop_group SIGNAL: signal make's whole process group and wait for it to go.
stop_group() {
	kill -"$1" -- -"$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	sleep 0.5
}

# wait_unlocked: up to 60 s for POP/.lock to be free.  A process of the
# stopped make that its group's signal did not reach (a compiler's cc1,
# in the group of the compiler ks-build started) holds the lock until it
# ends, and until then the same command is refused, as it should be; on a
# busy machine (bats --jobs) that takes longer than stop_group's 0.5 s.
wait_unlocked() {
	flock -w 60 pop/.lock true && return
	local p holders=
	for p in /proc/[0-9]*; do
		ls -l "$p/fd" 2>/dev/null | grep -qF "$PWD/pop/.lock" &&
			holders+=$'\n'"$(ps -o pid=,ppid=,pgid=,sid=,stat=,etime=,args= -p "${p#/proc/}")"
	done
	fail "pop/.lock still held 60 s after the make was stopped, by:$holders"
}

@test "kill -9 of make in the middle of a generation, then the same command, completes it" {
	start_gen N=1
	wait_for pop/gen-001/c0/build.json
	stop_group KILL
	assert_file_not_exists pop/gen-001/c2/bench.json
	# what had finished before the kill must not be redone
	touch -d '2020-01-01' pop/gen-000/c0/*.json pop/gen-000/c0/kernel.c
	find pop -name bench.json | sort >finished
	wait_unlocked
	run -0 gen N=1
	assert_complete
	assert_equal "$(stat -c %Y pop/gen-000/c0/bench.json)" "$(date -d 2020-01-01 +%s)"
	assert_equal "$(stat -c %Y pop/gen-000/c0/build.json)" "$(date -d 2020-01-01 +%s)"
}

@test "Ctrl-C (SIGINT to the group) during benchmarks, then the same command, completes it" {
	start_gen N=1
	wait_for pop/gen-001/c1/build.json
	stop_group INT
	wait_unlocked
	run -0 gen N=1
	assert_complete
	# no harness outlived the interrupt
	run pgrep -f "$BATS_TEST_TMPDIR/pop/.*/runner"
	assert_failure
}

@test "kill -9 during the seed's benchmark leaves no harness running" {
	start_gen N=0
	wait_for pop/gen-000/c0/build.json
	sleep 0.3
	stop_group KILL
	# gone within seconds: the runner dies of its parent's death (PR_SET_PDEATHSIG), through bubblewrap's
	# namespace where it runs; on a loaded machine that chain took longer than stop_group's 0.5 s
	for _ in $(seq 50); do
		pgrep -f "$BATS_TEST_TMPDIR/pop/.*/runner" >/dev/null || break
		sleep 0.1
	done
	run pgrep -a -f "$BATS_TEST_TMPDIR/pop/.*/runner"
	assert_failure
	wait_unlocked
	run -0 gen N=0
	assert_equal "$(jget pop/gen-000/c0/bench.json .status)" ok
}

@test "a second make on the same POP is refused while the first runs, and loses nothing" {
	start_gen N=1
	wait_for pop/gen-000/c0/candidate.json
	run -2 make -s --no-print-directory -C "$KS_ROOT" generation POP="$BATS_TEST_TMPDIR/pop" N=1
	# (start_gen's setsid and env each become make: $pid is make's)
	assert_line "ks-lock: another make is running on '$BATS_TEST_TMPDIR/pop' (pid $pid: make -s --no-print-directory -C $KS_ROOT generation POP=$BATS_TEST_TMPDIR/pop N=1; it holds '$BATS_TEST_TMPDIR/pop/.lock'): let it finish, or stop it first (kill $pid)"
	wait "$pid"
	assert_complete
	run -0 make -s --no-print-directory -C "$KS_ROOT" generation POP="$BATS_TEST_TMPDIR/pop" N=1
	assert_line "ks: generations 0..1 of $BATS_TEST_TMPDIR/pop are complete: nothing to do"
}

# other_problem: ./kernels, a folder of one's own holding problem "other" (sgemm's files)
other_problem() {
	mkdir kernels && cp -r "$KS_ROOT/kernels/common" kernels/ && cp -r "$KS_ROOT/kernels/sgemm" kernels/other
}

@test "N and POP alone continue a run of another problem, with its K and its kernels folder" {
	other_problem
	KS_KERNELS_DIR=$PWD/kernels run -0 gen N=0 PROBLEM=other K=2
	assert_equal "$(jf pop/run.json .problem .target .k .kernels_dir)" "$(printf 'other\ncpu\n2\n%s' "$PWD/kernels")"
	# neither PROBLEM, K nor KS_KERNELS_DIR
	run -0 gen N=1
	refute_output --partial "ks-init"
	run -0 find pop/gen-001 -mindepth 1 -maxdepth 1 -type d
	assert_equal "$(sort <<<"$output")" "$(printf 'pop/gen-001/c0\npop/gen-001/c1')"
	for c in gen-000/c0 gen-001/c0 gen-001/c1; do
		assert_equal "$(jget pop/$c/bench.json .status)" ok
		run -0 jget pop/$c/build.json .command
		assert_output --partial "-I$PWD/kernels/other "
	done
	# given and the run's: as not given
	run -0 gen N=1 PROBLEM=other TARGET=cpu K=2
	assert_line "ks: generations 0..1 of $BATS_TEST_TMPDIR/pop are complete: nothing to do"
}

@test "a PROBLEM, TARGET or K given that the run is not is refused with the command that continues it" {
	other_problem
	KS_KERNELS_DIR=$PWD/kernels gen N=0 PROBLEM=other K=2
	run -2 gen N=1 PROBLEM=sgemm
	assert_line "ks: '$BATS_TEST_TMPDIR/pop' is a run of problem other on target cpu with K=2 (its run.json), not PROBLEM=sgemm: continue it with 'make generation N=1 POP=$BATS_TEST_TMPDIR/pop', or start another with a new POP"
	run -2 gen N=3 TARGET=cuda K=3
	assert_line "ks: '$BATS_TEST_TMPDIR/pop' is a run of problem other on target cpu with K=2 (its run.json), not TARGET=cuda K=3: continue it with 'make generation N=3 POP=$BATS_TEST_TMPDIR/pop', or start another with a new POP"
	# from the environment too
	PROBLEM=sgemm run -2 gen N=1
	assert_line --partial "(its run.json), not PROBLEM=sgemm: continue it with"
	assert_file_not_exists pop/gen-001
	assert_equal "$(jf pop/run.json .problem .k)" "$(printf 'other\n2')"
}
