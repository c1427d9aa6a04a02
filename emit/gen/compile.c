/*
 * gen/compile.c — the Gen9 back end's entry point: for each SIMD width
 * tried, the layout of the payload (gen/kernel.c), the instruction
 * selection from the MIR (gen/isel.c), the clean-ups on the Gen IR
 * (gen/cleanup.c), dead code and register allocation (gen/ra.c), then
 * the IGA text (gen/print.c).  docs/gen-backend.md describes the steps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "isel.h"
#include "verify.h"

/* Does the kernel compute in half floats anywhere? */
static bool uses_half(const struct gen_program *p)
{
    for (unsigned k = 0; k < p->ninst; k++) {
        const struct gen_inst *i = &p->inst[k];
        if (i->dst.type == GT_HF || i->src[0].type == GT_HF || i->src[1].type == GT_HF ||
            i->src[2].type == GT_HF)
            return true;
    }
    return false;
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

/* After each step, in debug builds: the Gen IR's rules (gen/verify.c). */
static bool checked(struct st_ctx *ctx, const struct st_shader *sh, const struct gen_program *p,
                    const char *after, bool allocated)
{
#ifdef ST_DEBUG
    return gen_verify(ctx, sh->version.loc, p, after, allocated);
#else
    (void)ctx;
    (void)sh;
    (void)p;
    (void)after;
    (void)allocated;
    return true;
#endif
}

static enum gen_contract contract_of(enum st_fp_contract c)
{
    return c == ST_FP_CONTRACT_FAST ? GEN_CONTRACT_FAST
           : c == ST_FP_CONTRACT_OFF ? GEN_CONTRACT_OFF : GEN_CONTRACT_ON;
}

/* One compile at one width; false on errors (reported) or allocation failure (*ra_failed). */
static bool compile_width(struct st_ctx *ctx, const struct st_shader *sh, const struct mir_prog *mir,
                          unsigned simd, enum st_float_rules rules, enum st_fp_contract contract,
                          struct gen_program *p, bool *ra_failed)
{
    memset(p, 0, sizeof(*p));
    p->simd = simd;
    *ra_failed = false;
    struct gen_kernel_info *ki = calloc(1, sizeof(*ki));
    if (!ki) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    struct gen_build b;
    gb_init(&b, ctx, sh, p);
    ki->ctx = ctx;
    ki->sh = sh;
    ki->mir = mir;
    ki->b = &b;
    ki->p = p;
    ki->legacy = rules == ST_FLOAT_D3D9;
    bool ok = gen_kernel_layout(ki) && gen_isel(ki, rules, contract_of(contract));
    gb_finish(&b);
    gen_kernel_free(ki);
    free(ki);
    if (ok && p->oom) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        ok = false;
    }
    /* the compile budget: the clean-ups are linear in the Gen program,
     * the allocation about instructions x values (charged its size once
     * more); a budget spent or a cancel is reported by st_poll */
    if (!ok || !st_poll(ctx, p->ninst) || !checked(ctx, sh, p, "selection", false))
        return false;
    gen_cleanup(p, contract == ST_FP_CONTRACT_FAST);
    gen_dce(p);
    gen_sink(p);
    if (!st_poll(ctx, p->ninst) || !checked(ctx, sh, p, "the clean-ups", false))
        return false;
    if (!gen_allocate(p)) {
        if (p->oom) {
            st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
            return false;
        }
        *ra_failed = true;
        return false;
    }
    gen_resolve_flow(p);
    return checked(ctx, sh, p, "register allocation", true);
}

bool st_gen_compile(struct st_ctx *ctx, const struct st_shader *sh, const struct mir_prog *mir,
                    unsigned simd, struct st_buf *out, struct st_buf *stats)
{
    return st_gen_compile_ex(ctx, sh, mir, simd, ST_FLOAT_IEEE, ST_FP_CONTRACT_ON, out, stats,
                             NULL);
}

bool st_gen_compile_ex(struct st_ctx *ctx, const struct st_shader *sh, const struct mir_prog *mir,
                       unsigned simd, enum st_float_rules rules, enum st_fp_contract contract,
                       struct st_buf *out, struct st_buf *stats, struct st_gen_layout *layout)
{
    if (!sh || !mir)
        return false;
    if (simd != 0 && simd != 8 && simd != 16 && simd != 32) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_NOT_SUPPORTED, "SIMD width %u (8, 16 or 32)", simd);
        return false;
    }
    unsigned widths[3], nw = 0;
    if (sh->version.type == ST_VS) {
        widths[nw++] = 8; /* Gen9 dispatches scalar vertex shaders SIMD8 only */
    } else if (simd) {
        widths[nw++] = simd;
    } else {
        widths[nw++] = 32;
        widths[nw++] = 16;
        widths[nw++] = 8;
    }
    for (unsigned k = 0; k < nw; k++) {
        struct gen_program p;
        bool ra_failed;
        bool last = k + 1 == nw;
        if (!compile_width(ctx, sh, mir, widths[k], rules, contract, &p, &ra_failed)) {
            gen_program_free(&p);
            if (ra_failed && !last)
                continue;
            if (ra_failed)
                st_error(ctx, sh->version.loc, ST_E_NOT_SUPPORTED,
                         "the Gen9 register file cannot hold this shader at SIMD%u, even with spilling",
                         widths[k]);
            return false;
        }
        if (p.spills && !last) {
            gen_program_free(&p);
            continue;
        }
        if (layout)
            *layout = p.layout;
        print_header(&p, out);
        /* cr0.0 bit 7: keep f32 denormals.  The reset value flushes them,
         * while both float rules keep them (the interpreter and the JIT
         * do); IGC sets the same bit.  Bit 10 keeps half denormals, for a
         * kernel that computes in :hf (--pp=fp16: the interpreter's halves
         * go down to 2^-24). */
        st_buf_printf(out, "(W)       or (1|M0)      cr0.0<1>:ud cr0.0<0;1,0>:ud 0x%X:ud {Switch}\n",
                      uses_half(&p) ? 0x480u : 0x80u);
        gen_print(&p, out);
        if (stats)
            gen_print_stats(&p, stats);
        st_buf_printf(out, "// ");
        gen_print_stats(&p, out);
        st_buf_printf(out, "\n");
        gen_program_free(&p);
        return true;
    }
    return false;
}
