/* requires: vasm_legalize (pins set, no literal operands left).
 * invalidates: nothing in the IR's meaning (fills phys and temps; fuses matrix rows, places
 * ps_1_x constants). */
/*
 * regalloc.c — temporaries at lane granularity.  Lanes never move, so the
 * question for two vregs is only whether they clash in some lane (the
 * interference graph of merge/liveness.c): a vreg living in .xy and one
 * living in .zw share r0 when their live ranges overlap, and any two share
 * when they never clash.  Pinned vregs (a0, p0, aL, ps_1_x's registers)
 * are their register; the others are coloured greedily in program order
 * of first appearance, lowest register first.  When the model's
 * temporaries do not suffice, a clear error: D3D9 has no memory to spill
 * to.  Then what depends on the registers: ps_1_1..1_3 writemasks grown
 * to .rgb or whole where the lanes added are dead, consecutive dot
 * products by consecutive constant rows fused into m4x4 & co., ps_1_x
 * constants that found no register placed where the final program reads
 * none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vasm.h"

unsigned vasm_max_temps(const struct st_shader *sh)
{
    uint16_t v = sh->version.ver;
    if (sh->dialect == ST_ARB)
        return 256; /* MAX_PROGRAM_TEMPORARIES of translator/arb/arb_check.c */
    if (sh->version.type == ST_VS)
        return v >= ST_VER_2X ? 32 : 12;
    if (v < ST_VER(1, 4))
        return 2;
    if (v < ST_VER(2, 0))
        return 6;
    return v >= ST_VER_2X ? 32 : 12;
}

/* The register file a vreg ends up in. */
static enum st_regfile file_of(const struct vasm *V, uint32_t v)
{
    return V->pin[v].file == ST_REG_COUNT ? ST_REG_TEMP : V->pin[v].file;
}

/* Vregs live on entry (read before any write on some path) clash with
 * each other where their lanes overlap: no definition says so. */
static bool entry_edges(const struct mir_prog *p, const struct mir_live *lv, struct mir_ig *g)
{
    uint32_t *live = malloc(sizeof(uint32_t) * (lv->nv ? lv->nv : 1));
    if (!live)
        return false;
    unsigned n = 0;
    for (unsigned k = 0; k < lv->ng; k++)
        if (mir_live_in(lv, 0, lv->globals[k]))
            live[n++] = lv->globals[k];
    bool ok = true;
    (void)p;
    for (unsigned a = 0; a < n && ok; a++)
        for (unsigned b = a + 1; b < n && ok; b++) {
            uint8_t both = mir_live_in(lv, 0, live[a]) & mir_live_in(lv, 0, live[b]);
            if (both)
                ok = mir_ig_add(g, live[a], live[b], both);
        }
    free(live);
    return ok;
}

/*
 * aL is the counter of the innermost loop around the instruction: a nested
 * loop saves the outer one's and gives it back at its endloop, so the
 * counters of nested loops never clash.  What cannot be said is a read of
 * an outer loop's counter inside an inner loop.
 */
static bool loop_counters(struct vasm *V)
{
    const struct mir_prog *p = &V->p;
    unsigned depth = 0, cap = 0;
    for (unsigned i = 0; i < p->n; i++)
        if (!p->ins[i].dead && (p->ins[i].op == ST_OP_LOOP || p->ins[i].op == ST_OP_REP))
            cap++;
    if (!cap)
        return true;
    uint32_t *stack = malloc(sizeof(uint32_t) * cap); /* a loop's aL vreg; MIR_NONE: a rep */
    if (!stack) {
        V->p.oom = true;
        return false;
    }
    bool ok = true;
    for (unsigned i = 0; i < p->n && ok; i++) {
        const struct mir_instr *in = &p->ins[i];
        if (in->dead)
            continue;
        if (in->op == ST_OP_LOOP || in->op == ST_OP_REP) {
            stack[depth++] = in->op == ST_OP_LOOP && in->has_dst && in->dst.kind == MIR_VREG
                                 ? in->dst.vreg : MIR_NONE;
            continue;
        }
        if ((in->op == ST_OP_ENDLOOP || in->op == ST_OP_ENDREP) && depth) {
            depth--;
            continue;
        }
        uint32_t inner = MIR_NONE;
        for (unsigned d = depth; d-- > 0;)
            if (stack[d] != MIR_NONE) {
                inner = stack[d];
                break;
            }
        for (unsigned k = 0; k < in->nsrc && ok; k++) {
            const struct mir_src *s = &in->src[k];
            uint32_t v = s->kind == MIR_VREG ? s->vreg
                         : s->kind == MIR_FIXED && s->rel ? s->rel_vreg : MIR_NONE;
            if (v != MIR_NONE && v < p->nvregs && V->pin[v].file == ST_REG_LOOP && v != inner)
                ok = vasm_fail(V, "a read of an outer loop's aL inside an inner loop");
        }
        if (ok && in->has_dst && in->dst.kind == MIR_FIXED && in->dst.rel &&
            V->pin[in->dst.rel_vreg].file == ST_REG_LOOP && in->dst.rel_vreg != inner)
            ok = vasm_fail(V, "a write through an outer loop's aL inside an inner loop");
    }
    free(stack);
    return ok;
}

static bool color(struct vasm *V, const struct mir_ig *g)
{
    if (!loop_counters(V))
        return false;
    struct mir_prog *p = &V->p;
    uint32_t nv = p->nvregs;
    unsigned limit = vasm_max_temps(V->sh);
    for (uint32_t v = 0; v < nv; v++)
        V->phys[v] = V->pin[v].file == ST_REG_COUNT ? MIR_NONE : (uint32_t)V->pin[v].index;
    /* pinned vregs that clash (aL: each loop has its own, see loop_counters) */
    for (uint32_t v = 0; v < nv; v++) {
        if (V->pin[v].file == ST_REG_COUNT || V->pin[v].file == ST_REG_LOOP)
            continue;
        for (unsigned k = 0; k < g->adj[v].n; k++) {
            uint32_t u = g->adj[v].v[k];
            if (u > v && V->pin[u].file == V->pin[v].file && V->pin[u].index == V->pin[v].index &&
                mir_ig_lanes(g, u, v)) {
                char what[96];
                snprintf(what, sizeof(what), "a program where two values the shader model puts "
                                             "in %s%d live at once",
                         st_regfile_name(V->pin[v].file, (uint32_t)V->pin[v].index),
                         (int)V->pin[v].index);
                return vasm_fail(V, what);
            }
        }
    }
    /* the others, in order of first appearance */
    uint8_t *seen = calloc(nv ? nv : 1, 1);
    uint32_t *order = malloc(sizeof(uint32_t) * (nv ? nv : 1));
    uint8_t *blocked = calloc(limit + 1 > 256 ? limit + 1 : 256, 1);
    if (!seen || !order || !blocked) {
        free(seen);
        free(order);
        free(blocked);
        p->oom = true;
        return false;
    }
    unsigned no = 0;
#define SEE(x)                                                                                     \
    do {                                                                                           \
        uint32_t x_ = (x);                                                                         \
        if (x_ < nv && !seen[x_]) {                                                                \
            seen[x_] = 1;                                                                          \
            order[no++] = x_;                                                                      \
        }                                                                                          \
    } while (0)
    for (unsigned i = 0; i < p->n; i++) {
        const struct mir_instr *in = &p->ins[i];
        if (in->dead)
            continue;
        for (unsigned k = 0; k < in->nsrc; k++)
            if (in->src[k].kind == MIR_VREG)
                SEE(in->src[k].vreg);
        if (in->has_dst && in->dst.kind == MIR_VREG)
            SEE(in->dst.vreg);
    }
#undef SEE
    uint32_t used = 0;
    for (uint32_t v = 0; v < nv; v++)
        if (V->pin[v].file == ST_REG_TEMP && (uint32_t)V->pin[v].index + 1 > used)
            used = (uint32_t)V->pin[v].index + 1;
    bool ok = true;
    for (unsigned o = 0; o < no && ok; o++) {
        uint32_t v = order[o];
        if (V->phys[v] != MIR_NONE ||
            (p->vclass[v] != MIR_CLASS_FLOAT && p->vclass[v] != MIR_CLASS_HALF))
            continue; /* temporaries hold floats and halves alike */
        unsigned cap = limit + 1 > 256 ? limit + 1 : 256;
        memset(blocked, 0, cap);
        for (unsigned k = 0; k < g->adj[v].n; k++) {
            uint32_t u = g->adj[v].v[k];
            if (V->phys[u] != MIR_NONE && file_of(V, u) == ST_REG_TEMP && V->phys[u] < cap &&
                mir_ig_lanes(g, u, v))
                blocked[V->phys[u]] = 1;
        }
        uint32_t r = 0;
        while (r < cap && blocked[r])
            r++;
        if (r >= limit) {
            char what[96];
            snprintf(what, sizeof(what), "a program needing more than the model's %u temporary "
                                         "registers", limit);
            ok = vasm_fail(V, what);
            break;
        }
        V->phys[v] = r;
        if (r + 1 > used)
            used = r + 1;
    }
    V->temps = used;
    free(seen);
    free(order);
    free(blocked);
    return ok;
}

/* ------------------------------------------------------------------ */
/* After allocation                                                    */

static bool same_reg(const struct vasm *V, uint32_t a, uint32_t b)
{
    return file_of(V, a) == file_of(V, b) && V->phys[a] == V->phys[b];
}

static bool same_src(const struct vasm *V, const struct mir_src *a, const struct mir_src *b)
{
    if (a->kind != b->kind || a->swz != b->swz || a->mod != b->mod || a->rel != b->rel)
        return false;
    if (a->kind == MIR_VREG)
        return same_reg(V, a->vreg, b->vreg);
    return a->file == b->file && a->index == b->index;
}

/* The rows of a matrix read through one address: relative the same way,
 * or both not. */
static bool same_rel(const struct mir_src *a, const struct mir_src *b)
{
    if (a->rel != b->rel)
        return false;
    return !a->rel || (a->rel_vreg == b->rel_vreg && a->rel_lane == b->rel_lane &&
                       a->rel_first == b->rel_first && a->rel_count == b->rel_count);
}

/*
 * dp3/dp4 of one vector with consecutive constant rows, writing lanes x,
 * y, (z, (w)) of one register in a row, are the matrix instruction the
 * shader probably wrote (m4x4, m4x3, m3x4, m3x3, m3x2): the same dot
 * products in the same order.  Only when the destination is not the
 * vector itself, where the dots would read lanes already written.
 */
static void fuse_matrices(struct vasm *V)
{
    struct mir_prog *p = &V->p;
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr *a = &p->ins[i];
        if (a->dead || (a->op != ST_OP_DP3 && a->op != ST_OP_DP4) || a->sat || a->predicated ||
            !a->has_dst || a->dst.mask != 0x1 || a->src[1].kind != MIR_FIXED ||
            a->src[1].file != ST_REG_CONST ||
            a->src[1].swz != ST_SWIZZLE_IDENTITY || a->src[1].mod != MIR_MOD_NONE ||
            a->src[0].swz != ST_SWIZZLE_IDENTITY || a->src[0].mod != MIR_MOD_NONE)
            continue;
        unsigned idx[4] = {i, 0, 0, 0}, n = 1;
        for (unsigned j = i + 1; j < p->n && n < 4; j++) {
            struct mir_instr *b = &p->ins[j];
            if (b->dead)
                continue;
            bool same_dst = b->has_dst && b->dst.kind == a->dst.kind &&
                            (a->dst.kind == MIR_VREG ? same_reg(V, a->dst.vreg, b->dst.vreg)
                                                     : a->dst.file == b->dst.file &&
                                                           a->dst.index == b->dst.index &&
                                                           !a->dst.rel && !b->dst.rel);
            if (b->op != a->op || b->sat || b->predicated || b->dst.mask != (1u << n) ||
                !same_dst || !same_src(V, &a->src[0], &b->src[0]) ||
                b->src[1].kind != MIR_FIXED || b->src[1].file != ST_REG_CONST ||
                b->src[1].swz != ST_SWIZZLE_IDENTITY || b->src[1].mod != MIR_MOD_NONE ||
                b->src[1].index != a->src[1].index + (int32_t)n || !same_rel(&a->src[1], &b->src[1]))
                break;
            idx[n++] = j;
        }
        unsigned op;
        if (a->op == ST_OP_DP4 && n == 4)
            op = ST_OP_M4x4;
        else if (a->op == ST_OP_DP4 && n == 3)
            op = ST_OP_M4x3;
        else if (a->op == ST_OP_DP3 && n == 4)
            op = ST_OP_M3x4;
        else if (a->op == ST_OP_DP3 && n == 3)
            op = ST_OP_M3x3;
        else if (a->op == ST_OP_DP3 && n == 2)
            op = ST_OP_M3x2;
        else
            continue;
        if (a->dst.kind == MIR_VREG && a->src[0].kind == MIR_VREG &&
            same_reg(V, a->dst.vreg, a->src[0].vreg))
            continue;
        a->op = (uint16_t)op;
        a->dst.mask = (uint8_t)((1u << n) - 1);
        for (unsigned k = 1; k < n; k++)
            p->ins[idx[k]].dead = true;
        i = idx[n - 1];
    }
}

/*
 * ps_1_x: new constants that found no free register carry an index from
 * 0x10000 up.  Now that the program is final, a register no live
 * instruction reads (a def of the input whose value was only folded into
 * other constants) holds nothing the program needs: the defs left unread
 * are dropped and each late constant takes one of the freed registers.
 * ps_1_x has no relative constant reads, so an unread register is truly
 * unread.
 */
static bool place_ps1x_defs(struct vasm *V)
{
    bool late = false;
    for (unsigned k = 0; k < V->ndefs; k++)
        if (V->defs[k].index >= 0x10000)
            late = true;
    if (!late)
        return true;
    struct mir_prog *p = &V->p;
    bool refd[8] = {false};
    bool lrefd[256] = {false};
    for (unsigned i = 0; i < p->n; i++) {
        const struct mir_instr *in = &p->ins[i];
        if (in->dead)
            continue;
        for (unsigned k = 0; k < in->nsrc; k++) {
            const struct mir_src *s = &in->src[k];
            if (s->kind != MIR_FIXED || s->file != ST_REG_CONST)
                continue;
            if (s->index >= 0x10000 && s->index < 0x10000 + 256)
                lrefd[s->index - 0x10000] = true;
            else if (s->index >= 0 && s->index < 8)
                refd[s->index] = true;
        }
        if (in->op == MIR_OP_OPAQUE && in->ast) /* texm3x3spec reads a c# as written */
            for (unsigned k = 0; k < in->ast->nsrc && k < 5; k++)
                if (in->ast->src[k].reg.file == ST_REG_CONST && in->ast->src[k].reg.index < 8)
                    refd[in->ast->src[k].reg.index] = true;
    }
    unsigned w = 0;
    for (unsigned k = 0; k < V->ndefs; k++) {
        int32_t x = V->defs[k].index;
        bool keep = x >= 0x10000 ? (x - 0x10000 < 256 && lrefd[x - 0x10000]) : refd[x & 7];
        if (keep)
            V->defs[w++] = V->defs[k];
    }
    V->ndefs = w;
    for (unsigned k = 0; k < V->ndefs; k++) {
        int32_t x = V->defs[k].index;
        if (x < 0x10000)
            continue;
        int32_t r = 0;
        while (r < 8 && refd[r])
            r++;
        if (r == 8)
            return vasm_fail(V, "a program needing more constant registers than the model has");
        refd[r] = true;
        V->defs[k].index = r;
        for (unsigned i = 0; i < p->n; i++)
            for (unsigned j = 0; j < p->ins[i].nsrc; j++) {
                struct mir_src *s = &p->ins[i].src[j];
                if (s->kind == MIR_FIXED && s->file == ST_REG_CONST && s->index == x)
                    s->index = r;
            }
    }
    return true;
}

bool vasm_allocate(struct vasm *V)
{
    struct mir_prog *p = &V->p;
    struct mir_live lv;
    struct mir_ig g;
    memset(&g, 0, sizeof(g));
    V->phys = malloc(sizeof(uint32_t) * (p->nvregs ? p->nvregs : 1));
    if (!V->phys || !mir_liveness(p, &lv, V->exit_live, V->nexit)) {
        p->oom = true;
        return false;
    }
    bool ok = mir_ig_build(&g, p, &lv) && entry_edges(p, &lv, &g);
    if (!ok)
        p->oom = true;
    mir_live_free(&lv);
    ok = ok && color(V, &g);
    mir_ig_free(&g);
    if (ok && !V->arb) /* ARB has no m4x4 & co. */
        fuse_matrices(V);
    return ok && place_ps1x_defs(V);
}
