; expect: 5:1: error: texm3x2pad at line 4 must be followed by texm3x2tex or texm3x2depth [ST2020]
ps_1_3
tex t0
texm3x2pad t1, t0
mov r0, t0
