/*
 * test_reflect.c — --emit=reflect (translator/d3d9/reflect/).
 *
 * tests/reflect/NAME.asm and NAME.json: the JSON each shader's reflection
 * must be, worked out by hand from the shader (which registers each
 * instruction reads and writes, the aL range a loop's defi gives).  Each
 * shader is reflected from its text and from its bytecode; both must be
 * that JSON exactly, and valid JSON.  Every corpus and sample shader is
 * reflected too (valid JSON, text and bytecode agree), and an ARB program
 * is refused as not supported.
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
#include <dirent.h>
#include <jansson.h>

#include "shadertrans.h"
#include "test_util.h"

static struct st_result *compile_as(const char *name, const void *src, size_t len,
                                    enum st_dialect_choice dialect, enum st_emit emit)
{
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION, .filename = name,
                           .source = src, .source_len = len, .dialect = dialect, .emit = emit};
    struct st_result *res = NULL;
    assert_int_equal(st_compile(&o, &res), 0);
    assert_non_null(res);
    return res;
}

/* The reflection of a text and of its bytecode; both must compile. */
static void reflect_both(const char *name, const char *src, size_t len, char **text,
                         char **blob)
{
    struct st_result *a = compile_as(name, src, len, ST_DIALECT_D3D9, ST_EMIT_REFLECT);
    struct st_result *bc = compile_as(name, src, len, ST_DIALECT_D3D9, ST_EMIT_D3D9_BYTECODE);
    assert_true(a->ok && bc->ok);
    struct st_result *b = compile_as(name, bc->output, bc->output_len, ST_DIALECT_D3D9_BYTECODE,
                                     ST_EMIT_REFLECT);
    assert_true(b->ok);
    *text = strdup(a->output);
    *blob = strdup(b->output);
    st_result_free(a);
    st_result_free(b);
    st_result_free(bc);
    json_error_t err;
    json_t *j = json_loads(*text, 0, &err);
    if (!j)
        fail_msg("%s: reflection is no JSON (%s at line %d):\n%s", name, err.text, err.line, *text);
    json_decref(j);
}

static void test_reflect_files(void **state)
{
    (void)state;
    const char *root = getenv("ST_ROOT");
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/tests/reflect", root ? root : ".");
    DIR *d = opendir(dir);
    assert_non_null(d);
    unsigned n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".asm") != 0)
            continue;
        char path[1400], want_path[1400];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        snprintf(want_path, sizeof(want_path), "%s/%.*s.json", dir, (int)(l - 4), e->d_name);
        size_t len;
        char *src = slurp(path, &len), *want = slurp(want_path, NULL);
        assert_non_null(src);
        assert_non_null(want);
        char *a, *b;
        reflect_both(path, src, len, &a, &b);
        if (strcmp(a, want) != 0)
            printf("  %s: from the text:\n%s\n", e->d_name, a);
        assert_string_equal(a, want);
        assert_string_equal(b, want);
        free(a);
        free(b);
        free(src);
        free(want);
        n++;
    }
    closedir(d);
    printf("reflection: %u shaders as worked out, from text and from bytecode\n", n);
    assert_true(n >= 4);
}

static void test_reflect_corpus(void **state)
{
    (void)state;
    struct manifest m;
    if (!manifest_open(&m))
        fail_msg("cannot open %s/manifest.tsv (set ST_CORPUS_DIR)", m.dir);
    unsigned n = 0;
    struct manifest_row r;
    while (manifest_next(&m, &r)) {
        if (strcmp(r.dialect, "d3d9") != 0 || strcmp(r.expect, "valid") != 0)
            continue;
        char path[1100];
        manifest_file(&m, &r, path, sizeof(path));
        size_t len;
        char *src = slurp(path, &len);
        assert_non_null(src);
        struct st_result *t = compile_as(r.path, src, len, ST_DIALECT_D3D9, ST_EMIT_NONE);
        if (t->ok) { /* not the known-defective texts */
            char *a, *b;
            reflect_both(r.path, src, len, &a, &b);
            assert_string_equal(a, b);
            free(a);
            free(b);
            n++;
        }
        st_result_free(t);
        free(src);
    }
    manifest_close(&m);
    printf("reflection: %u corpus shaders, text and bytecode agree\n", n);
    assert_true(n >= 200);
    /* ARB programs: not this stage's. */
    const char *arb = "!!ARBvp1.0\nMOV result.position, vertex.position;\nEND\n";
    struct st_result *res = compile_as("a.vp", arb, strlen(arb), ST_DIALECT_AUTO, ST_EMIT_REFLECT);
    assert_false(res->ok);
    assert_int_equal(res->diagnostics[0].code, 3001);
    st_result_free(res);
    res = compile_as("a.vp", arb, strlen(arb), ST_DIALECT_AUTO, ST_EMIT_D3D9_BYTECODE);
    assert_false(res->ok);
    assert_int_equal(res->diagnostics[0].code, 3001);
    st_result_free(res);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reflect_files),
        cmocka_unit_test(test_reflect_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
