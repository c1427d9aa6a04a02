/*
 * run_io.c — the JSON side of `shadertrans run`, shared by every engine.
 *
 * Inputs JSON -> struct st_run_inputs (checked against the shader's version,
 * with the shader's def/defi/defb applied) and struct st_run_outputs ->
 * outputs JSON.  docs/run-json.md is the contract; engines never see JSON.
 *
 * Parsing uses jansson (Debian's libjansson): we only walk its tree.  Every
 * complaint names the JSON path that is wrong, e.g.
 * `invocations[3].v0[2]: expected a number or "nan"/"inf"/"-inf"`.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "translator.h"

/* Limits that keep a hostile inputs file from exhausting memory (the arena
 * aborts on huge failed allocations). */
enum {
    PATHLEN = 256, /* JSON paths: keys are cut at 40 characters */
    MAX_INVOCATIONS = 65536,
    MAX_TEX_DIM = 8192,
    MAX_TEXELS = 1 << 22,
};

/* ------------------------------------------------------------------ */
/* Slots                                                               */

int st_run_in_slot(enum st_regfile file, uint32_t index)
{
    switch (file) {
    case ST_REG_INPUT:
        return index < 16 ? ST_LL_IN_V + (int)index : -1;
    case ST_REG_TEXTURE:
        return index < 8 ? ST_LL_IN_T + (int)index : -1;
    case ST_REG_MISC:
        return index == ST_MISC_POS ? ST_LL_IN_VPOS : index == ST_MISC_FACE ? ST_LL_IN_VFACE : -1;
    default:
        return -1;
    }
}

int st_run_out_slot(enum st_regfile file, uint32_t index)
{
    switch (file) {
    case ST_REG_RASTOUT:
        return index == ST_RASTOUT_POS ? ST_LL_OUT_POS
             : index == ST_RASTOUT_FOG ? ST_LL_OUT_FOG
             : index == ST_RASTOUT_PTS ? ST_LL_OUT_PTS : -1;
    case ST_REG_ATTROUT:
        return index < 2 ? ST_LL_OUT_D + (int)index : -1;
    case ST_REG_TEXCRDOUT:
        return index < 8 ? ST_LL_OUT_T + (int)index : -1;
    case ST_REG_OUTPUT:
        return index < 12 ? ST_LL_OUT_O + (int)index : -1;
    case ST_REG_COLOROUT:
        return index < 4 ? ST_LL_OUT_C + (int)index : -1;
    case ST_REG_DEPTHOUT:
        return index == 0 ? ST_LL_OUT_DEPTH : -1;
    default:
        return -1;
    }
}

void st_run_output_name(enum st_regfile file, uint32_t index, char buf[8])
{
    switch (file) {
    case ST_REG_RASTOUT:
    case ST_REG_DEPTHOUT:
        snprintf(buf, 8, "%s", st_regfile_name(file, index));
        break;
    default:
        snprintf(buf, 8, "%s%u", st_regfile_name(file, index), (unsigned)(index % 100));
        break;
    }
}

/* ------------------------------------------------------------------ */
/* Output registers                                                    */

static bool is_ps1x(const struct st_shader *sh)
{
    return sh->version.type == ST_PS && sh->version.ver < ST_VER(2, 0);
}

static unsigned arb_output_regs(const struct st_shader *sh,
                                struct st_run_output regs[ST_RUN_MAX_OUTPUTS]);

unsigned st_run_output_regs(const struct st_shader *sh, struct st_run_output regs[ST_RUN_MAX_OUTPUTS])
{
    if (sh->dialect == ST_ARB)
        return arb_output_regs(sh, regs);
    bool written[ST_LL_OUT_SLOTS] = {0};
    bool rel_o = false, decl_o[12] = {0};
    for (const struct st_instr *in = sh->first; in; in = in->next) {
        if (in->op == ST_OP_DCL && in->has_dst && in->dst.reg.file == ST_REG_OUTPUT &&
            in->dst.reg.index < 12)
            decl_o[in->dst.reg.index] = true;
        if (in->op == ST_OP_TEXDEPTH || in->op == ST_OP_TEXM3x2DEPTH)
            written[ST_LL_OUT_DEPTH] = true;
        if (!in->has_dst || (st_opinfo[in->op].flags & OPF_DECL))
            continue;
        if (in->dst.reg.file == ST_REG_OUTPUT && in->dst.reg.rel) {
            rel_o = true; /* o[aL + n]: any declared o# may be written */
            continue;
        }
        int slot = st_run_out_slot(in->dst.reg.file, in->dst.reg.index);
        if (slot >= 0)
            written[slot] = true;
    }
    if (rel_o)
        for (int k = 0; k < 12; k++)
            if (decl_o[k])
                written[ST_LL_OUT_O + k] = true;
    if (is_ps1x(sh))
        written[ST_LL_OUT_C] = true; /* the color output of ps_1_x is r0 */

    static const struct { enum st_regfile file; uint32_t first, count; } order[] = {
        {ST_REG_RASTOUT, ST_RASTOUT_POS, 1}, {ST_REG_ATTROUT, 0, 2},
        {ST_REG_TEXCRDOUT, 0, 8},            {ST_REG_OUTPUT, 0, 12},
        {ST_REG_RASTOUT, ST_RASTOUT_FOG, 1}, {ST_REG_RASTOUT, ST_RASTOUT_PTS, 1},
        {ST_REG_COLOROUT, 0, 4},             {ST_REG_DEPTHOUT, 0, 1},
    };
    unsigned n = 0;
    for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
        for (uint32_t j = 0; j < order[k].count; j++) {
            uint32_t idx = order[k].first + j;
            int slot = st_run_out_slot(order[k].file, idx);
            if (slot < 0 || !written[slot] || n >= ST_RUN_MAX_OUTPUTS)
                continue;
            struct st_run_output *r = &regs[n++];
            memset(r, 0, sizeof(*r));
            r->file = order[k].file;
            r->index = idx;
            r->ncomp = (slot == ST_LL_OUT_FOG || slot == ST_LL_OUT_PTS || slot == ST_LL_OUT_DEPTH)
                           ? 1 : 4;
        }
    }
    return n;
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */

static void put_float(struct st_buf *b, float f)
{
    if (isnan(f))
        st_buf_printf(b, "\"nan\"");
    else if (isinf(f))
        st_buf_printf(b, f > 0 ? "\"inf\"" : "\"-inf\"");
    else
        st_buf_printf(b, "%.9g", (double)f);
}

void st_run_outputs_write(const struct st_run_outputs *outs, unsigned n, struct st_buf *out)
{
    st_buf_printf(out, "{\"invocations\": [");
    for (unsigned i = 0; i < n; i++) {
        const struct st_run_outputs *o = &outs[i];
        st_buf_printf(out, "%s\n  {", i ? "," : "");
        if (o->discarded) {
            st_buf_printf(out, "\"discarded\": true}");
            continue;
        }
        for (unsigned r = 0; r < o->count && r < ST_RUN_MAX_OUTPUTS; r++) {
            char name[8];
            st_run_output_name(o->reg[r].file, o->reg[r].index, name);
            st_buf_printf(out, "%s\"%s\": [", r ? ", " : "", name);
            unsigned nc = o->reg[r].ncomp > 4 ? 4 : o->reg[r].ncomp;
            for (unsigned c = 0; c < nc; c++) {
                if (c)
                    st_buf_printf(out, ", ");
                put_float(out, o->reg[r].v[c]);
            }
            st_buf_putc(out, ']');
        }
        st_buf_putc(out, '}');
    }
    st_buf_printf(out, "%s]}\n", n ? "\n" : "");
}

/* ------------------------------------------------------------------ */
/* Parsing                                                             */

struct parser {
    struct st_ctx *ctx;
    const struct st_shader *sh;
    const char *name;
    struct st_arena *arena;
    bool failed;
};

static bool fail(struct parser *p, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool out_of_memory(struct parser *p)
{
    st_error(p->ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
    p->failed = true;
    return false;
}

static bool fail(struct parser *p, const char *path, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (p->name)
        st_error(p->ctx, (struct st_loc){0, 0}, ST_E_INPUTS, "%s: %s: %s", p->name, path, msg);
    else
        st_error(p->ctx, (struct st_loc){0, 0}, ST_E_INPUTS, "%s: %s", path, msg);
    p->failed = true;
    return false;
}

static const char *type_name(const json_t *j)
{
    switch (json_typeof(j)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "something else";
}

static bool get_float(struct parser *p, const json_t *j, const char *path, float *out)
{
    if (json_is_number(j)) {
        /* Rounded to the nearest float32; 1e39 becomes inf, as a float
         * register would hold it. */
        *out = (float)json_number_value(j);
        return true;
    }
    if (json_is_string(j)) {
        const char *s = json_string_value(j);
        if (strcmp(s, "nan") == 0) {
            *out = NAN;
            return true;
        }
        if (strcmp(s, "inf") == 0) {
            *out = INFINITY;
            return true;
        }
        if (strcmp(s, "-inf") == 0) {
            *out = -INFINITY;
            return true;
        }
    }
    return fail(p, path, "expected a number or \"nan\"/\"inf\"/\"-inf\", got %s", type_name(j));
}

/* A vector of 1..4 floats; lanes not given keep what `v` holds. */
static bool get_vec(struct parser *p, const json_t *j, const char *path, float v[4])
{
    if (!json_is_array(j))
        return fail(p, path, "expected an array of 1 to 4 numbers, got %s", type_name(j));
    size_t n = json_array_size(j);
    if (n < 1 || n > 4)
        return fail(p, path, "expected 1 to 4 components, got %zu", n);
    for (size_t k = 0; k < n; k++) {
        char sub[PATHLEN];
        snprintf(sub, sizeof(sub), "%.200s[%zu]", path, k);
        if (!get_float(p, json_array_get(j, k), sub, &v[k]))
            return false;
    }
    return true;
}

static bool get_int(struct parser *p, const json_t *j, const char *path, int32_t *out)
{
    if (json_is_integer(j)) {
        json_int_t x = json_integer_value(j);
        if (x < INT32_MIN || x > INT32_MAX)
            return fail(p, path, "integer out of the int32 range");
        *out = (int32_t)x;
        return true;
    }
    if (json_is_real(j)) {
        double d = json_real_value(j);
        if (d == floor(d) && d >= INT32_MIN && d <= INT32_MAX) {
            *out = (int32_t)d;
            return true;
        }
    }
    return fail(p, path, "expected an integer, got %s", type_name(j));
}

/* Parses "<prefix><number>" (no sign, no leading zeros); returns the number
 * or -1. */
static long reg_number(const char *key, const char *prefix)
{
    size_t pl = strlen(prefix);
    if (strncmp(key, prefix, pl) != 0)
        return -1;
    const char *d = key + pl;
    if (!*d || (d[0] == '0' && d[1]) || strlen(d) > 5)
        return -1;
    long v = 0;
    for (; *d; d++) {
        if (*d < '0' || *d > '9')
            return -1;
        v = v * 10 + (*d - '0');
    }
    return v;
}

static unsigned num_float_consts(const struct st_shader *sh)
{
    if (sh->version.type == ST_VS)
        return 256;
    if (sh->version.ver < ST_VER(2, 0))
        return 8;
    if (sh->version.ver < ST_VER(3, 0))
        return 32;
    return 224;
}

/* Per-invocation input registers this shader version has: -1 when `key`
 * names none (then *what says why). */
static int input_slot_for(const struct st_shader *sh, const char *key)
{
    unsigned nv, nt;
    bool misc = false;
    if (sh->version.type == ST_VS) {
        nv = 16, nt = 0;
    } else if (sh->version.ver < ST_VER(1, 4)) {
        nv = 2, nt = 4;
    } else if (sh->version.ver < ST_VER(2, 0)) {
        nv = 2, nt = 6;
    } else if (sh->version.ver < ST_VER(3, 0)) {
        nv = 2, nt = 8;
    } else {
        nv = 10, nt = 0, misc = true;
    }
    long n;
    if ((n = reg_number(key, "v")) >= 0 && n < (long)nv)
        return ST_LL_IN_V + (int)n;
    if ((n = reg_number(key, "t")) >= 0 && n < (long)nt)
        return ST_LL_IN_T + (int)n;
    if (misc && strcmp(key, "vPos") == 0)
        return ST_LL_IN_VPOS;
    if (misc && strcmp(key, "vFace") == 0)
        return ST_LL_IN_VFACE;
    return -1;
}

static const char *version_text(const struct st_shader *sh, char buf[16])
{
    unsigned maj = sh->version.ver >> 8, min = sh->version.ver & 0xff;
    if (sh->version.ver == ST_VER_2X)
        snprintf(buf, 16, "%s_2_x", sh->version.type == ST_VS ? "vs" : "ps");
    else
        snprintf(buf, 16, "%s_%u_%u", sh->version.type == ST_VS ? "vs" : "ps", maj, min);
    return buf;
}

static bool parse_constants(struct parser *p, const json_t *obj, struct st_run_inputs *out,
                            bool given[ST_RUN_NUM_CONSTS])
{
    if (!json_is_object(obj))
        return fail(p, "constants", "expected an object, got %s", type_name(obj));
    unsigned nc = num_float_consts(p->sh);
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)obj, key, val) {
        char path[PATHLEN];
        snprintf(path, sizeof(path), "constants.%.40s", key);
        long n = reg_number(key, "c");
        if (n < 0 || n >= (long)nc) {
            char vb[16];
            return fail(p, path, "not a float constant of %s (c0..c%u)", version_text(p->sh, vb),
                        nc - 1);
        }
        float v[4] = {0, 0, 0, 1};
        if (!get_vec(p, val, path, v))
            return false;
        memcpy(out->c[n], v, sizeof(v));
        given[n] = true;
    }
    return true;
}

static bool parse_int_constants(struct parser *p, const json_t *obj, struct st_run_inputs *out,
                                bool given[ST_RUN_NUM_ICONSTS])
{
    if (!json_is_object(obj))
        return fail(p, "int_constants", "expected an object, got %s", type_name(obj));
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)obj, key, val) {
        char path[PATHLEN];
        snprintf(path, sizeof(path), "int_constants.%.40s", key);
        long n = reg_number(key, "i");
        if (n < 0 || n >= ST_RUN_NUM_ICONSTS)
            return fail(p, path, "not an integer constant (i0..i15)");
        if (!json_is_array(val) || json_array_size(val) < 1 || json_array_size(val) > 4)
            return fail(p, path, "expected an array of 1 to 4 integers");
        int32_t v[4] = {0, 0, 0, 0};
        for (size_t k = 0; k < json_array_size(val); k++) {
            char sub[PATHLEN];
            snprintf(sub, sizeof(sub), "%.200s[%zu]", path, k);
            if (!get_int(p, json_array_get(val, k), sub, &v[k]))
                return false;
        }
        memcpy(out->i[n], v, sizeof(v));
        given[n] = true;
    }
    return true;
}

static bool parse_bool_constants(struct parser *p, const json_t *obj, struct st_run_inputs *out,
                                 bool given[ST_RUN_NUM_BCONSTS])
{
    if (!json_is_object(obj))
        return fail(p, "bool_constants", "expected an object, got %s", type_name(obj));
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)obj, key, val) {
        char path[PATHLEN];
        snprintf(path, sizeof(path), "bool_constants.%.40s", key);
        long n = reg_number(key, "b");
        if (n < 0 || n >= ST_RUN_NUM_BCONSTS)
            return fail(p, path, "not a boolean constant (b0..b15)");
        if (!json_is_boolean(val))
            return fail(p, path, "expected true or false, got %s", type_name(val));
        out->b[n] = json_is_true(val);
        given[n] = true;
    }
    return true;
}

static bool get_dim(struct parser *p, const json_t *tex, const char *path, const char *key,
                    uint32_t *out)
{
    char sub[PATHLEN];
    snprintf(sub, sizeof(sub), "%.200s.%.40s", path, key);
    const json_t *j = json_object_get(tex, key);
    if (!j)
        return fail(p, sub, "missing");
    if (!json_is_integer(j) || json_integer_value(j) < 1 || json_integer_value(j) > MAX_TEX_DIM)
        return fail(p, sub, "expected an integer from 1 to %d", MAX_TEX_DIM);
    *out = (uint32_t)json_integer_value(j);
    return true;
}

static bool parse_texture(struct parser *p, const json_t *tex, const char *path,
                          struct st_run_texture *t)
{
    if (!json_is_object(tex))
        return fail(p, path, "expected an object, got %s", type_name(tex));
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)tex, key, val) {
        if (strcmp(key, "type") && strcmp(key, "width") && strcmp(key, "height") &&
            strcmp(key, "depth") && strcmp(key, "texels")) {
            char sub[PATHLEN];
            snprintf(sub, sizeof(sub), "%.200s.%.40s", path, key);
            return fail(p, sub, "unknown key (expected type, width, height, depth, texels)");
        }
    }
    char sub[PATHLEN];
    snprintf(sub, sizeof(sub), "%.200s.type", path);
    const json_t *type = json_object_get(tex, "type");
    if (!type)
        return fail(p, sub, "missing");
    const char *ts = json_is_string(type) ? json_string_value(type) : "";
    bool arb = p->sh->dialect == ST_ARB, one_d = false;
    if (strcmp(ts, "2d") == 0)
        t->type = ST_SAMPLER_2D;
    else if (strcmp(ts, "cube") == 0)
        t->type = ST_SAMPLER_CUBE;
    else if (!arb && strcmp(ts, "volume") == 0)
        t->type = ST_SAMPLER_VOLUME;
    else if (arb && strcmp(ts, "3d") == 0)
        t->type = ST_SAMPLER_VOLUME;
    else if (arb && (strcmp(ts, "1d") == 0 || strcmp(ts, "rect") == 0))
        t->type = ST_SAMPLER_2D, one_d = ts[0] == '1'; /* the sampling target decides */
    else if (arb)
        return fail(p, sub, "expected \"1d\", \"2d\", \"3d\", \"cube\" or \"rect\"");
    else
        return fail(p, sub, "expected \"2d\", \"cube\" or \"volume\"");
    if (!get_dim(p, tex, path, "width", &t->width))
        return false;
    if (one_d && !json_object_get(tex, "height"))
        t->height = 1; /* a 1D texture is one row */
    else if (!get_dim(p, tex, path, "height", &t->height))
        return false;
    if (one_d && t->height != 1) {
        snprintf(sub, sizeof(sub), "%.200s.height", path);
        return fail(p, sub, "a 1d texture has height 1");
    }
    t->depth = t->type == ST_SAMPLER_CUBE ? 6 : 1;
    if (t->type == ST_SAMPLER_VOLUME) {
        if (!get_dim(p, tex, path, "depth", &t->depth))
            return false;
    } else if (json_object_get(tex, "depth")) {
        snprintf(sub, sizeof(sub), "%.200s.depth", path);
        return fail(p, sub, "only volume textures have a depth");
    }
    if (t->type == ST_SAMPLER_CUBE && t->width != t->height) {
        snprintf(sub, sizeof(sub), "%.200s.height", path);
        return fail(p, sub, "cube faces must be square (width %u, height %u)", t->width,
                    t->height);
    }
    uint64_t count = (uint64_t)t->width * t->height * t->depth;
    snprintf(sub, sizeof(sub), "%.200s.texels", path);
    if (count > MAX_TEXELS)
        return fail(p, sub, "more than %d texels", MAX_TEXELS);
    const json_t *texels = json_object_get(tex, "texels");
    if (!texels)
        return fail(p, sub, "missing");
    if (!json_is_array(texels))
        return fail(p, sub, "expected an array of [r,g,b,a] texels, got %s", type_name(texels));
    if (json_array_size(texels) != count)
        return fail(p, sub, "expected %llu texels (%s), got %zu", (unsigned long long)count,
                    t->type == ST_SAMPLER_2D     ? "width*height"
                    : t->type == ST_SAMPLER_CUBE ? "6 faces of width*height"
                                                 : "width*height*depth",
                    json_array_size(texels));
    float(*data)[4] = st_arena_alloc(p->arena, (size_t)count * sizeof(*data));
    if (st_arena_failed(p->arena))
        return out_of_memory(p);
    for (size_t k = 0; k < count; k++) {
        char tp[PATHLEN];
        snprintf(tp, sizeof(tp), "%.200s[%zu]", sub, k);
        float v[4] = {0, 0, 0, 1};
        if (!get_vec(p, json_array_get(texels, k), tp, v))
            return false;
        memcpy(data[k], v, sizeof(v));
    }
    t->texels = (const float(*)[4])data;
    return true;
}

static bool parse_textures(struct parser *p, const json_t *obj, struct st_run_inputs *out)
{
    if (!json_is_object(obj))
        return fail(p, "textures", "expected an object, got %s", type_name(obj));
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)obj, key, val) {
        char path[PATHLEN];
        snprintf(path, sizeof(path), "textures.%.40s", key);
        long n = reg_number(key, "s");
        if (n < 0 || n >= ST_RUN_NUM_SAMPLERS)
            return fail(p, path, "not a sampler (s0..s15)");
        if (!parse_texture(p, val, path, &out->tex[n]))
            return false;
    }
    return true;
}

static bool parse_bump_env(struct parser *p, const json_t *obj, struct st_run_inputs *out)
{
    if (!json_is_object(obj))
        return fail(p, "bump_env", "expected an object, got %s", type_name(obj));
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)obj, key, val) {
        char path[PATHLEN];
        snprintf(path, sizeof(path), "bump_env.%.40s", key);
        long n = reg_number(key, "s");
        if (n < 0 || n >= ST_RUN_NUM_SAMPLERS)
            return fail(p, path, "not a texture stage (s0..s15)");
        if (!json_is_object(val))
            return fail(p, path, "expected an object, got %s", type_name(val));
        struct st_run_bumpenv *be = &out->bumpenv[n];
        const char *k2;
        json_t *v2;
        json_object_foreach(val, k2, v2) {
            char sub[PATHLEN];
            snprintf(sub, sizeof(sub), "%.200s.%.40s", path, k2);
            if (strcmp(k2, "matrix") == 0) {
                if (!json_is_array(v2) || json_array_size(v2) != 4)
                    return fail(p, sub, "expected [m00, m01, m10, m11]");
                for (size_t k = 0; k < 4; k++) {
                    char ep[PATHLEN];
                    snprintf(ep, sizeof(ep), "%.200s[%zu]", sub, k);
                    if (!get_float(p, json_array_get(v2, k), ep, &be->mat[k]))
                        return false;
                }
            } else if (strcmp(k2, "lscale") == 0) {
                if (!get_float(p, v2, sub, &be->lscale))
                    return false;
            } else if (strcmp(k2, "loffset") == 0) {
                if (!get_float(p, v2, sub, &be->loffset))
                    return false;
            } else {
                return fail(p, sub, "unknown key (expected matrix, lscale, loffset)");
            }
        }
    }
    return true;
}

/* The input slots the shader can read: operands, predicates, and the
 * texture coordinates ps_1_x texture instructions take from their dst
 * number.  A relative read (v[aL]) may read any input register. */
static void inputs_read(const struct st_shader *sh, bool read[ST_LL_IN_SLOTS])
{
    for (const struct st_instr *in = sh->first; in; in = in->next) {
        if (st_opinfo[in->op].flags & OPF_DECL)
            continue;
        const struct st_reg *regs[7];
        unsigned n = 0;
        for (unsigned k = 0; k < in->nsrc && k < 5; k++)
            regs[n++] = &in->src[k].reg;
        if (in->predicated)
            regs[n++] = &in->pred.reg;
        if (in->has_dst && ((st_opinfo[in->op].flags & OPF_TEX1X) || in->op == ST_OP_TEXKILL ||
                            (in->op == ST_OP_TEXLD && in->nsrc == 0)))
            regs[n++] = &in->dst.reg;
        for (unsigned k = 0; k < n; k++) {
            if (regs[k]->rel && regs[k]->file == ST_REG_INPUT) {
                for (int v = 0; v < 16; v++)
                    read[ST_LL_IN_V + v] = true;
                continue;
            }
            int slot = st_run_in_slot(regs[k]->file, regs[k]->index);
            if (slot >= 0)
                read[slot] = true;
        }
        /* texm3x3vspec also reads the w coordinates of the two pad sets. */
        if (in->op == ST_OP_TEXM3x3VSPEC && in->dst.reg.file == ST_REG_TEXTURE)
            for (uint32_t d = 1; d <= 2 && d <= in->dst.reg.index; d++)
                read[ST_LL_IN_T + in->dst.reg.index - d] = true;
    }
}

static bool parse_invocations(struct parser *p, const json_t *arr, struct st_run_inputs *out)
{
    bool read[ST_LL_IN_SLOTS] = {0}, warned[ST_LL_IN_SLOTS] = {0};
    inputs_read(p->sh, read);
    if (!json_is_array(arr))
        return fail(p, "invocations", "expected an array, got %s", type_name(arr));
    size_t n = json_array_size(arr);
    if (n > MAX_INVOCATIONS)
        return fail(p, "invocations", "more than %d invocations", MAX_INVOCATIONS);
    out->num_invocations = (unsigned)n;
    out->inv = n ? st_arena_alloc(p->arena, n * sizeof(*out->inv)) : NULL;
    if (st_arena_failed(p->arena))
        return out_of_memory(p);
    for (size_t i = 0; i < n; i++) {
        struct st_run_invocation *inv = &out->inv[i];
        for (int s = 0; s < ST_LL_IN_SLOTS; s++) {
            inv->in[s][0] = inv->in[s][1] = inv->in[s][2] = 0.0f;
            inv->in[s][3] = 1.0f;
        }
        const json_t *obj = json_array_get(arr, i);
        char path[PATHLEN];
        snprintf(path, sizeof(path), "invocations[%zu]", i);
        if (!json_is_object(obj))
            return fail(p, path, "expected an object, got %s", type_name(obj));
        const char *key;
        json_t *val;
        json_object_foreach((json_t *)obj, key, val) {
            char sub[PATHLEN];
            snprintf(sub, sizeof(sub), "%.200s.%.40s", path, key);
            int slot = input_slot_for(p->sh, key);
            if (slot < 0) {
                char vb[16];
                return fail(p, sub, "not an input register of %s", version_text(p->sh, vb));
            }
            if (!read[slot] && !warned[slot]) {
                /* Once per register: probably a typo or the wrong shader. */
                warned[slot] = true;
                if (p->name)
                    st_warning(p->ctx, (struct st_loc){0, 0}, ST_W_UNUSED_INPUT,
                               "%s: %s: the shader never reads %.40s", p->name, sub, key);
                else
                    st_warning(p->ctx, (struct st_loc){0, 0}, ST_W_UNUSED_INPUT,
                               "%s: the shader never reads %.40s", sub, key);
            }
            if (slot == ST_LL_IN_VFACE && json_is_number(val)) {
                /* vFace is a scalar: a bare number is accepted too. */
                if (!get_float(p, val, sub, &inv->in[slot][0]))
                    return false;
                continue;
            }
            if (!get_vec(p, val, sub, inv->in[slot]))
                return false;
        }
    }
    return true;
}

static const char *const tex_name[] = {"?", "2d", "cube", "volume"};

/* def/defi/defb win over the file, as in Direct3D; a texture whose type
 * differs from the shader's dcl of its sampler, or from the type the
 * options compiled an undeclared (ps_1_x) stage for, is an error. */
static bool apply_defs(struct parser *p, struct st_run_inputs *out, const bool cgiven[],
                       const bool igiven[], const bool bgiven[])
{
    for (unsigned n = 0; n < ST_RUN_NUM_SAMPLERS && n < 16; n++) {
        enum st_sampler_type want = p->sh->dialect == ST_D3D9 ? p->sh->stage_type[n] : ST_SAMPLER_NONE;
        bool declared = false;
        for (const struct st_instr *in = p->sh->first; in && !declared; in = in->next)
            declared = in->op == ST_OP_DCL && in->has_dst && in->dst.reg.file == ST_REG_SAMPLER &&
                       in->dst.reg.index == n;
        if (declared || want == ST_SAMPLER_NONE || out->tex[n].type == ST_SAMPLER_NONE ||
            out->tex[n].type == want)
            continue;
        char path[40];
        snprintf(path, sizeof(path), "textures.s%u.type", n);
        return fail(p, path, "\"%s\", but the shader was compiled for a %s texture at s%u (texture types)",
                    tex_name[out->tex[n].type], tex_name[want], n);
    }
    for (const struct st_instr *in = p->sh->first; in; in = in->next) {
        if (!in->has_dst)
            continue;
        uint32_t n = in->dst.reg.index;
        const char *what = NULL;
        if (in->op == ST_OP_DCL && in->dst.reg.file == ST_REG_SAMPLER && n < ST_RUN_NUM_SAMPLERS &&
            in->sampler_type != ST_SAMPLER_NONE && out->tex[n].type != ST_SAMPLER_NONE &&
            out->tex[n].type != in->sampler_type) {
            char path[40];
            snprintf(path, sizeof(path), "textures.s%u.type", (unsigned)n);
            return fail(p, path, "\"%s\", but the shader declares s%u as dcl_%s", tex_name[out->tex[n].type],
                        (unsigned)n, tex_name[in->sampler_type]);
        }
        if (in->op == ST_OP_DEF && in->dst.reg.file == ST_REG_CONST && n < ST_RUN_NUM_CONSTS) {
            memcpy(out->c[n], in->imm.f, sizeof(out->c[n]));
            if (cgiven[n])
                what = "constants.c";
        } else if (in->op == ST_OP_DEFI && in->dst.reg.file == ST_REG_CONSTINT &&
                   n < ST_RUN_NUM_ICONSTS) {
            memcpy(out->i[n], in->imm.i, sizeof(out->i[n]));
            if (igiven[n])
                what = "int_constants.i";
        } else if (in->op == ST_OP_DEFB && in->dst.reg.file == ST_REG_CONSTBOOL &&
                   n < ST_RUN_NUM_BCONSTS) {
            out->b[n] = in->imm.b;
            if (bgiven[n])
                what = "bool_constants.b";
        }
        if (what) {
            if (p->name)
                st_warning(p->ctx, in->loc, ST_W_IGNORED,
                           "%s: %s%u: overridden by the shader's %s", p->name, what, (unsigned)n,
                           st_opinfo[in->op].name);
            else
                st_warning(p->ctx, in->loc, ST_W_IGNORED, "%s%u: overridden by the shader's %s",
                           what, (unsigned)n, st_opinfo[in->op].name);
        }
    }
    return true;
}

static bool arb_inputs_parse(struct parser *p, json_t *root, struct st_run_inputs *out);

bool st_run_inputs_parse(struct st_ctx *ctx, const struct st_shader *sh, const char *name,
                         const char *json, size_t len, struct st_arena *arena,
                         struct st_run_inputs *out)
{
    struct parser p = {.ctx = ctx, .sh = sh, .name = name, .arena = arena};
    /* Constants not given are (0,0,0,0), as Direct3D initialises them. */
    memset(out, 0, sizeof(*out));

    json_error_t err;
    json_t *root = json_loadb(json ? json : "", len, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        char where[64];
        snprintf(where, sizeof(where), "line %d, column %d", err.line, err.column);
        fail(&p, where, "%s", err.text);
        return false;
    }
    if (sh->dialect == ST_ARB) {
        bool aok = arb_inputs_parse(&p, root, out);
        json_decref(root);
        return aok;
    }
    bool cgiven[ST_RUN_NUM_CONSTS] = {0}, igiven[ST_RUN_NUM_ICONSTS] = {0},
         bgiven[ST_RUN_NUM_BCONSTS] = {0};
    bool ok = true;
    if (!json_is_object(root)) {
        ok = fail(&p, "$", "expected an object with \"invocations\", got %s", type_name(root));
    } else {
        const char *key;
        json_t *val;
        json_object_foreach(root, key, val) {
            if (strcmp(key, "constants") == 0)
                ok = parse_constants(&p, val, out, cgiven);
            else if (strcmp(key, "int_constants") == 0)
                ok = parse_int_constants(&p, val, out, igiven);
            else if (strcmp(key, "bool_constants") == 0)
                ok = parse_bool_constants(&p, val, out, bgiven);
            else if (strcmp(key, "textures") == 0)
                ok = parse_textures(&p, val, out);
            else if (strcmp(key, "bump_env") == 0)
                ok = parse_bump_env(&p, val, out);
            else if (strcmp(key, "invocations") == 0)
                ok = parse_invocations(&p, val, out);
            else {
                char path[PATHLEN];
                snprintf(path, sizeof(path), "%.40s", key);
                ok = fail(&p, path,
                          "unknown key (expected constants, int_constants, bool_constants, "
                          "textures, bump_env, invocations)");
            }
            if (!ok)
                break;
        }
        if (ok && !json_object_get(root, "invocations"))
            ok = fail(&p, "invocations", "missing");
    }
    json_decref(root);
    if (!ok)
        return false;
    return apply_defs(&p, out, cgiven, igiven, bgiven);
}

/* ------------------------------------------------------------------ */
/* ARB programs (docs/run-json.md, "ARB programs")                      */
/*
 * The same JSON shape with ARB names: "constants" keys are parameter
 * bindings ("program.env[3]", "state.matrix.mvp.row[0]"), "textures" keys
 * are "texture[n]", invocation keys are input bindings ("vertex.attrib[1]",
 * "fragment.texcoord[0]"), outputs are printed under their result.* names.
 */

static bool arb_is_output(const struct st_shader *sh, uint32_t j, const char *name)
{
    return j < sh->arb->num_outputs && strcmp(sh->arb->outputs[j].binding, name) == 0;
}

/* Position of an output binding in the fixed order of the outputs JSON. */
static unsigned arb_output_rank(const char *b)
{
    unsigned n;
    int end = 0;
    static const char *const fixed[] = {
        "result.position", "result.color", "result.color.secondary", "result.color.back",
        "result.color.back.secondary",
    };
    for (unsigned k = 0; k < sizeof(fixed) / sizeof(fixed[0]); k++)
        if (strcmp(b, fixed[k]) == 0)
            return k * 16; /* result.color is 16; result.color[n] 16 + n */
    if (sscanf(b, "result.color[%u]%n", &n, &end) == 1 && !b[end] && n < 16)
        return 16 + n;
    if (sscanf(b, "result.texcoord[%u]%n", &n, &end) == 1 && !b[end] && n < 16)
        return 100 + n;
    if (strcmp(b, "result.fogcoord") == 0)
        return 200;
    if (strcmp(b, "result.pointsize") == 0)
        return 201;
    if (strcmp(b, "result.depth") == 0)
        return 202;
    return 300;
}

/* The lane a scalar output is read from (x; result.depth: z); -1: a vector. */
static int arb_scalar_lane(const char *b)
{
    if (strcmp(b, "result.fogcoord") == 0 || strcmp(b, "result.pointsize") == 0)
        return 0;
    if (strcmp(b, "result.depth") == 0)
        return 2;
    return -1;
}

static const char *arb_output_binding(const struct st_shader *sh, uint32_t j)
{
    if (j < sh->arb->num_outputs)
        return sh->arb->outputs[j].binding;
    return "result.position"; /* ARB_position_invariant's */
}

/* The program's own input slot bound to `binding`, else a new one past
 * the program's: a value the program reads itself is not input twice. */
static int arb_input_slot(const struct st_arb_program *a, const char *binding, unsigned *nin)
{
    for (unsigned k = 0; k < a->num_inputs && k < ST_LL_IN_SLOTS; k++)
        if (strcmp(a->inputs[k].binding, binding) == 0)
            return (int)k;
    return (int)(*nin)++;
}

void st_arb_run_slots(const struct st_shader *sh, struct st_arb_run_slots *s)
{
    const struct st_arb_program *a = sh->arb;
    s->pos_in = s->fog_in = s->mvp_c = s->fog_c = s->pos_out = -1;
    s->num_c = a->num_params;
    unsigned nin = a->num_inputs;
    if (sh->version.type == ST_VS && (a->options & ST_ARB_OPT_POSITION_INVARIANT)) {
        s->pos_in = arb_input_slot(a, "vertex.position", &nin);
        s->mvp_c = (int)s->num_c;
        s->num_c += 4;
        s->pos_out = (int)a->num_outputs;
    }
    if (sh->version.type == ST_PS &&
        (a->options & (ST_ARB_OPT_FOG_EXP | ST_ARB_OPT_FOG_EXP2 | ST_ARB_OPT_FOG_LINEAR))) {
        s->fog_in = arb_input_slot(a, "fragment.fogcoord", &nin);
        s->fog_c = (int)s->num_c;
        s->num_c += 2;
    }
}

static unsigned arb_output_regs(const struct st_shader *sh,
                                struct st_run_output regs[ST_RUN_MAX_OUTPUTS])
{
    const struct st_arb_program *a = sh->arb;
    bool written[ST_LL_OUT_SLOTS] = {0};
    for (const struct st_instr *in = sh->first; in; in = in->next)
        if (in->has_dst && in->dst.reg.file == ST_REG_OUTPUT && in->dst.reg.index < ST_LL_OUT_SLOTS)
            written[in->dst.reg.index] = true;
    struct st_arb_run_slots s;
    st_arb_run_slots(sh, &s);
    if (s.pos_out >= 0 && s.pos_out < ST_LL_OUT_SLOTS)
        written[s.pos_out] = true;
    unsigned n = 0;
    for (uint32_t j = 0; j < ST_LL_OUT_SLOTS && n < ST_RUN_MAX_OUTPUTS; j++) {
        if (!written[j])
            continue;
        /* insertion by rank: at most ST_LL_OUT_SLOTS entries */
        unsigned rank = arb_output_rank(arb_output_binding(sh, j)), at = n;
        while (at > 0 && arb_output_rank(arb_output_binding(sh, regs[at - 1].index)) > rank) {
            regs[at] = regs[at - 1];
            at--;
        }
        memset(&regs[at], 0, sizeof(regs[at]));
        regs[at].file = ST_REG_OUTPUT;
        regs[at].index = j;
        regs[at].ncomp = arb_scalar_lane(arb_output_binding(sh, j)) >= 0 ? 1 : 4;
        n++;
    }
    (void)a;
    return n;
}

void st_run_collect(const struct st_shader *sh, const struct st_run_output *regs, unsigned nregs,
                    const float (*outslots)[4], bool discarded, struct st_run_outputs *o)
{
    static const float zero[4] = {0, 0, 0, 0};
    memset(o, 0, sizeof(*o));
    o->discarded = discarded;
    o->count = nregs;
    for (unsigned k = 0; k < nregs && k < ST_RUN_MAX_OUTPUTS; k++) {
        o->reg[k] = regs[k];
        int slot, lane = 0;
        if (sh->dialect == ST_ARB) {
            slot = regs[k].index < ST_LL_OUT_SLOTS ? (int)regs[k].index : -1;
            int l = arb_scalar_lane(arb_output_binding(sh, regs[k].index));
            lane = l > 0 ? l : 0;
        } else {
            slot = st_run_out_slot(regs[k].file, regs[k].index);
        }
        const float *src = slot >= 0 ? outslots[slot] : zero;
        if (regs[k].ncomp == 1) {
            o->reg[k].v[0] = src[lane];
        } else {
            memcpy(o->reg[k].v, src, sizeof(o->reg[k].v));
        }
        for (unsigned c = regs[k].ncomp; c < 4; c++)
            o->reg[k].v[c] = 0.0f;
    }
}

const char *st_run_output_label(const struct st_shader *sh, const struct st_run_output *r,
                                char buf[8])
{
    if (sh && sh->dialect == ST_ARB)
        return arb_output_binding(sh, r->index);
    st_run_output_name(r->file, r->index, buf);
    return buf;
}

void st_run_outputs_write_sh(const struct st_shader *sh, const struct st_run_outputs *outs,
                             unsigned n, struct st_buf *out)
{
    if (sh->dialect != ST_ARB) {
        st_run_outputs_write(outs, n, out);
        return;
    }
    st_buf_printf(out, "{\"invocations\": [");
    for (unsigned i = 0; i < n; i++) {
        const struct st_run_outputs *o = &outs[i];
        st_buf_printf(out, "%s\n  {", i ? "," : "");
        if (o->discarded) {
            st_buf_printf(out, "\"discarded\": true}");
            continue;
        }
        for (unsigned r = 0; r < o->count && r < ST_RUN_MAX_OUTPUTS; r++) {
            char name[8];
            st_buf_printf(out, "%s\"%s\": [", r ? ", " : "", st_run_output_label(sh, &o->reg[r], name));
            unsigned nc = o->reg[r].ncomp > 4 ? 4 : o->reg[r].ncomp;
            for (unsigned c = 0; c < nc; c++) {
                if (c)
                    st_buf_printf(out, ", ");
                put_float(out, o->reg[r].v[c]);
            }
            st_buf_putc(out, ']');
        }
        st_buf_putc(out, '}');
    }
    st_buf_printf(out, "%s]}\n", n ? "\n" : "");
}

bool st_run_engine(struct st_ctx *ctx, const struct st_shader *sh, const char *inputs_name,
                   const char *json, size_t json_len, enum st_float_rules rules,
                   st_run_execute_fn execute, void *user, struct st_buf *out)
{
    /* the inputs struct is large (constants, textures): on the heap */
    struct st_arena *arena = st_arena_create();
    if (arena)
        st_arena_report_to(arena, ctx);
    struct st_run_inputs *in = malloc(sizeof(*in));
    struct st_run_outputs *outs = NULL;
    bool ok = arena && in;
    if (!ok)
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
    if (ok)
        ok = st_run_inputs_parse(ctx, sh, inputs_name, json, json_len, arena, in);
    /* One budget rule for every engine, before any of them starts. */
    if (ok)
        ok = st_run_budget_check(ctx, sh, in);
    if (ok) {
        outs = calloc(in->num_invocations ? in->num_invocations : 1, sizeof(*outs));
        if (!outs) {
            st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
            ok = false;
        }
    }
    if (ok)
        ok = execute(user, ctx, sh, in, rules, outs);
    if (ok)
        st_run_outputs_write_sh(sh, outs, in->num_invocations, out);
    free(outs);
    free(in);
    st_arena_destroy(arena);
    return ok;
}

/* ---- fixed-function steps of the options ---- */

static float ff_mul(enum st_float_rules rules, float a, float b)
{
    if (rules == ST_FLOAT_D3D9 && (a == 0.0f || b == 0.0f))
        return 0.0f;
    return a * b;
}

const float *st_run_const(const struct st_run_inputs *in, uint32_t k)
{
    if (k < ST_RUN_NUM_CONSTS)
        return in->c[k];
    k -= ST_RUN_NUM_CONSTS;
    return in->c_more && k < in->num_c_more ? in->c_more[k] : NULL;
}

unsigned st_run_num_consts(const struct st_run_inputs *in)
{
    return ST_RUN_NUM_CONSTS + (in->c_more ? in->num_c_more : 0);
}

void st_arb_run_finish(const struct st_shader *sh, const struct st_run_inputs *in,
                       const float (*inslots)[4], float (*outslots)[4], enum st_float_rules rules,
                       bool fused)
{
    struct st_arb_run_slots s;
    st_arb_run_slots(sh, &s);
    if (s.pos_out >= 0 && s.pos_out < ST_LL_OUT_SLOTS && s.mvp_c >= 0 &&
        (unsigned)s.mvp_c + 3 < st_run_num_consts(in)) {
        /* ARB_position_invariant: the fixed-function transform, row r of
         * state.matrix.mvp dotted with vertex.position: a matrix
         * operation, so a dot product in both readings (docs/gensim.md,
         * rule 1; `fused`: in st_op_dot_term's order, each product after
         * the first rounded with its sum, as the kernel's mads). */
        const float *p = inslots[s.pos_in];
        bool legacy = rules == ST_FLOAT_D3D9;
        for (int r = 0; r < 4; r++) {
            const float *m = st_run_const(in, (uint32_t)(s.mvp_c + r));
            outslots[s.pos_out][r] = st_op_dot(legacy, fused, m, p, 4);
        }
    }
    if (s.fog_c >= 0 && (unsigned)s.fog_c + 1 < st_run_num_consts(in)) {
        /* ARB_fog_*: "fog applied to the program's final clamped color"
         * (ARB_fragment_program 3.11.4.5.1): result.color clamped to
         * [0, 1], then blended with the fog factor of OpenGL 1.5 section
         * 3.10, itself clamped to [0, 1].  The blend f C + (1 - f) Cfog is
         * a linear interpolation (ARB LRP's formula), so a multiply-add in
         * both readings (docs/gensim.md, rule 1): Cfog + f (C - Cfog)
         * with each step rounded, or, `fused`, the exact value rounded
         * once, as the kernel's `lrp` (under the d3d9 rule the kernel's
         * mad: the product rounded with the sum). */
        int color = -1;
        for (uint32_t j = 0; j < sh->arb->num_outputs; j++)
            if (arb_is_output(sh, j, "result.color"))
                color = (int)j;
        if (color < 0)
            return;
        const float *P = st_run_const(in, (uint32_t)s.fog_c), *FC = st_run_const(in, (uint32_t)s.fog_c + 1);
        float z = inslots[s.fog_in][0], f;
        uint32_t o = sh->arb->options;
        if (o & ST_ARB_OPT_FOG_LINEAR) {
            f = ff_mul(rules, P[2] - z, P[3]); /* (end - z) * 1/(end - start) */
        } else {
            float t = ff_mul(rules, P[0], z); /* density * z */
            if (o & ST_ARB_OPT_FOG_EXP2)
                t = ff_mul(rules, t, t);
            f = (float)exp(-(double)t);
        }
        f = st_op_saturate(f);
        float *c = outslots[color];
        for (int k = 0; k < 4; k++)
            c[k] = st_op_saturate(c[k]);
        for (int k = 0; k < 3; k++)
            c[k] = fused && rules != ST_FLOAT_D3D9
                       ? st_op_lrp_once(f, c[k], FC[k])
                       : st_op_muladd(rules == ST_FLOAT_D3D9, fused, f, c[k] - FC[k], FC[k]);
    }
}

/* ---- sampling ---- */

static uint32_t texel_wrap(float u, uint32_t n)
{
    if (!isfinite(u))
        return 0;
    double x = fmod(floor((double)u * n), (double)n);
    if (x < 0)
        x += n;
    uint32_t i = (uint32_t)x;
    return i < n ? i : n - 1;
}

/* Texel index of an unnormalized coordinate, clamped to the edge (cube
 * faces; rectangle textures, whose initial wrap is GL_CLAMP_TO_EDGE). */
static uint32_t texel_clamp(double x, uint32_t n)
{
    if (isnan(x))
        return 0;
    x = floor(x);
    if (x < 0)
        return 0;
    if (x >= n)
        return n - 1;
    return (uint32_t)x;
}

/* Cube maps: the major axis picks the face (x before y before z on ties),
 * sc/tc as in the Direct3D/OpenGL cube-map table; clamped on the face. */
static size_t cube_texel(const struct st_run_texture *t, const float c[3])
{
    float x = c[0], y = c[1], z = c[2];
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), ma, sc, tc;
    unsigned face;
    if (ax >= ay && ax >= az) {
        ma = ax, face = x >= 0 ? 0 : 1, sc = x >= 0 ? -z : z, tc = -y;
    } else if (ay >= az) {
        ma = ay, face = y >= 0 ? 2 : 3, sc = x, tc = y >= 0 ? z : -z;
    } else {
        ma = az, face = z >= 0 ? 4 : 5, sc = z >= 0 ? x : -x, tc = -y;
    }
    float s = (sc / ma + 1.0f) * 0.5f, tt = (tc / ma + 1.0f) * 0.5f;
    return ((size_t)face * t->height + texel_clamp((double)tt * t->height, t->height)) *
               t->width +
           texel_clamp((double)s * t->width, t->width);
}

void st_run_texel(const struct st_run_texture *t, const float c[3], float out[4])
{
    if (!t || t->type == ST_SAMPLER_NONE || !t->texels) {
        out[0] = out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
        return;
    }
    size_t at;
    if (t->type == ST_SAMPLER_2D)
        at = (size_t)texel_wrap(c[1], t->height) * t->width + texel_wrap(c[0], t->width);
    else if (t->type == ST_SAMPLER_VOLUME)
        at = ((size_t)texel_wrap(c[2], t->depth) * t->height + texel_wrap(c[1], t->height)) *
                 t->width +
             texel_wrap(c[0], t->width);
    else
        at = cube_texel(t, c);
    memcpy(out, t->texels[at], 4 * sizeof(float));
}

void st_arb_sample(const struct st_run_texture *t, enum st_arb_tex_target target, const float c[4],
                   float out[4])
{
    out[0] = out[1] = out[2] = 0.0f;
    out[3] = 1.0f;
    if (!t || !t->texels)
        return;
    size_t at;
    switch (target) {
    case ST_ARB_TEX_1D:
    case ST_ARB_TEX_SHADOW1D:
        if (t->type != ST_SAMPLER_2D)
            return;
        at = texel_wrap(c[0], t->width);
        break;
    case ST_ARB_TEX_2D:
    case ST_ARB_TEX_SHADOW2D:
        if (t->type != ST_SAMPLER_2D)
            return;
        at = (size_t)texel_wrap(c[1], t->height) * t->width + texel_wrap(c[0], t->width);
        break;
    case ST_ARB_TEX_RECT:
    case ST_ARB_TEX_SHADOWRECT:
        if (t->type != ST_SAMPLER_2D)
            return;
        at = (size_t)texel_clamp(c[1], t->height) * t->width +
             texel_clamp(c[0], t->width);
        break;
    case ST_ARB_TEX_3D:
        if (t->type != ST_SAMPLER_VOLUME)
            return;
        at = ((size_t)texel_wrap(c[2], t->depth) * t->height + texel_wrap(c[1], t->height)) *
                 t->width + texel_wrap(c[0], t->width);
        break;
    case ST_ARB_TEX_CUBE: {
        if (t->type != ST_SAMPLER_CUBE)
            return;
        at = cube_texel(t, c);
        break;
    }
    default:
        return;
    }
    const float *texel = t->texels[at];
    if (target == ST_ARB_TEX_SHADOW1D || target == ST_ARB_TEX_SHADOW2D ||
        target == ST_ARB_TEX_SHADOWRECT) {
        /* GL_TEXTURE_COMPARE_FUNC GL_LEQUAL against the depth in red;
         * GL_DEPTH_TEXTURE_MODE GL_LUMINANCE gives (L, L, L, 1). */
        float l = c[2] <= texel[0] ? 1.0f : 0.0f;
        out[0] = out[1] = out[2] = l;
        out[3] = 1.0f;
        return;
    }
    memcpy(out, texel, 4 * sizeof(float));
}

/* ---- inputs ---- */

/* "prefix[n]" exactly, n < limit. */
static bool arb_indexed(const char *key, const char *prefix, unsigned limit)
{
    size_t pl = strlen(prefix);
    if (strncmp(key, prefix, pl) != 0 || key[pl] != '[')
        return false;
    const char *d = key + pl + 1;
    unsigned long v = 0;
    int digits = 0;
    for (; *d >= '0' && *d <= '9' && digits < 6; d++, digits++)
        v = v * 10 + (unsigned long)(*d - '0');
    return digits > 0 && d[0] == ']' && !d[1] && v < limit;
}

/* Is `key` an input binding of this kind of program (canonical spelling)? */
static bool arb_valid_input(const struct st_shader *sh, const char *key)
{
    if (sh->version.type == ST_VS)
        return strcmp(key, "vertex.position") == 0 || strcmp(key, "vertex.normal") == 0 ||
               strcmp(key, "vertex.color") == 0 || strcmp(key, "vertex.color.secondary") == 0 ||
               strcmp(key, "vertex.fogcoord") == 0 || arb_indexed(key, "vertex.weight", 4) ||
               arb_indexed(key, "vertex.matrixindex", 4) ||
               arb_indexed(key, "vertex.texcoord", 8) || arb_indexed(key, "vertex.attrib", 16);
    return strcmp(key, "fragment.color") == 0 || strcmp(key, "fragment.color.secondary") == 0 ||
           strcmp(key, "fragment.fogcoord") == 0 || strcmp(key, "fragment.position") == 0 ||
           arb_indexed(key, "fragment.texcoord", 8);
}

static bool arb_valid_param(const char *key)
{
    float v[4];
    if (strncmp(key, "program.", 8) == 0)
        return arb_indexed(key, "program.env", 256) || arb_indexed(key, "program.local", 4096);
    return strncmp(key, "state.", 6) == 0 && st_arb_state_default(key, v);
}

static void arb_warn(struct parser *p, enum st_diag_code code, const char *path, const char *what)
{
    if (p->name)
        st_warning(p->ctx, (struct st_loc){0, 0}, code, "%s: %s: %s", p->name, path, what);
    else
        st_warning(p->ctx, (struct st_loc){0, 0}, code, "%s: %s", path, what);
}

/* Writable constant vector k (k < st_run_num_consts(in)). */
static float *cvec(struct st_run_inputs *in, unsigned k)
{
    return k < ST_RUN_NUM_CONSTS ? in->c[k] : in->c_more[k - ST_RUN_NUM_CONSTS];
}

static bool arb_parse_constants(struct parser *p, const json_t *obj, struct st_run_inputs *out,
                                const struct st_arb_run_slots *s)
{
    if (!json_is_object(obj))
        return fail(p, "constants", "expected an object, got %s", type_name(obj));
    const struct st_arb_program *a = p->sh->arb;
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)obj, key, val) {
        char path[PATHLEN];
        snprintf(path, sizeof(path), "constants.%.60s", key);
        if (!arb_valid_param(key))
            return fail(p, path, "not a parameter binding of an ARB program (program.env[n], "
                                 "program.local[n] or a state.* vector in its canonical name)");
        float v[4] = {0, 0, 0, 1};
        if (!get_vec(p, val, path, v))
            return false;
        bool used = false;
        for (unsigned i = 0; i < a->num_params && i < st_run_num_consts(out); i++)
            if (a->params[i].binding && strcmp(a->params[i].binding, key) == 0) {
                memcpy(cvec(out, i), v, sizeof(v));
                used = true;
            }
        int extra = -1;
        unsigned r;
        int end = 0;
        if (s->mvp_c >= 0 && sscanf(key, "state.matrix.mvp.row[%u]%n", &r, &end) == 1 && !key[end] &&
            r < 4)
            extra = s->mvp_c + (int)r;
        else if (s->fog_c >= 0 && strcmp(key, "state.fog.params") == 0)
            extra = s->fog_c;
        else if (s->fog_c >= 0 && strcmp(key, "state.fog.color") == 0)
            extra = s->fog_c + 1;
        if (extra >= 0 && (unsigned)extra < st_run_num_consts(out)) {
            memcpy(cvec(out, (unsigned)extra), v, sizeof(v));
            used = true;
        }
        if (!used)
            arb_warn(p, ST_W_IGNORED, path, "the program does not use this binding");
    }
    return true;
}

/* The texture type name a target needs. */
static const char *arb_target_type(enum st_arb_tex_target t)
{
    switch (t) {
    case ST_ARB_TEX_1D: case ST_ARB_TEX_SHADOW1D: return "1d";
    case ST_ARB_TEX_2D: case ST_ARB_TEX_SHADOW2D: return "2d";
    case ST_ARB_TEX_3D: return "3d";
    case ST_ARB_TEX_CUBE: return "cube";
    case ST_ARB_TEX_RECT: case ST_ARB_TEX_SHADOWRECT: return "rect";
    }
    return "?";
}

static bool arb_parse_textures(struct parser *p, const json_t *obj, struct st_run_inputs *out)
{
    if (!json_is_object(obj))
        return fail(p, "textures", "expected an object, got %s", type_name(obj));
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)obj, key, val) {
        char path[PATHLEN];
        snprintf(path, sizeof(path), "textures.%.40s", key);
        long n = -1;
        for (long k = 0; k < ST_RUN_NUM_SAMPLERS; k++) {
            char want[24];
            snprintf(want, sizeof(want), "texture[%ld]", k);
            if (strcmp(key, want) == 0)
                n = k;
        }
        if (n < 0)
            return fail(p, path, "not a texture image unit (texture[0]..texture[%d])",
                        ST_RUN_NUM_SAMPLERS - 1);
        if (!parse_texture(p, val, path, &out->tex[n]))
            return false;
        const char *given = json_string_value(json_object_get(val, "type"));
        for (const struct st_instr *in = p->sh->first; in; in = in->next) {
            if (!in->arb || (in->op != ST_OP_ARB_TEX && in->op != ST_OP_ARB_TXP &&
                             in->op != ST_OP_ARB_TXB) || in->arb->tex_unit != (uint32_t)n)
                continue;
            const char *want = arb_target_type(in->arb->tex_target);
            if (given && strcmp(given, want) != 0) {
                char sub[PATHLEN];
                snprintf(sub, sizeof(sub), "%.200s.type", path);
                return fail(p, sub, "\"%s\", but the program samples %s with target %s", given,
                            key, st_arb_tex_target_name(in->arb->tex_target));
            }
            break;
        }
    }
    return true;
}

static bool arb_parse_invocations(struct parser *p, const json_t *arr, struct st_run_inputs *out,
                                  const struct st_arb_run_slots *s)
{
    const struct st_arb_program *a = p->sh->arb;
    if (!json_is_array(arr))
        return fail(p, "invocations", "expected an array, got %s", type_name(arr));
    size_t n = json_array_size(arr);
    if (n > MAX_INVOCATIONS)
        return fail(p, "invocations", "more than %d invocations", MAX_INVOCATIONS);
    out->num_invocations = (unsigned)n;
    out->inv = n ? st_arena_alloc(p->arena, n * sizeof(*out->inv)) : NULL;
    if (st_arena_failed(p->arena))
        return out_of_memory(p);
    /* Unread inputs already warned about (once per name; valid names are
     * fewer than 48). */
    char warned[48][32];
    unsigned nwarned = 0;
    for (size_t i = 0; i < n; i++) {
        struct st_run_invocation *inv = &out->inv[i];
        for (int k = 0; k < ST_LL_IN_SLOTS; k++) {
            inv->in[k][0] = inv->in[k][1] = inv->in[k][2] = 0.0f;
            inv->in[k][3] = 1.0f;
        }
        const json_t *obj = json_array_get(arr, i);
        char path[PATHLEN];
        snprintf(path, sizeof(path), "invocations[%zu]", i);
        if (!json_is_object(obj))
            return fail(p, path, "expected an object, got %s", type_name(obj));
        const char *key;
        json_t *val;
        json_object_foreach((json_t *)obj, key, val) {
            char sub[PATHLEN];
            snprintf(sub, sizeof(sub), "%.200s.%.40s", path, key);
            if (!arb_valid_input(p->sh, key))
                return fail(p, sub, "not an input of an ARB %s program",
                            p->sh->version.type == ST_VS ? "vertex" : "fragment");
            float v[4] = {0, 0, 0, 1};
            if (!get_vec(p, val, sub, v))
                return false;
            bool used = false;
            for (unsigned k = 0; k < a->num_inputs && k < ST_LL_IN_SLOTS; k++)
                if (strcmp(a->inputs[k].binding, key) == 0) {
                    memcpy(inv->in[k], v, sizeof(v));
                    used = true;
                }
            int extra = -1;
            if (s->pos_in >= 0 && strcmp(key, "vertex.position") == 0)
                extra = s->pos_in;
            else if (s->fog_in >= 0 && strcmp(key, "fragment.fogcoord") == 0)
                extra = s->fog_in;
            if (extra >= 0 && extra < ST_LL_IN_SLOTS) {
                memcpy(inv->in[extra], v, sizeof(v));
                used = true;
            }
            bool seen = false;
            for (unsigned w = 0; w < nwarned && !seen; w++)
                seen = strcmp(warned[w], key) == 0;
            if (!used && !seen && nwarned < 48) {
                /* once per input: probably a typo or the wrong program */
                snprintf(warned[nwarned++], sizeof(warned[0]), "%s", key);
                arb_warn(p, ST_W_UNUSED_INPUT, sub, "the program never reads this input");
            }
        }
    }
    return true;
}

static bool arb_inputs_parse(struct parser *p, json_t *root, struct st_run_inputs *out)
{
    const struct st_arb_program *a = p->sh->arb;
    struct st_arb_run_slots s;
    st_arb_run_slots(p->sh, &s);
    if (a->num_inputs + 2 > ST_LL_IN_SLOTS || a->num_outputs + 1 > ST_LL_OUT_SLOTS) {
        st_error(p->ctx, a->end_loc, ST_E_NOT_SUPPORTED,
                 "running an ARB program with %u inputs and %u outputs is not supported",
                 a->num_inputs, a->num_outputs);
        return false;
    }
    if (s.num_c > ST_RUN_NUM_CONSTS) {
        /* only programs past the fixed part pay for the rest */
        out->num_c_more = s.num_c - ST_RUN_NUM_CONSTS;
        out->c_more = st_arena_alloc(p->arena, (size_t)out->num_c_more * sizeof(out->c_more[0]));
        if (!out->c_more) {
            out->num_c_more = 0;
            st_error(p->ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
            return false;
        }
    }
    /* Literals, and every binding at its OpenGL default until the file
     * says otherwise. */
    for (unsigned i = 0; i < a->num_params; i++)
        memcpy(cvec(out, i), a->params[i].value, sizeof(a->params[i].value));
    for (int r = 0; s.mvp_c >= 0 && r < 4; r++) {
        char b[32];
        snprintf(b, sizeof(b), "state.matrix.mvp.row[%d]", r);
        st_arb_state_default(b, cvec(out, (unsigned)s.mvp_c + (unsigned)r));
    }
    if (s.fog_c >= 0) {
        st_arb_state_default("state.fog.params", cvec(out, (unsigned)s.fog_c));
        st_arb_state_default("state.fog.color", cvec(out, (unsigned)s.fog_c + 1));
    }
    if (!json_is_object(root))
        return fail(p, "$", "expected an object with \"invocations\", got %s", type_name(root));
    const char *key;
    json_t *val;
    bool ok = true;
    json_object_foreach(root, key, val) {
        if (strcmp(key, "constants") == 0)
            ok = arb_parse_constants(p, val, out, &s);
        else if (strcmp(key, "textures") == 0)
            ok = arb_parse_textures(p, val, out);
        else if (strcmp(key, "invocations") == 0)
            ok = arb_parse_invocations(p, val, out, &s);
        else {
            char path[PATHLEN];
            snprintf(path, sizeof(path), "%.40s", key);
            ok = fail(p, path, "unknown key (an ARB program takes constants, textures, "
                               "invocations)");
        }
        if (!ok)
            return false;
    }
    if (!json_object_get(root, "invocations"))
        return fail(p, "invocations", "missing");
    return true;
}
