/* requires: the Gen IR after the clean-ups (gen/cleanup.c), before allocation.
 * invalidates: instruction order inside straight-line blocks (nothing else). */
/*
 * gen/sink.c — computations moved down to their first reader.
 *
 * Selection emits the MIR in its order, so a value computed early and
 * read late (a render-target colour the epilogue sends, a vertex output
 * the URB write takes) holds registers the whole way.  An instruction
 * whose sources stay live until that reader anyway moves to just
 * before it: its result's live range shrinks, and a source it then
 * keeps alive longer (a constant's GRF) may grow by no more than that,
 * so the register pressure rises nowhere (the allocator's intervals are
 * linear, see gen/ra.c).  Only plain ALU instructions move, inside one
 * straight-line block, never across a write of what they read.
 */
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"

/* How far an instruction may move: keeps the pass linear in the program. */
enum { WINDOW = 256 };

struct sink {
    struct gen_program *p;
    int32_t *last;   /* per vreg: the last instruction touching it (an index
                      * into p->inst), -1 */
    uint32_t *defs;  /* per vreg: writers */
    uint32_t *ord;   /* the order being built: ord[q] is an index into p->inst
                      * (moving 4-byte indices, not 120-byte instructions, and
                      * the instructions once at the end) */
    int32_t *pos;    /* per instruction: its place in ord.  A move keeps the
                      * order of the others, so the last touches stay the same
                      * instructions: only their places shift */
    int32_t lastfix[GEN_NUM_GRFS]; /* per payload GRF: last reader (of its first byte's GRF) */
};

/* The place of instruction id (-1: none). */
static int32_t place(const struct sink *S, int32_t id)
{
    return id < 0 ? -1 : S->pos[id];
}

static bool flow_or_label(const struct gen_inst *i)
{
    return gen_op_info[i->op].flow || i->op == GOP_LABEL;
}

static void touch_all(struct sink *S, const struct gen_inst *i, int32_t k)
{
    const struct gen_opnd *o[4] = {&i->dst, &i->src[0], &i->src[1], &i->src[2]};
    for (unsigned s = 0; s < 4; s++) {
        if (o[s]->kind == GO_VREG)
            S->last[o[s]->vreg] = k;
        else if (o[s]->kind == GO_FIXED && o[s]->off / GEN_GRF_SIZE < GEN_NUM_GRFS)
            S->lastfix[o[s]->off / GEN_GRF_SIZE] = k;
    }
}

/* An instruction that may move: a whole-value ALU result, one writer,
 * no flag read or written, no message, no block part. */
static bool movable(const struct sink *S, const struct gen_inst *i)
{
    const struct gen_program *p = S->p;
    const struct gen_op_info *oi = &gen_op_info[i->op];
    if (oi->flow || oi->send || i->op == GOP_LABEL || !oi->has_dst || i->cmod ||
        i->pred != GP_NONE || i->nomask || i->exec != p->simd || i->group || i->spill ||
        i->fill || i->dst.kind != GO_VREG || i->dst.off || i->eot)
        return false;
    const struct gen_vreg *d = &p->vreg[i->dst.vreg];
    if (d->no_spill || d->uniform || d->alias_of || S->defs[i->dst.vreg] != 1)
        return false;
    for (unsigned s = 0; s < oi->nsrc; s++) {
        const struct gen_opnd *o = &i->src[s];
        if (o->kind == GO_VREG && p->vreg[o->vreg].alias_of)
            return false;
        /* payload registers: only scalars (CURBE, setup data), whose
         * liveness lastfix follows exactly */
        if (o->kind == GO_FIXED && (o->region != GR_SCALAR || o->off / GEN_GRF_SIZE >= GEN_NUM_GRFS))
            return false;
    }
    return true;
}

/* Does instruction x read vreg v? */
static bool reads(const struct gen_inst *x, uint32_t v)
{
    for (unsigned s = 0; s < 3; s++)
        if (x->src[s].kind == GO_VREG && x->src[s].vreg == v)
            return true;
    return false;
}

static bool writes(const struct gen_inst *x, uint32_t v)
{
    return x->dst.kind == GO_VREG && x->dst.vreg == v;
}

/* Moves instruction k down to just before u (k < u). */
static void move(struct sink *S, unsigned k, unsigned u)
{
    struct gen_program *p = S->p;
    uint32_t moved = S->ord[k];
    const struct gen_inst *i = &p->inst[moved];
    /* the instructions between shift up by one */
    for (unsigned q = k + 1; q < u; q++)
        S->pos[S->ord[q]] = (int32_t)q - 1;
    memmove(&S->ord[k], &S->ord[k + 1], sizeof(*S->ord) * (u - 1 - k));
    S->ord[u - 1] = moved;
    S->pos[moved] = (int32_t)u - 1;
    /* its sources now live down to here at least */
    for (unsigned s = 0; s < 3; s++) {
        const struct gen_opnd *o = &i->src[s];
        if (o->kind == GO_VREG && place(S, S->last[o->vreg]) < (int32_t)u - 1)
            S->last[o->vreg] = (int32_t)moved;
        else if (o->kind == GO_FIXED && place(S, S->lastfix[o->off / GEN_GRF_SIZE]) < (int32_t)u - 1)
            S->lastfix[o->off / GEN_GRF_SIZE] = (int32_t)moved;
    }
}

void gen_sink(struct gen_program *p)
{
    if (p->oom || !p->ninst)
        return;
    struct sink S = {p, malloc(sizeof(int32_t) * (p->nvreg + 1)),
                     calloc(p->nvreg + 1, sizeof(uint32_t)), malloc(sizeof(uint32_t) * p->ninst),
                     malloc(sizeof(int32_t) * p->ninst), {0}};
    struct gen_inst *sorted = malloc(sizeof(*sorted) * p->ninst);
    if (!S.last || !S.defs || !S.ord || !S.pos || !sorted) {
        free(S.last);
        free(S.defs);
        free(S.ord);
        free(S.pos);
        free(sorted);
        p->oom = true;
        return;
    }
    for (unsigned k = 0; k < p->ninst; k++) {
        S.ord[k] = k;
        S.pos[k] = (int32_t)k;
    }
    for (unsigned v = 0; v < p->nvreg; v++)
        S.last[v] = -1;
    for (unsigned g = 0; g < GEN_NUM_GRFS; g++)
        S.lastfix[g] = -1;
    for (unsigned k = 0; k < p->ninst; k++) {
        touch_all(&S, &p->inst[k], (int32_t)k);
        if (p->inst[k].dst.kind == GO_VREG)
            S.defs[p->inst[k].dst.vreg]++;
    }
    /* last instruction first, so a chain follows its reader down */
    for (unsigned k = p->ninst; k-- > 0;) {
        const struct gen_inst *i = &p->inst[S.ord[k]];
        if (!movable(&S, i))
            continue;
        uint32_t v = i->dst.vreg;
        unsigned u = k + 1, end = k + WINDOW < p->ninst ? k + WINDOW : p->ninst;
        bool ok = false;
        uint32_t sv[3];
        unsigned nsv = 0;
        for (unsigned s = 0; s < gen_op_info[i->op].nsrc; s++)
            if (i->src[s].kind == GO_VREG)
                sv[nsv++] = i->src[s].vreg;
        for (; u < end; u++) {
            const struct gen_inst *x = &p->inst[S.ord[u]];
            if (flow_or_label(x))
                break;
            if (reads(x, v)) {
                ok = true;
                break;
            }
            /* what it reads must keep its value down to the new place */
            bool clobber = false;
            for (unsigned s = 0; s < nsv; s++)
                clobber |= writes(x, sv[s]);
            if (clobber)
                break;
        }
        if (!ok || u == k + 1)
            continue;
        /* what the sources' lives grow by (those not read at u or later)
         * must not exceed what the result's shrinks by */
        uint32_t grows = 0;
        for (unsigned s = 0; s < gen_op_info[i->op].nsrc; s++) {
            const struct gen_opnd *o = &i->src[s];
            bool dup = false;
            for (unsigned t = 0; t < s; t++)
                dup |= i->src[t].kind == o->kind && i->src[t].vreg == o->vreg &&
                       (o->kind != GO_FIXED || i->src[t].off / GEN_GRF_SIZE == o->off / GEN_GRF_SIZE);
            if (dup)
                continue;
            if (o->kind == GO_VREG && place(&S, S.last[o->vreg]) < (int32_t)u)
                grows += p->vreg[o->vreg].size;
            else if (o->kind == GO_FIXED && place(&S, S.lastfix[o->off / GEN_GRF_SIZE]) < (int32_t)u)
                grows += GEN_GRF_SIZE;
        }
        if (grows > p->vreg[v].size)
            continue;
        move(&S, k, u);
    }
    for (unsigned k = 0; k < p->ninst; k++)
        sorted[k] = p->inst[S.ord[k]];
    memcpy(p->inst, sorted, sizeof(*sorted) * p->ninst);
    free(sorted);
    free(S.last);
    free(S.defs);
    free(S.ord);
    free(S.pos);
}
