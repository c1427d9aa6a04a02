; expect: 4:1: error: texture instruction tex after arithmetic: in ps_1_1 all texture instructions come first [ST2020]
ps_1_1
mov r0, c0
tex t0
