/*
 * bc_opcodes.c — st_opcode <-> the token stream's instruction numbers
 * (D3DSIO_*), shared by the reader and the writer.
 */
#include "bc_priv.h"

int bc_opcode_number(enum st_opcode op, uint32_t *control)
{
    *control = 0;
    /* nop .. defi: the table's first 49 rows are numbered as the token
     * stream numbers them (opcodes.def keeps that order). */
    if ((int)op <= (int)ST_OP_DEFI)
        return (int)op;
    switch (op) {
    case ST_OP_TEXCOORD: case ST_OP_TEXCRD: return 64;
    case ST_OP_TEXKILL: return 65;
    case ST_OP_TEX: case ST_OP_TEXLD: return 66;
    case ST_OP_TEXLDP: *control = 1; return 66;
    case ST_OP_TEXLDB: *control = 2; return 66;
    case ST_OP_TEXBEM: return 67;
    case ST_OP_TEXBEML: return 68;
    case ST_OP_TEXREG2AR: return 69;
    case ST_OP_TEXREG2GB: return 70;
    case ST_OP_TEXM3x2PAD: return 71;
    case ST_OP_TEXM3x2TEX: return 72;
    case ST_OP_TEXM3x3PAD: return 73;
    case ST_OP_TEXM3x3TEX: return 74;
    case ST_OP_TEXM3x3SPEC: return 76;
    case ST_OP_TEXM3x3VSPEC: return 77;
    case ST_OP_EXPP: return 78;
    case ST_OP_LOGP: return 79;
    case ST_OP_CND: return 80;
    case ST_OP_DEF: return 81;
    case ST_OP_TEXREG2RGB: return 82;
    case ST_OP_TEXDP3TEX: return 83;
    case ST_OP_TEXM3x2DEPTH: return 84;
    case ST_OP_TEXDP3: return 85;
    case ST_OP_TEXM3x3: return 86;
    case ST_OP_TEXDEPTH: return 87;
    case ST_OP_CMP: return 88;
    case ST_OP_BEM: return 89;
    case ST_OP_DP2ADD: return 90;
    case ST_OP_DSX: return 91;
    case ST_OP_DSY: return 92;
    case ST_OP_TEXLDD: return 93;
    case ST_OP_SETP: return 94;
    case ST_OP_TEXLDL: return 95;
    case ST_OP_BREAKP: return 96;
    case ST_OP_PHASE: return BC_OP_PHASE;
    default: return -1;
    }
}

int bc_opcode_from(uint32_t number, uint32_t control, enum st_shader_type type, uint16_t ver)
{
    bool ps = type == ST_PS;
    if (number <= (uint32_t)ST_OP_DEFI) {
        enum st_opcode op = (enum st_opcode)number;
        bool takes_cmp = op == ST_OP_IFC || op == ST_OP_BREAKC;
        if (takes_cmp ? control < 1 || control > 6 : control != 0)
            return -1;
        return (int)op;
    }
    if (number == 66) { /* tex, texld, texldp, texldb */
        if (ps && ver < ST_VER(1, 4))
            return control == 0 ? (int)ST_OP_TEX : -1;
        if (control == 0)
            return (int)ST_OP_TEXLD;
        if (ver >= ST_VER(2, 0))
            return control == 1 ? (int)ST_OP_TEXLDP : control == 2 ? (int)ST_OP_TEXLDB : -1;
        return -1;
    }
    if (number == 94) /* setp */
        return control >= 1 && control <= 6 ? (int)ST_OP_SETP : -1;
    if (control != 0)
        return -1;
    if (number == 64)
        return ps && ver == ST_VER(1, 4) ? (int)ST_OP_TEXCRD : (int)ST_OP_TEXCOORD;
    static const struct {
        uint32_t number;
        enum st_opcode op;
    } rest[] = {
        {65, ST_OP_TEXKILL}, {67, ST_OP_TEXBEM}, {68, ST_OP_TEXBEML}, {69, ST_OP_TEXREG2AR},
        {70, ST_OP_TEXREG2GB}, {71, ST_OP_TEXM3x2PAD}, {72, ST_OP_TEXM3x2TEX},
        {73, ST_OP_TEXM3x3PAD}, {74, ST_OP_TEXM3x3TEX}, {76, ST_OP_TEXM3x3SPEC},
        {77, ST_OP_TEXM3x3VSPEC}, {78, ST_OP_EXPP}, {79, ST_OP_LOGP}, {80, ST_OP_CND},
        {81, ST_OP_DEF}, {82, ST_OP_TEXREG2RGB}, {83, ST_OP_TEXDP3TEX},
        {84, ST_OP_TEXM3x2DEPTH}, {85, ST_OP_TEXDP3}, {86, ST_OP_TEXM3x3},
        {87, ST_OP_TEXDEPTH}, {88, ST_OP_CMP}, {89, ST_OP_BEM}, {90, ST_OP_DP2ADD},
        {91, ST_OP_DSX}, {92, ST_OP_DSY}, {93, ST_OP_TEXLDD}, {95, ST_OP_TEXLDL},
        {96, ST_OP_BREAKP}, {BC_OP_PHASE, ST_OP_PHASE},
    };
    for (unsigned i = 0; i < sizeof(rest) / sizeof(rest[0]); i++)
        if (rest[i].number == number)
            return (int)rest[i].op;
    return -1;
}

unsigned bc_fixed_params(enum st_opcode op)
{
    switch (op) {
    case ST_OP_DEF: case ST_OP_DEFI: return 5;
    case ST_OP_DEFB: case ST_OP_DCL: return 2;
    default: return 0;
    }
}
