!!ARBfp1.0
# expect: 3:38: error: an extended swizzle uses either xyzw or rgba selectors, not both [ST1009]
SWZ result.color, fragment.color, r, x, 0, 1;
END
