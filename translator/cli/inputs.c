/*
 * inputs.c — inputs JSON (docs/run-json.md) made up for a shader, for
 * `shadertrans batch --compare-engines` when a shader comes without any.
 *
 * Deterministic: one seed gives one file on every machine.  What it gives:
 * every input register, constant, integer and boolean constant, texture
 * and bump-environment stage the shader reads (minus what its own
 * def/defi/defb set), values in multiples of 1/16 so sums stay exact;
 * loop counts 0..4 so runs stay short.  Pixel shader attributes are, per
 * block of 32 invocations, a plane a*X + b*Y + c at the barycentrics the
 * Gen engine gives each invocation (st_gen_run_barycentric), or a
 * constant, and vPos is the pixel's position: what a rasteriser delivers,
 * so the Gen engine runs full SIMD threads and derivatives are defined
 * (docs/gen-abi.md "Gen engine").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "translator.h"

#include "cli.h"

struct rng {
    uint64_t s;
};

static uint32_t next(struct rng *r)
{
    /* xorshift64* */
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return (uint32_t)((r->s * 0x2545F4914F6CDD1DULL) >> 32);
}

/* -4 .. 4 in steps of 1/16, a zero now and then */
static float value(struct rng *r)
{
    if (next(r) % 16 == 0)
        return 0.0f;
    return (float)((int)(next(r) % 129) - 64) / 16.0f;
}

static void vec(struct st_buf *b, const float v[4])
{
    st_buf_printf(b, "[%.9g, %.9g, %.9g, %.9g]", (double)v[0], (double)v[1], (double)v[2],
                  (double)v[3]);
}

static void texels(struct st_buf *b, struct rng *r, unsigned n)
{
    st_buf_printf(b, "[");
    for (unsigned k = 0; k < n; k++) {
        float t[4];
        for (int c = 0; c < 4; c++)
            t[c] = (float)(next(r) % 17) / 16.0f;
        st_buf_printf(b, "%s", k ? ", " : "");
        vec(b, t);
    }
    st_buf_printf(b, "]");
}

/* What a Direct3D 9 shader reads. */
struct reads {
    bool v[16], t[8], vpos, vface;
    bool c[ST_RUN_NUM_CONSTS], i[ST_RUN_NUM_ICONSTS], b[ST_RUN_NUM_BCONSTS];
    enum st_sampler_type s[ST_RUN_NUM_SAMPLERS];
    bool stage[ST_RUN_NUM_SAMPLERS]; /* ps_1_x texture stages */
    bool def_c[ST_RUN_NUM_CONSTS], def_i[ST_RUN_NUM_ICONSTS], def_b[ST_RUN_NUM_BCONSTS];
};

static void note_reg(struct reads *R, const struct st_shader *sh, const struct st_reg *g,
                     unsigned nconst, unsigned ninputs)
{
    uint32_t x = g->index;
    switch (g->file) {
    case ST_REG_INPUT:
        if (g->rel)
            for (unsigned k = 0; k < ninputs; k++)
                R->v[k] = true;
        else if (x < ninputs)
            R->v[x] = true;
        break;
    case ST_REG_TEXTURE:
        if (x < 8)
            R->t[x] = true;
        break;
    case ST_REG_MISC:
        if (x == ST_MISC_POS)
            R->vpos = true;
        else if (x == ST_MISC_FACE)
            R->vface = true;
        break;
    case ST_REG_CONST:
        if (g->rel)
            for (unsigned k = 0; k < nconst; k++)
                R->c[k] = true;
        else if (x < nconst)
            R->c[x] = true;
        break;
    case ST_REG_CONSTINT:
        if (x < ST_RUN_NUM_ICONSTS)
            R->i[x] = true;
        break;
    case ST_REG_CONSTBOOL:
        if (x < ST_RUN_NUM_BCONSTS)
            R->b[x] = true;
        break;
    case ST_REG_SAMPLER:
        if (x < ST_RUN_NUM_SAMPLERS && R->s[x] == ST_SAMPLER_NONE)
            R->s[x] = ST_SAMPLER_2D;
        break;
    default:
        break;
    }
    (void)sh;
}

static void d3d9_reads(const struct st_shader *sh, struct reads *R, unsigned *nconst,
                       unsigned *ninputs)
{
    memset(R, 0, sizeof(*R));
    bool ps = sh->version.type == ST_PS;
    uint16_t v = sh->version.ver;
    *nconst = !ps ? 256 : v < ST_VER(2, 0) ? 8 : v < ST_VER(3, 0) ? 32 : 224;
    *ninputs = !ps ? 16 : v >= ST_VER(3, 0) ? 10 : 2;
    for (const struct st_instr *i = sh->first; i; i = i->next) {
        uint32_t d = i->dst.reg.index;
        if (i->op == ST_OP_DEF && d < ST_RUN_NUM_CONSTS)
            R->def_c[d] = true;
        else if (i->op == ST_OP_DEFI && d < ST_RUN_NUM_ICONSTS)
            R->def_i[d] = true;
        else if (i->op == ST_OP_DEFB && d < ST_RUN_NUM_BCONSTS)
            R->def_b[d] = true;
        if (i->op == ST_OP_DCL) {
            if (i->dst.reg.file == ST_REG_SAMPLER && d < ST_RUN_NUM_SAMPLERS)
                R->s[d] = i->sampler_type != ST_SAMPLER_NONE ? i->sampler_type : ST_SAMPLER_2D;
            else
                note_reg(R, sh, &i->dst.reg, *nconst, *ninputs);
            continue;
        }
        for (unsigned k = 0; k < i->nsrc && k < 5; k++)
            note_reg(R, sh, &i->src[k].reg, *nconst, *ninputs);
        if (i->predicated)
            note_reg(R, sh, &i->pred.reg, *nconst, *ninputs);
        /* ps_1_x: a texture instruction samples the stage of its t# */
        if (ps && v < ST_VER(2, 0) && (st_opinfo[i->op].flags & OPF_TEX1X) &&
            i->dst.reg.file == ST_REG_TEXTURE && d < ST_RUN_NUM_SAMPLERS)
            R->stage[d] = true;
        if (ps && v < ST_VER(2, 0) && i->op == ST_OP_TEXLD && d < ST_RUN_NUM_SAMPLERS)
            R->stage[d] = true; /* ps_1_4: texld r#, t# samples stage # */
    }
}

static const char *sampler_type_name(enum st_sampler_type t)
{
    return t == ST_SAMPLER_CUBE ? "cube" : t == ST_SAMPLER_VOLUME ? "volume" : "2d";
}

static void texture(struct st_buf *b, struct rng *r, const char *name, const char *type)
{
    unsigned w = 1 + next(r) % 3, h = strcmp(type, "1d") == 0 ? 1 : 1 + next(r) % 3;
    unsigned n = w * h;
    st_buf_printf(b, "\"%s\": {\"type\": \"%s\", \"width\": %u", name, type, w);
    if (strcmp(type, "cube") == 0) {
        h = w; /* square faces */
        n = 6 * w * h;
    }
    if (strcmp(type, "1d") != 0)
        st_buf_printf(b, ", \"height\": %u", h);
    if (strcmp(type, "volume") == 0 || strcmp(type, "3d") == 0) {
        st_buf_printf(b, ", \"depth\": 2");
        n = w * h * 2;
    }
    st_buf_printf(b, ", \"texels\": ");
    texels(b, r, n);
    st_buf_printf(b, "}");
}

/* One invocation's value of one input component: see the file comment. */
struct plane {
    bool plane;
    float a, b, c;
};

static void planes(struct rng *r, struct plane p[4])
{
    for (int c = 0; c < 4; c++) {
        p[c].plane = next(r) % 4 != 0;
        p[c].a = (float)((int)(next(r) % 33) - 16) / 8.0f;
        p[c].b = (float)((int)(next(r) % 33) - 16) / 8.0f;
        p[c].c = p[c].plane ? (float)((int)(next(r) % 161) - 80) / 16.0f : value(r);
    }
}

static void input_value(struct rng *r, bool ps, const struct plane p[4], unsigned inv, float out[4])
{
    float x, y;
    st_gen_run_barycentric(inv, &x, &y);
    for (int c = 0; c < 4; c++)
        out[c] = !ps ? value(r) : p[c].plane ? fmaf(p[c].a, x, fmaf(p[c].b, y, p[c].c)) : p[c].c;
}

static void d3d9_inputs(const struct st_shader *sh, struct rng *r, unsigned ninv, struct st_buf *b)
{
    struct reads R;
    unsigned nconst, ninputs;
    d3d9_reads(sh, &R, &nconst, &ninputs);
    bool ps = sh->version.type == ST_PS, ps1x = ps && sh->version.ver < ST_VER(2, 0);
    const char *sep = "";
    st_buf_printf(b, "{\"constants\": {");
    for (unsigned k = 0; k < nconst; k++)
        if (R.c[k] && !R.def_c[k]) {
            float v[4] = {value(r), value(r), value(r), value(r)};
            st_buf_printf(b, "%s\"c%u\": ", sep, k);
            vec(b, v);
            sep = ", ";
        }
    st_buf_printf(b, "},\n \"int_constants\": {");
    sep = "";
    for (unsigned k = 0; k < ST_RUN_NUM_ICONSTS; k++)
        if (R.i[k] && !R.def_i[k]) {
            st_buf_printf(b, "%s\"i%u\": [%u, %u, %d, 0]", sep, k, next(r) % 5, next(r) % 4,
                          (int)(next(r) % 4) - 1);
            sep = ", ";
        }
    st_buf_printf(b, "},\n \"bool_constants\": {");
    sep = "";
    for (unsigned k = 0; k < ST_RUN_NUM_BCONSTS; k++)
        if (R.b[k] && !R.def_b[k]) {
            st_buf_printf(b, "%s\"b%u\": %s", sep, k, next(r) % 2 ? "true" : "false");
            sep = ", ";
        }
    st_buf_printf(b, "},\n \"textures\": {");
    sep = "";
    for (unsigned k = 0; k < ST_RUN_NUM_SAMPLERS; k++) {
        bool used = ps1x ? R.stage[k] : R.s[k] != ST_SAMPLER_NONE;
        if (!used)
            continue;
        char name[8];
        snprintf(name, sizeof(name), "s%u", k);
        st_buf_printf(b, "%s", sep);
        texture(b, r, name, ps1x ? "2d" : sampler_type_name(R.s[k]));
        sep = ", ";
    }
    st_buf_printf(b, "},\n \"bump_env\": {");
    sep = "";
    for (unsigned k = 0; ps1x && k < 6; k++)
        if (R.stage[k]) {
            st_buf_printf(b, "%s\"s%u\": {\"matrix\": [%.9g, %.9g, %.9g, %.9g], \"lscale\": %.9g, "
                             "\"loffset\": %.9g}",
                          sep, k, (double)value(r) / 4, (double)value(r) / 4, (double)value(r) / 4,
                          (double)value(r) / 4, (double)value(r) / 4, (double)value(r) / 4);
            sep = ", ";
        }
    st_buf_printf(b, "},\n \"invocations\": [");
    /* per block of 32 invocations: a plane (or constant) per component */
    struct plane pv[16][4], pt[8][4];
    float face = 1.0f;
    for (unsigned i = 0; i < ninv; i++) {
        if (i % 32 == 0) {
            for (unsigned k = 0; k < 16; k++)
                planes(r, pv[k]);
            for (unsigned k = 0; k < 8; k++)
                planes(r, pt[k]);
            face = next(r) % 2 ? 1.0f : -1.0f;
        }
        st_buf_printf(b, "%s\n  {", i ? "," : "");
        sep = "";
        float v[4];
        for (unsigned k = 0; k < ninputs; k++)
            if (R.v[k]) {
                input_value(r, ps, pv[k], i, v);
                st_buf_printf(b, "%s\"v%u\": ", sep, k);
                vec(b, v);
                sep = ", ";
            }
        unsigned nt = !ps || sh->version.ver >= ST_VER(3, 0) ? 0
                      : sh->version.ver < ST_VER(1, 4) ? 4 : sh->version.ver < ST_VER(2, 0) ? 6 : 8;
        for (unsigned k = 0; k < nt; k++)
            if (R.t[k] || (ps1x && R.stage[k])) {
                input_value(r, ps, pt[k], i, v);
                st_buf_printf(b, "%s\"t%u\": ", sep, k);
                vec(b, v);
                sep = ", ";
            }
        if (ps && R.vpos) {
            float x, y;
            st_gen_run_barycentric(i, &x, &y);
            st_buf_printf(b, "%s\"vPos\": [%.9g, %.9g, 0, 1]", sep,
                          (double)(x * 16.0f + 16.0f * (float)(i / 32)), (double)(y * 8.0f));
            sep = ", ";
        }
        if (ps && R.vface) {
            st_buf_printf(b, "%s\"vFace\": %.9g", sep, (double)face);
            sep = ", ";
        }
        st_buf_printf(b, "}");
    }
    st_buf_printf(b, "\n]}\n");
}

static const char *arb_tex_type(enum st_arb_tex_target t)
{
    switch (t) {
    case ST_ARB_TEX_1D: case ST_ARB_TEX_SHADOW1D: return "1d";
    case ST_ARB_TEX_RECT: case ST_ARB_TEX_SHADOWRECT: return "rect";
    case ST_ARB_TEX_3D: return "3d";
    case ST_ARB_TEX_CUBE: return "cube";
    default: return "2d";
    }
}

static void arb_inputs(const struct st_shader *sh, struct rng *r, unsigned ninv, struct st_buf *b)
{
    const struct st_arb_program *a = sh->arb;
    bool fp = sh->version.type == ST_PS;
    st_buf_printf(b, "{\"constants\": {");
    const char *sep = "";
    for (unsigned k = 0; k < a->num_params; k++) {
        const struct st_arb_param *p = &a->params[k];
        if (p->kind != ST_ARB_PARAM_ENV && p->kind != ST_ARB_PARAM_LOCAL)
            continue;
        /* a parameter bound twice (two arrays, an array and a PARAM) is given once */
        bool again = false;
        for (unsigned j = 0; j < k && !again; j++)
            again = a->params[j].kind == p->kind && a->params[j].index == p->index;
        if (again)
            continue;
        float v[4] = {value(r), value(r), value(r), value(r)};
        st_buf_printf(b, "%s\"program.%s[%u]\": ", sep, p->kind == ST_ARB_PARAM_ENV ? "env" : "local",
                      p->index);
        vec(b, v);
        sep = ", ";
    }
    st_buf_printf(b, "},\n \"textures\": {");
    sep = "";
    bool unit[ST_RUN_NUM_SAMPLERS] = {false};
    for (const struct st_instr *i = sh->first; i; i = i->next) {
        if (!i->arb || (i->op != ST_OP_ARB_TEX && i->op != ST_OP_ARB_TXP && i->op != ST_OP_ARB_TXB))
            continue;
        uint32_t u = i->arb->tex_unit;
        if (u >= ST_RUN_NUM_SAMPLERS || unit[u])
            continue;
        unit[u] = true;
        char name[16];
        snprintf(name, sizeof(name), "texture[%u]", u);
        st_buf_printf(b, "%s", sep);
        texture(b, r, name, arb_tex_type(i->arb->tex_target));
        sep = ", ";
    }
    st_buf_printf(b, "},\n \"invocations\": [");
    bool upper = (a->options & ST_ARB_OPT_ORIGIN_UPPER_LEFT) != 0;
    bool integer = (a->options & ST_ARB_OPT_PIXEL_CENTER_INTEGER) != 0;
    bool fog = (a->options & (ST_ARB_OPT_FOG_EXP | ST_ARB_OPT_FOG_EXP2 | ST_ARB_OPT_FOG_LINEAR)) != 0;
    unsigned n = a->num_inputs < 32 ? a->num_inputs : 32;
    struct plane p[33][4];
    for (unsigned i = 0; i < ninv; i++) {
        if (i % 32 == 0)
            for (unsigned k = 0; k <= n; k++)
                planes(r, p[k]);
        st_buf_printf(b, "%s\n  {", i ? "," : "");
        sep = "";
        bool has_fog = false;
        for (unsigned k = 0; k < n; k++) {
            const char *name = a->inputs[k].binding;
            if (!name)
                continue;
            float v[4];
            if (fp && strcmp(name, "fragment.position") == 0) {
                /* the pixel's centre in the program's convention (window
                 * height 40 for the lower-left origin), w = 1/W */
                float x, y;
                st_gen_run_barycentric(i, &x, &y);
                float col = x * 16.0f + 16.0f * (float)(i / 32), row = y * 8.0f;
                float off = integer ? 0.0f : 0.5f;
                input_value(r, true, p[k], i, v);
                v[0] = col + off;
                v[1] = upper ? row + off : 40.0f - (row + (integer ? 1.0f : 0.5f));
                v[3] = 1.0f / (1.0f + (float)(i % 8) / 8.0f);
            } else {
                input_value(r, fp, p[k], i, v);
            }
            has_fog |= strcmp(name, "fragment.fogcoord") == 0;
            st_buf_printf(b, "%s\"%s\": ", sep, name);
            vec(b, v);
            sep = ", ";
        }
        if (fp && fog && !has_fog) {
            float v[4];
            input_value(r, true, p[n], i, v);
            st_buf_printf(b, "%s\"fragment.fogcoord\": [%.9g]", sep, (double)v[0]);
        }
        st_buf_printf(b, "}");
    }
    st_buf_printf(b, "\n]}\n");
}

bool cli_make_inputs(const struct st_shader *sh, uint64_t seed, unsigned invocations,
                     struct st_buf *out)
{
    struct rng r = {seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL};
    if (!r.s)
        r.s = 1;
    if (sh->dialect == ST_ARB) {
        if (!sh->arb)
            return false;
        arb_inputs(sh, &r, invocations, out);
    } else {
        d3d9_inputs(sh, &r, invocations, out);
    }
    return !out->oom;
}
