!!ARBfp1.0
# expect: 3:27: error: fragment.normal: not a fragment attribute binding (color, texcoord, fogcoord, position) [ST2101]
MOV result.color, fragment.normal;
END
