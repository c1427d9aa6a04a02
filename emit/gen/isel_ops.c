/*
 * gen/isel_ops.c — the vec4 operations as Gen instructions, per lane
 * (isel_ops.h).  Each follows its definition in translator/run/ops.c:
 * the same float32 operations in the same order, with the exceptions the
 * specifications allow and docs/gen-backend.md lists (a multiply-add
 * rounds once: `mad`), and the float rule applied where the interpreter
 * applies it (st_op_mul).  Where a Gen instruction's corner cases differ
 * from the definition (sel.l / sel.ge return the non-NaN source,
 * math.inv of -0 is -inf), the sequence says why it is still
 * the definition.
 */
#include <math.h>
#include <string.h>

#include "isel_ops.h"

/* LIT's power clamps: D3D9's, and ARB's largest float below 128. */
#define D3D9_LIT_MAXP 127.9961f
#define ARB_LIT_MAXP 127.99999237060546875f

/* A float constant of the operation's type (c->ft: float, or half for a
 * _pp instruction under --pp=fp16, where a folded value is rounded). */
#define FIMM(x) gb_imm_ft((x), c->ft)

static bool imm_float(struct gen_opnd o, float *f)
{
    return gb_imm_value(o, f);
}

static bool uni(const struct gen_opctx *c, const struct gen_opnd *a, const struct gen_opnd *b,
                const struct gen_opnd *d)
{
    const struct gen_program *p = c->b->p;
    return c->uniform && (!a || gb_is_uniform(p, a)) && (!b || gb_is_uniform(p, b)) &&
           (!d || gb_is_uniform(p, d));
}

/* The last instruction emitted, predicated on f0.0. */
static void predicate_last(struct gen_build *b)
{
    if (!b->p->ninst)
        return;
    struct gen_inst *i = &b->p->inst[b->p->ninst - 1];
    i->pred = GP_NORMAL;
    i->flag = 0;
}

struct gen_opnd gen_op_add(const struct gen_opctx *c, struct gen_opnd a, struct gen_opnd b)
{
    float x, y;
    if (imm_float(a, &x) && imm_float(b, &y))
        return FIMM(x + y);
    /* x + -0 is x, every x (-0 + -0 = -0, NaN stays NaN) */
    if (gb_is_imm_f(b, -0.0f))
        return a;
    if (gb_is_imm_f(a, -0.0f))
        return b;
    return gb_alu(c->b, GOP_ADD, c->ft, c->uniform, a, b);
}

/* f0.0 = (a == 0) || (b == 0) in every channel (b may be absent). */
static void zero_factor_flag(const struct gen_opctx *c, struct gen_opnd a, const struct gen_opnd *b,
                             bool u)
{
    gb_cmp_flag(c->b, GC_EQ, a, FIMM(0.0f), u, 0);
    if (b)
        gb_cmp_flag_or(c->b, GC_EQ, *b, FIMM(0.0f), u, 0);
}

/*
 * The d3d9 rule's product: +0 when a factor is zero, the IEEE product
 * otherwise.  With one factor a finite non-zero constant k that is
 * exactly mad(+0, x, k): the exact product is zero only when x is, and
 * a zero sum of +0 and +-0 is +0, while for any other x the rounding of
 * x*k + 0 is that of x*k (its sign included when it underflows).
 */
struct gen_opnd gen_op_mul(const struct gen_opctx *c, struct gen_opnd a, struct gen_opnd b)
{
    struct gen_build *B = c->b;
    bool u = uni(c, &a, &b, NULL);
    float x, y;
    if (imm_float(a, &x) && imm_float(b, &y))
        return FIMM(st_op_mul(c->legacy, x, y));
    if (!c->legacy) {
        /* x * 1 is x and x * -1 is -x, every x (the d3d9 rule makes -0 * 1 +0) */
        for (int k = 0; k < 2; k++) {
            struct gen_opnd o = k ? a : b, v = k ? b : a;
            if (gb_is_imm_f(o, 1.0f))
                return v;
            if (gb_is_imm_f(o, -1.0f))
                return gb_fold_imm(gb_neg(v));
        }
        return gb_alu(B, GOP_MUL, c->ft, c->uniform, a, b);
    }
    if (imm_float(a, &x)) {
        struct gen_opnd t = a;
        a = b;
        b = t;
    }
    if (imm_float(b, &y)) {
        if (y == 0.0f)
            return FIMM(0.0f);
        if (isfinite(y))
            return gb_mad_t(B, u, c->ft, FIMM(0.0f), a, b);
        struct gen_opnd t = gb_val(B, u, c->ft);
        gb_alu_to(B, GOP_MUL, t, a, b, false);
        zero_factor_flag(c, a, NULL, u);
        gb_pmov_to(B, t, FIMM(0.0f), 0, false);
        return t;
    }
    struct gen_opnd t = gb_val(B, u, c->ft);
    zero_factor_flag(c, a, &b, u);
    gb_alu_to(B, GOP_MUL, t, a, b, false);
    gb_pmov_to(B, t, FIMM(0.0f), 0, false);
    return t;
}

/*
 * a * b + add as one fused mad.  Under the d3d9 rule a zero factor makes
 * the product +0, so the result is add + 0 (add itself unless it is -0),
 * where the fused mad would give add + (+-0), or NaN for 0 * inf: those
 * channels take add + 0 instead.  With one factor a finite non-zero
 * constant only the other can be zero, and when add is a constant other
 * than -0, add + (+-0) is add already.
 */
struct gen_opnd gen_op_mad(const struct gen_opctx *c, struct gen_opnd a, struct gen_opnd b,
                           struct gen_opnd add)
{
    struct gen_build *B = c->b;
    if (!c->fuse)
        return gen_op_add(c, gen_op_mul(c, a, b), add);
    bool u = uni(c, &a, &b, &add);
    float x, y, z;
    if (!c->legacy)
        return gb_mad_t(B, u, c->ft, add, a, b);
    if (imm_float(a, &x)) {
        struct gen_opnd t = a;
        a = b;
        b = t;
    }
    if (imm_float(b, &y) && (y == 0.0f || imm_float(a, &x) || !isfinite(y)))
        return gen_op_add(c, gen_op_mul(c, a, b), add); /* folded or a constant inf/NaN: exact */
    if (imm_float(b, &y) && imm_float(add, &z) && !(z == 0.0f && signbit(z)))
        return gb_mad_t(B, u, c->ft, add, a, b);
    struct gen_opnd t = gb_val(B, u, c->ft);
    zero_factor_flag(c, a, imm_float(b, &y) ? NULL : &b, u);
    gb_mad_to(B, t, add, a, b, false);
    if (imm_float(add, &z)) {
        gb_pmov_to(B, t, FIMM(z + 0.0f), 0, false);
    } else {
        gb_alu_to(B, GOP_ADD, t, add, FIMM(0.0f), false);
        predicate_last(B);
    }
    return t;
}

/* A factor that makes the product exact without an instruction: x * 1
 * is x and x * -1 is -x for every x under the IEEE rule. */
static bool unit_factor(struct gen_opnd o)
{
    return gb_is_imm_f(o, 1.0f) || gb_is_imm_f(o, -1.0f);
}

/*
 * The chain's start under the d3d9 rule when the next step is a fused
 * mad: a product with a factor +-1 is then x (or -x) without the mul
 * that would make a -0 product +0.  The sign of a zero addend cannot
 * reach that mad's result: with a zero factor the rule's result is
 * addend + 0, +0 for either zero, and with two non-zero factors the
 * exact product is not zero, so the sum rounds alike for +0 and -0.
 * gen_op_mad keeps both facts except when both factors are immediates
 * (their product folded and rounded, a -0 by underflow added to the
 * addend), so that case keeps the mul.
 */
static bool legacy_free_start(const struct gen_opctx *c, struct gen_opnd a, struct gen_opnd b,
                              struct gen_opnd na, struct gen_opnd nb, struct gen_opnd *s)
{
    float x;
    if (!c->legacy || !c->fuse || (imm_float(na, &x) && imm_float(nb, &x)))
        return false;
    for (int k = 0; k < 2; k++) {
        struct gen_opnd o = k ? a : b, v = k ? b : a;
        if (unit_factor(o) && !imm_float(v, &x)) {
            *s = gb_is_imm_f(o, 1.0f) ? v : gb_fold_imm(gb_neg(v));
            return true;
        }
    }
    return false;
}

/*
 * Fused: the terms in st_op_dot_term's order (a DP4's w first), the
 * interpreter's fused reading step for step, so a first term with a
 * constant factor +-1 (a position's w = 1) costs no instruction: its
 * product is the first mad's addend.  Unfused: the products rounded and
 * summed x first, as the specifications write them.
 */
struct gen_opnd gen_op_dot(const struct gen_opctx *c, const struct gen_opnd a[4],
                           const struct gen_opnd b[4], unsigned n)
{
    if (!c->fuse) {
        struct gen_opnd s = gen_op_mul(c, a[0], b[0]);
        for (unsigned k = 1; k < n; k++)
            s = gen_op_mad(c, a[k], b[k], s);
        return s;
    }
    unsigned t = st_op_dot_term(n, 0), t1 = st_op_dot_term(n, n > 1 ? 1 : 0);
    struct gen_opnd s;
    if (n < 2 || !legacy_free_start(c, a[t], b[t], a[t1], b[t1], &s))
        s = gen_op_mul(c, a[t], b[t]);
    for (unsigned j = 1; j < n; j++) {
        t = st_op_dot_term(n, j);
        s = gen_op_mad(c, a[t], b[t], s);
    }
    return s;
}

/* a . b + add (DPH, dp2add): fused, add starts the chain (one mad per
 * term); unfused, the rounded dot product, then the sum. */
struct gen_opnd gen_op_dot_add(const struct gen_opctx *c, const struct gen_opnd a[4],
                               const struct gen_opnd b[4], unsigned n, struct gen_opnd add)
{
    if (!c->fuse)
        return gen_op_add(c, gen_op_dot(c, a, b, n), add);
    struct gen_opnd s = add;
    for (unsigned j = 0; j < n; j++) {
        unsigned t = st_op_dot_term(n, j);
        s = gen_op_mad(c, a[t], b[t], s);
    }
    return s;
}

/* A compare into a dword: all ones where (a cmod b), zero elsewhere. */
static struct gen_opnd cmp_mask(const struct gen_opctx *c, enum gen_cmod cmod, struct gen_opnd a,
                                struct gen_opnd b)
{
    struct gen_build *B = c->b;
    a = gb_fold_imm(a);
    b = gb_fold_imm(b);
    if (a.kind == GO_IMM && b.kind != GO_IMM) {
        struct gen_opnd t = a;
        a = b;
        b = t;
        cmod = gb_swap_cmod(cmod);
    }
    a = gb_reg(B, a);
    struct gen_opnd d = gb_val(B, uni(c, &a, &b, NULL), GT_D);
    struct gen_inst *i = gb_inst(B, GOP_CMP, gb_dst_uniform(B->p, &d));
    i->cmod = (uint8_t)cmod;
    i->dst = d;
    i->src[0] = a;
    i->src[1] = b;
    return d;
}

/* 1.0 where (a cmod b), else +0: slt, sge. */
static struct gen_opnd set_one(const struct gen_opctx *c, enum gen_cmod cmod, struct gen_opnd a,
                               struct gen_opnd b)
{
    struct gen_opnd m = cmp_mask(c, cmod, a, b);
    struct gen_opnd d = gb_val(c->b, gb_dst_uniform(c->b->p, &m), GT_D);
    gb_alu_to(c->b, GOP_AND, d, m, gb_imm_d(0x3f800000), false);
    d.type = GT_F;
    return d;
}

/* -1.0 where (x cmod 0), else +0: the sign half of sgn. */
static struct gen_opnd minus_one_where(const struct gen_opctx *c, enum gen_cmod cmod,
                                       struct gen_opnd x)
{
    struct gen_opnd m = cmp_mask(c, cmod, x, FIMM(0.0f));
    struct gen_opnd d = gb_val(c->b, gb_dst_uniform(c->b->p, &m), GT_UD);
    gb_alu_to(c->b, GOP_AND, d, gb_as_type(c->b, m, GT_UD), gen_imm(0xbf800000u, GT_UD), false);
    d.type = GT_F;
    return d;
}

/* (x cmod y) ? x : y -- min and max in every dialect's definition. */
static struct gen_opnd select_cmp(const struct gen_opctx *c, enum gen_cmod cmod, struct gen_opnd x,
                                  struct gen_opnd y)
{
    struct gen_build *B = c->b;
    float f;
    struct gen_opnd d = gb_val(B, uni(c, &x, &y, NULL), c->ft);
    if (imm_float(y, &f) && !isnan(f)) {
        /* sel.cmod returns the non-NaN source: with y never NaN, that is
         * y when x is NaN, as the comparison's false gives */
        gb_selc_to(B, d, cmod, x, y);
        return d;
    }
    gb_cmp_flag(B, cmod, x, y, gb_dst_uniform(B->p, &d), 0);
    gb_sel_to(B, d, x, y, 0, false);
    return d;
}

/* (a cmod k) ? t : e, k a constant: cmp, cnd, and the clamps of lit. */
static struct gen_opnd select_on(const struct gen_opctx *c, struct gen_opnd a, enum gen_cmod cmod,
                                 float k, struct gen_opnd t, struct gen_opnd e)
{
    struct gen_build *B = c->b;
    bool u = uni(c, &a, &t, &e);
    struct gen_opnd d = gb_val(B, u, c->ft);
    gb_cmp_flag(B, cmod, a, FIMM(k), u, 0);
    gb_sel_to(B, d, t, e, 0, false);
    return d;
}

/* expp/logp's partial precision: the low 8 mantissa bits cleared.  Only
 * finite values change in the definition; the math results this is
 * applied to are +-inf (low bits zero) or the canonical NaN (bit 22 set),
 * which the mask leaves as they are. */
static struct gen_opnd partial(const struct gen_opctx *c, struct gen_opnd x)
{
    struct gen_opnd d = gb_val(c->b, uni(c, &x, NULL, NULL), GT_UD);
    gb_alu_to(c->b, GOP_AND, d, gb_as_type(c->b, x, GT_UD), gen_imm(0xffffff00u, GT_UD), false);
    d.type = GT_F;
    return d;
}

/*
 * mova: floor(x + 0.5) in double, saturating, NaN -> 0.  x + 0.5 in float
 * may round up to the next integer, so: r = floor(x), f = x - r (exact:
 * for x in (-1, 0) 1 + x rounds, but only where it is at least 0.5, which
 * the test below reads the same), r + 1 where f >= 0.5; the conversion
 * to int32 saturates and gives 0 for NaN as the definition does.
 */
static struct gen_opnd round_half_up(const struct gen_opctx *c, struct gen_opnd x)
{
    struct gen_build *B = c->b;
    bool u = uni(c, &x, NULL, NULL);
    struct gen_opnd r = gb_val(B, u, c->ft);
    gb_alu_to(B, GOP_RNDD, r, x, gen_opnd_none(), false);
    struct gen_opnd f = gb_alu(B, GOP_ADD, c->ft, u, x, gb_neg(r));
    gb_cmp_flag(B, GC_GE, f, FIMM(0.5f), u, 0);
    gb_alu_to(B, GOP_ADD, r, r, FIMM(1.0f), false);
    predicate_last(B);
    struct gen_opnd i = gb_val(B, u, GT_D);
    gb_mov_to(B, i, r);
    return i;
}

static struct gen_opnd to_int_floor(const struct gen_opctx *c, struct gen_opnd x)
{
    struct gen_build *B = c->b;
    bool u = uni(c, &x, NULL, NULL);
    struct gen_opnd r = gb_val(B, u, c->ft);
    gb_alu_to(B, GOP_RNDD, r, x, gen_opnd_none(), false);
    struct gen_opnd i = gb_val(B, u, GT_D);
    gb_mov_to(B, i, r);
    return i;
}

/* x > 0 ? 1 : x < 0 ? -1 : 0 (NaN and -0 give +0). */
static struct gen_opnd sign(const struct gen_opctx *c, struct gen_opnd x)
{
    /* Every form starts from a compare mask (all ones where true) turned
     * into the bits of 1.0 or -1.0 by an and: +0 elsewhere, so -0 and NaN
     * give +0 with no select and no constant register. */
    if (x.abs)
        /* |x| is never below 0, -|x| never above */
        return x.neg ? minus_one_where(c, GC_LT, x) : set_one(c, GC_GT, x, FIMM(0.0f));
    /* Otherwise the two masks (-1 where true) subtract to -1, 0 or 1 as
     * integers, which the add converts on its float write: three
     * instructions with no flag and no predicated write. */
    struct gen_opnd lt = cmp_mask(c, GC_LT, x, FIMM(0.0f));
    struct gen_opnd gt = cmp_mask(c, GC_GT, x, FIMM(0.0f));
    struct gen_opnd d = gb_val(c->b, uni(c, &lt, &gt, NULL), GT_F);
    gt.neg = !gt.neg;
    gb_alu_to(c->b, GOP_ADD, d, lt, gt, false);
    return d;
}

/* rcp: the IEEE quotient (1 -> exactly 1), D3D9's +-0 -> +inf by inv of
 * x + 0, which is x but for -0, whose inverse would be -inf; ARB's RCP is
 * the quotient throughout (docs/interpreter.md). */
static struct gen_opnd rcp(const struct gen_opctx *c, struct gen_opnd x)
{
    float f;
    if (imm_float(x, &f))
        return FIMM(f == 0.0f && !c->arb ? INFINITY : f == 1.0f ? 1.0f : 1.0f / f);
    bool u = uni(c, &x, NULL, NULL);
    /* |x| is never -0 */
    bool keep = c->arb || (x.abs && !x.neg);
    struct gen_opnd t = keep ? x : gb_alu(c->b, GOP_ADD, c->ft, u, x, FIMM(0.0f));
    return gb_math_t(c->b, GM_INV, u, c->ft, t, gen_opnd_none());
}

/* |x|^y: one math.pow (its special values are C99's, as the
 * interpreter's pow; docs/gensim.md). */
static struct gen_opnd power(const struct gen_opctx *c, struct gen_opnd x, struct gen_opnd y)
{
    bool u = uni(c, &x, &y, NULL);
    float f;
    /* |x|^2 rounded once is the float product x * x, bit for bit */
    if (c->ft == GT_F && x.type == GT_F && imm_float(y, &f) && f == 2.0f)
        return gb_alu(c->b, GOP_MUL, GT_F, u, x, x);
    return gb_math_t(c->b, GM_POW, u, c->ft, gb_abs(x), y);
}

/* w < -m ? -m : w > m ? m : w (NaN stays NaN, so no sel.cmod). */
static struct gen_opnd clamp_pow(const struct gen_opctx *c, struct gen_opnd w, float m)
{
    struct gen_opnd t = select_on(c, w, GC_LT, -m, FIMM(-m), w);
    return select_on(c, t, GC_GT, m, FIMM(m), t);
}

static void lit(const struct gen_opctx *c, const struct gen_opnd s[4], uint8_t mask,
                struct gen_opnd r[4])
{
    struct gen_build *B = c->b;
    r[0] = r[3] = FIMM(1.0f);
    if (c->arb) {
        /* x, y clamped below at 0 (NaN kept), w to +-(128 - epsilon),
         * z = x > 0 ? y^w : 0 */
        struct gen_opnd x = select_on(c, s[0], GC_LT, 0.0f, FIMM(0.0f), s[0]);
        r[1] = x;
        if (mask & 4) {
            struct gen_opnd y = select_on(c, s[1], GC_LT, 0.0f, FIMM(0.0f), s[1]);
            struct gen_opnd w = clamp_pow(c, s[3], ARB_LIT_MAXP);
            struct gen_opnd pw = gb_math_t(B, GM_POW, uni(c, &y, &w, NULL), c->ft, y, w);
            r[2] = select_on(c, x, GC_GT, 0.0f, pw, FIMM(0.0f));
        }
        return;
    }
    /* y = x > 0 ? x : 0: sel.g returns 0 for a NaN x too */
    if (mask & 2) {
        struct gen_opnd d = gb_val(B, uni(c, &s[0], NULL, NULL), c->ft);
        gb_selc_to(B, d, GC_GT, s[0], FIMM(0.0f));
        r[1] = d;
    }
    if (mask & 4) {
        struct gen_opnd w = clamp_pow(c, s[3], D3D9_LIT_MAXP);
        struct gen_opnd pw = gb_math_t(B, GM_POW, uni(c, &s[1], &w, NULL), c->ft, s[1], w);
        bool u = uni(c, &s[0], &s[1], &pw);
        struct gen_opnd d = gb_val(B, u, c->ft);
        /* f0.0 = x > 0 && y > 0: the second compare only where the first held */
        gb_cmp_flag(B, GC_GT, s[0], FIMM(0.0f), u, 0);
        gb_cmp_flag(B, GC_GT, s[1], FIMM(0.0f), u, 0);
        predicate_last(B);
        gb_sel_to(B, d, pw, FIMM(0.0f), 0, false);
        r[2] = d;
    }
}

/* expp / logp (docs/interpreter.md): the 1_x forms' bit fields, or the replicated partial. */
static void expp(const struct gen_opctx *c, struct gen_opnd v, uint8_t mask, struct gen_opnd r[4])
{
    struct gen_build *B = c->b;
    bool u = uni(c, &v, NULL, NULL);
    struct gen_opnd z = gen_opnd_none();
    if (c->ver >= ST_VER(2, 0) || (mask & 4))
        z = partial(c, gb_math_t(B, GM_EXP, u, c->ft, v, gen_opnd_none()));
    if (c->ver >= ST_VER(2, 0)) {
        r[0] = r[1] = r[2] = r[3] = z;
        return;
    }
    if (mask & 3) {
        struct gen_opnd fl = gb_val(B, u, c->ft);
        gb_alu_to(B, GOP_RNDD, fl, v, gen_opnd_none(), false);
        if (mask & 1)
            r[0] = gb_math_t(B, GM_EXP, u, c->ft, fl, gen_opnd_none());
        if (mask & 2)
            r[1] = gb_alu(B, GOP_ADD, c->ft, u, v, gb_neg(fl));
    }
    r[2] = z;
    r[3] = FIMM(1.0f);
}

static void logp(const struct gen_opctx *c, struct gen_opnd v, uint8_t mask, struct gen_opnd r[4])
{
    struct gen_build *B = c->b;
    bool u = uni(c, &v, NULL, NULL);
    struct gen_opnd lg = gen_opnd_none();
    /* log2 |v| is -inf for 0, as the definition's special case */
    if (c->ver >= ST_VER(2, 0) || (mask & 4))
        lg = partial(c, gb_math_t(B, GM_LOG, u, c->ft, gb_abs(v), gen_opnd_none()));
    if (c->ver >= ST_VER(2, 0)) {
        r[0] = r[1] = r[2] = r[3] = lg;
        return;
    }
    r[2] = lg;
    r[3] = FIMM(1.0f);
    if (!(mask & 3))
        return;
    /* the bits of |v|: exponent - 127 (zero: -inf) and the mantissa under
     * exponent 0 (zero: 1.0, which the or gives) */
    struct gen_opnd a = gb_val(B, u, GT_UD);
    gb_alu_to(B, GOP_AND, a, gb_as_type(B, v, GT_UD), gen_imm(0x7fffffffu, GT_UD), false);
    if (mask & 1) {
        struct gen_opnd e = gb_alu(B, GOP_SHR, GT_UD, u, a, gen_imm(23, GT_UD));
        e.type = GT_D;
        struct gen_opnd e2 = gb_alu(B, GOP_ADD, GT_D, u, e, gb_imm_d(-127));
        struct gen_opnd x = gb_val(B, u, c->ft);
        gb_mov_to(B, x, e2);
        gb_cmp_flag(B, GC_EQ, a, gen_imm(0, GT_UD), u, 0);
        gb_pmov_to(B, x, FIMM(-INFINITY), 0, false);
        r[0] = x;
    }
    if (mask & 2) {
        struct gen_opnd m = gb_alu(B, GOP_AND, GT_UD, u, a, gen_imm(0x7fffffu, GT_UD));
        struct gen_opnd y = gb_alu(B, GOP_OR, GT_UD, u, m, gen_imm(0x3f800000u, GT_UD));
        y.type = GT_F;
        r[1] = y;
    }
}

/* a x b: (a1 b2 - a2 b1, a2 b0 - a0 b2, a0 b1 - a1 b0), each as mad(a_i, b_j, -(a_j b_i)). */
static void cross(const struct gen_opctx *c, const struct gen_opnd a[4], const struct gen_opnd b[4],
                  uint8_t mask, struct gen_opnd r[4])
{
    static const unsigned i1[3] = {1, 2, 0}, i2[3] = {2, 0, 1};
    for (unsigned l = 0; l < 3; l++)
        if (mask >> l & 1) {
            struct gen_opnd t = gen_op_mul(c, a[i2[l]], b[i1[l]]);
            r[l] = gen_op_mad(c, a[i1[l]], b[i2[l]], gb_neg(t));
        }
}

/* Gen's lrp computes the fused reading's lrp: products fused, IEEE rule, float */
static bool lrp_fuses(const struct gen_opctx *c)
{
    return c->fuse && !c->legacy && c->ft == GT_F;
}

struct gen_opnd gen_op_lrp(const struct gen_opctx *c, struct gen_opnd t, struct gen_opnd a,
                           struct gen_opnd b)
{
    if (!lrp_fuses(c))
        return gen_opnd_none();
    float x, y, z;
    if (imm_float(t, &x) && imm_float(a, &y) && imm_float(b, &z))
        return FIMM(st_op_lrp_once(x, y, z));
    return gb_lrp_t(c->b, uni(c, &t, &a, &b), c->ft, t, a, b);
}

/*
 * ARB LRP: src0 * src1 + (1 - src0) * src2, the first product fused with
 * the sum (a multiply-add), the second rounded before; 1 - src0 once per
 * distinct operand (LRP t, a.w, b, c reads one for all four lanes).
 */
static void arb_lrp(const struct gen_opctx *c, const struct gen_opnd s[3][4], uint8_t mask,
                    struct gen_opnd r[4])
{
    struct gen_opnd om[4];
    for (unsigned l = 0; l < 4; l++)
        om[l] = gen_opnd_none();
    for (unsigned l = 0; l < 4; l++) {
        if (!(mask >> l & 1) || om[l].kind != GO_NONE)
            continue;
        om[l] = gen_op_add(c, FIMM(1.0f), gb_neg(s[0][l]));
        for (unsigned k = l + 1; k < 4; k++)
            if (gb_same_opnd(&s[0][k], &s[0][l]))
                om[k] = om[l];
    }
    for (unsigned l = 0; l < 4; l++)
        if (mask >> l & 1)
            r[l] = gen_op_mad(c, s[0][l], s[1][l], gen_op_mul(c, om[l], s[2][l]));
}

/* Component-wise operations, lane by lane. */
static bool componentwise(const struct gen_opctx *c, unsigned op, const struct gen_opnd s[3][4],
                          unsigned l, struct gen_opnd *r)
{
    struct gen_build *B = c->b;
    const struct gen_opnd a = s[0][l], b = s[1][l], e = s[2][l];
    switch (op) {
    case ST_OP_MOV: *r = a; return true;
    case ST_OP_ABS: *r = gb_abs(a); return true;
    case ST_OP_ADD: *r = gen_op_add(c, a, b); return true;
    case ST_OP_SUB: *r = gen_op_add(c, a, gb_neg(b)); return true;
    case ST_OP_MUL: *r = gen_op_mul(c, a, b); return true;
    case ST_OP_MAD: *r = gen_op_mad(c, a, b, e); return true;
    case ST_OP_MIN:
        *r = c->arb ? select_cmp(c, GC_LT, b, a) : select_cmp(c, GC_LT, a, b);
        return true;
    case ST_OP_MAX: *r = select_cmp(c, c->arb ? GC_GT : GC_GE, a, b); return true;
    case ST_OP_SLT: *r = set_one(c, GC_LT, a, b); return true;
    case ST_OP_SGE: *r = set_one(c, GC_GE, a, b); return true;
    case ST_OP_SGN: *r = sign(c, a); return true;
    case ST_OP_FRC: case ST_OP_ARB_FLR: {
        struct gen_opnd d = gb_val(B, uni(c, &a, NULL, NULL), c->ft);
        gb_alu_to(B, op == ST_OP_FRC ? GOP_FRC : GOP_RNDD, d, a, gen_opnd_none(), false);
        *r = d;
        return true;
    }
    case ST_OP_CMP:
        *r = select_on(c, a, c->arb ? GC_LT : GC_GE, 0.0f, b, e);
        return true;
    case ST_OP_CND: *r = select_on(c, a, GC_GT, 0.5f, b, e); return true;
    case ST_OP_LRP:
        /* one lrp; else src0 * (src1 - src2) + src2 (ARB's form: arb_lrp) */
        *r = gen_op_lrp(c, a, b, e);
        if (r->kind == GO_NONE)
            *r = gen_op_mad(c, a, gen_op_add(c, b, gb_neg(e)), e);
        return true;
    case ST_OP_SETP: {
        static const enum gen_cmod cm[] = {[ST_CMP_GT] = GC_GT, [ST_CMP_EQ] = GC_EQ,
                                           [ST_CMP_GE] = GC_GE, [ST_CMP_LT] = GC_LT,
                                           [ST_CMP_NE] = GC_NE, [ST_CMP_LE] = GC_LE};
        if (c->cmp == ST_CMP_NONE || (unsigned)c->cmp >= sizeof(cm) / sizeof(cm[0]))
            return false;
        struct gen_opnd m = cmp_mask(c, cm[c->cmp], a, b);
        m.type = GT_UD;
        *r = m;
        return true;
    }
    case ST_OP_MOVA: *r = round_half_up(c, a); return true;
    default: return false;
    }
}

/* Lane by lane; a lane whose sources are an earlier lane's takes its
 * result (sgn r, v.w or mova a0.xy, c.x: one value computed once; the
 * flag sequences of sgn, mova and setp are not merged by gen/opt_cse.c). */
static bool lanewise(const struct gen_opctx *c, unsigned op, const struct gen_opnd s[3][4],
                     uint8_t mask, struct gen_opnd r[4])
{
    for (unsigned l = 0; l < 4; l++) {
        if (!(mask >> l & 1))
            continue;
        unsigned k = 0;
        while (k < l && !(mask >> k & 1 && gb_same_opnd(&s[0][k], &s[0][l]) &&
                          gb_same_opnd(&s[1][k], &s[1][l]) && gb_same_opnd(&s[2][k], &s[2][l])))
            k++;
        if (k < l)
            r[l] = r[k];
        else if (!componentwise(c, op, s, l, &r[l]))
            return false;
    }
    return true;
}

bool gen_op_compute(const struct gen_opctx *c, unsigned op, const struct gen_opnd s[3][4],
                    uint8_t mask, struct gen_opnd r[4])
{
    struct gen_build *B = c->b;
    for (unsigned l = 0; l < 4; l++)
        r[l] = FIMM(0.0f);
    bool u0 = uni(c, &s[0][0], NULL, NULL);
    struct gen_opnd x;
    switch (op) {
    case ST_OP_DP3: case ST_OP_DP4:
        x = gen_op_dot(c, s[0], s[1], op == ST_OP_DP3 ? 3 : 4);
        break;
    case ST_OP_DP2ADD:
        x = gen_op_dot_add(c, s[0], s[1], 2, s[2][0]);
        break;
    case ST_OP_ARB_DPH:
        x = gen_op_dot_add(c, s[0], s[1], 3, s[1][3]);
        break;
    case ST_OP_RCP: x = rcp(c, s[0][0]); break;
    case ST_OP_RSQ:
        /* 1/sqrt(|x|): rsqt of 0 is +inf, of 1 is 1, as the definition */
        x = gb_math_t(B, GM_RSQ, u0, c->ft, gb_abs(s[0][0]), gen_opnd_none());
        break;
    case ST_OP_EXP: x = gb_math_t(B, GM_EXP, u0, c->ft, s[0][0], gen_opnd_none()); break;
    case ST_OP_LOG: x = gb_math_t(B, GM_LOG, u0, c->ft, gb_abs(s[0][0]), gen_opnd_none()); break;
    case ST_OP_POW:
        if (c->ft == GT_HF) {
            /* pow_pp: one function value, computed in float and rounded to
             * half (the interpreter's reading of a _pp function) */
            struct gen_opctx fc = *c;
            fc.ft = GT_F;
            /* one conversion a statement: the order of a call's argument
             * evaluations is unspecified (the two movs could swap between
             * compilers) */
            struct gen_opnd base = gb_convert(B, s[0][0], GT_F);
            struct gen_opnd ex = gb_convert(B, s[1][0], GT_F);
            x = gb_convert(B, power(&fc, base, ex), GT_HF);
            break;
        }
        x = power(c, s[0][0], s[1][0]);
        break;
    case ST_OP_ARB_SIN: x = gb_math_t(B, GM_SIN, u0, c->ft, s[0][0], gen_opnd_none()); break;
    case ST_OP_ARB_COS: x = gb_math_t(B, GM_COS, u0, c->ft, s[0][0], gen_opnd_none()); break;
    case ST_OP_ARB_ARL: x = to_int_floor(c, s[0][0]); break;
    case ST_OP_EXPP: expp(c, s[0][0], mask, r); return true;
    case ST_OP_LOGP: logp(c, s[0][0], mask, r); return true;
    case ST_OP_LIT: case ST_OP_ARB_LIT: lit(c, s[0], mask, r); return true;
    case ST_OP_DST:
        r[0] = FIMM(1.0f);
        if (mask & 2)
            r[1] = gen_op_mul(c, s[0][1], s[1][1]);
        r[2] = s[0][2];
        r[3] = s[1][3];
        return true;
    case ST_OP_CRS: case ST_OP_ARB_XPD:
        cross(c, s[0], s[1], mask, r);
        r[3] = FIMM(op == ST_OP_CRS ? 0.0f : 1.0f);
        return true;
    case ST_OP_NRM: {
        /* src * (1 / sqrt(dot3(src, src))), w included */
        struct gen_opnd d = gen_op_dot(c, s[0], s[0], 3);
        struct gen_opnd f = gb_math_t(B, GM_RSQ, uni(c, &d, NULL, NULL), c->ft, d, gen_opnd_none());
        for (unsigned l = 0; l < 4; l++)
            if (mask >> l & 1)
                r[l] = gen_op_mul(c, s[0][l], f);
        return true;
    }
    case ST_OP_SINCOS: case ST_OP_ARB_SCS:
        if (mask & 1)
            r[0] = gb_math_t(B, GM_COS, u0, c->ft, s[0][0], gen_opnd_none());
        if (mask & 2)
            r[1] = gb_math_t(B, GM_SIN, u0, c->ft, s[0][0], gen_opnd_none());
        return true;
    case ST_OP_ARB_SWZ:
        for (unsigned l = 0; l < 4; l++) {
            uint8_t sel = c->swz_sel[l];
            struct gen_opnd v = sel < 4 ? s[0][sel] : FIMM(sel == ST_ARB_SWZ_ONE ? 1.0f : 0.0f);
            r[l] = (c->swz_neg >> l) & 1 ? gb_fold_imm(gb_neg(v)) : v;
        }
        return true;
    case ST_OP_LRP:
        if (c->arb && !lrp_fuses(c)) {
            arb_lrp(c, s, mask, r); /* its steps, as the interpreter's */
            return true;
        }
        return lanewise(c, op, s, mask, r); /* one lrp a lane, or D3D9's steps */
    default:
        return lanewise(c, op, s, mask, r);
    }
    for (unsigned l = 0; l < 4; l++)
        r[l] = x;
    return true;
}

/* d &= both (bitwise, all channels of the instruction) */
static void deriv_mask(struct gen_build *B, struct gen_opnd d, uint32_t both)
{
    struct gen_inst *i = gb_inst(B, GOP_AND, false);
    i->dst = d;
    i->dst.type = GT_UD;
    i->src[0] = d;
    i->src[0].type = GT_UD;
    i->src[1] = gen_vr(both, 0, GT_UD);
}

/* both = all ones where the pixel and its pair's other pixel run here;
 * the channels that run (live) made once for the masks of both directions */
static uint32_t deriv_live(struct gen_build *B, bool ddx, struct gen_deriv_masks *m)
{
    unsigned simd = B->p->simd;
    if (m->both[ddx])
        return m->both[ddx] - 1;
    struct gen_inst *i;
    if (!m->live) {
        uint32_t v = gb_new(B, false);
        i = gb_inst(B, GOP_MOV, false);
        i->nomask = true;
        i->dst = gen_vr(v, 0, GT_UD);
        i->src[0] = gen_imm(0, GT_UD);
        i = gb_inst(B, GOP_MOV, false);
        i->dst = gen_vr(v, 0, GT_UD);
        i->src[0] = gen_imm(0xffffffffu, GT_UD);
        m->live = v + 1;
    }
    uint32_t live = m->live - 1, both = gb_new(B, false);
    m->both[ddx] = both + 1;
    struct gen_opnd lv = gen_vr(live, 0, GT_UD), bd = gen_vr(both, 0, GT_UD);
    if (ddx) {
        i = gb_inst(B, GOP_AND, false);
        i->dst = bd;
        i->src[0] = lv;
        i->src[0].region = GR_DDX;
        i->src[0].off += 4;
        i->src[1] = lv;
        i->src[1].region = GR_DDX;
        return both;
    }
    /* As qwords (a pixel pair of a row each), subspan s is pairs 2s (top)
     * and 2s+1 (bottom), and both rows' mask is (top & bottom): pair p
     * reads pairs 2(p/2) + 1 and 2(p/2), the <2;2,0> region of dsx on
     * qwords.  Written for every channel (NoMask): live is 0 for those
     * that do not run, and a 64-bit operation spans two GRFs at most, so
     * SIMD32 takes two. */
    for (unsigned h = 0; h < (simd + 15) / 16; h++) {
        unsigned n = simd < 16 ? simd / 2 : 8;
        i = gb_inst(B, GOP_AND, false);
        i->exec = (uint8_t)n;
        i->nomask = true;
        i->dst = bd;
        i->dst.type = GT_UQ;
        i->dst.off += 64 * h;
        i->src[0] = lv;
        i->src[0].type = GT_UQ;
        i->src[0].region = GR_DDX;
        i->src[0].off += 64 * h + 8;
        i->src[1] = lv;
        i->src[1].type = GT_UQ;
        i->src[1].region = GR_DDX;
        i->src[1].off += 64 * h;
    }
    return both;
}

/*
 * dsx/dsy across the 2x2 subspan (channels 4s..4s+3 = top-left, top-right,
 * bottom-left, bottom-right): dsx = right - left of the pixel's row, one
 * instruction with <2;2,0> regions; dsy = bottom - top of its column:
 * the columns of every subspan packed by one instruction of half the width
 * (<4;2,1>), then spread to both rows by the mask's and on qwords
 * (<1;2,0>), at SIMD32 once per 16-channel half: the fine derivatives the
 * interpreter computes.  The hardware reads the
 * neighbour's register whether or not that channel runs this
 * instruction; the interpreter's derivative is 0 unless both pixels of
 * the pair stand here (divergent flow, a partial subspan), so the result
 * is ANDed with "both run it".  A uniform source gives x - x (+0, or NaN
 * for an infinite or NaN x).
 */
void gen_op_deriv(const struct gen_opctx *c, bool ddx, const struct gen_opnd s[4], uint8_t mask,
                  struct gen_opnd r[4], struct gen_deriv_masks *m)
{
    struct gen_build *B = c->b;
    uint32_t both = 0;
    for (unsigned l = 0; l < 4; l++) {
        r[l] = FIMM(0.0f);
        if (!(mask >> l & 1))
            continue;
        struct gen_opnd x = s[l];
        float f;
        if (imm_float(x, &f) && isfinite(f))
            continue; /* +0 */
        if (!both)
            both = deriv_live(B, ddx, m);
        struct gen_opnd d = gb_val(B, false, GT_F);
        r[l] = d;
        if (gb_is_uniform(B->p, &x)) {
            x = gb_reg(B, x);
            struct gen_inst *i = gb_inst(B, GOP_ADD, false);
            i->dst = d;
            i->src[0] = x;
            i->src[1] = gb_neg(x);
            deriv_mask(B, d, both);
            continue;
        }
        if (x.neg || x.abs || x.kind != GO_VREG || x.region != GR_AUTO) {
            /* a copy in a plain register, so the subspan regions apply */
            struct gen_opnd t = gb_val(B, false, GT_F);
            gb_mov_to(B, t, x);
            x = t;
        }
        if (ddx) {
            struct gen_inst *i = gb_inst(B, GOP_ADD, false);
            i->dst = d;
            i->src[0] = x;
            i->src[0].region = GR_DDX;
            i->src[0].off += 4;
            i->src[1] = x;
            i->src[1].region = GR_DDX;
            i->src[1].neg = true;
        } else {
            /* bottom - top of each column of every subspan, packed (the
             * two pairs of subspan s in pair s), for every channel: the
             * mask decides which count; then each pair twice (top and
             * bottom row), as qwords, ANDed with the mask.  SIMD32 does
             * this per 16-channel half (a 64-bit operation spans two GRFs
             * at most), each half reading and writing its own 64 bytes */
            unsigned halves = B->p->simd == 32 ? 2 : 1, n = B->p->simd / 2 / halves;
            uint32_t t = gen_new_vreg(B->p, 4 * n * halves, false);
            for (unsigned h = 0; h < halves; h++) {
                struct gen_inst *i = gb_inst(B, GOP_ADD, false);
                i->exec = (uint8_t)n;
                i->nomask = true;
                i->dst = gen_vr(t, 4 * n * h, GT_F);
                i->src[0] = x;
                i->src[0].region = GR_PAIRS;
                i->src[0].off += 64 * h + 8;
                i->src[1] = x;
                i->src[1].region = GR_PAIRS;
                i->src[1].off += 64 * h;
                i->src[1].neg = true;
                i = gb_inst(B, GOP_AND, false);
                i->exec = (uint8_t)n;
                i->nomask = true;
                i->dst = d;
                i->dst.type = GT_UQ;
                i->dst.off += 64 * h;
                i->src[0] = gen_vr(t, 4 * n * h, GT_UQ);
                i->src[0].region = GR_REP2;
                i->src[1] = gen_vr(both, 64 * h, GT_UQ);
                i->src[1].region = GR_VEC;
            }
            continue;
        }
        deriv_mask(B, d, both);
    }
}
