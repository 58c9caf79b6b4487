#!/usr/bin/env bats
# Several models for one stage: KS_IMPLEMENT_MODEL="a:2,b:1@second" spreads
# a generation's candidates over the models by weight, model b on an
# endpoint of its own (KS_ENDPOINT_SECOND_URL, its own key), and the
# report shows each model's share.  Two fixture servers: the stage's own
# (a, and select's and hypothesize's models) and "second" (b).

bats_require_minimum_version 1.5.0
load helper/common
load helper/llm

setup() {
	cd "$BATS_TEST_TMPDIR"
	sed 's/^#define LOOP_ORDER 0/#define LOOP_ORDER 1/' "$KS_ROOT/kernels/sgemm/seed.c" >code.c
	printf 'The new kernel:\n\n```c\n%s\n```\n' "$(cat code.c)" >code.md
	plans_reply plans.json
	llm_server_start "$(jq -nc --rawfile p plans.json --rawfile code code.md '
		{sel: [{content: "{\"base\": \"g000c0\", \"reference\": \"g000c0\", \"reason\": \"the seed\"}"},
		       {content: "{\"base\": \"g001c0\", \"reference\": \"g000c0\", \"reason\": \"the new line\"}"}],
		 hyp: [{content: $p}], a: [{content: $code}]}')"
	export KS_SELECT_MODEL=sel KS_HYPOTHESIZE_MODEL=hyp KS_IMPLEMENT_MODEL='a:2,b:1@second'
	second_start "$(jq -nc --rawfile code code.md '{b: [{content: $code}]}')"
}

teardown() {
	llm_server_stop
	[ -z "${SECOND_PID:-}" ] || { signal_same TERM "$SECOND_PID" "$SECOND_START"; wait "$SECOND_PID" 2>/dev/null; } || true
}

# second_start SCRIPT: the second server, which takes key-b only, as endpoint "second"
second_start() {
	local i
	printf '%s\n' "$1" >second-script.json
	: >second-log.jsonl
	LLM_SERVER_EXPECT_KEY=key-b python3 "$LLM_SERVER" --script second-script.json --log second-log.jsonl \
		--port-file second-port --parent-pid $$ >second.err 2>&1 3>&- &
	SECOND_PID=$! SECOND_START=$(proc_start $!)
	for ((i = 0; i < 200; i++)); do
		[ -s second-port ] && break
		sleep 0.05
	done
	[ -s second-port ] || fail "the second server wrote no port: $(cat second.err)"
	export KS_ENDPOINT_SECOND_URL="http://127.0.0.1:$(cat second-port)/v1" KS_ENDPOINT_SECOND_API_KEY=key-b
}

@test "a:2,b:1@second: the candidates go 2 to 1, b to its own server with its own key; the report shows each share" {
	run -0 gen N=2
	# a, b, a in each generation: every three draws hold the weights' shares
	run jq -r .model pop/gen-00{1,2}/c{0,1,2}/candidate.json
	assert_output $'a\nb\na\na\nb\na'
	# b's requests went to the second server with key-b; nothing else did
	run jq -r '"\(.model) \(.auth)"' second-log.jsonl
	assert_output $'b ok\nb ok'
	# the stage's server saw a (and select, hypothesize) with its own key, never b or key-b
	run llm_log '"\(.model) \(.auth)"'
	assert_output "$(printf '%s\n' 'sel ok' 'hyp ok' 'a ok' 'a ok' 'sel ok' 'hyp ok' 'a ok' 'a ok')"
	run grep -c key-b llm-log.jsonl
	assert_output 0
	# the report: each model's kernels and its share of the correct ones and of those faster than their base
	run -0 ks-report pop
	assert_line --regexp "^pop: model a: 4 kernels, 4 correct \(67 % of the correct\), [0-4] faster than their base \([0-9]+ % of those\)$"
	assert_line --regexp "^pop: model b: 2 kernels, 2 correct \(33 % of the correct\), [0-2] faster than their base \([0-9]+ % of those\)$"
}

@test "a slot made again draws the same model" {
	run -0 gen N=1
	rm -r pop/gen-001/c1
	run -0 ks-implement pop/gen-001/c1
	assert_equal "$(jget pop/gen-001/c1/candidate.json .model)" b
	# the same request again, answered from the cache: the second server saw one
	assert_equal "$(jq -s length second-log.jsonl)" 1
}

# refused VALUE MESSAGE: ks-select with KS_SELECT_MODEL=VALUE says MESSAGE, exit 1, writes nothing
refused() {
	KS_SELECT_MODEL=$1 run -1 --separate-stderr ks-select pop/gen-001
	assert_equal "$stderr" "ks-select: $2"
	assert_file_not_exists pop/gen-001/select.json
}

@test "bad model settings are named in one line, exit 1, before any request" {
	make_pop pop 3
	fake_cand pop 0 0 ok 100 ''
	refused 'a:0' "KS_SELECT_MODEL: the weight of 'a:0' must be an integer from 1 to 1000"
	refused 'a:1001' "KS_SELECT_MODEL: the weight of 'a:1001' must be an integer from 1 to 1000"
	refused 'a:1,,b:1' "KS_SELECT_MODEL: an empty entry in ''"
	refused ':3' "KS_SELECT_MODEL: an entry without a model name in ':3'"
	refused 'b@nowhere' "KS_SELECT_MODEL puts b on endpoint 'nowhere', but KS_ENDPOINT_NOWHERE_URL is not set"
	KS_ENDPOINT_SECOND_PROVIDER=claude refused 'b@second' \
		"KS_ENDPOINT_SECOND_PROVIDER must be openai, anthropic or gemini, not 'claude'"
	# an endpoint beside a model with none, and no LLM configured for it
	unset KS_LLM_URL KS_LLM_API_KEY KS_LLM_PROVIDER KS_MODEL
	refused 'b:1@second,a:1' \
		"KS_SELECT_MODEL: a has no endpoint of its own (@NAME), and no LLM is configured for it (KS_LLM_PROVIDER, KS_LLM_URL or an API key)"
	assert_equal "$(jq -s length second-log.jsonl)" 0
}
