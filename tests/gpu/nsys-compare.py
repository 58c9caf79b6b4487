#!/usr/bin/env python3
"""nsys-compare.py RUNNER_JSON TRACE_CSV [LABEL]: the harness's time of each
bench shape against the GPU's own timestamps of the same launches.

RUNNER_JSON is what the runner wrote on --json-fd 3 while Nsight Systems
traced it; TRACE_CSV is `nsys stats --report cuda_gpu_trace --format csv` of
that trace.  Every timed call of the harness is a cache-flush kernel
(ks_gpu_flush_read) followed by the candidate's launches; a launch of the
candidate that follows no flush is a correctness run, which ends the calls
of one shape.  The last `runs` calls of each shape are the timed ones; the
span from the first start to the last end of their kernels is what the
device spent, and its mean is set beside the harness's mean.  Prints a
Markdown table.
"""
import csv
import json
import statistics
import sys


def rows(path):
    with open(path, newline="") as f:
        lines = f.read().splitlines()
    # nsys may print notices before the header
    start = next(i for i, l in enumerate(lines) if "Start (ns)" in l)
    for r in csv.DictReader(lines[start:]):
        yield int(float(r["Start (ns)"])), int(float(r["Duration (ns)"])), r["Name"]


def blocks(trace):
    """The timed-call spans (ns) of each shape, in order."""
    out, cur, group = [], [], None
    for start, dur, name in sorted(trace):
        harness = name.startswith("ks_") or name.startswith("[CUDA")
        if "ks_gpu_flush_read" in name:
            if group:
                cur.append(group)
            group = []          # a timed call begins
        elif harness:
            if group:
                cur.append(group)
            group = None
        elif group is not None:
            group.append((start, start + dur))
        else:                   # a correctness run: one shape's calls end
            if cur:
                out.append(cur)
            cur = []
    if group:
        cur.append(group)
    if cur:
        out.append(cur)
    return [[(max(e for _, e in g) - min(s for s, _ in g)) for g in b] for b in out]


def main():
    res = json.load(open(sys.argv[1]))["results"]
    spans = blocks(rows(sys.argv[2]))
    label = sys.argv[3] if len(sys.argv) > 3 else ""
    if len(spans) != len(res):
        sys.exit("nsys-compare: %d shapes in the trace, %d in the JSON" % (len(spans), len(res)))
    print("| kernel | shape | harness mean_us | nsys mean_us | nsys median_us | runs | difference |")
    print("|---|---|---|---|---|---|---|")
    worst = 0
    for r, s in zip(res, spans):
        timed = s[-r["runs"]:]
        mean = statistics.mean(timed) / 1e3
        diff = (r["time_us"] - mean) / mean * 100
        worst = max(worst, abs(diff))
        print("| %s | %s | %.2f | %.2f | %.2f | %d | %+.1f %% |" % (
            label, "x".join(map(str, r["shape"])), r["time_us"], mean,
            statistics.median(timed) / 1e3, r["runs"], diff))
    print("\nlargest difference: %.1f %%" % worst)


if __name__ == "__main__":
    main()
