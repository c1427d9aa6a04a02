!!ARBfp1.0
# Upper-left origin and integer pixel centres (ARB_fragment_coord_conventions):
# a checkerboard from the window position.
OPTION ARB_fragment_coord_origin_upper_left;
OPTION ARB_fragment_coord_pixel_center_integer;
PARAM cell = {0.125, 0.125, 0, 0};
TEMP p;

MUL p.xy, fragment.position, cell;
FLR p.xy, p;
ADD p.x, p.x, p.y;
MUL p.x, p.x, 0.5;
FRC p.x, p.x;
SGE result.color, p.x, 0.25;
END
