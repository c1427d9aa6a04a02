/*
 * test_gen.c — the Gen9 back end end to end (st_gen_compile_ex): payload
 * reads, interpolation, sampler / URB / render-target messages with their
 * descriptors, modifiers, control flow, texkill, the SIMD width choice,
 * spilling and located errors.  Descriptor values are worked out by hand
 * from ../shared/docs/gen9-target.md sections 4-5 (field layout) and
 * match the iga-verified examples there.
 * tests/gen_iga.sh checks the kernels with iga64 through the CLI.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>
#include <math.h>

#include "emit.h"
#include "translator.h"
#include "test_util.h"

struct gen_out {
    bool ok;
    char *text;  /* malloc'd */
    char *stats; /* malloc'd */
    unsigned code, line, column;
};

/* The statistics line names the shader (the file, "t.asm" or "t.fp" here)
 * and gives the width: "t.asm: SIMD8 shader: ..." */
static bool stats_simd(const char *stats, unsigned simd)
{
    char want[32];
    snprintf(want, sizeof(want), ": SIMD%u shader: ", simd);
    const char *c = strstr(stats, want);
    return c && (strncmp(stats, "t.asm", 5) == 0 || strncmp(stats, "t.fp", 4) == 0) &&
           (c == stats + 5 || c == stats + 4) && !strchr(stats, '\n');
}

static struct gen_out compile_pp(const char *src, unsigned simd, bool pp)
{
    struct gen_out r = {0};
    bool arb = strncmp(src, "!!ARB", 5) == 0;
    struct st_ctx *ctx = st_ctx_create(arb ? "t.fp" : "t.asm", src, strlen(src), 50);
    struct st_arena *a = st_arena_create();
    struct st_shader *sh = arb ? st_parse_arb(ctx, a) : st_parse_d3d9(ctx, a);
    assert_non_null(sh);
    assert_int_equal(st_error_count(ctx), 0);
    assert_true(arb ? st_check_arb(ctx, sh) : st_check(ctx, sh));
    sh->pp_half = pp; /* --pp=fp16, as st_front_end sets it */
    struct st_buf out = {0}, stats = {0};
    r.ok = test_gen_compile(ctx, sh, simd, ST_FLOAT_IEEE, ST_FP_CONTRACT_ON, &out, &stats, NULL);
    struct st_result res;
    memset(&res, 0, sizeof(res));
    assert_true(st_ctx_export(ctx, &res));
    if (res.num_diagnostics) {
        r.code = res.diagnostics[0].code;
        r.line = res.diagnostics[0].line;
        r.column = res.diagnostics[0].column;
    }
    for (size_t i = 0; i < res.num_diagnostics; i++) {
        free((char *)res.diagnostics[i].message);
        free((char *)res.diagnostics[i].source_line);
    }
    if (res.num_diagnostics)
        free((char *)res.diagnostics[0].file);
    free((void *)res.diagnostics);
    r.text = out.data ? out.data : calloc(1, 1);
    r.stats = stats.data ? stats.data : calloc(1, 1);
    st_arena_destroy(a);
    st_ctx_destroy(ctx);
    return r;
}

static struct gen_out compile(const char *src, unsigned simd)
{
    return compile_pp(src, simd, false);
}

static void out_free(struct gen_out *r)
{
    free(r->text);
    free(r->stats);
}

static unsigned count(const char *hay, const char *needle)
{
    unsigned n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* The channels of the instructions whose line contains needle: the sum
 * of their execution sizes, so that four SIMD8 instructions and two
 * SIMD16 ones that do the same work (gen/opt_pair.c) count alike. */
static unsigned lanes(const char *text, const char *needle)
{
    unsigned n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle)) {
        const char *b = p;
        while (b > text && b[-1] != '\n')
            b--;
        const char *e = strchr(p, '\n');
        for (const char *q = b; *q && *q != '\n'; q++) {
            unsigned x;
            if (*q == '(' && sscanf(q, "(%u|M", &x) == 1) {
                n += x;
                break;
            }
        }
        if (!e)
            break;
        p = e; /* one count per line */
    }
    return n;
}

/* The line of text containing needle (first occurrence), in buf. */
static const char *line_with(const char *text, const char *needle, char *buf, size_t n)
{
    const char *p = strstr(text, needle);
    if (!p)
        return "";
    const char *b = p, *e = p;
    while (b > text && b[-1] != '\n')
        b--;
    while (*e && *e != '\n')
        e++;
    size_t len = (size_t)(e - b) < n - 1 ? (size_t)(e - b) : n - 1;
    memcpy(buf, b, len);
    buf[len] = 0;
    return buf;
}

static const char *texld_ps =
    "ps_2_0\n"
    "dcl t0.xy\n"
    "dcl_2d s0\n"
    "texld r0, t0, s0\n"
    "mul r0, r0, c0\n"
    "mov oC0, r0\n";

/* Runs src (D3D9 or ARB) on the inputs JSON through the Gen engine under a
 * float rule and a contraction; o[k] = invocation k. */
static void gen_run_json_ex(const char *src, const char *json, unsigned simd,
                            enum st_float_rules rules, enum st_fp_contract contract,
                            struct st_run_outputs *o, unsigned n)
{
    bool arb = strncmp(src, "!!ARB", 5) == 0;
    struct st_ctx *ctx = st_ctx_create(arb ? "r.arb" : "r.asm", src, strlen(src), 50);
    struct st_arena *a = st_arena_create();
    struct st_shader *sh = arb ? st_parse_arb(ctx, a) : st_parse_d3d9(ctx, a);
    assert_true(sh && (arb ? st_check_arb(ctx, sh) : st_check(ctx, sh)));
    struct st_run_inputs in;
    assert_true(st_run_inputs_parse(ctx, sh, "in", json, strlen(json), a, &in));
    assert_int_equal(in.num_invocations, n);
    assert_true(test_gen_execute_ex(ctx, sh, simd, &in, rules, contract, o, NULL));
    st_arena_destroy(a);
    st_ctx_destroy(ctx);
}

static void gen_run_json(const char *src, const char *json, unsigned simd, struct st_run_outputs *o,
                         unsigned n)
{
    gen_run_json_ex(src, json, simd, ST_FLOAT_IEEE, ST_FP_CONTRACT_ON, o, n);
}

static void test_ps_simd8_messages(void **state)
{
    (void)state;
    struct gen_out r = compile(texld_ps, 8);
    assert_true(r.ok);
    /* t0.x and t0.y interpolated: pln from the setup data, barycentrics at r2 (SIMD8) */
    assert_int_equal(count(r.text, "pln (8|M0)"), 2);
    assert_non_null(strstr(r.text, "r2.0<8;8,1>:f"));
    /* sample SIMD8, mlen 2 (u, v), rlen 4, SFID 2, BTI 9 + 0 (docs/gen-abi.md: after the
     * eight render targets and the constant buffer), sampler 0,
     * SIMD mode 1: (2<<25) | (4<<20) | (1<<17) | 9 = 0x04420009 */
    assert_non_null(strstr(r.text, " 0x2 0x04420009"));
    /* RT write SIMD8 single source: mlen 4, type 12, last RT, subtype 4, BTI 0 = 0x08031400;
     * render cache SFID 5 with EOT: 0x25 */
    char buf[256];
    const char *l = line_with(r.text, "0x08031400", buf, sizeof(buf));
    assert_non_null(strstr(l, "sendc (8|M0)"));
    assert_non_null(strstr(l, " 0x25 "));
    assert_non_null(strstr(l, "{EOT}"));
    /* the EOT payload lies in r112-r127 */
    int reg = -1;
    assert_int_equal(sscanf(strstr(l, "null:uw") + 7, " r%d", &reg), 1);
    assert_true(reg >= 112 && reg + 4 <= 128);
    /* c0 is a pushed constant read with a scalar region */
    assert_non_null(strstr(r.text, "<0;1,0>:f"));
    assert_true(stats_simd(r.stats, 8));
    out_free(&r);
}

static void test_ps_simd16_and_32(void **state)
{
    (void)state;
    struct gen_out r = compile(texld_ps, 16);
    assert_true(r.ok);
    /* SIMD16 sample: mlen 4, rlen 8, SIMD mode 2, BTI 9: 0x08840009; RT write mlen 8 subtype 0: 0x10031000 */
    assert_non_null(strstr(r.text, " 0x2 0x08840009"));
    assert_non_null(strstr(r.text, "0x10031000 {EOT}"));
    out_free(&r);

    r = compile(texld_ps, 32);
    assert_true(r.ok);
    /* two SIMD16 halves: (16|M0) and (16|M16); the second RT write has the slot-group bit 11 */
    assert_int_equal(count(r.text, " 0x2 0x08840009"), 2);
    assert_non_null(strstr(r.text, "sendc (16|M0)"));
    assert_non_null(strstr(r.text, "sendc (16|M16)"));
    assert_non_null(strstr(r.text, "0x10031800 {EOT}"));
    assert_int_equal(count(r.text, "{EOT}"), 1);
    /* SIMD32 barycentrics: pixels 0-15 at r3, 16-31 at r7 */
    assert_non_null(strstr(r.text, "pln (16|M0)"));
    assert_non_null(strstr(r.text, "r3.0<8;8,1>:f"));
    assert_non_null(strstr(r.text, "r7.0<8;8,1>:f"));
    assert_true(stats_simd(r.stats, 32));
    out_free(&r);
}

/* The instruction count of a statistics line ("t.asm: SIMD32 shader: N instructions. ..."). */
static unsigned stats_insts(const char *stats)
{
    const char *c = strstr(stats, " shader: ");
    unsigned n = 0;
    assert_non_null(c);
    assert_int_equal(sscanf(c + 9, "%u instructions", &n), 1);
    return n;
}

/*
 * SIMD32 as two SIMD16 halves (emit/gen/opt_split.c): the interpolated
 * coordinates, a coordinate computed from a texel and the colour are each
 * computed in the payload of the half's message that sends them, and the
 * texels are read where each half's response arrived, so the SIMD32
 * kernel is the SIMD16 one twice, with no mov between a value's halves
 * and the messages.
 * (Before: 54 instructions, 32 of them such movs, against 11 at SIMD16.)
 */
static void test_simd32_halves_computed_in_messages(void **state)
{
    (void)state;
    static const char *src = "ps_2_0\n"
                             "dcl t0.xy\n"
                             "dcl_2d s0\n"
                             "dcl_2d s1\n"
                             "texld r0, t0, s0\n"
                             "mad r1.xy, r0, c0, t0\n"
                             "texld r1, r1, s1\n"
                             "mul r0, r0, r1\n"
                             "mov oC0, r0\n";
    struct gen_out r16 = compile(src, 16), r32 = compile(src, 32);
    assert_true(r16.ok);
    assert_true(r32.ok);
    assert_int_equal(count(r32.text, "mov (16|"), 0);
    assert_int_equal(count(r32.text, "send (16|M0)"), 2);
    assert_int_equal(count(r32.text, "send (16|M16)"), 2);
    assert_true(stats_insts(r32.stats) <= 2 * stats_insts(r16.stats));
    out_free(&r16);
    out_free(&r32);
}

static void test_vs_urb_write(void **state)
{
    (void)state;
    struct gen_out r = compile("vs_1_1\n"
                               "dcl_position v0\n"
                               "add oPos, v0, c3\n",
                               0);
    assert_true(r.ok);
    /* handles copied NoMask from r1 */
    assert_non_null(strstr(r.text, "(W)"));
    assert_non_null(strstr(r.text, "r1.0<8;8,1>:ud"));
    /* position in VUE slot 1: URB SIMD8 write, mlen 5, header, offset 1: 0x0A080017; SFID 6 + EOT */
    assert_non_null(strstr(r.text, " 0x26 0x0A080017 {EOT}"));
    /* v0 component x is the first attribute GRF (after r0, r1 and the constants c2-c3 at r2) */
    /* c3.x and c3.y (r2.4, r2.5) added to v0.x and v0.y by one (W) add (16):
     * the two GRFs of v0 and the two dwords of c3 (gen/opt_pair.c) */
    assert_non_null(strstr(r.text, "r3.0<8;8,1>:f r2.4<1;8,0>:f"));
    assert_true(stats_simd(r.stats, 8));
    assert_non_null(strstr(r.stats, " 1 sends"));
    out_free(&r);
}

/* A slot passing a vertex attribute through is written from its payload
 * registers in place: a split send of r1 and the attribute's four GRFs. */
static void test_vs_pass_through_in_place(void **state)
{
    (void)state;
    struct gen_out r = compile("vs_2_0\n"
                               "dcl_position v0\n"
                               "dcl_texcoord v1\n"
                               "add oPos, v0, c0\n"
                               "mov oT0, v1\n",
                               0);
    assert_true(r.ok);
    /* attributes from r3 (r0, r1, c0 at r2): v1 is r7-r10; oT0 is VUE slot 2:
     * sends, ExDesc 0x106 (URB, 4 GRFs in src1), mlen 1, header, offset 2 */
    assert_non_null(strstr(r.text, "sends (8|M0)     null:ud r1 r7 0x106 0x02080027"));
    /* the computed position is the end-of-thread write (mlen 5, offset 1) */
    assert_non_null(strstr(r.text, " 0x26 0x0A080017 {EOT}"));
    assert_int_equal(count(r.text, "mov (8|M0)"), 1); /* only the handles' copy */
    out_free(&r);
}

/* The pass-through is the second slot of a message that does not end the
 * thread: that message becomes the split send (header and the position
 * copied, mlen 5, then v1's GRFs in place), no message of its own; the
 * Gen engine writes all three slots as the shader says. */
static void test_vs_pass_through_second_slot(void **state)
{
    (void)state;
    const char *src = "vs_2_0\n"
                      "dcl_position v0\n"
                      "dcl_texcoord v1\n"
                      "add oPos, v0, c0\n"
                      "mov oT0, v1\n"
                      "mul oT1, v0, c1\n";
    struct gen_out r = compile(src, 0);
    assert_true(r.ok);
    /* slots 1 (oPos) and 2 (oT0 = v1 in r7-r10): ExDesc 0x106, mlen 5, offset 1 */
    assert_non_null(strstr(r.text, " r7 0x106 0x0A080017\n"));
    assert_int_equal(count(r.text, " send (8|M0)"), 1); /* and the end of the thread */
    assert_int_equal(count(r.text, " sends (8|M0)"), 1);
    out_free(&r);

    const char *json = "{\"constants\": {\"c0\": [1, 2, 3, 4], \"c1\": [0.5, 2, -1, 3]},"
                       " \"invocations\": [{\"v0\": [10, 20, 30, 40], \"v1\": [5, 6, 7, 8]},"
                       " {\"v0\": [-2, 0, 4, 1], \"v1\": [-1, 0.25, 9, 100]}]}";
    struct st_run_outputs o[2];
    gen_run_json(src, json, 8, o, 2);
    const float want[2][3][4] = {{{11, 22, 33, 44}, {5, 6, 7, 8}, {5, 40, -30, 120}},
                                 {{-1, 2, 7, 5}, {-1, 0.25f, 9, 100}, {-1, 0, -4, 3}}};
    for (unsigned k = 0; k < 2; k++)
        for (unsigned j = 0; j < 3; j++)
            assert_memory_equal(o[k].reg[j].v, want[k][j], sizeof(want[k][j]));
}

/* The pass-through is the last slot, alone in the message that would end
 * the thread and so be copied into r112-r127: the two writes trade places.
 * oT1 goes in place from v1's GRFs, and the computed oPos and oT0 end the
 * thread behind the header's copy (mlen 9): no mov but the handles'. */
static void test_vs_pass_through_last(void **state)
{
    (void)state;
    const char *src = "vs_2_0\n"
                      "dcl_position v0\n"
                      "dcl_texcoord v1\n"
                      "add oPos, v0, c0\n"
                      "mul oT0, v0, c1\n"
                      "mov oT1, v1\n";
    struct gen_out r = compile(src, 0);
    assert_true(r.ok);
    /* oT1 is VUE slot 3, v1 r7-r10: ExDesc 0x106, mlen 1, header, offset 3 */
    assert_non_null(strstr(r.text, "sends (8|M0)     null:ud r1 r7 0x106 0x02080037\n"));
    /* slots 1 and 2 end the thread: mlen 9, header, offset 1 */
    assert_non_null(strstr(r.text, " 0x26 0x12080017 {EOT}"));
    assert_int_equal(count(r.text, "mov (8|M0)"), 1);
    assert_int_equal(count(r.text, " send (8|M0)"), 1);
    assert_int_equal(count(r.text, " sends (8|M0)"), 1);
    out_free(&r);

    const char *json = "{\"constants\": {\"c0\": [1, 2, 3, 4], \"c1\": [0.5, 2, -1, 3]},"
                       " \"invocations\": [{\"v0\": [10, 20, 30, 40], \"v1\": [5, 6, 7, 8]},"
                       " {\"v0\": [-2, 0, 4, 1], \"v1\": [-1, 0.25, 9, 100]}]}";
    struct st_run_outputs o[2];
    gen_run_json(src, json, 8, o, 2);
    const float want[2][3][4] = {{{11, 22, 33, 44}, {5, 40, -30, 120}, {5, 6, 7, 8}},
                                 {{-1, 2, 7, 5}, {-1, 0, -4, 3}, {-1, 0.25f, 9, 100}}};
    for (unsigned k = 0; k < 2; k++)
        for (unsigned j = 0; j < 3; j++)
            assert_memory_equal(o[k].reg[j].v, want[k][j], sizeof(want[k][j]));
}

/* A URB write before the end of the thread takes its header as r1 is
 * (a split send: r1, then the slots' registers), so only the end of the
 * thread copies it (into r112..r127, where an EOT message must be).  Four
 * slots: oPos and oT0 in the first message, oT1 and oT2 in the last. */
static void test_vs_urb_header_not_copied(void **state)
{
    (void)state;
    const char *src = "vs_2_0\n"
                      "dcl_position v0\n"
                      "add oPos, v0, c0\n"
                      "mul oT0, v0, c1\n"
                      "add oT1, v0, v0\n"
                      "sub oT2, v0, c0\n";
    struct gen_out r = compile(src, 0);
    assert_true(r.ok);
    /* first message: header r1, 8 GRFs of slots (ExDesc 0x206), slots 1-2 */
    assert_int_equal(count(r.text, " sends (8|M0)     null:ud r1 r"), 1);
    assert_non_null(strstr(r.text, " 0x206 0x02080017\n"));
    assert_int_equal(count(r.text, " r1.0<8;8,1>:ud\n"), 1); /* the EOT message's copy */
    out_free(&r);

    const char *json = "{\"constants\": {\"c0\": [1, 2, 3, 4], \"c1\": [0.5, 2, -1, 3]},"
                       " \"invocations\": [{\"v0\": [10, 20, 30, 40]}, {\"v0\": [-2, 0, 4, 1]}]}";
    struct st_run_outputs o[2];
    gen_run_json(src, json, 8, o, 2);
    /* v0 + c0, v0 * c1, v0 + v0, v0 - c0 */
    const float want[2][4][4] = {
        {{11, 22, 33, 44}, {5, 40, -30, 120}, {20, 40, 60, 80}, {9, 18, 27, 36}},
        {{-1, 2, 7, 5}, {-1, 0, -4, 3}, {-4, 0, 8, 2}, {-3, -2, 1, -3}}};
    for (unsigned k = 0; k < 2; k++)
        for (unsigned j = 0; j < 4; j++)
            assert_memory_equal(o[k].reg[j].v, want[k][j], sizeof(want[k][j]));
}

/*
 * A scalar output fills dword 0 of its VUE slot only: oFog and
 * result.fogcoord are one number (the run JSON has fog's x alone), so the
 * slot's other three dwords are not written, as a driver leaves them.
 * The fog slot still rides in the EOT message (header, position, fog: 9
 * GRFs).  fog = v0.y * c0.x: 20 * 0.5 = 10 and 0 * 0.5 = 0, worked by hand.
 */
static void test_scalar_fog_slot_not_filled(void **state)
{
    (void)state;
    const char *src = "vs_1_1\n"
                      "dcl_position v0\n"
                      "add oPos, v0, c0\n"
                      "mul oFog, v0.y, c0.x\n";
    struct gen_out r = compile(src, 0);
    assert_true(r.ok);
    assert_int_equal(count(r.text, " 0.0:f\n"), 0); /* no zeros into the fog slot */
    assert_non_null(strstr(r.text, " 0x12080017 {EOT}"));
    out_free(&r);
    r = compile("!!ARBvp1.0\n"
                "MOV result.position, vertex.position;\n"
                "MUL result.fogcoord.x, vertex.position.y, 0.5;\n"
                "END\n",
                0);
    assert_true(r.ok);
    assert_int_equal(count(r.text, " 0.0:f\n"), 0);
    out_free(&r);

    const char *json = "{\"constants\": {\"c0\": [0.5, 2, 3, 4]},"
                       " \"invocations\": [{\"v0\": [10, 20, 30, 40]}, {\"v0\": [-2, 0, 4, 1]}]}";
    struct st_run_outputs o[2];
    gen_run_json(src, json, 8, o, 2);
    const float pos[2][4] = {{10.5f, 22, 33, 44}, {-1.5f, 2, 7, 5}}, fog[2] = {10, 0};
    for (unsigned k = 0; k < 2; k++) {
        assert_memory_equal(o[k].reg[0].v, pos[k], sizeof(pos[k]));
        assert_memory_equal(&o[k].reg[1].v[0], &fog[k], sizeof(float));
    }
}

/* A gather's response copied whole into the end-of-thread payload: the
 * untyped read writes the payload registers (r113-r116, slot 1) and the
 * four movs go; the Gen engine gives c[a0.x + 2] per vertex (a0.x =
 * round(v1.x); c3 = (1, 2, 3, 4), c4 = (5, 6, 7, 8), c-1 and c300: 0). */
static void test_vs_response_into_payload(void **state)
{
    (void)state;
    const char *src = "vs_2_0\n"
                      "dcl_position v0\n"
                      "dcl_texcoord v1\n"
                      "mova a0.x, v1.x\n"
                      "mov oPos, c[a0.x + 2]\n"
                      "add oT0, v0, c0\n";
    struct gen_out r = compile(src, 0);
    assert_true(r.ok);
    assert_non_null(strstr(r.text, "send (8|M0)     r113:ud "));
    assert_int_equal(count(r.text, "mov (8|M0)"), 2); /* the handles' copy, mova's conversion */
    out_free(&r);

    const char *json = "{\"constants\": {\"c0\": [1, 1, 1, 1], \"c3\": [1, 2, 3, 4],"
                       " \"c4\": [5, 6, 7, 8]}, \"invocations\": ["
                       "{\"v0\": [0, 0, 0, 0], \"v1\": [1, 0, 0, 0]},"
                       " {\"v0\": [1, 2, 3, 4], \"v1\": [1.6, 0, 0, 0]},"
                       " {\"v0\": [0, 0, 0, 0], \"v1\": [-3, 0, 0, 0]},"
                       " {\"v0\": [0, 0, 0, 0], \"v1\": [298, 0, 0, 0]}]}";
    struct st_run_outputs o[4];
    gen_run_json(src, json, 8, o, 4);
    const float want[4][2][4] = {{{1, 2, 3, 4}, {1, 1, 1, 1}},
                                 {{5, 6, 7, 8}, {2, 3, 4, 5}},
                                 {{0, 0, 0, 0}, {1, 1, 1, 1}},
                                 {{0, 0, 0, 0}, {1, 1, 1, 1}}};
    for (unsigned k = 0; k < 4; k++)
        for (unsigned j = 0; j < 2; j++)
            assert_memory_equal(o[k].reg[j].v, want[k][j], sizeof(want[k][j]));
}

/* vs_3_0: the o# declared dcl_position is VUE slot 1 itself (no zero
 * position beside it in a later slot), for the fixed function to read. */
static void test_vs3_declared_position_in_slot1(void **state)
{
    (void)state;
    struct gen_out r = compile("vs_3_0\n"
                               "dcl_position v0\n"
                               "dcl_texcoord v1\n"
                               "dcl_texcoord0 o0\n"
                               "dcl_position o1\n"
                               "add o1, v0, c0\n"
                               "add o0, v1, c1\n",
                               0);
    assert_true(r.ok);
    /* o1 is out14, o0 out13: position first, then the other outputs in slot order */
    assert_non_null(strstr(r.text, "VUE: slot0=header/-1 slot1=out14 slot2=out13\n"));
    /* both slots in one end-of-thread write: mlen 9 (header + 2 x 4 GRFs), offset 1 */
    assert_non_null(strstr(r.text, " 0x26 0x12080017 {EOT}"));
    assert_int_equal(count(r.text, "0.0:f"), 0); /* no zero slot */
    assert_non_null(strstr(r.stats, " 1 sends"));
    out_free(&r);
}

/* A value saturated once and copied (`add.sat t; mov d, t`, left by a
 * fold) is not clamped again: ARB_fog's clamp of an ADD_SAT result. */
static void test_no_second_saturate_through_copy(void **state)
{
    (void)state;
    struct gen_out r = compile("!!ARBfp1.0\n"
                               "OPTION ARB_fog_linear;\n"
                               "PARAM c = program.env[0];\n"
                               "TEMP t;\n"
                               "MAD_SAT t, fragment.color, c, fragment.texcoord[0];\n"
                               "ADD_SAT t, t, c;\n"
                               "MOV result.color, t;\n"
                               "END\n",
                               0);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "mov (8|M0)     (sat)"), 0);
    out_free(&r);
}

/*
 * ps_1_x's r0 is the colour payload, which the shader reads as it computes
 * the colour: the final mad_sat r0.rgb reads r0.rgb and writes it, element
 * for element, in place (gen/opt_payload.c copies_in_place): no mov into
 * the payload.  v0 = (0.5, 0.75, 0.25, 0.25), v1 = (1, 1, 0.5, 0):
 * r0.rgb = 0.5 * v0 = (0.25, 0.375, 0.125), then v0 * v1 + r0 =
 * (0.75, 1.125 -> 1 saturated, 0.25), alpha v0.a = 0.25.
 */
static void test_ps1_colour_computed_in_payload(void **state)
{
    (void)state;
    const char *src = "ps_1_1\n"
                      "def c0, 0.5, 0.5, 0.5, 1\n"
                      "mul r0.rgb, c0, v0\n"
                      "+ mov r0.a, v0.a\n"
                      "mad_sat r0.rgb, v0, v1, r0\n";
    static const unsigned widths[2] = {8, 16};
    for (unsigned w = 0; w < 2; w++) {
        struct gen_out r = compile(src, widths[w]);
        assert_true(r.ok);
        assert_int_equal(count(r.text, "mov ("), 0);
        assert_int_equal(lanes(r.text, "(sat)r11"), 3 * widths[w]); /* written where it is sent */
        out_free(&r);
    }
    const char *json = "{\"invocations\": [{\"v0\": [0.5, 0.75, 0.25, 0.25], "
                       "\"v1\": [1, 1, 0.5, 0]}]}";
    const float want[4] = {0.75f, 1.0f, 0.25f, 0.25f};
    for (unsigned w = 0; w < 2; w++) {
        struct st_run_outputs o[1];
        gen_run_json(src, json, widths[w], o, 1);
        assert_memory_equal(o[0].reg[0].v, want, sizeof(want));
    }
}

/*
 * The scalar constants of three-source operands are filled four to a mov
 * with a :vf immediate where a restricted 8-bit float gives their bits
 * (gen/opt_consts.c): -0.5, 2, 3 and 0.25 in one `mov (4)`; 40 (exponent
 * 5) and 0.125 (its byte, exponent field 0 and mantissa 0, is the zero)
 * each by a mov of their own.  t0 = (1, 0.5, -2, 8):
 * (2t - 0.5) + (0.125t + 40) + (0.25t + 3) = (1.5, 0.5, -4.5, 15.5) +
 * (40.125, 40.0625, 39.75, 41) + (3.25, 3.125, 2.5, 5), all exact.
 */
static void test_constants_packed_as_vf(void **state)
{
    (void)state;
    const char *src = "ps_2_0\n"
                      "def c0, -0.5, 2, 0.125, 40\n"
                      "def c1, 0.25, 3, 0, 0\n"
                      "dcl t0\n"
                      "mad r0, t0, c0.y, c0.x\n"
                      "mad r1, t0, c0.z, c0.w\n"
                      "mad r2, t0, c1.x, c1.y\n"
                      "add r0, r0, r1\n"
                      "add r0, r0, r2\n"
                      "mov oC0, r0\n";
    struct gen_out r = compile(src, 8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, ":vf"), 1);
    assert_int_equal(count(r.text, "(W)       mov (4|M0)"), 1);
    assert_int_equal(count(r.text, "(W)       mov (1|M0)"), 2);
    /* -0.5 = 0xa0, 2 = 0x40, 3 = 0x48, 0.25 = 0x10, in the order first needed */
    assert_non_null(strstr(r.text, "0x104840A0:vf"));
    out_free(&r);
    const char *json = "{\"invocations\": [{\"t0\": [1, 0.5, -2, 8]}]}";
    const float want[4] = {44.875f, 43.6875f, 37.75f, 61.5f};
    static const unsigned widths[3] = {8, 16, 32};
    for (unsigned w = 0; w < 3; w++) {
        struct st_run_outputs o[1];
        gen_run_json(src, json, widths[w], o, 1);
        assert_memory_equal(o[0].reg[0].v, want, sizeof(want));
    }
}

/*
 * m + x * k with k = -2m is Gen's lrp(x, -m, m) (gen/build.c): the same
 * real number, rounded once, from one constant register read twice, once
 * negated.  A constant and its negation share a register in a mad too.
 * By hand, 2x - 1 (mad t0, c0.y, c0.x with c0 = (-1, 2)) for x = 0.5,
 * 0.75, -0, inf: +0 (0.5 * 1 + 0.5 * -1, an exact zero of two nonzero
 * products), 0.5, -1, inf; and 3x - 3 for x = 1, 2, -0, 0.5: +0, 3, -3,
 * -1.5.
 */
static void test_constant_pair_as_lrp(void **state)
{
    (void)state;
    const char *bx2 = "ps_2_0\ndef c0, -1, 2, 0, 0\ndcl t0\nmad r0, t0, c0.y, c0.x\nmov oC0, r0\n";
    const char *neg = "ps_2_0\ndef c0, 3, -3, 0, 0\ndcl t0\nmad r0, t0, c0.x, c0.y\nmov oC0, r0\n";
    struct gen_out r = compile(bx2, 8);
    assert_true(r.ok);
    assert_int_equal(lanes(r.text, "lrp ("), 32);
    assert_int_equal(count(r.text, "mad ("), 0);
    assert_int_equal(count(r.text, "(W)       mov (1|M0)     r"), 1);
    assert_int_equal(count(r.text, "1.0:f"), 1);
    out_free(&r);
    r = compile(neg, 8);
    assert_true(r.ok);
    assert_int_equal(lanes(r.text, "mad ("), 32);
    assert_int_equal(count(r.text, "(W)       mov (1|M0)     r"), 1);
    out_free(&r);
    static const unsigned widths[3] = {8, 16, 32};
    for (unsigned w = 0; w < 3; w++) {
        struct st_run_outputs o[1];
        gen_run_json(bx2, "{\"invocations\": [{\"t0\": [0.5, 0.75, -0.0, \"inf\"]}]}", widths[w], o,
                     1);
        const float want[4] = {0.0f, 0.5f, -1.0f, INFINITY};
        assert_memory_equal(o[0].reg[0].v, want, sizeof(want));
        gen_run_json(neg, "{\"invocations\": [{\"t0\": [1, 2, -0.0, 0.5]}]}", widths[w], o, 1);
        const float want3[4] = {0.0f, 3.0f, -3.0f, -1.5f};
        assert_memory_equal(o[0].reg[0].v, want3, sizeof(want3));
    }
}

/* A multiply-add by 1.0 is an add (x * 1.0 is x exactly): no mad and no
 * register for the 1.0; a signed zero and a denormal come out as the
 * interpreter gives them (-0 + -0 = -0, 1e-40 + 0 = 1e-40). */
static void test_mad_by_one_is_add(void **state)
{
    (void)state;
    const char *src = "vs_2_0\n"
                      "def c0, 1, 1, 1, 1\n"
                      "dcl_position v0\n"
                      "dcl_texcoord v1\n"
                      "mov r0, v1\n"
                      "mad oPos, v0, c0, r0\n"
                      "mad oT0, c0.x, r0, v0\n";
    struct gen_out r = compile(src, 0);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "mad ("), 0);
    /* eight adds, two by two as (W) add (16) into consecutive GRFs (gen/opt_pair.c) */
    assert_int_equal(count(r.text, "add (8|M0)") + 2 * count(r.text, "add (16|M0)"), 8);
    out_free(&r);

    const char *json = "{\"invocations\": [{\"v0\": [-0.0, 1e-40, 3, 5], "
                       "\"v1\": [-0.0, 0, 0.25, -5]}]}";
    struct st_run_outputs o[1];
    gen_run_json(src, json, 8, o, 1);
    const float want[4] = {-0.0f, 1e-40f, 3.25f, 0};
    for (unsigned j = 0; j < 2; j++)
        assert_memory_equal(o[0].reg[j].v, want, sizeof(want));
}

/*
 * sgn r4, v1.w writes four lanes from one source lane: the sign is worked
 * out once and shared by the four lanes.  It is two compares into masks
 * (-1 where x < 0, -1 where x > 0) and one add of the first minus the
 * second, whose integer -1, 0 or 1 the float destination converts: no
 * flag read, no sel, no constant register.
 * sgn(-3) = -1, sgn(0) = 0, sgn(2.5) = 1, sgn(-1e-40) = -1 (a denormal
 * is below 0), and -0 and NaN give +0 (docs/interpreter.md): every bit is
 * compared.
 */
static void test_replicated_lanes_computed_once(void **state)
{
    (void)state;
    const char *src = "vs_2_0\n"
                      "dcl_position v0\n"
                      "dcl_texcoord v1\n"
                      "mov r5, v0\n"
                      "mov r6, v0\n"
                      "sgn r4, v1.w, r5, r6\n"
                      "mov oPos, v0\n"
                      "mov oT0, r4\n";
    struct gen_out r = compile(src, 0);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "cmp ("), 2);
    assert_int_equal(count(r.text, "add ("), 1);
    assert_int_equal(count(r.text, ":d -r"), 1);
    assert_int_equal(count(r.text, "and ("), 0);
    assert_int_equal(count(r.text, "sel ("), 0);
    assert_int_equal(count(r.text, "(f0.0)"), 0);
    out_free(&r);

    const char *json = "{\"invocations\": [{\"v0\": [1, 2, 3, 4], \"v1\": [5, 6, 7, -3]}, "
                       "{\"v0\": [1, 2, 3, 4], \"v1\": [5, 6, 7, 0]}, "
                       "{\"v0\": [1, 2, 3, 4], \"v1\": [5, 6, 7, 2.5]}, "
                       "{\"v0\": [1, 2, 3, 4], \"v1\": [5, 6, 7, -1e-40]}, "
                       "{\"v0\": [1, 2, 3, 4], \"v1\": [5, 6, 7, -0.0]}, "
                       "{\"v0\": [1, 2, 3, 4], \"v1\": [5, 6, 7, \"nan\"]}]}";
    struct st_run_outputs o[6];
    gen_run_json(src, json, 8, o, 6);
    const float sg[6] = {-1, 0, 1, -1, 0, 0};
    for (unsigned i = 0; i < 6; i++) {
        const float want[4] = {sg[i], sg[i], sg[i], sg[i]};
        assert_memory_equal(o[i].reg[1].v, want, sizeof(want));
    }
}

static void test_modifiers_and_math(void **state)
{
    (void)state;
    struct gen_out r = compile("ps_3_0\n"
                               "dcl_texcoord0 v0\n"
                               "rsq r0.x, v0.x\n"
                               "add_sat r1, -v0, r0.x\n"
                               "rcp r1.w, v0_abs.w\n"
                               "max r1.z, r1.z, v0.y\n"
                               "mov oC0, r1\n",
                               8);
    assert_true(r.ok);
    /* rsq: 1 / sqrt(|x|) is math.rsqt of (abs)x (+inf for 0, 1 for 1) */
    assert_non_null(strstr(r.text, "math.rsqt"));
    assert_non_null(strstr(r.text, "math.inv"));
    assert_non_null(strstr(r.text, "(sat)"));
    assert_non_null(strstr(r.text, "(abs)"));
    assert_non_null(strstr(r.text, " -r"));
    /* max = (a >= b) ? a : b: a compare and a predicated sel, because
     * sel.ge returns the non-NaN operand where the spec returns b */
    assert_non_null(strstr(r.text, "cmp (8|M0)     (ge)f0.0"));
    assert_non_null(strstr(r.text, "(f0.0)    sel (8|M0)"));
    /* -0 + 0 = +0 before the clamp: _sat gives +0 for -0 */
    assert_non_null(strstr(r.text, "add (8|M0)     (sat)"));
    out_free(&r);
}

static void test_control_flow(void **state)
{
    (void)state;
    struct gen_out r = compile("ps_3_0\n"
                               "dcl_texcoord0 v0\n"
                               "dcl_2d s0\n"
                               "defi i0, 3, 0, 1, 0\n"
                               "def c0, 0.5, 1, 0, 0\n"
                               "mov r0, c0.z\n"
                               "if_gt v0.x, c0.x\n"
                               "  texld r0, v0, s0\n"
                               "else\n"
                               "  texld r0, v0.yxzw, s0\n"
                               "endif\n"
                               "rep i0\n"
                               "  add r0, r0, v0\n"
                               "  break_gt r0.x, c0.y\n"
                               "endrep\n"
                               "mov oC0, r0\n",
                               16);
    assert_true(r.ok);
    assert_non_null(strstr(r.text, "if (16|M0)"));
    assert_non_null(strstr(r.text, "else (16|M0)"));
    assert_non_null(strstr(r.text, "endif (16|M0)"));
    assert_non_null(strstr(r.text, "while (16|M0)"));
    assert_true(count(r.text, "break (16|M0)") >= 2); /* loop count test and break_gt */
    assert_non_null(strstr(r.stats, " 1 loops."));
    out_free(&r);
}

static void test_texkill_predicates_write(void **state)
{
    (void)state;
    struct gen_out r = compile("ps_2_0\n"
                               "dcl t0\n"
                               "texkill t0\n"
                               "mov oC0, t0\n",
                               8);
    assert_true(r.ok);
    /* live pixels (status bit 0 clear) in f1.0, the EOT write predicated on it */
    assert_non_null(strstr(r.text, "(eq)f1.0"));
    char buf[256];
    const char *l = line_with(r.text, "{EOT}", buf, sizeof(buf));
    assert_non_null(strstr(l, "(f1.0)"));
    assert_non_null(strstr(l, "sendc"));
    out_free(&r);
}

static void test_odepth_and_two_targets(void **state)
{
    (void)state;
    struct gen_out r = compile("ps_2_0\n"
                               "dcl t0\n"
                               "mov oC0, t0\n"
                               "mov oC1, t0.yzxw\n"
                               "mov oDepth, t0.z\n",
                               16);
    assert_true(r.ok);
    /* RT 0: mlen 10 (RGBA + depth, SIMD16), not last: 0x14030000; RT 1: last, BTI 1, EOT */
    assert_non_null(strstr(r.text, " 0x5 0x14030000"));
    assert_non_null(strstr(r.text, " 0x25 0x14031001 {EOT}"));
    out_free(&r);
}

static void test_relative_constant_is_untyped_read(void **state)
{
    (void)state;
    const char *src = "vs_2_0\n"
                      "dcl_position v0\n"
                      "dcl_blendindices v1\n"
                      "mova a0.x, v1.x\n"
                      "mov oPos, c[a0.x + 4]\n";
    struct gen_out r = compile(src, 0);
    assert_true(r.ok);
    /* an index per vertex into the constants the layout pulls: untyped
     * surface read SIMD8, 4 channels, constant buffer BTI 8: mlen 1 rlen 4,
     * type 1, SIMD8 mode 2 = 0x02406008; the byte address is 16 * (the
     * vector number plus the 8 leading zero vectors), the rounded index
     * scaled in float so that its conversion saturates instead of a clamp
     * (gen/opt_fold.c) */
    assert_non_null(strstr(r.text, " 0xC 0x02406008"));
    assert_non_null(strstr(r.text, " 16.0:f"));
    assert_non_null(strstr(r.text, " 192:d"));
    assert_int_equal(count(r.text, "sel ("), 0);
    assert_int_equal(count(r.text, "shl ("), 0);
    out_free(&r);

    /* c[a0.x + 4]: c0 = (1, 2, 3, 4), c255 = (5, 6, 7, 8); every other vector
     * reads 0: before c0 (down to the pad and past it), past c255, and far
     * off where a shift by 4 of the index would wrap (2^28 + 1 - 4 would read
     * c1 if it wrapped; 2^27 - 16, an address just below 2^31) */
    struct st_ctx *ctx = st_ctx_create("t.asm", src, strlen(src), 50);
    struct st_arena *a = st_arena_create();
    struct st_shader *sh = st_parse_d3d9(ctx, a);
    assert_true(sh && st_check(ctx, sh));
    const char *xs[8] = {"-4", "251", "-5", "-12", "-13", "252", "268435453", "134217712"};
    const int hit[8] = {0, 255, -1, -1, -1, -1, -1, -1};
    const char *far[2] = {"3e9", "-3e9"};
    char json[1024];
    for (unsigned run = 0; run < 2; run++) {
        int n = snprintf(json, sizeof(json), "{\"constants\": {\"c0\": [1, 2, 3, 4], "
                                              "\"c1\": [9, 9, 9, 9], \"c255\": [5, 6, 7, 8]}, "
                                              "\"invocations\": [");
        for (unsigned i = 0; i < 8; i++)
            n += snprintf(json + n, sizeof(json) - (size_t)n, "%s{\"v1\": [%s, 0, 0, 0]}",
                          i ? ", " : "", run && i >= 6 ? far[i - 6] : xs[i]);
        snprintf(json + n, sizeof(json) - (size_t)n, "]}");
        struct st_run_inputs in;
        assert_true(st_run_inputs_parse(ctx, sh, "in", json, strlen(json), a, &in));
        struct st_run_outputs o[8];
        assert_true(test_gen_execute(ctx, sh, 8, &in, ST_FLOAT_IEEE, o, NULL));
        for (unsigned i = 0; i < 8; i++) {
            const float c0[4] = {1, 2, 3, 4}, c255[4] = {5, 6, 7, 8}, zero[4] = {0, 0, 0, 0};
            const float *want = hit[i] == 0 ? c0 : hit[i] == 255 ? c255 : zero;
            assert_memory_equal(o[i].reg[0].v, want, sizeof(c0));
        }
    }
    st_arena_destroy(a);
    st_ctx_destroy(ctx);
}

static void test_derivatives_use_subspan_regions(void **state)
{
    (void)state;
    struct gen_out r = compile("ps_3_0\n"
                               "dcl_texcoord0 v0\n"
                               "dsx r0.x, v0.x\n"
                               "dsy r0.y, v0.y\n"
                               "mov r0.zw, v0\n"
                               "mov oC0, r0\n",
                               8);
    assert_true(r.ok);
    /* dsx: right - left in each row: <2;2,0> from element 1 and element 0 */
    assert_int_equal(count(r.text, "<2;2,0>:f"), 2);
    assert_non_null(strstr(r.text, "add (8|M0)"));
    /* dsy: bottom - top of each subspan's columns, packed (<4;2,1> from
     * element 2 and element 0), for every channel; then each packed pair
     * twice as qwords (<1;2,0>), ANDed with the mask: two instructions at
     * SIMD8 and SIMD16 (one SIMD4 add per subspan before) */
    assert_non_null(strstr(r.text, "(W)       add (4|M0)"));
    assert_int_equal(count(r.text, "<4;2,1>:f"), 2);
    assert_int_equal(count(r.text, "<1;2,0>:uq"), 1);
    assert_int_equal(count(r.text, "<0;2,1>:f"), 0);
    out_free(&r);
}

/*
 * The derivatives' "both pixels run here" masks depend only on which
 * channels run, so one straight stretch of code makes them once: the
 * channels that run (a (W) mov of 0, then a mov of all ones) once for dsx
 * and dsy, each direction's pair mask once for all its derivatives.  A
 * derivative inside an if (other channels may run there) makes its own.
 * (Before: one set per derivative instruction, 4 movs of all ones here.)
 */
static void test_derivative_masks_shared(void **state)
{
    (void)state;
    struct gen_out r = compile("ps_2_x\n"
                               "dcl t0.xy\n"
                               "dsx r0, t0\n"
                               "dsy r1, t0\n"
                               "add r0, r0, r1\n"
                               "dsx r2, t0.yx\n"
                               "add r0, r0, r2\n"
                               "if_gt t0.x, c0.x\n"
                               "dsx r3, t0\n"
                               "add r0, r0, r3\n"
                               "endif\n"
                               "mov oC0, r0\n",
                               8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "0xFFFFFFFF:ud"), 2); /* top level, then the if */
    /* the pair masks: dsx <2;2,0> once at the top and once in the if; dsy
     * once, one NoMask `and` of qwords (pixel pairs) at any width up to 16 */
    assert_int_equal(count(r.text, "<2;2,0>:ud"), 4);
    assert_int_equal(count(r.text, "<2;2,0>:uq"), 2);
    assert_int_equal(count(r.text, "(W)       and (4|M0)     r"), 5); /* the mask, 4 dsy */
    assert_int_equal(count(r.text, "<2;2,0>:uq"), 2);
    assert_int_equal(count(r.text, "<0;2,1>:ud"), 0);
    out_free(&r);
}

/*
 * The dsy mask made on qwords and dsy itself (gen/isel_ops.c: bottom -
 * top packed, then each pair twice as qwords, ANDed with the mask) keep
 * the two columns of a subspan apart.  t0 lies on a plane in each subspan
 * (the Gen engine rasterises quads).  Complete subspans: x = 1 + 2 px +
 * 5 py, y = 2 px - py: (dsy.xy, dsx.xy) = (5, -1, 2, 2); x = 20 + px +
 * 3 py, y = 2 py - px: (3, 2, 1, -1); x = 30 + 2 px - py, y = 5 + 4 py:
 * (-1, 4, 2, 0) (at SIMD16 the second GRF).  The last subspan has pixels
 * 0, 1, 2 only (x = 10, 13, 17; y = 4, 4, 5): pixel 0 has both
 * neighbours, dsy (7, 1) and dsx (3, 0); pixel 1 lacks the one below (dsy
 * +0) and pixel 2 the one to its right (dsx +0).  At every width.
 */
/* dsy.xy and dsx.xy of t0 (the n invocations' t0.xy), run at every width,
 * against want[k] = (dsy.x, dsy.y, dsx.x, dsx.y). */
static void check_derivatives(const float (*t0)[2], const float (*want)[4], unsigned n)
{
    const char *src = "ps_2_x\n"
                      "dcl t0.xy\n"
                      "dsy r0.xy, t0\n"
                      "dsx r1.xy, t0\n"
                      "mov r0.zw, r1.xxxy\n"
                      "mov oC0, r0\n";
    struct st_ctx *ctx = st_ctx_create("t.asm", src, strlen(src), 50);
    struct st_arena *a = st_arena_create();
    struct st_shader *sh = st_parse_d3d9(ctx, a);
    assert_true(sh && st_check(ctx, sh));
    char json[2048];
    size_t len = (size_t)snprintf(json, sizeof(json), "{\"invocations\": [");
    for (unsigned k = 0; k < n; k++)
        len += (size_t)snprintf(json + len, sizeof(json) - len, "%s{\"t0\": [%g, %g, 0, 0]}",
                                k ? ", " : "", (double)t0[k][0], (double)t0[k][1]);
    snprintf(json + len, sizeof(json) - len, "]}");
    struct st_run_inputs in;
    assert_true(st_run_inputs_parse(ctx, sh, "in", json, strlen(json), a, &in));
    static const unsigned widths[3] = {8, 16, 32};
    for (unsigned w = 0; w < 3; w++) {
        struct st_run_outputs o[32];
        assert_true(n <= 32);
        assert_true(test_gen_execute(ctx, sh, widths[w], &in, ST_FLOAT_IEEE, o, NULL));
        for (unsigned k = 0; k < n; k++)
            assert_memory_equal(o[k].reg[0].v, want[k], sizeof(want[k]));
    }
    st_arena_destroy(a);
    st_ctx_destroy(ctx);
}

static void test_dsy_mask_per_column(void **state)
{
    (void)state;
    static const float t0[15][2] = {{1, 0},  {3, 2},   {6, -1}, {8, 1},  {20, 0},
                                    {21, -1}, {23, 2}, {24, 1}, {30, 5}, {32, 5},
                                    {29, 9},  {31, 9}, {10, 4}, {13, 4}, {17, 5}};
    static const float want[15][4] = {{5, -1, 2, 2},  {5, -1, 2, 2},  {5, -1, 2, 2},  {5, -1, 2, 2},
                                      {3, 2, 1, -1},  {3, 2, 1, -1},  {3, 2, 1, -1},  {3, 2, 1, -1},
                                      {-1, 4, 2, 0},  {-1, 4, 2, 0},  {-1, 4, 2, 0},  {-1, 4, 2, 0},
                                      {7, 1, 3, 0},   {0, 0, 3, 0},   {7, 1, 0, 0}};
    check_derivatives(t0, want, 15);
}

/*
 * dsy at SIMD32 runs once per 16-channel half (the packed columns, then
 * the qword mask): 23 invocations on one plane per component run as one
 * thread (docs/gen-abi.md: quad q at pixel (2 (q mod 8), 0), pixel k at
 * (k & 1, k >> 1) in it), t0 = (1 + 2 px + 3 py, 5 - px + 4 py): dsy
 * (3, 4) and dsx (2, -1) everywhere but in the last subspan, pixels 20-22
 * (the second half at SIMD32): 21 lacks the pixel below (dsy +0), 22 the
 * one to its right (dsx +0).  The second half's mask is its own: the
 * first half's, all ones, would give 21 a dsy of (3, 4).
 */
static void test_dsy_second_half(void **state)
{
    (void)state;
    float t0[23][2], want[23][4];
    for (unsigned i = 0; i < 23; i++) {
        unsigned q = i / 4, k = i % 4, px = 2 * (q % 8) + (k & 1), py = k >> 1;
        t0[i][0] = 1.0f + 2.0f * (float)px + 3.0f * (float)py;
        t0[i][1] = 5.0f - (float)px + 4.0f * (float)py;
        bool below = i != 21, right = i != 22;
        want[i][0] = below ? 3.0f : 0.0f;
        want[i][1] = below ? 4.0f : 0.0f;
        want[i][2] = right ? 2.0f : 0.0f;
        want[i][3] = right ? -1.0f : 0.0f;
    }
    check_derivatives((const float (*)[2])t0, (const float (*)[4])want, 23);
    /* the SIMD32 kernel: per half a packed add (<4;2,1>) and a qword and
     * (<1;2,0>) for each of dsy.x and dsy.y; no SIMD4 add per subspan */
    struct gen_out r = compile("ps_2_x\n"
                               "dcl t0.xy\n"
                               "dsy r0.xy, t0\n"
                               "mov oC0, r0\n",
                               32);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "<4;2,1>:f"), 8);
    assert_int_equal(count(r.text, "<1;2,0>:uq"), 4);
    assert_int_equal(count(r.text, "<0;2,1>:f"), 0);
    out_free(&r);
}

static void test_ret_in_loop_is_refused(void **state)
{
    (void)state;
    /* ret inside a loop leaves it through a second exit, which the merge
     * stage does not put in the MIR yet: a located "not supported"
     * (ST3001), never a wrong kernel.  When the MIR has it, this test goes
     * back to requiring the kernel (a while and a break). */
    struct gen_out r = compile("ps_3_0\n"
                               "dcl_texcoord0 v0\n"
                               "defi i0, 3, 0, 1, 0\n"
                               "mov r0, v0\n"
                               "rep i0\n"
                               "  add r0, r0, v0\n"
                               "  if_gt r0.x, v0.y\n"
                               "    mov oC0, r0\n"
                               "    ret\n"
                               "  endif\n"
                               "endrep\n"
                               "mov oC0, r0.yxzw\n",
                               8);
    assert_false(r.ok);
    assert_int_equal(r.code, 3001);
    assert_int_equal(r.line, 1);
    out_free(&r);
}

/*
 * More constants than the push budget (c0 and c255 span 128 GRFs): the
 * window with the most vectors read is pushed (a tie keeps the lowest, c0)
 * and c255 is pulled from the constant buffer with an untyped read at its
 * byte address (8 + 255) * 16 (after the buffer's 8 leading zero vectors);
 * the values are those of the inputs.
 */
static void test_far_constants_are_pulled(void **state)
{
    (void)state;
    const char *src = "vs_2_0\n"
                      "dcl_position v0\n"
                      "add r0, v0, c0\n"
                      "add oPos, r0, c255\n";
    struct gen_out r = compile(src, 0);
    assert_true(r.ok);
    assert_non_null(strstr(r.text, "c0-c0 at r2"));
    assert_non_null(strstr(r.text, "4208:d"));       /* the address of c255: (8 + 255) * 16 */
    assert_non_null(strstr(r.text, " 0xC 0x02406008")); /* untyped read, 4 channels, BTI 8 */
    out_free(&r);

    const char *json = "{\"constants\": {\"c0\": [1, 2, 3, 4], \"c255\": [0.5, 0.25, -8, 16]},"
                       " \"invocations\": [{\"v0\": [10, 20, 30, 40]}, {\"v0\": [0, 0, 0, 0]}]}";
    struct st_run_outputs o[2];
    gen_run_json(src, json, 8, o, 2);
    const float want[2][4] = {{11.5f, 22.25f, 25, 60}, {1.5f, 2.25f, -5, 20}};
    for (unsigned k = 0; k < 2; k++)
        assert_memory_equal(o[k].reg[0].v, want[k], sizeof(want[k]));
}

static void test_vpos_vface(void **state)
{
    (void)state;
    struct gen_out r = compile("ps_3_0\n"
                               "dcl vPos.xy\n"
                               "dcl vFace\n"
                               "def c0, 0, 1, 0, 0\n"
                               "mov r0.xy, vPos\n"
                               "mov r0.zw, c0.x\n"
                               "if_lt vFace, c0.x\n"
                               "  mov r0.z, c0.y\n"
                               "endif\n"
                               "mov oC0, r0\n",
                               16);
    assert_true(r.ok);
    /* pixel X, Y from the subspan corners in r1 (words 4, 5) plus (0,1,0,1) / (0,0,1,1) */
    assert_non_null(strstr(r.text, "r1.4<2;4,0>:uw 0x10101010:v"));
    assert_non_null(strstr(r.text, "r1.5<2;4,0>:uw 0x11001100:v"));
    /* facing: r0.0 bit 15 */
    assert_non_null(strstr(r.text, "r0.0<0;1,0>:ud 0x8000:ud"));
    out_free(&r);
}

/* Runs an ARB fragment program through the Gen engine; false with the first diagnostic in msg. */
static bool gen_run_arb(const char *src, const char *json, unsigned simd, struct st_run_outputs *o,
                        struct st_gen_run_stats *stats, char *msg, size_t msglen)
{
    struct st_ctx *ctx = st_ctx_create("p.fp", src, strlen(src), 50);
    struct st_arena *a = st_arena_create();
    struct st_shader *sh = st_parse_arb(ctx, a);
    assert_true(sh && st_check_arb(ctx, sh));
    struct st_run_inputs in;
    assert_true(st_run_inputs_parse(ctx, sh, "in", json, strlen(json), a, &in));
    bool ok = test_gen_execute(ctx, sh, simd, &in, ST_FLOAT_IEEE, o, stats);
    msg[0] = 0;
    if (!ok) {
        struct st_result res;
        memset(&res, 0, sizeof(res));
        st_ctx_export(ctx, &res);
        if (res.num_diagnostics)
            snprintf(msg, msglen, "%u %s", res.diagnostics[0].code, res.diagnostics[0].message);
        for (size_t k = 0; k < res.num_diagnostics; k++) {
            free((char *)res.diagnostics[k].message);
            free((char *)res.diagnostics[k].source_line);
        }
        if (res.num_diagnostics)
            free((char *)res.diagnostics[0].file);
        free((void *)res.diagnostics);
    }
    st_arena_destroy(a);
    st_ctx_destroy(ctx);
    return ok;
}

/*
 * LIT of a MAX: the clamps of lit keep a NaN, so they are a compare and a
 * select, but the value MAX made is never NaN, so each is one min/max
 * (gen/opt_fold.c fold_sel_cmod), which then merge with MAX's.  By hand, c = max(tc, -0.5), then
 * (1, c.x < 0 ? 0 : c.x, c.x > 0 ? y^w : 0, 1) with y = c.y < 0 ? 0 : c.y
 * and w clamped to +-(128 - 2^-17):
 *   tc = (-0, 0.5, 0, 200): c.x = -0 is not below 0, kept: (1, -0, 0, 1);
 *   tc = (2, 0.25, 0, 0.5): 0.25^0.5 = 0.5: (1, 2, 0.5, 1);
 *   tc = (-3, -2, 0, -200): c = -0.5 everywhere: (1, 0, 0, 1).
 */
static void test_arb_lit_of_max_clamps_are_min_max(void **state)
{
    (void)state;
    const char *fp = "!!ARBfp1.0\n"
                     "TEMP c, b;\n"
                     "MAX c, fragment.texcoord[0], {-0.5, -0.5, -0.5, -0.5};\n"
                     "LIT b, c;\n"
                     "MOV result.color, b;\n"
                     "END\n";
    struct gen_out r = compile(fp, 8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "cmp ("), 1); /* only x > 0 for z */
    /* max(max(x, -0.5), 0) is max(x, 0) (x, y); max(max(w, -0.5), -128) is
     * max(w, -0.5) (gen/opt_fold.c fold_minmax_chain): one -0.5 left, no -128 */
    assert_int_equal(count(r.text, "-0.5:f"), 1);
    assert_int_equal(count(r.text, "-127.99"), 0);
    assert_int_equal(count(r.text, "sel ("), 5);
    out_free(&r);
    const char *json = "{\"invocations\": ["
                       "{\"fragment.texcoord[0]\": [-0.0, 0.5, 0, 200]},"
                       "{\"fragment.texcoord[0]\": [2, 0.25, 0, 0.5]},"
                       "{\"fragment.texcoord[0]\": [-3, -2, 0, -200]}]}";
    const float want[3][4] = {{1, -0.0f, 0, 1}, {1, 2, 0.5f, 1}, {1, 0, 0, 1}};
    static const unsigned widths[2] = {8, 16};
    for (unsigned w = 0; w < 2; w++) {
        struct st_run_outputs o[3];
        char msg[256];
        assert_true(gen_run_arb(fp, json, widths[w], o, NULL, msg, sizeof(msg)));
        for (unsigned k = 0; k < 3; k++)
            assert_memory_equal(o[k].reg[0].v, want[k], sizeof(want[k]));
    }
}

/*
 * MIN of two SGE/SLT results: each is a compare mask ANDed with the bits
 * of 1.0, never NaN, so the min is one sel.l (gen/opt_fold.c: a compare
 * of two values never NaN is what sel.cmod computes), no compare and
 * predicated sel.  By hand, min(x >= 0, y < 0): (1, -1) -> 1, (1, 2) -> 0,
 * (-1, -1) -> 0, (-0, -3) -> 1 (-0 >= 0).
 */
static void test_arb_min_of_set_results_is_one_sel(void **state)
{
    (void)state;
    const char *fp = "!!ARBfp1.0\n"
                     "TEMP b;\n"
                     "SGE b.x, fragment.texcoord[0].x, 0;\n"
                     "SLT b.y, fragment.texcoord[0].y, 0;\n"
                     "MIN result.color, b.x, b.y;\n"
                     "END\n";
    struct gen_out r = compile(fp, 8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "cmp ("), 2); /* the two masks */
    assert_int_equal(count(r.text, "sel ("), 1);
    assert_int_equal(count(r.text, "(f0.0)"), 0);
    out_free(&r);
    const char *json = "{\"invocations\": ["
                       "{\"fragment.texcoord[0]\": [1, -1, 0, 0]},"
                       "{\"fragment.texcoord[0]\": [1, 2, 0, 0]},"
                       "{\"fragment.texcoord[0]\": [-1, -1, 0, 0]},"
                       "{\"fragment.texcoord[0]\": [-0.0, -3, 0, 0]}]}";
    const float want[4] = {1, 0, 0, 1};
    static const unsigned widths[2] = {8, 16};
    for (unsigned w = 0; w < 2; w++) {
        struct st_run_outputs o[4];
        char msg[256];
        assert_true(gen_run_arb(fp, json, widths[w], o, NULL, msg, sizeof(msg)));
        for (unsigned k = 0; k < 4; k++)
            for (unsigned c = 0; c < 4; c++)
                assert_true(o[k].reg[0].v[c] == want[k]);
    }
}

/*
 * ARB fragment.position (docs/gen-abi.md "ARB programs"): x, y from the
 * pixel positions (lower-left origin: window height pushed), z = source
 * depth, w = 1 / source W.  A rasterised quad runs as one thread; a
 * position that is no pixel centre is refused by the engine.
 */
static void test_arb_fragment_position(void **state)
{
    (void)state;
    const char *fp = "!!ARBfp1.0\nMOV result.color, fragment.position;\nEND\n";
    struct gen_out r = compile(fp, 16);
    assert_true(r.ok);
    assert_non_null(strstr(r.text, "source depth r6-r7, source W r8-r9"));
    assert_non_null(strstr(r.text, "window height at r10.0"));
    assert_non_null(strstr(r.text, "math.inv"));
    out_free(&r);
    /* only x read: no depth/W payload, no window height */
    r = compile("!!ARBfp1.0\nMOV result.color, fragment.position.x;\nEND\n", 8);
    assert_true(r.ok);
    assert_null(strstr(r.text, "source depth"));
    assert_null(strstr(r.text, "window height"));
    out_free(&r);

    /* a quad (lower-left origin: the top row has the larger y) and a lone pixel */
    const char *json = "{\"invocations\": ["
                       "{\"fragment.position\": [2.5, 7.5, 0.25, 0.5]},"
                       "{\"fragment.position\": [3.5, 7.5, 0.5, 0.5]},"
                       "{\"fragment.position\": [2.5, 6.5, 0.75, 4]},"
                       "{\"fragment.position\": [3.5, 6.5, 1, 0.125]},"
                       "{\"fragment.position\": [0.5, 0.5, -0.0, 1]}]}";
    const float want[5][4] = {{2.5f, 7.5f, 0.25f, 0.5f}, {3.5f, 7.5f, 0.5f, 0.5f}, {2.5f, 6.5f, 0.75f, 4},
                              {3.5f, 6.5f, 1, 0.125f}, {0.5f, 0.5f, -0.0f, 1}};
    for (unsigned simd = 8; simd <= 32; simd *= 2) {
        struct st_run_outputs o[5];
        struct st_gen_run_stats stats;
        char msg[256];
        assert_true(gen_run_arb(fp, json, simd, o, &stats, msg, sizeof(msg)));
        assert_int_equal(stats.packed_pixels, 5);
        assert_int_equal(stats.threads, 1);
        for (unsigned k = 0; k < 5; k++)
            assert_memory_equal(o[k].reg[0].v, want[k], sizeof(want[k]));
    }
    /* x = 2.25 is no pixel centre: the engine refuses, naming the invocation */
    struct st_run_outputs o[2];
    char msg[256];
    assert_false(gen_run_arb(fp, "{\"invocations\": [{\"fragment.position\": [1.5, 0.5, 0, 1]},"
                                 "{\"fragment.position\": [2.25, 0.5, 0, 1]}]}",
                             8, o, NULL, msg, sizeof(msg)));
    assert_non_null(strstr(msg, "3001 Gen engine: invocation 1: fragment.position is not a pixel's"));
}

/*
 * ARB_draw_buffers: all eight render targets (MAX_DRAW_BUFFERS = 8) are
 * written, render target n to binding table index n (gen9-target.md
 * section 4(a); docs/gen-abi.md), each with its own colour.  The program
 * writes them out of order so a target that is dropped, or written with
 * another's colour, shows.  Expected values by hand for
 * fragment.color = (0.5, 0.25, -1, 2), k = (1, 2, 3, 4).
 */
static void test_arb_eight_render_targets(void **state)
{
    (void)state;
    const char *fp = "!!ARBfp1.0\n"
                     "OPTION ARB_draw_buffers;\n"
                     "PARAM k = {1, 2, 3, 4};\n"
                     "MAD result.color[7], fragment.color, k, k;\n"
                     "MOV result.color[4], k.wzyx;\n"
                     "ADD result.color[1], fragment.color, k;\n"
                     "MOV result.color[6], fragment.color.wzyx;\n"
                     "MUL result.color[2], fragment.color, k;\n"
                     "MAX result.color[5], fragment.color, k.y;\n"
                     "SUB result.color[3], fragment.color, k;\n"
                     "MOV result.color[0], fragment.color;\n"
                     "END\n";
    /* SIMD16 render target write: mlen 8, type 12 (bits 18:14), subtype 0, BTI n:
     * (8<<25) | (12<<14) | n = 0x1003000n; the last adds bit 12 and EOT (ExDesc 0x25) */
    struct gen_out r = compile(fp, 16);
    assert_true(r.ok);
    assert_non_null(strstr(r.text, "BTI0=out"));
    assert_non_null(strstr(r.text, "BTI7=out"));
    char want_desc[32];
    for (unsigned n = 0; n < 7; n++) {
        snprintf(want_desc, sizeof(want_desc), " 0x5 0x1003000%u\n", n);
        assert_int_equal(count(r.text, want_desc), 1);
    }
    assert_int_equal(count(r.text, " 0x25 0x10031007 {EOT}"), 1);
    assert_int_equal(count(r.text, "sendc"), 8);
    out_free(&r);
    /* SIMD8: mlen 4, subtype 4: (4<<25) | (12<<14) | (4<<8) | n = 0x0803040n */
    r = compile(fp, 8);
    assert_true(r.ok);
    for (unsigned n = 0; n < 7; n++) {
        snprintf(want_desc, sizeof(want_desc), " 0x5 0x0803040%u\n", n);
        assert_int_equal(count(r.text, want_desc), 1);
    }
    assert_int_equal(count(r.text, " 0x25 0x08031407 {EOT}"), 1);
    out_free(&r);

    /* In the engine: 16 pixels with one colour (a constant plane) run as one
     * full thread at every width; outputs in the JSON order color, color[1..7]. */
    char json[4096];
    size_t len = (size_t)snprintf(json, sizeof(json), "{\"invocations\": [");
    for (unsigned i = 0; i < 16; i++)
        len += (size_t)snprintf(json + len, sizeof(json) - len, "%s{\"fragment.color\": [0.5, 0.25, -1, 2]}",
                                i ? "," : "");
    snprintf(json + len, sizeof(json) - len, "]}");
    const float want[8][4] = {
        {0.5f, 0.25f, -1, 2},    /* MOV color */
        {1.5f, 2.25f, 2, 6},     /* ADD color + k */
        {0.5f, 0.5f, -3, 8},     /* MUL color * k */
        {-0.5f, -1.75f, -4, -2}, /* SUB color - k */
        {4, 3, 2, 1},            /* MOV k.wzyx */
        {2, 2, 2, 2},            /* MAX color, 2 */
        {2, -1, 0.25f, 0.5f},    /* MOV color.wzyx */
        {1.5f, 2.5f, 0, 12},     /* MAD color * k + k */
    };
    for (unsigned simd = 8; simd <= 32; simd *= 2) {
        struct st_run_outputs o[16];
        struct st_gen_run_stats stats;
        char msg[256];
        assert_true(gen_run_arb(fp, json, simd, o, &stats, msg, sizeof(msg)));
        assert_int_equal(stats.packed_pixels, 16);
        for (unsigned i = 0; i < 16; i++) {
            assert_false(o[i].discarded);
            assert_int_equal(o[i].count, 8);
            for (unsigned n = 0; n < 8; n++)
                assert_memory_equal(o[i].reg[n].v, want[n], sizeof(want[n]));
        }
    }
}

static char *read_sample(const char *name)
{
    const char *root = getenv("ST_ROOT");
    char path[1024];
    snprintf(path, sizeof(path), "%s/samples/%s", root ? root : ".", name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

static void test_pressure_falls_back_to_simd8(void **state)
{
    (void)state;
    const char *src = read_sample("60-pressure-simd8.ps.asm");
    /* 64 live floats: 128 GRFs at SIMD16, so automatic choice is SIMD8, without spills */
    struct gen_out r = compile(src, 0);
    assert_true(r.ok);
    assert_true(stats_simd(r.stats, 8));
    assert_non_null(strstr(r.stats, " 0:0 spills:fills"));
    out_free(&r);
    /* forced SIMD16 still compiles, by spilling */
    r = compile(src, 16);
    assert_true(r.ok);
    assert_true(stats_simd(r.stats, 16));
    assert_null(strstr(r.stats, " 0:0 spills:fills"));
    assert_non_null(strstr(r.text, " 0x8A 0x020A03FD")); /* 2-GRF OWord block write to scratch */
    out_free(&r);
    /* forced SIMD32 spills too; split into SIMD16 halves (emit/gen/opt_split.c) each
     * value would spill as two 2-GRF writes (ex_mlen 2, 0x8A) and fill as two reads,
     * so the try that keeps 32-channel values is taken: 4-GRF writes (ex_mlen 4, 0x10A) */
    r = compile(src, 32);
    assert_true(r.ok);
    assert_true(stats_simd(r.stats, 32));
    assert_non_null(strstr(r.text, " 0x10A 0x020A04FD"));
    assert_null(strstr(r.text, " 0x8A 0x020A"));
    out_free(&r);
}

/* The kernels --simd=auto keeps, as "8+16+32". */
static void kept_widths(const char *stats, char *out, size_t n)
{
    out[0] = 0;
    for (const char *c = strstr(stats, ": SIMD"); c; c = strstr(c + 1, ": SIMD")) {
        unsigned w = 0;
        if (sscanf(c, ": SIMD%u shader: ", &w) == 1)
            snprintf(out + strlen(out), n - strlen(out), "%s%u", out[0] ? "+" : "", w);
    }
}

/*
 * Width as a Gen9 driver chooses it (Mesa's brw_compile_fs): SIMD8 and
 * SIMD16 both kept unless SIMD16 would spill, SIMD32 only when its
 * estimated throughput wins; each kept kernel is the one a forced width
 * gives, printed narrowest first, each with its statistics line.  The
 * expectations are brw's own choices for these samples
 * (../shared/bench/brw-samples.tsv, column widths_kept).
 */
static void test_auto_width_like_a_driver(void **state)
{
    (void)state;
    static const struct {
        const char *sample, *kept;
    } cases[] = {
        {"12-bump-diffuse.ps.asm", "8+16"},     /* ALU-bound: SIMD32 gains nothing */
        {"13-bumpenv.ps.asm", "8+16+32"},       /* sampler latency: SIMD32 hides it */
        {"60-pressure-simd8.ps.asm", "8"},      /* SIMD16 would spill */
    };
    for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        const char *src = read_sample(cases[k].sample);
        struct gen_out r = compile(src, 0);
        assert_true(r.ok);
        char got[32];
        kept_widths(r.stats, got, sizeof(got));
        if (strcmp(got, cases[k].kept) != 0)
            fail_msg("%s: kept %s, expected %s", cases[k].sample, got, cases[k].kept);
        unsigned kernels = 1;
        for (const char *c = got; *c; c++)
            kernels += *c == '+';
        assert_int_equal(count(r.text, "// shadertrans Gen9 pixel shader kernel"), kernels);
        /* each kept kernel is the forced compile at its width */
        const char *at = r.text;
        for (const char *w = got; *w;) {
            unsigned simd = (unsigned)strtoul(w, (char **)&w, 10);
            if (*w == '+')
                w++;
            struct gen_out f = compile(src, simd);
            assert_true(f.ok);
            const char *hit = strstr(at, f.text);
            if (!hit)
                fail_msg("%s: the SIMD%u kernel differs from --simd=%u", cases[k].sample, simd, simd);
            at = hit + strlen(f.text);
            out_free(&f);
        }
        out_free(&r);
    }
}

/* "GRFs used: N" and "scratch: N bytes" of a kernel's header */
static unsigned grfs_used(const struct gen_out *r)
{
    const char *g = strstr(r->text, "GRFs used: ");
    assert_non_null(g);
    return (unsigned)atoi(g + 11);
}

static unsigned scratch_bytes(const struct gen_out *r)
{
    const char *g = strstr(r->text, "scratch: ");
    assert_non_null(g);
    return (unsigned)atoi(g + 9);
}

/*
 * --pp=fp16 (issue 19): the _pp-heavy samples hold halves, two bytes a
 * channel, where they held floats.  At a forced width, where the float
 * kernel spills the half one spills less or not at all, and where it
 * does not the half one does not either; 63 uses fewer GRFs at every
 * width, 62 at SIMD8 and 16 (at SIMD32 both fill the file and spill, the
 * half one less): halves take the GRFs of the floats that died before
 * new ones (ra.c).  The kernels the driver rule keeps are as
 * wide or wider: 62 SIMD8 -> SIMD8+16 (its float SIMD16 spills), 63
 * SIMD8+16 either way (its half SIMD32 no longer spills, but is not
 * estimated faster).  The kernel computes in :hf, converts with SIMD8
 * movs, runs :hf math in SIMD8 pieces and keeps half denormals (cr0 bit
 * 10; a pixel shader's bit 7, f32 denormals kept, is thread state).
 */
static void test_pp_half_registers(void **state)
{
    (void)state;
    static const struct {
        const char *name, *ignore_kept, *fp16_kept;
        unsigned fewer_upto; /* fewer GRFs in half up to this width */
    } s[] = {
        {"62-pp-pressure.ps.asm", "8", "8+16", 16},
        {"63-pp-four-lights.ps.asm", "8+16", "8+16", 32},
    };
    for (unsigned k = 0; k < 2; k++) {
        const char *src = read_sample(s[k].name);
        char *copy = strdup(src); /* (read_sample's buffer is reused) */
        char got[32];
        struct gen_out a = compile_pp(copy, 0, false), b = compile_pp(copy, 0, true);
        assert_true(a.ok && b.ok);
        kept_widths(a.stats, got, sizeof(got));
        if (strcmp(got, s[k].ignore_kept) != 0)
            fail_msg("%s --pp=ignore: kept %s", s[k].name, got);
        kept_widths(b.stats, got, sizeof(got));
        if (strcmp(got, s[k].fp16_kept) != 0)
            fail_msg("%s --pp=fp16: kept %s", s[k].name, got);
        out_free(&a);
        out_free(&b);
        for (unsigned w = 8; w <= 32; w *= 2) {
            a = compile_pp(copy, w, false);
            b = compile_pp(copy, w, true);
            assert_true(a.ok && b.ok);
            unsigned ga = grfs_used(&a), gb = grfs_used(&b);
            unsigned sa = scratch_bytes(&a), sb = scratch_bytes(&b);
            if (sa ? sb >= sa : sb != 0)
                fail_msg("%s SIMD%u: %u scratch bytes in half, %u in float", s[k].name, w, sb, sa);
            if (w <= s[k].fewer_upto && gb >= ga)
                fail_msg("%s SIMD%u: %u GRFs in half, %u in float", s[k].name, w, gb, ga);
            assert_null(strstr(a.text, ":hf"));
            assert_non_null(strstr(b.text, ":hf"));
            /* bit 7 comes with the thread (3DSTATE_PS), bit 10 the kernel sets */
            assert_non_null(strstr(b.text, "cr0.0<0;1,0>:ud 0x400:ud"));
            assert_null(strstr(a.text, "cr0"));
            if (w >= 16) /* conversions and :hf math as (8|M0), (8|M8) pieces */
                assert_non_null(strstr(b.text, "(8|M8)"));
            out_free(&a);
            out_free(&b);
        }
        free(copy);
    }
    /* 62's float SIMD16 kernel spills, its half one does not */
    struct gen_out r = compile_pp(read_sample("62-pp-pressure.ps.asm"), 16, true);
    assert_int_equal(scratch_bytes(&r), 0);
    out_free(&r);
    /* 63's nrm_pp: math.rsqt in half, SIMD8 pieces at SIMD16 */
    r = compile_pp(read_sample("63-pp-four-lights.ps.asm"), 16, true);
    assert_non_null(strstr(r.text, "math.rsqt (8|M8)"));
    assert_null(strstr(r.text, "math.rsqt (16|M0)"));
    out_free(&r);
}

/* st_run of `src` on `json` under --pp=fp16, products rounded (so that the
 * interpreter's one reading is the kernel's); malloc'd output, NULL on errors */
static char *run_pp_unfused(const char *src, const char *json, enum st_engine engine, unsigned simd)
{
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION, .filename = "h.asm",
                           .source = src, .source_len = strlen(src),
                           .fp_contract = ST_FP_CONTRACT_OFF, .pp = ST_PP_FP16};
    struct st_run_options ro = {.struct_version = ST_RUN_OPTIONS_VERSION, .compile = &o,
                                .inputs_filename = "h.in.json", .inputs_json = json,
                                .inputs_len = strlen(json), .engine = engine, .simd_width = simd};
    struct st_result *res = NULL;
    if (st_run(&ro, &res) != 0 || !res)
        return NULL;
    char *out = res->ok && res->output ? strdup(res->output) : NULL;
    st_result_free(res);
    return out;
}

/*
 * A SIMD8 half float is half a GRF: when the file is full of them, they
 * spill like floats, one OWord each (block size 0) through a GRF of their
 * own.  32 _pp temporaries all live, read with 131 constants each
 * converted once and kept: in float it spills at every width; in half,
 * SIMD8 spills halves too (before, nothing it held could go and the
 * compile failed), and the kernel still computes the interpreter's bits.
 */
static void test_half_spills_at_simd8(void **state)
{
    (void)state;
    char src[16384];
    size_t n = (size_t)snprintf(src, sizeof(src), "ps_3_0\n");
    for (unsigned k = 0; k < 8; k++)
        n += (size_t)snprintf(src + n, sizeof(src) - n, "dcl_texcoord%u_pp v%u\n", k, k);
    for (unsigned k = 0; k < 32; k++)
        n += (size_t)snprintf(src + n, sizeof(src) - n, "mad_pp r%u, v%u, c%u, v%u\n", k, k % 8, k,
                              (k + 1) % 8);
    for (unsigned round = 0; round < 3; round++)
        for (unsigned k = 0; k < 32; k++)
            n += (size_t)snprintf(src + n, sizeof(src) - n, "mad_pp r%u, r%u, c%u, r%u\n", k, k,
                                  (k * 7 + round * 13) % 96, (k + 5) % 32);
    n += (size_t)snprintf(src + n, sizeof(src) - n, "mov_pp r31, r0\n");
    for (unsigned k = 1; k < 31; k++)
        n += (size_t)snprintf(src + n, sizeof(src) - n, "mad_pp r31, r31, c%u, r%u\n", 100 + k, k);
    snprintf(src + n, sizeof(src) - n, "mov oC0, r31\n");
    char json[16384];
    size_t j = (size_t)snprintf(json, sizeof(json), "{\"constants\": {");
    for (unsigned c = 0; c < 131; c++)
        j += (size_t)snprintf(json + j, sizeof(json) - j, "%s\"c%u\": [%g, %g, %g, %g]",
                              c ? ", " : "", c, (c * 37 % 23) / 20.0 - 0.55,
                              ((c * 37 + 11) % 23) / 20.0 - 0.55, ((c * 37 + 22) % 23) / 20.0 - 0.55,
                              ((c * 37 + 33) % 23) / 20.0 - 0.55);
    j += (size_t)snprintf(json + j, sizeof(json) - j, "}, \"invocations\": [");
    for (unsigned inv = 0; inv < 8; inv++) {
        j += (size_t)snprintf(json + j, sizeof(json) - j, "%s{", inv ? ", " : "");
        for (unsigned k = 0; k < 8; k++)
            j += (size_t)snprintf(json + j, sizeof(json) - j, "%s\"v%u\": [%g, %g, %g, %g]",
                                  k ? ", " : "", k, ((k * 13 + inv * 5) % 19) / 9.5 - 1,
                                  ((k * 13 + 7 + inv * 5) % 19) / 9.5 - 1,
                                  ((k * 13 + 14 + inv * 5) % 19) / 9.5 - 1,
                                  ((k * 13 + 21 + inv * 5) % 19) / 9.5 - 1);
        j += (size_t)snprintf(json + j, sizeof(json) - j, "}");
    }
    snprintf(json + j, sizeof(json) - j, "]}");
    struct gen_out f = compile_pp(src, 8, false), h = compile_pp(src, 8, true);
    assert_true(f.ok && h.ok);
    assert_null(strstr(f.stats, " 0:0 spills:fills"));
    assert_null(strstr(h.stats, " 0:0 spills:fills"));
    assert_true(scratch_bytes(&h) < scratch_bytes(&f));
    assert_non_null(strstr(h.text, " 0x4A 0x020A00FD")); /* 1-OWord block write */
    assert_non_null(strstr(h.text, " 0xA 0x021800FD"));  /* 1-OWord block read, into a GRF */
    out_free(&f);
    out_free(&h);
    char *ref = run_pp_unfused(src, json, ST_ENGINE_INTERP, 0);
    char *gen = run_pp_unfused(src, json, ST_ENGINE_GEN, 8);
    assert_non_null(ref);
    assert_non_null(gen);
    assert_string_equal(gen, ref);
    free(ref);
    free(gen);
}

static void test_spill_at_simd8(void **state)
{
    (void)state;
    struct gen_out r = compile(read_sample("61-spill.vs.asm"), 0);
    assert_true(r.ok);
    assert_true(stats_simd(r.stats, 8));
    assert_null(strstr(r.stats, " 0:0 spills:fills"));
    /* OWord block writes and reads of 1 GRF, or of 2 (a pair: gen/opt_pair.c) */
    assert_true(strstr(r.text, " 0x4A 0x020A02FD") || strstr(r.text, " 0x8A 0x020A03FD"));
    assert_true(strstr(r.text, " 0xA 0x021802FD") || strstr(r.text, " 0xA 0x022803FD"));
    out_free(&r);
}


/*
 * All eight ARB draw buffers at SIMD32: a colour is 4 x 4 GRFs, so the
 * eight targets computed up front (the program's order) and held for the
 * epilogue's writes would need 128 GRFs besides the two inputs (32) and
 * spill.  Each target's arithmetic moves down to its write (gen/sink.c)
 * before the schedules: no spill.
 */
static void test_outputs_computed_at_their_writes(void **state)
{
    (void)state;
    struct gen_out r = compile(read_sample("arb/21-draw-buffers-8.fp"), 32);
    assert_true(r.ok);
    assert_non_null(strstr(r.stats, "SIMD32 shader: "));
    assert_non_null(strstr(r.stats, " 0:0 spills:fills"));
    /* (where each target's arithmetic ends up is the schedulers' choice
     * after gen/sink.c: the latency schedule may interleave it, as long as
     * nothing spills) */
    assert_non_null(strstr(r.text, " 0x10030001"));
    assert_non_null(strstr(r.text, " 0x10030002"));
    out_free(&r);
}

/*
 * Register pressure far beyond the file, in straight-line code and in
 * loops: 24 vec4 temporaries kept alive by a chain r_a = r_a * v_k +
 * r_(a-1) (96 GRFs at SIMD8, 192 at SIMD16, 384 at SIMD32) over eight
 * interpolated inputs read throughout.  SIMD16 and SIMD32 spill (and
 * reload, in loops too); the kernel must still compute what the interpreter does,
 * bit for bit under one of its two readings of the multiply-adds.
 */
static void test_spilled_kernels_match_interpreter(void **state)
{
    (void)state;
    for (unsigned loops = 0; loops < 2; loops++) {
        char src[16384];
        size_t n = (size_t)snprintf(src, sizeof(src), "ps_3_0\ndefi i0, 3, 0, 0, 0\n");
        for (unsigned k = 0; k < 8; k++)
            n += (size_t)snprintf(src + n, sizeof(src) - n, "dcl_texcoord%u v%u\n", k, k);
        for (unsigned t = 0; t < 24; t++)
            n += (size_t)snprintf(src + n, sizeof(src) - n, "mad r%u, v%u, c%u, v%u\n", t, t % 8,
                                  t % 16, (t + 3) % 8);
        for (unsigned k = 0; k < 96; k++) {
            if (loops && k % 12 == 0)
                n += (size_t)snprintf(src + n, sizeof(src) - n, "rep i0\n");
            n += (size_t)snprintf(src + n, sizeof(src) - n, "mad r%u, r%u, v%u, r%u\n", k % 24,
                                  k % 24, (k + 1) % 8, (k + 23) % 24);
            if (loops && k % 12 == 11)
                n += (size_t)snprintf(src + n, sizeof(src) - n, "endrep\n");
        }
        for (unsigned t = 1; t < 24; t++)
            n += (size_t)snprintf(src + n, sizeof(src) - n, "add r0, r0, r%u\n", t);
        snprintf(src + n, sizeof(src) - n, "mov oC0, r0\n");
        /* values in (-1, 1), the same for every pixel (one plane) */
        char json[4096];
        size_t j = (size_t)snprintf(json, sizeof(json), "{\"constants\": {");
        for (unsigned c = 0; c < 16; c++)
            j += (size_t)snprintf(json + j, sizeof(json) - j, "%s\"c%u\": [%g, %g, %g, %g]",
                                  c ? ", " : "", c, 0.1 * (c % 7) - 0.3, 0.05 * c, -0.6 + 0.07 * c,
                                  0.5 - 0.03 * c);
        j += (size_t)snprintf(json + j, sizeof(json) - j, "}, \"invocations\": [");
        for (unsigned inv = 0; inv < 8; inv++) {
            j += (size_t)snprintf(json + j, sizeof(json) - j, "%s{", inv ? ", " : "");
            for (unsigned k = 0; k < 8; k++)
                j += (size_t)snprintf(json + j, sizeof(json) - j, "%s\"v%u\": [%g, %g, %g, %g]",
                                      k ? ", " : "", k, 0.11 * k - 0.4, 0.9 - 0.2 * k, 0.3,
                                      -0.05 * k);
            j += (size_t)snprintf(json + j, sizeof(json) - j, "}");
        }
        snprintf(json + j, sizeof(json) - j, "]}");
        struct st_ctx *ctx = st_ctx_create("p.asm", src, strlen(src), 50);
        struct st_arena *a = st_arena_create();
        struct st_shader *sh = st_parse_d3d9(ctx, a);
        assert_true(sh && st_check(ctx, sh));
        struct st_run_inputs in;
        assert_true(st_run_inputs_parse(ctx, sh, "in", json, strlen(json), a, &in));
        struct st_run_outputs ref[8], fused[8], gen[8];
        assert_true(st_interp_execute(ctx, sh, &in, ST_FLOAT_IEEE, ref));
        assert_true(st_interp_execute_ex(ctx, sh, &in, ST_FLOAT_IEEE, true, fused));
        for (unsigned simd = 8; simd <= 32; simd *= 2) {
            struct gen_out r = compile(src, simd);
            assert_true(r.ok);
            /* SIMD8 holds it (96 GRFs of temporaries and the payload fit
             * the file); the wider kernels spill */
            if (simd > 8)
                assert_null(strstr(r.stats, " 0:0 spills:fills"));
            out_free(&r);
            assert_true(test_gen_execute(ctx, sh, simd, &in, ST_FLOAT_IEEE, gen, NULL));
            /* bit for bit under one reading of the multiply-adds (the
             * kernel's mad is fused: docs/gensim.md) */
            for (unsigned v = 0; v < 8; v++) {
                assert_int_equal(gen[v].count, ref[v].count);
                bool as_ref = memcmp(gen[v].reg[0].v, ref[v].reg[0].v, 4 * sizeof(float)) == 0;
                bool as_fused = memcmp(gen[v].reg[0].v, fused[v].reg[0].v, 4 * sizeof(float)) == 0;
                assert_true(as_ref || as_fused);
            }
        }
        st_arena_destroy(a);
        st_ctx_destroy(ctx);
    }
}

/*
 * fuzz-07: 17 vec4 temporaries (68 floats, 68 GRFs at SIMD8) alive across a
 * loop left both by its count and by break_ge.  Each temporary has a
 * loop-carried phi, a next value and an exit phi; kept apart they need
 * 3 x 68 GRFs and spill.  One register each: 68 + the payload (r0, r1, one
 * CURBE GRF for c0-c1, one 4-GRF input) = 75 at least (the loop counter is
 * a uniform dword and the sums after the loop are computed into the URB
 * write's payload in r112-r127), about 90 at most, no spill.
 */
static void test_loop_exit_phis_share_registers(void **state)
{
    (void)state;
    struct gen_out r = compile(read_sample("fuzz-07-loop-exit-moves.vs.asm"), 0);
    assert_true(r.ok);
    assert_true(stats_simd(r.stats, 8));
    assert_non_null(strstr(r.stats, " 0:0 spills:fills"));
    const char *g = strstr(r.text, "// GRFs used: ");
    assert_non_null(g);
    unsigned grfs = 0;
    assert_int_equal(sscanf(g, "// GRFs used: %u", &grfs), 1);
    assert_true(grfs >= 68 + 7);
    assert_true(grfs <= 100);
    out_free(&r);
}

/* ------------------------------------------------------------------ */
/*
 * Differential on the samples' own inputs: every sample with NAME.in.json
 * runs through the Gen engine (emit/gen/run.c: the payload of
 * docs/gen-abi.md, the Gen simulator, the outputs back) at SIMD8, 16 and
 * 32 and must match the reference interpreter by the rule of
 * docs/gensim.md (translator/run/tolerance.c): bit for bit under one of the two
 * readings of the multiply-adds, within the math tolerance for shaders
 * using exp/log/pow/sin/cos.  tests/test_diff_gen.c does the same on
 * random inputs.
 */

/* Returns the number of mismatching components (printed); -1: not supported. */
static int run_sample(const char *path, unsigned simd, unsigned *compared)
{
    char jpath[1024];
    const char *dot = strrchr(path, '.');
    snprintf(jpath, sizeof(jpath), "%.*s.in.json", (int)(dot ? (size_t)(dot - path) : strlen(path)), path);
    FILE *f = fopen(jpath, "rb");
    if (!f)
        return 0;
    static char json[1 << 18], src[1 << 16];
    size_t jn = fread(json, 1, sizeof(json) - 1, f);
    fclose(f);
    f = fopen(path, "rb");
    assert_non_null(f);
    size_t sn = fread(src, 1, sizeof(src) - 1, f);
    fclose(f);
    src[sn] = 0;
    struct st_ctx *ctx = st_ctx_create(path, src, sn, 50);
    struct st_arena *a = st_arena_create();
    bool arb = strncmp(src, "!!ARB", 5) == 0;
    struct st_shader *sh = arb ? st_parse_arb(ctx, a) : st_parse_d3d9(ctx, a);
    assert_true(sh && (arb ? st_check_arb(ctx, sh) : st_check(ctx, sh)));
    struct st_run_inputs in;
    assert_true(st_run_inputs_parse(ctx, sh, "in", json, jn, a, &in));
    struct st_run_outputs *ref = calloc(in.num_invocations + 1, sizeof(*ref));
    struct st_run_outputs *fused = calloc(in.num_invocations + 1, sizeof(*fused));
    struct st_run_outputs *gen = calloc(in.num_invocations + 1, sizeof(*gen));
    assert_non_null(ref);
    assert_non_null(fused);
    assert_non_null(gen);
    assert_true(st_interp_execute(ctx, sh, &in, ST_FLOAT_IEEE, ref));
    assert_true(st_interp_execute_ex(ctx, sh, &in, ST_FLOAT_IEEE, true, fused));
    int bad = 0;
    if (!test_gen_execute(ctx, sh, simd, &in, ST_FLOAT_IEEE, gen, NULL)) {
        bad = -1;
    } else {
        unsigned inexact = st_tol_shader_inexact(sh);
        for (unsigned v = 0; v < in.num_invocations; v++) {
            if (ref[v].discarded != gen[v].discarded || ref[v].count != gen[v].count) {
                printf("%s SIMD%u inv %u: discarded/outputs differ\n", path, simd, v);
                bad++;
                continue;
            }
            if (ref[v].discarded)
                continue;
            for (unsigned r = 0; r < ref[v].count; r++)
                for (unsigned c = 0; c < ref[v].reg[r].ncomp; c++) {
                    float want = ref[v].reg[r].v[c], have = gen[v].reg[r].v[c];
                    float want_fused = fused[v].discarded || fused[v].count != ref[v].count
                                           ? want
                                           : fused[v].reg[r].v[c];
                    (*compared)++;
                    if (!st_tol_within_either(want, want_fused, have, inexact)) {
                        printf("%s SIMD%u inv %u output %u.%u: interpreter %g, Gen %g\n", path, simd, v, r,
                               c, (double)want, (double)have);
                        bad++;
                    }
                }
        }
    }
    free(ref);
    free(fused);
    free(gen);
    st_arena_destroy(a);
    st_ctx_destroy(ctx);
    return bad;
}

/* Runs src on the inputs JSON through the Gen engine at `simd`; out[inv][c] = oC0. */
static void gen_run_oc0(const char *src, const char *json, unsigned simd, float out[][4], unsigned n)
{
    struct st_ctx *ctx = st_ctx_create("d.asm", src, strlen(src), 50);
    struct st_arena *a = st_arena_create();
    struct st_shader *sh = st_parse_d3d9(ctx, a);
    assert_true(sh && st_check(ctx, sh));
    struct st_run_inputs in;
    assert_true(st_run_inputs_parse(ctx, sh, "in", json, strlen(json), a, &in));
    assert_int_equal(in.num_invocations, n);
    struct st_run_outputs o[8];
    struct st_gen_run_stats stats;
    assert_true(test_gen_execute(ctx, sh, simd, &in, ST_FLOAT_IEEE, o, &stats));
    assert_int_equal(stats.packed_pixels, n); /* the inputs lie on one plane */
    for (unsigned k = 0; k < n; k++) {
        assert_false(o[k].discarded);
        assert_int_equal(o[k].count, 1);
        memcpy(out[k], o[k].reg[0].v, sizeof(out[k]));
    }
    st_arena_destroy(a);
    st_ctx_destroy(ctx);
}

static void test_derivative_in_divergent_flow(void **state)
{
    (void)state;
    /* dsx inside a branch only the right pixels of the quad take: their
     * left neighbours do not run the dsx, so it is 0 (the interpreter's
     * rule, docs/interpreter.md), not right - left of a stale register */
    const char *src = "ps_3_0\n"
                      "def c0, 0.5, 0, 0, 0\n"
                      "dcl_texcoord0 v0\n"
                      "mov r0, c0.y\n"
                      "if_gt v0.x, c0.x\n"
                      "  dsx r0, v0.y\n"
                      "endif\n"
                      "mov oC0, r0\n";
    /* quad 0 1 / 2 3: v0.x = 0 1 / 0 1, v0.y = 10 20 / 30 40 (a plane) */
    const char *split = "{\"invocations\": [{\"v0\": [0, 10, 0, 0]}, {\"v0\": [1, 20, 0, 0]}, "
                        "{\"v0\": [0, 30, 0, 0]}, {\"v0\": [1, 40, 0, 0]}]}";
    /* every pixel takes the branch: dsx = 20 - 10 = 40 - 30 = 10 */
    const char *all = "{\"invocations\": [{\"v0\": [1, 10, 0, 0]}, {\"v0\": [1, 20, 0, 0]}, "
                      "{\"v0\": [1, 30, 0, 0]}, {\"v0\": [1, 40, 0, 0]}]}";
    for (unsigned simd = 8; simd <= 32; simd *= 2) {
        float o[4][4];
        gen_run_oc0(src, split, simd, o, 4);
        for (unsigned k = 0; k < 4; k++)
            for (unsigned c = 0; c < 4; c++) {
                assert_true(o[k][c] == 0.0f);
                assert_false(signbit(o[k][c]));
            }
        gen_run_oc0(src, all, simd, o, 4);
        for (unsigned k = 0; k < 4; k++)
            for (unsigned c = 0; c < 4; c++)
                assert_true(o[k][c] == 10.0f);
    }
}

/* Bits equal (so -0 is not +0). */
static bool same_f(float a, float b)
{
    return memcmp(&a, &b, sizeof(a)) == 0;
}

/*
 * Multiply-adds, worked by hand.  a = 1 + 2^-23: a * a = 1 + 2^-22 + 2^-46,
 * rounded alone to 1 + 2^-22; with c = -(1 + 2^-22) a fused mad gives
 * 2^-46, a product rounded first gives 0.  The source's mad is fused by
 * default and with --fp-contract=off is not; a separate mul then add is
 * fused only with fast.  Under the d3d9 rule a zero factor makes the
 * product +0 inside the fused mad too: 0 * inf + c is c (+0 for c = -0).
 */
static void test_multiply_adds(void **state)
{
    (void)state;
    struct st_run_outputs o[2];
    const char *in = "{\"constants\": {\"c0\": [-1.00000024, -1.00000024, 0, 0], "
                     "\"c1\": [1.00000012, 1.00000012, 0, 0]}, "
                     "\"invocations\": [{\"v0\": [1.00000012, 1.00000012, 0, 0]}]}";
    const char *mad = "vs_2_0\ndcl_position v0\nmad oPos, v0, c1, c0\n";
    const char *mul_add = "vs_2_0\ndcl_position v0\nmul r0, v0, c1\nadd oPos, r0, c0\n";
    gen_run_json_ex(mad, in, 8, ST_FLOAT_IEEE, ST_FP_CONTRACT_ON, o, 1);
    assert_true(o[0].reg[0].v[0] == 0x1p-46f);
    gen_run_json_ex(mad, in, 8, ST_FLOAT_IEEE, ST_FP_CONTRACT_OFF, o, 1);
    assert_true(same_f(o[0].reg[0].v[0], 0.0f));
    gen_run_json_ex(mul_add, in, 8, ST_FLOAT_IEEE, ST_FP_CONTRACT_ON, o, 1);
    assert_true(same_f(o[0].reg[0].v[0], 0.0f));
    gen_run_json_ex(mul_add, in, 8, ST_FLOAT_IEEE, ST_FP_CONTRACT_FAST, o, 1);
    assert_true(o[0].reg[0].v[0] == 0x1p-46f);
    /* zero factors: (0 * inf, 0 * NaN, -0 * 5, 2 * 3) + (-0, 7, -0, 1) (JSON -0 is +0: -0.0) */
    const char *zin = "{\"constants\": {\"c0\": [-0.0, 7, -0.0, 1], "
                      "\"c1\": [\"inf\", \"nan\", 5, 3]}, "
                      "\"invocations\": [{\"v0\": [0, 0, -0.0, 2]}]}";
    const float d3d9[4] = {0.0f, 7.0f, 0.0f, 7.0f};
    for (int k = 0; k < 2; k++) {
        gen_run_json_ex(mad, zin, 8, ST_FLOAT_D3D9,
                        k ? ST_FP_CONTRACT_OFF : ST_FP_CONTRACT_ON, o, 1);
        for (unsigned c = 0; c < 4; c++)
            assert_true(same_f(o[0].reg[0].v[c], d3d9[c]));
        gen_run_json_ex(mad, zin, 8, ST_FLOAT_IEEE,
                        k ? ST_FP_CONTRACT_OFF : ST_FP_CONTRACT_ON, o, 1);
        assert_true(isnan(o[0].reg[0].v[0]) && isnan(o[0].reg[0].v[1]));
        assert_true(same_f(o[0].reg[0].v[2], -0.0f) && o[0].reg[0].v[3] == 7.0f);
    }
    /* the same in a pixel shader, whose third operand is interpolated just
     * before the add reads it (the pln lies between the mul and the add):
     * fused with fast at SIMD8 and 16, a product rounded first otherwise */
    const char *ps = "ps_2_0\ndcl t0\ndcl t1\ndcl t2\nmul r1, t0, t1\nadd r0, r1, t2\n"
                     "mov oC0, r0\n";
    const char *psin = "{\"invocations\": [{\"t0\": [1.00000012, 0, 0, 0], "
                       "\"t1\": [1.00000012, 0, 0, 0], \"t2\": [-1.00000024, 0, 0, 0]}]}";
    for (unsigned simd = 8; simd <= 16; simd += 8) {
        gen_run_json_ex(ps, psin, simd, ST_FLOAT_IEEE, ST_FP_CONTRACT_FAST, o, 1);
        assert_true(o[0].reg[0].v[0] == 0x1p-46f);
        gen_run_json_ex(ps, psin, simd, ST_FLOAT_IEEE, ST_FP_CONTRACT_ON, o, 1);
        assert_true(same_f(o[0].reg[0].v[0], 0.0f));
    }
    /* a dot product: 0 * inf + 1 * 2 + 2 * 3 is 8 under d3d9, NaN under ieee */
    const char *dp = "vs_2_0\ndcl_position v0\ndp3 oPos, v0, c1\n";
    const char *dpin = "{\"constants\": {\"c1\": [\"inf\", 2, 3, 0]}, "
                       "\"invocations\": [{\"v0\": [0, 1, 2, 0]}]}";
    gen_run_json_ex(dp, dpin, 8, ST_FLOAT_D3D9, ST_FP_CONTRACT_ON, o, 1);
    assert_true(o[0].reg[0].v[0] == 8.0f);
    gen_run_json_ex(dp, dpin, 8, ST_FLOAT_IEEE, ST_FP_CONTRACT_ON, o, 1);
    assert_true(isnan(o[0].reg[0].v[0]));
    /* ARB LRP = a * b + (1 - a) * c with a = b = 1 + 2^-23, c = 2^23 + 2:
     * 1 - a = -2^-23 and (1 - a) * c = -(1 + 2^-22) exactly, so the fused
     * first product leaves 2^-46 and a rounded one 0 */
    const char *lrp = "!!ARBfp1.0\nPARAM k = program.local[0];\n"
                      "LRP result.color, k.x, k.y, k.z;\nEND\n";
    const char *lrpin = "{\"constants\": {\"program.local[0]\": [1.00000012, 1.00000012, 8388610, 0]}, "
                        "\"invocations\": [{}]}";
    gen_run_json_ex(lrp, lrpin, 8, ST_FLOAT_IEEE, ST_FP_CONTRACT_ON, o, 1);
    assert_true(o[0].reg[0].v[0] == 0x1p-46f);
    gen_run_json_ex(lrp, lrpin, 8, ST_FLOAT_IEEE, ST_FP_CONTRACT_OFF, o, 1);
    assert_true(same_f(o[0].reg[0].v[0], 0.0f));
}

/*
 * ARB_fog_*'s blend f C + (1 - f) Cfog is a linear interpolation
 * (docs/gensim.md, rule 1): one `lrp` per channel, no mad or mul of its
 * own (linear fog's one mul is f's 1/(end - start)).  Worked by hand
 * (test_interp.c has the interpreter's two readings of the same inputs):
 * z = 2^-12, end 1, scale 1 give f = 1 - 2^-12; red C = 0, Cfog = 1 -
 * 2^-20: the exact f C + (1 - f) Cfog is 2^-12 - 2^-32, a float (the
 * lrp), while the steps Cfog + f (C - Cfog) round the product
 * f (C - Cfog) to -(1 - 2^-12 - 2^-20), losing the 2^-32, and the sum is 2^-12
 * (--fp-contract=off).  Green 0.5 + (1 - 2^-12) 0.5 = 1 - 2^-13 either
 * way, blue C = Cfog; alpha is not fogged.
 */
static void test_arb_fog_blend_lrp(void **state)
{
    (void)state;
    const char *src = "!!ARBfp1.0\nOPTION ARB_fog_linear;\n"
                      "MOV result.color, fragment.color;\nEND\n";
    for (unsigned simd = 8; simd <= 16; simd *= 2) {
        struct gen_out r = compile(src, simd);
        assert_true(r.ok);
        char lrp[32], mad[32], mul[32];
        snprintf(lrp, sizeof(lrp), "lrp (%u|M0)", simd);
        snprintf(mad, sizeof(mad), "mad (%u|M0)", simd);
        snprintf(mul, sizeof(mul), "mul (%u|M0)", simd);
        assert_int_equal(count(r.text, lrp), 3);
        assert_int_equal(count(r.text, mad), 0);
        assert_int_equal(count(r.text, mul), 1);
        out_free(&r);
    }
    const char *in = "{\"constants\": {\"state.fog.params\": [0, 0, 1, 1],"
                     " \"state.fog.color\": [0.99999904632568359375, 0.5, 0.5, 0]},"
                     " \"invocations\": [{\"fragment.color\": [0, 1, 0.5, 0.75],"
                     " \"fragment.fogcoord\": [0.000244140625]}]}";
    const float fused[4] = {0x1p-12f - 0x1p-32f, 1.0f - 0x1p-13f, 0.5f, 0.75f};
    const float unfused[4] = {0x1p-12f, 1.0f - 0x1p-13f, 0.5f, 0.75f};
    struct st_run_outputs o[1];
    for (unsigned simd = 8; simd <= 16; simd *= 2) {
        gen_run_json_ex(src, in, simd, ST_FLOAT_IEEE, ST_FP_CONTRACT_ON, o, 1);
        assert_memory_equal(o[0].reg[0].v, fused, sizeof(fused));
        gen_run_json_ex(src, in, simd, ST_FLOAT_IEEE, ST_FP_CONTRACT_OFF, o, 1);
        assert_memory_equal(o[0].reg[0].v, unfused, sizeof(unfused));
    }
}

/*
 * texldb, texldl and texldd send the sampler their bias, level and
 * gradients (sample_b, sample_l, sample_d: Mesa's parameter order), which
 * the texture model, level 0 only, never reads: so the parameters of the
 * first message of each type are checked here, worked by hand from the
 * inputs: v0 = (0.25, 0.5, 0, 2), v1 = (0.125, 0.0625, 0, 0), c0 =
 * (0.5, -0.5, 0, 0).
 * - texldb v0: (bias, u, v) = (2, 0.25, 0.5);
 * - texldl v0.yxzw: (level, u, v) = (2, 0.5, 0.25);
 * - texldd v0, v1, c0: (u, du/dx, du/dy, v, dv/dx, dv/dy) = (0.25,
 *   0.125, 0.5, 0.5, 0.0625, -0.5), one SIMD8 message per 8 channels
 *   (Gen9 has no SIMD16 sample_d);
 * - texldl with the defined level 0 (c2.z): sample_lz, (u, v) alone.
 */
static void test_sample_lod_parameters(void **state)
{
    (void)state;
    const char *src = "ps_3_0\ndef c2, 0, 0, 0, 0\n"
                      "dcl_texcoord0 v0\ndcl_texcoord1 v1\ndcl_2d s0\n"
                      "texldb r0, v0, s0\n"
                      "texldl r1, v0.yxzw, s0\n"
                      "texldd r2, v0, s0, v1, c0\n"
                      "mov r3, v0\nmov r3.w, c2.z\ntexldl r3, r3, s0\n"
                      "add r0, r0, r1\nadd r0, r0, r2\nadd oC0, r0, r3\n";
    const char *json = "{\"constants\": {\"c0\": [0.5, -0.5, 0, 0]}, \"invocations\": "
                       "[{\"v0\": [0.25, 0.5, 0, 2], \"v1\": [0.125, 0.0625, 0, 0]}]}";
    for (unsigned simd = 8; simd <= 32; simd *= 2) {
        struct st_ctx *ctx = st_ctx_create("r.asm", src, strlen(src), 50);
        struct st_arena *a = st_arena_create();
        struct st_shader *sh = st_parse_d3d9(ctx, a);
        assert_true(sh && st_check(ctx, sh));
        struct st_run_inputs in;
        assert_true(st_run_inputs_parse(ctx, sh, "in", json, strlen(json), a, &in));
        struct st_run_outputs o[1];
        struct st_gen_run_stats st;
        memset(&st, 0, sizeof(st));
        assert_true(test_gen_execute_ex(ctx, sh, simd, &in, ST_FLOAT_IEEE, ST_FP_CONTRACT_ON, o,
                                        &st));
        const float b[3] = {2, 0.25f, 0.5f}, l[3] = {2, 0.5f, 0.25f};
        const float d[6] = {0.25f, 0.125f, 0.5f, 0.5f, 0.0625f, -0.5f}, lz[2] = {0.25f, 0.5f};
        assert_int_equal(st.samples_by_type[0], 0); /* no plain sample */
        assert_int_equal(st.samples_by_type[1], 1);
        assert_int_equal(st.sample_nparams[1], 3);
        assert_memory_equal(st.sample_param[1], b, sizeof(b));
        assert_int_equal(st.samples_by_type[2], 1);
        assert_int_equal(st.sample_nparams[2], 3);
        assert_memory_equal(st.sample_param[2], l, sizeof(l));
        assert_int_equal(st.samples_by_type[4], 1); /* the lit pixel's 8 channels */
        assert_int_equal(st.sample_nparams[4], 6);
        assert_memory_equal(st.sample_param[4], d, sizeof(d));
        assert_int_equal(st.samples_by_type[24], 1);
        assert_int_equal(st.sample_nparams[24], 2);
        assert_memory_equal(st.sample_param[24], lz, sizeof(lz));
        st_arena_destroy(a);
        st_ctx_destroy(ctx);
    }
}

/*
 * The sampler reads a parameter a message leaves out as 0, so a 1D
 * target's message is its u alone (no mov of a zero v): one GRF a
 * message at SIMD8, two at SIMD16.  By hand, nearest texel of a 4-texel
 * 1D texture: u = 0.625 -> texel 2, u = 0.125 -> texel 0.
 */
static void test_sample_1d_u_alone(void **state)
{
    (void)state;
    const char *fp = "!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[0], 1D;\nEND\n";
    struct gen_out r = compile(fp, 8);
    assert_true(r.ok);
    assert_non_null(strstr(r.text, " 0x2 0x02420009")); /* mlen 1, rlen 4 */
    assert_null(strstr(r.text, "mov ("));
    out_free(&r);
    r = compile(fp, 16);
    assert_true(r.ok);
    assert_non_null(strstr(r.text, " 0x2 0x04840009")); /* mlen 2, rlen 8 */
    out_free(&r);
    const char *in = "{\"textures\": {\"texture[0]\": {\"type\": \"1d\", \"width\": 4, \"texels\": "
                     "[[0.1, 0, 0, 1], [0.2, 0, 0, 1], [0.3, 0, 0, 1], [0.4, 0, 0, 1]]}}, "
                     "\"invocations\": [{\"fragment.texcoord[0]\": [0.625, 0.75, 0, 1]}, "
                     "{\"fragment.texcoord[0]\": [0.125, 0.75, 0, 1]}]}";
    for (unsigned simd = 8; simd <= 16; simd *= 2) {
        struct st_run_outputs o[2];
        gen_run_json(fp, in, simd, o, 2);
        const float t2[4] = {0.3f, 0, 0, 1}, t0[4] = {0.1f, 0, 0, 1};
        assert_memory_equal(o[0].reg[0].v, t2, sizeof(t2));
        assert_memory_equal(o[1].reg[0].v, t0, sizeof(t0));
    }
}

/* A sampler payload that is a vertex attribute's u and v as they arrived
 * (texldl at level 0 of v1.xy): the message reads v1's GRFs (r6, r7: no
 * constants, v0 in r2-r5) and no mov builds it.  Texels at (0.75, 0.25)
 * and (0.25, 0.75) of a 2x2 texture are numbers 1 and 2, row by row. */
static void test_sample_reads_attribute_in_place(void **state)
{
    (void)state;
    const char *src = "vs_3_0\n"
                      "dcl_position v0\n"
                      "dcl_texcoord0 v1\n"
                      "dcl_position o0\n"
                      "dcl_2d s0\n"
                      "def c0, 0, 0, 0, 0\n"
                      "mov r0.xy, v1\n"
                      "mov r0.zw, c0.x\n"
                      "texldl r1, r0, s0\n"
                      "add o0, v0, r1\n";
    struct gen_out r = compile(src, 8);
    assert_true(r.ok);
    /* sample_lz, mlen 2, rlen 4, from r6 */
    assert_non_null(strstr(r.text, ":f r6 0x2 0x04438009\n"));
    assert_int_equal(count(r.text, "mov (8|M0)"), 1); /* the handles' copy */
    out_free(&r);
    const char *in = "{\"textures\": {\"s0\": {\"type\": \"2d\", \"width\": 2, \"height\": 2, "
                     "\"texels\": [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]}}, "
                     "\"invocations\": [{\"v0\": [0.5, 0, -1, 1], \"v1\": [0.75, 0.25, 7, 7]}, "
                     "{\"v0\": [0, 0, 0, 1], \"v1\": [0.25, 0.75, 0, 0]}]}";
    struct st_run_outputs o[2];
    gen_run_json(src, in, 8, o, 2);
    const float want[2][4] = {{5.5f, 6, 6, 9}, {9, 10, 11, 13}};
    assert_memory_equal(o[0].reg[0].v, want[0], sizeof(want[0]));
    assert_memory_equal(o[1].reg[0].v, want[1], sizeof(want[1]));
}

/* st_compile (Gen, SIMD8) or st_run of `src` with the texture types `tt`
 * (st_options.texture_types); the result, freed by the caller. */
static struct st_result *with_texture_types(const char *src, const enum st_texture_type tt[2],
                                            const char *json, enum st_engine engine)
{
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION, .filename = "tt.asm",
                           .source = src, .source_len = strlen(src), .emit = ST_EMIT_GEN,
                           .simd_width = 8};
    o.texture_types[0] = tt[0];
    o.texture_types[1] = tt[1];
    struct st_run_options ro = {.struct_version = ST_RUN_OPTIONS_VERSION, .compile = &o,
                                .inputs_filename = "tt.in.json", .inputs_json = json,
                                .inputs_len = json ? strlen(json) : 0, .engine = engine,
                                .simd_width = 8};
    struct st_result *res = NULL;
    assert_int_equal(json ? st_run(&ro, &res) : st_compile(&o, &res), 0);
    assert_non_null(res);
    return res;
}

/*
 * ps_1_x declares no sampler types: by default a stage is sampled with u,
 * v and r, which a cube or volume texture needs (mlen 3 at SIMD8, a third
 * pln).  Named 2d in the options, a stage sends u and v alone; cube keeps
 * r.  A dcl that disagrees is ST2012 at the dcl, and inputs that bind
 * another type are ST4001 for every engine.  1x1 textures: the product of
 * the texels (0.5, 0.25, 1, 2) and (2, 4, 0.5, 0.25) is (1, 1, 0.5, 0.5).
 */
static void test_ps1_texture_types(void **state)
{
    (void)state;
    const char *src = "ps_1_1\ntex t0\ntex t1\nmul r0, t0, t1\n";
    const enum st_texture_type any[2] = {ST_TEXTURE_ANY, ST_TEXTURE_ANY},
                               flat[2] = {ST_TEXTURE_2D, ST_TEXTURE_2D},
                               mixed[2] = {ST_TEXTURE_2D, ST_TEXTURE_CUBE};
    struct st_result *r = with_texture_types(src, any, NULL, ST_ENGINE_GEN);
    assert_true(r->ok);
    assert_int_equal(count(r->output, "pln (8|M0)"), 6);
    assert_int_equal(count(r->output, " 0x2 0x0642"), 2); /* sample, mlen 3, rlen 4 */
    st_result_free(r);
    r = with_texture_types(src, flat, NULL, ST_ENGINE_GEN);
    assert_true(r->ok);
    assert_int_equal(count(r->output, "pln (8|M0)"), 4);
    assert_int_equal(count(r->output, " 0x2 0x0442"), 2); /* mlen 2 */
    st_result_free(r);
    r = with_texture_types(src, mixed, NULL, ST_ENGINE_GEN);
    assert_true(r->ok);
    assert_int_equal(count(r->output, " 0x2 0x0442"), 1);
    assert_int_equal(count(r->output, " 0x2 0x0642"), 1);
    st_result_free(r);

    const enum st_texture_type cube[2] = {ST_TEXTURE_CUBE, ST_TEXTURE_ANY};
    r = with_texture_types("ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n", cube, NULL,
                           ST_ENGINE_GEN);
    assert_false(r->ok);
    assert_int_equal(r->num_errors, 1);
    assert_int_equal(r->diagnostics[0].code, 2012);
    assert_int_equal(r->diagnostics[0].line, 3);
    assert_int_equal(r->diagnostics[0].column, 1);
    st_result_free(r);

    const char *json = "{\"textures\": {\"s0\": {\"type\": \"2d\", \"width\": 1, \"height\": 1, "
                       "\"texels\": [[0.5, 0.25, 1, 2]]}, \"s1\": {\"type\": \"2d\", \"width\": 1, "
                       "\"height\": 1, \"texels\": [[2, 4, 0.5, 0.25]]}}, "
                       "\"invocations\": [{\"t0\": [0.5, 0.5, 0.5, 1], \"t1\": [0.5, 0.5, 0.5, 1]}]}";
    const char *cubes = "{\"textures\": {\"s0\": {\"type\": \"cube\", \"width\": 1, \"height\": 1, "
                        "\"texels\": [[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], "
                        "[1, 1, 1, 1], [1, 1, 1, 1]]}}, \"invocations\": [{\"t0\": [1, 0, 0, 1]}]}";
    const enum st_engine engines[3] = {ST_ENGINE_INTERP, ST_ENGINE_LLVM, ST_ENGINE_GEN};
    for (unsigned e = 0; e < 3; e++) {
        r = with_texture_types(src, flat, json, engines[e]);
        assert_true(r->ok);
        assert_non_null(strstr(r->output, "\"oC0\": [1, 1, 0.5, 0.5]"));
        st_result_free(r);
        r = with_texture_types(src, flat, cubes, engines[e]);
        assert_false(r->ok);
        assert_int_equal(r->diagnostics[0].code, 4001);
        st_result_free(r);
    }
}

/* A dot product replicated across the position (`mov oPos, r0` of a dp3):
 * computed in r113, it goes to r114-r116 in two movs, not three: one
 * (W) mov (16) reads r113 twice (<0;8,1>) into r114 and r115.  (And two
 * consecutive attribute GRFs passed through, below.)  dp3 of
 * (1, 2, 3) and (4, 5, 6) is 32 in every lane; of (-1, 0.5, 2) and
 * (4, 5, 6), -4 + 2.5 + 12 = 10.5. */
static void test_replicated_output_paired_copy(void **state)
{
    (void)state;
    const char *src = "vs_2_0\ndcl_position v0\ndp3 r0, v0, c1\nmov oPos, r0\n";
    struct gen_out r = compile(src, 8);
    assert_true(r.ok);
    assert_non_null(strstr(r.text, "(W)       mov (16|M0)    r114.0<1>:f r113.0<0;8,1>:f\n"));
    assert_int_equal(count(r.text, "mov (8|M0)"), 2); /* the handles', and r116 */
    out_free(&r);
    const char *json = "{\"constants\": {\"c1\": [4, 5, 6, 7]}, \"invocations\": "
                       "[{\"v0\": [1, 2, 3, 9]}, {\"v0\": [-1, 0.5, 2, 9]}]}";
    struct st_run_outputs o[2];
    gen_run_json(src, json, 8, o, 2);
    for (unsigned c = 0; c < 4; c++) {
        assert_true(o[0].reg[0].v[c] == 32.0f);
        assert_true(o[1].reg[0].v[c] == 10.5f);
    }

    /* v1.x and v1.y (r7, r8) into oT0.xy (r117, r118): one (W) mov (16)
     * reading both, <8;8,1>; c1.z and c1.w (r2.6, r2.7) into r119, r120:
     * one more, <1;8,0> (each dword eight times) */
    const char *pass = "vs_2_0\ndcl_position v0\ndcl_texcoord v1\nadd oPos, v0, c0\n"
                       "mov oT0.xy, v1\nmov oT0.zw, c1\n";
    r = compile(pass, 8);
    assert_true(r.ok);
    assert_non_null(strstr(r.text, "(W)       mov (16|M0)    r117.0<1>:f r7.0<8;8,1>:f\n"));
    assert_non_null(strstr(r.text, "(W)       mov (16|M0)    r119.0<1>:f r2.6<1;8,0>:f\n"));
    assert_int_equal(count(r.text, "mov (8|M0)"), 1); /* the handles' */
    out_free(&r);
    const char *pin = "{\"constants\": {\"c0\": [1, 2, 3, 4], \"c1\": [9, 9, 0.5, -2]}, "
                      "\"invocations\": [{\"v0\": [1, 1, 1, 1], \"v1\": [0.25, 0.75, 5, 6]}, "
                      "{\"v0\": [0, 0, 0, 0], \"v1\": [-3, 8, 5, 6]}]}";
    gen_run_json(pass, pin, 8, o, 2);
    const float t0[2][4] = {{0.25f, 0.75f, 0.5f, -2}, {-3, 8, 0.5f, -2}};
    for (unsigned k = 0; k < 2; k++)
        assert_memory_equal(o[k].reg[1].v, t0[k], sizeof(t0[k]));
}

/* An instruction whose result is copied into the next GRF of the payload
 * computes both itself, at (W) SIMD16 with its sources read twice
 * (<0;8,1>): `pow r0.x, v0.x, v1.x; mov oPos, r0.x` is one math.pow (16)
 * into r113-r114 and one mov (16) into r115-r116 (three instructions
 * were pow, mov (16), mov (8)); a min by a constant alike.  By hand:
 * |-2|^3 = 8, |0.5|^-1 = 2, and min(3 * 5, 1) = 1, min(0.25 * 2, 1) = 0.5. */
static void test_replicated_result_computed_twice(void **state)
{
    (void)state;
    const char *src = "vs_2_0\ndcl_position v0\ndcl_texcoord v1\npow r0.x, v0.x, v1.x\n"
                      "mov oPos, r0.x\n";
    struct gen_out r = compile(src, 8);
    assert_true(r.ok);
    assert_non_null(strstr(r.text, "(W)       math.pow (16|M0)    r113.0<1>:f (abs)r"));
    assert_non_null(strstr(r.text, "<0;8,1>:f r"));
    assert_non_null(strstr(r.text, "(W)       mov (16|M0)    r115.0<1>:f r113.0<0;8,1>:f\n"));
    assert_int_equal(count(r.text, "mov (8|M0)"), 1); /* the handles' */
    out_free(&r);
    const char *in = "{\"invocations\": [{\"v0\": [-2, 0, 0, 0], \"v1\": [3, 0, 0, 0]}, "
                     "{\"v0\": [0.5, 0, 0, 0], \"v1\": [-1, 0, 0, 0]}]}";
    struct st_run_outputs o[2];
    gen_run_json(src, in, 8, o, 2);
    for (unsigned c = 0; c < 4; c++) {
        assert_true(o[0].reg[0].v[c] == 8.0f);
        assert_true(o[1].reg[0].v[c] == 2.0f);
    }
    const char *mn = "vs_2_0\ndef c0, 1, 0, 0, 0\ndcl_position v0\ndcl_texcoord v1\n"
                     "mul r0.x, v0.x, v1.x\nmin r0.x, r0.x, c0.x\nmov oPos, r0.x\n";
    r = compile(mn, 8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "(W)       sel (16|M0)    (lt)f0.0 r113.0<1>:f r"), 1);
    assert_int_equal(count(r.text, "mov (8|M0)"), 1);
    out_free(&r);
    const char *in2 = "{\"invocations\": [{\"v0\": [3, 0, 0, 0], \"v1\": [5, 0, 0, 0]}, "
                      "{\"v0\": [0.25, 0, 0, 0], \"v1\": [2, 0, 0, 0]}]}";
    gen_run_json(mn, in2, 8, o, 2);
    for (unsigned c = 0; c < 4; c++) {
        assert_true(o[0].reg[0].v[c] == 1.0f);
        assert_true(o[1].reg[0].v[c] == 0.5f);
    }
}

/*
 * At SIMD8 a vector's components are separate instructions; two that do
 * the same to neighbouring GRFs are one (W) SIMD16 instruction
 * (gen/opt_pair.c).  r0 = t0 * t1 + t0.x is two mul (16), the
 * interpolated t0 and t1 renamed into pairs, and two add (16) reading
 * t0.x twice (<0;8,1>) into the colour payload: four instructions, not
 * eight.  Inside a loop nothing pairs (a NoMask write would overwrite the
 * lanes of channels that left it).  By hand:
 *   t0 = (1, 2, 3, 4), t1 = (0.5, -1, 0.25, 2): (1.5, -1, 1.75, 9);
 *   t0 = (-0, 2, inf, -3), t1 = (0, -0.5, 0, 0.5): (-0 * 0 + -0, -1,
 *   inf * 0 = NaN, -1.5) = (-0, -1, NaN, -1.5);
 *   in the loop, v0 * v1^3 for v0 = (1, 2, 3, 4), v1 = (2, 0.5, -1, 1):
 *   (8, 0.25, -3, 4).
 */
static void test_components_paired_at_simd8(void **state)
{
    (void)state;
    const char *src = "ps_2_0\ndcl t0\ndcl t1\nmul r0, t0, t1\nadd r0, r0, t0.x\nmov oC0, r0\n";
    const char *loop = "ps_3_0\ndefi i0, 3, 0, 1, 0\ndcl_texcoord0 v0\ndcl_texcoord1 v1\n"
                       "mov r0, v0\nrep i0\nmul r0, r0, v1\nendrep\nmov oC0, r0\n";
    struct gen_out r = compile(src, 8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "(W)       mul (16|M0)"), 2);
    assert_int_equal(count(r.text, "(W)       add (16|M0)"), 2);
    assert_int_equal(count(r.text, "<0;8,1>:f"), 2);
    assert_int_equal(count(r.text, " (8|M0)") - count(r.text, "pln (8|M0)"), 1); /* the write */
    out_free(&r);
    r = compile(loop, 8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "mul (8|M0)"), 4);
    assert_int_equal(count(r.text, "mul (16|M0)"), 0);
    out_free(&r);
    const char *in = "{\"invocations\": [{\"t0\": [1, 2, 3, 4], \"t1\": [0.5, -1, 0.25, 2]}, "
                     "{\"t0\": [-0.0, 2, \"inf\", -3], \"t1\": [0, -0.5, 0, 0.5]}]}";
    const float want[2][4] = {{1.5f, -1.0f, 1.75f, 9.0f}, {-0.0f, -1.0f, NAN, -1.5f}};
    for (unsigned simd = 8; simd <= 16; simd += 8) {
        struct st_run_outputs o[2];
        gen_run_json(src, in, simd, o, 2);
        for (unsigned j = 0; j < 2; j++)
            for (unsigned c = 0; c < 4; c++)
                assert_true(isnan(want[j][c]) ? isnan(o[j].reg[0].v[c])
                                               : same_f(o[j].reg[0].v[c], want[j][c]));
    }
    struct st_run_outputs o[1];
    gen_run_json(loop, "{\"invocations\": [{\"v0\": [1, 2, 3, 4], \"v1\": [2, 0.5, -1, 1]}]}", 8,
                 o, 1);
    const float cube[4] = {8.0f, 0.25f, -3.0f, 4.0f};
    assert_memory_equal(o[0].reg[0].v, cube, sizeof(cube));
}

/* Four different constants into the four GRFs of an output at SIMD8 are a
 * (W) mov (4) of a :vf quad and two (W) mov (16) reading two of its dwords
 * each (<1;8,0>): three instructions, not four.  With two equal
 * neighbours, gen/opt_pair.c joins those two instead and no quad is built.
 * The colours come out as defined: (1, 0.5, 0.25, 2) and (1, 1, 2, 3). */
static void test_constant_output_from_quad(void **state)
{
    (void)state;
    const char *src = "ps_2_0\ndef c0, 1, 0.5, 0.25, 2\nmov oC0, c0\n";
    const char *eq = "ps_2_0\ndef c0, 1, 1, 2, 3\nmov oC0, c0\n";
    struct gen_out r = compile(src, 8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, ":vf"), 1);
    assert_int_equal(count(r.text, "<1;8,0>:f"), 2);
    assert_int_equal(count(r.text, "mov (8|M0)"), 0);
    out_free(&r);
    r = compile(eq, 8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, ":vf"), 0);
    out_free(&r);
    const char *in = "{\"invocations\": [{}, {}]}";
    struct st_run_outputs o[2];
    gen_run_json(src, in, 8, o, 2);
    const float want[4] = {1, 0.5f, 0.25f, 2};
    assert_memory_equal(o[1].reg[0].v, want, sizeof(want));
    gen_run_json(eq, in, 8, o, 2);
    const float want2[4] = {1, 1, 2, 3};
    assert_memory_equal(o[1].reg[0].v, want2, sizeof(want2));
}

/* Two like operations into consecutive GRFs of a payload are one (W)
 * SIMD16 instruction too: oT0 = c1 * c2 is two (W) mul (16), each reading
 * two dwords of each constant (<1;8,0>), and oPos = v0 + c3 two (W) add
 * (16) over two GRFs of v0.  c1 * c2 = (1, 2, 3, 4) * (0.5, 0.25, -1, 2). */
static void test_paired_alu_ops(void **state)
{
    (void)state;
    const char *src = "vs_2_0\ndcl_position v0\nadd oPos, v0, c3\nmul oT0, c1, c2\n";
    struct gen_out r = compile(src, 8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "(W)       mul (16|M0)"), 2);
    assert_int_equal(count(r.text, "(W)       add (16|M0)"), 2);
    assert_non_null(strstr(r.text, ":f r2.4<1;8,0>:f r3.0<1;8,0>:f\n")); /* c1.x, c2.x */
    assert_int_equal(count(r.text, "mul (8|M0)") + count(r.text, "add (8|M0)"), 0);
    out_free(&r);
    const char *json = "{\"constants\": {\"c1\": [1, 2, 3, 4], \"c2\": [0.5, 0.25, -1, 2], "
                       "\"c3\": [10, 20, 30, 40]}, \"invocations\": [{\"v0\": [1, 2, 3, 4]}, "
                       "{\"v0\": [-1, -2, -3, -4]}]}";
    struct st_run_outputs o[2];
    gen_run_json(src, json, 8, o, 2);
    const float pos[2][4] = {{11, 22, 33, 44}, {9, 18, 27, 36}}, t0[4] = {0.5f, 0.5f, -3, 8};
    for (unsigned k = 0; k < 2; k++) {
        assert_memory_equal(o[k].reg[0].v, pos[k], sizeof(pos[k]));
        assert_memory_equal(o[k].reg[1].v, t0, sizeof(t0));
    }
}

/* Gen9 has no SIMD16 sample_d: a SIMD16 texldd sends one message per
 * eight channels (u from the SIMD16 coordinate in place, as Mesa does).
 * The adds that read the texel run as SIMD8 halves, each reading its
 * message's response where it arrived, rather than the responses being
 * gathered into SIMD16 values first (eight movs for four adds more).  A
 * 1x1 texture: every pixel gets (1, 2, 3, 4) + c2. */
static void test_sample_d_halves_read_responses(void **state)
{
    (void)state;
    const char *src = "ps_3_0\ndcl_texcoord0 v0.xy\ndcl_2d s0\ntexldd r0, v0, s0, c0, c1\n"
                      "add oC0, r0, c2\n";
    struct gen_out r = compile(src, 16);
    assert_true(r.ok);
    /* u, each message's first parameter, read where pln computed it (a
     * split send, src0 mlen 1, src1 the other five: ExDesc 0x142) */
    assert_int_equal(count(r.text, "sends (8|M"), 2);
    assert_int_equal(count(r.text, " 0x142 0x02424009"), 2);
    assert_int_equal(count(r.text, "add (8|M0)"), 4);
    assert_int_equal(count(r.text, "add (8|M8)"), 4);
    assert_int_equal(count(r.text, "mov ("), 10); /* the two payloads' other five parameters */
    out_free(&r);
    char json[4096];
    size_t n = (size_t)snprintf(json, sizeof(json),
                                "{\"constants\": {\"c0\": [0.5, 0, 0, 0], \"c1\": [0, 0.5, 0, 0], "
                                "\"c2\": [0.25, -1, 8, 0.5]}, \"textures\": {\"s0\": {\"type\": \"2d\", "
                                "\"width\": 1, \"height\": 1, \"texels\": [[1, 2, 3, 4]]}}, "
                                "\"invocations\": [");
    for (unsigned k = 0; k < 16; k++)
        n += (size_t)snprintf(json + n, sizeof(json) - n, "%s{\"v0\": [%u, 0.5, 0, 1]}", k ? ", " : "", k);
    snprintf(json + n, sizeof(json) - n, "]}");
    struct st_run_outputs o[16];
    gen_run_json(src, json, 16, o, 16);
    const float want[4] = {1.25f, 1, 11, 4.5f};
    for (unsigned k = 0; k < 16; k++)
        assert_memory_equal(o[k].reg[0].v, want, sizeof(want));
}

/* The kill test compares each distinct operand once: KIL t.yyyy is one
 * compare (it was four of the same register), and a texkill whose
 * operand is a constant not below 0 compares nothing (its kill status
 * stays the 0 it starts with).
 * Pixels with texcoord y = -1 and 0.5 at SIMD8 and 16: the first is
 * discarded, the second keeps its colour (the texcoord). */
static void test_kill_compares_distinct_operands(void **state)
{
    (void)state;
    const char *fp = "!!ARBfp1.0\nTEMP t;\nMOV t, fragment.texcoord[0];\nKIL t.yyyy;\n"
                     "MOV result.color, t;\nEND\n";
    struct gen_out r = compile(fp, 16);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "cmp ("), 1);
    out_free(&r);
    r = compile("ps_2_0\ndef c0, 0, 1, 2, 0.5\nmov r0, c0\ntexkill r0\nmov oC0, r0\n", 8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "cmp ("), 0);
    out_free(&r);
    const char *in = "{\"invocations\": [{\"fragment.texcoord[0]\": [1, -1, 0, 1]}, "
                     "{\"fragment.texcoord[0]\": [0.25, 0.5, 2, 1]}]}";
    for (unsigned simd = 8; simd <= 16; simd *= 2) {
        struct st_run_outputs o[2];
        gen_run_json(fp, in, simd, o, 2);
        assert_true(o[0].discarded);
        assert_false(o[1].discarded);
        const float want[4] = {0.25f, 0.5f, 2, 1};
        assert_memory_equal(o[1].reg[0].v, want, sizeof(want));
    }
}

/*
 * D3D9 lrp is Gen's `lrp`, one instruction a lane, whose exact value is
 * rounded once (docs/gensim.md, rule 1); with --fp-contract=off the
 * steps src2 + src0 * (src1 - src2).  Worked by hand, lanes x..w:
 * - lrp(0.5, 1, -2^-24) = 0.5 * 1 + 0.5 * -2^-24 = 0.5 - 2^-25, a float;
 *   the steps round 1 + 2^-24 (a tie) to 1 and give 0.5 - 2^-24;
 * - lrp(0, -0, -0) = 0 * -0 + 1 * -0 = -0 + -0 = -0; the steps give
 *   -0 + 0 * (+0) = +0;
 * - lrp(0.5, inf, inf) = inf + inf = inf; the steps inf + 0.5 * NaN = NaN;
 * - lrp(2, 3, 5) = 6 - 5 = 1 either way.
 */
static void test_d3d9_lrp_rounds_once(void **state)
{
    (void)state;
    const char *src = "vs_2_0\ndcl_position v0\nlrp oPos, v0, c0, c1\n";
    struct gen_out r = compile(src, 8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "lrp (8|M0)"), 4);
    assert_int_equal(count(r.text, "mad (8|M0)"), 0);
    out_free(&r);
    const char *in = "{\"constants\": {\"c0\": [1, -0.0, \"inf\", 3], "
                     "\"c1\": [-5.9604644775390625e-08, -0.0, \"inf\", 5]}, "
                     "\"invocations\": [{\"v0\": [0.5, 0, 0.5, 2]}]}";
    struct st_run_outputs o[1];
    gen_run_json_ex(src, in, 8, ST_FLOAT_IEEE, ST_FP_CONTRACT_ON, o, 1);
    assert_true(o[0].reg[0].v[0] == 0.5f - 0x1p-25f);
    assert_true(same_f(o[0].reg[0].v[1], -0.0f));
    assert_true(o[0].reg[0].v[2] == INFINITY);
    assert_true(o[0].reg[0].v[3] == 1.0f);
    gen_run_json_ex(src, in, 8, ST_FLOAT_IEEE, ST_FP_CONTRACT_OFF, o, 1);
    assert_true(o[0].reg[0].v[0] == 0.5f - 0x1p-24f);
    assert_true(same_f(o[0].reg[0].v[1], 0.0f));
    assert_true(isnan(o[0].reg[0].v[2]));
    assert_true(o[0].reg[0].v[3] == 1.0f);
}

/*
 * f32 denormals are kept in a pixel shader with no cr0 instruction: the
 * thread starts with cr0.0 bit 7 set (3DSTATE_PS's denormal mode,
 * docs/gen-abi.md), which the Gen engine models.  By hand: 1e-40f is the
 * denormal 0x000116c2; doubling a denormal is exact, 0x00022d84.  Had the
 * thread started with the reset cr0, the product would flush to +0.  A
 * vertex shader still sets the bit itself.
 */
static void test_ps_denormals_kept_by_thread_state(void **state)
{
    (void)state;
    const char *ps = "ps_2_0\nmul r0, c0, c1\nmov oC0, r0\n";
    const char *in = "{\"constants\": {\"c0\": [1e-40, -1e-40, 1, 0], \"c1\": [2, 2, 2, 2]}, "
                     "\"invocations\": [{}]}";
    for (unsigned simd = 8; simd <= 32; simd *= 2) {
        struct gen_out r = compile(ps, simd);
        assert_true(r.ok);
        assert_null(strstr(r.text, "cr0"));
        assert_non_null(strstr(r.text, "3DSTATE_PS Single Precision Denormal Mode = Retained"));
        out_free(&r);
        struct st_run_outputs o[1];
        gen_run_json(ps, in, simd, o, 1);
        uint32_t bits[4];
        memcpy(bits, o[0].reg[0].v, sizeof(bits));
        assert_int_equal(bits[0], 0x00022d84u);
        assert_int_equal(bits[1], 0x80022d84u);
        assert_int_equal(bits[2], 0x40000000u);
        assert_int_equal(bits[3], 0u);
    }
    struct gen_out v = compile("vs_2_0\nmul oPos, c0, c1\n", 8);
    assert_true(v.ok);
    assert_int_equal(count(v.text, "(W)       or (1|M0)      cr0.0<1>:ud cr0.0<0;1,0>:ud 0x80:ud"), 1);
    out_free(&v);
}

/*
 * D3D9's rcp guards -0 with x + 0 (its rcp(-0) is +inf), but a squared
 * length (x*x, then mads adding y*y and z*z) is never -0: each product is
 * +0 or more and so is each fused sum, so the guard goes
 * (gen/opt_fold.c fold_add_zero).  A dot product with another vector
 * keeps it, and needs it: with v0 = (-0, -0, -0) and c0 = (1, 1, 1) the
 * sum is -0 + -0 + -0 = -0, whose reciprocal without the guard would be
 * -inf.  By hand, for the squared length of v0: (-0, -0, -0) -> +0 ->
 * +inf; (3, 4, 0) -> 25 -> 0.04 (the float nearest 1/25); (1e-30, 0, 0)
 * and (-1e-30, 0, 0) -> 1e-60, which rounds to +0 -> +inf.
 */
static void test_rcp_of_squared_length_unguarded(void **state)
{
    (void)state;
    const char *len = "vs_2_0\ndcl_position v0\ndp3 r0.x, v0, v0\nrcp r1, r0.x\nmov oPos, r1\n";
    const char *dot = "vs_2_0\ndcl_position v0\ndp3 r0.x, v0, c0\nrcp r1, r0.x\nmov oPos, r1\n";
    const char *prod = "vs_2_0\ndcl_position v0\nmul r0.x, v0.x, v0.y\nrcp r1, r0.x\nmov oPos, r1\n";
    struct gen_out r = compile(len, 8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "add ("), 0);
    assert_int_equal(count(r.text, "math.inv"), 1);
    out_free(&r);
    r = compile(dot, 8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "add ("), 1);
    out_free(&r);
    r = compile(prod, 8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "add ("), 1);
    out_free(&r);

    const char *in = "{\"invocations\": [{\"v0\": [-0.0, -0.0, -0.0, 1]}, {\"v0\": [3, 4, 0, 1]}, "
                     "{\"v0\": [1e-30, 0, 0, 1]}, {\"v0\": [-1e-30, 0, 0, 1]}]}";
    const float want[4] = {INFINITY, 1.0f / 25.0f, INFINITY, INFINITY};
    struct st_run_outputs o[4];
    gen_run_json(len, in, 8, o, 4);
    for (unsigned i = 0; i < 4; i++) {
        const float w[4] = {want[i], want[i], want[i], want[i]};
        assert_memory_equal(o[i].reg[0].v, w, sizeof(w));
    }
    const char *in1 = "{\"constants\": {\"c0\": [1, 1, 1, 1]}, "
                      "\"invocations\": [{\"v0\": [-0.0, -0.0, -0.0, 1]}]}";
    gen_run_json(dot, in1, 8, o, 1);
    const float inf4[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
    assert_memory_equal(o[0].reg[0].v, inf4, sizeof(inf4));
}

/*
 * A power written as exp2(k log2|x|) (log, mul by a constant, exp: what a
 * ps_2_0 compiler emits for pow) is one math.pow of |x|, or for k = 2 the
 * square x * x; a pow instruction by 2 is that square too (|x|^2 rounded
 * once is the float product).  ARB's LG2 is log2|x| as well
 * (docs/arb.md), so LG2, MUL, EX2 is one pow.  Not for k = 0 (0 * log2 0
 * is NaN where 0^0 is 1).  By hand, x = (4, -3, 0, 1): 4^3.5 = 128, (-3)^2 = 9,
 * pow(0, 2) = 0 and 1^3.5 = 1; x = (-4, 1e20, inf, 1): 128, 1e40
 * overflowing to inf, inf and 1.
 */
static void test_exp_of_scaled_log_is_pow(void **state)
{
    (void)state;
    const char *src = "ps_2_0\n"
                      "def c0, 3.5, 2, 0, 1\n"
                      "dcl t0\n"
                      "log r0.x, t0.x\n"
                      "mul r0.x, r0.x, c0.x\n"
                      "exp r1.x, r0.x\n"
                      "log r0.y, t0.y\n"
                      "mul r0.y, c0.y, r0.y\n"
                      "exp r1.y, r0.y\n"
                      "pow r1.z, t0.z, c0.y\n"
                      "log r0.w, t0.w\n"
                      "mul r0.w, r0.w, c0.x\n"
                      "exp r1.w, r0.w\n"
                      "mov oC0, r1\n";
    struct gen_out r = compile(src, 8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "math.log"), 0);
    assert_int_equal(count(r.text, "math.exp"), 0);
    assert_int_equal(count(r.text, "math.pow"), 2);
    assert_int_equal(count(r.text, "mul ("), 2);
    out_free(&r);
    r = compile("ps_2_0\ndef c0, 0, 0, 0, 0\ndcl t0\nlog r0.x, t0.x\nmul r0.x, r0.x, c0.x\n"
                "exp r1, r0.x\nmov oC0, r1\n",
                8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "math.pow"), 0);
    out_free(&r);
    r = compile("!!ARBfp1.0\nTEMP t;\nLG2 t.x, fragment.texcoord[0].x;\nMUL t.x, t.x, 3.5;\n"
                "EX2 result.color, t.x;\nEND\n",
                8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "math.pow"), 1);
    assert_int_equal(count(r.text, "math.log"), 0);
    out_free(&r);

    const char *in = "{\"invocations\": [{\"t0\": [4, -3, 0, 1]}, "
                     "{\"t0\": [-4, 1e20, \"inf\", 1]}]}";
    const float want[2][4] = {{128, 9, 0, 1}, {128, INFINITY, INFINITY, 1}};
    static const unsigned widths[3] = {8, 16, 32};
    for (unsigned w = 0; w < 3; w++) {
        struct st_run_outputs o[2];
        gen_run_json(src, in, widths[w], o, 2);
        for (unsigned i = 0; i < 2; i++)
            assert_memory_equal(o[i].reg[0].v, want[i], sizeof(want[i]));
    }
}

/*
 * ARB's RCP is the IEEE quotient (its one named value, RCP(1) = 1, is
 * the quotient's): one math.inv, no x + 0 in front of it; D3D9's rcp
 * keeps +inf for -0 with the add.  By hand: 1/-0 = -inf, 1/+0 = +inf,
 * 1/1 = 1, 1/4 = 0.25, and D3D9 gives +inf, +inf, 1, 0.25.
 */
static void test_arb_rcp_is_the_quotient(void **state)
{
    (void)state;
    const char *fp = "!!ARBfp1.0\nPARAM p = program.local[0];\n"
                     "RCP result.color.x, p.x;\nRCP result.color.y, p.y;\n"
                     "RCP result.color.z, p.z;\nRCP result.color.w, p.w;\nEND\n";
    const char *ps = "ps_2_0\nrcp r0.x, c0.x\nrcp r0.y, c0.y\nrcp r0.z, c0.z\nrcp r0.w, c0.w\n"
                     "mov oC0, r0\n";
    struct gen_out r = compile(fp, 8);
    assert_true(r.ok);
    assert_int_equal(lanes(r.text, "math.inv ("), 32);
    assert_int_equal(count(r.text, "add ("), 0);
    out_free(&r);
    r = compile(ps, 8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "math.inv (1|M0)"), 4); /* of uniform values */
    assert_true(count(r.text, "add (") >= 1);
    out_free(&r);
    struct st_run_outputs o[1];
    gen_run_json(fp, "{\"constants\": {\"program.local[0]\": [-0.0, 0, 1, 4]}, \"invocations\": [{}]}",
                 8, o, 1);
    const float arb[4] = {-INFINITY, INFINITY, 1.0f, 0.25f};
    assert_memory_equal(o[0].reg[0].v, arb, sizeof(arb));
    gen_run_json(ps, "{\"constants\": {\"c0\": [-0.0, 0, 1, 4]}, \"invocations\": [{}]}", 8, o, 1);
    const float d3d9[4] = {INFINITY, INFINITY, 1.0f, 0.25f};
    assert_memory_equal(o[0].reg[0].v, d3d9, sizeof(d3d9));
}

/*
 * pow is one math.pow of |x|, and its special values are the function's
 * (C99 F.9.4.4), worked out by hand, under both float rules (the d3d9
 * rule's reading of the expansion exp2(y * log2 |x|) gives the same):
 *   0^0 = 1, |-1|^NaN = 1, NaN^0 = 1, 0^-1 = +inf;
 *   inf^0 = 1, |-0|^2 = +0, 4^-0.5 = 0.5 (exact), |-2|^3 = 8 (exact).
 */
static void test_pow_is_one_math_pow(void **state)
{
    (void)state;
    const char *src = "vs_2_0\ndcl_texcoord0 v0\ndcl_texcoord1 v1\n"
                      "pow r0.x, v0.x, v1.x\npow r0.y, v0.y, v1.y\n"
                      "pow r0.z, v0.z, v1.z\npow r0.w, v0.w, v1.w\nmov oPos, r0\n";
    struct gen_out r = compile(src, 8);
    assert_true(r.ok);
    assert_int_equal(lanes(r.text, "math.pow ("), 32);
    assert_int_equal(count(r.text, "math.log"), 0);
    assert_int_equal(count(r.text, "math.exp"), 0);
    out_free(&r);
    const char *in = "{\"invocations\": ["
                     "{\"v0\": [0, -1, \"nan\", 0], \"v1\": [0, \"nan\", 0, -1]},"
                     "{\"v0\": [\"inf\", -0.0, 4, -2], \"v1\": [0, 2, -0.5, 3]}]}";
    const float want[2][4] = {{1.0f, 1.0f, 1.0f, INFINITY}, {1.0f, 0.0f, 0.5f, 8.0f}};
    for (int rule = 0; rule < 2; rule++) {
        struct st_run_outputs o[2];
        gen_run_json_ex(src, in, 8, rule ? ST_FLOAT_D3D9 : ST_FLOAT_IEEE, ST_FP_CONTRACT_ON, o, 2);
        for (unsigned j = 0; j < 2; j++)
            for (unsigned c = 0; c < 4; c++)
                assert_true(same_f(o[j].reg[0].v[c], want[j][c]));
    }
}

/*
 * (sat) is _sat (-0 kept, NaN -> +0), so it goes on the instruction that
 * computes the value: no mov.sat and no add.sat x, 0.0 is left.  Values
 * worked out by hand (test_llvm.c's test_saturate_keeps_negative_zero has
 * the same shader on every engine): v0 = (0, 1e-30, -0.25, 2), NaN in the
 * second invocation;
 *   mad_sat v0 * (-2, -1e-30, 3, 1) + (-0, 0.5, 0.75, 0) = (-0, 0.5, +0, 1);
 *   mul_sat v0 * (-1e-30, -1e-30, -4, 0.25) = (-0, -0, 1, 0.5);
 *   NaN gives +0 in both.
 */
static void test_saturate_folds_into_producer(void **state)
{
    (void)state;
    const char *src = "ps_3_0\n"
                      "def c0, -2, -1e-30, 3, 1\n"
                      "def c1, -0.0, 0.5, 0.75, 0\n"
                      "def c2, -1e-30, -1e-30, -4, 0.25\n"
                      "dcl_texcoord0 v0\n"
                      "mad_sat r0, v0, c0, c1\n"
                      "mul_sat r1, v0, c2\n"
                      "mov oC0, r0\n"
                      "mov oC1, r1\n";
    struct gen_out r = compile(src, 8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "mov (8|M0)     (sat)"), 0);
    assert_int_equal(lanes(r.text, "(sat)r"), 64); /* eight components */
    assert_int_equal(lanes(r.text, "mad ("), 24); /* the fourth is x * 1 + 0: an add */
    assert_int_equal(lanes(r.text, "mul ("), 32);
    out_free(&r);
    const char *json = "{\"invocations\": [{\"v0\": [0, 1e-30, -0.25, 2]},"
                       " {\"v0\": [\"nan\", \"nan\", \"nan\", \"nan\"]}]}";
    const float want[2][4] = {{-0.0f, 0.5f, 0.0f, 1.0f}, {-0.0f, -0.0f, 1.0f, 0.5f}};
    for (unsigned simd = 8; simd <= 16; simd += 8) {
        struct st_run_outputs o[2];
        gen_run_json(src, json, simd, o, 2);
        for (unsigned j = 0; j < 2; j++)
            for (unsigned c = 0; c < 4; c++) {
                assert_true(same_f(o[0].reg[j].v[c], want[j][c]));
                assert_true(same_f(o[1].reg[j].v[c], 0.0f));
            }
    }
    /* --pp=fp16: the product is rounded to half before _sat, so the clamp
     * stays off the :hf mul (which would clamp the f32 value first) and
     * goes on the exact conversion to float instead.  By hand: 2^-10 *
     * -2^-15 = -2^-25, a tie between -0 and -2^-24 that rounds to even, -0,
     * kept by _sat, times 2^-10 = -0; +2^-25 -> +0 the same way; -0.375 ->
     * +0; NaN -> +0, times NaN = NaN. */
    const char *hsrc = "ps_2_0\ndcl t0\ndcl t1\nmul_sat_pp r0, t0, t1\nmul r1, r0, t0\nmov oC0, r1\n";
    r = compile_pp(hsrc, 8, true);
    assert_true(r.ok);
    char buf[160];
    assert_int_equal(count(r.text, "(sat)"), 4);
    assert_int_equal(count(r.text, "mov (8|M0)     (sat)"), 4);
    assert_non_null(strstr(line_with(r.text, "(sat)", buf, sizeof(buf)), "<1>:f r"));
    assert_non_null(strstr(buf, "<8;8,1>:hf"));
    out_free(&r);
    const char *hjson = "{\"invocations\": [{\"t0\": [0.0009765625, 0.0009765625, 0.75, \"nan\"],"
                        " \"t1\": [-0.000030517578125, 0.000030517578125, -0.5, 1]}]}";
    for (unsigned simd = 8; simd <= 16; simd += 8)
        for (int e = 0; e < 3; e++) {
            enum st_engine eng = e == 0 ? ST_ENGINE_INTERP : e == 1 ? ST_ENGINE_LLVM : ST_ENGINE_GEN;
            char *out = run_pp_unfused(hsrc, hjson, eng, simd);
            assert_non_null(out);
            if (!strstr(out, "\"oC0\": [-0, 0, 0, \"nan\"]"))
                fail_msg("engine %d, SIMD%u: %s", e, simd, out);
            free(out);
        }
}

/*
 * max(x, 0) then min(., 1) is _sat bit for bit (opt_fold.c
 * fold_clamp_sat), so oC0 is one mov.sat per channel; min before max is
 * not (min(NaN, 1) = 1, max(1, 0) = 1 where _sat gives 0), so oC1 keeps
 * its sels.  By hand, Direct3D 9 max/min ((a >= b) ? a : b, (a < b) ?
 * a : b): x = -2 -> 0, -0 -> -0 (-0 >= 0), 0.25 -> 0.25, 3 -> 1 for both
 * orders; NaN -> 0 for max-then-min, 1 for min-then-max.
 */
static void test_clamp_to_one_is_saturate(void **state)
{
    (void)state;
    const char *src = "ps_3_0\n"
                      "def c0, 0, 1, 0, 0\n"
                      "dcl_texcoord0 v0\n"
                      "max r0, v0, c0.x\n"
                      "min oC0, r0, c0.y\n"
                      "min r1, v0, c0.y\n"
                      "max oC1, r1, c0.x\n";
    struct gen_out r = compile(src, 8);
    assert_true(r.ok);
    assert_int_equal(lanes(r.text, "mov ("), 32);
    assert_int_equal(count(r.text, "(sat)"), count(r.text, "mov ("));
    assert_int_equal(lanes(r.text, "sel ("), 64); /* oC1's min and max */
    out_free(&r);
    const char *json = "{\"invocations\": [{\"v0\": [-2, -0.0, 0.25, 3]},"
                       " {\"v0\": [\"nan\", \"nan\", \"nan\", \"nan\"]}]}";
    const float want[4] = {0.0f, -0.0f, 0.25f, 1.0f};
    for (unsigned simd = 8; simd <= 16; simd += 8) {
        struct st_run_outputs o[2];
        gen_run_json(src, json, simd, o, 2);
        for (unsigned j = 0; j < 2; j++)
            for (unsigned c = 0; c < 4; c++) {
                assert_true(same_f(o[0].reg[j].v[c], want[c]));
                assert_true(same_f(o[1].reg[j].v[c], j == 0 ? 0.0f : 1.0f));
            }
    }
}

/*
 * ARB LIT's clamps keep NaN (`x < 0 ? 0 : x`) and z is `x > 0 ? y^w : 0`:
 * three compares with zero whose sels choose 0.0, each a csel reading one
 * `(W) mov (1)` of 0.0 (gen/opt_fold.c); the power's clamp to
 * +-(128 - 2^-17) keeps its compares.  By hand, a = (x, y, 0, w = 1):
 * (-2, -3): (1, 0, 0, 1); (NaN, NaN): (1, NaN, 0, 1), x kept and not > 0;
 * (-0, 0.5): (1, -0, 0, 1), -0 < 0 false keeps -0; (2, 0.5): (1, 2, 0.5^1
 * = 0.5, 1).
 */
static void test_arb_lit_csel_constant_register(void **state)
{
    (void)state;
    const char *src = "!!ARBvp1.0\n"
                      "ATTRIB a = vertex.color;\n"
                      "LIT result.position, a;\n"
                      "END\n";
    struct gen_out r = compile(src, 8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "csel (8|M0)"), 3);
    assert_int_equal(count(r.text, "(W)       mov (1|M0)"), 1);
    assert_int_equal(count(r.text, "0.0:f"), 1); /* only that mov's immediate */
    assert_int_equal(count(r.text, "cmp (8|M0)"), 2);
    out_free(&r);
    const char *json = "{\"invocations\": [{\"vertex.color\": [-2, -3, 0, 1]},"
                       " {\"vertex.color\": [\"nan\", \"nan\", 0, 1]},"
                       " {\"vertex.color\": [-0.0, 0.5, 0, 1]},"
                       " {\"vertex.color\": [2, 0.5, 0, 1]}]}";
    const float nan = __builtin_nanf("");
    const float want[4][4] = {{1, 0, 0, 1}, {1, nan, 0, 1}, {1, -0.0f, 0, 1}, {1, 2, 0.5f, 1}};
    struct st_run_outputs o[4];
    gen_run_json(src, json, 8, o, 4);
    for (unsigned j = 0; j < 4; j++)
        for (unsigned c = 0; c < 4; c++)
            assert_true(c == 1 && j == 1 ? isnan(o[j].reg[0].v[c])
                                         : same_f(o[j].reg[0].v[c], want[j][c]));
}

/*
 * A value computed twice, first into its output's URB slot: `log oT3, w`
 * writes log2 |w| in the slot (the other components copied from it) and
 * logp of the same w reads it there, so the kernel has one math.log
 * (gen/opt_cse.c).  By hand: w = 8: log2 8 = 3, logp's partial precision
 * (low 8 mantissa bits cleared) keeps 3.0 (0x40400000); w = -0.25: -2.
 */
static void test_cse_reads_output_slot(void **state)
{
    (void)state;
    const char *src = "vs_1_1\n"
                      "dcl_position v0\n"
                      "mov oPos, v0\n"
                      "log oT3, v0.w\n"
                      "logp r1.z, v0.w\n"
                      "mov oT1, r1.z\n";
    struct gen_out r = compile(src, 8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "math.log"), 1);
    out_free(&r);
    const char *json = "{\"invocations\": [{\"v0\": [0, 0, 0, 8]}, {\"v0\": [0, 0, 0, -0.25]}]}";
    struct st_run_outputs o[2];
    gen_run_json(src, json, 8, o, 2);
    for (unsigned j = 0; j < 2; j++)
        for (unsigned k = 1; k < 3; k++) /* oT3 and oT1 after oPos */
            for (unsigned c = 0; c < 4; c++)
                assert_true(o[j].reg[k].v[c] == (j == 0 ? 3.0f : -2.0f));
}

/*
 * Outputs computed before a branch (o0) or in both of its arms (o1) go
 * into the URB payload where they are computed (gen/opt_payload.c): the
 * only copies into r112-r127 left are o2's, an input passed through.  By
 * hand, c0..c3 the identity, c4 = (1, 2, 3, 4), c5 = (5, 6, 7, 8), c6.x =
 * 0: v0 = (2, 3, 4, 1) gives o0 = v0, o1 = c4, o2 = v0; v0 = (-2, 3, 4, 1)
 * gives o1 = c5.
 */
static void test_outputs_computed_in_their_urb_slots(void **state)
{
    (void)state;
    const char *src = "vs_3_0\n"
                      "dcl_position v0\n"
                      "dcl_position o0\n"
                      "dcl_texcoord0 o1\n"
                      "dcl_color0 o2\n"
                      "m4x4 o0, v0, c0\n"
                      "if_gt v0.x, c6.x\n"
                      "mov o1, c4\n"
                      "else\n"
                      "mov o1, c5\n"
                      "endif\n"
                      "mov o2, v0\n";
    struct gen_out r = compile(src, 8);
    assert_true(r.ok);
    /* GRF-to-GRF movs: none.  o0 and o1 are computed in place; o2 passes
     * v0 through, written from its GRFs while o0 and o1 end the thread */
    unsigned copies = 0;
    for (const char *l = r.text; *l;) {
        const char *e = strchr(l, '\n');
        size_t n = e ? (size_t)(e - l) : strlen(l);
        if (n > 26 && strncmp(l, "          mov (8|M0)     r", 26) == 0 &&
            strncmp(l + n - 9, "<8;8,1>:f", 9) == 0)
            copies++;
        l += n + (e ? 1 : 0);
    }
    assert_int_equal(copies, 0);
    out_free(&r);
    const char *json = "{\"constants\": {\"c0\": [1, 0, 0, 0], \"c1\": [0, 1, 0, 0],"
                       " \"c2\": [0, 0, 1, 0], \"c3\": [0, 0, 0, 1], \"c4\": [1, 2, 3, 4],"
                       " \"c5\": [5, 6, 7, 8], \"c6\": [0, 0, 0, 0]},"
                       " \"invocations\": [{\"v0\": [2, 3, 4, 1]}, {\"v0\": [-2, 3, 4, 1]}]}";
    struct st_run_outputs o[2];
    gen_run_json(src, json, 8, o, 2);
    const float v[2][4] = {{2, 3, 4, 1}, {-2, 3, 4, 1}}, c4[4] = {1, 2, 3, 4}, c5[4] = {5, 6, 7, 8};
    for (unsigned j = 0; j < 2; j++)
        for (unsigned c = 0; c < 4; c++) {
            assert_true(o[j].reg[0].v[c] == v[j][c]);
            assert_true(o[j].reg[1].v[c] == (j == 0 ? c4[c] : c5[c]));
            assert_true(o[j].reg[2].v[c] == v[j][c]);
        }
}

/*
 * The fused reading's order of a dot product (st_op_dot_term): a DP4
 * starts from its w term, DPH and dp2add from their addend, and the
 * kernel computes the same chain, so a w = 1 costs no instruction.
 * Worked by hand with a = 1 + 2^-23 (a * a = 1 + 2^-22 + 2^-46),
 * W = -(1 + 2^-22) and the terms (a * a, 0 * 0, 1 * 2^-40, W):
 *   w first (fused): fmaf(a, a, W) = 2^-46 exactly, fmaf(0, 0, 2^-46) =
 *     2^-46, fmaf(1, 2^-40, 2^-46) = 2^-40 + 2^-46 (exact);
 *   x first (the old fused order): a * a rounds to 1 + 2^-22, + 0, then
 *     fmaf(1, 2^-40, 1 + 2^-22) rounds back to 1 + 2^-22 (2^-40 is below
 *     half its ulp, 2^-24), + W = 0;
 *   w, z, y, x: fmaf(1, 2^-40, W) rounds to W, then fmaf(a, a, W) = 2^-46;
 *   unfused (each product rounded, x first): 0, as the old order.
 * DPH(p, b) with p = (a, 0, 1), b = (a, 0, 2^-40, W) has the same four
 * terms, its addend W first.  Under the d3d9 rule with every factor -0
 * (the w product -0 * 1 taken as -0 by the kernel, without a mul) the
 * first zero-factor mad gives c + 0 = +0, as the rule's +0 product does;
 * under IEEE the sum of -0 products is -0.
 */
static void test_dot_chain_starts_from_w_or_addend(void **state)
{
    (void)state;
    const float want = 0x1p-40f + 0x1p-46f;
    const float a = 1.0f + 0x1p-23f, W = -(1.0f + 0x1p-22f);
    const float m[4] = {a, 0.0f, 0x1p-40f, W}, p[4] = {a, 0.0f, 1.0f, 1.0f};
    for (int lg = 0; lg < 2; lg++) {
        assert_true(st_op_dot(lg, true, m, p, 4) == want);
        assert_true(same_f(st_op_dot(lg, false, m, p, 4), 0.0f));
        assert_true(st_op_dot_add(lg, true, p, m, 3, m[3]) == want);
        assert_true(same_f(st_op_dot_add(lg, false, p, m, 3, m[3]), 0.0f));
        assert_true(st_op_dot_add(lg, true, p, m, 1, W) == 0x1p-46f); /* dp2add's shape */
    }
    const char *vp = "!!ARBvp1.0\n"
                     "PARAM m = program.local[0];\n"
                     "TEMP p;\n"
                     "MOV p.xyz, vertex.attrib[1];\n"
                     "MOV p.w, 1;\n"
                     "DP4 result.position.x, m, p;\n"
                     "DPH result.position.y, vertex.attrib[1], m;\n"
                     "MOV result.position.zw, 0;\n"
                     "END\n";
    /* three mads each: DP4's w product and DPH's b.w are the first addends */
    struct gen_out r = compile(vp, 8);
    assert_true(r.ok);
    assert_int_equal(count(r.text, "mad ("), 6);
    assert_int_equal(count(r.text, "mul ("), 0);
    assert_int_equal(count(r.text, "add ("), 0);
    out_free(&r);
    const char *in = "{\"constants\": {\"program.local[0]\": "
                     "[1.00000012, 0, 9.094947017729282e-13, -1.00000024]}, "
                     "\"invocations\": [{\"vertex.attrib[1]\": [1.00000012, 0, 1, 5]}]}";
    const char *neg = "{\"constants\": {\"program.local[0]\": [-0.0, -0.0, -0.0, -0.0]}, "
                      "\"invocations\": [{\"vertex.attrib[1]\": [1, 1, 1, 5]}]}";
    struct st_run_outputs o[1];
    for (int lg = 0; lg < 2; lg++) {
        enum st_float_rules rules = lg ? ST_FLOAT_D3D9 : ST_FLOAT_IEEE;
        gen_run_json_ex(vp, in, 8, rules, ST_FP_CONTRACT_ON, o, 1);
        assert_true(o[0].reg[0].v[0] == want && o[0].reg[0].v[1] == want);
        gen_run_json_ex(vp, in, 8, rules, ST_FP_CONTRACT_OFF, o, 1);
        assert_true(same_f(o[0].reg[0].v[0], 0.0f) && same_f(o[0].reg[0].v[1], 0.0f));
        gen_run_json_ex(vp, neg, 8, rules, ST_FP_CONTRACT_ON, o, 1);
        assert_true(same_f(o[0].reg[0].v[0], lg ? 0.0f : -0.0f));
        assert_true(same_f(o[0].reg[0].v[1], lg ? 0.0f : -0.0f));
    }
    /* dp2add: c first, then x, y: fmaf(a, a, W) = 2^-46; x first gives 0 */
    const char *ps = "ps_2_0\n"
                     "dcl t0.xy\n"
                     "dp2add r0, t0, c1, c2.x\n"
                     "mov oC0, r0\n";
    const char *psin = "{\"constants\": {\"c1\": [1.00000012, 0, 0, 0], \"c2\": [-1.00000024, 0, 0, 0]}, "
                       "\"invocations\": [{\"t0\": [1.00000012, 0, 0, 0]}]}";
    gen_run_json_ex(ps, psin, 8, ST_FLOAT_IEEE, ST_FP_CONTRACT_ON, o, 1);
    assert_true(o[0].reg[0].v[0] == 0x1p-46f);
    gen_run_json_ex(ps, psin, 8, ST_FLOAT_IEEE, ST_FP_CONTRACT_OFF, o, 1);
    assert_true(same_f(o[0].reg[0].v[0], 0.0f));
}

static void test_regressions_from_random_shaders(void **state)
{
    (void)state;
    struct st_run_outputs o[4];
    /* 1. Two texldl into one register on both sides of a branch: the passes
     * merge them into one texel alloca loaded after the branch; the vertex
     * that skips the branch keeps the first sample (s0 = (1,2,3,4)), the
     * other gets s1 = (5,6,7,8). */
    const char *tex = "vs_3_0\n"
                      "dcl_position v0\n"
                      "dcl_texcoord0 v1\n"
                      "dcl_position o0\n"
                      "dcl_2d s0\n"
                      "dcl_2d s1\n"
                      "def c0, 0, 0, 0, 0\n"
                      "texldl r0, v1, s0\n"
                      "if_gt v0.x, c0.x\n"
                      "  texldl r0, v1, s1\n"
                      "endif\n"
                      "mov o0, r0\n";
    const char *texin = "{\"textures\": {\"s0\": {\"type\": \"2d\", \"width\": 1, \"height\": 1, "
                        "\"texels\": [[1, 2, 3, 4]]}, \"s1\": {\"type\": \"2d\", \"width\": 1, "
                        "\"height\": 1, \"texels\": [[5, 6, 7, 8]]}}, \"invocations\": ["
                        "{\"v0\": [-1, 0, 0, 1], \"v1\": [0.5, 0.5, 0, 0]}, "
                        "{\"v0\": [1, 0, 0, 1], \"v1\": [0.5, 0.5, 0, 0]}]}";
    gen_run_json(tex, texin, 8, o, 2);
    for (unsigned c = 0; c < 4; c++) {
        assert_true(o[0].reg[0].v[c] == (float)(1 + c));
        assert_true(o[1].reg[0].v[c] == (float)(5 + c));
    }
    /* 2. dsx of a constant: right - left = x - x: +0, or NaN for inf/NaN */
    const char *dsx = "ps_3_0\n"
                      "dsx r0, c1\n"
                      "mov oC0, r0\n";
    const char *dsxin = "{\"constants\": {\"c1\": [\"inf\", 1, \"-inf\", \"nan\"]}, "
                        "\"invocations\": [{}, {}, {}, {}]}";
    for (unsigned simd = 8; simd <= 32; simd *= 2) {
        gen_run_json(dsx, dsxin, simd, o, 4);
        for (unsigned k = 0; k < 4; k++) {
            assert_true(isnan(o[k].reg[0].v[0]));
            assert_true(o[k].reg[0].v[1] == 0.0f && !signbit(o[k].reg[0].v[1]));
            assert_true(isnan(o[k].reg[0].v[2]));
            assert_true(isnan(o[k].reg[0].v[3]));
        }
    }
    /* 3. max = (a >= b) ? a : b: a NaN b gives NaN (sel.ge would give a) */
    const char *mx = "vs_3_0\n"
                     "dcl_position v0\n"
                     "dcl_position o0\n"
                     "max o0, v0, c1\n";
    const char *mxin = "{\"constants\": {\"c1\": [\"nan\", 1, \"nan\", 1]}, "
                       "\"invocations\": [{\"v0\": [2, 0, \"nan\", 5]}]}";
    gen_run_json(mx, mxin, 8, o, 1);
    assert_true(isnan(o[0].reg[0].v[0]));
    assert_true(o[0].reg[0].v[1] == 1.0f);
    assert_true(isnan(o[0].reg[0].v[2]));
    assert_true(o[0].reg[0].v[3] == 5.0f);
}

static void test_samples_match_interpreter_in_simulator(void **state)
{
    (void)state;
    const char *root = getenv("ST_ROOT");
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/samples", root ? root : ".");
    unsigned bad = 0, shaders = 0, compared = 0, unsupported = 0;
    for (int pass = 0; pass < 2; pass++) {
        char sub[1100];
        snprintf(sub, sizeof(sub), "%s%s", dir, pass ? "/arb" : "");
        DIR *d = opendir(sub);
        assert_non_null(d);
        struct dirent *de;
        while ((de = readdir(d))) {
            size_t len = strlen(de->d_name);
            if (len < 4 || (strcmp(de->d_name + len - 4, ".asm") && strcmp(de->d_name + len - 3, ".vp") &&
                            strcmp(de->d_name + len - 3, ".fp")))
                continue;
            char path[1536];
            snprintf(path, sizeof(path), "%s/%s", sub, de->d_name);
            shaders++;
            for (unsigned simd = 8; simd <= 32; simd *= 2) {
                int b = run_sample(path, simd, &compared);
                if (b < 0) {
                    /* every sample compiles (ARB fragment.position included) */
                    printf("not supported by the Gen back end: %s\n", de->d_name);
                    unsupported++;
                    break;
                }
                bad += (unsigned)b;
            }
        }
        closedir(d);
    }
    printf("gen differential: %u samples (%u not supported), %u components compared, %u mismatching\n",
           shaders, unsupported, compared, bad);
    assert_true(compared > 1000);
    assert_int_equal(unsupported, 0);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ps_simd8_messages),
        cmocka_unit_test(test_ps_simd16_and_32),
        cmocka_unit_test(test_simd32_halves_computed_in_messages),
        cmocka_unit_test(test_vs_urb_write),
        cmocka_unit_test(test_vs_pass_through_in_place),
        cmocka_unit_test(test_vs_pass_through_second_slot),
        cmocka_unit_test(test_vs_pass_through_last),
        cmocka_unit_test(test_vs_urb_header_not_copied),
        cmocka_unit_test(test_scalar_fog_slot_not_filled),
        cmocka_unit_test(test_vs_response_into_payload),
        cmocka_unit_test(test_mad_by_one_is_add),
        cmocka_unit_test(test_constants_packed_as_vf),
        cmocka_unit_test(test_constant_pair_as_lrp),
        cmocka_unit_test(test_ps1_colour_computed_in_payload),
        cmocka_unit_test(test_replicated_lanes_computed_once),
        cmocka_unit_test(test_vs3_declared_position_in_slot1),
        cmocka_unit_test(test_no_second_saturate_through_copy),
        cmocka_unit_test(test_modifiers_and_math),
        cmocka_unit_test(test_control_flow),
        cmocka_unit_test(test_texkill_predicates_write),
        cmocka_unit_test(test_odepth_and_two_targets),
        cmocka_unit_test(test_relative_constant_is_untyped_read),
        cmocka_unit_test(test_derivatives_use_subspan_regions),
        cmocka_unit_test(test_derivative_masks_shared),
        cmocka_unit_test(test_dsy_mask_per_column),
        cmocka_unit_test(test_dsy_second_half),
        cmocka_unit_test(test_ret_in_loop_is_refused),
        cmocka_unit_test(test_far_constants_are_pulled),
        cmocka_unit_test(test_vpos_vface),
        cmocka_unit_test(test_arb_fragment_position),
        cmocka_unit_test(test_arb_lit_of_max_clamps_are_min_max),
        cmocka_unit_test(test_arb_min_of_set_results_is_one_sel),
        cmocka_unit_test(test_arb_eight_render_targets),
        cmocka_unit_test(test_pressure_falls_back_to_simd8),
        cmocka_unit_test(test_pp_half_registers),
        cmocka_unit_test(test_half_spills_at_simd8),
        cmocka_unit_test(test_auto_width_like_a_driver),
        cmocka_unit_test(test_spill_at_simd8),
        cmocka_unit_test(test_outputs_computed_at_their_writes),
        cmocka_unit_test(test_spilled_kernels_match_interpreter),
        cmocka_unit_test(test_loop_exit_phis_share_registers),
        cmocka_unit_test(test_derivative_in_divergent_flow),
        cmocka_unit_test(test_regressions_from_random_shaders),
        cmocka_unit_test(test_multiply_adds),
        cmocka_unit_test(test_arb_fog_blend_lrp),
        cmocka_unit_test(test_d3d9_lrp_rounds_once),
        cmocka_unit_test(test_pow_is_one_math_pow),
        cmocka_unit_test(test_sample_1d_u_alone),
        cmocka_unit_test(test_sample_reads_attribute_in_place),
        cmocka_unit_test(test_ps1_texture_types),
        cmocka_unit_test(test_replicated_output_paired_copy),
        cmocka_unit_test(test_replicated_result_computed_twice),
        cmocka_unit_test(test_constant_output_from_quad),
        cmocka_unit_test(test_paired_alu_ops),
        cmocka_unit_test(test_components_paired_at_simd8),
        cmocka_unit_test(test_sample_d_halves_read_responses),
        cmocka_unit_test(test_kill_compares_distinct_operands),
        cmocka_unit_test(test_arb_rcp_is_the_quotient),
        cmocka_unit_test(test_rcp_of_squared_length_unguarded),
        cmocka_unit_test(test_exp_of_scaled_log_is_pow),
        cmocka_unit_test(test_ps_denormals_kept_by_thread_state),
        cmocka_unit_test(test_sample_lod_parameters),
        cmocka_unit_test(test_saturate_folds_into_producer),
        cmocka_unit_test(test_clamp_to_one_is_saturate),
        cmocka_unit_test(test_arb_lit_csel_constant_register),
        cmocka_unit_test(test_cse_reads_output_slot),
        cmocka_unit_test(test_outputs_computed_in_their_urb_slots),
        cmocka_unit_test(test_dot_chain_starts_from_w_or_addend),
        cmocka_unit_test(test_samples_match_interpreter_in_simulator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
