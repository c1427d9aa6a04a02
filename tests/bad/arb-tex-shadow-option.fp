!!ARBfp1.0
# expect: 3:50: error: texture target SHADOW2D needs OPTION ARB_fragment_program_shadow [ST2019]
TEX result.color, fragment.texcoord, texture[0], SHADOW2D;
END
