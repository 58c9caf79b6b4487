#!/bin/sh
# tests/gpu/adversarial.sh - the adversarial kernels of a GPU problem
# (tests/fixtures/adversarial/PROBLEM/*.hip), each built and benched through
# ks-build and ks-bench, against what the harness must make of it.  Prints
# "PASS NAME: ..." or "FAIL NAME: ..." per kernel and exits 1 if any failed.
# Usage: tests/gpu/adversarial.sh [PROBLEM [TARGET]]  (default fp8-mm hip-nvidia;
# tools built with make; needs the target's GPU).  ONLY, an extended regular
# expression, benches only the kernels whose names match it whole (a check
# that compares two kernels runs when both were benched).
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
# the kernels' folders in turn: five slots a generation (K's most), gen-001 on
slot=0
place() { # sets dir, gen and s for the next kernel
	gen=$((1 + slot / 5)) s=$((slot % 5))
	dir=$pop/gen-$(printf %03d $gen)/c$s
	slot=$((slot + 1))
}
# its candidate.json, with BASE_ID as base and reference
by_hand() {
	printf '{"id": "g%03dc%d", "generation": %d, "slot": %d, "parents": {"base": "%s", "reference": "%s"}, '\
'"plan": null, "model": "by hand", "usage": null}\n' $gen $s $gen $s "$1" "$1" >"$2/candidate.json"
}

field() { python3 -c 'import json,sys; b=json.load(open(sys.argv[1])); print(b.get(sys.argv[2]))' "$@"; }

# judge NAME STATUS REGEX [SED]: bench NAME (edited by the sed script SED), expect STATUS (a regular
# expression, whole) and a message matching REGEX.  SRC, where set, is the source instead of NAME.hip;
# BASE (a bench's folder), the base it is timed side by side with.
judge() {
	if [ -n "${ONLY:-}" ] && ! echo "$1" | grep -Eqx -- "$ONLY"; then
		last=
		return
	fi
	place
	mkdir -p "$dir"
	sed "${4:-}" "${SRC:-$adv/$1.hip}" >"$dir/kernel.hip"
	if [ -n "${BASE:-}" ]; then
		base_id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$BASE/candidate.json")
		by_hand "$base_id" "$dir"
	fi
	ks-build "$dir" && ks-bench "$dir"
	status=$(field "$dir/bench.json" status) message=$(field "$dir/bench.json" message)
	if echo "$status" | grep -Eqx -- "$2" && echo "$message" | grep -Eq -- "$3"; then
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
memo=$last
if [ -z "$same" ] || [ -z "$memo" ]; then
	:
elif python3 - "$same/bench.json" "$memo/bench.json" <<'PY'
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
# logged NAME REGEX: the last bench's log (the kernel's own output among it) has a line matching REGEX
logged() {
	if [ -z "$last" ]; then
		return
	elif grep -Eq -- "$2" "$last/bench.log"; then
		echo "PASS $1: its log says /$2/"
	else
		echo "FAIL $1: its log has no line /$2/"
		failed=1
	fi
}

# Round three (issue 26): the kernel in a worker process of its own, judged from outside.
# The forged verdict goes nowhere: the worker holds no descriptor of the judge's
judge r3_forge_fd incorrect "= -?nan"
logged r3_forge_fd "wrote a forged verdict"
# no problem table in the worker's process, and no thread of it may map over its RELRO or mprotect
judge r3_map_fixed incorrect "= -?nan"
logged r3_map_fixed "problem table in this process: none"
logged r3_map_fixed "the calling thread: mmap\(MAP_FIXED\) over RELRO: Operation not permitted; mprotect: Operation not permitted"
# (a new thread's stack needs mprotect for its guard page: pthread_create itself is refused)
logged r3_map_fixed "a new thread: mmap\(MAP_FIXED\) over RELRO: Operation not permitted; mprotect: Operation not permitted|pthread_create failed"
# the worker's own timer made to read 0: the judge's interval does not bear it out
judge r3_worker_events rejected "calls took less than the judge saw"
logged r3_worker_events "the worker's events made one"
judge r3_worker_events ok "None" "s/^#define TRICK 1/#define TRICK 0/"

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
# with device flags allowed, the worker's flags are the kernel's own: the judge's interval still holds its time
export KS_KERNELS_DIR=$kdir
judge set_flags "ok|rejected" "None|calls took less than the judge saw"
flags=$last
# work on a stream of its own, returned from at once: the judge's interval holds it, the worker's events do not
judge other_stream rejected "calls took less than the judge saw|memory changed after its call returned"
# work left running after each call, within the judge's margin, to slow the base timed beside it:
# the judge's settle ends each exchange only once the worker's work is off the device, so the
# candidate's ratio to the same tiled kernel stays at 1 on every shape (issue 27, item 1)
tiled_src=$pop/tiled.hip slow_src=$pop/slow_base.hip
cp "$root/kernels/$problem/variants/tiled.hip" "$tiled_src"
{ sed 's/^void$/static void/; s/^fp8_mm(/tiled_fp8_mm(/' "$tiled_src"; cat "$adv/slow_base.hip"; } >"$slow_src"
by_hand_base() { # its own candidate.json, so that it can be a base
	by_hand g000c0 "$last"
}
SRC=$tiled_src KS_VERSUS=0 judge tiled ok "None"
tiled=$last
if [ -n "$tiled" ]; then
	by_hand_base
	SRC=$slow_src BASE=$tiled judge slow_base "ok|rejected" "None|calls took less than the judge saw"
	if [ -n "$last" ] && [ "$(field "$last/bench.json" status)" = ok ] && ! python3 - "$last/bench.json" <<'PY'
import json, sys
v = json.load(open(sys.argv[1])).get("versus") or {}
ratios = [s["ratio"] for s in v.get("per_shape", [])]
print("slow_base / tiled side by side: %s, per shape %s" % (v.get("ratio"), ", ".join("%.3f" % r for r in ratios)))
sys.exit(0 if ratios and min(ratios) > 0.98 else 1)
PY
	then
		echo "FAIL slow_base: faster than its base, the same code, side by side"
		failed=1
	elif [ -n "$last" ]; then
		echo "PASS slow_base: no faster than its base side by side (or rejected)"
	fi
fi
# with files allowed, the seccomp filter denies the open of /proc/self/maps: c stays NaN
judge read_maps incorrect "c\[0\]\[0\] = -?nan"
# flags that made the floor wrong in one process make no kernel faster now: no shape 10 % faster
if [ -z "$same" ] || [ -z "$flags" ]; then
	:
elif [ "$(field "$flags/bench.json" status)" = rejected ] || python3 - "$same/bench.json" "$flags/bench.json" <<'PY'
import json, sys
a, b = (json.load(open(f))["results"] for f in sys.argv[1:])
worst = min(y["time_us"] / x["time_us"] for x, y in zip(a, b))
print("set_flags / same_stream time, least over the shapes: %.3f" % worst)
sys.exit(0 if worst > 0.9 else 1)
PY
then
	echo "PASS set_flags: no faster than the same kernel without the flags"
else
	echo "FAIL set_flags: faster than the same kernel without the flags"
	failed=1
fi
exit $failed
