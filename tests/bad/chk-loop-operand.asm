; expect: 3:6: error: loop's first operand must be aL (loop aL, i#); found r0 [ST2019]
vs_2_0
loop r0, i0
endloop
