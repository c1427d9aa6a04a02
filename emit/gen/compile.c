/*
 * gen/compile.c — the Gen9 back end's entry point: for each SIMD width
 * tried, the layout of the payload (gen/kernel.c), the instruction
 * selection from the MIR (gen/isel.c), the clean-ups on the Gen IR
 * (gen/cleanup.c, gen/sink.c), the optimizer (gen/opt*.c), the schedule
 * before allocation (gen/sched.c), register allocation (gen/ra.c), the
 * schedule after it, then the IGA text (gen/print.c); the widths a Gen9
 * driver ships.  docs/gen-backend.md describes the steps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "isel.h"
#include "opt.h"
#include "verify.h"

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
        st_buf_printf(out, "\n// thread state: 3DSTATE_PS Single Precision Denormal Mode = Retained\n");
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
    if (L->window_grf) {
        st_buf_printf(out, "%swindow height at r%u.0", sep, L->window_grf);
        sep = "; ";
    }
    for (unsigned k = 0; k < L->num_rel_blocks; k++) {
        const struct st_gen_rel_block *r = &L->rel_block[k];
        if (!r->pushed)
            continue;
        st_buf_printf(out, "%sc%d-c%d (relative, %u zero vectors around) at r%u", sep, r->first,
                      r->first + (int)r->count - 1, r->pad, r->grf);
        sep = "; ";
    }
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
    if (L->num_rel_blocks) {
        st_buf_printf(out, "// views of the constant buffer:");
        for (unsigned k = 0; k < L->num_rel_blocks; k++) {
            const struct st_gen_rel_block *r = &L->rel_block[k];
            st_buf_printf(out, "%s c%d-c%d at binding table index %u", k ? ";" : "", r->first,
                          r->first + (int)r->count - 1, r->bti);
        }
        st_buf_printf(out, "\n");
    }
    st_buf_printf(out, "// GRFs used: %u, scratch: %u bytes per thread\n", p->grfs_used,
                  L->scratch_bytes);
    if (p->rel_notes.data && !p->rel_notes.oom) {
        st_buf_printf(out, "// relative constant reads (docs/gen-backend.md):\n");
        st_buf_append(out, p->rel_notes.data, p->rel_notes.len);
    }
}

/* --stats: how the relative constant reads were done, when there are any. */
static void print_rel_stats(const struct gen_program *p, struct st_buf *stats)
{
    static const char *const name[GEN_REL_STRATEGIES] = {"vx1", "vxh", "block", "gather",
                                                         "waterfall"};
    unsigned n = 0;
    for (unsigned k = 0; k < GEN_REL_STRATEGIES; k++)
        n += p->rel_strategy[k];
    if (!n)
        return;
    st_buf_printf(stats, "\ngen: relative constant read groups %u:", n);
    for (unsigned k = 0; k < GEN_REL_STRATEGIES; k++)
        st_buf_printf(stats, " %s %u", name[k], p->rel_strategy[k]);
    st_buf_printf(stats, " (uniform index: vx1, block; per channel: vxh, gather, waterfall)");
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

/* One try's options: what a retry after a spill changes. */
struct gen_opts {
    unsigned simd;
    enum st_float_rules rules;
    enum st_fp_contract contract;
};

enum build_mode {
    BUILD_FAST,        /* optimizer, latency schedule before and after allocation */
    BUILD_NO_PRESCHED, /* the same without the schedule before allocation, interpolation
                        * recomputed next to distant uses (gen/opt_remat.c) */
    BUILD_TIGHT,       /* and keeping message blocks' live ranges (gen_ir.h keep_block_ranges) */
    BUILD_WHOLE32,     /* SIMD32 only: BUILD_NO_PRESCHED with 32-channel values (gen_ir.h whole32) */
};

/* Selection of the MIR at one width, then the clean-ups: false on errors
 * (reported). */
static bool select_kernel(struct st_ctx *ctx, const struct st_shader *sh, const struct mir_prog *mir,
                          const struct gen_opts *o, struct gen_program *p)
{
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
    ki->legacy = o->rules == ST_FLOAT_D3D9;
    ki->fuse = contract_of(o->contract) != GEN_CONTRACT_OFF;
    bool ok = gen_kernel_layout(ki) && gen_isel(ki, o->rules, contract_of(o->contract));
    gb_finish(&b);
    gen_kernel_free(ki);
    free(ki);
    if (ok && (p->oom || p->rel_notes.oom)) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        ok = false;
    }
    /* the compile budget: the clean-ups and the optimizer are about
     * linear in the Gen program, the allocation about instructions x
     * values (charged its size once more); a budget spent or a cancel is
     * reported by st_poll */
    if (!ok || !st_poll(ctx, p->ninst) || !checked(ctx, sh, p, "selection", false))
        return false;
    gen_cleanup(p, o->contract == ST_FP_CONTRACT_FAST);
    gen_dce(p);
    gen_sink(p);
    return st_poll(ctx, p->ninst) && checked(ctx, sh, p, "the clean-ups", false);
}

/*
 * One try at one width: selection and clean-ups, the optimizer, the
 * schedule before allocation, allocation, the schedule after it.  False on
 * errors (reported) or allocation failure (*ra_failed).
 */
static bool build_once(struct st_ctx *ctx, const struct st_shader *sh, const struct mir_prog *mir,
                       const struct gen_opts *o, enum build_mode mode, struct gen_program *p,
                       bool *ra_failed)
{
    memset(p, 0, sizeof(*p));
    p->simd = o->simd;
    p->keep_block_ranges = mode == BUILD_TIGHT;
    p->whole32 = mode == BUILD_WHOLE32;
    *ra_failed = false;
    if (!select_kernel(ctx, sh, mir, o, p))
        return false;
    gen_optimize(p);
    if (mode != BUILD_FAST && !p->oom && gen_opt_remat(p))
        gen_opt_dce(p);
    if (!p->oom)
        gen_opt_pair(p);
    if (mode == BUILD_FAST && !p->oom)
        gen_schedule_pre(p);
    if (!p->oom && (!st_poll(ctx, p->ninst) || !checked(ctx, sh, p, "the optimizer", false)))
        return false;
    if (!p->oom && gen_allocate(p)) {
        gen_schedule_post(p);
        if (!p->oom) {
            gen_resolve_flow(p);
            if (!p->oom)
                return checked(ctx, sh, p, "register allocation and scheduling", true);
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
 * next is more careful with registers, as Mesa's brw retries its
 * schedulers: without the latency schedule before allocation (it
 * lengthens live ranges), then also keeping message blocks' live ranges
 * as selected, and at SIMD32 last without splitting the program into
 * SIMD16 halves (gen/opt_split.c: halves spill and fill one by one).  The
 * try with the least scratch traffic is kept.
 */
static bool compile_width(struct st_ctx *ctx, const struct st_shader *sh, const struct mir_prog *mir,
                          const struct gen_opts *o, struct gen_program *p, bool *ra_failed)
{
    static const enum build_mode modes[] = {BUILD_FAST, BUILD_NO_PRESCHED, BUILD_TIGHT,
                                            BUILD_WHOLE32};
    if (!build_once(ctx, sh, mir, o, modes[0], p, ra_failed) && !*ra_failed)
        return false;
    for (unsigned k = 1; k < sizeof(modes) / sizeof(modes[0]) && (*ra_failed || p->spills); k++) {
        if (modes[k] == BUILD_WHOLE32 && o->simd != 32)
            break;
        struct gen_program q;
        bool q_failed;
        if (!build_once(ctx, sh, mir, o, modes[k], &q, &q_failed) && !q_failed) {
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
static bool compile_kept(struct st_ctx *ctx, const struct st_shader *sh, const struct mir_prog *mir,
                         struct gen_opts o, unsigned simd, struct kept *K)
{
    K->n = 0;
    bool ra_failed;
    o.simd = sh->version.type == ST_VS ? 8 : simd ? simd : 8;
    struct gen_program *p = &K->p[0];
    if (!compile_width(ctx, sh, mir, &o, p, &ra_failed)) {
        gen_program_free(p);
        if (ra_failed)
            st_error(ctx, sh->version.loc, ST_E_NOT_SUPPORTED,
                     "the Gen9 register file cannot hold this shader at SIMD%u, even with spilling",
                     o.simd);
        return false;
    }
    K->n = 1;
    if (sh->version.type == ST_VS || simd || p->spills)
        return true;
    uint64_t best_num = 8, best_den; /* throughput = width / thread time */
    unsigned c, t;
    gen_perf(p, &c, &t);
    best_den = t ? t : 1;
    /* a wider kernel is optional: what it cannot do (a payload past the
     * push limit at its width, say) drops it, diagnostics to a throwaway
     * context that shares the call's budget */
    size_t len = 0;
    const char *src = st_ctx_source(ctx, &len);
    struct st_ctx *quiet = st_ctx_create(st_ctx_filename(ctx), src, len, 1);
    if (!quiet) {
        st_error(ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
        return false; /* (no narrower kernel alone: not the answer memory allowed) */
    }
    st_ctx_set_limits(quiet, st_ctx_limits(ctx));
    for (o.simd = 16; o.simd <= 32; o.simd *= 2) {
        p = &K->p[K->n];
        if (!compile_width(quiet, sh, mir, &o, p, &ra_failed)) {
            gen_program_free(p);
            break; /* a wider kernel would not do either */
        }
        gen_perf(p, &c, &t);
        uint64_t den = t ? t : 1;
        bool faster = (uint64_t)o.simd * best_den > best_num * den;
        if (p->spills || (o.simd == 32 && !faster)) {
            gen_program_free(p);
            break;
        }
        if (faster) {
            best_num = o.simd;
            best_den = den;
        }
        K->n++;
    }
    /* memory, a budget or a cancel in the quiet tries: not a narrower answer */
    bool oom = st_ctx_out_of_memory(quiet), stopped = oom || !st_poll(ctx, 0);
    st_ctx_destroy(quiet);
    if (oom)
        st_error(ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
    return !stopped;
}

/* The kernel's text; its last line is the statistics line, given (it
 * estimates the cycles over the whole kernel: computed once for the
 * kernel's comment and the --stats output). */
static void print_kernel(const struct gen_program *p, const struct st_buf *stats_line,
                         struct st_buf *out)
{
    print_header(p, out);
    gen_print_prologue(p, out);
    gen_print(p, out);
    st_buf_printf(out, "// ");
    st_buf_append(out, stats_line->data, stats_line->len);
    st_buf_printf(out, "\n");
}

/* The kernels of the MIR; widest_only prints the widest kernel kept and
 * nothing else (the Gen engine). */
static bool compile_kernels(struct st_ctx *ctx, const struct st_shader *sh,
                            const struct mir_prog *mir, unsigned simd, const struct gen_opts *o,
                            bool widest_only, struct st_buf *out, struct st_buf *stats,
                            struct st_gen_layout *layout)
{
    if (!sh || !mir)
        return false;
    if (simd != 0 && simd != 8 && simd != 16 && simd != 32) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_NOT_SUPPORTED, "SIMD width %u (8, 16 or 32)", simd);
        return false;
    }
    struct kept *K = calloc(1, sizeof(*K));
    if (!K) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    bool ok = compile_kept(ctx, sh, mir, *o, simd, K);
    if (ok) {
        const char *name = shader_name(ctx);
        if (layout)
            *layout = K->p[K->n - 1].layout;
        for (unsigned k = widest_only ? K->n - 1 : 0; k < K->n; k++) {
            struct st_buf line = {0};
            gen_print_stats(&K->p[k], name, &line);
            out->oom |= line.oom; /* reported where the output's memory is */
            print_kernel(&K->p[k], &line, out);
            if (stats) {
                if (stats->len)
                    st_buf_printf(stats, "\n");
                st_buf_append(stats, line.data, line.len);
                print_rel_stats(&K->p[k], stats);
            }
            st_buf_free(&line);
        }
    }
    for (unsigned k = 0; k < K->n; k++)
        gen_program_free(&K->p[k]);
    free(K);
    return ok;
}

bool st_gen_compile_ex(struct st_ctx *ctx, const struct st_shader *sh, const struct mir_prog *mir,
                       unsigned simd, enum st_float_rules rules, enum st_fp_contract contract,
                       struct st_buf *out, struct st_buf *stats, struct st_gen_layout *layout)
{
    struct gen_opts o = {0, rules, contract};
    return compile_kernels(ctx, sh, mir, simd, &o, false, out, stats, layout);
}

bool gen_compile_widest(struct st_ctx *ctx, const struct st_shader *sh, const struct mir_prog *mir,
                        unsigned simd, enum st_float_rules rules, enum st_fp_contract contract,
                        struct st_buf *out, struct st_gen_layout *layout)
{
    struct gen_opts o = {0, rules, contract};
    return compile_kernels(ctx, sh, mir, simd, &o, true, out, NULL, layout);
}
