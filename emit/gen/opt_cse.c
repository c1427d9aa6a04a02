/*
 * gen/opt_cse.c — common subexpressions: a computation equal to one that
 * dominates it reads the earlier result (uniform loads and address
 * arithmetic, the per-lane copies of a replicated vector result, repeated
 * immediates); a compare that only sets a flag the flag already holds goes.
 *
 * requires: a selected program before allocation (gen/opt.h def/use facts)
 * invalidates: instruction indices (redundant instructions are removed)
 *
 * Values: instruction b is replaced by a when both compute the same
 * operation of the same operands (commutative ones in either order) at
 * the same width, a dominates b, each is its result's only whole
 * definition, every vreg operand keeps its value on the paths from a to b,
 * and every use of b's result is dominated by b (so a's result, written
 * once, still holds b's value there).  Messages, predicated and
 * flag-writing instructions are not values.  An a that computed into a
 * part of a message payload stands for b too (part_in_place, unfold_part).
 *
 * Flags: a compare to null is dropped when, since an identical compare
 * (or, for `cmp.ne X, 0`, the compare that wrote the boolean X together
 * with the same flag), nothing wrote the flag, its operands or X, and no
 * control flow came between (straight-line code of one block).
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

static bool commutative(uint8_t op)
{
    return op == GOP_ADD || op == GOP_MUL || op == GOP_AND || op == GOP_OR || op == GOP_XOR;
}

static uint32_t mix(uint32_t h, uint32_t x)
{
    h ^= x + 0x9e3779b9u + (h << 6) + (h >> 2);
    return h;
}

static uint32_t opnd_hash(const struct gen_opnd *o)
{
    uint32_t h = mix(o->kind, o->type);
    h = mix(h, (uint32_t)o->neg | (uint32_t)o->abs << 1 | (uint32_t)o->region << 2);
    switch (o->kind) {
    case GO_IMM: return mix(h, o->imm);
    case GO_VREG: return mix(mix(h, o->vreg), o->off);
    case GO_FIXED: return mix(h, o->off);
    default: return h;
    }
}

/* A pure computation whose result can stand for another's. */
static bool candidate(const struct gen_program *p, const struct gen_du *du, unsigned k)
{
    const struct gen_inst *i = &p->inst[k];
    const struct gen_op_info *oi = &gen_op_info[i->op];
    if (oi->flow || oi->send || i->op == GOP_LABEL || i->pred != GP_NONE || i->dst.kind != GO_VREG)
        return false;
    /* the first live channel's value: a function of the execution mask too */
    if (gen_cmod_writes_flag(i) || i->op == GOP_BCAST)
        return false;
    for (unsigned s = 0; s < oi->nsrc; s++) {
        const struct gen_opnd *o = &i->src[s];
        /* derivative regions read other channels: their masking is per instruction */
        if (o->region == GR_DDX || o->region == GR_DDY || o->region == GR_SUBSPAN ||
            o->region == GR_PAIRS || o->region == GR_REP2 || o->region == GR_REP8 ||
            o->region == GR_SPLAT2)
            return false;
    }
    return gen_du_single_def(p, du, i->dst.vreg) == (int32_t)k;
}

/*
 * A computation into a part of a message payload (a URB slot, a sampler
 * coordinate), written there by selection or copy folding: it can stand
 * for a later equal value too, in the way unfold_part does.  One whole
 * divergent dword at the kernel's width, unpredicated.
 */
static bool part_candidate(const struct gen_program *p, unsigned k)
{
    const struct gen_inst *i = &p->inst[k];
    const struct gen_op_info *oi = &gen_op_info[i->op];
    if (oi->flow || oi->send || i->op == GOP_LABEL || i->pred != GP_NONE || i->nomask ||
        i->dst.kind != GO_VREG || gen_cmod_writes_flag(i) || i->op == GOP_BCAST ||
        i->op == GOP_MOVI || i->exec != p->simd || i->group || gen_type_size(i->dst.type) != 4)
        return false;
    const struct gen_vreg *v = &p->vreg[i->dst.vreg];
    if (!v->no_spill || v->uniform || v->half32 || v->size <= gen_dsize(p) ||
        i->dst.off % GEN_GRF_SIZE || i->dst.off + gen_dsize(p) > v->size)
        return false;
    for (unsigned s = 0; s < oi->nsrc; s++) {
        const struct gen_opnd *o = &i->src[s];
        if (o->region == GR_DDX || o->region == GR_DDY || o->region == GR_SUBSPAN)
            return false;
    }
    return true;
}

enum { UNFOLD_WINDOW = 64 };

/*
 * b computes what a computed into a payload part: a computes into a new
 * value N instead, and b becomes the copy of N into that part, so b's
 * readers read N.  Only when b follows a in the same basic block within
 * a short window and nothing between references the payload block (its
 * part is then written later but read by nobody in between: the message
 * and every later reader see the same bytes).  Payload coalescing
 * (opt_payload.c) may compute N in the part again afterwards.  Returns N,
 * or 0 when it does not apply.
 */
static uint32_t unfold_part(struct gen_program *p, uint32_t a_idx, uint32_t b_idx)
{
    if (b_idx - a_idx > UNFOLD_WINDOW)
        return 0;
    uint32_t blk = p->inst[a_idx].dst.vreg;
    for (uint32_t q = a_idx + 1; q < b_idx; q++) {
        const struct gen_inst *x = &p->inst[q];
        if (gen_op_info[x->op].flow || x->op == GOP_LABEL)
            return 0;
        const struct gen_opnd *o[4] = {&x->dst, &x->src[0], &x->src[1], &x->src[2]};
        for (unsigned s = 0; s < 4; s++)
            if (o[s]->kind == GO_VREG && o[s]->vreg == blk)
                return 0;
    }
    struct gen_inst *b = &p->inst[b_idx];
    if (b->pred != GP_NONE || b->exec != p->simd || b->group || b->nomask)
        return 0;
    uint32_t n = gen_new_vreg(p, gen_dsize(p), false);
    if (p->oom)
        return 0;
    struct gen_inst *a = &p->inst[a_idx];
    struct gen_opnd part = a->dst;
    a->dst = gen_vr(n, 0, (enum gen_type)part.type);
    struct gen_inst m = *b;
    m.op = GOP_MOV;
    m.math = 0;
    m.sat = false;
    m.cmod = GC_NONE;
    m.dst = part;
    m.src[0] = gen_vr(n, 0, (enum gen_type)part.type);
    m.src[1] = m.src[2] = gen_opnd_none();
    *b = m;
    return n;
}

/*
 * b's readers read a's payload part in place instead (the block already
 * has readers other than messages, so payload coalescing, which needs
 * message-only blocks, would not compute a copy of it there): when the
 * part keeps a's value up to each reader, no reader is a message, and
 * each comes before the block's last reader, so the block lives no
 * longer than it did.
 */
static bool part_in_place(const struct gen_program *p, const struct gen_du *du, uint32_t a_idx,
                          uint32_t b_idx)
{
    const struct gen_inst *a = &p->inst[a_idx];
    uint32_t blk = a->dst.vreg, bv = p->inst[b_idx].dst.vreg, last = 0;
    bool other = false;
    for (uint32_t q = du->use_start[blk]; q < du->use_start[blk + 1]; q++) {
        uint32_t u = du->use_list[q].inst;
        other |= !gen_op_info[p->inst[u].op].send;
        last = u > last ? u : last;
    }
    if (!other)
        return false;
    for (uint32_t q = du->use_start[bv]; q < du->use_start[bv + 1]; q++) {
        uint32_t u = du->use_list[q].inst;
        const struct gen_inst *ui = &p->inst[u];
        if (gen_op_info[ui->op].send || ui->op == GOP_MOVI || ui->op == GOP_BCAST ||
            ui->op == GOP_PLN || u >= last ||
            !gen_du_unchanged(p, du, blk, a->dst.off, gen_dsize(p), a_idx, u))
            return false;
    }
    return true;
}

static bool same_srcs(const struct gen_inst *a, const struct gen_inst *b)
{
    unsigned n = gen_op_info[a->op].nsrc;
    bool direct = true;
    for (unsigned s = 0; s < n; s++)
        if (!gen_opnd_same(&a->src[s], &b->src[s]))
            direct = false;
    if (direct)
        return true;
    return n == 2 && commutative(a->op) && gen_opnd_same(&a->src[0], &b->src[1]) &&
           gen_opnd_same(&a->src[1], &b->src[0]);
}

static bool same_value(const struct gen_program *p, const struct gen_inst *a,
                       const struct gen_inst *b)
{
    return a->op == b->op && a->math == b->math && a->exec == b->exec && a->group == b->group &&
           a->nomask == b->nomask && a->sat == b->sat && a->cmod == b->cmod &&
           a->dst.type == b->dst.type && p->vreg[a->dst.vreg].uniform == p->vreg[b->dst.vreg].uniform &&
           same_srcs(a, b);
}

static uint32_t inst_hash(const struct gen_inst *i)
{
    uint32_t h = mix(mix(i->op, i->math), (uint32_t)i->exec | (uint32_t)i->group << 8 |
                                              (uint32_t)i->sat << 16 | (uint32_t)i->cmod << 17 |
                                              (uint32_t)i->nomask << 21);
    h = mix(h, i->dst.type);
    unsigned n = gen_op_info[i->op].nsrc;
    if (n == 2 && commutative(i->op))
        return mix(h, opnd_hash(&i->src[0]) ^ opnd_hash(&i->src[1]));
    for (unsigned s = 0; s < n; s++)
        h = mix(h, opnd_hash(&i->src[s]));
    return h;
}

static bool srcs_unchanged(const struct gen_program *p, const struct gen_du *du,
                           const struct gen_inst *b, uint32_t a_idx, uint32_t b_idx)
{
    unsigned n = gen_op_info[b->op].nsrc;
    for (unsigned s = 0; s < n; s++) {
        const struct gen_opnd *o = &b->src[s];
        if (o->kind != GO_VREG)
            continue;
        uint32_t size = p->vreg[o->vreg].uniform || o->region == GR_SCALAR ? 4 : 4u * (b->exec ? b->exec : 1);
        if (!gen_du_unchanged(p, du, o->vreg, o->off, size, a_idx, b_idx))
            return false;
    }
    return true;
}

static bool uses_dominated(const struct gen_du *du, uint32_t v, uint32_t b_idx)
{
    for (uint32_t q = du->use_start[v]; q < du->use_start[v + 1]; q++)
        if (!gen_du_dominates(du, b_idx, du->use_list[q].inst))
            return false;
    return true;
}

enum { CSE_PROBES = 8 };

static bool cse_values(struct gen_program *p, bool *dead)
{
    struct gen_du du;
    if (!gen_du_build(p, &du))
        return false;
    unsigned n = p->ninst, cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    int32_t *head = malloc(cap * sizeof(*head)), *next = malloc((n + 1) * sizeof(*next));
    uint32_t *rep = malloc((p->nvreg + 1) * sizeof(*rep));
    uint32_t *rep_off = calloc(p->nvreg + 1, sizeof(*rep_off));
    if (!head || !next || !rep || !rep_off) {
        free(head);
        free(next);
        free(rep);
        free(rep_off);
        gen_du_free(&du);
        p->oom = true;
        return false;
    }
    for (unsigned k = 0; k < cap; k++)
        head[k] = -1;
    /* the values the facts know: unfold_part makes new ones, never read
     * before their definition is renamed in */
    unsigned nknown = p->nvreg;
    for (unsigned v = 0; v < p->nvreg; v++)
        rep[v] = v;
    bool changed = false;
    for (unsigned k = 0; k < n; k++) {
        struct gen_inst *b = &p->inst[k];
        /* operands of replaced values first: equal computations of equal values match */
        bool fresh_src = false;
        for (unsigned s = 0; s < 3; s++) {
            if (b->src[s].kind != GO_VREG)
                continue;
            if (b->src[s].vreg < nknown && rep[b->src[s].vreg] != b->src[s].vreg) {
                b->src[s].off += rep_off[b->src[s].vreg];
                b->src[s].vreg = rep[b->src[s].vreg];
                changed = true;
            }
            fresh_src |= b->src[s].vreg >= nknown;
        }
        if (fresh_src)
            continue;
        bool whole = candidate(p, &du, k);
        if (!whole && !part_candidate(p, k))
            continue;
        uint32_t h = inst_hash(b) & (cap - 1);
        bool found = false;
        unsigned probes = 0;
        for (int32_t a = head[h]; whole && a >= 0 && probes < CSE_PROBES; a = next[a], probes++) {
            const struct gen_inst *ai = &p->inst[a];
            if (dead[a] || ai->dst.vreg >= nknown || !same_value(p, ai, b) ||
                !gen_du_dominates(&du, (uint32_t)a, k) ||
                !srcs_unchanged(p, &du, b, (uint32_t)a, k) || !uses_dominated(&du, b->dst.vreg, k))
                continue;
            if (p->vreg[ai->dst.vreg].no_spill && part_in_place(p, &du, (uint32_t)a, k)) {
                rep[b->dst.vreg] = ai->dst.vreg;
                rep_off[b->dst.vreg] = ai->dst.off;
                dead[k] = true;
                found = changed = true;
                break;
            }
            if (p->vreg[ai->dst.vreg].no_spill) {
                /* a computed into a payload part: a into a value of its own,
                 * b the copy into the part */
                uint32_t bv = b->dst.vreg, nv = unfold_part(p, (uint32_t)a, k);
                if (!nv)
                    continue;
                rep[bv] = nv;
                found = changed = true;
                break;
            }
            rep[b->dst.vreg] = ai->dst.vreg;
            dead[k] = true;
            found = changed = true;
            break;
        }
        if (!found) {
            next[k] = head[h];
            head[h] = (int32_t)k;
        }
    }
    /* uses the scan reached before their value was replaced: none (defs come
     * first in a dominated use), but a use list may name later ones */
    for (unsigned k = 0; k < n; k++)
        for (unsigned s = 0; s < 3; s++)
            if (p->inst[k].src[s].kind == GO_VREG && p->inst[k].src[s].vreg < nknown) {
                uint32_t v = p->inst[k].src[s].vreg;
                if (rep[v] != v) {
                    p->inst[k].src[s].off += rep_off[v];
                    p->inst[k].src[s].vreg = rep[v];
                }
            }
    free(head);
    free(next);
    free(rep);
    free(rep_off);
    gen_du_free(&du);
    return changed;
}

/* ------------------------------------------------------------------ */
/* Flags.                                                              */

static bool flag_cmp(const struct gen_inst *i)
{
    return i->op == GOP_CMP && i->cmod != GC_NONE && i->pred == GP_NONE;
}

static bool writes_opnd(const struct gen_inst *i, const struct gen_opnd *o)
{
    if (o->kind != GO_VREG || i->dst.kind != GO_VREG || i->dst.vreg != o->vreg)
        return false;
    return true; /* any write of the vreg: conservative within a block */
}

static bool cse_flags(struct gen_program *p, bool *dead)
{
    bool changed = false;
    /* per flag register: the last compare writing it in this block, -1 */
    int32_t last[2] = {-1, -1};
    for (unsigned k = 0; k < p->ninst; k++) {
        struct gen_inst *i = &p->inst[k];
        if (dead[k])
            continue;
        if (gen_op_info[i->op].flow || i->op == GOP_LABEL) {
            last[0] = last[1] = -1;
            continue;
        }
        /* a write of a compare's operand or boolean result ends what the flag tells */
        for (unsigned f = 0; f < 2; f++) {
            if (last[f] < 0)
                continue;
            const struct gen_inst *c = &p->inst[last[f]];
            if ((unsigned)last[f] != k &&
                (writes_opnd(i, &c->src[0]) || writes_opnd(i, &c->src[1]) ||
                 (c->dst.kind == GO_VREG && writes_opnd(i, &c->dst))))
                last[f] = -1;
        }
        if (flag_cmp(i) && i->flag < 2 && last[i->flag] >= 0) {
            const struct gen_inst *c = &p->inst[last[i->flag]];
            bool same_ch = c->exec == i->exec && c->group == i->group && c->nomask == i->nomask;
            bool same = same_ch && c->cmod == i->cmod && same_srcs(c, i) &&
                        gen_op_info[c->op].nsrc == 2;
            /* cmp.ne X, 0 where X is the boolean c wrote with the flag */
            bool retest = same_ch && i->cmod == GC_NE && c->dst.kind == GO_VREG &&
                          i->src[0].kind == GO_VREG && i->src[0].vreg == c->dst.vreg &&
                          i->src[0].off == c->dst.off && !i->src[0].neg && !i->src[0].abs &&
                          (i->src[0].type == GT_D || i->src[0].type == GT_UD) &&
                          i->src[1].kind == GO_IMM && i->src[1].imm == 0 &&
                          (c->dst.type == GT_D || c->dst.type == GT_UD);
            if ((same || retest) && i->dst.kind == GO_NULL) {
                dead[k] = true;
                changed = true;
                continue;
            }
        }
        if (gen_writes_flag(i, 0))
            last[0] = flag_cmp(i) ? (int32_t)k : -1;
        if (gen_writes_flag(i, 1))
            last[1] = flag_cmp(i) ? (int32_t)k : -1;
    }
    return changed;
}

bool gen_opt_cse(struct gen_program *p)
{
    bool *dead = calloc(p->ninst + 1, sizeof(*dead));
    if (!dead) {
        p->oom = true;
        return false;
    }
    bool changed = cse_values(p, dead);
    changed |= cse_flags(p, dead);
    if (changed)
        gen_remove_marked(p, dead);
    free(dead);
    return changed;
}
