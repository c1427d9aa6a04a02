; expect: 5:6: warning: label l20 is beyond ps_2_x's l0..l15; assemblers encode it but runtimes may reject the shader [ST2015]
; expect: 6:6: error: label l4000 out of range: ps_2_x has l0..l2047 [ST2015]
; expect: 8:7: warning: label l20 is beyond ps_2_x's l0..l15; assemblers encode it but runtimes may reject the shader [ST2015]
ps_2_x
call l20
call l4000
ret
label l20
ret
