; expect: 3:1: error: texkill needs a destination operand [ST2002]
ps_1_1
texkill
