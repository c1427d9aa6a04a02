/*
 * opinfo.c — the instruction table expanded from opcodes.def, and the names
 * the printer and the diagnostics share.
 */
#include <string.h>
#include <strings.h>

#include "translator.h"

const struct st_opinfo st_opinfo[ST_OP_COUNT] = {
#define OP(e, nm, nd, ns, vsmin, vsmax, psmin, psmax, fl) \
    [ST_OP_##e] = {.name = nm, .ndst = nd, .nsrc = ns, .vs_min = vsmin, .vs_max = vsmax, \
                   .ps_min = psmin, .ps_max = psmax, .flags = fl},
#include "../opcodes.def"
#undef OP
};

int st_opcode_lookup(const char *name, size_t len)
{
    for (int i = 0; i < ST_OP_COUNT; i++)
        if (strlen(st_opinfo[i].name) == len && strncasecmp(st_opinfo[i].name, name, len) == 0)
            return i;
    return -1;
}

const char *const st_usage_names[ST_USAGE_COUNT] = {
    "position", "blendweight", "blendindices", "normal", "psize", "texcoord", "tangent",
    "binormal", "tessfactor", "positiont", "color", "fog", "depth", "sample",
};

const char *st_regfile_name(enum st_regfile file, uint32_t index)
{
    switch (file) {
    case ST_REG_TEMP: return "r";
    case ST_REG_INPUT: return "v";
    case ST_REG_CONST: return "c";
    case ST_REG_ADDR: return "a";
    case ST_REG_TEXTURE: return "t";
    case ST_REG_RASTOUT:
        return index == ST_RASTOUT_POS ? "oPos" : index == ST_RASTOUT_FOG ? "oFog" : "oPts";
    case ST_REG_ATTROUT: return "oD";
    case ST_REG_TEXCRDOUT: return "oT";
    case ST_REG_OUTPUT: return "o";
    case ST_REG_CONSTINT: return "i";
    case ST_REG_COLOROUT: return "oC";
    case ST_REG_DEPTHOUT: return "oDepth";
    case ST_REG_SAMPLER: return "s";
    case ST_REG_CONSTBOOL: return "b";
    case ST_REG_LOOP: return "aL";
    case ST_REG_LABEL: return "l";
    case ST_REG_PREDICATE: return "p";
    case ST_REG_MISC: return index == ST_MISC_POS ? "vPos" : "vFace";
    case ST_REG_COUNT: break;
    }
    return "?";
}

const char *st_compare_name(enum st_compare cmp)
{
    static const char *const names[] = {"", "gt", "eq", "ge", "lt", "ne", "le"};
    return names[cmp];
}

void st_writemask_str(uint8_t mask, char buf[6])
{
    char *p = buf;
    if ((mask & 0xf) != 0xf) {
        *p++ = '.';
        for (int i = 0; i < 4; i++)
            if (mask & (1u << i))
                *p++ = "xyzw"[i];
    }
    *p = '\0';
}

void st_swizzle_str(uint8_t swizzle, uint8_t len, char buf[6])
{
    char *p = buf;
    /* Canonical: nothing for identity, one letter for a replicate, else four. */
    if (swizzle != ST_SWIZZLE_IDENTITY) {
        *p++ = '.';
        unsigned x = ST_SWZ_LANE(swizzle, 0);
        bool replicate = true;
        for (int i = 1; i < 4; i++)
            if (ST_SWZ_LANE(swizzle, i) != x)
                replicate = false;
        if (replicate) {
            *p++ = "xyzw"[x];
        } else {
            for (int i = 0; i < 4; i++)
                *p++ = "xyzw"[ST_SWZ_LANE(swizzle, i)];
        }
    }
    (void)len;
    *p = '\0';
}
