; expect: 3:10: error: texdepth works on r5 only; found r4 [ST2019]
ps_1_4
texdepth r4
