/* requires: SSA form (after mem2reg) of a module lowered with ST_LOWER_VECTOR.
 * invalidates: replaces marker calls by constants (the calls stay for dce). */
/*
 * fold_ops.c — constant folding of the markers.
 *
 * LLVM cannot look into a marker, so a mul of two def constants would stay
 * a mul.  This pass evaluates every marker whose vector operands are all
 * constants with the interpreter's own definition of the operation
 * (st_op_eval, translator/run/ops.c): the folded value is by construction
 * what the interpreter computes.  The module serves every target and both
 * float rules (the vector text is one for both, the Gen back end bakes the
 * rule in later), so a lane is folded only when both rules give the same
 * bits; an operation whose result depends on the rule (0 * inf) stays.
 * Likewise for the two readings of a multiply-add (rounded twice, as the
 * interpreter, or once, as the Gen kernels' mad): a product of constants
 * that is not exact stays for the target to compute.
 */
#include <math.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "passes.h"

/* The four lanes of a constant vector; false when it is not one (poison
 * lanes read 0: nobody reads them, lane demand made them poison). */
static bool const_lanes(LLVMValueRef v, float f[4], int32_t i[4], bool *isint)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind || LLVMGetVectorSize(t) != 4 ||
        !LLVMIsConstant(v) || LLVMIsAConstantExpr(v))
        return false;
    LLVMTypeRef et = LLVMGetElementType(t);
    *isint = LLVMGetTypeKind(et) == LLVMIntegerTypeKind;
    for (unsigned k = 0; k < 4; k++) {
        LLVMValueRef e = LLVMGetAggregateElement(v, k);
        f[k] = 0.0f;
        i[k] = 0;
        if (!e || LLVMIsPoison(e) || LLVMIsUndef(e))
            continue;
        if (*isint) {
            if (!LLVMIsAConstantInt(e))
                return false;
            i[k] = (int32_t)LLVMConstIntGetSExtValue(e);
        } else {
            if (!LLVMIsAConstantFP(e))
                return false;
            LLVMBool lost = 0;
            f[k] = (float)LLVMConstRealGetDouble(e, &lost);
        }
    }
    return true;
}

static bool same_bits(float a, float b)
{
    /* NaN payloads are not part of any result we compare */
    if (isnan(a) && isnan(b))
        return true;
    return memcmp(&a, &b, sizeof(a)) == 0;
}

/* The header of st_main: dialect and version the operations depend on. */
static void module_env(LLVMValueRef fn, bool *arb, uint16_t *ver)
{
    *arb = false;
    *ver = ST_VER(3, 0);
    LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                                       "st-dialect", 10);
    if (a) {
        unsigned len = 0;
        const char *v = LLVMGetStringAttributeValue(a, &len);
        *arb = len == 3 && memcmp(v, "arb", 3) == 0;
    }
    a = LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, "st-version", 10);
    if (a) {
        unsigned len = 0, n = 0;
        const char *v = LLVMGetStringAttributeValue(a, &len);
        for (unsigned k = 0; k < len && v[k] >= '0' && v[k] <= '9'; k++)
            n = n * 10 + (unsigned)(v[k] - '0');
        *ver = (uint16_t)n;
    }
}

/* Evaluates marker m on constant sources under one float rule and one
 * reading of the multiply-adds. */
static bool eval(const struct st_marker *m, LLVMValueRef call, bool arb, uint16_t ver, bool legacy,
                 bool fused, const float s[3][4], float res[4], unsigned *mask)
{
    /* a half marker (.f16): its operands are halves, every step of the
     * operation rounds to half, and so does its result */
    *mask = 0xf;
    switch (m->kind) {
    case ST_MK_SAT:
        for (int k = 0; k < 4; k++)
            res[k] = st_op_saturate(s[0][k]);
        return true;
    case ST_MK_SHIFT: {
        int sh = st_llvm_marker_int(call, 1);
        for (int k = 0; k < 4; k++)
            res[k] = ldexpf(s[0][k], sh);
        return true;
    }
    case ST_MK_MOD:
        for (int k = 0; k < 4; k++) {
            float x = s[0][k];
            res[k] = m->mod == 1 ? x - 0.5f : m->mod == 2 ? 2.0f * (x - 0.5f)
                     : m->mod == 3 ? 1.0f - x : 2.0f * x;
        }
        return true;
    case ST_MK_OP: {
        struct st_op_env env = {arb, legacy, ver, m->cmp, {0, 1, 2, 3}, 0, fused, m->half};
        if (m->op == ST_OP_ARB_SWZ) {
            int32_t sel = st_llvm_marker_int(call, 1);
            for (unsigned l = 0; l < 4; l++)
                env.swz_sel[l] = (uint8_t)((sel >> (3 * l)) & 7);
            env.swz_neg = (uint8_t)(st_llvm_marker_int(call, 2) & 0xf);
        }
        return st_op_eval(&env, m->op, s, res, mask);
    }
    default:
        return false;
    }
}

/* The constant that replaces a folded call, or NULL. */
static LLVMValueRef fold_call(LLVMValueRef call, const struct st_marker *m, bool arb, uint16_t ver)
{
    LLVMTypeRef rty = LLVMTypeOf(call);
    if (LLVMGetTypeKind(rty) != LLVMVectorTypeKind)
        return NULL;
    float s[3][4] = {{0}};
    unsigned nargs = (unsigned)LLVMGetNumArgOperands(call), nvec = 0;
    for (unsigned k = 0; k < nargs; k++) {
        LLVMValueRef a = LLVMGetOperand(call, k);
        if (LLVMGetTypeKind(LLVMTypeOf(a)) != LLVMVectorTypeKind)
            continue;
        int32_t iv[4];
        bool isint = false;
        if (nvec >= 3 || !const_lanes(a, s[nvec], iv, &isint) || isint)
            return NULL;
        nvec++;
    }
    if (nvec == 0)
        return NULL;
    /* both float rules, and both readings of a multiply-add (the Gen
     * kernels round it once): a lane is folded when all four agree */
    float r0[4], r1[4], r2[4], r3[4];
    unsigned m0 = 0, m1 = 0, m2 = 0, m3 = 0;
    if (!eval(m, call, arb, ver, false, false, s, r0, &m0) ||
        !eval(m, call, arb, ver, true, false, s, r1, &m1) ||
        !eval(m, call, arb, ver, false, true, s, r2, &m2) ||
        !eval(m, call, arb, ver, true, true, s, r3, &m3))
        return NULL;
    LLVMTypeRef et = LLVMGetElementType(rty);
    LLVMValueRef e[4];
    for (unsigned k = 0; k < 4; k++) {
        if (!((m0 >> k) & 1)) {
            e[k] = LLVMGetPoison(et);
            continue;
        }
        if (!same_bits(r0[k], r1[k]) || !same_bits(r0[k], r2[k]) || !same_bits(r0[k], r3[k]))
            return NULL; /* the float rule or the rounding decides: the target computes it */
        if (m->kind == ST_MK_OP && m->op == ST_OP_SETP)
            e[k] = LLVMConstInt(et, r0[k] != 0.0f, 0);
        else if (LLVMGetTypeKind(et) == LLVMIntegerTypeKind) /* mova, arl */
            e[k] = LLVMConstInt(et, (unsigned long long)(int64_t)st_op_round(r0[k]), 1);
        else
            e[k] = LLVMConstReal(et, r0[k]);
    }
    return LLVMConstVector(e, 4);
}

/* The float vector c built from f (poison where mask lacks the lane). */
static LLVMValueRef const_vec(LLVMTypeRef et, const float f[4], unsigned mask)
{
    LLVMValueRef e[4];
    for (unsigned k = 0; k < 4; k++)
        e[k] = (mask >> k) & 1 ? LLVMConstReal(et, f[k]) : LLVMGetPoison(et);
    return LLVMConstVector(e, 4);
}

/*
 * The plain instructions between markers, on constants: fneg and
 * shufflevector of float vectors (a negated or swizzled source of the
 * next marker).  LLVM folds them only in its next run; folding them here
 * lets one walk fold a whole chain (bx2, negate, shift, saturate).
 */
static LLVMValueRef fold_plain(LLVMValueRef i)
{
    LLVMTypeRef t = LLVMTypeOf(i);
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind || LLVMGetVectorSize(t) != 4 ||
        LLVMGetTypeKind(LLVMGetElementType(t)) != LLVMFloatTypeKind)
        return NULL;
    float a[4], b[4], r[4];
    int32_t iv[4];
    bool isint = false;
    unsigned mask = 0xf;
    switch (LLVMGetInstructionOpcode(i)) {
    case LLVMFNeg:
        if (!const_lanes(LLVMGetOperand(i, 0), a, iv, &isint) || isint)
            return NULL;
        for (unsigned k = 0; k < 4; k++)
            r[k] = -a[k];
        break;
    case LLVMShuffleVector: {
        LLVMValueRef x = LLVMGetOperand(i, 0), y = LLVMGetOperand(i, 1);
        if (LLVMGetVectorSize(LLVMTypeOf(x)) != 4 || !const_lanes(x, a, iv, &isint) || isint ||
            !const_lanes(y, b, iv, &isint) || isint)
            return NULL;
        for (unsigned k = 0; k < 4; k++) {
            int e = LLVMGetMaskValue(i, k);
            if (e == LLVMGetUndefMaskElem() || e < 0 || e > 7) {
                mask &= ~(1u << k);
                r[k] = 0;
            } else {
                r[k] = e < 4 ? a[e] : b[e - 4];
            }
        }
        break;
    }
    default:
        return NULL;
    }
    return const_vec(LLVMGetElementType(t), r, mask);
}

unsigned st_pass_fold_ops(LLVMModuleRef m)
{
    unsigned n = 0;
    struct st_mk_cache mc = {{0}, {{0}}, 0};
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
        if (!LLVMCountBasicBlocks(fn))
            continue;
        bool arb;
        uint16_t ver;
        module_env(fn, &arb, &ver);
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                struct st_marker mk;
                if (!LLVMGetFirstUse(i))
                    continue;
                LLVMValueRef c = st_llvm_marker(&mc, i, &mk) ? fold_call(i, &mk, arb, ver)
                                                             : fold_plain(i);
                if (c) {
                    LLVMReplaceAllUsesWith(i, c);
                    n++;
                }
            }
    }
    return n;
}
