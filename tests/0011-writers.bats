#!/usr/bin/env bats
# One writer per file: a generation run under strace, every file of the
# population it writes or reads checked against the writers-and-readers
# table of man/population.5 (tests/helper/writers.py), with the paths
# that only an LLM run takes: transcripts, a repair, a rejected candidate.

bats_require_minimum_version 1.5.0
load helper/common
load helper/llm

setup() {
	command -v strace >/dev/null || skip "strace is not installed (tools/ks-deps test installs it)"
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	llm_server_stop
}

# traced CMD...: runs CMD under strace, one trace file tr.PID per process
traced() {
	strace -f -ff -qq -o "$BATS_TEST_TMPDIR/tr" \
		-e trace=execve,clone,clone3,fork,vfork,open,openat,creat,rename,renameat,renameat2,unlink,unlinkat "$@"
}

writers() {
	python3 "$KS_ROOT/tests/helper/writers.py" "$KS_ROOT/man/population.5" "$BATS_TEST_TMPDIR/tr" pop
}

# fenced FILE: a reply holding FILE as the kernel
fenced() {
	printf '```c\n%s\n```\n' "$(cat "$1")"
}

@test "every file a generation writes has the one writer population(5) names, and is read only by its readers" {
	seed=$KS_ROOT/kernels/sgemm/seed.c
	sed 's/^\tint i0;$/\tint i0 = undeclared_thing_xyz;/' "$seed" >broken.c
	grep -q undeclared_thing_xyz broken.c
	sed 's/^sgemm(int M/matmul(int M/' "$seed" >noentry.c
	plan='{"title": "Loop order", "description": "d", "rubric": "r", "uplift_min": 1, "uplift_max": 5, "innovation": 3}'
	# select and hypothesize answer once; implement: c0 broken then fixed
	# (a repair), c1 without the entry point twice (rejected)
	jq -n --rawfile broken <(fenced broken.c) --rawfile fixed <(fenced "$seed") --rawfile noentry <(fenced noentry.c) \
		--argjson plan "$plan" '{
		sel: [{content: ({base: "g000c0", reference: "g000c0", reason: "r"} | tojson)}],
		hyp: [{content: ({avenues: [range(10) | "avenue \(.)"], plans: [range(5) as $i | $plan | .title += " \($i)"]} | tojson)}],
		impl: [{content: $broken}, {content: $fixed}, {content: $noentry}, {content: $noentry}]}' >script.json
	llm_server_start "$(cat script.json)"
	export KS_SELECT_MODEL=sel KS_HYPOTHESIZE_MODEL=hyp KS_IMPLEMENT_MODEL=impl
	run -0 traced sh -ec '
		ks-init -p sgemm -t cpu -k 2 pop
		ks-implement pop/gen-000/c0; ks-build pop/gen-000/c0; ks-bench pop/gen-000/c0; ks-bench -H pop/gen-000/c0
		ks-select pop/gen-001; ks-profile pop/gen-001; ks-hypothesize pop/gen-001
		for s in 0 1; do ks-implement pop/gen-001/c$s; ks-build pop/gen-001/c$s; ks-bench pop/gen-001/c$s; done
		ks-build pop/gen-001/c0
		ks-report pop >/dev/null
		ks-query -r pop >/dev/null; ks-query -e pop >/dev/null; ks-query -t 2 pop >/dev/null
		ks-report --html -o pop/report.html pop'
	# the run took the paths it is meant to check
	run jq -r '.repairs[0].ok, .rejected // "-"' pop/gen-001/c0/candidate.json
	assert_output $'true\n-'
	run jq -r .status pop/gen-001/c0/bench.json pop/gen-001/c1/bench.json
	assert_output $'ok\nrejected'
	run writers
	assert_success   # (prints each breach when it fails)
	assert_line "run.json ks-init"
	assert_line "gen-NNN/select.json ks-select"
	assert_line "gen-NNN/hypotheses.json ks-hypothesize"
	assert_line "gen-NNN/llm/hypothesize-T.md ks-hypothesize"
	assert_line "gen-NNN/cS/kernel.c ks-implement"
	assert_line "gen-NNN/cS/candidate.json ks-implement"
	assert_line "gen-NNN/cS/llm/repairR-T.md ks-implement"
	assert_line "gen-NNN/cS/build.json ks-build"
	assert_line "gen-NNN/cS/runner ks-build"
	assert_line "gen-NNN/cS/bench.json ks-bench"
	assert_line "report.html ks-report"
}

@test "the writer check fails when a tool writes another's file" {
	ks-init -p sgemm -t cpu -k 1 pop
	ks-implement pop/gen-000/c0
	# -o can point any tool at any file: ks-build writing bench.json breaks the table
	run -0 traced ks-build -o pop/gen-000/c0/bench.json pop/gen-000/c0
	run -1 writers
	assert_output "ks-build writes gen-000/c0/bench.json, whose one writer is ks-bench"
}

@test "target external: the evaluator's scratch is ks-bench's, and the files are those of any generation" {
	mkdir -p kernels
	cp -r "$KS_ROOT/kernels/common" kernels/
	cp -r "$KS_ROOT/kernels/sgemm" kernels/xsgemm
	jq '.name = "xsgemm" | .targets = ["external"]' "$KS_ROOT/kernels/sgemm/problem.json" >kernels/xsgemm/problem.json
	export KS_KERNELS_DIR=$BATS_TEST_TMPDIR/kernels
	# an evaluator that uses its working directory, and times every shape
	cat >eval.sh <<'EOF2'
#!/bin/sh
cp "$KS_EVAL_SOURCE" ./copy
printf '{"status": "correct", "shapes": %s}\n' "$(echo "$KS_EVAL_SHAPES" | jq -c 'map({shape: ., time_us: 5})')"
EOF2
	chmod +x eval.sh
	export KS_EVAL_CMD=$BATS_TEST_TMPDIR/eval.sh
	run -0 traced sh -ec '
		ks-init -p xsgemm -t external -k 2 pop
		ks-implement pop/gen-000/c0; ks-build pop/gen-000/c0; ks-bench pop/gen-000/c0; ks-bench -H pop/gen-000/c0
		ks-select pop/gen-001; ks-hypothesize pop/gen-001
		for s in 0 1; do ks-implement pop/gen-001/c$s; ks-build pop/gen-001/c$s; ks-bench pop/gen-001/c$s; done
		ks-report pop >/dev/null'
	run jq -r .status pop/gen-001/c0/bench.json pop/gen-001/c1/bench.json
	assert_output $'ok\nok'
	run writers
	assert_success
	assert_line "gen-NNN/cS/bench.json ks-bench"
	assert_line "gen-NNN/cS/build.json ks-build"
}
