; expect: 3:5: error: i0 takes no swizzle [ST2009]
vs_2_0
rep i0.x
endrep
