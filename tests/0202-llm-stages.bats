#!/usr/bin/env bats
# The LLM stages against the fake LLM server (helper/llm): what select,
# hypothesize, implement and implement's repairs ask the model, how
# they read its replies (leniently) and check them (strictly), and what
# they do when the model's replies cannot be used.  Each stage has its own
# model, and so its own script: sel, hyp and impl.

bats_require_minimum_version 1.5.0
load helper/common
load helper/llm

# The populations the tests start from are made once (offline), then copied.
setup_file() {
	cd "$BATS_FILE_TMPDIR" || return
	# the seed, really built and benched
	make -s --no-print-directory -C "$KS_ROOT" generation N=0 POP="$BATS_FILE_TMPDIR/real" >/dev/null
	# the seed (faked) and generation 1 selected: base and reference g000c0
	make_pop seed
	fake_cand seed 0 0 ok 100 ''
	ks-select seed/gen-001
	# the seed, g001c0 (faster) and g001c1 (incorrect), for generation 2
	make_pop three
	fake_cand three 0 0 ok 100 ''
	fake_cand three 1 0 ok 80 'LOOP_ORDER=1' g000c0 g000c0
	fake_cand three 1 1 incorrect 0 '' g000c0 g000c0
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	SEED="$KS_ROOT/kernels/sgemm/seed.c"
	# a valid kernel: the seed with the other loop order; the reply also
	# holds a shorter fenced block, which is not the kernel
	sed 's/^#define LOOP_ORDER 0/#define LOOP_ORDER 1/' "$SEED" >code.c
	{
		printf 'The plan flips the loop order:\n\n```c\n#define LOOP_ORDER 1\n```\n\nThe whole file:\n\n```c\n'
		cat code.c
		printf '```\n\nThis should vectorize over j.\n'
	} >code.md
	plans_reply plans.json
}

teardown() {
	llm_server_stop
}

# script_of MODEL=FILE[@P/C][,FILE...]...: a script of the server with,
# for each model, one step per file, replying the file's text (and, with
# @P/C, reporting P prompt and C completion tokens).  One jq run.
script_of() {
	local arg f step steps i=0 m=0 prog='{}' args=()
	local -a files
	for arg; do
		[[ $arg == *=* ]] || return 1
		args+=(--arg "m$m" "${arg%%=*}")
		IFS=, read -ra files <<<"${arg#*=}"
		steps=
		for f in "${files[@]}"; do
			args+=(--rawfile "f$i" "${f%%@*}")
			step="content: \$f$i"
			if [[ $f == *@* ]]; then
				f=${f#*@}
				[[ $f =~ ^[0-9]+/[0-9]+$ ]] || return 1
				step+=", usage: {prompt_tokens: ${f%/*}, completion_tokens: ${f#*/}}"
			fi
			steps+="${steps:+, }{$step}"
			i=$((i + 1))
		done
		prog+=" + {(\$m$m): [$steps]}"
		m=$((m + 1))
	done
	jq -nc "${args[@]}" "$prog"
}

# serve MODEL=FILE...: starts the server with that script (script_of),
# then gives each stage its own model: sel, hyp, impl.
serve() {
	local script
	script=$(script_of "$@") || fail "serve: bad arguments: $*"
	llm_server_start "$script"
	export KS_SELECT_MODEL=sel KS_HYPOTHESIZE_MODEL=hyp KS_IMPLEMENT_MODEL=impl
}

# reserve MODEL=FILE...: a new script for the running server; each model
# starts at its first step again.
reserve() {
	local script
	script=$(script_of "$@") || fail "reserve: bad arguments: $*"
	llm_server_script "$script"
}

# prompt N: the prompt (the first user message) of request N.
prompt() {
	llm_request "$1" '.body.messages[1].content'
}

# count FILE TEXTFILE: how many times the text of TEXTFILE (its final
# newlines aside, as $(...) strips them) occurs in FILE.
count() {
	jq -n --rawfile hay "$1" --arg text "$(cat "$2")" '$hay | if . == "" then 0 else split($text) | length - 1 end'
}

# pop_lines DIR: how the population list of a prompt shows a benched
# kernel: its line with the score and its line of per-shape times (awk's
# printf rounds as the tools' does; jq prints every digit of a number).
pop_lines() {
	# the score's noise as ks_score_noise: the shapes' relative standard errors over n, a shape that did not
	# converge adding its share of 10 %, and 1 % of drift; twice it is shown
	jq -r '(.results | map(.sol_us / .time_us | log) | add / length | exp) as $overall
		| ((.results | map((.rel_stderr // 0) * (.rel_stderr // 0) + (if .converged == false then 0.0099 else 0 end)) | add | sqrt)
		   / (.results | length)) as $rse
		| "\(.id) \(.score_us) \($overall) \(($rse * $rse + 0.0001) | sqrt)",
		  (.results[] | "\(.shape.M) \(.shape.N) \(.shape.K) \(.time_us) \(.sol_us / .time_us) \(.rel_stderr) \(.converged) \(.runs)")' \
		"$1/bench.json" |
		awk 'function pct(s) { return sprintf(100 * s >= 1 ? "%.1f" : "%.2g", 100 * s) }  # as ks_sol_pct
			NR == 1 { printf "- %s (base -, reference -; plan: (the seed kernel)): status ok, score %.2f us ±%.1f %%, %s %% of SOL overall\n", $1, $2, 200 * $4, pct($3); next }
			{ spread = $6 != "null" ? sprintf("±%.1f %%", 200 * $6) : $8 == 1 ? "(one call: no spread)" : "(spread unknown)"
			  shapes = shapes sprintf(" %dx%dx%d %.2f us %s%s (%s %% of SOL);", $1, $2, $3, $4, spread,
				$7 == "false" ? " (did not converge)" : "", pct($5)) }
			END { print "  per shape:" shapes }'
}

# slot_report SLOT PLAN: what generation 1's implement request for kept
# plan PLAN showed the model, and what candidate SLOT recorded (one jq run).
slot_report() {
	local c=pop/gen-001/c$1
	jq -rn --argjson pi "$2" --arg seed "$(cat "$SEED")" --rawfile code code.c \
		--rawfile kernel "$c/kernel.c" --rawfile md "$c/llm/implement-1.md" \
		--slurpfile h pop/gen-001/hypotheses.json --slurpfile log llm-log.jsonl \
		--slurpfile cand "$c/candidate.json" --slurpfile build "$c/build.json" \
		--slurpfile bench "$c/bench.json" '
		def count($text): if . == "" then 0 else split($text) | length - 1 end;
		$h[0].plans[$pi] as $plan | $cand[0] as $cand | $build[0] as $build | $bench[0] as $bench
		| [$log[] | select(.model == "impl") | .body.messages[1].content
			| select(contains("## The experiment plan: \($plan.title)\n"))] as $hits
		| ($hits[0] // "") as $p
		| "requests with the plan: \($hits | length)",
		  "seed shown (the reference is the base: once): \($p | count($seed))",
		  (("title", "description", "rubric") as $k | "\($k) shown: \($p | count($plan[$k]))"),
		  "id: \($cand.id)",
		  "parents: \($cand.parents | tojson)",
		  "plan: \($cand.plan.index) \($cand.plan.title)",
		  "model: \($cand.model)",
		  "usage: \($cand.usage | tojson)",
		  "rejected: \($cand | has("rejected"))",
		  "kernel.c is the longest fenced block: \($kernel == $code)",
		  "build: ok \($build.ok), repairs \($build | has("repairs"))",
		  "bench: \($bench.status) correct \($bench.correct), score \(($bench.score_us // 0) > 0)",
		  "transcript: reply \($md | contains($code)), plan \($md | contains($plan.description))"'
}

@test "generation 1 through the LLM: one select, one hypothesize and K implement requests, each with its context" {
	use real
	echo '{"base": "g000c0", "reference": "g000c0", "reason": "the only kernel"}' >sel.json
	serve sel=sel.json@1200/30 hyp=plans.json@2500/900 impl=code.md@3000/1500
	run -0 gen N=1
	assert_output --regexp "pop: generations 0\.\.1, 4 kernels, 4 correct; best g00[01]c[0-2] "

	# exactly these requests, in pipeline order, each with the key
	run llm_log '[.method, .path, .model, .auth]'
	assert_output - <<-'EOF'
		["POST","/v1/chat/completions","sel","ok"]
		["POST","/v1/chat/completions","hyp","ok"]
		["POST","/v1/chat/completions","impl","ok"]
		["POST","/v1/chat/completions","impl","ok"]
		["POST","/v1/chat/completions","impl","ok"]
	EOF
	run llm_request 1 '.body.messages[0].role' '.body.messages[1].role' '.body.messages[2:]'
	assert_output $'system\nuser\n[]'
	# no request names a held-out shape: they are never shown to a model
	run jq -r '.heldout_shapes[] | "\(.M)x\(.N)x\(.K)"' "$KS_ROOT/kernels/sgemm/problem.json"
	assert_equal "${#lines[@]}" 3
	for shape in "${lines[@]}"; do
		run grep -c "$shape" llm-log.jsonl
		assert_output 0
	done

	# select sees the population (id, score, per-shape times) and the task's opening, not its whole text
	# (before: every stage had the whole task, 7 KB on fp8-mm, where choosing two kernels needs none of its rules)
	prompt 1 >select-prompt
	run cat select-prompt
	assert_output --partial "$(pop_lines pop/gen-000/c0)"
	assert_output --partial "$(sed '/^## /,$d' "$KS_ROOT/kernels/sgemm/task.md")"$'\n\n(The rest of the task, its data layouts, entry point, build and scoring rules, goes to the stages that write plans and code.)\n'
	refute_output --partial "$(grep -m1 '^## ' "$KS_ROOT/kernels/sgemm/task.md")"
	assert_output --partial "this is generation 1"
	refute_output --partial "{{"

	# hypothesize sees the base code, both knowledge notes and no findings
	prompt 2 >hyp-prompt
	assert_equal "$(count hyp-prompt "$SEED")" 1
	assert_equal "$(count hyp-prompt "$KS_ROOT/prompts/knowledge/experiments.md")" 1
	assert_equal "$(count hyp-prompt "$KS_ROOT/kernels/sgemm/knowledge/gemm-on-cpu.md")" 1
	run cat hyp-prompt
	assert_output --partial "(none yet: this is the first generation)"
	assert_output --partial "$(pop_lines pop/gen-000/c0)"
	# implement: a knob's ks-tune list is the offline search's, not a bound on the model
	prompt 3 >impl-prompt
	run cat impl-prompt
	assert_output --partial "the list does not bind you: change the value to any other,"
	# and the generation's other kept plans, each with its slot, not its own
	local own slot title
	own=$(sed -n 's/^## The experiment plan: //p' impl-prompt)
	assert_output --partial "## The generation's other plans"
	for slot in 0 1 2; do
		title=$(jq -r --argjson s "$slot" '.plans[.chosen[$s]].title' pop/gen-001/hypotheses.json)
		if [ "$title" = "$own" ]; then
			refute_output --partial "- slot c$slot: "
		else
			assert_output --partial "- slot c$slot: \"$title\": "
		fi
	done

	# the plans kept by the rule, and each slot asked with its own plan
	run jf pop/gen-001/hypotheses.json .chosen .base .model .usage '.plans | length' \
		'.avenues | length' 'has("fallback")'
	assert_output - <<-'EOF'
		[1,0,2]
		g000c0
		hyp
		{"calls":1,"cached_calls":0,"prompt_tokens":2500,"completion_tokens":900}
		5
		10
		false
	EOF
	run jf pop/gen-001/select.json .base .reference .reason .model .usage 'has("fallback")'
	assert_output - <<-'EOF'
		g000c0
		g000c0
		the only kernel
		sel
		{"calls":1,"cached_calls":0,"prompt_tokens":1200,"completion_tokens":30}
		false
	EOF
	local s plans=(1 0 2) titles=("Loop order ikj" "Wider tiles" "Unroll k")
	for s in 0 1 2; do
		run slot_report "$s" "${plans[s]}"
		assert_output - <<-EOF
			requests with the plan: 1
			seed shown (the reference is the base: once): 1
			title shown: 1
			description shown: 1
			rubric shown: 1
			id: g001c$s
			parents: {"base":"g000c0","reference":"g000c0"}
			plan: ${plans[s]} ${titles[s]}
			model: impl
			usage: {"calls":1,"cached_calls":0,"prompt_tokens":3000,"completion_tokens":1500}
			rejected: false
			kernel.c is the longest fenced block: true
			build: ok true, repairs false
			bench: ok correct true, score true
			transcript: reply true, plan true
		EOF
	done
	for f in select-1.json select-1.md hypothesize-1.json hypothesize-1.md; do
		assert_file_exists "pop/gen-001/llm/$f"
	done
	run jf pop/gen-001/llm/select-1.json .stage .model .reply
	assert_output - <<-'EOF'
		select
		sel
		{"base": "g000c0", "reference": "g000c0", "reason": "the only kernel"}
	EOF

	# the key is written nowhere
	run grep -rl test-key-123 pop
	assert_output ""
	# every JSON file parses, those of llm/ and llm-cache/ too
	assert_all_json_valid pop
	assert_no_temp_files pop
}

@test "a reasoning model through a generation: max_tokens and the temperature are refused once for the run, not once per stage" {
	# (before: each of the 2 + K stage processes was refused both again: 10 refused requests in the generation)
	use real
	echo '{"base": "g000c0", "reference": "g000c0", "reason": "the only kernel"}' >sel.json
	# each request takes the next step, a refused one too: two refusals, then select's, hypothesize's, implement's
	llm_server_start "$(jq -nc --rawfile sel sel.json --rawfile plans plans.json --rawfile code code.md \
		'{"o3-mini": [{}, {}, {content: $sel}, {content: $plans}, {content: $code}]}')"
	export KS_MODEL=o3-mini KS_LLM_TEMPERATURE=0.7
	run -0 gen N=1
	run llm_log '.body | [has("max_tokens"), has("temperature")] | map(tostring) | join(" ")'
	assert_output - <<-'EOF'
		true true
		false true
		false false
		false false
		false false
		false false
		false false
	EOF
	run jq -r .status pop/gen-001/c0/bench.json pop/gen-001/c1/bench.json pop/gen-001/c2/bench.json
	assert_output $'ok\nok\nok'
	# made again from nothing, the generation is answered from the cache: the requests it remembers are those it holds
	rm -r pop/gen-001
	run -0 gen N=1
	assert_equal "$(llm_requests)" 7
}

@test "generation 2 shows the findings of generation 1 in its hypothesize prompt: plan, expected uplift, measured result" {
	use real
	echo '{"base": "g000c0", "reference": "g000c0", "reason": "the only kernel"}' >sel1.json
	echo '{"base": "g001c0", "reference": "g000c0", "reason": "the new line"}' >sel2.json
	serve sel=sel1.json,sel2.json hyp=plans.json impl=code.md
	run -0 gen N=1
	# generation 2 by hand, as make would: select, hypothesize, one slot
	run -0 ks-select pop/gen-002
	run -0 ks-hypothesize pop/gen-002
	run -0 ks-implement pop/gen-002/c0
	run llm_log .model
	assert_output "$(printf '%s\n' sel hyp impl impl impl sel hyp impl)"
	assert_equal "$(jget pop/gen-002/select.json .base)" g001c0

	prompt 7 >hyp2-prompt
	# the finding of each slot, as the prompt words it (awk's printf rounds
	# as the tools' does)
	local s base
	base=$(jget pop/gen-000/c0/bench.json .score_us)
	# each was timed side by side with the seed: the uplift and its interval are the ratio's
	for s in 0 1 2; do
		jq -rn --slurpfile c pop/gen-001/c$s/candidate.json --slurpfile b pop/gen-001/c$s/bench.json \
			'[$c[0].plan.title, $c[0].plan.uplift_min, $c[0].plan.uplift_max, $b[0].score_us,
			  $b[0].versus.ratio, $b[0].versus.ci95[0], $b[0].versus.ci95[1]] | @tsv'
	done | awk -F '\t' -v base="$base" '{
		u = (1 / $5 - 1) * 100
		where = u < $2 ? "below" : u > $3 ? "above" : "inside"
		noise = !(($7 < 1 && $5 < 0.975) || ($6 > 1 && $5 > 1 / 0.975))
		n[where]++; lerr += log((1 + u / 100) / (1 + ($2 + $3) / 200))
		printf "- generation 1, g001c%d from g000c0: \"%s\" (expected %+.0f%% to %+.0f%%): measured %+.1f%% timed side by side with its base (95%% interval %+.1f%% to %+.1f%%), %s (%.2f us, its base %.2f us benched alone)\n",
			NR - 1, $1, $2, $3, u, (1 / $7 - 1) * 100, (1 / $6 - 1) * 100,
			noise ? "within noise" : where " the range", $4, base }
		END {
			# the track record of the three plans, and hypotheses.json "calibration"
			printf "Of the 3 plans measured so far, %d (%.0f %%) measured inside the uplift range they predicted, %d below it and %d above it; 0 more failed (wrong, crashed, did not build or were rejected). On average (a geometric mean, so that one large speed-up does not drown the rest) a measured plan'"'"'s kernel ran %.2f times as fast as the middle of its range promised (an uplift of +100 %% is 2x the base'"'"'s speed; over 1: faster than promised, under 1: slower).\n",
				n["inside"], 100 * n["inside"] / 3, n["below"], n["above"], exp(lerr / 3) >"track"
			printf "{\"measured\":3,\"inside\":%d,\"below\":%d,\"above\":%d,\"failed\":0}\n", n["inside"], n["below"], n["above"] >"calibration"
		}' >expected
	assert_equal "$(wc -l <expected)" 3
	local line
	run cat hyp2-prompt
	refute_output --partial "(none yet"
	while IFS= read -r line; do
		assert_output --partial "$line"
	done <expected
	assert_output --partial '"Loop order ikj" (expected -5% to +40%): measured '
	assert_output --partial $'## Your track record\n\n'"$(sed 's/.$//' track)"
	assert_output --partial "The plans are kept by these numbers: predict the range you expect to hit"
	# generation 1's plans had no record before them; generation 2's had three
	run jf pop/gen-001/hypotheses.json .calibration
	assert_output '{"measured":0,"inside":0,"below":0,"above":0,"failed":0,"mean_error":0,"speed_ratio":1}'
	run jf pop/gen-002/hypotheses.json '.calibration | del(.mean_error, .speed_ratio)'
	assert_output "$(cat calibration)"
	# the report says it for the run
	run -0 ks-report pop
	assert_line --regexp "^pop: plans' predicted uplift: [0-3] of 3 measured inside their range \([0-9]+ %\), [0-3] below, [0-3] above, [0-9]+\.[0-9]{2}x the speed-up the middle promised \(geometric mean\); 0 failed$"
	# the base of generation 2 is g001c0 and its reference the seed: each kernel's code once
	assert_equal "$(count hyp2-prompt code.c)" 1
	assert_equal "$(count hyp2-prompt "$SEED")" 1
	# and implement shows base g001c0 and reference g000c0
	prompt 8 >impl2-prompt
	assert_equal "$(count impl2-prompt code.c)" 1
	assert_equal "$(count impl2-prompt "$SEED")" 1
}

@test "select: JSON with prose around it, or in a json fence, is accepted" {
	use three pop1
	use three pop2
	printf 'Looking at the scores, g001c0 is the fastest.\n{"base": "g001c0", "reference": "g000c0", "reason": "fastest"}\nGood luck!\n' >prose
	printf 'My choice (pick {wisely}):\n```json\n{"base": "g000c0", "reference": "g001c0", "reason": "seed as base"}\n```\nThat is {all}.\n' >fenced
	serve sel=prose,fenced
	run -0 ks-select pop1/gen-002
	run -0 ks-select pop2/gen-002
	assert_equal "$(llm_requests)" 2
	run jf pop1/gen-002/select.json .base .reference .reason .model 'has("fallback")'
	assert_output $'g001c0\ng000c0\nfastest\nsel\nfalse'
	run jf pop2/gen-002/select.json .base .reference .reason .model 'has("fallback")'
	assert_output $'g000c0\ng001c0\nseed as base\nsel\nfalse'
	# the incorrect kernel is in the population shown, with its status
	run prompt 1
	assert_output --partial "- g001c1 (base g000c0, reference g000c0; plan: -): status incorrect"
}

@test "select: an unknown id is asked again once, with the model's reply and the reason" {
	use three
	echo '{"base": "g009c9", "reference": "g000c0", "reason": "made up"}' >bad
	echo '{"base": "g000c0", "reference": "g001c0", "reason": "second thoughts"}' >good
	serve sel=bad@100/10,good@200/20
	run -0 --separate-stderr ks-select pop/gen-002
	assert_equal "$stderr" ""
	assert_equal "$(llm_requests)" 2
	# the same prompt again, then the model's reply, then what was wrong with it
	assert_equal "$(prompt 2)" "$(prompt 1)"
	run llm_request 2 '.body.messages | length' '.body.messages[2].role' \
		'.body.messages[2].content' '.body.messages[3].role' '.body.messages[3].content'
	assert_line --index 0 4
	assert_line --index 1 assistant
	assert_line --index 2 "$(cat bad)"
	assert_line --index 3 user
	assert_line --index 4 --partial "\"base\" names 'g009c9', which is not a kernel of the population"
	run jf pop/gen-002/select.json .base .reference .reason 'has("fallback")' .usage
	assert_output - <<-'EOF'
		g000c0
		g001c0
		second thoughts
		false
		{"calls":2,"cached_calls":0,"prompt_tokens":300,"completion_tokens":30}
	EOF
	assert_file_exists pop/gen-002/llm/select-1.md
	assert_file_exists pop/gen-002/llm/select-2.md
}

@test "select: an incorrect kernel, then a missing field: the offline rule chooses, said in select.json and on stderr" {
	use three
	echo '{"base": "g001c1", "reference": "g000c0", "reason": "the incorrect one"}' >incorrect
	echo 'Sure: {"base": "g001c0", "reason": "no reference"}' >missing
	serve sel=incorrect,missing
	run -0 --separate-stderr ks-select pop/gen-002
	assert_equal "$(llm_requests)" 2
	run llm_request 2 '.body.messages[3].content'
	assert_output --partial "\"base\" names 'g001c1', whose status is incorrect, not ok"
	# the offline rule: the best score as base, the next best as reference
	run jf pop/gen-002/select.json .base .reference .model .usage.calls .fallback
	assert_line --index 0 g001c0
	assert_line --index 1 g000c0
	assert_line --index 2 sel
	assert_line --index 3 2
	assert_line --index 4 --partial '"reference" is missing'
	assert_line --index 4 --partial 'offline rule'
	run jget pop/gen-002/select.json .reason
	assert_output --partial "offline rule"
	# one warning line, naming the generation and what happened
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "expected one line on stderr, got: $stderr"
	assert_equal "${stderr_lines[0]}" "ks-select: 'pop/gen-002': $(jget pop/gen-002/select.json .fallback)"
}

@test "select: a reply without its \"reason\" is missing a field: asked again" {
	use three
	echo '{"base": "g001c0", "reference": "g000c0"}' >noreason
	echo '{"base": "g000c0", "reference": "g001c0", "reason": "the seed, for once"}' >good
	serve sel=noreason,good
	run -0 ks-select pop/gen-002
	assert_equal "$(llm_requests)" 2
	run llm_request 2 '.body.messages[3].content'
	assert_output --partial '"reason"'
	run jf pop/gen-002/select.json .base .reason 'has("fallback")'
	assert_output $'g000c0\nthe seed, for once\nfalse'
}

@test "hypothesize: 9 avenues, 4 plans, uplift_min above uplift_max, innovation 11, a kind that is no word: each is asked again with the reason" {
	local case n=0
	local -A reasons=(
		[avenues9]='"avenues" holds 9 entries, not 10'
		[plans4]='"plans" holds 4 plans, not 5'
		[minmax]='plan 2: uplift_min 20 is above uplift_max 15'
		[innov11]='plan 4: field "innovation" is not an integer from 1 to 10'
		[kind]='plan 1: field "kind" is not a word of at most 40 characters'
	)
	plans_reply avenues9 'del(.avenues[-1])'
	plans_reply plans4 'del(.plans[-1])'
	plans_reply minmax '.plans[2].uplift_min = 20'
	plans_reply innov11 '.plans[4].innovation = 11'
	plans_reply kind '.plans[1].kind = 3'
	serve hyp=plans.json
	for case in avenues9 plans4 minmax innov11 kind; do
		rm -rf pop
		use seed
		reserve hyp=$case,plans.json
		run -0 --separate-stderr ks-hypothesize pop/gen-001
		assert_equal "$stderr" ""
		assert_equal "$(llm_requests)" $((n += 2))
		run llm_request $n .model '.body.messages[2].content' '.body.messages[3].content'
		assert_line --index 0 hyp
		assert_output --partial "$(cat $case)"
		assert_output --partial "That reply could not be used: ${reasons[$case]}."
		run jf pop/gen-001/hypotheses.json .chosen .model .usage.calls 'has("fallback")' \
			'.avenues | length' 'any(.plans[]; has("changes"))'
		assert_output $'[1,0,2]\nhyp\n2\nfalse\n10\nfalse'
	done
}

@test "hypothesize: two unusable replies fall back to the offline proposer (the seed declares tunables), said so" {
	use seed
	echo 'I would rather not.' >prose
	plans_reply plans4 'del(.plans[-1])'
	serve hyp=prose,plans4
	run -0 --separate-stderr ks-hypothesize pop/gen-001
	assert_equal "$(llm_requests)" 2
	run llm_request 2 '.body.messages[3].content'
	assert_output --partial "the reply holds no JSON object"
	run jf pop/gen-001/hypotheses.json .fallback '.plans | length' 'all(.plans[]; has("changes"))' \
		.chosen .base .usage.calls
	assert_line --index 0 --partial '"plans" holds 4 plans, not 5'
	assert_output --partial $'\n5\ntrue\n[4,0,1]\ng000c0\n2'
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "expected one line on stderr, got: $stderr"
	assert_equal "${stderr_lines[0]}" "ks-hypothesize: 'pop/gen-001': $(jget pop/gen-001/hypotheses.json .fallback): the offline proposer made the plans"
}

@test "hypothesize: a base without tunables cannot fall back: exit 1 with one clear line" {
	use seed
	sed -i 's|[[:space:]]*/\* ks-tune:.*\*/||' pop/gen-000/c0/kernel.c
	run grep -c 'ks-tune:' pop/gen-000/c0/kernel.c
	assert_output 0
	echo 'no JSON here' >prose
	serve hyp=prose
	run -1 --separate-stderr ks-hypothesize pop/gen-001
	assert_equal "$(llm_requests)" 2
	assert_file_not_exists pop/gen-001/hypotheses.json
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "expected one line on stderr, got: $stderr"
	assert_equal "$output" ""
	[[ ${stderr_lines[0]} == "ks-hypothesize: "*"pop/gen-001"*"the reply holds no JSON object"* ]] ||
		fail "the line does not name the generation and the reason: $stderr"
	[[ ${stderr_lines[0]} == *"offline proposer"* ]] || fail "the line does not say why there is no fallback: $stderr"
}

@test "implement: no code block, asked again, still none: the candidates are rejected and the generation completes" {
	use real
	echo '{"base": "g000c0", "reference": "g000c0", "reason": "r"}' >sel.json
	echo 'I would change the loop order; shall I go on?' >chat
	serve sel=sel.json hyp=plans.json impl=chat
	run -0 --separate-stderr gen N=1
	assert_output --regexp "pop: generations 0\.\.1, 4 kernels, 1 correct; best g000c0 "
	gen_stderr=$stderr
	run llm_log .model
	assert_output "$(printf '%s\n' sel hyp impl impl impl impl impl impl)"
	run llm_request 4 '.body.messages[2].content' '.body.messages[3].content'
	assert_line --index 0 "$(cat chat)"
	assert_output --partial "That reply could not be used: the reply holds no fenced code block"
	local s why
	for s in 0 1 2; do
		why=$(jget pop/gen-001/c$s/candidate.json .rejected)
		assert_equal "$why" 'the reply holds no fenced code block (```c ... ```)'
		assert_equal "$(jget pop/gen-001/c$s/candidate.json .usage.calls)" 2
		assert_file_not_exists pop/gen-001/c$s/kernel.c
		assert_file_not_exists pop/gen-001/c$s/runner
		run jf pop/gen-001/c$s/build.json .ok .diagnostics
		assert_line --index 0 false
		assert_line --index 1 "not built: ks-implement rejected the candidate: $why"
		run jf pop/gen-001/c$s/bench.json .status .correct 'must("score_us")' .message
		assert_output "$(printf 'rejected\nfalse\nnull\n%s' "$why")"
		assert_file_exists pop/gen-001/c$s/llm/implement-2.md
	done
	[[ $gen_stderr == *"pop/gen-001/c0': candidate rejected: the reply holds no fenced code block"* ]] ||
		fail "no warning of the rejected candidate on stderr: $stderr"
}

@test "implement: the code is the last fenced block that defines the entry point, outside the thinking" {
	# (before: the longest block was taken: here the draft in the thinking, or the base shown first)
	use seed
	{
		printf '<think>A first draft:\n\n```c\n'
		cat "$SEED"
		printf '/* a long draft comment that makes this block the longest of the reply, and not the answer */\n```\n</think>\n'
		printf 'The base was:\n\n```c\n'
		cat "$SEED"
		printf '/* the base, shown again, longer than the answer */\n```\n\nThe new kernel:\n\n```c\n'
		cat code.c
		printf '```\n\nCall it as:\n\n```c\nsgemm(M, N, K, A, B, C);\n```\n'
	} >thinking.md
	serve hyp=plans.json impl=thinking.md
	run -0 ks-hypothesize pop/gen-001
	run -0 ks-implement pop/gen-001/c0
	cmp code.c pop/gen-001/c0/kernel.c
	assert_equal "$(llm_requests)" 2
}

@test "implement: an error on the re-ask is an unusable reply: the candidate is rejected, the stage succeeds" {
	# (before: the second request's 400 made ks-implement exit 1 and the generation stop)
	use seed
	llm_server_start "$(jq -nc --rawfile p plans.json '{hyp: [{content: $p}], impl: [{content: "no code here"},
		{status: 400, message: "messages.1: all messages must have non-empty content"}]}')"
	export KS_HYPOTHESIZE_MODEL=hyp KS_IMPLEMENT_MODEL=impl
	run -0 ks-hypothesize pop/gen-001
	run -0 --separate-stderr ks-implement pop/gen-001/c0
	assert_equal "$(jget pop/gen-001/c0/candidate.json .rejected)" \
		"the second request failed: HTTP 400: messages.1: all messages must have non-empty content"
}

@test "implement: code without the entry point, twice: rejected with the reason; build and bench record it" {
	use seed
	sed 's/^sgemm(int M/matmul(int M/' code.c >noentry.c
	printf '```c\n%s\n```\n' "$(cat noentry.c)" >noentry
	serve hyp=plans.json impl=noentry
	run -0 ks-hypothesize pop/gen-001
	run -0 --separate-stderr ks-implement pop/gen-001/c0
	assert_equal "$(llm_requests)" 3
	run llm_request 3 .model '.body.messages[3].content'
	assert_line --index 0 impl
	assert_line --index 1 --partial "the code does not define the entry point sgemm"
	run jf pop/gen-001/c0/candidate.json .rejected .model .plan.index
	assert_output $'the code does not define the entry point sgemm\nimpl\n1'
	assert_file_not_exists pop/gen-001/c0/kernel.c
	run -0 ks-build pop/gen-001/c0
	run jf pop/gen-001/c0/build.json .ok .diagnostics
	assert_output $'false\nnot built: ks-implement rejected the candidate: the code does not define the entry point sgemm'
	run -0 ks-bench pop/gen-001/c0
	run jf pop/gen-001/c0/bench.json .status .message
	assert_output $'rejected\nthe code does not define the entry point sgemm'
	# ks-build asked nothing: there is no code to repair
	assert_equal "$(llm_requests)" 3
}

@test "implement: code the static check refuses, twice: asked again with the reason, then rejected" {
	use seed
	{ echo '#include <pthread.h>'; echo 'static void *spin(void *p) { return p; }'; cat code.c; echo 'static void later(void) { pthread_t t; pthread_create(&t, 0, spin, 0); }'; } >threaded.c
	printf '```c\n%s\n```\n' "$(cat threaded.c)" >threaded
	serve hyp=plans.json impl=threaded
	run -0 ks-hypothesize pop/gen-001
	run -0 --separate-stderr ks-implement pop/gen-001/c0
	assert_equal "$(llm_requests)" 3
	run llm_request 3 '.body.messages[3].content'
	assert_output --regexp "the kernel starts a thread or a process \('pthread_create\(' on line [0-9]+\): work outside the call would escape the timer"
	run jf pop/gen-001/c0/candidate.json .rejected
	assert_output --regexp "^the kernel starts a thread or a process"
}

# long_base: the seed base g000c0 of ./pop made a 1,000-line kernel (the
# seed, then helpers nothing calls), and edits.md a 20-line reply of two
# edits to it: the loop order, and one helper far down; want.c the result.
long_base() {
	local k=pop/gen-000/c0/kernel.c
	{
		cat "$SEED"
		for ((i = $(wc -l <"$SEED"); i < 1000; i++)); do
			printf 'static inline float scale_%04d(float x) { return x * %d.0f; }\n' "$i" "$i"
		done
	} >$k
	cat >edits.md <<-'EOF'
		Two edits: the i-k-j loop order, and a helper that scales by 0.5.

		```c
		<<<<<<< SEARCH
		#define LOOP_ORDER 0	/* ks-tune: 0 1 2 */
		=======
		#define LOOP_ORDER 1	/* ks-tune: 0 1 2 */
		>>>>>>> REPLACE
		```

		```c
		<<<<<<< SEARCH
		static inline float scale_0900(float x) { return x * 900.0f; }
		static inline float scale_0901(float x) { return x * 901.0f; }
		=======
		static inline float scale_0900(float x) { return x * 0.5f; }
		static inline float scale_0901(float x) { return x * 901.0f; }
		>>>>>>> REPLACE
		```
		Nothing else changes.
	EOF
	sed -e 's/^#define LOOP_ORDER 0/#define LOOP_ORDER 1/' \
		-e 's/scale_0900(float x) { return x \* 900.0f; }/scale_0900(float x) { return x * 0.5f; }/' $k >want.c
}

@test "implement: a 1,000-line kernel changed by a 20-line reply of SEARCH/REPLACE edits; the form is recorded" {
	use seed
	long_base
	assert_equal "$(wc -l <pop/gen-000/c0/kernel.c)" 1000
	assert_equal "$(wc -l <edits.md)" 20
	serve hyp=plans.json impl=edits.md
	run -0 ks-hypothesize pop/gen-001
	run -0 ks-implement pop/gen-001/c0
	# the prompt offers both forms
	run prompt 2
	assert_output --partial "Either the whole new source file in one fenced code block"
	assert_output --partial $'<<<<<<< SEARCH\nthe lines of the base kernel to change, copied exactly'
	cmp want.c pop/gen-001/c0/kernel.c
	assert_equal "$(wc -l <pop/gen-001/c0/kernel.c)" 1000
	run jf pop/gen-001/c0/candidate.json .reply 'has("rejected")'
	assert_output $'{"form":"edits","edits":2}\nfalse'
	assert_equal "$(llm_requests)" 2
	run -0 ks-build pop/gen-001/c0
	run -0 ks-bench pop/gen-001/c0
	assert_equal "$(jget pop/gen-001/c0/bench.json .status)" ok
}

@test "implement: a SEARCH that matches twice is asked again with the reason; the whole file then is recorded as a file" {
	use seed
	long_base
	printf '<<<<<<< SEARCH\n\t\t}\n=======\n\t\t} /* done */\n>>>>>>> REPLACE\n' >twice.md
	serve hyp=plans.json impl=twice.md,code.md
	run -0 ks-hypothesize pop/gen-001
	run -0 ks-implement pop/gen-001/c0
	run llm_request 3 '.body.messages[3].content'
	assert_output --regexp "^That reply could not be used: the SEARCH section of edit 1 \(first line '		}'\) matches [0-9]+ places in the kernel: include enough lines around it to match one\."
	cmp code.c pop/gen-001/c0/kernel.c
	run jf pop/gen-001/c0/candidate.json .reply
	assert_output '{"form":"file"}'
}

@test "implement: edits that match no lines, twice: the candidate is rejected with the reason" {
	use seed
	long_base
	# the model's copy lost the tab
	sed 's/^#define LOOP_ORDER 0\t/#define LOOP_ORDER 0 /' edits.md >untabbed.md
	serve hyp=plans.json impl=untabbed.md,untabbed.md
	run -0 ks-hypothesize pop/gen-001
	run -0 --separate-stderr ks-implement pop/gen-001/c0
	assert_equal "$(llm_requests)" 3
	run jf pop/gen-001/c0/candidate.json .rejected 'has("reply")'
	assert_output $'the SEARCH section of edit 1 (first line \'#define LOOP_ORDER 0 /* ks-tune: 0 1 2 */\') matches no lines of the kernel: copy them exactly, whitespace included\nfalse'
	assert_file_not_exists pop/gen-001/c0/kernel.c
}

@test "implement: a repair may answer with edits to the broken kernel; the repair records its form" {
	use seed
	sed 's/^\tint i0;$/\tint i0 = undeclared_thing_xyz;/' code.c >broken.c
	printf '```c\n%s\n```\n' "$(cat broken.c)" >broken
	printf 'The name is undeclared:\n\n<<<<<<< SEARCH\n\tint i0 = undeclared_thing_xyz;\n=======\n\tint i0;\n>>>>>>> REPLACE\n' >fix.md
	serve hyp=plans.json impl=broken,fix.md
	run -0 ks-hypothesize pop/gen-001
	run -0 ks-implement pop/gen-001/c0
	run prompt 3
	assert_output --partial "or with edits to"$'\nthe kernel above'
	cmp code.c pop/gen-001/c0/kernel.c
	run jf pop/gen-001/c0/candidate.json '.repairs[0] | {form, edits, ok}' .reply
	assert_output $'{"form":"edits","edits":1,"ok":true}\n{"form":"file"}'
}

@test "hypothesize and implement show the selector's reason, the times per shape of base and reference, and the notes" {
	# (before: only implement saw the reference and the reason; the plans were written without them)
	use three
	mkdir -p pop/gen-002
	jq -n '{base: "g001c0", reference: "g000c0", reason: "g001c0 is the fastest; g000c0 keeps the other loop order"}' \
		>pop/gen-002/select.json
	serve hyp=plans.json impl=code.md
	run -0 ks-hypothesize pop/gen-002
	run prompt 1
	assert_output --partial $'## Why this base and this reference\n\ng001c0 is the fastest; g000c0 keeps the other loop order\n'
	assert_output --partial $'## A reference kernel worth learning from, g000c0\n\nMeasured: score 100.00 us ±2.0 %; per shape: 8x8x8 100.00 us (spread unknown);'
	assert_output --partial "$(cat pop/gen-000/c0/kernel.c)"
	run -0 ks-implement pop/gen-002/c0
	run prompt 2
	assert_output --partial $'## Why this base and this reference\n\ng001c0 is the fastest; g000c0 keeps the other loop order\n'
	# (fake_cand's records give no spread: the 1 % drift between benches is all a score's noise)
	assert_output --partial $'## The base kernel, g001c0\n\nMeasured: score 80.00 us ±2.0 %; per shape: 8x8x8 80.00 us (spread unknown); 8x8x8 80.00 us (spread unknown); 8x8x8 80.00 us (spread unknown);\n'
	assert_output --partial $'## A reference kernel worth learning from, g000c0\n\nMeasured: score 100.00 us ±2.0 %; per shape: 8x8x8 100.00 us (spread unknown);'
	assert_output --partial "$(cat pop/gen-000/c0/kernel.c)"
	assert_output --partial "$(head -n 3 "$KS_ROOT/prompts/knowledge/experiments.md" | tail -n 1)"
	refute_output --partial "The reference kernel is the base itself"
}

@test "implement shows a kernel the plan names, a failed one too, with its code and why it failed; the reference's code only where the plan draws on it or it fits" {
	# (before: a failed kernel could never be shown, so a plan building on its wgmma loop had it written from scratch
	# again; and the reference's code went to every implement prompt, whatever it cost)
	use three
	echo '__attribute__((unused)) static int g001c1_marker;' >>pop/gen-001/c1/kernel.c
	jq '.message = "shape 8x8x8: C[3][5] = 1.5, expected 2.25 (out of tolerance)"' pop/gen-001/c1/bench.json >b &&
		mv b pop/gen-001/c1/bench.json
	mkdir -p pop/gen-002
	jq -n '{base: "g001c0", reference: "g000c0", reason: "fastest"}' >pop/gen-002/select.json
	# plan 0 (slot c1) builds on g001c1; plan 1 (slot c0) names nothing; plan 2 (slot c2) the reference
	plans_reply plans.json '.plans[0].description = "take the blocking of g001c1, which failed on rounding, and fix its sum"
		| .plans[2].rubric = "copy the reference kernel'"'"'s inner loop"'
	serve hyp=plans.json impl=code.md,code.md,code.md
	run -0 ks-hypothesize pop/gen-002
	# a budget the base and the reference together pass (each kernel is about 8,000 characters), one alone does not
	export KS_CONTEXT_CHARS=12000
	for s in 0 1 2; do run -0 ks-implement pop/gen-002/c$s; done
	prompt 3 >named
	run cat named
	assert_output --partial $'## g001c1, which the plan names (status incorrect)\n\nIt failed: shape 8x8x8: C[3][5] = 1.5, expected 2.25 (out of tolerance)\n\n```c\n'
	assert_output --partial "static int g001c1_marker;"
	assert_output --partial $'## The reference kernel, g000c0\n\nMeasured: score 100.00 us ±2.0 %'
	assert_output --partial "Its code is left out: the plan does not refer to it, and with the base's it would pass KS_CONTEXT_CHARS."
	prompt 2 >plain
	run cat plain
	refute_output --partial "which the plan names"
	refute_output --partial "g001c1_marker"
	assert_output --partial "Its code is left out"
	prompt 4 >ref
	assert_equal "$(count ref pop/gen-000/c0/kernel.c)" 1
	run cat ref
	assert_output --partial $'## A reference kernel worth learning from, g000c0\n\nMeasured:'
	# with room for both, the reference's code is shown whatever the plan says
	rm pop/gen-002/c0/candidate.json pop/gen-002/c0/kernel.c
	KS_CONTEXT_CHARS=16000 KS_LLM_CACHE=off run -0 ks-implement pop/gen-002/c0
	prompt 5 >roomy
	assert_equal "$(count roomy pop/gen-000/c0/kernel.c)" 1
}

@test "a kernel benched on a loaded machine is marked so in the prompts, with one line saying how many were" {
	# (before: a bench whose machine was busy looked as sure as any other; bench.json's "machine" said it)
	use three
	jq '.machine = {noisy: true, reason: "other processes used 1.02 CPUs during the bench (over KS_BENCH_BUSY_MAX, 0.25)"}' \
		pop/gen-001/c0/bench.json >b && mv b pop/gen-001/c0/bench.json
	mkdir -p pop/gen-002
	jq -n '{base: "g001c0", reference: "g000c0", reason: "fastest"}' >pop/gen-002/select.json
	serve hyp=plans.json
	run -0 ks-hypothesize pop/gen-002
	run prompt 1
	assert_output --partial "(1 of the 2 kernels benched ok ran on a loaded machine, marked below: other processes took the CPU or the GPU while they were timed, so their times and spreads are less sure; trust a side-by-side ratio over their scores)"
	assert_output --regexp "- g001c0 \([^)]*\): status ok, score 80\.00 us [^\n]*; benched on a loaded machine \(other processes used 1\.02 CPUs during the bench \(over KS_BENCH_BUSY_MAX, 0\.25\)\): its times are less sure than their spread says"
	run grep -c "benched on a loaded machine" <<<"$output"
	assert_output 1
}

@test "every kernel shown carries its share of the speed of light; hypothesize says how far the base is, and where" {
	use three
	# the seed: 50 %, 10 % and 75 % of SOL (33.5 % overall); g001c0: 80 % on each shape
	with_sol pop/gen-000/c0 80/40 80/8 80/60
	with_sol pop/gen-001/c0 50/40 10/8 75/60
	mkdir -p pop/gen-002
	jq -n '{base: "g000c0", reference: "g001c0", reason: "to learn from g001c0"}' >pop/gen-002/select.json
	serve hyp=plans.json impl=code.md
	run -0 ks-hypothesize pop/gen-002
	run prompt 1
	assert_output --partial "(% of SOL: the shape's speed of light, the least time its work can take on this machine, over its time; overall, their geometric mean)"
	assert_output --partial "- g000c0 (base -, reference -; plan: (the seed kernel)): status ok, score 80.00 us ±2.0 %, 33.5 % of SOL overall
  per shape: 256x256x256 80.00 us (spread unknown) (50.0 % of SOL); 512x384x320 80.00 us (spread unknown) (10.0 % of SOL); 200x640x448 80.00 us (spread unknown) (75.0 % of SOL);"
	assert_output --partial "status ok, score 33.47 us ±2.0 %, 80.0 % of SOL overall"
	assert_output --partial $'## How far the base is from the speed of light\n\nThe speed of light (SOL) of a shape is the least time its work can take: its FLOPs (2*M*N*K) at the peak measured on the bench machine before the kernel ran, 450 GFLOP/s. The base g000c0'
	# the peak's threads and vectors are the target section's, from the newest bench
	assert_output --regexp $'\n- Peak: 450 GFLOP/s fp32 with all 2 OpenMP threads, [0-9.]+ GFLOP/s per physical core \\(512-bit vectors, fused multiply-add\\), measured by the runner before g001c0 ran\\.\n'
	assert_output --partial ". The base g000c0 runs at 33.5 % of SOL overall (the geometric mean over the shapes). Furthest from it: 512x384x320 at 10.0 %, 256x256x256 at 50.0 %; closest: 200x640x448 at 75.0 %. The search stops once a kernel reaches 90 % of SOL on every shape (KS_SOL_STOP)."
	# the writer sees the base's shares too
	run -0 ks-implement pop/gen-002/c0
	run prompt 2
	assert_output --partial "Measured: score 80.00 us ±2.0 %, 33.5 % of SOL overall; per shape: 256x256x256 80.00 us (spread unknown) (50.0 % of SOL);"
}

@test "a problem without a speed of light says so, and shows times alone" {
	use three
	mkdir -p pop/gen-002
	jq -n '{base: "g001c0", reference: "g000c0", reason: "fastest"}' >pop/gen-002/select.json
	serve hyp=plans.json
	run -0 ks-hypothesize pop/gen-002
	run prompt 1
	assert_output --partial $'## How far the base is from the speed of light\n\nThe problem gives no speed of light on this target: judge the kernels by their times.\n'
	refute_output --partial "% of SOL"
}

@test "implement in generation 1: the reference is the base, shown once" {
	use seed
	serve hyp=plans.json impl=code.md
	run -0 ks-hypothesize pop/gen-001
	run -0 ks-implement pop/gen-001/c0
	run prompt 2
	assert_output --partial $'The reference kernel is the base itself, g000c0: there is no other to learn from yet.\n'
	refute_output --partial "## A reference kernel worth learning from"
}

@test "hypothesize and implement show the base's build warnings, named as its file; a clean build shows none" {
	# (before: a kernel that built was shown with no word of its warnings: ptxas's "wgmma.mma_async
	# instructions are serialized" never reached the model)
	use seed
	run -0 ks-build pop/gen-000/c0
	serve hyp=plans.json impl=code.md
	run -0 ks-hypothesize pop/gen-001
	run -0 prompt 1
	refute_output --partial "Its build warned"
	printf 'static int unused_thing_xyz;\n' >>pop/gen-000/c0/kernel.c
	rm pop/gen-000/c0/build.json
	run -0 ks-build pop/gen-000/c0
	run -0 jq -r .diagnostics pop/gen-000/c0/build.json
	assert_output --partial "unused_thing_xyz"
	rm pop/gen-001/hypotheses.json
	KS_LLM_CACHE=off run -0 ks-hypothesize pop/gen-001
	run -0 ks-implement pop/gen-001/c0
	local i
	for i in 2 3; do
		run -0 prompt "$i"
		assert_output --regexp $'Its build warned \\(the compiler.s words, for this kernel.s code\\):\n\n```\nkernel\\.c:[0-9]+:[0-9]+: warning: .unused_thing_xyz. defined but not used'
		refute_output --partial "$PWD/pop"
	done
}

@test "implement: a kernel that does not compile goes back to the model with the diagnostics; the fix is handed over" {
	use seed
	sed 's/^\tint i0;$/\tint i0 = undeclared_thing_xyz;/' code.c >broken.c
	run grep -c undeclared_thing_xyz broken.c
	assert_output 1
	printf '```c\n%s\n```\n' "$(cat broken.c)" >broken
	printf 'Fixed:\n```c\n%s\n```\n' "$(cat code.c)" >fixed
	serve hyp=plans.json impl=broken@1000/400,fixed@1500/500
	run -0 ks-hypothesize pop/gen-001
	run -0 ks-implement pop/gen-001/c0
	run llm_log .model
	assert_output $'hyp\nimpl\nimpl'
	# the repair request: the broken code and the compiler's error
	run prompt 3
	assert_output --partial "$(cat broken.c)"
	assert_output --regexp "undeclared_thing_xyz.{0,20} undeclared"
	assert_output --partial "error"
	# named as the model's file, not the temporary build's (a rerun's prompt is the same: issue 28)
	assert_output --regexp $'\nkernel\\.c:[0-9]+:[0-9]+: error: .undeclared_thing_xyz. undeclared'
	refute_output --partial "/ks-implement."
	# with the plan it carries out (kept plan 1 of plans.json)
	assert_output --partial "## The plan it carries out: Loop order ikj"$'\n\n'"stream rows of B, vectorize over j"
	assert_output --partial $'Changes to make:\n\nuse the i-k-j loop order'
	# ks-implement hands over the fix, and keeps the repair in its own file
	cmp code.c pop/gen-001/c0/kernel.c
	run jf pop/gen-001/c0/candidate.json '.repairs | length' '.repairs[0].try' '.repairs[0].ok' \
		'.repairs[0].diagnostics | contains("undeclared_thing_xyz")' .usage .model
	assert_output $'1\n1\ntrue\ntrue\n{"calls":2,"cached_calls":0,"prompt_tokens":2500,"completion_tokens":900}\nimpl'
	assert_file_exists pop/gen-001/c0/llm/repair1-1.md
	# the compile check left nothing in the candidate's folder but its own files
	run ls -A pop/gen-001/c0
	assert_output $'candidate.json\nkernel.c\nllm'
	# made again from nothing, repair included, it is answered from the cache: the same prompts, no request
	mv pop/gen-001/c0 made
	run -0 ks-implement pop/gen-001/c0
	assert_equal "$(llm_requests)" 3
	cmp made/kernel.c pop/gen-001/c0/kernel.c
	# ks-build compiles and records, and asks nothing
	run -0 ks-build pop/gen-001/c0
	assert_equal "$(llm_requests)" 3
	run jf pop/gen-001/c0/build.json .ok 'has("repairs")'
	assert_output $'true\nfalse'
	assert_file_executable pop/gen-001/c0/runner
	run -0 ks-bench pop/gen-001/c0
	assert_equal "$(jget pop/gen-001/c0/bench.json .status)" ok
}

@test "implement: the compile check waits for a CPU bench, and lets go of the CPU while the model repairs" {
	use seed
	lock="$KS_LOCK_DIR/kernel-scientist-bench-$(hostname)-cpu.lock"
	sed 's/^\tint i0;$/\tint i0 = undeclared_thing_xyz;/' code.c >broken.c
	printf '```c\n%s\n```\n' "$(cat broken.c)" >broken
	printf 'Fixed:\n```c\n%s\n```\n' "$(cat code.c)" >fixed
	# the repair's reply comes 3 s after its request
	llm_server_start "$(script_of hyp=plans.json impl=broken,fixed | jq -c '.impl[1].delay_s = 3')"
	export KS_HYPOTHESIZE_MODEL=hyp KS_IMPLEMENT_MODEL=impl
	run -0 ks-hypothesize pop/gen-001
	# a CPU bench holds the CPU: the first compile check waits for it, and says so
	echo "ks-bench 4242 on other/gen-000/c0" >"$lock"
	# (-o: the lock is flock's own, not its command's, so that killing flock lets go)
	flock -o -x "$lock" sh -c 'touch held; exec sleep 60' 3>&- &
	holder=$!
	for ((i = 0; i < 500; i++)); do [ -e held ] && break; sleep 0.02; done
	KS_QUIET=0 ks-implement pop/gen-001/c0 2>implement.err &
	implement=$!
	for ((i = 0; i < 500; i++)); do grep -q waiting implement.err && break; sleep 0.02; done
	run cat implement.err
	assert_line "ks-implement: waiting: '$lock' is held by ks-bench 4242 on other/gen-000/c0"
	assert_equal "$(llm_requests)" 2
	# its command ends, and flock with it: the lock is free
	pkill -P $holder
	wait $holder || true
	# while the model works on its repair, ks-implement holds no share of the CPU
	for ((i = 0; i < 500; i++)); do [ "$(llm_requests)" -ge 3 ] && break; sleep 0.02; done
	assert_equal "$(llm_requests)" 3
	flock -n -x "$lock" true || fail "ks-implement held the CPU's lock while it waited for the model"
	wait $implement || fail "ks-implement failed: $(cat implement.err)"
	cmp code.c pop/gen-001/c0/kernel.c
}

@test "implement: a kernel still broken after KS_REPAIR_TRIES repairs is handed over and benched as build_failed" {
	use seed
	sed 's/^\tint i0;$/\tint i0 = undeclared_thing_xyz;/' code.c >broken.c
	printf '```c\n%s\n```\n' "$(cat broken.c)" >broken
	serve hyp=plans.json impl=broken,broken
	run -0 ks-hypothesize pop/gen-001
	KS_REPAIR_TRIES=1 run -0 ks-implement pop/gen-001/c0
	assert_equal "$(llm_requests)" 3
	run jf pop/gen-001/c0/candidate.json '.repairs | length' '.repairs[0].ok' 'has("rejected")'
	assert_output $'1\nfalse\nfalse'
	cmp broken.c pop/gen-001/c0/kernel.c
	run -0 ks-build pop/gen-001/c0
	assert_equal "$(llm_requests)" 3
	run -0 ks-bench pop/gen-001/c0
	assert_equal "$(jget pop/gen-001/c0/bench.json .status)" build_failed
}

@test "implement: with KS_REPAIR_TRIES=0 nothing is compiled or asked and the candidate is build_failed" {
	use seed
	sed 's/^\tint i0;$/\tint i0 = undeclared_thing_xyz;/' code.c >broken.c
	printf '```c\n%s\n```\n' "$(cat broken.c)" >broken
	serve hyp=plans.json impl=broken,code.md
	run -0 ks-hypothesize pop/gen-001
	KS_REPAIR_TRIES=0 run -0 ks-implement pop/gen-001/c0
	run -0 ks-build pop/gen-001/c0
	assert_equal "$(llm_requests)" 2
	run jf pop/gen-001/c0/build.json .ok 'has("repairs")' '.diagnostics | contains("undeclared_thing_xyz")'
	assert_output $'false\nfalse\ntrue'
	run jf pop/gen-001/c0/candidate.json 'has("repairs")' .usage.calls
	assert_output $'false\n1'
	cmp broken.c pop/gen-001/c0/kernel.c
	run -0 ks-bench pop/gen-001/c0
	assert_equal "$(jget pop/gen-001/c0/bench.json .status)" build_failed
}

@test "implement: a bad KS_REPAIR_TRIES is named and nothing is written" {
	use seed
	printf '```c\n%s\n```\n' "$(cat code.c)" >good
	serve hyp=plans.json impl=good
	run -0 ks-hypothesize pop/gen-001
	KS_REPAIR_TRIES=many run -1 ks-implement pop/gen-001/c0
	assert_output "ks-implement: KS_REPAIR_TRIES must be an integer from 0 to 10, not 'many'"
	assert_file_not_exists pop/gen-001/c0
	# nothing was asked: the setting is checked before any call is paid for
	assert_equal "$(llm_requests)" 1
}

@test "prompts are read at run time from KS_PROMPTS_DIR: an added line reaches the model, the comment does not" {
	use three
	cp -r "$KS_ROOT/prompts" myprompts
	echo 'Prefer kernels whose name ends in c0.' >>myprompts/select.md
	echo '{"base": "g001c0", "reference": "g000c0", "reason": "r"}' >sel.json
	serve sel=sel.json
	KS_PROMPTS_DIR=$BATS_TEST_TMPDIR/myprompts run -0 ks-select pop/gen-002
	assert_equal "$(llm_requests)" 1
	run prompt 1
	assert_output --partial 'Prefer kernels whose name ends in c0.'
	refute_output --partial '<!--'
	refute_output --partial 'Edit freely'
	assert_output --regexp '^We are optimizing a kernel by evolution; this is generation 2\.'
	assert_equal "$(jget pop/gen-002/select.json .base)" g001c0
}

@test "an unknown placeholder in a prompt: one error line naming the template, exit 1, nothing asked" {
	use three
	cp -r "$KS_ROOT/prompts" myprompts
	echo 'And mind {{nonsense}}.' >>myprompts/select.md
	echo '{"base": "g001c0", "reference": "g000c0", "reason": "r"}' >sel.json
	serve sel=sel.json
	KS_PROMPTS_DIR=$BATS_TEST_TMPDIR/myprompts run -1 --separate-stderr ks-select pop/gen-002
	assert_equal "$(llm_requests)" 0
	assert_file_not_exists pop/gen-002/select.json
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "expected one line on stderr, got: $stderr"
	[[ ${stderr_lines[0]} == "ks-select: "*"select.md"*"{{nonsense}}"* ]] ||
		fail "the line does not name the template and the placeholder: $stderr"
	# the file named is the one read, not the project's own prompts/select.md
	assert_equal "${stderr_lines[0]}" "ks-select: '$BATS_TEST_TMPDIR/myprompts/select.md': unknown placeholder {{nonsense}} (known: see the comment at its top)"
}

@test "a plan of the offline fallback (it has changes) is applied without asking the model" {
	use seed
	echo 'no JSON here' >prose
	serve hyp=prose impl=code.md
	run -0 ks-hypothesize pop/gen-001
	assert_equal "$(llm_requests)" 2
	run -0 jf pop/gen-001/hypotheses.json 'has("fallback")' .model
	assert_output $'true\nhyp'
	local s changes
	for s in 0 1 2; do
		run -0 ks-implement pop/gen-001/c$s
		changes=$(jget pop/gen-001/c$s/candidate.json .plan.changes)
		run jf pop/gen-001/c$s/candidate.json .model 'has("rejected")' '.plan | has("changes")'
		assert_output $'offline\nfalse\ntrue'
		# exactly the #define lines of the changes differ from the base
		run diff pop/gen-000/c0/kernel.c pop/gen-001/c$s/kernel.c
		assert_output --regexp "^[0-9]+(,[0-9]+)?c[0-9]+"
		local -a defines
		mapfile -t defines < <(jq -r 'to_entries[] | "\(.key)=\(.value)"' <<<"$changes")
		with_defines pop/gen-000/c0/kernel.c "${defines[@]}" | cmp -s - pop/gen-001/c$s/kernel.c ||
			fail "slot $s: kernel.c is not the base with $changes"
	done
	assert_equal "$(llm_requests)" 2
	# the build asks nothing either (offline code is not repaired)
	run -0 ks-build pop/gen-001/c0
	assert_equal "$(llm_requests)" 2
	assert_equal "$(jget pop/gen-001/c0/build.json .ok)" true
}
