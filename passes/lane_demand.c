/* requires: SSA form (after mem2reg); best after instcombine/gvn so dead code is already gone.
 * invalidates: rewrites shufflevector/insertelement users, erases instructions; adds !st.lanes metadata. */
/*
 * lane_demand.c — remove the lanes nobody reads.
 *
 * A D3D9 instruction computes four lanes even when its destination mask
 * or its readers use fewer: "mul r0.xy, ..." followed only by reads of
 * r0.x leaves lanes y, z, w dead.  The analysis is a backward fixed point
 * over the SSA graph: a store or an unknown call reads every lane, an
 * extractelement one, a shufflevector the lanes its mask names, an
 * element-wise operation (arithmetic, compare, select, cast, phi, the
 * element-wise intrinsics) the lanes its own readers read, a marker call
 * of ST_LOWER_VECTOR what its operation reads (st_op_reads).
 *
 * Rewrites: shufflevector lanes nobody reads become poison (then an
 * operand no lane reads becomes poison, and a shuffle that is the identity
 * of one operand on the lanes read is replaced by it), an insertelement
 * into a lane nobody reads disappears, and a vector nobody reads at all
 * becomes poison for its remaining users (dead loop-carried registers).
 * Each vector instruction left gets !st.lanes !{i32 mask}: the lanes the
 * merge stage's selection makes it provide.
 */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "passes.h"

/* Pointer -> 4-bit lane mask. */
struct lmap {
    const void **key;
    uint8_t *val;
    size_t cap, n;
    bool oom;
};

static size_t lhash(const void *p, size_t cap)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 17;
    x *= (uintptr_t)0x9e3779b97f4a7c15ull;
    return (size_t)(x >> 7) & (cap - 1);
}

static size_t lfind(const struct lmap *m, const void *p)
{
    size_t i = lhash(p, m->cap);
    while (m->key[i] && m->key[i] != p)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static uint8_t lget(const struct lmap *m, const void *p)
{
    if (!m->cap)
        return 0;
    size_t i = lfind(m, p);
    return m->key[i] ? m->val[i] : 0;
}

/* ORs lanes into p's demand; true when it grew. */
static bool lor(struct lmap *m, const void *p, uint8_t lanes)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t ncap = m->cap ? m->cap * 2 : 128;
        const void **nk = calloc(ncap, sizeof(*nk));
        uint8_t *nv = calloc(ncap, 1);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            m->oom = true;
            return false;
        }
        struct lmap nm = {nk, nv, ncap, 0, false};
        for (size_t i = 0; i < m->cap; i++)
            if (m->key[i]) {
                size_t j = lfind(&nm, m->key[i]);
                nk[j] = m->key[i];
                nv[j] = m->val[i];
            }
        free(m->key);
        free(m->val);
        m->key = nk;
        m->val = nv;
        m->cap = ncap;
    }
    size_t i = lfind(m, p);
    if (!m->key[i]) {
        m->key[i] = p;
        m->val[i] = 0;
        m->n++;
    }
    uint8_t old = m->val[i];
    m->val[i] = (uint8_t)(old | lanes);
    return m->val[i] != old;
}

static void lfree(struct lmap *m)
{
    free(m->key);
    free(m->val);
    memset(m, 0, sizeof(*m));
}

static bool is_vec4(LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    return LLVMGetTypeKind(t) == LLVMVectorTypeKind && LLVMGetVectorSize(t) == 4;
}

static bool elementwise_intrinsic(LLVMValueRef call)
{
    LLVMValueRef callee = LLVMGetCalledValue(call);
    if (!callee || !LLVMIsAFunction(callee) || !LLVMGetIntrinsicID(callee) || !is_vec4(call))
        return false;
    size_t len = 0;
    const char *name = LLVMGetValueName2(callee, &len);
    static const char *const ew[] = {
        "llvm.fabs.", "llvm.floor.", "llvm.ceil.", "llvm.trunc.", "llvm.rint.", "llvm.round.",
        "llvm.sqrt.", "llvm.exp2.", "llvm.log2.", "llvm.pow.", "llvm.sin.", "llvm.cos.",
        "llvm.minnum.", "llvm.maxnum.", "llvm.minimum.", "llvm.maximum.", "llvm.fma.",
        "llvm.fmuladd.", "llvm.copysign.", "llvm.nearbyint.", "llvm.roundeven.",
    };
    for (size_t k = 0; k < sizeof(ew) / sizeof(ew[0]); k++)
        if (len > strlen(ew[k]) && strncmp(name, ew[k], strlen(ew[k])) == 0)
            return true;
    return false;
}

static bool lane_wise(LLVMValueRef u)
{
    switch (LLVMGetInstructionOpcode(u)) {
    case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv: case LLVMFRem: case LLVMFNeg:
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMAnd: case LLVMOr: case LLVMXor:
    case LLVMShl: case LLVMLShr: case LLVMAShr:
    case LLVMFCmp: case LLVMICmp: case LLVMSelect: case LLVMPHI: case LLVMFreeze:
    case LLVMSIToFP: case LLVMUIToFP: case LLVMFPToSI: case LLVMFPToUI: case LLVMZExt:
    case LLVMSExt: case LLVMTrunc: case LLVMFPExt: case LLVMFPTrunc:
        return is_vec4(u);
    case LLVMBitCast:
        return is_vec4(u) && is_vec4(LLVMGetOperand(u, 0));
    case LLVMCall:
        return elementwise_intrinsic(u);
    default:
        return false;
    }
}

/* Propagates what user u reads into the demand of its vector operands. */
static bool propagate(struct lmap *d, struct st_mk_cache *mc, LLVMValueRef u)
{
    bool grew = false;
    unsigned n = (unsigned)LLVMGetNumOperands(u);
    LLVMOpcode op = LLVMGetInstructionOpcode(u);
    uint8_t du = lget(d, u);
    if (op == LLVMExtractElement) {
        LLVMValueRef v = LLVMGetOperand(u, 0), idx = LLVMGetOperand(u, 1);
        if (is_vec4(v) && LLVMIsAInstruction(v)) {
            uint8_t lanes = LLVMIsAConstantInt(idx) && LLVMConstIntGetZExtValue(idx) < 4
                                ? (uint8_t)(1u << LLVMConstIntGetZExtValue(idx))
                                : 0xf;
            grew |= lor(d, v, lanes);
        }
        return grew;
    }
    if (op == LLVMShuffleVector && is_vec4(u) && is_vec4(LLVMGetOperand(u, 0))) {
        uint8_t la = 0, lb = 0;
        for (unsigned i = 0; i < 4; i++) {
            int e = LLVMGetMaskValue(u, i);
            if (!((du >> i) & 1) || e == LLVMGetUndefMaskElem())
                continue;
            if (e < 4)
                la |= (uint8_t)(1u << e);
            else
                lb |= (uint8_t)(1u << (e - 4));
        }
        if (LLVMIsAInstruction(LLVMGetOperand(u, 0)))
            grew |= lor(d, LLVMGetOperand(u, 0), la);
        if (LLVMIsAInstruction(LLVMGetOperand(u, 1)))
            grew |= lor(d, LLVMGetOperand(u, 1), lb);
        return grew;
    }
    if (op == LLVMInsertElement && is_vec4(u)) {
        LLVMValueRef v = LLVMGetOperand(u, 0), idx = LLVMGetOperand(u, 2);
        uint8_t keep = du;
        if (LLVMIsAConstantInt(idx) && LLVMConstIntGetZExtValue(idx) < 4)
            keep &= (uint8_t)~(1u << LLVMConstIntGetZExtValue(idx));
        if (LLVMIsAInstruction(v))
            grew |= lor(d, v, keep);
        return grew;
    }
    bool lw = lane_wise(u);
    struct st_marker mk;
    bool marker = op == LLVMCall && st_llvm_marker(mc, u, &mk);
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef v = LLVMGetOperand(u, k);
        if (!LLVMIsAInstruction(v) || !is_vec4(v))
            continue;
        /* a marker reads what its operation reads (translator.h, st_op_reads) */
        uint8_t lanes = marker ? st_llvm_marker_reads(&mk, u, k, du) : lw ? du : 0xf;
        grew |= lor(d, v, lanes);
    }
    return grew;
}

static LLVMValueRef shuffle_with(LLVMBuilderRef b, LLVMValueRef old, LLVMValueRef a, LLVMValueRef bv,
                                 const int m[4])
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(old));
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
    LLVMValueRef e[4];
    for (int i = 0; i < 4; i++)
        e[i] = m[i] < 0 ? LLVMGetPoison(i32) : LLVMConstInt(i32, (unsigned)m[i], 0);
    LLVMPositionBuilderBefore(b, old);
    return LLVMBuildShuffleVector(b, a, bv, LLVMConstVector(e, 4), "");
}

static void replace(LLVMValueRef old, LLVMValueRef nv)
{
    LLVMReplaceAllUsesWith(old, nv);
    LLVMInstructionEraseFromParent(old);
}

/* Rewrites one instruction given its demand; returns 1 when it changed. */
static unsigned rewrite(LLVMBuilderRef b, LLVMValueRef u, uint8_t du)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(u);
    if (!is_vec4(u))
        return 0;
    if (du == 0 && LLVMGetFirstUse(u) && op != LLVMCall && op != LLVMLoad) {
        /* Used, but no lane of it is ever read (e.g. a dead loop-carried phi). */
        LLVMReplaceAllUsesWith(u, LLVMGetPoison(LLVMTypeOf(u)));
        return 1;
    }
    if (op == LLVMInsertElement) {
        LLVMValueRef idx = LLVMGetOperand(u, 2);
        if (LLVMIsAConstantInt(idx) && LLVMConstIntGetZExtValue(idx) < 4 &&
            !((du >> LLVMConstIntGetZExtValue(idx)) & 1)) {
            replace(u, LLVMGetOperand(u, 0));
            return 1;
        }
        return 0;
    }
    if (op != LLVMShuffleVector || !is_vec4(LLVMGetOperand(u, 0)))
        return 0;
    LLVMValueRef a = LLVMGetOperand(u, 0), bv = LLVMGetOperand(u, 1);
    int m[4];
    bool changed = false, use_a = false, use_b = false, id_a = true, id_b = true;
    for (int i = 0; i < 4; i++) {
        int e = LLVMGetMaskValue(u, (unsigned)i);
        m[i] = e == LLVMGetUndefMaskElem() ? -1 : e;
        if (m[i] >= 0 && !((du >> i) & 1)) {
            m[i] = -1;
            changed = true;
        }
        if (m[i] >= 0 && m[i] < 4)
            use_a = true;
        if (m[i] >= 4)
            use_b = true;
        if (m[i] >= 0 && m[i] != i)
            id_a = false;
        if (m[i] >= 0 && m[i] != i + 4)
            id_b = false;
    }
    if (!use_a && !use_b)
        return 0;
    if (!use_b && id_a && LLVMTypeOf(a) == LLVMTypeOf(u)) {
        replace(u, a);
        return 1;
    }
    if (!use_a && id_b && LLVMTypeOf(bv) == LLVMTypeOf(u)) {
        replace(u, bv);
        return 1;
    }
    LLVMValueRef poison = LLVMGetPoison(LLVMTypeOf(a));
    if (!use_b && !LLVMIsPoison(bv) && !LLVMIsUndef(bv)) {
        bv = poison;
        changed = true;
    }
    if (!use_a && !LLVMIsPoison(a) && !LLVMIsUndef(a)) {
        a = poison;
        changed = true;
    }
    if (!changed)
        return 0;
    replace(u, shuffle_with(b, u, a, bv, m));
    return 1;
}

static unsigned run_function(LLVMValueRef fn, unsigned kind)
{
    struct lmap d = {0};
    struct st_mk_cache mc = {{0}, {{0}}, 0};
    /* Backward fixed point: visit blocks and instructions in reverse. */
    bool grew = true;
    while (grew && !d.oom) {
        grew = false;
        for (LLVMBasicBlockRef bb = LLVMGetLastBasicBlock(fn); bb; bb = LLVMGetPreviousBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetLastInstruction(bb); i; i = LLVMGetPreviousInstruction(i))
                grew |= propagate(&d, &mc, i);
    }
    if (d.oom) {
        lfree(&d);
        return ST_PASS_OUT_OF_MEMORY;
    }
    /* Collect first: rewriting erases instructions. */
    size_t n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            n++;
    LLVMValueRef *all = malloc((n ? n : 1) * sizeof(*all));
    unsigned changes = all ? 0 : ST_PASS_OUT_OF_MEMORY;
    if (all) {
        size_t k = 0;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
                all[k++] = i;
        LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(fn));
        LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
        LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
        for (size_t j = 0; j < n; j++) {
            uint8_t du = lget(&d, all[j]);
            unsigned ch = rewrite(b, all[j], du);
            changes += ch;
            if (!ch && is_vec4(all[j])) {
                LLVMMetadataRef v = LLVMValueAsMetadata(LLVMConstInt(i32, du, 0));
                LLVMSetMetadata(all[j], kind, LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, &v, 1)));
            }
        }
        LLVMDisposeBuilder(b);
        free(all);
    }
    lfree(&d);
    return changes;
}

unsigned st_pass_lane_demand(LLVMModuleRef m)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    unsigned kind = LLVMGetMDKindIDInContext(c, ST_MD_LANES, (unsigned)strlen(ST_MD_LANES));
    unsigned n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (LLVMCountBasicBlocks(f) > 0) {
            unsigned k = run_function(f, kind);
            if (k == ST_PASS_OUT_OF_MEMORY)
                return k;
            n += k;
        }
    return n;
}
