// Macros as shader authors use them: register names, a matrix
// transform over several lines, pasting, and -D from the command line.
#define POSITION v0
#define WORLD    4             /* first row of the world matrix */
#define XFORM(dst, src, row) \
    dp4 dst.x, src, c[row]     \
    ;
#define ROW(n) c##n
#define MADD(d, ...) mad d, __VA_ARGS__
vs_2_0
dcl_position POSITION
XFORM(oPos, POSITION, WORLD)
XFORM(r1, POSITION, WORLD + 1)
mov r2, ROW(7)
MADD(r3, r1, c[SCALE], r2)
#undef WORLD
#define WORLD 8
mov r4, c[WORLD + __LINE__]
