/*
 * gen/isel_const.h — relative constant reads, c[a0.x + k], c[aL + k],
 * ARB a[A0.x + k] (gen/isel_const.c; emit/gen only).
 *
 * The instruction selection (gen/isel.c) hands every relative read of the
 * constant file here.  Reads through one address in one straight-line
 * stretch of the program are done together, by the cheapest of the
 * strategies the layout allows (enum gen_rel_strategy, docs/gen-backend.md
 * "Relative constant reads"); each choice is one comment line of the
 * kernel's header.  The selection's own knowledge comes in through hooks:
 * the Gen value of a MIR lane so far, and whether that lane is uniform.
 */
#ifndef ST_GEN_ISEL_CONST_H
#define ST_GEN_ISEL_CONST_H

#include "kernel.h"

struct gen_relc_hooks {
    void *u;
    /* the operand MIR vreg lane holds at this point of the selection */
    struct gen_opnd (*lane)(void *u, uint32_t vreg, unsigned lane);
    /* is the lane one value for the whole thread (gen/isel.c's fixed point)? */
    bool (*lane_uniform)(void *u, uint32_t vreg, unsigned lane);
};

struct relc_ent;
struct relc_base;

struct gen_relc {
    struct gen_kernel_info *ki;
    struct gen_relc_hooks h;
    uint8_t *loop_depth;     /* per MIR instruction: loops around it */
    struct relc_ent *ent;    /* values read, valid in their straight-line segment */
    unsigned nent, cap;
    struct relc_base *base;  /* gathers' byte addresses per index, same validity */
    unsigned nbase, capbase;
    uint32_t *wstart, *wins; /* per vreg lane, the instructions writing it (built when needed) */
    bool writers_built;
};

bool gen_relc_init(struct gen_relc *R, struct gen_kernel_info *ki, struct gen_relc_hooks h);
void gen_relc_free(struct gen_relc *R);

/*
 * Components `elems` of c[index + s->index] for source s of MIR instruction
 * `cur`, read in straight-line segment `seg` (gen/isel.c's counter: it
 * changes at control flow and when an address is written, so values read
 * for a later instruction of the same segment are still right there).
 */
void gen_relc_read(struct gen_relc *R, unsigned cur, uint32_t seg, const struct mir_src *s,
                   uint8_t elems, struct gen_opnd vec[4]);

/*
 * Issue cycles (the EU's front end, gen/perf.c's `df`; docs/gen-backend.md
 * "Relative constant reads") of an index per channel reading ncomp
 * components through VxH movs from pushed constants, or nvec vectors by
 * gathers (an add and an untyped read each) from the constant buffer;
 * nsetup: the ALU instructions before either (offset, clamp, shift).
 * Used by the layout (gen/kernel.c: is pushing a range worth it?) and per
 * group by the selection.
 */
unsigned gen_relc_issue_vxh(unsigned simd, unsigned ncomp, unsigned nsetup);
unsigned gen_relc_issue_gather(unsigned simd, unsigned nvec, unsigned nsetup);

#endif
