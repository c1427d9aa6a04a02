/*
 * budget.c — the run budget of st_run, one rule for every engine.
 *
 * Before any engine starts, the most instructions one invocation can
 * execute is worked out from the program and the integer constants of the
 * inputs (which every invocation shares): each loop runs the count its i#
 * gives (clamped to 0..255 as the interpreter does), each if takes its
 * longer side, each call costs the subroutine, breaks are ignored.  That
 * is an upper bound of what the interpreter counts as steps (one per
 * instruction dispatched, docs/limits.md), independent of how an engine
 * executes: the JIT and the Gen simulator are held to the same number, so
 * a run that could exceed its budget is refused identically by all three
 * before any of them spends time on it.
 *
 * The walk is linear in the program: one pass to find the subroutines and
 * whom they call, one iterative depth-first order of the call graph, one
 * pass per subroutine (each instruction belongs to one).  No recursion.
 */
#include <stdlib.h>
#include <string.h>

#include "translator.h"

enum { MAX_LABELS = 2048 };

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* One open block of the walk. */
struct frame {
    bool loop;           /* loop/rep, else if/ifc */
    bool has_else;
    uint64_t count;      /* loop: the iteration count */
    uint64_t acc;        /* the cost of the block's body so far */
    uint64_t then_cost;  /* if with else: the cost of the true side (with the else) */
    struct st_loc loc;
};

struct walk {
    const struct st_instr **code;
    unsigned n;
    int *label_at;       /* instruction index of label l#, -1: none */
    uint64_t *cost;      /* per label: the cost of a call */
    const struct st_run_inputs *in;
    struct frame *stack; /* deep enough for every open block (n entries) */
};

static uint64_t loop_count(const struct st_run_inputs *in, const struct st_instr *i)
{
    const struct st_src *is = &i->src[i->op == ST_OP_LOOP ? 1 : 0];
    int32_t x = 0;
    if (is->reg.file == ST_REG_CONSTINT && is->reg.index < ST_RUN_NUM_ICONSTS)
        x = in->i[is->reg.index][0];
    return x < 0 ? 0 : x > 255 ? 255 : (uint64_t)x;
}

static int call_target(const struct walk *w, const struct st_instr *i)
{
    if (i->op != ST_OP_CALL && i->op != ST_OP_CALLNZ)
        return -1;
    uint32_t l = i->src[0].reg.index;
    return l < MAX_LABELS && w->label_at[l] >= 0 ? (int)l : -1;
}

/* Where the function starting at `start` ends: after its top-level ret, or
 * in front of the next label (falling into a label returns). */
static bool ends_function(const struct st_instr *i, unsigned depth)
{
    return (i->op == ST_OP_RET && depth == 0) || i->op == ST_OP_LABEL;
}

/*
 * The cost of the function whose first instruction is code[start] (every
 * callee's cost already known).  *hot gets the location of the top-level
 * loop or call that costs the most (unchanged when there is none).
 */
static uint64_t function_cost(struct walk *w, unsigned start, struct st_loc *hot)
{
    unsigned sp = 0;
    uint64_t top = 0, hottest = 0;
    for (unsigned pc = start; pc < w->n; pc++) {
        const struct st_instr *i = w->code[pc];
        uint64_t *acc = sp ? &w->stack[sp - 1].acc : &top;
        if (i->op == ST_OP_LABEL && pc > start) {
            *acc = sat_add(*acc, 1); /* the label is dispatched, then returns */
            break;
        }
        switch (i->op) {
        case ST_OP_LOOP:
        case ST_OP_REP:
            *acc = sat_add(*acc, 1);
            w->stack[sp++] = (struct frame){.loop = true, .count = loop_count(w->in, i), .loc = i->loc};
            continue;
        case ST_OP_IF:
        case ST_OP_IFC:
            *acc = sat_add(*acc, 1);
            w->stack[sp++] = (struct frame){.loop = false, .loc = i->loc};
            continue;
        case ST_OP_ELSE:
            if (sp && !w->stack[sp - 1].loop && !w->stack[sp - 1].has_else) {
                struct frame *f = &w->stack[sp - 1];
                f->has_else = true;
                f->then_cost = sat_add(f->acc, 1); /* the else is dispatched */
                f->acc = 0;
            } else {
                *acc = sat_add(*acc, 1);
            }
            continue;
        case ST_OP_ENDIF:
        case ST_OP_ENDLOOP:
        case ST_OP_ENDREP: {
            if (!sp) {
                top = sat_add(top, 1);
                continue;
            }
            struct frame f = w->stack[--sp];
            uint64_t c;
            if (f.loop) {
                c = f.count ? sat_mul(f.count, sat_add(f.acc, 1)) : 0;
            } else {
                uint64_t other = sat_add(f.acc, 1); /* the last side and the endif */
                c = f.has_else && f.then_cost > other ? f.then_cost : other;
            }
            uint64_t *to = sp ? &w->stack[sp - 1].acc : &top;
            *to = sat_add(*to, c);
            if (!sp && f.loop && c >= hottest) {
                hottest = c;
                *hot = f.loc;
            }
            continue;
        }
        default:
            break;
        }
        uint64_t c = 1;
        int l = call_target(w, i);
        if (l >= 0)
            c = sat_add(c, w->cost[l]);
        *acc = sat_add(*acc, c);
        if (l >= 0 && !sp && c >= hottest) {
            hottest = c;
            *hot = i->loc;
        }
        if (ends_function(i, sp))
            break;
    }
    /* Blocks left open (a checked shader has none) count as their bodies. */
    while (sp) {
        struct frame f = w->stack[--sp];
        uint64_t c = f.loop ? sat_mul(f.count ? f.count : 1, sat_add(f.acc, 1))
                            : sat_add(f.acc, f.then_cost);
        uint64_t *to = sp ? &w->stack[sp - 1].acc : &top;
        *to = sat_add(*to, c);
    }
    return top;
}

uint64_t st_run_worst_case(const struct st_shader *sh, const struct st_run_inputs *in,
                           struct st_loc *hot, bool *oom)
{
    *hot = sh->version.loc;
    *oom = false;
    struct walk w = {.in = in};
    for (const struct st_instr *i = sh->first; i; i = i->next)
        w.n++;
    if (sh->dialect == ST_ARB || w.n == 0)
        return w.n; /* ARB programs have no flow control */
    w.code = malloc(w.n * sizeof(*w.code));
    w.stack = malloc(w.n * sizeof(*w.stack));
    w.label_at = malloc(MAX_LABELS * sizeof(*w.label_at));
    w.cost = calloc(MAX_LABELS, sizeof(*w.cost));
    /* The call graph as one array: the calls made between label l and the
     * next label are edge[first[l] .. first[l + 1]). */
    unsigned *first = calloc(MAX_LABELS + 1, sizeof(*first));
    int *edge = malloc(w.n * sizeof(*edge));
    /* its depth-first walk: label, index of the next edge to follow */
    unsigned *dfs = malloc(MAX_LABELS * 2 * sizeof(*dfs));
    unsigned char *state = calloc(MAX_LABELS, 1); /* 0 new, 1 open, 2 done */
    uint64_t total = UINT64_MAX;
    if (!w.code || !w.stack || !w.label_at || !w.cost || !first || !edge || !dfs || !state) {
        *oom = true;
        goto out;
    }
    unsigned k = 0;
    for (const struct st_instr *i = sh->first; i; i = i->next)
        w.code[k++] = i;
    for (unsigned l = 0; l < MAX_LABELS; l++)
        w.label_at[l] = -1;
    for (unsigned pc = 0; pc < w.n; pc++) {
        const struct st_instr *i = w.code[pc];
        if (i->op == ST_OP_LABEL && i->nsrc > 0 && i->src[0].reg.index < MAX_LABELS &&
            w.label_at[i->src[0].reg.index] < 0)
            w.label_at[i->src[0].reg.index] = (int)pc;
    }
    /* Which label's code each call is in (the first label before it; a
     * label seen again later is code of no subroutine, and unreachable
     * code only adds edges, never cost). */
    for (int pass = 0; pass < 2; pass++) {
        int owner = -1;
        for (unsigned pc = 0; pc < w.n; pc++) {
            const struct st_instr *i = w.code[pc];
            if (i->op == ST_OP_LABEL)
                owner = i->nsrc > 0 && i->src[0].reg.index < MAX_LABELS &&
                                w.label_at[i->src[0].reg.index] == (int)pc
                            ? (int)i->src[0].reg.index
                            : -1;
            int l = call_target(&w, i);
            if (owner < 0 || l < 0)
                continue;
            if (pass == 0)
                first[owner + 1]++;
            else
                edge[first[owner]++] = l;
        }
        if (pass == 0) {
            for (unsigned l = 0; l < MAX_LABELS; l++)
                first[l + 1] += first[l];
        } else {
            /* the fill advanced first[l] to where l + 1 starts: shift back */
            for (unsigned l = MAX_LABELS; l > 0; l--)
                first[l] = first[l - 1];
            first[0] = 0;
        }
    }
    /* Every subroutine's cost, callees first.  A call back into an open
     * subroutine (recursion, which the checker refuses) adds nothing. */
    struct st_loc unused;
    for (unsigned root = 0; root < MAX_LABELS; root++) {
        if (w.label_at[root] < 0 || state[root])
            continue;
        unsigned sp = 0;
        dfs[0] = root;
        dfs[1] = first[root];
        sp = 1;
        state[root] = 1;
        while (sp) {
            unsigned l = dfs[(sp - 1) * 2], e = dfs[(sp - 1) * 2 + 1];
            while (e < first[l + 1] && state[edge[e]])
                e++;
            if (e < first[l + 1]) {
                unsigned c = (unsigned)edge[e];
                dfs[(sp - 1) * 2 + 1] = e + 1;
                dfs[sp * 2] = c;
                dfs[sp * 2 + 1] = first[c];
                sp++;
                state[c] = 1;
                continue;
            }
            w.cost[l] = function_cost(&w, (unsigned)w.label_at[l] + 1, &unused);
            state[l] = 2;
            sp--;
        }
    }
    total = function_cost(&w, 0, hot);
out:
    free(w.code);
    free(w.stack);
    free(w.label_at);
    free(w.cost);
    free(first);
    free(edge);
    free(dfs);
    free(state);
    return total;
}

bool st_run_budget_check(struct st_ctx *ctx, const struct st_shader *sh,
                         const struct st_run_inputs *in)
{
    struct st_loc hot;
    bool oom;
    uint64_t per = st_run_worst_case(sh, in, &hot, &oom);
    if (oom) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    const struct st_limits *l = st_ctx_limits(ctx);
    uint64_t budget = l ? l->max_run : 0;
    if (!budget) {
        if (per <= ST_RUN_DEFAULT_BUDGET)
            return true;
        st_error(ctx, hot, ST_E_RUN_BUDGET,
                 "an invocation could execute %llu instructions, more than the default run "
                 "budget of %llu per invocation",
                 (unsigned long long)per, (unsigned long long)ST_RUN_DEFAULT_BUDGET);
        return false;
    }
    uint64_t total = sat_mul(per, in->num_invocations);
    if (total <= budget)
        return true;
    st_error(ctx, hot, ST_E_RUN_BUDGET,
             "%u invocations could execute %llu instructions (%llu each), more than the run "
             "budget of %llu",
             in->num_invocations, (unsigned long long)total, (unsigned long long)per,
             (unsigned long long)budget);
    return false;
}
