; expect: 3:5: error: '-' cannot be applied to the i# operand of rep [ST2007]
vs_2_0
rep -i0
endrep
