; expect: 4:7: error: texld writes a temporary register r#; found oC0 [ST2005]
ps_2_0
dcl_2d s0
texld oC0, t0, s0
