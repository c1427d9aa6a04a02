/*
 * gen/build.c — emitting legal Gen IR from operands (build.h explains
 * the rules these helpers apply).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"

void gb_init(struct gen_build *b, struct st_ctx *ctx, const struct st_shader *sh,
             struct gen_program *p)
{
    memset(b, 0, sizeof(*b));
    b->ctx = ctx;
    b->sh = sh;
    b->p = p;
}

void gb_fail(struct gen_build *b, const char *what)
{
    if (!b->failed)
        st_error(b->ctx, b->sh->version.loc, ST_E_NOT_SUPPORTED,
                 "%s is not supported by the Gen9 back end", what);
    b->failed = true;
}

/*
 * The constant registers' movs go first: a constant is then written once
 * for the whole kernel, whichever branch or loop first needed it (a (W)
 * mov runs whatever the execution mask, so moving it is exact).
 */
void gb_finish(struct gen_build *b)
{
    struct gen_program *p = b->p;
    if (b->nkreg && !p->oom) {
        bool *is_k = calloc(p->nvreg + 1, sizeof(*is_k));
        struct gen_inst *n = malloc(sizeof(*n) * (p->ninst + 1));
        if (!is_k || !n) {
            p->oom = true;
        } else {
            for (unsigned k = 0; k < b->nkreg; k++)
                is_k[b->kreg[k].vreg] = true;
            unsigned w = 0;
            for (int pass = 0; pass < 2; pass++)
                for (unsigned k = 0; k < p->ninst; k++) {
                    const struct gen_inst *i = &p->inst[k];
                    bool kmov = i->op == GOP_MOV && i->dst.kind == GO_VREG && is_k[i->dst.vreg];
                    if (kmov == (pass == 0))
                        n[w++] = *i;
                }
            memcpy(p->inst, n, sizeof(*n) * p->ninst);
        }
        free(is_k);
        free(n);
    }
    free(b->kreg);
    b->kreg = NULL;
    b->nkreg = b->capkreg = 0;
}

struct gen_inst *gb_inst(struct gen_build *b, enum gen_op op, bool uniform)
{
    struct gen_inst *i = gen_append(b->p);
    i->op = (uint8_t)op;
    i->exec = uniform ? 1 : (uint8_t)b->p->simd;
    i->nomask = uniform;
    i->jip = i->uip = -1;
    return i;
}

uint32_t gb_new(struct gen_build *b, bool uniform)
{
    return gen_new_vreg(b->p, uniform ? 4 : gen_dsize(b->p), uniform);
}

uint32_t gb_new_t(struct gen_build *b, bool uniform, enum gen_type t)
{
    if (uniform || gen_type_size(t) == 4)
        return gb_new(b, uniform);
    /* a half per channel: SIMD8 16 bytes, which a mixed float mov may
     * write packed only at a 16-byte boundary; SIMD16 one GRF */
    uint32_t size = gen_type_size(t) * b->p->simd;
    uint32_t v = gen_new_vreg(b->p, size, false);
    if (!b->p->oom && size < GEN_GRF_SIZE)
        b->p->vreg[v].align = (uint16_t)size;
    return v;
}

struct gen_opnd gb_imm_ft(float f, enum gen_type t)
{
    if (t == GT_HF)
        return gen_imm(st_half_from_float(f), GT_HF);
    return gb_imm_f(f);
}

bool gb_imm_value(struct gen_opnd o, float *f)
{
    if (o.kind != GO_IMM || !gb_is_float_type((enum gen_type)o.type))
        return false;
    o = gb_fold_imm(o);
    if (o.type == GT_HF)
        *f = st_half_to_float((uint16_t)o.imm);
    else
        memcpy(f, &o.imm, 4);
    return true;
}

bool gb_is_uniform(const struct gen_program *p, const struct gen_opnd *o)
{
    switch (o->kind) {
    case GO_IMM: return true;
    case GO_FIXED: return o->region == GR_SCALAR;
    case GO_VREG:
        /* (a vreg past the table: memory ran out making it, p->oom) */
        return (o->region == GR_AUTO || o->region == GR_SCALAR) && o->vreg < p->nvreg &&
               p->vreg[o->vreg].uniform;
    default: return false;
    }
}

struct gen_opnd gb_fold_imm(struct gen_opnd o)
{
    if (o.kind != GO_IMM || (!o.neg && !o.abs))
        return o;
    if (o.type == GT_F) {
        if (o.abs)
            o.imm &= 0x7fffffffu;
        if (o.neg)
            o.imm ^= 0x80000000u;
    } else if (o.type == GT_HF) {
        if (o.abs)
            o.imm &= 0x7fffu;
        if (o.neg)
            o.imm ^= 0x8000u;
    } else {
        int32_t x = (int32_t)o.imm;
        if (o.abs && x < 0)
            x = (int32_t)(0u - (uint32_t)x);
        if (o.neg)
            x = (int32_t)(0u - (uint32_t)x);
        o.imm = (uint32_t)x;
    }
    o.neg = o.abs = false;
    return o;
}

bool gb_is_imm_f(struct gen_opnd o, float f)
{
    if (o.kind != GO_IMM || !gb_is_float_type((enum gen_type)o.type))
        return false;
    o = gb_fold_imm(o);
    if (o.type == GT_HF) /* f itself a half, the same bits */
        return st_half_to_float(st_half_from_float(f)) == f &&
               o.imm == st_half_from_float(f) && !isnan(f);
    uint32_t u;
    memcpy(&u, &f, 4);
    return o.imm == u;
}

/* The kernel constant register holding bits of type t, or NULL. */
static const struct gen_kreg *kreg_of(const struct gen_build *b, uint32_t bits, uint8_t t)
{
    for (unsigned k = 0; k < b->nkreg; k++)
        if (b->kreg[k].bits == bits && b->kreg[k].type == t)
            return &b->kreg[k];
    return NULL;
}

struct gen_opnd gb_reg(struct gen_build *b, struct gen_opnd o)
{
    if (o.kind != GO_IMM)
        return o;
    o = gb_fold_imm(o);
    const struct gen_kreg *kr = kreg_of(b, o.imm, o.type);
    if (kr)
        return gen_vr(kr->vreg, 0, (enum gen_type)o.type);
    if (b->nkreg == b->capkreg) {
        unsigned cap = b->capkreg ? b->capkreg * 2 : 16;
        struct gen_kreg *n = realloc(b->kreg, sizeof(*n) * cap);
        if (!n) {
            b->p->oom = true;
            return o;
        }
        b->kreg = n;
        b->capkreg = cap;
    }
    uint32_t v = gb_new(b, true);
    struct gen_inst *m = gb_inst(b, GOP_MOV, true);
    m->dst = gen_vr(v, 0, (enum gen_type)o.type);
    m->src[0] = o;
    b->kreg[b->nkreg++] = (struct gen_kreg){o.imm, o.type, v};
    return gen_vr(v, 0, (enum gen_type)o.type);
}

struct gen_opnd gb_as_type(struct gen_build *b, struct gen_opnd o, enum gen_type t)
{
    if (o.kind == GO_IMM) {
        o = gb_fold_imm(o);
    } else if ((o.neg || o.abs) && o.type == GT_F && t != GT_F) {
        bool u = gb_is_uniform(b->p, &o);
        struct gen_opnd v = gb_val(b, u, GT_F);
        gb_mov_to(b, v, o);
        o = v;
    }
    o.type = (uint8_t)t;
    return o;
}

static bool commutes(enum gen_op op)
{
    return op == GOP_ADD || op == GOP_MUL || op == GOP_AND || op == GOP_OR || op == GOP_XOR;
}

struct gen_inst *gb_alu_to(struct gen_build *b, enum gen_op op, struct gen_opnd dst,
                           struct gen_opnd a, struct gen_opnd c, bool sat)
{
    a = gb_fold_imm(a);
    c = gb_fold_imm(c);
    unsigned nsrc = gen_op_info[op].nsrc;
    if (nsrc == 2) {
        if (a.kind == GO_IMM && c.kind != GO_IMM && commutes(op)) {
            struct gen_opnd t = a;
            a = c;
            c = t;
        }
        a = gb_reg(b, a);
        if (op == GOP_MATH)
            c = gb_reg(b, c);
    } else if (op != GOP_MOV) {
        a = gb_reg(b, a);
    }
    struct gen_inst *i = gb_inst(b, op, gb_dst_uniform(b->p, &dst));
    i->dst = dst;
    i->src[0] = a;
    if (nsrc == 2)
        i->src[1] = c;
    i->sat = sat;
    return i;
}

struct gen_opnd gb_alu(struct gen_build *b, enum gen_op op, enum gen_type t, bool uniform,
                       struct gen_opnd a, struct gen_opnd c)
{
    bool u = uniform && gb_is_uniform(b->p, &a) &&
             (gen_op_info[op].nsrc < 2 || gb_is_uniform(b->p, &c));
    struct gen_opnd d = gb_val(b, u, t);
    gb_alu_to(b, op, d, a, c, false);
    return d;
}

static bool is_one_f(struct gen_opnd o)
{
    o = gb_fold_imm(o);
    return o.kind == GO_IMM && o.type == GT_F && !o.neg && !o.abs && o.imm == 0x3f800000u;
}

/* A float constant as a three-source operand: -k is the register of k
 * read negated where one exists (the float `-` flips the sign bit alone,
 * so every value, zeros, NaN and denormals, comes out exact); otherwise
 * the constant's own register. */
static struct gen_opnd three_src_reg(struct gen_build *b, struct gen_opnd o)
{
    o = gb_fold_imm(o);
    const struct gen_kreg *neg;
    if (o.kind == GO_IMM && o.type == GT_F && !kreg_of(b, o.imm, GT_F) &&
        (neg = kreg_of(b, o.imm ^ 0x80000000u, GT_F))) {
        struct gen_opnd r = gen_vr(neg->vreg, 0, GT_F);
        r.neg = true;
        return r;
    }
    return gb_reg(b, o);
}

/* dst = op(s0, s1, s2), a three-source instruction: each source in a
 * register (Gen9's three-source form takes no immediate) */
static struct gen_inst *three_src(struct gen_build *b, enum gen_op op, struct gen_opnd dst,
                                  struct gen_opnd s0, struct gen_opnd s1, struct gen_opnd s2)
{
    s0 = three_src_reg(b, s0);
    s1 = three_src_reg(b, s1);
    s2 = three_src_reg(b, s2);
    struct gen_inst *i = gb_inst(b, op, gb_dst_uniform(b->p, &dst));
    i->dst = dst;
    i->src[0] = s0;
    i->src[1] = s1;
    i->src[2] = s2;
    return i;
}

/*
 * m + x * k with k = -2m (a constant pair: _bx2's 2x - 1, a normal map's
 * unpacking mad by 2, -1) is Gen's lrp(x, -m, m) = -m x + m (1 - x): the
 * same real number, and lrp rounds its exact value once as a fused mad
 * does (docs/gensim.md), for infinities and NaN alike.  It reads m
 * twice, one constant register (the second read negated), where the mad
 * reads two.
 */
static bool lrp_pair(struct gen_opnd add, struct gen_opnd k, float *m)
{
    float a, f;
    return add.type == GT_F && k.type == GT_F && gb_imm_value(add, &a) && gb_imm_value(k, &f) &&
           isfinite(a) && a != 0.0f && f == -2.0f * a && isfinite(f) && (*m = a, true);
}

void gb_mad_to(struct gen_build *b, struct gen_opnd dst, struct gen_opnd add, struct gen_opnd m1,
               struct gen_opnd m2, bool sat)
{
    /* x * 1.0 is x exactly (a signed zero, a NaN, a denormal alike), so
     * add + x * 1.0 is one add, which takes an immediate where a mad
     * needs each source in a register (an ARB MAD by PARAM one = 1.0) */
    if (is_one_f(m2) || is_one_f(m1)) {
        gb_alu_to(b, GOP_ADD, dst, add, is_one_f(m2) ? m1 : m2, sat);
        return;
    }
    float m;
    if (dst.type == GT_F && (m1.kind != GO_IMM || m2.kind != GO_IMM) && m1.type == GT_F &&
        m2.type == GT_F && (lrp_pair(add, m2, &m) || lrp_pair(add, m1, &m))) {
        struct gen_opnd x = m2.kind == GO_IMM ? m1 : m2;
        three_src(b, GOP_LRP, dst, x, gb_imm_f(-m), gb_imm_f(m))->sat = sat;
        return;
    }
    three_src(b, GOP_MAD, dst, add, m1, m2)->sat = sat;
}

struct gen_opnd gb_mad(struct gen_build *b, bool uniform, struct gen_opnd add, struct gen_opnd m1,
                       struct gen_opnd m2)
{
    return gb_mad_t(b, uniform, GT_F, add, m1, m2);
}

/* A new value for the result of three sources: uniform when it may be
 * and every source is. */
static struct gen_opnd val_of3(struct gen_build *b, bool uniform, enum gen_type t,
                               struct gen_opnd s0, struct gen_opnd s1, struct gen_opnd s2)
{
    bool u = uniform && gb_is_uniform(b->p, &s0) && gb_is_uniform(b->p, &s1) &&
             gb_is_uniform(b->p, &s2);
    return gb_val(b, u, t);
}

struct gen_opnd gb_mad_t(struct gen_build *b, bool uniform, enum gen_type t, struct gen_opnd add,
                         struct gen_opnd m1, struct gen_opnd m2)
{
    struct gen_opnd d = val_of3(b, uniform, t, add, m1, m2);
    gb_mad_to(b, d, add, m1, m2, false);
    return d;
}

struct gen_opnd gb_lrp_t(struct gen_build *b, bool uniform, enum gen_type ty, struct gen_opnd t,
                         struct gen_opnd a, struct gen_opnd c)
{
    struct gen_opnd d = val_of3(b, uniform, ty, t, a, c);
    three_src(b, GOP_LRP, d, t, a, c);
    return d;
}

/* A per-channel operand of instruction i (the ones that step by piece). */
static bool steps(const struct gen_program *p, const struct gen_opnd *o)
{
    if (o->kind == GO_FIXED)
        return o->region == GR_VEC || o->region == GR_VEC16;
    return o->kind == GO_VREG && o->region == GR_AUTO && o->vreg < p->nvreg &&
           !p->vreg[o->vreg].uniform;
}

void gb_split8(struct gen_build *b, struct gen_inst *i)
{
    struct gen_program *p = b->p;
    if (p->oom || i->exec <= 8)
        return;
    unsigned pieces = i->exec / 8u;
    struct gen_inst first = *i;
    first.exec = 8;
    *i = first;
    for (unsigned k = 1; k < pieces; k++) {
        struct gen_inst *n = gen_append(p);
        *n = first;
        n->group = (uint8_t)(first.group + 8 * k);
        struct gen_opnd *o[4] = {&n->dst, &n->src[0], &n->src[1], &n->src[2]};
        for (unsigned j = 0; j < 4; j++)
            if (steps(p, o[j]))
                o[j]->off += 8u * k * gen_type_size((enum gen_type)o[j]->type);
    }
}

void gb_math_to(struct gen_build *b, enum gen_math fn, struct gen_opnd dst, struct gen_opnd a,
                struct gen_opnd c)
{
    a = gb_reg(b, a);
    if (c.kind != GO_NONE)
        c = gb_reg(b, c);
    struct gen_inst *i = gb_inst(b, GOP_MATH, gb_dst_uniform(b->p, &dst));
    i->math = (uint8_t)fn;
    i->dst = dst;
    i->src[0] = a;
    i->src[1] = c;
    if (dst.type == GT_HF) /* :hf math: SIMD8 at most */
        gb_split8(b, i);
}

struct gen_opnd gb_math(struct gen_build *b, enum gen_math fn, bool uniform, struct gen_opnd a,
                        struct gen_opnd c)
{
    return gb_math_t(b, fn, uniform, GT_F, a, c);
}

struct gen_opnd gb_math_t(struct gen_build *b, enum gen_math fn, bool uniform, enum gen_type t,
                          struct gen_opnd a, struct gen_opnd c)
{
    bool u = uniform && gb_is_uniform(b->p, &a) && (c.kind == GO_NONE || gb_is_uniform(b->p, &c));
    struct gen_opnd d = gb_val(b, u, t);
    gb_math_to(b, fn, d, a, c);
    return d;
}

struct gen_opnd gb_convert(struct gen_build *b, struct gen_opnd x, enum gen_type t)
{
    if (x.type == t || !gb_is_float_type((enum gen_type)x.type) || !gb_is_float_type(t))
        return x;
    float f;
    if (gb_imm_value(x, &f))
        return gb_imm_ft(f, t);
    bool u = gb_is_uniform(b->p, &x);
    struct gen_opnd d = gb_val(b, u, t);
    struct gen_inst *i = gb_inst(b, GOP_MOV, u);
    i->dst = d;
    i->src[0] = gb_fold_imm(x);
    gb_split8(b, i);
    return d;
}

void gb_mov_to(struct gen_build *b, struct gen_opnd dst, struct gen_opnd src)
{
    struct gen_inst *i = gb_inst(b, GOP_MOV, gb_dst_uniform(b->p, &dst));
    i->dst = dst;
    i->src[0] = gb_fold_imm(src);
}

enum gen_cmod gb_swap_cmod(enum gen_cmod c)
{
    switch (c) {
    case GC_GT: return GC_LT;
    case GC_GE: return GC_LE;
    case GC_LT: return GC_GT;
    case GC_LE: return GC_GE;
    default: return c;
    }
}

static void cmp_flag(struct gen_build *b, enum gen_cmod cmod, struct gen_opnd a, struct gen_opnd c,
                     bool uniform, unsigned flag, bool or_in)
{
    a = gb_fold_imm(a);
    c = gb_fold_imm(c);
    if (a.kind == GO_IMM && c.kind != GO_IMM) {
        struct gen_opnd t = a;
        a = c;
        c = t;
        cmod = gb_swap_cmod(cmod);
    }
    a = gb_reg(b, a);
    struct gen_inst *i = gb_inst(b, GOP_CMP, uniform);
    i->cmod = (uint8_t)cmod;
    i->flag = (uint8_t)flag;
    i->dst = gen_null((enum gen_type)a.type);
    i->src[0] = a;
    i->src[1] = c;
    if (or_in)
        i->pred = GP_INVERT;
}

void gb_cmp_flag(struct gen_build *b, enum gen_cmod cmod, struct gen_opnd a, struct gen_opnd c,
                 bool uniform, unsigned flag)
{
    cmp_flag(b, cmod, a, c, uniform, flag, false);
}

void gb_cmp_flag_or(struct gen_build *b, enum gen_cmod cmod, struct gen_opnd a, struct gen_opnd c,
                    bool uniform, unsigned flag)
{
    cmp_flag(b, cmod, a, c, uniform, flag, true);
}

bool gb_same_opnd(const struct gen_opnd *a, const struct gen_opnd *b)
{
    return a->kind == b->kind && a->type == b->type && a->region == b->region &&
           a->neg == b->neg && a->abs == b->abs && a->vreg == b->vreg && a->off == b->off &&
           a->imm == b->imm;
}

bool gb_flag_any_negative(struct gen_build *b, const struct gen_opnd *v, unsigned n)
{
    unsigned done = 0;
    for (unsigned k = 0; k < n; k++) {
        float f;
        bool seen = false;
        for (unsigned j = 0; j < k && !seen; j++)
            seen = gb_same_opnd(&v[j], &v[k]);
        if (seen || (gb_imm_value(v[k], &f) && !(f < 0.0f)))
            continue;
        cmp_flag(b, GC_LT, v[k], gb_imm_f(0.0f), false, 0, done > 0);
        done++;
    }
    return done > 0;
}

void gb_sel_to(struct gen_build *b, struct gen_opnd dst, struct gen_opnd x, struct gen_opnd y,
               unsigned flag, bool invert)
{
    x = gb_fold_imm(x);
    y = gb_fold_imm(y);
    if (x.kind == GO_IMM && y.kind != GO_IMM) {
        struct gen_opnd t = x;
        x = y;
        y = t;
        invert = !invert;
    }
    x = gb_reg(b, x);
    struct gen_inst *i = gb_inst(b, GOP_SEL, gb_dst_uniform(b->p, &dst));
    i->pred = (uint8_t)(invert ? GP_INVERT : GP_NORMAL);
    i->flag = (uint8_t)flag;
    i->dst = dst;
    i->src[0] = x;
    i->src[1] = y;
}

void gb_pmov_to(struct gen_build *b, struct gen_opnd dst, struct gen_opnd src, unsigned flag,
                bool invert)
{
    struct gen_inst *i = gb_inst(b, GOP_MOV, gb_dst_uniform(b->p, &dst));
    i->pred = (uint8_t)(invert ? GP_INVERT : GP_NORMAL);
    i->flag = (uint8_t)flag;
    i->dst = dst;
    i->src[0] = gb_fold_imm(src);
}

void gb_selc_to(struct gen_build *b, struct gen_opnd dst, enum gen_cmod cmod, struct gen_opnd a,
                struct gen_opnd c)
{
    a = gb_reg(b, gb_fold_imm(a));
    c = gb_fold_imm(c);
    struct gen_inst *i = gb_inst(b, GOP_SEL, gb_dst_uniform(b->p, &dst));
    i->cmod = (uint8_t)cmod;
    i->dst = dst;
    i->src[0] = a;
    i->src[1] = c;
}
