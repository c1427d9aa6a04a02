; expect: 3:1: error: break outside a loop or rep block [ST2014]
vs_2_x
break
