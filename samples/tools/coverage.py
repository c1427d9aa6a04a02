#!/usr/bin/env python3
"""Prints the feature -> sample files table at the end of samples/README.md.

A checking tool, not part of the build.  Each feature is a regular
expression over the samples' code (comments stripped); a feature no sample
matches is printed with "MISSING" so a gap cannot go unnoticed.
"""

import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.dirname(HERE)

OPS = r'(?:^|\n)\s*(?:\+\s*)?(?:\(!?p0(?:\.[xyzw]+)?\)\s*)?'   # start of an instruction


def op(name, suffix=r'(?:_\w+)?'):
    return OPS + name + suffix + r'\b'


FEATURES = [
    # ---- instructions: arithmetic
    ('add', op('add')), ('sub', op('sub')), ('mul', op('mul')), ('mad', op('mad')),
    ('mov', op('mov')), ('nop', op('nop')), ('dp3', op('dp3')), ('dp4', op('dp4')),
    ('dp2add', op('dp2add')), ('rcp', op('rcp')), ('rsq', op('rsq')),
    ('min', op('min')), ('max', op('max')), ('slt', op('slt')), ('sge', op('sge')),
    ('exp', op('exp', '')), ('expp', op('expp')), ('log', op('log', '')), ('logp', op('logp')),
    ('pow', op('pow')), ('lit', op('lit')), ('dst', op('dst')), ('lrp', op('lrp')),
    ('frc', op('frc')), ('abs (instruction)', op('abs')), ('sgn', op('sgn')),
    ('nrm', op('nrm')), ('crs', op('crs')),
    ('sincos, one-source form (vs_3_0/ps_3_0)', OPS + r'sincos\s+\S+,\s*[^,\n]+\n'),
    ('sincos, three-source form (2_0/2_x)', OPS + r'sincos\s+\S+,[^,\n]+,[^,\n]+,[^,\n]+\n'),
    ('m4x4', op('m4x4')), ('m4x3', op('m4x3')), ('m3x4', op('m3x4')),
    ('m3x3', op('m3x3')), ('m3x2', op('m3x2')),
    ('cmp', op('cmp')), ('cnd', op('cnd')), ('bem', op('bem')),
    ('dsx', op('dsx')), ('dsy', op('dsy')),
    ('mova', op('mova')), ('mov a0.x (vs_1_1)', OPS + r'mov\s+a0\.x'),
    # ---- flow control
    ('if b# / else / endif', OPS + r'if\s+!?b\d'), ('else', op('else', '')),
    ('if p0.c (predicate if)', OPS + r'if\s+!?p0'),
    ('if_comp (ifc)', OPS + r'if_(?:gt|lt|ge|le|eq|ne)\b'),
    ('loop aL, i# / endloop', op('loop', '')), ('rep i# / endrep', op('rep', '')),
    ('break', OPS + r'break\s*(?:\n|//)'),
    ('break_comp (breakc)', OPS + r'break_(?:gt|lt|ge|le|eq|ne)\b'),
    ('breakp', op('breakp', '')),
    ('call', OPS + r'call\s'), ('callnz b#', OPS + r'callnz\s+l\d+,\s*b'),
    ('callnz !b#', OPS + r'callnz\s+l\d+,\s*!b'), ('callnz p0.c', OPS + r'callnz\s+l\d+,\s*p0'),
    ('callnz !p0.c', OPS + r'callnz\s+l\d+,\s*!p0'), ('label', op('label', '')), ('ret', op('ret', '')),
    ('comparison gt', r'_gt\b'), ('comparison lt', r'_lt\b'), ('comparison ge', r'_ge\b'),
    ('comparison le', r'_le\b'), ('comparison eq', r'_eq\b'), ('comparison ne', r'_ne\b'),
    # ---- predication
    ('setp_comp', op('setp')), ('(p0) full-vector predicate', r'\(p0\)'),
    ('(p0.c) replicate predicate', r'\(p0\.[xyzw]\)'), ('(!p0) negated predicate', r'\(!p0\)'),
    ('(!p0.c)', r'\(!p0\.[xyzw]\)'),
    # ---- textures
    ('tex', op('tex', '')), ('texcoord', op('texcoord')), ('texkill', op('texkill')),
    ('texbem', op('texbem', '')), ('texbeml', op('texbeml')), ('texreg2ar', op('texreg2ar')),
    ('texreg2gb', op('texreg2gb')), ('texreg2rgb', op('texreg2rgb')),
    ('texm3x2pad', op('texm3x2pad')), ('texm3x2tex', op('texm3x2tex')),
    ('texm3x2depth', op('texm3x2depth')), ('texm3x3pad', op('texm3x3pad')),
    ('texm3x3tex', op('texm3x3tex')), ('texm3x3', op('texm3x3', r'\s')),
    ('texm3x3spec', op('texm3x3spec')), ('texm3x3vspec', op('texm3x3vspec')),
    ('texdp3tex', op('texdp3tex')), ('texdp3', op('texdp3', r'\s')),
    ('texcrd', op('texcrd')), ('texdepth', op('texdepth')),
    ('texld (ps_1_4)', r'ps_1_4[\s\S]*' + OPS + r'texld\s'),
    ('texld (2_0+)', r's\d+\s*(?://.*)?\n[\s\S]*' + OPS + r'texld(?:_\w+)?\s+r\d+,\s*\S+,\s*s\d'),
    ('texldp', op('texldp')), ('texldb', op('texldb')), ('texldd', op('texldd')),
    ('texldl', op('texldl')),
    # ---- declarations and constants
    ('def', op('def', r'\s')), ('defi', op('defi')), ('defb', op('defb')),
    ('dcl_position', r'dcl_position\d*\s'), ('dcl_positiont', r'dcl_positiont'),
    ('dcl_normal', r'dcl_normal'), ('dcl_texcoord', r'dcl_texcoord'),
    ('dcl_blendweight', r'dcl_blendweight'), ('dcl_blendindices', r'dcl_blendindices'),
    ('dcl_tangent', r'dcl_tangent'), ('dcl_binormal', r'dcl_binormal'),
    ('dcl_tessfactor', r'dcl_tessfactor'), ('dcl_color', r'dcl_color'), ('dcl_fog', r'dcl_fog'),
    ('dcl_depth', r'dcl_depth'), ('dcl_sample', r'dcl_sample'), ('dcl_psize', r'dcl_psize'),
    ('usage with an index (dcl_texcoord5, dcl_color1, ...)', r'dcl_[a-z]+[1-9]\d*\s'),
    ('dcl t# / dcl v# (ps_2_0, ps_2_x)', r'(?:^|\n)dcl\s+[tv]\d'),
    ('dcl_2d', r'dcl_2d'), ('dcl_cube', r'dcl_cube'), ('dcl_volume', r'dcl_volume'),
    ('vs_3_0 output dcl with a mask', r'dcl_\w+\s+o\d+\.[xyzw]+'),
    ('ps_3_0 input dcl with a mask', r'ps_3_0[\s\S]*dcl_\w+\s+v\d+\.[xyzw]+'),
    ('dcl vPos', r'dcl\s+vPos'), ('dcl vFace', r'dcl\s+vFace'),
    ('phase', op('phase', '')), ('co-issue (+)', r'\n\+\s'),
    # ---- modifiers
    ('_sat', r'_sat\b'), ('_pp', r'_pp\b'), ('_centroid on dcl', r'dcl\w*_centroid'),
    ('_centroid on texld', r'texld\w*_centroid'),
    ('shift _x2', OPS + r'\w+_x2'), ('shift _x4', r'_x4\b'), ('shift _x8', r'_x8\b'),
    ('shift _d2', r'_d2\b'), ('shift _d4', r'_d4\b'), ('shift _d8', r'_d8\b'),
    ('source negate', r',\s*-[a-z]'), ('source _abs', r'[a-z0-9\]]_abs'),
    ('source _bias', r'_bias'), ('source _bx2', r'_bx2'), ('source _x2 (ps_1_4)', r'r\d_x2'),
    ('source 1-x complement', r',\s*1\s*-'), ('source _dz', r'_dz'), ('source _db', r'_db'),
    ('source _dw', r'_dw'), ('source _da', r'_da'),
    # ---- swizzles and masks
    ('replicate swizzle .x/.y/.z/.w', r',\s*-?[a-z]+\d*(?:\[[^\]]*\])?(?:_\w+)?\.[xyzw]\b'),
    ('replicate selector .r/.g/.b/.a', r',\s*-?[a-z]+\d+(?:_\w+)?\.[rgba]\b'),
    ('two-letter swizzle (.xy = .xyyy)', r',\s*-?[a-z]+\d+(?:_\w+)?\.[xyzw]{2}\b(?!\s*,)'),
    ('three-letter swizzle (.xyz = .xyzz; ps_1_4 .xyz/.xyw)', r',\s*-?[a-z]+\d+(?:_\w+)?\.[xyzw]{3}\b'),
    ('four-letter swizzle', r',\s*-?[a-z]+\d+(?:_\w+)?\.[xyzw]{4}\b'),
    ('ps_2_0 swizzles .yzxw .zxyw .wzyx', r'\.(?:yzxw|zxyw|wzyx)\b'),
    ('writemask .x/.y/.z/.w', OPS + r'\w+\s+[a-zA-Z]+\d*\.[xyzwrgba]\s*,'),
    ('writemask of 2-3 components', OPS + r'\w+\s+[a-zA-Z]+\d*\.[xyzwrgba]{2,3}\s*,'),
    ('arbitrary ps_1_4 writemask (.rb, .g)', r'ps_1_4[\s\S]*\s(?:r\d\.rb|r\d\.g)\s*,'),
    # ---- relative addressing
    ('c[a0.x + n]', r'c\[a0\.x\s*\+\s*\d+\]'), ('cN[a0.c]', r'c\d+\[a0\.[xyzw]\]'),
    ('c[aL + n]', r'c\[aL\s*\+\s*\d+\]'), ('cN[aL]', r'c\d+\[aL\]'),
    ('v[aL] / v[aL + n]', r'v\[aL'), ('vN[aL]', r'v\d+\[aL\]'), ('o[aL + n]', r'o\[aL'),
    # ---- registers
    ('oPos oD# oT#', r'\boT\d'), ('oFog', r'\boFog\b'), ('oPts', r'\boPts\b'),
    ('o# (vs_3_0)', r'\bo\d+\b'), ('oC1..oC3 (multiple render targets)', r'\boC[123]\b'),
    ('oDepth', r'\boDepth\b'), ('ps_1_x depth (texm3x2depth / texdepth)', r'texm3x2depth|texdepth'),
]


def code(path):
    lines = []
    for line in open(path):
        lines.append(line.split('//')[0].rstrip())
    return '\n'.join(lines) + '\n'


def main():
    files = sorted(glob.glob(os.path.join(SAMPLES, '*.asm')))
    texts = {os.path.basename(f): code(f) for f in files}
    out = ['| feature | samples |', '|---|---|']
    missing = 0
    for name, rx in FEATURES:
        hits = [f.split('-')[0] for f, t in texts.items() if re.search(rx, t)]
        if not hits:
            missing += 1
        out.append('| %s | %s |' % (name.replace('|', '\\|'), ', '.join(hits) if hits else 'MISSING'))
    print('\n'.join(out))
    return 1 if missing else 0


if __name__ == '__main__':
    sys.exit(main())
