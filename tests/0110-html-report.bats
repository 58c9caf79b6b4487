#!/usr/bin/env bats
# ks-report --html: the population as one page that needs no network,
# rendered in a real browser (headless chromium): a chart point and a
# table row per kernel, a table that sorts by a click on a header, and
# everything from the population shown as text, never run.

bats_require_minimum_version 1.5.0
load helper/common

# The population is made once, then copied (use): the seed and kernels of
# several statuses over three generations, plans with an expected uplift,
# a transcript, a ledger of LLM calls, and text that would be markup.
setup_file() {
	cd "$BATS_FILE_TMPDIR" || return
	make_pop mixed
	fake_cand mixed 0 0 ok 1 ''
	with_sol mixed/gen-000/c0 100/10 120/10 80/10
	# generation 1: a faster kernel (inside its plan's range), an incorrect one, one that did not build
	fake_cand mixed 1 0 ok 1 'BM=32' g000c0 g000c0
	with_sol mixed/gen-001/c0 50/10 300/10 40/10
	jset mixed/gen-001/c0/candidate.json '.plan = {title: "BM 16 -> 32", description: "larger blocks",
		uplift_min: 10, uplift_max: 30, index: 0} | .usage = {prompt_tokens: 1200, completion_tokens: 300}'
	fake_cand mixed 1 1 incorrect 0 'BN=32' g000c0 g000c0
	jset mixed/gen-001/c1/candidate.json '.plan = {title: "<img src=x onerror=alert(2)>", uplift_min: 5,
		uplift_max: 15, index: 1}'
	fake_cand mixed 1 2 build_failed 0 'BK=16' g000c0 g000c0
	printf '%s\n' '/* </script><script>alert(1)</script> and <b>bold</b> & more */' 'void sgemm(void) {}' \
		>mixed/gen-001/c2/kernel.c
	# generation 2: slower than its base (below its plan's range), one that crashed, one that timed out
	fake_cand mixed 2 0 ok 1 'UNROLL=2' g001c0 g000c0
	with_sol mixed/gen-002/c0 90/10 60/10 200/10
	jset mixed/gen-002/c0/candidate.json '.plan = {title: "UNROLL 1 -> 2", uplift_min: 50, uplift_max: 80, index: 0}'
	fake_cand mixed 2 1 crashed 0 'BN=128' g001c0 g000c0
	jset mixed/gen-002/c1/bench.json '.message = "Segmentation fault <i>here</i>"'
	fake_cand mixed 2 2 timeout 0 'BK=64' g001c0 g000c0
	# generation 3: a candidate not benched yet
	fake_cand mixed 3 0 ok 1 'BM=64' g002c0 g001c0
	rm mixed/gen-003/c0/bench.json
	jset mixed/gen-003/c0/candidate.json '.parents.reference = "\"><b>ref</b>"'
	mkdir mixed/gen-001/c0/llm
	printf '# user\n\nWrite it.\n\n# reply (m)\n\n<script>document.body.setAttribute("data-pwned", "1")</script>\n' \
		>mixed/gen-001/c0/llm/implement-1.md
	{
		echo '{"stage": "select", "where": "w", "model": "m", "prompt_tokens": 4000, "completion_tokens": 100, "cached": false}'
		echo '{"stage": "hypothesize", "where": "w", "model": "m", "prompt_tokens": 15000, "completion_tokens": 2000, "cached": false}'
		echo '{"stage": "implement", "where": "w", "model": "m", "prompt_tokens": 13000, "completion_tokens": 2500, "cached": false}'
		echo '{"stage": "implement", "where": "w", "model": "m", "prompt_tokens": 13000, "completion_tokens": 2500, "cached": true}'
		echo '{"stage": "implement", "where": "w", "model": "m", "prompt_tokens": 0, "completion_tokens": 0, "cached": false, "failed": "timeout"}'
	} >mixed/llm-usage.jsonl
}

setup() {
	command -v chromium >/dev/null || skip "chromium is not installed (tools/ks-deps test installs it)"
	cd "$BATS_TEST_TMPDIR"
	# the page says when it was made: this time, so that two pages of one population are the same bytes
	export SOURCE_DATE_EPOCH=1764806400
}

# browse ARGS...: headless chromium, bounded in time, with a profile of the test's own
browse() {
	timeout 90 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$BATS_TEST_TMPDIR/chrome" \
		--no-first-run --virtual-time-budget=5000 "$@" 2>/dev/null
}

# dom [FRAGMENT]: ./page.html as the browser has it after its script ran
dom() {
	browse --dump-dom "file://$BATS_TEST_TMPDIR/page.html${1:+#$1}"
}

# rows FILE: the ids of the table's rows, in the order the file has them
rows() {
	grep -o '<tr id="row-[a-z0-9]*"' "$1" | sed 's/.*row-//; s/"$//' | tr '\n' ' ' | sed 's/ $//'
}

@test "ks-report --html prints one page that names nothing outside it; -o writes the same bytes" {
	use mixed
	ks-report --html pop >page.html
	run -0 head -c 15 page.html
	assert_output "<!DOCTYPE html>"
	run -0 tail -n 1 page.html
	assert_output "</html>"
	# no address: no http(s), no protocol-relative link, every href to the page itself, no src or <link
	run grep -c -i -E 'https?://' page.html
	assert_output 0
	run grep -o -E '(href|src|xlink:href|action)="[^"]*"' page.html
	refute_output --regexp '(href|src|xlink:href|action)="[^#]'
	assert_output --partial 'href="#k-g001c0"'
	run grep -c -i -E '<link|<iframe|<img|@import|url\(' page.html
	assert_output 0
	run -0 ks-report --html -o out.html pop
	assert_output ""
	cmp out.html page.html
	assert_no_temp_files .
	# the population is left as it was: the page goes where -o says
	assert_not_exist pop/report.html
}

@test "make report prints the table and writes POP/report.html, the page of ks-report --html" {
	use mixed
	run -0 make -s --no-print-directory -C "$KS_ROOT" report POP="$BATS_TEST_TMPDIR/pop"
	assert_line --index 0 --regexp '^id +base +ref +status +score_us'
	assert_line --regexp '^g001c2 +g000c0 +g000c0 +build_failed '
	# the last line says where the page is
	assert_line --index -1 "HTML report: $BATS_TEST_TMPDIR/pop/report.html"
	assert_file_exists pop/report.html
	ks-report --html "$BATS_TEST_TMPDIR/pop" >page.html
	cmp pop/report.html page.html
	assert_no_temp_files pop
	# again: the same bytes, and an unchanged file is left alone (the atomic writer's rule)
	touch -d '2020-01-01' pop/report.html
	run -0 make -s --no-print-directory -C "$KS_ROOT" report POP="$BATS_TEST_TMPDIR/pop"
	assert_equal "$(stat -c %Y pop/report.html)" "$(date -d '2020-01-01' +%s)"
}

@test "in a browser: a chart point and a table row per kernel, a marker per status in the legend" {
	use mixed
	ks-report --html pop >page.html
	dom >dom.html
	# 8 kernels: 3 ok, incorrect, build_failed, crashed, timeout, and one not benched (pending)
	run -0 grep -c '<path class="pt"' dom.html
	assert_output 8
	run -0 grep -o '<path class="pt" data-id="[a-z0-9]*" data-status="[a-z_]*"' dom.html
	assert_line '<path class="pt" data-id="g001c2" data-status="build_failed"'
	assert_line '<path class="pt" data-id="g003c0" data-status="pending"'
	assert_equal "$(rows dom.html)" "g000c0 g001c0 g001c1 g001c2 g002c0 g002c1 g002c2 g003c0"
	run -0 grep -c '<tr id="row-' dom.html
	assert_output 8
	# the lineage: a node per kernel, an edge from each parent
	run -0 grep -c '<g class="node"' dom.html
	assert_output 8
	run -0 grep -c '<path class="edge base" data-from="g001c0"' dom.html
	assert_output 3
	run -0 grep -c '<path class="edge ref" data-from="g000c0"' dom.html
	assert_output 6
	# the legend: each status the chart shows, each with its marker
	for s in ok incorrect build_failed crashed timeout pending; do
		grep -q "<li class=\"key\"><svg class=\"mk\"[^>]*><path[^>]*></path></svg>$s " dom.html || fail "no legend entry for $s"
	done
	run -0 grep -o '<li class="key">' dom.html
	assert_equal "${#lines[@]}" 6
	# each status a marker of its own: its colour, and the letters of its outline (a dot, a triangle, ...)
	run -0 grep -o 'data-status="[a-z_]*" d="[^"]*" fill="[^"]*" fill-opacity="0" stroke="[^"]*"\|data-status="[a-z_]*" d="[^"]*" fill="[^"]*"' dom.html
	assert_equal "$(sed -E 's/ d="([^"]*)"/ \1/; s/[0-9. -]+/ /g' <<<"$output" | sort -u | wc -l)" 6
	assert_equal "$(grep -o '#[0-9a-f]\{6\}' <<<"$output" | sort -u | wc -l)" 6
	# the speed of light, the plan's expected uplift beside the measured one, the kernel's tokens
	local row
	row=$(grep -o '<tr id="row-g001c0".*</tr>' dom.html)
	# (speed of light 10 us a shape: 50, 300 and 40 us are 20, 3.3 and 25 %, 11.9 % overall)
	for want in '<td class="num" data-v="11.85[0-9]*">11.9 %</td>' '<td class="num" data-v="300">300.0<small>3.3 % SOL</small></td>' '<td class="num" data-v="20">+10..+30 %</td>' \
		'<td class="num up-faster" data-v="16.9[0-9]*">+17.0 % <small>inside</small></td>' '<td class="num" data-v="1500">1500</td>'; do
		grep -q -- "$want" <<<"$row" || fail "g001c0's row has no $want: $row"
	done
	# coloured by its sign, its range said in words: a slowdown is red wherever the plan's range put it
	grep -q '<td class="num up-slower" data-v="-17.79[0-9]*">-17.8 % <small>below' dom.html || fail "g002c0's uplift is not a slowdown below its range"
	grep -q '<td class="num up-failed">failed</td>' dom.html || fail "g001c1's plan is not shown as failed"
	run -0 grep -o '<tr><td>[a-z]*</td><td class="num">[0-9]*</td><td class="num">[0-9]*</td><td class="num">[0-9]*</td><td class="num">[0-9]*</td><td class="num">[0-9]*</td><td class="num">[0-9]*</td>' dom.html
	assert_output "$(cat <<'T'
<tr><td>select</td><td class="num">1</td><td class="num">0</td><td class="num">4000</td><td class="num">0</td><td class="num">100</td><td class="num">0</td>
<tr><td>hypothesize</td><td class="num">1</td><td class="num">0</td><td class="num">15000</td><td class="num">0</td><td class="num">2000</td><td class="num">0</td>
<tr><td>implement</td><td class="num">2</td><td class="num">1</td><td class="num">13000</td><td class="num">0</td><td class="num">2500</td><td class="num">1</td>
T
)"
	# the screenshot, kept where the run says
	local shot=${KS_TEST_ARTIFACTS:-$BATS_TEST_TMPDIR}/0110-report.png
	mkdir -p "$(dirname "$shot")"
	browse --hide-scrollbars --window-size=1200,900 --screenshot="$shot" "file://$BATS_TEST_TMPDIR/page.html" >/dev/null
	run -0 python3 -c 'import struct, sys; d = open(sys.argv[1], "rb").read(24); print(d[:8] == b"\x89PNG\r\n\x1a\n", *struct.unpack(">II", d[16:24]))' "$shot"
	assert_output "True 1200 900"
	echo "# screenshot: $shot" >&3
}

@test "in a browser: a click on a header sorts the table by it, again the other way, rows without a value last" {
	use mixed
	ks-report --html pop >page.html
	# unsorted: in id order (so a sort that did nothing would show it)
	dom >dom.html
	assert_equal "$(rows dom.html)" "g000c0 g001c0 g001c1 g001c2 g002c0 g002c1 g002c2 g003c0"
	# score: g001c0 84.3, g000c0 98.7, g002c0 102.6 us; the five without a score after them, in id order
	dom selftest=sort:score >dom.html
	assert_equal "$(rows dom.html)" "g001c0 g000c0 g002c0 g001c1 g001c2 g002c1 g002c2 g003c0"
	run -0 grep -o '<pre id="selftest">[^<]*</pre>' dom.html
	assert_output '<pre id="selftest">g001c0 g000c0 g002c0 g001c1 g001c2 g002c1 g002c2 g003c0</pre>'
	grep -q '<th data-key="score" data-type="num" tabindex="0" title="[^"]*" aria-sort="ascending">' dom.html ||
		fail "the score header is not marked ascending"
	dom selftest=sort:score,score >dom.html
	assert_equal "$(rows dom.html)" "g002c0 g000c0 g001c0 g001c1 g001c2 g002c1 g002c2 g003c0"
	# each benchmark shape: 256x256x256 (100, 50, 90 us), 512x384x320 (120, 300, 60 us)
	grep -q '<th data-key="shape-0" [^>]*>256x256x256 (us)</th><th data-key="shape-1" [^>]*>512x384x320 (us)</th>' dom.html ||
		fail "no shape columns"
	dom selftest=sort:shape-0 >dom.html
	assert_equal "$(rows dom.html)" "g001c0 g002c0 g000c0 g001c1 g001c2 g002c1 g002c2 g003c0"
	dom selftest=sort:shape-1 >dom.html
	assert_equal "$(rows dom.html)" "g002c0 g000c0 g001c0 g001c1 g001c2 g002c1 g002c2 g003c0"
	# a text column: the status, alphabetically
	dom selftest=sort:status >dom.html
	assert_equal "$(rows dom.html)" "g001c2 g002c1 g001c1 g000c0 g001c0 g002c0 g003c0 g002c2"
}

@test "what comes from the population shows as text: a kernel's </script>, a plan's <img>, a transcript's <script>" {
	use mixed
	ks-report --html pop >page.html
	# in the file: escaped
	run grep -c -F '<script>alert' page.html
	assert_output 0
	grep -q -F '/* &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; and &lt;b&gt;bold&lt;/b&gt; &amp; more */' page.html ||
		fail "the kernel's source is not in the page, escaped"
	grep -q -F '&lt;img src=x onerror=alert(2)&gt;' page.html || fail "the plan's title is not in the page, escaped"
	grep -q -F 'Segmentation fault &lt;i&gt;here&lt;/i&gt;' page.html || fail "the bench message is not in the page, escaped"
	grep -q -F '<td>&quot;&gt;&lt;b&gt;ref&lt;/b&gt;</td>' page.html || fail "a reference that is no id is not in the page, escaped"
	# in the browser: one script (the page's own), no element made of the text, the text shown as it is
	dom k-g001c2 >dom.html
	run -0 grep -c -i '<script' dom.html
	assert_output 1
	run grep -c -E '<b>bold|<b>ref|<img|<i>here|data-pwned="1"' dom.html
	assert_output 0
	grep -q -F '&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; and &lt;b&gt;bold&lt;/b&gt;' dom.html ||
		fail "the browser does not show the source as text"
	grep -q -F '&lt;script&gt;document.body.setAttribute("data-pwned", "1")&lt;/script&gt;' dom.html ||
		fail "the browser does not show the transcript as text"
	# the address of a kernel opens its source
	run -0 grep -o '<details class="source"[^>]*>' dom.html
	assert_line '<details class="source" open="">'
}

@test "ks-report --html: -o without --html, --html with another report or two runs are usage errors; a bad ledger writes nothing" {
	use mixed
	run -2 --separate-stderr ks-report -o out.html pop
	assert_equal "$stderr" "ks-report: -o names the file of the --html page: it goes with --html"
	run -2 --separate-stderr ks-report --html -b pop
	assert_equal "$stderr" "ks-report: -b, -E, -g, -s and --html do not go together: each prints a report of its own"
	run -2 --separate-stderr ks-report --html pop pop
	assert_equal "$stderr" "ks-report: two populations are compared without -b, -E, -g, -s or --html"
	run -2 --separate-stderr ks-report --htmlx pop
	assert_equal "${stderr_lines[0]}" "ks-report: unrecognized option '--htmlx'"
	assert_not_exist out.html
	# a directory that does not exist: one line, exit 1
	run -1 --separate-stderr ks-report --html -o nodir/out.html pop
	assert_output ""
	assert_equal "${#stderr_lines[@]}" 1
	[[ $stderr == "ks-report: "*"nodir/"* ]] || fail "stderr: $stderr"
	# a line of the ledger that is no usage record: named, exit 1, no page
	echo 'not json' >>pop/llm-usage.jsonl
	run -1 --separate-stderr ks-report --html -o out.html pop
	assert_equal "$stderr" "ks-report: 'pop/llm-usage.jsonl': line 6 is not a usage record {\"stage\", \"model\", \"prompt_tokens\", \"completion_tokens\", \"cached\", ...}"
	assert_not_exist out.html
	run -1 --separate-stderr ks-report --html pop
	assert_output ""
}

@test "ks-report --html on a population without kernels says so, and on a real generation shows its plans" {
	make_pop pop
	run -0 ks-report --html pop
	assert_output --partial "<p>No kernel yet.</p>"
	assert_output --partial "pop: no generation yet, 0 kernels, 0 correct"
	# generations 0 and 1 made by the tools (offline): the plans of hypotheses.json, kept or not
	ks-implement pop/gen-000/c0 && ks-build pop/gen-000/c0 && ks-bench pop/gen-000/c0
	ks-select pop/gen-001 && ks-hypothesize pop/gen-001
	ks-implement pop/gen-001/c0 && ks-build pop/gen-001/c0 && ks-bench pop/gen-001/c0
	run -0 ks-report --html pop
	assert_output --partial '<section class="gen" id="gen-001">'
	assert_equal "$(grep -c '<td>not kept</td>' <<<"$output")" "$(jq '(.plans | length) - (.chosen | length)' pop/gen-001/hypotheses.json)"
	assert_equal "$(grep -c '<td>kept, no kernel yet</td>' <<<"$output")" "$(jq '(.chosen | length) - 1' pop/gen-001/hypotheses.json)"
	assert_output --partial '<td><a href="#k-g001c0">g001c0</a> ok</td>'
	title=$(jq -r .plan.title pop/gen-001/c0/candidate.json)
	assert_output --partial "<td class=\"plan\">$(sed 's/>/\&gt;/g' <<<"$title")</td>"
	assert_output --partial "<p>No LLM call: the offline proposer made every plan and kernel.</p>"
}

@test "the kernels table: the plan beside the id, the spread (! where a shape hit the time cap), the ratio side by side, a warning, the time made" {
	use mixed
	# g001c0 timed beside its base, 0.85 (0.84-0.86); g002c0's second shape ran into the time cap
	jset pop/gen-001/c0/bench.json '.versus = {id: "g000c0", ratio: 0.85, ci95: [0.84, 0.86]}
		| .results |= map(.rel_stderr = 0.004 | .converged = true)'
	jset pop/gen-002/c0/bench.json '.results |= (map(.rel_stderr = 0.003 | .converged = true)
		| .[1].rel_stderr = 0.12 | .[1].converged = false)'
	ks-report --html pop >page.html
	row=$(grep -o '<tr id="row-g001c0".*</tr>' page.html)
	# the plan right after the id
	[[ $row == '<tr id="row-g001c0" data-id="g001c0" data-i="1"><td><a href="#k-g001c0">g001c0</a></td><td class="plan">BM 16 -&gt; 32</td><td'* ]] ||
		fail "the plan is not beside the id: $row"
	grep -q -- '<td class="num" data-v="0.4[0-9]*">0.4%</td>' <<<"$row" || fail "no spread in $row"
	grep -q -- '<td class="num up-faster" data-v="0.8[0-9]*">0.850<small>0.840-0.860</small></td>' <<<"$row" ||
		fail "no side-by-side ratio in $row"
	row=$(grep -o '<tr id="row-g002c0".*</tr>' page.html)
	grep -q -- '<td class="num noisy" data-v="12">12.0%!</td>' <<<"$row" || fail "no noisy spread in $row"
	run -0 grep -c '<p class="warn">1 of 3 benched kernels have a shape whose timing ran into the time cap' page.html
	assert_output 1
	run -0 grep -o 'Generations 0 to [0-9]* as they were at [^.]*\.' page.html
	assert_output 'Generations 0 to 3 as they were at 2025-12-04 00:00:00 UTC.'
	# without SOURCE_DATE_EPOCH, the time it was made
	unset SOURCE_DATE_EPOCH
	run -0 ks-report --html pop
	assert_output --partial " as they were at $(date -u +%Y-%m-%d) "
	# a difference inside the noise is said so, not coloured
	jset pop/gen-001/c0/bench.json '.versus = {id: "g000c0", ratio: 0.99, ci95: [0.97, 1.01]}'
	run -0 ks-report --html pop
	assert_output --regexp '<td class="num up-even" data-v="0\.9[0-9]*">0\.990~<small>0\.970-1\.010</small></td>'
	assert_output --regexp '<td class="num up-even" data-v="1\.0[0-9]*">\+1\.0 % <small>within noise; below</small></td>'
}
