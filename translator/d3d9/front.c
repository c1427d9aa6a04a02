/*
 * front.c — the Direct3D 9 front end as the driver runs it: the text
 * through the preprocessor, then the parser.
 */
#include <string.h>

#include "translator.h"

struct st_shader *st_front_d3d9(struct st_ctx *ctx, struct st_arena *arena,
                                const struct st_options *o)
{
    struct st_pp_options pp;
    memset(&pp, 0, sizeof(pp));
    /* The preprocessor's options came with struct_version 2. */
    if (o->struct_version >= 2) {
        pp.defines = o->defines;
        pp.num_defines = o->defines ? o->num_defines : 0;
        pp.include_dirs = o->include_dirs;
        pp.num_include_dirs = o->include_dirs ? o->num_include_dirs : 0;
        pp.include = o->include;
        pp.release = o->include_release;
        pp.user = o->include_user;
    }
    if (!st_preprocess_d3d9(ctx, arena, &pp))
        return NULL;
    return st_parse_d3d9(ctx, arena);
}
