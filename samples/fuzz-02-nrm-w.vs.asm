// fuzz-02-nrm-w (vs_2_0): found by tests/test_fuzz.c; nrm writes dest.w = src.w / sqrt(src.x^2 + src.y^2 + src.z^2), so the w letter of the source swizzle matters (.zzxz: w reads z); --emit=vasm rewrote the swizzle to .zzxw.
vs_2_0
dcl_texcoord0 v0
nrm r0, v0.zzxz
mov oPos, r0
