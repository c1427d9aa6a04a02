/*
 * test_samples.c — the regression test of `shadertrans run`: every shader
 * in samples/ (and samples/arb/) that has NAME.in.json beside it is run with
 * those inputs through the public API, and the outputs must equal the
 * golden NAME.out.json, which was worked out independently of our
 * interpreter (samples/README.md says how); a sample with _pp has a second
 * golden NAME.fp16.out.json, which `shadertrans run --pp=fp16` must print.
 *
 * Values are compared as float32: equal bit patterns, or both NaN, or —
 * only where samples/README.md documents a tolerance for an approximated
 * instruction — within NAME.ulp units in the last place (a file holding one
 * number).  Every output register must match in name and component count,
 * and a discarded invocation must be discarded in both.
 */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "shadertrans.h"
#include "test_util.h"

/* A JSON number or one of "nan", "inf", "-inf" as float32. */
static bool json_float(const json_t *v, float *out)
{
    if (json_is_number(v)) {
        *out = (float)json_number_value(v);
        return true;
    }
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        if (strcmp(s, "nan") == 0)
            *out = NAN;
        else if (strcmp(s, "inf") == 0)
            *out = INFINITY;
        else if (strcmp(s, "-inf") == 0)
            *out = -INFINITY;
        else
            return false;
        return true;
    }
    return false;
}

/* Distance in float32 units in the last place (ordered integer view). */
static uint64_t ulp_distance(float a, float b)
{
    int32_t ia, ib;
    memcpy(&ia, &a, 4);
    memcpy(&ib, &b, 4);
    int64_t oa = ia < 0 ? (int64_t)INT32_MIN - ia : ia;
    int64_t ob = ib < 0 ? (int64_t)INT32_MIN - ib : ib;
    return (uint64_t)(oa > ob ? oa - ob : ob - oa);
}

static bool same_float(float got, float want, unsigned ulps)
{
    if (isnan(got) || isnan(want))
        return isnan(got) && isnan(want);
    if (ulps == 0) {
        uint32_t a, b;
        memcpy(&a, &got, 4);
        memcpy(&b, &want, 4);
        return a == b;
    }
    return ulp_distance(got, want) <= ulps;
}

/* Compares outputs JSON texts; prints the first difference. */
static bool compare_outputs(const char *name, const char *got_text, const json_t *want,
                            unsigned ulps)
{
    json_error_t err;
    json_t *got = json_loads(got_text, 0, &err);
    if (!got) {
        printf("  %s: output is not JSON: %s\n", name, err.text);
        return false;
    }
    bool ok = true;
    const json_t *gi = json_object_get(got, "invocations");
    const json_t *wi = json_object_get(want, "invocations");
    if (!json_is_array(gi) || !json_is_array(wi) || json_array_size(gi) != json_array_size(wi)) {
        printf("  %s: invocation count differs\n", name);
        ok = false;
    }
    for (size_t i = 0; ok && i < json_array_size(wi); i++) {
        const json_t *g = json_array_get(gi, i), *w = json_array_get(wi, i);
        if (json_object_size(g) != json_object_size(w)) {
            printf("  %s: invocation %zu: %zu outputs, golden has %zu\n", name, i,
                   json_object_size(g), json_object_size(w));
            ok = false;
            break;
        }
        const char *key;
        const json_t *wv;
        json_object_foreach((json_t *)w, key, wv) {
            const json_t *gv = json_object_get(g, key);
            if (!gv) {
                printf("  %s: invocation %zu: no %s\n", name, i, key);
                ok = false;
                break;
            }
            if (json_is_boolean(wv)) {
                if (!json_equal((json_t *)gv, (json_t *)wv)) {
                    printf("  %s: invocation %zu: %s differs\n", name, i, key);
                    ok = false;
                }
                continue;
            }
            if (!json_is_array(gv) || json_array_size(gv) != json_array_size(wv)) {
                printf("  %s: invocation %zu: %s has another shape\n", name, i, key);
                ok = false;
                break;
            }
            for (size_t c = 0; c < json_array_size(wv); c++) {
                float a = 0.0f, b = 0.0f;
                if (!json_float(json_array_get(gv, c), &a) ||
                    !json_float(json_array_get(wv, c), &b) || !same_float(a, b, ulps)) {
                    printf("  %s: invocation %zu: %s[%zu] = %.9g, golden %.9g\n", name, i, key, c,
                           (double)a, (double)b);
                    ok = false;
                }
            }
        }
    }
    json_decref(got);
    return ok;
}

/* Runs one shader with its inputs under --pp=`pp` and compares with want. */
static bool run_one(const char *label, const char *shader, const char *src, size_t src_len,
                    const char *in, const char *in_text, size_t in_len, enum st_pp_mode pp,
                    const json_t *want, unsigned ulps)
{
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION,
                           .filename = shader,
                           .source = src,
                           .source_len = src_len,
                           .pp = pp};
    struct st_run_options ro = {.struct_version = ST_RUN_OPTIONS_VERSION,
                                .compile = &o,
                                .inputs_filename = in,
                                .inputs_json = in_text,
                                .inputs_len = in_len};
    struct st_result *res = NULL;
    assert_int_equal(st_run(&ro, &res), 0);
    bool ok = res->ok;
    if (!ok) {
        printf("  %s: run failed\n", label);
        for (size_t i = 0; i < res->num_diagnostics; i++) {
            char line[1024];
            st_diagnostic_format(&res->diagnostics[i], line, sizeof(line));
            printf("    %s\n", line);
        }
    } else {
        ok = compare_outputs(label, res->output, want, ulps);
    }
    st_result_free(res);
    return ok;
}

static unsigned run_dir(const char *dir, unsigned *failed)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    unsigned count = 0;
    struct dirent *e;
    char **names = NULL;
    size_t n = 0;
    while ((e = readdir(d))) {
        const char *dot = strstr(e->d_name, ".in.json");
        if (!dot || dot[8] != '\0')
            continue;
        names = realloc(names, (n + 1) * sizeof(*names));
        names[n++] = strndup(e->d_name, (size_t)(dot - e->d_name));
    }
    closedir(d);
    for (size_t k = 0; k < n; k++) {
        char base[1024], shader[1100], in[1100], out[1100], tol[1100];
        snprintf(base, sizeof(base), "%s/%s", dir, names[k]);
        /* The shader is BASE.asm, BASE.vp or BASE.fp. */
        static const char *const exts[] = {".asm", ".vp", ".fp"};
        char *src = NULL;
        size_t src_len = 0;
        for (int x = 0; x < 3 && !src; x++) {
            snprintf(shader, sizeof(shader), "%s%s", base, exts[x]);
            src = slurp(shader, &src_len);
        }
        snprintf(in, sizeof(in), "%s.in.json", base);
        snprintf(out, sizeof(out), "%s.out.json", base);
        snprintf(tol, sizeof(tol), "%s.ulp", base);
        size_t in_len = 0;
        char *in_text = slurp(in, &in_len);
        json_error_t err;
        json_t *want = json_load_file(out, 0, &err);
        count++;
        if (!src || !in_text || !want) {
            printf("  %s: missing shader, inputs or golden\n", base);
            (*failed)++;
        } else {
            char *tol_text = slurp(tol, NULL);
            unsigned ulps = tol_text ? (unsigned)strtoul(tol_text, NULL, 10) : 0;
            free(tol_text);
            if (!run_one(base, shader, src, src_len, in, in_text, in_len, ST_PP_IGNORE, want, ulps))
                (*failed)++;
            /* under --pp=fp16 too, when there is a golden for it */
            char fp16[1100];
            snprintf(fp16, sizeof(fp16), "%s.fp16.out.json", base);
            json_t *want16 = json_load_file(fp16, 0, &err);
            if (want16) {
                count++;
                if (!run_one(fp16, shader, src, src_len, in, in_text, in_len, ST_PP_FP16, want16,
                             ulps))
                    (*failed)++;
                json_decref(want16);
            }
        }
        json_decref(want);
        free(in_text);
        free(src);
        free(names[k]);
    }
    free(names);
    return count;
}

static void test_samples_match_goldens(void **state)
{
    (void)state;
    const char *root = getenv("ST_ROOT");
    char dir[1024], arbdir[1024];
    snprintf(dir, sizeof(dir), "%s/samples", root ? root : ".");
    snprintf(arbdir, sizeof(arbdir), "%s/samples/arb", root ? root : ".");
    unsigned failed = 0;
    unsigned n = run_dir(dir, &failed) + run_dir(arbdir, &failed);
    printf("samples: %u run, %u match their goldens\n", n, n - failed);
    assert_true(n >= 30);
    assert_int_equal(failed, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples_match_goldens),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
