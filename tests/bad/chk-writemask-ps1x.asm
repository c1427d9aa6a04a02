; expect: 3:5: error: writemask .xy is not available in ps_1_1: use .rgb, .a or none [ST2010]
ps_1_1
mov r0.xy, c0
