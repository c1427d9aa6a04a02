; expect: 5:1: warning: ps_2_0 ignores the usage of a t# declaration: 'dcl_texcoord0 t0' declares texture coordinate set 0, as 'dcl t0' does [ST2012]
; expect: 6:1: warning: ps_2_0 ignores the usage of a t# declaration: 'dcl_color t1' declares texture coordinate set 1, as 'dcl t1' does [ST2012]
; expect: 7:1: error: ps_2_0 declares inputs without a usage: write dcl v0 [ST2012]
ps_2_0
dcl_texcoord0 t0
dcl_color t1
dcl_color0 v0
