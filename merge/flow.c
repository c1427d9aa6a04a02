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
 */
#include <stdlib.h>

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
