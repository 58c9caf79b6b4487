#!/usr/bin/env python3
"""normalize.py POP OUT: the files of a population as tests/0013-golden.bats
compares them with tests/golden/generation/: each file of POP copied to OUT
with what differs from run to run or machine to machine made a mark.
JSON: timings (every number under a key of TIMING) are 0, the machine's
state and the build's time go, and strings have paths and the processor's
name replaced; text files: the same replacements.  What is left is what a
move of code must not change: the files, their fields, the prompts sent,
the replies kept, the commands and the verdicts."""
import json, os, re, sys

pop, out = sys.argv[1:3]
pop = os.path.realpath(pop)
root = os.path.realpath(os.path.join(os.path.dirname(__file__), '..', '..'))
tmp = os.path.dirname(pop)

# numbers that are measured, not computed from the inputs
TIMING = {'time_us', 'mean_us', 'median_us', 'min_us', 'max_us', 'stderr_us', 'median_stderr_us', 'runs',
          'rel_stderr', 'wall_s', 'checks', 'checks_s', 'score_us', 'flops_per_s', 'tests_s', 'salt', 'seconds',
          'converged', 'elapsed_s', 'latency_s', 'batch', 'bound_us', 'sol_us', 'ci95', 'base_time_us', 'ratio', 'rounds'}
# the machine's state; the programs' and the harness's hashes (a change of the harness is no stage's)
GONE = {'machine', 'runner_sha256', 'harness_sha256'}
# counted from a prompt that holds the machine's facts (the fixture server counts words)
MACHINE = {'prompt_tokens'}
# when it was made
STAMPS = {'time', 'created_at', 'started_at', 'finished_at'}

def cpu_name():
    try:
        for line in open('/proc/cpuinfo'):
            if line.startswith('model name'):
                return line.split(':', 1)[1].strip()
    except OSError:
        pass
    return None

CPU = cpu_name()

def text(s):
    s = s.replace(pop, '<pop>').replace(root, '<root>').replace(tmp, '<tmp>')
    if CPU:
        s = s.replace(CPU, '<cpu>')
    # the compiler's version line and the judge's measured clock overhead
    s = re.sub(r'cc \(Debian [^)]*\) [0-9.]+', 'cc (<version>)', s)
    s = re.sub(r'\b\d+(\.\d+)? us \(the median of \d+ empty calls[^)]*\)', '<timer overhead>', s)
    s = re.sub(r'\(\d+ threads?\)', '(<n> threads)', s)
    # the target's facts of this machine (ks_facts.c): its cores, caches, instruction set, peak
    s = re.sub(r'(?m)^- (CPU|Caches \(of cpu0\)|Instruction set|Peak): .*$', r'- \1: <machine>', s)
    # the fixture LLM server's port
    s = re.sub(r'http://127\.0\.0\.1:\d+', 'http://127.0.0.1:<port>', s)
    return s

def walk(v, key=None):
    if isinstance(v, dict):
        return {k: walk(x, k) for k, x in v.items() if k not in GONE}
    if isinstance(v, list):
        return [walk(x, key) for x in v]
    if key in TIMING and isinstance(v, (int, float)) and not isinstance(v, bool):
        return 0
    if key in MACHINE and isinstance(v, (int, float)):
        return 0
    if key in TIMING and isinstance(v, bool):
        return False
    if key in STAMPS and isinstance(v, str):
        return '<time>'
    if isinstance(v, str):
        return text(v)
    return v

for dirpath, dirnames, filenames in os.walk(pop):
    dirnames.sort()
    for name in sorted(filenames):
        src = os.path.join(dirpath, name)
        rel = os.path.relpath(src, pop)
        # programs, logs of the compiler and the bench, caches and locks: not compared
        if name in ('runner', 'worker', 'build.log', 'bench.log') or name.startswith('.') or \
                rel.startswith('llm-cache') or name.endswith('.lock'):
            continue
        dst = os.path.join(out, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        data = open(src, encoding='utf-8', errors='replace').read()
        if name.endswith('.json'):
            data = json.dumps(walk(json.loads(data)), indent=1, sort_keys=True) + '\n'
        elif name.endswith('.jsonl'):
            data = ''.join(json.dumps(walk(json.loads(l)), sort_keys=True) + '\n' for l in data.splitlines() if l)
        else:
            data = text(data)
        open(dst, 'w', encoding='utf-8').write(data)
