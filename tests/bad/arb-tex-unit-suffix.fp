!!ARBfp1.0
# expect: 3:48: error: a texture unit takes no suffix [ST2019]
TEX result.color, fragment.texcoord, texture[0].x, 2D;
END
