#!/bin/sh
# tests/gpu/failed-gpu.sh - a GPU that fails before the kernel runs, on a
# real GPU: KS_GPUS names one that is not there (the runtime sees no device
# under CUDA_VISIBLE_DEVICES=GONE) beside one that is.  The seed of PROBLEM
# is benched through ks-bench on TARGET: first on GONE,OK, where GONE must
# be marked failed and the bench must end ok on OK; then on GONE alone,
# marked (refused at once), and unmarked (no bench.json, exit 1).  Prints
# PASS or FAIL per check and exits 1 if any failed.
# Usage: tests/gpu/failed-gpu.sh [PROBLEM [TARGET [OK [GONE]]]]  (default rmsnorm cuda 0 7; tools built with make)
set -u
problem=${1:-rmsnorm}
target=${2:-cuda}
ok=${3:-0}
gone=${4:-7}
root=$(cd "$(dirname "$0")/../.." && pwd)
pop=${TMPDIR:-/tmp}/ks-failed-gpu-$problem-$target
export KS_QUIET=1 PATH="$root/tools:$PATH:/usr/local/cuda/bin"
export KS_TIME_CAP_S=${KS_TIME_CAP_S:-0.05} KS_MIN_RUNS=${KS_MIN_RUNS:-1} KS_LOCK_DIR=$pop/locks
unset CUDA_VISIBLE_DEVICES HIP_VISIBLE_DEVICES
rm -rf "$pop"
ks-init -p "$problem" -t "$target" -k 1 "$pop" >/dev/null || exit 1
mkdir -p "$KS_LOCK_DIR"
c=$pop/gen-000/c0
ks-implement "$c" && ks-build "$c" || exit 1
failed=0
mark=$KS_LOCK_DIR/kernel-scientist-bench-$(hostname)-nvidia-$gone.failed
check() { # NAME CONDITION...: PASS or FAIL
	name=$1
	shift
	if "$@"; then echo "PASS $name"; else echo "FAIL $name"; failed=1; fi
}
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get(sys.argv[2]))' "$@"; }

KS_GPUS=$gone,$ok ks-bench "$c" 2>"$pop/err1"
rc=$?
cat "$pop/err1"
check "GONE,OK: exit 0" [ "$rc" = 0 ]
check "GONE,OK: ok on GPU $ok" [ "$(field "$c/bench.json" status) $(field "$c/bench.json" device)" = \
	"ok nvidia GPU $ok (CUDA_VISIBLE_DEVICES=$ok)" ]
check "GONE marked failed, with the runtime's reason" grep -q 'the device failed before the kernel ran' "$mark"
echo "score $(field "$c/bench.json" score_us) us; the mark: $(head -n 1 "$mark")"

rm -f "$c/bench.json"
KS_GPUS=$gone ks-bench "$c" 2>"$pop/err2"
rc=$?
cat "$pop/err2"
check "GONE marked: refused at once, exit 1" [ "$rc" = 1 ]
check "GONE marked: no bench.json" [ ! -e "$c/bench.json" ]
check "GONE marked: the message names the mark" grep -q 'every GPU of KS_GPUS is marked failed' "$pop/err2"

rm -f "$mark"
KS_GPUS=$gone ks-bench "$c" 2>"$pop/err3"
rc=$?
cat "$pop/err3"
check "GONE alone: exit 1" [ "$rc" = 1 ]
check "GONE alone: no bench.json, no mark" [ ! -e "$c/bench.json" -a ! -e "$mark" ]
check "GONE alone: the message says to bench again" grep -q 'no bench.json: bench again once it works' "$pop/err3"
exit $failed
