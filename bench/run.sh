#!/bin/bash
# bench/run.sh - the benchmark suite behind "make bench" (not part of make
# test): measures what the loop costs and how it scales, and writes
# BENCHMARKS.md with the machine, the date, each command, each figure with
# its target, and whether the target is met.
#
#   bench/run.sh [OUT.md]        (default BENCHMARKS.md beside this folder)
#
# BENCH_SECTIONS names the sections to run (default all, in the order
# below); the parallel section times BENCH_PROBLEM on BENCH_TARGET
# (default sgemm, cpu) under make -j1, -j2 and -j$(nproc), with
# BENCH_MAKE_ARGS added to each make (KS_BUILD= on a machine that has the
# tools but not their build dependencies: the device machine).  E.g. on a
# 16-core GPU machine:
#   BENCH_SECTIONS=parallel BENCH_PROBLEM=rmsnorm BENCH_TARGET=cuda bench/run.sh out.md
#
# Sections (each a function below):
#   overhead   a generation through the fixture LLM server, which answers at
#              once: the share of the wall time spent outside compiling and
#              running candidates (target < 5 %)
#   scale      ks-select and ks-hypothesize's prompt over a made-up
#              population of 999 generations of 5, the most the ids allow
#              (target < 1 s and < 200 MB each)
#   parallel   a generation of K=5 under make -j1, -j2 and -j$(nproc) (the speed-ups)
#   cost       prompt and reply sizes per stage over 5 generations
#   judge      what the CPU judge costs a call: the floor it subtracts, and the rest
#   ranking    two kernels 10 % apart, BENCH_RANK_RUNS (20) benches side by side and as many
#              apart under two busy loops: how often each orders them right (target: side by
#              side >= 19 of 20)
#   search     BENCH_SEARCH_RUNS (3) runs of 10 generations of sgemm offline:
#              each best kernel against OpenBLAS's cblas_sgemm on the same
#              shapes, timed by the same harness in the same run (target
#              >= 0.6 by median time, the median over the runs), and
#              against random search with the same budget of kernels
# OpenBLAS comes from tools/ks-deps bench (libopenblas-dev).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/BENCHMARKS.md}
work=$(mktemp -d)
server_pid=
trap 'kill $server_pid 2>/dev/null || true; rm -rf "$work"' EXIT
export PATH="$root/tools:$PATH" KS_QUIET=1
unset KS_LLM_URL KS_LLM_API_KEY KS_LLM_PROVIDER KS_MODEL OPENAI_API_KEY ANTHROPIC_API_KEY GEMINI_API_KEY OPENAI_BASE_URL

report=$work/report.md
: >"$report"
say() { printf '%s\n' "$*" >>"$report"; }

# measure OUT CMD...: runs CMD; OUT gets "seconds max_rss_mb" (children's peak resident set)
measure() {
	local o=$1
	shift
	python3 - "$o" "$@" <<'PY'
import resource, subprocess, sys, time
t = time.monotonic()
rc = subprocess.call(sys.argv[2:], stdout=subprocess.DEVNULL)
dt = time.monotonic() - t
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
open(sys.argv[1], "w").write("%.3f %.1f\n" % (dt, rss))
sys.exit(rc)
PY
}

# met VALUE OP TARGET: "met" or "not met"
met() { python3 -c "import sys; print('met' if $1 $2 $3 else 'not met')"; }

# server SCRIPT: the fixture LLM server, answering at once; the tools pointed at it
server() {
	kill $server_pid 2>/dev/null || true
	printf '%s\n' "$1" >"$work/script.json"
	rm -f "$work/port"
	python3 "$root/tests/fixtures/llm-server.py" --script "$work/script.json" --log "$work/llm-log.jsonl" \
		--port-file "$work/port" --parent-pid $$ >/dev/null 2>&1 &
	server_pid=$!
	for _ in $(seq 200); do [ -s "$work/port" ] && break; sleep 0.05; done
	export KS_LLM_URL="http://127.0.0.1:$(cat "$work/port")/v1" KS_LLM_API_KEY=bench KS_LLM_PROVIDER=openai
	export KS_SELECT_MODEL=sel KS_HYPOTHESIZE_MODEL=hyp KS_IMPLEMENT_MODEL=impl
}

# the fixture's replies: select the best, five plans, a kernel (the seed with the other loop order)
script_for_generations() {
	local seed=$root/kernels/sgemm/seed.c
	python3 - "$seed" <<'PY'
import json, sys
seed = open(sys.argv[1]).read()
code = "```c\n" + seed.replace("#define LOOP_ORDER 0", "#define LOOP_ORDER 1") + "```\n"
plan = lambda i: {"title": "plan %d" % i, "description": "try idea %d" % i, "rubric": "change %d" % i,
                  "uplift_min": i, "uplift_max": 10 + i, "innovation": 1 + i, "kind": "tiling"}
hyp = json.dumps({"avenues": ["avenue %d" % i for i in range(10)], "plans": [plan(i) for i in range(5)]})
print(json.dumps({"sel": [{"content": json.dumps({"base": "g000c0", "reference": "g000c0", "reason": "the seed"})}],
                  "hyp": [{"content": hyp}], "impl": [{"content": code}]}))
PY
}

overhead() {
	local pop=$work/overhead bin=$work/bin log=$work/spent
	mkdir -p "$bin"
	: >"$log"
	# the compiler and ks-bench timed where they run: what is left is the framework
	cat >"$bin/cc" <<EOF
#!/bin/sh
t0=\$(date +%s.%N); cc "\$@"; rc=\$?; echo "compile \$t0 \$(date +%s.%N)" >>"$log"; exit \$rc
EOF
	for t in ks-init ks-select ks-hypothesize ks-implement ks-build ks-report ks-profile; do ln -sf "$root/tools/$t" "$bin/$t"; done
	cat >"$bin/ks-bench" <<EOF
#!/bin/sh
t0=\$(date +%s.%N); "$root/tools/ks-bench" "\$@"; rc=\$?; echo "bench \$t0 \$(date +%s.%N)" >>"$log"; exit \$rc
EOF
	chmod +x "$bin/cc" "$bin/ks-bench"
	server "$(script_for_generations)"
	local t0 t1
	t0=$(date +%s.%N)
	KS_CC="$bin/cc" make -s --no-print-directory -C "$root" generation N=2 K=3 POP="$pop" KS_BIN="$bin" >/dev/null
	t1=$(date +%s.%N)
	python3 - "$log" "$t0" "$t1" >"$work/overhead.txt" <<'PY'
import sys
spent = {"compile": 0.0, "bench": 0.0}
for line in open(sys.argv[1]):
    kind, a, b = line.split()
    spent[kind] += float(b) - float(a)
total = float(sys.argv[3]) - float(sys.argv[2])
other = total - spent["compile"] - spent["bench"]
print("%.2f %.2f %.2f %.2f %.1f" % (total, spent["compile"], spent["bench"], other, 100 * other / total))
PY
	read -r total comp bench other share <"$work/overhead.txt"
	say "## Framework overhead"
	say ""
	say "\`make generation N=2 K=3\` of sgemm with the fixture LLM server (tests/fixtures/llm-server.py) answering at once,"
	say "the compiler (\`KS_CC\`) and \`ks-bench\` wrapped to log their wall time; everything else (make, the LLM stages,"
	say "the prompts, the JSON, the report) is the framework's. The compiler runs one at a time here (no \`-j\`)."
	say ""
	say "| figure | value | target | |"
	say "|---|---|---|---|"
	say "| wall time of generations 0-2 | $total s | | |"
	say "| compiling candidates (ks-implement's check and ks-build) | $comp s | | |"
	say "| running candidates (ks-bench) | $bench s | | |"
	say "| everything else | $other s ($share %) | < 5 % | $(met "$share" "<" 5) |"
	say ""
}

scale() {
	local pop=$work/scale
	make -s --no-print-directory -C "$root" generation N=0 POP="$pop" >/dev/null
	python3 "$root/tests/helper/synthetic-pop.py" "$pop" 999
	local n
	# generation 999 is the last the ids allow: its kernels go, and its select and plans are made again
	rm -f "$pop/gen-999/select.json" "$pop/gen-999/hypotheses.json"
	rm -rf "$pop"/gen-999/c*
	n=$(find "$pop" -name candidate.json | wc -l)
	measure "$work/select.txt" ks-select "$pop/gen-999"
	server "$(script_for_generations)"
	measure "$work/hyp.txt" ks-hypothesize "$pop/gen-999"
	local prompt
	prompt=$(python3 -c 'import json,sys; l=[json.loads(x) for x in open(sys.argv[1])]; print(len(l[-1]["body"]["messages"][1]["content"]))' "$work/llm-log.jsonl")
	read -r s_t s_m <"$work/select.txt"
	read -r h_t h_m <"$work/hyp.txt"
	say "## A population of $n kernels"
	say ""
	say "\`tests/helper/synthetic-pop.py POP 999\` (998 generations of 5 after the seed; generation 999 left to make),"
	say "then the two stages that read the whole population. ks-select runs offline; ks-hypothesize asks the"
	say "fixture server, so its time is building the prompt ($prompt characters, KS_CONTEXT_CHARS=16000 a section) and reading the reply."
	say ""
	say "| figure | value | target | |"
	say "|---|---|---|---|"
	say "| ks-select: wall time | $s_t s | < 1 s | $(met "$s_t" "<" 1) |"
	say "| ks-select: peak memory | $s_m MB | < 200 MB | $(met "$s_m" "<" 200) |"
	say "| ks-hypothesize: wall time | $h_t s | < 1 s | $(met "$h_t" "<" 1) |"
	say "| ks-hypothesize: peak memory | $h_m MB | < 200 MB | $(met "$h_m" "<" 200) |"
	say ""
}

parallel() {
	local j t0 t1 jobs problem=${BENCH_PROBLEM:-sgemm} target=${BENCH_TARGET:-cpu} d1
	unset KS_LLM_URL KS_LLM_API_KEY KS_LLM_PROVIDER
	jobs=$(printf '%s\n' 1 2 "$(nproc)" | sort -nu | tr '\n' ' ')
	for j in $jobs; do
		# shellcheck disable=SC2086 # BENCH_MAKE_ARGS: words for make
		make -s --no-print-directory -C "$root" ${BENCH_MAKE_ARGS:-} generation N=0 K=5 PROBLEM="$problem" \
			TARGET="$target" POP="$work/par$j" >/dev/null
		t0=$(date +%s.%N)
		# shellcheck disable=SC2086
		make -s --no-print-directory -C "$root" ${BENCH_MAKE_ARGS:-} -j"$j" generation N=1 K=5 PROBLEM="$problem" \
			TARGET="$target" POP="$work/par$j" >/dev/null
		t1=$(date +%s.%N)
		python3 -c "print('%.2f' % ($t1 - $t0))" >"$work/par$j.txt"
	done
	d1=$(cat "$work/par1.txt")
	say "## Parallel speed"
	say ""
	say "Generation 1 of $problem on target $target offline with K=5 (implement, build and bench of five candidates),"
	say "after generation 0, under \`make -jN\` on $(nproc) CPUs. Builds run in parallel; benches take one lock per"
	say "device, so on one device they run one at a time."
	say ""
	say "| make | seconds | speed-up over -j1 |"
	say "|---|---|---|"
	for j in $jobs; do
		say "| -j$j | $(cat "$work/par$j.txt") s | $(python3 -c "print('%.2fx' % ($d1 / $(cat "$work/par$j.txt")))") |"
	done
	say ""
}

cost() {
	local pop=$work/cost
	server "$(script_for_generations)"
	: >"$work/llm-log.jsonl"
	make -s --no-print-directory -C "$root" generation N=5 K=3 POP="$pop" >/dev/null
	say "## Prompt and reply sizes"
	say ""
	say "\`make generation N=5 K=3\` of sgemm through the fixture server with the shipped prompts; characters of the"
	say "user prompt and of the reply per call, by stage and generation (about 4 characters a token)."
	say ""
	say "| generation | select prompt | hypothesize prompt | implement prompt (each) | reply (implement) |"
	say "|---|---|---|---|---|"
	python3 - "$pop" >>"$report" <<'PY'
import glob, json, os, sys
pop = sys.argv[1]
for g in range(1, 6):
    d = os.path.join(pop, "gen-%03d" % g)
    def size(path, key):
        t = json.load(open(path))
        if key == "prompt":
            return len(t["request"]["messages"][1]["content"])
        return len(t["reply"] or "")
    sel = glob.glob(os.path.join(d, "llm", "select-1.json"))
    hyp = glob.glob(os.path.join(d, "llm", "hypothesize-1.json"))
    imp = sorted(glob.glob(os.path.join(d, "c*", "llm", "implement-1.json")))
    cell = lambda f, k: str(size(f[0], k)) if f else "-"
    print("| %d | %s | %s | %s | %s |" % (g, cell(sel, "prompt"), cell(hyp, "prompt"), cell(imp, "prompt"), cell(imp, "reply")))
PY
	say ""
}

# runner_for KERNEL OUT [LIBS...]: the harness and KERNEL built as ks-build builds the seed (its
# build.json command), plus LIBS: how OpenBLAS's sgemm is timed by the same harness (ks-build's
# checks refuse BLAS in a candidate, rightly, so this runner is built by hand)
runner_for() {
	python3 - "$1" "$2" "$3" "${@:4}" <<'PY'
import json, os, shlex, subprocess, sys
build, kernel, out, libs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
# a judge's build is two commands: the worker (the kernel), then the runner beside it
for cmd in json.load(open(build))["command"].split(" && "):
    argv = shlex.split(cmd)
    o = argv.index("-o") + 1
    worker = argv[o].endswith("/worker")
    argv[o] = os.path.join(os.path.dirname(out), "worker") if worker else out
    if any(a.endswith("/kernel.c") for a in argv):
        argv = [kernel if a.endswith("/kernel.c") else a for a in argv] + libs
    if subprocess.call(argv) != 0:
        sys.exit(1)
PY
}

# medians RUNNER...: each runner timed on the benchmark shapes, in turn, 3 rounds; prints
# "runner shape median_us" lines (the median of the rounds' medians)
medians() {
	python3 - "$@" <<'PY'
import json, statistics, subprocess, sys
times = {}
for rnd in range(3):
    for r in sys.argv[1:]:
        out = subprocess.run([r, "--time-cap", "1", "--bench", "256x256x256", "512x384x320", "200x640x448"],
                             capture_output=True, text=True, check=True).stdout
        for res in json.loads(out)["results"]:
            times.setdefault((r, tuple(res["shape"])), []).append(res["median_us"])
for (r, shape), t in times.items():
    print(r, "x".join(str(d) for d in shape), "%.2f" % statistics.median(t))
PY
}

# random_search POP SEED: 30 kernels (6 generations of 5), the seed's knobs drawn
# uniformly from their ks-tune values, no repeat, each built and benched; prints the best's folder
random_search() {
	local rnd=$1 d
	ks-init -p sgemm -t cpu -k 5 "$rnd" >/dev/null
	python3 - "$root/kernels/sgemm/seed.c" "$rnd" "$2" <<'PY'
import json, os, random, re, sys
seed = open(sys.argv[1]).read()
knobs = re.findall(r"^#define (\w+) (\d+)\s*/\* ks-tune: ([\d ]+) \*/", seed, re.M)
rng, seen = random.Random(int(sys.argv[3])), set()
while len(seen) < 30:
    cfg = tuple(rng.choice(v.split()) for _, _, v in knobs)
    if cfg in seen:
        continue
    seen.add(cfg)
    i = len(seen) - 1
    g, c = 1 + i // 5, i % 5
    d = os.path.join(sys.argv[2], "gen-%03d" % g, "c%d" % c)
    os.makedirs(d)
    src = seed
    for (name, _, _), v in zip(knobs, cfg):
        src = re.sub(r"^(#define %s )\d+" % name, r"\g<1>%s" % v, src, flags=re.M)
    open(os.path.join(d, "kernel.c"), "w").write(src)
    json.dump({"id": "g%03dc%d" % (g, c), "generation": g, "slot": c, "parents": {"base": None, "reference": None},
               "plan": None, "model": "random", "usage": None}, open(os.path.join(d, "candidate.json"), "w"))
PY
	for d in "$rnd"/gen-00*/c*; do ks-build "$d" && ks-bench "$d"; done >/dev/null
	python3 -c '
import glob, json, sys
b = [(json.load(open(f)).get("score_us") or 1e30, f) for f in glob.glob(sys.argv[1] + "/gen-00[1-9]/c*/bench.json")]
print(min(b)[1].rsplit("/", 1)[0])' "$rnd"
}

# search: BENCH_SEARCH_RUNS (3) runs of the offline search and of random search, each run's best
# timed beside OpenBLAS: one run of each is an anecdote (0.60 against 0.49 one day, 0.54 against
# 0.56 the next), so the figure is the median over the runs, with the range
search() {
	local runs=${BENCH_SEARCH_RUNS:-3} r best rbest runners=()
	unset KS_LLM_URL KS_LLM_API_KEY KS_LLM_PROVIDER
	: >"$work/search-runs.txt"
	for ((r = 1; r <= runs; r++)); do
		make -s --no-print-directory -C "$root" generation N=10 K=3 POP="$work/search$r" >/dev/null 2>&1
		best=$(ks-query -t 1 "$work/search$r" | tail -n 1)
		# seed 2026 in the first run: the draw of the runs before this one
		rbest=$(random_search "$work/random$r" $((2025 + r)))
		echo "$r $best $rbest" >>"$work/search-runs.txt"
		runners+=("$best/runner" "$rbest/runner")
	done
	# OpenBLAS's sgemm as a kernel of the same harness
	cat >"$work/openblas.c" <<'C'
#include <cblas.h>

void
sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, A, K, B, N, 0.0f, C, N);
}
C
	# shellcheck disable=SC2046
	mkdir -p "$work/openblas"
	runner_for "$work/search1/gen-000/c0/build.json" "$work/openblas.c" "$work/openblas/runner" $(pkg-config --cflags --libs openblas)
	medians "$work/openblas/runner" "${runners[@]}" >"$work/medians.txt"
	python3 - "$work/medians.txt" "$work/openblas/runner" "$work/search-runs.txt" >"$work/search.txt" <<'PY'
import json, math, os, statistics, sys
t = {}
for line in open(sys.argv[1]):
    r, shape, m = line.split()
    t.setdefault(r, {})[shape] = float(m)
blas = t[sys.argv[2]]
shapes = list(blas)
gm = lambda ratios: math.exp(sum(map(math.log, ratios)) / len(ratios))
name = lambda d: "%s/%s, %.1f us" % (os.path.basename(os.path.dirname(d)), os.path.basename(d),
                                   json.load(open(os.path.join(d, "bench.json")))["score_us"])
es, rs = [], []
for line in open(sys.argv[3]):
    run, best, rbest = line.split()
    evo, rnd = t[best + "/runner"], t[rbest + "/runner"]
    e, r = gm([blas[s] / evo[s] for s in shapes]), gm([blas[s] / rnd[s] for s in shapes])
    es.append(e)
    rs.append(r)
    print("| %s | %s | %.2f | %s | %.2f |" % (run, name(best), e, name(rbest), r))
    for s in shapes:
        print("SHAPE | %s | %s | %.1f | %.1f (%.2f) | %.1f (%.2f) |" % (run, s, blas[s], evo[s], blas[s] / evo[s], rnd[s], blas[s] / rnd[s]))
print("GM %.2f %.2f %.2f %.2f %.2f %.2f %d %d" % (statistics.median(es), min(es), max(es), statistics.median(rs), min(rs), max(rs),
      sum(e > r for e, r in zip(es, rs)), len(es)))
PY
	local e emin emax r rmin rmax wins n
	read -r _ e emin emax r rmin rmax wins n < <(grep '^GM' "$work/search.txt")
	say "## Search power offline"
	say ""
	say "$n runs, each: \`make generation N=10 K=3\` of sgemm with no LLM (30 kernels after the seed; the proposer"
	say "is deterministic, so the runs differ by what the timings made selection keep), against 30 kernels of plain"
	say "random search over the same tunables (the seed's ks-tune values drawn uniformly, no repeat, a new draw each"
	say "run). Each run's two best kernels and OpenBLAS's \`cblas_sgemm\`, linked into the same harness, were timed in"
	say "turn, three rounds, in this run (median of the rounds' medians). Ratio: OpenBLAS's time over the kernel's,"
	say "the geometric mean over the shapes."
	say ""
	say "| run | evolved best | ratio | random best | ratio |"
	say "|---|---|---|---|---|"
	grep '^| ' "$work/search.txt" >>"$report"
	say ""
	say "| run | shape | OpenBLAS (us) | evolved (ratio) | random (ratio) |"
	say "|---|---|---|---|---|"
	sed -n 's/^SHAPE //p' "$work/search.txt" >>"$report"
	say ""
	say "| figure | value | target | |"
	say "|---|---|---|---|"
	say "| evolved as a ratio of OpenBLAS, median of $n runs (range) | $e ($emin-$emax) | >= 0.6 | $(met "$e" ">=" 0.6) |"
	say "| random search as a ratio of OpenBLAS, median of $n runs (range) | $r ($rmin-$rmax) | | |"
	say "| runs where the evolved kernel beat random search's | $wins of $n | | |"
	say ""
}

# judge: what the judge costs a call on the CPU (kernels/common/ks_judge.h): the exchange it times and
# subtracts (the floor), and the rest of a call beside the kernel's time (new inputs, fingerprints,
# the quiet period, signals), from the seed's runner on small shapes where it shows most
judge() {
	local pop=$work/judge c=$work/judge/gen-000/c0
	ks-init -p sgemm -t cpu -k 1 "$pop" >/dev/null 2>&1
	mkdir -p "$c"
	cp "$root/kernels/sgemm/seed.c" "$c/kernel.c"
	ks-build "$c" >/dev/null 2>&1
	"$c/runner" --time-cap 2 --min-runs 300 --test 1x1x1 --bench 1x1x1 32x32x32 128x128x128 >"$work/judge.json"
	python3 - "$work/judge.json" >"$work/judge.txt" <<'PY'
import json, re, sys
v = json.load(open(sys.argv[1]))
floor, width, least = re.search(r"; ([0-9.]+) us \(the median of [0-9]+ empty calls .*; middle half ([0-9.]+) us wide\).*at least ([0-9.]+) us", v["timer"]).groups()
print("FLOOR %s %s %s" % (floor, width, least))
for r in v["results"]:
    # a call's whole wall time, the checks (one in four calls, and before and after) taken out
    per_call = (r["wall_s"] - r["checks_s"]) / r["runs"] * 1e6
    print("SHAPE | %s | %.1f | %d | %.1f | %.1f |" % ("x".join(map(str, r["shape"])), r["time_us"], r["runs"], per_call, per_call - r["time_us"]))
PY
	local floor width least
	read -r _ floor width least < <(grep '^FLOOR' "$work/judge.txt")
	say "## What the judge costs a call"
	say ""
	say "The CPU runner is a judge that runs the kernel in a process of its own and times each call from waking it to"
	say "its being stopped after it answered (kernels/common/ks_judge.h). \`runner --time-cap 2 --min-runs 300 --bench"
	say "1x1x1 32x32x32 128x128x128\` on the sgemm seed: the exchange of an empty call, measured before the kernel ran and"
	say "subtracted from every time, is $floor us (middle half $width us wide), $least us at its lowest measured again before a shape's"
	say "timed calls (an idle machine's CPUs wake slower at first); a call's whole wall time, checks left out, beside"
	say "the kernel's time is the rest of the judge's cost (new inputs drawn, two fingerprints of the kernel's memory, the"
	say "quiet period of at least 100 us, four signals)."
	say ""
	say "| shape | time_us | runs | wall per call (us) | judge's cost beside the call (us) |"
	say "|---|---|---|---|---|"
	grep '^SHAPE' "$work/judge.txt" | sed 's/^SHAPE //' >>"$report"
	say ""
}

# slower_seed: sgemm's seed doing a tenth of C's rows twice: the same C, a tenth more work
slower_seed() {
	echo 'static void sgemm_once(int, int, int, const float *, const float *, float *);'
	sed 's/^sgemm(/sgemm_once(/' "$root/kernels/sgemm/seed.c"
	cat <<'C'

void
sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
	sgemm_once(M, N, K, A, B, C);
	/* the first tenth of C's rows again: the same values, a tenth more work */
	sgemm_once(M / 10 > 0 ? M / 10 : 1, N, K, A, B, C);
}
C
}

# ranking: the power to rank two kernels whose true difference is about 10 % (the seed, and the seed doing a
# tenth of C's rows twice) on a busy machine: BENCH_RANK_RUNS (20) side-by-side benches of the two, and as many
# pairs of separate benches (each way round in turn), under two busy loops; how often each orders them right
ranking() {
	local pop=$work/rank a=$work/rank/gen-000/c0 b=$work/rank/gen-000/c1 runs=${BENCH_RANK_RUNS:-20} i hogs=()
	local shapes=(--time-cap 0.5 --bench 256x256x256 --bench 512x384x320 --bench 200x640x448)
	# one thread each: a tenth more rows is then a tenth more time (two threads would wait on one for them)
	export OMP_NUM_THREADS=1
	ks-init -p sgemm -t cpu -k 2 "$pop" >/dev/null 2>&1
	mkdir -p "$a" "$b"
	cp "$root/kernels/sgemm/seed.c" "$a/kernel.c"
	slower_seed >"$b/kernel.c"
	ks-build "$a" >/dev/null 2>&1
	ks-build "$b" >/dev/null 2>&1
	# idle first: what the difference is
	for i in 1 2 3; do
		"$a/runner" "${shapes[@]}" --versus "$b/worker" >"$work/rank-idle-$i.json"
	done
	for _ in 1 2; do
		(while :; do :; done) &
		hogs+=($!)
	done
	for i in $(seq "$runs"); do
		"$a/runner" "${shapes[@]}" --versus "$b/worker" >"$work/rank-vs-$i.json"
		if [ $((i % 2)) = 1 ]; then
			"$a/runner" "${shapes[@]}" >"$work/rank-a-$i.json"
			"$b/runner" "${shapes[@]}" >"$work/rank-b-$i.json"
		else
			"$b/runner" "${shapes[@]}" >"$work/rank-b-$i.json"
			"$a/runner" "${shapes[@]}" >"$work/rank-a-$i.json"
		fi
	done
	kill "${hogs[@]}"
	wait "${hogs[@]}" 2>/dev/null || true
	unset OMP_NUM_THREADS
	python3 - "$work" "$runs" >"$work/rank.txt" <<'PY'
import json, math, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
load = lambda f: json.load(open("%s/%s.json" % (work, f)))
score = lambda v: math.exp(sum(math.log(r["time_us"]) for r in v["results"]) / len(v["results"]))
idle = [load("rank-idle-%d" % i)["versus"]["ratio"] for i in (1, 2, 3)]
vs = [load("rank-vs-%d" % i)["versus"] for i in range(1, runs + 1)]
apart = [score(load("rank-a-%d" % i)) / score(load("rank-b-%d" % i)) for i in range(1, runs + 1)]
print("IDLE %s" % " ".join("%.3f" % r for r in idle))
print("VS %d %d %.3f %.3f %.3f" % (sum(v["ratio"] < 1 for v in vs), sum(v["ci95"][1] < 1 for v in vs),
    statistics.median(v["ratio"] for v in vs), min(v["ratio"] for v in vs), max(v["ratio"] for v in vs)))
print("APART %d %.3f %.3f %.3f" % (sum(r < 1 for r in apart), statistics.median(apart), min(apart), max(apart)))
PY
	local idle vs_right vs_sure vs_med vs_lo vs_hi ap_right ap_med ap_lo ap_hi
	idle=$(sed -n 's/^IDLE //p' "$work/rank.txt")
	read -r _ vs_right vs_sure vs_med vs_lo vs_hi < <(grep '^VS' "$work/rank.txt")
	read -r _ ap_right ap_med ap_lo ap_hi < <(grep '^APART' "$work/rank.txt")
	say "## Ranking power on a busy machine"
	say ""
	say "Two kernels a true 10 % apart: sgemm's seed, and the seed doing the first tenth of C's rows twice (the same C,"
	say "a tenth more work), one OpenMP thread each. Idle, side by side, the seed over the slower one read $idle (three benches). Then, under two"
	say "busy loops (\`while :; do :; done\`, one per CPU here), $runs benches of the two side by side (\`runner --time-cap 0.5"
	say "--bench 256x256x256 --bench 512x384x320 --bench 200x640x448 --versus WORKER\`) and $runs pairs of the same benches"
	say "apart, each way round in turn, their two scores compared:"
	say ""
	say "| how | right order | median ratio | least | most | target | met |"
	say "|---|---|---|---|---|---|---|"
	say "| side by side | $vs_right of $runs ($vs_sure with the whole 95 % interval under 1) | $vs_med | $vs_lo | $vs_hi | >= 19 of 20 | $(met "$vs_right * 20" '>=' "19 * $runs") |"
	say "| two scores apart | $ap_right of $runs | $ap_med | $ap_lo | $ap_hi | (beside it) | - |"
	say ""
}

for section in ${BENCH_SECTIONS:-overhead scale parallel cost search judge ranking}; do
	case $section in
	overhead | scale | parallel | cost | search | judge | ranking) "$section" ;;
	*) echo "bench/run.sh: BENCH_SECTIONS: no section '$section' (overhead scale parallel cost search judge ranking)" >&2; exit 2 ;;
	esac
done

{
	echo "# Benchmarks"
	echo ""
	echo "Written by \`make bench\` (bench/run.sh) on $(date -u +%Y-%m-%d) at commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown):"
	echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') ($(nproc) CPUs), $(uname -sr)."
	echo "Every figure below comes from that one run; rerun \`make bench\` to measure this machine."
	echo ""
	cat "$report"
	if [ "$(nproc)" -lt 16 ]; then
		echo "## Measured elsewhere"
		echo ""
		echo "- Parallel speed on a 16-core machine (the H200's): kernels/GPU-RESULTS.md, from"
		echo "  \`BENCH_SECTIONS=parallel BENCH_PROBLEM=sgemm BENCH_TARGET=cpu BENCH_MAKE_ARGS=KS_BUILD= bench/run.sh OUT.md\`"
		echo "  there (or \`BENCH_PROBLEM=rmsnorm BENCH_TARGET=cuda\` for the GPU's lock)."
	fi
} >"$out"
echo "bench: wrote $out"
