; expect: 3:4: error: the p0 condition of if needs a replicate swizzle (p0.x, p0.y, p0.z or p0.w); found .xy [ST2009]
vs_2_x
if p0.xy
endif
