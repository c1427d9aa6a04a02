ps_2_0
#include "lib/colors.inc"
#include "lib/missing.inc"
#include "lib/open-if.inc"
mov oC0, COLOR
