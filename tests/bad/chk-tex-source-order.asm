; expect: 5:12: warning: texbem t0 reads t1: the source should be a lower-numbered texture register (runtimes reject this order) [ST2020]
; expect: 6:5: error: register t4 out of range: ps_1_1 has t0..t3 [ST2004]
ps_1_1
tex t1
texbem t0, t1
tex t4
