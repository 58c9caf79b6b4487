#!/usr/bin/env bats
# ks-select: picks the base and the reference of a generation from the
# correct kernels of the generations before it (offline rule).

bats_require_minimum_version 1.5.0
load helper/common

# The populations several tests start from are made once, then copied.
setup_file() {
	cd "$BATS_FILE_TMPDIR" || return
	# the seed (100 us), then g001c0 (50 us), g001c1 (80 us), g001c2 incorrect
	make_pop three
	fake_cand three 0 0 ok 100 ''
	fake_cand three 1 0 ok 50 'BM=32' g000c0 g000c0
	fake_cand three 1 1 ok 80 'BN=128' g000c0 g000c0
	fake_cand three 1 2 incorrect 0 'BK=64' g000c0 g000c0
	# the seed alone
	make_pop seed
	fake_cand seed 0 0 ok 100 ''
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# assert_select FILE BASE REFERENCE: the choice a select.json holds.
assert_select() {
	run -0 jf "$1" .base .reference
	assert_output "$2
$3"
}

# set_times POP ID T1 T2 ...: the per-shape time_us of a fake candidate's
# bench.json (its score_us stays as fake_cand wrote it).
set_times() {
	local pop=$1 id=$2
	shift 2
	local times
	times=$(IFS=,; echo "$*")
	jset "$pop/gen-${id:1:3}/c${id:5}/bench.json" \
		".results = ([$times] | map({shape: {M: 8, N: 8, K: 8}, time_us: ., runs: 3}))"
}

# three_kernels: pop is the seed (100 us), then g001c0 (50 us), g001c1
# (80 us), g001c2 incorrect.
three_kernels() {
	cp -r "$BATS_FILE_TMPDIR/three" pop
}

# seed_only: pop holds the seed kernel, benched at 100 us.
seed_only() {
	cp -r "$BATS_FILE_TMPDIR/seed" pop
}

@test "ks-select writes base, reference, reason, model and what it saw, and nothing else" {
	three_kernels
	run -0 ks-select pop/gen-002
	assert_output ""
	assert_file_exists pop/gen-002/select.json
	run -0 jf pop/gen-002/select.json keys .base .reference .reason .model '.seen | map("\(.id) \(.status) \(.score_us)") | join(", ")'
	assert_line --index 0 '["base","model","reason","reference","seen"]'
	assert_line --index 5 'g000c0 ok 100, g001c0 ok 50, g001c1 ok 80, g001c2 incorrect null'
	assert_line --index 1 g001c0
	assert_line --index 2 g001c1
	assert_line --index 3 "offline rule: g001c0 has the best score (50 us); g001c1 is the next best (80 us)"
	assert_line --index 4 offline
	assert_no_temp_files pop
}

@test "ks-select takes the reference that beats the base on the most shapes" {
	make_pop pop
	fake_cand pop 0 0 ok 50 ''
	fake_cand pop 0 1 ok 60 'BM=32'
	fake_cand pop 0 2 ok 90 'BM=64'
	set_times pop g000c0 50 50 50
	set_times pop g000c1 40 70 80   # faster on 1 shape, second best score
	set_times pop g000c2 45 45 200  # faster on 2 shapes, worst score
	run -0 ks-select pop/gen-001
	run -0 jf pop/gen-001/select.json .base .reference .reason
	assert_output "g000c0
g000c2
offline rule: g000c0 has the best score (50 us); g000c2 is faster on 2 benchmark shape(s)"
}

@test "ks-select breaks a tie on the best score by the first id" {
	make_pop pop
	fake_cand pop 0 0 ok 70 ''
	fake_cand pop 1 0 ok 50 'BM=32'
	fake_cand pop 1 1 ok 50 'BM=64'
	fake_cand pop 1 2 ok 60 'BM=8'
	run -0 ks-select pop/gen-002
	# the tie partner wins no shape but has the next best score
	assert_select pop/gen-002/select.json g001c0 g001c1
}

# set_noise POP ID REL CONVERGED: every shape of a fake candidate's
# bench.json given that relative standard error and stop-rule verdict.
set_noise() {
	jset "$1/gen-${2:1:3}/c${2:5}/bench.json" ".results |= map(.rel_stderr = $3 | .converged = $4)"
}

@test "ks-select calls a kernel faster only outside the noise: a win inside it leaves the earlier kernel base" {
	# (before: 99 us beat 100 us, a difference of 1 % that benches of one kernel show)
	make_pop pop
	fake_cand pop 0 0 ok 100 ''
	fake_cand pop 1 0 ok 99 'BM=32' g000c0 g000c0
	fake_cand pop 1 1 ok 99.5 'BM=64' g000c0 g000c0
	run -0 ks-select pop/gen-002
	run -0 jf pop/gen-002/select.json .base .reason
	assert_line --index 0 g000c0
	assert_line --index 1 "offline rule: g000c0 has the best score (100 us) within the noise: g001c0, 99 us, is 1 % faster, inside the noise, so the earlier kernel stays; g001c0 is the next best (99 us)"
	# 5 % faster, both converged with 0.2 % standard errors: outside the noise
	fake_cand pop 1 2 ok 95 'BM=8' g000c0 g000c0
	set_noise pop g001c2 0.002 true
	rm pop/gen-002/select.json
	run -0 ks-select pop/gen-002
	assert_equal "$(jget pop/gen-002/select.json .base)" g001c2
}

@test "ks-select: a bench that did not converge (a busy machine) is noise up to 10 %: 5 % is no win" {
	make_pop pop
	fake_cand pop 0 0 ok 100 ''
	fake_cand pop 1 0 ok 95 'BM=32' g000c0 g000c0
	set_noise pop g001c0 0.01 false
	run -0 ks-select pop/gen-002
	assert_equal "$(jget pop/gen-002/select.json .base)" g000c0
	# three times faster is a win whatever the machine did
	fake_cand pop 1 1 ok 33 'BM=64' g000c0 g000c0
	set_noise pop g001c1 0.01 false
	rm pop/gen-002/select.json
	run -0 ks-select pop/gen-002
	assert_equal "$(jget pop/gen-002/select.json .base)" g001c1
}

@test "ks-select: one shape of three that did not converge adds a third of its doubt: 15 % faster on each is a win" {
	# (before: the whole score 10 % unsure, so a kernel 24 % faster on every shape, one
	# shape capped, stayed behind the old base for seven generations of sgemm)
	make_pop pop
	fake_cand pop 0 0 ok 100 ''
	fake_cand pop 1 0 ok 85 'BM=32' g000c0 g000c0
	jset pop/gen-001/c0/bench.json '.results[1].converged = false'
	run -0 ks-select pop/gen-002
	assert_equal "$(jget pop/gen-002/select.json .base)" g001c0
	# every shape capped is more doubt: 5 % is still no win
	fake_cand pop 1 1 ok 81 'BM=64' g000c0 g000c0
	set_noise pop g001c1 0.01 false
	rm pop/gen-002/select.json
	run -0 ks-select pop/gen-002
	assert_equal "$(jget pop/gen-002/select.json .base)" g001c0
}

@test "ks-select: a shape won by less than the noise does not count for the reference" {
	make_pop pop
	fake_cand pop 0 0 ok 50 ''
	fake_cand pop 0 1 ok 60 'BM=32'
	fake_cand pop 0 2 ok 90 'BM=64'
	set_times pop g000c0 50 50 50
	set_times pop g000c1 49.9 70 80   # "faster" on 1 shape, by 0.2 %: inside the noise
	set_times pop g000c2 49.8 49.9 200  # "faster" on 2 shapes, by 0.4 % and 0.2 %
	run -0 ks-select pop/gen-001
	run -0 jf pop/gen-001/select.json .reference .reason
	assert_output "g000c1
offline rule: g000c0 has the best score (50 us); g000c1 is the next best (60 us)"
}

@test "ks-select with one correct kernel makes it base and reference" {
	make_pop pop
	fake_cand pop 0 0 ok 123.5 ''
	run -0 ks-select pop/gen-001
	run -0 jf pop/gen-001/select.json .base .reference .reason
	assert_output "g000c0
g000c0
offline rule: g000c0 is the only correct kernel (123.5 us), so it is both base and reference"
}

@test "ks-select ignores incorrect, crashed and not yet benched kernels" {
	make_pop pop
	fake_cand pop 0 0 ok 100 ''
	fake_cand pop 1 0 incorrect 1 'BM=32'
	fake_cand pop 1 1 crashed 1 'BM=64'
	fake_cand pop 1 2 ok 10 'BM=8'
	rm pop/gen-001/c2/bench.json
	run -0 ks-select pop/gen-002
	assert_select pop/gen-002/select.json g000c0 g000c0
}

@test "ks-select counts only the generations before the one it selects for" {
	make_pop pop
	fake_cand pop 0 0 ok 100 ''
	fake_cand pop 1 0 ok 80 'BM=32'
	fake_cand pop 2 0 ok 10 'BM=64'
	run -0 ks-select pop/gen-002
	assert_select pop/gen-002/select.json g001c0 g000c0
	run -0 ks-select pop/gen-001
	assert_select pop/gen-001/select.json g000c0 g000c0
	run -0 ks-select pop/gen-003
	assert_select pop/gen-003/select.json g002c0 g001c0
}

@test "ks-select creates the generation directory when it does not exist yet" {
	seed_only
	assert_not_exist pop/gen-001
	run -0 ks-select pop/gen-001/
	assert_file_exists pop/gen-001/select.json
	assert_select pop/gen-001/select.json g000c0 g000c0
}

@test "ks-select -o writes the file named, and not select.json" {
	three_kernels
	mkdir pop/gen-002
	run -0 ks-select -o chosen.json pop/gen-002
	assert_file_exists chosen.json
	assert_file_not_exists pop/gen-002/select.json
	assert_select chosen.json g001c0 g001c1
	run -0 ks-select pop/gen-002
	cmp chosen.json pop/gen-002/select.json
}

@test "ks-select a second time on the same population leaves select.json untouched" {
	three_kernels
	ks-select pop/gen-002
	touch -d '2020-01-01' pop/gen-002/select.json
	before=$(stat -c %Y pop/gen-002/select.json)
	run -0 ks-select pop/gen-002
	assert_equal "$(stat -c %Y pop/gen-002/select.json)" "$before"
	assert_no_temp_files pop
	# a faster kernel changes the choice, and the file
	fake_cand pop 1 3 ok 20 'UNROLL=2' g000c0 g000c0
	run -0 ks-select pop/gen-002
	assert_select pop/gen-002/select.json g001c3 g001c0
	[ "$(stat -c %Y pop/gen-002/select.json)" != "$before" ] || fail "select.json was not rewritten"
}

@test "ks-select refuses generation 0" {
	seed_only
	run -1 ks-select pop/gen-000
	assert_output "ks-select: 'pop/gen-000' is generation 0, the seed kernels: selection starts at generation 1"
	assert_file_not_exists pop/gen-000/select.json
}

@test "ks-select without a correct kernel says so in one line and writes nothing" {
	make_pop pop
	fake_cand pop 0 0 incorrect 0 ''
	run -1 ks-select pop/gen-001
	assert_output "ks-select: no correct kernel before generation 1 in 'pop' to select from (g000c0 incorrect)"
	assert_not_exist pop/gen-001/select.json
}

@test "ks-select without a correct kernel names the first four kernels' statuses and counts the rest" {
	make_pop pop
	fake_cand pop 0 0 timeout 0 ''
	for s in 0 1 2 3 4; do fake_cand pop 1 $s incorrect 0 ''; done
	run -1 ks-select pop/gen-002
	assert_output "ks-select: no correct kernel before generation 2 in 'pop' to select from (g000c0 timeout, g001c0 incorrect, g001c1 incorrect, g001c2 incorrect and 2 more)"
}

@test "ks-select on an empty population says there is no correct kernel" {
	make_pop pop
	run -1 ks-select pop/gen-001
	assert_output "ks-select: no correct kernel before generation 1 in 'pop' to select from (it has no kernels)"
	assert_not_exist pop/gen-001
}

@test "ks-select names a missing run.json" {
	mkdir -p pop/gen-001
	run -1 ks-select pop/gen-001
	assert_output "ks-select: 'pop/run.json' does not exist: make the population with ks-init first"
	assert_file_not_exists pop/gen-001/select.json
}

@test "ks-select rejects a directory that is not POP/gen-NNN" {
	three_kernels
	for dir in pop pop/gen-1 pop/gen-0002 pop/generation-002 pop/gen-00x pop/gen-002/c0; do
		run -1 ks-select "$dir"
		assert_output "ks-select: '$dir' is not a generation directory (expected POP/gen-NNN)"
	done
	run find pop -name select.json
	assert_output ""
}

@test "ks-select names a malformed bench.json and keeps the old select.json" {
	three_kernels
	ks-select pop/gen-002
	cp pop/gen-002/select.json old.json
	printf '{"status": "ok", ' > pop/gen-001/c1/bench.json
	run -1 ks-select pop/gen-002
	assert_output --regexp "^ks-select: 'pop/gen-001/c1/bench.json' is not valid JSON \(line [0-9]+, column [0-9]+\)$"
	cmp old.json pop/gen-002/select.json
	assert_no_temp_files pop
}

@test "ks-select names a malformed candidate.json" {
	three_kernels
	echo '[1, 2' > pop/gen-000/c0/candidate.json
	run -1 ks-select pop/gen-002
	assert_output --regexp "^ks-select: 'pop/gen-000/c0/candidate.json' is not valid JSON \(line [0-9]+, column [0-9]+\)$"
	assert_file_not_exists pop/gen-002/select.json
}

@test "ks-select names an ok bench.json without a numeric score" {
	three_kernels
	jset pop/gen-001/c0/bench.json '.score_us = null'
	run -1 ks-select pop/gen-002
	assert_output "ks-select: 'pop/gen-001/c0/bench.json': field \"score_us\" is not a number"
	assert_file_not_exists pop/gen-002/select.json
}
