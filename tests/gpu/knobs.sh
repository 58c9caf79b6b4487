#!/bin/sh
# tests/gpu/knobs.sh - the seed of PROBLEM with COUNT random settings of its
# ks-tune knobs (and the all-lowest and all-highest ones), each built and
# benched through ks-build and ks-bench on TARGET: every setting must be
# correct on every test shape; prints one line per setting (its knobs,
# status, score) and PASS or FAIL.  The settings are drawn from SEED.
# Usage: tests/gpu/knobs.sh PROBLEM TARGET [COUNT [SEED]]  (tools built with make)
set -u
usage="usage: knobs.sh PROBLEM TARGET [COUNT [SEED]]"
problem=${1:?$usage}
target=${2:?$usage}
count=${3:-12}
seed=${4:-1}
root=$(cd "$(dirname "$0")/../.." && pwd)
pop=${TMPDIR:-/tmp}/ks-knobs-$problem-$target
export KS_QUIET=1 PATH="$root/tools:$PATH:/usr/local/cuda/bin"
export KS_TIME_CAP_S=${KS_TIME_CAP_S:-0.05} KS_MIN_RUNS=${KS_MIN_RUNS:-1}
rm -rf "$pop"
ks-init -p "$problem" -t "$target" -k 1 "$pop" >/dev/null || exit 1
ks-implement "$pop/gen-000/c0" || exit 1
src=$(ls "$pop"/gen-000/c0/kernel.*)
ext=${src##*.}

# one directory per setting, its kernel the seed with the knobs rewritten
python3 - "$src" "$pop" "$count" "$seed" "$ext" <<'PY' || exit 1
import os, random, re, sys
src, pop, count, seed, ext = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
text = open(src).read()
knobs = re.findall(r"^#define (\w+) (-?\d+)\s*/\* ks-tune: ([-\d ]+)\*/", text, re.M)
rng = random.Random(seed)
settings = [{k: v.split()[0] for k, _, v in knobs}, {k: v.split()[-1] for k, _, v in knobs}]
settings += [{k: rng.choice(v.split()) for k, _, v in knobs} for _ in range(count)]
for n, s in enumerate(settings):
    g, slot = 1 + n // 5, n % 5		# a generation has slots 0-4
    d = "%s/gen-%03d/c%d" % (pop, g, slot)
    os.makedirs(d)
    out = text
    for k, v in s.items():
        out = re.sub(r"^(#define %s )-?\d+" % k, r"\g<1>" + v, out, flags=re.M)
    open("%s/kernel.%s" % (d, ext), "w").write(out)
    open(d + "/knobs", "w").write(" ".join("%s=%s" % kv for kv in s.items()))
    open(d + "/candidate.json", "w").write('{"id": "g%03dc%d", "generation": %d, "slot": %d, "parents": '
        '{"base": "g000c0", "reference": "g000c0"}, "plan": null, "model": "by hand", "usage": null}\n' % (g, slot, g, slot))
PY
failed=0
ls -d "$pop"/gen-*/c* | grep -v gen-000 | xargs -P "$(nproc)" -I{} sh -c 'ks-build {} >/dev/null 2>&1 || true'
for d in $(ls -d "$pop"/gen-*/c* | grep -v gen-000 | sort -V); do
	ks-bench "$d" >/dev/null 2>&1
	line=$(python3 -c 'import json,sys; b=json.load(open(sys.argv[1])); print(b["status"], b.get("score_us"), (b.get("message") or "")[:160])' "$d/bench.json" 2>&1)
	echo "$(cat "$d/knobs"): $line"
	case $line in ok*) ;; *) failed=1 ;; esac
done
[ $failed -eq 0 ] && echo PASS || echo FAIL
exit $failed
