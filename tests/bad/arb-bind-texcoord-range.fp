!!ARBfp1.0
# expect: 3:36: error: fragment.texcoord[9]: texture coordinate set 9 is out of range (0..7) [ST2004]
MOV result.color, fragment.texcoord[9];
END
