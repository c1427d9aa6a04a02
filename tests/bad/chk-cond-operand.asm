; expect: 3:4: error: if needs a boolean constant b# or the predicate p0 here; found r0 (comparisons are written if_gt src0, src1) [ST2019]
vs_2_0
if r0
endif
