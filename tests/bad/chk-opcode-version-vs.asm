; expect: 3:1: error: instruction texkill is not available in vs_2_0; it exists in no vertex shader version [ST2001]
vs_2_0
texkill r0
