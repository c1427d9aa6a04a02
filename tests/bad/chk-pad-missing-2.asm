; expect: 4:1: error: texm3x2tex must follow a texm3x2pad [ST2020]
ps_1_3
tex t0
texm3x2tex t1, t0
