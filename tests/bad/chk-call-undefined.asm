; expect: 4:6: warning: call to undefined label l3 (runtimes reject the shader) [ST2015]
; expect: 6:1: error: mov after the main program's ret: code there must start with label l# [ST2015]
vs_2_0
call l3
ret
mov r0, r1
