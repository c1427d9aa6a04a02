/*
 * test_limits.c — what an embedder can bound (docs/limits.md): options of
 * an older version, values out of range, the instruction limit, the
 * compile budget in work units, the cancel callback (polled by every
 * stage: stopping at each poll in turn must end every call cleanly with
 * one located ST9003), and the run budget that the interpreter, the JIT
 * and the Gen engine enforce alike (ST4003).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shadertrans.h"
#include "translator.h"
#include "test_util.h"

static char *sample(const char *name)
{
    const char *root = getenv("ST_ROOT");
    char path[1024];
    snprintf(path, sizeof(path), "%s/samples/%s", root && *root ? root : ".", name);
    char *text = slurp(path, NULL);
    if (!text)
        fail_msg("cannot read %s", path);
    return text;
}

static struct st_options opts_for(const char *name, const char *src, enum st_emit emit)
{
    return (struct st_options){.struct_version = ST_OPTIONS_VERSION,
                               .filename = name,
                               .source = src,
                               .source_len = strlen(src),
                               .emit = emit};
}

/* The error diagnostics of res with this code. */
static unsigned count_code(const struct st_result *res, unsigned code)
{
    unsigned n = 0;
    for (size_t k = 0; k < res->num_diagnostics; k++)
        if (res->diagnostics[k].code == code)
            n++;
    return n;
}

static const struct st_diagnostic *first_error(const struct st_result *res)
{
    for (size_t k = 0; k < res->num_diagnostics; k++)
        if (res->diagnostics[k].severity == ST_SEVERITY_ERROR)
            return &res->diagnostics[k];
    return NULL;
}

/* ---- version 1 callers ---- */

/* The public structs as version 1 of the header declared them. */
struct st_options_v1 {
    unsigned struct_version;
    const char *filename;
    const char *source;
    size_t source_len;
    enum st_dialect_choice dialect;
    enum st_emit emit;
    unsigned max_errors;
    enum st_float_rules float_rules;
    int want_stats;
    unsigned simd_width;
};
struct st_run_options_v1 {
    unsigned struct_version;
    const struct st_options *compile;
    const char *inputs_filename;
    const char *inputs_json;
    size_t inputs_len;
    enum st_float_rules float_rules;
    enum st_engine engine;
    unsigned simd_width;
};

static void test_version1_callers(void **state)
{
    (void)state;
    const char *src = "vs_1_1\nmov oPos, v0\n";
    /* Exactly the old size on the heap: reading a field of version 2 would
     * read past the block (the ASan build stops there). */
    struct st_options_v1 *o1 = malloc(sizeof(*o1));
    assert_non_null(o1);
    *o1 = (struct st_options_v1){.struct_version = 1, .filename = "v1.asm", .source = src,
                                 .source_len = strlen(src), .emit = ST_EMIT_ASM};
    struct st_result *res = NULL;
    assert_int_equal(st_compile((const struct st_options *)(void *)o1, &res), 0);
    assert_non_null(res);
    assert_true(res->ok);
    assert_string_equal(res->output, "vs_1_1\nmov oPos, v0\n");
    st_result_free(res);

    const char *json = "{\"invocations\": [{\"v0\": [1, 2, 3, 4]}]}";
    struct st_run_options_v1 *r1 = malloc(sizeof(*r1));
    assert_non_null(r1);
    for (int e = ST_ENGINE_INTERP; e <= ST_ENGINE_GEN; e++) {
        *r1 = (struct st_run_options_v1){.struct_version = 1,
                                         .compile = (const struct st_options *)(void *)o1,
                                         .inputs_filename = "in.json", .inputs_json = json,
                                         .inputs_len = strlen(json), .engine = (enum st_engine)e};
        assert_int_equal(st_run((const struct st_run_options *)(void *)r1, &res), 0);
        assert_true(res->ok);
        assert_non_null(strstr(res->output, "\"oPos\": [1, 2, 3, 4]"));
        st_result_free(res);
    }
    free(r1);
    free(o1);
}

/* ---- version 2 callers: no pp field, so _pp is ignored ---- */

static void test_version2_callers_and_pp(void **state)
{
    (void)state;
    /* 1000.3 + 0.1: float32 1000.4 (printed 1000.39996); in half 1000.5 */
    const char *src = "ps_2_0\ndcl t0\ndef c0, 0.1, 0, 0, 0\nadd_pp r0, t0, c0.x\nmov oC0, r0\n";
    const char *json = "{\"invocations\": [{\"t0\": [1000.3, 0, 0, 0]}]}";
    size_t v2 = offsetof(struct st_options, pp);
    /* exactly the version 2 size on the heap: reading pp would read past
     * the block (the ASan build stops there) */
    struct st_options *o2 = malloc(v2);
    assert_non_null(o2);
    struct st_options full = opts_for("pp.asm", src, ST_EMIT_DEFAULT);
    full.struct_version = 2;
    memcpy(o2, &full, v2);
    for (int v = 2; v <= 3; v++) {
        struct st_options o3 = opts_for("pp.asm", src, ST_EMIT_DEFAULT);
        o3.pp = ST_PP_FP16;
        for (int e = ST_ENGINE_INTERP; e <= ST_ENGINE_GEN; e++) {
            struct st_run_options ro = {.struct_version = ST_RUN_OPTIONS_VERSION,
                                        .compile = v == 2 ? o2 : &o3, .inputs_json = json,
                                        .inputs_len = strlen(json),
                                        .engine = (enum st_engine)e};
            struct st_result *res = NULL;
            assert_int_equal(st_run(&ro, &res), 0);
            assert_true(res->ok);
            assert_non_null(strstr(res->output, v == 2 ? "\"oC0\": [1000.39996" : "\"oC0\": [1000.5,"));
            st_result_free(res);
        }
    }
    free(o2);
    struct st_options o = opts_for("pp.asm", src, ST_EMIT_ASM);
    o.pp = (enum st_pp_mode)(ST_PP_FP16 + 1);
    struct st_result *res = (struct st_result *)(uintptr_t)1;
    assert_int_equal(st_compile(&o, &res), -1);
    assert_null(res);
}

/* ---- values out of range ---- */

static void expect_refused(const struct st_options *o)
{
    struct st_result *res = (struct st_result *)(uintptr_t)1;
    assert_int_equal(st_compile(o, &res), -1);
    assert_null(res);
}

static void test_enum_out_of_range(void **state)
{
    (void)state;
    const char *src = "vs_1_1\nmov oPos, v0\n";
    struct st_options o = opts_for("e.asm", src, ST_EMIT_ASM);
    /* -1, one past the last value of each enum, a large value */
    int bad[] = {-1, 0, 1000};
    for (unsigned k = 0; k < 3; k++) {
        o = opts_for("e.asm", src, ST_EMIT_ASM);
        o.emit = (enum st_emit)(k == 1 ? ST_EMIT_MIR + 1 : bad[k]);
        expect_refused(&o);
        o = opts_for("e.asm", src, ST_EMIT_ASM);
        o.dialect = (enum st_dialect_choice)(k == 1 ? ST_DIALECT_D3D9_BYTECODE + 1 : bad[k]);
        expect_refused(&o);
        o = opts_for("e.asm", src, ST_EMIT_ASM);
        o.float_rules = (enum st_float_rules)(k == 1 ? ST_FLOAT_D3D9 + 1 : bad[k]);
        expect_refused(&o);
        o = opts_for("e.asm", src, ST_EMIT_ASM);
        o.fp_contract = (enum st_fp_contract)(k == 1 ? ST_FP_CONTRACT_OFF + 1 : bad[k]);
        expect_refused(&o);
    }
    o = opts_for("e.asm", src, ST_EMIT_ASM);
    o.struct_version = ST_OPTIONS_VERSION + 1;
    expect_refused(&o);
    o = opts_for("e.asm", src, ST_EMIT_ASM);
    o.simd_width = 12;
    expect_refused(&o);

    /* the largest valid values still work */
    o = opts_for("e.asm", src, ST_EMIT_MIR);
    o.dialect = ST_DIALECT_D3D9;
    o.float_rules = ST_FLOAT_D3D9;
    o.fp_contract = ST_FP_CONTRACT_OFF;
    struct st_result *res = NULL;
    assert_int_equal(st_compile(&o, &res), 0);
    assert_true(res->ok);
    st_result_free(res);
    o = opts_for("e.asm", src, ST_EMIT_REFLECT);
    assert_int_equal(st_compile(&o, &res), 0);
    assert_true(res->ok);
    st_result_free(res);
    /* text read as bytecode: a call like any other, its result an error */
    o = opts_for("e.asm", src, ST_EMIT_ASM);
    o.dialect = ST_DIALECT_D3D9_BYTECODE;
    assert_int_equal(st_compile(&o, &res), 0);
    assert_false(res->ok);
    st_result_free(res);

    const char *json = "{\"invocations\": [{}]}";
    o = opts_for("e.asm", src, ST_EMIT_DEFAULT);
    struct st_run_options ro = {.struct_version = ST_RUN_OPTIONS_VERSION, .compile = &o,
                                .inputs_json = json, .inputs_len = strlen(json)};
    int bad_run[][2] = {{3, 0}, {-1, 0}, {0, 2}, {0, -5}};
    for (unsigned k = 0; k < 4; k++) {
        ro.engine = (enum st_engine)bad_run[k][0];
        ro.float_rules = (enum st_float_rules)bad_run[k][1];
        res = (struct st_result *)(uintptr_t)1;
        assert_int_equal(st_run(&ro, &res), -1);
        assert_null(res);
    }
}

/* ---- the instruction limit ---- */

static void test_max_instructions(void **state)
{
    (void)state;
    const char *src = "vs_1_1\nmov r0, v0\nmov r1, r0\nmov oPos, r1\n";
    struct st_options o = opts_for("n.asm", src, ST_EMIT_GEN);
    struct st_result *res = NULL;
    o.max_instructions = 3;
    assert_int_equal(st_compile(&o, &res), 0);
    assert_true(res->ok);
    st_result_free(res);
    o.max_instructions = 2;
    assert_int_equal(st_compile(&o, &res), 0);
    assert_false(res->ok);
    assert_int_equal(res->num_errors, 1);
    const struct st_diagnostic *d = first_error(res);
    assert_int_equal(d->code, ST_E_BUDGET);
    assert_int_equal(d->line, 4); /* the first instruction past the limit */
    assert_int_equal(d->column, 1);
    assert_string_equal(d->message, "the shader has 3 instructions, more than the limit of 2");
    st_result_free(res);
}

/* ---- the compile budget ---- */

struct job {
    const char *name;
    enum st_emit emit;
};

static const struct job jobs[] = {
    {"05-light-loop.vs.asm", ST_EMIT_GEN},   {"05-light-loop.vs.asm", ST_EMIT_VASM},
    {"05-light-loop.vs.asm", ST_EMIT_LLVM},  {"05-light-loop.vs.asm", ST_EMIT_ASM},
    {"27-tonemap-branch.ps.asm", ST_EMIT_GEN}, {"arb/02-lighting.vp", ST_EMIT_VASM},
    {"arb/02-lighting.vp", ST_EMIT_GEN},
};

static void test_work_budget(void **state)
{
    (void)state;
    for (unsigned j = 0; j < sizeof(jobs) / sizeof(jobs[0]); j++) {
        char *src = sample(jobs[j].name);
        struct st_options o = opts_for(jobs[j].name, src, jobs[j].emit);
        struct st_result *res = NULL;
        assert_int_equal(st_compile(&o, &res), 0);
        assert_true(res->ok);
        uint64_t w = res->work;
        char *out = strdup(res->output);
        st_result_free(res);
        assert_true(w > 0);
        /* the same count every time, and exactly that much is enough */
        o.max_work = w;
        assert_int_equal(st_compile(&o, &res), 0);
        assert_true(res->ok);
        assert_true(res->work == w);
        assert_string_equal(res->output, out);
        st_result_free(res);
        uint64_t less[] = {w - 1, w / 2, 1};
        for (unsigned k = 0; k < 3; k++) {
            o.max_work = less[k];
            assert_int_equal(st_compile(&o, &res), 0);
            assert_false(res->ok);
            assert_null(res->output);
            assert_int_equal(res->num_errors, 1);
            const struct st_diagnostic *d = first_error(res);
            assert_int_equal(d->code, ST_E_BUDGET);
            assert_true(d->line >= 1); /* located */
            st_result_free(res);
        }
        free(out);
        free(src);
    }
}

/* Work grows with the shader: a program twice as long charges more. */
static void test_work_grows(void **state)
{
    (void)state;
    struct gen_buf a = {0}, b = {0};
    gen_printf(&a, "vs_2_0\ndcl_position v0\nmov r0, v0\n");
    gen_printf(&b, "vs_2_0\ndcl_position v0\nmov r0, v0\n");
    for (int k = 0; k < 100; k++)
        gen_printf(&a, "mad r0, r0, c%d, v0\n", k);
    for (int k = 0; k < 200; k++)
        gen_printf(&b, "mad r0, r0, c%d, v0\n", k);
    gen_printf(&a, "mov oPos, r0\n");
    gen_printf(&b, "mov oPos, r0\n");
    uint64_t w[2];
    for (int k = 0; k < 2; k++) {
        struct st_options o = opts_for("g.asm", k ? b.p : a.p, ST_EMIT_GEN);
        struct st_result *res = NULL;
        assert_int_equal(st_compile(&o, &res), 0);
        assert_true(res->ok);
        w[k] = res->work;
        st_result_free(res);
    }
    assert_true(w[1] > w[0] + w[0] / 2);
    free(a.p);
    free(b.p);
}

/* ---- the cancel callback ---- */

struct stopper {
    unsigned calls, at; /* stop at call `at` (0: never) */
};

static int stop_at(void *user)
{
    struct stopper *s = user;
    return ++s->calls == s->at;
}

/* Runs o (or, with ro, the run) with the callback stopping at call `at`. */
static struct st_result *call_with(struct st_options *o, struct st_run_options *ro,
                                   struct stopper *s)
{
    o->cancel = stop_at;
    o->cancel_user = s;
    struct st_result *res = NULL;
    int rc = ro ? st_run(ro, &res) : st_compile(o, &res);
    assert_int_equal(rc, 0);
    assert_non_null(res);
    return res;
}

/* Every poll of the call in turn says stop: every time the call ends with
 * exactly one error, ST9003, located, and no output (ASan: no leak). */
static void cancel_everywhere(struct st_options *o, struct st_run_options *ro)
{
    struct stopper s = {0, 0};
    struct st_result *res = call_with(o, ro, &s);
    assert_true(res->ok);
    st_result_free(res);
    unsigned total = s.calls;
    assert_true(total >= 3);
    for (unsigned k = 1; k <= total; k++) {
        struct stopper t = {0, k};
        res = call_with(o, ro, &t);
        if (res->ok || res->num_errors != 1 || count_code(res, ST_E_CANCELLED) != 1 ||
            first_error(res)->line < 1 || res->output) {
            fail_msg("%s: stopped at poll %u of %u: ok %d, %u errors, first ST%04u", o->filename, k,
                     total, res->ok, res->num_errors,
                     first_error(res) ? first_error(res)->code : 0);
        }
        assert_int_equal(t.calls, k); /* never asked again once it said stop */
        st_result_free(res);
    }
}

static void test_cancel_every_poll_compile(void **state)
{
    (void)state;
    for (unsigned j = 0; j < sizeof(jobs) / sizeof(jobs[0]); j++) {
        if (jobs[j].emit == ST_EMIT_ASM)
            continue;
        char *src = sample(jobs[j].name);
        struct st_options o = opts_for(jobs[j].name, src, jobs[j].emit);
        cancel_everywhere(&o, NULL);
        free(src);
    }
}

static void test_cancel_every_poll_run(void **state)
{
    (void)state;
    const char *names[][2] = {{"05-light-loop.vs.asm", "05-light-loop.vs.in.json"},
                              {"arb/12-blend.fp", "arb/12-blend.in.json"}};
    for (unsigned j = 0; j < 2; j++) {
        char *src = sample(names[j][0]), *json = sample(names[j][1]);
        for (int e = ST_ENGINE_INTERP; e <= ST_ENGINE_GEN; e++) {
            struct st_options o = opts_for(names[j][0], src, ST_EMIT_DEFAULT);
            struct st_run_options ro = {.struct_version = ST_RUN_OPTIONS_VERSION, .compile = &o,
                                        .inputs_filename = names[j][1], .inputs_json = json,
                                        .inputs_len = strlen(json), .engine = (enum st_engine)e};
            cancel_everywhere(&o, &ro);
        }
        free(src);
        free(json);
    }
}

/*
 * The engines ask while they execute: a long run asks many more times than
 * its compile does, and saying stop at the last of those asks ends the run
 * with ST9003 (the interpreter locates it at the instruction it was at).
 */
static void test_cancel_while_executing(void **state)
{
    (void)state;
    /* 255 * 255 * 64 iterations of an add for the interpreter (about 2^23
     * steps), 64 * 64 * 64 for the slower Gen simulator */
    const char *fmt = "vs_2_x\n"
                      "defi i0, %d, 0, 0, 0\n"
                      "defi i1, %d, 0, 0, 0\n"
                      "def c1, 1, 1, 1, 1\n"
                      "mov r0, c1\n"
                      "rep i0\n"
                      " rep i0\n"
                      "  rep i1\n"
                      "   add r0, r0, c1\n"
                      "  endrep\n"
                      " endrep\n"
                      "endrep\n"
                      "mov oPos, r0\n";
    char interp_src[512], gen_src[512];
    snprintf(interp_src, sizeof(interp_src), fmt, 255, 64);
    snprintf(gen_src, sizeof(gen_src), fmt, 64, 64);
    /* the JIT asks between quads: many invocations of a short loop */
    const char *json = "{\"invocations\": [{}]}";
    struct gen_buf many = {0};
    gen_printf(&many, "{\"invocations\": [{}");
    for (int k = 1; k < 4096; k++)
        gen_printf(&many, ", {}");
    gen_printf(&many, "]}");
    const char *short_src = "vs_2_0\ndefi i0, 4, 0, 0, 0\ndef c1, 1, 1, 1, 1\nmov r0, c1\n"
                            "rep i0\nadd r0, r0, c1\nendrep\nmov oPos, r0\n";
    for (int e = ST_ENGINE_INTERP; e <= ST_ENGINE_GEN; e++) {
        const char *s = e == ST_ENGINE_INTERP ? interp_src : e == ST_ENGINE_GEN ? gen_src : short_src;
        const char *in = e == ST_ENGINE_LLVM ? many.p : json;
        struct st_options o = opts_for("long.asm", s, ST_EMIT_DEFAULT);
        struct st_run_options ro = {.struct_version = ST_RUN_OPTIONS_VERSION, .compile = &o,
                                    .inputs_json = in, .inputs_len = strlen(in),
                                    .engine = (enum st_engine)e};
        struct stopper full = {0, 0}, compile = {0, 0};
        struct st_result *res = call_with(&o, &ro, &full);
        assert_true(res->ok);
        st_result_free(res);
        /* the same shader compiled for the engine, without running it */
        o.emit = e == ST_ENGINE_GEN ? ST_EMIT_GEN : e == ST_ENGINE_LLVM ? ST_EMIT_LLVM : ST_EMIT_NONE;
        res = call_with(&o, NULL, &compile);
        st_result_free(res);
        o.emit = ST_EMIT_DEFAULT;
        if (full.calls < compile.calls + 20)
            fail_msg("engine %d asked %u times in all, %u of them compiling", e, full.calls,
                     compile.calls);
        struct stopper last = {0, full.calls - 1};
        res = call_with(&o, &ro, &last);
        assert_false(res->ok);
        assert_int_equal(res->num_errors, 1);
        const struct st_diagnostic *d = first_error(res);
        assert_int_equal(d->code, ST_E_CANCELLED);
        if (e == ST_ENGINE_INTERP)
            assert_true(d->line >= 6 && d->line <= 12); /* inside the loops */
        else
            assert_true(d->line >= 1);
        st_result_free(res);
    }
    free(many.p);
}

/* ---- the run budget ---- */

/* The worst case the library computes for a shader and inputs. */
static uint64_t worst_case(const char *src, const char *json, struct st_loc *hot)
{
    struct st_ctx *ctx = st_ctx_create("w.asm", src, strlen(src), 0);
    struct st_arena *a = st_arena_create();
    struct st_options o = opts_for("w.asm", src, ST_EMIT_NONE);
    struct st_shader *sh = st_front_end(ctx, &o, a);
    assert_non_null(sh);
    struct st_run_inputs *in = malloc(sizeof(*in));
    assert_true(st_run_inputs_parse(ctx, sh, "w.json", json, strlen(json), a, in));
    bool oom;
    uint64_t w = st_run_worst_case(sh, in, hot, &oom);
    assert_false(oom);
    free(in);
    st_arena_destroy(a);
    st_ctx_destroy(ctx);
    return w;
}

static struct st_result *run_budget(const char *name, const char *src, const char *json,
                                    enum st_engine e, uint64_t budget)
{
    struct st_options o = opts_for(name, src, ST_EMIT_DEFAULT);
    struct st_run_options ro = {.struct_version = ST_RUN_OPTIONS_VERSION, .compile = &o,
                                .inputs_filename = "in.json", .inputs_json = json,
                                .inputs_len = strlen(json), .engine = e,
                                .max_run_instructions = budget};
    struct st_result *res = NULL;
    assert_int_equal(st_run(&ro, &res), 0);
    return res;
}

/* 05-light-loop by hand: 3 dcl, defi, def, m4x4, nrm, mov, loop, 3 x (7
 * body + endloop), max, min, mov = 36 per invocation; the loop is line 11
 * (after a comment line and the version).
 * Exactly the budget runs in every engine, one less is refused by every
 * engine with the same diagnostic. */
static void test_run_budget_same_in_every_engine(void **state)
{
    (void)state;
    char *src = sample("05-light-loop.vs.asm"), *json = sample("05-light-loop.vs.in.json");
    struct st_loc hot;
    assert_int_equal(worst_case(src, json, &hot), 36);
    assert_int_equal(hot.line, 11);
    struct st_result *ref = run_budget("05.asm", src, json, ST_ENGINE_INTERP, 0);
    assert_true(ref->ok);
    size_t ninv = 0;
    for (const char *p = ref->output; (p = strstr(p, "oPos")); p++)
        ninv++;
    assert_true(ninv > 1);
    char msg[512] = "";
    for (int e = ST_ENGINE_INTERP; e <= ST_ENGINE_GEN; e++) {
        struct st_result *res = run_budget("05.asm", src, json, (enum st_engine)e, 36 * ninv);
        assert_true(res->ok);
        if (e == ST_ENGINE_LLVM)
            assert_string_equal(res->output, ref->output);
        st_result_free(res);
        res = run_budget("05.asm", src, json, (enum st_engine)e, 36 * ninv - 1);
        assert_false(res->ok);
        assert_int_equal(res->num_errors, 1);
        const struct st_diagnostic *d = first_error(res);
        assert_int_equal(d->code, ST_E_RUN_BUDGET);
        assert_int_equal(d->line, 11);
        assert_int_equal(d->column, 1);
        if (e == ST_ENGINE_INTERP)
            snprintf(msg, sizeof(msg), "%s", d->message);
        else
            assert_string_equal(d->message, msg);
        st_result_free(res);
    }
    char want[256];
    snprintf(want, sizeof(want),
             "%zu invocations could execute %zu instructions (36 each), more than the run budget "
             "of %zu",
             ninv, 36 * ninv, 36 * ninv - 1);
    assert_string_equal(msg, want);
    st_result_free(ref);
    free(src);
    free(json);
}

/* The default: a legal 255^4 nest is refused at once by every engine (the
 * JIT used to run it for days), at the outer rep. */
static void test_run_budget_default(void **state)
{
    (void)state;
    const char *src = "vs_2_x\n"
                      "defi i0, 255, 0, 0, 0\n"
                      "def c1, 1, 1, 1, 1\n"
                      "mov r0, c1\n"
                      "rep i0\n"
                      " rep i0\n"
                      "  rep i0\n"
                      "   rep i0\n"
                      "    add r0, r0, c1\n"
                      "   endrep\n"
                      "  endrep\n"
                      " endrep\n"
                      "endrep\n"
                      "mov oPos, r0\n";
    const char *json = "{\"invocations\": [{}]}";
    for (int e = ST_ENGINE_INTERP; e <= ST_ENGINE_GEN; e++) {
        struct st_result *res = run_budget("nest.asm", src, json, (enum st_engine)e, 0);
        assert_false(res->ok);
        const struct st_diagnostic *d = first_error(res);
        assert_int_equal(d->code, ST_E_RUN_BUDGET);
        assert_int_equal(d->line, 5);
        /* by hand: the innermost rep runs 255 x (add + endrep) = 510, with
         * its rep 511; the next 255 x (511 + endrep) = 130560, with its rep
         * 130561; then 255 x 130562 = 33293310 (+ 1), then 255 x 33293312 =
         * 8489794560; plus the outer rep, defi, def and the two movs */
        assert_string_equal(d->message,
                            "an invocation could execute 8489794565 instructions, more than the "
                            "default run budget of 67108864 per invocation");
        st_result_free(res);
    }
}

/* The loop counts come from the inputs: the same shader is within budget
 * with i0 = 2 and beyond it with i0 = 200; a branch counts its longer side
 * and a call its subroutine. */
static void test_run_budget_from_inputs(void **state)
{
    (void)state;
    const char *src = "vs_2_0\n"                 /* 1 */
                      "mov r0, c0\n"             /* 2: 1 */
                      "rep i0\n"                 /* 3: 1 + n * (body + 1) */
                      " if b0\n"                 /* 4: 1 + max(3 + 1, 1 + 1) */
                      "  add r0, r0, c1\n"       /* 5 */
                      "  add r0, r0, c1\n"       /* 6 */
                      "  call l1\n"              /* 7: 1 + sub(4) */
                      " else\n"                  /* 8 */
                      "  add r0, r0, c2\n"       /* 9 */
                      " endif\n"                 /* 10 */
                      "endrep\n"                 /* 11 */
                      "mov oPos, r0\n"           /* 12: 1 */
                      "ret\n"                    /* 13: 1 */
                      "label l1\n"               /* 14 */
                      "mul r0, r0, c3\n"         /* 15 */
                      "mul r0, r0, c3\n"         /* 16 */
                      "mul r0, r0, c3\n"         /* 17 */
                      "ret\n";                   /* 18 */
    /* if: then side = add, add, call (1 + 4) = 7, plus the else = 8; else
     * side = add + endif = 2: the if costs 1 + 8 = 9; body 9, per iteration
     * 10; total 1 + 1 + 10 n + 1 + 1 = 10 n + 4 */
    struct st_loc hot;
    assert_int_equal(worst_case(src, "{\"int_constants\": {\"i0\": [2]}, \"invocations\": [{}]}", &hot),
                     24);
    assert_int_equal(hot.line, 3);
    assert_int_equal(worst_case(src, "{\"int_constants\": {\"i0\": [200]}, \"invocations\": [{}]}",
                                &hot),
                     2004);
    assert_int_equal(worst_case(src, "{\"int_constants\": {\"i0\": [-3]}, \"invocations\": [{}]}",
                                &hot),
                     4);
    assert_int_equal(worst_case(src, "{\"int_constants\": {\"i0\": [100000]}, \"invocations\": [{}]}",
                                &hot),
                     2554);
    for (int e = ST_ENGINE_INTERP; e <= ST_ENGINE_GEN; e++) {
        struct st_result *res = run_budget(
            "in.asm", src, "{\"int_constants\": {\"i0\": [2]}, \"invocations\": [{}, {}]}",
            (enum st_engine)e, 100);
        assert_true(res->ok);
        st_result_free(res);
        res = run_budget("in.asm", src,
                         "{\"int_constants\": {\"i0\": [200]}, \"invocations\": [{}, {}]}",
                         (enum st_engine)e, 100);
        assert_false(res->ok);
        assert_int_equal(first_error(res)->code, ST_E_RUN_BUDGET);
        assert_int_equal(first_error(res)->line, 3);
        st_result_free(res);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version1_callers),
        cmocka_unit_test(test_version2_callers_and_pp),
        cmocka_unit_test(test_enum_out_of_range),
        cmocka_unit_test(test_max_instructions),
        cmocka_unit_test(test_work_budget),
        cmocka_unit_test(test_work_grows),
        cmocka_unit_test(test_cancel_every_poll_compile),
        cmocka_unit_test(test_cancel_every_poll_run),
        cmocka_unit_test(test_cancel_while_executing),
        cmocka_unit_test(test_run_budget_same_in_every_engine),
        cmocka_unit_test(test_run_budget_default),
        cmocka_unit_test(test_run_budget_from_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
