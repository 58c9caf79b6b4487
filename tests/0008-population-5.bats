#!/usr/bin/env bats
# man/population.5, the population contract: it renders without a warning,
# names every status ks-bench can write, and documents every key that the
# files of a real generation hold, each in the section of its file.

bats_require_minimum_version 1.5.0
load helper/common
load helper/llm

PAGE="$KS_ROOT/man/population.5"

setup_file() {
	# generations 0 and 1 with K=1, made by the tools themselves (no make: seconds)
	cd "$BATS_FILE_TMPDIR" || return
	ks-init -p sgemm -t cpu -k 1 pop
	for d in pop/gen-000/c0 pop/gen-001/c0; do
		[ "$d" = pop/gen-000/c0 ] || { ks-select pop/gen-001 && ks-hypothesize pop/gen-001; } || return
		ks-implement "$d" && ks-build "$d" && ks-bench "$d" || return
	done
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	llm_server_stop
}

# section TITLE: the lines of subsection ".Ss TITLE" of the page.
section() {
	awk -v t="$1" '$0 == ".Ss " t { on = 1; next } /^\.S[sh] / { on = 0 } on' "$PAGE"
}

# items TITLE: the field names of the ".It Va a , b Pq type" items of a section.
items() {
	section "$1" | sed -n 's/^\.It Va //p' | sed 's/ Pq .*//' | tr -d ',' | tr -s ' ' '\n' | sed '/^$/d' | sort -u
}

# mentioned TITLE: every field name of a section, items or inline (".Va name").
mentioned() {
	{ items "$1"; section "$1" | grep -oE '(^|[ .])Va [A-Za-z_]+' | awk '{ print $2 }'; } | sort -u
}

# assert_keys LISTER TITLE KEY...: every KEY is among what LISTER finds in section TITLE.
assert_keys() {
	local lister=$1 title=$2 have key missing=
	shift 2
	[ -n "$(section "$title")" ] || fail "population(5) has no subsection '$title'"
	have=$($lister "$title")
	for key in "$@"; do
		grep -qxF -- "$key" <<<"$have" || missing="$missing $key"
	done
	[ -z "$missing" ] || fail "population(5), section '$title', does not document:$missing"
}

@test "population(5) renders without a warning: mandoc, groff -ww, man -l" {
	run mandoc -T lint -W warning "$PAGE"
	assert_success
	assert_output ""
	mandoc -T utf8 "$PAGE" >/dev/null
	# groff too, as man-db renders pages (the writers table once made it warn "can't break line")
	run -0 --separate-stderr groff -ww -mandoc -Tutf8 -z "$PAGE"
	assert_equal "$stderr" ""
	run -0 --separate-stderr env MANWIDTH=80 man -l "$PAGE"
	assert_equal "$stderr" ""
	assert_line NAME
	assert_line --regexp '^ +population .+ the directory in which the kernel-scientist tools evolve'
}

@test "population(5) lists exactly the statuses that ks-bench can write" {
	local written documented
	# new_result(b, "STATUS", ...), ks_verdict_new(b, "STATUS", ...) and ks_json_set_str(res, "status", "STATUS"),
	# in ks-bench and the verdict it makes of the harness's output
	written=$(grep -ohE '((new_result|ks_verdict_new)\([a-z_&]+, |"status", )"[a-z_]+"' "$KS_ROOT/tools/ks-bench.c" \
		"$KS_ROOT/tools/lib/ks_verdict.c" | grep -oE '"[a-z_]+"$' | tr -d '"' | sort -u)
	[ "$(wc -l <<<"$written")" -ge 7 ] || fail "found only these statuses in ks-bench.c and ks_verdict.c: $written"
	# the ".It Li STATUS" items of the list under ".It Va status"
	documented=$(section bench.json | awk '/^\.It Va status / { on = 1; next } on && /^\.El/ { exit }
		on && /^\.It Li / { print $3 }' | sort -u)
	assert_equal "$documented" "$written"
}

@test "population(5) documents every key of a generation's files, in the section of each file" {
	local p=$BATS_FILE_TMPDIR/pop
	# shellcheck disable=SC2046
	assert_keys items run.json $(jq -r 'keys[]' "$p/run.json")
	# (in a run made with KS_KERNELS_DIR only)
	assert_keys items run.json kernels_dir
	assert_keys mentioned run.json $(jq -r '.models | keys[]' "$p/run.json")
	assert_keys items select.json $(jq -r 'keys[]' "$p/gen-001/select.json")
	assert_keys items hypotheses.json $(jq -r 'keys[], (.plans[] | keys[])' "$p/gen-001/hypotheses.json")
	for c in gen-000/c0 gen-001/c0; do
		assert_keys items candidate.json $(jq -r 'keys[]' "$p/$c/candidate.json")
		assert_keys mentioned candidate.json $(jq -r '(.parents, .usage) | keys[]' "$p/$c/candidate.json")
		assert_keys items build.json $(jq -r 'keys[]' "$p/$c/build.json")
		assert_keys items bench.json $(jq -r 'keys[], (.results[] | keys[])' "$p/$c/bench.json")
		assert_keys mentioned bench.json $(jq -r '.machine | keys[]' "$p/$c/bench.json")
	done
	# a plan copied into candidate.json is documented as in hypotheses.json, plus "index"
	assert_keys items hypotheses.json $(jq -r '.plan | del(.index) | keys[]' "$p/gen-001/c0/candidate.json")
	assert_keys mentioned candidate.json index
	assert_equal "$(jq -r .status "$p/gen-001/c0/bench.json")" ok
}

@test "population(5) documents the keys of what an LLM call leaves: the stage's file, the ledger, the transcript, the cache" {
	cp -a "$BATS_FILE_TMPDIR/pop" pop
	rm pop/gen-001/select.json
	llm_server_start '{"*": [{"content": "{\"base\": \"g000c0\", \"reference\": \"g000c0\", \"reason\": \"the only one\"}"}]}'
	run -0 ks-select pop/gen-001
	assert_keys items select.json $(jq -r 'keys[]' pop/gen-001/select.json)
	assert_keys mentioned candidate.json $(jq -r '.usage | keys[]' pop/gen-001/select.json)
	assert_keys items llm-usage.jsonl $(jq -r 'keys[]' pop/llm-usage.jsonl)
	assert_keys mentioned "Transcripts and the cache" $(jq -r 'keys[], (.usage | keys[])' pop/gen-001/llm/select-1.json)
	assert_file_exists pop/gen-001/llm/select-1.md
	assert_keys mentioned "Transcripts and the cache" $(jq -r 'keys[]' pop/llm-cache/*.json)
}

@test "the writers table: one row a file, one writer, tools as readers; every file a generation leaves is in it" {
	local rows paths f rel
	rows=$(grep '^\.It Pa .* Ta ' "$PAGE")
	[ "$(wc -l <<<"$rows")" -ge 15 ] || fail "too few rows in the writers table: $rows"
	# .It Pa PATH Ta Nm WRITER Ta READER , READER ...   (or \(em: none)
	run grep -vE '^\.It Pa [^ ]+ Ta Nm ks-[a-z]+ Ta (\\\(em|ks-[a-z]+( , ks-[a-z]+)*)$' <<<"$rows"
	assert_output ""
	paths=$(awk '{ print $3 }' <<<"$rows" | sort)
	assert_equal "$(uniq -d <<<"$paths")" ""
	# the shared files are the exceptions below the table, not rows
	run grep -E '^(llm-usage\.jsonl|llm-cache|\.lock)' <<<"$paths"
	assert_output ""
	while IFS= read -r f; do
		rel=$(sed -E 's#^gen-[0-9]{3}/#gen-NNN/#; s#^gen-NNN/c[0-9]+/#gen-NNN/cS/#; s#-[0-9]+\.(json|md)$#-T.\1#' <<<"$f")
		grep -qxF -- "$rel" <<<"$paths" || fail "'$f' of a generation is not in the writers table (as '$rel')"
	done < <(cd "$BATS_FILE_TMPDIR/pop" && find . -type f ! -name '.*' | sed 's#^\./##' | sort)
}
