/*
 * gen/ra.c — register allocation for the Gen9 back end.
 *
 * One byte-addressed file of 128 GRFs x 32 bytes.  A vreg is a contiguous
 * run of bytes: a dword (uniform value, 4-byte aligned, packed eight to a
 * GRF), one/two/four GRFs (a divergent dword at SIMD8/16/32) or a longer
 * block (message payloads and responses), plus the GRF range it may use
 * (EOT payloads: r112-r127).  Those are the register classes, by size and
 * alignment, as in Mesa's brw allocator.
 *
 * Liveness is an interval over the linear instruction order, widened over
 * every loop the value lives across (a value live into or out of a loop is
 * live for the whole loop: the next iteration or a channel that already
 * left may still need it).  Intervals are conservative for divergent code
 * too: a then- and an else-region are disjoint ranges of the order.
 *
 * Steps: copy coalescing (a mov whose source dies where its destination
 * starts costs nothing: both become one vreg and the mov disappears), then
 * coalescing of the copies left on per-channel liveness over the structured
 * CFG (phi moves of loop exits and if joins, which the intervals cannot
 * separate), then a linear scan in start order over a dword occupancy
 * map.  When a vreg does not fit, the active divergent value with the
 * furthest end is spilled: every definition writes it to scratch with an OWord block write
 * and every use reads it back into a short-lived temporary (the Gen9 form
 * Mesa uses: data cache, BTI 253, header = r0 with dword 2 = offset/16),
 * and the scan starts again.
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
    v->align = size >= GEN_GRF_SIZE ? GEN_GRF_SIZE : 4;
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

struct gen_inst *gen_insert(struct gen_program *p, unsigned at)
{
    if (!grow((void **)&p->inst, &p->cap_inst, p->ninst + 1, sizeof(*p->inst))) {
        p->oom = true;
        memset(&p->oom_scratch, 0, sizeof(p->oom_scratch));
        return &p->oom_scratch;
    }
    memmove(&p->inst[at + 1], &p->inst[at], (size_t)(p->ninst - at) * sizeof(*p->inst));
    p->ninst++;
    memset(&p->inst[at], 0, sizeof(p->inst[at]));
    return &p->inst[at];
}

void gen_program_free(struct gen_program *p)
{
    free(p->inst);
    free(p->vreg);
    memset(p, 0, sizeof(*p));
}

/* ------------------------------------------------------------------ */
/* Dead code.                                                          */

static bool removable(const struct gen_inst *i)
{
    const struct gen_op_info *oi = &gen_op_info[i->op];
    if (oi->flow || i->op == GOP_LABEL || i->eot)
        return false;
    return i->dst.kind == GO_VREG;
}

/*
 * A compare that only sets a flag is dead when no instruction reads that
 * flag before the next write of it.  Isel puts every flag's readers right
 * after its writer, so meeting control flow first counts as a read.
 */
static bool dead_flag_write(const struct gen_program *p, unsigned k)
{
    const struct gen_inst *i = &p->inst[k];
    if (!i->cmod || i->dst.kind != GO_NULL)
        return false;
    for (unsigned j = k + 1; j < p->ninst; j++) {
        const struct gen_inst *n = &p->inst[j];
        if (n->pred != GP_NONE && n->flag == i->flag)
            return false;
        if (gen_op_info[n->op].flow || n->op == GOP_LABEL)
            return false;
        /* sel with a conditional modifier does not write the flag (Gen6+) */
        if (n->cmod && n->flag == i->flag && n->op != GOP_SEL)
            return true;
    }
    return true;
}

void gen_dce(struct gen_program *p)
{
    unsigned *uses = calloc(p->nvreg ? p->nvreg : 1, sizeof(*uses));
    if (!uses) {
        p->oom = true;
        return;
    }
    bool changed = true;
    while (changed) {
        changed = false;
        memset(uses, 0, (p->nvreg ? p->nvreg : 1) * sizeof(*uses));
        for (unsigned k = 0; k < p->ninst; k++)
            for (unsigned s = 0; s < 3; s++)
                if (p->inst[k].src[s].kind == GO_VREG)
                    uses[p->inst[k].src[s].vreg]++;
        unsigned w = 0;
        for (unsigned k = 0; k < p->ninst; k++) {
            struct gen_inst *i = &p->inst[k];
            if ((removable(i) && uses[i->dst.vreg] == 0) || dead_flag_write(p, k)) {
                changed = true;
                continue;
            }
            p->inst[w++] = *i;
        }
        p->ninst = w;
    }
    free(uses);
}

/* ------------------------------------------------------------------ */
/* Liveness intervals.                                                 */

struct interval {
    int32_t s, e; /* first and last instruction index; s > e: unused */
};

/* Bytes of the register file a fixed operand of instruction i covers. */
static uint32_t fixed_extent(const struct gen_program *p, const struct gen_inst *i, unsigned srcno,
                             const struct gen_opnd *o)
{
    (void)p;
    if (gen_op_info[i->op].send) /* a payload read in place: its message length */
        return (uint32_t)(srcno == 0 ? (i->mlen ? i->mlen : 1) : i->src1len) * GEN_GRF_SIZE;
    if (o->region == GR_SCALAR)
        return 4;
    unsigned exec = i->exec ? i->exec : 8;
    if (i->op == GOP_PLN && srcno == 1)
        return 8u * exec; /* X and Y per 8 channels */
    return 4u * exec;
}

struct loop_range {
    int32_t s, e;
};

static unsigned find_loops(const struct gen_program *p, struct loop_range **out)
{
    unsigned n = 0, cap = 0, sp = 0;
    struct loop_range *l = NULL;
    int32_t stack[256];
    for (unsigned k = 0; k < p->ninst; k++) {
        if (p->inst[k].op == GOP_LABEL && sp < 256)
            stack[sp++] = (int32_t)k;
        else if (p->inst[k].op == GOP_WHILE && sp) {
            if (n == cap) {
                cap = cap ? cap * 2 : 16;
                struct loop_range *nl = realloc(l, cap * sizeof(*l));
                if (!nl)
                    break;
                l = nl;
            }
            l[n].s = stack[--sp];
            l[n].e = (int32_t)k;
            n++;
        }
    }
    *out = l;
    return n;
}

static void extend_loops(struct interval *iv, const struct loop_range *loops, unsigned nloops)
{
    bool changed = true;
    while (changed) {
        changed = false;
        for (unsigned l = 0; l < nloops; l++) {
            if (iv->s > iv->e)
                return;
            bool into = iv->s < loops[l].s && iv->e >= loops[l].s;
            bool outof = iv->s <= loops[l].e && iv->s >= loops[l].s && iv->e > loops[l].e;
            if (into || outof) {
                int32_t ns = iv->s < loops[l].s ? iv->s : loops[l].s;
                int32_t ne = iv->e > loops[l].e ? iv->e : loops[l].e;
                if (ns != iv->s || ne != iv->e) {
                    iv->s = ns;
                    iv->e = ne;
                    changed = true;
                }
            }
        }
    }
}

static void touch(struct interval *iv, int32_t k)
{
    if (iv->s > iv->e) {
        iv->s = iv->e = k;
        return;
    }
    if (k < iv->s)
        iv->s = k;
    if (k > iv->e)
        iv->e = k;
}

/* Intervals of every vreg and of every payload GRF (fixed[g]). */
static void compute_intervals(const struct gen_program *p, struct interval *iv,
                              struct interval fixed[GEN_NUM_GRFS])
{
    for (unsigned v = 0; v < p->nvreg; v++)
        iv[v] = (struct interval){1, 0};
    for (unsigned g = 0; g < GEN_NUM_GRFS; g++)
        fixed[g] = (struct interval){1, 0};
    for (unsigned k = 0; k < p->ninst; k++) {
        const struct gen_inst *i = &p->inst[k];
        const struct gen_opnd *ops[4] = {&i->dst, &i->src[0], &i->src[1], &i->src[2]};
        for (unsigned s = 0; s < 4; s++) {
            const struct gen_opnd *o = ops[s];
            if (o->kind == GO_VREG) {
                touch(&iv[o->vreg], (int32_t)k);
            } else if (o->kind == GO_FIXED) {
                uint32_t ext = fixed_extent(p, i, s ? s - 1 : 0, o);
                for (uint32_t g = o->off / GEN_GRF_SIZE;
                     g <= (o->off + ext - 1) / GEN_GRF_SIZE && g < GEN_NUM_GRFS; g++) {
                    /* payload registers hold their value from the thread's start */
                    touch(&fixed[g], 0);
                    touch(&fixed[g], (int32_t)k);
                }
            }
        }
    }
    struct loop_range *loops = NULL;
    unsigned nloops = find_loops(p, &loops);
    for (unsigned v = 0; v < p->nvreg; v++)
        extend_loops(&iv[v], loops, nloops);
    for (unsigned g = 0; g < GEN_NUM_GRFS; g++)
        extend_loops(&fixed[g], loops, nloops);
    free(loops);
    /* r0 (thread header: scratch and message headers copy it) lives throughout */
    fixed[0] = (struct interval){0, (int32_t)p->ninst};
}

/* ------------------------------------------------------------------ */
/* Coalescing.                                                         */

static bool plain_copy(const struct gen_program *p, const struct gen_inst *i)
{
    if (i->op != GOP_MOV || i->sat || i->cmod || i->dst.kind != GO_VREG ||
        i->src[0].kind != GO_VREG || i->src[0].neg || i->src[0].abs || i->dst.off ||
        i->src[0].off)
        return false;
    const struct gen_vreg *d = &p->vreg[i->dst.vreg], *s = &p->vreg[i->src[0].vreg];
    return i->dst.vreg != i->src[0].vreg && d->size == s->size && d->uniform == s->uniform &&
           !d->no_spill && !s->no_spill && d->grf_lo == s->grf_lo && d->grf_hi == s->grf_hi &&
           d->spill_slot < 0 && s->spill_slot < 0 &&
           i->exec == (d->uniform ? 1 : p->simd);
}

static void rename_vreg(struct gen_program *p, uint32_t from, uint32_t to)
{
    for (unsigned k = 0; k < p->ninst; k++) {
        struct gen_inst *i = &p->inst[k];
        if (i->dst.kind == GO_VREG && i->dst.vreg == from)
            i->dst.vreg = to;
        for (unsigned s = 0; s < 3; s++)
            if (i->src[s].kind == GO_VREG && i->src[s].vreg == from)
                i->src[s].vreg = to;
    }
}

static bool refs(const struct gen_inst *i, uint32_t v)
{
    const struct gen_opnd *o[4] = {&i->dst, &i->src[0], &i->src[1], &i->src[2]};
    for (unsigned s = 0; s < 4; s++)
        if (o[s]->kind == GO_VREG && o[s]->vreg == v)
            return true;
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
static bool latch_copy(const struct gen_program *p, unsigned k)
{
    const struct gen_inst *c = &p->inst[k];
    uint32_t P = c->dst.vreg, N = c->src[0].vreg;
    if (c->pred != GP_NONE)
        return false;
    unsigned w = k + 1;
    while (w < p->ninst && p->inst[w].op == GOP_MOV && !p->inst[w].pred)
        w++;
    if (w >= p->ninst || p->inst[w].op != GOP_WHILE)
        return false;
    for (unsigned j = k + 1; j < w; j++)
        if (refs(&p->inst[j], P) || refs(&p->inst[j], N))
            return false;
    /* N's only definition, straight-line before k, full and unpredicated */
    int d = -1;
    for (unsigned j = 0; j < p->ninst; j++) {
        if (j == k || !refs(&p->inst[j], N))
            continue;
        if (j > k || d >= 0)
            return false;
        const struct gen_inst *i = &p->inst[j];
        if (!(i->dst.kind == GO_VREG && i->dst.vreg == N && i->dst.off == 0 && !i->pred &&
              i->exec == c->exec && !gen_op_info[i->op].send))
            return false;
        for (unsigned s2 = 0; s2 < 3; s2++)
            if (i->src[s2].kind == GO_VREG && i->src[s2].vreg == N)
                return false;
        d = (int)j;
    }
    if (d < 0)
        return false;
    for (unsigned j = (unsigned)d + 1; j < k; j++) {
        const struct gen_inst *i = &p->inst[j];
        if (gen_op_info[i->op].flow || i->op == GOP_LABEL || refs(i, P))
            return false;
    }
    return true;
}

/* Drops the copies that became self moves. */
static void drop_self_moves(struct gen_program *p)
{
    unsigned w = 0;
    for (unsigned k = 0; k < p->ninst; k++) {
        struct gen_inst *i = &p->inst[k];
        if (i->op == GOP_MOV && i->dst.kind == GO_VREG && i->src[0].kind == GO_VREG &&
            i->dst.vreg == i->src[0].vreg && i->dst.off == i->src[0].off && !i->src[0].neg &&
            !i->src[0].abs && !i->sat && !i->cmod && i->dst.type == i->src[0].type)
            continue;
        p->inst[w++] = *i;
    }
    p->ninst = w;
}

static unsigned coalesce(struct gen_program *p)
{
    struct interval *iv = calloc(p->nvreg + 1, sizeof(*iv));
    struct interval fixed[GEN_NUM_GRFS];
    if (!iv) {
        p->oom = true;
        return 0;
    }
    compute_intervals(p, iv, fixed);
    unsigned merged = 0;
    for (unsigned k = 0; k < p->ninst; k++) {
        struct gen_inst *i = &p->inst[k];
        if (!plain_copy(p, i))
            continue;
        uint32_t d = i->dst.vreg, s = i->src[0].vreg;
        struct interval a = iv[s], b = iv[d];
        /* the source dies at the copy and the destination starts there,
         * or the two never overlap */
        bool ok = (a.e <= (int32_t)k && b.s >= (int32_t)k) || a.e < b.s || b.e < a.s;
        if (!ok && latch_copy(p, k)) {
            /* the loop-carried value: compute the next iteration's value in place */
            rename_vreg(p, s, d);
            iv[s] = (struct interval){1, 0};
            merged++;
            continue;
        }
        if (!ok)
            continue;
        rename_vreg(p, d, s);
        iv[s].s = a.s < b.s ? a.s : b.s;
        iv[s].e = a.e > b.e ? a.e : b.e;
        iv[d] = (struct interval){1, 0};
        merged++;
    }
    drop_self_moves(p);
    free(iv);
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
 * any scalar allocator, provided every write of them is masked.
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
 * merged interval is their union), so the linear scan needs no
 * Briggs/George colourability test.
 */

struct live {
    unsigned n, words;
    int32_t (*succ)[2]; /* -1: none */
    int32_t *skip;      /* a predicated edge-move chain: channels that skip it go here */
    bool *kill;         /* a whole definition of dst (all channels that run it) */
    uint64_t *in;       /* live-in bitsets, n x words */
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
    return !v->uniform && v->size == gen_dsize(p) && i->dst.off == 4u * i->group &&
           i->dst.off + 4u * i->exec <= v->size;
}

/* Writes every channel's lane of a divergent dword (for the channels that run it). */
static bool whole_def(const struct gen_program *p, const struct gen_inst *i)
{
    return lane_def(p, i) && i->dst.off == 0 && i->exec == p->simd;
}

/*
 * Every write of v is a masked write of its own channels' lanes: a whole
 * SIMD write, a predicated one, or one channel group (the halves of a
 * SIMD32 interpolation or message copy, the subspans of a derivative).
 */
static void maskable_vregs(const struct gen_program *p, bool *ok)
{
    for (unsigned v = 0; v < p->nvreg; v++)
        ok[v] = !p->vreg[v].uniform && !p->vreg[v].no_spill && p->vreg[v].size == gen_dsize(p) &&
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

static bool build_cfg(const struct gen_program *p, struct live *L)
{
    unsigned n = p->ninst;
    int32_t *match = malloc((n + 1) * sizeof(*match)); /* IF->ELSE/ENDIF, ELSE->ENDIF, WHILE->LABEL, LABEL->WHILE */
    int32_t *encl = malloc((n + 1) * sizeof(*encl));   /* BREAK/CONT -> WHILE */
    int32_t *stack = malloc((n + 1) * sizeof(*stack));
    if (!match || !encl || !stack) {
        free(match);
        free(encl);
        free(stack);
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
            if (o == GOP_ENDIF && p->inst[top].op == GOP_IF)
                match[top] = (int32_t)k;
            else if (o == GOP_ENDIF)
                match[top] = (int32_t)k; /* ELSE -> ENDIF */
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

static inline bool bit_get(const uint64_t *s, uint32_t v)
{
    return (s[v / 64] >> (v % 64)) & 1;
}

static bool solve_liveness(const struct gen_program *p, struct live *L)
{
    unsigned W = L->words;
    uint64_t *out = malloc(W * sizeof(*out));
    if (!out)
        return false;
    bool changed = true;
    while (changed) {
        changed = false;
        for (unsigned k = L->n; k-- > 0;) {
            const struct gen_inst *i = &p->inst[k];
            memset(out, 0, W * sizeof(*out));
            for (unsigned e = 0; e < 2; e++)
                if (L->succ[k][e] >= 0)
                    for (unsigned w = 0; w < W; w++)
                        out[w] |= L->in[(size_t)L->succ[k][e] * W + w];
            if (L->kill[k])
                out[i->dst.vreg / 64] &= ~(1ull << (i->dst.vreg % 64));
            for (unsigned s = 0; s < 3; s++)
                if (i->src[s].kind == GO_VREG)
                    out[i->src[s].vreg / 64] |= 1ull << (i->src[s].vreg % 64);
            if (L->skip[k] >= 0)
                for (unsigned w = 0; w < W; w++)
                    out[w] |= L->in[(size_t)L->skip[k] * W + w];
            uint64_t *in = &L->in[(size_t)k * W];
            for (unsigned w = 0; w < W; w++)
                if (in[w] != out[w]) {
                    in[w] |= out[w]; /* monotone: sets only grow */
                    changed = true;
                }
        }
    }
    free(out);
    return true;
}

static bool live_after(const struct live *L, unsigned k, uint32_t v)
{
    for (unsigned e = 0; e < 2; e++)
        if (L->succ[k][e] >= 0 && bit_get(&L->in[(size_t)L->succ[k][e] * L->words], v))
            return true;
    return false;
}

static uint32_t uf_find(uint32_t *rep, uint32_t v)
{
    while (rep[v] != v) {
        rep[v] = rep[rep[v]];
        v = rep[v];
    }
    return v;
}

/* Does a definition of a member of class a meet class b alive (copies from b excepted)? */
static bool defs_meet(const struct gen_program *p, const struct live *L, uint32_t *rep,
                      const int32_t *def_head, const int32_t *def_next, const int32_t *def_inst,
                      uint32_t a, uint32_t b)
{
    for (int32_t d = def_head[a]; d >= 0; d = def_next[d]) {
        unsigned k = (unsigned)def_inst[d];
        const struct gen_inst *i = &p->inst[k];
        if (i->op == GOP_MOV && i->src[0].kind == GO_VREG && !i->src[0].neg && !i->src[0].abs &&
            !i->sat && !i->src[0].off && i->dst.type == i->src[0].type &&
            (i->src[0].region == GR_AUTO || i->src[0].region == GR_VEC) &&
            uf_find(rep, i->src[0].vreg) == b)
            continue;
        if (live_after(L, k, b))
            return true;
    }
    return false;
}

static unsigned coalesce_live(struct gen_program *p)
{
    unsigned n = p->ninst, nv = p->nvreg, merged = 0;
    if (!n || !nv)
        return 0;
    struct live L = {n, (nv + 63) / 64, NULL, NULL, NULL, NULL};
    L.succ = malloc(n * sizeof(*L.succ));
    L.skip = malloc(n * sizeof(*L.skip));
    L.kill = malloc(n * sizeof(*L.kill));
    L.in = calloc((size_t)n * L.words, sizeof(*L.in));
    bool *ok = malloc(nv * sizeof(*ok));
    uint32_t *rep = malloc(nv * sizeof(*rep));
    int32_t *def_head = malloc(nv * sizeof(*def_head)), *def_tail = malloc(nv * sizeof(*def_tail));
    int32_t *def_next = malloc(n * sizeof(*def_next)), *def_inst = malloc(n * sizeof(*def_inst));
    if (!L.succ || !L.skip || !L.kill || !L.in || !ok || !rep || !def_head || !def_tail ||
        !def_next || !def_inst) {
        p->oom = true;
        goto out;
    }
    if (!build_cfg(p, &L))
        goto out;
    if (!solve_liveness(p, &L)) {
        p->oom = true;
        goto out;
    }
    maskable_vregs(p, ok);
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
        nd++;
    }
    for (unsigned k = 0; k < n; k++) {
        const struct gen_inst *i = &p->inst[k];
        /* a mov between types converts (f <-> d), a scalar or derivative
         * region broadcasts: neither copies the value */
        if (!plain_copy(p, i) || i->dst.type != i->src[0].type ||
            (i->src[0].region != GR_AUTO && i->src[0].region != GR_VEC) || !ok[i->dst.vreg] ||
            !ok[i->src[0].vreg])
            continue;
        uint32_t a = uf_find(rep, i->src[0].vreg), b = uf_find(rep, i->dst.vreg);
        if (a == b)
            continue;
        if (defs_meet(p, &L, rep, def_head, def_next, def_inst, a, b) ||
            defs_meet(p, &L, rep, def_head, def_next, def_inst, b, a))
            continue;
        /* merge b into a: definitions and liveness are the union */
        rep[b] = a;
        if (def_head[b] >= 0) {
            if (def_tail[a] >= 0)
                def_next[def_tail[a]] = def_head[b];
            else
                def_head[a] = def_head[b];
            def_tail[a] = def_tail[b];
        }
        for (unsigned j = 0; j < n; j++) {
            uint64_t *in = &L.in[(size_t)j * L.words];
            if (bit_get(in, b))
                in[a / 64] |= 1ull << (a % 64);
        }
        merged++;
    }
    if (merged) {
        for (unsigned k = 0; k < n; k++) {
            struct gen_inst *i = &p->inst[k];
            if (i->dst.kind == GO_VREG)
                i->dst.vreg = uf_find(rep, i->dst.vreg);
            for (unsigned s = 0; s < 3; s++)
                if (i->src[s].kind == GO_VREG)
                    i->src[s].vreg = uf_find(rep, i->src[s].vreg);
        }
        drop_self_moves(p);
    }
out:
    free(L.succ);
    free(L.skip);
    free(L.kill);
    free(L.in);
    free(ok);
    free(rep);
    free(def_head);
    free(def_tail);
    free(def_next);
    free(def_inst);
    return merged;
}

/* ------------------------------------------------------------------ */
/* Spilling.                                                           */

/* Control-flow depth of each instruction (inside if/else or a loop). */
static void flow_depth(const struct gen_program *p, uint16_t *depth)
{
    uint16_t d = 0;
    for (unsigned k = 0; k < p->ninst; k++) {
        uint8_t op = p->inst[k].op;
        if (op == GOP_ENDIF || op == GOP_WHILE)
            d = d ? d - 1 : 0;
        depth[k] = d;
        if (op == GOP_IF || op == GOP_LABEL)
            d++;
    }
}

static unsigned block_code(uint32_t grfs)
{
    /* OWord block message control: 2, 4, 8 OWords = 1, 2, 4 GRFs */
    return grfs == 1 ? 2 : grfs == 2 ? 3 : 4;
}

/* A scratch header (r0 with dword 2 = offset/16) at `at`; returns its vreg. */
static uint32_t emit_scratch_header(struct gen_program *p, unsigned at, uint32_t offset)
{
    uint32_t h = gen_new_vreg(p, GEN_GRF_SIZE, false);
    p->vreg[h].no_spill = true;
    struct gen_inst *m = gen_insert(p, at);
    m->op = GOP_MOV;
    m->exec = 8;
    m->nomask = true;
    m->dst = gen_vr(h, 0, GT_UD);
    m->src[0] = gen_fixed(0, GT_UD, GR_VEC);
    m = gen_insert(p, at + 1);
    m->op = GOP_MOV;
    m->exec = 1;
    m->nomask = true;
    m->dst = gen_vr(h, 8, GT_UD);
    m->src[0] = gen_imm(offset / 16, GT_UD);
    return h;
}

/* Fill: temp <- scratch[slot], inserted at `at`; returns instructions added. */
static unsigned emit_fill(struct gen_program *p, unsigned at, uint32_t temp, uint32_t slot,
                          uint32_t size)
{
    uint32_t h = emit_scratch_header(p, at, slot);
    struct gen_inst *s = gen_insert(p, at + 2);
    uint32_t grfs = size / GEN_GRF_SIZE;
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
    s->desc = gen_desc(1, grfs, true, (0u << 14) | (block_code(grfs) << 8) | 253u);
    p->fills++;
    return 3;
}

static unsigned emit_spill(struct gen_program *p, unsigned at, uint32_t temp, uint32_t slot,
                           uint32_t size)
{
    uint32_t h = emit_scratch_header(p, at, slot);
    struct gen_inst *s = gen_insert(p, at + 2);
    uint32_t grfs = size / GEN_GRF_SIZE;
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
    s->desc = gen_desc(1, 0, true, (8u << 14) | (block_code(grfs) << 8) | 253u);
    p->spills++;
    return 3;
}

static void spill_vreg(struct gen_program *p, uint32_t v, uint32_t *scratch)
{
    uint32_t size = p->vreg[v].size;
    uint32_t slot = (*scratch + size - 1) / size * size;
    *scratch = slot + size;
    p->vreg[v].spill_slot = (int32_t)slot;
    uint16_t *depth = calloc(p->ninst + 1, sizeof(*depth));
    if (!depth) {
        p->oom = true;
        return;
    }
    flow_depth(p, depth);
    /* walk backwards so insertions do not move what is still to visit */
    for (unsigned k = p->ninst; k-- > 0;) {
        struct gen_inst *i = &p->inst[k];
        bool use = false, def = i->dst.kind == GO_VREG && i->dst.vreg == v;
        for (unsigned s = 0; s < 3; s++)
            if (i->src[s].kind == GO_VREG && i->src[s].vreg == v)
                use = true;
        if (!use && !def)
            continue;
        /* a definition that may leave channels as they were needs the old
         * value first; an unpredicated whole-width write outside control
         * flow writes every channel, even when the value has other
         * definitions (a coalesced phi) */
        bool partial = def && !(i->pred == GP_NONE && depth[k] == 0 && whole_def(p, i));
        uint32_t t = gen_new_vreg(p, size, false);
        p->vreg[t].no_spill = true;
        i = &p->inst[k]; /* the vreg array may have moved, the instruction not */
        for (unsigned s = 0; s < 3; s++)
            if (i->src[s].kind == GO_VREG && i->src[s].vreg == v)
                i->src[s].vreg = t;
        if (def)
            i->dst.vreg = t;
        unsigned after = k + 1;
        if (def)
            emit_spill(p, after, t, slot, size);
        if (use || partial)
            emit_fill(p, k, t, slot, size);
    }
    free(depth);
}

/* ------------------------------------------------------------------ */
/* The scan.                                                           */

struct scan {
    int32_t busy[GEN_FILE_BYTES / 4]; /* last instruction of the dword's occupant; -1 free */
    int32_t grf_max[GEN_NUM_GRFS];
    uint32_t owner[GEN_FILE_BYTES / 4]; /* vreg + 1; 0 = payload or free */
};

static bool fits(const struct scan *sc, uint32_t loc, uint32_t size, int32_t start)
{
    if (size >= GEN_GRF_SIZE && loc % GEN_GRF_SIZE == 0) {
        for (uint32_t g = loc / GEN_GRF_SIZE; g < (loc + size) / GEN_GRF_SIZE; g++)
            if (sc->grf_max[g] >= start)
                return false;
        return true;
    }
    for (uint32_t d = loc / 4; d < (loc + size) / 4; d++)
        if (sc->busy[d] >= start)
            return false;
    return true;
}

static void occupy(struct scan *sc, uint32_t loc, uint32_t size, int32_t end, uint32_t owner)
{
    for (uint32_t d = loc / 4; d < (loc + size) / 4; d++) {
        sc->busy[d] = end;
        sc->owner[d] = owner;
        if (sc->grf_max[d / 8] < end)
            sc->grf_max[d / 8] = end;
    }
}

static int cmp_start(const void *a, const void *b, void *ctx)
{
    const struct interval *iv = ctx;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (iv[x].s != iv[y].s)
        return iv[x].s < iv[y].s ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* qsort has no context argument in C11: a tiny insertion-merge sort instead. */
static void sort_by_start(uint32_t *a, unsigned n, const struct interval *iv)
{
    if (n < 2)
        return;
    uint32_t *tmp = malloc(n * sizeof(*tmp));
    if (!tmp) {
        for (unsigned i = 1; i < n; i++)
            for (unsigned j = i; j > 0 && cmp_start(&a[j - 1], &a[j], (void *)iv) > 0; j--) {
                uint32_t t = a[j];
                a[j] = a[j - 1];
                a[j - 1] = t;
            }
        return;
    }
    for (unsigned w = 1; w < n; w *= 2) {
        for (unsigned lo = 0; lo < n; lo += 2 * w) {
            unsigned mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            unsigned i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = cmp_start(&a[i], &a[j], (void *)iv) <= 0 ? a[i++] : a[j++];
            while (i < mid)
                tmp[k++] = a[i++];
            while (j < hi)
                tmp[k++] = a[j++];
        }
        memcpy(a, tmp, n * sizeof(*a));
    }
    free(tmp);
}

static int32_t place(const struct gen_program *p, const struct scan *sc, uint32_t v, int32_t start)
{
    const struct gen_vreg *r = &p->vreg[v];
    uint32_t lo = (uint32_t)r->grf_lo * GEN_GRF_SIZE, hi = ((uint32_t)r->grf_hi + 1) * GEN_GRF_SIZE;
    if (r->uniform && r->size < GEN_GRF_SIZE) {
        /* uniforms pack from the top of the general range down, so they share GRFs */
        uint32_t top = hi > GEN_EOT_FIRST_GRF * GEN_GRF_SIZE && lo < GEN_EOT_FIRST_GRF * GEN_GRF_SIZE
                           ? GEN_EOT_FIRST_GRF * GEN_GRF_SIZE
                           : hi;
        for (uint32_t g = top / GEN_GRF_SIZE; g-- > lo / GEN_GRF_SIZE;)
            for (uint32_t loc = g * GEN_GRF_SIZE; loc + r->size <= (g + 1) * GEN_GRF_SIZE;
                 loc += r->align)
                if (fits(sc, loc, r->size, start))
                    return (int32_t)loc;
        for (uint32_t loc = top; loc + r->size <= hi; loc += r->align)
            if (fits(sc, loc, r->size, start))
                return (int32_t)loc;
        return -1;
    }
    for (uint32_t loc = lo; loc + r->size <= hi; loc += r->align)
        if (fits(sc, loc, r->size, start))
            return (int32_t)loc;
    return -1;
}

/* One scan; returns the vreg to spill, or UINT32_MAX when everything fit. */
static uint32_t scan_once(struct gen_program *p, bool *impossible)
{
    struct interval *iv = calloc(p->nvreg + 1, sizeof(*iv));
    uint32_t *order = malloc((p->nvreg + 1) * sizeof(*order));
    struct scan *sc = malloc(sizeof(*sc));
    struct interval fixed[GEN_NUM_GRFS];
    uint32_t result = UINT32_MAX;
    if (!iv || !order || !sc) {
        p->oom = true;
        *impossible = true;
        goto out;
    }
    compute_intervals(p, iv, fixed);
    for (unsigned d = 0; d < GEN_FILE_BYTES / 4; d++) {
        sc->busy[d] = -1;
        sc->owner[d] = 0;
    }
    for (unsigned g = 0; g < GEN_NUM_GRFS; g++)
        sc->grf_max[g] = -1;
    bool touched[GEN_NUM_GRFS] = {false};
    for (unsigned g = 0; g < GEN_NUM_GRFS; g++)
        if (fixed[g].s <= fixed[g].e) {
            occupy(sc, g * GEN_GRF_SIZE, GEN_GRF_SIZE, fixed[g].e, 0);
            touched[g] = true;
        }
    unsigned n = 0;
    for (uint32_t v = 0; v < p->nvreg; v++) {
        p->vreg[v].loc = -1;
        if (iv[v].s <= iv[v].e)
            order[n++] = v;
    }
    sort_by_start(order, n, iv);
    for (unsigned k = 0; k < n; k++) {
        uint32_t v = order[k];
        int32_t loc = place(p, sc, v, iv[v].s);
        if (loc < 0) {
            /* spill the active spillable value that lives longest */
            uint32_t best = UINT32_MAX;
            int32_t best_end = -1;
            const struct gen_vreg *r = &p->vreg[v];
            if (!r->no_spill && !r->uniform && r->size >= GEN_GRF_SIZE) {
                best = v;
                best_end = iv[v].e;
            }
            for (unsigned d = 0; d < GEN_FILE_BYTES / 4; d++) {
                uint32_t o = sc->owner[d];
                if (!o || sc->busy[d] < iv[v].s)
                    continue;
                const struct gen_vreg *c = &p->vreg[o - 1];
                if (c->no_spill || c->uniform || c->size < GEN_GRF_SIZE)
                    continue;
                if (iv[o - 1].e > best_end) {
                    best = o - 1;
                    best_end = iv[o - 1].e;
                }
            }
            if (best == UINT32_MAX)
                *impossible = true;
            result = best;
            goto out;
        }
        p->vreg[v].loc = loc;
        occupy(sc, (uint32_t)loc, p->vreg[v].size, iv[v].e, v + 1);
        for (uint32_t g = (uint32_t)loc / GEN_GRF_SIZE;
             g < ((uint32_t)loc + p->vreg[v].size + GEN_GRF_SIZE - 1) / GEN_GRF_SIZE; g++)
            touched[g] = true;
    }
    /* registers that hold something at some point (payload included) */
    p->grfs_used = 0;
    for (unsigned g = 0; g < GEN_NUM_GRFS; g++)
        p->grfs_used += touched[g];
out:
    free(iv);
    free(order);
    free(sc);
    return result;
}

bool gen_allocate(struct gen_program *p)
{
    coalesce(p);
    coalesce_live(p);
    uint32_t scratch = p->layout.scratch_bytes;
    for (unsigned round = 0; round < 400 && !p->oom; round++) {
        bool impossible = false;
        uint32_t v = scan_once(p, &impossible);
        if (impossible)
            return false;
        if (v == UINT32_MAX) {
            p->layout.scratch_bytes = scratch;
            return true;
        }
        spill_vreg(p, v, &scratch);
    }
    return false;
}
