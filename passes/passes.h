/*
 * passes.h — the door of the passes stage: the optimization pipeline over
 * the module translator/lower/lower_llvm.c builds, and our own analyses.
 *
 * docs/pipeline.md lists the passes in order and why each one is there.
 * Opaque LLVM types keep LLVM's headers out of this door; files that work
 * on the IR include llvm-c themselves.
 */
#ifndef ST_PASSES_H
#define ST_PASSES_H

#include <limits.h>
#include <stdbool.h>

#include "translator.h"

struct LLVMOpaqueModule;
struct LLVMOpaqueValue;

/* What --stats prints. */
struct st_llvm_stats {
    unsigned instrs_in;       /* the shader's instructions (declarations excluded) */
    unsigned merges_raw;      /* merges in the IR as lowered */
    unsigned merges_after;    /* merges after the pipeline */
    unsigned ir_instrs_raw;   /* LLVM instructions as lowered */
    unsigned ir_instrs_after; /* LLVM instructions after the pipeline */
    unsigned uniform_values;  /* instructions the uniformity analysis marked */
    unsigned lanes_removed;   /* lane-demand rewrites */
    unsigned ops_folded;      /* marker calls folded to constants (fold_ops.c) */
};

/* Which pass list runs (pipeline.c has them all, docs/pipeline.md says why). */
enum st_pipe {
    ST_PIPE_JIT,  /* the expanded IR of st_lower_llvm (no markers): the JIT */
    ST_PIPE_VECTOR, /* the marker IR (ST_LOWER_VECTOR) every target compiles */
};

/*
 * Runs the pipeline on m (in place) and fills stats (may be NULL).
 * Verifies the module before and after (and, in ST_DEBUG builds, after
 * every LLVM pass); a verifier failure is an ST_E_NOT_SUPPORTED diagnostic
 * naming the stage, and the result is false.
 */
bool st_llvm_pipeline_for(struct st_ctx *ctx, struct LLVMOpaqueModule *m, enum st_pipe pipe,
                          struct st_llvm_stats *stats);

/* The --stats lines (stderr): "llvm: instructions in N, merges raw N, ...\n". */
void st_llvm_stats_format(const struct st_llvm_stats *s, struct st_buf *out);

/*
 * minmax_fence.c: an llvm.arithmetic.fence on the result of every
 * `select (fcmp a, b), a|b, b|a`, so that LLVM 19's instcombine cannot fold
 * two such selects into one with the wrong NaN behaviour (returns how many);
 * st_unfence removes every fence again.  st_llvm_pipeline_for wraps LLVM's
 * passes of ST_PIPE_JIT in the two.
 */
unsigned st_fence_minmax(struct LLVMOpaqueModule *m);
void st_unfence(struct LLVMOpaqueModule *m);

/* LLVMVerifyModule as a diagnostic; `stage` names where it ran. */
bool st_llvm_verify(struct st_ctx *ctx, struct LLVMOpaqueModule *m, const char *stage);

/*
 * A merge: shufflevector of two non-poison vectors of four lanes whose
 * mask keeps every lane in place (mask[i] is i or 4 + i) and takes lanes
 * from both: exactly what a writemask write lowers to.  instcombine turns
 * a one-lane merge into insertelement, so an insertelement into a computed
 * vector (not a constant, not poison, not another insertelement) counts
 * too; the lowering itself only inserts into poison (vector build-ups).
 */
bool st_llvm_is_merge(struct LLVMOpaqueValue *inst);

/* ---- the markers of ST_LOWER_VECTOR (translator.h) on LLVM IR (markers.c) ---- */
struct LLVMOpaqueValue;
/* Callee -> marker, filled as calls are met (a pass keeps one on its stack). */
struct st_mk_cache {
    struct LLVMOpaqueValue *fn[64];
    struct st_marker mk[64];
    unsigned n;
};
/* True when v is a call to a marker (cache may be NULL). */
bool st_llvm_marker(struct st_mk_cache *c, struct LLVMOpaqueValue *v, struct st_marker *m);
/* The constant i32 operand k of a marker call (0 when not a constant). */
int32_t st_llvm_marker_int(struct LLVMOpaqueValue *call, unsigned k);
/* Lanes of vector operand k a marker call reads when `demand` lanes of its
 * result are read (void markers: what their effect reads). */
uint8_t st_llvm_marker_reads(const struct st_marker *m, struct LLVMOpaqueValue *call, unsigned k,
                             uint8_t demand);

/* ---- our passes (the merge stage reads their metadata) ---- */

/* Metadata kind names. */
#define ST_MD_UNIFORM "st.uniform" /* !{} on instructions computed only from constants */
#define ST_MD_LANES "st.lanes"     /* !{i32 mask} on vector instructions: lanes read */

/* What st_pass_uniformity and st_pass_lane_demand return when memory ran
 * out (then nothing was marked or rewritten; the caller reports ST9001). */
#define ST_PASS_OUT_OF_MEMORY UINT_MAX

/* Folds marker calls of constants with the interpreter's arithmetic
 * (fold_ops.c); returns how many. */
unsigned st_pass_fold_ops(struct LLVMOpaqueModule *m);
/* Marks uniform instructions; returns how many. */
unsigned st_pass_uniformity(struct LLVMOpaqueModule *m);

/* Removes lanes nobody reads and records the demand; returns rewrites. */
unsigned st_pass_lane_demand(struct LLVMOpaqueModule *m);

#endif
