!!ARBfp1.0
# expect: 3:45: error: texture[16]: texture image unit 16 is out of range (0..15) [ST2004]
TXP result.color, fragment.texcoord, texture[16], 2D;
END
