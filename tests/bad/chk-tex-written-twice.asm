; expect: 4:5: error: t0 is written by a second texture instruction (first at line 3) [ST2020]
ps_1_1
tex t0
tex t0
