/*
 * emit.h — the door of the emit stage: execution engines and code
 * emitters for the optimized LLVM module.
 *
 * jit.c runs the module of translator/lower/lower_llvm.c through LLVM's ORC
 * LLJIT (C API), with the same inputs and outputs as the reference
 * interpreter (the run structs of translator.h).  docs/llvm-abi.md
 * describes the function it calls.
 */
#ifndef ST_EMIT_H
#define ST_EMIT_H

#include <stdbool.h>

#include "merge.h"
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
 * The whole of `shadertrans run --engine=llvm` after the front end and the
 * pipeline (the driver lowers without markers and runs ST_PIPE_JIT), the
 * twin of st_interp_run: parse the inputs JSON, JIT the module, append
 * the outputs JSON to out.
 */
bool st_llvm_run(struct st_ctx *ctx, const struct st_shader *sh, struct LLVMOpaqueModule *m,
                 const char *inputs_name, const char *json, size_t json_len,
                 enum st_float_rules rules, struct st_buf *out);

/* ---- vector assembly (merge/) ---- */
/*
 * --emit=vasm (emit/vasm/): the shader's vector IR (merge.h) back to
 * assembly of its own dialect and version, legal for its shader model
 * and using no more temporaries than the input did, parsed and checked
 * again before it is returned; appends the text to out.  stats (may be
 * NULL) gets the instruction and temporary counts.  What the version
 * cannot express is a located ST_E_NOT_SUPPORTED; returns false then.
 */
bool st_vasm_emit(struct st_ctx *ctx, const struct st_shader *sh, const struct mir_prog *mir,
                  struct st_buf *out, struct st_merge_stats *stats);
/* ---- end of vector assembly ---- */

/* ---- Gen9 back end ---- */

/* Render targets a pixel shader kernel may write: ARB_draw_buffers'
 * MAX_DRAW_BUFFERS (result.color[0..7]); Direct3D 9 has oC0..oC3. */
enum { ST_GEN_MAX_RT = 8, ST_GEN_MAX_REL_BLOCKS = 8 };

/* A range of constants read through a run-time index the layout cannot
 * bound (docs/gen-abi.md): bound at binding table index `bti` as a view of
 * the constant buffer holding c[first .. first + count - 1] alone (its
 * bounds checking reads zeros outside); and when `pushed` (CURBE block 6)
 * pad zero vectors, the range, pad zero vectors, from GRF grf, two
 * vectors per GRF. */
struct st_gen_rel_block {
    int first;
    unsigned count, pad, grf;
    bool pushed;
    unsigned bti;
};

/*
 * What the kernel expects from its driver (docs/gen-abi.md explains every
 * field; the kernel's header comment prints the same numbers).  GRF
 * numbers are register indices r0..r127.
 */
struct st_gen_layout {
    enum st_shader_type stage;
    unsigned simd;           /* 8, 16 or 32 */
    unsigned payload_grfs;   /* r0.. thread payload before the constants */
    unsigned curbe_grf, curbe_grfs; /* pushed constants: first GRF, count */
    int c_lo, c_hi;          /* c[c_lo..c_hi] at c_grf, two per GRF; none when c_hi < c_lo */
    unsigned c_grf;
    int i_lo, i_hi;          /* i[i_lo..i_hi] at i_grf, two per GRF */
    unsigned i_grf;
    bool has_b;              /* b0..b15 as 16 dwords at b_grf (2 GRFs) */
    unsigned b_grf;
    int bump_lo, bump_hi;    /* bump-environment stages, one GRF each from bump_grf */
    unsigned bump_grf;
    unsigned num_inputs;     /* attribute k carries ST_LL_IN slot in_slot[k] */
    int in_slot[ST_LL_IN_SLOTS];
    unsigned input_grf;      /* VS: 4 GRFs per attribute; PS: 2 setup GRFs per attribute */
    unsigned num_vue_slots;  /* VS: VUE slot k holds ST_LL_OUT slot vue_out_slot[k] (-1: none) */
    int vue_out_slot[ST_LL_OUT_SLOTS + 2];
    bool vue_header_psize;   /* VUE slot 0 written, dword 3 = oPts */
    bool vue_scalar[ST_LL_OUT_SLOTS + 2]; /* VUE slot k holds a scalar output (oFog,
                                           * result.fogcoord): dwords 1-3 undefined */
    unsigned num_rt;         /* PS: render targets written; BTI n <- output slot rt_out_slot[n] (-1: none) */
    int rt_out_slot[ST_GEN_MAX_RT];
    bool writes_depth, uses_kill;
    unsigned scratch_bytes;  /* per-thread scratch space the kernel needs */
    /* PS thread payload: perspective barycentrics of pixels 0-15 / 16-31 (SIMD32) */
    unsigned bary_grf[2];
    /* ARB fragment.position from the payload (frag_pos_slot: its input slot
     * when read, -1 otherwise; pos_mask: components read, bit c; pos_xy: x
     * or y read, from the pixel positions in r1/r2) */
    int frag_pos_slot;
    unsigned pos_mask;
    bool pos_xy;
    bool upper_left, center_integer; /* ARB_fragment_coord_origin_upper_left / _pixel_center_integer */
    unsigned depth_grf[2], w_grf[2]; /* source depth / source W per half; 0: not in the payload */
    unsigned window_grf;     /* CURBE GRF, dword 0 = window height (float); 0: none */
    /* the constant buffer's vectors (c0..c255, or an ARB program's parameter
     * slots), between GEN_CBUF_PAD zero vectors on each side */
    unsigned cbuf_vectors;
    /* relatively addressed ranges: each bound as a view of the constant
     * buffer, some pushed whole, zero-padded (the last CURBE blocks) */
    unsigned num_rel_blocks;
    struct st_gen_rel_block rel_block[ST_GEN_MAX_REL_BLOCKS];
};

/*
 * Compiles a checked shader's MIR program (st_pipeline_mir in
 * translator/driver.h) to a complete Gen9 kernel in IGA assembly syntax, appended to `out`
 * (docs/gen-abi.md: payload, constants, outputs; docs/gen-backend.md: how),
 * with the float rules and the multiply-add contraction baked in.
 * simd: 0 = automatic: the kernels a Gen9 driver ships, each printed with
 * its header and statistics line, narrowest first (pixel shaders: SIMD8;
 * SIMD16 unless it spills; SIMD32 when it does not spill and its estimated
 * throughput beats both: docs/gen-backend.md "SIMD width"), or 8/16/32 to
 * force one; vertex shaders are always SIMD8.  `stats` (may be NULL) gets
 * one shader-db line per kernel, naming the shader by its file name:
 * "FILE: SIMD16 shader: N instructions. N loops. N cycles. N:N spills:fills, N sends".
 * `layout` (may be NULL) gets the layout of the widest kernel printed.
 * What the back end cannot compile is a located ST_E_NOT_SUPPORTED.
 */
bool st_gen_compile_ex(struct st_ctx *ctx, const struct st_shader *sh, const struct mir_prog *mir,
                       unsigned simd, enum st_float_rules rules, enum st_fp_contract contract,
                       struct st_buf *out, struct st_buf *stats, struct st_gen_layout *layout);
/* ---- end of Gen9 back end ---- */

/* ---- Gen engine ---- */
/*
 * `shadertrans run --engine=gen` (emit/gen/run.c): the kernel of
 * st_gen_compile_ex (auto width: the widest one kept) run in the Gen9
 * simulator (emit/gensim//gensim.h) with thread
 * payloads built from the run inputs as docs/gen-abi.md ("Gen engine")
 * says.  Same JSON in and out as st_interp_run; simd as st_gen_compile_ex.
 */
bool st_gen_run(struct st_ctx *ctx, const struct st_shader *sh, const struct mir_prog *mir,
                unsigned simd, const char *inputs_name, const char *json, size_t len,
                enum st_float_rules rules, enum st_fp_contract contract, struct st_buf *out);
/* How st_gen_execute packed the pixels (tests check that the packing they
 * meant to exercise happened). */
struct st_gen_run_stats {
    unsigned simd;          /* the kernel's width */
    unsigned threads;       /* threads run */
    unsigned packed_pixels; /* pixels run in full SIMD-width groups */
    unsigned quad_pixels;   /* ... in one-quad threads (group not on one plane) */
    unsigned single_pixels; /* ... alone (quad not on one plane, no derivatives) */
    unsigned sends_by_sfid[16]; /* messages sent, by shared function (0xC untyped, 9 constant block reads) */
    /* sampler messages by message type (0 sample, 1 sample_b, 2 sample_l,
     * 4 sample_d, 24 sample_lz, ...), and the parameters of the first
     * channel that runs in the first message of each type: the bias,
     * level and gradients, which the texture model (level 0 only) never
     * reads, can be checked there */
    unsigned samples_by_type[32];
    unsigned sample_nparams[32];
    float sample_param[32][11];
};
/* The execution step: outs[0 .. in->num_invocations); stats may be NULL. */
bool st_gen_execute(struct st_ctx *ctx, const struct st_shader *sh, const struct mir_prog *mir,
                    unsigned simd, const struct st_run_inputs *in, enum st_float_rules rules,
                    enum st_fp_contract contract, struct st_run_outputs *outs,
                    struct st_gen_run_stats *stats);
/* The barycentrics (X, Y) the engine gives pixel shader invocation i; inputs
 * whose components are fmaf(a, X, fmaf(b, Y, c)) with one (a, b, c) per 32
 * invocations run in full-width threads (docs/gen-abi.md "Gen engine"). */
void st_gen_run_barycentric(unsigned invocation, float *x, float *y);
/* ---- end of Gen engine ---- */

#endif
