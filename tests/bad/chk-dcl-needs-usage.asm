; expect: 3:1: error: vs_2_0 input declarations need a usage, e.g. dcl_position v0 [ST2012]
vs_2_0
dcl v0
