#!/usr/bin/env bats
# kill -9 of make's whole group at random moments, over and over: after
# each kill the population is consistent, and the same command completes it.

bats_require_minimum_version 1.5.0
load helper/common

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# The invariants that must hold at any moment, even right after a kill:
# no torn or empty JSON file, and no stage's output without its input.
assert_consistent() {
	local f dir
	assert_all_json_valid pop
	run find pop -name '*.json' -size 0
	assert_output ""
	for f in $(find pop -name bench.json); do
		dir=$(dirname "$f")
		assert_file_exists "$dir/build.json"
	done
	for f in $(find pop -name build.json); do
		dir=$(dirname "$f")
		assert_file_exists "$dir/candidate.json"
	done
	for f in $(find pop -name candidate.json); do
		dir=$(dirname "$f")
		assert_file_exists "$dir/kernel.c"
	done
}

# kill_rounds N: N runs of make generation N=1, each killed at a random moment.
kill_rounds() {
	local round delay pid
	for round in $(seq "$1"); do
		setsid make -s --no-print-directory -C "$KS_ROOT" generation POP="$BATS_TEST_TMPDIR/pop" N=1 \
			>>make.log 2>&1 &
		pid=$!
		delay=$(awk -v s="$RANDOM" 'BEGIN { srand(s); printf "%.2f", 0.1 + rand() * 3 }')
		echo "round $round: kill after $delay s" >>kills.log
		sleep "$delay"
		kill -KILL -- -"$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		assert_consistent
	done
}

@test "six kills at random moments, then the same command: a complete, consistent population" {
	kill_rounds 6
	run -0 make -s --no-print-directory -C "$KS_ROOT" generation POP="$BATS_TEST_TMPDIR/pop" N=1
	assert_consistent
	assert_complete
}

@test "forty kills at random moments (slow)" {
	slow
	kill_rounds 40
	run -0 make -s --no-print-directory -C "$KS_ROOT" generation POP="$BATS_TEST_TMPDIR/pop" N=1
	assert_consistent
	assert_complete
}
