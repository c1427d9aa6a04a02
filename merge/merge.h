/*
 * merge.h — the door of the merge stage: optimized LLVM IR back to a vector
 * machine (vec4 instructions with writemasks), with lane-level liveness,
 * merge coalescing and lane-granular register allocation.
 *
 * docs/merge.md explains the design.  The MIR itself is in mir.h (shared
 * with emit/vasm/vasm.c, which prints it as assembly of the input's dialect).
 */
#ifndef ST_MERGE_H
#define ST_MERGE_H

#include <stdbool.h>

#include "translator.h"
#include "mir.h" /* the vector machine IR: what every target reads */

/* What --stats prints for --emit=vasm. */
struct st_merge_stats {
    unsigned merges_in;          /* MERGE pseudos selected (writemask merges and phi copies) */
    unsigned merges_eliminated;  /* every input coalesced: no instruction left */
    unsigned moves_left;         /* writemasked movs printed for merge inputs not coalesced */
    unsigned merges_interfering; /* merges with an input kept because of real lane interference */
    unsigned merges_unfit;       /* merges kept for another reason (none expected: see below) */
    unsigned inputs_materialized; /* merge inputs that were a constant, a fixed register or a
                                     swizzled/negated view: each became a mov of its own, which
                                     the merge then takes in place */
    unsigned copies_folded;      /* movs whose source's definition now writes their lanes */
    unsigned instrs_in, instrs_out; /* instructions (declarations excluded) */
    unsigned temps_in, temps_out;   /* distinct r# registers */
    unsigned flow_not_supported;    /* 1 when control flow could not be re-expressed */
};


struct mir_prog;
struct LLVMOpaqueModule;

/*
 * select.c: the module of st_lower_llvm (after the merge stage's own
 * cleanups, see docs/merge.md) as MIR.  Anything the shader's version
 * cannot express gets ST_E_NOT_SUPPORTED and the result is false.
 */
bool st_merge_select(struct st_ctx *ctx, const struct st_shader *sh,
                     struct LLVMOpaqueModule *m, struct mir_prog *out,
                     struct st_merge_stats *stats);

/* Temporaries the shader model has (ps_2_0: 12, vs_3_0: 32, ...). */
unsigned st_merge_max_temps(const struct st_shader *sh);

/* The --stats lines of the merge stage ("merge: name value, ..."). */
void st_merge_stats_format(const struct st_merge_stats *s, struct st_buf *out);

#endif
