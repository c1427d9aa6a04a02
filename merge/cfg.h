/*
 * cfg.h — the control structure of st_main, recovered once (cfg.c),
 * private to merge/.
 *
 * The lowering builds structured control flow (if/else, counted loops
 * with breaks, inlined calls), and LLVM's passes keep it reducible; what
 * the selector needs to give it back as IF/ELSE/ENDIF and loops is: the
 * blocks in reverse postorder, the dominator tree (back edges, so loops),
 * each loop's header, latch, body entry and its one exit, and the
 * immediate post-dominator of each block in the acyclic graph where a loop
 * is one node (the join of a conditional branch; break edges constrain
 * nothing, a block that only breaks has none).
 */
#ifndef ST_MERGE_CFG_H
#define ST_MERGE_CFG_H

#include <stdbool.h>
#include <stdint.h>

#include <llvm-c/Core.h>

struct mloop {
    unsigned header, latch, body, exit;
    int entry;  /* the block that enters the header (not the latch), -1 */
    int parent; /* the enclosing loop, -1 */
};

struct mcfg {
    unsigned n;              /* blocks reachable from the entry */
    LLVMBasicBlockRef *bb;   /* by index: reverse postorder, entry first */
    unsigned (*succ)[2];
    uint8_t *nsucc;
    int *idom;               /* immediate dominator, -1 for the entry */
    int *ipdom;              /* immediate post-dominator (MCFG_END: none but the end;
                                MCFG_NONE: every path breaks out of a loop) */
    int *header_of;          /* the loop this block heads, -1 */
    int *loop_of;            /* the innermost loop containing this block, -1 */
    struct mloop *loops;
    unsigned nloops;
    /* block -> index, open addressing */
    LLVMBasicBlockRef *hkey;
    unsigned *hval;
    unsigned hcap;
};

enum { MCFG_END = -2, MCFG_NONE = -3 };

/* Builds the analysis of fn; false with *why set when the control flow is
 * not one the selector can give back (a loop with two exits, ...), or
 * when memory ran out (*why = NULL). */
bool mcfg_build(struct mcfg *g, LLVMValueRef fn, const char **why);
/* The index of a block, -1 when unreachable. */
int mcfg_index(const struct mcfg *g, LLVMBasicBlockRef b);
void mcfg_free(struct mcfg *g);

#endif
