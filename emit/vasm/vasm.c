/*
 * vasm.c — `--emit=vasm`: the vector IR back to vector assembly of the
 * shader's own dialect and version (docs/merge.md).
 *
 * The IR is copied and made legal for the model (legalize.c), registers
 * are allocated (regalloc.c), then here the program becomes an ordinary
 * st_shader AST and the dialect's own canonical printer writes it
 * (st_print_asm, or st_print_arb for ARB programs, whose tables are
 * rebuilt here: docs/merge.md "ARB programs").
 *
 * Before anything is returned the text is parsed and checked again as the
 * shader model demands, and it may warn about nothing the input did not
 * warn about; a failure there is our bug and is reported as
 * ST_E_NOT_SUPPORTED rather than handing out an invalid program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vasm.h"

struct build {
    struct vasm *V;
    struct st_shader *sh;
    uint32_t orig_params; /* ARB: parameter slots of the input program */
    struct st_instr scratch; /* handed out once memory ran out */
};

static struct st_instr *add(struct build *B, enum st_opcode op)
{
    struct st_instr *in = st_arena_alloc(B->sh->arena, sizeof(*in));
    if (!in) {
        /* out of memory (st_arena_failed, reported before printing): the
         * caller fills a scratch instruction that is not in the program */
        memset(&B->scratch, 0, sizeof(B->scratch));
        B->scratch.op = op;
        return &B->scratch;
    }
    in->op = op;
    if (B->sh->last)
        B->sh->last->next = in;
    else
        B->sh->first = in;
    B->sh->last = in;
    B->sh->num_instrs++;
    return in;
}

/* Drops the last instruction again. */
static void drop_last(struct build *B)
{
    struct st_instr *prev = NULL;
    for (struct st_instr *x = B->sh->first; x && x != B->sh->last; x = x->next)
        prev = x;
    if (prev)
        prev->next = NULL;
    else
        B->sh->first = NULL;
    B->sh->last = prev;
    B->sh->num_instrs--;
}

static struct st_reg reg_of_vreg(const struct vasm *V, uint32_t v)
{
    struct st_reg r;
    memset(&r, 0, sizeof(r));
    r.file = V->pin[v].file == ST_REG_COUNT ? ST_REG_TEMP : V->pin[v].file;
    r.index = V->phys[v];
    return r;
}

static struct st_reladdr *reladdr(struct build *B, uint32_t rel_vreg, uint8_t lane)
{
    struct st_reladdr *ra = st_arena_alloc(B->sh->arena, sizeof(*ra));
    if (!ra)
        return NULL; /* out of memory: st_arena_failed, reported before printing */
    if (B->V->pin[rel_vreg].file == ST_REG_LOOP) {
        ra->file = ST_REG_LOOP;
    } else {
        ra->file = ST_REG_ADDR;
        ra->component = lane;
        ra->has_component = true;
    }
    return ra;
}

static enum st_srcmod srcmod(unsigned mod)
{
    switch (mod) {
    case MIR_MOD_NEG: return ST_SRCMOD_NEG;
    case MIR_MOD_ABS: return ST_SRCMOD_ABS;
    case MIR_MOD_ABSNEG: return ST_SRCMOD_ABSNEG;
    case MIR_MOD_BIAS: return ST_SRCMOD_BIAS;
    case MIR_MOD_BIASNEG: return ST_SRCMOD_BIASNEG;
    case MIR_MOD_BX2: return ST_SRCMOD_SIGN;
    case MIR_MOD_BX2NEG: return ST_SRCMOD_SIGNNEG;
    case MIR_MOD_COMP: return ST_SRCMOD_COMP;
    case MIR_MOD_X2: return ST_SRCMOD_X2;
    case MIR_MOD_X2NEG: return ST_SRCMOD_X2NEG;
    case MIR_MOD_NOT: return ST_SRCMOD_NOT;
    default: return ST_SRCMOD_NONE;
    }
}

static struct st_src conv_src(struct build *B, const struct mir_src *s)
{
    struct st_src o;
    memset(&o, 0, sizeof(o));
    if (s->kind == MIR_VREG)
        o.reg = reg_of_vreg(B->V, s->vreg);
    else
        o.reg = (struct st_reg){.file = s->file, .index = (uint32_t)s->index};
    if (s->kind == MIR_FIXED && s->rel)
        o.reg.rel = reladdr(B, s->rel_vreg, s->rel_lane);
    o.swizzle = s->swz;
    o.swizzle_len = s->swz == ST_SWIZZLE_IDENTITY ? 0 : 4;
    o.mod = srcmod(s->mod);
    return o;
}

static struct st_dst conv_dst(struct build *B, const struct mir_dst *d)
{
    struct st_dst o;
    memset(&o, 0, sizeof(o));
    if (d->kind == MIR_VREG)
        o.reg = reg_of_vreg(B->V, d->vreg);
    else
        o.reg = (struct st_reg){.file = d->file, .index = (uint32_t)d->index};
    if (d->kind == MIR_FIXED && d->rel)
        o.reg.rel = reladdr(B, d->rel_vreg, d->rel_lane);
    o.writemask = d->mask;
    return o;
}

static bool scalar_output(const struct st_dst *d)
{
    return (d->reg.file == ST_REG_RASTOUT && d->reg.index != ST_RASTOUT_POS) ||
           d->reg.file == ST_REG_DEPTHOUT;
}

/* A mov that would copy a register onto itself prints nothing. */
static bool noop_mov(const struct st_dst *d, const struct st_src *s)
{
    if (d->reg.file != s->reg.file || d->reg.index != s->reg.index || s->mod != ST_SRCMOD_NONE ||
        d->reg.rel || s->reg.rel)
        return false;
    for (unsigned l = 0; l < 4; l++)
        if ((d->writemask >> l) & 1 && ST_SWZ_LANE(s->swizzle, l) != l)
            return false;
    return true;
}

static void set_pred(struct build *B, struct st_instr *in, const struct mir_instr *m)
{
    if (!m->predicated)
        return;
    in->predicated = true;
    in->pred = conv_src(B, &m->pred);
    in->pred.mod = m->pred.mod == MIR_MOD_NOT ? ST_SRCMOD_NOT : ST_SRCMOD_NONE;
}

static void build_code(struct build *B)
{
    const struct vasm *V = B->V;
    const struct mir_prog *p = &V->p;
    for (unsigned i = 0; i < p->n; i++) {
        const struct mir_instr *m = &p->ins[i];
        if (m->dead)
            continue;
        if (m->op == MIR_OP_MERGE) {
            /* what coalescing left: one writemasked mov per input */
            for (unsigned k = 0; k < m->nsrc; k++) {
                struct st_dst d = conv_dst(B, &m->dst);
                d.writemask = m->lanes[k];
                struct st_src s = conv_src(B, &m->src[k]);
                /* a half merge of a full-precision value rounds it: no no-op */
                bool rounds = m->half && !(m->src[k].kind == MIR_VREG &&
                                           p->vclass[m->src[k].vreg] == MIR_CLASS_HALF);
                if (noop_mov(&d, &s) && !rounds)
                    continue;
                struct st_instr *in = add(B, ST_OP_MOV);
                in->has_dst = true;
                in->dst = d;
                in->nsrc = 1;
                in->src[0] = s;
                if (m->half)
                    in->dstmod |= ST_DSTMOD_PP;
                set_pred(B, in, m);
                B->V->stats->moves_left++;
            }
            continue;
        }
        if (m->op == MIR_OP_OPAQUE) {
            /* as written: its registers are the ones allocation pinned */
            struct st_instr *in = add(B, m->ast->op);
            struct st_instr *keep = in->next;
            *in = *m->ast;
            in->next = keep;
            continue;
        }
        unsigned op = m->op;
        /* vs_1_1 writes a0 with mov */
        if (op == ST_OP_MOVA && V->vs && V->ver < ST_VER(2, 0))
            op = ST_OP_MOV;
        struct st_instr *in = add(B, (enum st_opcode)op);
        if (op == ST_OP_TEXKILL) {
            /* the IR reads it as a source; the assembly names it as dst */
            struct st_src s = conv_src(B, &m->src[0]);
            in->has_dst = true;
            in->dst.reg = s.reg;
            in->dst.writemask = 0xf;
            set_pred(B, in, m);
            continue;
        }
        in->cmp = m->cmp;
        in->shift = m->shift;
        set_pred(B, in, m);
        if (m->sat)
            in->dstmod |= ST_DSTMOD_SAT;
        if (m->half) /* --pp=fp16: the instruction computes in half again */
            in->dstmod |= ST_DSTMOD_PP;
        unsigned n = 0;
        for (unsigned k = 0; k < m->nsrc && n < 5; k++) {
            in->src[n++] = conv_src(B, &m->src[k]);
            /* texld* name their sampler after the coordinate */
            if (k == 0 && (op == ST_OP_TEXLD || op == ST_OP_TEXLDP || op == ST_OP_TEXLDB ||
                           op == ST_OP_TEXLDL || op == ST_OP_TEXLDD)) {
                memset(&in->src[n], 0, sizeof(in->src[n]));
                in->src[n].reg = (struct st_reg){.file = ST_REG_SAMPLER, .index = m->tex_stage};
                in->src[n].swizzle = ST_SWIZZLE_IDENTITY;
                n++;
            }
        }
        in->nsrc = n;
        if (op == ST_OP_LOOP) {
            /* loop aL, i# */
            in->src[1] = in->src[0];
            memset(&in->src[0], 0, sizeof(in->src[0]));
            in->src[0].reg.file = ST_REG_LOOP;
            in->src[0].swizzle = ST_SWIZZLE_IDENTITY;
            in->nsrc = 2;
            continue;
        }
        if (op == ST_OP_REP || op == ST_OP_IF || op == ST_OP_IFC || op == ST_OP_BREAKC ||
            op == ST_OP_BREAKP) {
            for (unsigned k = 0; k < in->nsrc; k++)
                if (in->src[k].reg.file == ST_REG_CONSTINT || in->src[k].reg.file == ST_REG_CONSTBOOL) {
                    in->src[k].swizzle = ST_SWIZZLE_IDENTITY;
                    in->src[k].swizzle_len = 0;
                }
            if ((op == ST_OP_IF || op == ST_OP_BREAKP) && in->src[0].reg.file == ST_REG_PREDICATE) {
                in->src[0].swizzle = (uint8_t)(ST_SWZ_LANE(in->src[0].swizzle, 0) * 0x55);
                in->src[0].swizzle_len = 1;
            }
            continue;
        }
        if (m->has_dst) {
            in->has_dst = true;
            in->dst = conv_dst(B, &m->dst);
            if (scalar_output(&in->dst)) {
                /* oFog, oPts, oDepth take the first written lane: a
                 * componentwise op computes it from that lane of its
                 * sources; a dot product (or another replicating op) has
                 * the same value in every lane and keeps its swizzles */
                unsigned first = 0;
                while (first < 3 && !((m->dst.mask >> first) & 1))
                    first++;
                in->dst.writemask = 0xf;
                if (st_op_componentwise((enum st_opcode)m->op))
                    for (unsigned k = 0; k < in->nsrc; k++)
                        in->src[k].swizzle =
                            (uint8_t)(ST_SWZ_LANE(in->src[k].swizzle, first) * 0x55);
                for (unsigned k = 0; k < in->nsrc; k++)
                    in->src[k].swizzle_len = in->src[k].swizzle == ST_SWIZZLE_IDENTITY ? 0 : 4;
            }
            if (op == ST_OP_MOV && !m->sat && !m->shift && !m->predicated &&
                !(m->half && !(m->src[0].kind == MIR_VREG &&
                               p->vclass[m->src[0].vreg] == MIR_CLASS_HALF)) &&
                noop_mov(&in->dst, &in->src[0]))
                drop_last(B); /* (a mov_pp of a full-precision value rounds it) */
        }
    }
}

/* ------------------------------------------------------------------ */
/* ARB programs (docs/merge.md, "ARB programs").                       */

static const char *arb_operands(unsigned op)
{
    for (unsigned i = 0; i < st_arb_num_opinfo; i++)
        if ((unsigned)st_arb_opinfo[i].op == op)
            return st_arb_opinfo[i].operands;
    return NULL;
}

static bool arb_has_op(const struct vasm *V, unsigned op)
{
    for (unsigned i = 0; i < st_arb_num_opinfo; i++)
        if ((unsigned)st_arb_opinfo[i].op == op)
            return V->vs ? st_arb_opinfo[i].vp : st_arb_opinfo[i].fp;
    return false;
}

static bool arb_src(struct build *B, const struct mir_src *s, char letter, struct st_src *o,
                    struct st_arb_operand *ao)
{
    const struct st_arb_program *a = B->sh->arb;
    memset(o, 0, sizeof(*o));
    ao->var = NULL;
    ao->array = -1;
    ao->offset = 0;
    if (s->kind == MIR_VREG)
        o->reg = reg_of_vreg(B->V, s->vreg);
    else
        o->reg = (struct st_reg){.file = s->file, .index = (uint32_t)s->index};
    if (s->kind == MIR_FIXED && s->rel) {
        /* a[A0.x + k]: the array by name, k relative to its first slot */
        if (!s->arr1 || s->arr1 > a->num_arrays || !a->num_addrs)
            return false;
        const struct st_arb_array *arr = &a->arrays[s->arr1 - 1];
        struct st_reladdr *ra = st_arena_alloc(B->sh->arena, sizeof(*ra));
        if (!ra)
            return false;
        ra->file = ST_REG_ADDR;
        ra->index = 0;
        ra->has_component = true;
        o->reg.rel = ra;
        ao->var = arr->name;
        ao->array = (int32_t)(s->arr1 - 1);
        ao->offset = (int32_t)s->index - (int32_t)arr->first;
    } else if (s->kind == MIR_FIXED && s->file == ST_REG_CONST && s->index >= 0 &&
               (uint32_t)s->index < B->orig_params && a->params[s->index].array >= 0 &&
               (unsigned)a->params[s->index].array < a->num_arrays) {
        /* an element of a PARAM array, named as the program did */
        const struct st_arb_array *arr = &a->arrays[a->params[s->index].array];
        ao->var = arr->name;
        ao->array = a->params[s->index].array;
        ao->offset = (int32_t)((uint32_t)s->index - arr->first);
    } else if (s->kind == MIR_FIXED && s->file == ST_REG_CONST && s->index >= 0 &&
               (uint32_t)s->index < B->orig_params) {
        for (unsigned i = 0; i < a->num_decls; i++)
            if (a->decls[i].kind == ST_ARB_DECL_PARAM && a->decls[i].index == (uint32_t)s->index) {
                ao->var = a->decls[i].name;
                break;
            }
    }
    switch (s->mod) {
    case MIR_MOD_NONE: break;
    case MIR_MOD_NEG: o->mod = ST_SRCMOD_NEG; break;
    default: return false; /* ARB has no other source modifier */
    }
    if (letter == 'S') { /* one component */
        o->swizzle = (uint8_t)(ST_SWZ_LANE(s->swz, 0) * 0x55);
        o->swizzle_len = 1;
    } else if (letter == 'R') {
        /* SWZ: the source's swizzle and sign go into the selectors */
        o->swizzle = ST_SWIZZLE_IDENTITY;
        o->swizzle_len = 0;
    } else {
        o->swizzle = s->swz;
        o->swizzle_len = s->swz == ST_SWIZZLE_IDENTITY ? 0
                         : s->swz == 0x00 || s->swz == 0x55 || s->swz == 0xaa || s->swz == 0xff
                             ? 1
                             : 4;
    }
    return true;
}

static struct st_instr *arb_add(struct build *B, unsigned op)
{
    struct st_instr *in = add(B, (enum st_opcode)op);
    struct st_arb_instr *ai = st_arena_alloc(B->sh->arena, sizeof(*ai));
    if (!ai)
        return NULL;
    ai->dst.array = -1;
    for (unsigned k = 0; k < 3; k++)
        ai->src[k].array = -1;
    in->arb = ai;
    return in;
}

static bool build_code_arb(struct build *B, const char **why)
{
    const struct vasm *V = B->V;
    const struct mir_prog *p = &V->p;
    for (unsigned i = 0; i < p->n; i++) {
        const struct mir_instr *m = &p->ins[i];
        if (m->dead)
            continue;
        if (m->op == MIR_OP_MERGE) {
            for (unsigned k = 0; k < m->nsrc; k++) {
                struct st_dst d = conv_dst(B, &m->dst);
                d.writemask = m->lanes[k];
                struct st_instr *in = arb_add(B, ST_OP_MOV);
                if (!in) {
                    *why = "out of memory";
                    return false;
                }
                if (!arb_src(B, &m->src[k], 'V', &in->src[0], &in->arb->src[0])) {
                    *why = "an operand ARB cannot state";
                    return false;
                }
                in->has_dst = true;
                in->dst = d;
                in->nsrc = 1;
                B->V->stats->moves_left++;
                if (noop_mov(&d, &in->src[0])) {
                    B->V->stats->moves_left--;
                    drop_last(B);
                }
            }
            continue;
        }
        const char *ops = arb_operands(m->op);
        if (!ops || !arb_has_op(V, m->op) || m->predicated || m->shift ||
            (m->sat && !V->ps)) {
            *why = "an instruction the program kind does not have";
            return false;
        }
        struct st_instr *in = arb_add(B, m->op);
        if (!in) {
            *why = "out of memory";
            return false;
        }
        struct st_arb_instr *ai = in->arb;
        if (m->sat)
            in->dstmod |= ST_DSTMOD_SAT;
        const char *sl = ops;
        if (*sl == 'D' || *sl == 'A') {
            if (!m->has_dst) {
                *why = "an instruction without its destination";
                return false;
            }
            in->has_dst = true;
            in->dst = conv_dst(B, &m->dst);
            if (*sl == 'A')
                in->dst.writemask = 0x1;
            sl++;
        }
        unsigned k = 0, n = 0;
        for (; *sl && n < 3; sl++) {
            if (*sl == 'U') {
                in->src[n].reg = (struct st_reg){.file = ST_REG_SAMPLER, .index = m->tex_stage};
                ai->tex_unit = m->tex_stage;
                ai->tex_target = (enum st_arb_tex_target)m->tex_target;
                n++;
                continue;
            }
            if (*sl == 'X' || *sl == 'T')
                continue;
            if (k >= m->nsrc || !arb_src(B, &m->src[k], *sl, &in->src[n], &ai->src[n])) {
                *why = "an operand ARB cannot state";
                return false;
            }
            k++;
            n++;
        }
        in->nsrc = n;
        if (m->op == ST_OP_ARB_SWZ) {
            const struct mir_src *s = &m->src[0];
            for (unsigned l = 0; l < 4; l++) {
                uint8_t sel = m->swz_sel[l];
                bool neg = (m->swz_neg >> l) & 1;
                if (sel < 4) {
                    sel = (uint8_t)ST_SWZ_LANE(s->swz, sel);
                    neg ^= s->mod == MIR_MOD_NEG;
                }
                ai->swz_sel[l] = sel;
                ai->swz_neg |= (uint8_t)(neg ? 1u << l : 0);
            }
            in->src[0].swizzle = ST_SWIZZLE_IDENTITY;
            in->src[0].swizzle_len = 0;
            in->src[0].mod = ST_SRCMOD_NONE;
        }
        if (in->has_dst && m->op == ST_OP_MOV && !m->sat && noop_mov(&in->dst, &in->src[0]))
            drop_last(B);
    }
    return true;
}

static bool name_taken(const struct st_arb_program *a, const char *n)
{
    for (unsigned i = 0; i < a->num_decls; i++)
        if (a->decls[i].name && strcmp(a->decls[i].name, n) == 0)
            return true;
    return false;
}

/*
 * The tables of the new program: the original's options, inputs, outputs,
 * arrays and address registers as they are; its parameters plus the new
 * literals; its declarations without the TEMPs (and the ALIASes of them),
 * then one TEMP per allocated register under a name no declaration of the
 * program uses.
 */
static bool build_arb_tables(struct build *B, const struct st_shader *sh)
{
    const struct vasm *V = B->V;
    const struct st_arb_program *o = sh->arb;
    struct st_arena *ar = B->sh->arena;
    struct st_arb_program *a = st_arena_alloc(ar, sizeof(*a));
    if (!a)
        return false;
    *a = *o;
    uint32_t np = o->num_params;
    for (unsigned k = 0; k < V->ndefs; k++)
        if (V->defs[k].index >= 0 && (uint32_t)V->defs[k].index >= np)
            np = (uint32_t)V->defs[k].index + 1;
    a->params = st_arena_alloc(ar, sizeof(*a->params) * (np ? np : 1));
    if (!a->params)
        return false;
    if (o->num_params)
        memcpy(a->params, o->params, sizeof(*a->params) * o->num_params);
    for (unsigned k = 0; k < V->ndefs; k++) {
        uint32_t x = (uint32_t)V->defs[k].index;
        if (x < o->num_params)
            continue;
        a->params[x].kind = ST_ARB_PARAM_CONST;
        memcpy(a->params[x].value, V->defs[k].f, sizeof(a->params[x].value));
        a->params[x].array = -1;
        a->params[x].loc = o->end_loc;
    }
    a->num_params = np;
    B->orig_params = o->num_params;
    unsigned nt = V->temps;
    a->temps = st_arena_alloc(ar, sizeof(*a->temps) * (nt ? nt : 1));
    a->decls = st_arena_alloc(ar, sizeof(*a->decls) * (o->num_decls + nt + 1));
    int32_t *remap = st_arena_alloc(ar, sizeof(*remap) * (o->num_decls + 1));
    if (!a->temps || !a->decls || !remap)
        return false;
    a->num_decls = 0;
    for (unsigned i = 0; i < o->num_decls; i++) {
        const struct st_arb_decl *d = &o->decls[i];
        remap[i] = -1;
        if (d->kind == ST_ARB_DECL_TEMP)
            continue;
        if (d->kind == ST_ARB_DECL_ALIAS && (d->index >= i || remap[d->index] < 0))
            continue;
        a->decls[a->num_decls] = *d;
        if (d->kind == ST_ARB_DECL_ALIAS)
            a->decls[a->num_decls].index = (uint32_t)remap[d->index];
        remap[i] = (int32_t)a->num_decls++;
    }
    a->num_temps = nt;
    for (unsigned t = 0; t < nt; t++) {
        char *n = st_arena_printf(ar, "r%u", t);
        while (n && name_taken(o, n))
            n = st_arena_printf(ar, "%s_", n);
        if (!n)
            return false;
        a->temps[t] = n;
        a->decls[a->num_decls++] = (struct st_arb_decl){.kind = ST_ARB_DECL_TEMP, .name = n,
                                                         .index = t, .loc = o->end_loc};
    }
    B->sh->arb = a;
    return true;
}

/* An else with nothing before its endif goes; if / break / endif of a
 * compare becomes breakc, which every model with ifc has. */
static void tidy_flow(struct st_shader *sh)
{
    struct st_instr *prev = NULL;
    for (struct st_instr *i = sh->first; i;) {
        struct st_instr *next = i->next;
        if (i->op == ST_OP_ELSE && next && next->op == ST_OP_ENDIF) {
            if (prev)
                prev->next = next;
            else
                sh->first = next;
            sh->num_instrs--;
            i = next;
            continue;
        }
        if (i->op == ST_OP_IFC && next && next->op == ST_OP_BREAK && next->next &&
            next->next->op == ST_OP_ENDIF) {
            i->op = ST_OP_BREAKC;
            i->next = next->next->next;
            sh->num_instrs -= 2;
            if (!i->next)
                sh->last = i;
            prev = i;
            i = i->next;
            continue;
        }
        if (i->op == ST_OP_IF && i->nsrc == 1 && i->src[0].reg.file == ST_REG_PREDICATE && next &&
            next->op == ST_OP_BREAK && next->next && next->next->op == ST_OP_ENDIF) {
            i->op = ST_OP_BREAKP;
            i->next = next->next->next;
            sh->num_instrs -= 2;
            if (!i->next)
                sh->last = i;
            prev = i;
            i = i->next;
            continue;
        }
        prev = i;
        i = next;
    }
    sh->last = prev;
    for (struct st_instr *i = sh->first; i; i = i->next)
        sh->last = i;
}

static unsigned count_code(const struct st_shader *sh)
{
    unsigned n = 0;
    for (const struct st_instr *i = sh->first; i; i = i->next)
        if (!(st_opinfo[i->op].flags & OPF_DECL))
            n++;
    return n;
}

static unsigned count_temps(const struct st_shader *sh)
{
    bool used[256] = {false};
    unsigned n = 0;
    if (sh->version.type == ST_PS && sh->version.ver < ST_VER(2, 0) && sh->dialect == ST_D3D9) {
        used[0] = true; /* ps_1_x: r0 is the colour output, named or not */
        n = 1;
    }
    for (const struct st_instr *i = sh->first; i; i = i->next) {
        if (i->has_dst && i->dst.reg.file == ST_REG_TEMP && i->dst.reg.index < 256 &&
            !used[i->dst.reg.index]) {
            used[i->dst.reg.index] = true;
            n++;
        }
        for (unsigned k = 0; k < i->nsrc && k < 5; k++)
            if (i->src[k].reg.file == ST_REG_TEMP && i->src[k].reg.index < 256 &&
                !used[i->src[k].reg.index]) {
                used[i->src[k].reg.index] = true;
                n++;
            }
    }
    return n;
}

/* Parses and checks the text again; the first error becomes ours, and so
 * does a warning the input did not have. */
static bool recheck(struct st_ctx *ctx, bool quiet, const struct st_shader *orig, const char *text,
                    size_t len, unsigned input_warnings)
{
    struct st_ctx *c2 = st_ctx_create("vasm", text, len, 5);
    struct st_arena *a2 = st_arena_create();
    if (a2 && c2)
        st_arena_report_to(a2, c2);
    if (c2)
        st_ctx_set_limits(c2, st_ctx_limits(ctx)); /* its work counts too */
    if (!c2 || !a2) {
        st_ctx_destroy(c2);
        st_arena_destroy(a2);
        st_error(ctx, orig->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    bool arb = orig->dialect == ST_ARB;
    struct st_shader *sh2 = arb ? st_parse_arb(c2, a2) : st_parse_d3d9(c2, a2);
    bool ok = sh2 && st_error_count(c2) == 0 && (arb ? st_check_arb(c2, sh2) : st_check(c2, sh2));
    if (!ok && st_ctx_out_of_memory(c2)) {
        st_error(ctx, orig->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
    } else if (!ok && !st_poll(ctx, 0)) {
        /* a budget or cancel stop, reported as such */
    } else if (quiet) {
        ok = ok && st_warning_count(c2) <= input_warnings;
    } else if (!ok) {
        struct st_loc where = {0, 0};
        const char *msg = st_ctx_first_error(c2, &where);
        st_error(ctx, orig->version.loc, ST_E_NOT_SUPPORTED,
                 "the vector back end produced assembly that does not check (line %u: %s)",
                 where.line, msg ? msg : "?");
    } else if (st_warning_count(c2) > input_warnings) {
        struct st_loc where = {0, 0};
        const char *msg = st_ctx_first_warning(c2, &where);
        st_error(ctx, orig->version.loc, ST_E_NOT_SUPPORTED,
                 "the vector back end produced assembly with a warning its input did not have "
                 "(line %u: %s)",
                 where.line, msg ? msg : "?");
        ok = false;
    }
    st_arena_destroy(a2);
    st_ctx_destroy(c2);
    return ok;
}

/* The input's own defs and defis, at their indices; the constant registers it reads. */
static void scan_input(struct vasm *V)
{
    const struct st_shader *sh = V->sh;
    if (V->arb) {
        V->max_c = 4096 + 256;
        for (uint32_t k = 0; k < sh->arb->num_params && k < 4096; k++) {
            V->c_used[k] = true;
            if (sh->arb->params[k].kind != ST_ARB_PARAM_CONST)
                continue;
            struct vasm_def d = {(int32_t)k, {0}, 0, true};
            memcpy(d.f, sh->arb->params[k].value, sizeof(d.f));
            if (V->ndefs == V->capdefs) {
                unsigned cap = V->capdefs ? V->capdefs * 2 : 16;
                struct vasm_def *x = realloc(V->defs, sizeof(*x) * cap);
                if (!x) {
                    V->p.oom = true;
                    return;
                }
                V->defs = x;
                V->capdefs = cap;
            }
            V->defs[V->ndefs++] = d;
        }
        return;
    }
    V->max_c = V->vs ? 256 : V->ver >= ST_VER(3, 0) ? 224 : V->ver >= ST_VER(2, 0) ? 32 : 8;
    bool rel_c = false;
    for (const struct st_instr *i = sh->first; i; i = i->next) {
        if (i->op == ST_OP_DEF && i->dst.reg.index < 256) {
            struct vasm_def d = {(int32_t)i->dst.reg.index, {0}, 0, true};
            memcpy(d.f, i->imm.f, sizeof(d.f));
            if (V->ndefs == V->capdefs) {
                unsigned cap = V->capdefs ? V->capdefs * 2 : 16;
                struct vasm_def *x = realloc(V->defs, sizeof(*x) * cap);
                if (!x) {
                    V->p.oom = true;
                    return;
                }
                V->defs = x;
                V->capdefs = cap;
            }
            V->defs[V->ndefs++] = d;
            V->c_used[i->dst.reg.index] = true;
            continue;
        }
        if (i->op == ST_OP_DEFI && i->dst.reg.index < 16 && V->ndefis < 16) {
            struct vasm_defi *d = &V->defis[V->ndefis++];
            d->index = (int32_t)i->dst.reg.index;
            memcpy(d->v, i->imm.i, sizeof(d->v));
            d->own = true;
            continue;
        }
        for (unsigned k = 0; k < i->nsrc && k < 5; k++) {
            const struct st_reg *r = &i->src[k].reg;
            if (r->file != ST_REG_CONST)
                continue;
            if (r->rel)
                rel_c = true;
            uint32_t hi = (st_opinfo[i->op].flags & OPF_MATRIX) ? r->index + 4 : r->index + 1;
            for (uint32_t x = r->index; x < hi && x < 256; x++)
                V->c_used[x] = true;
        }
    }
    (void)rel_c;
}

static bool build_and_print(struct vasm *V, struct st_buf *out, unsigned input_warnings)
{
    const struct st_shader *sh = V->sh;
    struct st_shader nsh;
    memset(&nsh, 0, sizeof(nsh));
    nsh.dialect = sh->dialect;
    nsh.version = sh->version;
    nsh.arena = st_arena_create();
    if (!nsh.arena) {
        st_error(V->ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    struct build B = {.V = V, .sh = &nsh};
    bool ok = true;
    if (sh->dialect == ST_ARB) {
        const char *why = "out of memory";
        ok = build_arb_tables(&B, sh) && build_code_arb(&B, &why);
        if (st_arena_failed(nsh.arena))
            ok = false; /* reported below */
        else if (!ok && !V->quiet)
            st_error(V->ctx, sh->version.loc, ST_E_NOT_SUPPORTED,
                     "the vector back end cannot print this as an ARB program: %s", why);
    } else {
        for (const struct st_instr *i = sh->first; i; i = i->next) {
            if (!(st_opinfo[i->op].flags & OPF_DECL) || i->op == ST_OP_DEF || i->op == ST_OP_DEFI)
                continue;
            struct st_instr *c = add(&B, i->op);
            struct st_instr *keep = c->next;
            *c = *i;
            c->next = keep;
        }
        for (unsigned k = 0; k < V->ndefis; k++) {
            struct st_instr *c = add(&B, ST_OP_DEFI);
            c->has_dst = true;
            c->dst.reg.file = ST_REG_CONSTINT;
            c->dst.reg.index = (uint32_t)V->defis[k].index;
            c->dst.writemask = 0xf;
            memcpy(c->imm.i, V->defis[k].v, sizeof(c->imm.i));
        }
        for (unsigned k = 0; k < V->ndefs; k++) {
            struct st_instr *c = add(&B, ST_OP_DEF);
            c->has_dst = true;
            c->dst.reg.file = ST_REG_CONST;
            c->dst.reg.index = (uint32_t)V->defs[k].index;
            c->dst.writemask = 0xf;
            memcpy(c->imm.f, V->defs[k].f, sizeof(c->imm.f));
        }
        build_code(&B);
        tidy_flow(&nsh);
    }
    struct st_buf text = {0};
    if (st_arena_failed(nsh.arena)) {
        st_error(V->ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
        ok = false;
    }
    if (ok) {
        V->stats->instrs_out = count_code(&nsh);
        V->stats->temps_out = count_temps(&nsh);
        if (sh->dialect == ST_ARB)
            st_print_arb(&nsh, &text);
        else
            st_print_asm(&nsh, &text);
        if (text.oom) {
            st_error(V->ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
            ok = false;
        } else {
            ok = recheck(V->ctx, V->quiet, sh, text.data ? text.data : "", text.len,
                         input_warnings);
        }
    }
    if (ok)
        st_buf_printf(out, "%.*s", (int)text.len, text.data ? text.data : "");
    st_buf_free(&text);
    st_arena_destroy(nsh.arena);
    return ok;
}

/* A private copy of the program (legalization changes it). */
static bool copy_prog(struct vasm *V, const struct mir_prog *in)
{
    struct mir_prog *p = &V->p;
    *p = *in;
    p->ins = malloc(sizeof(*p->ins) * (in->n ? in->n : 1));
    p->vclass = malloc(in->capv ? in->capv : 1);
    p->imm = malloc(sizeof(*p->imm) * (in->capimm ? in->capimm : 1));
    V->pin = malloc(sizeof(*V->pin) * (in->capv ? in->capv : 1));
    if (!p->ins || !p->vclass || !p->imm || !V->pin)
        return false;
    if (in->n)
        memcpy(p->ins, in->ins, sizeof(*p->ins) * in->n);
    p->cap = in->n ? in->n : 1;
    if (in->nvregs)
        memcpy(p->vclass, in->vclass, in->nvregs);
    if (in->nimm)
        memcpy(p->imm, in->imm, sizeof(*p->imm) * in->nimm);
    p->capv = in->capv ? in->capv : 1;
    p->capimm = in->capimm ? in->capimm : 1;
    for (uint32_t v = 0; v < p->nvregs; v++)
        V->pin[v] = (struct vasm_pin){ST_REG_COUNT, 0};
    return true;
}

static unsigned count_input(const struct st_shader *sh, unsigned *temps)
{
    unsigned n = count_code(sh);
    *temps = count_temps(sh);
    return n;
}

/* One try with the given tactics; quiet: a refusal reports nothing. */
static bool attempt(struct st_ctx *ctx, const struct st_shader *sh, const struct mir_prog *mir,
                    struct st_buf *out, struct st_merge_stats *stats, unsigned tactics, bool quiet)
{
    struct vasm *V = calloc(1, sizeof(*V));
    if (!V) {
        st_error(ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    V->ctx = ctx;
    V->sh = sh;
    V->stats = stats;
    V->tactics = tactics;
    V->quiet = quiet;
    V->arb = sh->dialect == ST_ARB;
    V->vs = sh->version.type == ST_VS;
    V->ps = !V->vs;
    V->ver = sh->version.ver;
    V->ps1x = V->ps && !V->arb && V->ver < ST_VER(2, 0);
    stats->instrs_in = count_input(sh, &stats->temps_in);
    unsigned input_warnings = st_warning_count(ctx);
    bool ok = copy_prog(V, mir);
    if (ok) {
        scan_input(V);
        /* compile budget, cancel: legalization is linear in the program,
         * the allocation's interference graph about vregs per instruction */
        ok = st_poll(ctx, V->p.n) && !V->p.oom && vasm_legalize(V) &&
             st_poll(ctx, (uint64_t)V->p.n * (V->p.nvregs ? V->p.nvregs : 1)) &&
             vasm_allocate(V);
        if (V->p.oom && !V->failed)
            st_error(ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
    } else {
        st_error(ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
    }
    if (ok)
        ok = build_and_print(V, out, input_warnings);
    mir_free(&V->p);
    free(V->pin);
    free(V->phys);
    free(V->defs);
    free(V);
    return ok;
}

/*
 * The program in the shader's own model.  First with the tactics that save
 * instructions at the price of longer-lived values (a read-port copy
 * reused, a cnd condition left where it is computed); when those leave
 * the model's registers short, again without them.  When neither fits the
 * model (ps_1_1's two temporaries are few), or the result is longer than
 * an input without warnings, the input itself is the answer: it is valid
 * for its model, and a vector text never longer than its input is the
 * contract.
 */
bool st_vasm_emit(struct st_ctx *ctx, const struct st_shader *sh, const struct mir_prog *mir,
                  struct st_buf *out, struct st_merge_stats *stats)
{
    struct st_merge_stats local;
    if (!stats) {
        memset(&local, 0, sizeof(local));
        stats = &local;
    }
    unsigned errors = st_error_count(ctx);
    struct st_merge_stats got = *stats;
    struct st_buf text = {0};
    bool ok = attempt(ctx, sh, mir, &text, &got, VASM_LONGER_LIVES, true);
    if (!ok && st_error_count(ctx) == errors) {
        st_buf_free(&text);
        memset(&text, 0, sizeof(text));
        got = *stats;
        ok = attempt(ctx, sh, mir, &text, &got, 0, true);
    }
    if (st_error_count(ctx) != errors || text.oom) {
        st_buf_free(&text);
        if (st_error_count(ctx) == errors)
            st_error(ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
        return false; /* out of memory: no fallback either */
    }
    /* a longer text is still the better answer when the input itself
     * draws a warning (ours has none it does not) */
    if (!ok || (got.instrs_out > got.instrs_in && st_warning_count(ctx) == 0)) {
        st_buf_free(&text);
        memset(&text, 0, sizeof(text));
        if (sh->dialect == ST_ARB)
            st_print_arb(sh, &text);
        else
            st_print_asm(sh, &text);
        if (text.oom) {
            st_buf_free(&text);
            st_error(ctx, sh->version.loc, ST_E_OUT_OF_MEMORY, "out of memory");
            return false;
        }
        got.instrs_in = count_input(sh, &got.temps_in);
        got.instrs_out = got.instrs_in;
        got.temps_out = got.temps_in;
        got.as_written = 1;
    }
    st_buf_printf(out, "%.*s", (int)text.len, text.data ? text.data : "");
    st_buf_free(&text);
    *stats = got;
    return true;
}
