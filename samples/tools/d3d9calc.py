#!/usr/bin/env python3
"""d3d9calc: a float32 calculator used to work out the samples' golden outputs.

This is a checking tool, not part of shadertrans or of its build.  It was
written from the Direct3D 9 "Asm Shader Reference" instruction descriptions
(see samples/README.md, "How the goldens were computed") independently of
shadertrans' own interpreter, and it only knows what the samples in this
folder use.  Every arithmetic step is rounded to IEEE float32 with
struct-packing, so a result equals what a float32 machine that evaluates the
documented formula left to right (no fused multiply-add) would produce.

It is deliberately strict: reading a temp lane that was never written,
reading an input register the inputs file does not give for a shader that
declares nothing else, a co-issued pair whose result depends on execution
order, or an output left partly written are all errors, so that the goldens
never depend on a default the samples did not intend.

With --pp=fp16 it computes the partial-precision instructions as a machine
with half-float registers does (docs/interpreter.md, "Partial precision"):
an instruction marked _pp reads its sources rounded to IEEE half and rounds
every arithmetic step (each sum, product, quotient, square root, function
value) to half, texld_pp rounds the texel but not the coordinates, and an
input declared dcl_pp is rounded to half where it is read.  The rounding is
Python's own binary16 packing (struct format 'e'), not shadertrans' code.

Usage:  d3d9calc.py [--pp=fp16] shader.asm inputs.in.json  -> outputs JSON on stdout
"""

import json
import math
import re
import struct
import sys

FLT_MAX = 3.4028234663852886e38


def f32(x):
    """Round a Python float to the nearest float32 (ties to even)."""
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack('<f', struct.pack('<f', x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def h16(x):
    """Round a Python float to the nearest IEEE half (ties to even); past
    65504 to infinity, below 2^-14 to the denormals' steps of 2^-24."""
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack('<e', struct.pack('<e', x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


# The rounding of one arithmetic step: float32, or half while a _pp
# instruction runs under --pp=fp16 (Run.execute switches it).
ROUND = [f32]


def rnd(x):
    return ROUND[0](x)


def fadd(a, b):
    return rnd(a + b)


def fmul(a, b):
    # 0 * inf is NaN under IEEE rules; Python raises nothing here.
    return rnd(a * b)


def fdiv(a, b):
    if b == 0.0:
        if a == 0.0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * (1.0 if math.copysign(1.0, b) > 0 else -1.0)
    return rnd(a / b)


def fsat(a):
    if math.isnan(a):
        return 0.0
    return min(max(a, 0.0), 1.0)


def dot(a, b, n):
    s = fmul(a[0], b[0])
    for i in range(1, n):
        s = fadd(s, fmul(a[i], b[i]))
    return s


class CalcError(Exception):
    pass


class Discard(Exception):
    pass


SWZ = {'x': 0, 'y': 1, 'z': 2, 'w': 3, 'r': 0, 'g': 1, 'b': 2, 'a': 3}


def parse_swizzle(text):
    lanes = [SWZ[ch] for ch in text]
    while len(lanes) < 4:
        lanes.append(lanes[-1])
    return lanes


def parse_mask(text):
    m = 0
    for ch in text:
        m |= 1 << SWZ[ch]
    return m


REG_RE = re.compile(
    r'^(?P<name>oPos|oFog|oPts|oDepth|oD|oT|oC|vPos|vFace|aL|a|r|v|c|t|o|i|b|s|l|p)'
    r'(?P<idx>\d+)?'
    r'(?:\[(?P<rel>[^\]]*)\])?'
    r'(?P<mods>(?:_(?:bias|bx2|x2|dz|db|dw|da|abs))*)'
    r'(?:\.(?P<swz>[xyzwrgba]{1,4}))?$')


class Operand:
    def __init__(self, text, is_dst):
        self.text = text
        t = text.strip()
        self.neg = False
        self.comp = False
        self.not_ = False
        if t.startswith('!'):
            self.not_ = True
            t = t[1:].strip()
        m = re.match(r'^1\s*-\s*(.*)$', t)
        if m and not is_dst:
            self.comp = True
            t = m.group(1)
        if t.startswith('-'):
            self.neg = True
            t = t[1:].strip()
        m = REG_RE.match(t.replace(' ', ''))
        if not m:
            raise CalcError('cannot parse operand %r' % text)
        self.name = m.group('name')
        self.idx = int(m.group('idx')) if m.group('idx') else 0
        self.rel = None
        if m.group('rel') is not None:
            rel = m.group('rel').replace(' ', '')
            base = 0
            regpart = None
            for part in rel.split('+'):
                if re.match(r'^\d+$', part):
                    base += int(part)
                else:
                    regpart = part
            self.idx += base
            if regpart == 'aL':
                self.rel = ('aL', 0)
            else:
                mm = re.match(r'^a0\.([xyzw])$', regpart)
                if not mm:
                    raise CalcError('bad relative address %r' % text)
                self.rel = ('a0', SWZ[mm.group(1)])
        self.mods = [x for x in m.group('mods').split('_') if x]
        swz = m.group('swz')
        if is_dst:
            self.mask = parse_mask(swz) if swz else 0xf
            self.swz = [0, 1, 2, 3]
        else:
            self.swz_text = swz or ''
            self.swz = parse_swizzle(swz) if swz else [0, 1, 2, 3]
            self.mask = 0xf


class Instr:
    def __init__(self, line, lineno):
        self.lineno = lineno
        self.text = line
        self.coissue = False
        self.pred = None
        t = line.strip()
        if t.startswith('+'):
            self.coissue = True
            t = t[1:].strip()
        m = re.match(r'^\((!?)p0(?:\.([xyzw]+))?\)\s*(.*)$', t)
        if m:
            self.pred = (m.group(1) == '!', parse_swizzle(m.group(2)) if m.group(2) else [0, 1, 2, 3])
            t = m.group(3)
        parts = t.split(None, 1)
        word = parts[0]
        rest = parts[1] if len(parts) > 1 else ''
        self.word = word
        pieces = word.split('_')
        self.op = pieces[0]
        self.sat = self.pp = self.centroid = False
        self.shift = 0
        self.cmp = None
        self.dcl_usage = None
        self.dcl_kind = None
        if self.op == 'dcl':
            self.dcl_usage = '_'.join(pieces[1:])
        else:
            for p in pieces[1:]:
                if p == 'sat':
                    self.sat = True
                elif p == 'pp':
                    self.pp = True
                elif p == 'centroid':
                    self.centroid = True
                elif p in ('x2', 'x4', 'x8', 'd2', 'd4', 'd8'):
                    self.shift = {'x2': 2.0, 'x4': 4.0, 'x8': 8.0, 'd2': 0.5, 'd4': 0.25, 'd8': 0.125}[p]
                elif p in ('gt', 'lt', 'ge', 'le', 'eq', 'ne'):
                    self.cmp = p
                else:
                    raise CalcError('line %d: unknown modifier _%s' % (lineno, p))
        self.args = [a.strip() for a in rest.split(',')] if rest.strip() else []


def compare(cmp, a, b):
    return {'gt': a > b, 'lt': a < b, 'ge': a >= b, 'le': a <= b, 'eq': a == b, 'ne': a != b}[cmp]


CUBE_FACES = ['+x', '-x', '+y', '-y', '+z', '-z']


def sample(tex, coord):
    """Point sampling of level 0 at texel centres (the samples only address
    texel centres, where point and bilinear filtering agree)."""
    if tex is None:
        raise CalcError('sampling a texture the inputs do not give')
    kind = tex['type']
    w, h = tex['width'], tex['height']
    texels = tex['texels']

    def idx(u, n):
        i = int(math.floor(u * n))
        return i % n            # wrap addressing, the D3D default

    if kind == '2d':
        x, y = idx(coord[0], w), idx(coord[1], h)
        return [f32(c) for c in texels[y * w + x]]
    if kind == 'volume':
        d = tex['depth']
        x, y, z = idx(coord[0], w), idx(coord[1], h), idx(coord[2], d)
        return [f32(c) for c in texels[(z * h + y) * w + x]]
    if kind == 'cube':
        if w != 1 or h != 1:
            raise CalcError('the calculator only knows 1x1 cube faces')
        a = [abs(c) for c in coord[:3]]
        axis = a.index(max(a))
        if sorted(a)[1] == max(a):
            raise CalcError('cube lookup on a face edge: %r' % (coord,))
        face = axis * 2 + (0 if coord[axis] > 0 else 1)
        return [f32(c) for c in texels[face]]
    raise CalcError('unknown texture type %r' % kind)


class Shader:
    def __init__(self, text, pp_half=False):
        self.pp_half = pp_half
        self.pp_inputs = {}     # 't0' -> lanes declared dcl_pp (under --pp=fp16)
        self.instrs = []
        self.version = None
        lines = text.split('\n')
        for n, raw in enumerate(lines, 1):
            line = raw.split('//')[0].split(';')[0].strip()
            if not line:
                continue
            if self.version is None:
                m = re.match(r'^(vs|ps)[._](\d)[._](\d|x)$', line)
                if not m:
                    raise CalcError('no version line')
                self.stage = m.group(1)
                self.major = int(m.group(2))
                self.minor = 1 if m.group(3) == 'x' else int(m.group(3))
                self.version = (self.major, self.minor)
                continue
            self.instrs.append(Instr(line, n))
        self.match_flow()
        self.defs = {}
        self.samplers = {}
        self.decls = []
        for ins in self.instrs:
            if ins.op == 'def':
                self.defs[('c', int(ins.args[0][1:]))] = [f32(float(x.rstrip('f'))) for x in ins.args[1:5]]
            elif ins.op == 'defi':
                self.defs[('i', int(ins.args[0][1:]))] = [int(x) for x in ins.args[1:5]]
            elif ins.op == 'defb':
                self.defs[('b', int(ins.args[0][1:]))] = ins.args[1].lower() == 'true'
            elif ins.op == 'dcl':
                if ins.args[0].startswith('s'):
                    self.samplers[int(ins.args[0][1:])] = ins.dcl_usage
                usage = ins.dcl_usage.split('_')
                if self.pp_half and 'pp' in usage and ins.args[0][0] in 'vt':
                    reg, _, mask = ins.args[0].partition('.')
                    self.pp_inputs[reg] = [SWZ[ch] for ch in mask] if mask else [0, 1, 2, 3]
                self.decls.append(ins)

    def match_flow(self):
        stack = []
        self.partner = {}
        self.labels = {}
        for pc, ins in enumerate(self.instrs):
            op = ins.op
            if op in ('if', 'rep', 'loop'):
                stack.append(pc)
            elif op == 'else':
                self.partner[stack[-1]] = pc
                stack[-1] = pc
            elif op in ('endif', 'endrep', 'endloop'):
                start = stack.pop()
                self.partner[start] = pc
                self.partner[pc] = start
            elif op == 'label':
                self.labels[ins.args[0]] = pc
        # else -> endif; if -> else (or endif); loops -> end and back.
        if stack:
            raise CalcError('unbalanced flow control')


class Run:
    """One invocation.  `quad` gives the inputs of the 2x2 quad (dsx/dsy)."""

    def __init__(self, sh, inputs, inv, quad, quad_pos):
        self.sh = sh
        self.inputs = inputs
        self.inv = inv
        self.quad = quad
        self.quad_pos = quad_pos
        self.regs = {}
        self.init = {}          # temp lanes written so far
        self.outputs = {}
        self.out_mask = {}
        self.tex_regs = {}      # ps_1_1..1_3 t# values written by texture ops
        self.addr = [0, 0, 0, 0]
        self.aL = None
        self.pred = [False] * 4
        self.ps1 = sh.stage == 'ps' and sh.major == 1
        self.address = False    # reading texture coordinates (never rounded)

    # ---------------------------------------------------------------- reads
    def input_vec(self, key, inv=None):
        inv = self.inv if inv is None else inv
        if key in inv:
            vec = [f32(x) if not isinstance(x, str) else {'nan': math.nan, 'inf': math.inf, '-inf': -math.inf}[x]
                   for x in (list(inv[key]) + [0, 0, 0, 1][len(inv[key]):])]
        else:
            vec = [0.0, 0.0, 0.0, 1.0]
        for lane in self.sh.pp_inputs.get(key, []):
            vec[lane] = h16(vec[lane])   # dcl_pp
        return vec

    def const(self, idx):
        if ('c', idx) in self.sh.defs:
            return list(self.sh.defs[('c', idx)])
        v = self.inputs.get('constants', {}).get('c%d' % idx)
        if v is None:
            return [0.0, 0.0, 0.0, 0.0]
        return [f32(x) for x in v]

    def reg_index(self, op):
        idx = op.idx
        if op.rel:
            if op.rel[0] == 'aL':
                if self.aL is None:
                    raise CalcError('aL used outside a loop')
                idx += self.aL
            else:
                idx += self.addr[op.rel[1]]
        return idx

    def raw(self, op, lanes_needed):
        name = op.name
        idx = self.reg_index(op)
        if name == 'r':
            vec = self.regs.get(('r', idx), [0.0] * 4)
            have = self.init.get(idx, 0)
            for lane in lanes_needed:
                if not have & (1 << lane):
                    raise CalcError('reads r%d.%s before writing it' % (idx, 'xyzw'[lane]))
            return list(vec)
        if name == 'c':
            return self.const(idx)
        if name == 'v':
            return self.input_vec('v%d' % idx)
        if name == 't':
            if self.ps1 and self.sh.minor <= 3:
                if idx not in self.tex_regs:
                    raise CalcError('t%d read before a texture instruction wrote it' % idx)
                return list(self.tex_regs[idx])
            return self.input_vec('t%d' % idx)
        if name == 'vPos':
            return self.input_vec('vPos')
        if name == 'vFace':
            return self.input_vec('vFace')
        raise CalcError('cannot read %s' % op.text)

    def src(self, op, lanes=(0, 1, 2, 3), ps1_tex=False):
        needed = sorted(set(op.swz[l] for l in lanes))
        vec = self.raw(op, needed)
        vec = [vec[op.swz[l]] for l in range(4)]
        for m in op.mods:
            if m == 'bias':
                vec = [fadd(x, -0.5) for x in vec]
            elif m == 'bx2':
                vec = [fadd(fmul(x, 2.0), -1.0) for x in vec]
            elif m == 'x2':
                vec = [fmul(x, 2.0) for x in vec]
            elif m == 'abs':
                vec = [abs(x) for x in vec]
            elif m in ('dz', 'db', 'dw', 'da'):
                pass            # handled by the texture instructions
        if op.comp:
            vec = [fadd(1.0, -x) for x in vec]
        if op.neg:
            vec = [-x for x in vec]
        if ROUND[0] is h16 and not self.address:
            vec = [h16(x) for x in vec]     # a _pp instruction's source
        return vec

    # --------------------------------------------------------------- writes
    def write(self, ins, dst, vec, pending=None):
        if ins.shift:
            vec = [fmul(x, ins.shift) for x in vec]
        if ins.sat:
            vec = [fsat(x) for x in vec]
        vec = [rnd(x) if isinstance(x, float) else x for x in vec]
        mask = dst.mask
        if ins.pred:
            neg, swz = ins.pred
            for lane in range(4):
                p = self.pred[swz[lane]]
                if neg:
                    p = not p
                if not p:
                    mask &= ~(1 << lane)
        name = dst.name
        idx = self.reg_index(dst)
        if pending is not None:
            pending.append((ins, dst, name, idx, mask, vec))
            return
        self.commit(name, idx, mask, vec)

    def commit(self, name, idx, mask, vec):
        if self.ps1 and name == 'r':
            # ps_1_x registers have a limited range (at least [-1, 1], and
            # [-8, 8] for ps_1_4); the samples stay inside it so that no
            # implementation-defined clamp affects the goldens.
            lim = 8.0 if self.sh.minor == 4 else 1.0
            for lane in range(4):
                if mask & (1 << lane) and not (-lim <= vec[lane] <= lim):
                    raise CalcError('r%d.%s = %r leaves the ps_1_x range' % (idx, 'xyzw'[lane], vec[lane]))
        if name == 'r':
            cur = self.regs.setdefault(('r', idx), [0.0] * 4)
            for lane in range(4):
                if mask & (1 << lane):
                    cur[lane] = vec[lane]
            self.init[idx] = self.init.get(idx, 0) | mask
        elif name == 'a':
            for lane in range(4):
                if mask & (1 << lane):
                    v = vec[lane]
                    if v != math.floor(v):
                        raise CalcError('a0 gets a non-integer: rounding rule would matter')
                    self.addr[lane] = int(v)
        elif name == 'p':
            for lane in range(4):
                if mask & (1 << lane):
                    self.pred[lane] = vec[lane]
        elif name in ('oPos', 'oD', 'oT', 'o', 'oC', 'oFog', 'oPts', 'oDepth'):
            key = {'oPos': 'oPos', 'oFog': 'oFog', 'oPts': 'oPts', 'oDepth': 'oDepth'}.get(name, '%s%d' % (name, idx))
            cur = self.outputs.setdefault(key, [0.0] * 4)
            for lane in range(4):
                if mask & (1 << lane):
                    cur[lane] = vec[lane]
            self.out_mask[key] = self.out_mask.get(key, 0) | mask
        else:
            raise CalcError('cannot write %s%d' % (name, idx))

    # ------------------------------------------------------------- textures
    def texture(self, stage):
        return self.inputs.get('textures', {}).get('s%d' % stage)

    def bump(self, stage):
        # Bump-environment state of a stage; Direct3D's default is all 0.
        be = self.inputs.get('bump_env', {}).get('s%d' % stage, {})
        return {'matrix': [f32(x) for x in be.get('matrix', [0, 0, 0, 0])],
                'lscale': f32(be.get('lscale', 0)), 'loffset': f32(be.get('loffset', 0))}

    def coords(self, stage):
        return self.input_vec('t%d' % stage)

    # ------------------------------------------------------------ execution
    def run(self):
        sh = self.sh
        pc = 0
        loops = []          # (kind, start_pc, remaining, saved_aL, step)
        calls = []
        steps = 0
        n = len(sh.instrs)
        while pc < n:
            steps += 1
            if steps > 100000:
                raise CalcError('runaway program')
            ins = sh.instrs[pc]
            op = ins.op
            if op in ('def', 'defi', 'defb', 'dcl', 'nop', 'phase'):
                pc += 1
                continue
            if op == 'label':
                break                       # end of main: subroutines follow
            if op == 'ret':
                if not calls:
                    break
                pc = calls.pop()
                continue
            if op in ('call', 'callnz'):
                take = True
                if op == 'callnz':
                    take = self.flow_cond(ins.args[1])
                if take:
                    calls.append(pc + 1)
                    pc = sh.labels[ins.args[0]] + 1
                else:
                    pc += 1
                continue
            if op == 'if':
                if ins.cmp:
                    a = self.src(Operand(ins.args[0], False))[0]
                    b = self.src(Operand(ins.args[1], False))[0]
                    cond = compare(ins.cmp, a, b)
                else:
                    cond = self.flow_cond(ins.args[0])
                if cond:
                    pc += 1
                else:
                    pc = sh.partner[pc] + 1          # past else (or endif)
                continue
            if op == 'else':
                pc = sh.partner[pc] + 1              # true branch done: skip to endif
                continue
            if op == 'endif':
                pc += 1
                continue
            if op == 'rep':
                count = self.intconst(ins.args[0])[0]
                if count <= 0:
                    pc = sh.partner[pc] + 1
                else:
                    loops.append(['rep', pc, count, self.aL, 0])
                    pc += 1
                continue
            if op == 'loop':
                ic = self.intconst(ins.args[1])
                if ic[0] <= 0:
                    pc = sh.partner[pc] + 1
                else:
                    loops.append(['loop', pc, ic[0], self.aL, ic[2]])
                    self.aL = ic[1]
                    pc += 1
                continue
            if op in ('endrep', 'endloop'):
                top = loops[-1]
                top[2] -= 1
                if top[2] > 0:
                    if top[0] == 'loop':
                        self.aL += top[4]
                    pc = top[1] + 1
                else:
                    loops.pop()
                    self.aL = top[3]
                    pc += 1
                continue
            if op == 'break' or op == 'breakp':
                if op == 'break' and ins.cmp:
                    a = self.src(Operand(ins.args[0], False))[0]
                    b = self.src(Operand(ins.args[1], False))[0]
                    cond = compare(ins.cmp, a, b)
                elif op == 'breakp':
                    cond = self.flow_cond(ins.args[0])
                else:
                    cond = True
                if cond:
                    top = loops.pop()
                    self.aL = top[3]
                    pc = sh.partner[top[1]] + 1
                else:
                    pc += 1
                continue
            # an ordinary instruction, possibly the first of a co-issued pair
            if pc + 1 < n and sh.instrs[pc + 1].coissue:
                self.coissue(ins, sh.instrs[pc + 1])
                pc += 2
                continue
            self.execute(ins)
            pc += 1
        self.finish()

    def intconst(self, text):
        idx = int(text.strip()[1:])
        if ('i', idx) in self.sh.defs:
            return self.sh.defs[('i', idx)]
        return self.inputs.get('int_constants', {}).get('i%d' % idx, [0, 0, 0, 0])

    def flow_cond(self, text):
        o = Operand(text, False)
        if o.name == 'b':
            if ('b', o.idx) in self.sh.defs:
                v = self.sh.defs[('b', o.idx)]
            else:
                v = bool(self.inputs.get('bool_constants', {}).get('b%d' % o.idx, False))
        elif o.name == 'p':
            v = self.pred[o.swz[0]]
        else:
            raise CalcError('bad condition %r' % text)
        return (not v) if o.not_ else v

    def coissue(self, a, b):
        # Both halves read their sources before either writes (the hardware
        # runs them side by side).  Also check that in-order execution would
        # agree, so the golden does not depend on that choice.
        import copy
        snap = (copy.deepcopy(self.regs), dict(self.init))
        pending = []
        self.execute(a, pending)
        self.execute(b, pending)
        for (_, _, name, idx, mask, vec) in pending:
            self.commit(name, idx, mask, vec)
        par = copy.deepcopy(self.regs)
        self.regs, self.init = copy.deepcopy(snap[0]), dict(snap[1])
        self.execute(a)
        self.execute(b)
        if self.regs != par:
            raise CalcError('line %d: co-issued pair depends on execution order' % b.lineno)

    def execute(self, ins, pending=None):
        ROUND[0] = h16 if self.sh.pp_half and ins.pp else f32
        try:
            self.execute_op(ins, pending)
        finally:
            ROUND[0] = f32

    def execute_op(self, ins, pending=None):
        op = ins.op
        a = ins.args
        sh = self.sh
        if op == 'setp':
            dst = Operand(a[0], True)
            s0 = self.src(Operand(a[1], False))
            s1 = self.src(Operand(a[2], False))
            vec = [compare(ins.cmp, s0[i], s1[i]) for i in range(4)]
            for lane in range(4):
                if dst.mask & (1 << lane):
                    self.pred[lane] = vec[lane]
            return
        if op == 'texkill':
            o = Operand(a[0], True)
            if self.ps1 and sh.minor <= 3:
                vec = self.coords(o.idx)
            elif o.name == 'r':
                vec = self.raw(o, [0, 1, 2, 3])
            else:
                vec = self.input_vec('%s%d' % (o.name, o.idx))
            if any(x < 0 for x in vec[:3]):
                raise Discard()
            return
        if self.ps1 and sh.minor <= 3 and op.startswith('tex'):
            self.tex1x(ins)
            return
        if op in ('texld', 'texcrd') and self.ps1:
            self.tex14(ins)
            return
        if op == 'texdepth':
            r5 = self.raw(Operand(a[0], True), [0, 1])
            self.outputs['oDepth'] = [1.0 if r5[1] == 0 else fdiv(r5[0], r5[1]), 0.0, 0.0, 0.0]
            self.out_mask['oDepth'] = 1
            return
        dst = Operand(a[0], True)
        lanes = [l for l in range(4) if dst.mask & (1 << l)]
        srcs = [Operand(x, False) for x in a[1:]]

        def S(i, ln=None):
            return self.src(srcs[i], lanes if ln is None else ln)

        if op in ('texld', 'texldp', 'texldb', 'texldl', 'texldd'):
            # the coordinates are an address: full precision even under _pp
            # (write() rounds the texel)
            rounding = ROUND[0]
            ROUND[0] = f32
            self.address = True
            coord = S(0, [0, 1, 2, 3])
            stage = srcs[1].idx
            if op == 'texldp':
                coord = [fdiv(coord[0], coord[3]), fdiv(coord[1], coord[3]), fdiv(coord[2], coord[3]), coord[3]]
            vec = sample(self.texture(stage), coord)
            self.address = False
            ROUND[0] = rounding
            self.write(ins, dst, vec, pending)
            return
        if op == 'mov':
            vec = S(0)
        elif op == 'mova':
            vec = [float(math.floor(x + 0.5)) for x in S(0)]
            vec = [int(x) for x in vec]
            self.write(ins, dst, vec, pending)
            return
        elif op == 'add':
            s0, s1 = S(0), S(1)
            vec = [fadd(s0[i], s1[i]) for i in range(4)]
        elif op == 'sub':
            s0, s1 = S(0), S(1)
            vec = [fadd(s0[i], -s1[i]) for i in range(4)]
        elif op == 'mul':
            s0, s1 = S(0), S(1)
            vec = [fmul(s0[i], s1[i]) for i in range(4)]
        elif op == 'mad':
            s0, s1, s2 = S(0), S(1), S(2)
            vec = [fadd(fmul(s0[i], s1[i]), s2[i]) for i in range(4)]
        elif op == 'lrp':
            s0, s1, s2 = S(0), S(1), S(2)
            vec = [fadd(fmul(s0[i], fadd(s1[i], -s2[i])), s2[i]) for i in range(4)]
        elif op in ('dp3', 'dp4'):
            n = 3 if op == 'dp3' else 4
            s0, s1 = S(0, range(n)), S(1, range(n))
            vec = [dot(s0, s1, n)] * 4
        elif op == 'dp2add':
            s0, s1, s2 = S(0, [0, 1]), S(1, [0, 1]), S(2, [0])
            vec = [fadd(fadd(fmul(s0[0], s1[0]), fmul(s0[1], s1[1])), s2[0])] * 4
        elif op in ('min', 'max'):
            s0, s1 = S(0), S(1)
            if op == 'min':
                vec = [s0[i] if s0[i] < s1[i] else s1[i] for i in range(4)]
            else:
                vec = [s0[i] if s0[i] >= s1[i] else s1[i] for i in range(4)]
        elif op in ('slt', 'sge'):
            s0, s1 = S(0), S(1)
            vec = [1.0 if (s0[i] < s1[i]) == (op == 'slt') else 0.0 for i in range(4)]
        elif op == 'frc':
            vec = [rnd(x - math.floor(x)) for x in S(0)]
        elif op == 'abs':
            vec = [abs(x) for x in S(0)]
        elif op == 'sgn':
            vec = [1.0 if x > 0 else (-1.0 if x < 0 else 0.0) for x in S(0)]
        elif op == 'rcp':
            x = S(0, [0])[0]
            vec = [fdiv(1.0, x)] * 4
        elif op == 'rsq':
            x = abs(S(0, [0])[0])
            vec = [math.inf if x == 0 else rnd(1.0 / math.sqrt(x))] * 4
        elif op in ('exp', 'expp'):
            x = S(0, [0])[0]
            if x != math.floor(x) and op == 'expp':
                raise CalcError('expp of a non-integer: partial precision result')
            vec = [rnd(2.0 ** x)] * 4
        elif op in ('log', 'logp'):
            x = abs(S(0, [0])[0])
            r = -math.inf if x == 0 else math.log2(x)
            if op == 'logp' and r != math.floor(r):
                raise CalcError('logp of a non-power of two: partial precision result')
            vec = [rnd(r)] * 4
        elif op == 'pow':
            x = abs(S(0, [0])[0])
            y = S(1, [0])[0]
            # C99's pow: 0^0 = 1, 1^y = 1 (NaN included), 0^-y = +inf
            if x == 0 and y < 0:
                p = math.inf
            else:
                try:
                    p = math.pow(x, y)
                except OverflowError:
                    p = math.inf
            vec = [rnd(p)] * 4
        elif op == 'nrm':
            s0 = S(0, sorted(set(lanes) | {0, 1, 2}))
            d = dot(s0, s0, 3)
            f = math.inf if d == 0 else rnd(1.0 / math.sqrt(d))
            vec = [fmul(x, f) for x in s0]
        elif op == 'lit':
            s0 = S(0, [0, 1, 3])
            vec = [1.0, 0.0, 0.0, 1.0]
            if s0[0] > 0:
                vec[1] = s0[0]
                if s0[1] > 0:
                    p = min(max(s0[3], -128.0), 128.0)
                    vec[2] = f32(math.pow(s0[1], p))
        elif op == 'dst':
            s0, s1 = S(0, [1, 2]), S(1, [1, 3])
            vec = [1.0, fmul(s0[1], s1[1]), s0[2], s1[3]]
        elif op == 'crs':
            s0, s1 = S(0, [0, 1, 2]), S(1, [0, 1, 2])
            vec = [fadd(fmul(s0[1], s1[2]), -fmul(s0[2], s1[1])),
                   fadd(fmul(s0[2], s1[0]), -fmul(s0[0], s1[2])),
                   fadd(fmul(s0[0], s1[1]), -fmul(s0[1], s1[0])), 0.0]
        elif op == 'sincos':
            x = S(0, [0])[0]
            vec = [rnd(math.cos(x)), rnd(math.sin(x)), 0.0, 0.0]
        elif op in ('m4x4', 'm4x3', 'm3x4', 'm3x3', 'm3x2'):
            k, rows = int(op[1]), int(op[3])
            s0 = S(0, range(k))
            vec = [0.0] * 4
            for r in range(rows):
                row = Operand(a[2], False)
                row.idx += r
                vec[r] = dot(s0, self.src(row, range(k)), k)
        elif op == 'cmp':
            s0, s1, s2 = S(0), S(1), S(2)
            vec = [s1[i] if s0[i] >= 0 else s2[i] for i in range(4)]
        elif op == 'cnd':
            s0, s1, s2 = S(0), S(1), S(2)
            vec = [s1[i] if s0[i] > 0.5 else s2[i] for i in range(4)]
        elif op == 'bem':
            s0, s1 = S(0, [0, 1]), S(1, [0, 1])
            m = self.bump(dst.idx)['matrix']
            vec = [fadd(fadd(s0[0], fmul(m[0], s1[0])), fmul(m[2], s1[1])),
                   fadd(fadd(s0[1], fmul(m[1], s1[0])), fmul(m[3], s1[1])), 0.0, 0.0]
        elif op in ('dsx', 'dsy'):
            o = srcs[0]
            if o.name not in ('v', 't') or o.rel:
                raise CalcError('the calculator only differentiates inputs')
            key = '%s%d' % (o.name, o.idx)
            q = self.quad_pos
            if op == 'dsx':
                left, right = (q & 2), (q & 2) + 1
                va, vb = self.input_vec(key, self.quad[left]), self.input_vec(key, self.quad[right])
            else:
                top, bottom = (q & 1), (q & 1) + 2
                va, vb = self.input_vec(key, self.quad[top]), self.input_vec(key, self.quad[bottom])
            va = [va[o.swz[l]] for l in range(4)]
            vb = [vb[o.swz[l]] for l in range(4)]
            vec = [fadd(vb[i], -va[i]) for i in range(4)]
        else:
            raise CalcError('line %d: the calculator does not know %s' % (ins.lineno, op))
        self.write(ins, dst, vec, pending)

    def tex1x(self, ins):
        """ps_1_1..1_3 texture-address instructions."""
        op = ins.op
        a = ins.args
        dst = Operand(a[0], True)
        m = dst.idx
        if op == 'texcoord':
            vec = [fsat(x) for x in self.coords(m)[:3]] + [1.0]
        elif op == 'tex':
            vec = sample(self.texture(m), self.coords(m))
        else:
            src = self.src(Operand(a[1], False)) if len(a) > 1 else None
            c = self.coords(m)
            if op in ('texbem', 'texbeml'):
                be = self.bump(m)
                mat = be['matrix']
                u = fadd(fadd(c[0], fmul(mat[0], src[0])), fmul(mat[2], src[1]))
                v = fadd(fadd(c[1], fmul(mat[1], src[0])), fmul(mat[3], src[1]))
                vec = sample(self.texture(m), [u, v, 0.0, 0.0])
                if op == 'texbeml':
                    lum = fadd(fmul(src[2], be['lscale']), be['loffset'])
                    vec = [fmul(x, lum) for x in vec]
            elif op == 'texreg2ar':
                vec = sample(self.texture(m), [src[3], src[0], 0.0, 0.0])
            elif op == 'texreg2gb':
                vec = sample(self.texture(m), [src[1], src[2], 0.0, 0.0])
            elif op == 'texreg2rgb':
                vec = sample(self.texture(m), [src[0], src[1], src[2], 0.0])
            elif op == 'texdp3tex':
                vec = sample(self.texture(m), [dot(c, src, 3), 0.0, 0.0, 0.0])
            elif op == 'texdp3':
                vec = [dot(c, src, 3)] * 4
            elif op in ('texm3x2pad', 'texm3x3pad'):
                self.tex_regs[m] = None      # holds a row result, not readable
                self.padrow = getattr(self, 'padrow', {})
                self.padrow[m] = dot(c, src, 3)
                return
            elif op in ('texm3x2tex', 'texm3x2depth'):
                u = self.padrow[m - 1]
                v = dot(c, src, 3)
                if op == 'texm3x2tex':
                    vec = sample(self.texture(m), [u, v, 0.0, 0.0])
                else:
                    depth = 1.0 if v == 0 else fdiv(u, v)
                    self.outputs['oDepth'] = [depth, 0.0, 0.0, 0.0]
                    self.out_mask['oDepth'] = 1
                    vec = [0.0] * 4
            elif op in ('texm3x3', 'texm3x3tex', 'texm3x3spec', 'texm3x3vspec'):
                n = [self.padrow[m - 2], self.padrow[m - 1], dot(c, src, 3)]
                if op == 'texm3x3':
                    vec = n + [1.0]
                elif op == 'texm3x3tex':
                    vec = sample(self.texture(m), n + [0.0])
                else:
                    if op == 'texm3x3spec':
                        e = self.const(Operand(a[2], False).idx)[:3]
                    else:
                        e = [self.coords(m - 2)[3], self.coords(m - 1)[3], c[3]]
                    ne = dot(n, e, 3)
                    nn = dot(n, n, 3)
                    k = fdiv(fmul(2.0, ne), nn)
                    r = [fadd(fmul(k, n[i]), -e[i]) for i in range(3)]
                    vec = sample(self.texture(m), r + [0.0])
            else:
                raise CalcError('line %d: unknown texture op %s' % (ins.lineno, op))
        if ins.shift:
            vec = [fmul(x, ins.shift) for x in vec]
        self.tex_regs[m] = vec

    def tex14(self, ins):
        """ps_1_4 texld / texcrd."""
        dst = Operand(ins.args[0], True)
        src = Operand(ins.args[1], False)
        if src.name == 't':
            c = self.coords(src.idx)
        else:
            c = self.raw(src, [0, 1, 2])
        if src.swz_text in ('xyw', 'rga'):
            c = [c[0], c[1], c[3], c[3]]
        if 'dz' in src.mods or 'db' in src.mods:
            c = [1.0 if c[2] == 0 else fdiv(c[0], c[2]), 1.0 if c[2] == 0 else fdiv(c[1], c[2]), c[2], c[3]]
        if 'dw' in src.mods or 'da' in src.mods:
            c = [1.0 if c[3] == 0 else fdiv(c[0], c[3]), 1.0 if c[3] == 0 else fdiv(c[1], c[3]), c[2], c[3]]
        if ins.op == 'texld':
            vec = sample(self.texture(dst.idx), c)
        else:
            vec = list(c)
        self.write(ins, dst, vec)

    def finish(self):
        sh = self.sh
        if self.ps1:
            if not (self.init.get(0, 0) == 0xf):
                raise CalcError('r0 not fully written')
            self.outputs['oC0'] = list(self.regs[('r', 0)])
            self.out_mask['oC0'] = 0xf
        for key, mask in self.out_mask.items():
            want = 1 if key in ('oFog', 'oPts', 'oDepth') else 0xf
            if mask & want != want:
                raise CalcError('output %s only partly written (mask %x)' % (key, mask))


def fmt(x):
    if math.isnan(x):
        return 'nan'
    if math.isinf(x):
        return 'inf' if x > 0 else '-inf'
    return float('%.9g' % x)


OUT_ORDER = ['oPos', 'oD0', 'oD1'] + ['oT%d' % i for i in range(8)] + ['o%d' % i for i in range(12)] + \
    ['oFog', 'oPts'] + ['oC%d' % i for i in range(4)] + ['oDepth']


def run_all(asm_text, inputs, pp_half=False):
    sh = Shader(asm_text, pp_half)
    invs = inputs['invocations']
    result = []
    for n, inv in enumerate(invs):
        base = n - n % 4
        quad = invs[base:base + 4]
        r = Run(sh, inputs, inv, quad, n % 4)
        try:
            try:
                r.run()
            except CalcError as e:
                raise CalcError('invocation %d: %s' % (n, e))
        except Discard:
            result.append({'discarded': True})
            continue
        out = {}
        for key in OUT_ORDER:
            if key in r.outputs:
                vals = r.outputs[key]
                out[key] = [fmt(vals[0])] if key in ('oFog', 'oPts', 'oDepth') else [fmt(v) for v in vals]
        result.append(out)
    return {'invocations': result}


def dumps(obj):
    """JSON with %.9g floats and one invocation per line."""
    def num(v):
        if isinstance(v, str):
            return '"%s"' % v
        if isinstance(v, bool):
            return 'true' if v else 'false'
        if isinstance(v, int):
            return str(v)
        return '%.9g' % v
    lines = []
    for inv in obj['invocations']:
        if inv.get('discarded'):
            lines.append('{"discarded": true}')
        else:
            lines.append('{' + ', '.join('"%s": [%s]' % (k, ', '.join(num(x) for x in v)) for k, v in inv.items()) + '}')
    return '{"invocations": [\n  ' + ',\n  '.join(lines) + '\n]}\n'


if __name__ == '__main__':
    args = sys.argv[1:]
    pp = '--pp=fp16' in args
    args = [a for a in args if not a.startswith('--pp=')]
    asm = open(args[0]).read()
    inputs = json.load(open(args[1]))
    sys.stdout.write(dumps(run_all(asm, inputs, pp)))
