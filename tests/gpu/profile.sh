#!/bin/sh
# tests/gpu/profile.sh - ks-profile on a real GPU: the seed and a
# hand-written variant of fp8-mm (hip-nvidia) and rmsnorm (cuda), each
# built, benched, then profiled with Nsight Compute; prints each
# profile.json digest as the hypothesize prompt shows it, the time
# ks-profile took, and "PASS"/"FAIL" per kernel (a profile with its
# kernels and every metric).  Exits 1 if any failed.
# Usage: tests/gpu/profile.sh  (tools built with make; needs an NVIDIA GPU and ncu)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${TMPDIR:-/tmp}/ks-profile-gpu
export KS_QUIET=1 PATH="$root/tools:$PATH:/usr/local/cuda/bin"
export KS_TIME_CAP_S=${KS_TIME_CAP_S:-0.3} KS_MIN_RUNS=${KS_MIN_RUNS:-3}
rm -rf "$work"
failed=0

# one PROBLEM TARGET VARIANT: slot c0 the seed, c1 the variant; each benched and profiled
one() {
	pop=$work/$1
	ks-init -p "$1" -t "$2" -k 2 "$pop" >/dev/null || exit 1
	ks-implement "$pop/gen-000/c0"
	mkdir -p "$pop/gen-001/c1"
	cp "$root/kernels/$1/variants/$3" "$pop/gen-001/c1/kernel.${3##*.}"
	for dir in "$pop/gen-000/c0" "$pop/gen-001/c1"; do
		ks-build "$dir" && ks-bench "$dir" || { echo "FAIL $dir: not built or benched"; failed=1; continue; }
		start=$(date +%s)
		ks-profile "$dir"
		took=$(($(date +%s) - start))
		python3 - "$dir" "$took" <<'PY' || failed=1
import json, sys
d, took = sys.argv[1], sys.argv[2]
b = json.load(open(d + "/bench.json"))
p = json.load(open(d + "/profile.json"))
print("%s: bench %s, score %s us; ks-profile %s s" % (d, b["status"], b.get("score_us"), took))
if "skipped" in p:
    print("FAIL %s: skipped: %s" % (d, p["skipped"])); sys.exit(1)
print("  shape %s (%s)" % (p["shape"], p["shape_chosen"]))
keys = ["duration_us", "achieved_occupancy_pct", "theoretical_occupancy_pct", "dram_throughput_pct",
        "sm_throughput_pct", "shared_bank_conflicts_load", "shared_bank_conflicts_store"]
bad = []
for k in p["kernels"]:
    print("  %s" % k["name"][:60])
    print("    " + ", ".join("%s %s" % (x, k[x]) for x in keys))
    print("    stalls: " + ", ".join("%s %.2f" % (s["reason"], s["per_issue"]) for s in k["stalls"]))
    bad += [x for x in keys if k[x] is None] + (["stalls"] if not k["stalls"] else [])
print(("FAIL %s: missing %s" % (d, bad)) if bad else "PASS %s" % d)
sys.exit(1 if bad else 0)
PY
	done
}

one fp8-mm hip-nvidia tiled.hip
one rmsnorm cuda vec.cu
exit $failed
