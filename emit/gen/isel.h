/*
 * gen/isel.h — instruction selection: the MIR program (merge.h) to the
 * Gen IR (gen_ir.h), private to emit/gen.  gen/compile.c calls it after
 * gen_kernel_layout; it calls gen/isel_ops.c, gen/isel_tex.c and the ABI
 * of gen/kernel.c, none of which call back.
 */
#ifndef ST_GEN_ISEL_H
#define ST_GEN_ISEL_H

#include "kernel.h"

/* How the multiply-adds are compiled (st_options.fp_contract). */
enum gen_contract {
    GEN_CONTRACT_ON,   /* the operations that are multiply-adds by definition: fused mad */
    GEN_CONTRACT_FAST, /* ... and a separate mul whose only reader is an add */
    GEN_CONTRACT_OFF,  /* every product rounded, then added */
};

/* The whole kernel: ki->p->layout filled by gen_kernel_layout, ki->b
 * ready; the program selected, the epilogue appended.  False on a
 * located error. */
bool gen_isel(struct gen_kernel_info *ki, enum st_float_rules rules, enum gen_contract contract);

#endif
