/*
 * test_locale.c — output does not depend on the host's locale.
 *
 * A host application may call setlocale(LC_ALL, "de_DE.UTF-8"), after which
 * printf writes 0,5 and strtod stops at a '.'.  Every kind of output the
 * library prints numbers in (the Gen kernel, vasm, LLVM IR as lowered and
 * optimized, the outputs JSON of all three engines, the --stats counts,
 * diagnostics) must be byte for byte what it is in the C locale, and the
 * host's locale must be in place again after each call.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <dirent.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shadertrans.h"
#include "test_util.h"

/* Everything a call returns, as one text. */
static char *everything(const char *name, const char *src, const char *json, int kind)
{
    static const enum st_emit emits[] = {ST_EMIT_GEN, ST_EMIT_VASM, ST_EMIT_LLVM_RAW,
                                         ST_EMIT_LLVM, ST_EMIT_ASM};
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION, .filename = name, .source = src,
                           .source_len = strlen(src), .want_stats = 1,
                           .emit = kind < 5 ? emits[kind] : ST_EMIT_DEFAULT};
    struct st_run_options ro = {.struct_version = ST_RUN_OPTIONS_VERSION, .compile = &o,
                                .inputs_filename = "in.json", .inputs_json = json,
                                .inputs_len = json ? strlen(json) : 0,
                                .engine = (enum st_engine)(kind - 5)};
    struct st_result *res = NULL;
    int rc = kind < 5 ? st_compile(&o, &res) : st_run(&ro, &res);
    assert_int_equal(rc, 0);
    struct gen_buf b = {0};
    gen_printf(&b, "ok %d\n%s\nstats:\n%s\n", res->ok, res->ok ? res->output : "",
               res->stats ? res->stats : "");
    for (size_t k = 0; k < res->num_diagnostics; k++) {
        char line[1024];
        st_diagnostic_format(&res->diagnostics[k], line, sizeof(line));
        gen_printf(&b, "%s\n", line);
    }
    st_result_free(res);
    return b.p;
}

struct item {
    char name[1400];
    char *src, *json;
};

static unsigned load(struct item *items, unsigned max)
{
    const char *root = getenv("ST_ROOT");
    char dir[1024];
    unsigned n = 0;
    const char *subs[] = {"samples/", "samples/arb/", "tests/bad/"};
    for (int s = 0; s < 3; s++) {
        snprintf(dir, sizeof(dir), "%s/%s", root && *root ? root : ".", subs[s]);
        DIR *d = opendir(dir);
        assert_non_null(d);
        unsigned seen = 0;
        for (struct dirent *e; (e = readdir(d)) && n < max;) {
            size_t l = strlen(e->d_name);
            bool shader = (l > 4 && strcmp(e->d_name + l - 4, ".asm") == 0) ||
                          (l > 3 && (strcmp(e->d_name + l - 3, ".vp") == 0 ||
                                     strcmp(e->d_name + l - 3, ".fp") == 0));
            /* half of the samples (readdir's order is fixed for a
             * directory), the bad inputs with numbers in their messages */
            if (!shader || (s < 2 && seen++ % 2) ||
                (s == 2 && !strstr(e->d_name, "number") && !strstr(e->d_name, "def")))
                continue;
            struct item *it = &items[n++];
            snprintf(it->name, sizeof(it->name), "%s%s%s", dir, "", e->d_name);
            it->src = slurp(it->name, NULL);
            assert_non_null(it->src);
            char in[1500];
            snprintf(in, sizeof(in), "%s", it->name);
            snprintf(strrchr(in, '.'), 10, ".in.json");
            it->json = slurp(in, NULL);
        }
        closedir(d);
    }
    return n;
}

static void test_comma_locale_changes_nothing(void **state)
{
    (void)state;
    static struct item items[200];
    unsigned n = load(items, 200);
    assert_true(n > 30);
    locale_t probe = test_comma_locale();
    if (!probe)
        fail_msg("no de_DE.UTF-8 locale and localedef cannot make one: install the Debian "
                 "package 'locales' (.ci/install-deps)");
    freelocale(probe);

    /* the reference, in the C locale */
    assert_non_null(setlocale(LC_ALL, "C"));
    char **want = calloc(n * 8, sizeof(*want));
    for (unsigned i = 0; i < n; i++)
        for (int kind = 0; kind < 8; kind++)
            if (kind < 5 || items[i].json)
                want[i * 8 + kind] = everything(items[i].name, items[i].src, items[i].json, kind);

    /* the host switches to a decimal comma, for the whole process */
    assert_non_null(setlocale(LC_ALL, "de_DE.UTF-8"));
    char b[16];
    snprintf(b, sizeof(b), "%.4f", 0.1875);
    assert_string_equal(b, "0,1875"); /* it really does */
    assert_true(strtod("0.5", NULL) == 0.0);
    unsigned compared = 0, differ = 0;
    for (unsigned i = 0; i < n; i++)
        for (int kind = 0; kind < 8; kind++) {
            if (!want[i * 8 + kind])
                continue;
            char *got = everything(items[i].name, items[i].src, items[i].json, kind);
            compared++;
            if (strcmp(got, want[i * 8 + kind]) != 0) {
                if (differ++ < 3)
                    fprintf(stderr, "%s, kind %d: the output differs under de_DE.UTF-8\n",
                            items[i].name, kind);
            }
            /* and the host's locale is back after the call */
            snprintf(b, sizeof(b), "%.1f", 0.5);
            assert_string_equal(b, "0,5");
            free(got);
            free(want[i * 8 + kind]);
        }
    setlocale(LC_ALL, "C");
    fprintf(stderr, "locale: %u shaders, %u outputs compared under de_DE.UTF-8, %u differ\n", n,
            compared, differ);
    assert_int_equal(differ, 0);
    for (unsigned i = 0; i < n; i++) {
        free(items[i].src);
        free(items[i].json);
    }
    free(want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_comma_locale_changes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
