/* requires: a Gen program from selection or any later step.
 * invalidates: nothing (reads only). */
/*
 * gen/verify.c — the structural rules of the Gen IR (gen_ir.h) that every
 * step keeps, checked after each step in debug builds (gen/compile.c, as
 * merge/merge.c checks the MIR): an opcode and width the printer knows,
 * operands of the kinds the opcode's table entry allows, vregs that
 * exist and offsets inside them, modifiers only where the opcode takes
 * them, balanced control flow, and after allocation every vreg placed in
 * the file inside its allowed GRF range and alignment.  A violation is a
 * bug of ours, reported as "not supported" naming the step and the
 * instruction, so it fails a test instead of printing a wrong kernel.
 */
#include <stdio.h>
#include <stdlib.h>

#include "verify.h"

struct vfy {
    struct st_ctx *ctx;
    struct st_loc loc;
    const struct gen_program *p;
    const char *after;
    bool ok;
};

static void bad(struct vfy *V, unsigned i, const char *what)
{
    if (V->ok)
        st_error(V->ctx, V->loc, ST_E_NOT_SUPPORTED,
                 "internal error: the Gen program after %s breaks a rule at instruction %u: %s",
                 V->after, i, what);
    V->ok = false;
}

static bool width_ok(unsigned w)
{
    return w == 1 || w == 2 || w == 4 || w == 8 || w == 16 || w == 32;
}

static void operand(struct vfy *V, unsigned i, const struct gen_opnd *o, bool is_dst)
{
    const struct gen_program *p = V->p;
    if (o->type > GT_UQ || (o->type == GT_VF && o->kind != GO_IMM))
        bad(V, i, "an operand type out of range");
    switch (o->kind) {
    case GO_VREG:
        if (o->vreg >= p->nvreg) {
            bad(V, i, "a vreg that does not exist");
            return;
        }
        if (o->off >= p->vreg[o->vreg].size)
            bad(V, i, "an offset past the end of its vreg");
        break;
    case GO_FIXED:
        if (o->off >= GEN_FILE_BYTES)
            bad(V, i, "a fixed register past the register file");
        break;
    case GO_IMM:
        if (is_dst)
            bad(V, i, "an immediate destination");
        break;
    case GO_NULL: case GO_NONE:
        break;
    default:
        bad(V, i, "an operand kind out of range");
    }
    if (o->region > GR_SPLAT2)
        bad(V, i, "a region out of range");
}

static void instruction(struct vfy *V, unsigned i, const struct gen_inst *in)
{
    if (in->op >= GOP_COUNT) {
        bad(V, i, "an opcode out of range");
        return;
    }
    const struct gen_op_info *oi = &gen_op_info[in->op];
    if (!width_ok(in->exec))
        bad(V, i, "an execution width other than 1, 2, 4, 8, 16 or 32");
    if (in->group % 4 || in->group + in->exec > 32)
        bad(V, i, "a channel group other than M0, M4, .. M28 or past channel 31");
    if (in->cmod > GC_LE || in->pred > GP_INVERT || in->flag > 1)
        bad(V, i, "a condition, predicate or flag out of range");
    if (in->op == GOP_MATH && in->math > GM_FDIV)
        bad(V, i, "a math function out of range");
    if (oi->flow) {
        if (in->dst.kind == GO_VREG || in->src[0].kind == GO_VREG)
            bad(V, i, "a control-flow instruction with register operands");
        return;
    }
    if (oi->has_dst && in->dst.kind == GO_NONE)
        bad(V, i, "no destination");
    operand(V, i, &in->dst, true);
    for (unsigned k = 0; k < 3; k++) {
        const struct gen_opnd *s = &in->src[k];
        if (k >= oi->nsrc && s->kind != GO_NONE && !oi->send)
            bad(V, i, "more sources than the opcode reads");
        if ((s->neg || s->abs) && !oi->mods)
            bad(V, i, "a source modifier on an opcode that takes none");
        operand(V, i, s, false);
    }
    if (in->sat && !oi->sat)
        bad(V, i, "(sat) on an opcode that takes none");
    if (in->op == GOP_MOVI &&
        (in->src[1].kind != GO_FIXED || in->src[2].kind != GO_IMM || in->pred != GP_NONE ||
         (in->exec != 1 && in->exec != V->p->simd) || in->dst.kind != GO_VREG ||
         (in->src[0].kind != GO_VREG && in->src[0].kind != GO_FIXED) ||
         (!gen_movi_input(in) &&
          (gen_movi_base(in) + 16u * gen_movi_span(in) > in->src[1].off + in->src[1].imm ||
           gen_movi_base(in) < in->src[1].off)) ||
         !gen_movi_vecs(in) ||
         (in->exec != 1 && !gen_movi_comps(in))))
        bad(V, i, "an indirect read without its index, its registers or its layout");
    if (in->op == GOP_BCAST && (in->exec != 1 || !in->nomask || in->src[0].kind != GO_VREG ||
                                in->dst.kind != GO_VREG || in->pred != GP_NONE))
        bad(V, i, "a broadcast that is not a (W) SIMD1 read of a per-channel value");
}

/* IF [ELSE] ENDIF and LABEL .. WHILE nest; BREAK and CONT are in a loop. */
static void flow(struct vfy *V)
{
    const struct gen_program *p = V->p;
    uint8_t *stack = malloc(p->ninst + 1);
    if (!stack)
        return; /* (nothing to report: the verifier is an aid, not a step) */
    unsigned n = 0, loops = 0;
    for (unsigned i = 0; i < p->ninst && V->ok; i++) {
        switch (p->inst[i].op) {
        case GOP_IF: case GOP_LABEL:
            stack[n++] = p->inst[i].op;
            loops += p->inst[i].op == GOP_LABEL;
            break;
        case GOP_ELSE:
            if (!n || stack[n - 1] != GOP_IF)
                bad(V, i, "an else outside an if");
            else
                stack[n - 1] = GOP_ELSE;
            break;
        case GOP_ENDIF:
            if (!n || (stack[n - 1] != GOP_IF && stack[n - 1] != GOP_ELSE))
                bad(V, i, "an endif outside an if");
            else
                n--;
            break;
        case GOP_WHILE:
            if (!n || stack[n - 1] != GOP_LABEL)
                bad(V, i, "a while without its loop's start");
            else
                n--, loops--;
            break;
        case GOP_BREAK: case GOP_CONT:
            if (!loops)
                bad(V, i, "a break or continue outside a loop");
            break;
        default:
            break;
        }
    }
    if (V->ok && n)
        bad(V, p->ninst, "control flow left open at the end");
    free(stack);
}

/* After allocation: every vreg an instruction names sits in the file. */
static void placement(struct vfy *V)
{
    const struct gen_program *p = V->p;
    for (unsigned i = 0; i < p->ninst && V->ok; i++) {
        const struct gen_inst *in = &p->inst[i];
        const struct gen_opnd *ops[4] = {&in->dst, &in->src[0], &in->src[1], &in->src[2]};
        for (unsigned k = 0; k < 4; k++) {
            if (ops[k]->kind != GO_VREG || ops[k]->vreg >= p->nvreg)
                continue;
            const struct gen_vreg *v = &p->vreg[ops[k]->vreg];
            if (v->loc < 0) {
                bad(V, i, "a vreg the allocator did not place");
                break;
            }
            uint32_t lo = (uint32_t)v->loc, hi = lo + v->size;
            if (hi > GEN_FILE_BYTES || lo / GEN_GRF_SIZE < v->grf_lo ||
                (hi - 1) / GEN_GRF_SIZE > v->grf_hi || (v->align && lo % v->align))
                bad(V, i, "a vreg placed outside its allowed registers or alignment");
        }
    }
}

bool gen_verify(struct st_ctx *ctx, struct st_loc loc, const struct gen_program *p,
                const char *after, bool allocated)
{
    struct vfy V = {ctx, loc, p, after, true};
    if (p->oom)
        return true; /* incomplete by design; reported as out of memory */
    for (unsigned i = 0; i < p->ninst && V.ok; i++)
        instruction(&V, i, &p->inst[i]);
    if (V.ok)
        flow(&V);
    if (V.ok && allocated)
        placement(&V);
    return V.ok;
}
