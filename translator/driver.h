/*
 * driver.h — the pipeline as one function, for the library's entry points
 * (driver.c) and for tests that look at what the targets receive.  It
 * names every stage's door: the driver is the one place that calls them
 * in order.
 */
#ifndef ST_DRIVER_H
#define ST_DRIVER_H

#include "emit.h"
#include "merge.h"
#include "passes.h"
#include "translator.h"

struct st_pipeline_stats {
    struct st_llvm_stats llvm;
    struct st_merge_stats merge;
};

/*
 * A checked shader through lowering (ST_LOWER_VECTOR), the passes and the
 * merge stage, into `mir` (freed by the caller with mir_free).  With stop
 * = ST_EMIT_LLVM_RAW or ST_EMIT_LLVM the module's text at that point goes
 * to `text` and the pipeline stops there (mir untouched).  stats may be
 * NULL.  False on errors (in ctx).
 */
bool st_pipeline_mir(struct st_ctx *ctx, const struct st_shader *sh, enum st_emit stop,
                     struct st_buf *text, struct mir_prog *mir, struct st_pipeline_stats *stats);

/*
 * The JIT engine of `shadertrans run`: the shader lowered with its float
 * rules baked in, the JIT pass list, run on the inputs (JSON) into out.
 */
bool st_run_jit(struct st_ctx *ctx, const struct st_shader *sh, const char *inputs_name,
                const char *json, size_t json_len, enum st_float_rules rules, struct st_buf *out);

#endif
