!!ARBfp1.0
# Window position with the default lower-left origin and integer pixel
# centres (ARB_fragment_coord_conventions): the position itself, the
# parity of the pixel's column and row, and depth scaled by 1/w.
OPTION ARB_draw_buffers;
OPTION ARB_fragment_coord_pixel_center_integer;
PARAM half = {0.5, 0.5, 0, 0};
TEMP p;

MOV result.color, fragment.position;
MUL p, fragment.position, half;
FRC p.xy, p;
MOV result.color[1], p;
MUL result.depth.z, fragment.position.z, fragment.position.w;
END
