/*
 * ctab.c — the constant table compilers put in a comment block ("CTAB"):
 * which registers each named constant of the source occupies.  Read for
 * the disassembly (print.c lists it) and for reflection (names).
 *
 * The block after its "CTAB" dword is a little-endian structure whose
 * offsets count from its start: a 28-byte header (size, creator string,
 * version, constant count, offset of the constant records, flags, target
 * string), 20-byte constant records (name, register set, index, count,
 * type record, default value) and 16-byte type records (class, type,
 * rows, columns, elements, members).  Every offset and string is checked
 * against the block; a table that does not fit is reported as malformed,
 * never read past its end.
 */
#include <string.h>

#include "bc_priv.h"

struct blk {
    const unsigned char *b;
    uint32_t len;
};

static bool u32_at(const struct blk *k, uint32_t off, uint32_t *v)
{
    if (off > k->len || k->len - off < 4)
        return false;
    const unsigned char *p = k->b + off;
    *v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    return true;
}

static bool u16_at(const struct blk *k, uint32_t off, uint16_t *v)
{
    if (off > k->len || k->len - off < 2)
        return false;
    *v = (uint16_t)(k->b[off] | k->b[off + 1] << 8);
    return true;
}

/* A NUL-terminated string inside the block, copied (offset 0: ""). */
static const char *str_at(const struct blk *k, uint32_t off, struct st_arena *a, bool *ok)
{
    if (off == 0)
        return "";
    if (off >= k->len) {
        *ok = false;
        return "";
    }
    const void *nul = memchr(k->b + off, 0, k->len - off);
    if (!nul) {
        *ok = false;
        return "";
    }
    return st_arena_strndup(a, (const char *)k->b + off, (size_t)((const unsigned char *)nul - (k->b + off)));
}

const struct st_ctab *st_d3d9_parse_ctab(const uint32_t *data, uint32_t ndwords,
                                         struct st_arena *arena, const char **why)
{
    *why = NULL;
    if (ndwords < 1 || data[0] != BC_FOURCC_CTAB)
        return NULL;
    /* The dwords as bytes, little-endian whatever the host. */
    uint32_t len = (ndwords - 1) * 4;
    unsigned char *bytes = st_arena_alloc(arena, len ? len : 1);
    if (st_arena_failed(arena)) {
        *why = "out of memory";
        return NULL;
    }
    for (uint32_t i = 0; i < ndwords - 1; i++) {
        uint32_t v = data[1 + i];
        bytes[4 * i] = (unsigned char)v;
        bytes[4 * i + 1] = (unsigned char)(v >> 8);
        bytes[4 * i + 2] = (unsigned char)(v >> 16);
        bytes[4 * i + 3] = (unsigned char)(v >> 24);
    }
    struct blk k = {bytes, len};
    uint32_t size, creator, version, count, info, flags, target;
    if (!u32_at(&k, 0, &size) || !u32_at(&k, 4, &creator) || !u32_at(&k, 8, &version) ||
        !u32_at(&k, 12, &count) || !u32_at(&k, 16, &info) || !u32_at(&k, 20, &flags) ||
        !u32_at(&k, 24, &target)) {
        *why = "the block is shorter than the table's 28-byte header";
        return NULL;
    }
    if (size < 28 || size > len) {
        *why = "the header's size field is not the header's size";
        return NULL;
    }
    if (count > len / 20 || (count && (info > len || (len - info) / 20 < count))) {
        *why = "the constant records run past the end of the block";
        return NULL;
    }
    struct st_ctab *t = st_arena_alloc(arena, sizeof(*t));
    t->constants = st_arena_alloc(arena, (size_t)(count ? count : 1) * sizeof(*t->constants));
    if (st_arena_failed(arena)) {
        *why = "out of memory";
        return NULL;
    }
    bool ok = true;
    t->creator = str_at(&k, creator, arena, &ok);
    t->target = str_at(&k, target, arena, &ok);
    t->version = version;
    t->flags = flags;
    if (!ok) {
        *why = "the creator or target string lies outside the block";
        return NULL;
    }
    for (uint32_t c = 0; c < count; c++) {
        uint32_t r = info + c * 20, name, tinfo;
        uint16_t set, index, regs;
        struct st_ctab_constant *ct = &t->constants[c];
        if (!u32_at(&k, r, &name) || !u16_at(&k, r + 4, &set) || !u16_at(&k, r + 6, &index) ||
            !u16_at(&k, r + 8, &regs) || !u32_at(&k, r + 12, &tinfo)) {
            *why = "a constant record runs past the end of the block";
            return NULL;
        }
        ct->name = str_at(&k, name, arena, &ok);
        if (!ok) {
            *why = "a constant's name lies outside the block";
            return NULL;
        }
        static const enum st_regfile sets[] = {ST_REG_CONSTBOOL, ST_REG_CONSTINT, ST_REG_CONST,
                                               ST_REG_SAMPLER};
        if (set > 3) {
            *why = "a constant's register set is none of bool, int4, float4, sampler";
            return NULL;
        }
        ct->file = sets[set];
        ct->index = index;
        ct->count = regs;
        if (tinfo) {
            if (!u16_at(&k, tinfo, &ct->klass) || !u16_at(&k, tinfo + 2, &ct->type) ||
                !u16_at(&k, tinfo + 4, &ct->rows) || !u16_at(&k, tinfo + 6, &ct->columns) ||
                !u16_at(&k, tinfo + 8, &ct->elements)) {
                *why = "a constant's type record lies outside the block";
                return NULL;
            }
        }
    }
    t->num_constants = count;
    if (st_arena_failed(arena)) {
        *why = "out of memory";
        return NULL;
    }
    return t;
}
