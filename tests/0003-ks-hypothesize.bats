#!/usr/bin/env bats
# ks-hypothesize: 10 avenues, 5 plans on the base's tunable parameters,
# and the K plans kept by the rule of population(5) (offline proposer), on
# kernels with the seed's five first knobs (helper five_knobs): four moves
# of the hill climber around the base and the model's draw across the
# whole space (local_plans: the four; the draw has tests of its own).

bats_require_minimum_version 1.5.0
load helper/common

# The populations the tests start from are made once, then copied into
# each test's directory (use).
setup_file() {
	cd "$BATS_FILE_TMPDIR" || return
	# the proposer's rules on the seed's five first knobs
	five_knobs seed5.c
	export FAKE_SEED=$BATS_FILE_TMPDIR/seed5.c
	# the seed alone (BM 16, BN 64, BK 32, UNROLL 1, LOOP_ORDER 0)
	make_pop seed
	fake_cand seed 0 0 ok 100 ''
	ks-select seed/gen-001
	# the seed, then g001c0 with BM=32 at half its time
	make_pop bm32
	fake_cand bm32 0 0 ok 100 ''
	fake_cand bm32 1 0 ok 50 'BM=32' g000c0 g000c0
	ks-select bm32/gen-002
	# the seed, then BN=32, which turned out incorrect
	make_pop bn32
	fake_cand bn32 0 0 ok 100 ''
	fake_cand bn32 1 0 incorrect 0 'BN=32' g000c0 g000c0
	ks-select bn32/gen-002
	# the seed, then three single changes that each measured faster
	make_pop pairs
	fake_cand pairs 0 0 ok 100 ''
	fake_cand pairs 1 0 ok 50 'BM=32' g000c0 g000c0
	fake_cand pairs 1 1 ok 60 'BN=128' g000c0 g000c0
	fake_cand pairs 1 2 ok 55 'BK=64' g000c0 g000c0
	ks-select pairs/gen-002
	# eleven kernels timed as if each value multiplied the time (LOOP_ORDER 1
	# x0.3, UNROLL 4 x0.5, BM 32 x0.9, ...): the model has something to learn;
	# the base is g003c0 (BM 32, LOOP_ORDER 1), UNROLL 4 never tried beside it
	make_pop model
	local i cfgs=('' 'LOOP_ORDER=1' 'BM=32' 'BM=8 UNROLL=2' 'BM=64 UNROLL=8' 'BM=128 LOOP_ORDER=1' 'BM=8 UNROLL=4'
		'BM=32 LOOP_ORDER=1' 'UNROLL=8 LOOP_ORDER=1' 'BM=128 UNROLL=4' 'UNROLL=2 LOOP_ORDER=1')
	local times=(100 30 90 120 120 39 60 27 36 65 30)
	for i in "${!cfgs[@]}"; do
		fake_cand model $(((i + 2) / 3)) $((i ? (i - 1) % 3 : 0)) ok "${times[$i]}" "${cfgs[$i]}" g000c0 g000c0
	done
	ks-select model/gen-005
	# BN 32 failed in three kernels, every other BN measured correct
	make_pop failed
	fake_cand failed 0 0 ok 100 ''
	cfgs=('BN=16' 'BN=128' 'BN=256' 'BN=32' 'BN=32 BM=8' 'BN=32 UNROLL=2')
	for i in "${!cfgs[@]}"; do
		fake_cand failed $((i / 3 + 1)) $((i % 3)) "$([ "$i" -lt 3 ] && echo ok || echo incorrect)" 100 "${cfgs[$i]}" g000c0 g000c0
	done
	ks-select failed/gen-003
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# plans FILE: one line per plan: title | innovation | uplift_min | uplift_max | changes
plans() {
	jq -r '.plans[] | "\(.title) | \(.innovation) | \(.uplift_min) | \(.uplift_max) | \(.changes | tojson)"' "$1"
}

# local_plans FILE: plans without the model draw (the last plan, innovation 10)
local_plans() {
	plans "$1" | grep -v ' | 10 | '
}

# select_json DIR BASE REF: a hand-written select.json.
select_json() {
	printf '{"base": "%s", "reference": "%s", "reason": "test", "model": "offline"}\n' "$2" "$3" > "$1/select.json"
}

@test "ks-hypothesize on the seed writes 10 avenues, 5 plans on 5 parameters, K chosen, base and model" {
	use seed
	run -0 ks-hypothesize pop/gen-001
	assert_output ""
	run -0 jf pop/gen-001/hypotheses.json keys .chosen .base .model '.avenues | length' \
		'.avenues[0]' '.avenues[7]' '.avenues[8]' '.avenues[9]'
	assert_line --index 0 '["avenues","base","calibration","chosen","model","plans"]'
	# the draw (innovation 10), then the highest max uplift, then the highest min uplift
	assert_line --index 1 '[4,0,1]'
	assert_line --index 2 g000c0
	assert_line --index 3 offline
	assert_line --index 4 10
	# the neighbours of each value first, then the values further away
	assert_line --index 5 "BM 16 -> 8 (expected +10%: no kernel has changed BM yet)"
	assert_line --index 6 "LOOP_ORDER 0 -> 1 (expected +10%: no kernel has changed LOOP_ORDER yet)"
	assert_line --index 7 "BM 16 -> 64 (expected +5%: no kernel has changed BM yet)"
	# the last avenue is the model's draw
	assert_line --index 8 --regexp '^[A-Z_]+ [0-9]+ -> [0-9]+.* \(expected -?\+?0%: a draw across the whole space: the model of 1 measured kernel\(s\) expects 100 us'
	run -0 plans pop/gen-001/hypotheses.json
	assert_line --index 0 'BM 16 -> 8 | 8 | -10 | 30 | {"BM":8}'
	assert_line --index 1 'BN 64 -> 32 | 8 | -10 | 30 | {"BN":32}'
	assert_line --index 2 'BK 32 -> 16 | 8 | -10 | 30 | {"BK":16}'
	assert_line --index 3 'UNROLL 1 -> 2 | 8 | -10 | 30 | {"UNROLL":2}'
	assert_line --index 4 --regexp ' \| 10 \| -?[0-9]+ \| [0-9]+ \| \{"'
	assert_no_temp_files pop
}

@test "ks-hypothesize writes a complete plan: title, description, rubric, uplifts, innovation, changes" {
	use seed
	run -0 ks-hypothesize pop/gen-001
	run -0 jf pop/gen-001/hypotheses.json '.plans[1] | keys' '.plans[1].description' '.plans[1].rubric'
	assert_line --index 0 '["changes","description","innovation","rubric","title","uplift_max","uplift_min"]'
	assert_line --index 1 "Change the tunable parameter of g000c0: BN 64 -> 32. Why: no kernel has changed BN yet."
	assert_line --index 2 'set `#define BN 32` (was 64); change nothing else'
}

@test "ks-hypothesize keeps the most innovative, the highest max uplift, the highest min uplift" {
	use bm32
	run -0 ks-hypothesize pop/gen-002
	run -0 local_plans pop/gen-002/hypotheses.json
	assert_output 'BN 64 -> 32 | 8 | -10 | 30 | {"BN":32}
BK 32 -> 16 | 8 | -10 | 30 | {"BK":16}
UNROLL 1 -> 2 | 8 | -10 | 30 | {"UNROLL":2}
LOOP_ORDER 0 -> 1 | 8 | -10 | 30 | {"LOOP_ORDER":1}'
	# plan 4 (the draw) by innovation, plan 0 by max uplift (first of the ties), plan 1 by min uplift
	run -0 jf pop/gen-002/hypotheses.json .chosen .base
	assert_output '[4,0,1]
g001c0'
	# with K=5 every plan, in the same rule's order
	jset pop/run.json '.k = 5'
	rm pop/gen-002/hypotheses.json
	run -0 ks-hypothesize pop/gen-002
	assert_equal "$(jget pop/gen-002/hypotheses.json .chosen)" '[4,0,1,2,3]'
}

@test "ks-hypothesize never proposes the configuration of a kernel already in the population" {
	use bm32
	run -0 ks-hypothesize pop/gen-002
	# BM back to 16 is the seed itself
	run -1 grep -F 'BM 32 -> 16' pop/gen-002/hypotheses.json
	assert_output ""
	# nor does the draw, which could land anywhere
	run -0 jf pop/gen-002/hypotheses.json '[.plans[] | .changes | select(. == {"BM": 16} or . == {})] | length'
	assert_output 0
}

@test "ks-hypothesize does not retry a configuration that was incorrect" {
	use bn32
	run -0 ks-hypothesize pop/gen-002
	run -1 grep -F 'BN 64 -> 32' pop/gen-002/hypotheses.json
	assert_output ""
	run -0 local_plans pop/gen-002/hypotheses.json
	assert_line --index 3 'LOOP_ORDER 0 -> 1 | 8 | -10 | 30 | {"LOOP_ORDER":1}'
	# the draw keeps away from the value that failed
	run -0 jget pop/gen-002/hypotheses.json '.plans[4].changes.BN // 64'
	refute_output 32
}

@test "ks-hypothesize pairs two changes only when each measured faster alone" {
	use pairs
	run -0 ks-hypothesize pop/gen-002
	run -0 local_plans pop/gen-002/hypotheses.json
	# BK 32 -> 64 is judged by the pair g000c0/g001c2, which differ in BK alone: 100/55 us
	assert_output 'BN 64 -> 128, BK 32 -> 64 | 1 | 57 | 168 | {"BN":128,"BK":64}
UNROLL 1 -> 2 | 8 | -10 | 30 | {"UNROLL":2}
LOOP_ORDER 0 -> 1 | 8 | -10 | 30 | {"LOOP_ORDER":1}
BM 32 -> 64 | 6 | -5 | 20 | {"BM":64}'
	run -0 jf pop/gen-002/hypotheses.json .chosen '.avenues[0]' '.avenues[1]'
	assert_output '[4,0,3]
BN 64 -> 128, BK 32 -> 64 (expected +115%: both changes measured faster on their own)
BK 32 -> 64 (expected +82%: 1 pair(s) of measured kernels differing only in BK: 64 is 1.82x as fast as 32)'
	# without measurements (the seed alone) every move of the hill climber is a single change
	rm -rf pop && use seed
	run -0 ks-hypothesize pop/gen-001
	run -0 jf pop/gen-001/hypotheses.json '[.plans[:4][].changes | length]'
	assert_output '[1,1,1,1]'
}

@test "ks-hypothesize: the model of the population ranks a value untested beside the base" {
	use model
	run -0 ks-hypothesize pop/gen-005
	assert_equal "$(jget pop/gen-005/hypotheses.json .base)" g003c0
	# UNROLL 4 was never tried beside the base, nor in a pair differing in it alone; the
	# model saw it make two kernels faster (the rule alone: "untested next to this base")
	run -0 jget pop/gen-005/hypotheses.json '.avenues[]'
	assert_line --regexp '^UNROLL 1 -> 4 \(expected \+[1-9][0-9]%: untested next to this base; the model of 11 measured kernels expects \+[1-9][0-9]% from UNROLL = 4\)$'
	# ahead of UNROLL 2, whose one measured pair says no faster
	refute_line --partial 'UNROLL 1 -> 2 ('
}

@test "ks-hypothesize: the draw goes where the model expects speed, and is made the same way twice" {
	use model
	run -0 ks-hypothesize pop/gen-005
	run -0 jf pop/gen-005/hypotheses.json '.plans[4].innovation' '.plans[4].changes.LOOP_ORDER // 1' \
		'.plans[4].changes.UNROLL // 1' '.plans[4].description'
	assert_line --index 0 10
	# LOOP_ORDER 1 (x0.3) kept, UNROLL 8 (x1.2) avoided
	assert_line --index 1 1
	refute_line --index 2 8
	assert_line --index 3 --regexp '^Change the tunable parameters of g003c0: .*Why: a draw across the whole space: the model of 11 measured kernel\(s\) expects [0-9.]+ us \(\+-[0-9]+%\), [0-9] of its values untested\.$'
	cp pop/gen-005/hypotheses.json first.json
	rm pop/gen-005/hypotheses.json
	run -0 ks-hypothesize pop/gen-005
	cmp first.json pop/gen-005/hypotheses.json
}

@test "ks-hypothesize: a value that failed counts as slow: the draw keeps away from it" {
	use failed
	run -0 ks-hypothesize pop/gen-003
	# untested, BN 32 would be the draw's first choice; failed three times it is left out
	run -0 jget pop/gen-003/hypotheses.json '.plans[-1] | [.innovation, (.changes.BN // 64)]'
	assert_output --regexp '^\[10,(16|64|128|256)\]$'
}

@test "ks-hypothesize: a bench that found no device says nothing of the kernel: the draw keeps its value" {
	# BN 32 measured twice at half the seed's time; three more BN 32 kernels found no device
	make_pop pop
	fake_cand pop 0 0 ok 100 ''
	fake_cand pop 1 0 ok 50 'BN=32 BK=64' g000c0 g000c0
	fake_cand pop 1 1 ok 50 'BN=32 UNROLL=4' g000c0 g000c0
	fake_cand pop 1 2 ok 100 'BN=128' g000c0 g000c0
	local cfgs=('BN=32' 'BN=32 BM=8' 'BN=32 UNROLL=2') i
	for i in 0 1 2; do
		fake_cand pop 2 $i no_device 0 "${cfgs[$i]}" g001c0 g001c0
	done
	ks-select pop/gen-003
	run -0 ks-hypothesize pop/gen-003
	# counted as failures they would make BN 32 the slowest value; the draw keeps the base's 32
	assert_equal "$(jget pop/gen-003/hypotheses.json '.plans[-1] | [.innovation, (.changes.BN // 32)]')" '[10,32]'
}

@test "ks-hypothesize: a draw the model expects far faster than the base promises 10x at most, uplift_min not above uplift_max" {
	# (before: "plan 4: uplift_min 1087 is above uplift_max 900", and make generation N=2 stopped)
	# every value measured; BM 32 and BN 128 each made six kernels 100000x faster, never together
	make_pop pop
	fake_cand pop 0 0 ok 100000 ''
	local i=0 c x cfgs=('BM=8 BN=16 BK=16 UNROLL=2 LOOP_ORDER=1:100000' 'BM=64 BN=32 BK=64 UNROLL=4:100000'
		'BM=128 BN=256 BK=128 UNROLL=8:100000' 'BK=256:100000')
	for x in '' BK=64 BK=128 BK=256 UNROLL=2 UNROLL=4; do
		cfgs+=("BM=32 $x:1" "BN=128 $x:1")
	done
	for c in "${cfgs[@]}"; do
		fake_cand pop $((i / 3 + 1)) $((i % 3)) ok "${c#*:}" "${c%:*}" g000c0 g000c0
		i=$((i + 1))
	done
	ks-select pop/gen-007
	run -0 ks-hypothesize pop/gen-007
	# the draw puts the two together: the model expects far more than 10x
	run -0 jget pop/gen-007/hypotheses.json '.plans[-1] | [.innovation, .uplift_min, .uplift_max, .changes.BM // 32, .changes.BN // 128]'
	assert_output '[10,900,900,32,128]'
	# the avenue says what the model expects in time, and the 10x it is held to
	run -0 jget pop/gen-007/hypotheses.json '.avenues[-1]'
	assert_output --regexp '\(expected \+900%: a draw across the whole space: the model of 17 measured kernel\(s\) expects [0-9.]+ us '
}

@test "ks-hypothesize keeps K plans: one with K=1, five distinct with K=5" {
	use seed
	jset pop/run.json '.k = 1'
	run -0 ks-hypothesize pop/gen-001
	assert_equal "$(jget pop/gen-001/hypotheses.json .chosen)" '[4]'
	jset pop/run.json '.k = 5'
	run -0 ks-hypothesize pop/gen-001
	assert_equal "$(jget pop/gen-001/hypotheses.json .chosen)" '[4,0,1,2,3]'
}

@test "ks-hypothesize -o writes the file named, and not hypotheses.json" {
	use seed
	run -0 ks-hypothesize -o h.json pop/gen-001
	assert_file_exists h.json
	assert_file_not_exists pop/gen-001/hypotheses.json
	run -0 ks-hypothesize pop/gen-001
	cmp h.json pop/gen-001/hypotheses.json
}

@test "ks-hypothesize a second time leaves hypotheses.json untouched" {
	use bm32
	ks-hypothesize pop/gen-002
	touch -d '2020-01-01' pop/gen-002/hypotheses.json
	before=$(stat -c %Y pop/gen-002/hypotheses.json)
	run -0 ks-hypothesize pop/gen-002
	assert_equal "$(stat -c %Y pop/gen-002/hypotheses.json)" "$before"
	assert_no_temp_files pop
	# another base gives other plans, and a new file
	select_json pop/gen-002 g000c0 g000c0
	run -0 ks-hypothesize pop/gen-002
	assert_equal "$(jget pop/gen-002/hypotheses.json .base)" g000c0
	[ "$(stat -c %Y pop/gen-002/hypotheses.json)" != "$before" ] || fail "hypotheses.json was not rewritten"
}

@test "ks-hypothesize without select.json names it" {
	use seed
	rm pop/gen-001/select.json
	run -1 ks-hypothesize pop/gen-001
	assert_output "ks-hypothesize: cannot open 'pop/gen-001/select.json': No such file or directory"
	assert_file_not_exists pop/gen-001/hypotheses.json
}

@test "ks-hypothesize names a malformed select.json and keeps the old hypotheses.json" {
	use seed
	ks-hypothesize pop/gen-001
	cp pop/gen-001/hypotheses.json old.json
	printf '{"base": "g000c0", "reference": ' > pop/gen-001/select.json
	run -1 ks-hypothesize pop/gen-001
	assert_output --regexp "^ks-hypothesize: 'pop/gen-001/select.json' is not valid JSON \(line [0-9]+, column [0-9]+\)$"
	cmp old.json pop/gen-001/hypotheses.json
	assert_no_temp_files pop
}

@test "ks-hypothesize rejects a select.json without a reference" {
	use seed
	echo '{"base": "g000c0", "reason": "x"}' > pop/gen-001/select.json
	run -1 ks-hypothesize pop/gen-001
	assert_output "ks-hypothesize: 'pop/gen-001/select.json': field \"reference\" is missing"
	assert_file_not_exists pop/gen-001/hypotheses.json
}

@test "ks-hypothesize rejects a base that is not a kernel id" {
	use seed
	select_json pop/gen-001 best g000c0
	run -1 ks-hypothesize pop/gen-001
	assert_output "ks-hypothesize: 'pop/gen-001/select.json': field \"base\" is not a kernel id like g003c1: 'best'"
	assert_file_not_exists pop/gen-001/hypotheses.json
}

@test "ks-hypothesize rejects an id that is not in the population" {
	use seed
	select_json pop/gen-001 g000c7 g000c0
	run -1 ks-hypothesize pop/gen-001
	assert_output "ks-hypothesize: 'pop/gen-001/select.json': field \"base\" names 'g000c7', which is not in the population before this generation"
	assert_file_not_exists pop/gen-001/hypotheses.json
}

@test "ks-hypothesize rejects an id of this generation" {
	use bm32
	select_json pop/gen-001 g000c0 g001c0
	run -1 ks-hypothesize pop/gen-001
	assert_output "ks-hypothesize: 'pop/gen-001/select.json': field \"reference\" names 'g001c0', which is not in the population before this generation"
	assert_file_not_exists pop/gen-001/hypotheses.json
}

@test "ks-hypothesize rejects the id of an incorrect kernel" {
	use bn32
	select_json pop/gen-002 g001c0 g000c0
	run -1 ks-hypothesize pop/gen-002
	assert_output "ks-hypothesize: 'pop/gen-002/select.json': field \"base\" names 'g001c0', which is not a correct benched kernel (status incorrect)"
	select_json pop/gen-002 g000c0 g001c0
	run -1 ks-hypothesize pop/gen-002
	assert_output "ks-hypothesize: 'pop/gen-002/select.json': field \"reference\" names 'g001c0', which is not a correct benched kernel (status incorrect)"
	assert_file_not_exists pop/gen-002/hypotheses.json
}

@test "ks-hypothesize rejects the id of a kernel not benched yet" {
	use bm32
	rm pop/gen-001/c0/bench.json
	select_json pop/gen-002 g001c0 g000c0
	run -1 ks-hypothesize pop/gen-002
	assert_output "ks-hypothesize: 'pop/gen-002/select.json': field \"base\" names 'g001c0', which is not a correct benched kernel (status none)"
}

@test "ks-hypothesize names a base kernel without tunable parameters" {
	use seed
	printf 'void sgemm(void) {}\n' > pop/gen-000/c0/kernel.c
	run -1 ks-hypothesize pop/gen-001
	assert_output "ks-hypothesize: 'pop/gen-000/c0/kernel.c' declares no tunable parameter (\"#define NAME VALUE  ks-tune: ...\"), so the offline proposer has nothing to change: configure an LLM"
	assert_file_not_exists pop/gen-001/hypotheses.json
}

@test "ks-hypothesize proposes the last untried configurations, fewer than 5, and says so" {
	use seed
	printf '#define TILE 4 /* ks-tune: 4 8 */\nvoid sgemm(void) {}\n' > pop/gen-000/c0/kernel.c
	run -0 ks-hypothesize pop/gen-001
	assert_output "ks-hypothesize: 'pop/gen-001': only 1 untried configuration(s) are left: 1 candidate(s) instead of K=3"
	run jf pop/gen-001/hypotheses.json '[.plans[].changes]' .chosen '.avenues | length'
	assert_output $'[{"TILE":8}]\n[0]\n1'
}

@test "ks-hypothesize names a base kernel whose source is missing" {
	use seed
	rm pop/gen-000/c0/kernel.c
	run -1 ks-hypothesize pop/gen-001
	assert_output "ks-hypothesize: 'pop/gen-000/c0' holds no kernel source (kernel.c, kernel.cu, kernel.hip)"
	assert_file_not_exists pop/gen-001/hypotheses.json
}

@test "ks-hypothesize names a missing run.json" {
	use seed
	rm pop/run.json
	run -1 ks-hypothesize pop/gen-001
	assert_output "ks-hypothesize: 'pop/run.json' does not exist: make the population with ks-init first"
	assert_file_not_exists pop/gen-001/hypotheses.json
}

@test "ks-hypothesize rejects a directory that is not POP/gen-NNN" {
	use seed
	for dir in pop pop/gen-1 pop/gen-0001 pop/gen-001/c0 pop/select.json; do
		run -1 ks-hypothesize "$dir"
		assert_output "ks-hypothesize: '$dir' is not a generation directory (expected POP/gen-NNN)"
	done
	run find pop -name hypotheses.json
	assert_output ""
}
