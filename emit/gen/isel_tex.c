/*
 * gen/isel_tex.c — ps_1_x texture-phase instructions (isel_tex.h), from
 * the instruction as written: the stage is the destination register's
 * number, the coordinates are the interpolated t# set of that number
 * (not the t# register, which an earlier texture instruction may have
 * overwritten), the dot products of the texm3x* family run in the
 * interpreter's order (as mul + mad), and a source's swizzle and modifier
 * are the interpreter's read_src.
 */
#include <math.h>
#include <string.h>

#include "isel_tex.h"

uint8_t gen_tex1x_coords(const struct st_instr *a)
{
    switch (a->op) {
    case ST_OP_TEXM3x3VSPEC:
        return 0xf;
    case ST_OP_TEX: case ST_OP_TEXCOORD: case ST_OP_TEXBEM: case ST_OP_TEXBEML:
    case ST_OP_TEXM3x2PAD: case ST_OP_TEXM3x3PAD: case ST_OP_TEXM3x2TEX: case ST_OP_TEXM3x2DEPTH:
    case ST_OP_TEXM3x3TEX: case ST_OP_TEXM3x3: case ST_OP_TEXM3x3SPEC: case ST_OP_TEXDP3TEX:
    case ST_OP_TEXDP3:
        return 0x7;
    case ST_OP_TEXKILL:
        return a->dst.reg.file == ST_REG_TEXTURE ? 0x7 : 0;
    case ST_OP_TEXLD:
        return a->nsrc == 0 ? 0x7 : 0;
    default:
        return 0;
    }
}

static struct gen_opnd div_f(struct gen_tex1x *t, struct gen_opnd a, struct gen_opnd b)
{
    return gb_math(t->op.b, GM_FDIV, false, a, b);
}

/* The interpreter's read_src on a raw register value: swizzle, then the modifier. */
static void read_src(struct gen_tex1x *t, const struct st_src *s, const struct gen_opnd raw[4],
                     struct gen_opnd v[4])
{
    const struct gen_opctx *c = &t->op;
    for (unsigned k = 0; k < 4; k++)
        v[k] = raw[ST_SWZ_LANE(s->swizzle, k)];
    for (unsigned k = 0; k < 4; k++) {
        struct gen_opnd x = v[k];
        switch (s->mod) {
        case ST_SRCMOD_NEG: v[k] = gb_fold_imm(gb_neg(x)); break;
        case ST_SRCMOD_ABS: v[k] = gb_fold_imm(gb_abs(x)); break;
        case ST_SRCMOD_ABSNEG: v[k] = gb_fold_imm(gb_neg(gb_abs(x))); break;
        case ST_SRCMOD_BIAS: v[k] = gen_op_add(c, x, gb_imm_f(-0.5f)); break;
        case ST_SRCMOD_BIASNEG: v[k] = gb_neg(gen_op_add(c, x, gb_imm_f(-0.5f))); break;
        case ST_SRCMOD_SIGN: case ST_SRCMOD_SIGNNEG: {
            /* 2 * (x - 0.5) = 2x - 1 exactly: one mad */
            struct gen_opnd d = gb_mad(c->b, false, gb_imm_f(-1.0f), x, gb_imm_f(2.0f));
            v[k] = s->mod == ST_SRCMOD_SIGN ? d : gb_neg(d);
            break;
        }
        case ST_SRCMOD_COMP: v[k] = gen_op_add(c, gb_neg(x), gb_imm_f(1.0f)); break;
        case ST_SRCMOD_X2: case ST_SRCMOD_X2NEG: {
            struct gen_opnd d = gb_alu(c->b, GOP_MUL, GT_F, false, x, gb_imm_f(2.0f));
            v[k] = s->mod == ST_SRCMOD_X2 ? d : gb_neg(d);
            break;
        }
        default: break;
        }
    }
    if (s->mod == ST_SRCMOD_DZ || s->mod == ST_SRCMOD_DW) {
        /* ps_1_4: x / z, y / z (or w) */
        struct gen_opnd d = v[s->mod == ST_SRCMOD_DZ ? 2 : 3];
        v[0] = div_f(t, v[0], d);
        v[1] = div_f(t, v[1], d);
    }
}

static void sample(struct gen_tex1x *t, uint32_t stage, struct gen_opnd u, struct gen_opnd v,
                   struct gen_opnd w, struct gen_opnd r[4])
{
    struct gen_opnd c[3] = {u, v, w};
    gen_kernel_sample(t->ki, stage, 0, c, NULL, r);
}

static struct gen_opnd pad_value(struct gen_tex1x *t, uint32_t d, unsigned back)
{
    if (d < back || d - back >= 8 || t->pad[d - back].kind == GO_NONE)
        return gb_imm_f(0.0f);
    return t->pad[d - back];
}

/* R = 2 * N * (N.E) / (N.N) - E, the eye vector reflected about the normal. */
static void reflect(struct gen_tex1x *t, const struct gen_opnd n[4], const struct gen_opnd e[4],
                    struct gen_opnd rv[3])
{
    const struct gen_opctx *c = &t->op;
    struct gen_opnd ne = gen_op_dot(c, n, e, 3), nn = gen_op_dot(c, n, n, 3);
    for (unsigned k = 0; k < 3; k++) {
        struct gen_opnd n2 = gb_alu(c->b, GOP_MUL, GT_F, false, gb_imm_f(2.0f), n[k]);
        struct gen_opnd q = div_f(t, gen_op_mul(c, n2, ne), nn);
        rv[k] = gen_op_add(c, q, gb_neg(e[k]));
    }
}

/* u or v of texbem: coord + m_a * s.x + m_b * s.y, left to right. */
static struct gen_opnd bump_uv(struct gen_tex1x *t, uint32_t stage, unsigned ja, unsigned jb,
                               struct gen_opnd base, const struct gen_opnd s[4])
{
    const struct gen_opctx *c = &t->op;
    struct gen_opnd x = gen_op_mad(c, gen_kernel_bump(t->ki, stage, ja), s[0], base);
    return gen_op_mad(c, gen_kernel_bump(t->ki, stage, jb), s[1], x);
}

/* f0.0 = any of v[0..2] < 0 (t->kill: whether any can be). */
static void kill_flag(struct gen_tex1x *t, const struct gen_opnd v[4])
{
    t->kill = gb_flag_any_negative(t->op.b, v, 3);
}

/* depth = y == 0 ? 1.0 : x / y (texdepth, texm3x2depth) */
static struct gen_opnd depth(struct gen_tex1x *t, struct gen_opnd x, struct gen_opnd y)
{
    struct gen_build *B = t->op.b;
    struct gen_opnd q = div_f(t, x, y), d = gb_val(B, false, GT_F);
    gb_cmp_flag(B, GC_EQ, y, gb_imm_f(0.0f), false, 0);
    gb_sel_to(B, d, gb_imm_f(1.0f), q, 0, false);
    return d;
}

bool gen_tex1x_compute(struct gen_tex1x *t, const struct st_instr *a, unsigned nsrc,
                       const struct gen_opnd src[4][4], struct gen_opnd r[4])
{
    const struct gen_opctx *c = &t->op;
    const struct gen_opnd zero = gb_imm_f(0.0f), one = gb_imm_f(1.0f);
    uint32_t d = a->dst.reg.index;
    const struct gen_opnd *co = t->coord[0];
    /* the sources as written: after the register it names when it writes none */
    unsigned first = st_opaque_writes(a) || !a->has_dst ? 0 : 1;
    struct gen_opnd s0[4], s1[4];
    for (unsigned k = 0; k < 4; k++)
        s0[k] = s1[k] = zero;
    if (a->nsrc > 0 && first < nsrc)
        read_src(t, &a->src[0], src[first], s0);
    if (a->nsrc > 1 && first + 1 < nsrc)
        read_src(t, &a->src[1], src[first + 1], s1);
    for (unsigned k = 0; k < 4; k++)
        r[k] = zero;
    switch (a->op) {
    case ST_OP_TEXCRD:
        memcpy(r, s0, sizeof(s0));
        return true;
    case ST_OP_TEXLD:
        if (a->nsrc > 0)
            sample(t, d, s0[0], s0[1], s0[2], r);
        else
            sample(t, d, co[0], co[1], co[2], r);
        return true;
    case ST_OP_TEX:
        sample(t, d, co[0], co[1], co[2], r);
        return true;
    case ST_OP_TEXCOORD:
        for (unsigned k = 0; k < 3; k++) {
            struct gen_opnd v = gb_val(c->b, false, GT_F);
            gb_alu_to(c->b, GOP_MOV, v, co[k], gen_opnd_none(), true); /* (sat): _sat */
            r[k] = v;
        }
        r[3] = one;
        return true;
    case ST_OP_TEXBEM: case ST_OP_TEXBEML: {
        struct gen_opnd u = bump_uv(t, d, 0, 2, co[0], s0), v = bump_uv(t, d, 1, 3, co[1], s0);
        sample(t, d, u, v, zero, r);
        if (a->op == ST_OP_TEXBEML) {
            struct gen_opnd lum = gen_op_mad(c, s0[2], gen_kernel_bump(t->ki, d, 4),
                                             gen_kernel_bump(t->ki, d, 5));
            for (unsigned k = 0; k < 4; k++)
                r[k] = gen_op_mul(c, r[k], lum);
        }
        return true;
    }
    case ST_OP_BEM:
        r[0] = bump_uv(t, d, 0, 2, s0[0], s1);
        r[1] = bump_uv(t, d, 1, 3, s0[1], s1);
        return true;
    case ST_OP_TEXREG2AR:
        sample(t, d, s0[3], s0[0], zero, r);
        return true;
    case ST_OP_TEXREG2GB:
        sample(t, d, s0[1], s0[2], zero, r);
        return true;
    case ST_OP_TEXREG2RGB:
        sample(t, d, s0[0], s0[1], s0[2], r);
        return true;
    case ST_OP_TEXM3x2PAD: case ST_OP_TEXM3x3PAD:
        if (d < 8)
            t->pad[d] = gen_op_dot(c, co, s0, 3);
        return true;
    case ST_OP_TEXM3x2TEX: case ST_OP_TEXM3x2DEPTH: {
        struct gen_opnd u = pad_value(t, d, 1), v = gen_op_dot(c, co, s0, 3);
        if (a->op == ST_OP_TEXM3x2DEPTH)
            r[0] = depth(t, u, v);
        else
            sample(t, d, u, v, zero, r);
        return true;
    }
    case ST_OP_TEXM3x3TEX: case ST_OP_TEXM3x3: case ST_OP_TEXM3x3SPEC: case ST_OP_TEXM3x3VSPEC: {
        struct gen_opnd n[4] = {pad_value(t, d, 2), pad_value(t, d, 1), gen_op_dot(c, co, s0, 3),
                                one};
        if (a->op == ST_OP_TEXM3x3) {
            memcpy(r, n, sizeof(n));
            return true;
        }
        if (a->op == ST_OP_TEXM3x3TEX) {
            sample(t, d, n[0], n[1], n[2], r);
            return true;
        }
        struct gen_opnd e[4] = {zero, zero, zero, zero}, rv[3];
        if (a->op == ST_OP_TEXM3x3SPEC) {
            memcpy(e, s1, sizeof(e));
        } else {
            e[0] = d >= 2 ? t->coord[2][3] : zero;
            e[1] = d >= 1 ? t->coord[1][3] : zero;
            e[2] = co[3];
        }
        reflect(t, n, e, rv);
        sample(t, d, rv[0], rv[1], rv[2], r);
        return true;
    }
    case ST_OP_TEXDP3TEX: case ST_OP_TEXDP3: {
        struct gen_opnd u = gen_op_dot(c, co, s0, 3);
        if (a->op == ST_OP_TEXDP3)
            r[0] = r[1] = r[2] = r[3] = u;
        else
            sample(t, d, u, zero, zero, r);
        return true;
    }
    case ST_OP_TEXDEPTH:
        /* ps_1_4: r5.r / r5.g, 1.0 when r5.g is 0 (the register it names) */
        if (nsrc > 0)
            r[0] = depth(t, src[0][0], src[0][1]);
        return true;
    case ST_OP_TEXKILL:
        kill_flag(t, a->dst.reg.file == ST_REG_TEXTURE || nsrc == 0 ? co : src[0]);
        return true;
    case ST_OP_PHASE: case ST_OP_NOP:
        return true;
    default:
        return false;
    }
}
