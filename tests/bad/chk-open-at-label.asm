; expect: 6:1: error: rep without endrep before the label [ST2014]
; expect: 7:1: error: subroutine l0 (line 5) must end with ret before the next label [ST2015]
vs_2_0
ret
label l0
rep i0
label l1
ret
