// 13-bumpenv (ps_1_1): environment-mapped bump mapping: a du/dv map perturbs the reflection lookup (texbem) and a luminance-scaled glow lookup (texbeml), blended with the vertex colour; covers texbem, texbeml (each from its own du/dv texture), tex, lrp, mad_sat, co-issued mov.
ps_1_1
def c0, 0.5, 0.5, 0.5, 1
tex t0                          // du/dv map of the surface
texbem t1, t0                   // reflection at t1.uv + bump matrix of stage 1 * (du, dv)
tex t2                          // du/dv map of the glow, luminance in blue
texbeml t3, t2                  // glow at t3.uv + matrix * (du, dv), times (lum * lscale + loffset)
lrp r0.rgb, c0, t1, v0          // half reflection, half vertex colour
+ mov r0.a, v0.a
mad_sat r0.rgb, t3, v1, r0      // plus glow tinted by v1
