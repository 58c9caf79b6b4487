#!/bin/bash
# bench/build-time.sh TOOLS PROBLEM TARGET N - what one candidate's build
# costs once the build cache is warm (the runner and the worker's shared
# objects kept): N rebuilds of the seed of PROBLEM on TARGET by the tools in
# the folder TOOLS, CPU seconds (user + sys) and wall seconds each.  No GPU
# is needed: nvcc and hipcc compile without one.  BENCHMARKS.md, "A
# candidate's build", has its figures.
set -e
T=$(cd "$1" && pwd) P=$2 TG=$3 N=$4
kernels=$(cd "$(dirname "$0")/../kernels" && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d"
export KS_BUILD_CACHE=$d/cache KS_KERNELS_DIR=${KS_KERNELS_DIR:-$kernels} PATH=$T:$PATH:/usr/local/cuda/bin
ks-init -p $P -t $TG pop >/dev/null 2>&1; ks-implement pop/gen-000/c0 >/dev/null 2>&1
ks-build pop/gen-000/c0 2>/dev/null   # warms the cache
for i in $(seq $N); do rm -f pop/gen-000/c0/build.json; /usr/bin/time -f "%U %S %e" -a -o times ks-build pop/gen-000/c0 2>/dev/null; done
awk -v t="$T $P $TG" '{u+=$1; s+=$2; e+=$3} END {printf "%s: %.2f CPU-s, %.2f s wall per build (%d builds)\n", t, (u+s)/NR, e/NR, NR}' times
[ "$(jq -r .ok pop/gen-000/c0/build.json)" = true ] || { echo "$P on $TG did not build" >&2; exit 1; }
