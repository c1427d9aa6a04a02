; expect: 7:7: error: label l0 is defined twice (first at line 5) [ST2015]
vs_2_0
call l0
ret
label l0
ret
label l0
ret
