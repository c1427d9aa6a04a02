/*
 * test_merge.c — the merge stage: the seed case of issue 5, the lane
 * liveness and interference rules on hand-built MIR, and a differential
 * run of every sample and valid corpus shader (Direct3D 9 and ARB) against
 * its --emit=vasm text under the reference interpreter, both float rules
 * (fixed seed, a few invocations each).
 *
 * Expected values are worked out by hand from the rules in docs/merge.md:
 * a lane is live from a read that selects it back to the write that covers
 * it; two vregs interfere in the lanes one writes while the other is live.
 */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emit.h"
#include "merge.h"
#include "test_util.h"
#include "translator.h"
#include "translator/driver.h"

/* ------------------------------------------------------------------ */
/* Helpers.                                                            */

/* The pipeline to the vector IR, then --emit=vasm; st gets every count. */
static bool vasm_emit(struct st_ctx *ctx, struct st_shader *sh, struct st_buf *out,
                      struct st_merge_stats *st)
{
    struct mir_prog mir;
    memset(&mir, 0, sizeof(mir));
    struct st_pipeline_stats ps;
    bool ok = st_pipeline_mir(ctx, sh, ST_EMIT_VASM, NULL, &mir, &ps);
    *st = ps.merge;
    ok = ok && st_vasm_emit(ctx, sh, &mir, out, st);
    mir_free(&mir);
    return ok;
}

static char *vasm_of(const char *src, struct st_merge_stats *st, unsigned *nerr)
{
    struct st_ctx *ctx = st_ctx_create("t.asm", src, strlen(src), 50);
    struct st_arena *a = st_arena_create();
    struct st_shader *sh = st_parse_d3d9(ctx, a);
    char *res = NULL;
    if (sh && st_check(ctx, sh)) {
        struct st_buf out = {0};
        struct mir_prog mir;
        memset(&mir, 0, sizeof(mir));
        struct st_pipeline_stats ps;
        if (st_pipeline_mir(ctx, sh, ST_EMIT_VASM, NULL, &mir, &ps)) {
            if (st) {
                unsigned keep_in = ps.merge.merges_in;
                *st = ps.merge;
                st->merges_in = keep_in;
            }
            if (st_vasm_emit(ctx, sh, &mir, &out, st) && out.data)
                res = strndup(out.data, out.len);
        }
        mir_free(&mir);
        st_buf_free(&out);
    }
    if (nerr)
        *nerr = st_error_count(ctx);
    st_arena_destroy(a);
    st_ctx_destroy(ctx);
    return res;
}

static struct mir_instr *ins(struct mir_prog *p, unsigned op, uint32_t dst, uint8_t mask)
{
    struct mir_instr *in = mir_append(p);
    in->op = (uint16_t)op;
    if (dst != MIR_NONE) {
        in->has_dst = true;
        in->dst = (struct mir_dst){.kind = MIR_VREG, .mask = mask, .vreg = dst};
        while (p->nvregs <= dst)
            mir_new_vreg(p, MIR_CLASS_FLOAT);
    }
    return in;
}

static void src(struct mir_instr *in, struct mir_src s)
{
    in->src[in->nsrc++] = s;
}

static struct mir_src V(uint32_t v)
{
    return mir_src_vreg(v, ST_SWIZZLE_IDENTITY);
}

static struct mir_src C(uint32_t i)
{
    return mir_src_fixed(ST_REG_CONST, i, ST_SWIZZLE_IDENTITY);
}

static void merge_in(struct mir_instr *in, struct mir_src s, uint8_t lanes)
{
    in->lanes[in->nsrc] = lanes;
    in->src[in->nsrc++] = s;
    in->dst.mask |= lanes;
}

static struct mir_instr *out_mov(struct mir_prog *p, enum st_regfile f, uint32_t idx, uint8_t mask,
                                 struct mir_src s)
{
    struct mir_instr *in = mir_append(p);
    in->op = ST_OP_MOV;
    in->has_dst = true;
    in->dst = (struct mir_dst){.kind = MIR_FIXED, .mask = mask, .file = f, .index = idx,
                               .vreg = MIR_NONE};
    src(in, s);
    return in;
}

/* The lanes of v live just after instruction i. */
static uint8_t live_out(const struct mir_prog *p, unsigned i, uint32_t v)
{
    struct mir_live lv;
    struct mir_walk w;
    assert_true(mir_liveness(p, &lv, NULL, 0));
    assert_true(mir_walk_init(&w, p, &lv));
    unsigned b = lv.block_of[i];
    mir_walk_block(&w, b);
    for (unsigned j = lv.start[b + 1] - 1; j > i; j--)
        mir_walk_step(&w, j);
    uint8_t r = w.live[v];
    mir_walk_free(&w);
    mir_live_free(&lv);
    return r;
}

/* The lanes in which a and b interfere. */
static uint8_t clash(const struct mir_prog *p, uint32_t a, uint32_t b)
{
    struct mir_live lv;
    struct mir_ig g;
    assert_true(mir_liveness(p, &lv, NULL, 0));
    assert_true(mir_ig_build(&g, p, &lv));
    uint8_t r = mir_ig_lanes(&g, a, b);
    mir_ig_free(&g);
    mir_live_free(&lv);
    return r;
}

/* ------------------------------------------------------------------ */
/* The seed case: two writemasked writes fill r0, no move.             */

static void test_seed(void **state)
{
    (void)state;
    const char *src_text = "vs_2_0\n"
                           "dcl_position v0\n"
                           "dcl_normal v1\n"
                           "mul r0.xy, v0, c0\n"
                           "add r0.zw, v1, c1\n"
                           "sub oPos, r0, c2\n";
    struct st_merge_stats st;
    unsigned nerr = 0;
    char *out = vasm_of(src_text, &st, &nerr);
    assert_non_null(out);
    assert_int_equal(nerr, 0);
    assert_string_equal(out, "vs_2_0\n"
                             "dcl_position v0\n"
                             "dcl_normal v1\n"
                             "mul r0.xy, v0, c0\n"
                             "add r0.zw, v1, c1\n"
                             "sub oPos, r0, c2\n");
    assert_int_equal(st.merges_in, 1);
    assert_int_equal(st.merges_eliminated, 1);
    assert_int_equal(st.moves_left, 0);
    assert_int_equal(st.instrs_out, 3);
    assert_int_equal(st.temps_out, 1);
    free(out);
}

/* A merge whose first input stays live afterwards (r1 keeps the whole old
 * r0): lanes zw clash, so exactly one writemasked mov remains, for xy.
 * Worked out by hand: mul -> A; add -> B (zw); merge D = (A.xy, B.zw);
 * A is still read by oD1.  B coalesces into D, A cannot; D is only copied
 * to oD0, so its two definitions write oD0 directly. */
static void test_interfering_merge_keeps_one_mov(void **state)
{
    (void)state;
    const char *src_text = "vs_2_0\n"
                           "dcl_position v0\n"
                           "mov oPos, v0\n"
                           "mul r0, v0, c0\n"
                           "mov r1, r0\n"
                           "add r0.zw, v0, c1\n"
                           "mov oD0, r0\n"
                           "mov oD1, r1\n";
    struct st_merge_stats st;
    unsigned nerr = 0;
    char *out = vasm_of(src_text, &st, &nerr);
    assert_non_null(out);
    assert_string_equal(out, "vs_2_0\n"
                             "dcl_position v0\n"
                             "mul r0, v0, c0\n"
                             "add oD0.zw, v0, c1\n"
                             "mov oD0.xy, r0\n"
                             "mov oPos, v0\n"
                             "mov oD1, r0\n");
    assert_int_equal(st.merges_in, 1);
    assert_int_equal(st.merges_eliminated, 0);
    assert_int_equal(st.merges_interfering, 1);
    assert_int_equal(st.moves_left, 1);
    assert_int_equal(st.temps_out, 1);
    free(out);
}

/* ps_1_x: the texture instruction is printed as written, the colour is
 * r0 at the end; nothing else is needed. */
static void test_ps11_texture_kept(void **state)
{
    (void)state;
    const char *src_text = "ps_1_1\n"
                           "tex t0\n"
                           "mov r0, t0\n";
    struct st_merge_stats st;
    unsigned nerr = 0;
    char *out = vasm_of(src_text, &st, &nerr);
    assert_non_null(out);
    assert_int_equal(nerr, 0);
    assert_string_equal(out, src_text);
    assert_int_equal(st.merges_in, 0);
    assert_int_equal(st.temps_out, 1);
    free(out);
}

/* ps_1_x co-issue: the colour pair writes r0.rgb and r0.a; the merge of the
 * two halves goes away, the pair comes back as two writemasked writes. */
static void test_ps11_coissue_merge(void **state)
{
    (void)state;
    const char *src_text = "ps_1_1\n"
                           "tex t0\n"
                           "mul r0.rgb, t0, v0\n"
                           "+mov r0.a, v0\n";
    struct st_merge_stats st;
    unsigned nerr = 0;
    char *out = vasm_of(src_text, &st, &nerr);
    assert_non_null(out);
    assert_int_equal(nerr, 0);
    assert_string_equal(out, "ps_1_1\n"
                             "tex t0\n"
                             "mul r0.xyz, t0, v0\n"
                             "mov r0.w, v0\n");
    assert_int_equal(st.merges_in, 1);
    assert_int_equal(st.merges_eliminated, 1);
    assert_int_equal(st.moves_left, 0);
    free(out);
}

/* Predication: setp where it stands; at the select, the copy of the old
 * value and then the predicated write of the new one.  By the rules of
 * docs/merge.md: the copy's constant input becomes a mov into the merged
 * register (coalesced), and since that register is only copied to oPos,
 * both of its definitions write oPos: no temporary is left. */
static void test_predicated_write(void **state)
{
    (void)state;
    const char *src_text = "vs_2_x\n"
                           "dcl_position v0\n"
                           "mov r0, c0\n"
                           "setp_gt p0, v0, c1\n"
                           "(p0) mov r0, c2\n"
                           "mov oPos, r0\n";
    struct st_merge_stats st;
    unsigned nerr = 0;
    char *out = vasm_of(src_text, &st, &nerr);
    assert_non_null(out);
    assert_int_equal(nerr, 0);
    assert_string_equal(out, "vs_2_x\n"
                             "dcl_position v0\n"
                             "setp_gt p0, v0, c1\n"
                             "mov oPos, c0\n"
                             "(p0) mov oPos, c2\n");
    assert_int_equal(st.merges_in, 1);
    assert_int_equal(st.merges_eliminated, 1);
    assert_int_equal(st.temps_out, 0);
    free(out);
}

/* A predicated write of part of a register moves that part alone: after
 * `mov r4, v0`, `(!p0.y) mov r4.w, c8.z` is a select of (v0.xyz, 0.5)
 * and v0, whose x, y and z are v0's own either way; so the predicated
 * move writes w, and lanes x, y, z are a plain copy of v0.  (It wrote all
 * four before, the three of them with the values they had.) */
static void test_predicated_partial_write(void **state)
{
    (void)state;
    const char *src_text = "vs_2_x\n"
                           "dcl_position v0\n"
                           "def c8, 0, 1, 0.5, 1.5\n"
                           "setp_gt p0, v0, c8.x\n"
                           "mov r4, v0\n"
                           "(!p0.y) mov r4.w, c8.z\n"
                           "mov oPos, r4\n";
    struct st_merge_stats st;
    unsigned nerr = 0;
    char *out = vasm_of(src_text, &st, &nerr);
    assert_non_null(out);
    assert_int_equal(nerr, 0);
    unsigned pred = 0;
    for (const char *l = out; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
        if (*l == '(') {
            pred++;
            assert_true(strncmp(l, "(!p0.y) mov oPos.w, ", 20) == 0);
        }
    assert_int_equal(pred, 1);
    assert_non_null(strstr(out, "mov oPos, v0\n"));
    free(out);
}

/* Instructions with no LLVM shape of their own come back as one
 * instruction each (the lowering's marker calls, docs/merge.md):
 * lit's result only goes to oPos, so lit writes oPos (fold outputs); crs
 * may only write a temporary, so its merge with v0.w stays in r0 and is
 * copied out; sgn's two scratch registers are temporaries of its own. */
static void test_marker_ops(void **state)
{
    (void)state;
    struct {
        const char *in, *out;
    } cases[] = {
        {"vs_1_1\ndcl_position v0\nlit r0, v0\nmov oPos, r0\n",
         "vs_1_1\ndcl_position v0\nlit oPos, v0\n"},
        {"vs_2_0\ndcl_position v0\ncrs r0.xyz, v0, c0\nmov r0.w, v0.w\nmov oPos, r0\n",
         "vs_2_0\ndcl_position v0\ncrs r0.xyz, v0, c0\nmov r0.w, v0.w\nmov oPos, r0\n"},
        {"vs_2_0\ndcl_position v0\nmov r5, c0\nmov r6, c0\nsgn r1, v0, r5, r6\nmov oPos, r1\n",
         "vs_2_0\ndcl_position v0\nsgn oPos, v0, r0, r1\n"},
        {"ps_2_x\ndcl t0\ndsx r0, t0\nmov oC0, r0\n",
         "ps_2_x\ndcl t0\ndsx r0, t0\nmov oC0, r0\n"},
    };
    for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        struct st_merge_stats st;
        unsigned nerr = 0;
        char *out = vasm_of(cases[k].in, &st, &nerr);
        assert_non_null(out);
        assert_int_equal(nerr, 0);
        assert_string_equal(out, cases[k].out);
        assert_int_equal(st.merges_in, st.merges_eliminated);
        free(out);
    }
}

/* Something the version cannot express is a located error, not output:
 * a predicated write to an output file written relatively. */
static void test_not_supported_is_an_error(void **state)
{
    (void)state;
    const char *src_text = "vs_3_0\n"
                           "dcl_position v0\n"
                           "dcl_position o0\n"
                           "dcl_texcoord0 o1\n"
                           "defi i0, 2, 0, 1, 0\n"
                           "setp_gt p0, v0, c1\n"
                           "loop aL, i0\n"
                           "(p0) mov o[aL], c0\n"
                           "endloop\n";
    struct st_merge_stats st;
    unsigned nerr = 0;
    char *out = vasm_of(src_text, &st, &nerr);
    assert_null(out);
    assert_int_equal(nerr, 1);
}



/* Relative output writes: each write of the file comes back as one
 * instruction with its own destination, in order; the mul folds into the
 * relative destination (nothing between it and the write), o0's mov stays
 * a mov of c0.  The input as the canonical printer writes o[aL + 1]. */
static void test_relative_output_write(void **state)
{
    (void)state;
    struct st_merge_stats st;
    unsigned nerr = 0;
    char *out = vasm_of("vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord0 o1\n"
                        "dcl_texcoord1 o2\ndefi i0, 2, 0, 1, 0\nmov o0, c0\nloop aL, i0\n"
                        "mul o[aL + 1], v0, c[aL + 4]\nendloop\n",
                        &st, &nerr);
    assert_non_null(out);
    assert_int_equal(nerr, 0);
    assert_string_equal(out, "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord0 o1\n"
                             "dcl_texcoord1 o2\ndefi i0, 2, 0, 1, 0\nmov o0, c0\nloop aL, i0\n"
                             "mul o1[aL], v0, c4[aL]\nendloop\n");
    assert_int_equal(st.temps_out, 0);
    /* a later write to the same file keeps the computation where it was:
     * o[aL] may be o1, so the add may not write o1 before the loop */
    out = (free(out), vasm_of("vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord0 o1\n"
                              "defi i0, 2, 0, 1, 0\nadd r0, v0, c0\nloop aL, i0\n"
                              "mov o[aL], c1\nendloop\nmov o1, r0\nmov o0, v0\n",
                              &st, &nerr));
    assert_non_null(out);
    assert_string_equal(out, "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord0 o1\n"
                             "defi i0, 2, 0, 1, 0\nadd r0, v0, c0\nloop aL, i0\n"
                             "mov o0[aL], c1\nendloop\nmov o1, r0\nmov o0, v0\n");
    free(out);
}


/* A product of constants is folded only when both float rules give the
 * same bits: 0 * (-1, 2, -1, -1) is (-0, 0, -0, -0) under ieee but +0
 * everywhere under d3d9, so the mul stays; (3, 0, 1, 0) * (-1, 2, -1, 5)
 * is (-3, 0, -1, 0) under both (0 * 2 and 0 * 5 are +0 either way), a new
 * def whose zero lanes need no write (oPos starts at 0). */
static void test_float_rules_fold(void **state)
{
    (void)state;
    unsigned nerr = 0;
    char *out = vasm_of("vs_2_0\ndef c0, 0, 0, 0, 0\ndef c1, -1, 2, -1, -1\nmov r0, c0\n"
                        "mul r1, r0, c1\nmov oPos, r1\n",
                        NULL, &nerr);
    assert_non_null(out);
    /* one c# read port: the two literals share one new register (c0 and
     * c1 together would be two reads) */
    assert_string_equal(out, "vs_2_0\ndef c0, 0.0, 0.0, 0.0, 0.0\ndef c1, -1.0, 2.0, -1.0, -1.0\n"
                             "def c255, 0.0, -1.0, 2.0, 0.0\nmul oPos, c255.x, c255.yzyy\n");
    free(out);
    out = vasm_of("vs_2_0\ndef c0, 3, 0, 1, 0\ndef c1, -1, 2, -1, 5\nmov r0, c0\n"
                  "mul r1, r0, c1\nmov oPos, r1\n",
                  NULL, &nerr);
    assert_non_null(out);
    assert_string_equal(out, "vs_2_0\ndef c0, 3.0, 0.0, 1.0, 0.0\ndef c1, -1.0, 2.0, -1.0, 5.0\n"
                             "def c255, -3.0, 0.0, -1.0, 0.0\nmov oPos.xz, c255\n");
    free(out);
    /* pow(0, 0) is 1 under both rules (the function |x|^y, not its
     * expansion exp2(0 * log2 0), which is NaN under ieee), so it folds,
     * and so does the sge of it */
    out = vasm_of("vs_2_0\ndef c0, 0, 0, 0, 0\ndef c1, 1, 1, 1, 1\nmov r0, c0\n"
                  "pow r1, r0.x, r0.x\nsge oPos, r1, c1\n",
                  NULL, &nerr);
    assert_non_null(out);
    assert_string_equal(out, "vs_2_0\ndef c0, 0.0, 0.0, 0.0, 0.0\ndef c1, 1.0, 1.0, 1.0, 1.0\n"
                             "mov oPos, c1.x\n");
    free(out);
}

/* ------------------------------------------------------------------ */
/* ARB programs.                                                       */

static char *vasm_of_arb(const char *src, struct st_merge_stats *st, unsigned *nerr)
{
    struct st_ctx *ctx = st_ctx_create("t.arb", src, strlen(src), 50);
    struct st_arena *a = st_arena_create();
    struct st_shader *sh = st_parse_arb(ctx, a);
    char *res = NULL;
    if (sh && !st_error_count(ctx) && st_check_arb(ctx, sh)) {
        struct st_buf out = {0};
        struct mir_prog mir;
        memset(&mir, 0, sizeof(mir));
        struct st_pipeline_stats ps;
        if (st_pipeline_mir(ctx, sh, ST_EMIT_VASM, NULL, &mir, &ps)) {
            if (st) {
                unsigned keep_in = ps.merge.merges_in;
                *st = ps.merge;
                st->merges_in = keep_in;
            }
            if (st_vasm_emit(ctx, sh, &mir, &out, st) && out.data)
                res = strndup(out.data, out.len);
        }
        mir_free(&mir);
        st_buf_free(&out);
    }
    if (nerr)
        *nerr = st_error_count(ctx);
    st_arena_destroy(a);
    st_ctx_destroy(ctx);
    return res;
}

/* The seed case in ARB: the two writemasked writes fill one TEMP, the
 * merge goes, the SUB (only copied to result.position) writes it. */
static void test_arb_seed(void **state)
{
    (void)state;
    struct st_merge_stats st;
    unsigned nerr = 0;
    char *out = vasm_of_arb("!!ARBvp1.0\n"
                            "TEMP t;\n"
                            "MUL t.xy, vertex.position, program.env[0];\n"
                            "ADD t.zw, vertex.normal, program.env[1];\n"
                            "SUB result.position, t, program.env[2];\n"
                            "END\n",
                            &st, &nerr);
    assert_non_null(out);
    assert_int_equal(nerr, 0);
    assert_string_equal(out, "!!ARBvp1.0\n"
                             "TEMP r0;\n"
                             "MUL r0.xy, vertex.position, program.env[0];\n"
                             "ADD r0.zw, vertex.normal, program.env[1];\n"
                             "SUB result.position, r0, program.env[2];\n"
                             "END\n");
    assert_int_equal(st.merges_in, 1);
    assert_int_equal(st.merges_eliminated, 1);
    assert_int_equal(st.instrs_out, 3);
    assert_int_equal(st.temps_in, 1);
    assert_int_equal(st.temps_out, 1);
    free(out);
}

/* ARB's own instructions come back as themselves (MIN/MAX/CMP/LRP with
 * ARB's definitions, SWZ, XPD, KIL with swizzles and signs), and a
 * relative read and ARL in a vertex program.  Registers by the rules of
 * docs/merge.md: first appearance takes the lowest TEMP whose occupants it
 * does not clash with (a -> r0, b -> r1; CMP reuses r0 as a dies there,
 * LRP r0, SWZ r1 since LRP's value is still read by XPD, XPD r0); the SWZ
 * result is read by XPD too, so it is copied to result.color.  In the
 * vertex program EXP overwrites t.x before any read: the MOV writes y only. */
static void test_arb_ops(void **state)
{
    (void)state;
    struct {
        const char *in, *out;
    } cases[] = {
        {"!!ARBfp1.0\nTEMP a, b;\nMIN a, fragment.color, fragment.texcoord[0];\n"
         "MAX b, a, fragment.texcoord[1];\nCMP a, b, a, -b;\nLRP b, a, b, fragment.color;\n"
         "SWZ a, b, -w, 0, x, 1;\nXPD b.xyz, a.yzxw, b;\nKIL b.xyzz;\nMOV result.color, a;\nEND\n",
         "!!ARBfp1.0\nTEMP r0;\nTEMP r1;\nMIN r0, fragment.color, fragment.texcoord[0];\n"
         "MAX r1, r0, fragment.texcoord[1];\nCMP r0, r1, r0, -r1;\nLRP r0, r0, r1, fragment.color;\n"
         "SWZ r1, r0, -w, 0, x, 1;\nXPD r0.xyz, r1.yzxx, r0;\nKIL r0.xyzz;\n"
         "MOV result.color, r1;\nEND\n"},
        {"!!ARBvp1.0\nADDRESS A;\nPARAM arr[3] = { program.local[0..2] };\nTEMP t;\n"
         "ARL A.x, vertex.position.y;\nMOV t.zw, arr[A.x + 1];\nMOV t.xy, vertex.position;\n"
         "EXP t.x, t.w;\nMOV result.position, t;\nEND\n",
         "!!ARBvp1.0\nADDRESS A;\nPARAM arr[3] = { program.local[0..2] };\nTEMP r0;\n"
         "ARL A.x, vertex.position.y;\nMOV r0.zw, arr[A.x + 1];\nMOV r0.y, vertex.position.y;\n"
         "EXP r0.x, r0.w;\nMOV result.position, r0;\nEND\n"},
    };
    for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        struct st_merge_stats st;
        unsigned nerr = 0;
        char *out = vasm_of_arb(cases[k].in, &st, &nerr);
        assert_non_null(out);
        assert_int_equal(nerr, 0);
        assert_string_equal(out, cases[k].out);
        free(out);
    }
}

/* SWZ of a value that is a swizzled, negated view of another register:
 * SWZ's source is a plain register in ARB, so the view's swizzle and sign
 * go into the selectors.  a = -color.yzwx; SWZ x, -y, 0, 1 of a reads
 * lane x of a = -color.y and lane y of a = -color.z negated again:
 * selectors -y, z; 0 and 1 take no sign from the source.  (Before, this
 * was refused as "an operand ARB cannot state".) */
static void test_arb_swz_of_view(void **state)
{
    (void)state;
    unsigned nerr = 0;
    char *out = vasm_of_arb("!!ARBfp1.0\nTEMP a;\nMOV a, -fragment.color.yzwx;\n"
                            "SWZ result.color, a, x, -y, 0, 1;\nEND\n",
                            NULL, &nerr);
    assert_non_null(out);
    assert_int_equal(nerr, 0);
    assert_string_equal(out, "!!ARBfp1.0\nSWZ result.color, fragment.color, -y, z, 0, 1;\nEND\n");
    free(out);
    /* a relative array element as SWZ's source, swizzled by a view */
    out = vasm_of_arb("!!ARBvp1.0\nADDRESS A;\nPARAM arr[2] = { program.local[0..1] };\n"
                      "TEMP t;\nARL A.x, vertex.position.x;\nMOV t, arr[A.x + 1].wzyx;\n"
                      "SWZ result.position, t, y, x, 1, -w;\nEND\n",
                      NULL, &nerr);
    assert_non_null(out);
    assert_int_equal(nerr, 0);
    assert_string_equal(out, "!!ARBvp1.0\nADDRESS A;\nPARAM arr[2] = { program.local[0..1] };\n"
                             "ARL A.x, vertex.position.x;\n"
                             "SWZ result.position, arr[A.x + 1], z, w, 1, -x;\nEND\n");
    free(out);
}

/* ------------------------------------------------------------------ */
/* Shapes the random-shader fuzzers found refused (ST3001) although the
 * model has an exact form for them.  Each case is worked by hand: the
 * program, and the text --emit=vasm must give back.                   */

struct shape_case {
    const char *why, *in, *out;
};

static const struct shape_case shape_cases[] = {
    /* SLT_SAT: the saturate's "x > 0" of select(c, 1, 0) is folded to c by
     * instsimplify; the clamp of a 0/1 value is still the _SAT of the SLT */
    {"sat of a set-on-compare",
     "!!ARBfp1.0\nTEMP t;\nSLT_SAT t, fragment.color, fragment.texcoord[0];\n"
     "MUL result.color, t, fragment.color;\nEND\n",
     "!!ARBfp1.0\nTEMP r0;\nSLT_SAT r0, fragment.color, fragment.texcoord[0];\n"
     "MUL result.color, r0, fragment.color;\nEND\n"},
    /* EX2 of a literal: 2^-1e35 is +0 under both float rules, so the
     * folder (passes/fold_ops.c) makes it the literal 0, which the
     * program's own parameter {-1e35} = (-1e35, 0, 0, 1) holds in .y */
    {"exp2 of a constant",
     "!!ARBvp1.0\nTEMP t;\nEX2 t, {-1e35}.x;\nMUL result.position, t, vertex.position;\nEND\n",
     "!!ARBvp1.0\nMUL result.position, {-1e+35, 0, 0, 1}.y, vertex.position;\nEND\n"},
    {"exp of a constant",
     "vs_2_0\ndef c0, -1e35, 0, 0, 0\ndcl_position v0\nexp r0, c0.x\nmul oPos, r0, v0\n",
     "vs_2_0\ndcl_position v0\ndef c0, -1e+35, 0.0, 0.0, 0.0\nmul oPos, c0.y, v0\n"},
    /* RSQ of an SLT result: instsimplify drops the lowering's fabs (the
     * value is 0 or 1); the shape is still the lowering's RSQ of that
     * value.  SLT is computed in the one lane RSQ reads (.y) */
    {"rsq whose fabs was dropped",
     "!!ARBvp1.0\nTEMP t;\nSLT t, vertex.position, vertex.normal;\nRSQ result.position, t.y;\nEND\n",
     "!!ARBvp1.0\nTEMP r0;\nSLT r0.y, vertex.position.y, vertex.normal.y;\n"
     "RSQ result.position, r0.y;\nEND\n"},
    /* texldp of a splatted coordinate: the w splat of .xxxx is .xxxx
     * itself after instsimplify, so the division reads C / C.  ps_3_0's
     * coordinate takes any swizzle: lanes x, y and w read v0.x (.x) */
    {"texldp of a splat",
     "ps_3_0\ndcl_texcoord0 v0\ndcl_2d s0\ntexldp r0, v0.xxxx, s0\nmov oC0, r0\n",
     "ps_3_0\ndcl_texcoord0 v0\ndcl_2d s0\ntexldp r0, v0.x, s0\nmov oC0, r0\n"},
    /* (inf, -inf, NaN, 1) folded from rcp of 0: no def or literal states
     * a non-finite value, so a prologue computes the constant in r0:
     * r0.x = rcp(0) = +inf straight into the lane that holds it, then the
     * finite lane from a def, -inf as -r0.x, NaN as r0.x + -r0.x; the
     * product then reads r0 */
    {"non-finite constant (D3D9)",
     "vs_2_0\ndef c0, 0, 1, 0, 0\ndcl_position v0\nrcp r0.x, c0.x\nmov r0.y, -r0.x\n"
     "add r0.z, r0.x, r0.y\nmov r0.w, c0.y\nmul oPos, v0, r0\n",
     "vs_2_0\ndcl_position v0\ndef c0, 0.0, 1.0, 0.0, 0.0\nrcp r0.x, c0.x\nmov r0.w, c0.y\n"
     "mov r0.y, -r0.x\nadd r0.z, r0.x, -r0.x\nmul oPos, v0, r0\n"},
    {"non-finite constant (ARB)",
     "!!ARBfp1.0\nTEMP t;\nRCP t.x, {0.0}.x;\nMOV t.y, -t.x;\nADD t.z, t.x, t.y;\n"
     "MOV t.w, 2.5;\nMUL result.color, fragment.color, t;\nEND\n",
     "!!ARBfp1.0\nTEMP r0;\nRCP r0.x, {0, 0, 0, 1}.x;\n"
     "MOV r0.w, {2.5, 2.5, 2.5, 2.5}.x;\nMOV r0.y, -r0.x;\n"
     "ADD r0.z, r0.x, -r0.x;\nMUL result.color, fragment.color, r0;\nEND\n"},
    /* CMP of a constant condition: one instruction of the marker IR,
     * and it stays one (a lane merge of the two values would be two
     * writemasked movs) */
    {"select on constant lanes (ARB)",
     "!!ARBfp1.0\nTEMP t;\nCMP t, {-1, 1, -1, 1}, fragment.color, fragment.texcoord[0];\n"
     "MUL result.color, t, fragment.color;\nEND\n",
     "!!ARBfp1.0\nTEMP r0;\nCMP r0, {-1, 1, -1, 1}, fragment.color, fragment.texcoord[0];\n"
     "MUL result.color, r0, fragment.color;\nEND\n"},
    {"select on constant lanes (D3D9)",
     "ps_2_0\ndef c0, -1, 1, -1, 1\ndcl t0\ndcl v0\ncmp r0, c0, t0, v0\nmul oC0, r0, v0\n",
     "ps_2_0\ndcl t0\ndcl v0\ndef c0, -1.0, 1.0, -1.0, 1.0\ncmp r0, c0, t0, v0\n"
     "mul r0, r0, v0\nmov oC0, r0\n"},
    /* a[A0.x] of an array that does not start at slot 0 (arr: slots 2..4):
     * the range check's (A0.x + 2) - 2 is folded to A0.x by instsimplify;
     * still the read of arr at offset 0 */
    {"relative read, folded range check",
     "!!ARBvp1.0\nADDRESS A;\nPARAM p[2] = { program.local[20..21] };\n"
     "PARAM arr[3] = { program.local[0..2] };\nARL A.x, vertex.position.x;\n"
     "MOV result.position, arr[A.x];\nMOV result.color, p[1];\nEND\n",
     "!!ARBvp1.0\nADDRESS A;\nPARAM p[2] = { program.local[20..21] };\n"
     "PARAM arr[3] = { program.local[0..2] };\nARL A.x, vertex.position.x;\n"
     "MOV result.position, arr[A.x];\nMOV result.color, p[1];\nEND\n"},
    /* RCP of a lane known to be -0.25: RCP stays an instruction (its
     * precision is the implementation's, so the folder leaves it), and
     * its operand is the negated literal, -0.25 */
    {"rcp of a known lane",
     "!!ARBvp1.0\nTEMP t;\nMOV t, vertex.position;\nMOV t.x, 0.25;\n"
     "RCP result.position, -t.x;\nEND\n",
     "!!ARBvp1.0\nRCP result.position, {-0.25, -0.25, -0.25, -0.25}.x;\nEND\n"},
    /* a0 merged around a loop: the loop writes a0.y only, so lane x of the
     * a0 phi is the mova before the loop on both edges; c[a0.x + 2] after
     * the loop reads that mova (the canonical printer writes c2[a0.x]) */
    {"a0 phi whose lane the loop does not write",
     "vs_2_x\ndefi i0, 2, 0, 0, 0\ndcl_position v0\nmova a0.x, v0.x\nmov r0, v0\nrep i0\n"
     "  mova a0.y, r0.y\n  add r0, r0, c[a0.y + 1]\nendrep\nadd oPos, r0, c[a0.x + 2]\n",
     "vs_2_x\ndcl_position v0\ndefi i0, 2, 0, 0, 0\nmova a0.x, v0.x\nmov r0, v0\nrep i0\n"
     "mova a0.y, r0.y\nadd r0, r0, c1[a0.y]\nendrep\nadd oPos, r0, c2[a0.x]\n"},
    /* MAX_SAT with 1: max(x, 1) > 0, so instsimplify folds the lower clamp
     * away and only select(m < 1, m, 1) is left; in ARB only _SAT has that
     * shape (MIN is select(a > b, b, a)) */
    {"sat whose lower clamp was folded",
     "!!ARBfp1.0\nTEMP t;\nMAX_SAT t, fragment.color, 1.0;\nMUL result.color, t, fragment.color;\nEND\n",
     "!!ARBfp1.0\nTEMP r0;\nMAX_SAT r0, fragment.color, {1, 1, 1, 1}.x;\n"
     "MUL result.color, r0, fragment.color;\nEND\n"},
    /* p0 around a loop that writes p0.y only: lane x of the p0 phi is the
     * setp before the loop on both edges, so (p0.x) after the loop still
     * reads that setp */
    {"p0 phi whose lane the loop does not write",
     "vs_2_x\ndefi i0, 2, 0, 0, 0\ndcl_position v0\nsetp_gt p0.x, v0.x, c0.x\nmov r0, v0\n"
     "rep i0\n  setp_lt p0.y, r0.y, c1.y\n  (p0.y) add r0, r0, c2\nendrep\n(p0.x) mov r0, c3\n"
     "mov oPos, r0\n",
     "vs_2_x\ndcl_position v0\ndefi i0, 2, 0, 0, 0\nsetp_gt p0.x, v0.x, c0.x\nmov r0, v0\n"
     "rep i0\nsetp_lt p0.y, r0.y, c1.y\n(p0.y) add r0, r0, c2\nendrep\n(p0.x) mov r0, c3\n"
     "mov oPos, r0\n"},
    /* vs_3_0 reads all c# with _abs or none: |c1| is the abs instruction,
     * not the modifier (c0 is read plain) */
    {"abs of c# in vs_3_0",
     "vs_3_0\ndcl_position v0\ndcl_position o0\nabs r0, c1\nadd r0, r0, c0\nmul o0, r0, v0\n",
     "vs_3_0\ndcl_position v0\ndcl_position o0\nabs r0, c1\nadd r0, r0, c0\nmul o0, r0, v0\n"},
    /* p0.x merged from two setps (before the if, and in it): the reads
     * after the endif take p0.x as it stands, which is the original's as
     * both setps are emitted where they stand, writing x */
    {"p0 merged across an if",
     "vs_2_x\ndcl_position v0\nmov r0, v0\nsetp_gt p0.x, v0.x, c0.x\nif b0\n"
     "  setp_lt p0.x, v0.y, c1.y\nendif\n(p0.x) mov r0, c3\nif p0.x\n  add r0, r0, c4\nendif\n"
     "mov oPos, r0\n",
     "vs_2_x\ndcl_position v0\nsetp_gt p0.x, v0.x, c0.x\nif b0\nsetp_lt p0.x, v0.y, c1.y\n"
     "endif\nmov r0, v0\n(p0.x) mov r0, c3\nif p0.x\nadd r0, r0, c4\nendif\nmov oPos, r0\n"},
    /* ps_1_1 1-r0 of a sub result: the sub is an instruction (a register),
     * not a modifier, so 1-r0 is the complement modifier on it; before, the
     * complement was computed with a def of 1.0, which fails once the
     * shader uses all eight constants */
    {"complement of an instruction's register",
     "ps_1_1\ntex t0\nsub r0, t0, c1\nmul r0, 1-r0, c2\n",
     "ps_1_1\ntex t0\nsub r0, t0, c1\nmul r0, 1 - r0, c2\n"},
    /* ps_1_1 with all eight constants in use: c0.a is the LLVM constant
     * 0.375 in every lane, which is c0's w lane replicated (ps_1_1 has the
     * .a replicate), not a new def */
    {"splat constant as a def lane replicate (ps_1_x)",
     "ps_1_1\ndef c0, 0.5, 0.25, 0.125, 0.375\nmul r0, v0, c0.a\nmad r0, r0, c1, c2\n"
     "mad r0, r0, c3, c4\nmad r0, r0, c5, c6\nadd r0, r0, c7\n",
     "ps_1_1\ndef c0, 0.5, 0.25, 0.125, 0.375\nmul r0, v0, c0.w\nmad r0, r0, c1, c2\n"
     "mad r0, r0, c3, c4\nmad r0, r0, c5, c6\nadd r0, r0, c7\n"},
    /* a ret inside an if of a subroutine: the lowering's status phi gets
     * poison from the dead block after the ret; no texkill stands behind
     * it, so the relative reads need nothing but themselves.  The add reads
     * c1[a0.x] and c2[a0.x], two c# through one read port: one is copied */
    {"status phi with a poison edge",
     "vs_2_0\ndcl_position v0\nmova a0.x, v0.x\nmov r0, c[a0.x + 1]\ncall l1\nmov oPos, r0\n"
     "ret\nlabel l1\nif b0\n  ret\nendif\nadd r0, r0, c[a0.x + 2]\nret\n",
     "vs_2_0\ndcl_position v0\nmova a0.x, v0.x\nif b0\nmov oPos, c1[a0.x]\nelse\n"
     "mov r0, c2[a0.x]\nadd oPos, c1[a0.x], r0\nendif\n"},
    /* a0.x merged from two movas (before the if, and in it): c[a0.x + 2]
     * after the endif reads a0 as it stands, as the original does */
    {"a0 merged across an if",
     "vs_2_0\ndcl_position v0\nmova a0.x, v0.x\nif b0\n  mova a0.x, v0.y\nendif\n"
     "add oPos, v0, c[a0.x + 2]\n",
     "vs_2_0\ndcl_position v0\nmova a0.x, v0.x\nif b0\nmova a0.x, v0.y\nendif\n"
     "add oPos, v0, c2[a0.x]\n"},
    /* a0.x written in the loop: the read after the loop is the header
     * phi's value after the last iteration, read where it stands; it must
     * not be copied before the loop's mova (that is the same SSA phi, but
     * the previous iteration's a0) */
    {"a0 merged around a loop",
     "vs_2_0\ndefi i0, 3, 0, 0, 0\ndcl_position v0\nmova a0.x, v0.x\nmov r0, v0\nrep i0\n"
     "  add r0, r0, c[a0.x + 1]\n  mova a0.x, r0.y\nendrep\nadd oPos, r0, c[a0.x + 2]\n",
     "vs_2_0\ndcl_position v0\ndefi i0, 3, 0, 0, 0\nmova a0.x, v0.x\nmov r0, v0\nrep i0\n"
     "add r0, r0, c1[a0.x]\nmova a0.x, r0.y\nendrep\nadd oPos, r0, c2[a0.x]\n"},
    /* MAX_SAT of a cosine and 0: the saturate's "m > 0" is replaced by
     * MAX's own compare c, leaving select(c, select(c, x, 0), 0), which is
     * the inner select in every lane (a view) */
    {"select of a select on the same condition",
     "!!ARBfp1.0\nTEMP t;\nCOS t.x, fragment.color.x;\nMAX_SAT result.color, t.x, 0.0;\nEND\n",
     "!!ARBfp1.0\nTEMP r0;\nCOS r0.x, fragment.color.x;\n"
     "MAX_SAT result.color, r0.x, {0, 0, 0, 0}.x;\nEND\n"},
    /* the same through a two-lane mova whose y nobody reads: the phi's
     * movas are needed through the lowering's a0 lane merge, and each
     * writes only the lanes some read takes (x) */
    {"a0 merged across an if, lane merge of a0",
     "vs_2_0\ndcl_position v0\nmova a0.x, v0.x\nif b0\n  mova a0.xy, v0.yz\nendif\n"
     "add oPos, v0, c[a0.x + 2]\n",
     "vs_2_0\ndcl_position v0\nmova a0.x, v0.x\nif b0\nmova a0.x, v0.y\nendif\n"
     "add oPos, v0, c2[a0.x]\n"},
    /* crs of a register that is a swizzled view of v0: crs takes no
     * swizzle, so the view is copied (lanes x, y, z crs reads) first; crs
     * may not write a register it reads, so its result takes r1 */
    {"crs of a swizzled view",
     "vs_2_0\ndcl_position v0\ndcl_normal v1\nmov r1, v0.yzxw\ncrs r0.xyz, r1, -v1\n"
     "mov r0.w, v0.w\nmov oPos, r0\n",
     "vs_2_0\ndcl_position v0\ndcl_normal v1\nmov r0.xyz, v0.yzxx\ncrs r1.xyz, r0, -v1\n"
     "mov r1.w, v0.w\nmov oPos, r1\n"},
    /* a break inside nested ifs: the outer if's post-dominator lies past
     * the loop (one path breaks); with the break edges left out its join
     * is the end of the body, and the inner if is a conditional break
     * (break_lt).  The setp, read by the if alone, is the if's own
     * comparison */
    {"break inside nested ifs",
     "vs_2_x\ndefi i1, 3, 0, 0, 0\ndcl_position v0\ndcl_normal v1\nmov r0, v0\n"
     "setp_gt p0.x, v0.x, c0.x\nrep i1\n  add r0, r0, c1\n  if p0.x\n    if_lt v1.x, v1.y\n"
     "      break\n    endif\n  endif\nendrep\nmov oPos, r0\n",
     "vs_2_x\ndcl_position v0\ndcl_normal v1\ndefi i1, 3, 0, 0, 0\n"
     "mov r0, v0\nrep i1\nadd r0, r0, c1\nif_gt v0.x, c0.x\nbreak_lt v1.x, v1.y\nendif\n"
     "endrep\nmov oPos, r0\n"},
};

static char *vasm_any(const char *src, unsigned *nerr)
{
    return strncmp(src, "!!", 2) == 0 ? vasm_of_arb(src, NULL, nerr) : vasm_of(src, NULL, nerr);
}

static void test_fuzz_shapes(void **state)
{
    (void)state;
    for (unsigned k = 0; k < sizeof(shape_cases) / sizeof(shape_cases[0]); k++) {
        unsigned nerr = 0;
        char *out = vasm_any(shape_cases[k].in, &nerr);
        if (!out || strcmp(out, shape_cases[k].out) != 0)
            print_message("shape case %u (%s):\n%s\n", k, shape_cases[k].why, out ? out : "(refused)");
        assert_non_null(out);
        assert_int_equal(nerr, 0);
        assert_string_equal(out, shape_cases[k].out);
        free(out);
    }
}

/* A TEMP name the program already uses for something else is not taken. */
static void test_arb_temp_names(void **state)
{
    (void)state;
    unsigned nerr = 0;
    char *out = vasm_of_arb("!!ARBfp1.0\nPARAM r0 = {1, 2, 3, 4};\nTEMP t;\n"
                            "MUL t.xy, fragment.color, r0;\nADD t.zw, fragment.color, r0;\n"
                            "MUL result.color, t, t;\nEND\n",
                            NULL, &nerr);
    assert_non_null(out);
    assert_int_equal(nerr, 0);
    assert_non_null(strstr(out, "TEMP r0_;\n"));
    assert_non_null(strstr(out, "MUL result.color, r0_, r0_;\n"));
    free(out);
}

/* ------------------------------------------------------------------ */
/* Liveness and interference on hand-built MIR.                        */

/* v0 in .xy and v1 in .zw, both live together: no clash, one register. */
static void test_disjoint_lanes_share(void **state)
{
    (void)state;
    struct mir_prog p = {0};
    struct mir_instr *a = ins(&p, ST_OP_MUL, 0, 0x3); /* 0: v0.xy = c0 * c1 */
    src(a, C(0));
    src(a, C(1));
    struct mir_instr *b = ins(&p, ST_OP_ADD, 1, 0xc); /* 1: v1.zw = c2 + c3 */
    src(b, C(2));
    src(b, C(3));
    struct mir_instr *c = ins(&p, ST_OP_ADD, 2, 0xf); /* 2: v2 = v0.xyxy + v1.zwzw */
    src(c, mir_src_vreg(0, ST_SWIZZLE(0, 1, 0, 1)));
    src(c, mir_src_vreg(1, ST_SWIZZLE(2, 3, 2, 3)));
    out_mov(&p, ST_REG_RASTOUT, 0, 0xf, V(2));
    /* after 1: v0 live in xy (read as .xyxy), v1 in zw */
    assert_int_equal(live_out(&p, 1, 0), 0x3);
    assert_int_equal(live_out(&p, 1, 1), 0xc);
    assert_int_equal(clash(&p, 0, 1), 0);
    /* v2 is written while v0 and v1 die in the same instruction: no clash */
    assert_int_equal(clash(&p, 0, 2), 0);
    mir_free(&p);
}

/* The same two writes on overlapping lanes clash in exactly those lanes. */
static void test_overlapping_lanes_clash(void **state)
{
    (void)state;
    struct mir_prog p = {0};
    struct mir_instr *a = ins(&p, ST_OP_MUL, 0, 0x7); /* v0.xyz */
    src(a, C(0));
    src(a, C(1));
    struct mir_instr *b = ins(&p, ST_OP_ADD, 1, 0x6); /* v1.yz */
    src(b, C(2));
    src(b, C(3));
    struct mir_instr *c = ins(&p, ST_OP_ADD, 2, 0x6); /* v2.yz = v0 + v1 */
    src(c, V(0));
    src(c, V(1));
    out_mov(&p, ST_REG_RASTOUT, 0, 0x6, V(2));
    /* only the lanes the write computes are read: yz of both */
    assert_int_equal(live_out(&p, 1, 1), 0x6);
    assert_int_equal(live_out(&p, 1, 0), 0x6);
    assert_int_equal(live_out(&p, 0, 0), 0x6);
    assert_int_equal(clash(&p, 0, 1), 0x6);
    mir_free(&p);
}

/* A merge whose input is still read whole afterwards: that input keeps
 * exactly one writemasked mov; the other input is coalesced. */
static void test_merge_input_live_elsewhere(void **state)
{
    (void)state;
    struct mir_prog p = {0};
    struct mir_instr *a = ins(&p, ST_OP_MUL, 0, 0xf); /* 0: v0 = c0 * c1 */
    src(a, C(0));
    src(a, C(1));
    struct mir_instr *b = ins(&p, ST_OP_ADD, 1, 0xc); /* 1: v1.zw = c2 + c3 */
    src(b, C(2));
    src(b, C(3));
    struct mir_instr *m = ins(&p, MIR_OP_MERGE, 2, 0); /* 2: v2 = merge(v0.xy, v1.zw) */
    merge_in(m, V(0), 0x3);
    merge_in(m, V(1), 0xc);
    out_mov(&p, ST_REG_RASTOUT, 0, 0xf, V(2)); /* 3 */
    out_mov(&p, ST_REG_ATTROUT, 0, 0xf, V(0)); /* 4: v0 read whole after the merge */
    assert_int_equal(live_out(&p, 2, 0), 0xf);
    /* the merge writes v2.zw from v1 while v0.zw is live */
    assert_int_equal(clash(&p, 0, 2), 0xc);
    assert_int_equal(clash(&p, 1, 2), 0);
    struct st_merge_stats st = {0};
    assert_true(mir_coalesce(NULL, &p, &st));
    assert_false(p.ins[2].dead);
    assert_int_equal(p.ins[2].nsrc, 1);
    assert_int_equal(p.ins[2].src[0].vreg, 0);
    assert_int_equal(p.ins[2].lanes[0], 0x3);
    /* v1 was renamed into the merged register */
    assert_int_equal(p.ins[1].dst.vreg, p.ins[2].dst.vreg);
    assert_int_equal(st.merges_interfering, 1);
    assert_int_equal(st.merges_eliminated, 0);
    mir_free(&p);
}

/* A merge fed twice by one value is that value: eliminated. */
static void test_merge_same_value_twice(void **state)
{
    (void)state;
    struct mir_prog p = {0};
    struct mir_instr *a = ins(&p, ST_OP_MUL, 0, 0xf);
    src(a, C(0));
    src(a, C(1));
    struct mir_instr *m = ins(&p, MIR_OP_MERGE, 1, 0);
    merge_in(m, V(0), 0x3);
    merge_in(m, V(0), 0xc);
    out_mov(&p, ST_REG_RASTOUT, 0, 0xf, V(1));
    assert_int_equal(clash(&p, 0, 1), 0);
    struct st_merge_stats st = {0};
    assert_true(mir_coalesce(NULL, &p, &st));
    assert_true(p.ins[1].dead);
    assert_int_equal(st.merges_eliminated, 1);
    assert_int_equal(p.ins[0].dst.vreg, p.ins[2].src[0].vreg);
    mir_free(&p);
}

/* A merge of a merge: both go, the three writes land in one register. */
static void test_merge_chain(void **state)
{
    (void)state;
    struct mir_prog p = {0};
    struct mir_instr *a = ins(&p, ST_OP_MUL, 0, 0x1); /* v0.x */
    src(a, C(0));
    src(a, C(1));
    struct mir_instr *b = ins(&p, ST_OP_ADD, 1, 0x2); /* v1.y */
    src(b, C(2));
    src(b, C(3));
    struct mir_instr *m1 = ins(&p, MIR_OP_MERGE, 2, 0); /* v2 = merge(v0.x, v1.y) */
    merge_in(m1, V(0), 0x1);
    merge_in(m1, V(1), 0x2);
    struct mir_instr *c = ins(&p, ST_OP_SUB, 3, 0x4); /* v3.z */
    src(c, C(4));
    src(c, C(5));
    struct mir_instr *m2 = ins(&p, MIR_OP_MERGE, 4, 0); /* v4 = merge(v2.xy, v3.z) */
    merge_in(m2, V(2), 0x3);
    merge_in(m2, V(3), 0x4);
    out_mov(&p, ST_REG_RASTOUT, 0, 0x7, V(4));
    struct st_merge_stats st = {0};
    assert_true(mir_coalesce(NULL, &p, &st));
    assert_int_equal(st.merges_eliminated, 2);
    assert_true(p.ins[2].dead);
    assert_true(p.ins[4].dead);
    assert_int_equal(p.ins[0].dst.vreg, p.ins[5].src[0].vreg);
    assert_int_equal(p.ins[1].dst.vreg, p.ins[5].src[0].vreg);
    assert_int_equal(p.ins[3].dst.vreg, p.ins[5].src[0].vreg);
    mir_free(&p);
}

/* Phi copies on both arms of an if: both coalesced into the phi register. */
static void test_phi_across_if(void **state)
{
    (void)state;
    struct mir_prog p = {0};
    struct mir_instr *a = ins(&p, ST_OP_MUL, 0, 0xf); /* 0: v0 */
    src(a, C(0));
    src(a, C(1));
    struct mir_instr *f = ins(&p, ST_OP_IF, MIR_NONE, 0); /* 1 */
    src(f, mir_src_fixed(ST_REG_CONSTBOOL, 0, ST_SWIZZLE_IDENTITY));
    struct mir_instr *t = ins(&p, ST_OP_ADD, 1, 0xf); /* 2: v1 */
    src(t, C(2));
    src(t, V(0));
    struct mir_instr *c1 = ins(&p, MIR_OP_MERGE, 3, 0); /* 3: v3 <- v1 */
    merge_in(c1, V(1), 0xf);
    c1->phi_copy = true;
    ins(&p, ST_OP_ELSE, MIR_NONE, 0); /* 4 */
    struct mir_instr *e = ins(&p, ST_OP_SUB, 2, 0xf); /* 5: v2 */
    src(e, C(2));
    src(e, V(0));
    struct mir_instr *c2 = ins(&p, MIR_OP_MERGE, 3, 0); /* 6: v3 <- v2 */
    merge_in(c2, V(2), 0xf);
    c2->phi_copy = true;
    ins(&p, ST_OP_ENDIF, MIR_NONE, 0); /* 7 */
    struct mir_instr *u = ins(&p, ST_OP_ADD, 4, 0xf); /* 8: v4 = v3 + v0 */
    src(u, V(3));
    src(u, V(0));
    out_mov(&p, ST_REG_RASTOUT, 0, 0xf, V(4)); /* 9 */
    /* v0 is live through both arms up to 8 */
    assert_int_equal(live_out(&p, 1, 0), 0xf);
    assert_int_equal(live_out(&p, 6, 0), 0xf);
    /* v3 is live after each copy, not inside the arm before it */
    assert_int_equal(live_out(&p, 3, 3), 0xf);
    assert_int_equal(live_out(&p, 5, 3), 0);
    assert_int_equal(clash(&p, 1, 3), 0);
    assert_int_equal(clash(&p, 0, 3), 0xf);
    struct st_merge_stats st = {0};
    assert_true(mir_coalesce(NULL, &p, &st));
    assert_int_equal(st.merges_eliminated, 2);
    assert_int_equal(p.ins[2].dst.vreg, p.ins[5].dst.vreg);
    assert_int_equal(p.ins[2].dst.vreg, p.ins[8].src[0].vreg);
    mir_free(&p);
}

/* A value read inside a loop stays live around the back edge, so a value
 * defined in the body clashes with it (it would not without the loop). */
static void test_loop_back_edge(void **state)
{
    (void)state;
    struct mir_prog p = {0};
    struct mir_instr *a = ins(&p, ST_OP_MOV, 0, 0xf); /* 0: v0 = c0 */
    src(a, C(0));
    struct mir_instr *r = ins(&p, ST_OP_REP, MIR_NONE, 0); /* 1: rep i0 */
    src(r, mir_src_fixed(ST_REG_CONSTINT, 0, ST_SWIZZLE_IDENTITY));
    struct mir_instr *b = ins(&p, ST_OP_ADD, 1, 0xf); /* 2: v1 = v0 + c1 */
    src(b, V(0));
    src(b, C(1));
    out_mov(&p, ST_REG_RASTOUT, 0, 0xf, V(1)); /* 3 */
    ins(&p, ST_OP_ENDREP, MIR_NONE, 0); /* 4 */
    assert_int_equal(live_out(&p, 4, 0), 0xf); /* back edge */
    assert_int_equal(live_out(&p, 2, 0), 0xf);
    assert_int_equal(clash(&p, 0, 1), 0xf);
    /* the same code without the loop: v0 dies at 2 and they share */
    p.ins[1].dead = true;
    p.ins[4].dead = true;
    p.ins[1].op = ST_OP_NOP;
    p.ins[4].op = ST_OP_NOP;
    assert_int_equal(clash(&p, 0, 1), 0);
    mir_free(&p);
}

/* Too many values live at once: a clear error, not a wrong program. */
static void test_regalloc_limit(void **state)
{
    (void)state;
    struct mir_prog p = {0};
    for (uint32_t v = 0; v < 3; v++) {
        struct mir_instr *a = ins(&p, ST_OP_MOV, v, 0xf);
        src(a, C(v));
    }
    struct mir_instr *s1 = ins(&p, ST_OP_ADD, 3, 0xf);
    src(s1, V(0));
    src(s1, V(1));
    struct mir_instr *s2 = ins(&p, ST_OP_ADD, 4, 0xf);
    src(s2, V(3));
    src(s2, V(2));
    out_mov(&p, ST_REG_RASTOUT, 0, 0xf, V(4));
    /* v0, v1, v2 are live together: three registers, whatever the order */
    assert_int_equal(clash(&p, 0, 1), 0xf);
    assert_int_equal(clash(&p, 0, 2), 0xf);
    assert_int_equal(clash(&p, 1, 2), 0xf);
    mir_free(&p);
}

/* ------------------------------------------------------------------ */
/* Differential: input and --emit=vasm agree under the interpreter.    */

static uint32_t rng = 12345;
static float rnd(float lo, float hi)
{
    rng = rng * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)((rng >> 8) & 0xffff) / 65535.0f;
}

static void add_json(struct st_buf *b, bool *first, const char *name, unsigned n, float lo,
                     float hi)
{
    st_buf_printf(b, "%s\"%s\": [", *first ? "" : ", ", name);
    for (unsigned k = 0; k < n; k++)
        st_buf_printf(b, "%s%.4f", k ? ", " : "", (double)rnd(lo, hi));
    st_buf_printf(b, "]");
    *first = false;
}

/* Random inputs for every register the shader reads or declares. */
static void make_inputs(const struct st_shader *sh, struct st_buf *b)
{
    bool cread[256] = {false}, cdef[256] = {false}, bread[16] = {false}, iread[16] = {false};
    bool in_v[16] = {false}, in_t[8] = {false}, vpos = false, vface = false;
    int sampler[16];
    for (int k = 0; k < 16; k++)
        sampler[k] = -1;
    for (const struct st_instr *i = sh->first; i; i = i->next) {
        if (i->op == ST_OP_DEF && i->dst.reg.index < 256)
            cdef[i->dst.reg.index] = true;
        if (i->op == ST_OP_DCL && i->dst.reg.file == ST_REG_SAMPLER && i->dst.reg.index < 16)
            sampler[i->dst.reg.index] = i->sampler_type;
        const struct st_reg *regs[7];
        unsigned nr = 0;
        if (i->has_dst)
            regs[nr++] = &i->dst.reg;
        for (unsigned k = 0; k < i->nsrc && k < 5; k++)
            regs[nr++] = &i->src[k].reg;
        for (unsigned k = 0; k < nr; k++) {
            const struct st_reg *r = regs[k];
            switch (r->file) {
            case ST_REG_CONST:
                for (uint32_t x = r->index; x < r->index + 4 && x < 256; x++)
                    cread[x] = true;
                break;
            case ST_REG_CONSTBOOL: if (r->index < 16) bread[r->index] = true; break;
            case ST_REG_CONSTINT: if (r->index < 16) iread[r->index] = true; break;
            case ST_REG_INPUT:
                if (r->index < (sh->version.type == ST_VS ? 16u
                                : sh->version.ver >= ST_VER(3, 0) ? 10u : 2u))
                    in_v[r->index] = true;
                break;
            case ST_REG_TEXTURE: if (r->index < 8) in_t[r->index] = true; break;
            case ST_REG_MISC: if (r->index == ST_MISC_POS) vpos = true; else vface = true; break;
            default: break;
            }
        }
    }
    unsigned maxc = sh->version.type == ST_VS              ? 256
                    : sh->version.ver >= ST_VER(3, 0)    ? 224
                    : sh->version.ver >= ST_VER(2, 0)    ? 32
                                                         : 8; /* ps_1_x: c0..c7 */
    st_buf_printf(b, "{\"constants\": {");
    bool first = true;
    for (unsigned k = 0; k < maxc; k++)
        if (cread[k] && !cdef[k]) {
            char n[16];
            snprintf(n, sizeof(n), "c%u", k);
            add_json(b, &first, n, 4, -2, 2);
        }
    st_buf_printf(b, "}, \"bool_constants\": {");
    first = true;
    for (unsigned k = 0; k < 16; k++)
        if (bread[k]) {
            st_buf_printf(b, "%s\"b%u\": %s", first ? "" : ", ", k,
                          rnd(0, 1) > 0.5f ? "true" : "false");
            first = false;
        }
    st_buf_printf(b, "}, \"int_constants\": {");
    first = true;
    for (unsigned k = 0; k < 16; k++)
        if (iread[k]) {
            st_buf_printf(b, "%s\"i%u\": [3, 0, 1, 0]", first ? "" : ", ", k);
            first = false;
        }
    st_buf_printf(b, "}, \"textures\": {");
    first = true;
    for (unsigned k = 0; k < 16; k++) {
        if (sampler[k] < 0)
            continue;
        static const char *const ty[] = {"2d", "2d", "cube", "volume"};
        unsigned faces = sampler[k] == ST_SAMPLER_CUBE     ? 6
                         : sampler[k] == ST_SAMPLER_VOLUME ? 2
                                                           : 4;
        st_buf_printf(b,
                      "%s\"s%u\": {\"type\": \"%s\", \"width\": %u, \"height\": %u%s, "
                      "\"texels\": [",
                      first ? "" : ", ", k, ty[sampler[k] & 3],
                      sampler[k] == ST_SAMPLER_2D || sampler[k] == ST_SAMPLER_NONE ? 2u : 1u,
                      sampler[k] == ST_SAMPLER_2D || sampler[k] == ST_SAMPLER_NONE ? 2u : 1u,
                      sampler[k] == ST_SAMPLER_VOLUME ? ", \"depth\": 2" : "");
        for (unsigned t = 0; t < faces; t++)
            st_buf_printf(b, "%s[%.3f, %.3f, %.3f, %.3f]", t ? ", " : "", (double)rnd(0, 1),
                          (double)rnd(0, 1), (double)rnd(0, 1), (double)rnd(0, 1));
        st_buf_printf(b, "]}");
        first = false;
    }
    st_buf_printf(b, "}, \"invocations\": [");
    for (unsigned n = 0; n < 3; n++) {
        st_buf_printf(b, "%s{", n ? ", " : "");
        first = true;
        for (unsigned k = 0; k < 16; k++)
            if (in_v[k]) {
                char nm[16];
                snprintf(nm, sizeof(nm), "v%u", k);
                add_json(b, &first, nm, 4, -2, 2);
            }
        for (unsigned k = 0; k < 8; k++)
            if (in_t[k]) {
                char nm[16];
                snprintf(nm, sizeof(nm), "t%u", k);
                add_json(b, &first, nm, 4, 0, 1);
            }
        if (vpos)
            add_json(b, &first, "vPos", 2, 0, 64);
        if (vface) {
            st_buf_printf(b, "%s\"vFace\": %d", first ? "" : ", ", n & 1 ? -1 : 1);
            first = false;
        }
        st_buf_printf(b, "}");
    }
    st_buf_printf(b, "]}");
}

static char *run_rules(const char *text, const char *inputs, enum st_float_rules rules,
                       unsigned *nerr)
{
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION, .filename = "d.asm",
                           .source = text, .source_len = strlen(text)};
    struct st_run_options ro = {.struct_version = ST_RUN_OPTIONS_VERSION, .compile = &o,
                                .inputs_filename = "in.json", .inputs_json = inputs,
                                .inputs_len = strlen(inputs), .float_rules = rules};
    struct st_result *res = NULL;
    if (st_run(&ro, &res) != 0 || !res)
        return NULL;
    char *out = res->ok && res->output ? strdup(res->output) : NULL;
    *nerr = res->num_errors;
    if (!out && res->num_diagnostics)
        print_message("  %u:%u: %s\n", res->diagnostics[0].line, res->diagnostics[0].column,
                      res->diagnostics[0].message);
    st_result_free(res);
    return out;
}

/* Both float rules, one after the other (one string: the vasm text must
 * agree with its input under each). */
static char *run_text(const char *text, const char *inputs, unsigned *nerr)
{
    unsigned e1 = 0, e2 = 0;
    char *a = run_rules(text, inputs, ST_FLOAT_IEEE, &e1);
    char *b = run_rules(text, inputs, ST_FLOAT_D3D9, &e2);
    *nerr = e1 + e2;
    char *r = NULL;
    if (a && b && (r = malloc(strlen(a) + strlen(b) + 2)))
        sprintf(r, "%s\n%s", a, b);
    free(a);
    free(b);
    return r;
}

/* Same text but for float tokens, which may differ by a few ulps at most. */
static bool outputs_agree(const char *a, const char *b)
{
    while (*a && *b) {
        char *ea, *eb;
        if ((*a == '-' || (*a >= '0' && *a <= '9')) && (*b == '-' || (*b >= '0' && *b <= '9'))) {
            double x = strtod(a, &ea), y = strtod(b, &eb);
            if (ea == a || eb == b)
                return false;
            double tol = 1e-5 * fmax(1.0, fmax(fabs(x), fabs(y)));
            if (!(fabs(x - y) <= tol))
                return false;
            a = ea;
            b = eb;
            continue;
        }
        if (*a != *b)
            return false;
        a++;
        b++;
    }
    return *a == *b;
}

struct diff_totals {
    unsigned shaders, emitted, agree, disagree, not_supported, run_failed, more_temps;
    unsigned bad_accounting;
    unsigned as_written, samples_as_written, longer; /* the input printed back; longer text */
    struct st_merge_stats sum;
};

static void diff_one(const char *path, struct diff_totals *t, bool sample)
{
    size_t len;
    char *text = slurp(path, &len);
    if (!text)
        return;
    struct st_ctx *ctx = st_ctx_create(path, text, len, 50);
    struct st_arena *a = st_arena_create();
    struct st_shader *sh = st_parse_d3d9(ctx, a);
    if (!sh || st_error_count(ctx) || !st_check(ctx, sh)) {
        /* not a shader we accept (tests/corpus-defects.tsv lists why) */
        st_arena_destroy(a);
        st_ctx_destroy(ctx);
        free(text);
        return;
    }
    t->shaders++;
    struct st_buf out = {0};
    struct st_merge_stats st;
    if (!vasm_emit(ctx, sh, &out, &st)) {
        t->not_supported++;
    } else {
        t->emitted++;
        t->sum.merges_in += st.merges_in;
        t->sum.merges_eliminated += st.merges_eliminated;
        t->sum.moves_left += st.moves_left;
        t->sum.merges_interfering += st.merges_interfering;
        t->sum.merges_unfit += st.merges_unfit;
        t->sum.inputs_materialized += st.inputs_materialized;
        t->sum.copies_folded += st.copies_folded;
        t->sum.instrs_in += st.instrs_in;
        t->sum.instrs_out += st.instrs_out;
        t->sum.temps_in += st.temps_in;
        t->sum.temps_out += st.temps_out;
        if (st.as_written) {
            t->as_written++;
            t->samples_as_written += sample;
            print_message("as written: %s\n", path);
        }
        if (st.instrs_out > st.instrs_in && !st_warning_count(ctx)) {
            t->longer++;
            print_message("longer than its input: %s (%u -> %u)\n", path, st.instrs_in,
                          st.instrs_out);
        }
        /* every merge is either gone or kept for real lane interference */
        if (st.merges_in != st.merges_eliminated + st.merges_interfering || st.merges_unfit) {
            t->bad_accounting++;
            print_message("merge accounting: %s (%u in, %u gone, %u interfering, %u other)\n",
                          path, st.merges_in, st.merges_eliminated, st.merges_interfering,
                          st.merges_unfit);
        }
        if (st.temps_out > st.temps_in) {
            t->more_temps++;
            print_message("more temporaries: %s (%u -> %u)\n", path, st.temps_in, st.temps_out);
        }
        struct st_buf in = {0};
        make_inputs(sh, &in);
        unsigned e1 = 0, e2 = 0;
        char *o1 = run_text(text, in.data, &e1);
        char *o2 = run_text(out.data, in.data, &e2);
        if (!o1 || !o2) {
            t->run_failed++;
            print_message("run failed: %s (%u, %u errors)\n", path, e1, e2);
        } else if (outputs_agree(o1, o2)) {
            t->agree++;
        } else {
            t->disagree++;
            print_message("DISAGREE: %s\n--- input outputs\n%s\n--- vasm outputs\n%s\n--- vasm\n%s",
                          path, o1, o2, out.data);
        }
        free(o1);
        free(o2);
        st_buf_free(&in);
    }
    st_buf_free(&out);
    st_arena_destroy(a);
    st_ctx_destroy(ctx);
    free(text);
}

static void test_differential(void **state)
{
    (void)state;
    struct diff_totals t;
    memset(&t, 0, sizeof(t));
    char sbuf[1024];
    const char *sdir = "samples";
    if (getenv("ST_ROOT")) {
        snprintf(sbuf, sizeof(sbuf), "%s/samples", getenv("ST_ROOT"));
        sdir = sbuf;
    }
    DIR *d = opendir(sdir);
    if (d) {
        struct dirent *e;
        char **names = NULL;
        size_t n = 0;
        while ((e = readdir(d)))
            if (strstr(e->d_name, ".asm") && strlen(e->d_name) > 4 &&
                strcmp(e->d_name + strlen(e->d_name) - 4, ".asm") == 0) {
                names = realloc(names, sizeof(*names) * (n + 1));
                names[n++] = strdup(e->d_name);
            }
        closedir(d);
        for (size_t k = 0; k < n; k++) {
            char path[2100];
            snprintf(path, sizeof(path), "%s/%s", sdir, names[k]);
            diff_one(path, &t, true);
            free(names[k]);
        }
        free(names);
    }
    /* the corpus: a missing manifest fails, it is never skipped */
    struct manifest m;
    if (!manifest_open(&m))
        fail_msg("corpus manifest not found in %s (set ST_CORPUS_DIR)", m.dir);
    struct manifest_row r;
    while (manifest_next(&m, &r)) {
        if (strcmp(r.dialect, "d3d9") != 0 || strcmp(r.expect, "valid") != 0)
            continue;
        char full[1200];
        manifest_file(&m, &r, full, sizeof(full));
        diff_one(full, &t, false);
    }
    manifest_close(&m);
    print_message("vasm differential: %u shaders, %u emitted (%u not supported, %u as written), "
                  "%u agree, %u disagree, %u run failures, %u with more temporaries\n",
                  t.shaders, t.emitted, t.not_supported, t.as_written, t.agree, t.disagree,
                  t.run_failed, t.more_temps);
    print_message("merges in %u, eliminated %u, moves left %u, kept for interference %u, "
                  "kept otherwise %u; inputs made movs %u, copies folded %u; "
                  "instructions %u -> %u; temporaries %u -> %u\n",
                  t.sum.merges_in, t.sum.merges_eliminated, t.sum.moves_left,
                  t.sum.merges_interfering, t.sum.merges_unfit, t.sum.inputs_materialized,
                  t.sum.copies_folded, t.sum.instrs_in, t.sum.instrs_out, t.sum.temps_in,
                  t.sum.temps_out);
    assert_int_equal(t.disagree, 0);
    assert_int_equal(t.run_failed, 0);
    assert_int_equal(t.more_temps, 0);
    assert_int_equal(t.bad_accounting, 0);
    /* the text is never longer than a clean input, and the samples (the
     * project's own shaders) all fit: none falls back to its input */
    assert_int_equal(t.longer, 0);
    assert_int_equal(t.samples_as_written, 0);
    /* done-when of issue 5: every merge lane liveness allows is gone */
    assert_int_equal(t.sum.merges_in, t.sum.merges_eliminated + t.sum.merges_interfering);
    assert_true(t.emitted > 0);
}

/* ------------------------------------------------------------------ */
/* ARB programs through --emit=vasm.                                    */

/* Random ARB inputs: every env/local/state parameter, input and texture
 * unit the program names (docs/run-json.md, "ARB programs"). */
static void make_arb_inputs(const struct st_shader *sh, struct st_buf *b)
{
    const struct st_arb_program *a = sh->arb;
    bool first = true;
    st_buf_printf(b, "{\"constants\": {");
    for (unsigned k = 0; k < a->num_params; k++) {
        const struct st_arb_param *pp = &a->params[k];
        bool dup = false;
        if (pp->kind == ST_ARB_PARAM_CONST || !pp->binding)
            continue;
        for (unsigned j = 0; j < k && !dup; j++)
            dup = a->params[j].binding && strcmp(a->params[j].binding, pp->binding) == 0;
        if (!dup)
            add_json(b, &first, pp->binding, 4, -2, 2);
    }
    st_buf_printf(b, "}, \"textures\": {");
    first = true;
    for (unsigned unit = 0; unit < 16; unit++) {
        int target = -1;
        for (const struct st_instr *i = sh->first; i; i = i->next)
            if (i->arb && (i->op == ST_OP_ARB_TEX || i->op == ST_OP_ARB_TXP ||
                           i->op == ST_OP_ARB_TXB) && i->arb->tex_unit == unit)
                target = (int)i->arb->tex_target;
        if (target < 0)
            continue;
        const char *ty;
        unsigned w = 2, h = 2, d = 1, n;
        switch (target) {
        case ST_ARB_TEX_1D: case ST_ARB_TEX_SHADOW1D: ty = "1d"; h = 1; break;
        case ST_ARB_TEX_3D: ty = "3d"; d = 2; break;
        case ST_ARB_TEX_CUBE: ty = "cube"; w = h = 1; d = 6; break;
        case ST_ARB_TEX_RECT: case ST_ARB_TEX_SHADOWRECT: ty = "rect"; w = 3; break;
        default: ty = "2d"; break;
        }
        n = w * h * d;
        st_buf_printf(b, "%s\"texture[%u]\": {\"type\": \"%s\", \"width\": %u, \"height\": %u%s",
                      first ? "" : ", ", unit, ty, w, h, target == ST_ARB_TEX_3D ? ", \"depth\": 2"
                                                                               : "");
        st_buf_printf(b, ", \"texels\": [");
        for (unsigned t = 0; t < n; t++)
            st_buf_printf(b, "%s[%.3f, %.3f, %.3f, %.3f]", t ? ", " : "", (double)rnd(0, 1),
                          (double)rnd(0, 1), (double)rnd(0, 1), (double)rnd(0, 1));
        st_buf_printf(b, "]}");
        first = false;
    }
    st_buf_printf(b, "}, \"invocations\": [");
    for (unsigned n = 0; n < 4; n++) {
        st_buf_printf(b, "%s{", n ? ", " : "");
        first = true;
        for (unsigned k = 0; k < a->num_inputs; k++)
            add_json(b, &first, a->inputs[k].binding, 4, -2, 2);
        st_buf_printf(b, "}");
    }
    st_buf_printf(b, "]}");
}

struct arb_totals {
    unsigned shaders, emitted, agree, disagree, not_supported, unlocated, run_failed, more_temps,
        runs;
    struct st_merge_stats sum;
};

/* One ARB program (inputs_path: its .in.json, or NULL): through vasm, the
 * text parses and checks again, uses no more TEMPs, and runs to the same
 * outputs under the interpreter on that file and on random inputs. */
static void arb_one(const char *path, const char *inputs_path, struct arb_totals *t)
{
    size_t len;
    char *text = slurp(path, &len);
    if (!text)
        return;
    struct st_ctx *ctx = st_ctx_create(path, text, len, 50);
    struct st_arena *a = st_arena_create();
    struct st_shader *sh = st_parse_arb(ctx, a);
    if (!sh || st_error_count(ctx) || !st_check_arb(ctx, sh)) {
        print_message("ARB front end refused %s\n", path);
        t->run_failed++;
        goto done;
    }
    t->shaders++;
    struct st_buf out = {0};
    struct st_merge_stats st;
    if (!vasm_emit(ctx, sh, &out, &st)) {
        t->not_supported++;
        /* a located "not supported", nothing else */
        struct st_result *res = calloc(1, sizeof(*res));
        bool located = false;
        if (res && st_ctx_export(ctx, res))
            for (size_t k = 0; k < res->num_diagnostics; k++)
                if (res->diagnostics[k].severity == ST_SEVERITY_ERROR) {
                    located = res->diagnostics[k].code == ST_E_NOT_SUPPORTED &&
                              res->diagnostics[k].line > 0;
                    print_message("vasm refused %s: %u: %s\n", path, res->diagnostics[k].line,
                                  res->diagnostics[k].message);
                    break;
                }
        if (!located)
            t->unlocated++;
        st_result_free(res);
        st_buf_free(&out);
        goto done;
    }
    t->emitted++;
    t->sum.merges_in += st.merges_in;
    t->sum.merges_eliminated += st.merges_eliminated;
    t->sum.moves_left += st.moves_left;
    t->sum.merges_interfering += st.merges_interfering;
    t->sum.inputs_materialized += st.inputs_materialized;
    t->sum.copies_folded += st.copies_folded;
    t->sum.instrs_in += st.instrs_in;
    t->sum.instrs_out += st.instrs_out;
    t->sum.temps_in += st.temps_in;
    t->sum.temps_out += st.temps_out;
    if (st.temps_out > st.temps_in) {
        t->more_temps++;
        print_message("more temporaries: %s (%u -> %u)\n", path, st.temps_in, st.temps_out);
    }
    bool ok = strncmp(out.data, sh->version.type == ST_VS ? "!!ARBvp1.0\n" : "!!ARBfp1.0\n",
                      11) == 0;
    for (unsigned round = 0; round < 4 && ok; round++) {
        struct st_buf in = {0};
        char *file = NULL;
        if (round == 0) {
            if (!inputs_path || !(file = slurp(inputs_path, NULL)))
                continue;
            st_buf_printf(&in, "%s", file);
        } else {
            make_arb_inputs(sh, &in);
        }
        unsigned e1 = 0, e2 = 0;
        char *o1 = run_text(text, in.data, &e1);
        char *o2 = run_text(out.data, in.data, &e2);
        t->runs++;
        if (!o1 || !o2) {
            t->run_failed++;
            print_message("run failed: %s (%u, %u errors)\n", path, e1, e2);
            ok = false;
        } else if (strcmp(o1, o2) != 0) { /* bit for bit: the same operations */
            print_message("DISAGREE: %s\n--- inputs\n%s\n--- input outputs\n%s\n--- vasm "
                          "outputs\n%s\n--- vasm\n%s",
                          path, in.data, o1, o2, out.data);
            ok = false;
        }
        free(o1);
        free(o2);
        free(file);
        st_buf_free(&in);
    }
    if (ok)
        t->agree++;
    else
        t->disagree++;
    st_buf_free(&out);
done:
    st_arena_destroy(a);
    st_ctx_destroy(ctx);
    free(text);
}

static void test_arb_differential(void **state)
{
    (void)state;
    struct arb_totals t;
    memset(&t, 0, sizeof(t));
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/samples/arb", getenv("ST_ROOT") ? getenv("ST_ROOT") : ".");
    DIR *d = opendir(dir);
    unsigned samples = 0;
    if (d) {
        struct dirent *e;
        char **names = NULL;
        size_t n = 0;
        while ((e = readdir(d))) {
            size_t l = strlen(e->d_name);
            if (l > 3 && (strcmp(e->d_name + l - 3, ".vp") == 0 ||
                          strcmp(e->d_name + l - 3, ".fp") == 0)) {
                names = realloc(names, sizeof(*names) * (n + 1));
                names[n++] = strdup(e->d_name);
            }
        }
        closedir(d);
        for (size_t k = 0; k < n; k++) {
            char path[2100], inp[2100];
            snprintf(path, sizeof(path), "%s/%s", dir, names[k]);
            snprintf(inp, sizeof(inp), "%s/%.*s.in.json", dir, (int)strlen(names[k]) - 3,
                     names[k]);
            arb_one(path, inp, &t);
            samples++;
            free(names[k]);
        }
        free(names);
    }
    struct manifest m;
    if (!manifest_open(&m))
        fail_msg("corpus manifest not found in %s (set ST_CORPUS_DIR)", m.dir);
    unsigned corpus = 0;
    struct manifest_row r;
    while (manifest_next(&m, &r)) {
        if (strcmp(r.dialect, "arb") != 0 || strcmp(r.expect, "valid") != 0)
            continue;
        /* programs that need an NV option are refused by the front end by design */
        if (manifest_needs_vendor(&r))
            continue;
        char full[1200];
        manifest_file(&m, &r, full, sizeof(full));
        arb_one(full, NULL, &t);
        corpus++;
    }
    manifest_close(&m);
    print_message("ARB vasm: %u programs (%u samples, %u corpus), %u emitted (%u not supported), "
                  "%u agree, %u disagree, %u runs (%u failed), %u with more temporaries\n",
                  t.shaders, samples, corpus, t.emitted, t.not_supported, t.agree, t.disagree,
                  t.runs, t.run_failed, t.more_temps);
    print_message("ARB merges in %u, eliminated %u, moves left %u, kept for interference %u; "
                  "inputs made movs %u, copies folded %u; instructions %u -> %u; "
                  "temporaries %u -> %u\n",
                  t.sum.merges_in, t.sum.merges_eliminated, t.sum.moves_left,
                  t.sum.merges_interfering, t.sum.inputs_materialized, t.sum.copies_folded,
                  t.sum.instrs_in, t.sum.instrs_out, t.sum.temps_in, t.sum.temps_out);
    assert_true(samples >= 16);
    assert_true(corpus >= 100);
    assert_int_equal(t.disagree, 0);
    assert_int_equal(t.run_failed, 0);
    assert_int_equal(t.more_temps, 0);
    assert_int_equal(t.unlocated, 0);
    /* the 1024-parameter corpus program: the lowering refuses it by design */
    assert_true(t.not_supported <= 1);
    assert_int_equal(t.sum.merges_in, t.sum.merges_eliminated + t.sum.merges_interfering);
}

/*
 * Hand-worked cases of forms the fuzzer found, each checked for the exact
 * text and for agreeing with its input under the interpreter, both float
 * rules (random inputs as in test_differential).  Each one fails when the
 * code path it names is disabled (checked by hand while writing them).
 */
static const struct shape_case hand_cases[] = {
    /* callnz: the join after the inlined subroutine has three edges, the
     * call's, the skipped call's and a dead block's after the subroutine's
     * ret (poison).  l1 writes p0.y only, so p0.x at "if p0.x" is the first
     * setp on every live edge; the poison edge adds nothing (without
     * that the if is refused).  Nobody reads p0.y: that setp is dead.  The
     * skipped call's edge copies r0 = v0, which moves before the if (the
     * call's arm overwrites r0), and the comparison, read once, is the
     * if_gt's own. */
    {"poison edge of a p0 phi after callnz",
     "vs_2_x\ndcl_position v0\nmov r0, v0\nsetp_gt p0.x, v0.x, c0.x\ncallnz l1, b0\n"
     "if p0.x\nadd r0, r0, c2\nendif\nmov oPos, r0\nret\n"
     "label l1\nsetp_lt p0.y, v0.y, c1.y\nmul r0, r0, c1\nret\n",
     "vs_2_x\ndcl_position v0\nmov r0, v0\nif b0\nmul r0, v0, c1\n"
     "endif\nif_gt v0.x, c0.x\nadd r0, r0, c2\nendif\nmov oPos, r0\n"},
    /* ps_1_1: r1.a = -v0.a is a view; r1_bias.a puts a second modifier on
     * it.  One modifier per source: the negated view is copied first
     * (its lane w, the one read) and _bias applies to the copy:
     * v1 + ((-v0.a) - 0.5) either way.  r1.rgb is dead. */
    {"second ps_1_x modifier copies the view",
     "ps_1_1\nmov r1.rgb, v1\n+ mov r1.a, -v0\nadd r0, v1, r1_bias.a\n",
     "ps_1_1\nmov r0.w, -v0\nadd r0, v1, r0_bias.w\n"},
    /* -(1 - x) has no ps_1_x modifier: the complement is copied first
     * (copy_view in view_opnd's fneg), then negated: v1 + -(1 - v0) */
    {"negated complement copies the view",
     "ps_1_1\nmov r1, 1-v0\nadd r0, v1, -r1\n",
     "ps_1_1\nmov r0, 1 - v0\nadd r0, v1, -r0\n"},
    /* ps_1_1 with all eight constants in use: c0 + c1 folds to 0.75 in
     * every lane, a new def with no free register during selection.  Once
     * the program is final nothing reads c0 or c1 (only the folded sum did):
     * their defs go and the new one takes c0 (mir_place_ps1x_defs; refused
     * before).  The product by c2 is not folded (c2 is no constant). */
    {"ps_1_x new def in a register freed by folding",
     "ps_1_1\ndef c0, 0.25, 0.25, 0.25, 0.25\ndef c1, 0.5, 0.5, 0.5, 0.5\nadd r1, c0, c1\n"
     "mul r0, r1, c2\nmad r0, r0, c3, c4\nmad r0, r0, c5, c6\nadd r0, r0, c7\n",
     "ps_1_1\ndef c0, 0.75, 0.75, 0.75, 0.75\nmul r0, c0, c2\nmad r0, r0, c3, c4\n"
     "mad r0, r0, c5, c6\nadd r0, r0, c7\n"},
    /* texkill in ps_2_0 names r# or t#, not v#: the copy of v1 the
     * selection looks through comes back as a mov into a temporary, of
     * the three lanes texkill tests */
    {"texkill of an input in ps_2_0",
     "ps_2_0\ndcl v0\ndcl v1\nmov r0, v1\ntexkill r0\nmov oC0, v0\n",
     "ps_2_0\ndcl v0\ndcl v1\nmov r0.xyz, v1\ntexkill r0\nmov oC0, v0\n"},
    /* p0.x read in the else arm holds the setp before the if, although the
     * then arm wrote p0.x: the walk used to forget the lane at "else" and
     * refused; p0.x as it stands there is that first setp on the only path
     * (pred_src).  After endif p0.x is the phi of both setps, read as it
     * stands.  Both arms copy r0 = v0 (the phi's copies); the else arm's
     * predicated add then writes r0 where p0.x is true. */
    {"p0 lane written in the then arm, read in the else arm",
     "vs_2_x\ndcl_position v0\nmov r0, v0\nsetp_gt p0.x, v0.x, c0.x\nif b0\n"
     "setp_lt p0.x, v0.y, c1.y\nelse\n(p0.x) add r0, r0, c2\nendif\n(p0.x) mul r0, r0, c3\n"
     "mov oPos, r0\n",
     "vs_2_x\ndcl_position v0\nsetp_gt p0.x, v0.x, c0.x\nmov r0, v0\nif b0\n"
     "setp_lt p0.x, v0.y, c1.y\nelse\n(p0.x) add r0, v0, c2\nendif\n(p0.x) mul r0, r0, c3\n"
     "mov oPos, r0\n"},
    /* o[a0.x + 1] before any mova: a0.x is 0, the address folds to 1.
     * The program writes a0 afterwards, so o[a0.x + 1] would be wrong text
     * in general; the write names o1 itself (refused before). */
    {"relative output write folded to a constant, a0 written later",
     "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord0 o1\ndcl_texcoord1 o2\n"
     "mov o0, v0\nmov o[a0.x + 1], v0.yxzw\nmova a0.x, v0.x\nadd o2, v0, c[a0.x + 3]\n",
     "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord0 o1\ndcl_texcoord1 o2\n"
     "mov o0, v0\nmov o1, v0.yxzw\nmova a0.x, v0.x\nadd o2, v0, c3[a0.x]\n"},
    /* aL inside a rep nested in a loop is the loop's (a rep has no aL):
     * the innermost `loop`, not the innermost construct (refused before) */
    {"aL of the loop around a rep",
     "vs_2_x\ndefi i0, 2, 1, 1, 0\ndefi i1, 3, 0, 0, 0\ndcl_position v0\nmov r0, v0\n"
     "loop aL, i0\nrep i1\nadd r0, r0, c[aL + 2]\nendrep\nendloop\nmov oPos, r0\n",
     "vs_2_x\ndcl_position v0\ndefi i0, 2, 1, 1, 0\ndefi i1, 3, 0, 0, 0\nmov r0, v0\n"
     "loop aL, i0\nrep i1\nadd r0, r0, c2[aL]\nendrep\nendloop\nmov oPos, r0\n"},
    /* cmp_sat of two constants below 1 in every lane: instsimplify proves
     * the upper clamp's x < 1 and drops it; select(x > 0, x, 0) alone is
     * still the saturate of x (refused before).  .a prints as .w. */
    {"saturate whose upper clamp folded",
     "ps_1_3\ndef c3, 0.125, -0.375, -0.5, 0.25\ncmp_sat r0, c2, c3.a, c3\n",
     "ps_1_3\ndef c3, 0.125, -0.375, -0.5, 0.25\ncmp_sat r0, c2, c3.w, c3\n"},
};

static void test_hand_cases(void **state)
{
    (void)state;
    for (unsigned k = 0; k < sizeof(hand_cases) / sizeof(hand_cases[0]); k++) {
        const struct shape_case *hc = &hand_cases[k];
        unsigned nerr = 0;
        char *out = vasm_of(hc->in, NULL, &nerr);
        if (!out || strcmp(out, hc->out) != 0)
            print_message("hand case %u (%s):\n%s\n", k, hc->why, out ? out : "(refused)");
        assert_non_null(out);
        assert_int_equal(nerr, 0);
        assert_string_equal(out, hc->out);
        /* the same results as the input, under both rules */
        struct st_ctx *ctx = st_ctx_create("h.asm", hc->in, strlen(hc->in), 50);
        struct st_arena *a = st_arena_create();
        struct st_shader *sh = st_parse_d3d9(ctx, a);
        assert_non_null(sh);
        struct st_buf in = {0};
        make_inputs(sh, &in);
        unsigned e1 = 0, e2 = 0;
        char *o1 = run_text(hc->in, in.data, &e1);
        char *o2 = run_text(out, in.data, &e2);
        assert_non_null(o1);
        assert_non_null(o2);
        if (!outputs_agree(o1, o2))
            print_message("hand case %u disagrees:\n%s\n---\n%s\n", k, o1, o2);
        assert_true(outputs_agree(o1, o2));
        free(o1);
        free(o2);
        st_buf_free(&in);
        st_arena_destroy(a);
        st_ctx_destroy(ctx);
        free(out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed),
        cmocka_unit_test(test_interfering_merge_keeps_one_mov),
        cmocka_unit_test(test_not_supported_is_an_error),
        cmocka_unit_test(test_ps11_texture_kept),
        cmocka_unit_test(test_ps11_coissue_merge),
        cmocka_unit_test(test_predicated_write),
        cmocka_unit_test(test_predicated_partial_write),
        cmocka_unit_test(test_marker_ops),
        cmocka_unit_test(test_relative_output_write),
        cmocka_unit_test(test_float_rules_fold),
        cmocka_unit_test(test_arb_seed),
        cmocka_unit_test(test_arb_ops),
        cmocka_unit_test(test_arb_temp_names),
        cmocka_unit_test(test_arb_swz_of_view),
        cmocka_unit_test(test_fuzz_shapes),
        cmocka_unit_test(test_hand_cases),
        cmocka_unit_test(test_disjoint_lanes_share),
        cmocka_unit_test(test_overlapping_lanes_clash),
        cmocka_unit_test(test_merge_input_live_elsewhere),
        cmocka_unit_test(test_merge_same_value_twice),
        cmocka_unit_test(test_merge_chain),
        cmocka_unit_test(test_phi_across_if),
        cmocka_unit_test(test_loop_back_edge),
        cmocka_unit_test(test_regalloc_limit),
        cmocka_unit_test(test_differential),
        cmocka_unit_test(test_arb_differential),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
