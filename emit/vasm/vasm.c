/*
 * vasm.c — `--emit=vasm` (being rewritten to read the vector IR).
 */
#include "emit.h"

bool st_vasm_emit(struct st_ctx *ctx, const struct st_shader *sh, const struct mir_prog *mir,
                  struct st_buf *out, struct st_merge_stats *stats)
{
    (void)mir;
    (void)out;
    (void)stats;
    st_error(ctx, sh->version.loc, ST_E_NOT_SUPPORTED, "vasm is being rewritten");
    return false;
}
