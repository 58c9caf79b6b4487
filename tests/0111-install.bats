#!/usr/bin/env bats
# make install and uninstall, the installed copy at work, and the manual
# pages: each renders without a warning (mandoc, groff, man), each tool's
# SYNOPSIS is its usage line, and every EXAMPLES command of every page
# runs, with the installed copy, from the starting state the page names.

bats_require_minimum_version 1.5.0
load helper/common
load helper/llm

# the C tools; ks-lock, make's; and the evaluator script
TOOLS='ks-init ks-select ks-hypothesize ks-implement ks-build ks-bench ks-profile ks-report ks-query ks-lock ks-eval-popcorn'

setup_file() {
	DEST=$BATS_FILE_TMPDIR/dest
	make -s --no-print-directory -C "$KS_ROOT" install PREFIX=/usr/local DESTDIR="$DEST" >/dev/null || return
	# the pages' starting state: make generation N=1 POP=pop, by the installed copy
	mkdir "$BATS_FILE_TMPDIR/start" && cd "$BATS_FILE_TMPDIR/start" || return
	make -s --no-print-directory -f "$DEST/usr/local/share/kernel-scientist/pipeline.mk" \
		generation N=1 POP=pop >/dev/null
}

teardown() {
	llm_server_stop
}

setup() {
	DEST=$BATS_FILE_TMPDIR/dest
	PREFIX=$DEST/usr/local
	DATA=$PREFIX/share/kernel-scientist
	START=$BATS_FILE_TMPDIR/start/pop
	# the installed tools, and not the source tree's (which common.bash puts first)
	PATH="$PREFIX/bin:${PATH//"$KS_TOOLS:"/}"
	cd "$BATS_TEST_TMPDIR"
}

# installed_list ROOT: every file under ROOT, without ROOT, sorted.
installed_list() {
	(cd "$1" && find . -type f | sed 's#^\./#/#' | LC_ALL=C sort)
}

# expected_list: what make install PREFIX=/usr/local writes, from the source tree.
expected_list() {
	local t
	{
		for t in $TOOLS; do
			echo "/usr/local/bin/$t"
			echo "/usr/local/share/man/man1/$t.1"
		done
		echo /usr/local/share/man/man5/population.5
		echo /usr/local/share/man/man5/ks-problem.5
		echo /usr/local/share/man/man7/kernel-scientist.7
		(cd "$KS_ROOT" && ls README.md BENCHMARKS.md tests/INTEGRITY.md docs/*) | sed 's#^#/usr/local/share/doc/kernel-scientist/#'
		echo /usr/local/share/kernel-scientist/pipeline.mk
		(cd "$KS_ROOT" && find prompts kernels -type f) | sed 's#^#/usr/local/share/kernel-scientist/#'
	} | LC_ALL=C sort
}

@test "make install: the tools in bin, the pages in man1, man5 and man7, the prompts, kernels and pipeline.mk in share/kernel-scientist; nothing else" {
	run -0 installed_list "$DEST"
	assert_output "$(expected_list)"
	assert_file_exists "$DATA/kernels/common/ks_harness.c"
	assert_file_exists "$DATA/kernels/sgemm/problem.json"
	assert_file_exists "$DATA/prompts/implement.md"
	local t
	for t in $TOOLS; do
		assert_file_executable "$PREFIX/bin/$t"
		run -0 stat -c %a "$PREFIX/share/man/man1/$t.1"
		assert_output 644
	done
	# the starting state, made by the installed tools from the installed data
	run -0 jget "$BATS_FILE_TMPDIR/start/pop/gen-000/c0/build.json" .command
	assert_output --partial "-I$DATA/kernels/common "
	assert_output --partial "-I$DATA/kernels/sgemm "
}

@test "a pipeline.mk in a folder whose path holds a space stops with one line saying so" {
	# (before: it could not find itself, and took the tools of ../../bin from wherever make ran)
	mkdir "with space"
	cp "$DATA/pipeline.mk" "with space/"
	run -2 make --no-print-directory -f "$BATS_TEST_TMPDIR/with space/pipeline.mk" report POP=pop
	assert_output --partial "pipeline.mk: cannot find its own path, 'space/pipeline.mk' (make cannot name a file in a folder whose path holds a space)"
}

@test "an installed copy runs make generation from an unrelated directory, on a problem folder of one's own" {
	mkdir -p elsewhere/my-kernels && cd elsewhere
	cp -r "$DATA/kernels/common" my-kernels/
	cp -r "$DATA/kernels/sgemm" my-kernels/mygemm
	run -0 make --no-print-directory -f "$DATA/pipeline.mk" generation N=1 K=2 POP=pop PROBLEM=mygemm \
		KS_KERNELS_DIR=my-kernels
	# pipeline.mk ran the installed tools, not the source tree's
	assert_line "$PREFIX/bin/ks-build -o pop/gen-001/c1/build.json pop/gen-001/c1"
	refute_output --partial "$KS_ROOT/tools"
	assert_line --regexp '^pop: generations 0\.\.1, 3 kernels, 3 correct; best g00[01]c[01] '
	assert_equal "$(jf pop/run.json .problem .target .k)" "$(printf 'mygemm\ncpu\n2')"
	assert_equal "$(jf pop/gen-001/select.json .base .model)" "$(printf 'g000c0\noffline')"
	assert_equal "$(jget pop/gen-001/hypotheses.json '.chosen | length')" 2
	local c
	for c in gen-000/c0 gen-001/c0 gen-001/c1; do
		assert_equal "$(jget pop/$c/candidate.json .id)" "g${c:4:3}${c:8}"
		assert_equal "$(jf pop/$c/build.json .ok .target)" "$(printf 'true\ncpu')"
		# the problem's own folder, as KS_KERNELS_DIR names it
		run -0 jget pop/$c/build.json .command
		assert_output --partial "-Imy-kernels/common -Imy-kernels/mygemm "
		assert_equal "$(jf pop/$c/bench.json .status .correct '.score_us > 0')" "$(printf 'ok\ntrue\ntrue')"
	done
	assert_equal "$(jget pop/gen-001/c1/candidate.json .parents.base)" g000c0
	# the same command again has nothing to do
	run -0 make -s --no-print-directory -f "$DATA/pipeline.mk" generation N=1 K=2 POP=pop PROBLEM=mygemm \
		KS_KERNELS_DIR=my-kernels
	assert_line "ks: generations 0..1 of pop are complete: nothing to do"
}

@test "the installed pipeline.mk: N and POP alone continue a run; another K is refused with the command that continues it" {
	cp -a "$START" pop
	run -2 make -s --no-print-directory -f "$DATA/pipeline.mk" generation N=1 POP=pop K=2
	assert_output --partial "ks: 'pop' is a run of problem sgemm on target cpu with K=3 (its run.json), not K=2: continue it with 'make -f $DATA/pipeline.mk generation N=1 POP=pop', or start another with a new POP"
	run -0 make -s --no-print-directory -f "$DATA/pipeline.mk" generation N=1 POP=pop
	assert_line "ks: generations 0..1 of pop are complete: nothing to do"
}

@test "pipeline.mk finds its tools: the source tree's with make -f from elsewhere; without any, one error line" {
	run -0 make -s --no-print-directory -f "$KS_ROOT/pipeline.mk" report POP="$START"
	assert_line --regexp "^$START: generations 0\.\.1, 4 kernels, 4 correct; "
	# a pipeline.mk whose <prefix>/bin holds no tools
	mkdir -p prefix/share/kernel-scientist
	cp "$DATA/pipeline.mk" prefix/share/kernel-scientist/
	run -2 make -s --no-print-directory -f prefix/share/kernel-scientist/pipeline.mk generation N=1 POP=pop
	assert_output --partial "*** no tools in '$BATS_TEST_TMPDIR/prefix/bin' (KS_BIN): build them (make) or install them (make install).  Stop."
	assert_not_exist pop
}

@test "make install says where it staged a DESTDIR copy and what to run once it is moved; the documents the pages name are installed" {
	# (before: 'installed in DEST/usr/local: run make -f /usr/local/share/...', a path that did not exist yet)
	local d=$BATS_TEST_TMPDIR/d
	run -0 make -s --no-print-directory -C "$KS_ROOT" install PREFIX=/usr/local DESTDIR="$d"
	assert_line "staged in $d/usr/local for /usr/local: once it is there, run make -f /usr/local/share/kernel-scientist/pipeline.mk generation N=1 POP=pop; man kernel-scientist"
	run -0 make -s --no-print-directory -C "$KS_ROOT" install PREFIX="$BATS_TEST_TMPDIR/p"
	assert_line "installed in $BATS_TEST_TMPDIR/p: run make -f $BATS_TEST_TMPDIR/p/share/kernel-scientist/pipeline.mk generation N=1 POP=pop; man kernel-scientist"
	# kernel-scientist(7) names the documents and where they are installed, and they are there
	run -0 grep -h -A1 '^\.Pa <prefix>/share/doc/kernel-scientist/ :$' "$KS_ROOT/man/kernel-scientist.7"
	local f n=0
	for f in README.md docs/new-problem.md docs/testing.md BENCHMARKS.md tests/INTEGRITY.md; do
		grep -qx "\.Pa $f ," "$KS_ROOT/man/kernel-scientist.7" || fail "kernel-scientist(7) does not name $f"
		cmp "$KS_ROOT/$f" "$BATS_TEST_TMPDIR/p/share/doc/kernel-scientist/$f"
		n=$((n + 1))
	done
	assert_equal "$n" 5
	# no page sends a reader to a README section: the reference is in the pages
	run grep -l -e "README's" -e 'README\.md, ' "$KS_ROOT"/man/*.[157]
	assert_output ""
}

@test "the README is an entry page: under 300 lines; every manual page and document it names exists and is installed" {
	local readme=$KS_ROOT/README.md ref name sec f n=0
	run -0 wc -l <"$readme"
	[ "$output" -lt 300 ] || fail "README.md has $output lines: the reference belongs in the manual pages"
	# the pages: name(N), each installed, and every installed page named
	run -0 bash -c "grep -oE '(ks-[a-z-]+|population|kernel-scientist)\([1-9]\)' '$readme' | LC_ALL=C sort -u"
	local named=$output
	for ref in $named; do
		name=${ref%(*} sec=${ref#*(} sec=${sec%)}
		assert_file_exists "$KS_ROOT/man/$name.$sec"
		cmp "$KS_ROOT/man/$name.$sec" "$PREFIX/share/man/man$sec/$name.$sec"
	done
	assert_equal "$named" "$(cd "$PREFIX/share/man" && ls man*/* | sed 's#^man[0-9]/\(.*\)\.\([0-9]\)$#\1(\2)#' | LC_ALL=C sort)"
	# the documents: the targets of its links and the .md files it names in backquotes, each installed,
	# under share/doc/kernel-scientist or, with the kernels, under share/kernel-scientist
	while read -r f; do
		n=$((n + 1))
		assert_file_exists "$KS_ROOT/$f"
		if [ -f "$PREFIX/share/doc/kernel-scientist/$f" ]; then
			cmp "$KS_ROOT/$f" "$PREFIX/share/doc/kernel-scientist/$f"
		else
			cmp "$KS_ROOT/$f" "$PREFIX/share/kernel-scientist/$f" || fail "$f, which the README names, is not installed"
		fi
	done < <({ grep -oE '\]\([^)]+\)' "$readme" | sed 's/^](//; s/)$//'
		grep -oE '`[A-Za-z0-9_./-]+\.md`' "$readme" | tr -d '`'; } | LC_ALL=C sort -u)
	[ "$n" -ge 6 ] || fail "the README names only $n documents"
}

@test "make uninstall removes what install put there and the folders it made, and nothing else" {
	local d=$BATS_TEST_TMPDIR/d
	make -s --no-print-directory -C "$KS_ROOT" install PREFIX=/usr/local DESTDIR="$d" >/dev/null
	run -0 installed_list "$d"
	assert_output "$(expected_list)"
	run -0 make -s --no-print-directory -C "$KS_ROOT" uninstall PREFIX=/usr/local DESTDIR="$d"
	run -0 installed_list "$d"
	assert_output ""
	assert_not_exist "$d/usr/local/share/kernel-scientist"
	assert_not_exist "$d/usr/local/share/doc/kernel-scientist"
	# the standard folders stay (they may hold others' files)
	assert_dir_exists "$d/usr/local/bin"
	assert_dir_exists "$d/usr/local/share/man/man1"

	# files of others, beside and inside what it installed, stay, with their folders
	make -s --no-print-directory -C "$KS_ROOT" install PREFIX=/usr/local DESTDIR="$d" >/dev/null
	mkdir "$d/usr/local/share/kernel-scientist/kernels/mine"
	touch "$d/usr/local/bin/other" "$d/usr/local/share/man/man1/other.1" \
		"$d/usr/local/share/kernel-scientist/kernels/mine/problem.json" \
		"$d/usr/local/share/kernel-scientist/prompts/knowledge/mine.md"
	run -0 make -s --no-print-directory -C "$KS_ROOT" uninstall PREFIX=/usr/local DESTDIR="$d"
	run -0 installed_list "$d"
	assert_output "$(printf '%s\n' /usr/local/bin/other /usr/local/share/kernel-scientist/kernels/mine/problem.json \
		/usr/local/share/kernel-scientist/prompts/knowledge/mine.md /usr/local/share/man/man1/other.1)"
	assert_not_exist "$d/usr/local/share/kernel-scientist/kernels/sgemm"
	assert_not_exist "$d/usr/local/share/kernel-scientist/prompts/targets"
}

# rendered PAGE: the page as mandoc renders it in ASCII, without overstrikes or tabs.
rendered() {
	mandoc -T ascii "$1" | col -bx
}

# section PAGE TITLE: the lines of section TITLE of the rendered PAGE.
section() {
	rendered "$1" | awk -v t="$2" '$0 == t { on = 1; next } /^[A-Z][A-Z ]*$/ { on = 0 } on'
}

@test "every page: mandoc -T lint, groff -ww and man -l render it without a word; its cross-references exist" {
	local page name xr n=0
	for page in "$PREFIX"/share/man/man1/*.1 "$PREFIX"/share/man/man5/*.5 "$PREFIX"/share/man/man7/*.7; do
		n=$((n + 1))
		name=$(basename "$page")
		# Not avoidable, so left out: a page not in /usr/share/man (ours, until
		# installed there) is "not found" by mandoc's lint, which searches only
		# there, and a missing mandoc.db is said of each page it finds.
		run --separate-stderr mandoc -T lint -W style "$page"
		run grep -v -e 'STYLE: referenced manual not found' -e 'outdated mandoc.db lacks' <<<"$output${stderr:+
$stderr}"
		assert_output ""
		run -0 --separate-stderr groff -ww -mandoc -Tutf8 -z "$page"
		[ -z "$stderr" ] || fail "groff warns of $name: $stderr"
		run -0 --separate-stderr env MANWIDTH=80 man -l "$page"
		[ -z "$stderr" ] || fail "man -l $name: $stderr"
		assert_line NAME
		assert_line --regexp "^ +${name%.*} "
		# every reference to a page of the suite names one that is installed
		while read -r xr; do
			assert_file_exists "$PREFIX/share/man/man${xr#* }/${xr% *}.${xr#* }"
		done < <(sed -n 's/^\.Xr \(ks-[a-z]*\|population\|kernel-scientist\) \([0-9]\).*/\1 \2/p' "$page")
	done
	assert_equal "$n" 14
}

@test "each tool's page: the sections a page has, the SYNOPSIS is the tool's usage line, the exit statuses 0, 1 and 2" {
	local t page synopsis usage s
	for t in $TOOLS; do
		page=$PREFIX/share/man/man1/$t.1
		for s in NAME SYNOPSIS DESCRIPTION ENVIRONMENT FILES 'EXIT STATUS' EXAMPLES 'SEE ALSO'; do
			rendered "$page" | grep -qx "$s" || fail "$t.1 has no section $s"
		done
		synopsis=$(section "$page" SYNOPSIS | tr -s ' \n' '  ' | sed 's/^ //; s/ $//')
		usage=$("$t" -h | head -n 1)
		assert_equal "usage: $synopsis" "$usage"
		run -0 section "$page" 'EXIT STATUS'
		assert_line --regexp '^ +0 +'
		assert_line --regexp '^ +1 +'
		assert_line --regexp '^ +2 +'
		section "$page" 'SEE ALSO' | grep -q 'kernel-scientist(7)' || fail "$t.1 does not refer to kernel-scientist(7)"
		section "$page" 'SEE ALSO' | grep -q 'population(5)' || fail "$t.1 does not refer to population(5)"
	done
}

# the KS_EVAL_ names that ks-bench sets for an evaluator (population(5), "External evaluators"), and
# KS_LAUNCHED, a note one tool leaves for the tool it launches: read by the tools, set by none of the user's
SET_FOR_TOOLS='KS_LAUNCHED|KS_EVAL_(DIMS|ID|MODE|PROBLEM|PROBLEM_DIR|SHAPES|SOURCE|TEST_SHAPES|TIMEOUT_S)'

# code_env_vars: every KS_ variable the user may set, from the tools' sources: the names in quotes in
# tools/*.c, tools/lib/*.c and tools/ks-eval-popcorn, but for those of SET_FOR_TOOLS.
code_env_vars() {
	grep -ohE "[\"']KS_[A-Z0-9_]*[A-Z0-9][\"']" "$KS_ROOT"/tools/*.c "$KS_ROOT"/tools/lib/*.c "$KS_ROOT/tools/ks-eval-popcorn" |
		tr -d "\"'" | grep -vxE "$SET_FOR_TOOLS" | LC_ALL=C sort -u
}

# page_env PAGE: the KS_ names of the ENVIRONMENT section of the installed PAGE.
page_env() {
	section "$1" ENVIRONMENT | grep -oE 'KS_[A-Z0-9_]*[A-Z0-9]' | LC_ALL=C sort -u
}

@test "the pages name every variable the tools read, in an ENVIRONMENT section; the LLM settings in kernel-scientist(7); and no variable the tools do not read" {
	local var page all=$BATS_TEST_TMPDIR/all missing= extra n=0
	for page in "$PREFIX"/share/man/man[17]/*.[17]; do
		page_env "$page"
	done | LC_ALL=C sort -u >"$all"
	page_env "$PREFIX/share/man/man7/kernel-scientist.7" >k7
	while read -r var; do
		n=$((n + 1))
		grep -qx -- "$var" "$all" || missing="$missing $var"
		case $var in
		KS_LLM_* | KS_*_MODEL | KS_MAX_TOKENS | KS_ANTHROPIC_VERSION)
			grep -qx -- "$var" k7 || missing="$missing $var(kernel-scientist)" ;;
		esac
	done < <(code_env_vars)
	[ "$n" -ge 60 ] || fail "read only $n variables from the tools' sources"
	[ -z "$missing" ] || fail "not in the ENVIRONMENT of any page (or of the page in parentheses):$missing"
	# the other way: a variable a page names is one the tools read (the per-stage and per-endpoint names
	# are made from their parts: KS_<STAGE>_EXTRA_BODY, KS_ENDPOINT_<NAME>_URL; KS_EVAL_* and KS_LLM_* are families)
	extra=$(comm -23 "$all" <(code_env_vars) | grep -vxE "$SET_FOR_TOOLS|KS_EVAL|KS_LLM|KS_(SELECT|HYPOTHESIZE|IMPLEMENT)_EXTRA_BODY|KS_ENDPOINT_NAME(_URL|_PROVIDER|_API_KEY)?") || :
	[ -z "$extra" ] || fail "the pages name variables the tools do not read: $extra"
}

# examples PAGE DIR: the command lines of PAGE's EXAMPLES section, as a
# reader sees them, one file each in DIR (001, 002, ...): a line
# beginning with "$ " in a literal block, with the lines indented deeper
# that follow it (a command continued).
examples() {
	mkdir -p "$2"
	section "$1" EXAMPLES | awk -v dir="$2" '
		function flush() { if (cmd != "") { f = sprintf("%s/%03d", dir, ++n); print cmd > f; close(f) } cmd = "" }
		match($0, /^ *\$ /) { flush(); ind = RLENGTH - 2; cmd = substr($0, RLENGTH + 1); next }
		cmd != "" && match($0, /^ */) && RLENGTH > ind && length($0) > RLENGTH { cmd = cmd "\n" substr($0, ind + 1); next }
		{ flush() }
		END { flush() }'
}

# run_examples PAGE [POP]: every EXAMPLES command of PAGE, in order, in
# ./work, which holds a copy of population POP as ./work/pop (without POP:
# empty), with /usr/local standing for the copy installed under DESTDIR;
# each must exit 0.  Sets EXAMPLES_RUN to their number.
run_examples() {
	local page=$1 pop=${2:-} f cmd n=0
	page=$(ls "$PREFIX"/share/man/man[157]/"$page")
	mkdir work
	[ -z "$pop" ] || cp -a "$pop" work/pop
	examples "$page" cmds
	for f in cmds/*; do
		[ -e "$f" ] || fail "$(basename "$page") has no command in its EXAMPLES"
		n=$((n + 1))
		cmd=$(cat "$f")
		run bash -o pipefail -c "cd work && ${cmd//\/usr\/local\//$PREFIX/}"
		[ "$status" -eq 0 ] || fail "$(basename "$page"): example $n exited $status: $cmd
$output"
	done
	EXAMPLES_RUN=$n
}

@test "EXAMPLES of ks-init(1) run" {
	run_examples ks-init.1 "$START"
	assert_equal "$(jf work/pop2/run.json .problem .k)" "$(printf 'sgemm\n2')"
}

@test "EXAMPLES of ks-select(1) run" {
	run_examples ks-select.1 "$START"
	assert_equal "$(jget work/pop/gen-002/select.json .base)" "$(jget work/again.json .base)"
}

@test "EXAMPLES of ks-hypothesize(1) run" {
	run_examples ks-hypothesize.1 "$START"
	assert_file_exists work/pop/gen-002/hypotheses.json
}

@test "EXAMPLES of ks-implement(1) run" {
	run_examples ks-implement.1 "$START"
	assert_equal "$(jget work/pop/gen-001/c1/bench.json .status)" ok
}

@test "EXAMPLES of ks-build(1) run" {
	run_examples ks-build.1 "$START"
	run -0 jget work/pop/gen-001/c2/build.json .compiler
	assert_output --regexp '^gcc '
}

@test "EXAMPLES of ks-bench(1) run" {
	run_examples ks-bench.1 "$START"
	assert_equal "$(jget work/pop/gen-001/c0/heldout.json .status)" ok
}

@test "EXAMPLES of ks-profile(1) run" {
	run_examples ks-profile.1 "$START"
	assert_file_exists work/pop/gen-000/c0/profile.json
}

@test "EXAMPLES of ks-report(1) run" {
	run_examples ks-report.1 "$START"
	assert_file_exists work/pop2/gen-002/hypotheses.json
	run -0 grep -c '<svg' work/pop/report.html
}

@test "EXAMPLES of ks-query(1) run" {
	run_examples ks-query.1 "$START"
	assert_equal "$EXAMPLES_RUN" 3
	run -0 "$PREFIX/bin/ks-query" -r work/pop
	assert_output --regexp '^sgemm cpu [0-9]+$'
	run -0 "$PREFIX/bin/ks-query" -t 2 work/pop
	assert_line --index 0 work/pop/gen-000/c0
	assert_equal "${#lines[@]}" 3
}

@test "EXAMPLES of ks-lock(1) run" {
	run_examples ks-lock.1 "$START"
	assert_equal "$EXAMPLES_RUN" 2
	# the last: the lock held by flock(1), which ks-lock names
	assert_line --regexp "^ks-lock: 'pop/\.lock' is held by pid [0-9]+ \(flock pop/\.lock ks-lock pop true\), left running by a make that has ended \(pid [0-9]+: "
	assert_line 75
}

@test "EXAMPLES of ks-eval-popcorn(1) run" {
	run_examples ks-eval-popcorn.1 "$START"
	assert_equal "$EXAMPLES_RUN" 1
}

@test "EXAMPLES of kernel-scientist(7) run, from an empty directory" {
	run_examples kernel-scientist.7
	assert_equal "$EXAMPLES_RUN" 10
	# make report wrote the page beside the table
	assert_file_exists work/pop/report.html
	assert_equal "$(jget work/mypop/run.json .problem)" mygemm
	# continued with N and POP alone: mygemm with K=2, from my-kernels, which run.json names
	assert_equal "$(jget work/mypop/run.json .kernels_dir)" "$BATS_TEST_TMPDIR/work/my-kernels"
	run -0 find work/mypop/gen-002 -mindepth 1 -maxdepth 1 -type d
	assert_equal "${#lines[@]}" 2
	run -0 jget work/mypop/gen-002/c0/build.json .command
	assert_output --partial "/work/my-kernels/mygemm "
	assert_equal "$(jget work/pop/gen-001/c2/bench.json .status)" ok
	assert_equal "$(jget work/pop/gen-000/c0/heldout.json .status)" ok
}

@test "EXAMPLES of ks-problem(5) run, from an empty directory" {
	run_examples ks-problem.5
	assert_equal "$EXAMPLES_RUN" 7
	assert_equal "$(jget work/my-kernels/mygemm/problem.json .tolerance.rtol)" 0.001
	# the last, make check, said ready
	assert_line --regexp '^problem mygemm, target cpu: ready: the seed builds, is correct on the [0-9]+ test shapes '
}

@test "EXAMPLES of population(5) run, the last on the ledger of a model's call" {
	# a run with a model: the selection of generation 1 made again by the fixture model
	cp -a "$START" pop-llm
	llm_server_start '{"*": [{"content": "{\"base\": \"g000c0\", \"reference\": \"g000c0\", \"reason\": \"the seed\"}"}]}'
	run -0 ks-select -o sel.json pop-llm/gen-001
	llm_server_stop
	unset KS_LLM_URL KS_LLM_API_KEY KS_LLM_PROVIDER KS_MODEL
	assert_file_exists pop-llm/llm-usage.jsonl
	run_examples population.5 pop-llm
	assert_equal "$EXAMPLES_RUN" 7
	run -0 bash -c "cd work && $(cat cmds/007)"
	assert_line --regexp '^  "prompt": [1-9][0-9]*,$'
	assert_line --regexp '^  "completion": [1-9][0-9]*$'
}
