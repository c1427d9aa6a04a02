/*
 * bc_write.c — a checked Direct3D 9 shader as its token stream
 * (--emit=d3d9-bytecode).  bc_priv.h describes the format.
 *
 * The tokens are those Microsoft's assembler writes (and Wine's
 * D3DAssemble, whose test expectations tests/test_bytecode.c compares
 * with): instruction lengths from 2_0 on, none before; a relative address
 * token from 2_0 on; the address swizzle as written; comment blocks read
 * from bytecode written back where they were.
 */
#include <string.h>

#include "bc_priv.h"

struct writer {
    struct st_ctx *ctx;
    const struct st_shader *sh;
    struct st_buf *out;
    bool sm2; /* 2_0 and later: lengths and address tokens */
    bool ok;
};

static void put(struct writer *w, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    st_buf_append(w->out, b, 4);
}

static void cannot(struct writer *w, struct st_loc loc, const char *what, unsigned v)
{
    st_error(w->ctx, loc, ST_E_NOT_SUPPORTED, what, v);
    w->ok = false;
}

/* Register type and number of a register. */
static uint32_t reg_bits(struct writer *w, const struct st_reg *r, struct st_loc loc)
{
    unsigned t = BT_TEMP;
    uint32_t n = r->index;
    switch (r->file) {
    case ST_REG_TEMP: t = BT_TEMP; break;
    case ST_REG_INPUT: t = BT_INPUT; break;
    case ST_REG_CONST:
        /* c2048 and up are types of their own (relative bases only: the
         * checker stops absolute ones). */
        t = n < 2048 ? BT_CONST : n < 4096 ? BT_CONST2 : n < 6144 ? BT_CONST3 : BT_CONST4;
        if (n >= 8192) {
            cannot(w, loc, "c%u cannot be encoded: the token stream numbers c0..c8191", n);
            return 0;
        }
        n %= 2048;
        break;
    case ST_REG_ADDR: case ST_REG_TEXTURE: t = BT_ADDR; break;
    case ST_REG_RASTOUT: t = BT_RASTOUT; break;
    case ST_REG_ATTROUT: t = BT_ATTROUT; break;
    case ST_REG_TEXCRDOUT: case ST_REG_OUTPUT: t = BT_OUTPUT; break;
    case ST_REG_CONSTINT: t = BT_CONSTINT; break;
    case ST_REG_COLOROUT: t = BT_COLOROUT; break;
    case ST_REG_DEPTHOUT: t = BT_DEPTHOUT; break;
    case ST_REG_SAMPLER: t = BT_SAMPLER; break;
    case ST_REG_CONSTBOOL: t = BT_CONSTBOOL; break;
    case ST_REG_LOOP: t = BT_LOOP; break;
    case ST_REG_LABEL: t = BT_LABEL; break;
    case ST_REG_PREDICATE: t = BT_PREDICATE; break;
    case ST_REG_MISC: t = BT_MISCTYPE; break;
    default:
        cannot(w, loc, "register file %u has no Direct3D 9 encoding", (unsigned)r->file);
        return 0;
    }
    if (n >= 2048) {
        cannot(w, loc, "register number %u cannot be encoded (0..2047)", n);
        return 0;
    }
    return bc_type_bits(t) | n;
}

/* The address token of a relative register (2_0 and later). */
static uint32_t rel_token(const struct st_reladdr *ra)
{
    uint8_t swz = ra->swizzle_len ? ra->swizzle
                  : ra->has_component ? (uint8_t)(ra->component * 0x55u)
                                      : ST_SWIZZLE_IDENTITY;
    unsigned t = ra->file == ST_REG_LOOP ? BT_LOOP : BT_ADDR;
    return BC_PARAM | bc_type_bits(t) | (ra->index & 0x7ff) | (uint32_t)swz << 16;
}

/* A relative register in 1_x: only vs_1_1's c[a0.x]. */
static bool rel_ok_sm1(struct writer *w, const struct st_reg *r, struct st_loc loc)
{
    const struct st_reladdr *ra = r->rel;
    if (ra->file != ST_REG_ADDR || ra->index != 0 || (ra->has_component && ra->component != 0) ||
        (ra->swizzle_len > 1 && ra->swizzle != 0)) {
        cannot(w, loc, "before 2_0 a relative address is a0.x only (found component %u)",
               ra->component);
        return false;
    }
    return true;
}

static unsigned dst_tokens(struct writer *w, const struct st_instr *in, uint32_t *t)
{
    const struct st_dst *d = &in->dst;
    uint32_t v = BC_PARAM | reg_bits(w, &d->reg, d->loc) | (uint32_t)(d->writemask & 0xf) << 16 |
                 (uint32_t)(in->dstmod & 7) << 20 | (uint32_t)(in->shift & 0xf) << 24;
    if (!d->reg.rel) {
        t[0] = v;
        return 1;
    }
    t[0] = v | BC_RELATIVE;
    if (!w->sm2) {
        rel_ok_sm1(w, &d->reg, d->loc);
        return 1;
    }
    t[1] = rel_token(d->reg.rel);
    return 2;
}

static unsigned src_tokens(struct writer *w, const struct st_src *s, uint32_t *t)
{
    uint32_t v = BC_PARAM | reg_bits(w, &s->reg, s->loc) | (uint32_t)s->swizzle << 16 |
                 (uint32_t)(s->mod & 0xf) << 24;
    if (!s->reg.rel) {
        t[0] = v;
        return 1;
    }
    t[0] = v | BC_RELATIVE;
    if (!w->sm2) {
        rel_ok_sm1(w, &s->reg, s->loc);
        return 1;
    }
    t[1] = rel_token(s->reg.rel);
    return 2;
}

static uint32_t usage_token(const struct st_instr *in)
{
    if (in->sampler_type != ST_SAMPLER_NONE) {
        static const uint32_t stt[] = {0, BC_STT_2D, BC_STT_CUBE, BC_STT_VOLUME};
        return BC_PARAM | stt[in->sampler_type & 3] << 27;
    }
    if (in->dcl_bare)
        return BC_PARAM;
    return BC_PARAM | ((uint32_t)in->usage & 0x1f) | (in->usage_index & 0xf) << 16;
}

static void write_instr(struct writer *w, const struct st_instr *in)
{
    enum st_opcode op = in->op;
    uint32_t control = 0;
    int number = bc_opcode_number(op, &control);
    if (op == ST_OP_IF && in->cmp != ST_CMP_NONE)
        number = (int)ST_OP_IFC;
    if (op == ST_OP_BREAK && in->cmp != ST_CMP_NONE)
        number = (int)ST_OP_BREAKC;
    if (number < 0) {
        cannot(w, in->loc, "instruction %u has no Direct3D 9 encoding", (unsigned)op);
        return;
    }
    if (op == ST_OP_PHASE) {
        put(w, 0x0000fffd);
        return;
    }
    if (in->cmp != ST_CMP_NONE)
        control = (uint32_t)in->cmp;
    /* At most: dst + address, predicate, 5 sources with addresses; or
     * dst + 4 values. */
    uint32_t p[16];
    unsigned n = 0;
    if (op == ST_OP_DCL) {
        p[n++] = usage_token(in);
        n += dst_tokens(w, in, p + n);
    } else if (op == ST_OP_DEF || op == ST_OP_DEFI || op == ST_OP_DEFB) {
        n += dst_tokens(w, in, p + n);
        if (op == ST_OP_DEFB) {
            p[n++] = in->imm.b ? 1 : 0;
        } else {
            for (int i = 0; i < 4; i++) {
                uint32_t bits;
                if (op == ST_OP_DEF)
                    memcpy(&bits, &in->imm.f[i], 4);
                else
                    bits = (uint32_t)in->imm.i[i];
                p[n++] = bits;
            }
        }
    } else {
        if (in->has_dst)
            n += dst_tokens(w, in, p + n);
        if (in->predicated)
            n += src_tokens(w, &in->pred, p + n);
        for (unsigned i = 0; i < in->nsrc && i < 5; i++)
            n += src_tokens(w, &in->src[i], p + n);
    }
    uint32_t tok = (uint32_t)number | control << 16;
    if (w->sm2)
        tok |= (uint32_t)n << 24;
    if (in->predicated)
        tok |= BC_PREDICATED;
    if (in->coissue)
        tok |= BC_COISSUE;
    put(w, tok);
    for (unsigned i = 0; i < n; i++)
        put(w, p[i]);
}

static void write_comments(struct writer *w, unsigned before, unsigned *next)
{
    const struct st_shader *sh = w->sh;
    while (*next < sh->num_comments && sh->comments[*next].before <= before) {
        const struct st_d3d9_comment *c = &sh->comments[*next];
        put(w, BC_OP_COMMENT | c->ndwords << 16);
        for (uint32_t i = 0; i < c->ndwords; i++)
            put(w, c->data[i]);
        (*next)++;
    }
}

bool st_write_d3d9_bytecode(struct st_ctx *ctx, const struct st_shader *sh, struct st_buf *out)
{
    if (!sh)
        return false;
    if (sh->dialect != ST_D3D9) {
        st_error(ctx, sh->version.loc, ST_E_NOT_SUPPORTED,
                 "Direct3D 9 bytecode is written for Direct3D 9 shaders only, not ARB programs");
        return false;
    }
    struct writer w = {ctx, sh, out, sh->version.ver >= ST_VER(2, 0), true};
    uint16_t ver = sh->version.ver;
    uint32_t vt = (sh->version.type == ST_VS ? 0xfffe0000u : 0xffff0000u) | ver;
    put(&w, vt);
    unsigned k = 0, next_comment = 0;
    for (const struct st_instr *in = sh->first; in && w.ok; in = in->next, k++) {
        write_comments(&w, k, &next_comment);
        write_instr(&w, in);
    }
    write_comments(&w, ~0u, &next_comment);
    put(&w, BC_END);
    return w.ok;
}
