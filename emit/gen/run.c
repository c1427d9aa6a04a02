/*
 * gen/run.c — `shadertrans run --engine=gen`: the Gen9 kernel of
 * st_gen_compile_ex executed by the functional simulator (emit/gensim/),
 * with the run inputs turned into thread payloads exactly as
 * docs/gen-abi.md tells a driver to, and the kernel's URB / render target
 * writes turned back into the run outputs.  Same JSON in and out as the
 * interpreter (translator/run/run_io.c does both ends).
 *
 * Pixel shaders: invocations are the interpreter's 2x2 quads in input
 * order (invocation 4q+k is pixel k of quad q: 0 1 / 2 3), packed
 * SIMD-width pixels to a thread.  A real rasteriser only ever hands a
 * thread attribute values that lie on one plane per component
 * (a*X + b*Y + c at the pixel's barycentrics), so the inputs are fitted to
 * such planes at barycentrics of our choosing (st_gen_run_barycentric);
 * when they do not fit (arbitrary per-invocation JSON), the group is run
 * again as smaller threads: one quad, then (shaders without derivatives)
 * one pixel, where any value is a constant plane.  "Gen engine" section of
 * docs/gen-abi.md.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "gen_ir.h"
#include "../gensim/gensim.h"

/*
 * A thread that runs longer than this many Gen instructions is a defect of
 * the back end (the run budget, checked before, bounds the shader's own
 * work): GEN_RUN_MIN_STEPS, or GEN_RUN_STEPS_PER_INSTR per instruction of
 * the shader's worst case when that is more.  The caller's cancel callback
 * is asked every GEN_RUN_POLL_STEPS.
 */
#define GEN_RUN_MIN_STEPS 50000000u
#define GEN_RUN_STEPS_PER_INSTR 1024u
#define GEN_RUN_POLL_STEPS (1u << 16)

struct gen_run {
    struct st_ctx *ctx;
    uint64_t max_steps;   /* per thread, see GEN_RUN_MIN_STEPS */
    const struct st_shader *sh;
    const struct st_run_inputs *in;
    const struct st_gen_layout *L;
    float window_h;       /* ARB lower-left origin: the window height pushed */
    bool arb;
    enum st_arb_tex_target arb_target[ST_RUN_NUM_SAMPLERS];
    bool missing[ST_RUN_NUM_SAMPLERS];
    int depth_slot;       /* output slot of oDepth / result.depth, -1 */
    unsigned depth_comp;  /* D3D9: x; ARB result.depth: z */
    uint8_t *cbuf;        /* the constant buffer (GEN_BTI_CONSTANTS): every c[] vector of the inputs */
    size_t cbuf_size;
    struct st_gen_run_stats *stats; /* messages counted by SFID, when asked */
    /* per channel of the running thread */
    float out[GENSIM_MAX_CHANNELS][ST_LL_OUT_SLOTS][4];
    bool written[GENSIM_MAX_CHANNELS];
};

void st_gen_run_barycentric(unsigned invocation, float *x, float *y)
{
    /* Quad q at (2*(q mod 8), 2*((q/8) mod 4)) of a 16x8 pixel tile, pixel
     * k at (k&1, k>>1) in it; barycentrics are the position / 16 and / 8:
     * a real triangle's barycentrics are affine in the pixel position, and
     * these are exact dyadic numbers. */
    unsigned q = invocation / 4, k = invocation % 4;
    unsigned px = 2 * (q % 8) + (k & 1), py = 2 * ((q / 8) % 4) + (k >> 1);
    *x = (float)px / 16.0f;
    *y = (float)py / 8.0f;
}

/* ------------------------------------------------------------------ */
/* Messages.                                                           */

static int cb_rt(void *u, const gensim_rt_write *w, char *err, size_t n)
{
    struct gen_run *R = u;
    if (w->bti >= ST_GEN_MAX_RT || R->L->rt_out_slot[w->bti] < 0) {
        snprintf(err, n, "render target write to binding table index %u, which the layout has no output for",
                 w->bti);
        return 1;
    }
    int slot = R->L->rt_out_slot[w->bti];
    for (unsigned lc = 0; lc < w->simd; lc++) {
        if (!(w->mask >> lc & 1))
            continue;
        unsigned ch = w->first_pixel + lc;
        R->written[ch] = true;
        for (int c = 0; c < 4; c++)
            memcpy(&R->out[ch][slot][c], &w->color[c][lc], 4);
        if (w->has_depth && R->depth_slot >= 0)
            memcpy(&R->out[ch][R->depth_slot][R->depth_comp], &w->depth[lc], 4);
    }
    return 0;
}

static int cb_urb(void *u, const gensim_urb_write *w, char *err, size_t n)
{
    struct gen_run *R = u;
    for (unsigned k = 0; k < w->ndata; k++) {
        unsigned vue = w->global_offset + k / 4, c = k % 4;
        if (vue >= R->L->num_vue_slots) {
            snprintf(err, n, "URB write to VUE slot %u past the layout's %u", vue, R->L->num_vue_slots);
            return 1;
        }
        int slot = R->L->vue_out_slot[vue];
        if (vue == 0) {
            /* the VUE header: dword 3 is the point size, the rest is ours to ignore */
            if (!R->L->vue_header_psize || c != 3 || slot < 0)
                continue;
            c = 0;
        }
        if (slot < 0 || slot >= ST_LL_OUT_SLOTS || (R->L->vue_scalar[vue] && c > 0))
            continue; /* (a scalar output's dwords 1-3 are undefined) */
        for (unsigned v = 0; v < 8; v++)
            if (w->mask >> v & 1) {
                R->written[v] = true;
                memcpy(&R->out[v][slot][c], &w->data[k][v], 4);
            }
    }
    return 0;
}

static int cb_sample(void *u, const gensim_sample_msg *m, uint32_t r[4][16], char *err, size_t n)
{
    struct gen_run *R = u;
    unsigned s = m->sampler;
    if (s >= ST_RUN_NUM_SAMPLERS || m->bti != GEN_BTI_TEXTURE0 + s) {
        snprintf(err, n, "sampler %u with binding table index %u (expected %d + sampler)", s, m->bti,
                 GEN_BTI_TEXTURE0);
        return 1;
    }
    const struct st_run_texture *t = &R->in->tex[s];
    bool none = t->type == ST_SAMPLER_NONE || !t->texels;
    if (none)
        R->missing[s] = true;
    /* The compared messages carry (ref, u, v), the others (u, v, r); a
     * bias or level comes after the reference, sample_d interleaves each
     * coordinate with its gradients.  Only level 0 exists (docs/
     * interpreter.md, "Textures"), so the level parameters select nothing. */
    unsigned ty = m->msg_type;
    bool shadow = ty == 3 || ty == 5 || ty == 6 || ty == 25;
    unsigned at[3] = {0, 1, 2};
    if (ty == 1 || ty == 2) { /* sample_b, sample_l: (lod, u, v, r) */
        at[0] = 1, at[1] = 2, at[2] = 3;
    } else if (ty == 5 || ty == 6) { /* sample_b_c, sample_l_c: (ref, lod, u, v) */
        at[1] = 2, at[2] = 3;
    } else if (ty == 4) { /* sample_d: (u, du/dx, du/dy, v, ..., r, ...) */
        at[1] = 3, at[2] = 6;
    }
    if (R->stats && ty < 32 && m->mask && R->stats->samples_by_type[ty]++ == 0) {
        unsigned ch = 0;
        while (!(m->mask >> ch & 1))
            ch++;
        R->stats->sample_nparams[ty] = m->nparams;
        for (unsigned k = 0; k < m->nparams && k < 11; k++)
            memcpy(&R->stats->sample_param[ty][k], &m->param[k][ch], 4);
    }
    for (unsigned ch = 0; ch < m->simd; ch++) {
        if (!(m->mask >> ch & 1))
            continue;
        float c[3] = {0, 0, 0}, out[4] = {0, 0, 0, 1};
        for (unsigned k = 0; k < 3; k++)
            if (at[k] < m->nparams)
                memcpy(&c[k], &m->param[at[k]][ch], 4);
        if (R->arb) {
            float cc[4] = {c[0], c[1], c[2], 1.0f};
            if (shadow) {
                cc[0] = c[1];
                cc[1] = c[2];
                cc[2] = c[0];
            }
            st_arb_sample(none ? NULL : t, R->arb_target[s], cc, out);
        } else if (!none) {
            st_run_texel(t, c, out);
        }
        for (int k = 0; k < 4; k++)
            memcpy(&r[k][ch], &out[k], 4);
    }
    return 0;
}

static uint8_t *cb_surface(void *u, unsigned sfid, unsigned bti, size_t *size)
{
    (void)sfid;
    struct gen_run *R = u;
    if (bti == GEN_BTI_CONSTANTS) {
        *size = R->cbuf_size;
        return R->cbuf;
    }
    /* a relatively addressed range: a view of the buffer holding it alone */
    for (unsigned b = 0; b < R->L->num_rel_blocks; b++) {
        const struct st_gen_rel_block *r = &R->L->rel_block[b];
        size_t at = 16 * (GEN_CBUF_PAD + (size_t)r->first), n = 16 * (size_t)r->count;
        if (r->bti == bti && r->first >= 0 && at + n <= R->cbuf_size) {
            *size = n;
            return R->cbuf + at;
        }
    }
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Payload.                                                            */

static void fill_curbe(gensim_thread *th, const struct gen_run *R)
{
    const struct st_gen_layout *L = R->L;
    const struct st_run_inputs *in = R->in;
    if (L->window_grf)
        gensim_set_f32(th, L->window_grf, 0, R->window_h);
    /* c_lo and i_lo are rounded down to even numbers (docs/gen-abi.md) */
    for (int c = L->c_lo; c <= L->c_hi; c++) {
        const float *v = c >= 0 ? st_run_const(in, (uint32_t)c) : NULL;
        for (unsigned j = 0; j < 4 && v; j++)
            gensim_set_f32(th, L->c_grf + (unsigned)(c - L->c_lo) / 2,
                           (unsigned)((c - L->c_lo) % 2) * 4 + j, v[j]);
    }
    for (int c = L->i_lo; c <= L->i_hi; c++)
        for (unsigned j = 0; j < 4; j++)
            if (c >= 0 && c < ST_RUN_NUM_ICONSTS)
                gensim_set_u32(th, L->i_grf + (unsigned)(c - L->i_lo) / 2,
                               (unsigned)((c - L->i_lo) % 2) * 4 + j, (uint32_t)in->i[c][j]);
    if (L->has_b)
        for (unsigned k = 0; k < 16; k++)
            gensim_set_u32(th, L->b_grf + k / 8, k % 8, in->b[k] ? 1u : 0u);
    for (int s = L->bump_lo; s <= L->bump_hi; s++) {
        if (s < 0 || s >= ST_RUN_NUM_SAMPLERS)
            continue;
        const struct st_run_bumpenv *b = &in->bumpenv[s];
        const float v[8] = {b->mat[0], b->mat[1], b->mat[2], b->mat[3], b->lscale, b->loffset, 0, 0};
        for (unsigned j = 0; j < 8; j++)
            gensim_set_f32(th, L->bump_grf + (unsigned)(s - L->bump_lo), j, v[j]);
    }
    /* relatively addressed ranges: pad zero vectors (the GRFs start zeroed), the range */
    for (unsigned b = 0; b < L->num_rel_blocks; b++) {
        const struct st_gen_rel_block *r = &L->rel_block[b];
        if (!r->pushed)
            continue;
        for (unsigned x = 0; x < r->count; x++) {
            int64_t c = (int64_t)r->first + x;
            const float *v = c >= 0 && c <= UINT32_MAX ? st_run_const(in, (uint32_t)c) : NULL;
            unsigned pos = r->pad + x;
            for (unsigned j = 0; j < 4 && v; j++)
                gensim_set_f32(th, r->grf + pos / 2, (pos % 2) * 4 + j, v[j]);
        }
    }
}

/* The messages the kernel sends, by SFID (tests check how constants are read). */
static void cb_observe(void *u, const gensim_send_info *s)
{
    struct gen_run *R = u;
    if (R->stats && s->sfid < 16)
        R->stats->sends_by_sfid[s->sfid]++;
}

static bool same_bits(float a, float b)
{
    return memcmp(&a, &b, sizeof(a)) == 0;
}

/* pln's value: fmaf(a, X, fmaf(b, Y, c)) (gensim's pln, the PRM's order) */
static float plane_at(const float p[3], float x, float y)
{
    return fmaf(p[0], x, fmaf(p[1], y, p[2]));
}

/*
 * A plane (a, b, c) through the values v[i] at barycentrics (x[i], y[i]),
 * i < n, reproducing every value bit for bit under pln; false when there
 * is none we can find.  Equal values are the constant plane (with zero
 * slopes of the value's sign, so that -0 stays -0).
 */
static bool fit_plane(const float *v, const float *x, const float *y, unsigned n, float p[3])
{
    bool equal = true;
    for (unsigned i = 1; i < n; i++)
        equal = equal && same_bits(v[i], v[0]);
    if (equal) {
        p[0] = p[1] = copysignf(0.0f, v[0]);
        p[2] = v[0];
        return true;
    }
    for (unsigned i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return false;
    /* slopes from a neighbour in the same row and in the same column of pixel 0 */
    int i1 = -1, i2 = -1;
    for (unsigned i = 1; i < n; i++) {
        if (i1 < 0 && y[i] == y[0] && x[i] != x[0])
            i1 = (int)i;
        if (i2 < 0 && x[i] == x[0] && y[i] != y[0])
            i2 = (int)i;
    }
    double a = i1 >= 0 ? ((double)v[i1] - v[0]) / ((double)x[i1] - x[0]) : 0.0;
    double b = i2 >= 0 ? ((double)v[i2] - v[0]) / ((double)y[i2] - y[0]) : 0.0;
    p[0] = (float)a;
    p[1] = (float)b;
    p[2] = (float)((double)v[0] - a * x[0] - b * y[0]);
    for (unsigned i = 0; i < n; i++)
        if (!same_bits(plane_at(p, x[i], y[i]), v[i]))
            return false;
    return true;
}

/* Does the shader read vPos / vFace (D3D9 misc registers)? */
static void misc_reads(const struct st_shader *sh, bool *vpos, bool *vface)
{
    *vpos = *vface = false;
    if (sh->dialect == ST_ARB)
        return;
    for (const struct st_instr *i = sh->first; i; i = i->next)
        for (unsigned s = 0; s < i->nsrc && s < 5; s++)
            if (i->src[s].reg.file == ST_REG_MISC) {
                if (i->src[s].reg.index == 0)
                    *vpos = true;
                else
                    *vface = true;
            }
}

/*
 * The hardware pixel (column, row; rows count down from the top) that
 * invocation inv stands for: vPos.xy (D3D9) or fragment.position.xy in the
 * program's convention (ARB).  False when no pixel gives the kernel
 * exactly that position: not a pixel centre, outside 0..65534, or not
 * reproduced bit for bit by the kernel's arithmetic (gen/kernel.c
 * frag_position).
 */
static bool pixel_of(const struct gen_run *R, const struct st_run_invocation *inv, int *px, int *py)
{
    if (!R->arb) {
        const float *v = inv->in[ST_LL_IN_VPOS];
        if (!(v[0] >= 0.0f && v[0] <= 65534.0f && v[1] >= 0.0f && v[1] <= 65534.0f) ||
            v[0] != floorf(v[0]) || v[1] != floorf(v[1]))
            return false;
        *px = (int)v[0];
        *py = (int)v[1];
        return true;
    }
    const struct st_gen_layout *L = R->L;
    const float *v = inv->in[L->frag_pos_slot];
    float off = L->center_integer ? 0.0f : 0.5f, off_ll = L->center_integer ? 1.0f : 0.5f;
    double col = (double)v[0] - off;
    double row = L->upper_left ? (double)v[1] - off : (double)R->window_h - off_ll - (double)v[1];
    if (!(col >= 0 && col <= 65534 && row >= 0 && row <= 65534) || col != floor(col) || row != floor(row))
        return false;
    float x = (float)col + off;
    float y = L->upper_left ? (float)row + off : R->window_h - ((float)row + off_ll);
    if (!same_bits(x, v[0]) || !same_bits(y, v[1]))
        return false;
    *px = (int)col;
    *py = (int)row;
    return true;
}

/* A source W whose reciprocal (math.inv: 1.0f / W in the simulator) is w
 * bit for bit; false when no float has one. */
static bool source_w(float w, float *out)
{
    if (isnan(w) || w == 0.0f || isinf(w)) {
        *out = isnan(w) ? w : w == 0.0f ? copysignf(INFINITY, w) : copysignf(0.0f, w);
        return true;
    }
    /* 1/w rounded is within an ulp or two of a solution when there is one */
    const float s = 1.0f / w;
    float up = s, down = s;
    for (int k = 0; k < 4; k++) {
        if (isfinite(up) && up != 0.0f && same_bits(1.0f / up, w)) {
            *out = up;
            return true;
        }
        if (isfinite(down) && down != 0.0f && same_bits(1.0f / down, w)) {
            *out = down;
            return true;
        }
        up = nextafterf(up, INFINITY);
        down = nextafterf(down, -INFINITY);
    }
    return false;
}

struct ps_group {
    unsigned first, count; /* invocations first .. first+count-1 */
    bool single;           /* one pixel, at channel 0 of subspan 0 */
};

enum fit { FIT_OK, FIT_NO, FIT_ERROR };

/*
 * Builds the payload of one pixel shader thread for a group of invocations
 * (docs/gen-abi.md "Pixel shaders" and "Gen engine").  FIT_NO: the inputs
 * of the group cannot come from one primitive (a smaller group may work).
 */
static enum fit ps_payload(struct gen_run *R, gensim_thread *th, const struct ps_group *g,
                           bool read_vpos, bool read_vface, uint32_t mask)
{
    const struct st_gen_layout *L = R->L;
    const struct st_run_invocation *inv = &R->in->inv[g->first];
    unsigned n = g->count;
    float bx[32], by[32];
    for (unsigned p = 0; p < n; p++) {
        if (g->single)
            bx[p] = by[p] = 0.0f;
        else
            st_gen_run_barycentric(g->first + p, &bx[p], &by[p]);
    }
    /* facing is per thread (r0.0 bit 15) */
    bool back = inv[0].in[ST_LL_IN_VFACE][0] < 0;
    if (read_vface) {
        for (unsigned p = 0; p < n; p++) {
            float f = inv[p].in[ST_LL_IN_VFACE][0];
            if ((f < 0) != back)
                return FIT_NO;
            if (f != 1.0f && f != -1.0f) {
                st_error(R->ctx, (struct st_loc){0, 0}, ST_E_NOT_SUPPORTED,
                         "Gen engine: invocation %u: vFace is %g; a rasteriser gives +1 or -1",
                         g->first + p, (double)f);
                return FIT_ERROR;
            }
        }
    }
    if (back)
        gensim_set_u32(th, 0, 0, 0x8000u);
    /* subspan corners: pixel k of a quad is at corner + (k&1, k>>1) */
    unsigned nsub = g->single ? 1 : (n + 3) / 4;
    for (unsigned s = 0; s < nsub; s++) {
        int cx = 2 * (int)s, cy = 0;
        if (read_vpos) {
            if (!pixel_of(R, &inv[4 * s], &cx, &cy))
                goto nofit;
            for (unsigned k = 0; k < 4 && 4 * s + k < n; k++) {
                unsigned dx = g->single ? 0 : k & 1, dy = g->single ? 0 : k >> 1;
                int x, y;
                if (!pixel_of(R, &inv[4 * s + k], &x, &y) || x != cx + (int)dx || y != cy + (int)dy)
                    goto nofit;
            }
            if (cx > 65534 || cy > 65534)
                goto nofit;
        }
        unsigned reg = s < 4 ? 1 : 2, d = 2 + s % 4;
        gensim_set_u32(th, reg, d, (uint32_t)cx | (uint32_t)cy << 16);
    }
    /* ARB fragment.position z and w: source depth and source W, per pixel */
    for (unsigned p = 0; p < n && L->frag_pos_slot >= 0; p++) {
        const float *v = inv[p].in[L->frag_pos_slot];
        unsigned half = p / 16, q = p % 16;
        if (L->depth_grf[0])
            gensim_set_f32(th, L->depth_grf[half] + q / 8, q % 8, v[2]);
        float w;
        if (L->w_grf[0]) {
            if (!source_w(v[3], &w))
                goto nofit;
            gensim_set_f32(th, L->w_grf[half] + q / 8, q % 8, w);
        }
    }
    gensim_set_u32(th, 1, 7, mask & 0xffffu);
    if (L->simd == 32)
        gensim_set_u32(th, 2, 7, mask >> 16);
    /* barycentrics: SIMD8 X, Y; SIMD16 X0-7, Y0-7, X8-15, Y8-15; SIMD32 per half */
    for (unsigned p = 0; p < n; p++) {
        unsigned half = p / 16, q = p % 16;
        unsigned gx = L->bary_grf[half] + (q / 8) * 2;
        gensim_set_f32(th, gx, q % 8, bx[p]);
        gensim_set_f32(th, gx + 1, q % 8, by[p]);
    }
    /* attribute setup (a, b, -, c0) per component */
    for (unsigned k = 0; k < L->num_inputs; k++) {
        int slot = L->in_slot[k];
        for (unsigned c = 0; c < 4; c++) {
            float v[32] = {0}, pl[3];
            for (unsigned p = 0; p < n; p++)
                v[p] = slot >= 0 && slot < ST_LL_IN_SLOTS ? inv[p].in[slot][c] : 0.0f;
            if (!fit_plane(v, bx, by, n, pl))
                goto nofit;
            unsigned grf = L->input_grf + 2 * k + c / 2, o = (c & 1) * 4;
            gensim_set_f32(th, grf, o + 0, pl[0]);
            gensim_set_f32(th, grf, o + 1, pl[1]);
            gensim_set_f32(th, grf, o + 3, pl[2]);
        }
    }
    return FIT_OK;
nofit:
    return FIT_NO;
}

static bool has_derivatives(const struct st_shader *sh)
{
    if (sh->version.type != ST_PS)
        return false;
    for (const struct st_instr *i = sh->first; i; i = i->next)
        if (i->op == ST_OP_DSX || i->op == ST_OP_DSY)
            return true;
    return false;
}

/* ------------------------------------------------------------------ */
/* Threads.                                                            */

struct gen_exec {
    struct gen_run *R;
    const gensim_program *prog;
    struct st_run_output regs[ST_RUN_MAX_OUTPUTS];
    unsigned nregs;
    uint8_t *scratch;
    size_t scratch_size;
    struct st_run_outputs *outs;
    struct st_gen_run_stats *stats;
};

static bool thread_run(struct gen_exec *E, gensim_thread *th, unsigned first, unsigned count,
                       unsigned ch0)
{
    struct gen_run *R = E->R;
    memset(E->scratch, 0, E->scratch_size);
    if (E->stats)
        E->stats->threads++;
    gensim_status st;
    for (;;) {
        uint64_t left = R->max_steps - th->steps;
        st = gensim_run(th, left < GEN_RUN_POLL_STEPS ? left : GEN_RUN_POLL_STEPS);
        if (st != GENSIM_STEP_LIMIT || th->steps >= R->max_steps)
            break;
        if (!st_poll(R->ctx, 0))
            return false;
    }
    if (st != GENSIM_OK) {
        st_error(R->ctx, (struct st_loc){0, 0}, ST_E_RUNTIME,
                 "Gen engine: invocations %u-%u: %s", first, first + count - 1,
                 st == GENSIM_STEP_LIMIT ? "the thread did not end within the step limit"
                                         : gensim_error(th));
        return false;
    }
    for (unsigned p = 0; p < count; p++) {
        unsigned ch = ch0 + p;
        /* a pixel no render target write reached was discarded (texkill);
         * a vertex always ends with its URB writes */
        bool killed = R->L->stage == ST_PS && !R->written[ch];
        st_run_collect(R->sh, E->regs, E->nregs, (const float(*)[4])R->out[ch], killed,
                       &E->outs[first + p]);
    }
    return true;
}

static gensim_thread *thread_new(struct gen_exec *E, uint32_t mask)
{
    gensim_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    /* the thread state the driver programs (docs/gen-abi.md) */
    cfg.cr0 = E->R->L->stage == ST_PS ? GEN_PS_DISPATCH_CR0 : 0;
    cfg.dispatch_mask = mask;
    cfg.dispatch_width = E->R->L->simd;
    cfg.scratch = E->scratch;
    cfg.scratch_size = E->scratch_size;
    cfg.rt_has_depth = E->R->L->writes_depth;
    cfg.cb.user = E->R;
    cfg.cb.rt_write = cb_rt;
    cfg.cb.urb_write = cb_urb;
    cfg.cb.sample = cb_sample;
    cfg.cb.surface = cb_surface;
    cfg.cb.observe_send = cb_observe;
    gensim_thread *th = gensim_thread_new(E->prog, &cfg);
    if (!th)
        st_error(E->R->ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
    memset(E->R->out, 0, sizeof(E->R->out));
    memset(E->R->written, 0, sizeof(E->R->written));
    return th;
}

static bool run_vs(struct gen_exec *E)
{
    struct gen_run *R = E->R;
    const struct st_gen_layout *L = R->L;
    for (unsigned base = 0; base < R->in->num_invocations; base += 8) {
        unsigned cnt = R->in->num_invocations - base < 8 ? R->in->num_invocations - base : 8;
        gensim_thread *th = thread_new(E, (1u << cnt) - 1);
        if (!th)
            return false;
        fill_curbe(th, R);
        for (unsigned v = 0; v < 8; v++)
            gensim_set_u32(th, 1, v, 0x100u + v); /* URB handles: any distinct values */
        for (unsigned k = 0; k < L->num_inputs; k++)
            for (unsigned c = 0; c < 4; c++)
                for (unsigned v = 0; v < cnt; v++) {
                    int slot = L->in_slot[k];
                    gensim_set_f32(th, L->input_grf + 4 * k + c, v,
                                   slot >= 0 && slot < ST_LL_IN_SLOTS ? R->in->inv[base + v].in[slot][c]
                                                                      : 0.0f);
                }
        bool ok = thread_run(E, th, base, cnt, 0);
        gensim_thread_free(th);
        if (!ok)
            return false;
    }
    return true;
}

/* One pixel shader thread for group g; FIT_NO: the caller splits it. */
static enum fit run_ps_group(struct gen_exec *E, const struct ps_group *g, bool vpos, bool vface)
{
    /* pixels 0 .. count-1 of the thread; the rest are not dispatched */
    uint32_t mask = g->count >= 32 ? 0xffffffffu : (1u << g->count) - 1;
    gensim_thread *th = thread_new(E, mask);
    if (!th)
        return FIT_ERROR;
    fill_curbe(th, E->R);
    enum fit f = ps_payload(E->R, th, g, vpos, vface, mask);
    if (f == FIT_OK)
        f = thread_run(E, th, g->first, g->count, 0) ? FIT_OK : FIT_ERROR;
    gensim_thread_free(th);
    return f;
}

static bool run_ps(struct gen_exec *E)
{
    struct gen_run *R = E->R;
    unsigned simd = R->L->simd, n = R->in->num_invocations;
    bool vpos, vface, deriv = has_derivatives(R->sh);
    misc_reads(R->sh, &vpos, &vface);
    if (R->arb)
        vpos = R->L->frag_pos_slot >= 0 && R->L->pos_xy; /* fragment.position.xy: the pixel */
    for (unsigned base = 0; base < n; base += simd) {
        struct ps_group g = {base, n - base < simd ? n - base : simd, false};
        enum fit f = run_ps_group(E, &g, vpos, vface);
        if (f == FIT_ERROR)
            return false;
        if (f == FIT_OK) {
            if (E->stats)
                E->stats->packed_pixels += g.count;
            continue;
        }
        /* split: quads, then single pixels */
        for (unsigned q = base; q < base + g.count; q += 4) {
            struct ps_group gq = {q, base + g.count - q < 4 ? base + g.count - q : 4, false};
            f = run_ps_group(E, &gq, vpos, vface);
            if (f == FIT_ERROR)
                return false;
            if (f == FIT_OK) {
                if (E->stats)
                    E->stats->quad_pixels += gq.count;
                continue;
            }
            if (deriv) {
                st_error(R->ctx, (struct st_loc){0, 0}, ST_E_NOT_SUPPORTED,
                         "Gen engine: invocations %u-%u are not one rasterised quad (their inputs lie "
                         "on no plane, or vPos/vFace disagree; docs/gen-abi.md), which the shader's "
                         "derivatives need",
                         gq.first, gq.first + gq.count - 1);
                return false;
            }
            for (unsigned p = 0; p < gq.count; p++) {
                struct ps_group gp = {gq.first + p, 1, true};
                f = run_ps_group(E, &gp, vpos, vface);
                if (f == FIT_NO && !R->arb)
                    st_error(R->ctx, (struct st_loc){0, 0}, ST_E_NOT_SUPPORTED,
                             "Gen engine: invocation %u: vPos.xy must be integers in 0..65534 (a pixel's "
                             "position)",
                             gp.first);
                else if (f == FIT_NO)
                    st_error(R->ctx, (struct st_loc){0, 0}, ST_E_NOT_SUPPORTED,
                             "Gen engine: invocation %u: fragment.position is not a pixel's (x, y a pixel "
                             "centre of the program's convention in columns and rows 0..65534, w = 1/W "
                             "for a float W)",
                             gp.first);
                if (f != FIT_OK)
                    return false;
                if (E->stats)
                    E->stats->single_pixels++;
            }
        }
    }
    return true;
}

/*
 * The window height pushed for a lower-left origin: any height above every
 * row the inputs name works (the kernel gives back y exactly); the
 * smallest one, at least 1.
 */
static float window_height(const struct st_run_inputs *in, const struct st_gen_layout *L)
{
    float h = 1.0f;
    if (L->frag_pos_slot < 0)
        return h;
    for (unsigned i = 0; i < in->num_invocations; i++) {
        float y = in->inv[i].in[L->frag_pos_slot][1];
        if (y >= 0.0f && y < 65535.0f && floorf(y) + 1.0f > h)
            h = floorf(y) + 1.0f;
    }
    return h;
}

/* The warning the interpreter gives for a sampler without a texture. */
static void missing_warnings(struct gen_run *R)
{
    for (unsigned s = 0; s < ST_RUN_NUM_SAMPLERS; s++)
        if (R->missing[s])
            st_warning(R->ctx, (struct st_loc){0, 0}, ST_W_IGNORED,
                       R->arb ? "no texture texture[%u] in the inputs: sampling it gives (0,0,0,1)"
                              : "no texture s%u in the inputs: sampling it gives (0,0,0,1)",
                       s);
}

bool st_gen_execute(struct st_ctx *ctx, const struct st_shader *sh, const struct mir_prog *mir,
                    unsigned simd, const struct st_run_inputs *in, enum st_float_rules rules,
                    enum st_fp_contract contract, struct st_run_outputs *outs,
                    struct st_gen_run_stats *stats)
{
    struct st_buf text = {0};
    struct st_gen_layout L;
    memset(&L, 0, sizeof(L));
    if (stats)
        memset(stats, 0, sizeof(*stats));
    if (!gen_compile_widest(ctx, sh, mir, simd, rules, contract, &text, &L)) {
        st_buf_free(&text);
        return false;
    }
    if (text.oom) {
        st_buf_free(&text);
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    if (stats)
        stats->simd = L.simd;
    char err[GENSIM_ERR_LEN];
    gensim_program *prog = gensim_parse(text.data, "gen", err, sizeof(err));
    st_buf_free(&text);
    if (!prog) {
        /* (the simulator says "out of memory" when that is what happened) */
        if (strstr(err, "out of memory"))
            st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        else
            st_error(ctx, (struct st_loc){0, 0}, ST_E_NOT_SUPPORTED, "Gen engine: the kernel: %s",
                     err);
        return false;
    }
    struct gen_run *R = calloc(1, sizeof(*R));
    struct gen_exec E;
    memset(&E, 0, sizeof(E));
    E.scratch_size = L.scratch_bytes ? L.scratch_bytes : 64;
    E.scratch = calloc(1, E.scratch_size);
    /* the constant buffer: GEN_CBUF_PAD zero vectors, the kernel's
     * cbuf_vectors constants, GEN_CBUF_PAD zero vectors (docs/gen-abi.md) */
    size_t nc = st_run_num_consts(in), nbuf = L.cbuf_vectors;
    uint8_t *cbuf = calloc(nbuf + 2 * GEN_CBUF_PAD, 16);
    bool ok = R && E.scratch && cbuf;
    if (!ok) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
    } else {
        R->ctx = ctx;
        R->sh = sh;
        R->in = in;
        R->L = &L;
        struct st_loc hot;
        bool oom;
        uint64_t worst = st_run_worst_case(sh, in, &hot, &oom);
        R->max_steps = worst > GEN_RUN_MIN_STEPS / GEN_RUN_STEPS_PER_INSTR
                           ? (worst > UINT64_MAX / GEN_RUN_STEPS_PER_INSTR
                                  ? UINT64_MAX
                                  : worst * GEN_RUN_STEPS_PER_INSTR)
                           : GEN_RUN_MIN_STEPS;
        R->arb = sh->dialect == ST_ARB && sh->arb;
        R->window_h = window_height(in, &L);
        R->depth_slot = -1;
        if (R->arb) {
            for (unsigned j = 0; j < sh->arb->num_outputs; j++)
                if (sh->arb->outputs[j].binding &&
                    strcmp(sh->arb->outputs[j].binding, "result.depth") == 0) {
                    R->depth_slot = (int)j;
                    R->depth_comp = 2;
                }
            for (unsigned s = 0; s < ST_RUN_NUM_SAMPLERS; s++)
                R->arb_target[s] = ST_ARB_TEX_2D;
            for (const struct st_instr *i = sh->first; i; i = i->next)
                if ((i->op == ST_OP_ARB_TEX || i->op == ST_OP_ARB_TXP || i->op == ST_OP_ARB_TXB) &&
                    i->arb && i->arb->tex_unit < ST_RUN_NUM_SAMPLERS)
                    R->arb_target[i->arb->tex_unit] = i->arb->tex_target;
        } else {
            R->depth_slot = ST_LL_OUT_DEPTH;
        }
        if (R->depth_slot >= ST_LL_OUT_SLOTS)
            R->depth_slot = -1;
        for (unsigned i = 0; i < nc && i < nbuf; i++)
            memcpy(cbuf + 16 * (GEN_CBUF_PAD + i), st_run_const(in, i), 16);
        R->cbuf = cbuf;
        R->cbuf_size = (nbuf + 2 * GEN_CBUF_PAD) * 16;
        R->stats = stats;
        E.R = R;
        E.prog = prog;
        E.outs = outs;
        E.stats = stats;
        E.nregs = st_run_output_regs(sh, E.regs);
        ok = L.stage == ST_VS ? run_vs(&E) : run_ps(&E);
        if (ok)
            missing_warnings(R);
    }
    free(E.scratch);
    free(cbuf);
    free(R);
    gensim_program_free(prog);
    return ok;
}

/* st_gen_execute as an st_run_engine step; user points at the SIMD width. */
struct gen_step_args {
    const struct mir_prog *mir;
    unsigned simd;
    enum st_fp_contract contract;
};

static bool gen_step(void *user, struct st_ctx *ctx, const struct st_shader *sh,
                     const struct st_run_inputs *in, enum st_float_rules rules,
                     struct st_run_outputs *outs)
{
    const struct gen_step_args *a = user;
    return st_gen_execute(ctx, sh, a->mir, a->simd, in, rules, a->contract, outs, NULL);
}

bool st_gen_run(struct st_ctx *ctx, const struct st_shader *sh, const struct mir_prog *mir,
                unsigned simd, const char *inputs_name, const char *json, size_t len,
                enum st_float_rules rules, enum st_fp_contract contract, struct st_buf *out)
{
    struct gen_step_args a = {mir, simd, contract};
    return st_run_engine(ctx, sh, inputs_name, json, len, rules, gen_step, &a, out);
}
