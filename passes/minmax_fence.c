/* requires: any module (typically st_lower_llvm's, before LLVM's passes).
 * invalidates: nothing semantic; adds (st_fence_minmax) or removes (st_unfence) llvm.arithmetic.fence calls. */
/*
 * minmax_fence.c — shields min/max-like selects from an LLVM 19 instcombine
 * miscompile.
 *
 * max, min and _sat lower to `select (fcmp pred a, b), a, b` with the
 * exact NaN and -0 behaviour of the shader's instruction (D3D9 max is
 * `a >= b ? a : b`, ARB MAX `a > b ? a : b`, _sat two such selects).  LLVM
 * 19's instcombine treats two of those in a row as one min/max and folds
 * the pair, although their NaN behaviours differ: max(max(x, 1), 1) became
 * max(x, 1), which is NaN for x = NaN where the shader gives 1 (found by
 * tests/test_fuzz_arb.c; tests/test_llvm.c has the D3D9 and ARB cases).
 *
 * An llvm.arithmetic.fence on the result of every such select hides it
 * from the select-pattern matcher of the select that reads it, so no pair
 * is ever recognised; each select alone keeps its own semantics, and the
 * folds that are correct for one select still happen.  The fences are
 * removed again once LLVM's passes are done, so nothing after the
 * pipeline (our passes, the JIT's code generator, the Gen back end) ever
 * sees one.
 */
#include <string.h>

#include <llvm-c/Core.h>

#include "passes.h"

static const char fence_name[] = "llvm.arithmetic.fence";

/* select (fcmp a, b), a, b  or  select (fcmp a, b), b, a */
static bool minmax_like(LLVMValueRef i)
{
    if (LLVMGetInstructionOpcode(i) != LLVMSelect)
        return false;
    LLVMValueRef c = LLVMGetOperand(i, 0);
    if (!LLVMIsAFCmpInst(c))
        return false;
    LLVMValueRef a = LLVMGetOperand(c, 0), b = LLVMGetOperand(c, 1);
    LLVMValueRef t = LLVMGetOperand(i, 1), f = LLVMGetOperand(i, 2);
    return (t == a && f == b) || (t == b && f == a);
}

static bool is_fence(LLVMValueRef i)
{
    if (LLVMGetInstructionOpcode(i) != LLVMCall)
        return false;
    LLVMValueRef callee = LLVMGetCalledValue(i);
    if (!callee || !LLVMIsAFunction(callee))
        return false;
    size_t len = 0;
    const char *name = LLVMGetValueName2(callee, &len);
    return len > sizeof(fence_name) - 1 && strncmp(name, fence_name, sizeof(fence_name) - 1) == 0;
}

unsigned st_fence_minmax(LLVMModuleRef m)
{
    unsigned id = LLVMLookupIntrinsicID(fence_name, sizeof(fence_name) - 1);
    if (!id)
        return 0;
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    unsigned n = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                if (!minmax_like(i))
                    continue;
                LLVMValueRef next = LLVMGetNextInstruction(i); /* a select never ends a block */
                LLVMTypeRef ty = LLVMTypeOf(i);
                LLVMValueRef decl = LLVMGetIntrinsicDeclaration(m, id, &ty, 1);
                LLVMTypeRef fty = LLVMIntrinsicGetType(ctx, id, &ty, 1);
                LLVMPositionBuilderBefore(b, next);
                LLVMValueRef arg = i;
                LLVMValueRef call = LLVMBuildCall2(b, fty, decl, &arg, 1, "");
                /* every user of the select now reads the fence, the fence the select */
                LLVMReplaceAllUsesWith(i, call);
                LLVMSetOperand(call, 0, i);
                i = call;
                n++;
            }
    LLVMDisposeBuilder(b);
    return n;
}

void st_unfence(LLVMModuleRef m)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
                LLVMValueRef next = LLVMGetNextInstruction(i);
                if (is_fence(i)) {
                    LLVMReplaceAllUsesWith(i, LLVMGetOperand(i, 0));
                    LLVMInstructionEraseFromParent(i);
                }
                i = next;
            }
}
