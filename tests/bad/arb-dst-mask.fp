!!ARBfp1.0
# expect: 3:17: error: '.rgx' is not a write mask (components in xyzw or rgba order, each at most once) [ST1010]
MOV result.color.rgx, fragment.color;
END
