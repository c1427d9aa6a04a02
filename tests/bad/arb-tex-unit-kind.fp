!!ARBfp1.0
# expect: 3:38: error: expected a texture image unit (texture or texture[n]), not 'fragment.color' [ST2019]
TEX result.color, fragment.texcoord, fragment.color, 2D;
END
