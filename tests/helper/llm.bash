# tests/helper/llm.bash - a scripted fake LLM server for the tests
# (tests/fixtures/llm-server.py, which documents the script format).
# Load it after helper/common:
#
#	load helper/common
#	load helper/llm
#	teardown() { llm_server_stop; }
#
# Every test file that starts the server must call llm_server_stop in
# its teardown: bats runs teardown even when the test failed, so no
# server outlives its test.  (The server also exits by itself when the
# test's process is gone, should a run be killed.)

LLM_SERVER="$KS_ROOT/tests/fixtures/llm-server.py"

# _llm_write_script TEXT: the script, renamed into place so that the
# server, which reads it on every request, never sees half of it.
_llm_write_script() {
	local file=$BATS_TEST_TMPDIR/llm-script.json
	printf '%s\n' "$1" >"$file.tmp" && mv -f "$file.tmp" "$file"
}

# _llm_alive PID: the process runs (kill -0 alone would also count the
# zombie the server is between its exit and our wait).
_llm_alive() {
	local state
	read -r _ _ state _ 2>/dev/null </proc/"$1"/stat && [ "$state" != Z ]
}

# llm_server_start SCRIPT_JSON_TEXT: starts the server and points the
# tools at it (KS_LLM_URL, KS_LLM_API_KEY, KS_LLM_PROVIDER, KS_MODEL);
# on port LLM_SERVER_PORT where that is set (a server back after an outage).
# The server checks the key against LLM_SERVER_EXPECT_KEY (default: the
# test key; set it empty to check nothing).
llm_server_start() {
	local port_file=$BATS_TEST_TMPDIR/llm-port i
	llm_server_stop # a second start replaces the server
	# (the server checks the script as it starts: one python3 run less)
	_llm_write_script "$1" || return
	rm -f "$port_file"
	: >"$BATS_TEST_TMPDIR/llm-log.jsonl" # its requests only, from n=1
	# 3>&- : bats waits for fd 3 to close; a server holding it would
	# keep bats waiting after the last test.
	LLM_SERVER_EXPECT_KEY=${LLM_SERVER_EXPECT_KEY-test-key-123} \
		python3 "$LLM_SERVER" --script "$BATS_TEST_TMPDIR/llm-script.json" \
		--log "$BATS_TEST_TMPDIR/llm-log.jsonl" --port-file "$port_file" \
		${LLM_SERVER_PORT:+--port "$LLM_SERVER_PORT"} \
		--parent-pid $$ >"$BATS_TEST_TMPDIR/llm-server.err" 2>&1 3>&- &
	LLM_SERVER_PID=$! LLM_SERVER_START=$(proc_start $!)
	for ((i = 0; i < 200; i++)); do
		[ -s "$port_file" ] && break
		_llm_alive "$LLM_SERVER_PID" ||
			fail "llm server died: $(cat "$BATS_TEST_TMPDIR/llm-server.err")"
		sleep 0.05
	done
	[ -s "$port_file" ] || fail "llm server wrote no port in 10 s"
	LLM_PORT=$(cat "$port_file")
	LLM_URL="http://127.0.0.1:$LLM_PORT/v1"
	export LLM_PORT LLM_URL LLM_SERVER_PID LLM_SERVER_START
	export KS_LLM_URL=$LLM_URL KS_LLM_API_KEY=test-key-123
	export KS_LLM_PROVIDER=openai KS_MODEL=fixture
}

# llm_server_script SCRIPT_JSON_TEXT: replaces the script of the running
# server; the next request of each model takes its first step again.
llm_server_script() {
	jq -en --argjson script "$1" true >/dev/null 2>&1 ||
		fail "llm server script is not valid JSON: $1"
	_llm_write_script "$1"
}

# llm_requests: how many requests reached the server so far.
llm_requests() {
	local log=$BATS_TEST_TMPDIR/llm-log.jsonl
	if [ -f "$log" ]; then wc -l <"$log"; else echo 0; fi
}

# llm_request N FILTER...: fields of the Nth request logged (from 1), one a
# line, e.g. llm_request 1 .body.model; as jf prints them (strings raw,
# other values as compact JSON), from one jq run.
llm_request() {
	local log=$BATS_TEST_TMPDIR/llm-log.jsonl n=$1 count
	shift
	count=$(wc -l <"$log")
	if [ "$n" -lt 1 ] || [ "$n" -gt "$count" ]; then
		echo "llm_request: no request $n ($count logged)" >&2
		return 1
	fi
	sed -n "${n}p" "$log" | jf /dev/stdin "$@"
}

# llm_log FILTER: a field of every request logged, one a line, as
# llm_request prints it, e.g. llm_log '[.path, .step]'.
llm_log() {
	jq -rc "$JQ_DEFS $1" "$BATS_TEST_TMPDIR/llm-log.jsonl"
}

# llm_server_stop: stops the server (SIGTERM, then SIGKILL after 2 s);
# safe to call when none was started or it is already stopped.
llm_server_stop() {
	local pid=${LLM_SERVER_PID:-} start=${LLM_SERVER_START:-} i
	[ -n "$pid" ] || return 0
	unset LLM_SERVER_PID LLM_SERVER_START
	signal_same TERM "$pid" "$start" || return 0
	for ((i = 0; i < 40; i++)); do
		_llm_alive "$pid" || break
		sleep 0.05
	done
	signal_same KILL "$pid" "$start" || true
	wait "$pid" 2>/dev/null || true
	return 0
}

# plans_reply FILE [FILTER]: a hypothesize reply, in a json fence after a
# line of prose, with 10 avenues and 5 plans .plans; the jq FILTER may
# spoil the document first.  By the rule of population(5) the plans keep
# [1, 0, 2]: the most innovative is 1 (a tie with 2, to the lower index);
# the highest uplift_max is 3, but 3 repeats plan 1 (same title and
# rubric), then 0 and 1 tie at 40: 0; the highest uplift_min is 3 again
# (a repeat), then 2.
plans_reply() {
	{
		printf 'Here are my plans.\n\n```json\n'
		jq -n --indent 1 '
			def plan($t; $desc; $rubric; $lo; $hi; $inn):
				{title: $t, description: $desc, rubric: $rubric,
				 uplift_min: $lo, uplift_max: $hi, innovation: $inn};
			{avenues: [range(10) | "avenue \(.): try idea number \(.)"],
			 plans: [
				plan("Wider tiles"; "wider BN tiles reuse rows of A"; "set BN to 128"; 2; 40; 5),
				plan("Loop order ikj"; "stream rows of B, vectorize over j"; "use the i-k-j loop order"; -5; 40; 9),
				plan("Unroll k"; "unroll the k loop by 4 to hide FMA latency"; "unroll the k loop 4 times"; 10; 15; 9),
				plan("Loop order ikj"; "the same again, said differently"; "use the i-k-j loop order"; 12; 60; 1),
				plan("Deeper k blocks"; "fewer passes over C"; "set BK to 128"; 0; 30; 7)]}
			| '"${2:-.}"
		printf '```\n'
	} >"$1"
}
