; expect: 5:6: warning: register b16 is beyond vs_3_0's b0..b15; assemblers encode it but runtimes may reject the shader [ST2004]
; expect: 6:14: warning: m4x4 reads c254..c257 beyond vs_3_0's c0..c255 (the count is a device cap, at least 256 on 2_0+ hardware); runtimes may reject the shader [ST2004]
; expect: 7:13: error: register v16 out of range: vs_3_0 has v0..v15 [ST2004]
vs_3_0
defb b16, true
m4x4 r0, v0, c254
add r0, r0, v16
