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
 * (the runs between flow instructions), solved to a fixed point over the
 * blocks; inside a block one backward walk with a list of the live vregs
 * gives every instruction's live set.  The interference graph is built in
 * that one walk: each write meets only the vregs live across it, so the
 * work is the program's length times the registers live at once.
 */
#include <stdlib.h>
#include <string.h>

#include "merge.h"

static uint8_t swz_image(uint8_t swz, uint8_t lanes)
{
    uint8_t r = 0;
    for (unsigned i = 0; i < 4; i++)
        if (lanes & (1u << i))
            r |= (uint8_t)(1u << ST_SWZ_LANE(swz, i));
    return r;
}

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
    free(lv->in);
    free(lv->out);
    free(lv->start);
    free(lv->bsucc);
    free(lv->nbsucc);
    free(lv->block_of);
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
        r |= swz_image(in->pred.swz, in->has_dst ? in->dst.mask : 0x1);
    /* a predicated write keeps the lanes it skips: it reads its destination */
    if (in->predicated && in->has_dst && in->dst.kind == MIR_VREG && in->dst.vreg == v)
        r |= in->dst.mask;
    return r;
}

/* The transfer of instruction i, backward, on live[] (and the list). */
static void transfer(const struct mir_prog *p, const struct mir_instr *in, uint8_t *live,
                     uint32_t *list, uint32_t *pos, unsigned *nlist)
{
    if (in->dead)
        return;
    if (in->has_dst && in->dst.kind == MIR_VREG && !in->predicated) {
        uint32_t d = in->dst.vreg;
        live[d] &= (uint8_t)~in->dst.mask;
        if (!live[d] && list && pos[d] != MIR_NONE) {
            uint32_t last = list[--*nlist];
            list[pos[d]] = last;
            pos[last] = pos[d];
            pos[d] = MIR_NONE;
        }
    }
#define READ(v, lanes)                                                                           \
    do {                                                                                         \
        uint32_t v_ = (v);                                                                       \
        uint8_t l_ = (lanes);                                                                    \
        if (l_) {                                                                                \
            if (!live[v_] && list) {                                                             \
                pos[v_] = *nlist;                                                                \
                list[(*nlist)++] = v_;                                                           \
            }                                                                                    \
            live[v_] |= l_;                                                                      \
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
        READ(in->pred.vreg, swz_image(in->pred.swz, in->has_dst ? in->dst.mask : 0x1));
    if (in->predicated && in->has_dst && in->dst.kind == MIR_VREG)
        READ(in->dst.vreg, in->dst.mask);
#undef READ
}

bool mir_liveness(const struct mir_prog *p, struct mir_live *lv, const uint32_t *exit_live,
                  unsigned nexit)
{
    memset(lv, 0, sizeof(*lv));
    unsigned n = p->n, nv = p->nvregs ? p->nvregs : 1;
    unsigned (*succ)[2] = malloc(sizeof(*succ) * (n + 1));
    uint8_t *nsucc = malloc(n + 1);
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
    lv->in = calloc((size_t)(nb + 1) * nv, 1);
    lv->out = calloc((size_t)(nb + 1) * nv, 1);
    if (!lv->bsucc || !lv->nbsucc || !lv->in || !lv->out)
        goto oom;
    for (unsigned b = 0; b < nb; b++) {
        unsigned last = lv->start[b + 1] - 1;
        for (unsigned k = 0; k < nsucc[last]; k++)
            lv->bsucc[b][lv->nbsucc[b]++] = lv->block_of[succ[last][k]];
    }
    for (unsigned k = 0; k < nexit; k++)
        if (exit_live[k] < nv)
            lv->in[(size_t)nb * nv + exit_live[k]] = 0xf;
    uint8_t *live = malloc(nv);
    if (!live)
        goto oom;
    for (bool changed = true; changed;) {
        changed = false;
        for (unsigned b = nb; b-- > 0;) {
            uint8_t *out = &lv->out[(size_t)b * nv];
            for (unsigned s = 0; s < lv->nbsucc[b]; s++) {
                const uint8_t *sin = &lv->in[(size_t)lv->bsucc[b][s] * nv];
                for (unsigned v = 0; v < nv; v++)
                    out[v] |= sin[v];
            }
            memcpy(live, out, nv);
            for (unsigned i = lv->start[b + 1]; i-- > lv->start[b];)
                transfer(p, &p->ins[i], live, NULL, NULL, NULL);
            uint8_t *in = &lv->in[(size_t)b * nv];
            if (memcmp(in, live, nv) != 0) {
                memcpy(in, live, nv);
                changed = true;
            }
        }
    }
    free(live);
    free(succ);
    free(nsucc);
    return true;
oom:
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
    const uint8_t *out = &w->lv->out[(size_t)b * w->lv->nv];
    for (unsigned v = 0; v < w->lv->nv; v++)
        if (out[v]) {
            w->live[v] = out[v];
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
