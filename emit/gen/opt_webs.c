/*
 * gen/opt_webs.c — one vreg per web: the definitions of a vreg that never
 * reach a common use are given vregs of their own, so that a vreg written
 * several times (a texel variable rewritten by every sample, a register of
 * the source program written many times) becomes several values with one
 * definition each, which copy propagation and CSE can reason about, and
 * which the allocator sees as shorter live ranges.
 *
 * requires: a selected program before allocation
 * invalidates: def/use lists (operands renamed); no instruction is added or removed
 *
 * SSA construction on the structured program, with unions instead of phi
 * nodes: a linear walk keeps, per vreg, the web its current value belongs
 * to; a whole definition (unpredicated, every byte, every channel) starts
 * a new web, a partial or predicated one joins the current web (the other
 * lanes keep the old value); a use belongs to the current web.  Where
 * paths meet, the webs arriving are united: at ENDIF the then-end and
 * else-end values (or the value before the IF), at a loop's back edges
 * (CONT, WHILE) and exits (BREAK) the values inside the loop with the one
 * at its entry.  A value read before any definition belongs to the vreg's
 * "undefined" web.  This follows the per-channel view of the program (a
 * channel runs its own path; a masked write leaves other channels' lanes),
 * so vregs with a NoMask definition (written for channels that do not run
 * it), uniform vregs and message blocks keep their one vreg.
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

struct frame {
    uint8_t op;        /* GOP_IF, GOP_ELSE (an IF past its ELSE) or GOP_LABEL */
    uint32_t pos;      /* log position at the region start (IF: after it; ELSE: after it) */
    uint32_t then_pos; /* ELSE: where the then-end values are saved in `saved` */
    uint32_t then_n;
};

struct logent {
    uint32_t v, old;
};

struct webs {
    uint32_t *parent; /* union-find over web ids: definitions (instruction k) and undefined webs (ninst + v) */
    uint32_t *cur;    /* per vreg: current web; eligible vregs only */
    struct logent *log;
    uint32_t nlog, caplog;
    struct logent *saved; /* then-end values of open IFs (v, web) */
    uint32_t nsaved, capsaved;
    uint32_t *stamp; /* per vreg: the last visit that saw it (first log entry per vreg only) */
    uint32_t visit;
    bool oom; /* an allocation failed (then the program's oom flag) */
};

static uint32_t find(uint32_t *parent, uint32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static uint32_t unite(uint32_t *parent, uint32_t a, uint32_t b)
{
    a = find(parent, a);
    b = find(parent, b);
    if (a == b)
        return a;
    /* the smaller id wins: deterministic */
    if (b < a) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    parent[b] = a;
    return a;
}

static bool push_log(struct webs *W, uint32_t v, uint32_t old)
{
    if (W->nlog == W->caplog) {
        uint32_t nc = W->caplog ? 2 * W->caplog : 256;
        struct logent *n = realloc(W->log, nc * sizeof(*n));
        if (!n) {
            W->oom = true;
            return false;
        }
        W->log = n;
        W->caplog = nc;
    }
    W->log[W->nlog++] = (struct logent){v, old};
    return true;
}

static bool set_cur(struct webs *W, uint32_t v, uint32_t web)
{
    if (W->cur[v] == web)
        return true;
    if (!push_log(W, v, W->cur[v]))
        return false;
    W->cur[v] = web;
    return true;
}

/* Back edge or exit of a loop opened at log position pos: every value
 * changed inside meets the value at the loop's entry. */
static bool loop_edge(struct webs *W, uint32_t pos)
{
    uint32_t end = W->nlog, visit = ++W->visit;
    for (uint32_t e = pos; e < end; e++) {
        uint32_t v = W->log[e].v;
        if (W->stamp[v] == visit)
            continue;
        W->stamp[v] = visit; /* the first entry after pos holds v's value at pos */
        uint32_t r = unite(W->parent, W->cur[v], W->log[e].old);
        if (!set_cur(W, v, r))
            return false;
    }
    return true;
}

static bool whole_def(const struct gen_program *p, const struct gen_inst *i)
{
    return i->pred == GP_NONE && i->dst.off == 0 && i->exec == p->simd && i->group == 0 &&
           !gen_op_info[i->op].send && (i->dst.type == GT_F || i->dst.type == GT_D || i->dst.type == GT_UD);
}

/* ELSE of the frame f: the then-end values are saved, the values before
 * the IF restored.  False when memory ran out. */
static bool at_else(struct webs *W, struct frame *f)
{
    f->then_pos = W->nsaved;
    uint32_t visit = ++W->visit;
    for (uint32_t e = f->pos; e < W->nlog; e++) {
        uint32_t v = W->log[e].v;
        if (W->stamp[v] == visit)
            continue;
        W->stamp[v] = visit;
        if (W->nsaved == W->capsaved) {
            uint32_t nc = W->capsaved ? 2 * W->capsaved : 256;
            struct logent *ns = realloc(W->saved, nc * sizeof(*ns));
            if (!ns) {
                W->oom = true;
                return false;
            }
            W->saved = ns;
            W->capsaved = nc;
        }
        W->saved[W->nsaved++] = (struct logent){v, W->cur[v]};
    }
    f->then_n = W->nsaved - f->then_pos;
    while (W->nlog > f->pos) {
        W->nlog--;
        W->cur[W->log[W->nlog].v] = W->log[W->nlog].old;
    }
    f->op = GOP_ELSE;
    f->pos = W->nlog;
    return true;
}

/* ENDIF of the frame f (popped): the values of the two arms meet. */
static bool at_endif(struct webs *W, const struct frame *f)
{
    uint32_t end = W->nlog, visit = ++W->visit;
    bool ok = true;
    if (f->op == GOP_ELSE) {
        /* then-end values meet the else-end values (the entry values
         * when the else part left them alone) */
        for (uint32_t e = f->then_pos; e < f->then_pos + f->then_n && ok; e++) {
            uint32_t v = W->saved[e].v;
            if (W->stamp[v] == visit)
                continue;
            W->stamp[v] = visit;
            ok = set_cur(W, v, unite(W->parent, W->saved[e].old, W->cur[v]));
        }
        W->nsaved = f->then_pos;
    }
    /* values changed only in the last part meet the values before it */
    for (uint32_t e = f->pos; e < end && ok; e++) {
        uint32_t v = W->log[e].v;
        if (W->stamp[v] == visit)
            continue;
        W->stamp[v] = visit;
        ok = set_cur(W, v, unite(W->parent, W->log[e].old, W->cur[v]));
    }
    return ok;
}

/* Divergent dword vregs with two or more definitions, none NoMask nor a
 * message's: elig[v]; how many.  (Out of memory: p->oom, 0.) */
static unsigned eligible(struct gen_program *p, bool *elig)
{
    unsigned n = p->ninst, nv = p->nvreg;
    uint32_t *ndefs = calloc(nv, sizeof(*ndefs));
    if (!ndefs) {
        p->oom = true;
        return 0;
    }
    for (unsigned v = 0; v < nv; v++) {
        const struct gen_vreg *r = &p->vreg[v];
        elig[v] = !r->uniform && !r->no_spill && r->size == gen_dsize(p) && r->spill_slot < 0;
    }
    for (unsigned k = 0; k < n; k++) {
        const struct gen_inst *i = &p->inst[k];
        if (i->dst.kind != GO_VREG)
            continue;
        ndefs[i->dst.vreg]++;
        if (i->nomask || gen_op_info[i->op].send)
            elig[i->dst.vreg] = false;
    }
    unsigned nelig = 0;
    for (unsigned v = 0; v < nv; v++) {
        if (ndefs[v] < 2)
            elig[v] = false;
        nelig += elig[v];
    }
    free(ndefs);
    return nelig;
}

/* One vreg per web: the first web met in program order keeps the old
 * vreg, every other web gets a new one.  True when anything changed.
 * (Out of memory: p->oom.) */
static bool rename_webs(struct gen_program *p, const struct webs *W, const uint32_t *use_web,
                        const bool *elig, unsigned n, unsigned nv)
{
    bool changed = false;
    uint32_t *newv = malloc((n + nv) * sizeof(*newv));
    bool *kept = calloc(nv, sizeof(*kept));
    if (!newv || !kept) {
        free(newv);
        free(kept);
        p->oom = true;
        return false;
    }
    for (uint32_t x = 0; x < n + nv; x++)
        newv[x] = UINT32_MAX;
    for (unsigned k = 0; k < n && !p->oom; k++) {
        struct gen_inst *i = &p->inst[k];
        uint32_t webs_here[4], vregs_here[4];
        unsigned nh = 0;
        for (unsigned s = 0; s < 3; s++)
            if (use_web[3 * k + s] != UINT32_MAX) {
                vregs_here[nh] = i->src[s].vreg;
                webs_here[nh++] = find(W->parent, use_web[3 * k + s]);
            }
        if (i->dst.kind == GO_VREG && elig[i->dst.vreg]) {
            vregs_here[nh] = i->dst.vreg;
            webs_here[nh++] = find(W->parent, k);
        }
        for (unsigned h = 0; h < nh; h++) {
            uint32_t r = webs_here[h], v = vregs_here[h];
            if (newv[r] != UINT32_MAX)
                continue;
            if (!kept[v]) {
                kept[v] = true;
                newv[r] = v;
            } else {
                uint32_t nvv = gen_new_vreg(p, p->vreg[v].size, false);
                if (p->oom)
                    break;
                newv[r] = nvv;
                changed = true;
            }
        }
        if (p->oom)
            break;
        for (unsigned s = 0; s < 3; s++)
            if (use_web[3 * k + s] != UINT32_MAX)
                i->src[s].vreg = newv[find(W->parent, use_web[3 * k + s])];
        if (i->dst.kind == GO_VREG && i->dst.vreg < nv && elig[i->dst.vreg])
            i->dst.vreg = newv[find(W->parent, k)];
    }
    free(kept);
    free(newv);
    return changed;
}

bool gen_opt_webs(struct gen_program *p)
{
    unsigned n = p->ninst, nv = p->nvreg;
    if (!n || !nv)
        return false;
    bool *elig = calloc(nv, sizeof(*elig));
    if (!elig) {
        p->oom = true;
        return false;
    }
    if (!eligible(p, elig)) {
        free(elig);
        return false;
    }
    struct webs W;
    memset(&W, 0, sizeof(W));
    W.parent = malloc((n + nv) * sizeof(*W.parent));
    W.cur = malloc(nv * sizeof(*W.cur));
    W.stamp = calloc(nv, sizeof(*W.stamp));
    uint32_t *use_web = malloc((size_t)n * 3 * sizeof(*use_web));
    struct frame *fr = malloc((n + 1) * sizeof(*fr));
    bool ok = W.parent && W.cur && W.stamp && use_web && fr;
    W.oom = !ok;
    unsigned sp = 0;
    if (ok) {
        for (uint32_t x = 0; x < n + nv; x++)
            W.parent[x] = x;
        for (uint32_t v = 0; v < nv; v++)
            W.cur[v] = n + v; /* undefined */
    }
    for (unsigned k = 0; ok && k < n; k++) {
        const struct gen_inst *i = &p->inst[k];
        for (unsigned s = 0; s < 3; s++) {
            use_web[3 * k + s] = UINT32_MAX;
            if (i->src[s].kind == GO_VREG && elig[i->src[s].vreg])
                use_web[3 * k + s] = W.cur[i->src[s].vreg];
        }
        switch (i->op) {
        case GOP_IF:
            fr[sp++] = (struct frame){GOP_IF, W.nlog, 0, 0};
            continue;
        case GOP_ELSE:
            if (!sp || fr[sp - 1].op != GOP_IF) {
                ok = false;
                break;
            }
            ok = at_else(&W, &fr[sp - 1]);
            continue;
        case GOP_ENDIF:
            if (!sp || (fr[sp - 1].op != GOP_IF && fr[sp - 1].op != GOP_ELSE)) {
                ok = false;
                break;
            }
            ok = at_endif(&W, &fr[--sp]);
            continue;
        case GOP_LABEL:
            fr[sp++] = (struct frame){GOP_LABEL, W.nlog, 0, 0};
            continue;
        case GOP_BREAK:
        case GOP_CONT:
        case GOP_WHILE: {
            int32_t L = -1;
            for (unsigned q = sp; q-- > 0;)
                if (fr[q].op == GOP_LABEL) {
                    L = (int32_t)q;
                    break;
                }
            if (L < 0) {
                ok = false;
                break;
            }
            ok = loop_edge(&W, fr[L].pos);
            if (i->op == GOP_WHILE) {
                if ((unsigned)L != sp - 1)
                    ok = false;
                sp--;
            }
            continue;
        }
        default:
            break;
        }
        if (!ok)
            break;
        if (i->dst.kind == GO_VREG && elig[i->dst.vreg]) {
            uint32_t v = i->dst.vreg;
            if (whole_def(p, i))
                ok = set_cur(&W, v, k);
            else
                ok = set_cur(&W, v, unite(W.parent, k, W.cur[v]));
        }
    }
    if (sp)
        ok = false;
    if (W.oom)
        p->oom = true; /* (the caller reports it) */
    bool changed = ok && rename_webs(p, &W, use_web, elig, n, nv);
    free(W.parent);
    free(W.cur);
    free(W.log);
    free(W.saved);
    free(W.stamp);
    free(use_web);
    free(fr);
    free(elig);
    return changed;
}
