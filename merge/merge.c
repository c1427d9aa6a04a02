/*
 * merge.c — the stage, top to bottom: selection from the marker IR
 * (select.c), then the merges into writemasks (coalesce.c), each step
 * checked by the MIR verifier in debug builds.
 */
#include <string.h>

#include <llvm-c/Core.h>

#include "merge.h"

/* After each step: the compile budget (each step is about linear in the
 * program: charged its instructions) and, in debug builds, the verifier. */
static bool checked(struct st_ctx *ctx, const struct mir_prog *p, const char *after)
{
    if (p->oom) { /* a step ran out of memory: its result may be incomplete */
        st_error(ctx, p->loc, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    if (!st_poll(ctx, p->n))
        return false;
#ifdef ST_DEBUG
    return mir_verify(ctx, p, after);
#else
    (void)ctx;
    (void)p;
    (void)after;
    return true;
#endif
}

bool st_merge(struct st_ctx *ctx, const struct st_shader *sh, LLVMModuleRef m,
              struct mir_prog *out, struct st_merge_stats *stats)
{
    struct st_merge_stats local;
    if (!stats) {
        memset(&local, 0, sizeof(local));
        stats = &local;
    }
    bool ok = st_merge_select(ctx, sh, m, out, stats) && checked(ctx, out, "selection");
    if (ok && !mir_split_merge_inputs(out, stats)) {
        st_error(ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
        ok = false;
    }
    if (ok) {
        stats->copies_folded += mir_fold_copies(out);
        stats->copies_folded += mir_sink_predicated(out);
        ok = checked(ctx, out, "copy folding") && mir_coalesce(ctx, out, stats) &&
             checked(ctx, out, "coalescing");
    }
    if (ok) {
        mir_fold_outputs(out);
        ok = checked(ctx, out, "output folding");
    }
    if (ok) {
        unsigned hoisted = 0, moved = 0;
        bool flow = false;
        if (!mir_hoist_arms(out, &hoisted) || !mir_hoist_else_copies(out, &moved) ||
            !mir_drop_empty_flow(out, &flow)) {
            st_error(ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
            ok = false;
        }
        ok = ok && checked(ctx, out, "hoisting");
    }
    if (!ok)
        mir_free(out);
    return ok;
}

void st_merge_stats_format(const struct st_merge_stats *s, struct st_buf *out)
{
    st_buf_printf(out,
                  "merge: merges in %u, eliminated %u, writemasked moves left %u, "
                  "not eliminable (lane interference) %u\n",
                  s->merges_in, s->merges_eliminated, s->moves_left, s->merges_interfering);
    st_buf_printf(out, "merge: instructions in %u, out %u; temporaries in %u, out %u\n",
                  s->instrs_in, s->instrs_out, s->temps_in, s->temps_out);
}
