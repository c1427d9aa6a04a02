; expect: 5:1: error: endif closes the rep opened at line 4; it needs endrep first [ST2014]
vs_2_0
if b0
rep i0
endif
