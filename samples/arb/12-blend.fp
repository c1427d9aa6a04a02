!!ARBfp1.0
# Texture environment emulation: CMP, LRP and saturation, with fixed
# function fog applied after the program (ARB_fog_linear).
OPTION ARB_fog_linear;
PARAM envColor = state.texenv[0].color;
PARAM env1 = state.texenv[1].color;
PARAM fogColor = state.fog.color;
TEMP base, t;

TEX base, fragment.texcoord[0], texture[0], 2D;
LRP t, base.a, base, envColor;
CMP t, fragment.fogcoord.x, fogColor, t;
MAD_SAT t, t, fragment.color.primary, fragment.color.secondary;
ADD_SAT t.rgb, t, env1;
MOV result.color, t;
END
