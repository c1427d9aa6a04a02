; expect: 3:14: error: m4x4 reads c30..c33, out of range: ps_2_0 has c0..c31 [ST2004]
ps_2_0
m4x4 r0, t0, c30
