/*
 * shadergen.c — random valid Direct3D 9 shaders and inputs (shadergen.h).
 *
 * The generator keeps validity by construction rather than by retrying:
 * - a prologue gives every temporary of the pool all four lanes (each one
 *   built from one to four partial writes, so merges start right away), the
 *   address register a0 (from an input that only holds small numbers), and
 *   p0 (from a per-invocation comparison); after that any read is defined;
 * - outputs are written completely by an epilogue at the top level of the
 *   main program, again in parts, and then some of them are overwritten in
 *   part under per-invocation conditions;
 * - the loop-count constants are generated here too, so the range of aL in
 *   each loop is known and every c[aL + n] / v[aL + n] stays in its file;
 * - per instruction at most one distinct c# and one distinct input register
 *   are read (the vs read ports; ps_2_x is as strict for inputs);
 * - dsx/dsy only appear where all the lanes of a quad run together (the top
 *   level of the main program): derivatives in divergent flow are undefined
 *   in Direct3D 9, so they would compare the engines' choices, not bugs.
 * ps_1_1 .. ps_1_4 have a small generator of their own (gen_ps1x): two
 * (1_4: six) colour registers tracked lane by lane, texture stages first,
 * co-issued colour/alpha pairs, the ps_1_x source and result modifiers, at
 * most two distinct c# and two distinct v#/t# per instruction, r0 written
 * whole at the end.
 * The checker has the last word: test_fuzz.c asserts it accepts every
 * shader generated here.
 */
#include "shadergen.h"
#include "test_rng.h"  /* struct rng, rnd, below, chance */
#include "test_util.h" /* struct gen_buf, gen_printf */

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Growing text buffer and random numbers.                             */


/* ------------------------------------------------------------------ */
/* Versions and opcodes.                                               */

#define VB(v) (1u << (v))
#define VS_ALL (VB(SG_VS11) | VB(SG_VS20) | VB(SG_VS2X) | VB(SG_VS30))
#define PS_ALL (VB(SG_PS20) | VB(SG_PS2X) | VB(SG_PS30))
#define ALL (VS_ALL | PS_ALL)
#define V20UP (ALL & ~VB(SG_VS11))
#define VS20UP (VS_ALL & ~VB(SG_VS11))

const char *sg_version_name(enum sg_version v)
{
    static const char *const names[SG_NUM_VERSIONS] = {
        "vs_1_1", "vs_2_0", "vs_2_x", "vs_3_0", "ps_2_0", "ps_2_x",
        "ps_3_0", "ps_1_1", "ps_1_2", "ps_1_3", "ps_1_4"};
    return (unsigned)v < SG_NUM_VERSIONS ? names[v] : "?";
}

enum op_kind {
    K_VEC,    /* any writemask, sources with any swizzle */
    K_SCALAR, /* replicate-swizzled sources; vs writes one lane */
    K_MAT,    /* mNxM: fixed writemask, src1 a constant */
    K_CRS,
    K_SINCOS,
    K_SGN,
    K_DP2ADD,
    K_FRC,
    K_DERIV,
};

struct opdef {
    const char *name;
    unsigned char nsrc, kind;
    unsigned short vers;
    unsigned char mask; /* K_MAT: the lanes written */
};

static const struct opdef ops[] = {
    {"add", 2, K_VEC, ALL, 0},      {"sub", 2, K_VEC, ALL, 0},
    {"mul", 2, K_VEC, ALL, 0},      {"mad", 3, K_VEC, ALL, 0},
    {"mov", 1, K_VEC, ALL, 0},      {"dp3", 2, K_VEC, ALL, 0},
    {"dp4", 2, K_VEC, ALL, 0},      {"min", 2, K_VEC, ALL, 0},
    {"max", 2, K_VEC, ALL, 0},      {"slt", 2, K_VEC, VS_ALL, 0},
    {"sge", 2, K_VEC, VS_ALL, 0},   {"rcp", 1, K_SCALAR, ALL, 0},
    {"rsq", 1, K_SCALAR, ALL, 0},   {"exp", 1, K_SCALAR, ALL, 0},
    {"log", 1, K_SCALAR, ALL, 0},   {"expp", 1, K_SCALAR, VS_ALL, 0},
    {"logp", 1, K_SCALAR, VS_ALL, 0}, {"pow", 2, K_SCALAR, V20UP, 0},
    {"frc", 1, K_FRC, ALL, 0},      {"lit", 1, K_VEC, VS_ALL, 0},
    {"dst", 2, K_VEC, VS_ALL, 0},   {"abs", 1, K_VEC, V20UP, 0},
    {"lrp", 3, K_VEC, V20UP, 0},    {"nrm", 1, K_VEC, V20UP, 0},
    {"crs", 2, K_CRS, V20UP, 0},    {"sgn", 3, K_SGN, VS20UP, 0},
    {"sincos", 1, K_SINCOS, V20UP, 0}, {"cmp", 3, K_VEC, PS_ALL, 0},
    {"dp2add", 3, K_DP2ADD, PS_ALL, 0}, {"m4x4", 2, K_MAT, ALL, 0xf},
    {"m4x3", 2, K_MAT, ALL, 0x7},   {"m3x4", 2, K_MAT, ALL, 0xf},
    {"m3x3", 2, K_MAT, ALL, 0x7},   {"m3x2", 2, K_MAT, ALL, 0x3},
    {"dsx", 1, K_DERIV, VB(SG_PS2X) | VB(SG_PS30), 0},
    {"dsy", 1, K_DERIV, VB(SG_PS2X) | VB(SG_PS30), 0},
};
enum { NUM_OPS = sizeof(ops) / sizeof(ops[0]) };

static const char *const cmps[6] = {"gt", "lt", "ge", "le", "eq", "ne"};

/* ------------------------------------------------------------------ */
/* Generator state.                                                    */

enum { MAX_ICONST = 4, MAX_BCONST = 4, MAX_SAMPLERS = 3 };
enum samp_type { SAMP_2D, SAMP_CUBE, SAMP_VOLUME };

struct gen {
    struct rng r;
    struct gen_buf t;
    enum sg_version v;
    bool vs, ps;
    bool flow;    /* static flow control: if b#, rep, call */
    bool dyn;     /* dynamic flow control: if_comp, break, setp, predication */
    bool loop_al; /* loop aL, i# */
    bool anyswz;  /* arbitrary source swizzles */
    bool srcabs;  /* _abs source modifier (3_0) */
    bool sat;     /* _sat result modifier */
    unsigned pp_percent; /* pixel shader instructions marked _pp (default 8) */
    unsigned ntemps, nconst, ninputs, ntex;
    unsigned c_sc1, c_sc2; /* D3DSINCOSCONST1/2, from def */
    unsigned c_misc;       /* (0, 1, 0.5, -1), from def */
    int idx_input;         /* vs: the input holding small numbers for a0 */
    unsigned max_loop_depth;
    /* int constants, known so that aL ranges are known */
    int icount[MAX_ICONST], istart[MAX_ICONST], istep[MAX_ICONST];
    bool idef[MAX_ICONST];
    bool bdef[MAX_BCONST], bval[MAX_BCONST];
    unsigned nsamp;
    enum samp_type stype[MAX_SAMPLERS];
    unsigned nsub;
    bool vpos, vface;
    unsigned nout_t; /* vs < 3_0: oT0..; vs_3_0: o1.. */
    bool out_d1, out_fog, out_pts, out_c1, out_depth;
    /* ps_1_x */
    unsigned ps1_cdef, ps1_nstage;
    bool ps1_stage[6];
    /* where the generator is */
    unsigned ready;        /* temps r0..ready-1 have all lanes written */
    bool a0_ready, p0_ready;
    unsigned loop_depth, block_depth, flow_count;
    bool in_loop, al_valid, dynamic;
    unsigned in_sub; /* the label being generated, 0 in the main program */
    int al_min, al_max;
    unsigned budget; /* instructions left for the body */
    /* per-instruction read ports */
    char cport[48], vport[48];
};

/* ------------------------------------------------------------------ */
/* Operands.                                                           */

enum swz_need { SW_ANY, SW_REPL, SW_NONE, SW_XY };

static const char lanes[] = "xyzw";

static void put_swizzle(struct gen *g, struct gen_buf *b, enum swz_need need)
{
    struct rng *r = &g->r;
    switch (need) {
    case SW_NONE:
        return;
    case SW_REPL:
        gen_printf(b, ".%c", lanes[below(r, 4)]);
        return;
    case SW_XY: /* vPos: only x and y exist */
        if (chance(r, 50))
            gen_printf(b, ".%c", "xy"[below(r, 2)]);
        else
            gen_printf(b, ".%c%c%c%c", "xy"[below(r, 2)], "xy"[below(r, 2)], "xy"[below(r, 2)],
                      "xy"[below(r, 2)]);
        return;
    case SW_ANY:
        break;
    }
    unsigned k = below(r, 100);
    if (!g->anyswz) {
        static const char *const ps20[] = {".yzxw", ".zxyw", ".wzyx"};
        if (k < 40)
            return;
        if (k < 75)
            gen_printf(b, ".%c", lanes[below(r, 4)]);
        else
            gen_printf(b, "%s", ps20[below(r, 3)]);
        return;
    }
    if (k < 30)
        return;
    if (k < 50) {
        gen_printf(b, ".%c", lanes[below(r, 4)]);
        return;
    }
    unsigned n = k < 60 ? 2 + below(r, 2) : 4; /* short forms repeat the last letter */
    gen_printf(b, ".");
    for (unsigned i = 0; i < n; i++)
        gen_printf(b, "%c", lanes[below(r, 4)]);
}

static void put_mask(struct gen_buf *b, unsigned mask)
{
    if (mask == 0xf)
        return;
    gen_printf(b, ".");
    for (unsigned i = 0; i < 4; i++)
        if (mask & (1u << i))
            gen_printf(b, "%c", lanes[i]);
}

static unsigned rand_mask(struct rng *r)
{
    if (chance(r, 30))
        return 0xf;
    unsigned m;
    do
        m = below(r, 16);
    while (m == 0 || m == 0xf);
    return m;
}

static unsigned popcount4(unsigned m)
{
    return (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1);
}

/* The constant operand of this instruction (one c# read port). */
static void pick_const(struct gen *g, char *out, size_t size, unsigned rows)
{
    struct rng *r = &g->r;
    unsigned plain = g->nconst - 3; /* the defs live above */
    if (g->vs && g->a0_ready && chance(r, 20)) {
        /* a0 holds -3..4 (see the inputs); c[a0.c + n] stays in range */
        unsigned n = 3 + below(r, plain - 3 - 4 - rows);
        if (g->v == SG_VS11)
            snprintf(out, size, "c[a0.x + %u]", n);
        else
            snprintf(out, size, "c[a0.%c + %u]", lanes[below(r, 4)], n);
        return;
    }
    if (g->vs && g->v != SG_VS11 && g->al_valid && chance(r, 30)) {
        int lo = -g->al_min, hi = (int)plain - rows - g->al_max;
        if (lo < 0)
            lo = 0;
        if (hi >= lo) {
            int n = lo + (int)below(r, (unsigned)(hi - lo + 1));
            if (n)
                snprintf(out, size, "c[aL + %d]", n);
            else
                snprintf(out, size, "c[aL]");
            return;
        }
    }
    snprintf(out, size, "c%u", below(r, plain - rows + 1));
}

/* The input operand of this instruction (one v#/t# read port). */
static void pick_input(struct gen *g, char *out, size_t size, enum swz_need *need)
{
    struct rng *r = &g->r;
    if ((g->v == SG_VS30 || g->v == SG_PS30) && g->al_valid && chance(r, 35)) {
        int hi = (int)g->ninputs - 1 - g->al_max;
        int lo = -g->al_min < 0 ? 0 : -g->al_min;
        if (g->vs && g->idx_input >= 0)
            hi--; /* keep the a0 source out of the relative window: it is the last */
        if (hi >= lo) {
            int n = lo + (int)below(r, (unsigned)(hi - lo + 1));
            if (n)
                snprintf(out, size, "v[aL + %d]", n);
            else
                snprintf(out, size, "v[aL]");
            return;
        }
    }
    if (g->v == SG_PS20 || g->v == SG_PS2X) {
        if (chance(r, 25))
            snprintf(out, size, "v%u", below(r, 2));
        else
            snprintf(out, size, "t%u", below(r, g->ntex));
        return;
    }
    if (g->v == SG_PS30 && g->vpos && chance(r, 10)) {
        snprintf(out, size, "vPos");
        *need = *need == SW_ANY ? SW_XY : *need;
        return;
    }
    snprintf(out, size, "v%u", below(r, g->ninputs));
}

enum src_from { FROM_ANY, FROM_TEMP, FROM_NOT_CONST };

/*
 * One source operand.  `avoid` is a temp that must not be read (crs's own
 * destination); mods: may it take a negate/_abs.
 */
static void put_src(struct gen *g, enum swz_need need, bool mods, int avoid, enum src_from from)
{
    struct rng *r = &g->r;
    struct gen_buf *b = &g->t;
    unsigned k = below(r, 100);
    bool temp_ok = g->ready > (avoid >= 0 && (unsigned)avoid < g->ready ? 1u : 0u);
    bool abs_ok = false;
    char reg[64];
    if (from == FROM_TEMP && !temp_ok)
        from = FROM_NOT_CONST;
    if (from == FROM_TEMP || (temp_ok && k < 55)) {
        unsigned t;
        do
            t = below(r, g->ready);
        while ((int)t == avoid);
        snprintf(reg, sizeof(reg), "r%u", t);
        abs_ok = true;
    } else if (from == FROM_ANY && (k < 80 || g->ninputs + g->ntex == 0)) {
        if (!g->cport[0])
            pick_const(g, g->cport, sizeof(g->cport), 0);
        snprintf(reg, sizeof(reg), "%s", g->cport);
    } else {
        enum swz_need n2 = need;
        if (!g->vport[0])
            pick_input(g, g->vport, sizeof(g->vport), &n2);
        if (strcmp(g->vport, "vPos") == 0 && need == SW_ANY)
            need = SW_XY;
        else if (strcmp(g->vport, "vPos") == 0 && need != SW_XY) {
            /* vPos with a swizzle it cannot take: use a temp or a constant */
            if (!g->cport[0])
                pick_const(g, g->cport, sizeof(g->cport), 0);
            snprintf(reg, sizeof(reg), "%s", g->cport);
            goto print;
        }
        snprintf(reg, sizeof(reg), "%s", g->vport);
    }
print:
    if (mods && chance(r, 20))
        gen_printf(b, "-");
    gen_printf(b, "%s", reg);
    if (abs_ok && mods && g->srcabs && chance(r, 12))
        gen_printf(b, "_abs");
    put_swizzle(g, b, need);
}

static void new_instr(struct gen *g)
{
    g->cport[0] = g->vport[0] = '\0';
}

static void put_predicate(struct gen *g)
{
    struct rng *r = &g->r;
    if (!g->dyn || !g->p0_ready || !chance(r, 15))
        return;
    gen_printf(&g->t, "(%sp0", chance(r, 35) ? "!" : "");
    if (chance(r, 60))
        gen_printf(&g->t, ".%c", lanes[below(r, 4)]);
    gen_printf(&g->t, ") ");
}

static void put_dst_mods(struct gen *g, bool output)
{
    struct rng *r = &g->r;
    if (g->sat && !(output && g->v != SG_PS30) && chance(r, 15))
        gen_printf(&g->t, "_sat");
    if (g->ps && chance(r, g->pp_percent)) /* one draw whatever the percentage */
        gen_printf(&g->t, "_pp");
}

static void indent(struct gen *g)
{
    for (unsigned i = 0; i < g->block_depth; i++)
        gen_printf(&g->t, "    ");
}

/* ------------------------------------------------------------------ */
/* Instructions.                                                       */

static bool op_usable(const struct gen *g, const struct opdef *o, bool vec_only)
{
    if (!(o->vers & VB(g->v)))
        return false;
    if (vec_only)
        return o->kind == K_VEC;
    switch (o->kind) {
    case K_DERIV:
        return !g->dynamic && !g->in_loop && !g->in_sub && g->block_depth == 0;
    case K_SGN:
        return g->ready >= 3;
    case K_CRS:
        return g->ready >= 2;
    default:
        return true;
    }
}

/*
 * One arithmetic instruction writing `dst` (a register name) under `mask`
 * (0: choose).  vec_only restricts to the any-mask kinds (used where the
 * mask is imposed: prologue parts, outputs).
 */
static void arith(struct gen *g, const char *dst, int dst_temp, unsigned mask, bool vec_only,
                  bool output)
{
    struct rng *r = &g->r;
    struct gen_buf *b = &g->t;
    const struct opdef *o;
    do
        o = &ops[below(r, NUM_OPS)];
    while (!op_usable(g, o, vec_only));
    new_instr(g);
    indent(g);
    if (!output) /* outputs are written whole: no predicate on them */
        put_predicate(g);
    gen_printf(b, "%s", o->name);
    switch (o->kind) {
    case K_MAT:
        mask = o->mask;
        break;
    case K_SCALAR:
        if (!mask)
            mask = g->vs ? 1u << below(r, 4) : rand_mask(r);
        break;
    case K_FRC:
        if (!mask)
            mask = g->v == SG_VS11 ? 1 + below(r, 3) : rand_mask(r);
        break;
    case K_CRS:
        mask = 1 + below(r, 7);
        break;
    case K_SINCOS:
        mask = 1 + below(r, 3);
        break;
    default:
        if (!mask)
            mask = rand_mask(r);
        break;
    }
    put_dst_mods(g, output);
    gen_printf(b, " %s", dst);
    put_mask(b, mask);
    switch (o->kind) {
    case K_VEC:
    case K_DERIV:
        for (unsigned s = 0; s < o->nsrc; s++) {
            gen_printf(b, ", ");
            put_src(g, SW_ANY, true, -1, FROM_ANY);
        }
        break;
    case K_SCALAR:
    case K_FRC:
        for (unsigned s = 0; s < o->nsrc; s++) {
            gen_printf(b, ", ");
            put_src(g, o->kind == K_SCALAR ? SW_REPL : SW_ANY, true, -1, FROM_ANY);
        }
        break;
    case K_MAT: {
        gen_printf(b, ", ");
        put_src(g, SW_NONE, false, dst_temp, FROM_NOT_CONST);
        char c[48];
        pick_const(g, c, sizeof(c), popcount4(o->mask) + 1);
        gen_printf(b, ", %s", c);
        break;
    }
    case K_CRS:
        for (unsigned s = 0; s < 2; s++) {
            gen_printf(b, ", ");
            put_src(g, SW_NONE, true, dst_temp, FROM_ANY);
        }
        break;
    case K_SINCOS:
        gen_printf(b, ", ");
        put_src(g, SW_REPL, true, dst_temp, FROM_NOT_CONST);
        if (g->v != SG_VS30 && g->v != SG_PS30)
            gen_printf(b, ", c%u, c%u", g->c_sc1, g->c_sc2);
        break;
    case K_SGN: {
        /* src1 and src2 are scratch temps the instruction may clobber */
        gen_printf(b, ", ");
        put_src(g, SW_ANY, true, -1, FROM_ANY);
        unsigned s1, s2;
        do {
            s1 = below(r, g->ready);
            s2 = below(r, g->ready);
        } while (s1 == s2 || (int)s1 == dst_temp || (int)s2 == dst_temp);
        gen_printf(b, ", r%u, r%u\n", s1, s2);
        /* Direct3D leaves the scratch temps undefined after sgn: give them
         * values again before anything can read them */
        indent(g);
        gen_printf(b, "mov r%u, c%u\n", s1, g->c_misc);
        indent(g);
        gen_printf(b, "mov r%u, c%u.wzyx", s2, g->c_misc);
        break;
    }
    case K_DP2ADD:
        gen_printf(b, ", ");
        put_src(g, SW_ANY, true, -1, FROM_ANY);
        gen_printf(b, ", ");
        put_src(g, SW_ANY, true, -1, FROM_ANY);
        gen_printf(b, ", ");
        put_src(g, SW_REPL, true, -1, FROM_ANY);
        break;
    }
    gen_printf(b, "\n");
}

static void arith_temp(struct gen *g)
{
    unsigned t = below(&g->r, g->ready);
    char d[16];
    snprintf(d, sizeof(d), "r%u", t);
    arith(g, d, (int)t, 0, false, false);
}

/* Splits xyzw into 1..4 disjoint masks; returns how many. */
static unsigned partition(struct rng *r, unsigned parts[4])
{
    unsigned n = 1 + below(r, 3);
    for (unsigned i = 0; i < 4; i++)
        parts[i] = 0;
    for (unsigned l = 0; l < 4; l++)
        parts[below(r, n)] |= 1u << l;
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++)
        if (parts[i])
            parts[k++] = parts[i];
    return k;
}

/* A register written whole from several partial writes (a merge). */
static void build(struct gen *g, const char *dst, int dst_temp, bool output)
{
    unsigned parts[4];
    unsigned n = partition(&g->r, parts);
    for (unsigned i = 0; i < n; i++)
        arith(g, dst, dst_temp, parts[i], true, output);
}

static void sample(struct gen *g)
{
    struct rng *r = &g->r;
    struct gen_buf *b = &g->t;
    unsigned s = below(r, g->nsamp), d = below(r, g->ready);
    new_instr(g);
    indent(g);
    const char *op = "texld";
    unsigned k = below(r, 100);
    if (g->v == SG_VS30)
        op = "texldl";
    else if (k < 20)
        op = "texldp";
    else if (k < 35)
        op = "texldb";
    else if (k < 55 && g->v != SG_PS20)
        op = "texldd";
    else if (k < 70 && g->v == SG_PS30)
        op = "texldl";
    gen_printf(b, "%s", op);
    if (g->ps && chance(r, 10))
        gen_printf(b, "_pp");
    gen_printf(b, " r%u, ", d);
    if (g->v == SG_PS20 || g->v == SG_PS2X) {
        /* ps_2_0/2_x: a plain t# or r#, no swizzle, no modifier */
        if (chance(r, 50))
            gen_printf(b, "t%u", below(r, g->ntex));
        else
            gen_printf(b, "r%u", below(r, g->ready));
    } else {
        put_src(g, chance(r, 70) ? SW_NONE : SW_ANY, false, -1, FROM_NOT_CONST);
    }
    gen_printf(b, ", s%u", s);
    if (strcmp(op, "texldd") == 0)
        gen_printf(b, ", r%u, r%u", below(r, g->ready), below(r, g->ready));
    gen_printf(b, "\n");
}

static void condition_operands(struct gen *g)
{
    struct rng *r = &g->r;
    new_instr(g);
    if (g->vface && chance(r, 15)) {
        gen_printf(&g->t, "vFace, ");
        put_src(g, SW_REPL, true, -1, FROM_ANY);
        return;
    }
    /* mostly an input against a constant: invocations diverge */
    put_src(g, SW_REPL, true, -1, chance(r, 60) ? FROM_NOT_CONST : FROM_ANY);
    gen_printf(&g->t, ", ");
    put_src(g, SW_REPL, true, -1, FROM_ANY);
}

static void block(struct gen *g, unsigned n);

static void open_block(struct gen *g)
{
    g->block_depth++;
}

static void close_block(struct gen *g, const char *end)
{
    g->block_depth--;
    indent(g);
    gen_printf(&g->t, "%s\n", end);
}

/* if ... [else ...] endif around sub-blocks. */
static void if_body(struct gen *g, bool dynamic)
{
    bool was = g->dynamic;
    g->dynamic = was || dynamic;
    open_block(g);
    block(g, 1 + below(&g->r, 4));
    if (chance(&g->r, 40)) {
        g->block_depth--;
        indent(g);
        gen_printf(&g->t, "else\n");
        g->flow_count++;
        g->block_depth++;
        block(g, 1 + below(&g->r, 3));
    }
    close_block(g, "endif");
    g->dynamic = was;
}

static void aL_range(const struct gen *g, unsigned i, int *lo, int *hi)
{
    int c = g->icount[i] < 1 ? 1 : g->icount[i];
    int a = g->istart[i], z = g->istart[i] + (c - 1) * g->istep[i];
    *lo = a < z ? a : z;
    *hi = a < z ? z : a;
}

static void loop_stmt(struct gen *g, bool with_al)
{
    struct rng *r = &g->r;
    unsigned i = below(r, MAX_ICONST);
    bool was_in = g->in_loop, was_al = g->al_valid;
    int was_lo = g->al_min, was_hi = g->al_max;
    indent(g);
    if (with_al) {
        gen_printf(&g->t, "loop aL, i%u\n", i);
        aL_range(g, i, &g->al_min, &g->al_max);
        g->al_valid = true;
    } else {
        gen_printf(&g->t, "rep i%u\n", i);
    }
    g->flow_count++;
    g->loop_depth++;
    g->in_loop = true;
    open_block(g);
    block(g, 2 + below(r, 4));
    close_block(g, with_al ? "endloop" : "endrep");
    g->loop_depth--;
    g->in_loop = was_in;
    g->al_valid = was_al;
    g->al_min = was_lo;
    g->al_max = was_hi;
}

static void statement(struct gen *g)
{
    struct rng *r = &g->r;
    struct gen_buf *b = &g->t;
    bool nest = g->block_depth < 4 && g->budget > 6;
    bool static_ok = g->flow && (g->v != SG_VS20 || g->flow_count < 12);
    for (;;) {
        unsigned k = below(r, 100);
        if (k < 40) {
            arith_temp(g);
            return;
        }
        if (k < 50) {
            unsigned t = below(r, g->ready);
            char d[16];
            snprintf(d, sizeof(d), "r%u", t);
            build(g, d, (int)t, false);
            return;
        }
        if (k < 56) {
            if (!g->nsamp)
                continue;
            sample(g);
            return;
        }
        if (k < 61) { /* if b# */
            if (!nest || !static_ok)
                continue;
            indent(g);
            gen_printf(b, "if %sb%u\n", "", below(r, MAX_BCONST));
            g->flow_count++;
            if_body(g, false);
            return;
        }
        if (k < 69) { /* if_comp */
            if (!nest || !g->dyn)
                continue;
            indent(g);
            gen_printf(b, "if_%s ", cmps[below(r, 6)]);
            condition_operands(g);
            gen_printf(b, "\n");
            if_body(g, true);
            return;
        }
        if (k < 73) { /* setp */
            if (!g->dyn)
                continue;
            new_instr(g);
            indent(g);
            gen_printf(b, "setp_%s p0", cmps[below(r, 6)]);
            put_mask(b, rand_mask(r));
            gen_printf(b, ", ");
            put_src(g, SW_ANY, true, -1, FROM_NOT_CONST);
            gen_printf(b, ", ");
            put_src(g, SW_ANY, true, -1, FROM_ANY);
            gen_printf(b, "\n");
            return;
        }
        if (k < 77) { /* if p0.c */
            if (!nest || !g->dyn)
                continue;
            indent(g);
            gen_printf(b, "if %sp0.%c\n", chance(r, 40) ? "!" : "", lanes[below(r, 4)]);
            if_body(g, true);
            return;
        }
        if (k < 83) { /* rep / loop */
            if (!nest || !static_ok || g->in_sub || g->loop_depth >= g->max_loop_depth)
                continue;
            loop_stmt(g, g->loop_al && chance(r, 55));
            return;
        }
        if (k < 89) { /* breaks */
            if (!g->in_loop || !g->dyn || g->in_sub)
                continue;
            indent(g);
            unsigned w = below(r, 3);
            if (w == 0) {
                gen_printf(b, "break_%s ", cmps[below(r, 6)]);
                condition_operands(g);
                gen_printf(b, "\n");
            } else if (w == 1) {
                gen_printf(b, "breakp %sp0.%c\n", chance(r, 40) ? "!" : "", lanes[below(r, 4)]);
            } else {
                gen_printf(b, "if_%s ", cmps[below(r, 6)]);
                condition_operands(g);
                gen_printf(b, "\n");
                indent(g);
                gen_printf(b, "    break\n");
                indent(g);
                gen_printf(b, "endif\n");
            }
            return;
        }
        if (k < 94) { /* calls; a subroutine only calls later ones: no recursion */
            if (!g->nsub || !static_ok || g->in_sub > g->nsub - 1 ||
                (g->in_sub && g->v == SG_VS20)) /* vs_2_0 nests calls 1 deep */
                continue;
            indent(g);
            unsigned first = g->in_sub + 1;
            unsigned l = first + below(r, g->nsub - first + 1), w = below(r, 3);
            if (w == 0)
                gen_printf(b, "call l%u\n", l);
            else if (w == 1 || !g->dyn)
                gen_printf(b, "callnz l%u, %sb%u\n", l, chance(r, 40) ? "!" : "",
                          below(r, MAX_BCONST));
            else
                gen_printf(b, "callnz l%u, %sp0.%c\n", l, chance(r, 40) ? "!" : "",
                          lanes[below(r, 4)]);
            g->flow_count++;
            return;
        }
        if (k < 96) { /* a0 again, from the small-number input */
            if (!g->vs || g->idx_input < 0)
                continue;
            indent(g);
            if (g->v == SG_VS11)
                gen_printf(b, "mov a0.x, v%d.%c\n", g->idx_input, lanes[below(r, 4)]);
            else {
                gen_printf(b, "mova a0");
                put_mask(b, rand_mask(r));
                gen_printf(b, ", v%d", g->idx_input);
                put_swizzle(g, b, SW_ANY);
                gen_printf(b, "\n");
            }
            return;
        }
        if (k < 98) { /* texkill */
            if (!g->ps)
                continue;
            indent(g);
            if (g->v != SG_PS30 && chance(r, 50))
                gen_printf(b, "texkill t%u\n", below(r, g->ntex));
            else
                gen_printf(b, "texkill r%u\n", below(r, g->ready));
            return;
        }
        indent(g);
        gen_printf(b, "nop\n");
        return;
    }
}

static void block(struct gen *g, unsigned n)
{
    for (unsigned i = 0; i < n && g->budget; i++) {
        g->budget--;
        statement(g);
    }
}


/* ------------------------------------------------------------------ */
/* ps_1_1 .. ps_1_4: a generator of its own (other registers, modifiers, */
/* co-issue), sharing only the text buffer and the random numbers.      */

struct gen1 {
    struct rng *r;
    struct gen_buf *b;
    enum sg_version v;
    bool v14;
    unsigned ntemps;       /* r0..r1, or r0..r5 in ps_1_4 */
    unsigned written[6];   /* lanes written, bit per lane xyzw */
    bool texed[6];         /* t# (1_1..1_3) holds a texture result */
    unsigned nstage;       /* texture stages used: 0..nstage-1 */
    bool stage_used[6];
    char ports_c[2][16], ports_v[2][16];
    unsigned nc, nv;
};

/* One source: register, modifier and selector.  `lanes` are the lanes the
 * instruction reads of it (before the selector). */
static void src1x(struct gen1 *g, unsigned lanes, bool alpha_pipe)
{
    struct rng *r = g->r;
    char reg[16];
    bool is_const = false;
    for (int tries = 0;; tries++) {
        unsigned k = below(r, 100);
        if (k < 45) {
            unsigned t = below(r, g->ntemps);
            /* selector decides which lanes must hold values */
            unsigned sel = below(r, 100) < 25 ? 1 + below(r, 4) : 0; /* 0: none */
            if (!g->v14 && sel && sel != 4 && !(sel == 3 && alpha_pipe))
                sel = 4; /* 1_1..1_3: .a, and .b only in the alpha pipe */
            unsigned need = sel ? 1u << (sel - 1) : lanes;
            if ((g->written[t] & need) != need)
                continue;
            snprintf(reg, sizeof(reg), "r%u", t);
            unsigned m = below(r, 100);
            const char *pre = m < 15 ? "-" : m < 22 ? "1-" : "";
            const char *post = m >= 22 && m < 32 ? "_bx2" : m >= 32 && m < 40 ? "_bias"
                               : g->v14 && m >= 40 && m < 46 ? "_x2" : "";
            if (m >= 85 && m < 92 && !*pre) {
                pre = "-";
                post = "_bx2";
            }
            gen_printf(g->b, "%s%s%s", pre, reg, post);
            if (sel)
                gen_printf(g->b, ".%c", "rgba"[sel - 1]);
            return;
        }
        if (k < 75 || tries > 20) {
            snprintf(reg, sizeof(reg), "c%u", below(r, 8));
            is_const = true;
        } else if (k < 87 && !g->v14) {
            snprintf(reg, sizeof(reg), "v%u", below(r, 2));
        } else if (!g->v14) {
            unsigned t = below(r, 4);
            if (!g->texed[t])
                continue;
            snprintf(reg, sizeof(reg), "t%u", t);
        } else {
            continue;
        }
        /* read ports: two distinct c#, two distinct v#/t# per instruction */
        char (*ports)[16] = is_const ? g->ports_c : g->ports_v;
        unsigned *n = is_const ? &g->nc : &g->nv;
        bool seen = false;
        for (unsigned i = 0; i < *n; i++)
            seen |= strcmp(ports[i], reg) == 0;
        if (!seen) {
            if (*n == 2)
                continue;
            snprintf(ports[(*n)++], 16, "%s", reg);
        }
        /* no modifiers on constants; inputs take the same as temps */
        unsigned m = below(r, 100);
        if (is_const)
            gen_printf(g->b, "%s", reg);
        else
            gen_printf(g->b, "%s%s%s", m < 15 ? "-" : m < 22 ? "1-" : "", reg,
                      m >= 22 && m < 35 ? "_bx2" : m >= 35 && m < 42 ? "_bias" : "");
        if (below(r, 100) < 15)
            gen_printf(g->b, ".a");
        return;
    }
}

static void arith1x(struct gen1 *g, unsigned dst, unsigned mask, bool coissue)
{
    struct rng *r = g->r;
    static const char *const names[] = {"add", "sub", "mul", "mad", "mov", "lrp",
                                        "dp3", "cnd", "cmp", "dp4"};
    static const unsigned char nsrc[] = {2, 2, 2, 3, 1, 3, 2, 3, 3, 2};
    unsigned op;
    bool alpha_pipe = mask == 8;
    for (;;) {
        op = below(r, 10);
        if (op >= 8 && g->v == SG_PS11)
            continue; /* cmp, dp4: ps_1_2 and later */
        if ((op == 6 || op == 9) && (alpha_pipe || coissue))
            continue; /* the dot products run in the colour pipe, alone */
        if (op == 7 && !g->v14 && !(g->written[0] & 8))
            continue; /* cnd tests r0.a */
        if (op == 9 && mask != 0xf)
            continue;
        if (op == 6 && mask != 0xf && mask != 7 && !g->v14)
            continue;
        break;
    }
    g->nc = g->nv = 0;
    gen_printf(g->b, "%s%s", coissue ? "+ " : "", names[op]);
    unsigned m = below(r, 100);
    if (m < 12)
        gen_printf(g->b, "_sat");
    else if (m < 20) {
        static const char *const sh[] = {"_x2", "_x4", "_d2", "_x8", "_d4", "_d8"};
        gen_printf(g->b, "%s", sh[below(r, g->v14 ? 6 : 3)]);
    }
    gen_printf(g->b, " r%u", dst);
    if (mask != 0xf) {
        gen_printf(g->b, ".");
        for (unsigned l = 0; l < 4; l++)
            if (mask & (1u << l))
                gen_printf(g->b, "%c", "rgba"[l]);
    }
    for (unsigned s = 0; s < nsrc[op]; s++) {
        gen_printf(g->b, ", ");
        if (op == 7 && s == 0 && !g->v14)
            gen_printf(g->b, "r0.a");
        else
            src1x(g, op == 6 ? 7 : op == 9 ? 0xf : mask, alpha_pipe);
    }
    gen_printf(g->b, "\n");
}

static void gen_ps1x(struct gen *g0)
{
    struct gen1 gg = {.r = &g0->r, .b = &g0->t, .v = g0->v};
    struct gen1 *g = &gg;
    struct rng *r = g->r;
    g->v14 = g->v == SG_PS14;
    g->ntemps = g->v14 ? 6 : 2;
    gen_printf(g->b, "%s\n", sg_version_name(g->v));
    for (unsigned c = 0; c < 8; c++)
        if (chance(r, 20) && (g0->ps1_cdef |= 1u << c))
            gen_printf(g->b, "def c%u, %g, %g, %g, %g\n", c, (int)below(r, 17) / 8.0 - 1,
                      (int)below(r, 17) / 8.0 - 1, (int)below(r, 17) / 8.0 - 1,
                      (int)below(r, 17) / 8.0 - 1);
    /* texture stage: sample or take the coordinates */
    unsigned nst = below(r, g->v14 ? 6 : 5);
    for (unsigned t = 0; t < nst; t++) {
        if (!chance(r, 75))
            continue;
        if (g->v14) {
            if (chance(r, 60)) {
                gen_printf(g->b, "texld r%u, t%u\n", t, t);
                g->written[t] = 0xf;
                g->stage_used[t] = true;
            } else {
                gen_printf(g->b, "texcrd r%u.rgb, t%u\n", t, t);
                g->written[t] = 7;
            }
        } else {
            if (chance(r, 75)) {
                gen_printf(g->b, "tex t%u\n", t);
                g->stage_used[t] = true;
            } else {
                gen_printf(g->b, "texcoord t%u\n", t);
            }
            g->texed[t] = true;
        }
    }
    g->nstage = nst;
    g0->ps1_nstage = nst;
    memcpy(g0->ps1_stage, g->stage_used, sizeof(g0->ps1_stage));
    /* the colour registers start unwritten: the first writes build them */
    unsigned n = 3 + below(r, 12);
    for (unsigned i = 0; i < n; i++) {
        unsigned dst = below(r, g->ntemps);
        if (chance(r, 35)) {
            /* a co-issued pair: colour and alpha of the same instruction slot */
            unsigned d2 = below(r, g->ntemps);
            unsigned w1 = g->written[dst], w2 = g->written[d2];
            arith1x(g, dst, 7, false);
            /* the alpha half reads the registers as they were before the pair */
            unsigned save = g->written[dst];
            g->written[dst] = w1;
            arith1x(g, d2, 8, true);
            g->written[dst] = save | 7;
            g->written[d2] = (d2 == dst ? g->written[dst] : w2) | 8;
        } else {
            unsigned mask = chance(r, 50) ? 0xf : chance(r, 50) ? 7 : 8;
            if (g->v14 && chance(r, 30))
                mask = 1 + below(r, 15);
            arith1x(g, dst, mask, false);
            g->written[dst] |= mask;
        }
    }
    /* r0 is the result: write it whole at the end */
    arith1x(g, 0, 0xf, false);
}

/* ------------------------------------------------------------------ */
/* The shader.                                                         */

static void setup(struct gen *g)
{
    struct rng *r = &g->r;
    enum sg_version v = g->v;
    g->vs = v <= SG_VS30;
    g->ps = !g->vs;
    g->flow = v != SG_VS11 && v != SG_PS20;
    g->dyn = v == SG_VS2X || v == SG_VS30 || v == SG_PS2X || v == SG_PS30;
    g->loop_al = g->flow && v != SG_PS2X;
    g->anyswz = v != SG_PS20;
    g->srcabs = v == SG_VS30 || v == SG_PS30;
    g->sat = g->ps || v == SG_VS30;
    g->max_loop_depth = v == SG_VS20 ? 1 : 2;
    g->ntemps = 3 + below(r, 6);
    g->nconst = g->vs ? 40 : g->v == SG_PS30 ? 40 : 32;
    g->c_sc1 = g->nconst - 1;
    g->c_sc2 = g->nconst - 2;
    g->c_misc = g->nconst - 3;
    if (g->vs) {
        g->ninputs = 3 + below(r, 5);
        g->idx_input = (int)g->ninputs - 1;
    } else if (v == SG_PS30) {
        g->ninputs = 2 + below(r, 8);
        g->idx_input = -1;
        g->vpos = chance(r, 30);
        g->vface = chance(r, 30);
    } else {
        g->ntex = 1 + below(r, 8);
        g->idx_input = -1;
    }
    for (unsigned i = 0; i < MAX_ICONST; i++) {
        unsigned c = below(r, 10);
        g->icount[i] = c < 1 ? 0 : c < 4 ? 1 : c < 7 ? 2 : (int)c - 4; /* 0..5 */
        if (chance(r, 4)) /* outside 0..255: the count is clamped */
            g->icount[i] = chance(r, 50) ? -2 : 300;
        g->istep[i] = (int)below(r, 4) - 1;                             /* -1..2 */
        g->istart[i] = (int)below(r, 4);
        if (g->istep[i] < 0 && g->istart[i] < g->icount[i] - 1)
            g->istart[i] = g->icount[i] - 1; /* aL never goes below 0 */
        g->idef[i] = chance(r, 25);
    }
    for (unsigned i = 0; i < MAX_BCONST; i++) {
        g->bval[i] = chance(r, 50);
        g->bdef[i] = chance(r, 20);
    }
    if (v == SG_VS30 || g->ps)
        g->nsamp = chance(r, g->ps ? 70 : 40) ? 1 + below(r, MAX_SAMPLERS) : 0;
    for (unsigned i = 0; i < g->nsamp; i++)
        g->stype[i] = v == SG_VS30 ? SAMP_2D : (enum samp_type)below(r, 3);
    g->nsub = g->flow ? below(r, 3) : 0;
    g->nout_t = below(r, 4);
    g->out_d1 = chance(r, 40);
    g->out_fog = chance(r, 25);
    g->out_pts = chance(r, 15);
    g->out_c1 = chance(r, 25);
    g->out_depth = chance(r, 20);
}

static void put_float(struct gen_buf *b, float f)
{
    if (isnan(f))
        gen_printf(b, "\"nan\"");
    else if (isinf(f))
        gen_printf(b, f > 0 ? "\"inf\"" : "\"-inf\"");
    else
        gen_printf(b, "%.9g", (double)f);
}

static float rvalue(struct rng *r)
{
    unsigned k = below(r, 100);
    if (k < 70)
        return (float)((int)below(r, 97) - 48) / 16.0f;
    if (k < 93)
        return (float)((int)below(r, 20001) - 10000) / 2500.0f;
    static const float special[] = {0.0f, -0.0f, 1.0f, 0.5f, INFINITY, -INFINITY, NAN,
                                    1e30f, -1e30f, 1e-40f, 2.0f, -1.0f};
    return special[below(r, sizeof(special) / sizeof(special[0]))];
}

static void put_vec(struct rng *r, struct gen_buf *b, unsigned n)
{
    gen_printf(b, "[");
    for (unsigned i = 0; i < n; i++) {
        if (i)
            gen_printf(b, ", ");
        put_float(b, rvalue(r));
    }
    gen_printf(b, "]");
}

/* dcl_pp on input i of a pixel shader, one in four: decided by a copy of
 * the generator's state, so every other choice of a seed stays what it
 * was before partial-precision inputs were generated. */
static bool pp_input(const struct gen *g, unsigned i)
{
    struct rng r = g->r;
    r.s ^= 0x5bd1e9955bd1e995ull * (i + 1);
    return chance(&r, 25);
}

static void header(struct gen *g)
{
    struct rng *r = &g->r;
    struct gen_buf *b = &g->t;
    gen_printf(b, "%s\n", sg_version_name(g->v));
    if (g->vs) {
        for (unsigned i = 0; i < g->ninputs; i++)
            gen_printf(b, "dcl_texcoord%u v%u\n", i, i);
        if (g->v == SG_VS30) {
            gen_printf(b, "dcl_position o0\n");
            for (unsigned i = 0; i < g->nout_t; i++)
                gen_printf(b, "dcl_texcoord%u o%u\n", i, i + 1);
        }
    } else if (g->v == SG_PS30) {
        for (unsigned i = 0; i < g->ninputs; i++)
            gen_printf(b, "dcl_texcoord%u%s v%u\n", i, pp_input(g, i) ? "_pp" : "", i);
        if (g->vpos)
            gen_printf(b, "dcl vPos.xy\n");
        if (g->vface)
            gen_printf(b, "dcl vFace\n");
    } else {
        for (unsigned i = 0; i < g->ntex; i++)
            gen_printf(b, "dcl%s t%u\n", pp_input(g, i) ? "_pp" : "", i);
        gen_printf(b, "dcl%s v0\ndcl%s v1\n", pp_input(g, 8) ? "_pp" : "",
                   pp_input(g, 9) ? "_pp" : "");
    }
    static const char *const st[] = {"2d", "cube", "volume"};
    for (unsigned i = 0; i < g->nsamp; i++)
        gen_printf(b, "dcl_%s s%u\n", st[g->stype[i]], i);
    gen_printf(b, "def c%u, -1.5500992e-006, -2.1701389e-005, 0.0026041667, 0.00026041668\n",
              g->c_sc1);
    gen_printf(b, "def c%u, -0.020833334, -0.125, 1, 0.5\n", g->c_sc2);
    gen_printf(b, "def c%u, 0, 1, 0.5, -1\n", g->c_misc);
    if (g->flow) {
        for (unsigned i = 0; i < MAX_ICONST; i++)
            if (g->idef[i])
                gen_printf(b, "defi i%u, %d, %d, %d, 0\n", i, g->icount[i], g->istart[i],
                          g->istep[i]);
        for (unsigned i = 0; i < MAX_BCONST; i++)
            if (g->bdef[i])
                gen_printf(b, "defb b%u, %s\n", i, g->bval[i] ? "true" : "false");
    }
    (void)r;
}

static void prologue(struct gen *g)
{
    struct rng *r = &g->r;
    struct gen_buf *b = &g->t;
    if (g->vs) {
        if (g->v == SG_VS11)
            gen_printf(b, "mov a0.x, v%d.%c\n", g->idx_input, lanes[below(r, 4)]);
        else
            gen_printf(b, "mova a0, v%d\n", g->idx_input);
        g->a0_ready = true;
    }
    for (unsigned t = 0; t < g->ntemps; t++) {
        char d[16];
        snprintf(d, sizeof(d), "r%u", t);
        build(g, d, (int)t, false);
        g->ready = t + 1;
    }
    if (g->dyn) {
        new_instr(g);
        gen_printf(b, "setp_%s p0, ", cmps[below(r, 6)]);
        put_src(g, SW_ANY, false, -1, FROM_NOT_CONST);
        gen_printf(b, ", ");
        put_src(g, SW_ANY, false, -1, FROM_ANY);
        gen_printf(b, "\n");
        g->p0_ready = true;
    }
}

static void out_full(struct gen *g, const char *name, bool mov_only)
{
    if (mov_only) {
        new_instr(g);
        gen_printf(&g->t, "mov %s, r%u\n", name, below(&g->r, g->ready));
    } else {
        build(g, name, -1, true);
    }
}

static void out_scalar(struct gen *g, const char *name)
{
    new_instr(g);
    gen_printf(&g->t, "mov %s, ", name);
    put_src(g, SW_REPL, true, -1, FROM_TEMP);
    gen_printf(&g->t, "\n");
}

/* A partial overwrite of an output under a per-invocation condition. */
static void late_output(struct gen *g, const char *name)
{
    struct rng *r = &g->r;
    if (g->dyn) {
        gen_printf(&g->t, "if_%s ", cmps[below(r, 6)]);
        condition_operands(g);
        gen_printf(&g->t, "\n");
    } else {
        gen_printf(&g->t, "if b%u\n", below(r, MAX_BCONST));
    }
    g->block_depth++;
    arith(g, name, -1, rand_mask(r), true, true);
    g->block_depth--;
    gen_printf(&g->t, "endif\n");
}

static void epilogue(struct gen *g)
{
    char n[32];
    struct rng *r = &g->r;
    if (g->v == SG_VS30) {
        out_full(g, "o0", false);
        for (unsigned i = 0; i < g->nout_t; i++) {
            snprintf(n, sizeof(n), "o%u", i + 1);
            out_full(g, n, false);
        }
    } else if (g->vs) {
        out_full(g, "oPos", false);
        out_full(g, "oD0", false);
        if (g->out_d1)
            out_full(g, "oD1", false);
        for (unsigned i = 0; i < g->nout_t; i++) {
            snprintf(n, sizeof(n), "oT%u", i);
            out_full(g, n, false);
        }
        if (g->out_fog)
            out_scalar(g, "oFog");
        if (g->out_pts)
            out_scalar(g, "oPts");
    } else {
        bool mov_only = g->v != SG_PS30;
        out_full(g, "oC0", mov_only);
        if (g->out_c1)
            out_full(g, "oC1", mov_only);
        if (g->out_depth)
            out_scalar(g, "oDepth");
    }
    if (g->v == SG_VS30 && chance(r, 40)) {
        /* o[aL + n]: a loop overwriting declared outputs by index */
        unsigned i = below(r, MAX_ICONST);
        int lo, hi;
        aL_range(g, i, &lo, &hi);
        int nmin = lo < 0 ? -lo : 0, nmax = (int)g->nout_t - hi;
        if (nmax >= nmin) {
            int k = nmin + (int)below(r, (unsigned)(nmax - nmin + 1));
            gen_printf(&g->t, "loop aL, i%u\n", i);
            if (k)
                snprintf(n, sizeof(n), "o[aL + %d]", k);
            else
                snprintf(n, sizeof(n), "o[aL]");
            g->in_loop = g->al_valid = true;
            g->al_min = lo;
            g->al_max = hi;
            g->block_depth = 1;
            arith(g, n, -1, rand_mask(r), true, true);
            g->block_depth = 0;
            g->in_loop = g->al_valid = false;
            gen_printf(&g->t, "endloop\n");
        }
    }
    if (g->flow && (g->vs || g->v == SG_PS30) && (g->v != SG_VS20 || g->flow_count < 14)) {
        unsigned k = below(r, 3);
        for (unsigned i = 0; i < k; i++) {
            if (g->v == SG_VS30 || g->ps)
                snprintf(n, sizeof(n), g->ps ? "oC0" : "o%u", below(r, g->nout_t + 1));
            else
                snprintf(n, sizeof(n), "%s", chance(r, 50) ? "oPos" : "oD0");
            late_output(g, n);
            g->flow_count++;
        }
    }
}

static void texture_json(struct rng *r, struct gen_buf *b, unsigned s, bool first)
{
    unsigned w = 1 + below(r, 3), h = 1 + below(r, 3);
    gen_printf(b, "%s\"s%u\": {\"type\": \"2d\", \"width\": %u, \"height\": %u, \"texels\": [",
              first ? "" : ", ", s, w, h);
    for (unsigned k = 0; k < w * h; k++) {
        if (k)
            gen_printf(b, ", ");
        put_vec(r, b, 4);
    }
    gen_printf(b, "]}");
}

static void inputs_json_ps1x(struct gen *g, struct gen_buf *b)
{
    struct rng *r = &g->r;
    bool first = true;
    gen_printf(b, "{\n\"constants\": {");
    for (unsigned c = 0; c < 8; c++)
        if (!(g->ps1_cdef & (1u << c))) {
            gen_printf(b, "%s\"c%u\": ", first ? "" : ", ", c);
            put_vec(r, b, 4);
            first = false;
        }
    gen_printf(b, "},\n\"textures\": {");
    first = true;
    for (unsigned s = 0; s < 6; s++)
        if (g->ps1_stage[s]) {
            texture_json(r, b, s, first);
            first = false;
        }
    unsigned ninv = chance(r, 70) ? 8 : 6;
    gen_printf(b, "},\n\"invocations\": [\n");
    for (unsigned k = 0; k < ninv; k++) {
        gen_printf(b, "  {");
        for (unsigned t = 0; t < g->ps1_nstage; t++) {
            gen_printf(b, "%s\"t%u\": ", t ? ", " : "", t);
            put_vec(r, b, 4);
        }
        if (g->v != SG_PS14)
            for (unsigned i = 0; i < 2; i++) {
                gen_printf(b, "%s\"v%u\": ", g->ps1_nstage || i ? ", " : "", i);
                put_vec(r, b, 4);
            }
        gen_printf(b, "}%s\n", k + 1 < ninv ? "," : "");
    }
    gen_printf(b, "]\n}\n");
}

static void inputs_json(struct gen *g, struct gen_buf *b)
{
    struct rng *r = &g->r;
    gen_printf(b, "{\n\"constants\": {");
    for (unsigned c = 0; c < g->c_misc; c++) {
        gen_printf(b, "%s\"c%u\": ", c ? ", " : "", c);
        put_vec(r, b, 4);
    }
    gen_printf(b, "}");
    if (g->flow) {
        bool first = true;
        gen_printf(b, ",\n\"int_constants\": {");
        for (unsigned i = 0; i < MAX_ICONST; i++)
            if (!g->idef[i]) {
                gen_printf(b, "%s\"i%u\": [%d, %d, %d, 0]", first ? "" : ", ", i, g->icount[i],
                          g->istart[i], g->istep[i]);
                first = false;
            }
        gen_printf(b, "},\n\"bool_constants\": {");
        first = true;
        for (unsigned i = 0; i < MAX_BCONST; i++)
            if (!g->bdef[i]) {
                gen_printf(b, "%s\"b%u\": %s", first ? "" : ", ", i, g->bval[i] ? "true" : "false");
                first = false;
            }
        gen_printf(b, "}");
    }
    if (g->nsamp) {
        gen_printf(b, ",\n\"textures\": {");
        for (unsigned s = 0; s < g->nsamp; s++) {
            unsigned w = 1 + below(r, 3), h = 1 + below(r, 3), d = 1 + below(r, 2), n;
            if (g->stype[s] == SAMP_CUBE) {
                h = w;
                n = 6 * w * h;
                gen_printf(b, "%s\"s%u\": {\"type\": \"cube\", \"width\": %u, \"height\": %u, ",
                          s ? ", " : "", s, w, h);
            } else if (g->stype[s] == SAMP_VOLUME) {
                n = w * h * d;
                gen_printf(b,
                          "%s\"s%u\": {\"type\": \"volume\", \"width\": %u, \"height\": %u, "
                          "\"depth\": %u, ",
                          s ? ", " : "", s, w, h, d);
            } else {
                n = w * h;
                gen_printf(b, "%s\"s%u\": {\"type\": \"2d\", \"width\": %u, \"height\": %u, ",
                          s ? ", " : "", s, w, h);
            }
            gen_printf(b, "\"texels\": [");
            for (unsigned k = 0; k < n; k++) {
                if (k)
                    gen_printf(b, ", ");
                put_vec(r, b, 4);
            }
            gen_printf(b, "]}");
        }
        gen_printf(b, "}");
    }
    /* pixel shaders: whole quads mostly, a partial one sometimes */
    unsigned ninv = g->ps ? (chance(r, 70) ? 8 : 6) : 3 + below(r, 6);
    gen_printf(b, ",\n\"invocations\": [\n");
    for (unsigned k = 0; k < ninv; k++) {
        gen_printf(b, "  {");
        bool first = true;
        if (g->vs || g->v == SG_PS30) {
            for (unsigned i = 0; i < g->ninputs; i++) {
                gen_printf(b, "%s\"v%u\": ", first ? "" : ", ", i);
                first = false;
                if ((int)i == g->idx_input) {
                    /* a0 gets round(x) of these: -3..4, halves included; now and
                     * then far outside, where c[a0.c + n] must read 0 */
                    gen_printf(b, "[");
                    for (unsigned c = 0; c < 4; c++)
                        gen_printf(b, "%s%g", c ? ", " : "",
                                  chance(r, 3) ? (double)((int)below(r, 601) - 300)
                                               : (int)below(r, 15) / 2.0 - 3.5);
                    gen_printf(b, "]");
                } else {
                    put_vec(r, b, 4);
                }
            }
            if (g->vpos)
                gen_printf(b, ", \"vPos\": [%u.5, %u.5]", (k & 1) + 2 * (k >> 2), (k >> 1) & 1);
            if (g->vface)
                gen_printf(b, ", \"vFace\": %d", chance(r, 50) ? 1 : -1);
        } else {
            for (unsigned i = 0; i < g->ntex; i++) {
                gen_printf(b, "%s\"t%u\": ", first ? "" : ", ", i);
                first = false;
                put_vec(r, b, 4);
            }
            for (unsigned i = 0; i < 2; i++) {
                gen_printf(b, ", \"v%u\": ", i);
                put_vec(r, b, 4);
            }
        }
        gen_printf(b, "}%s\n", k + 1 < ninv ? "," : "");
    }
    gen_printf(b, "]\n}\n");
}

static int generate(uint64_t seed, const uint8_t *bytes, size_t nbytes, int version,
                    unsigned pp_percent, struct sg_shader *out)
{
    struct gen *g = calloc(1, sizeof(*g));
    if (!g)
        return -1;
    g->pp_percent = pp_percent;
    g->r.bytes = bytes;
    g->r.nbytes = bytes ? nbytes : 0;
    /* splitmix64 of the seed: nearby seeds give unrelated streams */
    uint64_t z = seed + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    g->r.s = (z ^ (z >> 31)) | 1;
    g->v = version >= 0 && version < SG_NUM_VERSIONS ? (enum sg_version)version
                                                      : (enum sg_version)below(&g->r, SG_NUM_VERSIONS);
    struct gen_buf in = {0};
    if (g->v >= SG_PS11) {
        gen_ps1x(g);
        inputs_json_ps1x(g, &in);
        goto done;
    }
    setup(g);
    header(g);
    prologue(g);
    g->budget = 8 + below(&g->r, 30);
    block(g, g->budget);
    epilogue(g);
    if (g->nsub) {
        gen_printf(&g->t, "ret\n");
        for (unsigned l = 1; l <= g->nsub; l++) {
            gen_printf(&g->t, "label l%u\n", l);
            g->in_sub = l;
            g->budget = 2 + below(&g->r, 5);
            g->block_depth = 1;
            block(g, g->budget);
            g->block_depth = 0;
            gen_printf(&g->t, "    ret\n");
        }
    }
    inputs_json(g, &in);
done:;
    int rc = 0;
    if (g->t.oom || in.oom || !g->t.p || !in.p) {
        free(g->t.p);
        free(in.p);
        rc = -1;
    } else {
        out->version = g->v;
        out->text = g->t.p;
        out->inputs = in.p;
    }
    free(g);
    return rc;
}

void sg_shader_free(struct sg_shader *s)
{
    if (!s)
        return;
    free(s->text);
    free(s->inputs);
    s->text = s->inputs = NULL;
}

int sg_generate(uint64_t seed, int version, struct sg_shader *out)
{
    return generate(seed, NULL, 0, version, 8, out);
}

int sg_generate_pp(uint64_t seed, int version, unsigned pp_percent, struct sg_shader *out)
{
    return generate(seed, NULL, 0, version, pp_percent, out);
}

int sg_generate_bytes(const uint8_t *bytes, size_t nbytes, int version, struct sg_shader *out)
{
    return generate(rng_bytes_hash(bytes, nbytes), bytes, nbytes, version, 8, out);
}
