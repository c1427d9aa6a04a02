; expect: 4:10: error: cannot find the include file 'no-such-file.inc' [ST1104]
; expect: 5:10: error: cannot find the include file 'sys.inc' (no include directories given: -I) [ST1104]
vs_2_0
#include "no-such-file.inc"
#include <sys.inc>
