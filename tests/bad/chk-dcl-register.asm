; expect: 3:5: error: r0 cannot be declared: ps_2_0 declares texture coordinates t#, colors v# and samplers s# [ST2012]
ps_2_0
dcl r0
