#!/usr/bin/env python3
"""writers.py MAN TRACE_PREFIX ROOT: checks the file accesses that strace -ff
recorded (TRACE_PREFIX.PID files) against the writers-and-readers table of
population(5) (MAN): every file under ROOT that a tool wrote must have a row
naming that tool as its one writer, and a tool that read a file must be its
writer or one of its readers.  Prints one line per breach and exits 1 if any;
prints the writers it saw, one 'PATTERN WRITER' line each, on success."""
import glob, os, re, sys

man, prefix, root = sys.argv[1:4]
root = os.path.realpath(root)

# The table: .It Pa PATH Ta Nm WRITER Ta READER , READER ...
table = {}
for line in open(man):
    m = re.match(r'^\.It Pa (\S+) Ta Nm (\S+) Ta (.*)$', line)
    if m:
        readers = {r.strip() for r in m.group(3).split(',')} - {r'\(em', ''}
        table[m.group(1)] = (m.group(2), readers)
if not table:
    sys.exit("writers.py: no '.It Pa ... Ta Nm ... Ta ...' rows in " + man)

# Files that many tools share by design (population(5) says why) or that
# are temporary names of one write; not in the single-writer table.
SHARED = re.compile(r'^(llm-usage\.jsonl|llm-adapt\.json|llm-cache/.*|\.lock)$')
TEMP = re.compile(r'(^|/)\.[^/]+\.[A-Za-z0-9]{6}$|(^|/)\.(sandbox|eval)(/|$)|(^|/)\.harness\.json\.')

def pattern(rel):
    """pop-relative path -> the table's spelling: gen-NNN, cS, -T, R."""
    rel = re.sub(r'^gen-\d{3}', 'gen-NNN', rel)
    rel = re.sub(r'^(gen-NNN)/c\d(/|$)', r'\1/cS\2', rel)
    rel = re.sub(r'/llm/repair\d+-\d+\.', '/llm/repairR-T.', rel)
    rel = re.sub(r'/llm/(select|hypothesize|implement)-\d+\.', r'/llm/\1-T.', rel)
    rel = re.sub(r'^(gen-NNN/cS)/[^/]+\.o$', r'\1/NAME.o', rel)
    return rel

# Per process: the program it runs (last execve) and its parent.
parent, prog, events = {}, {}, []
for path in glob.glob(prefix + '.*'):
    pid = int(path.rsplit('.', 1)[1])
    cwd = None
    for line in open(path, errors='replace'):
        m = re.match(r'^(?:clone3?|vfork|fork)\(.*\)\s+=\s+(\d+)', line)
        if m:
            parent[int(m.group(1))] = pid
            continue
        m = re.match(r'^execve\("([^"]+)".*\)\s+=\s+0', line)
        if m:
            prog[pid] = os.path.basename(m.group(1))
            continue
        m = re.match(r'^open(?:at)?\((?:AT_FDCWD, )?"([^"]+)", ([A-Z_|]+).*\)\s+=\s+\d+', line)
        if m:
            write = re.search(r'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND', m.group(2))
            if 'O_DIRECTORY' not in m.group(2):
                events.append((pid, 'write' if write else 'read', m.group(1)))
            continue
        m = re.match(r'^rename(?:at2?)?\((?:AT_FDCWD, )?"[^"]+", (?:AT_FDCWD, )?"([^"]+)".*\)\s+=\s+0', line)
        if m:
            events.append((pid, 'write', m.group(1)))
            continue
        m = re.match(r'^unlink(?:at)?\((?:AT_FDCWD, )?"([^"]+)".*\)\s+=\s+0', line)
        if m:
            events.append((pid, 'write', m.group(1)))

def tool_of(pid):
    """The nearest ks-* program among pid and its ancestors."""
    while pid is not None:
        if prog.get(pid, '').startswith('ks-'):
            return prog[pid]
        pid = parent.get(pid)
    return None

bad, seen = [], {}
cwd = os.getcwd()
for pid, kind, path in events:
    full = os.path.realpath(os.path.join(cwd, path))
    if not full.startswith(root + '/'):
        continue
    rel = os.path.relpath(full, root)
    if SHARED.match(rel) or TEMP.search(rel) or os.path.isdir(full):
        continue
    tool = tool_of(pid)
    if tool is None:
        continue  # the test's own shell, not a tool
    pat = pattern(rel)
    if pat not in table:
        bad.append('%s %s %s, which population(5) has no row for (%s)' % (tool, kind + 's', rel, pat))
        continue
    writer, readers = table[pat]
    if kind == 'write':
        seen.setdefault(pat, set()).add(tool)
        if tool != writer:
            bad.append('%s writes %s, whose one writer is %s' % (tool, rel, writer))
    elif tool != writer and tool not in readers:
        bad.append('%s reads %s, but population(5) lists only %s as its readers' % (tool, rel, ', '.join(sorted(readers)) or 'none'))

for line in sorted(set(bad)):
    print(line)
if bad:
    sys.exit(1)
for pat in sorted(seen):
    print(pat, ' '.join(sorted(seen[pat])))
