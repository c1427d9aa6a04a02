!!ARBfp1.0
# expect: 3:19: error: this operand is a scalar: select one component (.x, .y, .z or .w) [ST2009]
RCP result.color, fragment.color;
END
