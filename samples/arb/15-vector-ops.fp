!!ARBfp1.0
# The vector instructions of ARB_fragment_program with rgba and xyzw
# swizzles and write masks.
ATTRIB n = fragment.texcoord[0];
ATTRIB l = fragment.texcoord[1];
PARAM half = {0.5, 0.5, 0.5, 0.5};
TEMP a, b, c;

XPD a.xyz, n, l;
DPH a.w, l, half;
DST b, n.xyzx, l.rgba;
ABS c, a;
FLR c.r, c.g;
FRC c.gb, c.r;
SGE b.x, a.x, 0;
SLT b.y, a.y, 0;
MIN c.a, b.x, b.y;
MAX c, c, -half;
LIT b, c;
SUB c, b, half.b;
DP4 c.w, c, c;
SWZ result.color, c, 1, -r, b, 0;
END
