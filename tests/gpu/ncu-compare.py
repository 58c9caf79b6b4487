#!/usr/bin/env python3
"""ncu-compare.py POP DIMS: each candidate's ks-bench time per bench shape
against Nsight Compute's kernel duration of the same kernel and shape.

POP is a population made by tests/gpu/validate.sh with NCU=1: each
candidate directory holds bench.json and ncu-SHAPE.csv files (ncu --csv
with the metric gpu__time_duration.sum, one table per ncu run of the
runner's --profile mode: the warm-up's calls and the profiled one).  DIMS
names the problem's dimensions in order, comma-separated ("m,n,k").
Prints a Markdown table and, per kernel, how many shapes are within the
timer's target (max(3 %, 2 us)) and the spread of its score over repeated
benches (bench-N.json).

In each run the harness's own kernels (named ks_...) are left out and the
first call is dropped: on the H200 the first kernel Nsight Compute
profiles in a process read 1.3-2.9 us longer than the calls after it
(rmsnorm, 2026-12-02), which is ncu's, not the kernel's.
"""
import csv
import glob
import json
import os
import statistics
import sys

UNITS = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1.0, "us": 1.0, "msecond": 1e3, "ms": 1e3}


def kernel_function(signature):
    """A kernel's function name from ncu's "Kernel Name" ("void k<4>(int)" -> "k")."""
    name = signature.split("(")[0].split("<")[0].strip()
    return name.split()[-1] if name else name


def calls_of(rows):
    """A run's rows (ncu's table) as calls, each the list of its kernels'
    durations (us): the harness's kernels (ks_...) left out, a call starting
    at each launch of the run's first kernel."""
    calls = []
    first = None
    for row in rows:
        if row["Metric Name"] != "gpu__time_duration.sum":
            continue
        fn = kernel_function(row["Kernel Name"])
        if fn.startswith("ks_"):
            continue
        if first is None:
            first = fn
        if fn == first:
            calls.append([])
        calls[-1].append(float(row["Metric Value"].replace(",", "")) * UNITS[row["Metric Unit"]])
    return calls


def ncu_durations(path):
    """The durations (us) of the calls in an ncu --csv file, each call's
    kernels summed, over every run (table) in it; a run's first call is
    dropped when it holds more than one.  [] when none."""
    lines = open(path).read().splitlines()
    starts = [i for i, l in enumerate(lines) if l.startswith('"ID"')] + [len(lines)]
    out = []
    for a, b in zip(starts, starts[1:]):
        calls = calls_of(csv.DictReader([l for l in lines[a:b] if l.startswith('"')]))
        out += [sum(c) for c in (calls[1:] if len(calls) > 1 else calls)]
    return out


def within_target(ours, ncu):
    """The timer's target: within max(3 %, 2 us) of ncu (kernels/GPU-RESULTS.md)."""
    return abs(ours - ncu) <= max(0.03 * ncu, 2.0)


def ncu_cells(c, shape, ours):
    """ncu's median for one shape and the difference, as cells; and whether within target."""
    f = os.path.join(c, "ncu-%s.csv" % shape)
    d = ncu_durations(f) if os.path.exists(f) else []
    if not d:
        return ["(no ncu result)", "", ""], None
    med = statistics.median(d)
    diff = ours - med
    ok = within_target(ours, med)
    return ["%.2f (%d)" % (med, len(d)), "%+.2f us, %+.1f %%" % (diff, diff / med * 100),
            "yes" if ok else "no"], ok


def repeat_spread(c):
    """The score's spread over bench.json and bench-N.json: (n, spread %), or None."""
    scores = []
    for f in [os.path.join(c, "bench.json")] + sorted(glob.glob(os.path.join(c, "bench-*.json"))):
        s = json.load(open(f)).get("score_us")
        if s:
            scores.append(s)
    if len(scores) < 3:
        return None
    return len(scores), (max(scores) - min(scores)) / min(scores) * 100


def main():
    pop, dims = sys.argv[1], sys.argv[2].split(",")
    print("| kernel | shape | ks-bench time_us | median_us | min_us | runs "
          "| ncu median (calls) | difference | within max(3 %, 2 us) |")
    print("|---|---|---|---|---|---|---|---|---|")
    summary = []
    for c in sorted(glob.glob(os.path.join(pop, "gen-*", "c*"))):
        b = json.load(open(os.path.join(c, "bench.json")))
        vfile = os.path.join(c, "variant")
        name = open(vfile).read().strip() if os.path.exists(vfile) else "seed"
        met = []
        for r in b.get("results") or []:
            shape = "x".join(str(r["shape"][d]) for d in dims)
            more, ok = ncu_cells(c, shape, r["time_us"])
            if ok is not None:
                met.append(ok)
            print("| " + " | ".join([name, shape, "%.2f" % r["time_us"], "%.2f" % (r.get("median_us") or 0),
                                     "%.2f" % (r.get("min_us") or 0), str(r["runs"])] + more) + " |")
        line = "%s: score %.2f us" % (name, b.get("score_us") or 0)
        if met:
            line += "; %d of %d shapes within max(3 %%, 2 us) of ncu" % (sum(met), len(met))
        rs = repeat_spread(c)
        if rs:
            line += "; score spread over %d benches %.2f %% (target < 1 %%)" % rs
        summary.append(line)
    print()
    for s in summary:
        print("- " + s)


if __name__ == "__main__":
    main()
