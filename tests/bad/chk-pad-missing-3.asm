; expect: 4:1: error: texm3x3tex must follow two texm3x3pad instructions [ST2020]
ps_1_3
tex t0
texm3x3tex t1, t0
