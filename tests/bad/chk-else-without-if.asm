; expect: 4:1: error: else without if [ST2014]
; expect: 6:1: error: else without if (inside a loop or rep block) [ST2014]
vs_2_0
else
rep i0
else
endrep
