/*
 * gen/kernel.c — the Gen9 kernel ABI: thread payload, pushed constants,
 * attribute interpolation, sampler and untyped-read messages, the URB
 * write of a vertex shader and the render target write of a pixel shader,
 * and the entry point st_gen_compile (SIMD width choice, allocation,
 * printing).  docs/gen-abi.md states the layout a driver (or the Gen
 * simulator) must provide; the numbers come from here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "emit.h"
#include "isel.h"
#include "opt.h"
#include "passes.h"

uint32_t gen_desc(unsigned mlen, unsigned rlen, bool header, uint32_t fc)
{
    return ((uint32_t)mlen << 25) | ((uint32_t)rlen << 20) | (header ? 1u << 19 : 0u) |
           (fc & 0x7ffffu);
}

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

/* The perspective barycentrics of pixels 0-15 (half 0) or 16-31 (gen_kernel_layout). */
static unsigned bary_grf(const struct gen_program *p, unsigned half)
{
    return p->layout.bary_grf[half];
}

/* Input registers relative addressing may reach (the lowering clamps to these). */
static int input_limit(enum st_shader_type stage, uint16_t ver)
{
    return stage == ST_PS ? (ver >= ST_VER(3, 0) ? 10 : 2) : 16;
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
static bool arb_prepare(struct gen_kernel_info *ki, struct st_gen_layout *L, bool in_read[])
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
     * depth and W), not from attribute setup; the load scan below says
     * which components the kernel reads */
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
    return true;
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

bool gen_kernel_layout(struct gen_kernel_info *ki, LLVMModuleRef m, struct gen_program *p)
{
    struct st_gen_layout *L = &p->layout;
    memset(L, 0, sizeof(*L));
    L->stage = ki->sh->version.type;
    L->simd = p->simd;
    L->c_lo = L->i_lo = L->bump_lo = 0;
    L->c_hi = L->i_hi = L->bump_hi = -1;
    L->frag_pos_slot = -1;
    bool in_read[ST_LL_IN_SLOTS] = {false};
    bool pos_comp[4] = {false}; /* components of fragment.position read */
    /* c[] vectors read at a constant index (an ARB program may have
     * thousands of parameter slots: only what is read is pushed) */
    unsigned nc = ST_LL_NUM_CONSTS;
    if (ki->sh->dialect == ST_ARB && ki->sh->arb) {
        struct st_arb_run_slots rs;
        st_arb_run_slots(ki->sh, &rs);
        if (rs.num_c > nc)
            nc = rs.num_c;
    }
    bool *c_read = calloc(nc, sizeof(bool));
    if (!c_read) {
        st_error(ki->ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    const struct st_shader *sh = ki->sh;
    ki->arb = sh->dialect == ST_ARB && sh->arb;
    ki->arb_pos = ki->arb_psize = ki->arb_depth = ki->arb_frag_pos = -1;
    for (unsigned k = 0; k < ST_GEN_MAX_RT; k++)
        ki->arb_color[k] = -1;
    if ((ki->arb && !arb_prepare(ki, L, in_read)) || !LLVMGetNamedFunction(m, "st_main")) {
        free(c_read);
        return false;
    }
    LLVMValueRef fn = LLVMGetNamedFunction(m, "st_main");
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef v = LLVMGetFirstInstruction(b); v; v = LLVMGetNextInstruction(v)) {
            if (LLVMGetInstructionOpcode(v) != LLVMLoad)
                continue;
            /* load (select c, p, q) reads both: every pointer of the select
             * tree gen_isel's load_from follows (four levels: 31 nodes), so
             * that nothing it reads is missing from the payload */
            LLVMValueRef ptrs[31];
            unsigned np = 0;
            ptrs[np++] = LLVMGetOperand(v, 0);
            for (unsigned q = 0; q < np; q++) {
                LLVMValueRef ptr = ptrs[q];
                if (LLVMIsASelectInst(ptr)) {
                    if (np + 2 <= sizeof(ptrs) / sizeof(ptrs[0])) {
                        ptrs[np++] = LLVMGetOperand(ptr, 1);
                        ptrs[np++] = LLVMGetOperand(ptr, 2);
                    }
                    continue;
                }
                int arg;
                int64_t off;
                LLVMValueRef dyn, al;
                unsigned scale;
                if (!gen_isel_addr(ptr, &arg, &off, &dyn, &scale, &al) || al || off < 0)
                    continue;
                if (dyn) {
                    /* v[aL], v[a0.x]: every input register the index may reach */
                    if (arg == 0)
                        for (int k = 0; k < input_limit(L->stage, ki->sh->version.ver); k++)
                            in_read[ST_LL_IN_V + k] = true;
                    continue;
                }
                switch (arg) {
                case 0:
                    if (ki->arb_frag_pos >= 0 && off / 16 == ki->arb_frag_pos) {
                        /* only the lanes somebody reads (passes/ lane demand): the
                         * payload carries source depth / W only when z / w are */
                        LLVMTypeRef ty = LLVMTypeOf(v);
                        bool vec = LLVMGetTypeKind(ty) == LLVMVectorTypeKind;
                        unsigned n = vec ? LLVMGetVectorSize(ty) : 1, dem = vec ? st_llvm_lanes(v) : 1;
                        for (unsigned c = (unsigned)(off % 16) / 4, k = 0; k < n && c + k < 4; k++)
                            if (dem >> k & 1)
                                pos_comp[c + k] = true;
                        break;
                    }
                    /* vPos and vFace come from the thread payload, not the attribute setup */
                    if (off / 16 < ST_LL_IN_SLOTS &&
                        !(L->stage == ST_PS && !ki->arb &&
                          (off / 16 == ST_LL_IN_VPOS || off / 16 == ST_LL_IN_VFACE)))
                        in_read[off / 16] = true;
                    break;
                case 2:
                    widen(&L->c_lo, &L->c_hi, (int)(off / 16));
                    if (off / 16 < nc)
                        c_read[off / 16] = true;
                    break;
                case 3: widen(&L->i_lo, &L->i_hi, (int)(off / 16)); break;
                case 4: L->has_b = true; break;
                case 6: widen(&L->bump_lo, &L->bump_hi, (int)(off / 32)); break;
                default: break;
                }
            }
        }
    const struct st_arb_run_slots *S = &ki->arb_slots;
    for (int k = 0; ki->arb && k < 4; k++) {
        if (S->mvp_c >= 0 && (unsigned)(S->mvp_c + k) < nc)
            c_read[S->mvp_c + k] = true;
        if (S->fog_c >= 0 && k < 2 && (unsigned)(S->fog_c + k) < nc)
            c_read[S->fog_c + k] = true;
    }
    /* constants two to a GRF: start each block on an even register number */
    if (L->c_hi >= L->c_lo)
        L->c_lo &= ~1;
    if (L->i_hi >= L->i_lo)
        L->i_lo &= ~1;
    if (pos_comp[0] || pos_comp[1] || pos_comp[2] || pos_comp[3]) {
        L->frag_pos_slot = ki->arb_frag_pos;
        L->pos_xy = pos_comp[0] || pos_comp[1];
        for (unsigned c = 0; c < 4; c++)
            L->pos_mask |= pos_comp[c] ? 1u << c : 0u;
    }
    if (L->stage == ST_PS) {
        /* r0, r1 (SIMD32: r1-r2) pixel data, then per half of 16 pixels:
         * barycentrics (2 GRFs per 8 pixels), source depth, source W (1 GRF
         * per 8 pixels each, when enabled) -- gen9-target.md section 4(a) */
        unsigned per8 = p->simd == 8 ? 1 : 2; /* GRFs per 8-pixel value, per half */
        unsigned halves = p->simd == 32 ? 2 : 1, g = p->simd == 32 ? 3 : 2;
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
    } else {
        L->payload_grfs = 2;
    }
    unsigned g = L->payload_grfs;
    for (unsigned s = 0; s < ST_LL_IN_SLOTS; s++)
        if (in_read[s])
            L->in_slot[L->num_inputs++] = (int)s;
    if (L->c_hi >= L->c_lo) {
        /* What does not fit the push budget is pulled from the constant
         * buffer (gen_kernel_load, const_comp): the window of the budget's
         * size holding the most vectors read stays pushed. */
        unsigned other = g + (L->i_hi >= L->i_lo ? (unsigned)(L->i_hi - L->i_lo) / 2 + 1 : 0) +
                         (L->has_b ? 2 : 0) +
                         (L->bump_hi >= L->bump_lo ? (unsigned)(L->bump_hi - L->bump_lo) + 1 : 0) +
                         (pos_comp[1] && !L->upper_left ? 1 : 0) +
                         L->num_inputs * (L->stage == ST_VS ? 4 : 2);
        unsigned full = (unsigned)(L->c_hi - L->c_lo) / 2 + 1;
        if (other + full > GEN_PUSH_LIMIT && other < GEN_PUSH_LIMIT)
            push_window(L, c_read, nc, 2 * (GEN_PUSH_LIMIT - other));
    }
    free(c_read);
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
    if (pos_comp[1] && !L->upper_left) {
        /* lower-left origin: y = window height - the pixel's row */
        L->window_grf = g;
        g += 1;
    }
    L->curbe_grfs = g - L->curbe_grf;
    L->input_grf = g;
    g += L->num_inputs * (L->stage == ST_VS ? 4 : 2);
    if (g > GEN_PUSH_LIMIT) {
        st_error(ki->ctx, ki->sh->version.loc, ST_E_NOT_SUPPORTED,
                 "the Gen9 back end cannot push this many constants and inputs (%u registers)", g);
        return false;
    }
    for (unsigned s = 0; s < 16; s++)
        ki->sampler_type[s] = ST_SAMPLER_NONE;
    for (const struct st_instr *i = ki->sh->first; i; i = i->next)
        if (i->op == ST_OP_DCL && i->has_dst && i->dst.reg.file == ST_REG_SAMPLER &&
            i->dst.reg.index < 16)
            ki->sampler_type[i->dst.reg.index] = i->sampler_type;
    return true;
}

void gen_kernel_prologue(struct gen_kernel_info *ki, struct gen_program *p)
{
    (void)ki;
    (void)p;
}

/* ------------------------------------------------------------------ */
/* Loads.                                                              */

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

/* The half h (0/1) of a SIMD32 operand: per-channel operands move 64 bytes. */
static struct gen_opnd half_of(struct gen_kernel_info *ki, struct gen_opnd o, unsigned h)
{
    if (h && !gen_isel_uniform(ki, &o) && (o.kind == GO_VREG || o.kind == GO_FIXED))
        o.off += 64;
    return o;
}

/* Moves value o into block b at byte offset boff, for every channel. */
static void to_block(struct gen_kernel_info *ki, struct gen_program *p, uint32_t b, uint32_t boff,
                     struct gen_opnd o, enum gen_type t, unsigned exec, unsigned h)
{
    struct gen_inst *i = add(p, GOP_MOV, exec, 16 * h);
    i->dst = gen_vr(b, boff, t);
    i->src[0] = gen_isel_as_type(ki, half_of(ki, o, h), t);
}

static uint32_t block(struct gen_program *p, uint32_t bytes, bool eot);
static uint32_t block(struct gen_program *p, uint32_t bytes, bool eot)
{
    uint32_t b = gen_new_vreg(p, bytes, false);
    p->vreg[b].no_spill = true;
    if (eot)
        p->vreg[b].grf_lo = GEN_EOT_FIRST_GRF;
    return b;
}

/* A message whose per-channel response is `nch` dwords: SIMD32 sends two
 * SIMD16 messages and gathers the halves into one vreg per channel. */
static void gather_halves(struct gen_program *p, const uint32_t resp[2], unsigned nch,
                          struct gen_opnd out[4])
{
    for (unsigned c = 0; c < nch; c++) {
        uint32_t v = gen_new_vreg(p, gen_dsize(p), false);
        for (unsigned h = 0; h < 2; h++) {
            struct gen_inst *i = add(p, GOP_MOV, 16, 16 * h);
            i->dst = gen_vr(v, 64 * h, GT_UD);
            i->src[0] = gen_vr(resp[h], 64 * c, GT_UD);
            i->src[0].region = GR_VEC;
        }
        out[c] = gen_vr(v, 0, GT_F);
    }
}

/* c[index] at a run-time index: untyped surface read from the constant buffer. */
static bool pull_constant(struct gen_kernel_info *ki, struct gen_program *p, int64_t off,
                          LLVMValueRef dyn, unsigned scale, unsigned nch, struct gen_opnd out[4])
{
    uint32_t ds = gen_dsize(p);
    uint32_t a = gen_new_vreg(p, ds, false);
    /* dyn NULL: c[off / 16] itself, a vector that is not pushed */
    struct gen_opnd idx = dyn ? gen_isel_as_type(ki, gen_isel_lane(ki, dyn, 0), GT_D) : gen_imm(0, GT_D);
    unsigned sh = 0;
    while ((1u << sh) < scale)
        sh++;
    if ((1u << sh) != scale) {
        gen_isel_fail(ki, "this relative address scale");
        return false;
    }
    struct gen_inst *i = add(p, sh ? GOP_SHL : GOP_MOV, p->simd, 0);
    i->dst = gen_vr(a, 0, GT_D);
    i->src[0] = idx;
    if (idx.kind == GO_IMM) {
        /* a constant index (a vector past the pushed ones): one mov */
        i->op = GOP_MOV;
        i->src[0] = gen_imm((idx.imm << sh) + (uint32_t)off, GT_D);
        off = 0;
    } else if (sh) {
        i->src[1] = gen_imm(sh, GT_D);
    }
    if (off) {
        i = add(p, GOP_ADD, p->simd, 0);
        i->dst = gen_vr(a, 0, GT_D);
        i->src[0] = gen_vr(a, 0, GT_D);
        i->src[1] = gen_imm((uint32_t)off, GT_D);
    }
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
                           (1u << 14) | ((exec == 8 ? 2u : 1u) << 12) | (mask << 8) |
                               GEN_BTI_CONSTANTS);
    }
    if (halves == 2) {
        gather_halves(p, resp, nch, out);
    } else {
        for (unsigned c = 0; c < nch; c++)
            out[c] = gen_vr(resp[0], c * ds, GT_F);
    }
    return true;
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

static void pixel_position(struct gen_program *p, struct gen_opnd out[4])
{
    out[0] = pixel_coord(p, 0);
    out[1] = pixel_coord(p, 1);
    out[2] = gen_imm(0, GT_F);
    out[3] = gen_imm(0x3f800000u, GT_F);
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
static void facing(struct gen_program *p, struct gen_opnd out[4])
{
    uint32_t one = gen_new_vreg(p, 4, true), f = gen_new_vreg(p, 4, true);
    struct gen_inst *i = add(p, GOP_MOV, 1, 0);
    i->dst = gen_vr(one, 0, GT_F);
    i->src[0] = gen_imm(0x3f800000u, GT_F);
    i = add(p, GOP_AND, 1, 0);
    i->cmod = GC_EQ;
    i->dst = gen_null(GT_UD);
    i->src[0] = gen_fixed(0, GT_UD, GR_SCALAR);
    i->src[1] = gen_imm(0x8000u, GT_UD);
    i = add(p, GOP_SEL, 1, 0);
    i->pred = GP_NORMAL;
    i->dst = gen_vr(f, 0, GT_F);
    i->src[0] = gen_vr(one, 0, GT_F);
    i->src[1] = gen_imm(0xbf800000u, GT_F);
    out[0] = gen_vr(f, 0, GT_F);
    out[1] = out[2] = gen_imm(0, GT_F);
    out[3] = gen_imm(0x3f800000u, GT_F);
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
        i->src[1] = gen_fixed(bary_grf(p, h) * GEN_GRF_SIZE, GT_F, GR_VEC);
        i->pred = pred ? GP_NORMAL : GP_NONE;
    }
}

/*
 * v[index]: the inputs are registers, so a run-time index is a chain of
 * compares and predicated reads over every register it may reach (the
 * lowering has clamped it to that range).
 */
static bool indexed_input(struct gen_kernel_info *ki, struct gen_program *p, int64_t off,
                          LLVMValueRef dyn, unsigned scale, unsigned n, struct gen_opnd out[4])
{
    const struct st_gen_layout *L = &p->layout;
    if (off % 4 || scale == 0) {
        gen_isel_fail(ki, "this input index");
        return false;
    }
    struct gen_opnd idx = gen_isel_as_type(ki, gen_isel_lane(ki, dyn, 0), GT_D);
    if (idx.kind == GO_IMM) {
        /* folded to a constant after all */
        uint32_t t = gen_new_vreg(p, 4, true);
        struct gen_inst *m = add(p, GOP_MOV, 1, 0);
        m->dst = gen_vr(t, 0, GT_D);
        m->src[0] = idx;
        idx = gen_vr(t, 0, GT_D);
    }
    uint32_t res[4];
    for (unsigned k = 0; k < n; k++)
        res[k] = gen_new_vreg(p, gen_dsize(p), false);
    bool first = true;
    for (unsigned a = 0; a < L->num_inputs; a++) {
        int slot = L->in_slot[a];
        if (slot < ST_LL_IN_V || slot >= ST_LL_IN_V + input_limit(L->stage, ki->sh->version.ver))
            continue;
        /* byte offset of this register's component 0 relative to the load's constant part */
        int64_t rel = (int64_t)slot * 16 - (off / 16) * 16;
        if (rel % (int64_t)scale)
            continue;
        if (!first) {
            struct gen_inst *c = add(p, GOP_CMP, p->simd, 0);
            c->cmod = GC_EQ;
            c->dst = gen_null(GT_D);
            c->src[0] = idx;
            c->src[1] = gen_imm((uint32_t)(int32_t)(rel / (int64_t)scale), GT_D);
        }
        for (unsigned k = 0; k < n; k++) {
            unsigned comp = (unsigned)(off % 16) / 4 + k;
            input_comp(p, a, comp & 3, res[k], !first);
        }
        first = false;
    }
    for (unsigned k = 0; k < n; k++)
        out[k] = gen_vr(res[k], 0, GT_F);
    return true;
}

bool gen_kernel_load(struct gen_kernel_info *ki, struct gen_program *p, int arg, int64_t off,
                     LLVMValueRef dyn, unsigned scale, LLVMTypeRef ty, struct gen_opnd out[4])
{
    const struct st_gen_layout *L = &p->layout;
    unsigned n = LLVMGetTypeKind(ty) == LLVMVectorTypeKind ? LLVMGetVectorSize(ty) : 1;
    if (n > 4 || off < 0) {
        gen_isel_fail(ki, "this load");
        return false;
    }
    int slot = (int)(off / 16);
    unsigned comp0 = (unsigned)(off % 16) / 4;
    switch (arg) {
    case 0: { /* shader inputs */
        if (dyn)
            return indexed_input(ki, p, off, dyn, scale, n, out);
        if (L->frag_pos_slot >= 0 && slot == L->frag_pos_slot) {
            for (unsigned k = 0; k < n; k++)
                out[k] = comp0 + k < 4 ? frag_position(p, comp0 + k) : gen_imm(0, GT_F);
            return true;
        }
        if (L->stage == ST_PS && !ki->arb && (slot == ST_LL_IN_VPOS || slot == ST_LL_IN_VFACE)) {
            struct gen_opnd v4[4];
            if (slot == ST_LL_IN_VPOS)
                pixel_position(p, v4);
            else
                facing(p, v4);
            for (unsigned k = 0; k < n; k++)
                out[k] = comp0 + k < 4 ? v4[comp0 + k] : gen_imm(0, GT_F);
            return true;
        }
        int a = attr_index(L, slot);
        if (a < 0 || comp0 + n > 4) {
            gen_isel_fail(ki, "this input");
            return false;
        }
        for (unsigned k = 0; k < n; k++) {
            unsigned c = comp0 + k;
            if (L->stage == ST_VS) {
                out[k] = gen_fixed((L->input_grf + 4 * (unsigned)a + c) * GEN_GRF_SIZE, GT_F, GR_VEC);
                continue;
            }
            /* PS: interpolate; the setup group (a, b, -, c0) is pln's src0 */
            uint32_t setup = (L->input_grf + 2 * (unsigned)a + c / 2) * GEN_GRF_SIZE + (c & 1) * 16;
            uint32_t v = gen_new_vreg(p, gen_dsize(p), false);
            unsigned halves = p->simd == 32 ? 2 : 1, exec = p->simd == 32 ? 16 : p->simd;
            for (unsigned h = 0; h < halves; h++) {
                struct gen_inst *i = add(p, GOP_PLN, exec, 16 * h);
                i->dst = gen_vr(v, 64 * h, GT_F);
                i->src[0] = gen_fixed(setup, GT_F, GR_SCALAR);
                i->src[1] = gen_fixed(bary_grf(p, h) * GEN_GRF_SIZE, GT_F, GR_VEC);
            }
            out[k] = gen_vr(v, 0, GT_F);
        }
        return true;
    }
    case 2: /* c# */
        if (dyn || slot < L->c_lo || slot > L->c_hi)
            return pull_constant(ki, p, off, dyn, dyn ? scale : 1, n, out);
        for (unsigned k = 0; k < n; k++)
            out[k] = gen_fixed(L->c_grf * GEN_GRF_SIZE + (unsigned)(slot - L->c_lo) * 16 +
                                   (comp0 + k) * 4,
                               GT_F, GR_SCALAR);
        return true;
    case 3: /* i# */
        /* the layout pushed what its scan saw; anything else is refused, never
         * read from a register that holds something else */
        if (dyn || slot < L->i_lo || slot > L->i_hi || comp0 + n > 4)
            break;
        for (unsigned k = 0; k < n; k++)
            out[k] = gen_fixed(L->i_grf * GEN_GRF_SIZE + (unsigned)(slot - L->i_lo) * 16 +
                                   (comp0 + k) * 4,
                               GT_D, GR_SCALAR);
        return true;
    case 4: /* b# */
        if (dyn || !L->has_b || off + 4 * (int64_t)n > 64)
            break;
        for (unsigned k = 0; k < n; k++)
            out[k] = gen_fixed(L->b_grf * GEN_GRF_SIZE + (uint32_t)off + 4 * k, GT_D, GR_SCALAR);
        return true;
    case 6: { /* bump environment */
        int stage = (int)(off / 32);
        if (dyn || stage < L->bump_lo || stage > L->bump_hi || off % 32 + 4 * (int64_t)n > 32)
            break;
        for (unsigned k = 0; k < n; k++)
            out[k] = gen_fixed(L->bump_grf * GEN_GRF_SIZE + (unsigned)(stage - L->bump_lo) * 32 +
                                   (uint32_t)(off % 32) + 4 * k,
                               GT_F, GR_SCALAR);
        return true;
    }
    case 8:
        gen_isel_fail(ki, "dsx/dsy (derivatives across the pixel quad)");
        return false;
    default:
        break;
    }
    gen_isel_fail(ki, "this load");
    return false;
}

bool gen_kernel_store(struct gen_kernel_info *ki, int arg, int64_t off, const struct gen_opnd *c,
                      unsigned n)
{
    if (arg == 1 && off >= 0 && off % 16 == 0 && off / 16 < ST_LL_OUT_SLOTS && n <= 4) {
        int slot = (int)(off / 16);
        for (unsigned k = 0; k < 4; k++)
            ki->out[slot][k] = k < n ? c[k] : gen_imm(0, GT_F);
        ki->out_set[slot] = true;
        return true;
    }
    if (arg == 5 && off == 0 && n == 1) {
        ki->status = c[0];
        ki->has_status = true;
        return true;
    }
    gen_isel_fail(ki, arg == 8 ? "dsx/dsy (derivatives across the pixel quad)" : "this store");
    return false;
}

/* ------------------------------------------------------------------ */
/* Sampling.                                                           */

void gen_kernel_sample(struct gen_kernel_info *ki, struct gen_program *p, LLVMValueRef call)
{
    LLVMValueRef st = LLVMGetOperand(call, 1);
    uint64_t code = LLVMIsAConstantInt(st) ? LLVMConstIntGetZExtValue(st) : ~0ull;
    /* ARB: the stage carries the unit (bits 7:0) and target + 1 (bits 15:8) */
    unsigned stage = (unsigned)(code & 0xff), target = (unsigned)(code >> 8);
    if (code == ~0ull || stage >= 16 || (target && !ki->arb) || target > ST_ARB_TEX_SHADOWRECT + 1) {
        gen_isel_fail(ki, "a texture stage chosen at run time");
        return;
    }
    LLVMValueRef w = LLVMGetOperand(call, 4);
    unsigned nparams;
    bool shadow = false;
    if (target) {
        switch ((enum st_arb_tex_target)(target - 1)) {
        case ST_ARB_TEX_3D: case ST_ARB_TEX_CUBE: nparams = 3; break;
        case ST_ARB_TEX_SHADOW1D: case ST_ARB_TEX_SHADOW2D: case ST_ARB_TEX_SHADOWRECT:
            shadow = true;
            nparams = 3; /* reference (r), u, v */
            break;
        default: nparams = 2; break;
        }
    } else {
        switch (ki->sampler_type[stage]) {
        case ST_SAMPLER_2D: nparams = 2; break;
        case ST_SAMPLER_CUBE: case ST_SAMPLER_VOLUME: nparams = 3; break;
        default:
            nparams = LLVMIsAConstantFP(w) || LLVMIsNull(w) ? 2 : 3;
            break;
        }
    }
    struct gen_opnd prm[3];
    if (shadow) {
        prm[0] = gen_isel_lane(ki, LLVMGetOperand(call, 4), 0);
        prm[1] = gen_isel_lane(ki, LLVMGetOperand(call, 2), 0);
        prm[2] = gen_isel_lane(ki, LLVMGetOperand(call, 3), 0);
    } else {
        for (unsigned k = 0; k < nparams; k++)
            prm[k] = gen_isel_lane(ki, LLVMGetOperand(call, 2 + k), 0);
    }
    /* VS: no derivatives, so LOD 0 (sample_lz / sample_c_lz); PS: sample / sample_c */
    unsigned type = p->layout.stage == ST_VS ? (shadow ? 25 : 24) : (shadow ? 3 : 0);
    unsigned halves = p->simd == 32 ? 2 : 1, exec = p->simd == 32 ? 16 : p->simd;
    uint32_t resp[2];
    for (unsigned h = 0; h < halves; h++) {
        uint32_t pl = block(p, nparams * 4 * exec, false);
        for (unsigned k = 0; k < nparams; k++)
            to_block(ki, p, pl, k * 4 * exec, prm[k], GT_F, exec, h);
        resp[h] = block(p, 16 * exec, false);
        struct gen_inst *i = add(p, GOP_SEND, exec, 16 * h);
        i->dst = gen_vr(resp[h], 0, GT_F);
        i->src[0] = gen_vr(pl, 0, GT_F);
        i->sfid = 2;
        i->exdesc = 2;
        i->mlen = (uint8_t)(nparams * exec / 8);
        i->rlen = (uint8_t)(4 * exec / 8);
        i->desc = gen_desc(nparams * exec / 8, 4 * exec / 8, false,
                           (GEN_BTI_TEXTURE0 + stage) | (stage << 8) | (type << 12) |
                               ((exec == 8 ? 1u : 2u) << 17));
    }
    struct gen_opnd out[4];
    if (halves == 2) {
        gather_halves(p, resp, 4, out);
    } else {
        for (unsigned c = 0; c < 4; c++)
            out[c] = gen_vr(resp[0], c * gen_dsize(p), GT_F);
    }
    gen_isel_set_texel(ki, LLVMGetOperand(call, 5), out);
}

/* ------------------------------------------------------------------ */
/* End of thread.                                                      */

/*
 * Component comp of c[idx] for the options' fixed-function steps at the
 * end of the kernel: pushed, or pulled once per vector (straight-line code
 * after all control flow, so the pulled value may be shared).
 */
static struct gen_opnd const_comp(struct gen_kernel_info *ki, struct gen_program *p, int idx,
                                  unsigned comp)
{
    const struct st_gen_layout *L = &p->layout;
    if (idx >= L->c_lo && idx <= L->c_hi)
        return gen_fixed(L->c_grf * GEN_GRF_SIZE + (unsigned)(idx - L->c_lo) * 16 + comp * 4, GT_F,
                         GR_SCALAR);
    for (unsigned k = 0; k < ki->npulled; k++)
        if (ki->pulled[k].idx == idx)
            return ki->pulled[k].v[comp];
    if (ki->npulled == sizeof(ki->pulled) / sizeof(ki->pulled[0])) {
        /* the options read at most 6 vectors (mvp rows, fog params, fog colour) */
        gen_isel_fail(ki, "more than 8 pulled constants in the fixed-function steps");
        return gen_imm(0, GT_F);
    }
    if (!pull_constant(ki, p, (int64_t)idx * 16, NULL, 1, 4, ki->pulled[ki->npulled].v))
        return gen_imm(0, GT_F);
    ki->pulled[ki->npulled].idx = idx;
    return ki->pulled[ki->npulled++].v[comp];
}

static struct gen_opnd alu2(struct gen_program *p, enum gen_op op, struct gen_opnd a,
                            struct gen_opnd b, bool sat)
{
    uint32_t v = gen_new_vreg(p, gen_dsize(p), false);
    struct gen_inst *i = add(p, op, p->simd, 0);
    i->dst = gen_vr(v, 0, GT_F);
    i->src[0] = a;
    i->src[1] = b;
    i->sat = sat;
    return gen_vr(v, 0, GT_F);
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

/* ARB_position_invariant: row r of state.matrix.mvp . vertex.position, left to right. */
static void arb_position_invariant(struct gen_kernel_info *ki, struct gen_program *p)
{
    const struct st_arb_run_slots *S = &ki->arb_slots;
    if (S->pos_out < 0 || S->pos_out >= ST_LL_OUT_SLOTS || S->mvp_c < 0 || S->pos_in < 0)
        return;
    for (unsigned r = 0; r < 4; r++) {
        struct gen_opnd d = alu2(p, GOP_MUL, input_value(p, S->pos_in, 0), const_comp(ki, p, S->mvp_c + (int)r, 0), false);
        for (unsigned k = 1; k < 4; k++) {
            struct gen_opnd t = alu2(p, GOP_MUL, input_value(p, S->pos_in, k),
                                     const_comp(ki, p, S->mvp_c + (int)r, k), false);
            d = alu2(p, GOP_ADD, d, t, false);
        }
        ki->out[S->pos_out][r] = d;
    }
    ki->out_set[S->pos_out] = true;
}

/*
 * ARB_fog_*: result.color.rgb = f * (C - Cfog) + Cfog with f clamped to
 * [0, 1]: linear (end - z) / (end - start), exp e^(-density z), exp2
 * e^(-(density z)^2); z = fragment.fogcoord.x, state.fog.params and
 * state.fog.color pushed (OpenGL 1.5 section 3.10, as the interpreter).
 */
static void arb_fog(struct gen_kernel_info *ki, struct gen_program *p)
{
    const struct st_arb_run_slots *S = &ki->arb_slots;
    int color = ki->arb_color[0];
    if (S->fog_c < 0 || S->fog_in < 0 || color < 0 || !ki->out_set[color])
        return;
    uint32_t o = ki->sh->arb->options;
    struct gen_opnd z = input_value(p, S->fog_in, 0), f;
    if (o & ST_ARB_OPT_FOG_LINEAR) {
        struct gen_opnd nz = z;
        nz.neg = true;
        f = alu2(p, GOP_ADD, nz, const_comp(ki, p, S->fog_c, 2), false);      /* end - z */
        f = alu2(p, GOP_MUL, f, const_comp(ki, p, S->fog_c, 3), true);        /* * 1/(end - start) */
    } else {
        struct gen_opnd t = alu2(p, GOP_MUL, z, const_comp(ki, p, S->fog_c, 0), false);
        if (o & ST_ARB_OPT_FOG_EXP2)
            t = alu2(p, GOP_MUL, t, t, false);
        /* e^-t = 2^(-t log2 e) */
        t.neg = true;
        t = alu2(p, GOP_MUL, t, gen_imm(0x3FB8AA3Bu, GT_F), false);
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
        uint32_t v = gen_new_vreg(p, gen_dsize(p), false);
        struct gen_opnd col = ki->out[color][c];
        if (col.kind == GO_IMM) {
            uint32_t w = gen_new_vreg(p, gen_dsize(p), false);
            struct gen_inst *m = add(p, GOP_MOV, p->simd, 0);
            m->dst = gen_vr(w, 0, GT_F);
            m->src[0] = col;
            col = gen_vr(w, 0, GT_F);
        }
        /* + 0 turns -0 into +0 before the clamp (the interpreter's saturate) */
        struct gen_inst *m = add(p, GOP_ADD, p->simd, 0);
        m->dst = gen_vr(v, 0, GT_F);
        m->src[0] = col;
        m->src[1] = gen_imm(0, GT_F);
        m->sat = true;
        ki->out[color][c] = gen_vr(v, 0, GT_F);
    }
    for (unsigned c = 0; c < 3; c++) {
        struct gen_opnd col = ki->out[color][c];
        struct gen_opnd fc = const_comp(ki, p, S->fog_c + 1, c);
        fc.neg = true;
        struct gen_opnd d = alu2(p, GOP_ADD, col, fc, false); /* C - Cfog */
        d = alu2(p, GOP_MUL, f, d, false);
        fc.neg = false;
        ki->out[color][c] = alu2(p, GOP_ADD, d, fc, false);
    }
}

static void vs_epilogue(struct gen_kernel_info *ki, struct gen_program *p)
{
    struct st_gen_layout *L = &p->layout;
    struct gen_opnd slots[ST_LL_OUT_SLOTS + 2][4];
    unsigned first = 1, n = 0;
    const struct gen_opnd zero = gen_imm(0, GT_F);
    if (ki->arb)
        arb_position_invariant(ki, p);
    int pos = ki->arb ? ki->arb_pos : ST_LL_OUT_POS;
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
    for (int s = 0; s < ST_LL_OUT_SLOTS; s++) {
        if (s == pos || s == psize || !ki->out_set[s] || (!ki->arb && s >= ST_LL_OUT_C))
            continue;
        for (unsigned c = 0; c < 4; c++)
            slots[n][c] = ki->out[s][c];
        L->vue_out_slot[n++] = s;
    }
    L->num_vue_slots = first + n;
    if (first == 1) {
        /* vue_out_slot is indexed by VUE slot: shift past the unwritten header */
        for (unsigned k = n; k-- > 0;)
            L->vue_out_slot[k + 1] = L->vue_out_slot[k];
        L->vue_out_slot[0] = -1;
    }
    /*
     * Messages: a slot passing a vertex attribute through (its components
     * are the attribute's four payload registers, in order) is written on
     * its own by a split send reading the handles (r1) and those registers
     * in place.  The other slots go two consecutive ones to a message, their
     * values copied into its payload (gen/opt_payload.c computes them there
     * when it can): split sends with the handles read in place, and the last
     * one, the end-of-thread write, all in r112-r127 with a copy of r1.
     * Messages are independent, so the pass-through ones go first; with
     * nothing else to write, the last slot is the end-of-thread one.
     */
    bool through[ST_LL_OUT_SLOTS + 2];
    unsigned computed = 0;
    for (unsigned k = 0; k < n; k++) {
        through[k] = true;
        for (unsigned c = 0; c < 4; c++) {
            const struct gen_opnd *o = &slots[k][c];
            if (o->kind != GO_FIXED || o->region != GR_VEC || o->neg || o->abs ||
                o->off % GEN_GRF_SIZE || o->off != slots[k][0].off + c * GEN_GRF_SIZE)
                through[k] = false;
        }
        computed += !through[k];
    }
    if (!computed)
        through[n - 1] = false;
    for (unsigned k = 0; k < n; k++) {
        if (!through[k])
            continue;
        struct gen_inst *i = add(p, GOP_SENDS, 8, 0);
        i->dst = gen_null(GT_UD);
        i->src[0] = gen_fixed(1 * GEN_GRF_SIZE, GT_UD, GR_VEC);
        i->src[1] = gen_fixed(slots[k][0].off, GT_UD, GR_VEC);
        i->sfid = 6;
        i->mlen = 1;
        i->src1len = 4;
        i->exdesc = 6u | (4u << 6);
        i->desc = gen_desc(1, 0, true, 7u | ((first + k) << 4));
    }
    unsigned last_k = n;
    for (unsigned k = n; k-- > 0;)
        if (!through[k]) {
            last_k = k;
            break;
        }
    for (unsigned k = 0; k < n;) {
        if (through[k]) {
            k++;
            continue;
        }
        unsigned ns = k + 1 < n && !through[k + 1] && k + 1 <= last_k ? 2 : 1;
        bool last = k + ns - 1 == last_k;
        unsigned hdr = last ? 1 : 0;
        uint32_t b = block(p, (hdr + 4 * ns) * GEN_GRF_SIZE, last);
        struct gen_inst *i;
        if (last) {
            i = add(p, GOP_MOV, 8, 0);
            i->nomask = true;
            i->dst = gen_vr(b, 0, GT_UD);
            i->src[0] = gen_fixed(1 * GEN_GRF_SIZE, GT_UD, GR_VEC);
        }
        for (unsigned j = 0; j < ns; j++)
            for (unsigned c = 0; c < 4; c++)
                to_block(ki, p, b, (hdr + 4 * j + c) * GEN_GRF_SIZE, slots[k + j][c], GT_F, p->simd, 0);
        i = add(p, last ? GOP_SEND : GOP_SENDS, 8, 0);
        i->dst = gen_null(GT_UD);
        i->sfid = 6;
        i->eot = last;
        if (last) {
            i->src[0] = gen_vr(b, 0, GT_UD);
            i->exdesc = 6;
            i->mlen = (uint8_t)(1 + 4 * ns);
        } else {
            i->src[0] = gen_fixed(1 * GEN_GRF_SIZE, GT_UD, GR_VEC);
            i->src[1] = gen_vr(b, 0, GT_UD);
            i->mlen = 1;
            i->src1len = (uint8_t)(4 * ns);
            i->exdesc = 6u | (4u * ns << 6);
        }
        i->desc = gen_desc(i->mlen, 0, true, 7u | ((first + k) << 4));
        k += ns;
    }
}

static void ps_epilogue(struct gen_kernel_info *ki, struct gen_program *p)
{
    struct st_gen_layout *L = &p->layout;
    int rts[ST_GEN_MAX_RT], rt_slot[ST_GEN_MAX_RT];
    unsigned nrt = 0;
    if (ki->arb)
        arb_fog(ki, p);
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
                to_block(ki, p, b, c * 4 * exec, o, GT_F, exec, h);
            }
            if (kill) {
                /* live pixels: status bit 0 (texkill) clear; predicates the write (Mesa's way) */
                struct gen_opnd st = gen_isel_as_type(ki, half_of(ki, ki->status, h), GT_UD);
                if (st.kind == GO_IMM) {
                    uint32_t t = gen_new_vreg(p, 4, true);
                    struct gen_inst *m = add(p, GOP_MOV, 1, 0);
                    m->dst = gen_vr(t, 0, GT_UD);
                    m->src[0] = st;
                    st = gen_vr(t, 0, GT_UD);
                }
                struct gen_inst *a = add(p, GOP_AND, exec, 16 * h);
                a->cmod = GC_EQ;
                a->flag = 1;
                a->dst = gen_null(GT_UD);
                a->src[0] = st;
                a->src[1] = gen_imm(1, GT_UD);
            }
            struct gen_inst *i = add(p, GOP_SENDC, exec, 16 * h);
            i->dst = gen_null(GT_UW);
            i->src[0] = gen_vr(b, 0, GT_F);
            i->sfid = 5;
            i->exdesc = 5;
            i->mlen = (uint8_t)(nparts * exec / 8);
            i->eot = last_rt && h + 1 == halves;
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

void gen_kernel_epilogue(struct gen_kernel_info *ki, struct gen_program *p)
{
    if (p->layout.stage == ST_VS)
        vs_epilogue(ki, p);
    else
        ps_epilogue(ki, p);
}

/* ------------------------------------------------------------------ */
/* The entry point.                                                    */

/* Constructs the front end accepts but this back end does not, located. */
static bool precheck(struct st_ctx *ctx, const struct st_shader *sh)
{
    for (const struct st_instr *i = sh->first; i; i = i->next) {
        for (unsigned k = 0; k < i->nsrc; k++) {
            const struct st_reg *r = &i->src[k].reg;
            if (st_opinfo[i->op].flags & OPF_DECL)
                break;
            (void)r;
        }
    }
    return true;
}

static void print_header(const struct gen_program *p, struct st_buf *out)
{
    const struct st_gen_layout *L = &p->layout;
    st_buf_printf(out, "// shadertrans Gen9 %s kernel, SIMD%u (docs/gen-abi.md)\n",
                  L->stage == ST_VS ? "vertex shader" : "pixel shader", p->simd);
    if (L->stage == ST_PS) {
        unsigned halves = p->simd == 32 ? 2 : 1, per8 = p->simd == 8 ? 1 : 2;
        st_buf_printf(out, "// payload: r0 header, r1%s pixel data", p->simd == 32 ? "-r2" : "");
        for (unsigned h = 0; h < halves; h++) {
            st_buf_printf(out, "%s", halves == 2 ? (h ? "; pixels 16-31:" : "; pixels 0-15:") : ",");
            st_buf_printf(out, " perspective barycentrics r%u-r%u", L->bary_grf[h],
                          L->bary_grf[h] + 2 * per8 - 1);
            if (L->depth_grf[h])
                st_buf_printf(out, ", source depth r%u-r%u", L->depth_grf[h], L->depth_grf[h] + per8 - 1);
            if (L->w_grf[h])
                st_buf_printf(out, ", source W r%u-r%u", L->w_grf[h], L->w_grf[h] + per8 - 1);
        }
        st_buf_printf(out, "\n");
    } else {
        st_buf_printf(out, "// payload: r0 header, r1 URB handles\n");
    }
    st_buf_printf(out, "// constants (CURBE) from r%u, %u GRFs:", L->curbe_grf, L->curbe_grfs);
    const char *sep = " ";
    if (L->c_hi >= L->c_lo) {
        st_buf_printf(out, "%sc%d-c%d at r%u", sep, L->c_lo, L->c_hi, L->c_grf);
        sep = "; ";
    }
    if (L->i_hi >= L->i_lo) {
        st_buf_printf(out, "%si%d-i%d at r%u", sep, L->i_lo, L->i_hi, L->i_grf);
        sep = "; ";
    }
    if (L->has_b) {
        st_buf_printf(out, "%sb0-b15 at r%u", sep, L->b_grf);
        sep = "; ";
    }
    if (L->bump_hi >= L->bump_lo) {
        st_buf_printf(out, "%sbumpenv stages %d-%d at r%u", sep, L->bump_lo, L->bump_hi,
                      L->bump_grf);
        sep = "; ";
    }
    if (L->window_grf)
        st_buf_printf(out, "%swindow height at r%u.0", sep, L->window_grf);
    if (L->frag_pos_slot >= 0)
        st_buf_printf(out, "\n// fragment.position (slot%d) from the payload: origin %s, pixel centres %s",
                      L->frag_pos_slot, L->upper_left ? "upper left" : "lower left",
                      L->center_integer ? "integer" : "half-integer");
    st_buf_printf(out, "\n// inputs from r%u (%s per input):", L->input_grf,
                  L->stage == ST_VS ? "4 GRFs" : "2 setup GRFs");
    for (unsigned k = 0; k < L->num_inputs; k++)
        st_buf_printf(out, " %s%u=slot%d", L->stage == ST_VS ? "attr" : "a", k, L->in_slot[k]);
    st_buf_printf(out, "\n");
    if (L->stage == ST_VS) {
        st_buf_printf(out, "// VUE:");
        for (unsigned k = 0; k < L->num_vue_slots; k++)
            st_buf_printf(out, " slot%u=%s%d", k, k == 0 ? "header/" : "out", L->vue_out_slot[k]);
        st_buf_printf(out, "\n");
    } else {
        st_buf_printf(out, "// render targets:");
        for (unsigned n = 0; n < ST_GEN_MAX_RT; n++)
            if (L->rt_out_slot[n] >= 0)
                st_buf_printf(out, " BTI%u=out%d", n, L->rt_out_slot[n]);
        st_buf_printf(out, "%s%s\n", L->writes_depth ? ", oDepth" : "",
                      L->uses_kill ? ", texkill (predicated write)" : "");
    }
    st_buf_printf(out, "// binding table: render targets 0-%d, constant buffer %d, texture s at %d+s "
                       "(sampler s), scratch %d\n",
                  ST_GEN_MAX_RT - 1, GEN_BTI_CONSTANTS, GEN_BTI_TEXTURE0, GEN_BTI_SCRATCH);
    st_buf_printf(out, "// GRFs used: %u, scratch: %u bytes per thread\n", p->grfs_used,
                  L->scratch_bytes);
}

/* How one try builds a kernel. */
enum build_mode {
    BUILD_SELECT_ONLY, /* selection only (the structure probe) */
    BUILD_FAST,        /* optimizer, latency schedule before and after allocation */
    BUILD_NO_PRESCHED, /* the same without the schedule before allocation, interpolation
                        * recomputed next to distant uses (gen/opt_remat.c) */
    BUILD_TIGHT,       /* and keeping message blocks' live ranges (gen_ir.h keep_block_ranges) */
};

/*
 * One try at one width: selection, the optimizer, the schedule before
 * allocation, allocation, the schedule after it.  False on errors
 * (reported) or allocation failure (*ra_failed).
 */
static bool build_once(struct st_ctx *ctx, const struct st_shader *sh, LLVMModuleRef m,
                       unsigned simd, enum build_mode mode, struct gen_program *p, bool *ra_failed)
{
    bool keep_blocks = mode == BUILD_TIGHT, select_only = mode == BUILD_SELECT_ONLY;
    memset(p, 0, sizeof(*p));
    p->simd = simd;
    p->keep_block_ranges = keep_blocks;
    *ra_failed = false;
    struct gen_kernel_info *ki = calloc(1, sizeof(*ki));
    if (!ki) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    ki->ctx = ctx;
    ki->sh = sh;
    bool ok = gen_kernel_layout(ki, m, p) && gen_isel(ctx, sh, m, ki, p);
    free(ki);
    if (!ok || select_only)
        return ok;
    gen_dce(p);
    gen_optimize(p);
    if (mode == BUILD_FAST && !p->oom)
        gen_schedule_pre(p);
    if (mode != BUILD_FAST && !p->oom && gen_opt_remat(p))
        gen_opt_dce(p);
    if (!p->oom && gen_allocate(p)) {
        gen_schedule_post(p);
        if (!p->oom) {
            gen_resolve_flow(p);
            return true;
        }
    }
    if (p->oom) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    *ra_failed = true;
    return false;
}

/*
 * One compile at one width; false on errors (reported) or allocation
 * failure (*ra_failed).  When a try spills (or cannot be allocated), the
 * next is more careful with registers, as Mesa's brw retries its schedulers:
 * without the latency schedule before allocation (it lengthens live
 * ranges), then also keeping message blocks' live ranges as selected (they
 * are allocation units the allocator cannot spill).  The try with the
 * least scratch traffic is kept.
 */
static bool compile_width(struct st_ctx *ctx, const struct st_shader *sh, LLVMModuleRef m,
                          unsigned simd, struct gen_program *p, bool *ra_failed)
{
    static const enum build_mode modes[] = {BUILD_FAST, BUILD_NO_PRESCHED, BUILD_TIGHT};
    if (!build_once(ctx, sh, m, simd, modes[0], p, ra_failed) && !*ra_failed)
        return false;
    for (unsigned k = 1; k < sizeof(modes) / sizeof(modes[0]) && (*ra_failed || p->spills); k++) {
        struct gen_program q;
        bool q_failed;
        if (!build_once(ctx, sh, m, simd, modes[k], &q, &q_failed) && !q_failed) {
            gen_program_free(&q);
            gen_program_free(p);
            return false;
        }
        bool take = !q_failed && (*ra_failed || q.spills + q.fills < p->spills + p->fills);
        if (take) {
            gen_program_free(p);
            *p = q;
            *ra_failed = false;
        } else {
            gen_program_free(&q);
        }
    }
    return !*ra_failed;
}

/* Whether the selector accepts the module's CFG: a SIMD8 trial whose
 * diagnostics go to a throwaway context. */
static bool structured(struct st_ctx *ctx, const struct st_shader *sh, LLVMModuleRef m)
{
    size_t len = 0;
    const char *src = st_ctx_source(ctx, &len);
    struct st_ctx *probe = st_ctx_create(st_ctx_filename(ctx), src, len, 1);
    if (!probe)
        return true;
    struct gen_program p;
    bool ra_failed;
    bool ok = build_once(probe, sh, m, 8, BUILD_SELECT_ONLY, &p, &ra_failed);
    gen_program_free(&p);
    st_ctx_destroy(probe);
    return ok;
}

/* The last component of the source file's name: what the statistics line names. */
static const char *shader_name(const struct st_ctx *ctx)
{
    const char *f = st_ctx_filename(ctx);
    if (!f || !*f || strcmp(f, "-") == 0)
        return "<stdin>";
    const char *slash = strrchr(f, '/');
    return slash && slash[1] ? slash + 1 : f;
}

enum { GEN_MAX_KEPT = 3 };

/* The kernels kept for one shader, narrowest first. */
struct kept {
    unsigned n;
    struct gen_program p[GEN_MAX_KEPT];
};

/*
 * The widths a driver ships, as Mesa's brw_compile_fs decides them for
 * Gen9: a pixel shader is compiled at SIMD8 (spilling if it must); when
 * that does not spill, at SIMD16, kept unless it spills; when SIMD16 is
 * kept, at SIMD32, kept only when it does not spill and its estimated
 * throughput (pixels per cycle: width / gen_perf's thread time) beats both
 * narrower kernels.  The hardware picks among the kernels per dispatch.
 * A forced width or a vertex shader (SIMD8 only) is one compile.
 */
static bool compile_kept(struct st_ctx *ctx, const struct st_shader *sh, LLVMModuleRef m,
                         unsigned simd, struct kept *K)
{
    K->n = 0;
    bool ra_failed;
    unsigned first = sh->version.type == ST_VS ? 8 : simd ? simd : 8;
    struct gen_program *p = &K->p[0];
    if (!compile_width(ctx, sh, m, first, p, &ra_failed)) {
        gen_program_free(p);
        if (ra_failed)
            st_error(ctx, sh->version.loc, ST_E_NOT_SUPPORTED,
                     "the Gen9 register file cannot hold this shader at SIMD%u, even with spilling",
                     first);
        return false;
    }
    K->n = 1;
    if (sh->version.type == ST_VS || simd || p->spills)
        return true;
    uint64_t best_num = 8, best_den = 1; /* throughput = width / thread time */
    unsigned c, t;
    gen_perf(p, &c, &t);
    best_den = t ? t : 1;
    /* a wider kernel is optional: what it cannot do (a payload past the
     * push limit at its width, say) drops it, diagnostics to a throwaway
     * context */
    size_t len = 0;
    const char *src = st_ctx_source(ctx, &len);
    struct st_ctx *quiet = st_ctx_create(st_ctx_filename(ctx), src, len, 1);
    for (unsigned w = 16; quiet && w <= 32; w *= 2) {
        p = &K->p[K->n];
        if (!compile_width(quiet, sh, m, w, p, &ra_failed)) {
            gen_program_free(p);
            break; /* a wider kernel would not do either */
        }
        gen_perf(p, &c, &t);
        uint64_t den = t ? t : 1;
        bool faster = (uint64_t)w * best_den > best_num * den;
        if (p->spills || (w == 32 && !faster)) {
            gen_program_free(p);
            break;
        }
        if (faster) {
            best_num = w;
            best_den = den;
        }
        K->n++;
    }
    if (quiet)
        st_ctx_destroy(quiet);
    return true;
}

static void print_kernel(const struct gen_program *p, const char *name, struct st_buf *out)
{
    print_header(p, out);
    /* cr0.0 bit 7: keep f32 denormals.  The reset value flushes them,
     * while the lowering's IEEE and D3D9 rules both keep them (the
     * interpreter and the JIT do); IGC sets the same bit. */
    st_buf_printf(out, "(W)       or (1|M0)      cr0.0<1>:ud cr0.0<0;1,0>:ud 0x80:ud {Switch}\n");
    gen_print(p, out);
    st_buf_printf(out, "// ");
    gen_print_stats(p, name, out);
    st_buf_printf(out, "\n");
}

/* Lowering, the pass pipeline and the kernels; widest_only prints the
 * widest kernel kept and nothing else (the Gen engine). */
static bool compile_kernels(struct st_ctx *ctx, const struct st_shader *sh, unsigned simd,
                            enum st_float_rules rules, bool widest_only, struct st_buf *out,
                            struct st_buf *stats, struct st_gen_layout *layout)
{
    if (!sh)
        return false;
    if (simd != 0 && simd != 8 && simd != 16 && simd != 32) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_NOT_SUPPORTED, "SIMD width %u (8, 16 or 32)", simd);
        return false;
    }
    if (!precheck(ctx, sh))
        return false;
    LLVMContextRef lc = LLVMContextCreate();
    /* derivatives as calls: the hardware computes them across the subspan */
    LLVMModuleRef m = st_lower_llvm_ex(ctx, sh, rules, ST_LOWER_DERIV_CALLS, lc);
    bool ok = m && st_llvm_pipeline(ctx, m, NULL);
    if (ok && !structured(ctx, sh, m)) {
        /* what the selector cannot map to if/else/while (a loop left
         * through two blocks, shared tails): LLVM's GPU structurizer first */
        LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
        LLVMErrorRef err = LLVMRunPasses(
            m, "function(fix-irreducible,unify-loop-exits,structurizecfg)", NULL, po);
        LLVMDisposePassBuilderOptions(po);
        if (err)
            LLVMConsumeError(err);
        ok = st_llvm_verify(ctx, m, "structurizecfg");
    }
    struct kept *K = ok ? calloc(1, sizeof(*K)) : NULL;
    if (ok && !K) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        ok = false;
    }
    if (ok)
        ok = compile_kept(ctx, sh, m, simd, K);
    if (ok) {
        const char *name = shader_name(ctx);
        if (layout)
            *layout = K->p[K->n - 1].layout;
        for (unsigned k = widest_only ? K->n - 1 : 0; k < K->n; k++) {
            print_kernel(&K->p[k], name, out);
            if (stats) {
                if (stats->len)
                    st_buf_putc(stats, '\n');
                gen_print_stats(&K->p[k], name, stats);
            }
        }
    }
    if (K) {
        for (unsigned k = 0; k < K->n; k++)
            gen_program_free(&K->p[k]);
        free(K);
    }
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(lc);
    return ok;
}

bool st_gen_compile(struct st_ctx *ctx, const struct st_shader *sh, unsigned simd,
                    struct st_buf *out, struct st_buf *stats)
{
    return st_gen_compile_ex(ctx, sh, simd, ST_FLOAT_IEEE, out, stats, NULL);
}

bool st_gen_compile_ex(struct st_ctx *ctx, const struct st_shader *sh, unsigned simd,
                       enum st_float_rules rules, struct st_buf *out, struct st_buf *stats,
                       struct st_gen_layout *layout)
{
    return compile_kernels(ctx, sh, simd, rules, false, out, stats, layout);
}

bool gen_compile_widest(struct st_ctx *ctx, const struct st_shader *sh, unsigned simd,
                        enum st_float_rules rules, struct st_buf *out, struct st_gen_layout *layout)
{
    return compile_kernels(ctx, sh, simd, rules, true, out, NULL, layout);
}
