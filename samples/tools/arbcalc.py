#!/usr/bin/env python3
"""arbcalc: a float32 calculator used to work out the ARB samples' goldens.

A checking tool, not part of shadertrans or of its build.  It was written
from the ARB_vertex_program and ARB_fragment_program specifications (the
instruction pseudo-code of their sections 2.14.5 / 3.11.5), OpenGL 1.5's
state tables (the defaults of state bindings) and its fog equations,
independently of shadertrans' interpreter, and it only knows what the
programs in samples/arb/ use.  Every arithmetic step is rounded to IEEE
float32 (struct packing), evaluated left to right without fused
multiply-add; transcendental functions are Python's math module (the C
library's double functions) rounded to float32.

Where the specifications leave a result undefined or approximate, it makes
the choices docs/arb.md and docs/run-json.md document for shadertrans (XPD
w = 1, SCS z = w = 0, LG2/POW of |x|, RCP of +-0 = +-inf, RSQ of 0 = +inf, reads outside a
relatively addressed array = 0, nearest texel of level 0, REPEAT wrap, rect
textures clamped, LEQUAL shadow compares with (L, L, L, 1)).  It is strict:
reading a temp lane never written is an error, so goldens never depend on a
default the sample did not intend.

Usage:  arbcalc.py program.vp inputs.in.json  -> outputs JSON on stdout
"""

import json
import math
import re
import struct
import sys


def f32(x):
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack('<f', struct.pack('<f', x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def undef(*xs):
    """A lane computed from a lane never written is itself undefined (None);
    writing one through the write mask is an error."""
    return any(x is None for x in xs)


def fadd(a, b):
    return None if undef(a, b) else f32(a + b)


def fsub(a, b):
    return None if undef(a, b) else f32(a - b)


def fmul(a, b):
    return None if undef(a, b) else f32(a * b)


def lanes(fn, *vecs):
    return [None if undef(*xs) else fn(*xs) for xs in zip(*vecs)]


def fdiv(a, b):
    if undef(a, b):
        return None
    if b == 0.0:
        if a == 0.0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return f32(a / b)


def fsat(a):
    if a is None:
        return None
    if math.isnan(a):
        return 0.0
    return 0.0 if a <= 0.0 else (1.0 if a >= 1.0 else a)


def dot(a, b, n):
    s = fmul(a[0], b[0])
    for i in range(1, n):
        s = fadd(s, fmul(a[i], b[i]))
    return s


def exp2d(x):
    try:
        return math.exp2(x)
    except OverflowError:
        return math.inf


def powd(x, y):
    """x^y for x >= 0 with C99's special values (0^0 = 1, 1^y = 1, NaN
    included; 0 to a negative power is +inf), where Python raises."""
    if x == 0.0 and y < 0:
        return math.inf
    try:
        return math.pow(x, y)
    except OverflowError:
        return math.inf


def log2d(x):
    if x == 0.0:
        return -math.inf
    return math.log2(x)


class CalcError(Exception):
    pass


class Discard(Exception):
    pass


SWZ = {'x': 0, 'y': 1, 'z': 2, 'w': 3, 'r': 0, 'g': 1, 'b': 2, 'a': 3}
MASKRE = re.compile(r'^[xyzwrgba]{1,4}$')
UNDEF = None

# ---------------------------------------------------------------- defaults
# OpenGL 1.5 state tables 6.5-6.13 (initial values).


def state_default(b):
    m = re.match(r'^state\.matrix\..*\.row\[(\d)\]$', b)
    if m:  # every matrix starts as the identity (so do its inverse/transpose)
        v = [0.0] * 4
        v[int(m.group(1))] = 1.0
        return v
    m = re.match(r'^state\.material(?:\.back)?\.(\w+)$', b)
    if m:
        return {'ambient': [0.2, 0.2, 0.2, 1.0], 'diffuse': [0.8, 0.8, 0.8, 1.0]}.get(
            m.group(1), [0.0, 0.0, 0.0, 1.0])
    m = re.match(r'^state\.light\[(\d+)\]\.(.*)$', b)
    if m:
        n, w = int(m.group(1)), m.group(2)
        if w in ('diffuse', 'specular'):
            return [1.0, 1.0, 1.0, 1.0] if n == 0 else [0.0, 0.0, 0.0, 1.0]
        return {'ambient': [0.0, 0.0, 0.0, 1.0], 'position': [0.0, 0.0, 1.0, 0.0],
                'attenuation': [1.0, 0.0, 0.0, 0.0], 'spot.direction': [0.0, 0.0, -1.0, -1.0],
                'half': [0.0, 0.0, 1.0, 1.0]}[w]
    if b == 'state.lightmodel.ambient':
        return [0.2, 0.2, 0.2, 1.0]
    if b in ('state.lightmodel.scenecolor', 'state.lightmodel.back.scenecolor'):
        # scene ambient 0.2 times material ambient 0.2 plus emission 0, in the
        # float32 arithmetic a GL implementation stores its state in
        c = fmul(f32(0.2), f32(0.2))
        return [c, c, c, 1.0]
    m = re.match(r'^state\.lightprod\[(\d+)\](?:\.back)?\.(\w+)$', b)
    if m:  # light colour times material colour; alpha from the material diffuse
        n, w = int(m.group(1)), m.group(2)
        if w == 'diffuse' and n == 0:
            return [0.8, 0.8, 0.8, 1.0]
        return [0.0, 0.0, 0.0, 1.0]
    m = re.match(r'^state\.texgen\[\d+\]\.(eye|object)\.([strq])$', b)
    if m:
        return {'s': [1.0, 0, 0, 0], 't': [0, 1.0, 0, 0], 'r': [0.0] * 4, 'q': [0.0] * 4}[m.group(2)]
    fixed = {
        'state.fog.color': [0.0, 0.0, 0.0, 0.0],
        'state.fog.params': [1.0, 0.0, 1.0, 1.0],
        'state.point.size': [1.0, 0.0, 64.0, 1.0],
        'state.point.attenuation': [1.0, 0.0, 0.0, 1.0],
        'state.depth.range': [0.0, 1.0, 1.0, 1.0],
    }
    if b in fixed:
        return fixed[b]
    if re.match(r'^state\.clip\[\d+\]\.plane$', b) or re.match(r'^state\.texenv\[\d+\]\.color$', b):
        return [0.0] * 4
    if re.match(r'^program\.(env|local)\[\d+\]$', b):
        return [0.0] * 4
    raise CalcError('no default known for %s' % b)

# ---------------------------------------------------------------- names


def canon_matrix(text):
    """'state.matrix.modelview.invtrans' -> ('state.matrix.modelview[0].invtrans', rows)."""
    m = re.match(r'^state\.matrix\.(mvp|projection|modelview|texture|palette|program)(\[\d+\])?'
                 r'((?:\.inverse|\.transpose|\.invtrans)?)(?:\.row\[(\d+)(?:\.\.(\d+))?\])?$', text)
    if not m:
        raise CalcError('bad matrix binding %s' % text)
    name, idx, mod = m.group(1), m.group(2), m.group(3)
    if idx is None and name in ('modelview', 'texture'):
        idx = '[0]'
    base = 'state.matrix.%s%s%s' % (name, idx or '', mod)
    if m.group(4) is None:
        rows = [0, 1, 2, 3]
    else:
        a = int(m.group(4))
        b = int(m.group(5)) if m.group(5) else a
        rows = list(range(a, b + 1))
    return ['%s.row[%d]' % (base, r) for r in rows]


def canon_state(text):
    t = text
    t = re.sub(r'^state\.texgen\.', 'state.texgen[0].', t)
    t = re.sub(r'^state\.material\.front\.', 'state.material.', t)
    t = re.sub(r'^state\.lightprod\[(\d+)\]\.front\.', r'state.lightprod[\1].', t)
    t = re.sub(r'^state\.lightmodel\.front\.', 'state.lightmodel.', t)
    t = re.sub(r'^state\.texenv\.', 'state.texenv[0].', t)
    return t


def expand_param(text):
    """A binding in a PARAM: list of canonical names (or literal vectors)."""
    t = text.strip()
    if t.startswith('state.matrix.'):
        return canon_matrix(t)
    m = re.match(r'^program\.(env|local)\[(\d+)(?:\.\.(\d+))?\]$', t)
    if m:
        a = int(m.group(2))
        b = int(m.group(3)) if m.group(3) else a
        return ['program.%s[%d]' % (m.group(1), k) for k in range(a, b + 1)]
    if t.startswith('state.'):
        return [canon_state(t)]
    return [literal(t)]


def literal(t):
    t = t.strip()
    neg = False
    if t.startswith('-') and t[1:].strip().startswith('{'):
        neg, t = True, t[1:].strip()
    if t.startswith('{'):
        parts = [f32(float(x)) for x in t.strip('{}').split(',')]
        v = parts + [0.0, 0.0, 1.0][len(parts) - 1:]
    else:
        x = f32(float(t))
        v = [x, x, x, x]
    return [-x for x in v] if neg else v


def canon_input(t, vp):
    if vp:
        t = re.sub(r'^vertex\.color\.primary$', 'vertex.color', t)
        t = re.sub(r'^vertex\.(texcoord|weight|matrixindex)$', r'vertex.\1[0]', t)
    else:
        t = re.sub(r'^fragment\.color\.primary$', 'fragment.color', t)
        t = re.sub(r'^fragment\.texcoord$', 'fragment.texcoord[0]', t)
    return t


def canon_output(t, vp):
    t = t.replace('.front', '').replace('.primary', '')
    if not vp:
        t = re.sub(r'^result\.color\[0\]$', 'result.color', t)
    t = re.sub(r'^result\.texcoord$', 'result.texcoord[0]', t)
    return t

# ---------------------------------------------------------------- program


def split_operands(text):
    out, depth, cur = [], 0, ''
    for ch in text:
        if ch in '{[':
            depth += 1
        elif ch in '}]':
            depth -= 1
        if ch == ',' and depth == 0:
            out.append(cur.strip())
            cur = ''
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


class Program:
    def __init__(self, text):
        lines = [re.sub(r'#.*', '', ln) for ln in text.split('\n')]
        body = '\n'.join(lines)
        header = body.strip().split(None, 1)[0]
        self.vp = header == '!!ARBvp1.0'
        body = body.strip()[len(header):]
        body = body.split('END')[0]
        self.options = set()
        self.temps = {}
        self.addrs = {}
        self.names = {}     # name -> ('attrib', key) | ('param', [entries]) | ('output', key)
        self.instrs = []
        for st in body.split(';'):
            st = ' '.join(st.split())
            if not st:
                continue
            word, _, rest = st.partition(' ')
            if word == 'OPTION':
                self.options.add(rest)
            elif word == 'TEMP':
                for n in rest.split(','):
                    self.temps[n.strip()] = True
            elif word == 'ADDRESS':
                for n in rest.split(','):
                    self.addrs[n.strip()] = True
            elif word == 'ATTRIB':
                n, b = [x.strip() for x in rest.split('=', 1)]
                self.names[n] = ('attrib', canon_input(b, self.vp))
            elif word == 'OUTPUT':
                n, b = [x.strip() for x in rest.split('=', 1)]
                self.names[n] = ('output', canon_output(b, self.vp))
            elif word == 'ALIAS':
                n, b = [x.strip() for x in rest.split('=', 1)]
                self.names[n] = ('alias', b)
            elif word == 'PARAM':
                n, b = [x.strip() for x in rest.split('=', 1)]
                m = re.match(r'^(\w+)\[(\d*)\]$', n)
                if m:
                    entries = []
                    for item in split_operands(b.strip()[1:-1]):
                        entries += expand_param(item)
                    self.names[m.group(1)] = ('param', entries)
                else:
                    e = expand_param(b)
                    self.names[n] = ('param', e)
            else:
                self.instrs.append((word, split_operands(rest)))

    def resolve(self, n):
        while n in self.names and self.names[n][0] == 'alias':
            n = self.names[n][1]
        return n

# ---------------------------------------------------------------- running


class Run:
    def __init__(self, prog, inputs):
        self.p = prog
        self.consts = inputs.get('constants', {})
        self.textures = inputs.get('textures', {})

    def param_value(self, e):
        if isinstance(e, list):
            return list(e)
        if e in self.consts:
            v = [0.0, 0.0, 0.0, 1.0]
            for i, x in enumerate(self.consts[e]):
                v[i] = f32(num(x))
            return v
        return [f32(x) for x in state_default(e)]

    def input_value(self, key):
        v = [0.0, 0.0, 0.0, 1.0]
        if key in self.inv:
            for i, x in enumerate(self.inv[key]):
                v[i] = f32(num(x))
        return v

    def base_value(self, t):
        """Value of an operand without sign/swizzle; returns (vec, rest)."""
        p = self.p
        m = re.match(r'^(\w+)\[([^\]]+)\]$', t)
        if m and m.group(1) not in ('texture',) and self.p.resolve(m.group(1)) in p.names:
            entries = p.names[p.resolve(m.group(1))][1]
            idx = m.group(2).replace(' ', '')
            mm = re.match(r'^(\w+)\.x([+-]\d+)?$', idx)
            if mm:  # relative: A0.x + k
                a = self.addr[p.resolve(mm.group(1))]
                i = a + (int(mm.group(2)) if mm.group(2) else 0)
            else:
                i = int(idx)
            if i < 0 or i >= len(entries):
                return [0.0] * 4
            return self.param_value(entries[i])
        n = p.resolve(t)
        if n in p.temps:
            v = self.temps[n]
            return v
        if n in p.names:
            kind, key = p.names[n]
            if kind == 'attrib':
                return self.input_value(key)
            if kind == 'param':
                return self.param_value(key[0])
            raise CalcError('reading %s' % n)
        if t.startswith('vertex.') or t.startswith('fragment.'):
            return self.input_value(canon_input(t, p.vp))
        if t.startswith('state.') or t.startswith('program.'):
            return self.param_value(expand_param(t)[0])
        return literal(t)

    def src(self, text):
        t = text.strip()
        neg = False
        if t.startswith('-'):
            neg, t = True, t[1:].strip()
        swz = [0, 1, 2, 3]
        # a trailing swizzle (1 or 4 letters) after the last '.'
        if not t.startswith('{') and '.' in t:
            head, _, last = t.rpartition('.')
            if MASKRE.match(last) and len(last) in (1, 4) and not head.endswith('.eye') and \
                    not head.endswith('.object'):
                t = head
                swz = [SWZ[c] for c in last] if len(last) == 4 else [SWZ[last]] * 4
        v = self.base_value(t)
        if v is UNDEF:
            raise CalcError('reading an undefined value %s' % text)
        out = [v[s] for s in swz]
        return [None if x is None else -x for x in out] if neg else out

    def write(self, text, value, sat):
        t = text.strip()
        mask = [True] * 4
        head, _, last = t.rpartition('.')
        if head and MASKRE.match(last):
            t = head
            mask = [False] * 4
            for c in last:
                mask[SWZ[c]] = True
        if sat:
            value = [fsat(x) for x in value]
        n = self.p.resolve(t)
        if n in self.p.addrs:
            self.addr[n] = int(value[0])
            return
        if n in self.p.temps:
            dst = self.temps[n]
        else:
            key = self.p.names[n][1] if n in self.p.names else canon_output(t, self.p.vp)
            dst = self.outs.setdefault(key, [0.0, 0.0, 0.0, 0.0])
        for i in range(4):
            if mask[i]:
                if value[i] is None:
                    raise CalcError('%s: lane %d computed from a lane never written' % (text, i))
                dst[i] = value[i]

    def sample(self, unit, target, c):
        tex = self.textures.get('texture[%d]' % unit)
        if tex is None:
            return [0.0, 0.0, 0.0, 1.0]
        w, h = tex['width'], tex.get('height', 1)
        texels = tex['texels']

        def wrap(u, n):
            if math.isinf(u) or math.isnan(u):
                return 0
            return int(math.floor(u * n)) % n

        def clampi(x, n):
            if math.isnan(x):
                return 0
            return min(max(int(math.floor(x)), 0), n - 1)

        if target in ('1D', 'SHADOW1D'):
            at = wrap(c[0], w)
        elif target in ('2D', 'SHADOW2D'):
            at = wrap(c[1], h) * w + wrap(c[0], w)
        elif target in ('RECT', 'SHADOWRECT'):
            at = clampi(c[1], h) * w + clampi(c[0], w)
        elif target == '3D':
            at = (wrap(c[2], tex['depth']) * h + wrap(c[1], h)) * w + wrap(c[0], w)
        elif target == 'CUBE':
            x, y, z = c[0], c[1], c[2]
            ax, ay, az = abs(x), abs(y), abs(z)
            if ax >= ay and ax >= az:
                ma, face, sc, tc = ax, 0 if x >= 0 else 1, -z if x >= 0 else z, -y
            elif ay >= az:
                ma, face, sc, tc = ay, 2 if y >= 0 else 3, x, z if y >= 0 else -z
            else:
                ma, face, sc, tc = az, 4 if z >= 0 else 5, x if z >= 0 else -x, -y
            s = fmul(fadd(fdiv(sc, ma), 1.0), 0.5)
            tt = fmul(fadd(fdiv(tc, ma), 1.0), 0.5)
            at = (face * h + clampi(tt * h, h)) * w + clampi(s * w, w)
        else:
            raise CalcError('target %s' % target)
        tx = [0.0, 0.0, 0.0, 1.0]
        for i, x in enumerate(texels[at]):
            tx[i] = f32(num(x))
        if target.startswith('SHADOW'):
            lv = 1.0 if c[2] <= tx[0] else 0.0
            return [lv, lv, lv, 1.0]
        return tx

    def run(self, inv):
        p = self.p
        self.inv = inv
        self.temps = {n: [UNDEF] * 4 for n in p.temps}
        self.addr = {n: 0 for n in p.addrs}
        self.outs = {}
        discarded = False
        for word, ops in p.instrs:
            sat = word.endswith('_SAT')
            op = word[:-4] if sat else word
            if op == 'KIL':
                v = self.src(ops[0])
                if any(x < 0 for x in v):
                    discarded = True
                continue
            s = [self.src(o) for o in ops[1:]] if op not in ('SWZ', 'TEX', 'TXP', 'TXB') else None
            r = self.compute(op, ops, s)
            self.write(ops[0], r, sat)
        if 'ARB_position_invariant' in p.options:
            pos = self.input_value('vertex.position')
            rows = [self.param_value('state.matrix.mvp.row[%d]' % k) for k in range(4)]
            self.outs['result.position'] = [dot(rows[k], pos, 4) for k in range(4)]
        fog = [o for o in ('ARB_fog_linear', 'ARB_fog_exp', 'ARB_fog_exp2') if o in p.options]
        if fog and 'result.color' in self.outs:
            P = self.param_value('state.fog.params')
            FC = self.param_value('state.fog.color')
            z = self.input_value('fragment.fogcoord')[0]
            if fog[0] == 'ARB_fog_linear':
                f = fmul(fsub(P[2], z), P[3])      # (end - z) / (end - start)
            else:
                t = fmul(P[0], z)                   # density * z
                if fog[0] == 'ARB_fog_exp2':
                    t = fmul(t, t)
                f = f32(math.exp(-t))
            f = fsat(f)
            c = self.outs['result.color']
            for k in range(4):                      # "the program's final clamped color"
                c[k] = fsat(c[k])
            for k in range(3):                      # f * C + (1 - f) * Cfog
                c[k] = fadd(fmul(f, fsub(c[k], FC[k])), FC[k])
        return discarded

    def compute(self, op, ops, s):
        if op == 'MOV':
            return s[0]
        if op == 'ABS':
            return lanes(abs, s[0])
        if op == 'ADD':
            return lanes(fadd, s[0], s[1])
        if op == 'SUB':
            return lanes(fsub, s[0], s[1])
        if op == 'MUL':
            return lanes(fmul, s[0], s[1])
        if op == 'MAD':
            return lanes(lambda a, b, c: fadd(fmul(a, b), c), s[0], s[1], s[2])
        if op == 'DP3':
            return [dot(s[0], s[1], 3)] * 4
        if op == 'DP4':
            return [dot(s[0], s[1], 4)] * 4
        if op == 'DPH':
            return [fadd(dot(s[0], s[1], 3), s[1][3])] * 4
        if op == 'DST':
            return [1.0, fmul(s[0][1], s[1][1]), s[0][2], s[1][3]]
        if op == 'MIN':
            return lanes(lambda a, b: b if a > b else a, s[0], s[1])
        if op == 'MAX':
            return lanes(lambda a, b: a if a > b else b, s[0], s[1])
        if op == 'SLT':
            return lanes(lambda a, b: 1.0 if a < b else 0.0, s[0], s[1])
        if op == 'SGE':
            return lanes(lambda a, b: 1.0 if a >= b else 0.0, s[0], s[1])
        if op == 'FLR':
            return lanes(lambda x: float(math.floor(x)), s[0])
        if op == 'FRC':
            return lanes(lambda x: fsub(x, float(math.floor(x))), s[0])
        if op == 'CMP':
            return lanes(lambda a, b, c: b if a < 0.0 else c, s[0], s[1], s[2])
        if op == 'LRP':
            # the specification's pseudo-code: a * b + (1 - a) * c
            return lanes(lambda a, b, c: fadd(fmul(a, b), fmul(fsub(1.0, a), c)), s[0], s[1], s[2])
        if op == 'XPD':
            a, b = s[0], s[1]
            return [fsub(fmul(a[1], b[2]), fmul(a[2], b[1])),
                    fsub(fmul(a[2], b[0]), fmul(a[0], b[2])),
                    fsub(fmul(a[0], b[1]), fmul(a[1], b[0])), 1.0]
        if op == 'RCP':
            x = s[0][0]
            r = math.copysign(math.inf, x) if x == 0.0 else (1.0 if x == 1.0 else fdiv(1.0, x))
            return [r] * 4
        if op == 'RSQ':
            x = abs(s[0][0])
            r = math.inf if x == 0.0 else (1.0 if x == 1.0 else fdiv(1.0, f32(math.sqrt(x))))
            return [r] * 4
        if op == 'EX2':
            return [f32(exp2d(s[0][0]))] * 4
        if op == 'LG2':
            return [f32(log2d(abs(s[0][0])))] * 4
        if op == 'POW':
            return [f32(powd(abs(s[0][0]), s[1][0]))] * 4
        if op == 'EXP':   # only x, y (exact parts) and w are used by the samples
            x = s[0][0]
            fl = float(math.floor(x))
            return [f32(exp2d(fl)), fsub(x, fl), UNDEF, 1.0]
        if op == 'LOG':
            x = abs(s[0][0])
            e = math.frexp(x)[1] - 1
            return [float(e), fdiv(x, f32(2.0 ** e)), UNDEF, 1.0]
        if op == 'SIN':
            return [f32(math.sin(s[0][0]))] * 4
        if op == 'COS':
            return [f32(math.cos(s[0][0]))] * 4
        if op == 'SCS':
            x = s[0][0]
            return [f32(math.cos(x)), f32(math.sin(x)), 0.0, 0.0]
        if op == 'LIT':
            x, y, w = s[0][0], s[0][1], s[0][3]
            x = 0.0 if x < 0 else x
            y = 0.0 if y < 0 else y
            maxp = f32(128.0 - 2.0 ** -17)   # 128 - epsilon: the float just below 128
            w = max(-maxp, min(maxp, w))
            try:
                pw = math.pow(y, w)
            except (ValueError, ZeroDivisionError, OverflowError):
                pw = math.inf  # 0 to a negative power; C's pow gives +inf
            z = f32(pw) if x > 0 else 0.0
            return [1.0, x, z, 1.0]
        if op == 'ARL':
            x = s[0][0]
            if x is None:
                # ARB leaves a fresh TEMP undefined; shadertrans reads 0.0
                # (docs/interpreter.md).  Said on stderr so a golden that
                # depends on it is visible.
                sys.stderr.write('arbcalc: warning: ARL %s reads a TEMP lane never written: '
                                 'using 0.0\n' % ops[1])
                x = 0.0
            return [float(math.floor(x))] * 4
        if op == 'SWZ':
            v = self.src(ops[1])
            r = []
            for sel in ops[2:]:
                sel = sel.replace(' ', '')
                neg = sel.startswith('-')
                sel = sel.lstrip('+-')
                x = 0.0 if sel == '0' else 1.0 if sel == '1' else v[SWZ[sel]]
                r.append(-x if neg else x)
            return r
        if op in ('TEX', 'TXP', 'TXB'):
            c = self.src(ops[1])
            m = re.match(r'^texture(?:\[(\d+)\])?$', ops[2].replace(' ', ''))
            unit = int(m.group(1)) if m.group(1) else 0
            if op == 'TXP':
                c = [fdiv(c[0], c[3]), fdiv(c[1], c[3]), fdiv(c[2], c[3]), c[3]]
            return self.sample(unit, ops[3].strip(), c)
        raise CalcError('unknown instruction %s' % op)


def num(x):
    if isinstance(x, str):
        return {'nan': math.nan, 'inf': math.inf, '-inf': -math.inf}[x]
    return float(x)


def fmt(x):
    if math.isnan(x):
        return '"nan"'
    if math.isinf(x):
        return '"inf"' if x > 0 else '"-inf"'
    s = '%.9g' % x
    return s


RANK_FIXED = ['result.position', 'result.color', 'result.color.secondary', 'result.color.back',
              'result.color.back.secondary']


def rank(b):
    if b in RANK_FIXED:
        return RANK_FIXED.index(b) * 16
    m = re.match(r'^result\.color\[(\d+)\]$', b)
    if m:
        return 16 + int(m.group(1))
    m = re.match(r'^result\.texcoord\[(\d+)\]$', b)
    if m:
        return 100 + int(m.group(1))
    return {'result.fogcoord': 200, 'result.pointsize': 201, 'result.depth': 202}[b]


def main():
    prog = Program(open(sys.argv[1]).read())
    inputs = json.load(open(sys.argv[2]))
    lines = []
    for inv in inputs['invocations']:
        r = Run(prog, inputs)
        if r.run(inv):
            lines.append('  {"discarded": true}')
            continue
        parts = []
        for key in sorted(r.outs, key=rank):
            v = r.outs[key]
            if key in ('result.fogcoord', 'result.pointsize'):
                v = [v[0]]
            elif key == 'result.depth':
                v = [v[2]]
            if any(x is UNDEF for x in v):
                raise CalcError('output %s partly undefined' % key)
            parts.append('"%s": [%s]' % (key, ', '.join(fmt(x) for x in v)))
        lines.append('  {' + ', '.join(parts) + '}')
    sys.stdout.write('{"invocations": [\n' + ',\n'.join(lines) + '\n]}\n')


if __name__ == '__main__':
    try:
        main()
    except CalcError as e:
        sys.stderr.write('arbcalc: %s\n' % e)
        sys.exit(1)
