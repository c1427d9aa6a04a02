!!ARBfp1.0
# Depth-compared lookups of ARB_fragment_program_shadow.
OPTION ARB_fragment_program_shadow;
TEMP lit, s;

TEX lit.x, fragment.texcoord[0], texture[0], SHADOW2D;
TXP lit.y, fragment.texcoord[1], texture[1], SHADOW1D;
TEX lit.z, fragment.texcoord[2], texture[2], SHADOWRECT;
DP3 s.x, lit, {0.3333333, 0.3333333, 0.3333333};
MUL result.color.rgb, fragment.color, s.x;
MOV result.color.a, fragment.color.a;
END
