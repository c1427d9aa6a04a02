; expect: 35:1: error: static flow-control instruction number 17; vs_2_0 allows 16 (if, else, loop, rep, call and callnz count one each) [ST2014]
vs_2_0
rep i0
endrep
rep i0
endrep
rep i0
endrep
rep i0
endrep
rep i0
endrep
rep i0
endrep
rep i0
endrep
rep i0
endrep
rep i0
endrep
rep i0
endrep
rep i0
endrep
rep i0
endrep
rep i0
endrep
rep i0
endrep
rep i0
endrep
rep i0
endrep
if b0
endif
