/*
 * gen/opt_pair.c — at SIMD8, two instructions that do the same thing to
 * neighbouring GRFs are one `(W)` SIMD16 instruction over both.
 *
 * requires: an optimized SIMD8 program before allocation (after
 *           gen/opt_payload.c: payload parts are final)
 * invalidates: vreg names (values renamed into pairs), instruction indices
 *
 * A SIMD8 kernel computes a vector one component per GRF, so the x and y
 * (or z and w) of `mul r0, t2, v0` are two instructions that differ only
 * in their registers.  Gen9 executes a 32-bit operation on 16 channels
 * whose operands span two GRFs (docs/gen9-target.md, regions 5 and 8); at
 * SIMD8, with NoMask, the upper eight channels are just the second GRF.
 * When the operands of the two lie in neighbouring GRFs, one instruction
 * does both: the selector's components become pairs, as Mesa's brw never
 * does (its SIMD8 code keeps one instruction per component).
 *
 * Two instructions i < j pair when they are the same ALU or float math
 * operation (same modifiers; no flag written or read; exec 8, unpredicated,
 * outside control flow: a NoMask write reaches the channels no vertex or
 * pixel runs, which nothing reads there, but inside control flow it would
 * overwrite another path's), in one basic block at most PAIR_SCAN apart,
 * and operand by operand:
 *   - both read the same scalar or immediate;
 *   - both read one SIMD8 value (region <0;8,1>, not for three-source
 *     instructions, whose Align16 regions cannot repeat a GRF);
 *   - both read (or write) GRF-aligned places 32 bytes apart in one vreg
 *     or in the payload (a sampler response, a message block, a pair made
 *     before) or two consecutive pushed dwords (<1;8,0>, Align1 only),
 *     all in the same order;
 *   - both name a whole SIMD8 vreg of their own (no pair yet, not a
 *     block, not a side of a plain copy the allocator would coalesce
 *     away): the two are renamed into the halves of a new 64-byte vreg,
 *     in the order the other operands fix.
 * The SIMD16 instruction takes j's place (nothing in between may write
 * i's sources or touch i's destination, and j may not read i's result)
 * or i's (the same for j, except that an interpolation the selector put
 * between them for j may move up first: payload_only).  A source may
 * share the destination's registers only lane for lane (`add P, P, x`):
 * the hardware runs a SIMD16 instruction as two halves, and the second
 * would read what the first wrote.  Pairs only merge whole values, so the
 * allocator (gen/ra.c) sees a two-GRF value as at SIMD16; where the
 * values together fill more than half the file, two values share a pair
 * only when that keeps neither alive much longer (PAIR_SLACK).
 *
 * Greedy pairing depends on the order it meets instructions in (the head
 * of gen_opt_pair): two orders are tried and the shorter program kept.
 * Each sweep is linear (PAIR_SCAN partners per instruction, each checked
 * over the PAIR_SCAN instructions between); the second order runs only
 * when the first's backward sweep paired something.
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

enum { PAIR_SCAN = 8, PAIR_SLACK = 16 };

/* How the two operands of one slot pair. */
enum pair_kind { PK_FAIL, PK_NONE, PK_SAME, PK_ADJ, PK_SPLAT2, PK_MERGE };

struct pairs {
    unsigned nv;      /* vregs before the pass (only those are renamed) */
    uint32_t *into;   /* per vreg: pair vreg + 1 it was renamed into, 0: none */
    uint8_t *half;    /* its half there: 0 or 1 */
    bool *mergeable;  /* a whole SIMD8 vreg a pair may take */
    uint32_t *first, *last; /* per vreg: its first and last reference */
    bool roomy;       /* the values never fill half the file: lives may grow */
    bool *cand;       /* per instruction: candidate() (kept as instructions move) */
};

/* An operand as it reads now: a renamed vreg's pair and place. */
static struct gen_opnd resolved(const struct pairs *P, struct gen_opnd o)
{
    if (o.kind == GO_VREG && o.vreg < P->nv && P->into[o.vreg]) {
        o.off += P->half[o.vreg] * GEN_GRF_SIZE;
        o.vreg = P->into[o.vreg] - 1;
    }
    return o;
}

static bool three_source(const struct gen_inst *i)
{
    return gen_op_info[i->op].nsrc == 3;
}

/* An instruction that may be one half of a pair (the head comment). */
static bool candidate(const struct gen_program *p, const struct gen_inst *i)
{
    switch (i->op) {
    case GOP_MOV: case GOP_ADD: case GOP_MUL: case GOP_AND: case GOP_OR: case GOP_XOR:
    case GOP_NOT: case GOP_SHL: case GOP_SHR: case GOP_ASR: case GOP_FRC: case GOP_RNDD:
    case GOP_RNDE: case GOP_RNDZ: case GOP_MAD: case GOP_LRP:
        if (i->cmod)
            return false;
        break;
    case GOP_SEL: case GOP_CSEL:
        if (!i->cmod) /* (a predicated sel reads the flag) */
            return false;
        break;
    case GOP_MATH:
        if (i->math == GM_FDIV || i->cmod || i->dst.type != GT_F)
            return false;
        break;
    default:
        return false;
    }
    if (i->exec != 8 || i->group || i->nomask || i->pred != GP_NONE || i->dst.kind != GO_VREG ||
        gen_type_size(i->dst.type) != 4 || p->vreg[i->dst.vreg].uniform)
        return false;
    for (unsigned s = 0; s < 3; s++) {
        const struct gen_opnd *o = &i->src[s];
        if (o->kind == GO_NONE)
            continue;
        if (o->kind == GO_NULL || gen_type_size(o->type) != 4 || o->type == GT_VF)
            return false;
        if (o->region != GR_AUTO && o->region != GR_VEC && o->region != GR_SCALAR)
            return false;
    }
    return true;
}

/* Whole SIMD8 vregs of their own, not a side of a plain copy between two
 * such vregs (the allocator coalesces those; a pair would keep the mov),
 * nor read as a whole by an indirect or broadcast reader. */
static void find_mergeable(const struct gen_program *p, bool *ok)
{
    for (unsigned v = 0; v < p->nvreg; v++) {
        const struct gen_vreg *r = &p->vreg[v];
        ok[v] = !r->uniform && !r->no_spill && r->size == GEN_GRF_SIZE && !r->alias_of &&
                r->spill_slot < 0 && !r->rematerialized && !r->half32 && r->grf_lo == 0 &&
                r->grf_hi == GEN_NUM_GRFS - 1;
    }
    for (unsigned k = 0; k < p->ninst; k++) {
        const struct gen_inst *i = &p->inst[k];
        const struct gen_opnd *d = &i->dst, *s = &i->src[0];
        if (i->op == GOP_MOV && d->kind == GO_VREG && s->kind == GO_VREG &&
            p->vreg[d->vreg].size == GEN_GRF_SIZE && p->vreg[s->vreg].size == GEN_GRF_SIZE)
            ok[d->vreg] = ok[s->vreg] = false;
        if (i->op == GOP_MOVI || i->op == GOP_BCAST)
            for (unsigned q = 0; q < 3; q++)
                if (i->src[q].kind == GO_VREG)
                    ok[i->src[q].vreg] = false;
    }
}

/* The first and last reference of every vreg (linear order), and whether
 * the GRFs they need together stay within half the file (`roomy`);
 * false when memory runs out. */
static bool live_ranges(const struct gen_program *p, struct pairs *P)
{
    memset(P->first, 0xff, p->nvreg * sizeof(uint32_t));
    for (uint32_t k = 0; k < p->ninst; k++) {
        const struct gen_inst *i = &p->inst[k];
        const struct gen_opnd *ops[4] = {&i->dst, &i->src[0], &i->src[1], &i->src[2]};
        for (unsigned s = 0; s < 4; s++)
            if (ops[s]->kind == GO_VREG) {
                uint32_t v = ops[s]->vreg;
                P->first[v] = k < P->first[v] ? k : P->first[v];
                P->last[v] = k;
            }
    }
    int64_t *delta = calloc(p->ninst + 1, sizeof(*delta)); /* bytes starting/ending at k */
    if (!delta)
        return false;
    for (uint32_t v = 0; v < p->nvreg; v++)
        if (P->first[v] <= P->last[v]) {
            delta[P->first[v]] += p->vreg[v].size;
            delta[P->last[v] + 1] -= p->vreg[v].size;
        }
    int64_t live = 0, most = 0;
    for (uint32_t k = 0; k < p->ninst; k++) {
        live += delta[k];
        most = live > most ? live : most;
    }
    free(delta);
    P->roomy = most <= GEN_FILE_BYTES / 2;
    return true;
}

/* One slot's pairing.  `order`: 0 undecided, 1 i's operand is the lower
 * half, 2 j's is. */
static enum pair_kind slot_kind(const struct gen_program *p, const struct pairs *P,
                                const struct gen_inst *i, const struct gen_opnd *a0,
                                const struct gen_opnd *c0, bool dst, int *order)
{
    if (a0->kind == GO_NONE && c0->kind == GO_NONE)
        return PK_NONE;
    if (a0->kind != c0->kind || a0->type != c0->type || a0->neg != c0->neg ||
        a0->abs != c0->abs || a0->region != c0->region)
        return PK_FAIL;
    struct gen_opnd a = resolved(P, *a0), c = resolved(P, *c0);
    bool vec = gen_src_per_channel(p, &a);
    int want = 0;
    if (!dst && gen_opnd_same(&a, &c))
        return vec && three_source(i) ? PK_FAIL : PK_SAME;
    if (vec && (a.kind == GO_FIXED || a.vreg == c.vreg) && a.off % GEN_GRF_SIZE == 0 &&
        c.off % GEN_GRF_SIZE == 0) {
        int64_t d = (int64_t)c.off - a.off;
        want = d == GEN_GRF_SIZE ? 1 : d == -GEN_GRF_SIZE ? 2 : 0;
        if (!want)
            return PK_FAIL;
    } else if (!vec && a.kind == GO_FIXED && a.region == GR_SCALAR && !three_source(i)) {
        int64_t d = (int64_t)c.off - a.off;
        want = d == 4 ? 1 : d == -4 ? 2 : 0;
        if (!want)
            return PK_FAIL;
    } else if (vec && a.kind == GO_VREG && a0->vreg != c0->vreg && a0->vreg < P->nv &&
               c0->vreg < P->nv && P->mergeable[a0->vreg] && P->mergeable[c0->vreg] &&
               !P->into[a0->vreg] && !P->into[c0->vreg] && !a0->off && !c0->off) {
        return PK_MERGE;
    } else {
        return PK_FAIL;
    }
    if (*order && *order != want)
        return PK_FAIL;
    *order = want;
    return vec ? PK_ADJ : PK_SPLAT2;
}

/* The bytes [lo, hi) of vreg v an operand reads or writes (resolved). */
static bool overlaps(const struct gen_program *p, const struct gen_inst *i, unsigned s,
                     const struct gen_opnd *o, uint32_t v, uint32_t lo, uint32_t hi)
{
    if (o->kind != GO_VREG || o->vreg != v)
        return false;
    uint32_t n = s == 3 ? gen_dst_bytes(p, i) : gen_src_bytes(p, i, s);
    return o->off < hi && lo < o->off + n;
}

/* Instruction n (resolved) reads or writes bytes [lo, hi) of v: `reads`
 * counts its sources, `writes` its destination. */
static bool refers(const struct gen_program *p, const struct pairs *P, const struct gen_inst *n,
                   uint32_t v, uint32_t lo, uint32_t hi, bool reads, bool writes)
{
    if (writes && gen_op_info[n->op].has_dst) {
        struct gen_opnd d = resolved(P, n->dst);
        if (overlaps(p, n, 3, &d, v, lo, hi))
            return true;
    }
    for (unsigned s = 0; s < 3 && reads; s++) {
        struct gen_opnd o = resolved(P, n->src[s]);
        if (overlaps(p, n, s, &o, v, lo, hi))
            return true;
    }
    return false;
}

/* An instruction that reads the thread payload and immediates alone (an
 * interpolation, pln) and writes a whole vreg: it may run earlier, where
 * its destination is not yet referenced. */
static bool payload_only(const struct gen_program *p, const struct gen_inst *n)
{
    if (gen_op_info[n->op].flow || gen_op_info[n->op].send || n->pred != GP_NONE || n->cmod ||
        n->nomask || n->dst.kind != GO_VREG || n->exec != p->simd || n->group)
        return false;
    for (unsigned s = 0; s < 3; s++)
        if (n->src[s].kind != GO_NONE && n->src[s].kind != GO_FIXED && n->src[s].kind != GO_IMM)
            return false;
    return n->op != GOP_MOVI && n->op != GOP_BCAST;
}

enum { MAX_HOIST = 3 };

struct move {
    uint32_t at;              /* where the SIMD16 instruction goes */
    uint32_t hoist[MAX_HOIST]; /* payload reads to run first, before `at` */
    unsigned nhoist;
};

/* The instruction at `from` may run at `to` instead (the other one of a
 * pair, in the same basic block): nothing in between writes its sources
 * or touches its destination, and the later of the two does not read the
 * earlier one's result.  Moving up, a source written in between by a
 * payload read (a pln the selector placed next to its use) is fine when
 * that read can go first: M->hoist. */
static bool movable(const struct gen_program *p, const struct pairs *P, const bool *dead,
                    uint32_t from, uint32_t to, struct move *M)
{
    const struct gen_inst *m = &p->inst[from];
    uint32_t early = from < to ? from : to, late = from < to ? to : from;
    const struct gen_inst *e = &p->inst[early];
    struct gen_opnd d = resolved(P, m->dst), ed = resolved(P, e->dst);
    M->at = to;
    M->nhoist = 0;
    if (refers(p, P, &p->inst[late], ed.vreg, ed.off, ed.off + gen_dst_bytes(p, e), true, false))
        return false;
    uint32_t dlo = d.off, dhi = d.off + gen_dst_bytes(p, m);
    for (uint32_t k = early + 1; k < late; k++) {
        const struct gen_inst *n = &p->inst[k];
        if (dead[k]) /* (its work is done elsewhere, outside this range) */
            continue;
        if (refers(p, P, n, d.vreg, dlo, dhi, true, true))
            return false;
        for (unsigned s = 0; s < 3; s++) {
            struct gen_opnd o = resolved(P, m->src[s]);
            if (o.kind != GO_VREG ||
                !refers(p, P, n, o.vreg, o.off, o.off + gen_src_bytes(p, m, s), false, true))
                continue;
            if (from < to || M->nhoist == MAX_HOIST || !payload_only(p, n))
                return false;
            /* n's destination untouched from `to` to n (to included) */
            struct gen_opnd nd = resolved(P, n->dst);
            uint32_t nlo = nd.off, nhi = nd.off + gen_dst_bytes(p, n);
            for (uint32_t q = to; q < k; q++)
                if (!dead[q] && refers(p, P, &p->inst[q], nd.vreg, nlo, nhi, true, true))
                    return false;
            M->hoist[M->nhoist++] = k;
            break;
        }
    }
    return true;
}

/* Runs the instructions M->hoist (ascending) right before M->at, in their
 * order; M->at moves down by as many. */
static void hoist(struct gen_program *p, struct pairs *P, bool *dead, struct move *M)
{
    for (unsigned h = 0; h < M->nhoist; h++) {
        uint32_t k = M->hoist[h], to = M->at + h;
        struct gen_inst t = p->inst[k];
        bool dk = dead[k];
        memmove(&p->inst[to + 1], &p->inst[to], (k - to) * sizeof(*p->inst));
        memmove(&dead[to + 1], &dead[to], (k - to) * sizeof(*dead));
        memmove(&P->cand[to + 1], &P->cand[to], (k - to) * sizeof(*P->cand));
        P->cand[to] = false; /* (a payload read) */
        p->inst[to] = t;
        dead[to] = dk;
    }
    M->at += M->nhoist;
}

/* The vregs slot by slot renamed into new pairs: at most one pair per
 * vreg, each vreg on one side (i's or j's). */
static bool merges_agree(const uint32_t (*mg)[2], unsigned n)
{
    for (unsigned x = 0; x < n; x++)
        for (unsigned y = 0; y < n; y++) {
            bool same0 = mg[x][0] == mg[y][0], same1 = mg[x][1] == mg[y][1];
            if (same0 != same1 || mg[x][0] == mg[y][1])
                return false;
        }
    return true;
}

/* Two values may share a pair when that keeps neither much longer alive
 * than it was: a pair is one allocation unit, live from the first
 * reference of either to the last. */
static bool close_lives(const struct pairs *P, uint32_t a, uint32_t b)
{
    uint32_t lo = P->first[a] < P->first[b] ? P->first[a] : P->first[b];
    uint32_t hi = P->last[a] > P->last[b] ? P->last[a] : P->last[b];
    uint64_t grown = 2ull * (hi - lo) - (P->last[a] - P->first[a]) - (P->last[b] - P->first[b]);
    return P->roomy || grown <= PAIR_SLACK;
}

/* Tries i with j: the position the SIMD16 instruction took (j, else i:
 * the other one goes), or -1. */
static int64_t try_pair(struct gen_program *p, struct pairs *P, bool *dead, uint32_t i,
                        uint32_t j)
{
    const struct gen_inst *m = &p->inst[i], *n = &p->inst[j];
    if (n->op != m->op || n->math != m->math || n->cmod != m->cmod || n->sat != m->sat ||
        !P->cand[i] || !P->cand[j])
        return -1;
    const struct gen_opnd *ma[4] = {&m->src[0], &m->src[1], &m->src[2], &m->dst};
    const struct gen_opnd *na[4] = {&n->src[0], &n->src[1], &n->src[2], &n->dst};
    enum pair_kind kind[4];
    uint32_t mg[4][2];
    unsigned nmg = 0;
    int order = 0;
    for (unsigned s = 0; s < 4; s++) {
        kind[s] = slot_kind(p, P, m, ma[s], na[s], s == 3, &order);
        if (kind[s] == PK_FAIL)
            return -1;
        if (kind[s] == PK_MERGE) {
            mg[nmg][0] = ma[s]->vreg;
            mg[nmg++][1] = na[s]->vreg;
        }
    }
    if (!merges_agree((const uint32_t (*)[2])mg, nmg))
        return -1;
    for (unsigned y = 0; y < nmg; y++)
        if (!close_lives(P, mg[y][0], mg[y][1]))
            return -1;
    struct move M;
    if (!movable(p, P, dead, i, j, &M) && !movable(p, P, dead, j, i, &M))
        return -1;
    bool j_low = order == 2;
    /* the new pairs (a vreg merged twice is one pair) */
    uint32_t pv[4];
    for (unsigned x = 0; x < nmg; x++) {
        pv[x] = UINT32_MAX;
        for (unsigned y = 0; y < x; y++)
            if (mg[y][0] == mg[x][0])
                pv[x] = pv[y];
        if (pv[x] == UINT32_MAX) {
            pv[x] = gen_new_vreg(p, 2 * GEN_GRF_SIZE, false);
            if (p->oom)
                return -1;
        }
    }
    /* the SIMD16 instruction, operands as they read after the renaming */
    struct gen_inst w = p->inst[j_low ? j : i];
    const struct gen_opnd *const *lowa = j_low ? na : ma;
    struct gen_opnd *wo[4] = {&w.src[0], &w.src[1], &w.src[2], &w.dst};
    unsigned x = 0;
    for (unsigned s = 0; s < 4; s++) {
        if (kind[s] == PK_NONE)
            continue;
        *wo[s] = resolved(P, *lowa[s]);
        if (kind[s] == PK_MERGE) {
            wo[s]->vreg = pv[x++];
            wo[s]->off = 0;
        } else if (kind[s] == PK_SAME && gen_src_per_channel(p, wo[s])) {
            wo[s]->region = GR_REP8;
        } else if (kind[s] == PK_SPLAT2) {
            wo[s]->region = GR_SPLAT2;
        }
    }
    w.exec = 16;
    w.nomask = true;
    for (unsigned y = 0; y < nmg; y++) {
        P->into[mg[y][0]] = pv[y] + 1;
        P->into[mg[y][1]] = pv[y] + 1;
        P->half[mg[y][0]] = j_low;
        P->half[mg[y][1]] = !j_low;
    }
    /* a source in the destination's registers only lane for lane (names
     * as they read with the new pairs) */
    struct gen_opnd wd = resolved(P, w.dst);
    for (unsigned s = 0; s < 3; s++) {
        struct gen_opnd o = resolved(P, *wo[s]);
        if (o.kind == GO_VREG && o.vreg == wd.vreg &&
            overlaps(p, &w, s, &o, wd.vreg, wd.off, wd.off + 2 * GEN_GRF_SIZE) &&
            !(o.off == wd.off && o.region != GR_REP8 && kind[s] != PK_SAME)) {
            for (unsigned y = 0; y < nmg; y++)
                P->into[mg[y][0]] = P->into[mg[y][1]] = 0;
            return -1; /* (the new vregs stay unreferenced) */
        }
    }
    hoist(p, P, dead, &M);
    p->inst[M.at] = w;
    P->cand[M.at] = false;
    return M.at;
}

/* The destinations of two instructions could pair (slot_kind's test, the
 * cheap part): 32 bytes apart in one vreg, or two whole vregs free to
 * merge. */
static bool dsts_may_pair(const struct pairs *P, const struct gen_inst *m, const struct gen_inst *n)
{
    if (m->dst.type != n->dst.type || (m->dst.vreg == n->dst.vreg && m->dst.off == n->dst.off))
        return false;
    struct gen_opnd a = resolved(P, m->dst), c = resolved(P, n->dst);
    if (a.vreg == c.vreg)
        return a.off + GEN_GRF_SIZE == c.off || c.off + GEN_GRF_SIZE == a.off;
    uint32_t x = m->dst.vreg, y = n->dst.vreg;
    return x < P->nv && y < P->nv && P->mergeable[x] && P->mergeable[y] && !P->into[x] &&
           !P->into[y];
}

/* One sweep over the program: each instruction outside control flow
 * with the nearest partner that pairs, among the PAIR_SCAN before it
 * (`backward`, visiting last to first) or after it. */
static bool sweep(struct gen_program *p, struct pairs *P, bool *dead, const bool *nested,
                  bool backward)
{
    bool changed = false;
    for (uint32_t x = 0; x < p->ninst && !p->oom; x++) {
        uint32_t a = backward ? p->ninst - 1 - x : x;
        if (nested[a] || dead[a] || !P->cand[a])
            continue;
        for (uint32_t d = 1; d <= PAIR_SCAN && (backward ? d <= a : a + d < p->ninst); d++) {
            uint32_t b = backward ? a - d : a + d;
            if (gen_op_info[p->inst[b].op].flow)
                break;
            const struct gen_inst *o = &p->inst[b];
            if (dead[b] || o->op != p->inst[a].op || o->exec != 8 || o->nomask ||
                !dsts_may_pair(P, &p->inst[a], o))
                continue; /* (the cheap part of try_pair's checks first) */
            uint32_t i = backward ? b : a, j = backward ? a : b;
            int64_t at = try_pair(p, P, dead, i, j);
            if (at >= 0) {
                /* the other one: i (the pair took j's place), or j (it
                 * took i's, after the payload reads hoisted before it) */
                dead[(uint32_t)at == j ? i : j] = true;
                changed = true;
                break;
            }
        }
    }
    return changed;
}

/* One pairing of the program: first last to first then first to last
 * (`consumers_first`; *backward_paired: the first sweep paired some), or
 * first to last alone. */
static bool pair_once(struct gen_program *p, bool consumers_first, bool *backward_paired)
{
    unsigned nv = p->nvreg;
    struct pairs P = {.nv = nv,
                      .into = calloc(nv + 1, sizeof(uint32_t)),
                      .half = calloc(nv + 1, 1),
                      .mergeable = calloc(nv + 1, sizeof(bool)),
                      .first = malloc((nv + 1) * sizeof(uint32_t)),
                      .last = calloc(nv + 1, sizeof(uint32_t))};
    bool *dead = calloc(p->ninst + 1, sizeof(bool));
    bool *nested = malloc((p->ninst + 1) * sizeof(bool));
    P.cand = malloc((p->ninst + 1) * sizeof(bool));
    bool changed = false;
    if (!P.into || !P.half || !P.mergeable || !P.first || !P.last || !dead || !nested ||
        !P.cand) {
        p->oom = true;
        goto out;
    }
    find_mergeable(p, P.mergeable);
    if (!live_ranges(p, &P)) {
        p->oom = true;
        goto out;
    }
    /* outside control flow: depth 0 (LABEL opens a loop) */
    unsigned depth = 0;
    for (uint32_t k = 0; k < p->ninst; k++) {
        const struct gen_inst *m = &p->inst[k];
        depth = gen_nesting(depth, m);
        nested[k] = depth != 0;
        P.cand[k] = candidate(p, m);
    }
    changed = consumers_first && sweep(p, &P, dead, nested, true);
    if (backward_paired)
        *backward_paired = changed;
    if (!p->oom && sweep(p, &P, dead, nested, false))
        changed = true;
    if (changed && !p->oom) {
        for (unsigned k = 0; k < p->ninst; k++) {
            struct gen_inst *in = &p->inst[k];
            struct gen_opnd *ops[4] = {&in->dst, &in->src[0], &in->src[1], &in->src[2]};
            for (unsigned s = 0; s < 4; s++)
                *ops[s] = resolved(&P, *ops[s]);
        }
        gen_remove_marked(p, dead);
    }
out:
    free(P.into);
    free(P.half);
    free(P.mergeable);
    free(P.first);
    free(P.last);
    free(dead);
    free(nested);
    free(P.cand);
    return changed;
}

/*
 * Greedy pairing depends on the order it meets the instructions in.
 * Last to first, a pair's consumers pair first, so the values a consumer
 * pair merges reach their producers with the order fixed (the x and y of
 * a colour in the order its payload takes them); first to last, a
 * producer pair fixes the order for its consumers, which suits a
 * three-component vector computed and then reduced.  Both are tried
 * (each linear) and the shorter program is kept.
 */
bool gen_opt_pair(struct gen_program *p)
{
    if (p->simd != 8 || !p->ninst)
        return false;
    unsigned n0 = p->ninst, nv0 = p->nvreg;
    struct gen_inst *orig = malloc(n0 * sizeof(*orig));
    if (!orig) {
        p->oom = true;
        return false;
    }
    memcpy(orig, p->inst, n0 * sizeof(*orig));
    bool backward = false, changed = pair_once(p, true, &backward);
    unsigned na = p->ninst, nva = p->nvreg;
    /* (when the backward sweep paired nothing, the forward one alone did
     * what the other order would) */
    struct gen_inst *a = backward && !p->oom ? malloc(na * sizeof(*a)) : NULL;
    struct gen_vreg *va = a ? malloc((nva - nv0 + 1) * sizeof(*va)) : NULL;
    if (!p->oom && backward && (!a || !va))
        p->oom = true;
    if (a && va) {
        memcpy(a, p->inst, na * sizeof(*a));
        memcpy(va, p->vreg + nv0, (nva - nv0) * sizeof(*va));
        /* the other order, from the program as it was */
        memcpy(p->inst, orig, n0 * sizeof(*orig));
        p->ninst = n0;
        p->nvreg = nv0;
        bool other = pair_once(p, false, NULL);
        if (!p->oom && (!other || na < p->ninst)) {
            /* (the vreg array never shrinks: va fits where it was) */
            memcpy(p->inst, a, na * sizeof(*a));
            p->ninst = na;
            memcpy(p->vreg + nv0, va, (nva - nv0) * sizeof(*va));
            p->nvreg = nva;
        }
    }
    free(a);
    free(va);
    free(orig);
    return changed;
}
