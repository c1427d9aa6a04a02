/* requires: a Gen IR program from gen/isel.c (structured flow, vregs unallocated).
 * invalidates: instruction indices (dead code, coalesced copies, spill and remat code). */
/*
 * gen/ra.c — register allocation for the Gen9 back end.
 *
 * The register file is 128 GRFs x 32 bytes, addressed by byte.  A vreg is a
 * contiguous run of bytes of one register class: a divergent dword (SIMD8,
 * 16, 32: one, two or four GRFs, GRF aligned), a uniform dword (4 bytes,
 * packed eight to a GRF), any sub-GRF value (size rounded to dwords,
 * aligned to its size and never straddling a GRF: a SIMD8 half is 16
 * bytes), or a message block of n GRFs, contiguous, with an allowed GRF
 * range (EOT payloads: r112-r127).  Payload registers are precoloured.
 *
 * Liveness is one interval per vreg over the linear order (Mesa's
 * representation): from the first to the last reference, widened over every
 * loop the value is live into or out of.  The interval is the physical
 * extent: it covers both arms of an if/else and the whole of a loop a
 * channel may wait in, so values that share bytes never meet in any
 * channel, whichever channels a NoMask write reaches.  Two values interfere
 * when their intervals overlap.  That graph is an interval graph, hence
 * chordal: colouring it in a perfect elimination order (increasing start)
 * never needs more registers than the largest number of values alive at
 * one point, and the graph need not be built (it has O(n x pressure) edges;
 * the intervals are its O(n) representation).
 *
 * Steps (each linear in the program, or n log n):
 *   1. dead code (mark and sweep: values that only feed themselves round a
 *      loop go too);
 *   2. copy coalescing on intervals (a copy whose source dies where its
 *      destination starts), then on per-channel liveness over the scalar
 *      CFG of the structured flow (loop-exit and if-join phi moves, for
 *      values written only by masked lane writes);
 *   3. spill choice before colouring: a sweep over the program keeps the
 *      register pressure (GRFs, sub-GRF values rounded up) within the
 *      file, evicting at each point that exceeds it the value of least
 *      cost per byte and per instruction of life (cost: the spill and fill
 *      code, 8x per loop level); a value that is cheap to recompute (an
 *      immediate, a payload read: interpolant, pushed constant) whose
 *      payload registers stay live anyway is rematerialized at its uses
 *      instead of spilled; a destination that takes the place of a source
 *      dying in the same instruction needs no room of its own, and values
 *      alive across the start of the EOT payload must leave it r112-r127;
 *   4. spill and remat code inserted in one pass; spilled values go to
 *      scratch through OWord block messages (SFID 0xA, BTI 253, Mesa's Gen9
 *      form) whose header (a copy of r0, dword 2 = offset / 16) lives in one
 *      register for the whole kernel; a SIMD8 half float (half a GRF) is
 *      one OWord, filled into and stored from a GRF of its own;
 *   5. colouring in start order: range-constrained blocks first, then
 *      every value: a destination over its dying source when it can
 *      (same size and place; the hardware reads sources before it writes),
 *      values that die before the EOT payload starts in its registers,
 *      divergent values and blocks best fit (one-GRF values in registers
 *      already used), sub-GRF values packed from r111 down (divergent ones,
 *      SIMD8 halves, first into GRFs already used).
 * Pressure within the file does not guarantee a colouring when values
 * are wider than a GRF (free registers need not be contiguous): a few other
 * placements are tried, and when all fail the capacity is lowered by the
 * failing value's size over its interval and steps 3-5 run again from the
 * program as it was after step 2 (at most 16 rounds, the last ones
 * lowering the whole file): a bounded number of linear passes, never one
 * pass per spilled value.
 */
#include <stdlib.h>
#include <string.h>

#include "gen_ir.h"

/* ------------------------------------------------------------------ */
/* Program building.                                                   */

static bool grow(void **arr, unsigned *cap, unsigned need, size_t elem)
{
    if (need <= *cap)
        return true;
    unsigned ncap = *cap ? *cap * 2 : 64;
    while (ncap < need)
        ncap *= 2;
    void *n = realloc(*arr, (size_t)ncap * elem);
    if (!n)
        return false;
    memset((char *)n + (size_t)*cap * elem, 0, (size_t)(ncap - *cap) * elem);
    *arr = n;
    *cap = ncap;
    return true;
}

uint32_t gen_new_vreg(struct gen_program *p, uint32_t size, bool uniform)
{
    if (!grow((void **)&p->vreg, &p->cap_vreg, p->nvreg + 1, sizeof(*p->vreg))) {
        p->oom = true;
        return 0;
    }
    struct gen_vreg *v = &p->vreg[p->nvreg];
    memset(v, 0, sizeof(*v));
    v->size = size;
    /* GRF values are GRF aligned; a sub-GRF value is aligned to the largest
     * power of two (up to 16) dividing its size, at least a dword */
    uint16_t a = 4;
    while (a < 16 && size % (2u * a) == 0)
        a *= 2;
    v->align = size >= GEN_GRF_SIZE ? GEN_GRF_SIZE : a;
    v->uniform = uniform;
    v->grf_lo = 0;
    v->grf_hi = GEN_NUM_GRFS - 1;
    v->loc = -1;
    v->spill_slot = -1;
    return p->nvreg++;
}

struct gen_inst *gen_append(struct gen_program *p)
{
    if (!grow((void **)&p->inst, &p->cap_inst, p->ninst + 1, sizeof(*p->inst))) {
        p->oom = true;
        memset(&p->oom_scratch, 0, sizeof(p->oom_scratch));
        return &p->oom_scratch;
    }
    struct gen_inst *i = &p->inst[p->ninst++];
    memset(i, 0, sizeof(*i));
    return i;
}

void gen_program_free(struct gen_program *p)
{
    free(p->inst);
    free(p->vreg);
    st_buf_free(&p->rel_notes);
    memset(p, 0, sizeof(*p));
}

/* ------------------------------------------------------------------ */
/* Operands and per-vreg reference lists.                              */

/* Operand s of i: 0 = dst, 1..3 = src[0..2]. */
static inline const struct gen_opnd *opnd(const struct gen_inst *i, unsigned s)
{
    return s ? &i->src[s - 1] : &i->dst;
}

static inline bool reads(const struct gen_inst *i, uint32_t v)
{
    for (unsigned s = 0; s < 3; s++)
        if (i->src[s].kind == GO_VREG && i->src[s].vreg == v)
            return true;
    return false;
}

static inline bool writes(const struct gen_inst *i, uint32_t v)
{
    return i->dst.kind == GO_VREG && i->dst.vreg == v;
}

/* The distinct vregs instruction i references (only its destination with defs_only). */
static unsigned inst_vregs(const struct gen_inst *i, bool defs_only, uint32_t out[4])
{
    unsigned n = 0;
    for (unsigned s = 0; s < (defs_only ? 1u : 4u); s++) {
        const struct gen_opnd *o = opnd(i, s);
        if (o->kind != GO_VREG)
            continue;
        bool seen = false;
        for (unsigned k = 0; k < n; k++)
            seen |= out[k] == o->vreg;
        if (!seen)
            out[n++] = o->vreg;
    }
    return n;
}

/* For each vreg, the instructions referencing (or writing) it, ascending. */
struct csr {
    uint32_t *first; /* nvreg + 1 offsets into at */
    uint32_t *at;
};

static void csr_free(struct csr *c)
{
    free(c->first);
    free(c->at);
    c->first = c->at = NULL;
}

static bool build_refs(const struct gen_program *p, struct csr *c, bool defs_only)
{
    unsigned nv = p->nvreg;
    c->first = calloc((size_t)nv + 2, sizeof(*c->first));
    c->at = NULL;
    if (!c->first)
        return false;
    uint32_t vs[4];
    for (unsigned k = 0; k < p->ninst; k++) {
        unsigned m = inst_vregs(&p->inst[k], defs_only, vs);
        for (unsigned j = 0; j < m; j++)
            c->first[vs[j] + 2]++;
    }
    for (unsigned v = 0; v < nv; v++)
        c->first[v + 2] += c->first[v + 1];
    c->at = malloc(((size_t)c->first[nv + 1] + 1) * sizeof(*c->at));
    if (!c->at) {
        csr_free(c);
        return false;
    }
    for (unsigned k = 0; k < p->ninst; k++) {
        unsigned m = inst_vregs(&p->inst[k], defs_only, vs);
        for (unsigned j = 0; j < m; j++)
            c->at[c->first[vs[j] + 1]++] = k;
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* Loops and control-flow depth.                                       */

struct flow {
    unsigned nloops;
    int32_t *ls, *le, *lpar; /* per loop: LABEL, WHILE, enclosing loop (-1) */
    int32_t *loop_of;        /* per instruction: innermost loop containing it, -1 */
    uint8_t *ldepth;         /* per instruction: loops around it (for spill costs) */
    uint8_t *cfdepth;        /* per instruction: IFs and loops around it */
};

static void flow_free(struct flow *f)
{
    free(f->ls);
    free(f->le);
    free(f->lpar);
    free(f->loop_of);
    free(f->ldepth);
    free(f->cfdepth);
    memset(f, 0, sizeof(*f));
}

static bool build_flow(const struct gen_program *p, struct flow *f)
{
    unsigned n = p->ninst;
    memset(f, 0, sizeof(*f));
    f->ls = malloc((n + 1) * sizeof(int32_t));
    f->le = malloc((n + 1) * sizeof(int32_t));
    f->lpar = malloc((n + 1) * sizeof(int32_t));
    f->loop_of = malloc((n + 1) * sizeof(int32_t));
    f->ldepth = malloc(n + 1);
    f->cfdepth = malloc(n + 1);
    int32_t *stack = malloc((n + 1) * sizeof(int32_t));
    if (!f->ls || !f->le || !f->lpar || !f->loop_of || !f->ldepth || !f->cfdepth || !stack) {
        free(stack);
        flow_free(f);
        return false;
    }
    unsigned sp = 0, cf = 0;
    for (unsigned k = 0; k < n; k++) {
        uint8_t op = p->inst[k].op;
        if (op == GOP_LABEL) {
            unsigned l = f->nloops++;
            f->ls[l] = (int32_t)k;
            f->le[l] = (int32_t)n - 1; /* an unclosed loop runs to the end */
            f->lpar[l] = sp ? stack[sp - 1] : -1;
            stack[sp++] = (int32_t)l;
        }
        f->loop_of[k] = sp ? stack[sp - 1] : -1;
        f->ldepth[k] = (uint8_t)(sp < 255 ? sp : 255);
        if (op == GOP_WHILE && sp)
            f->le[stack[--sp]] = (int32_t)k;
        if ((op == GOP_ENDIF || op == GOP_WHILE) && cf)
            cf--;
        f->cfdepth[k] = (uint8_t)(cf < 255 ? cf : 255);
        if (op == GOP_IF || op == GOP_LABEL)
            cf++;
    }
    free(stack);
    return true;
}

/*
 * Widens [*s, *e] over the loops it is live into or out of: a value live
 * before a loop and referenced in it (or after it) is alive through every
 * iteration; a value from inside a loop that is read after it may be
 * carried by a channel that left early while the others iterate.  One step
 * reaches the fixpoint: the outermost loop containing the start but not
 * the end moves the start, the outermost containing the end but not the
 * start moves the end, and every enclosing loop of those contains both.
 */
static void widen_over_loops(const struct flow *f, int32_t *s, int32_t *e)
{
    int32_t L = *s >= 0 ? f->loop_of[*s] : -1, out = -1;
    while (L >= 0 && f->le[L] < *e) {
        out = L;
        L = f->lpar[L];
    }
    int32_t ns = out >= 0 ? f->ls[out] : *s;
    L = f->loop_of[*e];
    out = -1;
    while (L >= 0 && f->ls[L] > *s) {
        out = L;
        L = f->lpar[L];
    }
    if (out >= 0)
        *e = f->le[out];
    *s = ns;
}

/* Bytes of the register file a fixed operand of instruction i covers. */
static uint32_t fixed_extent(const struct gen_inst *i, unsigned srcno, const struct gen_opnd *o)
{
    if (gen_op_info[i->op].send) /* a payload read in place: its message length */
        return (uint32_t)(srcno == 0 ? (i->mlen ? i->mlen : 1) : i->src1len) * GEN_GRF_SIZE;
    if (i->op == GOP_MOVI && srcno == 1)
        return o->imm; /* every register the indirect read may reach (gen_ir.h) */
    if (o->region == GR_SCALAR)
        return 4;
    if (o->region == GR_REP8)
        return 32; /* eight dwords, read twice */
    if (o->region == GR_SPLAT2)
        return 8; /* two dwords, eight times each */
    unsigned exec = i->exec ? i->exec : 8;
    if (i->op == GOP_PLN && srcno == 1)
        return 8u * exec; /* X and Y per 8 channels */
    return 4u * exec;
}

/*
 * Intervals of every vreg (s > e: never referenced) and the last
 * instruction that reads each payload GRF (-1: none; payload registers hold
 * their value from the thread's start; r0, the thread header that scratch
 * and message headers copy, lives throughout).
 */
static void compute_intervals(const struct gen_program *p, const struct csr *refs,
                              const struct flow *f, int32_t *s, int32_t *e,
                              int32_t fixed_e[GEN_NUM_GRFS])
{
    for (unsigned v = 0; v < p->nvreg; v++) {
        uint32_t a = refs->first[v], b = refs->first[v + 1];
        if (a == b) {
            s[v] = 1;
            e[v] = 0;
            continue;
        }
        s[v] = (int32_t)refs->at[a];
        e[v] = (int32_t)refs->at[b - 1];
        widen_over_loops(f, &s[v], &e[v]);
    }
    for (unsigned g = 0; g < GEN_NUM_GRFS; g++)
        fixed_e[g] = -1;
    for (unsigned k = 0; k < p->ninst; k++) {
        const struct gen_inst *i = &p->inst[k];
        for (unsigned sn = 0; sn < 4; sn++) {
            const struct gen_opnd *o = opnd(i, sn);
            if (o->kind != GO_FIXED)
                continue;
            uint32_t ext = fixed_extent(i, sn ? sn - 1 : 0, o);
            for (uint32_t g = o->off / GEN_GRF_SIZE;
                 g <= (o->off + ext - 1) / GEN_GRF_SIZE && g < GEN_NUM_GRFS; g++)
                fixed_e[g] = (int32_t)k;
        }
    }
    for (unsigned g = 0; g < GEN_NUM_GRFS; g++)
        if (fixed_e[g] >= 0) {
            int32_t fs = -1;
            widen_over_loops(f, &fs, &fixed_e[g]);
        }
    fixed_e[0] = (int32_t)p->ninst;
}

/* ------------------------------------------------------------------ */
/* Dead code.                                                          */

/*
 * Mark and sweep.  Instructions that act beyond the registers (flow,
 * messages without a register result, the EOT) are live; so is the
 * definition of every vreg a live instruction reads (all of them: a value
 * written in parts needs every part), and the flag write a live predicated
 * instruction reads: the last one before it, when no control flow comes
 * between (isel puts a flag's readers right after its writer; a flag
 * written before control flow is taken to be read there).
 */
void gen_dce(struct gen_program *p)
{
    unsigned n = p->ninst, nv = p->nvreg;
    if (!n)
        return;
    bool *live = calloc(n, sizeof(*live));
    /* a vreg read once has every def marked: later reads skip them (a vreg
     * written d times and read r times costs d + r, not d x r) */
    bool *read = calloc(nv ? nv : 1, sizeof(*read));
    int32_t *dep = malloc(n * sizeof(*dep));
    uint32_t *work = malloc(n * sizeof(*work));
    struct csr defs = {NULL, NULL};
    if (!live || !read || !dep || !work || !build_refs(p, &defs, true)) {
        p->oom = true;
        goto out;
    }
    unsigned top = 0;
    int32_t last_write[2] = {-1, -1};
    for (unsigned k = 0; k < n; k++) {
        const struct gen_inst *i = &p->inst[k];
        const struct gen_op_info *oi = &gen_op_info[i->op];
        unsigned fl = i->flag & 1;
        dep[k] = i->pred != GP_NONE ? last_write[fl] : -1;
        if (oi->flow || i->op == GOP_LABEL) {
            for (unsigned f2 = 0; f2 < 2; f2++)
                if (last_write[f2] >= 0 && !live[last_write[f2]]) {
                    live[last_write[f2]] = true;
                    work[top++] = (uint32_t)last_write[f2];
                }
            last_write[0] = last_write[1] = -1;
        }
        if (gen_cmod_writes_flag(i))
            last_write[fl] = (int32_t)k;
        bool root = oi->flow || i->op == GOP_LABEL || i->eot ||
                    (i->dst.kind != GO_VREG && !(gen_cmod_writes_flag(i) && i->dst.kind == GO_NULL));
        if (root && !live[k]) {
            live[k] = true;
            work[top++] = k;
        }
    }
    while (top) {
        const struct gen_inst *i = &p->inst[work[--top]];
        unsigned k = (unsigned)(i - p->inst);
        for (unsigned s = 0; s < 3; s++) {
            if (i->src[s].kind != GO_VREG || i->src[s].vreg >= nv)
                continue;
            uint32_t v = i->src[s].vreg;
            if (read[v])
                continue;
            read[v] = true;
            for (uint32_t d = defs.first[v]; d < defs.first[v + 1]; d++)
                if (!live[defs.at[d]]) {
                    live[defs.at[d]] = true;
                    work[top++] = defs.at[d];
                }
        }
        if (dep[k] >= 0 && !live[dep[k]]) {
            live[dep[k]] = true;
            work[top++] = (uint32_t)dep[k];
        }
    }
    unsigned w = 0;
    for (unsigned k = 0; k < n; k++)
        if (live[k])
            p->inst[w++] = p->inst[k];
    p->ninst = w;
out:
    free(live);
    free(read);
    free(dep);
    free(work);
    csr_free(&defs);
}

/* ------------------------------------------------------------------ */
/* Coalescing on intervals.                                            */

static uint32_t uf_find(uint32_t *rep, uint32_t v)
{
    while (rep[v] != v) {
        rep[v] = rep[rep[v]];
        v = rep[v];
    }
    return v;
}

static bool plain_copy(const struct gen_program *p, const struct gen_inst *i)
{
    if (i->op != GOP_MOV || i->sat || i->cmod || i->dst.kind != GO_VREG ||
        i->src[0].kind != GO_VREG || i->src[0].neg || i->src[0].abs || i->dst.off ||
        i->src[0].off)
        return false;
    const struct gen_vreg *d = &p->vreg[i->dst.vreg], *s = &p->vreg[i->src[0].vreg];
    return i->dst.vreg != i->src[0].vreg && d->size == s->size && d->uniform == s->uniform &&
           !d->no_spill && !s->no_spill && d->grf_lo == s->grf_lo && d->grf_hi == s->grf_hi &&
           d->spill_slot < 0 && s->spill_slot < 0 && d->half32 == s->half32 &&
           (d->uniform  ? i->exec == 1
            : d->half32 ? 4u * i->exec == d->size && i->group == gen_vreg_first_ch(d)
                        : i->exec == p->simd);
}

/* Renames every operand to its class representative and drops the copies
 * that became self moves. */
static void apply_renames(struct gen_program *p, uint32_t *rep)
{
    unsigned w = 0;
    for (unsigned k = 0; k < p->ninst; k++) {
        struct gen_inst *i = &p->inst[k];
        for (unsigned s = 0; s < 4; s++) {
            struct gen_opnd *o = (struct gen_opnd *)opnd(i, s);
            if (o->kind == GO_VREG)
                o->vreg = uf_find(rep, o->vreg);
        }
        if (i->op == GOP_MOV && i->dst.kind == GO_VREG && i->src[0].kind == GO_VREG &&
            i->dst.vreg == i->src[0].vreg && i->dst.off == i->src[0].off && !i->src[0].neg &&
            !i->src[0].abs && !i->sat && !i->cmod && i->dst.type == i->src[0].type)
            continue;
        p->inst[w++] = *i;
    }
    p->ninst = w;
}

/* Members of each coalescing class: a linked list through next[], from head[rep]. */
struct classes {
    uint32_t *rep, *head, *next, *tail, *size;
};

static void classes_free(struct classes *c)
{
    free(c->rep);
    free(c->head);
    free(c->next);
    free(c->tail);
    free(c->size);
}

static bool classes_init(struct classes *c, unsigned nv)
{
    c->rep = malloc((nv + 1) * sizeof(uint32_t));
    c->head = malloc((nv + 1) * sizeof(uint32_t));
    c->next = malloc((nv + 1) * sizeof(uint32_t));
    c->tail = malloc((nv + 1) * sizeof(uint32_t));
    c->size = malloc((nv + 1) * sizeof(uint32_t));
    if (!c->rep || !c->head || !c->next || !c->tail || !c->size) {
        classes_free(c);
        return false;
    }
    for (uint32_t v = 0; v < nv; v++) {
        c->rep[v] = c->head[v] = c->tail[v] = v;
        c->next[v] = UINT32_MAX;
        c->size[v] = 1;
    }
    return true;
}

/* Merges class b into class a (both representatives). */
static void classes_union(struct classes *c, uint32_t a, uint32_t b)
{
    c->rep[b] = a;
    c->next[c->tail[a]] = c->head[b];
    c->tail[a] = c->tail[b];
    c->size[a] += c->size[b];
}

/* Does a member of class r (a representative) appear in instructions lo..hi? */
static bool class_referenced(const struct classes *c, const struct csr *refs, uint32_t r,
                             uint32_t lo, uint32_t hi)
{
    if (lo > hi)
        return false;
    for (uint32_t m = c->head[r]; m != UINT32_MAX; m = c->next[m]) {
        /* first reference at or after lo */
        uint32_t a = refs->first[m], b = refs->first[m + 1];
        while (a < b) {
            uint32_t mid = a + (b - a) / 2;
            if (refs->at[mid] < lo)
                a = mid + 1;
            else
                b = mid;
        }
        if (a < refs->first[m + 1] && refs->at[a] <= hi)
            return true;
    }
    return false;
}

/*
 * A copy P = N at the end of a loop body (only copies follow it before the
 * WHILE), where N is defined once, in straight-line code before the copy,
 * and used only there, while P is not touched between N's definition and
 * the WHILE: P's old value is dead from N's definition on, so N can be
 * computed in P's register.  Interval overlap cannot see this (P lives
 * around the whole loop), precise liveness at the latch can.
 */
static bool latch_copy(const struct gen_program *p, const struct csr *refs,
                       const struct classes *c, const uint32_t *flow_before, unsigned k)
{
    const struct gen_inst *cp = &p->inst[k];
    uint32_t P = uf_find(c->rep, cp->dst.vreg), N = uf_find(c->rep, cp->src[0].vreg);
    if (cp->pred != GP_NONE || c->size[N] != 1 || c->size[P] > 16)
        return false;
    unsigned w = k + 1;
    while (w < p->ninst && p->inst[w].op == GOP_MOV && !p->inst[w].pred)
        w++;
    if (w >= p->ninst || p->inst[w].op != GOP_WHILE)
        return false;
    if (class_referenced(c, refs, P, k + 1, w - 1) || class_referenced(c, refs, N, k + 1, w - 1))
        return false;
    /* N: referenced by exactly one definition before k and the copy */
    uint32_t a = refs->first[N], b = refs->first[N + 1];
    if (b - a != 2 || refs->at[a + 1] != k)
        return false;
    unsigned d = refs->at[a];
    const struct gen_inst *i = &p->inst[d];
    if (!(i->dst.kind == GO_VREG && i->dst.vreg == N && i->dst.off == 0 && !i->pred &&
          i->exec == cp->exec && !gen_op_info[i->op].send) ||
        reads(i, N))
        return false;
    /* straight line from the definition to the copy, P untouched there */
    if (flow_before[k] != flow_before[d + 1])
        return false;
    return !class_referenced(c, refs, P, d + 1, k - 1);
}

static unsigned coalesce(struct gen_program *p)
{
    unsigned n = p->ninst, nv = p->nvreg, merged = 0;
    if (!n || !nv)
        return 0;
    struct csr refs = {NULL, NULL};
    struct flow f;
    struct classes c;
    int32_t *s = malloc(nv * sizeof(*s)), *e = malloc(nv * sizeof(*e));
    uint32_t *flow_before = malloc((n + 1) * sizeof(*flow_before));
    int32_t fixed_e[GEN_NUM_GRFS];
    bool have_c = false, have_f = false;
    if (!s || !e || !flow_before || !build_refs(p, &refs, false) || !(have_f = build_flow(p, &f)) ||
        !(have_c = classes_init(&c, nv))) {
        p->oom = true;
        goto out;
    }
    compute_intervals(p, &refs, &f, s, e, fixed_e);
    /* flow_before[k]: control-flow instructions (and labels) before k */
    flow_before[0] = 0;
    for (unsigned k = 0; k < n; k++)
        flow_before[k + 1] = flow_before[k] + (gen_op_info[p->inst[k].op].flow || p->inst[k].op == GOP_LABEL);
    for (unsigned k = 0; k < n; k++) {
        const struct gen_inst *i = &p->inst[k];
        if (!plain_copy(p, i))
            continue;
        uint32_t d = uf_find(c.rep, i->dst.vreg), sv = uf_find(c.rep, i->src[0].vreg);
        if (d == sv)
            continue;
        /* the source dies at the copy and the destination starts there,
         * or the two never overlap */
        bool ok = (e[sv] <= (int32_t)k && s[d] >= (int32_t)k) || e[sv] < s[d] || e[d] < s[sv];
        if (!ok && latch_copy(p, &refs, &c, flow_before, k)) {
            /* the loop-carried value: compute the next iteration's value in place */
            classes_union(&c, d, sv);
            merged++;
            continue;
        }
        if (!ok)
            continue;
        s[sv] = s[sv] < s[d] ? s[sv] : s[d];
        e[sv] = e[sv] > e[d] ? e[sv] : e[d];
        classes_union(&c, sv, d);
        merged++;
    }
    if (merged)
        apply_renames(p, c.rep);
out:
    free(s);
    free(e);
    free(flow_before);
    csr_free(&refs);
    if (have_f)
        flow_free(&f);
    if (have_c)
        classes_free(&c);
    return merged;
}

/* ------------------------------------------------------------------ */
/* Coalescing on per-channel liveness.                                 */

/*
 * The interval model above must widen a value live out of a loop to the
 * whole loop, so a phi of a loop exit (written on the break edges) and the
 * loop-carried phi it copies look alive together, and every such copy keeps
 * a register of its own: fuzz-07's 17 vec4 temporaries needed 3 x 68 GRFs
 * across its loop.  Per channel the kernel is a scalar program: a channel
 * runs exactly the instructions of its own path (a break or a failing IF
 * disables it until the loop's end / the ENDIF, and a masked write leaves
 * the lanes of disabled channels alone).  So two values that are never
 * alive together on any single channel's path may share a register, as in
 * any scalar allocator, provided every write of them is masked: a NoMask
 * write (a uniform value, a message header) reaches the lanes of channels
 * that are waiting elsewhere, which is why only such "maskable" values
 * take part here and everything else stays with the intervals.
 *
 * The scalar CFG of the linear program: IF -> next / after ELSE (or the
 * ENDIF); ELSE -> ENDIF; BREAK -> after the WHILE (and next when
 * predicated); CONT -> the WHILE (and next); an unpredicated WHILE -> its
 * label only (an enabled channel always goes round again; channels reach
 * the code after the loop only through a BREAK).  Phi moves of an edge
 * some channels take are predicated moves right before the predicated
 * BREAK / CONT (same flag and sense) or IF (the opposite sense): they are
 * modelled as lying on that edge, so they are whole definitions there and
 * the other channels skip them.
 *
 * Interference is Chaitin's: two values interfere when one is alive after
 * a definition of the other, except at a copy between them (both hold the
 * same value).  Coalescing here never raises the number of values alive at
 * any point of the interval model (both intervals contain the copy, so the
 * merged interval is their union), so colouring needs no Briggs/George
 * test.
 *
 * Liveness is computed only for the values of candidate copies, one value
 * at a time, by walking backwards from its uses until its whole
 * definitions (the work is the size of the answer: the instructions where
 * it is alive), and kept as sorted runs of instructions.
 */

struct live {
    unsigned n;
    int32_t (*succ)[2]; /* -1: none */
    int32_t *skip;      /* a predicated edge-move chain: channels that skip it go here */
    bool *kill;         /* a whole definition of dst (all channels that run it) */
};

static bool dword_type(uint8_t t)
{
    return t == GT_F || t == GT_D || t == GT_UD;
}

/* Writes channels group .. group+exec-1 of a divergent dword, each in its own lane. */
static bool lane_def(const struct gen_program *p, const struct gen_inst *i)
{
    if (i->dst.kind != GO_VREG || gen_op_info[i->op].send || !dword_type(i->dst.type))
        return false;
    const struct gen_vreg *v = &p->vreg[i->dst.vreg];
    unsigned first = gen_vreg_first_ch(v);
    return !v->uniform && v->size == gen_vreg_dsize(p, v) && i->group >= first &&
           i->dst.off == 4u * (i->group - first) && i->dst.off + 4u * i->exec <= v->size;
}

/* Writes every channel's lane of a divergent dword (for the channels that run it). */
static bool whole_def(const struct gen_program *p, const struct gen_inst *i)
{
    return lane_def(p, i) && i->dst.off == 0 && 4u * i->exec == p->vreg[i->dst.vreg].size;
}

/*
 * Every write of v is a masked write of its own channels' lanes: a whole
 * SIMD write, a predicated one, or one channel group (the halves of a
 * SIMD32 interpolation or message copy, the subspans of a derivative).
 */
static void maskable_vregs(const struct gen_program *p, bool *ok)
{
    for (unsigned v = 0; v < p->nvreg; v++)
        ok[v] = !p->vreg[v].uniform && !p->vreg[v].no_spill &&
                p->vreg[v].size == gen_vreg_dsize(p, &p->vreg[v]) &&
                p->vreg[v].spill_slot < 0;
    for (unsigned k = 0; k < p->ninst; k++) {
        const struct gen_inst *i = &p->inst[k];
        if (i->dst.kind == GO_VREG && (i->nomask || !lane_def(p, i)))
            ok[i->dst.vreg] = false;
    }
}

static bool edge_mov(const struct gen_inst *i, uint8_t pred, uint8_t flag)
{
    return i->op == GOP_MOV && i->pred == pred && i->flag == flag && !i->cmod &&
           i->dst.kind == GO_VREG && !i->nomask;
}

/* False when the flow does not nest (or, *oom set, memory ran out). */
static bool build_cfg(const struct gen_program *p, struct live *L, bool *oom)
{
    unsigned n = p->ninst;
    int32_t *match = malloc((n + 1) * sizeof(*match)); /* IF->ELSE/ENDIF, ELSE->ENDIF, WHILE->LABEL, LABEL->WHILE */
    int32_t *encl = malloc((n + 1) * sizeof(*encl));   /* BREAK/CONT -> WHILE */
    int32_t *stack = malloc((n + 1) * sizeof(*stack));
    if (!match || !encl || !stack) {
        free(match);
        free(encl);
        free(stack);
        *oom = true;
        return false;
    }
    unsigned sp = 0;
    bool ok = true;
    for (unsigned k = 0; k < n; k++) {
        match[k] = encl[k] = -1;
        uint8_t o = p->inst[k].op;
        if (o == GOP_IF || o == GOP_LABEL) {
            stack[sp++] = (int32_t)k;
        } else if (o == GOP_ELSE) {
            if (!sp || p->inst[stack[sp - 1]].op != GOP_IF) {
                ok = false;
                break;
            }
            match[stack[sp - 1]] = (int32_t)k;
            stack[sp - 1] = (int32_t)k;
        } else if (o == GOP_ENDIF || o == GOP_WHILE) {
            uint8_t want = o == GOP_WHILE ? GOP_LABEL : GOP_IF;
            if (!sp || (p->inst[stack[sp - 1]].op != want &&
                        !(o == GOP_ENDIF && p->inst[stack[sp - 1]].op == GOP_ELSE))) {
                ok = false;
                break;
            }
            int32_t top = stack[--sp];
            if (o == GOP_ENDIF)
                match[top] = (int32_t)k; /* IF or ELSE -> ENDIF */
            else {
                match[k] = top;
                match[top] = (int32_t)k;
            }
        }
    }
    if (sp)
        ok = false;
    /* the innermost loop of every BREAK / CONT */
    sp = 0;
    for (unsigned k = 0; ok && k < n; k++) {
        uint8_t o = p->inst[k].op;
        if (o == GOP_LABEL)
            stack[sp++] = match[k];
        else if (o == GOP_WHILE && sp)
            sp--;
        else if (o == GOP_BREAK || o == GOP_CONT) {
            if (!sp) {
                ok = false;
                break;
            }
            encl[k] = stack[sp - 1];
        }
    }
    for (unsigned k = 0; ok && k < n; k++) {
        const struct gen_inst *i = &p->inst[k];
        int32_t next = k + 1 < n ? (int32_t)k + 1 : -1;
        int32_t *s = L->succ[k];
        s[0] = next;
        s[1] = -1;
        L->skip[k] = -1;
        L->kill[k] = whole_def(p, i) && i->pred == GP_NONE;
        switch (i->op) {
        case GOP_IF: {
            int32_t m = match[k];
            s[1] = p->inst[m].op == GOP_ELSE ? m + 1 : m;
            break;
        }
        case GOP_ELSE:
            s[0] = match[k];
            break;
        case GOP_WHILE:
            s[0] = match[k];
            s[1] = i->pred != GP_NONE ? next : -1;
            break;
        case GOP_BREAK:
        case GOP_CONT: {
            int32_t t = i->op == GOP_BREAK ? encl[k] + 1 : encl[k];
            s[0] = t < (int32_t)n ? t : -1;
            s[1] = i->pred != GP_NONE ? next : -1;
            break;
        }
        default:
            if (i->eot)
                s[0] = -1;
            break;
        }
    }
    /* predicated edge moves: BREAK/CONT with the same predicate, IF with the opposite */
    for (unsigned b = 1; ok && b < n; b++) {
        const struct gen_inst *br = &p->inst[b];
        if (br->pred == GP_NONE ||
            (br->op != GOP_BREAK && br->op != GOP_CONT && br->op != GOP_IF))
            continue;
        uint8_t pred = br->op == GOP_IF ? (br->pred == GP_NORMAL ? GP_INVERT : GP_NORMAL) : br->pred;
        unsigned c0 = b;
        while (c0 > 0 && edge_mov(&p->inst[c0 - 1], pred, br->flag))
            c0--;
        if (c0 == b)
            continue;
        /* the moves' channels take the edge: the IF's jump or the BREAK/CONT target */
        int32_t target = br->op == GOP_IF ? L->succ[b][1] : L->succ[b][0];
        L->succ[b - 1][0] = target;
        L->succ[b - 1][1] = -1;
        L->skip[c0] = (int32_t)b + 1 < (int32_t)n ? (int32_t)b + 1 : -1;
        for (unsigned c = c0; c < b; c++)
            L->kill[c] = whole_def(p, &p->inst[c]);
    }
    free(match);
    free(encl);
    free(stack);
    return ok;
}

/*
 * Sorts a[0..n) ascending with tmp[0..n) as room: a natural merge sort (no
 * recursion).  The backward walks of live_runs list instructions in long
 * descending stretches, so this is close to linear in practice.
 */
static void sort_u32(uint32_t *a, size_t n, uint32_t *tmp)
{
    if (n < 2)
        return;
    /* turn descending stretches around, so that the input is ascending runs */
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && a[j] < a[j - 1])
            j++;
        for (size_t x = i, y = j - 1; x < y; x++, y--) {
            uint32_t t = a[x];
            a[x] = a[y];
            a[y] = t;
        }
        i = j;
    }
    for (;;) {
        /* merge neighbouring ascending runs pairwise into tmp, then back */
        size_t i = 0, k = 0;
        bool merged = false;
        while (i < n) {
            size_t mid = i + 1;
            while (mid < n && a[mid] >= a[mid - 1])
                mid++;
            size_t hi = mid;
            if (hi < n) {
                hi++;
                while (hi < n && a[hi] >= a[hi - 1])
                    hi++;
                merged = true;
            }
            size_t x = i, y = mid;
            while (x < mid && y < hi)
                tmp[k++] = a[x] <= a[y] ? a[x++] : a[y++];
            while (x < mid)
                tmp[k++] = a[x++];
            while (y < hi)
                tmp[k++] = a[y++];
            i = hi;
        }
        memcpy(a, tmp, n * sizeof(*a));
        if (!merged)
            return;
    }
}

/*
 * Runs [lo, hi] of instructions where a class is live on entry, per class
 * (sorted, disjoint), each class in an array of its own, and how many
 * instructions they cover.
 */
struct runs {
    uint32_t **arr; /* pairs */
    uint32_t *cnt, *cap;
    uint64_t *len;
};

static bool runs_reserve(struct runs *r, uint32_t v, uint32_t pairs)
{
    if (pairs <= r->cap[v])
        return true;
    uint32_t nc = r->cap[v] ? r->cap[v] : 4;
    while (nc < pairs)
        nc *= 2;
    uint32_t *na = realloc(r->arr[v], (size_t)nc * 2 * sizeof(*na));
    if (!na)
        return false;
    r->arr[v] = na;
    r->cap[v] = nc;
    return true;
}

static bool runs_has(const struct runs *r, uint32_t v, uint32_t k)
{
    const uint32_t *q = r->arr[v];
    uint32_t a = 0, b = r->cnt[v];
    while (a < b) { /* first run with hi >= k */
        uint32_t mid = a + (b - a) / 2;
        if (q[2 * mid + 1] < k)
            a = mid + 1;
        else
            b = mid;
    }
    return a < r->cnt[v] && q[2 * a] <= k;
}

/* Liveness of v (live on entry to each instruction) into its runs. */
static bool live_runs(const struct gen_program *p, const struct live *L, const struct csr *refs,
                      const uint32_t *pfirst, const uint32_t *pred, uint32_t *stamp, uint32_t *work,
                      uint32_t *seen, uint32_t *tmp, struct runs *r, uint32_t v)
{
    unsigned top = 0, nseen = 0;
    uint32_t tag = v + 1;
    for (uint32_t a = refs->first[v]; a < refs->first[v + 1]; a++) {
        uint32_t u = refs->at[a];
        if (reads(&p->inst[u], v) && stamp[u] != tag) {
            stamp[u] = tag;
            work[top++] = u;
            seen[nseen++] = u;
        }
    }
    while (top) {
        uint32_t j = work[--top];
        for (uint32_t q = pfirst[j]; q < pfirst[j + 1]; q++) {
            uint32_t pk = pred[q] >> 1;
            bool bypass = pred[q] & 1;
            if (stamp[pk] == tag)
                continue;
            if (!bypass && L->kill[pk] && writes(&p->inst[pk], v))
                continue;
            stamp[pk] = tag;
            work[top++] = pk;
            seen[nseen++] = pk;
        }
    }
    sort_u32(seen, nseen, tmp);
    r->cnt[v] = 0;
    r->len[v] = nseen;
    for (unsigned x = 0; x < nseen;) {
        unsigned y = x;
        while (y + 1 < nseen && seen[y + 1] == seen[y] + 1)
            y++;
        if (!runs_reserve(r, v, r->cnt[v] + 1))
            return false;
        r->arr[v][2 * r->cnt[v]] = seen[x];
        r->arr[v][2 * r->cnt[v] + 1] = seen[y];
        r->cnt[v]++;
        x = y + 1;
    }
    return true;
}

/*
 * The union of the runs of a and b becomes a's.  Only the part of a from
 * b's first run on is rewritten: a class grows along a chain of copies
 * through the program, so that part is short and a union costs about the
 * size of b, not of a.
 */
static bool runs_union(struct runs *r, uint32_t a, uint32_t b, uint32_t *tmp)
{
    uint32_t nb = r->cnt[b];
    if (!nb)
        return true;
    const uint32_t *qb = r->arr[b];
    uint32_t *qa = r->arr[a];
    /* the first run of a that may touch b's first: hi + 1 >= lo */
    uint32_t i0 = 0, hi0 = r->cnt[a];
    while (i0 < hi0) {
        uint32_t mid = i0 + (hi0 - i0) / 2;
        if (qa[2 * mid + 1] + 1 < qb[0])
            i0 = mid + 1;
        else
            hi0 = mid;
    }
    uint32_t ia = i0, ib = 0, na = r->cnt[a], n = 0;
    while (ia < na || ib < nb) {
        uint32_t lo, hi;
        if (ib >= nb || (ia < na && qa[2 * ia] <= qb[2 * ib])) {
            lo = qa[2 * ia];
            hi = qa[2 * ia + 1];
            ia++;
        } else {
            lo = qb[2 * ib];
            hi = qb[2 * ib + 1];
            ib++;
        }
        if (n && tmp[2 * n - 1] + 1 >= lo) {
            if (hi > tmp[2 * n - 1])
                tmp[2 * n - 1] = hi;
            continue;
        }
        tmp[2 * n] = lo;
        tmp[2 * n + 1] = hi;
        n++;
    }
    if (!runs_reserve(r, a, i0 + n))
        return false;
    memcpy(r->arr[a] + 2 * i0, tmp, (size_t)n * 2 * sizeof(*tmp));
    r->cnt[a] = i0 + n;
    r->len[a] += r->len[b]; /* an upper bound is enough: it only picks a way to test */
    return true;
}

static bool live_after(const struct live *L, const struct runs *r, unsigned k, uint32_t v)
{
    for (unsigned e = 0; e < 2; e++)
        if (L->succ[k][e] >= 0 && runs_has(r, v, (uint32_t)L->succ[k][e]))
            return true;
    return false;
}

/* A copy into a from (a member of) class b: both then hold the same value. */
static bool copy_from(const struct gen_inst *i, uint32_t *rep, uint32_t b)
{
    return i->op == GOP_MOV && i->src[0].kind == GO_VREG && !i->src[0].neg && !i->src[0].abs &&
           !i->sat && !i->src[0].off && i->dst.type == i->src[0].type &&
           (i->src[0].region == GR_AUTO || i->src[0].region == GR_VEC) &&
           uf_find(rep, i->src[0].vreg) == b;
}

/*
 * Does a definition of a member of class a meet class b alive (copies from
 * b excepted)?  Either a's definitions are walked, or the instructions
 * where b is alive and the instructions that lead to them, whichever is
 * fewer: a class that grew along a long chain of copies has many
 * definitions, the value it meets is alive in a few places.
 */
static bool defs_meet(const struct gen_program *p, const struct live *L, const struct runs *r,
                      uint32_t *rep, const int32_t *def_head, const int32_t *def_next,
                      const int32_t *def_inst, const uint32_t *ndefs, const uint32_t *pfirst,
                      const uint32_t *pred, uint32_t a, uint32_t b)
{
    if (ndefs[a] <= r->len[b]) {
        for (int32_t d = def_head[a]; d >= 0; d = def_next[d]) {
            unsigned k = (unsigned)def_inst[d];
            const struct gen_inst *i = &p->inst[k];
            if (!copy_from(i, rep, b) && live_after(L, r, k, b))
                return true;
        }
        return false;
    }
    for (uint32_t x = 0; x < r->cnt[b]; x++)
        for (uint32_t j = r->arr[b][2 * x]; j <= r->arr[b][2 * x + 1]; j++)
            for (uint32_t q = pfirst[j]; q < pfirst[j + 1]; q++) {
                if (pred[q] & 1)
                    continue; /* a skip edge: live_after follows successors only */
                const struct gen_inst *i = &p->inst[pred[q] >> 1];
                if (i->dst.kind == GO_VREG && uf_find(rep, i->dst.vreg) == a && !copy_from(i, rep, b))
                    return true;
            }
    return false;
}

/* A plain copy between two maskable values the per-channel pass may merge. */
static bool channel_copy(const struct gen_program *p, const struct gen_inst *i, const bool *ok)
{
    /* a mov between types converts (f <-> d), a scalar or derivative
     * region broadcasts: neither copies the value */
    return plain_copy(p, i) && i->dst.type == i->src[0].type &&
           (i->src[0].region == GR_AUTO || i->src[0].region == GR_VEC) && ok[i->dst.vreg] &&
           ok[i->src[0].vreg];
}

static unsigned coalesce_live(struct gen_program *p)
{
    unsigned n = p->ninst, nv = p->nvreg, merged = 0;
    if (!n || !nv)
        return 0;
    struct live L = {n, NULL, NULL, NULL};
    struct runs R = {NULL, NULL, NULL, NULL};
    struct csr refs = {NULL, NULL};
    L.succ = malloc(n * sizeof(*L.succ));
    L.skip = malloc(n * sizeof(*L.skip));
    L.kill = malloc(n * sizeof(*L.kill));
    bool *ok = malloc(nv * sizeof(*ok)), *cand = calloc(nv, sizeof(*cand));
    uint32_t *rep = malloc(nv * sizeof(*rep)), *ndefs = calloc(nv, sizeof(*ndefs));
    int32_t *def_head = malloc(nv * sizeof(*def_head)), *def_tail = malloc(nv * sizeof(*def_tail));
    int32_t *def_next = malloc(n * sizeof(*def_next)), *def_inst = malloc(n * sizeof(*def_inst));
    uint32_t *pfirst = calloc(n + 2, sizeof(*pfirst)), *pred = malloc(3 * n * sizeof(*pred) + 4);
    uint32_t *stamp = calloc(n, sizeof(*stamp)), *work = malloc(n * sizeof(*work));
    uint32_t *seen = malloc(n * sizeof(*seen)), *tmp = malloc((2 * (size_t)n + 4) * sizeof(*tmp));
    R.arr = calloc(nv, sizeof(*R.arr));
    R.cnt = calloc(nv, sizeof(*R.cnt));
    R.cap = calloc(nv, sizeof(*R.cap));
    R.len = calloc(nv, sizeof(*R.len));
    if (!L.succ || !L.skip || !L.kill || !ok || !cand || !rep || !ndefs || !def_head || !def_tail ||
        !def_next || !def_inst || !pfirst || !pred || !stamp || !work || !seen || !tmp || !R.arr ||
        !R.cnt || !R.cap || !R.len) {
        p->oom = true;
        goto out;
    }
    maskable_vregs(p, ok);
    bool any = false;
    for (unsigned k = 0; k < n; k++)
        if (channel_copy(p, &p->inst[k], ok)) {
            cand[p->inst[k].dst.vreg] = cand[p->inst[k].src[0].vreg] = true;
            any = true;
        }
    bool no_memory = false;
    if (!any)
        goto out;
    if (!build_cfg(p, &L, &no_memory)) {
        p->oom |= no_memory; /* (flow that does not nest: no coalescing, which is no error) */
        goto out;
    }
    if (!build_refs(p, &refs, false)) {
        p->oom = true;
        goto out;
    }
    /* predecessors: (k << 1) for k -> j, (k << 1 | 1) for a skip edge k => j */
    for (unsigned k = 0; k < n; k++) {
        for (unsigned e = 0; e < 2; e++)
            if (L.succ[k][e] >= 0)
                pfirst[L.succ[k][e] + 2]++;
        if (L.skip[k] >= 0)
            pfirst[L.skip[k] + 2]++;
    }
    for (unsigned k = 0; k < n; k++)
        pfirst[k + 2] += pfirst[k + 1];
    for (unsigned k = 0; k < n; k++) {
        for (unsigned e = 0; e < 2; e++)
            if (L.succ[k][e] >= 0)
                pred[pfirst[L.succ[k][e] + 1]++] = (uint32_t)k << 1;
        if (L.skip[k] >= 0)
            pred[pfirst[L.skip[k] + 1]++] = (uint32_t)k << 1 | 1;
    }
    for (uint32_t v = 0; v < nv; v++)
        if (cand[v] && !live_runs(p, &L, &refs, pfirst, pred, stamp, work, seen, tmp, &R, v)) {
            p->oom = true;
            goto out;
        }
    for (uint32_t v = 0; v < nv; v++) {
        rep[v] = v;
        def_head[v] = def_tail[v] = -1;
    }
    unsigned nd = 0;
    for (unsigned k = 0; k < n; k++) {
        const struct gen_inst *i = &p->inst[k];
        if (i->dst.kind != GO_VREG)
            continue;
        uint32_t v = i->dst.vreg;
        def_inst[nd] = (int32_t)k;
        def_next[nd] = -1;
        if (def_tail[v] >= 0)
            def_next[def_tail[v]] = (int32_t)nd;
        else
            def_head[v] = (int32_t)nd;
        def_tail[v] = (int32_t)nd;
        ndefs[v]++;
        nd++;
    }
    for (unsigned k = 0; k < n; k++) {
        const struct gen_inst *i = &p->inst[k];
        if (!channel_copy(p, i, ok))
            continue;
        uint32_t a = uf_find(rep, i->src[0].vreg), b = uf_find(rep, i->dst.vreg);
        if (a == b)
            continue;
        if (defs_meet(p, &L, &R, rep, def_head, def_next, def_inst, ndefs, pfirst, pred, a, b) ||
            defs_meet(p, &L, &R, rep, def_head, def_next, def_inst, ndefs, pfirst, pred, b, a))
            continue;
        /* merge b into a: definitions and liveness are the union (the longer
         * list of runs stays where it is and takes in the shorter one) */
        if (R.cnt[a] < R.cnt[b]) {
            uint32_t *t = R.arr[a], c = R.cnt[a], cp = R.cap[a];
            uint64_t l = R.len[a];
            R.arr[a] = R.arr[b];
            R.cnt[a] = R.cnt[b];
            R.cap[a] = R.cap[b];
            R.len[a] = R.len[b];
            R.arr[b] = t;
            R.cnt[b] = c;
            R.cap[b] = cp;
            R.len[b] = l;
        }
        if (!runs_union(&R, a, b, tmp)) {
            p->oom = true;
            goto out;
        }
        rep[b] = a;
        ndefs[a] += ndefs[b];
        if (def_head[b] >= 0) {
            if (def_tail[a] >= 0)
                def_next[def_tail[a]] = def_head[b];
            else
                def_head[a] = def_head[b];
            def_tail[a] = def_tail[b];
        }
        merged++;
    }
    if (merged)
        apply_renames(p, rep);
out:
    free(L.succ);
    free(L.skip);
    free(L.kill);
    free(ok);
    free(cand);
    free(rep);
    free(ndefs);
    free(def_head);
    free(def_tail);
    free(def_next);
    free(def_inst);
    free(pfirst);
    free(pred);
    free(stamp);
    free(work);
    free(seen);
    free(tmp);
    for (uint32_t v = 0; R.arr && v < nv; v++)
        free(R.arr[v]);
    free(R.arr);
    free(R.cnt);
    free(R.cap);
    free(R.len);
    csr_free(&refs);
    return merged;
}

/* ------------------------------------------------------------------ */
/* Analysis shared by spilling and colouring.                          */

struct alloc {
    struct gen_program *p;
    struct csr refs;
    struct flow fl;
    int32_t *s, *e; /* interval per vreg */
    int32_t fixed_e[GEN_NUM_GRFS];
    bool ready;
};

static void alloc_free(struct alloc *a)
{
    csr_free(&a->refs);
    if (a->ready)
        flow_free(&a->fl);
    free(a->s);
    free(a->e);
    a->s = a->e = NULL;
    a->ready = false;
}

static bool alloc_analyse(struct alloc *a, struct gen_program *p)
{
    memset(a, 0, sizeof(*a));
    a->p = p;
    a->s = malloc((p->nvreg + 1) * sizeof(int32_t));
    a->e = malloc((p->nvreg + 1) * sizeof(int32_t));
    if (!a->s || !a->e || !build_refs(p, &a->refs, false) || !build_flow(p, &a->fl)) {
        csr_free(&a->refs);
        free(a->s);
        free(a->e);
        a->s = a->e = NULL;
        return false;
    }
    a->ready = true;
    compute_intervals(p, &a->refs, &a->fl, a->s, a->e, a->fixed_e);
    return true;
}

/* Size of a value in the pressure count: whole GRFs, or dwords of a sub-GRF value. */
static void units(const struct gen_vreg *v, uint32_t *grfs, uint32_t *dwords)
{
    if (v->size % GEN_GRF_SIZE == 0) {
        *grfs = v->size / GEN_GRF_SIZE;
        *dwords = 0;
    } else {
        *grfs = 0;
        *dwords = (v->size + 3) / 4;
    }
}

/*
 * A source of v's first instruction that dies there and whose place v may
 * take: same size and kind, read lane for lane (or as the same scalar) by
 * an ALU instruction, so the instruction reads it before writing over it.
 * Returns that source + 1, or 0.
 */
static uint32_t handoff_source(const struct alloc *a, uint32_t v)
{
    const struct gen_program *p = a->p;
    const struct gen_vreg *r = &p->vreg[v];
    const struct gen_inst *i = &p->inst[a->s[v]];
    const struct gen_op_info *oi = &gen_op_info[i->op];
    if (!writes(i, v) || i->dst.off || oi->send || oi->flow || i->op == GOP_PLN ||
        !dword_type(i->dst.type) ||
        (r->uniform  ? i->exec != 1 || i->group
         : r->half32 ? !whole_def(p, i)
                     : i->exec != p->simd || i->group))
        return 0;
    for (unsigned s = 0; s < oi->nsrc; s++) {
        const struct gen_opnd *o = &i->src[s];
        if (o->kind != GO_VREG || o->vreg == v || o->off || !dword_type(o->type))
            continue;
        const struct gen_vreg *u = &p->vreg[o->vreg];
        bool lane = r->uniform ? (o->region == GR_AUTO || o->region == GR_SCALAR)
                               : (o->region == GR_AUTO || o->region == GR_VEC);
        if (lane && u->size == r->size && u->uniform == r->uniform && a->e[o->vreg] == a->s[v] &&
            a->s[o->vreg] < a->s[v] && u->grf_lo == r->grf_lo && u->grf_hi == r->grf_hi)
            return o->vreg + 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Spill and remat choice.                                             */

enum { KEEP, SPILL, REMAT };

/* An instruction that recomputes its result from immediates and payload
 * registers alone, with no other effect. */
static bool leaf_def(const struct gen_inst *i)
{
    const struct gen_op_info *oi = &gen_op_info[i->op];
    if (oi->flow || oi->send || i->op == GOP_LABEL || i->cmod || i->pred != GP_NONE ||
        i->dst.kind != GO_VREG || i->eot)
        return false;
    for (unsigned s = 0; s < oi->nsrc; s++)
        if (i->src[s].kind == GO_VREG)
            return false;
    return true;
}

/*
 * v can be recomputed at each use: its definition is one leaf instruction
 * writing all of it (or the two SIMD32 halves of one), and every payload
 * register it reads stays live until v's last use anyway, so recomputing
 * costs no register.  Fills d0 and d1 with the defining instructions (d1: -1 for one).
 */
static bool rematerializable(const struct alloc *a, uint32_t v, int32_t *d0, int32_t *d1)
{
    const struct gen_program *p = a->p;
    const struct gen_vreg *r = &p->vreg[v];
    if (r->no_spill)
        return false;
    int32_t defs[2] = {-1, -1};
    unsigned nd = 0;
    for (uint32_t x = a->refs.first[v]; x < a->refs.first[v + 1]; x++) {
        const struct gen_inst *i = &p->inst[a->refs.at[x]];
        if (!writes(i, v))
            continue;
        if (nd == 2 || !leaf_def(i) || reads(i, v))
            return false;
        defs[nd++] = (int32_t)a->refs.at[x];
    }
    if (nd == 0)
        return false;
    const struct gen_inst *i0 = &p->inst[defs[0]];
    if (nd == 1) {
        bool whole = r->uniform ? (i0->exec == 1 && i0->dst.off == 0 && r->size == 4 &&
                                   dword_type(i0->dst.type))
                                : whole_def(p, i0);
        if (!whole)
            return false;
    } else {
        const struct gen_inst *i1 = &p->inst[defs[1]];
        if (r->uniform || p->simd != 32 || !lane_def(p, i0) || !lane_def(p, i1) ||
            i0->exec != 16 || i1->exec != 16 || i0->group + i1->group != 16 || i0->op != i1->op)
            return false;
    }
    for (unsigned d = 0; d < nd; d++) {
        const struct gen_inst *i = &p->inst[defs[d]];
        for (unsigned s = 0; s < 3; s++) {
            const struct gen_opnd *o = &i->src[s];
            if (o->kind != GO_FIXED)
                continue;
            uint32_t ext = fixed_extent(i, s, o);
            for (uint32_t g = o->off / GEN_GRF_SIZE; g <= (o->off + ext - 1) / GEN_GRF_SIZE; g++)
                if (g >= GEN_NUM_GRFS || a->fixed_e[g] < a->e[v])
                    return false;
        }
    }
    *d0 = defs[0];
    *d1 = defs[1];
    return true;
}

/* A definition that may leave some channels' lanes as they were.  A
 * NoMask write of every byte (two SIMD8 values computed as one SIMD16
 * instruction, gen/opt_pair.c) leaves none. */
static bool partial_def(const struct alloc *a, unsigned k)
{
    const struct gen_inst *i = &a->p->inst[k];
    const struct gen_vreg *v = i->dst.kind == GO_VREG ? &a->p->vreg[i->dst.vreg] : NULL;
    bool all_bytes = v && i->nomask && !v->uniform && !gen_op_info[i->op].send &&
                     i->dst.off == 0 && 4u * i->exec == v->size && dword_type(i->dst.type);
    return !(i->pred == GP_NONE && a->fl.cfdepth[k] == 0 && (whole_def(a->p, i) || all_bytes));
}

/* Spill weight of a reference in instruction k: 8 per loop level (at most 8^5). */
static uint64_t ref_weight(const struct alloc *a, unsigned k)
{
    unsigned d = a->fl.ldepth[k] < 5 ? a->fl.ldepth[k] : 5;
    return 1ull << (3 * d);
}

struct cand {
    uint64_t key; /* cost per byte-instruction of life, scaled: lower spills first */
    int32_t e;
    uint32_t v;
};

static bool cand_less(const struct cand *x, const struct cand *y)
{
    if (x->key != y->key)
        return x->key < y->key;
    if (x->e != y->e)
        return x->e > y->e; /* the one that lives longer */
    return x->v < y->v;
}

static void heap_push(struct cand *h, unsigned *n, struct cand c)
{
    unsigned i = (*n)++;
    while (i) {
        unsigned up = (i - 1) / 2;
        if (!cand_less(&c, &h[up]))
            break;
        h[i] = h[up];
        i = up;
    }
    h[i] = c;
}

static struct cand heap_pop(struct cand *h, unsigned *n)
{
    struct cand top = h[0], last = h[--*n];
    unsigned i = 0;
    for (;;) {
        unsigned l = 2 * i + 1, r = l + 1, m = i;
        const struct cand *best = &last;
        if (l < *n && cand_less(&h[l], best)) {
            m = l;
            best = &h[l];
        }
        if (r < *n && cand_less(&h[r], best))
            m = r;
        if (m == i)
            break;
        h[i] = h[m];
        i = m;
    }
    if (*n)
        h[i] = last;
    return top;
}

/*
 * Chooses what to spill and what to rematerialize so that, at every
 * instruction, the values alive (spilled ones only at the instructions
 * that reference them, as the temporaries that carry them there) fit in
 * cap GRFs.  One sweep in program order; at an instruction over the limit,
 * the alive value not referenced there with the least spill cost per byte
 * and per instruction of its interval is evicted, until the rest fits.
 *
 * A block confined to a GRF range (the EOT payload, r112-r127) adds a
 * second limit: a value alive across the start of that block cannot use
 * the block's registers, so before it the payload plus such values must
 * leave room for the block (values that die earlier may use them: the
 * colouring puts them there).
 *
 * Returns false when it cannot fit (nothing left to evict there) or, with
 * p->oom set, when memory ran out.
 */
struct pressure {
    uint32_t grfs, dwords;
};

static uint32_t in_grfs(struct pressure x)
{
    return x.grfs + (x.dwords + 7) / 8;
}

/* OWord block messages move 1, 2, 4 or 8 OWords: values of half a GRF (a
 * SIMD8 half float) or 1, 2 or 4 GRFs */
static bool spillable(const struct gen_vreg *r, bool remat)
{
    return remat || (!r->no_spill && !r->uniform &&
                     (r->size == GEN_GRF_SIZE / 2 || r->size == GEN_GRF_SIZE ||
                      r->size == 2 * GEN_GRF_SIZE || r->size == 4 * GEN_GRF_SIZE));
}

/* The temporary a spilled value lives in at an instruction: a message
 * writes whole GRFs, so half a GRF takes one of its own. */
static uint32_t spill_temp_size(uint32_t size)
{
    return size < GEN_GRF_SIZE ? GEN_GRF_SIZE : size;
}

static bool choose_spills(const struct alloc *a, uint32_t cap, const uint8_t *less, uint8_t *how,
                          const bool *remat_ok, const uint64_t *cost_spill, const uint64_t *cost_remat)
{
    const struct gen_program *p = a->p;
    unsigned n = p->ninst, nv = p->nvreg;
    bool ok = true;
    uint32_t *sfirst = calloc(n + 2, sizeof(*sfirst)), *efirst = calloc(n + 2, sizeof(*efirst));
    uint32_t *byS = malloc((nv + 1) * sizeof(*byS)), *byE = malloc((nv + 1) * sizeof(*byE));
    /* candidates dying before the confined block (0) and alive across its start (1) */
    struct cand *heap[2] = {malloc((nv + 1) * sizeof(struct cand)), malloc((nv + 1) * sizeof(struct cand))};
    struct cand aside[8];
    bool *active = calloc(nv + 1, sizeof(*active));
    uint8_t *fixed_ends = calloc(n + 1, 1); /* payload GRFs last read at k */
    if (!sfirst || !efirst || !byS || !byE || !heap[0] || !heap[1] || !active || !fixed_ends) {
        a->p->oom = true;
        ok = false;
        goto out;
    }
    for (unsigned g = 0; g < GEN_NUM_GRFS; g++)
        if (a->fixed_e[g] >= 0 && a->fixed_e[g] < (int32_t)n)
            fixed_ends[a->fixed_e[g]]++;
    memset(how, KEEP, nv);
    /* the confined blocks: the earliest start and the widest */
    int32_t conf_s = INT32_MAX;
    uint32_t conf_grfs = 0;
    for (uint32_t v = 0; v < nv; v++) {
        const struct gen_vreg *r = &p->vreg[v];
        if (a->s[v] > a->e[v] || (r->grf_lo == 0 && r->grf_hi == GEN_NUM_GRFS - 1))
            continue;
        conf_s = a->s[v] < conf_s ? a->s[v] : conf_s;
        uint32_t gg = (r->size + GEN_GRF_SIZE - 1) / GEN_GRF_SIZE;
        conf_grfs = gg > conf_grfs ? gg : conf_grfs;
    }
    for (uint32_t v = 0; v < nv; v++)
        if (a->s[v] <= a->e[v]) {
            sfirst[a->s[v] + 2]++;
            efirst[a->e[v] + 2]++;
        }
    for (unsigned k = 0; k < n; k++) {
        sfirst[k + 2] += sfirst[k + 1];
        efirst[k + 2] += efirst[k + 1];
    }
    for (uint32_t v = 0; v < nv; v++)
        if (a->s[v] <= a->e[v]) {
            byS[sfirst[a->s[v] + 1]++] = v;
            byE[efirst[a->e[v] + 1]++] = v;
        }
    /* alive values (payload included) and, of them, those alive across conf_s */
    struct pressure all = {0, 0}, across = {0, 0};
    uint32_t fixed = 0;
    unsigned hn[2] = {0, 0};
    for (unsigned g = 0; g < GEN_NUM_GRFS; g++)
        fixed += a->fixed_e[g] >= 0;
    for (unsigned k = 0; k < n && ok; k++) {
        if (k) {
            for (uint32_t x = efirst[k - 1]; x < efirst[k]; x++) {
                uint32_t v = byE[x];
                if (!active[v])
                    continue;
                uint32_t gg, dd;
                units(&p->vreg[v], &gg, &dd);
                all.grfs -= gg;
                all.dwords -= dd;
                active[v] = false;
            }
            fixed -= fixed_ends[k - 1];
        }
        for (uint32_t x = sfirst[k]; x < sfirst[k + 1]; x++) {
            uint32_t v = byS[x];
            uint32_t gg, dd;
            units(&p->vreg[v], &gg, &dd);
            bool long_lived = a->e[v] >= conf_s && a->s[v] < conf_s;
            all.grfs += gg;
            all.dwords += dd;
            if (long_lived) {
                across.grfs += gg;
                across.dwords += dd;
            }
            active[v] = true;
            if (!spillable(&p->vreg[v], remat_ok[v]))
                continue;
            uint64_t cost = remat_ok[v] ? cost_remat[v] : cost_spill[v];
            uint64_t life = (uint64_t)(a->e[v] - a->s[v] + 1) * (gg * 8 + dd);
            struct cand c = {(cost << 16) / (life ? life : 1), a->e[v], v};
            heap_push(heap[long_lived], &hn[long_lived], c);
        }
        if ((int32_t)k == conf_s)
            across.grfs = across.dwords = 0; /* from here on the block itself is counted */
        /* the temporaries of evicted values referenced here */
        const struct gen_inst *i = &p->inst[k];
        uint32_t vs[4];
        unsigned m = inst_vregs(i, false, vs);
        struct pressure temps = {0, 0};
        for (unsigned j = 0; j < m; j++)
            if (how[vs[j]] != KEEP) {
                struct gen_vreg t = p->vreg[vs[j]];
                if (how[vs[j]] == SPILL)
                    t.size = spill_temp_size(t.size);
                uint32_t gg, dd;
                units(&t, &gg, &dd);
                temps.grfs += gg;
                temps.dwords += dd;
            }
        /* a destination that takes the place of a source dying here needs no room of its own */
        if (i->dst.kind == GO_VREG && a->s[i->dst.vreg] == (int32_t)k && how[i->dst.vreg] == KEEP) {
            uint32_t u = handoff_source(a, i->dst.vreg);
            if (u && how[u - 1] == KEEP && active[u - 1]) {
                uint32_t gg, dd;
                units(&p->vreg[i->dst.vreg], &gg, &dd);
                temps.grfs -= gg; /* may wrap: only sums are compared */
                temps.dwords -= dd;
            }
        }
        unsigned naside = 0;
        uint32_t cap_k = less && less[k] < cap ? cap - less[k] : less ? 0 : cap;
        for (;;) {
            struct pressure now = {all.grfs + temps.grfs, all.dwords + temps.dwords};
            bool over = fixed + in_grfs(now) > cap_k;
            bool over_across = (int32_t)k < conf_s && fixed + in_grfs(across) + conf_grfs > cap_k;
            if (!over && !over_across)
                break;
            /* the cheaper of the two heaps' best, or only values alive across */
            unsigned h = 1;
            if (!over_across && hn[0] && (!hn[1] || cand_less(&heap[0][0], &heap[1][0])))
                h = 0;
            if (!hn[h]) {
                ok = false;
                break;
            }
            struct cand c = heap_pop(heap[h], &hn[h]);
            uint32_t v = c.v;
            if (!active[v] || how[v] != KEEP)
                continue;
            bool here = false;
            for (unsigned j = 0; j < m; j++)
                here |= vs[j] == v;
            if (here) { /* no relief at its own instruction */
                if (naside < sizeof(aside) / sizeof(aside[0]))
                    aside[naside++] = c;
                continue;
            }
            how[v] = remat_ok[v] ? REMAT : SPILL;
            uint32_t gg, dd;
            units(&p->vreg[v], &gg, &dd);
            all.grfs -= gg;
            all.dwords -= dd;
            if (h == 1 && (int32_t)k < conf_s) {
                across.grfs -= gg;
                across.dwords -= dd;
            }
            active[v] = false;
        }
        for (unsigned j = 0; j < naside; j++) {
            uint32_t v = aside[j].v;
            unsigned h = a->e[v] >= conf_s && a->s[v] < conf_s;
            heap_push(heap[h], &hn[h], aside[j]);
        }
    }
out:
    free(sfirst);
    free(efirst);
    free(byS);
    free(byE);
    free(heap[0]);
    free(heap[1]);
    free(active);
    free(fixed_ends);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Spill and remat code.                                               */

static unsigned block_code(uint32_t size)
{
    /* OWord block message control: 1 OWord (the low half of the GRF), 2,
     * 4, 8 OWords = 1, 2, 4 GRFs */
    return size < GEN_GRF_SIZE ? 0 : size == GEN_GRF_SIZE ? 2 : size == 2 * GEN_GRF_SIZE ? 3 : 4;
}

struct emitter {
    struct gen_inst *out;
    uint32_t *from; /* the instruction of the input each one stands for */
    unsigned n, cap, cap_from;
    uint32_t cur;
    bool oom;
    struct gen_inst scratch; /* handed out once memory ran out */
};

static struct gen_inst *emit(struct emitter *em)
{
    struct gen_inst *i = &em->scratch;
    if (!em->oom && grow((void **)&em->out, &em->cap, em->n + 1, sizeof(*em->out)) &&
        grow((void **)&em->from, &em->cap_from, em->n + 1, sizeof(*em->from))) {
        em->from[em->n] = em->cur;
        i = &em->out[em->n++];
    } else {
        em->oom = true;
    }
    memset(i, 0, sizeof(*i));
    i->jip = i->uip = -1;
    return i;
}

/* (W) mov (1) h.2 = offset / 16: the scratch offset of the next message, in OWords. */
static void emit_offset(struct emitter *em, uint32_t h, uint32_t slot)
{
    struct gen_inst *m = emit(em);
    m->op = GOP_MOV;
    m->exec = 1;
    m->nomask = true;
    m->dst = gen_vr(h, 8, GT_UD);
    m->src[0] = gen_imm(slot / 16, GT_UD);
}

static void emit_fill(struct gen_program *p, struct emitter *em, uint32_t h, uint32_t temp,
                      uint32_t slot, uint32_t size)
{
    emit_offset(em, h, slot);
    struct gen_inst *s = emit(em);
    uint32_t grfs = spill_temp_size(size) / GEN_GRF_SIZE;
    s->op = GOP_SEND;
    s->exec = 8;
    s->nomask = true;
    s->fill = true;
    s->dst = gen_vr(temp, 0, GT_UD);
    s->src[0] = gen_vr(h, 0, GT_UD);
    s->sfid = 0xA;
    s->mlen = 1;
    s->rlen = (uint8_t)grfs;
    s->exdesc = 0xA;
    s->desc = gen_desc(1, grfs, true, (0u << 14) | (block_code(size) << 8) | 253u);
    p->fills++;
}

static void emit_spill(struct gen_program *p, struct emitter *em, uint32_t h, uint32_t temp,
                       uint32_t slot, uint32_t size)
{
    emit_offset(em, h, slot);
    struct gen_inst *s = emit(em);
    uint32_t grfs = spill_temp_size(size) / GEN_GRF_SIZE;
    s->op = GOP_SENDS;
    s->exec = 8;
    s->nomask = true;
    s->spill = true;
    s->dst = gen_null(GT_UD);
    s->src[0] = gen_vr(h, 0, GT_UD);
    s->src[1] = gen_vr(temp, 0, GT_UD);
    s->sfid = 0xA;
    s->mlen = 1;
    s->src1len = (uint8_t)grfs;
    s->exdesc = 0xA | (grfs << 6);
    s->desc = gen_desc(1, 0, true, (8u << 14) | (block_code(size) << 8) | 253u);
    p->spills++;
}

/*
 * Scratch slots: spilled values whose intervals do not overlap share one
 * (the interval is the physical extent, so no channel still needs the
 * first when the second is stored).  In start order, a value takes the
 * slot of its size freed longest ago when that is free, else a new one (a
 * heap of slots per size: half a GRF, one to four GRFs); *scratch is the
 * end of the scratch space.
 */
struct slot {
    int32_t free_after; /* last instruction of the current occupant */
    uint32_t off;
};

static void slot_push(struct slot *h, unsigned *n, struct slot x)
{
    unsigned i = (*n)++;
    while (i && h[(i - 1) / 2].free_after > x.free_after) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = x;
}

static struct slot slot_pop(struct slot *h, unsigned *n)
{
    struct slot top = h[0], last = h[--*n];
    unsigned i = 0;
    for (;;) {
        unsigned l = 2 * i + 1, r = l + 1, m = i;
        int32_t best = last.free_after;
        if (l < *n && h[l].free_after < best) {
            m = l;
            best = h[l].free_after;
        }
        if (r < *n && h[r].free_after < best)
            m = r;
        if (m == i)
            break;
        h[i] = h[m];
        i = m;
    }
    if (*n)
        h[i] = last;
    return top;
}

static bool assign_slots(const struct alloc *a, const uint8_t *how, uint32_t *scratch)
{
    struct gen_program *p = a->p;
    unsigned n = p->ninst, nv = p->nvreg, ns = 0;
    uint32_t *first = calloc(n + 2, sizeof(*first)), *order = malloc((nv + 1) * sizeof(*order));
    struct slot *heap[5] = {NULL, NULL, NULL, NULL, NULL};
    unsigned hn[5] = {0, 0, 0, 0, 0};
    bool ok = first && order;
    for (unsigned c = 0; c < 5; c++)
        ok &= (heap[c] = malloc((nv + 1) * sizeof(struct slot))) != NULL;
    for (uint32_t v = 0; ok && v < nv; v++)
        if (how[v] == SPILL)
            first[a->s[v] + 2]++;
    for (unsigned k = 0; ok && k < n; k++)
        first[k + 2] += first[k + 1];
    for (uint32_t v = 0; ok && v < nv; v++)
        if (how[v] == SPILL) {
            order[first[a->s[v] + 1]++] = v;
            ns++;
        }
    for (unsigned x = 0; ok && x < ns; x++) {
        uint32_t v = order[x], size = p->vreg[v].size;
        /* spilled values are 1-4 GRFs, or half of one (heap 4) */
        unsigned c = size < GEN_GRF_SIZE ? 4 : size / GEN_GRF_SIZE - 1;
        struct slot sl;
        if (hn[c] && heap[c][0].free_after < a->s[v]) {
            sl = slot_pop(heap[c], &hn[c]);
        } else {
            sl.off = (*scratch + size - 1) / size * size;
            *scratch = sl.off + size;
        }
        sl.free_after = a->e[v];
        slot_push(heap[c], &hn[c], sl);
        p->vreg[v].spill_slot = (int32_t)sl.off;
    }
    free(first);
    free(order);
    for (unsigned c = 0; c < 5; c++)
        free(heap[c]);
    return ok;
}

/*
 * Rewrites the program once: a spilled value lives in scratch and in a
 * fresh temporary at each instruction that references it (filled before a
 * use or a definition that may keep some channels, stored after a
 * definition); a rematerialized value loses its definition and is
 * recomputed into a temporary before each instruction that reads it.
 */
static bool rewrite(struct alloc *a, const uint8_t *how, const int32_t (*rdef)[2],
                    struct gen_inst **old, uint32_t **origin)
{
    struct gen_program *p = a->p;
    unsigned n = p->ninst, nv = p->nvreg;
    bool any_spill = false;
    for (uint32_t v = 0; v < nv; v++)
        any_spill |= how[v] == SPILL;
    uint32_t scratch = p->layout.scratch_bytes;
    if (!assign_slots(a, how, &scratch)) {
        p->oom = true;
        return false;
    }
    for (uint32_t v = 0; v < nv; v++)
        if (how[v] == REMAT)
            p->vreg[v].rematerialized = true;
    struct emitter em;
    memset(&em, 0, sizeof(em));
    if (!grow((void **)&em.out, &em.cap, n + n / 4 + 16, sizeof(*em.out))) {
        p->oom = true;
        return false;
    }
    uint32_t h = 0;
    if (any_spill) {
        /* the scratch header: r0, whose dwords 3 and 5 give the per-thread
         * scratch size and base; dword 2 is set before each message */
        h = gen_new_vreg(p, GEN_GRF_SIZE, false);
        p->vreg[h].no_spill = true;
        struct gen_inst *m = emit(&em);
        m->op = GOP_MOV;
        m->exec = 8;
        m->nomask = true;
        m->dst = gen_vr(h, 0, GT_UD);
        m->src[0] = gen_fixed(0, GT_UD, GR_VEC);
    }
    for (unsigned k = 0; k < n && !em.oom && !p->oom; k++) {
        struct gen_inst i = p->inst[k];
        em.cur = k;
        if (i.dst.kind == GO_VREG && how[i.dst.vreg] == REMAT)
            continue; /* recomputed at every use */
        uint32_t vs[4], temp[4];
        unsigned m = inst_vregs(&i, false, vs);
        for (unsigned j = 0; j < m; j++) {
            uint32_t v = vs[j];
            temp[j] = UINT32_MAX;
            if (how[v] == KEEP)
                continue;
            struct gen_vreg r = p->vreg[v];
            uint32_t t = gen_new_vreg(p, how[v] == SPILL ? spill_temp_size(r.size) : r.size, r.uniform);
            if (p->oom)
                break;
            p->vreg[t].no_spill = true;
            temp[j] = t;
            bool use = reads(&i, v), def = writes(&i, v);
            if (how[v] == REMAT) {
                for (unsigned d = 0; d < 2; d++)
                    if (rdef[v][d] >= 0) {
                        struct gen_inst *c = emit(&em);
                        *c = p->inst[rdef[v][d]];
                        c->dst.vreg = t;
                    }
            } else if (use || (def && partial_def(a, k))) {
                emit_fill(p, &em, h, t, (uint32_t)r.spill_slot, r.size);
            }
        }
        for (unsigned j = 0; j < m; j++)
            for (unsigned s = 0; s < 4 && temp[j] != UINT32_MAX; s++) {
                struct gen_opnd *o = (struct gen_opnd *)opnd(&i, s);
                if (o->kind == GO_VREG && o->vreg == vs[j])
                    o->vreg = temp[j];
            }
        *emit(&em) = i;
        for (unsigned j = 0; j < m; j++)
            if (temp[j] != UINT32_MAX && how[vs[j]] == SPILL && i.dst.kind == GO_VREG &&
                i.dst.vreg == temp[j])
                emit_spill(p, &em, h, temp[j], (uint32_t)p->vreg[vs[j]].spill_slot,
                           p->vreg[vs[j]].size);
    }
    if (em.oom || p->oom) {
        free(em.out);
        free(em.from);
        p->oom = true;
        return false;
    }
    *old = p->inst; /* the caller's, to start again from */
    *origin = em.from;
    p->inst = em.out;
    p->ninst = em.n;
    p->cap_inst = em.cap;
    p->layout.scratch_bytes = scratch;
    return true;
}

/* ------------------------------------------------------------------ */
/* Colouring.                                                          */

struct resv {
    int32_t s, e;
    uint32_t g0, g1;
};

struct occupancy {
    int32_t busy[GEN_FILE_BYTES / 4];  /* last instruction of the dword's occupant; -1 free */
    uint32_t owner[GEN_FILE_BYTES / 4]; /* vreg + 1; 0 = payload or free */
    int32_t grf_max[GEN_NUM_GRFS];      /* latest busy of the GRF's dwords */
    bool touched[GEN_NUM_GRFS];
    /* range-constrained blocks, placed first: [s, e] on GRFs g0..g1 */
    struct resv *resv;
    unsigned nresv;
    uint32_t resv_lo; /* lowest reserved GRF */
};

static bool reserved(const struct occupancy *oc, uint32_t g0, uint32_t g1, int32_t s, int32_t e)
{
    if (g1 < oc->resv_lo)
        return false;
    for (unsigned r = 0; r < oc->nresv; r++)
        if (g0 <= oc->resv[r].g1 && oc->resv[r].g0 <= g1 && s <= oc->resv[r].e && oc->resv[r].s <= e)
            return true;
    return false;
}

/* Bytes [loc, loc + size) free from instruction s on (an occupant that ends
 * exactly at s is allowed when it is `dying`, the source this value may
 * overwrite). */
static bool free_at(const struct occupancy *oc, uint32_t loc, uint32_t size, int32_t s, int32_t e,
                    uint32_t dying)
{
    uint32_t g0 = loc / GEN_GRF_SIZE, g1 = (loc + size - 1) / GEN_GRF_SIZE;
    if (reserved(oc, g0, g1, s, e))
        return false;
    if (size % GEN_GRF_SIZE == 0 && loc % GEN_GRF_SIZE == 0 && !dying) {
        for (uint32_t g = g0; g <= g1; g++)
            if (oc->grf_max[g] >= s)
                return false;
        return true;
    }
    for (uint32_t d = loc / 4; d < (loc + size + 3) / 4; d++)
        if (oc->busy[d] >= s && !(dying && oc->owner[d] == dying && oc->busy[d] == s))
            return false;
    return true;
}

static void occupy(struct occupancy *oc, uint32_t loc, uint32_t size, int32_t end, uint32_t owner)
{
    for (uint32_t d = loc / 4; d < (loc + size + 3) / 4; d++) {
        oc->busy[d] = end;
        oc->owner[d] = owner;
        if (oc->grf_max[d / 8] < end)
            oc->grf_max[d / 8] = end;
        oc->touched[d / 8] = true;
    }
}

static uint32_t dying_source(const struct alloc *a, uint32_t v)
{
    uint32_t u = handoff_source(a, v);
    return u && a->p->vreg[u - 1].loc >= 0 ? u : 0;
}

/* How values are placed: several are tried before anything more is spilled. */
enum { PLACE_REUSE = 1, PLACE_BEST_FIT = 2, PLACE_BY_BLOCK = 4 };

static int32_t place(const struct alloc *a, const struct occupancy *oc, uint32_t v, unsigned how)
{
    const struct gen_program *p = a->p;
    const struct gen_vreg *r = &p->vreg[v];
    int32_t s = a->s[v], e = a->e[v];
    uint32_t lo = (uint32_t)r->grf_lo * GEN_GRF_SIZE, hi = ((uint32_t)r->grf_hi + 1) * GEN_GRF_SIZE;
    uint32_t size = (r->size + 3) & ~3u, align = r->align ? r->align : 4;
    uint32_t dying = how & PLACE_REUSE ? dying_source(a, v) : 0;
    if (dying && free_at(oc, (uint32_t)p->vreg[dying - 1].loc, size, s, e, dying))
        return p->vreg[dying - 1].loc;
    if (size < GEN_GRF_SIZE) {
        /* sub-GRF values pack from the top of the general range down, so they share GRFs */
        uint32_t top = hi > GEN_EOT_FIRST_GRF * GEN_GRF_SIZE && lo < GEN_EOT_FIRST_GRF * GEN_GRF_SIZE
                           ? GEN_EOT_FIRST_GRF * GEN_GRF_SIZE
                           : hi;
        /* a divergent one (a SIMD8 half float, --pp=fp16) first takes a slot
         * in a GRF that already held something (a float that died, the other
         * half of a half pair), so halves that replace floats do not add
         * registers of their own to the kernel */
        if (!r->uniform && (how & PLACE_BEST_FIT))
            for (uint32_t g = top / GEN_GRF_SIZE; g-- > lo / GEN_GRF_SIZE;)
                for (uint32_t loc = g * GEN_GRF_SIZE;
                     oc->touched[g] && loc + size <= (g + 1) * GEN_GRF_SIZE; loc += align)
                    if (free_at(oc, loc, size, s, e, 0))
                        return (int32_t)loc;
        for (uint32_t g = top / GEN_GRF_SIZE; g-- > lo / GEN_GRF_SIZE;)
            for (uint32_t loc = g * GEN_GRF_SIZE; loc + size <= (g + 1) * GEN_GRF_SIZE; loc += align)
                if (free_at(oc, loc, size, s, e, 0))
                    return (int32_t)loc;
        for (uint32_t loc = top; loc + size <= hi; loc += align)
            if ((loc % GEN_GRF_SIZE) + size <= GEN_GRF_SIZE && free_at(oc, loc, size, s, e, 0))
                return (int32_t)loc;
        return -1;
    }
    /*
     * Best fit: the start of the smallest run of free GRFs that holds it
     * (the lowest of those), so wide values keep finding room; a one-GRF
     * value prefers a run among registers that already held something, so
     * the kernel touches fewer.
     */
    /* every GRF the bytes touch (a block need not be whole GRFs) */
    uint32_t need = (size + GEN_GRF_SIZE - 1) / GEN_GRF_SIZE, best = UINT32_MAX, best_len = UINT32_MAX;
    /* a value that dies before a confined block starts (or starts after it
     * ends) takes the block's registers first, leaving the others to values
     * that live across it */
    bool across = false;
    for (unsigned x = 0; x < oc->nresv; x++)
        across |= s <= oc->resv[x].e && oc->resv[x].s <= e;
    for (unsigned x = 0; x < oc->nresv && !across && (how & PLACE_BY_BLOCK); x++) {
        /* the highest place that overlaps the block's registers */
        uint32_t glo = lo / GEN_GRF_SIZE, ghi = hi / GEN_GRF_SIZE, g0 = oc->resv[x].g0;
        uint32_t top = oc->resv[x].g1 + need <= ghi ? oc->resv[x].g1 : ghi - need;
        uint32_t bottom = g0 + 1 >= need ? g0 + 1 - need : 0;
        bottom = bottom > glo ? bottom : glo;
        for (uint32_t g = top + 1; g-- > bottom;)
            if (free_at(oc, g * GEN_GRF_SIZE, size, s, e, 0))
                return (int32_t)(g * GEN_GRF_SIZE);
    }
    /* which GRFs are free from s on: no occupant alive, no confined block then */
    uint32_t glo = lo / GEN_GRF_SIZE, ghi = hi / GEN_GRF_SIZE, blo = GEN_NUM_GRFS, bhi = 0;
    for (unsigned x = 0; x < oc->nresv; x++)
        if (s <= oc->resv[x].e && oc->resv[x].s <= e) {
            blo = oc->resv[x].g0 < blo ? oc->resv[x].g0 : blo;
            bhi = oc->resv[x].g1 > bhi ? oc->resv[x].g1 : bhi;
        }
#define GRF_FREE(g) (oc->grf_max[g] < s && ((g) < blo || (g) > bhi || !reserved(oc, g, g, s, e)))
    if (need == 1) {
        /* one GRF fragments nothing: the lowest free one that held something, else the lowest */
        int32_t first = -1;
        for (uint32_t g = glo; g < ghi; g++)
            if (GRF_FREE(g)) {
                if (oc->touched[g] || !(how & PLACE_BEST_FIT))
                    return (int32_t)(g * GEN_GRF_SIZE);
                if (first < 0)
                    first = (int32_t)g;
            }
        return first < 0 ? -1 : first * GEN_GRF_SIZE;
    }
    bool best_used = false;
    for (uint32_t g = glo; g < ghi;) {
        if (!GRF_FREE(g)) {
            g++;
            continue;
        }
        uint32_t g2 = g + 1;
        while (g2 < ghi && GRF_FREE(g2))
            g2++;
        uint32_t len = g2 - g;
        if (len >= need) {
            bool used = true;
            for (uint32_t x = g; x < g + need; x++)
                used &= oc->touched[x];
            bool better = len < best_len || (len == best_len && used && !best_used);
            if (best == UINT32_MAX || (how & PLACE_BEST_FIT && better)) {
                best = g;
                best_len = len;
                best_used = used;
            }
        }
        g = g2;
    }
#undef GRF_FREE
    return best == UINT32_MAX ? -1 : (int32_t)(best * GEN_GRF_SIZE);
}

/* Colours every value in start order; false when one does not fit (*failed: that value). */
static bool colour(struct alloc *a, unsigned how, uint32_t *failed)
{
    struct gen_program *p = a->p;
    unsigned n = p->ninst, nv = p->nvreg;
    struct occupancy *oc = malloc(sizeof(*oc));
    uint32_t *first = calloc(n + 2, sizeof(*first)), *order = malloc((nv + 1) * sizeof(*order));
    struct resv *resv = malloc((nv + 1) * sizeof(*resv));
    bool ok = true;
    if (oc)
        oc->resv = resv;
    if (!oc || !first || !order || !resv) {
        p->oom = true;
        ok = false;
        goto out;
    }
    for (unsigned d = 0; d < GEN_FILE_BYTES / 4; d++) {
        oc->busy[d] = -1;
        oc->owner[d] = 0;
    }
    for (unsigned g = 0; g < GEN_NUM_GRFS; g++) {
        oc->grf_max[g] = -1;
        oc->touched[g] = false;
    }
    oc->nresv = 0;
    oc->resv_lo = GEN_NUM_GRFS;
    for (unsigned g = 0; g < GEN_NUM_GRFS; g++)
        if (a->fixed_e[g] >= 0)
            occupy(oc, g * GEN_GRF_SIZE, GEN_GRF_SIZE, a->fixed_e[g], 0);
    /* counting sort by start (ties by vreg number) */
    unsigned cnt = 0;
    for (uint32_t v = 0; v < nv; v++) {
        p->vreg[v].loc = -1;
        if (a->s[v] <= a->e[v])
            first[a->s[v] + 2]++;
    }
    for (unsigned k = 0; k < n; k++)
        first[k + 2] += first[k + 1];
    for (uint32_t v = 0; v < nv; v++)
        if (a->s[v] <= a->e[v]) {
            order[first[a->s[v] + 1]++] = v;
            cnt++;
        }
    /* blocks with a GRF range first (EOT payloads in r112-r127), as reservations */
    for (unsigned x = 0; x < cnt && ok; x++) {
        uint32_t v = order[x];
        const struct gen_vreg *r = &p->vreg[v];
        if (r->grf_lo == 0 && r->grf_hi == GEN_NUM_GRFS - 1)
            continue;
        int32_t loc = place(a, oc, v, how);
        if (loc < 0) {
            ok = false;
            *failed = v;
            break;
        }
        p->vreg[v].loc = loc;
        uint32_t g0 = (uint32_t)loc / GEN_GRF_SIZE, g1 = ((uint32_t)loc + r->size - 1) / GEN_GRF_SIZE;
        oc->resv[oc->nresv].s = a->s[v];
        oc->resv[oc->nresv].e = a->e[v];
        oc->resv[oc->nresv].g0 = g0;
        oc->resv[oc->nresv].g1 = g1;
        oc->nresv++;
        if (g0 < oc->resv_lo)
            oc->resv_lo = g0;
        for (uint32_t g = g0; g <= g1; g++)
            oc->touched[g] = true;
    }
    for (unsigned x = 0; x < cnt && ok; x++) {
        uint32_t v = order[x];
        const struct gen_vreg *r = &p->vreg[v];
        if (r->grf_lo != 0 || r->grf_hi != GEN_NUM_GRFS - 1)
            continue;
        int32_t loc = place(a, oc, v, how);
        if (loc < 0) {
            ok = false;
            *failed = v;
            break;
        }
        p->vreg[v].loc = loc;
        occupy(oc, (uint32_t)loc, r->size, a->e[v], v + 1);
    }
    if (ok) {
        /* registers that hold something at some point (payload included) */
        p->grfs_used = 0;
        for (unsigned g = 0; g < GEN_NUM_GRFS; g++)
            p->grfs_used += oc->touched[g];
    }
out:
    free(oc);
    free(first);
    free(order);
    free(resv);
    return ok;
}

/* ------------------------------------------------------------------ */
/* The allocator.                                                      */

/*
 * Spill (or remat) choice within cap GRFs (less[k] fewer at instruction k
 * of the input), code, colouring: true when everything fits.  When spill
 * code was inserted, *old receives the program before it.  When colouring
 * fails, [*fs, *fe] are the input instructions the value that did not fit
 * spans, and *fg its GRFs.
 */
static bool allocate_within(struct gen_program *p, uint32_t cap, const uint8_t *less,
                            bool *impossible, struct gen_inst **old, uint32_t *fs, uint32_t *fe,
                            uint32_t *fg)
{
    struct alloc a;
    unsigned nv = p->nvreg;
    bool ok = false;
    uint8_t *how = malloc(nv + 1);
    bool *remat_ok = calloc(nv + 1, sizeof(*remat_ok));
    int32_t (*rdef)[2] = malloc((nv + 1) * sizeof(*rdef));
    uint64_t *cs = calloc(nv + 1, sizeof(*cs)), *cr = calloc(nv + 1, sizeof(*cr));
    uint32_t *origin = NULL;
    memset(&a, 0, sizeof(a));
    if (!how || !remat_ok || !rdef || !cs || !cr || !alloc_analyse(&a, p)) {
        p->oom = true;
        goto out;
    }
    /* costs: spill code (a message round trip per use and per definition, a
     * fill before a definition that may keep channels) or remat code (one
     * instruction per use and per defining instruction) */
    for (uint32_t v = 0; v < nv; v++) {
        rdef[v][0] = rdef[v][1] = -1;
        remat_ok[v] = rematerializable(&a, v, &rdef[v][0], &rdef[v][1]);
        unsigned ndefs = 1 + (rdef[v][1] >= 0);
        for (uint32_t x = a.refs.first[v]; x < a.refs.first[v + 1]; x++) {
            unsigned k = a.refs.at[x];
            const struct gen_inst *i = &p->inst[k];
            uint64_t w = ref_weight(&a, k);
            if (reads(i, v)) {
                cs[v] += 4 * w;
                cr[v] += ndefs * w;
            }
            if (writes(i, v))
                cs[v] += (partial_def(&a, k) ? 8 : 4) * w;
        }
    }
    if (!choose_spills(&a, cap, less, how, remat_ok, cs, cr)) {
        *impossible = !p->oom;
        goto out;
    }
    bool spilled = false, changed = false;
    for (uint32_t v = 0; v < nv; v++)
        spilled |= how[v] == SPILL;
    /* the scratch header takes a register for the whole kernel: choose again with one less */
    if (spilled && !choose_spills(&a, cap - 1, less, how, remat_ok, cs, cr)) {
        *impossible = !p->oom;
        goto out;
    }
    for (uint32_t v = 0; v < nv; v++)
        changed |= how[v] != KEEP;
    if (changed) {
        if (!rewrite(&a, how, (const int32_t(*)[2])rdef, old, &origin))
            goto out;
        alloc_free(&a);
        if (!alloc_analyse(&a, p)) {
            p->oom = true;
            goto out;
        }
    }
    /* the placements to try before spilling more (a few linear passes) */
    static const unsigned tries[] = {PLACE_REUSE | PLACE_BEST_FIT | PLACE_BY_BLOCK,
                                     PLACE_BEST_FIT | PLACE_BY_BLOCK, PLACE_REUSE | PLACE_BY_BLOCK,
                                     PLACE_BY_BLOCK, PLACE_REUSE, 0};
    uint32_t failed = 0;
    for (unsigned t = 0; t < sizeof(tries) / sizeof(tries[0]) && !ok && !p->oom; t++) {
        uint32_t f = 0;
        ok = colour(&a, tries[t], &f);
        if (!t)
            failed = f;
    }
    if (!ok && !p->oom) {
        *fs = (uint32_t)a.s[failed];
        *fe = (uint32_t)a.e[failed];
        if (origin) {
            *fs = origin[*fs];
            *fe = origin[*fe];
        }
        *fg = (p->vreg[failed].size + GEN_GRF_SIZE - 1) / GEN_GRF_SIZE;
    }
out:
    alloc_free(&a);
    free(how);
    free(remat_ok);
    free(rdef);
    free(cs);
    free(cr);
    free(origin);
    return ok;
}

bool gen_allocate(struct gen_program *p)
{
    coalesce(p);
    coalesce_live(p);
    if (p->oom)
        return false;
    /*
     * When colouring fails (registers free in total but not contiguous, or
     * not in the range a block needs), the value that did not fit lowers
     * the capacity over its interval and the choice starts again from the
     * program before spill code: a few rounds at most (then the whole file
     * loses a widening margin), each linear.
     */
    unsigned n0 = p->ninst, nv0 = p->nvreg;
    uint32_t scratch0 = p->layout.scratch_bytes;
    struct gen_inst *orig = NULL;
    uint8_t *less = NULL;
    bool ok = false;
    uint32_t margin = 0;
    for (unsigned round = 0; round < 16 && margin <= 64 && !p->oom; round++) {
        bool impossible = false;
        struct gen_inst *old = NULL;
        uint32_t fs = 0, fe = 0, fg = 0;
        p->spills = p->fills = 0;
        ok = allocate_within(p, GEN_NUM_GRFS - margin, less, &impossible, &old, &fs, &fe, &fg);
        if (old && !orig) {
            orig = old; /* the program before any spill code */
        } else if (old) {
            free(old);
        }
        if (ok || impossible || p->oom)
            break;
        if (round < 8) {
            if (!less && !(less = calloc(n0 + 1, 1))) {
                p->oom = true;
                break;
            }
            for (uint32_t k = fs; k <= fe && k < n0; k++)
                less[k] = (uint8_t)(less[k] + fg < 255 ? less[k] + fg : 255);
        } else {
            margin = margin ? 2 * margin : 2;
        }
        if (orig && p->inst != orig) {
            free(p->inst);
            p->inst = orig;
            p->cap_inst = n0;
            orig = NULL;
        }
        p->ninst = n0;
        p->nvreg = nv0;
        p->layout.scratch_bytes = scratch0;
        for (uint32_t v = 0; v < nv0; v++) {
            p->vreg[v].spill_slot = -1;
            p->vreg[v].rematerialized = false;
            p->vreg[v].loc = -1;
        }
    }
    free(orig);
    free(less);
    return ok && !p->oom;
}
