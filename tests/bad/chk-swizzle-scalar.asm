; expect: 3:9: error: rcp needs a replicate swizzle on this source (.x, .y, .z or .w); found .xy [ST2009]
vs_2_0
rcp r0, v0.xy
