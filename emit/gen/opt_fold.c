/*
 * gen/opt_fold.c — saturation folded into the instruction that produces
 * the value (Mesa's opt_saturate_propagation, kept bit exact), and a
 * compare with zero folded into the selects reading its flag (csel), and
 * a gather's clamped byte address scaled in float (fold_byte_address).
 *
 * requires: a selected program before allocation (gen/opt.h def/use facts)
 * invalidates: instruction indices (folded instructions become dead movs
 *              for opt_copy / opt_dce, none is removed here)
 *
 * The selector writes a saturate as `add.sat d, x, 0.0`: x + 0 turns -0
 * into +0 before the clamp, as the interpreter's saturate does, where
 * Gen's (sat) keeps -0.  So:
 *
 * - when x is already saturated (in [+0, 1], never -0, never NaN: the
 *   result of such an add, or of any (sat) instruction whose result cannot
 *   be -0, or a plain copy of such a value), the add is a copy: `mov d, x`;
 * - when the instruction producing x (its only whole definition, read by
 *   this add alone, same width) takes (sat) and cannot give -0, it
 *   saturates itself and the add becomes a copy of it.
 *
 * "Cannot give -0", by construction, for IEEE float with denormals kept
 * and round-to-nearest: an immediate other than -0; |x|; a sum of two
 * floats one of which is never -0 (an exact zero sum is +0, and a nonzero
 * sum of two floats is at least the smallest denormal); 2^x; frc (x minus
 * its floor: +0 for -0); a selection between two such values; any of these
 * saturated.  A product or a fused multiply-add can round a tiny negative
 * result to -0, so they never qualify.
 *
 * Constants: an add or mul of two float immediates, or an integer add,
 * mul, shift or logic operation of two dword immediates, becomes a mov of
 * the result (float: computed in double and rounded once to float, which is
 * the correctly rounded IEEE single result whatever the host's evaluation
 * method, as double has more than 2 x 24 + 2 bits; denormals kept, as the
 * kernel sets cr0; NaN stays NaN); copy propagation then carries it on.
 *
 * csel: `cmp.cm f null x, 0.0` followed, in the same basic block, by the
 * predicated sels that read f (and nothing else reading it) before f is
 * written again: each sel becomes `csel.cm d, a, b, x` (Gen8+: d = x cm 0 ?
 * a : b, the same ordered float compare as cmp's; an inverted predicate
 * swaps a and b), so the compare is dead.  Three-source operands are
 * registers: a sel with an immediate keeps its compare, and x may not
 * change between the compare and the last sel.
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

enum { FOLD_DEPTH = 4 };

static bool value_never_negzero(const struct gen_program *p, const struct gen_du *du, uint32_t v,
                                unsigned depth);

static bool opnd_never_negzero(const struct gen_program *p, const struct gen_du *du,
                               const struct gen_opnd *o, unsigned depth)
{
    if (o->type != GT_F)
        return false;
    if (o->abs)
        return !o->neg; /* |x| is never -0; -|x| may be */
    if (o->kind == GO_IMM)
        return (o->neg ? o->imm ^ 0x80000000u : o->imm) != 0x80000000u;
    if (o->neg || o->kind != GO_VREG || depth == 0)
        return false;
    return value_never_negzero(p, du, o->vreg, depth - 1);
}

static bool value_never_negzero(const struct gen_program *p, const struct gen_du *du, uint32_t v,
                                unsigned depth)
{
    int32_t d = gen_du_single_def(p, du, v);
    if (d < 0)
        return false;
    const struct gen_inst *i = &p->inst[d];
    if (i->dst.type != GT_F || i->pred != GP_NONE)
        return false;
    switch (i->op) {
    case GOP_ADD:
        return i->src[0].type == GT_F && i->src[1].type == GT_F &&
               (opnd_never_negzero(p, du, &i->src[0], depth) ||
                opnd_never_negzero(p, du, &i->src[1], depth));
    case GOP_MATH:
        return i->math == GM_EXP;
    case GOP_FRC:
        return true;
    case GOP_SEL:
        return opnd_never_negzero(p, du, &i->src[0], depth) &&
               opnd_never_negzero(p, du, &i->src[1], depth);
    case GOP_MOV:
        return !i->sat && opnd_never_negzero(p, du, &i->src[0], depth);
    default:
        return false;
    }
}

/* `add.sat d, x, +0.0` (either order): returns the slot of x, or -1. */
static int sat_pattern(const struct gen_inst *i)
{
    if (i->op != GOP_ADD || !i->sat || i->cmod || i->pred != GP_NONE || i->dst.type != GT_F)
        return -1;
    for (int s = 0; s < 2; s++) {
        const struct gen_opnd *z = &i->src[1 - s], *x = &i->src[s];
        if (z->kind == GO_IMM && z->type == GT_F && z->imm == 0 && !z->neg && !z->abs &&
            x->type == GT_F)
            return s;
    }
    return -1;
}

/* x lies in [+0, 1] and is never -0 or NaN. */
static bool saturated(const struct gen_program *p, const struct gen_du *du, const struct gen_opnd *x)
{
    if (x->kind != GO_VREG || x->neg || x->abs || x->type != GT_F)
        return false;
    int32_t d = gen_du_single_def(p, du, x->vreg);
    if (d < 0)
        return false;
    const struct gen_inst *i = &p->inst[d];
    /* a plain copy of a saturated value (an earlier fold left `add.sat t;
     * mov d, t`) is saturated: a second clamp of d would only cost a mov.sat */
    for (unsigned k = 0; k < FOLD_DEPTH && i->op == GOP_MOV && !i->sat && !i->cmod &&
                         i->pred == GP_NONE && i->dst.type == GT_F && i->src[0].kind == GO_VREG &&
                         !i->src[0].neg && !i->src[0].abs && i->src[0].type == GT_F;
         k++) {
        /* the copy's source, if defined once, is the value itself */
        d = gen_du_single_def(p, du, i->src[0].vreg);
        if (d < 0)
            return false;
        x = &i->src[0];
        i = &p->inst[d];
    }
    if (!i->sat || i->pred != GP_NONE || i->dst.type != GT_F)
        return false;
    if (sat_pattern(i) >= 0)
        return true;
    return value_never_negzero(p, du, x->vreg, FOLD_DEPTH);
}

static void to_copy(struct gen_inst *i, struct gen_opnd x)
{
    i->op = GOP_MOV;
    i->sat = false;
    i->src[0] = x;
    memset(&i->src[1], 0, sizeof(i->src[1]));
}

/* The immediate an operand reads: itself, or the one a single copy of an
 * immediate put in its vreg (a single definition that does not dominate a
 * use leaves that use undefined or that value: either way, the value). */
static bool imm_of(const struct gen_program *p, const struct gen_du *du, const struct gen_opnd *o,
                   uint32_t *bits)
{
    if (o->kind == GO_IMM) {
        *bits = o->imm;
        return true;
    }
    if (o->kind != GO_VREG || o->off)
        return false;
    int32_t d = gen_du_single_def(p, du, o->vreg);
    if (d < 0)
        return false;
    const struct gen_inst *m = &p->inst[d];
    if (m->op != GOP_MOV || m->sat || m->cmod || m->src[0].kind != GO_IMM || m->src[0].neg ||
        m->src[0].abs || m->src[0].type != m->dst.type || m->dst.type != o->type)
        return false;
    *bits = m->src[0].imm;
    return true;
}

static bool f32_of(const struct gen_program *p, const struct gen_du *du, const struct gen_opnd *o,
                   double *v)
{
    uint32_t bits;
    if (o->type != GT_F || !imm_of(p, du, o, &bits))
        return false;
    if (o->abs)
        bits &= 0x7fffffffu;
    if (o->neg)
        bits ^= 0x80000000u;
    float f;
    memcpy(&f, &bits, 4);
    *v = f;
    return true;
}

static bool i32_of(const struct gen_program *p, const struct gen_du *du, const struct gen_opnd *o,
                   uint32_t *v)
{
    if ((o->type != GT_D && o->type != GT_UD) || o->neg || o->abs)
        return false;
    return imm_of(p, du, o, v);
}

/* An operation of immediates made a mov of its value; false when it is not one. */
static bool fold_constant(const struct gen_program *p, const struct gen_du *du, struct gen_inst *i)
{
    if (i->pred != GP_NONE || i->cmod != GC_NONE || i->sat || i->dst.kind != GO_VREG ||
        gen_op_info[i->op].nsrc != 2)
        return false;
    uint32_t bits;
    double a, b;
    uint32_t x, y;
    if (i->dst.type == GT_F && (i->op == GOP_ADD || i->op == GOP_MUL) &&
        f32_of(p, du, &i->src[0], &a) && f32_of(p, du, &i->src[1], &b)) {
        float r = (float)(i->op == GOP_ADD ? a + b : a * b);
        memcpy(&bits, &r, 4);
    } else if ((i->dst.type == GT_D || i->dst.type == GT_UD) && i32_of(p, du, &i->src[0], &x) &&
               i32_of(p, du, &i->src[1], &y)) {
        switch (i->op) {
        case GOP_ADD: bits = x + y; break;
        case GOP_MUL: bits = x * y; break;
        case GOP_AND: bits = x & y; break;
        case GOP_OR: bits = x | y; break;
        case GOP_XOR: bits = x ^ y; break;
        case GOP_SHL: bits = x << (y & 31u); break;
        case GOP_SHR: bits = x >> (y & 31u); break;
        default: return false;
        }
    } else {
        return false;
    }
    i->op = GOP_MOV;
    i->src[0] = gen_imm(bits, (enum gen_type)i->dst.type);
    memset(&i->src[1], 0, sizeof(i->src[1]));
    return true;
}

static bool plain_region(const struct gen_opnd *o)
{
    return (o->kind == GO_VREG || o->kind == GO_FIXED) && o->type == GT_F &&
           (o->region == GR_AUTO || o->region == GR_VEC || o->region == GR_SCALAR);
}

/* The compare at k folded into its selects; false when it does not qualify. */
static bool fold_csel(struct gen_program *p, unsigned k)
{
    const struct gen_inst *c = &p->inst[k];
    if (c->op != GOP_CMP || c->cmod < GC_EQ || c->cmod > GC_LE || c->pred != GP_NONE ||
        c->dst.kind != GO_NULL || c->nomask || c->exec < 8 || !plain_region(&c->src[0]) ||
        c->src[1].kind != GO_IMM || c->src[1].type != GT_F || (c->src[1].imm & 0x7fffffffu))
        return false;
    const struct gen_opnd x = c->src[0];
    unsigned readers = 0;
    bool x_changed = false;
    unsigned j = k + 1;
    for (; j < p->ninst; j++) {
        const struct gen_inst *i = &p->inst[j];
        if (gen_op_info[i->op].flow || i->op == GOP_LABEL)
            return false; /* the flag may be read beyond this block */
        unsigned lo = i->group, hi = i->group + (i->exec ? i->exec : 1);
        bool overlap = lo < c->group + c->exec && c->group < hi;
        if (gen_reads_flag(i, c->flag) && overlap) {
            if (x_changed || i->op != GOP_SEL || i->cmod || i->exec != c->exec ||
                i->group != c->group || i->nomask || i->dst.kind != GO_VREG ||
                i->dst.type != GT_F || !plain_region(&i->src[0]) || !plain_region(&i->src[1]))
                return false;
            readers++;
        }
        if (x.kind == GO_VREG && i->dst.kind == GO_VREG && i->dst.vreg == x.vreg)
            x_changed = true;
        if (gen_writes_flag(i, c->flag) && overlap) {
            if (i->pred != GP_NONE || lo > c->group || hi < c->group + c->exec)
                return false;
            break;
        }
    }
    if (!readers)
        return false;
    for (unsigned q = k + 1; q < j; q++) {
        struct gen_inst *i = &p->inst[q];
        unsigned lo = i->group, hi = i->group + (i->exec ? i->exec : 1);
        if (!gen_reads_flag(i, c->flag) || !(lo < c->group + c->exec && c->group < hi))
            continue;
        if (i->pred == GP_INVERT) {
            struct gen_opnd t = i->src[0];
            i->src[0] = i->src[1];
            i->src[1] = t;
        }
        i->op = GOP_CSEL;
        i->pred = GP_NONE;
        i->cmod = c->cmod;
        i->src[2] = x;
    }
    return true;
}

/* Is every read of vreg v (a single-definition value) an add of it and a
 * dword immediate, without modifiers?  Then a constant added to v can go
 * into those immediates instead. */
static bool read_by_adds_only(const struct gen_program *p, const struct gen_du *du, uint32_t v)
{
    for (uint32_t q = du->use_start[v]; q < du->use_start[v + 1]; q++) {
        const struct gen_inst *u = &p->inst[du->use_list[q].inst];
        if (u->op != GOP_ADD || u->sat || u->cmod || u->src[0].kind != GO_VREG ||
            u->src[0].vreg != v || u->src[0].off || u->src[0].neg || u->src[0].abs ||
            u->src[0].type != GT_D || u->src[1].kind != GO_IMM || u->src[1].type != GT_D)
            return false;
    }
    return du->use_start[v + 1] > du->use_start[v];
}

/* The one definition of operand o's whole vreg, read there alone; -1 otherwise. */
static int32_t sole_def_used_once(const struct gen_program *p, const struct gen_du *du,
                                  const struct gen_opnd *o)
{
    if (o->kind != GO_VREG || o->off || o->neg || o->abs ||
        (o->region != GR_AUTO && o->region != GR_VEC))
        return -1;
    if (du->use_start[o->vreg + 1] - du->use_start[o->vreg] != 1)
        return -1;
    return gen_du_single_def(p, du, o->vreg);
}

static bool plain_alu(const struct gen_inst *i, const struct gen_inst *k)
{
    return !i->sat && i->pred == GP_NONE && !i->nomask && i->exec == k->exec &&
           i->group == k->group && i->dst.off == 0;
}

/*
 * A relative read's byte address from a float index f (gen/isel_const.c,
 * gen/kernel.c): `mov t:d, f` (saturating), `add t, t, K`, `sel.l t, t,
 * 0x0fffffff` as unsigned (below 0 or past the buffer stays past it once
 * the shift cannot wrap), `shl t, t, 4`.  The same in three: `mul t:f, f,
 * 16.0` (exact for an integer f below 2^27; beyond, or infinite, the
 * conversion saturates, NaN converts as before), `mov t:d, t:f`, `add t,
 * t, 16 K`: an index outside the buffer, below 0 or past 2^27, gives an
 * address that is negative as a signed dword or past 2^31 - 16 |K|, which
 * the buffer's bounds checking (unsigned, the buffer far smaller than 2^31)
 * reads as zeros, as the clamp did; an index inside gives the same address.
 *
 * The byte address gathers share (gen/isel_const.c byte_base): `add t, t,
 * 2^26`, `sel.l t, t, 2^27` as unsigned, `shl t, t, 4`, each vector then
 * adding 16 k - 2^30.  Folded the same way into `add t, t, 2^30`: an index
 * a with |a| < 2^27 gives 16 a + 2^30 exactly as before; one the
 * conversion saturates gives INT_MAX or INT_MIN plus 2^30, and with each
 * vector's 16 k - 2^30 (|16 k| far below 2^30) an address within 16 |k| of
 * 2^31, past the buffer as the clamped 2^30 + 16 k was.  When every reader
 * of the address is such an add, the 2^30 and the biases cancel (dword
 * adds wrap, so the sums are the same bits) and go; a vector at 0 then
 * reads the scaled index itself.
 */
static bool fold_byte_address(struct gen_program *p, const struct gen_du *du, unsigned k)
{
    struct gen_inst *sh = &p->inst[k];
    if (sh->op != GOP_SHL || sh->pred != GP_NONE || sh->sat || sh->cmod ||
        sh->src[1].kind != GO_IMM || sh->src[1].imm != 4 || sh->dst.kind != GO_VREG)
        return false;
    int32_t d3 = sole_def_used_once(p, du, &sh->src[0]);
    if (d3 < 0)
        return false;
    struct gen_inst *sel = &p->inst[d3];
    if (sel->op != GOP_SEL || sel->cmod != GC_LT || !plain_alu(sel, sh) ||
        sel->src[1].kind != GO_IMM || sel->dst.type != GT_UD || sel->src[0].type != GT_UD)
        return false;
    bool shared = sel->src[1].imm == 1u << 27;
    if (!shared && sel->src[1].imm != 0x0fffffffu)
        return false;
    int32_t d2 = sole_def_used_once(p, du, &sel->src[0]);
    if (d2 < 0)
        return false;
    struct gen_inst *ad = &p->inst[d2];
    if (ad->op != GOP_ADD || ad->cmod || !plain_alu(ad, sh) || ad->dst.type != GT_D ||
        ad->src[1].kind != GO_IMM || ad->src[1].type != GT_D)
        return false;
    int32_t kk = (int32_t)ad->src[1].imm;
    if (shared ? kk != 1 << 26 : (kk <= -(1 << 20) || kk >= (1 << 20)))
        return false;
    int32_t d1 = sole_def_used_once(p, du, &ad->src[0]);
    if (d1 < 0)
        return false;
    struct gen_inst *cv = &p->inst[d1];
    if (cv->op != GOP_MOV || cv->cmod || !plain_alu(cv, sh) || cv->dst.type != GT_D ||
        cv->src[0].type != GT_F || cv->src[0].kind == GO_IMM || ad->src[0].type != GT_D ||
        !gen_du_same_block(du, (uint32_t)d1, k))
        return false;
    /* the conversion's float source, times 16 */
    cv->op = GOP_MUL;
    cv->dst.type = GT_F;
    cv->src[1] = gen_imm(0x41800000u, GT_F); /* 16.0 */
    /* the conversion, saturating */
    struct gen_opnd t = ad->src[0];
    t.type = GT_F;
    to_copy(ad, t);
    /* the offset, in bytes; the shared address's 2^30 cancels each reader's
     * bias -2^30 (dword adds wrap: the same sums) when all are adds */
    sel->op = GOP_ADD;
    sel->cmod = GC_NONE;
    sel->dst.type = GT_D;
    sel->src[0].type = GT_D;
    sel->src[1] = gen_imm((uint32_t)kk * 16u, GT_D);
    if (shared && gen_du_single_def(p, du, sh->dst.vreg) == (int32_t)k &&
        read_by_adds_only(p, du, sh->dst.vreg)) {
        for (uint32_t q = du->use_start[sh->dst.vreg]; q < du->use_start[sh->dst.vreg + 1]; q++) {
            struct gen_inst *u = &p->inst[du->use_list[q].inst];
            u->src[1].imm = (uint32_t)u->src[1].imm + (1u << 30);
            if (u->src[1].imm == 0)
                to_copy(u, u->src[0]);
        }
        to_copy(sel, sel->src[0]);
    }
    /* the shift is a copy */
    struct gen_opnd b = sh->src[0];
    to_copy(sh, b);
    return true;
}

bool gen_opt_fold(struct gen_program *p)
{
    struct gen_du du;
    if (!gen_du_build(p, &du)) {
        p->oom = true;
        return false;
    }
    bool changed = false;
    for (unsigned k = 0; k < p->ninst; k++)
        if (fold_constant(p, &du, &p->inst[k]))
            changed = true; /* a mov of an immediate now: its def/use facts still hold */
    for (unsigned k = 0; k < p->ninst; k++)
        if (fold_byte_address(p, &du, k))
            changed = true; /* the same vregs defined and read: the facts still hold */
    for (unsigned k = 0; k < p->ninst; k++) {
        struct gen_inst *i = &p->inst[k];
        int s = sat_pattern(i);
        if (s < 0)
            continue;
        struct gen_opnd x = i->src[s];
        if (saturated(p, &du, &x)) {
            to_copy(i, x);
            changed = true;
            continue;
        }
        if (x.kind != GO_VREG || x.neg || x.abs || x.off)
            continue;
        int32_t d = gen_du_single_def(p, &du, x.vreg);
        if (d < 0 || du.use_start[x.vreg + 1] - du.use_start[x.vreg] != 1)
            continue;
        struct gen_inst *pi = &p->inst[d];
        if (!gen_op_info[pi->op].sat || pi->sat || pi->cmod || pi->exec != i->exec ||
            pi->group != i->group || pi->nomask != i->nomask || pi->dst.type != GT_F ||
            gen_op_info[pi->op].send || pi->op == GOP_PLN)
            continue;
        if (!value_never_negzero(p, &du, x.vreg, FOLD_DEPTH))
            continue;
        /* the producer saturates: the add copies its (now saturated) result */
        pi->sat = true;
        to_copy(i, x);
        changed = true;
    }
    gen_du_free(&du);
    for (unsigned k = 0; k < p->ninst; k++)
        if (fold_csel(p, k))
            changed = true; /* the compare is dead now: opt_dce */
    return changed;
}
