/* requires: st_main lowered with ST_LOWER_VECTOR and run through st_llvm_pipeline_for (markers, !st.lanes, !st.uniform).
 * invalidates: nothing in the module (it only reads it); builds a new MIR program. */
/*
 * select.c — the marker IR of st_main as the vector machine IR (mir.h).
 *
 * Selection is by identity, not by shape: every marker call is the one
 * instruction it names (translator.h lists them), fadd and fsub are add
 * and sub, and everything else LLVM can leave is data movement that costs
 * an instruction only where it really moves data:
 *
 *   views   a shufflevector or extractelement of one value, insertelement
 *           into a lane nobody reads, fneg, llvm.fabs, a ps_1_x source
 *           modifier marker, a load from the ABI arguments (a v#, c#, i#,
 *           t# register), a relative read (st.rel): the swizzle, modifier
 *           and register of the source that reads them; no instruction.
 *   merges  a shufflevector taking lanes from two values, insertelement
 *           into a live vector: a MERGE pseudo (coalesce.c removes it).
 *   phis    a vreg, written by MERGE copies at the end of each predecessor.
 *   select  a copy of the false value, then a predicated move of the true.
 *
 * The lanes each value must provide are the !st.lanes marks of lane
 * demand (passes/lane_demand.c); the uniform ones carry !st.uniform.
 *
 * Control flow is given back in program order over the structure of cfg.c:
 * a conditional branch is IF (or IFC when its condition is a setp marker
 * used for nothing else) with its immediate post-dominator as the join, a
 * counted loop is REP or LOOP (its count phi and aL phi recognised by the
 * lowering's shape, docs/llvm-abi.md), a branch to a loop's exit is BREAK
 * inside an IF.  The walk keeps an explicit stack: nothing here recurses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "cfg.h"
#include "merge.h"
#include "passes.h"

/* ------------------------------------------------------------------ */
/* State                                                               */

struct vinfo {
    LLVMValueRef key;
    uint32_t vreg;   /* MIR_NONE: not (yet) a vreg */
    int32_t def;     /* the MIR instruction that defines it, -1 */
    bool cond_only;  /* a setp marker only branches read: IFC, never SETP */
};

struct lp {          /* a counted loop of cfg.c */
    LLVMValueRef count_phi, al_phi;
    uint32_t al_vreg;
};

enum { ARG_IN, ARG_OUT, ARG_C, ARG_I, ARG_B, ARG_STATUS, ARG_BUMP, ARG_TEX, ARG_LANE, NUM_ARGS };

struct sel {
    struct st_ctx *ctx;
    const struct st_shader *sh;
    struct mir_prog *p;
    struct st_merge_stats *stats;
    LLVMValueRef fn, arg[NUM_ARGS];
    struct st_mk_cache mc;
    struct mcfg g;
    struct lp *lp;
    struct vinfo *map;
    unsigned mcap, mn;
    unsigned md_lanes, md_uniform;
    bool failed, ps, arb;
    /* per vreg: the one lane a replicating operation (dp4, rcp, ...) was
     * computed in, which every reader takes in all its lanes; -1 */
    int8_t *rep;
    unsigned nrep;
};

static void fail(struct sel *S, const char *fmt, const char *what)
{
    if (S->failed)
        return;
    char buf[200];
    snprintf(buf, sizeof(buf), fmt, what);
    st_error(S->ctx, S->sh->version.loc, ST_E_NOT_SUPPORTED,
             "%s is not supported by the merge stage", buf);
    S->failed = true;
}

static size_t vhash(const void *p, unsigned cap)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 17;
    x *= (uintptr_t)0x9e3779b97f4a7c15ull;
    return (size_t)(x >> 7) & (cap - 1);
}

static int rep_lane(const struct sel *S, uint32_t v)
{
    return v < S->nrep ? S->rep[v] : -1;
}

static void set_rep(struct sel *S, uint32_t v, int lane)
{
    if (v >= S->nrep) {
        unsigned n = S->p->capv > v ? S->p->capv : v + 1;
        int8_t *r = realloc(S->rep, n);
        if (!r) {
            S->p->oom = S->failed = true;
            return;
        }
        memset(r + S->nrep, -1, n - S->nrep);
        S->rep = r;
        S->nrep = n;
    }
    S->rep[v] = (int8_t)lane;
}

/* The entry of v (created on first use); NULL when memory ran out. */
static struct vinfo *vi(struct sel *S, LLVMValueRef v)
{
    if ((S->mn + 1) * 2 > S->mcap) {
        unsigned ncap = S->mcap ? S->mcap * 2 : 256;
        struct vinfo *nm = malloc(sizeof(*nm) * ncap);
        if (!nm) {
            S->p->oom = S->failed = true;
            return NULL;
        }
        for (unsigned i = 0; i < ncap; i++)
            nm[i].key = NULL;
        for (unsigned i = 0; i < S->mcap; i++)
            if (S->map[i].key)
                for (size_t j = vhash(S->map[i].key, ncap);; j = (j + 1) & (ncap - 1))
                    if (!nm[j].key) {
                        nm[j] = S->map[i];
                        break;
                    }
        free(S->map);
        S->map = nm;
        S->mcap = ncap;
    }
    for (size_t j = vhash(v, S->mcap);; j = (j + 1) & (S->mcap - 1)) {
        if (S->map[j].key == v)
            return &S->map[j];
        if (!S->map[j].key) {
            S->map[j] = (struct vinfo){v, MIR_NONE, -1, false};
            S->mn++;
            return &S->map[j];
        }
    }
}

/* The vreg of v, or MIR_NONE. */
static uint32_t vreg_of(struct sel *S, LLVMValueRef v)
{
    if (!S->mcap)
        return MIR_NONE;
    for (size_t j = vhash(v, S->mcap);; j = (j + 1) & (S->mcap - 1)) {
        if (S->map[j].key == v)
            return S->map[j].vreg;
        if (!S->map[j].key)
            return MIR_NONE;
    }
}

static unsigned opc(LLVMValueRef v)
{
    return v && LLVMIsAInstruction(v) ? (unsigned)LLVMGetInstructionOpcode(v) : 0;
}

static bool is_vec(LLVMValueRef v)
{
    return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind;
}

static bool const_int(LLVMValueRef v, long long *out)
{
    if (!v || !LLVMIsAConstantInt(v))
        return false;
    *out = LLVMConstIntGetSExtValue(v);
    return true;
}

/* The lanes of v its readers read (lane demand's mark; all when none). */
static uint8_t demand(struct sel *S, LLVMValueRef v)
{
    if (!is_vec(v))
        return 0x1;
    LLVMValueRef md = LLVMIsAInstruction(v) ? LLVMGetMetadata(v, S->md_lanes) : NULL;
    if (!md || LLVMGetMDNodeNumOperands(md) != 1)
        return 0xf;
    LLVMValueRef ops[1];
    LLVMGetMDNodeOperands(md, ops);
    long long x;
    return const_int(ops[0], &x) ? (uint8_t)(x & 0xf) : 0xf;
}

static bool uniform(struct sel *S, LLVMValueRef v)
{
    return LLVMIsAInstruction(v) && LLVMGetMetadata(v, S->md_uniform) != NULL;
}

static enum mir_class class_of(LLVMTypeRef t)
{
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
        t = LLVMGetElementType(t);
    if (LLVMGetTypeKind(t) == LLVMHalfTypeKind)
        return MIR_CLASS_HALF; /* a _pp value under --pp=fp16 */
    if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
        return MIR_CLASS_FLOAT;
    return LLVMGetIntTypeWidth(t) == 1 ? MIR_CLASS_BOOL : MIR_CLASS_INT;
}

static struct mir_instr *emit(struct sel *S, unsigned op)
{
    struct mir_instr *in = mir_append(S->p);
    if (!in) {
        S->failed = true;
        return NULL;
    }
    in->op = (uint16_t)op;
    in->loc = S->sh->version.loc;
    return in;
}

/*
 * Does the float vector v hold halves only (--pp=fp16), in the lanes its
 * readers read: a fpext of a half value, a merge or phi of such values, a
 * constant whose lanes are halves?  Then its vreg is a half one, and the
 * merges and phi copies that build it stay in half (a register a _pp
 * instruction wrote whole keeps half values through the partial writes
 * and the flow that the lowering spells as merges and phis).  A phi met
 * again on the way is taken to be one (the values around a loop are
 * halves if all that enters it is); past `depth` the answer is no.
 */
static bool half_valued_d(struct sel *S, LLVMValueRef v, uint8_t lanes, unsigned depth,
                          LLVMValueRef *stack, unsigned nstack)
{
    if (!lanes)
        return true;
    if (depth == 0)
        return false;
    if (LLVMIsConstant(v)) {
        for (unsigned l = 0; l < 4; l++) {
            if (!((lanes >> l) & 1))
                continue;
            LLVMValueRef e = LLVMGetAggregateElement(v, l);
            if (!e || LLVMIsPoison(e) || LLVMIsUndef(e))
                continue;
            if (!LLVMIsAConstantFP(e))
                return false;
            LLVMBool lost;
            float f = (float)LLVMConstRealGetDouble(e, &lost);
            uint32_t a, b;
            float r = st_half_round(f);
            memcpy(&a, &f, 4);
            memcpy(&b, &r, 4);
            if (a != b)
                return false;
        }
        return true;
    }
    switch (opc(v)) {
    case LLVMFPExt:
        return class_of(LLVMTypeOf(LLVMGetOperand(v, 0))) == MIR_CLASS_HALF;
    case LLVMShuffleVector: {
        LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetOperand(v, 1);
        if (LLVMGetVectorSize(LLVMTypeOf(a)) != 4)
            return false;
        uint8_t la = 0, lb = 0;
        for (unsigned i = 0; i < 4; i++) {
            int e = LLVMGetMaskValue(v, i);
            if (!((lanes >> i) & 1) || e == LLVMGetUndefMaskElem() || e < 0)
                continue;
            if (e < 4)
                la |= (uint8_t)(1u << e);
            else
                lb |= (uint8_t)(1u << (e - 4));
        }
        return half_valued_d(S, a, la, depth - 1, stack, nstack) &&
               half_valued_d(S, b, lb, depth - 1, stack, nstack);
    }
    case LLVMPHI: {
        if (!is_vec(v) || nstack >= 8)
            return false;
        for (unsigned k = 0; k < nstack; k++)
            if (stack[k] == v)
                return true;
        stack[nstack] = v;
        for (unsigned k = 0; k < LLVMCountIncoming(v); k++) {
            LLVMValueRef x = LLVMGetIncomingValue(v, k);
            if (x != v && !half_valued_d(S, x, lanes, depth - 1, stack, nstack + 1))
                return false;
        }
        return true;
    }
    default:
        return false;
    }
}

static enum mir_class value_class(struct sel *S, LLVMValueRef v)
{
    enum mir_class c = class_of(LLVMTypeOf(v));
    if (c == MIR_CLASS_FLOAT && S->sh->pp_half && is_vec(v) &&
        (opc(v) == LLVMShuffleVector || opc(v) == LLVMPHI)) {
        LLVMValueRef stack[8];
        if (half_valued_d(S, v, demand(S, v), 12, stack, 0))
            return MIR_CLASS_HALF;
    }
    return c;
}

/* Is vreg v a half one?  (No, when memory ran out making it.) */
static bool half_vreg(const struct sel *S, uint32_t v)
{
    return v < S->p->nvregs && S->p->vclass[v] == MIR_CLASS_HALF;
}

/* A new vreg for value v (its class from its type and value), recorded. */
static uint32_t def_vreg(struct sel *S, LLVMValueRef v)
{
    struct vinfo *e = vi(S, v);
    if (!e)
        return 0;
    if (e->vreg == MIR_NONE)
        e->vreg = mir_new_vreg(S->p, value_class(S, v));
    return e->vreg;
}

/* ------------------------------------------------------------------ */
/* The ABI: which register a pointer into st_main's arguments names.   */

static int arg_index(struct sel *S, LLVMValueRef v)
{
    for (int k = 0; k < NUM_ARGS; k++)
        if (S->arg[k] == v)
            return k;
    return -1;
}

/* Size of a GEP source element type (the ones the lowering and instcombine make). */
static long long type_bytes(LLVMTypeRef t)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind: return LLVMGetIntTypeWidth(t) / 8;
    case LLVMFloatTypeKind: return 4;
    case LLVMVectorTypeKind: return LLVMGetVectorSize(t) * type_bytes(LLVMGetElementType(t));
    case LLVMArrayTypeKind: return LLVMGetArrayLength2(t) * type_bytes(LLVMGetElementType(t));
    default: return -1;
    }
}

/* ptr = argument + constant byte offset; false otherwise. */
static bool arg_offset(struct sel *S, LLVMValueRef ptr, int *arg, long long *off)
{
    long long total = 0;
    for (int guard = 0; guard < 8; guard++) {
        int a = arg_index(S, ptr);
        if (a >= 0) {
            *arg = a;
            *off = total;
            return true;
        }
        if (!LLVMIsAGetElementPtrInst(ptr) && !(LLVMIsAConstantExpr(ptr) &&
                                                LLVMGetConstOpcode(ptr) == LLVMGetElementPtr))
            return false;
        unsigned nidx = (unsigned)LLVMGetNumOperands(ptr) - 1;
        if (nidx != 1)
            return false;
        long long k;
        long long sz = type_bytes(LLVMGetGEPSourceElementType(ptr));
        if (sz <= 0 || !const_int(LLVMGetOperand(ptr, 1), &k))
            return false;
        total += k * sz;
        ptr = LLVMGetOperand(ptr, 0);
    }
    return false;
}

/* The register an input slot of the ABI holds. */
static bool in_reg(struct sel *S, long long slot, enum st_regfile *f, int32_t *idx)
{
    if (S->arb) {
        *f = ST_REG_INPUT;
        *idx = (int32_t)slot;
        return slot >= 0 && slot < ST_LL_IN_SLOTS;
    }
    static const enum st_regfile files[] = {ST_REG_INPUT, ST_REG_TEXTURE, ST_REG_MISC};
    for (unsigned k = 0; k < 3; k++)
        for (int32_t i = 0; i < 16; i++)
            if (st_run_in_slot(files[k], (uint32_t)i) == slot) {
                *f = files[k];
                *idx = i;
                return true;
            }
    return false;
}

static bool out_reg(struct sel *S, long long slot, enum st_regfile *f, int32_t *idx)
{
    if (S->arb) {
        *f = ST_REG_OUTPUT;
        *idx = (int32_t)slot;
        return slot >= 0 && slot < ST_LL_OUT_SLOTS;
    }
    static const enum st_regfile files[] = {ST_REG_RASTOUT, ST_REG_ATTROUT, ST_REG_TEXCRDOUT,
                                            ST_REG_OUTPUT, ST_REG_COLOROUT, ST_REG_DEPTHOUT};
    for (unsigned k = 0; k < sizeof(files) / sizeof(files[0]); k++)
        for (int32_t i = 0; i < 16; i++)
            if (st_run_out_slot(files[k], (uint32_t)i) == slot) {
                *f = files[k];
                *idx = i;
                return true;
            }
    return false;
}

/* A load from an argument: the register and the lane its first element is. */
static bool load_reg(struct sel *S, LLVMValueRef ld, enum st_regfile *f, int32_t *idx, int *lane)
{
    int a;
    long long off;
    if (!arg_offset(S, LLVMGetOperand(ld, 0), &a, &off) || off < 0)
        return false;
    *lane = (int)((off % 16) / 4);
    switch (a) {
    case ARG_IN: return in_reg(S, off / 16, f, idx);
    case ARG_C:
        *f = ST_REG_CONST;
        *idx = (int32_t)(off / 16);
        return true;
    case ARG_I:
        *f = ST_REG_CONSTINT;
        *idx = (int32_t)(off / 16);
        return true;
    case ARG_B:
        *f = ST_REG_CONSTBOOL;
        *idx = (int32_t)(off / 4);
        *lane = 0;
        return true;
    default:
        return false;
    }
}

/* ------------------------------------------------------------------ */
/* Operands: views resolved to a register, swizzle and modifier.       */

static struct mir_src resolve_r(struct sel *S, LLVMValueRef v, const int8_t map_in[4],
                                bool rounds);

/* A source of an instruction that reads values as they are. */
static struct mir_src resolve(struct sel *S, LLVMValueRef v, const int8_t map_in[4])
{
    return resolve_r(S, v, map_in, false);
}

static uint8_t swz_from(const int8_t map[4])
{
    int any = 0;
    for (unsigned i = 0; i < 4; i++)
        if (map[i] >= 0) {
            any = map[i];
            break;
        }
    /* an unread lane repeats the lane before it (the first read lane
     * before any): .x is .xxxx, .yzx is .yzxx, as assemblers spell them */
    uint8_t s = 0;
    for (unsigned i = 0; i < 4; i++) {
        if (map[i] >= 0)
            any = map[i];
        s |= (uint8_t)(any << (2 * i));
    }
    return s;
}

static const int8_t ident[4] = {0, 1, 2, 3};

/* A literal of the lanes of constant c that map reads. */
static struct mir_src const_src(struct sel *S, LLVMValueRef c, const int8_t map[4])
{
    uint32_t bits[4] = {0, 0, 0, 0};
    enum mir_class cls = class_of(LLVMTypeOf(c));
    bool vec = is_vec(c);
    for (unsigned l = 0; l < 4; l++) {
        if (map[l] < 0)
            continue;
        LLVMValueRef e = vec ? LLVMGetAggregateElement(c, (unsigned)map[l]) : c;
        if (!e || LLVMIsPoison(e) || LLVMIsUndef(e))
            continue;
        if (LLVMIsAConstantFP(e)) {
            LLVMBool lost;
            float f = (float)LLVMConstRealGetDouble(e, &lost);
            memcpy(&bits[l], &f, 4);
        } else if (LLVMIsAConstantInt(e)) {
            bits[l] = (uint32_t)LLVMConstIntGetSExtValue(e);
            if (cls == MIR_CLASS_BOOL)
                bits[l] &= 1;
        } else {
            fail(S, "a constant of this kind (%s)", "a constant expression");
        }
    }
    /* a half constant is the float it stands for (exact) */
    return mir_src_imm(mir_imm(S->p, bits, cls == MIR_CLASS_FLOAT || cls == MIR_CLASS_HALF
                                               ? MIR_CLASS_FLOAT
                                               : MIR_CLASS_INT),
                       ST_SWIZZLE_IDENTITY);
}

/* The source modifier for a sign, an absolute value and a ps_1_x modifier. */
static uint8_t mod_of(bool neg, bool abs, int pmod)
{
    switch (pmod) {
    case 1: return neg ? MIR_MOD_BIASNEG : MIR_MOD_BIAS;
    case 2: return neg ? MIR_MOD_BX2NEG : MIR_MOD_BX2;
    case 3: return MIR_MOD_COMP;
    case 4: return neg ? MIR_MOD_X2NEG : MIR_MOD_X2;
    default: return abs ? (neg ? MIR_MOD_ABSNEG : MIR_MOD_ABS) : neg ? MIR_MOD_NEG : MIR_MOD_NONE;
    }
}

/* An i32 relative address: the vreg and lane that hold it, or a constant. */
static bool addr_of(struct sel *S, LLVMValueRef a, uint32_t *vreg, uint8_t *lane, long long *konst)
{
    *vreg = MIR_NONE;
    if (const_int(a, konst))
        return true;
    if (opc(a) == LLVMExtractElement) {
        long long k;
        if (!const_int(LLVMGetOperand(a, 1), &k) || k < 0 || k > 3)
            return false;
        int8_t m[4] = {(int8_t)k, -1, -1, -1};
        struct mir_src s = resolve(S, LLVMGetOperand(a, 0), m);
        if (s.kind == MIR_IMM) {
            *konst = (int32_t)S->p->imm[s.vreg].bits[ST_SWZ_LANE(s.swz, 0)];
            return true;
        }
        if (s.kind != MIR_VREG)
            return false;
        *vreg = s.vreg;
        *lane = (uint8_t)ST_SWZ_LANE(s.swz, 0);
        return true;
    }
    uint32_t v = vreg_of(S, a); /* aL: the loop's vreg, bound to its phi */
    if (v == MIR_NONE)
        return false;
    *vreg = v;
    *lane = 0;
    return true;
}

/* st.rel(file, addr, k, first, count) as a relative source. */
static struct mir_src rel_src(struct sel *S, LLVMValueRef call, const int8_t map[4])
{
    struct mir_src s = mir_src_fixed((enum st_regfile)st_llvm_marker_int(call, 0), 0, swz_from(map));
    int32_t k = st_llvm_marker_int(call, 2);
    int32_t first = st_llvm_marker_int(call, 3);
    uint32_t count = (uint32_t)st_llvm_marker_int(call, 4);
    uint32_t v;
    uint8_t lane = 0;
    long long konst = 0;
    if (!addr_of(S, LLVMGetOperand(call, 1), &v, &lane, &konst)) {
        fail(S, "a relative address of %s", "this shape");
        return s;
    }
    if (S->arb && S->sh->arb)
        for (unsigned a = 0; a < S->sh->arb->num_arrays; a++)
            if (S->sh->arb->arrays[a].first == (uint32_t)first &&
                S->sh->arb->arrays[a].count == count)
                s.arr1 = (uint16_t)(a + 1);
    if (v == MIR_NONE) {
        /* a known address: that register, or 0 outside the range */
        int64_t idx = konst + k;
        if (idx - first < 0 || idx - first >= (int64_t)count)
            return mir_src_imm(mir_imm_f(S->p, 0, 0, 0, 0), ST_SWIZZLE_IDENTITY);
        s.index = (int32_t)idx;
        return s;
    }
    s.rel = true;
    s.rel_vreg = v;
    s.rel_lane = lane;
    s.index = k;
    s.rel_first = first;
    s.rel_count = count;
    return s;
}

/* Copies the view src into a new vreg (a modifier no source can carry on
 * top of another): the vreg, read plain.  The copy is emitted where the
 * selection stands, so every caller resolves all the sources of an
 * instruction before it emits the instruction itself. */
static struct mir_src materialize(struct sel *S, struct mir_src src, enum mir_class cls,
                                  LLVMValueRef at)
{
    uint32_t t = mir_new_vreg(S->p, cls);
    struct mir_instr *in = emit(S, ST_OP_MOV);
    if (!in)
        return src;
    in->half = cls == MIR_CLASS_HALF; /* into a half: the rounding of a fptrunc */
    in->has_dst = true;
    in->dst = (struct mir_dst){.kind = MIR_VREG, .mask = 0xf, .vreg = t};
    in->nsrc = 1;
    in->src[0] = src;
    in->uniform = uniform(S, at);
    return mir_src_vreg(t, ST_SWIZZLE_IDENTITY);
}

/* One step of a view through shuffle *v: the operand the lanes read come
 * from, and their lanes in it; false when they come from both. */
static bool through_shuffle(LLVMValueRef *v, int8_t map[4])
{
    LLVMValueRef a = LLVMGetOperand(*v, 0), b = LLVMGetOperand(*v, 1);
    unsigned na = LLVMGetVectorSize(LLVMTypeOf(a));
    bool from_a = false, from_b = false;
    int8_t nm[4];
    for (unsigned i = 0; i < 4; i++) {
        nm[i] = -1;
        if (map[i] < 0)
            continue;
        int e = LLVMGetMaskValue(*v, (unsigned)map[i]);
        if (e == LLVMGetUndefMaskElem() || e < 0)
            continue;
        LLVMValueRef src = (unsigned)e < na ? a : b;
        if (LLVMIsPoison(src) || LLVMIsUndef(src))
            continue; /* a poison lane: nobody's value */
        if ((unsigned)e < na) {
            from_a = true;
            nm[i] = (int8_t)e;
        } else {
            from_b = true;
            nm[i] = (int8_t)(e - (int)na);
        }
    }
    if (na != 4 || (from_a && from_b))
        return false;
    memcpy(map, nm, 4);
    *v = from_b ? b : a;
    return true;
}

/* fptrunc t read by an instruction that does not round: a half mov of
 * its operand first, read through map. */
static struct mir_src rounded(struct sel *S, LLVMValueRef t, const int8_t map[4])
{
    struct mir_src s =
        materialize(S, resolve_r(S, LLVMGetOperand(t, 0), ident, true), MIR_CLASS_HALF, t);
    s.swz = swz_from(map);
    return s;
}

/*
 * The source that reads value v with lane i of the reader taking lane
 * map_in[i] of v (-1: not read).  Views are walked through, iteratively,
 * down to a vreg, a register or a literal.  `rounds`: the reader is a half
 * instruction (mir.h), which rounds what it reads to half, so a fptrunc
 * on the way is a view too; for any other reader a fptrunc is a rounding
 * of its own (a half mov into a new vreg, unless emit_inst made one).
 * fpext is always a view: a reader takes a half as the float it is.
 */
static struct mir_src resolve_r(struct sel *S, LLVMValueRef v, const int8_t map_in[4],
                                bool rounds)
{
    int8_t map[4];
    memcpy(map, map_in, 4);
    bool neg = false, abs = false, not = false;
    int pmod = 0;
    struct mir_src s;
    for (int guard = 0;; guard++) {
        if (guard > 4096) {
            fail(S, "a chain of views this long%s", "");
            return mir_src_imm(mir_imm_f(S->p, 0, 0, 0, 0), 0xe4);
        }
        uint32_t vr = vreg_of(S, v);
        if (vr != MIR_NONE) {
            s = mir_src_vreg(vr, swz_from(map));
            if (rep_lane(S, vr) >= 0)
                s.swz = (uint8_t)(rep_lane(S, vr) * 0x55);
            break;
        }
        if (LLVMIsConstant(v)) {
            s = const_src(S, v, map);
            break;
        }
        if (LLVMIsAArgument(v) || !LLVMIsAInstruction(v)) {
            fail(S, "a value of %s", "this kind");
            return mir_src_imm(mir_imm_f(S->p, 0, 0, 0, 0), 0xe4);
        }
        bool scalar = !is_vec(v);
        switch (opc(v)) {
        case LLVMShuffleVector:
            if (!through_shuffle(&v, map)) {
                fail(S, "a shuffle read where it was not computed%s", "");
                return mir_src_imm(mir_imm_f(S->p, 0, 0, 0, 0), 0xe4);
            }
            continue;
        case LLVMExtractElement: {
            long long k;
            if (!const_int(LLVMGetOperand(v, 1), &k) || k < 0 || k > 3) {
                fail(S, "an extractelement at a %s index", "variable");
                return mir_src_imm(mir_imm_f(S->p, 0, 0, 0, 0), 0xe4);
            }
            for (unsigned i = 0; i < 4; i++)
                if (map[i] >= 0)
                    map[i] = (int8_t)k;
            v = LLVMGetOperand(v, 0);
            continue;
        }
        case LLVMInsertElement: {
            long long k;
            if (!const_int(LLVMGetOperand(v, 2), &k) || k < 0 || k > 3) {
                fail(S, "an insertelement at a %s index", "variable");
                return mir_src_imm(mir_imm_f(S->p, 0, 0, 0, 0), 0xe4);
            }
            bool from_s = false, from_base = false;
            LLVMValueRef base = LLVMGetOperand(v, 0);
            bool dead_base = LLVMIsPoison(base) || LLVMIsUndef(base);
            for (unsigned i = 0; i < 4; i++) {
                if (map[i] < 0)
                    continue;
                if (map[i] == k)
                    from_s = true;
                else if (dead_base)
                    map[i] = -1; /* a poison lane: nobody's value */
                else
                    from_base = true;
            }
            if (from_s && from_base) {
                fail(S, "an insertelement read where it was not computed%s", "");
                return mir_src_imm(mir_imm_f(S->p, 0, 0, 0, 0), 0xe4);
            }
            if (from_s) {
                for (unsigned i = 0; i < 4; i++)
                    if (map[i] >= 0)
                        map[i] = 0;
                v = LLVMGetOperand(v, 1);
            } else {
                v = LLVMGetOperand(v, 0);
            }
            continue;
        }
        case LLVMXor: {
            /* a predicate negated in every lane read: "!" */
            LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetOperand(v, 1);
            if (!LLVMIsConstant(b)) {
                LLVMValueRef t = a;
                a = b;
                b = t;
            }
            bool all = LLVMIsConstant(b) && class_of(LLVMTypeOf(v)) == MIR_CLASS_BOOL;
            for (unsigned i = 0; i < 4 && all; i++) {
                if (map[i] < 0)
                    continue;
                LLVMValueRef e = is_vec(b) ? LLVMGetAggregateElement(b, (unsigned)map[i]) : b;
                long long one;
                if (!e || !const_int(e, &one) || !(one & 1))
                    all = false;
            }
            if (!all) {
                fail(S, "a predicate negated in %s", "some lanes only");
                return mir_src_imm(mir_imm_f(S->p, 0, 0, 0, 0), 0xe4);
            }
            not = !not;
            v = a;
            continue;
        }
        case LLVMFNeg:
            if (pmod) {
                s = materialize(S, resolve(S, v, ident), MIR_CLASS_FLOAT, v);
                s.swz = swz_from(map);
                goto done;
            }
            if (!abs)
                neg = !neg;
            v = LLVMGetOperand(v, 0);
            continue;
        case LLVMFPExt: case LLVMFPTrunc:
            if (opc(v) == LLVMFPTrunc && !rounds) {
                s = rounded(S, v, map);
                goto done;
            }
            v = LLVMGetOperand(v, 0);
            continue;
        case LLVMSIToFP: {
            /* an integer register read as floats (mov r0, i0) */
            LLVMValueRef x = LLVMGetOperand(v, 0);
            enum st_regfile f;
            int32_t idx;
            int lane;
            if (opc(x) == LLVMLoad && load_reg(S, x, &f, &idx, &lane) && f == ST_REG_CONSTINT) {
                for (unsigned i = 0; i < 4; i++)
                    if (map[i] >= 0)
                        map[i] = (int8_t)(scalar ? lane : map[i] + lane);
                s = mir_src_fixed(f, idx, swz_from(map));
                goto done;
            }
            fail(S, "a conversion to float of %s", "this value");
            return mir_src_imm(mir_imm_f(S->p, 0, 0, 0, 0), 0xe4);
        }
        case LLVMLoad: {
            enum st_regfile f;
            int32_t idx;
            int lane;
            if (!load_reg(S, v, &f, &idx, &lane)) {
                fail(S, "a load of %s", "this memory");
                return mir_src_imm(mir_imm_f(S->p, 0, 0, 0, 0), 0xe4);
            }
            for (unsigned i = 0; i < 4; i++)
                if (map[i] >= 0)
                    map[i] = (int8_t)(scalar ? lane : map[i] + lane);
            s = mir_src_fixed(f, idx, swz_from(map));
            goto done;
        }
        case LLVMCall: {
            struct st_marker mk;
            LLVMValueRef callee = LLVMGetCalledValue(v);
            size_t len = 0;
            const char *name = callee ? LLVMGetValueName2(callee, &len) : "";
            if (len > 9 && strncmp(name, "llvm.fabs", 9) == 0) {
                if (pmod) {
                    s = materialize(S, resolve(S, v, ident), MIR_CLASS_FLOAT, v);
                    s.swz = swz_from(map);
                    goto done;
                }
                abs = true;
                v = LLVMGetOperand(v, 0);
                continue;
            }
            if (st_llvm_marker(&S->mc, v, &mk) && mk.kind == ST_MK_REL) {
                s = rel_src(S, v, map);
                goto done;
            }
            if (st_llvm_marker(&S->mc, v, &mk) && mk.kind == ST_MK_MOD) {
                if (pmod || abs || (neg && mk.mod == 3)) {
                    s = materialize(S, resolve(S, v, ident), MIR_CLASS_FLOAT, v);
                    s.swz = swz_from(map);
                    goto done;
                }
                pmod = mk.mod;
                v = LLVMGetOperand(v, 0);
                continue;
            }
            fail(S, "the call %s read before it was computed", name);
            return mir_src_imm(mir_imm_f(S->p, 0, 0, 0, 0), 0xe4);
        }
        default: {
            char *t = LLVMPrintValueToString(v);
            char buf[80];
            snprintf(buf, sizeof(buf), "%.70s", t ? t + strspn(t, " ") : "?");
            LLVMDisposeMessage(t);
            fail(S, "the value '%s' read as a source", buf);
            return mir_src_imm(mir_imm_f(S->p, 0, 0, 0, 0), 0xe4);
        }
        }
    }
done:
    s.mod = not ? MIR_MOD_NOT : mod_of(neg, abs, pmod);
    return s;
}

/* A boolean source: a bool vreg lane (setp), b#, with "!". */
static bool resolve_bool(struct sel *S, LLVMValueRef c, unsigned lane, struct mir_src *out)
{
    bool not = false;
    for (int guard = 0; guard < 64; guard++) {
        if (opc(c) == LLVMXor) {
            LLVMValueRef a = LLVMGetOperand(c, 0), b = LLVMGetOperand(c, 1);
            if (!LLVMIsConstant(b)) {
                LLVMValueRef t = a;
                a = b;
                b = t;
            }
            LLVMValueRef e = is_vec(b) ? LLVMGetAggregateElement(b, lane) : b;
            long long one;
            if (!e || !const_int(e, &one))
                return false;
            if (one & 1)
                not = !not;
            c = a;
            continue;
        }
        if (opc(c) == LLVMICmp && !is_vec(c)) {
            /* b# != 0 (or == 0) */
            LLVMIntPredicate pr = LLVMGetICmpPredicate(c);
            LLVMValueRef x = LLVMGetOperand(c, 0);
            long long z;
            enum st_regfile f;
            int32_t idx;
            int ln;
            if ((pr != LLVMIntNE && pr != LLVMIntEQ) || !const_int(LLVMGetOperand(c, 1), &z) ||
                z != 0 || opc(x) != LLVMLoad || !load_reg(S, x, &f, &idx, &ln) ||
                f != ST_REG_CONSTBOOL)
                return false;
            *out = mir_src_fixed(f, idx, 0);
            out->mod = (pr == LLVMIntEQ) != not ? MIR_MOD_NOT : MIR_MOD_NONE;
            return true;
        }
        if (opc(c) == LLVMExtractElement && !is_vec(c)) {
            long long k;
            if (!const_int(LLVMGetOperand(c, 1), &k) || k < 0 || k > 3)
                return false;
            c = LLVMGetOperand(c, 0);
            lane = (unsigned)k;
            continue;
        }
        break;
    }
    int8_t m[4] = {(int8_t)lane, (int8_t)lane, (int8_t)lane, (int8_t)lane};
    *out = resolve(S, c, m);
    if (out->kind == MIR_FIXED)
        return false;
    out->mod = not ? MIR_MOD_NOT : MIR_MOD_NONE;
    return true;
}

/* ------------------------------------------------------------------ */
/* Instructions                                                        */

/* The MIR instruction writing v's vreg under its demanded lanes. */
static struct mir_instr *def_instr(struct sel *S, LLVMValueRef v, unsigned op, uint8_t mask)
{
    uint32_t d = def_vreg(S, v);
    struct mir_instr *in = emit(S, op);
    if (!in)
        return NULL;
    /* a value no reader demands a lane of (its readers' lanes died in the
     * passes) is still defined, in one lane: the folds drop it as dead */
    if (!mask)
        mask = 0x1;
    in->has_dst = true;
    in->dst = (struct mir_dst){.kind = MIR_VREG, .mask = mask, .vreg = d};
    in->uniform = uniform(S, v);
    in->half = half_vreg(S, d);
    struct vinfo *e = vi(S, v);
    if (e)
        e->def = (int32_t)(in - S->p->ins);
    return in;
}

/* Lanes an operation defines (sincos: x, y; crs: x, y, z; ...). */
static uint8_t op_defines(struct sel *S, unsigned op)
{
    switch (op) {
    case ST_OP_CRS: return 0x7;
    case ST_OP_SINCOS: return 0x3;
    default: (void)S; return 0xf;
    }
}

/* A value-producing marker: the one instruction it names. */
static void emit_marker(struct sel *S, LLVMValueRef I, const struct st_marker *mk)
{
    unsigned nargs = (unsigned)LLVMGetNumArgOperands(I);
    bool is_void = LLVMGetTypeKind(LLVMTypeOf(I)) == LLVMVoidTypeKind;
    if (mk->kind == ST_MK_SAT || mk->kind == ST_MK_SHIFT) {
        /* folded into the instruction computing the operand when nothing
         * else reads that value (and the order shift, then sat, holds) */
        LLVMValueRef x = LLVMGetOperand(I, 0);
        struct vinfo *ex = vi(S, x);
        LLVMUseRef u = LLVMGetFirstUse(x);
        bool one_use = u && !LLVMGetNextUse(u);
        struct mir_instr *d = ex && ex->def >= 0 ? &S->p->ins[ex->def] : NULL;
        if (one_use && d && d->op != MIR_OP_MERGE && d->op != MIR_OP_OPAQUE && !d->predicated &&
            (mk->kind == ST_MK_SAT ? !d->sat : !d->sat && !d->shift) &&
            d->dst.vreg == ex->vreg &&
            (class_of(LLVMTypeOf(x)) == MIR_CLASS_FLOAT ||
             (class_of(LLVMTypeOf(x)) == MIR_CLASS_HALF && mk->half))) {
            if (mk->kind == ST_MK_SAT)
                d->sat = true;
            else
                d->shift = (int8_t)st_llvm_marker_int(I, 1);
            if (rep_lane(S, ex->vreg) < 0) {
                d->dst.mask &= demand(S, I);
                if (!d->dst.mask)
                    d->dst.mask = 0x1;
            }
            struct vinfo *e = vi(S, I);
            if (e) {
                e->vreg = ex->vreg;
                e->def = ex->def;
            }
            return;
        }
        struct mir_src s0 = resolve_r(S, x, ident, mk->half);
        struct mir_instr *in = def_instr(S, I, ST_OP_MOV, demand(S, I));
        if (!in)
            return;
        in->nsrc = 1;
        in->src[0] = s0;
        if (mk->kind == ST_MK_SAT)
            in->sat = true;
        else
            in->shift = (int8_t)st_llvm_marker_int(I, 1);
        return;
    }
    if (mk->kind == ST_MK_OSTORE || mk->kind == ST_MK_OSTORE_REL) {
        bool rel = mk->kind == ST_MK_OSTORE_REL;
        struct mir_src s0 = resolve(S, LLVMGetOperand(I, rel ? 4 : 2), ident);
        struct mir_instr *in = emit(S, ST_OP_MOV);
        if (!in)
            return;
        in->has_dst = true;
        in->dst.kind = MIR_FIXED;
        in->dst.file = (enum st_regfile)st_llvm_marker_int(I, 0);
        in->dst.mask = (uint8_t)(st_llvm_marker_int(I, nargs - 1) & 0xf);
        in->dst.index = st_llvm_marker_int(I, rel ? 2 : 1);
        if (rel) {
            uint32_t v;
            uint8_t lane = 0;
            long long konst = 0;
            uint32_t count = (uint32_t)st_llvm_marker_int(I, 3);
            if (!addr_of(S, LLVMGetOperand(I, 1), &v, &lane, &konst)) {
                fail(S, "a relative output address of %s", "this shape");
                return;
            }
            if (v == MIR_NONE) {
                /* a known address: that register, or no write at all */
                in->dst.index += (int32_t)konst;
                if (in->dst.index < 0 || (uint32_t)in->dst.index >= count)
                    in->dead = true;
            } else {
                in->dst.rel = true;
                in->dst.rel_vreg = v;
                in->dst.rel_lane = lane;
                in->dst.rel_count = count;
            }
        }
        in->nsrc = 1;
        in->src[0] = s0;
        return;
    }
    if (mk->kind == ST_MK_OPAQUE) {
        long long k;
        const struct st_instr *a = NULL;
        if (const_int(LLVMGetOperand(I, 0), &k))
            for (a = S->sh->first; a && k > 0; k--)
                a = a->next;
        if (!a) {
            fail(S, "a ps_1_x texture instruction %s", "not found");
            return;
        }
        /* a texture read whose result nobody reads is no instruction
         * (the ones that feed later texture instructions do so through
         * their results, the others have effects of their own) */
        if (!LLVMGetFirstUse(I) && (a->op == ST_OP_TEX || a->op == ST_OP_TEXLD ||
                                    a->op == ST_OP_TEXCRD || a->op == ST_OP_TEXCOORD))
            return;
        /* it writes the lanes of its writemask (the rest is a merge) */
        uint8_t wm = st_opaque_writes(a) ? (uint8_t)(a->dst.writemask & demand(S, I)) : 0;
        if (a->op == ST_OP_TEXDEPTH || a->op == ST_OP_TEXM3x2DEPTH)
            wm = 0x1; /* the depth it writes to oDepth */
        struct mir_src srcs[4];
        unsigned n = 0;
        for (unsigned j = 1; j < nargs && n < 4; j++)
            srcs[n++] = resolve(S, LLVMGetOperand(I, j), ident);
        struct mir_instr *in = LLVMGetFirstUse(I) && wm ? def_instr(S, I, MIR_OP_OPAQUE, wm)
                                                        : emit(S, MIR_OP_OPAQUE);
        if (!in)
            return;
        in->ast = a;
        in->loc = a->loc;
        for (unsigned k = 0; k < n; k++) {
            in->src[k] = srcs[k];
            in->lanes[k] = st_opaque_reads(a, k);
        }
        in->nsrc = n;
        return;
    }
    if (mk->kind != ST_MK_OP) {
        fail(S, "the marker %s here", "st.*");
        return;
    }
    unsigned op = mk->op;
    uint8_t mask = 0;
    if (!is_void) {
        mask = (uint8_t)(demand(S, I) & op_defines(S, op));
        if (op == ST_OP_SETP) {
            struct vinfo *e = vi(S, I);
            if (e && e->cond_only)
                return; /* the branches read it as ifc */
        }
        if (!mask) {
            def_vreg(S, I); /* read in no lane */
            return;
        }
    }
    struct mir_src srcs[4];
    unsigned n = 0;
    for (unsigned k = 0; k < nargs && n < 4; k++) {
        LLVMValueRef a = LLVMGetOperand(I, k);
        if (is_vec(a))
            srcs[n++] = resolve_r(S, a, ident, mk->half);
    }
    /* a replicating operation is computed in one lane, which its readers
     * replicate (the pixel models before 2_0 write whole lane groups) */
    bool ps1x = S->ps && !S->arb && S->p->ver < ST_VER(2, 0);
    bool fvalue = class_of(LLVMTypeOf(I)) == MIR_CLASS_FLOAT ||
                  class_of(LLVMTypeOf(I)) == MIR_CLASS_HALF;
    if (!is_void && !ps1x && st_op_replicates((enum st_opcode)op, S->p->ver) && fvalue)
        mask &= (uint8_t)-mask; /* the lowest lane read */
    struct mir_instr *in = is_void ? emit(S, op) : def_instr(S, I, op, mask);
    if (!in)
        return;
    if (!is_void && !ps1x && st_op_replicates((enum st_opcode)op, S->p->ver) && fvalue)
        set_rep(S, in->dst.vreg, mask & 1 ? 0 : mask & 2 ? 1 : mask & 4 ? 2 : 3);
    in->cmp = mk->cmp;
    in->half = mk->half || in->half; /* setp.f16 writes a predicate */
    memcpy(in->src, srcs, sizeof(srcs[0]) * n);
    in->nsrc = n;
    switch (op) {
    case ST_OP_TEXLD: case ST_OP_TEXLDP: case ST_OP_TEXLDB: case ST_OP_TEXLDL: case ST_OP_TEXLDD:
        in->tex_stage = (uint8_t)st_llvm_marker_int(I, nargs - 2);
        in->tex_dims = (uint8_t)st_llvm_marker_int(I, nargs - 1);
        break;
    case ST_OP_ARB_TEX: case ST_OP_ARB_TXP: case ST_OP_ARB_TXB:
        in->tex_stage = (uint8_t)st_llvm_marker_int(I, nargs - 2);
        in->tex_target = (uint8_t)st_llvm_marker_int(I, nargs - 1);
        break;
    case ST_OP_ARB_SWZ: {
        int32_t sel = st_llvm_marker_int(I, 1);
        for (unsigned l = 0; l < 4; l++)
            in->swz_sel[l] = (uint8_t)((sel >> (3 * l)) & 7);
        in->swz_neg = (uint8_t)(st_llvm_marker_int(I, 2) & 0xf);
        break;
    }
    default:
        break;
    }
}

/* A shufflevector or insertelement: a view (nothing), or a merge. */
static void emit_shuffle(struct sel *S, LLVMValueRef I)
{
    uint8_t d = demand(S, I);
    LLVMValueRef src[2];
    int8_t map[2][4];
    uint8_t lanes[2] = {0, 0};
    unsigned nsrc = 2;
    memset(map, -1, sizeof(map));
    if (opc(I) == LLVMShuffleVector) {
        src[0] = LLVMGetOperand(I, 0);
        src[1] = LLVMGetOperand(I, 1);
        unsigned na = LLVMGetVectorSize(LLVMTypeOf(src[0]));
        if (na != 4 || LLVMGetVectorSize(LLVMTypeOf(I)) != 4) {
            fail(S, "a shuffle of vectors of %s", "other sizes than four");
            return;
        }
        for (unsigned i = 0; i < 4; i++) {
            int e = LLVMGetMaskValue(I, i);
            if (!((d >> i) & 1) || e == LLVMGetUndefMaskElem() || e < 0)
                continue;
            unsigned w = e < 4 ? 0 : 1;
            map[w][i] = (int8_t)(e & 3);
            lanes[w] |= (uint8_t)(1u << i);
        }
    } else {
        long long k;
        if (!const_int(LLVMGetOperand(I, 2), &k) || k < 0 || k > 3) {
            fail(S, "an insertelement at a %s index", "variable");
            return;
        }
        src[0] = LLVMGetOperand(I, 0);
        src[1] = LLVMGetOperand(I, 1); /* a scalar */
        for (unsigned i = 0; i < 4; i++) {
            if (!((d >> i) & 1))
                continue;
            unsigned w = i == (unsigned)k ? 1 : 0;
            map[w][i] = (int8_t)(w ? 0 : i);
            lanes[w] |= (uint8_t)(1u << i);
        }
    }
    /* lanes from poison carry nothing */
    for (unsigned w = 0; w < nsrc; w++)
        if (LLVMIsPoison(src[w]) || LLVMIsUndef(src[w]))
            lanes[w] = 0;
    if (!lanes[0] || !lanes[1])
        return; /* a view of one value: resolve() walks it */
    struct mir_src srcs[2];
    bool h = value_class(S, I) == MIR_CLASS_HALF; /* a half merge rounds (fptrunc views) */
    for (unsigned w = 0; w < nsrc; w++)
        srcs[w] = resolve_r(S, src[w], map[w], h);
    struct mir_instr *in = def_instr(S, I, MIR_OP_MERGE, (uint8_t)(lanes[0] | lanes[1]));
    if (!in)
        return;
    for (unsigned w = 0; w < nsrc; w++) {
        in->src[w] = srcs[w];
        in->lanes[w] = lanes[w];
    }
    in->nsrc = nsrc;
    S->stats->merges_in++;
}

/* Where lane l of v comes from, through views (shufflevector, insert and
 * extract of a constant index): the value *base and its lane *bl. */
static void lane_origin(LLVMValueRef v, unsigned l, LLVMValueRef *base, unsigned *bl)
{
    for (int guard = 0; guard < 256; guard++) {
        long long k;
        if (opc(v) == LLVMShuffleVector) {
            int e = LLVMGetMaskValue(v, l);
            if (e < 0 || e == LLVMGetUndefMaskElem())
                break;
            v = LLVMGetOperand(v, e < 4 ? 0 : 1);
            l = (unsigned)(e & 3);
        } else if (opc(v) == LLVMInsertElement && const_int(LLVMGetOperand(v, 2), &k)) {
            if ((unsigned)k == l) {
                v = LLVMGetOperand(v, 1);
                l = 0;
            } else {
                v = LLVMGetOperand(v, 0);
            }
        } else if (opc(v) == LLVMExtractElement && const_int(LLVMGetOperand(v, 1), &k)) {
            l = (unsigned)k;
            v = LLVMGetOperand(v, 0);
        } else {
            break;
        }
    }
    *base = v;
    *bl = is_vec(v) ? l : 0;
}

static bool const_lane(struct sel *S, LLVMValueRef v, unsigned l, uint32_t *bits);

/* Whether lane l of a and of b are one value (the same lane of the same
 * value, or equal constants): a select there needs no move. */
static bool same_lane(struct sel *S, LLVMValueRef a, LLVMValueRef b, unsigned l)
{
    LLVMValueRef va, vb;
    unsigned la, lb;
    lane_origin(a, l, &va, &la);
    lane_origin(b, l, &vb, &lb);
    if (va == vb && la == lb && !LLVMIsUndef(va) && !LLVMIsPoison(va))
        return true;
    uint32_t x, y;
    return const_lane(S, a, l, &x) && const_lane(S, b, l, &y) && x == y;
}

/* select(c, a, b): a copy of b, then a predicated move of a, in the lanes
 * where a and b differ (a partial write merged into the false value is
 * b in the lanes it leaves: `(!p0.y) mov r4.w, c0.z` moves w alone). */
static void emit_select(struct sel *S, LLVMValueRef I)
{
    LLVMValueRef c = LLVMGetOperand(I, 0), a = LLVMGetOperand(I, 1), b = LLVMGetOperand(I, 2);
    uint8_t d = demand(S, I);
    if (!d) {
        def_vreg(S, I);
        return;
    }
    if (LLVMGetTypeKind(LLVMTypeOf(I)) == LLVMPointerTypeKind) {
        fail(S, "a select of %s", "pointers");
        return;
    }
    bool h = class_of(LLVMTypeOf(I)) == MIR_CLASS_HALF;
    struct mir_src sb = resolve_r(S, b, ident, h), sa = resolve_r(S, a, ident, h), sc = sb;
    if (is_vec(c)) {
        int8_t m[4];
        for (unsigned l = 0; l < 4; l++)
            m[l] = (d >> l) & 1 ? (int8_t)l : (int8_t)-1;
        sc = resolve(S, c, m);
        if (sc.kind == MIR_FIXED)
            fail(S, "a select on %s", "this condition");
    } else if (!resolve_bool(S, c, 0, &sc)) {
        fail(S, "a select on %s", "this condition");
    }
    struct mir_instr *cp = def_instr(S, I, MIR_OP_MERGE, d);
    if (!cp)
        return;
    cp->nsrc = 1;
    cp->src[0] = sb;
    cp->lanes[0] = d;
    S->stats->merges_in++;
    uint8_t moved = d;
    for (unsigned l = 0; l < 4; l++)
        if (((d >> l) & 1) && same_lane(S, a, b, l))
            moved &= (uint8_t)~(1u << l);
    if (!moved)
        return;
    struct mir_instr *mv = emit(S, ST_OP_MOV);
    if (!mv)
        return;
    uint32_t D = vreg_of(S, I);
    mv->has_dst = true;
    mv->dst = (struct mir_dst){.kind = MIR_VREG, .mask = moved, .vreg = D};
    mv->nsrc = 1;
    mv->src[0] = sa;
    mv->predicated = true;
    mv->pred = sc;
    mv->uniform = uniform(S, I);
    mv->half = h;
}

/* fadd / fsub (vector or scalar). */
static void emit_arith(struct sel *S, LLVMValueRef I, unsigned op)
{
    uint8_t d = is_vec(I) ? demand(S, I) : 0x1;
    if (!d) {
        def_vreg(S, I);
        return;
    }
    bool h = class_of(LLVMTypeOf(I)) == MIR_CLASS_HALF; /* fadd half: a _pp add */
    struct mir_src s0 = resolve_r(S, LLVMGetOperand(I, 0), ident, h);
    struct mir_src s1 = resolve_r(S, LLVMGetOperand(I, 1), ident, h);
    struct mir_instr *in = def_instr(S, I, op, d);
    if (!in)
        return;
    in->nsrc = 2;
    in->src[0] = s0;
    in->src[1] = s1;
}

/* Lane l of v when it is a known constant (through views and merges). */
static bool const_lane(struct sel *S, LLVMValueRef v, unsigned l, uint32_t *bits)
{
    for (int guard = 0; guard < 256; guard++) {
        if (LLVMIsConstant(v)) {
            LLVMValueRef e = is_vec(v) ? LLVMGetAggregateElement(v, l) : v;
            if (!e || !LLVMIsAConstantFP(e))
                return false;
            LLVMBool lost;
            float f = (float)LLVMConstRealGetDouble(e, &lost);
            memcpy(bits, &f, 4);
            return true;
        }
        if (opc(v) == LLVMShuffleVector) {
            int e = LLVMGetMaskValue(v, l);
            if (e < 0 || e == LLVMGetUndefMaskElem())
                return false;
            v = LLVMGetOperand(v, e < 4 ? 0 : 1);
            l = (unsigned)(e & 3);
            continue;
        }
        if (opc(v) == LLVMInsertElement) {
            long long k;
            if (!const_int(LLVMGetOperand(v, 2), &k))
                return false;
            if ((unsigned)k == l) {
                v = LLVMGetOperand(v, 1);
                l = 0;
            } else {
                v = LLVMGetOperand(v, 0);
            }
            continue;
        }
        if (opc(v) == LLVMExtractElement) {
            long long k;
            if (!const_int(LLVMGetOperand(v, 1), &k))
                return false;
            l = (unsigned)k;
            v = LLVMGetOperand(v, 0);
            continue;
        }
        return false;
    }
    (void)S;
    return false;
}

/* A store into the output record: a move into the output register. */
static void emit_store(struct sel *S, LLVMValueRef I)
{
    LLVMValueRef v = LLVMGetOperand(I, 0);
    int a;
    long long off;
    if (!arg_offset(S, LLVMGetOperand(I, 1), &a, &off) || a != ARG_OUT || off % 16 ||
        !is_vec(v)) {
        fail(S, "a store to %s", "this memory");
        return;
    }
    enum st_regfile f;
    int32_t idx;
    if (!out_reg(S, off / 16, &f, &idx)) {
        fail(S, "a store to output slot %s", "out of range");
        return;
    }
    /* Outputs start at 0: the lanes that are still that constant need no
     * write.  Pixel colours are written whole. */
    uint8_t mask = 0xf;
    bool colour = S->ps && (f == ST_REG_COLOROUT ||
                            (S->arb && f == ST_REG_OUTPUT && idx >= 0 &&
                             (uint32_t)idx < S->sh->arb->num_outputs &&
                             strncmp(S->sh->arb->outputs[idx].binding, "result.color", 12) == 0));
    bool scalar = (!S->arb && ((f == ST_REG_RASTOUT && idx != ST_RASTOUT_POS) ||
                               f == ST_REG_DEPTHOUT));
    if (scalar)
        mask = 0x1;
    else if (!colour)
        for (unsigned l = 0; l < 4; l++) {
            uint32_t bits;
            if (const_lane(S, v, l, &bits) && bits == 0)
                mask &= (uint8_t)~(1u << l);
        }
    if (!mask)
        mask = 0xf; /* zeros only: still written (it is one of the program's outputs) */
    struct mir_src s0 = resolve(S, v, ident);
    struct mir_instr *in = emit(S, ST_OP_MOV);
    if (!in)
        return;
    in->has_dst = true;
    in->dst = (struct mir_dst){.kind = MIR_FIXED, .mask = mask, .file = f, .index = idx};
    in->nsrc = 1;
    in->src[0] = s0;
    in->uniform = false;
}

/*
 * fptrunc x to half: the half instructions that read it round x themselves
 * (resolve_r), but a value read as a float afterwards (fpext: a dcl_pp
 * input, a texld_pp texel stored to its register) is computed here, where
 * it dominates every reader: a half mov of x.
 */
static void emit_fptrunc(struct sel *S, LLVMValueRef I)
{
    bool widened = false;
    for (LLVMUseRef u = LLVMGetFirstUse(I); u && !widened; u = LLVMGetNextUse(u))
        widened = opc(LLVMGetUser(u)) == LLVMFPExt;
    uint8_t d = is_vec(I) ? demand(S, I) : 0x1;
    if (!widened || !d)
        return;
    struct mir_src s0 = resolve_r(S, LLVMGetOperand(I, 0), ident, true);
    struct mir_instr *in = def_instr(S, I, ST_OP_MOV, d);
    if (!in)
        return;
    in->nsrc = 1;
    in->src[0] = s0;
}

/* One instruction of a block, at its place in program order. */
static void emit_inst(struct sel *S, LLVMValueRef I)
{
    struct st_marker mk;
    switch (opc(I)) {
    case LLVMCall:
        if (st_llvm_marker(&S->mc, I, &mk)) {
            if (mk.kind != ST_MK_REL && mk.kind != ST_MK_MOD)
                emit_marker(S, I, &mk);
            return;
        }
        {
            LLVMValueRef callee = LLVMGetCalledValue(I);
            size_t len = 0;
            const char *name = callee ? LLVMGetValueName2(callee, &len) : "";
            if (len > 9 && strncmp(name, "llvm.fabs", 9) == 0)
                return; /* a view */
            fail(S, "a call to %s", name);
        }
        return;
    case LLVMShuffleVector: case LLVMInsertElement:
        emit_shuffle(S, I);
        return;
    case LLVMSelect:
        if (is_vec(I) || class_of(LLVMTypeOf(I)) == MIR_CLASS_FLOAT)
            emit_select(S, I);
        return; /* an integer select: a loop count's clamp */
    case LLVMFAdd:
        emit_arith(S, I, ST_OP_ADD);
        return;
    case LLVMFSub:
        emit_arith(S, I, ST_OP_SUB);
        return;
    case LLVMStore:
        emit_store(S, I);
        return;
    case LLVMFPTrunc:
        emit_fptrunc(S, I);
        return;
    case LLVMFPExt:
        return; /* a view: the half as the float it is */
    case LLVMLoad: case LLVMGetElementPtr: case LLVMExtractElement: case LLVMFNeg:
    case LLVMSIToFP: case LLVMICmp: case LLVMXor: case LLVMAdd: case LLVMSub: case LLVMPHI: case LLVMBr:
    case LLVMRet:
        return; /* views, loop counters, conditions, flow */
    default: {
        char *s = LLVMPrintValueToString(I);
        char buf[64];
        snprintf(buf, sizeof(buf), "%.60s", s ? s + strspn(s, " ") : "?");
        LLVMDisposeMessage(s);
        fail(S, "the instruction '%s'", buf);
        return;
    }
    }
}

/* ------------------------------------------------------------------ */
/* Loops: the lowering's counter and aL phis.                           */

/* The integer register i# whose lane `lane` v reads, or a constant. */
static bool int_source(struct sel *S, LLVMValueRef v, unsigned lane, int32_t *reg, long long *k)
{
    *reg = -1;
    for (int guard = 0; guard < 16; guard++) {
        if (const_int(v, k))
            return true;
        LLVMValueRef callee = opc(v) == LLVMCall ? LLVMGetCalledValue(v) : NULL;
        size_t len = 0;
        const char *name = callee ? LLVMGetValueName2(callee, &len) : "";
        if (len > 9 && (strncmp(name, "llvm.smax", 9) == 0 || strncmp(name, "llvm.smin", 9) == 0)) {
            /* the count's clamp to 0..255: the target clamps again */
            v = LLVMGetOperand(v, 0);
            continue;
        }
        if (opc(v) == LLVMSelect) { /* the clamp before instcombine */
            LLVMValueRef a = LLVMGetOperand(v, 1), b = LLVMGetOperand(v, 2);
            v = LLVMIsConstant(a) ? b : a;
            continue;
        }
        if (opc(v) == LLVMExtractElement) {
            long long e;
            if (!const_int(LLVMGetOperand(v, 1), &e) || e != lane)
                return false;
            v = LLVMGetOperand(v, 0);
            if (opc(v) != LLVMLoad)
                return false;
        }
        if (opc(v) == LLVMLoad) {
            enum st_regfile f;
            int32_t idx;
            int ln;
            if (!load_reg(S, v, &f, &idx, &ln) || f != ST_REG_CONSTINT)
                return false;
            if (!is_vec(v) && (unsigned)ln != lane)
                return false;
            *reg = idx;
            return true;
        }
        return false;
    }
    return false;
}

/* Recognises loop L's counter (and aL) phis; emits nothing. */
static bool loop_phis(struct sel *S, unsigned L)
{
    const struct mloop *ml = &S->g.loops[L];
    LLVMBasicBlockRef h = S->g.bb[ml->header], latch = S->g.bb[ml->latch];
    LLVMValueRef t = LLVMGetBasicBlockTerminator(h);
    if (!t || !LLVMIsConditional(t))
        return false;
    LLVMValueRef c = LLVMGetCondition(t);
    if (opc(c) != LLVMICmp)
        return false;
    LLVMValueRef cnt = LLVMGetOperand(c, 0);
    if (opc(cnt) != LLVMPHI || LLVMGetInstructionParent(cnt) != h)
        return false;
    S->lp[L].count_phi = cnt;
    for (LLVMValueRef I = LLVMGetFirstInstruction(h); I && opc(I) == LLVMPHI;
         I = LLVMGetNextInstruction(I)) {
        if (I == cnt || LLVMGetTypeKind(LLVMTypeOf(I)) != LLVMIntegerTypeKind ||
            LLVMGetIntTypeWidth(LLVMTypeOf(I)) != 32)
            continue;
        for (unsigned k = 0; k < LLVMCountIncoming(I); k++)
            if (LLVMGetIncomingBlock(I, k) == latch && opc(LLVMGetIncomingValue(I, k)) == LLVMAdd)
                S->lp[L].al_phi = I;
    }
    return true;
}

/* REP / LOOP for loop L, entered from block `pre`. */
static void emit_loop_head(struct sel *S, unsigned L, LLVMBasicBlockRef pre)
{
    struct lp *lp = &S->lp[L];
    const struct mloop *ml = &S->g.loops[L];
    LLVMBasicBlockRef latch = S->g.bb[ml->latch];
    LLVMValueRef init[3] = {NULL, NULL, NULL}; /* count, start, step */
    for (unsigned k = 0; k < LLVMCountIncoming(lp->count_phi); k++)
        if (LLVMGetIncomingBlock(lp->count_phi, k) == pre)
            init[0] = LLVMGetIncomingValue(lp->count_phi, k);
    if (lp->al_phi)
        for (unsigned k = 0; k < LLVMCountIncoming(lp->al_phi); k++) {
            LLVMValueRef v = LLVMGetIncomingValue(lp->al_phi, k);
            if (LLVMGetIncomingBlock(lp->al_phi, k) == pre)
                init[1] = v;
            else if (LLVMGetIncomingBlock(lp->al_phi, k) == latch && opc(v) == LLVMAdd)
                init[2] = LLVMGetOperand(v, LLVMGetOperand(v, 0) == lp->al_phi ? 1 : 0);
        }
    if (!init[0] || (lp->al_phi && (!init[1] || !init[2]))) {
        fail(S, "a loop whose count %s", "is not the lowering's");
        return;
    }
    int32_t reg = -1;
    int32_t vals[4] = {0, 0, 0, 0};
    bool all_const = true;
    for (unsigned k = 0; k < (lp->al_phi ? 3u : 1u); k++) {
        int32_t r;
        long long x = 0;
        if (!int_source(S, init[k], k, &r, &x)) {
            fail(S, "a loop count, start or step of %s", "this shape");
            return;
        }
        if (r >= 0) {
            if (reg >= 0 && reg != r) {
                fail(S, "a loop reading two integer registers%s", "");
                return;
            }
            reg = r;
            all_const = false;
        } else {
            vals[k] = (int32_t)x;
        }
    }
    if (!all_const && reg < 0) {
        fail(S, "a loop count of %s", "this shape");
        return;
    }
    if (!all_const && (lp->al_phi ? 3 : 1) > 1) {
        /* a loop mixing an i# and constants: only when all come from i# */
        for (unsigned k = 0; k < 3; k++) {
            int32_t r;
            long long x;
            if (!int_source(S, init[k], k, &r, &x) || r != reg) {
                fail(S, "a loop mixing %s", "an integer register and constants");
                return;
            }
        }
    }
    struct mir_instr *in = emit(S, lp->al_phi ? ST_OP_LOOP : ST_OP_REP);
    if (!in)
        return;
    in->nsrc = 1;
    in->uniform = true;
    if (all_const) {
        uint32_t b[4] = {(uint32_t)vals[0], (uint32_t)vals[1], (uint32_t)vals[2], 0};
        in->src[0] = mir_src_imm(mir_imm(S->p, b, MIR_CLASS_INT), ST_SWIZZLE_IDENTITY);
    } else {
        in->src[0] = mir_src_fixed(ST_REG_CONSTINT, reg, ST_SWIZZLE_IDENTITY);
    }
    if (lp->al_phi) {
        lp->al_vreg = def_vreg(S, lp->al_phi);
        in->has_dst = true;
        in->dst = (struct mir_dst){.kind = MIR_VREG, .mask = 0x1, .vreg = lp->al_vreg};
    }
}

/* ------------------------------------------------------------------ */
/* Phi copies on an edge.                                              */

static bool is_loop_phi(struct sel *S, LLVMValueRef phi)
{
    int b = mcfg_index(&S->g, LLVMGetInstructionParent(phi));
    int L = b >= 0 ? S->g.header_of[b] : -1;
    return L >= 0 && (S->lp[L].count_phi == phi || S->lp[L].al_phi == phi);
}

static void copy_into(struct sel *S, LLVMValueRef phi, struct mir_src src, uint8_t lanes)
{
    struct mir_instr *in = emit(S, MIR_OP_MERGE);
    if (!in)
        return;
    in->has_dst = true;
    in->phi_copy = true;
    in->dst = (struct mir_dst){.kind = MIR_VREG, .mask = lanes, .vreg = def_vreg(S, phi)};
    in->half = half_vreg(S, in->dst.vreg);
    in->nsrc = 1;
    in->src[0] = src;
    in->lanes[0] = lanes;
    in->uniform = uniform(S, phi);
    S->stats->merges_in++;
}

/* The copies for the phis of `to` on the edge from `from` (a parallel
 * copy: a phi of `to` read by another is read before any is written). */
static void phi_copies(struct sel *S, LLVMBasicBlockRef from, LLVMBasicBlockRef to)
{
    unsigned nphi = 0;
    for (LLVMValueRef I = LLVMGetFirstInstruction(to); I && opc(I) == LLVMPHI;
         I = LLVMGetNextInstruction(I))
        nphi++;
    if (!nphi)
        return;
    struct pend { LLVMValueRef phi; struct mir_src src; uint8_t lanes; } *pd =
        malloc(sizeof(*pd) * nphi);
    if (!pd) {
        S->p->oom = S->failed = true;
        return;
    }
    unsigned n = 0;
    for (LLVMValueRef I = LLVMGetFirstInstruction(to); I && opc(I) == LLVMPHI;
         I = LLVMGetNextInstruction(I)) {
        if (is_loop_phi(S, I))
            continue;
        uint8_t lanes = demand(S, I);
        if (!lanes)
            continue;
        for (unsigned k = 0; k < LLVMCountIncoming(I); k++) {
            if (LLVMGetIncomingBlock(I, k) != from)
                continue;
            LLVMValueRef v = LLVMGetIncomingValue(I, k);
            if (v == I || LLVMIsPoison(v) || LLVMIsUndef(v))
                break;
            int8_t m[4];
            for (unsigned l = 0; l < 4; l++)
                m[l] = (lanes >> l) & 1 ? (int8_t)l : (int8_t)-1;
            uint32_t pv = def_vreg(S, I);
            struct mir_src s = resolve_r(S, v, is_vec(I) ? m : ident,
                                         half_vreg(S, pv));
            /* a phi of this block as the source: read it into a temporary
             * before the copies write any of them */
            if (opc(v) == LLVMPHI && LLVMGetInstructionParent(v) == to)
                s = materialize(S, s, class_of(LLVMTypeOf(v)), v);
            pd[n++] = (struct pend){I, s, lanes};
            break;
        }
    }
    for (unsigned k = 0; k < n; k++)
        copy_into(S, pd[k].phi, pd[k].src, pd[k].lanes);
    free(pd);
}

/* The phis of loop L's exit fed from its header: the value they take when
 * the count runs out, kept up to date before the loop and after each
 * iteration (a break copies its own values). */
static void exit_copies(struct sel *S, unsigned L)
{
    const struct mloop *ml = &S->g.loops[L];
    phi_copies(S, S->g.bb[ml->header], S->g.bb[ml->exit]);
}

/* ------------------------------------------------------------------ */
/* Conditions                                                          */

/* Is setp marker M read only by branches (as one lane, through
 * extractelement and xor)?  Then those branches are ifc and M no setp. */
static bool cond_only(LLVMValueRef M)
{
    for (LLVMUseRef u = LLVMGetFirstUse(M); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef x = LLVMGetUser(u);
        if (opc(x) != LLVMExtractElement)
            return false;
        long long k;
        if (!const_int(LLVMGetOperand(x, 1), &k) || k != 0)
            return false;
        for (LLVMUseRef w = LLVMGetFirstUse(x); w; w = LLVMGetNextUse(w)) {
            LLVMValueRef y = LLVMGetUser(w);
            if (opc(y) == LLVMXor) {
                for (LLVMUseRef z = LLVMGetFirstUse(y); z; z = LLVMGetNextUse(z))
                    if (opc(LLVMGetUser(z)) != LLVMBr)
                        return false;
                continue;
            }
            if (opc(y) != LLVMBr)
                return false;
        }
    }
    return true;
}

/*
 * The IF for branch condition c (true: the then-arm runs).  *negated is
 * set when the instruction tests the opposite (an ifc whose negation has
 * no compare of its own: the caller swaps the arms).
 */
static struct mir_instr *emit_cond(struct sel *S, LLVMValueRef c, LLVMValueRef br, bool *negated)
{
    *negated = false;
    bool neg = false;
    while (opc(c) == LLVMXor) {
        LLVMValueRef a = LLVMGetOperand(c, 0), b = LLVMGetOperand(c, 1);
        long long one;
        if (const_int(b, &one) && (one & 1)) {
            neg = !neg;
            c = a;
        } else if (const_int(a, &one) && (one & 1)) {
            neg = !neg;
            c = b;
        } else {
            break;
        }
    }
    struct st_marker mk;
    if (opc(c) == LLVMExtractElement) {
        LLVMValueRef M = LLVMGetOperand(c, 0);
        struct vinfo *e = vi(S, M);
        if (e && e->cond_only && st_llvm_marker(&S->mc, M, &mk) && mk.op == ST_OP_SETP) {
            const int8_t lane0[4] = {0, 0, 0, 0};
            struct mir_src s0 = resolve(S, LLVMGetOperand(M, 0), lane0);
            struct mir_src s1 = resolve(S, LLVMGetOperand(M, 1), lane0);
            struct mir_instr *in = emit(S, ST_OP_IFC);
            if (!in)
                return NULL;
            in->cmp = mk.cmp;
            /* eq and ne are each other's negation, NaN included */
            if (neg && (mk.cmp == ST_CMP_EQ || mk.cmp == ST_CMP_NE)) {
                in->cmp = mk.cmp == ST_CMP_EQ ? ST_CMP_NE : ST_CMP_EQ;
                neg = false;
            }
            in->nsrc = 2;
            in->src[0] = s0;
            in->src[1] = s1;
            in->uniform = uniform(S, br);
            *negated = neg;
            return in;
        }
    }
    struct mir_instr *in = emit(S, ST_OP_IF);
    if (!in)
        return NULL;
    in->nsrc = 1;
    in->uniform = uniform(S, br);
    if (!resolve_bool(S, c, 0, &in->src[0])) {
        char *t = LLVMPrintValueToString(c);
        char buf[80];
        snprintf(buf, sizeof(buf), "%.70s", t ? t + strspn(t, " ") : "?");
        LLVMDisposeMessage(t);
        fail(S, "a branch on '%s'", buf);
        return in;
    }
    if (neg)
        in->src[0].mod = in->src[0].mod == MIR_MOD_NOT ? MIR_MOD_NONE : MIR_MOD_NOT;
    return in;
}

static void emit_flow(struct sel *S, unsigned op)
{
    struct mir_instr *in = emit(S, op);
    (void)in;
}

/* ------------------------------------------------------------------ */
/* The structured walk                                                  */

enum fkind { F_SEQ, F_IF, F_LOOP, F_ONCE };

struct frame {
    uint8_t kind;
    bool else_done;     /* F_IF: the else arm was started */
    int loop;           /* the innermost loop being built, -1 */
    int cur, stop;      /* F_SEQ: next block, region end (-1 / MCFG_END: none) */
    int from;           /* F_SEQ: the block whose edge enters cur (copies), -1 */
    int branch, other;  /* F_IF: the branch block, the else arm's first block */
    int join;
    int L;              /* F_LOOP */
};

struct stack {
    struct frame *f;
    unsigned n, cap;
};

static bool push(struct sel *S, struct stack *st, struct frame f)
{
    if (st->n == st->cap) {
        unsigned cap = st->cap ? st->cap * 2 : 32;
        struct frame *n = realloc(st->f, sizeof(*n) * cap);
        if (!n) {
            S->p->oom = S->failed = true;
            return false;
        }
        st->f = n;
        st->cap = cap;
    }
    st->f[st->n++] = f;
    return true;
}

static LLVMBasicBlockRef blk(struct sel *S, int i)
{
    return i >= 0 ? S->g.bb[i] : NULL;
}

/* The body of a block: its instructions but phis and the terminator. */
static void emit_block(struct sel *S, int b)
{
    LLVMBasicBlockRef bb = S->g.bb[b];
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I && I != t && !S->failed;
         I = LLVMGetNextInstruction(I)) {
        if (!st_poll(S->ctx, 1)) { /* compile budget, cancel (reported there) */
            S->failed = true;
            break;
        }
        if (opc(I) != LLVMPHI)
            emit_inst(S, I);
    }
}

/* Allocates the vregs of a block's phis (before anything reads them). */
static void phi_vregs(struct sel *S, int b)
{
    for (LLVMValueRef I = LLVMGetFirstInstruction(S->g.bb[b]); I && opc(I) == LLVMPHI;
         I = LLVMGetNextInstruction(I))
        if (!is_loop_phi(S, I))
            def_vreg(S, I);
}

/* An IF .. BREAK .. ENDIF on the edge b -> exit of loop L. */
static void emit_break(struct sel *S, LLVMValueRef c, bool when, int b, int L, LLVMValueRef br)
{
    bool negated = false;
    int exit = (int)S->g.loops[L].exit;
    if (c) {
        struct mir_instr *in = emit_cond(S, c, br, &negated);
        if (!in)
            return;
        if (!when) {
            /* break when c is false */
            if (in->op == ST_OP_IF)
                in->src[0].mod = in->src[0].mod == MIR_MOD_NOT ? MIR_MOD_NONE : MIR_MOD_NOT;
            else
                negated = !negated;
        }
        if (negated)
            emit_flow(S, ST_OP_ELSE); /* the compare has no negation: its else arm */
    }
    phi_copies(S, blk(S, b), blk(S, exit));
    emit_flow(S, ST_OP_BREAK);
    if (c)
        emit_flow(S, ST_OP_ENDIF);
}

static bool inside(struct sel *S, int b, int L)
{
    for (int l = S->g.loop_of[b]; l >= 0; l = S->g.loops[l].parent)
        if (l == L)
            return true;
    return false;
}

static void walk(struct sel *S)
{
    struct stack st = {NULL, 0, 0};
    push(S, &st, (struct frame){.kind = F_SEQ, .loop = -1, .cur = 0, .stop = MCFG_END,
                                .from = -1});
    while (st.n && !S->failed) {
        struct frame *f = &st.f[st.n - 1];
        if (f->kind == F_IF) {
            if (!f->else_done) {
                f->else_done = true;
                emit_flow(S, ST_OP_ELSE);
                struct frame arm = {.kind = F_SEQ, .loop = f->loop, .cur = f->other,
                                    .stop = f->join, .from = f->branch};
                push(S, &st, arm);
            } else {
                emit_flow(S, ST_OP_ENDIF);
                st.n--;
            }
            continue;
        }
        if (f->kind == F_ONCE) {
            emit_flow(S, ST_OP_BREAK);
            emit_flow(S, ST_OP_ENDREP);
            st.n--;
            continue;
        }
        if (f->kind == F_LOOP) {
            /* the body ended with the latch's copies: the exit phis fed
             * from the header take their value for the next test */
            exit_copies(S, (unsigned)f->L);
            emit_flow(S, S->lp[f->L].al_phi ? ST_OP_ENDLOOP : ST_OP_ENDREP);
            st.n--;
            continue;
        }
        /* F_SEQ */
        if (f->from >= 0) {
            int from = f->from;
            f->from = -1;
            if (f->cur >= 0)
                phi_copies(S, blk(S, from), blk(S, f->cur));
        }
        int b = f->cur;
        if (b < 0 || b == f->stop) {
            st.n--;
            continue;
        }
        int L = S->g.header_of[b];
        if (L >= 0 && L != f->loop) {
            /* a loop: its head, then its body up to the latch */
            const struct mloop *ml = &S->g.loops[L];
            LLVMValueRef ht = LLVMGetBasicBlockTerminator(S->g.bb[b]);
            for (LLVMValueRef I = LLVMGetFirstInstruction(S->g.bb[b]); I && I != ht;
                 I = LLVMGetNextInstruction(I))
                if (opc(I) != LLVMPHI && I != LLVMGetCondition(ht)) {
                    fail(S, "a loop whose first block computes %s", "something");
                    break;
                }
            phi_vregs(S, b);
            phi_vregs(S, (int)ml->exit);
            exit_copies(S, (unsigned)L); /* zero trips */
            emit_loop_head(S, (unsigned)L, blk(S, ml->entry));
            f->cur = (int)ml->exit;
            f->from = -1;
            push(S, &st, (struct frame){.kind = F_LOOP, .loop = L, .L = L});
            push(S, &st, (struct frame){.kind = F_SEQ, .loop = L, .cur = (int)ml->body,
                                        .stop = (int)ml->header, .from = -1});
            continue;
        }
        phi_vregs(S, b);
        emit_block(S, b);
        LLVMValueRef t = LLVMGetBasicBlockTerminator(S->g.bb[b]);
        if (!t || opc(t) == LLVMRet) {
            f->cur = -1;
            continue;
        }
        if (opc(t) != LLVMBr) {
            fail(S, "a terminator of %s", "this kind");
            break;
        }
        unsigned ns = S->g.nsucc[b];
        LLVMValueRef c = ns == 2 ? LLVMGetCondition(t) : NULL;
        int T = (int)S->g.succ[b][0], F = ns == 2 ? (int)S->g.succ[b][1] : T;
        long long kc;
        if (c && const_int(c, &kc)) {
            /* a constant branch (a defb): only one way */
            T = F = (kc & 1) ? T : F;
            c = NULL;
        }
        int inner = f->loop;
        int exit = inner >= 0 ? (int)S->g.loops[inner].exit : -2;
        if (!c) {
            if (inner >= 0 && T == (int)S->g.loops[inner].header) {
                phi_copies(S, S->g.bb[b], S->g.bb[T]); /* the latch */
                f->cur = -1;
            } else if (T == exit) {
                emit_break(S, NULL, true, b, inner, t);
                f->cur = -1;
            } else {
                f->from = b;
                f->cur = T;
            }
            continue;
        }
        struct mir_src bsrc;
        if (opc(c) == LLVMICmp && LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(c, 0))) == 32 &&
            !resolve_bool(S, c, 0, &bsrc)) {
            /* "count > 0" with no loop around it: a rep whose body always
             * breaks (its latch is dead): rep, the body, break, endrep */
            int32_t reg = -1;
            long long k0 = 0, x = 0;
            LLVMIntPredicate pr = LLVMGetICmpPredicate(c);
            if (pr != LLVMIntSGT || !const_int(LLVMGetOperand(c, 1), &k0) || k0 != 0 ||
                !int_source(S, LLVMGetOperand(c, 0), 0, &reg, &x)) {
                fail(S, "a branch on %s", "an integer that is no loop count");
                break;
            }
            int J = S->g.ipdom[b];
            if (J == MCFG_NONE)
                J = MCFG_END;
            phi_copies(S, S->g.bb[b], blk(S, F)); /* count <= 0 */
            struct mir_instr *in = emit(S, ST_OP_REP);
            if (!in)
                break;
            in->nsrc = 1;
            in->uniform = true;
            if (reg >= 0) {
                in->src[0] = mir_src_fixed(ST_REG_CONSTINT, reg, ST_SWIZZLE_IDENTITY);
            } else {
                uint32_t bits[4] = {(uint32_t)x, 0, 0, 0};
                in->src[0] = mir_src_imm(mir_imm(S->p, bits, MIR_CLASS_INT), ST_SWIZZLE_IDENTITY);
            }
            f->cur = J;
            f->from = -1;
            int stop = J >= 0 ? J : MCFG_END;
            push(S, &st, (struct frame){.kind = F_ONCE, .loop = inner});
            push(S, &st, (struct frame){.kind = F_SEQ, .loop = inner, .cur = T, .stop = stop,
                                        .from = b});
            continue;
        }
        if (T == exit || F == exit) {
            int other = T == exit ? F : T;
            emit_break(S, c, T == exit, b, inner, t);
            if (inner >= 0 && other == (int)S->g.loops[inner].header) {
                phi_copies(S, S->g.bb[b], S->g.bb[other]);
                f->cur = -1;
            } else {
                f->from = b;
                f->cur = other;
            }
            continue;
        }
        int J = S->g.ipdom[b];
        if (J == MCFG_NONE)
            J = MCFG_END; /* every way out breaks: the arms end with their breaks */
        bool negated = false;
        struct mir_instr *in = emit_cond(S, c, t, &negated);
        if (!in)
            break;
        if (negated) {
            int x = T;
            T = F;
            F = x;
        }
        /* after the if: continue at the join (entered from inside the arms) */
        f->cur = J;
        f->from = -1;
        if (J >= 0 && !inside(S, J, inner) && inner >= 0)
            f->cur = -1;
        int stop = J >= 0 ? J : MCFG_END;
        push(S, &st, (struct frame){.kind = F_IF, .loop = inner, .branch = b, .other = F,
                                    .join = stop});
        push(S, &st, (struct frame){.kind = F_SEQ, .loop = inner, .cur = T, .stop = stop,
                                    .from = b});
    }
    free(st.f);
}

/* ------------------------------------------------------------------ */
/* Entry point                                                         */

/* Setp markers read only as branch conditions become ifc. */
static void mark_conditions(struct sel *S)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(S->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
            struct st_marker mk;
            /* (a half setp stays one: ifc compares at full precision) */
            if (st_llvm_marker(&S->mc, I, &mk) && mk.kind == ST_MK_OP && mk.op == ST_OP_SETP &&
                !mk.half && LLVMGetFirstUse(I) && cond_only(I)) {
                struct vinfo *e = vi(S, I);
                if (e)
                    e->cond_only = true;
            }
        }
}

bool st_merge_select(struct st_ctx *ctx, const struct st_shader *sh, LLVMModuleRef m,
                     struct mir_prog *p, struct st_merge_stats *stats)
{
    struct sel S;
    memset(&S, 0, sizeof(S));
    S.ctx = ctx;
    S.sh = sh;
    S.p = p;
    S.stats = stats;
    S.ps = sh->version.type == ST_PS;
    S.arb = sh->dialect == ST_ARB;
    memset(p, 0, sizeof(*p));
    p->sh = sh;
    p->type = sh->version.type;
    p->ver = sh->version.ver;
    p->arb = S.arb;
    p->loc = sh->version.loc;
    S.fn = LLVMGetNamedFunction(m, "st_main");
    if (!S.fn || LLVMCountParams(S.fn) != NUM_ARGS) {
        fail(&S, "a module without %s", "st_main");
        return false;
    }
    for (unsigned k = 0; k < NUM_ARGS; k++)
        S.arg[k] = LLVMGetParam(S.fn, k);
    LLVMContextRef c = LLVMGetModuleContext(m);
    S.md_lanes = LLVMGetMDKindIDInContext(c, ST_MD_LANES, (unsigned)strlen(ST_MD_LANES));
    S.md_uniform = LLVMGetMDKindIDInContext(c, ST_MD_UNIFORM, (unsigned)strlen(ST_MD_UNIFORM));
    const char *why = NULL;
    if (!mcfg_build(&S.g, S.fn, &why)) {
        if (why)
            fail(&S, "%s", why);
        else
            st_error(ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    S.lp = calloc(S.g.nloops + 1, sizeof(*S.lp));
    if (!S.lp) {
        mcfg_free(&S.g);
        st_error(ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    for (unsigned L = 0; L < S.g.nloops && !S.failed; L++)
        if (!loop_phis(&S, L))
            fail(&S, "a loop that is not %s", "counted the lowering's way");
    if (!S.failed) {
        mark_conditions(&S);
        walk(&S);
    }
    free(S.lp);
    free(S.map);
    free(S.rep);
    mcfg_free(&S.g);
    if (p->oom) {
        st_error(ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    return !S.failed;
}
