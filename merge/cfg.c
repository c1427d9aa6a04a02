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

bool mcfg_build(struct mcfg *g, LLVMValueRef fn, const char **why)
{
    memset(g, 0, sizeof(*g));
    *why = NULL;
    unsigned total = LLVMCountBasicBlocks(fn);
    if (!total) {
        *why = "a function without blocks";
        return false;
    }
    LLVMBasicBlockRef *all = malloc(sizeof(*all) * total);
    g->hcap = 16;
    while (g->hcap < total * 2)
        g->hcap *= 2;
    g->hkey = calloc(g->hcap, sizeof(*g->hkey));
    g->hval = calloc(g->hcap, sizeof(*g->hval));
    LLVMBasicBlockRef *post = malloc(sizeof(*post) * total);
    struct dfs { LLVMBasicBlockRef b; unsigned k; } *st = malloc(sizeof(*st) * (total + 1));
    if (!all || !g->hkey || !g->hval || !post || !st)
        goto oom;
    LLVMGetBasicBlocks(fn, all);
    /* Postorder of the blocks reachable from the entry (visited marks in
     * the hash, value UINT32_MAX until numbered). */
    unsigned npost = 0, sp = 0;
    bool too_many = false;
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
        goto fail;
    }
    unsigned n = g->n = npost;
    g->bb = malloc(sizeof(*g->bb) * n);
    g->succ = malloc(sizeof(*g->succ) * n);
    g->nsucc = calloc(n, 1);
    g->idom = malloc(sizeof(int) * n);
    g->ipdom = malloc(sizeof(int) * n);
    g->header_of = malloc(sizeof(int) * n);
    g->loop_of = malloc(sizeof(int) * n);
    int *order = malloc(sizeof(int) * (n + 1));
    unsigned *npred = calloc(n + 1, sizeof(unsigned));
    if (!g->bb || !g->succ || !g->nsucc || !g->idom || !g->ipdom || !g->header_of ||
        !g->loop_of || !order || !npred) {
        free(order);
        free(npred);
        goto oom;
    }
    for (unsigned i = 0; i < n; i++) {
        g->bb[i] = post[n - 1 - i];
        hput(g, g->bb[i], i);
    }
    for (unsigned i = 0; i < n; i++) {
        LLVMBasicBlockRef s[2];
        unsigned ns = raw_succ(g->bb[i], s, &too_many);
        for (unsigned k = 0; k < ns; k++) {
            g->succ[i][g->nsucc[i]++] = (unsigned)mcfg_index(g, s[k]);
            npred[mcfg_index(g, s[k])]++;
        }
        g->header_of[i] = -1;
        g->loop_of[i] = -1;
    }
    /* predecessor lists (CSR) */
    unsigned *pstart = malloc(sizeof(unsigned) * (n + 1)), *plist = NULL, nedges = 0;
    for (unsigned i = 0; i < n; i++)
        nedges += g->nsucc[i];
    plist = malloc(sizeof(unsigned) * (nedges + 1));
    if (!pstart || !plist) {
        free(pstart);
        free(plist);
        free(order);
        free(npred);
        goto oom;
    }
    pstart[0] = 0;
    for (unsigned i = 0; i < n; i++)
        pstart[i + 1] = pstart[i] + npred[i];
    for (unsigned i = 0; i < n; i++)
        npred[i] = 0;
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < g->nsucc[i]; k++) {
            unsigned t = g->succ[i][k];
            plist[pstart[t] + npred[t]++] = i;
        }
    /* Dominators: in reverse postorder a dominator has a smaller index,
     * so order[] = -index grows toward the root. */
    for (unsigned i = 0; i < n; i++) {
        g->idom[i] = -1;
        order[i] = -(int)i;
    }
    g->idom[0] = 0;
    for (bool changed = true; changed;) {
        changed = false;
        for (unsigned i = 1; i < n; i++) {
            int nd = -1;
            for (unsigned k = pstart[i]; k < pstart[i + 1]; k++) {
                int p = (int)plist[k];
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
    /* Loops: a back edge u -> h has h dominating u.  Dominance is read
     * from the dominator tree's DFS interval numbers (constant time; a
     * walk up the idom chain would be as long as the program). */
    unsigned nl = 0;
    g->loops = malloc(sizeof(*g->loops) * (n + 1));
    unsigned *work = malloc(sizeof(unsigned) * (n + 1));
    unsigned *inl = calloc(n, sizeof(unsigned)); /* marks: a stamp per loop and walk */
    unsigned *pre = malloc(sizeof(unsigned) * (n + 1)), *postn = malloc(sizeof(unsigned) * (n + 1));
    unsigned *members = malloc(sizeof(unsigned) * (n + 1));
    if (!g->loops || !work || !inl || !pre || !postn || !members ||
        !dom_intervals(g->idom, n, pre, postn)) {
        free(work);
        free(inl);
        free(pre);
        free(postn);
        free(members);
        free(pstart);
        free(plist);
        free(order);
        free(npred);
        goto oom;
    }
    bool ok = true;
    unsigned stamp = 0;
    for (unsigned h = 0; h < n && ok; h++) {
        int latch = -1;
        for (unsigned k = pstart[h]; k < pstart[h + 1]; k++) {
            unsigned u = plist[k];
            if (pre[u] == UINT32_MAX || !(pre[h] <= pre[u] && postn[u] <= postn[h]))
                continue; /* h does not dominate u: a forward edge */
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
        L->parent = -1;
        g->header_of[h] = (int)nl;
        /* The natural loop (what reaches the latch without passing h)
         * leaves out the arms that only break; the structured loop is
         * everything reachable from the header's body successor without
         * passing h or the exit.  The exit is the header's successor from
         * which the latch cannot be reached. */
        unsigned mark = ++stamp;
        inl[h] = mark;
        unsigned wn = 0;
        if (inl[latch] != mark) {
            inl[latch] = mark;
            work[wn++] = (unsigned)latch;
        }
        while (wn) {
            unsigned b = work[--wn];
            for (unsigned k = pstart[b]; k < pstart[b + 1]; k++)
                if (inl[plist[k]] != mark) {
                    inl[plist[k]] = mark;
                    work[wn++] = plist[k];
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
        int exit = hexit, body = hbody;
        for (unsigned m = 0; m < nm && ok; m++) {
            unsigned b = members[m];
            LLVMValueRef t = LLVMGetBasicBlockTerminator(g->bb[b]);
            if (t && LLVMGetInstructionOpcode(t) == LLVMRet) {
                *why = "a return from inside a loop";
                ok = false;
            }
        }
        L->exit = (unsigned)exit;
        L->body = (unsigned)body;
        nl++;
    }
    g->nloops = nl;
    free(inl);
    free(pre);
    free(postn);
    free(members);
    free(pstart);
    free(plist);
    free(npred);
    if (!ok) {
        free(work);
        free(order);
        goto fail;
    }
    /*
     * Post-dominators of the acyclic graph in which a loop header's only
     * successor is its exit, back edges and break edges are gone, and the
     * latches and returns reach the end.  A block whose every path breaks
     * reaches nothing: MCFG_NONE, skipped by the intersection.  Postorder
     * of that graph (from the entry and every loop's body) puts a block
     * after all its successors.
     */
    int *po = order; /* reuse: postorder numbers of the acyclic graph */
    for (unsigned i = 0; i < n; i++)
        po[i] = -1;
    unsigned cnt = 0;
    struct dfs2 { unsigned b, k; } *st2 = (struct dfs2 *)st;
    unsigned *seq = work;
    for (unsigned root = 0; root <= g->nloops; root++) {
        unsigned r = root == 0 ? 0 : g->loops[root - 1].body;
        if (po[r] != -1)
            continue;
        sp = 0;
        st2[sp++] = (struct dfs2){r, 0};
        po[r] = -2; /* on the stack */
        while (sp) {
            struct dfs2 *f = &st2[sp - 1];
            unsigned b = f->b, s[2], ns = 0;
            if (g->header_of[b] >= 0) {
                s[ns++] = g->loops[g->header_of[b]].exit;
            } else {
                for (unsigned k = 0; k < g->nsucc[b]; k++) {
                    unsigned t = g->succ[b][k];
                    bool back = g->header_of[t] >= 0 && g->loops[g->header_of[t]].latch == b;
                    bool brk = false;
                    for (int l = g->loop_of[b]; l >= 0; l = g->loops[l].parent)
                        if (g->loops[l].exit == t)
                            brk = true;
                    if (!back && !brk)
                        s[ns++] = t;
                }
            }
            if (f->k < ns) {
                unsigned t = s[f->k++];
                if (po[t] == -1) {
                    po[t] = -2;
                    st2[sp++] = (struct dfs2){t, 0};
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
    int *up = malloc(sizeof(int) * (n + 1));
    int *ord = malloc(sizeof(int) * (n + 1));
    if (!up || !ord) {
        free(up);
        free(ord);
        free(work);
        free(order);
        goto oom;
    }
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
                bool back = g->header_of[s] >= 0 && g->loops[g->header_of[s]].latch == b;
                if (back)
                    to_end = true;
                bool brk = false;
                for (int l = g->loop_of[b]; l >= 0; l = g->loops[l].parent)
                    if (g->loops[l].exit == s)
                        brk = true;
                if (back || brk || up[s] < 0)
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
    free(up);
    free(ord);
    free(work);
    free(order);
    free(all);
    free(post);
    free(st);
    return true;
oom:
    *why = NULL;
fail:
    free(all);
    free(post);
    free(st);
    mcfg_free(g);
    return false;
}
