// 28-aniso-grad (ps_2_x): texture sampling driven by explicit screen-space derivatives: gradients of the coordinates (dsx/dsy) are halved for a sharper fetch (texldd) and their magnitude becomes an edge mask; covers dsx, dsy, texldd, abs, add, max, cmp, mul; evaluated on whole 2x2 quads.
ps_2_x
dcl t0.xy
dcl v0
dcl_2d s0
def c0, 0.5, 1, 0, 4
def c1, 0.0625, 0, 0, 0
dsx r1.xy, t0                   // d(uv)/dx across the quad
dsy r2.xy, t0                   // d(uv)/dy
mul r1.xy, r1, c0.x             // half footprint: sharper
mul r2.xy, r2, c0.x
texldd r3, t0, s0, r1, r2
abs r4.xy, r1
abs r5.xy, r2
add r4.xy, r4, r5               // |du/dx| + |du/dy|, |dv/dx| + |dv/dy|
max r4.x, r4.x, r4.y            // footprint size
add r4.y, r4.x, -c1.x           // larger than 1/16 of the texture?
cmp r6, r4.y, v0, r3            // minified pixels show the vertex colour instead
mov oC0, r6
