/*
 * mir.c — building, reading, printing (--emit=mir) and verifying the
 * vector machine IR of mir.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"

struct mir_instr *mir_append(struct mir_prog *p)
{
    if (p->n == p->cap) {
        unsigned cap = p->cap ? p->cap * 2 : 64;
        struct mir_instr *n = realloc(p->ins, sizeof(*n) * cap);
        if (!n) {
            p->oom = true;
            return NULL;
        }
        p->ins = n;
        p->cap = cap;
    }
    struct mir_instr *in = &p->ins[p->n++];
    memset(in, 0, sizeof(*in));
    return in;
}

uint32_t mir_new_vreg(struct mir_prog *p, enum mir_class cls)
{
    if (p->nvregs == p->capv) {
        uint32_t cap = p->capv ? p->capv * 2 : 64;
        uint8_t *n = realloc(p->vclass, cap);
        if (!n) {
            p->oom = true;
            return 0;
        }
        p->vclass = n;
        p->capv = cap;
    }
    p->vclass[p->nvregs] = (uint8_t)cls;
    return p->nvregs++;
}

uint32_t mir_imm(struct mir_prog *p, const uint32_t bits[4], enum mir_class cls)
{
    /* Shaders have few literals: a linear search keeps them unique. */
    for (unsigned k = 0; k < p->nimm; k++)
        if (p->imm[k].cls == cls && memcmp(p->imm[k].bits, bits, 16) == 0)
            return k;
    if (p->nimm == p->capimm) {
        unsigned cap = p->capimm ? p->capimm * 2 : 16;
        struct mir_imm *n = realloc(p->imm, sizeof(*n) * cap);
        if (!n) {
            p->oom = true;
            return 0;
        }
        p->imm = n;
        p->capimm = cap;
    }
    memcpy(p->imm[p->nimm].bits, bits, 16);
    p->imm[p->nimm].cls = (uint8_t)cls;
    return p->nimm++;
}

uint32_t mir_imm_f(struct mir_prog *p, float x, float y, float z, float w)
{
    float f[4] = {x, y, z, w};
    uint32_t b[4];
    memcpy(b, f, sizeof(b));
    return mir_imm(p, b, MIR_CLASS_FLOAT);
}

void mir_free(struct mir_prog *p)
{
    free(p->ins);
    free(p->vclass);
    free(p->imm);
    p->ins = NULL;
    p->vclass = NULL;
    p->imm = NULL;
    p->n = p->cap = p->nvregs = p->capv = p->nimm = p->capimm = 0;
}

struct mir_src mir_src_vreg(uint32_t v, uint8_t swz)
{
    struct mir_src s;
    memset(&s, 0, sizeof(s));
    s.kind = MIR_VREG;
    s.vreg = v;
    s.swz = swz;
    return s;
}

struct mir_src mir_src_fixed(enum st_regfile f, int32_t index, uint8_t swz)
{
    struct mir_src s;
    memset(&s, 0, sizeof(s));
    s.kind = MIR_FIXED;
    s.file = f;
    s.index = index;
    s.swz = swz;
    return s;
}

struct mir_src mir_src_imm(uint32_t index, uint8_t swz)
{
    struct mir_src s;
    memset(&s, 0, sizeof(s));
    s.kind = MIR_IMM;
    s.vreg = index;
    s.swz = swz;
    return s;
}

bool mir_is_flow(unsigned op)
{
    switch (op) {
    case ST_OP_IF: case ST_OP_IFC: case ST_OP_ELSE: case ST_OP_ENDIF: case ST_OP_REP:
    case ST_OP_ENDREP: case ST_OP_LOOP: case ST_OP_ENDLOOP: case ST_OP_BREAK: case ST_OP_BREAKC:
    case ST_OP_BREAKP:
        return true;
    default:
        return false;
    }
}

uint8_t mir_swz_image(uint8_t swz, uint8_t lanes)
{
    uint8_t r = 0;
    for (unsigned i = 0; i < 4; i++)
        if (lanes & (1u << i))
            r |= (uint8_t)(1u << ST_SWZ_LANE(swz, i));
    return r;
}

uint8_t mir_src_lanes(const struct mir_prog *p, const struct mir_instr *in, unsigned k)
{
    if (k >= in->nsrc)
        return 0;
    uint8_t swz = in->src[k].swz;
    switch (in->op) {
    case MIR_OP_MERGE:
        return mir_swz_image(swz, in->lanes[k]);
    case MIR_OP_OPAQUE: /* lanes[k]: what the instruction as written reads */
        return in->lanes[k] ? in->lanes[k] : 0xf;
    case ST_OP_IF: case ST_OP_IFC: case ST_OP_BREAKC: case ST_OP_BREAKP:
        return mir_swz_image(swz, 0x1);
    case ST_OP_REP: case ST_OP_LOOP: /* count, start, step */
        return 0x7;
    default:
        break;
    }
    struct st_op_reads_q q = {(enum st_opcode)in->op, k,
                              in->has_dst ? in->dst.mask : 0xf,
                              {in->swz_sel[0], in->swz_sel[1], in->swz_sel[2], in->swz_sel[3]},
                              in->tex_dims,
                              in->tex_target};
    (void)p;
    return mir_swz_image(swz, st_op_reads(&q));
}

/* ------------------------------------------------------------------ */
/* Printing: --emit=mir                                                */

static const char *mod_prefix(unsigned mod)
{
    switch (mod) {
    case MIR_MOD_NEG: case MIR_MOD_ABSNEG: case MIR_MOD_BIASNEG: case MIR_MOD_BX2NEG:
    case MIR_MOD_X2NEG:
        return "-";
    case MIR_MOD_COMP: return "1-";
    case MIR_MOD_NOT: return "!";
    default: return "";
    }
}

static const char *mod_suffix(unsigned mod)
{
    switch (mod) {
    case MIR_MOD_BIAS: case MIR_MOD_BIASNEG: return "_bias";
    case MIR_MOD_BX2: case MIR_MOD_BX2NEG: return "_bx2";
    case MIR_MOD_X2: case MIR_MOD_X2NEG: return "_x2";
    default: return "";
    }
}

static void print_vreg(const struct mir_prog *p, uint32_t v, struct st_buf *out)
{
    unsigned cls = v < p->nvregs ? p->vclass[v] : MIR_CLASS_FLOAT;
    st_buf_printf(out, "%%%s%u",
                  cls == MIR_CLASS_INT    ? "a"
                  : cls == MIR_CLASS_BOOL ? "p"
                  : cls == MIR_CLASS_HALF ? "h"
                                          : "",
                  (unsigned)v);
}

static void print_fixed(enum st_regfile f, int32_t index, struct st_buf *out)
{
    const char *n = st_regfile_name(f, (uint32_t)(index < 0 ? 0 : index));
    if (f == ST_REG_RASTOUT || f == ST_REG_DEPTHOUT || f == ST_REG_MISC)
        st_buf_printf(out, "%s", n);
    else
        st_buf_printf(out, "%s%d", n, (int)index);
}

static void print_swz(uint8_t swz, struct st_buf *out)
{
    if (swz == ST_SWIZZLE_IDENTITY)
        return;
    st_buf_putc(out, '.');
    for (unsigned i = 0; i < 4; i++)
        st_buf_putc(out, "xyzw"[ST_SWZ_LANE(swz, i)]);
}

static void print_imm(const struct mir_prog *p, uint32_t k, struct st_buf *out)
{
    if (k >= p->nimm) {
        st_buf_printf(out, "{?}");
        return;
    }
    const struct mir_imm *m = &p->imm[k];
    st_buf_putc(out, '{');
    for (unsigned l = 0; l < 4; l++) {
        if (l)
            st_buf_printf(out, ", ");
        if (m->cls == MIR_CLASS_INT) {
            st_buf_printf(out, "%d", (int)(int32_t)m->bits[l]);
        } else {
            float f;
            memcpy(&f, &m->bits[l], 4);
            st_buf_printf(out, "%.9g", (double)f);
        }
    }
    st_buf_putc(out, '}');
}

static void print_src(const struct mir_prog *p, const struct mir_src *s, struct st_buf *out)
{
    st_buf_printf(out, "%s", mod_prefix(s->mod));
    if (s->mod == MIR_MOD_ABS || s->mod == MIR_MOD_ABSNEG)
        st_buf_printf(out, "|");
    switch (s->kind) {
    case MIR_VREG:
        print_vreg(p, s->vreg, out);
        break;
    case MIR_IMM:
        print_imm(p, s->vreg, out);
        break;
    default:
        if (s->rel) {
            st_buf_printf(out, "%s[", st_regfile_name(s->file, 0));
            print_vreg(p, s->rel_vreg, out);
            st_buf_printf(out, ".%c%+d]", "xyzw"[s->rel_lane & 3], (int)s->index);
        } else {
            print_fixed(s->file, s->index, out);
        }
        break;
    }
    if (s->mod == MIR_MOD_ABS || s->mod == MIR_MOD_ABSNEG)
        st_buf_printf(out, "|");
    st_buf_printf(out, "%s", mod_suffix(s->mod));
    print_swz(s->swz, out);
}

static void print_dst(const struct mir_prog *p, const struct mir_dst *d, struct st_buf *out)
{
    if (d->kind == MIR_VREG) {
        print_vreg(p, d->vreg, out);
    } else if (d->rel) {
        st_buf_printf(out, "%s[", st_regfile_name(d->file, 0));
        print_vreg(p, d->rel_vreg, out);
        st_buf_printf(out, ".%c%+d]", "xyzw"[d->rel_lane & 3], (int)d->index);
    } else {
        print_fixed(d->file, d->index, out);
    }
    if (d->mask != 0xf) {
        st_buf_putc(out, '.');
        for (unsigned l = 0; l < 4; l++)
            if ((d->mask >> l) & 1)
                st_buf_putc(out, "xyzw"[l]);
    }
}

static const char *op_name(unsigned op)
{
    if (op == MIR_OP_MERGE)
        return "merge";
    if (op == MIR_OP_OPAQUE)
        return "opaque";
    return op < ST_OP_COUNT ? st_opinfo[op].name : "?";
}

void mir_print(const struct mir_prog *p, struct st_buf *out)
{
    const char *kind = p->arb ? (p->type == ST_VS ? "ARBvp1.0" : "ARBfp1.0") : NULL;
    if (kind)
        st_buf_printf(out, "; mir of an %s program\n", kind);
    else if (p->ver == ST_VER_2X)
        st_buf_printf(out, "; mir of a %s_2_x shader\n", p->type == ST_VS ? "vs" : "ps");
    else
        st_buf_printf(out, "; mir of a %s_%u_%u shader\n", p->type == ST_VS ? "vs" : "ps",
                      (unsigned)(p->ver >> 8), (unsigned)(p->ver & 0xff));
    unsigned depth = 1;
    for (unsigned i = 0; i < p->n; i++) {
        const struct mir_instr *in = &p->ins[i];
        if (in->dead)
            continue;
        if (in->op == ST_OP_ELSE || in->op == ST_OP_ENDIF || in->op == ST_OP_ENDREP ||
            in->op == ST_OP_ENDLOOP)
            depth = depth > 1 ? depth - 1 : 1;
        for (unsigned d = 0; d < depth; d++)
            st_buf_printf(out, "  ");
        if (in->predicated) {
            st_buf_printf(out, "(");
            print_src(p, &in->pred, out);
            st_buf_printf(out, ") ");
        }
        const char *name = op_name(in->op);
        if (in->op == MIR_OP_OPAQUE && in->ast)
            st_buf_printf(out, "opaque(%s)", st_opinfo[in->ast->op].name);
        else
            st_buf_printf(out, "%s", name);
        if (in->cmp != ST_CMP_NONE)
            st_buf_printf(out, "_%s", st_compare_name(in->cmp));
        if (in->sat)
            st_buf_printf(out, "_sat");
        if (in->half)
            st_buf_printf(out, "_pp");
        if (in->shift)
            st_buf_printf(out, "_%s%d", in->shift > 0 ? "x" : "d", 1 << (in->shift > 0 ? in->shift
                                                                                    : -in->shift));
        bool first = true;
        if (in->has_dst) {
            st_buf_putc(out, ' ');
            print_dst(p, &in->dst, out);
            first = false;
        }
        for (unsigned k = 0; k < in->nsrc; k++) {
            st_buf_printf(out, first ? " " : ", ");
            first = false;
            print_src(p, &in->src[k], out);
            if (in->op == MIR_OP_MERGE) {
                st_buf_printf(out, " -> ");
                for (unsigned l = 0; l < 4; l++)
                    if ((in->lanes[k] >> l) & 1)
                        st_buf_putc(out, "xyzw"[l]);
            }
        }
        switch (in->op) {
        case ST_OP_TEXLD: case ST_OP_TEXLDP: case ST_OP_TEXLDB: case ST_OP_TEXLDL:
        case ST_OP_TEXLDD:
            st_buf_printf(out, ", s%u", (unsigned)in->tex_stage);
            break;
        case ST_OP_ARB_TEX: case ST_OP_ARB_TXP: case ST_OP_ARB_TXB:
            st_buf_printf(out, ", texture[%u], %s", (unsigned)in->tex_stage,
                          st_arb_tex_target_name((enum st_arb_tex_target)in->tex_target));
            break;
        case ST_OP_ARB_SWZ:
            st_buf_printf(out, ", ");
            for (unsigned l = 0; l < 4; l++)
                st_buf_printf(out, "%s%s%c", l ? "," : "", (in->swz_neg >> l) & 1 ? "-" : "",
                              "xyzw01"[in->swz_sel[l] < 6 ? in->swz_sel[l] : 0]);
            break;
        default:
            break;
        }
        if (in->uniform)
            st_buf_printf(out, "  ; uniform");
        st_buf_putc(out, '\n');
        if (in->op == ST_OP_IF || in->op == ST_OP_IFC || in->op == ST_OP_ELSE ||
            in->op == ST_OP_REP || in->op == ST_OP_LOOP)
            depth++;
    }
}

/* ------------------------------------------------------------------ */
/* The verifier                                                        */

static bool bad(struct st_ctx *ctx, const struct mir_prog *p, const struct mir_instr *in,
                const char *after, const char *what)
{
    st_error(ctx, in && in->loc.line ? in->loc : p->loc, ST_E_NOT_SUPPORTED,
             "internal error: the vector IR after %s: %s (instruction %u)", after, what,
             in ? (unsigned)(in - p->ins) : 0u);
    return false;
}

static bool check_src(struct st_ctx *ctx, const struct mir_prog *p, const struct mir_instr *in,
                      const struct mir_src *s, const char *after)
{
    if (s->kind == MIR_VREG && s->vreg >= p->nvregs)
        return bad(ctx, p, in, after, "a source names no vreg");
    if (s->kind == MIR_IMM && s->vreg >= p->nimm)
        return bad(ctx, p, in, after, "a source names no literal");
    if (s->kind == MIR_FIXED && s->rel &&
        (s->rel_vreg >= p->nvregs || p->vclass[s->rel_vreg] != MIR_CLASS_INT))
        return bad(ctx, p, in, after, "a relative source without an address vreg");
    return true;
}

bool mir_verify(struct st_ctx *ctx, const struct mir_prog *p, const char *after)
{
    if (p->oom)
        return true; /* reported as out of memory by the caller */
    /* balanced flow, with a stack of open constructs */
    uint16_t *open = malloc(sizeof(*open) * (p->n + 1));
    if (!open)
        return true;
    unsigned depth = 0, loops = 0;
    bool ok = true;
    for (unsigned i = 0; i < p->n && ok; i++) {
        const struct mir_instr *in = &p->ins[i];
        if (in->dead)
            continue;
        switch (in->op) {
        case ST_OP_IF: case ST_OP_IFC: case ST_OP_REP: case ST_OP_LOOP:
            open[depth++] = in->op;
            if (in->op == ST_OP_REP || in->op == ST_OP_LOOP)
                loops++;
            break;
        case ST_OP_ELSE:
            if (!depth || (open[depth - 1] != ST_OP_IF && open[depth - 1] != ST_OP_IFC))
                ok = bad(ctx, p, in, after, "else outside an if");
            else
                open[depth - 1] = ST_OP_ELSE;
            break;
        case ST_OP_ENDIF:
            if (!depth || (open[depth - 1] != ST_OP_IF && open[depth - 1] != ST_OP_IFC &&
                           open[depth - 1] != ST_OP_ELSE))
                ok = bad(ctx, p, in, after, "endif without its if");
            else
                depth--;
            break;
        case ST_OP_ENDREP: case ST_OP_ENDLOOP:
            if (!depth || open[depth - 1] != (in->op == ST_OP_ENDREP ? ST_OP_REP : ST_OP_LOOP))
                ok = bad(ctx, p, in, after, "end of a loop that is not open");
            else {
                depth--;
                loops--;
            }
            break;
        case ST_OP_BREAK: case ST_OP_BREAKC: case ST_OP_BREAKP:
            if (!loops)
                ok = bad(ctx, p, in, after, "break outside a loop");
            break;
        default:
            break;
        }
        if (!ok)
            break;
        if (in->has_dst && in->dst.kind == MIR_VREG && in->dst.vreg >= p->nvregs)
            ok = bad(ctx, p, in, after, "a destination names no vreg");
        if (ok && in->has_dst && in->dst.kind == MIR_VREG && !in->dst.mask)
            ok = bad(ctx, p, in, after, "an empty writemask");
        /* half values are written by half instructions only, and those
         * write half values (or a predicate, or an output) */
        if (ok && in->has_dst && in->dst.kind == MIR_VREG &&
            (p->vclass[in->dst.vreg] == MIR_CLASS_HALF) != in->half &&
            !(in->half && p->vclass[in->dst.vreg] == MIR_CLASS_BOOL))
            ok = bad(ctx, p, in, after, in->half ? "a half instruction writes a vreg not half"
                                                 : "a half vreg written at full precision");
        for (unsigned k = 0; k < in->nsrc && ok; k++)
            ok = check_src(ctx, p, in, &in->src[k], after);
        if (ok && in->predicated)
            ok = check_src(ctx, p, in, &in->pred, after);
        if (ok && in->op == MIR_OP_MERGE) {
            uint8_t seen = 0;
            for (unsigned k = 0; k < in->nsrc && ok; k++) {
                if (in->lanes[k] & seen)
                    ok = bad(ctx, p, in, after, "two merge inputs fill one lane");
                seen |= in->lanes[k];
            }
            if (ok && (seen & ~in->dst.mask))
                ok = bad(ctx, p, in, after, "a merge input fills a lane not written");
        }
    }
    if (ok && depth)
        ok = bad(ctx, p, NULL, after, "flow left open at the end");
    free(open);
    return ok;
}
