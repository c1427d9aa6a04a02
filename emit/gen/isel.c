/*
 * gen/isel.c — instruction selection: the MIR program (merge/mir.h) to
 * the Gen IR (gen_ir.h).
 *
 * Scalarised per lane (SoA): lane l of a MIR vreg is a Gen value of one
 * dword per channel, or one dword in all when uniform.  A writemask costs
 * nothing: only the lanes written are computed.  A lane with one writer
 * is bound to whatever that writer computes (its result, or the operand
 * a copy reads: a merge input, a payload register, an immediate), so
 * copies cost nothing either; a lane with several writers (the merges
 * coalescing left, phi copies, predicated writes, loop counters) is a
 * variable: one Gen vreg every writer writes, so the Gen IR is not SSA.
 *
 * Uniform values: a lane is computed once per thread (`(W)` SIMD1, read
 * with a scalar region) when every writer is marked uniform by passes/,
 * every source it reads is uniform, and, for a variable, every writer
 * runs in uniform control flow (a write under a divergent branch would
 * clobber the other channels' value).  A fixed point over the program
 * settles it before anything is emitted.
 *
 * Control flow is the MIR's, already structured: if/else/endif and
 * loops (a label, a test of the counter at the top, while) with break.
 * The operations are gen/isel_ops.c's and gen/isel_tex.c's; the payload
 * and the messages gen/kernel.c's.  Nothing here recurses.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isel.h"
#include "isel_const.h"
#include "isel_ops.h"
#include "isel_tex.h"

/* ------------------------------------------------------------------ */
/* State.                                                              */

struct lane {
    struct gen_opnd op; /* the lane's operand (a variable: its vreg; GO_NONE: not yet written) */
    int32_t last;       /* the last instruction writing it (INT32_MAX: a loop's aL) */
    uint8_t writers;    /* instructions writing it, 2 meaning several */
    bool var;           /* a variable */
    bool gu;            /* a uniform Gen value */
};

struct outv {           /* one output component */
    struct gen_opnd op;
    uint8_t writers;
    bool var, top;      /* top: its one write is unconditional, at the top level */
    bool sure;          /* written unconditionally at the top level: no 0 to start from */
};

struct cache_ent {      /* a value computed once and read again where it is still valid */
    uint32_t key[4];
    struct gen_opnd v[4];
    uint32_t region;    /* stable values: valid while this region is open */
    uint32_t seg;       /* volatile values: valid within this straight-line segment */
    bool stable;
};

struct loopf {
    struct gen_opnd cnt;   /* iterations left (uniform dword) */
    struct gen_opnd al;    /* LOOP: the aL variable */
    struct gen_opnd step;
    bool is_loop;
};

struct isel {
    struct gen_build *b;
    struct gen_kernel_info *ki;
    const struct mir_prog *m;
    struct gen_program *p;
    struct gen_opctx oc;   /* float rule and fusion for gen/isel_ops.c */
    bool fast;             /* --fp-contract=fast */
    struct lane *lane;     /* nvregs x 4 */
    struct outv out[ST_LL_OUT_SLOTS][4];
    bool out_written[ST_LL_OUT_SLOTS];
    bool *is_var;          /* Gen vregs that are variables (several writers) */
    int32_t *var_last;     /* ... and the last MIR instruction writing each (INT32_MAX: a loop's aL) */
    unsigned nis_var;
    unsigned cur;          /* the MIR instruction being selected */
    uint8_t *depth;        /* per MIR instruction: flow nesting */
    bool *ctx_uni;         /* per MIR instruction: every enclosing branch and loop uniform */
    struct gen_opnd status;
    bool has_kill;
    struct gen_tex1x tex;
    /* regions (then/else arms, loop bodies) and the values valid in them */
    uint32_t *region_stack;
    unsigned nregion, cap_region;
    bool *region_open;
    uint32_t next_region, cap_open;
    uint32_t seg;
    struct cache_ent *cache;
    unsigned ncache, cap_cache;
    struct loopf *loops;
    unsigned nloops, cap_loops;
    struct gen_relc relc;  /* relative constant reads (gen/isel_const.c) */
    /* the derivatives' masks, valid within straight-line segment dmask_seg
     * (every flow instruction may change which channels run) */
    struct gen_deriv_masks dmask;
    uint32_t dmask_seg;
};

static void fail(struct isel *I, const char *what)
{
    gb_fail(I->b, what);
}

static enum gen_type class_type(unsigned cls)
{
    return cls == MIR_CLASS_INT    ? GT_D
           : cls == MIR_CLASS_BOOL ? GT_UD
           : cls == MIR_CLASS_HALF ? GT_HF
                                   : GT_F;
}

static bool is_sample(unsigned op)
{
    return op == ST_OP_TEXLD || op == ST_OP_TEXLDP || op == ST_OP_TEXLDB || op == ST_OP_TEXLDL ||
           op == ST_OP_TEXLDD;
}

/* The float type instruction `in` reads its sources in: half for a half
 * instruction (mir.h: it rounds them; a HALF vreg is read as it is),
 * except the coordinates of a texture read, which are an address. */
static enum gen_type read_type(const struct mir_instr *in)
{
    return in->half && !is_sample(in->op) ? GT_HF : GT_F;
}

static struct lane *lane_of(struct isel *I, uint32_t v, unsigned l)
{
    return &I->lane[(size_t)v * 4 + (l & 3)];
}

static void mark_var(struct isel *I, struct gen_opnd o, int32_t last)
{
    if (o.kind != GO_VREG)
        return;
    if (o.vreg >= I->nis_var) {
        unsigned n = I->nis_var ? I->nis_var : 64;
        while (n <= o.vreg)
            n *= 2;
        bool *x = realloc(I->is_var, n);
        if (x)
            I->is_var = x;
        int32_t *y = realloc(I->var_last, sizeof(*y) * n);
        if (y)
            I->var_last = y;
        if (!x || !y) {
            I->p->oom = true;
            return;
        }
        memset(x + I->nis_var, 0, n - I->nis_var);
        I->nis_var = n;
    }
    I->is_var[o.vreg] = true;
    I->var_last[o.vreg] = last;
}

/* An operand whose value stays what it is now: read-only payload, an
 * immediate, a value with a single definition (not a variable), or a
 * variable at the top level after its last write. */
static bool stable(const struct isel *I, const struct gen_opnd *o)
{
    if (o->kind != GO_VREG || o->vreg >= I->nis_var || !I->is_var[o->vreg])
        return true;
    return I->depth[I->cur] == 0 && I->var_last[o->vreg] < (int32_t)I->cur;
}

/* ------------------------------------------------------------------ */
/* Regions and caches.                                                 */

static bool region_enter(struct isel *I)
{
    if (I->nregion == I->cap_region) {
        unsigned cap = I->cap_region ? I->cap_region * 2 : 16;
        uint32_t *n = realloc(I->region_stack, sizeof(*n) * cap);
        if (!n)
            return false;
        I->region_stack = n;
        I->cap_region = cap;
    }
    if (I->next_region == I->cap_open) {
        uint32_t cap = I->cap_open ? I->cap_open * 2 : 64;
        bool *n = realloc(I->region_open, sizeof(*n) * cap);
        if (!n)
            return false;
        I->region_open = n;
        I->cap_open = cap;
    }
    uint32_t id = I->next_region++;
    I->region_open[id] = true;
    I->region_stack[I->nregion++] = id;
    I->seg++;
    return true;
}

static void region_leave(struct isel *I)
{
    if (I->nregion > 1)
        I->region_open[I->region_stack[--I->nregion]] = false;
    I->seg++;
}

static struct cache_ent *cache_find(struct isel *I, const uint32_t key[4])
{
    for (unsigned k = I->ncache; k-- > 0;) {
        struct cache_ent *e = &I->cache[k];
        if (memcmp(e->key, key, sizeof(e->key)) != 0)
            continue;
        if (e->stable ? I->region_open[e->region] : e->seg == I->seg)
            return e;
    }
    return NULL;
}

static struct cache_ent *cache_add(struct isel *I, const uint32_t key[4], bool stable_value)
{
    /* drop what no longer holds, so the table stays small */
    unsigned w = 0;
    for (unsigned k = 0; k < I->ncache; k++) {
        struct cache_ent *e = &I->cache[k];
        if (e->stable ? I->region_open[e->region] : e->seg == I->seg)
            I->cache[w++] = *e;
    }
    I->ncache = w;
    if (I->ncache == I->cap_cache) {
        unsigned cap = I->cap_cache ? I->cap_cache * 2 : 64;
        struct cache_ent *n = realloc(I->cache, sizeof(*n) * cap);
        if (!n) {
            I->p->oom = true;
            return NULL;
        }
        I->cache = n;
        I->cap_cache = cap;
    }
    struct cache_ent *e = &I->cache[I->ncache++];
    memset(e, 0, sizeof(*e));
    memcpy(e->key, key, sizeof(e->key));
    e->region = I->region_stack[I->nregion - 1];
    e->seg = I->seg;
    e->stable = stable_value;
    return e;
}

enum { K_INPUT = 1, K_PULL, K_REL_V, K_INTF, K_HALF };

/* ------------------------------------------------------------------ */
/* Analysis: writers, variables, uniform lanes, outputs.               */

/* Lanes of the instruction (pre-swizzle) source k is read in. */
static uint8_t src_need(const struct mir_prog *m, const struct mir_instr *in, unsigned k)
{
    if (k >= in->nsrc)
        return 0;
    switch (in->op) {
    case MIR_OP_MERGE: return in->lanes[k];
    case MIR_OP_OPAQUE: return 0xf;
    case ST_OP_IF: case ST_OP_IFC: case ST_OP_BREAKC: case ST_OP_BREAKP: return 0x1;
    case ST_OP_REP: case ST_OP_LOOP: return 0x7;
    case ST_OP_TEXKILL: return 0x7;
    case ST_OP_ARB_KIL: return 0xf;
    default: break;
    }
    struct st_op_reads_q q = {(enum st_opcode)in->op, k, in->has_dst ? in->dst.mask : 0xf,
                              {in->swz_sel[0], in->swz_sel[1], in->swz_sel[2], in->swz_sel[3]},
                              in->tex_dims, in->tex_target};
    (void)m;
    return st_op_reads(&q);
}

static uint8_t swz_image(uint8_t swz, uint8_t lanes)
{
    uint8_t r = 0;
    for (unsigned l = 0; l < 4; l++)
        if (lanes >> l & 1)
            r |= (uint8_t)(1u << ST_SWZ_LANE(swz, l));
    return r;
}

/* The output slot a fixed destination names (-1: none). */
static int out_slot(const struct isel *I, enum st_regfile f, int32_t idx)
{
    if (I->ki->arb)
        return f == ST_REG_OUTPUT && idx >= 0 && idx < ST_LL_OUT_SLOTS ? idx : -1;
    return idx < 0 ? -1 : st_run_out_slot(f, (uint32_t)idx);
}

static bool scalar_slot(const struct isel *I, int slot)
{
    return !I->ki->arb &&
           (slot == ST_LL_OUT_FOG || slot == ST_LL_OUT_PTS || slot == ST_LL_OUT_DEPTH);
}

/* Is a fixed source a per-channel value however its instruction is marked? */
static bool divergent_fixed(const struct isel *I, const struct mir_src *s)
{
    if (s->kind != MIR_FIXED)
        return false;
    if (s->rel) /* a relative constant read is uniform when its index is (gen/isel_const.c);
                   inputs are per channel */
        return s->file != ST_REG_CONST;
    switch (s->file) {
    case ST_REG_CONST:
        return s->index < 0 || !gen_kernel_const_pushed(I->ki, (uint32_t)s->index);
    case ST_REG_CONSTINT: case ST_REG_CONSTBOOL:
        return false;
    default:
        return true;
    }
}

static bool divergent_op(unsigned op)
{
    switch (op) {
    case MIR_OP_OPAQUE: case ST_OP_TEXLD: case ST_OP_TEXLDP: case ST_OP_TEXLDB: case ST_OP_TEXLDL:
    case ST_OP_TEXLDD: case ST_OP_ARB_TEX: case ST_OP_ARB_TXP: case ST_OP_ARB_TXB: case ST_OP_DSX:
    case ST_OP_DSY:
        return true;
    default:
        return false;
    }
}

/* Flow nesting and uniform control per instruction: a loop is divergent
 * when a break leaves it under a divergent condition. */
static bool analyze_flow(struct isel *I)
{
    const struct mir_prog *m = I->m;
    unsigned n = m->n;
    I->depth = calloc(n + 1, 1);
    I->ctx_uni = calloc(n + 1, sizeof(bool));
    int32_t *open = malloc(sizeof(*open) * (n + 1));
    bool *div_loop = calloc(n + 1, sizeof(bool));
    bool ok = I->depth && I->ctx_uni && open && div_loop;
    for (int pass = 0; ok && pass < 2; pass++) {
        unsigned sp = 0;
        for (unsigned i = 0; i < n; i++) {
            const struct mir_instr *in = &m->ins[i];
            if (in->dead)
                continue;
            if (in->op == ST_OP_ELSE || in->op == ST_OP_ENDIF || in->op == ST_OP_ENDREP ||
                in->op == ST_OP_ENDLOOP) {
                if (sp && in->op != ST_OP_ELSE)
                    sp--;
            }
            bool uni = true;
            for (unsigned k = 0; k < sp; k++) {
                const struct mir_instr *o = &m->ins[open[k]];
                if ((o->op == ST_OP_IF || o->op == ST_OP_IFC) ? !o->uniform : div_loop[open[k]])
                    uni = false;
            }
            I->depth[i] = (uint8_t)(sp > 255 ? 255 : sp);
            I->ctx_uni[i] = uni;
            if (pass == 0 && (in->op == ST_OP_BREAK || in->op == ST_OP_BREAKC ||
                              in->op == ST_OP_BREAKP)) {
                /* divergent when its own test or an if between it and its loop is */
                bool div = in->op != ST_OP_BREAK && !in->uniform;
                for (unsigned k = sp; k-- > 0;) {
                    const struct mir_instr *o = &m->ins[open[k]];
                    if (o->op == ST_OP_REP || o->op == ST_OP_LOOP) {
                        if (div)
                            div_loop[open[k]] = true;
                        break;
                    }
                    if (!o->uniform)
                        div = true;
                }
            }
            if (in->op == ST_OP_IF || in->op == ST_OP_IFC || in->op == ST_OP_REP ||
                in->op == ST_OP_LOOP)
                open[sp++] = (int32_t)i;
        }
    }
    free(open);
    free(div_loop);
    return ok;
}

/* The MIR vreg lanes an instruction reads (sources, predicate, addresses)
 * or writes. */
static void for_each_read(const struct mir_prog *m, const struct mir_instr *in,
                          void (*f)(void *, uint32_t, unsigned), void *u)
{
    for (unsigned k = 0; k < in->nsrc; k++) {
        const struct mir_src *s = &in->src[k];
        if (s->kind == MIR_VREG && s->vreg < m->nvregs) {
            uint8_t need = swz_image(s->swz, src_need(m, in, k));
            for (unsigned l = 0; l < 4; l++)
                if (need >> l & 1)
                    f(u, s->vreg, l);
        }
        if (s->kind == MIR_FIXED && s->rel && s->rel_vreg < m->nvregs)
            f(u, s->rel_vreg, s->rel_lane);
    }
    if (in->predicated && in->pred.kind == MIR_VREG && in->pred.vreg < m->nvregs) {
        uint8_t need = swz_image(in->pred.swz, in->has_dst ? in->dst.mask : 1);
        for (unsigned l = 0; l < 4; l++)
            if (need >> l & 1)
                f(u, in->pred.vreg, l);
    }
    if (in->has_dst && in->dst.kind == MIR_FIXED && in->dst.rel && in->dst.rel_vreg < m->nvregs)
        f(u, in->dst.rel_vreg, in->dst.rel_lane);
    /* and the lanes it writes: an instruction computes all its lanes one
     * way, so one lane per channel makes the others so too */
    if (in->has_dst && in->dst.kind == MIR_VREG && in->dst.vreg < m->nvregs)
        for (unsigned l = 0; l < 4; l++)
            if (in->dst.mask >> l & 1)
                f(u, in->dst.vreg, l);
}

struct readers {           /* CSR: for each lane, the instructions reading it */
    uint32_t *start, *ins;
    uint32_t n;
};

static void count_read(void *u, uint32_t v, unsigned l)
{
    struct readers *r = u;
    r->start[(size_t)v * 4 + l + 1]++;
}

static void fill_read(void *u, uint32_t v, unsigned l)
{
    struct readers *r = u;
    r->ins[r->start[(size_t)v * 4 + l]++] = r->n;
}


/* Could the instruction's lanes be uniform, sources aside? */
static bool static_uniform(const struct isel *I, const struct mir_instr *in)
{
    if (!in->uniform || divergent_op(in->op))
        return false;
    for (unsigned k = 0; k < in->nsrc; k++)
        if (divergent_fixed(I, &in->src[k]))
            return false;
    return !(in->predicated && divergent_fixed(I, &in->pred));
}

static bool analyze_lanes(struct isel *I)
{
    const struct mir_prog *m = I->m;
    size_t nl = (size_t)m->nvregs * 4;
    I->lane = calloc(nl + 4, sizeof(*I->lane));
    struct readers R = {calloc(nl + 2, sizeof(uint32_t)), NULL, 0};
    uint32_t *work = malloc(sizeof(uint32_t) * (nl + 1));
    bool ok = I->lane && R.start && work;
    for (unsigned i = 0; ok && i < m->n; i++) {
        const struct mir_instr *in = &m->ins[i];
        if (in->dead || !in->has_dst || in->dst.kind != MIR_VREG || in->dst.vreg >= m->nvregs)
            continue;
        for (unsigned l = 0; l < 4; l++) {
            if (!(in->dst.mask >> l & 1))
                continue;
            struct lane *L = lane_of(I, in->dst.vreg, l);
            if (L->writers == 0)
                L->gu = true;
            L->writers = L->writers < 2 && in->op != ST_OP_LOOP ? L->writers + 1 : 2;
            L->last = in->op == ST_OP_LOOP ? INT32_MAX : (int32_t)i;
            if (!static_uniform(I, in))
                L->gu = false;
        }
    }
    /* a variable written under divergent control flow is per channel */
    for (unsigned i = 0; ok && i < m->n; i++) {
        const struct mir_instr *in = &m->ins[i];
        if (in->dead || !in->has_dst || in->dst.kind != MIR_VREG || in->dst.vreg >= m->nvregs ||
            I->ctx_uni[i])
            continue;
        for (unsigned l = 0; l < 4; l++)
            if (in->dst.mask >> l & 1 && lane_of(I, in->dst.vreg, l)->writers > 1)
                lane_of(I, in->dst.vreg, l)->gu = false;
    }
    /* the readers and writers of each lane, then a worklist: a lane read
     * or written by a writer of a uniform lane that is not uniform makes
     * that lane per channel */
    for (unsigned i = 0; ok && i < m->n; i++)
        if (!m->ins[i].dead)
            for_each_read(m, &m->ins[i], count_read, &R);
    if (ok) {
        for (size_t k = 0; k < nl; k++)
            R.start[k + 1] += R.start[k];
        R.ins = malloc(sizeof(uint32_t) * (R.start[nl] + 1));
        ok = R.ins != NULL;
    }
    for (unsigned i = 0; ok && i < m->n; i++)
        if (!m->ins[i].dead) {
            R.n = i;
            for_each_read(m, &m->ins[i], fill_read, &R);
        }
    /* fill_read advanced start[k] to start[k + 1]: shift back */
    for (size_t k = nl; ok && k > 0; k--)
        R.start[k] = R.start[k - 1];
    if (ok)
        R.start[0] = 0;
    unsigned nw = 0;
    for (size_t k = 0; ok && k < nl; k++)
        if (!I->lane[k].gu)
            work[nw++] = (uint32_t)k;
    while (ok && nw) {
        uint32_t k = work[--nw];
        for (uint32_t e = R.start[k]; e < R.start[k + 1]; e++) {
            const struct mir_instr *in = &m->ins[R.ins[e]];
            if (!in->has_dst || in->dst.kind != MIR_VREG)
                continue;
            for (unsigned l = 0; l < 4; l++) {
                struct lane *L = lane_of(I, in->dst.vreg, l);
                if (in->dst.mask >> l & 1 && L->gu) {
                    L->gu = false;
                    work[nw++] = in->dst.vreg * 4 + l;
                }
            }
        }
    }
    free(R.start);
    free(R.ins);
    free(work);
    for (size_t k = 0; ok && k < nl; k++) {
        struct lane *L = &I->lane[k];
        if (L->writers < 2)
            continue;
        L->var = true;
        L->op = gb_val(I->b, L->gu, class_type(m->vclass[k / 4]));
        mark_var(I, L->op, L->last);
    }
    return ok;
}

/* Output components: written once at the top level (bound to the value),
 * or variables; and whether a 0 must be there to start with. */
static void out_write(struct isel *I, int slot, unsigned c, unsigned i, bool plain)
{
    struct outv *o = &I->out[slot][c & 3];
    o->writers = o->writers < 2 ? o->writers + 1 : 2;
    bool top = plain && I->depth[i] == 0;
    o->top = o->writers == 1 && top;
    if (top)
        o->sure = true;
    I->out_written[slot] = true;
}

static void analyze_outputs(struct isel *I)
{
    const struct mir_prog *m = I->m;
    for (unsigned i = 0; i < m->n; i++) {
        const struct mir_instr *in = &m->ins[i];
        if (in->dead)
            continue;
        if (in->op == MIR_OP_OPAQUE && in->ast && in->ast->op == ST_OP_TEXKILL)
            I->has_kill = true;
        if (in->op == ST_OP_TEXKILL || in->op == ST_OP_ARB_KIL)
            I->has_kill = true;
        if (!in->has_dst || in->dst.kind != MIR_FIXED)
            continue;
        if (in->dst.rel) {
            unsigned n = gen_kernel_rel_limit(I->ki->sh, in->dst.file);
            for (unsigned r = 0; r < n; r++) {
                int slot = out_slot(I, in->dst.file, (int32_t)r);
                for (unsigned c = 0; slot >= 0 && c < 4; c++)
                    if (in->dst.mask >> c & 1) {
                        out_write(I, slot, c, i, false);
                        out_write(I, slot, c, i, false);
                    }
            }
            continue;
        }
        int slot = out_slot(I, in->dst.file, in->dst.index);
        if (slot < 0)
            continue;
        bool plain = !in->predicated;
        if (scalar_slot(I, slot)) {
            if (in->dst.mask)
                out_write(I, slot, 0, i, plain);
            continue;
        }
        for (unsigned c = 0; c < 4; c++)
            if (in->dst.mask >> c & 1)
                out_write(I, slot, c, i, plain);
    }
    for (int s = 0; s < ST_LL_OUT_SLOTS; s++)
        for (unsigned c = 0; c < 4; c++) {
            struct outv *o = &I->out[s][c];
            if (!o->writers || o->top)
                continue;
            o->var = true;
            o->op = gb_val(I->b, false, GT_F);
            mark_var(I, o->op, INT32_MAX);
        }
}

/* ------------------------------------------------------------------ */
/* Reading operands.                                                   */

static struct gen_opnd cached_input(struct isel *I, int slot, unsigned c)
{
    uint32_t key[4] = {K_INPUT, (uint32_t)slot, c, 0};
    struct cache_ent *e = cache_find(I, key);
    if (e)
        return e->v[0];
    struct gen_opnd o = gen_kernel_input(I->ki, slot, c);
    e = cache_add(I, key, true);
    if (e)
        e->v[0] = o;
    return o;
}

static int in_slot(const struct isel *I, enum st_regfile f, int32_t idx)
{
    if (I->ki->arb)
        return f == ST_REG_INPUT && idx >= 0 && idx < ST_LL_IN_SLOTS ? idx : -1;
    return idx < 0 ? -1 : st_run_in_slot(f, (uint32_t)idx);
}

/* Element e of a fixed register, as a float. */
static struct gen_opnd fixed_elem(struct isel *I, enum st_regfile f, int32_t idx, unsigned e)
{
    struct gen_build *B = I->b;
    switch (f) {
    case ST_REG_CONST: {
        if (idx < 0)
            return gb_imm_f(0.0f);
        if (gen_kernel_const_pushed(I->ki, (uint32_t)idx))
            return gen_kernel_const(I->ki, (uint32_t)idx, e);
        uint32_t key[4] = {K_PULL, (uint32_t)idx, 0, 0};
        struct cache_ent *c = cache_find(I, key);
        if (!c) {
            struct gen_opnd v[4];
            gen_kernel_pull(I->ki, gen_imm((uint32_t)idx, GT_D), 0xf, v);
            c = cache_add(I, key, true);
            if (!c)
                return gb_imm_f(0.0f);
            memcpy(c->v, v, sizeof(v));
        }
        return c->v[e & 3];
    }
    case ST_REG_CONSTINT: {
        uint32_t key[4] = {K_INTF, (uint32_t)idx, e, 0};
        struct cache_ent *c = cache_find(I, key);
        if (c)
            return c->v[0];
        struct gen_opnd x = gen_kernel_int(I->ki, (uint32_t)idx, e);
        struct gen_opnd d = gb_val(B, true, GT_F);
        gb_mov_to(B, d, x);
        c = cache_add(I, key, true);
        if (c)
            c->v[0] = d;
        return d;
    }
    case ST_REG_CONSTBOOL: {
        struct gen_opnd d = gb_val(B, true, GT_F);
        gb_cmp_flag(B, GC_NE, gen_kernel_bool(I->ki, (uint32_t)idx), gb_imm_d(0), true, 0);
        gb_sel_to(B, d, gb_imm_f(1.0f), gb_imm_f(0.0f), 0, false);
        return d;
    }
    case ST_REG_INPUT: case ST_REG_TEXTURE: case ST_REG_MISC: {
        int slot = in_slot(I, f, idx);
        if (slot < 0)
            return gb_imm_f(0.0f);
        return cached_input(I, slot, e);
    }
    default:
        fail(I, "reading this register file");
        return gb_imm_f(0.0f);
    }
}

/* Element e of a fixed register as a half, for a half instruction: one
 * conversion per input or constant component where the register keeps its
 * value (inputs, constants; relative reads are converted at each read). */
static struct gen_opnd fixed_half(struct isel *I, enum st_regfile f, int32_t idx, unsigned e)
{
    uint32_t key[4] = {K_HALF, (uint32_t)f, (uint32_t)idx, e};
    struct cache_ent *c = cache_find(I, key);
    if (c)
        return c->v[0];
    struct gen_opnd h = gb_convert(I->b, fixed_elem(I, f, idx, e), GT_HF);
    c = cache_add(I, key, true);
    if (c)
        c->v[0] = h;
    return h;
}

/* The operand of a MIR lane: its value, GO_NONE when nothing wrote it. */
static struct gen_opnd lane_value(struct isel *I, uint32_t v, unsigned l)
{
    if (v >= I->m->nvregs) {
        fail(I, "a source naming no value");
        return gb_imm_f(0.0f);
    }
    struct gen_opnd o = lane_of(I, v, l)->op;
    if (o.kind == GO_NONE && !lane_of(I, v, l)->writers)
        return gen_imm(0, class_type(I->m->vclass[v])); /* a register nothing writes: its 0 */
    if (o.kind == GO_NONE) {
        fail(I, "a value read before it is written");
        return gb_imm_f(0.0f);
    }
    return o;
}

/* The elements `elems` of a relative read file[idx + k]. */
static void fetch_rel(struct isel *I, const struct mir_src *s, uint8_t elems, struct gen_opnd vec[4])
{
    struct gen_build *B = I->b;
    struct gen_kernel_info *ki = I->ki;
    if (s->file == ST_REG_CONST) {
        gen_relc_read(&I->relc, I->cur, I->seg, s, elems, vec);
        return;
    }
    if (s->file != ST_REG_INPUT || ki->arb) {
        fail(I, "relative addressing of this register file");
        return;
    }
    struct gen_opnd a = gb_as_type(B, lane_value(I, s->rel_vreg, s->rel_lane), GT_D);
    uint32_t key[4] = {K_REL_V, a.kind == GO_VREG ? a.vreg : 0xffffffffu, (uint32_t)s->index,
                       (uint32_t)s->rel_first ^ (s->rel_count << 16) ^ ((uint32_t)elems << 28)};
    struct cache_ent *c = cache_find(I, key);
    if (c && a.kind == GO_VREG) {
        memcpy(vec, c->v, sizeof(c->v));
        return;
    }
    unsigned n = gen_kernel_rel_limit(ki->sh, ST_REG_INPUT);
    bool reach[16], oob;
    bool known = gen_kernel_rel_reach(ki, s->rel_vreg, s->index, n, reach, &oob);
    gen_kernel_input_rel(ki, a, s->index, known ? reach : NULL, known && oob, elems, vec);
    c = cache_add(I, key, false);
    if (c)
        memcpy(c->v, vec, sizeof(c->v));
}

/* The ps_1_x source modifiers and the sign ones, on one value. */
static struct gen_opnd apply_mod(struct isel *I, struct gen_opnd x, unsigned mod)
{
    struct gen_opctx uc = I->oc;
    uc.uniform = true; /* a modified uniform value is uniform */
    const struct gen_opctx *c = &uc;
    struct gen_build *B = I->b;
    switch (mod) {
    case MIR_MOD_NEG: return gb_fold_imm(gb_neg(x));
    case MIR_MOD_ABS: return gb_fold_imm(gb_abs(x));
    case MIR_MOD_ABSNEG: return gb_fold_imm(gb_neg(gb_abs(x)));
    case MIR_MOD_BIAS: return gen_op_add(c, x, gb_imm_f(-0.5f));
    case MIR_MOD_BIASNEG: return gb_neg(gen_op_add(c, x, gb_imm_f(-0.5f)));
    case MIR_MOD_BX2: case MIR_MOD_BX2NEG: {
        /* 2 * (x - 0.5) is 2x - 1 exactly: one mad */
        bool u = gb_is_uniform(B->p, &x);
        struct gen_opnd d = gb_mad(B, u, gb_imm_f(-1.0f), x, gb_imm_f(2.0f));
        return mod == MIR_MOD_BX2 ? d : gb_neg(d);
    }
    case MIR_MOD_COMP: return gen_op_add(c, gb_neg(x), gb_imm_f(1.0f));
    case MIR_MOD_X2: case MIR_MOD_X2NEG: {
        struct gen_opnd d = gb_alu(B, GOP_MUL, GT_F, true, x, gb_imm_f(2.0f));
        return mod == MIR_MOD_X2 ? d : gb_neg(d);
    }
    default: return x;
    }
}

/* An INT or BOOL lane read as a float. */
static struct gen_opnd to_float(struct isel *I, struct gen_opnd o, unsigned cls)
{
    struct gen_build *B = I->b;
    bool u = gb_is_uniform(B->p, &o);
    struct gen_opnd d = gb_val(B, u, GT_F);
    if (cls == MIR_CLASS_INT) {
        gb_mov_to(B, d, o);
    } else {
        gb_cmp_flag(B, GC_NE, o, gen_imm(0, GT_UD), u, 0);
        gb_sel_to(B, d, gb_imm_f(1.0f), gb_imm_f(0.0f), 0, false);
    }
    return d;
}

/* Source k of `in` in the instruction lanes `need` (swizzle and modifier applied, float). */
static void read_src(struct isel *I, const struct mir_instr *in, unsigned k, uint8_t need,
                     struct gen_opnd out[4])
{
    const struct mir_src *s = &in->src[k];
    uint8_t elems = swz_image(s->swz, need);
    struct gen_opnd vec[4];
    for (unsigned e = 0; e < 4; e++)
        vec[e] = gb_imm_f(0.0f);
    if (s->kind == MIR_FIXED && s->rel && elems) {
        fetch_rel(I, s, elems, vec);
    } else {
        for (unsigned e = 0; e < 4; e++) {
            if (!(elems >> e & 1))
                continue;
            switch (s->kind) {
            case MIR_VREG: {
                vec[e] = lane_value(I, s->vreg, e);
                unsigned cls = s->vreg < I->m->nvregs ? I->m->vclass[s->vreg] : MIR_CLASS_FLOAT;
                if (cls != MIR_CLASS_FLOAT && cls != MIR_CLASS_HALF && in->op != MIR_OP_MERGE &&
                    !(in->op == ST_OP_MOV && in->has_dst && in->dst.kind == MIR_VREG &&
                      in->dst.vreg < I->m->nvregs && I->m->vclass[in->dst.vreg] == cls))
                    vec[e] = to_float(I, vec[e], cls);
                break;
            }
            case MIR_IMM: {
                const struct mir_imm *im = s->vreg < I->m->nimm ? &I->m->imm[s->vreg] : NULL;
                uint32_t bits = im ? im->bits[e] : 0;
                vec[e] = im && im->cls == MIR_CLASS_INT ? gb_imm_f((float)(int32_t)bits)
                                                        : gen_imm(bits, GT_F);
                break;
            }
            default:
                vec[e] = read_type(in) == GT_HF ? fixed_half(I, s->file, s->index, e)
                                                : fixed_elem(I, s->file, s->index, e);
                break;
            }
        }
    }
    for (unsigned e = 0; e < 4; e++)
        if (elems >> e & 1)
            vec[e] = gb_convert(I->b, apply_mod(I, vec[e], s->mod), read_type(in));
    for (unsigned l = 0; l < 4; l++)
        out[l] = need >> l & 1 ? vec[ST_SWZ_LANE(s->swz, l)] : gb_imm_f(0.0f);
}

/* ------------------------------------------------------------------ */
/* Writing results.                                                    */

static bool dst_uniform(struct isel *I, const struct mir_instr *in)
{
    if (!in->has_dst || in->dst.kind != MIR_VREG || in->dst.vreg >= I->m->nvregs)
        return false;
    for (unsigned l = 0; l < 4; l++)
        if (in->dst.mask >> l & 1 && !lane_of(I, in->dst.vreg, l)->gu)
            return false;
    return true;
}

/* Writes x into a variable, or binds a single-writer lane to it. */
static void assign(struct isel *I, struct gen_opnd *slot, bool var, bool gu, struct gen_opnd x)
{
    struct gen_build *B = I->b;
    if (var) {
        if (gb_dst_uniform(B->p, slot) && !gb_is_uniform(B->p, &x)) {
            fail(I, "internal error: a per-channel value written to a uniform one");
            return;
        }
        gb_mov_to(B, *slot, gb_as_type(B, x, (enum gen_type)slot->type));
        return;
    }
    if (stable(I, &x)) {
        *slot = x;
        return;
    }
    /* a variable's current value: copied, it may change later */
    struct gen_opnd t = gb_val(B, gu && gb_is_uniform(B->p, &x), (enum gen_type)x.type);
    gb_mov_to(B, t, x);
    *slot = t;
}

/* The variable a predicated or relative write goes to. */
static bool lane_slot(struct isel *I, const struct mir_instr *in, unsigned l,
                      struct gen_opnd **slot, bool *var, bool *gu)
{
    const struct mir_dst *d = &in->dst;
    if (d->kind == MIR_VREG) {
        if (d->vreg >= I->m->nvregs)
            return false;
        struct lane *L = lane_of(I, d->vreg, l);
        *slot = &L->op;
        *var = L->var;
        *gu = L->gu;
        return true;
    }
    int s = out_slot(I, d->file, d->index);
    /* a register the model does not have (o12 of a folded o[a0.x + 12]) is
     * dropped, as the interpreter drops it */
    if (s < 0)
        return false;
    if (scalar_slot(I, s)) {
        /* a scalar output takes the first lane written */
        for (unsigned k = 0; k < l; k++)
            if (d->mask >> k & 1)
                return false;
        l = 0;
    }
    *slot = &I->out[s][l].op;
    *var = I->out[s][l].var;
    *gu = false;
    return true;
}

/* o[idx + k] = x: one predicated move per register the index may name. */
static void rel_out_write(struct isel *I, const struct mir_instr *in, const struct gen_opnd x[4])
{
    struct gen_build *B = I->b;
    const struct mir_dst *d = &in->dst;
    unsigned n = gen_kernel_rel_limit(I->ki->sh, d->file);
    struct gen_opnd a = gb_reg(B, gb_as_type(B, lane_value(I, d->rel_vreg, d->rel_lane), GT_D));
    bool reach[16], oob;
    bool known = n <= 16 && gen_kernel_rel_reach(I->ki, d->rel_vreg, d->index, n, reach, &oob);
    for (unsigned r = 0; r < n; r++) {
        int slot = out_slot(I, d->file, (int32_t)r);
        if (slot < 0 || (known && !reach[r]))
            continue;
        gb_cmp_flag(B, GC_EQ, a, gb_imm_d((int32_t)r - d->index), false, 0);
        for (unsigned c = 0; c < 4; c++)
            if (d->mask >> c & 1)
                gb_pmov_to(B, I->out[slot][c].op, x[c], 0, false);
    }
}

/* The predicate of lane l's write in flag f1.0; false: never written. */
static bool pred_flag(struct isel *I, const struct mir_instr *in, unsigned l, bool u, bool *invert)
{
    struct gen_build *B = I->b;
    const struct mir_src *s = &in->pred;
    unsigned e = ST_SWZ_LANE(s->swz, l);
    *invert = s->mod == MIR_MOD_NOT;
    struct gen_opnd pv;
    if (s->kind == MIR_VREG) {
        pv = lane_value(I, s->vreg, e);
        pv.type = GT_UD;
    } else if (s->kind == MIR_FIXED && s->file == ST_REG_CONSTBOOL) {
        pv = gen_kernel_bool(I->ki, (uint32_t)s->index);
        pv.type = GT_UD;
    } else if (s->kind == MIR_IMM && s->vreg < I->m->nimm) {
        pv = gen_imm(I->m->imm[s->vreg].bits[e] ? 1u : 0u, GT_UD);
    } else {
        fail(I, "this predicate");
        return false;
    }
    gb_cmp_flag(B, GC_NE, pv, gen_imm(0, GT_UD), u, 1);
    return true;
}

static struct gen_opnd saturate(struct isel *I, struct gen_opnd x, bool u)
{
    float f;
    enum gen_type t = x.type == GT_HF ? GT_HF : GT_F; /* a half stays one */
    if (gb_imm_value(x, &f))
        return gb_imm_ft(st_op_saturate(f), t);
    /* (sat) is the definition's saturate (-0 kept, NaN -> +0): a mov.sat,
     * which gen/opt_fold.c folds into the instruction computing x */
    struct gen_opnd d = gb_val(I->b, u && gb_is_uniform(I->p, &x), t);
    gb_alu_to(I->b, GOP_MOV, d, x, gen_opnd_none(), true);
    return d;
}

/* The float type the lanes of in's destination hold: the class of a vreg,
 * float for an output; 0 for an integer or boolean destination. */
static enum gen_type dst_float_type(const struct isel *I, const struct mir_instr *in)
{
    if (in->dst.kind != MIR_VREG)
        return GT_F;
    unsigned cls = in->dst.vreg < I->m->nvregs ? I->m->vclass[in->dst.vreg] : MIR_CLASS_FLOAT;
    return cls == MIR_CLASS_FLOAT ? GT_F : cls == MIR_CLASS_HALF ? GT_HF : (enum gen_type)0xff;
}

static void write_dst(struct isel *I, const struct mir_instr *in, struct gen_opnd r[4])
{
    struct gen_build *B = I->b;
    if (!in->has_dst)
        return;
    uint8_t mask = in->dst.mask;
    bool u = dst_uniform(I, in);
    for (unsigned l = 0; l < 4; l++) {
        if (!(mask >> l & 1))
            continue;
        if (in->shift) {
            float k = ldexpf(1.0f, in->shift);
            if (r[l].kind == GO_IMM) {
                float f;
                struct gen_opnd x = gb_fold_imm(r[l]);
                memcpy(&f, &x.imm, 4);
                r[l] = gb_imm_f(ldexpf(f, in->shift));
            } else {
                r[l] = gb_alu(B, GOP_MUL, GT_F, u, r[l], gb_imm_f(k));
            }
        }
        if (in->sat)
            r[l] = saturate(I, r[l], u);
        /* a half result into a float output, a float texel into a half
         * vreg (texld_pp): converted (exactly, or rounded to half) */
        enum gen_type ft = dst_float_type(I, in);
        if (ft != (enum gen_type)0xff && gb_is_float_type((enum gen_type)r[l].type))
            r[l] = gb_convert(B, r[l], ft);
    }
    if (in->dst.kind == MIR_VREG && in->dst.vreg < I->m->nvregs &&
        I->m->vclass[in->dst.vreg] == MIR_CLASS_INT)
        I->seg++; /* an address changes: relative reads read again */
    if (in->dst.kind == MIR_FIXED && in->dst.rel) {
        rel_out_write(I, in, r);
        return;
    }
    /* a value about to be overwritten by another lane of this write is copied first */
    for (unsigned l = 0; l < 4; l++) {
        if (!(mask >> l & 1) || r[l].kind != GO_VREG)
            continue;
        for (unsigned m2 = 0; m2 < 4; m2++) {
            struct gen_opnd *slot;
            bool var, gu;
            if (m2 == l || !(mask >> m2 & 1) || !lane_slot(I, in, m2, &slot, &var, &gu) || !var ||
                slot->vreg != r[l].vreg)
                continue;
            struct gen_opnd t = gb_val(B, gb_is_uniform(B->p, &r[l]), (enum gen_type)r[l].type);
            gb_mov_to(B, t, r[l]);
            r[l] = t;
            break;
        }
    }
    int last_e = -1;
    bool last_u = false, invert = false;
    for (unsigned l = 0; l < 4; l++) {
        struct gen_opnd *slot;
        bool var, gu;
        if (!(mask >> l & 1) || !lane_slot(I, in, l, &slot, &var, &gu))
            continue;
        if (!in->predicated) {
            assign(I, slot, var, gu, r[l]);
            continue;
        }
        if (!var) {
            fail(I, "internal error: a predicated write of a value written once");
            return;
        }
        bool su = gb_dst_uniform(B->p, slot);
        int e = (int)ST_SWZ_LANE(in->pred.swz, l);
        if (e != last_e || su != last_u) {
            if (!pred_flag(I, in, l, su, &invert))
                return;
            last_e = e;
            last_u = su;
        }
        gb_pmov_to(B, *slot, gb_as_type(B, r[l], (enum gen_type)slot->type), 1, invert);
    }
}

/* ------------------------------------------------------------------ */
/* Instructions.                                                       */

static void emit_alu(struct isel *I, const struct mir_instr *in)
{
    struct gen_opnd s[3][4], r[4];
    for (unsigned k = 0; k < 3; k++)
        for (unsigned l = 0; l < 4; l++)
            s[k][l] = gb_imm_f(0.0f);
    for (unsigned k = 0; k < in->nsrc && k < 3; k++)
        read_src(I, in, k, src_need(I->m, in, k), s[k]);
    struct gen_opctx c = I->oc;
    c.uniform = dst_uniform(I, in);
    c.cmp = in->cmp;
    c.ft = read_type(in);
    memcpy(c.swz_sel, in->swz_sel, 4);
    c.swz_neg = in->swz_neg;
    if (!gen_op_compute(&c, in->op, (const struct gen_opnd(*)[4])s,
                        in->has_dst ? in->dst.mask : 0, r)) {
        char what[64];
        snprintf(what, sizeof(what), "the operation %s",
                 in->op < ST_OP_COUNT ? st_opinfo[in->op].name : "?");
        fail(I, what);
        return;
    }
    write_dst(I, in, r);
}

static void emit_merge(struct isel *I, const struct mir_instr *in)
{
    struct gen_opnd r[4], s[4];
    for (unsigned l = 0; l < 4; l++)
        r[l] = gb_imm_f(0.0f);
    for (unsigned k = 0; k < in->nsrc && k < 4; k++) {
        read_src(I, in, k, in->lanes[k], s);
        for (unsigned l = 0; l < 4; l++)
            if (in->lanes[k] >> l & 1)
                r[l] = s[l];
    }
    write_dst(I, in, r);
}

static void emit_deriv(struct isel *I, const struct mir_instr *in)
{
    struct gen_opnd s[4], r[4];
    uint8_t mask = in->has_dst ? in->dst.mask : 0;
    read_src(I, in, 0, mask, s);
    /* dsx_pp: the difference of the two halves in float, rounded to half
     * once (write_dst): what the half subtraction gives */
    for (unsigned l = 0; l < 4; l++)
        if (mask >> l & 1)
            s[l] = gb_convert(I->b, s[l], GT_F);
    if (I->dmask_seg != I->seg) {
        memset(&I->dmask, 0, sizeof(I->dmask));
        I->dmask_seg = I->seg;
    }
    gen_op_deriv(&I->oc, in->op == ST_OP_DSX, s, mask, r, &I->dmask);
    write_dst(I, in, r);
}

/* texld* and ARB TEX/TXP/TXB: the coordinates, projected for the p forms;
 * the bias (texldb, TXB) or level (texldl) in w, texldd's gradients. */
static void emit_sample(struct isel *I, const struct mir_instr *in)
{
    struct gen_build *B = I->b;
    bool arb = in->op == ST_OP_ARB_TEX || in->op == ST_OP_ARB_TXP || in->op == ST_OP_ARB_TXB;
    bool proj = in->op == ST_OP_TEXLDP || in->op == ST_OP_ARB_TXP;
    uint8_t need = src_need(I->m, in, 0) | (proj ? 0x8 : 0);
    struct gen_opnd s[4], r[4];
    read_src(I, in, 0, need, s);
    struct gen_opnd c[3];
    unsigned dims = arb ? 3 : in->tex_dims;
    for (unsigned k = 0; k < 3; k++) {
        bool used = arb ? (need >> k & 1) : k < dims;
        c[k] = used ? s[k] : gb_imm_f(0.0f);
        if (used && proj)
            c[k] = gb_math(B, GM_FDIV, false, s[k], s[3]);
    }
    struct gen_sample_lod lod;
    memset(&lod, 0, sizeof(lod));
    lod.kind = GEN_LOD_IMPLICIT;
    if (in->op == ST_OP_TEXLDB || in->op == ST_OP_ARB_TXB || in->op == ST_OP_TEXLDL) {
        lod.kind = in->op == ST_OP_TEXLDL ? GEN_LOD_LEVEL : GEN_LOD_BIAS;
        lod.lod = s[3];
    } else if (in->op == ST_OP_TEXLDD) {
        struct gen_opnd g[2][4];
        for (unsigned k = 0; k < 2; k++)
            read_src(I, in, k + 1, src_need(I->m, in, k + 1), g[k]);
        lod.kind = GEN_LOD_GRAD;
        for (unsigned k = 0; k < 3; k++) {
            bool used = k < dims;
            lod.ddx[k] = used ? g[0][k] : gb_imm_f(0.0f);
            lod.ddy[k] = used ? g[1][k] : gb_imm_f(0.0f);
        }
    }
    gen_kernel_sample(I->ki, in->tex_stage, arb ? in->tex_target + 1u : 0u, c, &lod, r);
    write_dst(I, in, r);
}

/* status |= 1 where f0.0 says the pixel is discarded */
static void kill_where_flag(struct isel *I)
{
    gb_pmov_to(I->b, I->status, gen_imm(1, GT_UD), 0, false);
}

static void emit_kill(struct isel *I, const struct mir_instr *in)
{
    struct gen_build *B = I->b;
    unsigned n = in->op == ST_OP_ARB_KIL ? 4 : 3;
    struct gen_opnd s[4];
    read_src(I, in, 0, (uint8_t)((1u << n) - 1), s);
    if (gb_flag_any_negative(B, s, n))
        kill_where_flag(I);
}

static void emit_opaque(struct isel *I, const struct mir_instr *in)
{
    const struct st_instr *a = in->ast;
    if (!a) {
        fail(I, "a texture instruction without its text");
        return;
    }
    struct gen_opnd src[4][4], r[4];
    for (unsigned k = 0; k < in->nsrc && k < 4; k++)
        read_src(I, in, k, 0xf, src[k]);
    uint8_t co = gen_tex1x_coords(a);
    uint32_t d = a->dst.reg.index;
    for (unsigned s = 0; s < 3; s++)
        for (unsigned c = 0; c < 4; c++)
            I->tex.coord[s][c] = gb_imm_f(0.0f);
    for (unsigned c = 0; c < 3 && d < 8; c++)
        if (co >> c & 1)
            I->tex.coord[0][c] = cached_input(I, ST_LL_IN_T + (int)d, c);
    for (unsigned s = 0; (co & 8) && s < 3 && s <= d && d < 8; s++)
        I->tex.coord[s][3] = cached_input(I, ST_LL_IN_T + (int)(d - s), 3);
    I->tex.kill = false;
    if (!gen_tex1x_compute(&I->tex, a, in->nsrc < 4 ? in->nsrc : 4,
                           (const struct gen_opnd(*)[4])src, r)) {
        fail(I, "this ps_1_x texture instruction");
        return;
    }
    if (I->tex.kill)
        kill_where_flag(I);
    write_dst(I, in, r);
}

/* ------------------------------------------------------------------ */
/* Control flow.                                                       */

static struct gen_inst *flow(struct isel *I, enum gen_op op, bool pred, bool invert)
{
    struct gen_inst *i = gb_inst(I->b, op, false);
    if (pred)
        i->pred = (uint8_t)(invert ? GP_INVERT : GP_NORMAL);
    return i;
}

static enum gen_cmod cmod_of(enum st_compare c)
{
    switch (c) {
    case ST_CMP_GT: return GC_GT;
    case ST_CMP_EQ: return GC_EQ;
    case ST_CMP_GE: return GC_GE;
    case ST_CMP_LT: return GC_LT;
    case ST_CMP_NE: return GC_NE;
    case ST_CMP_LE: return GC_LE;
    default: return GC_NONE;
    }
}

/* f0.0 = the condition of if / breakp in every channel; *invert for "!". */
static bool cond_flag(struct isel *I, const struct mir_src *s, bool *invert)
{
    struct gen_build *B = I->b;
    *invert = s->mod == MIR_MOD_NOT;
    struct gen_opnd v;
    unsigned e = ST_SWZ_LANE(s->swz, 0);
    if (s->kind == MIR_VREG) {
        v = lane_value(I, s->vreg, e);
        v.type = GT_UD;
    } else if (s->kind == MIR_FIXED && s->file == ST_REG_CONSTBOOL) {
        v = gen_kernel_bool(I->ki, (uint32_t)s->index);
        v.type = GT_UD;
    } else if (s->kind == MIR_IMM && s->vreg < I->m->nimm) {
        v = gen_imm(I->m->imm[s->vreg].bits[e] ? 1u : 0u, GT_UD);
    } else {
        fail(I, "this branch condition");
        return false;
    }
    gb_cmp_flag(B, GC_NE, v, gen_imm(0, GT_UD), false, 0);
    return true;
}

/* f0.0 = src0.x cmp src1.x (ifc, breakc). */
static bool compare_flag(struct isel *I, const struct mir_instr *in)
{
    struct gen_opnd a[4], b[4];
    read_src(I, in, 0, 1, a);
    read_src(I, in, 1, 1, b);
    enum gen_cmod cm = cmod_of(in->cmp);
    if (cm == GC_NONE) {
        fail(I, "this comparison");
        return false;
    }
    gb_cmp_flag(I->b, cm, a[0], b[0], false, 0);
    return true;
}

static bool push_loop(struct isel *I, struct loopf f)
{
    if (I->nloops == I->cap_loops) {
        unsigned cap = I->cap_loops ? I->cap_loops * 2 : 8;
        struct loopf *n = realloc(I->loops, sizeof(*n) * cap);
        if (!n)
            return false;
        I->loops = n;
        I->cap_loops = cap;
    }
    I->loops[I->nloops++] = f;
    return true;
}

/*
 * rep / loop: the count is i#.x clamped to 0..255, aL starts at i#.y and
 * steps by i#.z after each iteration.  The counter is tested at the top
 * (a zero count runs nothing), decremented at the bottom.
 */
static void loop_begin(struct isel *I, const struct mir_instr *in)
{
    struct gen_build *B = I->b;
    struct loopf f;
    memset(&f, 0, sizeof(f));
    f.is_loop = in->op == ST_OP_LOOP;
    f.cnt = gb_val(B, true, GT_D);
    mark_var(I, f.cnt, INT32_MAX);
    const struct mir_src *s = &in->src[0];
    struct gen_opnd start;
    if (s->kind == MIR_IMM && s->vreg < I->m->nimm) {
        const uint32_t *v = I->m->imm[s->vreg].bits;
        int32_t n = (int32_t)v[0] < 0 ? 0 : (int32_t)v[0] > 255 ? 255 : (int32_t)v[0];
        gb_mov_to(B, f.cnt, gb_imm_d(n));
        start = gb_imm_d((int32_t)v[1]);
        f.step = gb_imm_d((int32_t)v[2]);
    } else if (s->kind == MIR_FIXED && s->file == ST_REG_CONSTINT) {
        uint32_t idx = (uint32_t)s->index;
        gb_selc_to(B, f.cnt, GC_GE, gen_kernel_int(I->ki, idx, 0), gb_imm_d(0));
        gb_selc_to(B, f.cnt, GC_LT, f.cnt, gb_imm_d(255));
        start = gen_kernel_int(I->ki, idx, 1);
        f.step = gen_kernel_int(I->ki, idx, 2);
    } else {
        fail(I, "this loop count");
        return;
    }
    if (f.is_loop) {
        if (!in->has_dst || in->dst.kind != MIR_VREG || in->dst.vreg >= I->m->nvregs ||
            !lane_of(I, in->dst.vreg, 0)->var) {
            fail(I, "a loop without its aL");
            return;
        }
        f.al = lane_of(I, in->dst.vreg, 0)->op;
        gb_mov_to(B, f.al, start);
    }
    flow(I, GOP_LABEL, false, false);
    if (!region_enter(I) || !push_loop(I, f)) {
        I->p->oom = true;
        return;
    }
    gb_cmp_flag(B, GC_LE, f.cnt, gb_imm_d(0), false, 0);
    flow(I, GOP_BREAK, true, false);
}

static void loop_end(struct isel *I)
{
    struct gen_build *B = I->b;
    if (!I->nloops) {
        fail(I, "the end of a loop that is not open");
        return;
    }
    struct loopf f = I->loops[--I->nloops];
    gb_alu_to(B, GOP_ADD, f.cnt, f.cnt, gb_imm_d(-1), false);
    if (f.is_loop)
        gb_alu_to(B, GOP_ADD, f.al, f.al, f.step, false);
    flow(I, GOP_WHILE, false, false);
    region_leave(I);
}

/* The next live instruction after i (m->n at the end). */
static unsigned next_live(const struct isel *I, unsigned i)
{
    for (i++; i < I->m->n && I->m->ins[i].dead; i++)
        ;
    return i;
}

static unsigned op_at(const struct isel *I, unsigned i)
{
    return i < I->m->n ? I->m->ins[i].op : 0;
}

/*
 * if / ifc at MIR instruction i, its condition in f0.0 (inverted when
 * `invert`).  Arms that are only a break become a predicated break
 * (if c / break / endif is "break when c"); an empty arm is no arm.
 * Returns the instruction to go on with.
 */
static unsigned emit_if(struct isel *I, unsigned i, bool invert)
{
    unsigned a = next_live(I, i), b = next_live(I, a), c = next_live(I, b);
    if (op_at(I, a) == ST_OP_BREAK &&
        (op_at(I, b) == ST_OP_ENDIF || (op_at(I, b) == ST_OP_ELSE && op_at(I, c) == ST_OP_ENDIF))) {
        flow(I, GOP_BREAK, true, invert);
        return next_live(I, op_at(I, b) == ST_OP_ENDIF ? b : c);
    }
    if (op_at(I, a) == ST_OP_ELSE) {
        if (op_at(I, b) == ST_OP_ENDIF)
            return next_live(I, b); /* both arms empty */
        /* the then arm is empty: the else arm under the negated condition */
        flow(I, GOP_IF, true, !invert);
        if (!region_enter(I))
            I->p->oom = true;
        return b;
    }
    if (op_at(I, a) == ST_OP_ENDIF)
        return next_live(I, a);
    flow(I, GOP_IF, true, invert);
    if (!region_enter(I))
        I->p->oom = true;
    return a;
}

/* One flow instruction at index i; returns the next instruction to select. */
static unsigned emit_flow(struct isel *I, unsigned i)
{
    const struct mir_instr *in = &I->m->ins[i];
    bool invert = false;
    unsigned next = next_live(I, i);
    I->seg++;
    switch (in->op) {
    case ST_OP_IF:
        if (cond_flag(I, &in->src[0], &invert))
            next = emit_if(I, i, invert);
        break;
    case ST_OP_IFC:
        if (compare_flag(I, in))
            next = emit_if(I, i, false);
        break;
    case ST_OP_ELSE:
        /* an empty else arm is no arm */
        if (op_at(I, next) != ST_OP_ENDIF)
            flow(I, GOP_ELSE, false, false);
        region_leave(I);
        if (!region_enter(I))
            I->p->oom = true;
        break;
    case ST_OP_ENDIF:
        flow(I, GOP_ENDIF, false, false);
        region_leave(I);
        break;
    case ST_OP_REP: case ST_OP_LOOP:
        loop_begin(I, in);
        break;
    case ST_OP_ENDREP: case ST_OP_ENDLOOP:
        loop_end(I);
        break;
    case ST_OP_BREAK:
        flow(I, GOP_BREAK, false, false);
        break;
    case ST_OP_BREAKC:
        if (compare_flag(I, in))
            flow(I, GOP_BREAK, true, false);
        break;
    case ST_OP_BREAKP:
        if (cond_flag(I, &in->src[0], &invert))
            flow(I, GOP_BREAK, true, invert);
        break;
    default:
        break;
    }
    I->seg++;
    return next;
}

static void emit_instr(struct isel *I, const struct mir_instr *in)
{
    switch (in->op) {
    case MIR_OP_MERGE: emit_merge(I, in); return;
    case MIR_OP_OPAQUE: emit_opaque(I, in); return;
    case ST_OP_TEXLD: case ST_OP_TEXLDP: case ST_OP_TEXLDB: case ST_OP_TEXLDL: case ST_OP_TEXLDD:
    case ST_OP_ARB_TEX: case ST_OP_ARB_TXP: case ST_OP_ARB_TXB:
        emit_sample(I, in);
        return;
    case ST_OP_TEXKILL: case ST_OP_ARB_KIL: emit_kill(I, in); return;
    case ST_OP_DSX: case ST_OP_DSY: emit_deriv(I, in); return;
    case ST_OP_NOP: case ST_OP_PHASE: return;
    default: emit_alu(I, in); return;
    }
}

/* ------------------------------------------------------------------ */
/* The kernel.                                                         */

/* Variables that may be read before any write start at 0: outputs not
 * surely written (the interpreter's outputs start at 0), the status. */
static void prologue(struct isel *I)
{
    for (int s = 0; s < ST_LL_OUT_SLOTS; s++)
        for (unsigned c = 0; c < 4; c++) {
            struct outv *o = &I->out[s][c];
            if (o->var && !o->sure)
                gb_mov_to(I->b, o->op, gb_imm_f(0.0f));
        }
    if (I->has_kill) {
        I->status = gb_val(I->b, false, GT_UD);
        mark_var(I, I->status, INT32_MAX);
        gb_mov_to(I->b, I->status, gen_imm(0, GT_UD));
    }
}

static void hand_over(struct isel *I)
{
    struct gen_kernel_info *ki = I->ki;
    bool listed[ST_LL_OUT_SLOTS] = {false};
    if (!ki->arb) {
        struct st_run_output regs[ST_RUN_MAX_OUTPUTS];
        unsigned n = st_run_output_regs(ki->sh, regs);
        for (unsigned k = 0; k < n; k++) {
            int slot = st_run_out_slot(regs[k].file, regs[k].index);
            if (slot >= 0)
                listed[slot] = true;
        }
    }
    for (int s = 0; s < ST_LL_OUT_SLOTS; s++) {
        ki->out_set[s] = ki->arb ? I->out_written[s] : listed[s];
        for (unsigned c = 0; c < 4; c++) {
            struct gen_opnd o = I->out[s][c].op;
            ki->out[s][c] = o.kind == GO_NONE ? gb_imm_f(0.0f) : o;
        }
    }
    ki->has_status = I->has_kill;
    ki->status = I->status;
}

/* The hooks gen/isel_const.c reads the selection's state through. */
static struct gen_opnd relc_lane(void *u, uint32_t v, unsigned l)
{
    return lane_value(u, v, l);
}

static bool relc_lane_uniform(void *u, uint32_t v, unsigned l)
{
    struct isel *I = u;
    return v < I->m->nvregs && lane_of(I, v, l)->gu;
}

static void isel_free(struct isel *I)
{
    free(I->lane);
    free(I->is_var);
    free(I->var_last);
    free(I->depth);
    free(I->ctx_uni);
    free(I->region_stack);
    free(I->region_open);
    free(I->cache);
    free(I->loops);
    gen_relc_free(&I->relc);
}

bool gen_isel(struct gen_kernel_info *ki, enum st_float_rules rules, enum gen_contract contract)
{
    struct isel I;
    memset(&I, 0, sizeof(I));
    I.b = ki->b;
    I.ki = ki;
    I.m = ki->mir;
    I.p = ki->p;
    I.oc.b = ki->b;
    I.oc.legacy = rules == ST_FLOAT_D3D9;
    I.oc.fuse = contract != GEN_CONTRACT_OFF;
    I.oc.arb = I.m->arb;
    I.oc.ver = I.m->ver;
    I.oc.ft = GT_F;
    I.fast = contract == GEN_CONTRACT_FAST;
    I.tex.op = I.oc;
    I.tex.ki = ki;
    struct gen_relc_hooks hooks = {&I, relc_lane, relc_lane_uniform};
    bool ok = region_enter(&I) && analyze_flow(&I) && analyze_lanes(&I) &&
              gen_relc_init(&I.relc, ki, hooks);
    if (!ok) {
        I.p->oom = true;
    } else {
        analyze_outputs(&I);
        prologue(&I);
        for (unsigned i = next_live(&I, (unsigned)-1); i < I.m->n && !I.b->failed && !I.p->oom;) {
            if (!st_poll(ki->ctx, 1)) { /* compile budget, cancel (reported there) */
                I.b->failed = true;
                break;
            }
            I.cur = i;
            if (mir_is_flow(I.m->ins[i].op)) {
                i = emit_flow(&I, i);
            } else {
                emit_instr(&I, &I.m->ins[i]);
                i = next_live(&I, i);
            }
        }
        I.cur = I.m->n; /* the epilogue: after every write */
        if (!I.b->failed && !I.p->oom) {
            hand_over(&I);
            gen_kernel_epilogue(ki);
        }
    }
    isel_free(&I);
    if (I.p->oom && !I.b->failed) {
        st_error(ki->ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        I.b->failed = true;
    }
    return !I.b->failed;
}
