/*
 * test_llvm.c — the LLVM lowering, the pass pipeline and our passes.
 *
 * Expected shapes and values are worked out by hand from the D3D9
 * instruction reference and the lowering rules of docs/llvm-abi.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "driver.h"
#include "emit.h"
#include "passes.h"
#include "translator.h"

/* ------------------------------------------------------------------ */
/* Building shaders by hand.                                           */

struct hs {
    struct st_arena *arena;
    struct st_shader *sh;
};

static void hs_init(struct hs *h, enum st_shader_type type, uint16_t ver)
{
    h->arena = st_arena_create();
    h->sh = st_arena_alloc(h->arena, sizeof(*h->sh));
    h->sh->dialect = ST_D3D9;
    h->sh->version.type = type;
    h->sh->version.ver = ver;
    h->sh->version.loc = (struct st_loc){1, 1};
    h->sh->arena = h->arena;
}

static struct st_instr *hs_add(struct hs *h, enum st_opcode op)
{
    struct st_instr *i = st_arena_alloc(h->arena, sizeof(*i));
    i->op = op;
    i->loc = (struct st_loc){h->sh->num_instrs + 2, 1};
    if (h->sh->last)
        h->sh->last->next = i;
    else
        h->sh->first = i;
    h->sh->last = i;
    h->sh->num_instrs++;
    return i;
}

static void hs_dst(struct st_instr *i, enum st_regfile f, uint32_t idx, uint8_t mask)
{
    i->has_dst = true;
    i->dst.reg.file = f;
    i->dst.reg.index = idx;
    i->dst.writemask = mask;
}

static void hs_src(struct st_instr *i, enum st_regfile f, uint32_t idx, uint8_t swz)
{
    struct st_src *s = &i->src[i->nsrc++];
    s->reg.file = f;
    s->reg.index = idx;
    s->swizzle = swz;
    s->swizzle_len = swz == ST_SWIZZLE_IDENTITY ? 0 : 4;
}

/* op rD.mask, rA, rB (temps, identity swizzles) */
static void hs_binop(struct hs *h, enum st_opcode op, uint32_t d, uint8_t mask, uint32_t a,
                     uint32_t b)
{
    struct st_instr *i = hs_add(h, op);
    hs_dst(i, ST_REG_TEMP, d, mask);
    hs_src(i, ST_REG_TEMP, a, ST_SWIZZLE_IDENTITY);
    hs_src(i, ST_REG_TEMP, b, ST_SWIZZLE_IDENTITY);
}

/* ------------------------------------------------------------------ */
/* IR inspection.                                                      */

static unsigned count_op(LLVMValueRef fn, LLVMOpcode op)
{
    unsigned n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (LLVMGetInstructionOpcode(i) == op)
                n++;
    return n;
}

static LLVMValueRef find_op(LLVMValueRef fn, LLVMOpcode op)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (LLVMGetInstructionOpcode(i) == op)
                return i;
    return NULL;
}

/* Merges in the module (st_llvm_is_merge), as --stats counts them. */
static unsigned count_merges(LLVMModuleRef m)
{
    unsigned n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
                n += st_llvm_is_merge(i);
    return n;
}

/* The metadata our passes leave for the merge stage (passes.h). */
static LLVMValueRef pass_mark(LLVMValueRef inst, const char *kind)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(inst));
    return LLVMGetMetadata(inst, LLVMGetMDKindIDInContext(c, kind, (unsigned)strlen(kind)));
}

static bool is_uniform(LLVMValueRef inst)
{
    return pass_mark(inst, ST_MD_UNIFORM) != NULL;
}

/* The lanes !st.lanes records (0xf when there is none). */
static unsigned lanes(LLVMValueRef inst)
{
    LLVMValueRef md = pass_mark(inst, ST_MD_LANES), op[1];
    if (!md)
        return 0xf;
    assert_int_equal(LLVMGetMDNodeNumOperands(md), 1);
    LLVMGetMDNodeOperands(md, op);
    assert_true(LLVMIsAConstantInt(op[0]) != NULL);
    return (unsigned)LLVMConstIntGetZExtValue(op[0]);
}

static void run_passes(LLVMModuleRef m, const char *p)
{
    LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(m, p, NULL, o);
    LLVMDisposePassBuilderOptions(o);
    assert_null(e);
}

static void assert_verifies(LLVMModuleRef m)
{
    char *msg = NULL;
    int broken = LLVMVerifyModule(m, LLVMReturnStatusAction, &msg);
    if (broken)
        fprintf(stderr, "verifier: %s\n", msg);
    LLVMDisposeMessage(msg);
    assert_false(broken);
}

/* ------------------------------------------------------------------ */
/* The seed case of the design.                                        */

static void build_seed(struct hs *h)
{
    hs_init(h, ST_VS, ST_VER(3, 0));
    hs_binop(h, ST_OP_MUL, 0, 0x3, 1, 2); /* mul r0.xy, r1, r2 */
    hs_binop(h, ST_OP_ADD, 0, 0xc, 3, 4); /* add r0.zw, r3, r4 */
    hs_binop(h, ST_OP_SUB, 5, 0xf, 0, 1); /* sub r5, r0, r1 */
}

static void test_seed_after_mem2reg(void **state)
{
    (void)state;
    struct hs h;
    build_seed(&h);
    struct st_ctx *ctx = st_ctx_create("seed", "", 0, 50);
    LLVMContextRef c = LLVMContextCreate();
    LLVMModuleRef m = st_lower_llvm(ctx, h.sh, ST_FLOAT_IEEE, c);
    assert_non_null(m);
    assert_int_equal(st_error_count(ctx), 0);
    assert_verifies(m);
    /* Raw: the second write merges (load old r0, shuffle, store). */
    assert_int_equal(count_merges(m), 1);

    run_passes(m, "function(mem2reg)");
    assert_verifies(m);
    LLVMValueRef fn = LLVMGetNamedFunction(m, "st_main");
    assert_non_null(fn);
    assert_int_equal(count_op(fn, LLVMFMul), 1);
    assert_int_equal(count_op(fn, LLVMFAdd), 1);
    assert_int_equal(count_op(fn, LLVMFSub), 1);
    assert_int_equal(count_op(fn, LLVMShuffleVector), 1);
    /* every register alloca was promoted: nothing is loaded any more */
    assert_int_equal(count_op(fn, LLVMAlloca), 0);
    assert_int_equal(count_op(fn, LLVMLoad), 0);

    LLVMValueRef shuf = find_op(fn, LLVMShuffleVector);
    /* lanes x, y from the mul (0, 1), z, w from the add (4+2, 4+3) */
    static const int want[4] = {0, 1, 6, 7};
    assert_int_equal(LLVMGetNumMaskElements(shuf), 4);
    for (unsigned i = 0; i < 4; i++)
        assert_int_equal(LLVMGetMaskValue(shuf, i), want[i]);
    assert_ptr_equal(LLVMGetOperand(shuf, 0), find_op(fn, LLVMFMul));
    assert_ptr_equal(LLVMGetOperand(shuf, 1), find_op(fn, LLVMFAdd));
    assert_true(st_llvm_is_merge(shuf));
    /* and the sub reads the merged r0 */
    assert_ptr_equal(LLVMGetOperand(find_op(fn, LLVMFSub), 0), shuf);

    LLVMDisposeModule(m);
    LLVMContextDispose(c);
    st_ctx_destroy(ctx);
    st_arena_destroy(h.arena);
}

/* The full pipeline keeps the module valid and reports the counts. */
static void test_seed_pipeline_stats(void **state)
{
    (void)state;
    struct hs h;
    build_seed(&h);
    struct st_ctx *ctx = st_ctx_create("seed", "", 0, 50);
    LLVMContextRef c = LLVMContextCreate();
    LLVMModuleRef m = st_lower_llvm(ctx, h.sh, ST_FLOAT_IEEE, c);
    assert_non_null(m);
    struct st_llvm_stats s;
    assert_true(st_llvm_pipeline_for(ctx, m, ST_PIPE_JIT, &s));
    assert_int_equal(st_error_count(ctx), 0);
    assert_int_equal(s.instrs_in, 3);
    assert_int_equal(s.merges_raw, 1);
    assert_verifies(m);
    LLVMDisposeModule(m);
    LLVMContextDispose(c);
    st_ctx_destroy(ctx);
    st_arena_destroy(h.arena);
}

/* ------------------------------------------------------------------ */
/* Shaders from text (the project's parser and checker).               */

struct ts {
    struct st_ctx *ctx;
    struct st_arena *arena;
    struct st_shader *sh;
    LLVMContextRef c;
    LLVMModuleRef m;
};

static void ts_parse(struct ts *t, const char *src)
{
    memset(t, 0, sizeof(*t));
    t->ctx = st_ctx_create("t.asm", src, strlen(src), 50);
    t->arena = st_arena_create();
    t->sh = st_parse_d3d9(t->ctx, t->arena);
    assert_non_null(t->sh);
    assert_int_equal(st_error_count(t->ctx), 0);
    assert_true(st_check(t->ctx, t->sh));
    t->c = LLVMContextCreate();
}

static void ts_lower(struct ts *t, enum st_float_rules rules)
{
    t->m = st_lower_llvm(t->ctx, t->sh, rules, t->c);
    assert_non_null(t->m);
    assert_verifies(t->m);
}

static void ts_free(struct ts *t)
{
    if (t->m)
        LLVMDisposeModule(t->m);
    LLVMContextDispose(t->c);
    st_ctx_destroy(t->ctx);
    st_arena_destroy(t->arena);
}

static LLVMValueRef main_fn(struct ts *t)
{
    return LLVMGetNamedFunction(t->m, "st_main");
}

static unsigned count_diag(struct st_ctx *ctx, unsigned code, unsigned *line)
{
    struct st_result res;
    memset(&res, 0, sizeof(res));
    assert_true(st_ctx_export(ctx, &res));
    unsigned n = 0;
    for (size_t i = 0; i < res.num_diagnostics; i++)
        if (res.diagnostics[i].code == code) {
            n++;
            if (line)
                *line = res.diagnostics[i].line;
        }
    for (size_t i = 0; i < res.num_diagnostics; i++) {
        free((char *)res.diagnostics[i].message);
        free((char *)res.diagnostics[i].source_line);
    }
    if (res.num_diagnostics)
        free((char *)res.diagnostics[0].file);
    free((void *)res.diagnostics);
    return n;
}

/* ------------------------------------------------------------------ */
/* Uniformity.                                                         */

static LLVMValueRef first_with(LLVMValueRef fn, LLVMOpcode op, unsigned nth)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (LLVMGetInstructionOpcode(i) == op && nth-- == 0)
                return i;
    return NULL;
}

/* c0 * c1 depends on constants only; adding v0 makes it vary. */
static void test_uniform_data(void **state)
{
    (void)state;
    struct ts t;
    ts_parse(&t, "vs_2_0\ndcl_position v0\nmul r0, c0, c1\nadd oPos, r0, v0\n");
    ts_lower(&t, ST_FLOAT_IEEE);
    run_passes(t.m, "function(mem2reg)");
    assert_true(st_pass_uniformity(t.m) > 0);
    LLVMValueRef fn = main_fn(&t);
    LLVMValueRef mul = find_op(fn, LLVMFMul), add = find_op(fn, LLVMFAdd);
    assert_non_null(mul);
    assert_non_null(add);
    assert_true(is_uniform(mul));
    assert_false(is_uniform(add));
    ts_free(&t);
}

/*
 * Both arms load constants, but after a branch on v0.x the phi joining
 * them differs between invocations; after a branch on b0 it does not.
 */
static void test_uniform_control(void **state)
{
    (void)state;
    static const char *const src[2] = {
        "vs_2_x\ndcl_position v0\nif_lt v0.x, c0.x\nmov r0, c1\nelse\nmov r0, c2\nendif\n"
        "mov oPos, r0\n",
        "vs_2_0\ndcl_position v0\nif b0\nmov r0, c1\nelse\nmov r0, c2\nendif\nmov oPos, r0\n",
    };
    for (int k = 0; k < 2; k++) {
        struct ts t;
        ts_parse(&t, src[k]);
        ts_lower(&t, ST_FLOAT_IEEE);
        run_passes(t.m, "function(mem2reg)");
        st_pass_uniformity(t.m);
        LLVMValueRef phi = NULL;
        /* the phi of r0 (the one of <4 x float> type) */
        for (unsigned n = 0; (phi = first_with(main_fn(&t), LLVMPHI, n)); n++)
            if (LLVMGetTypeKind(LLVMTypeOf(phi)) == LLVMVectorTypeKind)
                break;
        assert_non_null(phi);
        if (k == 0)
            assert_false(is_uniform(phi));
        else
            assert_true(is_uniform(phi));
        ts_free(&t);
    }
}

/* ------------------------------------------------------------------ */
/* Lane demand.                                                        */

/* r0 = (v0.xy, v1.zw) but only r0.x is read: the merge goes, v0 stays. */
static void test_lane_demand_drops_merge(void **state)
{
    (void)state;
    struct ts t;
    ts_parse(&t, "vs_2_0\ndcl_position v0\ndcl_normal v1\nmov r0.xy, v0\nmov r0.zw, v1\n"
                 "mov oPos, r0.x\n");
    ts_lower(&t, ST_FLOAT_IEEE);
    run_passes(t.m, "function(mem2reg)");
    assert_int_equal(count_merges(t.m), 1);
    assert_true(st_pass_lane_demand(t.m) >= 1);
    assert_verifies(t.m);
    assert_int_equal(count_merges(t.m), 0);
    /* the splat r0.x now reads v0 directly, and reads all its lanes out */
    LLVMValueRef shuf = find_op(main_fn(&t), LLVMShuffleVector);
    assert_non_null(shuf);
    assert_true(LLVMIsALoadInst(LLVMGetOperand(shuf, 0)) != NULL);
    assert_int_equal(lanes(shuf), 0xf);
    /* and the input it reads is demanded in lane x only */
    assert_int_equal(lanes(LLVMGetOperand(shuf, 0)), 0x1);
    ts_free(&t);
}

/* ------------------------------------------------------------------ */
/* Diagnostics.                                                        */

/* A subroutine calling itself cannot be inlined: located ST3001, no crash. */
static void test_recursion_not_supported(void **state)
{
    (void)state;
    struct hs h;
    hs_init(&h, ST_VS, ST_VER(2, 0));
    struct st_instr *call = hs_add(&h, ST_OP_CALL);
    hs_src(call, ST_REG_LABEL, 0, ST_SWIZZLE_IDENTITY);
    hs_add(&h, ST_OP_RET);
    struct st_instr *lab = hs_add(&h, ST_OP_LABEL);
    hs_src(lab, ST_REG_LABEL, 0, ST_SWIZZLE_IDENTITY);
    struct st_instr *again = hs_add(&h, ST_OP_CALL);
    hs_src(again, ST_REG_LABEL, 0, ST_SWIZZLE_IDENTITY);
    hs_add(&h, ST_OP_RET);
    struct st_ctx *ctx = st_ctx_create("rec", "", 0, 50);
    LLVMContextRef c = LLVMContextCreate();
    assert_null(st_lower_llvm(ctx, h.sh, ST_FLOAT_IEEE, c));
    unsigned line = 0;
    assert_int_equal(count_diag(ctx, ST_E_NOT_SUPPORTED, &line), 1);
    assert_int_equal(line, again->loc.line);
    LLVMContextDispose(c);
    st_ctx_destroy(ctx);
    st_arena_destroy(h.arena);
}

/* ------------------------------------------------------------------ */
/* The JIT, with values worked out by hand.                            */

struct run {
    struct st_run_inputs in;
    struct st_run_invocation inv[8];
    struct st_run_outputs out[8];
};

static bool jit(struct ts *t, struct run *r, unsigned n, enum st_float_rules rules)
{
    r->in.num_invocations = n;
    r->in.inv = r->inv;
    struct st_llvm_stats s;
    assert_true(st_llvm_pipeline_for(t->ctx, t->m, ST_PIPE_JIT, &s));
    return st_llvm_jit_execute(t->ctx, t->sh, t->m, &r->in, rules, r->out);
}

static void assert_vec(const float got[4], float x, float y, float z, float w)
{
    const float want[4] = {x, y, z, w};
    for (int k = 0; k < 4; k++) {
        if (memcmp(&got[k], &want[k], sizeof(float)) != 0)
            fprintf(stderr, "lane %d: got %.9g want %.9g\n", k, got[k], want[k]);
        assert_memory_equal(&got[k], &want[k], sizeof(float));
    }
}

/* mad oPos, v0, c0, c1 = (1*2+10, 2*3+20, 3*4+30, 4*5+40) */
static void test_jit_mad(void **state)
{
    (void)state;
    struct ts t;
    ts_parse(&t, "vs_2_0\ndcl_position v0\ndef c1, 10, 20, 30, 40\nmad oPos, v0, c0, c1\n");
    ts_lower(&t, ST_FLOAT_IEEE);
    static struct run r;
    memset(&r, 0, sizeof(r));
    const float v0[4] = {1, 2, 3, 4}, c0[4] = {2, 3, 4, 5}, c1[4] = {10, 20, 30, 40};
    memcpy(r.inv[0].in[ST_LL_IN_V], v0, sizeof(v0));
    memcpy(r.in.c[0], c0, sizeof(c0));
    memcpy(r.in.c[1], c1, sizeof(c1)); /* the def, as st_run_inputs_parse applies it */
    assert_true(jit(&t, &r, 1, ST_FLOAT_IEEE));
    assert_int_equal(r.out[0].count, 1);
    assert_int_equal(r.out[0].reg[0].file, ST_REG_RASTOUT);
    assert_vec(r.out[0].reg[0].v, 12, 26, 42, 60);
    ts_free(&t);
}

/* A module lowered for one float rule refuses to run under the other. */
static void test_jit_rules_checked(void **state)
{
    (void)state;
    struct ts t;
    ts_parse(&t, "vs_2_0\ndcl_position v0\nmul oPos, v0, c0\n");
    ts_lower(&t, ST_FLOAT_D3D9);
    static struct run r;
    memset(&r, 0, sizeof(r));
    /* d3d9: 0 * inf = +0; the other lanes IEEE */
    r.inv[0].in[ST_LL_IN_V][0] = 0.0f;
    r.inv[0].in[ST_LL_IN_V][1] = 2.0f;
    r.inv[0].in[ST_LL_IN_V][2] = -0.0f;
    r.inv[0].in[ST_LL_IN_V][3] = 3.0f;
    r.in.c[0][0] = INFINITY;
    r.in.c[0][1] = NAN;
    r.in.c[0][2] = 5.0f;
    r.in.c[0][3] = 0.5f;
    assert_true(jit(&t, &r, 1, ST_FLOAT_D3D9));
    assert_true(isnan(r.out[0].reg[0].v[1]));
    const float got[4] = {r.out[0].reg[0].v[0], 0.0f, r.out[0].reg[0].v[2], r.out[0].reg[0].v[3]};
    assert_vec(got, 0.0f, 0.0f, 0.0f, 1.5f); /* -0 * 5 is +0 under d3d9 */
    assert_false(st_llvm_jit_execute(t.ctx, t.sh, t.m, &r.in, ST_FLOAT_IEEE, r.out));
    assert_int_equal(count_diag(t.ctx, ST_E_NOT_SUPPORTED, NULL), 1);
    ts_free(&t);
}

/*
 * dsx/dsy over a quad 0 1 / 2 3 with v0.x = 1, 4, 2, 8 and v0.y = 10, 20,
 * 40, 80.  dsx (right - left in the row): row 0 x 4-1 = 3, y 20-10 = 10;
 * row 1 x 8-2 = 6, y 80-40 = 40.  dsy (bottom - top in the column):
 * column 0 x 2-1 = 1, y 40-10 = 30; column 1 x 8-4 = 4, y 80-20 = 60.  A
 * fifth invocation is a quad of one: no neighbours, derivatives 0.
 */
static void test_jit_derivatives(void **state)
{
    (void)state;
    struct ts t;
    ts_parse(&t, "ps_3_0\ndcl_texcoord0 v0\ndsx r0, v0\ndsy r1, v0\nmov oC0, r0\nmov oC1, r1\n");
    ts_lower(&t, ST_FLOAT_IEEE);
    static struct run r;
    memset(&r, 0, sizeof(r));
    const float x[5] = {1, 4, 2, 8, 7}, y[5] = {10, 20, 40, 80, 5};
    for (int k = 0; k < 5; k++) {
        r.inv[k].in[ST_LL_IN_V][0] = x[k];
        r.inv[k].in[ST_LL_IN_V][1] = y[k];
    }
    assert_true(jit(&t, &r, 5, ST_FLOAT_IEEE));
    const float dsx[5][2] = {{3, 10}, {3, 10}, {6, 40}, {6, 40}, {0, 0}};
    const float dsy[5][2] = {{1, 30}, {4, 60}, {1, 30}, {4, 60}, {0, 0}};
    for (int k = 0; k < 5; k++) {
        assert_int_equal(r.out[k].count, 2);
        assert_vec(r.out[k].reg[0].v, dsx[k][0], dsx[k][1], 0, 0);
        assert_vec(r.out[k].reg[1].v, dsy[k][0], dsy[k][1], 0, 0);
    }
    ts_free(&t);
}

/*
 * Divergent flow around dsx: invocations with v0.x < 0 skip it.  With
 * v0.x = 1, 4, -2, 8 the row 0 pair runs it together (4-1 = 3); in row 1
 * invocation 3 is alone (its neighbour 2 is elsewhere): 0.  Invocation 2
 * never writes r0: 0.
 */
static void test_jit_divergent_derivative(void **state)
{
    (void)state;
    struct ts t;
    ts_parse(&t, "ps_3_0\ndcl_texcoord0 v0\ndef c0, 0, 0, 0, 0\nif_ge v0.x, c0.x\n"
                 "dsx r0, v0\nendif\nmov oC0, r0\n");
    ts_lower(&t, ST_FLOAT_IEEE);
    static struct run r;
    memset(&r, 0, sizeof(r));
    const float x[4] = {1, 4, -2, 8};
    for (int k = 0; k < 4; k++)
        r.inv[k].in[ST_LL_IN_V][0] = x[k];
    assert_true(jit(&t, &r, 4, ST_FLOAT_IEEE));
    const float want[4] = {3, 3, 0, 0};
    for (int k = 0; k < 4; k++)
        assert_vec(r.out[k].reg[0].v, want[k], 0, 0, 0);
    ts_free(&t);
}

/* c[a0.x + 2] with a0.x = round(v0.x): in range reads c, outside reads 0 and warns. */
static void test_jit_reladdr(void **state)
{
    (void)state;
    struct ts t;
    ts_parse(&t, "vs_2_0\ndcl_position v0\nmova a0.x, v0.x\nmov oPos, c[a0.x + 2]\n");
    ts_lower(&t, ST_FLOAT_IEEE);
    static struct run r;
    memset(&r, 0, sizeof(r));
    r.inv[0].in[ST_LL_IN_V][0] = 0.5f;     /* rounds half up: 1 -> c3 */
    r.inv[1].in[ST_LL_IN_V][0] = 300.0f;   /* 302: outside c0..c255 */
    r.inv[2].in[ST_LL_IN_V][0] = -2.5f;    /* floor(-2.0) = -2 -> c0 */
    for (int k = 0; k < 4; k++) {
        r.in.c[3][k] = 3.0f + (float)k;
        r.in.c[0][k] = -1.0f;
    }
    assert_true(jit(&t, &r, 3, ST_FLOAT_IEEE));
    assert_vec(r.out[0].reg[0].v, 3, 4, 5, 6);
    assert_vec(r.out[1].reg[0].v, 0, 0, 0, 0);
    assert_vec(r.out[2].reg[0].v, -1, -1, -1, -1);
    assert_int_equal(count_diag(t.ctx, ST_W_RELADDR_RANGE, NULL), 1);
    ts_free(&t);
}

/*
 * --emit=llvm-raw shows the merge; --emit=llvm keeps it (both lanes pairs
 * are read).  Both print the compile pipeline's form: the mul is a marker.
 */
static void test_emit_text(void **state)
{
    (void)state;
    struct ts t;
    ts_parse(&t, "vs_2_0\ndcl_position v0\nmul r0.xy, v0, c0\nadd r0.zw, v0, c1\n"
                 "sub oPos, r0, c2\n");
    struct st_buf raw = {0}, opt = {0}, st = {0};
    struct st_pipeline_stats ps;
    const struct st_llvm_stats *s = &ps.llvm;
    assert_true(st_pipeline_mir(t.ctx, t.sh, ST_EMIT_LLVM_RAW, &raw, NULL, &ps));
    assert_non_null(raw.data);
    assert_non_null(strstr(raw.data, "<4 x i32> <i32 0, i32 1, i32 6, i32 7>"));
    assert_non_null(strstr(raw.data, "alloca <4 x float>"));
    assert_non_null(strstr(raw.data, "call <4 x float> @st.mul("));
    assert_int_equal(s->instrs_in, 3);
    assert_int_equal(s->merges_raw, 1);
    assert_int_equal(s->merges_after, 1);
    assert_true(st_pipeline_mir(t.ctx, t.sh, ST_EMIT_LLVM, &opt, NULL, NULL));
    assert_null(strstr(opt.data, "alloca"));
    assert_non_null(strstr(opt.data, "<4 x i32> <i32 0, i32 1, i32 6, i32 7>"));
    assert_non_null(strstr(opt.data, "!st.uniform"));
    st_llvm_stats_format(s, &st);
    assert_non_null(strstr(st.data, "instructions in 3, merges raw 1, merges after passes 1"));
    st_buf_free(&raw);
    st_buf_free(&opt);
    st_buf_free(&st);
    ts_free(&t);
}

/*
 * The whole of `run --engine=llvm` from JSON to JSON, next to the
 * interpreter's: the same text.  Hand check: oPos = v0 * c0 + c1 =
 * (1*2+0.5, 2*2+0.5, -1*2+0.5, 0*2+0.5) = (2.5, 4.5, -1.5, 0.5); the
 * second invocation gives v0 the default (0,0,0,1): (0.5, 0.5, 0.5, 2.5).
 */
static void test_run_json(void **state)
{
    (void)state;
    struct ts t;
    ts_parse(&t, "vs_2_0\ndcl_position v0\ndef c1, 0.5, 0.5, 0.5, 0.5\nmad oPos, v0, c0.x, c1\n");
    const char *json = "{\"constants\": {\"c0\": [2, 7, 7, 7]},"
                       " \"invocations\": [{\"v0\": [1, 2, -1, 0]}, {}]}";
    struct st_buf a = {0}, b = {0};
    assert_true(st_run_jit(t.ctx, t.sh, "in.json", json, strlen(json), ST_FLOAT_IEEE, &a));
    assert_true(st_interp_run(t.ctx, t.sh, "in.json", json, strlen(json), ST_FLOAT_IEEE, &b));
    assert_non_null(a.data);
    assert_non_null(b.data);
    assert_string_equal(a.data, b.data);
    assert_non_null(strstr(a.data, "\"oPos\": [2.5, 4.5, -1.5, 0.5]"));
    assert_non_null(strstr(a.data, "\"oPos\": [0.5, 0.5, 0.5, 2.5]"));
    st_buf_free(&a);
    st_buf_free(&b);
    ts_free(&t);
}

/*
 * Two min/max-like selects in a row must keep their own NaN behaviour
 * (passes/minmax_fence.c: LLVM 19's instcombine folded max(max(x, 1), 1)
 * into max(x, 1)).  Worked out by hand for x = (NaN, -0, 2, 0.5):
 *   D3D9 max is a >= b ? a : b: t = max(1, x) = (NaN, 1, 2, 1) (1 >= NaN is
 *   false), max(t, 1) = (1, 1, 2, 1);  mov_sat gives (0, -0, 1, 0.5) (_sat
 *   keeps -0, NaN gives +0) and max with c0 = 0 keeps it (-0 >= 0);
 *   ARB MAX is a > b ? a : b: the same values for this chain;
 *   MAX_SAT(0, x): MAX = (NaN, -0, 2, 0.5) (0 > -0 is false), _SAT =
 *   (0, -0, 1, 0.5).
 * Every engine must print them, under both float rules.
 */
static char *run_engine(const char *src, const char *json, enum st_engine e,
                        enum st_float_rules rules)
{
    struct st_options o;
    memset(&o, 0, sizeof(o));
    o.struct_version = ST_OPTIONS_VERSION;
    o.filename = "chain";
    o.source = src;
    o.source_len = strlen(src);
    o.emit = ST_EMIT_NONE;
    struct st_run_options r;
    memset(&r, 0, sizeof(r));
    r.struct_version = ST_RUN_OPTIONS_VERSION;
    r.compile = &o;
    r.inputs_filename = "chain.json";
    r.inputs_json = json;
    r.inputs_len = strlen(json);
    r.float_rules = rules;
    r.engine = e;
    struct st_result *res = NULL;
    assert_int_equal(st_run(&r, &res), 0);
    assert_non_null(res);
    char *out = res->ok && res->output ? strdup(res->output) : NULL;
    st_result_free(res);
    return out;
}

/*
 * _sat keeps -0 (docs/interpreter.md), in every engine: the JIT's compares
 * and selects, and the Gen kernel, where (sat) goes on the mad / mul
 * itself.  Worked out by hand, v0 = (0, 1e-30, -0.25, 2):
 *   mad_sat v0 * (-2, -1e-30, 3, 1) + (-0, 0.5, 0.75, 0):
 *     0 * -2 + -0 = -0 + -0 = -0 (d3d9: the zero factor gives +0, +0 + -0
 *     = +0); -1e-60 (-0 or a tiny negative, either reading) + 0.5 = 0.5;
 *     -0.75 + 0.75 = +0; 2 + 0 -> 1;
 *   mul_sat v0 * (-1e-30, -1e-30, -4, 0.25): -0 (d3d9 +0); -1e-60 rounds
 *     to -0 under both rules; 1; 0.5.
 */
static void test_saturate_keeps_negative_zero(void **state)
{
    (void)state;
    const char *src = "ps_3_0\n"
                      "def c0, -2, -1e-30, 3, 1\n"
                      "def c1, -0.0, 0.5, 0.75, 0\n"
                      "def c2, -1e-30, -1e-30, -4, 0.25\n"
                      "dcl_texcoord0 v0\n"
                      "mad_sat r0, v0, c0, c1\n"
                      "mul_sat r1, v0, c2\n"
                      "mov oC0, r0\n"
                      "mov oC1, r1\n";
    const char *json = "{\"invocations\": [{\"v0\": [0, 1e-30, -0.25, 2]}]}";
    static const char *const want[2][2] = {
        {"\"oC0\": [-0, 0.5, 0, 1]", "\"oC1\": [-0, -0, 1, 0.5]"},
        {"\"oC0\": [0, 0.5, 0, 1]", "\"oC1\": [0, -0, 1, 0.5]"},
    };
    for (int e = 0; e < 3; e++)
        for (int rules = 0; rules < 2; rules++) {
            enum st_engine eng = e == 0 ? ST_ENGINE_INTERP : e == 1 ? ST_ENGINE_LLVM : ST_ENGINE_GEN;
            char *out = run_engine(src, json, eng, rules ? ST_FLOAT_D3D9 : ST_FLOAT_IEEE);
            assert_non_null(out);
            for (int k = 0; k < 2; k++)
                if (!strstr(out, want[rules][k]))
                    fail_msg("engine %d, rules %d: %s (want %s)", e, rules, out, want[rules][k]);
            free(out);
        }
}

static void test_minmax_chains_keep_nan(void **state)
{
    (void)state;
    static const struct {
        const char *src, *json, *want;
    } cases[] = {
        {"ps_3_0\ndef c0, 1, 1, 1, 1\ndcl_texcoord0 v0\nmax r0, c0, v0\nmax r1, r0, c0\nmov oC0, r1\n",
         "{\"invocations\": [{\"v0\": [\"nan\", -0.0, 2, 0.5]}]}", "\"oC0\": [1, 1, 2, 1]"},
        {"ps_3_0\ndef c0, 0, 0, 0, 0\ndcl_texcoord0 v0\nmov_sat r0, v0\nmax r1, r0, c0\nmov oC0, r1\n",
         "{\"invocations\": [{\"v0\": [\"nan\", -0.0, 2, 0.5]}]}", "\"oC0\": [0, -0, 1, 0.5]"},
        {"!!ARBfp1.0\nATTRIB x = fragment.texcoord[0];\nTEMP t;\nMAX t, {1}.x, x;\n"
         "MAX result.color, t, {1}.x;\nEND\n",
         "{\"invocations\": [{\"fragment.texcoord[0]\": [\"nan\", -0.0, 2, 0.5]}]}",
         "\"result.color\": [1, 1, 2, 1]"},
        {"!!ARBfp1.0\nATTRIB x = fragment.texcoord[0];\nMAX_SAT result.color, {0}.x, x;\nEND\n",
         "{\"invocations\": [{\"fragment.texcoord[0]\": [\"nan\", -0.0, 2, 0.5]}]}",
         "\"result.color\": [0, -0, 1, 0.5]"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        for (int e = 0; e < 3; e++)
            for (int rules = 0; rules < 2; rules++) {
                enum st_engine eng = e == 0 ? ST_ENGINE_INTERP : e == 1 ? ST_ENGINE_LLVM : ST_ENGINE_GEN;
                char *out = run_engine(cases[i].src, cases[i].json, eng,
                                       rules ? ST_FLOAT_D3D9 : ST_FLOAT_IEEE);
                assert_non_null(out);
                if (!strstr(out, cases[i].want))
                    fail_msg("case %u, engine %d, rules %d: %s (want %s)", (unsigned)i, e, rules, out,
                             cases[i].want);
                free(out);
            }
}

/*
 * o[a0.x + 12] with a0 never written (wine 150_vs_3_0_6): a0.x reads 0,
 * so the address is o12, past o0..o11 -- the write is dropped with the
 * ST5003 warning, in the JIT as in the interpreter.  The JIT used to take
 * the address from an undefined a0 lane (no warning).
 */
static void test_unwritten_a0_destination(void **state)
{
    (void)state;
    const char *src = "vs_3_0\ndcl_position o0\nmov o[a0.x + 12], c0\nmov o0, c0\n";
    const char *json = "{\"constants\": {\"c0\": [1, 2, 3, 4]}, \"invocations\": [{}]}";
    for (int e = 0; e < 2; e++) {
        struct st_options o;
        memset(&o, 0, sizeof(o));
        o.struct_version = ST_OPTIONS_VERSION;
        o.filename = "a0.vs";
        o.source = src;
        o.source_len = strlen(src);
        o.emit = ST_EMIT_NONE;
        struct st_run_options r;
        memset(&r, 0, sizeof(r));
        r.struct_version = ST_RUN_OPTIONS_VERSION;
        r.compile = &o;
        r.inputs_filename = "a0.json";
        r.inputs_json = json;
        r.inputs_len = strlen(json);
        r.engine = e ? ST_ENGINE_LLVM : ST_ENGINE_INTERP;
        struct st_result *res = NULL;
        assert_int_equal(st_run(&r, &res), 0);
        assert_true(res->ok);
        bool warned = false;
        for (size_t k = 0; k < res->num_diagnostics; k++)
            if (res->diagnostics[k].code == ST_W_RELADDR_RANGE && res->diagnostics[k].line == 3)
                warned = true;
        if (!warned)
            fail_msg("engine %d: no ST5003 for o[a0.x + 12] with a0.x = 0", e);
        assert_non_null(strstr(res->output, "\"o0\": [1, 2, 3, 4]"));
        st_result_free(res);
    }
}

/* ------------------------------------------------------------------ */
/* aL of a loop over a defi: relative addressing narrowed to the      */
/* registers the loop can reach (docs/llvm-abi.md).                   */

/* integer compares of one predicate in the raw IR */
static unsigned count_icmp(LLVMValueRef fn, LLVMIntPredicate pred)
{
    unsigned n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (LLVMGetInstructionOpcode(i) == LLVMICmp && LLVMGetICmpPredicate(i) == pred)
                n++;
    return n;
}

/*
 * GEPs on the input array (st_main's first parameter): the bit k of *slots
 * for each constant index k, and how many have an index known only at run
 * time.
 */
static unsigned input_geps(LLVMValueRef fn, uint32_t *slots)
{
    LLVMValueRef in = LLVMGetParam(fn, 0);
    unsigned dynamic = 0;
    *slots = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (LLVMGetInstructionOpcode(i) != LLVMGetElementPtr || LLVMGetOperand(i, 0) != in)
                continue;
            LLVMValueRef idx = LLVMGetOperand(i, 1);
            if (LLVMIsAConstantInt(idx))
                *slots |= 1u << LLVMConstIntGetZExtValue(idx);
            else
                dynamic++;
        }
    return dynamic;
}

#define AL_SHADER(DEFI)                                                                            \
    "vs_3_0\ndcl_position v0\ndcl_texcoord0 v1\ndcl_texcoord1 v2\ndcl_texcoord2 v3\n"             \
    "dcl_texcoord3 v4\ndcl_texcoord4 v5\ndcl_position o0\ndcl_texcoord0 o1\ndcl_texcoord1 o2\n" \
    "dcl_texcoord2 o3\ndcl_texcoord3 o4\ndcl_texcoord4 o5\n" DEFI                                  \
    "mov o0, v0\nloop aL, i0\n    mov o[aL + 1], v[aL]\nendloop\n"

/*
 * defi i0, 3, 2, 1, 0: three iterations with aL = 2, 3, 4.  v[aL] can only
 * be v2, v3, v4, and o[aL + 1] only o3, o4, o5, all inside their files: the
 * read is three direct loads (input slots 2, 3, 4; v0 is slot 0, read by
 * the mov) chained by three aL == k compares, the write three compares,
 * and no range check (no unsigned less-than).  Run with v2 = 1, v3 = 10,
 * v4 = 100: o3 = 1, o4 = 10, o5 = 100; o1 and o2 are never written (0).
 * The inputs give i0 = (1, 0, 1, 0), which the defi overrides (run_io.c
 * apply_defs, with an ST_W_IGNORED warning): still three iterations.
 */
static void test_al_defi_loop_narrows(void **state)
{
    (void)state;
    const char *src = AL_SHADER("defi i0, 3, 2, 1, 0\n");
    struct ts t;
    ts_parse(&t, src);
    ts_lower(&t, ST_FLOAT_IEEE);
    LLVMValueRef fn = main_fn(&t);
    uint32_t slots;
    assert_int_equal(input_geps(fn, &slots), 0);
    assert_int_equal(slots, (1u << 0) | (1u << 2) | (1u << 3) | (1u << 4));
    assert_int_equal(count_icmp(fn, LLVMIntEQ), 3 + 3);
    assert_int_equal(count_icmp(fn, LLVMIntULT), 0);
    ts_free(&t);

    const char *json = "{\"int_constants\": {\"i0\": [1, 0, 1, 0]}, \"invocations\": "
                       "[{\"v2\": [1, 1, 1, 1], \"v3\": [10, 10, 10, 10], \"v4\": [100, 100, 100, 100],"
                       " \"v5\": [7, 7, 7, 7]}]}";
    char *jit = run_engine(src, json, ST_ENGINE_LLVM, ST_FLOAT_IEEE);
    char *ref = run_engine(src, json, ST_ENGINE_INTERP, ST_FLOAT_IEEE);
    assert_non_null(jit);
    assert_non_null(ref);
    assert_string_equal(jit, ref);
    assert_non_null(strstr(jit, "\"o3\": [1, 1, 1, 1]"));
    assert_non_null(strstr(jit, "\"o4\": [10, 10, 10, 10]"));
    assert_non_null(strstr(jit, "\"o5\": [100, 100, 100, 100]"));
    assert_null(strstr(jit, "\"o2\": [7"));
    free(jit);
    free(ref);
}

/*
 * The same loop with i0 from the inputs JSON: aL is unknown at compile
 * time, so v[aL] stays one indexed load of the input array (one GEP whose
 * index is computed) and o[aL + 1] selects over all twelve outputs (twelve
 * aL + 1 == k compares), each with its range check (two unsigned
 * compares).  With i0 = (3, 2, 1, 0) it computes what the defi did.
 */
static void test_al_input_loop_full(void **state)
{
    (void)state;
    const char *src = AL_SHADER("");
    struct ts t;
    ts_parse(&t, src);
    ts_lower(&t, ST_FLOAT_IEEE);
    LLVMValueRef fn = main_fn(&t);
    uint32_t slots;
    assert_int_equal(input_geps(fn, &slots), 1);
    assert_int_equal(slots, 1u << 0);
    assert_int_equal(count_icmp(fn, LLVMIntEQ), 12);
    assert_int_equal(count_icmp(fn, LLVMIntULT), 2);
    ts_free(&t);

    const char *json = "{\"int_constants\": {\"i0\": [3, 2, 1, 0]}, \"invocations\": "
                       "[{\"v2\": [1, 1, 1, 1], \"v3\": [10, 10, 10, 10], \"v4\": [100, 100, 100, 100]}]}";
    char *jit = run_engine(src, json, ST_ENGINE_LLVM, ST_FLOAT_IEEE);
    char *ref = run_engine(src, json, ST_ENGINE_INTERP, ST_FLOAT_IEEE);
    assert_non_null(jit);
    assert_non_null(ref);
    assert_string_equal(jit, ref);
    assert_non_null(strstr(jit, "\"o3\": [1, 1, 1, 1]"));
    assert_non_null(strstr(jit, "\"o5\": [100, 100, 100, 100]"));
    free(jit);
    free(ref);
}

/*
 * defi i0, 3, 14, 1, 0: aL = 14, 15, 16; v[aL] reaches v14 and v15, and
 * 16 is outside v0..v15.  The chain has two compares and keeps the range
 * check and the status bit: the run reads 0 in the third iteration and
 * warns once (ST5003).  add r0, r0, v[aL] with v14 = 1, v15 = 10 gives
 * r0 = 0 + 1 + 10 + 0 = 11.
 */
static void test_al_defi_loop_partly_outside(void **state)
{
    (void)state;
    const char *src = "vs_3_0\ndcl_position o0\ndefi i0, 3, 14, 1, 0\n"
                      "mov r0, c0\nloop aL, i0\n    add r0, r0, v[aL]\nendloop\nmov o0, r0\n";
    struct ts t;
    ts_parse(&t, src);
    ts_lower(&t, ST_FLOAT_IEEE);
    LLVMValueRef fn = main_fn(&t);
    uint32_t slots;
    assert_int_equal(input_geps(fn, &slots), 0);
    assert_int_equal(slots, (1u << 14) | (1u << 15));
    assert_int_equal(count_icmp(fn, LLVMIntEQ), 2);
    assert_int_equal(count_icmp(fn, LLVMIntULT), 1);
    static struct run r;
    memset(&r, 0, sizeof(r));
    for (int k = 0; k < 4; k++) {
        r.inv[0].in[ST_LL_IN_V + 14][k] = 1.0f;
        r.inv[0].in[ST_LL_IN_V + 15][k] = 10.0f;
    }
    assert_true(jit(&t, &r, 1, ST_FLOAT_IEEE));
    assert_vec(r.out[0].reg[0].v, 11, 11, 11, 11);
    assert_int_equal(count_diag(t.ctx, ST_W_RELADDR_RANGE, NULL), 1);
    ts_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_after_mem2reg),
        cmocka_unit_test(test_seed_pipeline_stats),
        cmocka_unit_test(test_emit_text),
        cmocka_unit_test(test_uniform_data),
        cmocka_unit_test(test_uniform_control),
        cmocka_unit_test(test_lane_demand_drops_merge),
        cmocka_unit_test(test_recursion_not_supported),
        cmocka_unit_test(test_jit_mad),
        cmocka_unit_test(test_jit_rules_checked),
        cmocka_unit_test(test_jit_derivatives),
        cmocka_unit_test(test_jit_divergent_derivative),
        cmocka_unit_test(test_jit_reladdr),
        cmocka_unit_test(test_run_json),
        cmocka_unit_test(test_minmax_chains_keep_nan),
        cmocka_unit_test(test_saturate_keeps_negative_zero),
        cmocka_unit_test(test_unwritten_a0_destination),
        cmocka_unit_test(test_al_defi_loop_narrows),
        cmocka_unit_test(test_al_input_loop_full),
        cmocka_unit_test(test_al_defi_loop_partly_outside),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
