/* requires: st_lower_llvm's module after mem2reg,instsimplify,dce (docs/merge.md), CFG as lowered.
 * invalidates: nothing in the module; builds a new MIR program. */
/*
 * select.c — LLVM IR back to the vector machine IR (mir.h).
 *
 * Three steps over st_main:
 *  1. lane demand: which lanes of every vector value anybody reads;
 *  2. need: from the roots (output stores, texture samples, branches)
 *     down through the patterns below, which values must exist as
 *     registers.  A value inside a pattern (the fmul of a dp3, the fdiv
 *     of an rcp) is not needed unless something else reads it;
 *  3. emission in program order over the structured CFG (if/else are
 *     recovered from the branches, phis become copies on the edges).
 *
 * Views cost no instruction: a shufflevector of one value, extractelement,
 * a splat, fneg (and fabs in the 3_0 models) become the swizzle and the
 * modifier of the source that reads them.  A shufflevector taking lanes
 * from two values (or insertelement into a live vector) is a MIR_OP_MERGE.
 * Everything else is matched to one D3D9 instruction of the shader's
 * version, or reported as ST_E_NOT_SUPPORTED: never a different program.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "merge.h"
#include "mir.h"

/* ------------------------------------------------------------------ */
/* MIR building.                                                       */

struct mir_instr *mir_append(struct mir_prog *p)
{
    if (p->n == p->cap) {
        unsigned cap = p->cap ? p->cap * 2 : 64;
        struct mir_instr *ni = realloc(p->ins, sizeof(*ni) * cap);
        if (!ni) {
            p->oom = true;
            return NULL;
        }
        p->ins = ni;
        p->cap = cap;
    }
    struct mir_instr *in = &p->ins[p->n++];
    memset(in, 0, sizeof(*in));
    return in;
}

uint32_t mir_new_vreg(struct mir_prog *p)
{
    return p->nvregs++;
}

void mir_free(struct mir_prog *p)
{
    free(p->ins);
    free(p->defs);
    free(p->phys);
    memset(p, 0, sizeof(*p));
}

struct mir_src mir_src_vreg(uint32_t v, uint8_t swz)
{
    struct mir_src s = {.kind = MIR_VREG, .swz = swz, .vreg = v};
    return s;
}

struct mir_src mir_src_fixed(enum st_regfile f, uint32_t index, uint8_t swz)
{
    struct mir_src s = {.kind = MIR_FIXED, .swz = swz, .file = f, .index = index, .vreg = MIR_NONE};
    return s;
}

/* ------------------------------------------------------------------ */
/* Per-value information, in a hash map keyed by the LLVM value.        */

enum vkind {
    VK_UNSET,
    VK_VIEW,   /* no instruction: a swizzle/modifier of another operand */
    VK_ALU,    /* one instruction (pattern below) */
    VK_MERGE,
    VK_PHI,
    VK_TEXEL,  /* load of the sampling result */
    VK_MOVA,   /* the a0 conversion of mova: written to a0 where it stands */
    VK_A0PHI,  /* a phi of a0: a0 as it stands (no instruction) */
    VK_KILL,   /* the status update of texkill: a texkill where it stands */
    VK_SETP,   /* a vector fcmp some predicate reads: setp p0 where it stands */
    VK_PSEL,   /* select on a predicate: a copy, then a predicated write */
    VK_OPAQUE, /* @st_opaque: a ps_1_x texture instruction printed as written */
    VK_MODVIEW, /* ps_1_x source modifier arithmetic (_bias, _bx2, 1-x, _x2) */
    VK_OPQVIEW, /* the shift/_sat of an @st_opaque result: printed with it */
    VK_OTHER,  /* not expressible (reported when needed) */
};

struct vinfo {
    LLVMValueRef v;
    uint8_t demand; /* lanes read; scalars: bit 0 */
    uint8_t home;   /* scalar defs: the lane they are computed in */
    uint8_t kind;
    bool needed, have_op, needing, mark;
    uint8_t plan; /* VK_SETP: the lanes of p0 it writes */
    struct mir_src op;
};

enum pat_kind { P_NONE, P_ALU };
struct pat {
    unsigned op;
    int32_t imm[2]; /* ARB marker calls: SWZ selectors and negations, TEX unit and target */
    bool sat;
    int8_t shift; /* ps_1_x destination shift */
    unsigned n;
    LLVMValueRef leaf[4];
    bool scalar_src[4]; /* leaf is a scalar */
};

struct sel {
    struct st_ctx *ctx;
    const struct st_shader *sh;
    struct mir_prog *p;
    struct st_merge_stats *stats;
    bool failed;
    LLVMValueRef fn, arg_in, arg_out, arg_c, arg_i, arg_b, arg_status, texel;
    struct vinfo *tab;
    size_t cap;
    uint16_t ver;
    bool ps, v3, ps1x;
    bool arb;            /* an ARB program (docs/merge.md, "ARB programs") */
    uint32_t arb_next_c; /* ARB: the next new parameter slot for a literal */
    struct mir_src last_texel;
    bool have_texel;
    /* output slot -> register, from the shader's own writes */
    bool out_known[ST_LL_OUT_SLOTS];
    enum st_regfile out_file[ST_LL_OUT_SLOTS];
    uint32_t out_index[ST_LL_OUT_SLOTS];
    bool c_used[256];
    bool has_rel_c;
    bool i_used[16];
    unsigned max_c;
    /* loops being walked, innermost last */
    struct sel_loop {
        LLVMBasicBlockRef header, exit;
        LLVMValueRef al; /* the aL phi (loop), or NULL (rep) */
    } loops[8];
    unsigned nloops;
    /* nesting depth of the emission point */
    unsigned depth;
    /* a0: which mova (fptosi) each lane holds at the current emission
     * point, and the nesting depth it was written at (a lane written inside
     * a construct is unknown once the construct closes or its else starts) */
    LLVMValueRef astate[4];
    unsigned adepth[4];
    /* ps_1_4: the MIR index of the phase marker (MIR_NONE before it) */
    unsigned phase_at;
    /* constants with an infinite or NaN lane (no def or literal states
     * them): computed into vregs by a prologue (nonfinite_prologue) */
    struct sel_nonfinite {
        float f[4];
        uint8_t lanes;
        uint32_t vreg;
    } nf[16];
    unsigned nnf;
    /* blocks */
    LLVMBasicBlockRef *bbs;
    unsigned nbb;
    uint8_t *visited;
    uint64_t *pdom; /* nbb x words */
    unsigned words;
    /* handed out by emit() once memory ran out, so callers can keep filling
     * fields (per selection: the library has no globals) */
    struct mir_instr oom_scratch;
};

static void fail(struct sel *S, const char *fmt, const char *what)
{
    if (!S->failed)
        st_error(S->ctx, S->sh->version.loc, ST_E_NOT_SUPPORTED,
                 fmt, what ? what : "");
    S->failed = true;
}

static struct vinfo *vi(struct sel *S, LLVMValueRef v)
{
    size_t h = ((uintptr_t)v >> 4) * 2654435761u;
    for (size_t k = 0;; k++) {
        struct vinfo *e = &S->tab[(h + k) & (S->cap - 1)];
        if (e->v == v)
            return e;
        if (!e->v) {
            e->v = v;
            return e;
        }
    }
}

static bool is_inst(LLVMValueRef v)
{
    return v && LLVMIsAInstruction(v) != NULL;
}

static unsigned opc(LLVMValueRef v)
{
    return is_inst(v) ? (unsigned)LLVMGetInstructionOpcode(v) : 0;
}

static bool is_vec(LLVMValueRef v)
{
    return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind;
}

static bool is_poison(LLVMValueRef v)
{
    return LLVMIsPoison(v) || LLVMIsUndef(v);
}

static bool const_int(LLVMValueRef v, long long *out)
{
    if (!v || !LLVMIsAConstantInt(v))
        return false;
    *out = LLVMConstIntGetSExtValue(v);
    return true;
}

/* Lane l of a float constant (scalar or vector); false when poison/undef. */
static bool const_lane(LLVMValueRef c, unsigned l, double *out)
{
    if (is_poison(c))
        return false;
    if (LLVMIsAConstantFP(c)) {
        LLVMBool lost;
        *out = LLVMConstRealGetDouble(c, &lost);
        return true;
    }
    if (!is_vec(c))
        return false;
    if (LLVMIsAConstantAggregateZero(c)) {
        *out = 0.0;
        return true;
    }
    LLVMValueRef e = LLVMGetAggregateElement(c, l);
    if (!e || is_poison(e))
        return false;
    if (LLVMIsAConstantFP(e)) {
        LLVMBool lost;
        *out = LLVMConstRealGetDouble(e, &lost);
        return true;
    }
    return false;
}

static bool is_fconst(LLVMValueRef v)
{
    return v && LLVMIsConstant(v) && !LLVMIsAGlobalValue(v) && !LLVMIsAConstantExpr(v);
}

/* A float constant whose every defined lane is x. */
static bool const_is(LLVMValueRef c, double x)
{
    if (!is_fconst(c))
        return false;
    unsigned n = is_vec(c) ? 4 : 1;
    bool any = false;
    for (unsigned l = 0; l < n; l++) {
        double d;
        if (!const_lane(c, l, &d))
            continue;
        if (d != x || signbit(d) != signbit(x))
            return false;
        any = true;
    }
    return any;
}

static const char *callee_name(LLVMValueRef call)
{
    if (opc(call) != LLVMCall)
        return "";
    LLVMValueRef f = LLVMGetCalledValue(call);
    if (!f || !LLVMIsAFunction(f))
        return "";
    size_t len;
    return LLVMGetValueName2(f, &len);
}

static bool is_call_to(LLVMValueRef v, const char *prefix)
{
    return opc(v) == LLVMCall && strncmp(callee_name(v), prefix, strlen(prefix)) == 0;
}

static LLVMValueRef op_(LLVMValueRef v, unsigned k)
{
    return LLVMGetOperand(v, k);
}

static int mask_elem(LLVMValueRef shuf, unsigned i)
{
    int e = LLVMGetMaskValue(shuf, i);
    return e == LLVMGetUndefMaskElem() ? -1 : e;
}

/* ------------------------------------------------------------------ */
/* 1. Lane demand.                                                     */

static void add_demand(struct sel *S, LLVMValueRef v, uint8_t d, bool *changed)
{
    if (!is_inst(v) || !d)
        return;
    struct vinfo *e = vi(S, v);
    if (!is_vec(v))
        d = d ? 1 : 0;
    if ((e->demand | d) != e->demand) {
        e->demand |= d;
        *changed = true;
    }
}

/* Lanes of a stored output value that are the constant +0.0 the output starts with. */
static uint8_t zero_lanes(LLVMValueRef v)
{
    uint8_t z = 0;
    for (unsigned l = 0; l < 4; l++) {
        LLVMValueRef x = v;
        unsigned lane = l;
        for (int guard = 0; guard < 16; guard++) {
            if (is_fconst(x)) {
                double d;
                if (const_lane(x, lane, &d) && d == 0.0 && !signbit(d))
                    z |= (uint8_t)(1u << l);
                break;
            }
            if (opc(x) == LLVMShuffleVector) {
                int m = mask_elem(x, lane);
                if (m < 0)
                    break;
                x = op_(x, m < 4 ? 0 : 1);
                lane = (unsigned)m & 3;
                continue;
            }
            break;
        }
    }
    return z;
}

static int out_slot_of_store(struct sel *S, LLVMValueRef st);
static LLVMValueRef texldp_coords(LLVMValueRef call);

static bool agrees(uint8_t a, uint8_t b, uint8_t lanes);

/* The AST instruction number k of the shader. */
static const struct st_instr *ast_at(const struct st_shader *sh, long long k)
{
    const struct st_instr *i = sh->first;
    for (; i && k > 0; k--)
        i = i->next;
    return k == 0 ? i : NULL;
}

/*
 * Lanes of the register an @st_opaque instruction reads through its
 * operand j (1: the first register after the index): texld/texcrd read
 * x, y, z (w too under _dw or a .xyw swizzle), texdepth x and y, texkill
 * x, y, z; the rest, everything.
 */
static uint8_t opaque_lanes(const struct st_shader *sh, LLVMValueRef call, unsigned j)
{
    long long k;
    const struct st_instr *a = NULL;
    if (const_int(op_(call, 0), &k))
        a = ast_at(sh, k);
    if (!a)
        return 0xf;
    bool writes = !(a->op == ST_OP_TEXKILL || a->op == ST_OP_TEXDEPTH || a->op == ST_OP_PHASE) &&
                  a->has_dst;
    if (a->op == ST_OP_TEXDEPTH)
        return 0x3;
    if (a->op == ST_OP_TEXKILL)
        return 0x7;
    if (writes && (a->op == ST_OP_TEXLD || a->op == ST_OP_TEXCRD) && j >= 1 && j - 1 < a->nsrc) {
        const struct st_src *s = &a->src[j - 1];
        uint8_t m = 0;
        for (unsigned l = 0; l < 3; l++)
            m |= (uint8_t)(1u << ST_SWZ_LANE(s->swizzle, l));
        if (s->mod == ST_SRCMOD_DZ)
            m |= 0x4;
        if (s->mod == ST_SRCMOD_DW)
            m |= 0x8;
        return m;
    }
    return 0xf;
}

/* select(c, y, w) with y = select(c, z, w): y itself, in every lane (the
 * saturate of MAX_SAT x, 0 after instsimplify replaced its "y > 0" by c
 * and dropped the upper clamp of a value it proved <= 1). */
static bool same_select(LLVMValueRef I)
{
    LLVMValueRef y = op_(I, 1);
    return opc(I) == LLVMSelect && opc(y) == LLVMSelect && op_(y, 0) == op_(I, 0) &&
           op_(y, 2) == op_(I, 2) && LLVMTypeOf(y) == LLVMTypeOf(I);
}

/* select(<4 x i1> constant, A, B): the lanes taken from A (poison lanes
 * count as B's); false for any other select.  It is a lane merge, as a
 * two-source shufflevector. */
static bool const_select_lanes(LLVMValueRef I, uint8_t *from_a)
{
    LLVMValueRef c = op_(I, 0);
    if (opc(I) != LLVMSelect || !is_vec(I) || !is_vec(c) || is_inst(c) || !LLVMIsConstant(c))
        return false;
    *from_a = 0;
    for (unsigned l = 0; l < 4; l++) {
        LLVMValueRef e = LLVMGetAggregateElement(c, l);
        if (e && LLVMIsAConstantInt(e) && LLVMConstIntGetZExtValue(e) == 1)
            *from_a |= (uint8_t)(1u << l);
    }
    return true;
}

static void demand_inst(struct sel *S, LLVMValueRef I, bool *changed)
{
    unsigned o = opc(I);
    uint8_t d = vi(S, I)->demand;
    switch (o) {
    case LLVMStore: {
        LLVMValueRef val = op_(I, 0);
        int slot = out_slot_of_store(S, I);
        if (slot >= 0 && S->arb) {
            /* ARB results are vectors; lanes still holding the 0 they start with need no write */
            uint8_t m = (uint8_t)(0xf & ~zero_lanes(val));
            add_demand(S, val, m ? m : 0xf, changed);
        } else if (slot >= 0) {
            uint8_t m = slot == ST_LL_OUT_FOG || slot == ST_LL_OUT_PTS || slot == ST_LL_OUT_DEPTH
                            ? 0x1
                            : (uint8_t)(0xf & ~zero_lanes(val));
            if (!m || (S->ps && slot != ST_LL_OUT_DEPTH))
                m = 0xf;
            add_demand(S, val, m, changed);
        } else {
            add_demand(S, val, 0xf, changed);
        }
        return;
    }
    case LLVMBr:
        if (LLVMIsConditional(I))
            add_demand(S, LLVMGetCondition(I), 1, changed);
        return;
    case LLVMCall:
        if (strcmp(callee_name(I), "st_opaque") == 0) {
            unsigned n = (unsigned)LLVMGetNumArgOperands(I);
            for (unsigned j = 1; j < n; j++)
                add_demand(S, op_(I, j), opaque_lanes(S->sh, I, j), changed);
            return;
        }
        if (strncmp(callee_name(I), "st_op.ostore", 12) == 0) {
            long long m = 0xf;
            const_int(op_(I, 3), &m);
            add_demand(S, op_(I, 2), (uint8_t)(m & 0xf), changed);
            return;
        }
        if (strncmp(callee_name(I), "st_op.", 6) == 0) {
            /* lanes of the (already swizzled) sources each op reads */
            const char *nm = callee_name(I) + 6;
            int op = st_opcode_lookup(nm, strlen(nm));
            unsigned n = (unsigned)LLVMGetNumArgOperands(I);
            if (op == ST_OP_ARB_KIL) /* void: any of the four lanes < 0 */
                d = 0xf;
            for (unsigned k = 0; k < n && d; k++) {
                uint8_t dd = 0xf;
                long long i0 = 0, i1 = 0;
                switch (op) {
                case ST_OP_ARB_FLR: dd = d; break;
                case ST_OP_ARB_DPH: dd = k == 0 ? 0x7 : 0xf; break;
                case ST_OP_ARB_LIT: dd = 0xb; break;
                case ST_OP_ARB_XPD: dd = 0x7; break;
                case ST_OP_ARB_SIN: case ST_OP_ARB_COS: case ST_OP_ARB_SCS: case ST_OP_ARB_ARL:
                    dd = 0x1;
                    break;
                case ST_OP_ARB_SWZ: {
                    struct mir_instr t;
                    memset(&t, 0, sizeof(t));
                    if (n == 3 && const_int(op_(I, 1), &i0))
                        for (unsigned l = 0; l < 4; l++)
                            t.swz_sel[l] = (uint8_t)((i0 >> (3 * l)) & 7);
                    dd = mir_arb_swz_lanes(&t, d);
                    break;
                }
                case ST_OP_ARB_TEX: case ST_OP_ARB_TXP: case ST_OP_ARB_TXB:
                    dd = n == 3 && const_int(op_(I, 2), &i1)
                             ? mir_arb_tex_lanes((unsigned)op, (unsigned)i1)
                             : 0xf;
                    break;
                case ST_OP_SGN: dd = d; break;
                case ST_OP_LIT: dd = 0xb; break;
                case ST_OP_DST:
                    dd = (uint8_t)((d & 0x2) | (k == 0 ? (d & 0x4) : (d & 0x8)));
                    break;
                case ST_OP_CRS: dd = 0x7; break;
                case ST_OP_EXPP: case ST_OP_LOGP: dd = 0x1; break;
                default: break;
                }
                add_demand(S, op_(I, k), dd, changed);
            }
            return;
        }
        if (strcmp(callee_name(I), "st_dsx") == 0 || strcmp(callee_name(I), "st_dsy") == 0) {
            add_demand(S, op_(I, 0), d, changed);
            return;
        }
        if (strcmp(callee_name(I), ST_LL_SAMPLE_FN) == 0) {
            for (unsigned k = 2; k < 5; k++)
                add_demand(S, op_(I, k), 1, changed);
            if (texldp_coords(I))
                add_demand(S, texldp_coords(I), 0xf, changed);
            return;
        }
        break;
    case LLVMShuffleVector: {
        uint8_t da = 0, db = 0;
        for (unsigned i = 0; i < 4; i++) {
            if (!(d & (1u << i)))
                continue;
            int m = mask_elem(I, i);
            if (m < 0)
                continue;
            if (m < 4)
                da |= (uint8_t)(1u << m);
            else
                db |= (uint8_t)(1u << (m - 4));
        }
        add_demand(S, op_(I, 0), da, changed);
        add_demand(S, op_(I, 1), db, changed);
        return;
    }
    case LLVMExtractElement: {
        long long k;
        if (d && const_int(op_(I, 1), &k) && k >= 0 && k < 4)
            add_demand(S, op_(I, 0), (uint8_t)(1u << k), changed);
        else if (d)
            add_demand(S, op_(I, 0), 0xf, changed);
        return;
    }
    case LLVMInsertElement: {
        long long k;
        if (const_int(op_(I, 2), &k) && k >= 0 && k < 4) {
            add_demand(S, op_(I, 0), (uint8_t)(d & ~(1u << k)), changed);
            add_demand(S, op_(I, 1), (uint8_t)((d >> k) & 1), changed);
        } else {
            add_demand(S, op_(I, 0), d, changed);
            add_demand(S, op_(I, 1), d ? 1 : 0, changed);
        }
        return;
    }
    case LLVMSelect: {
        uint8_t t;
        if (const_select_lanes(I, &t)) { /* a lane merge: each side its lanes */
            add_demand(S, op_(I, 1), (uint8_t)(d & t), changed);
            add_demand(S, op_(I, 2), (uint8_t)(d & ~t), changed);
            return;
        }
        break;
    }
    default:
        break;
    }
    if (!d && o != LLVMCall)
        return;
    /* Lane-wise (or unknown: everything the value needs). */
    unsigned n = (unsigned)LLVMGetNumOperands(I);
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef x = op_(I, k);
        if (LLVMIsABasicBlock(x))
            continue;
        bool lanewise = o == LLVMFAdd || o == LLVMFSub || o == LLVMFMul || o == LLVMFDiv ||
                        o == LLVMFNeg || o == LLVMFCmp || o == LLVMSelect || o == LLVMPHI ||
                        o == LLVMFPExt || o == LLVMFPTrunc || o == LLVMFPToSI ||
                        o == LLVMSIToFP ||
                        (o == LLVMCall && strncmp(callee_name(I), "llvm.", 5) == 0);
        uint8_t dd = lanewise ? d : 0xf;
        if (!is_vec(x))
            dd = d ? 1 : (o == LLVMCall ? 1 : 0);
        add_demand(S, x, dd, changed);
    }
}

static void compute_demand(struct sel *S)
{
    bool changed = true;
    while (changed) {
        changed = false;
        for (LLVMBasicBlockRef bb = LLVMGetLastBasicBlock(S->fn); bb;
             bb = LLVMGetPreviousBasicBlock(bb))
            for (LLVMValueRef I = LLVMGetLastInstruction(bb); I; I = LLVMGetPreviousInstruction(I))
                demand_inst(S, I, &changed);
    }
}

/* ------------------------------------------------------------------ */
/* Patterns.                                                           */

static bool is_fcmp(LLVMValueRef c, LLVMRealPredicate p, LLVMValueRef *a, LLVMValueRef *b)
{
    if (opc(c) != LLVMFCmp || LLVMGetFCmpPredicate(c) != p)
        return false;
    *a = op_(c, 0);
    *b = op_(c, 1);
    return true;
}

/* The saturate of the lowering: select(m < 1, m, 1), m = select(x > 0, x, 0). */
/* and(icmp(and(bitcast x, ..)), icmp(and(bitcast x, ..))): the lowering's
 * "x is a signaling NaN" test. */
static bool snan_test_of(LLVMValueRef c, LLVMValueRef x)
{
    if (opc(c) != LLVMAnd)
        return false;
    for (unsigned k = 0; k < 2; k++) {
        LLVMValueRef t = op_(c, k);
        if (opc(t) != LLVMICmp || opc(op_(t, 0)) != LLVMAnd ||
            opc(op_(op_(t, 0), 0)) != LLVMBitCast || op_(op_(op_(t, 0), 0), 0) != x)
            return false;
    }
    return true;
}

/* Every lane of v is a number below 1: a constant, or a select of such
 * (a cmp of constants). */
static bool below_one(LLVMValueRef v, int depth)
{
    if (depth > 4)
        return false;
    if (is_fconst(v)) {
        unsigned n = is_vec(v) ? 4 : 1;
        for (unsigned l = 0; l < n; l++) {
            double d;
            if (!const_lane(v, l, &d) || !(d < 1.0))
                return false;
        }
        return true;
    }
    return opc(v) == LLVMSelect && below_one(op_(v, 1), depth + 1) &&
           below_one(op_(v, 2), depth + 1);
}

static bool match_sat(LLVMValueRef I, LLVMValueRef *x)
{
    LLVMValueRef a, b;
    /* the lower clamp alone, select(x > 0, x, 0), of an x below 1 in every
     * lane: instsimplify proved the upper clamp's x < 1 and dropped it
     * (cmp_sat of constants below 1, fuzz seeds 216, 1248) */
    if (opc(I) == LLVMSelect && const_is(op_(I, 2), 0.0) && is_fcmp(op_(I, 0), LLVMRealOGT, &a, &b) &&
        a == op_(I, 1) && const_is(b, 0.0) && below_one(a, 0)) {
        *x = a;
        return true;
    }
    /* select(snan(x), 1, sat(x)): the same saturate, signaling NaNs spelled out */
    if (opc(I) == LLVMSelect && const_is(op_(I, 1), 1.0) && opc(op_(I, 0)) == LLVMAnd &&
        match_sat(op_(I, 2), x) && snan_test_of(op_(I, 0), *x))
        return true;
    if (opc(I) != LLVMSelect || !is_fcmp(op_(I, 0), LLVMRealOLT, &a, &b))
        return false;
    LLVMValueRef m = op_(I, 1);
    if (a != m || !const_is(b, 1.0) || !const_is(op_(I, 2), 1.0))
        return false;
    if (opc(m) != LLVMSelect || !const_is(op_(m, 2), 0.0))
        return false;
    LLVMValueRef xm = op_(m, 1);
    /* x = select(c, 1, 0) (SLT, SGE): instsimplify turns x > 0 into c */
    if (opc(xm) == LLVMSelect && op_(xm, 0) == op_(m, 0) && const_is(op_(xm, 1), 1.0) &&
        const_is(op_(xm, 2), 0.0)) {
        *x = xm;
        return true;
    }
    if (!is_fcmp(op_(m, 0), LLVMRealOGT, &a, &b))
        return false;
    if (a != xm || !const_is(b, 0.0))
        return false;
    *x = a;
    return true;
}

/* Lane `lane` of v (every lane: -1) has its sign bit clear: a constant,
 * x * x, |x|, sums of such, and the lowering's views and selects of them
 * (instsimplify drops the fabs of rsq/log when it proves this itself:
 * rsq of an SLT result). */
static bool nonneg_l(LLVMValueRef v, int lane, int depth)
{
    if (depth > 16)
        return false;
    if (is_fconst(v)) {
        unsigned n = is_vec(v) ? 4 : 1;
        for (unsigned l = 0; l < n; l++) {
            if (lane >= 0 && is_vec(v) && (int)l != lane)
                continue;
            double d;
            if (const_lane(v, l, &d) && (d < 0 || signbit(d)))
                return false;
        }
        return true;
    }
    switch (opc(v)) {
    case LLVMFMul: return op_(v, 0) == op_(v, 1);
    case LLVMFAdd:
        return nonneg_l(op_(v, 0), lane, depth + 1) && nonneg_l(op_(v, 1), lane, depth + 1);
    case LLVMSelect:
        return nonneg_l(op_(v, 1), lane, depth + 1) && nonneg_l(op_(v, 2), lane, depth + 1);
    case LLVMExtractElement: {
        long long k;
        if (!const_int(op_(v, 1), &k) || k < 0 || k > 3)
            return nonneg_l(op_(v, 0), -1, depth + 1);
        return nonneg_l(op_(v, 0), (int)k, depth + 1);
    }
    case LLVMInsertElement: {
        long long k;
        if (!const_int(op_(v, 2), &k) || lane < 0)
            return nonneg_l(op_(v, 0), -1, depth + 1) && nonneg_l(op_(v, 1), -1, depth + 1);
        return lane == k ? nonneg_l(op_(v, 1), -1, depth + 1) : nonneg_l(op_(v, 0), lane, depth + 1);
    }
    case LLVMShuffleVector:
        for (int l = 0; l < 4; l++) {
            if (lane >= 0 && l != lane)
                continue;
            int m = mask_elem(v, (unsigned)l);
            if (m < 0 || m > 7 || !nonneg_l(op_(v, m < 4 ? 0 : 1), m & 3, depth + 1))
                return false;
        }
        return true;
    case LLVMCall: return is_call_to(v, "llvm.fabs");
    default: return false;
    }
}

static bool nonneg(LLVMValueRef v, int depth)
{
    return nonneg_l(v, -1, depth);
}

/* extractelement(P, k) with constant k: P and k. */
static bool ext_of(LLVMValueRef v, LLVMValueRef *P, unsigned *k)
{
    long long kk;
    if (opc(v) != LLVMExtractElement || !const_int(op_(v, 1), &kk) || kk < 0 || kk > 3)
        return false;
    *P = op_(v, 0);
    *k = (unsigned)kk;
    return true;
}

/* fadd(fadd(e(P,0), e(P,1)) ...): the dot product of the lowering up to n lanes. */
static bool dot_chain(LLVMValueRef v, unsigned n, LLVMValueRef *P)
{
    LLVMValueRef q;
    unsigned k;
    if (n == 1)
        return ext_of(v, P, &k) && k == 0;
    if (opc(v) != LLVMFAdd || !ext_of(op_(v, 1), &q, &k) || k != n - 1)
        return false;
    if (!dot_chain(op_(v, 0), n - 1, P))
        return false;
    return *P == q;
}

static bool fpext_of(LLVMValueRef v, LLVMValueRef *x)
{
    if (opc(v) == LLVMFPExt) {
        *x = op_(v, 0);
        return true;
    }
    if (is_fconst(v) && !is_vec(v)) {
        *x = v; /* a double constant: the operand code converts it */
        return true;
    }
    return false;
}

static void pat_set(struct pat *p, unsigned op, unsigned n, LLVMValueRef a, LLVMValueRef b,
                    LLVMValueRef c)
{
    memset(p, 0, sizeof(*p));
    p->op = op;
    p->n = n;
    p->leaf[0] = a;
    p->leaf[1] = b;
    p->leaf[2] = c;
}

static bool modview_of(struct sel *S, LLVMValueRef I, LLVMValueRef *x, unsigned *mod);
static enum vkind classify(struct sel *S, LLVMValueRef I);

/* Exactly one use (a pattern may swallow the value). */
static bool single_use(LLVMValueRef v)
{
    return LLVMGetFirstUse(v) && !LLVMGetNextUse(LLVMGetFirstUse(v));
}

/* v is a view (swizzle, negation, lane insert) of a c# read, direct or
 * relative: the operand a modifier on v would put on the c# register. */
static bool reads_const_file(struct sel *S, LLVMValueRef v, int depth)
{
    if (depth > 16 || !is_inst(v))
        return false;
    switch (opc(v)) {
    case LLVMShuffleVector:
    case LLVMInsertElement:
        return reads_const_file(S, op_(v, 0), depth + 1) ||
               reads_const_file(S, op_(v, 1), depth + 1);
    case LLVMExtractElement:
    case LLVMFNeg:
        return reads_const_file(S, op_(v, 0), depth + 1);
    case LLVMSelect: /* c[a0.c + k]: select(in range, load, 0) */
        return reads_const_file(S, op_(v, 1), depth + 1);
    case LLVMLoad: {
        LLVMValueRef ptr = op_(v, 0);
        if (opc(ptr) == LLVMGetElementPtr)
            ptr = op_(ptr, 0);
        return ptr == S->arg_c;
    }
    default:
        return false;
    }
}

/*
 * The shapes the lowering writes for the same instruction in both
 * dialects, so match_alu and match_alu_arb share them.
 *
 * rcp / RCP and rsq / RSQ: select(x == 0, +inf, 1 / x) and
 * select(x == 0, +inf, 1 / sqrt(x)) on |x|.  The lowering writes this
 * shape for rsq/RSQ only, always on |x|: a missing fabs is one
 * instsimplify dropped (it proved the sign clear), so the operand is still
 * rsq's own.
 */
static bool match_rcp_rsq(LLVMValueRef I, LLVMValueRef c, LLVMValueRef t, LLVMValueRef f,
                          struct pat *p)
{
    LLVMValueRef a, b;
    if (is_vec(I) || !is_fcmp(c, LLVMRealOEQ, &a, &b) || !const_is(b, 0.0) ||
        !const_is(t, INFINITY) || opc(f) != LLVMFDiv || !const_is(op_(f, 0), 1.0))
        return false;
    LLVMValueRef den = op_(f, 1);
    if (den == a) { /* rcp: +-0 -> +inf */
        pat_set(p, ST_OP_RCP, 1, a, NULL, NULL);
        p->scalar_src[0] = true;
        return true;
    }
    if (is_call_to(den, "llvm.sqrt") && op_(den, 0) == a) {
        pat_set(p, ST_OP_RSQ, 1, is_call_to(a, "llvm.fabs") ? op_(a, 0) : a, NULL, NULL);
        p->scalar_src[0] = true;
        return true;
    }
    return false;
}

/*
 * exp / EX2, pow / POW and log / LG2, computed in double: e is the value
 * the fptrunc rounds.  exp2(fpext x) (of a constant too: the fpext folded),
 * exp2(fpext y * log2|fpext x|) and log2|fpext x|; the cleanups drop a
 * fabs when they prove the sign bit clear.
 */
static bool match_exp_pow_log(LLVMValueRef e, struct pat *p)
{
    LLVMValueRef x, y;
    if (is_call_to(e, "llvm.exp2")) {
        LLVMValueRef arg = op_(e, 0);
        if (fpext_of(arg, &x)) {
            pat_set(p, ST_OP_EXP, 1, x, NULL, NULL);
            p->scalar_src[0] = true;
            return true;
        }
        if (opc(arg) == LLVMFMul) {
            LLVMValueRef yy = op_(arg, 0), lg = op_(arg, 1);
            LLVMValueRef ax = is_call_to(lg, "llvm.log2") ? op_(lg, 0) : NULL;
            if (ax && is_call_to(ax, "llvm.fabs"))
                ax = op_(ax, 0);
            if (ax && fpext_of(ax, &x) && fpext_of(yy, &y)) {
                pat_set(p, ST_OP_POW, 2, x, y, NULL);
                p->scalar_src[0] = p->scalar_src[1] = true;
                return true;
            }
        }
    }
    if (is_call_to(e, "llvm.log2") && fpext_of(op_(e, 0), &x)) {
        pat_set(p, ST_OP_LOG, 1, is_call_to(x, "llvm.fabs") ? op_(x, 0) : x, NULL, NULL);
        p->scalar_src[0] = true;
        return true;
    }
    return false;
}

/*
 * One ARB instruction for the value I, or false.  The lowering spells ARB's
 * own semantics (translator/run/interp.c, the R->arb branches): MIN is
 * (a > b) ? b : a, MAX (a > b) ? a : b, CMP (a < 0) ? b : c, LRP
 * a * b + (1 - a) * c; only those shapes map to them, never the Direct3D 9
 * ones.  Instructions of the other program kind are not matched.
 */
static bool match_alu_arb(struct sel *S, LLVMValueRef I, struct pat *p)
{
    unsigned o = opc(I);
    LLVMValueRef a, b, x, P;
    bool fp = S->ps;
    switch (o) {
    case LLVMFAdd: {
        LLVMValueRef l = op_(I, 0), r = op_(I, 1);
        if (!is_vec(I)) {
            if (dot_chain(I, 4, &P) && opc(P) == LLVMFMul) {
                pat_set(p, ST_OP_DP4, 2, op_(P, 0), op_(P, 1), NULL);
                return true;
            }
            if (dot_chain(I, 3, &P) && opc(P) == LLVMFMul) {
                pat_set(p, ST_OP_DP3, 2, op_(P, 0), op_(P, 1), NULL);
                return true;
            }
        }
        /* LRP: a * b + (1 - a) * c */
        if (fp && opc(l) == LLVMFMul && opc(r) == LLVMFMul && single_use(l) && single_use(r)) {
            LLVMValueRef om = op_(r, 0);
            if (opc(om) == LLVMFSub && const_is(op_(om, 0), 1.0) && op_(om, 1) == op_(l, 0)) {
                pat_set(p, ST_OP_LRP, 3, op_(l, 0), op_(l, 1), op_(r, 1));
                return true;
            }
        }
        /* MAD: the product is rounded first, as in the interpreter */
        for (int s = 0; s < 2; s++) {
            LLVMValueRef m = s ? r : l, c = s ? l : r;
            if (opc(m) == LLVMFMul && single_use(m)) {
                pat_set(p, ST_OP_MAD, 3, op_(m, 0), op_(m, 1), c);
                return true;
            }
        }
        pat_set(p, ST_OP_ADD, 2, l, r, NULL);
        return true;
    }
    case LLVMFSub: {
        LLVMValueRef l = op_(I, 0), r = op_(I, 1);
        if (is_call_to(r, "llvm.floor") && op_(r, 0) == l) {
            pat_set(p, ST_OP_FRC, 1, l, NULL, NULL);
            return true;
        }
        pat_set(p, ST_OP_SUB, 2, l, r, NULL);
        return true;
    }
    case LLVMFMul:
        pat_set(p, ST_OP_MUL, 2, op_(I, 0), op_(I, 1), NULL);
        return true;
    case LLVMFDiv:
        if (const_is(op_(I, 0), 1.0) && !is_vec(I) && is_call_to(op_(I, 1), "llvm.sqrt") &&
            nonneg(op_(op_(I, 1), 0), 0)) {
            pat_set(p, ST_OP_RSQ, 1, op_(op_(I, 1), 0), NULL, NULL);
            p->scalar_src[0] = true;
            return true;
        }
        /* a bare scalar 1 / x: the lowering writes it only inside rcp's
         * select(x == 0, +inf, 1 / x) (nrm and rsq divide by a sqrt);
         * instsimplify drops the select only once it proved x == 0 false,
         * and for every other x (NaN, inf too) rcp is 1 / x */
        if (const_is(op_(I, 0), 1.0) && !is_vec(I) && !is_call_to(op_(I, 1), "llvm.sqrt")) {
            pat_set(p, ST_OP_RCP, 1, op_(I, 1), NULL, NULL);
            p->scalar_src[0] = true;
            return true;
        }
        return false;
    case LLVMSelect: {
        LLVMValueRef c = op_(I, 0), t = op_(I, 1), f = op_(I, 2);
        if (fp && match_sat(I, &x)) { /* _SAT exists in fragment programs only */
            pat_set(p, ST_OP_MOV, 1, x, NULL, NULL);
            p->sat = true;
            return true;
        }
        /* select(m < 1, m, 1) alone: in ARB only the saturate writes it (MIN
         * is select(a > b, b, a)), with m = select(x > 0, x, 0); an m of
         * another shape is that select folded by instsimplify once it
         * proved x > 0 (MAX_SAT t, t, 1.0), so m is x and this is sat(x) */
        if (fp && is_vec(I) && is_fcmp(c, LLVMRealOLT, &a, &b) && a == t && const_is(b, 1.0) &&
            const_is(f, 1.0)) {
            pat_set(p, ST_OP_MOV, 1, a, NULL, NULL);
            p->sat = true;
            return true;
        }
        if (is_fcmp(c, LLVMRealOGT, &a, &b) && a == t && b == f) {
            pat_set(p, ST_OP_MAX, 2, a, b, NULL);
            return true;
        }
        if (is_fcmp(c, LLVMRealOGT, &a, &b) && b == t && a == f) {
            pat_set(p, ST_OP_MIN, 2, a, b, NULL);
            return true;
        }
        if (const_is(t, 1.0) && const_is(f, 0.0)) {
            if (is_fcmp(c, LLVMRealOLT, &a, &b)) {
                pat_set(p, ST_OP_SLT, 2, a, b, NULL);
                return true;
            }
            if (is_fcmp(c, LLVMRealOGE, &a, &b)) {
                pat_set(p, ST_OP_SGE, 2, a, b, NULL);
                return true;
            }
        }
        if (fp && is_vec(I) && is_fcmp(c, LLVMRealOLT, &a, &b) && const_is(b, 0.0)) {
            pat_set(p, ST_OP_CMP, 3, a, t, f);
            return true;
        }
        if (match_rcp_rsq(I, c, t, f, p))
            return true;
        return false;
    }
    case LLVMFPTrunc:
        return match_exp_pow_log(op_(I, 0), p);
    case LLVMCall: {
        if (is_call_to(I, "llvm.fabs")) {
            pat_set(p, ST_OP_ABS, 1, op_(I, 0), NULL, NULL);
            return true;
        }
        if (!is_call_to(I, "st_op."))
            return false;
        const char *nm = callee_name(I) + 6;
        int op = st_opcode_lookup(nm, strlen(nm));
        unsigned n = (unsigned)LLVMGetNumArgOperands(I);
        const char *arb_name = op >= 0 ? st_arb_opcode_name((enum st_opcode)op) : NULL;
        bool have = false;
        for (unsigned k = 0; k < st_arb_num_opinfo; k++)
            if (st_arb_opinfo[k].op == (enum st_opcode)op &&
                (S->ps ? st_arb_opinfo[k].fp : st_arb_opinfo[k].vp))
                have = true;
        if (!arb_name || !have || op == ST_OP_ARB_KIL || op == ST_OP_ARB_ARL)
            return false;
        long long i0 = 0, i1 = 0;
        switch (op) {
        case ST_OP_ARB_SWZ: case ST_OP_ARB_TEX: case ST_OP_ARB_TXP: case ST_OP_ARB_TXB:
            if (n != 3 || !const_int(op_(I, 1), &i0) || !const_int(op_(I, 2), &i1))
                return false;
            pat_set(p, (unsigned)op, 1, op_(I, 0), NULL, NULL);
            p->imm[0] = (int32_t)i0;
            p->imm[1] = (int32_t)i1;
            return true;
        default:
            if (n < 1 || n > 2)
                return false;
            pat_set(p, (unsigned)op, n, op_(I, 0), n > 1 ? op_(I, 1) : NULL, NULL);
            return true;
        }
    }
    default:
        return false;
    }
}

/* One D3D9 instruction for the value I, or false. */
static bool match_alu(struct sel *S, LLVMValueRef I, struct pat *p)
{
    if (S->arb)
        return match_alu_arb(S, I, p);
    unsigned o = opc(I);
    LLVMValueRef a, b, x, P;
    switch (o) {
    case LLVMFAdd: {
        LLVMValueRef l = op_(I, 0), r = op_(I, 1);
        if (!is_vec(I)) {
            if (dot_chain(I, 4, &P) && opc(P) == LLVMFMul) {
                pat_set(p, ST_OP_DP4, 2, op_(P, 0), op_(P, 1), NULL);
                return true;
            }
            if (dot_chain(I, 3, &P) && opc(P) == LLVMFMul) {
                pat_set(p, ST_OP_DP3, 2, op_(P, 0), op_(P, 1), NULL);
                return true;
            }
            unsigned lane;
            if (S->ps && dot_chain(l, 2, &P) && opc(P) == LLVMFMul &&
                (ext_of(r, &x, &lane) || (is_fconst(r) && !is_vec(r)))) {
                pat_set(p, ST_OP_DP2ADD, 3, op_(P, 0), op_(P, 1), r);
                p->scalar_src[2] = true;
                return true;
            }
        }
        /* lrp: a * (b - c) + c */
        if (opc(l) == LLVMFMul && opc(op_(l, 1)) == LLVMFSub && op_(op_(l, 1), 1) == r &&
            LLVMGetFirstUse(l) && !LLVMGetNextUse(LLVMGetFirstUse(l)) &&
            (S->ps || S->ver >= ST_VER(2, 0))) {
            pat_set(p, ST_OP_LRP, 3, op_(l, 0), op_(op_(l, 1), 0), r);
            return true;
        }
        /* mad: the product is rounded first, as in the interpreter */
        for (int s = 0; s < 2; s++) {
            LLVMValueRef m = s ? r : l, c = s ? l : r;
            LLVMValueRef mx;
            unsigned mmod;
            if (opc(m) == LLVMFMul && LLVMGetFirstUse(m) && !LLVMGetNextUse(LLVMGetFirstUse(m)) &&
                !modview_of(S, m, &mx, &mmod)) {
                pat_set(p, ST_OP_MAD, 3, op_(m, 0), op_(m, 1), c);
                return true;
            }
        }
        pat_set(p, ST_OP_ADD, 2, l, r, NULL);
        return true;
    }
    case LLVMFSub: {
        LLVMValueRef l = op_(I, 0), r = op_(I, 1);
        if (is_call_to(r, "llvm.floor") && op_(r, 0) == l) {
            pat_set(p, ST_OP_FRC, 1, l, NULL, NULL);
            return true;
        }
        pat_set(p, ST_OP_SUB, 2, l, r, NULL);
        return true;
    }
    case LLVMFMul: {
        /* ps_1_x destination shift: the result times 2, 4, 8, 1/2, 1/4, 1/8 */
        if (S->ps1x && is_vec(I) && is_inst(op_(I, 0))) {
            static const double sc[6] = {2, 4, 8, 0.5, 0.25, 0.125};
            static const int8_t sh[6] = {1, 2, 3, -1, -2, -3};
            for (unsigned q = 0; q < 6; q++)
                if (const_is(op_(I, 1), sc[q])) {
                    LLVMValueRef x, v = op_(I, 0);
                    unsigned mod;
                    bool single = LLVMGetFirstUse(v) && !LLVMGetNextUse(LLVMGetFirstUse(v));
                    if (single && !modview_of(S, v, &x, &mod) && classify(S, v) == VK_ALU &&
                        match_alu(S, v, p) && !p->shift && !p->sat) {
                        p->shift = sh[q];
                        return true;
                    }
                    /* mov_x2 r0, t0: the shift of a plain copy */
                    pat_set(p, ST_OP_MOV, 1, v, NULL, NULL);
                    p->shift = sh[q];
                    return true;
                }
        }
        /* nrm: a * splat(1 / sqrt(dot3(a, a))) */
        LLVMValueRef A = op_(I, 0), Vv = op_(I, 1);
        if (is_vec(I) && opc(Vv) == LLVMShuffleVector && is_poison(op_(Vv, 1)) &&
            opc(op_(Vv, 0)) == LLVMInsertElement && is_poison(op_(op_(Vv, 0), 0)) &&
            (!S->ps || !(vi(S, I)->demand & 0x8))) {
            bool splat0 = true;
            long long ix;
            for (unsigned i = 0; i < 4; i++)
                if (mask_elem(Vv, i) != 0)
                    splat0 = false;
            LLVMValueRef q = op_(op_(Vv, 0), 1);
            if (splat0 && const_int(op_(op_(Vv, 0), 2), &ix) && ix == 0 &&
                opc(q) == LLVMFDiv && const_is(op_(q, 0), 1.0) &&
                is_call_to(op_(q, 1), "llvm.sqrt") && dot_chain(op_(op_(q, 1), 0), 3, &P) &&
                opc(P) == LLVMFMul && op_(P, 0) == A && op_(P, 1) == A) {
                pat_set(p, ST_OP_NRM, 1, A, NULL, NULL);
                return true;
            }
        }
        pat_set(p, ST_OP_MUL, 2, op_(I, 0), op_(I, 1), NULL);
        return true;
    }
    case LLVMFDiv:
        /* 1 / sqrt(y) with y >= 0: rsq computes exactly that */
        if (const_is(op_(I, 0), 1.0) && !is_vec(I) && is_call_to(op_(I, 1), "llvm.sqrt") &&
            nonneg(op_(op_(I, 1), 0), 0)) {
            pat_set(p, ST_OP_RSQ, 1, op_(op_(I, 1), 0), NULL, NULL);
            p->scalar_src[0] = true;
            return true;
        }
        /* a bare scalar 1 / x: the lowering writes it only inside rcp's
         * select(x == 0, +inf, 1 / x) (nrm and rsq divide by a sqrt);
         * instsimplify drops the select only once it proved x == 0 false,
         * and for every other x (NaN, inf too) rcp is 1 / x */
        if (const_is(op_(I, 0), 1.0) && !is_vec(I) && !is_call_to(op_(I, 1), "llvm.sqrt")) {
            pat_set(p, ST_OP_RCP, 1, op_(I, 1), NULL, NULL);
            p->scalar_src[0] = true;
            return true;
        }
        return false;
    case LLVMSelect: {
        LLVMValueRef c = op_(I, 0), t = op_(I, 1), f = op_(I, 2);
        if (match_sat(I, &x)) {
            pat_set(p, ST_OP_MOV, 1, x, NULL, NULL);
            p->sat = true;
            return true;
        }
        if (is_fcmp(c, LLVMRealOLT, &a, &b) && a == t && b == f &&
            (S->ps ? S->ver >= ST_VER(2, 0) : true)) {
            pat_set(p, ST_OP_MIN, 2, a, b, NULL);
            return true;
        }
        if (is_fcmp(c, LLVMRealOGE, &a, &b) && a == t && b == f &&
            (S->ps ? S->ver >= ST_VER(2, 0) : true)) {
            pat_set(p, ST_OP_MAX, 2, a, b, NULL);
            return true;
        }
        if (is_fcmp(c, LLVMRealOGE, &a, &b) && const_is(b, 0.0) && S->ps && is_vec(I)) {
            pat_set(p, ST_OP_CMP, 3, a, t, f);
            return true;
        }
        if (is_fcmp(c, LLVMRealOGT, &a, &b) && const_is(b, 0.5) && S->ps1x && is_vec(I)) {
            pat_set(p, ST_OP_CND, 3, a, t, f);
            return true;
        }
        if (!S->ps && const_is(t, 1.0) && const_is(f, 0.0)) {
            if (is_fcmp(c, LLVMRealOLT, &a, &b)) {
                pat_set(p, ST_OP_SLT, 2, a, b, NULL);
                return true;
            }
            if (is_fcmp(c, LLVMRealOGE, &a, &b)) {
                pat_set(p, ST_OP_SGE, 2, a, b, NULL);
                return true;
            }
        }
        if (match_rcp_rsq(I, c, t, f, p))
            return true;
        return false;
    }
    case LLVMFPTrunc: {
        LLVMValueRef e = op_(I, 0);
        if (match_exp_pow_log(e, p))
            return true;
        if ((is_call_to(e, "llvm.cos") || is_call_to(e, "llvm.sin")) && fpext_of(op_(e, 0), &x)) {
            /* sincos writes cos to .x and sin to .y (assign_homes puts them there) */
            pat_set(p, ST_OP_SINCOS, 1, x, NULL, NULL);
            p->scalar_src[0] = true;
            return true;
        }
        return false;
    }
    case LLVMCall:
        /* vs_3_0 reads all c# with _abs or none (the checker's rule): |c#|
         * is the abs instruction there */
        if (is_call_to(I, "llvm.fabs") &&
            ((!S->v3 && S->ver >= ST_VER(2, 0)) ||
             (S->v3 && !S->ps && reads_const_file(S, op_(I, 0), 0)))) {
            pat_set(p, ST_OP_ABS, 1, op_(I, 0), NULL, NULL);
            return true;
        }
        if (is_call_to(I, "st_op.")) {
            /* lit, dst, sgn, expp, logp, crs: the lowering's marker calls */
            const char *nm = callee_name(I) + 6;
            int op = st_opcode_lookup(nm, strlen(nm));
            unsigned n = (unsigned)LLVMGetNumArgOperands(I);
            if (op < 0 || n < 1 || n > 2)
                return false;
            pat_set(p, (unsigned)op, n, op_(I, 0), n > 1 ? op_(I, 1) : NULL, NULL);
            return true;
        }
        if (S->ps && (is_call_to(I, "st_dsx") || is_call_to(I, "st_dsy"))) {
            pat_set(p, is_call_to(I, "st_dsx") ? ST_OP_DSX : ST_OP_DSY, 1, op_(I, 0), NULL, NULL);
            return true;
        }
        return false;
    default:
        return false;
    }
}

/* ------------------------------------------------------------------ */
/* Value kinds.                                                        */

static bool is_texel_ptr(struct sel *S, LLVMValueRef ptr)
{
    return S->texel && ptr == S->texel;
}

/* load from base[k] (GEP with a constant index): base and k. */
static bool gep_const(LLVMValueRef ptr, LLVMValueRef *base, long long *k)
{
    if (LLVMIsAArgument(ptr)) { /* element 0: the cleanups fold the GEP away */
        *base = ptr;
        *k = 0;
        return true;
    }
    if (opc(ptr) != LLVMGetElementPtr && !(LLVMIsAConstantExpr(ptr) &&
                                          LLVMGetConstOpcode(ptr) == LLVMGetElementPtr))
        return false;
    if (LLVMGetNumOperands(ptr) != 2)
        return false;
    *base = op_(ptr, 0);
    return const_int(op_(ptr, 1), k);
}

static int out_slot_of_store(struct sel *S, LLVMValueRef st)
{
    LLVMValueRef base;
    long long k;
    if (!gep_const(op_(st, 1), &base, &k) || base != S->arg_out)
        return -1;
    return k >= 0 && k < ST_LL_OUT_SLOTS ? (int)k : -1;
}

/* Lane `comp` of an a0 value back to the to_addr conversion (fptosi) that made it. */
/* A phi of the lowering's a0 variable (mem2reg names it after the alloca). */
static bool is_a0_phi(LLVMValueRef P)
{
    size_t n = 0;
    const char *nm = opc(P) == LLVMPHI ? LLVMGetValueName2(P, &n) : NULL;
    return nm && n >= 3 && strncmp(nm, "a0.", 3) == 0 && is_vec(P) &&
           LLVMGetTypeKind(LLVMGetElementType(LLVMTypeOf(P))) == LLVMIntegerTypeKind;
}

/* trace_a0 with the phis being traced (a lane that comes back to one of
 * them around a loop adds nothing: *F stays NULL and the result is true) */
static bool trace_a0_r(LLVMValueRef A, unsigned comp, LLVMValueRef *F, unsigned *lane,
                       LLVMValueRef *stack, unsigned depth)
{
    for (int g = 0; g < 32 && is_inst(A); g++) {
        long long k;
        switch (opc(A)) {
        case LLVMPHI: {
            /* a0 merged across a branch or around a loop: every incoming
             * value must hold the same mova in this lane (a lane the loop
             * or arm does not write comes back as the phi itself) */
            for (unsigned d = 0; d < depth; d++)
                if (stack[d] == A) {
                    *F = NULL;
                    return true;
                }
            if (depth >= 8)
                return false;
            stack[depth] = A;
            LLVMValueRef got = NULL;
            unsigned glane = 0;
            for (unsigned i = 0; i < LLVMCountIncoming(A); i++) {
                LLVMValueRef f = NULL;
                unsigned fl = 0;
                if (is_poison(LLVMGetIncomingValue(A, i)))
                    continue; /* the edge of a dead block (after a ret) */
                if (!trace_a0_r(LLVMGetIncomingValue(A, i), comp, &f, &fl, stack, depth + 1))
                    return false;
                if (!f)
                    continue;
                if (got && (got != f || glane != fl)) {
                    /* movas meet in this lane: "a0.c as it stands", the
                     * phi itself (the walk sets astate to it, need() needs
                     * every mova behind it) */
                    if (!is_a0_phi(A))
                        return false;
                    *F = A;
                    *lane = comp;
                    return true;
                }
                got = f;
                glane = fl;
            }
            *F = got;
            *lane = glane;
            return got != NULL || depth > 0;
        }
        case LLVMFPToSI:
            *F = A;
            *lane = comp;
            return true;
        case LLVMShuffleVector: {
            int m = mask_elem(A, comp);
            if (m < 0)
                return false;
            A = op_(A, m < 4 ? 0 : 1);
            comp = (unsigned)m & 3;
            continue;
        }
        case LLVMInsertElement:
            if (!const_int(op_(A, 2), &k) || (unsigned)k == comp)
                return false;
            A = op_(A, 0);
            continue;
        default:
            return false;
        }
    }
    return false;
}

static bool trace_a0(LLVMValueRef A, unsigned comp, LLVMValueRef *F, unsigned *lane)
{
    LLVMValueRef stack[8];
    *F = NULL;
    return trace_a0_r(A, comp, F, lane, stack, 0) && *F;
}

/* The float vector a to_addr conversion rounds: fptosi(clamps(floor(fpext(v) + 0.5))). */
static LLVMValueRef mova_source(LLVMValueRef F)
{
    if (opc(F) != LLVMFPToSI || !is_vec(F))
        return NULL;
    LLVMValueRef x = op_(F, 0);
    for (int g = 0; g < 8 && opc(x) == LLVMSelect; g++)
        x = op_(x, 2);
    if (!is_call_to(x, "llvm.floor") || opc(op_(x, 0)) != LLVMFAdd)
        return NULL;
    x = op_(op_(x, 0), 0);
    return opc(x) == LLVMFPExt ? op_(x, 0) : NULL;
}

/* texkill: select(x<0 | y<0 | z<0, KILLED, 0) over fcmp olt V, 0.  V or NULL. */
static LLVMValueRef kill_source(LLVMValueRef I)
{
    long long t, f;
    if (opc(I) != LLVMSelect || is_vec(I) ||
        LLVMGetTypeKind(LLVMTypeOf(I)) != LLVMIntegerTypeKind || !const_int(op_(I, 1), &t) ||
        !(t & ST_LL_STATUS_KILLED) || !const_int(op_(I, 2), &f) || f != 0)
        return NULL;
    LLVMValueRef c = op_(I, 0);
    if (opc(c) != LLVMOr || opc(op_(c, 0)) != LLVMOr)
        return NULL;
    LLVMValueRef leaf[3] = {op_(op_(c, 0), 0), op_(op_(c, 0), 1), op_(c, 1)}, F = NULL;
    for (unsigned k = 0; k < 3; k++) {
        LLVMValueRef P;
        unsigned l;
        if (!ext_of(leaf[k], &P, &l) || l != k || (F && P != F))
            return NULL;
        F = P;
    }
    LLVMValueRef a, b;
    if (!is_fcmp(F, LLVMRealOLT, &a, &b) || !const_is(b, 0.0))
        return NULL;
    return a;
}

struct relinfo {
    enum st_regfile file; /* ST_REG_CONST or ST_REG_INPUT */
    long long k;
    LLVMValueRef al;      /* the aL phi, or NULL */
    LLVMValueRef F;       /* the a0 conversion, or NULL */
    unsigned comp;        /* its lane */
    int arr;              /* ARB: the array (sh->arb->arrays) read */
};

static bool d3d_rel_read(struct sel *S, LLVMValueRef I, struct relinfo *ri);

/* A relative register index: aL (the loop's phi) or a0.c, plus a constant. */
static bool rel_index_of(LLVMValueRef idx, struct relinfo *ri)
{
    ri->k = 0;
    ri->al = ri->F = NULL;
    if (opc(idx) == LLVMAdd && const_int(op_(idx, 1), &ri->k))
        idx = op_(idx, 0);
    if (opc(idx) == LLVMPHI) {
        ri->al = idx;
        return true;
    }
    LLVMValueRef A;
    unsigned comp;
    return ext_of(idx, &A, &comp) && trace_a0(A, comp, &ri->F, &ri->comp) &&
           (mova_source(ri->F) || is_a0_phi(ri->F));
}

/*
 * ARB a[A0.x + k] (lower_llvm.c's arb_load_rel): select(inr,
 * load(c[select(inr, idx, first)]), 0) with inr = (idx - first) < count
 * (the subtraction folded away when first is 0), idx = A0.x + first + k.
 * The array is the one with that first slot and count.
 */
static bool arb_rel_read(struct sel *S, LLVMValueRef I, struct relinfo *ri)
{
    if (opc(I) != LLVMSelect || !is_vec(I) || is_vec(op_(I, 0)) || !const_is(op_(I, 2), 0.0))
        return false;
    LLVMValueRef inr = op_(I, 0), ld = op_(I, 1);
    if (opc(ld) != LLVMLoad || opc(op_(ld, 0)) != LLVMGetElementPtr ||
        LLVMGetNumOperands(op_(ld, 0)) != 2 || op_(op_(ld, 0), 0) != S->arg_c)
        return false;
    LLVMValueRef safe = op_(op_(ld, 0), 1);
    long long first, count;
    if (opc(safe) != LLVMSelect || op_(safe, 0) != inr || !const_int(op_(safe, 2), &first))
        return false;
    LLVMValueRef idx = op_(safe, 1);
    if (opc(inr) != LLVMICmp || LLVMGetICmpPredicate(inr) != LLVMIntULT ||
        !const_int(op_(inr, 1), &count))
        return false;
    LLVMValueRef off = op_(inr, 0);
    long long f2 = 0;
    /* off = idx - first, idx = X + c: instsimplify may fold the
     * subtraction ((X + first) - first is X), so off = X + c' with
     * c - c' == first is the same index */
    LLVMValueRef ix = idx, ox = off;
    long long ic = 0, oc = 0;
    if (opc(ix) == LLVMAdd && const_int(op_(ix, 1), &ic))
        ix = op_(ix, 0);
    if (opc(ox) == LLVMAdd && const_int(op_(ox, 1), &oc))
        ox = op_(ox, 0);
    if (!(first == 0 && off == idx) &&
        !(opc(off) == LLVMSub && op_(off, 0) == idx && const_int(op_(off, 1), &f2) && f2 == first) &&
        !(ix == ox && ic - oc == first))
        return false;
    ri->arr = -1;
    const struct st_arb_program *a = S->sh->arb;
    for (unsigned k = 0; k < a->num_arrays; k++)
        if (a->arrays[k].first == first && a->arrays[k].count == count)
            ri->arr = (int)k;
    if (ri->arr < 0)
        return false;
    ri->file = ST_REG_CONST;
    ri->k = 0;
    ri->al = ri->F = NULL;
    if (opc(idx) == LLVMAdd && const_int(op_(idx, 1), &ri->k))
        idx = op_(idx, 0);
    LLVMValueRef A;
    unsigned comp;
    return ext_of(idx, &A, &comp) && trace_a0(A, comp, &ri->F, &ri->comp) &&
           (mova_source(ri->F) || is_a0_phi(ri->F));
}

static bool rel_read(struct sel *S, LLVMValueRef I, struct relinfo *ri)
{
    return S->arb ? arb_rel_read(S, I, ri) : d3d_rel_read(S, I, ri);
}

/*
 * The lowering's c[aL + k], v[aL + k], c[a0.c + k]: select(inr,
 * load(base[select(inr, idx, 0)]), 0) with inr = idx < N.  D3D9 reads 0
 * outside the file, as the select does.
 */
static bool d3d_rel_read(struct sel *S, LLVMValueRef I, struct relinfo *ri)
{
    ri->arr = -1;
    if (opc(I) != LLVMSelect || !is_vec(I) || is_vec(op_(I, 0)) || !const_is(op_(I, 2), 0.0))
        return false;
    LLVMValueRef inr = op_(I, 0), ld = op_(I, 1);
    if (opc(ld) != LLVMLoad || opc(op_(ld, 0)) != LLVMGetElementPtr ||
        LLVMGetNumOperands(op_(ld, 0)) != 2)
        return false;
    LLVMValueRef base = op_(op_(ld, 0), 0);
    if (base == S->arg_c)
        ri->file = ST_REG_CONST;
    else if (base == S->arg_in)
        ri->file = ST_REG_INPUT; /* v0 is slot 0: the index is the register number */
    else
        return false;
    LLVMValueRef safe = op_(op_(ld, 0), 1);
    if (opc(safe) != LLVMSelect || op_(safe, 0) != inr)
        return false;
    LLVMValueRef idx = op_(safe, 1);
    if (opc(inr) != LLVMICmp || LLVMGetICmpPredicate(inr) != LLVMIntULT || op_(inr, 0) != idx)
        return false;
    return rel_index_of(idx, ri);
}

static bool is_i1(LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
        t = LLVMGetElementType(t);
    return LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == 1;
}

/* Lane l of an i1 constant is true. */
static bool i1_lane_true(LLVMValueRef c, unsigned l)
{
    if (LLVMIsAConstantInt(c))
        return LLVMConstIntGetZExtValue(c) == 1;
    if (!LLVMIsConstant(c) || !is_vec(c))
        return false;
    LLVMValueRef e = LLVMGetAggregateElement(c, l);
    return e && LLVMIsAConstantInt(e) && LLVMConstIntGetZExtValue(e) == 1;
}

/*
 * Lane l of a predicate value back to the setp that made it: through the
 * lowering's swizzles (shufflevector, extractelement) and "!" (xor with
 * true) down to a vector fcmp whose comparison setp has.  F, its lane k,
 * and whether the lane is negated; false otherwise (a phi of p0, ...).
 */
/* A phi of the lowering's p0 variable (mem2reg names it after the alloca). */
static bool is_p0_phi(LLVMValueRef P)
{
    size_t n = 0;
    const char *nm = opc(P) == LLVMPHI ? LLVMGetValueName2(P, &n) : NULL;
    return nm && n >= 3 && strncmp(nm, "p0.", 3) == 0 && is_vec(P) && is_i1(P);
}

static bool pred_lane_r(LLVMValueRef P, unsigned l, LLVMValueRef *F, unsigned *k, bool *neg,
                        LLVMValueRef *stack, unsigned depth)
{
    *neg = false;
    for (int g = 0; g < 32 && is_inst(P); g++) {
        long long x;
        switch (opc(P)) {
        case LLVMPHI: {
            /* p0 merged across a branch or around a loop: every incoming
             * value must hold the same setp in this lane (a lane the arm or
             * loop does not write comes back as the phi itself: nothing) */
            for (unsigned d = 0; d < depth; d++)
                if (stack[d] == P) {
                    *F = NULL;
                    return true;
                }
            if (depth >= 8)
                return false;
            stack[depth] = P;
            LLVMValueRef got = NULL;
            unsigned gk = 0;
            bool gneg = false;
            for (unsigned i = 0; i < LLVMCountIncoming(P); i++) {
                LLVMValueRef f = NULL;
                unsigned fk = 0;
                bool fneg = false;
                if (is_poison(LLVMGetIncomingValue(P, i)))
                    continue; /* the edge of a dead block (after a ret) */
                if (!pred_lane_r(LLVMGetIncomingValue(P, i), l, &f, &fk, &fneg, stack, depth + 1))
                    return false;
                if (!f)
                    continue;
                if (got && (got != f || gk != fk || gneg != fneg)) {
                    /* lanes of different setps meet: the lane is "p0.l as
                     * it stands here", the phi itself (p0_phi_lane) */
                    if (!is_p0_phi(P))
                        return false;
                    *F = P;
                    *k = l;
                    return true;
                }
                got = f;
                gk = fk;
                gneg = fneg;
            }
            bool outer = *neg;
            *F = got;
            *k = gk;
            *neg = outer != gneg;
            return got != NULL || depth > 0;
        }
        case LLVMXor:
            if (!i1_lane_true(op_(P, 1), l))
                return false;
            *neg = !*neg;
            P = op_(P, 0);
            continue;
        case LLVMShuffleVector: {
            int m = mask_elem(P, l);
            if (m < 0)
                return false;
            P = op_(P, m < 4 ? 0 : 1);
            l = (unsigned)m & 3;
            continue;
        }
        case LLVMExtractElement:
            if (!const_int(op_(P, 1), &x) || x < 0 || x > 3)
                return false;
            P = op_(P, 0);
            l = (unsigned)x;
            continue;
        case LLVMFCmp:
            if (!is_vec(P))
                return false;
            switch (LLVMGetFCmpPredicate(P)) {
            case LLVMRealOGT: case LLVMRealOEQ: case LLVMRealOGE: case LLVMRealOLT:
            case LLVMRealUNE: case LLVMRealOLE:
                break;
            default:
                return false;
            }
            *F = P;
            *k = l;
            return true;
        default:
            return false;
        }
    }
    return false;
}

static bool pred_lane(LLVMValueRef P, unsigned l, LLVMValueRef *F, unsigned *k, bool *neg)
{
    LLVMValueRef stack[8];
    *F = NULL;
    return pred_lane_r(P, l, F, k, neg, stack, 0) && *F;
}

static void need(struct sel *S, LLVMValueRef v);

/* The setps the lanes `lanes` of predicate P read: needed, writing those lanes. */
/*
 * Lane l of a p0 phi whose incoming setps differ: p0.l is read as it
 * stands, which is the original's value as long as every setp reaching it
 * writes that lane in the vector program too (its plan).  They are the
 * leaves of the phi's incoming values in lane l.
 */
static bool need_p0_phi_lane(struct sel *S, LLVMValueRef P, unsigned l, LLVMValueRef *stack,
                             unsigned depth)
{
    for (int g = 0; g < 32 && is_inst(P); g++) {
        switch (opc(P)) {
        case LLVMPHI:
            for (unsigned d = 0; d < depth; d++)
                if (stack[d] == P)
                    return true;
            if (depth >= 16)
                return false;
            stack[depth] = P;
            for (unsigned i = 0; i < LLVMCountIncoming(P); i++)
                if (!is_poison(LLVMGetIncomingValue(P, i)) &&
                    !need_p0_phi_lane(S, LLVMGetIncomingValue(P, i), l, stack, depth + 1))
                    return false;
            return true;
        case LLVMShuffleVector: {
            int m = mask_elem(P, l);
            if (m < 0)
                return false;
            P = op_(P, m < 4 ? 0 : 1);
            l = (unsigned)m & 3;
            continue;
        }
        case LLVMFCmp: {
            LLVMValueRef F;
            unsigned k;
            bool neg;
            /* the same test as pred_lane for one setp lane */
            if (!pred_lane(P, l, &F, &k, &neg) || F != P)
                return false;
            struct vinfo *e = vi(S, F);
            e->kind = VK_SETP;
            e->plan |= (uint8_t)(1u << k);
            if (!e->needed) {
                e->needed = true;
                need(S, op_(F, 0));
                need(S, op_(F, 1));
            }
            return true;
        }
        default:
            return false;
        }
    }
    return false;
}

static bool need_pred(struct sel *S, LLVMValueRef P, uint8_t lanes)
{
    bool ok = true;
    for (unsigned l = 0; l < 4; l++) {
        LLVMValueRef F;
        unsigned k;
        bool neg;
        if (!((lanes >> l) & 1))
            continue;
        if (!pred_lane(P, l, &F, &k, &neg)) {
            ok = false;
            continue;
        }
        if (opc(F) == LLVMPHI) {
            LLVMValueRef stack[16];
            if (!need_p0_phi_lane(S, F, k, stack, 0))
                ok = false;
            continue;
        }
        struct vinfo *e = vi(S, F);
        e->kind = VK_SETP;
        e->plan |= (uint8_t)(1u << k);
        if (!e->needed) {
            e->needed = true;
            need(S, op_(F, 0));
            need(S, op_(F, 1));
        }
    }
    return ok;
}

/* A branch condition that reads p0 (if p0.c, breakp, callnz on p0). */
/*
 * select(P, A, B) as "copy B, then (P) write N": A is either the new value
 * N whole, or the lowering's merge shufflevector(B, N) under a writemask,
 * whose lanes taken from B need no write.  N, the lanes written, and for
 * each lane the lane of N it takes.
 */
static void psel_parts(struct sel *S, LLVMValueRef I, LLVMValueRef *N, uint8_t *w, int map[4])
{
    LLVMValueRef A = op_(I, 1), B = op_(I, 2);
    uint8_t d = vi(S, I)->demand;
    *N = A;
    *w = d;
    for (unsigned l = 0; l < 4; l++)
        map[l] = (int)l;
    if (opc(A) != LLVMShuffleVector || op_(A, 0) != B)
        return;
    uint8_t ww = 0;
    int mm[4] = {0, 1, 2, 3};
    for (unsigned l = 0; l < 4; l++) {
        int m = mask_elem(A, l);
        if (!((d >> l) & 1) || m == (int)l)
            continue;
        if (m < 4)
            return; /* another lane of B: write A whole */
        ww |= (uint8_t)(1u << l);
        mm[l] = m - 4;
    }
    *N = op_(A, 1);
    *w = ww;
    memcpy(map, mm, sizeof(mm));
}

static bool is_pred_cond(LLVMValueRef c)
{
    LLVMValueRef F;
    unsigned k;
    bool neg;
    return is_i1(c) && !is_vec(c) && opc(c) != LLVMFCmp && pred_lane(c, 0, &F, &k, &neg);
}

static bool modview_of(struct sel *S, LLVMValueRef I, LLVMValueRef *x, unsigned *mod);

/* No modifier anywhere down a chain of views (a ps_1_x modifier takes a plain
 * register).  An fsub/fmul that is no modifier shape is an instruction, and
 * a shufflevector taking lanes from two values is a merge: both are
 * registers, whatever computed their inputs. */
static bool mod_free(struct sel *S, LLVMValueRef x)
{
    for (int g = 0; g < 16 && is_inst(x); g++) {
        LLVMValueRef y;
        unsigned m;
        switch (opc(x)) {
        case LLVMFNeg: return false;
        case LLVMFSub: case LLVMFMul: return !modview_of(S, x, &y, &m);
        case LLVMCall: return !is_call_to(x, "llvm.fabs");
        case LLVMShuffleVector: {
            bool fa = false, fb = false;
            for (unsigned i = 0; i < 4; i++) {
                int e = mask_elem(x, i);
                if (e >= 0 && e < 4)
                    fa = true;
                else if (e >= 4)
                    fb = true;
            }
            if (fa && fb && op_(x, 0) != op_(x, 1))
                return true;
            x = op_(x, fb ? 1 : 0);
            continue;
        }
        case LLVMExtractElement:
            x = op_(x, 0);
            continue;
        default: return true;
        }
    }
    return true;
}

/* ps_1_x source modifiers as the lowering spells them: x and the modifier. */
static bool modview_of(struct sel *S, LLVMValueRef I, LLVMValueRef *x, unsigned *mod)
{
    if (!S->ps1x || !is_vec(I))
        return false;
    LLVMValueRef a = op_(I, 0), b;
    switch (opc(I)) {
    case LLVMFSub:
        b = op_(I, 1);
        if (const_is(b, 0.5) && mod_free(S, a)) {
            *x = a;
            *mod = MIR_MOD_BIAS;
            return true;
        }
        if (const_is(a, 1.0) && mod_free(S, b)) {
            *x = b;
            *mod = MIR_MOD_COMP;
            return true;
        }
        return false;
    case LLVMFMul:
        b = op_(I, 1);
        if ((const_is(a, 2.0) || const_is(a, -2.0)) && opc(b) == LLVMFSub &&
            const_is(op_(b, 1), 0.5) && mod_free(S, op_(b, 0))) {
            *x = op_(b, 0);
            *mod = const_is(a, 2.0) ? MIR_MOD_BX2 : MIR_MOD_BX2NEG;
            return true;
        }
        if ((const_is(a, 2.0) || const_is(a, -2.0)) && S->ver >= ST_VER(1, 4) && mod_free(S, b)) {
            *x = b;
            *mod = const_is(a, 2.0) ? MIR_MOD_X2 : MIR_MOD_X2NEG;
            return true;
        }
        return false;
    default:
        return false;
    }
}

/*
 * v is exactly the lowering's write of an @st_opaque result: the shift and
 * the _sat of that very instruction (its register then holds v, printed
 * with the modifiers).  The call, or NULL, also for a later instruction's
 * own shift or _sat of the register (mov_x2 r0, t0 is an instruction).
 */
static LLVMValueRef opaque_root(struct sel *S, LLVMValueRef v)
{
    LLVMValueRef x = v, y, C = NULL;
    for (int g = 0; g < 2 && is_inst(x) && !C; g++) {
        if (strcmp(callee_name(x), "st_opaque") == 0)
            C = x;
        else if (match_sat(x, &y))
            x = y;
        else if (opc(x) == LLVMFMul && is_fconst(op_(x, 1)))
            x = op_(x, 0);
        else
            return NULL;
    }
    if (!C && is_inst(x) && strcmp(callee_name(x), "st_opaque") == 0)
        C = x;
    long long k;
    const struct st_instr *a = C && const_int(op_(C, 0), &k) ? ast_at(S->sh, k) : NULL;
    if (!a || C == v)
        return NULL;
    /* from the outside in: _sat, then the shift, then the call */
    x = v;
    if (a->dstmod & ST_DSTMOD_SAT) {
        if (!match_sat(x, &y))
            return NULL;
        x = y;
    }
    if (a->shift) {
        double sc = a->shift > 0 ? (double)(1 << a->shift) : 1.0 / (double)(1 << -a->shift);
        if (opc(x) != LLVMFMul || !const_is(op_(x, 1), sc))
            return NULL;
        x = op_(x, 0);
    }
    return x == C ? C : NULL;
}

static enum vkind classify(struct sel *S, LLVMValueRef I)
{
    struct vinfo *e = vi(S, I);
    if (e->kind != VK_UNSET)
        return (enum vkind)e->kind;
    enum vkind k = VK_OTHER;
    struct pat pt;
    uint8_t d = e->demand;
    if (S->ps1x && (opc(I) == LLVMFMul || opc(I) == LLVMSelect) && opaque_root(S, I)) {
        e->kind = VK_OPQVIEW;
        return VK_OPQVIEW;
    }
    switch (opc(I)) {
    case LLVMShuffleVector: {
        bool fa = false, fb = false;
        for (unsigned i = 0; i < 4; i++) {
            int m = mask_elem(I, i);
            if (!(d & (1u << i)) || m < 0)
                continue;
            if (m < 4)
                fa = true;
            else
                fb = true;
        }
        k = fa && fb && op_(I, 0) != op_(I, 1) ? VK_MERGE : VK_VIEW;
        break;
    }
    case LLVMInsertElement: {
        long long l = 0;
        if (!const_int(op_(I, 2), &l) || l < 0 || l > 3)
            break;
        k = is_poison(op_(I, 0)) || !(d & ~(1u << l)) ? VK_VIEW : VK_MERGE;
        break;
    }
    case LLVMExtractElement: {
        long long l = 0;
        k = const_int(op_(I, 1), &l) && l >= 0 && l < 4 ? VK_VIEW : VK_OTHER;
        break;
    }
    case LLVMFNeg:
        k = VK_VIEW;
        break;
    case LLVMFSub: case LLVMFMul: {
        LLVMValueRef x;
        unsigned mod;
        if (modview_of(S, I, &x, &mod)) {
            k = VK_MODVIEW;
            break;
        }
        k = match_alu(S, I, &pt) ? VK_ALU : VK_OTHER;
        break;
    }
    case LLVMPHI:
        k = LLVMGetTypeKind(LLVMTypeOf(I)) == LLVMFloatTypeKind || is_vec(I) ? VK_PHI : VK_OTHER;
        if (is_vec(I) && LLVMGetTypeKind(LLVMGetElementType(LLVMTypeOf(I))) != LLVMFloatTypeKind)
            k = is_a0_phi(I) ? VK_A0PHI : VK_OTHER;
        break;
    case LLVMLoad: {
        LLVMValueRef base;
        long long idx;
        if (is_texel_ptr(S, op_(I, 0)))
            k = VK_TEXEL;
        else if (gep_const(op_(I, 0), &base, &idx) && (base == S->arg_in || base == S->arg_c) &&
                 is_vec(I))
            k = VK_VIEW;
        break;
    }
    case LLVMFPToSI:
        k = mova_source(I) ? VK_MOVA : VK_OTHER;
        break;
    case LLVMSelect: {
        struct relinfo ri;
        uint8_t ta;
        if (const_select_lanes(I, &ta)) {
            k = VK_MERGE;
            break;
        }
        if (same_select(I)) {
            k = VK_VIEW;
            break;
        }
        if (kill_source(I)) {
            k = VK_KILL;
            break;
        }
        if (rel_read(S, I, &ri)) {
            k = VK_VIEW;
            break;
        }
        if (match_alu(S, I, &pt)) {
            k = VK_ALU;
            break;
        }
        /* a predicated write: select(p0.swz, new, old) of float vectors */
        k = is_vec(I) && is_vec(op_(I, 0)) && is_i1(op_(I, 0)) &&
                    LLVMGetTypeKind(LLVMGetElementType(LLVMTypeOf(I))) == LLVMFloatTypeKind &&
                    (S->ver >= ST_VER_2X)
                ? VK_PSEL
                : VK_OTHER;
        for (unsigned l = 0; l < 4 && k == VK_PSEL; l++) {
            LLVMValueRef F;
            unsigned kk;
            bool neg;
            if ((d >> l) & 1 && !pred_lane(op_(I, 0), l, &F, &kk, &neg))
                k = VK_OTHER; /* not p0 (a relative destination's lane select...) */
        }
        break;
    }
    case LLVMCall:
        if (is_call_to(I, "llvm.fabs") && S->v3 && !(!S->ps && reads_const_file(S, op_(I, 0), 0))) {
            k = VK_VIEW;
            break;
        }
        if (strcmp(callee_name(I), "st_opaque") == 0) {
            k = VK_OPAQUE;
            break;
        }
        /* fall through */
    default:
        if (match_alu(S, I, &pt))
            k = VK_ALU;
        break;
    }
    e->kind = (uint8_t)k;
    return k;
}

/* ------------------------------------------------------------------ */
/* 2. Need.                                                            */

static void need_ops(struct sel *S, LLVMValueRef I)
{
    unsigned n = (unsigned)LLVMGetNumOperands(I);
    for (unsigned k = 0; k < n; k++)
        need(S, op_(I, k));
}

/* The movas (and a0 phis) an a0 value is made of: the lowering's lane
 * merges of a0 (shufflevector, insertelement of i32) are no instructions
 * of their own. */
static void need_a0_value(struct sel *S, LLVMValueRef v, int depth)
{
    if (depth > 64 || !is_inst(v))
        return;
    switch (opc(v)) {
    case LLVMPHI:
        need(S, v);
        return;
    case LLVMFPToSI:
        /* a mova nothing reads would be written to a0.x (the default
         * mask of a mova without demand): only the ones some lane reads */
        if (vi(S, v)->demand)
            need(S, v);
        return;
    case LLVMShuffleVector: case LLVMInsertElement:
        need_a0_value(S, op_(v, 0), depth + 1);
        need_a0_value(S, op_(v, 1), depth + 1);
        return;
    default:
        return;
    }
}

static void need(struct sel *S, LLVMValueRef v)
{
    if (!is_inst(v))
        return;
    struct vinfo *e = vi(S, v);
    if (e->needed)
        return;
    e->needed = true;
    switch (classify(S, v)) {
    case VK_MOVA:
        if (S->arb) { /* ARL: the marker's source; the floor is ARL's own */
            LLVMValueRef m = mova_source(v);
            if (is_call_to(m, "st_op.arb:arl"))
                need(S, op_(m, 0));
            return;
        }
        need(S, mova_source(v));
        return;
    case VK_KILL:
        need(S, kill_source(v));
        return;
    case VK_VIEW:
        if (opc(v) == LLVMLoad)
            return;
        if (opc(v) == LLVMSelect && same_select(v)) {
            need(S, op_(v, 1));
            return;
        }
        if (opc(v) == LLVMSelect) {
            struct relinfo ri;
            if (rel_read(S, v, &ri) && ri.F)
                need(S, ri.F);
            return;
        }
        if (opc(v) == LLVMShuffleVector || opc(v) == LLVMInsertElement ||
            opc(v) == LLVMExtractElement) {
            need(S, op_(v, 0));
            if (opc(v) != LLVMExtractElement)
                need(S, op_(v, 1));
            return;
        }
        need(S, op_(v, 0));
        return;
    case VK_A0PHI: /* every mova (or a0 phi) behind it */
        for (unsigned i = 0; i < LLVMCountIncoming(v); i++)
            need_a0_value(S, LLVMGetIncomingValue(v, i), 0);
        return;
    case VK_MERGE:
        need(S, op_(v, opc(v) == LLVMSelect ? 2 : 0));
        need(S, op_(v, 1));
        return;
    case VK_MODVIEW: {
        LLVMValueRef x;
        unsigned mod;
        modview_of(S, v, &x, &mod);
        need(S, x);
        return;
    }
    case VK_OPQVIEW:
        need(S, opaque_root(S, v));
        return;
    case VK_OPAQUE: {
        unsigned n = (unsigned)LLVMGetNumArgOperands(v);
        for (unsigned k = 1; k < n; k++)
            need(S, op_(v, k));
        return;
    }
    case VK_PSEL: {
        LLVMValueRef N;
        uint8_t w;
        int map[4];
        psel_parts(S, v, &N, &w, map);
        need(S, op_(v, 2));
        if (w) {
            need(S, N);
            need_pred(S, op_(v, 0), w);
        }
        return;
    }
    case VK_PHI:
        for (unsigned k = 0; k < LLVMCountIncoming(v); k++)
            need(S, LLVMGetIncomingValue(v, k));
        return;
    case VK_ALU: {
        struct pat pt;
        match_alu(S, v, &pt);
        for (unsigned k = 0; k < pt.n; k++)
            need(S, pt.leaf[k]);
        return;
    }
    case VK_OTHER:
        if (opc(v) == LLVMFCmp || opc(v) == LLVMICmp || opc(v) == LLVMXor)
            need_ops(S, v);
        return;
    default:
        return;
    }
}

/* ------------------------------------------------------------------ */
/* Operands.                                                           */

static uint8_t swz_compose(uint8_t inner, const int map[4])
{
    /* result lane i reads inner lane map[i] */
    uint8_t s = 0;
    for (unsigned i = 0; i < 4; i++)
        s |= (uint8_t)(ST_SWZ_LANE(inner, (unsigned)map[i] & 3) << (2 * i));
    return s;
}

static uint8_t swz_rep(unsigned l)
{
    return (uint8_t)(l * 0x55);
}

/*
 * A free c# for a new def.  With relative constant reads in the shader the
 * search runs from the top of the file down, away from the arrays the
 * shader indexes (docs/merge.md states the assumption).
 */
static uint32_t alloc_c(struct sel *S)
{
    if (S->arb) /* a new literal: a parameter slot after the program's own */
        return S->arb_next_c < 4096 ? S->arb_next_c++ : MIR_NONE;
    if (S->has_rel_c) {
        for (uint32_t i = S->max_c; i-- > 0;)
            if (!S->c_used[i]) {
                S->c_used[i] = true;
                return i;
            }
        return MIR_NONE;
    }
    for (uint32_t i = 0; i < S->max_c; i++)
        if (!S->c_used[i]) {
            S->c_used[i] = true;
            return i;
        }
    return MIR_NONE;
}

static bool same_bits(float a, float b)
{
    return memcmp(&a, &b, sizeof(a)) == 0;
}

/* A constant (scalar, or the demanded lanes of a vector) as a c# read. */
static struct mir_src const_opnd(struct sel *S, LLVMValueRef c, uint8_t demand)
{
    struct mir_prog *p = S->p;
    float val[4] = {0, 0, 0, 0};
    uint8_t def = 0;
    unsigned n = is_vec(c) ? 4 : 1;
    for (unsigned l = 0; l < n; l++) {
        double d;
        if (n == 4 && !(demand & (1u << l)))
            continue;
        if (const_lane(c, l, &d)) {
            val[l] = (float)d;
            def |= (uint8_t)(1u << l);
        }
    }
    if (n == 1) {
        val[1] = val[2] = val[3] = val[0];
        def = def ? 0xf : 0;
    }
    for (unsigned l = 0; l < 4; l++)
        if ((def & (1u << l)) && !isfinite(val[l])) {
            /* def has no spelling for these (the printer would write 0 or
             * FLT_MAX): a vreg the prologue computes (rcp of 0 is +inf in
             * every model that has rcp; ps_1_x has none) */
            if (S->ps1x) {
                fail(S, "a NaN or infinite constant, which neither def nor an ARB literal can "
                        "state (and ps_1_x has no rcp to compute it)%s", "");
                return mir_src_fixed(ST_REG_CONST, 0, ST_SWIZZLE_IDENTITY);
            }
            for (unsigned i = 0; i < S->nnf; i++) {
                bool ok = (S->nf[i].lanes & def) == def;
                for (unsigned k = 0; k < 4 && ok; k++)
                    if ((def & (1u << k)) && !same_bits(S->nf[i].f[k], val[k]))
                        ok = false;
                if (ok)
                    return mir_src_vreg(S->nf[i].vreg, n == 1 ? 0x00 : ST_SWIZZLE_IDENTITY);
            }
            if (S->nnf == sizeof(S->nf) / sizeof(S->nf[0])) {
                fail(S, "more than 16 NaN or infinite constants%s", "");
                return mir_src_fixed(ST_REG_CONST, 0, ST_SWIZZLE_IDENTITY);
            }
            struct sel_nonfinite *e = &S->nf[S->nnf++];
            memcpy(e->f, val, sizeof(val));
            e->lanes = def;
            e->vreg = mir_new_vreg(p);
            return mir_src_vreg(e->vreg, n == 1 ? 0x00 : ST_SWIZZLE_IDENTITY);
        }
    if (S->ps1x) {
        /* ps_1_1..1_3 constants take no swizzle: whole def registers */
        for (unsigned l = 0; l < 4; l++)
            if (!(def & (1u << l)))
                val[l] = 0;
        for (unsigned i = 0; i < p->ndefs; i++) {
            bool ok = true;
            for (unsigned l = 0; l < 4; l++)
                if ((def & (1u << l)) && !same_bits(p->defs[i].f[l], val[l]))
                    ok = false;
            if (ok)
                return mir_src_fixed(ST_REG_CONST, p->defs[i].index, ST_SWIZZLE_IDENTITY);
        }
        /* one value in every lane taken: a replicate of a def's lane, where
         * the model has that replicate (.a, .b; ps_1_4 also .r, .g), before
         * a new def (the model has eight constants) */
        bool splat1 = def != 0;
        for (unsigned l = 0; l < 4; l++)
            if ((def & (1u << l)) && !same_bits(val[l], val[__builtin_ctz(def)]))
                splat1 = false;
        for (unsigned i = 0; i < p->ndefs && splat1; i++)
            for (unsigned l = S->ver >= ST_VER(1, 4) ? 0 : 2; l < 4; l++)
                if (same_bits(p->defs[i].f[l], val[__builtin_ctz(def)]))
                    return mir_src_fixed(ST_REG_CONST, p->defs[i].index, swz_rep(l));
        if (p->ndefs == p->capdefs) {
            unsigned cap = p->capdefs ? p->capdefs * 2 : 8;
            struct mir_def *nd = realloc(p->defs, sizeof(*nd) * cap);
            if (!nd) {
                fail(S, "out of memory%s", "");
                return mir_src_fixed(ST_REG_CONST, 0, ST_SWIZZLE_IDENTITY);
            }
            p->defs = nd;
            p->capdefs = cap;
        }
        uint32_t idx = alloc_c(S);
        if (idx == MIR_NONE) {
            /* all eight taken: a register past the file for now;
             * mir_place_ps1x_defs gives it one the final program does not
             * read (a def whose value only fed folded constants) */
            if (p->ndefs >= 64) {
                fail(S, "the vector program needs more constant registers than the model has%s",
                     "");
                return mir_src_fixed(ST_REG_CONST, 0, ST_SWIZZLE_IDENTITY);
            }
            idx = MIR_PS1X_VIRTUAL_C + p->ndefs;
        }
        struct mir_def *d = &p->defs[p->ndefs++];
        memset(d, 0, sizeof(*d));
        d->index = idx;
        memcpy(d->f, val, sizeof(val));
        return mir_src_fixed(ST_REG_CONST, idx, ST_SWIZZLE_IDENTITY);
    }
    bool splat = true;
    float first = 0;
    bool have = false;
    for (unsigned l = 0; l < 4; l++)
        if (def & (1u << l)) {
            if (have && !same_bits(first, val[l]))
                splat = false;
            if (!have)
                first = val[l];
            have = true;
        }
    if (!have) /* poison: any value */
        first = 0, splat = true;
    if (splat) {
        /* one lane of a shared def register */
        for (unsigned i = 0; i < p->ndefs; i++)
            for (unsigned l = 0; l < 4; l++)
                if (same_bits(p->defs[i].f[l], first))
                    return mir_src_fixed(ST_REG_CONST, p->defs[i].index, swz_rep(l));
    } else {
        for (unsigned i = 0; i < p->ndefs; i++) {
            bool ok = !p->defs[i].pool_lanes;
            for (unsigned l = 0; l < 4; l++)
                if ((def & (1u << l)) && !same_bits(p->defs[i].f[l], val[l]))
                    ok = false;
            if (ok)
                return mir_src_fixed(ST_REG_CONST, p->defs[i].index, ST_SWIZZLE_IDENTITY);
        }
    }
    /* A scalar goes into a free lane of the constant pool register. */
    if (splat && p->ndefs && p->defs[p->ndefs - 1].pool_lanes &&
        p->defs[p->ndefs - 1].pool_lanes < 4) {
        struct mir_def *d = &p->defs[p->ndefs - 1];
        unsigned l = d->pool_lanes++;
        d->f[l] = first;
        return mir_src_fixed(ST_REG_CONST, d->index, swz_rep(l));
    }
    if (p->ndefs == p->capdefs) {
        unsigned cap = p->capdefs ? p->capdefs * 2 : 8;
        struct mir_def *nd = realloc(p->defs, sizeof(*nd) * cap);
        if (!nd) {
            fail(S, "out of memory%s", "");
            return mir_src_fixed(ST_REG_CONST, 0, ST_SWIZZLE_IDENTITY);
        }
        p->defs = nd;
        p->capdefs = cap;
    }
    uint32_t idx = alloc_c(S);
    if (idx == MIR_NONE) {
        fail(S, "the vector program needs more constant registers than the model has%s", "");
        return mir_src_fixed(ST_REG_CONST, 0, ST_SWIZZLE_IDENTITY);
    }
    struct mir_def *d = &p->defs[p->ndefs++];
    memset(d, 0, sizeof(*d));
    d->index = idx;
    if (splat) {
        d->f[0] = d->f[1] = d->f[2] = d->f[3] = first;
        d->pool_lanes = 1;
        return mir_src_fixed(ST_REG_CONST, idx, swz_rep(0));
    }
    memcpy(d->f, val, sizeof(val));
    return mir_src_fixed(ST_REG_CONST, idx, ST_SWIZZLE_IDENTITY);
}

/* A whole vector constant (all four lanes as given). */
static struct mir_src const_vec(struct sel *S, const float v[4])
{
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(S->fn));
    LLVMTypeRef f32 = LLVMFloatTypeInContext(c);
    LLVMValueRef e[4];
    for (unsigned i = 0; i < 4; i++)
        e[i] = LLVMConstReal(f32, v[i]);
    return const_opnd(S, LLVMConstVector(e, 4), 0xf);
}

static bool in_reg(struct sel *S, long long slot, enum st_regfile *f, uint32_t *idx)
{
    for (int file = 0; file < ST_REG_COUNT; file++)
        for (uint32_t i = 0; i < 16; i++)
            if (st_run_in_slot((enum st_regfile)file, i) == slot) {
                if (file == ST_REG_TEXTURE && !S->ps)
                    continue;
                *f = (enum st_regfile)file;
                *idx = i;
                return true;
            }
    return false;
}

static struct mir_src opnd(struct sel *S, LLVMValueRef v);

static unsigned mod_neg(unsigned m)
{
    switch (m) {
    case MIR_MOD_NONE: return MIR_MOD_NEG;
    case MIR_MOD_NEG: return MIR_MOD_NONE;
    case MIR_MOD_ABS: return MIR_MOD_ABSNEG;
    case MIR_MOD_ABSNEG: return MIR_MOD_ABS;
    case MIR_MOD_BIAS: return MIR_MOD_BIASNEG;
    case MIR_MOD_BIASNEG: return MIR_MOD_BIAS;
    case MIR_MOD_BX2: return MIR_MOD_BX2NEG;
    case MIR_MOD_BX2NEG: return MIR_MOD_BX2;
    case MIR_MOD_X2: return MIR_MOD_X2NEG;
    case MIR_MOD_X2NEG: return MIR_MOD_X2;
    default: return 0xff; /* -(1 - x): no such modifier */
    }
}

/*
 * The aL a relative read or write sees here: the innermost `loop`'s, a
 * `rep` has none (nested in a loop, its body reads the loop's aL, as the
 * interpreter's current_aL does).  A walked loop prints as `loop aL` exactly
 * when it has an aL phi.  NULL outside every loop.
 */
static LLVMValueRef cur_al(const struct sel *S)
{
    for (unsigned k = S->nloops; k-- > 0;)
        if (S->loops[k].al)
            return S->loops[k].al;
    return NULL;
}

static struct mir_instr *emit(struct sel *S, unsigned op);

/* A view (swizzle and modifier) as a register of its own, read plain: for
 * a second modifier on top of it (ps_1_x has one per source). */
static struct mir_src copy_view(struct sel *S, struct mir_src r)
{
    uint32_t t = mir_new_vreg(S->p);
    struct mir_instr *mv = emit(S, ST_OP_MOV);
    mv->has_dst = true;
    mv->dst = (struct mir_dst){.kind = MIR_VREG, .mask = 0xf, .vreg = t};
    mv->nsrc = 1;
    mv->src[0] = r;
    return mir_src_vreg(t, ST_SWIZZLE_IDENTITY);
}

static struct mir_src view_opnd(struct sel *S, LLVMValueRef I)
{
    struct vinfo *e = vi(S, I);
    struct mir_src r;
    switch (opc(I)) {
    case LLVMShuffleVector: {
        /* one source: lanes reordered */
        int map[4], first = -1;
        bool from_b = false;
        for (unsigned i = 0; i < 4; i++) {
            int m = mask_elem(I, i);
            map[i] = -1;
            if (m < 0 || !(e->demand & (1u << i)))
                continue;
            if (m >= 4)
                from_b = true;
            map[i] = m & 3;
            if (first < 0)
                first = m & 3;
        }
        if (first < 0)
            first = 0;
        for (unsigned i = 0; i < 4; i++)
            if (map[i] < 0)
                map[i] = first;
        LLVMValueRef src = op_(I, from_b ? 1 : 0);
        if (is_poison(src))
            return const_opnd(S, LLVMConstNull(LLVMTypeOf(I)), 0xf);
        r = opnd(S, src);
        r.swz = swz_compose(r.swz, map);
        return r;
    }
    case LLVMExtractElement: {
        long long l = 0;
        const_int(op_(I, 1), &l);
        r = opnd(S, op_(I, 0));
        r.swz = swz_rep(ST_SWZ_LANE(r.swz, (unsigned)l));
        return r;
    }
    case LLVMInsertElement: /* only lane l is demanded, or the rest is poison */
        return opnd(S, op_(I, 1));
    case LLVMFNeg:
        r = opnd(S, op_(I, 0));
        if (mod_neg(r.mod) == 0xff) /* -(1 - x): the complement is a mov */
            r = copy_view(S, r);
        r.mod = (uint8_t)mod_neg(r.mod);
        return r;
    case LLVMSelect: {
        if (same_select(I))
            return opnd(S, op_(I, 1));
        struct relinfo ri;
        rel_read(S, I, &ri);
        if (S->arb ? (ri.k < INT32_MIN || ri.k > INT32_MAX) : (ri.k < 0 || ri.k > 255)) {
            fail(S, "a relative address with a negative or large offset%s", "");
            return mir_src_fixed(ST_REG_CONST, 0, ST_SWIZZLE_IDENTITY);
        }
        r = mir_src_fixed(ri.file, (uint32_t)ri.k, ST_SWIZZLE_IDENTITY);
        if (ri.arr >= 0)
            r.arr1 = (uint16_t)(ri.arr + 1);
        if (ri.al) {
            if (cur_al(S) != ri.al) {
                fail(S, "a relative address with aL of a loop that is not the innermost%s", "");
                return r;
            }
            r.rel = 1;
        } else {
            if (!vi(S, ri.F)->have_op && !is_a0_phi(ri.F)) {
                fail(S, "a relative address through a0 before its mova%s", "");
                return r;
            }
            /* a view is read where it is used: a0 must still hold that mova */
            if (S->astate[ri.comp & 3] != ri.F) {
                fail(S, "a relative read through a0 used after a0 changed%s", "");
                return r;
            }
            r.rel = (uint8_t)(2 + ri.comp);
        }
        return r;
    }
    case LLVMCall: /* fabs in the 3_0 models: the _abs modifier */
        r = opnd(S, op_(I, 0));
        r.mod = MIR_MOD_ABS;
        return r;
    case LLVMLoad: {
        LLVMValueRef base;
        long long k;
        gep_const(op_(I, 0), &base, &k);
        if (S->arb) {
            /* ARB: input slot k is arb->inputs[k], c[k] is arb->params[k] */
            const struct st_arb_program *a = S->sh->arb;
            bool in = base == S->arg_in;
            if (k < 0 || (uint64_t)k >= (in ? a->num_inputs : a->num_params) ||
                (!in && base != S->arg_c)) {
                fail(S, "an ARB input or parameter slot the program does not have%s", "");
                return mir_src_fixed(ST_REG_CONST, 0, ST_SWIZZLE_IDENTITY);
            }
            return mir_src_fixed(in ? ST_REG_INPUT : ST_REG_CONST, (uint32_t)k,
                                 ST_SWIZZLE_IDENTITY);
        }
        if (base == S->arg_c) {
            if (k < 0 || k >= 256) {
                fail(S, "a constant register out of range%s", "");
                return mir_src_fixed(ST_REG_CONST, 0, ST_SWIZZLE_IDENTITY);
            }
            return mir_src_fixed(ST_REG_CONST, (uint32_t)k, ST_SWIZZLE_IDENTITY);
        }
        enum st_regfile f;
        uint32_t idx;
        if (!in_reg(S, k, &f, &idx)) {
            fail(S, "an input slot with no register%s", "");
            return mir_src_fixed(ST_REG_INPUT, 0, ST_SWIZZLE_IDENTITY);
        }
        return mir_src_fixed(f, idx, ST_SWIZZLE_IDENTITY);
    }
    default:
        fail(S, "an LLVM value the vector back end cannot read%s", "");
        return mir_src_fixed(ST_REG_CONST, 0, ST_SWIZZLE_IDENTITY);
    }
}

static struct mir_src opnd(struct sel *S, LLVMValueRef v)
{
    if (!is_inst(v)) {
        if (is_fconst(v) || is_poison(v))
            return const_opnd(S, v, is_vec(v) ? 0xf : 1);
        fail(S, "an LLVM operand the vector back end cannot read%s", "");
        return mir_src_fixed(ST_REG_CONST, 0, ST_SWIZZLE_IDENTITY);
    }
    struct vinfo *e = vi(S, v);
    if (e->have_op)
        return e->op;
    if (classify(S, v) == VK_OPQVIEW)
        return opnd(S, opaque_root(S, v));
    if (classify(S, v) == VK_MODVIEW) {
        LLVMValueRef x;
        unsigned mod;
        modview_of(S, v, &x, &mod);
        struct mir_src r = opnd(S, x);
        if (r.mod != MIR_MOD_NONE) /* one modifier per source: the inner one is a mov */
            r = copy_view(S, r);
        r.mod = (uint8_t)mod;
        return r;
    }
    if (classify(S, v) == VK_VIEW) {
        struct mir_src r = view_opnd(S, v);
        /* constants depend on the demand of each use: do not cache those */
        return r;
    }
    fail(S, "an LLVM value used before the vector back end selected it (%s)",
         LLVMGetValueName(v));
    return mir_src_fixed(ST_REG_CONST, 0, ST_SWIZZLE_IDENTITY);
}

/* ------------------------------------------------------------------ */
/* 3. Emission.                                                        */

static struct mir_instr *emit(struct sel *S, unsigned op)
{
    struct mir_instr *in = mir_append(S->p);
    if (!in) {
        if (!S->failed) /* (out of memory, not "not supported") */
            st_error(S->ctx, S->sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
        S->failed = true;
        memset(&S->oom_scratch, 0, sizeof(S->oom_scratch));
        return &S->oom_scratch;
    }
    in->op = (uint16_t)op;
    /* a0 lanes written inside a construct are unknown after it */
    if (op == ST_OP_ELSE || op == ST_OP_ENDIF || op == ST_OP_ENDREP || op == ST_OP_ENDLOOP)
        for (unsigned l = 0; l < 4; l++) {
            if (S->astate[l] && S->adepth[l] >= S->depth)
                S->astate[l] = NULL;
        }
    if (op == ST_OP_IF || op == ST_OP_IFC || op == ST_OP_REP || op == ST_OP_LOOP)
        S->depth++;
    else if ((op == ST_OP_ENDIF || op == ST_OP_ENDREP || op == ST_OP_ENDLOOP) && S->depth)
        S->depth--;
    return in;
}

/*
 * The predicate source for lanes `lanes` of P: p0 with a swizzle, and "!".
 * Each lane l is read as p0.k stands here, k the lane pred_lane traces it
 * to (one setp F, or a p0 phi of several).  That is the original's value:
 * setps are the only writes of p0, each is emitted where the original's
 * stands and writes a subset of its lanes (its plan: lanes p0 reads of it
 * take), paths are the original's, and need_pred put k in the plan of F
 * (or of every setp behind the phi).  So the last setp writing p0.k on any
 * path to here is the same in both programs, the SSA value traced.  No
 * walk-order tracking is needed (it refused a lane set before an if or
 * loop that the walk had forgotten, fuzz seeds 246, 560, ...).
 */
static bool pred_src(struct sel *S, LLVMValueRef P, uint8_t lanes, uint8_t *swz, bool *not)
{
    int first = -1;
    uint8_t sw = 0;
    bool have_neg = false, neg0 = false;
    for (unsigned l = 0; l < 4; l++) {
        LLVMValueRef F;
        unsigned k;
        bool neg;
        if (!((lanes >> l) & 1))
            continue;
        if (!pred_lane(P, l, &F, &k, &neg))
            return false;
        if (have_neg && neg != neg0)
            return false; /* one "!" for the whole predicate */
        have_neg = true;
        neg0 = neg;
        if (first < 0)
            first = (int)k;
        sw |= (uint8_t)(k << (2 * l));
    }
    for (unsigned l = 0; l < 4; l++)
        if (!((lanes >> l) & 1))
            sw |= (uint8_t)((unsigned)(first < 0 ? 0 : first) << (2 * l));
    *swz = sw;
    *not = neg0;
    return true;
}

static uint8_t lanes_of(struct sel *S, LLVMValueRef v)
{
    struct vinfo *e = vi(S, v);
    return is_vec(v) ? e->demand : (uint8_t)(1u << e->home);
}

static void set_result(struct sel *S, LLVMValueRef v, uint32_t vreg)
{
    struct vinfo *e = vi(S, v);
    e->op = mir_src_vreg(vreg, is_vec(v) ? ST_SWIZZLE_IDENTITY : swz_rep(e->home));
    e->have_op = true;
}

/* An operand as a plain register: views with a modifier become a mov. */
static struct mir_src plain(struct sel *S, struct mir_src s, uint8_t lanes)
{
    if (s.mod == MIR_MOD_NONE)
        return s;
    uint32_t t = mir_new_vreg(S->p);
    struct mir_instr *in = emit(S, ST_OP_MOV);
    in->has_dst = true;
    in->dst = (struct mir_dst){.kind = MIR_VREG, .mask = lanes, .vreg = t};
    in->nsrc = 1;
    in->src[0] = s;
    return mir_src_vreg(t, ST_SWIZZLE_IDENTITY);
}

static void emit_alu(struct sel *S, LLVMValueRef I)
{
    struct pat pt;
    if (!match_alu(S, I, &pt)) {
        fail(S, "an LLVM instruction with no instruction in this shader model%s", "");
        return;
    }
    uint32_t d = mir_new_vreg(S->p);
    struct mir_src src[4];
    for (unsigned k = 0; k < pt.n; k++)
        src[k] = opnd(S, pt.leaf[k]);
    if (pt.op == ST_OP_ABS && src[0].mod != MIR_MOD_NONE)
        src[0] = plain(S, src[0], 0xf);
    /* crs takes its sources without a swizzle: a swizzled view is copied
     * (x, y, z: what crs reads; its modifier goes with it) */
    for (unsigned k = 0; pt.op == ST_OP_CRS && k < 2 && k < pt.n; k++)
        if (src[k].swz != ST_SWIZZLE_IDENTITY) {
            uint32_t t = mir_new_vreg(S->p);
            struct mir_instr *mv = emit(S, ST_OP_MOV);
            mv->has_dst = true;
            mv->dst = (struct mir_dst){.kind = MIR_VREG, .mask = 0x7, .vreg = t};
            mv->nsrc = 1;
            mv->src[0] = src[k];
            src[k] = mir_src_vreg(t, ST_SWIZZLE_IDENTITY);
        }
    struct mir_instr *in = emit(S, pt.op);
    in->sat = pt.sat;
    in->shift = pt.shift;
    in->has_dst = true;
    in->dst = (struct mir_dst){.kind = MIR_VREG, .mask = lanes_of(S, I), .vreg = d};
    if (pt.op == ST_OP_NRM && S->ps)
        in->dst.mask = 0x7; /* the pixel models write .xyz */
    in->nsrc = pt.n;
    for (unsigned k = 0; k < pt.n; k++)
        in->src[k] = src[k];
    if (pt.op == ST_OP_ARB_SWZ) {
        for (unsigned l = 0; l < 4; l++)
            in->swz_sel[l] = (uint8_t)((pt.imm[0] >> (3 * l)) & 7);
        in->swz_neg = (uint8_t)(pt.imm[1] & 0xf);
    }
    if (pt.op == ST_OP_ARB_TEX || pt.op == ST_OP_ARB_TXP || pt.op == ST_OP_ARB_TXB) {
        in->tex_target = (uint8_t)pt.imm[1];
        in->src[in->nsrc] = mir_src_fixed(ST_REG_SAMPLER, (uint32_t)pt.imm[0], ST_SWIZZLE_IDENTITY);
        in->nsrc++;
    }
    if (pt.op == ST_OP_SGN) {
        /* sgn names two scratch temporaries it may clobber (the checker asks
         * for them in vs_3_0 too): registers of their own (liveness keeps
         * them apart from the rest) */
        in->nsrc = 3;
        in->src[1] = mir_src_vreg(mir_new_vreg(S->p), ST_SWIZZLE_IDENTITY);
        in->src[2] = mir_src_vreg(mir_new_vreg(S->p), ST_SWIZZLE_IDENTITY);
    }
    if (pt.op == ST_OP_SINCOS && S->ver < ST_VER(3, 0)) {
        /* D3DSINCOSCONST1/2: the 2_0 models name them (the values are the
         * documented ones; the result does not depend on them here) */
        static const float k1[4] = {-1.5500992e-006f, -2.1701389e-005f, 0.0026041667f,
                                    0.00026041668f};
        static const float k2[4] = {-0.020833334f, -0.12500000f, 1.0f, 0.50000000f};
        in->nsrc = 3;
        in->src[1] = const_vec(S, k1);
        in->src[2] = const_vec(S, k2);
    }
    set_result(S, I, d);
}

/* Merge input: operand of v for the destination lanes `lanes`, lane i reading lane map[i]. */
static void merge_input(struct sel *S, struct mir_instr *in, LLVMValueRef v, uint8_t lanes,
                        const int map[4])
{
    if (!lanes)
        return;
    struct mir_src s;
    if (is_fconst(v) || is_poison(v)) {
        /* constant lanes: a vector of the lanes taken, in place */
        LLVMValueRef e[4];
        LLVMTypeRef ft = LLVMFloatTypeInContext(LLVMGetTypeContext(LLVMTypeOf(v)));
        for (unsigned i = 0; i < 4; i++) {
            double d = 0;
            if ((lanes & (1u << i)) && is_vec(v))
                const_lane(v, (unsigned)map[i], &d);
            else if (lanes & (1u << i))
                const_lane(v, 0, &d);
            e[i] = LLVMConstReal(ft, d);
        }
        s = const_opnd(S, LLVMConstVector(e, 4), lanes);
    } else {
        s = opnd(S, v);
        s.swz = swz_compose(s.swz, map);
    }
    unsigned k = in->nsrc++;
    in->src[k] = s;
    in->lanes[k] = lanes;
    in->dst.mask |= lanes;
}

static void emit_merge(struct sel *S, LLVMValueRef I)
{
    uint8_t d = vi(S, I)->demand;
    uint32_t dv = mir_new_vreg(S->p);
    int map_a[4], map_b[4];
    uint8_t la = 0, lb = 0;
    LLVMValueRef a = op_(I, 0), b = op_(I, 1);
    uint8_t ta;
    if (const_select_lanes(I, &ta)) {
        a = op_(I, 1);
        b = op_(I, 2);
        for (unsigned i = 0; i < 4; i++)
            map_a[i] = map_b[i] = (int)i;
        la = (uint8_t)(d & ta);
        lb = (uint8_t)(d & ~ta);
    } else if (opc(I) == LLVMShuffleVector) {
        for (unsigned i = 0; i < 4; i++) {
            int m = mask_elem(I, i);
            map_a[i] = map_b[i] = (int)i;
            if (!(d & (1u << i)) || m < 0)
                continue;
            if (m < 4) {
                la |= (uint8_t)(1u << i);
                map_a[i] = m;
            } else {
                lb |= (uint8_t)(1u << i);
                map_b[i] = m - 4;
            }
        }
    } else {
        long long l = 0;
        const_int(op_(I, 2), &l);
        for (unsigned i = 0; i < 4; i++)
            map_a[i] = (int)i, map_b[i] = 0;
        la = (uint8_t)(d & ~(1u << l));
        lb = (uint8_t)(d & (1u << l));
    }
    struct mir_instr tmp = {0};
    tmp.op = MIR_OP_MERGE;
    tmp.has_dst = true;
    tmp.dst = (struct mir_dst){.kind = MIR_VREG, .mask = 0, .vreg = dv};
    merge_input(S, &tmp, a, la, map_a);
    merge_input(S, &tmp, b, lb, map_b);
    struct mir_instr *in = emit(S, MIR_OP_MERGE);
    *in = tmp;
    S->stats->merges_in++;
    set_result(S, I, dv);
}

/* Lane l of v traced through shufflevectors that read one value: the
 * value (*b) and its lane (*bl) that lane comes from. */
static void shuffle_root(LLVMValueRef v, unsigned l, LLVMValueRef *b, unsigned *bl)
{
    for (int g = 0; g < 16 && opc(v) == LLVMShuffleVector; g++) {
        int m = mask_elem(v, l);
        if (m < 0 || m > 7)
            break;
        v = op_(v, m < 4 ? 0 : 1);
        l = (unsigned)m & 3;
    }
    *b = v;
    *bl = l;
}

/* texldp: the lowering divides x, y, z by w before sampling.  C or NULL. */
static LLVMValueRef texldp_coords(LLVMValueRef call)
{
    LLVMValueRef X = NULL;
    for (unsigned k = 0; k < 3; k++) {
        LLVMValueRef P;
        unsigned l;
        if (!ext_of(op_(call, 2 + k), &P, &l) || l != k || (X && P != X))
            return NULL;
        X = P;
    }
    if (opc(X) != LLVMShuffleVector)
        return NULL;
    for (unsigned i = 0; i < 3; i++)
        if (mask_elem(X, i) != (int)i)
            return NULL;
    LLVMValueRef Q = op_(X, 0);
    if (opc(Q) != LLVMFDiv || opc(op_(Q, 1)) != LLVMShuffleVector)
        return NULL;
    LLVMValueRef C = op_(Q, 0), W = op_(Q, 1);
    /* every lane of W is lane w of C (traced through single-source
     * shuffles: instsimplify folds the splat of w of a splatted
     * coordinate, texldp r0, r1.xxxx, into the coordinate itself) */
    LLVMValueRef wb;
    unsigned wl;
    shuffle_root(C, 3, &wb, &wl);
    for (unsigned i = 0; i < 4; i++) {
        LLVMValueRef b;
        unsigned l;
        shuffle_root(W, i, &b, &l);
        if (b != wb || l != wl)
            return NULL;
    }
    return C;
}

static void emit_sample(struct sel *S, LLVMValueRef call)
{
    long long stage;
    if (!const_int(op_(call, 1), &stage) || stage < 0 || stage > 15) {
        fail(S, "a texture stage that is not a constant%s", "");
        return;
    }
    LLVMValueRef pc = texldp_coords(call);
    if (pc) {
        struct mir_src co = opnd(S, pc);
        if (co.mod != MIR_MOD_NONE || co.swz != ST_SWIZZLE_IDENTITY ||
            (co.kind == MIR_FIXED && co.file == ST_REG_CONST)) {
            uint32_t t = mir_new_vreg(S->p);
            struct mir_instr *mv = emit(S, ST_OP_MOV);
            mv->has_dst = true;
            mv->dst = (struct mir_dst){.kind = MIR_VREG, .mask = 0xf, .vreg = t};
            mv->nsrc = 1;
            mv->src[0] = co;
            co = mir_src_vreg(t, ST_SWIZZLE_IDENTITY);
        }
        uint32_t d = mir_new_vreg(S->p);
        struct mir_instr *in = emit(S, ST_OP_TEXLDP);
        in->has_dst = true;
        in->dst = (struct mir_dst){.kind = MIR_VREG, .mask = 0xf, .vreg = d};
        in->nsrc = 2;
        in->src[0] = co;
        in->src[1] = mir_src_fixed(ST_REG_SAMPLER, (uint32_t)stage, ST_SWIZZLE_IDENTITY);
        S->last_texel = mir_src_vreg(d, ST_SWIZZLE_IDENTITY);
        S->have_texel = true;
        return;
    }
    /* coordinates: lanes 0..2 of one vector, else gathered with movs; a 2D
     * sampler reads x and y only (the interpreter's rule), so z is free */
    bool two_d = false;
    for (const struct st_instr *i = S->sh->first; i && S->ps; i = i->next)
        if (i->op == ST_OP_DCL && i->dst.reg.file == ST_REG_SAMPLER &&
            i->dst.reg.index == (uint32_t)stage && i->sampler_type == ST_SAMPLER_2D)
            two_d = true;
    struct mir_src c[3];
    for (unsigned k = 0; k < 3; k++)
        c[k] = opnd(S, op_(call, 2 + (two_d && k == 2 ? 1 : k)));
    if (two_d)
        c[2].swz = c[1].swz;
    struct mir_src coord;
    bool one = true;
    for (unsigned k = 0; k < 3; k++)
        if (c[k].kind != c[0].kind || c[k].vreg != c[0].vreg || c[k].file != c[0].file ||
            c[k].index != c[0].index || c[k].mod != MIR_MOD_NONE)
            one = false;
    if (one) {
        coord = c[0];
        unsigned l0 = ST_SWZ_LANE(c[0].swz, 0), l1 = ST_SWZ_LANE(c[1].swz, 0),
                 l2 = ST_SWZ_LANE(c[2].swz, 0);
        if (two_d && l0 == 0 && l1 == 1)
            l2 = 2; /* any lane: the one that keeps .xyz plain */
        coord.swz = (uint8_t)(l0 | (l1 << 2) | (l2 << 4) | (l2 << 6));
    } else {
        uint32_t t = mir_new_vreg(S->p);
        struct mir_instr *in = emit(S, MIR_OP_MERGE);
        in->has_dst = true;
        in->dst = (struct mir_dst){.kind = MIR_VREG, .mask = two_d ? 0x3 : 0x7, .vreg = t};
        in->nsrc = two_d ? 2 : 3;
        for (unsigned k = 0; k < in->nsrc; k++) {
            in->src[k] = c[k];
            unsigned l = ST_SWZ_LANE(c[k].swz, 0);
            in->src[k].swz = (uint8_t)(l * 0x55);
            in->lanes[k] = (uint8_t)(1u << k);
        }
        S->stats->merges_in++;
        coord = mir_src_vreg(t, ST_SWIZZLE(0, 1, 2, 2));
    }
    /* texld takes no swizzle before ps_2_x and no modifier: copy it to a register */
    bool swz_ok = S->ver >= ST_VER_2X || coord.swz == ST_SWIZZLE_IDENTITY ||
                  (coord.swz & 0x3f) == (ST_SWIZZLE_IDENTITY & 0x3f);
    if (coord.mod != MIR_MOD_NONE || !swz_ok || (coord.kind == MIR_FIXED &&
                                                  coord.file == ST_REG_CONST)) {
        uint32_t t = mir_new_vreg(S->p);
        struct mir_instr *in = emit(S, ST_OP_MOV);
        in->has_dst = true;
        in->dst = (struct mir_dst){.kind = MIR_VREG, .mask = two_d ? 0x3 : 0xf, .vreg = t};
        in->nsrc = 1;
        in->src[0] = coord;
        coord = mir_src_vreg(t, ST_SWIZZLE_IDENTITY);
    }
    if ((coord.swz & 0x3f) == (ST_SWIZZLE_IDENTITY & 0x3f))
        coord.swz = ST_SWIZZLE_IDENTITY;
    uint32_t d = mir_new_vreg(S->p);
    /* vertex shaders fetch with texldl (level 0: the lod lane does not matter) */
    struct mir_instr *in = emit(S, S->ps ? ST_OP_TEXLD : ST_OP_TEXLDL);
    in->has_dst = true;
    in->dst = (struct mir_dst){.kind = MIR_VREG, .mask = 0xf, .vreg = d};
    in->nsrc = 2;
    in->src[0] = coord;
    in->src[1] = mir_src_fixed(ST_REG_SAMPLER, (uint32_t)stage, ST_SWIZZLE_IDENTITY);
    S->last_texel = mir_src_vreg(d, ST_SWIZZLE_IDENTITY);
    S->have_texel = true;
}

/* A status value that can only carry ST_LL_STATUS_RELADDR_RANGE: the
 * interpreter derives that warning from the vector program itself. */
static bool status_reladdr_only(struct sel *S, LLVMValueRef v, int depth)
{
    if (depth > 200)
        return false;
    if (LLVMIsAConstantInt(v))
        return (LLVMConstIntGetZExtValue(v) & ST_LL_STATUS_KILLED) == 0;
    /* poison (mem2reg's value of the status on an edge that never wrote
     * it, e.g. a loop phi): no texkill stands behind it */
    if (is_poison(v))
        return true;
    if (!is_inst(v))
        return false;
    struct vinfo *e = vi(S, v);
    if (e->mark)
        return true; /* a cycle through a loop phi: decided by the other operands */
    e->mark = true;
    bool ok;
    switch (opc(v)) {
    case LLVMPHI:
        ok = true;
        for (unsigned k = 0; k < LLVMCountIncoming(v) && ok; k++)
            ok = status_reladdr_only(S, LLVMGetIncomingValue(v, k), depth + 1);
        break;
    case LLVMOr:
        ok = status_reladdr_only(S, op_(v, 0), depth + 1) &&
             status_reladdr_only(S, op_(v, 1), depth + 1);
        break;
    case LLVMSelect:
        if (kill_source(v)) {
            ok = true; /* a texkill, emitted where it stands */
            break;
        }
        ok = status_reladdr_only(S, op_(v, 1), depth + 1) &&
             status_reladdr_only(S, op_(v, 2), depth + 1);
        break;
    case LLVMLoad: /* the status alloca of the lowering, if it was not promoted */
    default:
        ok = false;
    }
    e->mark = false;
    return ok;
}

static void emit_store(struct sel *S, LLVMValueRef st)
{
    LLVMValueRef val = op_(st, 0), base;
    long long k;
    if (gep_const(op_(st, 1), &base, &k) && base == S->arg_status) {
        if (status_reladdr_only(S, val, 0))
            return;
        fail(S, "a run-time status (texkill, relative address checks)%s", "");
        return;
    }
    int slot = out_slot_of_store(S, st);
    if (slot < 0) {
        fail(S, "a store the vector back end does not know%s", "");
        return;
    }
    if (S->arb) {
        /* result.* j is output slot j; lanes still 0 need no write */
        if ((unsigned)slot >= S->sh->arb->num_outputs) {
            fail(S, "an output slot the program never names%s", "");
            return;
        }
        uint8_t m = (uint8_t)(0xf & ~zero_lanes(val));
        struct mir_instr tmp = {0};
        tmp.op = ST_OP_MOV;
        tmp.has_dst = true;
        tmp.dst = (struct mir_dst){.kind = MIR_FIXED, .mask = m ? m : 0xf, .file = ST_REG_OUTPUT,
                                   .index = (uint32_t)slot, .vreg = MIR_NONE};
        tmp.nsrc = 1;
        tmp.src[0] = opnd(S, val);
        struct mir_instr *in = emit(S, ST_OP_MOV);
        *in = tmp;
        return;
    }
    if (S->ps1x && slot == ST_LL_OUT_DEPTH)
        return; /* texdepth / texm3x2depth, printed as written, write it */
    if (S->ps1x && slot == ST_LL_OUT_C) {
        /* ps_1_x: the colour is r0 at the end: a vreg pinned to r0, live at the exit */
        if (S->p->npins >= 16 || S->p->nexit_live >= 4) {
            fail(S, "too many pinned registers%s", "");
            return;
        }
        uint32_t d = mir_new_vreg(S->p);
        S->p->pins[S->p->npins].vreg = d;
        S->p->pins[S->p->npins++].reg = 0;
        S->p->exit_live[S->p->nexit_live++] = d;
        if (zero_lanes(val) == 0xf)
            return; /* r0 never written: it still holds its first value, 0 */
        struct mir_src v = opnd(S, val);
        struct mir_instr *in = emit(S, ST_OP_MOV);
        in->has_dst = true;
        in->dst = (struct mir_dst){.kind = MIR_VREG, .mask = 0xf, .vreg = d};
        in->nsrc = 1;
        in->src[0] = v;
        return;
    }
    if (!S->out_known[slot]) {
        fail(S, "an output slot the shader never names%s", "");
        return;
    }
    uint8_t mask = slot == ST_LL_OUT_FOG || slot == ST_LL_OUT_PTS || slot == ST_LL_OUT_DEPTH
                       ? 0x1
                       : (uint8_t)(0xf & ~zero_lanes(val));
    if (S->ps && slot != ST_LL_OUT_DEPTH)
        mask = 0xf; /* pixel colour outputs are written whole */
    if (!mask)
        mask = 0xf; /* written, all zero: it is still an output of the shader */
    struct mir_instr tmp = {0};
    tmp.op = ST_OP_MOV;
    tmp.has_dst = true;
    tmp.dst = (struct mir_dst){.kind = MIR_FIXED, .mask = mask, .file = S->out_file[slot],
                               .index = S->out_index[slot], .vreg = MIR_NONE};
    tmp.nsrc = 1;
    tmp.src[0] = opnd(S, val);
    struct mir_instr *in = emit(S, ST_OP_MOV);
    *in = tmp;
}

static bool fcmp_to_d3d(LLVMRealPredicate p, enum st_compare *c);

/*
 * A ps_1_x texture-phase instruction, printed again as written: its t#
 * registers stay (the texture stage is the register number), a temporary
 * it writes (ps_1_4 texld r#) is a vreg pinned to that register, and the
 * temporaries it reads are the vregs holding those values.
 */
static void emit_opaque(struct sel *S, LLVMValueRef I)
{
    long long k;
    const struct st_instr *a = NULL;
    if (const_int(op_(I, 0), &k))
        a = ast_at(S->sh, k);
    if (!a || a->predicated || a->coissue) {
        fail(S, "a ps_1_x texture instruction with modifiers the vector back end keeps%s", "");
        return;
    }
    bool writes = !(a->op == ST_OP_TEXKILL || a->op == ST_OP_TEXDEPTH || a->op == ST_OP_PHASE) &&
                  a->has_dst;
    unsigned n = (unsigned)LLVMGetNumArgOperands(I);
    struct mir_instr tmp = {0};
    tmp.op = MIR_OP_OPAQUE;
    tmp.ast = a;
    for (unsigned j = 1; j < n && tmp.nsrc < 4; j++) {
        const struct st_reg *r = !writes && a->has_dst ? (j == 1 ? &a->dst.reg : &a->src[j - 2].reg)
                                                       : &a->src[j - 1].reg;
        struct mir_src s = mir_src_fixed(r->file, r->index, ST_SWIZZLE_IDENTITY);
        uint8_t rl = opaque_lanes(S->sh, I, j);
        tmp.lanes[tmp.nsrc] = rl;
        if (r->file == ST_REG_TEMP && zero_lanes(op_(I, j)) == 0xf) {
            /* the register's first value (+0.0): a vreg nothing writes,
             * in that register, read before anything else uses it */
            uint32_t t = mir_new_vreg(S->p);
            if (S->p->npins >= 16) {
                fail(S, "too many pinned registers%s", "");
                return;
            }
            S->p->pins[S->p->npins].vreg = t;
            S->p->pins[S->p->npins++].reg = r->index;
            s = mir_src_vreg(t, ST_SWIZZLE_IDENTITY);
        } else if (r->file == ST_REG_TEMP) {
            s = opnd(S, op_(I, j));
            bool pin5 = a->op == ST_OP_TEXDEPTH; /* texdepth names r5 only */
            if (s.kind != MIR_VREG || s.mod != MIR_MOD_NONE || !agrees(s.swz, ST_SWIZZLE_IDENTITY, rl) ||
                pin5) {
                /* a value that is not a whole register: give it one (before
                 * the phase marker: ps_1_4 texture instructions come first) */
                uint32_t t = mir_new_vreg(S->p);
                struct mir_instr *mv = emit(S, ST_OP_MOV);
                if (S->phase_at != MIR_NONE && S->phase_at < S->p->n - 1) {
                    struct mir_instr *ins = S->p->ins;
                    unsigned at = S->phase_at, last = S->p->n - 1;
                    struct mir_instr keep = ins[last];
                    memmove(&ins[at + 1], &ins[at], sizeof(*ins) * (last - at));
                    ins[at] = keep;
                    mv = &ins[at];
                    S->phase_at++;
                }
                if (pin5) {
                    if (S->p->npins >= 16) {
                        fail(S, "too many pinned registers%s", "");
                        return;
                    }
                    S->p->pins[S->p->npins].vreg = t;
                    S->p->pins[S->p->npins++].reg = r->index;
                }
                mv->has_dst = true;
                mv->dst = (struct mir_dst){.kind = MIR_VREG, .mask = rl, .vreg = t};
                mv->nsrc = 1;
                mv->src[0] = s;
                s = mir_src_vreg(t, ST_SWIZZLE_IDENTITY);
            }
        }
        tmp.src[tmp.nsrc++] = s;
    }
    if (writes) {
        tmp.has_dst = true;
        uint8_t m = a->dst.writemask ? a->dst.writemask : 0xf;
        if (a->dst.reg.file == ST_REG_TEMP) {
            if (S->p->npins >= 16) {
                fail(S, "too many ps_1_4 texture results%s", "");
                return;
            }
            uint32_t d = mir_new_vreg(S->p);
            S->p->pins[S->p->npins].vreg = d;
            S->p->pins[S->p->npins++].reg = a->dst.reg.index;
            tmp.dst = (struct mir_dst){.kind = MIR_VREG, .mask = m, .vreg = d};
            set_result(S, I, d);
        } else {
            tmp.dst = (struct mir_dst){.kind = MIR_FIXED, .mask = m, .file = a->dst.reg.file,
                                       .index = a->dst.reg.index, .vreg = MIR_NONE};
            struct vinfo *e = vi(S, I);
            e->op = mir_src_fixed(a->dst.reg.file, a->dst.reg.index, ST_SWIZZLE_IDENTITY);
            e->have_op = true;
        }
    }
    struct mir_instr *in = emit(S, MIR_OP_OPAQUE);
    *in = tmp;
    if (a->op == ST_OP_PHASE)
        S->phase_at = S->p->n - 1;
}

/*
 * A write of an output file written relatively somewhere (the lowering's
 * ordered @st_op.ostore calls): one mov into that register, o[aL + k] or
 * o[a0.c + k] for the .rel form, where the call stands.
 */
static void emit_ostore(struct sel *S, LLVMValueRef I)
{
    long long file, mask;
    if (!const_int(op_(I, 0), &file) || file < 0 || file >= ST_REG_COUNT ||
        !const_int(op_(I, 3), &mask)) {
        fail(S, "an output write the vector back end does not know%s", "");
        return;
    }
    struct mir_dst d = {.kind = MIR_FIXED, .mask = (uint8_t)(mask & 0xf),
                        .file = (enum st_regfile)file, .vreg = MIR_NONE};
    long long kc;
    if (strcmp(callee_name(I), "st_op.ostore.rel") == 0 && const_int(op_(I, 1), &kc)) {
        /* the address folded to a constant: a0 was never written (it reads
         * its first value, 0).  The vector program writes a0 nowhere
         * either, so a0.x + k names the same register (and keeps an
         * out-of-range write the same dropped write). */
        bool mova = false;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(S->fn); bb && !mova;
             bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef R = LLVMGetFirstInstruction(bb); R && !mova;
                 R = LLVMGetNextInstruction(R))
                mova = opc(R) == LLVMFPToSI && vi(S, R)->needed && classify(S, R) == VK_MOVA;
        if (kc < 0 || kc > 255 || (mova && (file != ST_REG_OUTPUT || kc >= 12))) {
            fail(S, "a relative output write whose address folded to a constant%s", "");
            return;
        }
        d.index = (uint32_t)kc;
        /* when the vector program writes a0 (a later mova), a0.x + k
         * would name another register: the write names o<k> itself, the
         * register the original's a0 (still 0 here) + k named.  In range
         * (vs_3_0 has o0..o11), a plain write is the same write; the
         * check of the printed text refuses an o<k> the shader does not
         * declare. */
        d.rel = mova ? 0 : 2;
    } else if (strcmp(callee_name(I), "st_op.ostore.rel") == 0) {
        struct relinfo ri;
        if (!rel_index_of(op_(I, 1), &ri) || ri.k < 0 || ri.k > 255) {
            fail(S, "a relative output write with an address the vector back end cannot read%s",
                 "");
            return;
        }
        d.index = (uint32_t)ri.k;
        if (ri.al) {
            if (cur_al(S) != ri.al) {
                fail(S, "a relative write with aL of a loop that is not the innermost%s", "");
                return;
            }
            d.rel = 1;
        } else {
            if ((!vi(S, ri.F)->have_op && !is_a0_phi(ri.F)) || S->astate[ri.comp & 3] != ri.F) {
                fail(S, "a relative write through a0 that does not hold its mova here%s", "");
                return;
            }
            d.rel = (uint8_t)(2 + ri.comp);
        }
    } else {
        long long k;
        if (!const_int(op_(I, 1), &k) || k < 0 || k > 255) {
            fail(S, "an output register the vector back end cannot name%s", "");
            return;
        }
        d.index = (uint32_t)k;
    }
    struct mir_instr tmp = {0};
    tmp.op = ST_OP_MOV;
    tmp.has_dst = true;
    tmp.dst = d;
    tmp.nsrc = 1;
    tmp.src[0] = opnd(S, op_(I, 2));
    struct mir_instr *in = emit(S, ST_OP_MOV);
    *in = tmp;
}

/* At an a0 phi (a join, a loop header): lanes every edge gives one mova
 * hold that mova; lanes where movas meet hold "a0 as it stands", the phi
 * (trace_a0 answers it for reads of those lanes). */
static void a0_phi_state(struct sel *S, LLVMValueRef phi)
{
    for (unsigned l = 0; l < 4; l++) {
        LLVMValueRef F;
        unsigned fl;
        if (!trace_a0(phi, l, &F, &fl) || (F != phi && fl != l))
            continue;
        S->astate[l] = F;
        S->adepth[l] = S->depth;
    }
}

static int bb_index(struct sel *S, LLVMBasicBlockRef b);

/* R stands in a block the walk has emitted, or before I in I's block. */
static bool read_passed(struct sel *S, LLVMValueRef R, LLVMValueRef I)
{
    LLVMBasicBlockRef rb = LLVMGetInstructionParent(R), ib = LLVMGetInstructionParent(I);
    int bi = bb_index(S, rb);
    if (bi < 0 || !S->visited[bi])
        return false;
    if (rb != ib)
        return true;
    for (LLVMValueRef x = LLVMGetFirstInstruction(ib); x; x = LLVMGetNextInstruction(x)) {
        if (x == R)
            return true;
        if (x == I)
            return false;
    }
    return false;
}

static void emit_inst(struct sel *S, LLVMValueRef I)
{
    unsigned o = opc(I);
    if (o == LLVMStore) {
        emit_store(S, I);
        return;
    }
    if (o == LLVMCall && strcmp(callee_name(I), ST_LL_SAMPLE_FN) == 0) {
        emit_sample(S, I);
        return;
    }
    if (o == LLVMCall && strncmp(callee_name(I), "st_op.ostore", 12) == 0) {
        emit_ostore(S, I);
        return;
    }
    if (o == LLVMCall && strcmp(callee_name(I), "st_op.arb:kil") == 0) {
        /* ARB KIL takes any vector source (swizzle, sign) */
        struct mir_src v = opnd(S, op_(I, 0));
        struct mir_instr *in = emit(S, ST_OP_ARB_KIL);
        in->nsrc = 1;
        in->src[0] = v;
        return;
    }
    if (o == LLVMPHI && is_a0_phi(I) && vi(S, I)->needed) {
        a0_phi_state(S, I);
        return;
    }
    if (o == LLVMBr || o == LLVMRet || o == LLVMAlloca || o == LLVMGetElementPtr || o == LLVMPHI)
        return;
    struct vinfo *e = vi(S, I);
    if (classify(S, I) == VK_TEXEL) {
        if (!S->have_texel) {
            fail(S, "a texel read before any sample%s", "");
            return;
        }
        e->op = S->last_texel;
        e->have_op = true;
        return;
    }
    if (!e->needed)
        return;
    switch (classify(S, I)) {
    case VK_VIEW: case VK_MODVIEW: case VK_OPQVIEW:
        return;
    case VK_A0PHI:
        a0_phi_state(S, I);
        return;
    case VK_OPAQUE:
        emit_opaque(S, I);
        return;
    case VK_ALU:
        emit_alu(S, I);
        return;
    case VK_MERGE:
        emit_merge(S, I);
        return;
    case VK_SETP: {
        enum st_compare cmp;
        if (S->ver < ST_VER_2X || !fcmp_to_d3d(LLVMGetFCmpPredicate(I), &cmp)) {
            fail(S, "a predicate this shader model cannot set%s", "");
            return;
        }
        struct mir_src a = opnd(S, op_(I, 0)), b = opnd(S, op_(I, 1));
        struct mir_instr *in = emit(S, ST_OP_SETP);
        in->cmp = cmp;
        in->has_dst = true;
        in->dst = (struct mir_dst){.kind = MIR_FIXED, .mask = e->plan, .file = ST_REG_PREDICATE,
                                   .index = 0, .vreg = MIR_NONE};
        in->nsrc = 2;
        in->src[0] = a;
        in->src[1] = b;
        return;
    }
    case VK_PSEL: {
        LLVMValueRef N;
        uint8_t w, swz = 0;
        bool not = false;
        int map[4];
        psel_parts(S, I, &N, &w, map);
        if (w && !pred_src(S, op_(I, 0), w, &swz, &not)) {
            fail(S, "a predicated write whose predicate p0 does not hold here%s", "");
            return;
        }
        /* the old value, copied: the predicated write then keeps its lanes */
        uint32_t dv = mir_new_vreg(S->p);
        struct mir_instr tmp = {0};
        tmp.op = MIR_OP_MERGE;
        tmp.has_dst = true;
        tmp.phi_copy = true;
        tmp.dst = (struct mir_dst){.kind = MIR_VREG, .mask = 0, .vreg = dv};
        int ident[4] = {0, 1, 2, 3};
        merge_input(S, &tmp, op_(I, 2), e->demand, ident);
        struct mir_src ns = {0};
        if (w) {
            if (is_fconst(N) || is_poison(N)) {
                LLVMValueRef c[4];
                LLVMTypeRef ft = LLVMFloatTypeInContext(LLVMGetTypeContext(LLVMTypeOf(N)));
                for (unsigned l = 0; l < 4; l++) {
                    double dd = 0;
                    if ((w >> l) & 1)
                        const_lane(N, (unsigned)map[l], &dd);
                    c[l] = LLVMConstReal(ft, dd);
                }
                ns = const_opnd(S, LLVMConstVector(c, 4), w);
            } else {
                ns = opnd(S, N);
                ns.swz = swz_compose(ns.swz, map);
            }
        }
        struct mir_instr *cp = emit(S, MIR_OP_MERGE);
        *cp = tmp;
        S->stats->merges_in++;
        if (w) {
            struct mir_instr *in = emit(S, ST_OP_MOV);
            in->has_dst = true;
            in->dst = (struct mir_dst){.kind = MIR_VREG, .mask = w, .vreg = dv};
            in->nsrc = 1;
            in->src[0] = ns;
            in->predicated = true;
            in->pred_swz = swz;
            in->pred_not = not;
        }
        set_result(S, I, dv);
        return;
    }
    case VK_KILL: {
        /* texkill names a register, no swizzle, no modifier; the fixed
         * registers it takes are t# before ps_3_0, v# in ps_3_0 (a v# in
         * ps_2_0 is copied to a temporary like any other operand) */
        struct mir_src v = opnd(S, kill_source(I));
        enum st_regfile kf = S->ver >= ST_VER(3, 0) ? ST_REG_INPUT : ST_REG_TEXTURE;
        if (v.mod != MIR_MOD_NONE || v.swz != ST_SWIZZLE_IDENTITY || v.rel ||
            (v.kind == MIR_FIXED && v.file != kf)) {
            uint32_t t = mir_new_vreg(S->p);
            struct mir_instr *mv = emit(S, ST_OP_MOV);
            mv->has_dst = true;
            mv->dst = (struct mir_dst){.kind = MIR_VREG, .mask = 0xf, .vreg = t};
            mv->nsrc = 1;
            mv->src[0] = v;
            v = mir_src_vreg(t, ST_SWIZZLE_IDENTITY);
        }
        struct mir_instr *in = emit(S, ST_OP_TEXKILL);
        in->nsrc = 1;
        in->src[0] = v;
        return;
    }
    case VK_MOVA: {
        /* a0 is one register, written where the shader wrote it.  Relative
         * reads of the a0 value it replaces are views read where they are
         * used: the ones not read yet are copied to a register first (a
         * copy nobody reads is dropped as dead later). */
        uint8_t wm = e->demand ? e->demand : 1;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(S->fn); bb;
             bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef R = LLVMGetFirstInstruction(bb); R; R = LLVMGetNextInstruction(R)) {
                struct relinfo ri;
                if (opc(R) != LLVMSelect || !rel_read(S, R, &ri) || !ri.F)
                    continue;
                struct vinfo *re = vi(S, R);
                if (!re->needed || re->have_op || !((wm >> (ri.comp & 3)) & 1) ||
                    S->astate[ri.comp & 3] != ri.F)
                    continue;
                /* through an a0 phi only the reads the walk has passed: a
                 * loop header's phi read after the loop is a later value of
                 * the same SSA phi (a0 after the last iteration) */
                if (opc(ri.F) == LLVMPHI && !read_passed(S, R, I))
                    continue;
                struct mir_src rs = view_opnd(S, R);
                uint32_t t = mir_new_vreg(S->p);
                struct mir_instr *mv = emit(S, ST_OP_MOV);
                mv->has_dst = true;
                mv->dst = (struct mir_dst){.kind = MIR_VREG, .mask = re->demand ? re->demand : 0xf,
                                           .vreg = t};
                mv->nsrc = 1;
                mv->src[0] = rs;
                re->op = mir_src_vreg(t, ST_SWIZZLE_IDENTITY);
                re->have_op = true;
            }
        LLVMValueRef ms = mova_source(I);
        if (S->arb && !is_call_to(ms, "st_op.arb:arl")) {
            fail(S, "an address register write that is not an ARL%s", "");
            return;
        }
        struct mir_src v = opnd(S, S->arb ? op_(ms, 0) : ms);
        struct mir_instr *in = emit(S, S->arb                     ? ST_OP_ARB_ARL
                                       : S->ver >= ST_VER(2, 0) ? ST_OP_MOVA
                                                                : ST_OP_MOV);
        in->has_dst = true;
        in->dst = (struct mir_dst){.kind = MIR_FIXED,
                                   .mask = S->arb ? 1 : e->demand ? e->demand : 1,
                                   .file = ST_REG_ADDR, .index = 0, .vreg = MIR_NONE};
        in->nsrc = 1;
        in->src[0] = v;
        e->have_op = true; /* "written": relative reads may use it */
        for (unsigned l = 0; l < 4; l++)
            if ((in->dst.mask >> l) & 1) {
                S->astate[l] = I;
                S->adepth[l] = S->depth;
            }
        return;
    }
    case VK_OTHER:
        if (o == LLVMFCmp || o == LLVMICmp || (o == LLVMXor && !is_vec(I)))
            return; /* branch conditions: the flow code reads them */
        if (LLVMGetTypeKind(LLVMTypeOf(I)) == LLVMIntegerTypeKind)
            return; /* loop counts and the like: the flow code reads them, or refuses */
        if (o == LLVMLoad)
            return; /* b# reads: the flow code reads them */
        if (!S->failed) {
            char *txt = LLVMPrintValueToString(I);
            st_error(S->ctx, S->sh->version.loc, ST_E_NOT_SUPPORTED,
                     "the vector back end has no instruction of %s for the LLVM value '%.100s'",
                     S->ps ? "this pixel shader model" : "this vertex shader model",
                     txt ? txt + strspn(txt, " ") : "?");
            LLVMDisposeMessage(txt);
        }
        S->failed = true;
        return;
    default:
        return;
    }
}

/* ------------------------------------------------------------------ */
/* Structured control flow.                                            */

static int bb_index(struct sel *S, LLVMBasicBlockRef b)
{
    for (unsigned i = 0; i < S->nbb; i++)
        if (S->bbs[i] == b)
            return (int)i;
    return -1;
}

static unsigned nsucc(LLVMBasicBlockRef b, LLVMBasicBlockRef out[2])
{
    LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
    if (!t)
        return 0;
    unsigned n = LLVMGetNumSuccessors(t);
    for (unsigned k = 0; k < n && k < 2; k++)
        out[k] = LLVMGetSuccessor(t, k);
    return n > 2 ? 2 : n;
}

/* Post-dominator sets (bitsets), by iteration: pdom(b) = {b} + meet of successors. */
static bool compute_pdom(struct sel *S)
{
    unsigned n = S->nbb, w = (n + 63) / 64;
    S->words = w;
    S->pdom = malloc(sizeof(uint64_t) * w * (n ? n : 1));
    if (!S->pdom) {
        S->p->oom = true; /* (no walk: the program would be empty) */
        return false;
    }
    for (unsigned i = 0; i < n; i++) {
        LLVMBasicBlockRef s[2];
        bool exit = nsucc(S->bbs[i], s) == 0;
        for (unsigned k = 0; k < w; k++)
            S->pdom[i * w + k] = exit ? 0 : ~0ull;
        if (exit)
            S->pdom[i * w + i / 64] |= 1ull << (i % 64);
    }
    bool changed = true;
    while (changed) {
        changed = false;
        for (unsigned i = n; i-- > 0;) {
            LLVMBasicBlockRef s[2];
            unsigned ns = nsucc(S->bbs[i], s);
            if (!ns)
                continue;
            for (unsigned k = 0; k < w; k++) {
                uint64_t x = ~0ull;
                for (unsigned j = 0; j < ns; j++) {
                    int si = bb_index(S, s[j]);
                    if (si >= 0)
                        x &= S->pdom[(unsigned)si * w + k];
                }
                if (k == i / 64)
                    x |= 1ull << (i % 64);
                if (x != S->pdom[i * w + k]) {
                    S->pdom[i * w + k] = x;
                    changed = true;
                }
            }
        }
    }
    return true;
}

static unsigned popcount_set(struct sel *S, unsigned i)
{
    unsigned c = 0;
    for (unsigned k = 0; k < S->words; k++)
        c += (unsigned)__builtin_popcountll(S->pdom[i * S->words + k]);
    return c;
}

/* The immediate post-dominator: the strict post-dominator with the largest set. */
static LLVMBasicBlockRef ipdom(struct sel *S, LLVMBasicBlockRef b)
{
    int i = bb_index(S, b);
    if (i < 0)
        return NULL;
    unsigned best = 0;
    int bi = -1;
    for (unsigned j = 0; j < S->nbb; j++) {
        if ((int)j == i || !(S->pdom[(unsigned)i * S->words + j / 64] & (1ull << (j % 64))))
            continue;
        unsigned c = popcount_set(S, j);
        if (bi < 0 || c > best) {
            best = c;
            bi = (int)j;
        }
    }
    return bi < 0 ? NULL : S->bbs[bi];
}

/*
 * The immediate post-dominator of b inside the loop with header h and exit
 * x: edges to x (breaks) are left out, so a path that breaks constrains
 * nothing, and h (reached by the latch) is the end.  NULL when none.
 */
static LLVMBasicBlockRef ipdom_loop(struct sel *S, LLVMBasicBlockRef b, LLVMBasicBlockRef x,
                                    LLVMBasicBlockRef h)
{
    unsigned n = S->nbb, w = S->words;
    int bi = bb_index(S, b), hi = bb_index(S, h);
    if (bi < 0 || hi < 0)
        return NULL;
    uint64_t *pd = malloc(sizeof(uint64_t) * w * (n ? n : 1));
    if (!pd)
        return NULL;
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < w; k++)
            pd[i * w + k] = (int)i == hi ? (k == (unsigned)hi / 64 ? 1ull << (hi % 64) : 0) : ~0ull;
    bool changed = true;
    while (changed) {
        changed = false;
        for (unsigned i = n; i-- > 0;) {
            if ((int)i == hi)
                continue;
            LLVMBasicBlockRef sc[2];
            unsigned ns = nsucc(S->bbs[i], sc);
            for (unsigned k = 0; k < w; k++) {
                uint64_t v = ~0ull;
                bool any = false;
                for (unsigned j = 0; j < ns; j++) {
                    int si = bb_index(S, sc[j]);
                    if (si < 0 || sc[j] == x)
                        continue;
                    v &= pd[(unsigned)si * w + k];
                    any = true;
                }
                if (!any) /* only breaks (or the function's end): no constraint */
                    v = ~0ull;
                if (k == i / 64)
                    v |= 1ull << (i % 64);
                if (v != pd[i * w + k]) {
                    pd[i * w + k] = v;
                    changed = true;
                }
            }
        }
    }
    /* the nearest: the candidate post-dominated by every other candidate */
    LLVMBasicBlockRef best = NULL;
    unsigned bestc = 0;
    for (unsigned j = 0; j < n; j++) {
        if ((int)j == bi || !(pd[(unsigned)bi * w + j / 64] & (1ull << (j % 64))))
            continue;
        unsigned c = 0;
        for (unsigned k = 0; k < w; k++)
            c += (unsigned)__builtin_popcountll(pd[j * w + k]);
        if (c >= n)
            continue; /* a block that only breaks: no join */
        if (!best || c > bestc) {
            best = S->bbs[j];
            bestc = c;
        }
    }
    free(pd);
    return best;
}

/* The copy phi I <- v (a MERGE with one input). */
static void phi_copy_one(struct sel *S, LLVMValueRef I, LLVMValueRef v)
{
    struct vinfo *e = vi(S, I);
    uint8_t lanes = lanes_of(S, I);
    struct mir_instr tmp = {0};
    tmp.op = MIR_OP_MERGE;
    tmp.has_dst = true;
    tmp.phi_copy = true;
    tmp.dst = (struct mir_dst){.kind = MIR_VREG, .mask = lanes, .vreg = e->op.vreg};
    tmp.nsrc = 1;
    if (is_fconst(v) || is_poison(v)) {
        tmp.src[0] = const_opnd(S, v, is_vec(v) ? lanes : 1);
        if (!is_vec(v))
            tmp.src[0].swz = swz_rep(ST_SWZ_LANE(tmp.src[0].swz, 0));
    } else {
        tmp.src[0] = opnd(S, v);
    }
    tmp.lanes[0] = lanes;
    struct mir_instr *in = emit(S, MIR_OP_MERGE);
    *in = tmp;
    S->stats->merges_in++;
}

/* Copies for the phis of `to` on the edge from `from`. */
static void phi_copies(struct sel *S, LLVMBasicBlockRef from, LLVMBasicBlockRef to)
{
    for (LLVMValueRef I = LLVMGetFirstInstruction(to); I && opc(I) == LLVMPHI;
         I = LLVMGetNextInstruction(I)) {
        struct vinfo *e = vi(S, I);
        if (!e->needed || !e->have_op)
            continue;
        for (unsigned k = 0; k < LLVMCountIncoming(I); k++) {
            if (LLVMGetIncomingBlock(I, k) != from)
                continue;
            LLVMValueRef v = LLVMGetIncomingValue(I, k);
            if (opc(v) == LLVMPHI && LLVMGetInstructionParent(v) == to) {
                fail(S, "a phi reading a phi of the same block (a loop)%s", "");
                return;
            }
            phi_copy_one(S, I, v);
            break;
        }
    }
}

static void walk(struct sel *S, LLVMBasicBlockRef b, LLVMBasicBlockRef stop);

static void arm(struct sel *S, LLVMBasicBlockRef from, LLVMBasicBlockRef to, LLVMBasicBlockRef join)
{
    if (to == join)
        phi_copies(S, from, join);
    else
        walk(S, to, join);
}

static bool fcmp_to_d3d(LLVMRealPredicate p, enum st_compare *c)
{
    switch (p) {
    case LLVMRealOGT: *c = ST_CMP_GT; return true;
    case LLVMRealOEQ: *c = ST_CMP_EQ; return true;
    case LLVMRealOGE: *c = ST_CMP_GE; return true;
    case LLVMRealOLT: *c = ST_CMP_LT; return true;
    case LLVMRealUNE: *c = ST_CMP_NE; return true;
    case LLVMRealOLE: *c = ST_CMP_LE; return true;
    default: return false;
    }
}

/* Emits the IF for a branch condition; false when it cannot be expressed. */
static bool emit_cond(struct sel *S, LLVMValueRef c)
{
    if (opc(c) == LLVMICmp && LLVMGetICmpPredicate(c) == LLVMIntNE && const_is(op_(c, 1), 0.0)) {
        /* unreachable: icmp on ints */
    }
    if (opc(c) == LLVMICmp && LLVMGetICmpPredicate(c) == LLVMIntNE &&
        LLVMIsAConstantInt(op_(c, 1)) && LLVMConstIntGetZExtValue(op_(c, 1)) == 0 &&
        opc(op_(c, 0)) == LLVMLoad) {
        LLVMValueRef base;
        long long k;
        if (gep_const(op_(op_(c, 0), 0), &base, &k) && base == S->arg_b && k >= 0 && k < 16) {
            struct mir_instr *in = emit(S, ST_OP_IF);
            in->nsrc = 1;
            in->src[0] = mir_src_fixed(ST_REG_CONSTBOOL, (uint32_t)k, ST_SWIZZLE_IDENTITY);
            return true;
        }
    }
    if (is_pred_cond(c)) {
        uint8_t swz;
        bool not;
        if (S->ver < ST_VER_2X || !pred_src(S, c, 1, &swz, &not))
            return false;
        struct mir_instr *in = emit(S, ST_OP_IF);
        in->nsrc = 1;
        in->src[0] = mir_src_fixed(ST_REG_PREDICATE, 0, (uint8_t)(ST_SWZ_LANE(swz, 0) * 0x55));
        in->pred_not = not;
        return true;
    }
    enum st_compare cmp;
    if (opc(c) == LLVMFCmp && fcmp_to_d3d(LLVMGetFCmpPredicate(c), &cmp) && !is_vec(op_(c, 0)) &&
        (S->ver >= ST_VER_2X)) {
        struct mir_src a = opnd(S, op_(c, 0)), b = opnd(S, op_(c, 1));
        struct mir_instr *in = emit(S, ST_OP_IFC);
        in->cmp = cmp;
        in->nsrc = 2;
        in->src[0] = a;
        in->src[1] = b;
        return true;
    }
    return false;
}

/* i#k.lane read through the clamps of the lowering: k and lane. */
static bool int_reg_lane(struct sel *S, LLVMValueRef v, long long *reg, unsigned *lane)
{
    for (int g = 0; g < 4 && opc(v) == LLVMSelect; g++)
        v = op_(v, 2);
    LLVMValueRef P, base;
    if (!ext_of(v, &P, lane) || opc(P) != LLVMLoad)
        return false;
    return gep_const(op_(P, 0), &base, reg) && base == S->arg_i && *reg >= 0 && *reg < 16;
}

static LLVMValueRef incoming_from(LLVMValueRef phi, LLVMBasicBlockRef bb)
{
    for (unsigned k = 0; k < LLVMCountIncoming(phi); k++)
        if (LLVMGetIncomingBlock(phi, k) == bb)
            return LLVMGetIncomingValue(phi, k);
    return NULL;
}

static void walk(struct sel *S, LLVMBasicBlockRef b, LLVMBasicBlockRef stop);

/*
 * The lowering's loop header: count = phi [n, pre], [count - 1, latch];
 * br (count > 0), body, exit; for `loop`, aL = phi [init, pre], [aL + step,
 * latch].  Re-expressed as rep i# / loop aL, i# (a new defi when the
 * numbers are constants).  Returns false when b is not such a header.
 */
static bool try_loop(struct sel *S, LLVMBasicBlockRef b, LLVMBasicBlockRef *next)
{
    LLVMValueRef t = LLVMGetBasicBlockTerminator(b), c, cnt = NULL;
    long long x;
    if (opc(t) != LLVMBr || !LLVMIsConditional(t))
        return false;
    c = LLVMGetCondition(t);
    if (opc(c) != LLVMICmp || LLVMGetICmpPredicate(c) != LLVMIntSGT ||
        !const_int(op_(c, 1), &x) || x != 0)
        return false;
    cnt = op_(c, 0);
    if (opc(cnt) != LLVMPHI || LLVMGetInstructionParent(cnt) != b || LLVMCountIncoming(cnt) != 2)
        return false;
    int li = -1;
    for (unsigned k = 0; k < 2; k++) {
        LLVMValueRef v = LLVMGetIncomingValue(cnt, k);
        if (opc(v) == LLVMSub && op_(v, 0) == cnt && const_int(op_(v, 1), &x) && x == 1)
            li = (int)k;
    }
    if (li < 0)
        return false;
    LLVMBasicBlockRef latch = LLVMGetIncomingBlock(cnt, (unsigned)li);
    LLVMBasicBlockRef pre = LLVMGetIncomingBlock(cnt, (unsigned)(1 - li));
    LLVMValueRef init = LLVMGetIncomingValue(cnt, (unsigned)(1 - li));
    LLVMValueRef al = NULL, al_init = NULL, al_step = NULL;
    for (LLVMValueRef P = LLVMGetFirstInstruction(b); P && opc(P) == LLVMPHI;
         P = LLVMGetNextInstruction(P)) {
        if (P == cnt || LLVMGetTypeKind(LLVMTypeOf(P)) != LLVMIntegerTypeKind)
            continue;
        LLVMValueRef v = incoming_from(P, latch);
        if (v && opc(v) == LLVMAdd && op_(v, 0) == P) {
            al = P;
            al_step = op_(v, 1);
            al_init = incoming_from(P, pre);
        }
    }
    long long kc, ka = 0, ks = 0, reg, r2;
    unsigned lane;
    uint32_t ireg = MIR_NONE;
    if (const_int(init, &kc) && (!al || (al_init && const_int(al_init, &ka) &&
                                         const_int(al_step, &ks)))) {
        /* the shader's own defi when it holds these numbers */
        for (const struct st_instr *di = S->sh->first; di && ireg == MIR_NONE; di = di->next)
            if (di->op == ST_OP_DEFI && di->imm.i[0] == kc && (!al || (di->imm.i[1] == ka &&
                                                                     di->imm.i[2] == ks)))
                ireg = di->dst.reg.index;
        if (ireg != MIR_NONE)
            goto have_reg;
        for (uint32_t i = 0; i < 16 && ireg == MIR_NONE; i++)
            if (!S->i_used[i]) {
                S->i_used[i] = true;
                ireg = i;
            }
        if (ireg == MIR_NONE || S->p->ndefis >= 16) {
            fail(S, "a loop count needing an integer constant register, and none is free%s", "");
            return true;
        }
        struct mir_defi *d = &S->p->defis[S->p->ndefis++];
        d->index = ireg;
        d->v[0] = (int32_t)kc;
        d->v[1] = (int32_t)ka;
        d->v[2] = (int32_t)ks;
        d->v[3] = 0;
    have_reg:;
    } else if (int_reg_lane(S, init, &reg, &lane) && lane == 0 &&
               (!al || (al_init && int_reg_lane(S, al_init, &r2, &lane) && r2 == reg &&
                        lane == 1 && int_reg_lane(S, al_step, &r2, &lane) && r2 == reg &&
                        lane == 2))) {
        ireg = (uint32_t)reg;
    } else {
        S->stats->flow_not_supported = 1;
        fail(S, "a loop whose count this shader model cannot state%s", "");
        return true;
    }
    if (S->nloops >= 8) {
        S->stats->flow_not_supported = 1;
        fail(S, "loops nested this deep%s", "");
        return true;
    }
    /*
     * Phis of the exit block fed from the header (the loop ran out): the
     * value is the header's on the last check, so it is copied before the
     * loop (zero trips) and at the end of every iteration; breaks copy
     * their own values on their edge.
     */
    LLVMBasicBlockRef exit_bb = LLVMGetSuccessor(t, 1);
    for (LLVMValueRef X = LLVMGetFirstInstruction(exit_bb); X && opc(X) == LLVMPHI;
         X = LLVMGetNextInstruction(X)) {
        struct vinfo *xe = vi(S, X);
        LLVMValueRef V = incoming_from(X, b);
        if (!xe->needed || !xe->have_op || !V)
            continue;
        /* a header phi already holds its value here (its copies stand at
         * the end of the preheader): copying from its register keeps the
         * two the same value, which lets them share one */
        if (opc(V) == LLVMPHI && LLVMGetInstructionParent(V) == b && !vi(S, V)->have_op)
            V = incoming_from(V, pre);
        if (V)
            phi_copy_one(S, X, V);
    }
    struct mir_instr *in = emit(S, al ? ST_OP_LOOP : ST_OP_REP);
    if (al) {
        in->nsrc = 2;
        in->src[0] = mir_src_fixed(ST_REG_LOOP, 0, ST_SWIZZLE_IDENTITY);
        in->src[1] = mir_src_fixed(ST_REG_CONSTINT, ireg, ST_SWIZZLE_IDENTITY);
    } else {
        in->nsrc = 1;
        in->src[0] = mir_src_fixed(ST_REG_CONSTINT, ireg, ST_SWIZZLE_IDENTITY);
    }
    LLVMBasicBlockRef body = LLVMGetSuccessor(t, 0), exit = LLVMGetSuccessor(t, 1);
    S->loops[S->nloops++] = (struct sel_loop){.header = b, .exit = exit, .al = al};
    walk(S, body, b);
    for (LLVMValueRef X = LLVMGetFirstInstruction(exit_bb); X && opc(X) == LLVMPHI && !S->failed;
         X = LLVMGetNextInstruction(X)) {
        struct vinfo *xe = vi(S, X);
        LLVMValueRef V = incoming_from(X, b);
        if (!xe->needed || !xe->have_op || !V || opc(V) != LLVMPHI ||
            LLVMGetInstructionParent(V) != b)
            continue;
        /* after the latch's copies: the header phi holds the next value */
        LLVMValueRef W = vi(S, V)->have_op ? V : incoming_from(V, latch);
        if (W)
            phi_copy_one(S, X, W);
    }
    S->nloops--;
    emit(S, al ? ST_OP_ENDLOOP : ST_OP_ENDREP);
    /* the loop ran out at the header: its a0 phis are a0 there */
    for (LLVMValueRef P = LLVMGetFirstInstruction(b); P && opc(P) == LLVMPHI;
         P = LLVMGetNextInstruction(P))
        if (is_a0_phi(P) && vi(S, P)->needed)
            a0_phi_state(S, P);
    *next = exit;
    return true;
}

static void walk(struct sel *S, LLVMBasicBlockRef b, LLVMBasicBlockRef stop)
{
    while (b && b != stop && !S->failed) {
        int bi = bb_index(S, b);
        if (bi < 0 || S->visited[bi]) {
            S->stats->flow_not_supported = 1;
            fail(S, "a loop (rep/loop/break): the vector back end re-expresses if/else only%s",
                 "");
            return;
        }
        S->visited[bi] = 1;
        for (LLVMValueRef I = LLVMGetFirstInstruction(b); I && !S->failed;
             I = LLVMGetNextInstruction(I))
            emit_inst(S, I);
        LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
        if (!t || opc(t) == LLVMRet)
            return;
        if (opc(t) != LLVMBr) {
            S->stats->flow_not_supported = 1;
            fail(S, "a terminator other than br/ret%s", "");
            return;
        }
        LLVMBasicBlockRef lexit = S->nloops ? S->loops[S->nloops - 1].exit : NULL;
        if (!LLVMIsConditional(t)) {
            LLVMBasicBlockRef s = LLVMGetSuccessor(t, 0);
            phi_copies(S, b, s);
            if (s == lexit && s != stop) {
                emit(S, ST_OP_BREAK);
                return;
            }
            b = s;
            continue;
        }
        {
            LLVMBasicBlockRef next = NULL;
            if (try_loop(S, b, &next)) {
                b = next;
                continue;
            }
        }
        LLVMValueRef c = LLVMGetCondition(t);
        LLVMBasicBlockRef T = LLVMGetSuccessor(t, 0), E = LLVMGetSuccessor(t, 1);
        if (LLVMIsAConstantInt(c)) {
            LLVMBasicBlockRef s = LLVMConstIntGetZExtValue(c) ? T : E;
            phi_copies(S, b, s);
            b = s;
            continue;
        }
        /* "!c": the same test with the arms swapped */
        LLVMValueRef nc;
        while (opc(c) == LLVMXor && LLVMIsAConstantInt(nc = op_(c, 1)) &&
               LLVMConstIntGetZExtValue(nc) == 1) {
            c = op_(c, 0);
            LLVMBasicBlockRef x = T;
            T = E;
            E = x;
        }
        /* an arm that is only "break" (if c / break / endif): the edge
         * through that empty block is the loop exit */
        LLVMBasicBlockRef from = b;
        if (lexit && T != lexit && E != lexit) {
            for (unsigned side = 0; side < 2; side++) {
                LLVMBasicBlockRef x = side ? E : T;
                LLVMValueRef xt = LLVMGetBasicBlockTerminator(x);
                if (LLVMGetFirstInstruction(x) == xt && opc(xt) == LLVMBr &&
                    !LLVMIsConditional(xt) && LLVMGetSuccessor(xt, 0) == lexit) {
                    from = x;
                    if (side)
                        E = lexit;
                    else
                        T = lexit;
                    break;
                }
            }
        }
        if (lexit && (T == lexit || E == lexit)) {
            /* a conditional break: if c break endif (or its else arm) */
            if (!emit_cond(S, c)) {
                S->stats->flow_not_supported = 1;
                fail(S, "a break condition this shader model cannot test%s", "");
                return;
            }
            if (E == lexit)
                emit(S, ST_OP_ELSE);
            phi_copies(S, from, lexit);
            emit(S, ST_OP_BREAK);
            emit(S, ST_OP_ENDIF);
            LLVMBasicBlockRef other = T == lexit ? E : T;
            phi_copies(S, b, other);
            b = other;
            continue;
        }
        LLVMBasicBlockRef J = ipdom(S, b);
        if (lexit && S->nloops) {
            /* inside a loop: the join with the breaks left out (an arm
             * that breaks in a nested if converges with the other one
             * before the latch, not after the loop) */
            LLVMBasicBlockRef J2 = ipdom_loop(S, b, lexit, S->loops[S->nloops - 1].header);
            if (J2)
                J = J2;
        }
        if (J && J != lexit) {
            /* an if whose arms do nothing (both reach the join with no
             * instruction and no phi copy): no if at all */
            bool empty = true;
            for (unsigned side = 0; side < 2 && empty; side++) {
                LLVMBasicBlockRef x = side ? E : T;
                if (x == J)
                    continue;
                LLVMValueRef xt = LLVMGetBasicBlockTerminator(x);
                if (LLVMGetFirstInstruction(x) != xt || opc(xt) != LLVMBr ||
                    LLVMIsConditional(xt) || LLVMGetSuccessor(xt, 0) != J)
                    empty = false;
            }
            for (LLVMValueRef P = LLVMGetFirstInstruction(J); P && opc(P) == LLVMPHI && empty;
                 P = LLVMGetNextInstruction(P))
                if (vi(S, P)->needed && vi(S, P)->have_op)
                    empty = false;
            if (empty) {
                b = J;
                continue;
            }
        }
        if (!J) {
            S->stats->flow_not_supported = 1;
            fail(S, "a branch with no join%s", "");
            return;
        }
        /* an empty then-arm on a p0 test: the other arm under "if !p0" */
        bool flip = T == J && E != J && is_pred_cond(c);
        if (flip) {
            T = E;
            E = J;
        }
        if (!emit_cond(S, c)) {
            S->stats->flow_not_supported = 1;
            fail(S, "a branch condition this shader model cannot test%s", "");
            return;
        }
        if (flip)
            S->p->ins[S->p->n - 1].pred_not = !S->p->ins[S->p->n - 1].pred_not;
        arm(S, b, T, J);
        if (E != J || T == J) {
            emit(S, ST_OP_ELSE);
            arm(S, b, E, J);
        } else {
            /* the false edge goes straight to the join (callnz): its phi
             * copies need an else arm of their own */
            emit(S, ST_OP_ELSE);
            unsigned n0 = S->p->n;
            phi_copies(S, b, J);
            if (S->p->n == n0)
                S->p->n--; /* nothing to copy: no else */
        }
        emit(S, ST_OP_ENDIF);
        b = J;
    }
}

/* ------------------------------------------------------------------ */
/* Entry.                                                              */

/* ARB: the program's literals are found again by value (their own
 * slots); new ones get slots after the program's parameters. */
static void scan_arb(struct sel *S)
{
    const struct st_arb_program *a = S->sh->arb;
    struct mir_prog *p = S->p;
    S->arb_next_c = a->num_params;
    for (uint32_t k = 0; k < a->num_params; k++) {
        if (a->params[k].kind != ST_ARB_PARAM_CONST)
            continue;
        if (p->ndefs == p->capdefs) {
            unsigned cap = p->capdefs ? p->capdefs * 2 : 8;
            struct mir_def *nd = realloc(p->defs, sizeof(*nd) * cap);
            if (!nd) {
                fail(S, "out of memory%s", "");
                return;
            }
            p->defs = nd;
            p->capdefs = cap;
        }
        struct mir_def *d = &p->defs[p->ndefs++];
        memset(d, 0, sizeof(*d));
        d->index = k;
        memcpy(d->f, a->params[k].value, sizeof(d->f));
    }
}

static void scan_shader(struct sel *S)
{
    const struct st_shader *sh = S->sh;
    if (S->arb) {
        scan_arb(S);
        return;
    }
    S->max_c = !S->ps ? 256 : S->ver >= ST_VER(3, 0) ? 224 : S->ver >= ST_VER(2, 0) ? 32 : 8;
    for (const struct st_instr *i = sh->first; i; i = i->next) {
        if (i->op == ST_OP_DEF) {
            /* def values were inlined as LLVM constants: found again here, at
             * their own index (a relative read may reach them there too) */
            struct mir_prog *p = S->p;
            uint32_t idx = i->dst.reg.index;
            if (idx >= 256 || p->ndefs >= 256)
                continue;
            if (p->ndefs == p->capdefs) {
                unsigned cap = p->capdefs ? p->capdefs * 2 : 8;
                struct mir_def *nd = realloc(p->defs, sizeof(*nd) * cap);
                if (!nd) {
                    p->oom = true;
                    continue;
                }
                p->defs = nd;
                p->capdefs = cap;
            }
            struct mir_def *d = &p->defs[p->ndefs++];
            memset(d, 0, sizeof(*d));
            d->index = idx;
            memcpy(d->f, i->imm.f, sizeof(d->f));
            S->c_used[idx] = true;
            continue;
        }
        for (unsigned k = 0; k < i->nsrc && k < 5; k++) {
            const struct st_reg *r = &i->src[k].reg;
            if (r->file == ST_REG_CONSTINT && r->index < 16)
                S->i_used[r->index] = true;
            if (r->file == ST_REG_CONST) {
                uint32_t hi = r->index + 1, lo = r->index;
                if (r->rel)
                    S->has_rel_c = true;
                /* matrix ops read rows after the first */
                if (st_opinfo[i->op].flags & OPF_MATRIX)
                    hi = r->index + 4;
                for (uint32_t x = lo; x < hi && x < 256; x++)
                    S->c_used[x] = true;
            }
        }
        if (i->op == ST_OP_DEFI && i->dst.reg.index < 16)
            S->i_used[i->dst.reg.index] = true;
        if (i->has_dst) {
            const struct st_reg *r = &i->dst.reg;
            int slot = st_run_out_slot(r->file, r->index);
            if (slot >= 0 && slot < ST_LL_OUT_SLOTS) {
                S->out_known[slot] = true;
                S->out_file[slot] = r->file;
                S->out_index[slot] = r->index;
            }
        }
    }
}

/* The scalar instruction lane l of vector v is a copy of, through views; or NULL. */
static LLVMValueRef scalar_source(LLVMValueRef v, unsigned l)
{
    for (int guard = 0; guard < 32 && is_inst(v); guard++) {
        long long k;
        switch (opc(v)) {
        case LLVMShuffleVector: {
            int m = mask_elem(v, l);
            if (m < 0)
                return NULL;
            v = op_(v, m < 4 ? 0 : 1);
            l = (unsigned)m & 3;
            continue;
        }
        case LLVMInsertElement:
            if (!const_int(op_(v, 2), &k))
                return NULL;
            if ((unsigned)k == l) {
                LLVMValueRef s = op_(v, 1);
                return is_inst(s) ? s : NULL;
            }
            v = op_(v, 0);
            continue;
        default:
            return NULL;
        }
    }
    return NULL;
}

/*
 * Where a scalar is computed: in the lane where a merge (or an output)
 * puts it, so that the merge takes it in place and can vanish; lane x
 * when nothing asks.  Program order: the first request wins.
 */
static void assign_homes(struct sel *S)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(S->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I))
            if (opc(I) == LLVMFPTrunc && (is_call_to(op_(I, 0), "llvm.cos") ||
                                          is_call_to(op_(I, 0), "llvm.sin"))) {
                struct vinfo *e = vi(S, I);
                e->needing = true;
                e->home = is_call_to(op_(I, 0), "llvm.sin") ? 1 : 0;
            }
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(S->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
            unsigned o = opc(I);
            LLVMValueRef v = NULL;
            uint8_t d = 0;
            if ((o == LLVMShuffleVector || o == LLVMInsertElement) &&
                classify(S, I) == VK_MERGE) {
                v = I;
                d = vi(S, I)->demand;
            } else if (o == LLVMStore && out_slot_of_store(S, I) >= 0) {
                v = op_(I, 0);
                d = 0xf;
            }
            if (!v || !is_vec(v))
                continue;
            for (unsigned l = 0; l < 4; l++) {
                if (!(d & (1u << l)))
                    continue;
                LLVMValueRef s = scalar_source(v, l);
                if (!s || is_vec(s) || LLVMGetTypeKind(LLVMTypeOf(s)) != LLVMFloatTypeKind)
                    continue;
                struct vinfo *e = vi(S, s);
                if (!e->needing) { /* "needing" doubles as "home decided" here */
                    e->needing = true;
                    e->home = (uint8_t)l;
                }
            }
        }
}

/*
 * The non-finite constants (const_opnd) as instructions at the start of
 * the program, exact under both float rules: Z.x = rcp(0) = +inf (the
 * rcp/RCP rule for +-0 in every engine, docs/interpreter.md), then per
 * constant vreg T: the finite lanes mov'd from a def/literal, +inf lanes
 * mov Z.x, -inf lanes mov -Z.x, NaN lanes add Z.x, -Z.x (inf - inf; the
 * sign and payload of a NaN are printed nowhere and change no comparison).
 */
static bool nonfinite_prologue(struct sel *S)
{
    struct mir_prog *p = S->p;
    if (!S->nnf || S->failed)
        return !S->failed;
    unsigned n0 = p->n;
    uint32_t z = mir_new_vreg(p);
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(S->fn));
    struct mir_src zero = const_opnd(S, LLVMConstReal(LLVMFloatTypeInContext(c), 0.0), 1);
    struct mir_instr *in = emit(S, ST_OP_RCP);
    in->has_dst = true;
    in->dst = (struct mir_dst){.kind = MIR_VREG, .mask = 0x1, .vreg = z};
    in->nsrc = 1;
    in->src[0] = zero;
    struct mir_src inf = mir_src_vreg(z, 0x00), ninf = inf;
    ninf.mod = MIR_MOD_NEG;
    for (unsigned i = 0; i < S->nnf; i++) {
        const struct sel_nonfinite *e = &S->nf[i];
        uint8_t fin = 0, pinf = 0, minf = 0, nan = 0;
        float fv[4] = {0, 0, 0, 0};
        for (unsigned l = 0; l < 4; l++) {
            if (!((e->lanes >> l) & 1))
                continue;
            if (isnan(e->f[l]))
                nan |= (uint8_t)(1u << l);
            else if (isinf(e->f[l]))
                *(e->f[l] > 0 ? &pinf : &minf) |= (uint8_t)(1u << l);
            else {
                fin |= (uint8_t)(1u << l);
                fv[l] = e->f[l];
            }
        }
        struct {
            uint8_t mask;
            unsigned op;
        } parts[4] = {{fin, ST_OP_MOV}, {pinf, ST_OP_MOV}, {minf, ST_OP_MOV}, {nan, ST_OP_ADD}};
        for (unsigned k = 0; k < 4; k++) {
            if (!parts[k].mask)
                continue;
            struct mir_src a = k == 1 ? inf : ninf;
            if (k == 0) {
                LLVMValueRef ev[4];
                for (unsigned l = 0; l < 4; l++)
                    ev[l] = LLVMConstReal(LLVMFloatTypeInContext(c), fv[l]);
                a = const_opnd(S, LLVMConstVector(ev, 4), fin);
            } else if (k == 3)
                a = inf;
            in = emit(S, parts[k].op);
            in->has_dst = true;
            in->dst = (struct mir_dst){.kind = MIR_VREG, .mask = parts[k].mask, .vreg = e->vreg};
            in->nsrc = k == 3 ? 2 : 1;
            in->src[0] = a;
            in->src[1] = ninf;
        }
    }
    if (S->failed)
        return false;
    /* move the new instructions to the front (no MIR index is held past
     * selection outside ps_1_x, which never gets here) */
    unsigned k = p->n - n0;
    struct mir_instr *tmp = malloc(sizeof(*tmp) * k);
    if (!tmp) {
        fail(S, "out of memory%s", "");
        return false;
    }
    memcpy(tmp, p->ins + n0, sizeof(*tmp) * k);
    memmove(p->ins + k, p->ins, sizeof(*tmp) * n0);
    memcpy(p->ins, tmp, sizeof(*tmp) * k);
    free(tmp);
    return true;
}

bool st_merge_select(struct st_ctx *ctx, const struct st_shader *sh, LLVMModuleRef m,
                     struct mir_prog *out, struct st_merge_stats *stats)
{
    struct sel S0, *S = &S0;
    memset(S, 0, sizeof(*S));
    S->ctx = ctx;
    S->sh = sh;
    S->p = out;
    S->stats = stats;
    S->ver = sh->version.ver;
    S->ps = sh->version.type == ST_PS;
    S->v3 = S->ver >= ST_VER(3, 0);
    S->ps1x = S->ps && S->ver < ST_VER(2, 0);
    S->arb = sh->dialect == ST_ARB;
    if (S->arb) { /* version 1.0 says nothing about Direct3D 9 models */
        S->ps1x = S->v3 = false;
        if (!sh->arb) {
            fail(S, "an ARB program without tables%s", "");
            return false;
        }
    }
    S->phase_at = MIR_NONE;
    out->arb = S->arb;
    out->type = sh->version.type;
    out->ver = sh->version.ver;
    out->loc = sh->version.loc;
    S->fn = LLVMGetNamedFunction(m, "st_main");
    if (!S->fn) {
        fail(S, "a module without st_main%s", "");
        return false;
    }
    S->arg_in = LLVMGetParam(S->fn, 0);
    S->arg_out = LLVMGetParam(S->fn, 1);
    S->arg_c = LLVMGetParam(S->fn, 2);
    S->arg_i = LLVMGetParam(S->fn, 3);
    S->arg_b = LLVMGetParam(S->fn, 4);
    S->arg_status = LLVMGetParam(S->fn, 5);
    /* the texel alloca: the last argument of every sample call */
    size_t ninst = 0;
    S->nbb = LLVMCountBasicBlocks(S->fn);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(S->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
            ninst++;
            if (opc(I) == LLVMCall && strcmp(callee_name(I), ST_LL_SAMPLE_FN) == 0)
                S->texel = op_(I, 5);
        }
    if (!st_poll(ctx, ninst)) /* compile budget, cancel: charged per IR instruction */
        return false;
    S->cap = 64;
    while (S->cap < ninst * 4 + 64)
        S->cap *= 2;
    S->tab = calloc(S->cap, sizeof(*S->tab));
    S->bbs = calloc(S->nbb ? S->nbb : 1, sizeof(*S->bbs));
    S->visited = calloc(S->nbb ? S->nbb : 1, 1);
    if (!S->tab || !S->bbs || !S->visited) {
        free(S->tab);
        free(S->bbs);
        free(S->visited);
        st_error(ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    unsigned bi = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(S->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        S->bbs[bi++] = bb;
    scan_shader(S);
    compute_demand(S);
    assign_homes(S);

    /* roots */
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(S->fn); bb && !S->failed;
         bb = LLVMGetNextBasicBlock(bb)) {
        if (!st_poll(ctx, 0)) /* the cancel callback, once a block */
            S->failed = true;
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
            unsigned o = opc(I);
            if (o == LLVMStore && out_slot_of_store(S, I) >= 0)
                need(S, op_(I, 0));
            else if (o == LLVMCall && strcmp(callee_name(I), ST_LL_SAMPLE_FN) == 0) {
                if (texldp_coords(I)) {
                    need(S, texldp_coords(I));
                    continue;
                }
                for (unsigned k = 2; k < 5; k++)
                    need(S, op_(I, k));
            }
            else if (o == LLVMBr && LLVMIsConditional(I)) {
                LLVMValueRef c = LLVMGetCondition(I);
                while (opc(c) == LLVMXor && !is_vec(c) && i1_lane_true(op_(c, 1), 0))
                    c = op_(c, 0);
                if (is_pred_cond(c))
                    need_pred(S, c, 1);
                else
                    need(S, LLVMGetCondition(I));
            }
            else if (o == LLVMCall && strcmp(callee_name(I), "st_opaque") == 0)
                need(S, I);
            else if (o == LLVMCall && strcmp(callee_name(I), "st_op.arb:kil") == 0)
                need(S, op_(I, 0));
            else if (o == LLVMCall && strncmp(callee_name(I), "st_op.ostore", 12) == 0) {
                struct relinfo ri;
                need(S, op_(I, 2));
                if (strcmp(callee_name(I), "st_op.ostore.rel") == 0 &&
                    rel_index_of(op_(I, 1), &ri) && ri.F)
                    need(S, ri.F);
            }
            else if (o == LLVMSelect && kill_source(I))
                need(S, I);
        }
    }
    /* phi registers exist before their copies are emitted */
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(S->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I && opc(I) == LLVMPHI;
             I = LLVMGetNextInstruction(I)) {
            struct vinfo *e = vi(S, I);
            if (!e->needed)
                continue;
            if (classify(S, I) != VK_PHI)
                continue; /* loop counters and aL: the loop code reads them */
            set_result(S, I, mir_new_vreg(out));
        }

    if (!S->failed && compute_pdom(S))
        walk(S, LLVMGetEntryBasicBlock(S->fn), NULL);
    if (!S->failed)
        nonfinite_prologue(S);
    free(S->tab);
    free(S->bbs);
    free(S->visited);
    free(S->pdom);
    return !S->failed;
}

unsigned st_merge_max_temps(const struct st_shader *sh)
{
    uint16_t v = sh->version.ver;
    if (sh->dialect == ST_ARB)
        return 256; /* MAX_PROGRAM_TEMPORARIES of translator/arb/arb_check.c */
    if (sh->version.type == ST_VS)
        return v >= ST_VER_2X ? 32 : 12;
    if (v < ST_VER(1, 4))
        return 2;
    if (v < ST_VER(2, 0))
        return 6;
    return v >= ST_VER_2X ? 32 : 12;
}

/* ------------------------------------------------------------------ */
/* Swizzle legality of the 2_0 pixel models.                           */

/* Lanes of src k's swizzle that matter (destination frame). */
static uint8_t swz_lanes_used(const struct mir_instr *in, unsigned k)
{
    if (in->op == MIR_OP_MERGE)
        return in->lanes[k];
    if (in->op == MIR_OP_OPAQUE)
        return in->lanes[k]; /* printed with the swizzles as written */
    if (mir_op_componentwise(in->op))
        return in->has_dst ? in->dst.mask : 0xf;
    switch (in->op) {
    case ST_OP_DP3: return 0x7; /* both sources */
    case ST_OP_TEXLD: return k == 0 ? 0x7 : 0;
    case ST_OP_NRM: /* the length from xyz, then each written lane scaled */
        return k == 0 ? (uint8_t)(0x7 | (in->has_dst ? in->dst.mask : 0xf)) : 0;
    case ST_OP_TEXLDP: case ST_OP_TEXLDL: case ST_OP_TEXLDB: case ST_OP_TEXLDD:
        return k == 0 ? 0xf : 0;
    case ST_OP_TEXKILL: return 0xf;
    case ST_OP_DP4: return 0xf;
    case ST_OP_DP2ADD: return k == 2 ? 0x1 : 0x3;
    case ST_OP_SINCOS: return k == 0 ? 0x1 : 0xf;
    case ST_OP_LIT: return 0xb;
    case ST_OP_DST: return k == 0 ? 0x6 : 0xa;
    case ST_OP_CRS: return 0x7;
    /* ARB programs */
    case ST_OP_ARB_DPH: return k == 0 ? 0x7 : 0xf;
    case ST_OP_ARB_LIT: return 0xb;
    case ST_OP_ARB_XPD: return 0x7;
    case ST_OP_ARB_KIL: return 0xf;
    case ST_OP_ARB_SWZ: return mir_arb_swz_lanes(in, in->has_dst ? in->dst.mask : 0xf);
    case ST_OP_ARB_TEX: case ST_OP_ARB_TXP: case ST_OP_ARB_TXB:
        return k == 0 ? mir_arb_tex_lanes(in->op, in->tex_target) : 0;
    default: return 0x1; /* scalar sources, if_cmp */
    }
}

static bool agrees(uint8_t a, uint8_t b, uint8_t lanes)
{
    for (unsigned l = 0; l < 4; l++)
        if ((lanes >> l) & 1 && ST_SWZ_LANE(a, l) != ST_SWZ_LANE(b, l))
            return false;
    return true;
}

/*
 * ps_1_1..1_3: sources take no swizzle but the .b/.a replicates, and
 * writemasks are .rgb, .a or whole.  A replicated read of a dp3/dp4 (whose
 * every written lane holds the same value) becomes a plain read with the
 * dot product writing those lanes too; a writemask grows to .rgb or whole
 * when the lanes it adds are dead.  Anything else is left for the check of
 * the printed text (a refusal, never a different program).
 */
static bool legalize_ps13(struct mir_prog *p)
{
    unsigned *defs = calloc(p->nvregs ? p->nvregs : 1, sizeof(unsigned));
    unsigned *defat = calloc(p->nvregs ? p->nvregs : 1, sizeof(unsigned));
    if (!defs || !defat) {
        free(defs);
        free(defat);
        return false;
    }
    for (unsigned i = 0; i < p->n; i++) {
        const struct mir_instr *in = &p->ins[i];
        if (!in->dead && in->has_dst && in->dst.kind == MIR_VREG) {
            defs[in->dst.vreg]++;
            defat[in->dst.vreg] = i;
        }
    }
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr *in = &p->ins[i];
        if (in->dead || in->op == MIR_OP_OPAQUE)
            continue;
        for (unsigned k = 0; k < in->nsrc; k++) {
            struct mir_src *s = &in->src[k];
            uint8_t used = swz_lanes_used(in, k);
            if (agrees(s->swz, ST_SWIZZLE_IDENTITY, used)) {
                s->swz = ST_SWIZZLE_IDENTITY;
                continue;
            }
            if (agrees(s->swz, 0xff, used) && s->kind == MIR_VREG) {
                s->swz = 0xff;
                continue;
            }
            if (s->kind != MIR_VREG || defs[s->vreg] != 1)
                continue;
            struct mir_instr *d = &p->ins[defat[s->vreg]];
            if (d->op != ST_OP_DP3 && d->op != ST_OP_DP4)
                continue;
            /* lanes read all hold the dot product */
            bool same = true;
            for (unsigned l = 0; l < 4; l++)
                if ((used >> l) & 1 && !((d->dst.mask >> ST_SWZ_LANE(s->swz, l)) & 1))
                    same = false;
            if (!same)
                continue;
            d->dst.mask |= used;
            s->swz = ST_SWIZZLE_IDENTITY;
        }
    }
    free(defs);
    free(defat);
    struct mir_live lv;
    if (!mir_liveness(p, &lv))
        return false;
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr *in = &p->ins[i];
        if (in->dead || !in->has_dst || in->dst.kind != MIR_VREG || in->op == MIR_OP_MERGE ||
            in->op == MIR_OP_OPAQUE || in->predicated)
            continue;
        uint8_t m = in->dst.mask;
        bool dot = in->op == ST_OP_DP3 || in->op == ST_OP_DP4;
        if (m == 0x7 || m == 0xf || (m == 0x8 && !dot))
            continue;
        uint8_t want = (m & 0x8) ? 0xf : 0x7;
        uint8_t extra = (uint8_t)(want & ~m);
        if (lv.out[(size_t)i * lv.nv + in->dst.vreg] & extra)
            continue;
        if (!mir_op_componentwise(in->op) && !mir_op_replicates(in->op))
            continue;
        in->dst.mask = want;
    }
    mir_live_free(&lv);
    return true;
}

bool mir_legalize_swizzles(struct mir_prog *p)
{
    if (p->type == ST_PS && p->ver < ST_VER(1, 4) && !p->arb)
        return legalize_ps13(p);
    /* ARB takes any swizzle; only one-lane reads become replicates below */
    bool strict = p->type == ST_PS && p->ver <= ST_VER_2X && !p->arb;
    static const uint8_t cand[8] = {ST_SWIZZLE_IDENTITY, 0x00, 0x55, 0xaa, 0xff,
                                    ST_SWIZZLE(1, 2, 0, 3), ST_SWIZZLE(2, 0, 1, 3),
                                    ST_SWIZZLE(3, 2, 1, 0)};
    struct mir_prog q = *p;
    q.ins = NULL;
    q.n = q.cap = 0;
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr cur = p->ins[i];
        bool texld = cur.op == ST_OP_TEXLD || cur.op == ST_OP_TEXLDP || cur.op == ST_OP_TEXKILL;
        for (unsigned k = 0; k < cur.nsrc && !cur.dead; k++) {
            struct mir_src *s = &cur.src[k];
            if (s->kind == MIR_FIXED && (s->file == ST_REG_SAMPLER || s->file == ST_REG_CONSTBOOL ||
                                         s->file == ST_REG_CONSTINT || s->file == ST_REG_LOOP))
                continue;
            uint8_t used = swz_lanes_used(&cur, k);
            bool need_plain = texld && k == 0;
            bool done = false;
            /* a one-lane read prints as a replicate (.x), the scalar ops want one */
            if (!need_plain && (used == 1 || used == 2 || used == 4 || used == 8)) {
                unsigned l = used == 1 ? 0 : used == 2 ? 1 : used == 4 ? 2 : 3;
                s->swz = (uint8_t)(ST_SWZ_LANE(s->swz, l) * 0x55);
                done = true;
            }
            for (unsigned c = 0; c < (need_plain ? 1u : 8u) && !done; c++)
                if (agrees(s->swz, cand[c], used) && (!need_plain || s->mod == MIR_MOD_NONE)) {
                    s->swz = cand[c];
                    done = true;
                }
            if (!done) {
                /* unread lanes print as themselves: .xyzw-like text */
                for (unsigned l = 0; l < 4; l++)
                    if (!((used >> l) & 1))
                        s->swz = (uint8_t)((s->swz & ~(3u << (2 * l))) | (l << (2 * l)));
            }
            if (done || !strict || (p->ver == ST_VER_2X && !need_plain))
                continue; /* ps_2_x takes any swizzle but on texld coordinates */
            /* lane by lane with replicate swizzles into a new register */
            uint32_t t = mir_new_vreg(p);
            q.nvregs = p->nvregs;
            for (unsigned l = 0; l < 4; l++) {
                uint8_t lanes = 0;
                for (unsigned d = 0; d < 4; d++)
                    if ((used >> d) & 1 && ST_SWZ_LANE(s->swz, d) == l)
                        lanes |= (uint8_t)(1u << d);
                if (!lanes)
                    continue;
                struct mir_instr *mv = mir_append(&q);
                if (!mv)
                    return false;
                mv->op = ST_OP_MOV;
                mv->has_dst = true;
                mv->dst = (struct mir_dst){.kind = MIR_VREG, .mask = lanes, .vreg = t};
                mv->nsrc = 1;
                mv->src[0] = *s;
                mv->src[0].swz = (uint8_t)(l * 0x55);
            }
            *s = mir_src_vreg(t, ST_SWIZZLE_IDENTITY);
        }
        struct mir_instr *o = mir_append(&q);
        if (!o)
            return false;
        *o = cur;
    }
    free(p->ins);
    p->ins = q.ins;
    p->n = q.n;
    p->cap = q.cap;
    return true;
}

/*
 * ps_1_x: new defs that found no free register during selection carry an
 * index from MIR_PS1X_VIRTUAL_C up.  Now that the program is final, a
 * register no live instruction reads (a def of the input whose value was
 * only folded into other constants, a constant nobody reads any more)
 * holds nothing the program needs: the defs left unread are dropped and
 * each virtual def takes one of the freed registers.  ps_1_x has no
 * relative constant reads, so an unread register is truly unread.
 */
static void mark_c(bool *refd, const struct st_src *s)
{
    if (s->reg.file == ST_REG_CONST && s->reg.index < 256)
        refd[s->reg.index] = true;
}

bool mir_place_ps1x_defs(struct mir_prog *p, unsigned nconst)
{
    bool virt = false;
    for (unsigned k = 0; k < p->ndefs; k++)
        if (p->defs[k].index >= MIR_PS1X_VIRTUAL_C)
            virt = true;
    if (!virt)
        return true;
    bool refd[256] = {false};
    bool vrefd[64] = {false};
    for (unsigned i = 0; i < p->n; i++) {
        const struct mir_instr *in = &p->ins[i];
        if (in->dead)
            continue;
        for (unsigned k = 0; k < in->nsrc && k < 4; k++) {
            const struct mir_src *s = &in->src[k];
            if (s->kind != MIR_FIXED || s->file != ST_REG_CONST)
                continue;
            if (s->index >= MIR_PS1X_VIRTUAL_C && s->index < MIR_PS1X_VIRTUAL_C + 64)
                vrefd[s->index - MIR_PS1X_VIRTUAL_C] = true;
            else if (s->index < 256)
                refd[s->index] = true;
        }
        if (in->op == MIR_OP_OPAQUE && in->ast) /* texm3x3spec reads a c# */
            for (unsigned k = 0; k < in->ast->nsrc && k < 5; k++)
                mark_c(refd, &in->ast->src[k]);
    }
    /* defs nobody reads go (their registers become free) */
    unsigned w = 0;
    for (unsigned k = 0; k < p->ndefs; k++) {
        uint32_t x = p->defs[k].index;
        bool keep = x >= MIR_PS1X_VIRTUAL_C ? vrefd[x - MIR_PS1X_VIRTUAL_C] : refd[x];
        if (keep)
            p->defs[w++] = p->defs[k];
    }
    p->ndefs = w;
    for (unsigned k = 0; k < p->ndefs; k++) {
        uint32_t x = p->defs[k].index;
        if (x < MIR_PS1X_VIRTUAL_C)
            continue;
        uint32_t r = 0;
        while (r < nconst && refd[r])
            r++;
        if (r == nconst)
            return false;
        refd[r] = true;
        p->defs[k].index = r;
        for (unsigned i = 0; i < p->n; i++)
            for (unsigned j = 0; j < p->ins[i].nsrc && j < 4; j++) {
                struct mir_src *s = &p->ins[i].src[j];
                if (s->kind == MIR_FIXED && s->file == ST_REG_CONST && s->index == x)
                    s->index = r;
            }
    }
    return true;
}
