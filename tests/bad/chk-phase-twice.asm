; expect: 4:1: error: second phase: ps_1_4 has two phases, separated by one phase instruction [ST2018]
ps_1_4
phase
phase
