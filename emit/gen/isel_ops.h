/*
 * gen/isel_ops.h — what one vec4 operation computes, as Gen instructions
 * on Gen operands (gen/isel_ops.c; emit/gen only).  The instruction
 * selection (gen/isel.c) reads the MIR sources into operands, calls
 * gen_op_compute and writes the results where the MIR destination says;
 * these functions only emit the arithmetic, each exactly as the
 * reference interpreter defines the operation (translator/run/ops.c),
 * under both float rules.
 */
#ifndef ST_GEN_ISEL_OPS_H
#define ST_GEN_ISEL_OPS_H

#include "build.h"

struct gen_opctx {
    struct gen_build *b;
    bool legacy;  /* --float-rules=d3d9: a zero factor gives +0 in the products of a definition */
    bool fuse;    /* the multiply-add operations as fused mad (docs/gen-backend.md "mad") */
    bool arb;     /* ARB semantics of min, max, cmp, lrp (docs/arb.md) */
    uint16_t ver; /* expp/logp: the 1_x forms before 2_0 */
    bool uniform; /* the results may be uniform (every source that is) */
    enum st_compare cmp;          /* setp */
    /* GT_F, or GT_HF for a half instruction (--pp=fp16, docs/mir.md): its
     * operands are halves and every instruction computes in :hf, each one
     * step of the interpreter's half arithmetic (st_op_env.half) */
    enum gen_type ft;
    uint8_t swz_sel[4], swz_neg;  /* ARB SWZ */
};

/*
 * The lanes in `mask` of operation `op` (an st_opcode whose result is a
 * function of its sources) from s[k][l], source k's value in lane l of
 * the instruction (swizzle and modifiers applied, float).  r[l]: the
 * results, new values or operands passed through (mov, abs, swz); float,
 * except setp (GT_UD: all ones or zero) and mova / ARB ARL (GT_D).
 * False for an operation this file does not compute (the caller's).
 */
bool gen_op_compute(const struct gen_opctx *c, unsigned op, const struct gen_opnd s[3][4],
                    uint8_t mask, struct gen_opnd r[4]);

/* The product of a definition under the float rule (mul, and each factor pair of a dot product). */
struct gen_opnd gen_op_mul(const struct gen_opctx *c, struct gen_opnd a, struct gen_opnd b);
/* a * b + add: one fused mad when c->fuse (with the d3d9 rule's zero
 * factors), else the product then the sum. */
struct gen_opnd gen_op_mad(const struct gen_opctx *c, struct gen_opnd a, struct gen_opnd b,
                           struct gen_opnd add);
struct gen_opnd gen_op_add(const struct gen_opctx *c, struct gen_opnd a, struct gen_opnd b);
/* t * a + (1 - t) * b as Gen's lrp, rounded once (st_op_lrp_once), when
 * products fuse, under the IEEE rule, in float; none otherwise (the caller
 * keeps its steps: the interpreter's other readings). */
struct gen_opnd gen_op_lrp(const struct gen_opctx *c, struct gen_opnd t, struct gen_opnd a,
                           struct gen_opnd b);
/* a . b over n lanes as the interpreter's st_op_dot: fused (c->fuse), a
 * mul (none for a factor +-1) and one mad per further term in
 * st_op_dot_term's order; unfused, ((a0 b0 + a1 b1) + a2 b2) [+ a3 b3]. */
struct gen_opnd gen_op_dot(const struct gen_opctx *c, const struct gen_opnd a[4],
                           const struct gen_opnd b[4], unsigned n);
/* The masks of the derivatives' "both pixels run here" (gen/isel_ops.c),
 * shared by the derivatives of one straight stretch of code, where the
 * channels that run stay the same: vreg + 1 of the channels that run, of
 * both pixels of each column pair (dsy) and of each row pair (dsx); 0: not
 * made yet.  The caller clears it where the execution mask may change. */
struct gen_deriv_masks {
    uint32_t live, both[2];
};

/* a . b + add as st_op_dot_add (DPH, dp2add): fused, one mad per term
 * onto add. */
struct gen_opnd gen_op_dot_add(const struct gen_opctx *c, const struct gen_opnd a[4],
                               const struct gen_opnd b[4], unsigned n, struct gen_opnd add);
/* dsx (right - left) or dsy (bottom - top) across the 2x2 subspan. */
void gen_op_deriv(const struct gen_opctx *c, bool ddx, const struct gen_opnd s[4], uint8_t mask,
                  struct gen_opnd r[4], struct gen_deriv_masks *m);

#endif
