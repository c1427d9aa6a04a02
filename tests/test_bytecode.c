/*
 * test_bytecode.c — Direct3D 8/9 bytecode in and out (translator/d3d9/bytecode/).
 *
 *  - expected tokens: every corpus row with `expected-tokens=` (Wine's
 *    D3DAssemble test expectations, worked out by Wine's authors against
 *    Microsoft's assembler) is assembled byte for byte;
 *  - round trip: for every valid corpus shader and sample, text -> bytecode
 *    -> text -> bytecode gives the same bytes, the disassembly is a fixed
 *    point, and bytecode -> bytecode is the identity;
 *  - engines: every sample with inputs runs through st_run as text and as
 *    bytecode with the interpreter, the LLVM JIT and the Gen simulator, and
 *    the outputs JSON are the same bytes;
 *  - malformed blobs: one hand-made blob per reader error, each with the
 *    byte offset the diagnostic must name;
 *  - comment blocks and constant tables: kept where they are, listed in
 *    the disassembly, a malformed table only warned about;
 *  - fuzz: random mutations of every corpus and sample blob (bit flips,
 *    dword replacements, truncations, insertions) never crash (the ASan
 *    build runs this too) and every diagnostic is located in the blob.
 *    ST_FUZZ_COUNT mutations (default 20000), from ST_FUZZ_SEED.
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

#include "shadertrans.h"
#include "test_rng.h"
#include "test_util.h"

/* The random shader generator of test_fuzz: every opcode and modifier of
 * every version, compiled in here as there (it has no build rule). */
#include "shadergen.c"

static struct st_result *compile_as(const char *name, const void *src, size_t len,
                                    enum st_dialect_choice dialect, enum st_emit emit)
{
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION,
                           .filename = name,
                           .source = src,
                           .source_len = len,
                           .dialect = dialect,
                           .emit = emit};
    struct st_result *res = NULL;
    assert_int_equal(st_compile(&o, &res), 0);
    assert_non_null(res);
    return res;
}

static void print_diags(const struct st_result *res)
{
    char line[1024];
    for (size_t i = 0; i < res->num_diagnostics; i++) {
        st_diagnostic_format(&res->diagnostics[i], line, sizeof(line));
        printf("    %s\n", line);
    }
}

static uint32_t dword(const char *p, size_t i)
{
    const unsigned char *b = (const unsigned char *)p + 4 * i;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* $ST_ROOT/samples/NAME for every NAME ending in suffix, sorted. */
static char **sample_files(const char *suffix, size_t *n)
{
    const char *root = getenv("ST_ROOT");
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/samples", root ? root : ".");
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open %s (set ST_ROOT)", dir);
    char **names = NULL;
    *n = 0;
    struct dirent *e;
    size_t sl = strlen(suffix);
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l <= sl || strcmp(e->d_name + l - sl, suffix) != 0)
            continue;
        names = realloc(names, (*n + 1) * sizeof(*names));
        assert_non_null(names);
        names[*n] = malloc(strlen(dir) + l + 2);
        assert_non_null(names[*n]);
        sprintf(names[*n], "%s/%s", dir, e->d_name);
        (*n)++;
    }
    closedir(d);
    qsort(names, *n, sizeof(*names), cmp_str);
    return names;
}

static void free_list(char **l, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(l[i]);
    free(l);
}

/* ------------------------------------------------------------------ */
/* Wine's expected tokens.                                             */

static void test_expected_tokens(void **state)
{
    (void)state;
    struct manifest m;
    if (!manifest_open(&m))
        fail_msg("cannot open %s/manifest.tsv (set ST_CORPUS_DIR)", m.dir);
    unsigned rows = 0, same = 0;
    struct manifest_row r;
    while (manifest_next(&m, &r)) {
        const char *t = strstr(r.notes, "expected-tokens=");
        if (!t)
            continue;
        rows++;
        t += strlen("expected-tokens=");
        uint32_t want[256];
        size_t nw = 0;
        while (nw < 256 && *t && *t != ';') {
            char *end;
            want[nw++] = (uint32_t)strtoul(t, &end, 16);
            t = *end == ',' ? end + 1 : end;
            if (end == t && *t != ',')
                break;
        }
        char path[1100];
        manifest_file(&m, &r, path, sizeof(path));
        size_t len;
        char *src = slurp(path, &len);
        assert_non_null(src);
        struct st_result *res = compile_as(r.path, src, len, ST_DIALECT_AUTO,
                                           ST_EMIT_D3D9_BYTECODE);
        bool ok = res->ok && res->output_len == nw * 4;
        for (size_t i = 0; ok && i < nw; i++)
            ok = dword(res->output, i) == want[i];
        if (ok) {
            same++;
        } else {
            printf("  tokens differ: %s\n", r.path);
            print_diags(res);
            for (size_t i = 0; res->ok && i < res->output_len / 4; i++)
                printf("    %zu: 0x%08x (want 0x%08x)\n", i, dword(res->output, i),
                       i < nw ? want[i] : 0);
        }
        st_result_free(res);
        free(src);
    }
    manifest_close(&m);
    printf("expected tokens: %u/%u rows byte for byte\n", same, rows);
    assert_true(rows >= 109);
    assert_int_equal(same, rows);
}

/* ------------------------------------------------------------------ */
/* Round trips.                                                        */

/* text -> bytecode -> text -> bytecode; false (printed) on a difference. */
static bool round_trip(const char *name, const char *src, size_t len)
{
    struct st_result *b1 = compile_as(name, src, len, ST_DIALECT_D3D9, ST_EMIT_D3D9_BYTECODE);
    bool ok = b1->ok;
    struct st_result *t2 = NULL, *b2 = NULL, *t3 = NULL, *bb = NULL;
    if (!ok) {
        printf("  valid text does not encode: %s\n", name);
        print_diags(b1);
        goto out;
    }
    t2 = compile_as(name, b1->output, b1->output_len, ST_DIALECT_AUTO, ST_EMIT_ASM);
    bb = compile_as(name, b1->output, b1->output_len, ST_DIALECT_D3D9_BYTECODE,
                    ST_EMIT_D3D9_BYTECODE);
    if (!t2->ok || !bb->ok) {
        printf("  its bytecode does not read back: %s\n", name);
        print_diags(t2->ok ? bb : t2);
        ok = false;
        goto out;
    }
    b2 = compile_as(name, t2->output, t2->output_len, ST_DIALECT_D3D9, ST_EMIT_D3D9_BYTECODE);
    t3 = compile_as(name, t2->output, t2->output_len, ST_DIALECT_D3D9, ST_EMIT_ASM);
    if (!b2->ok || b2->output_len != b1->output_len ||
        memcmp(b2->output, b1->output, b1->output_len) != 0) {
        printf("  text -> bytecode -> text -> bytecode changes the bytes: %s\n", name);
        ok = false;
    }
    if (bb->output_len != b1->output_len || memcmp(bb->output, b1->output, b1->output_len)) {
        printf("  bytecode -> bytecode changes the bytes: %s\n", name);
        ok = false;
    }
    if (!t3->ok || strcmp(t3->output, t2->output) != 0) {
        printf("  the disassembly is no fixed point: %s\n", name);
        ok = false;
    }
out:
    st_result_free(b1);
    st_result_free(t2);
    st_result_free(b2);
    st_result_free(t3);
    st_result_free(bb);
    return ok;
}

/* Corpus rows whose text is a known defect (tests/corpus-defects.tsv). */
static bool is_defect(const char *path)
{
    const char *root = getenv("ST_ROOT");
    char p[1024];
    snprintf(p, sizeof(p), "%s/tests/corpus-defects.tsv", root ? root : ".");
    char *text = slurp(p, NULL);
    assert_non_null(text);
    bool found = false;
    for (char *line = text; line && *line && !found;) {
        char *nl = strchr(line, '\n');
        size_t n = strlen(path);
        found = strncmp(line, path, n) == 0 && line[n] == '\t';
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    return found;
}

static void test_round_trip(void **state)
{
    (void)state;
    struct manifest m;
    if (!manifest_open(&m))
        fail_msg("cannot open %s/manifest.tsv (set ST_CORPUS_DIR)", m.dir);
    unsigned n = 0, ok = 0;
    struct manifest_row r;
    while (manifest_next(&m, &r)) {
        if (strcmp(r.dialect, "d3d9") != 0 || strcmp(r.expect, "valid") != 0 || is_defect(r.path))
            continue;
        char path[1100];
        manifest_file(&m, &r, path, sizeof(path));
        size_t len;
        char *src = slurp(path, &len);
        assert_non_null(src);
        n++;
        ok += round_trip(r.path, src, len);
        free(src);
    }
    manifest_close(&m);
    unsigned ns = 0, oks = 0;
    size_t nfiles = 0;
    char **files = sample_files(".asm", &nfiles);
    for (size_t i = 0; i < nfiles; i++) {
        size_t len;
        char *src = slurp(files[i], &len);
        if (!src)
            fail_msg("cannot read %s", files[i]);
        ns++;
        oks += round_trip(files[i], src, len);
        free(src);
    }
    free_list(files, nfiles);
    printf("round trip: corpus %u/%u, samples %u/%u\n", ok, n, oks, ns);
    assert_true(n >= 200);
    assert_int_equal(ok, n);
    assert_int_equal(oks, ns);
}

static struct st_result *run_as(const char *name, const char *src, size_t len,
                                enum st_dialect_choice dialect, const char *in, size_t in_len,
                                enum st_engine engine)
{
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION, .filename = name,
                           .source = src, .source_len = len, .dialect = dialect};
    struct st_run_options ro = {.struct_version = ST_RUN_OPTIONS_VERSION, .compile = &o,
                                .inputs_filename = "in.json", .inputs_json = in,
                                .inputs_len = in_len, .engine = engine};
    struct st_result *res = NULL;
    assert_int_equal(st_run(&ro, &res), 0);
    assert_non_null(res);
    return res;
}

/* Random valid shaders of every version (tests/shadergen.c): every
 * opcode, modifier, predicate, relative address and flow instruction the
 * generator writes goes through the same round trip, and the interpreter
 * gives the same outputs for the text and the blob. */
static void test_round_trip_generated(void **state)
{
    (void)state;
    const char *e = getenv("ST_FUZZ_COUNT");
    unsigned count = e && atoi(e) > 0 ? (unsigned)atoi(e) : 1100;
    unsigned ok = 0, same = 0, per_version[SG_NUM_VERSIONS] = {0};
    for (unsigned k = 0; k < count; k++) {
        struct sg_shader sg;
        int version = (int)(k % SG_NUM_VERSIONS);
        assert_int_equal(sg_generate(1000 + k, version, &sg), 0);
        per_version[version]++;
        size_t len = strlen(sg.text);
        char name[32];
        snprintf(name, sizeof(name), "gen-%u", 1000 + k);
        ok += round_trip(name, sg.text, len);
        struct st_result *bc = compile_as(name, sg.text, len, ST_DIALECT_D3D9,
                                          ST_EMIT_D3D9_BYTECODE);
        if (bc->ok) {
            struct st_result *a = run_as(name, sg.text, len, ST_DIALECT_D3D9, sg.inputs,
                                         strlen(sg.inputs), ST_ENGINE_INTERP);
            struct st_result *b = run_as(name, bc->output, bc->output_len,
                                         ST_DIALECT_D3D9_BYTECODE, sg.inputs, strlen(sg.inputs),
                                         ST_ENGINE_INTERP);
            if (a->ok == b->ok && (!a->ok || strcmp(a->output, b->output) == 0))
                same++;
            else
                printf("  %s: the interpreter differs on text and bytecode\n", name);
            st_result_free(a);
            st_result_free(b);
        }
        st_result_free(bc);
        sg_shader_free(&sg);
    }
    printf("generated shaders: %u/%u round trips, %u/%u interpreter runs agree (", ok, count,
           same, count);
    for (int v = 0; v < SG_NUM_VERSIONS; v++)
        printf("%s%s %u", v ? ", " : "", sg_version_name((enum sg_version)v), per_version[v]);
    printf(")\n");
    assert_int_equal(ok, count);
    assert_int_equal(same, count);
}

/* ------------------------------------------------------------------ */
/* Every engine runs a blob as it runs its text.                       */

static void test_engines(void **state)
{
    (void)state;
    static const struct {
        enum st_engine e;
        const char *name;
    } engines[] = {{ST_ENGINE_INTERP, "interp"}, {ST_ENGINE_LLVM, "llvm"}, {ST_ENGINE_GEN, "gen"}};
    size_t n = 0;
    char **inputs = sample_files(".in.json", &n);
    unsigned shaders = 0, runs = 0, same = 0, refused = 0;
    for (size_t i = 0; i < n; i++) {
        char shader[1200];
        size_t bl = strlen(inputs[i]) - strlen(".in.json");
        snprintf(shader, sizeof(shader), "%.*s.asm", (int)bl, inputs[i]);
        size_t len, in_len;
        char *src = slurp(shader, &len);
        if (!src)
            continue; /* an ARB sample */
        char *in = slurp(inputs[i], &in_len);
        assert_non_null(in);
        struct st_result *bc = compile_as(shader, src, len, ST_DIALECT_D3D9,
                                          ST_EMIT_D3D9_BYTECODE);
        assert_true(bc->ok);
        shaders++;
        for (size_t k = 0; k < sizeof(engines) / sizeof(engines[0]); k++) {
            struct st_result *a = run_as(shader, src, len, ST_DIALECT_D3D9, in, in_len,
                                         engines[k].e);
            struct st_result *b = run_as(shader, bc->output, bc->output_len,
                                         ST_DIALECT_D3D9_BYTECODE, in, in_len, engines[k].e);
            runs++;
            if (a->ok && b->ok && a->output_len == b->output_len &&
                memcmp(a->output, b->output, a->output_len) == 0) {
                same++;
            } else if (!a->ok && !b->ok && a->num_errors == b->num_errors) {
                /* An engine that refuses the text refuses the blob alike. */
                same++;
                refused++;
            } else {
                printf("  %s (%s): text and bytecode differ\n", shader, engines[k].name);
                print_diags(a->ok ? b : a);
            }
            st_result_free(a);
            st_result_free(b);
        }
        st_result_free(bc);
        free(in);
        free(src);
    }
    free_list(inputs, n);
    printf("engines: %u samples x 3 engines: %u/%u runs give the same outputs JSON for text and "
           "bytecode (%u refused alike)\n",
           shaders, same, runs, refused);
    assert_true(shaders >= 40);
    assert_int_equal(same, runs);
}

/* ------------------------------------------------------------------ */
/* Malformed blobs.                                                    */

static struct st_result *blob(const uint32_t *w, size_t n, size_t extra, enum st_emit emit)
{
    size_t len = n * 4 + extra;
    unsigned char *b = calloc(1, len + 1);
    assert_non_null(b);
    for (size_t i = 0; i < n; i++) {
        b[4 * i] = (unsigned char)w[i];
        b[4 * i + 1] = (unsigned char)(w[i] >> 8);
        b[4 * i + 2] = (unsigned char)(w[i] >> 16);
        b[4 * i + 3] = (unsigned char)(w[i] >> 24);
    }
    struct st_result *res = compile_as("blob.vso", b, len, ST_DIALECT_D3D9_BYTECODE, emit);
    free(b);
    return res;
}

/* The first error (or, with want_ok, the first warning) is `code` at
 * byte offset `offset`, and its message contains `text`. */
static void expect_blob(const uint32_t *w, size_t n, size_t extra, bool want_ok, unsigned code,
                        unsigned offset, const char *text)
{
    struct st_result *res = blob(w, n, extra, ST_EMIT_ASM);
    const struct st_diagnostic *d = NULL;
    for (size_t i = 0; i < res->num_diagnostics && !d; i++)
        if (res->diagnostics[i].severity ==
            (want_ok ? ST_SEVERITY_WARNING : ST_SEVERITY_ERROR))
            d = &res->diagnostics[i];
    bool ok = d && res->ok == want_ok && d->code == code && d->line == 0 &&
              d->column == offset + 1 && strstr(d->message, text);
    if (!ok) {
        printf("  want %s ST%04u at 0x%x containing \"%s\"; got:\n", want_ok ? "warning" : "error",
               code, offset, text);
        print_diags(res);
    }
    st_result_free(res);
    assert_true(ok);
}

#define W(...) ((const uint32_t[]){__VA_ARGS__}), sizeof((const uint32_t[]){__VA_ARGS__}) / 4

static void test_malformed(void **state)
{
    (void)state;
    const uint32_t END = 0x0000ffff;
    /* The blob itself. */
    expect_blob(W(0xfffe0200, END), 1, false, 1201, 8, "no multiple of 4");
    expect_blob(W(0x12345678, END), 0, false, 1201, 0, "no version token");
    expect_blob(W(0xfffe0102, END), 0, false, 1005, 0, "vs_1_2 does not exist");
    expect_blob(W(0xffff0100, END), 0, false, 1005, 0, "ps_1_0 does not exist");
    expect_blob(W(0xfffe0200, 0x02000001, 0x800f0000, 0x80e40001), 0, false, 1201, 16,
                "no end token");
    expect_blob(W(0xfffe0200, 0x0005fffe, 1, 2), 0, false, 1201, 4, "runs past the end");
    expect_blob(W(0xfffe0200, 0x8001fffe, 0, END), 0, false, 1201, 4, "bit 31 set");
    /* Instruction tokens. */
    expect_blob(W(0xfffe0200, 0x800f0000, END), 0, false, 1202, 4, "where an instruction");
    expect_blob(W(0xfffe0200, 0x00000031, END), 0, false, 1202, 4, "instruction 49 does not exist");
    expect_blob(W(0xfffe0200, 0x02010001, 0x800f0000, 0x80e40001, END), 0, false, 1202, 4,
                "control value 1 does not exist");
    expect_blob(W(0xfffe0200, 0x22000001, 0x800f0000, 0x80e40001, END), 0, false, 1202, 4,
                "reserved bits 0x20000000");
    expect_blob(W(0xfffe0101, 0x02000001, 0x800f0000, 0x80e40001, END), 0, false, 1202, 4,
                "no length field before 2_0");
    expect_blob(W(0xfffe0200, 0x05000001, 0x800f0000), 0, false, 1202, 4, "past the end");
    expect_blob(W(0xfffe0200, 0x0100001f, 0x80000000, END), 0, false, 1202, 4,
                "dcl has 2 parameter tokens, not 1");
    expect_blob(W(0xffff0104, 0x0001fffd, END), 0, false, 1202, 4, "reserved bits");
    expect_blob(W(0xfffe0200, 0x07000002, 0x800f0000, 0x80e40001, 0x80e40001, 0x80e40001,
                  0x80e40001, 0x80e40001, 0x80e40001, END),
                0, false, 1202, 32, "more than five source");
    /* Parameter tokens. */
    expect_blob(W(0xfffe0200, 0x02000001, 0x000f0000, 0x80e40001, END), 0, false, 1203, 8,
                "bit 31 is clear");
    expect_blob(W(0xfffe0200, 0x02000001, 0x800f4000, 0x80e40001, END), 0, false, 1203, 8,
                "reserved bits 14-15");
    expect_blob(W(0xfffe0200, 0x02000001, 0x808f0000, 0x80e40001, END), 0, false, 1203, 8,
                "result modifier 0x8");
    expect_blob(W(0xfffe0200, 0x02000001, 0x850f0000, 0x80e40001, END), 0, false, 1203, 8,
                "shift 5");
    expect_blob(W(0xfffe0200, 0x02000001, 0x800f1000, 0x80e40001, END), 0, false, 1203, 8,
                "register type 16");
    expect_blob(W(0xfffe0200, 0x02000001, 0x800f0000, 0xc0e40003, END), 0, false, 1203, 12,
                "rastout has no register 3");
    expect_blob(W(0xfffe0200, 0x02000001, 0x800f0000, 0x8ee40001, END), 0, false, 1203, 12,
                "source modifier 14");
    expect_blob(W(0xfffe0200, 0x02000001, 0x800f0000, 0xa0e42000, END), 0, false, 1203, 12,
                "without its address token");
    expect_blob(W(0xfffe0200, 0x03000001, 0x800f0000, 0xa0e42000, 0x80e40000, END), 0, false,
                1203, 16, "no address token");
    expect_blob(W(0xfffe0200, 0x0200001f, 0x8000000e, 0x900f0000, END), 0, false, 1203, 8,
                "usage 14 does not exist");
    expect_blob(W(0xffff0200, 0x0200001f, 0xa8000000, 0xa00f0800, END), 0, false, 1203, 8,
                "texture type 5");
    expect_blob(W(0xffff0200, 0x0200001f, 0x80000005, 0xa00f0800, END), 0, false, 1203, 8,
                "a usage on a sampler");
    expect_blob(W(0xffff0200, 0x0200001f, 0x90050000, 0x800f0000, END), 0, false, 1203, 8,
                "with a usage");
    /* What the tokens say, judged as for text (ST2004 at the operand). */
    expect_blob(W(0xfffe0101, 0x00000001, 0x800f0000, 0x90e40011, END), 0, false, 2004, 12,
                "v17 out of range");
    /* Warnings: data after the end, a constant table that does not fit. */
    expect_blob(W(0xfffe0101, END, 0xdeadbeef), 0, true, 5002, 8, "after the end token");
    expect_blob(W(0xfffe0200, 0x0002fffe, 0x42415443, 0x00000010, END), 0, true, 5008, 4,
                "shorter than the table's 28-byte header");
    /* The format of a bytecode location. */
    struct st_result *res = blob(W(0x12345678, END), 0, ST_EMIT_ASM);
    char line[256];
    st_diagnostic_format(&res->diagnostics[0], line, sizeof(line));
    assert_string_equal(line, "blob.vso:0x0: error: 0x12345678 is no version token (0xfffe.... "
                              "vertex, 0xffff.... pixel shader) [ST1201]");
    st_result_free(res);
}

/* ------------------------------------------------------------------ */
/* Comment blocks and the constant table.                              */

static void put16(unsigned char *b, size_t off, unsigned v)
{
    b[off] = (unsigned char)v;
    b[off + 1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *b, size_t off, uint32_t v)
{
    put16(b, off, v & 0xffff);
    put16(b, off + 2, v >> 16);
}

/*
 * A constant table as compilers write it, laid out by hand from its
 * definition (28-byte header, 20-byte constant records, 16-byte type
 * records, then the strings): mvp = c0..c3 (float4x4), tex = s0.
 * Returns the comment block's dwords ("CTAB" first) in w.
 */
static size_t make_ctab(uint32_t *w)
{
    unsigned char t[120];
    memset(t, 0, sizeof(t));
    put32(t, 0, 28);          /* Size */
    put32(t, 4, 115);         /* Creator: "test" */
    put32(t, 8, 0xfffe0200);  /* Version */
    put32(t, 12, 2);          /* Constants */
    put32(t, 16, 28);         /* ConstantInfo */
    put32(t, 20, 0);          /* Flags */
    put32(t, 24, 108);        /* Target: "vs_2_0" */
    put32(t, 28, 100);        /* mvp: Name */
    put16(t, 32, 2);          /*      RegisterSet float4 */
    put16(t, 34, 0);          /*      RegisterIndex */
    put16(t, 36, 4);          /*      RegisterCount */
    put32(t, 40, 68);         /*      TypeInfo */
    put32(t, 48, 104);        /* tex: Name */
    put16(t, 52, 3);          /*      RegisterSet sampler */
    put16(t, 54, 0);
    put16(t, 56, 1);
    put32(t, 60, 84);
    put16(t, 68, 3);          /* mvp's type: MATRIX_COLUMNS */
    put16(t, 70, 3);          /*             FLOAT */
    put16(t, 72, 4);          /*             rows */
    put16(t, 74, 4);          /*             columns */
    put16(t, 76, 1);          /*             elements */
    put16(t, 84, 4);          /* tex's type: OBJECT */
    put16(t, 86, 12);         /*             SAMPLER2D */
    put16(t, 88, 1);
    put16(t, 90, 1);
    put16(t, 92, 1);
    memcpy(t + 100, "mvp", 4);
    memcpy(t + 104, "tex", 4);
    memcpy(t + 108, "vs_2_0", 7);
    memcpy(t + 115, "test", 5);
    w[0] = 0x42415443; /* "CTAB" */
    for (size_t i = 0; i < sizeof(t) / 4; i++)
        w[1 + i] = (uint32_t)t[4 * i] | (uint32_t)t[4 * i + 1] << 8 |
                   (uint32_t)t[4 * i + 2] << 16 | (uint32_t)t[4 * i + 3] << 24;
    return 1 + sizeof(t) / 4;
}

static void test_comments(void **state)
{
    (void)state;
    uint32_t w[64];
    size_t n = 0;
    w[n++] = 0xfffe0200;
    uint32_t ctab[40];
    size_t nc = make_ctab(ctab);
    w[n++] = 0xfffe | (uint32_t)nc << 16;
    memcpy(w + n, ctab, nc * 4);
    n += nc;
    w[n++] = 0x0200001f; /* dcl_position v0 */
    w[n++] = 0x80000000;
    w[n++] = 0x900f0000;
    w[n++] = 0x0002fffe; /* a comment of two dwords between instructions */
    w[n++] = 0x4f4a4f4d; /* "MOJO" */
    w[n++] = 0x00000001;
    w[n++] = 0x03000009; /* dp4 oPos.x, v0, c0 */
    w[n++] = 0xc0010000;
    w[n++] = 0x90e40000;
    w[n++] = 0xa0e40000;
    w[n++] = 0x0000ffff;
    /* The disassembly lists both comments where they are. */
    struct st_result *res = blob(w, n, 0, ST_EMIT_ASM);
    if (!res->ok)
        print_diags(res);
    assert_true(res->ok);
    assert_string_equal(res->output,
                        "vs_2_0\n"
                        "// constant table (CTAB): 2 constants, target vs_2_0, creator \"test\"\n"
                        "//   mvp                      c0..c3 (float4)\n"
                        "//   tex                      s0 (sampler)\n"
                        "dcl_position v0\n"
                        "// comment block, 2 dwords\n"
                        "//   0x4f4a4f4d 0x00000001\n"
                        "dp4 oPos.x, v0, c0\n");
    st_result_free(res);
    /* Bytecode -> bytecode keeps them, byte for byte. */
    res = blob(w, n, 0, ST_EMIT_D3D9_BYTECODE);
    assert_true(res->ok);
    assert_int_equal(res->output_len, n * 4);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(dword(res->output, i), w[i]);
    st_result_free(res);
    /* Reflection names the table's constants. */
    res = blob(w, n, 0, ST_EMIT_REFLECT);
    assert_true(res->ok);
    assert_non_null(strstr(res->output,
                           "\"constant_table\": {\"creator\": \"test\", \"target\": \"vs_2_0\", "
                           "\"constants\": [\n    {\"name\": \"mvp\", \"set\": \"float4\", "
                           "\"first\": 0, \"count\": 4, \"class\": 3, \"type\": 3, \"rows\": 4, "
                           "\"columns\": 4, \"elements\": 1},\n    {\"name\": \"tex\", \"set\": "
                           "\"sampler\", \"first\": 0, \"count\": 1, \"class\": 4, \"type\": 12, "
                           "\"rows\": 1, \"columns\": 1, \"elements\": 1}\n  ]}"));
    st_result_free(res);
    /* Every cut of the table's own bytes is a warning, never a crash and
     * never an error: the shader is fine without it. */
    for (size_t cut = 1; cut < nc; cut++) {
        uint32_t v[64];
        size_t m = 0;
        v[m++] = 0xfffe0200;
        v[m++] = 0xfffe | (uint32_t)cut << 16;
        memcpy(v + m, ctab, cut * 4);
        m += cut;
        v[m++] = 0x0000ffff;
        res = blob(v, m, 0, ST_EMIT_ASM);
        assert_true(res->ok);
        st_result_free(res);
    }
}

/* ------------------------------------------------------------------ */
/* Fuzz: mutated blobs.                                                 */

struct blobs {
    char **b;
    size_t *len;
    size_t n;
};

static void add_blob(struct blobs *bl, const char *src, size_t len)
{
    struct st_result *r = compile_as("x", src, len, ST_DIALECT_D3D9, ST_EMIT_D3D9_BYTECODE);
    if (r->ok) {
        bl->b = realloc(bl->b, (bl->n + 1) * sizeof(*bl->b));
        bl->len = realloc(bl->len, (bl->n + 1) * sizeof(*bl->len));
        assert_true(bl->b && bl->len);
        bl->b[bl->n] = malloc(r->output_len);
        assert_non_null(bl->b[bl->n]);
        memcpy(bl->b[bl->n], r->output, r->output_len);
        bl->len[bl->n++] = r->output_len;
    }
    st_result_free(r);
}

static void test_fuzz_blobs(void **state)
{
    (void)state;
    struct blobs bl = {NULL, NULL, 0};
    struct manifest m;
    if (!manifest_open(&m))
        fail_msg("cannot open %s/manifest.tsv (set ST_CORPUS_DIR)", m.dir);
    struct manifest_row r;
    while (manifest_next(&m, &r)) {
        if (strcmp(r.dialect, "d3d9") != 0)
            continue;
        char path[1100];
        manifest_file(&m, &r, path, sizeof(path));
        size_t len;
        char *src = slurp(path, &len);
        if (src)
            add_blob(&bl, src, len);
        free(src);
    }
    manifest_close(&m);
    size_t ns = 0;
    char **files = sample_files(".asm", &ns);
    for (size_t i = 0; i < ns; i++) {
        size_t len;
        char *src = slurp(files[i], &len);
        if (src)
            add_blob(&bl, src, len);
        free(src);
    }
    free_list(files, ns);
    assert_true(bl.n > 200);

    const char *e = getenv("ST_FUZZ_COUNT");
    unsigned count = e && atoi(e) > 0 ? (unsigned)atoi(e) : 20000;
    e = getenv("ST_FUZZ_SEED");
    struct rng rg = {.s = e && atoll(e) ? (uint64_t)atoll(e) : 0x9e3779b97f4a7c15ull};
    static const uint32_t interesting[] = {0, 0xffffffffu, 0x0000ffff, 0x0000fffe, 0x7ffffffe,
                                           0x0000fffd, 0x80000000u, 0x8000ffff, 0xfffe0300,
                                           0xffff0300, 0x0f000000, 0x10000000, 0x40000000,
                                           0x0100001f, 0xa0e42000, 0xb0e42000, 0xf0e40800};
    static const enum st_emit emits[] = {ST_EMIT_ASM, ST_EMIT_D3D9_BYTECODE, ST_EMIT_REFLECT,
                                         ST_EMIT_NONE};
    unsigned accepted = 0, rejected = 0;
    unsigned char *buf = malloc(1 << 16);
    assert_non_null(buf);
    for (unsigned k = 0; k < count; k++) {
        size_t which = below(&rg, (unsigned)bl.n);
        size_t len = bl.len[which];
        if (len > (1 << 15))
            continue;
        memcpy(buf, bl.b[which], len);
        unsigned muts = 1 + below(&rg, 4);
        for (unsigned j = 0; j < muts; j++) {
            size_t nd = len / 4;
            switch (below(&rg, 6)) {
            case 0: /* a bit */
                if (len)
                    buf[below(&rg, (unsigned)len)] ^= (unsigned char)(1u << below(&rg, 8));
                break;
            case 1: /* a dword: random or one that means something */
                if (nd) {
                    uint32_t v = below(&rg, 2) ? rnd(&rg)
                                               : interesting[below(&rg, sizeof(interesting) / 4)];
                    size_t at = below(&rg, (unsigned)nd) * 4;
                    for (int b = 0; b < 4; b++)
                        buf[at + (size_t)b] = (unsigned char)(v >> (8 * b));
                }
                break;
            case 2: /* cut */
                len = below(&rg, (unsigned)len + 1);
                break;
            case 3: /* a few bytes in */
                if (len + 8 < (1 << 16)) {
                    size_t at = below(&rg, (unsigned)len + 1), add = 1 + below(&rg, 8);
                    memmove(buf + at + add, buf + at, len - at);
                    for (size_t b = 0; b < add; b++)
                        buf[at + b] = (unsigned char)rnd(&rg);
                    len += add;
                }
                break;
            case 4: /* a field of the instruction or parameter bits */
                if (nd) {
                    size_t at = below(&rg, (unsigned)nd) * 4 + 2 + below(&rg, 2);
                    buf[at] = (unsigned char)rnd(&rg);
                }
                break;
            default: /* a range copied elsewhere */
                if (nd > 2) {
                    size_t from = below(&rg, (unsigned)nd) * 4, to = below(&rg, (unsigned)nd) * 4;
                    size_t n4 = 4 * (1 + below(&rg, 3));
                    if (from + n4 <= len && to + n4 <= len)
                        memmove(buf + to, buf + from, n4);
                }
                break;
            }
        }
        enum st_emit emit = emits[k % 4];
        struct st_result *res = compile_as("fuzz.vso", buf, len, ST_DIALECT_D3D9_BYTECODE, emit);
        for (size_t i = 0; i < res->num_diagnostics; i++) {
            const struct st_diagnostic *d = &res->diagnostics[i];
            /* Located in the blob: line 0, a byte offset inside (or just past) it. */
            bool located = d->line == 0 && d->column >= 1 && d->column <= len + 1;
            if (!located && d->code != 9001) {
                printf("  fuzz case %u: diagnostic outside the blob (len %zu)\n", k, len);
                print_diags(res);
                fail();
            }
        }
        if (res->ok) {
            accepted++;
            if (emit == ST_EMIT_D3D9_BYTECODE) {
                /* What we write reads back as itself. */
                struct st_result *again = compile_as("again.vso", res->output, res->output_len,
                                                     ST_DIALECT_D3D9_BYTECODE,
                                                     ST_EMIT_D3D9_BYTECODE);
                assert_true(again->ok);
                assert_int_equal(again->output_len, res->output_len);
                assert_memory_equal(again->output, res->output, res->output_len);
                st_result_free(again);
            }
        } else {
            rejected++;
        }
        st_result_free(res);
    }
    free(buf);
    for (size_t i = 0; i < bl.n; i++)
        free(bl.b[i]);
    free(bl.b);
    free(bl.len);
    printf("fuzz: %u mutated blobs of %zu shaders: %u accepted, %u rejected, every diagnostic "
           "inside its blob\n",
           count, bl.n, accepted, rejected);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expected_tokens),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_round_trip_generated),
        cmocka_unit_test(test_engines),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_comments),
        cmocka_unit_test(test_fuzz_blobs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
