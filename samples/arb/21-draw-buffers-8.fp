!!ARBfp1.0
# All eight render targets of ARB_draw_buffers (MAX_DRAW_BUFFERS = 8):
# each gets a different function of the inputs, so an engine that drops or
# swaps a target shows it.  The last texture image unit (15) feeds one.
OPTION ARB_draw_buffers;
ATTRIB col = fragment.color;
ATTRIB tc = fragment.texcoord[0];
PARAM k = program.local[0];
PARAM m = {0.5, -2, 4, 0.25};
TEMP t, s;

MOV result.color, col;
ADD result.color[1], col, k;
MUL result.color[2], tc, m;
SUB result.color[3], k.wzyx, tc;
MAD result.color[4], col, m, k;
DP4 t.x, col, tc;
MOV result.color[5], t.x;
TEX s, tc, texture[15], 2D;
MUL result.color[6], s, m.wzyx;
MAX result.color[7], -col, tc.yxwz;
END
