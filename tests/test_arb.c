/*
 * test_arb.c — the ARB_vertex_program / ARB_fragment_program front end
 * (translator/arb_*.{l,y,c}).
 *
 *   - diagnostics: one program per rule of the specifications, each checked
 *     for its code, line and column (worked out by hand from the text);
 *   - the AST: register files, table indices, canonical binding names, the
 *     OpenGL defaults of state bindings, constant expansion, SWZ and TEX;
 *   - printing: hand-written canonical text, and the fixed point
 *     parse(print(x)) == print(x) for every sample in samples/arb/;
 *   - the piglit corpus ($ST_CORPUS_DIR/manifest.tsv, rows of dialect arb):
 *     valid programs that use only ARB options are accepted and round-trip;
 *     invalid ones are rejected with a located error; programs that need an
 *     NV option are rejected with "not supported".  The counts are printed.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "translator.h"
#include "test_util.h"

/* One front-end run over a text: parse, check, print. */
struct run {
    struct st_ctx *ctx;
    struct st_arena *arena;
    struct st_shader *sh;
    struct st_result res;
    struct st_buf out;
    bool ok;
};

static void run_free(struct run *r)
{
    if (r->res.diagnostics) {
        struct st_diagnostic *d = (struct st_diagnostic *)r->res.diagnostics;
        free((char *)d[0].file);
        for (size_t i = 0; i < r->res.num_diagnostics; i++) {
            free((char *)d[i].message);
            free((char *)d[i].source_line);
        }
        free(d);
    }
    st_buf_free(&r->out);
    st_arena_destroy(r->arena);
    st_ctx_destroy(r->ctx);
    memset(r, 0, sizeof(*r));
}

/* Parses and checks; the AST stays alive until run_free. */
static void run_text(struct run *r, const char *name, const char *src, size_t len)
{
    memset(r, 0, sizeof(*r));
    r->ctx = st_ctx_create(name, src, len, 50);
    r->arena = st_arena_create();
    assert_non_null(r->ctx);
    assert_non_null(r->arena);
    r->sh = st_parse_arb(r->ctx, r->arena);
    if (r->sh && st_error_count(r->ctx) == 0)
        st_check_arb(r->ctx, r->sh);
    r->ok = r->sh && st_error_count(r->ctx) == 0;
    if (r->ok)
        st_print_arb(r->sh, &r->out);
    assert_true(st_ctx_export(r->ctx, &r->res));
}

static void run(struct run *r, const char *src)
{
    run_text(r, "t", src, strlen(src));
}

/* The first error. */
static const struct st_diagnostic *first_error(const struct run *r)
{
    for (size_t i = 0; i < r->res.num_diagnostics; i++)
        if (r->res.diagnostics[i].severity == ST_SEVERITY_ERROR)
            return &r->res.diagnostics[i];
    return NULL;
}

static void expect_error(const char *src, unsigned code, unsigned line, unsigned column)
{
    struct run r;
    run(&r, src);
    const struct st_diagnostic *d = first_error(&r);
    if (!d || d->code != code || d->line != line || d->column != column) {
        print_error("program:\n%s\nwanted ST%04u at %u:%u, got %s ST%04u at %u:%u: %s\n", src, code,
                    line, column, d ? "" : "(none)", d ? d->code : 0, d ? d->line : 0,
                    d ? d->column : 0, d && d->message ? d->message : "");
        run_free(&r);
        fail();
    }
    run_free(&r);
}

/* ------------------------------------------------------------------ */
/* Diagnostics.                                                        */

static void test_errors_syntax(void **state)
{
    (void)state;
    expect_error("!!ARBvp1.0\nMOV result.color, vertex.color\nEND\n", ST_E_SYNTAX, 3, 1);
    expect_error("!!ARBvp1.0\nMOV result.color, vertex.color;\n", ST_E_SYNTAX, 3, 1);
    expect_error("!!ARBvp1.0\nTEMP vertex;\nEND\n", ST_E_SYNTAX, 2, 6);
    expect_error("!!ARBvp1.0\nTEMP R0;\nMOV R0, |R0|;\nEND\n", ST_E_BAD_CHAR, 3, 9);
    expect_error(" !!ARBvp1.0\nEND\n", ST_E_NO_VERSION, 1, 2);
    expect_error("!!ARBvp2.0\nEND\n", ST_E_BAD_VERSION, 1, 1);
    expect_error("!!ARBvp1.0\nTEMP R0;\nOPTION ARB_position_invariant;\nEND\n", ST_E_SYNTAX, 3, 1);
    expect_error("!!ARBfp1.0\nMOV result.color, {1, 2, 3, 4, 5};\nEND\n", ST_E_SYNTAX, 2, 32);
}

static void test_errors_names(void **state)
{
    (void)state;
    expect_error("!!ARBvp1.0\nMOV result.color, foo;\nEND\n", ST_E_ARB_UNDECLARED, 2, 19);
    expect_error("!!ARBvp1.0\nADDRESS A0;\nTEMP A0;\nEND\n", ST_E_ARB_DUP_NAME, 3, 6);
    expect_error("!!ARBvp1.0\nFOO result.color, vertex.color;\nEND\n", ST_E_UNKNOWN_OPCODE, 2, 1);
    expect_error("!!ARBvp1.0\nCOS result.color, vertex.color.x;\nEND\n", ST_E_OPCODE_VERSION, 2, 1);
    expect_error("!!ARBvp1.0\nMOV_SAT result.color, vertex.color;\nEND\n", ST_E_BAD_MODIFIER, 2, 1);
    expect_error("!!ARBfp1.0\nARL A0.x, fragment.color.x;\nEND\n", ST_E_OPCODE_VERSION, 2, 1);
    expect_error("!!ARBvp1.0\nMOV result.color;\nEND\n", ST_E_OPERAND_COUNT, 2, 1);
    expect_error("!!ARBfp1.0\nKIL_SAT fragment.color;\nEND\n", ST_E_BAD_MODIFIER, 2, 1);
    expect_error("!!ARBfp1.0\nTEMP MOV_SAT;\nEND\n", ST_E_SYNTAX, 2, 6);
    /* Not reserved in vertex programs: a legal name there. */
    struct run r;
    run(&r, "!!ARBvp1.0\nTEMP CMP, fragment, texture, color, x;\nMOV x, vertex.color.x;\nEND\n");
    assert_true(r.ok);
    run_free(&r);
}

static void test_errors_bindings(void **state)
{
    (void)state;
    /* state.light needs a light number: reported at the "." before "ambient". */
    expect_error("!!ARBvp1.0\nPARAM p = state.light.ambient;\nEND\n", ST_E_ARB_BINDING, 2, 22);
    expect_error("!!ARBvp1.0\nATTRIB a = vertex.attrib[16];\nEND\n", ST_E_REG_INDEX, 2, 25);
    expect_error("!!ARBvp1.0\nPARAM m = state.matrix.mvp;\nEND\n", ST_E_OPERAND_KIND, 2, 11);
    expect_error("!!ARBvp1.0\nPARAM m[] = { state.matrix.mvp.row[2..1] };\nEND\n", ST_E_REG_INDEX, 2, 35);
    expect_error("!!ARBfp1.0\nMOV result.color.front, fragment.color;\nEND\n", ST_E_BAD_WRITEMASK, 2, 17);
    expect_error("!!ARBfp1.0\nMOV result.position, fragment.color;\nEND\n", ST_E_ARB_BINDING, 2, 11);
    expect_error("!!ARBfp1.0\nMOV result.color[1], fragment.color;\nEND\n", ST_E_REG_INDEX, 2, 17);
    expect_error("!!ARBvp1.0\nOPTION ARB_position_invariant;\nMOV result.position, vertex.position;\nEND\n",
                 ST_E_DST_REG, 3, 11);
    expect_error("!!ARBvp1.0\nMOV result.position, vertex.normal;\nMOV result.color, vertex.attrib[2];\nEND\n",
                 ST_E_DCL_RULE, 3, 19);
    expect_error("!!ARBvp1.0\nMOV vertex.color, vertex.normal;\nEND\n", ST_E_DST_REG, 2, 5);
    expect_error("!!ARBvp1.0\nMOV result.color, result.position;\nEND\n", ST_E_SRC_REG, 2, 19);
}

static void test_errors_operands(void **state)
{
    (void)state;
    expect_error("!!ARBvp1.0\nTEMP R0, R1;\nRCP R0, R1;\nEND\n", ST_E_SWIZZLE_RULE, 3, 9);
    expect_error("!!ARBvp1.0\nTEMP R0, R1;\nRCP R0, R1.xy;\nEND\n", ST_E_SWIZZLE_RULE, 3, 11);
    expect_error("!!ARBvp1.0\nTEMP R0;\nMOV R0, R0.xy;\nEND\n", ST_E_BAD_SWIZZLE, 3, 11);
    expect_error("!!ARBvp1.0\nTEMP R0;\nMOV R0.yx, R0;\nEND\n", ST_E_BAD_WRITEMASK, 3, 7);
    expect_error("!!ARBvp1.0\nTEMP R0;\nMOV R0, R0.rgba;\nEND\n", ST_E_BAD_SWIZZLE, 3, 11);
    expect_error("!!ARBvp1.0\nADDRESS A0;\nARL A0.y, vertex.color.x;\nEND\n", ST_E_BAD_WRITEMASK, 3, 7);
    expect_error("!!ARBvp1.0\nADDRESS A0;\nPARAM p[2] = { program.env[0..1] };\nMOV result.color, p[A0];\nEND\n",
                 ST_E_BAD_RELADDR, 4, 21);
    expect_error("!!ARBvp1.0\nPARAM p[2] = { program.env[0..1] };\nMOV result.color, p[2];\nEND\n",
                 ST_E_REG_INDEX, 3, 20);
    expect_error("!!ARBvp1.0\nPARAM p[2] = { program.env[0..1] };\nMOV result.color, p;\nEND\n",
                 ST_E_OPERAND_KIND, 3, 19);
    expect_error("!!ARBvp1.0\nPARAM p = program.env[0];\nMOV result.color, p[0];\nEND\n",
                 ST_E_OPERAND_KIND, 3, 20);
    expect_error("!!ARBvp1.0\nPARAM p[3] = { program.env[0..1] };\nEND\n", ST_E_DCL_RULE, 2, 9);
    expect_error("!!ARBfp1.0\nPARAM p[2] = { program.env[0..1] };\nMOV result.color, p[A0.x];\nEND\n",
                 ST_E_RELADDR_RULE, 3, 20);
    expect_error("!!ARBvp1.0\nSWZ result.color, vertex.color, 0, 1, 2, x;\nEND\n", ST_E_BAD_SWIZZLE, 2, 39);
    expect_error("!!ARBfp1.0\nSWZ result.color, fragment.color, r, x, 0, 1;\nEND\n", ST_E_BAD_SWIZZLE, 2, 38);
    expect_error("!!ARBvp1.0\nSWZ result.color, -vertex.color, 0, 1, x, y;\nEND\n", ST_E_SWIZZLE_RULE, 2, 19);
    expect_error("!!ARBfp1.0\nTEX result.color, fragment.texcoord, texture[0], CUBEMAP;\nEND\n",
                 ST_E_OPERAND_KIND, 2, 50);
    expect_error("!!ARBfp1.0\nTEX result.color, fragment.texcoord, texture[0], SHADOW2D;\nEND\n",
                 ST_E_OPERAND_KIND, 2, 50);
    expect_error("!!ARBfp1.0\nTEX result.color, fragment.texcoord, texture[16], 2D;\nEND\n",
                 ST_E_REG_INDEX, 2, 45);
}

static void test_errors_program(void **state)
{
    (void)state;
    /* Vendor options are refused by name. */
    struct run r;
    run(&r, "!!ARBfp1.0\nOPTION NV_fragment_program;\nEND\n");
    const struct st_diagnostic *d = first_error(&r);
    assert_non_null(d);
    assert_int_equal(d->code, ST_E_NOT_SUPPORTED);
    assert_int_equal(d->line, 2);
    assert_int_equal(d->column, 8);
    assert_non_null(strstr(d->message, "not supported"));
    run_free(&r);

    expect_error("!!ARBvp1.0\nOPTION ARB_fog_exp;\nEND\n", ST_E_ARB_OPTION, 2, 8);
    expect_error("!!ARBfp1.0\nOPTION ARB_fog_exp;\nOPTION ARB_fog_linear;\nEND\n", ST_E_ARB_OPTION, 3, 8);
    expect_error("!!ARBfp1.0\nOPTION ARB_precision_hint_nicest;\nOPTION ARB_precision_hint_fastest;\nEND\n",
                 ST_E_ARB_OPTION, 3, 8);
    expect_error("!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[1], 2D;\n"
                 "TEX result.depth, fragment.texcoord[1], texture[1], 3D;\nEND\n",
                 ST_E_TEX_RULE, 3, 41);
    expect_error("!!ARBvp1.0\nADDRESS A0, A1;\nEND\n", ST_E_ARB_LIMIT, 3, 1);
    /* An option no extension defines is an error of the program; an
     * ARB_-prefixed name that no ARB extension has is one too. */
    expect_error("!!ARBfp1.0\nOPTION fast_math;\nEND\n", ST_E_ARB_OPTION, 2, 8);
    expect_error("!!ARBvp1.0\nOPTION ARB_fog_everything;\nEND\n", ST_E_ARB_OPTION, 2, 8);
    /* Other vendors' options: "not supported", like NV_. */
    expect_error("!!ARBfp1.0\nOPTION ATI_draw_buffers;\nEND\n", ST_E_NOT_SUPPORTED, 2, 8);
    expect_error("!!ARBvp1.0\nOPTION MESA_texture_array;\nEND\n", ST_E_NOT_SUPPORTED, 2, 8);
    /* ALIAS of a name nobody declared. */
    expect_error("!!ARBvp1.0\nALIAS b = a;\nEND\n", ST_E_ARB_UNDECLARED, 2, 11);
    /* A PARAM redeclaring an ATTRIB's name. */
    expect_error("!!ARBvp1.0\nATTRIB p = vertex.normal;\nPARAM p = program.env[1];\nEND\n",
                 ST_E_ARB_DUP_NAME, 3, 7);
    /* state.material has no "glow". */
    expect_error("!!ARBvp1.0\nPARAM p = state.material.glow;\nEND\n", ST_E_ARB_BINDING, 2, 25);
    expect_error("!!ARBvp1.0\nADDRESS A0;\nPARAM a[2] = { program.env[0], program.env[0] };\n"
                 "ARL A0.x, vertex.position.x;\nMOV result.color, a[A0.x];\nEND\n",
                 ST_E_DCL_RULE, 3, 32);

    /* 257 temporaries: one over this implementation's limit of 256. */
    struct st_buf b = {0};
    st_buf_printf(&b, "!!ARBvp1.0\n");
    for (int i = 0; i < 257; i++)
        st_buf_printf(&b, "TEMP t%d;\n", i);
    st_buf_printf(&b, "END\n");
    expect_error(b.data, ST_E_ARB_LIMIT, 259, 1);
    st_buf_free(&b);

    /* Text after END is ignored, with a warning. */
    run(&r, "!!ARBvp1.0\nEND\ngarbage ( here\n");
    assert_true(r.ok);
    assert_int_equal(r.res.num_warnings, 1);
    run_free(&r);
}

/* Some error (not only the first) has this code, position and text. */
static void expect_message(const char *src, unsigned code, unsigned line, unsigned column,
                           const char *text)
{
    struct run r;
    run(&r, src);
    bool found = false;
    for (size_t i = 0; i < r.res.num_diagnostics && !found; i++) {
        const struct st_diagnostic *d = &r.res.diagnostics[i];
        found = d->severity == ST_SEVERITY_ERROR && d->code == code && d->line == line &&
                d->column == column && d->message && strcmp(d->message, text) == 0;
    }
    if (!found) {
        print_error("wanted ST%04u at %u:%u \"%s\"; got:\n", code, line, column, text);
        for (size_t i = 0; i < r.res.num_diagnostics; i++)
            print_error("  ST%04u at %u:%u: %s\n", r.res.diagnostics[i].code,
                        r.res.diagnostics[i].line, r.res.diagnostics[i].column,
                        r.res.diagnostics[i].message ? r.res.diagnostics[i].message : "");
        run_free(&r);
        fail();
    }
    run_free(&r);
}

/* The limits a tests/bad file cannot reach under 100 KB (each needs more
 * than 16384 instructions of at least 8 characters), and the header
 * message only st_parse_arb() itself can give (the driver picks the ARB
 * front end only for a text starting with "!!ARB"). */
static void test_errors_large_limits(void **state)
{
    (void)state;
    expect_error("MOV result.color, vertex.color;\nEND\n", ST_E_NO_VERSION, 1, 1);
    /* A comment or a byte order mark before the header: the header is
     * misplaced (st_parse_arb is reached this way with -x arb). */
    expect_message("# comment\n!!ARBvp1.0\nEND\n", ST_E_NO_VERSION, 2, 1,
                   "the !!ARBvp1.0 / !!ARBfp1.0 header must be the first characters of the program");
    expect_message("\xef\xbb\xbf!!ARBfp1.0\nEND\n", ST_E_NO_VERSION, 1, 2,
                   "the !!ARBvp1.0 / !!ARBfp1.0 header must be the first characters of the program");

    struct st_buf b = {0};
    /* vertex program: 16385 instructions, END on line 16388 */
    st_buf_printf(&b, "!!ARBvp1.0\nTEMP R;\n");
    for (int i = 0; i < 16385; i++)
        st_buf_printf(&b, "ABS R, R;\n");
    st_buf_printf(&b, "END\n");
    expect_message(b.data, ST_E_ARB_LIMIT, 16388, 1,
                   "the program uses 16385 instructions; the limit is 16384");
    st_buf_free(&b);

    /* ARB_position_invariant: 16381 against 16384 - 4; END on line 16385 */
    st_buf_printf(&b, "!!ARBvp1.0\nOPTION ARB_position_invariant;\nTEMP R;\n");
    for (int i = 0; i < 16381; i++)
        st_buf_printf(&b, "ABS R, R;\n");
    st_buf_printf(&b, "END\n");
    expect_message(b.data, ST_E_ARB_LIMIT, 16385, 1,
                   "the program uses 16381 instructions; the limit is 16380 (minus 4 with "
                   "ARB_position_invariant)");
    st_buf_free(&b);

    /* fragment program: 16385 ALU instructions; END on line 16388 */
    st_buf_printf(&b, "!!ARBfp1.0\nTEMP R;\n");
    for (int i = 0; i < 16385; i++)
        st_buf_printf(&b, "ABS R, R;\n");
    st_buf_printf(&b, "END\n");
    expect_message(b.data, ST_E_ARB_LIMIT, 16388, 1,
                   "the program uses 16385 ALU instructions; the limit is 16384");
    st_buf_free(&b);

    /* A MOV writes R, then 16384 TEX each read the R the one before wrote:
     * 16385 texture indirection nodes (ARB_fragment_program 3.11.6).
     * END on line 16388. */
    st_buf_printf(&b, "!!ARBfp1.0\nTEMP R;\nMOV R, fragment.texcoord;\n");
    for (int i = 0; i < 16384; i++)
        st_buf_printf(&b, "TEX R, R, texture, 2D;\n");
    st_buf_printf(&b, "END\n");
    expect_message(b.data, ST_E_ARB_LIMIT, 16388, 1,
                   "the program uses 16385 texture indirections; the limit is 16384");
    st_buf_free(&b);
}

/* ------------------------------------------------------------------ */
/* The AST.                                                            */

static void test_ast_vertex(void **state)
{
    (void)state;
    struct run r;
    run(&r, "!!ARBvp1.0\n"
            "PARAM m[] = { state.matrix.mvp };\n"
            "ADDRESS A0;\n"
            "TEMP t;\n"
            "ARL A0.x, vertex.attrib[1].y;\n"
            "DP4 result.position.x, m[A0.x + 1], vertex.position;\n"
            "MAD t, {1, 2}, 0.5, -program.local[7].wzyx;\n"
            "EX2 result.texcoord.w, t.x;\n"
            "END\n");
    assert_true(r.ok);
    const struct st_shader *sh = r.sh;
    const struct st_arb_program *a = sh->arb;
    assert_int_equal(sh->dialect, ST_ARB);
    assert_int_equal(sh->version.type, ST_VS);
    assert_int_equal(sh->num_instrs, 4);

    /* The matrix fills four slots, rows 0..3, identity by default. */
    assert_int_equal(a->num_arrays, 1);
    assert_int_equal(a->arrays[0].first, 0);
    assert_int_equal(a->arrays[0].count, 4);
    assert_true(a->arrays[0].relative);
    assert_string_equal(a->params[2].binding, "state.matrix.mvp.row[2]");
    assert_true(a->params[2].value[0] == 0.0f && a->params[2].value[2] == 1.0f &&
                a->params[2].value[3] == 0.0f);

    const struct st_instr *in = sh->first;
    assert_int_equal(in->op, ST_OP_ARB_ARL);
    assert_int_equal(in->dst.reg.file, ST_REG_ADDR);
    assert_int_equal(in->dst.writemask, 0x1);
    assert_int_equal(in->src[0].reg.file, ST_REG_INPUT);
    assert_string_equal(a->inputs[in->src[0].reg.index].binding, "vertex.attrib[1]");
    assert_int_equal(in->src[0].swizzle, ST_SWIZZLE(1, 1, 1, 1));

    in = in->next;
    assert_int_equal(in->op, ST_OP_DP4);
    assert_int_equal(in->dst.reg.file, ST_REG_OUTPUT);
    assert_string_equal(a->outputs[in->dst.reg.index].binding, "result.position");
    assert_int_equal(in->dst.writemask, 0x1);
    assert_int_equal(in->src[0].reg.file, ST_REG_CONST);
    assert_int_equal(in->src[0].reg.index, 1); /* first slot 0 + offset 1 */
    assert_non_null(in->src[0].reg.rel);
    assert_int_equal(in->src[0].reg.rel->file, ST_REG_ADDR);
    assert_int_equal(in->arb->src[0].array, 0);
    assert_int_equal(in->arb->src[0].offset, 1);

    in = in->next;
    assert_int_equal(in->op, ST_OP_MAD);
    /* {1, 2} is (1, 2, 0, 1); 0.5 is (0.5, 0.5, 0.5, 0.5). */
    const struct st_arb_param *c1 = &a->params[in->src[0].reg.index];
    const struct st_arb_param *c2 = &a->params[in->src[1].reg.index];
    assert_int_equal(c1->kind, ST_ARB_PARAM_CONST);
    assert_true(c1->value[0] == 1.0f && c1->value[1] == 2.0f && c1->value[2] == 0.0f &&
                c1->value[3] == 1.0f);
    assert_true(c2->value[0] == 0.5f && c2->value[3] == 0.5f);
    const struct st_arb_param *lp = &a->params[in->src[2].reg.index];
    assert_int_equal(lp->kind, ST_ARB_PARAM_LOCAL);
    assert_int_equal(lp->index, 7);
    assert_string_equal(lp->binding, "program.local[7]");
    assert_int_equal(in->src[2].mod, ST_SRCMOD_NEG);
    assert_int_equal(in->src[2].swizzle, ST_SWIZZLE(3, 2, 1, 0));

    in = in->next;
    assert_int_equal(in->op, ST_OP_EXP); /* EX2 is D3D9 exp: full precision 2^x */
    assert_string_equal(a->outputs[in->dst.reg.index].binding, "result.texcoord[0]");
    assert_int_equal(in->dst.writemask, 0x8);
    run_free(&r);
}

static void test_ast_fragment(void **state)
{
    (void)state;
    struct run r;
    run(&r, "!!ARBfp1.0\n"
            "OPTION ARB_draw_buffers;\n"
            "TEMP c;\n"
            "ALIAS k = c;\n"
            "TXP_SAT c.rgb, fragment.texcoord[2], texture[3], CUBE;\n"
            "SWZ k, c, -1, 0, b, -a;\n"
            "KIL -c.xyzx;\n"
            "MOV result.color[1], k;\n"
            "END\n");
    assert_true(r.ok);
    const struct st_arb_program *a = r.sh->arb;
    assert_int_equal(r.sh->version.type, ST_PS);
    assert_true(a->options & ST_ARB_OPT_DRAW_BUFFERS);
    const struct st_instr *in = r.sh->first;
    assert_int_equal(in->op, ST_OP_ARB_TXP);
    assert_int_equal(in->dstmod, ST_DSTMOD_SAT);
    assert_int_equal(in->dst.writemask, 0x7);
    assert_int_equal(in->nsrc, 2);
    assert_int_equal(in->src[1].reg.file, ST_REG_SAMPLER);
    assert_int_equal(in->src[1].reg.index, 3);
    assert_int_equal(in->arb->tex_unit, 3);
    assert_int_equal(in->arb->tex_target, ST_ARB_TEX_CUBE);
    assert_string_equal(a->inputs[in->src[0].reg.index].binding, "fragment.texcoord[2]");

    in = in->next;
    assert_int_equal(in->op, ST_OP_ARB_SWZ);
    assert_int_equal(in->dst.reg.file, ST_REG_TEMP);
    assert_int_equal(in->dst.reg.index, 0); /* the alias names temp 0 */
    assert_string_equal(in->arb->dst.var, "k");
    assert_int_equal(in->arb->swz_sel[0], ST_ARB_SWZ_ONE);
    assert_int_equal(in->arb->swz_sel[1], ST_ARB_SWZ_ZERO);
    assert_int_equal(in->arb->swz_sel[2], 2);
    assert_int_equal(in->arb->swz_sel[3], 3);
    assert_int_equal(in->arb->swz_neg, 0x9);

    in = in->next;
    assert_int_equal(in->op, ST_OP_ARB_KIL);
    assert_false(in->has_dst);
    assert_int_equal(in->src[0].mod, ST_SRCMOD_NEG);

    in = in->next;
    assert_string_equal(a->outputs[in->dst.reg.index].binding, "result.color[1]");
    run_free(&r);
}

static void test_opcode_mapping(void **state)
{
    (void)state;
    /* Shared with D3D9 only where the semantics match (docs/arb.md). */
    assert_int_equal(st_arb_opinfo[0].op, ST_OP_ABS);
    assert_string_equal(st_arb_opcode_name(ST_OP_EXP), "EX2");
    assert_string_equal(st_arb_opcode_name(ST_OP_EXPP), "EXP");
    assert_string_equal(st_arb_opcode_name(ST_OP_LOG), "LG2");
    assert_string_equal(st_arb_opcode_name(ST_OP_LOGP), "LOG");
    assert_string_equal(st_arb_opcode_name(ST_OP_ARB_XPD), "XPD");
    assert_string_equal(st_arb_opcode_name(ST_OP_ARB_LIT), "LIT");
    assert_null(st_arb_opcode_name(ST_OP_CRS));
    for (unsigned i = 0; i < st_arb_num_opinfo; i++) {
        const struct st_arb_opinfo *o = &st_arb_opinfo[i];
        assert_true(o->vp || o->fp);
        if (st_opinfo[o->op].flags & OPF_ARB) /* ARB-only rows exist in no D3D9 model */
            assert_int_equal(st_opinfo[o->op].vs_min, VNONE);
    }
    /* 27 vertex and 33 fragment instructions (the two specifications). */
    unsigned nvp = 0, nfp = 0;
    for (unsigned i = 0; i < st_arb_num_opinfo; i++) {
        nvp += st_arb_opinfo[i].vp;
        nfp += st_arb_opinfo[i].fp;
    }
    assert_int_equal(nvp, 27);
    assert_int_equal(nfp, 33);
}

static void test_state_defaults(void **state)
{
    (void)state;
    float v[4];
#define EXPECT4(name, a, b, c, d)                                                        \
    do {                                                                                 \
        assert_true(st_arb_state_default(name, v));                                      \
        assert_true(v[0] == (float)(a) && v[1] == (float)(b) && v[2] == (float)(c) &&    \
                    v[3] == (float)(d));                                                 \
    } while (0)
    EXPECT4("state.matrix.modelview[0].inverse.row[1]", 0, 1, 0, 0);
    EXPECT4("state.material.ambient", 0.2f, 0.2f, 0.2f, 1);
    EXPECT4("state.material.back.diffuse", 0.8f, 0.8f, 0.8f, 1);
    EXPECT4("state.light[0].diffuse", 1, 1, 1, 1);
    EXPECT4("state.light[3].specular", 0, 0, 0, 1);
    EXPECT4("state.light[2].position", 0, 0, 1, 0);
    EXPECT4("state.light[0].spot.direction", 0, 0, -1, -1);
    EXPECT4("state.lightprod[0].diffuse", 0.8f, 0.8f, 0.8f, 1);
    EXPECT4("state.fog.params", 1, 0, 1, 1);
    EXPECT4("state.texgen[1].object.t", 0, 1, 0, 0);
    EXPECT4("state.depth.range", 0, 1, 1, 1);
    EXPECT4("program.env[5]", 0, 0, 0, 0);
    assert_false(st_arb_state_default("vertex.position", v));
#undef EXPECT4
}

/* ------------------------------------------------------------------ */
/* Printing.                                                           */

static void test_print_canonical(void **state)
{
    (void)state;
    struct run r;
    run(&r, "!!ARBvp1.0  # header comment\n"
            "OPTION ARB_position_invariant;\n"
            "PARAM p[] = { state.matrix.texture.invtrans.row[1..2], program.local[3..5], -2 };\n"
            "ADDRESS A0;\n"
            "ATTRIB n = vertex.color.primary;\n"
            "ARL A0.x, n.w;\n"
            "SWZ result.color.back.secondary.xw, p[A0.x - 3], -x, 1, 0, w;\n"
            "MUL result.texcoord[1], {0.25}.x, p[4];\n"
            "END\n");
    assert_true(r.ok);
    assert_string_equal(r.out.data,
                        "!!ARBvp1.0\n"
                        "OPTION ARB_position_invariant;\n"
                        "PARAM p[] = { state.matrix.texture[0].invtrans.row[1..2], "
                        "program.local[3..5], {-2, -2, -2, -2} };\n"
                        "ADDRESS A0;\n"
                        "ATTRIB n = vertex.color;\n"
                        "ARL A0.x, n.w;\n"
                        "SWZ result.color.back.secondary.xw, p[A0.x - 3], -x, 1, 0, w;\n"
                        "MUL result.texcoord[1], {0.25, 0, 0, 1}.x, p[4];\n"
                        "END\n");
    run_free(&r);
}

/* Large constants print in %g form: the integer test must not convert a
 * float outside long's range (undefined; the sanitizer build of every
 * test run aborts on it; fuzz_parse_arb found it with 1e38). */
static void test_print_large_constants(void **state)
{
    (void)state;
    struct run r;
    run(&r, "!!ARBfp1.0\nMOV result.color, {1e38, -3e38, 123456789, 1e9};\nEND\n");
    assert_true(r.ok);
    assert_string_equal(r.out.data, "!!ARBfp1.0\n"
                                    "MOV result.color, {1e+38, -3e+38, 123456792, 1e+09};\n"
                                    "END\n");
    run_free(&r);
}

/* parse(print(x)) prints print(x) again. */
static bool round_trips(const struct run *r, char *why, size_t why_len)
{
    struct run r2;
    run_text(&r2, "printed", r->out.data, r->out.len);
    bool ok = r2.ok && strcmp(r2.out.data, r->out.data) == 0;
    if (!ok) {
        const struct st_diagnostic *d = first_error(&r2);
        snprintf(why, why_len, "%s", d ? d->message : "printed text differs");
    }
    run_free(&r2);
    return ok;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every samples/arb program: accepted, round-trips; together they use
 * every instruction of both specifications. */
static void test_samples(void **state)
{
    (void)state;
    const char *root = getenv("ST_ROOT");
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/samples/arb", root ? root : ".");
    DIR *d = opendir(dir);
    if (!d) {
        print_message("samples/arb not found under %s\n", root ? root : ".");
        fail();
    }
    char *names[256];
    unsigned n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 256;) {
        size_t l = strlen(e->d_name);
        if (l > 3 && (strcmp(e->d_name + l - 3, ".vp") == 0 || strcmp(e->d_name + l - 3, ".fp") == 0))
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof(names[0]), cmp_names);
    bool used[ST_OP_COUNT] = {false};
    /* Binding families the samples must use between them. */
    static const char *const families[] = {
        "vertex.position", "vertex.weight[", "vertex.normal", "vertex.color",
        "vertex.color.secondary", "vertex.fogcoord", "vertex.texcoord[", "vertex.matrixindex[",
        "vertex.attrib[", "fragment.color", "fragment.color.secondary", "fragment.texcoord[",
        "fragment.fogcoord", "fragment.position", "result.position", "result.color",
        "result.color.secondary", "result.color.back", "result.color.back.secondary",
        "result.fogcoord", "result.pointsize", "result.texcoord[", "result.color[", "result.depth",
        "program.env[", "program.local[", "state.material.", "state.material.back.",
        "state.light[", "state.lightmodel.ambient", "state.lightmodel.scenecolor",
        "state.lightmodel.back.scenecolor", "state.lightprod[", "state.texgen[", "state.fog.color",
        "state.fog.params", "state.clip[", "state.point.size", "state.point.attenuation",
        "state.texenv[", "state.depth.range", "state.matrix.modelview[", "state.matrix.projection.",
        "state.matrix.mvp.", "state.matrix.texture[", "state.matrix.palette[",
        "state.matrix.program[", ".inverse.row[", ".transpose.row[", ".invtrans.row[",
    };
    enum { NFAM = sizeof(families) / sizeof(families[0]) };
    bool fam_used[NFAM] = {false};
    unsigned bad = 0;
    for (unsigned i = 0; i < n; i++) {
        char path[1300];
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        size_t len;
        char *src = slurp(path, &len);
        assert_non_null(src);
        struct run r;
        run_text(&r, names[i], src, len);
        char why[256] = "";
        if (!r.ok) {
            const struct st_diagnostic *e = first_error(&r);
            print_error("%s: rejected: %u:%u %s\n", names[i], e ? e->line : 0, e ? e->column : 0,
                        e ? e->message : "");
            bad++;
        } else if (!round_trips(&r, why, sizeof(why))) {
            print_error("%s: not a fixed point: %s\n", names[i], why);
            bad++;
        } else {
            for (const struct st_instr *in = r.sh->first; in; in = in->next)
                used[in->op] = true;
            const struct st_arb_program *a = r.sh->arb;
            for (unsigned f = 0; f < NFAM; f++) {
                size_t fl = strlen(families[f]);
                bool exact = families[f][fl - 1] != '[' && families[f][fl - 1] != '.';
                for (unsigned k = 0; k < a->num_inputs + a->num_outputs + a->num_params; k++) {
                    const char *b = k < a->num_inputs ? a->inputs[k].binding
                                    : k < a->num_inputs + a->num_outputs
                                        ? a->outputs[k - a->num_inputs].binding
                                        : a->params[k - a->num_inputs - a->num_outputs].binding;
                    if (b && (exact ? strcmp(b, families[f]) == 0
                                    : (families[f][0] == '.' ? strstr(b, families[f]) != NULL
                                                             : strncmp(b, families[f], fl) == 0)))
                        fam_used[f] = true;
                }
            }
        }
        run_free(&r);
        free(src);
        free(names[i]);
    }
    for (unsigned i = 0; i < st_arb_num_opinfo; i++)
        if (!used[st_arb_opinfo[i].op]) {
            print_error("no sample uses %s\n", st_arb_opinfo[i].name);
            bad++;
        }
    for (unsigned f = 0; f < NFAM; f++)
        if (!fam_used[f]) {
            print_error("no sample binds %s\n", families[f]);
            bad++;
        }
    print_message("samples/arb: %u programs\n", n);
    assert_true(n >= 15);
    assert_int_equal(bad, 0);
}

/* ------------------------------------------------------------------ */
/* The piglit corpus.                                                  */

static void test_corpus(void **state)
{
    (void)state;
    struct manifest man;
    if (!manifest_open(&man))
        fail_msg("corpus manifest not found in %s (set ST_CORPUS_DIR)", man.dir);
    unsigned valid_ok = 0, valid_bad = 0, invalid_ok = 0, invalid_bad = 0, nv_ok = 0, nv_bad = 0;
    unsigned kind_mismatch = 0;
    struct manifest_row row;
    while (manifest_next(&man, &row)) {
        if (strcmp(row.dialect, "arb") != 0)
            continue;
        bool valid = strcmp(row.expect, "valid") == 0;
        /* Programs that need an NVIDIA option: not ours to accept. */
        bool nv = manifest_needs_vendor(&row);
        char file[1300];
        manifest_file(&man, &row, file, sizeof(file));
        size_t len;
        char *src = slurp(file, &len);
        assert_non_null(src);
        struct run r;
        run_text(&r, row.path, src, len);
        const struct st_diagnostic *e = first_error(&r);
        char why[256] = "";
        if (nv) {
            if (!r.ok && e && e->code == ST_E_NOT_SUPPORTED && e->line && strstr(e->message, "not supported"))
                nv_ok++;
            else {
                nv_bad++;
                print_error("%s: NV program not refused as not supported\n", row.path);
            }
        } else if (valid) {
            if (r.ok && round_trips(&r, why, sizeof(why)))
                valid_ok++;
            else {
                valid_bad++;
                print_error("%s: valid program: %s\n", row.path, r.ok ? why : e ? e->message : "?");
            }
        } else {
            /* piglit loads the programs of its ARBvp1.0 directory as vertex
             * programs (and ARBfp1.0 as fragment programs): a header of the
             * other kind is refused by that load, not by the text. */
            const char *base = strrchr(row.path, '/');
            base = base ? base + 1 : row.path;
            bool want_vp = strncmp(base, "ARBvp1_0_", 9) == 0;
            bool want_fp = strncmp(base, "ARBfp1_0_", 9) == 0;
            bool mismatch = r.ok && ((want_vp && r.sh->version.type != ST_VS) ||
                                     (want_fp && r.sh->version.type != ST_PS));
            if (mismatch) {
                kind_mismatch++;
                invalid_ok++;
            } else if (!r.ok && e && e->line > 0) {
                invalid_ok++;
            } else {
                invalid_bad++;
                print_error("%s: invalid program %s\n", row.path, r.ok ? "accepted" : "rejected without a location");
            }
        }
        run_free(&r);
        free(src);
    }
    manifest_close(&man);
    print_message("arb corpus: valid accepted+round-trip %u/%u, invalid rejected with a location %u/%u "
                  "(%u of them by program kind), NV-option programs refused as not supported %u/%u\n",
                  valid_ok, valid_ok + valid_bad, invalid_ok, invalid_ok + invalid_bad, kind_mismatch,
                  nv_ok, nv_ok + nv_bad);
    assert_int_equal(valid_bad, 0);
    assert_int_equal(invalid_bad, 0);
    assert_int_equal(nv_bad, 0);
    assert_true(valid_ok > 0 && invalid_ok > 0 && nv_ok > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_errors_syntax),
        cmocka_unit_test(test_errors_names),
        cmocka_unit_test(test_errors_bindings),
        cmocka_unit_test(test_errors_operands),
        cmocka_unit_test(test_errors_program),
        cmocka_unit_test(test_errors_large_limits),
        cmocka_unit_test(test_ast_vertex),
        cmocka_unit_test(test_ast_fragment),
        cmocka_unit_test(test_opcode_mapping),
        cmocka_unit_test(test_state_defaults),
        cmocka_unit_test(test_print_canonical),
        cmocka_unit_test(test_print_large_constants),
        cmocka_unit_test(test_samples),
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
