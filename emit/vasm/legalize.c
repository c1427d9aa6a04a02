/* requires: the vector IR of st_merge (coalesced), copied into struct vasm.
 * invalidates: everything about the copy: adds instructions and vregs, pins registers. */
/*
 * legalize.c — the vector IR made a program of the shader's own model,
 * before registers are allocated (vasm.h lists the steps).
 *
 * Registers a model names whatever the program: a0 (one address
 * register: every integer vreg but aL lives there), p0 (every boolean
 * vreg), aL (a loop's integer vreg), ps_1_x's final r0 (the colour) and
 * the registers its texture-phase instructions name as written.  Two such
 * values live at once in one register is a refusal of the allocator.
 *
 * Literals become constant registers: the shader's own def at its own
 * index first (a relative read may reach it there), else a new def in a
 * register the shader never reads, scalars packed four to a register
 * (ps_1_1..1_3: whole registers, eight in all); loop counts become defi;
 * ARB literals new parameters.  A literal that is not finite has no def
 * or ARB literal spelling: a prologue computes it (rcp of 0 is +inf,
 * inf + -inf NaN).
 *
 * Operands: a modifier the model lacks becomes an instruction (abs), a
 * swizzle it lacks a copy lane by lane with replicates, a second c# or v#
 * read of a vertex shader instruction a copy of its own (one read port),
 * a scalar source a replicate, sincos's 2_0 constants and sgn's scratch
 * registers are supplied.  A helper instruction writes a new vreg, which
 * the allocator places like any other.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vasm.h"

bool vasm_fail(struct vasm *V, const char *what)
{
    if (!V->failed && !V->quiet)
        st_error(V->ctx, V->sh->version.loc, ST_E_NOT_SUPPORTED,
                 "%s is not supported by the vector back end", what);
    V->failed = true;
    return false;
}

uint32_t vasm_new_vreg(struct vasm *V, enum mir_class cls)
{
    uint32_t old = V->p.capv;
    uint32_t v = mir_new_vreg(&V->p, cls);
    if (V->p.oom)
        return 0;
    if (V->p.capv != old || !V->pin) {
        struct vasm_pin *np = realloc(V->pin, sizeof(*np) * V->p.capv);
        if (!np) {
            V->p.oom = true;
            return 0;
        }
        V->pin = np;
    }
    V->pin[v] = (struct vasm_pin){ST_REG_COUNT, 0};
    return v;
}

/* ------------------------------------------------------------------ */
/* A rebuilt instruction list                                          */

struct list {
    struct mir_instr *ins;
    unsigned n, cap;
    bool oom;
};

static struct mir_instr *push(struct list *l, const struct mir_instr *in)
{
    if (l->n == l->cap) {
        unsigned cap = l->cap ? l->cap * 2 : 64;
        struct mir_instr *x = realloc(l->ins, sizeof(*x) * cap);
        if (!x) {
            l->oom = true;
            return NULL;
        }
        l->ins = x;
        l->cap = cap;
    }
    struct mir_instr *o = &l->ins[l->n++];
    if (in)
        *o = *in;
    else
        memset(o, 0, sizeof(*o));
    return o;
}

static void adopt(struct vasm *V, struct list *l)
{
    free(V->p.ins);
    V->p.ins = l->ins;
    V->p.n = l->n;
    V->p.cap = l->cap;
    if (l->oom)
        V->p.oom = true;
}

/* A helper instruction "op dst.mask, src" into a new vreg of class cls. */
static struct mir_src helper(struct vasm *V, struct list *l, unsigned op, uint8_t mask,
                             struct mir_src src, enum mir_class cls)
{
    uint32_t t = vasm_new_vreg(V, cls);
    struct mir_instr *in = push(l, NULL);
    if (!in)
        return src;
    in->op = (uint16_t)op;
    in->has_dst = true;
    in->dst = (struct mir_dst){.kind = MIR_VREG, .mask = mask, .vreg = t};
    in->nsrc = 1;
    in->src[0] = src;
    in->loc = V->p.loc;
    return mir_src_vreg(t, ST_SWIZZLE_IDENTITY);
}

/* ------------------------------------------------------------------ */
/* Constants                                                            */

static bool same_bits(float a, float b)
{
    return memcmp(&a, &b, sizeof(a)) == 0;
}

static struct vasm_def *new_def(struct vasm *V, int32_t index)
{
    if (V->ndefs == V->capdefs) {
        unsigned cap = V->capdefs ? V->capdefs * 2 : 16;
        struct vasm_def *x = realloc(V->defs, sizeof(*x) * cap);
        if (!x) {
            V->p.oom = true;
            return NULL;
        }
        V->defs = x;
        V->capdefs = cap;
    }
    struct vasm_def *d = &V->defs[V->ndefs++];
    memset(d, 0, sizeof(*d));
    d->index = index;
    return d;
}

/* A constant register nothing else uses, or -1. */
static int32_t alloc_c(struct vasm *V)
{
    if (V->arb) {
        for (uint32_t i = V->sh->arb->num_params; i < V->max_c; i++)
            if (!V->c_used[i]) {
                V->c_used[i] = true;
                return (int32_t)i;
            }
        return -1;
    }
    /* from the top: a relative read of the low registers never meets it */
    for (uint32_t i = V->max_c; i-- > 0;)
        if (!V->c_used[i]) {
            V->c_used[i] = true;
            return (int32_t)i;
        }
    return -1;
}

static uint8_t swz_rep(unsigned l)
{
    return (uint8_t)(l * 0x55);
}

/*
 * The constant register for the lanes `lanes` of literal values val[] (a
 * source reading them through swizzle swz); the swizzle of the new source.
 */
static bool const_reg(struct vasm *V, const float val[4], uint8_t lanes, uint8_t swz,
                      struct mir_src *out)
{
    bool splat = true, have = false;
    float first = 0;
    for (unsigned l = 0; l < 4; l++)
        if ((lanes >> l) & 1) {
            if (have && !same_bits(first, val[l]))
                splat = false;
            if (!have)
                first = val[l];
            have = true;
        }
    if (!have) {
        splat = true;
        first = 0;
    }
    if (V->ps1x) {
        /* ps_1_1..1_4 constants: whole registers (1_1..1_3 take no swizzle
         * but .b/.a, 1_4 .r/.g/.b/.a) */
        unsigned lo = V->ver >= ST_VER(1, 4) ? 0 : 2;
        for (unsigned i = 0; i < V->ndefs; i++) {
            bool ok = true;
            for (unsigned l = 0; l < 4; l++)
                if ((lanes >> l) & 1 && !same_bits(V->defs[i].f[l], val[l]))
                    ok = false;
            if (ok) {
                *out = mir_src_fixed(ST_REG_CONST, V->defs[i].index, swz);
                return true;
            }
        }
        for (unsigned i = 0; i < V->ndefs && splat; i++)
            for (unsigned l = lo; l < 4; l++)
                if (same_bits(V->defs[i].f[l], first)) {
                    *out = mir_src_fixed(ST_REG_CONST, V->defs[i].index, swz_rep(l));
                    return true;
                }
        int32_t idx = alloc_c(V);
        if (idx < 0)
            return false; /* regalloc.c places it among the registers left unread */
        struct vasm_def *d = new_def(V, idx);
        if (!d)
            return false;
        for (unsigned l = 0; l < 4; l++)
            d->f[l] = (lanes >> l) & 1 ? val[l] : splat ? first : 0.0f;
        *out = mir_src_fixed(ST_REG_CONST, idx, swz);
        return true;
    }
    if (splat) {
        for (unsigned i = 0; i < V->ndefs; i++)
            for (unsigned l = 0; l < 4; l++)
                if ((V->defs[i].own || V->defs[i].pool_lanes > l || !V->defs[i].pool_lanes) &&
                    same_bits(V->defs[i].f[l], first)) {
                    *out = mir_src_fixed(ST_REG_CONST, V->defs[i].index, swz_rep(l));
                    return true;
                }
    } else {
        for (unsigned i = 0; i < V->ndefs; i++) {
            if (V->defs[i].pool_lanes)
                continue;
            bool ok = true;
            for (unsigned l = 0; l < 4; l++)
                if ((lanes >> l) & 1 && !same_bits(V->defs[i].f[l], val[l]))
                    ok = false;
            if (ok) {
                *out = mir_src_fixed(ST_REG_CONST, V->defs[i].index, swz);
                return true;
            }
        }
    }
    /* a scalar: a free lane of the last pool register */
    if (splat && V->ndefs && V->defs[V->ndefs - 1].pool_lanes &&
        V->defs[V->ndefs - 1].pool_lanes < 4) {
        struct vasm_def *d = &V->defs[V->ndefs - 1];
        unsigned l = d->pool_lanes++;
        d->f[l] = first;
        *out = mir_src_fixed(ST_REG_CONST, d->index, swz_rep(l));
        return true;
    }
    int32_t idx = alloc_c(V);
    if (idx < 0)
        return vasm_fail(V, "a program needing more constant registers than the model has");
    struct vasm_def *d = new_def(V, idx);
    if (!d)
        return false;
    if (splat) {
        d->f[0] = d->f[1] = d->f[2] = d->f[3] = first;
        d->pool_lanes = 1;
        *out = mir_src_fixed(ST_REG_CONST, idx, swz_rep(0));
        return true;
    }
    memcpy(d->f, val, sizeof(d->f));
    *out = mir_src_fixed(ST_REG_CONST, idx, swz);
    return true;
}

/* Non-finite literals: a vreg the prologue computes (rcp of 0 is +inf). */
struct nonfinite {
    float f[4];
    uint8_t lanes;
    uint32_t vreg;
};

struct consts {
    struct nonfinite nf[16];
    unsigned nnf;
};

/* A float literal source as a constant register (or a prologue vreg). */
static bool literal(struct vasm *V, struct consts *C, const struct mir_instr *in, unsigned k,
                    struct mir_src *s)
{
    const struct mir_imm *m = &V->p.imm[s->vreg];
    uint8_t lanes = mir_src_lanes(&V->p, in, k);
    float val[4];
    memcpy(val, m->bits, sizeof(val));
    uint8_t mod = s->mod;
    bool finite = true;
    for (unsigned l = 0; l < 4; l++)
        if ((lanes >> l) & 1 && !isfinite(val[l]))
            finite = false;
    if (finite) {
        struct mir_src c;
        if (!const_reg(V, val, lanes, s->swz, &c)) {
            if (V->ps1x && !V->failed) {
                /* all eight taken: a register past the file for now */
                struct vasm_def *d = new_def(V, (int32_t)(0x10000 + V->ndefs));
                if (!d)
                    return false;
                memcpy(d->f, val, sizeof(d->f));
                c = mir_src_fixed(ST_REG_CONST, d->index, s->swz);
            } else {
                return false;
            }
        }
        c.mod = mod;
        *s = c;
        return true;
    }
    if (V->ps1x)
        return vasm_fail(V, "a NaN or infinite constant (no def can state it, and the model "
                            "has no rcp to compute it)");
    for (unsigned i = 0; i < C->nnf; i++) {
        bool ok = (C->nf[i].lanes & lanes) == lanes;
        for (unsigned l = 0; l < 4 && ok; l++)
            if ((lanes >> l) & 1 && !same_bits(C->nf[i].f[l], val[l]))
                ok = false;
        if (ok) {
            struct mir_src v = mir_src_vreg(C->nf[i].vreg, s->swz);
            v.mod = mod;
            *s = v;
            return true;
        }
    }
    if (C->nnf == 16)
        return vasm_fail(V, "more than 16 NaN or infinite constants");
    struct nonfinite *e = &C->nf[C->nnf++];
    memcpy(e->f, val, sizeof(val));
    e->lanes = lanes;
    e->vreg = vasm_new_vreg(V, MIR_CLASS_FLOAT);
    struct mir_src v = mir_src_vreg(e->vreg, s->swz);
    v.mod = mod;
    *s = v;
    return true;
}

/* The prologue computing the non-finite literals.  +inf is rcp of 0,
 * computed straight into the first lane that holds +inf (else into a
 * register of its own); -inf is its negation, NaN inf + -inf. */
static bool nonfinite_prologue(struct vasm *V, struct consts *C, struct list *l)
{
    const float zero[4] = {0, 0, 0, 0};
    struct mir_src z;
    if (!const_reg(V, zero, 0x1, 0x00, &z))
        return false;
    int home = -1, home_lane = 0;
    for (unsigned i = 0; i < C->nnf && home < 0; i++)
        for (unsigned k = 0; k < 4 && home < 0; k++)
            if ((C->nf[i].lanes >> k) & 1 && isinf(C->nf[i].f[k]) && C->nf[i].f[k] > 0) {
                home = (int)i;
                home_lane = (int)k;
            }
    struct mir_src inf;
    if (home >= 0) {
        struct mir_instr *in = push(l, NULL);
        if (!in)
            return false;
        in->op = ST_OP_RCP;
        in->has_dst = true;
        in->dst = (struct mir_dst){.kind = MIR_VREG, .mask = (uint8_t)(1u << home_lane),
                                   .vreg = C->nf[home].vreg};
        in->nsrc = 1;
        in->src[0] = z;
        in->loc = V->p.loc;
        inf = mir_src_vreg(C->nf[home].vreg, swz_rep((unsigned)home_lane));
    } else {
        inf = helper(V, l, ST_OP_RCP, 0x1, z, MIR_CLASS_FLOAT);
        inf.swz = 0x00;
    }
    struct mir_src ninf = inf;
    ninf.mod = MIR_MOD_NEG;
    for (unsigned i = 0; i < C->nnf; i++) {
        const struct nonfinite *e = &C->nf[i];
        uint8_t fin = 0, pinf = 0, minf = 0, nan = 0;
        float fv[4] = {0, 0, 0, 0};
        for (unsigned k = 0; k < 4; k++) {
            if (!((e->lanes >> k) & 1) || ((int)i == home && (int)k == home_lane))
                continue;
            if (isnan(e->f[k]))
                nan |= (uint8_t)(1u << k);
            else if (isinf(e->f[k]))
                *(e->f[k] > 0 ? &pinf : &minf) |= (uint8_t)(1u << k);
            else {
                fin |= (uint8_t)(1u << k);
                fv[k] = e->f[k];
            }
        }
        struct { uint8_t mask; unsigned op; } parts[4] = {
            {fin, ST_OP_MOV}, {pinf, ST_OP_MOV}, {minf, ST_OP_MOV}, {nan, ST_OP_ADD}};
        for (unsigned k = 0; k < 4; k++) {
            if (!parts[k].mask)
                continue;
            struct mir_src a = k == 1 || k == 3 ? inf : ninf;
            if (k == 0 && !const_reg(V, fv, fin, ST_SWIZZLE_IDENTITY, &a))
                return false;
            struct mir_instr *in = push(l, NULL);
            if (!in)
                return false;
            in->op = (uint16_t)parts[k].op;
            in->has_dst = true;
            in->dst = (struct mir_dst){.kind = MIR_VREG, .mask = parts[k].mask, .vreg = e->vreg};
            in->nsrc = k == 3 ? 2 : 1;
            in->src[0] = a;
            in->src[1] = ninf; /* inf + -inf: NaN */
            in->loc = V->p.loc;
        }
    }
    return true;
}

/* An integer literal (a loop's count, start, step) as an i# register. */
static bool int_literal(struct vasm *V, struct mir_src *s, bool is_loop)
{
    const int32_t *v = (const int32_t *)V->p.imm[s->vreg].bits;
    unsigned want = is_loop ? 3 : 1;
    for (unsigned i = 0; i < V->ndefis; i++) {
        bool ok = true;
        for (unsigned k = 0; k < want; k++)
            if (V->defis[i].v[k] != v[k])
                ok = false;
        if (ok) {
            *s = mir_src_fixed(ST_REG_CONSTINT, V->defis[i].index, ST_SWIZZLE_IDENTITY);
            return true;
        }
    }
    bool used[16] = {false};
    for (unsigned i = 0; i < V->ndefis; i++)
        used[V->defis[i].index & 15] = true;
    for (const struct st_instr *i = V->sh->first; i; i = i->next)
        for (unsigned k = 0; k < i->nsrc && k < 5; k++)
            if (i->src[k].reg.file == ST_REG_CONSTINT && i->src[k].reg.index < 16)
                used[i->src[k].reg.index] = true;
    int32_t idx = -1;
    for (int32_t i = 15; i >= 0 && idx < 0; i--)
        if (!used[i])
            idx = i;
    if (idx < 0 || V->ndefis == 16)
        return vasm_fail(V, "a loop count with no integer register left for it");
    struct vasm_defi *d = &V->defis[V->ndefis++];
    d->index = idx;
    memcpy(d->v, v, sizeof(d->v));
    d->v[3] = 0;
    *s = mir_src_fixed(ST_REG_CONSTINT, idx, ST_SWIZZLE_IDENTITY);
    return true;
}

/* ------------------------------------------------------------------ */
/* Registers the model names                                            */

static void pin_vreg(struct vasm *V, uint32_t v, enum st_regfile f, int32_t idx)
{
    if (v < V->p.nvregs)
        V->pin[v] = (struct vasm_pin){f, idx};
}

/* The register an opaque instruction's operand k names as written. */
static const struct st_reg *opaque_reg(const struct mir_instr *in, unsigned k)
{
    const struct st_instr *a = in->ast;
    bool writes = st_opaque_writes(a);
    if (!writes && a->has_dst)
        return k == 0 ? &a->dst.reg : k - 1 < a->nsrc ? &a->src[k - 1].reg : NULL;
    return k < a->nsrc ? &a->src[k].reg : NULL;
}

/* Does the shader as written name r0 as a destination anywhere? */
static bool writes_r0(const struct st_shader *sh)
{
    for (const struct st_instr *in = sh->first; in; in = in->next)
        if (in->has_dst && in->dst.reg.file == ST_REG_TEMP && in->dst.reg.index == 0)
            return true;
    return false;
}

static bool pins(struct vasm *V)
{
    struct mir_prog *p = &V->p;
    uint32_t final_r0 = MIR_NONE;
    /* a vreg nothing writes, per temporary: the register's first value */
    uint32_t first_value[32];
    for (unsigned r = 0; r < 32; r++)
        first_value[r] = MIR_NONE;
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr *in = &p->ins[i];
        if (in->dead)
            continue;
        /* ps_1_x: the colour is r0 at the end */
        if (V->ps1x && in->has_dst && in->dst.kind == MIR_FIXED &&
            in->dst.file == ST_REG_COLOROUT) {
            if (final_r0 == MIR_NONE) {
                final_r0 = vasm_new_vreg(V, MIR_CLASS_FLOAT);
                pin_vreg(V, final_r0, ST_REG_TEMP, 0);
            }
            in->dst = (struct mir_dst){.kind = MIR_VREG, .mask = 0xf, .vreg = final_r0};
            /* a shader that never writes r0 has r0's first value as its
             * colour: r0 stays unwritten (and kept for it), as written */
            if (in->op == ST_OP_MOV && in->src[0].kind == MIR_IMM && !in->predicated &&
                !writes_r0(V->sh)) {
                bool zero = true;
                for (unsigned ln = 0; ln < 4; ln++)
                    if (V->p.imm[in->src[0].vreg].bits[ST_SWZ_LANE(in->src[0].swz, ln)])
                        zero = false;
                if (zero) {
                    in->dead = true;
                    first_value[0] = final_r0;
                }
            }
        }
        if (in->op == MIR_OP_OPAQUE && in->ast && in->has_dst && in->dst.kind == MIR_VREG &&
            st_opaque_writes(in->ast))
            pin_vreg(V, in->dst.vreg, in->ast->dst.reg.file, (int32_t)in->ast->dst.reg.index);
        if (in->has_dst && in->dst.kind == MIR_VREG) {
            uint32_t d = in->dst.vreg;
            if (p->vclass[d] == MIR_CLASS_BOOL)
                pin_vreg(V, d, ST_REG_PREDICATE, 0);
            else if (p->vclass[d] == MIR_CLASS_INT)
                pin_vreg(V, d, in->op == ST_OP_LOOP ? ST_REG_LOOP : ST_REG_ADDR, 0);
        }
    }
    if (final_r0 != MIR_NONE) {
        V->exit_live[0] = final_r0;
        V->nexit = 1;
    }
    /* the registers an opaque instruction reads: its sources as written;
     * a copy into that register where the value is elsewhere (ps_1_4: in
     * phase 1, before the phase marker, as the texture instructions of a
     * phase come first) */
    struct list l = {NULL, 0, 0, false};
    int phase_at = -1;
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr cur = p->ins[i];
        if (!cur.dead && cur.op == MIR_OP_OPAQUE && cur.ast && cur.ast->op == ST_OP_PHASE)
            phase_at = (int)l.n;
        if (!cur.dead && cur.op == MIR_OP_OPAQUE && cur.ast && cur.ast->op != ST_OP_PHASE)
            for (unsigned k = 0; k < cur.nsrc; k++) {
                struct mir_src *s = &cur.src[k];
                const struct st_reg *r = opaque_reg(&cur, k);
                if (!r)
                    continue;
                struct vasm_pin want = {r->file, (int32_t)r->index};
                if (s->kind == MIR_FIXED && s->file == r->file && s->index == (int32_t)r->index &&
                    !s->rel)
                    continue; /* the register as written */
                if (s->kind == MIR_VREG) {
                    struct vasm_pin *have = &V->pin[s->vreg];
                    if (have->file == ST_REG_COUNT && s->swz == ST_SWIZZLE_IDENTITY &&
                        s->mod == MIR_MOD_NONE) {
                        *have = want;
                        continue;
                    }
                    if (have->file == want.file && have->index == want.index)
                        continue;
                } else if (r->file != ST_REG_TEMP) {
                    continue; /* a constant as written (texm3x3spec's c#) */
                } else if (s->kind == MIR_IMM) {
                    /* a temporary read before any write holds its first
                     * value, 0: a vreg nothing writes, in that register */
                    bool zero = true;
                    uint8_t rd = mir_src_lanes(p, &cur, k);
                    for (unsigned ln = 0; ln < 4; ln++)
                        if ((rd >> ln) & 1 && p->imm[s->vreg].bits[ln])
                            zero = false;
                    if (zero && want.index >= 0 && want.index < 32) {
                        uint32_t z = first_value[want.index];
                        if (z == MIR_NONE) {
                            z = first_value[want.index] = vasm_new_vreg(V, MIR_CLASS_FLOAT);
                            pin_vreg(V, z, want.file, want.index);
                        }
                        uint8_t swz = s->swz;
                        *s = mir_src_vreg(z, swz);
                        continue;
                    }
                }
                /* a copy into the register the instruction names */
                unsigned before = l.n;
                struct mir_src c = helper(V, &l, ST_OP_MOV, cur.lanes[k] ? cur.lanes[k] : 0xf, *s,
                                          MIR_CLASS_FLOAT);
                pin_vreg(V, c.vreg, want.file, want.index);
                *s = c;
                if (phase_at >= 0 && l.n == before + 1) {
                    /* before the phase marker */
                    struct mir_instr mv = l.ins[before];
                    memmove(&l.ins[phase_at + 1], &l.ins[phase_at],
                            sizeof(*l.ins) * (before - (unsigned)phase_at));
                    l.ins[phase_at] = mv;
                    phase_at++;
                }
            }
        if (!push(&l, &cur))
            break;
    }
    adopt(V, &l);
    return !p->oom;
}

/* ------------------------------------------------------------------ */
/* Operands                                                            */

/* Lanes of src k's swizzle that matter (destination frame). */
static uint8_t used_lanes(const struct mir_instr *in, unsigned k)
{
    if (in->op == MIR_OP_MERGE)
        return in->lanes[k];
    if (st_op_componentwise((enum st_opcode)in->op))
        return in->has_dst ? in->dst.mask : 0xf;
    switch (in->op) {
    case ST_OP_DP3: case ST_OP_CRS: case ST_OP_ARB_XPD: case ST_OP_TEXKILL: return 0x7;
    case ST_OP_TEXLD: case ST_OP_TEXLDP: case ST_OP_TEXLDB: case ST_OP_TEXLDL: case ST_OP_TEXLDD: {
        uint8_t c = in->tex_dims <= 2 ? 0x3 : 0x7;
        if (k == 0 && in->op != ST_OP_TEXLD && in->op != ST_OP_TEXLDD)
            c |= 0x8; /* projection, bias, level in w */
        return c;
    }
    case ST_OP_NRM: return (uint8_t)(0x7 | (in->has_dst ? in->dst.mask : 0xf));
    case ST_OP_DP4: case ST_OP_ARB_KIL: return 0xf;
    case ST_OP_DP2ADD: return k == 2 ? 0x1 : 0x3;
    case ST_OP_SINCOS: return k == 0 ? 0x1 : 0xf;
    case ST_OP_LIT: case ST_OP_ARB_LIT: return 0xb;
    case ST_OP_DST: return k == 0 ? 0x6 : 0xa;
    case ST_OP_ARB_DPH: return k == 0 ? 0x7 : 0xf;
    case ST_OP_ARB_SWZ: {
        uint8_t m = 0;
        for (unsigned l = 0; l < 4; l++)
            if ((in->has_dst ? in->dst.mask : 0xf) >> l & 1 && in->swz_sel[l] < 4)
                m |= (uint8_t)(1u << in->swz_sel[l]);
        return m;
    }
    case ST_OP_ARB_TEX: case ST_OP_ARB_TXP: case ST_OP_ARB_TXB:
        return st_arb_tex_lanes((enum st_opcode)in->op, in->tex_target);
    case ST_OP_REP: case ST_OP_LOOP: return 0x7;
    default: return 0x1; /* scalar sources, conditions */
    }
}

static bool agrees(uint8_t a, uint8_t b, uint8_t lanes)
{
    for (unsigned l = 0; l < 4; l++)
        if ((lanes >> l) & 1 && ST_SWZ_LANE(a, l) != ST_SWZ_LANE(b, l))
            return false;
    return true;
}

static bool scalar_src(unsigned op)
{
    return op < ST_OP_COUNT && (st_opinfo[op].flags & OPF_SCALAR_SRC);
}

static uint8_t ps13_units(unsigned op, uint8_t m);

/* ps_1_1..1_3: the .b replicate feeds the alpha unit only; elsewhere the
 * blue lane goes to a register's alpha first, read there as .a. */
static bool ps13_blue(struct vasm *V, struct list *l, const struct mir_instr *in,
                      struct mir_src *s)
{
    if (ps13_units(in->op, in->has_dst ? in->dst.mask : 0xf) == 0x8)
        return false;
    struct mir_src x = *s;
    x.swz = 0xaa;
    x.mod = MIR_MOD_NONE;
    uint8_t mod = s->mod;
    *s = helper(V, l, ST_OP_MOV, 0x8, x, MIR_CLASS_FLOAT);
    s->swz = 0xff;
    s->mod = mod;
    return true;
}

/* The source's swizzle made one the model has; a copy lane by lane when
 * none agrees on the lanes read. */
static void legal_swizzle(struct vasm *V, struct list *l, const struct mir_instr *in, unsigned k,
                          struct mir_src *s)
{
    if (s->kind == MIR_FIXED && (s->file == ST_REG_CONSTBOOL || s->file == ST_REG_CONSTINT ||
                                 s->file == ST_REG_SAMPLER || s->file == ST_REG_LOOP))
        return;
    uint8_t used = used_lanes(in, k);
    bool tex_coord = k == 0 && (in->op == ST_OP_TEXLD || in->op == ST_OP_TEXLDP ||
                                in->op == ST_OP_TEXLDB);
    bool plain = (tex_coord && V->ps && V->ver < ST_VER(3, 0)) ||
                 (in->op == ST_OP_CRS && !V->arb);
    if (plain && agrees(s->swz, ST_SWIZZLE_IDENTITY, used) &&
        (!tex_coord || s->mod == MIR_MOD_NONE)) {
        s->swz = ST_SWIZZLE_IDENTITY;
        return;
    }
    if (plain) {
        /* one mov with a swizzle the model has, else lane by lane */
        static const uint8_t c20[8] = {ST_SWIZZLE_IDENTITY, 0x00, 0x55, 0xaa, 0xff,
                                       ST_SWIZZLE(1, 2, 0, 3), ST_SWIZZLE(2, 0, 1, 3),
                                       ST_SWIZZLE(3, 2, 1, 0)};
        bool any = !(V->ps && V->ver >= ST_VER(2, 0) && V->ver < ST_VER_2X);
        for (unsigned c = 0; c < 8 || any; c++) {
            uint8_t sw = any ? s->swz : c20[c];
            if (any || agrees(s->swz, sw, used)) {
                struct mir_src x = *s;
                x.swz = sw;
                *s = helper(V, l, ST_OP_MOV, (uint8_t)(used & (in->op == ST_OP_CRS ? 0x7 : 0xf)),
                            x, MIR_CLASS_FLOAT);
                return;
            }
        }
        goto copy;
    }
    /* a one-lane read prints as a replicate (.x); the scalar ops want one */
    if (used == 1 || used == 2 || used == 4 || used == 8) {
        unsigned ln = used == 1 ? 0 : used == 2 ? 1 : used == 4 ? 2 : 3;
        uint8_t rep = swz_rep(ST_SWZ_LANE(s->swz, ln));
        bool ps13 = V->ps1x && V->ver < ST_VER(1, 4);
        if (!ps13 || ST_SWZ_LANE(rep, 0) >= 2 || agrees(s->swz, ST_SWIZZLE_IDENTITY, used)) {
            s->swz = ps13 && agrees(s->swz, ST_SWIZZLE_IDENTITY, used) ? ST_SWIZZLE_IDENTITY : rep;
            if (ps13 && s->swz == 0xaa)
                ps13_blue(V, l, in, s);
            if (!ps13 || s->swz == ST_SWIZZLE_IDENTITY || ST_SWZ_LANE(rep, 0) >= 2)
                return;
        }
    } else if (scalar_src(in->op) && k == 0) {
        s->swz = swz_rep(ST_SWZ_LANE(s->swz, 0));
        return;
    }
    static const uint8_t cand_20[8] = {ST_SWIZZLE_IDENTITY, 0x00, 0x55, 0xaa, 0xff,
                                       ST_SWIZZLE(1, 2, 0, 3), ST_SWIZZLE(2, 0, 1, 3),
                                       ST_SWIZZLE(3, 2, 1, 0)};
    static const uint8_t cand_13[3] = {ST_SWIZZLE_IDENTITY, 0xaa, 0xff};
    static const uint8_t cand_14[5] = {ST_SWIZZLE_IDENTITY, 0x00, 0x55, 0xaa, 0xff};
    const uint8_t *cand = NULL;
    unsigned ncand = 0;
    if (V->ps && !V->arb && V->ver <= ST_VER_2X && V->ver >= ST_VER(2, 0) && V->ver != ST_VER_2X) {
        cand = cand_20;
        ncand = 8;
    } else if (V->ps1x && V->ver < ST_VER(1, 4)) {
        cand = cand_13;
        ncand = 3;
    } else if (V->ps1x) {
        cand = cand_14;
        ncand = 5;
    }
    if (!cand) {
        /* any swizzle: none when the lanes read are in place, else a
         * lane not read repeats the one before it (.yzx is .yzxx), which
         * is how assemblers spell a short swizzle */
        if (agrees(s->swz, ST_SWIZZLE_IDENTITY, used)) {
            s->swz = ST_SWIZZLE_IDENTITY;
            return;
        }
        unsigned prev = ST_SWZ_LANE(s->swz, 0);
        for (unsigned ln = 0; ln < 4; ln++)
            if ((used >> ln) & 1) {
                prev = ST_SWZ_LANE(s->swz, ln);
                break;
            }
        for (unsigned ln = 0; ln < 4; ln++) {
            if ((used >> ln) & 1)
                prev = ST_SWZ_LANE(s->swz, ln);
            else
                s->swz = (uint8_t)((s->swz & ~(3u << (2 * ln))) | (prev << (2 * ln)));
        }
        return;
    }
    for (unsigned c = 0; c < ncand; c++)
        if (agrees(s->swz, cand[c], used)) {
            s->swz = cand[c];
            if (cand == cand_13 && s->swz == 0xaa)
                ps13_blue(V, l, in, s);
            return;
        }
    /* a replicated read of a dot product (every lane holds the value) reads it plain */
    if (V->ps1x && s->kind == MIR_VREG) {
        const struct mir_instr *d = NULL;
        unsigned ndef = 0;
        for (unsigned j = 0; j < l->n; j++)
            if (!l->ins[j].dead && l->ins[j].has_dst && l->ins[j].dst.kind == MIR_VREG &&
                l->ins[j].dst.vreg == s->vreg) {
                d = &l->ins[j];
                ndef++;
            }
        if (ndef == 1 && (d->op == ST_OP_DP3 || d->op == ST_OP_DP4)) {
            bool all = true;
            for (unsigned ln = 0; ln < 4; ln++)
                if ((used >> ln) & 1 && !((d->dst.mask >> ST_SWZ_LANE(s->swz, ln)) & 1))
                    all = false;
            if (all) {
                ((struct mir_instr *)d)->dst.mask |= used;
                s->swz = ST_SWIZZLE_IDENTITY;
                return;
            }
        }
    }
    if (V->ps1x) {
        vasm_fail(V, "a swizzle ps_1_x has no spelling for");
        return;
    }
copy:;
    /* lane by lane with replicate swizzles into a new register */
    uint32_t t = vasm_new_vreg(V, MIR_CLASS_FLOAT);
    for (unsigned ln = 0; ln < 4; ln++) {
        uint8_t lanes = 0;
        for (unsigned d = 0; d < 4; d++)
            if ((used >> d) & 1 && ST_SWZ_LANE(s->swz, d) == ln)
                lanes |= (uint8_t)(1u << d);
        if (!lanes)
            continue;
        struct mir_instr *mv = push(l, NULL);
        if (!mv)
            return;
        mv->op = ST_OP_MOV;
        mv->has_dst = true;
        mv->dst = (struct mir_dst){.kind = MIR_VREG, .mask = lanes, .vreg = t};
        mv->nsrc = 1;
        mv->src[0] = *s;
        mv->src[0].swz = swz_rep(ln);
        mv->loc = V->p.loc;
    }
    *s = mir_src_vreg(t, ST_SWIZZLE_IDENTITY);
}

/* Does the model have source modifier mod? */
static bool has_mod(struct vasm *V, unsigned mod)
{
    switch (mod) {
    case MIR_MOD_NONE: case MIR_MOD_NEG: case MIR_MOD_NOT: return true;
    case MIR_MOD_ABS: case MIR_MOD_ABSNEG: return !V->arb && V->ver >= ST_VER(3, 0);
    default: return V->ps1x; /* bias, bx2, comp, x2 */
    }
}

/* One operand of instruction in, made legal; helpers go to l first. */
/*
 * |x| where the model has no _abs: one abs instruction into a new vreg,
 * of the lanes read.  The stretch's abs copies are remembered (until x is
 * written again, or flow), so |x| read twice is one abs.
 */
struct abs_copy {
    struct mir_src x; /* swizzle identity, no modifier */
    uint8_t lanes;
    uint32_t vreg;
};

struct abs_copies {
    struct abs_copy e[16];
    unsigned n;
};

static bool same_operand(const struct mir_src *a, const struct mir_src *b)
{
    if (a->kind != b->kind || a->rel != b->rel)
        return false;
    if (a->kind == MIR_VREG || a->kind == MIR_IMM)
        return a->vreg == b->vreg;
    return a->file == b->file && a->index == b->index &&
           (!a->rel || (a->rel_vreg == b->rel_vreg && a->rel_lane == b->rel_lane &&
                        a->rel_first == b->rel_first && a->rel_count == b->rel_count));
}

/* Instruction in (now in the list) ends what the stretch's copies hold. */
static void abs_copies_after(struct abs_copies *ac, const struct mir_instr *in)
{
    if (mir_is_flow(in->op) || in->op == MIR_OP_OPAQUE) {
        ac->n = 0;
        return;
    }
    if (!in->has_dst || in->dst.kind != MIR_VREG)
        return;
    for (unsigned j = 0; j < ac->n;) {
        const struct mir_src *x = &ac->e[j].x;
        if ((x->kind == MIR_VREG && x->vreg == in->dst.vreg) ||
            (x->kind == MIR_FIXED && x->rel && x->rel_vreg == in->dst.vreg))
            ac->e[j] = ac->e[--ac->n];
        else
            j++;
    }
}

static struct mir_src abs_of(struct vasm *V, struct list *l, struct abs_copies *ac,
                             struct mir_src x, uint8_t lanes)
{
    for (unsigned j = 0; j < ac->n; j++)
        if (same_operand(&ac->e[j].x, &x) && (ac->e[j].lanes & lanes) == lanes)
            return mir_src_vreg(ac->e[j].vreg, ST_SWIZZLE_IDENTITY);
    struct mir_src t = helper(V, l, ST_OP_ABS, lanes ? lanes : 0xf, x, MIR_CLASS_FLOAT);
    if (ac->n < 16)
        ac->e[ac->n++] = (struct abs_copy){x, lanes ? lanes : 0xf, t.vreg};
    return t;
}

static void legal_src(struct vasm *V, struct consts *C, struct abs_copies *ac, struct list *l,
                      struct mir_instr *in, unsigned k)
{
    struct mir_src *s = &in->src[k];
    if (s->kind == MIR_IMM) {
        if (V->p.imm[s->vreg].cls == MIR_CLASS_INT) {
            int_literal(V, s, in->op == ST_OP_LOOP);
            return;
        }
        if (!literal(V, C, in, k, s))
            return;
    }
    /* vs_3_0 reads every c# with _abs or none: none, here */
    bool const_abs = V->vs && !V->arb && s->kind == MIR_FIXED && s->file == ST_REG_CONST &&
                     (s->mod == MIR_MOD_ABS || s->mod == MIR_MOD_ABSNEG);
    if (!has_mod(V, s->mod) || const_abs) {
        if ((s->mod == MIR_MOD_ABS || s->mod == MIR_MOD_ABSNEG) &&
            (V->arb || V->ver >= ST_VER(2, 0))) {
            /* |x| through the abs instruction */
            bool neg = s->mod == MIR_MOD_ABSNEG;
            struct mir_src x = *s;
            x.mod = MIR_MOD_NONE;
            uint8_t swz = x.swz;
            x.swz = ST_SWIZZLE_IDENTITY;
            *s = abs_of(V, l, ac, x, mir_swz_image(swz, used_lanes(in, k)));
            s->swz = swz;
            s->mod = neg ? MIR_MOD_NEG : MIR_MOD_NONE;
        } else {
            vasm_fail(V, "a source modifier the shader model does not have");
            return;
        }
    }
    legal_swizzle(V, l, in, k, s);
}

/*
 * A vertex shader instruction with two or more literal operands: one
 * register holding every value they read, each operand a swizzle of it,
 * so that the one c# read port needs no copy.  Up to four distinct values;
 * otherwise the operands go one by one and read_ports copies.
 */
static void joint_literals(struct vasm *V, struct mir_instr *in)
{
    if (!V->vs || V->arb || in->op == MIR_OP_MERGE || in->op == MIR_OP_OPAQUE ||
        in->op == ST_OP_SINCOS || in->op == ST_OP_SGN)
        return;
    float vals[4];
    unsigned nvals = 0, nlit = 0;
    int first_imm = -1;
    bool distinct = false;
    for (unsigned k = 0; k < in->nsrc; k++) {
        const struct mir_src *s = &in->src[k];
        if (s->kind != MIR_IMM || V->p.imm[s->vreg].cls != MIR_CLASS_FLOAT)
            continue;
        if (first_imm >= 0 && (uint32_t)first_imm != s->vreg)
            distinct = true;
        if (first_imm < 0)
            first_imm = (int)s->vreg;
        nlit++;
        uint8_t lanes = used_lanes(in, k);
        for (unsigned l = 0; l < 4; l++) {
            if (!((lanes >> l) & 1))
                continue;
            float f;
            memcpy(&f, &V->p.imm[s->vreg].bits[ST_SWZ_LANE(s->swz, l)], sizeof(f));
            if (!isfinite(f))
                return;
            unsigned j = 0;
            while (j < nvals && !same_bits(vals[j], f))
                j++;
            if (j == nvals) {
                if (nvals == 4)
                    return;
                vals[nvals++] = f;
            }
        }
    }
    if (nlit < 2 || !distinct || !nvals)
        return;
    /* a register holding them all, else a new one */
    int32_t idx = -1;
    uint8_t pos[4];
    for (unsigned i = 0; i < V->ndefs && idx < 0; i++) {
        const struct vasm_def *d = &V->defs[i];
        unsigned valid = d->own || !d->pool_lanes ? 4 : d->pool_lanes, found = 0;
        for (unsigned j = 0; j < nvals; j++)
            for (unsigned l = 0; l < valid; l++)
                if (same_bits(d->f[l], vals[j])) {
                    pos[j] = (uint8_t)l;
                    found++;
                    break;
                }
        if (found == nvals)
            idx = d->index;
    }
    if (idx < 0) {
        idx = alloc_c(V);
        if (idx < 0)
            return;
        struct vasm_def *d = new_def(V, idx);
        if (!d)
            return;
        for (unsigned l = 0; l < 4; l++)
            d->f[l] = vals[l < nvals ? l : 0];
        d->pool_lanes = (uint8_t)nvals; /* the lanes past them take scalars */
        for (unsigned j = 0; j < nvals; j++)
            pos[j] = (uint8_t)j;
    }
    for (unsigned k = 0; k < in->nsrc; k++) {
        struct mir_src *s = &in->src[k];
        if (s->kind != MIR_IMM || V->p.imm[s->vreg].cls != MIR_CLASS_FLOAT)
            continue;
        uint8_t lanes = used_lanes(in, k), swz = 0, any = 0xff;
        for (unsigned l = 0; l < 4; l++) {
            if (!((lanes >> l) & 1))
                continue;
            float f;
            memcpy(&f, &V->p.imm[s->vreg].bits[ST_SWZ_LANE(s->swz, l)], sizeof(f));
            unsigned j = 0;
            while (!same_bits(vals[j], f))
                j++;
            swz |= (uint8_t)(pos[j] << (2 * l));
            if (any == 0xff)
                any = pos[j];
        }
        if (any == 0xff)
            any = 0;
        for (unsigned l = 0; l < 4; l++) /* lanes nobody reads: a replicate */
            if (!((lanes >> l) & 1))
                swz |= (uint8_t)(any << (2 * l));
        uint8_t mod = s->mod;
        *s = mir_src_fixed(ST_REG_CONST, idx, swz);
        s->mod = mod;
    }
}

/*
 * Vertex shaders read one c# and one v# per instruction (read ports): a
 * second register of either file is read through a copy.  The copies of
 * the straight-line stretch are remembered (a register the shader cannot
 * write stays what it was), so a register read that way again takes the
 * same copy: "mov r0, c1" once, however many instructions then pair c1
 * with another constant.
 */
struct port_copy {
    enum st_regfile file;
    int32_t index;
    struct mir_src copy;
};

struct port_copies {
    struct port_copy e[16];
    unsigned n;
};

static bool same_reg(const struct mir_src *a, const struct mir_src *b)
{
    return a->file == b->file && a->index == b->index && a->rel == b->rel &&
           (!a->rel || (a->rel_vreg == b->rel_vreg && a->rel_lane == b->rel_lane));
}

static void read_ports(struct vasm *V, struct list *l, struct mir_instr *in, struct port_copies *pc)
{
    if (mir_is_flow(in->op) || in->op == MIR_OP_OPAQUE)
        pc->n = 0; /* a copy before an if or a loop does not reach past it */
    if (!V->vs || V->arb || in->nsrc < 2 || in->op == ST_OP_SINCOS || in->op == MIR_OP_MERGE)
        return;
    static const enum st_regfile files[2] = {ST_REG_CONST, ST_REG_INPUT};
    for (unsigned f = 0; f < 2; f++) {
        const struct mir_src *first = NULL;
        bool more = false;
        for (unsigned k = 0; k < in->nsrc; k++) {
            const struct mir_src *s = &in->src[k];
            if (s->kind != MIR_FIXED || s->file != files[f])
                continue;
            if (!first)
                first = s;
            else if (!same_reg(s, first))
                more = true;
        }
        if (!more)
            continue;
        /* registers copied before: their copies (no new instruction) */
        for (unsigned k = 0; k < in->nsrc && (V->tactics & VASM_LONGER_LIVES); k++) {
            struct mir_src *s = &in->src[k];
            if (s->kind != MIR_FIXED || s->file != files[f] || s->rel)
                continue;
            for (unsigned j = 0; j < pc->n; j++)
                if (pc->e[j].file == s->file && pc->e[j].index == s->index) {
                    struct mir_src c = pc->e[j].copy;
                    c.swz = s->swz;
                    c.mod = s->mod;
                    *s = c;
                    break;
                }
        }
        /* the first register left stays; any other is copied */
        struct mir_src keep;
        memset(&keep, 0, sizeof(keep));
        bool have = false;
        for (unsigned k = 0; k < in->nsrc; k++) {
            struct mir_src *s = &in->src[k];
            if (s->kind != MIR_FIXED || s->file != files[f])
                continue;
            if (!have || same_reg(s, &keep)) {
                keep = *s;
                have = true;
                continue;
            }
            uint8_t swz = s->swz, mod = s->mod;
            struct mir_src x = *s;
            x.swz = ST_SWIZZLE_IDENTITY;
            x.mod = MIR_MOD_NONE;
            struct mir_src c = helper(V, l, ST_OP_MOV, 0xf, x, MIR_CLASS_FLOAT);
            if (!x.rel && pc->n < 16)
                pc->e[pc->n++] = (struct port_copy){x.file, x.index, c};
            /* a later source of the same register takes the copy too */
            for (unsigned q = k; q < in->nsrc; q++) {
                struct mir_src *t = &in->src[q];
                if (t->kind == MIR_FIXED && same_reg(t, &x)) {
                    uint8_t tswz = q == k ? swz : t->swz, tmod = q == k ? mod : t->mod;
                    *t = c;
                    t->swz = tswz;
                    t->mod = tmod;
                }
            }
        }
    }
}

/* The predicate of an instruction: p0 as a whole (each written lane reads
 * its own) or one lane replicated; the lanes are the destination's. */
static void legal_predicate(struct vasm *V, struct mir_instr *in)
{
    uint8_t used = in->has_dst ? in->dst.mask : 0x1;
    if (agrees(in->pred.swz, ST_SWIZZLE_IDENTITY, used)) {
        in->pred.swz = ST_SWIZZLE_IDENTITY;
        return;
    }
    for (unsigned ln = 0; ln < 4; ln++)
        if (agrees(in->pred.swz, swz_rep(ln), used)) {
            in->pred.swz = swz_rep(ln);
            return;
        }
    vasm_fail(V, "a predicate whose lanes are neither p0's own nor one replicated");
}

/* texkill names r# or t# (ps_2_0, 2_x), r# or v# (ps_3_0), plainly:
 * anything else through a copy. */
static void texkill_operand(struct vasm *V, struct list *l, struct mir_instr *in)
{
    struct mir_src *s = &in->src[0];
    bool plain = s->mod == MIR_MOD_NONE && s->swz == ST_SWIZZLE_IDENTITY &&
                 (s->kind == MIR_VREG ||
                  (s->kind == MIR_FIXED && !s->rel &&
                   s->file == (V->ver >= ST_VER(3, 0) ? ST_REG_INPUT : ST_REG_TEXTURE)));
    if (!plain)
        *s = helper(V, l, ST_OP_MOV, 0x7, *s, MIR_CLASS_FLOAT);
}

static bool operands(struct vasm *V)
{
    struct mir_prog *p = &V->p;
    struct consts C;
    memset(&C, 0, sizeof(C));
    struct port_copies ports;
    ports.n = 0;
    struct abs_copies abs;
    abs.n = 0;
    struct list body = {NULL, 0, 0, false};
    static const float k1[4] = {-1.5500992e-006f, -2.1701389e-005f, 0.0026041667f,
                                0.00026041668f};
    static const float k2[4] = {-0.020833334f, -0.12500000f, 1.0f, 0.50000000f};
    for (unsigned i = 0; i < p->n && !V->failed; i++) {
        struct mir_instr cur = p->ins[i];
        if (cur.dead)
            continue;
        if (cur.op == ST_OP_MOV && !V->arb && V->ver >= ST_VER(2, 0) && V->ver < ST_VER(3, 0) &&
            cur.nsrc == 1 && (cur.src[0].mod == MIR_MOD_ABS)) {
            cur.op = ST_OP_ABS; /* mov of |x|: the abs instruction */
            cur.src[0].mod = MIR_MOD_NONE;
        }
        if (cur.op == ST_OP_MOV && V->arb && cur.nsrc == 1 && cur.src[0].mod == MIR_MOD_ABS) {
            cur.op = ST_OP_ABS;
            cur.src[0].mod = MIR_MOD_NONE;
        }
        if (cur.op == ST_OP_SINCOS && !V->arb && V->ver < ST_VER(3, 0)) {
            /* D3DSINCOSCONST1/2: the 2_0 models name them (the values are the
             * documented ones; the result does not depend on them here) */
            cur.nsrc = 3;
            if (!const_reg(V, k1, 0xf, ST_SWIZZLE_IDENTITY, &cur.src[1]) ||
                !const_reg(V, k2, 0xf, ST_SWIZZLE_IDENTITY, &cur.src[2]))
                break;
        }
        if (cur.op == ST_OP_SGN && !V->arb && V->vs) {
            /* two scratch temporaries it may clobber: registers of their own */
            cur.nsrc = 3;
            cur.src[1] = mir_src_vreg(vasm_new_vreg(V, MIR_CLASS_FLOAT), ST_SWIZZLE_IDENTITY);
            cur.src[2] = mir_src_vreg(vasm_new_vreg(V, MIR_CLASS_FLOAT), ST_SWIZZLE_IDENTITY);
        }
        joint_literals(V, &cur);
        if (cur.op != MIR_OP_OPAQUE)
            for (unsigned k = 0; k < cur.nsrc; k++) {
                if (cur.op == ST_OP_SINCOS && k > 0)
                    continue;
                if (cur.op == ST_OP_SGN && k > 0)
                    continue;
                legal_src(V, &C, &abs, &body, &cur, k);
            }
        if (cur.predicated)
            legal_predicate(V, &cur);
        read_ports(V, &body, &cur, &ports);
        if (cur.op == ST_OP_TEXKILL && !V->arb && !V->ps1x && cur.nsrc == 1)
            texkill_operand(V, &body, &cur);
        abs_copies_after(&abs, &cur);
        if (!push(&body, &cur))
            break;
    }
    if (C.nnf && !V->failed) {
        struct list pro = {NULL, 0, 0, false};
        if (!nonfinite_prologue(V, &C, &pro)) {
            free(pro.ins);
            free(body.ins);
            return false;
        }
        for (unsigned i = 0; i < body.n; i++)
            push(&pro, &body.ins[i]);
        free(body.ins);
        adopt(V, &pro);
    } else {
        adopt(V, &body);
    }
    return !V->failed && !p->oom;
}

/* ------------------------------------------------------------------ */
/* Writemasks and destinations                                         */

static bool destinations(struct vasm *V)
{
    struct mir_prog *p = &V->p;
    struct list l = {NULL, 0, 0, false};
    for (unsigned i = 0; i < p->n && !V->failed; i++) {
        struct mir_instr cur = p->ins[i];
        if (cur.dead)
            continue;
        /* vs_1_x frc writes .y or .xy */
        if (cur.op == ST_OP_FRC && V->vs && !V->arb && V->ver < ST_VER(2, 0) && cur.has_dst &&
            cur.dst.mask != 0x2 && cur.dst.mask != 0x3) {
            /* frc two lanes at a time into .xy of a new vreg, then move them */
            uint8_t m = cur.dst.mask;
            unsigned ln[4], n = 0;
            for (unsigned k = 0; k < 4; k++)
                if ((m >> k) & 1)
                    ln[n++] = k;
            for (unsigned at = 0; at < n; at += 2) {
                unsigned a0 = ln[at], a1 = ln[at + 1 < n ? at + 1 : at];
                uint32_t t = vasm_new_vreg(V, MIR_CLASS_FLOAT);
                struct mir_instr fr = cur;
                fr.dst = (struct mir_dst){.kind = MIR_VREG, .mask = 0x3, .vreg = t};
                uint8_t sa = (uint8_t)ST_SWZ_LANE(cur.src[0].swz, a0);
                uint8_t sb = (uint8_t)ST_SWZ_LANE(cur.src[0].swz, a1);
                fr.src[0].swz = (uint8_t)(sa | sb << 2 | sb << 4 | sb << 6);
                fr.sat = false;
                fr.predicated = false;
                push(&l, &fr);
                struct mir_instr mv = cur;
                mv.op = ST_OP_MOV;
                mv.nsrc = 1;
                mv.dst.mask = (uint8_t)((1u << a0) | (1u << a1));
                uint8_t swz = 0;
                for (unsigned q = 0; q < 4; q++)
                    swz |= (uint8_t)((q == a1 && a1 != a0 ? 1u : 0u) << (2 * q));
                mv.src[0] = mir_src_vreg(t, swz);
                push(&l, &mv);
            }
            continue;
        }
        /* ps_1_x writes oDepth only through texdepth and texm3x2depth,
         * which name no destination for it */
        if (V->ps1x && cur.has_dst && cur.dst.kind == MIR_FIXED && cur.dst.file == ST_REG_DEPTHOUT)
            continue;
        /* texld writes all four lanes before ps_3_0 */
        if ((cur.op == ST_OP_TEXLD || cur.op == ST_OP_TEXLDP || cur.op == ST_OP_TEXLDB ||
             cur.op == ST_OP_TEXLDD || cur.op == ST_OP_TEXLDL) &&
            V->ps && !V->arb && V->ver < ST_VER(3, 0) && cur.has_dst)
            cur.dst.mask = 0xf;
        push(&l, &cur);
    }
    adopt(V, &l);
    return !V->failed && !p->oom;
}

/* ps_1_1..1_3 cnd: the condition is r0.a. */
static bool cnd_condition(struct vasm *V)
{
    if (!V->ps1x || V->ver >= ST_VER(1, 4))
        return true;
    struct mir_prog *p = &V->p;
    struct list l = {NULL, 0, 0, false};
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr cur = p->ins[i];
        if (!cur.dead && cur.op == ST_OP_CND) {
            struct mir_src *s = &cur.src[0];
            bool ok = s->kind == MIR_VREG && s->swz == 0xff && s->mod == MIR_MOD_NONE &&
                      V->pin[s->vreg].file == ST_REG_TEMP && V->pin[s->vreg].index == 0;
            /* a value read in its w lane: computed in r0 to begin with */
            if (!ok && (V->tactics & VASM_LONGER_LIVES) && s->kind == MIR_VREG &&
                s->mod == MIR_MOD_NONE && agrees(s->swz, 0xff, cur.dst.mask) &&
                V->pin[s->vreg].file == ST_REG_COUNT) {
                pin_vreg(V, s->vreg, ST_REG_TEMP, 0);
                s->swz = 0xff;
                ok = true;
            }
            if (!ok) {
                /* the one lane the written lanes read, into r0.a */
                int lane = -1;
                for (unsigned k = 0; k < 4; k++)
                    if ((cur.dst.mask >> k) & 1) {
                        int sl = (int)ST_SWZ_LANE(s->swz, k);
                        if (lane >= 0 && lane != sl) {
                            vasm_fail(V, "a cnd of ps_1_1..1_3 whose lanes test different values");
                            break;
                        }
                        lane = sl;
                    }
                struct mir_src x = *s;
                x.swz = swz_rep(lane < 0 ? 3u : (unsigned)lane);
                struct mir_src c = helper(V, &l, ST_OP_MOV, 0x8, x, MIR_CLASS_FLOAT);
                pin_vreg(V, c.vreg, ST_REG_TEMP, 0);
                c.swz = 0xff;
                *s = c;
            }
        }
        push(&l, &cur);
    }
    adopt(V, &l);
    return !p->oom;
}

/*
 * One a0: two address values live at once (a relative read whose address
 * was overwritten by a later mova before the read) cannot both be there.
 * A read of the older one after the newer mova, in the same straight-line
 * stretch, is made before that mova into a temporary of its own.
 */
static bool address_conflicts(struct vasm *V)
{
    struct mir_prog *p = &V->p;
    if (V->arb && !V->vs)
        return true;
    struct mir_live lv;
    struct mir_ig g;
    if (!mir_liveness(p, &lv, NULL, 0))
        return false;
    if (!mir_ig_build(&g, p, &lv)) {
        mir_live_free(&lv);
        return false;
    }
    /* per instruction: a new instruction to put before it, at most one a0
     * write being replaced: collect the moves per mova index */
    struct list l = {NULL, 0, 0, false};
    bool changed = false;
    for (unsigned i = 0; i < p->n; i++) {
        struct mir_instr cur = p->ins[i];
        if (!cur.dead && cur.has_dst && cur.dst.kind == MIR_VREG &&
            V->pin[cur.dst.vreg].file == ST_REG_ADDR) {
            uint32_t B = cur.dst.vreg;
            unsigned blk = lv.block_of[i];
            /* reads through an older address in this block after the mova */
            for (unsigned j = i + 1; j < lv.start[blk + 1]; j++) {
                struct mir_instr *u = &p->ins[j];
                if (u->dead)
                    continue;
                for (unsigned k = 0; k < u->nsrc; k++) {
                    struct mir_src *s = &u->src[k];
                    if (s->kind != MIR_FIXED || !s->rel || s->rel_vreg == B ||
                        V->pin[s->rel_vreg].file != ST_REG_ADDR ||
                        !mir_ig_lanes(&g, s->rel_vreg, B))
                        continue;
                    uint8_t lanes = mir_src_lanes(p, u, k);
                    struct mir_src x = *s;
                    x.swz = ST_SWIZZLE_IDENTITY;
                    x.mod = MIR_MOD_NONE;
                    struct mir_src t = helper(V, &l, ST_OP_MOV, lanes ? lanes : 0xf, x,
                                              MIR_CLASS_FLOAT);
                    t.swz = s->swz;
                    t.mod = s->mod;
                    *s = t;
                    changed = true;
                }
                if (u->has_dst && u->dst.kind == MIR_VREG && u->dst.vreg != B &&
                    V->pin[u->dst.vreg].file == ST_REG_ADDR)
                    break; /* the next mova */
            }
        }
        push(&l, &cur);
    }
    mir_ig_free(&g);
    mir_live_free(&lv);
    if (changed)
        adopt(V, &l);
    else
        free(l.ins);
    return !p->oom;
}

/*
 * ps_1_1..1_3 write the colour lanes (.rgb) and alpha (.a) as two units:
 * every writemask is .rgb, .a or .rgba, and dp3/dp4 write .rgb or .rgba.
 * A lane the shader as written wrote always came with its whole unit, so
 * each definition here widens to its units again: the lanes it gains
 * were written by the instruction the shader had, and nothing reads them
 * or lives in them meanwhile (the unit was the value's as a whole).
 */
static uint8_t ps13_units(unsigned op, uint8_t m)
{
    uint8_t u = (uint8_t)((m & 0x7 ? 0x7 : 0) | (m & 0x8));
    if ((op == ST_OP_DP3 || op == ST_OP_DP4) && (u & 0x8))
        u = 0xf;
    return u;
}

static bool ps13_masks(struct vasm *V)
{
    if (!V->ps1x || V->ver >= ST_VER(1, 4))
        return true;
    struct mir_prog *p = &V->p;
    for (unsigned i = 0; i < p->n && !V->failed; i++) {
        struct mir_instr *in = &p->ins[i];
        if (in->dead || !in->has_dst || in->dst.kind != MIR_VREG || in->op == MIR_OP_OPAQUE)
            continue;
        if (in->op == MIR_OP_MERGE) {
            uint8_t taken = 0;
            for (unsigned k = 0; k < in->nsrc; k++) {
                uint8_t u = ps13_units(ST_OP_MOV, in->lanes[k]);
                if (u & taken)
                    return vasm_fail(V, "two values in one unit (.rgb or .a) of a ps_1_1..1_3 "
                                        "register");
                taken |= u;
                in->lanes[k] = u;
            }
            in->dst.mask = taken;
            continue;
        }
        in->dst.mask = ps13_units(in->op, in->dst.mask);
    }
    return !V->failed;
}

bool vasm_legalize(struct vasm *V)
{
    return pins(V) && address_conflicts(V) && operands(V) && destinations(V) &&
           cnd_condition(V) && ps13_masks(V) && !V->failed;
}
