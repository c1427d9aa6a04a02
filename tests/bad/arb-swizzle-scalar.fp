!!ARBfp1.0
# expect: 3:33: error: this operand is a scalar: select one component (.x, .y, .z or .w), not '.xy' [ST2009]
RCP result.color, fragment.color.xy;
END
