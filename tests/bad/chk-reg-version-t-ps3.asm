; expect: 4:11: error: register t1 does not exist in ps_3_0; ps_3_0 reads texture coordinates from v# declared with dcl_texcoord [ST2003]
ps_3_0
dcl_2d s0
texld r0, t1, s0
