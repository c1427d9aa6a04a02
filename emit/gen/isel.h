/*
 * gen/isel.h — between instruction selection (gen/isel.c) and the kernel
 * ABI (gen/kernel.c), private to emit/.  Files that include it work on
 * LLVM IR, so it includes llvm-c.
 */
#ifndef ST_GEN_ISEL_H
#define ST_GEN_ISEL_H

#include <llvm-c/Core.h>

#include "gen_ir.h"

struct isel;

/* What gen/kernel.c knows about one kernel being built. */
struct gen_kernel_info {
    struct st_ctx *ctx;
    const struct st_shader *sh;
    struct isel *isel; /* during gen_isel */
    /* outputs as the shader stored them (components; kind GO_NONE when never stored) */
    struct gen_opnd out[ST_LL_OUT_SLOTS][4];
    bool out_set[ST_LL_OUT_SLOTS];
    struct gen_opnd status;
    bool has_status;
    enum st_sampler_type sampler_type[16]; /* from dcl; NONE when not declared */
    /* ARB programs: output indices by role (-1: none) and the fixed-function slots */
    bool arb;
    struct st_arb_run_slots arb_slots;
    int arb_pos, arb_psize, arb_depth, arb_color[ST_GEN_MAX_RT]; /* result.color[n] */
    int arb_frag_pos; /* input index of fragment.position (fragment programs), -1 */
    /* constants the epilogue pulled (not pushed): c[idx], once each */
    struct { int idx; struct gen_opnd v[4]; } pulled[8];
    unsigned npulled;
};

/* gen/kernel.c */
/* Scans the module for what the payload must hold; fills p->layout. */
bool gen_kernel_layout(struct gen_kernel_info *ki, LLVMModuleRef m, struct gen_program *p);
void gen_kernel_prologue(struct gen_kernel_info *ki, struct gen_program *p);
bool gen_kernel_load(struct gen_kernel_info *ki, struct gen_program *p, int arg, int64_t off,
                     LLVMValueRef dyn, unsigned scale, LLVMTypeRef ty, struct gen_opnd out[4]);
bool gen_kernel_store(struct gen_kernel_info *ki, int arg, int64_t off, const struct gen_opnd *c,
                      unsigned n);
void gen_kernel_sample(struct gen_kernel_info *ki, struct gen_program *p, LLVMValueRef call);
void gen_kernel_epilogue(struct gen_kernel_info *ki, struct gen_program *p);

/* gen/isel.c */
bool gen_isel(struct st_ctx *ctx, const struct st_shader *sh, LLVMModuleRef m,
              struct gen_kernel_info *ki, struct gen_program *p);
bool gen_isel_addr(LLVMValueRef ptr, int *arg, int64_t *off, LLVMValueRef *dyn, unsigned *scale,
                   LLVMValueRef *alloca_out);
struct gen_opnd gen_isel_lane(struct gen_kernel_info *ki, LLVMValueRef v, unsigned k);
struct gen_opnd gen_isel_as_type(struct gen_kernel_info *ki, struct gen_opnd o, enum gen_type t);
void gen_isel_set_texel(struct gen_kernel_info *ki, LLVMValueRef ptr, const struct gen_opnd c[4]);
void gen_isel_fail(struct gen_kernel_info *ki, const char *what);
bool gen_isel_uniform(struct gen_kernel_info *ki, const struct gen_opnd *o);

#endif
