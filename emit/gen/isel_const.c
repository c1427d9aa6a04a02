/*
 * gen/isel_const.c — relative constant reads: where the constants are and
 * how the index reaches them (docs/gen-backend.md "Relative constant
 * reads", docs/gen-abi.md for the layout).
 *
 * The reads through one address in one straight-line stretch (the rows of
 * an m4x3, c10[aL] and c[aL + 11] of one loop body) form a group: vectors
 * kmin .. kmin + span - 1 after the index, read once.  Where they are was
 * settled by the layout (gen/kernel.c): in the pushed constants (a loop's
 * aL over literal counts: every vector it reaches), in a pushed block of
 * their own with zero vectors around it (a range the index cannot be
 * bounded in, when it fits and pays), or only in the constant buffer
 * (such a range also bound as a view of the buffer holding it alone).
 * How they are read then depends on whether the index is one value for
 * the thread:
 *
 *   pushed, uniform index   one mov through a0 per two vectors (Vx1)
 *   pushed, index per lane  a0.0-a0.15 from the indices, one mov per
 *                           component (VxH), or a gather from the
 *                           buffer when that issues in fewer cycles
 *   pulled, uniform index   one OWord block read of the vectors
 *   pulled, index per lane  an untyped read per vector (a gather), or a
 *                           waterfall loop: the index of the first live
 *                           channel, one block read for it, the channels
 *                           with that index served and retired, again
 *                           until none is left; chosen when its estimated
 *                           cost (the expected number of distinct
 *                           indices times one block read) is lower
 *
 * An index that can leave the range reads zeros, as the interpreter gives:
 * clamped into the pads of a pushed block or of the constant buffer, or
 * checked, only where the range is not known.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isel_const.h"

enum {
    LOOKAHEAD = 64,  /* instructions looked at for reads to group: keeps it linear */
    MAX_SPAN = 8,    /* vectors of one group: an 8-OWord block read, a0 offsets */
    UNKNOWN = 1000,  /* distinct indices: as many as channels */
    MAX_VISIT = 64,  /* writers looked at to bound the distinct indices */
};

struct relc_ent {
    uint32_t vreg, count, seg;
    int32_t first, k;
    uint8_t lane, elems;
    struct gen_opnd v[4];
};

enum storage { IN_MAIN, IN_BLOCK, PULLED };

struct group {
    const struct mir_src *s;
    int32_t kmin;
    unsigned span, nreads;
    unsigned nall;           /* distinct vectors read through the address in the stretch */
    uint8_t comps[MAX_SPAN]; /* per vector kmin + v: the components read */
};

/* A gather's byte address of vector 0 through one index (gather()). */
struct relc_base {
    uint32_t vreg, seg;
    uint8_t lane;
    bool clamped;
    struct gen_opnd bytes;
    int32_t bias;
};

/* ------------------------------------------------------------------ */
/* Set-up.                                                             */

bool gen_relc_init(struct gen_relc *R, struct gen_kernel_info *ki, struct gen_relc_hooks h)
{
    memset(R, 0, sizeof(*R));
    R->ki = ki;
    R->h = h;
    const struct mir_prog *m = ki->mir;
    R->loop_depth = calloc(2 * ((size_t)m->n + 1), 1);
    if (!R->loop_depth)
        return false;
    /* loops (first half) and any flow (second half) around each instruction */
    uint8_t *flow_depth = R->loop_depth + m->n + 1;
    unsigned loops = 0, flows = 0;
    for (unsigned i = 0; i < m->n; i++) {
        unsigned op = m->ins[i].op;
        if (m->ins[i].dead)
            continue;
        if (op == ST_OP_ENDREP || op == ST_OP_ENDLOOP)
            loops -= loops > 0;
        if (op == ST_OP_ENDREP || op == ST_OP_ENDLOOP || op == ST_OP_ENDIF)
            flows -= flows > 0;
        R->loop_depth[i] = (uint8_t)(loops > 255 ? 255 : loops);
        flow_depth[i] = (uint8_t)(flows > 255 ? 255 : flows);
        if (op == ST_OP_REP || op == ST_OP_LOOP)
            loops++;
        if (op == ST_OP_REP || op == ST_OP_LOOP || op == ST_OP_IF || op == ST_OP_IFC)
            flows++;
    }
    return true;
}

void gen_relc_free(struct gen_relc *R)
{
    free(R->loop_depth);
    free(R->ent);
    free(R->wstart);
    free(R->wins);
    free(R->base);
    memset(R, 0, sizeof(*R));
}

static bool same_key(const struct mir_src *a, const struct mir_src *b)
{
    return a->kind == MIR_FIXED && a->rel && a->file == ST_REG_CONST && a->rel_vreg == b->rel_vreg &&
           a->rel_lane == b->rel_lane && a->rel_first == b->rel_first &&
           a->rel_count == b->rel_count;
}

/* Vectors in the constant buffer (docs/gen-abi.md), between its pads. */
static uint32_t buffer_vectors(const struct gen_kernel_info *ki)
{
    return ki->p->layout.cbuf_vectors;
}

/* ------------------------------------------------------------------ */
/* How many distinct indices the channels may hold.                    */

static bool build_writers(struct gen_relc *R)
{
    const struct mir_prog *m = R->ki->mir;
    size_t nl = (size_t)m->nvregs * 4;
    R->wstart = calloc(nl + 2, sizeof(uint32_t));
    if (!R->wstart)
        return false;
    for (unsigned i = 0; i < m->n; i++) {
        const struct mir_instr *in = &m->ins[i];
        if (in->dead || !in->has_dst || in->dst.kind != MIR_VREG || in->dst.vreg >= m->nvregs)
            continue;
        for (unsigned l = 0; l < 4; l++)
            if (in->dst.mask >> l & 1)
                R->wstart[(size_t)in->dst.vreg * 4 + l + 1]++;
    }
    for (size_t k = 0; k < nl; k++)
        R->wstart[k + 1] += R->wstart[k];
    R->wins = malloc(sizeof(uint32_t) * (R->wstart[nl] + 1));
    uint32_t *fill = malloc(sizeof(uint32_t) * (nl + 1));
    if (!R->wins || !fill) {
        free(fill);
        return false;
    }
    memcpy(fill, R->wstart, sizeof(uint32_t) * (nl + 1));
    for (unsigned i = 0; i < m->n; i++) {
        const struct mir_instr *in = &m->ins[i];
        if (in->dead || !in->has_dst || in->dst.kind != MIR_VREG || in->dst.vreg >= m->nvregs)
            continue;
        for (unsigned l = 0; l < 4; l++)
            if (in->dst.mask >> l & 1)
                R->wins[fill[(size_t)in->dst.vreg * 4 + l]++] = i;
    }
    free(fill);
    R->writers_built = true;
    return true;
}

static unsigned distinct(struct gen_relc *R, uint32_t v, unsigned l, unsigned depth,
                         unsigned *visits);

/* Distinct values lane l of `in` can write: a copy or an address
 * conversion has no more than its source. */
static unsigned distinct_written(struct gen_relc *R, const struct mir_instr *in, unsigned l,
                                 unsigned depth, unsigned *visits)
{
    if (in->uniform)
        return 1;
    unsigned k = 0;
    switch (in->op) {
    case MIR_OP_MERGE:
        while (k < in->nsrc && !(in->lanes[k] >> l & 1))
            k++;
        break;
    case ST_OP_MOV: case ST_OP_MOVA:
        break;
    case ST_OP_ARB_ARL:
        l = 0;
        break;
    default:
        return UNKNOWN;
    }
    if (k >= in->nsrc)
        return UNKNOWN;
    const struct mir_src *s = &in->src[k];
    if (s->kind == MIR_IMM)
        return 1;
    if (s->kind == MIR_FIXED && !s->rel &&
        (s->file == ST_REG_CONST || s->file == ST_REG_CONSTINT || s->file == ST_REG_CONSTBOOL))
        return 1;
    if (s->kind != MIR_VREG)
        return UNKNOWN;
    return distinct(R, s->vreg, ST_SWZ_LANE(s->swz, l), depth + 1, visits);
}

/*
 * Does every path from the start to the end of the writers' stretch pass
 * through an unpredicated writer of lane l of v?  The structured flow
 * between the outermost constructs holding the first and the last writer
 * (none of them in a loop), an if counting when both its arms do.  Looked
 * at for stretches of up to SURE_SPAN instructions (else: maybe not).
 */
enum { SURE_SPAN = 4096 };

static bool surely_written(const struct gen_relc *R, uint32_t v, unsigned l, uint32_t lo,
                           uint32_t hi)
{
    const struct mir_prog *m = R->ki->mir;
    const uint8_t *flow_depth = R->loop_depth + m->n + 1;
    while (lo > 0 && flow_depth[lo])
        lo--; /* the outermost construct's opening */
    if (hi - lo > SURE_SPAN)
        return false;
    struct frame {
        bool then_w, else_w, in_else, loop;
    } st[64];
    unsigned sp = 0;
    bool sure = false;
    for (uint32_t i = lo; i < m->n && (i <= hi || sp); i++) {
        const struct mir_instr *in = &m->ins[i];
        if (in->dead)
            continue;
        bool w = false;
        switch (in->op) {
        case ST_OP_IF: case ST_OP_IFC: case ST_OP_REP: case ST_OP_LOOP:
            if (sp == 64)
                return false;
            st[sp++] = (struct frame){false, false, false, in->op == ST_OP_REP || in->op == ST_OP_LOOP};
            continue;
        case ST_OP_ELSE:
            if (sp)
                st[sp - 1].in_else = true;
            continue;
        case ST_OP_ENDIF: case ST_OP_ENDREP: case ST_OP_ENDLOOP:
            if (!sp)
                return false;
            sp--;
            w = !st[sp].loop && st[sp].then_w && st[sp].else_w;
            break;
        default:
            w = in->has_dst && !in->predicated && in->dst.kind == MIR_VREG && in->dst.vreg == v &&
                (in->dst.mask >> l & 1);
            break;
        }
        if (!w)
            continue;
        if (!sp)
            sure = true;
        else if (!st[sp - 1].loop)
            *(st[sp - 1].in_else ? &st[sp - 1].else_w : &st[sp - 1].then_w) = true;
    }
    return sure;
}

/*
 * An upper bound of the distinct values lane l of vreg v holds across the
 * channels, UNKNOWN when there is none we can tell: each writer outside
 * any loop that writes one value for the thread (passes/' uniformity)
 * adds one, a copy adds what its source holds, and when no writer surely
 * runs the lane's starting 0 adds one.  A uniform lane holds one value.
 */
static unsigned distinct(struct gen_relc *R, uint32_t v, unsigned l, unsigned depth,
                         unsigned *visits)
{
    const struct mir_prog *m = R->ki->mir;
    if (++*visits > MAX_VISIT || depth > 6 || v >= m->nvregs)
        return UNKNOWN;
    if (R->h.lane_uniform(R->h.u, v, l))
        return 1;
    if (!R->writers_built && !build_writers(R)) {
        R->ki->p->oom = true;
        return UNKNOWN;
    }
    size_t key = (size_t)v * 4 + l;
    unsigned sum = 0;
    uint32_t lo = UINT32_MAX, hi = 0;
    for (uint32_t e = R->wstart[key]; e < R->wstart[key + 1]; e++) {
        uint32_t w = R->wins[e];
        const struct mir_instr *in = &m->ins[w];
        /* in a loop, channels may hold values of different iterations */
        if (R->loop_depth[w] || in->op == ST_OP_LOOP)
            return UNKNOWN;
        lo = w < lo ? w : lo;
        hi = w > hi ? w : hi;
        sum += distinct_written(R, in, l, depth, visits);
        if (sum >= UNKNOWN)
            return UNKNOWN;
    }
    if (!sum)
        return 1; /* never written: 0 everywhere */
    return sum + (surely_written(R, v, l, lo, hi) ? 0 : 1);
}

/* ------------------------------------------------------------------ */
/* Where the vectors are.                                              */

/* Every vector index + k reaches is pushed with the others (a loop over
 * literal counts, inside the range); *min_index: the smallest index. */
static bool in_main(const struct gen_kernel_info *ki, const struct mir_src *s, int32_t k,
                    const uint32_t *vals, int nvals, int64_t *min_index)
{
    if (nvals <= 0)
        return false;
    *min_index = INT64_MAX;
    for (int j = 0; j < nvals; j++) {
        uint32_t idx = vals[j] + (uint32_t)k;
        if ((uint32_t)(idx - (uint32_t)s->rel_first) >= s->rel_count ||
            !gen_kernel_const_pushed(ki, idx))
            return false;
        if ((int32_t)vals[j] < *min_index)
            *min_index = (int32_t)vals[j];
    }
    return true;
}

/* Is every index + k of the group inside the range (a known loop)? */
static bool known_inside(const struct mir_src *s, const struct group *g, const uint32_t *vals,
                         int nvals)
{
    if (nvals < 0)
        return false;
    for (int j = 0; j < nvals; j++)
        for (unsigned v = 0; v < g->span; v++)
            if (g->comps[v] &&
                (uint32_t)(vals[j] + (uint32_t)(g->kmin + (int32_t)v) - (uint32_t)s->rel_first) >=
                    s->rel_count)
                return false;
    return true;
}

/* The reads to do with this one: same address and range, the same kind of
 * place, in the straight-line stretch from `cur` until the next control
 * flow or address write; the vectors of the best window of `max_span`. */
static void gather_group(struct gen_relc *R, unsigned cur, const struct mir_src *s, uint8_t elems,
                         enum storage st, unsigned max_span, const uint32_t *vals, int nvals,
                         struct group *g)
{
    const struct mir_prog *m = R->ki->mir;
    int32_t ks[4 * LOOKAHEAD + 1];
    uint8_t kc[4 * LOOKAHEAD + 1];
    unsigned nk = 0;
    ks[nk] = s->index;
    kc[nk++] = elems;
    for (unsigned i = cur; i < m->n && i < cur + LOOKAHEAD; i++) {
        const struct mir_instr *in = &m->ins[i];
        if (in->dead)
            continue;
        if (i > cur && mir_is_flow(in->op))
            break;
        for (unsigned k = 0; k < in->nsrc && k < 4; k++) {
            const struct mir_src *o = &in->src[k];
            if (o == s || !same_key(o, s) || nk >= 4 * LOOKAHEAD)
                continue;
            int64_t mi;
            if (st == IN_MAIN && !in_main(R->ki, o, o->index, vals, nvals, &mi))
                continue;
            ks[nk] = o->index;
            kc[nk++] = mir_src_lanes(m, in, k);
        }
        if (in->has_dst && in->dst.kind == MIR_VREG && in->dst.vreg < m->nvregs &&
            m->vclass[in->dst.vreg] == MIR_CLASS_INT)
            break; /* an address changes: later reads are another group */
    }
    /* the window of max_span vectors holding the current read and most others */
    int32_t best = s->index;
    unsigned best_n = 0;
    for (unsigned a = 0; a < nk; a++) {
        int32_t lo = ks[a];
        if (lo > s->index || (int64_t)s->index - lo >= max_span)
            continue;
        unsigned n = 0;
        for (unsigned b = 0; b < nk; b++)
            n += ks[b] >= lo && (int64_t)ks[b] - lo < max_span;
        if (n > best_n || (n == best_n && lo < best)) {
            best_n = n;
            best = lo;
        }
    }
    memset(g, 0, sizeof(*g));
    g->s = s;
    g->kmin = best;
    for (unsigned a = 0; a < nk; a++) {
        bool seen = false;
        for (unsigned b = 0; b < a && !seen; b++)
            seen = ks[b] == ks[a];
        g->nall += !seen;
    }
    for (unsigned b = 0; b < nk; b++) {
        if (ks[b] < best || (int64_t)ks[b] - best >= max_span)
            continue;
        unsigned v = (unsigned)(ks[b] - best);
        g->comps[v] |= kc[b] ? kc[b] : 0x1;
        if (v + 1 > g->span)
            g->span = v + 1;
        g->nreads++;
    }
}

/* ------------------------------------------------------------------ */
/* Emitting.                                                           */

static unsigned popcount4(unsigned x)
{
    return (x & 1) + (x >> 1 & 1) + (x >> 2 & 1) + (x >> 3 & 1);
}

static unsigned popcount8(unsigned x)
{
    return popcount4(x & 15) + popcount4(x >> 4 & 15);
}

static struct gen_opnd add_d(struct gen_build *B, bool u, struct gen_opnd a, int64_t k)
{
    if (k == 0)
        return a;
    return gb_alu(B, GOP_ADD, GT_D, u, a, gb_imm_d((int32_t)(uint32_t)k));
}

/* min(t, lim) as unsigned: an index below 0 (a huge unsigned) or past lim gives lim */
static struct gen_opnd clamp_ud(struct gen_build *B, bool u, struct gen_opnd t, uint32_t lim)
{
    struct gen_opnd d = gb_val(B, u, GT_UD);
    t.type = GT_UD;
    gb_selc_to(B, d, GC_LT, t, gen_imm(lim, GT_UD));
    d.type = GT_D;
    return d;
}

/* The pseudo-instruction reading vectors base + 16 * (idx + v) (gen_ir.h, GOP_MOVI). */
static uint32_t emit_movi(struct gen_relc *R, struct gen_opnd idx, bool u, uint32_t base,
                          unsigned span, unsigned comps, unsigned vecs, uint32_t range_lo,
                          uint32_t range_len)
{
    struct gen_build *B = R->ki->b;
    struct gen_program *p = R->ki->p;
    uint32_t dst;
    if (u) {
        /* whole GRFs past one vector (an odd count of vectors leaves 16 bytes unused) */
        dst = gen_new_vreg(p, span == 1 ? 16 : (span + 1) / 2 * GEN_GRF_SIZE, true);
        if (!p->oom && span == 1)
            p->vreg[dst].align = 16;
    } else {
        dst = gen_new_vreg(p, popcount8(vecs) * popcount4(comps) * gen_dsize(p), false);
    }
    if (!p->oom)
        p->vreg[dst].no_spill = true;
    idx = gb_as_type(B, idx, GT_D);
    if (idx.kind == GO_IMM)
        idx = gb_reg(B, idx);
    struct gen_inst *i = gb_inst(B, GOP_MOVI, u);
    i->dst = gen_vr(dst, 0, u ? GT_UD : GT_F);
    i->src[0] = idx;
    i->src[1] = gen_fixed(range_lo, GT_UD, GR_SCALAR);
    i->src[1].imm = range_len;
    i->src[2] = gen_imm(gen_movi_imm(base, span, comps, vecs), GT_UD);
    return dst;
}

/* Values of a group read into `blk`: uniform whole vectors (16 bytes each),
 * or per channel (vector of vecs, component of comps) slots. */
static struct gen_opnd slot_of(const struct gen_program *p, uint32_t blk, bool u, unsigned v,
                               unsigned c, unsigned comps, unsigned vecs)
{
    if (u)
        return gen_vr(blk, 16 * v + 4 * c, GT_F);
    unsigned rank = popcount4(comps & ((1u << c) - 1));
    unsigned vrank = popcount8(vecs & ((1u << v) - 1));
    return gen_vr(blk, (vrank * popcount4(comps) + rank) * gen_dsize(p), GT_F);
}

/* Uniform index: the OWord offset of vector kmin + index, kept inside the
 * buffer's pads, and zeros for vectors outside a range that is not the
 * whole buffer.  Returns the response block. */
static uint32_t block_read(struct gen_relc *R, struct gen_opnd u_idx, const struct mir_src *s,
                           const struct group *g, bool inside)
{
    struct gen_kernel_info *ki = R->ki;
    struct gen_build *B = ki->b;
    uint32_t nbuf = buffer_vectors(ki);
    bool whole = s->rel_first == 0 && s->rel_count == nbuf;
    struct gen_opnd off = add_d(B, true, u_idx, (int64_t)g->kmin + GEN_CBUF_PAD);
    if (!inside)
        off = clamp_ud(B, true, off, nbuf + GEN_CBUF_PAD);
    uint32_t blk = gen_kernel_block_read(ki, off, g->span);
    if (inside || whole)
        return blk;
    /* vector v is outside first..first+count-1: zeros (a SIMD4 compare, so
     * the four flag bits the predicated move reads are set alike) */
    struct gen_opnd x = add_d(B, true, u_idx, (int64_t)g->kmin - s->rel_first);
    for (unsigned v = 0; v < g->span; v++) {
        if (!g->comps[v])
            continue;
        struct gen_opnd t = add_d(B, true, x, v);
        if (t.kind == GO_IMM)
            t = gb_reg(B, t);
        t.type = GT_UD;
        struct gen_inst *c = gb_inst(B, GOP_CMP, true);
        c->exec = 4;
        c->cmod = GC_GE;
        c->dst = gen_null(GT_UD);
        c->src[0] = t;
        c->src[1] = gen_imm(s->rel_count, GT_UD);
        struct gen_inst *z = gb_inst(B, GOP_MOV, true);
        z->exec = 4;
        z->pred = GP_NORMAL;
        z->dst = gen_vr(blk, 16 * v, GT_UD);
        z->src[0] = gen_imm(0, GT_UD);
    }
    return blk;
}

/*
 * The byte address of vector 0 through index a, shared by the gathers of
 * one straight-line stretch: a * 16, exact for indices the range knows are
 * inside; otherwise (a + 2^26, clamped to 2^27 as unsigned) * 16 with a
 * bias of -2^30 to add back, so that no index wraps around to an address
 * inside the buffer (an index past +-2^26 lands past the buffer).
 */
static struct relc_base *find_base(struct gen_relc *R, const struct mir_src *s, uint32_t seg,
                                   bool clamped)
{
    for (unsigned k = 0; k < R->nbase; k++) {
        struct relc_base *e = &R->base[k];
        if (e->vreg == s->rel_vreg && e->lane == s->rel_lane && e->seg == seg &&
            e->clamped == clamped)
            return e;
    }
    return NULL;
}

/* Whether the gathers of group g go through a shared byte address: the
 * stretch reads more vectors through the index, or an earlier one did. */
static bool share_base(struct gen_relc *R, const struct mir_src *s, uint32_t seg,
                       const struct group *g, bool inside)
{
    bool whole = s->rel_first == 0 && s->rel_count == buffer_vectors(R->ki);
    return (inside || whole) && (g->nall >= 2 || find_base(R, s, seg, !inside));
}

static struct relc_base *byte_base(struct gen_relc *R, struct gen_opnd a, const struct mir_src *s,
                                   uint32_t seg, bool clamped)
{
    struct gen_build *B = R->ki->b;
    struct relc_base *found = find_base(R, s, seg, clamped);
    if (found)
        return found;
    unsigned w = 0; /* entries of finished stretches go */
    for (unsigned k = 0; k < R->nbase; k++)
        if (R->base[k].seg == seg)
            R->base[w++] = R->base[k];
    R->nbase = w;
    if (R->nbase == R->capbase) {
        unsigned cap = R->capbase ? 2 * R->capbase : 8;
        struct relc_base *n = realloc(R->base, sizeof(*n) * cap);
        if (!n) {
            R->ki->p->oom = true;
            return NULL;
        }
        R->base = n;
        R->capbase = cap;
    }
    struct gen_opnd u = a;
    if (clamped)
        u = clamp_ud(B, false, add_d(B, false, a, 1 << 26), 1u << 27);
    struct gen_opnd bytes = gb_alu(B, GOP_SHL, GT_D, false, u, gb_imm_d(4));
    struct relc_base *e = &R->base[R->nbase++];
    *e = (struct relc_base){s->rel_vreg, seg, s->rel_lane, clamped, bytes,
                            clamped ? -(1 << 30) : 0};
    return e;
}

/*
 * An index per channel, pulled: an untyped read of the needed components
 * per vector, at the vector's byte address (the constant buffer's bounds
 * checking gives zeros past it and its pads).  Several vectors through one
 * index share its byte address (byte_base) and add their offsets; one
 * alone is sent past the buffer when its shift to bytes could wrap.  A
 * range that is not the whole buffer checks each vector and sends one
 * outside it past the buffer.
 */
static void gather(struct gen_relc *R, struct gen_opnd a, const struct mir_src *s, uint32_t seg,
                   const struct group *g, bool inside, struct gen_opnd out[MAX_SPAN][4])
{
    struct gen_kernel_info *ki = R->ki;
    struct gen_build *B = ki->b;
    uint32_t nbuf = buffer_vectors(ki);
    bool whole = s->rel_first == 0 && s->rel_count == nbuf;
    bool shared = share_base(R, s, seg, g, inside);
    for (unsigned v = 0; v < g->span; v++) {
        if (!g->comps[v])
            continue;
        int64_t k = (int64_t)g->kmin + v;
        if (shared) {
            struct relc_base *b = byte_base(R, a, s, seg, !inside);
            if (b)
                gen_kernel_pull_at(ki, b->bytes, (int32_t)(b->bias + 16 * (k + GEN_CBUF_PAD)),
                                   g->comps[v], GEN_BTI_CONSTANTS, out[v]);
            continue;
        }
        struct gen_opnd t = add_d(B, false, a, k + GEN_CBUF_PAD);
        if (!inside && whole) {
            /* below the leading pad or past the trailing one: once the shift
             * to bytes cannot wrap it back, past the buffer */
            t = clamp_ud(B, false, t, 0x0fffffffu);
        } else if (!inside) {
            struct gen_opnd o = add_d(B, false, a, k - s->rel_first);
            o.type = GT_UD;
            gb_cmp_flag(B, GC_GE, o, gen_imm(s->rel_count, GT_UD), false, 0);
            struct gen_opnd d = gb_val(B, false, GT_D);
            gb_sel_to(B, d, gb_imm_d(0x0fffffff), t, 0, false);
            t = d;
        }
        gen_kernel_pull(ki, t, g->comps[v], out[v]);
    }
}

/*
 * An index per channel into a range bound as a view of the constant
 * buffer (docs/gen-abi.md): the byte address through the index shared
 * with the stretch's other gathers (byte_base), then an add and an
 * untyped read of the view per vector; past either end of the view its
 * bounds checking reads zeros, so no vector needs a check of its own.
 */
static void gather_view(struct gen_relc *R, struct gen_opnd a, const struct mir_src *s,
                        uint32_t seg, const struct st_gen_rel_block *rb, const struct group *g,
                        bool inside, struct gen_opnd out[MAX_SPAN][4])
{
    struct relc_base *b = byte_base(R, a, s, seg, !inside);
    if (!b)
        return;
    for (unsigned v = 0; v < g->span; v++)
        if (g->comps[v])
            gen_kernel_pull_at(R->ki, b->bytes,
                               (int32_t)(b->bias + 16 * ((int64_t)g->kmin + v - rb->first)),
                               g->comps[v], rb->bti, out[v]);
}

/* The waterfall loop (one block read per distinct index among the live
 * channels; each round serves the channels with the first one's index). */
static void waterfall(struct gen_relc *R, struct gen_opnd a, const struct mir_src *s,
                      const struct group *g, bool inside, struct gen_opnd out[MAX_SPAN][4])
{
    struct gen_kernel_info *ki = R->ki;
    struct gen_build *B = ki->b;
    for (unsigned v = 0; v < g->span; v++)
        for (unsigned c = 0; c < 4; c++)
            if (g->comps[v] >> c & 1)
                out[v][c] = gb_val(B, false, GT_F);
    gb_inst(B, GOP_LABEL, false);
    struct gen_opnd u = gb_val(B, true, GT_UD);
    struct gen_inst *bc = gb_inst(B, GOP_BCAST, true);
    bc->dst = u;
    bc->src[0] = gb_as_type(B, a, GT_UD);
    u.type = GT_D;
    uint32_t blk = block_read(R, u, s, g, inside);
    gb_cmp_flag(B, GC_EQ, a, u, false, 0);
    for (unsigned v = 0; v < g->span; v++)
        for (unsigned c = 0; c < 4; c++)
            if (g->comps[v] >> c & 1)
                gb_pmov_to(B, out[v][c], gen_vr(blk, 16 * v + 4 * c, GT_F), 0, false);
    struct gen_inst *br = gb_inst(B, GOP_BREAK, false);
    br->pred = GP_NORMAL;
    gb_inst(B, GOP_WHILE, false);
}

/* ------------------------------------------------------------------ */
/* The read.                                                           */

static const char *const strategy_name[GEN_REL_STRATEGIES] = {
    [GEN_REL_VX1] = "register-indirect mov (Vx1)",
    [GEN_REL_VXH] = "per-channel register-indirect movs (VxH)",
    [GEN_REL_BLOCK] = "one OWord block read",
    [GEN_REL_GATHER] = "an untyped read per vector (gather)",
    [GEN_REL_WATERFALL] = "waterfall loop, one block read per distinct index",
};

static void note(struct gen_relc *R, const struct mir_src *s, unsigned cur, const struct group *g,
                 bool uniform, unsigned distinct_n, enum storage st, enum gen_rel_strategy how,
                 const char *costs)
{
    struct gen_program *p = R->ki->p;
    const struct mir_instr *in = &R->ki->mir->ins[cur];
    bool aL = R->ki->aloop && s->rel_vreg < R->ki->mir->nvregs && R->ki->aloop[s->rel_vreg] >= 0;
    char idx[16], range[48], dist[32] = "";
    snprintf(idx, sizeof(idx), aL ? "aL" : "a0.%c", "xyzw"[s->rel_lane & 3]);
    if (g->span > 1)
        snprintf(range, sizeof(range), "%+d..%+d", g->kmin, g->kmin + (int)g->span - 1);
    else
        snprintf(range, sizeof(range), "%+d", g->kmin);
    if (!uniform && distinct_n < UNKNOWN)
        snprintf(dist, sizeof(dist), " (at most %u values)", distinct_n);
    static const char *const where[] = {"pushed", "pushed in their own block", "pulled"};
    const char *op = in->op < ST_OP_COUNT ? st_opinfo[in->op].name : "mov";
    st_buf_printf(&p->rel_notes, "// c[%s%s] (%s, %u read%s): index %s%s, constants %s: %s%s\n",
                  idx, range, op, g->nreads, g->nreads == 1 ? "" : "s",
                  uniform ? "uniform" : "per channel", dist, where[st], strategy_name[how], costs);
    p->rel_strategy[how]++;
}

static struct relc_ent *lookup(struct gen_relc *R, const struct mir_src *s, uint32_t seg,
                               uint8_t elems)
{
    for (unsigned k = R->nent; k-- > 0;) {
        struct relc_ent *e = &R->ent[k];
        if (e->seg == seg && e->vreg == s->rel_vreg && e->lane == s->rel_lane &&
            e->first == s->rel_first && e->count == s->rel_count && e->k == s->index &&
            (elems & ~e->elems) == 0)
            return e;
    }
    return NULL;
}

static void remember(struct gen_relc *R, const struct mir_src *s, uint32_t seg, int32_t k,
                     uint8_t elems, const struct gen_opnd v[4])
{
    /* entries of finished segments go, so the table stays small */
    unsigned w = 0;
    for (unsigned j = 0; j < R->nent; j++)
        if (R->ent[j].seg == seg)
            R->ent[w++] = R->ent[j];
    R->nent = w;
    if (R->nent == R->cap) {
        unsigned cap = R->cap ? 2 * R->cap : 32;
        struct relc_ent *n = realloc(R->ent, sizeof(*n) * cap);
        if (!n) {
            R->ki->p->oom = true;
            return;
        }
        R->ent = n;
        R->cap = cap;
    }
    struct relc_ent *e = &R->ent[R->nent++];
    e->vreg = s->rel_vreg;
    e->lane = s->rel_lane;
    e->first = s->rel_first;
    e->count = s->rel_count;
    e->k = k;
    e->seg = seg;
    e->elems = elems;
    memcpy(e->v, v, sizeof(e->v));
}

/* The group's vectors from the pushed constants: the vector number, never
 * negative, through a0 (one address, or one per channel). */
static void read_pushed(struct gen_relc *R, struct gen_opnd a, bool u, const struct mir_src *s,
                        const struct group *g, enum storage st, int64_t min_index, bool inside,
                        struct gen_opnd out[MAX_SPAN][4])
{
    struct gen_kernel_info *ki = R->ki;
    struct gen_build *B = ki->b;
    const struct st_gen_layout *L = &ki->p->layout;
    unsigned all = 0, vecs = 0;
    for (unsigned v = 0; v < g->span; v++) {
        all |= g->comps[v];
        vecs |= g->comps[v] ? 1u << v : 0u;
    }
    uint32_t range_lo, range_len, base;
    struct gen_opnd idx = a;
    if (st == IN_MAIN) {
        /* vector aL + kmin - c_lo of the block: base folds kmin - c_lo in
         * when neither it nor the index can be negative */
        range_lo = L->c_grf * GEN_GRF_SIZE;
        range_len = ((uint32_t)(L->c_hi - L->c_lo) / 2 + 1) * GEN_GRF_SIZE;
        int64_t off = (int64_t)g->kmin - L->c_lo;
        base = range_lo + (uint32_t)(off * 16);
        if (min_index < 0 || off < 0) {
            idx = add_d(B, u, a, off);
            base = range_lo;
        }
    } else {
        /* vector x of the range is vector pad + x of its block; an index
         * out of the range goes to the zeros after it */
        const struct st_gen_rel_block *rb = gen_kernel_rel_block(ki, s->rel_first, s->rel_count);
        range_lo = base = rb->grf * GEN_GRF_SIZE;
        range_len = (rb->count + 2 * rb->pad + 1) / 2 * GEN_GRF_SIZE;
        idx = add_d(B, u, a, (int64_t)g->kmin - rb->first + rb->pad);
        if (!inside)
            idx = clamp_ud(B, u, idx, rb->count + rb->pad);
    }
    uint32_t blk = emit_movi(R, idx, u, base, g->span, all, vecs, range_lo, range_len);
    for (unsigned v = 0; v < g->span; v++)
        for (unsigned c = 0; c < 4; c++)
            if (g->comps[v] && (u || (all >> c & 1)))
                out[v][c] = slot_of(ki->p, blk, u, v, c, all, vecs);
}

/*
 * Issue cycles: what one thread takes of its EU's instruction issue, the
 * cost of a strategy when many threads share the EU (docs/gen-backend.md
 * "Relative constant reads": a message's latency is hidden by the other
 * threads, its issue is not).  An instruction's `df` by gen/perf.c's
 * timings (two halves at SIMD32); a VxH mov counts VXH_ISSUE times a mov:
 * its channels read up to one register each where a direct region reads
 * one or two (this model's assumption, not a measured figure).
 */
enum { VXH_ISSUE = 2 };

static unsigned issue_of(enum gen_op op, uint8_t sfid, unsigned simd)
{
    struct gen_inst i;
    memset(&i, 0, sizeof(i));
    i.op = (uint8_t)op;
    i.sfid = sfid;
    i.exec = (uint8_t)(simd > 16 ? 16 : simd);
    i.mlen = 1;
    i.dst.type = GT_F;
    i.src[0] = gen_vr(0, 0, GT_F);
    struct gen_timing t;
    gen_timing(&i, i.exec, false, &t);
    return simd > 16 ? 2u * (unsigned)t.df : (unsigned)t.df;
}

unsigned gen_relc_issue_vxh(unsigned simd, unsigned ncomp, unsigned nsetup)
{
    unsigned mov = issue_of(GOP_MOV, 0, simd);
    return nsetup * issue_of(GOP_ADD, 0, simd) + ncomp * VXH_ISSUE * mov;
}

unsigned gen_relc_issue_gather(unsigned simd, unsigned nvec, unsigned nsetup)
{
    return (nsetup + nvec) * issue_of(GOP_ADD, 0, simd) + nvec * issue_of(GOP_SEND, 0xC, simd);
}

/* Cycles of one instruction by the model of the statistics line
 * (gen/perf.c, Mesa brw's timings): its issue, and for a message its
 * latency too (the thread waits for each read's result). */
static unsigned cycles_of(enum gen_op op, uint8_t sfid, unsigned exec, unsigned mlen)
{
    struct gen_inst i;
    memset(&i, 0, sizeof(i));
    i.op = (uint8_t)op;
    i.sfid = sfid;
    i.exec = (uint8_t)exec;
    i.mlen = (uint8_t)mlen;
    i.dst.type = GT_F;
    i.src[0] = gen_vr(0, 0, GT_F);
    struct gen_timing t;
    gen_timing(&i, exec > 16 ? 16 : exec, false, &t);
    unsigned c = (unsigned)t.df + (gen_op_info[op].send ? (unsigned)(t.db + t.ld) : 0);
    return exec > 16 ? 2 * c : c; /* SIMD32: two halves */
}

/*
 * An index per channel into pushed constants: VxH movs, or gathers from
 * the constant buffer (the range's view, or for a loop's aL inside the
 * range the vectors themselves), whichever issues in fewer cycles
 * (gen_relc_issue_*; a tie keeps the movs, which wait for no message).
 */
static bool pushed_prefers_gather(struct gen_relc *R, const struct mir_src *s, uint32_t seg,
                                  const struct group *g, enum storage st,
                                  const struct st_gen_rel_block *rb, bool inside, char *costs,
                                  size_t ncosts)
{
    unsigned simd = R->ki->p->simd, nvec = 0, ncomp = 0;
    for (unsigned v = 0; v < g->span; v++) {
        nvec += g->comps[v] != 0;
        ncomp += popcount4(g->comps[v]);
    }
    /* VxH: the offset (and clamp) into the block, a0 from the index;
     * gather: the same offset and clamp, the shift to bytes (once through
     * a shared address, already there when an earlier group made it) */
    unsigned setup = (st == IN_BLOCK ? 1 + !inside : 1) + 1;
    unsigned setup_g = find_base(R, s, seg, !inside) ? 0 : inside ? 1 : 3;
    unsigned vxh = gen_relc_issue_vxh(simd, ncomp, setup);
    unsigned gat = gen_relc_issue_gather(simd, nvec, setup_g);
    if (!rb && !inside)
        return false; /* outside a known range only the view reads zeros */
    snprintf(costs, ncosts, "; issue cycles: VxH %u, gather %u", vxh, gat);
    return gat < vxh;
}

/*
 * An index per channel into pulled constants: the estimated cycles of a
 * gather (a few ALU instructions and an untyped read per vector) against a
 * waterfall (per distinct index: the broadcast, the block read's set-up and
 * message, a compare and a move per component, the loop's flow), by
 * gen/perf.c's timings; the cheaper is done.  A waterfall wins when it
 * saves messages: few distinct indices and several vectors.  The estimates
 * go into the kernel's comment.
 */
static enum gen_rel_strategy read_pulled_per_channel(struct gen_relc *R, struct gen_opnd a,
                                                     const struct mir_src *s, uint32_t seg,
                                                     const struct st_gen_rel_block *rb,
                                                     const struct group *g, bool inside, unsigned dn,
                                                     char *costs, size_t ncosts,
                                                     struct gen_opnd out[MAX_SPAN][4])
{
    unsigned simd = R->ki->p->simd, exec = simd > 16 ? 16 : simd;
    bool whole = s->rel_first == 0 && s->rel_count == buffer_vectors(R->ki);
    unsigned alu = cycles_of(GOP_ADD, 0, simd, 0), alu1 = cycles_of(GOP_ADD, 0, 1, 0);
    unsigned untyped = cycles_of(GOP_SEND, 0xC, simd, exec / 8);
    unsigned block = cycles_of(GOP_SEND, 9, 8, 1), flow = cycles_of(GOP_WHILE, 0, simd, 0);
    unsigned nvec = 0, nmov = 0;
    uint64_t cost_g = 0;
    bool shared = rb || share_base(R, s, seg, g, inside);
    for (unsigned v = 0; v < g->span; v++) {
        if (!g->comps[v])
            continue;
        nvec++;
        nmov += popcount4(g->comps[v]);
        /* the index, the bounds, the shift, the first component's offset, the
         * message; through a shared byte address only an add */
        unsigned n_alu = shared ? 1 : 1 + (inside ? 0 : whole ? 1 : 3) + 1 + !(g->comps[v] & 1);
        cost_g += (uint64_t)n_alu * alu + untyped;
    }
    if (shared && !find_base(R, s, seg, !inside))
        cost_g += (uint64_t)(inside ? 1 : 3) * alu; /* the shared address, once */
    /* broadcast (5), index and clamp (2), header (2), masks, compare, moves, break and while */
    uint64_t round = (uint64_t)(5 + 2 + 2 + (inside || whole ? 0 : 3 * nvec)) * alu1 + block +
                     (1 + nmov) * alu + 2 * flow;
    uint64_t cost_w = dn >= UNKNOWN ? UINT64_MAX : dn * round;
    if (cost_w == UINT64_MAX)
        snprintf(costs, ncosts, "; estimated cycles: gather %llu", (unsigned long long)cost_g);
    else
        snprintf(costs, ncosts, "; estimated cycles: gather %llu, waterfall %llu",
                 (unsigned long long)cost_g, (unsigned long long)cost_w);
    if (cost_w < cost_g) {
        waterfall(R, a, s, g, inside, out);
        return GEN_REL_WATERFALL;
    }
    if (rb)
        gather_view(R, a, s, seg, rb, g, inside, out);
    else
        gather(R, a, s, seg, g, inside, out);
    return GEN_REL_GATHER;
}

void gen_relc_read(struct gen_relc *R, unsigned cur, uint32_t seg, const struct mir_src *s,
                   uint8_t elems, struct gen_opnd vec[4])
{
    struct gen_kernel_info *ki = R->ki;
    struct gen_build *B = ki->b;
    struct gen_program *p = ki->p;
    for (unsigned c = 0; c < 4; c++)
        vec[c] = gen_imm(0, GT_F);
    struct relc_ent *hit = lookup(R, s, seg, elems);
    if (hit) {
        memcpy(vec, hit->v, sizeof(hit->v));
        return;
    }
    /* where the vectors are, which reads go with this one */
    struct gen_opnd a = gb_as_type(B, R->h.lane(R->h.u, s->rel_vreg, s->rel_lane), GT_D);
    bool u = gb_is_uniform(p, &a);
    uint32_t vals[256];
    int nvals = gen_kernel_rel_aL(ki, s->rel_vreg, vals);
    int64_t min_index = 0;
    const struct st_gen_rel_block *rb = gen_kernel_rel_block(ki, s->rel_first, s->rel_count);
    enum storage st = in_main(ki, s, s->index, vals, nvals, &min_index) ? IN_MAIN
                      : rb && rb->pushed                                ? IN_BLOCK
                                                                        : PULLED;
    if (st == IN_MAIN)
        rb = NULL; /* read where the loop's vectors are */
    struct group g;
    gather_group(R, cur, s, elems, st, st == IN_BLOCK ? rb->pad : MAX_SPAN, vals, nvals, &g);
    bool inside = known_inside(s, &g, vals, nvals);
    /* how they are read */
    struct gen_opnd out[MAX_SPAN][4];
    for (unsigned v = 0; v < MAX_SPAN; v++)
        for (unsigned c = 0; c < 4; c++)
            out[v][c] = gen_imm(0, GT_F);
    enum gen_rel_strategy how;
    unsigned dn = u ? 1 : UNKNOWN;
    char costs[96] = "";
    uint8_t read_elems = 0xf;
    if (st != PULLED && !u && pushed_prefers_gather(R, s, seg, &g, st, rb, inside, costs,
                                                    sizeof(costs))) {
        if (rb)
            gather_view(R, a, s, seg, rb, &g, inside, out);
        else
            gather(R, a, s, seg, &g, inside, out);
        how = GEN_REL_GATHER;
        read_elems = 0;
    } else if (st != PULLED) {
        read_pushed(R, a, u, s, &g, st, min_index, inside, out);
        how = u ? GEN_REL_VX1 : GEN_REL_VXH;
        if (!u)
            for (unsigned v = 0; v < g.span; v++)
                read_elems = (uint8_t)(v ? read_elems | g.comps[v] : g.comps[v]);
    } else if (u) {
        uint32_t blk = block_read(R, a, s, &g, inside);
        for (unsigned v = 0; v < g.span; v++)
            for (unsigned c = 0; c < 4; c++)
                out[v][c] = gen_vr(blk, 16 * v + 4 * c, GT_F);
        how = GEN_REL_BLOCK;
    } else {
        unsigned visits = 0;
        dn = distinct(R, s->rel_vreg, s->rel_lane, 0, &visits);
        how = read_pulled_per_channel(R, a, s, seg, rb, &g, inside, dn, costs, sizeof(costs), out);
        read_elems = 0;
    }
    note(R, s, cur, &g, u, dn, st, how, costs);
    for (unsigned v = 0; v < g.span; v++)
        if (g.comps[v])
            remember(R, s, seg, g.kmin + (int32_t)v, read_elems ? read_elems : g.comps[v], out[v]);
    struct relc_ent *e = lookup(R, s, seg, elems);
    if (e)
        memcpy(vec, e->v, sizeof(e->v));
    else if (!p->oom && !B->failed)
        gb_fail(B, "internal error: a relative read its group did not cover");
}
