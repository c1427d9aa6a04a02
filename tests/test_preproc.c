/*
 * test_preproc.c — the Direct3D 9 preprocessor (translator/d3d9/preproc/)
 * through the public API: macros, conditionals, #if arithmetic, #line,
 * includes served from memory by the embedder's callback, -D in the
 * options, where every diagnostic lands, the limits that keep it from
 * recursing or growing without bound, and random directive soup.
 * tests/preproc/ holds the same through the command line (files on disk,
 * -I directories).  Every expected value here is worked out by hand from C
 * 6.10 (a few #if values are checked against the system's cpp in
 * test_if_versus_cpp when one is installed).
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
#include "test_rng.h"
#include "test_util.h"
#include "translator/translator.h"

/* ------------------------------------------------------------------ */
/* An in-memory file system for #include.                              */

struct vfile {
    const char *name, *text;
};

struct vfs {
    const struct vfile *files;
    unsigned n;
    unsigned opens, releases;
    char includer[256];
    int system;
};

static int vfs_open(void *user, const char *name, int system, const char *includer,
                    struct st_include_file *out)
{
    struct vfs *fs = user;
    snprintf(fs->includer, sizeof(fs->includer), "%s", includer);
    fs->system = system;
    for (unsigned i = 0; i < fs->n; i++)
        if (strcmp(fs->files[i].name, name) == 0) {
            /* A private copy, as an embedder's loader would make, so the
             * release callback has something to free. */
            char *copy = strdup(fs->files[i].text);
            assert_non_null(copy);
            out->data = copy;
            out->len = strlen(copy);
            out->path = fs->files[i].name;
            out->handle = copy;
            fs->opens++;
            return 0;
        }
    return 1;
}

static void vfs_release(void *user, struct st_include_file *f)
{
    struct vfs *fs = user;
    fs->releases++;
    memset((char *)f->handle, 'X', strlen(f->handle)); /* the library must have copied it */
    free(f->handle);
}

static struct st_result *pp_compile(const char *src, struct vfs *fs, const char *const *defines,
                                    unsigned ndefines, enum st_emit emit)
{
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION,
                           .filename = "main.asm",
                           .source = src,
                           .source_len = strlen(src),
                           .emit = emit,
                           .defines = defines,
                           .num_defines = ndefines,
                           .include = fs ? vfs_open : NULL,
                           .include_release = fs ? vfs_release : NULL,
                           .include_user = fs};
    struct st_result *res = NULL;
    assert_int_equal(st_compile(&o, &res), 0);
    assert_non_null(res);
    return res;
}

static void print_diags(const struct st_result *res)
{
    char line[2048];
    for (size_t i = 0; i < res->num_diagnostics; i++) {
        st_diagnostic_format(&res->diagnostics[i], line, sizeof(line));
        printf("    %s\n", line);
    }
}

/* The shader's canonical assembly is `want`, without any diagnostic. */
static void expect_asm(const char *src, struct vfs *fs, const char *const *defines, unsigned nd,
                       const char *want)
{
    struct st_result *res = pp_compile(src, fs, defines, nd, ST_EMIT_ASM);
    bool ok = res->ok && res->num_diagnostics == 0 && strcmp(res->output, want) == 0;
    if (!ok) {
        printf("  source:\n%s\n  want:\n%s\n  got:\n%s\n", src, want,
               res->ok ? res->output : "(errors)");
        print_diags(res);
    }
    st_result_free(res);
    assert_true(ok);
}

/* Diagnostic k is FILE:LINE:COL severity [code] containing text. */
static void expect_diag(const struct st_result *res, size_t k, const char *file, unsigned line,
                        unsigned col, enum st_severity sev, unsigned code, const char *text)
{
    bool ok = k < res->num_diagnostics;
    if (ok) {
        const struct st_diagnostic *d = &res->diagnostics[k];
        ok = strcmp(d->file, file) == 0 && d->line == line && d->column == col &&
             d->severity == sev && d->code == code && strstr(d->message, text);
    }
    if (!ok) {
        printf("  diagnostic %zu: want %s:%u:%u sev %d [ST%04u] \"%s\"; got:\n", k, file, line,
               col, (int)sev, code, text);
        print_diags(res);
    }
    assert_true(ok);
}

/* ------------------------------------------------------------------ */

static void test_macros(void **state)
{
    (void)state;
    /* Wine's preproc test: a definition continued over two lines. */
    expect_asm("#define REG 1 + 2 +\\\n3 + 4\nvs.1.1\nmov r0, c0[ REG ]\n", NULL, NULL, 0,
               "vs_1_1\nmov r0, c10\n");
    /* Object-like, function-like, nested, rescanned, one per argument. */
    expect_asm("#define R r\n#define DST(n) R##n\n#define MOVE(d, s) mov d, s\n"
               "#define NEG(x) -x\n#define ONE 1\n#define TWICE(x) x + x\n"
               "vs_2_0\nMOVE(DST(1), c[ONE])\nMOVE(r2, NEG(c3))\nmov r3, c[TWICE(TWICE(ONE))]\n",
               NULL, NULL, 0, "vs_2_0\nmov r1, c1\nmov r2, -c3\nmov r3, c4\n");
    /* A macro named like a register and a swizzle letter. */
    expect_asm("#define pos r5\n#define x w\nvs_2_0\nmov pos.x, c0.x\n", NULL, NULL, 0,
               "vs_2_0\nmov r5.w, c0.w\n");
    /* A macro does not expand inside its own replacement. */
    expect_asm("#define r0 r0\n#define A B\n#define B A\nvs_2_0\nmov r0, c0\n", NULL, NULL, 0,
               "vs_2_0\nmov r0, c0\n");
    /* Variadic, empty arguments, __VA_ARGS__, ## with an empty side. */
    expect_asm("#define OP(name, ...) name __VA_ARGS__\n#define SUF(a, b) a##b\n"
               "vs_2_0\nOP(add, r0, v0, c1)\nOP(nop)\nmov SUF(r3,), SUF(,c2)\n",
               NULL, NULL, 0, "vs_2_0\nadd r0, v0, c1\nnop\nmov r3, c2\n");
    /* An invocation over two lines; a name not followed by '(' stays. */
    expect_asm("#define MOV(a, b) mov a, b\n#define F(x) x\nvs_2_0\nMOV(r0,\n    c0)\n"
               "mov r1, c1 ; F is no call here\n",
               NULL, NULL, 0, "vs_2_0\nmov r0, c0\nmov r1, c1\n");
    /* #undef, redefinition to the same text (silent). */
    expect_asm("#define C c1\n#define C c1\n#undef C\n#define C c2\nvs_2_0\nmov r0, C\n", NULL,
               NULL, 0, "vs_2_0\nmov r0, c2\n");
    /* __LINE__, and #line changing it. */
    expect_asm("vs_2_0\nmov r0, c[__LINE__]\n#line 40\nmov r0, c[__LINE__]\n", NULL, NULL, 0,
               "vs_2_0\nmov r0, c2\nmov r0, c40\n");
    /* Comments: block ones are one space, ';' and '//' run to the end of
     * the line; quotes in them are nothing (Wine's quotation marks test). */
    expect_asm("vs.1.1\n; ' comment\n; \" comment\n/* a /* b */ mov r0, /* c\n d */ c0\n", NULL,
               NULL, 0, "vs_1_1\nmov r0, c0\n");
    /* The API's defines: NAME (1) and NAME=VALUE; -D before the file. */
    static const char *const defs[] = {"DEF1=10 + 15", "DEF2=r0", "ONE"};
    expect_asm("vs.1.1\nmov DEF2, c[DEF1]\nmov r1, c[ONE]\n", NULL, defs, 3,
               "vs_1_1\nmov r0, c25\nmov r1, c1\n");
}

/* The preprocessor's output text for src, white space taken out. */
static char *preprocessed(const char *src)
{
    struct st_ctx *ctx = st_ctx_create("t.asm", src, strlen(src), 0);
    struct st_arena *arena = st_arena_create();
    assert_true(ctx && arena);
    struct st_pp_options o;
    memset(&o, 0, sizeof(o));
    assert_true(st_preprocess_d3d9(ctx, arena, &o));
    assert_int_equal(st_error_count(ctx), 0);
    size_t len;
    const char *t = st_ctx_source(ctx, &len);
    char *r = malloc(len + 1);
    assert_non_null(r);
    size_t k = 0;
    for (size_t i = 0; i < len; i++)
        if (t[i] != ' ' && t[i] != '\t' && t[i] != '\n')
            r[k++] = t[i];
    r[k] = '\0';
    st_arena_destroy(arena);
    st_ctx_destroy(ctx);
    return r;
}

/* The examples of C11 6.10.3.5 whose text the assembly lexes the same way
 * (the semicolons are gone: ';' starts an assembly comment); the results
 * are the standard's. */
static void test_standard_examples(void **state)
{
    (void)state;
    char *got = preprocessed(
        "#define x 3\n#define f(a) f(x * (a))\n#undef x\n#define x 2\n#define g f\n"
        "#define z z[0]\n#define h g(~\n#define m(a) a(w)\n#define w 0,1\n#define t(a) a\n"
        "#define p() int\n#define q(x) x\n#define r(x,y) x ## y\n#define str(x) # x\n"
        "f(y+1) + f(f(z)) % t(t(g)(0) + t)(1)\n"
        "g(x+(3,4)-w) | h 5) & m\n(f)^m(m)\n"
        "p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) }\n"
        "char c[2][6] = { str(hello), str() }\n");
    assert_string_equal(got, "f(2*(y+1))+f(2*(f(2*(z[0]))))%f(2*(0))+t(1)"
                             "f(2*(2+(3,4)-0,1))|f(2*(~5))&f(2*(0,1))^m(0,1)"
                             "inti[]={1,23,4,5,}"
                             "charc[2][6]={\"hello\",\"\"}");
    free(got);
    got = preprocessed("#define debug(...) fprintf(stderr, __VA_ARGS__)\n"
                       "#define showlist(...) puts(#__VA_ARGS__)\n"
                       "#define report(test, ...) ((test)?puts(#test):\\\n"
                       " printf(__VA_ARGS__))\n"
                       "debug(\"Flag\")\n"
                       "showlist(The first, second, and third items.)\n"
                       "report(x>y, \"x is %d but y is %d\", x, y)\n");
    assert_string_equal(got, "fprintf(stderr,\"Flag\")"
                             "puts(\"Thefirst,second,andthirditems.\")"
                             "((x>y)?puts(\"x>y\"):printf(\"xis%dbutyis%d\",x,y))");
    free(got);
}

static void test_conditionals(void **state)
{
    (void)state;
    expect_asm("#define A 2\nvs_2_0\n"
               "#if A == 1\nmov r0, c1\n#elif A == 2\n"
               "#  ifdef B\nmov r0, c2\n#  elifndef C\nmov r0, c3\n#  endif\n"
               "#else\nmov r0, c4\n#endif\n",
               NULL, NULL, 0, "vs_2_0\nmov r0, c3\n");
    /* Inside a group that is skipped nothing counts but the nesting, not
     * even an unknown directive or an expression that would fail. */
    expect_asm("vs_2_0\n#if 0\n#foo\n#if 1/0\n#error no\n#endif\n#else\nmov r0, c0\n#endif\n",
               NULL, NULL, 0, "vs_2_0\nmov r0, c0\n");
    /* Rescanning (C 6.10.3.4): a gives "a + a + 1" (the second a is
     * painted: b's replacement is rescanned inside a's), whose value is 1;
     * C's example f(2)(9) gives 2*9*g, which is 0 (g is then no macro
     * call); a wrong rescan loops into the expansion bound or gives an
     * error instead. */
    expect_asm("#define a a + b\n#define b a + 1\n#define f(x) x*g\n#define g(x) f(x)\n"
               "vs_2_0\n#if a == 1 && f(2)(9) == 0\nmov r0, c0\n#endif\n",
               NULL, NULL, 0, "vs_2_0\nmov r0, c0\n");
    /* defined, in both spellings, also from a macro's expansion (whose
     * operand is not expanded, as GCC does). */
    expect_asm("#define X\n#define HAS_X defined(X)\nvs_2_0\n"
               "#if defined X && !defined(Y) && HAS_X\nmov r0, c0\n#endif\n",
               NULL, NULL, 0, "vs_2_0\nmov r0, c0\n");
}

/* #if EXPR selects c1, else c0; or is an error. */
static void expect_if(const char *expr, int want)
{
    char src[512];
    snprintf(src, sizeof(src), "vs_2_0\n#if %s\nmov r0, c1\n#else\nmov r0, c0\n#endif\n", expr);
    struct st_result *res = pp_compile(src, NULL, NULL, 0, ST_EMIT_ASM);
    bool ok;
    if (want < 0) {
        ok = !res->ok && res->num_errors >= 1 && res->diagnostics[0].code == 1103 &&
             res->diagnostics[0].line == 2;
    } else {
        ok = res->ok && strcmp(res->output, want ? "vs_2_0\nmov r0, c1\n"
                                                 : "vs_2_0\nmov r0, c0\n") == 0;
    }
    if (!ok) {
        printf("  #if %s: want %d\n", expr, want);
        print_diags(res);
    }
    st_result_free(res);
    assert_true(ok);
}

static void test_if_expressions(void **state)
{
    (void)state;
    /* Precedence and associativity (C 6.5). */
    expect_if("1 + 2 * 3 == 7", 1);
    expect_if("(1 + 2) * 3 == 9", 1);
    expect_if("10 - 4 - 3 == 3", 1);
    expect_if("2 * 3 % 4 == 2", 1);
    expect_if("1 << 2 + 1 == 8", 1);
    expect_if("1 < 2 == 1", 1);
    expect_if("1 | 2 ^ 3 & 1", 1); /* 1 | (2 ^ (3 & 1)) = 1 | 3 */
    expect_if("0 || 1 && 0", 0);
    expect_if("1 ? 0 : 1 ? 1 : 1", 0);
    expect_if("0 ? 1 : 0 ? 1 : 2", 1);
    expect_if("-1 < 0", 1);
    expect_if("~0 == -1", 1);
    expect_if("!0 + !5 == 1", 1);
    expect_if("-(-3) == 3 && +3 == 3", 1);
    /* Literals: hex, octal, binary, suffixes. */
    expect_if("0x10 == 16 && 010 == 8 && 0b11 == 3 && 10u == 10 && 7L == 7", 1);
    /* Unsigned arithmetic (C's usual conversions). */
    expect_if("-1 < 0u", 0);
    expect_if("0xffffffffffffffff == -1", 1);
    expect_if("(0u - 1) > 0", 1);
    expect_if("-1 >> 1 == -1", 1);
    expect_if("(1 ? -1 : 0u) > 0", 1);
    /* Signed overflow wraps (C leaves it undefined; GCC says so and wraps). */
    expect_if("9223372036854775807 + 1 < 0", 1);
    /* Identifiers that are no macro are 0. */
    expect_if("UNDEFINED == 0 && true == 0", 1);
    /* Short circuits keep unevaluated errors away. */
    expect_if("0 && 1 / 0", 0);
    expect_if("1 || 1 % 0", 1);
    expect_if("1 ? 2 : 1 / 0", 1);
    /* Errors. */
    expect_if("1 / 0", -1);
    expect_if("1 % 0", -1);
    expect_if("1 << 64", -1);
    expect_if("1 << -1", -1);
    expect_if("(1", -1);
    expect_if("1)", -1);
    expect_if("1 +", -1);
    expect_if("1 ? 2", -1);
    expect_if("1 : 2", -1);
    expect_if("1.5", -1);
    expect_if("08", -1);
    expect_if("99999999999999999999", -1);
    expect_if("1 2", -1);
    expect_if("\"s\"", -1);
}

static void test_includes(void **state)
{
    (void)state;
    static const struct vfile files[] = {
        {"incl.vsh", "#define REGISTER r0\nvs.1.1\n"},
        {"guarded.inc", "#pragma once\n#define G 1\nmov r1, c1\n"},
        {"dir/a.inc", "#include \"dir/b.inc\"\nmov r2, c2\n"},
        {"dir/b.inc", "mov r3, c3\nmov r4, q4\n"},
    };
    struct vfs fs = {files, 4, 0, 0, "", -1};
    /* Wine's include test: a file that defines a macro and the version. */
    expect_asm("#include \"incl.vsh\"\nmov REGISTER, v0\n", &fs, NULL, 0, "vs_1_1\nmov r0, v0\n");
    assert_string_equal(fs.includer, "main.asm");
    assert_int_equal(fs.system, 0);
    expect_asm("#include <incl.vsh>\nmov REGISTER, v0\n", &fs, NULL, 0, "vs_1_1\nmov r0, v0\n");
    assert_int_equal(fs.system, 1);
    /* #pragma once: the second #include of the file adds nothing. */
    expect_asm("vs_2_0\n#include \"guarded.inc\"\n#include \"guarded.inc\"\n", &fs, NULL, 0,
               "vs_2_0\nmov r1, c1\n");
    assert_int_equal(fs.opens, fs.releases);
    /* An error two files down: located there, with both #include lines as
     * notes, innermost first. */
    struct st_result *res = pp_compile("vs_2_0\n#include \"dir/a.inc\"\n", &fs, NULL, 0,
                                       ST_EMIT_ASM);
    assert_false(res->ok);
    assert_int_equal(res->num_diagnostics, 3);
    expect_diag(res, 0, "dir/b.inc", 2, 9, ST_SEVERITY_ERROR, 1008, "unknown register 'q4'");
    assert_string_equal(res->diagnostics[0].source_line, "mov r4, q4");
    expect_diag(res, 1, "dir/a.inc", 1, 10, ST_SEVERITY_NOTE, 1008, "included from here");
    assert_string_equal(res->diagnostics[1].source_line, "#include \"dir/b.inc\"");
    expect_diag(res, 2, "main.asm", 2, 10, ST_SEVERITY_NOTE, 1008, "included from here");
    assert_string_equal(fs.includer, "dir/a.inc");
    st_result_free(res);
    /* Not found. */
    res = pp_compile("vs_2_0\n#include \"nothere.inc\"\n", &fs, NULL, 0, ST_EMIT_ASM);
    expect_diag(res, 0, "main.asm", 2, 10, ST_SEVERITY_ERROR, 1104,
                "cannot find the include file 'nothere.inc'");
    st_result_free(res);
    /* A file that includes itself: one error, then the preprocessor stops. */
    static const struct vfile loop[] = {{"self.inc", "mov r0, c0\n#include \"self.inc\"\n"}};
    struct vfs lfs = {loop, 1, 0, 0, "", -1};
    res = pp_compile("vs_2_0\n#include \"self.inc\"\n", &lfs, NULL, 0, ST_EMIT_ASM);
    assert_int_equal(res->num_errors, 1);
    expect_diag(res, 0, "self.inc", 2, 10, ST_SEVERITY_ERROR, 1104, "nested more than 200 deep");
    assert_int_equal(res->num_diagnostics, 1 + 200);
    assert_int_equal(lfs.opens, lfs.releases);
    st_result_free(res);
}

static void test_locations(void **state)
{
    (void)state;
    /* After a continued line and a comment that spans lines, the columns
     * of the file are kept. */
    struct st_result *res = pp_compile("vs_2_0\n#define X \\\n  c0\n/* one\n two */ mov r0, \\\n"
                                       "   q1\nmov r1, X\n\tmov r2, q2 /* x */ , c0\n",
                                       NULL, NULL, 0, ST_EMIT_ASM);
    assert_int_equal(res->num_errors, 2);
    expect_diag(res, 0, "main.asm", 6, 4, ST_SEVERITY_ERROR, 1008, "unknown register 'q1'");
    assert_string_equal(res->diagnostics[0].source_line, "   q1");
    expect_diag(res, 1, "main.asm", 8, 10, ST_SEVERITY_ERROR, 1008, "unknown register 'q2'");
    st_result_free(res);
    /* A word continued on the next line: a column inside it is on the
     * physical line that part is on (the second "_" is line 3, column 4;
     * the line with the '\\' is 10 bytes long). */
    res = pp_compile("ps_2_x\n     setp\\\n_gt__ p0, r0, r1\n", NULL, NULL, 0, ST_EMIT_ASM);
    expect_diag(res, 0, "main.asm", 3, 4, ST_SEVERITY_ERROR, 1007, "unknown modifier '_'");
    assert_string_equal(res->diagnostics[0].source_line, "_gt__ p0, r0, r1");
    st_result_free(res);
    /* A spliced __LINE__ is replaced by a shorter text: its splice no
     * longer applies (the sanitizer build reads past the "2" otherwise). */
    res = pp_compile("vs_2_0\nmov r1, __LI\\\nNE__\n", NULL, NULL, 0, ST_EMIT_ASM);
    expect_diag(res, 0, "main.asm", 2, 9, ST_SEVERITY_ERROR, 1002, "found number '2'");
    st_result_free(res);
    /* In a macro's expansion: at the invocation, with a note at the macro;
     * in an argument: at the argument. */
    res = pp_compile("#define BAD mov r0, q0\n#define M(a) mov r1, a\nvs_2_0\n  BAD\nM( q5 )\n",
                     NULL, NULL, 0, ST_EMIT_ASM);
    assert_int_equal(res->num_errors, 2);
    expect_diag(res, 0, "main.asm", 4, 3, ST_SEVERITY_ERROR, 1008, "'q0'");
    expect_diag(res, 1, "main.asm", 1, 9, ST_SEVERITY_NOTE, 1008, "the macro 'BAD' is defined here");
    expect_diag(res, 2, "main.asm", 5, 4, ST_SEVERITY_ERROR, 1008, "'q5'");
    st_result_free(res);
    /* #line renames the file and renumbers the lines; a message naming
     * another place says where. */
    res = pp_compile("vs_2_0\nif b0\n#line 7 \"orig.vsh\"\nmov r0, c0\nendloop\n", NULL, NULL, 0,
                     ST_EMIT_ASM);
    expect_diag(res, 0, "main.asm", 2, 1, ST_SEVERITY_ERROR, 2014, "if without endif");
    expect_diag(res, 1, "orig.vsh", 8, 1, ST_SEVERITY_ERROR, 2014,
                "endloop closes the if opened at main.asm:2");
    st_result_free(res);
    /* The preprocessor's own messages. */
    res = pp_compile("vs_2_0\n#define F(a, b) a\nF(1)\n  #  error  stop here  \n#warning careful\n"
                     "#pragma pack\n#endif x\n#bogus\n#define 3\n/* open\n",
                     NULL, NULL, 0, ST_EMIT_ASM);
    expect_diag(res, 0, "main.asm", 3, 1, ST_SEVERITY_ERROR, 1105,
                "macro 'F' takes 2 arguments, 1 given");
    expect_diag(res, 1, "main.asm", 2, 9, ST_SEVERITY_NOTE, 1105, "'F' is defined here");
    expect_diag(res, 2, "main.asm", 4, 6, ST_SEVERITY_ERROR, 1106, "#error stop here");
    expect_diag(res, 3, "main.asm", 5, 2, ST_SEVERITY_WARNING, 5006, "#warning careful");
    expect_diag(res, 4, "main.asm", 6, 2, ST_SEVERITY_WARNING, 5002, "#pragma pack ignored");
    expect_diag(res, 5, "main.asm", 7, 2, ST_SEVERITY_ERROR, 1102, "#endif without #if");
    expect_diag(res, 6, "main.asm", 8, 2, ST_SEVERITY_ERROR, 1101,
                "unknown preprocessor directive '#bogus'");
    expect_diag(res, 7, "main.asm", 9, 9, ST_SEVERITY_ERROR, 1101,
                "a macro name must be an identifier, found '3'");
    expect_diag(res, 8, "main.asm", 10, 1, ST_SEVERITY_ERROR, 1107, "unterminated comment");
    st_result_free(res);
}

static void test_limits(void **state)
{
    (void)state;
    /* Arguments nested 300 deep: a located error at the 201st level; the
     * next line is fine. */
    size_t n = 300;
    char *src = malloc(8 * n + 200);
    assert_non_null(src);
    char *p = src + sprintf(src, "#define F(x) x\nvs_2_0\nmov r0, ");
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "F(");
    p += sprintf(p, "c1");
    for (size_t i = 0; i < n; i++)
        *p++ = ')';
    sprintf(p, "\nmov r1, F(F(c2))\n");
    struct st_result *res = pp_compile(src, NULL, NULL, 0, ST_EMIT_ASM);
    assert_int_equal(res->num_errors, 1);
    expect_diag(res, 0, "main.asm", 3, 9 + 2 * 200, ST_SEVERITY_ERROR, 1105,
                "nested more than 200 deep");
    st_result_free(res);
    free(src);
    /* Doubling definitions: bounded, located, and the line is dropped. */
    char big[2048];
    p = big;
    for (char c = 'A'; c < 'Z'; c++)
        p += sprintf(p, "#define %c %c %c\n", c, c + 1, c + 1);
    sprintf(p, "vs_2_0\nmov r0, A\nmov r1, c1\n");
    res = pp_compile(big, NULL, NULL, 0, ST_EMIT_ASM);
    assert_int_equal(res->num_errors, 1);
    expect_diag(res, 0, "main.asm", 27, 9, ST_SEVERITY_ERROR, 1105, "more than 1048576 tokens");
    st_result_free(res);
    /* 100000 parentheses in #if and 100000 in an index: no recursion. */
    n = 100000;
    src = malloc(4 * n + 100);
    assert_non_null(src);
    p = src + sprintf(src, "vs_2_0\n#if ");
    memset(p, '(', n);
    p += n;
    *p++ = '1';
    memset(p, ')', n);
    p += n;
    sprintf(p, "\nmov r0, c0\n#endif\n");
    expect_asm(src, NULL, NULL, 0, "vs_2_0\nmov r0, c0\n");
    free(src);
    /* 20000 nested #if. */
    n = 20000;
    src = malloc(16 * n + 100);
    assert_non_null(src);
    p = src + sprintf(src, "vs_2_0\n");
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "#if 1\n");
    p += sprintf(p, "mov r0, c0\n");
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "#endif\n");
    expect_asm(src, NULL, NULL, 0, "vs_2_0\nmov r0, c0\n");
    free(src);
    /* A chain of 20000 macros, each naming the next. */
    src = malloc(40 * n + 100);
    assert_non_null(src);
    p = src;
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "#define M%zu M%zu\n", i, i + 1);
    p += sprintf(p, "#define M%zu c3\nvs_2_0\nmov r0, M0\n", n);
    expect_asm(src, NULL, NULL, 0, "vs_2_0\nmov r0, c3\n");
    free(src);
}

/* A text without directives, block comments or continuations, and no -D,
 * is read as it always was: the same diagnostics, byte for byte. */
static void test_plain_text_unchanged(void **state)
{
    (void)state;
    const char *src = "vs_2_0 // c\nmov r0, q0 ; x\n  add r1,, c0\n";
    struct st_result *a = pp_compile(src, NULL, NULL, 0, ST_EMIT_ASM);
    static const char *const none[] = {"UNUSED"};
    struct st_result *b = pp_compile(src, NULL, none, 1, ST_EMIT_ASM);
    assert_int_equal(a->num_diagnostics, b->num_diagnostics);
    for (size_t i = 0; i < a->num_diagnostics; i++) {
        char x[512], y[512];
        st_diagnostic_format(&a->diagnostics[i], x, sizeof(x));
        st_diagnostic_format(&b->diagnostics[i], y, sizeof(y));
        assert_string_equal(x, y);
        assert_string_equal(a->diagnostics[i].source_line, b->diagnostics[i].source_line);
    }
    st_result_free(a);
    st_result_free(b);
    /* A caller built against struct_version 1 (no preprocessor fields)
     * still gets #define. */
    struct st_options o1;
    memset(&o1, 0xa5, sizeof(o1)); /* the version-2 fields are garbage */
    o1.struct_version = 1;
    o1.filename = "v1.asm";
    o1.source = "#define R r0\nvs_2_0\nmov R, c0\n";
    o1.source_len = strlen(o1.source);
    o1.dialect = ST_DIALECT_AUTO;
    o1.emit = ST_EMIT_ASM;
    o1.max_errors = 0;
    o1.float_rules = ST_FLOAT_IEEE;
    o1.want_stats = 0;
    o1.simd_width = 0;
    struct st_result *r = NULL;
    assert_int_equal(st_compile(&o1, &r), 0);
    assert_true(r->ok);
    assert_string_equal(r->output, "vs_2_0\nmov r0, c0\n");
    st_result_free(r);
}

/* Random directive soup: never a crash, every diagnostic located. */
static void test_random(void **state)
{
    (void)state;
    static const char *const words[] = {
        "#define ", "#undef ", "#if ", "#ifdef ", "#ifndef ", "#elif ", "#else", "#endif",
        "#include \"x.inc\"", "#include <y.inc>", "#line 5 \"f\"", "#error e", "#pragma once",
        "#", "##", "defined", "(", ")", ",", "...", "__VA_ARGS__", "A", "B(x)", "B", "x",
        " ", "\\\n", "\n", "/*", "*/", "//", ";", "\"", "1", "0x7", "+", "-", "*", "/", "%",
        "<<", "&&", "||", "?", ":", "!", "mov", "r0", "c[", "]", "vs_2_0", "\xc3\xa9", "\t"};
    static const struct vfile files[] = {{"x.inc", "#define A B\nA(1)\n#if\n"},
                                         {"y.inc", "#include \"y.inc\"\n"}};
    const char *e = getenv("ST_FUZZ_COUNT");
    unsigned count = e && atoi(e) > 0 ? (unsigned)atoi(e) : 3000;
    struct rng rg = {.s = 12345};
    char *src = malloc(4096);
    assert_non_null(src);
    unsigned located = 0;
    for (unsigned k = 0; k < count; k++) {
        size_t len = 0;
        unsigned nw = 1 + below(&rg, 60);
        for (unsigned i = 0; i < nw && len < 3500; i++) {
            const char *w = words[below(&rg, sizeof(words) / sizeof(words[0]))];
            size_t l = strlen(w);
            memcpy(src + len, w, l);
            len += l;
            if (below(&rg, 3) == 0)
                src[len++] = below(&rg, 2) ? '\n' : ' ';
        }
        src[len] = '\0';
        struct vfs fs = {files, 2, 0, 0, "", -1};
        struct st_result *res = pp_compile(src, &fs, NULL, 0, ST_EMIT_ASM);
        for (size_t i = 0; i < res->num_diagnostics; i++) {
            const struct st_diagnostic *d = &res->diagnostics[i];
            if (d->line == 0 && d->code != 9001) {
                printf("  case %u: unlocated diagnostic\n%s\n", k, src);
                print_diags(res);
                fail();
            }
            located++;
        }
        assert_int_equal(fs.opens, fs.releases);
        st_result_free(res);
    }
    free(src);
    printf("random directive soup: %u texts, %u diagnostics, all located\n", count, located);
}

/*
 * source_line leaves out the '\r' of a CRLF line break and nothing more,
 * whether the text went through the preprocessor (its locator gives the
 * line) or not (the message context finds it): a line ending "\r\r\n"
 * keeps one '\r'.  Both paths once dropped a '\r' each, and a column at
 * the end of such a line pointed past the text (fuzz_run found it).
 */
static void test_source_line_crlf(void **state)
{
    (void)state;
    const char *texts[] = {"vs_2_0\r\nmov r0, q0\r\r\n",            /* read as it is */
                           "#define X q0\r\nvs_2_0\r\nmov r0, X\r\r\n"}; /* preprocessed */
    const char *want[] = {"mov r0, q0\r", "mov r0, X\r"};
    for (unsigned k = 0; k < 2; k++) {
        struct st_result *res = pp_compile(texts[k], NULL, NULL, 0, ST_EMIT_ASM);
        assert_false(res->ok);
        assert_true(res->num_diagnostics >= 1);
        const struct st_diagnostic *d = &res->diagnostics[0];
        assert_non_null(d->source_line);
        assert_string_equal(d->source_line, want[k]);
        st_result_free(res);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_macros),
        cmocka_unit_test(test_standard_examples),
        cmocka_unit_test(test_conditionals),
        cmocka_unit_test(test_if_expressions),
        cmocka_unit_test(test_includes),
        cmocka_unit_test(test_locations),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_plain_text_unchanged),
        cmocka_unit_test(test_source_line_crlf),
        cmocka_unit_test(test_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
