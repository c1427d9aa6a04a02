/*
 * vasm.c — `--emit=vasm`: the shader through LLVM and back to vector
 * assembly of its own dialect and version (docs/merge.md).
 *
 * Lower (translator/lower/lower_llvm.c) -> the merge stage's light cleanups ->
 * select (merge/select.c) -> fold copies, coalesce merges
 * (merge/coalesce.c) -> lane-granular allocation (merge/regalloc.c) ->
 * here: the MIR becomes an ordinary st_shader AST and the dialect's own
 * canonical printer writes it (st_print_asm, or st_print_arb for ARB
 * programs, whose tables are rebuilt here: docs/merge.md "ARB programs").
 *
 * Before anything is returned the text is parsed and checked again as the
 * shader model demands; a failure there is our bug and is reported as
 * ST_E_NOT_SUPPORTED rather than handing out an invalid program.
 */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "emit.h"
#include "merge.h"
#include "merge.h"

/*
 * The cleanups before selection: mem2reg makes the merges SSA values;
 * instsimplify and dce fold and drop what is trivially redundant.  No CSE:
 * two equal computations stored to two outputs would then need a temporary
 * the input did not need.  No instcombine (it turns
 * the lowering's selects and shuffles into shapes with no D3D9
 * instruction) and no simplifycfg (it if-converts branches and merges the
 * blocks the structured walk recovers if/else from).
 */
static const char *const vasm_pipeline = "function(mem2reg,instsimplify,dce)";

/*
 * The float rules (docs/float-rules.md) differ only in products with a
 * zero factor: d3d9 gives +0 where IEEE gives -0 or NaN.  The vector
 * program runs under either rule, so no product may be folded under one
 * rule only.  The lowering's ST_LOWER_FENCE_MUL form hides both factors of
 * every such product behind llvm.arithmetic.fence; here a product of two
 * constants is folded when both rules give the same bits in every lane
 * (then the cleanups run again to propagate it), and the fences go before
 * selection.  Not folded: a constant zero factor with a negative or
 * non-finite other factor, and x * 1 (d3d9 turns x = -0 into +0).
 */
static bool is_fence(LLVMValueRef v)
{
    if (!v || !LLVMIsACallInst(v))
        return false;
    LLVMValueRef f = LLVMGetCalledValue(v);
    size_t len;
    const char *n = f && LLVMIsAFunction(f) ? LLVMGetValueName2(f, &len) : "";
    return strncmp(n, "llvm.arithmetic.fence", 21) == 0;
}

/* Lane l of a float constant (scalar or vector); false when not one. */
static bool const_float_lane(LLVMValueRef c, unsigned l, float *out)
{
    if (LLVMIsAConstantFP(c)) {
        LLVMBool lost;
        *out = (float)LLVMConstRealGetDouble(c, &lost);
        return true;
    }
    if (LLVMIsAConstantAggregateZero(c)) {
        *out = 0.0f;
        return true;
    }
    if (!LLVMIsAConstantDataVector(c) && !LLVMIsAConstantVector(c))
        return false;
    LLVMValueRef e = LLVMGetAggregateElement(c, l);
    if (!e || !LLVMIsAConstantFP(e))
        return false;
    LLVMBool lost;
    *out = (float)LLVMConstRealGetDouble(e, &lost);
    return true;
}

static bool fold_safe_products(LLVMValueRef fn)
{
    bool changed = false;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;) {
            LLVMValueRef next = LLVMGetNextInstruction(I);
            LLVMTypeRef ty = LLVMTypeOf(I);
            bool vec = LLVMGetTypeKind(ty) == LLVMVectorTypeKind;
            LLVMTypeRef et = vec ? LLVMGetElementType(ty) : ty;
            if (LLVMGetInstructionOpcode(I) != LLVMFMul || LLVMGetTypeKind(et) != LLVMFloatTypeKind ||
                !is_fence(LLVMGetOperand(I, 0)) || !is_fence(LLVMGetOperand(I, 1))) {
                I = next;
                continue;
            }
            LLVMValueRef a = LLVMGetOperand(LLVMGetOperand(I, 0), 0);
            LLVMValueRef b = LLVMGetOperand(LLVMGetOperand(I, 1), 0);
            unsigned n = vec ? LLVMGetVectorSize(ty) : 1;
            LLVMValueRef lanes[16];
            bool ok = n <= 16;
            for (unsigned l = 0; l < n && ok; l++) {
                float x, y;
                ok = const_float_lane(a, l, &x) && const_float_lane(b, l, &y);
                if (!ok)
                    break;
                float ieee = x * y, d3d9 = x == 0.0f || y == 0.0f ? 0.0f : x * y;
                ok = memcmp(&ieee, &d3d9, sizeof(ieee)) == 0;
                lanes[l] = LLVMConstReal(et, ieee);
            }
            if (ok) {
                LLVMReplaceAllUsesWith(I, vec ? LLVMConstVector(lanes, n) : lanes[0]);
                LLVMInstructionEraseFromParent(I);
                changed = true;
            }
            I = next;
        }
    return changed;
}

static void drop_fences(LLVMValueRef fn)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;) {
            LLVMValueRef next = LLVMGetNextInstruction(I);
            if (is_fence(I)) {
                LLVMReplaceAllUsesWith(I, LLVMGetOperand(I, 0));
                LLVMInstructionEraseFromParent(I);
            }
            I = next;
        }
}

struct build {
    const struct mir_prog *p;
    struct st_shader *sh;
    struct st_merge_stats *stats;
    uint32_t orig_params; /* ARB: parameter slots of the input program */
    struct st_instr scratch; /* handed out once memory ran out */
};

static struct st_instr *add(struct build *B, enum st_opcode op)
{
    struct st_instr *in = st_arena_alloc(B->sh->arena, sizeof(*in));
    if (!in) {
        /* out of memory (st_arena_failed, reported before printing): the
         * caller fills a scratch instruction that is not in the program */
        memset(&B->scratch, 0, sizeof(B->scratch));
        B->scratch.op = op;
        return &B->scratch;
    }
    in->op = op;
    if (B->sh->last)
        B->sh->last->next = in;
    else
        B->sh->first = in;
    B->sh->last = in;
    B->sh->num_instrs++;
    return in;
}

static struct st_reg reg_of_vreg(const struct mir_prog *p, uint32_t v)
{
    struct st_reg r = {.file = ST_REG_TEMP, .index = p->phys ? p->phys[v] : v};
    return r;
}

static struct st_src conv_src(struct build *B, const struct mir_src *s)
{
    const struct mir_prog *p = B->p;
    struct st_src o;
    memset(&o, 0, sizeof(o));
    if (s->kind == MIR_VREG)
        o.reg = reg_of_vreg(p, s->vreg);
    else
        o.reg = (struct st_reg){.file = s->file, .index = s->index};
    if (s->kind == MIR_FIXED && s->rel) {
        struct st_reladdr *ra = st_arena_alloc(B->sh->arena, sizeof(*ra));
        ra->file = s->rel == 1 ? ST_REG_LOOP : ST_REG_ADDR;
        if (s->rel >= 2) {
            ra->component = (uint8_t)(s->rel - 2);
            ra->has_component = true;
        }
        o.reg.rel = ra;
    }
    o.swizzle = s->swz;
    o.swizzle_len = s->swz == ST_SWIZZLE_IDENTITY ? 0 : 4;
    switch (s->mod) {
    case MIR_MOD_NEG: o.mod = ST_SRCMOD_NEG; break;
    case MIR_MOD_ABS: o.mod = ST_SRCMOD_ABS; break;
    case MIR_MOD_ABSNEG: o.mod = ST_SRCMOD_ABSNEG; break;
    case MIR_MOD_BIAS: o.mod = ST_SRCMOD_BIAS; break;
    case MIR_MOD_BIASNEG: o.mod = ST_SRCMOD_BIASNEG; break;
    case MIR_MOD_BX2: o.mod = ST_SRCMOD_SIGN; break;
    case MIR_MOD_BX2NEG: o.mod = ST_SRCMOD_SIGNNEG; break;
    case MIR_MOD_COMP: o.mod = ST_SRCMOD_COMP; break;
    case MIR_MOD_X2: o.mod = ST_SRCMOD_X2; break;
    case MIR_MOD_X2NEG: o.mod = ST_SRCMOD_X2NEG; break;
    default: o.mod = ST_SRCMOD_NONE; break;
    }
    return o;
}

static struct st_dst conv_dst(struct build *B, const struct mir_dst *d)
{
    const struct mir_prog *p = B->p;
    struct st_dst o;
    memset(&o, 0, sizeof(o));
    if (d->kind == MIR_VREG)
        o.reg = reg_of_vreg(p, d->vreg);
    else
        o.reg = (struct st_reg){.file = d->file, .index = d->index};
    if (d->kind == MIR_FIXED && d->rel) { /* o[aL + k], o[a0.c + k] */
        struct st_reladdr *ra = st_arena_alloc(B->sh->arena, sizeof(*ra));
        ra->file = d->rel == 1 ? ST_REG_LOOP : ST_REG_ADDR;
        if (d->rel >= 2) {
            ra->component = (uint8_t)(d->rel - 2);
            ra->has_component = true;
        }
        o.reg.rel = ra;
    }
    o.writemask = d->mask;
    return o;
}

static bool scalar_output(const struct st_dst *d)
{
    return (d->reg.file == ST_REG_RASTOUT && d->reg.index != ST_RASTOUT_POS) ||
           d->reg.file == ST_REG_DEPTHOUT;
}

/* A mov that would copy a register onto itself prints nothing. */
static bool noop_mov(const struct st_dst *d, const struct st_src *s)
{
    if (d->reg.file != s->reg.file || d->reg.index != s->reg.index || s->mod != ST_SRCMOD_NONE)
        return false;
    for (unsigned l = 0; l < 4; l++)
        if ((d->writemask >> l) & 1 && ST_SWZ_LANE(s->swizzle, l) != l)
            return false;
    return true;
}

static void build_code(struct build *B)
{
    const struct mir_prog *p = B->p;
    for (unsigned i = 0; i < p->n; i++) {
        const struct mir_instr *m = &p->ins[i];
        if (m->dead)
            continue;
        if (m->op == MIR_OP_MERGE) {
            /* what coalescing left: one writemasked mov per input */
            for (unsigned k = 0; k < m->nsrc; k++) {
                struct st_dst d = conv_dst(B, &m->dst);
                d.writemask = m->lanes[k];
                struct st_src s = conv_src(B, &m->src[k]);
                if (noop_mov(&d, &s))
                    continue;
                struct st_instr *in = add(B, ST_OP_MOV);
                in->has_dst = true;
                in->dst = d;
                in->nsrc = 1;
                in->src[0] = s;
                B->stats->moves_left++;
            }
            continue;
        }
        if (m->op == MIR_OP_OPAQUE) {
            /* as written, with the registers allocation gave its values */
            struct st_instr *in = add(B, m->ast->op);
            struct st_instr *keep = in->next;
            *in = *m->ast;
            in->next = keep;
            bool writes = m->has_dst;
            for (unsigned k = 0; k < m->nsrc; k++) {
                if (m->src[k].kind != MIR_VREG)
                    continue;
                struct st_reg *r = !writes && in->has_dst ? (k == 0 ? &in->dst.reg
                                                                    : &in->src[k - 1].reg)
                                                          : &in->src[k].reg;
                r->index = p->phys ? p->phys[m->src[k].vreg] : m->src[k].vreg;
            }
            if (writes && m->dst.kind == MIR_VREG)
                in->dst.reg.index = p->phys ? p->phys[m->dst.vreg] : m->dst.vreg;
            continue;
        }
        struct st_instr *in = add(B, (enum st_opcode)m->op);
        if (m->op == ST_OP_TEXKILL) {
            /* the MIR reads it as a source; the assembly names it as dst */
            struct st_src s = conv_src(B, &m->src[0]);
            in->has_dst = true;
            in->dst.reg = s.reg;
            in->dst.writemask = 0xf;
            continue;
        }
        in->cmp = m->cmp;
        in->shift = m->shift;
        if (m->predicated) {
            in->predicated = true;
            in->pred.reg.file = ST_REG_PREDICATE;
            in->pred.swizzle = m->pred_swz;
            in->pred.swizzle_len = m->pred_swz == ST_SWIZZLE_IDENTITY ? 0 : 4;
            in->pred.mod = m->pred_not ? ST_SRCMOD_NOT : ST_SRCMOD_NONE;
        }
        if (m->sat)
            in->dstmod |= ST_DSTMOD_SAT;
        in->nsrc = m->nsrc;
        for (unsigned k = 0; k < m->nsrc; k++)
            in->src[k] = conv_src(B, &m->src[k]);
        if (m->op == ST_OP_IF && m->nsrc == 1 && m->pred_not)
            in->src[0].mod = ST_SRCMOD_NOT; /* if !p0.c */
        if (m->has_dst) {
            in->has_dst = true;
            in->dst = conv_dst(B, &m->dst);
            if (scalar_output(&in->dst)) {
                /* oFog, oPts, oDepth take the first written lane: a
                 * component-wise op computes it from that lane of its
                 * sources; a dot product (or another replicating op)
                 * has the same value in every lane and keeps its swizzles */
                unsigned first = 0;
                while (first < 3 && !((m->dst.mask >> first) & 1))
                    first++;
                in->dst.writemask = 0xf;
                if (mir_op_componentwise(m->op))
                    for (unsigned k = 0; k < in->nsrc; k++)
                        in->src[k].swizzle =
                            (uint8_t)(ST_SWZ_LANE(in->src[k].swizzle, first) * 0x55);
                for (unsigned k = 0; k < in->nsrc; k++)
                    in->src[k].swizzle_len =
                        in->src[k].swizzle == ST_SWIZZLE_IDENTITY ? 0 : 4;
            }
            if (m->op == ST_OP_MOV && !m->sat && !m->shift && !m->predicated &&
                noop_mov(&in->dst, &in->src[0])) {
                /* drop it again */
                struct st_instr *prev = NULL;
                for (struct st_instr *x = B->sh->first; x && x != in; x = x->next)
                    prev = x;
                if (prev)
                    prev->next = NULL;
                else
                    B->sh->first = NULL;
                B->sh->last = prev;
                B->sh->num_instrs--;
            }
        }
    }
}


/* ------------------------------------------------------------------ */
/* ARB programs (docs/merge.md, "ARB programs").                       */

/* The operand letters of an ARB instruction (arb_opcodes.def), or NULL. */
static const char *arb_operands(unsigned op)
{
    for (unsigned i = 0; i < st_arb_num_opinfo; i++)
        if ((unsigned)st_arb_opinfo[i].op == op)
            return st_arb_opinfo[i].operands;
    return NULL;
}

/* Is this MIR instruction one of the program kind's own instructions? */
static bool arb_has_op(const struct mir_prog *p, unsigned op)
{
    for (unsigned i = 0; i < st_arb_num_opinfo; i++)
        if ((unsigned)st_arb_opinfo[i].op == op)
            return p->type == ST_VS ? st_arb_opinfo[i].vp : st_arb_opinfo[i].fp;
    return false;
}

static bool arb_src(struct build *B, const struct mir_src *s, char letter, struct st_src *o,
                    struct st_arb_operand *ao)
{
    const struct st_arb_program *a = B->sh->arb;
    memset(o, 0, sizeof(*o));
    ao->var = NULL;
    ao->array = -1;
    ao->offset = 0;
    if (s->kind == MIR_VREG)
        o->reg = reg_of_vreg(B->p, s->vreg);
    else
        o->reg = (struct st_reg){.file = s->file, .index = s->index};
    if (s->kind == MIR_FIXED && s->rel) {
        /* a[A0.x + k]: the array by name, k relative to its first slot */
        if (s->rel != 2 || !s->arr1 || s->arr1 > a->num_arrays || !a->num_addrs)
            return false;
        const struct st_arb_array *arr = &a->arrays[s->arr1 - 1];
        struct st_reladdr *ra = st_arena_alloc(B->sh->arena, sizeof(*ra));
        if (!ra)
            return false;
        ra->file = ST_REG_ADDR;
        ra->index = 0;
        ra->has_component = true;
        o->reg.rel = ra;
        ao->var = arr->name;
        ao->array = (int32_t)(s->arr1 - 1);
        ao->offset = (int32_t)s->index - (int32_t)arr->first;
    } else if (s->kind == MIR_FIXED && s->file == ST_REG_CONST && s->index < B->orig_params &&
               a->params[s->index].array >= 0 &&
               (unsigned)a->params[s->index].array < a->num_arrays) {
        /* an element of a PARAM array, named as the program did */
        const struct st_arb_array *arr = &a->arrays[a->params[s->index].array];
        ao->var = arr->name;
        ao->array = a->params[s->index].array;
        ao->offset = (int32_t)(s->index - arr->first);
    } else if (s->kind == MIR_FIXED && s->file == ST_REG_CONST && s->index < B->orig_params) {
        /* a single PARAM by its name */
        for (unsigned i = 0; i < a->num_decls; i++)
            if (a->decls[i].kind == ST_ARB_DECL_PARAM && a->decls[i].index == s->index) {
                ao->var = a->decls[i].name;
                break;
            }
    }
    switch (s->mod) {
    case MIR_MOD_NONE: break;
    case MIR_MOD_NEG: o->mod = ST_SRCMOD_NEG; break;
    default: return false; /* ARB has no other source modifier */
    }
    if (letter == 'S') { /* one component */
        o->swizzle = (uint8_t)(ST_SWZ_LANE(s->swz, 0) * 0x55);
        o->swizzle_len = 1;
    } else if (letter == 'R') {
        /* SWZ, the one 'R' operand: build_code_arb folds the swizzle and
         * the sign of the source into the selectors, the register prints
         * plain */
        o->swizzle = ST_SWIZZLE_IDENTITY;
        o->swizzle_len = 0;
    } else {
        /* a replicate prints as one component (.x), as ARB programs write it */
        o->swizzle = s->swz;
        o->swizzle_len = s->swz == ST_SWIZZLE_IDENTITY                       ? 0
                         : s->swz == 0x00 || s->swz == 0x55 || s->swz == 0xaa ||
                                   s->swz == 0xff
                             ? 1
                             : 4;
    }
    return true;
}

static struct st_instr *arb_add(struct build *B, unsigned op)
{
    struct st_instr *in = add(B, (enum st_opcode)op);
    struct st_arb_instr *ai = st_arena_alloc(B->sh->arena, sizeof(*ai));
    if (!ai)
        return NULL;
    ai->dst.array = -1;
    for (unsigned k = 0; k < 3; k++)
        ai->src[k].array = -1;
    in->arb = ai;
    return in;
}

/* The MIR as ARB instructions; false (with the reason) on what ARB cannot say. */
static bool build_code_arb(struct build *B, const char **why)
{
    const struct mir_prog *p = B->p;
    for (unsigned i = 0; i < p->n; i++) {
        const struct mir_instr *m = &p->ins[i];
        if (m->dead)
            continue;
        if (m->op == MIR_OP_MERGE) {
            for (unsigned k = 0; k < m->nsrc; k++) {
                struct st_dst d = conv_dst(B, &m->dst);
                d.writemask = m->lanes[k];
                struct st_src s;
                struct st_instr *in = arb_add(B, ST_OP_MOV);
                if (!in) {
                    *why = "out of memory";
                    return false;
                }
                if (!arb_src(B, &m->src[k], 'V', &s, &in->arb->src[0])) {
                    *why = "an operand ARB cannot state";
                    return false;
                }
                in->has_dst = true;
                in->dst = d;
                in->nsrc = 1;
                in->src[0] = s;
                B->stats->moves_left++;
                if (noop_mov(&d, &s)) { /* drop it again */
                    B->stats->moves_left--;
                    struct st_instr *prev = NULL;
                    for (struct st_instr *x = B->sh->first; x && x != in; x = x->next)
                        prev = x;
                    if (prev)
                        prev->next = NULL;
                    else
                        B->sh->first = NULL;
                    B->sh->last = prev;
                    B->sh->num_instrs--;
                }
            }
            continue;
        }
        const char *ops = arb_operands(m->op);
        if (!ops || !arb_has_op(p, m->op) || m->predicated || m->shift ||
            (m->sat && p->type != ST_PS)) {
            *why = "an instruction the program kind does not have";
            return false;
        }
        struct st_instr *in = arb_add(B, m->op);
        if (!in) {
            *why = "out of memory";
            return false;
        }
        struct st_arb_instr *ai = in->arb;
        if (m->sat)
            in->dstmod |= ST_DSTMOD_SAT;
        const char *sl = ops;
        if (*sl == 'D' || *sl == 'A') {
            if (!m->has_dst) {
                *why = "an instruction without its destination";
                return false;
            }
            in->has_dst = true;
            in->dst = conv_dst(B, &m->dst);
            if (*sl == 'A')
                in->dst.writemask = 0x1;
            sl++;
        }
        unsigned k = 0;
        for (; *sl && k < m->nsrc && k < 3; sl++) {
            if (*sl == 'U') {
                if (m->src[k].kind != MIR_FIXED || m->src[k].file != ST_REG_SAMPLER) {
                    *why = "a texture unit that is not one";
                    return false;
                }
                in->src[k].reg = (struct st_reg){.file = ST_REG_SAMPLER, .index = m->src[k].index};
                ai->tex_unit = m->src[k].index;
                ai->tex_target = (enum st_arb_tex_target)m->tex_target;
                k++;
                continue;
            }
            if (*sl == 'X' || *sl == 'T')
                continue;
            if (!arb_src(B, &m->src[k], *sl, &in->src[k], &ai->src[k])) {
                *why = "an operand ARB cannot state";
                return false;
            }
            k++;
        }
        in->nsrc = k;
        if (m->op == ST_OP_ARB_SWZ) {
            /* the source's swizzle and sign go into the selectors */
            const struct mir_src *s = &m->src[0];
            for (unsigned l = 0; l < 4; l++) {
                uint8_t sel = m->swz_sel[l];
                bool neg = (m->swz_neg >> l) & 1;
                if (sel < 4) {
                    sel = (uint8_t)ST_SWZ_LANE(s->swz, sel);
                    neg ^= s->mod == MIR_MOD_NEG;
                }
                ai->swz_sel[l] = sel;
                ai->swz_neg |= (uint8_t)(neg ? 1u << l : 0);
            }
            in->src[0].swizzle = ST_SWIZZLE_IDENTITY;
            in->src[0].swizzle_len = 0;
            in->src[0].mod = ST_SRCMOD_NONE;
        }
        if (in->has_dst && m->op == ST_OP_MOV && !m->sat && noop_mov(&in->dst, &in->src[0])) {
            struct st_instr *prev = NULL;
            for (struct st_instr *x = B->sh->first; x && x != in; x = x->next)
                prev = x;
            if (prev)
                prev->next = NULL;
            else
                B->sh->first = NULL;
            B->sh->last = prev;
            B->sh->num_instrs--;
        }
    }
    return true;
}

static bool name_taken(const struct st_arb_program *a, const char *n)
{
    for (unsigned i = 0; i < a->num_decls; i++)
        if (a->decls[i].name && strcmp(a->decls[i].name, n) == 0)
            return true;
    return false;
}

/*
 * The tables of the new program: the original's options, inputs, outputs,
 * arrays and address registers as they are; its parameters plus the new
 * literals; its declarations without the TEMPs (and the ALIASes of them),
 * then one TEMP per allocated register under a name no declaration of the
 * program uses.
 */
static bool build_arb_tables(struct build *B, const struct st_shader *sh)
{
    const struct mir_prog *p = B->p;
    const struct st_arb_program *o = sh->arb;
    struct st_arena *ar = B->sh->arena;
    struct st_arb_program *a = st_arena_alloc(ar, sizeof(*a));
    if (!a)
        return false;
    *a = *o;
    uint32_t np = o->num_params;
    for (unsigned k = 0; k < p->ndefs; k++)
        if (p->defs[k].index >= np)
            np = p->defs[k].index + 1;
    a->params = st_arena_alloc(ar, sizeof(*a->params) * (np ? np : 1));
    if (!a->params)
        return false;
    if (o->num_params)
        memcpy(a->params, o->params, sizeof(*a->params) * o->num_params);
    for (unsigned k = 0; k < p->ndefs; k++) {
        uint32_t x = p->defs[k].index;
        if (x < o->num_params)
            continue;
        a->params[x].kind = ST_ARB_PARAM_CONST;
        memcpy(a->params[x].value, p->defs[k].f, sizeof(a->params[x].value));
        a->params[x].array = -1;
        a->params[x].loc = o->end_loc;
    }
    a->num_params = np;
    B->orig_params = o->num_params;
    unsigned nt = p->phys_temps;
    a->temps = st_arena_alloc(ar, sizeof(*a->temps) * (nt ? nt : 1));
    a->decls = st_arena_alloc(ar, sizeof(*a->decls) * (o->num_decls + nt + 1));
    int32_t *remap = st_arena_alloc(ar, sizeof(*remap) * (o->num_decls + 1));
    if (!a->temps || !a->decls || !remap)
        return false;
    a->num_decls = 0;
    for (unsigned i = 0; i < o->num_decls; i++) {
        const struct st_arb_decl *d = &o->decls[i];
        remap[i] = -1;
        if (d->kind == ST_ARB_DECL_TEMP)
            continue;
        if (d->kind == ST_ARB_DECL_ALIAS && (d->index >= i || remap[d->index] < 0))
            continue;
        a->decls[a->num_decls] = *d;
        if (d->kind == ST_ARB_DECL_ALIAS)
            a->decls[a->num_decls].index = (uint32_t)remap[d->index];
        remap[i] = (int32_t)a->num_decls++;
    }
    a->num_temps = nt;
    for (unsigned t = 0; t < nt; t++) {
        char *n = st_arena_printf(ar, "r%u", t);
        while (n && name_taken(o, n))
            n = st_arena_printf(ar, "%s_", n);
        if (!n)
            return false;
        a->temps[t] = n;
        a->decls[a->num_decls++] = (struct st_arb_decl){.kind = ST_ARB_DECL_TEMP, .name = n,
                                                         .index = t, .loc = o->end_loc};
    }
    B->sh->arb = a;
    return true;
}

/* An else with nothing before its endif (its copies all coalesced away) goes. */
static void drop_empty_else(struct st_shader *sh)
{
    struct st_instr *prev = NULL;
    for (struct st_instr *i = sh->first; i;) {
        struct st_instr *next = i->next;
        if (i->op == ST_OP_ELSE && next && next->op == ST_OP_ENDIF) {
            if (prev)
                prev->next = next;
            else
                sh->first = next;
            sh->num_instrs--;
        } else {
            prev = i;
        }
        i = next;
    }
}

static unsigned count_code(const struct st_shader *sh)
{
    unsigned n = 0;
    for (const struct st_instr *i = sh->first; i; i = i->next)
        if (!(st_opinfo[i->op].flags & OPF_DECL))
            n++;
    return n;
}

static unsigned count_temps(const struct st_shader *sh)
{
    bool used[256] = {false};
    unsigned n = 0;
    if (sh->version.type == ST_PS && sh->version.ver < ST_VER(2, 0)) {
        /* ps_1_x: r0 is the colour output, named or not */
        used[0] = true;
        n = 1;
    }
    for (const struct st_instr *i = sh->first; i; i = i->next) {
        if (i->has_dst && i->dst.reg.file == ST_REG_TEMP && i->dst.reg.index < 256 &&
            !used[i->dst.reg.index]) {
            used[i->dst.reg.index] = true;
            n++;
        }
        for (unsigned k = 0; k < i->nsrc && k < 5; k++)
            if (i->src[k].reg.file == ST_REG_TEMP && i->src[k].reg.index < 256 &&
                !used[i->src[k].reg.index]) {
                used[i->src[k].reg.index] = true;
                n++;
            }
    }
    return n;
}

/* Parses and checks the text again; the first error becomes ours. */
static bool recheck(struct st_ctx *ctx, const struct st_shader *orig, const char *text, size_t len)
{
    struct st_ctx *c2 = st_ctx_create("vasm", text, len, 5);
    struct st_arena *a2 = st_arena_create();
    if (a2 && c2)
        st_arena_report_to(a2, c2);
    if (c2)
        st_ctx_set_limits(c2, st_ctx_limits(ctx)); /* its work counts too */
    if (!c2 || !a2) {
        st_ctx_destroy(c2);
        st_arena_destroy(a2);
        st_error(ctx, orig->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    bool arb = orig->dialect == ST_ARB;
    struct st_shader *sh2 = arb ? st_parse_arb(c2, a2) : st_parse_d3d9(c2, a2);
    bool ok = sh2 && st_error_count(c2) == 0 && (arb ? st_check_arb(c2, sh2) : st_check(c2, sh2));
    if (!ok && st_ctx_out_of_memory(c2)) {
        st_error(ctx, orig->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
    } else if (!ok && st_poll(ctx, 0)) { /* (a budget or cancel stop is reported as such) */
        struct st_loc where = {0, 0};
        const char *msg = st_ctx_first_error(c2, &where);
        st_error(ctx, orig->version.loc, ST_E_NOT_SUPPORTED,
                 "the vector back end produced assembly that does not check (line %u: %s)",
                 where.line, msg ? msg : "?");
    }
    st_arena_destroy(a2);
    st_ctx_destroy(c2);
    return ok;
}

bool st_vasm_emit(struct st_ctx *ctx, const struct st_shader *sh, struct st_buf *out,
                  struct st_merge_stats *stats_out)
{
    struct st_merge_stats stats;
    memset(&stats, 0, sizeof(stats));
    if (!sh)
        return false;
    stats.instrs_in = count_code(sh);
    stats.temps_in = count_temps(sh);
    LLVMContextRef llctx = LLVMContextCreate();
    /* derivatives as calls (the vector machine has them), the ops without an
     * LLVM-level shape of their own as marker calls */
    unsigned lflags = ST_LOWER_OP_CALLS | ST_LOWER_FENCE_MUL;
    if (sh->version.type == ST_PS)
        lflags |= ST_LOWER_DERIV_CALLS;
    if (sh->version.type == ST_PS && sh->version.ver < ST_VER(2, 0))
        lflags |= ST_LOWER_OPAQUE_TEX;
    LLVMModuleRef m = st_lower_llvm_ex(ctx, sh, ST_FLOAT_IEEE, lflags, llctx);
    if (!m) {
        LLVMContextDispose(llctx);
        return false;
    }
    bool ok = st_poll(ctx, stats.instrs_in * 16); /* LLVM's passes: charged before */
    if (!ok) {
        LLVMDisposeModule(m);
        LLVMContextDispose(llctx);
        return false;
    }
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMErrorRef err = LLVMRunPasses(m, vasm_pipeline, NULL, po);
    LLVMValueRef mainfn = LLVMGetNamedFunction(m, "st_main");
    /* products both float rules agree on, folded; then the cleanups again */
    for (unsigned round = 0; !err && mainfn && round < 32 && fold_safe_products(mainfn); round++)
        err = LLVMRunPasses(m, "function(instsimplify,dce)", NULL, po);
    if (!err && mainfn)
        drop_fences(mainfn);
    LLVMDisposePassBuilderOptions(po);
    if (err) {
        char *msg = LLVMGetErrorMessage(err);
        st_error(ctx, sh->version.loc, ST_E_NOT_SUPPORTED, "LLVM passes failed: %s", msg);
        LLVMDisposeErrorMessage(msg);
        ok = false;
    }
    struct mir_prog prog;
    memset(&prog, 0, sizeof(prog));
    if (ok)
        ok = st_merge_select(ctx, sh, m, &prog, &stats);
    LLVMDisposeModule(m);
    LLVMContextDispose(llctx);
    if (ok) {
        ok = mir_split_merge_inputs(&prog, &stats);
        if (ok) {
            stats.copies_folded += mir_fold_copies(&prog);
            stats.copies_folded += mir_sink_predicated(&prog);
        }
        else
            st_error(ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
        ok = ok && st_poll(ctx, prog.n) && mir_coalesce(ctx, &prog, &stats);
        if (ok)
            mir_fold_outputs(&prog);
        if (ok && !mir_legalize_swizzles(&prog)) {
            st_error(ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
            ok = false;
        }
    }
    if (ok)
        ok = st_poll(ctx, prog.n) && mir_regalloc(ctx, &prog, st_merge_max_temps(sh));
    /* before fusing: an m3x3 reads rows the MIR names only by the first,
     * and virtual def indices are not yet the registers they will be */
    if (ok && !mir_place_ps1x_defs(&prog, 8)) {
        st_error(ctx, sh->version.loc, ST_E_NOT_SUPPORTED,
                 "the vector program needs more constant registers than the model has");
        ok = false;
    }
    if (ok && !prog.arb) /* ARB has no m4x4 & co. */
        mir_fuse_matrices(&prog);
    if (ok) {
        struct st_shader nsh;
        memset(&nsh, 0, sizeof(nsh));
        nsh.dialect = sh->dialect;
        nsh.version = sh->version;
        nsh.arena = st_arena_create();
        struct build B = {.p = &prog, .sh = &nsh, .stats = &stats};
        if (!nsh.arena || prog.oom) { /* (the merge stage lost something for want of memory) */
            st_error(ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
            st_arena_destroy(nsh.arena);
            ok = false;
        } else if (sh->dialect == ST_ARB) {
            const char *why = "out of memory";
            ok = build_arb_tables(&B, sh) && build_code_arb(&B, &why);
            if (st_arena_failed(nsh.arena)) {
                st_error(ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
                ok = false;
            } else if (!ok)
                st_error(ctx, sh->version.loc, ST_E_NOT_SUPPORTED,
                         "the vector back end cannot print this as an ARB program: %s", why);
            struct st_buf text = {0};
            if (ok) {
                stats.instrs_out = count_code(&nsh);
                stats.temps_out = count_temps(&nsh);
                st_print_arb(&nsh, &text);
                if (text.oom) {
                    st_error(ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
                    ok = false;
                } else {
                    ok = recheck(ctx, sh, text.data ? text.data : "", text.len);
                }
            }
            if (ok)
                st_buf_printf(out, "%.*s", (int)text.len, text.data ? text.data : "");
            st_buf_free(&text);
            st_arena_destroy(nsh.arena);
        } else {
            for (const struct st_instr *i = sh->first; i; i = i->next) {
                if (!(st_opinfo[i->op].flags & OPF_DECL) || i->op == ST_OP_DEF)
                    continue;
                struct st_instr *c = add(&B, i->op);
                struct st_instr *keep = c->next;
                *c = *i;
                c->next = keep;
            }
            for (unsigned k = 0; k < prog.ndefis; k++) {
                struct st_instr *c = add(&B, ST_OP_DEFI);
                c->has_dst = true;
                c->dst.reg.file = ST_REG_CONSTINT;
                c->dst.reg.index = prog.defis[k].index;
                c->dst.writemask = 0xf;
                memcpy(c->imm.i, prog.defis[k].v, sizeof(c->imm.i));
            }
            for (unsigned k = 0; k < prog.ndefs; k++) {
                struct st_instr *c = add(&B, ST_OP_DEF);
                c->has_dst = true;
                c->dst.reg.file = ST_REG_CONST;
                c->dst.reg.index = prog.defs[k].index;
                c->dst.writemask = 0xf;
                memcpy(c->imm.f, prog.defs[k].f, sizeof(c->imm.f));
            }
            build_code(&B);
            drop_empty_else(&nsh);
            stats.instrs_out = count_code(&nsh);
            stats.temps_out = count_temps(&nsh);
            struct st_buf text = {0};
            if (!st_arena_failed(nsh.arena))
                st_print_asm(&nsh, &text);
            if (text.oom || st_arena_failed(nsh.arena)) {
                st_error(ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
                ok = false;
            } else {
                ok = recheck(ctx, sh, text.data ? text.data : "", text.len);
            }
            if (ok)
                st_buf_printf(out, "%.*s", (int)text.len, text.data ? text.data : "");
            st_buf_free(&text);
            st_arena_destroy(nsh.arena);
        }
    }
    mir_free(&prog);
    if (stats_out)
        *stats_out = stats;
    return ok;
}
