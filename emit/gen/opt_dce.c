/*
 * gen/opt_dce.c — dead code: instructions whose results nobody reads.
 *
 * requires: a selected program before allocation
 * invalidates: instruction indices (dead instructions are removed)
 *
 * A result is dead when no instruction reads its vreg (sweeping backwards,
 * so a chain feeding only dead code goes in one sweep; sweeps repeat for
 * loops).  Messages that only return data (sampler, untyped and constant
 * reads) die with their response; writes (URB, render target) never.  A
 * compare whose register result is dead but whose flag is read keeps the
 * flag and writes null.  A flag write is dead when, scanning forward, the
 * channels it wrote are written again before any instruction reads the
 * flag; control flow ends the scan as a read (a branch or a loop may read
 * it elsewhere).
 *
 * A header-less sampler message returns R, G, B, A in that order and stops
 * at its response length (Mesa's brw sizes the response by the last
 * component read): when no read of the response reaches its trailing
 * channels, the message asks for fewer, so the response is smaller and may
 * be copied whole into a payload (gen/opt_payload.c).
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

/* A message with no effect but its response. */
static bool pure_send(const struct gen_inst *i)
{
    if (!gen_op_info[i->op].send || i->eot || i->dst.kind != GO_VREG || i->spill || i->fill)
        return false;
    return i->sfid == 2 || i->sfid == 0xC || i->sfid == 9;
}

static bool flag_covers(const struct gen_inst *w, const struct gen_inst *i)
{
    unsigned wl = w->group, wh = w->group + (w->exec ? w->exec : 1);
    unsigned il = i->group, ih = i->group + (i->exec ? i->exec : 1);
    return wl <= il && ih <= wh;
}

static bool flag_overlaps(const struct gen_inst *a, const struct gen_inst *b)
{
    unsigned al = a->group, ah = a->group + (a->exec ? a->exec : 1);
    unsigned bl = b->group, bh = b->group + (b->exec ? b->exec : 1);
    return al < bh && bl < ah;
}

/* Whether the flag channels instruction k writes may be read later. */
static bool flag_live_after(const struct gen_program *p, unsigned k)
{
    const struct gen_inst *i = &p->inst[k];
    for (unsigned j = k + 1; j < p->ninst; j++) {
        const struct gen_inst *n = &p->inst[j];
        if (gen_op_info[n->op].flow || n->op == GOP_LABEL)
            return true;
        if (gen_reads_flag(n, i->flag) && flag_overlaps(n, i))
            return true;
        if (gen_writes_flag(n, i->flag) && n->pred == GP_NONE && flag_covers(n, i))
            return false;
    }
    return false;
}

bool gen_opt_dce(struct gen_program *p)
{
    unsigned nv = p->nvreg ? p->nvreg : 1;
    unsigned *uses = calloc(nv, sizeof(*uses));
    bool *dead = calloc(p->ninst + 1, sizeof(*dead));
    if (!uses || !dead) {
        free(uses);
        free(dead);
        p->oom = true;
        return false;
    }
    for (unsigned k = 0; k < p->ninst; k++)
        for (unsigned s = 0; s < 3; s++)
            if (p->inst[k].src[s].kind == GO_VREG)
                uses[p->inst[k].src[s].vreg]++;
    bool any = false, changed = true;
    while (changed) {
        changed = false;
        for (unsigned k = p->ninst; k-- > 0;) {
            struct gen_inst *i = &p->inst[k];
            if (dead[k])
                continue;
            const struct gen_op_info *oi = &gen_op_info[i->op];
            if (oi->flow || i->op == GOP_LABEL || i->eot)
                continue;
            bool wflag = gen_cmod_writes_flag(i);
            bool dst_dead = i->dst.kind == GO_VREG && uses[i->dst.vreg] == 0 &&
                            (!oi->send || pure_send(i));
            bool kill = false;
            if (dst_dead && !wflag) {
                kill = true;
            } else if (wflag && (dst_dead || i->dst.kind == GO_NULL) && !flag_live_after(p, k)) {
                kill = true;
            } else if (dst_dead && wflag && i->op == GOP_CMP) {
                /* the flag is read, the register result is not */
                i->dst = gen_null(i->dst.type);
                changed = any = true;
            }
            if (!kill)
                continue;
            dead[k] = true;
            changed = any = true;
            for (unsigned s = 0; s < 3; s++)
                if (i->src[s].kind == GO_VREG && uses[i->src[s].vreg])
                    uses[i->src[s].vreg]--;
        }
    }
    if (any)
        gen_remove_marked(p, dead);
    free(uses);
    free(dead);
    return any;
}

bool gen_opt_trim_responses(struct gen_program *p)
{
    struct gen_du du;
    if (!gen_du_build(p, &du))
        return false;
    bool any = false;
    for (unsigned k = 0; k < p->ninst; k++) {
        struct gen_inst *i = &p->inst[k];
        /* bit 19: header present; with one the channel mask sets the length */
        if (i->op != GOP_SEND || !pure_send(i) || i->sfid != 2 || (i->desc >> 19 & 1) ||
            i->pred != GP_NONE || i->dst.off || i->rlen != 4 * (i->exec / 8) || i->rlen < 4)
            continue;
        uint32_t v = i->dst.vreg, chan = (uint32_t)i->rlen / 4 * GEN_GRF_SIZE;
        if (p->vreg[v].size != 4 * chan || du.def_start[v + 1] - du.def_start[v] != 1 ||
            du.def_list[du.def_start[v]] != k)
            continue;
        uint32_t end = 0;
        for (uint32_t u = du.use_start[v]; u < du.use_start[v + 1]; u++) {
            const struct gen_inst *r = &p->inst[du.use_list[u].inst];
            const struct gen_opnd *o = &r->src[du.use_list[u].slot];
            uint32_t e = o->off + gen_src_bytes(p, r, du.use_list[u].slot);
            if (e > end)
                end = e;
        }
        unsigned keep = (unsigned)((end + chan - 1) / chan);
        if (keep == 0 || keep >= 4)
            continue;
        i->rlen = (uint8_t)(keep * chan / GEN_GRF_SIZE);
        i->desc = (i->desc & ~(0x1fu << 20)) | ((uint32_t)i->rlen << 20);
        p->vreg[v].size = keep * chan;
        any = true;
    }
    gen_du_free(&du);
    return any;
}
