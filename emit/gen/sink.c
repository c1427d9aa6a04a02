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

/* What the scan for a reader looks at, one entry per place in the order
 * being built: the vregs an instruction writes and reads (NONE: not a
 * vreg) and whether it ends the straight-line stretch.  Scanning these
 * small entries instead of the instructions they stand for keeps the
 * window's scan in the cache (a 64k-instruction shader spent a fifth of
 * its compile here). */
enum { NONE = UINT32_MAX, STOP = UINT32_MAX - 1, NOT_A_VREG = UINT32_MAX - 2 };
struct entry {
    uint32_t id;     /* an index into p->inst */
    uint32_t dst;    /* vreg written, NONE, or STOP for flow and labels */
    uint32_t src[3]; /* vregs read, NONE */
};

struct sink {
    struct gen_program *p;
    int32_t *last;   /* per vreg: the last instruction touching it (an index
                      * into p->inst), -1 */
    uint32_t *defs;  /* per vreg: writers */
    struct entry *ord; /* the order being built: ord[q].id is an index into
                      * p->inst (moving small entries, not 120-byte
                      * instructions, and the instructions once at the end) */
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

/* Moves instruction k down to just before u (k < u). */
static void move(struct sink *S, unsigned k, unsigned u)
{
    struct gen_program *p = S->p;
    struct entry moved = S->ord[k];
    const struct gen_inst *i = &p->inst[moved.id];
    /* the instructions between shift up by one */
    for (unsigned q = k + 1; q < u; q++)
        S->pos[S->ord[q].id] = (int32_t)q - 1;
    memmove(&S->ord[k], &S->ord[k + 1], sizeof(*S->ord) * (u - 1 - k));
    S->ord[u - 1] = moved;
    S->pos[moved.id] = (int32_t)u - 1;
    /* its sources now live down to here at least */
    for (unsigned s = 0; s < 3; s++) {
        const struct gen_opnd *o = &i->src[s];
        if (o->kind == GO_VREG && place(S, S->last[o->vreg]) < (int32_t)u - 1)
            S->last[o->vreg] = (int32_t)moved.id;
        else if (o->kind == GO_FIXED && place(S, S->lastfix[o->off / GEN_GRF_SIZE]) < (int32_t)u - 1)
            S->lastfix[o->off / GEN_GRF_SIZE] = (int32_t)moved.id;
    }
}

/* The place of v's first reader after place k (readers in rd[]), or
 * UINT32_MAX.  Each movable vreg asks once: linear in the reads. */
static uint32_t first_reader(const struct sink *S, const uint32_t *rd, uint32_t n, unsigned k)
{
    uint32_t best = UINT32_MAX;
    for (uint32_t q = 0; q < n; q++) {
        uint32_t at = (uint32_t)S->pos[rd[q]];
        if (at > k && at < best)
            best = at;
    }
    return best;
}

void gen_sink(struct gen_program *p)
{
    if (p->oom || !p->ninst)
        return;
    uint32_t nv = p->nvreg, ni = p->ninst;
    struct sink S = {p, malloc(sizeof(int32_t) * (nv + 1)), calloc(nv + 1, sizeof(uint32_t)),
                     malloc(sizeof(struct entry) * ni), malloc(sizeof(int32_t) * ni), {0}};
    struct gen_inst *sorted = malloc(sizeof(*sorted) * ni);
    /* per vreg: its readers (instruction indices, rd_start[v]..rd_start[v + 1]
     * in rd) and its last writer; per place: the next place that ends the
     * straight-line stretch (those never move: moves stay inside it) */
    uint32_t *rd_start = calloc(nv + 2, sizeof(uint32_t)), *rd = malloc(sizeof(uint32_t) * 3 * ni + 1);
    int32_t *writer = malloc(sizeof(int32_t) * (nv + 1));
    uint32_t *stop_at = malloc(sizeof(uint32_t) * ni);
    if (!S.last || !S.defs || !S.ord || !S.pos || !sorted || !rd_start || !rd || !writer || !stop_at) {
        p->oom = true;
        goto out;
    }
    for (unsigned k = 0; k < ni; k++) {
        const struct gen_inst *i = &p->inst[k];
        struct entry *e = &S.ord[k];
        e->id = k;
        e->dst = flow_or_label(i) ? STOP : i->dst.kind == GO_VREG ? i->dst.vreg : NONE;
        for (unsigned s = 0; s < 3; s++) {
            e->src[s] = i->src[s].kind == GO_VREG ? i->src[s].vreg : NONE;
            /* one entry per reading instruction and vreg */
            if (e->src[s] != NONE && (s < 1 || e->src[0] != e->src[s]) &&
                (s < 2 || e->src[1] != e->src[s]))
                rd_start[e->src[s] + 2]++;
        }
        S.pos[k] = (int32_t)k;
    }
    for (unsigned v = 0; v < nv; v++) {
        rd_start[v + 2] += rd_start[v + 1];
        S.last[v] = -1;
        writer[v] = -1;
    }
    for (unsigned k = 0; k < ni; k++) {
        const struct entry *e = &S.ord[k];
        for (unsigned s = 0; s < 3; s++)
            if (e->src[s] != NONE && (s < 1 || e->src[0] != e->src[s]) &&
                (s < 2 || e->src[1] != e->src[s]))
                rd[rd_start[e->src[s] + 1]++] = k;
    }
    /* now rd_start[v]..rd_start[v + 1] are v's readers, in order */
    for (unsigned k = ni, next = ni; k-- > 0;) {
        if (S.ord[k].dst == STOP)
            next = k;
        stop_at[k] = next;
    }
    for (unsigned g = 0; g < GEN_NUM_GRFS; g++)
        S.lastfix[g] = -1;
    for (unsigned k = 0; k < ni; k++) {
        touch_all(&S, &p->inst[k], (int32_t)k);
        if (p->inst[k].dst.kind == GO_VREG) {
            S.defs[p->inst[k].dst.vreg]++;
            writer[p->inst[k].dst.vreg] = (int32_t)k;
        }
    }
    /* last instruction first, so a chain follows its reader down */
    for (unsigned k = ni; k-- > 0;) {
        const struct gen_inst *i = &p->inst[S.ord[k].id];
        if (!movable(&S, i))
            continue;
        uint32_t v = i->dst.vreg;
        /* the first reader, inside the window and the straight-line stretch */
        unsigned end = k + WINDOW < ni ? k + WINDOW : ni;
        if (stop_at[k] < end)
            end = stop_at[k];
        uint32_t u = first_reader(&S, rd + rd_start[v], rd_start[v + 1] - rd_start[v], k);
        if (u >= end || u == k + 1)
            continue;
        /* what it reads must keep its value down to the new place: a
         * source's one writer is looked up, one written more often is
         * looked for in between */
        bool clobber = false;
        for (unsigned s = 0; s < gen_op_info[i->op].nsrc && !clobber; s++) {
            if (i->src[s].kind != GO_VREG)
                continue;
            uint32_t sv = i->src[s].vreg;
            if (S.defs[sv] == 1) {
                uint32_t at = (uint32_t)place(&S, writer[sv]);
                clobber = at > k && at < u;
                continue;
            }
            for (uint32_t q = k + 1; q < u && !clobber; q++)
                clobber = S.ord[q].dst == sv;
        }
        if (clobber)
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
    for (unsigned k = 0; k < ni; k++)
        sorted[k] = p->inst[S.ord[k].id];
    memcpy(p->inst, sorted, sizeof(*sorted) * ni);
out:
    free(sorted);
    free(S.last);
    free(S.defs);
    free(S.ord);
    free(S.pos);
    free(rd_start);
    free(rd);
    free(writer);
    free(stop_at);
}
