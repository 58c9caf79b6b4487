#!/usr/bin/env bats
# The LLM client (tools/lib/ks_llm.c) through a real tool run: ks-select on a
# population of two kernels makes exactly one model call per attempt,
# against the scripted fake server of helper/llm.  Request shapes of the
# three APIs, configuration by environment, retries, truncation, usage
# and the token budget, the cache and the transcripts.

bats_require_minimum_version 1.5.0
load helper/common
load helper/llm

# The population every test copies: g000c0 (100 us) and g000c1 (80 us).
# The offline rule picks g000c1 as base; the model's scripted reply picks
# g000c0, so select.json tells which of the two decided.
setup_file() {
	cd "$BATS_FILE_TMPDIR" || return
	make_pop two
	fake_cand two 0 0 ok 100 ''
	fake_cand two 0 1 ok 80 'BM=32'
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return
	cp -r "$BATS_FILE_TMPDIR/two" pop
	# fast retries: tests check what is retried, not how long it waits
	export KS_LLM_BACKOFF_S=0.01
}

teardown() {
	llm_server_stop
}

# The model's reply: a valid choice, as the text of a JSON string.
PICK='{\"base\": \"g000c0\", \"reference\": \"g000c1\", \"reason\": \"the seed has headroom\"}'
# A step answering it, with a known usage.
OK='{"content": "'$PICK'", "usage": {"prompt_tokens": 1000, "completion_tokens": 20}}'
# The key of the tests that look for it in files; the server checks it.
KEY=sk-Zq7distinctive-KEY-4f1e

# steps STEP...: a server script giving every model these steps.
steps() {
	local IFS=,
	printf '{"*": [%s]}' "$*"
}

# ledger FILTER: that field of every line of pop/llm-usage.jsonl, as jf
# prints it.
ledger() {
	jq -rc "$1" pop/llm-usage.jsonl
}

# assert_model_chose: select.json holds the scripted reply, not the offline rule's.
assert_model_chose() {
	run -0 jf pop/gen-001/select.json .base .reference .reason 'has("fallback")'
	assert_output $'g000c0\ng000c1\nthe seed has headroom\nfalse'
}

# since T0: seconds from $EPOCHREALTIME T0 to now.
since() {
	awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f\n", b - a }'
}

# ---- the three APIs -------------------------------------------------

@test "OpenAI: POST URL/chat/completions with a Bearer key, system and user messages; the reply decides" {
	llm_server_start "$(steps "$OK")"
	run -0 ks-select pop/gen-001
	assert_output ""
	assert_model_chose
	assert_equal "$(jget pop/gen-001/select.json .model)" fixture
	assert_equal "$(llm_requests)" 1
	run llm_request 1 .method .path .auth .auth_header \
		.headers.authorization '.headers["content-type"]' \
		'[.headers | keys_unsorted[] | select(IN("x-api-key", "x-goog-api-key", "anthropic-version"))]' \
		.body.model '[.body.messages[].role]' \
		.body.max_tokens '.body | has("temperature")' \
		'.body.messages[0].content | startswith("You are a CPU kernel scientist")' \
		'.body.messages[1].content | contains("this is generation 1")' \
		'.body.messages[1].content | contains("- g000c1 (base -, reference -; plan: (the seed kernel)): status ok, score 80.00 us")'
	assert_output - <<'EOF'
POST
/v1/chat/completions
ok
authorization
<redacted:19 chars>
application/json
[]
fixture
["system","user"]
16384
false
true
true
true
EOF
}

@test "OpenAI: a reply with prose around a fenced JSON object is parsed" {
	llm_server_start "$(steps '{"content": "Here is my choice:\n```json\n'"$PICK"'\n```\nGood luck."}')"
	run -0 ks-select pop/gen-001
	assert_model_chose
}

@test "Anthropic: POST URL/messages with x-api-key, anthropic-version, max_tokens and a top-level system" {
	llm_server_start "$(steps "$OK")"
	export KS_LLM_PROVIDER=anthropic KS_MODEL=claude-fix
	run -0 ks-select pop/gen-001
	assert_output ""
	assert_model_chose
	assert_equal "$(jget pop/gen-001/select.json .model)" claude-fix
	run llm_request 1 .path .auth .auth_header '.headers["anthropic-version"]' \
		'.headers.authorization' .body.model .body.max_tokens \
		'.body.system | startswith("You are a CPU kernel scientist")' \
		'[.body.messages[].role]' '.body.messages[0].content | contains("this is generation 1")'
	assert_output - <<'EOF'
/v1/messages
ok
x-api-key
2023-06-01
null
claude-fix
16384
true
["user"]
true
EOF
	# the reply's usage is read from Anthropic's field names
	assert_equal "$(jget pop/gen-001/select.json .usage)" \
		'{"calls":1,"cached_calls":0,"prompt_tokens":1000,"completion_tokens":20}'
}

@test "Gemini: POST URL/models/MODEL:streamGenerateContent?alt=sse with x-goog-api-key, systemInstruction, roles user and model" {
	# the first reply names no kernel of the population, so the second request holds a model turn
	llm_server_start "$(steps '{"content": "{\"base\": \"g9\"}"}' "$OK")"
	export KS_LLM_PROVIDER=gemini KS_MODEL=gemini-fix KS_LLM_MAX_TOKENS=777 KS_LLM_TEMPERATURE=0.25
	run -0 ks-select pop/gen-001
	assert_output ""
	assert_model_chose
	assert_equal "$(llm_requests)" 2
	run llm_request 2 .path .model .auth .auth_header \
		'.headers.authorization' '.body | has("model")' \
		'.body.systemInstruction.parts[0].text | startswith("You are a CPU kernel scientist")' \
		'[.body.contents[].role]' '.body.contents[1].parts' \
		.body.generationConfig
	assert_output - <<'EOF'
/v1/models/gemini-fix:streamGenerateContent?alt=sse
gemini-fix
ok
x-goog-api-key
null
false
true
["user","model","user"]
[{"text":"{\"base\": \"g9\"}"}]
{"temperature":0.25,"maxOutputTokens":777}
EOF
	assert_equal "$(jget pop/gen-001/select.json .usage.calls)" 2
}

# ---- streaming --------------------------------------------------------

@test "every request streams by default, and a streamed reply reads as the unstreamed one (all three APIs)" {
	# (before: no streaming: a model thinking for minutes sent nothing until its answer)
	local api want
	for api in openai anthropic gemini; do
		rm -rf pop/gen-001 pop/llm-cache
		llm_server_start "$(steps '{"content": "'"$PICK"'", "thinking": "a long thought", "usage": {"prompt_tokens": 1000, "completion_tokens": 300, "cached_prompt_tokens": 100, "thoughts_tokens": 50}}')"
		KS_LLM_PROVIDER=$api run -0 ks-select pop/gen-001
		assert_model_chose
		case $api in
		openai) want='[true,true]' ;;
		anthropic) want='[true,null]' ;;
		gemini) want='[null,null]' ;;
		esac
		assert_equal "$(llm_request 1 '[.body.stream, .body.stream_options.include_usage]')" "$want"
		run jf pop/gen-001/llm/select-1.json .reply .finish_reason .usage
		assert_line --index 0 "$(jq -rn "\"$PICK\"")"
		assert_line --index 2 '{"prompt_tokens":1000,"completion_tokens":300,"cached_prompt_tokens":100}'
		cp pop/gen-001/llm/select-1.json streamed.json
		# the same request unstreamed: the same reply, finish reason and usage
		rm -rf pop/gen-001 pop/llm-cache
		KS_LLM_STREAM=off KS_LLM_PROVIDER=$api run -0 ks-select pop/gen-001
		assert_model_chose
		assert_equal "$(llm_request 2 '.body.stream')" null
		assert_equal "$(jq -c '[.reply, .finish_reason, .usage]' pop/gen-001/llm/select-1.json)" \
			"$(jq -c '[.reply, .finish_reason, .usage]' streamed.json)"
	done
	[ "$(llm_request 1 .path)" = "/v1/models/fixture:streamGenerateContent?alt=sse" ] || fail "gemini did not stream"
	[ "$(llm_request 2 .path)" = "/v1/models/fixture:generateContent" ] || fail "KS_LLM_STREAM=off streamed"
}

@test "a stream silent for KS_LLM_IDLE_S is a dead connection, cut and retried; a slow stream that keeps coming is not" {
	# slow but alive: an event every 0.3 s, 4 s in all, idle limit 1 s
	llm_server_start "$(steps '{"content": "'"$PICK"'", "stream_gap_s": 0.3}')"
	KS_LLM_IDLE_S=1 run -0 ks-select pop/gen-001
	assert_model_chose
	assert_equal "$(llm_requests)" 1
	# silent for 3 s after its first event: cut after about 1 s, retried
	rm -rf pop/gen-001 pop/llm-cache pop/llm-usage.jsonl
	llm_server_start "$(steps '{"content": "'"$PICK"'", "stream_gap_s": 3}' "$OK")"
	local t0=$EPOCHREALTIME took
	KS_LLM_IDLE_S=1 KS_LLM_BACKOFF_S=0.01 run -0 ks-select pop/gen-001
	took=$(since "$t0")
	assert_model_chose
	assert_equal "$(llm_requests)" 2
	awk -v t="$took" 'BEGIN { exit !(t < 2.9) }' || fail "took $took s: the idle limit did not cut"
	run ledger '.failed // "answered"'
	assert_line --index 0 --partial "(the provider may have billed it)"
	assert_line --index 1 answered
}

@test "the connection has TCP keep-alive, so that a quiet one is not dropped by a NAT or proxy" {
	command -v strace >/dev/null || skip "strace is not installed"
	llm_server_start "$(steps "$OK")"
	run -0 strace -f -e trace=setsockopt -o trace.txt ks-select pop/gen-001
	assert_model_chose
	run grep -c 'SO_KEEPALIVE, \[1\]' trace.txt
	assert_output 1
	run grep -c 'TCP_KEEPIDLE, \[30\]' trace.txt
	assert_output 1
}

@test "a stream that ends before the reply is complete is retried, and the cut try is in the ledger" {
	local api
	for api in openai anthropic gemini; do
		rm -rf pop/gen-001 pop/llm-cache pop/llm-usage.jsonl
		llm_server_start "$(steps '{"content": "'"$PICK"'", "stream_cut": true}' "$OK")"
		KS_LLM_PROVIDER=$api KS_LLM_BACKOFF_S=0.01 run -0 ks-select pop/gen-001
		assert_model_chose
		assert_equal "$(llm_requests)" 2
		run ledger '.failed // "answered"'
		assert_output $'HTTP 200 with a stream that ended before the reply was complete (the provider may have billed it)\nanswered'
	done
}

@test "kernel-scientist(7)'s settings for thinking models, run literally, each against the fixture in the mode that imitates it" {
	local line model
	for model in o3 claude-sonnet-4-5 gemini-2.5-pro Qwen/QwQ-32B; do
		# a line of a literal block of the page, as a reader copies it
		line=$(grep -E "^export .*KS_MODEL=$model " "$KS_ROOT/man/kernel-scientist.7") ||
			fail "kernel-scientist(7): no settings for $model"
		[ "$(wc -l <<<"$line")" -eq 1 ] || fail "kernel-scientist(7): more than one line of settings for $model: $line"
		rm -rf pop/gen-001 pop/llm-cache
		# the model thinks (in the form each API gives); the local server's context is 16600 tokens
		local context=
		[ "$model" = Qwen/QwQ-32B ] && context=', "context": 16600'
		llm_server_start "$(steps '{"content": "<think>maybe {\"base\": \"g000c1\"}</think>'"$PICK"'", "thinking": "{\"base\": \"g000c1\"}"'"$context"'}')"
		(
			unset KS_LLM_PROVIDER KS_LLM_URL KS_MODEL
			eval "$line"
			# the service, at the fixture, with the fixture's key
			export KS_LLM_URL=$LLM_URL KS_LLM_API_KEY=test-key-123
			ks-select pop/gen-001
		) || fail "$model: ks-select failed"
		assert_model_chose
		# no refused parameter, no empty turn: one request (two for the local model, whose reply limit is cut to fit)
		if [ "$model" = Qwen/QwQ-32B ]; then
			assert_equal "$(llm_requests)" 2
		else
			assert_equal "$(llm_requests)" 1
		fi
	done
}

# ---- configuration --------------------------------------------------

@test "KS_LLM_TEMPERATURE and KS_LLM_MAX_TOKENS go into the request body (OpenAI and Anthropic)" {
	llm_server_start "$(steps "$OK")"
	KS_LLM_TEMPERATURE=0.7 KS_LLM_MAX_TOKENS=1234 run -0 ks-select pop/gen-001
	rm pop/gen-001/select.json
	KS_LLM_PROVIDER=anthropic KS_LLM_TEMPERATURE=0 KS_LLM_MAX_TOKENS=99 run -0 ks-select pop/gen-001
	assert_model_chose
	run llm_log '[.path, .body.temperature, .body.max_tokens]'
	assert_output - <<'EOF'
["/v1/chat/completions",0.7,1234]
["/v1/messages",0,99]
EOF
}

@test "KS_LLM_URL falls back to OPENAI_BASE_URL, the key to OPENAI_API_KEY; openai is the default provider" {
	llm_server_start "$(steps "$OK")"
	unset KS_LLM_URL KS_LLM_API_KEY KS_LLM_PROVIDER
	OPENAI_BASE_URL=$LLM_URL/ OPENAI_API_KEY=test-key-123 run -0 ks-select pop/gen-001
	assert_model_chose
	run llm_request 1 .path .auth .auth_header
	assert_output $'/v1/chat/completions\nok\nauthorization'
	# KS_LLM_URL and KS_LLM_API_KEY win over them
	rm pop/gen-001/select.json
	KS_LLM_URL=$LLM_URL KS_LLM_API_KEY=test-key-123 OPENAI_BASE_URL=http://127.0.0.1:9/nowhere \
		OPENAI_API_KEY=wrong-key KS_LLM_CACHE=off run -0 ks-select pop/gen-001
	run llm_request 2 .path .auth
	assert_output $'/v1/chat/completions\nok'
}

@test "the key falls back to ANTHROPIC_API_KEY or GEMINI_API_KEY by provider, for the provider's own host" {
	llm_server_start "$(steps "$OK")"
	unset KS_LLM_API_KEY
	export OPENAI_API_KEY=wrong-openai-key
	# the providers' own hosts, reached at the fixture (as curl --resolve)
	KS_LLM_URL=http://api.anthropic.com:$LLM_PORT/v1 KS_LLM_RESOLVE=api.anthropic.com:$LLM_PORT:127.0.0.1 \
		KS_LLM_PROVIDER=anthropic ANTHROPIC_API_KEY=test-key-123 GEMINI_API_KEY=wrong run -0 ks-select pop/gen-001
	rm pop/gen-001/select.json
	KS_LLM_URL=http://generativelanguage.googleapis.com:$LLM_PORT/v1 \
		KS_LLM_RESOLVE=generativelanguage.googleapis.com:$LLM_PORT:127.0.0.1 \
		KS_LLM_PROVIDER=gemini GEMINI_API_KEY=test-key-123 ANTHROPIC_API_KEY=wrong run -0 ks-select pop/gen-001
	assert_model_chose
	run llm_log '[.path, .auth_header, .auth]'
	assert_output - <<'EOF'
["/v1/messages","x-api-key","ok"]
["/v1/models/fixture:streamGenerateContent?alt=sse","x-goog-api-key","ok"]
EOF
}

@test "a server of KS_LLM_URL never gets OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY: only KS_LLM_API_KEY" {
	# (before: with only KS_LLM_URL set, OPENAI_API_KEY went to it as a bearer token)
	LLM_SERVER_EXPECT_KEY= llm_server_start "$(steps "$OK")"
	unset KS_LLM_API_KEY
	OPENAI_API_KEY=sk-openai-secret KS_QUIET=0 run -0 --separate-stderr ks-select pop/gen-001
	assert_equal "$stderr" "ks-select: OPENAI_API_KEY is not sent to '$LLM_URL', which is not api.openai.com (openai): set KS_LLM_API_KEY for that server"
	rm pop/gen-001/select.json
	KS_LLM_PROVIDER=anthropic ANTHROPIC_API_KEY=sk-ant-secret run -0 ks-select pop/gen-001
	rm pop/gen-001/select.json
	KS_LLM_PROVIDER=gemini GEMINI_API_KEY=AIza-secret run -0 ks-select pop/gen-001
	run llm_log .auth
	assert_output $'missing\nmissing\nmissing'
	# KS_LLM_API_KEY is the key for such a server
	rm pop/gen-001/select.json
	KS_LLM_API_KEY=local-key OPENAI_API_KEY=sk-openai-secret KS_LLM_CACHE=off run -0 ks-select pop/gen-001
	assert_equal "$(llm_request 4 .auth)" present
	run -1 grep -c -e secret llm-log.jsonl
}

@test "a provider's error that echoes the key is printed with the key redacted; the transcript holds no key" {
	# (before: OpenAI's 401 message was printed as it came)
	local key=sk-proj-abcdefghij0123456789wxyz
	llm_server_start '{"*": [{"echo_key": true}]}'
	KS_LLM_API_KEY=$key run -1 ks-select pop/gen-001
	assert_output "ks-select: LLM request to '$LLM_URL/chat/completions' failed: HTTP 401: Incorrect API key provided: [redacted] You can find your API key at https://platform.openai.com/account/api-keys."
	# OpenAI's own masked form too
	llm_server_start '{"*": [{}]}'
	KS_LLM_API_KEY=$key run -1 ks-select pop/gen-001
	assert_output --partial "HTTP 401: Incorrect API key provided: [redacted] You can find"
	refute_output --partial wxyz
	run -1 grep -rl -e abcdefghij -e wxyz pop
}

@test "an OpenAI reasoning model refuses max_tokens and temperature: asked again with max_completion_tokens, without temperature" {
	# (before: the 400 unsupported_parameter ended the stage)
	llm_server_start "$(steps "$OK")"
	KS_MODEL=o3-mini KS_LLM_TEMPERATURE=0.7 KS_QUIET=0 run -0 --separate-stderr ks-select pop/gen-001
	assert_model_chose
	run llm_log '[.body | has("max_tokens"), has("max_completion_tokens"), has("temperature")]'
	assert_output - <<'EOF'
[true,false,true]
[false,true,true]
[false,true,false]
EOF
	[[ $stderr == *"retrying with max_completion_tokens instead of max_tokens"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"retrying without temperature, which the model does not take"* ]] || fail "stderr: $stderr"
	# the transcript is of the request that was answered
	run jf pop/gen-001/llm/select-1.json '.request | has("max_completion_tokens"), has("temperature")'
	assert_output $'true\nfalse'
	# set as kernel-scientist(7) says, nothing is refused
	rm -r pop/gen-001 pop/llm-cache
	KS_MODEL=gpt-5 KS_LLM_MAX_TOKENS_PARAM=max_completion_tokens run -0 ks-select pop/gen-001
	assert_equal "$(llm_requests)" 4
}

@test "what a reasoning model refused is remembered for the run: a later stage process asks so from its first request" {
	# (before: each stage process learnt it again, a refused request or two per process: 10 in a generation)
	llm_server_start "$(steps "$OK")"
	export KS_MODEL=o3-mini KS_LLM_TEMPERATURE=0.7
	run -0 ks-select pop/gen-001
	assert_equal "$(llm_requests)" 3
	# another process of the run (the cache off: a request goes out) asks so at once: one request, not refused
	rm pop/gen-001/select.json
	KS_LLM_CACHE=off run -0 ks-select pop/gen-001
	assert_model_chose
	assert_equal "$(llm_requests)" 4
	run llm_request 4 '.body | has("max_tokens"), has("max_completion_tokens"), has("temperature")'
	assert_output $'false\ntrue\nfalse'
	# remembered by provider, URL and model; no key, no user or password of the URL
	run jq -c . pop/llm-adapt.json
	assert_output '{"models":[{"provider":"openai","url":"'"$LLM_URL"'","model":"o3-mini","tokens_param":"max_completion_tokens","dropped":["temperature"]}]}'
	# the request it remembers is the one the cache holds: made again, nothing is sent
	rm -r pop/gen-001/select.json pop/gen-001/llm
	run -0 ks-select pop/gen-001
	assert_model_chose
	assert_equal "$(llm_requests)" 4
	# the URL with a user and a password names the same server: the same entry, and the password is not in it
	rm pop/gen-001/select.json
	KS_LLM_URL="http://someone:pw-Zq7secret@127.0.0.1:$LLM_PORT/v1" KS_LLM_CACHE=off run -0 ks-select pop/gen-001
	assert_equal "$(llm_requests)" 5
	run grep -c -e pw-Zq7secret -e someone pop/llm-adapt.json
	assert_output 0
	# nor anywhere else in the population: transcripts and logs name the URL without them
	run grep -rl -e pw-Zq7secret pop
	assert_output ""
	run grep -rh -o 'http://[^ "]*127.0.0.1' pop/gen-001/llm
	refute_output --partial someone
	# another model on the same server is asked as before: the entry is o3-mini's alone
	rm pop/gen-001/select.json
	KS_MODEL=gpt-4.1 run -0 ks-select pop/gen-001
	assert_equal "$(llm_requests)" 6
	run llm_request 6 '.body | has("max_tokens"), has("temperature")'
	assert_output $'true\ntrue'
	assert_equal "$(jq -c '[.models[].model]' pop/llm-adapt.json)" '["o3-mini"]'
	# a file that does not parse is named, and nothing is asked
	echo '{"models": [' >pop/llm-adapt.json
	rm pop/gen-001/select.json
	run -1 ks-select pop/gen-001
	assert_output "ks-select: 'pop/llm-adapt.json' is not valid JSON (line 2, column 1)"
	assert_equal "$(llm_requests)" 6
	run grep -rl test-key-123 pop
	assert_output ""
}

@test "KS_LLM_EXTRA_BODY and KS_<STAGE>_EXTRA_BODY are merged into every request; a bad one is named" {
	llm_server_start "$(steps "$OK")"
	KS_LLM_EXTRA_BODY='{"reasoning_effort": "high", "top_p": 0.9}' KS_SELECT_EXTRA_BODY='{"top_p": 0.5}' \
		run -0 ks-select pop/gen-001
	run llm_request 1 .body.reasoning_effort .body.top_p
	assert_output $'high\n0.5'
	# into Gemini's generationConfig, beside what the tool sets
	rm -r pop/gen-001
	KS_LLM_PROVIDER=gemini KS_LLM_EXTRA_BODY='{"generationConfig": {"thinkingConfig": {"thinkingBudget": 1024}}}' \
		run -0 ks-select pop/gen-001
	run llm_request 2 .body.generationConfig
	assert_output '{"maxOutputTokens":16384,"thinkingConfig":{"thinkingBudget":1024}}'
	rm -r pop/gen-001
	KS_LLM_EXTRA_BODY='[1]' run -1 ks-select pop/gen-001
	assert_output "ks-select: KS_LLM_EXTRA_BODY must be a JSON object, e.g. '{\"reasoning_effort\": \"high\"}', not '[1]'"
	KS_SELECT_EXTRA_BODY='{bad' run -1 ks-select pop/gen-001
	assert_output --partial "KS_SELECT_EXTRA_BODY must be a JSON object"
	assert_equal "$(llm_requests)" 2
}

@test "KS_SELECT_MODEL overrides KS_MODEL for the select stage only" {
	llm_server_start '{"sel-model": ['"$OK"'], "*": [{"status": 404, "message": "wrong model"}]}'
	KS_SELECT_MODEL=sel-model KS_HYPOTHESIZE_MODEL=hyp-model KS_IMPLEMENT_MODEL=imp-model run -0 ks-select pop/gen-001
	assert_model_chose
	assert_equal "$(jget pop/gen-001/select.json .model)" sel-model
	assert_equal "$(llm_request 1 .body.model)" sel-model
	# the other stages' overrides do not touch select: KS_MODEL it is
	rm pop/gen-001/select.json
	KS_HYPOTHESIZE_MODEL=sel-model run -1 ks-select pop/gen-001
	assert_output "ks-select: LLM request to '$LLM_URL/chat/completions' failed: HTTP 404: wrong model"
	assert_equal "$(llm_request 2 .body.model)" fixture
}

@test "a bad setting is named in one line, exit 1, no request and no select.json" {
	llm_server_start "$(steps "$OK")"
	local -a cases=(
		"KS_LLM_TRIES=abc|KS_LLM_TRIES must be an integer from 1 to 100, not 'abc'"
		"KS_LLM_TRIES=0|KS_LLM_TRIES must be an integer from 1 to 100, not '0'"
		"KS_LLM_TRIES=2.5|KS_LLM_TRIES must be an integer from 1 to 100, not '2.5'"
		"KS_LLM_TIMEOUT_S=-1|KS_LLM_TIMEOUT_S must be a number from 0.001 to 86400, not '-1'"
		"KS_LLM_BACKOFF_S=soon|KS_LLM_BACKOFF_S must be a number from 0 to 3600, not 'soon'"
		"KS_LLM_RETRY_MAX_S=1e9|KS_LLM_RETRY_MAX_S must be a number from 0 to 3600, not '1e9'"
		"KS_LLM_OUTAGE_S=15m|KS_LLM_OUTAGE_S must be a number from 0 to 86400, not '15m'"
		"KS_LLM_MAX_TOKENS=0|KS_LLM_MAX_TOKENS must be an integer from 1 to 10000000, not '0'"
		"KS_LLM_TEMPERATURE=3|KS_LLM_TEMPERATURE must be a number from 0 to 2, not '3'"
		"KS_MAX_TOKENS=lots|KS_MAX_TOKENS must be an integer from 0 to 1000000000000, not 'lots'"
		"KS_LLM_CACHE=maybe|KS_LLM_CACHE must be on or off, not 'maybe'"
		"KS_LLM_STREAM=yes|KS_LLM_STREAM must be on or off, not 'yes'"
		"KS_LLM_IDLE_S=0|KS_LLM_IDLE_S must be a number from 0.001 to 86400, not '0'"
		"KS_LLM_MAX_TOKENS_PARAM=max tokens|KS_LLM_MAX_TOKENS_PARAM must be a field name such as max_completion_tokens, not 'max tokens'"
		"KS_LLM_PROVIDER=foo|KS_LLM_PROVIDER must be openai, anthropic, gemini or offline, not 'foo'"
		"KS_MODEL=|no model for the select stage: set KS_MODEL (or KS_SELECT_MODEL)"
	)
	local c
	for c in "${cases[@]}"; do
		run -1 env "${c%%|*}" ks-select pop/gen-001
		assert_output "ks-select: ${c#*|}"
		assert_file_not_exists pop/gen-001/select.json
	done
	assert_equal "$(llm_requests)" 0
}

# ---- retries --------------------------------------------------------

@test "408, 409, 429, 500, 502, 503, 529 and a dropped connection are retried" {
	local -a fails=('{"status": 408}' '{"status": 409}' '{"status": 429}' '{"status": 500}'
		'{"status": 502}' '{"status": 503}' '{"status": 529}' '{"hang_up": true}')
	local -a script=() f
	for f in "${fails[@]}"; do
		script+=("$f" "$OK")
	done
	# each run takes a failure, then the reply
	llm_server_start "$(steps "${script[@]}")"
	export KS_LLM_CACHE=off
	for f in "${fails[@]}"; do
		rm -f pop/gen-001/select.json
		run -0 ks-select pop/gen-001
		assert_output ""
		grep -qxF $'\t"base":\t"g000c0",' pop/gen-001/select.json || fail "$f: the reply did not decide"
		grep -qxF $'\t"tries":\t2,' pop/gen-001/llm/select-1.json || fail "$f: not 2 tries"
	done
	assert_model_chose
	assert_equal "$(llm_requests)" 16
	assert_equal "$(llm_log .step | tr '\n' ' ')" "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 "
}

@test "Retry-After: 1 waits a second and up to a quarter more (jitter); KS_LLM_RETRY_MAX_S clamps it" {
	llm_server_start "$(steps '{"status": 429, "message": "slow down", "headers": {"Retry-After": "1"}}' "$OK")"
	local t0=$EPOCHREALTIME
	KS_QUIET=0 run -0 ks-select pop/gen-001
	local took
	took=$(since "$t0")
	assert_output --regexp "^ks-select: HTTP 429: slow down \(try 1 of 5\); retrying in 1\.[0-2] s$"
	assert_model_chose
	awk -v t="$took" 'BEGIN { exit !(t >= 0.9) }' || fail "took $took s, not about 1 s"
	# a long Retry-After is cut to KS_LLM_RETRY_MAX_S (the cache would answer)
	rm -r pop/gen-001 pop/llm-cache
	llm_server_script "$(steps '{"status": 503, "headers": {"Retry-After": "30"}}' "$OK")"
	t0=$EPOCHREALTIME
	KS_QUIET=0 KS_LLM_RETRY_MAX_S=0.1 run -0 ks-select pop/gen-001
	took=$(since "$t0")
	assert_output "ks-select: HTTP 503: scripted error 503 (try 1 of 5); retrying in 0.1 s"
	assert_model_chose
	awk -v t="$took" 'BEGIN { exit !(t < 1.5) }' || fail "took $took s despite KS_LLM_RETRY_MAX_S=0.1"
	assert_equal "$(llm_requests)" 4
}

@test "retry-after-ms wins over Retry-After; x-should-retry says whether to retry, whatever the status" {
	# (before: retry-after-ms and x-should-retry were not read)
	llm_server_start "$(steps '{"status": 429, "message": "slow", "headers": {"retry-after-ms": "200", "Retry-After": "30"}}' "$OK")"
	local t0=$EPOCHREALTIME took
	KS_QUIET=0 run -0 ks-select pop/gen-001
	took=$(since "$t0")
	assert_output --regexp "retrying in 0\.2 s$"
	awk -v t="$took" 'BEGIN { exit !(t < 5) }' || fail "took $took s: Retry-After won"
	# a 503 the server says not to retry, a 400 it says to retry
	rm -r pop/gen-001 pop/llm-cache
	llm_server_start "$(steps '{"status": 503, "message": "gone for good", "headers": {"x-should-retry": "false"}}')"
	run -1 ks-select pop/gen-001
	assert_output "ks-select: LLM request to '$LLM_URL/chat/completions' failed: HTTP 503: gone for good"
	assert_equal "$(llm_requests)" 1
	llm_server_start "$(steps '{"status": 400, "message": "try me again", "headers": {"x-should-retry": "true"}}' "$OK")"
	KS_LLM_BACKOFF_S=0.01 run -0 ks-select pop/gen-001
	assert_model_chose
	assert_equal "$(llm_requests)" 2
}

@test "a prompt and reply limit over a local model's context: asked again once with a reply limit that fits (vLLM, llama.cpp)" {
	# (before: the 400 ended the stage)
	local shape words
	for shape in vllm llamacpp; do
		rm -rf pop/gen-001 pop/llm-cache
		# the prompt is some 600 words: with a reply of 16384 it exceeds 16600
		llm_server_start "$(steps '{"content": "'"$PICK"'", "context": 16600, "error_shape": "'$shape'"}')"
		KS_QUIET=0 run -0 --separate-stderr ks-select pop/gen-001
		assert_model_chose
		assert_equal "$(llm_requests)" 2
		words=$(llm_request 1 '[.body.messages[].content] | join(" ") | [splits("\\s+")] | map(select(. != "")) | length')
		# the largest reply that fits, less a margin of 64
		assert_equal "$(llm_request 2 .body.max_tokens)" $((16600 - words - 64))
		[[ $stderr == *"exceed the model's context: asking again with a reply limit of "* ]] || fail "stderr: $stderr"
	done
	# a prompt that does not fit at all is an error that says so
	rm -rf pop/gen-001 pop/llm-cache
	llm_server_start "$(steps '{"context": 100}')"
	run -1 ks-select pop/gen-001
	assert_output --partial "maximum context length is 100 tokens"
	assert_equal "$(llm_requests)" 1
}

@test "Retry-After as an HTTP date is honoured (clamped by KS_LLM_RETRY_MAX_S)" {
	# an hour ahead, clamped to 1 s: a date not understood would wait 0.01 s
	local date
	date=$(LC_ALL=C date -u -d '+1 hour' '+%a, %d %b %Y %H:%M:%S GMT')
	llm_server_start "$(steps '{"status": 503, "headers": {"Retry-After": "'"$date"'"}}' "$OK")"
	local t0=$EPOCHREALTIME took
	KS_QUIET=0 KS_LLM_RETRY_MAX_S=1 run -0 ks-select pop/gen-001
	took=$(since "$t0")
	assert_output "ks-select: HTTP 503: scripted error 503 (try 1 of 5); retrying in 1.0 s"
	assert_model_chose
	awk -v t="$took" 'BEGIN { exit !(t >= 0.9) }' || fail "took $took s, not about 1 s"
}

@test "after KS_LLM_TRIES tries: one line with the URL, the last status and the message (OpenAI shape)" {
	llm_server_start "$(steps '{"status": 500, "message": "first"}' '{"status": 503, "message": "the model is overloaded"}')"
	KS_LLM_TRIES=3 run -1 ks-select pop/gen-001
	assert_output "ks-select: LLM request to '$LLM_URL/chat/completions' failed after 3 tries: HTTP 503: the model is overloaded"
	assert_equal "$(llm_requests)" 3
	assert_file_not_exists pop/gen-001/select.json
}

@test "the message is read from Anthropic's, vLLM's and Gemini's error shapes too" {
	llm_server_start "$(steps '{"status": 529, "message": "Overloaded"}')"
	KS_LLM_PROVIDER=anthropic KS_LLM_TRIES=2 run -1 ks-select pop/gen-001
	assert_output "ks-select: LLM request to '$LLM_URL/messages' failed after 2 tries: HTTP 529: Overloaded"
	llm_server_script "$(steps '{"status": 400, "error_shape": "vllm", "message": "This model'"'"'s maximum context length is 4096 tokens"}')"
	run -1 ks-select pop/gen-001
	assert_output "ks-select: LLM request to '$LLM_URL/chat/completions' failed: HTTP 400: This model's maximum context length is 4096 tokens"
	llm_server_script "$(steps '{"status": 503, "message": "The model is overloaded. Please try again later."}')"
	KS_LLM_PROVIDER=gemini KS_LLM_TRIES=1 run -1 ks-select pop/gen-001
	assert_output "ks-select: LLM request to '$LLM_URL/models/fixture:streamGenerateContent?alt=sse' failed: HTTP 503: The model is overloaded. Please try again later."
	# an error body that is not JSON (a proxy's page) is quoted as it came
	llm_server_script "$(steps '{"status": 502, "body": "<html>Bad Gateway</html>"}')"
	KS_LLM_TRIES=1 run -1 ks-select pop/gen-001
	assert_output "ks-select: LLM request to '$LLM_URL/chat/completions' failed: HTTP 502: <html>Bad Gateway</html>"
	assert_equal "$(llm_requests)" 5
	assert_file_not_exists pop/gen-001/select.json
}

@test "400 and 401 are not retried" {
	llm_server_start "$(steps '{"status": 401, "message": "Incorrect API key provided"}' "$OK")"
	run -1 ks-select pop/gen-001
	assert_output "ks-select: LLM request to '$LLM_URL/chat/completions' failed: HTTP 401: Incorrect API key provided"
	assert_equal "$(llm_requests)" 1
	llm_server_script "$(steps '{"status": 400, "message": "bad request"}' "$OK")"
	run -1 ks-select pop/gen-001
	assert_output "ks-select: LLM request to '$LLM_URL/chat/completions' failed: HTTP 400: bad request"
	assert_equal "$(llm_requests)" 2
	assert_file_not_exists pop/gen-001/select.json
}

@test "a dropped connection every time: the curl error after the last try" {
	llm_server_start "$(steps '{"hang_up": true}')"
	KS_LLM_TRIES=2 run -1 ks-select pop/gen-001
	assert_output "ks-select: LLM request to '$LLM_URL/chat/completions' failed after 2 tries: Empty reply from server"
	assert_equal "$(llm_requests)" 2
	assert_file_not_exists pop/gen-001/select.json
}

@test "a refused connection is retried, then named" {
	KS_LLM_PROVIDER=openai KS_MODEL=fixture KS_LLM_URL=http://127.0.0.1:1/v1 KS_QUIET=0 KS_LLM_TRIES=2 \
		run -1 ks-select pop/gen-001
	assert_line --index 0 --regexp "^ks-select: Failed to connect to 127\.0\.0\.1 port 1 .* \(try 1 of 2\); retrying in 0\.0 s$"
	assert_line --index 1 --regexp "^ks-select: LLM request to 'http://127\.0\.0\.1:1/v1/chat/completions' failed after 2 tries: Failed to connect to 127\.0\.0\.1 port 1 "
	assert_equal "${#lines[@]}" 2
	assert_file_not_exists pop/gen-001/select.json
}

@test "an outage is ridden out past KS_LLM_TRIES for KS_LLM_OUTAGE_S: refused connections, then the server back" {
	# (before: 'failed after 5 tries: Couldn't connect to server' after some 20 s, and the night's run stopped)
	llm_server_start "$(steps "$OK")"
	local port=$LLM_PORT t0=$EPOCHREALTIME took
	llm_server_stop
	# the server comes back on the same port after about 2 s, past the 2 tries
	(sleep 2 && LLM_SERVER_PORT=$port llm_server_start "$(steps "$OK")" && wait "$LLM_SERVER_PID") 3>&- &
	local back=$!
	KS_QUIET=0 KS_LLM_TRIES=2 KS_LLM_BACKOFF_S=0.2 KS_LLM_RETRY_MAX_S=0.4 KS_LLM_OUTAGE_S=60 \
		run -0 --separate-stderr ks-select pop/gen-001
	took=$(since "$t0")
	kill "$back" 2>/dev/null || true
	pkill -f -- "--port $port" || true
	# a progress line per wait: the first by the count of tries, the later ones in the outage's window
	assert_regex "${stderr_lines[0]}" "^ks-select: Failed to connect to 127\.0\.0\.1 port $port .* \(try 1 of 2\); retrying in 0\.[12] s$"
	assert_regex "${stderr_lines[1]}" "^ks-select: Failed to connect to 127\.0\.0\.1 port $port .* \(try 2, [0-9.]+ s into an outage, ridden out for 1m00s: KS_LLM_OUTAGE_S\); retrying in 0\.[1-4] s$"
	assert_model_chose
	# the refused tries reached no server: nothing billed, nothing in the ledger but the call that worked
	run jq -s 'length' pop/llm-usage.jsonl
	assert_output 1
	awk -v t="$took" 'BEGIN { exit !(t >= 1.5 && t < 30) }' || fail "took $took s"
}

@test "an outage longer than KS_LLM_OUTAGE_S (5xx, 529) stops the stage with one line that says to rerun" {
	llm_server_start "$(steps '{"status": 529, "message": "Overloaded"}')"
	local t0=$EPOCHREALTIME took
	KS_QUIET=0 KS_LLM_PROVIDER=anthropic KS_LLM_TRIES=2 KS_LLM_BACKOFF_S=0.1 KS_LLM_RETRY_MAX_S=0.2 KS_LLM_OUTAGE_S=1 \
		run -1 --separate-stderr ks-select pop/gen-001
	took=$(since "$t0")
	assert_regex "${stderr_lines[-1]}" "^ks-select: LLM request to '$LLM_URL/messages' failed after [0-9]+ tries over 1\.[0-9] s \(KS_LLM_OUTAGE_S\): HTTP 529: Overloaded; rerun the same command to resume once the provider is back$"
	assert_regex "${stderr_lines[2]}" "^ks-select: HTTP 529: Overloaded \(try 3, [0-9.]+ s into an outage, ridden out for 1\.0 s: KS_LLM_OUTAGE_S\); retrying in 0\.[0-2] s$"
	# no wait runs past the window's end (a last try there): about a second in all
	awk -v t="$took" 'BEGIN { exit !(t >= 1 && t < 10) }' || fail "took $took s"
	assert_file_not_exists pop/gen-001/select.json
	# a 429 is the server's answer to this request, not an outage: KS_LLM_TRIES alone
	llm_server_script "$(steps '{"status": 429, "message": "Rate limit reached"}')"
	KS_LLM_TRIES=2 KS_LLM_BACKOFF_S=0.1 KS_LLM_OUTAGE_S=60 run -1 ks-select pop/gen-001
	assert_output "ks-select: LLM request to '$LLM_URL/chat/completions' failed after 2 tries: HTTP 429: Rate limit reached"
}

@test "the backoff doubles from KS_LLM_BACKOFF_S, with jitter, up to KS_LLM_RETRY_MAX_S" {
	llm_server_start "$(steps '{"status": 500, "message": "oops"}')"
	# waits of 0.1-0.2 s, 0.2-0.4 s, then at most 0.3 s (0.8 cut to 0.3, with jitter)
	KS_QUIET=0 KS_LLM_BACKOFF_S=0.2 KS_LLM_RETRY_MAX_S=0.3 KS_LLM_TRIES=4 run -1 ks-select pop/gen-001
	assert_line --index 0 --regexp '^ks-select: HTTP 500: oops \(try 1 of 4\); retrying in 0\.[12] s$'
	assert_line --index 1 --regexp '^ks-select: HTTP 500: oops \(try 2 of 4\); retrying in 0\.[234] s$'
	assert_line --index 2 --regexp '^ks-select: HTTP 500: oops \(try 3 of 4\); retrying in 0\.[123] s$'
	assert_line --index 3 "ks-select: LLM request to '$LLM_URL/chat/completions' failed after 4 tries: HTTP 500: oops"
	assert_equal "${#lines[@]}" 4
	assert_equal "$(llm_requests)" 4
}

@test "KS_LLM_TIMEOUT_S: a slow reply is given up and retried, then given up for good" {
	llm_server_start "$(steps '{"delay_s": 3}' "$OK")"
	local t0=$EPOCHREALTIME took
	KS_LLM_TIMEOUT_S=0.3 run -0 ks-select pop/gen-001
	took=$(since "$t0")
	assert_output ""
	assert_model_chose
	assert_equal "$(llm_requests)" 2
	awk -v t="$took" 'BEGIN { exit !(t < 2) }' || fail "took $took s: the timeout did not cut the request"
	rm -r pop/gen-001 pop/llm-cache
	llm_server_script "$(steps '{"delay_s": 3, "content": "late"}')"
	KS_LLM_TIMEOUT_S=0.2 KS_LLM_TRIES=2 run -1 ks-select pop/gen-001
	assert_output --regexp "^ks-select: LLM request to '$LLM_URL/chat/completions' failed after 2 tries: Operation timed out after [0-9]+ milliseconds with 0 bytes received$"
	assert_equal "$(llm_requests)" 4
	assert_file_not_exists pop/gen-001/select.json
}

# ---- replies that cannot be used as they are -----------------------

@test "a reply cut off at the token limit is not used: select asks again, one turn, shorter, with twice the limit" {
	# the cut-off reply names other kernels; had it been parsed it would decide
	llm_server_start "$(steps '{"content": "{\"base\": \"g000c1\", \"reference\": \"g000c1\", \"reason\": \"cut\"}", "finish": "length"}' "$OK")"
	run -0 ks-select pop/gen-001
	assert_output ""
	assert_model_chose
	assert_equal "$(llm_requests)" 2
	# (before: [system, user, assistant "the cut-off reply", user])
	run llm_request 2 '[.body.messages[].role]' .body.max_tokens \
		'.body.messages[1].content | endswith("Your previous reply to this was cut off at the token limit, so it could not be used. Reply again, complete and shorter: the code or JSON asked for, with no long explanation.")'
	assert_output - <<'EOF'
["system","user"]
32768
true
EOF
	local first second
	first=$(llm_request 1 '.body.messages[1].content')
	second=$(llm_request 2 '.body.messages[1].content')
	[[ $second == "$first"* ]] || fail "the re-ask does not hold the prompt"
	run -0 jf pop/gen-001/llm/select-1.json .truncated
	assert_output true
	run -0 grep '^# reply' pop/gen-001/llm/select-1.md
	assert_output "# reply (fixture, cut off at the token limit)"
}

@test "Anthropic and Gemini: an empty reply is asked again without an empty assistant turn, which they refuse" {
	# (before: [user, assistant "", user], a 400 that is not retried, and the stage died)
	local api
	for api in anthropic gemini; do
		rm -rf pop/gen-001 pop/llm-cache
		llm_server_start "$(steps '{"content": ""}' "$OK")"
		KS_LLM_PROVIDER=$api run -0 ks-select pop/gen-001
		assert_model_chose
		assert_equal "$(llm_requests)" 2
		if [ $api = anthropic ]; then
			run llm_request 2 '[.body.messages[].role]' '.body.messages[0].content | endswith("Your previous reply to this was empty. Reply in the format asked for.")'
		else
			run llm_request 2 '[.body.contents[].role]' '.body.contents[0].parts[0].text | endswith("Your previous reply to this was empty. Reply in the format asked for.")'
		fi
		assert_output $'["user"]\ntrue'
	done
}

@test "an error on the re-ask makes the replies unusable: select falls back to the offline rule" {
	# the second request refused (a 400 is not retried): before, the stage exited 1
	llm_server_start "$(steps '{"content": "no JSON here"}' '{"status": 400, "message": "messages.1: all messages must have non-empty content"}')"
	run -0 --separate-stderr ks-select pop/gen-001
	run -0 jf pop/gen-001/select.json .fallback .base
	assert_line --index 0 "the model's replies could not be used (the second request failed: HTTP 400: messages.1: all messages must have non-empty content): the offline rule chose"
	assert_line --index 1 g000c1
}

@test "reasoning in the content (<think>, as vLLM without a reasoning parser gives it) is not read as the answer" {
	# (before: the braces in the thinking made the JSON unreadable, and the stage asked again)
	local think
	think='<think>Should the base be {\"base\": \"g000c1\"}? No: {the seed} has headroom.</think>'
	llm_server_start "$(steps '{"content": "'"$think"'\n\n'"$PICK"'"}')"
	run -0 ks-select pop/gen-001
	assert_model_chose
	assert_equal "$(llm_requests)" 1
	# a closing tag alone: the chat template opened the thinking in the prompt (DeepSeek-R1)
	rm -r pop/gen-001 pop/llm-cache
	llm_server_start "$(steps '{"content": "the base could be {\"base\": \"g000c1\"}...</think>'"$PICK"'"}')"
	run -0 ks-select pop/gen-001
	assert_model_chose
	assert_equal "$(llm_requests)" 1
}

@test "Anthropic thinking blocks and Gemini thought parts are the model's reasoning: only the answer is read" {
	# (before: Gemini's thought summary was read with the answer, and the stage asked again)
	local api
	for api in anthropic gemini openai; do
		rm -rf pop/gen-001 pop/llm-cache
		llm_server_start "$(steps '{"content": "'"$PICK"'", "thinking": "{\"base\": \"g000c1\", \"reference\": \"g000c1\", \"reason\": \"draft\"}"}')"
		KS_LLM_PROVIDER=$api run -0 ks-select pop/gen-001
		assert_model_chose
		assert_equal "$(llm_requests)" 1
	done
}

@test "a refusal or a block by the provider is named, recorded with its finish reason, and neither retried nor asked again" {
	# (before: Gemini's blocked prompt was "a body that is not a gemini reply", retried five times)
	local apis=(gemini gemini openai openai anthropic) i api step want
	local steps_=('{"block_reason": "SAFETY"}' '{"finish": "RECITATION"}' '{"finish": "content_filter"}'
		'{"refusal": "I cannot help with that."}' '{"finish": "refusal"}')
	local wants=("the provider blocked the prompt (promptFeedback.blockReason SAFETY)"
		"the provider stopped the reply (finishReason RECITATION)"
		"the provider's content filter stopped the reply (finish_reason content_filter)"
		"the model refused: I cannot help with that."
		"the model refused (stop_reason refusal)")
	for i in "${!apis[@]}"; do
		api=${apis[$i]} step=${steps_[$i]} want=${wants[$i]}
		rm -rf pop/gen-001 pop/llm-cache
		llm_server_start "$(steps "$step")"
		KS_LLM_PROVIDER=$api run -0 ks-select pop/gen-001
		assert_equal "$(llm_requests)" 1
		assert_equal "$(jget pop/gen-001/select.json .fallback)" \
			"the model's replies could not be used ($want): the offline rule chose"
		assert_equal "$(jget pop/gen-001/llm/select-1.json .stopped)" "$want"
		[ "$(jget pop/gen-001/llm/select-1.json .finish_reason)" != null ] || fail "no finish_reason recorded"
	done
}

@test "usage: Gemini's thinking tokens are billed, prompt-cache reads recorded apart, failed tries that may be billed in the ledger" {
	# (before: thoughtsTokenCount was not counted, cached tokens not recorded, a timed-out try not written)
	local api
	for api in gemini anthropic openai; do
		rm -rf pop/gen-001 pop/llm-cache pop/llm-usage.jsonl
		llm_server_start "$(steps '{"content": "'"$PICK"'", "usage": {"prompt_tokens": 1000, "completion_tokens": 300, "cached_prompt_tokens": 600, "thoughts_tokens": 250}}')"
		KS_LLM_PROVIDER=$api run -0 ks-select pop/gen-001
		assert_model_chose
		run ledger '[.prompt_tokens, .completion_tokens, .cached_prompt_tokens]'
		assert_output '[1000,300,600]'
		assert_equal "$(jget pop/gen-001/llm/select-1.json .usage)" \
			'{"prompt_tokens":1000,"completion_tokens":300,"cached_prompt_tokens":600}'
	done
	run -0 ks-report -b pop
	assert_line --partial "1 LLM calls (0 from the cache), 1000 prompt (600 of them cached by the provider) and 300 completion tokens billed"
	# a try cut off after the request went out: in the ledger, as maybe billed
	rm -rf pop/gen-001 pop/llm-cache pop/llm-usage.jsonl
	llm_server_start "$(steps '{"hang_up": true}' "$OK")"
	run -0 ks-select pop/gen-001
	assert_model_chose
	run ledger '[.failed != null, .prompt_tokens]'
	assert_output $'[true,0]\n[false,1000]'
	assert_equal "$(head -1 pop/llm-usage.jsonl | jq -r .failed)" "Empty reply from server (the provider may have billed it)"
	run -0 ks-report -b pop
	assert_line --partial "1 LLM tries failed after their request went out: the provider may have billed them"
}

@test "two replies cut off: the offline rule chooses and select.json says why" {
	llm_server_start "$(steps '{"content": "'"$PICK"'", "finish": "length"}')"
	KS_LLM_MAX_TOKENS=50 run -0 ks-select pop/gen-001
	local why="the model's replies could not be used (the reply was cut off at the token limit (100 tokens, twice KS_LLM_MAX_TOKENS=50)): the offline rule chose"
	assert_output "ks-select: 'pop/gen-001': $why"
	assert_equal "$(llm_requests)" 2
	run -0 jf pop/gen-001/select.json .base .reference .fallback .usage.calls
	assert_output $'g000c1\ng000c0\n'"$why"$'\n2'
}

@test "a 200 reply whose body is not JSON is retried, then an error" {
	llm_server_start "$(steps '{"body": "<html>upstream hiccup</html>"}' "$OK")"
	run -0 ks-select pop/gen-001
	assert_output ""
	assert_model_chose
	assert_equal "$(llm_requests)" 2
	rm -r pop/gen-001 pop/llm-cache
	llm_server_script "$(steps '{"body": "<html>upstream hiccup</html>"}')"
	KS_LLM_TRIES=2 run -1 ks-select pop/gen-001
	assert_output "ks-select: LLM request to '$LLM_URL/chat/completions' failed after 2 tries: HTTP 200 with a body that is not JSON: <html>upstream hiccup</html>"
	assert_equal "$(llm_requests)" 4
	assert_file_not_exists pop/gen-001/select.json
}

@test "a 200 reply that is JSON but not a chat completion is retried, then an error" {
	llm_server_start "$(steps '{"body": "{\"object\": \"error\", \"detail\": \"upstream hiccup\"}"}' "$OK")"
	run -0 ks-select pop/gen-001
	assert_output ""
	assert_model_chose
	assert_equal "$(llm_requests)" 2
	rm -r pop/gen-001 pop/llm-cache
	llm_server_script "$(steps '{"body": "{\"choices\": []}"}')"
	KS_LLM_TRIES=2 run -1 ks-select pop/gen-001
	assert_output "ks-select: LLM request to '$LLM_URL/chat/completions' failed after 2 tries: HTTP 200 with a body that is not an openai reply: {\"choices\": []}"
	assert_equal "$(llm_requests)" 4
	assert_file_not_exists pop/gen-001/select.json
}

# ---- usage and the token budget -------------------------------------

@test "the tokens of every call go into select.json and one ledger line per call" {
	llm_server_start "$(steps '{"content": "x", "finish": "length", "usage": {"prompt_tokens": 900, "completion_tokens": 7}}' "$OK")"
	run -0 ks-select pop/gen-001
	assert_model_chose
	assert_equal "$(jget pop/gen-001/select.json .usage)" \
		'{"calls":2,"cached_calls":0,"prompt_tokens":1900,"completion_tokens":27}'
	run ledger '[.stage, .where, .provider, .model, .prompt_tokens, .completion_tokens, .cached]'
	assert_output - <<'EOF'
["select","pop/gen-001","openai","fixture",900,7,false]
["select","pop/gen-001","openai","fixture",1000,20,false]
EOF
	run ledger keys
	assert_line --index 0 '["cached","cached_prompt_tokens","completion_tokens","model","prompt_tokens","provider","stage","time","where"]'
}

@test "KS_MAX_TOKENS: once the ledger's uncached tokens reach it, the next call is refused in one line" {
	llm_server_start "$(steps "$OK")"
	export KS_MAX_TOKENS=1020
	run -0 ks-select pop/gen-001
	assert_model_chose
	# 1000 + 20 tokens used: the budget is reached
	rm pop/gen-001/select.json
	KS_LLM_CACHE=off run -1 ks-select pop/gen-001
	assert_output "ks-select: token budget reached: 1020 tokens used of KS_MAX_TOKENS=1020 (see 'pop/llm-usage.jsonl'); raise KS_MAX_TOKENS to go on"
	assert_file_not_exists pop/gen-001/select.json
	assert_equal "$(llm_requests)" 1
	# an answer from the cache costs nothing and is not refused
	run -0 ks-select pop/gen-001
	assert_model_chose
	assert_equal "$(llm_requests)" 1
	# a higher budget goes on
	rm pop/gen-001/select.json
	KS_MAX_TOKENS=1021 KS_LLM_CACHE=off run -0 ks-select pop/gen-001
	assert_equal "$(llm_requests)" 2
	run ledger .cached
	assert_output $'false\ntrue\nfalse'
}

@test "KS_MAX_TOKENS: a run says when its billed tokens pass 50 % and 80 % of it, once each" {
	# (before: nothing was said until the budget stopped the run)
	llm_server_start "$(steps "$OK")"
	export KS_MAX_TOKENS=3000 KS_LLM_CACHE=off
	local i said=()
	for i in 1 2 3; do
		rm -f pop/gen-001/select.json
		run -0 --separate-stderr ks-select pop/gen-001
		said+=("$stderr")
	done
	# 1020 tokens a call: 34 %, then 68 %, then 102 %
	assert_equal "${said[0]}" ""
	assert_equal "${said[1]}" "ks-select: token budget: 2040 tokens used, past 50 % of KS_MAX_TOKENS=3000 (see 'pop/llm-usage.jsonl')"
	assert_equal "${said[2]}" "ks-select: token budget: 3060 tokens used, past 80 % of KS_MAX_TOKENS=3000 (see 'pop/llm-usage.jsonl')"
}

# ---- the cache ------------------------------------------------------

@test "an identical request is answered from POP/llm-cache; KS_LLM_CACHE=off asks again" {
	llm_server_start "$(steps "$OK")"
	run -0 ks-select pop/gen-001
	cp pop/gen-001/select.json first.json
	run -0 find pop/llm-cache -type f -name '*.json'
	assert_output --regexp '^pop/llm-cache/[0-9a-f]{64}\.json$'
	rm pop/gen-001/select.json
	run -0 ks-select pop/gen-001
	assert_output ""
	assert_model_chose
	assert_equal "$(llm_requests)" 1
	assert_equal "$(jget pop/gen-001/select.json .usage)" \
		'{"calls":1,"cached_calls":1,"prompt_tokens":0,"completion_tokens":0}'
	run ledger '[.prompt_tokens, .completion_tokens, .cached]'
	assert_output $'[1000,20,false]\n[1000,20,true]'
	assert_equal "$(jget pop/gen-001/llm/select-1.json .cached)" true
	grep -qx '# reply (fixture, from the cache)' pop/gen-001/llm/select-1.md ||
		fail "the transcript does not say the reply came from the cache"
	rm pop/gen-001/select.json
	KS_LLM_CACHE=off run -0 ks-select pop/gen-001
	assert_model_chose
	assert_equal "$(llm_requests)" 2
	cmp first.json pop/gen-001/select.json
	# another model is another request
	rm pop/gen-001/select.json
	KS_MODEL=other run -0 ks-select pop/gen-001
	assert_equal "$(llm_requests)" 3
}

# ---- transcripts and the key ----------------------------------------

@test "the transcript holds the prompt and the reply; the key is in no file and no message" {
	LLM_SERVER_EXPECT_KEY=$KEY llm_server_start "$(steps "$OK")"
	export KS_LLM_API_KEY=$KEY
	run -0 ks-select pop/gen-001
	assert_model_chose
	assert_equal "$(llm_request 1 .auth)" ok
	run -0 jq -rc --slurpfile log "$BATS_TEST_TMPDIR/llm-log.jsonl" \
		'keys, (.stage, .provider, .url, .model, .reply, .truncated, .cached, .tries, .usage | tojson),
		 .request == $log[0].body' pop/gen-001/llm/select-1.json
	assert_output - <<EOF
["cached","finish_reason","model","provider","reply","request","stage","tries","truncated","url","usage"]
"select"
"openai"
"$LLM_URL/chat/completions"
"fixture"
"{\"base\": \"g000c0\", \"reference\": \"g000c1\", \"reason\": \"the seed has headroom\"}"
false
false
1
{"prompt_tokens":1000,"completion_tokens":20,"cached_prompt_tokens":0}
true
EOF
	# the markdown: system, user (the rendered select prompt), reply
	run -0 grep -nxE '# (system|user|reply .*)' pop/gen-001/llm/select-1.md
	assert_line --index 0 '1:# system'
	assert_line --index 1 --regexp '^[0-9]+:# user$'
	assert_line --index 2 --regexp '^[0-9]+:# reply \(fixture\)$'
	assert_equal "${#lines[@]}" 3
	grep -qF 'this is generation 1' pop/gen-001/llm/select-1.md || fail "no prompt in the transcript"
	grep -qxF '{"base": "g000c0", "reference": "g000c1", "reason": "the seed has headroom"}' \
		pop/gen-001/llm/select-1.md || fail "no reply in the transcript"
	# the other providers send it in other headers, and keep it nowhere either
	KS_LLM_PROVIDER=anthropic run -0 ks-select pop/gen-002
	KS_LLM_PROVIDER=gemini run -0 ks-select pop/gen-003
	run llm_log '[.path, .auth_header, .auth]'
	assert_output - <<EOF
["/v1/chat/completions","authorization","ok"]
["/v1/messages","x-api-key","ok"]
["/v1/models/fixture:streamGenerateContent?alt=sse","x-goog-api-key","ok"]
EOF
	# a failed run with the same key: not in the message either
	llm_server_script "$(steps '{"status": 401, "message": "Incorrect API key provided"}')"
	rm -r pop/gen-001 pop/llm-cache
	KS_QUIET=0 run -1 ks-select pop/gen-001
	assert_output "ks-select: LLM request to '$LLM_URL/chat/completions' failed: HTTP 401: Incorrect API key provided"
	llm_server_script "$(steps '{"hang_up": true}')"
	KS_QUIET=0 KS_LLM_TRIES=2 run -1 ks-select pop/gen-001
	refute_output --partial "$KEY"
	run grep -rlF "$KEY" pop "$BATS_TEST_TMPDIR/llm-log.jsonl"
	assert_output ""
}
