; expect: 3:6: error: call needs a label l# here; found c0 [ST2019]
vs_2_0
call c0
