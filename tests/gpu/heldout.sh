#!/bin/sh
# tests/gpu/heldout.sh - make heldout's steps on a real GPU: the seed and the
# hand-written variants of fp8-mm (hip-nvidia) and rmsnorm (cuda), benched
# on the benchmark shapes, then on the problem's held-out shapes; prints
# each report (the held-out column beside the speed-up) and "PASS"/"FAIL"
# per problem (every kernel correct on every held-out shape).
# Usage: tests/gpu/heldout.sh  (tools built with make; needs an NVIDIA GPU)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${TMPDIR:-/tmp}/ks-heldout-gpu
export KS_QUIET=1 PATH="$root/tools:$PATH:/usr/local/cuda/bin"
export KS_TIME_CAP_S=${KS_TIME_CAP_S:-0.3} KS_MIN_RUNS=${KS_MIN_RUNS:-3}
rm -rf "$work"
failed=0

# one PROBLEM TARGET VARIANT...: the seed, then each variant as g001cS by hand
one() {
	problem=$1 target=$2
	shift 2
	pop=$work/$problem
	ks-init -p "$problem" -t "$target" -k 3 "$pop" >/dev/null || exit 1
	ks-implement "$pop/gen-000/c0" && ks-build "$pop/gen-000/c0" && ks-bench "$pop/gen-000/c0"
	slot=0
	for v; do
		dir=$pop/gen-001/c$slot
		mkdir -p "$dir"
		cp "$root/kernels/$problem/variants/$v" "$dir/kernel.${v##*.}"
		printf '{"id": "g001c%d", "generation": 1, "slot": %d, "parents": {"base": "g000c0", "reference": "g000c0"}, "plan": null, "model": "by hand", "usage": null}\n' \
			"$slot" "$slot" >"$dir/candidate.json"
		ks-build "$dir" && ks-bench "$dir"
		slot=$((slot + 1))
	done
	# what make heldout does, without make (the tools may be built elsewhere)
	for d in $(ks-query -t "$#" "$pop"); do ks-bench -H "$d" || failed=1; done
	ks-report "$pop"
	for h in "$pop"/gen-00*/c*/heldout.json; do
		python3 - "$h" <<'PY' || failed=1
import json, sys
h = json.load(open(sys.argv[1]))
print("%s: %s, score %s us, %s" % (sys.argv[1], h["status"], h.get("score_us"),
      "; ".join("%s %.1f us" % ("x".join(str(v) for v in r["shape"].values()), r["time_us"]) for r in h["results"])))
sys.exit(0 if h["status"] == "ok" else 1)
PY
	done
}

one fp8-mm hip-nvidia tiled.hip wide.hip
one rmsnorm cuda vec.cu
[ $failed -eq 0 ] && echo PASS || echo FAIL
exit $failed
