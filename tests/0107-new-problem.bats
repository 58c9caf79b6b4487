#!/usr/bin/env bats
# docs/new-problem.md, "A new problem, step by step", done literally: the
# files are taken from its blocks marked problem-example, and its commands
# are run.  Then make check on what goes wrong with a problem.

bats_require_minimum_version 1.5.0
load helper/common

setup() {
	cd "$BATS_TEST_TMPDIR"
	export HOME=$BATS_TEST_TMPDIR
}

# readme_problem: ~/problems as docs/new-problem.md makes it
readme_problem() {
	mkdir -p ~/problems/histogram
	cp -r "$KS_ROOT/kernels/common" ~/problems/
	export KS_KERNELS_DIR=~/problems
	# each block: the marker line, then a fenced block, whose lines are the file
	awk -v dir="$HOME/problems" '
		/^<!-- problem-example: .* -->$/ { file = dir "/" $3; next }
		file != "" && /^```/ { if (inblock) { inblock = 0; file = "" } else inblock = 1; next }
		inblock { print > file }' "$KS_ROOT/docs/new-problem.md"
	local f
	for f in problem.json reference.h reference.c harness.c call.c seed.c task.md; do
		[ -s ~/problems/histogram/$f ] || fail "docs/new-problem.md gives no $f"
	done
}

# check ARGS...: make check from the repository, as docs/new-problem.md says
check() {
	make -s --no-print-directory -C "$KS_ROOT" check "$@"
}

@test "docs/new-problem.md's problem: make check says ready, and make generation N=3 measures its 4 configurations" {
	readme_problem
	run -0 check PROBLEM=histogram
	assert_output --regexp '^problem histogram, target cpu: ready: the seed builds, is correct on the 4 test shapes and scores [0-9.]+ us on the 2 benchmark shapes$'
	run -0 gen N=3 PROBLEM=histogram
	assert_output --partial "generation 2: search space exhausted"
	run -0 jq -rs 'map(.status) | unique | join(" ")' pop/gen-*/c*/bench.json
	assert_output ok
	# generation 1 tried LANES 2, 4 and 8: the offline proposer works on it
	run -0 jq -r '[.plans[].changes.LANES] | sort | join(" ")' pop/gen-001/hypotheses.json
	assert_output "2 4 8"
}

@test "make check: a wrong count, a constant output and a changed input each fail it, named" {
	readme_problem
	local seed=~/problems/histogram/seed.c
	cp $seed good.c
	sed -i 's/h\[b\] += part\[l\]\[b\];/h[b] += part[l][b] + (b == 12);/' $seed
	run -2 check PROBLEM=histogram
	assert_line --index 0 --regexp "^problem histogram, target cpu: the seed is incorrect: .*h\[12\] = [0-9]+, expected [0-9]+"
	printf 'void histogram(int n, const unsigned char *x, int *h) { for (int b = 0; b < 256; b++) h[b] = n / 256; }\n' >$seed
	run -2 check PROBLEM=histogram
	assert_line --index 0 --regexp "^problem histogram, target cpu: the seed is incorrect: shape [0-9]+: h\[[0-9]+\] = [0-9]+, expected [0-9]+"
	cat >$seed <<'K'
void
histogram(int n, const unsigned char *x, int *h)
{
	for (int b = 0; b < 256; b++)
		h[b] = 0;
	for (int i = 0; i < n; i++)
		h[x[i]]++;
	((unsigned char *)x)[0] ^= 1;
}
K
	run -2 check PROBLEM=histogram
	assert_line --index 0 --partial "the kernel changed its input x"
	cp good.c $seed
	run -0 check PROBLEM=histogram
}

@test "make check: a seed that does not compile shows the compiler's error; a problem.json mistake names the field" {
	readme_problem
	echo 'this is not C;' >>~/problems/histogram/seed.c
	run -2 check PROBLEM=histogram
	assert_line --index 0 --partial "the seed is build_failed"
	assert_output --partial "error"
	readme_problem
	jset ~/problems/histogram/problem.json 'del(.tolerance)'
	run -2 check PROBLEM=histogram
	assert_output --partial "field \"tolerance\""
	refute_output --partial "ready"
}

@test "make check: problem.json that is not JSON is named at the line and column where it stops" {
	readme_problem
	# (before: "near byte 262", which no editor goes to)
	sed -i 's/"dims": \["n"\],/"dims": ["n"]/' ~/problems/histogram/problem.json
	run -2 check PROBLEM=histogram
	assert_line --index 0 "ks-init: '$HOME/problems/histogram/problem.json' is not valid JSON (line 9, column 3)"
	refute_output --partial ready
}

@test "make check: a shape's mistake names its entry, and a key that is not one of dims" {
	readme_problem
	jset ~/problems/histogram/problem.json '.test_shapes[2] = {"N": 1000}'
	run -2 check PROBLEM=histogram
	assert_line --index 0 "ks-init: '$HOME/problems/histogram/problem.json': test_shapes[2]: field \"n\" is missing (\"N\" is not one of dims)"
	jset ~/problems/histogram/problem.json '.test_shapes[2] = {"n": 1000} | .bench_shapes[1].n = 0'
	run -2 check PROBLEM=histogram
	assert_line --index 0 "ks-init: '$HOME/problems/histogram/problem.json': bench_shapes[1]: field \"n\" is not an integer from 1 to 1073741824"
	jset ~/problems/histogram/problem.json '.bench_shapes[1] = 4194304'
	run -2 check PROBLEM=histogram
	assert_line --index 0 "ks-init: '$HOME/problems/histogram/problem.json': bench_shapes[1] is not an object (one integer for each of dims)"
}

@test "make check: no task file is named before anything is built" {
	readme_problem
	# (before: ready, and the run failed at its first LLM call)
	rm ~/problems/histogram/task.md
	run -2 check PROBLEM=histogram
	assert_line --index 0 "ks-init: '$HOME/problems/histogram/problem.json': field \"task\": '$HOME/problems/histogram/task.md' does not exist"
	refute_output --partial ready
}

@test "make check: an unknown problem lists the problems there, and KS_KERNELS_DIR" {
	readme_problem
	run -2 check PROBLEM=histogramm
	assert_line --index 0 "ks-init: unknown problem 'histogramm': no '$HOME/problems/histogramm/problem.json'; the problems in '$HOME/problems' (KS_KERNELS_DIR) are histogram"
	unset KS_KERNELS_DIR
	run -2 check PROBLEM=histogram
	assert_line --index 0 --regexp "^ks-init: unknown problem 'histogram': no '$KS_ROOT/kernels/histogram/problem.json'; the problems in '$KS_ROOT/kernels' are ([a-z0-9-]+, )*sgemm(, [a-z0-9-]+)* \(KS_KERNELS_DIR names a folder of problems of your own\)$"
}

@test "make check: a knob written without its colon, or not on a #define, is named by file and line" {
	readme_problem
	local seed=~/problems/histogram/seed.c
	# (before: ready, and the offline proposer, finding no knob, stopped the run at generation 1)
	sed -i 's|/\* ks-tune: 1 2 4 8 \*/|/* ks-tune 1 2 4 8 */|' $seed
	run -2 check PROBLEM=histogram
	assert_line --index 0 "ks-init: '$seed:4': no 'ks-tune:' (with its colon) in it: a tunable parameter is written '#define NAME VALUE /* ks-tune: V1 V2 ... */'"
	sed -i 's|^#define LANES 1.*|enum { LANES = 1 };	/* ks-tune: 1 2 4 8 */|' $seed
	run -2 check PROBLEM=histogram
	assert_line --index 0 "ks-init: '$seed:4': 'ks-tune:' on a line that is not a #define: a tunable parameter is written '#define NAME VALUE /* ks-tune: V1 V2 ... */'"
	refute_output --partial ready
}

@test "make check: a seed without a knob is not ready for the offline proposer; with a model it is" {
	readme_problem
	sed -i 's|[[:space:]]*/\* ks-tune:.*\*/||' ~/problems/histogram/seed.c
	run -2 check PROBLEM=histogram
	assert_line --index 0 --regexp "^problem histogram, target cpu: not ready: the seed is correct \([0-9.]+ us\), but declares no tunable parameter, and no model is set \(KS_MODEL\): the offline proposer would have nothing to change in generation 1 \(mark one '#define NAME VALUE /\* ks-tune: V1 V2 \.\.\. \*/', or set a model\)$"
	# a model makes the plans: no knob is needed (no request is made)
	KS_LLM_URL=http://127.0.0.1:9/v1 KS_LLM_API_KEY=k KS_MODEL=m run -0 check PROBLEM=histogram
	assert_output --regexp '^problem histogram, target cpu: ready: '
}

@test "make check: a harness's global name that is not ks_... is named with its file" {
	readme_problem
	# (before: ready: the rule of ks-problem(5)'s "Names" went unchecked)
	printf 'int\nhistogram_bins(void)\n{\n\treturn 256;\n}\n' >>~/problems/histogram/harness.c
	run -2 check PROBLEM=histogram
	assert_line --index 0 "ks-build: '$HOME/problems/histogram/harness.c' defines the global symbol 'histogram_bins': a harness's names that are not static start with ks_ (the reference's hold _reference), which no kernel may use"
	refute_output --partial ready
	readme_problem
	printf 'int glue_calls;\n' >>~/problems/histogram/call.c
	run -2 check PROBLEM=histogram
	assert_line --index 0 --partial "ks-build: '$HOME/problems/histogram/call.c' defines the global symbol 'glue_calls'"
}
