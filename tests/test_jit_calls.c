/*
 * test_jit_calls.c — the reproducer of issue 17's JIT crash, kept.
 *
 * The libFuzzer JIT target (clang, -fsanitize=address,undefined) crashed
 * now and then with "SEGV on unknown address" in emit/jit/jit.c lane_call,
 * after many inputs in one process, and never on the saved input alone.
 * The cause: -fsanitize=function checks a call through a function pointer
 * by reading 8 bytes in front of the callee; the callee, the JIT's st_main,
 * starts its mapping when the module has no constant data (no read-only
 * segment below the code), and whether the page in front of it is mapped
 * depends on where the kernel put that mapping, i.e. on everything the
 * process mapped and unmapped before.  lane_call is now exempt from that
 * check (ST_JIT_CALL in jit.c).
 *
 * This test makes the layout of the crash on purpose: before each run it
 * leaves an unmapped gap at the top of which the next page-sized mapping
 * lands, with nothing mapped below that page (asserted), and then runs a
 * shader without constants on the JIT.  It fails (the process dies) only in
 * a clang build with -fsanitize=function, such as
 * `CC=clang-19 scons build-asan/tests/test_jit_calls` or `scons fuzz`
 * (tests/fuzz/README.md); with gcc it checks the outputs only.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "shadertrans.h"

/* Is the page at p mapped?  (mincore fails with ENOMEM on an unmapped one.) */
static bool mapped(void *p)
{
    unsigned char v;
    return mincore(p, 1, &v) == 0 || errno != ENOMEM;
}

/*
 * Leaves a gap of 8 pages whose top page is where the next one-page mmap
 * goes, with the 7 pages below it unmapped.  Returns that page's address.
 * The kernel maps top-down into the highest gap that fits, so the small
 * gaps above ours are filled first (their fillers are kept: `keep`).
 */
static char *make_hole(void **keep, unsigned *nkeep, unsigned max_keep)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, 16 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(p != MAP_FAILED);
    for (;;) {
        char *q = mmap(NULL, pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        assert_true(q != MAP_FAILED);
        if (q < p) { /* nothing above p is free any more */
            munmap(q, pg);
            break;
        }
        assert_true(*nkeep < max_keep);
        keep[(*nkeep)++] = q;
    }
    munmap(p + 8 * pg, 8 * pg);
    char *top = p + 15 * pg;
    assert_false(mapped(top - pg));
    return top;
}

static void run_on_jit(const char *src, const char *inputs, const char *want)
{
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION,
                           .filename = "jit.asm",
                           .source = src,
                           .source_len = strlen(src)};
    struct st_run_options ro = {.struct_version = ST_RUN_OPTIONS_VERSION,
                                .compile = &o,
                                .inputs_filename = "jit.in.json",
                                .inputs_json = inputs,
                                .inputs_len = strlen(inputs),
                                .engine = ST_ENGINE_LLVM};
    struct st_result *res = NULL;
    assert_int_equal(st_run(&ro, &res), 0);
    assert_true(res->ok);
    assert_string_equal(res->output, want);
    st_result_free(res);
}

static void test_st_main_at_start_of_mapping(void **state)
{
    (void)state;
    enum { MAX_KEEP = 4096, RUNS = 8 };
    void **keep = calloc(MAX_KEEP, sizeof(*keep));
    unsigned nkeep = 0;
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    assert_non_null(keep);
    /* no constants: the JIT's module has code and nothing else */
    static const char src[] = "vs_2_0\ndcl_position v0\nmov oPos, v0\n";
    static const char in[] = "{\"invocations\": [{\"v0\": [1, 2, 3, 4]}]}";
    static const char want[] = "{\"invocations\": [\n  {\"oPos\": [1, 2, 3, 4]}\n]}\n";
    for (int k = 0; k < RUNS; k++) {
        make_hole(keep, &nkeep, MAX_KEEP);
        run_on_jit(src, in, want);
    }
    for (unsigned k = 0; k < nkeep; k++)
        munmap(keep[k], pg);
    free(keep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_st_main_at_start_of_mapping),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
