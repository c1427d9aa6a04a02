/*
 * test_diff_llvm.c — the LLVM JIT against the reference interpreter.
 *
 * Every sample (samples/NN-name.asm) and every valid D3D9 shader of the corpus
 * ($ST_CORPUS_DIR/manifest.tsv) is lowered, optimized and JIT-compiled,
 * then run by both engines on the same random inputs (fixed seed): normal
 * values, zeros of both signs, infinities, NaN, denormals, random loop
 * counts and booleans, random textures and bump matrices, partial quads.
 * The outputs must agree bit for bit (any NaN equals any NaN: the outputs
 * JSON prints every NaN as "nan"), under both float rules.  Both modules
 * (as lowered and after the passes) must pass the verifier, and
 * reassemble with llvm-as when it is installed.
 *
 * Shaders the front end rejects are not this test's business and are only
 * counted; a sample the lowering cannot handle is a failure, a corpus
 * shader it cannot handle is counted (and listed with ST_VERBOSE=1).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <math.h>

#include <cmocka.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>

#include "driver.h"
#include "emit.h"
#include "passes.h"
#include "translator.h"
#include "test_rng.h"
#include "test_util.h"

/* Input batches per shader and rule (samples get more: they are the
 * shaders written to cover the instruction set); $ST_DIFF_BATCHES
 * overrides both. */
enum { SAMPLE_BATCHES = 12, CORPUS_BATCHES = 3, INVOCATIONS = 18 /* four quads and a partial one */ };

static void rnd_vec(struct rng *r, float v[4])
{
    for (int k = 0; k < 4; k++)
        v[k] = rnd_float(r);
}

/* Inputs for a checked shader: random values, then the shader's defs. */
static void make_inputs(struct rng *r, const struct st_shader *sh, struct st_run_inputs *in,
                        struct st_run_invocation *inv, float (*texels)[4], size_t max_texels)
{
    memset(in, 0, sizeof(*in));
    for (int k = 0; k < ST_RUN_NUM_CONSTS; k++)
        rnd_vec(r, in->c[k]);
    for (int k = 0; k < ST_RUN_NUM_ICONSTS; k++) {
        in->i[k][0] = (int32_t)(rnd(r) % 7);
        in->i[k][1] = (int32_t)(rnd(r) % 10) - 3;
        in->i[k][2] = (int32_t)(rnd(r) % 6) - 2;
        in->i[k][3] = (int32_t)(rnd(r) % 5);
    }
    for (int k = 0; k < ST_RUN_NUM_BCONSTS; k++)
        in->b[k] = rnd(r) & 1;
    size_t used = 0;
    for (int s = 0; s < ST_RUN_NUM_SAMPLERS - 1; s++) {
        enum st_sampler_type type = ST_SAMPLER_2D;
        for (const struct st_instr *i = sh->first; i; i = i->next)
            if (i->op == ST_OP_DCL && i->dst.reg.file == ST_REG_SAMPLER &&
                i->dst.reg.index == (uint32_t)s && i->sampler_type != ST_SAMPLER_NONE)
                type = i->sampler_type;
        struct st_run_texture *t = &in->tex[s];
        t->type = type;
        t->width = 1 + rnd(r) % 4;
        t->height = 1 + rnd(r) % 4;
        t->depth = type == ST_SAMPLER_CUBE ? 6 : type == ST_SAMPLER_VOLUME ? 1 + rnd(r) % 3 : 1;
        size_t n = (size_t)t->width * t->height * t->depth;
        if (used + n > max_texels) {
            t->type = ST_SAMPLER_NONE;
            continue;
        }
        for (size_t k = 0; k < n; k++)
            rnd_vec(r, texels[used + k]);
        t->texels = (const float(*)[4])texels + used;
        used += n;
    }
    /* s15 stays without a texture: sampling it gives (0,0,0,1) */
    for (int s = 0; s < ST_RUN_NUM_SAMPLERS; s++) {
        for (int k = 0; k < 4; k++)
            in->bumpenv[s].mat[k] = rnd_float(r);
        in->bumpenv[s].lscale = rnd_float(r);
        in->bumpenv[s].loffset = rnd_float(r);
    }
    in->num_invocations = INVOCATIONS;
    in->inv = inv;
    for (unsigned k = 0; k < INVOCATIONS; k++)
        for (int s = 0; s < ST_LL_IN_SLOTS; s++)
            rnd_vec(r, inv[k].in[s]);
    for (const struct st_instr *i = sh->first; i; i = i->next) {
        uint32_t d = i->dst.reg.index;
        if (i->op == ST_OP_DEF && d < ST_RUN_NUM_CONSTS)
            memcpy(in->c[d], i->imm.f, sizeof(in->c[d]));
        else if (i->op == ST_OP_DEFI && d < ST_RUN_NUM_ICONSTS)
            memcpy(in->i[d], i->imm.i, sizeof(in->i[d]));
        else if (i->op == ST_OP_DEFB && d < ST_RUN_NUM_BCONSTS)
            in->b[d] = i->imm.b;
    }
}

/*
 * ARB programs: the same random records, then what st_run_inputs_parse
 * guarantees: literal parameters hold their value (the lowering makes them
 * immediates), and each texture unit has the type its target samples.
 */
static void make_arb_inputs(struct rng *r, const struct st_shader *sh, struct st_run_inputs *in,
                            struct st_run_invocation *inv, float (*texels)[4], size_t max_texels)
{
    make_inputs(r, sh, in, inv, texels, max_texels);
    const struct st_arb_program *a = sh->arb;
    /* parameter slots past the run struct's 256: the counted array, as
     * st_run_inputs_parse allocates it for such programs */
    static float more[8192][4];
    struct st_arb_run_slots sl;
    st_arb_run_slots(sh, &sl);
    if (sl.num_c > ST_RUN_NUM_CONSTS && sl.num_c - ST_RUN_NUM_CONSTS <= 8192) {
        in->num_c_more = sl.num_c - ST_RUN_NUM_CONSTS;
        in->c_more = more;
        for (unsigned k = 0; k < in->num_c_more; k++)
            rnd_vec(r, more[k]);
    }
    for (unsigned k = 0; k < a->num_params && k < st_run_num_consts(in); k++)
        if (a->params[k].kind == ST_ARB_PARAM_CONST)
            memcpy((float *)st_run_const(in, k), a->params[k].value, sizeof(a->params[k].value));
    size_t used = 0;
    for (int s = 0; s < ST_RUN_NUM_SAMPLERS - 1; s++) {
        enum st_arb_tex_target target = ST_ARB_TEX_2D;
        for (const struct st_instr *i = sh->first; i; i = i->next)
            if (i->arb && (i->op == ST_OP_ARB_TEX || i->op == ST_OP_ARB_TXP ||
                           i->op == ST_OP_ARB_TXB) && i->arb->tex_unit == (uint32_t)s)
                target = i->arb->tex_target;
        struct st_run_texture *t = &in->tex[s];
        t->type = target == ST_ARB_TEX_CUBE ? ST_SAMPLER_CUBE
                : target == ST_ARB_TEX_3D   ? ST_SAMPLER_VOLUME : ST_SAMPLER_2D;
        t->width = 1 + rnd(r) % 4;
        t->height = target == ST_ARB_TEX_1D || target == ST_ARB_TEX_SHADOW1D ? 1
                  : t->type == ST_SAMPLER_CUBE ? t->width : 1 + rnd(r) % 4;
        t->depth = t->type == ST_SAMPLER_CUBE ? 6 : t->type == ST_SAMPLER_VOLUME ? 1 + rnd(r) % 3 : 1;
        size_t n = (size_t)t->width * t->height * t->depth;
        if (used + n > max_texels) {
            t->type = ST_SAMPLER_NONE;
            t->texels = NULL;
            continue;
        }
        for (size_t k = 0; k < n; k++) {
            rnd_vec(r, texels[used + k]);
            if (rnd(r) % 2) /* depth-like values in [0, 1] for the shadow compares */
                texels[used + k][0] = (float)(rnd(r) % 1001) / 1000.0f;
        }
        t->texels = (const float(*)[4])texels + used;
        used += n;
    }
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

static bool same_float(float a, float b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return memcmp(&a, &b, sizeof(a)) == 0;
}

/* Reassembles the module's text with llvm-as; -1 when llvm-as is missing. */
static int reassembles(LLVMModuleRef m)
{
    const char *tool = getenv("LLVM_AS");
    if (!tool)
        tool = "llvm-as-19";
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
    if (system(cmd) != 0)
        return -1;
    snprintf(cmd, sizeof(cmd), "%s -o /dev/null -", tool);
    FILE *p = popen(cmd, "w");
    if (!p)
        return -1;
    char *text = LLVMPrintModuleToString(m);
    fputs(text, p);
    LLVMDisposeMessage(text);
    return pclose(p) == 0;
}

struct totals {
    unsigned shaders, rejected, unsupported, compared, invocations, mismatches, failures;
    unsigned merges_raw, merges_after;
    unsigned pp_shaders; /* also run under --pp=fp16 (a _pp instruction or dcl_pp) */
};

static bool verbose(void)
{
    const char *v = getenv("ST_VERBOSE");
    return v && *v && *v != '0';
}

/* One shader under one float rule. */
static void diff_shader(const char *name, const struct st_shader *sh, const char *src, size_t len,
                        enum st_float_rules rules, bool must_lower, bool check_text,
                        struct totals *t)
{
    struct st_ctx *ctx = st_ctx_create(name, src, len, 1000);
    LLVMContextRef c = LLVMContextCreate();
    LLVMModuleRef m = st_lower_llvm(ctx, sh, rules, c);
    if (!m) {
        if (must_lower) {
            fprintf(stderr, "FAIL %s: the lowering refused a sample\n", name);
            t->failures++;
        } else if (verbose()) {
            fprintf(stderr, "unsupported: %s\n", name);
        }
        t->unsupported++;
        LLVMContextDispose(c);
        st_ctx_destroy(ctx);
        return;
    }
    char *msg = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
        fprintf(stderr, "FAIL %s: raw IR does not verify: %s\n", name, msg);
        t->failures++;
    }
    LLVMDisposeMessage(msg);
    if (check_text && reassembles(m) == 0) {
        fprintf(stderr, "FAIL %s: llvm-as rejects the raw IR\n", name);
        t->failures++;
    }
    struct st_llvm_stats stats;
    if (!st_llvm_pipeline_for(ctx, m, ST_PIPE_JIT, &stats)) {
        fprintf(stderr, "FAIL %s: the pipeline failed\n", name);
        t->failures++;
    } else if (check_text && reassembles(m) == 0) {
        fprintf(stderr, "FAIL %s: llvm-as rejects the optimized IR\n", name);
        t->failures++;
    }
    if (rules == ST_FLOAT_IEEE && !sh->pp_half) {
        t->merges_raw += stats.merges_raw;
        t->merges_after += stats.merges_after;
    }

    static struct st_run_invocation inv[INVOCATIONS];
    static float texels[4096][4];
    static struct st_run_inputs in;
    static struct st_run_outputs o_ref[INVOCATIONS], o_jit[INVOCATIONS];
    /* fixed per shader; $ST_DIFF_SEED explores other inputs */
    const char *seed = getenv("ST_DIFF_SEED");
    struct rng r = {.s = 0x5eed0000u + (uint64_t)len * 2654435761u +
                    (seed ? strtoull(seed, NULL, 10) * 0x9e3779b97f4a7c15ull : 0)};
    unsigned nb = batches(must_lower ? SAMPLE_BATCHES : CORPUS_BATCHES);
    for (unsigned batch = 0; batch < nb; batch++) {
        if (sh->dialect == ST_ARB)
            make_arb_inputs(&r, sh, &in, inv, texels, 4096);
        else
            make_inputs(&r, sh, &in, inv, texels, 4096);
        memset(o_ref, 0, sizeof(o_ref));
        memset(o_jit, 0, sizeof(o_jit));
        struct st_ctx *c1 = st_ctx_create(name, src, len, 1000);
        struct st_ctx *c2 = st_ctx_create(name, src, len, 1000);
        bool ok_ref = st_interp_execute(c1, sh, &in, rules, o_ref);
        bool ok_jit = st_llvm_jit_execute(c2, sh, m, &in, rules, o_jit);
        st_ctx_destroy(c1);
        st_ctx_destroy(c2);
        if (!ok_ref)
            break; /* e.g. the interpreter's call-depth limit: nothing to compare */
        if (!ok_jit) {
            fprintf(stderr, "FAIL %s: the JIT failed\n", name);
            t->failures++;
            break;
        }
        t->compared++;
        for (unsigned k = 0; k < INVOCATIONS; k++) {
            t->invocations++;
            bool bad = o_ref[k].discarded != o_jit[k].discarded || o_ref[k].count != o_jit[k].count;
            for (unsigned g = 0; !bad && !o_ref[k].discarded && g < o_ref[k].count; g++)
                for (unsigned cc = 0; cc < 4; cc++)
                    if (!same_float(o_ref[k].reg[g].v[cc], o_jit[k].reg[g].v[cc])) {
                        char rb[8];
                        const char *rn = st_run_output_label(sh, &o_ref[k].reg[g], rb);
                        if (t->mismatches < 20)
                            fprintf(stderr,
                                    "MISMATCH %s (%s) batch %u invocation %u %s[%u]: "
                                    "interp %.9g (0x%08x) jit %.9g (0x%08x)\n",
                                    name, rules == ST_FLOAT_D3D9 ? "d3d9" : "ieee", batch, k, rn,
                                    cc, o_ref[k].reg[g].v[cc], fbits(o_ref[k].reg[g].v[cc]),
                                    o_jit[k].reg[g].v[cc], fbits(o_jit[k].reg[g].v[cc]));
                        bad = true;
                        break;
                    }
            if (bad)
                t->mismatches++;
        }
    }
    LLVMDisposeModule(m);
    LLVMContextDispose(c);
    st_ctx_destroy(ctx);
}

static void diff_file(const char *path, const char *name, bool must_lower, struct totals *t)
{
    size_t len = 0;
    char *src = slurp(path, &len);
    if (!src) {
        fprintf(stderr, "FAIL cannot read %s\n", path);
        t->failures++;
        return;
    }
    t->shaders++;
    struct st_ctx *ctx = st_ctx_create(name, src, len, 50);
    struct st_arena *arena = st_arena_create();
    bool arb = len >= 5 && memcmp(src, "!!ARB", 5) == 0;
    struct st_shader *sh = arb ? st_parse_arb(ctx, arena) : st_parse_d3d9(ctx, arena);
    if (!sh || st_error_count(ctx) || !(arb ? st_check_arb(ctx, sh) : st_check(ctx, sh))) {
        t->rejected++;
        if (verbose())
            fprintf(stderr, "front end rejects %s\n", name);
    } else {
        diff_shader(name, sh, src, len, ST_FLOAT_IEEE, must_lower, must_lower, t);
        diff_shader(name, sh, src, len, ST_FLOAT_D3D9, must_lower, false, t);
        if (test_has_pp(sh)) {
            /* --pp=fp16 (as st_front_end sets it): every step of a _pp
             * instruction rounded to half, bit for bit in both engines */
            sh->pp_half = true;
            t->pp_shaders++;
            diff_shader(name, sh, src, len, ST_FLOAT_IEEE, must_lower, must_lower, t);
            diff_shader(name, sh, src, len, ST_FLOAT_D3D9, must_lower, false, t);
        }
    }
    st_ctx_destroy(ctx);
    st_arena_destroy(arena);
    free(src);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_samples(void **state)
{
    (void)state;
    const char *root = getenv("ST_ROOT");
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/samples", root ? root : ".");
    DIR *d = opendir(dir);
    assert_non_null(d);
    char *names[512];
    unsigned n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 512;) {
        size_t l = strlen(e->d_name);
        if (l > 4 && strcmp(e->d_name + l - 4, ".asm") == 0)
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof(names[0]), cmp_str);
    struct totals t;
    memset(&t, 0, sizeof(t));
    for (unsigned k = 0; k < n; k++) {
        char path[2048];
        snprintf(path, sizeof(path), "%s/%s", dir, names[k]);
        diff_file(path, names[k], true, &t);
        free(names[k]);
    }
    printf("samples: %u shaders (%u rejected by the front end, %u also under --pp=fp16), %u runs "
           "compared, %u invocations, %u mismatches; merges raw %u, after the passes %u\n",
           t.shaders, t.rejected, t.pp_shaders, t.compared, t.invocations, t.mismatches,
           t.merges_raw, t.merges_after);
    assert_true(t.shaders > 0);
    assert_true(t.pp_shaders >= 4); /* 24, 31, 62, 63 */
    assert_int_equal(t.failures, 0);
    assert_int_equal(t.mismatches, 0);
}

/*
 * The samples' own inputs (NAME.in.json, whose goldens test_samples.c
 * checks against the interpreter): `run --engine=llvm` must print the very
 * same outputs JSON as the interpreter, under both float rules.
 */
static void test_sample_inputs(void **state)
{
    (void)state;
    const char *root = getenv("ST_ROOT");
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/samples", root ? root : ".");
    DIR *d = opendir(dir);
    assert_non_null(d);
    unsigned runs = 0, failures = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l <= 4 || strcmp(e->d_name + l - 4, ".asm") != 0)
            continue;
        char path[2048], inpath[2048];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        snprintf(inpath, sizeof(inpath), "%s/%.*s.in.json", dir, (int)(l - 4), e->d_name);
        size_t len = 0, jlen = 0;
        char *src = slurp(path, &len), *json = slurp(inpath, &jlen);
        if (src && json) {
            struct st_arena *arena = st_arena_create();
            struct st_ctx *ctx = st_ctx_create(e->d_name, src, len, 50);
            struct st_shader *sh = st_parse_d3d9(ctx, arena);
            if (sh && !st_error_count(ctx) && st_check(ctx, sh)) {
                /* a shader with _pp under --pp=fp16 too (rules 2, 3) */
                for (int k = 0; k < (test_has_pp(sh) ? 4 : 2); k++) {
                    int rules = k % 2;
                    sh->pp_half = k >= 2;
                    struct st_buf a = {0}, b = {0};
                    bool ok_jit = st_run_jit(ctx, sh, inpath, json, jlen,
                                              (enum st_float_rules)rules, &a);
                    bool ok_ref = st_interp_run(ctx, sh, inpath, json, jlen,
                                                (enum st_float_rules)rules, &b);
                    runs++;
                    if (ok_jit != ok_ref || (ok_ref && (!a.data || !b.data ||
                                                        strcmp(a.data, b.data) != 0))) {
                        fprintf(stderr, "FAIL %s (%s): run --engine=llvm differs from the "
                                        "interpreter\n", e->d_name, rules ? "d3d9" : "ieee");
                        failures++;
                    }
                    st_buf_free(&a);
                    st_buf_free(&b);
                }
            }
            st_ctx_destroy(ctx);
            st_arena_destroy(arena);
        }
        free(src);
        free(json);
    }
    closedir(d);
    printf("sample inputs: %u runs, %u differing\n", runs, failures);
    assert_true(runs > 0);
    assert_int_equal(failures, 0);
}

static void test_corpus(void **state)
{
    (void)state;
    struct manifest m;
    if (!manifest_open(&m))
        fail_msg("corpus manifest not found in %s (set ST_CORPUS_DIR)", m.dir);
    struct totals t;
    memset(&t, 0, sizeof(t));
    struct manifest_row r;
    while (manifest_next(&m, &r)) {
        if (strcmp(r.dialect, "d3d9") != 0 || strcmp(r.expect, "valid") != 0)
            continue;
        char file[2048];
        manifest_file(&m, &r, file, sizeof(file));
        diff_file(file, r.path, false, &t);
    }
    manifest_close(&m);
    printf("corpus: %u valid d3d9 shaders (%u rejected by the front end, %u lowerings "
           "unsupported), %u runs compared, %u invocations, %u mismatches\n",
           t.shaders, t.rejected, t.unsupported, t.compared, t.invocations, t.mismatches);
    assert_int_equal(t.failures, 0);
    assert_int_equal(t.mismatches, 0);
}

/*
 * ARB programs: every samples/arb/ program (each must lower) and every
 * valid corpus program that needs no NV option, random inputs as above.
 */
static void test_arb_samples(void **state)
{
    (void)state;
    const char *root = getenv("ST_ROOT");
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/samples/arb", root ? root : ".");
    DIR *d = opendir(dir);
    assert_non_null(d);
    char *names[256];
    unsigned n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 256;) {
        size_t l = strlen(e->d_name);
        if (l > 3 && (strcmp(e->d_name + l - 3, ".vp") == 0 || strcmp(e->d_name + l - 3, ".fp") == 0))
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof(names[0]), cmp_str);
    struct totals t;
    memset(&t, 0, sizeof(t));
    for (unsigned k = 0; k < n; k++) {
        char path[2048];
        snprintf(path, sizeof(path), "%s/%s", dir, names[k]);
        diff_file(path, names[k], true, &t);
        free(names[k]);
    }
    printf("arb samples: %u programs (%u rejected by the front end), %u runs compared, "
           "%u invocations, %u mismatches\n",
           t.shaders, t.rejected, t.compared, t.invocations, t.mismatches);
    assert_true(t.shaders >= 16);
    assert_int_equal(t.rejected, 0);
    assert_int_equal(t.failures, 0);
    assert_int_equal(t.mismatches, 0);
}

/* The samples' own inputs through `run`: both engines print the same JSON. */
static void test_arb_sample_inputs(void **state)
{
    (void)state;
    const char *root = getenv("ST_ROOT");
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/samples/arb", root ? root : ".");
    DIR *d = opendir(dir);
    assert_non_null(d);
    unsigned runs = 0, failures = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l <= 3 || (strcmp(e->d_name + l - 3, ".vp") != 0 && strcmp(e->d_name + l - 3, ".fp") != 0))
            continue;
        char path[2048], inpath[2048];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        snprintf(inpath, sizeof(inpath), "%s/%.*s.in.json", dir, (int)(l - 3), e->d_name);
        size_t len = 0, jlen = 0;
        char *src = slurp(path, &len), *json = slurp(inpath, &jlen);
        if (src && json) {
            struct st_arena *arena = st_arena_create();
            struct st_ctx *ctx = st_ctx_create(e->d_name, src, len, 50);
            struct st_shader *sh = st_parse_arb(ctx, arena);
            if (sh && !st_error_count(ctx) && st_check_arb(ctx, sh)) {
                for (int rules = 0; rules < 2; rules++) {
                    struct st_buf a = {0}, b = {0};
                    bool ok_jit = st_run_jit(ctx, sh, inpath, json, jlen,
                                              (enum st_float_rules)rules, &a);
                    bool ok_ref = st_interp_run(ctx, sh, inpath, json, jlen,
                                                (enum st_float_rules)rules, &b);
                    runs++;
                    if (!ok_ref || ok_jit != ok_ref || !a.data || !b.data ||
                        strcmp(a.data, b.data) != 0) {
                        fprintf(stderr, "FAIL %s (%s): run --engine=llvm differs from the "
                                        "interpreter (or a run failed)\n", e->d_name,
                                rules ? "d3d9" : "ieee");
                        failures++;
                    }
                    st_buf_free(&a);
                    st_buf_free(&b);
                }
            }
            st_ctx_destroy(ctx);
            st_arena_destroy(arena);
        }
        free(src);
        free(json);
    }
    closedir(d);
    printf("arb sample inputs: %u runs, %u differing\n", runs, failures);
    assert_true(runs >= 32);
    assert_int_equal(failures, 0);
}

static void test_arb_corpus(void **state)
{
    (void)state;
    struct manifest m;
    if (!manifest_open(&m))
        fail_msg("corpus manifest not found in %s (set ST_CORPUS_DIR)", m.dir);
    struct totals t;
    memset(&t, 0, sizeof(t));
    struct manifest_row r;
    while (manifest_next(&m, &r)) {
        if (strcmp(r.dialect, "arb") != 0 || strcmp(r.expect, "valid") != 0)
            continue;
        /* NV options are rejected by design (docs/arb.md) */
        if (manifest_needs_vendor(&r))
            continue;
        char file[2048];
        manifest_file(&m, &r, file, sizeof(file));
        diff_file(file, r.path, false, &t);
    }
    manifest_close(&m);
    printf("arb corpus: %u valid programs with ARB options only (%u rejected by the front end, "
           "%u lowerings unsupported), %u runs compared, %u invocations, %u mismatches\n",
           t.shaders, t.rejected, t.unsupported, t.compared, t.invocations, t.mismatches);
    assert_true(t.shaders > 0);
    assert_int_equal(t.rejected, 0);
    assert_int_equal(t.unsupported, 0); /* the 1021-parameter program runs too */
    assert_int_equal(t.failures, 0);
    assert_int_equal(t.mismatches, 0);
}

/*
 * aL of a loop over a defi: the lowering selects only among the registers
 * the loop reaches, and leaves the range check out when all of them are
 * inside the file (docs/llvm-abi.md).  A grid of defi values, inside,
 * partly outside and wholly outside v0..v15 / o0..o11 / c0..c255, going up
 * and down, a step of 0, a count of 0 and 255, must still agree bit for
 * bit with the interpreter (which keeps no such shortcut).
 */
static void test_al_defi_grid(void **state)
{
    (void)state;
    static const int counts[] = {0, 1, 4, 255}, starts[] = {-3, 0, 2, 14};
    static const int steps[] = {-1, 0, 1, 3}, offsets[] = {0, 2};
    struct totals t;
    memset(&t, 0, sizeof(t));
    for (unsigned a = 0; a < 4; a++)
        for (unsigned b = 0; b < 4; b++)
            for (unsigned c = 0; c < 4; c++)
                for (unsigned d = 0; d < 2; d++) {
                    char src[1024], name[64];
                    int k = offsets[d];
                    snprintf(src, sizeof(src),
                             "vs_3_0\ndcl_position v0\ndcl_texcoord0 v1\ndcl_texcoord1 v2\n"
                             "dcl_texcoord2 v3\ndcl_texcoord3 v4\ndcl_position o0\n"
                             "dcl_texcoord0 o1\ndcl_texcoord1 o2\ndcl_texcoord2 o3\n"
                             "dcl_texcoord3 o4\ndcl_texcoord4 o5\n"
                             "defi i0, %d, %d, %d, 0\nmov r0, v0\nloop aL, i0\n"
                             "    mov o[aL + %d], v[aL + %d]\n"
                             "    add r0, r0, c[aL + %d]\nendloop\nmov o0, r0\n",
                             counts[a], starts[b], steps[c], k, k, k + 1);
                    snprintf(name, sizeof(name), "defi i0, %d, %d, %d (+%d)", counts[a],
                             starts[b], steps[c], k);
                    size_t len = strlen(src);
                    t.shaders++;
                    struct st_ctx *ctx = st_ctx_create(name, src, len, 50);
                    struct st_arena *arena = st_arena_create();
                    struct st_shader *sh = st_parse_d3d9(ctx, arena);
                    if (!sh || st_error_count(ctx) || !st_check(ctx, sh)) {
                        fprintf(stderr, "FAIL %s: the front end rejects it\n", name);
                        t.failures++;
                    } else {
                        diff_shader(name, sh, src, len, ST_FLOAT_IEEE, true, false, &t);
                        diff_shader(name, sh, src, len, ST_FLOAT_D3D9, true, false, &t);
                    }
                    st_ctx_destroy(ctx);
                    st_arena_destroy(arena);
                }
    printf("aL defi grid: %u shaders, %u runs compared, %u invocations, %u mismatches\n",
           t.shaders, t.compared, t.invocations, t.mismatches);
    assert_int_equal(t.shaders, 128);
    assert_int_equal(t.failures, 0);
    assert_int_equal(t.mismatches, 0);
    assert_true(t.compared > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples),
        cmocka_unit_test(test_sample_inputs),
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_arb_samples),
        cmocka_unit_test(test_arb_sample_inputs),
        cmocka_unit_test(test_arb_corpus),
        cmocka_unit_test(test_al_defi_grid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
