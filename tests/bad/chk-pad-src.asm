; expect: 6:16: error: texm3x2tex must read the same source as the texm3x2pad before it (t0) [ST2020]
ps_1_3
tex t0
tex t1
texm3x2pad t2, t0
texm3x2tex t3, t1
