/*
 * gen/build.h — emitting legal Gen IR from operands (emit/gen only).
 *
 * Both the instruction selection (gen/isel*.c) and the kernel ABI
 * (gen/kernel.c) emit through these helpers, which know Gen9's operand
 * rules: an immediate only as the last source of a two-source
 * instruction (commutative operands swap, compares swap their
 * condition), none in `math` or 3-source instructions (`mad`),
 * where constants come from registers.  Those constant registers are
 * uniform dwords written once by `(W) mov (1)` at the kernel start
 * (gb_finish hoists them there), one per distinct value.
 *
 * A result is uniform (one dword, computed by a `(W)` SIMD1 instruction
 * and read with a scalar region) when the caller asks for it and every
 * source is uniform; divergent otherwise.
 */
#ifndef ST_GEN_BUILD_H
#define ST_GEN_BUILD_H

#include <string.h>

#include "gen_ir.h"

struct gen_kreg {
    uint32_t bits;
    uint8_t type;
    uint32_t vreg;
};

struct gen_build {
    struct st_ctx *ctx;
    const struct st_shader *sh;
    struct gen_program *p;
    bool failed;
    struct gen_kreg *kreg; /* constants in registers */
    unsigned nkreg, capkreg;
};

void gb_init(struct gen_build *b, struct st_ctx *ctx, const struct st_shader *sh,
             struct gen_program *p);
/* Moves the constant registers' movs to the kernel start; frees the cache. */
void gb_finish(struct gen_build *b);
/* A located ST_E_NOT_SUPPORTED "WHAT is not supported by the Gen9 back end" (once). */
void gb_fail(struct gen_build *b, const char *what);

/* A new instruction: (W) SIMD1 when uniform, the kernel's width otherwise. */
struct gen_inst *gb_inst(struct gen_build *b, enum gen_op op, bool uniform);
/* A new dword value: 4 bytes when uniform, one dword per channel otherwise. */
uint32_t gb_new(struct gen_build *b, bool uniform);
/* A new value of type t: a dword when uniform (a half in its low word),
 * one element of t per channel otherwise (a half: 2 bytes). */
uint32_t gb_new_t(struct gen_build *b, bool uniform, enum gen_type t);
static inline struct gen_opnd gb_val(struct gen_build *b, bool uniform, enum gen_type t)
{
    return gen_vr(gb_new_t(b, uniform, t), 0, t);
}

bool gb_is_uniform(const struct gen_program *p, const struct gen_opnd *o);
/* Whether the destination operand is a uniform vreg. */
static inline bool gb_dst_uniform(const struct gen_program *p, const struct gen_opnd *d)
{
    return d->kind == GO_VREG && d->vreg < p->nvreg && p->vreg[d->vreg].uniform; /* (past: p->oom) */
}

static inline struct gen_opnd gb_imm_f(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return gen_imm(u, GT_F);
}
/* The immediate of float f in type t: GT_F, or GT_HF (f rounded to half). */
struct gen_opnd gb_imm_ft(float f, enum gen_type t);
/* An immediate's value as a float (GT_F or GT_HF); false for anything else. */
bool gb_imm_value(struct gen_opnd o, float *f);
static inline bool gb_is_float_type(enum gen_type t)
{
    return t == GT_F || t == GT_HF;
}
static inline struct gen_opnd gb_imm_d(int32_t x)
{
    return gen_imm((uint32_t)x, GT_D);
}
static inline struct gen_opnd gb_neg(struct gen_opnd o)
{
    o.neg = !o.neg;
    return o;
}
static inline struct gen_opnd gb_abs(struct gen_opnd o)
{
    o.abs = true;
    o.neg = false;
    return o;
}
/* An immediate's modifiers applied to its bits (floats). */
struct gen_opnd gb_fold_imm(struct gen_opnd o);
/* Is o the float immediate with exactly these bits (modifiers applied)? */
bool gb_is_imm_f(struct gen_opnd o, float f);

/* The operand in a register: an immediate becomes its constant register. */
struct gen_opnd gb_reg(struct gen_build *b, struct gen_opnd o);
/* The operand retyped for a use of type t; float modifiers on a non-float
 * use are applied first (a mov), as integer instructions read them differently. */
struct gen_opnd gb_as_type(struct gen_build *b, struct gen_opnd o, enum gen_type t);

/* dst = a OP c (one or two sources), legalised; sat on the instruction. */
struct gen_inst *gb_alu_to(struct gen_build *b, enum gen_op op, struct gen_opnd dst,
                           struct gen_opnd a, struct gen_opnd c, bool sat);
/* A new value = a OP c, uniform when `uniform` and both sources are. */
struct gen_opnd gb_alu(struct gen_build *b, enum gen_op op, enum gen_type t, bool uniform,
                       struct gen_opnd a, struct gen_opnd c);
/* dst = add + m1 * m2, fused (Gen9 float mad rounds once). */
void gb_mad_to(struct gen_build *b, struct gen_opnd dst, struct gen_opnd add, struct gen_opnd m1,
               struct gen_opnd m2, bool sat);
struct gen_opnd gb_mad(struct gen_build *b, bool uniform, struct gen_opnd add, struct gen_opnd m1,
                       struct gen_opnd m2);
/* The same with a result of type t (GT_F or GT_HF: every operand of that type). */
struct gen_opnd gb_mad_t(struct gen_build *b, bool uniform, enum gen_type t, struct gen_opnd add,
                         struct gen_opnd m1, struct gen_opnd m2);
/* A new value = t * a + (1 - t) * b: Gen9's lrp (rounded once, docs/gensim.md). */
struct gen_opnd gb_lrp_t(struct gen_build *b, bool uniform, enum gen_type ty, struct gen_opnd t,
                         struct gen_opnd a, struct gen_opnd c);
void gb_math_to(struct gen_build *b, enum gen_math fn, struct gen_opnd dst, struct gen_opnd a,
                struct gen_opnd c);
struct gen_opnd gb_math(struct gen_build *b, enum gen_math fn, bool uniform, struct gen_opnd a,
                        struct gen_opnd c);
/* The same of type t.  :hf math is SIMD8 at most on Gen9: a wider one is
 * emitted as (8|M0), (8|M8) ... pieces. */
struct gen_opnd gb_math_t(struct gen_build *b, enum gen_math fn, bool uniform, enum gen_type t,
                          struct gen_opnd a, struct gen_opnd c);
/*
 * The float operand x (GT_F or GT_HF) as type t: itself, an immediate
 * converted (to half: rounded), or a mov into a new value.  A divergent
 * conversion between float and half is "mixed float mode", which Gen9
 * allows only up to SIMD8 with a packed half destination 16-byte aligned
 * or a float destination: (8|M0), (8|M8) ... movs.
 */
struct gen_opnd gb_convert(struct gen_build *b, struct gen_opnd x, enum gen_type t);
/* Emits i (already appended, the kernel's width) as its SIMD8 pieces when
 * wider: per-channel operands step by 8 elements each piece. */
void gb_split8(struct gen_build *b, struct gen_inst *i);
void gb_mov_to(struct gen_build *b, struct gen_opnd dst, struct gen_opnd src);
/* Sets flag f (0: f0.0, 1: f1.0) to (a cmod c) in every channel (uniform:
 * channel 0 only, (W) SIMD1); the caller predicates on it. */
void gb_cmp_flag(struct gen_build *b, enum gen_cmod cmod, struct gen_opnd a, struct gen_opnd c,
                 bool uniform, unsigned flag);
/* The same, but only in the channels where flag f is `keep_if` false: the
 * flag becomes (old || a cmod c) for keep_if GP_NORMAL. */
void gb_cmp_flag_or(struct gen_build *b, enum gen_cmod cmod, struct gen_opnd a, struct gen_opnd c,
                    bool uniform, unsigned flag);
/* Sets f0.0 = any of v[0..n-1] < 0 (the kill test of texkill and KIL): one
 * compare per distinct operand (a replicated swizzle, KIL x.yyyy, is one),
 * none for an immediate that is not below 0 (NaN included).  False when
 * no operand can be below 0: nothing emitted, nothing is killed. */
bool gb_flag_any_negative(struct gen_build *b, const struct gen_opnd *v, unsigned n);
/* Whether a and b read the same thing the same way. */
bool gb_same_opnd(const struct gen_opnd *a, const struct gen_opnd *b);
/* dst = flag f (inverted when invert) ? x : y */
void gb_sel_to(struct gen_build *b, struct gen_opnd dst, struct gen_opnd x, struct gen_opnd y,
               unsigned flag, bool invert);
/* (f) mov dst, src: only the channels whose flag is set (clear when invert). */
void gb_pmov_to(struct gen_build *b, struct gen_opnd dst, struct gen_opnd src, unsigned flag,
                bool invert);
/* sel.cmod dst, a, c (min/max as the hardware defines them: the non-NaN source). */
void gb_selc_to(struct gen_build *b, struct gen_opnd dst, enum gen_cmod cmod, struct gen_opnd a,
                struct gen_opnd c);

enum gen_cmod gb_swap_cmod(enum gen_cmod c);

#endif
