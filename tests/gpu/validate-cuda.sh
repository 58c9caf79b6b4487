#!/bin/sh
# tests/gpu/validate-cuda.sh - validate the cuda target on a machine with an
# NVIDIA GPU, through ks-build and ks-bench unchanged:
#   1. the rmsnorm seed and a hand-written faster variant, correct on every test shape;
#   2. the same kernel benched 5 times: the spread of its score;
#   3. ks-bench's per-shape times against Nsight Compute's kernel duration.
# Usage: tests/gpu/validate-cuda.sh OUTDIR  (the tools built beforehand with make)
set -eu
out=${1:?usage: validate-cuda.sh OUTDIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
pop=${TMPDIR:-/tmp}/ks-validate-pop
export KS_QUIET=1 PATH="$root/tools:$PATH"
mkdir -p "$out"
rm -rf "$pop"

nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >"$out/gpu.txt"
ks-init -p rmsnorm -t cuda -k 1 "$pop"
ks-implement "$pop/gen-000/c0"
# the variant stands as a candidate of generation 1 made by hand
mkdir -p "$pop/gen-001/c0"
cp "$root/kernels/rmsnorm/variants/vec.cu" "$pop/gen-001/c0/kernel.cu"
for c in gen-000/c0 gen-001/c0; do
	ks-build "$pop/$c"
	ks-bench "$pop/$c"
done

# 5 benches of the seed: the spread of one kernel's score
for i in 1 2 3 4 5; do
	ks-bench -o "$pop/gen-000/c0/bench-$i.json" "$pop/gen-000/c0"
done

# Nsight Compute: the kernel's duration on each bench shape, caches flushed
# before each launch as ks-bench does, clocks left as they are (not locked).
for c in gen-000/c0 gen-001/c0; do
	for shape in $(python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); print(" ".join("%dx%d" % (s["rows"], s["cols"]) for s in p["bench_shapes"]))' "$root/kernels/rmsnorm/problem.json"); do
		ncu --cache-control all --clock-control none --metrics gpu__time_duration.sum \
			--kernel-name regex:rmsnorm --launch-skip 2 --launch-count 15 --csv \
			"$pop/$c/runner" --rtol 0.016 --atol 1e-5 --bench "$shape" --time-cap 2 --min-runs 20 --json-fd 3 3>/dev/null \
			>"$pop/$c/ncu-$shape.csv" 2>"$pop/$c/ncu-$shape.err" || true
	done
done
# what came out, without the binaries, in one archive
(cd "$pop" && find . \( -name '*.json' -o -name '*.csv' -o -name '*.err' -o -name '*.log' -o -name 'kernel.cu' \) -print |
	tar czf "$out/validate.tgz" -T -)
