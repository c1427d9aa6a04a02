; expect: 3:1: error: texdepth belongs to the second phase (after 'phase') [ST2018]
ps_1_4
texdepth r5
phase
