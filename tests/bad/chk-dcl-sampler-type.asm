; expect: 3:1: error: dcl of s0 needs a texture type: dcl_2d, dcl_cube or dcl_volume [ST2012]
ps_2_0
dcl s0
