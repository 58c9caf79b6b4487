#!/usr/bin/env bats
# ks-implement: the seed in generation 0; later, kept plan S applied to
# the base kernel (offline: only the values of its #define lines change).

bats_require_minimum_version 1.5.0
load helper/common

# The populations the tests start from are made once, then copied.
setup_file() {
	cd "$BATS_FILE_TMPDIR" || return
	make_pop empty
	# the seed alone; generation 1 selected and hypothesized: its plans are
	# BM 16 -> 8, BN 64 -> 32, BK 32 -> 16, UNROLL 1 -> 2 and the model's
	# draw; the proposer keeps the draw first (ks-hypothesize's tests), these
	# tests keep plans 0, 1 and 2
	make_pop seed
	fake_cand seed 0 0 ok 100 ''
	ks-select seed/gen-001
	ks-hypothesize seed/gen-001
	jset seed/gen-001/hypotheses.json '.chosen = [0, 1, 2]'

	# the seed and g001c0 (BM 32, the base of generation 2)
	make_pop bm32
	fake_cand bm32 0 0 ok 100 ''
	fake_cand bm32 1 0 ok 50 'BM=32' g000c0 g000c0
	ks-select bm32/gen-002
	ks-hypothesize bm32/gen-002
	jset bm32/gen-002/hypotheses.json '.chosen = [0, 1, 2]'
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	SEED="$KS_ROOT/kernels/sgemm/seed.c"
}

@test "ks-implement in generation 0 copies the seed byte for byte" {
	use empty
	run -0 ks-implement pop/gen-000/c0
	assert_output ""
	cmp "$SEED" pop/gen-000/c0/kernel.c
	run -0 jf pop/gen-000/c0/candidate.json keys .id .generation .slot .parents \
		.plan .model .usage
	assert_output '["generation","id","model","parents","plan","slot","usage"]
g000c0
0
0
{"base":null,"reference":null}
null
seed
{"calls":0,"prompt_tokens":0,"completion_tokens":0}'
	assert_no_temp_files pop
}

@test "ks-implement refuses a second seed slot in generation 0" {
	use empty
	run -1 ks-implement pop/gen-000/c1
	assert_output "ks-implement: 'pop/gen-000/c1': generation 0 holds one seed kernel, in slot c0"
	assert_not_exist pop/gen-000/c1
}

@test "ks-implement applies kept plan S to the base kernel, changing only its #define lines" {
	use seed
	for s in 0 1 2; do
		run -0 ks-implement pop/gen-001/c$s
		assert_output ""
	done
	with_defines "$SEED" BM=8 > want0.c
	with_defines "$SEED" BN=32 > want1.c
	with_defines "$SEED" BK=16 > want2.c
	cmp want0.c pop/gen-001/c0/kernel.c
	cmp want1.c pop/gen-001/c1/kernel.c
	cmp want2.c pop/gen-001/c2/kernel.c
	# exactly one line differs from the base
	run -1 diff pop/gen-000/c0/kernel.c pop/gen-001/c1/kernel.c
	assert_output "$(printf '19c19\n< #define BN 64\t\t/* ks-tune: 16 32 64 128 256 */\n---\n> #define BN 32\t\t/* ks-tune: 16 32 64 128 256 */')"
	assert_no_temp_files pop
}

@test "ks-implement records id, generation, slot, parents, the plan and its index, model and usage" {
	use seed
	run -0 ks-implement pop/gen-001/c1
	run -0 jf pop/gen-001/c1/candidate.json .id .generation .slot .parents .plan.title \
		.plan.changes .plan.index .model .usage
	assert_output 'g001c1
1
1
{"base":"g000c0","reference":"g000c0"}
BN 64 -> 32
{"BN":32}
1
offline
{"calls":0,"prompt_tokens":0,"completion_tokens":0}'
	# the whole plan, as hypotheses.json holds it, plus its index
	run -0 jq -n --slurpfile h pop/gen-001/hypotheses.json --slurpfile c pop/gen-001/c1/candidate.json \
		'$c[0].plan == ($h[0].plans[1] + {index: 1})'
	assert_output true
}

@test "ks-implement takes plan chosen[S], not plan S, and applies every change of it" {
	use seed
	jset pop/gen-001/hypotheses.json '.plans[4].changes = {"BM": 64, "UNROLL": 4} | .plans[4].title = "BM 16 -> 64, UNROLL 1 -> 4" | .chosen = [4, 0, 2]'
	run -0 ks-implement pop/gen-001/c0
	with_defines "$SEED" BM=64 UNROLL=4 > want.c
	cmp want.c pop/gen-001/c0/kernel.c
	run -0 jf pop/gen-001/c0/candidate.json .plan.index .plan.title
	assert_output '4
BM 16 -> 64, UNROLL 1 -> 4'
	run -0 ks-implement pop/gen-001/c1
	with_defines "$SEED" BM=8 > want.c
	cmp want.c pop/gen-001/c1/kernel.c
}

@test "ks-implement starts from the base of select.json, not from the seed" {
	use bm32
	run -0 ks-implement pop/gen-002/c0
	with_defines "$SEED" BM=32 BN=32 > want.c
	cmp want.c pop/gen-002/c0/kernel.c
	assert_equal "$(jget pop/gen-002/c0/candidate.json .parents)" '{"base":"g001c0","reference":"g000c0"}'
}

@test "ks-implement -o writes candidate.json elsewhere, the kernel still in the slot" {
	use seed
	run -0 ks-implement -o cand.json pop/gen-001/c2
	assert_file_exists cand.json
	assert_file_not_exists pop/gen-001/c2/candidate.json
	assert_equal "$(jget cand.json .id)" g001c2
	with_defines "$SEED" BK=16 > want.c
	cmp want.c pop/gen-001/c2/kernel.c
	cp -r "$BATS_FILE_TMPDIR/empty" pop0
	run -0 ks-implement -o seed.json pop0/gen-000/c0
	assert_equal "$(jget seed.json .model)" seed
	cmp "$SEED" pop0/gen-000/c0/kernel.c
	assert_file_not_exists pop0/gen-000/c0/candidate.json
}

@test "ks-implement a second time leaves kernel.c and candidate.json untouched" {
	use seed
	ks-implement pop/gen-001/c0
	ks-implement pop/gen-000/c0
	touch -d '2020-01-01' pop/gen-001/c0/kernel.c pop/gen-001/c0/candidate.json pop/gen-000/c0/kernel.c
	before=$(stat -c %Y pop/gen-001/c0/kernel.c pop/gen-001/c0/candidate.json pop/gen-000/c0/kernel.c)
	run -0 ks-implement pop/gen-001/c0
	run -0 ks-implement pop/gen-000/c0
	assert_equal "$(stat -c %Y pop/gen-001/c0/kernel.c pop/gen-001/c0/candidate.json pop/gen-000/c0/kernel.c)" "$before"
	assert_no_temp_files pop
	# another kept plan rewrites both
	old=$(stat -c %Y pop/gen-001/c0/kernel.c)
	jset pop/gen-001/hypotheses.json '.chosen = [3, 1, 2]'
	run -0 ks-implement pop/gen-001/c0
	assert_equal "$(jget pop/gen-001/c0/candidate.json .plan.index)" 3
	[ "$(stat -c %Y pop/gen-001/c0/kernel.c)" != "$old" ] || fail "kernel.c was not rewritten"
}

@test "ks-implement refuses a slot beyond K" {
	use seed
	run -1 ks-implement pop/gen-001/c3
	assert_output "ks-implement: 'pop/gen-001/c3': slot c3 is beyond K=3 of 'pop/run.json'"
	assert_not_exist pop/gen-001/c3/kernel.c
	assert_not_exist pop/gen-001/c3/candidate.json
}

@test "ks-implement names a missing hypotheses.json" {
	use seed
	rm pop/gen-001/hypotheses.json
	run -1 ks-implement pop/gen-001/c0
	assert_output "ks-implement: cannot open 'pop/gen-001/hypotheses.json': No such file or directory"
	assert_not_exist pop/gen-001/c0
}

@test "ks-implement names a malformed hypotheses.json and keeps the old kernel" {
	use seed
	ks-implement pop/gen-001/c0
	cp pop/gen-001/c0/kernel.c old.c
	cp pop/gen-001/c0/candidate.json old.json
	printf '{"avenues": ["a"], "plans": [' > pop/gen-001/hypotheses.json
	run -1 ks-implement pop/gen-001/c0
	assert_output --regexp "^ks-implement: 'pop/gen-001/hypotheses.json' is not valid JSON \(line [0-9]+, column [0-9]+\)$"
	cmp old.c pop/gen-001/c0/kernel.c
	cmp old.json pop/gen-001/c0/candidate.json
	assert_no_temp_files pop
}

@test "ks-implement rejects a \"chosen\" of the wrong length" {
	use seed
	jset pop/gen-001/hypotheses.json '.chosen = [0, 1]'
	run -1 ks-implement pop/gen-001/c0
	assert_output "ks-implement: 'pop/gen-001/hypotheses.json': \"chosen\" holds 2 plan indexes, not 3 (K=3 of 5 plans)"
	assert_not_exist pop/gen-001/c0
}

@test "ks-implement rejects repeated or out-of-range plan indexes in \"chosen\"" {
	use seed
	for chosen in '[0, 0, 1]' '[0, 1, 5]' '[0, 1, -1]' '[0, 1, 1.5]' '[0, 1, "2"]'; do
		jset pop/gen-001/hypotheses.json ".chosen = $chosen"
		run -1 ks-implement pop/gen-001/c0
		assert_output "ks-implement: 'pop/gen-001/hypotheses.json': \"chosen\" must hold distinct plan indexes from 0 to 4"
	done
	assert_not_exist pop/gen-001/c0
}

@test "ks-implement rejects hypotheses.json without \"chosen\", with 6 plans, none, or plans beside \"exhausted\"" {
	use seed
	cp pop/gen-001/hypotheses.json h.json
	jset pop/gen-001/hypotheses.json 'del(.chosen)'
	run -1 ks-implement pop/gen-001/c0
	assert_output "ks-implement: 'pop/gen-001/hypotheses.json': field \"chosen\" is missing"
	cp h.json pop/gen-001/hypotheses.json
	jset pop/gen-001/hypotheses.json '.plans += [.plans[0]]'
	run -1 ks-implement pop/gen-001/c0
	assert_output "ks-implement: 'pop/gen-001/hypotheses.json': \"plans\" holds 6 plans, not 1 to 5"
	cp h.json pop/gen-001/hypotheses.json
	jset pop/gen-001/hypotheses.json '.plans = [] | .chosen = []'
	run -1 ks-implement pop/gen-001/c0
	assert_output "ks-implement: 'pop/gen-001/hypotheses.json': \"plans\" holds 0 plans, not 1 to 5"
	cp h.json pop/gen-001/hypotheses.json
	jset pop/gen-001/hypotheses.json '.exhausted = "search space exhausted"'
	run -1 ks-implement pop/gen-001/c0
	assert_output "ks-implement: 'pop/gen-001/hypotheses.json': \"plans\" holds 5 plans, not 0 (the search space is exhausted)"
	jset pop/gen-001/hypotheses.json '.exhausted = 1 | .plans = [] | .chosen = []'
	run -1 ks-implement pop/gen-001/c0
	assert_output "ks-implement: 'pop/gen-001/hypotheses.json': field \"exhausted\" is not a non-empty string"
	assert_not_exist pop/gen-001/c0
}

@test "ks-implement takes 4 plans of the offline proposer's last untried configurations, \"chosen\" indexing them" {
	use seed
	jset pop/gen-001/hypotheses.json 'del(.plans[-1]) | .chosen = [3, 0, 1]'
	run -0 ks-implement pop/gen-001/c0
	assert_equal "$(jget pop/gen-001/c0/candidate.json .plan.index)" 3
	jset pop/gen-001/hypotheses.json '.chosen = [0, 1, 4]'
	run -1 ks-implement pop/gen-001/c1
	assert_output "ks-implement: 'pop/gen-001/hypotheses.json': \"chosen\" must hold distinct plan indexes from 0 to 3"
}

@test "ks-implement rejects a plan with an innovation out of 1 to 10 or uplifts upside down" {
	use seed
	cp pop/gen-001/hypotheses.json h.json
	jset pop/gen-001/hypotheses.json '.plans[2].innovation = 11'
	run -1 ks-implement pop/gen-001/c0
	assert_output "ks-implement: 'pop/gen-001/hypotheses.json': plan 2: field \"innovation\" is not an integer from 1 to 10"
	cp h.json pop/gen-001/hypotheses.json
	jset pop/gen-001/hypotheses.json '.plans[0].uplift_min = 40'
	run -1 ks-implement pop/gen-001/c0
	assert_output "ks-implement: 'pop/gen-001/hypotheses.json': plan 0: uplift_min 40 is above uplift_max 30"
	assert_not_exist pop/gen-001/c0
}

@test "ks-implement rejects a plan that changes a parameter the base does not declare" {
	use seed
	jset pop/gen-001/hypotheses.json '.plans[0].changes = {"BM": 32, "TILE": 4}'
	run -1 ks-implement pop/gen-001/c0
	assert_output "ks-implement: 'pop/gen-001/hypotheses.json': the base kernel does not declare every parameter the plan changes"
	assert_not_exist pop/gen-001/c0/kernel.c
}

@test "ks-implement rejects \"changes\" that are not numbers" {
	use seed
	for changes in '{"BM": "big"}' '{"BM": null}' '{"BM": [8]}'; do
		jset pop/gen-001/hypotheses.json ".plans[0].changes = $changes"
		run -1 ks-implement pop/gen-001/c0
		assert_output "ks-implement: 'pop/gen-001/hypotheses.json': \"changes\" must map parameter names to integers"
	done
	jset pop/gen-001/hypotheses.json 'del(.plans[0].changes)'
	run -1 ks-implement pop/gen-001/c0
	assert_output "ks-implement: 'pop/gen-001/hypotheses.json': plan 0 has no \"changes\" for the offline proposer to apply: configure an LLM (KS_LLM_PROVIDER, KS_LLM_URL, KS_MODEL)"
	assert_not_exist pop/gen-001/c0/kernel.c
}

@test "ks-implement rejects a change to a fractional value instead of rounding it" {
	use seed
	jset pop/gen-001/hypotheses.json '.plans[0].changes = {"BM": 8.5}'
	run -1 ks-implement pop/gen-001/c0
	assert_output "ks-implement: 'pop/gen-001/hypotheses.json': \"changes\" must map parameter names to integers"
	assert_not_exist pop/gen-001/c0/kernel.c
}

@test "ks-implement refuses plans made for another base than select.json names" {
	use bm32
	# hypotheses.json was made for base g001c0; select.json now names the seed
	printf '{"base": "g000c0", "reference": "g000c0", "reason": "x", "model": "offline"}\n' > pop/gen-002/select.json
	run -1 ks-implement pop/gen-002/c0
	assert_equal "${#lines[@]}" 1
	assert_output --partial "ks-implement: 'pop/gen-002/"
	assert_output --partial "g001c0"
	assert_not_exist pop/gen-002/c0/kernel.c
}

@test "ks-implement names an unknown or incorrect base in select.json" {
	use seed
	printf '{"base": "g000c4", "reference": "g000c0"}\n' > pop/gen-001/select.json
	run -1 ks-implement pop/gen-001/c0
	assert_output "ks-implement: 'pop/gen-001/select.json': field \"base\" names 'g000c4', which is not in the population before this generation"
	jset pop/gen-000/c0/bench.json '.status = "crashed" | .score_us = null'
	printf '{"base": "g000c0", "reference": "g000c0"}\n' > pop/gen-001/select.json
	run -1 ks-implement pop/gen-001/c0
	assert_output "ks-implement: 'pop/gen-001/select.json': field \"base\" names 'g000c0', which is not a correct benched kernel (status crashed)"
	assert_not_exist pop/gen-001/c0
}

@test "ks-implement names a missing select.json" {
	use seed
	rm pop/gen-001/select.json
	run -1 ks-implement pop/gen-001/c0
	assert_output "ks-implement: cannot open 'pop/gen-001/select.json': No such file or directory"
	assert_not_exist pop/gen-001/c0
}

@test "ks-implement names a missing run.json" {
	mkdir -p pop/gen-000
	run -1 ks-implement pop/gen-000/c0
	assert_output "ks-implement: 'pop/run.json' does not exist: make the population with ks-init first"
	assert_not_exist pop/gen-000/c0
}

@test "ks-implement rejects a directory that is not POP/gen-NNN/cS" {
	use seed
	for dir in pop/gen-001 pop/gen-001/x0 pop/gen-001/c pop/gen-001/c01 pop/gen-001/c-1 pop/gen-1/c0 pop/c0; do
		run -1 ks-implement "$dir"
		assert_output "ks-implement: '$dir' is not a candidate directory (expected POP/gen-NNN/cS)"
	done
	run find pop -name kernel.c -newer pop/run.json -path '*gen-001*'
	assert_output ""
}
