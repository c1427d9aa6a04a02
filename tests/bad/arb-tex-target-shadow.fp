!!ARBfp1.0
# expect: 4:50: error: 'SHADOW3D' is not a texture target (1D, 2D, 3D, CUBE, RECT, SHADOW1D, SHADOW2D, SHADOWRECT) [ST2019]
OPTION ARB_fragment_program_shadow;
TEX result.color, fragment.texcoord, texture[0], SHADOW3D;
END
