/* requires: SSA form (after mem2reg) and st_main's ABI: args c, i, b, bump are uniform; in, out, status, lane vary (so do st.rel reads of v#, t#, o#).
 * invalidates: nothing: only adds !st.uniform metadata (the IR is unchanged). */
/*
 * uniformity.c — which values are the same for every invocation.
 *
 * A value computed only from constants (c#, i#, b#, immediates) is
 * uniform; the Gen back end can keep it in one scalar register instead of
 * one per channel.  The analysis is the usual divergence propagation:
 * start from what surely varies (the inputs, memory we do not model) and
 * mark everything that depends on it, through data and through control:
 * a phi after a branch on a varying condition varies even when every
 * incoming value is uniform, because invocations take different paths.
 * Conservative: a phi in any block reachable from a varying branch is
 * varying.  What stays unmarked at the fixed point gets !st.uniform.
 */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "passes.h"

/* A small open-addressing set of pointers (instructions, blocks, args). */
struct pset {
    const void **slot;
    size_t cap, n;
    bool oom;
};

static size_t phash(const void *p, size_t cap)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 17;
    x *= (uintptr_t)0x9e3779b97f4a7c15ull;
    return (size_t)(x >> 7) & (cap - 1);
}

static bool pset_has(const struct pset *s, const void *p)
{
    if (!s->cap)
        return false;
    for (size_t i = phash(p, s->cap);; i = (i + 1) & (s->cap - 1)) {
        if (!s->slot[i])
            return false;
        if (s->slot[i] == p)
            return true;
    }
}

static bool pset_add(struct pset *s, const void *p)
{
    if (pset_has(s, p))
        return false;
    if ((s->n + 1) * 2 > s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 64;
        const void **ns = calloc(ncap, sizeof(*ns));
        if (!ns) {
            s->oom = true;
            return false;
        }
        for (size_t i = 0; i < s->cap; i++)
            if (s->slot[i])
                for (size_t j = phash(s->slot[i], ncap);; j = (j + 1) & (ncap - 1))
                    if (!ns[j]) {
                        ns[j] = s->slot[i];
                        break;
                    }
        free(s->slot);
        s->slot = ns;
        s->cap = ncap;
    }
    for (size_t i = phash(p, s->cap);; i = (i + 1) & (s->cap - 1))
        if (!s->slot[i]) {
            s->slot[i] = p;
            s->n++;
            return true;
        }
}

static void pset_free(struct pset *s)
{
    free(s->slot);
    memset(s, 0, sizeof(*s));
}

static bool operand_varies(const struct pset *vary, LLVMValueRef v)
{
    return (LLVMIsAInstruction(v) || LLVMIsAArgument(v)) && pset_has(vary, v);
}

static bool is_intrinsic_call(LLVMValueRef call)
{
    LLVMValueRef callee = LLVMGetCalledValue(call);
    return callee && LLVMIsAFunction(callee) && LLVMGetIntrinsicID(callee) != 0;
}

static bool inst_varies(const struct pset *vary, const struct pset *divblocks, LLVMValueRef i)
{
    switch (LLVMGetInstructionOpcode(i)) {
    case LLVMAlloca:
        return true; /* memory we do not track */
    case LLVMPHI:
        if (pset_has(divblocks, LLVMGetInstructionParent(i)))
            return true;
        break;
    case LLVMCall: {
        /* a marker of ST_LOWER_VECTOR is a function of its operands (ps_1_x
         * texture instructions read coordinates no operand names) */
        struct st_marker mk;
        bool pure_marker = st_llvm_marker(NULL, i, &mk) && mk.kind != ST_MK_OPAQUE;
        if (!is_intrinsic_call(i) && !pure_marker)
            return true;
        /* st.rel(file, addr, ...) reads a register its operands do not hold:
         * one of the constant files is the same in every invocation (when
         * the address is), any other (v#, t#, o#) is the invocation's own */
        if (pure_marker && mk.kind == ST_MK_REL) {
            int32_t file = st_llvm_marker_int(i, 0);
            if (file != ST_REG_CONST && file != ST_REG_CONSTINT && file != ST_REG_CONSTBOOL)
                return true;
        }
        break;
    }
    case LLVMStore:
        return false; /* no value */
    default:
        break;
    }
    unsigned n = (unsigned)LLVMGetNumOperands(i);
    for (unsigned k = 0; k < n; k++)
        if (operand_varies(vary, LLVMGetOperand(i, k)))
            return true;
    return false;
}

/* Blocks reachable from the successors of a varying branch. */
static void mark_divergent(struct pset *divblocks, LLVMValueRef br)
{
    LLVMBasicBlockRef stack[1024];
    unsigned sp = 0;
    unsigned ns = LLVMGetNumSuccessors(br);
    for (unsigned k = 0; k < ns && sp < 1024; k++)
        stack[sp++] = LLVMGetSuccessor(br, k);
    while (sp) {
        LLVMBasicBlockRef bb = stack[--sp];
        if (!pset_add(divblocks, bb))
            continue;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        unsigned n = t ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned k = 0; k < n && sp < 1024; k++)
            stack[sp++] = LLVMGetSuccessor(t, k);
    }
}

static unsigned analyze(LLVMValueRef fn, unsigned mdkind, LLVMValueRef mark)
{
    struct pset vary = {0}, divblocks = {0};
    /* st_main(in, out, c, i, b, status, bump, tex, lane): in, out, status, lane vary. */
    unsigned np = LLVMCountParams(fn);
    for (unsigned k = 0; k < np; k++)
        if (k == 0 || k == 1 || k == 5 || k == 8)
            pset_add(&vary, LLVMGetParam(fn, k));

    bool changed = true;
    while (changed && !vary.oom && !divblocks.oom) {
        changed = false;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                if (pset_has(&vary, i) || !inst_varies(&vary, &divblocks, i))
                    continue;
                pset_add(&vary, i);
                changed = true;
                if (LLVMIsATerminatorInst(i) && LLVMGetNumSuccessors(i) > 1)
                    mark_divergent(&divblocks, i);
            }
    }
    unsigned marked = vary.oom || divblocks.oom ? ST_PASS_OUT_OF_MEMORY : 0;
    if (!vary.oom && !divblocks.oom)
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                bool has_value = LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVoidTypeKind;
                bool cond_br = LLVMIsATerminatorInst(i) && LLVMGetNumSuccessors(i) > 1;
                if ((has_value || cond_br) && !pset_has(&vary, i)) {
                    LLVMSetMetadata(i, mdkind, mark);
                    marked++;
                }
            }
    pset_free(&vary);
    pset_free(&divblocks);
    return marked;
}

unsigned st_pass_uniformity(LLVMModuleRef m)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    unsigned kind = LLVMGetMDKindIDInContext(c, ST_MD_UNIFORM, (unsigned)strlen(ST_MD_UNIFORM));
    LLVMValueRef mark = LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, NULL, 0));
    unsigned n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (LLVMCountBasicBlocks(f) > 0) {
            unsigned k = analyze(f, kind, mark);
            if (k == ST_PASS_OUT_OF_MEMORY)
                return k;
            n += k;
        }
    return n;
}
