; expect: 3:9: error: v0 is read in the first phase; in ps_1_4 v# are available only after 'phase' [ST2018]
ps_1_4
mov r0, v0
phase
