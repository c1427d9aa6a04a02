; expect: 5:5: warning: c0 is defined again (first at line 4); the later value replaces it [ST2021]
; expect: 6:5: error: register c224 out of range: ps_3_0 has c0..c223 [ST2004]
ps_3_0
def c0, 0, 0, 0, 0
def c0, 1, 1, 1, 1
def c224, 0, 0, 0, 0
