/*
 * test_diff_gen.c — the Gen9 kernels (st_gen_compile_ex) run in the Gen
 * simulator through the Gen engine (emit/gen/run.c) against the reference
 * interpreter, at SIMD8, 16 and 32 (vertex shaders: SIMD8).
 *
 * Every sample (samples/NN-name.asm, samples/arb/NN-name.vp|fp) and every valid corpus
 * shader (D3D9, and ARB programs that need no NV option) runs on random
 * inputs (fixed seed; $ST_DIFF_SEED explores others, $ST_DIFF_BATCHES runs
 * more batches) that differ per invocation so that branches diverge:
 * pixel shader attributes lie on one random plane per 32 invocations
 * (what a rasteriser delivers; docs/gen-abi.md "Gen engine"), so whole
 * SIMD32/16/8 threads are packed, and there are partial quads and partial
 * threads.  Each batch runs under both float rules.  Outputs must agree
 * bit for bit (any NaN equals any NaN) with the interpreter under either
 * reading of the multiply-adds (st_tol_within_either, translator/run/tolerance.c), except
 * for the math tolerances of docs/gensim.md ("Tolerances of the Gen
 * engine"), which this file applies exactly.
 *
 * Shaders the back end reports as not supported are counted and printed by
 * name with the reason; each is an open defect (docs/gen-backend.md), never
 * a silent skip.  A sample the back end refuses fails the test unless it is
 * listed in known_unsupported below.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <float.h>
#include <math.h>

#include <cmocka.h>

#include "emit.h"
#include "translator.h"
#include "test_rng.h"
#include "test_util.h"

enum { INVOCATIONS = 70 /* two SIMD32 blocks, a partial thread, a partial quad */ };
enum { SAMPLE_BATCHES = 6, CORPUS_BATCHES = 2 };

/* Samples the back end cannot compile yet: open defects, by name (none). */
static const char *const known_unsupported[] = {
    NULL,
};

static void rnd_texture(struct rng *r, struct st_run_texture *t, enum st_sampler_type type, bool one_row,
                        float (*texels)[4], size_t *used, size_t max)
{
    t->type = type;
    t->width = 1 + rnd(r) % 4;
    t->height = one_row ? 1 : type == ST_SAMPLER_CUBE ? t->width : 1 + rnd(r) % 4;
    t->depth = type == ST_SAMPLER_CUBE ? 6 : type == ST_SAMPLER_VOLUME ? 1 + rnd(r) % 3 : 1;
    size_t n = (size_t)t->width * t->height * t->depth;
    if (*used + n > max) {
        t->type = ST_SAMPLER_NONE;
        t->texels = NULL;
        return;
    }
    for (size_t k = 0; k < n; k++) {
        for (int c = 0; c < 4; c++)
            texels[*used + k][c] = rnd_float(r);
        if (rnd(r) % 2) /* depth-like values for the shadow compares */
            texels[*used + k][0] = (float)(rnd(r) % 1001) / 1000.0f;
    }
    t->texels = (const float(*)[4])texels + *used;
    *used += n;
}

/*
 * Random inputs.  Pixel shaders: each attribute component of each block of
 * 32 invocations is a plane a*X + b*Y + c at the engine's barycentrics (a, b
 * dyadic, so the values are exact), or one constant of any class; vPos is
 * the pixel's position in its quad (ARB fragment.position: that pixel's
 * centre in the program's convention, w = 1/W), vFace +-1 per block.  Vertex shaders:
 * any value per vertex.
 */
static void make_inputs(struct rng *r, const struct st_shader *sh, struct st_run_inputs *in,
                        struct st_run_invocation *inv, float (*texels)[4], size_t max_texels)
{
    memset(in, 0, sizeof(*in));
    bool arb = sh->dialect == ST_ARB;
    for (int k = 0; k < ST_RUN_NUM_CONSTS; k++)
        for (int c = 0; c < 4; c++)
            in->c[k][c] = rnd_float(r);
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
        bool one_row = false;
        for (const struct st_instr *i = sh->first; i; i = i->next) {
            if (!arb && i->op == ST_OP_DCL && i->dst.reg.file == ST_REG_SAMPLER &&
                i->dst.reg.index == (uint32_t)s && i->sampler_type != ST_SAMPLER_NONE)
                type = i->sampler_type;
            if (arb && i->arb &&
                (i->op == ST_OP_ARB_TEX || i->op == ST_OP_ARB_TXP || i->op == ST_OP_ARB_TXB) &&
                i->arb->tex_unit == (uint32_t)s) {
                enum st_arb_tex_target tg = i->arb->tex_target;
                type = tg == ST_ARB_TEX_CUBE ? ST_SAMPLER_CUBE
                       : tg == ST_ARB_TEX_3D ? ST_SAMPLER_VOLUME : ST_SAMPLER_2D;
                one_row = tg == ST_ARB_TEX_1D || tg == ST_ARB_TEX_SHADOW1D;
            }
        }
        rnd_texture(r, &in->tex[s], type, one_row, texels, &used, max_texels);
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
    bool ps = sh->version.type == ST_PS;
    /* ARB fragment.position: the pixel of the invocation in the program's
     * convention (window height 40 for the lower-left origin), a depth on
     * the plane like any attribute, w = 1/W */
    int fpos = -1;
    bool upper = false, integer = false;
    if (arb && ps) {
        for (unsigned k = 0; k < sh->arb->num_inputs; k++)
            if (sh->arb->inputs[k].binding && strcmp(sh->arb->inputs[k].binding, "fragment.position") == 0)
                fpos = (int)k;
        upper = (sh->arb->options & ST_ARB_OPT_ORIGIN_UPPER_LEFT) != 0;
        integer = (sh->arb->options & ST_ARB_OPT_PIXEL_CENTER_INTEGER) != 0;
    }
    for (unsigned blk = 0; blk * 32 < INVOCATIONS; blk++) {
        float face = rnd(r) & 1 ? 1.0f : -1.0f;
        for (int s = 0; s < ST_LL_IN_SLOTS; s++)
            for (int c = 0; c < 4; c++) {
                bool plane = rnd(r) % 100 < 75;
                float a = (float)((int)(rnd(r) % 33) - 16) / 8.0f;
                float b = (float)((int)(rnd(r) % 33) - 16) / 8.0f;
                float c0 = (float)((int)(rnd(r) % 161) - 80) / 16.0f, k = rnd_float(r);
                for (unsigned i = blk * 32; i < INVOCATIONS && i < blk * 32 + 32; i++) {
                    float x, y;
                    st_gen_run_barycentric(i, &x, &y);
                    float *v = &inv[i].in[s][c];
                    if (!ps)
                        *v = rnd_float(r);
                    else if (arb && s == fpos && c < 2) {
                        float col = x * 16.0f + 16.0f * (float)blk, row = y * 8.0f;
                        float off = integer ? 0.0f : 0.5f;
                        *v = c == 0 ? col + off : upper ? row + off : 40.0f - (row + (integer ? 1.0f : 0.5f));
                    } else if (arb && s == fpos && c == 3)
                        *v = 1.0f / (1.0f + (float)(rnd(r) % 64) / 16.0f);
                    else if (arb)
                        *v = plane ? fmaf(a, x, fmaf(b, y, c0)) : k;
                    else if (s == ST_LL_IN_VPOS)
                        *v = c == 0 ? x * 16.0f + 16.0f * (float)blk : c == 1 ? y * 8.0f : c == 2 ? 0.0f : 1.0f;
                    else if (s == ST_LL_IN_VFACE)
                        *v = c == 0 ? face : c == 3 ? 1.0f : 0.0f;
                    else
                        *v = plane ? fmaf(a, x, fmaf(b, y, c0)) : k;
                }
            }
    }
    if (arb) {
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
                for (int c = 0; c < 4; c++)
                    more[k][c] = rnd_float(r);
        }
        for (unsigned k = 0; k < a->num_params && k < st_run_num_consts(in); k++)
            if (a->params[k].kind == ST_ARB_PARAM_CONST)
                memcpy((float *)st_run_const(in, k), a->params[k].value, sizeof(a->params[k].value));
        return;
    }
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

/* Tolerances: translator/run/tolerance.c (st_tol_*), shared with test_fuzz.c,
 * test_fuzz_arb.c and shadertrans batch --compare-engines. */

/* ------------------------------------------------------------------ */

struct totals {
    unsigned shaders, rejected, unsupported, interp_failed, runs, invocations, components;
    unsigned mismatches, mismatch_runs, tolerated, failures;
    /* multiply-adds: components where the two readings differ, those the
     * kernel matched only under the fused one, the largest difference of
     * the readings (ulps of the rounded-twice value) */
    unsigned readings_differ, fused_only;
    double max_reading_ulps;
    unsigned pp_shaders; /* also run under --pp=fp16 (a _pp instruction or dcl_pp) */
    unsigned typed_shaders; /* ps_1_x, also compiled for 2D textures (--texture-types) */
};

static bool verbose(void)
{
    const char *v = getenv("ST_VERBOSE");
    return v && *v && *v != '0';
}

/* The difference in units in the last place of the interpreter's value. */
static double ulps(float want, float got)
{
    int e;
    frexpf(want == 0.0f ? FLT_MIN : want, &e);
    return fabs((double)want - (double)got) / ldexp(1.0, e - 24);
}

/* The distance of the interpreter's two readings of the multiply-adds, for
 * the record: 0 for the same bits or two NaNs, infinite past the floats. */
static double reading_ulps(float a, float b)
{
    if ((isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof(a)) == 0)
        return 0.0;
    if (!isfinite(a) || !isfinite(b))
        return INFINITY;
    return ulps(a, b);
}

static bool known(const char *name)
{
    for (size_t k = 0; k < sizeof(known_unsupported) / sizeof(known_unsupported[0]); k++)
        if (known_unsupported[k] && strstr(name, known_unsupported[k]))
            return true;
    return false;
}

/* The Gen outputs against the interpreter's under both readings of the
 * multiply-adds (ref: products rounded first; fused: rounded with their
 * sums; the same outputs for a shader without any). */
static unsigned compare(const char *name, const struct st_shader *sh, unsigned simd,
                        enum st_float_rules rules, const struct st_run_outputs *ref,
                        const struct st_run_outputs *fused,
                        const struct st_run_outputs *gen, unsigned n, unsigned inexact, struct totals *t)
{
    unsigned bad = 0;
    for (unsigned k = 0; k < n; k++) {
        const struct st_run_outputs *a = &ref[k], *f = &fused[k], *b = &gen[k];
        t->invocations++;
        a = st_tol_reading(a, f, b); /* a discard a multiply-add decided */
        if (a->discarded != b->discarded || (!a->discarded && a->count != b->count)) {
            if (bad++ < 3)
                fprintf(stderr, "MISMATCH %s SIMD%u %s inv %u: %s\n", name, simd,
                        rules == ST_FLOAT_D3D9 ? "d3d9" : "ieee", k,
                        a->discarded != b->discarded ? (a->discarded ? "interp discards, gen writes"
                                                                     : "gen discards, interp writes")
                                                     : "output count");
            continue;
        }
        if (a->discarded)
            continue;
        if (f->discarded || f->count != a->count)
            f = a;
        for (unsigned r = 0; r < a->count; r++)
            for (unsigned c = 0; c < a->reg[r].ncomp; c++) {
                float w = a->reg[r].v[c], wf = f->reg[r].v[c], g = b->reg[r].v[c];
                t->components++;
                double du = reading_ulps(w, wf);
                if (du > 0) {
                    t->readings_differ++;
                    if (du > t->max_reading_ulps && isfinite(du))
                        t->max_reading_ulps = du;
                }
                if (st_tol_within(w, g, false))
                    continue;
                if (st_tol_within(wf, g, false)) {
                    t->fused_only++;
                    continue;
                }
                if (st_tol_within_either(w, wf, g, inexact)) {
                    t->tolerated++;
                    if (verbose())
                        fprintf(stderr, "tolerated %s SIMD%u inv %u: interp %.9g, gen %.9g (%.3g ulps)\n",
                                name, simd, k, (double)w, (double)g, ulps(w, g));
                    continue;
                }
                if (bad++ < 3) {
                    char nb[8];
                    fprintf(stderr, "MISMATCH %s SIMD%u %s inv %u %s.%c: interp %.9g (fused %.9g), gen %.9g\n",
                            name, simd, rules == ST_FLOAT_D3D9 ? "d3d9" : "ieee", k, st_run_output_label(sh, &a->reg[r], nb), "xyzw"[c],
                            (double)w, (double)wf, (double)g);
                }
            }
    }
    return bad;
}

static void diff_shader(const char *name, const struct st_shader *sh, const char *src, size_t len,
                        bool is_sample, struct totals *t)
{
    static struct st_run_invocation inv[INVOCATIONS];
    static float texels[4096][4];
    static struct st_run_inputs in;
    static struct st_run_outputs o_ref[INVOCATIONS], o_fused[INVOCATIONS], o_gen[INVOCATIONS];
    const char *seed = getenv("ST_DIFF_SEED");
    struct rng r = {.s = 0x6e0000u + (uint64_t)len * 2654435761u +
                    (seed ? strtoull(seed, NULL, 10) * 0x9e3779b97f4a7c15ull : 0)};
    unsigned inexact = st_tol_shader_inexact(sh);
    bool vs = sh->version.type == ST_VS, muladd = st_tol_shader_muladd(sh);
    unsigned nb = batches(is_sample ? SAMPLE_BATCHES : CORPUS_BATCHES);
    bool mism = false;
    for (unsigned run = 0; run < 2 * nb; run++) {
        /* each batch of inputs under both float rules (docs/float-rules.md):
         * the kernel bakes the d3d9 rule's zero products in */
        enum st_float_rules rules = run % 2 ? ST_FLOAT_D3D9 : ST_FLOAT_IEEE;
        if (run % 2 == 0)
            make_inputs(&r, sh, &in, inv, texels, 4096);
        memset(o_ref, 0, sizeof(o_ref));
        struct st_ctx *c1 = st_ctx_create(name, src, len, 1000);
        bool ok_ref = st_interp_execute(c1, sh, &in, rules, o_ref);
        if (ok_ref && muladd) {
            memset(o_fused, 0, sizeof(o_fused));
            ok_ref = st_interp_execute_ex(c1, sh, &in, rules, true, o_fused);
        }
        st_ctx_destroy(c1);
        if (!ok_ref) {
            /* e.g. the interpreter's loop limit: nothing to compare against */
            printf("the interpreter cannot run %s on these inputs\n", name);
            t->interp_failed++;
            return;
        }
        for (unsigned simd = 8; simd <= 32; simd *= 2) {
            if (vs && simd > 8)
                break;
            memset(o_gen, 0, sizeof(o_gen));
            struct st_ctx *c2 = st_ctx_create(name, src, len, 1000);
            struct st_gen_run_stats stats;
            bool ok = test_gen_execute(c2, sh, simd, &in, rules, o_gen, &stats);
            if (!ok) {
                struct st_result res;
                memset(&res, 0, sizeof(res));
                st_ctx_export(c2, &res);
                unsigned code = res.num_diagnostics ? res.diagnostics[0].code : 0;
                const char *msg = res.num_diagnostics ? res.diagnostics[0].message : "?";
                if (code == ST_E_NOT_SUPPORTED && (!is_sample || known(name)) &&
                    strncmp(msg, "Gen engine", 10) != 0) {
                    printf("not supported by the Gen back end (open defect): %s: line %u: %s\n", name,
                           res.num_diagnostics ? res.diagnostics[0].line : 0, msg);
                    t->unsupported++;
                } else {
                    fprintf(stderr, "FAIL %s SIMD%u (%s rules): %s\n", name, simd,
                            rules == ST_FLOAT_D3D9 ? "d3d9" : "ieee", msg);
                    t->failures++;
                }
                for (size_t k = 0; k < res.num_diagnostics; k++) {
                    free((char *)res.diagnostics[k].message);
                    free((char *)res.diagnostics[k].source_line);
                }
                if (res.num_diagnostics)
                    free((char *)res.diagnostics[0].file);
                free((void *)res.diagnostics);
                st_ctx_destroy(c2);
                return;
            }
            st_ctx_destroy(c2);
            t->runs++;
            if (!vs && stats.packed_pixels != INVOCATIONS) {
                fprintf(stderr, "FAIL %s SIMD%u: only %u of %u pixels ran in full threads\n", name, simd,
                        stats.packed_pixels, INVOCATIONS);
                t->failures++;
            }
            unsigned bad = compare(name, sh, stats.simd, rules, o_ref, muladd ? o_fused : o_ref, o_gen,
                                   INVOCATIONS, inexact, t);
            t->mismatches += bad;
            if (bad)
                mism = true;
        }
    }
    if (mism)
        t->mismatch_runs++;
}

/*
 * A ps_1_x shader with a texture instruction names its stages' types
 * nowhere; make_inputs binds 2D textures to them.  Compiled for those
 * types (--texture-types=2d,..., as st_front_end would set them) the
 * kernels send u and v alone: the shader is run again that way.
 */
static bool stages_2d(struct st_shader *sh)
{
    if (sh->dialect != ST_D3D9 || sh->version.type != ST_PS || sh->version.ver >= ST_VER(2, 0))
        return false;
    bool tex = false;
    for (const struct st_instr *i = sh->first; i && !tex; i = i->next)
        tex = (st_opinfo[i->op].flags & OPF_TEX1X) != 0;
    for (unsigned s = 0; s < 16 && tex; s++)
        sh->stage_type[s] = ST_SAMPLER_2D;
    return tex;
}

static void diff_file(const char *path, const char *name, bool is_sample, struct totals *t)
{
    size_t len = 0;
    char *src = slurp(path, &len);
    if (!src) {
        fprintf(stderr, "FAIL %s: cannot read\n", path);
        t->failures++;
        return;
    }
    bool arb = strncmp(src, "!!ARB", 5) == 0;
    struct st_arena *arena = st_arena_create();
    struct st_ctx *ctx = st_ctx_create(name, src, len, 1000);
    struct st_shader *sh = arb ? st_parse_arb(ctx, arena) : st_parse_d3d9(ctx, arena);
    if (!sh || st_error_count(ctx) || !(arb ? st_check_arb(ctx, sh) : st_check(ctx, sh))) {
        t->rejected++;
    } else {
        t->shaders++;
        diff_shader(name, sh, src, len, is_sample, t);
        if (test_has_pp(sh)) {
            /* --pp=fp16 (as st_front_end sets it): the kernel computes the
             * _pp instructions in :hf, the interpreter in half steps */
            sh->pp_half = true;
            t->pp_shaders++;
            diff_shader(name, sh, src, len, is_sample, t);
            sh->pp_half = false;
        }
        if (stages_2d(sh)) {
            t->typed_shaders++;
            diff_shader(name, sh, src, len, is_sample, t);
        }
    }
    st_ctx_destroy(ctx);
    st_arena_destroy(arena);
    free(src);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void print_totals(const char *what, const struct totals *t)
{
    printf("%s: %u shaders (%u also under --pp=fp16, %u also for 2D textures; %u rejected by the front end, %u not supported by the Gen back end, "
           "%u the interpreter cannot run), %u runs (shader x width x batch), %u invocations, "
           "%u components compared, %u within math tolerance, %u mismatching in %u shaders; "
           "multiply-adds: the two readings differ in %u components (at most %.3g ulps), "
           "%u matched the fused reading only\n",
           what, t->shaders, t->pp_shaders, t->typed_shaders, t->rejected, t->unsupported, t->interp_failed, t->runs, t->invocations,
           t->components, t->tolerated, t->mismatches, t->mismatch_runs, t->readings_differ,
           t->max_reading_ulps, t->fused_only);
}

static void test_samples(void **state)
{
    (void)state;
    const char *root = getenv("ST_ROOT");
    struct totals t;
    memset(&t, 0, sizeof(t));
    for (int pass = 0; pass < 2; pass++) {
        char dir[1024];
        snprintf(dir, sizeof(dir), "%s/samples%s", root ? root : ".", pass ? "/arb" : "");
        DIR *d = opendir(dir);
        assert_non_null(d);
        char *names[256];
        unsigned n = 0;
        for (struct dirent *e; (e = readdir(d)) && n < 256;) {
            size_t l = strlen(e->d_name);
            if ((l > 4 && strcmp(e->d_name + l - 4, ".asm") == 0) ||
                (l > 3 && (strcmp(e->d_name + l - 3, ".vp") == 0 || strcmp(e->d_name + l - 3, ".fp") == 0)))
                names[n++] = strdup(e->d_name);
        }
        closedir(d);
        qsort(names, n, sizeof(names[0]), cmp_str);
        for (unsigned k = 0; k < n; k++) {
            char path[2048];
            snprintf(path, sizeof(path), "%s/%s", dir, names[k]);
            diff_file(path, names[k], true, &t);
            free(names[k]);
        }
    }
    print_totals("samples", &t);
    assert_true(t.shaders >= 40);
    assert_true(t.pp_shaders >= 4); /* 24, 31, 62, 63 */
    assert_true(t.typed_shaders >= 12); /* 12-23, ps_1_1..1_4 */
    assert_int_equal(t.failures, 0);
    assert_int_equal(t.mismatches, 0);
}

static void corpus(bool arb)
{
    struct manifest m;
    if (!manifest_open(&m))
        fail_msg("corpus manifest not found in %s (set ST_CORPUS_DIR)", m.dir);
    struct totals t;
    memset(&t, 0, sizeof(t));
    struct manifest_row r;
    while (manifest_next(&m, &r)) {
        if (strcmp(r.dialect, arb ? "arb" : "d3d9") != 0 || strcmp(r.expect, "valid") != 0)
            continue;
        /* NV options are rejected by design (docs/arb.md) */
        if (arb && manifest_needs_vendor(&r))
            continue;
        char file[2048];
        manifest_file(&m, &r, file, sizeof(file));
        diff_file(file, r.path, false, &t);
    }
    manifest_close(&m);
    print_totals(arb ? "arb corpus" : "d3d9 corpus", &t);
    assert_true(t.shaders > 0);
    if (arb) /* every ARB program runs, the 1021-parameter one too */
        assert_int_equal(t.interp_failed, 0);
    assert_int_equal(t.unsupported, 0);
    assert_int_equal(t.failures, 0);
    assert_int_equal(t.mismatches, 0);
}

static void test_d3d9_corpus(void **state)
{
    (void)state;
    corpus(false);
}

static void test_arb_corpus(void **state)
{
    (void)state;
    corpus(true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples),
        cmocka_unit_test(test_d3d9_corpus),
        cmocka_unit_test(test_arb_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
