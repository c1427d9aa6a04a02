; expect: 4:1: error: texld after arithmetic in the same phase: ps_1_4 texture instructions come first in each phase [ST2020]
ps_1_4
mov r0, c0
texld r1, t0
