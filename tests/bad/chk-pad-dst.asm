; expect: 5:12: error: texm3x2tex must write t2, the register after the previous one (t1) [ST2020]
ps_1_3
tex t0
texm3x2pad t1, t0
texm3x2tex t3, t0
