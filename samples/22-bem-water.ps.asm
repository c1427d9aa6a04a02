// 22-bem-water (ps_1_4): two-phase water: phase 1 reads a du/dv map and offsets the reflection coordinates with bem, phase 2 samples the reflection at the perturbed coordinates and blends it with the base texture; covers texld from t# (phase 1) and dependent texld from r# (phase 2), texcrd, bem, phase, lrp, mul, .rgb/.rg writemasks.
ps_1_4
def c0, 0.5, 0.5, 0.5, 1
texld r0, t0                    // du/dv map (stage 0)
texcrd r1.rgb, t1               // reflection coordinates
bem r1.rg, r1, r0               // r1.rg += bump matrix of stage 1 * (du, dv)
phase
texld r1, r1                    // reflection (stage 1) at the perturbed coordinates
texld r2, t2                    // base colour (stage 2)
lrp r0, c0, r1, r2              // half reflection, half base; alpha from the reflection
mul r0.rgb, r0, v0              // tinted by the vertex colour
