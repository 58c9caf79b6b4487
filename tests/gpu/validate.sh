#!/bin/sh
# tests/gpu/validate.sh - validate a GPU target on a machine with the GPU,
# through ks-build and ks-bench unchanged:
#   1. the problem's seed and each hand-written variant (kernels/P/variants),
#      built and benched: correct on every test shape, times per shape;
#   2. one kernel (REPEAT, default the last variant) benched REPEATS (5)
#      more times: the spread of its score;
#   3. every kernel run once more under Nsight Systems: the GPU's own start
#      and end of each timed launch, against the harness's time of the same
#      runs (tests/gpu/nsys-compare.py reads the two);
#   4. with NCU=1, Nsight Compute's duration of the calls of the runner's
#      --profile mode per bench shape, the worker process only (profiling
#      the judge too hangs both; not locked down: ncu's injection
#      opens files), NCU_RUNS (5) runs: its warm-up's calls, timed as a
#      bench times them, and the profiled call, all profiled, each call's
#      kernels summed, under ncu's own cache flush (--cache-control all).
#      tests/gpu/ncu-compare.py makes the table: it leaves out the
#      harness's kernels and each run's first call (the first kernel ncu
#      profiles in a process reads 1.3-2.9 us long on the H200);
#      tests/gpu/timer-probe.cu compares the timer with ncu on the
#      harness's flush instead.
# NSYS=0 leaves out step 3; NCU_KERNELS (candidate directories, as
# "gen-001/c0 gen-001/c1") limits step 4 to those kernels, so that the
# steps of a slow problem fit in separate runs.
# Usage: tests/gpu/validate.sh OUTDIR PROBLEM TARGET  (tools built with make)
# Leaves OUTDIR/PROBLEM-TARGET.tgz: every JSON, log, trace and kernel.
set -u
usage="usage: validate.sh OUTDIR PROBLEM TARGET"
out=${1:?$usage}
problem=${2:?$usage}
target=${3:?$usage}
root=$(cd "$(dirname "$0")/../.." && pwd)
pop=${TMPDIR:-/tmp}/ks-validate-$problem-$target
pjson=$root/kernels/$problem/problem.json
export KS_QUIET=1 PATH="$root/tools:$PATH"
mkdir -p "$out"
rm -rf "$pop"

log() { echo "validate: $*" >&2; }
field() { python3 -c 'import json,sys; b=json.load(open(sys.argv[1])); print(" ".join(str(b.get(k)) for k in sys.argv[2:]))' "$@" 2>&1; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv >"$out/gpu.txt" 2>&1
ks-init -p "$problem" -t "$target" -k 5 "$pop" || exit 1
ks-implement "$pop/gen-000/c0" || exit 1
# the variants stand as candidates of generation 1 made by hand
slot=0
last=gen-000/c0
for v in "$root/kernels/$problem/variants"/*; do
	[ -f "$v" ] || continue
	mkdir -p "$pop/gen-001/c$slot"
	cp "$v" "$pop/gen-001/c$slot/kernel.${v##*.}"
	basename "$v" >"$pop/gen-001/c$slot/variant"
	last=gen-001/c$slot
	slot=$((slot + 1))
done
cands="gen-000/c0 $(cd "$pop" && ls -d gen-001/c* 2>/dev/null | tr '\n' ' ')"
for c in $cands; do
	t0=$(date +%s)
	ks-build "$pop/$c" && ks-bench "$pop/$c"
	log "$c: $(field "$pop/$c/bench.json" status score_us message) ($(($(date +%s) - t0)) s)"
done

# the runner's arguments for the bench shapes, as ks-bench gives them
bench_args=$(python3 - "$pjson" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
t, lim = p["tolerance"], p.get("limits", {})
args = ["--rtol", repr(t["rtol"]), "--atol", repr(t["atol"]), "--seed", str(p.get("seed", 1)),
        "--time-cap", repr(lim.get("time_cap_s", 2)), "--min-runs", str(lim.get("min_runs", 5))]
for s in p["bench_shapes"]:
    shape = "x".join(str(s[d]) for d in p["dims"])
    args += ["--bench", shape + ("@%d" % s["seed"] if "seed" in s else "")]
print(" ".join(args))
PY
)

# 5 more benches of one kernel: the spread of its score
rep=${REPEAT:-$last}
i=0
while [ "$i" -lt "${REPEATS:-5}" ]; do
	i=$((i + 1))
	ks-bench -o "$pop/$rep/bench-$i.json" "$pop/$rep"
	log "$rep bench $i: $(field "$pop/$rep/bench-$i.json" status score_us message)"
done

# Nsight Systems: the same runner, the same bench shapes, traced
nsys=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
if [ "${NSYS:-1}" = 0 ]; then
	log "nsys left out (NSYS=0)"
elif [ -n "$nsys" ]; then
	for c in $cands; do
		# shellcheck disable=SC2086
		"$nsys" profile --trace=cuda --sample=none --cpuctxsw=none --force-overwrite=true \
			-o "$pop/$c/nsys" "$pop/$c/runner" $bench_args --json-fd 3 \
			3>"$pop/$c/nsys-runner.json" >"$pop/$c/nsys.log" 2>&1
		"$nsys" stats --report cuda_gpu_trace --format csv --force-export=true \
			-o "$pop/$c/nsys" "$pop/$c/nsys.nsys-rep" >>"$pop/$c/nsys.log" 2>&1
		log "$c: nsys: $(ls "$pop/$c"/nsys*.csv 2>/dev/null | tr '\n' ' ')"
	done
else
	log "no nsys on this machine"
fi

if [ "${NCU:-0}" = 1 ]; then
	for c in ${NCU_KERNELS:-$cands}; do
		for shape in $(echo "$bench_args" | tr ' ' '\n' | sed -n '/^--bench$/{n;p}'); do
			f=$pop/$c/ncu-${shape%@*}
			rm -f "$f.csv" "$f.err"
			i=0
			while [ "$i" -lt "${NCU_RUNS:-5}" ]; do
				i=$((i + 1))
				# shellcheck disable=SC2086
				ncu --target-processes all --target-processes-filter worker \
					--cache-control all --clock-control none \
					--metrics gpu__time_duration.sum --csv \
					"$pop/$c/runner" $(echo "$bench_args" | sed 's/--bench [^ ]*//g') \
					--bench "$shape" --profile >>"$f.csv" 2>>"$f.err"
			done
		done
	done
fi

(cd "$pop" && find . \( -name '*.json' -o -name '*.csv' -o -name '*.log' -o -name '*.err' \
	-o -name 'kernel.*' -o -name variant \) -print | tar czf "$out/$problem-$target.tgz" -T -)
log "done: $out/$problem-$target.tgz"
