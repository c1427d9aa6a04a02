!!ARBfp1.0
# expect: 3:11: error: result.position: not a fragment program result (color, depth) [ST2101]
MOV result.position, fragment.color;
END
