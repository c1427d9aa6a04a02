; expect: 3:1: error: a texture type (dcl_2d, dcl_cube, dcl_volume) declares a sampler s#; found t0 [ST2012]
ps_2_0
dcl_2d t0
