/*
 * test_oom.c — memory running out at every allocation in turn.
 *
 * This program is linked with -Wl,--wrap for malloc, calloc, realloc,
 * aligned_alloc, strdup, strndup and free (SConscript), so every
 * allocation the library's own code makes goes through the wrappers below;
 * LLVM's and jansson's allocations (shared libraries) do not.  For each of
 * a few shaders and outputs, a first call counts its allocations (K); then
 * the call is repeated K times, the N-th allocation failing in the N-th
 * repetition.  Every time: no crash; the call returns -1, or a result
 * that is either the right output or an error that says so (ST9001); and
 * once the result is freed not one of our allocations is still live (the
 * wrappers keep the set of live blocks).  The ASan build adds LLVM's
 * objects to the leak check.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shadertrans.h"
#include "test_util.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t a, size_t n);
void __real_free(void *p);

/* ---- the wrappers: counting, failing, and the set of live blocks ---- */

static struct {
    int active;
    unsigned long count, fail_at; /* fail the fail_at-th allocation (0: none) */
    unsigned long failed;
    void **slot; /* open addressing; NULL empty, TOMB deleted */
    unsigned long *nth; /* which allocation each live block was */
    size_t cap, live, used;
    unsigned long trap; /* $ST_OOM_TRAP: stop (SIGTRAP) at this allocation */
} W;
static char tomb;
#define TOMB ((void *)&tomb)

static size_t hash(const void *p)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

static void set_grow(void)
{
    size_t cap = W.cap ? W.cap * 2 : 4096;
    void **s = __real_calloc(cap, sizeof(*s));
    unsigned long *nth = __real_calloc(cap, sizeof(*nth));
    if (!s || !nth)
        abort();
    for (size_t k = 0; k < W.cap; k++)
        if (W.slot[k] && W.slot[k] != TOMB) {
            size_t h = hash(W.slot[k]) & (cap - 1);
            while (s[h])
                h = (h + 1) & (cap - 1);
            s[h] = W.slot[k];
            nth[h] = W.nth[k];
        }
    __real_free(W.slot);
    __real_free(W.nth);
    W.slot = s;
    W.nth = nth;
    W.cap = cap;
    W.used = W.live;
}

static void track(void *p)
{
    if (!p || !W.active)
        return;
    if ((W.used + 1) * 2 > W.cap)
        set_grow();
    size_t h = hash(p) & (W.cap - 1);
    while (W.slot[h] && W.slot[h] != TOMB)
        h = (h + 1) & (W.cap - 1);
    if (!W.slot[h])
        W.used++;
    W.slot[h] = p;
    W.nth[h] = W.count;
    W.live++;
}

static void untrack(void *p)
{
    if (!p || !W.cap)
        return;
    size_t h = hash(p) & (W.cap - 1);
    while (W.slot[h]) {
        if (W.slot[h] == p) {
            W.slot[h] = TOMB;
            W.live--;
            return;
        }
        h = (h + 1) & (W.cap - 1);
    }
}

static int fail_now(void)
{
    if (!W.active)
        return 0;
    if (++W.count == W.trap)
        raise(SIGTRAP); /* under a debugger: where this allocation is made */
    if (W.count == W.fail_at) {
        W.failed++;
        return 1;
    }
    return 0;
}

void *__wrap_malloc(size_t n)
{
    if (fail_now())
        return NULL;
    void *p = __real_malloc(n);
    track(p);
    return p;
}

void *__wrap_calloc(size_t n, size_t m)
{
    if (fail_now())
        return NULL;
    void *p = __real_calloc(n, m);
    track(p);
    return p;
}

void *__wrap_realloc(void *p, size_t n)
{
    if (fail_now())
        return NULL; /* p stays as it was */
    void *q = __real_realloc(p, n);
    if (q) {
        untrack(p);
        track(q);
    }
    return q;
}

void *__wrap_aligned_alloc(size_t a, size_t n)
{
    if (fail_now())
        return NULL;
    void *p = __real_aligned_alloc(a, n);
    track(p);
    return p;
}

char *__wrap_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = __wrap_malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

char *__wrap_strndup(const char *s, size_t max)
{
    size_t n = strnlen(s, max);
    char *p = __wrap_malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

void __wrap_free(void *p)
{
    untrack(p);
    __real_free(p);
}

/* ---- the calls ---- */

enum { RUN = 100 };

struct job {
    const char *shader, *inputs; /* under samples/ */
    int kind;                    /* an st_emit, or RUN + an st_engine */
    bool pp;                     /* --pp=fp16 */
};

static const char *kind_name(int kind)
{
    static const char *const n[] = {"default", "asm", "none", "llvm-raw", "llvm", "vasm", "gen"};
    static const char *const r[] = {"run interp", "run llvm", "run gen"};
    return kind >= RUN ? r[kind - RUN] : n[kind];
}

struct outcome {
    int rc, ok, oom_error, other_error;
    char first[300]; /* the first error other than ST9001 */
    char *output; /* when ok */
};

static struct outcome call(const char *name, const char *src, const char *json, int kind, bool pp,
                           unsigned long fail_at, unsigned long *count, size_t *live_after)
{
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION, .filename = name,
                           .source = src, .source_len = strlen(src),
                           .emit = kind < RUN ? (enum st_emit)kind : ST_EMIT_DEFAULT,
                           .pp = pp ? ST_PP_FP16 : ST_PP_IGNORE};
    struct st_run_options ro = {.struct_version = ST_RUN_OPTIONS_VERSION, .compile = &o,
                                .inputs_filename = "in.json", .inputs_json = json,
                                .inputs_len = json ? strlen(json) : 0,
                                .engine = (enum st_engine)(kind - RUN)};
    struct outcome r = {0};
    struct st_result *res = NULL;
    W.count = 0;
    W.fail_at = fail_at;
    W.live = 0;
    W.active = 1;
    r.rc = kind < RUN ? st_compile(&o, &res) : st_run(&ro, &res);
    W.active = 0;
    if (res) {
        r.ok = res->ok;
        if (res->ok)
            r.output = strdup(res->output); /* (not counted: inactive) */
        for (size_t k = 0; k < res->num_diagnostics; k++)
            if (res->diagnostics[k].severity == ST_SEVERITY_ERROR) {
                if (res->diagnostics[k].code == 9001) {
                    r.oom_error = 1;
                } else if (!r.other_error++) {
                    st_diagnostic_format(&res->diagnostics[k], r.first, sizeof(r.first));
                }
            }
    }
    st_result_free(res);
    *count = W.count;
    *live_after = W.live;
    return r;
}

/* $ST_OOM_ALL: report every failing allocation and go on (to survey) */
#define FAIL(...)                                                           \
    do {                                                                    \
        if (getenv("ST_OOM_ALL")) {                                         \
            fprintf(stderr, "FAIL: " __VA_ARGS__);                          \
            fprintf(stderr, "\n");                                          \
            failures++;                                                     \
        } else {                                                            \
            fail_msg(__VA_ARGS__);                                          \
        }                                                                   \
    } while (0)
static unsigned failures;

static void every_allocation(const struct job *j)
{
    const char *trap = getenv("ST_OOM_TRAP");
    W.trap = trap ? strtoul(trap, NULL, 10) : 0;
    const char *root = getenv("ST_ROOT");
    char path[1024];
    snprintf(path, sizeof(path), "%s/samples/%s", root && *root ? root : ".", j->shader);
    char *src = slurp(path, NULL);
    assert_non_null(src);
    char *json = NULL;
    if (j->inputs) {
        snprintf(path, sizeof(path), "%s/samples/%s", root && *root ? root : ".", j->inputs);
        json = slurp(path, NULL);
        assert_non_null(json);
    }
    unsigned long total;
    size_t live;
    struct outcome ref = call(j->shader, src, json, j->kind, j->pp, 0, &total, &live);
    if (ref.rc != 0 || !ref.ok || live != 0)
        FAIL("%s, %s: the call without failures: rc %d, ok %d, %zu blocks live", j->shader,
                 kind_name(j->kind), ref.rc, ref.ok, live);
    unsigned refused = 0, reported = 0, unaffected = 0, other = 0;
    for (unsigned long n = 1; n <= total; n++) {
        unsigned long count;
        struct outcome r = call(j->shader, src, json, j->kind, j->pp, n, &count, &live);
        if (live != 0) {
            for (size_t k = 0; k < W.cap; k++)
                if (W.slot[k] && W.slot[k] != TOMB)
                    fprintf(stderr, "  live: the block of allocation %lu\n", W.nth[k]);
            FAIL("%s, %s: allocation %lu of %lu failed: %zu blocks still live afterwards "
                     "(ST_OOM_TRAP=N stops at allocation N under a debugger)",
                     j->shader, kind_name(j->kind), n, total, live);
        }
        if (r.rc != 0) {
            refused++;
        } else if (r.ok) {
            /* the library got by without that block: then the output is
             * the same */
            if (strcmp(r.output, ref.output) != 0)
                FAIL("%s, %s: allocation %lu failed, and the output is different",
                         j->shader, kind_name(j->kind), n);
            unaffected++;
        } else if (r.oom_error && !r.other_error) {
            reported++;
        } else {
            /* an error, but not "out of memory": say which allocation */
            FAIL("%s, %s: allocation %lu of %lu failed: an error other than ST9001: %s",
                 j->shader, kind_name(j->kind), n, total, r.first);
            other++;
        }
        free(r.output);
    }
    fprintf(stderr,
            "oom: %-26s %-10s %5lu allocations: %u refused (-1), %u reported ST9001, %u unaffected\n",
            j->shader, kind_name(j->kind), total, refused, reported, unaffected);
    (void)other;
    free(ref.output);
    free(src);
    free(json);
}

static void test_every_allocation_fails_once(void **state)
{
    (void)state;
    static const struct job jobs[] = {
        {"01-transform.vs.asm", NULL, ST_EMIT_ASM, false},
        {"01-transform.vs.asm", NULL, ST_EMIT_LLVM_RAW, false},
        {"01-transform.vs.asm", NULL, ST_EMIT_LLVM, false},
        {"01-transform.vs.asm", NULL, ST_EMIT_VASM, false},
        {"01-transform.vs.asm", NULL, ST_EMIT_GEN, false},
        {"05-light-loop.vs.asm", NULL, ST_EMIT_GEN, false},
        {"05-light-loop.vs.asm", NULL, ST_EMIT_VASM, false},
        {"05-light-loop.vs.asm", "05-light-loop.vs.in.json", RUN + ST_ENGINE_INTERP, false},
        {"05-light-loop.vs.asm", "05-light-loop.vs.in.json", RUN + ST_ENGINE_LLVM, false},
        {"05-light-loop.vs.asm", "05-light-loop.vs.in.json", RUN + ST_ENGINE_GEN, false},
        {"arb/12-blend.fp", NULL, ST_EMIT_VASM, false},
        {"arb/12-blend.fp", NULL, ST_EMIT_GEN, false},
        {"arb/12-blend.fp", "arb/12-blend.in.json", RUN + ST_ENGINE_INTERP, false},
        {"arb/02-lighting.vp", NULL, ST_EMIT_GEN, false},
        {"arb/02-lighting.vp", "arb/02-lighting.in.json", RUN + ST_ENGINE_LLVM, false},
        {"19-texm3x3-normal.ps.asm", NULL, ST_EMIT_VASM, false},
        {"19-texm3x3-normal.ps.asm", NULL, ST_EMIT_GEN, false},
        {"19-texm3x3-normal.ps.asm", "19-texm3x3-normal.ps.in.json", RUN + ST_ENGINE_INTERP, false},
        {"31-parallax-march.ps.asm", NULL, ST_EMIT_VASM, false},
        {"31-parallax-march.ps.asm", NULL, ST_EMIT_GEN, false},
        {"31-parallax-march.ps.asm", "31-parallax-march.ps.in.json", RUN + ST_ENGINE_GEN, false},
        /* half values in every stage (--pp=fp16) */
        {"63-pp-four-lights.ps.asm", NULL, ST_EMIT_VASM, true},
        {"63-pp-four-lights.ps.asm", NULL, ST_EMIT_GEN, true},
        {"63-pp-four-lights.ps.asm", "63-pp-four-lights.ps.in.json", RUN + ST_ENGINE_LLVM, true},
        {"63-pp-four-lights.ps.asm", "63-pp-four-lights.ps.in.json", RUN + ST_ENGINE_GEN, true},
    };
    /* $ST_OOM_JOB=N: only job N (with $ST_OOM_TRAP, to find an allocation) */
    const char *only = getenv("ST_OOM_JOB");
    for (size_t k = 0; k < sizeof(jobs) / sizeof(jobs[0]); k++)
        if (!only || strtoul(only, NULL, 10) == k)
            every_allocation(&jobs[k]);
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_allocation_fails_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
