/*
 * interp.c — the reference interpreter: executes a checked Direct3D 9
 * shader for a batch of invocations, following the specification of each
 * instruction in IEEE float32 (docs/interpreter.md lists every choice made
 * where the specification leaves room; docs/float-rules.md the two float
 * rules).
 *
 * Shape: the instruction list is flattened into an array with the partners
 * of every flow instruction resolved (if -> else/endif, loop -> endloop,
 * break -> its loop, call -> label).  Each invocation ("lane") then runs
 * with its own pc, loop and call stacks.  Pixel shaders run as 2x2 quads:
 * a lane stops in front of dsx/dsy until the lanes of its quad that reach
 * the same instruction are there too, so derivatives see their neighbours'
 * values at the same point of the program.
 *
 * All state is in struct run / struct lane: nothing global, nothing static
 * that changes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "translator.h"

enum {
    NUM_TEMPS = 32,
    NUM_TEXREGS = 8,
    MAX_LOOP_DEPTH = 64,
    MAX_CALL_DEPTH = 16,
    MAX_LABELS = 2048,
    ARB_MAX_TEMPS = 256, /* arb_check.c's MAX_PROGRAM_TEMPORARIES */
};
/* How often (in steps of one lane) the caller's cancel callback is asked. */
#define POLL_STEPS 65536u

struct loop_frame {
    int32_t aL, step, remaining;
    bool is_rep; /* rep has no aL */
};

struct call_frame {
    unsigned ret_pc;
    unsigned nloops; /* loop stack depth at the call */
};

struct lane {
    const float (*in)[4]; /* this invocation's input slots (inbuf under dcl_pp) */
    float inbuf[ST_LL_IN_SLOTS][4]; /* the slots with dcl_pp lanes rounded to half */
    unsigned invocation;
    float r[NUM_TEMPS][4];
    float t[NUM_TEXREGS][4]; /* ps t#: the coordinates, then ps_1_x results */
    float out[ST_LL_OUT_SLOTS][4];
    int32_t a0[4];
    bool p0[4];
    float pad[NUM_TEXREGS]; /* texm3x2pad/texm3x3pad dot products, by register */
    unsigned pc;
    bool done, discarded;
    struct loop_frame loops[MAX_LOOP_DEPTH];
    unsigned nloops;
    struct call_frame calls[MAX_CALL_DEPTH];
    unsigned ncalls;
    unsigned long long steps;
    float at[ARB_MAX_TEMPS][4]; /* ARB programs: the TEMP variables */
};

struct run {
    struct st_ctx *ctx;
    const struct st_shader *sh;
    const struct st_run_inputs *in;
    bool legacy; /* ST_FLOAT_D3D9 */
    bool fused;  /* multiply-adds rounded once (st_op_env.fused) */
    bool half;   /* --pp=fp16: _pp instructions compute in half (sh->pp_half) */
    uint8_t pp_in[ST_LL_IN_SLOTS]; /* under half: the dcl_pp lanes of each input slot */
    bool any_pp_in;
    bool ps, ps1x;
    uint16_t ver;
    const struct st_instr **code;
    unsigned n;
    int *match;       /* flow partner, -1 if none */
    int *loop_of;     /* break*: pc of the enclosing loop/rep, -1 if none */
    int labels[MAX_LABELS];
    bool *rel_warned; /* by pc: the out-of-range warning was given */
    bool tex_warned[ST_RUN_NUM_SAMPLERS];
    unsigned num_consts, num_inputs;
    bool arb; /* an ARB program: registers index sh->arb's tables */
    /* st_run_worst_case: no lane can execute more (the run budget was
     * checked against it); going past it would be a defect of that bound */
    unsigned long long max_steps;
};

/* ------------------------------------------------------------------ */
/* Arithmetic under the float rules (ops.c defines each operation)     */

static float mulr(const struct run *R, float a, float b)
{
    return st_op_mul(R->legacy, a, b);
}

static float dot3(const struct run *R, const float a[4], const float b[4])
{
    return st_op_dot(R->legacy, R->fused, a, b, 3);
}

/* a * b + c, the product rounded first unless R->fused */
static float muladd(const struct run *R, float a, float b, float c)
{
    return st_op_muladd(R->legacy, R->fused, a, b, c);
}

/* ------------------------------------------------------------------ */
/* Registers                                                           */

static const float zero4[4] = {0, 0, 0, 0};

static int32_t current_aL(const struct lane *L)
{
    for (unsigned k = L->nloops; k-- > 0;)
        if (!L->loops[k].is_rep)
            return L->loops[k].aL;
    return 0;
}

/* Number of registers relative addressing may reach in a file. */
static unsigned rel_limit(const struct run *R, enum st_regfile file)
{
    switch (file) {
    case ST_REG_CONST: return R->num_consts;
    case ST_REG_INPUT: return R->num_inputs;
    case ST_REG_OUTPUT: return 12;
    case ST_REG_TEXCRDOUT: return 8;
    case ST_REG_TEMP: return NUM_TEMPS;
    default: return 0xffffffffu;
    }
}

/* The register's index after relative addressing; false (and one warning
 * per instruction) when it falls outside the file. */
static bool reg_index(struct run *R, struct lane *L, unsigned pc, const struct st_reg *reg,
                      uint32_t *out)
{
    if (!reg->rel) {
        *out = reg->index;
        return true;
    }
    int64_t off = reg->rel->file == ST_REG_LOOP ? current_aL(L) : L->a0[reg->rel->component & 3];
    int64_t idx = (int64_t)reg->index + off;
    unsigned limit = rel_limit(R, reg->file);
    if (idx < 0 || idx >= (int64_t)limit) {
        if (!R->rel_warned[pc]) {
            R->rel_warned[pc] = true;
            st_warning(R->ctx, reg->loc, ST_W_RELADDR_RANGE,
                       "relative address %s%lld is outside %s0..%s%u (first in invocation %u); "
                       "reads give 0 and writes are dropped",
                       st_regfile_name(reg->file, 0), (long long)idx,
                       st_regfile_name(reg->file, 0), st_regfile_name(reg->file, 0), limit - 1,
                       L->invocation);
        }
        return false;
    }
    *out = (uint32_t)idx;
    return true;
}

static void arb_read_reg(struct run *R, struct lane *L, unsigned pc, const struct st_reg *reg,
                         float v[4]);

static void read_reg(struct run *R, struct lane *L, unsigned pc, const struct st_reg *reg,
                     float v[4])
{
    uint32_t idx;
    if (R->arb) {
        arb_read_reg(R, L, pc, reg, v);
        return;
    }
    memcpy(v, zero4, sizeof(zero4));
    if (!reg_index(R, L, pc, reg, &idx))
        return;
    const float *src = NULL;
    int slot;
    switch (reg->file) {
    case ST_REG_TEMP:
        src = idx < NUM_TEMPS ? L->r[idx] : NULL;
        break;
    case ST_REG_INPUT:
    case ST_REG_MISC:
        slot = st_run_in_slot(reg->file, idx);
        src = slot >= 0 ? L->in[slot] : NULL;
        break;
    case ST_REG_TEXTURE:
        src = idx < NUM_TEXREGS ? L->t[idx] : NULL;
        break;
    case ST_REG_CONST:
        src = idx < ST_RUN_NUM_CONSTS ? R->in->c[idx] : NULL;
        break;
    case ST_REG_CONSTINT:
        if (idx < ST_RUN_NUM_ICONSTS)
            for (int k = 0; k < 4; k++)
                v[k] = (float)R->in->i[idx][k];
        return;
    case ST_REG_CONSTBOOL:
        if (idx < ST_RUN_NUM_BCONSTS)
            v[0] = v[1] = v[2] = v[3] = R->in->b[idx] ? 1.0f : 0.0f;
        return;
    case ST_REG_ADDR:
        for (int k = 0; k < 4; k++)
            v[k] = (float)L->a0[k];
        return;
    case ST_REG_LOOP:
        v[0] = v[1] = v[2] = v[3] = (float)current_aL(L);
        return;
    case ST_REG_PREDICATE:
        for (int k = 0; k < 4; k++)
            v[k] = L->p0[k] ? 1.0f : 0.0f;
        return;
    default:
        slot = st_run_out_slot(reg->file, idx);
        src = slot >= 0 ? L->out[slot] : NULL;
        break;
    }
    if (src)
        memcpy(v, src, 4 * sizeof(float));
}

/* A source operand: register, swizzle, then the source modifier. */
static void read_src(struct run *R, struct lane *L, unsigned pc, const struct st_src *s,
                     float v[4])
{
    float raw[4];
    read_reg(R, L, pc, &s->reg, raw);
    for (int k = 0; k < 4; k++)
        v[k] = raw[ST_SWZ_LANE(s->swizzle, k)];
    switch (s->mod) {
    case ST_SRCMOD_NONE:
    case ST_SRCMOD_NOT:
        break;
    case ST_SRCMOD_NEG:
        for (int k = 0; k < 4; k++)
            v[k] = -v[k];
        break;
    case ST_SRCMOD_BIAS:
        for (int k = 0; k < 4; k++)
            v[k] = v[k] - 0.5f;
        break;
    case ST_SRCMOD_BIASNEG:
        for (int k = 0; k < 4; k++)
            v[k] = -(v[k] - 0.5f);
        break;
    case ST_SRCMOD_SIGN:
        for (int k = 0; k < 4; k++)
            v[k] = 2.0f * (v[k] - 0.5f);
        break;
    case ST_SRCMOD_SIGNNEG:
        for (int k = 0; k < 4; k++)
            v[k] = -2.0f * (v[k] - 0.5f);
        break;
    case ST_SRCMOD_COMP:
        for (int k = 0; k < 4; k++)
            v[k] = 1.0f - v[k];
        break;
    case ST_SRCMOD_X2:
        for (int k = 0; k < 4; k++)
            v[k] = 2.0f * v[k];
        break;
    case ST_SRCMOD_X2NEG:
        for (int k = 0; k < 4; k++)
            v[k] = -2.0f * v[k];
        break;
    case ST_SRCMOD_DZ: /* ps_1_4: x/z, y/z */
        v[0] = v[0] / v[2];
        v[1] = v[1] / v[2];
        break;
    case ST_SRCMOD_DW: /* ps_1_4: x/w, y/w */
        v[0] = v[0] / v[3];
        v[1] = v[1] / v[3];
        break;
    case ST_SRCMOD_ABS:
        for (int k = 0; k < 4; k++)
            v[k] = fabsf(v[k]);
        break;
    case ST_SRCMOD_ABSNEG:
        for (int k = 0; k < 4; k++)
            v[k] = -fabsf(v[k]);
        break;
    }
}

/* A boolean condition: b#, p0.c (after !) or a float register != 0. */
static bool read_cond(struct run *R, struct lane *L, unsigned pc, const struct st_src *s)
{
    bool b;
    if (s->reg.file == ST_REG_CONSTBOOL) {
        b = s->reg.index < ST_RUN_NUM_BCONSTS && R->in->b[s->reg.index];
    } else if (s->reg.file == ST_REG_PREDICATE) {
        b = L->p0[ST_SWZ_LANE(s->swizzle, 0)];
    } else {
        float v[4];
        read_src(R, L, pc, s, v);
        b = v[0] != 0.0f;
    }
    return s->mod == ST_SRCMOD_NOT ? !b : b;
}

/* Lanes the predicate lets through (all when not predicated). */
static unsigned pred_mask(const struct lane *L, const struct st_instr *in)
{
    if (!in->predicated)
        return 0xf;
    unsigned m = 0;
    for (int k = 0; k < 4; k++) {
        bool b = L->p0[ST_SWZ_LANE(in->pred.swizzle, k)];
        if (in->pred.mod == ST_SRCMOD_NOT)
            b = !b;
        if (b)
            m |= 1u << k;
    }
    return m;
}


/* A _pp instruction that computes in half (--pp=fp16). */
static bool is_half(const struct run *R, const struct st_instr *in)
{
    return R->half && (in->dstmod & ST_DSTMOD_PP);
}

/* x rounded to half when in computes in half */
static float half_if(const struct run *R, const struct st_instr *in, float x)
{
    return is_half(R, in) ? st_half_round(x) : x;
}

/*
 * Writes an instruction's result: result shift (_x2.. _d8), then _sat,
 * then the lanes of writemask & opmask & predicate.  A _pp instruction
 * under --pp=fp16 stores a half (its result is one already; _sat keeps
 * it one); otherwise _pp changes nothing.
 */
static void write_dst(struct run *R, struct lane *L, unsigned pc, const struct st_instr *in,
                      const float res[4], unsigned opmask)
{
    unsigned mask = in->dst.writemask & opmask & pred_mask(L, in);
    if (!mask)
        return;
    float v[4];
    for (int k = 0; k < 4; k++) {
        float x = res[k];
        if (in->shift)
            x = ldexpf(x, in->shift);
        if (in->dstmod & ST_DSTMOD_SAT)
            x = st_op_saturate(x);
        v[k] = half_if(R, in, x);
    }
    uint32_t idx;
    if (R->arb) {
        /* TEMP, the address register (ARL: lane x) and result.* (output slot =
         * the index; scalar results are picked out when collected). */
        float *d = NULL;
        idx = in->dst.reg.index;
        if (in->dst.reg.file == ST_REG_TEMP && idx < ARB_MAX_TEMPS)
            d = L->at[idx];
        else if (in->dst.reg.file == ST_REG_OUTPUT && idx < ST_LL_OUT_SLOTS)
            d = L->out[idx];
        else if (in->dst.reg.file == ST_REG_ADDR && (mask & 1u))
            L->a0[0] = st_op_round(v[0]);
        for (int k = 0; d && k < 4; k++)
            if (mask & (1u << k))
                d[k] = v[k];
        return;
    }
    if (!reg_index(R, L, pc, &in->dst.reg, &idx))
        return;
    float *dst = NULL;
    switch (in->dst.reg.file) {
    case ST_REG_TEMP:
        dst = idx < NUM_TEMPS ? L->r[idx] : NULL;
        break;
    case ST_REG_TEXTURE:
        dst = idx < NUM_TEXREGS ? L->t[idx] : NULL;
        break;
    case ST_REG_ADDR:
        for (int k = 0; k < 4; k++)
            if (mask & (1u << k))
                L->a0[k] = st_op_round(v[k]);
        return;
    case ST_REG_PREDICATE:
        for (int k = 0; k < 4; k++)
            if (mask & (1u << k))
                L->p0[k] = v[k] != 0.0f;
        return;
    default: {
        int slot = st_run_out_slot(in->dst.reg.file, idx);
        if (slot < 0)
            return;
        if (slot == ST_LL_OUT_FOG || slot == ST_LL_OUT_PTS || slot == ST_LL_OUT_DEPTH) {
            /* Scalar outputs take the first written lane. */
            for (int k = 0; k < 4; k++)
                if (mask & (1u << k)) {
                    L->out[slot][0] = v[k];
                    break;
                }
            return;
        }
        dst = L->out[slot];
        break;
    }
    }
    if (!dst)
        return;
    for (int k = 0; k < 4; k++)
        if (mask & (1u << k))
            dst[k] = v[k];
}

/* ------------------------------------------------------------------ */
/* Textures: the shared model of run_io.c (st_run_texel).              */

static void sample(struct run *R, const struct st_instr *in, uint32_t stage,
                   const float c[4], float out[4])
{
    const struct st_run_texture *t = stage < ST_RUN_NUM_SAMPLERS ? &R->in->tex[stage] : NULL;
    if (!t || t->type == ST_SAMPLER_NONE || !t->texels) {
        if (stage < ST_RUN_NUM_SAMPLERS && !R->tex_warned[stage]) {
            R->tex_warned[stage] = true;
            st_warning(R->ctx, in->loc, ST_W_IGNORED,
                       "no texture s%u in the inputs: sampling it gives (0,0,0,1)",
                       (unsigned)stage);
        }
        out[0] = out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
        return;
    }
    st_run_texel(t, c, out);
}

/* The texture coordinates of set k (ps t# inputs), not the register. */
static const float *coords(const struct lane *L, uint32_t k)
{
    return k < NUM_TEXREGS ? L->in[ST_LL_IN_T + k] : zero4;
}

static const struct st_run_bumpenv *bumpenv(const struct run *R, uint32_t stage)
{
    static const struct st_run_bumpenv none = {{0, 0, 0, 0}, 0, 0};
    return stage < ST_RUN_NUM_SAMPLERS ? &R->in->bumpenv[stage] : &none;
}

/* ------------------------------------------------------------------ */
/* ARB programs                                                        */

/* The array bounds of a relatively addressed ARB operand. */
static void arb_rel_bounds(const struct run *R, unsigned pc, const struct st_reg *reg,
                           uint32_t *first, uint32_t *count, const char **name)
{
    const struct st_instr *in = R->code[pc];
    const struct st_arb_program *a = R->sh->arb;
    *first = 0, *count = a->num_params, *name = "the parameters";
    for (unsigned k = 0; k < in->nsrc && k < 3; k++)
        if (&in->src[k].reg == reg && in->arb && in->arb->src[k].array >= 0 &&
            (unsigned)in->arb->src[k].array < a->num_arrays) {
            const struct st_arb_array *arr = &a->arrays[in->arb->src[k].array];
            *first = arr->first, *count = arr->count, *name = arr->name;
        }
}

/* TEMP, inputs (slot = index), parameters (c[index]); a[A0.x + k] reads
 * inside its array only: outside it gives 0 (ARB leaves it undefined),
 * with one warning per instruction. */
static void arb_read_reg(struct run *R, struct lane *L, unsigned pc, const struct st_reg *reg,
                         float v[4])
{
    memcpy(v, zero4, sizeof(zero4));
    uint32_t idx = reg->index;
    if (reg->rel) {
        uint32_t first, count;
        const char *name;
        arb_rel_bounds(R, pc, reg, &first, &count, &name);
        int64_t i = (int64_t)(int32_t)reg->index + L->a0[0];
        if (i < (int64_t)first || i >= (int64_t)first + count) {
            if (!R->rel_warned[pc]) {
                R->rel_warned[pc] = true;
                st_warning(R->ctx, reg->loc, ST_W_RELADDR_RANGE,
                           "relative address %lld is outside %s[0..%u] (first in invocation "
                           "%u); reads give 0", (long long)(i - (int64_t)first), name,
                           count ? count - 1 : 0, L->invocation);
            }
            return;
        }
        idx = (uint32_t)i;
    }
    const float *src = NULL;
    switch (reg->file) {
    case ST_REG_TEMP:
        src = idx < ARB_MAX_TEMPS ? L->at[idx] : NULL;
        break;
    case ST_REG_INPUT:
        src = idx < ST_LL_IN_SLOTS ? L->in[idx] : NULL;
        break;
    case ST_REG_CONST:
        src = st_run_const(R->in, idx); /* past 256 for big programs (run.c_more) */
        break;
    case ST_REG_OUTPUT:
        src = idx < ST_LL_OUT_SLOTS ? L->out[idx] : NULL;
        break;
    case ST_REG_ADDR:
        v[0] = v[1] = v[2] = v[3] = (float)L->a0[0];
        return;
    default:
        break;
    }
    if (src)
        memcpy(v, src, 4 * sizeof(float));
}

/* The instructions ARB adds that are more than a function of their
 * sources (the others are st_op_eval's); s0 is the first source, read. */
static bool arb_compute(struct run *R, struct lane *L, const struct st_instr *in,
                        const float s0[4], float res[4])
{
    switch (in->op) {
    case ST_OP_ARB_KIL:
        for (int k = 0; k < 4; k++)
            if (s0[k] < 0.0f)
                L->discarded = true;
        return false;
    case ST_OP_ARB_TEX:
    case ST_OP_ARB_TXP:
    case ST_OP_ARB_TXB: {
        float c[4];
        memcpy(c, s0, sizeof(c));
        if (in->op == ST_OP_ARB_TXP)
            for (int k = 0; k < 3; k++)
                c[k] = s0[k] / s0[3];
        /* TXB's bias selects nothing: only level 0 exists. */
        uint32_t unit = in->arb->tex_unit;
        const struct st_run_texture *t = unit < ST_RUN_NUM_SAMPLERS ? &R->in->tex[unit] : NULL;
        if ((!t || t->type == ST_SAMPLER_NONE) && unit < ST_RUN_NUM_SAMPLERS &&
            !R->tex_warned[unit]) {
            R->tex_warned[unit] = true;
            st_warning(R->ctx, in->loc, ST_W_IGNORED,
                       "no texture texture[%u] in the inputs: sampling it gives (0,0,0,1)",
                       (unsigned)unit);
        }
        st_arb_sample(t && t->type != ST_SAMPLER_NONE ? t : NULL, in->arb->tex_target, c, res);
        return true;
    }
    default:
        return false;
    }
}

/* ------------------------------------------------------------------ */
/* Instructions                                                        */

/* m4x4 .. m3x2 read their second source row by row: it names the first of
 * consecutive registers, so it is not one value compute could read. */
static bool compute_matrix(struct run *R, struct lane *L, unsigned pc,
                           const struct st_instr *in, float res[4], unsigned *opmask)
{
    float s0[4] = {0}, s1[4] = {0};
    unsigned rows = in->op == ST_OP_M4x4 || in->op == ST_OP_M3x4 ? 4
                  : in->op == ST_OP_M3x2                        ? 2 : 3;
    bool four = in->op == ST_OP_M4x4 || in->op == ST_OP_M4x3;
    struct st_op_env env = {R->arb, R->legacy, R->ver, in->cmp, {0, 1, 2, 3}, 0, R->fused,
                            is_half(R, in)};
    read_src(R, L, pc, &in->src[0], s0);
    for (unsigned k = 0; k < 4; k++) {
        s0[k] = half_if(R, in, s0[k]);
        res[k] = 0.0f;
    }
    for (unsigned row = 0; row < rows; row++) {
        struct st_src m = in->src[1];
        m.reg.index += row; /* the rows are consecutive registers */
        read_src(R, L, pc, &m, s1);
        for (unsigned k = 0; k < 4; k++)
            s1[k] = half_if(R, in, s1[k]);
        res[row] = st_op_dot_env(&env, s0, s1, four ? 4 : 3);
    }
    *opmask = (1u << rows) - 1;
    return true;
}

/* texld* (ps_1_4 .. 3_0, vs_3_0): ps_1_4 samples the stage of its dst
 * register, whose coordinates it reads when it names no source. */
static bool compute_texld(struct run *R, struct lane *L, unsigned pc,
                          const struct st_instr *in, float res[4])
{
    float s0[4] = {0};
    const unsigned ns = in->nsrc;
    const uint32_t didx = in->dst.reg.index;
    uint32_t stage;
    if (R->ps && R->ver < ST_VER(2, 0)) {
        /* ps_1_4: the stage is the dst register number. */
        stage = didx;
        if (ns > 0)
            read_src(R, L, pc, &in->src[0], s0);
        else
            memcpy(s0, coords(L, didx), sizeof(s0));
    } else {
        read_src(R, L, pc, &in->src[0], s0);
        stage = ns > 1 ? in->src[1].reg.index : 0;
    }
    if (in->op == ST_OP_TEXLDP)
        for (int k = 0; k < 3; k++)
            s0[k] = s0[k] / s0[3];
    /* Only level 0 exists: the lod of texldl/texldb and the gradients
     * of texldd select nothing else. */
    sample(R, in, stage, s0, res);
    /* _pp in half: the texel is rounded; the coordinates are an address,
     * read at full precision */
    for (int k = 0; k < 4; k++)
        res[k] = half_if(R, in, res[k]);
    return true;
}

/* The ps_1_x texture-address instructions (OPF_TEX1X).  Their sources are
 * read here, not by compute: a t# source means the texture coordinates of
 * that stage, and the texm* rows pass their dot products on in L->pad. */
static bool compute_tex1x(struct run *R, struct lane *L, unsigned pc,
                          const struct st_instr *in, float res[4])
{
    float s0[4] = {0};
    const uint32_t didx = in->dst.reg.index;
    switch (in->op) {
    case ST_OP_TEXCRD: /* ps_1_4: the coordinates, through swizzle and _dz/_dw */
        read_src(R, L, pc, &in->src[0], res);
        return true;
    case ST_OP_TEX:
        sample(R, in, didx, coords(L, didx), res);
        return true;
    case ST_OP_TEXCOORD: {
        const float *c = coords(L, didx);
        for (int k = 0; k < 3; k++)
            res[k] = st_op_saturate(c[k]);
        res[3] = 1.0f;
        return true;
    }
    case ST_OP_TEXBEM:
    case ST_OP_TEXBEML: {
        const struct st_run_bumpenv *be = bumpenv(R, didx);
        const float *c = coords(L, didx);
        read_src(R, L, pc, &in->src[0], s0);
        float uv[4] = {0, 0, 0, 1};
        uv[0] = muladd(R, be->mat[2], s0[1], muladd(R, be->mat[0], s0[0], c[0]));
        uv[1] = muladd(R, be->mat[3], s0[1], muladd(R, be->mat[1], s0[0], c[1]));
        sample(R, in, didx, uv, res);
        if (in->op == ST_OP_TEXBEML) {
            float lum = muladd(R, s0[2], be->lscale, be->loffset);
            for (int k = 0; k < 4; k++)
                res[k] = mulr(R, res[k], lum);
        }
        return true;
    }
    case ST_OP_TEXREG2AR:
    case ST_OP_TEXREG2GB:
    case ST_OP_TEXREG2RGB: {
        read_src(R, L, pc, &in->src[0], s0);
        float uv[4] = {0, 0, 0, 1};
        if (in->op == ST_OP_TEXREG2AR) {
            uv[0] = s0[3];
            uv[1] = s0[0];
        } else if (in->op == ST_OP_TEXREG2GB) {
            uv[0] = s0[1];
            uv[1] = s0[2];
        } else {
            uv[0] = s0[0];
            uv[1] = s0[1];
            uv[2] = s0[2];
        }
        sample(R, in, didx, uv, res);
        return true;
    }
    case ST_OP_TEXM3x2PAD:
    case ST_OP_TEXM3x3PAD:
        read_src(R, L, pc, &in->src[0], s0);
        if (didx < NUM_TEXREGS)
            L->pad[didx] = dot3(R, coords(L, didx), s0);
        return false;
    case ST_OP_TEXM3x2TEX:
    case ST_OP_TEXM3x2DEPTH: {
        read_src(R, L, pc, &in->src[0], s0);
        float u = didx >= 1 && didx - 1 < NUM_TEXREGS ? L->pad[didx - 1] : 0.0f;
        float v = dot3(R, coords(L, didx), s0);
        if (in->op == ST_OP_TEXM3x2DEPTH) {
            /* z/w goes to the depth output; w == 0 gives 1.0. */
            L->out[ST_LL_OUT_DEPTH][0] = v == 0.0f ? 1.0f : u / v;
            return false;
        }
        float uv[4] = {u, v, 0, 1};
        sample(R, in, didx, uv, res);
        return true;
    }
    case ST_OP_TEXM3x3TEX:
    case ST_OP_TEXM3x3:
    case ST_OP_TEXM3x3SPEC:
    case ST_OP_TEXM3x3VSPEC: {
        read_src(R, L, pc, &in->src[0], s0);
        float n3[4] = {0, 0, 0, 1};
        n3[0] = didx >= 2 && didx - 2 < NUM_TEXREGS ? L->pad[didx - 2] : 0.0f;
        n3[1] = didx >= 1 && didx - 1 < NUM_TEXREGS ? L->pad[didx - 1] : 0.0f;
        n3[2] = dot3(R, coords(L, didx), s0);
        if (in->op == ST_OP_TEXM3x3) {
            memcpy(res, n3, sizeof(n3));
            return true;
        }
        if (in->op == ST_OP_TEXM3x3TEX) {
            sample(R, in, didx, n3, res);
            return true;
        }
        /* Reflect the eye vector E about the normal N:
         * R = 2 * N * (N.E) / (N.N) - E. */
        float e[4] = {0, 0, 0, 0};
        if (in->op == ST_OP_TEXM3x3SPEC) {
            read_src(R, L, pc, &in->src[1], e);
        } else {
            e[0] = didx >= 2 ? coords(L, didx - 2)[3] : 0.0f;
            e[1] = didx >= 1 ? coords(L, didx - 1)[3] : 0.0f;
            e[2] = coords(L, didx)[3];
        }
        float ne = dot3(R, n3, e), nn = dot3(R, n3, n3);
        float rv[4] = {0, 0, 0, 1};
        for (int k = 0; k < 3; k++)
            rv[k] = mulr(R, 2.0f * n3[k], ne) / nn - e[k];
        sample(R, in, didx, rv, res);
        return true;
    }
    case ST_OP_TEXDP3TEX:
    case ST_OP_TEXDP3: {
        read_src(R, L, pc, &in->src[0], s0);
        float u = dot3(R, coords(L, didx), s0);
        if (in->op == ST_OP_TEXDP3) {
            res[0] = res[1] = res[2] = res[3] = u;
            return true;
        }
        float uv[4] = {u, 0, 0, 1};
        sample(R, in, didx, uv, res);
        return true;
    }
    case ST_OP_TEXDEPTH: {
        /* ps_1_4: depth = r5.r / r5.g, 1.0 when r5.g is 0. */
        float v[4];
        read_reg(R, L, pc, &in->dst.reg, v);
        L->out[ST_LL_OUT_DEPTH][0] = v[1] == 0.0f ? 1.0f : v[0] / v[1];
        return false;
    }
    default: /* compute sends only the OPF_TEX1X opcodes */
        return false;
    }
}

/*
 * Computes an instruction that writes its dst into res/opmask, without
 * writing (so co-issued pairs read their sources before either writes).
 * Returns false for instructions that write nothing.
 */
static bool compute(struct run *R, struct lane *L, unsigned pc, const struct st_instr *in,
                    float res[4], unsigned *opmask)
{
    float s0[4] = {0}, s1[4] = {0}, s2[4] = {0};
    const unsigned ns = in->nsrc;
    const uint32_t didx = in->dst.reg.index;
    *opmask = 0xf;
    /* These read their sources themselves: t# coordinates, the rows of a
     * matrix, ps_1_4's texld without a source, texkill's dst. */
    if (st_opinfo[in->op].flags & OPF_TEX1X)
        return compute_tex1x(R, L, pc, in, res);
    if (st_opinfo[in->op].flags & OPF_MATRIX)
        return compute_matrix(R, L, pc, in, res, opmask);
    switch (in->op) {
    case ST_OP_TEXLD: case ST_OP_TEXLDP: case ST_OP_TEXLDB: case ST_OP_TEXLDL: case ST_OP_TEXLDD:
        return compute_texld(R, L, pc, in, res);
    case ST_OP_TEXKILL: {
        /* Discard when any of x, y, z is below 0 (lanes the predicate lets
         * through).  ps_1_x t#: the texture coordinates. */
        float v[4];
        if (in->dst.reg.file == ST_REG_TEXTURE)
            memcpy(v, coords(L, didx), sizeof(v));
        else
            read_reg(R, L, pc, &in->dst.reg, v);
        unsigned pm = pred_mask(L, in);
        for (int k = 0; k < 3; k++)
            if ((pm & (1u << k)) && v[k] < 0.0f)
                L->discarded = true;
        return false;
    }
    default:
        break;
    }
    if (ns > 0)
        read_src(R, L, pc, &in->src[0], s0);
    if (ns > 1)
        read_src(R, L, pc, &in->src[1], s1);
    if (ns > 2)
        read_src(R, L, pc, &in->src[2], s2);
    /* a _pp instruction in half reads its sources rounded to half */
    for (int k = 0; k < 4 && is_half(R, in); k++) {
        s0[k] = st_half_round(s0[k]);
        s1[k] = st_half_round(s1[k]);
        s2[k] = st_half_round(s2[k]);
    }
    switch (in->op) {
    case ST_OP_BEM: {
        const struct st_run_bumpenv *be = bumpenv(R, didx);
        res[0] = muladd(R, be->mat[2], s1[1], muladd(R, be->mat[0], s1[0], s0[0]));
        res[1] = muladd(R, be->mat[3], s1[1], muladd(R, be->mat[1], s1[0], s0[1]));
        res[2] = res[3] = 0.0f;
        *opmask = 0x3;
        return true;
    }
    case ST_OP_ARB_KIL: case ST_OP_ARB_TEX: case ST_OP_ARB_TXP: case ST_OP_ARB_TXB:
        return arb_compute(R, L, in, s0, res);
    default: {
        /* Everything that is a function of its sources alone; nop, dcl,
         * def*, phase compute nothing (false). */
        struct st_op_env env = {R->arb, R->legacy, R->ver, in->cmp, {0, 1, 2, 3}, 0, R->fused,
                                is_half(R, in)};
        if (in->op == ST_OP_ARB_SWZ && in->arb) {
            memcpy(env.swz_sel, in->arb->swz_sel, 4);
            env.swz_neg = in->arb->swz_neg;
        }
        const float src[3][4] = {{s0[0], s0[1], s0[2], s0[3]}, {s1[0], s1[1], s1[2], s1[3]},
                                 {s2[0], s2[1], s2[2], s2[3]}};
        return st_op_eval(&env, in->op, src, res, opmask);
    }
    }
}

/* ------------------------------------------------------------------ */
/* Control flow                                                        */

static bool runtime_error(struct run *R, struct lane *L, const struct st_instr *in,
                          const char *what)
{
    st_error(R->ctx, in->loc, ST_E_RUNTIME, "invocation %u: %s", L->invocation, what);
    return false;
}

static void do_break(struct run *R, struct lane *L, unsigned pc)
{
    int lp = R->loop_of[pc];
    if (lp < 0 || R->match[lp] < 0) {
        L->pc = pc + 1; /* no enclosing loop: nothing to leave */
        return;
    }
    if (L->nloops)
        L->nloops--;
    L->pc = (unsigned)R->match[lp] + 1;
}

static void do_return(struct lane *L)
{
    if (L->ncalls == 0) {
        L->done = true;
        return;
    }
    struct call_frame *f = &L->calls[--L->ncalls];
    L->nloops = f->nloops;
    L->pc = f->ret_pc;
}

enum lane_status { LANE_DONE, LANE_WAIT, LANE_FAILED };

/* Runs a lane until it ends, or (quad mode) stops in front of dsx/dsy. */
static enum lane_status lane_run(struct run *R, struct lane *L, bool quad)
{
    while (!L->done) {
        if (L->pc >= R->n) {
            L->done = true;
            break;
        }
        unsigned pc = L->pc;
        const struct st_instr *in = R->code[pc];
        if (++L->steps > R->max_steps)
            return runtime_error(R, L, in, "more instructions executed than the worst case "
                                           "the run budget was checked against; stopping"),
                   LANE_FAILED;
        if (L->steps % POLL_STEPS == 0 && !st_poll_at(R->ctx, in->loc, 0))
            return LANE_FAILED;
        switch (in->op) {
        case ST_OP_IF:
        case ST_OP_IFC: {
            bool c = in->op == ST_OP_IF ? read_cond(R, L, pc, &in->src[0]) : false;
            if (in->op == ST_OP_IFC) {
                float a[4], b[4];
                read_src(R, L, pc, &in->src[0], a);
                read_src(R, L, pc, &in->src[1], b);
                c = st_op_compare(in->cmp, a[0], b[0]);
            }
            L->pc = c || R->match[pc] < 0 ? pc + 1 : (unsigned)R->match[pc] + 1;
            break;
        }
        case ST_OP_ELSE:
            /* Reached at the end of the true branch. */
            L->pc = R->match[pc] < 0 ? pc + 1 : (unsigned)R->match[pc] + 1;
            break;
        case ST_OP_LOOP:
        case ST_OP_REP: {
            const struct st_src *is = &in->src[in->op == ST_OP_LOOP ? 1 : 0];
            int32_t iv[4] = {0, 0, 0, 0};
            if (is->reg.file == ST_REG_CONSTINT && is->reg.index < ST_RUN_NUM_ICONSTS)
                memcpy(iv, R->in->i[is->reg.index], sizeof(iv));
            /* The iteration count is i#.x, clamped to 0..255 as the spec's range. */
            int32_t count = iv[0] < 0 ? 0 : iv[0] > 255 ? 255 : iv[0];
            if (count == 0 || R->match[pc] < 0) {
                L->pc = R->match[pc] < 0 ? pc + 1 : (unsigned)R->match[pc] + 1;
                break;
            }
            if (L->nloops >= MAX_LOOP_DEPTH)
                return runtime_error(R, L, in, "loops nested deeper than 64"), LANE_FAILED;
            struct loop_frame *f = &L->loops[L->nloops++];
            f->is_rep = in->op == ST_OP_REP;
            f->aL = iv[1];
            f->step = iv[2];
            f->remaining = count;
            L->pc = pc + 1;
            break;
        }
        case ST_OP_ENDLOOP:
        case ST_OP_ENDREP: {
            if (!L->nloops || R->match[pc] < 0) {
                L->pc = pc + 1;
                break;
            }
            struct loop_frame *f = &L->loops[L->nloops - 1];
            if (--f->remaining > 0) {
                f->aL = (int32_t)((uint32_t)f->aL + (uint32_t)f->step);
                L->pc = (unsigned)R->match[pc] + 1;
            } else {
                L->nloops--;
                L->pc = pc + 1;
            }
            break;
        }
        case ST_OP_BREAK:
            do_break(R, L, pc);
            break;
        case ST_OP_BREAKC: {
            float a[4], b[4];
            read_src(R, L, pc, &in->src[0], a);
            read_src(R, L, pc, &in->src[1], b);
            if (st_op_compare(in->cmp, a[0], b[0]))
                do_break(R, L, pc);
            else
                L->pc = pc + 1;
            break;
        }
        case ST_OP_BREAKP:
            if (read_cond(R, L, pc, &in->src[0]))
                do_break(R, L, pc);
            else
                L->pc = pc + 1;
            break;
        case ST_OP_CALL:
        case ST_OP_CALLNZ: {
            bool go = in->op == ST_OP_CALL || read_cond(R, L, pc, &in->src[1]);
            uint32_t l = in->src[0].reg.index;
            if (in->predicated && !(pred_mask(L, in) & 1))
                go = false;
            if (!go || l >= MAX_LABELS || R->labels[l] < 0) {
                L->pc = pc + 1;
                break;
            }
            if (L->ncalls >= MAX_CALL_DEPTH)
                return runtime_error(R, L, in, "calls nested deeper than 16"), LANE_FAILED;
            L->calls[L->ncalls].ret_pc = pc + 1;
            L->calls[L->ncalls].nloops = L->nloops;
            L->ncalls++;
            L->pc = (unsigned)R->labels[l] + 1;
            break;
        }
        case ST_OP_RET:
        case ST_OP_LABEL: /* falling into a label ends the function */
            do_return(L);
            break;
        case ST_OP_DSX:
        case ST_OP_DSY:
            if (quad)
                return LANE_WAIT;
            {
                /* A lone invocation (vertex shader) has no neighbours. */
                write_dst(R, L, pc, in, zero4, 0xf);
                L->pc = pc + 1;
            }
            break;
        default: {
            float res[4], res2[4];
            unsigned m1, m2;
            const struct st_instr *next = pc + 1 < R->n ? R->code[pc + 1] : NULL;
            if (next && next->coissue && !(st_opinfo[next->op].flags & OPF_FLOW)) {
                /* Co-issued pair: both read their sources, then both write. */
                bool w1 = compute(R, L, pc, in, res, &m1);
                bool w2 = compute(R, L, pc + 1, next, res2, &m2);
                if (w1 && in->has_dst)
                    write_dst(R, L, pc, in, res, m1);
                if (w2 && next->has_dst)
                    write_dst(R, L, pc + 1, next, res2, m2);
                L->pc = pc + 2;
            } else {
                if (compute(R, L, pc, in, res, &m1) && in->has_dst)
                    write_dst(R, L, pc, in, res, m1);
                L->pc = pc + 1;
            }
            break;
        }
        }
    }
    return LANE_DONE;
}

/*
 * Runs up to four lanes as one 2x2 quad (0 1 / 2 3).  dsx = right - left
 * within a row, dsy = bottom - top within a column, between lanes that
 * stand at the same instruction; a neighbour that is absent (partial quad)
 * or elsewhere in the program gives a derivative of 0.
 */
static bool run_quad(struct run *R, struct lane *lanes, unsigned count, bool quad)
{
    enum lane_status st[4];
    for (unsigned k = 0; k < count; k++)
        if ((st[k] = lane_run(R, &lanes[k], quad)) == LANE_FAILED)
            return false;
    for (;;) {
        /* Serve the waiting lanes furthest behind in program order first,
         * so that lanes still in a branch or loop can catch up with the
         * others before those go on alone. */
        int w = -1;
        for (unsigned k = 0; k < count; k++)
            if (st[k] == LANE_WAIT && (w < 0 || lanes[k].pc < lanes[w].pc))
                w = (int)k;
        if (w < 0)
            return true;
        unsigned pc = lanes[w].pc;
        const struct st_instr *in = R->code[pc];
        bool here[4] = {false, false, false, false};
        float val[4][4];
        for (unsigned k = 0; k < count; k++) {
            here[k] = st[k] == LANE_WAIT && lanes[k].pc == pc;
            if (here[k]) {
                read_src(R, &lanes[k], pc, &in->src[0], val[k]);
                for (int c = 0; c < 4; c++)
                    val[k][c] = half_if(R, in, val[k][c]);
            }
        }
        for (unsigned k = 0; k < count; k++) {
            if (!here[k])
                continue;
            unsigned a, b;
            if (in->op == ST_OP_DSX)
                a = k & 2u, b = (k & 2u) | 1u;
            else
                a = k & 1u, b = (k & 1u) | 2u;
            float d[4] = {0, 0, 0, 0};
            if (here[a] && here[b])
                for (int c = 0; c < 4; c++)
                    d[c] = half_if(R, in, val[b][c] - val[a][c]);
            write_dst(R, &lanes[k], pc, in, d, 0xf);
            lanes[k].pc = pc + 1;
        }
        for (unsigned k = 0; k < count; k++)
            if (here[k] && (st[k] = lane_run(R, &lanes[k], quad)) == LANE_FAILED)
                return false;
    }
}

/* ------------------------------------------------------------------ */
/* Set-up                                                              */

static bool flatten(struct run *R)
{
    unsigned n = 0;
    for (const struct st_instr *in = R->sh->first; in; in = in->next)
        n++;
    R->n = n;
    size_t m = n ? n : 1;
    R->code = malloc(m * sizeof(*R->code));
    R->match = malloc(m * sizeof(int));
    R->loop_of = malloc(m * sizeof(int));
    R->rel_warned = calloc(m, sizeof(bool));
    int *stack = malloc(m * sizeof(int));
    if (!R->code || !R->match || !R->loop_of || !R->rel_warned || !stack) {
        free(stack);
        return false;
    }
    for (int k = 0; k < MAX_LABELS; k++)
        R->labels[k] = -1;
    unsigned i = 0, sp = 0;
    for (const struct st_instr *in = R->sh->first; in; in = in->next, i++) {
        R->code[i] = in;
        R->match[i] = -1;
        R->loop_of[i] = -1;
        switch (in->op) {
        case ST_OP_IF:
        case ST_OP_IFC:
        case ST_OP_LOOP:
        case ST_OP_REP:
            stack[sp++] = (int)i;
            break;
        case ST_OP_ELSE:
            if (sp) {
                R->match[stack[sp - 1]] = (int)i; /* if -> else */
                stack[sp - 1] = (int)i;           /* else -> endif, below */
            }
            break;
        case ST_OP_ENDIF:
        case ST_OP_ENDLOOP:
        case ST_OP_ENDREP:
            if (sp) {
                int open = stack[--sp];
                R->match[open] = (int)i;
                if (in->op != ST_OP_ENDIF)
                    R->match[i] = open; /* endloop -> loop */
            }
            break;
        case ST_OP_BREAK:
        case ST_OP_BREAKC:
        case ST_OP_BREAKP:
            for (unsigned k = sp; k-- > 0;) {
                enum st_opcode op = R->code[stack[k]]->op;
                if (op == ST_OP_LOOP || op == ST_OP_REP) {
                    R->loop_of[i] = stack[k];
                    break;
                }
            }
            break;
        case ST_OP_LABEL:
            if (in->nsrc > 0 && in->src[0].reg.index < MAX_LABELS &&
                R->labels[in->src[0].reg.index] < 0)
                R->labels[in->src[0].reg.index] = (int)i;
            sp = 0; /* a subroutine starts: nothing stays open across it */
            break;
        default:
            break;
        }
    }
    free(stack);
    return true;
}

static void lane_init(const struct run *R, struct lane *L, const struct st_run_invocation *inv,
                      unsigned index)
{
    memset(L, 0, sizeof(*L));
    L->in = (const float(*)[4])inv->in;
    if (R->any_pp_in) {
        /* dcl_pp: the declared lanes of the input are halves for every reader */
        memcpy(L->inbuf, inv->in, sizeof(L->inbuf));
        for (int s = 0; s < ST_LL_IN_SLOTS; s++)
            for (int k = 0; k < 4; k++)
                if (R->pp_in[s] & (1u << k))
                    L->inbuf[s][k] = st_half_round(L->inbuf[s][k]);
        L->in = (const float(*)[4])L->inbuf;
    }
    L->invocation = index;
    for (int k = 0; k < NUM_TEXREGS; k++)
        memcpy(L->t[k], L->in[ST_LL_IN_T + k], sizeof(L->t[k]));
}

static void collect(const struct run *R, const struct lane *L, const struct st_run_output *regs,
                    unsigned nregs, struct st_run_outputs *o)
{
    memset(o, 0, sizeof(*o));
    o->discarded = L->discarded;
    o->count = nregs;
    for (unsigned k = 0; k < nregs; k++) {
        o->reg[k] = regs[k];
        const float *src;
        if (R->ps1x && regs[k].file == ST_REG_COLOROUT && regs[k].index == 0)
            src = L->r[0]; /* ps_1_x: the color is r0 at the end */
        else {
            int slot = st_run_out_slot(regs[k].file, regs[k].index);
            src = slot >= 0 ? L->out[slot] : zero4;
        }
        memcpy(o->reg[k].v, src, sizeof(o->reg[k].v));
        for (unsigned c = regs[k].ncomp; c < 4; c++)
            o->reg[k].v[c] = 0.0f;
    }
}

bool st_interp_execute(struct st_ctx *ctx, const struct st_shader *sh,
                       const struct st_run_inputs *in, enum st_float_rules rules,
                       struct st_run_outputs *outs)
{
    return st_interp_execute_ex(ctx, sh, in, rules, false, outs);
}

bool st_interp_execute_ex(struct st_ctx *ctx, const struct st_shader *sh,
                          const struct st_run_inputs *in, enum st_float_rules rules, bool fused,
                          struct st_run_outputs *outs)
{
    if (sh->dialect == ST_ARB && !sh->arb) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_NOT_SUPPORTED, "an ARB program without tables");
        return false;
    }
    if (sh->dialect == ST_ARB &&
        (sh->arb->num_inputs + 2 > ST_LL_IN_SLOTS || sh->arb->num_outputs + 1 > ST_LL_OUT_SLOTS)) {
        st_error(ctx, sh->arb->end_loc, ST_E_NOT_SUPPORTED,
                 "running an ARB program with %u inputs and %u outputs is not supported",
                 sh->arb->num_inputs, sh->arb->num_outputs);
        return false;
    }
    struct run *R = calloc(1, sizeof(*R));
    struct lane *lanes = calloc(4, sizeof(*lanes));
    bool ok = R && lanes;
    if (ok) {
        R->ctx = ctx;
        R->sh = sh;
        R->in = in;
        R->legacy = rules == ST_FLOAT_D3D9;
        R->fused = fused;
        R->half = sh->pp_half;
        for (const struct st_instr *i = sh->first; R->half && i; i = i->next) {
            int slot = i->op == ST_OP_DCL && (i->dstmod & ST_DSTMOD_PP)
                           ? st_run_in_slot(i->dst.reg.file, i->dst.reg.index) : -1;
            if (slot >= 0 && i->dst.reg.file != ST_REG_MISC) {
                R->pp_in[slot] |= i->dst.writemask;
                R->any_pp_in = true;
            }
        }
        R->ps = sh->version.type == ST_PS;
        R->ver = sh->version.ver;
        R->ps1x = R->ps && R->ver < ST_VER(2, 0);
        R->num_consts = !R->ps ? 256 : R->ver < ST_VER(2, 0) ? 8 : R->ver < ST_VER(3, 0) ? 32 : 224;
        R->num_inputs = R->ps ? (R->ver >= ST_VER(3, 0) ? 10 : 2) : 16;
        R->arb = sh->dialect == ST_ARB;
        if (R->arb) {
            R->ps1x = false;
            R->num_consts = st_run_num_consts(in);
            R->num_inputs = ST_LL_IN_SLOTS;
        }
        struct st_loc hot;
        bool oom;
        R->max_steps = st_run_worst_case(sh, in, &hot, &oom);
        ok = !oom && flatten(R);
    }
    if (!ok) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
    } else {
        struct st_run_output regs[ST_RUN_MAX_OUTPUTS];
        unsigned nregs = st_run_output_regs(sh, regs);
        /* Pixel shaders run as quads (derivatives); vertex shaders alone. */
        unsigned group = R->ps ? 4 : 1;
        for (unsigned base = 0; ok && base < in->num_invocations; base += group) {
            unsigned count = in->num_invocations - base < group ? in->num_invocations - base : group;
            for (unsigned k = 0; k < count; k++)
                lane_init(R, &lanes[k], &in->inv[base + k], base + k);
            ok = run_quad(R, lanes, count, R->ps);
            for (unsigned k = 0; ok && k < count; k++) {
                if (R->arb) {
                    /* The fixed-function steps of the options, then the
                     * result.* slots by name. */
                    st_arb_run_finish(sh, in, lanes[k].in, lanes[k].out, rules, R->fused);
                    st_run_collect(sh, regs, nregs, (const float(*)[4])lanes[k].out,
                                   lanes[k].discarded, &outs[base + k]);
                } else {
                    collect(R, &lanes[k], regs, nregs, &outs[base + k]);
                }
            }
        }
    }
    if (R) {
        free(R->code);
        free(R->match);
        free(R->loop_of);
        free(R->rel_warned);
    }
    free(R);
    free(lanes);
    return ok;
}

/* st_interp_execute as an st_run_engine step */
static bool interp_step(void *user, struct st_ctx *ctx, const struct st_shader *sh,
                        const struct st_run_inputs *in, enum st_float_rules rules,
                        struct st_run_outputs *outs)
{
    (void)user;
    return st_interp_execute(ctx, sh, in, rules, outs);
}

bool st_interp_run(struct st_ctx *ctx, const struct st_shader *sh, const char *inputs_name,
                   const char *json, size_t json_len, enum st_float_rules rules,
                   struct st_buf *out)
{
    return st_run_engine(ctx, sh, inputs_name, json, json_len, rules, interp_step, NULL, out);
}

/* st_interp_execute_ex's fused reading as an st_run_engine step */
static bool interp_fused_step(void *user, struct st_ctx *ctx, const struct st_shader *sh,
                              const struct st_run_inputs *in, enum st_float_rules rules,
                              struct st_run_outputs *outs)
{
    (void)user;
    return st_interp_execute_ex(ctx, sh, in, rules, true, outs);
}

bool st_interp_run_fused(struct st_ctx *ctx, const struct st_shader *sh, const char *inputs_name,
                         const char *json, size_t json_len, enum st_float_rules rules,
                         struct st_buf *out)
{
    return st_run_engine(ctx, sh, inputs_name, json, json_len, rules, interp_fused_step, NULL,
                         out);
}
