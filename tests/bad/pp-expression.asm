; expect: 7:7: error: the #if expression ends after '+' where a value is expected [ST1103]
; expect: 9:6: error: division by zero in #if [ST1103]
; expect: 11:5: error: floating-point number '1.5' in #if: only integers are allowed [ST1103]
; expect: 13:8: error: ')' without '(' in #if [ST1103]
vs_2_0
mov r0, c0
#if 1 +
#endif
#if 1/0
#endif
#if 1.5
#endif
#if (1))
#endif
