#!/usr/bin/env python3
"""Our Gen9 kernels next to Mesa brw's, sample by sample (issue 13, item 1).

For every sample in ../shared/bench/brw-samples.tsv and every SIMD width the
driver keeps (column `kept`), compiles the sample with `shadertrans
--simd=N` and reads our shader-db statistics line; prints our instructions,
estimated cycles, spills and sends next to brw's, the ratios, and the median
ratio per dialect and width.  Run on demand, never as a timed test:

    python3 tests/bench/gen_vs_brw.py [--bin build/shadertrans] [--markdown]
    python3 tests/bench/gen_vs_brw.py --time OLD_BIN [--callgrind]  # compile cost, side by side
    python3 tests/bench/gen_vs_brw.py --before OLD_BIN [--markdown] # before -> after per kernel

Both cycle figures come from the same kind of static model (ours:
emit/gen/perf.c, after Mesa's brw_ir_performance.cpp with its Gen9
parameters; loops count ten iterations), not from a measurement.
--time compiles the whole sample set with both binaries, alternating,
REPEAT times, and prints the ratio of the summed user+system times of
the processes (whole-process compile time, auto width, default output);
with --callgrind, the instructions each process executes instead
(valgrind; independent of the machine's load).

A Direct3D 9 sample is compiled for the textures its inputs
(samples/NAME.in.json) bind, `--texture-types` (what a driver does; brw
compiled MojoShader's GLSL, which takes ps_1_x's undeclared stages as 2D
and the texm3x3 ones as cube, the types those inputs bind).  Without the
types a ps_1_x stage also sends the third coordinate any texture type
would need.  --any-textures leaves them out (and runs binaries that
predate the option).
"""
import json
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STATS = re.compile(r'SIMD(\d+) shader: (\d+) instructions\. (\d+) loops\. (\d+) cycles\. '
                   r'(\d+):(\d+) spills:fills, (\d+) sends')


def read_brw(path):
    rows = []
    with open(path) as f:
        head = f.readline().rstrip('\n').split('\t')
        for line in f:
            r = dict(zip(head, line.rstrip('\n').split('\t')))
            if r.get('kept') == 'yes':
                rows.append(r)
    return rows


def texture_types(sample):
    """--texture-types=... from the sample's inputs ('' for ARB or none)."""
    if dialect(sample) != 'd3d9':
        return ''
    path = os.path.join(ROOT, re.sub(r'\.asm$', '', sample) + '.in.json')
    if not os.path.exists(path):
        return ''
    with open(path) as f:
        tex = json.load(f).get('textures', {})
    stages = {int(k[1:]): v.get('type', 'any') for k, v in tex.items() if re.fullmatch(r's\d+', k)}
    if not stages:
        return ''
    return '--texture-types=' + ','.join(stages.get(s, 'any') for s in range(max(stages) + 1))


ANY_TEXTURES = False


def ours(binary, sample, simd):
    tt = '' if ANY_TEXTURES else texture_types(sample)
    p = subprocess.run([binary, '--simd=%d' % simd] + ([tt] if tt else []) +
                       [os.path.join(ROOT, sample)], capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip().splitlines()[:1]
    for line in p.stdout.splitlines():
        m = STATS.search(line)
        if m and int(m.group(1)) == simd:
            g = [int(x) for x in m.groups()]
            return {'insts': g[1], 'loops': g[2], 'cycles': g[3], 'spills': g[4],
                    'fills': g[5], 'sends': g[6]}, None
    return None, ['no SIMD%d statistics line' % simd]


def dialect(sample):
    return 'arb' if '/arb/' in sample else 'd3d9'


def ratio(a, b):
    return a / b if b else float('inf')


def compare(args):
    rows = read_brw(args.brw)
    table, fails = [], []
    for r in rows:
        simd = int(r['simd'])
        o, err = ours(args.bin, r['sample'], simd)
        if o is None:
            fails.append('%s SIMD%d: %s' % (r['sample'], simd, err))
            continue
        b = {'insts': int(r['instructions']), 'cycles': int(r['cycles']),
             'spills': int(r['spills']), 'sends': int(r['sends'])}
        table.append((r['sample'], simd, o, b))
    md = args.markdown
    if md:
        print('| sample | SIMD | instructions ours / brw | ratio | cycles ours / brw | ratio '
              '| spills ours / brw | sends ours / brw |')
        print('|---|---|---|---|---|---|---|---|')
    else:
        print('%-44s %4s %13s %6s %13s %6s %9s %9s' % ('sample', 'SIMD', 'insts us/brw', 'ratio',
                                                       'cycles us/brw', 'ratio', 'spills', 'sends'))
    for s, simd, o, b in table:
        ri, rc = ratio(o['insts'], b['insts']), ratio(o['cycles'], b['cycles'])
        name = s.replace('samples/', '')
        if md:
            print('| %s | %d | %d / %d | %.2f | %d / %d | %.2f | %d / %d | %d / %d |' % (
                name, simd, o['insts'], b['insts'], ri, o['cycles'], b['cycles'], rc,
                o['spills'], b['spills'], o['sends'], b['sends']))
        else:
            print('%-44s %4d %6d/%-6d %6.2f %6d/%-6d %6.2f %4d/%-4d %4d/%-4d' % (
                name, simd, o['insts'], b['insts'], ri, o['cycles'], b['cycles'], rc,
                o['spills'], b['spills'], o['sends'], b['sends']))
    print()
    if md:
        print('| dialect | SIMD | kernels | median instruction ratio | median cycle ratio '
              '| above 1.10x (instructions) | spills where brw has none |')
        print('|---|---|---|---|---|---|---|')
    for d in ('d3d9', 'arb'):
        for simd in (8, 16, 32):
            sel = [(o, b) for s, w, o, b in table if dialect(s) == d and w == simd]
            if not sel:
                continue
            mi = statistics.median(ratio(o['insts'], b['insts']) for o, b in sel)
            mc = statistics.median(ratio(o['cycles'], b['cycles']) for o, b in sel)
            over = sum(1 for o, b in sel if ratio(o['insts'], b['insts']) > 1.10)
            spill = sum(1 for o, b in sel if o['spills'] and not b['spills'])
            if md:
                print('| %s | %d | %d | %.3f | %.2f | %d | %d |' % (d, simd, len(sel), mi, mc, over,
                                                                   spill))
            else:
                # three places: issue 13's bound is 0.95, which 0.952 does not meet
                print('%-5s SIMD%-2d %2d kernels: median ratio instructions %.3f, cycles %.2f; '
                      '%d above 1.10x, %d spill where brw does not' % (d, simd, len(sel), mi, mc,
                                                                       over, spill))
    for f in fails:
        print('FAILED:', f, file=sys.stderr)
    return 1 if fails else 0


def run_timed(binary, files):
    """user+system seconds of one process per file (children's rusage)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for f in files:
        subprocess.run([binary, f], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def callgrind_count(binary, f):
    """Instructions executed by one compile (valgrind callgrind, load-independent)."""
    p = subprocess.run(['valgrind', '--tool=callgrind', '--callgrind-out-file=/dev/null', binary, f],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    m = re.search(r'Collected : (\d+)', p.stderr)
    return int(m.group(1)) if m else 0


def before_after(args):
    """Every kernel of the table compiled by OLD_BIN and by the new binary."""
    rows = read_brw(args.brw)
    md = args.markdown
    if md:
        print('| sample | SIMD | instructions | cycles | spills:fills | sends | brw instructions |')
        print('|---|---|---|---|---|---|---|')
    else:
        print('%-44s %4s %13s %15s %13s %9s %5s' % ('sample', 'SIMD', 'insts', 'cycles', 'spills:fills',
                                                   'sends', 'brw'))
    tot = [0, 0, 0, 0]
    for r in rows:
        simd = int(r['simd'])
        o, _ = ours(args.before, r['sample'], simd)
        n, _ = ours(args.bin, r['sample'], simd)
        if not o or not n:
            print('FAILED:', r['sample'], simd, file=sys.stderr)
            continue
        tot[0] += o['insts']
        tot[1] += n['insts']
        tot[2] += o['cycles']
        tot[3] += n['cycles']
        name = r['sample'].replace('samples/', '')
        cells = ('%d -> %d' % (o['insts'], n['insts']), '%d -> %d' % (o['cycles'], n['cycles']),
                 '%d:%d -> %d:%d' % (o['spills'], o['fills'], n['spills'], n['fills']),
                 '%d -> %d' % (o['sends'], n['sends']))
        if md:
            print('| %s | %d | %s | %s | %s | %s | %s |' % ((name, simd) + cells + (r['instructions'],)))
        else:
            print('%-44s %4d %13s %15s %13s %9s %5s' % ((name, simd) + cells + (r['instructions'],)))
    print('%sall kernels: instructions %d -> %d, cycles %d -> %d' % ('\n' if md else '', tot[0], tot[1],
                                                                  tot[2], tot[3]))
    return 0


def timing(args):
    d = os.path.join(ROOT, 'samples')
    files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith('.asm'))
    a = os.path.join(d, 'arb')
    files += sorted(os.path.join(a, f) for f in os.listdir(a) if f.endswith(('.vp', '.fp')))
    if args.callgrind:
        old_n = sum(callgrind_count(args.time, f) for f in files)
        new_n = sum(callgrind_count(args.bin, f) for f in files)
        print('%d files, instructions executed (callgrind)' % len(files))
        print('  old %-40s %d' % (args.time, old_n))
        print('  new %-40s %d' % (args.bin, new_n))
        print('  ratio new/old: %.3f' % (new_n / old_n if old_n else float('inf')))
        return 0
    new_t, old_t = [], []
    for _ in range(args.repeat):
        old_t.append(run_timed(args.time, files))
        new_t.append(run_timed(args.bin, files))
    print('%d files, %d rounds alternating; user+system seconds per round' % (len(files),
                                                                              args.repeat))
    print('  old %-40s median %.3f  (%s)' % (args.time, statistics.median(old_t),
                                           ' '.join('%.3f' % t for t in old_t)))
    print('  new %-40s median %.3f  (%s)' % (args.bin, statistics.median(new_t),
                                           ' '.join('%.3f' % t for t in new_t)))
    print('  ratio new/old (medians): %.3f' % (statistics.median(new_t) / statistics.median(old_t)))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--bin', default=os.path.join(ROOT, 'build', 'shadertrans'))
    ap.add_argument('--brw', default=os.path.join(ROOT, '..', 'shared', 'bench', 'brw-samples.tsv'))
    ap.add_argument('--markdown', action='store_true', help='tables for docs/gen-backend.md')
    ap.add_argument('--time', metavar='OLD_BIN', help='compile-time ratio against another binary')
    ap.add_argument('--repeat', type=int, default=5)
    ap.add_argument('--before', metavar='OLD_BIN', help='before -> after, kernel by kernel')
    ap.add_argument('--callgrind', action='store_true',
                    help='with --time: count instructions with valgrind instead of timing')
    ap.add_argument('--any-textures', action='store_true',
                    help='compile D3D9 samples without the texture types their inputs bind')
    args = ap.parse_args()
    global ANY_TEXTURES
    ANY_TEXTURES = args.any_textures
    if args.before:
        return before_after(args)
    return timing(args) if args.time else compare(args)


if __name__ == '__main__':
    sys.exit(main())
