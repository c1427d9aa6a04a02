!!ARBfp1.0
# expect: 3:33: error: the source of SWZ takes no sign or suffix: the extended swizzle does both [ST2009]
SWZ result.color, fragment.color.x, 0, 0, 0, 1;
END
