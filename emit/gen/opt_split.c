/*
 * gen/opt_split.c — a SIMD32 program as two SIMD16 programs: every logical
 * SIMD32 ALU instruction becomes its (16|M0) and (16|M16) halves, and every
 * value whose references all stay inside one half becomes two values of
 * one half each, as Mesa's brw lowers SIMD32 to SIMD16 instructions.
 *
 * requires: an optimized program before payload coalescing and allocation
 * invalidates: instruction indices (instructions doubled), def/use lists
 *
 * Why: at SIMD32 every message (sampler, render target, untyped read) is
 * two SIMD16 messages, one per half, whose payloads hold 64-byte halves of
 * the values.  As long as a value is one 128-byte vreg, neither of its
 * halves can be computed in a payload register (gen/opt_payload.c renames
 * whole vregs), nor can a response half be read where it arrived
 * (gen/opt_copy.c propagates whole-vreg copies): each costs a mov per
 * half, about a third of a SIMD32 kernel.  Split in two, the halves are
 * values of their own and those passes treat them as at SIMD16.
 *
 * The halves are exactly what the printer makes of a SIMD32 instruction
 * (gen/print.c: the second half with every per-channel operand 16
 * elements on), so the kernel computes the same bits.  A value is split
 * when it is a divergent, spillable 128-byte vreg and every reference
 * (destination bytes written, per-channel source bytes read, a scalar
 * element read, a message's payload) lies inside bytes 0-63 or 64-127;
 * the second half becomes a new vreg with `half32` = 2 (its byte 0 is
 * channel 16), the first keeps its number with `half32` = 1.  Register-
 * indirect pseudo-instructions (gen/indirect.c) and control flow keep
 * their width; a value they read whole is not split.
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

static bool splittable(const struct gen_inst *i)
{
    const struct gen_op_info *oi = &gen_op_info[i->op];
    return i->exec == 32 && !oi->flow && !oi->send && i->op != GOP_LABEL && i->op != GOP_MOVI &&
           i->op != GOP_BCAST;
}

/* The bytes [*lo, *hi) of its vreg that operand o of i references. */
static bool extent(const struct gen_program *p, const struct gen_inst *i, unsigned slot,
                   uint32_t *lo, uint32_t *hi)
{
    const struct gen_opnd *o = slot == 0 ? &i->dst : &i->src[slot - 1];
    const struct gen_op_info *oi = &gen_op_info[i->op];
    *lo = o->off;
    if (i->op == GOP_MOVI || i->op == GOP_BCAST || (i->op == GOP_PLN && slot))
        return false;
    if (slot == 0) {
        *hi = o->off + gen_dst_bytes(p, i);
    } else if (oi->send) {
        unsigned grfs = slot == 1 ? i->mlen : slot == 2 && i->op == GOP_SENDS ? i->src1len : 0;
        if (!grfs)
            return false;
        *hi = o->off + grfs * GEN_GRF_SIZE;
    } else {
        unsigned ts = gen_type_size((enum gen_type)o->type);
        *hi = o->off + (gen_opnd_per_channel(p, i, o) ? i->exec * ts : ts);
    }
    return true;
}

bool gen_opt_split32(struct gen_program *p)
{
    if (p->simd != 32 || p->whole32 || p->oom)
        return false;
    unsigned n = p->ninst, extra = 0;
    for (unsigned k = 0; k < n; k++)
        extra += splittable(&p->inst[k]);
    /* 1. the instructions */
    if (extra) {
        struct gen_inst *out = malloc((n + extra + 1) * sizeof(*out));
        if (!out) {
            p->oom = true;
            return false;
        }
        unsigned w = 0;
        for (unsigned k = 0; k < n; k++) {
            const struct gen_inst *i = &p->inst[k];
            if (!splittable(i)) {
                out[w++] = *i;
                continue;
            }
            struct gen_inst h0 = *i, h1 = *i;
            h0.exec = h1.exec = 16;
            h0.group = 0;
            h1.group = 16;
            /* as gen/print.c prints the second half */
            if (h1.dst.kind == GO_VREG || h1.dst.kind == GO_FIXED)
                h1.dst.off += 16u * gen_type_size((enum gen_type)h1.dst.type);
            for (unsigned s = 0; s < gen_op_info[i->op].nsrc; s++)
                if (gen_opnd_per_channel(p, i, &i->src[s]))
                    h1.src[s].off += 16u * gen_type_size((enum gen_type)h1.src[s].type);
            out[w++] = h0;
            out[w++] = h1;
        }
        free(p->inst);
        p->inst = out;
        p->ninst = w;
        p->cap_inst = n + extra + 1;
    }
    /* 2. the values: which vregs have every reference inside one half */
    unsigned nv = p->nvreg;
    bool *ok = malloc((nv + 1) * sizeof(*ok));
    if (!ok) {
        p->oom = true;
        return extra != 0;
    }
    for (unsigned v = 0; v < nv; v++) {
        const struct gen_vreg *r = &p->vreg[v];
        ok[v] = !r->uniform && !r->no_spill && r->size == 128 && r->spill_slot < 0 && !r->half32 &&
                !r->rematerialized;
    }
    for (unsigned k = 0; k < p->ninst; k++) {
        const struct gen_inst *i = &p->inst[k];
        for (unsigned s = 0; s < 4; s++) {
            const struct gen_opnd *o = s == 0 ? &i->dst : &i->src[s - 1];
            if (o->kind != GO_VREG || o->vreg >= nv || !ok[o->vreg])
                continue;
            uint32_t lo, hi;
            if (!extent(p, i, s, &lo, &hi) || hi <= lo || (lo < 64 && hi > 64) || hi > 128)
                ok[o->vreg] = false;
        }
    }
    bool changed = extra != 0;
    uint32_t *second = malloc((nv + 1) * sizeof(*second));
    if (!second) {
        free(ok);
        p->oom = true;
        return changed;
    }
    for (unsigned v = 0; v < nv; v++) {
        second[v] = 0;
        if (!ok[v])
            continue;
        uint32_t h = gen_new_vreg(p, 64, false);
        if (p->oom)
            break;
        struct gen_vreg *r = &p->vreg[v], *r1 = &p->vreg[h];
        r->size = 64;
        r->half32 = 1;
        r1->grf_lo = r->grf_lo;
        r1->grf_hi = r->grf_hi;
        r1->half32 = 2;
        second[v] = h + 1;
        changed = true;
    }
    if (!p->oom) {
        for (unsigned k = 0; k < p->ninst; k++) {
            struct gen_inst *i = &p->inst[k];
            struct gen_opnd *ops[4] = {&i->dst, &i->src[0], &i->src[1], &i->src[2]};
            for (unsigned s = 0; s < 4; s++)
                if (ops[s]->kind == GO_VREG && ops[s]->vreg < nv && second[ops[s]->vreg] &&
                    ops[s]->off >= 64) {
                    ops[s]->vreg = second[ops[s]->vreg] - 1;
                    ops[s]->off -= 64;
                }
        }
    }
    free(ok);
    free(second);
    return changed;
}
