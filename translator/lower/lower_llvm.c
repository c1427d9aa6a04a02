/*
 * lower_llvm.c — the checked D3D9 AST as LLVM IR (LLVM C API only).
 *
 * Every register a shader writes lives in an alloca of <4 x float> (a0:
 * <4 x i32>, p0: <4 x i1>).  A read is a load, a shufflevector for the
 * swizzle and fneg/fabs for the modifier; a write under a writemask loads
 * the old value and merges the written lanes in with one shufflevector
 * (the "merge") before the store.  After mem2reg the merges are plain SSA
 * values the optimizers understand and the merge stage can turn back into
 * writemasks.  docs/llvm-abi.md documents the function this file builds.
 *
 * The arithmetic mirrors the reference interpreter (interp.c) operation by
 * operation: same float32 operations in the same order, no fast-math flags,
 * no fused multiply-add, the libm double functions where it calls them, so
 * the JIT agrees with it bit for bit (tests/test_diff_llvm.c).
 *
 * Control flow becomes a CFG; subroutines are inlined at each call.
 * Texture sampling is a call to the st_sample callback.  Derivatives need
 * the other members of a 2x2 quad at the same point of the program, which
 * one invocation's code cannot see: a pixel shader stops in front of each
 * dsx/dsy (registers saved in its lane state) and the caller resumes it
 * with the value, exactly as the interpreter schedules its quads.
 *
 * The LLVM calls sit behind small typed helpers (bld_*) so the op lowering
 * below reads like the instruction reference.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "translator.h"

/* 256: the TEMP limit of ARB programs (Direct3D 9 files stay below 32). */
enum { MAX_REG_INDEX = 256, MAX_FLOW = 64, MAX_CALL_DEPTH = 16 };
/* Inlining calls multiplies code: past this many instructions, give up. */
enum { MAX_LOWERED = 1 << 16 };

/* Storage of one register the shader names. */
struct reg_slot {
    LLVMValueRef ptr;        /* its alloca */
    uint8_t zero_lanes;      /* lanes possibly read before written: start at 0 */
    uint8_t pristine;        /* lanes still holding their never-read initial poison */
    bool written;            /* some instruction writes it */
    uint8_t pp_lanes;        /* --pp=fp16: lanes of an input declared dcl_pp (halves) */
};

enum frame_kind { FR_IF, FR_LOOP, FR_REP, FR_CALL };

struct frame {
    enum frame_kind kind;
    LLVMBasicBlockRef else_bb, end_bb; /* FR_IF: else target, join */
    bool has_else;
    LLVMBasicBlockRef header, exit;    /* loops: header and exit; FR_CALL: exit = continuation */
    LLVMValueRef counter;              /* loops: iterations left (i32 alloca) */
    LLVMValueRef al;                   /* FR_LOOP: aL (i32 alloca) */
    LLVMValueRef step;                 /* FR_LOOP: aL increment */
    /* FR_LOOP whose i# is a defi (nothing at run time can change it, and
     * only loop/endloop write aL): aL takes exactly the values
     * al_start + j * al_step (uint32 wrap), j < al_count, in the body. */
    bool al_known;
    uint32_t al_start, al_step, al_count;
};

struct lower {
    struct st_ctx *ctx;
    const struct st_shader *sh;
    enum st_float_rules rules;
    bool failed;

    LLVMContextRef c;
    LLVMModuleRef m;
    LLVMBuilderRef b;
    LLVMTypeRef f32, i32, i1, v4f, v4i, v4b, ptr;
    LLVMTypeRef f16, v4h; /* half, <4 x half>: --pp=fp16 */
    LLVMValueRef fn, arg_in, arg_out, arg_c, arg_i, arg_b, arg_status, arg_bump, arg_tex, arg_lane;
    LLVMValueRef sample_fn;
    LLVMTypeRef sample_ty;
    bool ps, ps1x;
    bool arb; /* an ARB program: register indices name sh->arb's tables */
    bool vec; /* ST_LOWER_VECTOR: the compile pipeline's marker form */
    /* The instruction being lowered is a _pp one under --pp=fp16
     * (sh->pp_half): the JIT rounds every step of it to half (round_half),
     * the marker form computes it on <4 x half> values with the markers'
     * ".f16" forms. */
    bool hcur;
    unsigned tex_dims[16]; /* D3D9 samplers: coordinates their dcl type reads (2 or 3) */
    /* ST_LOWER_VECTOR: output files some instruction writes relatively;
     * every write to them is an ordered st.ostore marker (write_dst) */
    bool rel_out[ST_REG_COUNT];
    uint16_t ver;
    LLVMBasicBlockRef entry, body, exit;

    /* Resumable lanes (pixel shaders with dsx/dsy): one stop per derivative. */
    struct yield {
        LLVMBasicBlockRef stop, reload, cont;
        unsigned pc;
    } *yields;
    unsigned nyields, cap_yields;
    unsigned lowered; /* instructions lowered, calls inlined: bounded */
    LLVMValueRef status;         /* i32 alloca: ST_LL_STATUS_* bits */
    LLVMValueRef pad[8];         /* texm3x*pad dot products, by t register */
    LLVMValueRef sample_out;     /* float[4] the sampling callback fills */

    struct reg_slot regs[ST_REG_COUNT][MAX_REG_INDEX];

    /* def / defi / defb values: reads of those use the immediate. */
    bool has_def[ST_LL_NUM_CONSTS];
    float def_f[ST_LL_NUM_CONSTS][4];
    bool has_defi[ST_LL_NUM_ICONSTS];
    int32_t def_i[ST_LL_NUM_ICONSTS][4];
    bool has_defb[ST_LL_NUM_BCONSTS];
    bool def_b[ST_LL_NUM_BCONSTS];

    struct frame flow[MAX_FLOW];
    unsigned nflow;
    /* loop counters and aL, one alloca per flow-stack position, shared by
     * the loops that open there one after another (each stores it before
     * its header): mem2reg's phi placement costs each alloca the blocks
     * it dominates, so an alloca per loop would cost loops x blocks */
    LLVMValueRef counter_at[MAX_FLOW], al_at[MAX_FLOW];
    unsigned cond_depth; /* > 0: code runs conditionally or repeatedly */
    unsigned call_depth;
};

/* ------------------------------------------------------------------ */
/* Typed builder helpers.                                              */

static LLVMValueRef bld_f(struct lower *L, float x)
{
    return LLVMConstReal(L->f32, x);
}

static LLVMValueRef bld_i(struct lower *L, int32_t x)
{
    return LLVMConstInt(L->i32, (unsigned long long)(uint32_t)x, 0);
}

static LLVMValueRef bld_vec4f(struct lower *L, float x, float y, float z, float w)
{
    LLVMValueRef v[4] = {bld_f(L, x), bld_f(L, y), bld_f(L, z), bld_f(L, w)};
    return LLVMConstVector(v, 4);
}

static LLVMValueRef bld_splatf(struct lower *L, float x)
{
    return bld_vec4f(L, x, x, x, x);
}

/* Lanes of `lanes` are 0.0, the others poison. */
static LLVMValueRef bld_init_value(struct lower *L, LLVMTypeRef vty, uint8_t lanes)
{
    LLVMTypeRef ety = LLVMGetElementType(vty);
    LLVMValueRef v[4];
    for (int i = 0; i < 4; i++)
        v[i] = (lanes >> i) & 1 ? LLVMConstNull(ety) : LLVMGetPoison(ety);
    return LLVMConstVector(v, 4);
}

/* shufflevector a, b with mask m[i] (0..7; -1 = poison lane). */
static LLVMValueRef bld_shuffle(struct lower *L, LLVMValueRef a, LLVMValueRef b, const int m[4])
{
    LLVMValueRef v[4];
    for (int i = 0; i < 4; i++)
        v[i] = m[i] < 0 ? LLVMGetPoison(L->i32) : bld_i(L, m[i]);
    return LLVMBuildShuffleVector(L->b, a, b ? b : LLVMGetPoison(LLVMTypeOf(a)),
                                  LLVMConstVector(v, 4), "");
}

static LLVMValueRef bld_swizzle(struct lower *L, LLVMValueRef v, uint8_t swz)
{
    if (swz == ST_SWIZZLE_IDENTITY)
        return v;
    int m[4];
    for (int i = 0; i < 4; i++)
        m[i] = (int)ST_SWZ_LANE(swz, i);
    return bld_shuffle(L, v, NULL, m);
}

static LLVMValueRef bld_lane(struct lower *L, LLVMValueRef v, unsigned lane)
{
    return LLVMBuildExtractElement(L->b, v, bld_i(L, (int32_t)lane), "");
}

static LLVMValueRef bld_splat(struct lower *L, LLVMValueRef scalar)
{
    LLVMValueRef v = LLVMBuildInsertElement(L->b, LLVMGetPoison(LLVMVectorType(
                                                      LLVMTypeOf(scalar), 4)),
                                            scalar, bld_i(L, 0), "");
    const int m[4] = {0, 0, 0, 0};
    return bld_shuffle(L, v, NULL, m);
}

/* Builds a vector from four scalars. */
static LLVMValueRef bld_gather(struct lower *L, LLVMValueRef x, LLVMValueRef y, LLVMValueRef z,
                               LLVMValueRef w)
{
    LLVMValueRef s[4] = {x, y, z, w};
    LLVMValueRef v = LLVMGetPoison(LLVMVectorType(LLVMTypeOf(x), 4));
    for (int i = 0; i < 4; i++)
        v = LLVMBuildInsertElement(L->b, v, s[i], bld_i(L, i), "");
    return v;
}

/* A call to an overloaded intrinsic such as llvm.sqrt.v4f32. */
static LLVMValueRef bld_intrin(struct lower *L, const char *name, LLVMValueRef *args,
                               unsigned nargs)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMTypeRef ty = LLVMTypeOf(args[0]);
    LLVMValueRef decl = LLVMGetIntrinsicDeclaration(L->m, id, &ty, 1);
    LLVMTypeRef fty = LLVMIntrinsicGetType(L->c, id, &ty, 1);
    return LLVMBuildCall2(L->b, fty, decl, args, nargs, "");
}

static LLVMValueRef bld_intrin1(struct lower *L, const char *name, LLVMValueRef a)
{
    return bld_intrin(L, name, &a, 1);
}

static LLVMValueRef bld_fabs(struct lower *L, LLVMValueRef a)
{
    return bld_intrin1(L, "llvm.fabs", a);
}

static LLVMValueRef bld_floor(struct lower *L, LLVMValueRef a)
{
    return bld_intrin1(L, "llvm.floor", a);
}

static LLVMValueRef bld_select(struct lower *L, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(L->b, c, a, b, "");
}

static LLVMValueRef bld_fcmp(struct lower *L, LLVMRealPredicate p, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildFCmp(L->b, p, a, b, "");
}

/* The same shape as v (scalar or vector) filled with x. */
static LLVMValueRef bld_like(struct lower *L, LLVMValueRef v, float x)
{
    return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind ? bld_splatf(L, x) : bld_f(L, x);
}

/* The half type of v's shape (half or <4 x half>). */
static LLVMTypeRef half_like(struct lower *L, LLVMValueRef v)
{
    return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind ? L->v4h : L->f16;
}

/* A float value (scalar or <4 x float>) rounded to half and back: the JIT's
 * rounding of one step of a _pp instruction. */
static LLVMValueRef round_half(struct lower *L, LLVMValueRef v)
{
    return LLVMBuildFPExt(L->b, LLVMBuildFPTrunc(L->b, v, half_like(L, v), ""), LLVMTypeOf(v), "");
}

/* One step of an operation: rounded to half when the JIT lowers a _pp
 * instruction under --pp=fp16 (the marker form computes on halves). */
static LLVMValueRef step(struct lower *L, LLVMValueRef v)
{
    return L->hcur && !L->vec ? round_half(L, v) : v;
}

/* A marker call @name (translator.h, "markers of ST_LOWER_VECTOR"): pure
 * markers may be shared, moved and deleted by LLVM but never re-expressed;
 * derivatives and implicit-level sampling are convergent; kill and the
 * output stores have effects. */
enum { MK_PURE = 1u, MK_CONVERGENT = 2u };

static void mk_attr(struct lower *L, LLVMValueRef fn, const char *name, uint64_t val)
{
    unsigned k = LLVMGetEnumAttributeKindForName(name, strlen(name));
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(L->c, k, val));
}

static LLVMValueRef mk_call(struct lower *L, const char *name, LLVMTypeRef rty, LLVMValueRef *args,
                            unsigned n, unsigned attrs)
{
    LLVMTypeRef pt[8];
    for (unsigned k = 0; k < n && k < 8; k++)
        pt[k] = LLVMTypeOf(args[k]);
    LLVMTypeRef fty = LLVMFunctionType(rty, pt, n, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(L->m, name);
    if (!fn) {
        fn = LLVMAddFunction(L->m, name, fty);
        mk_attr(L, fn, "nounwind", 0);
        mk_attr(L, fn, "willreturn", 0);
        if (attrs & MK_PURE)
            mk_attr(L, fn, "memory", 0); /* memory(none) */
        if (attrs & MK_CONVERGENT)
            mk_attr(L, fn, "convergent", 0);
    }
    return LLVMBuildCall2(L->b, fty, fn, args, n, "");
}

/*
 * a * b.  Under the d3d9 float rules a zero factor gives +0 whatever the
 * other factor is (also inf and NaN), as docs/float-rules.md lists.
 */
static LLVMValueRef bld_mul(struct lower *L, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef p = step(L, LLVMBuildFMul(L->b, a, b, ""));
    if (L->rules != ST_FLOAT_D3D9)
        return p;
    LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(a));
    LLVMValueRef az = bld_fcmp(L, LLVMRealOEQ, a, zero), bz = bld_fcmp(L, LLVMRealOEQ, b, zero);
    LLVMValueRef z = LLVMBuildOr(L->b, az, bz, "");
    return bld_select(L, z, zero, p);
}

static LLVMValueRef bld_add(struct lower *L, LLVMValueRef a, LLVMValueRef b)
{
    return step(L, LLVMBuildFAdd(L->b, a, b, ""));
}

static LLVMValueRef bld_sub(struct lower *L, LLVMValueRef a, LLVMValueRef b)
{
    return step(L, LLVMBuildFSub(L->b, a, b, ""));
}

/* 1 / a, exactly rounded: what the interpreter computes. */
static LLVMValueRef bld_rcp(struct lower *L, LLVMValueRef a)
{
    return step(L, LLVMBuildFDiv(L->b, bld_like(L, a, 1.0f), a, ""));
}

static LLVMValueRef bld_load(struct lower *L, LLVMTypeRef ty, LLVMValueRef p, unsigned align)
{
    LLVMValueRef v = LLVMBuildLoad2(L->b, ty, p, "");
    if (align)
        LLVMSetAlignment(v, align);
    return v;
}

static void bld_store(struct lower *L, LLVMValueRef v, LLVMValueRef p, unsigned align)
{
    LLVMValueRef s = LLVMBuildStore(L->b, v, p);
    if (align)
        LLVMSetAlignment(s, align);
}

/* &base[idx] with base an array of <4 x T> records of 16 bytes. */
static LLVMValueRef bld_vec_ptr(struct lower *L, LLVMValueRef base, LLVMValueRef idx)
{
    return LLVMBuildGEP2(L->b, L->v4f, base, &idx, 1, "");
}

/* An alloca in the entry block, whatever block is being built. */
static LLVMValueRef bld_alloca(struct lower *L, LLVMTypeRef ty, const char *name)
{
    LLVMBuilderRef eb = LLVMCreateBuilderInContext(L->c);
    LLVMValueRef first = LLVMGetFirstInstruction(L->entry);
    if (first)
        LLVMPositionBuilderBefore(eb, first);
    else
        LLVMPositionBuilderAtEnd(eb, L->entry);
    LLVMValueRef a = LLVMBuildAlloca(eb, ty, name);
    LLVMDisposeBuilder(eb);
    return a;
}

static bool block_open(struct lower *L)
{
    return LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(L->b)) == NULL;
}

static LLVMBasicBlockRef bld_block(struct lower *L, const char *name)
{
    return LLVMAppendBasicBlockInContext(L->c, L->fn, name);
}

/* Ends the current block with a branch and continues in `next`. */
static void bld_br_to(struct lower *L, LLVMBasicBlockRef target, LLVMBasicBlockRef next)
{
    if (block_open(L))
        LLVMBuildBr(L->b, target);
    LLVMPositionBuilderAtEnd(L->b, next);
}

static void not_supported(struct lower *L, struct st_loc loc, const char *what)
{
    st_error(L->ctx, loc, ST_E_NOT_SUPPORTED, "%s is not supported by the LLVM lowering", what);
    L->failed = true;
}

/* ------------------------------------------------------------------ */
/* More typed helpers: double precision, where the interpreter uses    */
/* libm's double functions (exp2, log2, pow, sin, cos).                */

static LLVMValueRef bld_to_f64(struct lower *L, LLVMValueRef x)
{
    return LLVMBuildFPExt(L->b, x, LLVMDoubleTypeInContext(L->c), "");
}

/* A function value computed in double (exp2, log2, pow, sin, cos) as a
 * float: one step of the operation. */
static LLVMValueRef bld_to_f32(struct lower *L, LLVMValueRef x)
{
    return step(L, LLVMBuildFPTrunc(L->b, x, L->f32, ""));
}

/* (float)fn((double)x) */
static LLVMValueRef bld_libm1(struct lower *L, const char *name, LLVMValueRef x)
{
    return bld_to_f32(L, bld_intrin1(L, name, bld_to_f64(L, x)));
}

/* Clears the low 8 mantissa bits of finite values: expp/logp precision. */
static LLVMValueRef bld_partial(struct lower *L, LLVMValueRef x)
{
    LLVMValueRef bits = LLVMBuildBitCast(L->b, x, L->i32, "");
    LLVMValueRef cut = LLVMBuildBitCast(L->b, LLVMBuildAnd(L->b, bits, bld_i(L, (int32_t)0xffffff00),
                                                           ""),
                                        L->f32, "");
    LLVMValueRef finite = bld_fcmp(L, LLVMRealOLT, bld_fabs(L, x), bld_f(L, INFINITY));
    return bld_select(L, finite, cut, x);
}

/* _sat as the interpreter defines it (st_op_saturate): x >= 0 ? (x < 1 ? x
 * : 1) : +0, so every NaN (quiet or signaling) and every negative number
 * give +0 and -0 stays -0.  Ordered compares and selects, never
 * minnum/maxnum, whose choice between -0 and +0 is unspecified. */
static LLVMValueRef bld_saturate(struct lower *L, LLVMValueRef x)
{
    LLVMValueRef zero = bld_like(L, x, 0.0f), one = bld_like(L, x, 1.0f);
    LLVMValueRef m = bld_select(L, bld_fcmp(L, LLVMRealOGE, x, zero), x, zero);
    return bld_select(L, bld_fcmp(L, LLVMRealOLT, m, one), m, one);
}

/* ------------------------------------------------------------------ */
/* ABI slots (the numbers are run_io.c's, shared through translator.h). */

static bool is_output_file(enum st_regfile f)
{
    return st_run_out_slot(f, 0) >= 0 || f == ST_REG_DEPTHOUT;
}

static LLVMTypeRef reg_type(struct lower *L, enum st_regfile f)
{
    return f == ST_REG_ADDR ? L->v4i : f == ST_REG_PREDICATE ? L->v4b : L->v4f;
}

/* How many registers relative addressing may reach (the interpreter's limits). */
static unsigned rel_limit(struct lower *L, enum st_regfile f)
{
    switch (f) {
    case ST_REG_CONST: return !L->ps ? 256 : L->ver < ST_VER(2, 0) ? 8 : L->ver < ST_VER(3, 0) ? 32 : 224;
    case ST_REG_INPUT: return L->ps ? (L->ver >= ST_VER(3, 0) ? 10 : 2) : 16;
    case ST_REG_OUTPUT: return 12;
    case ST_REG_TEXCRDOUT: return 8;
    case ST_REG_TEMP: return 32;
    default: return 0;
    }
}

/* Lanes an instruction really writes (the interpreter's opmask). */
static uint8_t op_mask(const struct st_instr *ins)
{
    switch (ins->op) {
    case ST_OP_M4x3: case ST_OP_M3x3: case ST_OP_CRS: return 0x7;
    case ST_OP_M3x2: case ST_OP_SINCOS: case ST_OP_BEM: return 0x3;
    default: return 0xf;
    }
}

/* ------------------------------------------------------------------ */
/* Pre-scan: which lanes of which registers may be read before they are */
/* surely written.  Those start at 0.0 (what the interpreter reads from */
/* a fresh register); the others start as poison, so the first write   */
/* need not merge with a value nobody can observe.                      */

static const struct st_instr *find_label(const struct st_shader *sh, uint32_t n)
{
    for (const struct st_instr *i = sh->first; i; i = i->next)
        if (i->op == ST_OP_LABEL && i->nsrc > 0 && i->src[0].reg.index == n)
            return i;
    return NULL;
}

/* Lanes of the swizzled source k that op reads, given the destination mask. */
static uint8_t src_lanes_read(const struct st_instr *ins, unsigned k)
{
    uint8_t w = ins->has_dst ? ins->dst.writemask : 0xf;
    switch (ins->op) {
    case ST_OP_MOV: case ST_OP_ADD: case ST_OP_SUB: case ST_OP_MUL: case ST_OP_MAD:
    case ST_OP_MIN: case ST_OP_MAX: case ST_OP_SLT: case ST_OP_SGE: case ST_OP_LRP:
    case ST_OP_FRC: case ST_OP_CMP: case ST_OP_CND: case ST_OP_ABS: case ST_OP_SGN:
    case ST_OP_DSX: case ST_OP_DSY: case ST_OP_MOVA: case ST_OP_SETP:
        return w;
    case ST_OP_RCP: case ST_OP_RSQ: case ST_OP_EXP: case ST_OP_LOG: case ST_OP_EXPP:
    case ST_OP_LOGP: case ST_OP_POW: case ST_OP_SINCOS:
        return 1;
    case ST_OP_DP3: case ST_OP_CRS: case ST_OP_M3x3: case ST_OP_M3x2: case ST_OP_M3x4:
        return 7;
    case ST_OP_DP2ADD:
        return k == 2 ? 1 : 3;
    default:
        return 0xf;
    }
}

static uint8_t swizzle_image(uint8_t swz, uint8_t lanes)
{
    uint8_t m = 0;
    for (int i = 0; i < 4; i++)
        if (lanes & (1u << i))
            m |= (uint8_t)(1u << ST_SWZ_LANE(swz, i));
    return m;
}

struct prescan {
    uint8_t def[ST_REG_COUNT][MAX_REG_INDEX]; /* lanes surely written so far */
};

static void prescan_read(struct lower *L, struct prescan *ps, const struct st_reg *r, uint8_t lanes)
{
    if (r->rel && r->rel->file == ST_REG_ADDR)
        L->regs[ST_REG_ADDR][0].zero_lanes |=
            (uint8_t)((1u << (r->rel->component & 3)) & ~ps->def[ST_REG_ADDR][0]);
    if (r->rel && r->file == ST_REG_TEMP) {
        for (unsigned k = 0; k < MAX_REG_INDEX; k++)
            L->regs[r->file][k].zero_lanes |= (uint8_t)(lanes & ~ps->def[r->file][k]);
        return;
    }
    if (r->index >= MAX_REG_INDEX)
        return;
    L->regs[r->file][r->index].zero_lanes |= (uint8_t)(lanes & ~ps->def[r->file][r->index]);
}

static void prescan_outputs(struct lower *L, struct prescan *ps)
{
    for (int f = 0; f < ST_REG_COUNT; f++)
        if (is_output_file((enum st_regfile)f) || (L->ps1x && f == ST_REG_TEMP))
            for (int i = 0; i < MAX_REG_INDEX; i++)
                if (L->regs[f][i].written && (f != ST_REG_TEMP || i == 0))
                    L->regs[f][i].zero_lanes |= (uint8_t)(0xf & ~ps->def[f][i]);
}

static bool is_matrix(enum st_opcode op)
{
    return op == ST_OP_M4x4 || op == ST_OP_M4x3 || op == ST_OP_M3x4 || op == ST_OP_M3x3 ||
           op == ST_OP_M3x2;
}

static void prescan_range(struct lower *L, struct prescan *ps, const struct st_instr *ins,
                          unsigned depth, unsigned calls, bool is_main)
{
    for (; ins && ins->op != ST_OP_LABEL; ins = ins->next) {
        const struct st_opinfo *oi = &st_opinfo[ins->op];
        if (oi->flags & OPF_DECL)
            continue;
        for (unsigned k = 0; k < ins->nsrc; k++)
            prescan_read(L, ps, &ins->src[k].reg,
                         swizzle_image(ins->src[k].swizzle, src_lanes_read(ins, k)));
        if (is_matrix(ins->op))
            for (unsigned row = 1; row < 4; row++) {
                struct st_reg r = ins->src[1].reg;
                r.index += row;
                prescan_read(L, ps, &r, 0xf);
            }
        if (ins->predicated)
            prescan_read(L, ps, &ins->pred.reg, 0xf);
        /* o[a0.c + k] reads a0.c too: a lane never written reads 0, as in
         * the interpreter (without this the JIT read an undefined value) */
        if (ins->has_dst && ins->dst.reg.rel &&
            ins->dst.reg.rel->file == ST_REG_ADDR)
            L->regs[ST_REG_ADDR][0].zero_lanes |= (uint8_t)(
                (1u << (ins->dst.reg.rel->component & 3)) & ~ps->def[ST_REG_ADDR][0]);
        if (ins->op == ST_OP_TEXKILL || ins->op == ST_OP_TEXDEPTH) {
            prescan_read(L, ps, &ins->dst.reg, 0xf);
        } else if (ins->has_dst && ins->dst.reg.index < MAX_REG_INDEX && depth == 0 &&
                   !ins->predicated && !ins->dst.reg.rel && !ins->coissue) {
            ps->def[ins->dst.reg.file][ins->dst.reg.index] |= ins->dst.writemask & op_mask(ins);
        }

        switch (ins->op) {
        case ST_OP_IF: case ST_OP_IFC: case ST_OP_LOOP: case ST_OP_REP:
            depth++;
            break;
        case ST_OP_ENDIF: case ST_OP_ENDLOOP: case ST_OP_ENDREP:
            if (depth)
                depth--;
            break;
        case ST_OP_BREAK: case ST_OP_BREAKC: case ST_OP_BREAKP:
            break;
        case ST_OP_CALL: case ST_OP_CALLNZ: {
            const struct st_instr *lab = find_label(L->sh, ins->src[0].reg.index);
            if (lab && calls < MAX_CALL_DEPTH)
                prescan_range(L, ps, lab->next,
                              depth + (ins->op == ST_OP_CALLNZ || ins->predicated), calls + 1,
                              false);
            break;
        }
        case ST_OP_RET:
            if (is_main)
                prescan_outputs(L, ps);
            if (depth == 0)
                return;
            break;
        default:
            break;
        }
    }
    if (is_main)
        prescan_outputs(L, ps);
}

static void mark_written(struct lower *L, const struct st_instr *i)
{
    const struct st_reg *r = &i->dst.reg;
    if (r->rel && L->vec && !L->arb && is_output_file(r->file))
        L->rel_out[r->file] = true;
    if (r->rel) {
        unsigned n = rel_limit(L, r->file);
        for (unsigned k = 0; k < n && k < MAX_REG_INDEX; k++)
            L->regs[r->file][k].written = true;
    } else if (r->index < MAX_REG_INDEX) {
        L->regs[r->file][r->index].written = true;
    }
}

static void prescan(struct lower *L)
{
    for (const struct st_instr *i = L->sh->first; i; i = i->next) {
        if (i->op == ST_OP_DEF && i->dst.reg.index < ST_LL_NUM_CONSTS) {
            L->has_def[i->dst.reg.index] = true;
            memcpy(L->def_f[i->dst.reg.index], i->imm.f, sizeof(i->imm.f));
        } else if (i->op == ST_OP_DEFI && i->dst.reg.index < ST_LL_NUM_ICONSTS) {
            L->has_defi[i->dst.reg.index] = true;
            memcpy(L->def_i[i->dst.reg.index], i->imm.i, sizeof(i->imm.i));
        } else if (i->op == ST_OP_DEFB && i->dst.reg.index < ST_LL_NUM_BCONSTS) {
            L->has_defb[i->dst.reg.index] = true;
            L->def_b[i->dst.reg.index] = i->imm.b;
        } else if (i->has_dst && !(st_opinfo[i->op].flags & OPF_DECL) &&
                   i->op != ST_OP_TEXKILL && i->op != ST_OP_TEXDEPTH &&
                   i->op != ST_OP_TEXM3x2PAD && i->op != ST_OP_TEXM3x3PAD &&
                   i->op != ST_OP_TEXM3x2DEPTH) {
            mark_written(L, i);
        }
        if (i->op == ST_OP_TEXDEPTH || i->op == ST_OP_TEXM3x2DEPTH)
            L->regs[ST_REG_DEPTHOUT][0].written = true;
        if (i->op == ST_OP_DCL && (i->dstmod & ST_DSTMOD_PP) && L->sh->pp_half && !L->arb &&
            (i->dst.reg.file == ST_REG_INPUT || i->dst.reg.file == ST_REG_TEXTURE) &&
            i->dst.reg.index < MAX_REG_INDEX)
            L->regs[i->dst.reg.file][i->dst.reg.index].pp_lanes |= i->dst.writemask;
    }
    struct prescan ps;
    memset(&ps, 0, sizeof(ps));
    prescan_range(L, &ps, L->sh->first, 0, 0, true);
}

/* ------------------------------------------------------------------ */
/* Registers.                                                          */

/* &in[slot] */
static LLVMValueRef in_slot_ptr(struct lower *L, LLVMValueRef slot)
{
    return bld_vec_ptr(L, L->arg_in, slot);
}

/* The texture coordinates of set k (not the t register, which ps_1_x may overwrite). */
static LLVMValueRef coords(struct lower *L, uint32_t k)
{
    if (k >= 8)
        return LLVMConstNull(L->v4f);
    return bld_load(L, L->v4f, in_slot_ptr(L, bld_i(L, ST_LL_IN_T + (int32_t)k)), 4);
}

/* The alloca of a register, created (and initialized) on first use. */
static LLVMValueRef reg_ptr(struct lower *L, enum st_regfile f, uint32_t index, struct st_loc loc)
{
    if (index >= MAX_REG_INDEX) {
        not_supported(L, loc, "a register index this large");
        return NULL;
    }
    struct reg_slot *s = &L->regs[f][index];
    if (s->ptr)
        return s->ptr;
    LLVMTypeRef ty = reg_type(L, f);
    /* ARB: input slot i is arb->inputs[i] (translator.h, "Running ARB programs"). */
    int slot = L->arb ? (f == ST_REG_INPUT && index < ST_LL_IN_SLOTS ? (int)index : -1)
                      : st_run_in_slot(f, index);
    char name[32];
    if (f == ST_REG_RASTOUT || f == ST_REG_DEPTHOUT || f == ST_REG_MISC)
        snprintf(name, sizeof(name), "%s", st_regfile_name(f, index));
    else
        snprintf(name, sizeof(name), "%s%u", st_regfile_name(f, index), (unsigned)index);
    s->ptr = bld_alloca(L, ty, name);
    /* The initial value is stored in the entry block. */
    LLVMBuilderRef eb = LLVMCreateBuilderInContext(L->c);
    LLVMPositionBuilderBefore(eb, LLVMGetBasicBlockTerminator(L->entry));
    LLVMValueRef init;
    if (slot >= 0) {
        LLVMValueRef idx = bld_i(L, slot);
        LLVMValueRef p = LLVMBuildGEP2(eb, L->v4f, L->arg_in, &idx, 1, "");
        init = LLVMBuildLoad2(eb, L->v4f, p, name);
        LLVMSetAlignment(init, 4);
        s->pristine = 0;
        if (s->pp_lanes) {
            /* dcl_pp under --pp=fp16: every reader sees the declared lanes
             * rounded to half */
            LLVMValueRef h = LLVMBuildFPExt(eb, LLVMBuildFPTrunc(eb, init, L->v4h, ""), L->v4f, "");
            LLVMValueRef m[4];
            for (int i = 0; i < 4; i++)
                m[i] = bld_i(L, (s->pp_lanes >> i) & 1 ? 4 + i : i);
            init = LLVMBuildShuffleVector(eb, init, h, LLVMConstVector(m, 4), "");
        }
    } else {
        init = bld_init_value(L, ty, s->zero_lanes);
        s->pristine = (uint8_t)(0xf & ~s->zero_lanes);
    }
    LLVMBuildStore(eb, init, s->ptr);
    LLVMDisposeBuilder(eb);
    return s->ptr;
}

static LLVMValueRef current_al(struct lower *L)
{
    for (unsigned k = L->nflow; k-- > 0;)
        if (L->flow[k].kind == FR_LOOP)
            return bld_load(L, L->i32, L->flow[k].al, 0);
    return bld_i(L, 0); /* aL outside any loop reads 0, as in the interpreter */
}

/* Scalar i32 value of a relative address (a0.c or aL) plus offset. */
static LLVMValueRef rel_index(struct lower *L, const struct st_reg *r)
{
    LLVMValueRef base;
    if (r->rel->file == ST_REG_LOOP) {
        base = current_al(L);
    } else {
        LLVMValueRef a = reg_ptr(L, ST_REG_ADDR, 0, r->loc);
        if (!a)
            return bld_i(L, 0);
        base = bld_lane(L, bld_load(L, L->v4i, a, 0), r->rel->component & 3);
    }
    return LLVMBuildAdd(L->b, base, bld_i(L, (int32_t)r->index), "");
}

/*
 * The registers k < n a relative address can reach, when that is known at
 * compile time: aL of a loop over a defi constant (or aL outside any loop,
 * always 0).  reach[k] for every reachable k, *oob when some reachable
 * index falls outside 0..n-1 (the run-time range check is then kept).
 * The index is computed as rel_index does (i32 add, wrapping), so the set
 * is exactly the values the IR's index can take.  False: unknown (a0, or
 * a loop whose i# comes from the inputs), select over the whole file.
 */
static bool rel_reach(struct lower *L, const struct st_reg *r, unsigned n, bool *reach, bool *oob)
{
    if (!r->rel || r->rel->file != ST_REG_LOOP)
        return false;
    uint32_t start = 0, step = 0, count = 1; /* outside loops aL reads 0 */
    for (unsigned k = L->nflow; k-- > 0;) {
        if (L->flow[k].kind != FR_LOOP)
            continue;
        if (!L->flow[k].al_known)
            return false;
        start = L->flow[k].al_start;
        step = L->flow[k].al_step;
        count = L->flow[k].al_count;
        break;
    }
    for (unsigned k = 0; k < n && k < MAX_REG_INDEX; k++)
        reach[k] = false;
    *oob = false;
    for (uint32_t j = 0; j < count; j++) {
        uint32_t idx = start + j * step + r->index;
        if (idx < n && idx < MAX_REG_INDEX)
            reach[idx] = true;
        else
            *oob = true;
    }
    return true;
}

static void set_status(struct lower *L, LLVMValueRef cond, unsigned bit)
{
    if (L->vec)
        return; /* kill is a marker; range warnings are the interpreter's */
    LLVMValueRef st = bld_load(L, L->i32, L->status, 0);
    LLVMValueRef b = bld_select(L, cond, bld_i(L, (int32_t)bit), bld_i(L, 0));
    bld_store(L, LLVMBuildOr(L->b, st, b, ""), L->status, 0);
}

/* idx < n (unsigned: negative indices are out of range too); sets the status bit otherwise. */
static LLVMValueRef rel_in_range(struct lower *L, LLVMValueRef idx, unsigned n)
{
    LLVMValueRef inr = LLVMBuildICmp(L->b, LLVMIntULT, idx, bld_i(L, (int32_t)n), "");
    set_status(L, LLVMBuildNot(L->b, inr, ""), ST_LL_STATUS_RELADDR_RANGE);
    return inr;
}

/* ST_LOWER_VECTOR: file[base + k] as one st.rel marker, 0 outside
 * first..first+count-1 (the range check is the marker's). */
static LLVMValueRef rel_base(struct lower *L, const struct st_reg *r)
{
    if (r->rel->file == ST_REG_LOOP)
        return current_al(L);
    LLVMValueRef a = reg_ptr(L, ST_REG_ADDR, 0, r->loc);
    return a ? bld_lane(L, bld_load(L, L->v4i, a, 0), r->rel->component & 3) : bld_i(L, 0);
}

static LLVMValueRef vec_rel(struct lower *L, const struct st_reg *r, int32_t k, uint32_t first,
                            uint32_t count)
{
    LLVMValueRef args[5] = {bld_i(L, (int32_t)r->file), rel_base(L, r), bld_i(L, k),
                            bld_i(L, (int32_t)first), bld_i(L, (int32_t)count)};
    return mk_call(L, "st.rel", L->v4f, args, 5, MK_PURE);
}

/* The unswizzled float value of a register. */
static LLVMValueRef load_reg(struct lower *L, const struct st_reg *r)
{
    if (r->rel && L->vec) {
        unsigned n = rel_limit(L, r->file);
        if (n && (r->file == ST_REG_CONST || r->file == ST_REG_INPUT))
            return vec_rel(L, r, (int32_t)r->index, 0, n);
        not_supported(L, r->loc, "relative addressing of this register file");
        return LLVMConstNull(L->v4f);
    }
    if (r->rel) {
        LLVMValueRef idx = rel_index(L, r);
        unsigned n = rel_limit(L, r->file);
        bool reach[MAX_REG_INDEX], oob = true;
        bool known = rel_reach(L, r, n, reach, &oob);
        /* A known set narrows the select chain below to the reachable
         * registers, and when all of them are inside the file the chain
         * needs no range check.  v[] then becomes a chain of direct loads
         * too (which inputs the loop reads, not an indexed load of the
         * whole file).  c[] stays one indexed load with its check. */
        bool narrow_in = known && r->file == ST_REG_INPUT;
        bool chain = narrow_in || r->file == ST_REG_TEMP || is_output_file(r->file);
        LLVMValueRef inr = !chain || oob ? rel_in_range(L, idx, n) : NULL;
        LLVMValueRef safe = inr ? bld_select(L, inr, idx, bld_i(L, 0)) : idx;
        LLVMValueRef v;
        if (r->file == ST_REG_CONST) {
            v = bld_load(L, L->v4f, bld_vec_ptr(L, L->arg_c, safe), 4);
        } else if (r->file == ST_REG_INPUT && !narrow_in) {
            v = bld_load(L, L->v4f, in_slot_ptr(L, LLVMBuildAdd(L->b, safe,
                                                                      bld_i(L, ST_LL_IN_V), "")),
                         4);
        } else if (chain) {
            /* A chain of selects over the (reachable) registers of the file. */
            unsigned nreach = 0;
            for (unsigned k = 0; known && k < n && k < MAX_REG_INDEX; k++)
                nreach += reach[k];
            v = LLVMConstNull(L->v4f);
            for (unsigned k = 0; k < n && k < MAX_REG_INDEX; k++) {
                if (known && !reach[k])
                    continue; /* the loop never gets there */
                LLVMValueRef x;
                if (r->file == ST_REG_INPUT) {
                    x = bld_load(L, L->v4f, in_slot_ptr(L, bld_i(L, ST_LL_IN_V + (int32_t)k)), 4);
                } else {
                    LLVMValueRef p = reg_ptr(L, r->file, k, r->loc);
                    if (!p)
                        break;
                    x = bld_load(L, L->v4f, p, 0);
                }
                if (known && !oob && nreach == 1) {
                    v = x; /* the index can only be k */
                    break;
                }
                LLVMValueRef is = LLVMBuildICmp(L->b, LLVMIntEQ, safe, bld_i(L, (int32_t)k), "");
                v = bld_select(L, is, x, v);
            }
        } else {
            not_supported(L, r->loc, "relative addressing of this register file");
            return LLVMConstNull(L->v4f);
        }
        return inr ? bld_select(L, inr, v, LLVMConstNull(L->v4f)) : v;
    }
    if (L->arb && r->file == ST_REG_CONST) {
        /* Literal parameters are immediates; the others come from c[]. */
        const struct st_arb_program *a = L->sh->arb;
        if (r->index < a->num_params && a->params[r->index].kind == ST_ARB_PARAM_CONST) {
            const float *f = a->params[r->index].value;
            return bld_vec4f(L, f[0], f[1], f[2], f[3]);
        }
    }
    if (L->arb && r->file == ST_REG_INPUT) {
        LLVMValueRef p = reg_ptr(L, r->file, r->index, r->loc);
        return p ? bld_load(L, L->v4f, p, 0) : LLVMConstNull(L->v4f);
    }
    switch (r->file) {
    case ST_REG_CONST:
        if (r->index < ST_LL_NUM_CONSTS && L->has_def[r->index]) {
            const float *f = L->def_f[r->index];
            return bld_vec4f(L, f[0], f[1], f[2], f[3]);
        }
        /* Direct3D 9: c0..c255 (a c256 of the corpus reads 0, as in the
         * interpreter); ARB: every parameter slot (st_arb_run_slots) */
        if (r->index >= (L->arb ? (uint32_t)ST_LL_MAX_ARB_CONSTS : (uint32_t)ST_LL_NUM_CONSTS))
            return LLVMConstNull(L->v4f);
        return bld_load(L, L->v4f, bld_vec_ptr(L, L->arg_c, bld_i(L, (int32_t)r->index)), 4);
    case ST_REG_INPUT: case ST_REG_MISC:
        if (st_run_in_slot(r->file, r->index) < 0)
            return LLVMConstNull(L->v4f);
        /* fall through */
    case ST_REG_TEMP: case ST_REG_TEXTURE: case ST_REG_RASTOUT: case ST_REG_ATTROUT:
    case ST_REG_TEXCRDOUT: case ST_REG_OUTPUT: case ST_REG_COLOROUT: case ST_REG_DEPTHOUT: {
        LLVMValueRef p = reg_ptr(L, r->file, r->index, r->loc);
        return p ? bld_load(L, L->v4f, p, 0) : LLVMConstNull(L->v4f);
    }
    case ST_REG_CONSTINT: {
        /* Integer constants read as floats (e.g. by mov). */
        LLVMValueRef v;
        if (r->index >= ST_LL_NUM_ICONSTS)
            return LLVMConstNull(L->v4f);
        if (L->has_defi[r->index]) {
            const int32_t *d = L->def_i[r->index];
            LLVMValueRef e[4] = {bld_i(L, d[0]), bld_i(L, d[1]), bld_i(L, d[2]), bld_i(L, d[3])};
            v = LLVMConstVector(e, 4);
        } else {
            v = bld_load(L, L->v4i, bld_vec_ptr(L, L->arg_i, bld_i(L, (int32_t)r->index)), 4);
        }
        return LLVMBuildSIToFP(L->b, v, L->v4f, "");
    }
    case ST_REG_CONSTBOOL: {
        if (r->index >= ST_LL_NUM_BCONSTS)
            return LLVMConstNull(L->v4f);
        LLVMValueRef p = LLVMBuildGEP2(L->b, L->i32, L->arg_b,
                                       (LLVMValueRef[]){bld_i(L, (int32_t)r->index)}, 1, "");
        LLVMValueRef b = L->has_defb[r->index]
                             ? LLVMConstInt(L->i1, L->def_b[r->index], 0)
                             : LLVMBuildICmp(L->b, LLVMIntNE, bld_load(L, L->i32, p, 4),
                                             bld_i(L, 0), "");
        return bld_splat(L, bld_select(L, b, bld_f(L, 1.0f), bld_f(L, 0.0f)));
    }
    case ST_REG_ADDR: {
        LLVMValueRef p = reg_ptr(L, ST_REG_ADDR, 0, r->loc);
        return p ? LLVMBuildSIToFP(L->b, bld_load(L, L->v4i, p, 0), L->v4f, "")
                 : LLVMConstNull(L->v4f);
    }
    case ST_REG_LOOP:
        return bld_splat(L, LLVMBuildSIToFP(L->b, current_al(L), L->f32, ""));
    case ST_REG_PREDICATE: {
        LLVMValueRef p = reg_ptr(L, ST_REG_PREDICATE, 0, r->loc);
        return p ? bld_select(L, bld_load(L, L->v4b, p, 0), bld_splatf(L, 1.0f),
                              bld_splatf(L, 0.0f))
                 : LLVMConstNull(L->v4f);
    }
    default:
        return LLVMConstNull(L->v4f);
    }
}

/* Source modifier applied to a swizzled value, in the interpreter's order of operations. */
static LLVMValueRef vec_mod(struct lower *L, const char *name, LLVMValueRef v, bool neg)
{
    LLVMValueRef r = mk_call(L, name, L->v4f, &v, 1, MK_PURE);
    return neg ? LLVMBuildFNeg(L->b, r, "") : r;
}

static LLVMValueRef apply_srcmod(struct lower *L, LLVMValueRef v, enum st_srcmod mod)
{
    if (L->vec) {
        switch (mod) {
        case ST_SRCMOD_BIAS: case ST_SRCMOD_BIASNEG:
            return vec_mod(L, "st.mod.bias", v, mod == ST_SRCMOD_BIASNEG);
        case ST_SRCMOD_SIGN: case ST_SRCMOD_SIGNNEG:
            return vec_mod(L, "st.mod.bx2", v, mod == ST_SRCMOD_SIGNNEG);
        case ST_SRCMOD_COMP: return vec_mod(L, "st.mod.comp", v, false);
        case ST_SRCMOD_X2: case ST_SRCMOD_X2NEG:
            return vec_mod(L, "st.mod.x2", v, mod == ST_SRCMOD_X2NEG);
        default: break;
        }
    }
    if (mod == ST_SRCMOD_NONE || mod == ST_SRCMOD_NOT)
        return v;
    /* built only for a modifier: two constant vectors per source read were
     * a fifth of the compile work of a shader without modifiers */
    LLVMValueRef half = bld_splatf(L, 0.5f), two = bld_splatf(L, 2.0f);
    switch (mod) {
    case ST_SRCMOD_NONE: case ST_SRCMOD_NOT: return v;
    case ST_SRCMOD_NEG: return LLVMBuildFNeg(L->b, v, "");
    case ST_SRCMOD_ABS: return bld_fabs(L, v);
    case ST_SRCMOD_ABSNEG: return LLVMBuildFNeg(L->b, bld_fabs(L, v), "");
    case ST_SRCMOD_BIAS: return bld_sub(L, v, half);
    case ST_SRCMOD_BIASNEG: return LLVMBuildFNeg(L->b, bld_sub(L, v, half), "");
    case ST_SRCMOD_SIGN: return LLVMBuildFMul(L->b, two, bld_sub(L, v, half), "");
    case ST_SRCMOD_SIGNNEG:
        return LLVMBuildFMul(L->b, bld_splatf(L, -2.0f), bld_sub(L, v, half), "");
    case ST_SRCMOD_COMP: return bld_sub(L, bld_splatf(L, 1.0f), v);
    case ST_SRCMOD_X2: return LLVMBuildFMul(L->b, two, v, "");
    case ST_SRCMOD_X2NEG: return LLVMBuildFMul(L->b, bld_splatf(L, -2.0f), v, "");
    case ST_SRCMOD_DZ: case ST_SRCMOD_DW: {
        /* x / z, y / z (or w); z and w stay */
        int d = mod == ST_SRCMOD_DZ ? 2 : 3;
        const int m[4] = {d, d, d, d}, keep[4] = {0, 1, 6, 7};
        LLVMValueRef q = LLVMBuildFDiv(L->b, v, bld_shuffle(L, v, NULL, m), "");
        return bld_shuffle(L, q, v, keep);
    }
    }
    return v;
}

/*
 * ARB a[A0.x + k]: c[] inside the array's slots, 0 outside (the
 * interpreter's choice for what ARB leaves undefined) with the status bit.
 */
static LLVMValueRef arb_load_rel(struct lower *L, const struct st_instr *ins, unsigned k)
{
    const struct st_reg *r = &ins->src[k].reg;
    const struct st_arb_program *a = L->sh->arb;
    uint32_t first = 0, count = a->num_params;
    if (ins->arb && ins->arb->src[k].array >= 0 && (unsigned)ins->arb->src[k].array < a->num_arrays) {
        first = a->arrays[ins->arb->src[k].array].first;
        count = a->arrays[ins->arb->src[k].array].count;
    }
    if (L->vec)
        return vec_rel(L, r, (int32_t)r->index, first, count);
    LLVMValueRef idx = rel_index(L, r); /* A0.x + (int32_t)index */
    LLVMValueRef off = LLVMBuildSub(L->b, idx, bld_i(L, (int32_t)first), "");
    LLVMValueRef inr = rel_in_range(L, off, count);
    LLVMValueRef safe = bld_select(L, inr, idx, bld_i(L, (int32_t)first));
    LLVMValueRef v = bld_load(L, L->v4f, bld_vec_ptr(L, L->arg_c, safe), 4);
    return bld_select(L, inr, v, LLVMConstNull(L->v4f));
}

/* The texture instructions: their coordinates (and gradients, bias,
 * level) are an address, read at full precision even under _pp. */
static bool is_texld(enum st_opcode op)
{
    return op == ST_OP_TEXLD || op == ST_OP_TEXLDP || op == ST_OP_TEXLDB || op == ST_OP_TEXLDL ||
           op == ST_OP_TEXLDD;
}

/*
 * Source k of ins as a <4 x float>; row selects a matrix's later rows.
 * A _pp instruction under --pp=fp16 reads it rounded to half: the JIT as a
 * float holding a half, the marker form as a <4 x half>.
 */
static LLVMValueRef read_src_row(struct lower *L, const struct st_instr *ins, unsigned k,
                                 unsigned row)
{
    const struct st_src *s = &ins->src[k];
    struct st_reg r = s->reg;
    r.index += row;
    LLVMValueRef v = L->arb && r.rel ? arb_load_rel(L, ins, k) : load_reg(L, &r);
    v = bld_swizzle(L, v, s->swizzle);
    v = apply_srcmod(L, v, s->mod);
    if (L->hcur && !is_texld(ins->op))
        v = L->vec ? LLVMBuildFPTrunc(L->b, v, L->v4h, "") : round_half(L, v);
    return v;
}

static LLVMValueRef read_src(struct lower *L, const struct st_instr *ins, unsigned k)
{
    return read_src_row(L, ins, k, 0);
}

/* Lane 0 of source k: the scalar of rcp, rsq, exp... */
static LLVMValueRef read_scalar(struct lower *L, const struct st_instr *ins, unsigned k)
{
    return bld_lane(L, read_src(L, ins, k), 0);
}

/* The <4 x i1> "lane enabled" of a predicate source (p0.swz, !p0.swz). */
static LLVMValueRef read_pred(struct lower *L, const struct st_src *s)
{
    LLVMValueRef p = reg_ptr(L, ST_REG_PREDICATE, 0, s->loc);
    if (!p)
        return LLVMConstNull(L->v4b);
    LLVMValueRef v = bld_swizzle(L, bld_load(L, L->v4b, p, 0), s->swizzle);
    if (s->mod == ST_SRCMOD_NOT)
        v = LLVMBuildNot(L->b, v, "");
    return v;
}

static LLVMValueRef instr_pred(struct lower *L, const struct st_instr *ins)
{
    return ins->predicated ? read_pred(L, &ins->pred) : NULL;
}

/*
 * Stores v into a register under writemask w (and the lanes of pred when
 * not NULL): the merge this design is about.
 */
static void store_masked(struct lower *L, enum st_regfile f, uint32_t index, uint8_t w,
                         LLVMValueRef v, LLVMValueRef pred, struct st_loc loc)
{
    LLVMValueRef p = reg_ptr(L, f, index, loc);
    if (!p || !w)
        return;
    struct reg_slot *s = &L->regs[f][index];
    LLVMTypeRef ty = reg_type(L, f);
    uint8_t keep = (uint8_t)(0xf & ~w);
    /*
     * A lane the write does not cover needs the old value only if somebody
     * may observe it: on straight-line code, lanes still pristine (initial
     * poison, surely overwritten before any read) need no merge.
     */
    bool need_old = pred || (L->cond_depth > 0 ? keep != 0 : (keep & ~s->pristine) != 0);
    LLVMValueRef nv = v;
    if (need_old) {
        LLVMValueRef old = bld_load(L, ty, p, 0);
        if (keep) {
            int m[4];
            for (int i = 0; i < 4; i++)
                m[i] = (w >> i) & 1 ? 4 + i : i;
            nv = bld_shuffle(L, old, v, m);
        }
        if (pred)
            nv = bld_select(L, pred, nv, old);
    }
    bld_store(L, nv, p, 0);
    s->pristine &= (uint8_t)~w;
    if (L->cond_depth > 0)
        s->pristine = 0;
}

/* The interpreter's round_to_int: floor(x + 0.5) in double, saturating, NaN -> 0. */
static LLVMValueRef to_addr(struct lower *L, LLVMValueRef v)
{
    LLVMTypeRef v4d = LLVMVectorType(LLVMDoubleTypeInContext(L->c), 4);
    LLVMValueRef d = LLVMBuildFPExt(L->b, v, v4d, "");
    LLVMValueRef half = LLVMConstVector((LLVMValueRef[]){
        LLVMConstReal(LLVMDoubleTypeInContext(L->c), 0.5), LLVMConstReal(LLVMDoubleTypeInContext(L->c), 0.5),
        LLVMConstReal(LLVMDoubleTypeInContext(L->c), 0.5), LLVMConstReal(LLVMDoubleTypeInContext(L->c), 0.5)}, 4);
    d = bld_floor(L, LLVMBuildFAdd(L->b, d, half, ""));
    LLVMValueRef dmax = LLVMConstReal(LLVMDoubleTypeInContext(L->c), 2147483647.0);
    LLVMValueRef dmin = LLVMConstReal(LLVMDoubleTypeInContext(L->c), -2147483648.0);
    LLVMValueRef hi = bld_splat(L, dmax), lo = bld_splat(L, dmin);
    /* NaN: make the conversion defined; the select below gives 0 */
    LLVMValueRef isnan = bld_fcmp(L, LLVMRealUNO, d, d);
    LLVMValueRef c = bld_select(L, isnan, LLVMConstNull(v4d), d);
    c = bld_select(L, bld_fcmp(L, LLVMRealOGE, c, hi), hi, c);
    c = bld_select(L, bld_fcmp(L, LLVMRealOLE, c, lo), lo, c);
    return LLVMBuildFPToSI(L->b, c, L->v4i, "");
}

/*
 * ST_LOWER_VECTOR: a write to an output file that some instruction writes
 * relatively is an st.ostore marker (translator.h), or st.ostore.rel with
 * the register index computed at run time (aL or a0.c plus the offset).
 * The calls stay in program order and are the only writes of that file
 * (build_exit stores none of its registers), so the merge stage gives each
 * back as one instruction with that destination.
 */
static void ostore_call(struct lower *L, const struct st_dst *d, LLVMValueRef v, uint8_t mask,
                        LLVMValueRef pred)
{
    if (pred) {
        not_supported(L, d->loc, "a predicated write to an output file written relatively");
        return;
    }
    LLVMValueRef args[6];
    unsigned n = 0;
    args[n++] = bld_i(L, (int32_t)d->reg.file);
    if (d->reg.rel)
        args[n++] = rel_base(L, &d->reg);
    args[n++] = bld_i(L, (int32_t)d->reg.index);
    if (d->reg.rel) /* a write outside 0..count-1 is dropped */
        args[n++] = bld_i(L, (int32_t)rel_limit(L, d->reg.file));
    args[n++] = v;
    args[n++] = bld_i(L, mask);
    mk_call(L, d->reg.rel ? "st.ostore.rel" : "st.ostore", LLVMVoidTypeInContext(L->c), args, n, 0);
}

/*
 * Writes an instruction's result: shift, _sat, then the lanes of
 * writemask & opmask (& predicate).
 */
static void write_dst(struct lower *L, const struct st_instr *ins, LLVMValueRef v, uint8_t opmask)
{
    const struct st_dst *d = &ins->dst;
    uint8_t mask = (uint8_t)(d->writemask & opmask);
    if (!mask)
        return;
    if (ins->shift && L->vec) {
        LLVMValueRef args[2] = {v, bld_i(L, ins->shift)};
        v = mk_call(L, "st.shift", L->v4f, args, 2, MK_PURE);
    } else if (ins->shift) {
        float scale = ins->shift > 0 ? (float)(1 << ins->shift) : 1.0f / (float)(1 << -ins->shift);
        v = LLVMBuildFMul(L->b, v, bld_splatf(L, scale), "");
    }
    bool h = LLVMTypeOf(v) == L->v4h; /* a _pp result of the marker form */
    if ((ins->dstmod & ST_DSTMOD_SAT) && L->vec)
        v = mk_call(L, h ? "st.sat.f16" : "st.sat", LLVMTypeOf(v), &v, 1, MK_PURE);
    else if (ins->dstmod & ST_DSTMOD_SAT)
        v = bld_saturate(L, v);
    if (h) /* registers hold floats: a half widens exactly */
        v = LLVMBuildFPExt(L->b, v, L->v4f, "");
    LLVMValueRef pred = instr_pred(L, ins);
    enum st_regfile f = d->reg.file;

    if (f == ST_REG_ADDR || f == ST_REG_PREDICATE) {
        /* vector mode: st.mova / st.arb:arl / st.setp.* give the value its type */
        LLVMValueRef x = LLVMTypeOf(v) != L->v4f ? v
                         : f == ST_REG_ADDR      ? (L->vec ? mk_call(L, "st.mova", L->v4i, &v, 1, MK_PURE)
                                                           : to_addr(L, v))
                                                 : bld_fcmp(L, LLVMRealUNE, v, bld_splatf(L, 0.0f));
        store_masked(L, f, 0, mask, x, pred, d->loc);
        return;
    }
    if (L->arb) {
        /* TEMP and result.* (output slot = index; scalar results are picked
         * out by the caller). */
        if (f == ST_REG_TEMP || f == ST_REG_OUTPUT)
            store_masked(L, f, d->reg.index, mask, v, pred, d->loc);
        else
            not_supported(L, d->loc, "writing this register file");
        return;
    }
    if (L->rel_out[f]) {
        ostore_call(L, d, v, mask, pred);
        return;
    }
    int slot = st_run_out_slot(f, d->reg.index);
    if (!d->reg.rel && (slot == ST_LL_OUT_FOG || slot == ST_LL_OUT_PTS || slot == ST_LL_OUT_DEPTH)) {
        /* Scalar outputs take the first written lane (of the predicate's lanes too). */
        LLVMValueRef p = reg_ptr(L, f, d->reg.index, d->loc);
        if (!p)
            return;
        LLVMValueRef x = NULL;
        if (!pred) {
            for (unsigned k = 0; k < 4 && !x; k++)
                if (mask & (1u << k))
                    x = bld_lane(L, v, k);
        } else {
            x = bld_lane(L, bld_load(L, L->v4f, p, 0), 0);
            for (unsigned k = 4; k-- > 0;)
                if (mask & (1u << k))
                {
                    LLVMValueRef c = bld_lane(L, pred, k), t = bld_lane(L, v, k);
                    x = bld_select(L, c, t, x);
                }
        }
        store_masked(L, f, d->reg.index, 0x1, bld_splat(L, x), NULL, d->loc);
        return;
    }
    if (d->reg.rel) {
        unsigned n = rel_limit(L, f);
        if (!n || n > MAX_REG_INDEX) {
            not_supported(L, d->loc, "a relatively addressed destination in this file");
            return;
        }
        LLVMValueRef idx = rel_index(L, &d->reg);
        bool reach[MAX_REG_INDEX], oob = true;
        bool known = rel_reach(L, &d->reg, n, reach, &oob);
        if (oob)
            rel_in_range(L, idx, n);
        unsigned nreach = 0;
        for (unsigned k = 0; known && k < n; k++)
            nreach += reach[k]; /* all of them: a shortcut needs the only one */
        for (unsigned k = 0; k < n; k++) {
            if (is_output_file(f) && !L->regs[f][k].written)
                continue;
            if (known && !reach[k])
                continue; /* never this register: no loop-carried select */
            if (known && !oob && nreach == 1) {
                store_masked(L, f, k, mask, v, pred, d->loc); /* the index can only be k */
                break;
            }
            LLVMValueRef is = bld_splat(L, LLVMBuildICmp(L->b, LLVMIntEQ, idx,
                                                         bld_i(L, (int32_t)k), ""));
            LLVMValueRef pk = pred ? LLVMBuildAnd(L->b, pred, is, "") : is;
            store_masked(L, f, k, mask, v, pk, d->loc);
        }
        return;
    }
    switch (f) {
    case ST_REG_TEMP: case ST_REG_TEXTURE: case ST_REG_RASTOUT: case ST_REG_ATTROUT:
    case ST_REG_TEXCRDOUT: case ST_REG_OUTPUT: case ST_REG_COLOROUT: case ST_REG_DEPTHOUT:
        store_masked(L, f, d->reg.index, mask, v, pred, d->loc);
        break;
    default:
        not_supported(L, d->loc, "writing this register file");
    }
}

/* ------------------------------------------------------------------ */
/* Instructions.                                                       */

/* ((a.x*b.x + a.y*b.y) + a.z*b.z) [+ a.w*b.w]: the interpreter's order. */
static LLVMValueRef dot(struct lower *L, LLVMValueRef a, LLVMValueRef b, unsigned n)
{
    LLVMValueRef p = bld_mul(L, a, b);
    LLVMValueRef s = bld_lane(L, p, 0);
    for (unsigned i = 1; i < n; i++)
        s = bld_add(L, s, bld_lane(L, p, i));
    return s;
}

static LLVMValueRef scalar_mul(struct lower *L, LLVMValueRef a, LLVMValueRef b)
{
    return bld_mul(L, a, b);
}

static LLVMValueRef bool_const(struct lower *L, uint32_t index)
{
    if (index >= ST_LL_NUM_BCONSTS)
        return LLVMConstInt(L->i1, 0, 0);
    if (L->has_defb[index])
        return LLVMConstInt(L->i1, L->def_b[index], 0);
    LLVMValueRef p = LLVMBuildGEP2(L->b, L->i32, L->arg_b, (LLVMValueRef[]){bld_i(L, (int32_t)index)},
                                   1, "");
    return LLVMBuildICmp(L->b, LLVMIntNE, bld_load(L, L->i32, p, 4), bld_i(L, 0), "");
}

static LLVMValueRef int_const(struct lower *L, uint32_t index)
{
    if (index >= ST_LL_NUM_ICONSTS)
        return LLVMConstNull(L->v4i);
    if (L->has_defi[index]) {
        const int32_t *d = L->def_i[index];
        LLVMValueRef e[4] = {bld_i(L, d[0]), bld_i(L, d[1]), bld_i(L, d[2]), bld_i(L, d[3])};
        return LLVMConstVector(e, 4);
    }
    return bld_load(L, L->v4i, bld_vec_ptr(L, L->arg_i, bld_i(L, (int32_t)index)), 4);
}

static LLVMRealPredicate cmp_pred(enum st_compare c)
{
    switch (c) {
    case ST_CMP_GT: return LLVMRealOGT;
    case ST_CMP_EQ: return LLVMRealOEQ;
    case ST_CMP_GE: return LLVMRealOGE;
    case ST_CMP_LT: return LLVMRealOLT;
    case ST_CMP_NE: return LLVMRealUNE;
    case ST_CMP_LE: return LLVMRealOLE;
    default: return LLVMRealPredicateFalse;
    }
}

/* Condition of if/callnz/breakp: b#, p0.c, or a float register's x != 0; then "!". */
static LLVMValueRef cond_src(struct lower *L, const struct st_instr *ins, unsigned k)
{
    const struct st_src *s = &ins->src[k];
    LLVMValueRef c;
    if (s->reg.file == ST_REG_CONSTBOOL)
        c = bool_const(L, s->reg.index);
    else if (s->reg.file == ST_REG_PREDICATE)
        c = bld_lane(L, bld_load(L, L->v4b, reg_ptr(L, ST_REG_PREDICATE, 0, s->loc), 0),
                     ST_SWZ_LANE(s->swizzle, 0));
    else if (L->vec) {
        LLVMValueRef args[2];
        /* one source at a time: the order of an initializer list's evaluations is unspecified */
        args[0] = read_src(L, ins, k);
        args[1] = bld_splatf(L, 0.0f);
        c = bld_lane(L, mk_call(L, "st.setp.ne", L->v4b, args, 2, MK_PURE), 0);
    } else
        c = bld_fcmp(L, LLVMRealUNE, read_scalar(L, ins, k), bld_f(L, 0.0f));
    if (s->mod == ST_SRCMOD_NOT)
        c = LLVMBuildNot(L->b, c, "");
    return c;
}

/* ifc/breakc condition: src0.x <cmp> src1.x. */
static LLVMValueRef cond_compare(struct lower *L, const struct st_instr *ins)
{
    if (L->vec) {
        char name[16];
        snprintf(name, sizeof(name), "st.setp.%s", st_marker_cmp_name(ins->cmp));
        LLVMValueRef args[2];
        /* one source at a time: the order of an initializer list's evaluations is unspecified */
        args[0] = read_src(L, ins, 0);
        args[1] = read_src(L, ins, 1);
        return bld_lane(L, mk_call(L, name, L->v4b, args, 2, MK_PURE), 0);
    }
    /* one source at a time, as above */
    LLVMValueRef a = read_scalar(L, ins, 0);
    LLVMValueRef b = read_scalar(L, ins, 1);
    return bld_fcmp(L, cmp_pred(ins->cmp), a, b);
}

/* The bump-environment value j of stage n. */
static LLVMValueRef bumpenv(struct lower *L, uint32_t stage, unsigned j)
{
    if (stage >= 16)
        return bld_f(L, 0.0f);
    LLVMValueRef idx = bld_i(L, (int32_t)(stage * ST_LL_BUMP_STRIDE + j));
    return bld_load(L, L->f32, LLVMBuildGEP2(L->b, L->f32, L->arg_bump, &idx, 1, ""), 4);
}

/* Samples stage at coordinates c (x, y, z used) through the callback. */
static LLVMValueRef sample(struct lower *L, uint32_t stage, LLVMValueRef c)
{
    if (!L->sample_fn) {
        LLVMTypeRef params[6] = {L->ptr, L->i32, L->f32, L->f32, L->f32, L->ptr};
        L->sample_ty = LLVMFunctionType(LLVMVoidTypeInContext(L->c), params, 6, 0);
        L->sample_fn = LLVMAddFunction(L->m, ST_LL_SAMPLE_FN, L->sample_ty);
        L->sample_out = bld_alloca(L, L->v4f, "texel");
    }
    LLVMValueRef c0 = bld_lane(L, c, 0), c1 = bld_lane(L, c, 1), c2 = bld_lane(L, c, 2);
    LLVMValueRef args[6] = {L->arg_tex, bld_i(L, (int32_t)stage), c0, c1, c2, L->sample_out};
    LLVMBuildCall2(L->b, L->sample_ty, L->sample_fn, args, 6, "");
    return bld_load(L, L->v4f, L->sample_out, 16);
}

static LLVMValueRef pad_ptr(struct lower *L, uint32_t t)
{
    if (!L->pad[t]) {
        L->pad[t] = bld_alloca(L, L->f32, "pad");
        LLVMBuilderRef eb = LLVMCreateBuilderInContext(L->c);
        LLVMPositionBuilderBefore(eb, LLVMGetBasicBlockTerminator(L->entry));
        LLVMBuildStore(eb, bld_f(L, 0.0f), L->pad[t]);
        LLVMDisposeBuilder(eb);
    }
    return L->pad[t];
}

static LLVMValueRef pad_value(struct lower *L, uint32_t didx, unsigned back)
{
    if (didx < back || didx - back >= 8)
        return bld_f(L, 0.0f);
    return bld_load(L, L->f32, pad_ptr(L, didx - back), 0);
}

/* The 3-vector dot products of the texm3x* family: coords(didx) . src0. */
static LLVMValueRef coord_dot(struct lower *L, const struct st_instr *ins)
{
    LLVMValueRef t = coords(L, ins->dst.reg.index), s = read_src(L, ins, 0);
    return dot(L, t, s, 3);
}

/* LIT's power clamp: the largest float below 128 ("128 - epsilon"). */
#define ARB_LIT_MAXP 127.99999237060546875f

/* The instructions only ARB programs have: interp.c's arb_compute. */
static LLVMValueRef arb_compute(struct lower *L, const struct st_instr *ins)
{
    LLVMValueRef zero = bld_f(L, 0.0f), one = bld_f(L, 1.0f);
    switch (ins->op) {
    case ST_OP_ARB_ARL: /* floor; the address write converts it */
        return bld_splat(L, bld_floor(L, read_scalar(L, ins, 0)));
    case ST_OP_ARB_DPH: {
        LLVMValueRef a = read_src(L, ins, 0), b = read_src(L, ins, 1);
        LLVMValueRef d = dot(L, a, b, 3), bw = bld_lane(L, b, 3);
        return bld_splat(L, bld_add(L, d, bw));
    }
    case ST_OP_ARB_FLR:
        return bld_floor(L, read_src(L, ins, 0));
    case ST_OP_ARB_LIT: {
        LLVMValueRef s = read_src(L, ins, 0);
        LLVMValueRef sx = bld_lane(L, s, 0), sy = bld_lane(L, s, 1), sw = bld_lane(L, s, 3);
        LLVMValueRef x = bld_select(L, bld_fcmp(L, LLVMRealOLT, sx, zero), zero, sx);
        LLVMValueRef y = bld_select(L, bld_fcmp(L, LLVMRealOLT, sy, zero), zero, sy);
        LLVMValueRef maxp = bld_f(L, ARB_LIT_MAXP), minp = bld_f(L, -ARB_LIT_MAXP);
        LLVMValueRef below = bld_fcmp(L, LLVMRealOLT, sw, minp);
        LLVMValueRef above = bld_fcmp(L, LLVMRealOGT, sw, maxp);
        LLVMValueRef w = bld_select(L, below, minp, bld_select(L, above, maxp, sw));
        LLVMValueRef args[2];
        args[0] = bld_to_f64(L, y);
        args[1] = bld_to_f64(L, w);
        LLVMValueRef pw = bld_to_f32(L, bld_intrin(L, "llvm.pow", args, 2));
        LLVMValueRef z = bld_select(L, bld_fcmp(L, LLVMRealOGT, x, zero), pw, zero);
        return bld_gather(L, one, x, z, one);
    }
    case ST_OP_ARB_XPD: {
        LLVMValueRef a = read_src(L, ins, 0), b = read_src(L, ins, 1);
        LLVMValueRef a0 = bld_lane(L, a, 0), a1 = bld_lane(L, a, 1), a2 = bld_lane(L, a, 2);
        LLVMValueRef b0 = bld_lane(L, b, 0), b1 = bld_lane(L, b, 1), b2 = bld_lane(L, b, 2);
        LLVMValueRef p[6] = {NULL}, x, y, z;
        p[0] = scalar_mul(L, a1, b2);
        p[1] = scalar_mul(L, a2, b1);
        x = bld_sub(L, p[0], p[1]);
        p[2] = scalar_mul(L, a2, b0);
        p[3] = scalar_mul(L, a0, b2);
        y = bld_sub(L, p[2], p[3]);
        p[4] = scalar_mul(L, a0, b1);
        p[5] = scalar_mul(L, a1, b0);
        z = bld_sub(L, p[4], p[5]);
        return bld_gather(L, x, y, z, one);
    }
    case ST_OP_ARB_SWZ: {
        LLVMValueRef s = read_src(L, ins, 0), lane[4];
        for (int k = 0; k < 4; k++) {
            uint8_t sel = ins->arb->swz_sel[k];
            lane[k] = sel < 4 ? bld_lane(L, s, sel) : sel == ST_ARB_SWZ_ONE ? one : zero;
            if ((ins->arb->swz_neg >> k) & 1)
                lane[k] = LLVMBuildFNeg(L->b, lane[k], "");
        }
        return bld_gather(L, lane[0], lane[1], lane[2], lane[3]);
    }
    case ST_OP_ARB_SIN:
        return bld_splat(L, bld_libm1(L, "llvm.sin", read_scalar(L, ins, 0)));
    case ST_OP_ARB_COS:
        return bld_splat(L, bld_libm1(L, "llvm.cos", read_scalar(L, ins, 0)));
    case ST_OP_ARB_SCS: {
        LLVMValueRef x = read_scalar(L, ins, 0);
        LLVMValueRef c = bld_libm1(L, "llvm.cos", x), sn = bld_libm1(L, "llvm.sin", x);
        return bld_gather(L, c, sn, zero, zero);
    }
    case ST_OP_ARB_KIL: {
        LLVMValueRef neg = bld_fcmp(L, LLVMRealOLT, read_src(L, ins, 0), bld_splatf(L, 0.0f));
        LLVMValueRef any = bld_lane(L, neg, 0);
        for (unsigned k = 1; k < 4; k++)
            any = LLVMBuildOr(L->b, any, bld_lane(L, neg, k), "");
        set_status(L, any, ST_LL_STATUS_KILLED);
        return NULL;
    }
    case ST_OP_ARB_TEX: case ST_OP_ARB_TXP: case ST_OP_ARB_TXB: {
        LLVMValueRef c = read_src(L, ins, 0);
        if (ins->op == ST_OP_ARB_TXP) {
            const int ww[4] = {3, 3, 3, 3}, keep[4] = {0, 1, 2, 7};
            LLVMValueRef q = LLVMBuildFDiv(L->b, c, bld_shuffle(L, c, NULL, ww), "");
            c = bld_shuffle(L, q, c, keep);
        }
        /* The callback's stage carries the unit and the target (docs/arb.md, "Engines"). */
        uint32_t stage = (ins->arb->tex_unit & 0xffu) | ((uint32_t)ins->arb->tex_target + 1u) << 8;
        return sample(L, stage, c);
    }
    default:
        not_supported(L, ins->loc, st_opinfo[ins->op].name);
        return NULL;
    }
}

static unsigned instr_index(const struct st_shader *sh, const struct st_instr *ins);

/*
 * ST_LOWER_VECTOR: a ps_1_x texture-phase instruction (tex*, texcrd,
 * texld, texkill, texdepth, bem, phase) is
 * call <4 x float> (i32, ...) @st.opaque(i32 K, the raw registers it reads)
 * with K its index in the shader's list; a vector back end prints that
 * instruction again as written.  Its result (if it writes a register) is
 * what the register holds afterwards.  NULL for every other instruction.
 */
static LLVMValueRef opaque_call(struct lower *L, const struct st_instr *ins, bool *writes)
{
    enum st_opcode op = ins->op;
    if (!((st_opinfo[op].flags & OPF_TEX1X) || op == ST_OP_TEXLD || op == ST_OP_TEXKILL ||
          op == ST_OP_BEM || op == ST_OP_PHASE))
        return NULL;
    LLVMTypeRef fty = LLVMFunctionType(L->v4f, &L->i32, 1, 1);
    LLVMValueRef fn = LLVMGetNamedFunction(L->m, "st.opaque");
    if (!fn)
        fn = LLVMAddFunction(L->m, "st.opaque", fty);
    LLVMValueRef args[6];
    unsigned n = 0;
    args[n++] = bld_i(L, (int32_t)instr_index(L->sh, ins));
    /* texkill and texdepth read the register they name */
    *writes = st_opaque_writes(ins);
    if (!*writes && ins->has_dst)
        args[n++] = load_reg(L, &ins->dst.reg);
    for (unsigned k = 0; k < ins->nsrc && n < 6; k++)
        args[n++] = load_reg(L, &ins->src[k].reg);
    return LLVMBuildCall2(L->b, fty, fn, args, n, "");
}

/*
 * ST_LOWER_VECTOR: one instruction of a Direct3D 9 (ps_2_0 and up, every
 * vs) or ARB program as its marker (translator.h, "markers of
 * ST_LOWER_VECTOR") on the read sources; mov, add, sub and abs stay LLVM
 * operations (their meaning does not depend on the float rules, and every
 * engine computes them the same way).  NULL: writes no register.
 */
static LLVMValueRef vec_op(struct lower *L, const struct st_instr *ins, unsigned nsrc,
                           const int32_t *ints, unsigned nints, LLVMTypeRef rty)
{
    char name[40];
    /* a _pp instruction in half: the marker's half form on <4 x half>
     * (sampling takes float coordinates; compute() rounds its texel) */
    bool h = L->hcur && !is_texld(ins->op) && rty == L->v4f;
    snprintf(name, sizeof(name), "st.%s%s", st_opinfo[ins->op].name, h ? ".f16" : "");
    if (h)
        rty = L->v4h;
    LLVMValueRef args[8];
    unsigned n = 0;
    for (unsigned k = 0; k < nsrc && n < 8; k++)
        args[n++] = read_src(L, ins, k);
    for (unsigned k = 0; k < nints && n < 8; k++)
        args[n++] = bld_i(L, ints[k]);
    bool conv = ins->op == ST_OP_TEXLD || ins->op == ST_OP_TEXLDP || ins->op == ST_OP_TEXLDB ||
                ins->op == ST_OP_ARB_TEX || ins->op == ST_OP_ARB_TXP || ins->op == ST_OP_ARB_TXB;
    unsigned attrs = rty == LLVMVoidTypeInContext(L->c) ? 0u : MK_PURE;
    if (conv && L->ps)
        attrs |= MK_CONVERGENT; /* the level comes from the quad's derivatives */
    return mk_call(L, name, rty, args, n, attrs);
}

static LLVMValueRef vec_compute(struct lower *L, const struct st_instr *ins)
{
    const LLVMTypeRef v4f = L->v4f;
    switch (ins->op) {
    case ST_OP_MOV: case ST_OP_MOVA:
        return read_src(L, ins, 0);
    case ST_OP_ADD: { /* one source at a time: argument order is the compiler's */
        LLVMValueRef a = read_src(L, ins, 0), b = read_src(L, ins, 1);
        return bld_add(L, a, b);
    }
    case ST_OP_SUB: { /* one source at a time: argument order is the compiler's */
        LLVMValueRef a = read_src(L, ins, 0), b = read_src(L, ins, 1);
        return bld_sub(L, a, b);
    }
    case ST_OP_ABS: return bld_fabs(L, read_src(L, ins, 0));
    case ST_OP_MUL: case ST_OP_DP3: case ST_OP_DP4: case ST_OP_MIN: case ST_OP_MAX:
    case ST_OP_SLT: case ST_OP_SGE: case ST_OP_DST: case ST_OP_CRS: case ST_OP_POW:
    case ST_OP_ARB_DPH: case ST_OP_ARB_XPD:
        return vec_op(L, ins, 2, NULL, 0, v4f);
    case ST_OP_MAD: case ST_OP_DP2ADD: case ST_OP_LRP: case ST_OP_CMP: case ST_OP_CND:
        return vec_op(L, ins, 3, NULL, 0, v4f);
    case ST_OP_RCP: case ST_OP_RSQ: case ST_OP_EXP: case ST_OP_LOG: case ST_OP_EXPP:
    case ST_OP_LOGP: case ST_OP_LIT: case ST_OP_FRC: case ST_OP_NRM: case ST_OP_ARB_FLR:
    case ST_OP_ARB_LIT: case ST_OP_ARB_SIN: case ST_OP_ARB_COS: case ST_OP_ARB_SCS:
    /* sgn and sincos: the scratch registers of the 2_0 forms are not read */
    case ST_OP_SGN: case ST_OP_SINCOS:
        return vec_op(L, ins, 1, NULL, 0, v4f);
    case ST_OP_ARB_ARL:
        return vec_op(L, ins, 1, NULL, 0, L->v4i);
    case ST_OP_SETP: {
        char name[24];
        snprintf(name, sizeof(name), "st.setp.%s%s", st_marker_cmp_name(ins->cmp),
                 L->hcur ? ".f16" : "");
        LLVMValueRef args[2];
        /* one source at a time: the order of an initializer list's evaluations is unspecified */
        args[0] = read_src(L, ins, 0);
        args[1] = read_src(L, ins, 1);
        return mk_call(L, name, L->v4b, args, 2, MK_PURE);
    }
    case ST_OP_M4x4: case ST_OP_M4x3: case ST_OP_M3x4: case ST_OP_M3x3: case ST_OP_M3x2: {
        /* a dp4 / dp3 per row, gathered: the merge stage fuses them back */
        bool four = ins->op == ST_OP_M4x4 || ins->op == ST_OP_M4x3;
        unsigned rows = ins->op == ST_OP_M4x4 || ins->op == ST_OP_M3x4 ? 4
                        : ins->op == ST_OP_M3x2 ? 2 : 3;
        LLVMValueRef a = read_src(L, ins, 0), lane[4];
        LLVMTypeRef vt = L->hcur ? L->v4h : v4f;
        for (unsigned i = 0; i < 4; i++) {
            if (i >= rows) {
                lane[i] = LLVMConstNull(L->hcur ? L->f16 : L->f32);
                continue;
            }
            LLVMValueRef args[2];
            /* one source at a time: the order of an initializer list's evaluations is unspecified */
            args[0] = a;
            args[1] = read_src_row(L, ins, 1, i);
            const char *name = four ? (L->hcur ? "st.dp4.f16" : "st.dp4")
                                    : (L->hcur ? "st.dp3.f16" : "st.dp3");
            lane[i] = bld_lane(L, mk_call(L, name, vt, args, 2, MK_PURE), 0);
        }
        return bld_gather(L, lane[0], lane[1], lane[2], lane[3]);
    }
    case ST_OP_TEXLD: case ST_OP_TEXLDP: case ST_OP_TEXLDB: case ST_OP_TEXLDL: {
        uint32_t stage = ins->nsrc > 1 ? ins->src[1].reg.index : 0;
        int32_t ints[2] = {(int32_t)stage, (int32_t)(stage < 16 ? L->tex_dims[stage] : 3)};
        LLVMValueRef r = vec_op(L, ins, 1, ints, 2, v4f);
        return L->hcur ? LLVMBuildFPTrunc(L->b, r, L->v4h, "") : r; /* texld_pp: a half texel */
    }
    case ST_OP_TEXLDD: {
        uint32_t stage = ins->src[1].reg.index;
        char name[] = "st.texldd";
        LLVMValueRef args[5];
        /* one source at a time: the order of an initializer list's evaluations is unspecified */
        args[0] = read_src(L, ins, 0);
        args[1] = read_src(L, ins, 2);
        args[2] = read_src(L, ins, 3);
        args[3] = bld_i(L, (int32_t)stage);
        args[4] = bld_i(L, (int32_t)(stage < 16 ? L->tex_dims[stage] : 3));
        LLVMValueRef r = mk_call(L, name, v4f, args, 5, MK_PURE);
        return L->hcur ? LLVMBuildFPTrunc(L->b, r, L->v4h, "") : r;
    }
    case ST_OP_TEXKILL: {
        /* any of x, y, z below 0, in the lanes the predicate lets through */
        LLVMValueRef v = load_reg(L, &ins->dst.reg);
        LLVMValueRef pred = instr_pred(L, ins);
        if (pred)
            v = bld_select(L, pred, v, bld_splatf(L, 0.0f));
        mk_call(L, "st.texkill", LLVMVoidTypeInContext(L->c), &v, 1, 0);
        return NULL;
    }
    case ST_OP_ARB_KIL:
        vec_op(L, ins, 1, NULL, 0, LLVMVoidTypeInContext(L->c));
        return NULL;
    case ST_OP_ARB_SWZ: {
        int32_t ints[2] = {0, ins->arb->swz_neg & 0xf};
        for (unsigned k = 0; k < 4; k++)
            ints[0] |= (int32_t)((ins->arb->swz_sel[k] & 7u) << (3 * k));
        return vec_op(L, ins, 1, ints, 2, v4f);
    }
    case ST_OP_ARB_TEX: case ST_OP_ARB_TXP: case ST_OP_ARB_TXB: {
        int32_t ints[2] = {(int32_t)ins->arb->tex_unit, (int32_t)ins->arb->tex_target};
        return vec_op(L, ins, 1, ints, 2, v4f);
    }
    case ST_OP_NOP: case ST_OP_PHASE:
        return NULL;
    default:
        not_supported(L, ins->loc, st_opinfo[ins->op].name);
        return NULL;
    }
}

/* mov, the sums and products (dot products and matrices included) and bem:
 * every product goes through bld_mul, where the d3d9 float rule lives. */
static LLVMValueRef lower_arith(struct lower *L, const struct st_instr *ins)
{
    const uint32_t didx = ins->dst.reg.index;
    switch (ins->op) {
    case ST_OP_MOV: case ST_OP_MOVA: case ST_OP_TEXCRD:
        return read_src(L, ins, 0);
    case ST_OP_ADD: { /* one source at a time: argument order is the compiler's */
        LLVMValueRef a = read_src(L, ins, 0), b = read_src(L, ins, 1);
        return bld_add(L, a, b);
    }
    case ST_OP_SUB: { /* one source at a time: argument order is the compiler's */
        LLVMValueRef a = read_src(L, ins, 0), b = read_src(L, ins, 1);
        return bld_sub(L, a, b);
    }
    case ST_OP_MUL: { /* one source at a time: argument order is the compiler's */
        LLVMValueRef a = read_src(L, ins, 0), b = read_src(L, ins, 1);
        return bld_mul(L, a, b);
    }
    case ST_OP_MAD: {
        /* the product is rounded before the add: no fused multiply-add */
        LLVMValueRef a = read_src(L, ins, 0), b = read_src(L, ins, 1), c = read_src(L, ins, 2);
        return bld_add(L, bld_mul(L, a, b), c);
    }
    case ST_OP_DP3: {
        LLVMValueRef a = read_src(L, ins, 0), b = read_src(L, ins, 1);
        return bld_splat(L, dot(L, a, b, 3));
    }
    case ST_OP_DP4: {
        LLVMValueRef a = read_src(L, ins, 0), b = read_src(L, ins, 1);
        return bld_splat(L, dot(L, a, b, 4));
    }
    case ST_OP_DP2ADD: {
        LLVMValueRef a = read_src(L, ins, 0), b = read_src(L, ins, 1), c = read_src(L, ins, 2);
        LLVMValueRef d = dot(L, a, b, 2), cx = bld_lane(L, c, 0);
        return bld_splat(L, bld_add(L, d, cx));
    }
    case ST_OP_DST: {
        LLVMValueRef a = read_src(L, ins, 0), b = read_src(L, ins, 1);
        LLVMValueRef ay = bld_lane(L, a, 1), by = bld_lane(L, b, 1);
        LLVMValueRef y = scalar_mul(L, ay, by);
        LLVMValueRef z = bld_lane(L, a, 2), w = bld_lane(L, b, 3);
        return bld_gather(L, bld_f(L, 1.0f), y, z, w);
    }
    case ST_OP_LRP: {
        LLVMValueRef a = read_src(L, ins, 0), b = read_src(L, ins, 1), c = read_src(L, ins, 2);
        if (L->arb) /* ARB's pseudo-code: a * b + (1 - a) * c */
        {
            LLVMValueRef ab = bld_mul(L, a, b);
            LLVMValueRef rest = bld_mul(L, bld_sub(L, bld_splatf(L, 1.0f), a), c);
            return bld_add(L, ab, rest);
        }
        return bld_add(L, bld_mul(L, a, bld_sub(L, b, c)), c);
    }
    case ST_OP_FRC: {
        LLVMValueRef a = read_src(L, ins, 0);
        return bld_sub(L, a, bld_floor(L, a));
    }
    case ST_OP_M4x4: case ST_OP_M4x3: case ST_OP_M3x4: case ST_OP_M3x3: case ST_OP_M3x2: {
        unsigned n = ins->op == ST_OP_M4x4 || ins->op == ST_OP_M4x3 ? 4 : 3;
        unsigned rows = ins->op == ST_OP_M4x4 || ins->op == ST_OP_M3x4 ? 4
                        : ins->op == ST_OP_M3x2 ? 2 : 3;
        LLVMValueRef a = read_src(L, ins, 0);
        LLVMValueRef lane[4];
        for (unsigned i = 0; i < 4; i++)
            lane[i] = i < rows ? dot(L, a, read_src_row(L, ins, 1, i), n) : bld_f(L, 0.0f);
        return bld_gather(L, lane[0], lane[1], lane[2], lane[3]);
    }
    case ST_OP_CRS: {
        LLVMValueRef a = read_src(L, ins, 0), b = read_src(L, ins, 1);
        const int yzx[4] = {1, 2, 0, 3}, zxy[4] = {2, 0, 1, 3};
        LLVMValueRef a1 = bld_shuffle(L, a, NULL, yzx), b1 = bld_shuffle(L, b, NULL, zxy);
        LLVMValueRef t1 = bld_mul(L, a1, b1);
        LLVMValueRef a2 = bld_shuffle(L, a, NULL, zxy), b2 = bld_shuffle(L, b, NULL, yzx);
        LLVMValueRef t2 = bld_mul(L, a2, b2);
        return bld_sub(L, t1, t2);
    }
    case ST_OP_ABS: return bld_fabs(L, read_src(L, ins, 0));
    case ST_OP_NRM: {
        LLVMValueRef a = read_src(L, ins, 0);
        LLVMValueRef inv = bld_rcp(L, bld_intrin1(L, "llvm.sqrt", dot(L, a, a, 3)));
        return bld_mul(L, a, bld_splat(L, inv));
    }
    case ST_OP_BEM: {
        LLVMValueRef a = read_src(L, ins, 0), b = read_src(L, ins, 1);
        LLVMValueRef bx = bld_lane(L, b, 0), by = bld_lane(L, b, 1);
        LLVMValueRef x = bld_add(L, bld_add(L, bld_lane(L, a, 0), scalar_mul(L, bumpenv(L, didx, 0), bx)),
                                 scalar_mul(L, bumpenv(L, didx, 2), by));
        LLVMValueRef y = bld_add(L, bld_add(L, bld_lane(L, a, 1), scalar_mul(L, bumpenv(L, didx, 1), bx)),
                                 scalar_mul(L, bumpenv(L, didx, 3), by));
        return bld_gather(L, x, y, bld_f(L, 0.0f), bld_f(L, 0.0f));
    }
    default:
        not_supported(L, ins->loc, st_opinfo[ins->op].name);
        return NULL;
    }
}

/* min, max, set-on-compare, sgn, cmp/cnd, setp: an fcmp and a select, with
 * the ordered predicates that give the interpreter's NaN results. */
static LLVMValueRef lower_select(struct lower *L, const struct st_instr *ins)
{
    switch (ins->op) {
    case ST_OP_MIN: {
        LLVMValueRef a = read_src(L, ins, 0), b = read_src(L, ins, 1);
        if (L->arb) /* ARB: (a > b) ? b : a */
            return bld_select(L, bld_fcmp(L, LLVMRealOGT, a, b), b, a);
        return bld_select(L, bld_fcmp(L, LLVMRealOLT, a, b), a, b);
    }
    case ST_OP_MAX: {
        LLVMValueRef a = read_src(L, ins, 0), b = read_src(L, ins, 1);
        /* ARB: (a > b) ? a : b */
        return bld_select(L, bld_fcmp(L, L->arb ? LLVMRealOGT : LLVMRealOGE, a, b), a, b);
    }
    case ST_OP_SLT: case ST_OP_SGE: {
        LLVMValueRef a = read_src(L, ins, 0), b = read_src(L, ins, 1);
        LLVMValueRef c = bld_fcmp(L, ins->op == ST_OP_SLT ? LLVMRealOLT : LLVMRealOGE, a, b);
        return bld_select(L, c, bld_splatf(L, 1.0f), bld_splatf(L, 0.0f));
    }
    case ST_OP_SGN: {
        LLVMValueRef a = read_src(L, ins, 0), zero = bld_splatf(L, 0.0f);
        LLVMValueRef pos = bld_fcmp(L, LLVMRealOGT, a, zero);
        LLVMValueRef neg = bld_fcmp(L, LLVMRealOLT, a, zero);
        return bld_select(L, pos, bld_splatf(L, 1.0f),
                          bld_select(L, neg, bld_splatf(L, -1.0f), zero));
    }
    case ST_OP_CMP: case ST_OP_CND: {
        LLVMValueRef a = read_src(L, ins, 0), b = read_src(L, ins, 1), c = read_src(L, ins, 2);
        LLVMValueRef t = ins->op == ST_OP_CMP
                             ? bld_fcmp(L, L->arb ? LLVMRealOLT : LLVMRealOGE, a, bld_splatf(L, 0.0f))
                             : bld_fcmp(L, LLVMRealOGT, a, bld_splatf(L, 0.5f));
        return bld_select(L, t, b, c);
    }
    case ST_OP_SETP: {
        LLVMValueRef a = read_src(L, ins, 0), b = read_src(L, ins, 1);
        LLVMValueRef c = bld_fcmp(L, cmp_pred(ins->cmp), a, b);
        return bld_select(L, c, bld_splatf(L, 1.0f), bld_splatf(L, 0.0f));
    }
    default:
        not_supported(L, ins->loc, st_opinfo[ins->op].name);
        return NULL;
    }
}

/* rcp, rsq, exp, log (and their partial forms), lit, pow, sincos: each keeps
 * st_op_eval's special inputs (0, 1, |x|) and its libm calls in double. */
static LLVMValueRef lower_math(struct lower *L, const struct st_instr *ins)
{
    switch (ins->op) {
    case ST_OP_RCP: {
        /* D3D9: +-0 -> +inf (not -inf), else the IEEE quotient (1 -> exactly
         * 1); ARB: the quotient throughout (st_op_eval) */
        LLVMValueRef x = read_scalar(L, ins, 0);
        if (L->arb)
            return bld_splat(L, bld_rcp(L, x));
        LLVMValueRef is0 = bld_fcmp(L, LLVMRealOEQ, x, bld_f(L, 0.0f));
        LLVMValueRef r = bld_select(L, is0, bld_f(L, INFINITY), bld_rcp(L, x));
        return bld_splat(L, r);
    }
    case ST_OP_RSQ: {
        LLVMValueRef x = bld_fabs(L, read_scalar(L, ins, 0));
        LLVMValueRef is0 = bld_fcmp(L, LLVMRealOEQ, x, bld_f(L, 0.0f));
        LLVMValueRef r = bld_select(L, is0, bld_f(L, INFINITY),
                                    bld_rcp(L, bld_intrin1(L, "llvm.sqrt", x)));
        return bld_splat(L, r);
    }
    case ST_OP_EXP:
        return bld_splat(L, bld_libm1(L, "llvm.exp2", read_scalar(L, ins, 0)));
    case ST_OP_LOG:
        return bld_splat(L, bld_libm1(L, "llvm.log2", bld_fabs(L, read_scalar(L, ins, 0))));
    case ST_OP_EXPP: {
        LLVMValueRef v = read_scalar(L, ins, 0);
        LLVMValueRef z = bld_partial(L, bld_libm1(L, "llvm.exp2", v));
        if (L->ver >= ST_VER(2, 0))
            return bld_splat(L, z);
        LLVMValueRef fl = bld_floor(L, v);
        LLVMValueRef e = bld_libm1(L, "llvm.exp2", fl), fr = bld_sub(L, v, fl);
        return bld_gather(L, e, fr, z, bld_f(L, 1.0f));
    }
    case ST_OP_LOGP: {
        LLVMValueRef v = bld_fabs(L, read_scalar(L, ins, 0));
        LLVMValueRef ninf = bld_f(L, -INFINITY);
        LLVMValueRef is0 = bld_fcmp(L, LLVMRealOEQ, v, bld_f(L, 0.0f));
        LLVMValueRef lg = bld_select(L, is0, ninf, bld_partial(L, bld_libm1(L, "llvm.log2", v)));
        if (L->ver >= ST_VER(2, 0))
            return bld_splat(L, lg);
        /* The spec's bit fields: biased exponent - 127, and the mantissa under
         * exponent 0 (denormals: -127; inf: 128 and 1); zero: -inf and 1. */
        LLVMValueRef bits = LLVMBuildBitCast(L->b, v, L->i32, "");
        LLVMValueRef e = LLVMBuildSub(L->b, LLVMBuildLShr(L->b, bits, bld_i(L, 23), ""),
                                      bld_i(L, 127), "");
        LLVMValueRef m = LLVMBuildBitCast(
            L->b, LLVMBuildOr(L->b, LLVMBuildAnd(L->b, bits, bld_i(L, 0x007fffff), ""),
                              bld_i(L, 0x3f800000), ""),
            L->f32, "");
        LLVMValueRef x = bld_select(L, is0, ninf, LLVMBuildSIToFP(L->b, e, L->f32, ""));
        LLVMValueRef y = bld_select(L, is0, bld_f(L, 1.0f), m);
        return bld_gather(L, x, y, lg, bld_f(L, 1.0f));
    }
    case ST_OP_LIT: {
        LLVMValueRef s = read_src(L, ins, 0);
        LLVMValueRef sx = bld_lane(L, s, 0), sy = bld_lane(L, s, 1), sw = bld_lane(L, s, 3);
        LLVMValueRef zero = bld_f(L, 0.0f), maxp = bld_f(L, 127.9961f), minp = bld_f(L, -127.9961f);
        LLVMValueRef below = bld_fcmp(L, LLVMRealOLT, sw, minp);
        LLVMValueRef above = bld_fcmp(L, LLVMRealOGT, sw, maxp);
        LLVMValueRef p = bld_select(L, below, minp, bld_select(L, above, maxp, sw));
        LLVMValueRef args[2];
        args[0] = bld_to_f64(L, sy);
        args[1] = bld_to_f64(L, p);
        LLVMValueRef pw = bld_to_f32(L, bld_intrin(L, "llvm.pow", args, 2));
        LLVMValueRef xpos = bld_fcmp(L, LLVMRealOGT, sx, zero);
        LLVMValueRef z = bld_select(L, LLVMBuildAnd(L->b, xpos, bld_fcmp(L, LLVMRealOGT, sy, zero), ""),
                                    pw, zero);
        return bld_gather(L, bld_f(L, 1.0f), bld_select(L, xpos, sx, zero), z, bld_f(L, 1.0f));
    }
    case ST_OP_POW: {
        /* |src0|^src1 in double (docs/interpreter.md); its special values
         * are what the d3d9 rule would make of exp2(src1 * log2|src0|) */
        LLVMValueRef x = read_scalar(L, ins, 0), y = read_scalar(L, ins, 1);
        LLVMValueRef args[2];
        args[0] = bld_fabs(L, bld_to_f64(L, x));
        args[1] = bld_to_f64(L, y);
        return bld_splat(L, bld_to_f32(L, bld_intrin(L, "llvm.pow", args, 2)));
    }
    case ST_OP_SINCOS: {
        LLVMValueRef x = read_scalar(L, ins, 0);
        LLVMValueRef c = bld_libm1(L, "llvm.cos", x), sn = bld_libm1(L, "llvm.sin", x);
        return bld_gather(L, c, sn, bld_f(L, 0.0f), bld_f(L, 0.0f));
    }
    default:
        not_supported(L, ins->loc, st_opinfo[ins->op].name);
        return NULL;
    }
}

/* texld* and texkill: in ps_1_x the dst register number is also the texture
 * stage and the t# whose coordinates are read. */
static LLVMValueRef lower_sample(struct lower *L, const struct st_instr *ins)
{
    const uint32_t didx = ins->dst.reg.index;
    switch (ins->op) {
    case ST_OP_TEXLD: case ST_OP_TEXLDP: case ST_OP_TEXLDB: case ST_OP_TEXLDL: case ST_OP_TEXLDD: {
        uint32_t stage;
        LLVMValueRef c;
        if (L->ps && L->ver < ST_VER(2, 0)) {
            stage = didx; /* ps_1_4: the stage is the dst register number */
            c = ins->nsrc > 0 ? read_src(L, ins, 0) : coords(L, didx);
        } else {
            c = read_src(L, ins, 0);
            stage = ins->nsrc > 1 ? ins->src[1].reg.index : 0;
        }
        if (ins->op == ST_OP_TEXLDP) {
            const int w[4] = {3, 3, 3, 3}, keep[4] = {0, 1, 2, 7};
            c = bld_shuffle(L, LLVMBuildFDiv(L->b, c, bld_shuffle(L, c, NULL, w), ""), c, keep);
        }
        return step(L, sample(L, stage, c)); /* texld_pp: a half texel */
    }
    case ST_OP_TEXKILL: {
        /* any of x, y, z below 0 (lanes the predicate lets through) */
        LLVMValueRef v = ins->dst.reg.file == ST_REG_TEXTURE ? coords(L, didx)
                                                            : load_reg(L, &ins->dst.reg);
        LLVMValueRef neg = bld_fcmp(L, LLVMRealOLT, v, bld_splatf(L, 0.0f));
        LLVMValueRef pred = instr_pred(L, ins);
        if (pred)
            neg = LLVMBuildAnd(L->b, neg, pred, "");
        LLVMValueRef nx = bld_lane(L, neg, 0), ny = bld_lane(L, neg, 1);
        LLVMValueRef nxy = LLVMBuildOr(L->b, nx, ny, "");
        LLVMValueRef nz = bld_lane(L, neg, 2);
        LLVMValueRef any = LLVMBuildOr(L->b, nxy, nz, "");
        set_status(L, any, ST_LL_STATUS_KILLED);
        return NULL;
    }
    default:
        not_supported(L, ins->loc, st_opinfo[ins->op].name);
        return NULL;
    }
}

/* The ps_1_x texture-address instructions: coordinates from the t#
 * interpolators, the dot products of texm*pad kept for the matrix's last row
 * in the pad slots. */
static LLVMValueRef lower_tex1x(struct lower *L, const struct st_instr *ins)
{
    const uint32_t didx = ins->dst.reg.index;
    switch (ins->op) {
    case ST_OP_TEX:
        return sample(L, didx, coords(L, didx));
    case ST_OP_TEXCOORD: {
        LLVMValueRef s = bld_saturate(L, coords(L, didx));
        const int keep[4] = {0, 1, 2, 7};
        return bld_shuffle(L, s, bld_splatf(L, 1.0f), keep);
    }
    case ST_OP_TEXBEM: case ST_OP_TEXBEML: {
        LLVMValueRef c = coords(L, didx), s = read_src(L, ins, 0);
        LLVMValueRef sx = bld_lane(L, s, 0), sy = bld_lane(L, s, 1);
        LLVMValueRef u = bld_add(L, bld_add(L, bld_lane(L, c, 0), scalar_mul(L, bumpenv(L, didx, 0), sx)),
                                 scalar_mul(L, bumpenv(L, didx, 2), sy));
        LLVMValueRef v = bld_add(L, bld_add(L, bld_lane(L, c, 1), scalar_mul(L, bumpenv(L, didx, 1), sx)),
                                 scalar_mul(L, bumpenv(L, didx, 3), sy));
        LLVMValueRef r = sample(L, didx, bld_gather(L, u, v, bld_f(L, 0.0f), bld_f(L, 1.0f)));
        if (ins->op == ST_OP_TEXBEML) {
            LLVMValueRef lum = bld_add(L, scalar_mul(L, bld_lane(L, s, 2), bumpenv(L, didx, 4)),
                                       bumpenv(L, didx, 5));
            r = bld_mul(L, r, bld_splat(L, lum));
        }
        return r;
    }
    case ST_OP_TEXREG2AR: case ST_OP_TEXREG2GB: case ST_OP_TEXREG2RGB: {
        LLVMValueRef s = read_src(L, ins, 0);
        static const int ar[4] = {3, 0, 4, 5}, gb[4] = {1, 2, 4, 5}, rgb[4] = {0, 1, 2, 5};
        const int *m = ins->op == ST_OP_TEXREG2AR ? ar : ins->op == ST_OP_TEXREG2GB ? gb : rgb;
        return sample(L, didx, bld_shuffle(L, s, bld_vec4f(L, 0.0f, 1.0f, 0.0f, 0.0f), m));
    }
    case ST_OP_TEXM3x2PAD: case ST_OP_TEXM3x3PAD:
        if (didx < 8)
            bld_store(L, coord_dot(L, ins), pad_ptr(L, didx), 0);
        return NULL;
    case ST_OP_TEXM3x2TEX: case ST_OP_TEXM3x2DEPTH: {
        LLVMValueRef u = pad_value(L, didx, 1);
        LLVMValueRef v = coord_dot(L, ins);
        if (ins->op == ST_OP_TEXM3x2DEPTH) {
            LLVMValueRef is0 = bld_fcmp(L, LLVMRealOEQ, v, bld_f(L, 0.0f));
            LLVMValueRef d = bld_select(L, is0, bld_f(L, 1.0f), LLVMBuildFDiv(L->b, u, v, ""));
            store_masked(L, ST_REG_DEPTHOUT, 0, 0x1, bld_splat(L, d), NULL, ins->loc);
            return NULL;
        }
        return sample(L, didx, bld_gather(L, u, v, bld_f(L, 0.0f), bld_f(L, 1.0f)));
    }
    case ST_OP_TEXM3x3TEX: case ST_OP_TEXM3x3: case ST_OP_TEXM3x3SPEC: case ST_OP_TEXM3x3VSPEC: {
        LLVMValueRef n0 = pad_value(L, didx, 2), n1 = pad_value(L, didx, 1);
        LLVMValueRef n2 = coord_dot(L, ins);
        LLVMValueRef n3 = bld_gather(L, n0, n1, n2, bld_f(L, 1.0f));
        if (ins->op == ST_OP_TEXM3x3)
            return n3;
        if (ins->op == ST_OP_TEXM3x3TEX)
            return sample(L, didx, n3);
        LLVMValueRef e;
        if (ins->op == ST_OP_TEXM3x3SPEC) {
            e = read_src(L, ins, 1);
        } else {
            LLVMValueRef e0 = didx >= 2 ? bld_lane(L, coords(L, didx - 2), 3) : bld_f(L, 0.0f);
            LLVMValueRef e1 = didx >= 1 ? bld_lane(L, coords(L, didx - 1), 3) : bld_f(L, 0.0f);
            e = bld_gather(L, e0, e1, bld_lane(L, coords(L, didx), 3), bld_f(L, 0.0f));
        }
        /* R = 2 * N * (N.E) / (N.N) - E */
        LLVMValueRef ne = dot(L, n3, e, 3), nn = dot(L, n3, n3, 3);
        LLVMValueRef rv[3];
        for (unsigned k = 0; k < 3; k++) {
            LLVMValueRef t = scalar_mul(L, LLVMBuildFMul(L->b, bld_f(L, 2.0f), bld_lane(L, n3, k), ""),
                                        ne);
            LLVMValueRef q = LLVMBuildFDiv(L->b, t, nn, "");
            rv[k] = bld_sub(L, q, bld_lane(L, e, k));
        }
        return sample(L, didx, bld_gather(L, rv[0], rv[1], rv[2], bld_f(L, 1.0f)));
    }
    case ST_OP_TEXDP3TEX: case ST_OP_TEXDP3: {
        LLVMValueRef u = coord_dot(L, ins);
        if (ins->op == ST_OP_TEXDP3)
            return bld_splat(L, u);
        return sample(L, didx, bld_gather(L, u, bld_f(L, 0.0f), bld_f(L, 0.0f), bld_f(L, 1.0f)));
    }
    case ST_OP_TEXDEPTH: {
        /* depth = r5.x / r5.y, 1.0 when r5.y is 0 */
        LLVMValueRef v = load_reg(L, &ins->dst.reg);
        LLVMValueRef y = bld_lane(L, v, 1);
        LLVMValueRef is0 = bld_fcmp(L, LLVMRealOEQ, y, bld_f(L, 0.0f));
        LLVMValueRef q = LLVMBuildFDiv(L->b, bld_lane(L, v, 0), y, "");
        LLVMValueRef d = bld_select(L, is0, bld_f(L, 1.0f), q);
        store_masked(L, ST_REG_DEPTHOUT, 0, 0x1, bld_splat(L, d), NULL, ins->loc);
        return NULL;
    }
    default:
        not_supported(L, ins->loc, st_opinfo[ins->op].name);
        return NULL;
    }
}

/*
 * Computes an instruction's result without writing it (co-issued pairs
 * read their sources before either writes).  Returns NULL for
 * instructions that write no register; *opmask gets the lanes the
 * operation defines.
 */
static LLVMValueRef compute(struct lower *L, const struct st_instr *ins, uint8_t *opmask)
{
    *opmask = op_mask(ins);
    if (L->vec) {
        if (L->ps1x) {
            bool writes = false;
            LLVMValueRef c = opaque_call(L, ins, &writes);
            if (c && (ins->op == ST_OP_TEXDEPTH || ins->op == ST_OP_TEXM3x2DEPTH)) {
                /* the depth it computes, in x, goes to oDepth */
                store_masked(L, ST_REG_DEPTHOUT, 0, 0x1, c, NULL, ins->loc);
                return NULL;
            }
            if (c) {
                *opmask = 0xf;
                return writes ? c : NULL;
            }
        }
        return vec_compute(L, ins);
    }
    switch (ins->op) {
    case ST_OP_MOV: case ST_OP_MOVA: case ST_OP_TEXCRD: case ST_OP_ADD: case ST_OP_SUB:
    case ST_OP_MUL: case ST_OP_MAD: case ST_OP_DP3: case ST_OP_DP4: case ST_OP_DP2ADD:
    case ST_OP_DST: case ST_OP_LRP: case ST_OP_FRC: case ST_OP_M4x4: case ST_OP_M4x3:
    case ST_OP_M3x4: case ST_OP_M3x3: case ST_OP_M3x2: case ST_OP_CRS: case ST_OP_ABS:
    case ST_OP_NRM: case ST_OP_BEM:
        return lower_arith(L, ins);
    case ST_OP_MIN: case ST_OP_MAX: case ST_OP_SLT: case ST_OP_SGE: case ST_OP_SGN: case ST_OP_CMP:
    case ST_OP_CND: case ST_OP_SETP:
        return lower_select(L, ins);
    case ST_OP_RCP: case ST_OP_RSQ: case ST_OP_EXP: case ST_OP_LOG: case ST_OP_EXPP:
    case ST_OP_LOGP: case ST_OP_LIT: case ST_OP_POW: case ST_OP_SINCOS:
        return lower_math(L, ins);
    case ST_OP_TEXLD: case ST_OP_TEXLDP: case ST_OP_TEXLDB: case ST_OP_TEXLDL: case ST_OP_TEXLDD:
    case ST_OP_TEXKILL:
        return lower_sample(L, ins);
    case ST_OP_TEX: case ST_OP_TEXCOORD: case ST_OP_TEXBEM: case ST_OP_TEXBEML:
    case ST_OP_TEXREG2AR: case ST_OP_TEXREG2GB: case ST_OP_TEXREG2RGB: case ST_OP_TEXM3x2PAD:
    case ST_OP_TEXM3x3PAD: case ST_OP_TEXM3x2TEX: case ST_OP_TEXM3x2DEPTH: case ST_OP_TEXM3x3TEX:
    case ST_OP_TEXM3x3: case ST_OP_TEXM3x3SPEC: case ST_OP_TEXM3x3VSPEC: case ST_OP_TEXDP3TEX:
    case ST_OP_TEXDP3: case ST_OP_TEXDEPTH:
        return lower_tex1x(L, ins);
    case ST_OP_NOP: case ST_OP_PHASE:
        return NULL;
    default:
        if (L->arb && (st_opinfo[ins->op].flags & OPF_ARB))
            return arb_compute(L, ins);
        not_supported(L, ins->loc, st_opinfo[ins->op].name);
        return NULL;
    }
}

/* A _pp instruction under --pp=fp16: it computes in half. */
static bool is_half_instr(const struct lower *L, const struct st_instr *ins)
{
    return L->sh->pp_half && (ins->dstmod & ST_DSTMOD_PP) && !L->arb;
}

/* One instruction (and its co-issued partner). */
static void lower_alu(struct lower *L, const struct st_instr *ins, const struct st_instr *partner)
{
    uint8_t m1 = 0, m2 = 0;
    /* a co-issued pair is ps_1_x, which has no _pp */
    L->hcur = is_half_instr(L, ins);
    LLVMValueRef r1 = compute(L, ins, &m1);
    LLVMValueRef r2 = partner ? compute(L, partner, &m2) : NULL;
    if (r1 && ins->has_dst)
        write_dst(L, ins, r1, m1);
    if (r2 && partner->has_dst)
        write_dst(L, partner, r2, m2);
    L->hcur = false;
}

/* Byte offset field of the lane state header as a pointer. */
static LLVMValueRef lane_field(struct lower *L, unsigned offset)
{
    LLVMValueRef idx = bld_i(L, (int32_t)offset);
    return LLVMBuildGEP2(L->b, LLVMInt8TypeInContext(L->c), L->arg_lane, &idx, 1, "");
}

static unsigned instr_index(const struct st_shader *sh, const struct st_instr *ins)
{
    unsigned n = 0;
    for (const struct st_instr *i = sh->first; i && i != ins; i = i->next)
        n++;
    return n;
}

/*
 * dsx/dsy.  A vertex shader has no neighbours: 0.  A pixel shader stops
 * here (returns from st_main with its registers in the lane state and the
 * source value in the header); the caller computes the derivative across
 * the quad like the interpreter and resumes us with it.
 */
static void lower_deriv_steps(struct lower *L, const struct st_instr *ins)
{
    if (!L->ps) {
        write_dst(L, ins, bld_splatf(L, 0.0f), 0xf);
        return;
    }
    if (L->vec) {
        LLVMValueRef v = read_src(L, ins, 0);
        const char *name = ins->op == ST_OP_DSX ? (L->hcur ? "st.dsx.f16" : "st.dsx")
                                                : (L->hcur ? "st.dsy.f16" : "st.dsy");
        write_dst(L, ins, mk_call(L, name, LLVMTypeOf(v), &v, 1, MK_PURE | MK_CONVERGENT), 0xf);
        return;
    }
    if (L->nyields == L->cap_yields) {
        unsigned cap = L->cap_yields ? L->cap_yields * 2 : 8;
        struct yield *y = realloc(L->yields, cap * sizeof(*y));
        if (!y) {
            st_error(L->ctx, ins->loc, ST_E_OUT_OF_MEMORY, "out of memory");
            L->failed = true;
            return;
        }
        L->yields = y;
        L->cap_yields = cap;
    }
    struct yield *y = &L->yields[L->nyields++];
    y->pc = instr_index(L->sh, ins);
    y->stop = bld_block(L, "stop");
    y->reload = bld_block(L, "resume");
    y->cont = bld_block(L, "deriv");
    LLVMValueRef v = read_src(L, ins, 0);
    bld_store(L, v, lane_field(L, offsetof(struct st_ll_lane_header, src)), 4);
    bld_br_to(L, y->stop, y->cont);
    LLVMValueRef d = bld_load(L, L->v4f, lane_field(L, offsetof(struct st_ll_lane_header, deriv)), 4);
    /* the caller's difference of two halves, rounded as the step of a _pp dsx */
    write_dst(L, ins, step(L, d), 0xf);
}

static void lower_deriv(struct lower *L, const struct st_instr *ins)
{
    L->hcur = is_half_instr(L, ins);
    lower_deriv_steps(L, ins);
    L->hcur = false;
}

/*
 * Fills the stop and resume blocks once every alloca is known: a stop
 * saves each alloca into the lane state (16 bytes each after the header)
 * and returns; a resume loads them back.  The entry block dispatches on
 * the header's resume field.
 */
static void build_lanes(struct lower *L)
{
    if (!L->nyields)
        return;
    enum { MAX_ALLOCAS = 4096 };
    LLVMValueRef *allocas = malloc(MAX_ALLOCAS * sizeof(*allocas));
    if (!allocas) {
        st_error(L->ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        L->failed = true;
        return;
    }
    unsigned n = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(L->entry); i; i = LLVMGetNextInstruction(i))
        if (LLVMGetInstructionOpcode(i) == LLVMAlloca) {
            if (n == MAX_ALLOCAS) {
                not_supported(L, L->sh->version.loc, "a shader with this many registers and loops "
                                                     "around dsx/dsy");
                free(allocas);
                return;
            }
            allocas[n++] = i;
        }
    const unsigned hdr = (unsigned)sizeof(struct st_ll_lane_header);
    for (unsigned k = 0; k < L->nyields; k++) {
        struct yield *y = &L->yields[k];
        LLVMPositionBuilderAtEnd(L->b, y->stop);
        for (unsigned a = 0; a < n; a++) {
            LLVMTypeRef ty = LLVMGetAllocatedType(allocas[a]);
            bld_store(L, bld_load(L, ty, allocas[a], 0), lane_field(L, hdr + 16 * a), 4);
        }
        bld_store(L, bld_i(L, (int32_t)k + 1), lane_field(L, offsetof(struct st_ll_lane_header, resume)), 4);
        bld_store(L, bld_i(L, (int32_t)y->pc), lane_field(L, offsetof(struct st_ll_lane_header, pc)), 4);
        LLVMBuildRetVoid(L->b);
        LLVMPositionBuilderAtEnd(L->b, y->reload);
        for (unsigned a = 0; a < n; a++) {
            LLVMTypeRef ty = LLVMGetAllocatedType(allocas[a]);
            bld_store(L, bld_load(L, ty, lane_field(L, hdr + 16 * a), 4), allocas[a], 0);
        }
        LLVMBuildBr(L->b, y->cont);
    }
    LLVMValueRef term = LLVMGetBasicBlockTerminator(L->entry);
    LLVMInstructionEraseFromParent(term);
    LLVMPositionBuilderAtEnd(L->b, L->entry);
    LLVMValueRef resume = bld_load(L, L->i32, lane_field(L, offsetof(struct st_ll_lane_header, resume)), 4);
    LLVMValueRef sw = LLVMBuildSwitch(L->b, resume, L->body, L->nyields);
    for (unsigned k = 0; k < L->nyields; k++)
        LLVMAddCase(sw, bld_i(L, (int32_t)k + 1), L->yields[k].reload);
    char num[16];
    snprintf(num, sizeof(num), "%u", hdr + 16 * n);
    LLVMAddAttributeAtIndex(L->fn, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(L->c, "st-lane-state-bytes", 19, num,
                                                      (unsigned)strlen(num)));
    free(allocas);
}

/* ------------------------------------------------------------------ */
/* Control flow.                                                       */

static struct frame *push_frame(struct lower *L, enum frame_kind k, struct st_loc loc)
{
    if (L->nflow >= MAX_FLOW) {
        not_supported(L, loc, "flow control nested this deep");
        return NULL;
    }
    struct frame *f = &L->flow[L->nflow++];
    memset(f, 0, sizeof(*f));
    f->kind = k;
    return f;
}

static struct frame *top_frame(struct lower *L, enum frame_kind k)
{
    return L->nflow && L->flow[L->nflow - 1].kind == k ? &L->flow[L->nflow - 1] : NULL;
}

/* The innermost loop/rep of the current function body. */
static struct frame *inner_loop(struct lower *L)
{
    for (unsigned k = L->nflow; k-- > 0;) {
        if (L->flow[k].kind == FR_LOOP || L->flow[k].kind == FR_REP)
            return &L->flow[k];
        if (L->flow[k].kind == FR_CALL)
            return NULL;
    }
    return NULL;
}

/* Branch condition of a flow instruction that may also be predicated. */
static LLVMValueRef with_pred_lane0(struct lower *L, const struct st_instr *ins, LLVMValueRef c)
{
    if (!ins->predicated)
        return c;
    return LLVMBuildAnd(L->b, c, bld_lane(L, read_pred(L, &ins->pred), 0), "");
}

static void begin_if(struct lower *L, const struct st_instr *ins, LLVMValueRef cond)
{
    struct frame *f = push_frame(L, FR_IF, ins->loc);
    if (!f)
        return;
    LLVMBasicBlockRef then_bb = bld_block(L, "then");
    f->else_bb = bld_block(L, "else");
    f->end_bb = bld_block(L, "endif");
    if (block_open(L))
        LLVMBuildCondBr(L->b, cond, then_bb, f->else_bb);
    LLVMPositionBuilderAtEnd(L->b, then_bb);
    L->cond_depth++;
}

static void begin_loop(struct lower *L, const struct st_instr *ins)
{
    bool is_loop = ins->op == ST_OP_LOOP;
    const struct st_src *is = &ins->src[is_loop ? 1 : 0];
    struct frame *f = push_frame(L, is_loop ? FR_LOOP : FR_REP, ins->loc);
    if (!f)
        return;
    LLVMValueRef iv = is->reg.file == ST_REG_CONSTINT ? int_const(L, is->reg.index)
                                                      : LLVMConstNull(L->v4i);
    /* the count is i#.x clamped to 0..255 */
    LLVMValueRef n = bld_lane(L, iv, 0);
    n = bld_select(L, LLVMBuildICmp(L->b, LLVMIntSLT, n, bld_i(L, 0), ""), bld_i(L, 0), n);
    n = bld_select(L, LLVMBuildICmp(L->b, LLVMIntSGT, n, bld_i(L, 255), ""), bld_i(L, 255), n);
    unsigned at = L->nflow - 1;
    if (!L->counter_at[at])
        L->counter_at[at] = bld_alloca(L, L->i32, "loop.count");
    f->counter = L->counter_at[at];
    bld_store(L, n, f->counter, 0);
    if (is_loop) {
        if (!L->al_at[at])
            L->al_at[at] = bld_alloca(L, L->i32, "aL");
        f->al = L->al_at[at];
        bld_store(L, bld_lane(L, iv, 1), f->al, 0);
        f->step = bld_lane(L, iv, 2);
        /* A defi wins over the run inputs (run_io.c apply_defs), so its
         * values are the loop's whatever the inputs JSON says.  A count of
         * 0 never runs the body: left unknown, nothing to narrow. */
        uint32_t ix = is->reg.index;
        if (is->reg.file == ST_REG_CONSTINT && ix < ST_LL_NUM_ICONSTS && L->has_defi[ix]) {
            const int32_t *d = L->def_i[ix];
            int32_t cnt = d[0] < 0 ? 0 : d[0] > 255 ? 255 : d[0];
            f->al_known = cnt > 0;
            f->al_start = (uint32_t)d[1];
            f->al_step = (uint32_t)d[2];
            f->al_count = (uint32_t)cnt;
        }
    }
    f->header = bld_block(L, is_loop ? "loop" : "rep");
    f->exit = bld_block(L, is_loop ? "endloop" : "endrep");
    LLVMBasicBlockRef body = bld_block(L, "body");
    bld_br_to(L, f->header, f->header);
    LLVMValueRef left = bld_load(L, L->i32, f->counter, 0);
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSGT, left, bld_i(L, 0), ""), body, f->exit);
    LLVMPositionBuilderAtEnd(L->b, body);
    L->cond_depth++;
}

static void end_loop(struct lower *L, const struct st_instr *ins)
{
    struct frame *f = top_frame(L, ins->op == ST_OP_ENDLOOP ? FR_LOOP : FR_REP);
    if (!f) {
        not_supported(L, ins->loc, "this loop nesting");
        return;
    }
    if (block_open(L)) {
        LLVMValueRef n = bld_load(L, L->i32, f->counter, 0);
        bld_store(L, LLVMBuildSub(L->b, n, bld_i(L, 1), ""), f->counter, 0);
        if (f->kind == FR_LOOP) {
            /* wraps like the interpreter's uint32 add */
            LLVMValueRef a = bld_load(L, L->i32, f->al, 0);
            bld_store(L, LLVMBuildAdd(L->b, a, f->step, ""), f->al, 0);
        }
    }
    bld_br_to(L, f->header, f->exit);
    L->nflow--;
    L->cond_depth--;
}

static void lower_range(struct lower *L, const struct st_instr *ins, bool is_main);

static void lower_call(struct lower *L, const struct st_instr *ins)
{
    const struct st_instr *lab = find_label(L->sh, ins->src[0].reg.index);
    if (!lab)
        return; /* the interpreter skips calls to missing labels */
    if (L->call_depth >= MAX_CALL_DEPTH) {
        not_supported(L, ins->loc, "calls nested this deep (or recursion)");
        return;
    }
    LLVMBasicBlockRef skip = NULL;
    bool cond = ins->op == ST_OP_CALLNZ || ins->predicated;
    if (cond) {
        LLVMValueRef c = ins->op == ST_OP_CALLNZ ? cond_src(L, ins, 1) : LLVMConstInt(L->i1, 1, 0);
        c = with_pred_lane0(L, ins, c);
        LLVMBasicBlockRef callbb = bld_block(L, "call");
        skip = bld_block(L, "aftercall");
        if (block_open(L))
            LLVMBuildCondBr(L->b, c, callbb, skip);
        LLVMPositionBuilderAtEnd(L->b, callbb);
        L->cond_depth++;
    }
    struct frame *f = push_frame(L, FR_CALL, ins->loc);
    if (!f)
        return;
    f->exit = skip ? skip : bld_block(L, "ret");
    L->call_depth++;
    unsigned base = L->nflow;
    lower_range(L, lab->next, false);
    L->call_depth--;
    if (!L->failed && L->nflow != base)
        not_supported(L, lab->loc, "flow control left open at the end of a subroutine");
    L->nflow = base;
    bld_br_to(L, f->exit, f->exit);
    L->nflow--;
    if (cond)
        L->cond_depth--;
}

static void lower_ret(struct lower *L, bool is_main)
{
    LLVMBasicBlockRef target = is_main ? L->exit : NULL;
    if (!is_main)
        for (unsigned k = L->nflow; k-- > 0;)
            if (L->flow[k].kind == FR_CALL) {
                target = L->flow[k].exit;
                break;
            }
    if (target)
        bld_br_to(L, target, bld_block(L, "dead"));
}

static void lower_flow(struct lower *L, const struct st_instr *ins, bool is_main)
{
    switch (ins->op) {
    case ST_OP_IF:
        begin_if(L, ins, cond_src(L, ins, 0));
        break;
    case ST_OP_IFC:
        begin_if(L, ins, cond_compare(L, ins));
        break;
    case ST_OP_ELSE: {
        struct frame *f = top_frame(L, FR_IF);
        if (!f || f->has_else) {
            not_supported(L, ins->loc, "this else");
            return;
        }
        f->has_else = true;
        bld_br_to(L, f->end_bb, f->else_bb);
        break;
    }
    case ST_OP_ENDIF: {
        struct frame *f = top_frame(L, FR_IF);
        if (!f) {
            not_supported(L, ins->loc, "this endif");
            return;
        }
        if (f->has_else) {
            bld_br_to(L, f->end_bb, f->end_bb);
        } else {
            bld_br_to(L, f->end_bb, f->else_bb);
            bld_br_to(L, f->end_bb, f->end_bb);
        }
        L->nflow--;
        L->cond_depth--;
        break;
    }
    case ST_OP_LOOP: case ST_OP_REP:
        begin_loop(L, ins);
        break;
    case ST_OP_ENDLOOP: case ST_OP_ENDREP:
        end_loop(L, ins);
        break;
    case ST_OP_BREAK: case ST_OP_BREAKC: case ST_OP_BREAKP: {
        struct frame *f = inner_loop(L);
        if (!f)
            return; /* no enclosing loop: nothing to leave */
        /* like the interpreter, a predicate on break* is not consulted */
        if (ins->op == ST_OP_BREAK) {
            bld_br_to(L, f->exit, bld_block(L, "dead"));
            return;
        }
        LLVMValueRef c = ins->op == ST_OP_BREAKC ? cond_compare(L, ins) : cond_src(L, ins, 0);
        LLVMBasicBlockRef cont = bld_block(L, "cont");
        if (block_open(L))
            LLVMBuildCondBr(L->b, c, f->exit, cont);
        LLVMPositionBuilderAtEnd(L->b, cont);
        break;
    }
    case ST_OP_CALL: case ST_OP_CALLNZ:
        lower_call(L, ins);
        break;
    case ST_OP_RET:
        lower_ret(L, is_main);
        break;
    default:
        not_supported(L, ins->loc, st_opinfo[ins->op].name);
    }
}

/* Lowers instructions up to the next label (or the end). */
static void lower_range(struct lower *L, const struct st_instr *ins, bool is_main)
{
    for (; ins && ins->op != ST_OP_LABEL && !L->failed; ins = ins->next) {
        const struct st_opinfo *oi = &st_opinfo[ins->op];
        if (oi->flags & OPF_DECL)
            continue;
        if (!st_poll_at(L->ctx, ins->loc, 1)) { /* compile budget, cancel */
            L->failed = true;
            return;
        }
        if (++L->lowered > MAX_LOWERED) {
            not_supported(L, ins->loc, "a shader this large once its calls are inlined");
            return;
        }
        if (oi->flags & OPF_FLOW) {
            lower_flow(L, ins, is_main);
            continue;
        }
        if (ins->op == ST_OP_DSX || ins->op == ST_OP_DSY) {
            lower_deriv(L, ins);
            continue;
        }
        const struct st_instr *partner = NULL;
        if (ins->next && ins->next->coissue && !(st_opinfo[ins->next->op].flags & OPF_FLOW))
            partner = ins->next;
        lower_alu(L, ins, partner);
        if (partner)
            ins = partner;
    }
}

/* ------------------------------------------------------------------ */
/* The function.                                                       */

static void store_output(struct lower *L, int slot, LLVMValueRef v)
{
    bld_store(L, v, bld_vec_ptr(L, L->arg_out, bld_i(L, slot)), 4);
}

/* The exit block: the written outputs and the status word go out. */
static void build_exit(struct lower *L)
{
    LLVMPositionBuilderAtEnd(L->b, L->exit);
    for (uint32_t i = 0; L->arb && i < ST_LL_OUT_SLOTS; i++)
        if (L->regs[ST_REG_OUTPUT][i].written) /* ARB: output slot = index */
            store_output(L, (int)i, bld_load(L, L->v4f, reg_ptr(L, ST_REG_OUTPUT, i,
                                                                (struct st_loc){0, 0}), 0));
    for (int f = 0; f < ST_REG_COUNT && !L->arb; f++)
        for (uint32_t i = 0; i < MAX_REG_INDEX; i++) {
            int slot = st_run_out_slot((enum st_regfile)f, i);
            if (slot < 0 || !L->regs[f][i].written || L->rel_out[f])
                continue; /* rel_out: the st.ostore markers wrote it */
            LLVMValueRef p = reg_ptr(L, (enum st_regfile)f, i, (struct st_loc){0, 0});
            store_output(L, slot, bld_load(L, L->v4f, p, 0));
        }
    if (L->ps1x) {
        /* ps_1_x: the color is r0 at the end */
        LLVMValueRef p = reg_ptr(L, ST_REG_TEMP, 0, (struct st_loc){0, 0});
        store_output(L, ST_LL_OUT_C, bld_load(L, L->v4f, p, 0));
    }
    if (!L->vec)
        bld_store(L, bld_load(L, L->i32, L->status, 0), L->arg_status, 4);
    if (L->nyields)
        bld_store(L, bld_i(L, ST_LL_DONE),
                  lane_field(L, offsetof(struct st_ll_lane_header, resume)), 4);
    LLVMBuildRetVoid(L->b);
}

static void add_fn_attr(struct lower *L, const char *k, const char *v)
{
    LLVMAttributeRef a = LLVMCreateStringAttribute(L->c, k, (unsigned)strlen(k), v,
                                                   (unsigned)strlen(v));
    LLVMAddAttributeAtIndex(L->fn, LLVMAttributeFunctionIndex, a);
}

static void add_enum_attr(struct lower *L, unsigned idx, const char *name)
{
    unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
    LLVMAddAttributeAtIndex(L->fn, idx, LLVMCreateEnumAttribute(L->c, kind, 0));
}

enum { NUM_ARGS = 9 };

static void build_function(struct lower *L)
{
    const struct st_shader *sh = L->sh;
    LLVMTypeRef params[NUM_ARGS];
    for (unsigned k = 0; k < NUM_ARGS; k++)
        params[k] = L->ptr;
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(L->c), params, NUM_ARGS, 0);
    L->fn = LLVMAddFunction(L->m, "st_main", fty);
    static const char *const pnames[NUM_ARGS] = {"in", "out", "c", "i", "b", "status", "bump", "tex",
                                                       "lane"};
    for (unsigned k = 0; k < NUM_ARGS; k++) {
        LLVMValueRef p = LLVMGetParam(L->fn, k);
        LLVMSetValueName2(p, pnames[k], strlen(pnames[k]));
        if (k == 7)
            continue; /* tex: opaque, handed to the sampling callback */
        if (k == 8) {
            add_enum_attr(L, k + 1, "noalias");
            continue; /* lane: read and written across stops */
        }
        add_enum_attr(L, k + 1, "noalias");
        add_enum_attr(L, k + 1, "nocapture");
        if (k != 1 && k != 5)
            add_enum_attr(L, k + 1, "readonly");
    }
    /* the marker form is the same for both rules: the targets apply them */
    add_fn_attr(L, "st-float-rules", L->vec ? "any" : L->rules == ST_FLOAT_D3D9 ? "d3d9" : "ieee");
    add_fn_attr(L, "st-dialect", L->arb ? "arb" : "d3d9");
    char ver[16];
    snprintf(ver, sizeof(ver), "%u", (unsigned)sh->version.ver);
    add_fn_attr(L, "st-version", ver);
    unsigned n = 0;
    for (const struct st_instr *i = sh->first; i; i = i->next)
        if (!(st_opinfo[i->op].flags & OPF_DECL))
            n++;
    char num[16];
    snprintf(num, sizeof(num), "%u", n);
    add_fn_attr(L, "st-instructions", num);
    add_enum_attr(L, LLVMAttributeFunctionIndex, "nounwind");

    L->arg_in = LLVMGetParam(L->fn, 0);
    L->arg_out = LLVMGetParam(L->fn, 1);
    L->arg_c = LLVMGetParam(L->fn, 2);
    L->arg_i = LLVMGetParam(L->fn, 3);
    L->arg_b = LLVMGetParam(L->fn, 4);
    L->arg_status = LLVMGetParam(L->fn, 5);
    L->arg_bump = LLVMGetParam(L->fn, 6);
    L->arg_tex = LLVMGetParam(L->fn, 7);
    L->arg_lane = LLVMGetParam(L->fn, 8);
}

struct LLVMOpaqueModule *st_lower_llvm(struct st_ctx *ctx, const struct st_shader *sh,
                                       enum st_float_rules rules, struct LLVMOpaqueContext *llctx)
{
    return st_lower_llvm_ex(ctx, sh, rules, 0, llctx);
}

struct LLVMOpaqueModule *st_lower_llvm_ex(struct st_ctx *ctx, const struct st_shader *sh,
                                          enum st_float_rules rules, unsigned flags,
                                          struct LLVMOpaqueContext *llctx)
{
    if (!sh || !llctx)
        return NULL;
    struct lower *L = calloc(1, sizeof(*L));
    if (!L) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    L->ctx = ctx;
    L->sh = sh;
    L->rules = rules;
    L->c = llctx;
    L->ps = sh->version.type == ST_PS;
    L->ver = sh->version.ver;
    L->ps1x = L->ps && L->ver < ST_VER(2, 0);
    L->arb = sh->dialect == ST_ARB;
    L->vec = (flags & ST_LOWER_VECTOR) != 0;
    for (unsigned k = 0; k < 16; k++)
        L->tex_dims[k] = 3; /* a sampler of unknown type may be a cube */
    for (const struct st_instr *i = sh->first; i; i = i->next)
        if (i->op == ST_OP_DCL && i->dst.reg.file == ST_REG_SAMPLER && i->dst.reg.index < 16 &&
            i->sampler_type == ST_SAMPLER_2D)
            L->tex_dims[i->dst.reg.index] = 2;
    if (L->arb && !sh->arb) {
        not_supported(L, sh->version.loc, "an ARB program without tables");
        free(L);
        return NULL;
    }
    if (L->arb) {
        L->ps1x = false;
        struct st_arb_run_slots slots;
        st_arb_run_slots(sh, &slots);
        if (slots.num_c > ST_LL_MAX_ARB_CONSTS || sh->arb->num_inputs + 2 > ST_LL_IN_SLOTS ||
            sh->arb->num_outputs + 1 > ST_LL_OUT_SLOTS) {
            /* c[] of the ABI holds the program's num_c slots (docs/llvm-abi.md) */
            not_supported(L, sh->arb->end_loc, "an ARB program with more than 65536 parameter slots");
            free(L);
            return NULL;
        }
    }
    if (L->ps1x)
        L->regs[ST_REG_TEMP][0].written = true; /* the color of ps_1_x */
    prescan(L);

    L->f32 = LLVMFloatTypeInContext(L->c);
    L->i32 = LLVMInt32TypeInContext(L->c);
    L->i1 = LLVMInt1TypeInContext(L->c);
    L->v4f = LLVMVectorType(L->f32, 4);
    L->v4i = LLVMVectorType(L->i32, 4);
    L->v4b = LLVMVectorType(L->i1, 4);
    L->f16 = LLVMHalfTypeInContext(L->c);
    L->v4h = LLVMVectorType(L->f16, 4);
    L->ptr = LLVMPointerTypeInContext(L->c, 0);

    const char *fname = st_ctx_filename(ctx);
    L->m = LLVMModuleCreateWithNameInContext(fname ? fname : "shader", L->c);
    build_function(L);

    L->b = LLVMCreateBuilderInContext(L->c);
    L->entry = bld_block(L, "entry");
    L->body = bld_block(L, "main");
    L->exit = bld_block(L, "exit");
    LLVMPositionBuilderAtEnd(L->b, L->entry);
    L->status = LLVMBuildAlloca(L->b, L->i32, "status");
    LLVMBuildStore(L->b, bld_i(L, 0), L->status);
    LLVMBuildBr(L->b, L->body);
    LLVMPositionBuilderAtEnd(L->b, L->body);

    lower_range(L, sh->first, true);
    if (!L->failed && L->nflow)
        not_supported(L, sh->last ? sh->last->loc : sh->version.loc, "unterminated flow control");
    if (block_open(L))
        LLVMBuildBr(L->b, L->exit);
    build_exit(L);
    if (!L->failed)
        build_lanes(L);

    LLVMDisposeBuilder(L->b);
    free(L->yields);
    LLVMModuleRef m = L->m;
    bool failed = L->failed;
    free(L);
    if (failed) {
        LLVMDisposeModule(m);
        return NULL;
    }
    return m;
}
