/* requires: MIR from select.c (vregs in SSA form but for phi copies), lane liveness (liveness.c).
 * invalidates: liveness (renames vregs, shrinks writemasks, kills instructions). */
/*
 * coalesce.c — removing merges the way a vector GPU wants: the values a
 * merge collects write the merged register directly, each under the
 * writemask of the lanes the merge took from it.
 *
 * A merge input S (a vreg read with an identity swizzle on the lanes taken
 * and no modifier) is renamed into the merge's destination D when the two
 * do not interfere lane by lane (mir_interference): nowhere is one written
 * in a lane while the other is live in that lane, the merge's own copy
 * excepted.  Before the test, every definition's writemask is shrunk to
 * its live lanes, so an input whose other lanes are dead never blocks the
 * merge with them.  Chains (a merge of a merge), phi copies on both arms of
 * an if, and a merge fed twice by one value all reduce to this one test;
 * an input whose lanes are still read elsewhere after the merge is real
 * interference and keeps exactly one writemasked mov.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"
#include "mir.h"

static bool has_side_effect(const struct mir_instr *in)
{
    if (!in->has_dst)
        return true; /* flow */
    return in->dst.kind == MIR_FIXED;
}

bool mir_shrink(struct mir_prog *p, const struct mir_live *lv)
{
    bool changed = false;
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr *in = &p->ins[i];
        if (in->dead || has_side_effect(in) || in->dst.kind != MIR_VREG)
            continue;
        uint8_t live = lv->out[(size_t)i * lv->nv + in->dst.vreg];
        uint8_t keep = in->dst.mask & live;
        if (!keep) {
            in->dead = true;
            changed = true;
            continue;
        }
        if (keep == in->dst.mask || !mir_op_shrinkable(in->op))
            continue;
        in->dst.mask = keep;
        if (in->op == MIR_OP_MERGE) {
            unsigned w = 0;
            for (unsigned k = 0; k < in->nsrc; k++) {
                uint8_t l = in->lanes[k] & keep;
                if (!l)
                    continue;
                in->src[w] = in->src[k];
                in->lanes[w] = l;
                w++;
            }
            in->nsrc = w;
        }
        changed = true;
    }
    return changed;
}

static void count_uses(const struct mir_prog *p, unsigned *uses, unsigned *defs)
{
    memset(uses, 0, sizeof(unsigned) * p->nvregs);
    memset(defs, 0, sizeof(unsigned) * p->nvregs);
    for (unsigned i = 0; i < p->n; i++) {
        const struct mir_instr *in = &p->ins[i];
        if (in->dead)
            continue;
        for (unsigned k = 0; k < in->nsrc; k++)
            if (in->src[k].kind == MIR_VREG)
                uses[in->src[k].vreg]++;
        if (in->has_dst && in->dst.kind == MIR_VREG)
            defs[in->dst.vreg]++;
    }
}

/* Can op's destination be a register of this file (outputs: any ALU op
 * except texture loads in the 2_0 models). */
static uint32_t pin_of(const struct mir_prog *p, uint32_t v);

static bool dst_ok(const struct mir_prog *p, unsigned op, const struct mir_dst *d)
{
    if (d->kind == MIR_VREG)
        return true;
    /* ARB: every instruction with a destination may write a result.* */
    if (p->arb)
        return op != ST_OP_ARB_ARL;
    if (op == ST_OP_TEXLD || op == ST_OP_CRS || op == ST_OP_SETP)
        return false;
    /* ps outputs are written by mov only in ps_2_0/2_x (and must be whole) */
    if (p->type == ST_PS)
        return false;
    return true;
}

static bool is_flow(unsigned op);

/*
 * May the write of register dst (a fixed register) move from instruction
 * `to` up to instruction `from`?  Not across another write that may reach
 * the same register (its file relatively, or that very register: the
 * order of the two writes decides what is left), and for a relative
 * destination not across flow or an a0 write (the address could differ).
 */
static bool fixed_move_ok(const struct mir_prog *p, unsigned from, unsigned to,
                          const struct mir_dst *dst)
{
    for (unsigned j = from + 1; j < to; j++) {
        const struct mir_instr *x = &p->ins[j];
        if (x->dead)
            continue;
        if (dst->rel && (is_flow(x->op) || (x->has_dst && x->dst.kind == MIR_FIXED &&
                                            x->dst.file == ST_REG_ADDR)))
            return false;
        if (x->has_dst && x->dst.kind == MIR_FIXED && x->dst.file == dst->file &&
            (dst->rel || x->dst.rel || x->dst.index == dst->index))
            return false;
    }
    return true;
}

unsigned mir_fold_copies(struct mir_prog *p)
{
    unsigned folded = 0;
    unsigned *uses = malloc(sizeof(unsigned) * (p->nvregs ? p->nvregs : 1));
    unsigned *defs = malloc(sizeof(unsigned) * (p->nvregs ? p->nvregs : 1));
    unsigned *defat = malloc(sizeof(unsigned) * (p->nvregs ? p->nvregs : 1));
    if (!uses || !defs || !defat) {
        free(uses);
        free(defs);
        free(defat);
        p->oom = true;
        return 0;
    }
    count_uses(p, uses, defs);
    for (unsigned v = 0; v < p->nvregs; v++)
        defat[v] = MIR_NONE;
    for (unsigned i = 0; i < p->n; i++)
        if (!p->ins[i].dead && p->ins[i].has_dst && p->ins[i].dst.kind == MIR_VREG)
            defat[p->ins[i].dst.vreg] = i;
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr *m = &p->ins[i];
        if (m->dead || m->op != ST_OP_MOV || m->nsrc != 1 || m->src[0].kind != MIR_VREG ||
            m->src[0].mod != MIR_MOD_NONE)
            continue;
        uint32_t v = m->src[0].vreg;
        if (uses[v] != 1 || defs[v] != 1 || defat[v] == MIR_NONE || defat[v] > i)
            continue;
        if (m->dst.kind == MIR_VREG && defs[m->dst.vreg] != 1)
            continue;
        struct mir_instr *d = &p->ins[defat[v]];
        if (d->op == MIR_OP_MERGE || d->op == MIR_OP_OPAQUE || d->predicated ||
            d->dst.kind != MIR_VREG || !dst_ok(p, d->op, &m->dst))
            continue;
        if (m->dst.kind == MIR_FIXED && !fixed_move_ok(p, defat[v], i, &m->dst))
            continue;
        if (m->predicated || m->shift)
            continue;
        /* a pinned vreg keeps its own definition (it names a register) */
        if (pin_of(p, v) != MIR_NONE)
            continue;
        uint8_t W = m->dst.mask, swz = m->src[0].swz;
        if (mir_op_componentwise(d->op)) {
            /* lane i of the new destination is lane swz[i] of the old one */
            bool ok = true;
            for (unsigned l = 0; l < 4; l++)
                if ((W >> l) & 1 && !((d->dst.mask >> ST_SWZ_LANE(swz, l)) & 1))
                    ok = false;
            if (!ok)
                continue;
            for (unsigned k = 0; k < d->nsrc; k++) {
                uint8_t old = d->src[k].swz, ns = 0;
                unsigned any = ST_SWZ_LANE(old, ST_SWZ_LANE(swz, 0));
                for (unsigned l = 0; l < 4; l++) {
                    unsigned sl = (W >> l) & 1 ? ST_SWZ_LANE(old, ST_SWZ_LANE(swz, l)) : any;
                    ns |= (uint8_t)(sl << (2 * l));
                }
                d->src[k].swz = ns;
            }
        } else if (mir_op_replicates(d->op)) {
            bool ok = true;
            for (unsigned l = 0; l < 4; l++)
                if ((W >> l) & 1 && !((d->dst.mask >> ST_SWZ_LANE(swz, l)) & 1))
                    ok = false;
            if (!ok)
                continue;
        } else {
            /* texld, nrm: only an identity copy of every lane they write */
            if (W != d->dst.mask || swz != ST_SWIZZLE_IDENTITY)
                continue;
        }
        d->dst = m->dst;
        d->sat = d->sat || m->sat;
        m->dead = true;
        folded++;
        if (m->dst.kind == MIR_VREG)
            defat[m->dst.vreg] = defat[v];
        defs[v] = 0;
    }
    free(uses);
    free(defs);
    free(defat);
    return folded;
}

static uint32_t pin_of(const struct mir_prog *p, uint32_t v)
{
    for (unsigned k = 0; k < p->npins; k++)
        if (p->pins[k].vreg == v)
            return p->pins[k].reg;
    return MIR_NONE;
}

static bool is_flow(unsigned op)
{
    switch (op) {
    case ST_OP_IF: case ST_OP_IFC: case ST_OP_ELSE: case ST_OP_ENDIF: case ST_OP_REP:
    case ST_OP_ENDREP: case ST_OP_LOOP: case ST_OP_ENDLOOP: case ST_OP_BREAK: case ST_OP_BREAKC:
    case ST_OP_BREAKP: case ST_OP_RET:
        return true;
    default:
        return false;
    }
}

/*
 * "(p0) mov D, V" where V's one definition (unpredicated, used only here)
 * stands earlier in the same straight-line stretch: that definition moves
 * down to the mov's place and writes D itself under the predicate.  It
 * then reads its sources later, so nothing in between may write them (nor
 * p0, nor a0), and no flow instruction may stand in between.
 */
unsigned mir_sink_predicated(struct mir_prog *p)
{
    unsigned folded = 0;
    unsigned *uses = malloc(sizeof(unsigned) * (p->nvregs ? p->nvregs : 1));
    unsigned *defs = malloc(sizeof(unsigned) * (p->nvregs ? p->nvregs : 1));
    if (!uses || !defs) {
        free(uses);
        free(defs);
        p->oom = true;
        return 0;
    }
    count_uses(p, uses, defs);
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr *m = &p->ins[i];
        if (m->dead || m->op != ST_OP_MOV || !m->predicated || m->nsrc != 1 || m->shift ||
            m->src[0].kind != MIR_VREG || m->src[0].mod != MIR_MOD_NONE)
            continue;
        uint32_t v = m->src[0].vreg;
        if (uses[v] != 1 || defs[v] != 1 || pin_of(p, v) != MIR_NONE)
            continue;
        unsigned j = i;
        while (j-- > 0) {
            const struct mir_instr *x = &p->ins[j];
            if (!x->dead && x->has_dst && x->dst.kind == MIR_VREG && x->dst.vreg == v)
                break;
        }
        if (j == UINT_MAX || j >= i)
            continue;
        struct mir_instr *d = &p->ins[j];
        if (d->predicated || d->op == MIR_OP_MERGE || d->op == MIR_OP_OPAQUE ||
            d->op == ST_OP_SETP || d->op == ST_OP_MOVA || d->op == ST_OP_TEXKILL ||
            !dst_ok(p, d->op, &m->dst))
            continue;
        bool ok = true;
        for (unsigned q = j + 1; q < i && ok; q++) {
            const struct mir_instr *x = &p->ins[q];
            if (x->dead)
                continue;
            if (is_flow(x->op) || x->op == ST_OP_SETP || x->op == ST_OP_MOVA ||
                x->op == MIR_OP_OPAQUE)
                ok = false;
            for (unsigned k = 0; k < d->nsrc && ok && x->has_dst; k++)
                if (d->src[k].kind == x->dst.kind &&
                    (x->dst.kind == MIR_VREG ? d->src[k].vreg == x->dst.vreg
                                             : d->src[k].file == x->dst.file &&
                                                   d->src[k].index == x->dst.index))
                    ok = false;
        }
        if (!ok)
            continue;
        uint8_t W = m->dst.mask, swz = m->src[0].swz;
        struct mir_instr nd = *d;
        if (mir_op_componentwise(d->op)) {
            for (unsigned l = 0; l < 4; l++)
                if ((W >> l) & 1 && !((d->dst.mask >> ST_SWZ_LANE(swz, l)) & 1))
                    ok = false;
            if (!ok)
                continue;
            for (unsigned k = 0; k < nd.nsrc; k++) {
                uint8_t old = nd.src[k].swz, ns = 0;
                unsigned any = ST_SWZ_LANE(old, ST_SWZ_LANE(swz, 0));
                for (unsigned l = 0; l < 4; l++) {
                    unsigned sl = (W >> l) & 1 ? ST_SWZ_LANE(old, ST_SWZ_LANE(swz, l)) : any;
                    ns |= (uint8_t)(sl << (2 * l));
                }
                nd.src[k].swz = ns;
            }
        } else if (mir_op_replicates(d->op)) {
            for (unsigned l = 0; l < 4; l++)
                if ((W >> l) & 1 && !((d->dst.mask >> ST_SWZ_LANE(swz, l)) & 1))
                    ok = false;
            if (!ok)
                continue;
        } else if (W != d->dst.mask || swz != ST_SWIZZLE_IDENTITY) {
            continue;
        }
        nd.dst = m->dst;
        nd.sat = d->sat || m->sat;
        nd.predicated = true;
        nd.pred_swz = m->pred_swz;
        nd.pred_not = m->pred_not;
        *m = nd;
        d->dead = true;
        folded++;
        count_uses(p, uses, defs);
    }
    free(uses);
    free(defs);
    return folded;
}

static void rename_vreg(struct mir_prog *p, uint32_t from, uint32_t to)
{
    for (unsigned k = 0; k < p->npins; k++)
        if (p->pins[k].vreg == from)
            p->pins[k].vreg = to;
    for (unsigned k = 0; k < p->nexit_live; k++)
        if (p->exit_live[k] == from)
            p->exit_live[k] = to;
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr *in = &p->ins[i];
        if (in->has_dst && in->dst.kind == MIR_VREG && in->dst.vreg == from)
            in->dst.vreg = to;
        for (unsigned k = 0; k < in->nsrc; k++)
            if (in->src[k].kind == MIR_VREG && in->src[k].vreg == from)
                in->src[k].vreg = to;
    }
}

static bool identity_on(const struct mir_src *s, uint8_t lanes)
{
    if (s->kind != MIR_VREG || s->mod != MIR_MOD_NONE)
        return false;
    for (unsigned l = 0; l < 4; l++)
        if ((lanes >> l) & 1 && ST_SWZ_LANE(s->swz, l) != l)
            return false;
    return true;
}

static void drop_input(struct mir_instr *in, unsigned k)
{
    for (unsigned j = k + 1; j < in->nsrc; j++) {
        in->src[j - 1] = in->src[j];
        in->lanes[j - 1] = in->lanes[j];
    }
    in->nsrc--;
}

/* Liveness, then writemask shrinking until nothing changes. */
static bool settle(struct mir_prog *p, struct mir_live *lv)
{
    for (;;) {
        mir_live_free(lv);
        if (!mir_liveness(p, lv))
            return false;
        if (!mir_shrink(p, lv))
            return true;
    }
}

bool mir_coalesce(struct st_ctx *ctx, struct mir_prog *p, struct st_merge_stats *stats)
{
    struct mir_live lv = {0};
    uint8_t *why = calloc(p->n ? p->n : 1, 1); /* bit 0: interference, bit 1: unfit input */
    if (!why || !settle(p, &lv))
        goto oom;
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr *in = &p->ins[i];
        if (in->dead || in->op != MIR_OP_MERGE)
            continue;
        /* compile budget, cancel: a liveness update (a sweep of every vreg
         * at every instruction) may follow each merge input */
        if (!st_poll(ctx, (uint64_t)p->n * (p->nvregs ? p->nvregs : 1) * in->nsrc))
            goto stop;
        for (unsigned k = 0; k < in->nsrc && !in->dead;) {
            struct mir_src *s = &in->src[k];
            uint32_t D = in->dst.vreg;
            if (!identity_on(s, in->lanes[k])) {
                why[i] |= 2;
                k++;
                continue;
            }
            if (s->vreg == D) {
                /* already in place (a merge fed by its own register) */
                in->dst.mask &= (uint8_t)~in->lanes[k];
                drop_input(in, k);
                continue;
            }
            uint32_t pa = pin_of(p, s->vreg), pb = pin_of(p, D);
            if (mir_interference(p, &lv, s->vreg, D) || (pa != MIR_NONE && pb != MIR_NONE && pa != pb)) {
                why[i] |= 1;
                k++;
                continue;
            }
            rename_vreg(p, s->vreg, D);
            /* the input is now a copy of D into D */
            in->dst.mask &= (uint8_t)~in->lanes[k];
            drop_input(in, k);
            if (!settle(p, &lv))
                goto oom;
            k = 0; /* the other inputs may have been renamed too */
            why[i] = 0;
        }
        if (!in->dead && in->nsrc == 0) {
            in->dead = true;
            if (!settle(p, &lv))
                goto oom;
        }
    }
    for (unsigned i = 0; i < p->n; i++) {
        const struct mir_instr *in = &p->ins[i];
        if (in->op != MIR_OP_MERGE)
            continue;
        if (in->dead)
            stats->merges_eliminated++;
        else if (why[i] & 1)
            stats->merges_interfering++;
        else
            stats->merges_unfit++;
    }
    free(why);
    mir_live_free(&lv);
    return true;
oom:
    st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
stop:
    free(why);
    mir_live_free(&lv);
    return false;
}

/*
 * After coalescing: "mov oX, D" where D is read nowhere else becomes D's
 * definitions writing oX themselves (vertex shaders: their outputs are
 * write-only and any arithmetic instruction may write them).  Shrinking
 * already limited every definition of D to the lanes the mov reads.
 */
unsigned mir_fold_outputs(struct mir_prog *p)
{
    /* ARB fragment programs' results are write-only too */
    if ((p->type != ST_VS && !p->arb) || !p->nvregs)
        return 0;
    unsigned folded = 0;
    unsigned *uses = malloc(sizeof(unsigned) * p->nvregs);
    unsigned *defs = malloc(sizeof(unsigned) * p->nvregs);
    if (!uses || !defs) {
        free(uses);
        free(defs);
        p->oom = true;
        return 0;
    }
    count_uses(p, uses, defs);
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr *m = &p->ins[i];
        if (m->dead || m->op != ST_OP_MOV || m->sat || m->dst.kind != MIR_FIXED ||
            m->src[0].kind != MIR_VREG || !identity_on(&m->src[0], m->dst.mask))
            continue;
        uint32_t D = m->src[0].vreg;
        if (uses[D] != 1 || defs[D] == 0)
            continue;
        bool ok = true;
        for (unsigned j = 0; j < p->n && ok; j++) {
            const struct mir_instr *d = &p->ins[j];
            if (d->dead || !d->has_dst || d->dst.kind != MIR_VREG || d->dst.vreg != D)
                continue;
            if (j > i || !mir_op_shrinkable(d->op) || (d->dst.mask & ~m->dst.mask) ||
                d->op == ST_OP_CRS || m->dst.rel || !fixed_move_ok(p, j, i, &m->dst))
                ok = false;
            /* a scalar output takes the first written lane: only ops whose
             * lanes are their sources' lanes (or all one value) say which */
            bool scalar = (m->dst.file == ST_REG_RASTOUT && m->dst.index != ST_RASTOUT_POS) ||
                          m->dst.file == ST_REG_DEPTHOUT;
            if (scalar && !mir_op_componentwise(d->op) && !mir_op_replicates(d->op))
                ok = false;
        }
        if (!ok)
            continue;
        for (unsigned j = 0; j < i; j++) {
            struct mir_instr *d = &p->ins[j];
            if (!d->dead && d->has_dst && d->dst.kind == MIR_VREG && d->dst.vreg == D) {
                uint8_t mask = d->dst.mask;
                d->dst = m->dst;
                d->dst.mask = mask;
            }
        }
        m->dead = true;
        folded++;
    }
    free(uses);
    free(defs);
    return folded;
}

/*
 * A merge input that is not a plain vreg (a constant, an input register, a
 * swizzled or negated view) cannot be renamed into the merged register.
 * It becomes a mov of its own into a new vreg, which the merge then takes
 * in place: coalescing can remove the merge, and mir_fold_copies can move
 * a swizzled view's computation into the lanes the merge wants.  What is
 * left is the mov the input lanes need anyway (a constant written into
 * some lanes is an instruction of the input shader too).
 */
bool mir_split_merge_inputs(struct mir_prog *p, struct st_merge_stats *stats)
{
    struct mir_prog q = *p;
    q.ins = NULL;
    q.n = q.cap = 0;
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr cur = p->ins[i];
        if (!cur.dead && cur.op == MIR_OP_MERGE) {
            for (unsigned k = 0; k < cur.nsrc; k++) {
                if (identity_on(&cur.src[k], cur.lanes[k]))
                    continue;
                uint32_t t = mir_new_vreg(p);
                q.nvregs = p->nvregs;
                struct mir_instr *mv = mir_append(&q);
                if (!mv) {
                    free(q.ins);
                    return false;
                }
                mv->op = ST_OP_MOV;
                mv->has_dst = true;
                mv->dst = (struct mir_dst){.kind = MIR_VREG, .mask = cur.lanes[k], .vreg = t};
                mv->nsrc = 1;
                mv->src[0] = cur.src[k];
                cur.src[k] = mir_src_vreg(t, ST_SWIZZLE_IDENTITY);
                stats->inputs_materialized++;
            }
        }
        struct mir_instr *o = mir_append(&q);
        if (!o) {
            free(q.ins);
            return false;
        }
        *o = cur;
    }
    free(p->ins);
    p->ins = q.ins;
    p->n = q.n;
    p->cap = q.cap;
    return true;
}

static bool same_dst_reg(const struct mir_prog *p, const struct mir_dst *a, const struct mir_dst *b)
{
    if (a->kind != b->kind || a->rel != b->rel)
        return false;
    if (a->kind == MIR_VREG)
        return p->phys[a->vreg] == p->phys[b->vreg];
    return a->file == b->file && a->index == b->index;
}

static bool same_src(const struct mir_prog *p, const struct mir_src *a, const struct mir_src *b)
{
    if (a->kind != b->kind || a->swz != b->swz || a->mod != b->mod || a->rel != b->rel)
        return false;
    if (a->kind == MIR_VREG)
        return p->phys[a->vreg] == p->phys[b->vreg];
    return a->file == b->file && a->index == b->index;
}

/*
 * After allocation: dp3/dp4 of one vector with consecutive constant rows,
 * writing lanes x, y, (z, (w)) of one register in a row, are the matrix
 * instruction the shader probably wrote (m4x4, m4x3, m3x4, m3x3, m3x2):
 * the same dot products in the same order.  Only when the destination is
 * not the vector itself, where the dots would read lanes already written.
 */
unsigned mir_fuse_matrices(struct mir_prog *p)
{
    unsigned fused = 0;
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr *a = &p->ins[i];
        if (a->dead || (a->op != ST_OP_DP3 && a->op != ST_OP_DP4) || a->sat || a->predicated ||
            a->dst.mask != 0x1 || a->src[1].kind != MIR_FIXED ||
            a->src[1].file != ST_REG_CONST || a->src[1].rel ||
            a->src[1].swz != ST_SWIZZLE_IDENTITY || a->src[1].mod != MIR_MOD_NONE)
            continue;
        unsigned idx[4] = {i, 0, 0, 0}, n = 1;
        for (unsigned j = i + 1; j < p->n && n < 4; j++) {
            struct mir_instr *b = &p->ins[j];
            if (b->dead)
                continue;
            if (b->op != a->op || b->sat || b->predicated || b->dst.mask != (1u << n) ||
                !same_dst_reg(p, &a->dst, &b->dst) || !same_src(p, &a->src[0], &b->src[0]) ||
                b->src[1].kind != MIR_FIXED || b->src[1].file != ST_REG_CONST ||
                b->src[1].rel || b->src[1].swz != ST_SWIZZLE_IDENTITY ||
                b->src[1].mod != MIR_MOD_NONE || b->src[1].index != a->src[1].index + n)
                break;
            idx[n++] = j;
        }
        unsigned op;
        if (a->op == ST_OP_DP4 && n == 4)
            op = ST_OP_M4x4;
        else if (a->op == ST_OP_DP4 && n == 3)
            op = ST_OP_M4x3;
        else if (a->op == ST_OP_DP3 && n == 4)
            op = ST_OP_M3x4;
        else if (a->op == ST_OP_DP3 && n == 3)
            op = ST_OP_M3x3;
        else if (a->op == ST_OP_DP3 && n == 2)
            op = ST_OP_M3x2;
        else
            continue;
        /* the destination must not be the vector the rows multiply; the
         * matrix forms take their vector plain */
        if (a->src[0].swz != ST_SWIZZLE_IDENTITY || a->src[0].mod != MIR_MOD_NONE)
            continue;
        if (a->dst.kind == MIR_VREG && a->src[0].kind == MIR_VREG &&
            p->phys[a->dst.vreg] == p->phys[a->src[0].vreg])
            continue;
        a->op = (uint16_t)op;
        a->dst.mask = (uint8_t)((1u << n) - 1);
        for (unsigned k = 1; k < n; k++)
            p->ins[idx[k]].dead = true;
        fused++;
        i = idx[n - 1];
    }
    return fused;
}

void st_merge_stats_format(const struct st_merge_stats *s, struct st_buf *out)
{
    st_buf_printf(out,
                  "merge: merges in %u, eliminated %u, writemasked moves left %u, "
                  "not eliminable (lane interference) %u\n",
                  s->merges_in, s->merges_eliminated, s->moves_left, s->merges_interfering);
    st_buf_printf(out, "merge: instructions in %u, out %u; temporaries in %u, out %u\n",
                  s->instrs_in, s->instrs_out, s->temps_in, s->temps_out);
}
