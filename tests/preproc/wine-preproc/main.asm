// Wine's D3DAssemble preprocessor tests (dlls/d3dcompiler_43/tests/asm.c),
// together in one file: comments of three kinds, #line, and a definition
// continued over two lines.
#line 1 "vertex.vsh"
vs.1.1
//some comments
//other comments
; yet another comment
; ' comment
; " comment
#define REG 1 + 2 +\
3 + 4
add r0, r0, r1
mov r0, c0[ REG ]
