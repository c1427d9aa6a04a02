/*
 * gen/opt_fold.c — saturation folded into the instruction that produces
 * the value (Mesa's opt_saturate_propagation, kept bit exact), and a
 * compare with zero folded into the selects reading its flag (csel), and
 * a gather's clamped byte address scaled in float (fold_byte_address),
 * and a compare with zero folded into the instruction computing its
 * operand (fold_cmod).
 *
 * requires: a selected program before allocation (gen/opt.h def/use facts)
 * invalidates: instruction indices (folded instructions become dead movs
 *              for opt_copy / opt_dce, none is removed here)
 *
 * The selector writes a saturate as `mov.sat d, x`: Gen's (sat) is the
 * interpreter's _sat (x < 0 ? +0 : x > 1 ? 1 : x, NaN -> +0, -0 kept;
 * docs/interpreter.md), applied to the value the instruction rounded.  So:
 *
 * - when x is already saturated (the result of an unpredicated (sat)
 *   instruction of the same type, or a plain copy of one: in [-0, 1],
 *   never NaN), clamping it again changes nothing: `mov d, x`;
 * - when the instruction producing x (its only whole definition, read by
 *   this mov alone, same width, a float destination) takes (sat), it
 *   saturates itself and the mov becomes a copy of it.  Not for a half
 *   destination: the simulator (and the half pipeline it models) clamps
 *   the f32 value before rounding it to half, where the interpreter clamps
 *   the rounded half, and a tiny negative value rounds to a half -0, which
 *   the clamp keeps.  There the clamp moves forward instead: a half
 *   `mov.sat t, x` read only by a conversion `mov d:f, t` in the same basic
 *   block, x unchanged in between, becomes `mov.sat d:f, x` (the half to
 *   float conversion is exact, so clamping before or after it is the same).
 *
 * Constants: an add or mul of two float immediates, or an integer add,
 * mul, shift or logic operation of two dword immediates, becomes a mov of
 * the result (float: computed in double and rounded once to float, which is
 * the correctly rounded IEEE single result whatever the host's evaluation
 * method, as double has more than 2 x 24 + 2 bits; denormals kept, as the
 * kernel sets cr0; NaN stays NaN); copy propagation then carries it on.
 *
 * Clamps: a compare of x with a constant K whose flag only chooses between
 * x and K in sels is those sels with the conditional modifier (sel.ge,
 * sel.l: fold_sel_cmod below; with x never NaN also the NaN-keeping
 * clamps of lit); max(x, 0) then min(., 1) in such sels is a
 * saturate (fold_clamp_sat); a max of a max with constants is one max or a
 * copy (fold_minmax_chain), minima alike.
 *
 * csel: `cmp.cm f null x, 0.0` followed, in the same basic block, by the
 * predicated sels that read f (and nothing else reading it) before f is
 * written again: each sel becomes `csel.cm d, a, b, x` (Gen8+: d = x cm 0 ?
 * a : b, the same ordered float compare as cmp's; an inverted predicate
 * swaps a and b), so the compare is dead.  Three-source operands are
 * registers: a sel's immediate is read from a kernel constant register
 * when that pays (fold_csel_consts), and x may not change between the
 * compare and the last sel.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"

enum { FOLD_DEPTH = 4 };

/* `mov.sat d, x` of a float or half x of d's type: true. */
static bool sat_pattern(const struct gen_inst *i)
{
    if (i->op != GOP_MOV || !i->sat || i->cmod || i->pred != GP_NONE ||
        (i->dst.type != GT_F && i->dst.type != GT_HF))
        return false;
    return i->src[0].type == i->dst.type;
}

/* x is the result of a (sat) instruction of its type: in [-0, 1], never NaN. */
static bool saturated(const struct gen_program *p, const struct gen_du *du, const struct gen_opnd *x)
{
    if (x->kind != GO_VREG || x->neg || x->abs)
        return false;
    enum gen_type t = (enum gen_type)x->type;
    int32_t d = gen_du_single_def(p, du, x->vreg);
    if (d < 0)
        return false;
    const struct gen_inst *i = &p->inst[d];
    /* a plain copy of a saturated value (an earlier fold left `mul.sat t;
     * mov d, t`) is saturated: a second clamp of d would only cost a mov.sat */
    for (unsigned k = 0; k < FOLD_DEPTH && i->op == GOP_MOV && !i->sat && !i->cmod &&
                         i->pred == GP_NONE && i->dst.type == t && i->src[0].kind == GO_VREG &&
                         !i->src[0].neg && !i->src[0].abs && i->src[0].type == t;
         k++) {
        /* the copy's source, if defined once, is the value itself */
        d = gen_du_single_def(p, du, i->src[0].vreg);
        if (d < 0)
            return false;
        i = &p->inst[d];
    }
    return i->sat && i->pred == GP_NONE && i->dst.type == t;
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

/* Instruction i reads the flag channels compare c writes. */
static bool reads_cmp_flag(const struct gen_inst *c, const struct gen_inst *i)
{
    unsigned lo = i->group, hi = i->group + (i->exec ? i->exec : 1);
    return gen_reads_flag(i, c->flag) && lo < c->group + c->exec && c->group < hi;
}

/*
 * The readers of the flag compare k writes, up to its next whole write in
 * the same basic block: how many there are (*end: where the scan stopped),
 * or -1 when one of them does not `fit` (given whether c's first source
 * may have changed by then), when the flag may be read past the block, or
 * when a write leaves part of it.
 */
static int flag_readers(const struct gen_program *p, unsigned k,
                        bool (*fit)(const struct gen_inst *c, const struct gen_inst *i),
                        unsigned *end)
{
    const struct gen_inst *c = &p->inst[k];
    const struct gen_opnd *x = &c->src[0];
    int readers = 0;
    bool x_changed = false;
    unsigned j = k + 1;
    for (; j < p->ninst; j++) {
        const struct gen_inst *i = &p->inst[j];
        if (gen_op_info[i->op].flow || i->op == GOP_LABEL)
            return -1; /* the flag may be read beyond this block */
        unsigned lo = i->group, hi = i->group + (i->exec ? i->exec : 1);
        bool overlap = lo < c->group + c->exec && c->group < hi;
        if (reads_cmp_flag(c, i)) {
            if (x_changed || !fit(c, i))
                return -1;
            readers++;
        }
        if (x->kind == GO_VREG && i->dst.kind == GO_VREG && i->dst.vreg == x->vreg)
            x_changed = true;
        if (gen_writes_flag(i, c->flag) && overlap) {
            if (i->pred != GP_NONE || lo > c->group || hi < c->group + c->exec)
                return -1;
            break;
        }
    }
    *end = j;
    return readers;
}

/* A sel csel can replace: registers of floats, as c's channels. */
static bool csel_fits(const struct gen_inst *c, const struct gen_inst *i)
{
    return i->op == GOP_SEL && !i->cmod && i->exec == c->exec && i->group == c->group &&
           !i->nomask && i->dst.kind == GO_VREG && i->dst.type == GT_F &&
           plain_region(&i->src[0]) && plain_region(&i->src[1]);
}

/* The compare at k folded into its selects; false when it does not qualify. */
static bool fold_csel(struct gen_program *p, unsigned k)
{
    const struct gen_inst *c = &p->inst[k];
    if (c->op != GOP_CMP || c->cmod < GC_EQ || c->cmod > GC_LE || c->pred != GP_NONE ||
        c->dst.kind != GO_NULL || c->nomask || c->exec < 8 || !plain_region(&c->src[0]) ||
        c->src[1].kind != GO_IMM || c->src[1].type != GT_F || (c->src[1].imm & 0x7fffffffu))
        return false;
    unsigned end;
    if (flag_readers(p, k, csel_fits, &end) <= 0)
        return false;
    for (unsigned q = k + 1; q < end; q++) {
        struct gen_inst *i = &p->inst[q];
        if (!reads_cmp_flag(c, i))
            continue;
        if (i->pred == GP_INVERT) {
            struct gen_opnd t = i->src[0];
            i->src[0] = i->src[1];
            i->src[1] = t;
        }
        i->op = GOP_CSEL;
        i->pred = GP_NONE;
        i->cmod = c->cmod;
        i->src[2] = c->src[0];
    }
    return true;
}

/* A sel choosing between c's x and its K: x where the compare holds
 * (`(f) sel d, x, K` or `(~f) sel d, K, x`), or, `*inverse`, x where it
 * does not (`(~f) sel d, x, K` or `(f) sel d, K, x`). */
static bool clamp_sel(const struct gen_inst *c, const struct gen_inst *i, bool *inverse)
{
    if (i->op != GOP_SEL || i->cmod || i->exec != c->exec || i->group != c->group ||
        i->nomask != c->nomask || i->dst.type != GT_F)
        return false;
    bool inv = i->pred == GP_INVERT;
    const struct gen_opnd *a = &i->src[0], *b = &i->src[1];
    if (gen_opnd_same(a, &c->src[0]) && gen_opnd_same(b, &c->src[1])) {
        *inverse = inv;
        return true;
    }
    if (gen_opnd_same(b, &c->src[0]) && gen_opnd_same(a, &c->src[1])) {
        *inverse = !inv;
        return true;
    }
    return false;
}

/* A float immediate a csel can read from a register holding it. */
static bool csel_imm(const struct gen_opnd *o)
{
    return o->kind == GO_IMM && o->type == GT_F && !o->neg && !o->abs;
}

/* A sel csel can replace once its immediates are in registers. */
static bool csel_fits_imm(const struct gen_inst *c, const struct gen_inst *i)
{
    return i->op == GOP_SEL && !i->cmod && i->exec == c->exec && i->group == c->group &&
           !i->nomask && i->dst.kind == GO_VREG && i->dst.type == GT_F &&
           (plain_region(&i->src[0]) || csel_imm(&i->src[0])) &&
           (plain_region(&i->src[1]) || csel_imm(&i->src[1]));
}

/* A compare fold_csel could fold (before looking at its readers). */
static bool csel_compare(const struct gen_inst *c)
{
    return c->op == GOP_CMP && c->cmod >= GC_EQ && c->cmod <= GC_LE && c->pred == GP_NONE &&
           c->dst.kind == GO_NULL && !c->nomask && c->exec >= 8 && plain_region(&c->src[0]) &&
           c->src[1].kind == GO_IMM && c->src[1].type == GT_F && !(c->src[1].imm & 0x7fffffffu);
}

enum { CSEL_KREGS = 8 };

/* The vreg of a kernel constant register already holding `bits`: a
 * `(W) mov (1) k, imm` among the leading constant movs (gen/build.c puts
 * them first), k written nowhere else; or ~0u. */
static uint32_t existing_kreg(const struct gen_program *p, uint32_t bits)
{
    for (unsigned k = 0; k < p->ninst; k++) {
        const struct gen_inst *i = &p->inst[k];
        if (i->op != GOP_MOV || !i->nomask || i->exec != 1 || i->pred != GP_NONE || i->sat ||
            i->cmod || i->dst.kind != GO_VREG || !p->vreg[i->dst.vreg].uniform)
            return ~0u; /* past the leading constant movs */
        if (!csel_imm(&i->src[0]) || i->src[0].imm != bits || i->dst.type != GT_F || i->dst.off)
            continue;
        uint32_t v = i->dst.vreg;
        bool once = true;
        for (unsigned q = 0; q < p->ninst && once; q++)
            if (q != k && p->inst[q].dst.kind == GO_VREG && p->inst[q].dst.vreg == v)
                once = false;
        if (once)
            return v;
    }
    return ~0u;
}

/* The constant values a compare's sels read as immediates, added to
 * bits[0..*n) (at most CSEL_KREGS): false when they do not fit. */
static bool csel_values(const struct gen_program *p, unsigned k, unsigned end, uint32_t *bits,
                        unsigned *n)
{
    for (unsigned q = k + 1; q < end; q++) {
        const struct gen_inst *i = &p->inst[q];
        if (!reads_cmp_flag(&p->inst[k], i))
            continue;
        for (unsigned s = 0; s < 2; s++) {
            if (!csel_imm(&i->src[s]))
                continue;
            bool known = false;
            for (unsigned j = 0; j < *n; j++)
                known |= bits[j] == i->src[s].imm;
            if (known)
                continue;
            if (*n == CSEL_KREGS)
                return false;
            bits[(*n)++] = i->src[s].imm;
        }
    }
    return true;
}

/*
 * csel for compares with zero whose sels choose an immediate (a clamp at
 * 0 that keeps NaN, as ARB LIT's `x < 0 ? 0 : x`; `x > 0 ? pow : 0`):
 * the immediate is read from a kernel constant register (`(W) mov (1) k,
 * imm` at the kernel's start, shared by every csel reading that value).
 * It pays when it removes more compares than it adds movs: a register
 * already holding the value (gen/build.c's constants) costs nothing, a new
 * one is made only when the folds outnumber the new registers.
 */
static bool fold_csel_consts(struct gen_program *p)
{
    uint32_t bits[CSEL_KREGS], vreg[CSEL_KREGS];
    bool made[CSEL_KREGS];
    unsigned n = 0, folds = 0;
    for (unsigned k = 0; k < p->ninst; k++) {
        unsigned end, m = n;
        if (!csel_compare(&p->inst[k]) || flag_readers(p, k, csel_fits_imm, &end) <= 0)
            continue;
        if (csel_values(p, k, end, bits, &m)) {
            n = m;
            folds++;
        }
    }
    unsigned fresh = 0;
    for (unsigned j = 0; j < n; j++) {
        vreg[j] = existing_kreg(p, bits[j]);
        fresh += vreg[j] == ~0u;
    }
    if (!folds || folds <= fresh)
        return false;
    for (unsigned j = 0; j < n; j++) {
        made[j] = vreg[j] == ~0u;
        if (made[j])
            vreg[j] = gen_new_vreg(p, 4, true);
    }
    if (p->oom)
        return false;
    for (unsigned k = 0; k < p->ninst; k++) {
        unsigned end, m = n;
        if (!csel_compare(&p->inst[k]) || flag_readers(p, k, csel_fits_imm, &end) <= 0 ||
            !csel_values(p, k, end, bits, &m) || m != n)
            continue;
        for (unsigned q = k + 1; q < end; q++) {
            struct gen_inst *i = &p->inst[q];
            if (!reads_cmp_flag(&p->inst[k], i))
                continue;
            for (unsigned s = 0; s < 2; s++)
                for (unsigned j = 0; j < n; j++)
                    if (csel_imm(&i->src[s]) && i->src[s].imm == bits[j])
                        i->src[s] = gen_vr(vreg[j], 0, GT_F);
        }
        fold_csel(p, k);
    }
    /* the new registers' movs go first, as gen/build.c places its constants */
    unsigned ninst = p->ninst;
    for (unsigned j = 0; j < fresh; j++)
        gen_append(p);
    if (p->oom)
        return true;
    memmove(&p->inst[fresh], &p->inst[0], sizeof(*p->inst) * ninst);
    unsigned w = 0;
    for (unsigned j = 0; j < n; j++) {
        if (!made[j])
            continue;
        struct gen_inst *i = &p->inst[w++];
        memset(i, 0, sizeof(*i));
        i->op = GOP_MOV;
        i->exec = 1;
        i->nomask = true;
        i->jip = i->uip = -1;
        i->dst = gen_vr(vreg[j], 0, GT_F);
        i->src[0] = gen_imm(bits[j], GT_F);
    }
    return true;
}

/* Whether the flag compare k writes may be read before it is written
 * again (control flow, or a scan past 256 instructions, counts as a read). */
static bool flag_read_after(const struct gen_program *p, unsigned k)
{
    const struct gen_inst *c = &p->inst[k];
    for (unsigned j = k + 1; j < p->ninst; j++) {
        const struct gen_inst *i = &p->inst[j];
        if (j - k > 256 || gen_op_info[i->op].flow || i->op == GOP_LABEL ||
            gen_reads_flag(i, c->flag))
            return true;
        if (gen_writes_flag(i, c->flag) && i->pred == GP_NONE && i->exec >= c->exec &&
            i->group <= c->group)
            return false;
    }
    return false;
}

/* Producers that take a conditional modifier on their float result. */
static bool cmod_producer(uint8_t op)
{
    return op == GOP_ADD || op == GOP_MUL || op == GOP_MAD || op == GOP_MOV || op == GOP_FRC ||
           op == GOP_RNDD || op == GOP_RNDE || op == GOP_RNDZ;
}

enum { CMOD_WINDOW = 64 };

/*
 * A compare of x with zero folded into the instruction computing x
 * (Mesa's cmod propagation): `cmp.cm f null x, 0.0` where x's one
 * definition d, earlier in the same basic block and within a short
 * window, is a float add, mul, mad, mov, frc or round of the same
 * channels, unpredicated, without (sat) or a modifier of its own, and
 * nothing between d and the compare reads or writes f: d takes `.cm f`
 * and the compare goes.  The same flag bits: Gen compares d's rounded
 * result with zero as cmp does (ordered: NaN false but for .ne; -0 equals
 * 0; denormals kept, as cr0 keeps them).  After the csel folds, which
 * take a compare without a flag write at all.
 */
static bool fold_cmod(struct gen_program *p, const struct gen_du *du)
{
    bool changed = false;
    for (unsigned k = 0; k < p->ninst; k++) {
        struct gen_inst *c = &p->inst[k];
        const struct gen_opnd *x = &c->src[0];
        if (c->op != GOP_CMP || c->pred != GP_NONE || c->dst.kind != GO_NULL || x->kind != GO_VREG ||
            x->type != GT_F || x->neg || x->abs || x->off || x->region != GR_AUTO ||
            c->src[1].kind != GO_IMM || c->src[1].type != GT_F || (c->src[1].imm & 0x7fffffffu) ||
            c->cmod < GC_EQ || c->cmod > GC_LE || (c->exec != 1 && c->exec != p->simd))
            continue;
        int32_t d = gen_du_single_def(p, du, x->vreg);
        if (d < 0 || k - (unsigned)d > CMOD_WINDOW || !flag_read_after(p, k))
            continue;
        struct gen_inst *di = &p->inst[d];
        if (!cmod_producer(di->op) || di->cmod || di->sat || di->pred != GP_NONE ||
            di->dst.type != GT_F || di->dst.off || di->exec != c->exec || di->group != c->group ||
            di->nomask != c->nomask || (di->op == GOP_MOV && di->src[0].type != GT_F))
            continue;
        bool ok = true;
        for (unsigned j = (unsigned)d + 1; j < k && ok; j++) {
            const struct gen_inst *i = &p->inst[j];
            if (gen_op_info[i->op].flow || i->op == GOP_LABEL || gen_reads_flag(i, c->flag) ||
                gen_writes_flag(i, c->flag))
                ok = false;
        }
        if (!ok)
            continue;
        di->cmod = c->cmod;
        di->flag = c->flag;
        /* the compare: a copy nobody reads, for opt_dce */
        uint32_t t = gen_new_vreg(p, c->exec == 1 ? 4 : gen_dsize(p), c->exec == 1);
        if (p->oom)
            return changed;
        c = &p->inst[k];
        c->op = GOP_MOV;
        c->cmod = GC_NONE;
        c->dst = gen_vr(t, 0, GT_F);
        c->src[1] = gen_opnd_none();
        changed = true;
    }
    return changed;
}

/* A sel choosing c's x where the compare holds and its K elsewhere. */
static bool clamp_fits(const struct gen_inst *c, const struct gen_inst *i)
{
    bool inverse;
    return clamp_sel(c, i, &inverse) && !inverse;
}

/* A sel choosing between c's x and K either way (x never NaN). */
static bool clamp_fits_either(const struct gen_inst *c, const struct gen_inst *i)
{
    bool inverse;
    return clamp_sel(c, i, &inverse);
}

enum { NAN_DEPTH = 4, SIGN_DEPTH = 6 };

/* v's one whole definition (gen_du_single_def), or NULL. */
static const struct gen_inst *whole_def(const struct gen_program *p, const struct gen_du *du,
                                        uint32_t v)
{
    int32_t d = gen_du_single_def(p, du, v);
    return d < 0 ? NULL : &p->inst[d];
}

/*
 * A float operand that is never NaN, whatever the inputs: a float
 * immediate that is not NaN, or a vreg whose one definition is a (sat)
 * instruction (NaN saturates to +0), a sel.cmod with a source never NaN
 * (min/max return the non-NaN source), a csel of two such sources, an
 * `and` with a constant whose exponent field is not all ones (the result's
 * is not either), an integer-to-float conversion, or a float copy of such
 * a value.
 */
static bool never_nan(const struct gen_program *p, const struct gen_du *du, const struct gen_opnd *o,
                      unsigned depth)
{
    if (o->kind == GO_IMM)
        return o->type == GT_F && (o->imm & 0x7fffffffu) <= 0x7f800000u;
    if (o->kind != GO_VREG || o->off || o->type != GT_F || depth >= NAN_DEPTH)
        return false;
    const struct gen_inst *i = whole_def(p, du, o->vreg);
    if (!i)
        return false;
    const struct gen_opnd *s = i->src;
    if (i->pred != GP_NONE)
        return false;
    if (i->sat && i->dst.type == GT_F)
        return true;
    switch (i->op) {
    case GOP_SEL:
        return i->cmod && i->dst.type == GT_F && s[0].type == GT_F && s[1].type == GT_F &&
               (never_nan(p, du, &s[0], depth + 1) || never_nan(p, du, &s[1], depth + 1));
    case GOP_CSEL:
        return i->dst.type == GT_F && never_nan(p, du, &s[0], depth + 1) &&
               never_nan(p, du, &s[1], depth + 1);
    case GOP_AND:
        for (unsigned k = 0; k < 2; k++)
            if (s[k].kind == GO_IMM && (s[k].type == GT_D || s[k].type == GT_UD) && !s[k].neg &&
                !s[k].abs && (s[k].imm & 0x7f800000u) != 0x7f800000u)
                return true;
        return false;
    case GOP_MOV:
        if (i->cmod || i->dst.type != GT_F)
            return false;
        if (s[0].type == GT_D || s[0].type == GT_UD || s[0].type == GT_W || s[0].type == GT_UW)
            return true; /* an integer converted */
        return never_nan(p, du, &s[0], depth + 1);
    default:
        return false;
    }
}

/*
 * A float operand that is never negative and never -0 (so +0, positive or
 * NaN), whatever the inputs: |x|, a float immediate with its sign bit
 * clear, or a vreg whose one unpredicated definition (no (sat): it keeps
 * -0) is
 * - a product x*x (the same operand twice) or of two such values: a
 *   positive product rounds to +0 at worst;
 * - a sum of two such values (+0 + +0 is +0), or a mad whose addend and
 *   product are (fused, its exact sum is not negative, so neither is its
 *   rounding; the dot product of a vector with itself is this chain);
 * - math.exp of anything, math.inv, math.rsq or math.sqrt of such a value
 *   (their results at +0 are +inf and +0), math.pow of one (C99's pow of
 *   +0 or a positive base is never negative);
 * - a sel choosing between two such values, an `and` with a constant whose
 *   sign bit is clear, a float copy of such a value.
 * Depth-limited like never_nan, so it costs nothing on long chains.
 */
static bool never_negative(const struct gen_program *p, const struct gen_du *du,
                           const struct gen_opnd *o, unsigned depth)
{
    if (o->type != GT_F)
        return false;
    if (o->abs && !o->neg)
        return true;
    if (o->neg || o->abs)
        return false;
    if (o->kind == GO_IMM)
        return !(o->imm & 0x80000000u);
    if (o->kind != GO_VREG || o->off || depth >= SIGN_DEPTH)
        return false;
    const struct gen_inst *i = whole_def(p, du, o->vreg);
    if (!i)
        return false;
    const struct gen_opnd *s = i->src;
    if ((i->pred != GP_NONE && i->op != GOP_SEL) || i->sat || i->dst.type != GT_F)
        return false;
    switch (i->op) {
    case GOP_MUL:
        return (s[0].type == GT_F && gen_opnd_same(&s[0], &s[1])) ||
               (never_negative(p, du, &s[0], depth + 1) && never_negative(p, du, &s[1], depth + 1));
    case GOP_ADD:
        return never_negative(p, du, &s[0], depth + 1) && never_negative(p, du, &s[1], depth + 1);
    case GOP_MAD:
        return never_negative(p, du, &s[0], depth + 1) &&
               ((s[1].type == GT_F && gen_opnd_same(&s[1], &s[2])) ||
                (never_negative(p, du, &s[1], depth + 1) &&
                 never_negative(p, du, &s[2], depth + 1)));
    case GOP_MATH:
        switch (i->math) {
        case GM_EXP:
            return true;
        case GM_INV:
        case GM_RSQ:
        case GM_SQT:
        case GM_POW:
            return never_negative(p, du, &s[0], depth + 1);
        default:
            return false;
        }
    case GOP_SEL:
        return never_negative(p, du, &s[0], depth + 1) && never_negative(p, du, &s[1], depth + 1);
    case GOP_AND:
        for (unsigned k = 0; k < 2; k++)
            if (s[k].kind == GO_IMM && (s[k].type == GT_D || s[k].type == GT_UD) && !s[k].neg &&
                !(s[k].imm & 0x80000000u))
                return true;
        return false;
    case GOP_MOV:
        return !i->cmod && never_negative(p, du, &s[0], depth + 1);
    default:
        return false;
    }
}

/*
 * `add d, x, +0.0` changes only a -0 (to +0; NaN stays NaN, and outputs
 * compare NaN as NaN): rcp's guard against -0 (gen/isel_ops.c), for
 * instance, before the reciprocal of a squared length.  Where x is never
 * -0, the add is a copy.
 */
static bool fold_add_zero(const struct gen_program *p, const struct gen_du *du, struct gen_inst *i)
{
    if (i->op != GOP_ADD || i->pred != GP_NONE || i->cmod || i->dst.type != GT_F)
        return false;
    for (unsigned k = 0; k < 2; k++) {
        const struct gen_opnd *z = &i->src[k], *x = &i->src[1 - k];
        if (z->kind == GO_IMM && z->type == GT_F && z->imm == 0 && !z->neg &&
            never_negative(p, du, x, 0)) {
            bool sat = i->sat;
            to_copy(i, *x);
            i->sat = sat;
            return true;
        }
    }
    return false;
}

/* A sel choosing K where the compare holds and x elsewhere (x never NaN). */
static bool clamp_fits_inverse(const struct gen_inst *c, const struct gen_inst *i)
{
    bool inverse;
    return clamp_sel(c, i, &inverse) && inverse;
}

/*
 * A clamp (min/max with a constant): `cmp.ge f null x, K` (or .l), K a
 * float immediate that is not NaN, then, in the same basic block before f
 * is written again, only sels reading f that choose x where the compare
 * holds and K elsewhere (`(f) sel d, x, K`, or `(~f) sel d, K, x`): each
 * becomes `sel.ge d, x, K` (.l), the compare dead.  The same value: where
 * x >= K (x < K) both give x, elsewhere K, and a NaN x, which compares
 * false, gives K both ways (sel.ge/.l return the non-NaN source).
 *
 * When x is never NaN (never_nan), a sel choosing x where the compare
 * fails (`(~f) sel d, x, K`: the clamps of lit, which keep a NaN) folds as
 * well, into the inverse min/max: not x < K is x >= K, and not x >= K is
 * x < K, signed zeros compared alike.  So does one after `cmp.g` (`.le`)
 * when K is not zero: not x > K is x <= K, which chooses the same value
 * as x < K (.l), since x = K only for x of K's bits (`.ge` likewise).
 * K may also be a register never NaN (a min or max of two values neither
 * of which is NaN: a compare of numbers is what sel.cmod computes).
 * x (and K) may not change between the compare and the last sel.
 */
static bool fold_sel_cmod(struct gen_program *p, const struct gen_du *du, unsigned k)
{
    const struct gen_inst *c = &p->inst[k];
    if (c->op != GOP_CMP ||
        (c->cmod != GC_GE && c->cmod != GC_LT && c->cmod != GC_GT && c->cmod != GC_LE) ||
        c->pred != GP_NONE || c->dst.kind != GO_NULL || c->nomask || c->src[0].type != GT_F ||
        (c->src[0].kind != GO_VREG && c->src[0].kind != GO_FIXED) || c->src[1].type != GT_F)
        return false;
    const struct gen_opnd *y = &c->src[1];
    bool kimm = y->kind == GO_IMM;
    if (kimm ? y->neg || y->abs || (y->imm & 0x7fffffffu) > 0x7f800000u
             : y->kind != GO_VREG || y->off || !never_nan(p, du, y, 0))
        return false;
    bool minmax = c->cmod == GC_GE || c->cmod == GC_LT;
    bool nonzero = kimm && (y->imm & 0x7fffffffu) != 0;
    bool nan_free = (minmax || nonzero) && never_nan(p, du, &c->src[0], 0);
    if (!minmax && !nan_free)
        return false;
    bool (*fit)(const struct gen_inst *, const struct gen_inst *) =
        !minmax ? clamp_fits_inverse : nan_free ? clamp_fits_either : clamp_fits;
    unsigned end;
    if (flag_readers(p, k, fit, &end) <= 0)
        return false;
    /* a second operand in a register keeps its value up to the last reader */
    for (unsigned q = k + 1; !kimm && q + 1 < end; q++)
        if (p->inst[q].dst.kind == GO_VREG && p->inst[q].dst.vreg == y->vreg)
            return false;
    /* the min/max each reader becomes: where x cm K holds, and where it fails */
    enum gen_cmod holds = (enum gen_cmod)c->cmod;
    enum gen_cmod fails = holds == GC_GE || holds == GC_GT ? GC_LT : GC_GE;
    for (unsigned q = k + 1; q < end; q++) {
        struct gen_inst *i = &p->inst[q];
        bool inverse;
        if (!reads_cmp_flag(c, i) || !clamp_sel(c, i, &inverse))
            continue;
        i->src[0] = c->src[0];
        i->src[1] = c->src[1];
        i->pred = GP_NONE;
        i->cmod = inverse ? fails : holds;
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

/* Instruction k, `mov.sat t:hf, x:hf`, read only by `mov d:f, t` in its
 * basic block with x unchanged in between: that mov converts and clamps x
 * itself (`mov.sat d:f, x`) and k is left to opt_dce. */
static bool sat_into_conversion(struct gen_program *p, const struct gen_du *du, unsigned k)
{
    const struct gen_inst *i = &p->inst[k];
    const struct gen_opnd *x = &i->src[0];
    if (i->dst.type != GT_HF || i->dst.kind != GO_VREG || i->dst.off || x->kind != GO_VREG ||
        p->vreg[x->vreg].no_spill)
        return false;
    /* k writes all of t, its only definition (gen_du_single_def's test, for
     * a half: two bytes per channel), and one instruction reads t */
    uint32_t t = i->dst.vreg;
    const struct gen_vreg *tv = &p->vreg[t];
    if (du->def_start[t + 1] - du->def_start[t] != 1 || tv->no_spill ||
        (tv->uniform ? tv->size != 4 || i->exec != 1
                     : tv->size != 2 * p->simd || i->exec != p->simd || i->group != 0) ||
        du->use_start[t + 1] - du->use_start[t] != 1)
        return false;
    struct gen_use u = du->use_list[du->use_start[t]];
    struct gen_inst *c = &p->inst[u.inst];
    const struct gen_opnd *r = &c->src[0];
    if (c->op != GOP_MOV || c->sat || c->cmod || c->pred != GP_NONE || u.slot != 0 ||
        c->dst.type != GT_F || c->exec != i->exec || c->group != i->group ||
        c->nomask != i->nomask)
        return false;
    /* c reads t whole, lane by lane, as k wrote it */
    if (r->kind != GO_VREG || r->vreg != t || r->off || r->neg || r->abs || r->type != GT_HF ||
        (r->region != GR_AUTO && r->region != GR_VEC))
        return false;
    if (!gen_du_same_block(du, k, u.inst) ||
        !gen_du_unchanged(p, du, x->vreg, x->off, gen_dst_bytes(p, i), k, u.inst))
        return false;
    c->src[0] = *x;
    c->sat = true;
    return true;
}

/*
 * A clamp to [0, 1] is a saturate: `sel.ge t, x, 0.0` then `sel.l d, t,
 * 1.0`, t read there alone (Direct3D 9's max(x, 0) then min(t, 1); sel.ge
 * and sel.l return the non-NaN source) is _sat bit for bit: a NaN, a
 * negative x and a negative denormal give +0, -0 stays -0 (-0 >= +0 holds),
 * a value past 1 and +inf give 1, everything else itself.  So the second
 * sel becomes `mov.sat d, x` and the first is dead (opt_dce), when x keeps
 * its value from one to the other: the same straight stretch, no write of
 * x's vreg in between (looked for over a few instructions: the two are
 * usually adjacent).  Not min before max (min(NaN, 1) is 1), not a bound
 * of -0 (max(NaN, -0) is -0), not ARB's MAX (`a > b`: -0 gives +0), which
 * is no sel.ge.
 */
enum { CLAMP_GAP = 32 };

/* Whether x (the first sel's source) holds the same value at instruction
 * k as at d: one straight stretch, its vreg (or any fixed register, for a
 * fixed x) not written in between. */
static bool kept_until(const struct gen_program *p, const struct gen_opnd *x, unsigned d,
                       unsigned k)
{
    for (unsigned q = d + 1; q < k; q++) {
        const struct gen_inst *m = &p->inst[q];
        if (gen_op_info[m->op].flow || m->op == GOP_LABEL ||
            (x->kind == GO_VREG && m->dst.kind == GO_VREG && m->dst.vreg == x->vreg) ||
            (x->kind == GO_FIXED && m->dst.kind == GO_FIXED))
            return false;
    }
    return true;
}

static bool fold_clamp_sat(struct gen_program *p, const struct gen_du *du, unsigned k)
{
    struct gen_inst *j = &p->inst[k];
    if (j->op != GOP_SEL || j->cmod != GC_LT || j->pred != GP_NONE || j->sat || j->nomask ||
        j->dst.type != GT_F || j->src[0].type != GT_F || j->src[1].kind != GO_IMM ||
        j->src[1].type != GT_F || j->src[1].neg || j->src[1].abs || j->src[1].imm != 0x3f800000u)
        return false;
    int32_t d = sole_def_used_once(p, du, &j->src[0]);
    if (d < 0 || (unsigned)d >= k || k - (unsigned)d > CLAMP_GAP)
        return false;
    const struct gen_inst *i = &p->inst[d];
    if (i->op != GOP_SEL || i->cmod != GC_GE || !plain_alu(i, j) || i->dst.type != GT_F ||
        i->src[0].type != GT_F || i->src[1].kind != GO_IMM || i->src[1].type != GT_F ||
        i->src[1].neg || i->src[1].abs || i->src[1].imm != 0)
        return false;
    const struct gen_opnd *x = &i->src[0];
    if (!kept_until(p, x, (unsigned)d, k))
        return false;
    j->op = GOP_MOV;
    j->cmod = GC_NONE;
    j->sat = true;
    j->src[0] = *x;
    memset(&j->src[1], 0, sizeof(j->src[1]));
    return true;
}

/* A float immediate that is not NaN, as a float. */
static bool plain_imm(const struct gen_opnd *o, float *f)
{
    if (o->kind != GO_IMM || o->type != GT_F || o->neg || o->abs ||
        (o->imm & 0x7fffffffu) > 0x7f800000u)
        return false;
    memcpy(f, &o->imm, 4);
    return true;
}

/*
 * exp2(k log2|x|), k a constant neither 0 nor infinite, is |x|^k: the
 * power a ps_2_0 compiler writes as `log t, x; mul t, t, k; exp d, t`.
 * The special values agree (|x| = 0 gives 0 or +inf, +inf gives +inf or
 * 0, x = 1 gives 1, NaN gives NaN; k = 0 or +-inf would not: 0 * -inf is
 * NaN where 0^0 is 1), and exp, log and pow are the operations whose
 * rounding the specifications leave open (docs/gensim.md: a shader with
 * them is compared with the math tolerance).  So the three become one
 * `math.pow` (its exponent in a register: `mov (1)` in the mul's place,
 * which gen/opt_consts.c may pack with other constants), or for k = 2 one
 * `mul d, x, x`, the exact square.  The log's source must be |x| (D3D9's
 * log and ARB's LG2 take it: docs/interpreter.md; a log of a negative x
 * would be NaN, not log2|x|), unchanged until the exp; the log and the
 * mul must feed nothing else.
 */
static bool fold_pow(struct gen_program *p, const struct gen_du *du, unsigned k)
{
    struct gen_inst *e = &p->inst[k];
    if (e->op != GOP_MATH || e->math != GM_EXP || e->pred != GP_NONE || e->cmod ||
        e->dst.type != GT_F)
        return false;
    int32_t dm = sole_def_used_once(p, du, &e->src[0]);
    if (dm < 0 || (unsigned)dm >= k)
        return false;
    struct gen_inst *m = &p->inst[dm];
    float kf = 0.0f;
    unsigned t = 2;
    for (unsigned s = 0; s < 2 && t == 2; s++)
        if (plain_imm(&m->src[1 - s], &kf))
            t = s;
    if (m->op != GOP_MUL || m->sat || m->cmod || m->dst.type != GT_F || m->exec != e->exec ||
        m->group != e->group || m->nomask != e->nomask || t == 2 || kf == 0.0f || isinf(kf))
        return false;
    int32_t dl = sole_def_used_once(p, du, &m->src[t]);
    if (dl < 0 || dl >= dm)
        return false;
    const struct gen_inst *l = &p->inst[dl];
    struct gen_opnd x = l->src[0];
    if (l->op != GOP_MATH || l->math != GM_LOG || l->sat || l->cmod || l->dst.type != GT_F ||
        l->exec != e->exec || l->group != e->group || l->nomask != e->nomask ||
        x.type != GT_F || !x.abs || x.neg ||
        !kept_until(p, &x, (unsigned)dl, k))
        return false;
    if (kf == 2.0f) {
        e->op = GOP_MUL;
        e->src[0] = x;
        e->src[1] = x;
        return true; /* the log and the mul are unread: opt_dce */
    }
    uint32_t kv = gen_new_vreg(p, 4, true);
    if (p->oom)
        return false;
    struct gen_opnd imm = m->src[1 - t];
    memset(m, 0, sizeof(*m));
    m->op = GOP_MOV;
    m->exec = 1;
    m->nomask = true;
    m->jip = m->uip = -1;
    m->dst = gen_vr(kv, 0, GT_F);
    m->src[0] = imm;
    e->math = GM_POW;
    e->src[0] = x;
    e->src[1] = gen_vr(kv, 0, GT_F);
    return true;
}

/* +1 for a max (sel.ge, sel.g), -1 for a min (sel.l, sel.le), 0 otherwise. */
static int minmax_dir(const struct gen_inst *i)
{
    if (i->op != GOP_SEL || i->pred != GP_NONE || i->sat || i->dst.type != GT_F ||
        i->src[0].type != GT_F)
        return 0;
    return i->cmod == GC_GE || i->cmod == GC_GT ? 1 : i->cmod == GC_LT || i->cmod == GC_LE ? -1 : 0;
}

/*
 * Two maxima (or two minima) with constants in a row: j = max(y, b) where
 * y = max(x, a) (sel.ge or sel.g each, constants not NaN).  y is never
 * NaN (the constant wins) and never below a, so:
 * - a > b (or a and b the same bits and the same compare): y is never
 *   below b either, j is a copy of y (MAX then lit's clamp of w at -128);
 * - a < b, y read by j alone, x unchanged in between: j = max(x, b).  For
 *   x >= b both give x (x is above a, so y is x), for x below b (or NaN)
 *   both give b (y is then x or a, both below b), and x = b, a signed zero
 *   included, is compared by j as it is in both.  (MAX then lit's clamp
 *   of x at 0.)
 * Minima the same way with the order reversed.
 */
static bool fold_minmax_chain(struct gen_program *p, const struct gen_du *du, unsigned k)
{
    struct gen_inst *j = &p->inst[k];
    int dir = minmax_dir(j);
    float a, b;
    if (!dir || !plain_imm(&j->src[1], &b))
        return false;
    const struct gen_opnd *y = &j->src[0];
    if (y->kind != GO_VREG || y->off || y->neg || y->abs ||
        (y->region != GR_AUTO && y->region != GR_VEC))
        return false;
    int32_t d = gen_du_single_def(p, du, y->vreg);
    if (d < 0 || (unsigned)d >= k || k - (unsigned)d > CLAMP_GAP)
        return false;
    const struct gen_inst *i = &p->inst[d];
    if (minmax_dir(i) != dir || !plain_alu(i, j) || j->nomask || !plain_imm(&i->src[1], &a))
        return false;
    bool same = i->src[1].imm == j->src[1].imm && i->cmod == j->cmod;
    if (same || (dir > 0 ? a > b : a < b)) {
        struct gen_opnd v = *y;
        to_copy(j, v);
        j->cmod = GC_NONE;
        return true;
    }
    if (du->use_start[y->vreg + 1] - du->use_start[y->vreg] != 1)
        return false;
    const struct gen_opnd *x = &i->src[0];
    if (!kept_until(p, x, (unsigned)d, k))
        return false;
    j->src[0] = *x;
    return true;
}

bool gen_opt_fold(struct gen_program *p)
{
    struct gen_du du;
    if (!gen_du_build(p, &du))
        return false;
    bool changed = false;
    for (unsigned k = 0; k < p->ninst; k++)
        if (fold_constant(p, &du, &p->inst[k]))
            changed = true; /* a mov of an immediate now: its def/use facts still hold */
    for (unsigned k = 0; k < p->ninst; k++)
        if (fold_byte_address(p, &du, k))
            changed = true; /* the same vregs defined and read: the facts still hold */
    for (unsigned k = 0; k < p->ninst; k++)
        if (fold_add_zero(p, &du, &p->inst[k]))
            changed = true; /* a copy now, defining the same vreg: the facts still hold */
    for (unsigned k = 0; k < p->ninst; k++)
        if (fold_pow(p, &du, k))
            changed = true; /* the log and mul unread now; a new vreg past the facts is read
                             * by the pow alone, which no later fold here looks through */
    for (unsigned k = 0; k < p->ninst; k++) {
        struct gen_inst *i = &p->inst[k];
        if (!sat_pattern(i))
            continue;
        struct gen_opnd x = i->src[0];
        if (saturated(p, &du, &x)) {
            to_copy(i, x);
            changed = true;
            continue;
        }
        if (x.type == GT_HF && sat_into_conversion(p, &du, k)) {
            changed = true; /* i is dead now; t's facts are stale but never read again */
            continue;
        }
        if (x.kind != GO_VREG || x.neg || x.abs || x.off || x.type != GT_F)
            continue;
        int32_t d = gen_du_single_def(p, &du, x.vreg);
        if (d < 0 || du.use_start[x.vreg + 1] - du.use_start[x.vreg] != 1)
            continue;
        struct gen_inst *pi = &p->inst[d];
        if (!gen_op_info[pi->op].sat || pi->sat || pi->cmod || pi->pred != GP_NONE ||
            pi->exec != i->exec || pi->group != i->group || pi->nomask != i->nomask ||
            pi->dst.type != GT_F || gen_op_info[pi->op].send || pi->op == GOP_PLN)
            continue;
        /* the producer saturates: the mov copies its (now saturated) result */
        pi->sat = true;
        to_copy(i, x);
        changed = true;
    }
    gen_du_free(&du);
    /* def/use facts for never_nan: a fold below rewrites a sel in place
     * (same destination), so the facts still hold, and a sel it made
     * unpredicated is a single definition for the compares after it */
    if (!gen_du_build(p, &du))
        return changed;
    for (unsigned k = 0; k < p->ninst; k++)
        if (fold_sel_cmod(p, &du, k) || fold_csel(p, k))
            changed = true; /* the compare is dead now: opt_dce */
    gen_du_free(&du);
    if (fold_csel_consts(p))
        changed = true; /* the same with constants in registers (their movs first) */
    /* the clamps those folds made, on fresh def/use facts */
    if (!gen_du_build(p, &du))
        return changed;
    for (unsigned k = 0; k < p->ninst; k++)
        if (fold_clamp_sat(p, &du, k))
            changed = true; /* the first sel is dead now: opt_dce */
    /* a folded chain leaves y unread or copied: its facts are stale for a
     * later j reading y, which therefore waits for the next round */
    bool *stale = calloc(p->nvreg + 1, sizeof(*stale));
    if (!stale) {
        p->oom = true;
        gen_du_free(&du);
        return changed;
    }
    for (unsigned k = 0; k < p->ninst; k++) {
        const struct gen_inst *j = &p->inst[k];
        if (j->op != GOP_SEL || j->src[0].kind != GO_VREG || stale[j->src[0].vreg])
            continue;
        uint32_t y = j->src[0].vreg;
        if (fold_minmax_chain(p, &du, k)) {
            stale[y] = true;
            if (p->inst[k].src[0].kind == GO_VREG)
                stale[p->inst[k].src[0].vreg] = true; /* x, when j reads it now */
            if (p->inst[k].dst.kind == GO_VREG)
                stale[p->inst[k].dst.vreg] = true;
            changed = true;
        }
    }
    free(stale);
    gen_du_free(&du);
    /* compares with zero into their operands' producers, on fresh facts */
    if (!gen_du_build(p, &du))
        return changed;
    if (fold_cmod(p, &du))
        changed = true; /* the compares are dead copies now: opt_dce */
    gen_du_free(&du);
    return changed;
}
