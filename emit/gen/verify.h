/*
 * gen/verify.h — the Gen IR's structural rules (gen/verify.c), checked
 * after every step of gen/compile.c in debug builds.
 */
#ifndef ST_GEN_VERIFY_H
#define ST_GEN_VERIFY_H

#include "gen_ir.h"

/* False, with one located ST_E_NOT_SUPPORTED naming `after`, when p breaks
 * a rule; `allocated`: also check every vreg's placement. */
bool gen_verify(struct st_ctx *ctx, struct st_loc loc, const struct gen_program *p,
                const char *after, bool allocated);

#endif
