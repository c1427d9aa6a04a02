/* requires: MIR with dead instructions marked (coalesce.c's settle).
 * invalidates: the block structure (drops flow instructions); liveness. */
/*
 * flow.c — flow constructs left with nothing to do.  Once dead code is
 * gone, an if whose arms are empty, an else arm that is empty, and a
 * loop whose body computes nothing (rep and loop counts are finite, so
 * dropping the iterations changes no result) are instructions the
 * targets would still spend time on: a subroutine that only returns
 * (callnz l0, b0) leaves "if b0 / endif" behind.
 *
 * One forward walk with a stack of open constructs; a break is not
 * content of its own (it only shapes the loop around it), so an if that
 * holds only breaks stays unless the loop around it goes as a whole.
 *
 * And the same instruction near the start of both arms of an if/else
 * (phi copies of one value on both edges, typically) is one instruction
 * before the if, when it can move to its arm's start in both: nothing
 * before it in the arm writes what it reads or touches what it writes.
 */
#include <stdlib.h>
#include <string.h>

#include "merge.h"

struct open {
    unsigned at, els;    /* the opener; its else (MIR_NONE) */
    bool loop;
    bool content[2];     /* then / else arm (a loop: [0]) computes something */
    bool live[2];        /* an arm holds any instruction still there (a break) */
};

static void kill_range(struct mir_prog *p, unsigned from, unsigned to)
{
    for (unsigned j = from; j <= to; j++)
        p->ins[j].dead = true;
}

bool mir_drop_empty_flow(struct mir_prog *p, bool *changed)
{
    unsigned depth = 0, cap = 0;
    for (unsigned i = 0; i < p->n; i++)
        if (!p->ins[i].dead && (p->ins[i].op == ST_OP_IF || p->ins[i].op == ST_OP_IFC ||
                                p->ins[i].op == ST_OP_REP || p->ins[i].op == ST_OP_LOOP))
            cap++;
    if (!cap)
        return true;
    struct open *st = malloc(sizeof(*st) * cap);
    if (!st)
        return false;
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr *in = &p->ins[i];
        if (in->dead)
            continue;
        struct open *top = depth ? &st[depth - 1] : NULL;
        unsigned arm = top && top->els != MIR_NONE ? 1 : 0;
        switch (in->op) {
        case ST_OP_IF: case ST_OP_IFC: case ST_OP_REP: case ST_OP_LOOP:
            st[depth++] = (struct open){i, MIR_NONE, in->op == ST_OP_REP || in->op == ST_OP_LOOP,
                                        {false, false}, {false, false}};
            continue;
        case ST_OP_ELSE:
            if (top)
                top->els = i;
            continue;
        case ST_OP_BREAK: case ST_OP_BREAKC: case ST_OP_BREAKP:
            if (top)
                top->live[arm] = true;
            continue;
        case ST_OP_ENDIF: case ST_OP_ENDREP: case ST_OP_ENDLOOP: {
            if (!top)
                continue;
            struct open e = *top;
            depth--;
            bool content = e.content[0] || e.content[1];
            bool live = content || e.live[0] || e.live[1];
            if (e.loop ? !content : !live) {
                kill_range(p, e.at, i);
                *changed = true;
                continue;
            }
            if (!e.loop && e.els != MIR_NONE && !e.content[1] && !e.live[1]) {
                p->ins[e.els].dead = true;
                *changed = true;
            }
            if (depth) {
                struct open *up = &st[depth - 1];
                unsigned uarm = up->els != MIR_NONE ? 1 : 0;
                up->live[uarm] = true;
                if (content)
                    up->content[uarm] = true;
            }
            continue;
        }
        default:
            if (top) {
                top->content[arm] = true;
                top->live[arm] = true;
            }
            continue;
        }
    }
    free(st);
    return true;
}

/* ------------------------------------------------------------------ */
/* The same instruction at the start of both arms                      */

#define ARM_WINDOW 32 /* instructions of an arm's straight start looked at */

static bool same_src(const struct mir_src *a, const struct mir_src *b)
{
    return a->kind == b->kind && a->vreg == b->vreg && a->swz == b->swz && a->mod == b->mod &&
           a->file == b->file && a->index == b->index && a->rel == b->rel &&
           (!a->rel || (a->rel_vreg == b->rel_vreg && a->rel_lane == b->rel_lane));
}

static bool same_instr(const struct mir_instr *a, const struct mir_instr *b)
{
    if (a->op != b->op || a->nsrc != b->nsrc || a->sat != b->sat || a->shift != b->shift ||
        a->half != b->half ||
        a->cmp != b->cmp || a->predicated || b->predicated || !a->has_dst || !b->has_dst ||
        a->dst.kind != MIR_VREG || b->dst.kind != MIR_VREG || a->dst.vreg != b->dst.vreg ||
        a->dst.mask != b->dst.mask || a->op == MIR_OP_OPAQUE || a->op == MIR_OP_MERGE ||
        a->tex_stage != b->tex_stage || a->tex_dims != b->tex_dims ||
        a->tex_target != b->tex_target)
        return false;
    for (unsigned k = 0; k < a->nsrc; k++)
        if (!same_src(&a->src[k], &b->src[k]))
            return false;
    return memcmp(a->swz_sel, b->swz_sel, sizeof(a->swz_sel)) == 0 && a->swz_neg == b->swz_neg;
}

static bool reads_vreg(const struct mir_instr *in, uint32_t v)
{
    for (unsigned k = 0; k < in->nsrc; k++) {
        const struct mir_src *s = &in->src[k];
        if ((s->kind == MIR_VREG && s->vreg == v) || (s->kind == MIR_FIXED && s->rel && s->rel_vreg == v))
            return true;
    }
    if (in->predicated && in->pred.kind == MIR_VREG && in->pred.vreg == v)
        return true;
    if (in->has_dst && in->dst.kind == MIR_FIXED && in->dst.rel && in->dst.rel_vreg == v)
        return true;
    return in->predicated && in->has_dst && in->dst.kind == MIR_VREG && in->dst.vreg == v;
}

/* May x (pure, writing a vreg) move above instruction y? */
static bool commutes(const struct mir_instr *x, const struct mir_instr *y)
{
    if (y->dead)
        return true;
    if (mir_is_flow(y->op) || y->op == MIR_OP_OPAQUE)
        return false;
    uint32_t d = x->dst.vreg;
    if (reads_vreg(y, d) || (y->has_dst && y->dst.kind == MIR_VREG && y->dst.vreg == d))
        return false;
    if (y->has_dst && y->dst.kind == MIR_VREG && reads_vreg(x, y->dst.vreg))
        return false;
    return true;
}

/* Index of the first instruction of the arm starting at `from` that can
 * move to the arm's start and is the same as `want` (MIR_NONE: none). */
static unsigned find_movable(const struct mir_prog *p, unsigned from, unsigned end,
                             const struct mir_instr *want)
{
    unsigned seen = 0;
    for (unsigned j = from; j < end && seen < ARM_WINDOW; j++) {
        const struct mir_instr *x = &p->ins[j];
        if (x->dead)
            continue;
        if (mir_is_flow(x->op))
            return MIR_NONE;
        seen++;
        if (!same_instr(x, want))
            continue;
        bool ok = true;
        for (unsigned q = from; q < j && ok; q++)
            ok = commutes(x, &p->ins[q]);
        if (ok)
            return j;
    }
    return MIR_NONE;
}

/* Rebuilds the list with instruction j moved right before instruction
 * before[j] - 1 (before[j] = 0: stays), the moved ones in their order.
 * One pass: each target's movers are chained in a list first. */
static bool move_before(struct mir_prog *p, const unsigned *before)
{
    unsigned n = p->n;
    struct mir_instr *q = malloc(sizeof(*q) * (n ? n : 1));
    unsigned *head = malloc(sizeof(unsigned) * (n + 1)), *tail = malloc(sizeof(unsigned) * (n + 1));
    unsigned *next = malloc(sizeof(unsigned) * (n + 1));
    if (!q || !head || !tail || !next) {
        free(q);
        free(head);
        free(tail);
        free(next);
        return false;
    }
    for (unsigned i = 0; i < n; i++)
        head[i] = tail[i] = next[i] = MIR_NONE;
    for (unsigned j = 0; j < n; j++)
        if (before[j]) {
            unsigned t = before[j] - 1;
            if (head[t] == MIR_NONE)
                head[t] = j;
            else
                next[tail[t]] = j;
            tail[t] = j;
        }
    unsigned m = 0;
    for (unsigned i = 0; i < n; i++) {
        if (before[i])
            continue;
        for (unsigned j = head[i]; j != MIR_NONE; j = next[j])
            q[m++] = p->ins[j];
        q[m++] = p->ins[i];
    }
    free(p->ins);
    p->ins = q;
    p->n = m;
    p->cap = m ? m : 1;
    free(head);
    free(tail);
    free(next);
    return true;
}

bool mir_hoist_arms(struct mir_prog *p, unsigned *hoisted)
{
    /* matching else and endif of every if, by a stack */
    unsigned *els = malloc(sizeof(unsigned) * (p->n + 1)), *endif = malloc(sizeof(unsigned) * (p->n + 1));
    unsigned *stack = malloc(sizeof(unsigned) * (p->n + 1));
    unsigned *before = calloc(p->n + 1, sizeof(unsigned)); /* hoisted: the if it goes before, +1 */
    if (!els || !endif || !stack || !before) {
        free(els);
        free(endif);
        free(stack);
        free(before);
        return false;
    }
    unsigned depth = 0, count = 0;
    for (unsigned i = 0; i < p->n; i++) {
        els[i] = endif[i] = MIR_NONE;
        const struct mir_instr *in = &p->ins[i];
        if (in->dead)
            continue;
        if (in->op == ST_OP_IF || in->op == ST_OP_IFC || in->op == ST_OP_REP || in->op == ST_OP_LOOP)
            stack[depth++] = i;
        else if (in->op == ST_OP_ELSE && depth)
            els[stack[depth - 1]] = i;
        else if ((in->op == ST_OP_ENDIF || in->op == ST_OP_ENDREP || in->op == ST_OP_ENDLOOP) && depth)
            endif[stack[--depth]] = i;
    }
    for (unsigned i = 0; i < p->n; i++) {
        const struct mir_instr *iff = &p->ins[i];
        if (iff->dead || (iff->op != ST_OP_IF && iff->op != ST_OP_IFC) || els[i] == MIR_NONE ||
            endif[i] == MIR_NONE)
            continue;
        unsigned e = els[i], end = endif[i];
        for (unsigned j = i + 1, seen = 0; j < e && seen < ARM_WINDOW; j++) {
            struct mir_instr *x = &p->ins[j];
            if (x->dead)
                continue;
            if (mir_is_flow(x->op))
                break;
            seen++;
            if (!x->has_dst || x->dst.kind != MIR_VREG || x->predicated || x->op == MIR_OP_OPAQUE ||
                x->op == MIR_OP_MERGE || reads_vreg(iff, x->dst.vreg))
                continue;
            bool ok = true;
            for (unsigned q = i + 1; q < j && ok; q++)
                ok = commutes(x, &p->ins[q]);
            if (!ok)
                continue;
            unsigned k = find_movable(p, e + 1, end, x);
            if (k == MIR_NONE)
                continue;
            p->ins[k].dead = true;
            before[j] = i + 1; /* x goes before the if */
            count++;
        }
    }
    bool ok = !count || move_before(p, before);
    *hoisted = count;
    free(els);
    free(endif);
    free(stack);
    free(before);
    return ok;
}

/* ------------------------------------------------------------------ */
/* A copy of the else arm, before the if                               */

/* Is anything in p->ins[from..to) a write of vreg v? */
static bool written_in(const struct mir_prog *p, unsigned from, unsigned to, uint32_t v)
{
    for (unsigned j = from; j < to; j++)
        if (!p->ins[j].dead && p->ins[j].has_dst && p->ins[j].dst.kind == MIR_VREG &&
            p->ins[j].dst.vreg == v)
            return true;
    return false;
}

/*
 * "if c / A / else / mov D, X / B / endif" where X is the same before the
 * if as in the else arm and the then arm never reads D's old lanes (D is
 * not live where it starts): "mov D, X / if c / A / else / B / endif" is
 * the same program, and an else left empty goes.  The copies a phi puts
 * on the else edge of "mov r0, v2 / if / mov r0, c3 / endif" are the
 * typical case.  Arms with flow of their own are left alone.
 */
bool mir_hoist_else_copies(struct mir_prog *p, unsigned *moved)
{
    *moved = 0;
    struct mir_live lv;
    if (!mir_liveness(p, &lv, NULL, 0))
        return false;
    unsigned *before = calloc(p->n + 1, sizeof(unsigned));
    if (!before) {
        mir_live_free(&lv);
        return false;
    }
    unsigned count = 0;
    for (unsigned i = 0; i < p->n; i++) {
        const struct mir_instr *iff = &p->ins[i];
        if (iff->dead || (iff->op != ST_OP_IF && iff->op != ST_OP_IFC))
            continue;
        /* its else and endif, with no flow in either arm */
        unsigned e = MIR_NONE, end = MIR_NONE;
        for (unsigned j = i + 1; j < p->n && end == MIR_NONE; j++) {
            const struct mir_instr *x = &p->ins[j];
            if (x->dead || !mir_is_flow(x->op))
                continue;
            if (x->op == ST_OP_ELSE && e == MIR_NONE)
                e = j;
            else if (x->op == ST_OP_ENDIF)
                end = j;
            else
                break;
        }
        if (e == MIR_NONE || end == MIR_NONE)
            continue;
        unsigned then_block = lv.block_of[i + 1];
        for (unsigned j = e + 1, seen = 0; j < end && seen < ARM_WINDOW; j++) {
            struct mir_instr *x = &p->ins[j];
            if (x->dead)
                continue;
            seen++;
            if (x->op != ST_OP_MOV || x->predicated || !x->has_dst || x->dst.kind != MIR_VREG ||
                x->nsrc != 1 || reads_vreg(iff, x->dst.vreg) ||
                (mir_live_in(&lv, then_block, x->dst.vreg) & x->dst.mask))
                continue;
            const struct mir_src *s = &x->src[0];
            if ((s->kind == MIR_VREG && written_in(p, i + 1, end, s->vreg)) ||
                (s->kind == MIR_FIXED && s->rel && written_in(p, i + 1, end, s->rel_vreg)))
                continue;
            bool ok = true;
            for (unsigned q = e + 1; q < j && ok; q++)
                ok = commutes(x, &p->ins[q]);
            if (!ok)
                continue;
            before[j] = i + 1;
            count++;
        }
        i = end;
    }
    bool ok = !count || move_before(p, before);
    *moved = count;
    free(before);
    mir_live_free(&lv);
    return ok;
}
