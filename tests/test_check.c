/*
 * test_check.c — the Direct3D 9 semantic checker (translator/d3d9/check.c).
 *
 * Two kinds of input:
 *   - shader text, parsed with st_parse_d3d9 and then checked: valid
 *     constructs of every version must give no diagnostic at all, invalid
 *     ones give exactly the diagnostics listed (code, line, column,
 *     severity and text, worked out by hand from the shader-model rules);
 *   - hand-built ASTs for what the parser never produces (an index
 *     register other than a0/aL, setp without a comparison, ...).
 * tests/bad/chk-*.asm hold one input per checker message for the CLI runner.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "translator.h"

struct exp_diag {
    unsigned line, column;
    enum st_severity sev;
    unsigned code;
    const char *message; /* NULL: not compared */
};

#define ERR(l, c, code, msg) {l, c, ST_SEVERITY_ERROR, code, msg}
#define WARN(l, c, code, msg) {l, c, ST_SEVERITY_WARNING, code, msg}

static void free_result(struct st_result *res)
{
    if (!res->diagnostics)
        return;
    for (size_t i = 0; i < res->num_diagnostics; i++) {
        free((char *)res->diagnostics[i].message);
        free((char *)res->diagnostics[i].source_line);
    }
    if (res->num_diagnostics)
        free((char *)res->diagnostics[0].file);
    free((struct st_diagnostic *)res->diagnostics);
    res->diagnostics = NULL;
}

static void print_diags(const struct st_result *res)
{
    for (size_t i = 0; i < res->num_diagnostics; i++) {
        char buf[512];
        st_diagnostic_format(&res->diagnostics[i], buf, sizeof(buf));
        print_message("  got: %s\n", buf);
    }
}

static void compare(const struct st_result *res, const struct exp_diag *exp, size_t n)
{
    if (res->num_diagnostics != n)
        print_diags(res);
    assert_int_equal(res->num_diagnostics, n);
    for (size_t i = 0; i < n; i++) {
        const struct st_diagnostic *d = &res->diagnostics[i];
        if (d->line != exp[i].line || d->column != exp[i].column || d->code != exp[i].code ||
            d->severity != exp[i].sev ||
            (exp[i].message && strcmp(d->message, exp[i].message) != 0))
            print_diags(res);
        assert_int_equal(d->line, exp[i].line);
        assert_int_equal(d->column, exp[i].column);
        assert_int_equal(d->code, exp[i].code);
        assert_int_equal(d->severity, exp[i].sev);
        if (exp[i].message)
            assert_string_equal(d->message, exp[i].message);
    }
}

/* Parses and checks `src`; the parse itself must succeed without errors. */
static bool check_text(const char *src, struct st_result *res)
{
    struct st_ctx *ctx = st_ctx_create("t.asm", src, strlen(src), 50);
    assert_non_null(ctx);
    struct st_arena *arena = st_arena_create();
    assert_non_null(arena);
    struct st_shader *sh = st_parse_d3d9(ctx, arena);
    if (st_error_count(ctx) != 0 || !sh) {
        struct st_result pr = {0};
        st_ctx_export(ctx, &pr);
        print_message("parse failed for:\n%s\n", src);
        print_diags(&pr);
        free_result(&pr);
        st_arena_destroy(arena);
        st_ctx_destroy(ctx);
        fail();
    }
    bool ok = st_check(ctx, sh);
    memset(res, 0, sizeof(*res));
    assert_true(st_ctx_export(ctx, res));
    st_arena_destroy(arena);
    st_ctx_destroy(ctx);
    return ok;
}

static void expect_text(const char *src, const struct exp_diag *exp, size_t n)
{
    struct st_result res;
    bool ok = check_text(src, &res);
    bool any_error = false;
    for (size_t i = 0; i < n; i++)
        any_error |= exp[i].sev == ST_SEVERITY_ERROR;
    compare(&res, exp, n);
    assert_int_equal(ok, !any_error);
    free_result(&res);
}

#define EXPECT(src, ...)                                                          \
    do {                                                                          \
        static const struct exp_diag e_[] = {__VA_ARGS__};                        \
        expect_text(src, e_, sizeof(e_) / sizeof(e_[0]));                         \
    } while (0)

static void expect_clean(const char *src)
{
    struct st_result res;
    bool ok = check_text(src, &res);
    if (res.num_diagnostics) {
        print_message("expected no diagnostics for:\n%s\n", src);
        print_diags(&res);
    }
    assert_int_equal(res.num_diagnostics, 0);
    assert_true(ok);
    free_result(&res);
}

/* ------------------------------------------------------------------ */
/* Valid constructs                                                    */

static void valid_vs(void **state)
{
    (void)state;
    /* Scalar instructions with a replicate swizzle or none at all. */
    expect_clean("vs_1_1\nrcp r0, v0.x\nrsq r1, v0.w\nexp r2, c0\nlogp r3, c1.y\n");
    expect_clean("vs_2_0\nrcp r0, v0.x\npow r1, v0.x, c0.y\nrcp r2, v0.xxxx\n");
    /* vs_1_0 is checked as vs_1_1. */
    expect_clean("vs.1.0\nmov oPos, v0\nmov oD0, v1\n");
    /* Outputs, relative addressing and a0 of vs_1_1. */
    expect_clean("vs_1_1\ndcl_position v0\nmov a0.x, c0.x\nmov oD0, c[a0.x]\n"
                 "mov oT7, c95\nmov oPts, v1.x\nmov oFog, v1.x\nm4x4 oPos, v0, c0\n");
    /* One c# read twice is one read port. */
    expect_clean("vs_1_1\nadd oD0, c0, c0\nmad r0, v0.y, c1, r0\n");
    /* vs_2_0: sincos with its two constants, mova, flow control, labels. */
    expect_clean("vs_2_0\ndef c1, 1, 2, 3, 4\ndefi i0, 4, 0, 1, 0\ndefb b0, true\n"
                 "sincos r0.xy, r1.x, c2, c3\nmova a0.y, c0.z\nmov r1, -c0[a0.y + 5].x\n"
                 "loop aL, i0\nadd r0, r0, c[aL + 1]\nendloop\nrep i0\nendrep\n"
                 "if b0\nelse\nendif\ncall l1\ncallnz l2, !b0\nret\n"
                 "label l1\nret\nlabel l2\nret\n");
    /* Full writemasks count as "none written" for the partial-mask rules. */
    expect_clean("vs_2_0\nsincos r0, r1, c2, c3\ncrs r0, r1, r2\nm3x2 r0, v0, c0\n"
                 "m3x3 r0.xyz, v0, c0\nm4x4 r0, v0, c0\ncrs r0.xz, r1, r2\n");
    /* vs_2_x: predication, comparisons, break forms. */
    expect_clean("vs_2_x\nsetp_gt p0, r0, r1\n(!p0.x) add r2, r2, r3\nif_ge r0.x, r1.y\n"
                 "endif\nrep i0\nbreak_ne r0, r1\nbreakp !p0.w\nbreak\nendrep\n"
                 "if p0.y\nendif\ncallnz l0, !p0.z\nret\nlabel l0\nret\n");
    /* vs_3_0: outputs, samplers, _sat, _abs, relative inputs and outputs. */
    expect_clean("vs_3_0\ndcl_position v0\ndcl_texcoord3 v1\ndcl_position o0\n"
                 "dcl_texcoord0 o1.xy\ndcl_2d s0\ntexldl r0, v0, s0\nadd_sat r0, r0, r1_abs\n"
                 "mov o[a0.x + 2], r0\nmova_sat a0.x, r1\nloop aL, i1\nmov r1, v[aL]\n"
                 "mov o[aL + 1], -r1_abs\nendloop\nsincos r2.y, r1.x\n");
}

static void valid_ps(void **state)
{
    (void)state;
    /* ps_1_1..1_3: texture block first, then arithmetic; coissue. */
    expect_clean("ps_1_1\ndef c0, 1, 0, 0, 1\ntex t0\ntexbem t1, t0\n"
                 "add r0.rgb, t0, t1_bx2\n+mov r0.a, 1 - t0.a\nmul_x2 r1.a, v0, c0.b\n"
                 "cnd r0, r0.a, c1, c2\n");
    expect_clean("ps_1_3\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\n"
                 "texm3x3spec t3, t0, c0\nmov_sat r0, -r1_bias\nmov_x4_sat r0.a, -r1_bx2.a\n");
    expect_clean("ps_1_3\ntex t0\ntexm3x2pad t1, t0\ntexm3x2depth t2, t0\ntexkill t3\n"
                 "mov r0.a, r1.a\n+mov r0.rgb, r1\n");
    /* ps_1_4: texld with one source, phases, _dz, coissue in either order. */
    expect_clean("ps_1_4\ntexld r0, t0\ntexcrd r1.xyz, t1.xyz\nmov r0.a, c0.a\n"
                 "+cnd r0.xyz, r0, c1, c2\nphase\ntexld r2, r0_dz\ntexdepth r5\n"
                 "mov r0, v0.r\nbem r1.rg, c0, r0\n");
    /* No phase: everything is the second phase. */
    expect_clean("ps_1_4\ntexld r5, r2_dz\ntexld r4, r0\nmov r0, v1\n");
    /* ps_2_0: declarations, texld with a sampler, its swizzle set. */
    expect_clean("ps_2_0\ndcl t0.xy\ndcl_centroid t1\ndcl_pp v0\ndcl_2d s0\ndcl_cube s1\n"
                 "texld r0, t0, s0\ntexldp_pp r1, t1, s1\nmov r2.xy, t0.wzyx\n"
                 "mov r3, t0.yzxw\nmov r4, t0.zxyw\nmov r5, t0.z\ntexkill t0\n"
                 "mov oC0, r0\nmov oDepth, c0.x\n");
    /* ps_2_x: arbitrary swizzles, predication, rep and labels. */
    expect_clean("ps_2_x\ndsx r0, r1.xzyw\nsetp_gt p0, r0, r1\n(p0) add r2, r2, r3\n"
                 "rep i0\nbreakp p0.x\nendrep\nif p0.x\nelse\nendif\ncall l15\nret\n"
                 "label l15\nret\n");
    /* ps_3_0: semantics, vPos, vFace, relative v#, _abs, sampler swizzle. */
    expect_clean("ps_3_0\ndcl_texcoord0_centroid v0\ndcl_color1 v9\ndcl vPos.xy\ndcl vFace\n"
                 "dcl_2d_centroid s0\ndefi i0, 4, 0, 1, 0\nloop aL, i0\nmov r0, v[aL]\n"
                 "loop aL, i0\nadd r1, r1, v0[aL]\nendloop\nendloop\n"
                 "texld r0, v0.zw, s0.yzwx\ntexldd_pp r1, v0, s0, r2, r3\n"
                 "cmp r2, vFace, c0, -r1_abs\ntexkill v0\nmov oC3, r0\n");
}

/*
 * Shaders Wine's assembler tests assemble with validation skipped: they
 * must not be rejected, though some break runtime rules (then a warning).
 */
static void assembler_accepts(void **state)
{
    (void)state;
    expect_clean("vs_2_0\nif !b0\nelse\nendif\n");
    expect_clean("ps_2_x\nif !b0\nelse\nendif\n");
    expect_clean("vs_3_0\ndcl_texcoord12 o11\nmov r2, r1.xygb\n");
    /* No range check on relatively addressed registers (a0/aL may be < 0). */
    EXPECT("vs_3_0\nadd r0, v20[aL], r2\n",
           WARN(2, 9, ST_E_RELADDR_RULE, "aL used outside a loop block: its value is undefined there"));
    expect_clean("ps_3_0\ndsx_sat r0, r1\ndcl_2d_pp s0\nmov r0, vFace\ndcl_normal5 v0\n");
    expect_clean("ps_1_3\ncmp r0, r1, r0, v0\nmov_x2_sat r0, 1 - r1\nmov_d8 r0, -r1\n");
    expect_clean("ps_1_4\ntexdepth_x2 r5\nadd r0, r1, r2_bx2\nmov r0, c7\n");
    EXPECT("vs.2.0\ncall l2047\n",
           WARN(2, 6, ST_E_LABEL_RULE,
                "label l2047 is beyond vs_2_0's l0..l15; assemblers encode it but runtimes "
                "may reject the shader"),
           WARN(2, 6, ST_E_LABEL_RULE, "call to undefined label l2047 (runtimes reject the shader)"));
    EXPECT("vs_2_0\nmov r0, c0[a0]\n",
           WARN(2, 9, ST_E_RELADDR_RULE, "a0 without a component reads a0.x; write c[a0.x]"));
    EXPECT("vs_1_1\nmov r0, c0[a0]\n",
           ERR(2, 9, ST_E_RELADDR_RULE, "a0 needs a component in a relative address: write c[a0.x]"));
    EXPECT("ps_1_3\ntexreg2ar_x4 t0, t1\n",
           WARN(2, 18, ST_E_TEX_RULE,
                "texreg2ar t0 reads t1: the source should be a lower-numbered texture register "
                "(runtimes reject this order)"));
    EXPECT("ps_1_4\ntexld r5, c0\n",
           WARN(2, 11, ST_E_OPERAND_KIND,
                "the source of texld in ps_1_4 should be t# or r#; found c0 (runtimes reject it)"));
    EXPECT("vs_2_0\nadd r0, c0[a0.x], c1[a0.y]\n",
           WARN(2, 19, ST_E_SRC_REG,
                "add reads two c# registers (c0 and c1); vs_2_0 has one c# read port per "
                "instruction"));
    /* ... and what it rejects, the checker rejects too. */
    EXPECT("vs_1_1\nmov r0, s0\nmov r2, r1_x2\n",
           ERR(2, 9, ST_E_REG_VERSION, "register s0 does not exist in vs_1_1"),
           ERR(3, 9, ST_E_SRCMOD_VERSION,
               "source modifier _x2 is not available in vs_1_1: only ps_1_1..ps_1_4 have it; "
               "use - only"));
    EXPECT("vs_3_0\nadd o13, r0, r1\n",
           ERR(2, 5, ST_E_REG_INDEX, "register o13 out of range: vs_3_0 has o0..o11"));
    EXPECT("ps_3_0\ntexld r0, r1, s20\ndcl_texcoord0_sat v0\n",
           ERR(2, 15, ST_E_REG_INDEX, "register s20 out of range: ps_3_0 has s0..s15"),
           ERR(3, 4, ST_E_DSTMOD_VERSION, "dcl takes no _sat modifier"));
}

/* ------------------------------------------------------------------ */
/* Invalid constructs: exact diagnostics                               */

static void registers(void **state)
{
    (void)state;
    EXPECT("vs_3_0\nadd r0, r0, v17\n",
           ERR(2, 13, ST_E_REG_INDEX, "register v17 out of range: vs_3_0 has v0..v15"));
    /* Every violation is reported, each at its operand. */
    EXPECT("ps_1_3\nmov r5, r0\nadd oC0, c8, t4\n",
           ERR(2, 5, ST_E_REG_INDEX, "register r5 out of range: ps_1_3 has r0..r1"),
           ERR(3, 5, ST_E_REG_VERSION,
               "register oC0 does not exist in ps_1_3; ps_1_x writes its color to r0"),
           ERR(3, 10, ST_E_REG_INDEX, "register c8 out of range: ps_1_3 has c0..c7"),
           ERR(3, 14, ST_E_REG_INDEX, "register t4 out of range: ps_1_3 has t0..t3"));
    EXPECT("ps_1_4\nmov r6, t6\n",
           ERR(2, 5, ST_E_REG_INDEX, "register r6 out of range: ps_1_4 has r0..r5"),
           ERR(2, 9, ST_E_REG_INDEX, "register t6 out of range: ps_1_4 has t0..t5"));
    EXPECT("ps_2_0\nmov r12, c32\n",
           ERR(2, 5, ST_E_REG_INDEX, "register r12 out of range: ps_2_0 has r0..r11"),
           ERR(2, 10, ST_E_REG_INDEX, "register c32 out of range: ps_2_0 has c0..c31"));
    /* vs_3_0 has four samplers; ps_3_0 has ten inputs. */
    EXPECT("vs_3_0\ndcl_2d s4\n",
           ERR(2, 8, ST_E_REG_INDEX, "register s4 out of range: vs_3_0 has s0..s3"));
    /* Beyond the model but encodable: a warning, as assemblers accept it. */
    EXPECT("vs_1_1\ndef c256, 1, 1, 1, 1\n",
           WARN(2, 5, ST_E_REG_INDEX,
                "register c256 is beyond vs_1_1's c0..c255 (the count is a device cap, at "
                "least 256 on 2_0+ hardware); assemblers encode it but runtimes may reject "
                "the shader"));
    EXPECT("vs_3_0\ncall l2048\n",
           ERR(2, 6, ST_E_LABEL_RULE, "label l2048 out of range: vs_3_0 has l0..l2047"));
    /* Read and write permissions. */
    EXPECT("vs_2_0\nmov c0, r0\nmov r0, oD0\nmov r0, a0\nmov r0, aL\n",
           ERR(2, 5, ST_E_DST_REG, "c0 cannot be written: float constants are set with def"),
           ERR(3, 9, ST_E_SRC_REG, "oD0 cannot be a source of mov: output registers are write-only"),
           ERR(4, 9, ST_E_SRC_REG,
               "a0 cannot be a source of mov: a0 is only used inside a relative address (c[a0.x])"),
           ERR(5, 9, ST_E_SRC_REG,
               "aL cannot be a source of mov: aL is only loop's first operand or a relative address"));
    EXPECT("ps_2_0\nmov t0, r0\nmov r0, s0\n",
           ERR(2, 5, ST_E_DST_REG,
               "t0 cannot be written: t# are read-only texture coordinates in ps_2_0 and later"),
           ERR(3, 9, ST_E_SRC_REG,
               "s0 cannot be a source of mov: samplers are only the sampler operand of "
               "texld/texldp/texldb/texldl/texldd"));
}

static void modifiers(void **state)
{
    (void)state;
    EXPECT("ps_2_0\nmov r2, 1 - r0\n",
           ERR(2, 9, ST_E_SRCMOD_VERSION,
               "source modifier 1 - r (complement) is not available in ps_2_0: only "
               "ps_1_1..ps_1_4 have it; use - only"));
    EXPECT("vs_1_1\nmov r2, r1_abs\n",
           ERR(2, 9, ST_E_SRCMOD_VERSION,
               "source modifier _abs is not available in vs_1_1: only vs_3_0 and ps_3_0 have "
               "it; use the abs instruction"));
    EXPECT("vs_3_0\nadd_pp r0, r0, r1\n",
           ERR(2, 4, ST_E_DSTMOD_VERSION,
               "_pp is a pixel shader modifier; vertex shaders always use full precision"));
    EXPECT("vs_2_0\nmov_sat r0, r1\n",
           ERR(2, 4, ST_E_DSTMOD_VERSION,
               "_sat is not available in vs_2_0: vertex shaders have it from vs_3_0"));
    EXPECT("ps_2_0\nadd_x2 r0, r1, r2\n",
           ERR(2, 4, ST_E_DSTMOD_VERSION,
               "result shift (_x2, _x4, _x8, _d2, _d4, _d8) is not available in ps_2_0: only "
               "ps_1_1..ps_1_4 have it"));
    EXPECT("ps_3_0\ndcl_texcoord0_x2 v0\n",
           ERR(2, 4, ST_E_DSTMOD_VERSION,
               "dcl takes no result shift; only _pp and _centroid are allowed"));
    EXPECT("vs_3_0\ndcl_2d_pp s0\n",
           ERR(2, 4, ST_E_DSTMOD_VERSION,
               "vertex shader declarations take no modifiers (_pp, _centroid, _sat)"));
    EXPECT("ps_2_0\nadd r0.rgb, r0, r1\n+add r0.a, r0, v1\n",
           ERR(3, 2, ST_E_COISSUE_RULE,
               "coissue '+' is not available in ps_2_0: only ps_1_1..ps_1_4 pair instructions"));
    EXPECT("vs_1_1\n(p0) add r0, r0, v0\n",
           ERR(2, 2, ST_E_PREDICATE_RULE,
               "predication is not available in vs_1_1: it needs vs_2_x, vs_3_0, ps_2_x or "
               "ps_3_0"));
    EXPECT("vs_2_x\n(p0) rep i0\nendrep\n",
           ERR(2, 2, ST_E_PREDICATE_RULE, "rep cannot be predicated"));
}

static void swizzles_and_masks(void **state)
{
    (void)state;
    /* vs_1_1's rcp r0, v0.x is fine; a two-letter swizzle is not. */
    EXPECT("vs_1_1\nrcp r0, v0.x\nrcp r0, v0.xy\n",
           ERR(3, 9, ST_E_SWIZZLE_RULE,
               "rcp needs a replicate swizzle on this source (.x, .y, .z or .w); found .xy"));
    EXPECT("vs_2_0\nsincos r0.xyz, r1.xy, c0, c1\n",
           ERR(2, 8, ST_E_WRITEMASK_RULE,
               "sincos writes .x (cos), .y (sin) or .xy; writemask .xyz is not allowed"),
           ERR(2, 16, ST_E_SWIZZLE_RULE,
               "sincos needs a replicate swizzle on this source (.x, .y, .z or .w); found .xy"));
    EXPECT("ps_2_0\nmov r0, t0.xyzz\n",
           ERR(2, 9, ST_E_SWIZZLE_RULE,
               "swizzle .xyzz is not available in ps_2_0: allowed are none, .yzxw, .zxyw, "
               ".wzyx and replicates (.x, .y, .z, .w); ps_2_x has arbitrary swizzles"));
    EXPECT("ps_1_1\nmov r0.g, c0\n",
           ERR(2, 5, ST_E_WRITEMASK_RULE,
               "writemask .y is not available in ps_1_1: use .rgb, .a or none"));
    EXPECT("ps_3_0\nmov r0, v[aL.x + 12]\n",
           ERR(2, 9, ST_E_RELADDR_RULE, "aL is a scalar register: write v[aL] without a component"));
}

static void reladdr(void **state)
{
    (void)state;
    EXPECT("vs_2_0\nadd r0, v[a0.x], r1\n",
           ERR(2, 9, ST_E_RELADDR_RULE,
               "v0 cannot be relatively addressed: in vs_2_0 only c# can be relatively addressed"));
    EXPECT("ps_2_0\nadd r0, v[aL], r1\n",
           ERR(2, 9, ST_E_REG_VERSION,
               "aL does not exist in ps_2_0; aL exists in vs_2_0 and later and in ps_3_0"));
    EXPECT("ps_3_0\nmov r0, v[a0.x + 12]\n",
           ERR(2, 9, ST_E_REG_VERSION, "a0 does not exist in ps_3_0; a0 exists only in vertex shaders"));
    EXPECT("ps_3_0\nloop aL, i0\nmov r0, c[aL]\nendloop\n",
           ERR(3, 9, ST_E_RELADDR_RULE,
               "c0 cannot be relatively addressed: in ps_3_0 only v# can be relatively "
               "addressed (with aL)"));
    EXPECT("vs_1_1\nmov r0, c[aL]\n",
           ERR(2, 9, ST_E_REG_VERSION,
               "aL does not exist in vs_1_1; aL exists in vs_2_0 and later and in ps_3_0"));
}

static void operands(void **state)
{
    (void)state;
    EXPECT("vs_1_1\nmov r0, r1, r2\n",
           ERR(2, 13, ST_E_OPERAND_COUNT, "mov takes 1 source operand; found 2"));
    EXPECT("vs_3_0\nsincos r0.xy, r1.x, c0, c1\n",
           ERR(2, 21, ST_E_OPERAND_COUNT,
               "sincos takes 1 source operand in vs_3_0 (sincos dst, src); found 3"));
    EXPECT("ps_2_0\ntexld r0, t0\n",
           ERR(2, 1, ST_E_OPERAND_COUNT,
               "texld takes 2 source operands in ps_2_0 (texld dst, coord, s#); found 1"));
    EXPECT("ps_2_0\ntexm3x3vspec t3, t0\n",
           ERR(2, 1, ST_E_OPCODE_VERSION,
               "instruction texm3x3vspec is not available in ps_2_0; it exists in ps_1_1..ps_1_3"));
    EXPECT("ps_2_x\nloop aL, i0\nendloop\n",
           ERR(2, 1, ST_E_OPCODE_VERSION,
               "instruction loop is not available in ps_2_x; it exists in ps_3_0 only"),
           ERR(3, 1, ST_E_OPCODE_VERSION,
               "instruction endloop is not available in ps_2_x; it exists in ps_3_0 only"));
    EXPECT("vs_2_0\nloop i0, aL\nendloop\n",
           ERR(2, 6, ST_E_OPERAND_KIND, "loop's first operand must be aL (loop aL, i#); found i0"),
           ERR(2, 10, ST_E_OPERAND_KIND, "loop needs an integer constant i# here; found aL"));
    EXPECT("vs_3_0\ntexldl r0, v0, c0\n",
           ERR(2, 16, ST_E_OPERAND_KIND, "the second source of texldl must be a sampler s#; found c0"));
    EXPECT("ps_3_0\ntexkill t0\n",
           ERR(2, 9, ST_E_REG_VERSION,
               "register t0 does not exist in ps_3_0; ps_3_0 reads texture coordinates from v# "
               "declared with dcl_texcoord"));
}

static void declarations(void **state)
{
    (void)state;
    EXPECT("vs_3_0\ndcl_texcoord0_centroid v0\n",
           ERR(2, 4, ST_E_DSTMOD_VERSION,
               "vertex shader declarations take no modifiers (_pp, _centroid, _sat)"));
    /* Before vs_3_0, o# spells oT# (as in D3D8), which is not declared. */
    EXPECT("vs_2_0\ndcl_position o0\n",
           ERR(2, 14, ST_E_DCL_RULE, "oT0 cannot be declared: vs_2_0 declares inputs v#"));
    EXPECT("ps_3_0\ndcl v0\ndcl_2d c0\n",
           ERR(2, 1, ST_E_DCL_RULE,
               "ps_3_0 input declarations need a usage, e.g. dcl_texcoord0 v0"),
           ERR(3, 1, ST_E_DCL_RULE,
               "a texture type (dcl_2d, dcl_cube, dcl_volume) declares a sampler s#; found c0"));
    EXPECT("ps_2_0\ndefi c0, 1, 2, 3, 4\ndefb i0, true\n",
           ERR(2, 6, ST_E_DEF_RULE, "defi defines integer i# constants; found c0 (use def)"),
           ERR(3, 6, ST_E_DEF_RULE, "defb defines boolean b# constants; found i0 (use defi)"));
    /* A second def of the same constant only warns (Wine's fetch4 test). */
    EXPECT("ps_3_0\ndef c0, 0.5, 0.5, 0.5, 0.5\ndef c0, 1.0, 1.0, 1.0, 1.0\n",
           WARN(3, 5, ST_E_DUP_DEF,
                "c0 is defined again (first at line 2); the later value replaces it"));
}

static void flow(void **state)
{
    (void)state;
    EXPECT("vs_2_0\nif b0\nrep i0\nendif\nendrep\n",
           ERR(4, 1, ST_E_FLOW_NESTING, "endif closes the rep opened at line 3; it needs endrep first"),
           ERR(5, 1, ST_E_FLOW_NESTING, "endrep without rep"));
    EXPECT("vs_2_x\nrep i0\nrep i1\nrep i2\nrep i3\nrep i4\nendrep\nendrep\nendrep\nendrep\nendrep\n",
           ERR(6, 1, ST_E_FLOW_NESTING, "loop/rep blocks nested 5 deep; vs_2_x allows 4"));
    EXPECT("ps_2_x\nbreak\nif b0\n",
           ERR(2, 1, ST_E_FLOW_NESTING, "break outside a loop or rep block"),
           ERR(3, 1, ST_E_FLOW_NESTING, "if without endif"));
    EXPECT("vs_2_0\ncall l1\ncallnz l2, b0\nlabel l5\nret\nmov r0, r1\nlabel l1\nmov r0, r1\n"
           "label l1\nret\n",
           WARN(3, 8, ST_E_LABEL_RULE,
                "call to undefined label l2 (runtimes reject the shader)"),
           ERR(4, 1, ST_E_LABEL_RULE,
               "label before the end of the main program: subroutines follow the main "
               "program's ret"),
           ERR(6, 1, ST_E_LABEL_RULE,
               "mov after the main program's ret: code there must start with label l#"),
           ERR(9, 1, ST_E_LABEL_RULE,
               "subroutine l1 (line 7) must end with ret before the next label"),
           ERR(9, 7, ST_E_LABEL_RULE, "label l1 is defined twice (first at line 7)"));
}

static void calls_and_declarations(void **state)
{
    (void)state;
    /* Outputs may share a register with disjoint masks (packing). */
    expect_clean("vs_3_0\ndcl_texcoord0 o1.xy\ndcl_texcoord1 o1.zw\ndcl_2d s0\ndcl_cube s1\n");
    /* Four nested calls are allowed in vs_3_0; a fifth is not. */
    expect_clean("vs_3_0\ncall l1\nret\nlabel l1\ncall l2\nret\nlabel l2\ncall l3\nret\n"
                 "label l3\ncall l4\nret\nlabel l4\nret\n");
    EXPECT("vs_3_0\ncall l1\nret\nlabel l1\ncall l2\nret\nlabel l2\ncall l3\nret\n"
           "label l3\ncall l4\nret\nlabel l4\ncall l5\nret\nlabel l5\nret\n",
           ERR(2, 6, ST_E_FLOW_NESTING, "calls nested 5 deep from this call; vs_3_0 allows 4"));
    /* A subroutine calling itself, even one main never calls. */
    EXPECT("ps_2_x\nret\nlabel l7\ncallnz l7, b0\nret\n",
           ERR(4, 8, ST_E_LABEL_RULE,
               "call to l7 is recursive: subroutines cannot call themselves, directly or "
               "through others"));
    EXPECT("ps_3_0\ndcl_color0 v0.xy\ndcl_texcoord0 v0.y\n",
           ERR(3, 15, ST_E_DCL_RULE, "v0 is declared twice (first at line 2)"));
    /* ps_2_0 texld: full mask, t#/r# coordinate without swizzle. */
    EXPECT("ps_2_0\ndcl_2d s0\ntexld r0.x, v0.xy, s0\n",
           ERR(3, 7, ST_E_WRITEMASK_RULE, "texld writes all four components in ps_2_0: no writemask"),
           ERR(3, 13, ST_E_OPERAND_KIND, "the coordinate of texld in ps_2_0 must be t# or r#; found v0"),
           ERR(3, 13, ST_E_SWIZZLE_RULE,
               "the coordinate of texld takes no swizzle in ps_2_0; found .xy (ps_3_0 allows one)"));
}

static void ps1x_rules(void **state)
{
    (void)state;
    EXPECT("ps_1_3\ntex t0\nmov r0, t0\ntex t1\n",
           ERR(4, 1, ST_E_TEX_RULE,
               "texture instruction tex after arithmetic: in ps_1_3 all texture instructions "
               "come first"));
    EXPECT("ps_1_3\ntex t5\n",
           ERR(2, 5, ST_E_REG_INDEX, "register t5 out of range: ps_1_3 has t0..t3"));
    EXPECT("ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3tex t2, t0\n",
           ERR(4, 1, ST_E_TEX_RULE, "texm3x3pad at line 3 must be followed by a second texm3x3pad"));
    EXPECT("ps_1_4\nphase\nmov r0, c0\nphase\n",
           ERR(4, 1, ST_E_PHASE_RULE,
               "second phase: ps_1_4 has two phases, separated by one phase instruction"));
    EXPECT("ps_1_4\ntexld r0, r1\nmov r1, v0\nphase\n",
           ERR(2, 11, ST_E_PHASE_RULE,
               "texld reads r1 in the first phase; before 'phase' its source must be t#"),
           ERR(3, 9, ST_E_PHASE_RULE,
               "v0 is read in the first phase; in ps_1_4 v# are available only after 'phase'"));
    EXPECT("ps_1_1\nmov r0.rgb, c0\n+mov r0.rgb, c1\n",
           ERR(3, 2, ST_E_COISSUE_RULE,
               "coissued instructions must split color and alpha: one writes .a, the other "
               ".rgb (or part of it); here they write .xyz and .xyz"));
    EXPECT("ps_1_3\ncnd r0, r1, c0, c1\n",
           WARN(2, 9, ST_E_OPERAND_KIND,
                "in ps_1_3 cnd's condition should be r0.a (runtimes reject others)"));
}

/* ------------------------------------------------------------------ */
/* Hand-built ASTs                                                     */

struct ast {
    struct st_arena *arena;
    struct st_shader *sh;
    unsigned line;
};

static void ast_init(struct ast *a, enum st_shader_type type, uint16_t ver)
{
    a->arena = st_arena_create();
    assert_non_null(a->arena);
    a->sh = st_arena_alloc(a->arena, sizeof(*a->sh));
    a->sh->dialect = ST_D3D9;
    a->sh->arena = a->arena;
    a->sh->version = (struct st_version){.type = type, .ver = ver, .loc = {1, 1}};
    a->line = 2;
}

static struct st_instr *ast_add(struct ast *a, enum st_opcode op)
{
    struct st_instr *in = st_arena_alloc(a->arena, sizeof(*in));
    in->op = op;
    in->loc = (struct st_loc){a->line++, 1};
    if (a->sh->last)
        a->sh->last->next = in;
    else
        a->sh->first = in;
    a->sh->last = in;
    a->sh->num_instrs++;
    return in;
}

static void ast_dst(struct st_instr *in, enum st_regfile f, uint32_t index, uint32_t col)
{
    in->has_dst = true;
    in->dst.reg.file = f;
    in->dst.reg.index = index;
    in->dst.writemask = 0xf;
    in->dst.loc = in->dst.reg.loc = (struct st_loc){in->loc.line, col};
}

static struct st_src *ast_src(struct st_instr *in, enum st_regfile f, uint32_t index,
                              uint32_t col)
{
    struct st_src *s = &in->src[in->nsrc++];
    s->reg.file = f;
    s->reg.index = index;
    s->swizzle = ST_SWIZZLE_IDENTITY;
    s->loc = s->reg.loc = (struct st_loc){in->loc.line, col};
    return s;
}

static void expect_ast(struct ast *a, bool want_ok, const struct exp_diag *exp, size_t n)
{
    struct st_ctx *ctx = st_ctx_create("ast", "", 0, 50);
    assert_non_null(ctx);
    bool ok = st_check(ctx, a->sh);
    struct st_result res = {0};
    assert_true(st_ctx_export(ctx, &res));
    compare(&res, exp, n);
    assert_int_equal(ok, want_ok);
    free_result(&res);
    st_ctx_destroy(ctx);
    st_arena_destroy(a->arena);
}

static void ast_cases(void **state)
{
    (void)state;
    struct ast a;

    /* Only a0 and aL can index a register. */
    ast_init(&a, ST_VS, ST_VER(3, 0));
    struct st_instr *in = ast_add(&a, ST_OP_MOV);
    ast_dst(in, ST_REG_TEMP, 0, 5);
    struct st_src *s = ast_src(in, ST_REG_CONST, 0, 9);
    s->reg.rel = st_arena_alloc(a.arena, sizeof(*s->reg.rel));
    s->reg.rel->file = ST_REG_TEMP;
    {
        static const struct exp_diag e[] = {
            ERR(2, 9, ST_E_RELADDR_RULE,
                "c0 is indexed by r#; only a0 and aL can be relative addresses")};
        expect_ast(&a, false, e, 1);
    }

    /* setp without a comparison; add with one. */
    ast_init(&a, ST_PS, ST_VER_2X);
    in = ast_add(&a, ST_OP_SETP);
    ast_dst(in, ST_REG_PREDICATE, 0, 6);
    ast_src(in, ST_REG_TEMP, 0, 10);
    ast_src(in, ST_REG_TEMP, 1, 14);
    in = ast_add(&a, ST_OP_ADD);
    in->cmp = ST_CMP_GT;
    in->mod_loc = (struct st_loc){3, 4};
    ast_dst(in, ST_REG_TEMP, 0, 8);
    ast_src(in, ST_REG_TEMP, 0, 12);
    ast_src(in, ST_REG_TEMP, 1, 16);
    {
        static const struct exp_diag e[] = {
            ERR(2, 1, ST_E_OPERAND_KIND,
                "setp needs a comparison: setp_gt, _lt, _ge, _le, _eq or _ne"),
            ERR(3, 4, ST_E_DSTMOD_VERSION, "comparison _gt applies only to if, break and setp")};
        expect_ast(&a, false, e, 2);
    }

    /* "if" with a comparison reads as ifc: valid in vs_2_x, not in vs_2_0. */
    ast_init(&a, ST_VS, ST_VER_2X);
    in = ast_add(&a, ST_OP_IF);
    in->cmp = ST_CMP_GE;
    ast_src(in, ST_REG_TEMP, 0, 7);
    ast_src(in, ST_REG_TEMP, 1, 11);
    ast_add(&a, ST_OP_ENDIF);
    expect_ast(&a, true, NULL, 0);

    ast_init(&a, ST_VS, ST_VER(2, 0));
    in = ast_add(&a, ST_OP_IF);
    in->cmp = ST_CMP_GE;
    ast_src(in, ST_REG_TEMP, 0, 7);
    ast_src(in, ST_REG_TEMP, 1, 11);
    ast_add(&a, ST_OP_ENDIF);
    {
        static const struct exp_diag e[] = {
            ERR(2, 1, ST_E_OPCODE_VERSION,
                "if_ge (ifc) is not available in vs_2_0; it exists in vs_2_x and later")};
        expect_ast(&a, false, e, 1);
    }

    /* Predicate modifiers other than '!'; empty writemask; unknown usage;
     * def of a relative address. */
    ast_init(&a, ST_VS, ST_VER(3, 0));
    in = ast_add(&a, ST_OP_ADD);
    in->predicated = true;
    in->pred.reg.file = ST_REG_PREDICATE;
    in->pred.mod = ST_SRCMOD_NEG;
    in->pred.swizzle = ST_SWIZZLE_IDENTITY;
    in->pred.loc = (struct st_loc){2, 2};
    ast_dst(in, ST_REG_TEMP, 0, 10);
    in->dst.writemask = 0;
    ast_src(in, ST_REG_TEMP, 0, 14);
    ast_src(in, ST_REG_TEMP, 1, 18);
    in = ast_add(&a, ST_OP_DCL);
    in->usage = ST_USAGE_COUNT;
    ast_dst(in, ST_REG_INPUT, 0, 5);
    in = ast_add(&a, ST_OP_DEF);
    ast_dst(in, ST_REG_CONST, 3, 5);
    in->dst.reg.rel = st_arena_alloc(a.arena, sizeof(*in->dst.reg.rel));
    in->dst.reg.rel->file = ST_REG_ADDR;
    in->dst.reg.rel->has_component = true;
    {
        static const struct exp_diag e[] = {
            ERR(2, 2, ST_E_PREDICATE_RULE, "the predicate takes only '!' as a modifier"),
            ERR(2, 10, ST_E_WRITEMASK_RULE, "empty writemask"),
            ERR(3, 1, ST_E_DCL_RULE, "unknown usage"),
            ERR(4, 5, ST_E_DEF_RULE, "def takes a plain register, not a relative address")};
        expect_ast(&a, false, e, 4);
    }

    /* Defensive paths: values outside the enums, a destination on nop. */
    ast_init(&a, ST_VS, ST_VER(2, 0));
    in = ast_add(&a, ST_OP_MOV);
    ast_dst(in, ST_REG_TEMP, 0, 5);
    ast_src(in, (enum st_regfile)ST_REG_COUNT, 0, 9);
    in = ast_add(&a, (enum st_opcode)ST_OP_COUNT);
    in = ast_add(&a, ST_OP_NOP);
    ast_dst(in, ST_REG_TEMP, 0, 5);
    {
        static const struct exp_diag e[] = {
            ERR(2, 9, ST_E_REG_VERSION, "unknown register file"),
            ERR(3, 1, ST_E_OPCODE_VERSION, "unknown instruction"),
            ERR(4, 5, ST_E_OPERAND_COUNT, "nop takes no destination operand")};
        expect_ast(&a, false, e, 3);
    }

    /* Special files have fixed members: vPos=0, vFace=1 only. */
    ast_init(&a, ST_PS, ST_VER(3, 0));
    in = ast_add(&a, ST_OP_MOV);
    ast_dst(in, ST_REG_TEMP, 0, 5);
    ast_src(in, ST_REG_MISC, 2, 9);
    {
        static const struct exp_diag e[] = {
            ERR(2, 9, ST_E_REG_INDEX, "no register 2 in the vPos/vFace file of ps_3_0")};
        expect_ast(&a, false, e, 1);
    }

    /* Versions outside Direct3D 9 and ARB programs. */
    ast_init(&a, ST_VS, ST_VER(4, 0));
    {
        static const struct exp_diag e[] = {
            ERR(1, 1, ST_E_BAD_VERSION, "unsupported shader version vs_4_0")};
        expect_ast(&a, false, e, 1);
    }
    ast_init(&a, ST_PS, ST_VER(1, 0));
    in = ast_add(&a, ST_OP_MOV);
    ast_dst(in, ST_REG_TEMP, 0, 5);
    ast_src(in, ST_REG_TEXTURE, 3, 9);
    expect_ast(&a, true, NULL, 0); /* ps_1_0 reads as ps_1_1 */

    ast_init(&a, ST_VS, ST_VER(1, 1));
    a.sh->dialect = ST_ARB;
    ast_add(&a, ST_OP_BREAKC); /* would be wrong in D3D9; not checked here */
    expect_ast(&a, true, NULL, 0);

    struct st_ctx *ctx = st_ctx_create("ast", "", 0, 50);
    assert_false(st_check(ctx, NULL));
    st_ctx_destroy(ctx);
}

/* The error limit stops the walk instead of reporting everything. */
static void error_limit(void **state)
{
    (void)state;
    struct ast a;
    ast_init(&a, ST_PS, ST_VER(1, 1));
    for (int i = 0; i < 10; i++) {
        struct st_instr *in = ast_add(&a, ST_OP_MOV);
        ast_dst(in, ST_REG_TEMP, 7, 5);
        ast_src(in, ST_REG_TEMP, 0, 9);
    }
    struct st_ctx *ctx = st_ctx_create("ast", "", 0, 3);
    assert_false(st_check(ctx, a.sh));
    assert_true(st_error_limit_reached(ctx));
    struct st_result res = {0};
    assert_true(st_ctx_export(ctx, &res));
    /* the walk stopped at the third error: lines 2..4 only */
    assert_int_equal(res.num_diagnostics, 3);
    for (unsigned i = 0; i < 3; i++) {
        assert_int_equal(res.diagnostics[i].code, ST_E_REG_INDEX);
        assert_int_equal(res.diagnostics[i].line, 2 + i);
    }
    free_result(&res);
    st_ctx_destroy(ctx);
    st_arena_destroy(a.arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(valid_vs),
        cmocka_unit_test(valid_ps),
        cmocka_unit_test(assembler_accepts),
        cmocka_unit_test(registers),
        cmocka_unit_test(modifiers),
        cmocka_unit_test(swizzles_and_masks),
        cmocka_unit_test(reladdr),
        cmocka_unit_test(operands),
        cmocka_unit_test(declarations),
        cmocka_unit_test(flow),
        cmocka_unit_test(calls_and_declarations),
        cmocka_unit_test(ps1x_rules),
        cmocka_unit_test(ast_cases),
        cmocka_unit_test(error_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
