/* requires: a MIR program whose flow is balanced (mir_verify).
 * invalidates: nothing (analyses: lane liveness, the lane interference graph). */
/*
 * liveness.c — which lanes of which virtual register are live where, the
 * way LLVM tracks subregister lanes: a 4-bit mask per vreg instead of one
 * bit.  A write under writemask W kills only the lanes in W, a read with
 * swizzle S makes live only the lanes S selects for the lanes the
 * instruction computes.  Two vregs then interfere only in the lanes where
 * one is written while the other is live, which is what lets r0.xy and
 * r0.zw live in one register.
 *
 * Cost: the live sets are kept per basic block of the structured program
 * (the runs between flow instructions) for the vregs that live across a
 * block boundary only, solved to a fixed point over the blocks; inside a
 * block one backward walk with a list of the live vregs gives every
 * instruction's live set.  The interference graph is built in
 * that one walk: each write meets only the vregs live across it, so the
 * work is the program's length times the registers live at once.
 */
#include <stdlib.h>
#include <string.h>

#include "merge.h"

/* ------------------------------------------------------------------ */
/* Blocks and edges of the structured program                          */

static bool opens(unsigned op)
{
    return op == ST_OP_IF || op == ST_OP_IFC || op == ST_OP_REP || op == ST_OP_LOOP;
}

static bool closes(unsigned op)
{
    return op == ST_OP_ENDIF || op == ST_OP_ENDREP || op == ST_OP_ENDLOOP;
}

/* Successors of every instruction (n = the exit), from one pass that
 * matches the flow instructions with a stack. */
static bool compute_succ(const struct mir_prog *p, unsigned (*succ)[2], uint8_t *nsucc)
{
    unsigned n = p->n;
    unsigned *stack = malloc(sizeof(unsigned) * (n + 1));
    unsigned *els = malloc(sizeof(unsigned) * (n + 1));  /* IF -> its ELSE or n */
    unsigned *match = malloc(sizeof(unsigned) * (n + 1)); /* opener <-> closer */
    unsigned *loopstk = malloc(sizeof(unsigned) * (n + 1));
    unsigned *brk = malloc(sizeof(unsigned) * (n + 1));  /* break -> its loop's opener */
    if (!stack || !els || !match || !loopstk || !brk) {
        free(stack);
        free(els);
        free(match);
        free(loopstk);
        free(brk);
        return false;
    }
    unsigned sp = 0, lsp = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned op = p->ins[i].dead ? ST_OP_NOP : p->ins[i].op;
        els[i] = n;
        match[i] = n;
        brk[i] = n;
        if (opens(op)) {
            stack[sp++] = i;
            if (op == ST_OP_REP || op == ST_OP_LOOP)
                loopstk[lsp++] = i;
        } else if (op == ST_OP_ELSE && sp) {
            els[stack[sp - 1]] = i;
            match[i] = stack[sp - 1]; /* else -> its if, until the endif is known */
        } else if (closes(op) && sp) {
            unsigned o = stack[--sp];
            match[o] = i;
            match[i] = o;
            if (els[o] < n)
                match[els[o]] = i; /* else -> endif */
            if (op != ST_OP_ENDIF && lsp)
                lsp--;
        } else if ((op == ST_OP_BREAK || op == ST_OP_BREAKC || op == ST_OP_BREAKP) && lsp) {
            brk[i] = loopstk[lsp - 1];
        }
    }
    for (unsigned i = 0; i < n; i++) {
        unsigned op = p->ins[i].dead ? ST_OP_NOP : p->ins[i].op;
        unsigned *s = succ[i];
        switch (op) {
        case ST_OP_IF: case ST_OP_IFC:
            s[0] = i + 1;
            s[1] = els[i] < n ? els[i] + 1 : match[i];
            nsucc[i] = 2;
            break;
        case ST_OP_ELSE:
            s[0] = match[i];
            nsucc[i] = 1;
            break;
        case ST_OP_REP: case ST_OP_LOOP:
            s[0] = i + 1;
            s[1] = match[i] < n ? match[i] + 1 : n;
            nsucc[i] = 2;
            break;
        case ST_OP_ENDREP: case ST_OP_ENDLOOP:
            s[0] = match[i] < n ? match[i] + 1 : n;
            s[1] = i + 1;
            nsucc[i] = 2;
            break;
        case ST_OP_BREAK:
            s[0] = brk[i] < n && match[brk[i]] < n ? match[brk[i]] + 1 : n;
            nsucc[i] = 1;
            break;
        case ST_OP_BREAKC: case ST_OP_BREAKP:
            s[0] = i + 1;
            s[1] = brk[i] < n && match[brk[i]] < n ? match[brk[i]] + 1 : n;
            nsucc[i] = 2;
            break;
        default:
            s[0] = i + 1;
            nsucc[i] = 1;
            break;
        }
    }
    free(stack);
    free(els);
    free(match);
    free(loopstk);
    free(brk);
    return true;
}

void mir_live_free(struct mir_live *lv)
{
    for (unsigned b = 0; lv->in && lv->out && b <= lv->nb; b++) {
        free(lv->in[b].e);
        free(lv->out[b].e);
    }
    free(lv->in);
    free(lv->out);
    free(lv->start);
    free(lv->bsucc);
    free(lv->nbsucc);
    free(lv->block_of);
    free(lv->gidx);
    free(lv->globals);
    memset(lv, 0, sizeof(*lv));
}

/* Lanes of vreg v instruction `in` reads (sources, predicate, addresses). */
uint8_t mir_reads(const struct mir_prog *p, const struct mir_instr *in, uint32_t v)
{
    if (in->dead)
        return 0;
    uint8_t r = 0;
    for (unsigned k = 0; k < in->nsrc; k++) {
        const struct mir_src *s = &in->src[k];
        if (s->kind == MIR_VREG && s->vreg == v)
            r |= mir_src_lanes(p, in, k);
        if (s->kind == MIR_FIXED && s->rel && s->rel_vreg == v)
            r |= (uint8_t)(1u << (s->rel_lane & 3));
    }
    if (in->has_dst && in->dst.kind == MIR_FIXED && in->dst.rel && in->dst.rel_vreg == v)
        r |= (uint8_t)(1u << (in->dst.rel_lane & 3));
    if (in->predicated && in->pred.kind == MIR_VREG && in->pred.vreg == v)
        r |= mir_swz_image(in->pred.swz, in->has_dst ? in->dst.mask : 0x1);
    /* a predicated write keeps the lanes it skips: it reads its destination */
    if (in->predicated && in->has_dst && in->dst.kind == MIR_VREG && in->dst.vreg == v)
        r |= in->dst.mask;
    return r;
}

/* The vreg reads of one instruction: at most four sources, an address of
 * its destination, a predicate and a predicated destination. */
struct reads {
    uint32_t v[8];
    uint8_t lanes[8];
    unsigned n;
};

static void reads_of(const struct mir_prog *p, const struct mir_instr *in, struct reads *r)
{
    r->n = 0;
    if (in->dead)
        return;
#define READ(vr, ln)                                                                             \
    do {                                                                                         \
        uint8_t l_ = (ln);                                                                       \
        if (l_ && r->n < 8) {                                                                    \
            r->v[r->n] = (vr);                                                                   \
            r->lanes[r->n++] = l_;                                                               \
        }                                                                                        \
    } while (0)
    for (unsigned k = 0; k < in->nsrc; k++) {
        const struct mir_src *s = &in->src[k];
        if (s->kind == MIR_VREG)
            READ(s->vreg, mir_src_lanes(p, in, k));
        if (s->kind == MIR_FIXED && s->rel)
            READ(s->rel_vreg, (uint8_t)(1u << (s->rel_lane & 3)));
    }
    if (in->has_dst && in->dst.kind == MIR_FIXED && in->dst.rel)
        READ(in->dst.rel_vreg, (uint8_t)(1u << (in->dst.rel_lane & 3)));
    if (in->predicated && in->pred.kind == MIR_VREG)
        READ(in->pred.vreg, mir_swz_image(in->pred.swz, in->has_dst ? in->dst.mask : 0x1));
    /* a predicated write keeps the lanes it skips: it reads its destination */
    if (in->predicated && in->has_dst && in->dst.kind == MIR_VREG)
        READ(in->dst.vreg, in->dst.mask);
#undef READ
}

/* The lanes an instruction surely writes (a predicated one: none). */
static uint8_t kills(const struct mir_instr *in, uint32_t *v)
{
    if (in->dead || !in->has_dst || in->dst.kind != MIR_VREG || in->predicated)
        return 0;
    *v = in->dst.vreg;
    return in->dst.mask;
}

/* The transfer of instruction i, backward, on live[] (and the list). */
static void transfer(const struct mir_prog *p, const struct mir_instr *in, uint8_t *live,
                     uint32_t *list, uint32_t *pos, unsigned *nlist)
{
    uint32_t d = 0;
    uint8_t k = kills(in, &d);
    if (k) {
        live[d] &= (uint8_t)~k;
        if (!live[d] && list && pos[d] != MIR_NONE) {
            uint32_t last = list[--*nlist];
            list[pos[d]] = last;
            pos[last] = pos[d];
            pos[d] = MIR_NONE;
        }
    }
    struct reads r;
    reads_of(p, in, &r);
    for (unsigned j = 0; j < r.n; j++) {
        uint32_t v = r.v[j];
        if (!live[v] && list) {
            pos[v] = *nlist;
            list[(*nlist)++] = v;
        }
        live[v] |= r.lanes[j];
    }
}

/* Lanes of global g in a set (sorted by g): a binary search. */
static uint8_t lset_get(const struct mir_lset *s, uint32_t g)
{
    unsigned lo = 0, hi = s->n;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (s->e[mid].g < g)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->n && s->e[lo].g == g ? s->e[lo].lanes : 0;
}

uint8_t mir_live_in(const struct mir_live *lv, unsigned b, uint32_t v)
{
    uint32_t g = v < lv->nv ? lv->gidx[v] : MIR_NONE;
    return g == MIR_NONE ? 0 : lset_get(&lv->in[b], g);
}

/* A set big enough for n entries; false when memory ran out. */
static bool lset_reserve(struct mir_lset *s, unsigned n)
{
    if (n <= s->cap)
        return true;
    unsigned cap = s->cap ? s->cap : 4;
    while (cap < n)
        cap *= 2;
    struct mir_lent *e = realloc(s->e, sizeof(*e) * cap);
    if (!e)
        return false;
    s->e = e;
    s->cap = cap;
    return true;
}

/* dst = a | b (lane-wise union of two sorted sets). */
static bool lset_union(struct mir_lset *dst, const struct mir_lset *a, const struct mir_lset *b)
{
    if (!lset_reserve(dst, a->n + b->n))
        return false;
    unsigned i = 0, j = 0, n = 0;
    while (i < a->n || j < b->n) {
        if (j == b->n || (i < a->n && a->e[i].g < b->e[j].g))
            dst->e[n++] = a->e[i++];
        else if (i == a->n || b->e[j].g < a->e[i].g)
            dst->e[n++] = b->e[j++];
        else {
            dst->e[n] = a->e[i++];
            dst->e[n++].lanes |= b->e[j++].lanes;
        }
    }
    dst->n = n;
    return true;
}

static bool lset_equal(const struct mir_lset *a, const struct mir_lset *b)
{
    if (a->n != b->n)
        return false;
    for (unsigned i = 0; i < a->n; i++)
        if (a->e[i].g != b->e[i].g || a->e[i].lanes != b->e[i].lanes)
            return false;
    return true;
}

/*
 * The vregs live across a block boundary ("global"): read in a block
 * before that block wrote all the lanes read (loops carry values that
 * way), or live at the exit.  Every other vreg is born and dies inside one
 * block, so the per-block sets hold only the global ones: the solution
 * costs blocks x globals, not blocks x vregs.
 */
static bool find_globals(const struct mir_prog *p, struct mir_live *lv, const uint32_t *exit_live,
                         unsigned nexit)
{
    unsigned nv = lv->nv;
    uint32_t *stamp = malloc(sizeof(uint32_t) * nv);
    uint8_t *defd = malloc(nv);
    lv->gidx = malloc(sizeof(uint32_t) * nv);
    if (!stamp || !defd || !lv->gidx) {
        free(stamp);
        free(defd);
        return false;
    }
    for (unsigned v = 0; v < nv; v++) {
        stamp[v] = MIR_NONE;
        lv->gidx[v] = MIR_NONE;
    }
    unsigned ng = 0;
    for (unsigned b = 0; b < lv->nb; b++)
        for (unsigned i = lv->start[b]; i < lv->start[b + 1]; i++) {
            struct reads r;
            reads_of(p, &p->ins[i], &r);
            for (unsigned j = 0; j < r.n; j++) {
                uint32_t v = r.v[j];
                uint8_t have = stamp[v] == b ? defd[v] : 0;
                if ((r.lanes[j] & (uint8_t)~have) && lv->gidx[v] == MIR_NONE)
                    lv->gidx[v] = ng++;
            }
            uint32_t d = 0;
            uint8_t k = kills(&p->ins[i], &d);
            if (k) {
                if (stamp[d] != b) {
                    stamp[d] = b;
                    defd[d] = 0;
                }
                defd[d] |= k;
            }
        }
    for (unsigned k = 0; k < nexit; k++)
        if (exit_live[k] < nv && lv->gidx[exit_live[k]] == MIR_NONE)
            lv->gidx[exit_live[k]] = ng++;
    lv->ng = ng;
    lv->globals = malloc(sizeof(uint32_t) * (ng ? ng : 1));
    if (!lv->globals) {
        free(stamp);
        free(defd);
        return false;
    }
    for (unsigned v = 0; v < nv; v++)
        if (lv->gidx[v] != MIR_NONE)
            lv->globals[lv->gidx[v]] = v;
    free(stamp);
    free(defd);
    return true;
}

/* Sorts vregs by their global number (an insertion sort for short runs,
 * else a heap sort: no recursion, no global state for a comparator). */
static void qsort_by_global(uint32_t *v, unsigned n, const uint32_t *gidx)
{
    if (n < 16) {
        for (unsigned i = 1; i < n; i++) {
            uint32_t x = v[i];
            unsigned j = i;
            while (j > 0 && gidx[v[j - 1]] > gidx[x]) {
                v[j] = v[j - 1];
                j--;
            }
            v[j] = x;
        }
        return;
    }
    for (unsigned start = n / 2; start-- > 0;) {
        for (unsigned r = start;;) {
            unsigned c = 2 * r + 1;
            if (c >= n)
                break;
            if (c + 1 < n && gidx[v[c + 1]] > gidx[v[c]])
                c++;
            if (gidx[v[r]] >= gidx[v[c]])
                break;
            uint32_t t = v[r];
            v[r] = v[c];
            v[c] = t;
            r = c;
        }
    }
    for (unsigned end = n; end-- > 1;) {
        uint32_t t = v[0];
        v[0] = v[end];
        v[end] = t;
        for (unsigned r = 0;;) {
            unsigned c = 2 * r + 1;
            if (c >= end)
                break;
            if (c + 1 < end && gidx[v[c + 1]] > gidx[v[c]])
                c++;
            if (gidx[v[r]] >= gidx[v[c]])
                break;
            t = v[r];
            v[r] = v[c];
            v[c] = t;
            r = c;
        }
    }
}

/* What each block reads before writing (gen) and writes (kill), of the
 * global vregs only: a list per block, sorted by global number. */
struct genkill {
    uint32_t g;
    uint8_t gen, kill;
};

bool mir_liveness(const struct mir_prog *p, struct mir_live *lv, const uint32_t *exit_live,
                  unsigned nexit)
{
    memset(lv, 0, sizeof(*lv));
    unsigned n = p->n, nv = p->nvregs ? p->nvregs : 1;
    unsigned (*succ)[2] = malloc(sizeof(*succ) * (n + 1));
    uint8_t *nsucc = malloc(n + 1);
    struct genkill *gk = NULL;
    unsigned *gkstart = NULL;
    uint8_t *live = NULL;
    uint32_t *touched = NULL;
    lv->block_of = malloc(sizeof(unsigned) * (n + 1));
    lv->start = malloc(sizeof(unsigned) * (n + 2));
    if (!succ || !nsucc || !lv->block_of || !lv->start || !compute_succ(p, succ, nsucc))
        goto oom;
    /* Blocks: a flow instruction ends one and starts the next; so does
     * the target of a jump, which is always a flow instruction or follows
     * one. */
    unsigned nb = 0;
    for (unsigned i = 0; i < n; i++) {
        bool flow = !p->ins[i].dead && mir_is_flow(p->ins[i].op);
        bool prev_flow = i > 0 && !p->ins[i - 1].dead && mir_is_flow(p->ins[i - 1].op);
        if (i == 0 || flow || prev_flow)
            lv->start[nb++] = i;
        lv->block_of[i] = nb - 1;
    }
    lv->start[nb] = n;
    lv->block_of[n] = nb; /* the exit */
    lv->nb = nb;
    lv->nv = nv;
    lv->bsucc = malloc(sizeof(*lv->bsucc) * (nb + 1));
    lv->nbsucc = calloc(nb + 1, 1);
    if (!lv->bsucc || !lv->nbsucc || !find_globals(p, lv, exit_live, nexit))
        goto oom;
    lv->in = calloc(nb + 1, sizeof(*lv->in));
    lv->out = calloc(nb + 1, sizeof(*lv->out));
    if (!lv->in || !lv->out)
        goto oom;
    for (unsigned b = 0; b < nb; b++) {
        unsigned last = lv->start[b + 1] - 1;
        for (unsigned k = 0; k < nsucc[last]; k++)
            lv->bsucc[b][lv->nbsucc[b]++] = lv->block_of[succ[last][k]];
    }
    /* the exit's set: what lives past the end, sorted */
    for (unsigned g = 0; g < lv->ng; g++)
        for (unsigned k = 0; k < nexit; k++)
            if (exit_live[k] < nv && lv->gidx[exit_live[k]] == g) {
                if (!lset_reserve(&lv->in[nb], lv->in[nb].n + 1))
                    goto oom;
                lv->in[nb].e[lv->in[nb].n++] = (struct mir_lent){g, 0xf};
                break;
            }
    /* gen and kill of each block, by one backward walk of it */
    live = calloc(nv, 1);
    uint8_t *killed = calloc(nv, 1);
    touched = malloc(sizeof(uint32_t) * nv);
    gkstart = malloc(sizeof(unsigned) * (nb + 1));
    size_t gkcap = 64, ngk = 0;
    gk = malloc(sizeof(*gk) * gkcap);
    if (!live || !killed || !touched || !gkstart || !gk) {
        free(killed);
        goto oom;
    }
    for (unsigned b = 0; b < nb; b++) {
        unsigned nt = 0;
        gkstart[b] = (unsigned)ngk;
        for (unsigned i = lv->start[b + 1]; i-- > lv->start[b];) {
            const struct mir_instr *in = &p->ins[i];
            uint32_t d = 0;
            uint8_t k = kills(in, &d);
            if (k && lv->gidx[d] != MIR_NONE) {
                if (!live[d] && !killed[d])
                    touched[nt++] = d;
                killed[d] |= k;
                live[d] &= (uint8_t)~k;
            }
            struct reads r;
            reads_of(p, in, &r);
            for (unsigned j = 0; j < r.n; j++) {
                uint32_t v = r.v[j];
                if (lv->gidx[v] == MIR_NONE)
                    continue;
                if (!live[v] && !killed[v])
                    touched[nt++] = v;
                live[v] |= r.lanes[j];
            }
        }
        qsort_by_global(touched, nt, lv->gidx);
        for (unsigned t = 0; t < nt; t++) {
            uint32_t v = touched[t];
            if (ngk == gkcap) {
                gkcap *= 2;
                struct genkill *x = realloc(gk, sizeof(*gk) * gkcap);
                if (!x) {
                    free(killed);
                    goto oom;
                }
                gk = x;
            }
            gk[ngk++] = (struct genkill){lv->gidx[v], live[v], killed[v]};
            live[v] = killed[v] = 0;
        }
    }
    gkstart[nb] = (unsigned)ngk;
    free(killed);
    /* the fixed point over the blocks, backward, on sparse sets: the work
     * is the sum of the sets' sizes per round, and structured flow settles
     * in a few rounds */
    struct mir_lset none = {NULL, 0, 0}, tmp = {NULL, 0, 0};
    for (bool changed = true; changed;) {
        changed = false;
        for (unsigned b = nb; b-- > 0;) {
            const struct mir_lset *s0 = lv->nbsucc[b] > 0 ? &lv->in[lv->bsucc[b][0]] : &none;
            const struct mir_lset *s1 = lv->nbsucc[b] > 1 ? &lv->in[lv->bsucc[b][1]] : &none;
            if (!lset_union(&lv->out[b], s0, s1))
                goto oom_tmp;
            /* in = gen | (out & ~kill), both lists sorted by global */
            const struct mir_lset *out = &lv->out[b];
            if (!lset_reserve(&tmp, out->n + (gkstart[b + 1] - gkstart[b])))
                goto oom_tmp;
            unsigned i = 0, e = gkstart[b], n = 0;
            while (i < out->n || e < gkstart[b + 1]) {
                struct mir_lent x;
                if (e == gkstart[b + 1] || (i < out->n && out->e[i].g < gk[e].g)) {
                    x = out->e[i++];
                } else if (i == out->n || gk[e].g < out->e[i].g) {
                    x = (struct mir_lent){gk[e].g, gk[e].gen};
                    e++;
                } else {
                    x = (struct mir_lent){gk[e].g, (uint8_t)(gk[e].gen |
                                                            (out->e[i].lanes & (uint8_t)~gk[e].kill))};
                    i++;
                    e++;
                }
                if (x.lanes)
                    tmp.e[n++] = x;
            }
            tmp.n = n;
            if (!lset_equal(&tmp, &lv->in[b])) {
                struct mir_lset t = lv->in[b];
                lv->in[b] = tmp;
                tmp = t;
                changed = true;
            }
        }
    }
    free(tmp.e);
    free(live);
    free(touched);
    free(gk);
    free(gkstart);
    free(succ);
    free(nsucc);
    return true;
oom_tmp:
    free(tmp.e);
oom:
    free(live);
    free(touched);
    free(gk);
    free(gkstart);
    free(succ);
    free(nsucc);
    mir_live_free(lv);
    return false;
}

/* ------------------------------------------------------------------ */
/* Walking a block backward with its live set                          */

bool mir_walk_init(struct mir_walk *w, const struct mir_prog *p, const struct mir_live *lv)
{
    memset(w, 0, sizeof(*w));
    w->p = p;
    w->lv = lv;
    w->live = calloc(lv->nv, 1);
    w->list = malloc(sizeof(uint32_t) * lv->nv);
    w->pos = malloc(sizeof(uint32_t) * lv->nv);
    if (!w->live || !w->list || !w->pos) {
        mir_walk_free(w);
        return false;
    }
    for (unsigned v = 0; v < lv->nv; v++)
        w->pos[v] = MIR_NONE;
    return true;
}

void mir_walk_block(struct mir_walk *w, unsigned b)
{
    for (unsigned k = 0; k < w->nlist; k++) {
        w->live[w->list[k]] = 0;
        w->pos[w->list[k]] = MIR_NONE;
    }
    w->nlist = 0;
    const struct mir_live *lv = w->lv;
    const struct mir_lset *out = &lv->out[b];
    for (unsigned k = 0; k < out->n; k++) {
        uint32_t v = lv->globals[out->e[k].g];
        w->live[v] = out->e[k].lanes;
        w->pos[v] = w->nlist;
        w->list[w->nlist++] = v;
    }
}

void mir_walk_step(struct mir_walk *w, unsigned i)
{
    transfer(w->p, &w->p->ins[i], w->live, w->list, w->pos, &w->nlist);
}

void mir_walk_free(struct mir_walk *w)
{
    free(w->live);
    free(w->list);
    free(w->pos);
    memset(w, 0, sizeof(*w));
}

/* ------------------------------------------------------------------ */
/* The interference graph                                              */

static size_t ehash(uint64_t k, size_t cap)
{
    k ^= k >> 29;
    k *= 0x9e3779b97f4a7c15ull;
    return (size_t)(k >> 17) & (cap - 1);
}

static uint64_t ekey(uint32_t a, uint32_t b)
{
    return a < b ? ((uint64_t)a << 32) | b : ((uint64_t)b << 32) | a;
}

static bool adj_add(struct mir_ig *g, uint32_t a, uint32_t b)
{
    struct mir_adj *l = &g->adj[a];
    if (l->n == l->cap) {
        unsigned cap = l->cap ? l->cap * 2 : 4;
        uint32_t *x = realloc(l->v, sizeof(uint32_t) * cap);
        if (!x)
            return false;
        l->v = x;
        l->cap = cap;
    }
    l->v[l->n++] = b;
    return true;
}

/* ORs lanes into edge (a, b); false when memory ran out. */
static bool edge_or(struct mir_ig *g, uint32_t a, uint32_t b, uint8_t lanes)
{
    if (a == b || !lanes)
        return true;
    if ((g->nedges + 1) * 2 > g->cap) {
        size_t ncap = g->cap ? g->cap * 2 : 1024;
        uint64_t *nk = malloc(sizeof(uint64_t) * ncap);
        uint8_t *nl = calloc(ncap, 1);
        if (!nk || !nl) {
            free(nk);
            free(nl);
            return false;
        }
        for (size_t i = 0; i < ncap; i++)
            nk[i] = UINT64_MAX;
        for (size_t i = 0; i < g->cap; i++)
            if (g->key[i] != UINT64_MAX)
                for (size_t j = ehash(g->key[i], ncap);; j = (j + 1) & (ncap - 1))
                    if (nk[j] == UINT64_MAX) {
                        nk[j] = g->key[i];
                        nl[j] = g->lanes[i];
                        break;
                    }
        free(g->key);
        free(g->lanes);
        g->key = nk;
        g->lanes = nl;
        g->cap = ncap;
    }
    uint64_t k = ekey(a, b);
    for (size_t j = ehash(k, g->cap);; j = (j + 1) & (g->cap - 1)) {
        if (g->key[j] == k) {
            g->lanes[j] |= lanes;
            return true;
        }
        if (g->key[j] == UINT64_MAX) {
            g->key[j] = k;
            g->lanes[j] = lanes;
            g->nedges++;
            return adj_add(g, a, b) && adj_add(g, b, a);
        }
    }
}

bool mir_ig_add(struct mir_ig *g, uint32_t a, uint32_t b, uint8_t lanes)
{
    return edge_or(g, a, b, lanes);
}

uint8_t mir_ig_lanes(const struct mir_ig *g, uint32_t a, uint32_t b)
{
    if (a == b || !g->cap)
        return 0;
    uint64_t k = ekey(a, b);
    for (size_t j = ehash(k, g->cap);; j = (j + 1) & (g->cap - 1)) {
        if (g->key[j] == k)
            return g->lanes[j];
        if (g->key[j] == UINT64_MAX)
            return 0;
    }
}

/* Lanes of the destination `in` writes that are not a plain copy of u
 * (a merge input copied from u in place: the same value). */
static uint8_t written_not_copied(const struct mir_instr *in, uint32_t u)
{
    uint8_t w = in->dst.mask;
    if (in->op != MIR_OP_MERGE)
        return w;
    for (unsigned k = 0; k < in->nsrc; k++) {
        const struct mir_src *s = &in->src[k];
        if (s->kind != MIR_VREG || s->vreg != u || s->mod != MIR_MOD_NONE)
            continue;
        bool ident = true;
        for (unsigned l = 0; l < 4; l++)
            if ((in->lanes[k] >> l) & 1 && ST_SWZ_LANE(s->swz, l) != l)
                ident = false;
        if (ident)
            w &= (uint8_t)~in->lanes[k];
    }
    return w;
}

bool mir_ig_build(struct mir_ig *g, const struct mir_prog *p, const struct mir_live *lv)
{
    memset(g, 0, sizeof(*g));
    g->nv = lv->nv;
    g->adj = calloc(lv->nv, sizeof(*g->adj));
    struct mir_walk w;
    if (!g->adj || !mir_walk_init(&w, p, lv)) {
        mir_ig_free(g);
        return false;
    }
    bool ok = true;
    for (unsigned b = 0; b < lv->nb && ok; b++) {
        mir_walk_block(&w, b);
        for (unsigned i = lv->start[b + 1]; i-- > lv->start[b] && ok;) {
            const struct mir_instr *in = &p->ins[i];
            if (!in->dead && in->has_dst && in->dst.kind == MIR_VREG) {
                uint32_t d = in->dst.vreg;
                /* the vregs live after the write: clash where written */
                for (unsigned k = 0; k < w.nlist && ok; k++) {
                    uint32_t u = w.list[k];
                    if (u == d)
                        continue;
                    uint8_t wr = written_not_copied(in, u);
                    ok = edge_or(g, d, u, (uint8_t)(wr & w.live[u]));
                }
                /* a merge prints as one move per input in order: the inputs
                 * it reads are live while it writes (but where it copies
                 * them in place) */
                if (in->op == MIR_OP_MERGE)
                    for (unsigned k = 0; k < in->nsrc && ok; k++) {
                        const struct mir_src *s = &in->src[k];
                        if (s->kind != MIR_VREG || s->vreg == d)
                            continue;
                        uint8_t wr = written_not_copied(in, s->vreg);
                        ok = edge_or(g, d, s->vreg,
                                     (uint8_t)(wr & mir_reads(p, in, s->vreg) &
                                               (uint8_t)~(in->dst.mask & (uint8_t)~wr)));
                    }
                /* crs and sgn may not write a register they read */
                if (in->op == ST_OP_CRS || in->op == ST_OP_SGN)
                    for (unsigned k = 0; k < in->nsrc && ok; k++)
                        if (in->src[k].kind == MIR_VREG)
                            ok = edge_or(g, d, in->src[k].vreg, 0xf);
            }
            mir_walk_step(&w, i);
        }
    }
    mir_walk_free(&w);
    if (!ok)
        mir_ig_free(g);
    return ok;
}

bool mir_ig_merge(struct mir_ig *g, uint32_t from, uint32_t into)
{
    struct mir_adj *l = &g->adj[from];
    for (unsigned k = 0; k < l->n; k++) {
        uint32_t nb = l->v[k];
        uint8_t lanes = mir_ig_lanes(g, from, nb);
        if (nb != into && lanes && !edge_or(g, into, nb, lanes))
            return false;
    }
    return true;
}

void mir_ig_free(struct mir_ig *g)
{
    if (g->adj)
        for (unsigned v = 0; v < g->nv; v++)
            free(g->adj[v].v);
    free(g->adj);
    free(g->key);
    free(g->lanes);
    memset(g, 0, sizeof(*g));
}
