// An index per vertex into pulled constants (a gather: one untyped read per vector): a0 holds any value, inside or outside c0..c255.
vs_2_0
dcl_position v0
dcl_blendindices v1
mova a0.x, v1.x
mov oPos, c[a0.x + 2]
mov oD0, c[a0.x + 250]
