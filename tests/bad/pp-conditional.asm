; expect: 8:2: error: #else without #if [ST1102]
; expect: 11:2: error: #elif after #else [ST1102]
; expect: 12:2: error: second #else for the #if at line 9 [ST1102]
; expect: 14:2: error: #ifdef without #endif at the end of the file [ST1102]
; expect: 15:2: error: #if without #endif at the end of the file [ST1102]
vs_2_0
mov r0, c0
#else
#if 1
#else
#elif 1
#else
#endif
#ifdef A
#if 0
