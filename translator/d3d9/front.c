/*
 * front.c — the Direct3D 9 front end as the driver runs it: bytecode or
 * text; text through the preprocessor, then the parser.
 */
#include <string.h>

#include "translator.h"

bool st_d3d9_is_bytecode(const char *data, size_t len)
{
    const unsigned char *b = (const unsigned char *)data;
    /* The high half of the version token: 0xFFFE (vs) or 0xFFFF (ps).
     * Text never has these bytes: 0xFF is no UTF-8. */
    return len >= 4 && b[3] == 0xff && (b[2] == 0xfe || b[2] == 0xff);
}

struct st_shader *st_front_d3d9(struct st_ctx *ctx, struct st_arena *arena,
                                const struct st_options *o)
{
    size_t len;
    const char *src = st_ctx_source(ctx, &len);
    bool bytecode = o->dialect == ST_DIALECT_D3D9_BYTECODE ||
                    (o->dialect == ST_DIALECT_AUTO && src && st_d3d9_is_bytecode(src, len));
    if (bytecode)
        return st_read_d3d9_bytecode(ctx, arena);
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
