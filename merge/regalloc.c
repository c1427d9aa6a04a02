/* requires: MIR after coalesce.c and mir_legalize_swizzles (no new vregs come after this).
 * invalidates: nothing (fills p->phys and p->phys_temps). */
/*
 * regalloc.c — temporaries at lane granularity.  Lanes never move, so the
 * question for two vregs is only whether they clash in some lane
 * (liveness.c): a vreg living in .xy and one living in .zw share r0 when
 * their live ranges overlap, and any two share when they never clash.
 * Greedy in program order of first definition, lowest register first;
 * when the model's temporaries do not suffice, a clear error (no spilling:
 * D3D9 has no memory to spill to).
 */
#include <stdlib.h>
#include <string.h>

#include "mir.h"

bool mir_regalloc(struct st_ctx *ctx, struct mir_prog *p, unsigned max_temps)
{
    uint32_t nv = p->nvregs;
    struct mir_live lv = {0};
    free(p->phys);
    p->phys = malloc(sizeof(uint32_t) * (nv ? nv : 1));
    size_t words = (nv + 63) / 64;
    uint64_t *clash = calloc((size_t)(nv ? nv : 1) * (words ? words : 1), sizeof(uint64_t));
    uint32_t *order = malloc(sizeof(uint32_t) * (nv ? nv : 1));
    bool *seen = calloc(nv ? nv : 1, 1);
    if (!p->phys || !clash || !order || !seen || !mir_liveness(p, &lv)) {
        free(clash);
        free(order);
        free(seen);
        mir_live_free(&lv);
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
#define SET(a, b) (clash[(size_t)(a) * words + (b) / 64] |= 1ull << ((b) % 64))
#define GET(a, b) ((clash[(size_t)(a) * words + (b) / 64] >> ((b) % 64)) & 1)
    /* One sweep: at each definition, the vregs live in a lane it writes. */
    unsigned norder = 0;
    bool stopped = false;
    for (unsigned i = 0; i < p->n && !stopped; i++) {
        const struct mir_instr *in = &p->ins[i];
        if (in->dead)
            continue;
        stopped = !st_poll(ctx, nv); /* compile budget, cancel: a sweep of the vregs */
        for (unsigned k = 0; k < in->nsrc; k++)
            if (in->src[k].kind == MIR_VREG && !seen[in->src[k].vreg]) {
                seen[in->src[k].vreg] = true;
                order[norder++] = in->src[k].vreg;
            }
        if (!in->has_dst || in->dst.kind != MIR_VREG)
            continue;
        uint32_t d = in->dst.vreg;
        if (!seen[d]) {
            seen[d] = true;
            order[norder++] = d;
        }
        for (uint32_t v = 0; v < nv; v++) {
            if (v == d)
                continue;
            uint8_t live = lv.out[(size_t)i * nv + v];
            uint8_t w = in->dst.mask;
            if (in->op == MIR_OP_MERGE) {
                for (unsigned k = 0; k < in->nsrc; k++) {
                    const struct mir_src *s = &in->src[k];
                    if (s->kind != MIR_VREG || s->vreg != v)
                        continue;
                    bool ident = s->mod == MIR_MOD_NONE;
                    for (unsigned l = 0; l < 4; l++)
                        if ((in->lanes[k] >> l) & 1 && ST_SWZ_LANE(s->swz, l) != l)
                            ident = false;
                    if (ident)
                        w &= (uint8_t)~in->lanes[k];
                    else
                        live |= mir_src_lanes(in, k); /* read by a later mov of this merge */
                }
            }
            live |= mir_reads_while_writing(in, v);
            if (live & w) {
                SET(d, v);
                SET(v, d);
            }
        }
    }
    /* Vregs live on entry (read before any write on some path) clash with
     * each other where their lanes overlap. */
    for (uint32_t a = 0; a < nv; a++)
        for (uint32_t b = a + 1; b < nv && p->n; b++)
            if (lv.in[a] & lv.in[b]) {
                SET(a, b);
                SET(b, a);
            }
    uint32_t used = 0;
    bool ok = !stopped;
    for (uint32_t v = 0; v < nv; v++)
        p->phys[v] = MIR_NONE;
    /* pinned vregs first: they name their register */
    for (unsigned k = 0; k < p->npins && ok; k++) {
        uint32_t v = p->pins[k].vreg, r = p->pins[k].reg;
        if (v >= nv)
            continue;
        for (uint32_t u = 0; u < nv; u++)
            if (p->phys[u] == r && GET(v, u) && u != v) {
                st_error(ctx, p->loc, ST_E_NOT_SUPPORTED,
                         "two values the shader model puts in r%u are live together",
                         (unsigned)r);
                ok = false;
            }
        p->phys[v] = r;
        if (r + 1 > used)
            used = r + 1;
    }
    for (unsigned o = 0; o < norder && ok; o++) {
        uint32_t v = order[o];
        if (p->phys[v] != MIR_NONE)
            continue;
        for (uint32_t r = 0;; r++) {
            bool free_r = true;
            for (uint32_t u = 0; u < nv && free_r; u++) {
                if (p->phys[u] == r && GET(v, u))
                    free_r = false;
            }
            if (free_r) {
                p->phys[v] = r;
                if (r + 1 > used)
                    used = r + 1;
                break;
            }
        }
    }
#undef SET
#undef GET
    p->phys_temps = used;
    if (ok && used > max_temps) {
        st_error(ctx, p->loc, ST_E_NOT_SUPPORTED,
                 "the vector program needs %u temporary registers; this shader model has %u",
                 (unsigned)used, max_temps);
        ok = false;
    }
    free(clash);
    free(order);
    free(seen);
    mir_live_free(&lv);
    return ok;
}
