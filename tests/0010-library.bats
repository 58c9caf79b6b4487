#!/usr/bin/env bats
# The library on its own: the speed-of-light evaluator (tests/unit/bound.c,
# a C program over tools/lib/ks_bound.c), the redaction of keys
# (tests/unit/redact.c over tools/lib/ks_redact.c), the runner's check in
# parts (tests/unit/checkpart.c over kernels/common/ks_harness.c), the judge's
# naming of a pointer argument (tests/unit/sharedarg.c over kernels/common/ks_judge.c), implement's SEARCH/REPLACE
# edits (tests/unit/edit.c over tools/lib/ks_edit.c), the diagnostics a model is shown
# (tests/unit/diag.c over tools/lib/ks_compile.c), the offline proposer's
# model (tests/unit/tmodel.c over tools/lib/ks_offline_model.c), and the one loader of each stage
# file, whose error line names the file and the field (population(5)).

bats_require_minimum_version 1.5.0
load helper/common

setup_file() {
	# the unit tests, built by make (make test builds them first; this makes them when a file runs alone)
	make -s --no-print-directory -C "$KS_ROOT" units
	cd "$BATS_FILE_TMPDIR" || return
	# a finished seed to spoil, one file at a time
	make_pop seeded 1 >/dev/null
	ks-implement seeded/gen-000/c0 && ks-build seeded/gen-000/c0 && ks-bench seeded/gen-000/c0
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	cp -r "$BATS_FILE_TMPDIR/seeded" pop
	C=pop/gen-000/c0
}

# spoil FILE JQ: rewrites FILE through a jq filter
spoil() {
	jq "$2" "$1" >"$1.new" && mv "$1.new" "$1"
}

@test "the work expression and the bound of a shape (tests/unit/bound.c)" {
	run -0 --separate-stderr "$KS_ROOT/tests/unit/bin/bound"
	assert_output "28 cases, 0 failed"
	# each malformed bound is named once, with its file
	assert_equal "$(grep -c "^bound: 'problem.json': field \"bound\" must hold" <<<"$stderr")" 4
}

@test "the offline model: effects recovered, the best predicted fastest, an untested value doubted (tests/unit/tmodel.c)" {
	run -0 "$KS_ROOT/tests/unit/bin/tmodel"
	assert_output "17 cases, 0 failed"
}

@test "a GPU harness's check in parts, merged in any order, is ks_check_f32's verdict (tests/unit/checkpart.c)" {
	run -0 "$KS_ROOT/tests/unit/bin/checkpart"
	assert_output "37 cases, 0 failed"
}

@test "a pointer where one shared buffer ends and the next starts is the next one's start (tests/unit/sharedarg.c)" {
	run -0 "$KS_ROOT/tests/unit/bin/sharedarg"
	assert_output "15 cases, 0 failed"
}

@test "what a message, transcript or log line keeps of an API key (tests/unit/redact.c)" {
	run -0 "$KS_ROOT/tests/unit/bin/redact"
	assert_output "19 cases, 0 failed"
}

@test "diagnostics as a model sees them: no temporary path, the compiler's lines first, the harness's ptxas lines left out (tests/unit/diag.c)" {
	# (before: a repair prompt quoted /tmp/ks-implement.HL9MeR/kernel.c, which made a rerun's prompt new and paid,
	# and an nvcc error came after 40 lines of the harness's own ptxas info)
	run -0 "$KS_ROOT/tests/unit/bin/diag"
	assert_output "3 cases, 0 failed"
}

@test "the library's layers: a header includes the one below alone, a file calls only its layer and those below, no cycle" {
	run -0 python3 "$KS_ROOT/tests/helper/layers.py" "$KS_ROOT/tools/lib"
	assert_line --index 0 "0 ks_core.h: ks_csv.c ks_file.c ks_hash.c ks_json.c ks_util.c"
	assert_line --regexp '^8 ks_stages.h: '
	# the check fails on a header that includes one above it, or a source that includes another layer's
	cp -r "$KS_ROOT/tools/lib" lib
	sed -i 's/^#include "ks_records.h"$/#include "ks_llm.h"/' lib/ks_pop.h
	sed -i 's/^#include "ks_core.h"$/#include "ks_core.h"\n#include "ks_ask.h"/' lib/ks_csv.c
	run -1 python3 "$KS_ROOT/tests/helper/layers.py" lib --sources-only
	assert_line "ks_llm.h is included by ks_ask.h, ks_pop.h: one layer above each"
	assert_line "ks_pop.h (which includes ks_llm.h) is in no chain up from ks_core.h"
	assert_line "ks_csv.c includes ks_core.h, ks_ask.h: one header of the library, its layer's"
}

@test "a candidate's kernel file has each compiled target's extension: the population finds it (tests/unit/kernelfile.c)" {
	run -0 "$KS_ROOT/tests/unit/bin/kernelfile"
	assert_output "4 cases, 0 failed"
}

@test "SEARCH/REPLACE edits: applied in order, matching whole lines once, or the reason (tests/unit/edit.c)" {
	run -0 "$KS_ROOT/tests/unit/bin/edit"
	assert_output "17 cases, 0 failed"
}

@test "candidate.json: a missing field, a wrong type, an id that is not the folder's are named" {
	spoil $C/candidate.json 'del(.model)'
	run -1 ks-select pop/gen-001
	assert_output "ks-select: '$C/candidate.json': field \"model\" is missing"
	cp "$BATS_FILE_TMPDIR/seeded/gen-000/c0/candidate.json" $C/
	spoil $C/candidate.json '.parents.base = 3'
	run -1 ks-select pop/gen-001
	assert_output "ks-select: '$C/candidate.json': field \"base\" is not a string"
	cp "$BATS_FILE_TMPDIR/seeded/gen-000/c0/candidate.json" $C/
	spoil $C/candidate.json '.id = "g000c1" | .slot = 1'
	run -1 ks-select pop/gen-001
	assert_output "ks-select: '$C/candidate.json': field \"id\" is g000c1, but the file is the candidate g000c0's"
	spoil $C/candidate.json '.slot = 0'
	run -1 ks-select pop/gen-001
	assert_output "ks-select: '$C/candidate.json': field \"id\" is g000c1, but \"generation\" and \"slot\" say g000c0"
	assert_file_not_exists pop/gen-001/select.json
}

@test "ks-report shows a candidate whose files do not load as unreadable, names the file, and goes on (exit 1)" {
	printf '{"id": ' >$C/bench.json
	run -1 --separate-stderr ks-report pop
	assert_equal "$stderr" "ks-report: '$C/bench.json' is not valid JSON (line 1, column 8)"
	assert_line --regexp '^g000c0 +- +- +unreadable +- +- '
	assert_line "pop: generations 0..0, 1 kernels, 0 correct"
}

@test "bench.json: an unknown status, a score beside a failure, a result without a time are named" {
	spoil $C/bench.json '.status = "fast"'
	run -1 ks-select pop/gen-001
	assert_output "ks-select: '$C/bench.json': field \"status\" is not one of ok, incorrect, build_failed, crashed, timeout, rejected, no_device: 'fast'"
	spoil $C/bench.json '.status = "crashed"'
	run -1 ks-select pop/gen-001
	assert_output "ks-select: '$C/bench.json': field \"score_us\" must be null when status is crashed"
	spoil $C/bench.json '.status = "ok" | .results[0].time_us = "soon"'
	run -1 ks-select pop/gen-001
	assert_output "ks-select: '$C/bench.json': field \"results\": entry 0 needs a \"shape\" object and a positive \"time_us\""
	assert_file_not_exists pop/gen-001/select.json
}

@test "build.json: ks-bench names a missing field, and a rejection beside ok" {
	spoil $C/build.json 'del(.diagnostics)'
	run -1 ks-bench $C
	assert_output "ks-bench: '$C/build.json': field \"diagnostics\" is missing"
	spoil $C/build.json '.diagnostics = "" | .rejected = "no"'
	run -1 ks-bench $C
	assert_output "ks-bench: '$C/build.json': field \"rejected\" is set, but \"ok\" is true"
	# the old verdict stands
	cmp "$BATS_FILE_TMPDIR/seeded/gen-000/c0/bench.json" $C/bench.json
}

@test "build.json's rejection is all ks-bench reads: it never opens candidate.json" {
	spoil $C/build.json '.ok = false | .rejected = "the kernel starts a thread"'
	chmod 000 $C/candidate.json
	run -0 ks-bench $C
	chmod 644 $C/candidate.json
	run jq -r '.status, .message' $C/bench.json
	assert_output $'rejected\nthe kernel starts a thread'
}

@test "select.json: a base that is not a kernel id is named" {
	ks-select pop/gen-001
	spoil pop/gen-001/select.json '.base = "best"'
	run -1 ks-hypothesize pop/gen-001
	assert_output "ks-hypothesize: 'pop/gen-001/select.json': field \"base\" is not a kernel id like g003c1: 'best'"
}

@test "the usage ledger: a line that is not a usage record is named with its number; none is no usage" {
	run -0 ks-report pop
	refute_output --partial "LLM calls"
	printf '%s\n' '{"stage": "select", "model": "m", "prompt_tokens": 10, "completion_tokens": 5, "cached": false}' \
		'{"stage": "select", "model": "m", "prompt_tokens": 10, "completion_tokens": 5, "cached": true}' >pop/llm-usage.jsonl
	run -0 ks-report pop
	assert_line "pop: 2 LLM calls (1 from the cache), 10 prompt and 5 completion tokens billed"
	echo '{"stage": "select"' >>pop/llm-usage.jsonl
	run -1 ks-report pop
	assert_line "ks-report: 'pop/llm-usage.jsonl': line 3 is not a usage record {\"stage\", \"model\", \"prompt_tokens\", \"completion_tokens\", \"cached\", ...}"
}

@test "no cJSON_Parse outside the library's JSON module: every file has one reader" {
	run grep -rl --include="*.[ch]" cJSON_Parse "$KS_ROOT/tools" "$KS_ROOT/tests/unit"
	assert_output "$KS_ROOT/tools/lib/ks_json.c"
}

@test "ks-bench -h names every status bench.json can hold" {
	run -0 ks-bench -h
	for s in $(sed -n 's/^\t"\(ok\)", \(.*\), NULL$/\1, \2/p' "$KS_ROOT/tools/lib/ks_records.c" | tr -d '",'); do
		[[ $output == *"$s"* ]] || fail "ks-bench -h does not name status $s"
		n=$((${n:-0} + 1))
	done
	assert_equal "$n" 7
}

@test "ks-build and ks-bench hold no LLM client: no ks_llm or ks_ask code, no libcurl" {
	for t in ks-build ks-bench ks-profile ks-report; do
		run -0 nm "$KS_TOOLS/$t"
		refute_output --regexp ' T (ks_llm_|ks_ask|ks_prompt_)'
		run -0 ldd "$KS_TOOLS/$t"
		refute_output --partial libcurl
	done
	# ks-init checks the LLM settings (ks_llm_open.c), with no client
	run -0 nm "$KS_TOOLS/ks-init"
	assert_output --regexp ' T ks_llm_check'
	refute_output --regexp ' T (ks_llm_chat|ks_ask|ks_prompt_)'
	run -0 ldd "$KS_TOOLS/ks-init"
	refute_output --partial libcurl
	# the LLM stages do link it: the check above can fail
	run -0 nm "$KS_TOOLS/ks-implement"
	assert_output --regexp ' T ks_llm_chat'
}

@test "ks-init holds no launcher, lock, sandbox or process supervision: it checks their settings alone" {
	local code=' T (ks_launch|ks_launch_note|ks_launch_where|ks_lock_[a-z_]+|ks_sandbox_(enter|wrap|cgroup[a-z_]*|signal_fix)|ks_bwrap[a-z_]*|ks_proc_(run|capture)|ks_device_take|ks_cpu_share)$'

	run -0 nm "$KS_TOOLS/ks-init"
	# ks_settings_check splits KS_LAUNCH's and KS_LAUNCH_BUILD's words and reads KS_SANDBOX (ks_proc_settings.c)
	assert_output --regexp ' T ks_launch_check'
	assert_output --regexp ' T ks_sandbox_mode'
	run -1 grep -E "$code" <<<"$output"
	# ks-bench does link them: the check above can fail
	run -0 nm "$KS_TOOLS/ks-bench"
	run -0 grep -E "$code" <<<"$output"
}
