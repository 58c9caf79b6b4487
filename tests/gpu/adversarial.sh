#!/bin/sh
# tests/gpu/adversarial.sh - the adversarial kernels of a GPU problem
# (tests/fixtures/adversarial/PROBLEM/*.hip), each built and benched through
# ks-build and ks-bench, against what the harness must make of it.  Prints
# "PASS NAME: ..." or "FAIL NAME: ..." per kernel and exits 1 if any failed.
# Usage: tests/gpu/adversarial.sh [PROBLEM [TARGET]]  (default fp8-mm hip-nvidia;
# tools built with make; needs the target's GPU).
set -u
problem=${1:-fp8-mm}
target=${2:-hip-nvidia}
root=$(cd "$(dirname "$0")/../.." && pwd)
adv=$root/tests/fixtures/adversarial/$problem
pop=${TMPDIR:-/tmp}/ks-adversarial-$problem-$target
export KS_QUIET=1 PATH="$root/tools:$PATH:/usr/local/cuda/bin"
export KS_TIME_CAP_S=${KS_TIME_CAP_S:-0.2} KS_MIN_RUNS=${KS_MIN_RUNS:-3}
rm -rf "$pop"
ks-init -p "$problem" -t "$target" -k 5 "$pop" >/dev/null || exit 1
failed=0
slot=0

field() { python3 -c 'import json,sys; b=json.load(open(sys.argv[1])); print(b.get(sys.argv[2]))' "$@"; }

# judge NAME STATUS REGEX: bench NAME, expect STATUS and a message matching REGEX
judge() {
	dir=$pop/gen-001/c$slot
	slot=$((slot + 1))
	mkdir -p "$dir"
	cp "$adv/$1.hip" "$dir/kernel.hip"
	ks-build "$dir" && ks-bench "$dir"
	status=$(field "$dir/bench.json" status) message=$(field "$dir/bench.json" message)
	if [ "$status" = "$2" ] && echo "$message" | grep -Eq -- "$3"; then
		echo "PASS $1: $status: $message"
	else
		echo "FAIL $1: $status: $message (expected $2 matching /$3/)"
		failed=1
	fi
	last=$dir
}

judge zeros incorrect "out of tolerance|a constant output"
judge skip_later incorrect "c\[[0-9]+\]\[[0-9]+\] = -?nan"
judge write_input incorrect "changed its input a_scale"
judge cache_by_shape incorrect "^bench shape 1024x1536x7168 (on timed run [0-9]+|after [0-9]+ timed runs)"
judge cache_by_pointer incorrect "^bench shape 1024x1536x7168 (on timed run [0-9]+|after [0-9]+ timed runs)"
judge read_maps rejected "imports '(fopen|fgets|__fgets_chk|fclose|__isoc[0-9]+_sscanf)'"
judge low_precision incorrect "out of tolerance"
judge set_flags rejected "imports 'cudaSetDeviceFlags'"
judge pasted rejected "reaches into the process \('mprotect'"
judge other_stream rejected "imports 'cudaStreamCreateWithFlags'"
judge same_stream ok "None"
same=$last
# new inputs for every timed call, drawn on the device: the memo never hits
judge memo_by_content ok "None"
if python3 - "$same/bench.json" "$last/bench.json" <<'PY'
import json, sys
a, b = (json.load(open(f))["score_us"] for f in sys.argv[1:])
print("memo_by_content / same_stream score: %.3f" % (b / a))
sys.exit(0 if b > 0.9 * a else 1)
PY
then
	echo "PASS memo_by_content: no faster than the same kernel without the memo"
else
	echo "FAIL memo_by_content: faster than the same kernel without the memo"
	failed=1
fi
# with streams and device flags allowed (problem.json "allowed_symbols"), the defences behind the import check
kdir=${TMPDIR:-/tmp}/ks-adversarial-kernels
rm -rf "$kdir" && mkdir -p "$kdir" && cp -r "$root/kernels/common" "$root/kernels/$problem" "$kdir/"
python3 - "$kdir/$problem/problem.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["allowed_symbols"] = ["cudaStreamCreateWithFlags", "cudaStreamDestroy", "cudaSetDeviceFlags",
    "fopen", "fgets", "__fgets_chk", "fclose", "strstr", "sscanf", "__isoc99_sscanf", "__isoc23_sscanf"]
json.dump(p, open(sys.argv[1], "w"), indent=2)
PY
# with device flags allowed, the timer's own check stops the trick: the flags are read after every call
export KS_KERNELS_DIR=$kdir
judge set_flags rejected "scheduling flags changed"
judge other_stream ok "None"
other=$last
# with files allowed, the seccomp filter denies the open of /proc/self/maps: c stays NaN
judge read_maps incorrect "c\[0\]\[0\] = -?nan"
last=$other
# the work on another stream is timed all the same: no shape 10 % faster
if python3 - "$same/bench.json" "$last/bench.json" <<'PY'
import json, sys
a, b = (json.load(open(f))["results"] for f in sys.argv[1:])
worst = min(y["time_us"] / x["time_us"] for x, y in zip(a, b))
print("other_stream / same_stream time, least over the shapes: %.3f" % worst)
sys.exit(0 if worst > 0.9 else 1)
PY
then
	echo "PASS other_stream: timed like the same kernel on the null stream"
else
	echo "FAIL other_stream: timed faster than the same kernel on the null stream"
	failed=1
fi
exit $failed
