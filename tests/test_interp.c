/*
 * test_interp.c — the reference interpreter (translator/run/interp.c) and the
 * run JSON (translator/run/run_io.c), instruction by instruction.
 *
 * Every expected value is worked out by hand from the Direct3D 9
 * specification of the instruction (the comment next to it shows the
 * arithmetic), never recorded from the interpreter.  Where float32 rounding
 * matters the expectation is written as the float expression the spec
 * prescribes, or as the bit pattern derived by hand.
 *
 * Shaders are assembled with the project's parser and checker, then run
 * through st_run_inputs_parse + st_interp_execute, so values are compared
 * bit for bit (NaN equals NaN, -0 differs from +0).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "translator.h"

/* ------------------------------------------------------------------ */
/* Harness                                                             */

struct fx {
    struct st_ctx *ctx;
    struct st_arena *arena, *inarena;
    struct st_shader *sh;
    struct st_run_inputs in;
    struct st_run_outputs *outs;
    char *src;
};

static void dump_diags(struct st_ctx *ctx)
{
    struct st_result res = {0};
    if (!st_ctx_export(ctx, &res))
        return;
    for (size_t i = 0; i < res.num_diagnostics; i++) {
        char buf[512];
        st_diagnostic_format(&res.diagnostics[i], buf, sizeof(buf));
        fprintf(stderr, "    %s\n", buf);
        free((char *)res.diagnostics[i].message);
        free((char *)res.diagnostics[i].source_line);
    }
    if (res.num_diagnostics)
        free((char *)res.diagnostics[0].file);
    free((void *)res.diagnostics);
}

static void fx_free(struct fx *f)
{
    if (!f)
        return;
    st_ctx_destroy(f->ctx);
    st_arena_destroy(f->arena);
    st_arena_destroy(f->inarena);
    free(f->outs);
    free(f->src);
    free(f);
}

/* Assembles, checks and runs; fails the test when any step fails. */
static struct fx *run_rules(const char *src, const char *json, enum st_float_rules rules)
{
    struct fx *f = calloc(1, sizeof(*f));
    assert_non_null(f);
    f->src = strdup(src);
    f->ctx = st_ctx_create("test.asm", f->src, strlen(f->src), 0);
    f->arena = st_arena_create();
    f->inarena = st_arena_create();
    bool arb = strncmp(src, "!!ARB", 5) == 0;
    f->sh = arb ? st_parse_arb(f->ctx, f->arena) : st_parse_d3d9(f->ctx, f->arena);
    if (!f->sh || st_error_count(f->ctx) ||
        !(arb ? st_check_arb(f->ctx, f->sh) : st_check(f->ctx, f->sh))) {
        fprintf(stderr, "shader rejected:\n%s\n", src);
        dump_diags(f->ctx);
        fail_msg("the shader must assemble");
    }
    if (!st_run_inputs_parse(f->ctx, f->sh, "in.json", json, strlen(json), f->inarena, &f->in)) {
        dump_diags(f->ctx);
        fail_msg("inputs must parse");
    }
    f->outs = calloc(f->in.num_invocations + 1, sizeof(*f->outs));
    if (!st_interp_execute(f->ctx, f->sh, &f->in, rules, f->outs)) {
        dump_diags(f->ctx);
        fail_msg("execution must succeed");
    }
    return f;
}

static struct fx *run(const char *src, const char *json)
{
    return run_rules(src, json, ST_FLOAT_IEEE);
}

/* --pp=fp16 (sh->pp_half, set as st_front_end does), one reading of the
 * multiply-adds: each product rounded, or (fused) rounded with its sum. */
static struct fx *run_pp(const char *src, const char *json, bool fused)
{
    struct fx *f = run(src, json);
    f->sh->pp_half = true;
    memset(f->outs, 0, (f->in.num_invocations + 1) * sizeof(*f->outs));
    if (!st_interp_execute_ex(f->ctx, f->sh, &f->in, ST_FLOAT_IEEE, fused, f->outs)) {
        dump_diags(f->ctx);
        fail_msg("execution must succeed");
    }
    return f;
}

static const float *outv(struct fx *f, unsigned inv, const char *name)
{
    assert_true(inv < f->in.num_invocations);
    const struct st_run_outputs *o = &f->outs[inv];
    for (unsigned k = 0; k < o->count; k++) {
        char buf[8];
        if (strcmp(st_run_output_label(f->sh, &o->reg[k], buf), name) == 0)
            return o->reg[k].v;
    }
    fail_msg("output %s not found", name);
    return NULL;
}

static bool same(float a, float b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return a == b && signbit(a) == signbit(b);
}

static void check4(const float *v, float x, float y, float z, float w, int line)
{
    const float e[4] = {x, y, z, w};
    for (int k = 0; k < 4; k++)
        if (!same(v[k], e[k]))
            fail_msg("line %d: lane %d is %.9g (0x%08x), expected %.9g", line, k, (double)v[k],
                     (unsigned)(*(const uint32_t *)&v[k]), (double)e[k]);
}
#define CHECK4(v, x, y, z, w) check4((v), (x), (y), (z), (w), __LINE__)
#define CHECK1(v, x) check4((float[4]){(v)[0], 0, 0, 0}, (x), 0, 0, 0, __LINE__)

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static unsigned count_code(struct st_ctx *ctx, unsigned code)
{
    struct st_result res = {0};
    unsigned n = 0;
    if (!st_ctx_export(ctx, &res))
        return 0;
    for (size_t i = 0; i < res.num_diagnostics; i++) {
        if (res.diagnostics[i].code == code)
            n++;
        free((char *)res.diagnostics[i].message);
        free((char *)res.diagnostics[i].source_line);
    }
    if (res.num_diagnostics)
        free((char *)res.diagnostics[0].file);
    free((void *)res.diagnostics);
    return n;
}

/* Inputs with one invocation giving v0 and nothing else. */
#define V0(x, y, z, w) "{\"invocations\": [{\"v0\": [" #x "," #y "," #z "," #w "]}]}"

static const float INF = INFINITY;

/* ------------------------------------------------------------------ */
/* Arithmetic                                                          */

static void test_mov_add_sub_mul_mad(void **state)
{
    (void)state;
    struct fx *f = run("vs_2_0\n"
                       "dcl_position v0\n"
                       "def c0, 0.5, -2, 3, 10\n"
                       "mov oT0, v0\n"
                       "add oT1, v0, c0\n"
                       "sub oT2, v0, c0\n"
                       "mul oT3, v0, c0\n"
                       "mad oT4, v0, c0, c0.w\n"
                       "mov oPos, -v0.wzyx\n",
                       V0(1, 2, 4, 8));
    CHECK4(outv(f, 0, "oT0"), 1, 2, 4, 8);
    CHECK4(outv(f, 0, "oT1"), 1.5f, 0, 7, 18);
    CHECK4(outv(f, 0, "oT2"), 0.5f, 4, 1, -2);
    CHECK4(outv(f, 0, "oT3"), 0.5f, -4, 12, 80);
    CHECK4(outv(f, 0, "oT4"), 10.5f, 6, 22, 90); /* v0 * c0 + 10 */
    CHECK4(outv(f, 0, "oPos"), -8, -4, -2, -1);  /* swizzle then negate */
    fx_free(f);
}

static void test_rcp(void **state)
{
    (void)state;
    /* spec: 1.0 -> exactly 1.0; 0.0 -> infinity; otherwise 1/x. */
    struct fx *f = run("vs_2_0\n"
                       "dcl_position v0\n"
                       "def c0, 0, -0, 1, 4\n"
                       "def c1, -2, 3, 0, 0\n"
                       "rcp r0.x, c0.x\n"
                       "rcp r0.y, c0.y\n"
                       "rcp r0.z, c0.z\n"
                       "rcp r0.w, c0.w\n"
                       "mov oT0, r0\n"
                       "rcp r1.x, c1.x\n"
                       "rcp r1.y, v0.x\n"
                       "rcp r1.z, c1.y\n"
                       "mov r1.w, c1.w\n"
                       "mov oT1, r1\n",
                       "{\"invocations\": [{\"v0\": [\"inf\"]}]}");
    CHECK4(outv(f, 0, "oT0"), INF, INF, 1, 0.25f); /* -0 compares equal to 0: +inf */
    CHECK4(outv(f, 0, "oT1"), -0.5f, 0.0f, 1.0f / 3.0f, 0);
    fx_free(f);
}

static void test_rsq(void **state)
{
    (void)state;
    /* spec: absolute value first; 0 -> inf; 1 -> 1; else 1/sqrt. */
    struct fx *f = run("vs_2_0\n"
                       "def c0, 4, -4, 0, 1\n"
                       "def c1, 16, -0.25, 2, 0\n"
                       "rsq r0.x, c0.x\n"
                       "rsq r0.y, c0.y\n"
                       "rsq r0.z, c0.z\n"
                       "rsq r0.w, c0.w\n"
                       "mov oT0, r0\n"
                       "rsq r1.x, c1.x\n"
                       "rsq r1.y, c1.y\n"
                       "rsq r1.z, c1.z\n"
                       "mov r1.w, c1.w\n"
                       "mov oT1, r1\n",
                       "{\"invocations\": [{}]}");
    CHECK4(outv(f, 0, "oT0"), 0.5f, 0.5f, INF, 1);
    /* 1/sqrt(2): (float)sqrt(2) = 1.41421354, then 1.0f / that */
    CHECK4(outv(f, 0, "oT1"), 0.25f, 2.0f, 1.0f / 1.41421354f, 0);
    fx_free(f);
}

static void test_exp_log(void **state)
{
    (void)state;
    struct fx *f = run("vs_2_0\n"
                       "def c0, 3, -1, 0.5, 0\n"
                       "def c1, 8, -8, 0, 1\n"
                       "exp r0.x, c0.x\n"
                       "exp r0.y, c0.y\n"
                       "exp r0.z, c0.z\n"
                       "exp r0.w, c0.w\n"
                       "mov oT0, r0\n"
                       "log r1.x, c1.x\n"
                       "log r1.y, c1.y\n"
                       "log r1.z, c1.z\n"
                       "log r1.w, c1.w\n"
                       "mov oT1, r1\n",
                       "{\"invocations\": [{}]}");
    /* 2^3, 2^-1, 2^0.5 = float(sqrt 2) = 0x3fb504f3, 2^0 */
    CHECK4(outv(f, 0, "oT0"), 8, 0.5f, from_bits(0x3fb504f3), 1);
    /* log2|8|, log2|-8|, log2 0 = -inf, log2 1 = 0 */
    CHECK4(outv(f, 0, "oT1"), 3, 3, -INF, 0);
    fx_free(f);
}

static void test_expp_logp_vs11(void **state)
{
    (void)state;
    /* vs_1_1 expp: x = 2^floor(v), y = v - floor(v), z = 2^v with the low
     * 8 mantissa bits cleared, w = 1.  2^2.5 = 0x40b504f3 -> 0x40b50400.
     * logp of 10 = 1.25 * 2^3: x = 3, y = 1.25, z = log2 10 = 0x40549a78
     * -> 0x40549a00, w = 1. */
    struct fx *f = run("vs_1_1\n"
                       "dcl_position v0\n"
                       "def c0, 2.5, 10, 0, -10\n"
                       "expp oT0, c0.x\n"
                       "logp oT1, c0.y\n"
                       "logp oT2, c0.z\n"
                       "logp oT3, c0.w\n"
                       "logp oT4, v0.x\n",
                       "{\"invocations\": [{\"v0\": [\"-inf\"]}]}");
    CHECK4(outv(f, 0, "oT0"), 4, 0.5f, from_bits(0x40b50400), 1);
    CHECK4(outv(f, 0, "oT1"), 3, 1.25f, from_bits(0x40549a00), 1);
    CHECK4(outv(f, 0, "oT2"), -INF, 1, -INF, 1); /* the spec's 0 case */
    CHECK4(outv(f, 0, "oT3"), 3, 1.25f, from_bits(0x40549a00), 1); /* |src| */
    /* |-inf| = 0x7f800000: exponent field 255 - 127, mantissa 0 -> 1.0 */
    CHECK4(outv(f, 0, "oT4"), 128, 1, INF, 1);
    fx_free(f);
}

static void test_expp_logp_vs20(void **state)
{
    (void)state;
    /* vs_2_0 and later: the partial-precision value in every lane. */
    struct fx *f = run("vs_2_0\n"
                       "def c0, 2.5, 10, 0, 0\n"
                       "expp oT0, c0.x\n"
                       "logp oT1, c0.y\n",
                       "{\"invocations\": [{}]}");
    float e = from_bits(0x40b50400), l = from_bits(0x40549a00);
    CHECK4(outv(f, 0, "oT0"), e, e, e, e);
    CHECK4(outv(f, 0, "oT1"), l, l, l, l);
    fx_free(f);
}

static void test_lit(void **state)
{
    (void)state;
    struct fx *f = run("vs_1_1\n"
                       "def c0, 1, 4, 0, 0.5\n"
                       "def c1, -1, 4, 0, 0.5\n"
                       "def c2, 0.5, -1, 0, 2\n"
                       "def c3, 1, 0.5, 0, -200\n"
                       "lit oT0, c0\n"
                       "lit oT1, c1\n"
                       "lit oT2, c2\n"
                       "lit oT3, c3\n",
                       "{\"invocations\": [{}]}");
    CHECK4(outv(f, 0, "oT0"), 1, 1, 2, 1);    /* y = x = 1, z = 4^0.5 */
    CHECK4(outv(f, 0, "oT1"), 1, 0, 0, 1);    /* x <= 0: nothing */
    CHECK4(outv(f, 0, "oT2"), 1, 0.5f, 0, 1); /* y <= 0: no specular */
    /* power clamped to -127.9961: 0.5^-127.9961 = 2^127.9961, finite
     * (unclamped 0.5^-200 would be inf). */
    const float *v = outv(f, 0, "oT3");
    assert_true(isfinite(v[2]) && v[2] > 3.3e38f);
    fx_free(f);
}

static void test_dst_lrp_frc(void **state)
{
    (void)state;
    struct fx *f = run("vs_2_0\n"
                       "def c0, 9, 2, 3, 9\n"
                       "def c1, 9, 4, 9, 5\n"
                       "def c2, 0.25, 0.5, 1, 0\n"
                       "def c3, 8, 2, 7, 1\n"
                       "def c4, 4, 6, 3, 5\n"
                       "def c5, 1.25, -0.25, -1.5, 3\n"
                       "dst oT0, c0, c1\n"
                       "lrp oT1, c2, c3, c4\n"
                       "frc oT2, c5\n",
                       "{\"invocations\": [{}]}");
    CHECK4(outv(f, 0, "oT0"), 1, 8, 3, 5); /* (1, y0*y1, z0, w1) */
    /* c2 * (c3 - c4) + c4: .25*4+4, .5*-4+6, 1*4+3, 0*-4+5 */
    CHECK4(outv(f, 0, "oT1"), 5, 4, 7, 5);
    CHECK4(outv(f, 0, "oT2"), 0.25f, 0.75f, 0.5f, 0); /* x - floor(x) */
    fx_free(f);
}

static void test_dp_and_matrices(void **state)
{
    (void)state;
    struct fx *f = run("vs_2_0\n"
                       "dcl_position v0\n"
                       "def c0, 1, 2, 3, 4\n"
                       "def c1, 0, 1, 0, 0\n"
                       "def c2, 1, 1, 1, 1\n"
                       "def c3, 0, 0, 0, 2\n"
                       "dp3 oT0, v0, c0\n"
                       "dp4 oT1, v0, c0\n"
                       "m4x4 oT2, v0, c0\n"
                       "m3x3 oT3.xyz, v0, c0\n"
                       "m4x3 oT4.xyz, v0, c0\n"
                       "m3x4 oT5, v0, c0\n"
                       "m3x2 oT6.xy, v0, c0\n",
                       V0(1, 2, 3, 4));
    float d3 = 1 + 4 + 9, d4 = d3 + 16;
    CHECK4(outv(f, 0, "oT0"), d3, d3, d3, d3);
    CHECK4(outv(f, 0, "oT1"), d4, d4, d4, d4);
    /* rows c0..c3: dp4 = 30, 2, 10, 8 */
    CHECK4(outv(f, 0, "oT2"), 30, 2, 10, 8);
    /* dp3 with c0..c2: 14, 2, 6; w never written (0) */
    CHECK4(outv(f, 0, "oT3"), 14, 2, 6, 0);
    CHECK4(outv(f, 0, "oT4"), 30, 2, 10, 0);
    CHECK4(outv(f, 0, "oT5"), 14, 2, 6, 0); /* c3.xyz = 0 */
    CHECK4(outv(f, 0, "oT6"), 14, 2, 0, 0);
    fx_free(f);
}

static void test_min_max_nan(void **state)
{
    (void)state;
    /* spec: min = (a < b) ? a : b, max = (a >= b) ? a : b, literally. */
    struct fx *f = run("vs_2_0\n"
                       "dcl_position v0\n"
                       "dcl_normal v1\n"
                       "min oT0, v0, v1\n"
                       "max oT1, v0, v1\n",
                       "{\"invocations\": [{\"v0\": [\"nan\", 1, -0.0, 5], "
                       "\"v1\": [1, \"nan\", 0, 2]}]}");
    /* min: NaN<1 no -> 1; 1<NaN no -> NaN; -0<0 no -> +0; 5<2 no -> 2 */
    CHECK4(outv(f, 0, "oT0"), 1, NAN, 0.0f, 2);
    /* max: NaN>=1 no -> 1; 1>=NaN no -> NaN; -0>=0 yes -> -0; 5 */
    CHECK4(outv(f, 0, "oT1"), 1, NAN, -0.0f, 5);
    fx_free(f);
}

static void test_slt_sge_sgn_abs(void **state)
{
    (void)state;
    struct fx *f = run("vs_2_0\n"
                       "dcl_position v0\n"
                       "dcl_normal v1\n"
                       "slt oT0, v0, v1\n"
                       "sge oT1, v0, v1\n"
                       "sgn oT2, v0, r1, r2\n"
                       "abs oT3, v0\n",
                       "{\"invocations\": [{\"v0\": [1, 2, \"nan\", -3], "
                       "\"v1\": [2, 2, 1, 0]}]}");
    CHECK4(outv(f, 0, "oT0"), 1, 0, 0, 1);
    CHECK4(outv(f, 0, "oT1"), 0, 1, 0, 0);
    CHECK4(outv(f, 0, "oT2"), 1, 1, 0, -1); /* sgn(NaN) = 0 (neither > nor <) */
    CHECK4(outv(f, 0, "oT3"), 1, 2, NAN, 3);
    fx_free(f);
}

static void test_crs_nrm_dp2add(void **state)
{
    (void)state;
    struct fx *f = run("ps_2_0\n"
                       "def c0, 1, 0, 0, 0\n"
                       "def c1, 0, 1, 0, 0\n"
                       "def c2, 3, 4, 0, 2\n"
                       "def c3, 2, 3, 10, 0\n"
                       "def c4, 0, 0, 0, 7\n"
                       "mov r0, c4\n"
                       "crs r0.xyz, c0, c1\n"
                       "mov oC0, r0\n"
                       "nrm r1, c2\n"
                       "mov oC1, r1\n"
                       "dp2add r2, c2, c3, c3.z\n"
                       "mov oC2, r2\n",
                       "{\"invocations\": [{}]}");
    CHECK4(outv(f, 0, "oC0"), 0, 0, 1, 7); /* x cross y = z; w kept */
    /* |(3,4,0)| = 5: each lane times 1.0f/5 (w too) */
    float r = 1.0f / 5.0f;
    CHECK4(outv(f, 0, "oC1"), 3 * r, 4 * r, 0, 2 * r);
    float d = 3 * 2 + 4 * 3 + 10; /* 28 */
    CHECK4(outv(f, 0, "oC2"), d, d, d, d);
    fx_free(f);
}

static void test_sincos(void **state)
{
    (void)state;
    struct fx *f = run("vs_3_0\n"
                       "dcl_texcoord o0\n"
                       "dcl_texcoord1 o1\n"
                       "def c0, 0, 0, 0, 0\n"
                       "def c1, 5, 6, 7, 8\n"
                       "mov r0, c1\n"
                       "sincos r0.xy, c0.x\n"
                       "mov o0, r0\n"
                       "mov r1, c1\n"
                       "sincos r1.y, c0.x\n"
                       "mov o1, r1\n",
                       "{\"invocations\": [{}]}");
    CHECK4(outv(f, 0, "o0"), 1, 0, 7, 8); /* (cos 0, sin 0), zw untouched */
    CHECK4(outv(f, 0, "o1"), 5, 0, 7, 8); /* only .y written */
    fx_free(f);
}

static void test_pow(void **state)
{
    (void)state;
    const char *src = "vs_2_0\n"
                      "def c0, 2, 3, -2, 0.5\n"
                      "def c1, 0, 4, 1, -1\n"
                      "pow r0.x, c0.x, c0.y\n" /* 2^3 */
                      "pow r0.y, c0.z, c0.x\n" /* |-2|^2 */
                      "pow r0.z, c1.y, c0.w\n" /* 4^0.5 */
                      "pow r0.w, c1.x, c0.x\n" /* 0^2 */
                      "mov oT0, r0\n"
                      "pow r1, c1.x, c1.x\n"   /* 0^0 */
                      "mov oT1, r1\n"
                      "pow r2, c1.x, c1.w\n"   /* 0^-1 */
                      "mov oT2, r2\n";
    struct fx *f = run(src, "{\"invocations\": [{}]}");
    CHECK4(outv(f, 0, "oT0"), 8, 4, 2, 0);
    /* the function |x|^y, not its expansion exp2(y * log2 |x|) (which would
     * give exp2(0 * -inf) = NaN under IEEE): 0^0 = 1, as ARB's LIT says */
    CHECK4(outv(f, 0, "oT1"), 1, 1, 1, 1);
    CHECK4(outv(f, 0, "oT2"), INF, INF, INF, INF); /* 0^-1 */
    fx_free(f);
    /* the d3d9 rule (0 * anything = 0) has nothing to change in pow: the
     * expansion under it gives the same 1 */
    f = run_rules(src, "{\"invocations\": [{}]}", ST_FLOAT_D3D9);
    CHECK4(outv(f, 0, "oT1"), 1, 1, 1, 1);
    CHECK4(outv(f, 0, "oT2"), INF, INF, INF, INF);
    fx_free(f);
}

static void test_cmp_cnd(void **state)
{
    (void)state;
    struct fx *f = run("ps_2_0\n"
                       "def c0, -0, -1, 0.5, 0\n"
                       "def c1, 1, 1, 1, 1\n"
                       "def c2, 2, 2, 2, 2\n"
                       "cmp r0, c0, c1, c2\n"
                       "mov oC0, r0\n",
                       "{\"invocations\": [{}]}");
    CHECK4(outv(f, 0, "oC0"), 1, 2, 1, 1); /* src0 >= 0 (-0 included) */
    fx_free(f);
    f = run("ps_1_4\n"
            "def c0, 0.5, 0.6, -1, 1\n"
            "def c1, 1, 1, 1, 1\n"
            "def c2, 0, 0, 0, 0\n"
            "cnd r0, c0, c1, c2\n",
            "{\"invocations\": [{}]}");
    CHECK4(outv(f, 0, "oC0"), 0, 1, 0, 1); /* src0 > 0.5 */
    fx_free(f);
}

static void test_modifiers(void **state)
{
    (void)state;
    /* ps_1_4 source modifiers on (0.75, 0.25, 1, 0); result shift/_sat */
    struct fx *f = run("ps_1_4\n"
                       "def c0, 0.75, 0.25, 1, 0\n"
                       "def c1, 0.5, 0.5, 0.5, 0.5\n"
                       "mov r1, c0_bias\n"
                       "mov r2, c0_bx2\n"
                       "mov r3, 1-c0\n"
                       "mov r4, c0_x2\n"
                       "add_x4 r5, c0, c1\n"
                       "add_sat r0, c0, c1\n",
                       "{\"invocations\": [{}]}");
    (void)f;
    CHECK4(outv(f, 0, "oC0"), 1, 0.75f, 1, 0.5f); /* sat(c0 + .5) */
    fx_free(f);
    f = run("ps_1_4\n"
            "def c0, 0.75, 0.25, 1, 0\n"
            "def c1, 0.5, 0.5, 0.5, 0.5\n"
            "mov r0, -c0_bx2\n",
            "{\"invocations\": [{}]}");
    CHECK4(outv(f, 0, "oC0"), -0.5f, 0.5f, -1, 1); /* -2(x - .5) */
    fx_free(f);
    f = run("ps_1_4\n"
            "def c0, 0.75, 0.25, 1, 0\n"
            "mov r0, c0_bias\n",
            "{\"invocations\": [{}]}");
    CHECK4(outv(f, 0, "oC0"), 0.25f, -0.25f, 0.5f, -0.5f);
    fx_free(f);
    f = run("ps_1_4\n"
            "def c0, 0.75, 0.25, 1, 0\n"
            "mov r0, 1-c0\n",
            "{\"invocations\": [{}]}");
    CHECK4(outv(f, 0, "oC0"), 0.25f, 0.75f, 0, 1);
    fx_free(f);
    f = run("ps_1_4\n"
            "def c0, 0.75, 0.25, 1, 0\n"
            "mov_d2 r0, c0_x2\n",
            "{\"invocations\": [{}]}");
    CHECK4(outv(f, 0, "oC0"), 0.75f, 0.25f, 1, 0); /* (2x) / 2 */
    fx_free(f);
    f = run("ps_1_4\n"
            "def c0, 0.75, 0.25, 1, 0\n"
            "def c1, 0.5, 0.5, 0.5, 0.5\n"
            "add_x4 r0, c0, c1\n",
            "{\"invocations\": [{}]}");
    CHECK4(outv(f, 0, "oC0"), 5, 3, 6, 2); /* 4 (x + .5) */
    fx_free(f);
    /* _abs (ps_3_0) and _sat of NaN (-> 0) */
    f = run("ps_3_0\n"
            "dcl_texcoord v0\n"
            "mov r0, -v0_abs\n"
            "mov oC0, r0\n"
            "mov_sat oC1, v0\n",
            "{\"invocations\": [{\"v0\": [-2, 3, \"nan\", -0.5]}]}");
    CHECK4(outv(f, 0, "oC0"), -2, -3, NAN, -0.5f);
    CHECK4(outv(f, 0, "oC1"), 0, 1, 0, 0);
    fx_free(f);
}

/*
 * _sat is x < 0 ? +0 : x > 1 ? 1 : x, NaN -> +0 (docs/interpreter.md):
 * -0 lies in [0, 1] and stays -0.  Worked out by hand:
 *   mov_sat of (-0, +0, -2^-149, 1 + 2^-23) = (-0, +0, +0, 1);
 *   mov_sat of (NaN, -inf, +inf, 2^-149) = (+0, +0, 1, 2^-149);
 *   mul_sat of v1 = (0, 1e-30, 0.5, 2) by c0 = (-2, -1e-30, 4, -0.25):
 *   0 * -2 = -0 under IEEE (+0 under d3d9: a zero factor gives +0);
 *   1e-30 * -1e-30 = -1e-60 rounds to -0 (below half of 2^-149) under both
 *   rules; 2 -> 1; -0.5 -> +0;
 *   mad_sat v1.x * c0.x + -0 = -0 + -0 = -0 (IEEE), +0 + -0 = +0 (d3d9).
 */
static void test_saturate_sign_of_zero(void **state)
{
    (void)state;
    const char *src = "ps_3_0\n"
                      "def c0, -2, -1e-30, 4, -0.25\n"
                      "def c1, -0.0, 0, 0, 0\n"
                      "dcl_texcoord0 v0\n"
                      "dcl_texcoord1 v1\n"
                      "dcl_texcoord2 v2\n"
                      "mov_sat oC0, v0\n"
                      "mov_sat oC1, v2\n"
                      "mul_sat oC2, v1, c0\n"
                      "mad_sat r0, v1.x, c0.x, c1.x\n"
                      "mov oC3, r0\n";
    const char *json = "{\"invocations\": [{\"v0\": [-0.0, 0, -1.401298464324817e-45, 1.0000001192092896],"
                       " \"v1\": [0, 1e-30, 0.5, 2],"
                       " \"v2\": [\"nan\", \"-inf\", \"inf\", 1.401298464324817e-45]}]}";
    for (int rules = 0; rules < 2; rules++) {
        struct fx *f = run_rules(src, json, rules ? ST_FLOAT_D3D9 : ST_FLOAT_IEEE);
        CHECK4(outv(f, 0, "oC0"), -0.0f, 0.0f, 0.0f, 1.0f);
        CHECK4(outv(f, 0, "oC1"), 0.0f, 0.0f, 1.0f, 0x1p-149f);
        CHECK4(outv(f, 0, "oC2"), rules ? 0.0f : -0.0f, -0.0f, 1.0f, 0.0f);
        CHECK1(outv(f, 0, "oC3"), rules ? 0.0f : -0.0f);
        fx_free(f);
    }
    /* the same definition at the C level */
    assert_true(signbit(st_op_saturate(-0.0f)) && st_op_saturate(-0.0f) == 0.0f);
    assert_true(!signbit(st_op_saturate(0.0f)) && st_op_saturate(0.0f) == 0.0f);
    assert_true(!signbit(st_op_saturate(NAN)) && st_op_saturate(NAN) == 0.0f);
    assert_true(!signbit(st_op_saturate(-0x1p-149f)) && st_op_saturate(-0x1p-149f) == 0.0f);
    assert_true(st_op_saturate(0x1.000002p0f) == 1.0f);
}

/*
 * _pp under --pp=fp16: the product is rounded to half before _sat, so a
 * tiny negative product is a half -0 and stays -0: 2^-10 * -2^-15 =
 * -2^-25, half of the smallest half denormal 2^-24, a tie that rounds to
 * even (-0); 2^-10 * 2^-15 = +0 the same way; 0.75 * -0.5 = -0.375 -> +0;
 * 0.75 * 2 = 1.5 -> 1.
 */
static void test_saturate_pp_half_zero(void **state)
{
    (void)state;
    const char *src = "ps_2_0\n"
                      "def c0, -0.000030517578125, 0.000030517578125, -0.5, 2\n"
                      "dcl t0\n"
                      "mul_sat_pp r0, t0, c0\n"
                      "mov oC0, r0\n";
    const char *json = "{\"invocations\": [{\"t0\": [0.0009765625, 0.0009765625, 0.75, 0.75]}]}";
    for (int fused = 0; fused < 2; fused++) {
        struct fx *f = run_pp(src, json, fused);
        CHECK4(outv(f, 0, "oC0"), -0.0f, 0.0f, 0.0f, 1.0f);
        fx_free(f);
    }
}

static void test_float_rules(void **state)
{
    (void)state;
    const char *src = "vs_2_0\n"
                      "dcl_position v0\n"
                      "def c0, 0, 0, 0, 0\n"
                      "def c1, 1, 2, 3, 4\n"
                      "mul oT0, v0, c0\n"
                      "mad oT1, v0, c0, c1\n"
                      "dp3 oT2, v0, c0\n"
                      "lrp oT3, c0, v0, c1\n"
                      "nrm r0, c0\n"
                      "mov oT4, r0\n";
    const char *in = "{\"invocations\": [{\"v0\": [\"inf\", \"-inf\", \"nan\", 5]}]}";
    struct fx *f = run(src, in);
    CHECK4(outv(f, 0, "oT0"), NAN, NAN, NAN, 0);      /* inf*0 = NaN */
    CHECK4(outv(f, 0, "oT1"), NAN, NAN, NAN, 4);
    CHECK4(outv(f, 0, "oT2"), NAN, NAN, NAN, NAN);
    CHECK4(outv(f, 0, "oT3"), NAN, NAN, NAN, 4);      /* 0 * (v0 - c1) + c1 */
    CHECK4(outv(f, 0, "oT4"), NAN, NAN, NAN, NAN);    /* 0 * (1/sqrt 0) */
    fx_free(f);
    f = run_rules(src, in, ST_FLOAT_D3D9);
    CHECK4(outv(f, 0, "oT0"), 0, 0, 0, 0);
    CHECK4(outv(f, 0, "oT1"), 1, 2, 3, 4);
    CHECK4(outv(f, 0, "oT2"), 0, 0, 0, 0);
    CHECK4(outv(f, 0, "oT3"), 1, 2, 3, 4);
    CHECK4(outv(f, 0, "oT4"), 0, 0, 0, 0);
    fx_free(f);
}

/* ------------------------------------------------------------------ */
/* Predication, address register, flow control                         */

static void test_predication(void **state)
{
    (void)state;
    struct fx *f = run("vs_2_x\n"
                       "dcl_position v0\n"
                       "def c0, 1, 1, 1, 1\n"
                       "def c1, 9, 9, 9, 9\n"
                       "def c2, 7, 7, 7, 7\n"
                       "setp_gt p0, v0, c0\n"
                       "mov r0, c2\n"
                       "(p0) mov r0.xyw, c1\n"
                       "mov oT0, r0\n"
                       "mov r1, c2\n"
                       "(!p0) mov r1, c1\n"
                       "mov oT1, r1\n"
                       "mov r2, c2\n"
                       "(p0.x) mov r2, c1\n"
                       "mov oT2, r2\n",
                       V0(2, 0, 3, 5));
    /* p0 = (T, F, T, T); the z lane is masked out by the writemask */
    CHECK4(outv(f, 0, "oT0"), 9, 7, 7, 9);
    CHECK4(outv(f, 0, "oT1"), 7, 9, 7, 7);
    CHECK4(outv(f, 0, "oT2"), 9, 9, 9, 9); /* replicated p0.x */
    fx_free(f);
}

static void test_reladdr_vs11(void **state)
{
    (void)state;
    /* mov a0.x rounds to nearest: 1.5 -> 2, 0.4 -> 0, -1.6 -> -2 */
    const char *src = "vs_1_1\n"
                      "dcl_position v0\n"
                      "def c0, 0, 0, 0, 10\n"
                      "def c1, 1, 1, 1, 11\n"
                      "def c2, 2, 2, 2, 12\n"
                      "def c3, 3, 3, 3, 13\n"
                      "mov a0.x, v0.x\n"
                      "mov oT0, c[a0.x + 1]\n";
    struct fx *f = run(src, "{\"invocations\": [{\"v0\": [1.5]}, {\"v0\": [0.4]}, "
                            "{\"v0\": [-1.6]}, {\"v0\": [300]}, {\"v0\": [-5]}]}");
    CHECK4(outv(f, 0, "oT0"), 3, 3, 3, 13);
    CHECK4(outv(f, 1, "oT0"), 1, 1, 1, 11);
    CHECK4(outv(f, 2, "oT0"), 0, 0, 0, 0); /* c[-1]: outside, reads 0 */
    CHECK4(outv(f, 3, "oT0"), 0, 0, 0, 0); /* c[301] */
    CHECK4(outv(f, 4, "oT0"), 0, 0, 0, 0);
    /* reported once, not once per invocation */
    assert_int_equal(count_code(f->ctx, ST_W_RELADDR_RANGE), 1);
    fx_free(f);
}

static void test_if_else_ifc(void **state)
{
    (void)state;
    struct fx *f = run("vs_2_x\n"
                       "dcl_position v0\n"
                       "defb b0, true\n"
                       "defb b1, false\n"
                       "def c0, 1, 2, 3, 4\n"
                       "def c1, 5, 6, 7, 8\n"
                       "mov r0, c0\n"
                       "if b0\n"
                       "  add r0, r0, c1\n"
                       "else\n"
                       "  mov r0, -c0\n"
                       "endif\n"
                       "if b1\n"
                       "  mov r0, c1\n"
                       "endif\n"
                       "mov oT0, r0\n"
                       "if_lt v0.x, c0.y\n"
                       "  mov oT1, c0\n"
                       "else\n"
                       "  mov oT1, c1\n"
                       "endif\n",
                       "{\"invocations\": [{\"v0\": [1]}, {\"v0\": [2]}, {\"v0\": [\"nan\"]}]}");
    CHECK4(outv(f, 0, "oT0"), 6, 8, 10, 12);
    CHECK4(outv(f, 0, "oT1"), 1, 2, 3, 4); /* 1 < 2 */
    CHECK4(outv(f, 1, "oT1"), 5, 6, 7, 8); /* 2 < 2 is false */
    CHECK4(outv(f, 2, "oT1"), 5, 6, 7, 8); /* NaN < 2 is false */
    fx_free(f);
}

static void test_loop_rep_break(void **state)
{
    (void)state;
    struct fx *f = run("vs_2_x\n"
                       "dcl_position v0\n"
                       "defi i0, 4, 2, 3, 0\n"     /* 4 iterations, aL = 2, 5, 8, 11 */
                       "defi i1, 1000, 0, 0, 0\n"  /* rep count clamps to 255 */
                       "defi i2, 10, 0, 1, 0\n"
                       "def c0, 0, 0, 0, 0\n"
                       "def c1, 1, 1, 1, 1\n"
                       "def c2, 3, 3, 3, 3\n"
                       "def c10, 1, 0, 0, 0\n"
                       "def c13, 2, 0, 0, 0\n"
                       "def c16, 4, 0, 0, 0\n"
                       "def c19, 8, 0, 0, 0\n"
                       "mov r0, c0\n"
                       "loop aL, i0\n"
                       "  add r0, r0, c[aL + 8]\n"
                       "endloop\n"
                       "mov oT0, r0\n"
                       "mov r1, c0\n"
                       "rep i1\n"
                       "  add r1, r1, c1\n"
                       "endrep\n"
                       "mov oT1, r1\n"
                       "mov r2, c0\n"
                       "rep i2\n"
                       "  add r2, r2, c1\n"
                       "  break_ge r2.x, c2.x\n"
                       "endrep\n"
                       "mov oT2, r2\n"
                       "mov r3, c0\n"
                       "rep i2\n"
                       "  add r3, r3, c1\n"
                       "  break\n"
                       "endrep\n"
                       "mov oT3, r3\n",
                       "{\"invocations\": [{}]}");
    /* c[aL + 8] for aL = 2, 5, 8, 11: c10 + c13 + c16 + c19 */
    CHECK4(outv(f, 0, "oT0"), 15, 0, 0, 0);
    CHECK4(outv(f, 0, "oT1"), 255, 255, 255, 255);
    CHECK4(outv(f, 0, "oT2"), 3, 3, 3, 3);
    CHECK4(outv(f, 0, "oT3"), 1, 1, 1, 1);
    fx_free(f);
}

static void test_breakp_nested_loops(void **state)
{
    (void)state;
    struct fx *f = run("vs_2_x\n"
                       "defi i0, 3, 0, 1, 0\n"
                       "defi i1, 5, 0, 1, 0\n"
                       "def c0, 0, 0, 0, 0\n"
                       "def c1, 1, 1, 1, 1\n"
                       "def c2, 2, 2, 2, 2\n"
                       "mov r0, c0\n"
                       "rep i0\n"
                       "  mov r1, c0\n"
                       "  rep i1\n"
                       "    add r1, r1, c1\n"
                       "    add r0, r0, c1\n"
                       "    setp_ge p0, r1, c2\n"
                       "    breakp p0.x\n"
                       "  endrep\n"
                       "endrep\n"
                       "mov oT0, r0\n",
                       "{\"invocations\": [{}]}");
    /* the inner rep stops after 2 of 5, three times: 6 */
    CHECK4(outv(f, 0, "oT0"), 6, 6, 6, 6);
    fx_free(f);
}

static void test_call_callnz_ret(void **state)
{
    (void)state;
    struct fx *f = run("vs_2_0\n"
                       "defb b0, true\n"
                       "defb b1, false\n"
                       "def c0, 0, 0, 0, 0\n"
                       "def c1, 1, 2, 3, 4\n"
                       "mov r0, c0\n"
                       "call l1\n"
                       "callnz l1, b0\n"
                       "callnz l1, b1\n"
                       "call l2\n"
                       "mov oT0, r0\n"
                       "ret\n"
                       "label l1\n"
                       "add r0, r0, c1\n"
                       "ret\n"
                       "label l2\n"
                       "mul r0, r0, c1\n"
                       "ret\n",
                       "{\"invocations\": [{}]}");
    /* (0 + c1 + c1) * c1 = 2 c1 * c1 */
    CHECK4(outv(f, 0, "oT0"), 2, 8, 18, 32);
    fx_free(f);
}

static void test_unwritten_output_in_branch(void **state)
{
    (void)state;
    /* oT1 is written only when v0.x < 0: it still appears, as (0,0,0,0). */
    struct fx *f = run("vs_2_x\n"
                       "dcl_position v0\n"
                       "def c0, 0, 0, 0, 0\n"
                       "def c1, 1, 2, 3, 4\n"
                       "mov oPos, v0\n"
                       "if_lt v0.x, c0.x\n"
                       "  mov oT1, c1\n"
                       "endif\n",
                       "{\"invocations\": [{\"v0\": [1]}, {\"v0\": [-1]}]}");
    CHECK4(outv(f, 0, "oT1"), 0, 0, 0, 0);
    CHECK4(outv(f, 1, "oT1"), 1, 2, 3, 4);
    CHECK4(outv(f, 0, "oPos"), 1, 0, 0, 1); /* short input filled from (0,0,0,1) */
    fx_free(f);
}

/* ------------------------------------------------------------------ */
/* Pixel shaders: texkill, textures, derivatives, ps_1_x               */

/* A 2x2 2D texture: texel (x, y) = (x, y, 10 + x + 2y, 1). */
#define TEX2X2                                                                          \
    "\"textures\": {\"s0\": {\"type\": \"2d\", \"width\": 2, \"height\": 2, \"texels\": " \
    "[[0,0,10,1],[1,0,11,1],[0,1,12,1],[1,1,13,1]]}}"

static void test_texkill(void **state)
{
    (void)state;
    struct fx *f = run("ps_2_0\n"
                       "dcl t0\n"
                       "def c0, 1, 1, 1, 1\n"
                       "texkill t0\n"
                       "mov oC0, c0\n",
                       "{\"invocations\": [{\"t0\": [0, 0, 0, -1]}, {\"t0\": [0, -0.5, 0, 0]},"
                       " {\"t0\": [0, 0, -0.0, 0]}]}");
    assert_false(f->outs[0].discarded); /* w is not tested */
    assert_true(f->outs[1].discarded);
    assert_false(f->outs[2].discarded); /* -0 is not below 0 */
    fx_free(f);
}

static void test_texld_2d_nearest_repeat(void **state)
{
    (void)state;
    struct fx *f = run("ps_2_0\n"
                       "dcl t0\n"
                       "dcl_2d s0\n"
                       "texld r0, t0, s0\n"
                       "mov oC0, r0\n"
                       "texldp r1, t0, s0\n"
                       "mov oC1, r1\n",
                       "{" TEX2X2 ", \"invocations\": ["
                       "{\"t0\": [0.75, 0.25, 0, 1]},"   /* texel (1,0) */
                       "{\"t0\": [1.25, 0.5, 0, 1]},"    /* wraps: (0,1) */
                       "{\"t0\": [-0.25, -0.75, 0, 1]}," /* floor(-0.5) = -1 -> 1; floor(-1.5) = -2 -> 0 */
                       "{\"t0\": [0.75, 0.75, 0, 2]}"    /* texldp: (0.375, 0.375) -> (0,0) */
                       "]}");
    CHECK4(outv(f, 0, "oC0"), 1, 0, 11, 1);
    CHECK4(outv(f, 1, "oC0"), 0, 1, 12, 1);
    CHECK4(outv(f, 2, "oC0"), 1, 0, 11, 1);
    CHECK4(outv(f, 3, "oC0"), 1, 1, 13, 1);
    CHECK4(outv(f, 3, "oC1"), 0, 0, 10, 1);
    fx_free(f);
}

static void test_texld_cube_volume(void **state)
{
    (void)state;
    /* cube 1x1 per face: face k holds (k, 0, 0, 1); volume 1x1x2: slice z
     * holds (0, 0, z, 1). */
    struct fx *f = run("ps_2_0\n"
                       "dcl t0\n"
                       "dcl_cube s0\n"
                       "dcl_volume s1\n"
                       "texld r0, t0, s0\n"
                       "mov oC0, r0\n"
                       "texld r1, t0, s1\n"
                       "mov oC1, r1\n",
                       "{\"textures\": {\"s0\": {\"type\": \"cube\", \"width\": 1, \"height\": 1,"
                       " \"texels\": [[0,0,0,1],[1,0,0,1],[2,0,0,1],[3,0,0,1],[4,0,0,1],[5,0,0,1]]},"
                       " \"s1\": {\"type\": \"volume\", \"width\": 1, \"height\": 1, \"depth\": 2,"
                       " \"texels\": [[0,0,0,1],[0,0,1,1]]}},"
                       " \"invocations\": ["
                       "{\"t0\": [2, 1, 0.5, 0]},"   /* +x */
                       "{\"t0\": [-2, 1, 0.5, 0]},"  /* -x */
                       "{\"t0\": [0.1, 3, 1, 0]},"   /* +y */
                       "{\"t0\": [0.1, -3, 1, 0]},"  /* -y */
                       "{\"t0\": [0.1, 0.2, 4, 0]},"  /* +z */
                       "{\"t0\": [0.1, 0.2, -4, 0]}" /* -z; z=-4 -> floor(-8) mod 2 = 0 */
                       "]}");
    for (unsigned k = 0; k < 6; k++)
        CHECK4(outv(f, k, "oC0"), (float)k, 0, 0, 1);
    CHECK4(outv(f, 0, "oC1"), 0, 0, 1, 1); /* z = 0.5: floor(1) = slice 1 */
    CHECK4(outv(f, 3, "oC1"), 0, 0, 0, 1); /* z = 1: floor(2) mod 2 = 0 */
    CHECK4(outv(f, 5, "oC1"), 0, 0, 0, 1); /* z = -4: floor(-8) mod 2 = 0 */
    fx_free(f);
}

static void test_cube_face_coordinates(void **state)
{
    (void)state;
    /* 2x2 faces, texel = face*4 + row*2 + col.  Face table (D3D = GL):
     * +x: s = -z, t = -y; +y: s = x, t = z; -z: s = -x, t = -y; then
     * (s/|major| + 1) / 2.
     * (1, .5, -.5): +x, s = .75 -> col 1, t = .25 -> row 0: 1
     * (.5, 1, .5): +y, s = .75 -> col 1, t = .75 -> row 1: 8 + 3 = 11
     * (.5, -.5, -1): -z, s = .25 -> col 0, t = .75 -> row 1: 20 + 2 = 22 */
    struct fx *f = run("ps_2_0\n"
                       "dcl t0\n"
                       "dcl_cube s0\n"
                       "texld r0, t0, s0\n"
                       "mov oC0, r0\n",
                       "{\"textures\": {\"s0\": {\"type\": \"cube\", \"width\": 2, \"height\": 2,"
                       " \"texels\": [[0,0,0,1],[1,0,0,1],[2,0,0,1],[3,0,0,1],[4,0,0,1],[5,0,0,1],[6,0,0,1],[7,0,0,1],[8,0,0,1],[9,0,0,1],[10,0,0,1],[11,0,0,1],"
                       "[12,0,0,1],[13,0,0,1],[14,0,0,1],[15,0,0,1],[16,0,0,1],[17,0,0,1],[18,0,0,1],[19,0,0,1],[20,0,0,1],[21,0,0,1],[22,0,0,1],[23,0,0,1]]}}, \"invocations\": ["
                       "{\"t0\": [1, 0.5, -0.5]}, {\"t0\": [0.5, 1, 0.5]}, {\"t0\": [0.5, -0.5, -1]}]}");
    CHECK4(outv(f, 0, "oC0"), 1, 0, 0, 1);
    CHECK4(outv(f, 1, "oC0"), 11, 0, 0, 1);
    CHECK4(outv(f, 2, "oC0"), 22, 0, 0, 1);
    fx_free(f);
}

static void test_dsx_dsy_quads(void **state)
{
    (void)state;
    const char *src = "ps_2_x\n"
                      "dcl t0\n"
                      "dsx r0, t0\n"
                      "mov oC0, r0\n"
                      "dsy r1, t0\n"
                      "mov oC1, r1\n";
    /* quad 0 1 / 2 3 with t0.x = 1, 2, 4, 8 */
    struct fx *f = run(src, "{\"invocations\": [{\"t0\": [1]}, {\"t0\": [2]}, {\"t0\": [4]},"
                            " {\"t0\": [8]}, {\"t0\": [16]}, {\"t0\": [48]}, {\"t0\": [100]}]}");
    CHECK1(outv(f, 0, "oC0"), 1); /* 2 - 1 */
    CHECK1(outv(f, 1, "oC0"), 1);
    CHECK1(outv(f, 2, "oC0"), 4); /* 8 - 4 */
    CHECK1(outv(f, 3, "oC0"), 4);
    CHECK1(outv(f, 0, "oC1"), 3); /* 4 - 1 */
    CHECK1(outv(f, 1, "oC1"), 6); /* 8 - 2 */
    CHECK1(outv(f, 2, "oC1"), 3);
    CHECK1(outv(f, 3, "oC1"), 6);
    /* the partial quad 16, 48, 100: lane 2 has no right neighbour and
     * lanes 1 has no bottom neighbour */
    CHECK1(outv(f, 4, "oC0"), 32);
    CHECK1(outv(f, 5, "oC0"), 32);
    CHECK1(outv(f, 6, "oC0"), 0);
    CHECK1(outv(f, 4, "oC1"), 84);
    CHECK1(outv(f, 5, "oC1"), 0);
    CHECK1(outv(f, 6, "oC1"), 84);
    /* w: (0,0,0,1) inputs: derivative of 1 - 1 */
    CHECK4(outv(f, 0, "oC0"), 1, 0, 0, 0);
    fx_free(f);
}

static void test_dsx_divergent(void **state)
{
    (void)state;
    /* lanes 0,1 take the if, lanes 2,3 the else: each pair differentiates
     * with its row neighbour; dsy has no neighbour at the same place: 0. */
    struct fx *f = run("ps_2_x\n"
                       "dcl t0\n"
                       "def c0, 0, 0, 0, 0\n"
                       "if_lt t0.y, c0.x\n"
                       "  dsx r0, t0\n"
                       "  dsy r1, t0\n"
                       "else\n"
                       "  dsx r0, t0.yxzw\n"
                       "  dsy r1, t0\n"
                       "endif\n"
                       "mov oC0, r0\n"
                       "mov oC1, r1\n",
                       "{\"invocations\": [{\"t0\": [1, -1]}, {\"t0\": [3, -1]},"
                       " {\"t0\": [10, 1]}, {\"t0\": [30, 1]}]}");
    CHECK4(outv(f, 0, "oC0"), 2, 0, 0, 0);  /* 3 - 1 */
    CHECK4(outv(f, 1, "oC0"), 2, 0, 0, 0);
    CHECK4(outv(f, 2, "oC0"), 0, 20, 0, 0); /* .yx swizzled: (1 - 1, 30 - 10) */
    CHECK4(outv(f, 3, "oC0"), 0, 20, 0, 0);
    for (unsigned k = 0; k < 4; k++)
        CHECK4(outv(f, k, "oC1"), 0, 0, 0, 0);
    fx_free(f);
}

static void test_ps1x_tex_texcoord_coissue(void **state)
{
    (void)state;
    /* ps_1_1: tex t0 samples stage 0 at texture coordinate set 0;
     * texcoord t1 = saturate(uvw), 1; the color output is r0. */
    struct fx *f = run("ps_1_1\n"
                       "def c0, 0.5, 0.5, 0.5, 0.25\n"
                       "tex t0\n"
                       "texcoord t1\n"
                       "mov r1, t1\n"
                       "mul r0.rgb, t0, c0\n"
                       "+ add r0.a, r1.b, c0.a\n",
                       "{" TEX2X2 ", \"invocations\": [{\"t0\": [0.75, 0.75], "
                       "\"t1\": [2, -1, 0.5, 7]}]}");
    /* r0.rgb = (1,1,13) * .5; r0.a = 0.5 + 0.25 */
    CHECK4(outv(f, 0, "oC0"), 0.5f, 0.5f, 6.5f, 0.75f);
    fx_free(f);
    /* co-issued instructions read their sources before either writes */
    f = run("ps_1_1\n"
            "def c0, 1, 2, 3, 4\n"
            "def c1, 10, 10, 10, 10\n"
            "mov r0, c0\n"
            "add r0.rgb, r0, c1\n"
            "+ mov r0.a, r0.b\n",
            "{\"invocations\": [{}]}");
    CHECK4(outv(f, 0, "oC0"), 11, 12, 13, 3); /* the old r0.b, not 13 */
    fx_free(f);
}

static void test_ps1x_texbem_texreg2(void **state)
{
    (void)state;
    /* stage 1 bump matrix (0.5, 0, 0, 0.5); t0 holds (du, dv) from a
     * 1x1 texture: (0.5, 0.5, 2, 1).  texbem t1: u' = 0.1 + 0.5*0.5 =
     * 0.35, v' = 0.6 + 0.5*0.5 = 0.85 -> texel (0, 1) of the 2x2 in s1. */
    struct fx *f = run("ps_1_1\n"
                       "tex t0\n"
                       "texbeml t1, t0\n"
                       "mov r0, t1\n",
                       "{\"textures\": {\"s0\": {\"type\": \"2d\", \"width\": 1, \"height\": 1,"
                       " \"texels\": [[0.5, 0.5, 2, 1]]},"
                       " \"s1\": {\"type\": \"2d\", \"width\": 2, \"height\": 2, \"texels\": "
                       "[[0,0,10,1],[1,0,11,1],[0,1,12,1],[1,1,13,1]]}},"
                       " \"bump_env\": {\"s1\": {\"matrix\": [0.5, 0, 0, 0.5], \"lscale\": 0.25,"
                       " \"loffset\": 0.5}},"
                       " \"invocations\": [{\"t1\": [0.1, 0.6]}]}");
    /* luminance = 2 * 0.25 + 0.5 = 1: texel (0,1) unchanged */
    CHECK4(outv(f, 0, "oC0"), 0, 1, 12, 1);
    fx_free(f);
    /* texreg2ar: (a, r) of t0 = (0.75, 0.25) -> texel (1, 0);
     * texreg2gb: (g, b) = (0.25, 0.75) -> texel (0, 1) */
    f = run("ps_1_1\n"
            "tex t0\n"
            "texreg2ar t1, t0\n"
            "texreg2gb t2, t0\n"
            "add r0, t1, t2\n",
            "{\"textures\": {\"s0\": {\"type\": \"2d\", \"width\": 1, \"height\": 1,"
            " \"texels\": [[0.25, 0.25, 0.75, 0.75]]},"
            " \"s1\": {\"type\": \"2d\", \"width\": 2, \"height\": 2, \"texels\": "
            "[[0,0,10,1],[1,0,11,1],[0,1,12,1],[1,1,13,1]]},"
            " \"s2\": {\"type\": \"2d\", \"width\": 2, \"height\": 2, \"texels\": "
            "[[0,0,10,1],[1,0,11,1],[0,1,12,1],[1,1,13,1]]}},"
            " \"invocations\": [{}]}");
    CHECK4(outv(f, 0, "oC0"), 1, 1, 23, 2);
    fx_free(f);
}

static void test_ps1x_texm3x2_texm3x3_texdp3(void **state)
{
    (void)state;
    /* t0 = (0.5, 0.25, 1, 1) from a 1x1 texture.  Coordinates:
     * t1 = (1, 0, 0), t2 = (0, 1, 0)  -> u = 0.5, v = 0.25 -> texel (1, 0)
     * of s2. */
    struct fx *f = run("ps_1_1\n"
                       "tex t0\n"
                       "texm3x2pad t1, t0\n"
                       "texm3x2tex t2, t0\n"
                       "mov r0, t2\n",
                       "{\"textures\": {\"s0\": {\"type\": \"2d\", \"width\": 1, \"height\": 1,"
                       " \"texels\": [[0.5, 0.25, 1, 1]]},"
                       " \"s2\": {\"type\": \"2d\", \"width\": 2, \"height\": 2, \"texels\": "
                       "[[0,0,10,1],[1,0,11,1],[0,1,12,1],[1,1,13,1]]}},"
                       " \"invocations\": [{\"t1\": [1, 0, 0], \"t2\": [0, 1, 0]}]}");
    CHECK4(outv(f, 0, "oC0"), 1, 0, 11, 1);
    fx_free(f);
    /* ps_1_2 texm3x3: the three dot products (2, 3, 4) and 1 */
    f = run("ps_1_2\n"
            "texcoord t0\n"
            "texm3x3pad t1, t0\n"
            "texm3x3pad t2, t0\n"
            "texm3x3 t3, t0\n"
            "mov r0, t3\n",
            "{\"invocations\": [{\"t0\": [1, 0.5, 0.25], \"t1\": [2, 0, 0],"
            " \"t2\": [1, 4, 0], \"t3\": [0, 0, 16]}]}");
    CHECK4(outv(f, 0, "oC0"), 2, 3, 4, 1);
    fx_free(f);
    /* texdp3: dot(coords t1, t0) replicated: 0.5*2 + 0.5*4 = 3 */
    f = run("ps_1_2\n"
            "texcoord t0\n"
            "texdp3 t1, t0\n"
            "mov r0, t1\n",
            "{\"invocations\": [{\"t0\": [0.5, 0.5, 0], \"t1\": [2, 4, 9]}]}");
    CHECK4(outv(f, 0, "oC0"), 3, 3, 3, 3);
    fx_free(f);
    /* texm3x2depth (ps_1_3): z = 3, w = 6 -> depth 0.5 */
    f = run("ps_1_3\n"
            "texcoord t0\n"
            "texm3x2pad t1, t0\n"
            "texm3x2depth t2, t0\n"
            "mov r0, t0\n",
            "{\"invocations\": [{\"t0\": [1, 0.5, 0], \"t1\": [1, 4, 0],"
            " \"t2\": [2, 8, 0]}]}");
    CHECK1(outv(f, 0, "oDepth"), 0.5f);
    fx_free(f);
}

static void test_ps14_texcrd_texld_bem_texdepth(void **state)
{
    (void)state;
    /* texcrd r0.rgb, t0_dw.xyw: (x/w, y/w, w); texld r1, t1 samples stage
     * 1 (the dst number). */
    struct fx *f = run("ps_1_4\n"
                       "def c0, 0, 0, 0, 0\n"
                       "texcrd r2.rgb, t0_dw.xyw\n"
                       "texld r1, t1\n"
                       "mov r0, c0\n"
                       "add r0.rgb, r2, r1\n",
                       "{\"textures\": {\"s1\": {\"type\": \"2d\", \"width\": 2, \"height\": 2,"
                       " \"texels\": [[0,0,10,1],[1,0,11,1],[0,1,12,1],[1,1,13,1]]}},"
                       " \"invocations\": [{\"t0\": [1, 3, 0, 2], \"t1\": [0.6, 0.1]}]}");
    /* (0.5, 1.5, 2) + texel (1, 0) = (1, 0, 11) */
    CHECK4(outv(f, 0, "oC0"), 1.5f, 1.5f, 13, 0);
    fx_free(f);
    /* bem r1.rg, c0, r2 with stage 1 matrix (2, 0, 0, 3):
     * x = 0.25 + 2*0.5 = 1.25, y = 0.5 + 3*0.25 = 1.25 */
    f = run("ps_1_4\n"
            "def c0, 0.25, 0.5, 0, 0\n"
            "def c1, 0.5, 0.25, 0, 0\n"
            "def c2, 0, 0, 7, 7\n"
            "mov r2, c1\n"
            "mov r1, c2\n"
            "bem r1.rg, c0, r2\n"
            "mov r0, r1\n",
            "{\"bump_env\": {\"s1\": {\"matrix\": [2, 0, 0, 3]}}, \"invocations\": [{}]}");
    CHECK4(outv(f, 0, "oC0"), 1.25f, 1.25f, 7, 7);
    fx_free(f);
    /* texdepth r5: r5.r / r5.g; g = 0 gives 1 */
    const char *src = "ps_1_4\n"
                      "texcrd r5.rgb, t0\n"
                      "phase\n"
                      "def c0, 1, 1, 1, 1\n"
                      "texdepth r5\n"
                      "mov r0, c0\n";
    f = run(src, "{\"invocations\": [{\"t0\": [1, 4, 0]}, {\"t0\": [1, 0, 0]}]}");
    CHECK1(outv(f, 0, "oDepth"), 0.25f);
    CHECK1(outv(f, 1, "oDepth"), 1.0f);
    fx_free(f);
}

static void test_mova_vs20(void **state)
{
    (void)state;
    /* mova rounds to nearest: a0.x = round(0.6) = 1, a0.y = round(-0.5) =
     * floor(0) = 0; c[a0.x + 1] = c2, c[a0.y + 1] = c1 */
    struct fx *f = run("vs_2_0\n"
                       "dcl_position v0\n"
                       "def c1, 1, 1, 1, 1\n"
                       "def c2, 2, 2, 2, 2\n"
                       "mova a0.xy, v0\n"
                       "mov oT0, c[a0.x + 1]\n"
                       "mov oT1, c[a0.y + 1]\n",
                       V0(0.6, -0.5, 0, 0));
    CHECK4(outv(f, 0, "oT0"), 2, 2, 2, 2);
    CHECK4(outv(f, 0, "oT1"), 1, 1, 1, 1);
    fx_free(f);
}

static void test_ps30_vpos_vface_v_aL(void **state)
{
    (void)state;
    struct fx *f = run("ps_3_0\n"
                       "dcl vPos.xy\n"
                       "dcl vFace\n"
                       "dcl_texcoord0 v0\n"
                       "dcl_texcoord1 v1\n"
                       "defi i0, 2, 0, 1, 0\n"
                       "def c0, 0, 0, 0, 0\n"
                       "def c1, 1, 1, 1, 1\n"
                       "mov r0, c0\n"
                       "loop aL, i0\n"
                       "  add r0, r0, v0[aL]\n"
                       "endloop\n"
                       "mov oC0, r0\n"
                       "add oC1, vPos.xyxy, c0\n"
                       "if_lt vFace, c0.x\n"
                       "  mov oC2, c1\n"
                       "else\n"
                       "  mov oC2, -c1\n"
                       "endif\n",
                       "{\"invocations\": [{\"v0\": [1, 2, 3, 4], \"v1\": [10, 20, 30, 40],"
                       " \"vPos\": [3, 4], \"vFace\": -1}, {\"vFace\": [1]}]}");
    CHECK4(outv(f, 0, "oC0"), 11, 22, 33, 44); /* v0 + v1 */
    CHECK4(outv(f, 0, "oC1"), 3, 4, 3, 4);
    CHECK4(outv(f, 0, "oC2"), 1, 1, 1, 1);     /* back face: vFace < 0 */
    CHECK4(outv(f, 1, "oC2"), -1, -1, -1, -1);
    fx_free(f);
}

static void test_texldl_texldb_texldd_level0(void **state)
{
    (void)state;
    /* only level 0 exists: every variant samples texel (1, 0) */
    struct fx *f = run("ps_3_0\n"
                       "dcl_texcoord v0\n"
                       "dcl_2d s0\n"
                       "texldl r0, v0, s0\n"
                       "texldb r1, v0, s0\n"
                       "texldd r2, v0, s0, v0, v0\n"
                       "mov oC0, r0\n"
                       "mov oC1, r1\n"
                       "mov oC2, r2\n",
                       "{" TEX2X2 ", \"invocations\": [{\"v0\": [0.75, 0.25, 0, 5]}]}");
    CHECK4(outv(f, 0, "oC0"), 1, 0, 11, 1);
    CHECK4(outv(f, 0, "oC1"), 1, 0, 11, 1);
    CHECK4(outv(f, 0, "oC2"), 1, 0, 11, 1);
    fx_free(f);
    /* vertex texture fetch */
    f = run("vs_3_0\n"
            "dcl_position o0\n"
            "dcl_texcoord v0\n"
            "dcl_2d s0\n"
            "texldl o0, v0, s0\n",
            "{" TEX2X2 ", \"invocations\": [{\"v0\": [0.25, 0.75, 0, 0]}]}");
    CHECK4(outv(f, 0, "o0"), 0, 1, 12, 1);
    fx_free(f);
}

#define CUBE1X1                                                                        \
    "\"s3\": {\"type\": \"cube\", \"width\": 1, \"height\": 1, \"texels\": "             \
    "[[0,0,0,1],[1,0,0,1],[2,0,0,1],[3,0,0,1],[4,0,0,1],[5,0,0,1]]}"
#define T0_1X1(r, g, b)                                                                \
    "\"s0\": {\"type\": \"2d\", \"width\": 1, \"height\": 1, \"texels\": [[" #r ", " #g \
    ", " #b ", 1]]}"

static void test_ps1x_texm3x3tex_spec_vspec(void **state)
{
    (void)state;
    /* N = (t1.t0, t2.t0, t3.t0) = (1, 1, -2): major axis -z -> face 5 */
    struct fx *f = run("ps_1_1\n"
                       "tex t0\n"
                       "texm3x3pad t1, t0\n"
                       "texm3x3pad t2, t0\n"
                       "texm3x3tex t3, t0\n"
                       "mov r0, t3\n",
                       "{\"textures\": {" T0_1X1(1, 0.5, 0.25) ", " CUBE1X1 "},"
                       " \"invocations\": [{\"t1\": [1, 0, 0], \"t2\": [0, 2, 0], \"t3\": [0, 0, -8]}]}");
    CHECK4(outv(f, 0, "oC0"), 5, 0, 0, 1);
    fx_free(f);
    /* spec with E = c0 = (0, 0, 1): N.E = -2, N.N = 6,
     * R = 2N(-2)/6 - E = (-2/3, -2/3, 8/6 - 1): |x| = |y| is a tie, x wins,
     * x < 0 -> face 1 */
    f = run("ps_1_1\n"
            "def c0, 0, 0, 1, 0\n"
            "tex t0\n"
            "texm3x3pad t1, t0\n"
            "texm3x3pad t2, t0\n"
            "texm3x3spec t3, t0, c0\n"
            "mov r0, t3\n",
            "{\"textures\": {" T0_1X1(1, 0.5, 0.25) ", " CUBE1X1 "},"
            " \"invocations\": [{\"t1\": [1, 0, 0], \"t2\": [0, 2, 0], \"t3\": [0, 0, -8]}]}");
    CHECK4(outv(f, 0, "oC0"), 1, 0, 0, 1);
    fx_free(f);
    /* vspec: the same E from the w coordinates (0, 0, 1) */
    f = run("ps_1_1\n"
            "tex t0\n"
            "texm3x3pad t1, t0\n"
            "texm3x3pad t2, t0\n"
            "texm3x3vspec t3, t0\n"
            "mov r0, t3\n",
            "{\"textures\": {" T0_1X1(1, 0.5, 0.25) ", " CUBE1X1 "},"
            " \"invocations\": [{\"t1\": [1, 0, 0, 0], \"t2\": [0, 2, 0, 0],"
            " \"t3\": [0, 0, -8, 1]}]}");
    CHECK4(outv(f, 0, "oC0"), 1, 0, 0, 1);
    fx_free(f);
}

static void test_ps1x_texbem_texdp3tex_texreg2rgb(void **state)
{
    (void)state;
    /* texbem, matrix (M00, M01, M10, M11) = (0, 0.5, 0.5, 0), t0 = (0.5, 0):
     * u' = 0.3 + 0*0.5 + 0.5*0 = 0.3, v' = 0.3 + 0.5*0.5 + 0*0 = 0.55
     * -> texel (0, 1); the transposed matrix would give (1, 0). */
    struct fx *f = run("ps_1_1\n"
                       "tex t0\n"
                       "texbem t1, t0\n"
                       "mov r0, t1\n",
                       "{\"textures\": {" T0_1X1(0.5, 0, 0) ", \"s1\": {\"type\": \"2d\","
                       " \"width\": 2, \"height\": 2, \"texels\": "
                       "[[0,0,10,1],[1,0,11,1],[0,1,12,1],[1,1,13,1]]}},"
                       " \"bump_env\": {\"s1\": {\"matrix\": [0, 0.5, 0.5, 0]}},"
                       " \"invocations\": [{\"t1\": [0.3, 0.3]}]}");
    CHECK4(outv(f, 0, "oC0"), 0, 1, 12, 1);
    fx_free(f);
    /* texdp3tex: u = (1, 1, 0) . (0.5, 0.25, 0) = 0.75 at v = 0 -> (1, 0) */
    f = run("ps_1_2\n"
            "texcoord t0\n"
            "texdp3tex t1, t0\n"
            "mov r0, t1\n",
            "{\"textures\": {\"s1\": {\"type\": \"2d\", \"width\": 2, \"height\": 2, \"texels\": "
            "[[0,0,10,1],[1,0,11,1],[0,1,12,1],[1,1,13,1]]}},"
            " \"invocations\": [{\"t0\": [0.5, 0.25, 0], \"t1\": [1, 1, 0]}]}");
    CHECK4(outv(f, 0, "oC0"), 1, 0, 11, 1);
    fx_free(f);
    /* texreg2rgb: (r, g, b) of t0 = (0.75, 0.75, 0.5) -> (1, 1) */
    f = run("ps_1_2\n"
            "texcoord t0\n"
            "texreg2rgb t1, t0\n"
            "mov r0, t1\n",
            "{\"textures\": {\"s1\": {\"type\": \"2d\", \"width\": 2, \"height\": 2, \"texels\": "
            "[[0,0,10,1],[1,0,11,1],[0,1,12,1],[1,1,13,1]]}},"
            " \"invocations\": [{\"t0\": [0.75, 0.75, 0.5]}]}");
    CHECK4(outv(f, 0, "oC0"), 1, 1, 13, 1);
    fx_free(f);
}

static void test_predicated_texkill_if_p0_callnz(void **state)
{
    (void)state;
    struct fx *f = run("ps_2_x\n"
                       "dcl t0\n"
                       "def c0, 0, 0, 0, 0\n"
                       "def c1, 1, 2, 3, 4\n"
                       "setp_gt p0, t0.w, c0.x\n"
                       "(p0) texkill t0\n"
                       "setp_gt p0.x, t0.y, c0.x\n"
                       "mov r0, c0\n"
                       "if p0.x\n"
                       "  add r0, r0, c1\n"
                       "endif\n"
                       "callnz l0, !p0.x\n"
                       "mov oC0, r0\n"
                       "ret\n"
                       "label l0\n"
                       "sub r0, r0, c1\n"
                       "ret\n",
                       "{\"invocations\": [{\"t0\": [-1, 1, 0, 1]}, {\"t0\": [-1, 1, 0, -1]},"
                       " {\"t0\": [0, -1, 0, -1]}]}");
    assert_true(f->outs[0].discarded);  /* predicate true, x < 0 */
    assert_false(f->outs[1].discarded); /* predicate false: not tested */
    CHECK4(outv(f, 1, "oC0"), 1, 2, 3, 4);
    CHECK4(outv(f, 2, "oC0"), -1, -2, -3, -4);
    fx_free(f);
}

static void test_vs30_relative_output(void **state)
{
    (void)state;
    /* o[aL] with aL = 1, 2: both declared outputs written */
    struct fx *f = run("vs_3_0\n"
                       "dcl_position o0\n"
                       "dcl_texcoord0 o1\n"
                       "dcl_texcoord1 o2\n"
                       "defi i0, 2, 1, 1, 0\n"
                       "def c0, 1, 2, 3, 4\n"
                       "mov o0, c0\n"
                       "loop aL, i0\n"
                       "  mov o[aL], -c0\n"
                       "endloop\n",
                       "{\"invocations\": [{}]}");
    assert_int_equal(f->outs[0].count, 3);
    CHECK4(outv(f, 0, "o0"), 1, 2, 3, 4);
    CHECK4(outv(f, 0, "o1"), -1, -2, -3, -4);
    CHECK4(outv(f, 0, "o2"), -1, -2, -3, -4);
    fx_free(f);
}

static void test_loop_zero_and_negative_count(void **state)
{
    (void)state;
    struct fx *f = run("vs_2_0\n"
                       "defi i0, 0, 0, 1, 0\n"
                       "defi i1, -3, 0, 1, 0\n"
                       "def c0, 0, 0, 0, 0\n"
                       "def c1, 1, 1, 1, 1\n"
                       "mov r0, c0\n"
                       "rep i0\n"
                       "  add r0, r0, c1\n"
                       "endrep\n"
                       "loop aL, i1\n"
                       "  add r0, r0, c1\n"
                       "endloop\n"
                       "mov oT0, r0\n",
                       "{\"invocations\": [{}]}");
    CHECK4(outv(f, 0, "oT0"), 0, 0, 0, 0);
    fx_free(f);
}

static void test_step_limit(void **state)
{
    (void)state;
    /* 255^4 iterations exceed the default run budget of 2^26 instructions
     * per invocation: refused before it runs (ST4003, at the outer rep) */
    const char *src = "vs_2_x\n"
                      "defi i0, 255, 0, 0, 0\n"
                      "def c1, 1, 1, 1, 1\n"
                      "rep i0\n"
                      " rep i0\n"
                      "  rep i0\n"
                      "   rep i0\n"
                      "    add r0, r0, c1\n"
                      "   endrep\n"
                      "  endrep\n"
                      " endrep\n"
                      "endrep\n"
                      "mov oT0, r0\n";
    struct st_ctx *ctx = st_ctx_create("t.asm", src, strlen(src), 0);
    struct st_arena *a = st_arena_create();
    struct st_shader *sh = st_parse_d3d9(ctx, a);
    assert_non_null(sh);
    if (!st_check(ctx, sh)) {
        dump_diags(ctx);
        fail_msg("the shader must assemble");
    }
    struct st_buf out = {0};
    const char *json = "{\"invocations\": [{}]}";
    assert_false(st_interp_run(ctx, sh, NULL, json, strlen(json), ST_FLOAT_IEEE, &out));
    assert_null(out.data); /* nothing printed */
    struct st_loc loc;
    assert_non_null(st_ctx_first_error(ctx, &loc));
    assert_int_equal(loc.line, 4);
    assert_int_equal(loc.column, 1);
    assert_int_equal(count_code(ctx, ST_E_RUN_BUDGET), 1);
    assert_int_equal(count_code(ctx, ST_E_RUNTIME), 0);
    st_arena_destroy(a);
    st_ctx_destroy(ctx);
}

static void test_nop_sincos20_and_more_d3d9_rules(void **state)
{
    (void)state;
    /* vs_2_0 sincos takes the two constant operands too; nop does nothing */
    const char *src = "vs_2_0\n"
                      "dcl_position v0\n"
                      "def c0, 0, 0, 0, 0\n"
                      "def c1, -1.55009923e-006, -2.17013894e-005, 0.00260416674, 0.00026041668\n"
                      "def c2, -0.020833334, -0.125, 1, 0.5\n"
                      "def c3, 1, 2, 3, 4\n"
                      "nop\n"
                      "sincos r0.xy, c0.x, c1, c2\n"
                      "mov oT0, r0\n"
                      "m4x4 oT1, v0, c4\n" /* rows c4..c7: not given, 0 */
                      "dst oT3, v0, c0\n"
                      "crs r1.xyz, v0, c0\n"
                      "mov r1.w, c3.w\n"
                      "mov oT4, r1\n"
                      "pow r2, c3.x, v0.z\n"
                      "mov oT5, r2\n";
    const char *in = "{\"invocations\": [{\"v0\": [\"inf\", \"nan\", \"nan\", 2]}]}";
    struct fx *f = run(src, in);
    CHECK4(outv(f, 0, "oT0"), 1, 0, 0, 0); /* cos 0, sin 0; r0.zw never written */
    CHECK4(outv(f, 0, "oT1"), NAN, NAN, NAN, NAN);
    CHECK4(outv(f, 0, "oT3"), 1, NAN, NAN, 0); /* (1, NaN*0, src0.z, src1.w) */
    CHECK4(outv(f, 0, "oT4"), NAN, NAN, NAN, 4);
    CHECK4(outv(f, 0, "oT5"), 1, 1, 1, 1); /* 1^y = 1 for every y, NaN included */
    fx_free(f);
    f = run_rules(src, in, ST_FLOAT_D3D9);
    CHECK4(outv(f, 0, "oT1"), 0, 0, 0, 0);
    CHECK4(outv(f, 0, "oT3"), 1, 0, NAN, 0);
    CHECK4(outv(f, 0, "oT4"), 0, 0, 0, 4);
    CHECK4(outv(f, 0, "oT5"), 1, 1, 1, 1); /* the same under the rule */
    fx_free(f);
    const char *ps = "ps_2_0\n"
                     "dcl t0\n"
                     "def c0, 0, 0, 0, 0\n"
                     "def c3, 1, 2, 3, 4\n"
                     "dp2add r0, t0, c0, c3.x\n"
                     "mov oC0, r0\n";
    const char *pin = "{\"invocations\": [{\"t0\": [\"inf\", \"nan\"]}]}";
    f = run(ps, pin);
    CHECK4(outv(f, 0, "oC0"), NAN, NAN, NAN, NAN);
    fx_free(f);
    f = run_rules(ps, pin, ST_FLOAT_D3D9);
    CHECK4(outv(f, 0, "oC0"), 1, 1, 1, 1); /* 0 + 0 + c3.x */
    fx_free(f);
}

static void test_call_depth_limit(void **state)
{
    (void)state;
    /* The checker rejects recursion; build it by retargeting a call in the
     * AST so the interpreter's own limit (16) is what stops the run. */
    const char *src = "vs_2_x\n"
                      "call l0\n"
                      "mov oPos, r0\n"
                      "ret\n"
                      "label l0\n"
                      "call l1\n"
                      "ret\n"
                      "label l1\n"
                      "ret\n";
    struct st_ctx *ctx = st_ctx_create("t.asm", src, strlen(src), 0);
    struct st_arena *a = st_arena_create();
    struct st_shader *sh = st_parse_d3d9(ctx, a);
    assert_non_null(sh);
    if (!st_check(ctx, sh)) {
        dump_diags(ctx);
        fail_msg("the shader must assemble");
    }
    struct st_instr *in = sh->first;
    while (in && !(in->op == ST_OP_CALL && in->src[0].reg.index == 1))
        in = in->next;
    assert_non_null(in);
    in->src[0].reg.index = 0; /* label l0 now calls itself */
    struct st_buf out = {0};
    const char *json = "{\"invocations\": [{}]}";
    assert_false(st_interp_run(ctx, sh, NULL, json, strlen(json), ST_FLOAT_IEEE, &out));
    assert_null(out.data);
    assert_int_equal(count_code(ctx, ST_E_RUNTIME), 1);
    st_arena_destroy(a);
    st_ctx_destroy(ctx);
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */


/* ------------------------------------------------------------------ */
/* Partial precision: half floats (--pp=fp16)                          */

/* IEEE binary16 conversions, every value worked out by hand: 1 sign bit,
 * 5 exponent bits (bias 15), 10 mantissa bits; round to nearest, ties to
 * the even mantissa. */
static void test_half_rounding(void **state)
{
    (void)state;
    assert_int_equal(st_half_from_float(1.0f), 0x3c00);
    assert_int_equal(st_half_from_float(-2.0f), 0xc000);
    assert_int_equal(st_half_from_float(-0.0f), 0x8000);
    /* 0.1 = 1.6 * 2^-4: mantissa 0.6 * 1024 = 614.4 -> 614 (0x266), exponent 11 */
    assert_int_equal(st_half_from_float(0.1f), 0x2e66);
    assert_true(st_half_round(0.1f) == 0.0999755859375f);
    /* ties at 1 + 2^-11 (between mantissas 0 and 1: to 0) and 1 + 3 * 2^-11
     * (between 1 and 2: to 2); just above a tie rounds up */
    assert_int_equal(st_half_from_float(1.0f + 0x1p-11f), 0x3c00);
    assert_int_equal(st_half_from_float(1.0f + 3 * 0x1p-11f), 0x3c02);
    assert_int_equal(st_half_from_float(1.0f + 0x1p-11f + 0x1p-20f), 0x3c01);
    /* 1/3 as a float is 0x3eaaaaab: mantissa 0x2aaaab >> 13 = 0x155, the
     * rest 0xaab below half of 0x2000: 0x3555 = 0.333251953125 */
    assert_int_equal(st_half_from_float(1.0f / 3.0f), 0x3555);
    assert_true(st_half_to_float(0x3555) == 0.333251953125f);
    /* overflow: 65504 is the largest half; 65520 is half way to 2^16 with
     * an odd mantissa (0x3ff), so it rounds up, to infinity */
    assert_int_equal(st_half_from_float(65504.0f), 0x7bff);
    assert_int_equal(st_half_from_float(65519.0f), 0x7bff);
    assert_int_equal(st_half_from_float(65520.0f), 0x7c00);
    assert_int_equal(st_half_from_float(-65520.0f), 0xfc00);
    assert_int_equal(st_half_from_float(1e10f), 0x7c00);
    assert_int_equal(st_half_from_float(INFINITY), 0x7c00);
    assert_true(st_half_to_float(0x7bff) == 65504.0f);
    assert_true(isinf(st_half_to_float(0xfc00)) && st_half_to_float(0xfc00) < 0);
    uint16_t n = st_half_from_float(NAN);
    assert_true((n & 0x7c00) == 0x7c00 && (n & 0x3ff) != 0);
    assert_true(isnan(st_half_round(NAN)));
    /* denormals: 2^-14 is the smallest normal (0x0400), below it steps of
     * 2^-24 (0x0001 the smallest); 2^-25 is half a step: a tie, to 0 */
    assert_int_equal(st_half_from_float(0x1p-14f), 0x0400);
    assert_int_equal(st_half_from_float(0x1p-24f), 0x0001);
    assert_int_equal(st_half_from_float(0x1p-25f), 0x0000);
    assert_int_equal(st_half_from_float(-0x1p-25f), 0x8000);
    assert_int_equal(st_half_from_float(0x1p-25f * (1.0f + 0x1p-23f)), 0x0001);
    assert_int_equal(st_half_from_float(3 * 0x1p-25f), 0x0002);  /* 1.5 steps: to 2 */
    assert_int_equal(st_half_from_float(5.5f * 0x1p-24f), 0x0006); /* to the even 6 */
    assert_int_equal(st_half_from_float(6.5f * 0x1p-24f), 0x0006);
    assert_int_equal(st_half_from_float(1023 * 0x1p-24f), 0x03ff);
    assert_int_equal(st_half_from_float(1023.5f * 0x1p-24f), 0x0400); /* up into the normals */
    assert_int_equal(st_half_from_float(1e-40f), 0x0000); /* a float denormal */
    assert_true(st_half_to_float(0x0001) == 0x1p-24f);
    assert_true(st_half_to_float(0x03ff) == 1023 * 0x1p-24f);
}

/* _pp instructions under --pp=fp16: sources rounded, every step rounded. */
static void test_pp_fp16_arithmetic(void **state)
{
    (void)state;
    const char *src = "ps_2_0\n"
                      "dcl t0\n"
                      "dcl t1\n"
                      "add_pp r0, t0, t1\n"     /* sources, then the sum, in half */
                      "add r1, t0, t1\n"        /* no _pp: float32 */
                      "mul_pp r2, t0, t0\n"
                      "mul_pp r3, t1, t1\n"
                      "rcp_pp r4.x, t1.z\n"
                      "mov_sat_pp r4.yzw, t1.z\n"
                      "mov oC0, r0\n"
                      "mov oC1, r1\n"
                      "mov oC2, r2\n"
                      "mov oC3, r3\n"
                      "mov oDepth, r4.x\n";
    const char *json = "{\"invocations\": ["
                       "{\"t0\": [1000.3, 300, 0.000244140625, 0.0001220703125],"
                       " \"t1\": [0.1, 1, 3, 0.0003662109375]}]}";
    struct fx *f = run_pp(src, json, false);
    /* 1000.3 -> 1000.5 (steps of 0.5 in [512, 1024)); 0.1 -> 0.0999755859375;
     * the sum 1000.5999755859375 -> 1000.5; 3 + 2^-12 -> 3 (steps of 2^-9 in
     * [2, 4)); 2^-13 + 3 * 2^-13 = 2^-11 exactly */
    CHECK4(outv(f, 0, "oC0"), 1000.5f, 301.0f, 3.0f, 0.00048828125f);
    /* float32: 1000.3f + 0.1f */
    CHECK4(outv(f, 0, "oC1"), 1000.3f + 0.1f, 301.0f, 3.000244140625f, 0.0004882812500f);
    /* overflow: 1000.5^2 and 300^2 = 90000 are past 65504: infinity;
     * 2^-12 * 2^-12 = 2^-24, the smallest denormal, exactly;
     * 2^-13 * 2^-13 = 2^-26, a quarter step: 0 */
    CHECK4(outv(f, 0, "oC2"), INF, INF, 0x1p-24f, 0.0f);
    /* 0.0999755859375^2 = 0.009995117783546448 -> steps of 2^-17 in
     * [2^-7, 2^-6): 1310.07 steps -> 1310 * 2^-17 = 0.0099945068359375;
     * 3 * 2^-13 squared = 9 * 2^-26 = 2.25 steps of 2^-24 -> 2 * 2^-24 */
    CHECK4(outv(f, 0, "oC3"), 0.0099945068359375f, 1.0f, 9.0f, 2 * 0x1p-24f);
    /* 1/3 -> 0x3555 */
    CHECK1(outv(f, 0, "oDepth"), 0.333251953125f);
    fx_free(f);

    /* without --pp=fp16 _pp changes nothing */
    f = run(src, json);
    CHECK4(outv(f, 0, "oC0"), 1000.3f + 0.1f, 301.0f, 3.000244140625f, 0.00048828125f);
    CHECK1(outv(f, 0, "oDepth"), 1.0f / 3.0f);
    fx_free(f);
}

/* The two readings of a multiply-add in half: the product rounded to half
 * first, or rounded with the sum; dot products step by step. */
static void test_pp_fp16_muladd_readings(void **state)
{
    (void)state;
    const char *src = "ps_2_0\n"
                      "dcl t0\n"
                      "dcl t1\n"
                      "mad_pp r0, t0, t0, t1\n"
                      "dp3_pp r1, t0, t1\n"
                      "dp3 r2, t0, t1\n"
                      "mov oC0, r0\n"
                      "mov oC1, r1\n"
                      "mov oC2, r2\n";
    /* a = 1 + 2^-10 (a half); a * a = 1 + 2^-9 + 2^-20 */
    const char *json = "{\"invocations\": ["
                       "{\"t0\": [1.0009765625, 1, 0, 0], \"t1\": [0.00048828125, 0.00048828125, 0, 0]}]}";
    struct fx *f = run_pp(src, json, false);
    /* rounded product 1 + 2^-9, plus 2^-11: half a step (2^-10) above, a
     * tie, to the even mantissa 2: 1 + 2^-9 */
    CHECK1(outv(f, 0, "oC0"), 1.001953125f);
    /* a * 2^-11 = 2^-11 + 2^-21 -> 2^-11 (steps of 2^-21 there: exact, in
     * fact: 1025 * 2^-21); plus 1 * 2^-11: 2^-10 + 2^-21 -> steps of 2^-20:
     * a tie between 1024 and 1025 steps, to 1024: 2^-10 */
    CHECK1(outv(f, 0, "oC1"), 0.0009765625f);
    /* float32: 2^-11 + 2^-21 + 2^-11 = 2^-10 + 2^-21 */
    CHECK1(outv(f, 0, "oC2"), 0x1p-10f + 0x1p-21f);
    fx_free(f);
    f = run_pp(src, json, true);
    /* fused: 1 + 2^-9 + 2^-20 + 2^-11 is above the tie: 1 + 3 * 2^-10 */
    CHECK1(outv(f, 0, "oC0"), 1.0029296875f);
    /* fused dot: the first product rounded (2^-11 + 2^-21 exactly), then
     * 1 * 2^-11 added with one rounding: the same tie, 2^-10 */
    CHECK1(outv(f, 0, "oC1"), 0.0009765625f);
    fx_free(f);
}

/* dcl_pp: every reader sees the declared lanes in half; texld_pp samples
 * at the coordinates as given and rounds the texel. */
static void test_pp_fp16_dcl_pp_and_texld(void **state)
{
    (void)state;
    const char *src = "ps_2_0\n"
                      "dcl_pp t0.xy\n"
                      "dcl t1\n"
                      "dcl_2d s0\n"
                      "mov r0, t0\n"            /* no _pp: t0.xy are halves anyway */
                      "texld_pp r1, t1, s0\n"
                      "texld r2, t1, s0\n"
                      "mov oC0, r0\n"
                      "mov oC1, r1\n"
                      "mov oC2, r2\n";
    /* 2x1 texture; u = 0.49999 is texel 0 (0.99998 * 2 floors to 0), while
     * u rounded to half would be 0.5: texel 1 */
    const char *json = "{\"textures\": {\"s0\": {\"type\": \"2d\", \"width\": 2, \"height\": 1,"
                       " \"texels\": [[0.1, 0.2, 1000.3, 1], [5, 6, 7, 8]]}},"
                       " \"invocations\": [{\"t0\": [0.1, 1000.3, 0.1, 0.1],"
                       " \"t1\": [0.49999, 0.5, 0, 1]}]}";
    struct fx *f = run_pp(src, json, false);
    CHECK4(outv(f, 0, "oC0"), 0.0999755859375f, 1000.5f, 0.1f, 0.1f);
    /* 0.2 = 1.6 * 2^-3 -> 0.199951171875 */
    CHECK4(outv(f, 0, "oC1"), 0.0999755859375f, 0.199951171875f, 1000.5f, 1.0f);
    CHECK4(outv(f, 0, "oC2"), 0.1f, 0.2f, 1000.3f, 1.0f);
    fx_free(f);
}

static void test_json_output_text(void **state)
{
    (void)state;
    const char *src = "ps_2_0\n"
                      "dcl t0\n"
                      "def c1, 0.1, 0, 0, 0\n"
                      "texkill t0\n"
                      "add r0, t0, c0\n"
                      "mov oC0, r0\n"
                      "mov oC1, -r0\n"
                      "mov oDepth, c1.x\n";
    const char *json = "{\"constants\": {\"c0\": [1, \"-inf\", 0.5]}, \"invocations\": ["
                       "{\"t0\": [1, 2, \"nan\", 1]}, {\"t0\": [-1]}]}";
    struct st_ctx *ctx = st_ctx_create("t.asm", src, strlen(src), 0);
    struct st_arena *a = st_arena_create();
    struct st_shader *sh = st_parse_d3d9(ctx, a);
    assert_non_null(sh);
    assert_true(st_check(ctx, sh));
    struct st_buf out = {0};
    assert_true(st_interp_run(ctx, sh, "in.json", json, strlen(json), ST_FLOAT_IEEE, &out));
    /* c0 short: (1, -inf, 0.5, 1); 0.1f prints as 0.100000001 with %.9g */
    assert_string_equal(out.data,
                        "{\"invocations\": [\n"
                        "  {\"oC0\": [2, \"-inf\", \"nan\", 2], \"oC1\": [-2, \"inf\", \"nan\", -2],"
                        " \"oDepth\": [0.100000001]},\n"
                        "  {\"discarded\": true}\n"
                        "]}\n");
    st_buf_free(&out);
    st_arena_destroy(a);
    st_ctx_destroy(ctx);
}

/* Runs the inputs parser alone and returns the first error message. */
static char *inputs_error(const char *src, const char *json)
{
    struct st_ctx *ctx = st_ctx_create("t.asm", src, strlen(src), 0);
    struct st_arena *a = st_arena_create(), *ia = st_arena_create();
    bool arb = strncmp(src, "!!ARB", 5) == 0;
    struct st_shader *sh = arb ? st_parse_arb(ctx, a) : st_parse_d3d9(ctx, a);
    assert_non_null(sh);
    assert_true(arb ? st_check_arb(ctx, sh) : st_check(ctx, sh));
    struct st_run_inputs *in = malloc(sizeof(*in));
    bool ok = st_run_inputs_parse(ctx, sh, NULL, json, strlen(json), ia, in);
    struct st_result res = {0};
    assert_true(st_ctx_export(ctx, &res));
    char *msg = NULL;
    for (size_t i = 0; i < res.num_diagnostics; i++) {
        if (!msg && res.diagnostics[i].severity == ST_SEVERITY_ERROR) {
            assert_int_equal(res.diagnostics[i].code, ST_E_INPUTS);
            msg = strdup(res.diagnostics[i].message);
        }
        free((char *)res.diagnostics[i].message);
        free((char *)res.diagnostics[i].source_line);
    }
    if (res.num_diagnostics)
        free((char *)res.diagnostics[0].file);
    free((void *)res.diagnostics);
    assert_true(ok == (msg == NULL));
    free(in);
    st_arena_destroy(a);
    st_arena_destroy(ia);
    st_ctx_destroy(ctx);
    return msg;
}

static void expect_error(const char *src, const char *json, const char *want)
{
    char *msg = inputs_error(src, json);
    if (!msg)
        fail_msg("no error for %s", json);
    if (strncmp(msg, want, strlen(want)) != 0)
        fail_msg("got \"%s\", expected it to start with \"%s\"", msg, want);
    free(msg);
}

static void test_json_errors(void **state)
{
    (void)state;
    const char *vs = "vs_2_0\ndcl_position v0\nmov oPos, v0\n";
    const char *ps = "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n";
    expect_error(vs, "{\"invocations\": [{}, {}, {}, {\"v0\": [1, 2, true]}]}",
                 "invocations[3].v0[2]: expected a number or \"nan\"/\"inf\"/\"-inf\"");
    expect_error(vs, "{\"invocations\": [{\"t0\": [1]}]}",
                 "invocations[0].t0: not an input register of vs_2_0");
    expect_error(vs, "{\"invocations\": [{\"v0\": [1, 2, 3, 4, 5]}]}",
                 "invocations[0].v0: expected 1 to 4 components");
    expect_error(vs, "{\"invocations\": [{\"v0\": \"nan\"}]}",
                 "invocations[0].v0: expected an array");
    expect_error(vs, "{\"constants\": {\"c256\": [1]}, \"invocations\": []}",
                 "constants.c256: not a float constant of vs_2_0");
    expect_error(vs, "{\"constants\": {\"x1\": [1]}, \"invocations\": []}",
                 "constants.x1: not a float constant");
    expect_error(vs, "{\"int_constants\": {\"i0\": [1.5]}, \"invocations\": []}",
                 "int_constants.i0[0]: expected an integer");
    expect_error(vs, "{\"bool_constants\": {\"b0\": 1}, \"invocations\": []}",
                 "bool_constants.b0: expected true or false");
    expect_error(vs, "{\"constants\": {}}", "invocations: missing");
    expect_error(vs, "{\"invocation\": []}", "invocation: unknown key");
    expect_error(vs, "[1]", "$: expected an object");
    expect_error(vs, "{\"invocations\": [}", "line 1, column ");
    expect_error(vs, "{\"invocations\": [], \"invocations\": []}", "line 1");
    expect_error(ps, "{\"invocations\": [{\"vPos\": [1, 2]}]}",
                 "invocations[0].vPos: not an input register of ps_2_0");
    expect_error(ps,
                 "{\"textures\": {\"s0\": {\"type\": \"2d\", \"width\": 2, \"height\": 1,"
                 " \"texels\": [[1,1,1,1]]}}, \"invocations\": []}",
                 "textures.s0.texels: expected 2 texels");
    expect_error(ps,
                 "{\"textures\": {\"s0\": {\"type\": \"cube\", \"width\": 1, \"height\": 1,"
                 " \"texels\": [[1],[1],[1],[1],[1],[1]]}}, \"invocations\": []}",
                 "textures.s0.type: \"cube\", but the shader declares s0 as dcl_2d");
    expect_error(ps,
                 "{\"textures\": {\"s0\": {\"type\": \"2d\", \"width\": 1, \"height\": 1,"
                 " \"texels\": [[1, \"x\"]]}}, \"invocations\": []}",
                 "textures.s0.texels[0][1]: expected a number");
    expect_error(ps, "{\"textures\": {\"s0\": {\"type\": \"1d\"}}, \"invocations\": []}",
                 "textures.s0.type: expected \"2d\", \"cube\" or \"volume\"");
}

static void test_json_def_wins(void **state)
{
    (void)state;
    struct fx *f = run("vs_2_0\n"
                       "def c0, 1, 2, 3, 4\n"
                       "add oPos, c0, c1\n",
                       "{\"constants\": {\"c0\": [9, 9, 9, 9], \"c1\": [10]}, "
                       "\"invocations\": [{}]}");
    CHECK4(outv(f, 0, "oPos"), 11, 2, 3, 5); /* c1 short: (10, 0, 0, 1) */
    assert_int_equal(count_code(f->ctx, ST_W_IGNORED), 1);
    fx_free(f);
}

static void test_json_unused_input_warning(void **state)
{
    (void)state;
    /* v1 is given twice but never read: one warning; t1 of ps_1_1 is read
     * through "tex t1" (its coordinates), so no warning for it. */
    struct fx *f = run("vs_2_0\n"
                       "dcl_position v0\n"
                       "mov oPos, v0\n",
                       "{\"invocations\": [{\"v0\": [1], \"v1\": [2]}, {\"v1\": [3]}]}");
    assert_int_equal(count_code(f->ctx, ST_W_UNUSED_INPUT), 1);
    fx_free(f);
    f = run("ps_1_1\n"
            "tex t1\n"
            "mov r0, t1\n",
            "{\"invocations\": [{\"t1\": [0.5, 0.5]}]}");
    assert_int_equal(count_code(f->ctx, ST_W_UNUSED_INPUT), 0);
    fx_free(f);
}

static void test_outputs_order_and_scalars(void **state)
{
    (void)state;
    struct fx *f = run("vs_1_1\n"
                       "dcl_position v0\n"
                       "def c0, 0.5, 2, 3, 4\n"
                       "mov oT0, c0\n"
                       "mov oFog, c0.y\n"
                       "mov oD0, c0\n"
                       "mov oPos, v0\n"
                       "mov oPts, c0.z\n",
                       "{\"invocations\": [{}]}");
    const struct st_run_outputs *o = &f->outs[0];
    assert_int_equal(o->count, 5);
    const char *order[] = {"oPos", "oD0", "oT0", "oFog", "oPts"};
    for (unsigned k = 0; k < 5; k++) {
        char buf[8];
        st_run_output_name(o->reg[k].file, o->reg[k].index, buf);
        assert_string_equal(buf, order[k]);
    }
    assert_int_equal(o->reg[3].ncomp, 1);
    CHECK1(outv(f, 0, "oFog"), 2);
    CHECK1(outv(f, 0, "oPts"), 3);
    fx_free(f);
}

/* ------------------------------------------------------------------ */
/* ARB programs: the instructions only ARB has, and ARB's own rules     */
/* (ARB_vertex_program / ARB_fragment_program pseudo-code).             */

static void test_arb_vp_instructions(void **state)
{
    (void)state;
    const char *src =
        "!!ARBvp1.0\n"
        "ATTRIB a = vertex.attrib[1];\n"
        "ATTRIB b = vertex.attrib[2];\n"
        "PARAM arr[3] = { {10, 11, 12, 13}, {20, 21, 22, 23}, {30, 31, 32, 33} };\n"
        "ADDRESS A0;\n"
        "DPH result.texcoord[0], a, b;\n"
        "FLR result.texcoord[1], a;\n"
        "XPD result.texcoord[2], a, b;\n"
        "SWZ result.texcoord[3], a, -w, 0, 1, -x;\n"
        "ARL A0.x, a.x;\n"
        "MOV result.texcoord[4], arr[A0.x + 1];\n"
        "LIT result.texcoord[5], b;\n"
        "MAX result.texcoord[6], vertex.attrib[3], vertex.attrib[4];\n"
        "MIN result.texcoord[7], vertex.attrib[3], vertex.attrib[4];\n"
        "MOV result.position, a;\n"
        "END\n";
    struct fx *f = run(src,
                       "{\"invocations\": ["
                       "{\"vertex.attrib[1]\": [-0.5, 2, -3, 4], \"vertex.attrib[2]\": [1, 0.5, 2, 3],"
                       " \"vertex.attrib[3]\": [-0.0, 0, \"nan\", 1],"
                       " \"vertex.attrib[4]\": [0, -0.0, 1, \"nan\"]},"
                       "{\"vertex.attrib[1]\": [2.75, 0, 0, 0], \"vertex.attrib[2]\": [1, 0, 0, 0]},"
                       "{\"vertex.attrib[1]\": [-2.5, 0, 0, 0], \"vertex.attrib[2]\": [-1, 5, 5, 5]},"
                       "{\"vertex.attrib[1]\": [0, 0, 0, 0], \"vertex.attrib[2]\": [1, 2, 0, 200]}]}");
    /* DPH: a.xyz . b.xyz + b.w = -0.5 + 1 - 6 + 3 */
    CHECK4(outv(f, 0, "result.texcoord[0]"), -2.5f, -2.5f, -2.5f, -2.5f);
    /* FLR: floor per component */
    CHECK4(outv(f, 0, "result.texcoord[1]"), -1.0f, 2.0f, -3.0f, 4.0f);
    /* XPD: (ay*bz - az*by, az*bx - ax*bz, ax*by - ay*bx) = (4 + 1.5, -3 + 1, -0.25 - 2);
     * w is undefined in ARB, shadertrans writes 1 */
    CHECK4(outv(f, 0, "result.texcoord[2]"), 5.5f, -2.0f, -2.25f, 1.0f);
    /* SWZ a, -w, 0, 1, -x */
    CHECK4(outv(f, 0, "result.texcoord[3]"), -4.0f, 0.0f, 1.0f, 0.5f);
    /* ARL floors: floor(-0.5) = -1 -> arr[0] (mova's rounding would give arr[1]);
     * floor(2.75) = 2 -> arr[3]: outside the array, reads 0 */
    CHECK4(outv(f, 0, "result.texcoord[4]"), 10.0f, 11.0f, 12.0f, 13.0f);
    CHECK4(outv(f, 1, "result.texcoord[4]"), 0.0f, 0.0f, 0.0f, 0.0f);
    /* floor(-2.5) = -3 -> arr[-2]: outside, 0 */
    CHECK4(outv(f, 2, "result.texcoord[4]"), 0.0f, 0.0f, 0.0f, 0.0f);
    /* LIT (1, 0.5, 2, 3): x > 0, so z = 0.5^3 */
    CHECK4(outv(f, 0, "result.texcoord[5]"), 1.0f, 1.0f, 0.125f, 1.0f);
    /* LIT (1, 0, 0, 0): ARB defines 0^0 = 1 (D3D9's lit gives 0 when y <= 0) */
    CHECK4(outv(f, 1, "result.texcoord[5]"), 1.0f, 1.0f, 1.0f, 1.0f);
    /* LIT (-1, 5, 5, 5): x clamped to 0, so y = 0 and z = 0 */
    CHECK4(outv(f, 2, "result.texcoord[5]"), 1.0f, 0.0f, 0.0f, 1.0f);
    /* LIT (1, 2, 0, 200): the power is clamped to 128 - epsilon (the float below 128) */
    CHECK4(outv(f, 3, "result.texcoord[5]"), 1.0f, 1.0f,
           (float)pow(2.0, 128.0 - 0x1p-17), 1.0f);
    /* ARB MAX is (a > b) ? a : b: max(-0, +0) = +0, max(+0, -0) = -0,
     * max(NaN, 1) = 1, max(1, NaN) = NaN */
    CHECK4(outv(f, 0, "result.texcoord[6]"), 0.0f, -0.0f, 1.0f, NAN);
    /* ARB MIN is (a > b) ? b : a: min(-0, +0) = -0, min(+0, -0) = +0,
     * min(NaN, 1) = NaN, min(1, NaN) = 1 (D3D9's min gives the opposite) */
    CHECK4(outv(f, 0, "result.texcoord[7]"), -0.0f, 0.0f, NAN, 1.0f);
    fx_free(f);
}

/* ARB RCP is the IEEE quotient: RCP(-0) = -inf (D3D9's rcp gives +inf,
 * test_gen's test_arb_rcp_is_the_quotient has both on the Gen engine). */
static void test_arb_rcp_of_negative_zero(void **state)
{
    (void)state;
    struct fx *f = run("!!ARBvp1.0\nATTRIB a = vertex.attrib[1];\n"
                       "RCP result.texcoord[0].x, a.x;\nRCP result.texcoord[0].y, a.y;\n"
                       "RCP result.texcoord[0].z, a.z;\nRCP result.texcoord[0].w, a.w;\n"
                       "MOV result.position, a;\nEND\n",
                       "{\"invocations\": [{\"vertex.attrib[1]\": [-0.0, 0, 1, 4]}]}");
    CHECK4(outv(f, 0, "result.texcoord[0]"), -INF, INF, 1.0f, 0.25f);
    fx_free(f);
}

static void test_arb_fp_instructions(void **state)
{
    (void)state;
    const char *src =
        "!!ARBfp1.0\n"
        "OPTION ARB_draw_buffers;\n"
        "ATTRIB p = fragment.texcoord[0];\n"
        "ATTRIB q = fragment.texcoord[1];\n"
        "TEMP t;\n"
        "SCS t.xy, p.x;\n"
        "SIN t.z, p.y;\n"
        "COS t.w, p.y;\n"
        "MOV result.color[0], t;\n"
        "CMP result.color[1], q, p, -p;\n"
        "LRP result.color[5], fragment.texcoord[6], fragment.texcoord[7], q;\n"
        "KIL fragment.texcoord[2];\n"
        "TEX result.color[2], fragment.texcoord[3], texture[0], RECT;\n"
        "TXP result.color[3], fragment.texcoord[4], texture[1], 1D;\n"
        "TXB result.color[4], fragment.texcoord[5], texture[2], 2D;\n"
        "END\n";
    const char *json =
        "{\"textures\": {"
        " \"texture[0]\": {\"type\": \"rect\", \"width\": 2, \"height\": 2,"
        "  \"texels\": [[1], [2], [3], [4]]},"
        " \"texture[1]\": {\"type\": \"1d\", \"width\": 4, \"texels\": [[5], [6], [7], [8]]},"
        " \"texture[2]\": {\"type\": \"2d\", \"width\": 2, \"height\": 1, \"texels\": [[9], [10]]}},"
        " \"invocations\": ["
        "{\"fragment.texcoord[0]\": [0, 0, 0.25, 1], \"fragment.texcoord[1]\": [-1, 0, \"nan\", 2],"
        " \"fragment.texcoord[2]\": [1, 1, 1, 1], \"fragment.texcoord[3]\": [1.5, 1.25],"
        " \"fragment.texcoord[4]\": [0.5, 0, 0, 2], \"fragment.texcoord[5]\": [0.75, 0, 0, 100],"
        " \"fragment.texcoord[6]\": [0.1, 1, 0, 0.5], \"fragment.texcoord[7]\": [3, 7, 5, 4]},"
        "{\"fragment.texcoord[2]\": [1, 1, 1, -0.5]},"
        "{\"fragment.texcoord[2]\": [0, -0.0, \"nan\", 1], \"fragment.texcoord[3]\": [5, -3],"
        " \"fragment.texcoord[4]\": [-0.25, 0, 0, 1], \"fragment.texcoord[5]\": [-0.25, 0, 0, 1]}]}";
    struct fx *f = run(src, json);
    /* SCS 0 = (cos 0, sin 0); SIN 0 = 0; COS 0 = 1 */
    CHECK4(outv(f, 0, "result.color"), 1.0f, 0.0f, 0.0f, 1.0f);
    /* ARB CMP is (q < 0) ? p : -p: NaN and 0 take -p */
    CHECK4(outv(f, 0, "result.color[1]"), 0.0f, -0.0f, -0.25f, -1.0f);
    /* ARB LRP is a * b + (1 - a) * c, each step rounded to float: lane x
     * (a = 0.1f, b = 3, c = -1) is 0.1f*3 + 0.9f*-1 = 0.3f' - 0.9f', which
     * differs from D3D9's a * (b - c) + c = 0.1f*4 - 1 in the last bit;
     * lane y 1*7 + 0*0; lane z 0*5 + 1*NaN; lane w 0.5*4 + 0.5*2. */
    CHECK4(outv(f, 0, "result.color[5]"), 0.1f * 3.0f + (1.0f - 0.1f) * -1.0f, 7.0f, NAN, 3.0f);
    /* RECT: unnormalized (1.5, 1.25) -> texel (1, 1); clamped (5, -3) -> (1, 0) */
    CHECK4(outv(f, 0, "result.color[2]"), 4.0f, 0.0f, 0.0f, 1.0f);
    CHECK4(outv(f, 2, "result.color[2]"), 2.0f, 0.0f, 0.0f, 1.0f);
    /* TXP 1D: s / q = 0.25 -> texel floor(0.25 * 4) = 1; -0.25 wraps to texel 3 */
    CHECK4(outv(f, 0, "result.color[3]"), 6.0f, 0.0f, 0.0f, 1.0f);
    CHECK4(outv(f, 2, "result.color[3]"), 8.0f, 0.0f, 0.0f, 1.0f);
    /* TXB: the bias selects nothing (level 0 only): s = 0.75 -> texel 1; -0.25 -> 1 */
    CHECK4(outv(f, 0, "result.color[4]"), 10.0f, 0.0f, 0.0f, 1.0f);
    CHECK4(outv(f, 2, "result.color[4]"), 10.0f, 0.0f, 0.0f, 1.0f);
    /* KIL tests all four components (w < 0 discards); -0 and NaN are not < 0 */
    assert_false(f->outs[0].discarded);
    assert_true(f->outs[1].discarded);
    assert_false(f->outs[2].discarded);
    fx_free(f);
}

static void test_arb_shadow_and_state_defaults(void **state)
{
    (void)state;
    const char *src =
        "!!ARBfp1.0\n"
        "OPTION ARB_fragment_program_shadow;\n"
        "OPTION ARB_draw_buffers;\n"
        "TEX result.color, fragment.texcoord[0], texture[0], SHADOW2D;\n"
        "MOV result.color[1], state.light[0].diffuse;\n"
        "MOV result.color[2], state.light[1].position;\n"
        "MOV result.color[3], state.lightmodel.ambient;\n"
        "MOV result.color[4], state.matrix.modelview.invtrans.row[2];\n"
        "MOV result.color[5], state.fog.params;\n"
        "MOV result.color[6], program.local[7];\n"
        "MOV result.color[7], state.depth.range;\n"
        "END\n";
    struct fx *f = run(src,
                       "{\"textures\": {\"texture[0]\": {\"type\": \"2d\", \"width\": 1,"
                       " \"height\": 1, \"texels\": [[0.5]]}},"
                       " \"constants\": {\"program.local[7]\": [1, 2]},"
                       " \"invocations\": [{\"fragment.texcoord[0]\": [0, 0, 0.5]},"
                       " {\"fragment.texcoord[0]\": [0, 0, 0.75]}]}");
    /* GL_LEQUAL: r = 0.5 <= depth 0.5 -> 1; 0.75 -> 0; luminance (L, L, L, 1) */
    CHECK4(outv(f, 0, "result.color"), 1.0f, 1.0f, 1.0f, 1.0f);
    CHECK4(outv(f, 1, "result.color"), 0.0f, 0.0f, 0.0f, 1.0f);
    /* OpenGL 1.5 initial state: light 0 diffuse white, others' position
     * (0, 0, 1, 0), light-model ambient 0.2, matrices identity, fog
     * (density 1, start 0, end 1, 1/(end - start)), depth range (0, 1, 1) */
    CHECK4(outv(f, 0, "result.color[1]"), 1.0f, 1.0f, 1.0f, 1.0f);
    CHECK4(outv(f, 0, "result.color[2]"), 0.0f, 0.0f, 1.0f, 0.0f);
    CHECK4(outv(f, 0, "result.color[3]"), 0.2f, 0.2f, 0.2f, 1.0f);
    CHECK4(outv(f, 0, "result.color[4]"), 0.0f, 0.0f, 1.0f, 0.0f);
    CHECK4(outv(f, 0, "result.color[5]"), 1.0f, 0.0f, 1.0f, 1.0f);
    /* given short: filled from (0, 0, 0, 1) */
    CHECK4(outv(f, 0, "result.color[6]"), 1.0f, 2.0f, 0.0f, 1.0f);
    CHECK4(outv(f, 0, "result.color[7]"), 0.0f, 1.0f, 1.0f, 1.0f);
    fx_free(f);
}

static void test_arb_options_fixed_function(void **state)
{
    (void)state;
    /* ARB_position_invariant: result.position = mvp rows . vertex.position,
     * although the program names neither. */
    struct fx *f = run("!!ARBvp1.0\nOPTION ARB_position_invariant;\n"
                       "MOV result.color, vertex.color;\nEND\n",
                       "{\"constants\": {\"state.matrix.mvp.row[0]\": [2, 0, 0, 1],"
                       " \"state.matrix.mvp.row[3]\": [0, 0, 1, 0]},"
                       " \"invocations\": [{\"vertex.position\": [1, 2, 3, 1], \"vertex.color\": [0.5]}]}");
    /* row 0: 2*1 + 1*1 = 3; rows 1, 2 identity: 2, 3; row 3: z = 3 */
    CHECK4(outv(f, 0, "result.position"), 3.0f, 2.0f, 3.0f, 3.0f);
    CHECK4(outv(f, 0, "result.color"), 0.5f, 0.0f, 0.0f, 1.0f);
    fx_free(f);

    /* ARB_fog_linear: f = (end - z) / (end - start) clamped, color.rgb =
     * f * C + (1 - f) * fog color; alpha unchanged. */
    const char *fog = "!!ARBfp1.0\nOPTION ARB_fog_linear;\n"
                      "MOV result.color, fragment.color;\nEND\n";
    f = run(fog, "{\"constants\": {\"state.fog.params\": [0, 2, 10, 0.125],"
                 " \"state.fog.color\": [1, 0, 0.5, 0.25]},"
                 " \"invocations\": [{\"fragment.color\": [0, 1, 0.5, 0.75], \"fragment.fogcoord\": [4]},"
                 " {\"fragment.color\": [0, 1, 0.5, 0.75], \"fragment.fogcoord\": [12]},"
                 " {\"fragment.color\": [0, 1, 0.5, 0.75], \"fragment.fogcoord\": [-1]},"
                 " {\"fragment.color\": [2, -1, 0.5, 1.5], \"fragment.fogcoord\": [4]}]}");
    /* z = 4: f = 6 * 0.125 = 0.75: (0.25*1, 0.75, 0.5, alpha 0.75) */
    CHECK4(outv(f, 0, "result.color"), 0.25f, 0.75f, 0.5f, 0.75f);
    /* z = 12: f = -0.25 -> 0: the fog colour */
    CHECK4(outv(f, 1, "result.color"), 1.0f, 0.0f, 0.5f, 0.75f);
    /* z = -1: f = 1.375 -> 1: the fragment's colour */
    CHECK4(outv(f, 2, "result.color"), 0.0f, 1.0f, 0.5f, 0.75f);
    /* fog applies to "the program's final clamped color": (1, 0, 0.5, 1)
     * first, then f = 0.75: (0.75*0 + 1, 0.75*0 + 0, 0.5, 1) */
    CHECK4(outv(f, 3, "result.color"), 1.0f, 0.0f, 0.5f, 1.0f);
    fx_free(f);

    /* ARB_fog_exp / exp2 with density 0 give f = e^0 = 1: no fog. */
    f = run("!!ARBfp1.0\nOPTION ARB_fog_exp2;\nMOV result.color, fragment.color;\nEND\n",
            "{\"constants\": {\"state.fog.params\": [0, 0, 1, 1], \"state.fog.color\": [1, 1, 1, 1]},"
            " \"invocations\": [{\"fragment.color\": [0.5, 0.25, 0, 0], \"fragment.fogcoord\": [3]}]}");
    CHECK4(outv(f, 0, "result.color"), 0.5f, 0.25f, 0.0f, 0.0f);
    fx_free(f);

    /* The blend is a multiply-add (docs/gensim.md, rule 1), Cfog + f (C -
     * Cfog), in both readings.  z = 2^-12, end 1, 1/(end - start) 1: f =
     * 1 - 2^-12 exactly.  Red: C = 0, Cfog = 1 - 2^-20, so C - Cfog =
     * -(1 - 2^-20) and the exact product is -(1 - 2^-12 - 2^-20 + 2^-32).
     * Rounded (steps of 2^-24 below 1) the 2^-32 goes: -(1 - 2^-12 -
     * 2^-20), plus Cfog: 2^-12.  Fused, the exact sum 2^-12 - 2^-32 is a
     * float (steps of 2^-36 below 2^-12): 0.00024414039216935634613037109375.
     * Green: C = 1, Cfog = 0.5: 0.5 + (0.5 - 2^-13) = 1 - 2^-13 in both;
     * blue C = Cfog = 0.5; alpha unchanged. */
    const char *lin = "{\"constants\": {\"state.fog.params\": [0, 0, 1, 1],"
                      " \"state.fog.color\": [0.99999904632568359375, 0.5, 0.5, 0]},"
                      " \"invocations\": [{\"fragment.color\": [0, 1, 0.5, 0.75],"
                      " \"fragment.fogcoord\": [0.000244140625]}]}";
    f = run(fog, lin);
    CHECK4(outv(f, 0, "result.color"), 0x1p-12f, 1.0f - 0x1p-13f, 0.5f, 0.75f);
    memset(f->outs, 0, (f->in.num_invocations + 1) * sizeof(*f->outs));
    assert_true(st_interp_execute_ex(f->ctx, f->sh, &f->in, ST_FLOAT_IEEE, true, f->outs));
    CHECK4(outv(f, 0, "result.color"), 0x1p-12f - 0x1p-32f, 1.0f - 0x1p-13f, 0.5f, 0.75f);
    fx_free(f);
}

/* The fixed-function steps read fragment.fogcoord and vertex.position
 * from the program's own input slot when it binds them (one value, input
 * once), from a slot past the program's otherwise; the results are the
 * same either way.  Fog as above: z = 4, f = 0.75. */
static void test_arb_option_slots_shared(void **state)
{
    (void)state;
    const char *fp = "!!ARBfp1.0\nOPTION ARB_fog_linear;\n"
                     "ADD result.color, fragment.color, fragment.fogcoord.x;\nEND\n";
    struct fx *f = run(fp, "{\"constants\": {\"state.fog.params\": [0, 2, 10, 0.125],"
                           " \"state.fog.color\": [1, 0, 0.5, 0.25]},"
                           " \"invocations\": [{\"fragment.color\": [-4, -3, -3.5, -3.25],"
                           " \"fragment.fogcoord\": [4]}]}");
    struct st_arb_run_slots sl;
    st_arb_run_slots(f->sh, &sl);
    assert_int_equal(f->sh->arb->num_inputs, 2);
    assert_string_equal(f->sh->arb->inputs[sl.fog_in].binding, "fragment.fogcoord");
    /* color + 4 = (0, 1, 0.5, 0.75), then fogged with f = 0.75 */
    CHECK4(outv(f, 0, "result.color"), 0.25f, 0.75f, 0.5f, 0.75f);
    fx_free(f);
    f = run("!!ARBfp1.0\nOPTION ARB_fog_linear;\nMOV result.color, fragment.color;\nEND\n",
            "{\"invocations\": [{}]}");
    st_arb_run_slots(f->sh, &sl);
    assert_int_equal(sl.fog_in, (int)f->sh->arb->num_inputs);
    fx_free(f);
    f = run("!!ARBvp1.0\nOPTION ARB_position_invariant;\n"
            "MOV result.color, vertex.position;\nEND\n",
            "{\"invocations\": [{\"vertex.position\": [1, 2, 3, 1]}]}");
    st_arb_run_slots(f->sh, &sl);
    assert_string_equal(f->sh->arb->inputs[sl.pos_in].binding, "vertex.position");
    CHECK4(outv(f, 0, "result.color"), 1.0f, 2.0f, 3.0f, 1.0f);
    fx_free(f);
}

static void test_arb_json(void **state)
{
    (void)state;
    const char *vp = "!!ARBvp1.0\nMOV result.position, vertex.position;\n"
                     "MOV result.fogcoord.x, vertex.fogcoord.y;\n"
                     "MOV result.pointsize.x, program.env[3].z;\nEND\n";
    struct st_ctx *ctx = st_ctx_create("t.vp", vp, strlen(vp), 0);
    struct st_arena *a = st_arena_create();
    struct st_shader *sh = st_parse_arb(ctx, a);
    assert_non_null(sh);
    assert_true(st_check_arb(ctx, sh));
    struct st_buf out = {0};
    const char *json = "{\"constants\": {\"program.env[3]\": [0, 0, 7]},"
                       " \"invocations\": [{\"vertex.position\": [1, 2],"
                       " \"vertex.fogcoord\": [0, 0.5]}]}";
    assert_true(st_interp_run(ctx, sh, "in.json", json, strlen(json), ST_FLOAT_IEEE, &out));
    /* ARB names, fixed order, fogcoord and pointsize as one component (x) */
    assert_string_equal(out.data, "{\"invocations\": [\n"
                                  "  {\"result.position\": [1, 2, 0, 1], \"result.fogcoord\": [0.5],"
                                  " \"result.pointsize\": [7]}\n]}\n");
    st_buf_free(&out);
    st_arena_destroy(a);
    st_ctx_destroy(ctx);

    const char *fp = "!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[2], CUBE;\n"
                     "MOV result.depth.z, fragment.position.w;\nEND\n";
    expect_error(fp, "{\"invocations\": [{\"vertex.position\": [1]}]}",
                 "invocations[0].vertex.position: not an input of an ARB fragment program");
    expect_error(fp, "{\"invocations\": [{\"fragment.texcoord\": [1]}]}",
                 "invocations[0].fragment.texcoord: not an input");
    expect_error(fp, "{\"constants\": {\"c0\": [1]}, \"invocations\": []}",
                 "constants.c0: not a parameter binding of an ARB program");
    expect_error(fp, "{\"constants\": {\"program.env[256]\": [1]}, \"invocations\": []}",
                 "constants.program.env[256]: not a parameter binding");
    /* keys cut short before their member (found by tests/fuzz/fuzz_run_inputs:
     * the default-state lookup read past a missing '.') */
    expect_error(fp, "{\"constants\": {\"state.texgen[0]\": [1]}, \"invocations\": []}",
                 "constants.state.texgen[0]: not a parameter binding");
    expect_error(fp, "{\"constants\": {\"state.lightprod[0]\": [1]}, \"invocations\": []}",
                 "constants.state.lightprod[0]: not a parameter binding");
    expect_error(fp, "{\"textures\": {\"s2\": {}}, \"invocations\": []}",
                 "textures.s2: not a texture image unit");
    expect_error(fp, "{\"textures\": {\"texture[2]\": {\"type\": \"2d\", \"width\": 1,"
                     " \"height\": 1, \"texels\": [[1]]}}, \"invocations\": []}",
                 "textures.texture[2].type: \"2d\", but the program samples texture[2] with target CUBE");
    expect_error(fp, "{\"textures\": {\"texture[1]\": {\"type\": \"1d\", \"width\": 2,"
                     " \"height\": 2, \"texels\": [[1], [2], [3], [4]]}}, \"invocations\": []}",
                 "textures.texture[1].height: a 1d texture has height 1");
    expect_error(fp, "{\"bool_constants\": {}, \"invocations\": []}", "bool_constants: unknown key");
    expect_error(fp, "{\"invocations\": [{\"fragment.color\": [true]}]}",
                 "invocations[0].fragment.color[0]: expected a number");

    /* result.depth is printed as its z */
    struct fx *f = run(fp, "{\"invocations\": [{\"fragment.position\": [1, 2, 3, 0.25]}]}");
    CHECK1(outv(f, 0, "result.depth"), 0.25f);
    /* no texture given: (0, 0, 0, 1) */
    CHECK4(outv(f, 0, "result.color"), 0.0f, 0.0f, 0.0f, 1.0f);
    fx_free(f);
}

/*
 * More parameter vectors than the 256 of the run struct's fixed part (ARB
 * allows 4096): slots from 256 on are a counted array allocated only for
 * such programs; reads on both sides of 256, and relative reads that cross
 * it, see the values the inputs give; a relative read past the array is 0.
 */
static void test_arb_many_parameters(void **state)
{
    (void)state;
    const char *vp = "!!ARBvp1.0\n"
                     "PARAM t[700] = { program.local[0..699] };\n"
                     "ADDRESS a;\n"
                     "ARL a.x, vertex.attrib[1].x;\n"
                     "MOV result.texcoord[0], t[255];\n"
                     "MOV result.texcoord[1], t[256];\n"
                     "MOV result.texcoord[2], t[a.x + 250];\n"
                     "ADD result.position, t[699], vertex.position;\n"
                     "END\n";
    struct fx *f = run(vp, "{\"constants\": {\"program.local[255]\": [1, 2, 3, 4],"
                           " \"program.local[256]\": [5, 6, 7, 8], \"program.local[260]\": [-1, -2, -3, -4],"
                           " \"program.local[699]\": [0.5, 0.25, 0.125, 2]},"
                           " \"invocations\": [{\"vertex.attrib[1]\": [10], \"vertex.position\": [1, 1, 1, 1]},"
                           " {\"vertex.attrib[1]\": [5.5]}, {\"vertex.attrib[1]\": [450]}]}");
    assert_int_equal(f->in.num_c_more, 700 - 256);
    assert_non_null(f->in.c_more);
    assert_int_equal(st_run_num_consts(&f->in), 700);
    assert_null(st_run_const(&f->in, 700));
    CHECK4(st_run_const(&f->in, 699), 0.5f, 0.25f, 0.125f, 2.0f);
    CHECK4(outv(f, 0, "result.texcoord[0]"), 1.0f, 2.0f, 3.0f, 4.0f);
    CHECK4(outv(f, 0, "result.texcoord[1]"), 5.0f, 6.0f, 7.0f, 8.0f);
    CHECK4(outv(f, 0, "result.texcoord[2]"), -1.0f, -2.0f, -3.0f, -4.0f); /* t[260] */
    CHECK4(outv(f, 0, "result.position"), 1.5f, 1.25f, 1.125f, 3.0f);
    CHECK4(outv(f, 1, "result.texcoord[2]"), 1.0f, 2.0f, 3.0f, 4.0f);    /* floor(5.5) + 250 = 255 */
    CHECK4(outv(f, 1, "result.position"), 0.5f, 0.25f, 0.125f, 3.0f);   /* vertex.position (0,0,0,1) */
    CHECK4(outv(f, 2, "result.texcoord[2]"), 0.0f, 0.0f, 0.0f, 0.0f);    /* t[700]: outside */
    fx_free(f);
    /* a program within 256 slots pays for no extra array */
    f = run("!!ARBvp1.0\nMOV result.position, program.local[4095];\nEND\n", "{\"invocations\": [{}]}");
    assert_null(f->in.c_more);
    assert_int_equal(f->in.num_c_more, 0);
    fx_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mov_add_sub_mul_mad),
        cmocka_unit_test(test_arb_many_parameters),
        cmocka_unit_test(test_rcp),
        cmocka_unit_test(test_rsq),
        cmocka_unit_test(test_exp_log),
        cmocka_unit_test(test_expp_logp_vs11),
        cmocka_unit_test(test_expp_logp_vs20),
        cmocka_unit_test(test_lit),
        cmocka_unit_test(test_dst_lrp_frc),
        cmocka_unit_test(test_dp_and_matrices),
        cmocka_unit_test(test_min_max_nan),
        cmocka_unit_test(test_slt_sge_sgn_abs),
        cmocka_unit_test(test_crs_nrm_dp2add),
        cmocka_unit_test(test_sincos),
        cmocka_unit_test(test_pow),
        cmocka_unit_test(test_arb_rcp_of_negative_zero),
        cmocka_unit_test(test_arb_option_slots_shared),
        cmocka_unit_test(test_cmp_cnd),
        cmocka_unit_test(test_modifiers),
        cmocka_unit_test(test_saturate_sign_of_zero),
        cmocka_unit_test(test_saturate_pp_half_zero),
        cmocka_unit_test(test_float_rules),
        cmocka_unit_test(test_predication),
        cmocka_unit_test(test_reladdr_vs11),
        cmocka_unit_test(test_if_else_ifc),
        cmocka_unit_test(test_loop_rep_break),
        cmocka_unit_test(test_breakp_nested_loops),
        cmocka_unit_test(test_call_callnz_ret),
        cmocka_unit_test(test_unwritten_output_in_branch),
        cmocka_unit_test(test_texkill),
        cmocka_unit_test(test_texld_2d_nearest_repeat),
        cmocka_unit_test(test_texld_cube_volume),
        cmocka_unit_test(test_cube_face_coordinates),
        cmocka_unit_test(test_dsx_dsy_quads),
        cmocka_unit_test(test_dsx_divergent),
        cmocka_unit_test(test_ps1x_tex_texcoord_coissue),
        cmocka_unit_test(test_ps1x_texbem_texreg2),
        cmocka_unit_test(test_ps1x_texm3x2_texm3x3_texdp3),
        cmocka_unit_test(test_ps14_texcrd_texld_bem_texdepth),
        cmocka_unit_test(test_mova_vs20),
        cmocka_unit_test(test_ps30_vpos_vface_v_aL),
        cmocka_unit_test(test_texldl_texldb_texldd_level0),
        cmocka_unit_test(test_ps1x_texm3x3tex_spec_vspec),
        cmocka_unit_test(test_ps1x_texbem_texdp3tex_texreg2rgb),
        cmocka_unit_test(test_predicated_texkill_if_p0_callnz),
        cmocka_unit_test(test_vs30_relative_output),
        cmocka_unit_test(test_loop_zero_and_negative_count),
        cmocka_unit_test(test_step_limit),
        cmocka_unit_test(test_nop_sincos20_and_more_d3d9_rules),
        cmocka_unit_test(test_call_depth_limit),
        cmocka_unit_test(test_half_rounding),
        cmocka_unit_test(test_pp_fp16_arithmetic),
        cmocka_unit_test(test_pp_fp16_muladd_readings),
        cmocka_unit_test(test_pp_fp16_dcl_pp_and_texld),
        cmocka_unit_test(test_json_output_text),
        cmocka_unit_test(test_json_errors),
        cmocka_unit_test(test_json_def_wins),
        cmocka_unit_test(test_json_unused_input_warning),
        cmocka_unit_test(test_outputs_order_and_scalars),
        cmocka_unit_test(test_arb_vp_instructions),
        cmocka_unit_test(test_arb_fp_instructions),
        cmocka_unit_test(test_arb_shadow_and_state_defaults),
        cmocka_unit_test(test_arb_options_fixed_function),
        cmocka_unit_test(test_arb_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
