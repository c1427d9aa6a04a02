#define LIGHTS 3
ps_2_0
dcl t0
#if LIGHTS > 2 && defined(SPECULAR)
#  ifdef FAST
mov r0, c0
#  elif QUALITY >= 2 ? 1 : 0
mov r0, c1
#    if (QUALITY << 1) % 3 == 1      /* 4 % 3 */
mov r1, c2
#    else
mov r1, c3
#    endif
#  else
mov r0, c4
#  endif
#elif LIGHTS == 3
mov r0, c5
#else
#  error not here
#endif
#ifndef FAST
mov oC0, r0
#endif
