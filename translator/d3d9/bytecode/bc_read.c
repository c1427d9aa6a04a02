/*
 * bc_read.c — a Direct3D 8/9 token stream into the AST (-x d3d9-bytecode,
 * or a blob that starts with a version token).  bc_priv.h describes the
 * format.
 *
 * The AST is the one the parser builds from the disassembly (print.c), so
 * the checker, the engines and every output work on blobs as on text.
 * The reader decides only what the token format decides: it rejects what
 * cannot be read as a shader (a size that is no multiple of four, no
 * version or end token, an instruction or parameter token that means
 * nothing, a length that runs past the end, reserved bits); whatever the
 * tokens can say is the checker's to judge, as for text.  Every access is
 * bounds-checked against the blob.  Locations are {1, byte offset + 1}; the
 * locator installed at the end reports them as line 0 (bytecode has no
 * lines) and column byte offset + 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_priv.h"

struct reader {
    struct st_ctx *ctx;
    struct st_arena *arena;
    const unsigned char *b;
    uint32_t ndw;
    struct st_shader *sh;
    enum st_shader_type type;
    uint16_t ver;
    bool sm2;
    struct st_d3d9_comment *comments;
    unsigned ncomments, capcomments;
    bool oom;
};

static uint32_t dw(const struct reader *r, uint32_t i)
{
    const unsigned char *p = r->b + (size_t)i * 4;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The location of dword i. */
static struct st_loc at(uint32_t i)
{
    return (struct st_loc){1, i * 4u + 1};
}

static unsigned bc_locate(const void *map, struct st_loc loc, struct st_place *out, unsigned max)
{
    (void)map;
    (void)max;
    memset(out, 0, sizeof(*out));
    out->line = 0;
    out->column = loc.column;
    return 1;
}

/* ------------------------------------------------------------------ */
/* Parameters.                                                         */

static const char *type_name(unsigned t)
{
    static const char *const names[] = {
        "temp", "input", "const", "addr/texture", "rastout", "attrout", "output/texcrdout",
        "constint", "colorout", "depthout", "sampler", "const2", "const3", "const4",
        "constbool", "loop", "tempfloat16", "misctype", "label", "predicate"};
    return t < sizeof(names) / sizeof(names[0]) ? names[t] : "?";
}

/* The register a parameter token names. */
static bool decode_reg(struct reader *r, uint32_t i, uint32_t tok, struct st_reg *reg)
{
    unsigned t = bc_type_of(tok);
    uint32_t n = tok & 0x7ff;
    memset(reg, 0, sizeof(*reg));
    reg->loc = at(i);
    reg->index = n;
    uint32_t single = 0; /* files of one (or a few) registers: how many */
    switch (t) {
    case BT_TEMP: reg->file = ST_REG_TEMP; break;
    case BT_INPUT: reg->file = ST_REG_INPUT; break;
    case BT_CONST: case BT_CONST2: case BT_CONST3: case BT_CONST4:
        reg->file = ST_REG_CONST;
        reg->index = n + (t == BT_CONST ? 0 : 2048u * (t - BT_CONST2 + 1));
        break;
    case BT_ADDR: reg->file = r->type == ST_VS ? ST_REG_ADDR : ST_REG_TEXTURE; break;
    case BT_RASTOUT: reg->file = ST_REG_RASTOUT; single = 3; break;
    case BT_ATTROUT: reg->file = ST_REG_ATTROUT; break;
    case BT_OUTPUT:
        reg->file = r->type == ST_VS && r->ver >= ST_VER(3, 0) ? ST_REG_OUTPUT : ST_REG_TEXCRDOUT;
        break;
    case BT_CONSTINT: reg->file = ST_REG_CONSTINT; break;
    case BT_COLOROUT: reg->file = ST_REG_COLOROUT; break;
    case BT_DEPTHOUT: reg->file = ST_REG_DEPTHOUT; single = 1; break;
    case BT_SAMPLER: reg->file = ST_REG_SAMPLER; break;
    case BT_CONSTBOOL: reg->file = ST_REG_CONSTBOOL; break;
    case BT_LOOP: reg->file = ST_REG_LOOP; single = 1; break;
    case BT_MISCTYPE: reg->file = ST_REG_MISC; single = 2; break;
    case BT_LABEL: reg->file = ST_REG_LABEL; break;
    case BT_PREDICATE: reg->file = ST_REG_PREDICATE; break;
    default:
        st_error(r->ctx, at(i), ST_E_BC_OPERAND,
                 "parameter token 0x%08x: register type %u (%s) has no Direct3D 9 shader "
                 "register",
                 tok, t, type_name(t));
        return false;
    }
    if (single && n >= single) {
        st_error(r->ctx, at(i), ST_E_BC_OPERAND,
                 "parameter token 0x%08x: register type %s has no register %u", tok,
                 type_name(t), n);
        return false;
    }
    return true;
}

/* The address token after a relative register (2_0 and later). */
static bool decode_rel(struct reader *r, uint32_t i, struct st_reg *reg)
{
    uint32_t tok = dw(r, i);
    unsigned t = bc_type_of(tok);
    if (!(tok & BC_PARAM) || (t != BT_ADDR && t != BT_LOOP) || (tok & 0x0f00e000u) ||
        (t == BT_LOOP && (tok & 0x7ff))) {
        st_error(r->ctx, at(i), ST_E_BC_OPERAND,
                 "0x%08x is no address token (a0 or aL) for the relative register before it",
                 tok);
        return false;
    }
    struct st_reladdr *ra = st_arena_alloc(r->arena, sizeof(*ra));
    ra->file = t == BT_LOOP ? ST_REG_LOOP : ST_REG_ADDR;
    ra->index = tok & 0x7ff;
    uint8_t swz = (uint8_t)(tok >> 16);
    if (swz != ST_SWIZZLE_IDENTITY) {
        ra->has_component = true;
        ra->component = (uint8_t)ST_SWZ_LANE(swz, 0);
        if (swz != ra->component * 0x55u) {
            ra->swizzle = swz;
            ra->swizzle_len = 4;
        }
    }
    reg->rel = ra;
    return true;
}

/* vs_1_1's relative register: a0.x, no token. */
static void rel_sm1(struct reader *r, struct st_reg *reg)
{
    struct st_reladdr *ra = st_arena_alloc(r->arena, sizeof(*ra));
    ra->file = ST_REG_ADDR;
    ra->has_component = true;
    reg->rel = ra;
}

/* The shortest letters that spell a swizzle (the last one repeats). */
static uint8_t swizzle_len(uint8_t swz)
{
    if (swz == ST_SWIZZLE_IDENTITY)
        return 0;
    unsigned n = 4;
    while (n > 1 && ST_SWZ_LANE(swz, n - 2) == ST_SWZ_LANE(swz, 3))
        n--;
    return (uint8_t)n;
}

static bool decode_dst(struct reader *r, const uint32_t *p, uint32_t base, uint32_t len,
                       uint32_t *k, struct st_instr *in)
{
    uint32_t i = base + *k;
    uint32_t tok = p[*k];
    if (!(tok & BC_PARAM) || (tok & 0xc000u)) {
        st_error(r->ctx, at(i), ST_E_BC_OPERAND,
                 "0x%08x is no destination parameter token (%s)", tok,
                 !(tok & BC_PARAM) ? "bit 31 is clear" : "reserved bits 14-15 are set");
        return false;
    }
    uint32_t mod = (tok >> 20) & 0xf, shift = (tok >> 24) & 0xf;
    if (mod & 8) {
        st_error(r->ctx, at(i), ST_E_BC_OPERAND,
                 "destination token 0x%08x: result modifier 0x%x does not exist (_sat 1, _pp 2, "
                 "_centroid 4)",
                 tok, mod);
        return false;
    }
    if (shift >= 4 && shift <= 12) {
        st_error(r->ctx, at(i), ST_E_BC_OPERAND,
                 "destination token 0x%08x: shift %u does not exist (x2 .. x8, d2 .. d8)", tok,
                 shift);
        return false;
    }
    struct st_dst *d = &in->dst;
    if (!decode_reg(r, i, tok, &d->reg))
        return false;
    d->loc = at(i);
    d->writemask = (uint8_t)((tok >> 16) & 0xf);
    in->dstmod = (uint8_t)mod;
    in->shift = (int8_t)(shift >= 8 ? (int)shift - 16 : (int)shift);
    in->has_dst = true;
    (*k)++;
    if (tok & BC_RELATIVE) {
        if (!r->sm2) {
            rel_sm1(r, &d->reg);
        } else {
            if (*k >= len) {
                st_error(r->ctx, at(i), ST_E_BC_OPERAND,
                         "relative destination without its address token");
                return false;
            }
            if (!decode_rel(r, base + *k, &d->reg))
                return false;
            (*k)++;
        }
    }
    return true;
}

static bool decode_src(struct reader *r, const uint32_t *p, uint32_t base, uint32_t len,
                       uint32_t *k, struct st_src *s)
{
    uint32_t i = base + *k;
    uint32_t tok = p[*k];
    memset(s, 0, sizeof(*s));
    if (!(tok & BC_PARAM) || (tok & 0xc000u)) {
        st_error(r->ctx, at(i), ST_E_BC_OPERAND, "0x%08x is no source parameter token (%s)",
                 tok, !(tok & BC_PARAM) ? "bit 31 is clear" : "reserved bits 14-15 are set");
        return false;
    }
    uint32_t mod = (tok >> 24) & 0xf;
    if (mod > ST_SRCMOD_NOT) {
        st_error(r->ctx, at(i), ST_E_BC_OPERAND,
                 "source token 0x%08x: source modifier %u does not exist (0 .. 13)", tok, mod);
        return false;
    }
    if (!decode_reg(r, i, tok, &s->reg))
        return false;
    s->loc = at(i);
    s->mod = (enum st_srcmod)mod;
    s->swizzle = (uint8_t)(tok >> 16);
    s->swizzle_len = swizzle_len(s->swizzle);
    (*k)++;
    if (tok & BC_RELATIVE) {
        if (!r->sm2) {
            rel_sm1(r, &s->reg);
        } else {
            if (*k >= len) {
                st_error(r->ctx, at(i), ST_E_BC_OPERAND,
                         "relative source without its address token");
                return false;
            }
            if (!decode_rel(r, base + *k, &s->reg))
                return false;
            (*k)++;
        }
    }
    return true;
}

static bool decode_dcl(struct reader *r, const uint32_t *p, uint32_t base, struct st_instr *in)
{
    uint32_t u = p[0];
    if (!(u & BC_PARAM) || (u & 0x07f0ffe0u)) {
        st_error(r->ctx, at(base), ST_E_BC_OPERAND,
                 "0x%08x is no declaration token (%s)", u,
                 !(u & BC_PARAM) ? "bit 31 is clear" : "reserved bits are set");
        return false;
    }
    uint32_t usage = u & 0x1f, index = (u >> 16) & 0xf, tt = (u >> 27) & 0xf;
    uint32_t k = 1;
    if (!decode_dst(r, p, base, 2, &k, in))
        return false;
    if (in->dst.reg.rel) {
        st_error(r->ctx, at(base + 1), ST_E_BC_OPERAND,
                 "a declaration's register cannot be relatively addressed");
        return false;
    }
    if (tt) {
        if (usage || index || (tt != BC_STT_2D && tt != BC_STT_CUBE && tt != BC_STT_VOLUME)) {
            st_error(r->ctx, at(base), ST_E_BC_OPERAND,
                     "declaration token 0x%08x: texture type %u%s", u, tt,
                     usage || index ? " with a usage" : " does not exist (2d 2, cube 3, volume 4)");
            return false;
        }
        in->sampler_type = tt == BC_STT_2D ? ST_SAMPLER_2D
                           : tt == BC_STT_CUBE ? ST_SAMPLER_CUBE : ST_SAMPLER_VOLUME;
        return true;
    }
    if (in->dst.reg.file == ST_REG_SAMPLER) {
        if (usage || index) {
            st_error(r->ctx, at(base), ST_E_BC_OPERAND,
                     "declaration token 0x%08x: a usage on a sampler", u);
            return false;
        }
        in->dcl_bare = true; /* "dcl s0": the checker asks for a type */
        return true;
    }
    if (usage >= ST_USAGE_COUNT) {
        st_error(r->ctx, at(base), ST_E_BC_OPERAND,
                 "declaration token 0x%08x: usage %u does not exist (0 .. 13)", u, usage);
        return false;
    }
    /* Pixel shaders before 3_0 (and vPos/vFace) declare without a usage:
     * token 0 is "dcl t0", whatever the compiler meant. */
    bool bare_form = r->type == ST_PS && (r->ver < ST_VER(3, 0) || in->dst.reg.file == ST_REG_MISC);
    if (bare_form && usage == 0 && index == 0) {
        in->dcl_bare = true;
        return true;
    }
    in->usage = (enum st_usage)usage;
    in->usage_index = index;
    in->usage_index_written = index != 0;
    return true;
}

static bool decode_def(struct reader *r, const uint32_t *p, uint32_t base, struct st_instr *in)
{
    uint32_t k = 0;
    if (!decode_dst(r, p, base, in->op == ST_OP_DEFB ? 2 : 5, &k, in))
        return false;
    if (k != 1) {
        st_error(r->ctx, at(base), ST_E_BC_OPERAND,
                 "a constant definition's register cannot be relatively addressed");
        return false;
    }
    if (in->op == ST_OP_DEFB) {
        in->imm.b = p[1] != 0;
        in->imm_loc[0] = at(base + 1);
        return true;
    }
    for (int i = 0; i < 4; i++) {
        if (in->op == ST_OP_DEF)
            memcpy(&in->imm.f[i], &p[1 + i], 4);
        else
            in->imm.i[i] = (int32_t)p[1 + i];
        in->imm_loc[i] = at(base + 1 + (uint32_t)i);
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* Instructions.                                                       */

static void append(struct reader *r, struct st_instr *in)
{
    struct st_shader *sh = r->sh;
    if (sh->last)
        sh->last->next = in;
    else
        sh->first = in;
    sh->last = in;
    sh->num_instrs++;
}

/* Reads the instruction at dword i; returns the index after it, or 0 when
 * reading cannot go on (the rest is not where the instruction says). */
static uint32_t read_instr(struct reader *r, uint32_t i)
{
    uint32_t tok = dw(r, i);
    uint32_t number = tok & 0xffff, control = (tok >> 16) & 0xff, length = (tok >> 24) & 0xf;
    /* How many parameter tokens follow. */
    uint32_t n;
    int op = bc_opcode_from(number, control, r->type, r->ver);
    if (number == BC_OP_PHASE) {
        n = 0;
    } else if (r->sm2) {
        n = length;
    } else {
        n = op >= 0 ? bc_fixed_params((enum st_opcode)op) : 0;
        if (n == 0) {
            while (i + 1 + n < r->ndw && (dw(r, i + 1 + n) & BC_PARAM) && n < 15)
                n++;
            /* 1.x tokens carry no length: a blob that ends inside the
             * instruction is told by the operands the instruction has */
            if (op >= 0 && i + 1 + n == r->ndw &&
                n < (uint32_t)st_opinfo[op].ndst + st_opinfo[op].nsrc)
                n = (uint32_t)st_opinfo[op].ndst + st_opinfo[op].nsrc;
        }
    }
    if ((uint64_t)i + 1 + n > r->ndw) {
        st_error(r->ctx, at(i), ST_E_BC_INSTRUCTION,
                 "instruction token 0x%08x: its %u parameter token%s run%s past the end of the "
                 "blob",
                 tok, n, n == 1 ? "" : "s", n == 1 ? "s" : "");
        return 0;
    }
    uint32_t next = i + 1 + n;
    if (number == BC_OP_PHASE && tok != 0x0000fffdu) {
        st_error(r->ctx, at(i), ST_E_BC_INSTRUCTION,
                 "phase token 0x%08x: reserved bits 0x%08x are set", tok, tok & 0xffff0000u);
        return next;
    }
    if (op < 0) {
        bool known = false; /* the number exists, with another control value */
        for (uint32_t c = 0; c <= 6 && !known; c++)
            known = bc_opcode_from(number, c, r->type, r->ver) >= 0;
        if (known)
            st_error(r->ctx, at(i), ST_E_BC_INSTRUCTION,
                     "instruction token 0x%08x: control value %u does not exist for "
                     "instruction %u",
                     tok, control, number);
        else
            st_error(r->ctx, at(i), ST_E_BC_INSTRUCTION,
                     "instruction token 0x%08x: instruction %u does not exist", tok, number);
        return next;
    }
    uint32_t bad = tok & (number == BC_OP_PHASE ? 0xffff0000u
                                                : r->sm2 ? 0xa0000000u : 0xaf000000u);
    if (bad) {
        st_error(r->ctx, at(i), ST_E_BC_INSTRUCTION,
                 "instruction token 0x%08x: reserved bits 0x%08x are set%s", tok, bad,
                 !r->sm2 && (bad & 0x0f000000u) ? " (no length field before 2_0)" : "");
        return next;
    }
    struct st_instr *in = st_arena_alloc(r->arena, sizeof(*in));
    in->op = (enum st_opcode)op;
    in->loc = at(i);
    in->predicated = (tok & BC_PREDICATED) != 0;
    in->coissue = (tok & BC_COISSUE) != 0;
    if (in->op == ST_OP_IFC || in->op == ST_OP_BREAKC || in->op == ST_OP_SETP)
        in->cmp = (enum st_compare)control;
    const uint32_t *p = NULL;
    uint32_t buf[16];
    if (n > 16) {
        st_error(r->ctx, at(i), ST_E_BC_INSTRUCTION, "instruction with %u parameters", n);
        return next;
    }
    for (uint32_t k = 0; k < n; k++)
        buf[k] = dw(r, i + 1 + k);
    p = buf;
    uint32_t base = i + 1;
    unsigned errors = st_error_count(r->ctx);
    if (in->op == ST_OP_DCL || in->op == ST_OP_DEF || in->op == ST_OP_DEFI ||
        in->op == ST_OP_DEFB) {
        uint32_t want = bc_fixed_params(in->op);
        if (n != want) {
            st_error(r->ctx, at(i), ST_E_BC_INSTRUCTION,
                     "instruction token 0x%08x: %s has %u parameter tokens, not %u", tok,
                     st_opinfo[in->op].name, want, n);
            return next;
        }
        if (in->op == ST_OP_DCL ? !decode_dcl(r, p, base, in) : !decode_def(r, p, base, in))
            return next;
    } else {
        uint32_t k = 0;
        if (st_opinfo[in->op].ndst && k < n && !decode_dst(r, p, base, n, &k, in))
            return next;
        if (in->predicated) {
            if (k >= n) {
                st_error(r->ctx, at(i), ST_E_BC_INSTRUCTION,
                         "predicated instruction without its predicate token");
                return next;
            }
            if (!decode_src(r, p, base, n, &k, &in->pred))
                return next;
        }
        while (k < n) {
            if (in->nsrc == 5) {
                st_error(r->ctx, at(base + k), ST_E_BC_INSTRUCTION,
                         "more than five source parameters");
                return next;
            }
            if (!decode_src(r, p, base, n, &k, &in->src[in->nsrc]))
                return next;
            in->nsrc++;
        }
    }
    if (st_error_count(r->ctx) == errors)
        append(r, in);
    return next;
}

static bool add_comment(struct reader *r, uint32_t i, uint32_t n)
{
    if (r->ncomments == r->capcomments) {
        unsigned cap = r->capcomments ? r->capcomments * 2 : 4;
        struct st_d3d9_comment *c = realloc(r->comments, cap * sizeof(*c));
        if (!c) {
            r->oom = true;
            return false;
        }
        r->comments = c;
        r->capcomments = cap;
    }
    uint32_t *data = st_arena_alloc(r->arena, (size_t)(n ? n : 1) * 4);
    if (!data || st_arena_failed(r->arena)) {
        r->oom = true;
        return false;
    }
    for (uint32_t k = 0; k < n; k++)
        data[k] = dw(r, i + 1 + k);
    r->comments[r->ncomments++] =
        (struct st_d3d9_comment){data, n, r->sh->num_instrs, at(i)};
    return true;
}

struct st_shader *st_read_d3d9_bytecode(struct st_ctx *ctx, struct st_arena *arena)
{
    size_t len;
    const char *src = st_ctx_source(ctx, &len);
    if (!src)
        len = 0;
    st_ctx_set_text(ctx, src, len, bc_locate, NULL);
    struct st_shader *sh = st_arena_alloc(arena, sizeof(*sh));
    if (st_arena_failed(arena)) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    sh->dialect = ST_D3D9;
    sh->arena = arena;
    struct reader r;
    memset(&r, 0, sizeof(r));
    r.ctx = ctx;
    r.arena = arena;
    r.b = (const unsigned char *)src;
    r.sh = sh;
    if (len > (size_t)UINT32_MAX / 2) {
        st_error(ctx, at(0), ST_E_BC_FORMAT, "the blob is too large (%zu bytes)", len);
        return NULL;
    }
    r.ndw = (uint32_t)(len / 4);
    if (len % 4)
        st_error(ctx, at(r.ndw), ST_E_BC_FORMAT,
                 "the blob is %zu bytes, no multiple of 4: bytecode is a sequence of 32-bit "
                 "tokens",
                 len);
    if (r.ndw == 0) {
        st_error(ctx, at(0), ST_E_BC_FORMAT, "no version token: the blob is empty");
        return NULL;
    }
    uint32_t v = dw(&r, 0);
    uint32_t hi = v >> 16, maj = (v >> 8) & 0xff, min = v & 0xff;
    if (hi != 0xfffe && hi != 0xffff) {
        st_error(ctx, at(0), ST_E_BC_FORMAT,
                 "0x%08x is no version token (0xfffe.... vertex, 0xffff.... pixel shader)", v);
        return NULL;
    }
    r.type = hi == 0xfffe ? ST_VS : ST_PS;
    bool vs = r.type == ST_VS;
    bool known = (maj == 1 && (min == 1 || (vs && min == 0) || (!vs && min >= 2 && min <= 4))) ||
                 (maj == 2 && min <= 1) || (maj == 3 && min == 0);
    if (!known) {
        st_error(ctx, at(0), ST_E_BAD_VERSION,
                 "version token 0x%08x: %s_%u_%u does not exist (vs_1_0 .. vs_3_0, ps_1_1 .. "
                 "ps_3_0)",
                 v, vs ? "vs" : "ps", maj, min);
        return NULL;
    }
    r.ver = (uint16_t)ST_VER(maj, min);
    r.sm2 = maj >= 2;
    sh->version.type = r.type;
    sh->version.ver = r.ver;
    sh->version.loc = at(0);

    uint32_t i = 1;
    bool ended = false;
    while (i < r.ndw && !st_error_limit_reached(ctx) && !r.oom) {
        uint32_t tok = dw(&r, i);
        if (tok == BC_END) {
            ended = true;
            i++;
            break;
        }
        if ((tok & 0xffff) == BC_OP_COMMENT) {
            uint32_t n = (tok >> 16) & 0x7fff;
            if (tok & BC_PARAM) {
                st_error(ctx, at(i), ST_E_BC_FORMAT,
                         "comment token 0x%08x has bit 31 set", tok);
                break;
            }
            if ((uint64_t)i + 1 + n > r.ndw) {
                st_error(ctx, at(i), ST_E_BC_FORMAT,
                         "comment block of %u dwords runs past the end of the blob (%u left)", n,
                         r.ndw - i - 1);
                break;
            }
            if (!add_comment(&r, i, n))
                break;
            i += 1 + n;
            continue;
        }
        if (tok & BC_PARAM) {
            st_error(ctx, at(i), ST_E_BC_INSTRUCTION,
                     "0x%08x where an instruction token goes (bit 31 is set: a parameter "
                     "token)",
                     tok);
            i++;
            continue;
        }
        uint32_t next = read_instr(&r, i);
        if (next == 0)
            break;
        i = next;
    }
    if (!ended && !st_error_limit_reached(ctx) && !r.oom && st_error_count(ctx) == 0)
        st_error(ctx, at(r.ndw), ST_E_BC_FORMAT,
                 "no end token (0x0000ffff) before the end of the blob");
    else if (ended && i < r.ndw)
        st_warning(ctx, at(i), ST_W_IGNORED, "%u byte%s after the end token ignored",
                   (unsigned)(len - (size_t)i * 4), len - (size_t)i * 4 == 1 ? "" : "s");

    if (r.ncomments) {
        sh->comments = st_arena_alloc(arena, r.ncomments * sizeof(*sh->comments));
        if (sh->comments && !st_arena_failed(arena)) {
            memcpy(sh->comments, r.comments, r.ncomments * sizeof(*sh->comments));
            sh->num_comments = r.ncomments;
        }
    }
    free(r.comments);
    for (unsigned k = 0; k < sh->num_comments; k++) {
        const char *why = NULL;
        const struct st_ctab *t =
            st_d3d9_parse_ctab(sh->comments[k].data, sh->comments[k].ndwords, arena, &why);
        if (t && !sh->ctab)
            sh->ctab = t;
        else if (!t && why)
            st_warning(ctx, sh->comments[k].loc, ST_W_BC_CTAB,
                       "the constant table in this comment block is ignored: %s", why);
    }
    if (r.oom || st_arena_failed(arena)) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    return sh;
}
