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
 *   same outputs as the shader itself (both float rules).  Shaders the
 *   vasm emitter does not support (ST3001) are counted, not failed.
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

#include "shadergen.c"

/* Small enough for well under 20 s in the plain build (and ~4x that under
 * ASan+UBSan); ST_FUZZ_COUNT=5000 or more for a real sweep. */
enum { DEFAULT_COUNT = 250 };

struct totals {
    unsigned shaders, rejected, jit_runs, jit_mismatch, jit_unsupported, jit_failed;
    unsigned interp_failed, vasm_emitted, vasm_unsupported, vasm_failed, vasm_runs,
        vasm_mismatch;
    unsigned per_version[SG_NUM_VERSIONS];
    unsigned failures_printed;
};

static bool verbose(void)
{
    const char *v = getenv("ST_VERBOSE");
    return v && *v && *v != '0';
}

static const char *rules_name(enum st_float_rules r)
{
    return r == ST_FLOAT_D3D9 ? "d3d9" : "ieee";
}

static void print_diags(const struct st_result *res)
{
    for (size_t k = 0; k < res->num_diagnostics && k < 5; k++) {
        char buf[1024];
        st_diagnostic_format(&res->diagnostics[k], buf, sizeof(buf));
        fprintf(stderr, "    %s\n", buf);
    }
}

/* Runs `text` on `inputs`; returns the outputs JSON (malloc) or NULL, with
 * the first error code in *code. */
static char *run(const char *text, const char *inputs, enum st_engine engine,
                 enum st_float_rules rules, unsigned *code, bool show_errors)
{
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION,
                           .filename = "fuzz.asm",
                           .source = text,
                           .source_len = strlen(text)};
    struct st_run_options ro = {.struct_version = ST_RUN_OPTIONS_VERSION,
                                .compile = &o,
                                .inputs_filename = "fuzz.in.json",
                                .inputs_json = inputs,
                                .inputs_len = strlen(inputs),
                                .float_rules = rules,
                                .engine = engine};
    struct st_result *res = NULL;
    *code = 0;
    if (st_run(&ro, &res) != 0 || !res)
        return NULL;
    char *out = res->ok && res->output ? strdup(res->output) : NULL;
    if (!out) {
        for (size_t k = 0; k < res->num_diagnostics; k++)
            if (res->diagnostics[k].severity == ST_SEVERITY_ERROR) {
                *code = res->diagnostics[k].code;
                break;
            }
        if (show_errors)
            print_diags(res);
    }
    st_result_free(res);
    return out;
}

static void dump(uint64_t seed, const struct sg_shader *sh)
{
    const char *dir = getenv("ST_FUZZ_DUMP");
    if (!dir || !*dir)
        return;
    char path[1024];
    snprintf(path, sizeof(path), "%s/fuzz-%llu.asm", dir, (unsigned long long)seed);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(sh->text, f);
        fclose(f);
    }
    snprintf(path, sizeof(path), "%s/fuzz-%llu.in.json", dir, (unsigned long long)seed);
    f = fopen(path, "w");
    if (f) {
        fputs(sh->inputs, f);
        fclose(f);
    }
}

/* Prints the first line where two outputs JSON differ (one line per
 * invocation), with its invocation number. */
static void first_difference(const char *a, const char *b)
{
    unsigned line = 0;
    while (*a && *b) {
        const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');
        size_t la = ea ? (size_t)(ea - a) : strlen(a), lb = eb ? (size_t)(eb - b) : strlen(b);
        if (la != lb || memcmp(a, b, la) != 0) {
            fprintf(stderr, "  first difference, output line %u (invocation %u):\n    %.*s\n    %.*s\n",
                    line, line ? line - 1 : 0, (int)la, a, (int)lb, b);
            return;
        }
        if (!ea || !eb)
            break;
        a = ea + 1;
        b = eb + 1;
        line++;
    }
    fprintf(stderr, "  outputs differ in length\n");
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

static void fuzz_one(struct totals *t, uint64_t seed, int version)
{
    struct sg_shader sh;
    assert_int_equal(sg_generate(seed, version, &sh), 0);
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
                           .emit = ST_EMIT_NONE};
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
        /* the vasm text, compiled under the rules it will run under */
        char *vasm = NULL;
        o.emit = ST_EMIT_VASM;
        o.float_rules = rules;
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
        char *ref = run(sh.text, sh.inputs, ST_ENGINE_INTERP, rules, &code, false);
        if (!ref) {
            /* a run-time limit (ST4002) leaves nothing to compare */
            if (code != 4002) {
                t->interp_failed++;
                report(t, seed, &sh, "the interpreter fails", NULL, NULL);
                free(run(sh.text, sh.inputs, ST_ENGINE_INTERP, rules, &code, true));
            }
            free(vasm);
            continue;
        }
        char *jit = run(sh.text, sh.inputs, ST_ENGINE_LLVM, rules, &code, false);
        if (!jit) {
            if (code == 3001) {
                t->jit_unsupported++;
                if (verbose())
                    fprintf(stderr, "llvm not supported: seed %llu\n", (unsigned long long)seed);
            } else {
                t->jit_failed++;
                report(t, seed, &sh, "the LLVM engine fails", NULL, NULL);
                free(run(sh.text, sh.inputs, ST_ENGINE_LLVM, rules, &code, true));
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
            char *v = run(vasm, sh.inputs, ST_ENGINE_INTERP, rules, &code, false);
            if (!v) {
                t->vasm_failed++;
                report(t, seed, &sh, "the vasm text does not run", NULL, NULL);
                free(run(vasm, sh.inputs, ST_ENGINE_INTERP, rules, &code, true));
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
    sg_shader_free(&sh);
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
    double secs = (double)(clock() - start) / CLOCKS_PER_SEC;
    printf("fuzz: seeds %llu..%llu, %u shaders (", (unsigned long long)seed,
           (unsigned long long)(seed + count - 1), t.shaders);
    for (int v = 0; v < SG_NUM_VERSIONS; v++)
        printf("%s%s %u", v ? ", " : "", sg_version_name((enum sg_version)v), t.per_version[v]);
    printf("), %u rejected by the checker\n", t.rejected);
    printf("fuzz: interp vs llvm: %u runs, %u mismatches, %u not supported, %u llvm failures, "
           "%u interp failures\n",
           t.jit_runs, t.jit_mismatch, t.jit_unsupported, t.jit_failed, t.interp_failed);
    printf("fuzz: interp vs vasm: %u emitted, %u not supported (per shader and rule), %u runs, %u mismatches, "
           "%u failures; %.1f s\n",
           t.vasm_emitted, t.vasm_unsupported, t.vasm_runs, t.vasm_mismatch, t.vasm_failed, secs);
    assert_int_equal(t.rejected, 0);
    assert_int_equal(t.interp_failed, 0);
    assert_int_equal(t.jit_failed, 0);
    assert_int_equal(t.jit_mismatch, 0);
    assert_int_equal(t.vasm_failed, 0);
    assert_int_equal(t.vasm_mismatch, 0);
    assert_true(t.shaders == count);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generator_deterministic),
        cmocka_unit_test(test_fuzz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
