/*
 * test_fuzz.c — random valid shaders (shadergen.c) through every
 * comparison the engines owe each other:
 *
 * - the checker accepts the shader (st_compile, ST_EMIT_NONE): the
 *   generator only writes valid shaders, so a rejection is a bug on one side;
 * - the LLVM JIT (st_run, ST_ENGINE_LLVM) prints the same outputs JSON as
 *   the reference interpreter, under both float rules.  The JSON prints
 *   every float with %.9g (which reads back to the same float32, -0 as "-0")
 *   and every NaN as "nan", so equal text is "bit for bit, any NaN equals
 *   any NaN";
 * - the --emit=vasm text of the shader, run by the interpreter, prints the
 *   same outputs as the shader itself under both float rules (one text:
 *   no product may be folded under one rule only).  Shaders the
 *   vasm emitter does not support (ST3001) are counted, not failed;
 * - the Gen9 kernel run in the Gen simulator (st_gen_execute) gives the
 *   interpreter's outputs (both float rules) at SIMD8, and for pixel shaders also
 *   at SIMD16 and SIMD32, within the tolerance of docs/gensim.md
 *   (st_tol_*, translator/run/tolerance.c: the rule every judge applies).  Shaders the back
 *   end does not support, and pixel shaders with derivatives whose random
 *   inputs are not one rasterised quad (the Gen engine cannot form such a
 *   thread; docs/gen-abi.md "Gen engine") or whose vPos is not an integer
 *   pixel position, are counted apart, not failed.
 *
 * Environment:
 *   ST_FUZZ_COUNT    shaders to generate (default below; CI runs that)
 *   ST_FUZZ_SEED     first seed (default 1); shader k uses seed + k
 *   ST_FUZZ_VERSION  only this version (vs_1_1 .. ps_3_0, ps_1_1 .. ps_1_4)
 *   ST_FUZZ_DUMP     a directory: each failing shader is written there as
 *                    fuzz-SEED.asm and fuzz-SEED.in.json
 *   ST_VERBOSE=1     list the seeds of unsupported shaders too
 *
 * The generator is compiled into this program (#include below) so that the
 * build needs no rule for a helper file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "shadertrans.h"
#include "emit.h"
#include "translator.h"
#include "test_util.h"
#include "fuzz_util.h"

#include "shadergen.c"

/* Small enough for well under 20 s in the plain build (and ~4x that under
 * ASan+UBSan); ST_FUZZ_COUNT=5000 or more for a real sweep. */
enum { DEFAULT_COUNT = 250 };
/* --pp=fp16 over ps_2_0, ps_2_x and ps_3_0 (test_fuzz_pp) */
enum { DEFAULT_PP_COUNT = 150 };

struct totals {
    unsigned shaders, rejected, jit_runs, jit_mismatch, jit_unsupported, jit_failed;
    unsigned interp_failed, vasm_emitted, vasm_unsupported, vasm_failed, vasm_runs,
        vasm_mismatch;
    unsigned gen_runs, gen_mismatch, gen_unsupported, gen_not_quad, gen_not_pixel, gen_failed, gen_tolerated, gen_fused_only;
    unsigned per_version[SG_NUM_VERSIONS];
    unsigned failures_printed;
};

static void dump(uint64_t seed, const struct sg_shader *sh)
{
    fuzz_dump(seed, "asm", sh->text, sh->inputs);
}

static void report(struct totals *t, uint64_t seed, const struct sg_shader *sh, const char *what,
                   const char *a, const char *b)
{
    fprintf(stderr, "FUZZ FAILURE seed %llu (%s): %s\n", (unsigned long long)seed,
            sg_version_name(sh->version), what);
    fprintf(stderr, "  reproduce: ST_FUZZ_SEED=%llu ST_FUZZ_COUNT=1 build/tests/test_fuzz\n",
            (unsigned long long)seed);
    if (a && b)
        first_difference(a, b);
    if (t->failures_printed++ < 3)
        fprintf(stderr, "--- shader\n%s--- inputs\n%s---\n", sh->text, sh->inputs);
    dump(seed, sh);
}

/* Interpreter against the Gen engine on the shader's own inputs, under one
 * float rule; pp: both under --pp=fp16. */
static void gen_compare(struct totals *t, uint64_t seed, const struct sg_shader *gs,
                        enum st_float_rules rules, bool pp)
{
    size_t len = strlen(gs->text);
    struct st_arena *arena = st_arena_create();
    struct st_ctx *ctx = st_ctx_create("fuzz.asm", gs->text, len, 1000);
    struct st_shader *sh = st_parse_d3d9(ctx, arena);
    struct st_run_inputs *in = calloc(1, sizeof(*in));
    struct st_run_outputs *ref = NULL, *gen = NULL, *fused = NULL;
    assert_non_null(in);
    if (!sh || st_error_count(ctx) || !st_check(ctx, sh) ||
        !st_run_inputs_parse(ctx, sh, "fuzz.in.json", gs->inputs, strlen(gs->inputs), arena, in) ||
        !st_interp_execute(ctx, sh, in, rules, (ref = calloc(in->num_invocations + 1, sizeof(*ref)))))
        goto done; /* the checks above already count these */
    if (pp) {
        /* as st_front_end sets it for --pp=fp16 */
        sh->pp_half = true;
        memset(ref, 0, (in->num_invocations + 1) * sizeof(*ref));
        if (!st_interp_execute(ctx, sh, in, rules, ref))
            goto done;
    }
    gen = calloc(in->num_invocations + 1, sizeof(*gen));
    assert_non_null(gen);
    /* the other reading of the multiply-adds: each rounded once (st_tol_shader_muladd) */
    if (st_tol_shader_muladd(sh)) {
        fused = calloc(in->num_invocations + 1, sizeof(*fused));
        assert_non_null(fused);
        if (!st_interp_execute_ex(ctx, sh, in, rules, true, fused))
            goto done;
    }
    unsigned inexact = st_tol_shader_inexact(sh);
    bool vs = sh->version.type == ST_VS;
    for (unsigned simd = 8; simd <= 32 && !(vs && simd > 8); simd *= 2) {
        struct st_ctx *c2 = st_ctx_create("fuzz.asm", gs->text, len, 1000);
        struct st_gen_run_stats stats;
        memset(gen, 0, (in->num_invocations + 1) * sizeof(*gen));
        bool ok = test_gen_execute(c2, sh, simd, in, rules, gen, &stats);
        if (!ok) {
            char msg[512];
            unsigned code = first_error(c2, msg, sizeof(msg));
            st_ctx_destroy(c2);
            if (code == ST_E_NOT_SUPPORTED && strstr(msg, "not one rasterised quad")) {
                t->gen_not_quad++;
            } else if (code == ST_E_NOT_SUPPORTED && strstr(msg, "vPos.xy must be integers")) {
                /* the generator's vPos are pixel centres (x.5): no Gen payload holds those */
                t->gen_not_pixel++;
            } else if (code == ST_E_NOT_SUPPORTED && strncmp(msg, "Gen engine", 10) != 0) {
                t->gen_unsupported++;
                if (verbose())
                    fprintf(stderr, "gen not supported: seed %llu: %s\n", (unsigned long long)seed, msg);
            } else {
                t->gen_failed++;
                char what[640];
                snprintf(what, sizeof(what), "the Gen engine fails at SIMD%u: %s", simd, msg);
                report(t, seed, gs, what, NULL, NULL);
            }
            break; /* the other widths would say the same */
        }
        st_ctx_destroy(c2);
        t->gen_runs++;
        unsigned bad = 0;
        for (unsigned k = 0; k < in->num_invocations; k++) {
            const struct st_run_outputs *a = &ref[k], *b = &gen[k], *f = fused ? &fused[k] : a;
            a = st_tol_reading(a, f, b); /* a discard a multiply-add decided */
            if (f->discarded != a->discarded || f->count != a->count)
                f = a;
            bool same = a->discarded == b->discarded && (a->discarded || a->count == b->count);
            for (unsigned r = 0; same && !a->discarded && r < a->count; r++)
                for (unsigned c = 0; c < a->reg[r].ncomp; c++) {
                    float w = a->reg[r].v[c], wf = f->reg[r].v[c], g = b->reg[r].v[c];
                    if (st_tol_within(w, g, false))
                        continue;
                    if (st_tol_within(wf, g, false)) {
                        t->gen_fused_only++;
                        continue;
                    }
                    if (st_tol_within_either(w, wf, g, inexact)) {
                        t->gen_tolerated++;
                        continue;
                    }
                    if (!bad) {
                        char nb[8];
                        fprintf(stderr, "  gen SIMD%u inv %u %s.%c: interp %.9g, gen %.9g\n", stats.simd, k,
                                st_run_output_label(sh, &a->reg[r], nb), "xyzw"[c], (double)w, (double)g);
                    }
                    same = false;
                }
            if (!same && !bad++ && a->discarded != b->discarded)
                fprintf(stderr, "  gen SIMD%u inv %u: %s discards\n", stats.simd, k,
                        a->discarded ? "only the interpreter" : "only Gen");
        }
        if (bad) {
            t->gen_mismatch++;
            char what[96];
            snprintf(what, sizeof(what), "interp and gen differ at SIMD%u in %u invocations", simd, bad);
            report(t, seed, gs, what, NULL, NULL);
            break;
        }
    }
done:
    free(gen);
    free(fused);
    free(ref);
    free(in);
    st_ctx_destroy(ctx);
    st_arena_destroy(arena);
}

static void fuzz_one_pp(struct totals *t, uint64_t seed, int version, bool pp)
{
    enum st_pp_mode ppm = pp ? ST_PP_FP16 : ST_PP_IGNORE;
    struct sg_shader sh;
    /* under --pp=fp16, two instructions in five marked _pp */
    assert_int_equal(pp ? sg_generate_pp(seed, version, 40, &sh) : sg_generate(seed, version, &sh), 0);
#ifdef ST_FUZZ_FILTER
    /* a sweep may rewrite the text to step around a known bug */
    ST_FUZZ_FILTER(&sh);
#endif
    t->shaders++;
    t->per_version[sh.version]++;

    /* the checker must accept everything the generator writes */
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION,
                           .filename = "fuzz.asm",
                           .source = sh.text,
                           .source_len = strlen(sh.text),
                           .emit = ST_EMIT_NONE,
                           .pp = ppm};
    struct st_result *res = NULL;
    assert_int_equal(st_compile(&o, &res), 0);
    if (!res->ok) {
        t->rejected++;
        report(t, seed, &sh, "the checker rejects a generated shader", NULL, NULL);
        print_diags(res);
        st_result_free(res);
        sg_shader_free(&sh);
        return;
    }
    st_result_free(res);

    for (int ri = 0; ri < 2; ri++) {
        enum st_float_rules rules = ri ? ST_FLOAT_D3D9 : ST_FLOAT_IEEE;
        unsigned code = 0;
        /* the vasm text is one program for both rules: made once (under the
         * default rules) and run under each (docs/merge.md, "Float rules") */
        char *vasm = NULL;
        o.emit = ST_EMIT_VASM;
        o.float_rules = ST_FLOAT_IEEE;
        assert_int_equal(st_compile(&o, &res), 0);
        if (res->ok && res->output) {
            vasm = strdup(res->output);
            t->vasm_emitted++;
        } else {
            bool unsupported = false;
            for (size_t k = 0; k < res->num_diagnostics; k++)
                if (res->diagnostics[k].code == 3001)
                    unsupported = true;
            if (unsupported) {
                t->vasm_unsupported++;
                if (verbose() && !ri)
                    fprintf(stderr, "vasm not supported: seed %llu: %s\n",
                            (unsigned long long)seed,
                            res->num_diagnostics ? res->diagnostics[0].message : "");
            } else {
                t->vasm_failed++;
                report(t, seed, &sh, "--emit=vasm fails on a valid shader", NULL, NULL);
                print_diags(res);
            }
        }
        st_result_free(res);
        char *ref = run_shader_pp("fuzz.asm", sh.text, sh.inputs, ST_ENGINE_INTERP, rules, ppm, &code, false);
        if (!ref) {
            /* a run-time limit (ST4002) leaves nothing to compare */
            if (code != 4002) {
                t->interp_failed++;
                report(t, seed, &sh, "the interpreter fails", NULL, NULL);
                free(run_shader_pp("fuzz.asm", sh.text, sh.inputs, ST_ENGINE_INTERP, rules, ppm, &code, true));
            }
            free(vasm);
            continue;
        }
        char *jit = run_shader_pp("fuzz.asm", sh.text, sh.inputs, ST_ENGINE_LLVM, rules, ppm, &code, false);
        if (!jit) {
            if (code == 3001) {
                t->jit_unsupported++;
                if (verbose())
                    fprintf(stderr, "llvm not supported: seed %llu\n", (unsigned long long)seed);
            } else {
                t->jit_failed++;
                report(t, seed, &sh, "the LLVM engine fails", NULL, NULL);
                free(run_shader_pp("fuzz.asm", sh.text, sh.inputs, ST_ENGINE_LLVM, rules, ppm, &code, true));
            }
        } else {
            t->jit_runs++;
            if (strcmp(ref, jit) != 0) {
                t->jit_mismatch++;
                char what[64];
                snprintf(what, sizeof(what), "interp and llvm differ (%s rules)", rules_name(rules));
                report(t, seed, &sh, what, ref, jit);
            }
        }
        if (vasm) {
            char *v = run_shader_pp("fuzz.asm", vasm, sh.inputs, ST_ENGINE_INTERP, rules, ppm, &code, false);
            if (!v) {
                t->vasm_failed++;
                report(t, seed, &sh, "the vasm text does not run", NULL, NULL);
                free(run_shader_pp("fuzz.asm", vasm, sh.inputs, ST_ENGINE_INTERP, rules, ppm, &code, true));
            } else {
                t->vasm_runs++;
                if (strcmp(ref, v) != 0) {
                    t->vasm_mismatch++;
                    char what[80];
                    snprintf(what, sizeof(what), "the shader and its vasm differ (%s rules)",
                             rules_name(rules));
                    report(t, seed, &sh, what, ref, v);
                    if (t->failures_printed <= 3)
                        fprintf(stderr, "--- vasm\n%s---\n", vasm);
                }
            }
            free(v);
        }
        free(jit);
        free(ref);
        free(vasm);
    }
    gen_compare(t, seed, &sh, ST_FLOAT_IEEE, pp);
    gen_compare(t, seed, &sh, ST_FLOAT_D3D9, pp);
    sg_shader_free(&sh);
}

static void fuzz_one(struct totals *t, uint64_t seed, int version)
{
    fuzz_one_pp(t, seed, version, false);
}

/* The generator itself: deterministic, and valid text for every version. */
static void test_generator_deterministic(void **state)
{
    (void)state;
    for (int v = 0; v < SG_NUM_VERSIONS; v++) {
        struct sg_shader a, b;
        assert_int_equal(sg_generate(42, v, &a), 0);
        assert_int_equal(sg_generate(42, v, &b), 0);
        assert_string_equal(a.text, b.text);
        assert_string_equal(a.inputs, b.inputs);
        assert_int_equal(a.version, v);
        /* the header names the version asked for */
        assert_memory_equal(a.text, sg_version_name((enum sg_version)v), 6);
        sg_shader_free(&a);
        sg_shader_free(&b);
    }
    struct sg_shader a, b;
    assert_int_equal(sg_generate(1, -1, &a), 0);
    assert_int_equal(sg_generate(2, -1, &b), 0);
    assert_true(strcmp(a.text, b.text) != 0);
    sg_shader_free(&a);
    sg_shader_free(&b);
}

/* Prints a sweep's counts and fails on anything but agreement. */
static void summarize(const struct totals *tt, uint64_t seed, unsigned count, double secs,
                      const char *name)
{
    struct totals t = *tt;
    printf("%s: seeds %llu..%llu, %u shaders (", name, (unsigned long long)seed,
           (unsigned long long)(seed + count - 1), t.shaders);
    for (int v = 0; v < SG_NUM_VERSIONS; v++)
        printf("%s%s %u", v ? ", " : "", sg_version_name((enum sg_version)v), t.per_version[v]);
    printf("), %u rejected by the checker\n", t.rejected);
    printf("%s: interp vs llvm: %u runs, %u mismatches, %u not supported, %u llvm failures, "
           "%u interp failures\n",
           name, t.jit_runs, t.jit_mismatch, t.jit_unsupported, t.jit_failed, t.interp_failed);
    printf("%s: interp vs vasm: %u emitted, %u not supported (per shader and rule), %u runs, %u mismatches, "
           "%u failures; %.1f s\n",
           name, t.vasm_emitted, t.vasm_unsupported, t.vasm_runs, t.vasm_mismatch, t.vasm_failed, secs);
    printf("%s: interp vs gen (SIMD8; pixel shaders also 16, 32): %u runs, %u mismatches, "
           "%u not supported, %u not one rasterised quad, %u vPos not a pixel, %u failures, %u components within math "
           "tolerance, %u matching the fused reading of the multiply-adds only\n",
           name, t.gen_runs, t.gen_mismatch, t.gen_unsupported, t.gen_not_quad, t.gen_not_pixel, t.gen_failed, t.gen_tolerated,
           t.gen_fused_only);
    assert_int_equal(t.rejected, 0);
    assert_int_equal(t.interp_failed, 0);
    assert_int_equal(t.jit_failed, 0);
    assert_int_equal(t.jit_mismatch, 0);
    assert_int_equal(t.vasm_failed, 0);
    assert_int_equal(t.vasm_mismatch, 0);
    assert_int_equal(t.gen_failed, 0);
    assert_int_equal(t.gen_mismatch, 0);
    assert_true(t.shaders == count);
    /* no refusal: the merge stage selects every shader the generator
     * makes, and both targets compile what it hands over (issue 12) */
    assert_int_equal(t.vasm_unsupported, 0);
    assert_int_equal(t.gen_unsupported, 0);
}


static void test_fuzz(void **state)
{
    (void)state;
    const char *e = getenv("ST_FUZZ_COUNT");
    unsigned count = e && atoi(e) > 0 ? (unsigned)atoi(e) : DEFAULT_COUNT;
    e = getenv("ST_FUZZ_SEED");
    uint64_t seed = e && *e ? strtoull(e, NULL, 10) : 1;
    int version = -1;
    e = getenv("ST_FUZZ_VERSION");
    for (int v = 0; e && v < SG_NUM_VERSIONS; v++)
        if (strcmp(e, sg_version_name((enum sg_version)v)) == 0)
            version = v;
    struct totals t;
    memset(&t, 0, sizeof(t));
    clock_t start = clock();
    for (unsigned k = 0; k < count; k++)
        fuzz_one(&t, seed + k, version);
    summarize(&t, seed, count, (double)(clock() - start) / CLOCKS_PER_SEC, "fuzz");
}

/*
 * --pp=fp16 (docs/interpreter.md "Partial precision"): the generator's _pp
 * instructions and dcl_pp inputs in half floats, in the pixel models that
 * have them (ps_2_0, ps_2_x, ps_3_0).  The same comparisons: the JIT and
 * the vasm text bit for bit, the Gen kernels against either reading within
 * the half-precision tolerance when a _pp instruction is inexact.
 * ST_FUZZ_PP_COUNT shaders (reproduce one: ST_FUZZ_PP_COUNT=1
 * ST_FUZZ_SEED=SEED build/tests/test_fuzz).
 */
static void test_fuzz_pp(void **state)
{
    (void)state;
    const char *e = getenv("ST_FUZZ_PP_COUNT");
    unsigned count = e && atoi(e) > 0 ? (unsigned)atoi(e) : DEFAULT_PP_COUNT;
    e = getenv("ST_FUZZ_SEED");
    uint64_t seed = e && *e ? strtoull(e, NULL, 10) : 1;
    static const int versions[] = {SG_PS20, SG_PS2X, SG_PS30};
    struct totals t;
    memset(&t, 0, sizeof(t));
    clock_t start = clock();
    for (unsigned k = 0; k < count; k++)
        fuzz_one_pp(&t, seed + k, versions[(seed + k) % 3], true);
    summarize(&t, seed, count, (double)(clock() - start) / CLOCKS_PER_SEC, "fuzz --pp=fp16");
}

/* Seeds whose vasm once folded a product of constants under the IEEE rules
 * only (the sign of a zero: -x * 0 is -0 under ieee, +0 under d3d9). */
static void test_fuzz_zero_products(void **state)
{
    (void)state;
    static const uint64_t seeds[] = {5256};
    struct totals t;
    memset(&t, 0, sizeof(t));
    for (unsigned k = 0; k < sizeof(seeds) / sizeof(seeds[0]); k++)
        fuzz_one(&t, seeds[k], -1);
    assert_int_equal(t.vasm_mismatch, 0);
    assert_int_equal(t.vasm_failed, 0);
    assert_true(t.vasm_runs >= 2); /* both rules ran the vasm text */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generator_deterministic),
        cmocka_unit_test(test_fuzz),
        cmocka_unit_test(test_fuzz_pp),
        cmocka_unit_test(test_fuzz_zero_products),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
