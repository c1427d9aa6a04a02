; expect: 5:5: error: t0 is declared twice (first at line 4) [ST2012]
; expect: 7:10: error: s0 is declared twice (first at line 6) [ST2012]
ps_2_0
dcl t0.xy
dcl t0.y
dcl_2d s0
dcl_cube s0
