/*
 * test_parser.c — the D3D9 assembly lexer, parser and canonical printer
 * (translator/d3d9/lexer.l, parser.y, print.c), tested through translator.h.
 *
 *   - AST tests: one small shader per feature; every expected field value
 *     is worked out by hand from the D3D9 assembly reference (swizzle
 *     encodings with ST_SWIZZLE, columns counted by hand, tabs = 1).
 *   - error tests: each diagnostic code the parser emits, with line and
 *     column of the offending token.
 *   - printer tests: canonical text for hand-written inputs.
 *   - corpus round trip: every d3d9 file marked valid in manifest.tsv parses
 *     (except the known extraction defects, which must fail with a located
 *     error), and parse -> print -> parse -> print is a fixed point whose
 *     second AST equals the first in every semantic field.
 *   - robustness: random bytes and mutated corpus files never crash (run
 *     under `scons SANITIZE=1` for leaks/UB), and whatever parses cleanly
 *     round-trips.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "translator.h"
#include "test_util.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

struct parsed {
    struct st_ctx *ctx;
    struct st_arena *arena;
    struct st_shader *sh;
    struct st_result res; /* diagnostics, exported once parsing is done */
};

static struct parsed *parse_n(const char *src, size_t len, unsigned max_errors)
{
    struct parsed *p = calloc(1, sizeof(*p));
    assert_non_null(p);
    p->ctx = st_ctx_create("t.asm", src, len, max_errors);
    p->arena = st_arena_create();
    assert_non_null(p->ctx);
    assert_non_null(p->arena);
    p->sh = st_parse_d3d9(p->ctx, p->arena);
    assert_true(st_ctx_export(p->ctx, &p->res));
    return p;
}

static struct parsed *parse(const char *src)
{
    return parse_n(src, strlen(src), 0);
}

static void done(struct parsed *p)
{
    struct st_diagnostic *d = (struct st_diagnostic *)p->res.diagnostics;
    if (d) {
        free((char *)d[0].file); /* shared by all */
        for (size_t i = 0; i < p->res.num_diagnostics; i++) {
            free((char *)d[i].message);
            free((char *)d[i].source_line);
        }
        free(d);
    }
    st_arena_destroy(p->arena);
    st_ctx_destroy(p->ctx);
    free(p);
}

static void dump_diags(const struct parsed *p)
{
    char line[512];
    for (size_t i = 0; i < p->res.num_diagnostics; i++) {
        st_diagnostic_format(&p->res.diagnostics[i], line, sizeof(line));
        print_message("    %s\n", line);
    }
}

/* Parses a shader that must have no diagnostics at all. */
static struct parsed *parse_ok(const char *src)
{
    struct parsed *p = parse(src);
    if (p->res.num_diagnostics)
        dump_diags(p);
    assert_int_equal(p->res.num_diagnostics, 0);
    assert_non_null(p->sh);
    assert_int_equal(p->sh->dialect, ST_D3D9);
    return p;
}

static const struct st_instr *nth(const struct parsed *p, unsigned n)
{
    const struct st_instr *ins = p->sh->first;
    for (unsigned i = 0; i < n && ins; i++)
        ins = ins->next;
    assert_non_null(ins);
    return ins;
}

/* The only (first) instruction of a one-instruction shader. */
static const struct st_instr *only(const struct parsed *p)
{
    assert_int_equal(p->sh->num_instrs, 1);
    return nth(p, 0);
}

/* The first diagnostic must be an error with this code and position. */
static void expect_diag(const char *src, unsigned code, unsigned line, unsigned col)
{
    struct parsed *p = parse(src);
    if (p->res.num_diagnostics == 0 || p->res.diagnostics[0].code != code ||
        p->res.diagnostics[0].line != line || p->res.diagnostics[0].column != col) {
        print_message("input:\n%s\nwant code %u at %u:%u, got:\n", src, code, line, col);
        dump_diags(p);
    }
    assert_true(p->res.num_diagnostics >= 1);
    assert_int_equal(p->res.diagnostics[0].code, code);
    assert_int_equal(p->res.diagnostics[0].line, line);
    assert_int_equal(p->res.diagnostics[0].column, col);
    assert_non_null(p->res.diagnostics[0].message);
    assert_true(strlen(p->res.diagnostics[0].message) > 0);
    if (code != ST_W_STRAY_COMMA && code < 5000)
        assert_int_equal(p->res.diagnostics[0].severity, ST_SEVERITY_ERROR);
    done(p);
}

/* Exactly one diagnostic, this one. */
static void expect_only_diag(const char *src, unsigned code, unsigned line, unsigned col)
{
    expect_diag(src, code, line, col);
    struct parsed *p = parse(src);
    if (p->res.num_diagnostics != 1)
        dump_diags(p);
    assert_int_equal(p->res.num_diagnostics, 1);
    done(p);
}

static char *print_shader(const struct st_shader *sh)
{
    struct st_buf b = {0};
    st_print_asm(sh, &b);
    assert_false(b.oom);
    assert_non_null(b.data);
    return b.data; /* caller frees */
}

static void expect_print(const char *src, const char *want)
{
    struct parsed *p = parse_ok(src);
    char *got = print_shader(p->sh);
    if (strcmp(got, want) != 0)
        print_message("input:\n%s\nwant:\n%s\ngot:\n%s\n", src, want, got);
    assert_string_equal(got, want);
    free(got);
    done(p);
}

#define SWZ ST_SWIZZLE
enum { X, Y, Z, W };

/* ------------------------------------------------------------------ */
/* Versions                                                            */

static void check_version(const char *src, enum st_shader_type type, unsigned ver, bool dot)
{
    struct parsed *p = parse_ok(src);
    assert_int_equal(p->sh->version.type, type);
    assert_int_equal(p->sh->version.ver, ver);
    assert_int_equal(p->sh->version.dot_syntax, dot);
    assert_int_equal(p->sh->version.loc.line, 1);
    assert_int_equal(p->sh->version.loc.column, 1);
    assert_int_equal(p->sh->num_instrs, 0);
    assert_null(p->sh->first);
    done(p);
}

static void test_versions(void **state)
{
    (void)state;
    check_version("vs_1_1\n", ST_VS, 0x0101, false);
    check_version("vs_2_0\n", ST_VS, 0x0200, false);
    check_version("vs_2_x\n", ST_VS, ST_VER_2X, false);
    check_version("vs_3_0", ST_VS, 0x0300, false); /* no final newline */
    check_version("ps_1_1\n", ST_PS, 0x0101, false);
    check_version("ps_1_2\n", ST_PS, 0x0102, false);
    check_version("ps_1_3\n", ST_PS, 0x0103, false);
    check_version("ps_1_4\n", ST_PS, 0x0104, false);
    check_version("ps_2_0\n", ST_PS, 0x0200, false);
    check_version("PS_2_X\n", ST_PS, ST_VER_2X, false);
    check_version("ps_3_0\n", ST_PS, 0x0300, false);
    check_version("vs.1.1\n", ST_VS, 0x0101, true);
    check_version("ps.2.x\n", ST_PS, ST_VER_2X, true);
    check_version("Vs.3.0\n", ST_VS, 0x0300, true);
    check_version("vs.1.0\n", ST_VS, 0x0100, true);
    check_version("vs_1_0\n", ST_VS, 0x0100, false);
    /* comments and blank lines before the version are not statements */
    struct parsed *p = parse_ok("// c\n\n; c\n   vs_2_0 // c\n");
    assert_int_equal(p->sh->version.ver, 0x0200);
    assert_int_equal(p->sh->version.loc.line, 4);
    assert_int_equal(p->sh->version.loc.column, 4);
    done(p);
}

/* ------------------------------------------------------------------ */
/* Basic instructions, destinations, sources                           */

static void test_basic_mov(void **state)
{
    (void)state;
    struct parsed *p = parse_ok("vs_1_1\nmov r0, c3\n");
    const struct st_instr *i = only(p);
    assert_int_equal(i->op, ST_OP_MOV);
    assert_int_equal(i->loc.line, 2);
    assert_int_equal(i->loc.column, 1);
    assert_true(i->has_dst);
    assert_int_equal(i->dst.reg.file, ST_REG_TEMP);
    assert_int_equal(i->dst.reg.index, 0);
    assert_int_equal(i->dst.writemask, 0xf);
    assert_int_equal(i->dst.loc.column, 5);
    assert_int_equal(i->nsrc, 1);
    assert_int_equal(i->src[0].reg.file, ST_REG_CONST);
    assert_int_equal(i->src[0].reg.index, 3);
    assert_null(i->src[0].reg.rel);
    assert_int_equal(i->src[0].swizzle, ST_SWIZZLE_IDENTITY);
    assert_int_equal(i->src[0].swizzle_len, 0);
    assert_int_equal(i->src[0].mod, ST_SRCMOD_NONE);
    assert_int_equal(i->src[0].loc.column, 9);
    assert_int_equal(i->src[0].reg.loc.column, 9);
    assert_int_equal(i->dstmod, 0);
    assert_int_equal(i->shift, 0);
    assert_int_equal(i->cmp, ST_CMP_NONE);
    assert_false(i->coissue);
    assert_false(i->predicated);
    assert_ptr_equal(p->sh->last, i);
    done(p);
}

static void test_case_and_whitespace(void **state)
{
    (void)state;
    /* Opcodes and registers are case-insensitive; a tab is one column. */
    struct parsed *p = parse_ok("VS_2_0\n\tMAD  R1.XY ,V0 , C2.w,-r3\n");
    const struct st_instr *i = only(p);
    assert_int_equal(i->op, ST_OP_MAD);
    assert_int_equal(i->loc.column, 2);
    assert_int_equal(i->dst.reg.file, ST_REG_TEMP);
    assert_int_equal(i->dst.reg.index, 1);
    assert_int_equal(i->dst.writemask, 0x3);
    assert_int_equal(i->nsrc, 3);
    assert_int_equal(i->src[0].reg.file, ST_REG_INPUT);
    assert_int_equal(i->src[0].loc.column, 14);
    assert_int_equal(i->src[1].reg.file, ST_REG_CONST);
    assert_int_equal(i->src[1].reg.index, 2);
    assert_int_equal(i->src[1].swizzle, SWZ(W, W, W, W));
    assert_int_equal(i->src[1].swizzle_len, 1);
    assert_int_equal(i->src[2].mod, ST_SRCMOD_NEG);
    assert_int_equal(i->src[2].loc.column, 24);
    assert_int_equal(i->src[2].reg.loc.column, 25);
    done(p);
}

static void test_writemasks(void **state)
{
    (void)state;
    static const struct {
        const char *mask;
        uint8_t want;
    } cases[] = {
        {"", 0xf},     {".x", 0x1},   {".y", 0x2},    {".z", 0x4},   {".w", 0x8},
        {".xy", 0x3},  {".xz", 0x5},  {".yzw", 0xe},  {".xyzw", 0xf}, {".r", 0x1},
        {".rgb", 0x7}, {".a", 0x8},   {".xyb", 0x7},  {".ga", 0xa},  {".XW", 0x9},
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        char src[64];
        snprintf(src, sizeof(src), "vs_2_0\nmov r2%s, r1\n", cases[k].mask);
        struct parsed *p = parse_ok(src);
        assert_int_equal(only(p)->dst.writemask, cases[k].want);
        done(p);
    }
}

static void test_swizzles(void **state)
{
    (void)state;
    static const struct {
        const char *swz;
        uint8_t want, len;
    } cases[] = {
        {"", ST_SWIZZLE_IDENTITY, 0},
        {".x", SWZ(X, X, X, X), 1},
        {".w", SWZ(W, W, W, W), 1},
        {".xy", SWZ(X, Y, Y, Y), 2},      /* D3D repeats the last letter */
        {".zyx", SWZ(Z, Y, X, X), 3},
        {".wzyx", SWZ(W, Z, Y, X), 4},
        {".xyzw", ST_SWIZZLE_IDENTITY, 4},
        {".rgba", ST_SWIZZLE_IDENTITY, 4},
        {".bgra", SWZ(Z, Y, X, W), 4},
        {".a", SWZ(W, W, W, W), 1},
        {".xyww", SWZ(X, Y, W, W), 4},
        {".YzWx", SWZ(Y, Z, W, X), 4},
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        char src[64];
        snprintf(src, sizeof(src), "ps_2_0\nmov r0, r1%s\n", cases[k].swz);
        struct parsed *p = parse_ok(src);
        assert_int_equal(only(p)->src[0].swizzle, cases[k].want);
        assert_int_equal(only(p)->src[0].swizzle_len, cases[k].len);
        done(p);
    }
    /* the encoding itself: .xyzw is 0xe4, .wzyx is 0x1b */
    assert_int_equal(SWZ(X, Y, Z, W), 0xe4);
    assert_int_equal(SWZ(W, Z, Y, X), 0x1b);
}

static void test_source_modifiers(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        enum st_srcmod want;
    } cases[] = {
        {"r1", ST_SRCMOD_NONE},        {"-r1", ST_SRCMOD_NEG},
        {"r1_bias", ST_SRCMOD_BIAS},   {"-r1_bias", ST_SRCMOD_BIASNEG},
        {"r1_bx2", ST_SRCMOD_SIGN},    {"-r1_bx2", ST_SRCMOD_SIGNNEG},
        {"1 - r1", ST_SRCMOD_COMP},    {"1-r1", ST_SRCMOD_COMP},
        {"r1_x2", ST_SRCMOD_X2},       {"-r1_x2", ST_SRCMOD_X2NEG},
        {"r1_dz", ST_SRCMOD_DZ},       {"r1_db", ST_SRCMOD_DZ},
        {"r1_dw", ST_SRCMOD_DW},       {"r1_da", ST_SRCMOD_DW},
        {"r1_abs", ST_SRCMOD_ABS},     {"-r1_abs", ST_SRCMOD_ABSNEG},
        {"R1_BX2", ST_SRCMOD_SIGN},    {"- r1", ST_SRCMOD_NEG},
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        char src[64];
        snprintf(src, sizeof(src), "ps_1_4\nmov r0, %s.x\n", cases[k].text);
        struct parsed *p = parse_ok(src);
        const struct st_src *s = &only(p)->src[0];
        assert_int_equal(s->mod, cases[k].want);
        assert_int_equal(s->reg.file, ST_REG_TEMP);
        assert_int_equal(s->reg.index, 1);
        assert_int_equal(s->swizzle, SWZ(X, X, X, X));
        assert_int_equal(s->loc.column, 9); /* the operand's first character */
        done(p);
    }
    /* modifier and swizzle: ps_1_3 "mov_x4_sat r0.a, -r1_bx2.a" */
    struct parsed *p = parse_ok("ps_1_3\nmov_x4_sat r0.a, -r1_bx2.a\n");
    const struct st_instr *i = only(p);
    assert_int_equal(i->dstmod, ST_DSTMOD_SAT);
    assert_int_equal(i->shift, 2);
    assert_int_equal(i->mod_loc.column, 4);
    assert_int_equal(i->dst.writemask, 0x8);
    assert_int_equal(i->src[0].mod, ST_SRCMOD_SIGNNEG);
    assert_int_equal(i->src[0].swizzle, SWZ(W, W, W, W));
    done(p);
    /* !b0 and !p0.z */
    p = parse_ok("vs_2_x\ncallnz l0, !b0\ncallnz l1, !p0.z\n");
    i = nth(p, 0);
    assert_int_equal(i->op, ST_OP_CALLNZ);
    assert_false(i->has_dst);
    assert_int_equal(i->nsrc, 2);
    assert_int_equal(i->src[0].reg.file, ST_REG_LABEL);
    assert_int_equal(i->src[0].reg.index, 0);
    assert_int_equal(i->src[1].reg.file, ST_REG_CONSTBOOL);
    assert_int_equal(i->src[1].mod, ST_SRCMOD_NOT);
    i = nth(p, 1);
    assert_int_equal(i->src[0].reg.index, 1);
    assert_int_equal(i->src[1].reg.file, ST_REG_PREDICATE);
    assert_int_equal(i->src[1].mod, ST_SRCMOD_NOT);
    assert_int_equal(i->src[1].swizzle, SWZ(Z, Z, Z, Z));
    done(p);
}

static void test_instruction_modifiers(void **state)
{
    (void)state;
    static const struct {
        const char *src;
        enum st_opcode op;
        uint8_t dstmod;
        int shift;
    } cases[] = {
        {"ps_1_4\nadd_x2 r0, r1, r2\n", ST_OP_ADD, 0, 1},
        {"ps_1_4\nadd_x4 r0, r1, r2\n", ST_OP_ADD, 0, 2},
        {"ps_1_4\nadd_x8 r0, r1, r2\n", ST_OP_ADD, 0, 3},
        {"ps_1_4\nadd_d2 r0, r1, r2\n", ST_OP_ADD, 0, -1},
        {"ps_1_4\nadd_d4 r0, r1, r2\n", ST_OP_ADD, 0, -2},
        {"ps_1_4\nadd_d8 r0, r1, r2\n", ST_OP_ADD, 0, -3},
        {"ps_1_4\nadd_sat r0, r1, r2\n", ST_OP_ADD, ST_DSTMOD_SAT, 0},
        {"ps_1_4\nADD_D2_SAT r0, r1, r2\n", ST_OP_ADD, ST_DSTMOD_SAT, -1},
        {"ps_3_0\ntexldd_pp r0, r1, s0, r3, r4\n", ST_OP_TEXLDD, ST_DSTMOD_PP, 0},
        {"ps_2_0\nmul_sat_pp r0, r1, r2\n", ST_OP_MUL, ST_DSTMOD_SAT | ST_DSTMOD_PP, 0},
        {"ps_2_0\ntexldp r0, t0, s0\n", ST_OP_TEXLDP, 0, 0},
        {"ps_2_x\ntexldb_pp r0, t0, s0\n", ST_OP_TEXLDB, ST_DSTMOD_PP, 0},
        {"ps_1_3\ntexdp3tex_x8 t1, t0\n", ST_OP_TEXDP3TEX, 0, 3},
        {"vs_3_0\nmova_sat a0.x, r1\n", ST_OP_MOVA, ST_DSTMOD_SAT, 0},
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        struct parsed *p = parse_ok(cases[k].src);
        const struct st_instr *i = only(p);
        assert_int_equal(i->op, cases[k].op);
        assert_int_equal(i->dstmod, cases[k].dstmod);
        assert_int_equal(i->shift, cases[k].shift);
        if (cases[k].dstmod || cases[k].shift) {
            /* the first '_' after the opcode name */
            const char *line = strchr(cases[k].src, '\n') + 1;
            assert_int_equal(i->mod_loc.line, 2);
            assert_int_equal(i->mod_loc.column, (unsigned)(strchr(line, '_') - line) + 1);
        }
        done(p);
    }
}

static void test_comparisons(void **state)
{
    (void)state;
    struct parsed *p = parse_ok("ps_2_x\n"
                                "if_gt r0.x, r1.y\n"
                                "endif\n"
                                "rep i0\n"
                                "break_ne r0, r1\n"
                                "break\n"
                                "endrep\n"
                                "setp_le p0, r0, r1\n"
                                "if p0.x\n"
                                "else\n"
                                "endif\n"
                                "if_eq r0, r1\n"
                                "endif\n"
                                "if_GE r0, r1\n"
                                "endif\n"
                                "setp_lt p0.xy, r0, r1\n");
    assert_int_equal(p->sh->num_instrs, 15);
    const struct st_instr *i = nth(p, 0);
    assert_int_equal(i->op, ST_OP_IFC);
    assert_int_equal(i->cmp, ST_CMP_GT);
    assert_false(i->has_dst);
    assert_int_equal(i->nsrc, 2);
    assert_int_equal(i->src[0].swizzle, SWZ(X, X, X, X));
    assert_int_equal(i->src[1].swizzle, SWZ(Y, Y, Y, Y));
    assert_int_equal(nth(p, 1)->op, ST_OP_ENDIF);
    assert_int_equal(nth(p, 2)->op, ST_OP_REP);
    assert_int_equal(nth(p, 2)->src[0].reg.file, ST_REG_CONSTINT);
    i = nth(p, 3);
    assert_int_equal(i->op, ST_OP_BREAKC);
    assert_int_equal(i->cmp, ST_CMP_NE);
    i = nth(p, 4);
    assert_int_equal(i->op, ST_OP_BREAK);
    assert_int_equal(i->cmp, ST_CMP_NONE);
    assert_int_equal(i->nsrc, 0);
    i = nth(p, 6);
    assert_int_equal(i->op, ST_OP_SETP);
    assert_int_equal(i->cmp, ST_CMP_LE);
    assert_true(i->has_dst);
    assert_int_equal(i->dst.reg.file, ST_REG_PREDICATE);
    assert_int_equal(i->nsrc, 2);
    i = nth(p, 7);
    assert_int_equal(i->op, ST_OP_IF);
    assert_int_equal(i->cmp, ST_CMP_NONE);
    assert_int_equal(i->src[0].reg.file, ST_REG_PREDICATE);
    assert_int_equal(nth(p, 8)->op, ST_OP_ELSE);
    assert_int_equal(nth(p, 10)->cmp, ST_CMP_EQ);
    assert_int_equal(nth(p, 12)->cmp, ST_CMP_GE);
    assert_int_equal(nth(p, 14)->cmp, ST_CMP_LT);
    assert_int_equal(nth(p, 14)->dst.writemask, 0x3);
    done(p);
}

static void test_predication_and_coissue(void **state)
{
    (void)state;
    struct parsed *p = parse_ok("ps_2_x\n"
                 "(p0) add r2, r2, r3\n"
                 "(!p0.y) mov r0, r1\n"
                 "( p0.x ) mov r0, r1\n");
    const struct st_instr *i = nth(p, 0);
    assert_true(i->predicated);
    assert_int_equal(i->op, ST_OP_ADD);
    assert_int_equal(i->loc.column, 6);
    assert_int_equal(i->pred.reg.file, ST_REG_PREDICATE);
    assert_int_equal(i->pred.reg.index, 0);
    assert_int_equal(i->pred.mod, ST_SRCMOD_NONE);
    assert_int_equal(i->pred.swizzle, ST_SWIZZLE_IDENTITY);
    i = nth(p, 1);
    assert_true(i->predicated);
    assert_int_equal(i->pred.mod, ST_SRCMOD_NOT);
    assert_int_equal(i->pred.swizzle, SWZ(Y, Y, Y, Y));
    assert_int_equal(i->pred.loc.column, 2);
    i = nth(p, 2);
    assert_true(i->predicated);
    assert_int_equal(i->pred.swizzle, SWZ(X, X, X, X));
    assert_int_equal(i->loc.column, 10);
    done(p);

    p = parse_ok("ps_1_1\ntex t0\nadd r0.rgb, r0, r1\n+mov r0.a, t0\n+ mul r1.a, t0, t0\n");
    assert_false(nth(p, 1)->coissue);
    i = nth(p, 2);
    assert_true(i->coissue);
    assert_int_equal(i->op, ST_OP_MOV);
    assert_int_equal(i->loc.column, 2);
    assert_int_equal(i->dst.writemask, 0x8);
    assert_int_equal(i->src[0].reg.file, ST_REG_TEXTURE);
    assert_true(nth(p, 3)->coissue);
    assert_int_equal(nth(p, 3)->loc.column, 3);
    done(p);
}

/* ------------------------------------------------------------------ */
/* Registers                                                           */

static void check_reg(const char *version, const char *text, enum st_regfile file,
                      uint32_t index)
{
    char src[96];
    /* as a source of mov: every file parses there; the checker judges it */
    snprintf(src, sizeof(src), "%s\nmov r0, %s\n", version, text);
    struct parsed *p = parse_ok(src);
    const struct st_src *s = &only(p)->src[0];
    if (s->reg.file != file || s->reg.index != index)
        print_message("%s: %s -> file %d index %u\n", version, text, s->reg.file, s->reg.index);
    assert_int_equal(s->reg.file, file);
    assert_int_equal(s->reg.index, index);
    done(p);
}

static void test_registers(void **state)
{
    (void)state;
    check_reg("vs_3_0", "r31", ST_REG_TEMP, 31);
    check_reg("vs_3_0", "v15", ST_REG_INPUT, 15);
    check_reg("vs_3_0", "c255", ST_REG_CONST, 255);
    check_reg("vs_2_0", "a0", ST_REG_ADDR, 0);
    check_reg("ps_1_3", "t3", ST_REG_TEXTURE, 3);
    check_reg("vs_1_1", "oPos", ST_REG_RASTOUT, ST_RASTOUT_POS);
    check_reg("vs_1_1", "oFog", ST_REG_RASTOUT, ST_RASTOUT_FOG);
    check_reg("vs_1_1", "oPts", ST_REG_RASTOUT, ST_RASTOUT_PTS);
    check_reg("vs_1_1", "oD1", ST_REG_ATTROUT, 1);
    check_reg("vs_1_1", "oT7", ST_REG_TEXCRDOUT, 7);
    check_reg("vs_3_0", "o11", ST_REG_OUTPUT, 11);
    /* before 3.0, o# is the same register type as oT# */
    check_reg("vs_1_1", "o1", ST_REG_TEXCRDOUT, 1);
    check_reg("vs_2_0", "i15", ST_REG_CONSTINT, 15);
    check_reg("ps_3_0", "oC3", ST_REG_COLOROUT, 3);
    check_reg("ps_2_0", "oDepth", ST_REG_DEPTHOUT, 0);
    check_reg("ps_2_0", "s15", ST_REG_SAMPLER, 15);
    check_reg("vs_2_0", "b15", ST_REG_CONSTBOOL, 15);
    check_reg("vs_3_0", "aL", ST_REG_LOOP, 0);
    check_reg("vs_2_0", "l2047", ST_REG_LABEL, 2047);
    check_reg("ps_2_x", "p0", ST_REG_PREDICATE, 0);
    check_reg("ps_3_0", "vPos", ST_REG_MISC, ST_MISC_POS);
    check_reg("ps_3_0", "vFace", ST_REG_MISC, ST_MISC_FACE);
    /* case-insensitive spellings */
    check_reg("vs_1_1", "OPOS", ST_REG_RASTOUT, ST_RASTOUT_POS);
    check_reg("vs_1_1", "opts", ST_REG_RASTOUT, ST_RASTOUT_PTS);
    check_reg("vs_3_0", "AL", ST_REG_LOOP, 0);
    check_reg("ps_3_0", "VFACE", ST_REG_MISC, ST_MISC_FACE);
    check_reg("ps_2_0", "ODEPTH", ST_REG_DEPTHOUT, 0);
    check_reg("ps_2_0", "Oc1", ST_REG_COLOROUT, 1);
    check_reg("vs_1_1", "C7", ST_REG_CONST, 7);
}

static void test_relative_addressing(void **state)
{
    (void)state;
    static const struct {
        const char *version, *text;
        enum st_regfile file;
        uint32_t index;
        enum st_regfile relfile;
        bool has_comp;
        uint8_t comp;
        bool bracket_only;
    } cases[] = {
        {"vs_2_0", "c[a0.x + 5]", ST_REG_CONST, 5, ST_REG_ADDR, true, 0, true},
        {"vs_2_0", "c5[a0.x]", ST_REG_CONST, 5, ST_REG_ADDR, true, 0, false},
        {"vs_2_0", "c[5 + a0.x]", ST_REG_CONST, 5, ST_REG_ADDR, true, 0, true},
        {"vs_2_0", "c[a0.x]", ST_REG_CONST, 0, ST_REG_ADDR, true, 0, true},
        {"vs_2_0", "c0[a0.y]", ST_REG_CONST, 0, ST_REG_ADDR, true, 1, false},
        {"vs_2_0", "c0[a0.w+5]", ST_REG_CONST, 5, ST_REG_ADDR, true, 3, false},
        {"vs_2_0", "c0[a0.xyww]", ST_REG_CONST, 0, ST_REG_ADDR, true, 0, false},
        {"vs_2_0", "c2[a0.z + 3]", ST_REG_CONST, 5, ST_REG_ADDR, true, 2, false},
        {"vs_3_0", "v[aL]", ST_REG_INPUT, 0, ST_REG_LOOP, false, 0, true},
        {"vs_3_0", "v0[aL + 1 + 3]", ST_REG_INPUT, 4, ST_REG_LOOP, false, 0, false},
        {"ps_3_0", "v[ aL + 12 ]", ST_REG_INPUT, 12, ST_REG_LOOP, false, 0, true},
        {"ps_3_0", "v[ a0 + 12 ]", ST_REG_INPUT, 12, ST_REG_ADDR, false, 0, true},
        {"ps_3_0", "v[ aL.x + 12 ]", ST_REG_INPUT, 12, ST_REG_LOOP, true, 0, true},
        {"vs_2_0", "c[1 + a0.x + 2]", ST_REG_CONST, 3, ST_REG_ADDR, true, 0, true},
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        char src[96];
        snprintf(src, sizeof(src), "%s\nmov r0, -%s.x\n", cases[k].version, cases[k].text);
        struct parsed *p = parse_ok(src);
        const struct st_src *s = &only(p)->src[0];
        assert_int_equal(s->reg.file, cases[k].file);
        assert_int_equal(s->reg.index, cases[k].index);
        assert_non_null(s->reg.rel);
        assert_int_equal(s->reg.rel->file, cases[k].relfile);
        assert_int_equal(s->reg.rel->index, 0);
        assert_int_equal(s->reg.rel->has_component, cases[k].has_comp);
        assert_int_equal(s->reg.rel->component, cases[k].comp);
        assert_int_equal(s->reg.bracket_only, cases[k].bracket_only);
        assert_int_equal(s->mod, ST_SRCMOD_NEG);
        assert_int_equal(s->swizzle, SWZ(X, X, X, X));
        done(p);
    }
    /* a relative destination: vs_3_0 "mov o[ a0.x + 12 ], r0" */
    struct parsed *p = parse_ok("vs_3_0\nmov o[ a0.x + 12 ], r0\n");
    const struct st_instr *i = only(p);
    assert_int_equal(i->dst.reg.file, ST_REG_OUTPUT);
    assert_int_equal(i->dst.reg.index, 12);
    assert_non_null(i->dst.reg.rel);
    assert_int_equal(i->dst.reg.rel->file, ST_REG_ADDR);
    assert_true(i->dst.reg.bracket_only);
    done(p);
    /* a modifier after the brackets */
    p = parse_ok("vs_3_0\nmov r0, c2[a0.x]_abs.y\n");
    assert_int_equal(only(p)->src[0].mod, ST_SRCMOD_ABS);
    assert_int_equal(only(p)->src[0].swizzle, SWZ(Y, Y, Y, Y));
    done(p);
}

/* ------------------------------------------------------------------ */
/* def / defi / defb                                                   */

static void test_defs(void **state)
{
    (void)state;
    struct parsed *p = parse_ok("vs_3_0\n"
                                "def c0, 1.0f, 0., -1.25, 1e3\n"
                                "def c255, 1, -0, .5, 2.5e-1\n"
                                "defi i0, -3, 0, 255, 2147483647\n"
                                "defi i1, -2147483648, 1, 2, 3\n"
                                "defb b0, true\n"
                                "defb b1, FALSE\n");
    const struct st_instr *i = nth(p, 0);
    assert_int_equal(i->op, ST_OP_DEF);
    assert_true(i->has_dst);
    assert_int_equal(i->dst.reg.file, ST_REG_CONST);
    assert_int_equal(i->dst.reg.index, 0);
    assert_int_equal(i->nsrc, 0);
    assert_true(i->imm.f[0] == 1.0f);
    assert_true(i->imm.f[1] == 0.0f);
    assert_true(i->imm.f[2] == -1.25f);
    assert_true(i->imm.f[3] == 1000.0f);
    /* "def c0, 1.0f, 0., -1.25, 1e3": columns of each value's first char */
    assert_int_equal(i->imm_loc[0].column, 9);
    assert_int_equal(i->imm_loc[1].column, 15);
    assert_int_equal(i->imm_loc[2].column, 19);
    assert_int_equal(i->imm_loc[3].column, 26);
    assert_int_equal(i->imm_loc[3].line, 2);
    i = nth(p, 1);
    assert_int_equal(i->dst.reg.index, 255);
    assert_true(i->imm.f[0] == 1.0f);
    assert_true(i->imm.f[1] == 0.0f);
    assert_true(i->imm.f[2] == 0.5f);
    assert_true(i->imm.f[3] == 0.25f);
    i = nth(p, 2);
    assert_int_equal(i->op, ST_OP_DEFI);
    assert_int_equal(i->dst.reg.file, ST_REG_CONSTINT);
    assert_int_equal(i->imm.i[0], -3);
    assert_int_equal(i->imm.i[1], 0);
    assert_int_equal(i->imm.i[2], 255);
    assert_int_equal(i->imm.i[3], 2147483647);
    i = nth(p, 3);
    assert_int_equal(i->imm.i[0], INT32_MIN);
    assert_int_equal(i->imm.i[3], 3);
    i = nth(p, 4);
    assert_int_equal(i->op, ST_OP_DEFB);
    assert_int_equal(i->dst.reg.file, ST_REG_CONSTBOOL);
    assert_true(i->imm.b);
    i = nth(p, 5);
    assert_int_equal(i->dst.reg.index, 1);
    assert_false(i->imm.b);
    done(p);
    /* the sign of -0 is kept */
    p = parse_ok("vs_2_0\ndef c1, -0.0, 0, 0, 0\n");
    assert_true(only(p)->imm.f[0] == 0.0f);
    assert_true(signbit(only(p)->imm.f[0]));
    done(p);
}

/* ------------------------------------------------------------------ */
/* dcl                                                                 */

static void test_dcl(void **state)
{
    (void)state;
    struct parsed *p = parse_ok("vs_3_0\n"
                                "dcl_position v0\n"
                                "dcl_texcoord3 v1.xy\n"
                                "dcl_normal12 v15\n"
                                "dcl_positiont v2\n"
                                "dcl_psize o1.x\n"
                                "dcl_2d s0\n"
                                "dcl_cube s1\n"
                                "dcl_volume s2\n"
                                "DCL_BLENDINDICES v3\n"
                                "dcl_color1 o3\n");
    const struct st_instr *i = nth(p, 0);
    assert_int_equal(i->op, ST_OP_DCL);
    assert_int_equal(i->usage, ST_USAGE_POSITION);
    assert_int_equal(i->usage_index, 0);
    assert_false(i->usage_index_written);
    assert_int_equal(i->sampler_type, ST_SAMPLER_NONE);
    assert_false(i->dcl_bare);
    assert_true(i->has_dst);
    assert_int_equal(i->dst.reg.file, ST_REG_INPUT);
    assert_int_equal(i->nsrc, 0);
    i = nth(p, 1);
    assert_int_equal(i->usage, ST_USAGE_TEXCOORD);
    assert_int_equal(i->usage_index, 3);
    assert_true(i->usage_index_written);
    assert_int_equal(i->dst.writemask, 0x3);
    i = nth(p, 2);
    assert_int_equal(i->usage, ST_USAGE_NORMAL);
    assert_int_equal(i->usage_index, 12);
    assert_int_equal(i->dst.reg.index, 15);
    assert_int_equal(nth(p, 3)->usage, ST_USAGE_POSITIONT);
    assert_false(nth(p, 3)->usage_index_written);
    i = nth(p, 4);
    assert_int_equal(i->usage, ST_USAGE_PSIZE);
    assert_int_equal(i->dst.reg.file, ST_REG_OUTPUT);
    assert_int_equal(i->dst.writemask, 0x1);
    i = nth(p, 5);
    assert_int_equal(i->sampler_type, ST_SAMPLER_2D);
    assert_int_equal(i->dst.reg.file, ST_REG_SAMPLER);
    assert_false(i->dcl_bare);
    assert_int_equal(nth(p, 6)->sampler_type, ST_SAMPLER_CUBE);
    assert_int_equal(nth(p, 7)->sampler_type, ST_SAMPLER_VOLUME);
    assert_int_equal(nth(p, 7)->dst.reg.index, 2);
    assert_int_equal(nth(p, 8)->usage, ST_USAGE_BLENDINDICES);
    assert_int_equal(nth(p, 9)->usage, ST_USAGE_COLOR);
    assert_int_equal(nth(p, 9)->usage_index, 1);
    done(p);

    p = parse_ok("ps_3_0\n"
                 "dcl vFace\n"
                 "dcl vPos.xy\n"
                 "dcl_texcoord0_centroid v0\n"
                 "dcl_2d_centroid s0\n"
                 "dcl_fog v1.x\n"
                 "dcl_depth v2\n"
                 "dcl_sample v3\n"
                 "dcl_tessfactor v4\n"
                 "dcl_tangent v5\n"
                 "dcl_binormal1 v6\n"
                 "dcl_blendweight v7\n");
    i = nth(p, 0);
    assert_true(i->dcl_bare);
    assert_int_equal(i->dst.reg.file, ST_REG_MISC);
    assert_int_equal(i->dst.reg.index, ST_MISC_FACE);
    i = nth(p, 1);
    assert_true(i->dcl_bare);
    assert_int_equal(i->dst.reg.index, ST_MISC_POS);
    assert_int_equal(i->dst.writemask, 0x3);
    i = nth(p, 2);
    assert_int_equal(i->usage, ST_USAGE_TEXCOORD);
    assert_true(i->usage_index_written);
    assert_int_equal(i->dstmod, ST_DSTMOD_CENTROID);
    assert_int_equal(i->mod_loc.column, 4);
    i = nth(p, 3);
    assert_int_equal(i->sampler_type, ST_SAMPLER_2D);
    assert_int_equal(i->dstmod, ST_DSTMOD_CENTROID);
    assert_int_equal(nth(p, 4)->usage, ST_USAGE_FOG);
    assert_int_equal(nth(p, 5)->usage, ST_USAGE_DEPTH);
    assert_int_equal(nth(p, 6)->usage, ST_USAGE_SAMPLE);
    assert_int_equal(nth(p, 7)->usage, ST_USAGE_TESSFACTOR);
    assert_int_equal(nth(p, 8)->usage, ST_USAGE_TANGENT);
    assert_int_equal(nth(p, 9)->usage, ST_USAGE_BINORMAL);
    assert_int_equal(nth(p, 9)->usage_index, 1);
    assert_int_equal(nth(p, 10)->usage, ST_USAGE_BLENDWEIGHT);
    done(p);

    /* ps_2_0 bare dcl of t# and v#, and _pp / _centroid on a bare dcl */
    p = parse_ok("ps_2_0\ndcl t0.xy\ndcl v1\ndcl_pp t1\ndcl_centroid t2\n");
    i = nth(p, 0);
    assert_true(i->dcl_bare);
    assert_int_equal(i->dst.reg.file, ST_REG_TEXTURE);
    assert_int_equal(i->dst.writemask, 0x3);
    assert_true(nth(p, 1)->dcl_bare);
    assert_int_equal(nth(p, 1)->dst.reg.file, ST_REG_INPUT);
    assert_true(nth(p, 2)->dcl_bare);
    assert_int_equal(nth(p, 2)->dstmod, ST_DSTMOD_PP);
    assert_true(nth(p, 3)->dcl_bare);
    assert_int_equal(nth(p, 3)->dstmod, ST_DSTMOD_CENTROID);
    done(p);
}

/* ------------------------------------------------------------------ */
/* Flow control, ps_1_x texture ops, lexical details                   */

static void test_flow_and_tex(void **state)
{
    (void)state;
    struct parsed *p = parse_ok("vs_3_0\n"
                                "loop aL, i0\n"
                                "endloop\n"
                                "call l3\n"
                                "ret\n"
                                "label l3\n"
                                "ret\n"
                                "callnz l0, p0.x\n"
                                "breakp !p0.w\n"
                                "texldl r0, v0, s0\n"
                                "sincos r0.xy, r1.x\n"
                                "nop\n");
    const struct st_instr *i = nth(p, 0);
    assert_int_equal(i->op, ST_OP_LOOP);
    assert_false(i->has_dst);
    assert_int_equal(i->nsrc, 2);
    assert_int_equal(i->src[0].reg.file, ST_REG_LOOP);
    assert_int_equal(i->src[1].reg.file, ST_REG_CONSTINT);
    assert_int_equal(nth(p, 1)->op, ST_OP_ENDLOOP);
    i = nth(p, 2);
    assert_int_equal(i->op, ST_OP_CALL);
    assert_int_equal(i->src[0].reg.file, ST_REG_LABEL);
    assert_int_equal(i->src[0].reg.index, 3);
    assert_int_equal(nth(p, 3)->op, ST_OP_RET);
    assert_int_equal(nth(p, 4)->op, ST_OP_LABEL);
    assert_int_equal(nth(p, 4)->nsrc, 1);
    i = nth(p, 6);
    assert_int_equal(i->op, ST_OP_CALLNZ);
    assert_int_equal(i->src[1].reg.file, ST_REG_PREDICATE);
    assert_int_equal(i->src[1].mod, ST_SRCMOD_NONE);
    i = nth(p, 7);
    assert_int_equal(i->op, ST_OP_BREAKP);
    assert_int_equal(i->src[0].mod, ST_SRCMOD_NOT);
    assert_int_equal(nth(p, 8)->op, ST_OP_TEXLDL);
    assert_int_equal(nth(p, 8)->nsrc, 2);
    assert_int_equal(nth(p, 9)->op, ST_OP_SINCOS);
    assert_int_equal(nth(p, 9)->nsrc, 1);
    assert_int_equal(nth(p, 10)->op, ST_OP_NOP);
    assert_false(nth(p, 10)->has_dst);
    done(p);

    p = parse_ok("ps_1_3\n"
                 "tex t0\n"
                 "texcoord t1\n"
                 "texm3x2pad t2, t0_bx2\n"
                 "texm3x3spec t3, t0, c0\n"
                 "texkill t0\n"
                 "cnd r0, r0.a, c1, c2\n");
    i = nth(p, 0);
    assert_int_equal(i->op, ST_OP_TEX);
    assert_true(i->has_dst);
    assert_int_equal(i->dst.reg.file, ST_REG_TEXTURE);
    assert_int_equal(i->nsrc, 0);
    assert_int_equal(nth(p, 1)->op, ST_OP_TEXCOORD);
    i = nth(p, 2);
    assert_int_equal(i->op, ST_OP_TEXM3x2PAD);
    assert_int_equal(i->dst.reg.index, 2);
    assert_int_equal(i->src[0].mod, ST_SRCMOD_SIGN);
    assert_int_equal(nth(p, 3)->op, ST_OP_TEXM3x3SPEC);
    assert_int_equal(nth(p, 3)->nsrc, 2);
    assert_int_equal(nth(p, 4)->op, ST_OP_TEXKILL);
    assert_int_equal(nth(p, 5)->op, ST_OP_CND);
    assert_int_equal(nth(p, 5)->src[0].swizzle, SWZ(W, W, W, W));
    done(p);

    p = parse_ok("ps_1_4\ntexld r0, t0\ntexcrd r1.xyz, t1_dw.xyw\nphase\ntexld r5, r2_dz\n"
                 "bem r1.rg, c0, r0\n");
    assert_int_equal(nth(p, 0)->op, ST_OP_TEXLD);
    assert_int_equal(nth(p, 0)->nsrc, 1);
    assert_int_equal(nth(p, 1)->op, ST_OP_TEXCRD);
    assert_int_equal(nth(p, 1)->src[0].mod, ST_SRCMOD_DW);
    assert_int_equal(nth(p, 1)->src[0].swizzle, SWZ(X, Y, W, W));
    assert_int_equal(nth(p, 2)->op, ST_OP_PHASE);
    assert_int_equal(nth(p, 2)->loc.line, 4);
    assert_int_equal(nth(p, 3)->src[0].mod, ST_SRCMOD_DZ);
    assert_int_equal(nth(p, 4)->op, ST_OP_BEM);
    assert_int_equal(nth(p, 4)->dst.writemask, 0x3);
    done(p);
}

static void test_lexical(void **state)
{
    (void)state;
    /* CR LF, both comment styles, a #line directive, trailing comments,
     * blank lines, no final newline. */
    struct parsed *p = parse_ok("vs_1_1\r\n"
                                "// comment\r\n"
                                "; another comment\r\n"
                                "#line 5 \"file.vsh\"\r\n"
                                "\r\n"
                                "  mov r0, v0 ; trailing\r\n"
                                "add r1, r0, c0 // trailing\r\n"
                                "mov oPos, r1");
    assert_int_equal(p->sh->num_instrs, 3);
    assert_int_equal(nth(p, 0)->loc.line, 6);
    assert_int_equal(nth(p, 0)->loc.column, 3);
    assert_int_equal(nth(p, 1)->loc.line, 7);
    assert_int_equal(nth(p, 2)->loc.line, 8);
    assert_int_equal(nth(p, 2)->dst.reg.file, ST_REG_RASTOUT);
    done(p);
    /* only a version, no newline; and an empty instruction list */
    p = parse_ok("ps_2_0");
    assert_int_equal(p->sh->num_instrs, 0);
    done(p);
    /* the source need not be NUL-terminated: parse a prefix of a buffer */
    const char buf[] = "vs_2_0\nmov r0, r1\nGARBAGE?";
    p = parse_n(buf, strlen("vs_2_0\nmov r0, r1\n"), 0);
    assert_int_equal(p->res.num_diagnostics, 0);
    assert_int_equal(p->sh->num_instrs, 1);
    done(p);
}

/* ------------------------------------------------------------------ */
/* Error codes, each with its position                                 */

static void test_errors(void **state)
{
    (void)state;
    /* 1001: a character that starts no token */
    expect_only_diag("vs_1_1\nmov r0, ?\n", ST_E_BAD_CHAR, 2, 9);
    expect_only_diag("vs_1_1\nmov r0, r1 ???\n", ST_E_BAD_CHAR, 2, 12);
    expect_only_diag("vs_1_1\nmov r0, r1 # x\n", ST_E_BAD_CHAR, 2, 12);
    expect_only_diag("vs_1_1\n\tmov r0, \xc3\xa9\n", ST_E_BAD_CHAR, 2, 10);
    expect_only_diag("ps_3_0\ndef c1, 1/32, 0, 0, 0\n", ST_E_BAD_CHAR, 2, 10);
    /* 1002: grammar */
    expect_only_diag("vs_1_1\nmov r0 r1\n", ST_E_SYNTAX, 2, 8);
    expect_only_diag("vs_1_1\nmov r0, r1,\n", ST_E_SYNTAX, 2, 12);
    expect_only_diag("vs_2_0\nmov r0, r1.\n", ST_E_SYNTAX, 2, 11);
    expect_only_diag("vs_2_0\nmov r0, --r1\n", ST_E_SYNTAX, 2, 10);
    expect_only_diag("vs_3_0\ndefi i0, -1, --1, 0, 0\n", ST_E_SYNTAX, 2, 15);
    expect_only_diag("ps_2_0\nmad r1.x, t0, c0.w. -t0\n", ST_E_SYNTAX, 2, 19);
    expect_only_diag("vs_1_1\ndcl ...\n", ST_E_SYNTAX, 2, 5);
    expect_only_diag("ps_1_3\ndp3, r1, r0, c0\n", ST_E_SYNTAX, 2, 4);
    expect_only_diag("vs_2_0\nmov r0, 1.5\n", ST_E_SYNTAX, 2, 9);
    expect_only_diag("vs_2_0\nmov 1, r0\n", ST_E_SYNTAX, 2, 5);
    expect_only_diag("vs_2_0\nmov r0 = r1\n", ST_E_SYNTAX, 2, 8);
    expect_only_diag("vs_2_0\ndefb b0, 1\n", ST_E_SYNTAX, 2, 10);
    expect_only_diag("vs_2_0\ndef c0, r0, 0, 0, 0\n", ST_E_SYNTAX, 2, 9);
    expect_only_diag("vs_2_0\n(p0\n", ST_E_SYNTAX, 2, 4);
    /* 1003: numbers */
    expect_only_diag("vs_2_0\ndef c0, 1e99, 0, 0, 0\n", ST_E_BAD_NUMBER, 2, 9);
    expect_only_diag("vs_2_0\ndef c0, 0, 12abc, 0, 0\n", ST_E_BAD_NUMBER, 2, 12);
    expect_only_diag("vs_2_0\ndef c0, 0, 0, 1.0.0, 0\n", ST_E_BAD_NUMBER, 2, 15);
    expect_only_diag("vs_2_0\ndefi i0, 1, 2147483648, 0, 0\n", ST_E_BAD_NUMBER, 2, 13);
    expect_only_diag("vs_2_0\ndefi i0, 1, 2, 0.5, 0\n", ST_E_BAD_NUMBER, 2, 16);
    expect_only_diag("vs_2_0\nmov r0, c99999999999\n", ST_E_BAD_NUMBER, 2, 10);
    /* 1004: first statement */
    expect_only_diag("mov r0, r1\nvs_1_1\n", ST_E_NO_VERSION, 1, 1);
    expect_only_diag("// only a comment\n  +mov r0, r1\n", ST_E_NO_VERSION, 2, 3);
    /* 1005 */
    expect_only_diag("vs_4_0\n", ST_E_BAD_VERSION, 1, 1);
    expect_only_diag("ps_1_5\n", ST_E_BAD_VERSION, 1, 1);
    expect_only_diag("ps_1_0\n", ST_E_BAD_VERSION, 1, 1);
    expect_only_diag("vs_2_sw\n", ST_E_BAD_VERSION, 1, 1);
    expect_only_diag("  ps.2_0\n", ST_E_BAD_VERSION, 1, 3);
    /* 1006 */
    expect_only_diag("vs_1_1\n  foo r0, r1\n", ST_E_UNKNOWN_OPCODE, 2, 3);
    expect_only_diag("vs_3_0\nCTAB comment\n", ST_E_UNKNOWN_OPCODE, 2, 1);
    expect_only_diag("ps_3_0\nshader\n", ST_E_UNKNOWN_OPCODE, 2, 1);
    expect_only_diag("ps_2_x\nifc r0, r1\n", ST_E_UNKNOWN_OPCODE, 2, 1);
    /* 1007 */
    expect_only_diag("vs_2_0\nmov_foo r0, r1\n", ST_E_BAD_MODIFIER, 2, 4);
    expect_only_diag("vs_2_0\nmov_sat_gt r0, r1\n", ST_E_BAD_MODIFIER, 2, 8);
    expect_only_diag("vs_2_0\nmov_sat_sat r0, r1\n", ST_E_BAD_MODIFIER, 2, 8);
    expect_only_diag("ps_1_4\nadd_x2_d2 r0, r1, r2\n", ST_E_BAD_MODIFIER, 2, 7);
    expect_only_diag("vs_2_0\nmov_ r0, r1\n", ST_E_BAD_MODIFIER, 2, 4);
    expect_only_diag("ps_2_x\nsetp p0, r0, r1\n", ST_E_BAD_MODIFIER, 2, 1);
    expect_only_diag("ps_2_x\nif_gt_lt r0, r1\n", ST_E_BAD_MODIFIER, 2, 6);
    /* 1008 */
    expect_only_diag("vs_1_1\nmov r0, x5\n", ST_E_UNKNOWN_REGISTER, 2, 9);
    expect_only_diag("vs_1_1\nmov r0, r1x\n", ST_E_UNKNOWN_REGISTER, 2, 9);
    expect_only_diag("vs_1_1\nmov r0, c\n", ST_E_UNKNOWN_REGISTER, 2, 9);
    expect_only_diag("vs_1_1\nmov oPos0, r1\n", ST_E_UNKNOWN_REGISTER, 2, 5);
    expect_only_diag("vs_2_0\ndefb b0, maybe\n", ST_E_SYNTAX, 2, 10);
    /* 1009 */
    expect_only_diag("vs_1_1\nmov r0, r1.xyzwx\n", ST_E_BAD_SWIZZLE, 2, 11);
    expect_only_diag("vs_1_1\nmov r0, r1.xq\n", ST_E_BAD_SWIZZLE, 2, 13);
    expect_only_diag("vs_2_0\nmov r0, c0[a0.q]\n", ST_E_BAD_SWIZZLE, 2, 15);
    /* 1010 */
    expect_only_diag("vs_1_1\nmov r0.yx, r1\n", ST_E_BAD_WRITEMASK, 2, 9);
    expect_only_diag("vs_1_1\nmov r0.xx, r1\n", ST_E_BAD_WRITEMASK, 2, 9);
    expect_only_diag("vs_1_1\nmov r0.xyzwx, r1\n", ST_E_BAD_WRITEMASK, 2, 12);
    expect_only_diag("vs_1_1\nmov r0.q, r1\n", ST_E_BAD_WRITEMASK, 2, 8);
    /* 1011 */
    expect_only_diag("ps_1_4\ntexld r5, -r2_dz\n", ST_E_BAD_SRCMOD, 2, 14);
    expect_only_diag("vs_3_0\nmov r2, 2 - r0\n", ST_E_BAD_SRCMOD, 2, 9);
    expect_only_diag("vs_3_0\nmov r2, r0_foo\n", ST_E_BAD_SRCMOD, 2, 11);
    expect_only_diag("vs_3_0\nmov r2, 1 - r0_abs\n", ST_E_BAD_SRCMOD, 2, 15);
    expect_only_diag("vs_3_0\nmov r2, !r0\n", ST_E_BAD_SRCMOD, 2, 9);
    expect_only_diag("vs_3_0\nmov -r2, r0\n", ST_E_BAD_SRCMOD, 2, 5);
    expect_only_diag("vs_3_0\nmov r2_sat, r0\n", ST_E_BAD_SRCMOD, 2, 7);
    expect_only_diag("vs_3_0\nmov r2, c0_abs[a0.x]_abs\n", ST_E_BAD_SRCMOD, 2, 21);
    /* 1012 */
    expect_only_diag("vs_2_0\ndcl_foo v0\n", ST_E_BAD_DCL, 2, 4);
    expect_only_diag("ps_2_0\ndcl_1d s0\n", ST_E_BAD_DCL, 2, 4);
    expect_only_diag("vs_2_0\ndcl_texcoordx v0\n", ST_E_BAD_DCL, 2, 4);
    /* 1014 */
    expect_only_diag("vs_3_0\nmov r2, c[aL + 3.4]\n", ST_E_BAD_RELADDR, 2, 16);
    expect_only_diag("vs.3.0\nadd r0, v0[aL - 3 + 5], r2\n", ST_E_BAD_RELADDR, 2, 15);
    expect_only_diag("ps_2_0\nadd r0, v[ r0 ], r1\n", ST_E_BAD_RELADDR, 2, 12);
    expect_only_diag("vs_2_0\nmov r0, c[5]\n", ST_E_BAD_RELADDR, 2, 10);
    expect_only_diag("vs_2_0\nmov r0, c[a0.x + aL]\n", ST_E_BAD_RELADDR, 2, 18);
    /* 1015 */
    expect_only_diag("vs_1_1\nvs_1_1\n", ST_E_DUP_VERSION, 2, 1);
    expect_only_diag("", ST_E_NO_VERSION, 1, 1);
    expect_only_diag("// nothing but a comment\n\n", ST_E_NO_VERSION, 1, 1);
    expect_only_diag("ps_2_x\nmov r0, r1\nps_2_x\n", ST_E_DUP_VERSION, 3, 1);
    /* 2002 from the parser: def takes exactly four values */
    expect_only_diag("vs_2_0\ndef c0, 1, 2, 3\n", ST_E_OPERAND_COUNT, 2, 1);
    expect_only_diag("vs_2_0\ndef c0, 1, 2, 3, 4, 5\n", ST_E_OPERAND_COUNT, 2, 21);
    expect_only_diag("vs_2_0\ndefb b0, true, false\n", ST_E_OPERAND_COUNT, 2, 16);
    expect_only_diag("vs_2_0\nsgn r0, r1, r2, r3, r4, r5, r6\n", ST_E_OPERAND_COUNT, 2, 29);
    /* 5001: Wine comment-extraction defects accepted with a warning */
    expect_only_diag("ps_3_0\ndcl_texcoord1, v0\nmov oC0, v0\n", ST_W_STRAY_COMMA, 2, 14);
    expect_only_diag("ps_1_1\ndef c1 = 1.0, 0.0, 0.0, 0.0\n", ST_W_STRAY_COMMA, 2, 8);
    expect_only_diag("ps_1_1\ndef c1, 1.0 = 0.0, 0.0, 0.0\n", ST_E_SYNTAX, 2, 13);
}

static void test_error_recovery(void **state)
{
    (void)state;
    /* every bad line is reported, good lines in between still parse */
    struct parsed *p = parse("vs_2_0\n"
                             "mov r0, ?\n"
                             "mov r1, r2\n"
                             "foo r0\n"
                             "mov r0 r1\n"
                             "add r3, r1, r2\n"
                             "mov r0.yx, r1");
    assert_int_equal(p->res.num_errors, 4);
    assert_int_equal(p->res.num_diagnostics, 4);
    assert_int_equal(p->res.diagnostics[0].code, ST_E_BAD_CHAR);
    assert_int_equal(p->res.diagnostics[0].line, 2);
    assert_int_equal(p->res.diagnostics[1].code, ST_E_UNKNOWN_OPCODE);
    assert_int_equal(p->res.diagnostics[1].line, 4);
    assert_int_equal(p->res.diagnostics[2].code, ST_E_SYNTAX);
    assert_int_equal(p->res.diagnostics[2].line, 5);
    assert_int_equal(p->res.diagnostics[3].code, ST_E_BAD_WRITEMASK);
    assert_int_equal(p->res.diagnostics[3].line, 7);
    assert_string_equal(p->res.diagnostics[2].source_line, "mov r0 r1");
    /* lines with errors are dropped, the others kept */
    assert_non_null(p->sh);
    assert_int_equal(p->sh->num_instrs, 2);
    assert_int_equal(nth(p, 0)->loc.line, 3);
    assert_int_equal(nth(p, 1)->loc.line, 6);
    done(p);

    /* two independent errors on one line are both reported */
    p = parse("vs_2_0\nmov r0.yx, q1\n");
    assert_int_equal(p->res.num_diagnostics, 2);
    assert_int_equal(p->res.diagnostics[0].code, ST_E_BAD_WRITEMASK);
    assert_int_equal(p->res.diagnostics[1].code, ST_E_UNKNOWN_REGISTER);
    assert_int_equal(p->res.diagnostics[1].column, 12);
    done(p);

    /* syntax error message names the token and what was expected */
    p = parse("vs_2_0\nmov r0 r1\n");
    assert_non_null(strstr(p->res.diagnostics[0].message, "unexpected"));
    assert_non_null(strstr(p->res.diagnostics[0].message, "'r1'"));
    assert_non_null(strstr(p->res.diagnostics[0].message, "expected"));
    done(p);
}

/* A NUL byte inside a line (found by tests/fuzz/fuzz_parse_d3d9): the
 * diagnostics' source line keeps the whole line, the NUL shown as a space,
 * so a column after it still points into the text. */
static void test_nul_byte_source_line(void **state)
{
    (void)state;
    static const char src[] = "vs_2_0\nmov r0, r1 \0 ?\n";
    struct parsed *p = parse_n(src, sizeof(src) - 1, 0);
    assert_int_equal(p->res.num_errors, 1);
    const struct st_diagnostic *d = &p->res.diagnostics[0];
    assert_int_equal(d->code, ST_E_BAD_CHAR);
    assert_int_equal(d->line, 2);
    assert_int_equal(d->column, 12);
    assert_string_equal(d->source_line, "mov r0, r1   ?");
    done(p);
}

static void test_too_many_errors(void **state)
{
    (void)state;
    /* limit 2: two errors, then the notice at the third, then stop */
    struct parsed *p = parse_n("vs_1_1\nfoo\n  bar\nbaz r0\nqux\nquux\n", 33, 2);
    assert_int_equal(p->res.num_diagnostics, 3);
    assert_int_equal(p->res.diagnostics[0].code, ST_E_UNKNOWN_OPCODE);
    assert_int_equal(p->res.diagnostics[0].line, 2);
    assert_int_equal(p->res.diagnostics[1].code, ST_E_UNKNOWN_OPCODE);
    assert_int_equal(p->res.diagnostics[1].line, 3);
    assert_int_equal(p->res.diagnostics[1].column, 3);
    assert_int_equal(p->res.diagnostics[2].code, ST_E_TOO_MANY_ERRORS);
    assert_int_equal(p->res.diagnostics[2].line, 4);
    assert_int_equal(p->res.diagnostics[2].column, 1);
    /* parsing stopped there: qux and quux were never looked at */
    assert_int_equal(p->res.num_errors, 3);
    done(p);

    /* a file of garbage stops at the default limit (50) */
    struct st_buf b = {0};
    st_buf_printf(&b, "ps_3_0\n");
    for (int i = 0; i < 500; i++)
        st_buf_printf(&b, "garbage %d ???\n", i);
    p = parse_n(b.data, b.len, 0);
    assert_int_equal(p->res.num_diagnostics, 51);
    assert_int_equal(p->res.diagnostics[50].code, ST_E_TOO_MANY_ERRORS);
    assert_int_equal(p->res.diagnostics[50].line, 52);
    assert_int_equal(p->res.num_errors, 51);
    done(p);
    st_buf_free(&b);
}

/* ------------------------------------------------------------------ */
/* Printer                                                             */

static void test_printer(void **state)
{
    (void)state;
    expect_print("vs.1.1\nmov oPos, v0\n", "vs_1_1\nmov oPos, v0\n");
    expect_print("VS_2_X\n", "vs_2_x\n");
    expect_print("vs.1.0\nMOV oD0, V1\n", "vs_1_0\nmov oD0, v1\n");
    expect_print("vs_2_0\nmov r0, c[5 + a0.x]\n", "vs_2_0\nmov r0, c[a0.x + 5]\n");
    expect_print("vs_2_0\nmov r0, -c0[a0.w+5].x\n", "vs_2_0\nmov r0, -c5[a0.w].x\n");
    expect_print("vs_2_0\nmov r0, c0[a0.xyww]\n", "vs_2_0\nmov r0, c0[a0.x]\n");
    expect_print("vs.3.0\nadd r0, v0[aL + 1 + 3], r2\n", "vs_3_0\nadd r0, v4[aL], r2\n");
    expect_print("ps_3_0\nmov r0, v[ a0 + 12 ]\n", "ps_3_0\nmov r0, v[a0 + 12]\n");
    expect_print("ps_3_0\nmov r0, v[aL]\n", "ps_3_0\nmov r0, v[aL]\n");
    expect_print("ps_1_3\nmov_x4_sat r0.a, -r1_bx2.a\n", "ps_1_3\nmov_sat_x4 r0.w, -r1_bx2.w\n");
    expect_print("ps_1_4\nadd r0.rgb, r1_db, 1-r2.rgba\n+add r0.a, r1_da.bgra, r2_x2\n",
                 "ps_1_4\nadd r0.xyz, r1_dz, 1 - r2\n+add r0.w, r1_dw.zyxw, r2_x2\n");
    expect_print("vs_2_0\ndef c0, 1, -0.5, 1e3, 0.1\n", "vs_2_0\ndef c0, 1.0, -0.5, 1000.0, 0.1\n");
    expect_print("vs_2_0\ndef c0, 16777216, 3.4e38, -0, 1e-7\n",
                 "vs_2_0\ndef c0, 16777216.0, 3.4e+38, -0.0, 1e-07\n");
    expect_print("vs_2_0\ndefi i0, -3, 0, 255, 2147483647\ndefb b0, TRUE\ndefb b1, false\n",
                 "vs_2_0\ndefi i0, -3, 0, 255, 2147483647\ndefb b0, true\ndefb b1, false\n");
    expect_print("ps_2_x\nif_GE r0.xy, r1\nendif\n", "ps_2_x\nif_ge r0.xyyy, r1\nendif\n");
    expect_print("ps_2_x\nrep i0\nbreak_ne r0.x, r1.y\nendrep\n",
                 "ps_2_x\nrep i0\nbreak_ne r0.x, r1.y\nendrep\n");
    expect_print("ps_2_x\nsetp_gt_pp p0, r0, r1\n(!p0) add r2, r2, r3\n( p0.x )mov r0, r1\n",
                 "ps_2_x\nsetp_gt_pp p0, r0, r1\n(!p0) add r2, r2, r3\n(p0.x) mov r0, r1\n");
    expect_print("ps_2_0\ndcl t0.xy\ndcl_2d s0\ndcl_pp t1\n",
                 "ps_2_0\ndcl t0.xy\ndcl_2d s0\ndcl_pp t1\n");
    expect_print("ps_3_0\ndcl_texcoord0_centroid v0\ndcl_color v1\ndcl vFace\ndcl_position1 v2\n",
                 "ps_3_0\ndcl_texcoord0_centroid v0\ndcl_color v1\ndcl vFace\n"
                 "dcl_position1 v2\n");
    expect_print("vs_1_1\nmov o1, v0\n", "vs_1_1\nmov oT1, v0\n");
    expect_print("vs_2_x\ncallnz l0, !p0.z\nret\nlabel l0\nret\n",
                 "vs_2_x\ncallnz l0, !p0.z\nret\nlabel l0\nret\n");
    expect_print("ps_3_0\nmov r0, c2[a0.x]_abs.y\n", "ps_3_0\nmov r0, c2[a0.x]_abs.y\n");
    expect_print("ps_3_0\ntexldd_pp r0, v0, s0, c0, r2\n", "ps_3_0\ntexldd_pp r0, v0, s0, c0, r2\n");
}

/* ------------------------------------------------------------------ */
/* Round trip                                                          */

static void same_reg(const struct st_reg *a, const struct st_reg *b)
{
    assert_int_equal(a->file, b->file);
    assert_int_equal(a->index, b->index);
    assert_int_equal(a->rel != NULL, b->rel != NULL);
    if (a->rel) {
        assert_int_equal(a->rel->file, b->rel->file);
        assert_int_equal(a->rel->index, b->rel->index);
        assert_int_equal(a->rel->component, b->rel->component);
        assert_int_equal(a->rel->has_component, b->rel->has_component);
        assert_int_equal(a->bracket_only, b->bracket_only);
    }
}

static void same_src(const struct st_src *a, const struct st_src *b)
{
    same_reg(&a->reg, &b->reg);
    assert_int_equal(a->swizzle, b->swizzle);
    assert_int_equal(a->mod, b->mod);
    /* swizzle_len is spelling (".xy" prints as ".xyyy"), not meaning */
}

/* Every semantic field; locations and spellings may differ. */
static void same_shader(const struct st_shader *a, const struct st_shader *b)
{
    assert_int_equal(a->dialect, b->dialect);
    assert_int_equal(a->version.type, b->version.type);
    assert_int_equal(a->version.ver, b->version.ver);
    assert_int_equal(a->num_instrs, b->num_instrs);
    const struct st_instr *x = a->first, *y = b->first;
    for (; x && y; x = x->next, y = y->next) {
        assert_int_equal(x->op, y->op);
        assert_int_equal(x->dstmod, y->dstmod);
        assert_int_equal(x->shift, y->shift);
        assert_int_equal(x->cmp, y->cmp);
        assert_int_equal(x->coissue, y->coissue);
        assert_int_equal(x->predicated, y->predicated);
        if (x->predicated)
            same_src(&x->pred, &y->pred);
        assert_int_equal(x->has_dst, y->has_dst);
        if (x->has_dst) {
            same_reg(&x->dst.reg, &y->dst.reg);
            assert_int_equal(x->dst.writemask, y->dst.writemask);
        }
        assert_int_equal(x->nsrc, y->nsrc);
        for (unsigned i = 0; i < x->nsrc; i++)
            same_src(&x->src[i], &y->src[i]);
        if (x->op == ST_OP_DCL) {
            assert_int_equal(x->usage, y->usage);
            assert_int_equal(x->usage_index, y->usage_index);
            assert_int_equal(x->usage_index_written, y->usage_index_written);
            assert_int_equal(x->sampler_type, y->sampler_type);
            assert_int_equal(x->dcl_bare, y->dcl_bare);
        }
        if (x->op == ST_OP_DEF || x->op == ST_OP_DEFI)
            assert_memory_equal(&x->imm, &y->imm, sizeof(x->imm.i)); /* bit-exact */
        if (x->op == ST_OP_DEFB)
            assert_int_equal(x->imm.b, y->imm.b);
    }
    assert_null(x);
    assert_null(y);
}

/* parse(text) had no errors: check print -> parse -> print. */
static void check_round_trip(const char *name, const struct st_shader *sh)
{
    char *t1 = print_shader(sh);
    struct parsed *p2 = parse(t1);
    if (p2->res.num_errors) {
        print_message("%s: printed text does not parse:\n%s\n", name, t1);
        dump_diags(p2);
    }
    assert_int_equal(p2->res.num_errors, 0);
    char *t2 = print_shader(p2->sh);
    if (strcmp(t1, t2) != 0)
        print_message("%s: not a fixed point:\n%s---\n%s\n", name, t1, t2);
    assert_string_equal(t1, t2);
    same_shader(sh, p2->sh);
    free(t1);
    free(t2);
    done(p2);
}


/* Valid-marked Wine texts whose comment extraction produced text no
 * assembler accepts; each must be rejected with this located error. */
static const struct {
    const char *path;
    unsigned code, line, column;
} known_defects[] = {
    /* "dcl ..." */
    {"d3d9/wine-d3d9-visual/017_test_constant_clamp_vs_shader_code_11_2.vs.asm", ST_E_SYNTAX, 3, 5},
    /* "mov r0, ???(t0)" */
    {"d3d9/wine-d3d9-visual/026_cnd_test_shader_code_11.ps.asm", ST_E_BAD_CHAR, 5, 9},
    /* "dp3, r1, r0, c0" */
    {"d3d9/wine-d3d9-visual/028_cnd_test_shader_code_13.ps.asm", ST_E_SYNTAX, 6, 4},
    /* "def c1, 1/32, 0, 0, 0" */
    {"d3d9/wine-d3d9-visual/038_nested_loop_test_shader_code.ps.asm", ST_E_BAD_CHAR, 4, 10},
    /* "mad r1.x, t0, c0.w. -t0" */
    {"d3d9/wine-d3d9-visual/095_fp_special_test_ps_code.ps.asm", ST_E_SYNTAX, 8, 19},
    /* "CTAB comment" */
    {"d3d9/wine-d3dx9-shader/002_global_shader_with_ctab.vs.asm", ST_E_UNKNOWN_OPCODE, 4, 1},
    /* "shader" after the CTAB comment lines */
    {"d3d9/wine-d3dx9-shader/007_test_get_sampler_index_get_shader_samplers_blob.ps.asm",
     ST_E_UNKNOWN_OPCODE, 24, 1},
};

static int known_defect(const char *path)
{
    for (size_t i = 0; i < sizeof(known_defects) / sizeof(known_defects[0]); i++)
        if (strcmp(known_defects[i].path, path) == 0)
            return (int)i;
    return -1;
}

/* Calls fn for every d3d9 row of the manifest; returns the row count. */
static unsigned for_each_d3d9(void (*fn)(const char *path, bool valid, const char *src,
                                         size_t len, void *arg),
                              void *arg)
{
    struct manifest m;
    if (!manifest_open(&m))
        return 0;
    unsigned rows = 0;
    struct manifest_row r;
    while (manifest_next(&m, &r)) {
        if (strcmp(r.dialect, "d3d9") != 0)
            continue;
        char fpath[1536];
        manifest_file(&m, &r, fpath, sizeof(fpath));
        size_t len;
        char *src = slurp(fpath, &len);
        assert_non_null(src);
        fn(r.path, strcmp(r.expect, "valid") == 0, src, len, arg);
        free(src);
        rows++;
    }
    manifest_close(&m);
    return rows;
}

struct corpus_stats {
    unsigned valid, parsed, defects, invalid, invalid_rejected;
};

static void corpus_file(const char *path, bool valid, const char *src, size_t len, void *arg)
{
    struct corpus_stats *st = arg;
    struct parsed *p = parse_n(src, len, 0);
    if (!valid) {
        /* Most invalid files are semantic errors for the checker; the
         * parser only has to survive them. */
        st->invalid++;
        if (p->res.num_errors)
            st->invalid_rejected++;
        done(p);
        return;
    }
    st->valid++;
    int d = known_defect(path);
    if (d >= 0) {
        if (p->res.num_errors == 0 || p->res.diagnostics[0].code != known_defects[d].code ||
            p->res.diagnostics[0].line != known_defects[d].line ||
            p->res.diagnostics[0].column != known_defects[d].column) {
            print_message("%s: expected error %u at %u:%u\n", path, known_defects[d].code,
                          known_defects[d].line, known_defects[d].column);
            dump_diags(p);
            fail();
        }
        st->defects++;
        done(p);
        return;
    }
    if (p->res.num_errors) {
        print_message("%s: valid file does not parse\n", path);
        dump_diags(p);
    }
    assert_int_equal(p->res.num_errors, 0);
    for (size_t i = 0; i < p->res.num_diagnostics; i++)
        assert_int_equal(p->res.diagnostics[i].code, ST_W_STRAY_COMMA);
    check_round_trip(path, p->sh);
    st->parsed++;
    done(p);
}

static void test_corpus_round_trip(void **state)
{
    (void)state;
    struct corpus_stats st = {0};
    unsigned rows = for_each_d3d9(corpus_file, &st);
    if (rows == 0) {
        fail_msg("corpus not found under %s (set ST_CORPUS_DIR)", test_corpus_dir());
    }
    print_message("d3d9 corpus: %u valid files: %u parsed and round-tripped, %u known "
                  "extraction defects rejected; %u invalid files: %u rejected by the parser "
                  "(the rest are for the checker)\n",
                  st.valid, st.parsed, st.defects, st.invalid, st.invalid_rejected);
    assert_int_equal(st.parsed + st.defects, st.valid);
    assert_true(st.parsed > 0);
}

/* ------------------------------------------------------------------ */
/* Robustness                                                          */

static uint32_t rng_next(uint32_t *s)
{
    /* xorshift32: deterministic, so failures reproduce */
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

/* Parse anything; if it parses cleanly it must round-trip too. */
static void survive(const char *src, size_t len)
{
    struct parsed *p = parse_n(src, len, 0);
    if (p->sh && p->res.num_errors == 0)
        check_round_trip("fuzz", p->sh);
    done(p);
}

static void test_random_garbage(void **state)
{
    (void)state;
    static const char alphabet[] = "vsp_.0123456789xyzwrgba-+!()[],=;/ \t\r\n\nmovaddcdefiltL?#\x80\xc3";
    uint32_t seed = 12345;
    char buf[256];
    for (int iter = 0; iter < 3000; iter++) {
        size_t len = rng_next(&seed) % sizeof(buf);
        for (size_t i = 0; i < len; i++) {
            uint32_t r = rng_next(&seed);
            buf[i] = (r & 0x100) ? (char)(r & 0xff) : alphabet[r % (sizeof(alphabet) - 1)];
        }
        survive(buf, len);
    }
    /* pathological sizes */
    survive("", 0);
    survive("\0\0\0", 3);
    struct st_buf b = {0};
    st_buf_printf(&b, "vs_3_0\nmov r0, c[");
    for (int i = 0; i < 20000; i++)
        st_buf_printf(&b, "1+");
    st_buf_printf(&b, "a0.x]\n");
    survive(b.data, b.len);
    st_buf_free(&b);
    st_buf_printf(&b, "vs_3_0\nmov r0");
    for (int i = 0; i < 20000; i++)
        st_buf_printf(&b, ", r%d", i);
    st_buf_putc(&b, '\n');
    survive(b.data, b.len);
    st_buf_free(&b);
    st_buf_printf(&b, "vs_3_0\ndef c0, ");
    for (int i = 0; i < 5000; i++)
        st_buf_putc(&b, '9');
    st_buf_printf(&b, ".0, 0, 0, 0\nmov r");
    for (int i = 0; i < 5000; i++)
        st_buf_putc(&b, '9');
    survive(b.data, b.len);
    st_buf_free(&b);
}

/* Lines built from real tokens reach deeper than random bytes: most are
 * errors, some are valid and must then round-trip. */
static void test_random_tokens(void **state)
{
    (void)state;
    static const char *const heads[] = {
        "mov", "add_sat", "mad_pp", "if_gt", "break_le", "setp_ne", "dcl_texcoord1",
        "dcl_2d", "dcl", "def", "defi", "defb", "texld", "texldp", "loop", "rep", "call",
        "callnz", "label", "sincos", "+mov", "(p0.x) add", "(!p0) mul_x2", "tex", "texkill",
        "mov_d2_sat", "endif", "else", "phase", "cmp_centroid", "texm3x2pad", "vs_3_0",
        "ps_1_4", "dcl_centroid", "lrp", "nrm_pp",
    };
    static const char *const operands[] = {
        "r0", "r1.xy", "-r2_abs.zw", "c[a0.x + 5]", "c2[a0.y]", "v[aL]", "v3[aL + 2]",
        "o[a0.x + 1]", "1 - t0", "r3_bx2.a", "-r4_bias", "t1_dz", "r0_dw.xyw", "!b0",
        "!p0.z", "p0", "b3", "i0", "aL", "s2", "l7", "oC0", "oDepth", "oPos", "oT3",
        "vFace", "vPos.xy", "1.5", "-0.25", "7", "-3", "true", "false", "1e3", "2.0f",
        "r0.xyzw", "c0.wzyx", "a0.x", "r5.rgb", "v0_x2", "-c1_bx2.x",
    };
    uint32_t seed = 424242u;
    struct st_buf b = {0};
    unsigned clean = 0;
    for (int iter = 0; iter < 4000; iter++) {
        b.len = 0;
        st_buf_printf(&b, "%s\n", (rng_next(&seed) & 1) ? "vs_3_0" : "ps_2_x");
        int lines = 1 + (int)(rng_next(&seed) % 6);
        for (int l = 0; l < lines; l++) {
            st_buf_printf(&b, "%s", heads[rng_next(&seed) % (sizeof(heads) / sizeof(heads[0]))]);
            int n = (int)(rng_next(&seed) % 6);
            for (int k = 0; k < n; k++)
                st_buf_printf(&b, "%s%s", k ? ", " : " ",
                              operands[rng_next(&seed) % (sizeof(operands) / sizeof(operands[0]))]);
            st_buf_putc(&b, '\n');
        }
        struct parsed *p = parse_n(b.data, b.len, 0);
        if (p->sh && p->res.num_errors == 0) {
            check_round_trip("tokens", p->sh);
            clean++;
        }
        done(p);
    }
    st_buf_free(&b);
    print_message("random token lines: %u of 4000 shaders parsed cleanly and round-tripped\n",
                  clean);
    assert_true(clean > 0);
}

struct mutate_arg {
    uint32_t seed;
    unsigned runs;
};

static void mutate_file(const char *path, bool valid, const char *src, size_t len, void *arg)
{
    struct mutate_arg *m = arg;
    char *buf = malloc(len + 16);
    assert_non_null(buf);
    static const char pieces[] = ",.-+_[]()!=;x0123456789 \n";
    for (int iter = 0; iter < 8; iter++) {
        memcpy(buf, src, len);
        size_t n = len;
        int edits = 1 + (int)(rng_next(&m->seed) % 3);
        for (int e = 0; e < edits && n > 0; e++) {
            size_t at = rng_next(&m->seed) % n;
            uint32_t what = rng_next(&m->seed) % 3;
            if (what == 0) /* replace */
                buf[at] = pieces[rng_next(&m->seed) % (sizeof(pieces) - 1)];
            else if (what == 1) { /* delete */
                memmove(buf + at, buf + at + 1, n - at - 1);
                n--;
            } else { /* insert */
                memmove(buf + at + 1, buf + at, n - at);
                buf[at] = pieces[rng_next(&m->seed) % (sizeof(pieces) - 1)];
                n++;
            }
        }
        survive(buf, n);
        m->runs++;
    }
    free(buf);
    (void)path;
    (void)valid;
}

static void test_mutated_corpus(void **state)
{
    (void)state;
    struct mutate_arg m = {.seed = 987654321u};
    if (for_each_d3d9(mutate_file, &m) == 0)
        fail_msg("corpus not found under %s (set ST_CORPUS_DIR)", test_corpus_dir());
    print_message("mutated corpus inputs parsed without crashing: %u\n", m.runs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_versions),
        cmocka_unit_test(test_basic_mov),
        cmocka_unit_test(test_case_and_whitespace),
        cmocka_unit_test(test_writemasks),
        cmocka_unit_test(test_swizzles),
        cmocka_unit_test(test_source_modifiers),
        cmocka_unit_test(test_instruction_modifiers),
        cmocka_unit_test(test_comparisons),
        cmocka_unit_test(test_predication_and_coissue),
        cmocka_unit_test(test_registers),
        cmocka_unit_test(test_relative_addressing),
        cmocka_unit_test(test_defs),
        cmocka_unit_test(test_dcl),
        cmocka_unit_test(test_flow_and_tex),
        cmocka_unit_test(test_lexical),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_error_recovery),
        cmocka_unit_test(test_too_many_errors),
        cmocka_unit_test(test_printer),
        cmocka_unit_test(test_corpus_round_trip),
        cmocka_unit_test(test_nul_byte_source_line),
        cmocka_unit_test(test_random_garbage),
        cmocka_unit_test(test_random_tokens),
        cmocka_unit_test(test_mutated_corpus),
    };
    return cmocka_run_group_tests_name("parser", tests, NULL, NULL);
}
