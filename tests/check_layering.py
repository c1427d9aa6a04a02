#!/usr/bin/env python3
"""Checks the doors and rooms of the pipeline (docs/architecture.md).

1. Includes: a file of one stage (translator/, passes/, merge/, emit/) may
   include its own stage's files (any subfolder) and, of another stage, only
   that stage's door: translator.h, shadertrans.h, passes.h, merge.h, emit.h.
2. Calls (given a build directory): the file-level call graph read from the
   objects' symbol tables (nm) has no cycle through files of two stages.

SConscript runs the first check on every build (a private include fails the
build); tests/run_tests.sh runs both on the built objects.

usage: check_layering.py ROOT [BUILD_DIR]
"""
import os
import re
import subprocess
import sys

STAGES = ('translator', 'passes', 'merge', 'emit')
DOORS = {'translator.h': 'translator', 'shadertrans.h': 'translator',
         'passes.h': 'passes', 'merge.h': 'merge', 'emit.h': 'emit'}
SOURCE_EXT = ('.c', '.h', '.l', '.y', '.def')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def stage_of(root, path):
    rel = os.path.relpath(os.path.abspath(path), root)
    top = rel.split(os.sep)[0]
    return top if top in STAGES else None


def stage_files(root):
    for stage in STAGES:
        for d, _, files in os.walk(os.path.join(root, stage)):
            for f in sorted(files):
                if f.endswith(SOURCE_EXT):
                    yield stage, os.path.join(d, f)


def include_errors(root):
    """Returns 'file: message' strings, one per private cross-stage include."""
    errors = []
    for stage, path in stage_files(root):
        with open(path, encoding='utf-8', errors='replace') as fh:
            text = fh.read()
        here = os.path.dirname(path)
        for m in INCLUDE.finditer(text):
            name = m.group(1)
            line = text.count('\n', 0, m.start()) + 1
            target = os.path.normpath(os.path.join(here, name))
            where = '%s:%d' % (os.path.relpath(path, root), line)
            if os.path.exists(target):
                owner = stage_of(root, target)
                if owner == stage:
                    continue
                if owner and os.path.basename(target) in DOORS and \
                        DOORS[os.path.basename(target)] == owner and \
                        os.path.dirname(target) == os.path.join(root, owner):
                    continue
                errors.append('%s: includes "%s", private to %s/: include its door (%s)'
                              % (where, name, owner or 'outside the stages',
                                 ', '.join(k for k, v in DOORS.items() if v == owner) or '-'))
                continue
            # Not next to the file: a door found through the include path, or
            # a header bison generates next to its grammar.
            if name in DOORS:
                continue
            base = os.path.splitext(os.path.basename(name))[0]
            if os.path.exists(os.path.join(here, base + '.y')):
                continue
            errors.append('%s: includes "%s", which is neither in %s/ nor a stage door'
                          % (where, name, stage))
    return errors


def call_cycle_errors(root, build):
    """Cycles of the file-level call graph that cross stages."""
    defs, uses = {}, {}
    objs = []
    for stage in STAGES:
        for d, _, files in os.walk(os.path.join(build, stage)):
            for f in sorted(files):
                if f.endswith('.os'):
                    objs.append((stage, os.path.join(d, f)))
    if not objs:
        return ['%s: no objects to read (build first)' % build]
    for stage, obj in objs:
        out = subprocess.run(['nm', '--defined-only', '-g', obj], capture_output=True,
                             text=True).stdout
        for ln in out.splitlines():
            parts = ln.split()
            if len(parts) == 3 and parts[1] in 'TDRB':
                defs[parts[2]] = obj
        out = subprocess.run(['nm', '-u', obj], capture_output=True, text=True).stdout
        uses[obj] = {ln.split()[-1] for ln in out.splitlines() if ln.strip()}
    stage_by_obj = dict((o, s) for s, o in objs)
    edges = {o: sorted({defs[s] for s in uses[o] if s in defs and defs[s] != o})
             for _, o in objs}
    # Tarjan's strongly connected components, iteratively.
    index, low, on, stack, sccs, counter = {}, {}, set(), [], [], [0]
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter[0]
                counter[0] += 1
                stack.append(v)
                on.add(v)
            recurse = False
            for j in range(i, len(edges[v])):
                w = edges[v][j]
                if w not in index:
                    work.append((v, j + 1))
                    work.append((w, 0))
                    recurse = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if recurse:
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                sccs.append(comp)
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
    errors = []
    for comp in sccs:
        stages = {stage_by_obj[o] for o in comp}
        if len(comp) > 1 and len(stages) > 1:
            names = sorted(os.path.relpath(o, build)[:-3] + '.c' for o in comp)
            errors.append('files of different stages call each other in a circle: ' +
                          ', '.join(names))
    return errors


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else '.')
    errors = include_errors(root)
    if len(argv) > 2:
        errors += call_cycle_errors(root, os.path.abspath(argv[2]))
    for e in errors:
        print('layering: ' + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
