; expect: 7:9: warning: macro 'A' redefined; this definition replaces the one at line 6 [ST5005]
; expect: 8:2: warning: #warning check the light count [ST5006]
; expect: 9:2: warning: #pragma pack_matrix(row_major) ignored [ST5002]
; expect: 10:9: error: unknown register 'q0' [ST1008]
vs_2_0
#define A c0
#define A c1
#warning check the light count
#pragma pack_matrix(row_major)
mov r0, q0
