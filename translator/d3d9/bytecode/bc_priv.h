/*
 * bc_priv.h — private to the Direct3D 8/9 bytecode reader and writer
 * (translator/d3d9/bytecode/): the token format.
 *
 * A shader is a stream of little-endian dwords: the version token
 * (0xFFFE0000 | major << 8 | minor for vertex shaders, 0xFFFF0000 | ...
 * for pixel shaders; 2_x is minor 1), instructions, comment blocks and the
 * end token 0x0000FFFF.  An instruction token holds the opcode (bits
 * 0..15), an opcode-specific control field (16..23: the comparison of
 * ifc/breakc/setp, texld's project/bias), from 2_0 on the number of
 * parameter tokens that follow (24..27), predication (28) and, in ps_1_x,
 * co-issue (30); bit 31 is clear.  Parameter tokens have bit 31 set:
 *   destination: register number (0..10), type (28..30 and 11..12),
 *     relative addressing (13), write mask (16..19), result modifier
 *     (20..23: _sat 1, _pp 2, _centroid 4), shift (24..27, signed);
 *   source: number, type, relative (13), swizzle (16..23, 2 bits per
 *     lane), source modifier (24..27, the order of enum st_srcmod);
 *   from 2_0 on, a relative register is followed by an address token (a0
 *     or aL, with its swizzle); in vs_1_1 relative means a0.x, no token.
 * dcl has a usage token (usage 0..4, usage index 16..19, texture type
 * 27..30) before its destination; def/defi/defb four (or one) raw values
 * after it.  A comment block is 0xFFFE | ndwords << 16, then ndwords
 * dwords.  phase is 0x0000FFFD.
 */
#ifndef ST_BC_PRIV_H
#define ST_BC_PRIV_H

#include "translator.h"

enum {
    BC_END = 0x0000ffffu,
    BC_OP_COMMENT = 0xfffe,
    BC_OP_PHASE = 0xfffd,
    BC_OP_END = 0xffff,
    BC_PARAM = 0x80000000u,
    BC_RELATIVE = 1u << 13,
    BC_PREDICATED = 1u << 28,
    BC_COISSUE = 1u << 30,
    BC_FOURCC_CTAB = 0x42415443u, /* "CTAB" */
};

/* Register types (D3DSPR_*). */
enum bc_regtype {
    BT_TEMP = 0, BT_INPUT = 1, BT_CONST = 2, BT_ADDR = 3 /* and TEXTURE */, BT_RASTOUT = 4,
    BT_ATTROUT = 5, BT_OUTPUT = 6 /* and TEXCRDOUT */, BT_CONSTINT = 7, BT_COLOROUT = 8,
    BT_DEPTHOUT = 9, BT_SAMPLER = 10, BT_CONST2 = 11, BT_CONST3 = 12, BT_CONST4 = 13,
    BT_CONSTBOOL = 14, BT_LOOP = 15, BT_TEMPFLOAT16 = 16, BT_MISCTYPE = 17, BT_LABEL = 18,
    BT_PREDICATE = 19,
};

static inline uint32_t bc_type_bits(unsigned t)
{
    return ((uint32_t)(t & 7) << 28) | ((uint32_t)(t & 0x18) << 8);
}

static inline unsigned bc_type_of(uint32_t tok)
{
    return ((tok >> 28) & 7) | ((tok >> 8) & 0x18);
}

/* Texture types of a sampler dcl (D3DSTT_*). */
enum { BC_STT_2D = 2, BC_STT_CUBE = 3, BC_STT_VOLUME = 4 };

/*
 * The instruction set as numbered in the token stream (D3DSIO_*), for
 * every st_opcode that has one; -1 for the ARB-only rows.  texldp and
 * texldb are texld (66) with control 1 and 2; tex and texld, texcoord and
 * texcrd share a number, which the version tells apart.
 */
int bc_opcode_number(enum st_opcode op, uint32_t *control);

/* The other way: the st_opcode a number (and control) means in a version;
 * -1 when none. */
int bc_opcode_from(uint32_t number, uint32_t control, enum st_shader_type type, uint16_t ver);

/* Operand counts when the token has no length (before 2_0): parameter
 * tokens of def/defi/defb/dcl; 0 for the rest (their parameters are
 * counted by bit 31). */
unsigned bc_fixed_params(enum st_opcode op);

#endif
