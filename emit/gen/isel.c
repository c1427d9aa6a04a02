/*
 * gen/isel.c — instruction selection: the optimized LLVM IR of st_main
 * (after the passes/ pipeline, with its st.uniform marks) to the Gen IR.
 *
 * Scalarised per lane (SOA): a <4 x float> value is four components, each
 * a vreg of one dword per channel (or one dword in all, when uniform).
 * Shuffles, insert/extractelement, bitcasts and fpext/fptrunc only rename
 * components, so the writemask merges of the lowering cost nothing.
 * fneg/fabs fold into source modifiers, the saturate pattern
 * (select-olt-1 of select-ogt-0) into (sat), select-of-compare of the same
 * operands into sel with a conditional modifier (min/max).
 *
 * The ABI pointers of st_main become the thread payload: loads from `in`
 * read vertex attributes (VS) or interpolate with pln (PS), loads from
 * `c`/`i`/`b`/`bump` at constant offsets read pushed constants (CURBE) as
 * scalar regions, a load from `c` at a run-time index is an untyped
 * surface read, calls to st_sample are sampler messages, and the stores
 * to `out`/`status` are collected for the URB / render target writes of
 * gen/kernel.c.  docs/gen-abi.md is the contract.
 *
 * Control flow: the CFG is emitted as Gen's structured if/else/endif and
 * loops (label ... while) with break/cont, recovered from dominators (loop
 * headers, one exit per loop) and post-dominators (the join of each
 * conditional branch).  Phi nodes become moves on the edges; moves on an
 * edge taken by some channels only (a conditional break) are predicated.
 * A CFG this cannot express is a located ST_E_NOT_SUPPORTED.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "isel.h"
#include "passes.h"

/* ------------------------------------------------------------------ */
/* Value map.                                                          */

struct vmap {
    LLVMValueRef key;
    uint8_t n;
    bool forward; /* created by a forward reference; the definition writes into it */
    bool done;
    struct gen_opnd c[4];
};

struct loop {
    int header, exit;
    uint64_t *blocks; /* bitset over blocks */
};

struct ctxf { /* a region context: the function, or one loop */
    struct loop *loop;
};

struct isel {
    struct st_ctx *ctx;
    const struct st_shader *sh;
    struct gen_program *p;
    struct gen_kernel_info *ki;
    LLVMValueRef fn;
    LLVMValueRef args[9];
    bool failed;

    struct vmap *map;
    unsigned map_cap, map_n;

    LLVMBasicBlockRef *bb;
    unsigned nb, words;
    unsigned *succ[2];
    unsigned *nsucc;
    uint64_t *dom;       /* nb x words */
    struct loop *loops;
    unsigned nloops;
    int *loop_of_header; /* index into loops, -1 */
    bool *emitted;

    /* per-context post-dominators, computed on demand */
    struct loop *pd_loop;
    bool pd_valid;
    uint64_t *pd; /* (nb + 3) x pwords */
    unsigned pwords;

    /*
     * st_sample results: the texel alloca is memory, written by every
     * sample call (the passes may merge the calls of both sides of a
     * branch into one alloca and one load after it), so each alloca is a
     * variable of 4 divergent vregs, written by a masked mov after each
     * sample (only the channels that sampled) and copied by each load.
     */
    LLVMValueRef texel_ptr[8];
    uint32_t texel_var[8][4];
    unsigned ntexel;
};

static void fail(struct isel *I, const char *what)
{
    if (!I->failed)
        st_error(I->ctx, I->sh->version.loc, ST_E_NOT_SUPPORTED,
                 "%s is not supported by the Gen9 back end", what);
    I->failed = true;
}

/* Memory ran out: that, not "not supported" (a caller may try again). */
static void fail_oom(struct isel *I)
{
    if (!I->failed)
        st_error(I->ctx, I->sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
    I->p->oom = true;
    I->failed = true;
}

static size_t hptr(const void *p, size_t cap)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 17;
    x *= (uintptr_t)0x9e3779b97f4a7c15ull;
    return (size_t)(x >> 11) & (cap - 1);
}

static struct vmap *map_find(struct isel *I, LLVMValueRef v, bool create)
{
    if (create && (I->map_n + 1) * 2 > I->map_cap) {
        unsigned ncap = I->map_cap ? I->map_cap * 2 : 1024;
        struct vmap *nm = calloc(ncap, sizeof(*nm));
        if (!nm) {
            I->p->oom = true;
            fail_oom(I);
            return NULL;
        }
        for (unsigned k = 0; k < I->map_cap; k++)
            if (I->map[k].key)
                for (size_t j = hptr(I->map[k].key, ncap);; j = (j + 1) & (ncap - 1))
                    if (!nm[j].key) {
                        nm[j] = I->map[k];
                        break;
                    }
        free(I->map);
        I->map = nm;
        I->map_cap = ncap;
    }
    if (!I->map_cap)
        return NULL;
    for (size_t j = hptr(v, I->map_cap);; j = (j + 1) & (I->map_cap - 1)) {
        if (I->map[j].key == v)
            return &I->map[j];
        if (!I->map[j].key) {
            if (!create)
                return NULL;
            memset(&I->map[j], 0, sizeof(I->map[j]));
            I->map[j].key = v;
            I->map_n++;
            return &I->map[j];
        }
    }
}

/* ------------------------------------------------------------------ */
/* Types and constants.                                                */

static unsigned lanes_of(LLVMTypeRef t)
{
    return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetVectorSize(t) : 1;
}

static LLVMTypeRef elem_of(LLVMTypeRef t)
{
    return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
}

static bool is_float_ty(LLVMTypeRef t)
{
    LLVMTypeKind k = LLVMGetTypeKind(elem_of(t));
    return k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind || k == LLVMHalfTypeKind;
}

static enum gen_type gtype(LLVMTypeRef t)
{
    return is_float_ty(t) ? GT_F : GT_D;
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Component `lane` of a constant as an immediate. */
static struct gen_opnd const_lane(LLVMValueRef v, unsigned lane)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    enum gen_type gt = gtype(t);
    LLVMValueRef e = v;
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
        if (LLVMIsUndef(v) || LLVMIsPoison(v) || LLVMIsAConstantAggregateZero(v))
            return gen_imm(0, gt);
        e = LLVMGetAggregateElement(v, lane);
        if (!e)
            return gen_imm(0, gt);
    }
    if (LLVMIsUndef(e) || LLVMIsPoison(e) || LLVMIsAConstantAggregateZero(e))
        return gen_imm(0, gt);
    if (LLVMIsAConstantFP(e)) {
        LLVMBool lost;
        double d = LLVMConstRealGetDouble(e, &lost);
        return gen_imm(fbits((float)d), GT_F);
    }
    if (LLVMIsAConstantInt(e)) {
        unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(e));
        long long x = LLVMConstIntGetSExtValue(e);
        if (w == 1)
            return gen_imm(x ? 0xFFFFFFFFu : 0u, GT_D);
        return gen_imm((uint32_t)x, GT_D);
    }
    if (LLVMIsNull(e))
        return gen_imm(0, gt);
    return gen_imm(0, gt);
}

static bool const_lane_f(LLVMValueRef v, unsigned lane, float *out)
{
    if (!LLVMIsConstant(v))
        return false;
    LLVMValueRef e = v;
    if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind) {
        if (LLVMIsAConstantAggregateZero(v)) {
            *out = 0.0f;
            return true;
        }
        e = LLVMGetAggregateElement(v, lane);
    }
    if (!e || !LLVMIsAConstantFP(e))
        return e && LLVMIsAConstantAggregateZero(e) ? (*out = 0.0f, true) : false;
    LLVMBool lost;
    *out = (float)LLVMConstRealGetDouble(e, &lost);
    return true;
}

/* ------------------------------------------------------------------ */
/* Operands and emission helpers.                                      */

static bool opnd_uniform(const struct isel *I, const struct gen_opnd *o)
{
    if (o->kind == GO_IMM)
        return true;
    if (o->kind == GO_FIXED)
        return o->region == GR_SCALAR;
    if (o->kind == GO_VREG)
        return o->region != GR_VEC && I->p->vreg[o->vreg].uniform;
    return false;
}

static bool opnd_eq(const struct gen_opnd *a, const struct gen_opnd *b)
{
    return a->kind == b->kind && a->vreg == b->vreg && a->off == b->off && a->imm == b->imm &&
           a->neg == b->neg && a->abs == b->abs && a->region == b->region;
}

static struct gen_inst *emit(struct isel *I, enum gen_op op, bool uniform)
{
    struct gen_inst *i = gen_append(I->p);
    i->op = (uint8_t)op;
    i->exec = uniform ? 1 : (uint8_t)I->p->simd;
    i->nomask = uniform;
    i->jip = i->uip = -1;
    return i;
}

static uint32_t new_val(struct isel *I, bool uniform)
{
    return gen_new_vreg(I->p, uniform ? 4 : gen_dsize(I->p), uniform);
}

/* An immediate in a register (sources that cannot take one). */
static struct gen_opnd materialize(struct isel *I, struct gen_opnd o)
{
    if (o.kind != GO_IMM)
        return o;
    uint32_t v = new_val(I, true);
    struct gen_inst *m = emit(I, GOP_MOV, true);
    m->dst = gen_vr(v, 0, o.type);
    m->src[0] = o;
    return gen_vr(v, 0, o.type);
}

/* The operand retyped for a use; modifiers on a non-float use are applied first. */
static struct gen_opnd as_type(struct isel *I, struct gen_opnd o, enum gen_type t)
{
    if ((o.neg || o.abs) && o.type == GT_F && t != GT_F) {
        if (o.kind == GO_IMM) {
            float f;
            memcpy(&f, &o.imm, 4);
            if (o.abs)
                f = fabsf(f);
            if (o.neg)
                f = -f;
            o = gen_imm(fbits(f), GT_F);
        } else {
            bool u = opnd_uniform(I, &o);
            uint32_t v = new_val(I, u);
            struct gen_inst *m = emit(I, GOP_MOV, u);
            m->dst = gen_vr(v, 0, GT_F);
            m->src[0] = o;
            o = gen_vr(v, 0, GT_F);
        }
    }
    if (o.kind == GO_IMM && (o.neg || o.abs) && o.type == GT_F) {
        float f;
        memcpy(&f, &o.imm, 4);
        if (o.abs)
            f = fabsf(f);
        if (o.neg)
            f = -f;
        o = gen_imm(fbits(f), GT_F);
    }
    o.type = (uint8_t)t;
    return o;
}


/* Lanes of a vector result somebody reads (passes/ lane demand); the rest are never computed. */
static unsigned demanded(LLVMValueRef v)
{
    if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind || !LLVMIsAInstruction(v))
        return 0xf;
    return st_llvm_lanes(v) & 0xf;
}

/* Components of a value (constants become immediates). */
static const struct gen_opnd *val(struct isel *I, LLVMValueRef v, unsigned *n)
{
    static const struct gen_opnd zero[4];
    *n = lanes_of(LLVMTypeOf(v));
    if (*n > 4) {
        fail(I, "a vector wider than 4");
        *n = 4;
        return zero;
    }
    if (LLVMIsConstant(v) && !LLVMIsAGlobalValue(v)) {
        struct vmap *m = map_find(I, v, true);
        if (!m)
            return zero;
        if (!m->done) {
            m->n = (uint8_t)*n;
            for (unsigned k = 0; k < *n; k++)
                m->c[k] = const_lane(v, k);
            m->done = true;
        }
        return m->c;
    }
    struct vmap *m = map_find(I, v, true);
    if (!m)
        return zero;
    if (!m->done && !m->forward) {
        /* a forward reference (a phi's value from a back edge): vregs now, the definition fills them */
        unsigned dem = demanded(v);
        m->n = (uint8_t)*n;
        m->forward = true;
        for (unsigned k = 0; k < *n; k++)
            m->c[k] = (dem >> k) & 1 ? gen_vr(new_val(I, false), 0, gtype(LLVMTypeOf(v)))
                                     : gen_imm(0, gtype(LLVMTypeOf(v)));
    }
    return m->c;
}

static struct gen_opnd lane(struct isel *I, LLVMValueRef v, unsigned k)
{
    unsigned n;
    const struct gen_opnd *c = val(I, v, &n);
    return k < n ? c[k] : gen_imm(0, gtype(LLVMTypeOf(v)));
}

/*
 * Where the result of v goes: the forward-declared vregs, or fresh ones
 * (uniform when every source is).  Returns the map entry.
 */
static struct vmap *def(struct isel *I, LLVMValueRef v, const bool uniform[4])
{
    struct vmap *m = map_find(I, v, true);
    if (!m)
        return NULL;
    unsigned n = lanes_of(LLVMTypeOf(v));
    if (!m->forward) {
        unsigned dem = demanded(v);
        m->n = (uint8_t)n;
        for (unsigned k = 0; k < n && k < 4; k++)
            m->c[k] = (dem >> k) & 1 ? gen_vr(new_val(I, uniform[k]), 0, gtype(LLVMTypeOf(v)))
                                     : gen_imm(0, gtype(LLVMTypeOf(v)));
    }
    m->done = true;
    return m;
}

/* Binds v to existing operands (a rename); forward-declared vregs get moves. */
static void bind(struct isel *I, LLVMValueRef v, const struct gen_opnd *c, unsigned n)
{
    struct vmap *m = map_find(I, v, true);
    if (!m)
        return;
    if (m->forward) {
        for (unsigned k = 0; k < n && k < m->n; k++) {
            if (m->c[k].kind != GO_VREG)
                continue;
            struct gen_inst *i = emit(I, GOP_MOV, false);
            i->dst = m->c[k];
            i->src[0] = as_type(I, c[k], (enum gen_type)m->c[k].type);
        }
        m->done = true;
        return;
    }
    m->n = (uint8_t)n;
    for (unsigned k = 0; k < n && k < 4; k++)
        m->c[k] = c[k];
    m->done = true;
}

/* A 1- or 2-source ALU op on components, with the legalisation Gen wants. */
static void alu(struct isel *I, enum gen_op op, struct gen_opnd dst, struct gen_opnd a,
                struct gen_opnd b, bool sat)
{
    bool u = dst.kind == GO_VREG && I->p->vreg[dst.vreg].uniform;
    unsigned nsrc = gen_op_info[op].nsrc;
    if (nsrc == 2) {
        bool comm = op == GOP_ADD || op == GOP_MUL || op == GOP_AND || op == GOP_OR ||
                    op == GOP_XOR;
        if (a.kind == GO_IMM && b.kind != GO_IMM && comm) {
            struct gen_opnd t = a;
            a = b;
            b = t;
        }
        if (a.kind == GO_IMM)
            a = materialize(I, a);
        if (op == GOP_MATH)
            b = materialize(I, b);
    } else if (op != GOP_MOV) {
        a = materialize(I, a);
    }
    struct gen_inst *i = emit(I, op, u);
    i->dst = dst;
    i->src[0] = a;
    if (nsrc == 2)
        i->src[1] = b;
    i->sat = sat;
}

static void math(struct isel *I, enum gen_math fn, struct gen_opnd dst, struct gen_opnd a,
                 struct gen_opnd b)
{
    bool u = I->p->vreg[dst.vreg].uniform;
    a = materialize(I, a);
    if (b.kind != GO_NONE)
        b = materialize(I, b);
    struct gen_inst *i = emit(I, GOP_MATH, u);
    i->math = (uint8_t)fn;
    i->dst = dst;
    i->src[0] = a;
    i->src[1] = b;
}

/* ------------------------------------------------------------------ */
/* Comparisons.                                                        */

struct cmpinfo {
    enum gen_cmod cmod;
    bool invert; /* the LLVM predicate is the negation of cmod */
    bool self;   /* uno/ord: compare operand 0 with itself */
    bool diff;   /* one/ueq: compare |a - b| > 0 (cmod GC_GT) */
    enum gen_type type;
};

static bool cmp_info(LLVMValueRef c, struct cmpinfo *ci)
{
    memset(ci, 0, sizeof(*ci));
    if (LLVMGetInstructionOpcode(c) == LLVMFCmp) {
        ci->type = GT_F;
        switch (LLVMGetFCmpPredicate(c)) {
        case LLVMRealOEQ: ci->cmod = GC_EQ; break;
        case LLVMRealOGT: ci->cmod = GC_GT; break;
        case LLVMRealOGE: ci->cmod = GC_GE; break;
        case LLVMRealOLT: ci->cmod = GC_LT; break;
        case LLVMRealOLE: ci->cmod = GC_LE; break;
        case LLVMRealUNE: ci->cmod = GC_NE; break;
        /* cmp.ne is true and cmp.eq false when a source is NaN, the
         * opposite of one/ueq (instcombine makes fabs(x) > 0 into
         * x one 0: sgn of NaN gave 1, fuzz seed 2565).  With denormals
         * kept a - b is 0 only for equal a and b, and NaN when either is
         * NaN or both are the same infinity, so one is |a - b| > 0 and
         * ueq its negation. */
        case LLVMRealONE: ci->cmod = GC_GT; ci->diff = true; break;
        case LLVMRealUEQ: ci->cmod = GC_GT; ci->diff = true; ci->invert = true; break;
        case LLVMRealUGT: ci->cmod = GC_LE; ci->invert = true; break;
        case LLVMRealUGE: ci->cmod = GC_LT; ci->invert = true; break;
        case LLVMRealULT: ci->cmod = GC_GE; ci->invert = true; break;
        case LLVMRealULE: ci->cmod = GC_GT; ci->invert = true; break;
        case LLVMRealUNO: ci->cmod = GC_NE; ci->self = true; break;
        case LLVMRealORD: ci->cmod = GC_EQ; ci->self = true; break;
        default: return false;
        }
        return true;
    }
    if (LLVMGetInstructionOpcode(c) == LLVMICmp) {
        ci->type = GT_D;
        switch (LLVMGetICmpPredicate(c)) {
        case LLVMIntEQ: ci->cmod = GC_EQ; break;
        case LLVMIntNE: ci->cmod = GC_NE; break;
        case LLVMIntSGT: ci->cmod = GC_GT; break;
        case LLVMIntSGE: ci->cmod = GC_GE; break;
        case LLVMIntSLT: ci->cmod = GC_LT; break;
        case LLVMIntSLE: ci->cmod = GC_LE; break;
        case LLVMIntUGT: ci->cmod = GC_GT; ci->type = GT_UD; break;
        case LLVMIntUGE: ci->cmod = GC_GE; ci->type = GT_UD; break;
        case LLVMIntULT: ci->cmod = GC_LT; ci->type = GT_UD; break;
        case LLVMIntULE: ci->cmod = GC_LE; ci->type = GT_UD; break;
        default: return false;
        }
        return true;
    }
    return false;
}

static enum gen_cmod swap_cmod(enum gen_cmod c)
{
    switch (c) {
    case GC_GT: return GC_LT;
    case GC_GE: return GC_LE;
    case GC_LT: return GC_GT;
    case GC_LE: return GC_GE;
    default: return c;
    }
}

/* A compare on lane k of cmp instruction c writing dst (a vreg or null, flag f0.0). */
static struct gen_inst *emit_cmp(struct isel *I, LLVMValueRef c, unsigned k, struct gen_opnd dst,
                                 bool uniform, bool *invert)
{
    struct cmpinfo ci;
    if (!cmp_info(c, &ci)) {
        fail(I, "this comparison");
        return NULL;
    }
    struct gen_opnd a = as_type(I, lane(I, LLVMGetOperand(c, 0), k), ci.type);
    struct gen_opnd b = ci.self ? a : as_type(I, lane(I, LLVMGetOperand(c, 1), k), ci.type);
    enum gen_cmod cm = ci.cmod;
    if (ci.diff) {
        struct gen_opnd t = gen_vr(new_val(I, uniform), 0, GT_F), nb = b;
        nb.neg = !nb.neg;
        alu(I, GOP_ADD, t, a, nb, false);
        a = t;
        a.abs = true;
        b = gen_imm(0, GT_F);
    }
    if (a.kind == GO_IMM && b.kind != GO_IMM) {
        struct gen_opnd t = a;
        a = b;
        b = t;
        cm = swap_cmod(cm);
    }
    if (a.kind == GO_IMM)
        a = materialize(I, a);
    struct gen_inst *i = emit(I, GOP_CMP, uniform);
    i->cmod = (uint8_t)cm;
    i->dst = dst;
    if (dst.kind == GO_NULL)
        i->dst.type = (uint8_t)ci.type;
    i->src[0] = a;
    i->src[1] = b;
    *invert = ci.invert;
    return i;
}

/* Sets f0.0 from lane k of the i1 value c; returns whether the flag is inverted. */
static bool cond_flag(struct isel *I, LLVMValueRef c, unsigned k, bool uniform)
{
    bool inv = false;
    if (LLVMIsAInstruction(c) &&
        (LLVMGetInstructionOpcode(c) == LLVMFCmp || LLVMGetInstructionOpcode(c) == LLVMICmp)) {
        emit_cmp(I, c, k, gen_null(GT_F), uniform, &inv);
        return inv;
    }
    struct gen_opnd o = as_type(I, lane(I, c, k), GT_D);
    o = materialize(I, o);
    struct gen_inst *i = emit(I, GOP_CMP, uniform);
    i->cmod = GC_NE;
    i->dst = gen_null(GT_D);
    i->src[0] = o;
    i->src[1] = gen_imm(0, GT_D);
    return false;
}

/* ------------------------------------------------------------------ */
/* Instructions.                                                       */

static bool all_uniform(struct isel *I, LLVMValueRef inst, unsigned k)
{
    unsigned n = (unsigned)LLVMGetNumOperands(inst);
    for (unsigned s = 0; s < n; s++) {
        LLVMValueRef o = LLVMGetOperand(inst, s);
        if (LLVMIsABasicBlock(o) || LLVMIsAFunction(o))
            continue;
        struct gen_opnd x = lane(I, o, lanes_of(LLVMTypeOf(o)) > 1 ? k : 0);
        if (!opnd_uniform(I, &x))
            return false;
    }
    return true;
}

/* select(fcmp olt m 1, m, 1) with m = select(fcmp ogt x 0, x, 0): x with (sat). */
static bool sat_source(struct isel *I, LLVMValueRef sel, unsigned k, struct gen_opnd *out)
{
    LLVMValueRef c = LLVMGetOperand(sel, 0), m = LLVMGetOperand(sel, 1), one = LLVMGetOperand(sel, 2);
    float f;
    if (!LLVMIsAFCmpInst(c) || LLVMGetFCmpPredicate(c) != LLVMRealOLT ||
        LLVMGetOperand(c, 0) != m || !const_lane_f(LLVMGetOperand(c, 1), k, &f) || f != 1.0f ||
        !const_lane_f(one, k, &f) || f != 1.0f)
        return false;
    if (!LLVMIsASelectInst(m))
        return false;
    LLVMValueRef c2 = LLVMGetOperand(m, 0), x = LLVMGetOperand(m, 1), zero = LLVMGetOperand(m, 2);
    if (!LLVMIsAFCmpInst(c2) || LLVMGetFCmpPredicate(c2) != LLVMRealOGT ||
        LLVMGetOperand(c2, 0) != x || !const_lane_f(LLVMGetOperand(c2, 1), k, &f) || f != 0.0f ||
        !const_lane_f(zero, k, &f) || f != 0.0f)
        return false;
    if (lanes_of(LLVMTypeOf(c)) != lanes_of(LLVMTypeOf(sel)) ||
        lanes_of(LLVMTypeOf(c2)) != lanes_of(LLVMTypeOf(m)))
        return false;
    *out = lane(I, x, k);
    return true;
}

static void emit_select(struct isel *I, LLVMValueRef v)
{
    unsigned n = lanes_of(LLVMTypeOf(v));
    LLVMValueRef c = LLVMGetOperand(v, 0);
    bool vec_cond = lanes_of(LLVMTypeOf(c)) > 1;
    bool uni[4] = {false, false, false, false};
    for (unsigned k = 0; k < n; k++)
        uni[k] = all_uniform(I, v, k);
    enum gen_type t = gtype(LLVMTypeOf(v));
    /* operands first: their materialisation must not land between cmp and sel */
    struct gen_opnd x[4], y[4], satsrc[4];
    bool issat[4];
    for (unsigned k = 0; k < n; k++) {
        issat[k] = t == GT_F && sat_source(I, v, k, &satsrc[k]);
        x[k] = as_type(I, lane(I, LLVMGetOperand(v, 1), k), t);
        y[k] = as_type(I, lane(I, LLVMGetOperand(v, 2), k), t);
    }
    struct vmap *m = def(I, v, uni);
    if (!m)
        return;
    /* a copy: lane() below may grow the value map and move *m (ASan, fuzz) */
    struct gen_opnd dv[4];
    memcpy(dv, m->c, sizeof(dv));
    bool flag_set = false, flag_uniform = false, flag_inv = false;
    for (unsigned k = 0; k < n; k++) {
        struct gen_opnd d = dv[k];
        if (d.kind != GO_VREG)
            continue;
        if (issat[k]) {
            /* x + 0 before the clamp: -0 becomes +0 as the interpreter's
             * saturate gives, whatever (sat) does with -0 (the simulator
             * keeps it); every other x is unchanged by the add */
            alu(I, GOP_ADD, d, satsrc[k], gen_imm(0, GT_F), true);
            continue;
        }
        unsigned ck = vec_cond ? k : 0;
        /* min/max: sel with a conditional modifier on the selected operands */
        struct cmpinfo ci;
        if (LLVMIsAInstruction(c) && cmp_info(c, &ci) && !ci.invert && !ci.self && !ci.diff && ci.type == t &&
            (ci.cmod == GC_LT || ci.cmod == GC_GE || ci.cmod == GC_GT || ci.cmod == GC_LE)) {
            struct gen_opnd a = as_type(I, lane(I, LLVMGetOperand(c, 0), ck), t);
            struct gen_opnd b = as_type(I, lane(I, LLVMGetOperand(c, 1), ck), t);
            /* a float sel.cmod returns the non-NaN source (maxnum), where
             * select(fcmp ordered) gives b whenever either is NaN: the
             * same only when b cannot be NaN */
            float bf = 0.0f;
            if (t == GT_F && y[k].kind == GO_IMM)
                memcpy(&bf, &y[k].imm, sizeof(bf));
            bool nan_safe = t != GT_F || (y[k].kind == GO_IMM && !y[k].neg && !y[k].abs && !isnan(bf));
            if (nan_safe && opnd_eq(&a, &x[k]) && opnd_eq(&b, &y[k]) && x[k].kind != GO_IMM) {
                struct gen_inst *i = emit(I, GOP_SEL, I->p->vreg[d.vreg].uniform);
                i->cmod = (uint8_t)ci.cmod;
                i->dst = d;
                i->src[0] = x[k];
                i->src[1] = y[k];
                flag_set = false; /* the conditional modifier wrote f0.0 */
                continue;
            }
        }
        struct gen_opnd a = x[k], b = y[k];
        bool swap = a.kind == GO_IMM && b.kind != GO_IMM;
        if (swap) {
            a = y[k];
            b = x[k];
        }
        if (a.kind == GO_IMM)
            a = materialize(I, a);
        bool u = I->p->vreg[d.vreg].uniform;
        /* a scalar condition sets the flag once for every lane of the select
         * (nothing between the sels writes it) */
        bool inv;
        if (!vec_cond && flag_set && flag_uniform == u) {
            inv = flag_inv;
        } else {
            inv = cond_flag(I, c, ck, u);
            flag_set = !vec_cond;
            flag_uniform = u;
            flag_inv = inv;
        }
        struct gen_inst *i = emit(I, GOP_SEL, u);
        i->pred = (uint8_t)((inv != swap) ? GP_INVERT : GP_NORMAL);
        i->dst = d;
        i->src[0] = a;
        i->src[1] = b;
    }
}

static void emit_binop(struct isel *I, LLVMValueRef v, LLVMOpcode opc)
{
    unsigned n = lanes_of(LLVMTypeOf(v));
    bool uni[4] = {false, false, false, false};
    for (unsigned k = 0; k < n; k++)
        uni[k] = all_uniform(I, v, k);
    LLVMValueRef A = LLVMGetOperand(v, 0), B = LLVMGetOperand(v, 1);
    struct gen_opnd a[4], b[4];
    enum gen_type t = opc == LLVMFAdd || opc == LLVMFSub || opc == LLVMFMul || opc == LLVMFDiv
                          ? GT_F
                          : opc == LLVMLShr ? GT_UD : GT_D;
    for (unsigned k = 0; k < n; k++) {
        a[k] = as_type(I, lane(I, A, k), t);
        b[k] = as_type(I, lane(I, B, k), t);
    }
    struct vmap *m = def(I, v, uni);
    if (!m)
        return;
    for (unsigned k = 0; k < n; k++) {
        struct gen_opnd d = m->c[k];
        if (d.kind != GO_VREG)
            continue;
        d.type = (uint8_t)t;
        switch (opc) {
        case LLVMFAdd: case LLVMAdd: alu(I, GOP_ADD, d, a[k], b[k], false); break;
        case LLVMFSub: case LLVMSub: {
            struct gen_opnd nb = b[k];
            if (nb.kind == GO_IMM) {
                if (t == GT_F) {
                    float f;
                    memcpy(&f, &nb.imm, 4);
                    nb.imm = fbits(-f);
                } else {
                    nb.imm = (uint32_t)(-(int64_t)(int32_t)nb.imm);
                }
            } else {
                nb.neg = !nb.neg;
            }
            alu(I, GOP_ADD, d, a[k], nb, false);
            break;
        }
        case LLVMFMul: case LLVMMul: alu(I, GOP_MUL, d, a[k], b[k], false); break;
        case LLVMFDiv: {
            float f;
            if (const_lane_f(A, k, &f) && f == 1.0f)
                math(I, GM_INV, d, b[k], (struct gen_opnd){0});
            else
                math(I, GM_FDIV, d, a[k], b[k]);
            break;
        }
        case LLVMShl: alu(I, GOP_SHL, d, a[k], b[k], false); break;
        case LLVMLShr: alu(I, GOP_SHR, d, a[k], b[k], false); break;
        case LLVMAShr: alu(I, GOP_ASR, d, a[k], b[k], false); break;
        case LLVMAnd: alu(I, GOP_AND, d, a[k], b[k], false); break;
        case LLVMOr: alu(I, GOP_OR, d, a[k], b[k], false); break;
        case LLVMXor: alu(I, GOP_XOR, d, a[k], b[k], false); break;
        default: fail(I, LLVMGetValueName(v)[0] ? "this LLVM operation" : "this LLVM operation");
        }
    }
}

static void emit_unary(struct isel *I, LLVMValueRef v, enum gen_op op, enum gen_math fn,
                       enum gen_type dt, enum gen_type st)
{
    unsigned n = lanes_of(LLVMTypeOf(v));
    bool uni[4] = {false, false, false, false};
    for (unsigned k = 0; k < n; k++)
        uni[k] = all_uniform(I, v, k);
    struct gen_opnd a[4];
    for (unsigned k = 0; k < n; k++)
        a[k] = as_type(I, lane(I, LLVMGetOperand(v, 0), k), st);
    struct vmap *m = def(I, v, uni);
    if (!m)
        return;
    for (unsigned k = 0; k < n; k++) {
        struct gen_opnd d = m->c[k];
        if (d.kind != GO_VREG)
            continue;
        d.type = (uint8_t)dt;
        if (op == GOP_MATH)
            math(I, fn, d, a[k], (struct gen_opnd){0});
        else
            alu(I, op, d, a[k], gen_imm(0, st), false);
    }
}

/* Lane renames: extract/insertelement, shufflevector. */
static void emit_rename(struct isel *I, LLVMValueRef v, LLVMOpcode opc)
{
    struct gen_opnd c[4];
    unsigned n = lanes_of(LLVMTypeOf(v));
    if (opc == LLVMExtractElement) {
        LLVMValueRef idx = LLVMGetOperand(v, 1);
        if (!LLVMIsAConstantInt(idx)) {
            fail(I, "a vector lane chosen at run time");
            return;
        }
        c[0] = lane(I, LLVMGetOperand(v, 0), (unsigned)LLVMConstIntGetZExtValue(idx));
    } else if (opc == LLVMInsertElement) {
        LLVMValueRef idx = LLVMGetOperand(v, 2);
        if (!LLVMIsAConstantInt(idx)) {
            fail(I, "a vector lane chosen at run time");
            return;
        }
        for (unsigned k = 0; k < n; k++)
            c[k] = lane(I, LLVMGetOperand(v, 0), k);
        unsigned at = (unsigned)LLVMConstIntGetZExtValue(idx);
        if (at < n)
            c[at] = lane(I, LLVMGetOperand(v, 1), 0);
    } else {
        LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetOperand(v, 1);
        unsigned na = lanes_of(LLVMTypeOf(a));
        for (unsigned k = 0; k < n; k++) {
            int e = LLVMGetMaskValue(v, k);
            if (e == LLVMGetUndefMaskElem() || e < 0)
                c[k] = gen_imm(0, gtype(LLVMTypeOf(v)));
            else if ((unsigned)e < na)
                c[k] = lane(I, a, (unsigned)e);
            else
                c[k] = lane(I, b, (unsigned)e - na);
        }
    }
    bind(I, v, c, n);
}

/* Conversions and casts. */
static void emit_cast(struct isel *I, LLVMValueRef v, LLVMOpcode opc)
{
    LLVMValueRef a = LLVMGetOperand(v, 0);
    unsigned n = lanes_of(LLVMTypeOf(v));
    struct gen_opnd c[4];
    switch (opc) {
    case LLVMFPExt: case LLVMFPTrunc: case LLVMBitCast: case LLVMSExt: case LLVMTrunc:
    case LLVMFreeze:
        /* f64 is computed as f32 (Gen9 shaders do not need the precision the
         * lowering spends on libm calls); i64 as i32 (indices only);
         * booleans are 0 / ~0 dwords, so sext is free */
        if (opc == LLVMTrunc && LLVMGetIntTypeWidth(elem_of(LLVMTypeOf(v))) == 1) {
            emit_unary(I, v, GOP_AND, 0, GT_D, GT_D); /* not reached in practice */
            return;
        }
        for (unsigned k = 0; k < n; k++) {
            c[k] = lane(I, a, k);
            if (opc == LLVMBitCast)
                c[k] = as_type(I, c[k], gtype(LLVMTypeOf(v)));
            else
                c[k].type = (uint8_t)gtype(LLVMTypeOf(v));
        }
        bind(I, v, c, n);
        return;
    case LLVMZExt:
        if (LLVMGetIntTypeWidth(elem_of(LLVMTypeOf(a))) == 1) {
            /* ~0 -> 1 */
            bool uni[4] = {false, false, false, false};
            for (unsigned k = 0; k < n; k++)
                uni[k] = all_uniform(I, v, k);
            struct gen_opnd s[4];
            for (unsigned k = 0; k < n; k++)
                s[k] = as_type(I, lane(I, a, k), GT_D);
            struct vmap *m = def(I, v, uni);
            for (unsigned k = 0; m && k < n; k++)
                if (m->c[k].kind == GO_VREG)
                    alu(I, GOP_AND, m->c[k], s[k], gen_imm(1, GT_D), false);
            return;
        }
        for (unsigned k = 0; k < n; k++)
            c[k] = lane(I, a, k);
        bind(I, v, c, n);
        return;
    case LLVMSIToFP: emit_unary(I, v, GOP_MOV, 0, GT_F, GT_D); return;
    case LLVMUIToFP: emit_unary(I, v, GOP_MOV, 0, GT_F, GT_UD); return;
    case LLVMFPToSI: emit_unary(I, v, GOP_MOV, 0, GT_D, GT_F); return;
    case LLVMFPToUI: emit_unary(I, v, GOP_MOV, 0, GT_UD, GT_F); return;
    default: fail(I, "this LLVM conversion");
    }
}

/*
 * dsx/dsy across the 2x2 subspan (channels 4s..4s+3 = top-left, top-right,
 * bottom-left, bottom-right): dsx = right - left of the pixel's row, one
 * instruction with <2;2,0> regions; dsy = bottom - top of its column, one
 * SIMD4 instruction per subspan with <0;2,1> regions.  These are the fine
 * derivatives the interpreter computes.  A uniform source gives x - x.
 */
/* d &= both (bitwise, all channels of the instruction) */
static void deriv_mask(struct isel *I, struct gen_opnd d, uint32_t both)
{
    struct gen_inst *i = emit(I, GOP_AND, false);
    i->dst = d;
    i->dst.type = GT_UD;
    i->src[0] = d;
    i->src[0].type = GT_UD;
    i->src[1] = gen_vr(both, 0, GT_UD);
}

static void emit_deriv(struct isel *I, LLVMValueRef v, bool ddx)
{
    unsigned n = lanes_of(LLVMTypeOf(v));
    struct gen_opnd src[4];
    bool uni[4] = {false, false, false, false};
    for (unsigned k = 0; k < n; k++) {
        src[k] = as_type(I, lane(I, LLVMGetOperand(v, 0), k), GT_F);
        if (src[k].neg || src[k].abs || src[k].kind != GO_VREG || src[k].region != GR_AUTO) {
            if (opnd_uniform(I, &src[k]))
                continue;
            /* a copy in a plain register, so the subspan regions apply */
            uint32_t t = new_val(I, false);
            struct gen_inst *m = emit(I, GOP_MOV, false);
            m->dst = gen_vr(t, 0, GT_F);
            m->src[0] = src[k];
            src[k] = gen_vr(t, 0, GT_F);
        }
    }
    struct vmap *m = def(I, v, uni);
    /*
     * The hardware reads the neighbour's register whether or not that
     * channel runs this instruction; the interpreter's derivative is 0
     * unless both pixels of the pair stand at this derivative (divergent
     * flow, a partial subspan).  live = all ones in the channels running
     * here (a (W) clear, then a masked write); a derivative is ANDed with
     * live(left) & live(right) through the same regions, giving +0 where
     * a neighbour is absent.
     */
    uint32_t live = 0, both = 0;
    for (unsigned k = 0; m && k < n; k++) {
        if (m->c[k].kind != GO_VREG || live)
            continue;
        live = new_val(I, false);
        struct gen_inst *i = emit(I, GOP_MOV, false);
        i->nomask = true;
        i->dst = gen_vr(live, 0, GT_UD);
        i->src[0] = gen_imm(0, GT_UD);
        i = emit(I, GOP_MOV, false);
        i->dst = gen_vr(live, 0, GT_UD);
        i->src[0] = gen_imm(0xffffffffu, GT_UD);
        both = new_val(I, false);
        struct gen_opnd lv = gen_vr(live, 0, GT_UD), bd = gen_vr(both, 0, GT_UD);
        if (ddx) {
            i = emit(I, GOP_AND, false);
            i->dst = bd;
            i->src[0] = lv;
            i->src[0].region = GR_DDX;
            i->src[0].off += 4;
            i->src[1] = lv;
            i->src[1].region = GR_DDX;
        } else {
            for (unsigned s4 = 0; s4 < I->p->simd / 4; s4++) {
                i = emit(I, GOP_AND, false);
                i->exec = 4;
                i->group = (uint8_t)(4 * s4);
                i->dst = bd;
                i->dst.off += 16 * s4;
                i->src[0] = lv;
                i->src[0].region = GR_DDY;
                i->src[0].off += 16 * s4 + 8;
                i->src[1] = lv;
                i->src[1].region = GR_DDY;
                i->src[1].off += 16 * s4;
            }
        }
    }
    for (unsigned k = 0; m && k < n; k++) {
        struct gen_opnd d = m->c[k];
        if (d.kind != GO_VREG)
            continue;
        if (opnd_uniform(I, &src[k])) {
            /* the same value in every pixel: right - left = x - x, which is
             * +0, or NaN for an infinite or NaN x (as the interpreter) */
            float f = 0.0f;
            if (src[k].kind == GO_IMM)
                memcpy(&f, &src[k].imm, sizeof(f));
            if (src[k].kind == GO_IMM && isfinite(f)) {
                struct gen_inst *i = emit(I, GOP_MOV, false);
                i->dst = d;
                i->src[0] = gen_imm(0, GT_F);
                continue;
            }
            struct gen_opnd x = materialize(I, src[k]);
            struct gen_inst *i = emit(I, GOP_ADD, false);
            i->dst = d;
            i->src[0] = x;
            i->src[1] = x;
            i->src[1].neg = !x.neg;
            deriv_mask(I, d, both);
            continue;
        }
        if (ddx) {
            struct gen_inst *i = emit(I, GOP_ADD, false);
            i->dst = d;
            i->src[0] = src[k];
            i->src[0].region = GR_DDX;
            i->src[0].off += 4;
            i->src[1] = src[k];
            i->src[1].region = GR_DDX;
            i->src[1].neg = true;
            deriv_mask(I, d, both);
            continue;
        }
        for (unsigned s4 = 0; s4 < I->p->simd / 4; s4++) {
            struct gen_inst *i = emit(I, GOP_ADD, false);
            i->exec = 4;
            i->group = (uint8_t)(4 * s4);
            i->dst = d;
            i->dst.off += 16 * s4;
            i->src[0] = src[k];
            i->src[0].region = GR_DDY;
            i->src[0].off += 16 * s4 + 8;
            i->src[1] = src[k];
            i->src[1].region = GR_DDY;
            i->src[1].off += 16 * s4;
            i->src[1].neg = true;
        }
        deriv_mask(I, d, both);
    }
}

static void emit_call(struct isel *I, LLVMValueRef v)
{
    LLVMValueRef callee = LLVMGetCalledValue(v);
    size_t len = 0;
    const char *name = callee ? LLVMGetValueName2(callee, &len) : "";
    if (strcmp(name, ST_LL_SAMPLE_FN) == 0) {
        gen_kernel_sample(I->ki, I->p, v);
        return;
    }
    if (strcmp(name, "st_dsx") == 0 || strcmp(name, "st_dsy") == 0) {
        emit_deriv(I, v, name[5] == 'x');
        return;
    }
    unsigned nargs = (unsigned)LLVMGetNumArgOperands(v);
    if (strncmp(name, "llvm.fabs.", 10) == 0 || strncmp(name, "llvm.fneg", 9) == 0) {
        unsigned n;
        const struct gen_opnd *a = val(I, LLVMGetOperand(v, 0), &n);
        struct gen_opnd c[4];
        for (unsigned k = 0; k < n; k++) {
            c[k] = a[k];
            if (c[k].kind == GO_IMM && c[k].type == GT_F) {
                c[k].imm &= 0x7fffffffu;
            } else {
                c[k].abs = true;
                c[k].neg = false;
            }
        }
        bind(I, v, c, n);
        return;
    }
    static const struct {
        const char *prefix;
        enum gen_op op;
        enum gen_math fn;
    } unary[] = {
        {"llvm.sqrt.", GOP_MATH, GM_SQT}, {"llvm.exp2.", GOP_MATH, GM_EXP},
        {"llvm.log2.", GOP_MATH, GM_LOG}, {"llvm.sin.", GOP_MATH, GM_SIN},
        {"llvm.cos.", GOP_MATH, GM_COS}, {"llvm.floor.", GOP_RNDD, 0},
        {"llvm.trunc.", GOP_RNDZ, 0}, {"llvm.roundeven.", GOP_RNDE, 0},
    };
    for (unsigned u = 0; u < sizeof(unary) / sizeof(unary[0]); u++)
        if (strncmp(name, unary[u].prefix, strlen(unary[u].prefix)) == 0 && nargs == 1) {
            emit_unary(I, v, unary[u].op, unary[u].fn, GT_F, GT_F);
            return;
        }
    if ((strncmp(name, "llvm.pow.", 9) == 0 || strncmp(name, "llvm.minnum.", 12) == 0 ||
         strncmp(name, "llvm.maxnum.", 12) == 0) && nargs == 2) {
        unsigned n = lanes_of(LLVMTypeOf(v));
        bool uni[4] = {false, false, false, false};
        struct gen_opnd a[4], b[4];
        for (unsigned k = 0; k < n; k++) {
            uni[k] = all_uniform(I, v, k);
            a[k] = as_type(I, lane(I, LLVMGetOperand(v, 0), k), GT_F);
            b[k] = as_type(I, lane(I, LLVMGetOperand(v, 1), k), GT_F);
        }
        struct vmap *m = def(I, v, uni);
        for (unsigned k = 0; m && k < n; k++) {
            if (m->c[k].kind != GO_VREG)
                continue;
            if (name[5] == 'p') {
                math(I, GM_POW, m->c[k], a[k], b[k]);
            } else {
                struct gen_opnd x = materialize(I, a[k]);
                struct gen_inst *i = emit(I, GOP_SEL, I->p->vreg[m->c[k].vreg].uniform);
                i->cmod = name[7] == 'i' ? GC_LT : GC_GE;
                i->dst = m->c[k];
                i->src[0] = x;
                i->src[1] = b[k];
            }
        }
        return;
    }
    static const struct {
        const char *prefix;
        enum gen_cmod cmod;
        enum gen_type t;
    } minmax[] = {
        {"llvm.smax.", GC_GE, GT_D}, {"llvm.smin.", GC_LT, GT_D},
        {"llvm.umax.", GC_GE, GT_UD}, {"llvm.umin.", GC_LT, GT_UD},
    };
    for (unsigned u = 0; u < sizeof(minmax) / sizeof(minmax[0]); u++) {
        if (strncmp(name, minmax[u].prefix, strlen(minmax[u].prefix)) || nargs != 2)
            continue;
        unsigned n = lanes_of(LLVMTypeOf(v));
        bool uni[4] = {false, false, false, false};
        struct gen_opnd a[4], b[4];
        for (unsigned k = 0; k < n; k++) {
            uni[k] = all_uniform(I, v, k);
            a[k] = materialize(I, as_type(I, lane(I, LLVMGetOperand(v, 0), k), minmax[u].t));
            b[k] = as_type(I, lane(I, LLVMGetOperand(v, 1), k), minmax[u].t);
        }
        struct vmap *m = def(I, v, uni);
        for (unsigned k = 0; m && k < n; k++) {
            if (m->c[k].kind != GO_VREG)
                continue;
            struct gen_inst *i = emit(I, GOP_SEL, I->p->vreg[m->c[k].vreg].uniform);
            i->cmod = (uint8_t)minmax[u].cmod;
            i->dst = m->c[k];
            i->dst.type = (uint8_t)minmax[u].t;
            i->src[0] = a[k];
            i->src[1] = b[k];
        }
        return;
    }
    /* llvm.usub.sat.i32: instcombine's form of "a > b ? a - b : 0" (seen on
     * relative-address arithmetic).  umax(a, b) - b: the subtraction can no
     * longer wrap, so a plain integer add of -b is exact. */
    if (strncmp(name, "llvm.usub.sat.", 14) == 0 && nargs == 2) {
        unsigned n = lanes_of(LLVMTypeOf(v));
        bool uni[4] = {false, false, false, false};
        struct gen_opnd a[4], b[4];
        for (unsigned k = 0; k < n; k++) {
            uni[k] = all_uniform(I, v, k);
            a[k] = materialize(I, as_type(I, lane(I, LLVMGetOperand(v, 0), k), GT_UD));
            b[k] = as_type(I, lane(I, LLVMGetOperand(v, 1), k), GT_UD);
        }
        struct vmap *m = def(I, v, uni);
        for (unsigned k = 0; m && k < n; k++) {
            if (m->c[k].kind != GO_VREG)
                continue;
            bool u = I->p->vreg[m->c[k].vreg].uniform;
            struct gen_opnd t = gen_vr(new_val(I, u), 0, GT_UD);
            struct gen_inst *i = emit(I, GOP_SEL, u);
            i->cmod = GC_GE;
            i->dst = t;
            i->src[0] = a[k];
            i->src[1] = b[k];
            struct gen_opnd d = m->c[k], nb = b[k];
            d.type = GT_D;
            t.type = GT_D;
            nb.type = GT_D;
            if (nb.kind == GO_IMM)
                nb.imm = (uint32_t)-nb.imm;
            else
                nb.neg = !nb.neg;
            alu(I, GOP_ADD, d, t, nb, false);
        }
        return;
    }
    char msg[160];
    snprintf(msg, sizeof(msg), "the call to %.100s", name);
    fail(I, msg);
}

/* Splits a pointer into ABI argument, constant byte offset and run-time index. */
bool gen_isel_addr(LLVMValueRef ptr, int *arg, int64_t *off, LLVMValueRef *dyn, unsigned *scale,
                   LLVMValueRef *alloca_out)
{
    *off = 0;
    *dyn = NULL;
    *scale = 1;
    *alloca_out = NULL;
    *arg = -1;
    for (int depth = 0; depth < 8; depth++) {
        if (LLVMIsAArgument(ptr)) {
            LLVMValueRef fn = LLVMGetParamParent(ptr);
            unsigned np = LLVMCountParams(fn);
            for (unsigned k = 0; k < np; k++)
                if (LLVMGetParam(fn, k) == ptr)
                    *arg = (int)k;
            return true;
        }
        if (LLVMIsAAllocaInst(ptr)) {
            *alloca_out = ptr;
            return true;
        }
        if (!LLVMIsAGetElementPtrInst(ptr) && !(LLVMIsAConstantExpr(ptr) &&
                                                 LLVMGetConstOpcode(ptr) == LLVMGetElementPtr))
            return false;
        if (LLVMGetNumOperands(ptr) != 2)
            return false;
        LLVMTypeRef et = LLVMGetGEPSourceElementType(ptr);
        unsigned esz = 0;
        switch (LLVMGetTypeKind(et)) {
        case LLVMIntegerTypeKind: esz = LLVMGetIntTypeWidth(et) / 8; break;
        case LLVMFloatTypeKind: esz = 4; break;
        case LLVMVectorTypeKind:
            esz = LLVMGetVectorSize(et) * (LLVMGetTypeKind(LLVMGetElementType(et)) == LLVMDoubleTypeKind
                                               ? 8
                                               : 4);
            break;
        default: return false;
        }
        LLVMValueRef idx = LLVMGetOperand(ptr, 1);
        if (LLVMIsAConstantInt(idx)) {
            *off += LLVMConstIntGetSExtValue(idx) * (int64_t)esz;
        } else {
            if (*dyn)
                return false;
            *dyn = idx;
            *scale = esz;
        }
        ptr = LLVMGetOperand(ptr, 0);
    }
    return false;
}

/* Components read from ptr: payload operands, messages, or a select of two. */
static bool load_from(struct isel *I, LLVMValueRef ptr, LLVMTypeRef ty, struct gen_opnd c[4],
                      int depth)
{
    unsigned n = lanes_of(ty);
    if (LLVMIsASelectInst(ptr) && depth < 4) {
        /* load (select c, p, q): both loads, then a select per lane */
        struct gen_opnd a[4], b[4];
        if (!load_from(I, LLVMGetOperand(ptr, 1), ty, a, depth + 1) ||
            !load_from(I, LLVMGetOperand(ptr, 2), ty, b, depth + 1))
            return false;
        LLVMValueRef cond = LLVMGetOperand(ptr, 0);
        struct gen_opnd cv = lane(I, cond, 0);
        for (unsigned k = 0; k < n; k++) {
            enum gen_type t = gtype(ty);
            struct gen_opnd x = as_type(I, a[k], t), y = as_type(I, b[k], t);
            bool u = opnd_uniform(I, &x) && opnd_uniform(I, &y) && opnd_uniform(I, &cv);
            uint32_t d = new_val(I, u);
            bool swap = x.kind == GO_IMM && y.kind != GO_IMM;
            if (swap) {
                struct gen_opnd tmp = x;
                x = y;
                y = tmp;
            }
            x = materialize(I, x);
            bool inv = cond_flag(I, cond, 0, u);
            struct gen_inst *i = emit(I, GOP_SEL, u);
            i->pred = (uint8_t)((inv != swap) ? GP_INVERT : GP_NORMAL);
            i->dst = gen_vr(d, 0, t);
            i->src[0] = x;
            i->src[1] = y;
            c[k] = gen_vr(d, 0, t);
        }
        return true;
    }
    int arg;
    int64_t off;
    LLVMValueRef dyn, al;
    unsigned scale;
    if (!gen_isel_addr(ptr, &arg, &off, &dyn, &scale, &al)) {
        fail(I, "this memory access");
        return false;
    }
    if (al) {
        unsigned v = 0;
        while (v < I->ntexel && I->texel_ptr[v] != al)
            v++;
        if (v == I->ntexel) {
            fail(I, "this memory access");
            return false;
        }
        for (unsigned k = 0; k < n && k < 4; k++) {
            /* a copy: a later sample rewrites the variable */
            uint32_t t = new_val(I, false);
            struct gen_inst *i = emit(I, GOP_MOV, false);
            i->dst = gen_vr(t, 0, GT_F);
            i->src[0] = gen_vr(I->texel_var[v][k], 0, GT_F);
            c[k] = gen_vr(t, 0, GT_F);
        }
        return true;
    }
    if (!gen_kernel_load(I->ki, I->p, arg, off, dyn, scale, ty, c)) {
        I->failed = true;
        return false;
    }
    return true;
}

static void emit_load(struct isel *I, LLVMValueRef v)
{
    struct gen_opnd c[4];
    if (!load_from(I, LLVMGetOperand(v, 0), LLVMTypeOf(v), c, 0))
        return;
    /* payload reads are fixed operands: bound, no instruction needed */
    bind(I, v, c, lanes_of(LLVMTypeOf(v)));
}

static void emit_store(struct isel *I, LLVMValueRef v)
{
    int arg;
    int64_t off;
    LLVMValueRef dyn, al;
    unsigned scale;
    LLVMValueRef x = LLVMGetOperand(v, 0);
    if (!gen_isel_addr(LLVMGetOperand(v, 1), &arg, &off, &dyn, &scale, &al) || al || dyn) {
        fail(I, "this memory access");
        return;
    }
    unsigned n;
    const struct gen_opnd *c = val(I, x, &n);
    struct gen_opnd cc[4];
    for (unsigned k = 0; k < n && k < 4; k++)
        cc[k] = c[k];
    if (!gen_kernel_store(I->ki, arg, off, cc, n))
        I->failed = true;
}

static void emit_inst(struct isel *I, LLVMValueRef v)
{
    LLVMOpcode opc = LLVMGetInstructionOpcode(v);
    switch (opc) {
    case LLVMAlloca: case LLVMGetElementPtr: case LLVMBr: case LLVMRet: case LLVMPHI:
        return; /* addresses fold into loads/stores; flow and phis are the caller's */
    case LLVMLoad: emit_load(I, v); return;
    case LLVMStore: emit_store(I, v); return;
    case LLVMFNeg: {
        unsigned n;
        const struct gen_opnd *a = val(I, LLVMGetOperand(v, 0), &n);
        struct gen_opnd c[4];
        for (unsigned k = 0; k < n; k++) {
            c[k] = a[k];
            if (c[k].kind == GO_IMM && c[k].type == GT_F)
                c[k].imm ^= 0x80000000u;
            else
                c[k].neg = !c[k].neg;
        }
        bind(I, v, c, n);
        return;
    }
    case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv: case LLVMAdd: case LLVMSub:
    case LLVMMul: case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr:
    case LLVMXor:
        emit_binop(I, v, opc);
        return;
    case LLVMFCmp: case LLVMICmp: {
        unsigned n = lanes_of(LLVMTypeOf(v));
        bool uni[4] = {false, false, false, false};
        for (unsigned k = 0; k < n; k++)
            uni[k] = all_uniform(I, v, k);
        /* operands first (see emit_select) */
        for (unsigned k = 0; k < n; k++) {
            lane(I, LLVMGetOperand(v, 0), k);
            lane(I, LLVMGetOperand(v, 1), k);
        }
        struct vmap *m = def(I, v, uni);
        for (unsigned k = 0; m && k < n; k++) {
            if (m->c[k].kind != GO_VREG)
                continue;
            struct gen_opnd d = m->c[k];
            if (d.kind != GO_VREG)
                continue;
            d.type = GT_D;
            bool inv = false;
            emit_cmp(I, v, k, d, I->p->vreg[d.vreg].uniform, &inv);
            if (inv)
                alu(I, GOP_NOT, d, d, gen_imm(0, GT_D), false);
        }
        return;
    }
    case LLVMSelect: emit_select(I, v); return;
    case LLVMExtractElement: case LLVMInsertElement: case LLVMShuffleVector:
        emit_rename(I, v, opc);
        return;
    case LLVMFPExt: case LLVMFPTrunc: case LLVMBitCast: case LLVMSExt: case LLVMZExt:
    case LLVMTrunc: case LLVMSIToFP: case LLVMUIToFP: case LLVMFPToSI: case LLVMFPToUI:
    case LLVMFreeze:
        emit_cast(I, v, opc);
        return;
    case LLVMCall: emit_call(I, v); return;
    default: {
        char msg[64];
        snprintf(msg, sizeof(msg), "LLVM instruction opcode %d", (int)opc);
        fail(I, msg);
    }
    }
}

/* ------------------------------------------------------------------ */
/* The CFG: dominators, loops, post-dominators.                        */

static int block_index(struct isel *I, LLVMBasicBlockRef b)
{
    for (unsigned k = 0; k < I->nb; k++)
        if (I->bb[k] == b)
            return (int)k;
    return -1;
}

static bool bit(const uint64_t *s, unsigned i)
{
    return (s[i / 64] >> (i % 64)) & 1;
}

static void set_bit(uint64_t *s, unsigned i)
{
    s[i / 64] |= 1ull << (i % 64);
}

static bool build_cfg(struct isel *I)
{
    I->nb = LLVMCountBasicBlocks(I->fn);
    I->bb = calloc(I->nb, sizeof(*I->bb));
    I->nsucc = calloc(I->nb, sizeof(unsigned));
    I->succ[0] = calloc(I->nb, sizeof(unsigned));
    I->succ[1] = calloc(I->nb, sizeof(unsigned));
    I->loop_of_header = calloc(I->nb, sizeof(int));
    I->emitted = calloc(I->nb, sizeof(bool));
    I->words = (I->nb + 63) / 64;
    I->dom = calloc((size_t)I->nb * I->words, sizeof(uint64_t));
    I->loops = calloc(I->nb, sizeof(*I->loops));
    if (!I->bb || !I->nsucc || !I->succ[0] || !I->succ[1] || !I->loop_of_header || !I->emitted ||
        !I->dom || !I->loops) {
        fail_oom(I);
        return false;
    }
    LLVMGetBasicBlocks(I->fn, I->bb);
    for (unsigned k = 0; k < I->nb; k++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(I->bb[k]);
        if (!t) {
            fail(I, "a block without terminator");
            return false;
        }
        LLVMOpcode op = LLVMGetInstructionOpcode(t);
        if (op == LLVMRet) {
            I->nsucc[k] = 0;
        } else if (op == LLVMBr) {
            unsigned ns = LLVMGetNumSuccessors(t);
            I->nsucc[k] = ns;
            for (unsigned s = 0; s < ns && s < 2; s++) {
                int j = block_index(I, LLVMGetSuccessor(t, s));
                if (j < 0) {
                    fail(I, "this branch");
                    return false;
                }
                I->succ[s][k] = (unsigned)j;
            }
        } else {
            fail(I, op == LLVMSwitch ? "a switch (dsx/dsy resumable lanes)" : "this terminator");
            return false;
        }
        I->loop_of_header[k] = -1;
    }
    /* dominators: the usual iteration (blocks come in a topological-ish order) */
    for (unsigned k = 0; k < I->nb; k++)
        for (unsigned w = 0; w < I->words; w++)
            I->dom[k * I->words + w] = k == 0 ? 0 : ~0ull;
    set_bit(&I->dom[0], 0);
    uint64_t *tmp = calloc(I->words, sizeof(uint64_t));
    if (!tmp) {
        fail_oom(I);
        return false;
    }
    bool changed = true;
    while (changed) {
        changed = false;
        for (unsigned k = 1; k < I->nb; k++) {
            for (unsigned w = 0; w < I->words; w++)
                tmp[w] = ~0ull;
            bool any = false;
            for (unsigned pidx = 0; pidx < I->nb; pidx++)
                for (unsigned s = 0; s < I->nsucc[pidx]; s++)
                    if (I->succ[s][pidx] == k) {
                        any = true;
                        for (unsigned w = 0; w < I->words; w++)
                            tmp[w] &= I->dom[pidx * I->words + w];
                    }
            if (!any)
                for (unsigned w = 0; w < I->words; w++)
                    tmp[w] = 0;
            set_bit(tmp, k);
            if (memcmp(tmp, &I->dom[k * I->words], I->words * sizeof(uint64_t))) {
                memcpy(&I->dom[k * I->words], tmp, I->words * sizeof(uint64_t));
                changed = true;
            }
        }
    }
    free(tmp);
    /* natural loops: back edges b -> h with h dominating b */
    for (unsigned b = 0; b < I->nb; b++)
        for (unsigned s = 0; s < I->nsucc[b]; s++) {
            unsigned h = I->succ[s][b];
            if (!bit(&I->dom[b * I->words], h))
                continue;
            int li = I->loop_of_header[h];
            if (li < 0) {
                li = (int)I->nloops++;
                I->loop_of_header[h] = li;
                I->loops[li].header = (int)h;
                I->loops[li].exit = -1;
                I->loops[li].blocks = calloc(I->words, sizeof(uint64_t));
                if (!I->loops[li].blocks) {
                    fail_oom(I);
                    return false;
                }
                set_bit(I->loops[li].blocks, h);
            }
            /* blocks reaching b without passing h */
            unsigned *stack = malloc(I->nb * sizeof(unsigned) * 2 + 8);
            if (!stack) {
                fail_oom(I);
                return false;
            }
            unsigned sp = 0;
            if (!bit(I->loops[li].blocks, b)) {
                set_bit(I->loops[li].blocks, b);
                stack[sp++] = b;
            }
            while (sp) {
                unsigned x = stack[--sp];
                for (unsigned pidx = 0; pidx < I->nb; pidx++)
                    for (unsigned t = 0; t < I->nsucc[pidx]; t++)
                        if (I->succ[t][pidx] == x && !bit(I->loops[li].blocks, pidx)) {
                            set_bit(I->loops[li].blocks, pidx);
                            stack[sp++] = pidx;
                        }
            }
            free(stack);
        }
    for (unsigned l = 0; l < I->nloops; l++) {
        struct loop *L = &I->loops[l];
        for (unsigned b = 0; b < I->nb; b++) {
            if (!bit(L->blocks, b))
                continue;
            for (unsigned s = 0; s < I->nsucc[b]; s++) {
                unsigned t = I->succ[s][b];
                if (bit(L->blocks, t))
                    continue;
                if (L->exit >= 0 && L->exit != (int)t) {
                    fail(I, "a loop with several exits");
                    return false;
                }
                L->exit = (int)t;
            }
        }
        if (L->exit < 0) {
            fail(I, "a loop without exit");
            return false;
        }
    }
    return true;
}

enum { V_HEAD = 0, V_EXIT = 1, V_END = 2 };

static unsigned node_head(const struct isel *I) { return I->nb + V_HEAD; }
static unsigned node_exit(const struct isel *I) { return I->nb + V_EXIT; }
static unsigned node_end(const struct isel *I) { return I->nb + V_END; }

/* The node successor s of block b is in context c. */
static unsigned map_node(struct isel *I, const struct ctxf *c, unsigned s)
{
    if (c->loop) {
        if ((int)s == c->loop->header)
            return node_head(I);
        if (!bit(c->loop->blocks, s))
            return node_exit(I);
    }
    return s;
}

static void compute_pdom(struct isel *I, const struct ctxf *c)
{
    if (I->pd_valid && I->pd_loop == c->loop)
        return;
    unsigned nn = I->nb + 3;
    I->pwords = (nn + 63) / 64;
    free(I->pd);
    I->pd = calloc((size_t)nn * I->pwords, sizeof(uint64_t));
    if (!I->pd) {
        fail_oom(I);
        return;
    }
    for (unsigned n = 0; n < nn; n++) {
        uint64_t *s = &I->pd[n * I->pwords];
        if (n >= I->nb) {
            set_bit(s, n);
            if (n != node_end(I))
                set_bit(s, node_end(I));
        } else {
            for (unsigned w = 0; w < I->pwords; w++)
                s[w] = ~0ull;
        }
    }
    uint64_t *tmp = calloc(I->pwords, sizeof(uint64_t));
    if (!tmp) {
        fail_oom(I);
        return;
    }
    bool changed = true;
    while (changed) {
        changed = false;
        for (unsigned b = I->nb; b-- > 0;) {
            if (c->loop && !bit(c->loop->blocks, b))
                continue;
            for (unsigned w = 0; w < I->pwords; w++)
                tmp[w] = ~0ull;
            if (I->nsucc[b] == 0) {
                memset(tmp, 0, I->pwords * sizeof(uint64_t));
                set_bit(tmp, node_end(I));
            }
            for (unsigned s = 0; s < I->nsucc[b]; s++) {
                unsigned n = map_node(I, c, I->succ[s][b]);
                for (unsigned w = 0; w < I->pwords; w++)
                    tmp[w] &= I->pd[n * I->pwords + w];
            }
            set_bit(tmp, b);
            if (memcmp(tmp, &I->pd[b * I->pwords], I->pwords * sizeof(uint64_t))) {
                memcpy(&I->pd[b * I->pwords], tmp, I->pwords * sizeof(uint64_t));
                changed = true;
            }
        }
    }
    free(tmp);
    I->pd_loop = c->loop;
    I->pd_valid = true;
}

static unsigned popcount_set(const uint64_t *s, unsigned words)
{
    unsigned n = 0;
    for (unsigned w = 0; w < words; w++)
        n += (unsigned)__builtin_popcountll(s[w]);
    return n;
}

static unsigned ipdom(struct isel *I, const struct ctxf *c, unsigned b)
{
    compute_pdom(I, c);
    if (!I->pd)
        return node_end(I);
    const uint64_t *s = &I->pd[b * I->pwords];
    unsigned best = node_end(I), best_n = 0;
    for (unsigned n = 0; n < I->nb + 3; n++) {
        if (n == b || !bit(s, n))
            continue;
        unsigned cnt = popcount_set(&I->pd[n * I->pwords], I->pwords);
        if (cnt > best_n) {
            best_n = cnt;
            best = n;
        }
    }
    return best;
}

/* ------------------------------------------------------------------ */
/* Structured emission.                                                */

/* Phi moves for the edge from -> to, predicated when pred != GP_NONE. */
static void edge_moves(struct isel *I, unsigned from, unsigned to, uint8_t pred)
{
    LLVMBasicBlockRef fb = I->bb[from];
    /* one entry per demanded lane of every phi of `to`: a loop's flow block
     * after structurizecfg carries every live temp (17 vec4 phis and the
     * exit flag in fuzz seed 2282), so 64 was too few; overflowing is a
     * located failure, never a dropped move */
    struct mv {
        struct gen_opnd d, s;
    } mv[256];
    unsigned n = 0;
    for (LLVMValueRef phi = LLVMGetFirstInstruction(I->bb[to]);
         phi && LLVMGetInstructionOpcode(phi) == LLVMPHI; phi = LLVMGetNextInstruction(phi)) {
        unsigned ni = LLVMCountIncoming(phi);
        LLVMValueRef in = NULL;
        for (unsigned k = 0; k < ni; k++)
            if (LLVMGetIncomingBlock(phi, k) == fb)
                in = LLVMGetIncomingValue(phi, k);
        if (!in)
            continue;
        struct vmap *m = map_find(I, phi, true);
        if (!m)
            return;
        unsigned lanes = lanes_of(LLVMTypeOf(phi));
        if (!m->done && !m->forward) {
            unsigned dem = demanded(phi);
            m->n = (uint8_t)lanes;
            for (unsigned k = 0; k < lanes; k++)
                m->c[k] = (dem >> k) & 1 ? gen_vr(new_val(I, false), 0, gtype(LLVMTypeOf(phi)))
                                         : gen_imm(0, gtype(LLVMTypeOf(phi)));
            m->done = true;
        }
        for (unsigned k = 0; k < lanes; k++) {
            if (m->c[k].kind != GO_VREG)
                continue;
            if (n == sizeof(mv) / sizeof(mv[0])) {
                fail(I, "more than 256 phi moves on one edge");
                return;
            }
            mv[n].d = m->c[k];
            mv[n].s = as_type(I, lane(I, in, k), (enum gen_type)m->c[k].type);
            n++;
        }
    }
    /* parallel copy: sources that are destinations of the same edge go through temporaries */
    bool clash = false;
    for (unsigned a = 0; a < n; a++)
        for (unsigned b = 0; b < n; b++)
            if (mv[a].s.kind == GO_VREG && mv[a].s.vreg == mv[b].d.vreg)
                clash = true;
    if (clash)
        for (unsigned a = 0; a < n; a++) {
            uint32_t t = new_val(I, false);
            struct gen_inst *i = emit(I, GOP_MOV, false);
            i->dst = gen_vr(t, 0, (enum gen_type)mv[a].s.type);
            i->src[0] = mv[a].s;
            i->pred = pred;
            mv[a].s = gen_vr(t, 0, (enum gen_type)mv[a].s.type);
        }
    for (unsigned a = 0; a < n; a++) {
        struct gen_inst *i = emit(I, GOP_MOV, false);
        i->dst = mv[a].d;
        i->src[0] = mv[a].s;
        i->pred = pred;
    }
}

static void flow(struct isel *I, enum gen_op op, uint8_t pred)
{
    struct gen_inst *i = emit(I, op, false);
    i->pred = pred;
}

static void emit_seq(struct isel *I, const struct ctxf *c, unsigned b, unsigned stop, int depth);

static void emit_loop(struct isel *I, struct loop *L, int depth)
{
    flow(I, GOP_LABEL, GP_NONE);
    struct ctxf c2 = {L};
    I->pd_valid = false;
    emit_seq(I, &c2, (unsigned)L->header, node_head(I), depth + 1);
    I->pd_valid = false;
    flow(I, GOP_WHILE, GP_NONE);
}

static void emit_block_body(struct isel *I, unsigned b)
{
    for (LLVMValueRef v = LLVMGetFirstInstruction(I->bb[b]); v && !I->failed;
         v = LLVMGetNextInstruction(v)) {
        if (!st_poll(I->ctx, 1)) { /* compile budget, cancel (reported there) */
            I->failed = true;
            return;
        }
        emit_inst(I, v);
    }
}

static void emit_seq(struct isel *I, const struct ctxf *c, unsigned b, unsigned stop, int depth)
{
    if (depth > 64) {
        fail(I, "control flow nested this deep");
        return;
    }
    while (b != stop && !I->failed) {
        if (b >= I->nb) {
            if (b == node_head(I))
                flow(I, GOP_CONT, GP_NONE);
            else if (b == node_exit(I))
                flow(I, GOP_BREAK, GP_NONE);
            else
                fail(I, "a return from inside a loop");
            return;
        }
        int li = I->loop_of_header[b];
        if (li >= 0 && &I->loops[li] != c->loop) {
            struct loop *L = &I->loops[li];
            if (I->emitted[b]) {
                fail(I, "unstructured control flow");
                return;
            }
            emit_loop(I, L, depth);
            if (c->loop)
                I->pd_valid = I->pd_valid && I->pd_loop == c->loop;
            I->pd_valid = false;
            b = map_node(I, c, (unsigned)L->exit);
            continue;
        }
        if (I->emitted[b]) {
            fail(I, "unstructured control flow");
            return;
        }
        I->emitted[b] = true;
        emit_block_body(I, b);
        if (I->failed)
            return;
        LLVMValueRef term = LLVMGetBasicBlockTerminator(I->bb[b]);
        if (I->nsucc[b] == 0) {
            b = node_end(I);
            continue;
        }
        if (I->nsucc[b] == 1) {
            edge_moves(I, b, I->succ[0][b], GP_NONE);
            b = map_node(I, c, I->succ[0][b]);
            continue;
        }
        LLVMValueRef cond = LLVMGetCondition(term);
        unsigned T = I->succ[0][b], F = I->succ[1][b];
        unsigned nT = map_node(I, c, T), nF = map_node(I, c, F);
        if (nT >= I->nb || nF >= I->nb) {
            /* a conditional break or continue */
            bool vt = nT >= I->nb && (nF < I->nb || nT == node_exit(I));
            unsigned vnode = vt ? nT : nF, vblock = vt ? T : F;
            unsigned onode = vt ? nF : nT, oblock = vt ? F : T;
            if (vnode == node_end(I)) {
                fail(I, "a return from inside a loop");
                return;
            }
            bool inv = cond_flag(I, cond, 0, false);
            uint8_t pred = (uint8_t)((inv != !vt) ? GP_INVERT : GP_NORMAL);
            edge_moves(I, b, vblock, pred);
            flow(I, vnode == node_exit(I) ? GOP_BREAK : GOP_CONT, pred);
            edge_moves(I, b, oblock, GP_NONE);
            b = onode;
            continue;
        }
        unsigned J = ipdom(I, c, b);
        bool inv = cond_flag(I, cond, 0, false);
        uint8_t pt = inv ? GP_INVERT : GP_NORMAL, pf = inv ? GP_NORMAL : GP_INVERT;
        if (J == nT) {
            edge_moves(I, b, T, pt);
            flow(I, GOP_IF, pf);
            edge_moves(I, b, F, GP_NONE);
            emit_seq(I, c, nF, J, depth + 1);
            flow(I, GOP_ENDIF, GP_NONE);
        } else if (J == nF) {
            edge_moves(I, b, F, pf);
            flow(I, GOP_IF, pt);
            edge_moves(I, b, T, GP_NONE);
            emit_seq(I, c, nT, J, depth + 1);
            flow(I, GOP_ENDIF, GP_NONE);
        } else {
            flow(I, GOP_IF, pt);
            edge_moves(I, b, T, GP_NONE);
            emit_seq(I, c, nT, J, depth + 1);
            flow(I, GOP_ELSE, GP_NONE);
            edge_moves(I, b, F, GP_NONE);
            emit_seq(I, c, nF, J, depth + 1);
            flow(I, GOP_ENDIF, GP_NONE);
        }
        b = J;
    }
}

/* ------------------------------------------------------------------ */

bool gen_isel(struct st_ctx *ctx, const struct st_shader *sh, LLVMModuleRef m,
              struct gen_kernel_info *ki, struct gen_program *p)
{
    struct isel I;
    memset(&I, 0, sizeof(I));
    I.ctx = ctx;
    I.sh = sh;
    I.p = p;
    I.ki = ki;
    I.fn = LLVMGetNamedFunction(m, "st_main");
    if (!I.fn) {
        fail(&I, "a module without st_main");
        return false;
    }
    ki->isel = &I;
    if (build_cfg(&I)) {
        gen_kernel_prologue(ki, p);
        struct ctxf top = {NULL};
        emit_seq(&I, &top, 0, node_end(&I), 0);
        if (!I.failed)
            gen_kernel_epilogue(ki, p);
    }
    ki->isel = NULL;
    for (unsigned l = 0; l < I.nloops; l++)
        free(I.loops[l].blocks);
    free(I.loops);
    free(I.bb);
    free(I.nsucc);
    free(I.succ[0]);
    free(I.succ[1]);
    free(I.loop_of_header);
    free(I.emitted);
    free(I.dom);
    free(I.pd);
    free(I.map);
    if (p->oom && !I.failed) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        I.failed = true;
    }
    return !I.failed;
}

/* ---- services for gen/kernel.c ---- */

struct gen_opnd gen_isel_lane(struct gen_kernel_info *ki, LLVMValueRef v, unsigned k)
{
    return lane(ki->isel, v, k);
}

struct gen_opnd gen_isel_as_type(struct gen_kernel_info *ki, struct gen_opnd o, enum gen_type t)
{
    return as_type(ki->isel, o, t);
}

void gen_isel_set_texel(struct gen_kernel_info *ki, LLVMValueRef ptr, const struct gen_opnd c[4])
{
    struct isel *I = ki->isel;
    unsigned v = 0;
    while (v < I->ntexel && I->texel_ptr[v] != ptr)
        v++;
    if (v == I->ntexel) {
        if (v == sizeof(I->texel_ptr) / sizeof(I->texel_ptr[0])) {
            fail(I, "more than 8 texel variables");
            return;
        }
        I->texel_ptr[v] = ptr;
        for (unsigned k = 0; k < 4; k++)
            I->texel_var[v][k] = new_val(I, false);
        I->ntexel++;
    }
    for (unsigned k = 0; k < 4; k++) {
        struct gen_inst *i = emit(I, GOP_MOV, false);
        i->dst = gen_vr(I->texel_var[v][k], 0, GT_F);
        i->src[0] = c[k];
    }
}

void gen_isel_fail(struct gen_kernel_info *ki, const char *what)
{
    fail(ki->isel, what);
}

bool gen_isel_uniform(struct gen_kernel_info *ki, const struct gen_opnd *o)
{
    return opnd_uniform(ki->isel, o);
}
