#!/usr/bin/env bats
# What the prompts show of a population too large to list (issue 13,
# item 1): every section within KS_CONTEXT_CHARS, and still the best
# kernels in full, the lineage of the base and the reference, a line per
# generation, and findings grouped by the plan's kind.  A made-up
# population of 3,000 kernels (tests/helper/synthetic-pop.py).

bats_require_minimum_version 1.5.0
load helper/common
load helper/llm

setup_file() {
	cd "$BATS_FILE_TMPDIR" || return
	make -s --no-print-directory -C "$KS_ROOT" generation N=0 POP="$BATS_FILE_TMPDIR/big" >/dev/null
	python3 "$KS_ROOT/tests/helper/synthetic-pop.py" big 600
}

nl=$'\n'

setup() {
	cd "$BATS_TEST_TMPDIR"
	cp -r "$BATS_FILE_TMPDIR/big" pop
	export KS_CONTEXT_CHARS=8000
}

teardown() {
	llm_server_stop
}

# section N HEADING: the text under "## HEADING" in the prompt of request N, up to the next "## " or the reply's format
section() {
	llm_request "$1" '.body.messages[1].content' |
		awk -v h="## $2" '$0 == h { on = 1; next } on && (/^## / || /^Reply with only/) { exit } on' >section.txt
	cat section.txt
}

# within LIMIT: section.txt holds at most LIMIT characters, not counting the
# blank lines the template puts around the placeholder (the text's own last
# newline counts)
within() {
	local n
	n=$(python3 -c 'import sys; print(len(open("section.txt").read().strip("\n")) + 1)')
	[ "$n" -le "$1" ] || fail "the section has $n characters, more than $1"
}

@test "select, 3,000 kernels: the population within KS_CONTEXT_CHARS, with the best kernels in full and every generation counted" {
	local best
	best=$(jq -r '.best[0]' pop/expected.json)
	llm_server_start "$(jq -nc --arg b "$best" '{fixture: [{content: ({base: $b, reference: $b, reason: "the best"} | tojson)}]}')"
	run -0 ks-select pop/gen-601
	run -0 section 1 "The population"
	within 8000
	assert_output --partial "(3001 kernels: more than KS_CONTEXT_CHARS=8000 characters in full, so a selection)"
	local id
	for id in $(jq -r '.best[]' pop/expected.json); do
		assert_output --regexp "(^|$nl)- $id \(base g[0-9]{3}c[0-9], reference g[0-9]{3}c[0-9]; plan: [^)]*\): status ok, score [0-9.]+ us ±[0-9.]+ %$nl  per shape: "
	done
	assert_line "### Each generation, the newest first"
	assert_line --regexp "^- generation 600: 5 kernels, 5 ok; best [0-9.]+ us \(g600c[0-9]\)$"
	assert_line --regexp "^- generation 599: 5 kernels, 1 ok, 2 incorrect, 1 build_failed, 1 rejected; best [0-9.]+ us \(g599c0\)$"
	# the oldest generations that do not fit, summed up in one line that counts them all
	assert_line --regexp "^- generations 0 to [0-9]+: [0-9]+ kernels, [0-9]+ ok, [0-9]+ incorrect, [0-9]+ build_failed, [0-9]+ rejected; best "
	assert_equal "$(jq -r .base pop/gen-601/select.json)" "$best"
}

@test "hypothesize, 3,000 kernels: population and findings each within KS_CONTEXT_CHARS; the base's lineage and each kind's largest win are there" {
	local best ref
	best=$(jq -r '.best[0]' pop/expected.json)
	ref=$(jq -r '.second_line' pop/expected.json)
	mkdir pop/gen-601
	jq -n --arg b "$best" --arg r "$ref" '{base: $b, reference: $r, reason: "made by the test"}' >pop/gen-601/select.json
	plans_reply() {
		jq -n '{avenues: [range(10) | "avenue \(.)"], plans: [range(5) | {title: "plan \(.)", kind: "tiling",
			description: "d", rubric: "r", uplift_min: 0, uplift_max: 10, innovation: 5}]}'
	}
	llm_server_start "$(jq -nc --arg t "$(plans_reply)" '{fixture: [{content: $t}]}')"
	run -0 ks-hypothesize pop/gen-601
	run -0 section 1 "The population"
	within 8000
	# the base and its nearest ancestors, a line each, then the count of the rest back to the seed
	assert_line "### The lineage of the base $best: its base, that kernel's base, back to the seed"
	local id
	for id in $(jq -r '.lineage[1:4][]' pop/expected.json); do
		assert_output --regexp "(^|$nl)- $id( \(plan: [^)]*\): ok, [0-9.]+ us| \(above\))$nl"
	done
	assert_line --regexp "^- \.\.\. and [0-9]+ earlier ancestors, back to the seed$"
	assert_line "### The lineage of the reference $ref: its base, that kernel's base, back to the seed"
	run -0 section 1 "Findings of earlier generations (plan, expected uplift, measured result)"
	within 8000
	assert_output --partial "(3000 plans: more than KS_CONTEXT_CHARS=8000 characters in full, so by kind"
	local kind win
	for kind in tiling memory vectorization tuning; do
		win=$(jq -r --arg k "$kind" '.wins[$k]' pop/expected.json)
		assert_line --regexp "^### $kind: 750 plans, [0-9]+ faster than their base \(best \+[0-9.]+%, $win\), [0-9]+ slower, [0-9]+ failed$"
		assert_output --regexp "(^|$nl)- generation [0-9]+, $win from g[0-9]{3}c[0-9]: \"[a-z]+ idea [0-9.]+\" \(expected -5% to \+2[0-4]%\): measured \+"
	done
	# an instructive failure: its reason, in full
	assert_output --regexp "\): incorrect: shape 17x31x9: C\[3\]\[5\] = nan, expected 1\.25 \(idea [0-9.]+\)"
}

@test "a population that fits is listed whole, as before; KS_CONTEXT_CHARS that is not a number is named" {
	make_pop small
	fake_cand small 0 0 ok 100 ''
	fake_cand small 1 0 incorrect 0 '' g000c0 g000c0
	llm_server_start "$(jq -nc '{fixture: [{content: ({base: "g000c0", reference: "g000c0", reason: "r"} | tojson)}]}')"
	run -0 ks-select small/gen-002
	run -0 section 1 "The population"
	# what the figures after a time mean, then each kernel with its noise
	assert_line --index 0 --regexp '^\(± after a shape.s time: about its 95 % interval, '
	assert_line --index 1 "- g000c0 (base -, reference -; plan: (the seed kernel)): status ok, score 100.00 us ±2.0 %"
	assert_line --index 2 "  per shape: 8x8x8 100.00 us (spread unknown); 8x8x8 100.00 us (spread unknown); 8x8x8 100.00 us (spread unknown);"
	assert_line --index 3 "- g001c0 (base g000c0, reference g000c0; plan: -): status incorrect"
	refute_output --partial "KS_CONTEXT_CHARS"
	KS_CONTEXT_CHARS=lots run -1 ks-select small/gen-002
	assert_output "ks-select: KS_CONTEXT_CHARS must be an integer from 1000 to 100000000 (characters of one section of a prompt), not 'lots'"
}
