#!/usr/bin/env bats
# Stopping a run: SIGTERM, SIGINT or SIGHUP to make's pid alone (what kill,
# timeout and a service manager send; a terminal's Ctrl-C signals the whole
# group, 0101) stops the whole run within seconds, leaves nothing
# half-written, frees POP/.lock, and the same command resumes the run.

bats_require_minimum_version 1.5.0
load helper/common
load helper/llm

setup() {
	cd "$BATS_TEST_TMPDIR"
	P=$BATS_TEST_TMPDIR/pop
}

teardown() {
	llm_server_stop
	# (a run that did not stop is not left running after its test)
	kill_session "${pid:-}" "${pid_start:-}"
}

# start_gen ARGS...: make generation N=1 in a session of its own ($pid, make's
# pid, is its id), SIGINT not ignored (as from a terminal), each shape timed
# for $cap s (default 4: the run has a minute and more left when it is
# stopped; a test that stops it elsewhere spares the CPUs those benches).
start_gen() {
	KS_TIME_CAP_S=${cap:-4} setsid env --default-signal=INT \
		make -s --no-print-directory -C "$KS_ROOT" generation POP="$P" N=1 "$@" >make.log 2>&1 &
	pid=$! pid_start=$(proc_start $!)
}

# wait_for FILE: up to 120 s.
wait_for() {
	local i
	for ((i = 0; i < 1200; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.1
	done
	fail "timed out waiting for $1"
}

# run_procs: the processes of the run still there: its session's, and any
# other that names the population (one that left the session).
run_procs() {
	{
		pgrep -s "$pid"
		pgrep -f -- "$P"
	} | sort -u | xargs -r ps -o pid=,pgid=,stat=,args= -p
}

# stop SIGNAL: SIGNAL to make's pid alone; then, within 15 s (ample on a
# loaded machine: it takes a fraction of a second), make has ended of that
# signal and no process of the run is left.
stop() {
	local end=$((SECONDS + 15))
	kill -"$1" "$pid"
	while [ -n "$(run_procs)" ] && [ "$SECONDS" -lt "$end" ]; do
		sleep 0.1
	done
	[ -z "$(run_procs)" ] || fail "still running 15 s after SIG$1 to make (pid $pid):
$(run_procs)"
	rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" "$((128 + $(kill -l "$1")))"
}

# assert_stopped SIGNAL: what a stopped run leaves: the line that says so,
# the lock free, every JSON file whole, and no temporary file.
assert_stopped() {
	run -0 cat make.log
	assert_line "ks-lock: stopped the run on '$P' (SIG$1): the same command resumes it"
	run -0 flock -n pop/.lock true
	assert_all_json_valid pop
	run find pop -name '*.json' -size 0
	assert_output ""
	run find pop -name '.*' ! -name .lock
	assert_output ""
}

@test "SIGTERM to make alone during a benchmark stops the whole run; the same command resumes it" {
	start_gen
	wait_for pop/gen-000/c0/build.json
	stop TERM
	assert_stopped TERM
	assert_file_not_exists pop/gen-001/c0/bench.json
	run -0 gen N=1
	assert_complete
}

@test "SIGINT to make alone (not its group) during the builds of generation 1 stops the whole run" {
	# each kernel's compile 3 s longer, idle: generation 1 is still building when the signal comes
	mkdir bin
	printf '#!/bin/sh\ncase "$*" in *kernel.c*) sleep 3 ;; esac\nexec cc "$@"\n' >bin/slow-cc
	chmod +x bin/slow-cc
	KS_CC=$PWD/bin/slow-cc cap=0.02 start_gen
	wait_for pop/gen-001/c0/candidate.json
	stop INT
	assert_stopped INT
	assert_file_not_exists pop/gen-001/c0/build.json
	run -0 gen N=1
	assert_complete
}

@test "SIGHUP to make alone during an LLM call stops the whole run" {
	# select's reply takes two minutes
	llm_server_start '{"*": [{"content": "{}", "delay_s": 120}]}'
	cap=0.02 start_gen
	local i
	for ((i = 0; i < 1200; i++)); do
		[ "$(llm_requests)" -ge 1 ] && break
		sleep 0.1
	done
	assert_equal "$(llm_requests)" 1
	stop HUP
	assert_stopped HUP
	assert_file_not_exists pop/gen-001/select.json
	# resumed offline
	llm_server_stop
	unset KS_LLM_URL KS_LLM_API_KEY KS_LLM_PROVIDER KS_MODEL
	run -0 gen N=1
	assert_complete
}
