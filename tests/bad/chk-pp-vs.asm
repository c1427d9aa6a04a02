; expect: 3:4: error: _pp is a pixel shader modifier; vertex shaders always use full precision [ST2008]
vs_3_0
add_pp r0, r0, r1
