#!/usr/bin/env bats
# make generation: the loop end to end on the default problem.

bats_require_minimum_version 1.5.0
load helper/common

setup_file() {
	# one finished generation 1, copied (with its mtimes) by the tests that only read or extend it
	make -s --no-print-directory -C "$KS_ROOT" generation POP="$BATS_FILE_TMPDIR/pop1" N=1
}

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# use_gen1: ./pop is a finished run of generations 0 and 1.
use_gen1() {
	cp -a "$BATS_FILE_TMPDIR/pop1" pop
}

# assert_candidate DIR: the four files of a finished candidate, consistent.
assert_candidate() {
	local dir=$1 id
	id=$(basename "$(dirname "$dir")" | sed 's/gen-/g/')$(basename "$dir")
	assert_file_exists "$dir/kernel.c"
	assert_file_exists "$dir/runner"
	assert_equal "$(jget "$dir/candidate.json" .id)" "$id"
	assert_equal "$(jget "$dir/build.json" .ok)" true
	assert_equal "$(jget "$dir/build.json" .target)" cpu
	assert_equal "$(jget "$dir/bench.json" .id)" "$id"
	assert_equal "$(jget "$dir/bench.json" .status)" ok
	assert_equal "$(jget "$dir/bench.json" .correct)" true
	run jget "$dir/bench.json" '.score_us > 0'
	assert_output true
}

@test "make generation N=2 makes generations 0, 1 and 2 as population(5) lays them out" {
	run -0 gen N=2
	assert_output --regexp "pop: generations 0\.\.2, 7 kernels, 7 correct; best g00[0-2]c[0-2] "
	assert_candidate pop/gen-000/c0
	for g in 001 002; do
		assert_file_exists pop/gen-$g/select.json
		assert_file_exists pop/gen-$g/hypotheses.json
		for s in 0 1 2; do
			assert_candidate pop/gen-$g/c$s
			assert_equal "$(jget pop/gen-$g/c$s/candidate.json .generation)" "$((10#$g))"
			assert_equal "$(jget pop/gen-$g/c$s/candidate.json .slot)" "$s"
		done
	done
	assert_file_not_exists pop/gen-000/select.json
	assert_file_not_exists pop/gen-003
	# generation 2 builds on a kernel of generation 0 or 1, and says which
	run jget pop/gen-002/select.json .base
	assert_output --regexp '^g00[01]c[0-2]$'
	assert_equal "$(jget pop/gen-002/c1/candidate.json .parents.base)" "$output"
	# the kept plans follow the rule, whatever the timings made the plans
	run -0 jf pop/gen-002/hypotheses.json '.chosen == rule' \
		.chosen
	assert_line --index 0 true
	assert_all_json_valid pop
	assert_no_temp_files pop
}

@test "the second run of the same command does nothing and says so" {
	use_gen1
	touch marker
	sleep 1
	run -0 gen N=1
	assert_line "ks: generations 0..1 of $BATS_TEST_TMPDIR/pop are complete: nothing to do"
	run find pop -newer marker
	assert_output ""
}

@test "make generation N=0 makes only the seed, built and benched" {
	run -0 gen N=0
	assert_candidate pop/gen-000/c0
	assert_file_not_exists pop/gen-001
	assert_equal "$(jget pop/gen-000/c0/candidate.json .model)" seed
	cmp "$KS_ROOT/kernels/sgemm/seed.c" pop/gen-000/c0/kernel.c
}

@test "a later N extends the run without redoing earlier generations" {
	use_gen1
	touch marker
	sleep 1
	run -0 gen N=2
	run find pop/gen-000 pop/gen-001 -newer marker -type f
	assert_output ""
	assert_file_exists pop/gen-002/c2/bench.json
}

@test "make -j runs the K candidates in parallel and loses nothing" {
	run -0 gen -j3 N=1 K=3
	for s in 0 1 2; do
		assert_candidate pop/gen-001/c$s
	done
	assert_no_temp_files pop
}

@test "K sets the number of candidates per generation" {
	run -0 gen N=1 K=2
	assert_candidate pop/gen-001/c1
	assert_file_not_exists pop/gen-001/c2
	# the model's draw (plan 4, the most innovative), then the highest max uplift
	assert_equal "$(jget pop/gen-001/hypotheses.json .chosen)" "[4,0]"
}

@test "offline, the notice that no LLM is configured comes once a generation, not once a stage process" {
	# (before: five times in generation 1 with K=3: select, hypothesize and each implement)
	KS_QUIET=0 run -0 gen N=1 K=3
	run grep -c "no LLM configured (KS_LLM_PROVIDER, KS_LLM_URL or an API key): using the offline proposer" <<<"$output"
	assert_output 1
}

@test "each stage can be rerun by hand: delete its output and make again" {
	use_gen1
	rm pop/gen-001/c1/bench.json
	run -0 gen N=1
	assert_equal "$(jget pop/gen-001/c1/bench.json .status)" ok
	run -0 ks-bench pop/gen-001/c2
	assert_equal "$(jget pop/gen-001/c2/bench.json .status)" ok
}

@test "make report shows every kernel" {
	use_gen1
	run -0 make -s --no-print-directory -C "$KS_ROOT" report POP="$BATS_TEST_TMPDIR/pop"
	assert_line --index 0 --regexp '^id +base +ref +status +score_us +speedup +spread +plan$'
	# the spread: a relative standard error, or - with one run a shape; ! when a shape hit the time cap
	assert_line --index 1 --regexp '^g000c0 +- +- +ok +[0-9.]+ +1\.00x +([0-9]+\.[0-9]%|-)!?  \(seed\)$'
	assert_line --index 2 --regexp '^g001c0 +g000c0 +g000c0 +ok '
}

@test "a report.html made by make report is written again at each generation's end, and says when it was true" {
	use_gen1
	run -0 make -s --no-print-directory -C "$KS_ROOT" report POP="$BATS_TEST_TMPDIR/pop"
	run -0 grep -o 'Generations 0 to [0-9]* as they were at [0-9-]* [0-9:]* UTC' pop/report.html
	assert_output --regexp '^Generations 0 to 1 as they were at '
	run grep -c 'id="row-g002c0"' pop/report.html
	assert_output 0
	run -0 gen N=2
	run -0 grep -o 'Generations 0 to [0-9]*' pop/report.html
	assert_output "Generations 0 to 2"
	run -0 grep -c 'id="row-g002c0"' pop/report.html
	assert_no_temp_files pop
	# a run whose user never asked for the page gets none
	rm pop/report.html
	run -0 gen N=3
	assert_not_exist pop/report.html
}

@test "the chain for N=999 K=5: each generation's select.json waits for every bench.json of the one before (order-only)" {
	# (-q: make nothing; it fails, as /p/run.json is not there, after printing the rules.) Its 226,000
	# lines are read by grep: bats's run and assert_line over them took 600 s of a 22-minute make test
	make -pq --no-print-directory -C "$KS_ROOT" ks-pipeline POP=/p N=999 K=5 >rules 2>&1 || true
	local benches="c0/bench.json /p/gen-GEN/c1/bench.json /p/gen-GEN/c2/bench.json /p/gen-GEN/c3/bench.json /p/gen-GEN/c4/bench.json"
	rule() { grep -Fxq -- "$1" rules || fail "no line '$1' in make's rules"; }
	# and each generation's plans: a generation whose plans keep none has no bench to wait for
	rule "ks-pipeline: /p/gen-999/${benches//GEN/999} /p/gen-999/hypotheses.json"
	rule "/p/gen-001/select.json: | /p/gen-000/c0/bench.json"
	rule "/p/gen-002/select.json: | /p/gen-001/${benches//GEN/001} /p/gen-001/hypotheses.json"
	rule "/p/gen-010/select.json: | /p/gen-009/${benches//GEN/009} /p/gen-009/hypotheses.json"
	rule "/p/gen-100/select.json: | /p/gen-099/${benches//GEN/099} /p/gen-099/hypotheses.json"
	rule "/p/gen-999/select.json: | /p/gen-998/${benches//GEN/998} /p/gen-998/hypotheses.json"
	rule "/p/gen-999/c4/candidate.json: /p/gen-999/hypotheses.json"
	rule "/p/gen-000/c0/candidate.json: /p/run.json"
	run grep -c -F -e /p/gen-1000 -e /c5/ rules
	assert_output 0
}

@test "five generations improve on the seed (as BENCHMARKS.md's two runs of make generation N=5 did)" {
	slow
	run -0 gen N=5 KS_TIME_CAP_S=0.5 KS_MIN_RUNS=5
	assert_output --regexp "best g00[1-5]c[0-2] "
}
