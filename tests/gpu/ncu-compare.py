#!/usr/bin/env python3
"""ncu-compare.py POP DIMS: each candidate's ks-bench time per bench shape
against Nsight Compute's kernel duration of the same kernel and shape.

POP is a population made by tests/gpu/validate.sh with NCU=1: each
candidate directory holds bench.json and ncu-SHAPE.csv files (ncu --csv
with the metric gpu__time_duration.sum).  DIMS names the problem's
dimensions in order, comma-separated ("m,n,k").  Prints a Markdown table
and, per kernel, the largest difference.
"""
import csv
import glob
import json
import os
import statistics
import sys

UNITS = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1.0, "us": 1.0, "msecond": 1e3, "ms": 1e3}


def ncu_durations(path):
    """The kernel durations (us) of an ncu --csv file; [] when none."""
    lines = open(path).read().splitlines()
    start = [i for i, l in enumerate(lines) if l.startswith('"ID"')]
    if not start:
        return []
    out = []
    for row in csv.DictReader(lines[start[0]:]):
        if row["Metric Name"] == "gpu__time_duration.sum":
            out.append(float(row["Metric Value"].replace(",", "")) * UNITS[row["Metric Unit"]])
    return out


def main():
    pop, dims = sys.argv[1], sys.argv[2].split(",")
    print("| kernel | shape | ks-bench time_us | median_us | min_us | runs | ncu median (us) | launches | difference |")
    print("|---|---|---|---|---|---|---|---|---|")
    summary = []
    for c in sorted(glob.glob(os.path.join(pop, "gen-*", "c*"))):
        b = json.load(open(os.path.join(c, "bench.json")))
        vfile = os.path.join(c, "variant")
        name = open(vfile).read().strip() if os.path.exists(vfile) else "seed"
        worst = 0.0
        for r in b.get("results") or []:
            shape = "x".join(str(r["shape"][d]) for d in dims)
            f = os.path.join(c, "ncu-%s.csv" % shape)
            d = ncu_durations(f) if os.path.exists(f) else []
            if not d:
                print("| %s | %s | %.2f | | | %d | (no ncu result) | | |" % (name, shape, r["time_us"], r["runs"]))
                continue
            med = statistics.median(d)
            diff = (r["time_us"] - med) / med * 100
            worst = max(worst, abs(diff))
            print("| %s | %s | %.2f | %.2f | %.2f | %d | %.2f | %d | %+.1f %% |" % (
                name, shape, r["time_us"], r["median_us"], r["min_us"], r["runs"], med, len(d), diff))
        summary.append("%s: score %.2f us, largest difference %.1f %%" % (name, b.get("score_us") or 0, worst))
    print()
    for s in summary:
        print("- " + s)


if __name__ == "__main__":
    main()
