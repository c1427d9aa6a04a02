/*
 * gen/opt_copy.c — copy propagation: every use of a plain copy reads the
 * copy's source instead, so the mov dies (gen/opt_dce.c removes it).
 *
 * requires: a selected program before allocation (gen/opt.h def/use facts)
 * invalidates: use lists (sources rewritten); no instruction is removed
 *
 * A copy is `mov D, S` with D's only definition (whole, unpredicated) and
 * S a vreg, a payload register or an immediate, read as it is (same type,
 * no (sat), no conditional modifier; `-` and `(abs)` on a float source
 * are modifiers the user combines with its own).  A use of D is rewritten
 * when the copy dominates it, S keeps its value on every path from the
 * copy to it (gen/opt.h), and the user can read S there: no message
 * payload or pln operand, immediates only where Gen takes them (the last
 * source of a two-source instruction, a commutative one swapped), a scalar
 * S only through a plain region, modifiers only where the instruction
 * takes them and only on float reads.  This is Mesa's opt_copy_propagation
 * restricted to what the structured, non-SSA program lets us prove.
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

static bool is_copy(const struct gen_program *p, const struct gen_inst *i)
{
    if (i->op != GOP_MOV || i->sat || i->cmod || i->pred != GP_NONE || i->dst.kind != GO_VREG)
        return false;
    const struct gen_opnd *s = &i->src[0];
    if (s->kind != GO_VREG && s->kind != GO_FIXED && s->kind != GO_IMM)
        return false;
    /* the same bits: a float mov, or a raw dword copy */
    bool f = i->dst.type == GT_F && s->type == GT_F;
    bool d = (i->dst.type == GT_D || i->dst.type == GT_UD) && (s->type == GT_D || s->type == GT_UD) &&
             !s->neg && !s->abs;
    if (!f && !d)
        return false;
    if (s->kind == GO_VREG) {
        const struct gen_vreg *sv = &p->vreg[s->vreg];
        const struct gen_vreg *dv = &p->vreg[i->dst.vreg];
        if (s->region != GR_AUTO && s->region != GR_VEC && s->region != GR_SCALAR)
            return false;
        if (dv->uniform && !(sv->uniform || s->region == GR_SCALAR))
            return false;
        /* a divergent source read per channel must be one dword per channel at the kernel's width */
        if (!dv->uniform && !sv->uniform && s->region != GR_SCALAR && s->off % GEN_GRF_SIZE)
            return false;
    }
    if (s->kind == GO_FIXED && s->region != GR_VEC && s->region != GR_SCALAR)
        return false;
    return true;
}

/* S read per channel (else one scalar for all channels). */
static bool src_per_channel(const struct gen_program *p, const struct gen_opnd *s)
{
    if (s->kind == GO_IMM)
        return false;
    if (s->kind == GO_FIXED)
        return s->region == GR_VEC;
    return s->region != GR_SCALAR && !p->vreg[s->vreg].uniform;
}

static bool commutative(uint8_t op)
{
    return op == GOP_ADD || op == GOP_MUL || op == GOP_AND || op == GOP_OR || op == GOP_XOR;
}

static bool imm_ok_type(uint8_t t)
{
    return t == GT_F || t == GT_D || t == GT_UD;
}

static uint32_t apply_mods_imm(uint32_t bits, bool neg, bool abs)
{
    if (abs)
        bits &= 0x7fffffffu;
    if (neg)
        bits ^= 0x80000000u;
    return bits;
}

/*
 * The operand that reads S where `use` read D (same type as the use, its
 * modifiers combined with the copy's); false when the instruction cannot
 * read it there.
 */
static bool substitute(const struct gen_program *p, const struct gen_inst *ui, unsigned slot,
                       const struct gen_inst *copy, struct gen_opnd *out, bool *swap)
{
    const struct gen_opnd *u = &ui->src[slot];
    const struct gen_opnd *s = &copy->src[0];
    const struct gen_op_info *oi = &gen_op_info[ui->op];
    *swap = false;
    if (oi->send || ui->op == GOP_PLN || oi->flow)
        return false;
    bool mods = s->neg || s->abs;
    if (mods && (u->type != GT_F || !oi->mods))
        return false;
    /* integer logic reads `-` as a bitwise not: only plain copies there */
    if ((u->neg || u->abs) && (s->kind == GO_IMM) && u->type != GT_F)
        return false;
    bool special = u->region == GR_DDX || u->region == GR_DDY || u->region == GR_SUBSPAN ||
                   u->region == GR_VEC16 || u->region == GR_PAIRS || u->region == GR_REP2 ||
                   u->region == GR_REP8 || u->region == GR_SPLAT2;
    bool per_ch = src_per_channel(p, s);
    if (special && !per_ch)
        return false;
    if (u->region == GR_SCALAR && per_ch)
        return false; /* a scalar read of one lane of D: keep it */
    struct gen_opnd o = *s;
    o.type = u->type;
    /* combine modifiers: outer(use) of inner(copy) */
    if (u->abs) {
        o.abs = true;
        o.neg = u->neg;
    } else {
        o.neg = (bool)(s->neg ^ u->neg);
        o.abs = s->abs;
    }
    if (s->kind == GO_IMM) {
        if (!imm_ok_type(u->type) || !imm_ok_type(s->type) || ui->op == GOP_MATH || oi->nsrc == 3)
            return false;
        o.imm = o.type == GT_F ? apply_mods_imm(s->imm, o.neg, o.abs) : s->imm;
        if (o.type != GT_F && (o.neg || o.abs))
            return false;
        o.neg = o.abs = false;
        o.region = GR_SCALAR;
        if (oi->nsrc == 1 && ui->op != GOP_MOV)
            return false; /* frc, rnd*, not: register sources */
        if (oi->nsrc == 2 && slot == 0) {
            const struct gen_opnd *other = &ui->src[1];
            if (!commutative(ui->op) || other->kind == GO_IMM)
                return false;
            *swap = true;
        }
        *out = o;
        return true;
    }
    if (per_ch) {
        /* the lanes the use reads move with it (a SIMD32 half reads D + 64) */
        o.off = s->off + u->off;
        o.region = special ? u->region : (s->kind == GO_FIXED ? GR_VEC : u->region);
        if (s->kind == GO_VREG && o.region == GR_VEC)
            o.region = GR_AUTO;
    } else {
        o.off = s->off;
        o.region = s->kind == GO_FIXED ? GR_SCALAR : (s->region == GR_SCALAR ? GR_SCALAR : GR_AUTO);
    }
    *out = o;
    return true;
}

bool gen_opt_copy_prop(struct gen_program *p)
{
    struct gen_du du;
    if (!gen_du_build(p, &du))
        return false;
    bool changed = false;
    for (unsigned k = 0; k < p->ninst; k++) {
        const struct gen_inst *c = &p->inst[k];
        if (!is_copy(p, c))
            continue;
        uint32_t D = c->dst.vreg;
        if (gen_du_single_def(p, &du, D) != (int32_t)k)
            continue;
        const struct gen_opnd *s = &c->src[0];
        if (s->kind == GO_VREG && s->vreg == D)
            continue;
        /* a message block lives as one unit and is never spilled: reading
         * a part of it further on keeps all of it; only within its basic
         * block (and, on the retry after a spill, not past its last use) */
        bool from_block = s->kind == GO_VREG && p->vreg[s->vreg].no_spill;
        uint32_t block_first = 0, block_last = 0;
        if (from_block) {
            uint32_t B = s->vreg;
            if (du.def_start[B + 1] == du.def_start[B])
                continue;
            block_first = du.def_list[du.def_start[B]];
            for (uint32_t q = du.use_start[B]; q < du.use_start[B + 1]; q++)
                if (du.use_list[q].inst > block_last)
                    block_last = du.use_list[q].inst;
            if (!gen_du_same_block(&du, block_first, k))
                continue;
        }
        uint32_t ssize = 4;
        if (s->kind == GO_VREG && src_per_channel(p, s))
            ssize = p->vreg[D].uniform ? 4 : gen_vreg_dsize(p, &p->vreg[D]);
        for (uint32_t q = du.use_start[D]; q < du.use_start[D + 1]; q++) {
            struct gen_use use = du.use_list[q];
            struct gen_inst *ui = &p->inst[use.inst];
            if (ui->src[use.slot].kind != GO_VREG || ui->src[use.slot].vreg != D)
                continue; /* rewritten already (an instruction reading D twice) */
            if (!gen_du_dominates(&du, k, use.inst))
                continue;
            if (from_block && (!gen_du_same_block(&du, k, use.inst) ||
                               (p->keep_block_ranges && use.inst > block_last)))
                continue;
            if (s->kind == GO_VREG &&
                !gen_du_unchanged(p, &du, s->vreg, s->off, ssize, k, use.inst))
                continue;
            struct gen_opnd o;
            bool swap;
            if (!substitute(p, ui, use.slot, c, &o, &swap))
                continue;
            if (swap) {
                ui->src[0] = ui->src[1];
                ui->src[1] = o;
            } else {
                ui->src[use.slot] = o;
            }
            changed = true;
        }
    }
    gen_du_free(&du);
    return changed;
}
