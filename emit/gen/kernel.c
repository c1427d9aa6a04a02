/*
 * gen/kernel.c — the Gen9 kernel ABI: thread payload, pushed constants,
 * attribute interpolation, sampler and untyped-read messages, the URB
 * write of a vertex shader and the render target write of a pixel shader.
 * docs/gen-abi.md states the layout a driver (or the Gen simulator) must
 * provide; the numbers come from here.  The layout is read off the MIR
 * program (gen_kernel_layout); the instruction selection (gen/isel.c)
 * asks for payload operands and messages through kernel.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isel_const.h"
#include "isel_ops.h"
#include "kernel.h"

/* ------------------------------------------------------------------ */
/* Layout.                                                             */

static void widen(int *lo, int *hi, int x)
{
    if (*hi < *lo) {
        *lo = *hi = x;
        return;
    }
    if (x < *lo)
        *lo = x;
    if (x > *hi)
        *hi = x;
}

unsigned gen_kernel_rel_limit(const struct st_shader *sh, enum st_regfile file)
{
    bool ps = sh->version.type == ST_PS;
    uint16_t ver = sh->version.ver;
    switch (file) {
    case ST_REG_CONST: return !ps ? 256 : ver < ST_VER(2, 0) ? 8 : ver < ST_VER(3, 0) ? 32 : 224;
    case ST_REG_INPUT: return ps ? (ver >= ST_VER(3, 0) ? 10 : 2) : 16;
    case ST_REG_OUTPUT: return 12;
    case ST_REG_TEXCRDOUT: return 8;
    default: return 0;
    }
}

static bool binding_is(const struct st_arb_binding *b, const char *name)
{
    return b->binding && strcmp(b->binding, name) == 0;
}

/*
 * ARB programs: slot numbers are indices into the program's input and
 * output tables; find the outputs' roles, and what the fixed-function
 * steps of ARB_position_invariant and ARB_fog_* read (they are done in the
 * kernel: there is no later fixed-function stage on Gen).
 */
static void arb_prepare(struct gen_kernel_info *ki, struct st_gen_layout *L, bool in_read[])
{
    const struct st_arb_program *a = ki->sh->arb;
    st_arb_run_slots(ki->sh, &ki->arb_slots);
    const struct st_arb_run_slots *S = &ki->arb_slots;
    for (unsigned j = 0; j < a->num_outputs; j++) {
        const struct st_arb_binding *b = &a->outputs[j];
        if (binding_is(b, "result.position"))
            ki->arb_pos = (int)j;
        else if (binding_is(b, "result.pointsize"))
            ki->arb_psize = (int)j;
        else if (binding_is(b, "result.depth"))
            ki->arb_depth = (int)j;
        else if (binding_is(b, "result.fogcoord"))
            ki->arb_fog = (int)j;
        else if (binding_is(b, "result.color"))
            ki->arb_color[0] = (int)j;
        else
            for (unsigned n = 1; n < ST_GEN_MAX_RT; n++) {
                char name[32];
                snprintf(name, sizeof(name), "result.color[%u]", n);
                if (binding_is(b, name))
                    ki->arb_color[n] = (int)j;
            }
    }
    if (S->pos_out >= 0)
        ki->arb_pos = S->pos_out;
    /* fragment.position comes from the payload (pixel positions, source
     * depth and W), not from attribute setup; the scan says which
     * components the kernel reads */
    for (unsigned i = 0; i < a->num_inputs; i++)
        if (L->stage == ST_PS && binding_is(&a->inputs[i], "fragment.position"))
            ki->arb_frag_pos = (int)i;
    L->upper_left = (a->options & ST_ARB_OPT_ORIGIN_UPPER_LEFT) != 0;
    L->center_integer = (a->options & ST_ARB_OPT_PIXEL_CENTER_INTEGER) != 0;
    if (S->mvp_c >= 0) {
        widen(&L->c_lo, &L->c_hi, S->mvp_c);
        widen(&L->c_lo, &L->c_hi, S->mvp_c + 3);
    }
    if (S->fog_c >= 0) {
        widen(&L->c_lo, &L->c_hi, S->fog_c);
        widen(&L->c_lo, &L->c_hi, S->fog_c + 1);
    }
    if (S->pos_in >= 0 && S->pos_in < ST_LL_IN_SLOTS)
        in_read[S->pos_in] = true;
    if (S->fog_in >= 0 && S->fog_in < ST_LL_IN_SLOTS)
        in_read[S->fog_in] = true;
}

/*
 * Shrinks the pushed range c_lo..c_hi to the `width` vectors (an even
 * start) holding the most vectors read, trimmed to the first and last read
 * in it; the others are pulled.  Ties keep the lowest window.
 */
static void push_window(struct st_gen_layout *L, const bool *c_read, unsigned nc, unsigned width)
{
    int best_lo = L->c_lo;
    unsigned best = 0;
    for (int lo = L->c_lo; lo <= L->c_hi; lo += 2) {
        unsigned n = 0;
        for (int k = lo; k < lo + (int)width && k <= L->c_hi && (unsigned)k < nc; k++)
            n += c_read[k];
        if (n > best) {
            best = n;
            best_lo = lo;
        }
    }
    int lo = -1, hi = -1;
    for (int k = best_lo; k < best_lo + (int)width && k <= L->c_hi && (unsigned)k < nc; k++)
        if (c_read[k]) {
            if (lo < 0)
                lo = k;
            hi = k;
        }
    L->c_lo = lo & ~1;
    L->c_hi = hi;
}

/* The input slot a D3D9 register names (-1: none). */
static int in_slot(const struct gen_kernel_info *ki, enum st_regfile f, int32_t idx)
{
    if (ki->arb)
        return f == ST_REG_INPUT && idx >= 0 && idx < ST_LL_IN_SLOTS ? idx : -1;
    return idx < 0 ? -1 : st_run_in_slot(f, (uint32_t)idx);
}

int gen_kernel_rel_aL(const struct gen_kernel_info *ki, uint32_t rel_vreg, uint32_t vals[256])
{
    const struct mir_prog *m = ki->mir;
    if (!ki->aloop || rel_vreg >= m->nvregs || ki->aloop[rel_vreg] < 0)
        return -1;
    const struct mir_instr *lp = &m->ins[ki->aloop[rel_vreg]];
    if (lp->src[0].kind != MIR_IMM || lp->src[0].vreg >= m->nimm)
        return -1;
    const uint32_t *v = m->imm[lp->src[0].vreg].bits;
    int32_t cnt = (int32_t)v[0] < 0 ? 0 : (int32_t)v[0] > 255 ? 255 : (int32_t)v[0];
    for (int32_t j = 0; j < cnt; j++)
        vals[j] = v[1] + (uint32_t)j * v[2]; /* the interpreter's aL arithmetic: uint32 wrap */
    return cnt;
}

bool gen_kernel_rel_reach(const struct gen_kernel_info *ki, uint32_t rel_vreg, int32_t index,
                          unsigned n, bool *reach, bool *oob)
{
    uint32_t vals[256];
    int cnt = gen_kernel_rel_aL(ki, rel_vreg, vals);
    if (cnt < 0)
        return false;
    for (unsigned k = 0; k < n; k++)
        reach[k] = false;
    *oob = false;
    for (int j = 0; j < cnt; j++) {
        uint32_t idx = vals[j] + (uint32_t)index;
        if (idx < n)
            reach[idx] = true;
        else
            *oob = true;
    }
    return true;
}

/* Which aL each INT vreg is: a LOOP's destination that nothing else writes. */
static bool find_aloops(struct gen_kernel_info *ki)
{
    const struct mir_prog *m = ki->mir;
    ki->aloop = malloc(sizeof(*ki->aloop) * (m->nvregs + 1));
    if (!ki->aloop)
        return false;
    for (unsigned v = 0; v < m->nvregs; v++)
        ki->aloop[v] = -1;
    for (unsigned i = 0; i < m->n; i++) {
        const struct mir_instr *in = &m->ins[i];
        if (in->dead || !in->has_dst || in->dst.kind != MIR_VREG || in->dst.vreg >= m->nvregs)
            continue;
        int32_t *a = &ki->aloop[in->dst.vreg];
        *a = in->op == ST_OP_LOOP && *a == -1 ? (int32_t)i : -2;
    }
    for (unsigned v = 0; v < m->nvregs; v++)
        if (ki->aloop[v] < 0)
            ki->aloop[v] = -1;
    return true;
}

void gen_kernel_free(struct gen_kernel_info *ki)
{
    free(ki->aloop);
    ki->aloop = NULL;
}

/* A range read through a run-time index the layout cannot bound: bound as
 * a view of the constant buffer, and pushed whole (CURBE block 6) with pad
 * zero vectors around it when that pays and fits. */
struct rel_cand {
    uint32_t vreg;
    uint8_t lane;
    int first;
    uint32_t count;
    int32_t kmin, kmax; /* the offsets read through this address */
    int32_t k0;         /* the first offset read: comps[] is from k0 - 8 */
    uint8_t comps[16];  /* per offset k0 - 8 + j, the components read */
};
enum { MAX_REL_CANDS = 64 };

/* The reads of one fixed MIR source: what must be pushed. */
struct scan {
    bool in_read[ST_LL_IN_SLOTS];
    bool pos_comp[4];
    bool *c_read;
    unsigned nc;
    struct rel_cand cand[MAX_REL_CANDS];
    unsigned ncand;
};

/*
 * c[aL + k] of a loop over literal counts reads known vectors: those are
 * pushed like the ones read directly, when every one is inside the range
 * (an index outside it reads 0, which the pushed block cannot give).
 * Other relative reads name a range, which may be pushed whole.
 */
static void scan_rel_const(struct gen_kernel_info *ki, struct scan *sc, struct st_gen_layout *L,
                           const struct mir_src *s, uint8_t lanes)
{
    uint32_t vals[256];
    int n = gen_kernel_rel_aL(ki, s->rel_vreg, vals);
    bool inside = n >= 0;
    for (int j = 0; j < n && inside; j++)
        if ((uint32_t)(vals[j] + (uint32_t)s->index - (uint32_t)s->rel_first) >= s->rel_count)
            inside = false;
    if (inside) {
        for (int j = 0; j < n; j++) {
            uint32_t idx = vals[j] + (uint32_t)s->index;
            if (idx >= sc->nc)
                continue;
            widen(&L->c_lo, &L->c_hi, (int)idx);
            sc->c_read[idx] = true;
        }
        return;
    }
    for (unsigned k = 0; k < sc->ncand; k++) {
        struct rel_cand *c = &sc->cand[k];
        if (c->vreg == s->rel_vreg && c->lane == s->rel_lane && c->first == s->rel_first &&
            c->count == s->rel_count) {
            if (s->index < c->kmin)
                c->kmin = s->index;
            if (s->index > c->kmax)
                c->kmax = s->index;
            int64_t j = (int64_t)s->index - c->k0 + 8;
            if (j >= 0 && j < 16)
                c->comps[j] |= lanes ? lanes : 1;
            return;
        }
    }
    if (sc->ncand < MAX_REL_CANDS) {
        struct rel_cand *c = &sc->cand[sc->ncand++];
        *c = (struct rel_cand){s->rel_vreg, s->rel_lane, s->rel_first, s->rel_count,
                               s->index, s->index, s->index, {0}};
        c->comps[8] = lanes ? lanes : 1;
    }
}

static void scan_fixed(struct gen_kernel_info *ki, struct scan *sc, struct st_gen_layout *L,
                       const struct mir_src *s, uint8_t lanes)
{
    if (s->kind != MIR_FIXED)
        return;
    switch (s->file) {
    case ST_REG_CONST:
        if (s->rel) {
            scan_rel_const(ki, sc, L, s, lanes);
        } else if (s->index >= 0) {
            widen(&L->c_lo, &L->c_hi, s->index);
            if ((unsigned)s->index < sc->nc)
                sc->c_read[s->index] = true;
        }
        return;
    case ST_REG_CONSTINT:
        if (!s->rel && s->index >= 0 && s->index < ST_LL_NUM_ICONSTS)
            widen(&L->i_lo, &L->i_hi, s->index);
        return;
    case ST_REG_CONSTBOOL:
        L->has_b = true;
        return;
    case ST_REG_INPUT: case ST_REG_TEXTURE: case ST_REG_MISC:
        break;
    default:
        return;
    }
    if (s->rel) {
        /* v[aL + k]: the registers it may reach, or all of them */
        unsigned n = gen_kernel_rel_limit(ki->sh, ST_REG_INPUT);
        bool reach[16], oob;
        bool known = !ki->arb && gen_kernel_rel_reach(ki, s->rel_vreg, s->index, n, reach, &oob);
        for (unsigned k = 0; k < n && k < 16; k++)
            if (!known || reach[k])
                sc->in_read[ST_LL_IN_V + k] = true;
        return;
    }
    int slot = in_slot(ki, s->file, s->index);
    if (slot < 0)
        return;
    if (ki->arb && slot == ki->arb_frag_pos) {
        for (unsigned c = 0; c < 4; c++)
            if (lanes >> c & 1)
                sc->pos_comp[c] = true;
        return;
    }
    /* vPos and vFace come from the thread payload, not the attribute setup */
    if (L->stage == ST_PS && !ki->arb && (slot == ST_LL_IN_VPOS || slot == ST_LL_IN_VFACE))
        return;
    sc->in_read[slot] = true;
}

/* ps_1_x texture instructions: the coordinate sets and bump stages they read. */
static void scan_opaque(struct gen_kernel_info *ki, struct scan *sc, struct st_gen_layout *L,
                        const struct st_instr *a)
{
    (void)ki;
    uint32_t d = a->dst.reg.index;
    bool t_dst = a->has_dst && a->dst.reg.file == ST_REG_TEXTURE && d < 8;
    switch (a->op) {
    case ST_OP_TEXBEM: case ST_OP_TEXBEML: case ST_OP_BEM:
        widen(&L->bump_lo, &L->bump_hi, (int)d);
        break;
    default:
        break;
    }
    switch (a->op) {
    case ST_OP_TEX: case ST_OP_TEXCOORD: case ST_OP_TEXBEM: case ST_OP_TEXBEML:
    case ST_OP_TEXM3x2PAD: case ST_OP_TEXM3x3PAD: case ST_OP_TEXM3x2TEX: case ST_OP_TEXM3x2DEPTH:
    case ST_OP_TEXM3x3TEX: case ST_OP_TEXM3x3: case ST_OP_TEXM3x3SPEC: case ST_OP_TEXM3x3VSPEC:
    case ST_OP_TEXDP3TEX: case ST_OP_TEXDP3: case ST_OP_TEXKILL:
        if (t_dst)
            sc->in_read[ST_LL_IN_T + d] = true;
        if (a->op == ST_OP_TEXM3x3VSPEC && t_dst)
            for (uint32_t k = 1; k <= 2 && k <= d; k++)
                sc->in_read[ST_LL_IN_T + d - k] = true;
        break;
    case ST_OP_TEXLD:
        if (a->nsrc == 0 && d < 8)
            sc->in_read[ST_LL_IN_T + d] = true;
        break;
    default:
        break;
    }
}

static void scan_program(struct gen_kernel_info *ki, struct scan *sc, struct st_gen_layout *L)
{
    const struct mir_prog *m = ki->mir;
    for (unsigned i = 0; i < m->n; i++) {
        const struct mir_instr *in = &m->ins[i];
        if (in->dead)
            continue;
        for (unsigned k = 0; k < in->nsrc; k++)
            scan_fixed(ki, sc, L, &in->src[k], mir_src_lanes(m, in, k));
        if (in->predicated)
            scan_fixed(ki, sc, L, &in->pred, 0xf);
        if (in->op == MIR_OP_OPAQUE && in->ast)
            scan_opaque(ki, sc, L, in->ast);
    }
}

/* PS thread payload: r0, r1 (SIMD32: r1-r2) pixel data, then per half of
 * 16 pixels barycentrics (2 GRFs per 8 pixels), source depth, source W
 * (1 GRF per 8 pixels each, when enabled) -- gen9-target.md section 4(a) */
static void ps_payload(struct st_gen_layout *L, unsigned simd, const bool pos_comp[4])
{
    unsigned per8 = simd == 8 ? 1 : 2; /* GRFs per 8-pixel value, per half */
    unsigned halves = simd == 32 ? 2 : 1, g = simd == 32 ? 3 : 2;
    for (unsigned h = 0; h < halves; h++) {
        L->bary_grf[h] = g;
        g += 2 * per8;
        if (pos_comp[2]) {
            L->depth_grf[h] = g;
            g += per8;
        }
        if (pos_comp[3]) {
            L->w_grf[h] = g;
            g += per8;
        }
    }
    L->payload_grfs = g;
}

/* Per MIR vreg lane: written by an instruction passes/uniformity.c did
 * not mark uniform (then an index in it is surely per channel: the
 * selection's own analysis, gen/isel.c, never finds more).  NULL when out
 * of memory: every index may then be uniform. */
static bool *per_channel_lanes(const struct mir_prog *m)
{
    bool *pc = calloc((size_t)m->nvregs * 4 + 1, sizeof(bool));
    for (unsigned i = 0; pc && i < m->n; i++) {
        const struct mir_instr *in = &m->ins[i];
        if (!in->dead && in->has_dst && in->dst.kind == MIR_VREG && in->dst.vreg < m->nvregs &&
            !in->uniform)
            for (unsigned l = 0; l < 4; l++)
                if (in->dst.mask >> l & 1)
                    pc[(size_t)in->dst.vreg * 4 + l] = true;
    }
    return pc;
}

static bool index_maybe_uniform(const struct mir_prog *m, const bool *pc, uint32_t v, unsigned l)
{
    return !pc || v >= m->nvregs || !pc[(size_t)v * 4 + l];
}

/*
 * Should the range of candidate k be pushed?  When an index into it may be
 * uniform (one register-indirect mov per two vectors beats a block read),
 * or when per-channel reads through VxH movs issue in no more cycles than
 * gathers from its view of the constant buffer (gen_relc_issue_*: the
 * reads of the range counted as one group; both ways need the index's
 * offset, clamp and shift).
 */
static bool rel_push_pays(const struct gen_kernel_info *ki, const struct scan *sc, const bool *pc,
                          unsigned k)
{
    const struct rel_cand *c = &sc->cand[k];
    unsigned ncomp = 0, nvec = 0;
    for (unsigned j = k; j < sc->ncand; j++) {
        const struct rel_cand *d = &sc->cand[j];
        if (d->first != c->first || d->count != c->count)
            continue;
        if (index_maybe_uniform(ki->mir, pc, d->vreg, d->lane))
            return true;
        for (unsigned o = 0; o < 16; o++) {
            nvec += d->comps[o] != 0;
            for (unsigned b = 0; b < 4; b++)
                ncomp += d->comps[o] >> b & 1;
        }
    }
    return gen_relc_issue_vxh(ki->p->simd, ncomp, 3) <= gen_relc_issue_gather(ki->p->simd, nvec, 3);
}

/*
 * The relatively addressed ranges (not the whole buffer): each bound as a
 * view of the constant buffer (binding table index GEN_BTI_REL0 + its
 * number), and pushed whole (CURBE block 6) from GRF g on when
 * rel_push_pays and the push budget holds `rest` more GRFs: in the order
 * they were met, each padded by as many zero vectors as its reads span
 * (up to 8), so that a clamped index reads zeros.  Returns the GRF after.
 */
static unsigned place_rel_blocks(struct gen_kernel_info *ki, struct st_gen_layout *L,
                                 const struct scan *sc, unsigned g, unsigned rest)
{
    bool *pc = sc->ncand ? per_channel_lanes(ki->mir) : NULL;
    for (unsigned k = 0; k < sc->ncand && L->num_rel_blocks < ST_GEN_MAX_REL_BLOCKS; k++) {
        const struct rel_cand *c = &sc->cand[k];
        bool seen = false;
        for (unsigned j = 0; j < L->num_rel_blocks; j++)
            seen = seen || (L->rel_block[j].first == c->first && L->rel_block[j].count == c->count);
        if (seen || c->first < 0 || (uint64_t)c->first + c->count > L->cbuf_vectors ||
            (c->first == 0 && c->count == L->cbuf_vectors))
            continue; /* the whole buffer: its own bounds give the zeros */
        unsigned pad = 1;
        for (unsigned j = k; j < sc->ncand; j++) {
            const struct rel_cand *d = &sc->cand[j];
            unsigned span = (unsigned)(d->kmax - d->kmin) + 1;
            if (d->first == c->first && d->count == c->count && span > pad)
                pad = span > 8 ? 8 : span;
        }
        struct st_gen_rel_block *b = &L->rel_block[L->num_rel_blocks++];
        *b = (struct st_gen_rel_block){c->first, c->count, pad, 0, false,
                                       GEN_BTI_REL0 + L->num_rel_blocks - 1};
        unsigned grfs = (c->count + 2 * pad + 1) / 2;
        if (c->count > 2 * GEN_PUSH_LIMIT || grfs > rest || !rel_push_pays(ki, sc, pc, k))
            continue;
        b->pushed = true;
        b->grf = g;
        g += grfs;
        rest -= grfs;
    }
    free(pc);
    return g;
}

/* CURBE blocks and attributes after the thread payload. */
static bool place_blocks(struct gen_kernel_info *ki, struct st_gen_layout *L, const struct scan *sc)
{
    unsigned g = L->payload_grfs;
    for (unsigned s = 0; s < ST_LL_IN_SLOTS; s++)
        if (sc->in_read[s])
            L->in_slot[L->num_inputs++] = (int)s;
    unsigned other = g + (L->i_hi >= L->i_lo ? (unsigned)(L->i_hi - L->i_lo) / 2 + 1 : 0) +
                     (L->has_b ? 2 : 0) +
                     (L->bump_hi >= L->bump_lo ? (unsigned)(L->bump_hi - L->bump_lo) + 1 : 0) +
                     (sc->pos_comp[1] && !L->upper_left ? 1 : 0) +
                     L->num_inputs * (L->stage == ST_VS ? 4 : 2);
    if (L->c_hi >= L->c_lo) {
        /* What does not fit the push budget is pulled from the constant
         * buffer (gen_kernel_pull): the window of the budget's size
         * holding the most vectors read stays pushed. */
        unsigned full = (unsigned)(L->c_hi - L->c_lo) / 2 + 1;
        if (other + full > GEN_PUSH_LIMIT && other < GEN_PUSH_LIMIT)
            push_window(L, sc->c_read, sc->nc, 2 * (GEN_PUSH_LIMIT - other));
    }
    L->curbe_grf = g;
    if (L->c_hi >= L->c_lo) {
        L->c_grf = g;
        g += (unsigned)(L->c_hi - L->c_lo) / 2 + 1;
    }
    if (L->i_hi >= L->i_lo) {
        L->i_grf = g;
        g += (unsigned)(L->i_hi - L->i_lo) / 2 + 1;
    }
    if (L->has_b) {
        L->b_grf = g;
        g += 2;
    }
    if (L->bump_hi >= L->bump_lo) {
        L->bump_grf = g;
        g += (unsigned)(L->bump_hi - L->bump_lo) + 1;
    }
    if (sc->pos_comp[1] && !L->upper_left) {
        /* lower-left origin: y = window height - the pixel's row */
        L->window_grf = g;
        g += 1;
    }
    unsigned used = g + L->num_inputs * (L->stage == ST_VS ? 4 : 2);
    g = place_rel_blocks(ki, L, sc, g, used < GEN_PUSH_LIMIT ? GEN_PUSH_LIMIT - used : 0);
    L->curbe_grfs = g - L->curbe_grf;
    L->input_grf = g;
    g += L->num_inputs * (L->stage == ST_VS ? 4 : 2);
    if (g > GEN_PUSH_LIMIT) {
        st_error(ki->ctx, ki->sh->version.loc, ST_E_NOT_SUPPORTED,
                 "the Gen9 back end cannot push this many constants and inputs (%u registers)", g);
        return false;
    }
    return true;
}

bool gen_kernel_layout(struct gen_kernel_info *ki)
{
    struct gen_program *p = ki->p;
    struct st_gen_layout *L = &p->layout;
    const struct st_shader *sh = ki->sh;
    memset(L, 0, sizeof(*L));
    L->stage = sh->version.type;
    L->simd = p->simd;
    L->c_lo = L->i_lo = L->bump_lo = 0;
    L->c_hi = L->i_hi = L->bump_hi = -1;
    L->frag_pos_slot = -1;
    struct scan sc;
    memset(&sc, 0, sizeof(sc));
    /* c[] vectors read at a constant index (an ARB program may have
     * thousands of parameter slots: only what is read is pushed) */
    sc.nc = ST_LL_NUM_CONSTS;
    ki->arb = sh->dialect == ST_ARB && sh->arb;
    ki->arb_pos = ki->arb_psize = ki->arb_depth = ki->arb_frag_pos = ki->arb_fog = -1;
    for (unsigned k = 0; k < ST_GEN_MAX_RT; k++)
        ki->arb_color[k] = -1;
    if (ki->arb) {
        arb_prepare(ki, L, sc.in_read);
        if (ki->arb_slots.num_c > sc.nc)
            sc.nc = ki->arb_slots.num_c;
    }
    L->cbuf_vectors = sc.nc;
    sc.c_read = calloc(sc.nc, sizeof(bool));
    if (!sc.c_read || !find_aloops(ki)) {
        free(sc.c_read);
        st_error(ki->ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    scan_program(ki, &sc, L);
    const struct st_arb_run_slots *S = &ki->arb_slots;
    for (int k = 0; ki->arb && k < 4; k++) {
        if (S->mvp_c >= 0 && (unsigned)(S->mvp_c + k) < sc.nc)
            sc.c_read[S->mvp_c + k] = true;
        if (S->fog_c >= 0 && k < 2 && (unsigned)(S->fog_c + k) < sc.nc)
            sc.c_read[S->fog_c + k] = true;
    }
    /* constants two to a GRF: start each block on an even register number */
    if (L->c_hi >= L->c_lo)
        L->c_lo &= ~1;
    if (L->i_hi >= L->i_lo)
        L->i_lo &= ~1;
    if (sc.pos_comp[0] || sc.pos_comp[1] || sc.pos_comp[2] || sc.pos_comp[3]) {
        L->frag_pos_slot = ki->arb_frag_pos;
        L->pos_xy = sc.pos_comp[0] || sc.pos_comp[1];
        for (unsigned c = 0; c < 4; c++)
            L->pos_mask |= sc.pos_comp[c] ? 1u << c : 0u;
    }
    if (L->stage == ST_PS)
        ps_payload(L, p->simd, sc.pos_comp);
    else
        L->payload_grfs = 2;
    bool ok = place_blocks(ki, L, &sc);
    free(sc.c_read);
    /* the dcl's type, or for a stage declared nowhere (ps_1_x) the one
     * the options name (st_front_end) */
    for (unsigned s = 0; s < 16; s++)
        ki->sampler_type[s] = sh->dialect == ST_D3D9 ? sh->stage_type[s] : ST_SAMPLER_NONE;
    for (const struct st_instr *i = sh->first; i; i = i->next)
        if (i->op == ST_OP_DCL && i->has_dst && i->dst.reg.file == ST_REG_SAMPLER &&
            i->dst.reg.index < 16)
            ki->sampler_type[i->dst.reg.index] = i->sampler_type;
    return ok;
}

/* ------------------------------------------------------------------ */
/* Payload reads.                                                      */

static int attr_index(const struct st_gen_layout *L, int slot)
{
    for (unsigned k = 0; k < L->num_inputs; k++)
        if (L->in_slot[k] == slot)
            return (int)k;
    return -1;
}

static struct gen_inst *add(struct gen_program *p, enum gen_op op, unsigned exec, unsigned group)
{
    struct gen_inst *i = gen_append(p);
    i->op = (uint8_t)op;
    i->exec = (uint8_t)exec;
    i->group = (uint8_t)group;
    i->nomask = exec == 1;
    i->jip = i->uip = -1;
    return i;
}

/* Channel part q of m channels of a per-channel operand (dwords): part q
 * lies 4 * m * q bytes on (a SIMD32 half: m = 16); a uniform or an
 * immediate is every part. */
static struct gen_opnd part_of(const struct gen_program *p, struct gen_opnd o, unsigned m,
                               unsigned q)
{
    if (q && !gb_is_uniform(p, &o) && (o.kind == GO_VREG || o.kind == GO_FIXED))
        o.off += 4 * m * q;
    return o;
}

/* Moves value o into block b at byte offset boff, for every channel. */
static void to_block(struct gen_kernel_info *ki, uint32_t b, uint32_t boff, struct gen_opnd o,
                     enum gen_type t, unsigned exec, unsigned h)
{
    struct gen_inst *i = add(ki->p, GOP_MOV, exec, 16 * h);
    i->dst = gen_vr(b, boff, t);
    i->src[0] = gb_as_type(ki->b, part_of(ki->p, o, 16, h), t);
}

static uint32_t block(struct gen_program *p, uint32_t bytes, bool eot)
{
    uint32_t b = gen_new_vreg(p, bytes, false);
    if (p->oom)
        return b; /* (not in the table; the kernel is abandoned) */
    p->vreg[b].no_spill = true;
    if (eot)
        p->vreg[b].grf_lo = GEN_EOT_FIRST_GRF;
    return b;
}

/*
 * An output into the EOT payload.  A value computed in a plain divergent
 * register whose only other readers come before the send is computed in
 * its payload slot directly (every reference renamed into the block), so
 * no copy is needed: the payload copies are most of what separates a
 * kernel from its arithmetic.  Only for the EOT block (it lives at the
 * end of the kernel anyway); other blocks and shared values get a mov.
 */
static void to_payload(struct gen_kernel_info *ki, uint32_t b, uint32_t boff, struct gen_opnd o,
                       bool eot)
{
    struct gen_program *p = ki->p;
    if (p->oom || o.kind == GO_NONE)
        return; /* (the kernel is abandoned; a dword left undefined) */
    while (o.kind == GO_VREG && p->vreg[o.vreg].alias_of) {
        o.off += p->vreg[o.vreg].alias_off;
        o.vreg = p->vreg[o.vreg].alias_of - 1;
    }
    if (eot && o.kind == GO_VREG && o.off == 0 && !o.neg && !o.abs && o.region == GR_AUTO &&
        o.type == GT_F && o.vreg != b) {
        struct gen_vreg *v = &p->vreg[o.vreg];
        if (!v->uniform && !v->no_spill && v->size == gen_dsize(p) && v->grf_lo == 0) {
            for (unsigned k = 0; k < p->ninst; k++) {
                struct gen_inst *i = &p->inst[k];
                struct gen_opnd *ops[4] = {&i->dst, &i->src[0], &i->src[1], &i->src[2]};
                for (unsigned s = 0; s < 4; s++)
                    if (ops[s]->kind == GO_VREG && ops[s]->vreg == o.vreg) {
                        ops[s]->vreg = b;
                        ops[s]->off += boff;
                    }
            }
            /* the value's vreg is now part of the block: later uses of the same operand
             * (another target, another slot) must read the block too */
            v->alias_of = b + 1;
            v->alias_off = boff;
            for (int s = 0; s < ST_LL_OUT_SLOTS; s++)
                for (unsigned c = 0; c < 4; c++)
                    if (ki->out[s][c].kind == GO_VREG && ki->out[s][c].vreg == o.vreg) {
                        ki->out[s][c].vreg = b;
                        ki->out[s][c].off += boff;
                    }
            if (ki->status.kind == GO_VREG && ki->status.vreg == o.vreg) {
                ki->status.vreg = b;
                ki->status.off += boff;
            }
            return;
        }
    }
    to_block(ki, b, boff, o, GT_F, p->simd, 0);
}

/* A message whose per-channel response is `nch` dwords, sent as `parts`
 * messages of m channels each (SIMD32 as two SIMD16 messages, a SIMD16
 * sample_d as two SIMD8 ones): the parts' responses gathered into one
 * vreg per channel. */
static void gather_parts(struct gen_program *p, const uint32_t *resp, unsigned parts, unsigned m,
                         unsigned nch, struct gen_opnd out[4])
{
    for (unsigned c = 0; c < nch; c++) {
        uint32_t v = gen_new_vreg(p, gen_dsize(p), false);
        for (unsigned q = 0; q < parts; q++) {
            struct gen_inst *i = add(p, GOP_MOV, m, m * q);
            i->dst = gen_vr(v, 4 * m * q, GT_UD);
            i->src[0] = gen_vr(resp[q], 4 * m * c, GT_UD);
            i->src[0].region = GR_VEC;
        }
        out[c] = gen_vr(v, 0, GT_F);
    }
}

/* The components of a 4-bit mask, first..last (a read covers that range). */
static void comp_range(uint8_t comps, unsigned *first, unsigned *n)
{
    unsigned lo = 0, hi = 0;
    while (lo < 4 && !(comps >> lo & 1))
        lo++;
    for (unsigned c = 0; c < 4; c++)
        if (comps >> c & 1)
            hi = c;
    *first = lo < 4 ? lo : 0;
    *n = lo < 4 ? hi - lo + 1 : 1;
}

static void pull_send(struct gen_kernel_info *ki, uint32_t a, unsigned c0, unsigned nch,
                      unsigned bti, struct gen_opnd out[4]);

void gen_kernel_pull_at(struct gen_kernel_info *ki, struct gen_opnd bytes, int32_t k, uint8_t comps,
                        unsigned bti, struct gen_opnd out[4])
{
    struct gen_program *p = ki->p;
    uint32_t a = gen_new_vreg(p, gen_dsize(p), false);
    unsigned c0, nch;
    comp_range(comps ? comps : 1, &c0, &nch);
    struct gen_inst *i = add(p, GOP_ADD, p->simd, 0);
    i->dst = gen_vr(a, 0, GT_D);
    i->src[0] = gb_reg(ki->b, gb_as_type(ki->b, bytes, GT_D));
    i->src[1] = gen_imm((uint32_t)k + 4 * c0, GT_D);
    pull_send(ki, a, c0, nch, bti, out);
}

bool gen_kernel_pull(struct gen_kernel_info *ki, struct gen_opnd index, uint8_t comps,
                     struct gen_opnd out[4])
{
    struct gen_program *p = ki->p;
    uint32_t ds = gen_dsize(p);
    uint32_t a = gen_new_vreg(p, ds, false);
    unsigned c0, nch;
    comp_range(comps ? comps : 1, &c0, &nch);
    index = gb_as_type(ki->b, index, GT_D);
    struct gen_inst *i;
    if (index.kind == GO_IMM) {
        /* a constant index (a vector past the pushed ones): one mov */
        i = add(p, GOP_MOV, p->simd, 0);
        i->dst = gen_vr(a, 0, GT_D);
        i->src[0] = gen_imm(((index.imm + GEN_CBUF_PAD) << 4) + 4 * c0, GT_D);
    } else {
        i = add(p, GOP_SHL, p->simd, 0);
        i->dst = gen_vr(a, 0, GT_D);
        i->src[0] = index;
        i->src[1] = gen_imm(4, GT_D);
        if (c0) {
            i = add(p, GOP_ADD, p->simd, 0);
            i->dst = gen_vr(a, 0, GT_D);
            i->src[0] = gen_vr(a, 0, GT_D);
            i->src[1] = gen_imm(4 * c0, GT_D);
        }
    }
    pull_send(ki, a, c0, nch, GEN_BTI_CONSTANTS, out);
    return true;
}

/* The untyped read of components c0..c0+nch-1 at the byte addresses in a. */
static void pull_send(struct gen_kernel_info *ki, uint32_t a, unsigned c0, unsigned nch,
                      unsigned bti, struct gen_opnd out[4])
{
    struct gen_program *p = ki->p;
    uint32_t ds = gen_dsize(p);
    struct gen_inst *i;
    uint32_t mask = (0xFu << nch) & 0xFu;
    unsigned halves = p->simd == 32 ? 2 : 1, exec = p->simd == 32 ? 16 : p->simd;
    uint32_t resp[2];
    for (unsigned h = 0; h < halves; h++) {
        resp[h] = block(p, nch * 4 * exec, false);
        i = add(p, GOP_SEND, exec, 16 * h);
        i->dst = gen_vr(resp[h], 0, GT_UD);
        i->src[0] = gen_vr(a, 64 * h, GT_UD);
        i->sfid = 0xC;
        i->exdesc = 0xC;
        i->mlen = (uint8_t)(exec / 8);
        i->rlen = (uint8_t)(nch * exec / 8);
        i->desc = gen_desc(exec / 8, nch * exec / 8, false,
                           (1u << 14) | ((exec == 8 ? 2u : 1u) << 12) | (mask << 8) | bti);
    }
    struct gen_opnd got[4];
    if (halves == 2) {
        gather_parts(p, resp, 2, 16, nch, got);
    } else {
        for (unsigned c = 0; c < nch; c++)
            got[c] = gen_vr(resp[0], c * ds, GT_F);
    }
    for (unsigned c = 0; c < 4; c++)
        out[c] = c >= c0 && c < c0 + nch ? got[c - c0] : gen_imm(0, GT_F);
}

uint32_t gen_kernel_block_read(struct gen_kernel_info *ki, struct gen_opnd off, unsigned nvec)
{
    struct gen_program *p = ki->p;
    unsigned grfs = nvec <= 2 ? 1 : nvec <= 4 ? 2 : 4;
    /* header: r0, dword 2 = the offset in OWords (gen9-target.md section 5) */
    uint32_t h = block(p, GEN_GRF_SIZE, false);
    struct gen_inst *i = add(p, GOP_MOV, 8, 0);
    i->nomask = true;
    i->dst = gen_vr(h, 0, GT_UD);
    i->src[0] = gen_fixed(0, GT_UD, GR_VEC);
    i = add(p, GOP_MOV, 1, 0);
    i->dst = gen_vr(h, 8, GT_UD);
    i->src[0] = gb_as_type(ki->b, off, GT_UD);
    /* the response: one value for the thread, read with scalar regions */
    uint32_t r = gen_new_vreg(p, grfs * GEN_GRF_SIZE, true);
    if (!p->oom)
        p->vreg[r].no_spill = true;
    i = add(p, GOP_SEND, 8, 0);
    i->nomask = true;
    i->dst = gen_vr(r, 0, GT_UD);
    i->src[0] = gen_vr(h, 0, GT_UD);
    i->sfid = 9;
    i->exdesc = 9;
    i->mlen = 1;
    i->rlen = (uint8_t)grfs;
    /* constant cache OWord block read (type 0), 2/4/8 OWords = message control 2/3/4 */
    i->desc = gen_desc(1, grfs, true, ((grfs == 1 ? 2u : grfs == 2 ? 3u : 4u) << 8) |
                                          GEN_BTI_CONSTANTS);
    return r;
}

const struct st_gen_rel_block *gen_kernel_rel_block(const struct gen_kernel_info *ki, int first,
                                                    uint32_t count)
{
    const struct st_gen_layout *L = &ki->p->layout;
    for (unsigned k = 0; k < L->num_rel_blocks; k++)
        if (L->rel_block[k].first == first && L->rel_block[k].count == count)
            return &L->rel_block[k];
    return NULL;
}

bool gen_kernel_const_pushed(const struct gen_kernel_info *ki, uint32_t idx)
{
    const struct st_gen_layout *L = &ki->p->layout;
    return L->c_hi >= L->c_lo && (int64_t)idx >= L->c_lo && (int64_t)idx <= L->c_hi;
}

struct gen_opnd gen_kernel_const(struct gen_kernel_info *ki, uint32_t idx, unsigned c)
{
    const struct st_gen_layout *L = &ki->p->layout;
    if (!gen_kernel_const_pushed(ki, idx)) {
        gb_fail(ki->b, "a constant the layout did not push");
        return gen_imm(0, GT_F);
    }
    return gen_fixed(L->c_grf * GEN_GRF_SIZE + (idx - (uint32_t)L->c_lo) * 16 + (c & 3) * 4, GT_F,
                     GR_SCALAR);
}

struct gen_opnd gen_kernel_int(struct gen_kernel_info *ki, uint32_t idx, unsigned c)
{
    /* the layout pushed what its scan saw; anything else is refused, never
     * read from a register that holds something else */
    const struct st_gen_layout *L = &ki->p->layout;
    if (L->i_hi < L->i_lo || (int64_t)idx < L->i_lo || (int64_t)idx > L->i_hi) {
        gb_fail(ki->b, "an integer constant the layout did not push");
        return gen_imm(0, GT_D);
    }
    return gen_fixed(L->i_grf * GEN_GRF_SIZE + (idx - (uint32_t)L->i_lo) * 16 + (c & 3) * 4, GT_D,
                     GR_SCALAR);
}

struct gen_opnd gen_kernel_bool(struct gen_kernel_info *ki, uint32_t idx)
{
    const struct st_gen_layout *L = &ki->p->layout;
    if (!L->has_b || idx >= 16) {
        gb_fail(ki->b, "a boolean constant the layout did not push");
        return gen_imm(0, GT_D);
    }
    return gen_fixed(L->b_grf * GEN_GRF_SIZE + 4 * idx, GT_D, GR_SCALAR);
}

struct gen_opnd gen_kernel_bump(struct gen_kernel_info *ki, uint32_t stage, unsigned j)
{
    const struct st_gen_layout *L = &ki->p->layout;
    if (L->bump_hi < L->bump_lo || (int64_t)stage < L->bump_lo || (int64_t)stage > L->bump_hi ||
        j >= 8) {
        gb_fail(ki->b, "a bump-environment stage the layout did not push");
        return gen_imm(0, GT_F);
    }
    return gen_fixed(L->bump_grf * GEN_GRF_SIZE + (stage - (uint32_t)L->bump_lo) * 32 + 4 * j,
                     GT_F, GR_SCALAR);
}

/*
 * vPos: the pixel's integer (x, y), from the upper-left corner of its
 * subspan in r1 (r2 for pixels 16-31 of SIMD32: dwords 2-5 = X, Y words
 * of subspans 0-3) plus (0,1,0,1) / (0,0,1,1) within the subspan; z = 0,
 * w = 1.  The same region trick as Mesa's fragment coordinates.
 */
static struct gen_opnd pixel_coord(struct gen_program *p, unsigned c)
{
    unsigned halves = p->simd == 32 ? 2 : 1, exec = p->simd == 32 ? 16 : p->simd;
    uint32_t v = gen_new_vreg(p, gen_dsize(p), false);
    for (unsigned h = 0; h < halves; h++) {
        uint32_t t = gen_new_vreg(p, GEN_GRF_SIZE, false);
        struct gen_inst *i = add(p, GOP_ADD, exec, 16 * h);
        i->dst = gen_vr(t, 0, GT_UW);
        i->src[0] = gen_fixed((1 + h) * GEN_GRF_SIZE + 8 + 2 * c, GT_UW, GR_SUBSPAN);
        i->src[1] = gen_imm(c == 0 ? 0x10101010u : 0x11001100u, GT_V);
        i = add(p, GOP_MOV, exec, 16 * h);
        i->dst = gen_vr(v, 64 * h, GT_F);
        i->src[0] = gen_vr(t, 0, GT_UW);
        i->src[0].region = GR_VEC;
    }
    return gen_vr(v, 0, GT_F);
}

/* a + b (b an immediate or a scalar), a fresh divergent float */
static struct gen_opnd add_f(struct gen_program *p, struct gen_opnd a, struct gen_opnd b)
{
    uint32_t v = gen_new_vreg(p, gen_dsize(p), false);
    struct gen_inst *i = add(p, GOP_ADD, p->simd, 0);
    i->dst = gen_vr(v, 0, GT_F);
    i->src[0] = a;
    i->src[1] = b;
    return gen_vr(v, 0, GT_F);
}

/*
 * ARB fragment.position, component c: window coordinates (x, y, z, 1/w)
 * (ARB_fragment_program 3.11.2; ARB_fragment_coord_conventions).  x, y:
 * the pixel's column and row from the payload (hardware rows count down
 * from the top) plus 0.5, or plus 0 with pixel_center_integer; with the
 * default lower-left origin y = H - (row + 0.5) (H - (row + 1) for integer
 * centres), H the pushed window height.  z: the source depth payload.  w:
 * 1 / the source W payload (the clip w), as Mesa computes gl_FragCoord.w.
 * Every step is exact for rows and columns below 2^23 but the reciprocal.
 */
static struct gen_opnd frag_position(struct gen_program *p, unsigned c)
{
    const struct st_gen_layout *L = &p->layout;
    const uint32_t half = 0x3f000000u, one = 0x3f800000u;
    if (!(L->pos_mask >> c & 1))
        return gen_imm(0, GT_F); /* a lane nobody reads: no payload for it */
    if (c == 0) {
        struct gen_opnd x = pixel_coord(p, 0);
        return L->center_integer ? x : add_f(p, x, gen_imm(half, GT_F));
    }
    if (c == 1) {
        struct gen_opnd y = pixel_coord(p, 1);
        if (L->upper_left)
            return L->center_integer ? y : add_f(p, y, gen_imm(half, GT_F));
        y = add_f(p, y, gen_imm(L->center_integer ? one : half, GT_F));
        y.neg = true;
        return add_f(p, y, gen_fixed(L->window_grf * GEN_GRF_SIZE, GT_F, GR_SCALAR));
    }
    unsigned halves = p->simd == 32 ? 2 : 1, exec = p->simd == 32 ? 16 : p->simd;
    uint32_t v = gen_new_vreg(p, gen_dsize(p), false);
    for (unsigned h = 0; h < halves; h++) {
        struct gen_inst *i = add(p, c == 2 ? GOP_MOV : GOP_MATH, exec, 16 * h);
        if (c == 3)
            i->math = GM_INV;
        i->dst = gen_vr(v, 64 * h, GT_F);
        i->src[0] = gen_fixed((c == 2 ? L->depth_grf[h] : L->w_grf[h]) * GEN_GRF_SIZE, GT_F, GR_VEC);
    }
    return gen_vr(v, 0, GT_F);
}

/*
 * vFace: +1.0 for a front-facing primitive, -1.0 for a back-facing one:
 * r0.0 bit 15 is set for back-facing (Mesa's front-facing read); one
 * value per thread.  (face, 0, 0, 1).
 */
static struct gen_opnd facing(struct gen_kernel_info *ki)
{
    struct gen_program *p = ki->p;
    uint32_t f = gen_new_vreg(p, 4, true);
    struct gen_opnd one = gb_reg(ki->b, gen_imm(0x3f800000u, GT_F));
    struct gen_inst *i = add(p, GOP_AND, 1, 0);
    i->cmod = GC_EQ;
    i->dst = gen_null(GT_UD);
    i->src[0] = gen_fixed(0, GT_UD, GR_SCALAR);
    i->src[1] = gen_imm(0x8000u, GT_UD);
    i = add(p, GOP_SEL, 1, 0);
    i->pred = GP_NORMAL;
    i->dst = gen_vr(f, 0, GT_F);
    i->src[0] = one;
    i->src[1] = gen_imm(0xbf800000u, GT_F);
    return gen_vr(f, 0, GT_F);
}

/* Component c of input attribute a, into dst (predicated by f0.0 when pred). */
static void input_comp(struct gen_program *p, unsigned a, unsigned c, uint32_t dst, bool pred)
{
    const struct st_gen_layout *L = &p->layout;
    if (L->stage == ST_VS) {
        struct gen_inst *i = add(p, GOP_MOV, p->simd, 0);
        i->dst = gen_vr(dst, 0, GT_F);
        i->src[0] = gen_fixed((L->input_grf + 4 * a + c) * GEN_GRF_SIZE, GT_F, GR_VEC);
        i->pred = pred ? GP_NORMAL : GP_NONE;
        return;
    }
    uint32_t setup = (L->input_grf + 2 * a + c / 2) * GEN_GRF_SIZE + (c & 1) * 16;
    unsigned halves = p->simd == 32 ? 2 : 1, exec = p->simd == 32 ? 16 : p->simd;
    for (unsigned h = 0; h < halves; h++) {
        struct gen_inst *i = add(p, GOP_PLN, exec, 16 * h);
        i->dst = gen_vr(dst, 64 * h, GT_F);
        i->src[0] = gen_fixed(setup, GT_F, GR_SCALAR);
        i->src[1] = gen_fixed(p->layout.bary_grf[h] * GEN_GRF_SIZE, GT_F, GR_VEC);
        i->pred = pred ? GP_NORMAL : GP_NONE;
    }
}

struct gen_opnd gen_kernel_input(struct gen_kernel_info *ki, int slot, unsigned c)
{
    struct gen_program *p = ki->p;
    const struct st_gen_layout *L = &p->layout;
    c &= 3;
    if (L->frag_pos_slot >= 0 && slot == L->frag_pos_slot)
        return frag_position(p, c);
    if (L->stage == ST_PS && !ki->arb && (slot == ST_LL_IN_VPOS || slot == ST_LL_IN_VFACE)) {
        if (slot == ST_LL_IN_VPOS)
            return c < 2 ? pixel_coord(p, c) : gen_imm(c == 3 ? 0x3f800000u : 0, GT_F);
        return c == 0 ? facing(ki) : gen_imm(c == 3 ? 0x3f800000u : 0, GT_F);
    }
    int a = attr_index(L, slot);
    if (a < 0) {
        gb_fail(ki->b, "an input the layout did not push");
        return (struct gen_opnd){0};
    }
    if (L->stage == ST_VS)
        return gen_fixed((L->input_grf + 4 * (unsigned)a + c) * GEN_GRF_SIZE, GT_F, GR_VEC);
    /* PS: interpolate; the setup group (a, b, -, c0) is pln's src0 */
    uint32_t v = gen_new_vreg(p, gen_dsize(p), false);
    input_comp(p, (unsigned)a, c, v, false);
    return gen_vr(v, 0, GT_F);
}

/*
 * v[index + k]: the inputs are registers, so a run-time index is a chain
 * of compares and predicated reads over every register it may reach;
 * outside v0..v(limit-1) the read gives 0, as in the interpreter.
 */
/*
 * v[index + k] through the address register: the index is one value for
 * the thread and names only registers rmin..rmax, whose attributes follow
 * each other in the payload from a_min on (4 GRFs each in a vertex
 * shader, 2 setup GRFs in a pixel shader), so register index + k is at
 * base + stride * index (gen_ir.h, GEN_MOVI_INPUT); pixel shaders then
 * interpolate the setup groups read.  False: not so (a chain instead).
 */
static bool input_rel_indirect(struct gen_kernel_info *ki, struct gen_opnd index, int32_t k,
                               unsigned rmin, unsigned rmax, uint8_t comps, struct gen_opnd out[4])
{
    struct gen_program *p = ki->p;
    const struct st_gen_layout *L = &p->layout;
    bool vs = L->stage == ST_VS;
    int a_min = attr_index(L, ST_LL_IN_V + (int)rmin);
    if (!gb_is_uniform(p, &index) || index.kind != GO_VREG || a_min < 0 ||
        (int64_t)rmin - k < 0 || (vs && p->simd != 8))
        return false;
    for (unsigned r = rmin; r <= rmax; r++)
        if (attr_index(L, ST_LL_IN_V + (int)r) != a_min + (int)(r - rmin))
            return false;
    uint32_t stride = vs ? 4 * GEN_GRF_SIZE : 2 * GEN_GRF_SIZE;
    uint32_t lo = (L->input_grf * GEN_GRF_SIZE) + stride * (uint32_t)a_min;
    /* index >= rmin - k, so base + stride * index >= lo */
    uint32_t base = lo - stride * (rmin - (uint32_t)k);
    unsigned n = 0;
    for (unsigned c = 0; c < 4; c++)
        n += comps >> c & 1;
    uint32_t dst = gen_new_vreg(p, vs ? n * gen_dsize(p) : n == 1 ? 16 : (n + 1) / 2 * GEN_GRF_SIZE,
                                !vs);
    if (p->oom)
        return true; /* (the kernel is abandoned) */
    p->vreg[dst].no_spill = true;
    if (!vs && n == 1)
        p->vreg[dst].align = 16;
    struct gen_inst *i = add(p, GOP_MOVI, vs ? p->simd : 1, 0);
    i->dst = gen_vr(dst, 0, GT_F);
    i->src[0] = index;
    i->src[1] = gen_fixed(lo, GT_UD, GR_SCALAR);
    i->src[1].imm = stride * (rmax - rmin + 1);
    i->src[2] = gen_imm(gen_movi_imm(base, 1, comps, 1) | GEN_MOVI_INPUT, GT_UD);
    unsigned slot = 0;
    for (unsigned c = 0; c < 4; c++) {
        if (!(comps >> c & 1))
            continue;
        if (vs) {
            out[c] = gen_vr(dst, slot * gen_dsize(p), GT_F);
        } else {
            uint32_t v = gen_new_vreg(p, gen_dsize(p), false);
            unsigned halves = p->simd == 32 ? 2 : 1, exec = p->simd == 32 ? 16 : p->simd;
            for (unsigned h = 0; h < halves; h++) {
                struct gen_inst *pl = add(p, GOP_PLN, exec, 16 * h);
                pl->dst = gen_vr(v, 64 * h, GT_F);
                pl->src[0] = gen_vr(dst, 16 * slot, GT_F);
                pl->src[1] = gen_fixed(L->bary_grf[h] * GEN_GRF_SIZE, GT_F, GR_VEC);
            }
            out[c] = gen_vr(v, 0, GT_F);
        }
        slot++;
    }
    return true;
}

bool gen_kernel_input_rel(struct gen_kernel_info *ki, struct gen_opnd index, int32_t k,
                          const bool *reach, bool oob, uint8_t comps, struct gen_opnd out[4])
{
    struct gen_program *p = ki->p;
    const struct st_gen_layout *L = &p->layout;
    unsigned limit = gen_kernel_rel_limit(ki->sh, ST_REG_INPUT);
    index = gb_reg(ki->b, gb_as_type(ki->b, index, GT_D));
    uint32_t res[4] = {0, 0, 0, 0};
    unsigned nreach = 0, only = 0, first = limit;
    for (unsigned r = 0; r < limit; r++)
        if (!reach || reach[r]) {
            nreach++;
            only = r;
            first = r < first ? r : first;
        }
    for (unsigned c = 0; c < 4; c++)
        out[c] = gen_imm(0, GT_F);
    if (reach && nreach == 1) {
        /* the index can only name one register (an aL of known values) */
        for (unsigned c = 0; c < 4; c++)
            if (comps >> c & 1)
                out[c] = gen_kernel_input(ki, ST_LL_IN_V + (int)only, c);
        return !ki->b->failed;
    }
    if (reach && !oob && nreach > 1 && input_rel_indirect(ki, index, k, first, only, comps, out))
        return !ki->b->failed;
    for (unsigned c = 0; c < 4; c++)
        if (comps >> c & 1) {
            res[c] = gen_new_vreg(p, gen_dsize(p), false);
            struct gen_inst *m = add(p, GOP_MOV, p->simd, 0);
            m->dst = gen_vr(res[c], 0, GT_F);
            m->src[0] = gen_imm(0, GT_F);
            out[c] = gen_vr(res[c], 0, GT_F);
        }
    for (unsigned r = 0; r < limit; r++) {
        if (reach && !reach[r])
            continue;
        int a = attr_index(L, ST_LL_IN_V + (int)r);
        if (a < 0) {
            gb_fail(ki->b, "an input the layout did not push");
            return false;
        }
        struct gen_inst *c = add(p, GOP_CMP, p->simd, 0);
        c->cmod = GC_EQ;
        c->dst = gen_null(GT_D);
        c->src[0] = index;
        c->src[1] = gen_imm((uint32_t)((int32_t)r - k), GT_D);
        for (unsigned comp = 0; comp < 4; comp++)
            if (comps >> comp & 1)
                input_comp(p, (unsigned)a, comp, res[comp], true);
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* Sampling.                                                           */

/*
 * The sampler message and its parameters, in the order Gen9 reads them
 * (header-less; Mesa's lower_sampler_logical_send_gfx7): [ref], [bias or
 * level], u, v, r; sample_d interleaves each coordinate with its two
 * gradients.  Message types: 0 sample, 1 sample_b, 2 sample_l, 3
 * sample_c, 4 sample_d, 5 sample_b_c, 6 sample_l_c, 24 sample_lz, 25
 * sample_c_lz.  Returns the number of parameters.
 */
static unsigned sample_params(const struct gen_program *p, const struct gen_sample_lod *lod,
                              bool shadow, const struct gen_opnd *crd, unsigned ncrd,
                              struct gen_opnd prm[9], unsigned *type)
{
    enum gen_lod_kind k = lod ? lod->kind : GEN_LOD_IMPLICIT;
    unsigned n = 0;
    *type = 0;
    if (k == GEN_LOD_IMPLICIT && p->layout.stage == ST_VS)
        k = GEN_LOD_LEVEL; /* no quad, no derivatives: level 0 */
    struct gen_opnd level = lod && lod->kind == GEN_LOD_LEVEL ? lod->lod : gen_imm(0, GT_F);
    if (shadow)
        prm[n++] = crd[2]; /* the reference */
    switch (k) {
    case GEN_LOD_IMPLICIT: *type = shadow ? 3 : 0; break;
    case GEN_LOD_BIAS:
        *type = shadow ? 5 : 1;
        prm[n++] = lod->lod;
        break;
    case GEN_LOD_LEVEL:
        if (gb_is_imm_f(level, 0.0f) || gb_is_imm_f(level, -0.0f)) {
            *type = shadow ? 25 : 24; /* sample_lz: level 0, one parameter fewer */
        } else {
            *type = shadow ? 6 : 2;
            prm[n++] = level;
        }
        break;
    case GEN_LOD_GRAD:
        *type = 4;
        for (unsigned c = 0; c < ncrd; c++) {
            prm[n++] = crd[c];
            prm[n++] = lod->ddx[c];
            prm[n++] = lod->ddy[c];
        }
        return n;
    }
    for (unsigned c = 0; c < ncrd; c++)
        prm[n++] = crd[c];
    return n;
}

void gen_kernel_sample(struct gen_kernel_info *ki, unsigned stage, unsigned target,
                       const struct gen_opnd coord[3], const struct gen_sample_lod *lod,
                       struct gen_opnd out[4])
{
    struct gen_program *p = ki->p;
    for (unsigned c = 0; c < 4; c++)
        out[c] = gen_imm(0, GT_F);
    if (stage >= 16 || (target && !ki->arb) || target > ST_ARB_TEX_SHADOWRECT + 1) {
        gb_fail(ki->b, "this texture stage");
        return;
    }
    if (lod && lod->kind == GEN_LOD_BIAS && p->layout.stage == ST_VS) {
        gb_fail(ki->b, "a lod bias in a vertex shader");
        return;
    }
    unsigned ncrd;
    bool shadow = false;
    if (target) {
        switch ((enum st_arb_tex_target)(target - 1)) {
        case ST_ARB_TEX_3D: case ST_ARB_TEX_CUBE: ncrd = 3; break;
        case ST_ARB_TEX_SHADOW1D: case ST_ARB_TEX_SHADOW2D: case ST_ARB_TEX_SHADOWRECT:
            shadow = true;
            ncrd = 2; /* u, v after the reference (r) */
            break;
        default: ncrd = 2; break;
        }
    } else {
        switch (ki->sampler_type[stage]) {
        case ST_SAMPLER_2D: ncrd = 2; break;
        case ST_SAMPLER_CUBE: case ST_SAMPLER_VOLUME: ncrd = 3; break;
        default:
            ncrd = gb_is_imm_f(coord[2], 0.0f) ? 2 : 3;
            break;
        }
    }
    if (shadow && lod && lod->kind == GEN_LOD_GRAD) {
        gb_fail(ki->b, "gradients with a shadow target");
        return;
    }
    struct gen_opnd prm[9];
    unsigned type, nparams = sample_params(p, lod, shadow, coord, ncrd, prm, &type);
    /* the sampler reads a parameter the message leaves out as 0 (Mesa
     * sends a 1D target's u alone): trailing zeros (a 1D target's v, a
     * constant 0 coordinate or gradient) are left out, not moved in */
    while (nparams > 1 && (gb_is_imm_f(prm[nparams - 1], 0.0f) || gb_is_imm_f(prm[nparams - 1], -0.0f)))
        nparams--;
    /* one message per 16 channels (sample_d: per 8, Gen9 has no SIMD16 sample_d) */
    unsigned m = type == 4 ? 8 : p->simd < 16 ? p->simd : 16, parts = p->simd / m;
    uint32_t resp[4];
    for (unsigned q = 0; q < parts; q++) {
        uint32_t pl = block(p, nparams * 4 * m, false);
        for (unsigned k = 0; k < nparams; k++) {
            struct gen_inst *i = add(p, GOP_MOV, m, m * q);
            i->dst = gen_vr(pl, k * 4 * m, GT_F);
            i->src[0] = gb_as_type(ki->b, part_of(p, prm[k], m, q), GT_F);
        }
        resp[q] = block(p, 16 * m, false);
        struct gen_inst *i = add(p, GOP_SEND, m, m * q);
        i->dst = gen_vr(resp[q], 0, GT_F);
        i->src[0] = gen_vr(pl, 0, GT_F);
        i->sfid = 2;
        i->exdesc = 2;
        i->mlen = (uint8_t)(nparams * m / 8);
        i->rlen = (uint8_t)(4 * m / 8);
        i->desc = gen_desc(nparams * m / 8, 4 * m / 8, false,
                           (GEN_BTI_TEXTURE0 + stage) | (stage << 8) | (type << 12) |
                               ((m == 8 ? 1u : 2u) << 17));
    }
    if (parts == 1) {
        for (unsigned c = 0; c < 4; c++)
            out[c] = gen_vr(resp[0], c * gen_dsize(p), GT_F);
        return;
    }
    gather_parts(p, resp, parts, m, 4, out);
}

/* ------------------------------------------------------------------ */
/* End of thread.                                                      */

/*
 * Component comp of c[idx] for the options' fixed-function steps at the
 * end of the kernel: pushed, or pulled once per vector (straight-line code
 * after all control flow, so the pulled value may be shared).
 */
static struct gen_opnd const_comp(struct gen_kernel_info *ki, int idx, unsigned comp)
{
    if (idx >= 0 && gen_kernel_const_pushed(ki, (uint32_t)idx))
        return gen_kernel_const(ki, (uint32_t)idx, comp);
    for (unsigned k = 0; k < ki->npulled; k++)
        if (ki->pulled[k].idx == idx)
            return ki->pulled[k].v[comp];
    if (ki->npulled == sizeof(ki->pulled) / sizeof(ki->pulled[0])) {
        /* the options read at most 6 vectors (mvp rows, fog params, fog colour) */
        gb_fail(ki->b, "more than 8 pulled constants in the fixed-function steps");
        return gen_imm(0, GT_F);
    }
    if (!gen_kernel_pull(ki, gen_imm((uint32_t)idx, GT_D), 0xf, ki->pulled[ki->npulled].v))
        return gen_imm(0, GT_F);
    ki->pulled[ki->npulled].idx = idx;
    return ki->pulled[ki->npulled++].v[comp];
}

static struct gen_opnd alu2(struct gen_kernel_info *ki, enum gen_op op, struct gen_opnd a,
                            struct gen_opnd b, bool sat)
{
    struct gen_program *p = ki->p;
    a = gb_reg(ki->b, a);
    uint32_t v = gen_new_vreg(p, gen_dsize(p), false);
    struct gen_inst *i = add(p, op, p->simd, 0);
    i->dst = gen_vr(v, 0, GT_F);
    i->src[0] = a;
    i->src[1] = b;
    i->sat = sat;
    return gen_vr(v, 0, GT_F);
}

/* x clamped as the interpreter's _sat (st_op_saturate): a mov.sat, which
 * gen/opt_fold.c may fold into x's producer. */
static struct gen_opnd sat_copy(struct gen_kernel_info *ki, struct gen_opnd x)
{
    struct gen_program *p = ki->p;
    uint32_t v = gen_new_vreg(p, gen_dsize(p), false);
    gb_alu_to(ki->b, GOP_MOV, gen_vr(v, 0, GT_F), x, gen_opnd_none(), true);
    return gen_vr(v, 0, GT_F);
}

/* The operation context of the fixed-function steps: the kernel's float
 * rule and multiply-add contraction, float operands. */
static struct gen_opctx ff_opctx(const struct gen_kernel_info *ki)
{
    struct gen_opctx c;
    memset(&c, 0, sizeof(c));
    c.b = ki->b;
    c.legacy = ki->legacy;
    c.fuse = ki->fuse;
    c.ft = GT_F;
    return c;
}

/* A product of the fixed-function steps under the float rule (st_arb_run_finish's ff_mul). */
static struct gen_opnd ff_mul(struct gen_kernel_info *ki, struct gen_opnd a, struct gen_opnd b)
{
    struct gen_opctx c = ff_opctx(ki);
    return gen_op_mul(&c, a, b);
}

/* Component c of input slot s as a divergent value (interpolated in a PS). */
static struct gen_opnd input_value(struct gen_program *p, int slot, unsigned c)
{
    const struct st_gen_layout *L = &p->layout;
    int a = attr_index(L, slot);
    if (a < 0)
        return gen_imm(0, GT_F);
    if (L->stage == ST_VS)
        return gen_fixed((L->input_grf + 4 * (unsigned)a + c) * GEN_GRF_SIZE, GT_F, GR_VEC);
    uint32_t v = gen_new_vreg(p, gen_dsize(p), false);
    input_comp(p, (unsigned)a, c, v, false);
    return gen_vr(v, 0, GT_F);
}

/* ARB_position_invariant: row r of state.matrix.mvp . vertex.position. */
static void arb_position_invariant(struct gen_kernel_info *ki)
{
    struct gen_program *p = ki->p;
    const struct st_arb_run_slots *S = &ki->arb_slots;
    if (S->pos_out < 0 || S->pos_out >= ST_LL_OUT_SLOTS || S->mvp_c < 0 || S->pos_in < 0)
        return;
    /* a matrix operation: each row a dot product as the interpreter's
     * (st_arb_run_finish, st_op_dot), fused in st_op_dot_term's order */
    struct gen_opnd pos[4];
    for (unsigned k = 0; k < 4; k++)
        pos[k] = input_value(p, S->pos_in, k);
    struct gen_opctx c = ff_opctx(ki);
    for (unsigned r = 0; r < 4; r++) {
        struct gen_opnd row[4];
        for (unsigned k = 0; k < 4; k++)
            row[k] = const_comp(ki, S->mvp_c + (int)r, k);
        ki->out[S->pos_out][r] = gen_op_dot(&c, row, pos, 4);
    }
    ki->out_set[S->pos_out] = true;
}

/*
 * ARB_fog_*: result.color.rgb = Cfog + f * (C - Cfog) with f clamped to
 * [0, 1]: linear (end - z) / (end - start), exp e^(-density z), exp2
 * e^(-(density z)^2); z = fragment.fogcoord.x, state.fog.params and
 * state.fog.color pushed (OpenGL 1.5 section 3.10, as the interpreter).
 * The blend f C + (1 - f) Cfog is LRP's formula, a multiply-add
 * (docs/gensim.md, rule 1): an `lrp` per channel, the interpreter's fused
 * reading (an add and a mad under the d3d9 rule, three steps with
 * --fp-contract=off).
 */
static void arb_fog(struct gen_kernel_info *ki)
{
    struct gen_program *p = ki->p;
    const struct st_arb_run_slots *S = &ki->arb_slots;
    int color = ki->arb_color[0];
    if (S->fog_c < 0 || S->fog_in < 0 || color < 0 || !ki->out_set[color])
        return;
    uint32_t o = ki->sh->arb->options;
    struct gen_opnd z = input_value(p, S->fog_in, 0), f;
    if (o & ST_ARB_OPT_FOG_LINEAR) {
        struct gen_opnd nz = z;
        nz.neg = true;
        f = alu2(ki, GOP_ADD, nz, const_comp(ki, S->fog_c, 2), false); /* end - z */
        f = ff_mul(ki, f, const_comp(ki, S->fog_c, 3));                /* * 1/(end - start) */
        f = sat_copy(ki, f); /* the interpreter's clamp: (sat) */
    } else {
        struct gen_opnd t = ff_mul(ki, const_comp(ki, S->fog_c, 0), z);
        if (o & ST_ARB_OPT_FOG_EXP2)
            t = ff_mul(ki, t, t);
        /* e^-t = 2^(-t log2 e) */
        t.neg = true;
        t = alu2(ki, GOP_MUL, t, gen_imm(0x3FB8AA3Bu, GT_F), false);
        uint32_t e = gen_new_vreg(p, gen_dsize(p), false);
        struct gen_inst *i = add(p, GOP_MATH, p->simd, 0);
        i->math = GM_EXP;
        i->dst = gen_vr(e, 0, GT_F);
        i->src[0] = t;
        i->sat = true;
        f = gen_vr(e, 0, GT_F);
    }
    /* "fog applied to the program's final clamped color": all four
     * components clamped to [0, 1] first (NaN -> 0, as (sat)), as
     * st_arb_run_finish does */
    for (unsigned c = 0; c < 4; c++) {
        struct gen_opnd col = gb_reg(ki->b, ki->out[color][c]);
        ki->out[color][c] = sat_copy(ki, col);
    }
    struct gen_opctx c = ff_opctx(ki);
    for (unsigned k = 0; k < 3; k++) {
        struct gen_opnd col = ki->out[color][k];
        struct gen_opnd fc = const_comp(ki, S->fog_c + 1, k);
        struct gen_opnd l = gen_op_lrp(&c, f, col, fc);
        if (l.kind != GO_NONE) {
            ki->out[color][k] = l;
            continue;
        }
        fc.neg = true;
        struct gen_opnd d = alu2(ki, GOP_ADD, col, fc, false); /* C - Cfog */
        fc.neg = false;
        /* f * (C - Cfog) + Cfog as st_arb_run_finish's st_op_muladd */
        ki->out[color][k] = gen_op_mad(&c, f, d, fc);
    }
}

/*
 * The output slot of a vs_3_0 position: o# declared dcl_position (index 0)
 * with all four lanes.  VUE slot 1 is the position the fixed function reads,
 * so the shader's declared position goes there itself rather than zeros
 * beside a copy of it in a later slot (Mesa's VUE map does the same).  -1
 * when the shader writes oPos or declares no such register.
 */
static int d3d9_decl_position(const struct gen_kernel_info *ki)
{
    if (ki->out_set[ST_LL_OUT_POS])
        return -1;
    for (const struct st_instr *in = ki->sh->first; in; in = in->next) {
        if (in->op != ST_OP_DCL || !in->has_dst || in->dst.reg.file != ST_REG_OUTPUT ||
            in->usage != ST_USAGE_POSITION || in->usage_index != 0)
            continue;
        int s = st_run_out_slot(ST_REG_OUTPUT, in->dst.reg.index);
        if (s >= 0 && in->dst.writemask == 0xf && !in->dst.reg.rel && ki->out_set[s])
            return s;
    }
    return -1;
}

static void vs_epilogue(struct gen_kernel_info *ki)
{
    struct gen_program *p = ki->p;
    struct st_gen_layout *L = &p->layout;
    struct gen_opnd slots[ST_LL_OUT_SLOTS + 2][4];
    unsigned first = 1, n = 0;
    const struct gen_opnd zero = gen_imm(0, GT_F);
    if (ki->arb)
        arb_position_invariant(ki);
    int pos = ki->arb ? ki->arb_pos : ST_LL_OUT_POS;
    if (!ki->arb) {
        int o = d3d9_decl_position(ki);
        if (o >= 0)
            pos = o;
    }
    int psize = ki->arb ? ki->arb_psize : ST_LL_OUT_PTS;
    if (psize >= 0 && ki->out_set[psize]) {
        first = 0;
        L->vue_header_psize = true;
        for (unsigned c = 0; c < 3; c++)
            slots[n][c] = zero;
        slots[n][3] = ki->out[psize][0];
        L->vue_out_slot[n] = psize;
        n++;
    }
    for (unsigned c = 0; c < 4; c++)
        slots[n][c] = pos >= 0 && ki->out_set[pos] ? ki->out[pos][c] : zero;
    L->vue_out_slot[n++] = pos;
    /* A scalar output (oFog, result.fogcoord: the run JSON has its x alone,
     * and nothing downstream reads the rest) fills only dword 0 of its slot:
     * the other three are left as they are, as a driver does. */
    int fog = ki->arb ? ki->arb_fog : ST_LL_OUT_FOG;
    for (int s = 0; s < ST_LL_OUT_SLOTS; s++) {
        if (s == pos || s == psize || !ki->out_set[s] || (!ki->arb && s >= ST_LL_OUT_C))
            continue;
        for (unsigned c = 0; c < 4; c++)
            slots[n][c] = s == fog && c > 0 ? gen_opnd_none() : ki->out[s][c];
        L->vue_scalar[n] = s == fog;
        L->vue_out_slot[n++] = s;
    }
    L->num_vue_slots = first + n;
    if (first == 1) {
        /* vue_out_slot is indexed by VUE slot: shift past the unwritten header */
        for (unsigned k = n; k-- > 0;) {
            L->vue_out_slot[k + 1] = L->vue_out_slot[k];
            L->vue_scalar[k + 1] = L->vue_scalar[k];
        }
        L->vue_out_slot[0] = -1;
        L->vue_scalar[0] = false;
    }
    /* two slots a message; one on the careful try after a spill, so each
     * slot's values may leave the registers with their own write instead
     * of all waiting for the end-of-thread message */
    unsigned per = p->keep_block_ranges ? 1 : 2;
    for (unsigned k = 0; k < n; k += per) {
        unsigned ns = n - k < per ? n - k : per;
        bool last = k + ns == n;
        struct gen_inst *i;
        if (!last) {
            /* A split send: the header is r1 itself (the URB handles, as
             * delivered), the slots the second payload: no copy of the
             * header.  Only the end of the thread must send from
             * r112..r127, so its message keeps a copy (Mesa's brw does
             * the same). */
            uint32_t b = block(p, 4 * ns * GEN_GRF_SIZE, false);
            for (unsigned j = 0; j < ns; j++)
                for (unsigned c = 0; c < 4; c++)
                    to_payload(ki, b, (4 * j + c) * GEN_GRF_SIZE, slots[k + j][c], false);
            i = add(p, GOP_SENDS, 8, 0);
            i->dst = gen_null(GT_UD);
            i->src[0] = gen_fixed(1 * GEN_GRF_SIZE, GT_UD, GR_VEC);
            i->src[1] = gen_vr(b, 0, GT_UD);
            i->sfid = 6;
            i->mlen = 1;
            i->src1len = (uint8_t)(4 * ns);
            i->exdesc = 6u | ((4u * ns) << 6);
            i->desc = gen_desc(1, 0, true, 7u | ((first + k) << 4));
            continue;
        }
        uint32_t b = block(p, (1 + 4 * ns) * GEN_GRF_SIZE, true);
        i = add(p, GOP_MOV, 8, 0);
        i->nomask = true;
        i->dst = gen_vr(b, 0, GT_UD);
        i->src[0] = gen_fixed(1 * GEN_GRF_SIZE, GT_UD, GR_VEC);
        for (unsigned j = 0; j < ns; j++)
            for (unsigned c = 0; c < 4; c++)
                to_payload(ki, b, (1 + 4 * j + c) * GEN_GRF_SIZE, slots[k + j][c], true);
        i = add(p, GOP_SEND, 8, 0);
        i->dst = gen_null(GT_UD);
        i->src[0] = gen_vr(b, 0, GT_UD);
        i->sfid = 6;
        i->exdesc = 6;
        i->mlen = (uint8_t)(1 + 4 * ns);
        i->eot = true;
        i->desc = gen_desc(1 + 4 * ns, 0, true, 7u | ((first + k) << 4));
    }
}

/* The kill test of half h: f1.0 = "status bit 0 clear" (Mesa's Gen9 scheme). */
static void kill_flag(struct gen_kernel_info *ki, unsigned exec, unsigned h)
{
    struct gen_program *p = ki->p;
    struct gen_opnd st = gb_as_type(ki->b, part_of(p, ki->status, 16, h), GT_UD);
    if (st.kind == GO_IMM)
        st = gb_reg(ki->b, st);
    struct gen_inst *a = add(p, GOP_AND, exec, 16 * h);
    a->cmod = GC_EQ;
    a->flag = 1;
    a->dst = gen_null(GT_UD);
    a->src[0] = st;
    a->src[1] = gen_imm(1, GT_UD);
}

static void ps_epilogue(struct gen_kernel_info *ki)
{
    struct gen_program *p = ki->p;
    struct st_gen_layout *L = &p->layout;
    int rts[ST_GEN_MAX_RT], rt_slot[ST_GEN_MAX_RT];
    unsigned nrt = 0;
    if (ki->arb)
        arb_fog(ki);
    /* render target n at BTI n: D3D9 oC0-oC3, ARB result.color[0..7] */
    unsigned max_rt = ki->arb ? ST_GEN_MAX_RT : 4;
    for (unsigned n = 0; n < max_rt; n++) {
        int slot = ki->arb ? ki->arb_color[n] : ST_LL_OUT_C + (int)n;
        if (slot >= 0 && ki->out_set[slot]) {
            rt_slot[nrt] = slot;
            rts[nrt++] = (int)n;
        }
    }
    if (!nrt) {
        rts[0] = 0;
        rt_slot[nrt++] = ST_LL_OUT_C;
        for (unsigned c = 0; c < 4; c++)
            ki->out[ST_LL_OUT_C][c] = gen_imm(0, GT_F);
    }
    L->num_rt = nrt;
    for (unsigned n = 0; n < ST_GEN_MAX_RT; n++)
        L->rt_out_slot[n] = -1;
    for (unsigned k = 0; k < nrt; k++)
        L->rt_out_slot[rts[k]] = rt_slot[k];
    /* D3D9 oDepth is a scalar (x); ARB result.depth is read from z */
    int depth_slot = ki->arb ? ki->arb_depth : ST_LL_OUT_DEPTH;
    unsigned depth_comp = ki->arb ? 2 : 0;
    bool depth = depth_slot >= 0 && ki->out_set[depth_slot];
    L->writes_depth = depth;
    bool kill = ki->has_status && !(ki->status.kind == GO_IMM && ki->status.imm == 0);
    L->uses_kill = kill;
    unsigned halves = p->simd == 32 ? 2 : 1, exec = p->simd == 32 ? 16 : p->simd;
    unsigned nparts = 4 + (depth ? 1 : 0);
    for (unsigned k = 0; k < nrt; k++) {
        bool last_rt = k + 1 == nrt;
        for (unsigned h = 0; h < halves; h++) {
            bool eot = last_rt && h + 1 == halves;
            uint32_t b = block(p, nparts * 4 * exec, eot);
            /* SIMD32 values span both halves' payloads: those are copied */
            for (unsigned c = 0; c < nparts; c++) {
                struct gen_opnd o = c < 4 ? ki->out[rt_slot[k]][c] : ki->out[depth_slot][depth_comp];
                if (halves == 1)
                    to_payload(ki, b, c * 4 * exec, o, eot);
                else
                    to_block(ki, b, c * 4 * exec, o, GT_F, exec, h);
            }
            if (kill)
                kill_flag(ki, exec, h);
            struct gen_inst *i = add(p, GOP_SENDC, exec, 16 * h);
            i->dst = gen_null(GT_UW);
            i->src[0] = gen_vr(b, 0, GT_F);
            i->sfid = 5;
            i->exdesc = 5;
            i->mlen = (uint8_t)(nparts * exec / 8);
            i->eot = eot;
            if (kill) {
                i->pred = GP_NORMAL;
                i->flag = 1;
            }
            unsigned subtype = exec == 8 ? 4 : 0;
            i->desc = gen_desc(nparts * exec / 8, 0, false,
                               (12u << 14) | ((last_rt ? 1u : 0u) << 12) | (h << 11) |
                                   (subtype << 8) | (unsigned)rts[k]);
        }
    }
}

void gen_kernel_epilogue(struct gen_kernel_info *ki)
{
    if (ki->p->layout.stage == ST_VS)
        vs_epilogue(ki);
    else
        ps_epilogue(ki);
}
