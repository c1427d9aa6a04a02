!!ARBfp1.0
# expect: 5:1: error: the program uses 4095 program parameters; the limit is 4094 (lowered by the ARB_fog option) [ST2105]
OPTION ARB_fog_exp2;
PARAM a[] = { program.local[0..4094] };
END
