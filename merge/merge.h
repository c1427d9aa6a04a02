/*
 * merge.h — the door of the merge stage: the optimized marker IR of
 * st_main (translator/lower with ST_LOWER_VECTOR, passes/) as the vector
 * machine IR every target compiles (mir.h), with the shufflevector merges
 * turned back into writemasks by lane liveness and coalescing.
 *
 * docs/merge.md explains the design; the MIR is in mir.h, which this
 * header includes, with the analyses on it the targets share (lane
 * liveness and interference, used by the vector allocator of emit/vasm).
 */
#ifndef ST_MERGE_H
#define ST_MERGE_H

#include <stdbool.h>

#include "mir.h" /* the vector machine IR: what every target reads */
#include "translator.h"

/* What --stats prints about the merge stage. */
struct st_merge_stats {
    unsigned merges_in;          /* MERGE pseudos selected (writemask merges and phi copies) */
    unsigned merges_eliminated;  /* every input coalesced: no instruction left */
    unsigned moves_left;         /* writemasked movs printed for merge inputs not coalesced */
    unsigned merges_interfering; /* merges with an input kept because of real lane interference */
    unsigned merges_unfit;       /* merges kept for another reason (none expected) */
    unsigned inputs_materialized; /* merge inputs that were a constant, a fixed register or a
                                     swizzled/negated view: each became a mov of its own, which
                                     the merge then takes in place */
    unsigned copies_folded;      /* movs whose source's definition now writes their lanes */
    unsigned instrs_in, instrs_out; /* instructions (declarations excluded) */
    unsigned temps_in, temps_out;   /* distinct r# registers */
    unsigned flow_not_supported;    /* 1 when control flow could not be re-expressed */
    unsigned as_written;            /* 1 when the vector text is the input itself (the program
                                       made from the IR did not fit the model's registers, or
                                       was longer) */
};

struct LLVMOpaqueModule;

/*
 * The stage: st_main of m (lowered with ST_LOWER_VECTOR, then
 * st_llvm_pipeline_for) as MIR in `out`, merges coalesced into
 * writemasks.  What the IR holds that the stage cannot give back is a
 * located ST_E_NOT_SUPPORTED; the result is false then (out is freed).
 */
bool st_merge(struct st_ctx *ctx, const struct st_shader *sh, struct LLVMOpaqueModule *m,
              struct mir_prog *out, struct st_merge_stats *stats);

/* The steps of st_merge, for tests that look at one of them. */
bool st_merge_select(struct st_ctx *ctx, const struct st_shader *sh,
                     struct LLVMOpaqueModule *m, struct mir_prog *out,
                     struct st_merge_stats *stats);
bool mir_split_merge_inputs(struct mir_prog *p, struct st_merge_stats *stats);
unsigned mir_fold_copies(struct mir_prog *p);
unsigned mir_sink_predicated(struct mir_prog *p);
bool mir_coalesce(struct st_ctx *ctx, struct mir_prog *p, struct st_merge_stats *stats);
unsigned mir_fold_outputs(struct mir_prog *p);
/* flow.c: drops ifs, elses and loops with nothing left to do; false when
 * memory ran out. */
bool mir_drop_empty_flow(struct mir_prog *p, bool *changed);
/* flow.c: the same instruction at the start of both arms of an if, once
 * before it; false when memory ran out. */
bool mir_hoist_arms(struct mir_prog *p, unsigned *hoisted);
/* flow.c: a copy of an else arm whose value is there before the if, and
 * which the then arm overwrites, before the if. */
bool mir_hoist_else_copies(struct mir_prog *p, unsigned *moved);

/* The --stats lines of the merge stage ("merge: name value, ..."). */
void st_merge_stats_format(const struct st_merge_stats *s, struct st_buf *out);

/* ---- lane liveness (liveness.c) ---- */
/*
 * Per block of the structured program (the runs between flow
 * instructions): the lanes of each vreg live on entry (in) and exit (out),
 * kept for the vregs live across blocks only.  exit_live lists vregs live
 * in every lane at the end of the program (ps_1_x's r0 to the vector
 * target).
 */
struct mir_lent {
    uint32_t g;             /* global number */
    uint8_t lanes;
};
struct mir_lset {
    struct mir_lent *e;
    unsigned n, cap;
};
struct mir_live {
    unsigned nb, nv;
    unsigned *start;        /* nb + 1: first instruction of each block, then n */
    unsigned *block_of;     /* n + 1: the block of each instruction (n: the exit, block nb) */
    unsigned (*bsucc)[2];
    uint8_t *nbsucc;
    /* the vregs live across a block boundary, numbered 0..ng-1 (gidx per
     * vreg, MIR_NONE for the others; globals the inverse); in and out
     * hold what is live of them: read through mir_live_in */
    uint32_t *gidx, *globals;
    unsigned ng;
    struct mir_lset *in, *out; /* nb + 1 sparse sets, sorted by global number */
};
bool mir_liveness(const struct mir_prog *p, struct mir_live *lv, const uint32_t *exit_live,
                  unsigned nexit);
void mir_live_free(struct mir_live *lv);
/* Lanes of v live at the start of block b (b = nb: the exit). */
uint8_t mir_live_in(const struct mir_live *lv, unsigned b, uint32_t v);
/* Lanes of vreg v one instruction reads (sources, predicate, addresses,
 * the destination of a predicated write). */
uint8_t mir_reads(const struct mir_prog *p, const struct mir_instr *in, uint32_t v);

/* A backward walk of one block: after mir_walk_block(w, b), live[v] is
 * what is live after the block's last instruction; mir_walk_step(w, i)
 * moves to before instruction i.  list[0..nlist) are the live vregs. */
struct mir_walk {
    const struct mir_prog *p;
    const struct mir_live *lv;
    uint8_t *live;
    uint32_t *list, *pos;
    unsigned nlist;
};
bool mir_walk_init(struct mir_walk *w, const struct mir_prog *p, const struct mir_live *lv);
void mir_walk_block(struct mir_walk *w, unsigned b);
void mir_walk_step(struct mir_walk *w, unsigned i);
void mir_walk_free(struct mir_walk *w);

/*
 * The lane interference graph: two vregs interfere in the lanes where one
 * is written while the other is live (a merge's in-place copy of the
 * other's lanes excepted; the other inputs of a merge count as live while
 * it writes; crs and sgn clash with what they read).
 */
struct mir_adj {
    uint32_t *v;
    unsigned n, cap;
};
struct mir_ig {
    unsigned nv;
    struct mir_adj *adj;   /* neighbours (a neighbour may repeat after merges) */
    uint64_t *key;         /* edge table: (min, max) -> lanes */
    uint8_t *lanes;
    size_t cap, nedges;
};
bool mir_ig_build(struct mir_ig *g, const struct mir_prog *p, const struct mir_live *lv);
uint8_t mir_ig_lanes(const struct mir_ig *g, uint32_t a, uint32_t b);
/* ORs lanes into the edge (a, b); false when memory ran out */
bool mir_ig_add(struct mir_ig *g, uint32_t a, uint32_t b, uint8_t lanes);
/* into inherits from's edges (from is renamed into into); false when memory ran out */
bool mir_ig_merge(struct mir_ig *g, uint32_t from, uint32_t into);
void mir_ig_free(struct mir_ig *g);

#endif
