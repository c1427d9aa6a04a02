; expect: 3:6: error: mova writes the address register a0; found r0 [ST2005]
vs_2_0
mova r0, c0
