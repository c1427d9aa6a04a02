; expect: 5:1: error: second else for the if at line 3 [ST2014]
vs_2_0
if b0
else
else
endif
