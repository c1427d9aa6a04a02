/* requires: a module from st_lower_llvm (allocas, merges as shufflevectors), verified.
 * invalidates: everything: promotes registers to SSA, rewrites instructions, adds metadata. */
/*
 * pipeline.c — the optimization pipeline (docs/pipeline.md says why each
 * pass is there) and the merge counting of --stats.
 *
 * LLVM's own passes run through LLVMRunPasses (the new pass manager) with
 * a textual pipeline; ours are plain C over the IR (uniformity.c,
 * lane_demand.c).  Nothing here enables fast-math: every pass must keep
 * the float32 results the interpreter computes.
 */
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "passes.h"

/*
 * The pass lists, every one of them here (docs/pipeline.md says why each
 * pass is there).
 *
 * mem2reg first: it turns the register allocas into SSA values and the
 * load/shuffle/store of a masked write into one shufflevector.  The
 * cleanups after it fold what the lowering spelled out (swizzles of
 * swizzles, merges into constants, dead lanes of constants), but none
 * reassociates float math or touches the lane-preserving shape of a merge.
 *
 * ST_PIPE_JIT: the expanded IR the JIT runs.
 * ST_PIPE_GEN: the marker IR for a target with a register file to spare:
 *   sharing (early-cse, gvn) and if-conversion (simplifycfg) included.
 * ST_PIPE_VASM: the marker IR for vector assembly, which may use no more
 *   temporaries than its input and has one a0 and one p0: no sharing that
 *   lengthens a value's life, no if-conversion, the structure as written.
 */
static const char *const pipelines[][2] = {
    [ST_PIPE_JIT] = {"function(mem2reg,instcombine<no-verify-fixpoint>,simplifycfg,early-cse,gvn,"
                     "instcombine<no-verify-fixpoint>,dce,simplifycfg)",
                     /* after our lane-demand rewrites: drop what became dead */
                     "function(instcombine<no-verify-fixpoint>,dce)"},
    [ST_PIPE_GEN] = {"function(mem2reg,instcombine<no-verify-fixpoint>,simplifycfg,early-cse,gvn,"
                     "instcombine<no-verify-fixpoint>,dce,simplifycfg)",
                     "function(instcombine<no-verify-fixpoint>,dce,simplifycfg)"},
    [ST_PIPE_VASM] = {"function(mem2reg,instsimplify,dce)", "function(instsimplify,dce)"},
};

bool st_llvm_verify(struct st_ctx *ctx, LLVMModuleRef m, const char *stage)
{
    char *msg = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
        /* Keep only the first line: the rest dumps IR. */
        size_t n = msg ? strcspn(msg, "\n") : 0;
        st_error(ctx, (struct st_loc){0, 0}, ST_E_NOT_SUPPORTED,
                 "LLVM verifier rejected the module after %s: %.*s", stage, (int)n,
                 msg ? msg : "");
        LLVMDisposeMessage(msg);
        return false;
    }
    LLVMDisposeMessage(msg);
    return true;
}

bool st_llvm_is_merge(LLVMValueRef inst)
{
    if (!inst || !LLVMIsAInstruction(inst))
        return false;
    if (LLVMGetInstructionOpcode(inst) == LLVMInsertElement) {
        /* instcombine's form of a one-lane merge: into a computed vector
         * (not a constant, not poison, not the build-up of another one) */
        LLVMValueRef v = LLVMGetOperand(inst, 0);
        return !LLVMIsConstant(v) && !LLVMIsAInsertElementInst(v) &&
               LLVMGetVectorSize(LLVMTypeOf(v)) == 4;
    }
    if (LLVMGetInstructionOpcode(inst) != LLVMShuffleVector)
        return false;
    LLVMValueRef a = LLVMGetOperand(inst, 0), b = LLVMGetOperand(inst, 1);
    if (LLVMIsPoison(a) || LLVMIsUndef(a) || LLVMIsPoison(b) || LLVMIsUndef(b))
        return false;
    if (LLVMGetVectorSize(LLVMTypeOf(a)) != 4 || LLVMGetNumMaskElements(inst) != 4)
        return false;
    bool from_a = false, from_b = false;
    for (unsigned i = 0; i < 4; i++) {
        int e = LLVMGetMaskValue(inst, i);
        if (e == LLVMGetUndefMaskElem())
            continue;
        if (e == (int)i)
            from_a = true;
        else if (e == (int)i + 4)
            from_b = true;
        else
            return false;
    }
    return from_a && from_b;
}

static void count(LLVMModuleRef m, unsigned *merges, unsigned *instrs)
{
    *merges = *instrs = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                (*instrs)++;
                if (st_llvm_is_merge(i))
                    (*merges)++;
            }
}

unsigned st_llvm_count_merges(LLVMModuleRef m)
{
    unsigned merges, instrs;
    count(m, &merges, &instrs);
    return merges;
}

static bool run_llvm_passes(struct st_ctx *ctx, LLVMModuleRef m, const char *passes)
{
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
#ifdef ST_DEBUG
    /* Debug builds: the verifier runs after every pass, so a pass that
     * breaks the IR is named by LLVM's own message. */
    LLVMPassBuilderOptionsSetVerifyEach(opts, 1);
#endif
    LLVMErrorRef err = LLVMRunPasses(m, passes, NULL, opts);
    LLVMDisposePassBuilderOptions(opts);
    if (err) {
        char *msg = LLVMGetErrorMessage(err);
        st_error(ctx, (struct st_loc){0, 0}, ST_E_NOT_SUPPORTED, "LLVM passes \"%s\" failed: %s",
                 passes, msg);
        LLVMDisposeErrorMessage(msg);
        return false;
    }
    return true;
}

/* The "st-instructions" attribute the lowering put on st_main. */
static unsigned instrs_in(LLVMModuleRef m)
{
    LLVMValueRef f = LLVMGetNamedFunction(m, "st_main");
    if (!f)
        return 0;
    LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                                       "st-instructions", 15);
    if (!a)
        return 0;
    unsigned len = 0;
    const char *v = LLVMGetStringAttributeValue(a, &len);
    unsigned n = 0;
    for (unsigned i = 0; i < len && v[i] >= '0' && v[i] <= '9'; i++)
        n = n * 10 + (unsigned)(v[i] - '0');
    return n;
}

bool st_llvm_pipeline_for(struct st_ctx *ctx, LLVMModuleRef m, enum st_pipe pipe,
                          struct st_llvm_stats *stats)
{
    struct st_llvm_stats s;
    memset(&s, 0, sizeof(s));
    s.instrs_in = instrs_in(m);
    count(m, &s.merges_raw, &s.ir_instrs_raw);
    const char *main_passes = pipelines[pipe][0], *cleanup = pipelines[pipe][1];
    /* The expanded IR has min/max-like selects, which LLVM's passes only
     * ever see behind fences (minmax_fence.c: an instcombine miscompile);
     * the marker IR has none. */
    bool fence = pipe == ST_PIPE_JIT;

    bool ok = st_llvm_verify(ctx, m, "lowering");
    if (ok) {
        if (fence)
            st_fence_minmax(m);
        ok = run_llvm_passes(ctx, m, main_passes);
        if (fence)
            st_unfence(m);
        ok = ok && st_llvm_verify(ctx, m, "the LLVM passes");
    }
    if (ok && !fence) {
        /* markers of constants: the interpreter's arithmetic, then what
         * that makes foldable for LLVM (shuffles of constants, branches) */
        s.ops_folded = st_pass_fold_ops(m);
        if (s.ops_folded)
            ok = run_llvm_passes(ctx, m, main_passes) && st_llvm_verify(ctx, m, "folding");
    }
    if (ok) {
        s.lanes_removed = st_pass_lane_demand(m);
        ok = st_llvm_verify(ctx, m, "lane demand");
        if (ok) {
            if (fence)
                st_fence_minmax(m);
            ok = run_llvm_passes(ctx, m, cleanup);
            if (fence)
                st_unfence(m);
        }
        /* Again, to record the demand on the instructions the cleanup kept. */
        if (ok)
            st_pass_lane_demand(m);
    }
    if (ok) {
        /* Last, so no later pass drops the marks the back end reads. */
        s.uniform_values = st_pass_uniformity(m);
        ok = st_llvm_verify(ctx, m, "uniformity");
    }
    count(m, &s.merges_after, &s.ir_instrs_after);
    if (stats)
        *stats = s;
    return ok;
}

bool st_llvm_pipeline(struct st_ctx *ctx, LLVMModuleRef m, struct st_llvm_stats *stats)
{
    return st_llvm_pipeline_for(ctx, m, ST_PIPE_JIT, stats);
}

bool st_llvm_emit_text(struct st_ctx *ctx, const struct st_shader *sh, enum st_float_rules rules,
                       bool optimize, struct st_buf *out, struct st_llvm_stats *stats)
{
    LLVMContextRef c = LLVMContextCreate();
    if (!c) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    LLVMModuleRef m = st_lower_llvm(ctx, sh, rules, c);
    bool ok = m != NULL;
    if (ok && !optimize) {
        ok = st_llvm_verify(ctx, m, "lowering");
        if (ok) {
            char *text = LLVMPrintModuleToString(m);
            st_buf_printf(out, "%s", text);
            LLVMDisposeMessage(text);
        }
    }
    if (ok && (optimize || stats))
        ok = st_llvm_pipeline(ctx, m, stats);
    if (ok && optimize) {
        char *text = LLVMPrintModuleToString(m);
        st_buf_printf(out, "%s", text);
        LLVMDisposeMessage(text);
    }
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(c);
    return ok;
}

void st_llvm_stats_format(const struct st_llvm_stats *s, struct st_buf *out)
{
    st_buf_printf(out,
                  "llvm: instructions in %u, merges raw %u, merges after passes %u\n"
                  "llvm: IR instructions raw %u, after passes %u; uniform values %u, "
                  "lane-demand rewrites %u, operations folded %u\n",
                  s->instrs_in, s->merges_raw, s->merges_after, s->ir_instrs_raw,
                  s->ir_instrs_after, s->uniform_values, s->lanes_removed, s->ops_folded);
}
