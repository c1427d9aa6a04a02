/*
 * test_corpus.c — every shader of ../shared/corpus (written by other
 * people) through the public API:
 *   - a file marked valid compiles, and its canonical assembly is a fixed
 *     point: compile(print(x)) prints the same text again;
 *   - a file marked invalid is rejected with at least one located error.
 * The corpus is found through $ST_CORPUS_DIR (tests/run_tests.sh sets it).
 * tests/corpus-defects.tsv lists valid-marked files whose text is known to
 * be corrupt (see the evidence there); each must be rejected with exactly the
 * first error listed, and is counted apart from the clean files.
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

#include "shadertrans.h"
#include "test_util.h"

/*
 * piglit's asmparsertest loads every file of its ARBvp1.0 directory as a
 * vertex program, so a fragment program there is expected to fail for that
 * reason alone (ARBvp1_0_arbfp.fp).  The library is not told the stage, so
 * such a file is counted apart, after checking it really is the other kind.
 */
static bool piglit_stage_mismatch(const struct manifest_row *r, const char *src)
{
    const char *base = strrchr(r->path, '/');
    base = base ? base + 1 : r->path;
    return strncmp(base, "ARBvp1_0_", 9) == 0 && strncmp(src, "!!ARBfp", 7) == 0;
}

struct defect {
    char path[512];
    unsigned line, column, code;
};

static unsigned load_defects(struct defect *d, unsigned max)
{
    const char *root = getenv("ST_ROOT");
    char path[1024];
    snprintf(path, sizeof(path), "%s/tests/corpus-defects.tsv", root ? root : ".");
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    char line[2048];
    unsigned n = 0;
    while (fgets(line, sizeof(line), f)) {
        if (line[0] == '#' || strncmp(line, "path\t", 5) == 0)
            continue;
        if (n == max)
            fail_msg("too many defects in %s", path);
        if (sscanf(line, "%511[^\t]\t%u:%u\t%u", d[n].path, &d[n].line, &d[n].column,
                   &d[n].code) != 4)
            fail_msg("bad line in %s: %s", path, line);
        n++;
    }
    fclose(f);
    return n;
}

static const struct defect *find_defect(const struct defect *d, unsigned n, const char *path)
{
    for (unsigned i = 0; i < n; i++)
        if (strcmp(d[i].path, path) == 0)
            return &d[i];
    return NULL;
}

static const struct st_diagnostic *first_error(const struct st_result *res)
{
    for (size_t i = 0; i < res->num_diagnostics; i++)
        if (res->diagnostics[i].severity == ST_SEVERITY_ERROR)
            return &res->diagnostics[i];
    return NULL;
}

static struct st_result *compile(const char *name, const char *src, size_t len)
{
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION,
                           .filename = name,
                           .source = src,
                           .source_len = len,
                           .emit = ST_EMIT_ASM};
    struct st_result *res = NULL;
    assert_int_equal(st_compile(&o, &res), 0);
    assert_non_null(res);
    return res;
}

static void print_first_error(const char *path, const struct st_result *res)
{
    char line[1024];
    const struct st_diagnostic *d = first_error(res);
    if (d) {
        st_diagnostic_format(d, line, sizeof(line));
        printf("    %s\n", line);
    } else {
        printf("    %s: (no error reported)\n", path);
    }
}

static bool has_error_code(const struct st_result *res, unsigned code)
{
    for (size_t i = 0; i < res->num_diagnostics; i++)
        if (res->diagnostics[i].severity == ST_SEVERITY_ERROR && res->diagnostics[i].code == code &&
            res->diagnostics[i].line)
            return true;
    return false;
}

static void run_corpus(const char *dialect)
{
    struct manifest m;
    if (!manifest_open(&m))
        fail_msg("cannot open %s/manifest.tsv (set ST_CORPUS_DIR)", m.dir);

    struct defect defects[64];
    unsigned ndefects = load_defects(defects, 64);
    unsigned valid = 0, valid_ok = 0, roundtrip_ok = 0, invalid = 0, invalid_ok = 0;
    unsigned defective = 0, defect_confirmed = 0, vendor = 0, vendor_ok = 0;
    unsigned mismatch = 0, mismatch_ok = 0;
    struct manifest_row r;
    while (manifest_next(&m, &r)) {
        if (!*r.expect)
            fail_msg("bad manifest line: %s", r.path);
        if (strcmp(r.dialect, dialect) != 0)
            continue;
        char fpath[1100];
        manifest_file(&m, &r, fpath, sizeof(fpath));
        size_t len = 0;
        char *src = slurp(fpath, &len);
        if (!src)
            fail_msg("cannot read %s", fpath);
        struct st_result *res = compile(r.path, src, len);
        const struct defect *def = find_defect(defects, ndefects, r.path);
        if (strcmp(r.expect, "valid") == 0 && manifest_needs_vendor(&r)) {
            vendor++;
            if (!res->ok && has_error_code(res, 3001))
                vendor_ok++;
            else
                printf("  vendor-extension program not rejected as not supported: %s\n", r.path);
        } else if (strcmp(r.expect, "invalid") == 0 && piglit_stage_mismatch(&r, src)) {
            mismatch++;
            if (res->ok)
                mismatch_ok++;
            else {
                printf("  fragment program in piglit's vertex directory rejected: %s\n", r.path);
                print_first_error(r.path, res);
            }
        } else if (def) {
            defective++;
            const struct st_diagnostic *e = first_error(res);
            if (e && e->line == def->line && e->column == def->column && e->code == def->code)
                defect_confirmed++;
            else {
                printf("  known defect not rejected as listed: %s\n", r.path);
                print_first_error(r.path, res);
            }
        } else if (strcmp(r.expect, "valid") == 0) {
            valid++;
            if (res->ok) {
                valid_ok++;
                /* Round trip: the printed text must print as itself. */
                struct st_result *again = compile(r.path, res->output, res->output_len);
                if (again->ok && strcmp(again->output, res->output) == 0)
                    roundtrip_ok++;
                else
                    printf("  round trip differs: %s\n", r.path);
                st_result_free(again);
            } else {
                printf("  valid but rejected: %s\n", r.path);
                print_first_error(r.path, res);
            }
        } else {
            invalid++;
            bool located = false;
            for (size_t i = 0; i < res->num_diagnostics; i++)
                if (res->diagnostics[i].severity == ST_SEVERITY_ERROR && res->diagnostics[i].line)
                    located = true;
            if (!res->ok && located)
                invalid_ok++;
            else
                printf("  invalid but accepted (or unlocated): %s\n", r.path);
        }
        st_result_free(res);
        free(src);
    }
    manifest_close(&m);
    printf("corpus %s: valid %u/%u accepted, %u/%u round-trip; invalid %u/%u rejected; "
           "known-defective texts %u/%u rejected at the defect; vendor-extension programs "
           "%u/%u rejected as not supported; stage-mismatch %u/%u accepted as the other stage\n",
           dialect, valid_ok, valid, roundtrip_ok, valid, invalid_ok, invalid, defect_confirmed,
           defective, vendor_ok, vendor, mismatch_ok, mismatch);
    assert_true(valid > 0 && invalid > 0);
    assert_int_equal(defect_confirmed, defective);
    assert_int_equal(vendor_ok, vendor);
    assert_int_equal(mismatch_ok, mismatch);
    assert_int_equal(valid_ok, valid);
    assert_int_equal(roundtrip_ok, valid);
    assert_int_equal(invalid_ok, invalid);
}

static void test_corpus_d3d9(void **state)
{
    (void)state;
    run_corpus("d3d9");
}

static void test_corpus_arb(void **state)
{
    (void)state;
    run_corpus("arb");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_d3d9),
        cmocka_unit_test(test_corpus_arb),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
