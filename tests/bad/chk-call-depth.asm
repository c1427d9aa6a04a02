; expect: 3:6: error: calls nested 2 deep from this call; vs_2_0 allows 1 [ST2014]
vs_2_0
call l0
ret
label l0
call l1
ret
label l1
ret
