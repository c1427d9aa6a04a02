/*
 * arb_check.c — the rules of ARB_vertex_program / ARB_fragment_program that
 * need the whole program: resource limits, attribute aliasing, bindings in
 * relatively addressed arrays, texture targets per unit, option conflicts.
 * Everything local to one operand (names, bindings, masks, swizzles,
 * indices) was already checked while parsing (arb_parser.y).
 *
 * Also the OpenGL default value of every state binding
 * (st_arb_state_default), which engines use for state the inputs JSON does
 * not give.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translator.h"

/*
 * The limits this implementation reports (GetProgramivARB).  Each is at
 * least the minimum the specifications require (second column); where the
 * minimum is lower, the value is the one of Mesa, whose behaviour the
 * piglit programs in the corpus assume (a valid piglit program binds 1021
 * local parameters, another writes result.texcoord[7]).  docs/arb.md lists
 * them.
 */
struct arb_limits {
    unsigned instructions, alu, tex, indirections, temps, params, attribs, address;
};
/*                                          instr  alu    tex    indir  temps params attr addr */
static const struct arb_limits vp_limits = {16384, 16384, 0,     0,     256,  4096,  16,  1};
static const struct arb_limits fp_limits = {16384, 16384, 16384, 16384, 256,  4096,  12,  0};
/* spec minimums:                     vp:    128,   -,     -,     -,     12,   96,    16,  1
 *                                    fp:     72,   48,    24,    4,     16,   24,    10,  - */

/* The generic attribute a conventional vertex attribute aliases (Table
 * X.2.1 of ARB_vertex_program), or -1. */
static int generic_alias(const char *b)
{
    unsigned n;
    if (strcmp(b, "vertex.position") == 0)
        return 0;
    if (strcmp(b, "vertex.weight[0]") == 0)
        return 1;
    if (strcmp(b, "vertex.normal") == 0)
        return 2;
    if (strcmp(b, "vertex.color") == 0)
        return 3;
    if (strcmp(b, "vertex.color.secondary") == 0)
        return 4;
    if (strcmp(b, "vertex.fogcoord") == 0)
        return 5;
    if (sscanf(b, "vertex.texcoord[%u]", &n) == 1)
        return 8 + (int)n;
    return -1;
}

static void check_options(struct st_ctx *ctx, const struct st_arb_program *a)
{
    /* bit numbers: 1..3 fog, 4..5 precision */
    unsigned fog = 0;
    for (int i = 1; i <= 3; i++)
        if (a->options & (1u << i))
            fog++;
    if (fog > 1) {
        struct st_loc last = {0, 0};
        for (int i = 1; i <= 3; i++)
            if ((a->options & (1u << i)) && (a->option_loc[i].line > last.line ||
                                              (a->option_loc[i].line == last.line &&
                                               a->option_loc[i].column > last.column)))
                last = a->option_loc[i];
        st_error(ctx, last, ST_E_ARB_OPTION,
                 "only one of ARB_fog_exp, ARB_fog_exp2 and ARB_fog_linear may be given");
    }
    if ((a->options & ST_ARB_OPT_PRECISION_FASTEST) && (a->options & ST_ARB_OPT_PRECISION_NICEST)) {
        struct st_loc l4 = a->option_loc[4], l5 = a->option_loc[5];
        bool later4 = l4.line > l5.line || (l4.line == l5.line && l4.column > l5.column);
        st_error(ctx, later4 ? l4 : l5, ST_E_ARB_OPTION,
                 "ARB_precision_hint_fastest and ARB_precision_hint_nicest exclude each other");
    }
}

static void check_aliasing(struct st_ctx *ctx, const struct st_arb_program *a)
{
    for (unsigned i = 0; i < a->num_inputs; i++) {
        unsigned n;
        if (sscanf(a->inputs[i].binding, "vertex.attrib[%u]", &n) != 1)
            continue;
        for (unsigned j = 0; j < a->num_inputs; j++) {
            if (generic_alias(a->inputs[j].binding) != (int)n)
                continue;
            const struct st_arb_binding *later = i > j ? &a->inputs[i] : &a->inputs[j];
            st_error(ctx, later->loc, ST_E_DCL_RULE,
                     "%s and %s are the same vertex attribute: a program may bind only one of them",
                     a->inputs[j].binding, a->inputs[i].binding);
        }
    }
}

/*
 * A set of keys (a tag byte and a string or bytes) remembering the first
 * index each was added with: the checks below ask "was this bound before?"
 * once per parameter, which a scan of the earlier ones made quadratic in
 * the program's length (a 100 KB program took seconds; issue 17).
 */
struct seen_set {
    struct seen_slot {
        uint64_t hash;
        const void *key;
        size_t len;
        unsigned char tag;
        unsigned first; /* UINT32_MAX: empty */
    } *slot;
    size_t cap; /* a power of two, at least twice the entries */
};

static bool seen_init(struct seen_set *set, size_t entries)
{
    set->cap = 16;
    while (set->cap < 2 * entries + 2)
        set->cap *= 2;
    set->slot = malloc(set->cap * sizeof(*set->slot));
    if (!set->slot)
        return false;
    for (size_t i = 0; i < set->cap; i++)
        set->slot[i].first = UINT32_MAX;
    return true;
}

/* The index the key was first added with; adds it with `index` (and
 * returns that) when it is new. */
static unsigned seen_first(struct seen_set *set, unsigned char tag, const void *key, size_t len,
                           unsigned index)
{
    uint64_t h = 0xcbf29ce484222325ull ^ tag;
    for (size_t i = 0; i < len; i++)
        h = (h ^ ((const unsigned char *)key)[i]) * 0x100000001b3ull;
    for (size_t i = (size_t)h & (set->cap - 1);; i = (i + 1) & (set->cap - 1)) {
        struct seen_slot *sl = &set->slot[i];
        if (sl->first == UINT32_MAX) {
            *sl = (struct seen_slot){h, key, len, tag, index};
            return index;
        }
        if (sl->hash == h && sl->tag == tag && sl->len == len && memcmp(sl->key, key, len) == 0)
            return sl->first;
    }
}

/* A state vector bound in a relatively addressed array must be bound
 * nowhere else in such arrays (ARB_vertex_program 2.14.3.2). */
static void check_relative_arrays(struct st_ctx *ctx, const struct st_arb_program *a)
{
    struct seen_set set;
    if (!seen_init(&set, a->num_params)) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        return;
    }
    for (unsigned i = 0; i < a->num_params; i++) {
        const struct st_arb_param *p = &a->params[i];
        if (p->array < 0 || !a->arrays[p->array].relative || p->kind == ST_ARB_PARAM_CONST)
            continue;
        unsigned j = seen_first(&set, 0, p->binding, strlen(p->binding), i);
        if (j == i)
            continue;
        const struct st_arb_param *q = &a->params[j];
        if (p->array == q->array)
            st_error(ctx, p->loc, ST_E_DCL_RULE,
                     "%s is bound twice in '%s', an array indexed with an address register",
                     p->binding, a->arrays[p->array].name);
        else
            st_error(ctx, p->loc, ST_E_DCL_RULE,
                     "%s is bound in '%s' and in '%s', arrays indexed with an address register",
                     p->binding, a->arrays[q->array].name, a->arrays[p->array].name);
    }
    free(set.slot);
}

/* Program parameter bindings as the specifications count them. */
static unsigned count_params(const struct st_arb_program *a)
{
    struct seen_set set;
    if (!seen_init(&set, a->num_params))
        return 0; /* the program's other checks still run; out of memory shows there */
    unsigned n = 0;
    for (unsigned i = 0; i < a->num_params; i++) {
        const struct st_arb_param *p = &a->params[i];
        bool relative = p->array >= 0 && a->arrays[p->array].relative;
        /* a literal in a relatively addressed array has a slot of its own;
         * other literals share one per value, bindings one per name */
        if (p->kind == ST_ARB_PARAM_CONST && relative)
            n++;
        else if (p->kind == ST_ARB_PARAM_CONST)
            n += seen_first(&set, (unsigned char)p->kind, p->value, sizeof(p->value), i) == i;
        else
            n += seen_first(&set, (unsigned char)p->kind, p->binding, strlen(p->binding), i) == i;
    }
    free(set.slot);
    return n;
}

static void check_textures(struct st_ctx *ctx, const struct st_shader *sh)
{
    /* the first instruction that samples each unit with each target, and
     * its position in the program */
    enum { UNITS = 32, TARGETS = 8 };
    const struct st_instr *first[UNITS][TARGETS];
    unsigned pos[UNITS][TARGETS];
    memset(first, 0, sizeof(first));
    unsigned n = 0;
    for (const struct st_instr *in = sh->first; in; in = in->next, n++) {
        if (in->op != ST_OP_ARB_TEX && in->op != ST_OP_ARB_TXP && in->op != ST_OP_ARB_TXB)
            continue;
        unsigned u = in->arb->tex_unit, t = (unsigned)in->arb->tex_target;
        if (u >= UNITS || t >= TARGETS)
            continue; /* the parser has reported the unit */
        if (!first[u][t]) {
            first[u][t] = in;
            pos[u][t] = n;
        }
        /* the earliest instruction of another target on this unit */
        int p = -1;
        for (unsigned k = 0; k < TARGETS; k++)
            if (k != t && first[u][k] && (p < 0 || pos[u][k] < pos[u][p]))
                p = (int)k;
        if (p >= 0)
            st_error(ctx, in->src[1].loc, ST_E_TEX_RULE,
                     "texture[%u] is sampled as %s (line %u) and as %s: one texture unit "
                     "has one target per program", in->arb->tex_unit,
                     st_arb_tex_target_name(first[u][p]->arb->tex_target), first[u][p]->loc.line,
                     st_arb_tex_target_name(in->arb->tex_target));
    }
}

/* Texture indirections (ARB_fragment_program 3.11.6): a texture
 * instruction starts a new node when its coordinate is a temporary written
 * in the current node, or its result is a temporary read or written by an
 * ALU instruction of the current node. */
static unsigned count_indirections(const struct st_shader *sh)
{
    unsigned nodes = 1, nt = sh->arb->num_temps;
    unsigned char *written = calloc(nt ? nt : 1, 1), *touched = calloc(nt ? nt : 1, 1);
    if (!written || !touched) {
        free(written);
        free(touched);
        return 1;
    }
    for (const struct st_instr *in = sh->first; in; in = in->next) {
        bool tex = in->op == ST_OP_ARB_TEX || in->op == ST_OP_ARB_TXP || in->op == ST_OP_ARB_TXB ||
                   in->op == ST_OP_ARB_KIL;
        if (tex) {
            const struct st_src *c = &in->src[0];
            bool dep = c->reg.file == ST_REG_TEMP && written[c->reg.index];
            if (in->has_dst && in->dst.reg.file == ST_REG_TEMP && touched[in->dst.reg.index])
                dep = true;
            if (dep) {
                nodes++;
                memset(written, 0, nt);
                memset(touched, 0, nt);
            }
        } else {
            for (unsigned i = 0; i < in->nsrc; i++)
                if (in->src[i].reg.file == ST_REG_TEMP)
                    touched[in->src[i].reg.index] = 1;
        }
        if (in->has_dst && in->dst.reg.file == ST_REG_TEMP) {
            written[in->dst.reg.index] = 1;
            if (!tex)
                touched[in->dst.reg.index] = 1;
        }
    }
    free(written);
    free(touched);
    return nodes;
}

static void limit(struct st_ctx *ctx, struct st_loc loc, const char *what, unsigned used,
                  unsigned max, const char *why)
{
    if (used > max)
        st_error(ctx, loc, ST_E_ARB_LIMIT, "the program uses %u %s; the limit is %u%s", used,
                 what, max, why);
}

bool st_check_arb(struct st_ctx *ctx, struct st_shader *sh)
{
    const struct st_arb_program *a = sh->arb;
    unsigned before = st_error_count(ctx);
    if (!a)
        return false;
    bool vp = sh->version.type == ST_VS;
    const struct arb_limits *lim = vp ? &vp_limits : &fp_limits;

    check_options(ctx, a);
    if (vp)
        check_aliasing(ctx, a);
    check_relative_arrays(ctx, a);
    if (!vp)
        check_textures(ctx, sh);

    unsigned alu = 0, tex = 0;
    if (!st_poll(ctx, sh->num_instrs)) /* the checks above are linear in the program */
        return false;
    for (const struct st_instr *in = sh->first; in; in = in->next) {
        bool t = in->op == ST_OP_ARB_TEX || in->op == ST_OP_ARB_TXP || in->op == ST_OP_ARB_TXB ||
                 in->op == ST_OP_ARB_KIL;
        if (t)
            tex++;
        else
            alu++;
    }
    /* Options that make the implementation append code lower the limits. */
    unsigned instr_less = 0, temp_less = 0, attr_less = 0, param_less = 0;
    const char *why = "";
    if (a->options & ST_ARB_OPT_POSITION_INVARIANT) {
        instr_less = 4;
        why = " (minus 4 with ARB_position_invariant)";
    }
    if (a->options & (ST_ARB_OPT_FOG_EXP | ST_ARB_OPT_FOG_EXP2 | ST_ARB_OPT_FOG_LINEAR)) {
        instr_less = (a->options & ST_ARB_OPT_FOG_EXP2) ? 4 : (a->options & ST_ARB_OPT_FOG_EXP) ? 3 : 2;
        temp_less = attr_less = 1;
        param_less = 2;
        why = " (lowered by the ARB_fog option)";
    }
    struct st_loc end = a->end_loc;
    limit(ctx, end, "instructions", alu + tex, lim->instructions - instr_less, why);
    if (!vp) {
        limit(ctx, end, "ALU instructions", alu, lim->alu - instr_less, why);
        limit(ctx, end, "texture instructions", tex, lim->tex, "");
        limit(ctx, end, "texture indirections", count_indirections(sh), lim->indirections, "");
    }
    limit(ctx, end, "temporaries", a->num_temps, lim->temps - temp_less, why);
    limit(ctx, end, "attributes", a->num_inputs, lim->attribs - attr_less, why);
    limit(ctx, end, "program parameters", count_params(a), lim->params - param_less, why);
    if (vp)
        limit(ctx, end, "address registers", a->num_addrs, lim->address, "");
    return st_error_count(ctx) == before;
}

/* ------------------------------------------------------------------ */
/* OpenGL default state (OpenGL 1.5 state tables; docs/arb.md).        */

static void set4(float out[4], float x, float y, float z, float w)
{
    out[0] = x;
    out[1] = y;
    out[2] = z;
    out[3] = w;
}

bool st_arb_state_default(const char *b, float out[4])
{
    unsigned n, row;
    char word[32];
    set4(out, 0, 0, 0, 0);
    if (strncmp(b, "program.env[", 12) == 0 || strncmp(b, "program.local[", 14) == 0)
        return true; /* parameters start as (0, 0, 0, 0) */
    if (strncmp(b, "state.", 6) != 0)
        return false;
    const char *s = b + 6;
    /* Every matrix is the identity, and so are its inverse and transpose. */
    if (strncmp(s, "matrix.", 7) == 0) {
        const char *r = strstr(s, ".row[");
        if (!r || sscanf(r, ".row[%u]", &row) != 1 || row > 3)
            return false;
        out[row] = 1.0f;
        return true;
    }
    if (strncmp(s, "material.", 9) == 0) {
        const char *prop = strrchr(s, '.') + 1;
        if (strcmp(prop, "ambient") == 0)
            set4(out, 0.2f, 0.2f, 0.2f, 1.0f);
        else if (strcmp(prop, "diffuse") == 0)
            set4(out, 0.8f, 0.8f, 0.8f, 1.0f);
        else /* specular, emission: (0,0,0,1); shininess 0 -> (0,0,0,1) */
            set4(out, 0.0f, 0.0f, 0.0f, 1.0f);
        return true;
    }
    if (sscanf(s, "light[%u].%31s", &n, word) == 2) {
        if (strcmp(word, "ambient") == 0)
            set4(out, 0, 0, 0, 1);
        else if (strcmp(word, "diffuse") == 0 || strcmp(word, "specular") == 0)
            set4(out, n == 0 ? 1.0f : 0.0f, n == 0 ? 1.0f : 0.0f, n == 0 ? 1.0f : 0.0f, 1.0f);
        else if (strcmp(word, "position") == 0)
            set4(out, 0, 0, 1, 0);
        else if (strcmp(word, "attenuation") == 0)
            set4(out, 1, 0, 0, 0); /* constant 1, linear 0, quadratic 0, spot exponent 0 */
        else if (strcmp(word, "spot.direction") == 0)
            set4(out, 0, 0, -1, -1); /* cos(180 degrees) */
        else if (strcmp(word, "half") == 0)
            set4(out, 0, 0, 1, 1); /* normalize((0,0,1) + (0,0,1)) */
        else
            return false;
        return true;
    }
    if (strcmp(s, "lightmodel.ambient") == 0) {
        set4(out, 0.2f, 0.2f, 0.2f, 1.0f);
        return true;
    }
    if (strcmp(s, "lightmodel.scenecolor") == 0 || strcmp(s, "lightmodel.back.scenecolor") == 0) {
        /* a_cs * a_cm + e_cm = 0.2 * 0.2 + 0; alpha of the diffuse material */
        float c = 0.2f * 0.2f;
        set4(out, c, c, c, 1.0f);
        return true;
    }
    /* The inputs JSON asks here about any key it is given (run_io.c):
     * a key cut short has no '.' before its member. */
    const char *dot = strrchr(s, '.');
    if (sscanf(s, "lightprod[%u]", &n) == 1) {
        if (!dot)
            return false;
        const char *prop = dot + 1;
        float l = 0.0f; /* light color times material color */
        if (strcmp(prop, "diffuse") == 0)
            l = n == 0 ? 0.8f : 0.0f;  /* light 0 diffuse 1 * material 0.8 */
        set4(out, l, l, l, 1.0f);     /* ambient: 0 * 0.2; specular: 1 * 0 */
        return true;
    }
    if (strncmp(s, "texgen[", 7) == 0) {
        if (!dot)
            return false;
        const char *coord = dot + 1;
        if (strcmp(coord, "s") == 0)
            set4(out, 1, 0, 0, 0);
        else if (strcmp(coord, "t") == 0)
            set4(out, 0, 1, 0, 0);
        return true; /* r, q: (0,0,0,0) */
    }
    if (strcmp(s, "fog.color") == 0)
        return true;
    if (strcmp(s, "fog.params") == 0) {
        set4(out, 1, 0, 1, 1); /* density 1, start 0, end 1, 1/(end-start) */
        return true;
    }
    if (strncmp(s, "clip[", 5) == 0)
        return true;
    if (strcmp(s, "point.size") == 0) {
        set4(out, 1, 0, 64, 1); /* size, min, max (ours: 64), fade threshold */
        return true;
    }
    if (strcmp(s, "point.attenuation") == 0) {
        set4(out, 1, 0, 0, 1);
        return true;
    }
    if (strncmp(s, "texenv[", 7) == 0)
        return true;
    if (strcmp(s, "depth.range") == 0) {
        set4(out, 0, 1, 1, 1); /* near, far, far - near, 1 */
        return true;
    }
    return false;
}
