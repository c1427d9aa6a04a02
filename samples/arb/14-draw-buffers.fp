!!ARBfp1.0
# Multiple render targets and depth output, with window position and the
# depth range.
OPTION ARB_draw_buffers;
PARAM range = state.depth.range;
TEMP d;

MOV result.color, fragment.color;
MOV result.color[1], fragment.texcoord[0];
MOV result.color[2], fragment.position;
MUL d.z, fragment.position.z, range.z;
ADD result.depth.z, d.z, range.x;
MOV result.color[3], range;
END
