!!ARBfp1.0
# expect: 3:35: error: 'xy' is not an extended swizzle selector (0, 1, x, y, z, w, or r, g, b, a) [ST1009]
SWZ result.color, fragment.color, xy, 0, 0, 1;
END
