!!ARBfp1.0
# expect: 3:36: error: fragment.texcoord[0..1]: a range is only allowed in a PARAM array [ST2004]
MOV result.color, fragment.texcoord[0..1];
END
