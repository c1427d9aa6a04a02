; expect: 3:5: error: oFog is a scalar output: write one component; writemask .xy is not allowed [ST2010]
vs_1_1
mov oFog.xy, v0.x
