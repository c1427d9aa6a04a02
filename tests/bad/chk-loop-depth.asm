; expect: 4:1: error: loop/rep blocks nested 2 deep; vs_2_0 allows 1 [ST2014]
vs_2_0
rep i0
rep i1
endrep
endrep
