/*
 * test_threads.c — the library called from several threads at once, as
 * `shadertrans batch -j N` and multi-threaded embedders do.
 *
 * Every sample is compiled (Gen kernel, vasm, LLVM IR) and run (the
 * interpreter, the LLVM JIT, the Gen engine) once on one thread for the
 * reference, then all of it again by four threads at the same time, each
 * thread taking the jobs in a different order; every result must be byte
 * for byte the reference.  One thread runs with a comma-decimal locale of
 * its own (uselocale, de_DE.UTF-8) and must not notice it.  What could go wrong: state shared between calls (LLVM's
 * target registry, the parsers), a locale leaking across threads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <dirent.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include <cmocka.h>

#include "shadertrans.h"
#include "test_util.h"

enum { NTHREADS = 4, KINDS = 6 };

struct job {
    char name[256];
    char *src, *json;
    int kind; /* 0..2: emit gen, vasm, llvm; 3..5: run interp, llvm, gen */
    char *want;
};

static struct job *jobs;
static size_t njobs;
static atomic_uint failures;

static char *result_text(const struct job *j)
{
    static const enum st_emit emits[3] = {ST_EMIT_GEN, ST_EMIT_VASM, ST_EMIT_LLVM};
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION, .filename = j->name,
                           .source = j->src, .source_len = strlen(j->src),
                           .emit = j->kind < 3 ? emits[j->kind] : ST_EMIT_DEFAULT};
    struct st_run_options ro = {.struct_version = ST_RUN_OPTIONS_VERSION, .compile = &o,
                                .inputs_filename = "in.json", .inputs_json = j->json,
                                .inputs_len = j->json ? strlen(j->json) : 0,
                                .engine = (enum st_engine)(j->kind - 3)};
    struct st_result *res = NULL;
    int rc = j->kind < 3 ? st_compile(&o, &res) : st_run(&ro, &res);
    if (rc != 0 || !res)
        return strdup("<refused>");
    /* the output, or the diagnostics when there is none */
    struct gen_buf b = {0};
    gen_printf(&b, "%s", res->ok ? res->output : "");
    for (size_t k = 0; k < res->num_diagnostics; k++) {
        char line[1024];
        st_diagnostic_format(&res->diagnostics[k], line, sizeof(line));
        gen_printf(&b, "\n%s", line);
    }
    st_result_free(res);
    return b.p ? b.p : strdup("");
}

struct worker {
    unsigned index;
    locale_t loc; /* (locale_t)0: the thread keeps the global locale */
};

static int work(void *arg)
{
    struct worker *w = arg;
    if (w->loc)
        uselocale(w->loc);
    /* each thread walks the jobs from its own starting point and stride,
     * so different jobs overlap in time */
    for (size_t k = 0; k < njobs; k++) {
        size_t j = (k * (2 * w->index + 1) + w->index * njobs / NTHREADS) % njobs;
        char *got = result_text(&jobs[j]);
        if (strcmp(got, jobs[j].want) != 0) {
            fprintf(stderr, "thread %u: %s (kind %d) differs from the one-thread result\n",
                    w->index, jobs[j].name, jobs[j].kind);
            atomic_fetch_add(&failures, 1);
        }
        free(got);
    }
    if (w->loc)
        uselocale(LC_GLOBAL_LOCALE);
    return 0;
}

static void add_sample(const char *dir, const char *file)
{
    const char *root = getenv("ST_ROOT");
    char path[1024], in[1024];
    snprintf(path, sizeof(path), "%s/samples/%s%s", root && *root ? root : ".", dir, file);
    char *src = slurp(path, NULL);
    assert_non_null(src);
    /* NAME.vs.asm -> NAME.vs.in.json; NAME.vp -> NAME.in.json */
    snprintf(in, sizeof(in), "%s", path);
    char *dot = strrchr(in, '.');
    snprintf(dot, sizeof(in) - (size_t)(dot - in), ".in.json");
    char *json = slurp(in, NULL);
    for (int kind = 0; kind < KINDS; kind++) {
        if (kind >= 3 && !json)
            continue;
        jobs = realloc(jobs, (njobs + 1) * sizeof(*jobs));
        assert_non_null(jobs);
        struct job *j = &jobs[njobs++];
        snprintf(j->name, sizeof(j->name), "%s%s", dir, file);
        j->src = strdup(src);
        j->json = json ? strdup(json) : NULL;
        j->kind = kind;
        j->want = NULL;
    }
    free(src);
    free(json);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_dir(const char *dir, unsigned every)
{
    const char *root = getenv("ST_ROOT");
    char path[1024];
    snprintf(path, sizeof(path), "%s/samples/%s", root && *root ? root : ".", dir);
    DIR *d = opendir(path);
    assert_non_null(d);
    char *names[512];
    unsigned n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 512;) {
        size_t l = strlen(e->d_name);
        if ((l > 4 && strcmp(e->d_name + l - 4, ".asm") == 0) ||
            (l > 3 && (strcmp(e->d_name + l - 3, ".vp") == 0 || strcmp(e->d_name + l - 3, ".fp") == 0)))
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof(names[0]), by_name);
    for (unsigned k = 0; k < n; k++) {
        if (k % every == 0)
            add_sample(dir, names[k]);
        free(names[k]);
    }
}

static void test_concurrent_calls_agree(void **state)
{
    (void)state;
    add_dir("", 2);
    add_dir("arb/", 2);
    assert_true(njobs > 100);
    for (size_t k = 0; k < njobs; k++)
        jobs[k].want = result_text(&jobs[k]);

    locale_t comma = test_comma_locale();
    if (!comma)
        fail_msg("no de_DE.UTF-8 locale and localedef cannot make one: install the Debian "
                 "package 'locales' (.ci/install-deps)");
    /* that locale really does write a comma */
    locale_t old = uselocale(comma);
    char b[16];
    snprintf(b, sizeof(b), "%.1f", 0.5);
    uselocale(old);
    assert_string_equal(b, "0,5");
    struct worker w[NTHREADS];
    thrd_t t[NTHREADS];
    for (unsigned k = 0; k < NTHREADS; k++) {
        w[k] = (struct worker){k, k == 1 ? comma : (locale_t)0};
        assert_int_equal(thrd_create(&t[k], work, &w[k]), thrd_success);
    }
    for (unsigned k = 0; k < NTHREADS; k++)
        thrd_join(t[k], NULL);
    freelocale(comma);
    fprintf(stderr, "threads: %zu jobs, %d threads at once (one with de_DE.UTF-8), %u differences\n",
            njobs, NTHREADS, atomic_load(&failures));
    assert_int_equal(atomic_load(&failures), 0);
    for (size_t k = 0; k < njobs; k++) {
        free(jobs[k].src);
        free(jobs[k].json);
        free(jobs[k].want);
    }
    free(jobs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_concurrent_calls_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
