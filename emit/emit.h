/*
 * emit.h — the door of the emit stage: execution engines and code
 * emitters for the optimized LLVM module.
 *
 * jit.c runs the module of translator/lower_llvm.c through LLVM's ORC
 * LLJIT (C API), with the same inputs and outputs as the reference
 * interpreter (the run structs of translator.h).  docs/llvm-abi.md
 * describes the function it calls.
 */
#ifndef ST_EMIT_H
#define ST_EMIT_H

#include <stdbool.h>

#include "translator.h"

struct LLVMOpaqueModule;

/*
 * Executes every invocation of `in` with the module's st_main and fills
 * outs[0 .. in->num_invocations).  The module is not consumed (the JIT
 * works on a copy) and must have been lowered with the same float rules
 * (checked).  JIT failures are ST_E_NOT_SUPPORTED errors; relative
 * addresses out of range and missing textures give the interpreter's
 * warnings (ST_W_RELADDR_RANGE, ST_W_IGNORED).  Returns false on errors.
 */
bool st_llvm_jit_execute(struct st_ctx *ctx, const struct st_shader *sh,
                         struct LLVMOpaqueModule *m, const struct st_run_inputs *in,
                         enum st_float_rules rules, struct st_run_outputs *outs);

/*
 * The whole of `shadertrans run --engine=llvm` after the front end, the
 * twin of st_interp_run: parse the inputs JSON, lower, run the pipeline,
 * JIT, append the outputs JSON to out.
 */
bool st_llvm_run(struct st_ctx *ctx, const struct st_shader *sh, const char *inputs_name,
                 const char *json, size_t json_len, enum st_float_rules rules,
                 struct st_buf *out);

/* ---- vector assembly (merge/) ---- */
/*
 * --emit=vasm (emit/vasm.c): the checked shader through LLVM and the merge
 * stage (merge/merge.h) back to assembly of its own dialect and version,
 * parsed and checked again before it is returned; appends the text to out.
 * stats (may be NULL) gets what --stats prints (struct st_merge_stats in
 * merge/merge.h).  Anything the version cannot express is a located
 * ST_E_NOT_SUPPORTED; returns false then.
 */
struct st_merge_stats;
bool st_vasm_emit(struct st_ctx *ctx, const struct st_shader *sh, struct st_buf *out,
                  struct st_merge_stats *stats);
/* ---- end of vector assembly ---- */

/* ---- Gen9 back end ---- */
/*
 * Compiles a checked shader (st_lower_llvm + the passes/ pipeline inside)
 * to a complete Gen9 kernel in IGA assembly syntax, appended to `out`
 * (docs/gen-abi.md: payload, constants, outputs; docs/gen-backend.md: how).
 * simd: 0 = automatic (pixel shaders try 32, 16, 8 and keep the widest
 * that does not spill), or 8/16/32 to force one; vertex shaders are always
 * SIMD8.  `stats` (may be NULL) gets the shader-db line
 * "SIMD16 shader: N instructions. N loops. N cycles. N:N spills:fills, N sends".
 * What the back end cannot compile is a located ST_E_NOT_SUPPORTED.
 */
bool st_gen_compile(struct st_ctx *ctx, const struct st_shader *sh, unsigned simd,
                    struct st_buf *out, struct st_buf *stats);
/* ---- end of Gen9 back end ---- */

#endif
