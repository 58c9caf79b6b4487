#!/usr/bin/env python3
"""synthetic-pop.py POP GENERATIONS: a finished population of sgemm kernels
made up in POP (made by ks-init first), GENERATIONS generations of 5, for
the tests of what the prompts show of a large population.

Each generation's base is the best kernel so far (so the base's lineage
is long), its reference the best of another line; 6 in 10 kernels are ok,
the others incorrect, build_failed or rejected with a message; each plan
has a kind (tiling, memory, vectorization, or the offline proposer's
changes).  Writes POP/expected.json: the best kernels, the lineage of the
best, the kinds and each kind's largest win.
"""
import json, os, random, sys

pop, gens = sys.argv[1], int(sys.argv[2])
rnd = random.Random(12)
seed_kernel = open(os.path.join(pop, "gen-000", "c0", "kernel.c")).read()
seed_score = json.load(open(os.path.join(pop, "gen-000", "c0", "bench.json")))["score_us"]
kinds = ["tiling", "memory", "vectorization", None]
score = {"g000c0": seed_score}
parent = {"g000c0": None}
best = "g000c0"
wins = {}
shapes = [{"M": 256, "N": 256, "K": 256}, {"M": 512, "N": 384, "K": 320}, {"M": 200, "N": 640, "K": 448}]


def write(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f)


for g in range(1, gens + 1):
    base = best
    others = [k for k in score if parent.get(k) != base and k != base]
    ref = rnd.choice(others) if others else base
    for s in range(5):
        cid = "g%03dc%d" % (g, s)
        d = os.path.join(pop, "gen-%03d" % g, "c%d" % s)
        os.makedirs(d)
        kind = kinds[(g + s) % 4]
        plan = {"title": "%s idea %d.%d" % (kind or "tuning", g, s),
                "description": "try the %s idea number %d of generation %d on %s" % (kind or "tuning", s, g, base),
                "rubric": "change the kernel as idea %d.%d says" % (g, s),
                "uplift_min": -5, "uplift_max": 20 + s, "innovation": 1 + s}
        if kind:
            plan["kind"] = kind
        else:
            plan["changes"] = {"BM": 8 * (1 + s)}
        write(os.path.join(d, "candidate.json"),
              {"id": cid, "generation": g, "slot": s, "parents": {"base": base, "reference": ref},
               "plan": plan, "model": "fixture", "usage": None})
        with open(os.path.join(d, "kernel.c"), "w") as f:
            f.write(seed_kernel)
        status = ["ok"] * 6 + ["incorrect", "incorrect", "build_failed", "rejected"]
        st = status[(g * 5 + s) % 10]
        bench = {"id": cid, "status": st, "correct": st == "ok", "device": "cpu", "timer": "test",
                 "results": [], "score_us": None, "message": None}
        if st == "ok":
            t = score[base] * rnd.uniform(0.97, 1.06)
            bench["results"] = [{"shape": sh, "time_us": t * (0.8 + 0.2 * i), "runs": 5} for i, sh in enumerate(shapes)]
            bench["score_us"] = t
            score[cid] = t
            parent[cid] = base
            k = kind or "tuning"
            gain = (score[base] / t - 1) * 100
            if gain > wins.get(k, ("", -1e9))[1]:
                wins[k] = (cid, gain)
        else:
            bench["message"] = {"incorrect": "shape 17x31x9: C[3][5] = nan, expected 1.25 (idea %d.%d)" % (g, s),
                                "build_failed": "the kernel did not compile: see diagnostics in build.json",
                                "rejected": "the kernel calls 'pthread_create' on line 12"}[st]
        write(os.path.join(d, "bench.json"), bench)
    for cid, t in score.items():
        if t < score[best]:
            best = cid

lineage, k = [], best
while k:
    lineage.append(k)
    k = parent[k]
ranked = sorted(score, key=score.get)
write(os.path.join(pop, "expected.json"),
      {"best": ranked[:3], "second_line": next(k for k in ranked if k not in lineage),
       "lineage": lineage, "wins": {k: v[0] for k, v in wins.items()}, "last": gens})
