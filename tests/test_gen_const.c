/*
 * test_gen_const.c — relative constant reads in the Gen9 back end (issue
 * 18, gen/isel_const.c, docs/gen-backend.md "Relative constant reads"):
 * one shader per strategy in tests/gen_const/ (uniform index into pushed
 * constants, into pulled ones; an index per channel into a pushed array,
 * into pulled constants as a gather and as a waterfall loop), each run on
 * inputs whose outputs were worked out by hand (indices inside the range,
 * outside it on either side, straddling its ends, far off, all channels
 * equal and all different), by the interpreter, the LLVM JIT and the Gen
 * engine alike.  The kernel's header must name the strategy, and the Gen
 * simulator must do one block read per distinct index in a waterfall.
 * tests/gen_iga.sh assembles the same kernels with iga64.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emit.h"
#include "emit/gen/gen_ir.h"
#include "emit/gensim/gensim.h"
#include "shadertrans.h"
#include "translator.h"
#include "test_util.h"

static char *shader(const char *name)
{
    const char *root = getenv("ST_ROOT");
    char path[1024];
    snprintf(path, sizeof(path), "%s/tests/gen_const/%s", root ? root : ".", name);
    char *text = slurp(path, NULL);
    if (!text)
        fail_msg("cannot read %s (set ST_ROOT to the repository)", path);
    return text;
}

/* The outputs JSON of one engine (the command's `shadertrans run`). */
static char *run(const char *src, const char *name, const char *json, enum st_engine engine)
{
    struct st_options o;
    memset(&o, 0, sizeof(o));
    o.struct_version = ST_OPTIONS_VERSION;
    o.filename = name;
    o.source = src;
    o.source_len = strlen(src);
    struct st_run_options r;
    memset(&r, 0, sizeof(r));
    r.struct_version = ST_RUN_OPTIONS_VERSION;
    r.compile = &o;
    r.inputs_filename = "in.json";
    r.inputs_json = json;
    r.inputs_len = strlen(json);
    r.engine = engine;
    struct st_result *res = NULL;
    assert_int_equal(st_run(&r, &res), 0);
    if (!res->ok) {
        char buf[512];
        if (res->num_diagnostics)
            st_diagnostic_format(&res->diagnostics[0], buf, sizeof(buf));
        fail_msg("%s on engine %d: %s", name, (int)engine, res->num_diagnostics ? buf : "failed");
    }
    char *out = strdup(res->output);
    st_result_free(res);
    return out;
}

/* Every number of an outputs JSON, in order. */
static unsigned numbers(const char *json, double *v, unsigned max)
{
    unsigned n = 0;
    for (const char *p = strchr(json, '['); p && *p; p++) {
        if ((*p == '-' || (*p >= '0' && *p <= '9')) && n < max) {
            char *end;
            v[n++] = strtod(p, &end);
            p = end - 1;
        } else if (*p == '"') {
            p = strchr(p + 1, '"'); /* a key */
            if (!p)
                break;
        }
    }
    return n;
}

/* The inputs JSON of eight invocations: the constants `env` and
 * vertex.attrib[1] = (xs[i]) for invocation i, into in[size]. */
static void attrib1_inputs(char *in, size_t size, const char *env, const char *const xs[8])
{
    int n = snprintf(in, size, "{\"constants\": {%s}, \"invocations\": [", env);
    for (unsigned i = 0; i < 8; i++)
        n += snprintf(in + n, size - (size_t)n, "%s{\"vertex.attrib[1]\": [%s]}", i ? ", " : "",
                      xs[i]);
    snprintf(in + n, size - (size_t)n, "]}");
}

/*
 * The three engines agree to the text, and the numbers are those worked
 * out by hand: want[] lists, per invocation, each output register's four
 * components in the outputs JSON's order.
 */
static void check(const char *file, const char *json, const double *want, unsigned n)
{
    char *src = shader(file);
    char *interp = run(src, file, json, ST_ENGINE_INTERP);
    char *jit = run(src, file, json, ST_ENGINE_LLVM);
    char *gen = run(src, file, json, ST_ENGINE_GEN);
    assert_string_equal(jit, interp);
    assert_string_equal(gen, interp);
    double got[256];
    unsigned m = numbers(interp, got, 256);
    if (m != n)
        fail_msg("%s: %u numbers, want %u:\n%s", file, m, n, interp);
    for (unsigned k = 0; k < n; k++)
        if (got[k] != want[k])
            fail_msg("%s: number %u is %.9g, want %.9g:\n%s", file, k, got[k], want[k], interp);
    free(src);
    free(interp);
    free(jit);
    free(gen);
}

/* The Gen kernel of a shader file (its header names each read's strategy). */
static char *kernel(const char *file, unsigned simd, char **stats)
{
    char *src = shader(file);
    struct st_options o;
    memset(&o, 0, sizeof(o));
    o.struct_version = ST_OPTIONS_VERSION;
    o.filename = file;
    o.source = src;
    o.source_len = strlen(src);
    o.emit = ST_EMIT_GEN;
    o.simd_width = simd;
    o.want_stats = 1;
    struct st_result *res = NULL;
    assert_int_equal(st_compile(&o, &res), 0);
    assert_true(res->ok);
    char *text = strdup(res->output);
    if (stats)
        *stats = strdup(res->stats ? res->stats : "");
    st_result_free(res);
    free(src);
    return text;
}

static unsigned count(const char *hay, const char *needle)
{
    unsigned n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* The Gen engine's messages by shared function for one run. */
static void gen_sends(const char *file, const char *json, struct st_gen_run_stats *st)
{
    char *src = shader(file);
    bool arb = strncmp(src, "!!ARB", 5) == 0;
    struct st_ctx *ctx = st_ctx_create(file, src, strlen(src), 50);
    struct st_arena *a = st_arena_create();
    struct st_shader *sh = arb ? st_parse_arb(ctx, a) : st_parse_d3d9(ctx, a);
    assert_true(sh && (arb ? st_check_arb(ctx, sh) : st_check(ctx, sh)));
    struct st_run_inputs in;
    assert_true(st_run_inputs_parse(ctx, sh, "in", json, strlen(json), a, &in));
    struct st_run_outputs *o = calloc(in.num_invocations + 1, sizeof(*o));
    assert_non_null(o);
    assert_true(test_gen_execute(ctx, sh, 8, &in, ST_FLOAT_IEEE, o, st));
    free(o);
    st_arena_destroy(a);
    st_ctx_destroy(ctx);
    free(src);
}

/* ------------------------------------------------------------------ */

/*
 * c[aL + 4] for aL = 0, 1, 2: c4 + c5 + c6 added to v0, one Vx1 mov per
 * iteration and no message but the URB write.
 */
static void test_uniform_index_pushed(void **state)
{
    (void)state;
    char *k = kernel("uniform-pushed.vs.asm", 8, NULL);
    assert_non_null(strstr(k, "// c[aL+4] (add, 1 read): index uniform, constants pushed: "
                              "register-indirect mov (Vx1)"));
    assert_non_null(strstr(k, "c4-c6 at r2")); /* what aL + 4 reaches is pushed */
    assert_int_equal(count(k, "r[a0.0,"), 1);
    assert_int_equal(count(k, " send ("), 1);  /* the URB write */
    free(k);
    const char *in = "{\"constants\": {\"c4\": [10, 20, 30, 40], \"c5\": [100, 200, 300, 400], "
                     "\"c6\": [1000, 2000, 3000, 4000], \"c7\": [5, 5, 5, 5]},"
                     " \"invocations\": [{\"v0\": [1, 2, 3, 4]}, {\"v0\": [0.5, -1, 0, 8]}]}";
    const double want[] = {1111, 2222, 3333, 4444, 1110.5, 2219, 3330, 4448};
    check("uniform-pushed.vs.asm", in, want, 8);
}

/*
 * a0 = c1.x for every vertex, anywhere: the m4x4's rows c[a0.x + 20..23]
 * are one block read, dp4 with v0 = (1, 10, 100, 1000) gives x + 10y +
 * 100z + 1000w of each row (c20 = (1,2,3,4): 4321; c21: 8765; c22: 13209;
 * c23: 17653; c254 = (1,1,1,1): 1111; c255: 2222; c0: 0.5; c1 = (a, 0, 0,
 * 0): a; c2: 2), rows outside c0..c255 give 0.  o1 = c0 + c254 + c255 +
 * c256 (0) = (3.5, 3, 3, 3) whatever a is.
 */
static void test_uniform_index_pulled(void **state)
{
    (void)state;
    char *stats;
    char *k = kernel("uniform-pulled.vs.asm", 8, &stats);
    assert_non_null(strstr(k, "// c[a0.x+20..+23] (dp4, 4 reads): index uniform, constants "
                              "pulled: one OWord block read"));
    assert_non_null(strstr(k, "// c[aL+254] (add, 1 read): index uniform, constants pulled: "
                              "one OWord block read"));
    /* constant cache OWord block reads: 4 OWords (2 GRFs) = 0x02280308, 2 OWords 0x02180208 */
    assert_int_equal(count(k, " 0x9 0x02280308"), 1);
    assert_int_equal(count(k, " 0x9 0x02180208"), 1);
    assert_non_null(strstr(stats, "gen: relative constant read groups 2: vx1 0 vxh 0 block 2 "
                                  "gather 0 waterfall 0"));
    free(stats);
    free(k);
    const char *fmt = "{\"constants\": {\"c0\": [0.5, 0, 0, 0], \"c1\": [%s, 0, 0, 0], "
                      "\"c2\": [2, 0, 0, 0], \"c20\": [1, 2, 3, 4], \"c21\": [5, 6, 7, 8], "
                      "\"c22\": [9, 10, 11, 12], \"c23\": [13, 14, 15, 16], "
                      "\"c254\": [1, 1, 1, 1], \"c255\": [2, 2, 2, 2]},"
                      " \"invocations\": [{\"v0\": [1, 10, 100, 1000]}, {\"v0\": [1, 10, 100, 1000]}]}";
    struct {
        const char *a;
        double o0[4];
    } cases[] = {
        {"0", {4321, 8765, 13209, 17653}},  /* inside */
        {"234", {1111, 2222, 0, 0}},        /* c254, c255, then past c255 */
        {"-21", {0, 0.5, -21, 2}},          /* c-1 (0), c0, c1, c2 */
        {"1000", {0, 0, 0, 0}},             /* far past */
        {"-1000000", {0, 0, 0, 0}},         /* far before */
        {"2147483648", {0, 0, 0, 0}},       /* mova saturates to 2^31 - 1; + 20 is past */
    };
    for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        char in[1024];
        snprintf(in, sizeof(in), fmt, cases[c].a);
        double want[16];
        for (unsigned i = 0; i < 2; i++) {
            memcpy(&want[8 * i], cases[c].o0, sizeof(cases[c].o0));
            const double o1[4] = {3.5, 3, 3, 3};
            memcpy(&want[8 * i + 4], o1, sizeof(o1));
        }
        check("uniform-pulled.vs.asm", in, want, 16);
    }
}

/*
 * pal[A0.x + 1] and pal[A0.x] with A0.x = floor(attrib[1].x) per vertex;
 * pal[k] = env[k] = (10k+1, 10k+2, 10k+3, 10k+4) for k = 0..5, anything
 * else 0; texcoord[0] = env[6] = (7, 7, 7, 7).  Two whole rows: by issue
 * cycles (SIMD8: an ALU instruction or a message 2, a VxH mov 4) two
 * gathers, 3 * 2 + 2 * (2 + 2) = 14, beat eight VxH movs, 3 * 2 + 8 * 4 =
 * 38, so the array is not pushed and the gathers read its view of the
 * constant buffer (binding table index 25), whose bounds give the zeros.
 */
static void test_index_per_channel_array_copy(void **state)
{
    (void)state;
    char *k = kernel("divergent-pushed.vp", 8, NULL);
    assert_null(strstr(k, "zero vectors around) at r"));
    assert_non_null(strstr(k, "// views of the constant buffer: c0-c5 at binding table index 25\n"));
    assert_non_null(strstr(k, "// c[a0.x+0..+1] (mov, 2 reads): index per channel, constants "
                              "pulled: an untyped read per vector (gather)"));
    /* the shared byte address from the float index (gen/opt_fold.c): no
     * clamp, no shift, no check per vector */
    assert_int_equal(count(k, "sel ("), 0);
    assert_int_equal(count(k, "shl ("), 0);
    assert_int_equal(count(k, "cmp ("), 0);
    assert_int_equal(count(k, "<1,0>:f"), 0);
    assert_int_equal(count(k, " 0xC 0x02406019"), 2); /* untyped read, SIMD8, 4 channels, BTI 25 */
    free(k);
    const char *env = "\"program.env[0]\": [1, 2, 3, 4], \"program.env[1]\": [11, 12, 13, 14], "
                      "\"program.env[2]\": [21, 22, 23, 24], \"program.env[3]\": [31, 32, 33, 34], "
                      "\"program.env[4]\": [41, 42, 43, 44], \"program.env[5]\": [51, 52, 53, 54], "
                      "\"program.env[6]\": [7, 7, 7, 7]";
    /* all different: 0, 1, 4.5 (4), 5, -1, 6, -2.5 (-3), 1000 */
    const char *xs[8] = {"0", "1", "4.5", "5", "-1", "6", "-2.5", "1000"};
    const int pos[8] = {1, 2, 5, -1, 0, -1, -1, -1}, col[8] = {0, 1, 4, 5, -1, -1, -1, -1};
    char in[2048];
    attrib1_inputs(in, sizeof(in), env, xs);
    double want[8 * 12];
    for (unsigned i = 0; i < 8; i++)
        for (unsigned c = 0; c < 4; c++) {
            want[12 * i + c] = pos[i] < 0 ? 0 : 10 * pos[i] + c + 1;
            want[12 * i + 4 + c] = col[i] < 0 ? 0 : 10 * col[i] + c + 1;
            want[12 * i + 8 + c] = 7;
        }
    check("divergent-pushed.vp", in, want, 96);
    /* all equal: 2 -> pal[3], pal[2] */
    const char *const twos[8] = {"2", "2", "2", "2", "2", "2", "2", "2"};
    attrib1_inputs(in, sizeof(in), env, twos);
    for (unsigned i = 0; i < 8; i++)
        for (unsigned c = 0; c < 4; c++) {
            want[12 * i + c] = 31 + c;
            want[12 * i + 4 + c] = 21 + c;
            want[12 * i + 8 + c] = 7;
        }
    check("divergent-pushed.vp", in, want, 96);
    struct st_gen_run_stats st;
    gen_sends("divergent-pushed.vp", in, &st);
    assert_int_equal(st.sends_by_sfid[0xC], 2);
}

/*
 * pal[A0.x + 1].y alone (pal as above): one VxH mov, 3 * 2 + 4 = 10 issue
 * cycles, against a gather's 3 * 2 + 2 + 2 = 10: a tie keeps the mov, so
 * the array is pushed in a block of its own with one zero vector around
 * it, and the index is clamped into the zeros.
 */
static void test_index_per_channel_pushed(void **state)
{
    (void)state;
    char *k = kernel("divergent-pushed-x.vp", 8, NULL);
    assert_non_null(strstr(k, "c0-c5 (relative, 1 zero vectors around) at r"));
    assert_non_null(strstr(k, "// c[a0.x+1] (mov, 1 read): index per channel, constants pushed in "
                              "their own block: per-channel register-indirect movs (VxH); issue "
                              "cycles: VxH 10, gather 10"));
    /* one address per channel: a0.0-a0.7 from the indices, one mov */
    assert_int_equal(count(k, "a0.0<1>:uw"), 1);
    assert_int_equal(count(k, "<1,0>:f"), 1);
    assert_int_equal(count(k, "sel ("), 1);
    /* one message, the end-of-thread URB write: no constant read */
    assert_int_equal(count(k, " send (") + count(k, " sends ("), 1);
    free(k);
    const char *env = "\"program.env[0]\": [1, 2, 3, 4], \"program.env[1]\": [11, 12, 13, 14], "
                      "\"program.env[2]\": [21, 22, 23, 24], \"program.env[3]\": [31, 32, 33, 34], "
                      "\"program.env[4]\": [41, 42, 43, 44], \"program.env[5]\": [51, 52, 53, 54], "
                      "\"program.env[6]\": [7, 7, 7, 7]";
    /* pal[a + 1].y: -1.5 (-2) and -1 below, 4.5 (4) the last row, 5 and 1e9 past it */
    const char *xs[8] = {"0", "1", "4.5", "5", "-1", "-1.5", "2.25", "1e9"};
    const int row[8] = {1, 2, 5, -1, 0, -1, 3, -1};
    char in[2048];
    attrib1_inputs(in, sizeof(in), env, xs);
    double want[8 * 8];
    for (unsigned i = 0; i < 8; i++)
        for (unsigned c = 0; c < 4; c++) {
            want[8 * i + c] = row[i] < 0 ? 0 : 10 * row[i] + 2;
            want[8 * i + 4 + c] = 7;
        }
    check("divergent-pushed-x.vp", in, want, 64);
}

/*
 * c[aL + 1] in a loop inside a branch: aL per channel, c1 + c2 added where
 * v0.x > 0 (c1 = (1, 2, 3, 4), c2 = (10, 20, 30, 40)), else 0.
 */
static void test_index_per_channel_known_range(void **state)
{
    (void)state;
    char *k = kernel("divergent-loop.vs.asm", 8, NULL);
    /* a whole vector: one gather of the pushed vectors' place in the
     * constant buffer, 2 * 2 + 2 = 6 issue cycles, beats four VxH movs,
     * 2 * 2 + 4 * 4 = 20 */
    assert_non_null(strstr(k, "// c[aL+1] (add, 1 read): index per channel, constants pushed: "
                              "an untyped read per vector (gather); issue cycles: VxH 20, gather 6"));
    assert_int_equal(count(k, "<1,0>:f"), 0);
    assert_int_equal(count(k, " 0xC 0x02406008"), 1);
    assert_int_equal(count(k, "sel"), 0); /* the loop's counts bound the index */
    free(k);
    const char *in = "{\"constants\": {\"c1\": [1, 2, 3, 4], \"c2\": [10, 20, 30, 40]}, "
                     "\"invocations\": [{\"v0\": [1, 0, 0, 0]}, {\"v0\": [-1, 0, 0, 0]}, "
                     "{\"v0\": [2, 0, 0, 0]}, {\"v0\": [0, 5, 0, 0]}]}";
    const double want[] = {11, 22, 33, 44, 0, 0, 0, 0, 11, 22, 33, 44, 0, 0, 0, 0};
    check("divergent-loop.vs.asm", in, want, 16);
}

/*
 * c[a0.x + 2] and c[a0.x + 250], a0.x = v1.x per vertex; c_n = (n, 2n,
 * 0.5, 100 - n) for the n given, every other constant 0 (c247 too).
 */
static void test_index_per_channel_gather(void **state)
{
    (void)state;
    char *k = kernel("divergent-pulled.vs.asm", 8, NULL);
    assert_int_equal(count(k, "index per channel, constants pulled: an untyped read per vector "
                              "(gather)"),
                     2);
    assert_int_equal(count(k, " 0xC 0x02406008"), 2); /* untyped read, SIMD8, 4 channels, BTI 8 */
    /* the byte address shared, the rounded index scaled in float so that
     * its conversion saturates where a clamp kept the shift from wrapping
     * (gen/opt_fold.c): 16 a once, each vector adds 16 (k + 8) (the shared
     * address's 2^30 and each vector's bias -2^30 cancel) */
    assert_int_equal(count(k, "sel ("), 0);
    assert_int_equal(count(k, "shl ("), 0);
    assert_non_null(strstr(k, " 16.0:f"));
    assert_null(strstr(k, "1073741824"));
    assert_non_null(strstr(k, " 160:d"));
    assert_non_null(strstr(k, " 4128:d"));
    free(k);
    const int ns[] = {0, 2, 3, 5, 7, 8, 248, 250, 251, 253, 255};
    char consts[2048];
    int n = 0;
    for (unsigned i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
        n += snprintf(consts + n, sizeof(consts) - (size_t)n, "%s\"c%d\": [%d, %d, 0.5, %d]",
                      i ? ", " : "", ns[i], ns[i], 2 * ns[i], 100 - ns[i]);
    const char *xs[8] = {"0", "1", "5", "-2", "-3", "3", "6", "1e9"};
    const int a[8] = {2, 3, 7, 0, -1, 5, 8, -1}, b[8] = {250, 251, 255, 248, 247, 253, -1, -1};
    char in[4096];
    /* all different; all equal (1); all far below (-1e9: the float scaled
     * by 16 saturates to INT_MIN, so no vector is read) */
    for (int equal = 0; equal < 3; equal++) {
        int m = snprintf(in, sizeof(in), "{\"constants\": {%s}, \"invocations\": [", consts);
        for (unsigned i = 0; i < 8; i++)
            m += snprintf(in + m, sizeof(in) - (size_t)m, "%s{\"v1\": [%s, 0, 0, 0]}", i ? ", " : "",
                          equal == 2 ? "-1e9" : equal ? "1" : xs[i]);
        snprintf(in + m, sizeof(in) - (size_t)m, "]}");
        double want[64];
        for (unsigned i = 0; i < 8; i++) {
            int r[2] = {equal == 2 ? -1 : equal ? 3 : a[i], equal == 2 ? -1 : equal ? 251 : b[i]};
            for (unsigned o = 0; o < 2; o++) {
                bool given = false;
                for (unsigned j = 0; j < sizeof(ns) / sizeof(ns[0]); j++)
                    given = given || ns[j] == r[o];
                const double v[4] = {r[o], 2 * r[o], 0.5, 100 - r[o]};
                for (unsigned c = 0; c < 4; c++)
                    want[8 * i + 4 * o + c] = given ? v[c] : 0;
            }
        }
        check("divergent-pulled.vs.asm", in, want, 64);
        /* one untyped read per vector per thread: two reads */
        struct st_gen_run_stats st;
        gen_sends("divergent-pulled.vs.asm", in, &st);
        assert_int_equal(st.sends_by_sfid[0xC], 2);
    }
}

/*
 * An array of 300 vectors (too many to push) between two other parameters:
 * big[i] = program.local[i] (local[0] = (5, 6, 7, 8), local[1] = (11, 12,
 * 13, 14), local[298] = (20, 21, 22, 23), local[299] = (9, 9, 9, 9), the
 * rest 0); position = big[A0.x], color = big[A0.x + 1], 0 outside the
 * array whatever the buffer holds next to it; texcoord[0] = env[0] +
 * env[1] = (3, 3, 3, 3).  A0 uniform (env[2].x: a block read with each
 * vector checked) and per vertex (attrib[1].x: a gather).
 */
static void array_want(int a0, double *w)
{
    static const double local[4][4] = {{5, 6, 7, 8}, {11, 12, 13, 14}, {20, 21, 22, 23}, {9, 9, 9, 9}};
    for (int v = 0; v < 2; v++) {
        int i = a0 + v, row = i == 0 ? 0 : i == 1 ? 1 : i == 298 ? 2 : i == 299 ? 3 : -1;
        for (unsigned c = 0; c < 4; c++)
            w[4 * v + c] = row < 0 ? 0 : local[row][c];
    }
    for (unsigned c = 0; c < 4; c++)
        w[8 + c] = 3;
}

static void test_pulled_array(void **state)
{
    (void)state;
    char *k = kernel("pulled-array.vp", 8, NULL);
    assert_non_null(strstr(k, "(mov, 2 reads): index uniform, constants pulled: one OWord block read"));
    assert_int_equal(count(k, "(W&f0.0)  mov (4|M0)"), 2); /* each vector zeroed outside the array */
    free(k);
    k = kernel("pulled-array-gather.vp", 8, NULL);
    assert_non_null(strstr(k, "(mov, 2 reads): index per channel, constants pulled: an untyped read "
                              "per vector (gather)"));
    free(k);
    const char *params = "\"program.env[0]\": [1, 1, 1, 1], \"program.env[1]\": [2, 2, 2, 2], "
                         "\"program.local[0]\": [5, 6, 7, 8], \"program.local[1]\": [11, 12, 13, 14], "
                         "\"program.local[298]\": [20, 21, 22, 23], "
                         "\"program.local[299]\": [9, 9, 9, 9]";
    const int a0[8] = {0, 298, 299, -1, 1000, -1000, 1, 297};
    const char *xs[8] = {"0.5", "298", "299.75", "-1", "1000", "-1000", "1", "297"};
    char in[2048];
    double want[8 * 12];
    for (unsigned r = 0; r < 6; r++) {
        snprintf(in, sizeof(in), "{\"constants\": {%s, \"program.env[2]\": [%d, 0, 0, 0]}, "
                                 "\"invocations\": [{}, {}]}", params, a0[r]);
        array_want(a0[r], want);
        array_want(a0[r], want + 12);
        check("pulled-array.vp", in, want, 24);
    }
    int n = snprintf(in, sizeof(in), "{\"constants\": {%s}, \"invocations\": [", params);
    for (unsigned i = 0; i < 8; i++) {
        n += snprintf(in + n, sizeof(in) - (size_t)n, "%s{\"vertex.attrib[1]\": [%s]}", i ? ", " : "",
                      xs[i]);
        array_want(a0[i], want + 12 * i);
    }
    snprintf(in + n, sizeof(in) - (size_t)n, "]}");
    check("pulled-array-gather.vp", in, want, 96);
}

/*
 * a0.x = c1.x, c2.x or c3.x by branch (v1.x > 0; else v1.y > 0; else),
 * o0 = rows c[a0.x + 10..13], o1 = rows c[a0.x + 14..17]; c_n = (n, 0,
 * 0, 0) for n = 4..24, c0 = 0 (def), c1..c3 the indices; with v0 = (1, 10,
 * 100, 1000) each output component is its row's x.  Eight rows through at
 * most three indices: the waterfall does one block read per distinct index
 * among the vertices of the thread, whichever branch produced it.
 */
static void test_waterfall(void **state)
{
    (void)state;
    char *stats;
    char *k = kernel("waterfall.vs.asm", 8, &stats);
    assert_non_null(strstr(k, "// c[a0.x+10..+17] (dp4, 8 reads): index per channel (at most 3 "
                              "values), constants pulled: waterfall loop, one block read per "
                              "distinct index"));
    assert_int_equal(count(k, "fbl (1|M0)"), 1);
    assert_int_equal(count(k, "sr0.2"), 1);                /* the dispatch mask ANDed with ce0 */
    assert_int_equal(count(k, " 0x9 0x02480408"), 1);      /* 8 OWords: rlen 4, control 4, BTI 8 */
    assert_non_null(strstr(stats, "waterfall 1"));
    free(stats);
    free(k);
    struct {
        const char *a[3];
        const char *v1[8];
        unsigned n, reads;
        int idx[8]; /* each vertex's a0.x */
    } runs[] = {
        /* three distinct indices; -12 straddles c0: rows -2, -1 (0), c0 (0), c1 = (3, ..) */
        {{"3", "6", "-12"},
         {"[1, 0]", "[-1, 1]", "[-1, -1]", "[1, 1]", "[0.5, 0]", "[0, 0]", "[0, 2]", "[2, -5]"},
         8, 3, {3, 6, -12, 3, 3, -12, 6, 3}},
        /* every branch gives 5: one distinct index, one read */
        {{"5", "5", "5"},
         {"[1, 0]", "[-1, 1]", "[-1, -1]", "[1, 1]", "[0.5, 0]", "[0, 0]", "[0, 2]", "[2, -5]"},
         8, 1, {5, 5, 5, 5, 5, 5, 5, 5}},
        /* past the file (300: rows 310.., 245: rows 255 = 0, 256.. past) and inside (7) */
        {{"300", "245", "7"},
         {"[1, 0]", "[-1, 1]", "[-1, -1]", "[1, 0]", "[1, 0]", "[1, 0]", "[1, 0]", "[1, 0]"},
         8, 3, {300, 245, 7, 300, 300, 300, 300, 300}},
        /* three vertices in the thread (the channels never dispatched take no turn) */
        {{"4", "8", "9"}, {"[1, 0]", "[1, 0]", "[1, 0]"}, 3, 1, {4, 4, 4}},
        /* every vertex of the thread a different index: a read each */
        {{"4", "8", "-2"}, {"[1, 0]", "[-1, 1]", "[-1, -1]"}, 3, 3, {4, 8, -2}},
    };
    for (unsigned r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
        char in[4096];
        int n = snprintf(in, sizeof(in), "{\"constants\": {\"c1\": [%s, 0, 0, 0], "
                                         "\"c2\": [%s, 0, 0, 0], \"c3\": [%s, 0, 0, 0]",
                         runs[r].a[0], runs[r].a[1], runs[r].a[2]);
        for (int c = 4; c <= 24; c++)
            n += snprintf(in + n, sizeof(in) - (size_t)n, ", \"c%d\": [%d, 0, 0, 0]", c, c);
        n += snprintf(in + n, sizeof(in) - (size_t)n, "}, \"invocations\": [");
        for (unsigned i = 0; i < runs[r].n; i++)
            n += snprintf(in + n, sizeof(in) - (size_t)n,
                          "%s{\"v0\": [1, 10, 100, 1000], \"v1\": %s}", i ? ", " : "",
                          runs[r].v1[i]);
        snprintf(in + n, sizeof(in) - (size_t)n, "]}");
        double want[64];
        for (unsigned i = 0; i < runs[r].n; i++)
            for (unsigned c = 0; c < 8; c++) {
                int row = runs[r].idx[i] + 10 + (int)c;
                double x = row >= 4 && row <= 24 ? row : 0;
                if (row >= 1 && row <= 3)
                    x = atof(runs[r].a[row - 1]);
                want[8 * i + c] = x;
            }
        check("waterfall.vs.asm", in, want, 8 * runs[r].n);
        struct st_gen_run_stats st;
        gen_sends("waterfall.vs.asm", in, &st);
        assert_int_equal(st.threads, 1);
        assert_int_equal(st.sends_by_sfid[9], runs[r].reads);
    }
}

/*
 * Two waterfall loops over the same index, the second in a branch: a0.x =
 * c1.x (3) where v1.x > 0, else c2.x (6); o0 = rows c[a0.x + 10..13], o1 =
 * rows c[a0.x + 20..23] where v1.y > 0, else 0 (c_n = (n, 0, 0, 0), v0 =
 * (1, 10, 100, 1000)).  The first loop serves {3, 6}, the second the
 * vertices with v1.y > 0: (1, 1) and (-1, 1), also {3, 6}: four block reads.
 */
static void test_two_waterfalls(void **state)
{
    (void)state;
    char *k = kernel("waterfall-twice.vs.asm", 8, NULL);
    assert_int_equal(count(k, "waterfall loop, one block read per distinct index"), 2);
    assert_int_equal(count(k, "fbl (1|M0)"), 2);
    free(k);
    char in[2048];
    int n = snprintf(in, sizeof(in), "{\"constants\": {\"c1\": [3, 0, 0, 0], \"c2\": [6, 0, 0, 0]");
    for (int c = 13; c <= 29; c++)
        n += snprintf(in + n, sizeof(in) - (size_t)n, ", \"c%d\": [%d, 0, 0, 0]", c, c);
    snprintf(in + n, sizeof(in) - (size_t)n,
             "}, \"invocations\": [{\"v0\": [1, 10, 100, 1000], \"v1\": [1, 1]}, "
             "{\"v0\": [1, 10, 100, 1000], \"v1\": [-1, 1]}, "
             "{\"v0\": [1, 10, 100, 1000], \"v1\": [1, -1]}, "
             "{\"v0\": [1, 10, 100, 1000], \"v1\": [-1, -1]}]}");
    const double want[] = {13, 14, 15, 16, 23, 24, 25, 26, 16, 17, 18, 19, 26, 27, 28, 29,
                           13, 14, 15, 16, 0, 0, 0, 0, 16, 17, 18, 19, 0, 0, 0, 0};
    check("waterfall-twice.vs.asm", in, want, 32);
    struct st_gen_run_stats st;
    gen_sends("waterfall-twice.vs.asm", in, &st);
    assert_int_equal(st.sends_by_sfid[9], 4);
}

/*
 * v[aL + k] with aL uniform and the registers it reaches pushed one after
 * the other: through a0 too (gen/kernel.c), a GRF per component of a
 * vertex attribute, a setup group per component (then pln) in a pixel
 * shader, instead of a compare and a predicated read per register.  The
 * values are the samples' goldens (tests/test_samples.c) and the random
 * plane inputs of tests/test_diff_gen.c at every width.
 */
static void test_input_relative_through_a0(void **state)
{
    (void)state;
    const char *root = getenv("ST_ROOT");
    char path[1024];
    const char *files[2] = {"10-input-array.vs.asm", "29-multi-light.ps.asm"};
    for (unsigned f = 0; f < 2; f++) {
        snprintf(path, sizeof(path), "%s/samples/%s", root ? root : ".", files[f]);
        char *src = slurp(path, NULL);
        assert_non_null(src);
        for (unsigned simd = 8; simd <= (f ? 32u : 8u); simd *= 2) {
            struct st_options o;
            memset(&o, 0, sizeof(o));
            o.struct_version = ST_OPTIONS_VERSION;
            o.filename = files[f];
            o.source = src;
            o.source_len = strlen(src);
            o.emit = ST_EMIT_GEN;
            o.simd_width = simd;
            struct st_result *res = NULL;
            assert_int_equal(st_compile(&o, &res), 0);
            assert_true(res->ok);
            if (f == 0) {
                /* v1[aL] and v[aL + 1]: 4 + 3 components, a0 = aL * 128 (and c[aL + 10]);
                 * the compares left: the loop's and o[aL + 1]'s four registers */
                assert_int_equal(count(res->output, "]<8;8,1>:f"), 7);
                assert_int_equal(count(res->output, "0x7:uw"), 2);
                assert_int_equal(count(res->output, "cmp ("), 5);
            } else {
                /* v[aL].xyz and v0[aL].w: the setup groups, a0 = aL * 64, then pln;
                 * the compare left: the loop's (a SIMD32 one prints as two halves) */
                assert_int_equal(count(res->output, "0x6:uw"), 2);
                assert_int_equal(count(res->output, "]<4;4,1>:f"), 4);
                assert_int_equal(count(res->output, "cmp ("), simd == 32 ? 2 : 1);
            }
            st_result_free(res);
        }
        free(src);
    }
}

/* ------------------------------------------------------------------ */
/* The pseudo-instructions at every width, as printed (gen/indirect.c).  */

static struct gen_inst *inst(struct gen_program *p, enum gen_op o, unsigned exec)
{
    struct gen_inst *i = gen_append(p);
    i->op = (uint8_t)o;
    i->exec = (uint8_t)exec;
    i->nomask = exec == 1;
    i->jip = i->uip = -1;
    return i;
}

/*
 * A hand-built program at SIMD8, 16 and 32 (no shader has per-channel
 * relative constant reads in a pixel shader, the only wider stage): the
 * channels' indices in r10.. (a dword each), "pushed" vectors from r2 (vector
 * v = (100v, 100v+1, 100v+2, 100v+3)); a per-channel read of vectors
 * idx + 1 and idx + 2, component z, into an EOT block; a uniform
 * read of vectors idx + 1.. through the first live channel's index (BCAST).
 * The dispatch mask leaves channels out below the first live one, which
 * ce0 still shows: BCAST must take the first dispatched channel.
 */
static void test_pseudo_instructions_at_each_width(void **state)
{
    (void)state;
    for (unsigned simd = 8; simd <= 32; simd *= 2) {
        struct gen_program p;
        memset(&p, 0, sizeof(p));
        p.simd = simd;
        p.layout.stage = ST_PS;
        uint32_t ds = 4 * simd;
        uint32_t idx = gen_new_vreg(&p, ds, false);
        struct gen_inst *i = inst(&p, GOP_MOV, simd);
        i->dst = gen_vr(idx, 0, GT_D);
        i->src[0] = gen_fixed(10 * GEN_GRF_SIZE, GT_D, GR_VEC);
        /* EOT block: 2 per-channel slots, then the uniform vectors and the broadcast index */
        uint32_t out = gen_new_vreg(&p, 2 * ds + 64, false);
        p.vreg[out].no_spill = true;
        p.vreg[out].grf_lo = GEN_EOT_FIRST_GRF;
        uint32_t blk = gen_new_vreg(&p, 2 * ds, false);
        p.vreg[blk].no_spill = true;
        i = inst(&p, GOP_MOVI, simd);
        i->dst = gen_vr(blk, 0, GT_F);
        i->src[0] = gen_vr(idx, 0, GT_D);
        i->src[1] = gen_fixed(2 * GEN_GRF_SIZE, GT_UD, GR_SCALAR);
        i->src[1].imm = 4 * GEN_GRF_SIZE;
        i->src[2] = gen_imm(gen_movi_imm(2 * GEN_GRF_SIZE + 16, 2, 0x4, 0x3), GT_UD);
        for (unsigned k = 0; k < 2; k++) {
            i = inst(&p, GOP_MOV, simd);
            i->dst = gen_vr(out, k * ds, GT_F);
            i->src[0] = gen_vr(blk, k * ds, GT_F);
        }
        uint32_t u = gen_new_vreg(&p, 4, true);
        i = inst(&p, GOP_BCAST, 1);
        i->dst = gen_vr(u, 0, GT_UD);
        i->src[0] = gen_vr(idx, 0, GT_UD);
        uint32_t ub = gen_new_vreg(&p, 32, true);
        p.vreg[ub].no_spill = true;
        i = inst(&p, GOP_MOVI, 1);
        i->dst = gen_vr(ub, 0, GT_UD);
        i->src[0] = gen_vr(u, 0, GT_D);
        /* a base past the address immediate's reach: a0 gets it added */
        i->src[1] = gen_fixed(2 * GEN_GRF_SIZE, GT_UD, GR_SCALAR);
        i->src[1].imm = 4 * GEN_GRF_SIZE;
        i->src[2] = gen_imm(gen_movi_imm(2 * GEN_GRF_SIZE + 16, 2, 0, 0x3), GT_UD);
        i = inst(&p, GOP_MOV, 8);
        i->nomask = true;
        i->dst = gen_vr(out, 2 * ds, GT_UD);
        i->src[0] = gen_vr(ub, 0, GT_UD);
        i->src[0].region = GR_VEC; /* the eight dwords, not a scalar */
        i = inst(&p, GOP_MOV, 1);
        i->dst = gen_vr(out, 2 * ds + 32, GT_UD);
        i->src[0] = gen_vr(u, 0, GT_UD);
        i = inst(&p, GOP_SEND, 8);
        i->nomask = true;
        i->dst = gen_null(GT_UD);
        i->src[0] = gen_vr(out, 0, GT_UD);
        i->sfid = 7;
        i->exdesc = 7;
        i->mlen = 1;
        i->eot = true;
        i->desc = gen_desc(1, 0, false, 0x10);
        assert_true(gen_allocate(&p));
        gen_resolve_flow(&p);
        struct st_buf text = {0};
        gen_print(&p, &text);
        assert_non_null(text.data);
        /* the native instructions: a0 from the indices once per half, a mov per slot */
        unsigned halves = simd == 32 ? 2 : 1, n, sends, loops, cycles;
        assert_int_equal(count(text.data, "<1,0>:f"), 2 * halves);
        assert_int_equal(count(text.data, "<16;8,2>:uw"), halves);
        assert_int_equal(count(text.data, "fbl (1|M0)"), 1);
        gen_count(&p, &n, &sends, &loops, &cycles);
        /* the statistics count what is printed */
        unsigned lines = 0;
        for (const char *q = text.data; *q; q++)
            lines += *q == '\n';
        assert_int_equal(n, lines);
        char err[GENSIM_ERR_LEN];
        gensim_program *g = gensim_parse(text.data, "pseudo.asm", err, sizeof(err));
        if (!g)
            fail_msg("%s\n%s", err, text.data);
        gensim_config cfg;
        memset(&cfg, 0, sizeof(cfg));
        uint32_t all = simd == 32 ? 0xffffffffu : (1u << simd) - 1;
        cfg.dispatch_mask = all & ~7u; /* channels 0-2 not dispatched */
        cfg.dispatch_width = simd;
        gensim_thread *t = gensim_thread_new(g, &cfg);
        assert_non_null(t);
        for (unsigned v = 0; v < 8; v++)
            for (unsigned c = 0; c < 4; c++)
                gensim_set_u32(t, 2 + v / 2, (v % 2) * 4 + c, 100 * v + c);
        for (unsigned ch = 0; ch < simd; ch++)
            gensim_set_u32(t, 10 + ch / 8, ch % 8, ch % 6); /* indices 0..5 */
        if (gensim_run(t, 10000) != GENSIM_OK)
            fail_msg("%s\n%s", gensim_error(t), text.data);
        uint32_t o = (uint32_t)p.vreg[out].loc;
        for (unsigned ch = 3; ch < simd; ch++) {
            unsigned x = ch % 6;
            for (unsigned k = 0; k < 2; k++) {
                /* slot k: vector x + 1 + k, component z */
                uint32_t want = 100 * (x + 1 + k) + 2;
                uint32_t a = o + k * ds + 4 * ch;
                assert_int_equal(gensim_u32(t, a / 32, (a % 32) / 4), want);
            }
        }
        /* the first dispatched channel is 3: vectors 4 and 5 whole, then its index */
        uint32_t a = o + 2 * ds;
        for (unsigned w = 0; w < 8; w++)
            assert_int_equal(gensim_u32(t, a / 32, w), 100 * (4 + w / 4) + w % 4);
        assert_int_equal(gensim_u32(t, (a + 32) / 32, 0), 3);
        gensim_thread_free(t);
        gensim_program_free(g);
        st_buf_free(&text);
        gen_program_free(&p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uniform_index_pushed),
        cmocka_unit_test(test_uniform_index_pulled),
        cmocka_unit_test(test_index_per_channel_array_copy),
        cmocka_unit_test(test_index_per_channel_pushed),
        cmocka_unit_test(test_index_per_channel_known_range),
        cmocka_unit_test(test_index_per_channel_gather),
        cmocka_unit_test(test_pulled_array),
        cmocka_unit_test(test_waterfall),
        cmocka_unit_test(test_two_waterfalls),
        cmocka_unit_test(test_input_relative_through_a0),
        cmocka_unit_test(test_pseudo_instructions_at_each_width),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
