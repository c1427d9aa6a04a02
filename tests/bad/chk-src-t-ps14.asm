; expect: 3:9: error: t0 cannot be a source of mov: in ps_1_4 t# are only read by texld and texcrd [ST2006]
ps_1_4
mov r0, t0
