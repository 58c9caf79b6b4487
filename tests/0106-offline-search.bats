#!/usr/bin/env bats
# The offline proposer goes on while any configuration of the base's
# tunable parameters is untried (farther values, two knobs at once, other
# bases); when none is left the generation is recorded as exhausted, with
# no candidates, and make succeeds saying so.

bats_require_minimum_version 1.5.0
load helper/common

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# small_problem NAME "BM values" "BN values" "UNROLL values": sgemm with
# these tunable values (BK, LOOP_ORDER and the register-blocked path's knobs
# fixed), in ./kernels
small_problem() {
	mkdir -p kernels
	cp -r "$KS_ROOT/kernels/common" kernels/
	cp -r "$KS_ROOT/kernels/sgemm" "kernels/$1"
	sed -i -E -e "s|^#define BM 16.*|#define BM 16\t/* ks-tune: $2 */|" \
		-e "s|^#define BN 64.*|#define BN 64\t/* ks-tune: $3 */|" \
		-e "s|^#define BK 32.*|#define BK 32\t/* ks-tune: 32 */|" \
		-e "s|^#define UNROLL 1.*|#define UNROLL 1\t/* ks-tune: $4 */|" \
		-e "s|^#define LOOP_ORDER 0.*|#define LOOP_ORDER 0\t/* ks-tune: 0 */|" \
		-e 's@^(#define (MR|NV|VW|PACK) [0-9]+).*@\1@' "kernels/$1/seed.c"
	export KS_KERNELS_DIR=$PWD/kernels
}

# configs: each kernel's tunable values, one line per kernel
configs() {
	local k
	for k in pop/gen-*/c*/kernel.c; do
		grep 'ks-tune:' "$k" | awk '{printf "%s=%s ", $2, $3}'
		echo
	done
}

@test "the issue's problem: three knobs, 36 configurations, make generation N=5 goes on offline" {
	# (before: 'only 2 untried configuration(s) near the base are left; the offline proposer needs 5')
	small_problem three "8 16 32 64" "32 64 128" "1 2 4"
	run -0 gen N=5 PROBLEM=three
	refute_output --partial "configure an LLM"
	run find pop/gen-005 -name bench.json
	assert_equal "${#lines[@]}" 3
	# every kernel a configuration of its own: no run repeats another
	assert_equal "$(configs | sort -u | wc -l)" 16
}

@test "a space measured whole: fewer plans, then an exhausted generation with no candidates, and make succeeds" {
	small_problem tiny "8 16" "64" "1 2"     # 4 configurations
	run -0 gen N=3 PROBLEM=tiny
	assert_output --partial "search space exhausted"
	# gen 1: the 3 untried configurations, one candidate each; gen 2: none left
	run jf pop/gen-001/hypotheses.json '.plans | length' '.chosen | sort' 'has("exhausted")'
	assert_output $'3\n[0,1,2]\nfalse'
	run jf pop/gen-002/hypotheses.json .exhausted .plans .chosen .avenues
	assert_line --index 0 --regexp "^search space exhausted: all 4 configurations of the tunable parameters of '.*/pop/gen-00[01]/c[0-9]/kernel.c' \(BM, BN, BK, UNROLL, LOOP_ORDER\) have been measured"
	assert_output --partial $'\n[]\n[]\n[]'
	run find pop/gen-002 pop/gen-003 -mindepth 1 -type d
	assert_output ""
	assert_equal "$(configs | sort -u | wc -l)" 4
	# the summary says where, and a rerun has nothing to do
	run -0 gen N=3 PROBLEM=tiny
	assert_line --index 0 "ks: generations 0..3 of $BATS_TEST_TMPDIR/pop are complete: nothing to do"
	assert_line --index 1 --partial "pop: generations 0..3, 4 kernels, 4 correct"
	assert_line --index 2 --partial "pop: generation 2: search space exhausted: all 4 configurations"
	run -0 ks-query -e pop
	assert_output "$(printf 'pop/gen-002/c%s\n' 0 1 2; printf 'pop/gen-003/c%s\n' 0 1 2)"
}

@test "the last untried configurations: as many candidates as are left, the other slots empty" {
	small_problem five "8 16 32" "64" "1 2"   # 6 configurations: 3, then 2
	run -0 gen N=2 PROBLEM=five
	run jf pop/gen-002/hypotheses.json '.plans | length' '.chosen | length' '.avenues | length'
	assert_output $'2\n2\n2'
	assert_output --partial ""
	assert_exist pop/gen-002/c0/bench.json pop/gen-002/c1/bench.json
	assert_not_exist pop/gen-002/c2
	assert_equal "$(configs | sort -u | wc -l)" 6
	run -0 ks-query -e pop
	assert_output pop/gen-002/c2
}

@test "by hand, the stages of an empty slot do nothing and say why" {
	small_problem tiny "8 16" "64" "1 2"
	run -0 gen N=2 PROBLEM=tiny
	run -0 ks-implement pop/gen-002/c1
	assert_output "ks-implement: 'pop/gen-002/c1': no candidate: the search space is exhausted (hypotheses.json)"
	run -0 ks-build pop/gen-002/c1
	assert_output ""
	run -0 ks-bench pop/gen-002/c1
	assert_output ""
	assert_not_exist pop/gen-002/c1
}

# measured_neighbours STATUS: pop for problem tiny (BM 8 16 32, BN 32 64,
# UNROLL 1 2: 12 configurations) whose base, the seed (16, 64, 1), is the
# fastest kernel and all 9 configurations within two changes of it are
# measured with STATUS; generation 4 selected.  Left untried: (8, 32, 2)
# and (32, 32, 2), three changes away.
measured_neighbours() {
	local cfgs=("BM=8" "BM=32" "BN=32" "UNROLL=2" "BM=8 BN=32" "BM=32 BN=32" "BM=8 UNROLL=2" "BM=32 UNROLL=2"
		"BN=32 UNROLL=2") i
	small_problem tiny "8 16 32" "32 64" "1 2"
	ks-init -p tiny -t cpu -k 3 pop
	fake_cand pop 0 0 ok 100 ''
	cp kernels/tiny/seed.c pop/gen-000/c0/kernel.c
	for i in "${!cfgs[@]}"; do
		fake_cand pop $((i / 3 + 1)) $((i % 3)) "$1" $((200 + 10 * i)) "${cfgs[$i]}" g000c0 g000c0
	done
	ks-select pop/gen-004
}

@test "other bases: with every neighbour of the base measured, one change of the next best kernels" {
	# (before: 'only 0 untried configuration(s) near the base are left')
	measured_neighbours ok
	run -0 ks-hypothesize pop/gen-004
	run jf pop/gen-004/hypotheses.json '.plans | length' '[.plans[].changes] | sort' .chosen
	assert_output $'2\n[{"BM":8,"BN":32,"UNROLL":2},{"BM":32,"BN":32,"UNROLL":2}]\n[0,1]'
	run jget pop/gen-004/hypotheses.json '.plans[].description'
	assert_line --index 0 --regexp "Why: one change of g00[1-3]c[0-2] \([0-9]+ us\)"
}

@test "the farthest configurations: with no other correct kernel, the untried ones three changes away" {
	measured_neighbours incorrect
	run -0 ks-hypothesize pop/gen-004
	run jf pop/gen-004/hypotheses.json '.plans | length' '[.plans[].changes] | sort' '.plans[0].description'
	assert_line --index 0 2
	assert_line --index 1 '[{"BM":8,"BN":32,"UNROLL":2},{"BM":32,"BN":32,"UNROLL":2}]'
	assert_line --index 2 --partial "Why: untried, 3 parameters away from the base."
}
