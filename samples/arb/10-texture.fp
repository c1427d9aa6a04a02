!!ARBfp1.0
# Every texture instruction and every target without the shadow option;
# KIL discards fragments whose alpha mask is negative.
ATTRIB tc0 = fragment.texcoord[0];
ATTRIB tc1 = fragment.texcoord[1];
PARAM bias = program.local[0];
TEMP c1, c2, c3, coord;

TEX c1, tc0, texture[0], 2D;
TXP c2, tc1, texture[1], 3D;
MOV coord, tc0;
MOV coord.w, bias.x;
TXB c3, coord, texture[2], CUBE;
TEX coord.x, tc1, texture[3], 1D;
TEX coord.yw, fragment.texcoord[2], texture[4], RECT;
KIL coord.y;
KIL -c1.wwww;
MUL c1, c1, c2;
MAD result.color, c3, coord.x, c1;
END
