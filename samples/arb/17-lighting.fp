!!ARBfp1.0
# Per-pixel lighting with the light and material state a fragment program
# can bind, including the back face and matrix rows.
OPTION ARB_precision_hint_fastest;
ATTRIB normal = fragment.texcoord[1];
PARAM lpos = state.light[1].position;
PARAM ldiff = state.light[1].diffuse;
PARAM lamb = state.light[1].ambient;
PARAM mspec = state.material.front.specular;
PARAM memi = state.material.emission;
PARAM prod = state.lightprod[1].back.specular;
PARAM mv[] = { state.matrix.modelview[0].transpose.row[0..2] };
TEMP nn, l, d;

DP3 nn.w, normal, normal;
RSQ nn.w, nn.w;
MUL nn.xyz, normal, nn.w;
DP3 l.x, mv[0], lpos;
DP3 l.y, mv[1], lpos;
DP3 l.z, mv[2], lpos;
DP3_SAT d.x, nn, l;
MAD d, d.x, ldiff, lamb;
MAD d, mspec, prod, d;
ADD result.color, d, memi;
END
