/*
 * test_gen.c — the Gen9 back end end to end (st_gen_compile): payload
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
#include "gensim.h"
#include "translator.h"

struct gen_out {
    bool ok;
    char *text;  /* malloc'd */
    char *stats; /* malloc'd */
    unsigned code, line, column;
};

static struct gen_out compile(const char *src, unsigned simd)
{
    struct gen_out r = {0};
    struct st_ctx *ctx = st_ctx_create("t.asm", src, strlen(src), 50);
    struct st_arena *a = st_arena_create();
    struct st_shader *sh = st_parse_d3d9(ctx, a);
    assert_non_null(sh);
    assert_int_equal(st_error_count(ctx), 0);
    assert_true(st_check(ctx, sh));
    struct st_buf out = {0}, stats = {0};
    r.ok = st_gen_compile(ctx, sh, simd, &out, &stats);
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

static void test_ps_simd8_messages(void **state)
{
    (void)state;
    struct gen_out r = compile(texld_ps, 8);
    assert_true(r.ok);
    /* t0.x and t0.y interpolated: pln from the setup data, barycentrics at r2 (SIMD8) */
    assert_int_equal(count(r.text, "pln (8|M0)"), 2);
    assert_non_null(strstr(r.text, "r2.0<8;8,1>:f"));
    /* sample SIMD8, mlen 2 (u, v), rlen 4, SFID 2, BTI 5 + 0 (docs/gen-abi.md), sampler 0,
     * SIMD mode 1: (2<<25) | (4<<20) | (1<<17) | 5 = 0x04420005 */
    assert_non_null(strstr(r.text, " 0x2 0x04420005"));
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
    assert_int_equal(strncmp(r.stats, "SIMD8 shader: ", 14), 0);
    out_free(&r);
}

static void test_ps_simd16_and_32(void **state)
{
    (void)state;
    struct gen_out r = compile(texld_ps, 16);
    assert_true(r.ok);
    /* SIMD16 sample: mlen 4, rlen 8, SIMD mode 2: 0x08840005; RT write mlen 8 subtype 0: 0x10031000 */
    assert_non_null(strstr(r.text, " 0x2 0x08840005"));
    assert_non_null(strstr(r.text, "0x10031000 {EOT}"));
    out_free(&r);

    r = compile(texld_ps, 32);
    assert_true(r.ok);
    /* two SIMD16 halves: (16|M0) and (16|M16); the second RT write has the slot-group bit 11 */
    assert_int_equal(count(r.text, " 0x2 0x08840005"), 2);
    assert_non_null(strstr(r.text, "sendc (16|M0)"));
    assert_non_null(strstr(r.text, "sendc (16|M16)"));
    assert_non_null(strstr(r.text, "0x10031800 {EOT}"));
    assert_int_equal(count(r.text, "{EOT}"), 1);
    /* SIMD32 barycentrics: pixels 0-15 at r3, 16-31 at r7 */
    assert_non_null(strstr(r.text, "pln (16|M0)"));
    assert_non_null(strstr(r.text, "r3.0<8;8,1>:f"));
    assert_non_null(strstr(r.text, "r7.0<8;8,1>:f"));
    assert_int_equal(strncmp(r.stats, "SIMD32 shader: ", 15), 0);
    out_free(&r);
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
    assert_non_null(strstr(r.text, "r3.0<8;8,1>:f"));
    assert_non_null(strstr(r.text, "r2.4<0;1,0>:f")); /* c3.x */
    assert_int_equal(strncmp(r.stats, "SIMD8 shader: ", 14), 0);
    assert_non_null(strstr(r.stats, " 1 sends"));
    out_free(&r);
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
    assert_non_null(strstr(r.text, "math.sqt"));
    assert_non_null(strstr(r.text, "math.inv"));
    assert_non_null(strstr(r.text, "(sat)"));
    assert_non_null(strstr(r.text, "(abs)"));
    assert_non_null(strstr(r.text, " -r"));
    assert_non_null(strstr(r.text, "sel (8|M0)     (ge)f0.0")); /* max */
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
    struct gen_out r = compile("vs_2_0\n"
                               "dcl_position v0\n"
                               "dcl_blendindices v1\n"
                               "mova a0.x, v1.x\n"
                               "mov oPos, c[a0.x + 4]\n",
                               0);
    assert_true(r.ok);
    /* untyped surface read SIMD8, 4 channels, constant buffer BTI 4: mlen 1 rlen 4, type 1,
     * SIMD8 mode 2 = 0x02406004 */
    assert_non_null(strstr(r.text, " 0xC 0x02406004"));
    out_free(&r);
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
    /* dsy: bottom - top per subspan, one SIMD4 instruction per subspan (two at SIMD8) */
    assert_non_null(strstr(r.text, "add (4|M0)"));
    assert_non_null(strstr(r.text, "add (4|M4)"));
    assert_int_equal(count(r.text, "<0;2,1>:f"), 4);
    out_free(&r);
}

static void test_ret_in_loop_is_structurized(void **state)
{
    (void)state;
    /* ret inside a loop leaves it through a second block: LLVM's structurizer
     * (run when the selector refuses the CFG) makes the loop single-exit */
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
    assert_true(r.ok);
    assert_non_null(strstr(r.text, "while (8|M0)"));
    assert_non_null(strstr(r.text, "break (8|M0)"));
    out_free(&r);
}

static void test_unsupported_is_located(void **state)
{
    (void)state;
    /* more pushed constants than the register file holds: a located "not
     * supported" at the version line, never an assert */
    struct gen_out r = compile("vs_2_0\n"
                               "dcl_position v0\n"
                               "add r0, v0, c0\n"
                               "add oPos, r0, c255\n",
                               0);
    assert_false(r.ok);
    assert_int_equal(r.code, 3001);
    assert_int_equal(r.line, 1);
    assert_int_equal(r.column, 1);
    out_free(&r);
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
    assert_int_equal(strncmp(r.stats, "SIMD8 shader: ", 14), 0);
    assert_non_null(strstr(r.stats, " 0:0 spills:fills"));
    out_free(&r);
    /* forced SIMD16 still compiles, by spilling */
    r = compile(src, 16);
    assert_true(r.ok);
    assert_int_equal(strncmp(r.stats, "SIMD16 shader: ", 15), 0);
    assert_null(strstr(r.stats, " 0:0 spills:fills"));
    assert_non_null(strstr(r.text, " 0x8A 0x020A03FD")); /* 2-GRF OWord block write to scratch */
    out_free(&r);
}

static void test_spill_at_simd8(void **state)
{
    (void)state;
    struct gen_out r = compile(read_sample("61-spill.vs.asm"), 0);
    assert_true(r.ok);
    assert_int_equal(strncmp(r.stats, "SIMD8 shader: ", 14), 0);
    assert_null(strstr(r.stats, " 0:0 spills:fills"));
    assert_non_null(strstr(r.text, " 0x4A 0x020A02FD")); /* 1-GRF OWord block write */
    assert_non_null(strstr(r.text, " 0xA 0x021802FD"));  /* 1-GRF OWord block read */
    out_free(&r);
}


/* ------------------------------------------------------------------ */
/*
 * Differential: every sample with NAME.in.json runs through the Gen
 * simulator (emit/gensim*.c) with a payload built from the kernel's
 * header comment as docs/gen-abi.md describes it, and its URB / render
 * target writes must match the reference interpreter's outputs.  Pixel
 * shaders run one pixel per thread (channel 0, and channel 16 at SIMD32)
 * with constant attribute setup (a = b = 0, c0 = the input), so shaders
 * with dsx/dsy are left out (their neighbours are not set up).
 */

struct sim {
    bool arb;
    int hdr_slot;   /* output slot in the VUE header's dword 3 (point size) */
    int rt_of[ST_LL_OUT_SLOTS]; /* output slot -> BTI, -1 */
    struct st_run_inputs in;
    int vue2out[40];
    float vs_out[8][ST_LL_OUT_SLOTS][4];
    bool vs_got[ST_LL_OUT_SLOTS];
    float ps_out[2][5][4];
    bool ps_got[2][5];
    uint8_t cbuf[4096];
};

static int sim_urb(void *u, const gensim_urb_write *w, char *e, size_t n)
{
    (void)e;
    (void)n;
    struct sim *S = u;
    for (unsigned k = 0; k < w->ndata; k++) {
        unsigned vs = w->global_offset + k / 4, c = k % 4;
        int os = vs < 40 ? S->vue2out[vs] : -1;
        if (os == -2 && c == 3)
            os = S->hdr_slot, c = 0; /* point size in the VUE header */
        if (os < 0)
            continue;
        S->vs_got[os] = true;
        for (int v = 0; v < 8; v++)
            memcpy(&S->vs_out[v][os][c], &w->data[k][v], 4);
    }
    return 0;
}

static int sim_rt(void *u, const gensim_rt_write *w, char *e, size_t n)
{
    (void)e;
    (void)n;
    struct sim *S = u;
    static const unsigned chans[2] = {0, 16};
    for (int h = 0; h < 2; h++) {
        unsigned ch = chans[h];
        if (ch < w->first_pixel || ch >= w->first_pixel + w->simd || w->bti > 3)
            continue;
        unsigned lc = ch - w->first_pixel;
        if (!(w->mask >> lc & 1))
            continue;
        S->ps_got[h][w->bti] = true;
        for (int c = 0; c < 4; c++)
            memcpy(&S->ps_out[h][w->bti][c], &w->color[c][lc], 4);
        if (w->has_depth) {
            S->ps_got[h][4] = true;
            memcpy(&S->ps_out[h][4][0], &w->depth[lc], 4);
        }
    }
    return 0;
}

/* The interpreter's texture model (docs/run-json.md): level 0, nearest, repeat. */
static uint32_t wrap_index(float u, uint32_t n)
{
    if (!isfinite(u))
        return 0;
    double x = fmod(floor((double)u * n), (double)n);
    if (x < 0)
        x += n;
    uint32_t i = (uint32_t)x;
    return i < n ? i : n - 1;
}

static uint32_t clamp_index(float u, uint32_t n)
{
    if (isnan(u))
        return 0;
    double x = floor((double)u * n);
    return x < 0 ? 0 : x >= n ? n - 1 : (uint32_t)x;
}

static int sim_sample(void *u, const gensim_sample_msg *m, uint32_t r[4][16], char *e, size_t n)
{
    (void)e;
    (void)n;
    struct sim *S = u;
    for (unsigned ch = 0; ch < m->simd; ch++) {
        float c[3] = {0, 0, 0}, out[4] = {0, 0, 0, 1};
        for (unsigned k = 0; k < m->nparams && k < 3; k++)
            memcpy(&c[k], &m->param[k][ch], 4);
        const struct st_run_texture *t = &S->in.tex[m->sampler & 15];
        if (S->arb) {
            /* sample_c / sample_c_lz carry (ref, u, v): ARB shadow targets compare r */
            bool shadow = m->msg_type == 3 || m->msg_type == 25;
            float cc[4] = {c[0], c[1], c[2], 1.0f};
            if (shadow) {
                cc[0] = c[1];
                cc[1] = c[2];
                cc[2] = c[0];
            }
            enum st_arb_tex_target tg = shadow ? ST_ARB_TEX_SHADOW2D
                                        : t->type == ST_SAMPLER_CUBE ? ST_ARB_TEX_CUBE
                                        : t->type == ST_SAMPLER_VOLUME ? ST_ARB_TEX_3D
                                                                       : ST_ARB_TEX_2D;
            st_arb_sample(t->texels ? t : NULL, tg, cc, out);
        } else if (t->type != ST_SAMPLER_NONE && t->texels) {
            size_t at;
            if (t->type == ST_SAMPLER_2D) {
                at = (size_t)wrap_index(c[1], t->height) * t->width + wrap_index(c[0], t->width);
            } else if (t->type == ST_SAMPLER_VOLUME) {
                at = ((size_t)wrap_index(c[2], t->depth) * t->height + wrap_index(c[1], t->height)) *
                         t->width + wrap_index(c[0], t->width);
            } else {
                float x = c[0], y = c[1], z = c[2], ax = fabsf(x), ay = fabsf(y), az = fabsf(z);
                float ma, sc, tc;
                unsigned face;
                if (ax >= ay && ax >= az) {
                    ma = ax, face = x >= 0 ? 0 : 1, sc = x >= 0 ? -z : z, tc = -y;
                } else if (ay >= az) {
                    ma = ay, face = y >= 0 ? 2 : 3, sc = x, tc = y >= 0 ? z : -z;
                } else {
                    ma = az, face = z >= 0 ? 4 : 5, sc = z >= 0 ? x : -x, tc = -y;
                }
                float ss = (sc / ma + 1.0f) * 0.5f, tt = (tc / ma + 1.0f) * 0.5f;
                at = ((size_t)face * t->height + clamp_index(tt, t->height)) * t->width +
                     clamp_index(ss, t->width);
            }
            memcpy(out, t->texels[at], 16);
        }
        for (int k = 0; k < 4; k++)
            memcpy(&r[k][ch], &out[k], 4);
    }
    return 0;
}

static uint8_t *sim_surface(void *u, unsigned sfid, unsigned bti, size_t *size)
{
    (void)sfid;
    struct sim *S = u;
    if (bti != 4)
        return NULL;
    *size = sizeof(S->cbuf);
    return S->cbuf;
}

struct header {
    int hdr_slot;
    unsigned cg, ig, bg, bumpg, ing, na;
    int clo, chi, ilo, ihi, blo, bhi;
    bool hasb;
    int attr[32];
};

/* The layout the kernel's header comment states (docs/gen-abi.md). */
static void parse_header(const char *t, struct header *H, int vue2out[40])
{
    memset(H, 0, sizeof(*H));
    H->chi = H->ihi = H->bhi = -1;
    const char *l = strstr(t, "constants (CURBE) from r");
    assert_non_null(l);
    const char *e = strchr(l, '\n');
    for (const char *q = l; q < e; q++) {
        if (q[-1] != ' ')
            continue;
        sscanf(q, "c%d-c%d at r%u", &H->clo, &H->chi, &H->cg);
        sscanf(q, "i%d-i%d at r%u", &H->ilo, &H->ihi, &H->ig);
        if (sscanf(q, "b0-b15 at r%u", &H->bg) == 1)
            H->hasb = true;
        sscanf(q, "bumpenv stages %d-%d at r%u", &H->blo, &H->bhi, &H->bumpg);
    }
    l = strstr(t, "// inputs from r");
    assert_non_null(l);
    assert_int_equal(sscanf(l, "// inputs from r%u", &H->ing), 1);
    e = strchr(l, '\n');
    for (const char *q = strchr(l, ':'); q && q < e; q = strchr(q + 1, ' ')) {
        unsigned k;
        int s;
        if ((sscanf(q, " attr%u=slot%d", &k, &s) == 2 || sscanf(q, " a%u=slot%d", &k, &s) == 2) &&
            k < 32) {
            H->attr[k] = s;
            H->na = k + 1;
        }
    }
    for (int k = 0; k < 40; k++)
        vue2out[k] = -1;
    l = strstr(t, "// VUE:");
    if (!l)
        return;
    e = strchr(l, '\n');
    for (const char *q = strchr(l, ':'); q && q < e; q = strchr(q + 1, ' ')) {
        unsigned k;
        int s;
        if (sscanf(q, " slot%u=out%d", &k, &s) == 2 && k < 40)
            vue2out[k] = s;
        else if (sscanf(q, " slot%u=header/%d", &k, &s) == 2 && k < 40 && s >= 0) {
            vue2out[k] = -2;
            H->hdr_slot = s;
        }
    }
}

/* "render targets: BTI0=out25 ...": output slot -> BTI */
static void parse_targets(const char *t, int rt_of[ST_LL_OUT_SLOTS])
{
    for (int k = 0; k < ST_LL_OUT_SLOTS; k++)
        rt_of[k] = -1;
    const char *l = strstr(t, "// render targets:");
    if (!l)
        return;
    const char *e = strchr(l, '\n');
    for (const char *q = strchr(l, ':'); q && q < e; q = strchr(q + 1, ' ')) {
        unsigned bti;
        int slot;
        if (sscanf(q, " BTI%u=out%d", &bti, &slot) == 2 && slot >= 0 && slot < ST_LL_OUT_SLOTS)
            rt_of[slot] = (int)bti;
    }
}

static void fill_curbe(gensim_thread *th, const struct header *H, const struct st_run_inputs *in)
{
    for (int c = H->clo; c <= H->chi; c++)
        for (int j = 0; j < 4; j++)
            gensim_set_f32(th, H->cg + (unsigned)(c - H->clo) / 2, (unsigned)((c - H->clo) % 2) * 4 + j,
                           in->c[c][j]);
    for (int c = H->ilo; c <= H->ihi; c++)
        for (int j = 0; j < 4; j++)
            gensim_set_u32(th, H->ig + (unsigned)(c - H->ilo) / 2, (unsigned)((c - H->ilo) % 2) * 4 + j,
                           (uint32_t)in->i[c][j]);
    if (H->hasb)
        for (unsigned k = 0; k < 16; k++)
            gensim_set_u32(th, H->bg + k / 8, k % 8, in->b[k]);
    for (int s = H->blo; s <= H->bhi; s++) {
        const struct st_run_bumpenv *b = &in->bumpenv[s];
        const float v[8] = {b->mat[0], b->mat[1], b->mat[2], b->mat[3], b->lscale, b->loffset, 0, 0};
        for (unsigned j = 0; j < 8; j++)
            gensim_set_f32(th, H->bumpg + (unsigned)(s - H->blo), j, v[j]);
    }
}

static bool close_enough(float want, float got)
{
    /* Gen9 math (rsq, exp, log, pow, sin, cos) is not correctly rounded */
    return fabsf(want - got) <= 2e-3f * fabsf(want) + 2e-4f || (isnan(want) && isnan(got)) ||
           (isinf(want) && want == got);
}

/* Returns the number of mismatching components (printed). */
static unsigned run_sample(const char *path, unsigned simd, unsigned *compared)
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
    if (strstr(src, "dsx") || strstr(src, "dsy"))
        return 0;
    struct sim *S = calloc(1, sizeof(*S));
    assert_non_null(S);
    struct st_ctx *ctx = st_ctx_create(path, src, sn, 50);
    struct st_arena *a = st_arena_create();
    S->arb = strncmp(src, "!!ARB", 5) == 0;
    struct st_shader *sh = S->arb ? st_parse_arb(ctx, a) : st_parse_d3d9(ctx, a);
    assert_true(sh && (S->arb ? st_check_arb(ctx, sh) : st_check(ctx, sh)));
    struct st_buf out = {0}, stats = {0};
    assert_true(st_gen_compile(ctx, sh, simd, &out, &stats));
    assert_true(st_run_inputs_parse(ctx, sh, "in", json, jn, a, &S->in));
    struct st_run_outputs *ref = calloc(S->in.num_invocations + 1, sizeof(*ref));
    assert_non_null(ref);
    assert_true(st_interp_execute(ctx, sh, &S->in, ST_FLOAT_IEEE, ref));
    bool vs = sh->version.type == ST_VS;
    struct header H;
    parse_header(out.data, &H, S->vue2out);
    S->hdr_slot = H.hdr_slot;
    parse_targets(out.data, S->rt_of);
    char err[GENSIM_ERR_LEN];
    gensim_program *prog = gensim_parse(out.data, path, err, sizeof(err));
    if (!prog)
        fail_msg("%s", err);
    for (unsigned i = 0; i < 256; i++)
        memcpy(S->cbuf + 16 * i, S->in.c[i], 16);
    static uint8_t scratch[1 << 18];
    unsigned bad = 0, per = vs ? 8 : 1;
    for (unsigned base = 0; base < S->in.num_invocations; base += per) {
        unsigned cnt = S->in.num_invocations - base < per ? S->in.num_invocations - base : per;
        gensim_config cfg;
        memset(&cfg, 0, sizeof(cfg));
        cfg.dispatch_mask = vs ? (1u << cnt) - 1 : simd == 32 ? 0x10001u : 1u;
        cfg.scratch = scratch;
        cfg.scratch_size = sizeof(scratch);
        cfg.rt_has_depth = strstr(out.data, "oDepth") != NULL;
        cfg.cb.user = S;
        cfg.cb.urb_write = sim_urb;
        cfg.cb.rt_write = sim_rt;
        cfg.cb.sample = sim_sample;
        cfg.cb.surface = sim_surface;
        gensim_thread *th = gensim_thread_new(prog, &cfg);
        assert_non_null(th);
        fill_curbe(th, &H, &S->in);
        if (vs) {
            for (unsigned v = 0; v < 8; v++)
                gensim_set_u32(th, 1, v, 100 + v);
            for (unsigned k = 0; k < H.na; k++)
                for (unsigned c = 0; c < 4; c++)
                    for (unsigned v = 0; v < cnt; v++)
                        gensim_set_f32(th, H.ing + 4 * k + c, v, S->in.inv[base + v].in[H.attr[k]][c]);
        } else {
            const float *in = S->in.inv[base].in[0];
            const float *vpos = in + 4 * ST_LL_IN_VPOS;
            for (unsigned h = 0; h < (simd == 32 ? 2u : 1u); h++)
                gensim_set_u32(th, 1 + h, 2, (uint32_t)(int)vpos[0] | (uint32_t)(int)vpos[1] << 16);
            if (in[4 * ST_LL_IN_VFACE] < 0)
                gensim_set_u32(th, 0, 0, 0x8000);
            for (unsigned k = 0; k < H.na; k++)
                for (unsigned c = 0; c < 4; c++) {
                    unsigned g = H.ing + 2 * k + c / 2, o = (c & 1) * 4;
                    gensim_set_f32(th, g, o + 3, in[4 * H.attr[k] + c]);
                }
        }
        memset(S->vs_got, 0, sizeof(S->vs_got));
        memset(S->ps_got, 0, sizeof(S->ps_got));
        if (gensim_run(th, 2000000) != GENSIM_OK)
            fail_msg("%s SIMD%u: %s", path, simd, gensim_error(th));
        for (unsigned v = 0; v < cnt; v++) {
            const struct st_run_outputs *o = &ref[base + v];
            for (unsigned h = 0; h < (vs || simd != 32 ? 1u : 2u); h++) {
                if (o->discarded) {
                    for (int b = 0; b < 5; b++)
                        if (S->ps_got[h][b]) {
                            printf("%s SIMD%u inv %u: discarded but written\n", path, simd, base + v);
                            bad++;
                        }
                    continue;
                }
                for (unsigned r = 0; r < o->count; r++) {
                    int s = S->arb ? (int)o->reg[r].index
                                   : st_run_out_slot(o->reg[r].file, o->reg[r].index);
                    if (s < 0 || s >= ST_LL_OUT_SLOTS)
                        continue;
                    /* a pixel shader's scalar output that is no colour is the depth */
                    int b = S->rt_of[s] >= 0 ? S->rt_of[s] : o->reg[r].ncomp == 1 ? 4 : -1;
                    if (!vs && (b < 0 || b > 4))
                        continue;
                    bool got = vs ? S->vs_got[s] : S->ps_got[h][b];
                    for (unsigned c = 0; c < o->reg[r].ncomp; c++) {
                        float want = o->reg[r].v[c];
                        float have = !got ? NAN : vs ? S->vs_out[v][s][c] : S->ps_out[h][b][c];
                        (*compared)++;
                        if (!close_enough(want, have)) {
                            printf("%s SIMD%u inv %u output slot %d.%u: interpreter %g, Gen %g\n",
                                   path, simd, base + v, s, c, (double)want, (double)have);
                            bad++;
                        }
                    }
                }
            }
        }
        gensim_thread_free(th);
    }
    gensim_program_free(prog);
    free(ref);
    st_buf_free(&out);
    st_buf_free(&stats);
    st_arena_destroy(a);
    st_ctx_destroy(ctx);
    free(S);
    return bad;
}

static void test_samples_match_interpreter_in_simulator(void **state)
{
    (void)state;
    const char *root = getenv("ST_ROOT");
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/samples", root ? root : ".");
    unsigned bad = 0, shaders = 0, compared = 0;
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
            /* 14 and 16 read fragment.position (not supported yet); 11 samples
             * SHADOW1D/SHADOWRECT textures, whose target and unnormalised
             * coordinates are sampler state this harness does not model */
            if (pass && (strstr(de->d_name, "14-draw") || strstr(de->d_name, "16-coord") ||
                         strstr(de->d_name, "11-shadow")))
                continue;
            char path[1536];
            snprintf(path, sizeof(path), "%s/%s", sub, de->d_name);
            shaders++;
            for (unsigned simd = 8; simd <= 32; simd *= 2)
                bad += run_sample(path, simd, &compared);
        }
        closedir(d);
    }
    printf("gen differential: %u samples, %u components compared, %u mismatching\n", shaders,
           compared, bad);
    assert_true(compared > 1000);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ps_simd8_messages),
        cmocka_unit_test(test_ps_simd16_and_32),
        cmocka_unit_test(test_vs_urb_write),
        cmocka_unit_test(test_modifiers_and_math),
        cmocka_unit_test(test_control_flow),
        cmocka_unit_test(test_texkill_predicates_write),
        cmocka_unit_test(test_odepth_and_two_targets),
        cmocka_unit_test(test_relative_constant_is_untyped_read),
        cmocka_unit_test(test_derivatives_use_subspan_regions),
        cmocka_unit_test(test_ret_in_loop_is_structurized),
        cmocka_unit_test(test_unsupported_is_located),
        cmocka_unit_test(test_vpos_vface),
        cmocka_unit_test(test_pressure_falls_back_to_simd8),
        cmocka_unit_test(test_spill_at_simd8),
        cmocka_unit_test(test_samples_match_interpreter_in_simulator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
