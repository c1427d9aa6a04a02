!!ARBfp1.0
# expect: 3:19: error: a texture unit is not a source register [ST2019]
MOV result.color, texture[0];
END
