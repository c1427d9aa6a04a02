; expect: 3:5: error: tex writes the whole t# register: no writemask allowed in ps_1_3 [ST2010]
ps_1_3
tex t0.xyz
