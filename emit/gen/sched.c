/*
 * gen/sched.c — list scheduling of each basic block for latency: before
 * allocation on vregs, after it on the allocated registers (so that
 * message and math latency is hidden behind independent work).
 *
 * requires: a selected program (before allocation: gen_schedule_pre) or an
 *           allocated one (after: gen_schedule_post), flow not yet resolved
 * invalidates: instruction order inside basic blocks (jip/uip: resolve after)
 *
 * A basic block is a run of instructions between control flow (if, else,
 * endif, the loop label, while, break, cont).  Movs right before a control
 * flow instruction stay where they are (the allocator reads predicated
 * ones there as moves on the branch's edge, and copies at a loop's end as
 * the loop-carried values).  Inside a block, every instruction depends on
 * what it must follow: a read of a register after its write (latency: the
 * writer's destination or flag latency), a write after reads (a message's
 * payload may be overwritten `ls` cycles after it issued) and after
 * writes, and messages with effects (URB, render target, scratch) in
 * order.  Registers are vregs in 32-byte pieces before allocation (the
 * parts of a message block are independent) and GRFs after it; flags are
 * 8-channel bytes of f0/f1.
 *
 * Top-down list scheduling with the timings of gen/perf.c (Mesa brw's
 * model, the one the cycle estimate uses): a clock advances by each
 * instruction's front-end cycles; an instruction can issue once its
 * dependences' latencies have passed and its unit (math, sampler, ...) is
 * free; among those, the one with the longest latency-weighted path to the
 * block's end goes first (the program order breaks ties); when none can
 * issue yet, the clock jumps to the earliest.  This is Mesa's top-down
 * ("SCHEDULE_PRE"/"SCHEDULE_POST") choice.  Register pressure is not
 * modelled: the caller compiles again without the pre-allocation schedule
 * when the allocation spills.
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

struct node {
    uint32_t inst;      /* index in the block's original order */
    uint32_t npred;     /* unscheduled predecessors */
    uint32_t succ_start, nsucc;
    int64_t prio;       /* longest latency path to the block end, this node's issue included */
    int64_t ready;      /* earliest issue cycle from scheduled predecessors */
    uint8_t unit;
    int16_t df, db;
    bool done;
};

struct edge {
    uint32_t to;
    int32_t lat;
};

struct dep_state {
    int32_t writer;  /* last writer node in this block, -1 */
    int32_t readers; /* readers since: a list in the reader pool, -1 */
    uint32_t stamp;  /* block the state belongs to (stale otherwise) */
};

struct reader {
    uint32_t node;
    int32_t next;
};

struct builder {
    struct edge *edges;
    uint32_t nedges, capedges;
    uint32_t *efrom; /* each edge's source node */
    struct reader *pool;
    uint32_t npool, cappool;
};

enum { RES_FLAGS = 8, RES_MEM = 1 };

static bool push_edge(struct builder *B, uint32_t from, uint32_t to, int32_t lat)
{
    if (from == to)
        return true;
    if (B->nedges == B->capedges) {
        uint32_t nc = B->capedges ? 2 * B->capedges : 256;
        struct edge *ne = realloc(B->edges, nc * sizeof(*ne));
        uint32_t *nf = realloc(B->efrom, nc * sizeof(*nf));
        if (ne)
            B->edges = ne;
        if (nf)
            B->efrom = nf;
        if (!ne || !nf)
            return false;
        B->capedges = nc;
    }
    B->edges[B->nedges] = (struct edge){to, lat};
    B->efrom[B->nedges++] = from;
    return true;
}

struct sched {
    const struct gen_program *p;
    bool post;
    /* resources: pre: vreg pieces (base[v] + off/32); post: GRFs; then flags, then memory */
    uint32_t *base;
    uint32_t nres;
    struct dep_state *st;
    uint32_t stamp;
    struct builder B;
    struct node *nodes;
    struct gen_timing *tim;
    uint32_t *heap2;
};

/* Resources (first, count) an operand covers; false when none. */
static bool opnd_res(const struct sched *S, const struct gen_inst *i, const struct gen_opnd *o,
                     unsigned srcno, bool is_dst, uint32_t *first, uint32_t *count)
{
    const struct gen_program *p = S->p;
    unsigned e = i->exec ? i->exec : 1;
    bool send = gen_op_info[i->op].send;
    if (o->kind != GO_VREG && o->kind != GO_FIXED)
        return false;
    uint32_t lo, bytes;
    if (send) {
        bytes = is_dst ? (uint32_t)i->rlen * GEN_GRF_SIZE
                       : (uint32_t)(srcno == 0 ? (i->mlen ? i->mlen : 1) : i->src1len) * GEN_GRF_SIZE;
        if (!bytes)
            return false;
    } else if (is_dst) {
        bytes = i->op == GOP_MOVI ? gen_dst_bytes(p, i)
                                  : e * gen_type_size((enum gen_type)o->type);
    } else {
        bytes = gen_src_bytes(p, i, srcno);
    }
    if (S->post || o->kind == GO_FIXED) {
        uint32_t a = S->post ? gen_opnd_addr(p, o) : o->off;
        if (o->kind == GO_FIXED && !S->post) {
            /* payload registers are only read before allocation: no dependence */
            return false;
        }
        lo = a / GEN_GRF_SIZE;
        uint32_t hi = (a + bytes + GEN_GRF_SIZE - 1) / GEN_GRF_SIZE;
        if (hi > GEN_NUM_GRFS)
            hi = GEN_NUM_GRFS;
        if (lo >= hi)
            return false;
        *first = lo;
        *count = hi - lo;
        return true;
    }
    uint32_t v = o->vreg, size = p->vreg[v].size;
    uint32_t pieces = S->base[v + 1] - S->base[v];
    uint32_t a = o->off < size ? o->off : 0;
    uint32_t lo_p = a / GEN_GRF_SIZE, hi_p = (a + bytes + GEN_GRF_SIZE - 1) / GEN_GRF_SIZE;
    if (hi_p > pieces)
        hi_p = pieces;
    if (lo_p >= hi_p) {
        lo_p = 0;
        hi_p = pieces;
    }
    *first = S->base[v] + lo_p;
    *count = hi_p - lo_p;
    return true;
}

static struct dep_state *res_state(struct sched *S, uint32_t r)
{
    struct dep_state *d = &S->st[r];
    if (d->stamp != S->stamp) {
        d->stamp = S->stamp;
        d->writer = -1;
        d->readers = -1;
    }
    return d;
}

static bool add_reader(struct sched *S, struct dep_state *d, uint32_t node)
{
    struct builder *B = &S->B;
    if (B->npool == B->cappool) {
        uint32_t nc = B->cappool ? 2 * B->cappool : 256;
        struct reader *n = realloc(B->pool, nc * sizeof(*n));
        if (!n)
            return false;
        B->pool = n;
        B->cappool = nc;
    }
    B->pool[B->npool] = (struct reader){node, d->readers};
    d->readers = (int32_t)B->npool++;
    return true;
}

/* A read of resource r by node n: after its writer. */
static bool dep_read(struct sched *S, uint32_t r, uint32_t n, bool flag)
{
    struct dep_state *d = res_state(S, r);
    if (d->writer >= 0) {
        const struct gen_timing *t = &S->tim[d->writer];
        if (!push_edge(&S->B, (uint32_t)d->writer, n, flag ? t->lf : t->ld))
            return false;
    }
    return add_reader(S, d, n);
}

/* A write of resource r by node n: after the readers and the writer. */
static bool dep_write(struct sched *S, uint32_t r, uint32_t n)
{
    struct dep_state *d = res_state(S, r);
    for (int32_t q = d->readers; q >= 0; q = S->B.pool[q].next) {
        uint32_t rd = S->B.pool[q].node;
        const struct gen_inst *ri = &S->p->inst[S->nodes[rd].inst];
        int32_t lat = gen_op_info[ri->op].send ? S->tim[rd].ls : 0;
        if (!push_edge(&S->B, rd, n, lat))
            return false;
    }
    if (d->writer >= 0 && !push_edge(&S->B, (uint32_t)d->writer, n, 1))
        return false;
    d->writer = (int32_t)n;
    d->readers = -1;
    return true;
}

static bool effect_send(const struct gen_inst *i)
{
    /* messages that write memory or end the thread, and scratch reads
     * (ordered after the scratch writes they read) */
    return gen_op_info[i->op].send && (i->dst.kind != GO_VREG || i->eot || i->fill || i->spill ||
                                       (i->sfid != 2 && i->sfid != 0xC && i->sfid != 9));
}

static void flag_range(const struct gen_inst *i, uint32_t *lo, uint32_t *hi)
{
    unsigned e = i->exec ? i->exec : 1;
    *lo = i->flag * 4u + i->group / 8u;
    *hi = i->flag * 4u + (i->group + e + 7u) / 8u;
    if (*hi > RES_FLAGS)
        *hi = RES_FLAGS;
}

static bool build_deps(struct sched *S, uint32_t n, const struct gen_inst *i)
{
    const struct gen_op_info *oi = &gen_op_info[i->op];
    uint32_t f, c, flags0 = S->nres, mem = S->nres + RES_FLAGS;
    /* reads: sources (a send's payload), predicate flags, the destination
     * of a partial write (predicated: the other channels keep it) */
    for (unsigned s = 0; s < 3; s++) {
        if (s >= (oi->send ? (i->op == GOP_SENDS ? 2u : 1u) : oi->nsrc))
            break;
        if (opnd_res(S, i, &i->src[s], s, false, &f, &c))
            for (uint32_t r = f; r < f + c; r++)
                if (!dep_read(S, r, n, false))
                    return false;
    }
    uint32_t lo, hi;
    if (i->pred != GP_NONE) {
        flag_range(i, &lo, &hi);
        for (uint32_t r = lo; r < hi; r++)
            if (!dep_read(S, flags0 + r, n, true))
                return false;
    }
    if (effect_send(i) && !dep_write(S, mem, n))
        return false;
    /* writes */
    if ((oi->has_dst || oi->send) && i->dst.kind == GO_VREG &&
        opnd_res(S, i, &i->dst, 0, true, &f, &c))
        for (uint32_t r = f; r < f + c; r++)
            if (!dep_write(S, r, n))
                return false;
    if (gen_cmod_writes_flag(i)) {
        flag_range(i, &lo, &hi);
        for (uint32_t r = lo; r < hi; r++)
            if (!dep_write(S, flags0 + r, n))
                return false;
    }
    return true;
}

/* Binary heaps of node indices: by ready cycle (earliest first), or by
 * priority (highest first); the program order breaks ties. */
struct heap {
    uint32_t *a;
    uint32_t n;
};

static bool heap_less(const struct node *nodes, uint32_t x, uint32_t y, bool by_prio)
{
    const struct node *a = &nodes[x], *b = &nodes[y];
    if (by_prio) {
        if (a->prio != b->prio)
            return a->prio > b->prio;
    } else if (a->ready != b->ready) {
        return a->ready < b->ready;
    }
    return x < y;
}

static void heap_push(struct heap *h, const struct node *nodes, uint32_t x, bool by_prio)
{
    uint32_t i = h->n++;
    h->a[i] = x;
    while (i && heap_less(nodes, h->a[i], h->a[(i - 1) / 2], by_prio)) {
        uint32_t t = h->a[i];
        h->a[i] = h->a[(i - 1) / 2];
        h->a[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static uint32_t heap_pop(struct heap *h, const struct node *nodes, bool by_prio)
{
    uint32_t top = h->a[0];
    h->a[0] = h->a[--h->n];
    for (uint32_t i = 0;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && heap_less(nodes, h->a[l], h->a[m], by_prio))
            m = l;
        if (r < h->n && heap_less(nodes, h->a[r], h->a[m], by_prio))
            m = r;
        if (m == i)
            break;
        uint32_t t = h->a[i];
        h->a[i] = h->a[m];
        h->a[m] = t;
        i = m;
    }
    return top;
}

/* Schedules instructions [b, e) of p (one basic block). */
static bool schedule_block(struct sched *S, struct gen_program *p, uint32_t b, uint32_t e,
                           struct gen_inst *tmp)
{
    uint32_t n = e - b;
    if (n < 2)
        return true;
    S->stamp++;
    S->B.nedges = 0;
    S->B.npool = 0;
    for (uint32_t k = 0; k < n; k++) {
        const struct gen_inst *i = &p->inst[b + k];
        struct node *nd = &S->nodes[k];
        memset(nd, 0, sizeof(*nd));
        nd->inst = b + k;
        unsigned exec = i->exec == 32 && !gen_op_info[i->op].send ? 16 : i->exec;
        gen_timing(i, exec, S->post && gen_bank_conflict(p, i), &S->tim[k]);
        if (i->exec == 32 && !gen_op_info[i->op].send)
            S->tim[k].df = (int16_t)(2 * S->tim[k].df); /* two halves */
        nd->unit = S->tim[k].unit;
        nd->df = S->tim[k].df;
        nd->db = S->tim[k].db;
    }
    for (uint32_t k = 0; k < n; k++)
        if (!build_deps(S, k, &p->inst[b + k]))
            return false;
    /* successor lists: edges sorted by source */
    uint32_t ne = S->B.nedges;
    uint32_t *order = malloc((n + 1) * sizeof(*order));
    struct edge *sorted = malloc((ne + 1) * sizeof(*sorted));
    if (!order || !sorted) {
        free(order);
        free(sorted);
        return false;
    }
    /* counting sort by source node */
    uint32_t *cnt = calloc(n + 1, sizeof(*cnt));
    if (!cnt) {
        free(order);
        free(sorted);
        return false;
    }
    for (uint32_t k = 0; k < ne; k++)
        cnt[S->B.efrom[k] + 1]++;
    for (uint32_t k = 0; k < n; k++)
        cnt[k + 1] += cnt[k];
    for (uint32_t k = 0; k < n; k++) {
        S->nodes[k].succ_start = cnt[k];
        S->nodes[k].nsucc = cnt[k + 1] - cnt[k];
    }
    for (uint32_t k = 0; k < ne; k++) {
        uint32_t f = S->B.efrom[k];
        sorted[cnt[f]++] = S->B.edges[k];
        S->nodes[S->B.edges[k].to].npred++;
    }
    free(cnt);
    /* priorities: the longest path to the block's end (edges go forward) */
    for (uint32_t k = n; k-- > 0;) {
        struct node *nd = &S->nodes[k];
        int64_t best = 0;
        for (uint32_t q = nd->succ_start; q < nd->succ_start + nd->nsucc; q++) {
            int64_t v = sorted[q].lat + S->nodes[sorted[q].to].prio;
            if (v > best)
                best = v;
        }
        nd->prio = best + (nd->df > 0 ? nd->df : 1);
    }
    /* top-down list scheduling: `pending` holds the nodes whose
     * predecessors are all placed, by the cycle they may issue; `avail`
     * those that may issue now, by priority */
    struct heap pend = {order, 0}, avail = {(uint32_t *)S->heap2, 0};
    for (uint32_t k = 0; k < n; k++)
        if (!S->nodes[k].npred)
            heap_push(&pend, S->nodes, k, false);
    int64_t clock = 0, unit_free[GU_COUNT] = {0};
    uint32_t placed = 0;
    bool ok = true;
    while (placed < n) {
        while (pend.n && S->nodes[pend.a[0]].ready <= clock)
            heap_push(&avail, S->nodes, heap_pop(&pend, S->nodes, false), true);
        if (!avail.n) {
            if (!pend.n) {
                ok = false; /* a cycle: never with forward edges */
                break;
            }
            clock = S->nodes[pend.a[0]].ready;
            continue;
        }
        uint32_t pick = heap_pop(&avail, S->nodes, true);
        struct node *nd = &S->nodes[pick];
        int64_t start = clock;
        if (nd->unit != GU_NONE && unit_free[nd->unit] > start)
            start = unit_free[nd->unit];
        clock = start + (nd->df > 0 ? nd->df : 0);
        if (nd->unit != GU_NONE)
            unit_free[nd->unit] = start + nd->db;
        for (uint32_t q = nd->succ_start; q < nd->succ_start + nd->nsucc; q++) {
            struct node *sn = &S->nodes[sorted[q].to];
            int64_t r = start + sorted[q].lat;
            if (r > sn->ready)
                sn->ready = r;
            if (--sn->npred == 0)
                heap_push(&pend, S->nodes, sorted[q].to, false);
        }
        tmp[placed++] = p->inst[nd->inst];
    }
    if (ok)
        memcpy(&p->inst[b], tmp, n * sizeof(*tmp));
    free(order);
    free(sorted);
    return ok;
}

static bool block_end_op(uint8_t op)
{
    return gen_op_info[op].flow || op == GOP_LABEL;
}

static void schedule(struct gen_program *p, bool post)
{
    struct sched S;
    memset(&S, 0, sizeof(S));
    S.p = p;
    S.post = post;
    if (post) {
        S.nres = GEN_NUM_GRFS;
    } else {
        S.base = malloc((p->nvreg + 1) * sizeof(*S.base));
        if (!S.base) {
            p->oom = true;
            return;
        }
        uint32_t r = 0;
        for (uint32_t v = 0; v < p->nvreg; v++) {
            S.base[v] = r;
            uint32_t pieces = (p->vreg[v].size + GEN_GRF_SIZE - 1) / GEN_GRF_SIZE;
            r += pieces ? pieces : 1;
        }
        S.base[p->nvreg] = r;
        S.nres = r;
    }
    S.st = calloc(S.nres + RES_FLAGS + RES_MEM, sizeof(*S.st));
    S.nodes = malloc((p->ninst + 1) * sizeof(*S.nodes));
    S.tim = malloc((p->ninst + 1) * sizeof(*S.tim));
    S.heap2 = malloc((p->ninst + 1) * sizeof(*S.heap2));
    struct gen_inst *tmp = malloc((p->ninst + 1) * sizeof(*tmp));
    bool ok = S.st && S.nodes && S.tim && S.heap2 && tmp;
    for (uint32_t b = 0; ok && b < p->ninst;) {
        if (block_end_op(p->inst[b].op)) {
            b++;
            continue;
        }
        uint32_t e = b;
        while (e < p->ninst && !block_end_op(p->inst[e].op) && !p->inst[e].eot)
            e++;
        /* movs right before control flow stay there (edge moves, loop-carried copies) */
        uint32_t m = e;
        if (e < p->ninst && !p->inst[e].eot)
            while (m > b && p->inst[m - 1].op == GOP_MOV)
                m--;
        ok = schedule_block(&S, p, b, m, tmp);
        b = e < p->ninst && p->inst[e].eot ? e + 1 : e;
    }
    if (!ok)
        p->oom = true;
    free(S.base);
    free(S.st);
    free(S.nodes);
    free(S.tim);
    free(S.heap2);
    free(tmp);
    free(S.B.edges);
    free(S.B.efrom);
    free(S.B.pool);
}

void gen_schedule_pre(struct gen_program *p)
{
    schedule(p, false);
}

void gen_schedule_post(struct gen_program *p)
{
    schedule(p, true);
}
