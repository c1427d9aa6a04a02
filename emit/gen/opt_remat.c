/*
 * gen/opt_remat.c — interpolation recomputed instead of kept live, for
 * the tries after an allocation that spilled (gen/kernel.c): a value
 * computed by pln only reads the thread payload (setup data and
 * barycentrics, live from the thread's start anyway), so recomputing it
 * next to a distant use costs one instruction and frees its register in
 * between.
 *
 * requires: a selected, optimized program before allocation
 * invalidates: instruction indices (plns inserted), def/use lists
 *
 * A vreg defined only by unpredicated pln instructions reading payload
 * registers (one at SIMD8/16, the two halves at SIMD32, or one for each
 * half of a split SIMD32 value: gen/opt_split.c) is recomputed into
 * a fresh vreg right before each use that lies outside the definition's
 * basic block or more than REMAT_DISTANCE instructions after it, provided
 * the definitions dominate the use; the originals die when no use is left
 * (gen/opt_dce.c).
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

enum { REMAT_DISTANCE = 24 };

static bool pln_value(const struct gen_program *p, const struct gen_du *du, uint32_t v)
{
    uint32_t nd = du->def_start[v + 1] - du->def_start[v];
    const struct gen_vreg *r = &p->vreg[v];
    if (!nd || nd > 2 || r->uniform || r->no_spill || r->size != gen_vreg_dsize(p, r))
        return false;
    for (uint32_t q = du->def_start[v]; q < du->def_start[v + 1]; q++) {
        const struct gen_inst *i = &p->inst[du->def_list[q]];
        if (i->op != GOP_PLN || i->pred != GP_NONE || i->src[0].kind != GO_FIXED ||
            i->src[1].kind != GO_FIXED || i->sat)
            return false;
    }
    return true;
}

bool gen_opt_remat(struct gen_program *p)
{
    struct gen_du du;
    if (!gen_du_build(p, &du))
        return false;
    unsigned n = p->ninst;
    /* per instruction: the plns to insert before it (vreg to recompute, new vreg) */
    uint32_t *ins_v = malloc((n * 3 + 1) * sizeof(*ins_v));
    uint32_t *ins_at = malloc((n * 3 + 1) * sizeof(*ins_at));
    uint32_t *ins_new = malloc((n * 3 + 1) * sizeof(*ins_new));
    int32_t *head = malloc((n + 1) * sizeof(*head)), *next = malloc((n * 3 + 1) * sizeof(*next));
    unsigned nins = 0;
    if (!ins_v || !ins_at || !ins_new || !head || !next) {
        free(ins_v);
        free(ins_at);
        free(ins_new);
        free(head);
        free(next);
        gen_du_free(&du);
        p->oom = true;
        return false;
    }
    for (unsigned k = 0; k < n; k++)
        head[k] = -1;
    unsigned nv = p->nvreg;
    for (uint32_t v = 0; v < nv && !p->oom; v++) {
        if (!pln_value(p, &du, v))
            continue;
        uint32_t last_def = du.def_list[du.def_start[v + 1] - 1];
        for (uint32_t q = du.use_start[v]; q < du.use_start[v + 1]; q++) {
            struct gen_use u = du.use_list[q];
            bool dominated = true;
            for (uint32_t r = du.def_start[v]; r < du.def_start[v + 1]; r++)
                dominated &= gen_du_dominates(&du, du.def_list[r], u.inst);
            if (!dominated ||
                (gen_du_same_block(&du, last_def, u.inst) && u.inst - last_def <= REMAT_DISTANCE))
                continue;
            /* one recomputation per instruction: a second use there reads it too */
            uint32_t nvv = UINT32_MAX;
            for (int32_t k = head[u.inst]; k >= 0; k = next[k])
                if (ins_v[k] == v)
                    nvv = ins_new[k];
            if (nvv == UINT32_MAX) {
                nvv = gen_new_vreg(p, p->vreg[v].size, false);
                if (p->oom)
                    break;
                p->vreg[nvv].half32 = p->vreg[v].half32;
                ins_v[nins] = v;
                ins_at[nins] = u.inst;
                ins_new[nins] = nvv;
                next[nins] = head[u.inst];
                head[u.inst] = (int32_t)nins++;
            }
            p->inst[u.inst].src[u.slot].vreg = nvv;
        }
    }
    bool changed = nins > 0;
    if (changed && !p->oom) {
        /* rebuild the instruction list with the plns in place */
        unsigned extra = 0;
        for (unsigned k = 0; k < nins; k++)
            extra += du.def_start[ins_v[k] + 1] - du.def_start[ins_v[k]];
        struct gen_inst *out = malloc((n + extra + 1) * sizeof(*out));
        if (!out) {
            p->oom = true;
        } else {
            unsigned w = 0;
            for (unsigned at = 0; at < n; at++) {
                for (int32_t k = head[at]; k >= 0; k = next[k]) {
                    uint32_t v = ins_v[k];
                    for (uint32_t r = du.def_start[v]; r < du.def_start[v + 1]; r++) {
                        out[w] = p->inst[du.def_list[r]];
                        out[w].dst.vreg = ins_new[k];
                        w++;
                    }
                }
                out[w++] = p->inst[at];
            }
            free(p->inst);
            p->inst = out;
            p->ninst = w;
            p->cap_inst = n + extra + 1;
        }
    }
    free(ins_v);
    free(ins_at);
    free(ins_new);
    free(head);
    free(next);
    gen_du_free(&du);
    return changed;
}
