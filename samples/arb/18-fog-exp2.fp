!!ARBfp1.0
# A modulated texture with EXP2 fog applied by the GL after the program.
OPTION ARB_fog_exp2;
OPTION ARB_precision_hint_fastest;
TEMP c;

TEX c, fragment.texcoord, texture, 2D;
MUL result.color, c, fragment.color;
END
