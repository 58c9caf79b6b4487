#!/usr/bin/env bats
# ks-lock: a command run holding pop/.lock; a second one refused, told who
# holds it; the run stopped whole when the make that started it is.

bats_require_minimum_version 1.5.0
load helper/common

setup() {
	cd "$BATS_TEST_TMPDIR"
	mkdir pop
	holder= holder_start=
}

teardown() {
	# (what a test started in a session of its own does not outlive it)
	kill_session "$holder" "$holder_start"
}

# wait_file FILE: up to 30 s for FILE to exist.
wait_file() {
	local end=$((SECONDS + 30))
	while [ ! -e "$1" ] && [ "$SECONDS" -lt "$end" ]; do
		sleep 0.05
	done
	assert_file_exists "$1"
}

@test "ks-lock runs the command holding pop/.lock, which names its parent, and exits as the command did" {
	run -0 ks-lock pop sh -c 'flock -n pop/.lock true && echo free || echo held; cat pop/.lock'
	assert_line --index 0 held
	assert_line --index 1 --regexp '^pid [0-9]+: '
	run -3 ks-lock pop sh -c 'exit 3'
	# options after pop are the command's
	run -0 ks-lock pop ls -d pop
	assert_output pop
	run -0 flock -n pop/.lock true
}

@test "ks-lock exits as the command did, not as a process of it that it adopted and reaped after it" {
	# (a child killed outright, then left by its parent: ks-lock, the subreaper, reaps both in one
	# pass; make test once failed with the command's exit 0 read as 137)
	run -0 ks-lock pop sh -c 'sh -c "kill -9 \$\$" & exec sleep 0.2'
	run -3 ks-lock pop sh -c 'sh -c "kill -9 \$\$" & exec sh -c "sleep 0.2; exit 3"'
}

@test "a second ks-lock exits 75 and names the make that holds the lock, with its command line" {
	setsid sh -c 'ks-lock pop sh -c "touch started; sleep 60"; :' 3>&- &
	holder=$! holder_start=$(proc_start $!)
	wait_file started
	run -75 ks-lock pop true
	assert_output "ks-lock: another make is running on 'pop' (pid $holder: sh -c 'ks-lock pop sh -c \"touch started; sleep 60\"; :'; it holds 'pop/.lock'): let it finish, or stop it first (kill $holder)"
	# the holder's parent ends: the run stops, and the lock is free
	kill "$holder"
	run -0 flock -w 20 pop/.lock true
	run pgrep -f 'touch started; sleep 60'
	assert_failure
}

@test "a lock left held by a process of an ended make: ks-lock names that process" {
	sh -c 'exit 0' &
	local dead=$!
	wait "$dead"
	echo "pid $dead: make generation N=1 POP=pop" >pop/.lock
	setsid flock pop/.lock sh -c 'touch held; sleep 60' 3>&- &
	holder=$! holder_start=$(proc_start $!)
	wait_file held
	run -75 ks-lock pop true
	assert_output "ks-lock: 'pop/.lock' is held by pid $holder (flock pop/.lock sh -c 'touch held; sleep 60'), left running by a make that has ended (pid $dead: make generation N=1 POP=pop): let it finish, or stop it first (kill $holder)"
}

@test "SIGINT to the make alone: ks-lock, its recipe, stops the command's processes and dies of it" {
	# a make whose recipe is ks-lock, as pipeline.mk's, running a command that would take a minute
	printf 'all:\n\texec ks-lock pop sh -c "touch started; sleep 60; touch finished"\n' >Makefile
	setsid env --default-signal=INT make -s >make.log 2>&1 &
	local pid=$! rc=0
	wait_file started
	kill -INT "$pid"
	wait "$pid" || rc=$?
	assert_equal "$rc" 130
	run -0 cat make.log
	assert_line "ks-lock: stopped the run on 'pop' (SIGINT): the same command resumes it"
	run pgrep -s "$pid"
	assert_failure
	run -0 flock -n pop/.lock true
	assert_file_not_exists finished
}

@test "SIGTERM to the make alone, which passes it on to ks-lock: the same" {
	printf 'all:\n\texec ks-lock pop sh -c "touch started; sleep 60; touch finished"\n' >Makefile
	setsid make -s >make.log 2>&1 &
	local pid=$! rc=0
	wait_file started
	kill -TERM "$pid"
	wait "$pid" || rc=$?
	assert_equal "$rc" 143
	run -0 cat make.log
	assert_line "ks-lock: stopped the run on 'pop' (SIGTERM): the same command resumes it"
	run pgrep -s "$pid"
	assert_failure
	run -0 flock -n pop/.lock true
}

@test "the tests' signal_same and kill_session spare a process that has since taken the pid" {
	# (pids come round within minutes under make test: a test's stale pid once stopped this file's holder)
	setsid sh -c 'touch started; exec sleep 60' 3>&- &
	holder=$! holder_start=$(proc_start $!)
	wait_file started
	# the same pid, started at another time: another process
	run -1 signal_same TERM "$holder" "$((holder_start + 1))"
	kill_session "$holder" "$((holder_start + 1))"
	sleep 0.2
	run -0 kill -0 "$holder"
	run -0 signal_same STOP "$holder" "$holder_start"
	run -0 kill -CONT "$holder"
	kill_session "$holder" "$holder_start"
	for ((i = 0; i < 100; i++)); do [ "$(proc_start "$holder")" = "$holder_start" ] || break; sleep 0.05; done
	run -1 proc_start "$holder"
}
