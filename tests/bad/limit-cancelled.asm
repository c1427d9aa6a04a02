; expect: 1:1: error: cancelled by the caller [ST9003]
; args: --timeout=0
; (a timeout of 0 s is over at the first poll, the end of the first line)
vs_1_1
mov oPos, v0
