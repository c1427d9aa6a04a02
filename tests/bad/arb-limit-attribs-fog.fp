!!ARBfp1.0
# expect: 16:1: error: the program uses 12 attributes; the limit is 11 (lowered by the ARB_fog option) [ST2105]
OPTION ARB_fog_exp;
ATTRIB a0 = fragment.color;
ATTRIB a1 = fragment.color.secondary;
ATTRIB a2 = fragment.fogcoord;
ATTRIB a3 = fragment.position;
ATTRIB a4 = fragment.texcoord[0];
ATTRIB a5 = fragment.texcoord[1];
ATTRIB a6 = fragment.texcoord[2];
ATTRIB a7 = fragment.texcoord[3];
ATTRIB a8 = fragment.texcoord[4];
ATTRIB a9 = fragment.texcoord[5];
ATTRIB a10 = fragment.texcoord[6];
ATTRIB a11 = fragment.texcoord[7];
END
