!!ARBfp1.0
# expect: 3:33: error: '.xyzr' is not a swizzle (one or four of xyzw, or of rgba) [ST1009]
MOV result.color, fragment.color.xyzr;
END
