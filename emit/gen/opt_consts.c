/*
 * gen/opt_consts.c — float constants materialised four to a mov: the
 * scalar registers the selector fills with `(W) mov (1) k, imm:f` (a
 * three-source operand, which takes no immediate) become the dwords of
 * one 16-byte uniform vreg filled by `(W) mov (4) q, 0x..:vf`.
 *
 * requires: an optimized program before allocation (the last pass: the
 *           constants' def/use facts are final)
 * invalidates: def/use lists (operands renamed), instruction indices
 *
 * A :vf immediate is four restricted 8-bit floats (sign, 3-bit exponent of
 * bias 3, 4-bit mantissa: +-0 and +-0.1328125 .. +-31, with five
 * significant bits; the byte of 0.125 is the zero), lane i of the mov taking byte i % 4 (docs/gen9-target.md; the
 * destination 16-byte aligned, dword stride: a 16-byte uniform vreg is
 * aligned to 16 bytes by the allocator).  A constant qualifies when its
 * vreg is uniform, a dword, defined once by an unpredicated NoMask
 * `mov (1)` of a float immediate (no modifier) that a :vf byte gives bit
 * for bit, read by ALU instructions only, before the first control-flow
 * instruction (so a mov placed where the first of a group was runs before
 * every use of the others).
 * Qualifying constants are taken four at a time in program order; the
 * mov replaces the first one's definition, the others' go, and every
 * read of constant k of the group reads dword k of the quad.  A group of
 * one stays as it was.  Mesa's brw does the same with its `mov(8) :VF`
 * of constant vectors.
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

/* The byte of a qualifying constant definition (gen/opt_consts.c head), or -1. */
static int constant_def(const struct gen_program *p, const struct gen_du *du, const struct gen_inst *i)
{
    if (i->op != GOP_MOV || i->exec != 1 || i->group || !i->nomask || i->pred != GP_NONE ||
        i->sat || i->cmod || i->dst.kind != GO_VREG || i->dst.off || i->dst.type != GT_F)
        return -1;
    const struct gen_opnd *s = &i->src[0];
    uint32_t v = i->dst.vreg;
    const struct gen_vreg *r = &p->vreg[v];
    if (s->kind != GO_IMM || s->type != GT_F || s->neg || s->abs || !r->uniform || r->size != 4 ||
        r->no_spill || du->def_start[v + 1] - du->def_start[v] != 1)
        return -1;
    /* read as an ALU operand only (a message payload starts a GRF) */
    for (uint32_t q = du->use_start[v]; q < du->use_start[v + 1]; q++) {
        enum gen_op op = (enum gen_op)p->inst[du->use_list[q].inst].op;
        if (gen_op_info[op].send || op == GOP_MOVI || op == GOP_BCAST)
            return -1;
    }
    return gen_vf_byte(s->imm);
}

bool gen_opt_pack_consts(struct gen_program *p)
{
    struct gen_du du;
    if (!gen_du_build(p, &du))
        return false;
    unsigned n = p->ninst, nv = p->nvreg;
    uint32_t *quad = malloc((nv + 1) * sizeof(*quad)); /* v -> quad vreg + 1, 0: none */
    uint32_t *lane = malloc((nv + 1) * sizeof(*lane));
    bool *dead = calloc(n + 1, sizeof(*dead));
    if (!quad || !lane || !dead) {
        free(quad);
        free(lane);
        free(dead);
        gen_du_free(&du);
        p->oom = true;
        return false;
    }
    memset(quad, 0, (nv + 1) * sizeof(*quad));
    /* the qualifying definitions of the straight-line start, in order */
    uint32_t group[4];
    unsigned ng = 0;
    bool changed = false;
    for (unsigned k = 0; k <= n; k++) {
        bool stop = k == n || gen_op_info[p->inst[k].op].flow || p->inst[k].op == GOP_LABEL;
        int b = stop ? -1 : constant_def(p, &du, &p->inst[k]);
        if (b >= 0)
            group[ng++] = k;
        if (ng < 4 && !stop)
            continue;
        if (ng >= 2) {
            uint32_t q = gen_new_vreg(p, 16, true);
            if (p->oom)
                break;
            uint32_t bytes = 0;
            for (unsigned g = 0; g < ng; g++) {
                const struct gen_inst *d = &p->inst[group[g]];
                bytes |= (uint32_t)gen_vf_byte(d->src[0].imm) << (8 * g);
                quad[d->dst.vreg] = q + 1;
                lane[d->dst.vreg] = 4 * g;
                dead[group[g]] = g > 0;
            }
            struct gen_inst *m = &p->inst[group[0]];
            m->exec = 4;
            m->dst = gen_vr(q, 0, GT_F);
            m->src[0] = gen_imm(bytes, GT_VF);
            changed = true;
        }
        ng = 0;
        if (stop)
            break;
    }
    if (changed) {
        for (unsigned k = 0; k < p->ninst; k++) {
            struct gen_inst *i = &p->inst[k];
            for (unsigned s = 0; s < 3; s++) {
                struct gen_opnd *o = &i->src[s];
                if (o->kind == GO_VREG && o->vreg < nv && quad[o->vreg]) {
                    o->off += lane[o->vreg];
                    o->vreg = quad[o->vreg] - 1;
                }
            }
        }
        gen_remove_marked(p, dead);
    }
    free(quad);
    free(lane);
    free(dead);
    gen_du_free(&du);
    return changed;
}
