!!ARBfp1.0
# Procedural rings: trigonometry, powers and logarithms, at the highest
# precision the implementation offers.
OPTION ARB_precision_hint_nicest;
PARAM freq = program.local[1];
PARAM pi = 3.14159265;
TEMP a, r, s;

MUL a.x, fragment.texcoord[0].x, freq.x;
SIN r.x, a.x;
COS r.y, a.x;
# SCS needs its argument in [-pi, pi]
FRC a.y, fragment.texcoord[0].y;
MAD a.y, a.y, 2, -1;
MUL a.y, a.y, pi.x;
SCS s.xy, a.y;
POW r.z, fragment.texcoord[0].z, freq.y;
EX2 r.w, -fragment.texcoord[0].w;
LG2 s.z, freq.z;
RCP s.w, freq.w;
RSQ a.z, freq.w;
MAD result.color, r, s, a.z;
END
