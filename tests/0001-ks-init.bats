#!/usr/bin/env bats
# ks-init: creates run.json once; refuses a POP made for something else.

bats_require_minimum_version 1.5.0
load helper/common

setup() {
	cd "$BATS_TEST_TMPDIR"
}

@test "ks-init writes run.json with the problem, target, K and models" {
	run -0 ks-init -p sgemm -t cpu -k 4 pop
	assert_file_exists pop/run.json
	assert_equal "$(jget pop/run.json .problem)" sgemm
	assert_equal "$(jget pop/run.json .target)" cpu
	assert_equal "$(jget pop/run.json .k)" 4
	assert_equal "$(jget pop/run.json .models.select)" offline
	run jget pop/run.json .created_at
	assert_output --regexp '^[0-9]{4}-[0-9]{2}-[0-9]{2}T'
}

@test "ks-init defaults to sgemm on cpu with K=3" {
	run -0 ks-init pop
	assert_equal "$(jget pop/run.json .problem)" sgemm
	assert_equal "$(jget pop/run.json .k)" 3
}

@test "ks-init a second time with the same options leaves run.json untouched" {
	ks-init -k 3 pop
	touch -d '2020-01-01' pop/run.json
	before=$(stat -c %Y pop/run.json)
	run -0 ks-init -p sgemm -t cpu -k 3 pop
	assert_equal "$(stat -c %Y pop/run.json)" "$before"
}

@test "ks-init refuses a POP made for another problem" {
	ks-init pop
	mkdir -p kernels/other && cp -r "$KS_ROOT/kernels/common" kernels/ && cp -r "$KS_ROOT/kernels/sgemm"/* kernels/other/
	KS_KERNELS_DIR=$PWD/kernels run -1 ks-init -p other pop
	assert_output "ks-init: 'pop/run.json' was made for problem 'sgemm', not 'other': use another POP"
	assert_equal "$(jget pop/run.json .problem)" sgemm
}

@test "ks-init refuses another K" {
	ks-init -k 3 pop
	run -1 ks-init -k 2 pop
	assert_output --partial "was made with K=3, not K=2"
}

@test "ks-init names an unknown problem and writes nothing" {
	run -1 ks-init -p no-such-problem pop
	assert_output --partial "unknown problem 'no-such-problem'"
	assert_file_not_exists pop/run.json
}

@test "ks-init rejects an unknown target" {
	run -1 ks-init -t vax pop
	assert_output --partial "unknown target 'vax'"
	assert_file_not_exists pop/run.json
}

@test "ks-init rejects K out of range as a usage error" {
	run -2 ks-init -k 9 pop
	assert_output --partial "K must be an integer from 1 to 5, not '9'"
}

@test "ks-init takes K from 1 to 5: 0, 6, -1, 2.5 and x are usage errors that write nothing" {
	run -0 ks-init -k 1 pop1
	assert_equal "$(jget pop1/run.json .k)" 1
	run -0 ks-init -k 5 pop5
	assert_equal "$(jget pop5/run.json .k)" 5
	local k
	for k in 0 6 -1 2.5 x; do
		run -2 ks-init -k "$k" pop
		assert_output "ks-init: K must be an integer from 1 to 5, not '$k'"
		assert_not_exist pop
	done
}

@test "ks-init -o writes the file named, with the options given, and not run.json" {
	run -0 ks-init -o r.json -k 2 pop
	assert_file_not_exists pop/run.json
	run -0 jf r.json .problem .target .k .models.implement
	assert_output $'sgemm\ncpu\n2\noffline'
}

@test "a malformed run.json is named in one error line" {
	mkdir pop && echo '{"problem": "sgemm", ' > pop/run.json
	run -1 ks-init pop
	assert_output "ks-init: 'pop/run.json' is not valid JSON (line 2, column 1)"
}

# myproblem JQ: kernels/ with a copy of sgemm named mine, its problem.json through JQ
myproblem() {
	rm -rf kernels && mkdir kernels
	cp -r "$KS_ROOT/kernels/common" kernels/
	cp -r "$KS_ROOT/kernels/sgemm" kernels/mine
	jq "$1" kernels/mine/problem.json >p.json && mv p.json kernels/mine/problem.json
	export KS_KERNELS_DIR=$PWD/kernels
}

@test "a problem's mistakes are named by ks-init before any run, and nothing is written" {
	myproblem 'del(.tolerance)'
	run -1 ks-init -p mine -t cpu pop
	assert_output "ks-init: '$PWD/kernels/mine/problem.json': field \"tolerance\" is missing"
	assert_not_exist pop
	myproblem '.tolerance.rtol = -1'
	run -1 ks-init -p mine -t cpu pop
	assert_output "ks-init: '$PWD/kernels/mine/problem.json': field \"tolerance\": rtol and atol must not be negative"
	myproblem '.entry_name = "gemm"'
	run -1 ks-init -p mine -t cpu pop
	assert_output --partial "field \"entry_point\" does not declare entry_name 'gemm'"
	myproblem '.entry_name = "gemm" | .entry_point = "void gemm(int M, int N, int K, const float *A, const float *B, float *C)"'
	run -1 ks-init -p mine -t cpu pop
	assert_output "ks-init: '$PWD/kernels/mine/problem.json': the seed kernel '$PWD/kernels/mine/seed.c' does not define the entry point 'gemm' (entry_name)"
	myproblem '.harness_sources = ["harness.c", "missing.c"]'
	run -1 ks-init -p mine -t cpu pop
	assert_output "ks-init: '$PWD/kernels/mine/problem.json': field \"harness_sources\": '$PWD/kernels/mine/missing.c' does not exist"
	assert_not_exist pop
	# a reference that a kernel could call: not named after the entry point
	myproblem '.'
	sed -i 's/sgemm_reference/sgemm_ref/' kernels/mine/harness.c kernels/mine/reference.c kernels/mine/reference.h
	run -1 ks-init -p mine -t cpu pop
	assert_output "ks-init: '$PWD/kernels/mine/problem.json': no harness source names the reference 'sgemm_reference' (the reference is named after entry_name, so that no kernel may call it)"
	assert_not_exist pop
	# the copy as it is: a valid problem
	myproblem '.'
	run -0 ks-init -p mine -t cpu pop
	assert_file_exists pop/run.json
}

@test "a problem.json whose dims are not the harness's is named at the seed's first run" {
	# M and N swapped in problem.json (the shapes too, so that they stay valid)
	myproblem '.dims = ["N", "M", "K"]'
	run -0 ks-init -p mine -t cpu -k 1 pop
	ks-implement pop/gen-000/c0 && ks-build pop/gen-000/c0
	run -0 ks-bench pop/gen-000/c0
	run jf pop/gen-000/c0/bench.json .status .message
	assert_line --index 0 crashed
	assert_line --index 1 --partial "problem.json's dims (N M K) are not those of the harness's ks_problem (M N K)"
	# the runner by hand says so too
	run -1 pop/gen-000/c0/runner --test 1x2x3
	assert_output --partial "problem.json's dims (N M K) are not those of the harness's ks_problem (M N K)"
}
