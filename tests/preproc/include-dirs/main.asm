#include "common.inc"
#include <lights.inc>
#include "common.inc"
vs_2_0
dcl_position v0
mov r0, c[LIGHT0 + HELPER]
mov oPos, v0
