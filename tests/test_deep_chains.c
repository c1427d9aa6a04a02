/*
 * test_deep_chains.c — "no recursion as deep as the input is long": a
 * shader whose every instruction reads the one before it (20000 of them)
 * through every output and engine, on a thread with a small stack
 * (STACK_BYTES), so that a recursion along the chain overflows it here
 * rather than only on an input long enough for an 8 MiB main stack (the
 * libFuzzer vasm target found one under ASan, issue 17).  An overflow
 * kills this program: that is the failure.
 *
 * Known: --emit=vasm recurses along the chain (merge/select.c need()).
 * Its case runs only with ST_TEST_VASM_CHAIN=1 until the merge rewrite
 * removes that recursion; then the guard goes (tests/README.md, "Deep
 * chains").
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shadertrans.h"

enum { CHAIN = 20000, STACK_BYTES = 1u << 20 };

struct job {
    const char *text;
    enum st_emit emit;
    int run;               /* 0: st_compile; 1: st_run */
    enum st_engine engine; /* for run */
    int ok;                /* out: the call succeeded without errors */
    char first_error[512];
};

static const char inputs[] = "{\"invocations\": [{\"v0\": [1, 2, 3, 4]}]}";

static void *work(void *arg)
{
    struct job *j = arg;
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION,
                           .filename = "chain.asm",
                           .source = j->text,
                           .source_len = strlen(j->text),
                           .emit = j->emit};
    struct st_run_options ro = {.struct_version = ST_RUN_OPTIONS_VERSION,
                                .compile = &o,
                                .inputs_filename = "chain.in.json",
                                .inputs_json = inputs,
                                .inputs_len = strlen(inputs),
                                .engine = j->engine};
    struct st_result *res = NULL;
    int rc = j->run ? st_run(&ro, &res) : st_compile(&o, &res);
    j->ok = rc == 0 && res && res->ok;
    if (res && res->num_diagnostics)
        st_diagnostic_format(&res->diagnostics[0], j->first_error, sizeof(j->first_error));
    st_result_free(res);
    return NULL;
}

/* Runs the job on a thread of STACK_BYTES of stack. */
static void on_small_stack(struct job *j)
{
    pthread_attr_t attr;
    pthread_t t;
    assert_int_equal(pthread_attr_init(&attr), 0);
    assert_int_equal(pthread_attr_setstacksize(&attr, STACK_BYTES), 0);
    assert_int_equal(pthread_create(&t, &attr, work, j), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    pthread_attr_destroy(&attr);
    if (!j->ok)
        print_message("first diagnostic: %s\n", j->first_error);
}

/* vs_3_0: r0 = v0, then CHAIN adds each reading the last, then o0 = r0 */
static char *chain_text(void)
{
    size_t cap = 64 + (size_t)CHAIN * 32;
    char *t = malloc(cap);
    assert_non_null(t);
    size_t n = (size_t)snprintf(t, cap, "vs_3_0\ndcl_position v0\ndcl_position o0\nmov r0, v0\n");
    for (unsigned i = 0; i < CHAIN; i++)
        n += (size_t)snprintf(t + n, cap - n, "add r0, r0, c%u\n", i % 8);
    snprintf(t + n, cap - n, "mov o0, r0\n");
    return t;
}

static void test_chain_compile(void **state)
{
    (void)state;
    char *t = chain_text();
    static const enum st_emit emits[] = {ST_EMIT_NONE, ST_EMIT_ASM, ST_EMIT_LLVM_RAW, ST_EMIT_LLVM,
                                         ST_EMIT_GEN};
    for (size_t k = 0; k < sizeof(emits) / sizeof(emits[0]); k++) {
        struct job j = {.text = t, .emit = emits[k]};
        on_small_stack(&j);
        assert_true(j.ok);
    }
    free(t);
}

static void test_chain_run(void **state)
{
    (void)state;
    char *t = chain_text();
    static const enum st_engine engines[] = {ST_ENGINE_INTERP, ST_ENGINE_LLVM, ST_ENGINE_GEN};
    for (size_t k = 0; k < sizeof(engines) / sizeof(engines[0]); k++) {
        struct job j = {.text = t, .run = 1, .engine = engines[k]};
        on_small_stack(&j);
        assert_true(j.ok);
    }
    free(t);
}

static void test_chain_vasm(void **state)
{
    (void)state;
    const char *e = getenv("ST_TEST_VASM_CHAIN");
    if (!e || strcmp(e, "1") != 0) {
        print_message("not run: merge/select.c need() recurses along the chain (issue 17); "
                      "ST_TEST_VASM_CHAIN=1 runs it\n");
        skip();
    }
    char *t = chain_text();
    struct job j = {.text = t, .emit = ST_EMIT_VASM};
    on_small_stack(&j);
    assert_true(j.ok);
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain_compile),
        cmocka_unit_test(test_chain_run),
        cmocka_unit_test(test_chain_vasm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
