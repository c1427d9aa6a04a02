; expect: 4:8: error: breakp needs the predicate p0; found b0 [ST2019]
vs_2_x
rep i0
breakp b0
endrep
