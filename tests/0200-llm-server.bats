#!/usr/bin/env bats
# The fake LLM server of tests/fixtures (helper/llm), checked with curl:
# the tests of the tools' HTTP client trust what it answers.

bats_require_minimum_version 1.5.0
load helper/common
load helper/llm

setup() {
	command -v curl >/dev/null ||
		skip "the curl command line tool is not installed: apt-get install curl"
	cd "$BATS_TEST_TMPDIR"
	# the requests below carry no key; the tests of keys expect one
	export LLM_SERVER_EXPECT_KEY=
}

teardown() {
	llm_server_stop
}

OPENAI=/v1/chat/completions
ANTHROPIC=/v1/messages
GEMINI=/v1beta/models/gemini-fix:generateContent

# post PATH JSON [CURL_ARGS...]: POSTs JSON (or @FILE) to the server;
# prints the HTTP status, leaves the reply body in ./reply, its headers in
# ./reply-headers, and appends it as a line to ./replies.  curl's exit
# status is post's.
post() {
	local path=$1 data=$2 rc=0
	shift 2
	rm -f reply # no reply (hang_up) must not leave the last one there
	curl -sS -o reply -D reply-headers -w '%{http_code}' \
		-H 'content-type: application/json' --data-binary "$data" "$@" \
		"http://127.0.0.1:$LLM_PORT$path" || rc=$?
	{ [ ! -f reply ] || cat reply; echo; } >>replies
	return $rc
}

# chat MODEL TEXT: an OpenAI request body.
chat() {
	printf '{"model": "%s", "messages": [{"role": "user", "content": "%s"}]}' "$1" "$2"
}

# reply FILTER...: fields of ./reply, one a line, as jf prints them.
reply() {
	jf reply "$@"
}

# replies FILTER: that field of every reply so far, one a line, as jf
# prints it; a reply that is not JSON is printed as it came.
replies() {
	jq -rRc ". as \$line | (try [fromjson] catch null) as \$d
		| if \$d == null then \$line else \$d[0] | ($1) end" replies
}

CONTENT='.choices[0].message.content'

@test "OpenAI: a chat completion in the OpenAI shape, the request logged" {
	llm_server_start '{"*": [{"content": "hello there"}]}'
	assert_equal "$KS_LLM_URL" "http://127.0.0.1:$LLM_PORT/v1"
	assert_equal "$KS_LLM_PROVIDER $KS_MODEL $KS_LLM_API_KEY" "openai fixture test-key-123"
	run -0 post $OPENAI '{"model": "gpt-x", "messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "say hi"}]}'
	assert_output 200
	run reply .object .model '.choices[0].message' \
		'.choices[0].finish_reason' .usage
	assert_output - <<'EOF'
chat.completion
gpt-x
{"role":"assistant","content":"hello there"}
stop
{"prompt_tokens":4,"completion_tokens":2,"total_tokens":6,"prompt_tokens_details":{"cached_tokens":0},"completion_tokens_details":{"reasoning_tokens":0}}
EOF
	assert_equal "$(llm_requests)" 1
	run llm_request 1 .n .method .path .model .step \
		'.headers["content-type"]' '.body.messages[1].content'
	assert_output - <<EOF
1
POST
$OPENAI
gpt-x
0
application/json
say hi
EOF
}

@test "OpenAI: any prefix before /chat/completions (Gemini's OpenAI endpoint)" {
	llm_server_start '{"*": [{}]}'
	run -0 post /v1beta/openai/chat/completions "$(chat m hi)"
	assert_output 200
	assert_equal "$(reply "$CONTENT")" ok
}

@test "Anthropic: a message in the Anthropic shape, system words counted" {
	llm_server_start '{"*": [{"content": "three word reply"}]}'
	run -0 post $ANTHROPIC '{"model": "claude-x", "max_tokens": 100, "system": "you are terse", "messages": [{"role": "user", "content": [{"type": "text", "text": "hi there"}]}]}' \
		-H 'anthropic-version: 2023-06-01'
	assert_output 200
	run reply .type .role .model .content .stop_reason .usage '.id[:4]'
	assert_output - <<'EOF'
message
assistant
claude-x
[{"type":"text","text":"three word reply"}]
end_turn
{"input_tokens":5,"output_tokens":3,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}
msg_
EOF
	run llm_request 1 .path '.headers["anthropic-version"]' .body.max_tokens
	assert_output $'/v1/messages\n2023-06-01\n100'
}

@test "Gemini: generateContent in the Gemini shape, the model from the path" {
	llm_server_start '{"gemini-fix": [{"content": "from gemini"}]}'
	run -0 post $GEMINI '{"systemInstruction": {"parts": [{"text": "be nice"}]}, "contents": [{"role": "user", "parts": [{"text": "one two three"}]}]}'
	assert_output 200
	run reply '.candidates[0].content' '.candidates[0].finishReason' .usageMetadata
	assert_output - <<'EOF'
{"role":"model","parts":[{"text":"from gemini"}]}
STOP
{"promptTokenCount":5,"candidatesTokenCount":2,"totalTokenCount":7}
EOF
	run llm_request 1 .model .path
	assert_output "gemini-fix"$'\n'"$GEMINI"
}

@test "each model takes its own steps in order; the last step repeats" {
	llm_server_start '{"a": [{"content": "a1"}, {"content": "a2"}], "b": [{"content": "b1"}]}'
	for m in a b a a b; do
		run -0 post $OPENAI "$(chat $m q)"
	done
	run replies "$CONTENT"
	assert_output $'a1\nb1\na2\na2\nb1'
	assert_equal "$(llm_request 4 .step)" 1
	assert_equal "$(llm_requests)" 5
}

@test "\"*\" answers models the script does not name; without it, 404" {
	llm_server_start '{"*": [{"content": "default"}], "named": [{"content": "own"}]}'
	run -0 post $OPENAI "$(chat other q)"
	run -0 post $OPENAI "$(chat named q)"
	llm_server_script '{"named": [{}]}'
	run -0 post $OPENAI "$(chat other q)"
	assert_output 404
	run replies '.error.message // .choices[0].message.content'
	assert_output - <<'EOF'
default
own
llm-server: the script has no steps for model 'other'
EOF
}

@test "a script changed while the server runs applies, from its first step" {
	llm_server_start '{"*": [{"content": "old1"}, {"content": "old2"}]}'
	run -0 post $OPENAI "$(chat m q)"
	llm_server_script '{"*": [{"content": "new1"}, {"content": "new2"}]}'
	run -0 post $OPENAI "$(chat m q)"
	assert_equal "$(reply "$CONTENT")" new1
}

@test "error statuses come in the shape of the API called, with their headers" {
	llm_server_start '{"*": [{"status": 429, "message": "slow down", "headers": {"Retry-After": "1"}}], "gemini-fix": [{"status": 503}], "v": [{"status": 400, "error_shape": "vllm", "message": "too long"}]}'
	run -0 post $OPENAI "$(chat m q)"
	assert_output 429
	run grep -ci '^retry-after: 1' reply-headers
	assert_output 1
	run -0 post $ANTHROPIC '{"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "q"}]}'
	assert_output 429
	run grep -ci '^retry-after: 1' reply-headers
	assert_output 1
	run -0 post $GEMINI '{"contents": [{"parts": [{"text": "q"}]}]}'
	assert_output 503
	run -0 post $OPENAI "$(chat v q)"
	assert_output 400
	# The server writes JSON as python's json.dumps: compare the text.
	run cat replies
	assert_output - <<'EOF'
{"error": {"message": "slow down", "type": "rate_limit_error", "param": null, "code": "rate_limit_exceeded"}}
{"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}
{"error": {"code": 503, "message": "scripted error 503", "status": "UNAVAILABLE"}}
{"object": "error", "message": "too long", "type": "BadRequestError", "param": null, "code": 400}
EOF
}

@test "a truncated reply: finish length as each API says it; usage as scripted" {
	llm_server_start '{"*": [{"content": "cut", "finish": "length", "usage": {"prompt_tokens": 7, "completion_tokens": 9}}]}'
	run -0 post $OPENAI "$(chat m q)"
	run -0 post $ANTHROPIC '{"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "q"}]}'
	run -0 post $GEMINI '{"contents": [{"parts": [{"text": "q"}]}]}'
	run replies '.choices[0].finish_reason // .stop_reason // .candidates[0].finishReason'
	assert_output $'length\nmax_tokens\nMAX_TOKENS'
	run replies '.usage // .usageMetadata'
	assert_output - <<'EOF'
{"prompt_tokens":7,"completion_tokens":9,"total_tokens":16,"prompt_tokens_details":{"cached_tokens":0},"completion_tokens_details":{"reasoning_tokens":0}}
{"input_tokens":7,"output_tokens":9,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}
{"promptTokenCount":7,"candidatesTokenCount":9,"totalTokenCount":16}
EOF
}

@test "delay_s: the client times out while another request is answered at once" {
	llm_server_start '{"slow": [{"delay_s": 2}], "*": [{"content": "fast"}]}'
	post $OPENAI "$(chat slow q)" --max-time 0.5 >slow.out 2>&1 3>&- &
	slow=$!
	sleep 0.1
	t0=${EPOCHREALTIME/./}
	run -0 post $OPENAI "$(chat quick q)"
	t1=${EPOCHREALTIME/./}
	assert_output 200
	assert_equal "$(reply "$CONTENT")" fast
	[ $((t1 - t0)) -lt 300000 ] || fail "the quick reply took $((t1 - t0)) us"
	rc=0
	wait $slow || rc=$? # only it: a bare wait would wait for the server too
	assert_equal "$rc" 28
	assert_equal "$(llm_requests)" 2
	# The slow request's thread still sleeps; stopping does not wait for it.
	t0=${EPOCHREALTIME/./}
	kill -TERM "$LLM_SERVER_PID"
	rc=0
	wait "$LLM_SERVER_PID" || rc=$?
	t1=${EPOCHREALTIME/./}
	assert_equal "$rc" 0
	[ $((t1 - t0)) -lt 1000000 ] || fail "stopping took $((t1 - t0)) us"
}

@test "body: sent verbatim with the status" {
	llm_server_start '{"*": [{"status": 200, "body": "{\"choices\": [", "headers": {"X-Fixture": "raw"}}]}'
	run -0 post $OPENAI "$(chat m q)"
	assert_output 200
	assert_equal "$(cat reply)" '{"choices": ['
	run grep -ci '^x-fixture: raw' reply-headers
	assert_output 1
}

@test "hang_up: the connection closes without a reply" {
	llm_server_start '{"*": [{"hang_up": true}, {"content": "back"}]}'
	run -52 post $OPENAI "$(chat m q)"
	assert_output --partial "Empty reply from server"
	run -0 post $OPENAI "$(chat m q)"
	assert_equal "$(reply "$CONTENT")" back
	assert_equal "$(llm_requests)" 2
}

@test "the API key is redacted in the log and checked: ok, wrong, missing" {
	LLM_SERVER_EXPECT_KEY=test-key-123 llm_server_start '{"*": [{}]}'
	post $OPENAI "$(chat m q)" -H "Authorization: Bearer $KS_LLM_API_KEY"
	post $ANTHROPIC '{"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "q"}]}' -H 'x-api-key: not-the-key'
	post $GEMINI '{"contents": [{"parts": [{"text": "q"}]}]}' -H "x-goog-api-key: $KS_LLM_API_KEY"
	post $OPENAI "$(chat m q)"
	post "$GEMINI?key=$KS_LLM_API_KEY" '{"contents": [{"parts": [{"text": "q"}]}]}'
	# "auth auth_header redacted" lines (the path when no header holds the key)
	run jq -r "$JQ_DEFS"' must("auth_header") as $h
		| "\(.auth) \($h) \(if $h != null and (.headers | has($h)) then .headers[$h] else .path end)"' llm-log.jsonl
	assert_output - <<EOF
ok authorization <redacted:19 chars>
wrong x-api-key <redacted:11 chars>
ok x-goog-api-key <redacted:12 chars>
missing null $OPENAI
ok key $GEMINI?key=<redacted:12 chars>
EOF
	run -1 grep -c -e "$KS_LLM_API_KEY" -e not-the-key llm-log.jsonl
}

@test "a wrong or missing key is refused as each service refuses it; OpenAI masks the key, echo_key shows it whole" {
	LLM_SERVER_EXPECT_KEY=test-key-123 llm_server_start '{"*": [{}], "echo": [{"echo_key": true}]}'
	run -0 post $OPENAI "$(chat m q)" -H 'Authorization: Bearer sk-proj-abcdefghij0123456789wxyz'
	assert_output 401
	run reply '.error.message' .error.code
	assert_output $'Incorrect API key provided: sk-proj-********************wxyz. You can find your API key at https://platform.openai.com/account/api-keys.\ninvalid_api_key'
	run -0 post $OPENAI "$(chat echo q)" -H 'Authorization: Bearer sk-proj-abcdefghij0123456789wxyz'
	assert_equal "$(reply .error.message)" "Incorrect API key provided: sk-proj-abcdefghij0123456789wxyz. You can find your API key at https://platform.openai.com/account/api-keys."
	run -0 post $OPENAI "$(chat m q)"
	assert_output 401
	assert_equal "$(reply .error.message)" "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."
	run -0 post $ANTHROPIC '{"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "q"}]}' -H 'x-api-key: nope'
	assert_output 401
	assert_equal "$(reply .)" '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}'
	run -0 post $GEMINI '{"contents": [{"parts": [{"text": "q"}]}]}' -H 'x-goog-api-key: nope'
	assert_output 400
	run reply .error.message .error.status '.error.details[0].reason'
	assert_output $'API key not valid. Please pass a valid API key.\nINVALID_ARGUMENT\nAPI_KEY_INVALID'
}

@test "Claude's extended thinking is checked as Anthropic checks it: budget >= 1024, under max_tokens, no temperature" {
	llm_server_start '{"*": [{"content": "ok", "thinking": "hmm"}]}'
	local base='"model": "m", "messages": [{"role": "user", "content": "q"}]'
	run -0 post $ANTHROPIC "{$base, \"max_tokens\": 2000, \"thinking\": {\"type\": \"enabled\", \"budget_tokens\": 512}}"
	assert_output 400
	assert_equal "$(reply .error.message)" "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024"
	run -0 post $ANTHROPIC "{$base, \"max_tokens\": 2000, \"thinking\": {\"type\": \"enabled\", \"budget_tokens\": 2000}}"
	assert_output 400
	[[ "$(reply .error.message)" == '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult'* ]] || fail "$(reply .error.message)"
	run -0 post $ANTHROPIC "{$base, \"max_tokens\": 4000, \"temperature\": 0.5, \"thinking\": {\"type\": \"enabled\", \"budget_tokens\": 2000}}"
	assert_output 400
	[[ "$(reply .error.message)" == '`temperature` may only be set to 1 when thinking is enabled. Please consult'* ]] || fail "$(reply .error.message)"
	run -0 post $ANTHROPIC "{$base, \"max_tokens\": 4000, \"thinking\": {\"type\": \"enabled\", \"budget_tokens\": 2000}}"
	assert_output 200
	assert_equal "$(reply '[.content[].type]')" '["thinking","text"]'
}

@test "with LLM_SERVER_EXPECT_KEY empty, a key is only noted as present" {
	LLM_SERVER_EXPECT_KEY='' llm_server_start '{"*": [{}]}'
	post $OPENAI "$(chat m q)" -H 'Authorization: Bearer anything'
	assert_equal "$(llm_request 1 .auth)" present
}

@test "other methods, unknown paths and malformed requests get JSON errors" {
	llm_server_start '{"*": [{}]}'
	run -0 curl -sS -o reply -w '%{http_code}' "http://127.0.0.1:$LLM_PORT/v1/models"
	assert_output 404
	{ cat reply; echo; } >>replies
	run -0 post /v1/completions "$(chat m q)"
	assert_output 404
	run -0 post $ANTHROPIC '{"model": "m", "messages": [{"role": "user", "content": "q"}]}'
	assert_output 400
	run -0 post $OPENAI 'not json'
	assert_output 400
	run replies '.error.message'
	assert_output - <<'EOF'
llm-server: no GET endpoint at /v1/models
llm-server: no POST endpoint at /v1/completions
missing required field 'max_tokens'
request body is not a JSON object
EOF
	# None of them took a step: the first good request gets step 0.
	run -0 post $OPENAI "$(chat m q)"
	run llm_log '[.method, must("step"), must("body")]'
	assert_output - <<'EOF'
["GET",null,null]
["POST",null,{"model":"m","messages":[{"role":"user","content":"q"}]}]
["POST",null,{"model":"m","messages":[{"role":"user","content":"q"}]}]
["POST",null,"not json"]
["POST",0,{"model":"m","messages":[{"role":"user","content":"q"}]}]
EOF
}

@test "a large body with Expect: 100-continue is answered without delay" {
	llm_server_start '{"*": [{}]}'
	chat m "$(head -c 200000 /dev/zero | tr '\0' w)" >big.json
	t0=${EPOCHREALTIME/./}
	run -0 post $OPENAI @big.json -H 'Expect: 100-continue'
	t1=${EPOCHREALTIME/./}
	assert_output 200
	[ $((t1 - t0)) -lt 500000 ] || fail "the reply took $((t1 - t0)) us"
	assert_equal "$(reply .usage.prompt_tokens)" 1
}

@test "the server exits when the process named by --parent-pid is gone" {
	sleep 30 3>&- &
	parent=$!
	echo '{}' >script.json
	python3 "$LLM_SERVER" --script script.json --log log.jsonl --port-file port \
		--parent-pid $parent 3>&- &
	server=$!
	for ((i = 0; i < 100; i++)); do [ -s port ] && break; sleep 0.05; done
	assert_file_exists port
	run grep -xE '[0-9]+' port
	assert_success
	kill $parent
	for ((i = 0; i < 60; i++)); do _llm_alive $server || break; sleep 0.05; done
	_llm_alive $server && kill -KILL $server && fail "the server outlived its parent"
	rc=0
	wait $server || rc=$?
	assert_equal "$rc" 0
}
