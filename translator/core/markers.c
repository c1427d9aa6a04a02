/*
 * markers.c — the names of the marker calls the lowering emits for the
 * compile pipeline (ST_LOWER_VECTOR), and what each operation reads.
 *
 * A marker keeps the identity of one source operation through LLVM: the
 * passes may move, share, fold (passes/fold_ops.c, with the interpreter's
 * own arithmetic) and delete it, but never re-express it, so the merge
 * stage gives each back as the one instruction it was instead of
 * recognizing the shape of an expansion.  docs/pipeline.md lists them.
 */
#include <string.h>

#include "translator.h"

static const char *const cmp_suffix[] = {"", "gt", "eq", "ge", "lt", "ne", "le"};
static const char *const mod_suffix[] = {"", "bias", "bx2", "comp", "x2"};

const char *st_marker_cmp_name(enum st_compare c)
{
    return c > ST_CMP_NONE && c <= ST_CMP_LE ? cmp_suffix[c] : "";
}

bool st_marker_decode(const char *name, size_t len, struct st_marker *m)
{
    memset(m, 0, sizeof(*m));
    if (len < 4 || memcmp(name, "st.", 3) != 0)
        return false;
    name += 3;
    len -= 3;
    /* "st.NAME.f16": the same operation computed in half (a _pp
     * instruction under --pp=fp16) on <4 x half> values */
    if (len > 4 && memcmp(name + len - 4, ".f16", 4) == 0) {
        m->half = true;
        len -= 4;
    }
#define IS(lit) (len == sizeof(lit) - 1 && memcmp(name, lit, len) == 0)
    if (IS("sat")) {
        m->kind = ST_MK_SAT;
        return true;
    }
    if (IS("shift")) {
        m->kind = ST_MK_SHIFT;
        return true;
    }
    if (IS("rel")) {
        m->kind = ST_MK_REL;
        return true;
    }
    if (IS("ostore")) {
        m->kind = ST_MK_OSTORE;
        return true;
    }
    if (IS("ostore.rel")) {
        m->kind = ST_MK_OSTORE_REL;
        return true;
    }
    if (IS("opaque")) {
        m->kind = ST_MK_OPAQUE;
        return true;
    }
#undef IS
    if (len > 4 && memcmp(name, "mod.", 4) == 0) {
        for (int k = 1; k <= 4; k++)
            if (len - 4 == strlen(mod_suffix[k]) && memcmp(name + 4, mod_suffix[k], len - 4) == 0) {
                m->kind = ST_MK_MOD;
                m->mod = k;
                return true;
            }
        return false;
    }
    if (len > 5 && memcmp(name, "setp.", 5) == 0) {
        for (int c = ST_CMP_GT; c <= ST_CMP_LE; c++)
            if (len - 5 == strlen(cmp_suffix[c]) && memcmp(name + 5, cmp_suffix[c], len - 5) == 0) {
                m->kind = ST_MK_OP;
                m->op = ST_OP_SETP;
                m->cmp = (enum st_compare)c;
                return true;
            }
        return false;
    }
    for (int op = 0; op < ST_OP_COUNT; op++) {
        const char *n = st_opinfo[op].name;
        if (n && strlen(n) == len && memcmp(n, name, len) == 0) {
            m->kind = ST_MK_OP;
            m->op = (enum st_opcode)op;
            return true;
        }
    }
    return false;
}

/* The lanes of a texture coordinate a sample with `dims` dimensions
 * reads: x, y (and z), and w where the op takes it (projection, bias,
 * level). */
static uint8_t tex_lanes(enum st_opcode op, unsigned dims)
{
    uint8_t m = dims <= 1 ? 0x1 : dims == 2 ? 0x3 : 0x7;
    if (op == ST_OP_TEXLDP || op == ST_OP_TEXLDB || op == ST_OP_TEXLDL)
        m |= 0x8;
    return m;
}

uint8_t st_arb_tex_lanes(enum st_opcode op, unsigned target)
{
    uint8_t m;
    switch (target) {
    case ST_ARB_TEX_1D: m = 0x1; break;
    case ST_ARB_TEX_2D: case ST_ARB_TEX_RECT: m = 0x3; break;
    case ST_ARB_TEX_SHADOW1D: m = 0x5; break; /* s and the compared r */
    default: m = 0x7; break;                  /* 3D, CUBE, SHADOW2D, SHADOWRECT */
    }
    /* TXP divides by q; TXB's bias is w (our engines sample level 0 only,
     * but the program keeps its bias) */
    return op == ST_OP_ARB_TXP || op == ST_OP_ARB_TXB ? (uint8_t)(m | 0x8) : m;
}

bool st_op_componentwise(enum st_opcode op)
{
    switch (op) {
    case ST_OP_MOV: case ST_OP_ADD: case ST_OP_SUB: case ST_OP_MUL: case ST_OP_MAD:
    case ST_OP_MIN: case ST_OP_MAX: case ST_OP_SLT: case ST_OP_SGE: case ST_OP_LRP:
    case ST_OP_FRC: case ST_OP_CMP: case ST_OP_ABS: case ST_OP_MOVA: case ST_OP_SGN:
    case ST_OP_DSX: case ST_OP_DSY: case ST_OP_SETP: case ST_OP_CND: case ST_OP_ARB_FLR:
        return true;
    default:
        return false;
    }
}

bool st_op_replicates(enum st_opcode op, uint16_t ver)
{
    switch (op) {
    case ST_OP_DP3: case ST_OP_DP4: case ST_OP_DP2ADD: case ST_OP_RCP: case ST_OP_RSQ:
    case ST_OP_EXP: case ST_OP_LOG: case ST_OP_POW: case ST_OP_ARB_DPH: case ST_OP_ARB_SIN:
    case ST_OP_ARB_COS: case ST_OP_ARB_ARL:
        return true;
    case ST_OP_EXPP: case ST_OP_LOGP: /* one lane each before 2_0 */
        return ver >= ST_VER(2, 0);
    default:
        return false;
    }
}

uint8_t st_op_reads(const struct st_op_reads_q *q)
{
    const uint8_t w = q->written;
    if (!w)
        return 0;
    if (st_op_componentwise(q->op))
        return w;
    switch (q->op) {
    case ST_OP_DP3: case ST_OP_CRS: case ST_OP_ARB_XPD:
        return 0x7;
    case ST_OP_NRM: /* the length from xyz, then each written lane scaled */
        return (uint8_t)(0x7 | w);
    case ST_OP_DP4: return 0xf;
    case ST_OP_DP2ADD: return q->k == 2 ? 0x1 : 0x3;
    case ST_OP_RCP: case ST_OP_RSQ: case ST_OP_EXP: case ST_OP_LOG: case ST_OP_POW:
    case ST_OP_EXPP: case ST_OP_LOGP: case ST_OP_SINCOS: case ST_OP_ARB_SIN: case ST_OP_ARB_COS:
    case ST_OP_ARB_SCS: case ST_OP_ARB_ARL:
        return 0x1;
    case ST_OP_LIT: case ST_OP_ARB_LIT: {
        /* x and w are constants; y reads x; z reads x, y, w */
        uint8_t m = 0;
        if (w & 0x2)
            m |= 0x1;
        if (w & 0x4)
            m |= 0xb;
        return m;
    }
    case ST_OP_DST: /* (1, a.y * b.y, a.z, b.w) */
        if (q->k == 0)
            return (uint8_t)((w & 0x2) | (w & 0x4));
        return (uint8_t)((w & 0x2) | (w & 0x8));
    case ST_OP_ARB_DPH: return q->k == 0 ? 0x7 : 0xf;
    case ST_OP_ARB_SWZ: {
        uint8_t m = 0;
        for (unsigned l = 0; l < 4; l++)
            if ((w >> l) & 1 && q->swz_sel[l] < 4)
                m |= (uint8_t)(1u << q->swz_sel[l]);
        return m;
    }
    case ST_OP_TEXLD: case ST_OP_TEXLDP: case ST_OP_TEXLDB: case ST_OP_TEXLDL:
        return q->k == 0 ? tex_lanes(q->op, q->tex_dims) : 0;
    case ST_OP_TEXLDD:
        return q->k == 0 ? tex_lanes(q->op, q->tex_dims)
                         : q->k <= 2 ? tex_lanes(ST_OP_TEXLD, q->tex_dims) : 0;
    case ST_OP_ARB_TEX: case ST_OP_ARB_TXP: case ST_OP_ARB_TXB:
        return q->k == 0 ? st_arb_tex_lanes(q->op, q->tex_target) : 0;
    case ST_OP_TEXKILL: return 0x7;
    case ST_OP_ARB_KIL: return 0xf;
    default:
        return 0xf;
    }
}

bool st_opaque_writes(const struct st_instr *a)
{
    return a->has_dst && !(a->op == ST_OP_TEXKILL || a->op == ST_OP_TEXDEPTH ||
                           a->op == ST_OP_TEXM3x2DEPTH || a->op == ST_OP_PHASE);
}

uint8_t st_opaque_reads(const struct st_instr *a, unsigned k)
{
    if (a->op == ST_OP_TEXDEPTH)
        return 0x3; /* r5.r / r5.g */
    if (a->op == ST_OP_TEXKILL)
        return 0x7;
    if (a->op == ST_OP_BEM) /* x, y of both sources */
        return 0x3;
    bool writes = st_opaque_writes(a);
    if (writes && (a->op == ST_OP_TEXLD || a->op == ST_OP_TEXCRD) && k < a->nsrc) {
        /* x, y, z through the swizzle, and the divisor of _dz / _dw */
        const struct st_src *s = &a->src[k];
        uint8_t m = 0;
        for (unsigned l = 0; l < 3; l++)
            m |= (uint8_t)(1u << ST_SWZ_LANE(s->swizzle, l));
        if (s->mod == ST_SRCMOD_DZ)
            m |= (uint8_t)(1u << ST_SWZ_LANE(s->swizzle, 2));
        if (s->mod == ST_SRCMOD_DW)
            m |= (uint8_t)(1u << ST_SWZ_LANE(s->swizzle, 3));
        return m;
    }
    return 0xf;
}
