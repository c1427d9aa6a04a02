!!ARBfp1.0
# expect: 4:41: error: texture[1] is sampled as 2D (line 3) and as 3D: one texture unit has one target per program [ST2020]
TEX result.color, fragment.texcoord[0], texture[1], 2D;
TXB result.color, fragment.texcoord[1], texture[1], 3D;
END
