/*
 * tolerance.c — when a Gen engine result counts as the interpreter's: the
 * rule of docs/gensim.md ("Tolerances of the Gen engine"), in one place for
 * every judge (tests/test_diff_gen.c, test_fuzz.c, test_fuzz_arb.c and
 * `shadertrans batch --compare-engines`).
 */
#include <math.h>
#include <string.h>

#include "translator.h"

/*
 * The instructions whose Gen result may differ from the interpreter's:
 * the interpreter computes them in double and rounds once, the kernel with
 * float `math` (exp2f, log2f, sinf, cosf, powf).
 */
bool st_tol_inexact_op(enum st_opcode op)
{
    switch (op) {
    case ST_OP_EXP: case ST_OP_EXPP: case ST_OP_LOG: case ST_OP_LOGP: case ST_OP_POW:
    case ST_OP_LIT: case ST_OP_SINCOS:
    /* ARB: EX2, LG2, POW, EXP, LOG are the D3D9 opcodes above (docs/arb.md) */
    case ST_OP_ARB_SIN: case ST_OP_ARB_COS: case ST_OP_ARB_SCS: case ST_OP_ARB_LIT:
        return true;
    default:
        return false;
    }
}

/*
 * A _pp instruction under --pp=fp16 computing one of them rounds its
 * function value to half: where the kernel's float value (exp2f, ...)
 * and the interpreter's double one round to neighbouring halves, the two
 * differ by a unit in the half's last place, 2^-10 of it, which later
 * steps in half carry on.
 */
unsigned st_tol_shader_inexact(const struct st_shader *sh)
{
    unsigned level = ST_TOL_EXACT;
    for (const struct st_instr *i = sh->first; i; i = i->next)
        if (st_tol_inexact_op(i->op))
            level = sh->pp_half && (i->dstmod & ST_DSTMOD_PP) ? ST_TOL_HALF
                    : level < ST_TOL_INEXACT                  ? ST_TOL_INEXACT
                                                              : level;
    /* ARB_fog_exp/exp2 use math.exp in the kernel */
    if (level == ST_TOL_EXACT && sh->dialect == ST_ARB && sh->arb &&
        (sh->arb->options & (ST_ARB_OPT_FOG_EXP | ST_ARB_OPT_FOG_EXP2)))
        level = ST_TOL_INEXACT;
    return level;
}

/*
 * The multiply-add operations: their definitions add products (mad,
 * dp2add, the dot products and the matrices, lrp, crs, nrm, ARB DPH and
 * XPD, and the ps_1_x bump and texm3x* dot products; ARB_position_invariant's
 * transform and the ARB_fog_* blend).  Neither
 * specification says whether such a product is rounded before it is
 * added: the interpreter's text rounds it first, the Gen kernels round it
 * with the sum (a fused mad).  A shader with one is judged against both
 * readings of the interpreter (st_interp_execute_ex, `fused`).
 */
bool st_tol_muladd_op(enum st_opcode op)
{
    switch (op) {
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

bool st_tol_shader_muladd(const struct st_shader *sh)
{
    /* ARB_position_invariant's transform is a matrix operation too (the
     * fixed-function step of st_arb_run_finish, no instruction of its own) */
    if (sh->dialect == ST_ARB && sh->arb && sh->version.type == ST_VS &&
        (sh->arb->options & ST_ARB_OPT_POSITION_INVARIANT))
        return true;
    /* so is the ARB_fog_* blend, f C + (1 - f) Cfog: LRP's formula */
    if (sh->dialect == ST_ARB && sh->arb && sh->version.type == ST_PS &&
        (sh->arb->options & (ST_ARB_OPT_FOG_EXP | ST_ARB_OPT_FOG_EXP2 | ST_ARB_OPT_FOG_LINEAR)))
        return true;
    for (const struct st_instr *i = sh->first; i; i = i->next)
        if (st_tol_muladd_op(i->op))
            return true;
    return false;
}

/* |want - got| within the tolerance of docs/gensim.md: 2^-14 of the larger
 * magnitude (512 ulps), or 2^-24 absolute for results near zero, where a
 * difference of rounding in a cancelling sum is absolute, not relative.
 * In half (ST_TOL_HALF): 2^-8 of the larger magnitude (four units in the
 * half's last place at the top of a binade), or 2^-14 absolute (the
 * smallest normal half: below it a half is a denormal with absolute steps). */
bool st_tol_within(float want, float got, unsigned level)
{
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (memcmp(&want, &got, sizeof(want)) == 0)
        return true;
    if (level == ST_TOL_EXACT)
        return false;
    if (isinf(want) || isinf(got))
        return false;
    double w = want, g = got, m = fmax(fabs(w), fabs(g));
    if (level >= ST_TOL_HALF)
        return fabs(w - g) <= fmax(m * 0x1p-8, 0x1p-14);
    return fabs(w - g) <= fmax(m * 0x1p-14, 0x1p-24);
}

bool st_tol_within_either(float want, float want_fused, float got, unsigned level)
{
    return st_tol_within(want, got, level) || st_tol_within(want_fused, got, level);
}

const struct st_run_outputs *st_tol_reading(const struct st_run_outputs *want,
                                            const struct st_run_outputs *want_fused,
                                            const struct st_run_outputs *got)
{
    return want->discarded != got->discarded && want_fused->discarded == got->discarded
               ? want_fused
               : want;
}
