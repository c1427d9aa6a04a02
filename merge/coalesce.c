/* requires: MIR from select.c (vregs in SSA form but for phi copies and predicated moves).
 * invalidates: vreg numbering (renames vregs into the registers they merge into); writemasks. */
/*
 * coalesce.c — removing merges the way a vector GPU wants: the values a
 * merge collects write the merged register directly, each under the
 * writemask of the lanes the merge took from it; and st_merge, the stage
 * from the LLVM module to the program every target reads.
 *
 * A merge input S (a vreg read with an identity swizzle on the lanes taken
 * and no modifier) is renamed into the merge's destination D when the two
 * do not interfere lane by lane (liveness.c): nowhere is one written in a
 * lane while the other is live in that lane, the merge's own copy
 * excepted.  Before the test, every definition's writemask is shrunk to
 * its live lanes, so an input whose other lanes are dead never blocks the
 * merge with them.  Chains (a merge of a merge), phi copies on both arms of
 * an if, and a merge fed twice by one value all reduce to this one test,
 * made on one interference graph: renaming S into D gives D the union of
 * both vregs' interference (union-find), with no new liveness.  An input
 * whose lanes are still read elsewhere after the merge is real
 * interference and keeps exactly one writemasked mov.
 */
#include <stdlib.h>
#include <string.h>

#include "merge.h"

static bool has_side_effect(const struct mir_instr *in)
{
    if (!in->has_dst || mir_is_flow(in->op))
        return true; /* flow, kill */
    return in->dst.kind == MIR_FIXED;
}

static bool shrinkable(unsigned op)
{
    /* lit, dst, crs, expp, logp: each lane is its own function of the
     * sources, so dropping a lane changes no other */
    return op == MIR_OP_MERGE || st_op_componentwise((enum st_opcode)op) ||
           st_op_replicates((enum st_opcode)op, ST_VER(3, 0)) || op == ST_OP_LIT ||
           op == ST_OP_DST || op == ST_OP_CRS || op == ST_OP_EXPP || op == ST_OP_LOGP ||
           op == ST_OP_NRM || op == ST_OP_SINCOS || op == ST_OP_ARB_LIT ||
           op == ST_OP_ARB_XPD || op == ST_OP_ARB_SWZ || op == ST_OP_ARB_SCS ||
           op == ST_OP_ARB_TEX || op == ST_OP_ARB_TXP || op == ST_OP_ARB_TXB;
}

/* Drops dead lanes from writemasks and dead instructions, once; true if
 * anything changed. */
static bool shrink_once(struct mir_prog *p, const struct mir_live *lv, bool *oom)
{
    struct mir_walk w;
    if (!mir_walk_init(&w, p, lv)) {
        *oom = true;
        return false;
    }
    bool changed = false;
    for (unsigned b = 0; b < lv->nb; b++) {
        mir_walk_block(&w, b);
        for (unsigned i = lv->start[b + 1]; i-- > lv->start[b];) {
            struct mir_instr *in = &p->ins[i];
            if (!in->dead && !has_side_effect(in) && in->dst.kind == MIR_VREG) {
                uint8_t live = w.live[in->dst.vreg];
                uint8_t keep = in->dst.mask & live;
                if (!keep) {
                    in->dead = true;
                    changed = true;
                } else if (keep != in->dst.mask && shrinkable(in->op)) {
                    in->dst.mask = keep;
                    if (in->op == MIR_OP_MERGE) {
                        unsigned n = 0;
                        for (unsigned k = 0; k < in->nsrc; k++) {
                            uint8_t l = in->lanes[k] & keep;
                            if (!l)
                                continue;
                            in->src[n] = in->src[k];
                            in->lanes[n] = l;
                            n++;
                        }
                        in->nsrc = n;
                    }
                    changed = true;
                }
            }
            mir_walk_step(&w, i);
        }
    }
    mir_walk_free(&w);
    return changed;
}

/* Liveness, then writemask shrinking and empty flow dropped, until nothing
 * changes. */
static bool settle(struct mir_prog *p, struct mir_live *lv)
{
    for (unsigned round = 0; round < 16; round++) {
        mir_live_free(lv);
        if (!mir_liveness(p, lv, NULL, 0))
            return false;
        bool oom = false, flow = false;
        bool shrunk = shrink_once(p, lv, &oom);
        if (oom || !mir_drop_empty_flow(p, &flow))
            return false;
        if (!shrunk && !flow)
            return true;
    }
    mir_live_free(lv);
    return mir_liveness(p, lv, NULL, 0);
}

static void count_uses(const struct mir_prog *p, unsigned *uses, unsigned *defs, unsigned *defat)
{
    memset(uses, 0, sizeof(unsigned) * p->nvregs);
    memset(defs, 0, sizeof(unsigned) * p->nvregs);
    for (unsigned v = 0; v < p->nvregs; v++)
        defat[v] = MIR_NONE;
    for (unsigned i = 0; i < p->n; i++) {
        const struct mir_instr *in = &p->ins[i];
        if (in->dead)
            continue;
        for (unsigned k = 0; k < in->nsrc; k++) {
            if (in->src[k].kind == MIR_VREG)
                uses[in->src[k].vreg]++;
            if (in->src[k].kind == MIR_FIXED && in->src[k].rel)
                uses[in->src[k].rel_vreg]++;
        }
        if (in->predicated && in->pred.kind == MIR_VREG)
            uses[in->pred.vreg]++;
        if (in->has_dst && in->dst.kind == MIR_FIXED && in->dst.rel)
            uses[in->dst.rel_vreg]++;
        if (in->has_dst && in->dst.kind == MIR_VREG) {
            defs[in->dst.vreg]++;
            defat[in->dst.vreg] = i;
            if (in->predicated)
                uses[in->dst.vreg]++; /* it keeps the old lanes */
        }
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

bool mir_split_merge_inputs(struct mir_prog *p, struct st_merge_stats *stats)
{
    /* A merge input that is not a plain vreg (a constant, an input
     * register, a swizzled or negated view) cannot be renamed into the
     * merged register: it becomes a mov of its own into a new vreg, which
     * the merge then takes in place.  What is left is the mov the input
     * lanes need anyway (a constant written into some lanes is an
     * instruction of the input shader too). */
    unsigned extra = 0;
    for (unsigned i = 0; i < p->n; i++)
        if (!p->ins[i].dead && p->ins[i].op == MIR_OP_MERGE)
            for (unsigned k = 0; k < p->ins[i].nsrc; k++)
                if (!identity_on(&p->ins[i].src[k], p->ins[i].lanes[k]))
                    extra++;
    if (!extra)
        return true;
    struct mir_instr *q = malloc(sizeof(*q) * (p->n + extra));
    if (!q)
        return false;
    unsigned n = 0;
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr cur = p->ins[i];
        if (!cur.dead && cur.op == MIR_OP_MERGE)
            for (unsigned k = 0; k < cur.nsrc; k++) {
                if (identity_on(&cur.src[k], cur.lanes[k]))
                    continue;
                enum mir_class cls = cur.dst.kind == MIR_VREG ? (enum mir_class)p->vclass[cur.dst.vreg]
                                                              : MIR_CLASS_FLOAT;
                uint32_t t = mir_new_vreg(p, cls);
                if (p->oom) {
                    free(q);
                    return false;
                }
                struct mir_instr *mv = &q[n++];
                memset(mv, 0, sizeof(*mv));
                mv->op = ST_OP_MOV;
                mv->has_dst = true;
                mv->dst = (struct mir_dst){.kind = MIR_VREG, .mask = cur.lanes[k], .vreg = t};
                mv->nsrc = 1;
                mv->src[0] = cur.src[k];
                mv->uniform = cur.uniform;
                mv->half = cur.half;
                mv->loc = cur.loc;
                cur.src[k] = mir_src_vreg(t, ST_SWIZZLE_IDENTITY);
                stats->inputs_materialized++;
            }
        q[n++] = cur;
    }
    free(p->ins);
    p->ins = q;
    p->n = p->cap = n;
    return true;
}

/* Can op at a place inside flow or not write this output register?  The
 * vector models' rules: texld, crs, setp write temporaries; ps_2_0/2_x
 * write oC#/oDepth by mov only (and the folds here never add a mov);
 * ps_3_0 writes them with anything but not inside flow (dynamic flow is
 * forbidden there, static flow is not told apart).  A merge left after
 * coalescing is a mov per input. */
static bool dst_ok(const struct mir_prog *p, unsigned op, const struct mir_dst *d, bool in_flow)
{
    if (d->kind == MIR_VREG)
        return true;
    if (p->arb) /* every ARB instruction with a destination may write a result */
        return op != ST_OP_ARB_ARL;
    if (op == ST_OP_TEXLD || op == ST_OP_TEXLDP || op == ST_OP_TEXLDB || op == ST_OP_TEXLDL ||
        op == ST_OP_TEXLDD || op == ST_OP_CRS || op == ST_OP_SETP || op == ST_OP_MOVA ||
        op == MIR_OP_OPAQUE)
        return false;
    if (p->type == ST_PS)
        return p->ver >= ST_VER(3, 0) && !in_flow;
    return true;
}

/* Per instruction: inside an if or a loop? (n bytes; NULL when memory ran
 * out.) */
static uint8_t *flow_depths(const struct mir_prog *p)
{
    uint8_t *in = calloc(p->n ? p->n : 1, 1);
    if (!in)
        return NULL;
    unsigned depth = 0;
    for (unsigned i = 0; i < p->n; i++) {
        const struct mir_instr *x = &p->ins[i];
        if (!x->dead && (x->op == ST_OP_ENDIF || x->op == ST_OP_ENDREP || x->op == ST_OP_ENDLOOP) &&
            depth)
            depth--;
        in[i] = depth > 0;
        if (!x->dead && (x->op == ST_OP_IF || x->op == ST_OP_IFC || x->op == ST_OP_REP ||
                         x->op == ST_OP_LOOP))
            depth++;
    }
    return in;
}

/*
 * The last write to every register, for the folds below, which move a
 * write (or a read) from one instruction up or down to another in one
 * forward walk: "is there a write to X strictly between j and i" is "was
 * the last write to X, as seen from i, at or before j".  Positions are
 * stored plus one (0: never written).  Keeping the walk linear is the
 * point: a scan of the stretch in between for every candidate is
 * quadratic on long shaders.
 */
struct track {
    unsigned *vreg;                  /* per vreg */
    unsigned *fixed[ST_REG_COUNT];   /* per file, per index */
    unsigned nidx[ST_REG_COUNT];
    unsigned file[ST_REG_COUNT];     /* any write to the file */
    unsigned rel[ST_REG_COUNT];      /* a relative write to the file */
    unsigned flow;                   /* flow, opaque instructions */
};

static void track_free(struct track *t)
{
    free(t->vreg);
    t->vreg = NULL;
    for (unsigned f = 0; f < ST_REG_COUNT; f++) {
        free(t->fixed[f]);
        t->fixed[f] = NULL;
    }
}

static bool track_init(struct track *t, const struct mir_prog *p)
{
    memset(t, 0, sizeof(*t));
    for (unsigned i = 0; i < p->n; i++) {
        const struct mir_instr *in = &p->ins[i];
        if (in->has_dst && in->dst.kind == MIR_FIXED && !in->dst.rel && in->dst.file < ST_REG_COUNT &&
            in->dst.index >= 0 && (unsigned)in->dst.index >= t->nidx[in->dst.file])
            t->nidx[in->dst.file] = (unsigned)in->dst.index + 1;
    }
    t->vreg = calloc(p->nvregs ? p->nvregs : 1, sizeof(unsigned));
    bool ok = t->vreg != NULL;
    for (unsigned f = 0; f < ST_REG_COUNT && ok; f++)
        if (t->nidx[f] && !(t->fixed[f] = calloc(t->nidx[f], sizeof(unsigned))))
            ok = false;
    if (!ok)
        track_free(t);
    return ok;
}

static void track_max(unsigned *slot, unsigned pos)
{
    if (*slot < pos + 1)
        *slot = pos + 1;
}

/* Instruction pos (as it now stands) writes what it writes. */
static void track_write(struct track *t, const struct mir_instr *in, unsigned pos)
{
    if (in->dead)
        return;
    if (mir_is_flow(in->op) || in->op == MIR_OP_OPAQUE)
        track_max(&t->flow, pos);
    if (!in->has_dst)
        return;
    if (in->dst.kind == MIR_VREG) {
        track_max(&t->vreg[in->dst.vreg], pos);
    } else if (in->dst.kind == MIR_FIXED && in->dst.file < ST_REG_COUNT) {
        unsigned f = in->dst.file;
        track_max(&t->file[f], pos);
        if (in->dst.rel)
            track_max(&t->rel[f], pos);
        else if (in->dst.index >= 0 && (unsigned)in->dst.index < t->nidx[f])
            track_max(&t->fixed[f][in->dst.index], pos);
    }
}

static bool not_after(unsigned last, unsigned j)
{
    return last <= j + 1;
}

/* May a write of fixed register dst move up from the walk's position to
 * instruction j?  Not across another write that may reach the same
 * register, and for a relative destination not across flow (the address
 * could differ). */
static bool fixed_move_ok(const struct track *t, unsigned j, const struct mir_dst *dst)
{
    unsigned f = dst->file;
    if (f >= ST_REG_COUNT)
        return false;
    if (dst->rel)
        return not_after(t->file[f], j) && not_after(t->flow, j);
    unsigned last = dst->index >= 0 && (unsigned)dst->index < t->nidx[f] ? t->fixed[f][dst->index] : 0;
    return not_after(last, j) && not_after(t->rel[f], j);
}

/* The swizzles of d's sources when d writes lanes W of a new destination
 * through a copy with swizzle swz (componentwise ops); false when a lane
 * the copy reads is not one d writes. */
static bool reswizzle(const struct mir_prog *p, struct mir_instr *d, uint8_t W, uint8_t swz)
{
    for (unsigned l = 0; l < 4; l++)
        if ((W >> l) & 1 && !((d->dst.mask >> ST_SWZ_LANE(swz, l)) & 1))
            return false;
    if (st_op_componentwise((enum st_opcode)d->op)) {
        for (unsigned k = 0; k < d->nsrc; k++) {
            uint8_t old = d->src[k].swz, ns = 0;
            unsigned any = ST_SWZ_LANE(old, ST_SWZ_LANE(swz, 0));
            for (unsigned l = 0; l < 4; l++) {
                unsigned sl = (W >> l) & 1 ? ST_SWZ_LANE(old, ST_SWZ_LANE(swz, l)) : any;
                ns |= (uint8_t)(sl << (2 * l));
            }
            d->src[k].swz = ns;
        }
        if (d->predicated) {
            /* the predicate is read per lane too; the vector models
             * spell p0 whole or one lane replicated, nothing else */
            uint8_t old = d->pred.swz, ns = 0;
            unsigned any = ST_SWZ_LANE(old, ST_SWZ_LANE(swz, 0));
            bool whole = true, one = true;
            for (unsigned l = 0; l < 4; l++) {
                unsigned sl = (W >> l) & 1 ? ST_SWZ_LANE(old, ST_SWZ_LANE(swz, l)) : any;
                ns |= (uint8_t)(sl << (2 * l));
                if ((W >> l) & 1) {
                    whole = whole && sl == l;
                    one = one && sl == any;
                }
            }
            if (!whole && !one)
                return false;
            d->pred.swz = ns;
        }
        return true;
    }
    if (st_op_replicates((enum st_opcode)d->op, p->ver))
        return true;
    /* texld, nrm, ...: only an identity copy of every lane they write */
    return W == d->dst.mask && swz == ST_SWIZZLE_IDENTITY;
}

/* Per-vreg use and definition counts, and where the last definition is. */
struct uses {
    unsigned *uses, *defs, *defat;
};

static void uses_free(struct uses *u)
{
    free(u->uses);
    free(u->defs);
    free(u->defat);
    u->uses = u->defs = u->defat = NULL;
}

static bool uses_init(struct uses *u, const struct mir_prog *p)
{
    unsigned nv = p->nvregs ? p->nvregs : 1;
    u->uses = malloc(sizeof(unsigned) * nv);
    u->defs = malloc(sizeof(unsigned) * nv);
    u->defat = malloc(sizeof(unsigned) * nv);
    if (!u->uses || !u->defs || !u->defat) {
        uses_free(u);
        return false;
    }
    count_uses(p, u->uses, u->defs, u->defat);
    return true;
}

/*
 * ps_1_x: "mul D, V, 2^k" (k one of the model's result shifts: _x2, _x4,
 * _d2, and in 1_4 _x8, _d4, _d8) is "mov_shift D, V" — exact either way,
 * a power of two scales without rounding — which folds into V's
 * definition like any copy.  Returns the shift, 0 when it is not one.
 */
static int mul_as_shift(const struct mir_prog *p, struct mir_instr *m)
{
    if (p->arb || p->type != ST_PS || p->ver >= ST_VER(2, 0) || m->op != ST_OP_MUL ||
        m->nsrc != 2 || m->shift || m->predicated)
        return 0;
    for (unsigned k = 0; k < 2; k++) {
        const struct mir_src *c = &m->src[k], *v = &m->src[1 - k];
        if (c->kind != MIR_IMM || c->mod != MIR_MOD_NONE || v->kind != MIR_VREG ||
            p->imm[c->vreg].cls != MIR_CLASS_FLOAT)
            continue;
        uint32_t bits = p->imm[c->vreg].bits[ST_SWZ_LANE(c->swz, 0)];
        bool splat = true;
        for (unsigned l = 1; l < 4; l++)
            if (((m->dst.mask >> l) & 1) && p->imm[c->vreg].bits[ST_SWZ_LANE(c->swz, l)] != bits)
                splat = false;
        static const struct { uint32_t bits; int shift; bool ps14; } pow2[] = {
            {0x40000000u, 1, false}, {0x40800000u, 2, false}, {0x3f000000u, -1, false},
            {0x41000000u, 3, true}, {0x3e800000u, -2, true}, {0x3e000000u, -3, true}};
        for (unsigned j = 0; j < 6 && splat; j++)
            if (bits == pow2[j].bits && (!pow2[j].ps14 || p->ver >= ST_VER(1, 4))) {
                struct mir_src src = *v;
                m->op = ST_OP_MOV;
                m->nsrc = 1;
                m->src[0] = src;
                m->shift = (int8_t)pow2[j].shift;
                return pow2[j].shift;
            }
    }
    return 0;
}

/*
 * "mov X, V" where V has one definition, read only here: the definition
 * writes X itself (reswizzled), when X may be its destination and no
 * other write to X stands in between.  A ps_1_x result shift on the mov
 * goes onto the definition when it has none and no saturate (which
 * applies after the shift).
 */
unsigned mir_fold_copies(struct mir_prog *p)
{
    unsigned folded = 0;
    struct uses u;
    struct track t;
    /* (out of memory: p->oom, which the stage reports) */
    uint8_t *inflow = flow_depths(p);
    if (!inflow) {
        p->oom = true;
        return 0;
    }
    if (!uses_init(&u, p)) {
        free(inflow);
        p->oom = true;
        return 0;
    }
    if (!track_init(&t, p)) {
        uses_free(&u);
        free(inflow);
        p->oom = true;
        return 0;
    }
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr *m = &p->ins[i];
        if (!m->dead)
            mul_as_shift(p, m);
        if (m->dead || m->op != ST_OP_MOV || m->nsrc != 1 || m->src[0].kind != MIR_VREG ||
            m->src[0].mod != MIR_MOD_NONE || m->predicated)
            goto next;
        uint32_t v = m->src[0].vreg;
        if (u.uses[v] != 1 || u.defs[v] != 1 || u.defat[v] == MIR_NONE || u.defat[v] > i)
            goto next;
        if (m->dst.kind == MIR_VREG && (u.defs[m->dst.vreg] != 1 ||
                                        p->vclass[m->dst.vreg] != p->vclass[v]))
            goto next;
        unsigned j = u.defat[v];
        struct mir_instr *d = &p->ins[j];
        if (d->op == MIR_OP_MERGE || d->op == MIR_OP_OPAQUE || d->predicated ||
            d->dst.kind != MIR_VREG || !dst_ok(p, d->op, &m->dst, inflow[j]))
            goto next;
        /* a half mov rounds: a full-precision definition cannot take it
         * over (a half definition writing an output is the same value) */
        if (m->half && !d->half)
            goto next;
        if (m->dst.kind == MIR_FIXED && !fixed_move_ok(&t, j, &m->dst))
            goto next;
        if (m->sat && d->op == ST_OP_SETP)
            goto next;
        if (m->shift && (d->shift || d->sat || d->op == MIR_OP_MERGE || d->op == ST_OP_SETP))
            goto next;
        struct mir_instr nd = *d;
        if (!reswizzle(p, &nd, m->dst.mask, m->src[0].swz))
            goto next;
        nd.dst = m->dst;
        nd.sat = d->sat || m->sat;
        if (m->shift)
            nd.shift = m->shift;
        *d = nd;
        m->dead = true;
        folded++;
        if (m->dst.kind == MIR_VREG)
            u.defat[m->dst.vreg] = j;
        u.defs[v] = 0;
        u.uses[v] = 0;
        track_write(&t, d, j);
        continue;
    next:
        track_write(&t, m, i);
    }
    track_free(&t);
    uses_free(&u);
    free(inflow);
    return folded;
}

/* Is anything instruction d reads (or the predicate pred) written between
 * d's position j and the walk's position? */
static bool reads_kept(const struct track *t, const struct mir_instr *d, unsigned j,
                       const struct mir_src *pred)
{
    if (!not_after(t->flow, j))
        return false;
    for (unsigned k = 0; k < d->nsrc; k++) {
        const struct mir_src *s = &d->src[k];
        if (s->kind == MIR_VREG && !not_after(t->vreg[s->vreg], j))
            return false;
        if (s->kind == MIR_FIXED && s->rel && !not_after(t->vreg[s->rel_vreg], j))
            return false;
        if (s->kind == MIR_FIXED && s->file < ST_REG_COUNT && !not_after(t->file[s->file], j))
            return false;
    }
    return pred->kind != MIR_VREG || not_after(t->vreg[pred->vreg], j);
}

/*
 * "(p) mov D, V" where V's one definition (unpredicated, used only here)
 * stands earlier in the same straight-line stretch: that definition moves
 * down to the mov's place and writes D itself under the predicate.  It
 * then reads its sources later, so nothing in between may write them (nor
 * the predicate), and no flow instruction may stand in between.
 */
unsigned mir_sink_predicated(struct mir_prog *p)
{
    unsigned folded = 0;
    struct uses u;
    struct track t;
    if (!uses_init(&u, p)) {
        p->oom = true; /* (reported by the stage) */
        return 0;
    }
    if (!track_init(&t, p)) {
        uses_free(&u);
        p->oom = true;
        return 0;
    }
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr *m = &p->ins[i];
        if (m->dead || m->op != ST_OP_MOV || !m->predicated || m->nsrc != 1 || m->shift ||
            m->src[0].kind != MIR_VREG || m->src[0].mod != MIR_MOD_NONE)
            goto next;
        uint32_t v = m->src[0].vreg;
        if (u.uses[v] != 1 || u.defs[v] != 1 || u.defat[v] == MIR_NONE || u.defat[v] >= i)
            goto next;
        unsigned j = u.defat[v];
        struct mir_instr *d = &p->ins[j];
        if (m->half != d->half ||
            (m->dst.kind == MIR_VREG && p->vclass[m->dst.vreg] != p->vclass[v]))
            goto next; /* the definition would write another class */
        if (d->predicated || d->op == MIR_OP_MERGE || d->op == MIR_OP_OPAQUE ||
            d->op == ST_OP_SETP || d->op == ST_OP_MOVA || d->op == ST_OP_ARB_ARL ||
            !dst_ok(p, d->op, &m->dst, true) || !reads_kept(&t, d, j, &m->pred))
            goto next;
        struct mir_instr nd = *d;
        if (!reswizzle(p, &nd, m->dst.mask, m->src[0].swz))
            goto next;
        nd.dst = m->dst;
        nd.sat = d->sat || m->sat;
        nd.predicated = true;
        nd.pred = m->pred;
        nd.uniform = m->uniform;
        *m = nd;
        d->dead = true;
        folded++;
        u.uses[v] = u.defs[v] = 0;
    next:
        track_write(&t, m, i);
    }
    track_free(&t);
    uses_free(&u);
    return folded;
}

static uint32_t uf_find(uint32_t *rep, uint32_t v)
{
    while (rep[v] != v) {
        rep[v] = rep[rep[v]];
        v = rep[v];
    }
    return v;
}

static void drop_input(struct mir_instr *in, unsigned k)
{
    for (unsigned j = k + 1; j < in->nsrc; j++) {
        in->src[j - 1] = in->src[j];
        in->lanes[j - 1] = in->lanes[j];
    }
    in->nsrc--;
}

static void rename_all(struct mir_prog *p, uint32_t *rep)
{
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr *in = &p->ins[i];
        if (in->has_dst && in->dst.kind == MIR_VREG)
            in->dst.vreg = uf_find(rep, in->dst.vreg);
        if (in->has_dst && in->dst.kind == MIR_FIXED && in->dst.rel)
            in->dst.rel_vreg = uf_find(rep, in->dst.rel_vreg);
        for (unsigned k = 0; k < in->nsrc; k++) {
            if (in->src[k].kind == MIR_VREG)
                in->src[k].vreg = uf_find(rep, in->src[k].vreg);
            if (in->src[k].kind == MIR_FIXED && in->src[k].rel)
                in->src[k].rel_vreg = uf_find(rep, in->src[k].rel_vreg);
        }
        if (in->predicated && in->pred.kind == MIR_VREG)
            in->pred.vreg = uf_find(rep, in->pred.vreg);
    }
}

bool mir_coalesce(struct st_ctx *ctx, struct mir_prog *p, struct st_merge_stats *stats)
{
    struct mir_live lv;
    memset(&lv, 0, sizeof(lv));
    struct mir_ig g;
    memset(&g, 0, sizeof(g));
    uint8_t *why = calloc(p->n ? p->n : 1, 1); /* bit 0: interference, bit 1: unfit input */
    uint32_t *rep = malloc(sizeof(uint32_t) * (p->nvregs ? p->nvregs : 1));
    if (!why || !rep || !settle(p, &lv) || !mir_ig_build(&g, p, &lv))
        goto oom;
    for (uint32_t v = 0; v < p->nvregs; v++)
        rep[v] = v;
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr *in = &p->ins[i];
        if (in->dead || in->op != MIR_OP_MERGE || in->dst.kind != MIR_VREG)
            continue;
        for (unsigned k = 0; k < in->nsrc;) {
            struct mir_src *s = &in->src[k];
            uint32_t D = uf_find(rep, in->dst.vreg);
            if (!identity_on(s, in->lanes[k])) {
                why[i] |= 2;
                k++;
                continue;
            }
            uint32_t S = uf_find(rep, s->vreg);
            if (S == D) { /* already in place (a merge fed by its own register) */
                in->dst.mask &= (uint8_t)~in->lanes[k];
                drop_input(in, k);
                continue;
            }
            if (p->vclass[S] != p->vclass[D] || mir_ig_lanes(&g, S, D)) {
                why[i] |= p->vclass[S] != p->vclass[D] ? 2 : 1;
                k++;
                continue;
            }
            /* union by size: the vreg with fewer neighbours joins the
             * other, so a long chain of merges costs its edges once */
            uint32_t small = g.adj[S].n <= g.adj[D].n ? S : D, big = small == S ? D : S;
            rep[small] = big;
            if (!mir_ig_merge(&g, small, big))
                goto oom;
            /* the input is now a copy of D into D */
            in->dst.mask &= (uint8_t)~in->lanes[k];
            drop_input(in, k);
        }
        if (in->nsrc == 0)
            in->dead = true;
    }
    rename_all(p, rep);
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
    free(rep);
    mir_ig_free(&g);
    mir_live_free(&lv);
    return true;
oom:
    free(why);
    free(rep);
    mir_ig_free(&g);
    mir_live_free(&lv);
    st_error(ctx, p->loc, ST_E_OUT_OF_MEMORY, "out of memory");
    return false;
}

/*
 * After coalescing: "mov oX, D" where D is read nowhere else becomes D's
 * definitions writing oX themselves (vertex shaders, ARB programs and
 * ps_3_0, outside flow and predication there: their outputs are
 * write-only and any arithmetic instruction may write them).  Shrinking already limited every definition of D to the lanes
 * the mov reads.  A predicated definition's read of D's old lanes is a
 * read of oX's old lanes then, which the earlier definitions wrote.
 */
unsigned mir_fold_outputs(struct mir_prog *p)
{
    bool ps30 = p->type == ST_PS && !p->arb && p->ver >= ST_VER(3, 0);
    if ((p->type != ST_VS && !p->arb && !ps30) || !p->nvregs)
        return 0;
    unsigned folded = 0, nv = p->nvregs;
    struct uses u = {NULL, NULL, NULL};
    struct track t;
    memset(&t, 0, sizeof(t));
    unsigned *first = malloc(sizeof(unsigned) * nv), *next = malloc(sizeof(unsigned) * (p->n + 1));
    unsigned *pdefs = calloc(nv, sizeof(unsigned));
    uint8_t *inflow = flow_depths(p);
    bool ready = first && next && pdefs && inflow && uses_init(&u, p);
    if (!ready || !track_init(&t, p)) {
        p->oom = true; /* (reported by the stage) */
        goto done;
    }
    /* every vreg's definitions, in order */
    for (unsigned v = 0; v < nv; v++)
        first[v] = MIR_NONE;
    for (unsigned i = p->n; i-- > 0;) {
        const struct mir_instr *d = &p->ins[i];
        if (d->dead || !d->has_dst || d->dst.kind != MIR_VREG)
            continue;
        next[i] = first[d->dst.vreg];
        first[d->dst.vreg] = i;
        if (d->predicated)
            pdefs[d->dst.vreg]++;
    }
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr *m = &p->ins[i];
        if (m->dead || m->op != ST_OP_MOV || m->sat || m->predicated || m->dst.kind != MIR_FIXED ||
            m->dst.rel || m->src[0].kind != MIR_VREG || !identity_on(&m->src[0], m->dst.mask))
            goto next;
        uint32_t D = m->src[0].vreg;
        if (u.uses[D] - pdefs[D] != 1 || first[D] == MIR_NONE || !fixed_move_ok(&t, first[D], &m->dst))
            goto next;
        if (m->half && p->vclass[D] != MIR_CLASS_HALF)
            goto next; /* the mov rounds what full-precision definitions computed */
        /* a scalar output takes the first written lane: only ops whose
         * lanes are their sources' lanes (or all one value) say which */
        bool scalar = !p->arb && ((m->dst.file == ST_REG_RASTOUT && m->dst.index != ST_RASTOUT_POS) ||
                                  m->dst.file == ST_REG_DEPTHOUT);
        bool ok = true;
        unsigned last = first[D];
        for (unsigned j = first[D]; j != MIR_NONE && ok; j = next[j]) {
            const struct mir_instr *d = &p->ins[j];
            if (j > i || !shrinkable(d->op) || (d->dst.mask & ~m->dst.mask) ||
                !dst_ok(p, d->op, &m->dst, inflow[j]) || (ps30 && d->predicated))
                ok = false;
            if (scalar && !st_op_componentwise((enum st_opcode)d->op) &&
                !st_op_replicates((enum st_opcode)d->op, p->ver))
                ok = false;
            last = j;
        }
        if (!ok)
            goto next;
        for (unsigned j = first[D]; j != MIR_NONE; j = next[j]) {
            struct mir_instr *d = &p->ins[j];
            uint8_t mask = d->dst.mask;
            d->dst = m->dst;
            d->dst.mask = mask;
        }
        track_write(&t, &p->ins[last], last);
        m->dead = true;
        folded++;
        continue;
    next:
        track_write(&t, m, i);
    }
done:
    track_free(&t);
    uses_free(&u);
    free(first);
    free(next);
    free(pdefs);
    free(inflow);
    return folded;
}
