; expect: 9:6: error: call to l0 is recursive: subroutines cannot call themselves, directly or through others [ST2015]
vs_2_x
call l0
ret
label l0
call l1
ret
label l1
call l0
ret
