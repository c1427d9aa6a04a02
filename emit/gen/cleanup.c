/* requires: the Gen IR as gen/isel.c selects it (before dead code and allocation).
 * invalidates: nothing (instructions are rewritten or removed in place). */
/*
 * gen/cleanup.c — clean-ups of what instruction selection leaves.
 *
 * The selection computes every operation into a fresh value and then
 * copies it into the MIR lane's variable when that lane has several
 * writers (a merge coalescing kept, a phi copy, a predicated write): the
 * copy folds into the computing instruction when nothing between them
 * touches the variable.  With --fp-contract=fast a mul read only by an
 * add is contracted into a mad (one rounding instead of two).
 */
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"

/* How far back a copy's source definition is looked for: keeps the pass
 * linear in the program (what selection leaves is adjacent anyway). */
enum { WINDOW = 64 };

struct counts {
    uint32_t *defs, *uses;
    int32_t *def_at;
};

/* Does an operand of i touch bytes off..off+size-1 of vreg v?  (A payload
 * block holds several values: only the overlapping part counts.) */
static bool refs_part(const struct gen_program *p, const struct gen_inst *i, uint32_t v,
                      uint32_t off, uint32_t size)
{
    const struct gen_opnd *o[4] = {&i->dst, &i->src[0], &i->src[1], &i->src[2]};
    for (unsigned s = 0; s < 4; s++) {
        if (o[s]->kind != GO_VREG || o[s]->vreg != v)
            continue;
        if (gen_op_info[i->op].send)
            return true; /* a message reads or writes its whole block */
        uint32_t lo = o[s]->off, n = i->exec == 1 ? 4u : 4u * p->simd;
        if (lo < off + size && off < lo + n)
            return true;
    }
    return false;
}

static bool writes_vreg(const struct gen_inst *i, uint32_t v)
{
    return i->dst.kind == GO_VREG && i->dst.vreg == v;
}

static bool count(const struct gen_program *p, struct counts *c)
{
    c->defs = calloc(p->nvreg + 1, sizeof(uint32_t));
    c->uses = calloc(p->nvreg + 1, sizeof(uint32_t));
    c->def_at = malloc(sizeof(int32_t) * (p->nvreg + 1));
    if (!c->defs || !c->uses || !c->def_at)
        return false;
    for (unsigned v = 0; v < p->nvreg; v++)
        c->def_at[v] = -1;
    for (unsigned k = 0; k < p->ninst; k++) {
        const struct gen_inst *i = &p->inst[k];
        if (i->dst.kind == GO_VREG) {
            c->defs[i->dst.vreg]++;
            c->def_at[i->dst.vreg] = (int32_t)k;
        }
        for (unsigned s = 0; s < 3; s++)
            if (i->src[s].kind == GO_VREG)
                c->uses[i->src[s].vreg]++;
    }
    return true;
}

static void counts_free(struct counts *c)
{
    free(c->defs);
    free(c->uses);
    free(c->def_at);
}

static bool flow_or_label(const struct gen_inst *i)
{
    return gen_op_info[i->op].flow || (i->op == GOP_LABEL && i->exec); /* exec 0: removed */
}

/* A plain whole-value copy dst = src: into a value of the same kind, or
 * into a part of a message payload of that size. */
static bool plain_copy(const struct gen_program *p, const struct gen_inst *i)
{
    if (i->op != GOP_MOV || i->sat || i->cmod || i->dst.kind != GO_VREG ||
        i->src[0].kind != GO_VREG || i->src[0].neg || i->src[0].abs ||
        i->src[0].region != GR_AUTO || i->src[0].off || i->dst.type != i->src[0].type ||
        i->dst.vreg == i->src[0].vreg)
        return false;
    const struct gen_vreg *d = &p->vreg[i->dst.vreg], *s = &p->vreg[i->src[0].vreg];
    if (s->no_spill || s->alias_of || d->alias_of || d->uniform != s->uniform)
        return false;
    if (d->no_spill) /* a payload block: the copy fills one of its parts */
        return !s->uniform && i->dst.off % GEN_GRF_SIZE == 0 && i->dst.off + s->size <= d->size &&
               i->exec == p->simd && i->group == 0;
    return !i->dst.off && d->size == s->size && d->grf_lo == s->grf_lo && d->grf_hi == s->grf_hi;
}

/*
 * mov V, T where T is written once, just before, by one whole-width
 * instruction and read only here: that instruction writes V instead
 * (with the copy's predicate, when the instruction had none and the flag
 * is not written in between).
 */
static unsigned fold_copies(struct gen_program *p)
{
    struct counts c;
    unsigned folded = 0;
    if (!count(p, &c)) {
        counts_free(&c);
        p->oom = true;
        return 0;
    }
    for (unsigned k = 0; k < p->ninst; k++) {
        struct gen_inst *m = &p->inst[k];
        if (!plain_copy(p, m))
            continue;
        uint32_t V = m->dst.vreg, T = m->src[0].vreg;
        int32_t j = c.def_at[T];
        if (c.defs[T] != 1 || c.uses[T] != 1 || j < 0 || (unsigned)j >= k ||
            k - (unsigned)j > WINDOW)
            continue;
        struct gen_inst *d = &p->inst[j];
        /* a predicated sel writes every channel: the predicate picks the source */
        bool whole = d->pred == GP_NONE || (d->op == GOP_SEL && !d->cmod && m->pred == GP_NONE);
        if (d->dst.off || !whole || gen_op_info[d->op].send || d->exec != m->exec ||
            d->group != m->group || d->nomask != m->nomask || d->spill || d->fill)
            continue;
        /* a flag-writing def: its flag must not be live across the move */
        if (m->pred != GP_NONE && (d->cmod || d->op == GOP_SEL))
            continue;
        bool ok = true;
        for (unsigned q = (unsigned)j + 1; q < k && ok; q++) {
            const struct gen_inst *x = &p->inst[q];
            if (flow_or_label(x) || refs_part(p, x, V, m->dst.off, p->vreg[T].size))
                ok = false;
            if (m->pred != GP_NONE && x->cmod && x->flag == m->flag && x->op != GOP_SEL)
                ok = false;
        }
        /* the flag the move is predicated on must already hold at the def */
        if (m->pred != GP_NONE)
            for (int q = j; q >= 0 && ok; q--) {
                const struct gen_inst *x = &p->inst[q];
                if (flow_or_label(x) || j - q > WINDOW) {
                    ok = false;
                    break;
                }
                if (x->cmod && x->flag == m->flag && x->op != GOP_SEL && q < j)
                    break;
                if (q == 0)
                    ok = false;
            }
        if (!ok)
            continue;
        d->dst.vreg = V;
        d->dst.off = m->dst.off;
        if (m->pred != GP_NONE) {
            d->pred = m->pred;
            d->flag = m->flag;
        }
        m->op = GOP_LABEL; /* removed below */
        m->dst.kind = GO_NONE;
        m->src[0].kind = GO_NONE;
        m->exec = 0;
        c.uses[T] = 0;
        c.defs[V]++;
        folded++;
    }
    counts_free(&c);
    /* drop the removed moves (a LABEL with exec 0 is never a real label) */
    unsigned w = 0;
    for (unsigned k = 0; k < p->ninst; k++)
        if (!(p->inst[k].op == GOP_LABEL && p->inst[k].exec == 0))
            p->inst[w++] = p->inst[k];
    p->ninst = w;
    return folded;
}

/*
 * --fp-contract=fast: mul T, a, b read only by add D, T, c (no saturate,
 * no predicate on the mul, nothing between them writing a or b): mad D,
 * c, a, b in the add's place.
 */
static void contract_mads(struct gen_program *p)
{
    struct counts c;
    if (!count(p, &c)) {
        counts_free(&c);
        p->oom = true;
        return;
    }
    for (unsigned k = 0; k < p->ninst; k++) {
        struct gen_inst *a = &p->inst[k];
        if (a->op != GOP_ADD || a->dst.type != GT_F || a->cmod)
            continue;
        for (unsigned s = 0; s < 2; s++) {
            struct gen_opnd t = a->src[s], o = a->src[1 - s];
            if (t.kind != GO_VREG || t.abs || t.off || t.region != GR_AUTO || o.kind == GO_IMM ||
                (o.kind == GO_FIXED && o.region != GR_SCALAR && o.region != GR_VEC) ||
                (o.kind == GO_VREG && o.region != GR_AUTO))
                continue;
            int32_t j = c.def_at[t.vreg];
            if (c.defs[t.vreg] != 1 || c.uses[t.vreg] != 1 || j < 0 || (unsigned)j >= k ||
                k - (unsigned)j > WINDOW)
                continue;
            struct gen_inst *m = &p->inst[j];
            if (m->op != GOP_MUL || m->sat || m->cmod || m->pred != GP_NONE || m->dst.off ||
                m->exec != a->exec || m->group != a->group || m->dst.type != GT_F ||
                m->src[0].kind == GO_IMM || m->src[1].kind == GO_IMM)
                continue;
            bool ok = true;
            for (unsigned q = (unsigned)j + 1; q < k && ok; q++) {
                const struct gen_inst *x = &p->inst[q];
                if (flow_or_label(x))
                    ok = false;
                for (unsigned r = 0; r < 2 && ok; r++)
                    if (m->src[r].kind == GO_VREG && writes_vreg(x, m->src[r].vreg))
                        ok = false;
                /* (c is read where the add read it: its definition may lie
                 * in between, as an interpolation placed next to its use) */
            }
            if (!ok)
                continue;
            struct gen_opnd m0 = m->src[0], m1 = m->src[1];
            if (t.neg)
                m0.neg = !m0.neg;
            a->op = GOP_MAD;
            a->src[0] = o;
            a->src[1] = m0;
            a->src[2] = m1;
            m->op = GOP_LABEL;
            m->exec = 0;
            m->dst.kind = GO_NONE;
            c.uses[t.vreg] = 0;
            break;
        }
    }
    counts_free(&c);
    unsigned w = 0;
    for (unsigned k = 0; k < p->ninst; k++)
        if (!(p->inst[k].op == GOP_LABEL && p->inst[k].exec == 0))
            p->inst[w++] = p->inst[k];
    p->ninst = w;
}

/* Does a live instruction after k read flag f before it is written again? */
static bool flag_read_later(const struct gen_program *p, const bool *live, unsigned k, unsigned f)
{
    for (unsigned j = k + 1; j < p->ninst; j++) {
        const struct gen_inst *n = &p->inst[j];
        if (flow_or_label(n))
            return true; /* a branch may read it: isel keeps flags local, so seldom */
        if (n->pred != GP_NONE && n->flag == f && live[j])
            return true;
        if (n->cmod && n->flag == f && n->op != GOP_SEL && !n->pred)
            return false;
    }
    return false;
}

/*
 * Dead code, mark and sweep: an instruction is live when it has an effect
 * (a message, flow), writes a value something live reads (every write of
 * a variable, as writes may be partial), or sets a flag a live
 * instruction reads.  Unlike a use count this removes values that only
 * feed themselves (a derivative's mask ANDed into its result, nobody
 * reading either).
 */
static void sweep_dead(struct gen_program *p)
{
    bool *live = calloc(p->ninst + 1, sizeof(bool));
    bool *vlive = calloc(p->nvreg + 1, sizeof(bool));
    if (!live || !vlive) {
        free(live);
        free(vlive);
        p->oom = true;
        return;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (unsigned k = p->ninst; k-- > 0;) {
            const struct gen_inst *i = &p->inst[k];
            if (live[k])
                continue;
            const struct gen_op_info *oi = &gen_op_info[i->op];
            bool l = oi->flow || oi->send || i->op == GOP_LABEL || i->eot ||
                     (i->dst.kind == GO_VREG && vlive[i->dst.vreg]) || i->dst.kind == GO_FIXED ||
                     (i->cmod && i->op != GOP_SEL && flag_read_later(p, live, k, i->flag));
            if (!l)
                continue;
            live[k] = changed = true;
            for (unsigned s = 0; s < 3; s++)
                if (i->src[s].kind == GO_VREG)
                    vlive[i->src[s].vreg] = true;
            if (i->dst.kind == GO_VREG && gen_op_info[i->op].send)
                vlive[i->dst.vreg] = true;
        }
    }
    unsigned w = 0;
    for (unsigned k = 0; k < p->ninst; k++)
        if (live[k])
            p->inst[w++] = p->inst[k];
    p->ninst = w;
    free(live);
    free(vlive);
}

void gen_cleanup(struct gen_program *p, bool contract)
{
    if (p->oom)
        return;
    if (contract)
        contract_mads(p);
    fold_copies(p);
    sweep_dead(p);
}
