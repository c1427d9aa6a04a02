; expect: 3:5: error: a0 cannot be written by mov: a0 is written by mova [ST2005]
vs_2_0
mov a0.x, c0.x
