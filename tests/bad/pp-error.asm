; expect: 4:5: error: #error this shader needs -D LIGHTS [ST1106]
vs_2_0
#ifndef LIGHTS
#   error this shader needs -D LIGHTS
#endif
