/*
 * check_limits.h — per-version register limits of the Direct3D 9 shader
 * models, as data.  Private to check.c (included there only).
 *
 * Sources: the "Registers - vs_1_1 .. ps_3_0" pages of the Direct3D 9 Asm
 * Shader Reference (counts, relative addressing columns) and the "Flow
 * Control Nesting Limits" pages (loop/rep and if depths).  Where the count
 * is a device cap (vs c#: MaxVertexShaderConst, at least 96/256) or where
 * real assemblers encode more than the model allows (b16, l2047 in 2_x), the
 * entry has a `hard` limit above `count`: indices between the two only get a
 * warning, because assemblers accept them (Wine's tests use vs_1_1 c256 and
 * vs_3_0 b16 as shaders that assemble but that runtimes refuse).
 */
#ifndef ST_CHECK_LIMITS_H
#define ST_CHECK_LIMITS_H

#include <stdint.h>

#include "translator.h"

enum chk_slot {
    SLOT_VS11, SLOT_VS20, SLOT_VS2X, SLOT_VS30,
    SLOT_PS11, SLOT_PS12, SLOT_PS13, SLOT_PS14, SLOT_PS20, SLOT_PS2X, SLOT_PS30,
    SLOT_COUNT
};

/* Which address registers may index a file (relative addressing). */
enum {
    REL_A0X = 1 << 0, /* a0.x only (vs_1_1) */
    REL_A0 = 1 << 1,  /* a0 with any one component */
    REL_AL = 1 << 2,  /* the loop counter aL */
};

struct chk_file_limit {
    uint16_t count; /* registers the model has; 0: file absent */
    uint16_t hard;  /* encodable/accepted bound; 0: same as count */
    uint8_t rel;    /* REL_* */
};

struct chk_limits {
    struct chk_file_limit file[ST_REG_COUNT];
    uint8_t max_loop_depth;  /* loop + rep nesting */
    uint8_t max_if_depth;    /* if / ifc / if pred nesting; 0: no own limit */
    uint8_t max_static_flow; /* if, else, loop, rep, call, callnz; 0: none */
};

/* Register-number field of a D3D9 parameter token: 11 bits. */
#define CHK_ENCODABLE 2048

#define F(file, ...) [file] = {__VA_ARGS__}
static const struct chk_limits chk_limits[SLOT_COUNT] = {
    [SLOT_VS11] = {{F(ST_REG_TEMP, 12), F(ST_REG_INPUT, 16),
                    F(ST_REG_CONST, 256, CHK_ENCODABLE, REL_A0X), F(ST_REG_ADDR, 1),
                    F(ST_REG_RASTOUT, 3), F(ST_REG_ATTROUT, 2), F(ST_REG_TEXCRDOUT, 8)},
                   0, 0},
    [SLOT_VS20] = {{F(ST_REG_TEMP, 12), F(ST_REG_INPUT, 16),
                    F(ST_REG_CONST, 256, CHK_ENCODABLE, REL_A0 | REL_AL), F(ST_REG_ADDR, 1),
                    F(ST_REG_RASTOUT, 3), F(ST_REG_ATTROUT, 2), F(ST_REG_TEXCRDOUT, 8),
                    F(ST_REG_CONSTINT, 16, CHK_ENCODABLE), F(ST_REG_CONSTBOOL, 16, CHK_ENCODABLE),
                    F(ST_REG_LOOP, 1), F(ST_REG_LABEL, 16, CHK_ENCODABLE)},
                   /* vs_2_0 nests ifs as deep as its static flow count allows */
                   1, 0, 16},
    [SLOT_VS2X] = {{F(ST_REG_TEMP, 32), F(ST_REG_INPUT, 16),
                    F(ST_REG_CONST, 256, CHK_ENCODABLE, REL_A0 | REL_AL), F(ST_REG_ADDR, 1),
                    F(ST_REG_RASTOUT, 3), F(ST_REG_ATTROUT, 2), F(ST_REG_TEXCRDOUT, 8),
                    F(ST_REG_CONSTINT, 16, CHK_ENCODABLE), F(ST_REG_CONSTBOOL, 16, CHK_ENCODABLE),
                    F(ST_REG_LOOP, 1), F(ST_REG_LABEL, 16, CHK_ENCODABLE),
                    F(ST_REG_PREDICATE, 1)},
                   4, 24},
    [SLOT_VS30] = {{F(ST_REG_TEMP, 32), F(ST_REG_INPUT, 16, 0, REL_A0 | REL_AL),
                    F(ST_REG_CONST, 256, CHK_ENCODABLE, REL_A0 | REL_AL), F(ST_REG_ADDR, 1),
                    F(ST_REG_CONSTINT, 16, CHK_ENCODABLE), F(ST_REG_CONSTBOOL, 16, CHK_ENCODABLE),
                    F(ST_REG_LOOP, 1), F(ST_REG_LABEL, 2048), F(ST_REG_PREDICATE, 1),
                    F(ST_REG_SAMPLER, 4),
                    /* The reference lists aL only; Wine's assembler tests
                     * index o# with a0 too (o[a0.x + 12]). */
                    F(ST_REG_OUTPUT, 12, 0, REL_A0 | REL_AL)},
                   4, 24},
    [SLOT_PS11] = {{F(ST_REG_CONST, 8), F(ST_REG_TEMP, 2), F(ST_REG_TEXTURE, 4),
                    F(ST_REG_INPUT, 2)},
                   0, 0},
    [SLOT_PS12] = {{F(ST_REG_CONST, 8), F(ST_REG_TEMP, 2), F(ST_REG_TEXTURE, 4),
                    F(ST_REG_INPUT, 2)},
                   0, 0},
    [SLOT_PS13] = {{F(ST_REG_CONST, 8), F(ST_REG_TEMP, 2), F(ST_REG_TEXTURE, 4),
                    F(ST_REG_INPUT, 2)},
                   0, 0},
    [SLOT_PS14] = {{F(ST_REG_CONST, 8), F(ST_REG_TEMP, 6), F(ST_REG_TEXTURE, 6),
                    F(ST_REG_INPUT, 2)},
                   0, 0},
    [SLOT_PS20] = {{F(ST_REG_INPUT, 2), F(ST_REG_TEMP, 12), F(ST_REG_CONST, 32),
                    F(ST_REG_CONSTINT, 16, CHK_ENCODABLE), F(ST_REG_CONSTBOOL, 16, CHK_ENCODABLE),
                    F(ST_REG_SAMPLER, 16), F(ST_REG_TEXTURE, 8), F(ST_REG_COLOROUT, 4),
                    F(ST_REG_DEPTHOUT, 1)},
                   0, 0},
    [SLOT_PS2X] = {{F(ST_REG_INPUT, 2), F(ST_REG_TEMP, 32), F(ST_REG_CONST, 32),
                    F(ST_REG_CONSTINT, 16, CHK_ENCODABLE), F(ST_REG_CONSTBOOL, 16, CHK_ENCODABLE),
                    F(ST_REG_PREDICATE, 1), F(ST_REG_SAMPLER, 16), F(ST_REG_TEXTURE, 8),
                    F(ST_REG_LABEL, 16, CHK_ENCODABLE), F(ST_REG_COLOROUT, 4),
                    F(ST_REG_DEPTHOUT, 1)},
                   4, 24},
    [SLOT_PS30] = {{F(ST_REG_INPUT, 10, 0, REL_AL), F(ST_REG_TEMP, 32), F(ST_REG_CONST, 224),
                    F(ST_REG_CONSTINT, 16, CHK_ENCODABLE), F(ST_REG_CONSTBOOL, 16, CHK_ENCODABLE),
                    F(ST_REG_PREDICATE, 1), F(ST_REG_SAMPLER, 16), F(ST_REG_MISC, 2),
                    F(ST_REG_LOOP, 1), F(ST_REG_LABEL, 2048), F(ST_REG_COLOROUT, 4),
                    F(ST_REG_DEPTHOUT, 1)},
                   4, 24},
};
#undef F

#endif
