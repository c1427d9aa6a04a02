#!/usr/bin/env python3
"""Compile work as the shader grows (issue 14, item 2): run on demand.

Generates Direct3D 9 pixel shaders of 200, 2,000 and 20,000 instructions in
three shapes and compiles each to a SIMD8 Gen9 kernel under callgrind,
which counts the instructions the compiler executes (independent of the
machine's load).  Prints, per shader, the instructions executed in all and
per stage (parsing and checks; lowering to LLVM IR and the LLVM pipeline;
the vector IR; instruction selection; the Gen clean-ups, optimizer and
schedulers; register allocation; the IGA printer), the kernel's size and
spills, and each one's ratio to the shader ten times smaller.  The goal: 10x the
instructions costs at most 12x the work.

    python3 tests/bench/compile_cost.py [--bin build/shadertrans] [--sizes 200,2000,20000]
                                        [--shapes low,high,loops]
                                        [--markdown] [--big N] [--keep DIR]

Shapes (all ps_3_0, eight interpolated inputs read throughout):
  low    four vec4 temporaries, each instruction mad r_a = r_a * v_k + r_(a-1)
  high   the same over 32 vec4 temporaries (all of ps_3_0's r#), each live
         from its first write to the final sum: 128 GRFs of temporaries at
         SIMD8, the whole file, and the payload's setup data besides: the
         allocator must spill (the spills:fills column shows it).  24, the
         issue's figure, fits: 96 GRFs of temporaries and ~29 of payload,
         each interpolant recomputed (pln) from the setup data at its use
  loops  eight temporaries, the instructions in `rep` loops of 12

--big N also compiles a low-pressure shader of N instructions (64000 for
the issue's goal: under 2 s and 300 MB) natively, to Gen and to vasm, and
prints wall time and peak memory (these depend on the machine's load:
run it on an idle machine).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STATS = re.compile(r'SIMD(\d+) shader: (\d+) instructions\. (\d+) loops\. (\d+) cycles\. '
                   r'(\d+):(\d+) spills:fills, (\d+) sends')

# stage: functions whose inclusive counts make it up (callgrind names)
# (a width that spills is built up to three times, see gen/compile.c)
STAGES = [
    ('front', ['st_front_end']),
    ('llvm', ['st_lower_llvm_ex', 'st_llvm_pipeline_for']),
    ('merge', ['st_merge']),
    ('isel', ['gen_isel']),
    ('opt', ['gen_cleanup', 'gen_sink', 'gen_optimize', 'gen_opt_remat', 'gen_opt_dce',
             'gen_schedule_pre', 'gen_schedule_post', 'gen_resolve_flow']),
    ('ra', ['gen_dce', 'gen_allocate']),
    ('print', ['gen_print']),
]


def shader(n, live, loops):
    """A ps_3_0 shader of n instructions (dcl/def excluded) over `live` vec4 temporaries."""
    out = ['ps_3_0']
    for k in range(8):
        out.append('dcl_texcoord%d v%d' % (k, k))
    if loops:
        out.append('defi i0, 4, 0, 0, 0')
    body = []
    for t in range(live):
        body.append('mad r%d, v%d, c%d, v%d' % (t, t % 8, t % 16, (t + 3) % 8))
    # the final sum and the output take live instructions
    rem = n - 2 * live
    k = 0

    def rmw():
        # a chain through every temporary: all of them stay alive
        nonlocal k
        a, b = k % live, (k - 1) % live
        k += 1
        return 'mad r%d, r%d, v%d, r%d' % (a, a, k % 8, b)

    while rem > 0:
        if loops and rem >= 14:
            body.append('rep i0')
            body.extend(rmw() for _ in range(12))
            body.append('endrep')
            rem -= 14
        else:
            body.append(rmw())
            rem -= 1
    for t in range(1, live):
        body.append('add r0, r0, r%d' % t)
    body.append('mov oC0, r0')
    return '\n'.join(out + body) + '\n'


SHAPES = [('low', 4, False), ('high', 32, False), ('loops', 8, True)]


def callgrind(binary, path, tmp):
    cg = os.path.join(tmp, 'cg.out')
    p = subprocess.run(['valgrind', '--tool=callgrind', '--callgrind-out-file=' + cg, binary,
                        '--simd=8', path], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit('compile failed: %s\n%s' % (path, p.stderr[-2000:]))
    stats = None
    for line in p.stdout.splitlines():
        m = STATS.search(line)
        if m:
            stats = [int(x) for x in m.groups()]
    a = subprocess.run(['callgrind_annotate', '--inclusive=yes', '--threshold=100', cg],
                       capture_output=True, text=True).stdout
    total = 0
    incl = {}
    for line in a.splitlines():
        m = re.match(r'\s*([\d,]+) .*PROGRAM TOTALS', line)
        if m:
            total = int(m.group(1).replace(',', ''))
            continue
        m = re.match(r'\s*([\d,]+) \([^)]*\)\s+\S*:(\w+)(?:\.\w+)*(?: |$)', line)
        if m:
            name = m.group(2)
            incl[name] = max(incl.get(name, 0), int(m.group(1).replace(',', '')))
    os.remove(cg)
    parts = {s: sum(incl.get(f, 0) for f in fs) for s, fs in STAGES}
    return total, parts, stats


def fmt(n):
    return '%.1fM' % (n / 1e6) if n < 1e9 else '%.2fG' % (n / 1e9)


def ratio(now, before):
    return '%.1fx' % (now / before) if before else ''


def native(binary, path, emit):
    t0 = time.time()
    p = subprocess.run(['/usr/bin/time', '-f', '%M', binary, '--emit=' + emit, '--simd=8',
                        path, '-o', os.devnull], capture_output=True, text=True)
    dt = time.time() - t0
    if p.returncode != 0:
        return dt, None, p.stderr.strip().splitlines()[-1:]
    kb = int(p.stderr.strip().splitlines()[-1])
    return dt, kb, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default=os.path.join(ROOT, 'build', 'shadertrans'))
    ap.add_argument('--sizes', default='200,2000,20000')
    ap.add_argument('--markdown', action='store_true')
    ap.add_argument('--shapes', default=','.join(s[0] for s in SHAPES))
    ap.add_argument('--big', type=int, default=0)
    ap.add_argument('--keep', help='write the generated shaders here')
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(',')]
    tmp = args.keep or tempfile.mkdtemp(prefix='st-bench-')
    os.makedirs(tmp, exist_ok=True)
    # every stage with its ratio to the shader ten times smaller
    head = ['shader', 'kernel', 'spills:fills', 'total', 'ratio']
    for stage, _ in STAGES:
        head += [stage, 'ratio']
    rows = []
    for name, live, loops in SHAPES:
        if name not in args.shapes.split(','):
            continue
        prev = None
        for n in sizes:
            path = os.path.join(tmp, '%s-%d.ps.asm' % (name, n))
            with open(path, 'w') as f:
                f.write(shader(n, live, loops))
            total, parts, st = callgrind(args.bin, path, tmp)
            row = ['%s %d' % (name, n), '%d inst' % st[1], '%d:%d' % (st[4], st[5]),
                   fmt(total), ratio(total, prev[0] if prev else 0)]
            for stage, _ in STAGES:
                row += [fmt(parts[stage]), ratio(parts[stage], prev[1][stage] if prev else 0)]
            rows.append(row)
            prev = (total, parts)
            if not args.markdown:
                print('  '.join(rows[-1]), flush=True)
    if args.markdown:
        print('| ' + ' | '.join(head) + ' |')
        print('|' + '---|' * len(head))
        for r in rows:
            print('| ' + ' | '.join(r) + ' |')
    if args.big:
        path = os.path.join(tmp, 'low-%d.ps.asm' % args.big)
        with open(path, 'w') as f:
            f.write(shader(args.big, 4, False))
        for emit in ('gen', 'vasm', 'llvm'):
            dt, kb, err = native(args.bin, path, emit)
            if err:
                print('low %d --emit=%s: failed after %.1f s: %s' % (args.big, emit, dt, err[0]))
            else:
                print('low %d --emit=%s: %.2f s, %.0f MB' % (args.big, emit, dt, kb / 1024))
    if not args.keep:
        for f in os.listdir(tmp):
            os.remove(os.path.join(tmp, f))
        os.rmdir(tmp)


if __name__ == '__main__':
    main()
