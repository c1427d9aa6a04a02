; expect: 3:11: error: texld reads r1 in the first phase; before 'phase' its source must be t# [ST2018]
ps_1_4
texld r0, r1
phase
mov r0, r0
