#!/usr/bin/env bats
# The usage contract every ks-* tool keeps, checked for all of them in one
# loop: -h and --help print the usage to stdout and exit 0; no operand,
# two operands or an unknown option is a usage error (exit 2, nothing on
# stdout, the usage on stderr) that writes nothing.

bats_require_minimum_version 1.5.0
load helper/common

setup() {
	cd "$BATS_TEST_TMPDIR"
	# the seed implemented: each tool has an operand it could work on
	make_pop pop
	ks-implement pop/gen-000/c0
}

# TOOL;its usage line;a word of its -h text;an operand;more operands than it takes, less one (none for
# ks-lock, whose error is a pop without a command);an option it does not know
USAGE='
ks-init;usage: ks-init [-p problem] [-t target] [-k K] [-o file] pop;run.json;new;other;-x
ks-select;usage: ks-select [-o file] pop/gen-NNN;select.json;pop/gen-001;pop/gen-002;-x
ks-hypothesize;usage: ks-hypothesize [-o file] pop/gen-NNN;hypotheses.json;pop/gen-001;pop/gen-002;-q
ks-implement;usage: ks-implement [-o file] pop/gen-NNN/cS;candidate.json;pop/gen-001/c0;pop/gen-001/c1;-z
ks-build;usage: ks-build [-o file] pop/gen-NNN/cS;KS_CC;pop/gen-000/c0;pop/gen-000/c1;-j
ks-bench;usage: ks-bench [-H] [-o file] pop/gen-NNN/cS;KS_BENCH_TIMEOUT_S;pop/gen-000/c0;pop/gen-000/c1;-t
ks-profile;usage: ks-profile [-o file] pop/gen-NNN[/cS];profile.json;pop/gen-000/c0;pop/gen-000/c1;-x
ks-report;usage: ks-report [-b | -E N | -g N | -s | --html [-o file]] pop [pop2];-b  print only the summary lines;pop;pop pop;-x
ks-query;usage: ks-query -r | -e | -t N pop;-e  the candidate directories;pop;pop;-x
ks-lock;usage: ks-lock pop command [argument ...];pop/.lock;pop;;-x
'

@test "every tool: -h and --help print usage to stdout; no operand, two, or an unknown option exit 2 with usage on stderr and write nothing" {
	local tool usage word one two bad before n=0
	before=$(find pop -printf '%p %s %T@\n' | sort)
	while IFS=';' read -r tool usage word one two bad; do
		[ -n "$tool" ] || continue
		n=$((n + 1))
		# (each assertion's message shows the usage line, so the tool)
		run -0 --separate-stderr "$tool" -h
		assert_line --index 0 "$usage"
		assert_output --partial "$word"
		assert_equal "$stderr" ""
		run -0 --separate-stderr "$tool" --help
		assert_line --index 0 "$usage"
		assert_equal "$stderr" ""
		run -2 --separate-stderr "$tool"
		assert_output ""
		[[ $stderr == "$usage"* ]] || fail "$tool without an operand: stderr: $stderr"
		# (ks-report takes two populations to compare: three is its error)
		# shellcheck disable=SC2086
		run -2 --separate-stderr "$tool" "$one" $two
		assert_output ""
		assert_equal "${stderr_lines[0]}" "$usage"
		run -2 --separate-stderr "$tool" "$bad" "$one"
		assert_output ""
		[[ $stderr == *"$usage"* ]] || fail "$tool $bad: stderr: $stderr"
		# nothing written, not even the directory of the output
		assert_equal "$(find pop -printf '%p %s %T@\n' | sort)" "$before"
		assert_not_exist new
	done <<<"$USAGE"
	assert_equal "$n" 10
}
