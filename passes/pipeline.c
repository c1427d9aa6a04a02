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
 * ST_PIPE_VECTOR: the marker IR every target compiles (through merge/):
 *   the structure as written (no simplifycfg: it would if-convert and
 *   merge the blocks the merge stage gives back as if/else), no sharing
 *   that lengthens a value's life (no CSE: vector assembly may use no more
 *   temporaries than its input, and has one a0 and one p0); what the
 *   markers leave LLVM to fold is folded by instsimplify, the markers of
 *   constants by fold_ops.c.  The Gen back end shares and if-converts on
 *   its own IR.
 */
static const char *const pipelines[][2] = {
    [ST_PIPE_JIT] = {"function(mem2reg,instcombine<no-verify-fixpoint>,simplifycfg,early-cse,gvn,"
                     "instcombine<no-verify-fixpoint>,dce,simplifycfg)",
                     /* after our lane-demand rewrites: drop what became dead */
                     "function(instcombine<no-verify-fixpoint>,dce)"},
    [ST_PIPE_VECTOR] = {"function(mem2reg,instsimplify,dce)", "function(instsimplify,dce)"},
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

/* After each step of the pipeline.  Release builds verify the module once,
 * after the lowering (the IR our code generated from the user's shader:
 * LLVM's passes, built without assertions, must not see a module that is
 * not valid); the passes, LLVM's and ours, are trusted there.
 * The verifier walks the whole module (with every step verified it took
 * a seventh of a large shader's compile time), so the steps are verified
 * one by one only in debug builds (ST_DEBUG, the sanitizer build of every
 * test run), where a failure names its step. */
static bool verify_step(struct st_ctx *ctx, LLVMModuleRef m, const char *stage)
{
#ifdef ST_DEBUG
    return st_llvm_verify(ctx, m, stage);
#else
    (void)ctx;
    (void)m;
    (void)stage;
    return true;
#endif
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

/* Our passes, out of memory, left the module as it was: not a module to go
 * on with (the back ends would print a different kernel). */
static bool pass_memory(struct st_ctx *ctx, unsigned result)
{
    if (result != ST_PASS_OUT_OF_MEMORY)
        return true;
    st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
    return false;
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

    /* The compile budget and cancel callback are polled before each step
     * (LLVM's passes cannot be interrupted), charged per IR instruction
     * (LLVM's pipeline as eight such steps). */
    bool ok = st_poll(ctx, s.ir_instrs_raw) && st_llvm_verify(ctx, m, "lowering");
    ok = ok && st_poll(ctx, (uint64_t)s.ir_instrs_raw * 8);
    if (ok) {
        if (fence)
            st_fence_minmax(m);
        ok = run_llvm_passes(ctx, m, main_passes);
        if (fence)
            st_unfence(m);
        ok = ok && verify_step(ctx, m, "the LLVM passes");
    }
    if (ok && !fence) {
        /* markers of constants: the interpreter's arithmetic, then what
         * that makes foldable for LLVM (shuffles of constants, branches) */
        s.ops_folded = st_pass_fold_ops(m);
        if (s.ops_folded)
            ok = st_poll(ctx, (uint64_t)s.ir_instrs_raw * 8) &&
                 run_llvm_passes(ctx, m, main_passes) && verify_step(ctx, m, "folding");
    }
    ok = ok && st_poll(ctx, s.ir_instrs_raw);
    if (ok) {
        s.lanes_removed = st_pass_lane_demand(m);
        ok = pass_memory(ctx, s.lanes_removed) && verify_step(ctx, m, "lane demand") &&
             st_poll(ctx, s.ir_instrs_raw);
        if (ok) {
            if (fence)
                st_fence_minmax(m);
            ok = run_llvm_passes(ctx, m, cleanup);
            if (fence)
                st_unfence(m);
        }
        /* Again, to record the demand on the instructions the cleanup kept. */
        if (ok)
            ok = pass_memory(ctx, st_pass_lane_demand(m));
    }
    ok = ok && st_poll(ctx, s.ir_instrs_raw);
    if (ok) {
        /* Last, so no later pass drops the marks the back end reads. */
        s.uniform_values = st_pass_uniformity(m);
        ok = pass_memory(ctx, s.uniform_values) && verify_step(ctx, m, "uniformity");
    }
    count(m, &s.merges_after, &s.ir_instrs_after);
    if (stats)
        *stats = s;
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
