#!/usr/bin/env python3
"""layers.py LIBDIR [--sources-only]: checks the library's layers (issue 29).

The headers LIBDIR/ks_LAYER.h form one chain: each includes the header of
the layer below it and no other of the library's, the lowest none.  Each
source LIBDIR/ks_*.c includes one of them, its layer's (itself or through
a private header of LIBDIR, one not named ks_*.h).  Unless
--sources-only, the objects (LIBDIR/ks_*.o, built) show what each file
calls of the others (nm): only files of its layer and those below, and no
two files call each other round a cycle.  Prints one line per breach and
exits 1 if any; else the layers, lowest first, with their files."""
import glob, os, re, subprocess, sys

libdir = sys.argv[1]
sources_only = '--sources-only' in sys.argv[2:]
bad = []
INCLUDE = re.compile(r'^\s*#\s*include\s+"(ks_[a-z_]+\.h)"', re.M)

def includes(path):
    return INCLUDE.findall(open(path).read())

headers = {os.path.basename(h): includes(h) for h in glob.glob(os.path.join(libdir, 'ks_*.h'))}
below = {}
for h, inc in sorted(headers.items()):
    if len(inc) > 1:
        bad.append('%s includes %s: a header includes the one below it alone' % (h, ', '.join(inc)))
    for i in inc:
        if i not in headers:
            bad.append('%s includes %s, which is no header of the library' % (h, i))
    below[h] = inc[0] if inc else None
for h in sorted(headers):
    above = sorted(a for a in headers if below.get(a) == h)
    if len(above) > 1:
        bad.append('%s is included by %s: one layer above each' % (h, ', '.join(above)))
bottom = [h for h in headers if below.get(h) is None]
order = []
if len(bottom) != 1:
    bad.append('the layers have %d lowest headers (%s): one chain is wanted' % (len(bottom), ', '.join(sorted(bottom))))
else:
    order = bottom
    while True:
        above = [h for h in headers if below.get(h) == order[-1]]
        if not above:
            break
        if len(above) > 1:
            break
        order.append(above[0])
    for h in sorted(set(headers) - set(order)):
        bad.append('%s (which includes %s) is in no chain up from %s' % (h, below[h], order[0]))
rank = {h: i for i, h in enumerate(order)}

# a private header (not ks_*.h: shared by a few files of one layer) stands for what it includes
PRIVATE = re.compile(r'^\s*#\s*include\s+"([a-z_]+\.h)"', re.M)

def layer_includes(path):
    inc = includes(path)
    for priv in PRIVATE.findall(open(path).read()):
        if not priv.startswith('ks_') and os.path.exists(os.path.join(libdir, priv)):
            inc += includes(os.path.join(libdir, priv))
    return inc

layer = {}
for c in sorted(glob.glob(os.path.join(libdir, 'ks_*.c'))):
    name = os.path.basename(c)[:-2]
    inc = layer_includes(c)
    if len(inc) != 1 or inc[0] not in headers:
        bad.append('%s.c includes %s: one header of the library, its layer\'s' % (name, ', '.join(inc) or 'none'))
    elif inc[0] in rank:
        layer[name] = rank[inc[0]]

if not sources_only and not bad:
    defs, uses = {}, {}
    for name in layer:
        obj = os.path.join(libdir, name + '.o')
        if not os.path.exists(obj):
            bad.append('%s is not built (make tools)' % obj)
            continue
        out = subprocess.run(['nm', obj], capture_output=True, text=True, check=True).stdout
        defs[name] = {l.split()[2] for l in out.splitlines() if len(l.split()) == 3 and l.split()[1] in 'TDBRC'}
        uses[name] = {l.split()[1] for l in out.splitlines() if len(l.split()) == 2 and l.split()[0] == 'U'}
    owner = {s: n for n, ss in defs.items() for s in ss}
    calls = {n: {} for n in uses}
    for n, us in sorted(uses.items()):
        for s in sorted(us):
            o = owner.get(s)
            if o and o != n:
                calls[n].setdefault(o, s)
                if layer[o] > layer[n]:
                    bad.append('%s.c (%s) calls %s of %s.c (%s, a layer above)' %
                               (n, order[layer[n]], s, o, order[layer[o]]))
    # no cycle between files
    state = {}
    def visit(n, path):
        state[n] = 1
        for m in sorted(calls.get(n, {})):
            if state.get(m) == 1:
                cyc = path[path.index(m):] + [m]
                bad.append('a cycle: ' + ' -> '.join(c + '.c' for c in cyc))
            elif not state.get(m):
                visit(m, path + [m])
        state[n] = 2
    for n in sorted(calls):
        if not state.get(n):
            visit(n, [n])

for b in bad:
    print(b)
if bad:
    sys.exit(1)
for i, h in enumerate(order):
    print('%d %s: %s' % (i, h, ' '.join(sorted(n + '.c' for n in layer if layer[n] == i))))
