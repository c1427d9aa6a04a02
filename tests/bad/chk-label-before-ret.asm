; expect: 3:1: error: label before the end of the main program: subroutines follow the main program's ret [ST2015]
vs_2_0
label l0
ret
