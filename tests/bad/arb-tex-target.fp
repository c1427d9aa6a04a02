!!ARBfp1.0
# expect: 3:50: error: 'CUBEMAP' is not a texture target (1D, 2D, 3D, CUBE, RECT) [ST2019]
TEX result.color, fragment.texcoord, texture[0], CUBEMAP;
END
