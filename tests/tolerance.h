/*
 * tolerance.h — the comparison rule of docs/gensim.md ("Tolerances of the
 * Gen engine"), shared by test_gen.c, test_diff_gen.c, test_fuzz.c and
 * test_fuzz_arb.c so they apply exactly the same rule.  Included by test
 * programs only (each is one translation unit), hence static functions in
 * a header.
 */
#ifndef ST_TESTS_TOLERANCE_H
#define ST_TESTS_TOLERANCE_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "translator.h"

/*
 * The instructions whose Gen result may differ from the interpreter's:
 * the interpreter computes them in double and rounds once, the kernel with
 * float `math` (exp2f, log2f, sinf, cosf; pow as exp2(y * log2 x)).
 */
static inline bool inexact_op(const struct st_shader *sh, const struct st_instr *i)
{
    (void)sh;
    switch (i->op) {
    case ST_OP_EXP: case ST_OP_EXPP: case ST_OP_LOG: case ST_OP_LOGP: case ST_OP_POW:
    case ST_OP_LIT: case ST_OP_SINCOS:
    /* ARB: EX2, LG2, POW, EXP, LOG are the D3D9 opcodes above (docs/arb.md) */
    case ST_OP_ARB_SIN: case ST_OP_ARB_COS: case ST_OP_ARB_SCS: case ST_OP_ARB_LIT:
        return true;
    default:
        return false;
    }
}

static inline bool shader_inexact(const struct st_shader *sh)
{
    for (const struct st_instr *i = sh->first; i; i = i->next)
        if (inexact_op(sh, i))
            return true;
    /* ARB_fog_exp/exp2 use math.exp in the kernel */
    return sh->dialect == ST_ARB && sh->arb &&
           (sh->arb->options & (ST_ARB_OPT_FOG_EXP | ST_ARB_OPT_FOG_EXP2));
}

/*
 * The multiply-add operations: their definitions add products (mad,
 * dp2add, the dot products and the matrices, lrp, crs, nrm, ARB DPH and
 * XPD, and the ps_1_x bump and texm3x* dot products).  Neither
 * specification says whether such a product is rounded before it is
 * added: the interpreter's text rounds it first, the Gen kernels round it
 * with the sum (a fused mad).  A shader with one is judged against both
 * readings of the interpreter (st_interp_execute_ex, `fused`).
 */
static inline bool muladd_op(const struct st_instr *i)
{
    switch (i->op) {
    case ST_OP_MAD: case ST_OP_DP2ADD: case ST_OP_DP3: case ST_OP_DP4: case ST_OP_M4x4:
    case ST_OP_M4x3: case ST_OP_M3x4: case ST_OP_M3x3: case ST_OP_M3x2: case ST_OP_LRP:
    case ST_OP_CRS: case ST_OP_NRM: case ST_OP_ARB_DPH: case ST_OP_ARB_XPD: case ST_OP_BEM:
    case ST_OP_TEXBEM: case ST_OP_TEXBEML: case ST_OP_TEXM3x2PAD: case ST_OP_TEXM3x2TEX:
    case ST_OP_TEXM3x2DEPTH: case ST_OP_TEXM3x3PAD: case ST_OP_TEXM3x3: case ST_OP_TEXM3x3TEX:
    case ST_OP_TEXM3x3SPEC: case ST_OP_TEXM3x3VSPEC: case ST_OP_TEXDP3: case ST_OP_TEXDP3TEX:
        return true;
    default:
        return false;
    }
}

static inline bool shader_muladd(const struct st_shader *sh)
{
    for (const struct st_instr *i = sh->first; i; i = i->next)
        if (muladd_op(i))
            return true;
    return false;
}

/* |want - got| within the tolerance of docs/gensim.md: 2^-14 of the larger
 * magnitude (512 ulps), or 2^-24 absolute for results near zero, where a
 * difference of rounding in a cancelling sum is absolute, not relative. */
static inline bool within(float want, float got, bool inexact)
{
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (memcmp(&want, &got, sizeof(want)) == 0)
        return true;
    if (!inexact)
        return false;
    if (isinf(want) || isinf(got))
        return false;
    double w = want, g = got, m = fmax(fabs(w), fabs(g));
    return fabs(w - g) <= fmax(m * 0x1p-14, 0x1p-24);
}

/* A Gen value against the interpreter's under the two readings of the
 * multiply-adds (want: each product rounded, want_fused: rounded with its
 * sum; the same value when the shader has none). */
static inline bool within_either(float want, float want_fused, float got, bool inexact)
{
    return within(want, got, inexact) || within(want_fused, got, inexact);
}

/* The difference of the two readings in units in the last place of the
 * first (0 when both are the same bits, or both NaN), for the record. */
static inline double reading_ulps(float a, float b)
{
    if ((isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof(a)) == 0)
        return 0.0;
    if (!isfinite(a) || !isfinite(b))
        return INFINITY;
    int e;
    frexpf(a == 0.0f ? FLT_MIN : a, &e);
    return fabs((double)a - (double)b) / ldexp(1.0, e - 24);
}

#endif
