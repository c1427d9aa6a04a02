/*
 * reflect.c — what a checked Direct3D 9 shader uses, as JSON
 * (--emit=reflect; the layout is in docs/d3d9-front-end.md): its inputs
 * and outputs with usage and components, the float / int / bool constants
 * it reads (ranges), defines (def/defi/defb values) and reads relatively
 * (with the range a loop's aL covers when its defi is known), its
 * samplers with their texture types, its texture coordinates, and the
 * bytecode's constant table when it had one.
 *
 * Everything is read off the AST in two walks (the defi values first, so a
 * loop's range is known wherever its defi stands), in time linear in the
 * shader.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translator.h"

enum {
    NV = 32,        /* v# tracked (vs_3_0 reads v0..v15; relative bases may pass them) */
    NT = 16,        /* t# */
    NCONST = 2048,  /* c#, i#, b# below the checker's encodable bound */
    NSAMPLER = 16,
    MAX_REL = 256,  /* distinct relative reads listed */
};

struct io { /* one input register */
    bool used, declared;
    uint8_t dcl_mask; /* the dcl's write mask */
    uint8_t mask;     /* the lanes read */
    int usage; /* -1: none */
    uint32_t usage_index;
};

struct rel { /* a relatively addressed access */
    enum st_regfile file;
    uint32_t base;
    const struct st_reladdr *ra;
    bool write;
    bool known;       /* the loop range of aL is known */
    bool empty;       /* ... and the loop never runs */
    int64_t first, last;
};

struct loop { /* an open loop: the values aL takes */
    bool known, empty;
    int64_t min, max;
};

struct refl {
    const struct st_shader *sh;
    bool ps1x;
    struct io v[NV], t[NT], misc[2];
    uint8_t out_mask[ST_LL_OUT_SLOTS]; /* the lanes written */
    int out_usage[12];            /* vs_3_0 o#: from dcl */
    uint8_t out_dcl_mask[12];
    uint32_t out_usage_index[12];
    bool out_declared[12];
    uint8_t cread[3][NCONST / 8]; /* read: float, int, bool */
    bool ideclared[NCONST], idef_known[16];
    int32_t idef[16][4];
    struct rel rels[MAX_REL];
    unsigned nrels;
    bool rels_truncated;
    struct { bool used, declared; enum st_sampler_type type; } s[NSAMPLER];
    struct loop loops[64];
    unsigned nloops;   /* may exceed 64: deeper loops are unknown */
    bool in_sub;       /* in a subroutine: aL comes from the caller */
};

static void mark(uint8_t *bits, uint32_t i)
{
    if (i < NCONST)
        bits[i / 8] |= (uint8_t)(1u << (i % 8));
}

static bool marked(const uint8_t *bits, uint32_t i)
{
    return i < NCONST && (bits[i / 8] >> (i % 8)) & 1;
}

/* The lanes an operand reads (bit i = lane i), from its swizzle and what
 * the instruction does with it. */
static uint8_t lanes_read(const struct st_instr *in, unsigned k, const struct st_src *s)
{
    uint8_t swz = s->swizzle;
    enum st_opcode op = in->op;
    unsigned n = 4;
    bool per_lane = false;
    switch (op) {
    case ST_OP_MOV: case ST_OP_ADD: case ST_OP_SUB: case ST_OP_MAD: case ST_OP_MUL:
    case ST_OP_MIN: case ST_OP_MAX: case ST_OP_SLT: case ST_OP_SGE: case ST_OP_FRC:
    case ST_OP_ABS: case ST_OP_LRP: case ST_OP_CMP: case ST_OP_CND: case ST_OP_DSX:
    case ST_OP_DSY: case ST_OP_MOVA: case ST_OP_SGN: case ST_OP_SETP:
        per_lane = in->has_dst;
        break;
    case ST_OP_DP3: case ST_OP_CRS: n = 3; break;
    case ST_OP_DP2ADD: n = k == 2 ? 1 : 2; break;
    case ST_OP_M3x2: case ST_OP_M3x3: case ST_OP_M3x4: n = 3; break;
    default:
        if ((st_opinfo[op].flags & OPF_SCALAR_SRC) && !(op == ST_OP_SINCOS && k > 0))
            n = 1;
        break;
    }
    uint8_t m = 0;
    if (per_lane) {
        for (unsigned i = 0; i < 4; i++)
            if (in->dst.writemask & (1u << i))
                m |= (uint8_t)(1u << ST_SWZ_LANE(swz, i));
        return m;
    }
    for (unsigned i = 0; i < n; i++)
        m |= (uint8_t)(1u << ST_SWZ_LANE(swz, i));
    return m;
}

static void add_rel(struct refl *r, const struct st_reg *reg, bool write)
{
    struct rel e;
    memset(&e, 0, sizeof(e));
    e.file = reg->file;
    e.base = reg->index;
    e.ra = reg->rel;
    e.write = write;
    if (reg->rel->file == ST_REG_LOOP && r->nloops && r->nloops <= 64 && !r->in_sub) {
        const struct loop *l = &r->loops[r->nloops - 1];
        if (l->known) {
            e.known = true;
            e.empty = l->empty;
            e.first = (int64_t)reg->index + l->min;
            e.last = (int64_t)reg->index + l->max;
        }
    }
    for (unsigned i = 0; i < r->nrels; i++) {
        struct rel *o = &r->rels[i];
        if (o->file == e.file && o->base == e.base && o->write == e.write &&
            o->ra->file == e.ra->file && o->ra->component == e.ra->component &&
            o->known == e.known && o->empty == e.empty && o->first == e.first &&
            o->last == e.last)
            return;
    }
    if (r->nrels == MAX_REL) {
        r->rels_truncated = true;
        return;
    }
    r->rels[r->nrels++] = e;
}

/* The input a register is, or NULL. */
static struct io *input_of(struct refl *r, const struct st_reg *reg)
{
    if (reg->file == ST_REG_INPUT && reg->index < NV)
        return &r->v[reg->index];
    if (reg->file == ST_REG_TEXTURE && reg->index < NT)
        return &r->t[reg->index];
    if (reg->file == ST_REG_MISC && reg->index < 2)
        return &r->misc[reg->index];
    return NULL;
}

static void use_input(struct refl *r, const struct st_reg *reg, uint8_t lanes)
{
    struct io *io = input_of(r, reg);
    if (io) {
        io->used = true;
        io->mask |= lanes;
    }
}

static void read_src(struct refl *r, const struct st_instr *in, unsigned k, const struct st_src *s)
{
    const struct st_reg *reg = &s->reg;
    if (reg->rel) {
        add_rel(r, reg, false);
        return;
    }
    unsigned rows = 1;
    if ((st_opinfo[in->op].flags & OPF_MATRIX) && k == 1)
        rows = in->op == ST_OP_M4x4 || in->op == ST_OP_M3x4 ? 4
               : in->op == ST_OP_M4x3 || in->op == ST_OP_M3x3 ? 3 : 2;
    switch (reg->file) {
    case ST_REG_CONST:
        for (unsigned i = 0; i < rows; i++)
            mark(r->cread[0], reg->index + i);
        break;
    case ST_REG_CONSTINT: mark(r->cread[1], reg->index); break;
    case ST_REG_CONSTBOOL: mark(r->cread[2], reg->index); break;
    case ST_REG_SAMPLER:
        if (reg->index < NSAMPLER)
            r->s[reg->index].used = true;
        break;
    default:
        for (unsigned i = 0; i < rows; i++) {
            struct st_reg row = *reg;
            row.index += i;
            use_input(r, &row, lanes_read(in, k, s));
        }
        break;
    }
}

/* ps_1_1 .. ps_1_3: which texture instructions sample their stage (the
 * others only read the coordinates). */
static bool samples(enum st_opcode op)
{
    switch (op) {
    case ST_OP_TEX: case ST_OP_TEXBEM: case ST_OP_TEXBEML: case ST_OP_TEXREG2AR:
    case ST_OP_TEXREG2GB: case ST_OP_TEXREG2RGB: case ST_OP_TEXM3x2TEX: case ST_OP_TEXM3x3TEX:
    case ST_OP_TEXM3x3SPEC: case ST_OP_TEXM3x3VSPEC: case ST_OP_TEXDP3TEX:
        return true;
    default:
        return false;
    }
}

static void dcl(struct refl *r, const struct st_instr *in)
{
    const struct st_reg *reg = &in->dst.reg;
    if (reg->file == ST_REG_SAMPLER) {
        if (reg->index < NSAMPLER) {
            r->s[reg->index].declared = true;
            r->s[reg->index].type = in->sampler_type;
        }
        return;
    }
    struct io *io = input_of(r, reg);
    if (io) {
        io->declared = true;
        if (!in->dcl_bare) {
            io->usage = (int)in->usage;
            io->usage_index = in->usage_index;
        }
        io->dcl_mask |= in->dst.writemask;
    } else if (reg->file == ST_REG_OUTPUT && reg->index < 12) {
        r->out_declared[reg->index] = true;
        r->out_dcl_mask[reg->index] |= in->dst.writemask;
        r->out_usage[reg->index] = (int)in->usage;
        r->out_usage_index[reg->index] = in->usage_index;
    }
}

static void write_dst(struct refl *r, const struct st_instr *in)
{
    const struct st_reg *reg = &in->dst.reg;
    if (reg->rel) {
        add_rel(r, reg, true);
        return;
    }
    int slot = st_run_out_slot(reg->file, reg->index);
    if (r->ps1x && reg->file == ST_REG_TEMP && reg->index == 0)
        slot = ST_LL_OUT_C; /* ps_1_x's color is the final r0 */
    if (slot >= 0)
        r->out_mask[slot] |= in->dst.writemask;
}

static void walk(struct refl *r)
{
    const struct st_shader *sh = r->sh;
    /* defi values first: a loop may come before its defi. */
    for (const struct st_instr *in = sh->first; in; in = in->next)
        if (in->op == ST_OP_DEFI && in->has_dst && in->dst.reg.index < 16) {
            r->idef_known[in->dst.reg.index] = true;
            memcpy(r->idef[in->dst.reg.index], in->imm.i, sizeof(in->imm.i));
        }
    for (const struct st_instr *in = sh->first; in; in = in->next) {
        enum st_opcode op = in->op;
        if (op == ST_OP_DCL) {
            if (in->has_dst)
                dcl(r, in);
            continue;
        }
        if (op == ST_OP_DEF || op == ST_OP_DEFI || op == ST_OP_DEFB)
            continue;
        if (op == ST_OP_LABEL)
            r->in_sub = true; /* a subroutine: aL is the caller's */
        if (op == ST_OP_LOOP) {
            struct loop l = {false, false, 0, 0};
            if (in->nsrc >= 2 && in->src[1].reg.file == ST_REG_CONSTINT &&
                in->src[1].reg.index < 16 && !in->src[1].reg.rel &&
                r->idef_known[in->src[1].reg.index]) {
                const int32_t *v = r->idef[in->src[1].reg.index];
                /* D3D9: count i.x (0..255), start i.y, step i.z. */
                int64_t count = v[0] < 0 ? 0 : v[0] > 255 ? 255 : v[0];
                int64_t a = v[1], b = (int64_t)v[1] + (count - 1) * (int64_t)v[2];
                l.known = true;
                l.empty = count == 0;
                l.min = a < b ? a : b;
                l.max = a < b ? b : a;
            }
            if (r->nloops < 64)
                r->loops[r->nloops] = l;
            r->nloops++;
        } else if (op == ST_OP_ENDLOOP && r->nloops) {
            r->nloops--;
        }
        for (unsigned k = 0; k < in->nsrc && k < 5; k++)
            read_src(r, in, k, &in->src[k]);
        if (in->predicated)
            read_src(r, in, 0, &in->pred);
        if (in->has_dst) {
            if (r->ps1x && in->dst.reg.file == ST_REG_TEXTURE &&
                (st_opinfo[op].flags & OPF_TEX1X || op == ST_OP_TEXKILL)) {
                /* tex t1: reads texture coordinate set 1, samples stage 1. */
                use_input(r, &in->dst.reg, 0xf);
                if (samples(op) && in->dst.reg.index < NSAMPLER)
                    r->s[in->dst.reg.index].used = true;
            } else if (op == ST_OP_TEXKILL) {
                use_input(r, &in->dst.reg, 0x7);
            } else {
                write_dst(r, in);
            }
            if (r->ps1x && op == ST_OP_TEXLD && in->dst.reg.index < NSAMPLER)
                r->s[in->dst.reg.index].used = true; /* ps_1_4: texld r2 samples stage 2 */
        }
    }
}

/* ------------------------------------------------------------------ */
/* JSON.                                                               */

static void mask_str(uint8_t m, char buf[6])
{
    char *p = buf;
    for (int i = 0; i < 4; i++)
        if (m & (1u << i))
            *p++ = "xyzw"[i];
    *p = '\0';
}

static void put_float(struct st_buf *b, float f)
{
    char buf[48];
    if (isnan(f))
        st_buf_printf(b, "\"nan\"");
    else if (isinf(f))
        st_buf_printf(b, f > 0 ? "\"inf\"" : "\"-inf\"");
    else {
        st_float_text(f, buf);
        st_buf_printf(b, "%s", buf);
    }
}

static void put_string(struct st_buf *b, const char *s)
{
    st_buf_putc(b, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            st_buf_printf(b, "\\%c", c);
        else if (c < 0x20)
            st_buf_printf(b, "\\u%04x", c);
        else
            st_buf_putc(b, (char)c);
    }
    st_buf_putc(b, '"');
}

static const char *usage_name(int u)
{
    return u >= 0 && u < ST_USAGE_COUNT ? st_usage_names[u] : NULL;
}

/*
 * One register entry: {"register", "usage", "usage_index", "mask" (the
 * declared components; those used when there is no dcl), "read" or
 * "written" (the components the instructions use), "declared"}.
 */
static void put_io(struct st_buf *b, const char *sep, const char *name, int usage,
                   uint32_t usage_index, uint8_t dcl_mask, uint8_t used, const char *use,
                   bool declared)
{
    char mb[6], ub[6];
    mask_str(declared ? dcl_mask : used, mb);
    mask_str(used, ub);
    st_buf_printf(b, "%s\n    {\"register\": ", sep);
    put_string(b, name);
    if (usage_name(usage)) {
        st_buf_printf(b, ", \"usage\": \"%s\", \"usage_index\": %u", usage_name(usage),
                      (unsigned)usage_index);
    } else {
        st_buf_printf(b, ", \"usage\": null, \"usage_index\": null");
    }
    st_buf_printf(b, ", \"mask\": \"%s\", \"%s\": \"%s\", \"declared\": %s}", mb, use, ub,
                  declared ? "true" : "false");
}

struct texcoord {
    char name[12];
    uint32_t set;
    uint8_t mask;
};

static void put_inputs(const struct refl *r, struct st_buf *b, struct texcoord *tc, unsigned *ntc)
{
    const struct st_shader *sh = r->sh;
    bool ps = sh->version.type == ST_PS;
    bool implied = ps && sh->version.ver < ST_VER(3, 0); /* ps_1_x, ps_2_x: usage by file */
    const char *sep = "";
    st_buf_printf(b, "  \"inputs\": [");
    for (unsigned i = 0; i < NV; i++) {
        const struct io *io = &r->v[i];
        if (!io->used && !io->declared)
            continue;
        char name[12];
        snprintf(name, sizeof(name), "v%u", i);
        int usage = io->usage;
        uint32_t ui = io->usage_index;
        if (implied) {
            usage = ST_USAGE_COLOR;
            ui = i;
        }
        put_io(b, sep, name, usage, ui, io->dcl_mask, io->mask, "read", io->declared);
        if (usage == ST_USAGE_TEXCOORD && *ntc < 64) {
            memcpy(tc[*ntc].name, name, sizeof(name));
            tc[*ntc].set = ui;
            tc[(*ntc)++].mask = io->declared ? io->dcl_mask : io->mask;
        }
        sep = ",";
    }
    for (unsigned i = 0; i < NT; i++) {
        const struct io *io = &r->t[i];
        if (!io->used && !io->declared)
            continue;
        char name[12];
        snprintf(name, sizeof(name), "t%u", i);
        /* t# is texture coordinate set # (a ps_2_x dcl_texcoord usage is ignored). */
        put_io(b, sep, name, ST_USAGE_TEXCOORD, i, io->dcl_mask, io->mask, "read", io->declared);
        if (*ntc < 64) {
            memcpy(tc[*ntc].name, name, sizeof(name));
            tc[*ntc].set = i;
            tc[(*ntc)++].mask = io->declared ? io->dcl_mask : io->mask;
        }
        sep = ",";
    }
    for (unsigned i = 0; i < 2; i++) {
        const struct io *io = &r->misc[i];
        if (!io->used && !io->declared)
            continue;
        put_io(b, sep, i == ST_MISC_POS ? "vPos" : "vFace", -1, 0, io->dcl_mask, io->mask, "read",
               io->declared);
        sep = ",";
    }
    st_buf_printf(b, "%s],\n", *sep ? "\n  " : "");
}

static void put_outputs(const struct refl *r, struct st_buf *b, struct texcoord *tc, unsigned *ntc)
{
    const struct st_shader *sh = r->sh;
    struct st_run_output regs[ST_RUN_MAX_OUTPUTS];
    unsigned n = st_run_output_regs(sh, regs);
    const char *sep = "";
    st_buf_printf(b, "  \"outputs\": [");
    for (unsigned i = 0; i < n; i++) {
        char name[8];
        st_run_output_name(regs[i].file, regs[i].index, name);
        int slot = st_run_out_slot(regs[i].file, regs[i].index);
        uint8_t mask = slot >= 0 ? r->out_mask[slot] : 0;
        int usage = -1;
        uint32_t ui = 0;
        bool declared = false;
        uint8_t dmask = 0;
        switch (regs[i].file) {
        case ST_REG_RASTOUT:
            usage = regs[i].index == ST_RASTOUT_POS ? ST_USAGE_POSITION
                    : regs[i].index == ST_RASTOUT_FOG ? ST_USAGE_FOG : ST_USAGE_PSIZE;
            break;
        case ST_REG_ATTROUT: usage = ST_USAGE_COLOR; ui = regs[i].index; break;
        case ST_REG_TEXCRDOUT: usage = ST_USAGE_TEXCOORD; ui = regs[i].index; break;
        case ST_REG_OUTPUT:
            if (regs[i].index < 12 && r->out_declared[regs[i].index]) {
                usage = r->out_usage[regs[i].index];
                ui = r->out_usage_index[regs[i].index];
                dmask = r->out_dcl_mask[regs[i].index];
                declared = true;
            }
            break;
        case ST_REG_COLOROUT: usage = ST_USAGE_COLOR; ui = regs[i].index; break;
        case ST_REG_DEPTHOUT: usage = ST_USAGE_DEPTH; break;
        default: break;
        }
        if (regs[i].file == ST_REG_OUTPUT && mask == 0)
            mask = 0xf; /* written through o[aL + n] */
        if (r->ps1x && regs[i].file == ST_REG_COLOROUT && mask == 0)
            mask = 0xf;
        put_io(b, sep, name, usage, ui, dmask, mask, "written", declared);
        if (usage == ST_USAGE_TEXCOORD && sh->version.type == ST_VS && *ntc < 64) {
            memcpy(tc[*ntc].name, name, sizeof(name));
            tc[*ntc].set = ui;
            tc[(*ntc)++].mask = declared ? dmask : mask;
        }
        sep = ",";
    }
    st_buf_printf(b, "%s],\n", *sep ? "\n  " : "");
}

static const char *file_letter(enum st_regfile f)
{
    return st_regfile_name(f, 0);
}

static void put_constants(const struct refl *r, struct st_buf *b, unsigned set)
{
    static const char *const keys[] = {"float_constants", "int_constants", "bool_constants"};
    static const enum st_regfile files[] = {ST_REG_CONST, ST_REG_CONSTINT, ST_REG_CONSTBOOL};
    static const enum st_opcode defs[] = {ST_OP_DEF, ST_OP_DEFI, ST_OP_DEFB};
    st_buf_printf(b, "  \"%s\": {\n    \"read\": [", keys[set]);
    const char *sep = "";
    for (uint32_t i = 0; i < NCONST;) {
        if (!marked(r->cread[set], i)) {
            i++;
            continue;
        }
        uint32_t j = i;
        while (j < NCONST && marked(r->cread[set], j))
            j++;
        st_buf_printf(b, "%s{\"first\": %u, \"count\": %u}", sep, (unsigned)i, (unsigned)(j - i));
        sep = ", ";
        i = j;
    }
    st_buf_printf(b, "],\n    \"relative\": [");
    sep = "";
    for (unsigned i = 0; i < r->nrels; i++) {
        const struct rel *e = &r->rels[i];
        if (e->file != files[set])
            continue;
        char addr[12];
        if (e->ra->file == ST_REG_LOOP)
            snprintf(addr, sizeof(addr), "aL");
        else
            snprintf(addr, sizeof(addr), "a%u.%c", (unsigned)e->ra->index,
                     "xyzw"[e->ra->has_component ? e->ra->component & 3 : 0]);
        st_buf_printf(b, "%s\n      {\"base\": %u, \"address\": \"%s\"", sep, (unsigned)e->base,
                      addr);
        if (e->known && e->empty)
            st_buf_printf(b, ", \"first\": null, \"last\": null, \"never\": true}");
        else if (e->known)
            st_buf_printf(b, ", \"first\": %lld, \"last\": %lld}", (long long)e->first,
                          (long long)e->last);
        else
            st_buf_printf(b, ", \"first\": null, \"last\": null}");
        sep = ",";
    }
    st_buf_printf(b, "%s],\n    \"defined\": [", *sep ? "\n    " : "");
    sep = "";
    for (const struct st_instr *in = r->sh->first; in; in = in->next) {
        if (in->op != defs[set] || !in->has_dst)
            continue;
        st_buf_printf(b, "%s\n      {\"register\": \"%s%u\", \"value\": ", sep, file_letter(files[set]),
                      (unsigned)in->dst.reg.index);
        if (set == 2) {
            st_buf_printf(b, "%s}", in->imm.b ? "true" : "false");
        } else {
            st_buf_putc(b, '[');
            for (int k = 0; k < 4; k++) {
                if (k)
                    st_buf_printf(b, ", ");
                if (set == 0)
                    put_float(b, in->imm.f[k]);
                else
                    st_buf_printf(b, "%d", (int)in->imm.i[k]);
            }
            st_buf_printf(b, "]}");
        }
        sep = ",";
    }
    st_buf_printf(b, "%s]\n  },\n", *sep ? "\n    " : "");
}

static void put_io_relative(const struct refl *r, struct st_buf *b)
{
    st_buf_printf(b, "  \"relative_registers\": [");
    const char *sep = "";
    for (unsigned i = 0; i < r->nrels; i++) {
        const struct rel *e = &r->rels[i];
        if (e->file == ST_REG_CONST || e->file == ST_REG_CONSTINT || e->file == ST_REG_CONSTBOOL)
            continue;
        st_buf_printf(b, "%s\n    {\"register\": \"%s%u\", \"address\": \"%s\", \"access\": \"%s\"",
                      sep, file_letter(e->file), (unsigned)e->base,
                      e->ra->file == ST_REG_LOOP ? "aL" : "a0", e->write ? "write" : "read");
        if (e->known && !e->empty)
            st_buf_printf(b, ", \"first\": %lld, \"last\": %lld}", (long long)e->first,
                          (long long)e->last);
        else
            st_buf_printf(b, ", \"first\": null, \"last\": null}");
        sep = ",";
    }
    st_buf_printf(b, "%s],\n", *sep ? "\n  " : "");
}

bool st_reflect_json(struct st_ctx *ctx, const struct st_shader *sh, struct st_buf *out)
{
    if (!sh)
        return false;
    if (sh->dialect != ST_D3D9) {
        st_error(ctx, sh->version.loc, ST_E_NOT_SUPPORTED,
                 "--emit=reflect describes Direct3D 9 shaders, not ARB programs");
        return false;
    }
    struct refl *r = calloc(1, sizeof(*r));
    if (!r) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    r->sh = sh;
    r->ps1x = sh->version.type == ST_PS && sh->version.ver < ST_VER(2, 0);
    for (unsigned i = 0; i < NV; i++)
        r->v[i].usage = -1;
    for (unsigned i = 0; i < 2; i++)
        r->misc[i].usage = -1;
    for (unsigned i = 0; i < 12; i++)
        r->out_usage[i] = -1;
    walk(r);

    const struct st_version *v = &sh->version;
    st_buf_printf(out, "{\n  \"shader\": \"%s_", v->type == ST_VS ? "vs" : "ps");
    if (v->ver == ST_VER_2X)
        st_buf_printf(out, "2_x\",\n");
    else
        st_buf_printf(out, "%u_%u\",\n", (unsigned)(v->ver >> 8), (unsigned)(v->ver & 0xff));
    struct texcoord tc[64];
    unsigned ntc = 0;
    put_inputs(r, out, tc, &ntc);
    put_outputs(r, out, tc, &ntc);
    st_buf_printf(out, "  \"texcoords\": [");
    for (unsigned i = 0; i < ntc; i++) {
        char mb[6];
        mask_str(tc[i].mask, mb);
        st_buf_printf(out, "%s\n    {\"register\": \"%s\", \"set\": %u, \"mask\": \"%s\"}",
                      i ? "," : "", tc[i].name, (unsigned)tc[i].set, mb);
    }
    st_buf_printf(out, "%s],\n", ntc ? "\n  " : "");
    for (unsigned set = 0; set < 3; set++)
        put_constants(r, out, set);
    put_io_relative(r, out);
    st_buf_printf(out, "  \"samplers\": [");
    const char *sep = "";
    for (unsigned i = 0; i < NSAMPLER; i++) {
        if (!r->s[i].used && !r->s[i].declared)
            continue;
        static const char *const types[] = {NULL, "2d", "cube", "volume"};
        const char *t = r->s[i].declared ? types[r->s[i].type & 3] : NULL;
        st_buf_printf(out, "%s\n    {\"register\": \"s%u\", \"type\": ", sep, i);
        if (t)
            st_buf_printf(out, "\"%s\"", t);
        else
            st_buf_printf(out, "null");
        st_buf_printf(out, ", \"declared\": %s}", r->s[i].declared ? "true" : "false");
        sep = ",";
    }
    st_buf_printf(out, "%s]", *sep ? "\n  " : "");
    if (sh->ctab) {
        static const char *const sets[] = {"bool", "int4", "float4", "sampler"};
        st_buf_printf(out, ",\n  \"constant_table\": {\"creator\": ");
        put_string(out, sh->ctab->creator);
        st_buf_printf(out, ", \"target\": ");
        put_string(out, sh->ctab->target);
        st_buf_printf(out, ", \"constants\": [");
        for (unsigned i = 0; i < sh->ctab->num_constants; i++) {
            const struct st_ctab_constant *k = &sh->ctab->constants[i];
            unsigned s = k->file == ST_REG_CONSTBOOL ? 0 : k->file == ST_REG_CONSTINT ? 1
                         : k->file == ST_REG_CONST ? 2 : 3;
            st_buf_printf(out, "%s\n    {\"name\": ", i ? "," : "");
            put_string(out, k->name);
            st_buf_printf(out, ", \"set\": \"%s\", \"first\": %u, \"count\": %u, \"class\": %u, "
                               "\"type\": %u, \"rows\": %u, \"columns\": %u, \"elements\": %u}",
                          sets[s], (unsigned)k->index, (unsigned)k->count, (unsigned)k->klass,
                          (unsigned)k->type, (unsigned)k->rows, (unsigned)k->columns,
                          (unsigned)k->elements);
        }
        st_buf_printf(out, "%s]}", sh->ctab->num_constants ? "\n  " : "");
    }
    st_buf_printf(out, "\n}\n");
    if (r->rels_truncated)
        st_warning(ctx, sh->version.loc, ST_W_IGNORED,
                   "more than %d different relative accesses: the list is cut", MAX_REL);
    free(r);
    return true;
}
