/* requires: st_main after the passes of passes/pipeline.c (reducible, at most two successors a block).
 * invalidates: nothing (an analysis of the LLVM function). */
/*
 * cfg.c — the control structure of st_main (cfg.h says what and why).
 *
 * Everything is near linear in the blocks: reverse postorder by an
 * iterative depth-first search, dominators and post-dominators by the
 * Cooper-Harvey-Kennedy intersection over postorder numbers, loops from
 * the back edges.  Nothing recurses.
 */
#include <stdlib.h>
#include <string.h>

#include "cfg.h"

static size_t bhash(const void *p, unsigned cap)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 17;
    x *= (uintptr_t)0x9e3779b97f4a7c15ull;
    return (size_t)(x >> 7) & (cap - 1);
}

int mcfg_index(const struct mcfg *g, LLVMBasicBlockRef b)
{
    if (!g->hcap || !b)
        return -1;
    for (size_t i = bhash(b, g->hcap);; i = (i + 1) & (g->hcap - 1)) {
        if (!g->hkey[i])
            return -1;
        if (g->hkey[i] == b)
            return (int)g->hval[i];
    }
}

static bool hhas(const struct mcfg *g, LLVMBasicBlockRef b)
{
    for (size_t i = bhash(b, g->hcap);; i = (i + 1) & (g->hcap - 1)) {
        if (!g->hkey[i])
            return false;
        if (g->hkey[i] == b)
            return true;
    }
}

static void hput(struct mcfg *g, LLVMBasicBlockRef b, unsigned v)
{
    for (size_t i = bhash(b, g->hcap);; i = (i + 1) & (g->hcap - 1))
        if (!g->hkey[i] || g->hkey[i] == b) {
            g->hkey[i] = b;
            g->hval[i] = v;
            return;
        }
}

void mcfg_free(struct mcfg *g)
{
    free(g->bb);
    free(g->succ);
    free(g->nsucc);
    free(g->idom);
    free(g->ipdom);
    free(g->header_of);
    free(g->loop_of);
    free(g->loops);
    free(g->hkey);
    free(g->hval);
    memset(g, 0, sizeof(*g));
}

static unsigned raw_succ(LLVMBasicBlockRef b, LLVMBasicBlockRef out[2], bool *too_many)
{
    LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
    if (!t)
        return 0;
    unsigned n = LLVMGetNumSuccessors(t);
    if (n > 2)
        *too_many = true;
    for (unsigned k = 0; k < n && k < 2; k++)
        out[k] = LLVMGetSuccessor(t, k);
    return n > 2 ? 2 : n;
}

/*
 * Pre- and postorder numbers of the dominator tree (idom[0] = 0 is the
 * root): a dominates b when pre[a] <= pre[b] and post[b] <= post[a].  One
 * iterative DFS over a child list built from idom[].
 */
static bool dom_intervals(const int *idom, unsigned n, unsigned *pre, unsigned *post)
{
    unsigned *cstart = calloc(n + 2, sizeof(unsigned)), *clist = malloc(sizeof(unsigned) * (n + 1));
    unsigned *stack = malloc(sizeof(unsigned) * (n + 1)), *next = malloc(sizeof(unsigned) * (n + 1));
    if (!cstart || !clist || !stack || !next) {
        free(cstart);
        free(clist);
        free(stack);
        free(next);
        return false;
    }
    for (unsigned i = 1; i < n; i++)
        if (idom[i] >= 0)
            cstart[idom[i] + 1]++;
    for (unsigned i = 0; i < n; i++)
        cstart[i + 1] += cstart[i];
    for (unsigned i = 0; i <= n; i++)
        next[i] = cstart[i];
    for (unsigned i = 1; i < n; i++)
        if (idom[i] >= 0)
            clist[next[idom[i]]++] = i;
    for (unsigned i = 0; i < n; i++) {
        pre[i] = UINT32_MAX; /* not in the tree: dominated by nothing */
        post[i] = 0;
    }
    unsigned sp = 0, t = 0;
    stack[sp++] = 0;
    next[0] = cstart[0];
    pre[0] = t++;
    while (sp) {
        unsigned b = stack[sp - 1];
        if (next[b] < cstart[b + 1]) {
            unsigned c = clist[next[b]++];
            pre[c] = t++;
            next[c] = cstart[c];
            stack[sp++] = c;
        } else {
            post[b] = t++;
            sp--;
        }
    }
    free(cstart);
    free(clist);
    free(stack);
    free(next);
    return true;
}

/* Intersection of two nodes' chains; order[] grows toward the root. */
static int meet(const int *up, const int *order, int a, int b)
{
    while (a != b) {
        while (order[a] < order[b])
            a = up[a];
        while (order[b] < order[a])
            b = up[b];
    }
    return a;
}

/* Predecessor lists (CSR): the predecessors of b are plist[pstart[b] ..
 * pstart[b + 1]). */
struct preds {
    unsigned *pstart, *plist;
};

/* The blocks reachable from the entry in reverse postorder (an iterative
 * DFS), their successors and the block -> index hash. */
static bool order_blocks(struct mcfg *g, LLVMValueRef fn, const char **why)
{
    unsigned total = LLVMCountBasicBlocks(fn);
    if (!total) {
        *why = "a function without blocks";
        return false;
    }
    bool ok = false, too_many = false;
    LLVMBasicBlockRef *all = malloc(sizeof(*all) * total);
    LLVMBasicBlockRef *post = malloc(sizeof(*post) * total);
    struct dfs { LLVMBasicBlockRef b; unsigned k; } *st = malloc(sizeof(*st) * (total + 1));
    g->hcap = 16;
    while (g->hcap < total * 2)
        g->hcap *= 2;
    g->hkey = calloc(g->hcap, sizeof(*g->hkey));
    g->hval = calloc(g->hcap, sizeof(*g->hval));
    if (!all || !post || !st || !g->hkey || !g->hval)
        goto done;
    LLVMGetBasicBlocks(fn, all);
    /* visited marks in the hash, value UINT32_MAX until numbered */
    unsigned npost = 0, sp = 0;
    st[sp++] = (struct dfs){all[0], 0};
    hput(g, all[0], UINT32_MAX);
    while (sp) {
        struct dfs *f = &st[sp - 1];
        LLVMBasicBlockRef s[2];
        unsigned ns = raw_succ(f->b, s, &too_many);
        if (f->k < ns) {
            LLVMBasicBlockRef t = s[f->k++];
            if (!hhas(g, t)) {
                hput(g, t, UINT32_MAX);
                st[sp++] = (struct dfs){t, 0};
            }
            continue;
        }
        post[npost++] = f->b;
        sp--;
    }
    if (too_many) {
        *why = "a branch with more than two targets";
        goto done;
    }
    unsigned n = g->n = npost;
    g->bb = malloc(sizeof(*g->bb) * n);
    g->succ = malloc(sizeof(*g->succ) * n);
    g->nsucc = calloc(n, 1);
    g->idom = malloc(sizeof(int) * n);
    g->ipdom = malloc(sizeof(int) * n);
    g->header_of = malloc(sizeof(int) * n);
    g->loop_of = malloc(sizeof(int) * n);
    g->loops = malloc(sizeof(*g->loops) * (n + 1));
    if (!g->bb || !g->succ || !g->nsucc || !g->idom || !g->ipdom || !g->header_of ||
        !g->loop_of || !g->loops)
        goto done;
    for (unsigned i = 0; i < n; i++) {
        g->bb[i] = post[n - 1 - i];
        hput(g, g->bb[i], i);
    }
    for (unsigned i = 0; i < n; i++) {
        LLVMBasicBlockRef s[2];
        unsigned ns = raw_succ(g->bb[i], s, &too_many);
        for (unsigned k = 0; k < ns; k++)
            g->succ[i][g->nsucc[i]++] = (unsigned)mcfg_index(g, s[k]);
        g->header_of[i] = -1;
        g->loop_of[i] = -1;
    }
    ok = true;
done:
    free(all);
    free(post);
    free(st);
    return ok;
}

static bool build_preds(const struct mcfg *g, struct preds *P)
{
    unsigned n = g->n, nedges = 0;
    for (unsigned i = 0; i < n; i++)
        nedges += g->nsucc[i];
    unsigned *count = calloc(n + 1, sizeof(unsigned));
    P->pstart = malloc(sizeof(unsigned) * (n + 1));
    P->plist = malloc(sizeof(unsigned) * (nedges + 1));
    if (!count || !P->pstart || !P->plist) {
        free(count);
        return false;
    }
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < g->nsucc[i]; k++)
            count[g->succ[i][k]]++;
    P->pstart[0] = 0;
    for (unsigned i = 0; i < n; i++)
        P->pstart[i + 1] = P->pstart[i] + count[i];
    memset(count, 0, sizeof(unsigned) * (n + 1));
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < g->nsucc[i]; k++) {
            unsigned t = g->succ[i][k];
            P->plist[P->pstart[t] + count[t]++] = i;
        }
    free(count);
    return true;
}

/* Dominators: in reverse postorder a dominator has a smaller index, so
 * order[] = -index grows toward the root. */
static bool dominators(struct mcfg *g, const struct preds *P)
{
    unsigned n = g->n;
    int *order = malloc(sizeof(int) * (n + 1));
    if (!order)
        return false;
    for (unsigned i = 0; i < n; i++) {
        g->idom[i] = -1;
        order[i] = -(int)i;
    }
    g->idom[0] = 0;
    for (bool changed = true; changed;) {
        changed = false;
        for (unsigned i = 1; i < n; i++) {
            int nd = -1;
            for (unsigned k = P->pstart[i]; k < P->pstart[i + 1]; k++) {
                int p = (int)P->plist[k];
                if (g->idom[p] < 0)
                    continue;
                nd = nd < 0 ? p : meet(g->idom, order, nd, p);
            }
            if (nd != g->idom[i]) {
                g->idom[i] = nd;
                changed = true;
            }
        }
    }
    free(order);
    return true;
}

/*
 * Loops: a back edge u -> h has h dominating u.  Dominance is read from the
 * dominator tree's DFS interval numbers (constant time; a walk up the idom
 * chain would be as long as the program).  The natural loop (what reaches
 * the latch without passing h) leaves out the arms that only break; the
 * structured loop is everything reachable from the header's body
 * successor without passing h or the exit.  The exit is the header's
 * successor from which the latch cannot be reached.
 */
static bool find_loops(struct mcfg *g, const struct preds *P, const char **why, bool *oom)
{
    unsigned n = g->n, nl = 0, stamp = 0;
    unsigned *work = malloc(sizeof(unsigned) * (n + 1));
    unsigned *inl = calloc(n, sizeof(unsigned)); /* marks: a stamp per loop and walk */
    unsigned *pre = malloc(sizeof(unsigned) * (n + 1)), *postn = malloc(sizeof(unsigned) * (n + 1));
    unsigned *members = malloc(sizeof(unsigned) * (n + 1));
    bool ok = work && inl && pre && postn && members && dom_intervals(g->idom, n, pre, postn);
    if (!ok)
        *oom = true;
    for (unsigned h = 0; h < n && ok; h++) {
        int latch = -1, entry = -1;
        for (unsigned k = P->pstart[h]; k < P->pstart[h + 1]; k++) {
            unsigned u = P->plist[k];
            if (pre[u] == UINT32_MAX || !(pre[h] <= pre[u] && postn[u] <= postn[h])) {
                entry = (int)u; /* h does not dominate u: a forward edge */
                continue;
            }
            if (latch >= 0 && latch != (int)u) {
                *why = "a loop with two back edges";
                ok = false;
            }
            latch = (int)u;
        }
        if (latch < 0 || !ok)
            continue;
        struct mloop *L = &g->loops[nl];
        L->header = h;
        L->latch = (unsigned)latch;
        L->entry = entry;
        L->parent = -1;
        g->header_of[h] = (int)nl;
        unsigned mark = ++stamp;
        inl[h] = mark;
        unsigned wn = 0;
        if (inl[latch] != mark) {
            inl[latch] = mark;
            work[wn++] = (unsigned)latch;
        }
        while (wn) {
            unsigned b = work[--wn];
            for (unsigned k = P->pstart[b]; k < P->pstart[b + 1]; k++)
                if (inl[P->plist[k]] != mark) {
                    inl[P->plist[k]] = mark;
                    work[wn++] = P->plist[k];
                }
        }
        int hexit = -1, hbody = -1;
        for (unsigned k = 0; k < g->nsucc[h]; k++) {
            unsigned s = g->succ[h][k];
            if (inl[s] == mark && s != h)
                hbody = (int)s;
            else
                hexit = (int)s;
        }
        if (hexit < 0 || hbody < 0) {
            *why = "a loop whose header does not test its count";
            ok = false;
            break;
        }
        /* the structured loop's blocks, listed as they are marked */
        mark = ++stamp;
        unsigned nm = 0;
        inl[h] = mark;
        members[nm++] = h;
        inl[hbody] = mark;
        members[nm++] = (unsigned)hbody;
        wn = 0;
        work[wn++] = (unsigned)hbody;
        while (wn) {
            unsigned b = work[--wn];
            for (unsigned k = 0; k < g->nsucc[b]; k++) {
                unsigned s = g->succ[b][k];
                if (inl[s] != mark && (int)s != hexit) {
                    inl[s] = mark;
                    members[nm++] = s;
                    work[wn++] = s;
                }
            }
        }
        /* headers are visited in reverse postorder, so an enclosing loop
         * was numbered before: the innermost one wins */
        for (unsigned m = 0; m < nm; m++) {
            unsigned b = members[m];
            if (g->loop_of[b] >= 0 && g->loop_of[b] != (int)nl && L->parent < 0 &&
                (unsigned)g->loop_of[b] < nl)
                L->parent = g->loop_of[b];
            g->loop_of[b] = (int)nl;
        }
        for (unsigned m = 0; m < nm && ok; m++) {
            LLVMValueRef t = LLVMGetBasicBlockTerminator(g->bb[members[m]]);
            if (t && LLVMGetInstructionOpcode(t) == LLVMRet) {
                *why = "a return from inside a loop";
                ok = false;
            }
        }
        L->exit = (unsigned)hexit;
        L->body = (unsigned)hbody;
        nl++;
    }
    g->nloops = nl;
    free(work);
    free(inl);
    free(pre);
    free(postn);
    free(members);
    return ok;
}

/* Is s, a successor of b, a back edge to a loop header, or a break out of
 * a loop around b? */
static bool back_edge(const struct mcfg *g, unsigned b, unsigned s)
{
    return g->header_of[s] >= 0 && g->loops[g->header_of[s]].latch == b;
}

static bool break_edge(const struct mcfg *g, unsigned b, unsigned s)
{
    for (int l = g->loop_of[b]; l >= 0; l = g->loops[l].parent)
        if (g->loops[l].exit == s)
            return true;
    return false;
}

/*
 * Post-dominators of the acyclic graph in which a loop header's only
 * successor is its exit, back edges and break edges are gone, and the
 * latches and returns reach the end.  A block whose every path breaks
 * reaches nothing: MCFG_NONE, skipped by the intersection.  Postorder of
 * that graph (from the entry and every loop's body) puts a block after all
 * its successors.
 */
static bool post_dominators(struct mcfg *g)
{
    unsigned n = g->n;
    int *po = malloc(sizeof(int) * (n + 1));
    struct dfs2 { unsigned b, k; } *st = malloc(sizeof(*st) * (n + 1));
    unsigned *seq = malloc(sizeof(unsigned) * (n + 1));
    int *up = malloc(sizeof(int) * (n + 1)), *ord = malloc(sizeof(int) * (n + 1));
    bool ok = po && st && seq && up && ord;
    if (!ok)
        goto done;
    for (unsigned i = 0; i < n; i++)
        po[i] = -1;
    unsigned cnt = 0;
    for (unsigned root = 0; root <= g->nloops; root++) {
        unsigned r = root == 0 ? 0 : g->loops[root - 1].body;
        if (po[r] != -1)
            continue;
        unsigned sp = 0;
        st[sp++] = (struct dfs2){r, 0};
        po[r] = -2; /* on the stack */
        while (sp) {
            struct dfs2 *f = &st[sp - 1];
            unsigned b = f->b, s[2], ns = 0;
            if (g->header_of[b] >= 0) {
                s[ns++] = g->loops[g->header_of[b]].exit;
            } else {
                for (unsigned k = 0; k < g->nsucc[b]; k++) {
                    unsigned t = g->succ[b][k];
                    if (!back_edge(g, b, t) && !break_edge(g, b, t))
                        s[ns++] = t;
                }
            }
            if (f->k < ns) {
                unsigned t = s[f->k++];
                if (po[t] == -1) {
                    po[t] = -2;
                    st[sp++] = (struct dfs2){t, 0};
                }
                continue;
            }
            po[b] = (int)cnt;
            seq[cnt++] = b;
            sp--;
        }
    }
    /* order for meet() grows toward the root, the end (index n): a
     * post-dominator is finished earlier in the postorder */
    for (unsigned i = 0; i < n; i++) {
        ord[i] = po[i] < 0 ? -(int)n - 1 : -po[i];
        up[i] = -1;
    }
    ord[n] = 1;
    up[n] = (int)n;
    for (unsigned q = 0; q < cnt; q++) {
        unsigned b = seq[q];
        int acc = -1;
        bool to_end = false;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(g->bb[b]);
        if (t && LLVMGetInstructionOpcode(t) == LLVMRet)
            to_end = true;
        if (g->header_of[b] >= 0) {
            acc = (int)g->loops[g->header_of[b]].exit;
            if (up[acc] < 0)
                acc = -1;
        } else {
            for (unsigned k = 0; k < g->nsucc[b]; k++) {
                unsigned s = g->succ[b][k];
                if (back_edge(g, b, s))
                    to_end = true;
                if (back_edge(g, b, s) || break_edge(g, b, s) || up[s] < 0)
                    continue; /* breaks and blocks that only break: no constraint */
                acc = acc < 0 ? (int)s : meet(up, ord, acc, (int)s);
            }
        }
        if (to_end)
            acc = acc < 0 ? (int)n : meet(up, ord, acc, (int)n);
        up[b] = acc;
    }
    for (unsigned i = 0; i < n; i++)
        g->ipdom[i] = up[i] < 0 ? MCFG_NONE : up[i] == (int)n ? MCFG_END : up[i];
done:
    free(po);
    free(st);
    free(seq);
    free(up);
    free(ord);
    return ok;
}

bool mcfg_build(struct mcfg *g, LLVMValueRef fn, const char **why)
{
    memset(g, 0, sizeof(*g));
    *why = NULL;
    struct preds P = {NULL, NULL};
    bool oom = false;
    bool ok = order_blocks(g, fn, why);
    if (!ok && !*why)
        oom = true;
    if (ok && !(build_preds(g, &P) && dominators(g, &P))) {
        ok = false;
        oom = true;
    }
    ok = ok && find_loops(g, &P, why, &oom);
    if (ok && !post_dominators(g)) {
        ok = false;
        oom = true;
    }
    free(P.pstart);
    free(P.plist);
    if (!ok) {
        if (oom)
            *why = NULL;
        mcfg_free(g);
    }
    return ok;
}
