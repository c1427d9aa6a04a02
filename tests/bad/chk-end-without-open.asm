; expect: 3:1: error: endif without if [ST2014]
vs_2_0
endif
