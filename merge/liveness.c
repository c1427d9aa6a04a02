/* requires: a MIR program (select.c) whose flow markers are balanced.
 * invalidates: nothing (an analysis: lane liveness and the interference test built on it). */
/*
 * liveness.c — which lanes of which virtual register are live at every
 * program point, the way LLVM tracks subregister lanes: a 4-bit mask per
 * vreg instead of one bit.  A write under writemask W kills only the lanes
 * in W, a read with swizzle S makes live only the lanes S selects for the
 * lanes the instruction computes.  Interference is then a lane question:
 * two vregs clash only where one is written while the other is live in
 * the same lane, which is what lets r0.xy and r0.zw live in one register.
 */
#include <stdlib.h>
#include <string.h>

#include "mir.h"

bool mir_op_componentwise(unsigned op)
{
    switch (op) {
    case ST_OP_MOV: case ST_OP_ADD: case ST_OP_SUB: case ST_OP_MUL: case ST_OP_MAD:
    case ST_OP_MIN: case ST_OP_MAX: case ST_OP_SLT: case ST_OP_SGE: case ST_OP_LRP:
    case ST_OP_FRC: case ST_OP_CMP: case ST_OP_ABS: case ST_OP_MOVA: case ST_OP_SGN:
    case ST_OP_DSX: case ST_OP_DSY: case ST_OP_SETP: case ST_OP_CND: case ST_OP_ARB_FLR:
        return true;
    default:
        return false;
    }
}

bool mir_op_replicates(unsigned op)
{
    switch (op) {
    case ST_OP_DP3: case ST_OP_DP4: case ST_OP_DP2ADD: case ST_OP_RCP: case ST_OP_RSQ:
    case ST_OP_EXP: case ST_OP_LOG: case ST_OP_POW: case ST_OP_ARB_DPH: case ST_OP_ARB_SIN:
    case ST_OP_ARB_COS:
        return true;
    default:
        return false;
    }
}

bool mir_op_shrinkable(unsigned op)
{
    /* lit, dst, crs, expp, logp: each lane is its own function of the
     * sources, so dropping a lane changes no other */
    return op == MIR_OP_MERGE || mir_op_componentwise(op) || mir_op_replicates(op) ||
           op == ST_OP_LIT || op == ST_OP_DST || op == ST_OP_CRS || op == ST_OP_EXPP ||
           op == ST_OP_LOGP || op == ST_OP_ARB_LIT || op == ST_OP_ARB_XPD ||
           op == ST_OP_ARB_SWZ || op == ST_OP_ARB_SCS || op == ST_OP_ARB_TEX ||
           op == ST_OP_ARB_TXP || op == ST_OP_ARB_TXB;
}

uint8_t mir_arb_tex_lanes(unsigned op, unsigned target)
{
    uint8_t m;
    switch (target) {
    case ST_ARB_TEX_1D: m = 0x1; break;
    case ST_ARB_TEX_2D: case ST_ARB_TEX_RECT: m = 0x3; break;
    case ST_ARB_TEX_SHADOW1D: m = 0x5; break; /* s and the compared r */
    default: m = 0x7; break;                  /* 3D, CUBE, SHADOW2D, SHADOWRECT */
    }
    /* TXP divides by q; TXB's bias is w (our engines sample level 0 only,
     * but the program keeps its bias) */
    return op == ST_OP_ARB_TXP || op == ST_OP_ARB_TXB ? (uint8_t)(m | 0x8) : m;
}

uint8_t mir_arb_swz_lanes(const struct mir_instr *in, uint8_t written)
{
    uint8_t m = 0;
    for (unsigned l = 0; l < 4; l++)
        if ((written >> l) & 1 && in->swz_sel[l] < 4)
            m |= (uint8_t)(1u << in->swz_sel[l]);
    return m;
}

uint8_t mir_reads_while_writing(const struct mir_instr *in, uint32_t v)
{
    /* crs may not write a register it reads; sgn's scratch registers are
     * clobbered: both must be told apart from the destination whole */
    if (in->op != ST_OP_CRS && in->op != ST_OP_SGN)
        return 0;
    for (unsigned k = 0; k < in->nsrc; k++)
        if (in->src[k].kind == MIR_VREG && in->src[k].vreg == v)
            return 0xf;
    return 0;
}

/* The lanes of a source selected by swizzle swz for the lanes in `lanes`. */
static uint8_t swz_image(uint8_t swz, uint8_t lanes)
{
    uint8_t r = 0;
    for (unsigned i = 0; i < 4; i++)
        if (lanes & (1u << i))
            r |= (uint8_t)(1u << ST_SWZ_LANE(swz, i));
    return r;
}

uint8_t mir_src_lanes(const struct mir_instr *in, unsigned k)
{
    if (k >= in->nsrc)
        return 0;
    uint8_t swz = in->src[k].swz;
    if (in->op == MIR_OP_MERGE)
        return swz_image(swz, in->lanes[k]);
    if (in->op == MIR_OP_OPAQUE) /* lanes[k]: what the instruction as written reads */
        return in->lanes[k] ? in->lanes[k] : 0xf;
    if (mir_op_componentwise(in->op))
        return swz_image(swz, in->has_dst ? in->dst.mask : 0xf);
    switch (in->op) {
    case ST_OP_DP3: return swz_image(swz, 0x7);
    case ST_OP_NRM: /* the length from xyz, then each written lane scaled */
        return swz_image(swz, (uint8_t)(0x7 | (in->has_dst ? in->dst.mask : 0xf)));
    case ST_OP_DP4: return swz_image(swz, 0xf);
    case ST_OP_DP2ADD: return swz_image(swz, k == 2 ? 0x1 : 0x3);
    case ST_OP_RCP: case ST_OP_RSQ: case ST_OP_EXP: case ST_OP_LOG: case ST_OP_POW:
    case ST_OP_IFC: case ST_OP_BREAKC:
        return swz_image(swz, 0x1);
    case ST_OP_TEXLD: return k == 0 ? swz_image(swz, 0x7) : 0;
    case ST_OP_EXPP: case ST_OP_LOGP: return swz_image(swz, 0x1);
    case ST_OP_LIT: return swz_image(swz, 0xb); /* x, y, w */
    case ST_OP_DST: return swz_image(swz, k == 0 ? 0x6 : 0xa); /* src0.yz, src1.yw */
    case ST_OP_CRS: return swz_image(swz, 0x7);
    /* ARB programs */
    case ST_OP_ARB_DPH: return swz_image(swz, k == 0 ? 0x7 : 0xf);
    case ST_OP_ARB_LIT: return swz_image(swz, 0xb);
    case ST_OP_ARB_XPD: return swz_image(swz, 0x7);
    case ST_OP_ARB_SWZ: return swz_image(swz, mir_arb_swz_lanes(in, in->has_dst ? in->dst.mask : 0xf));
    case ST_OP_ARB_SIN: case ST_OP_ARB_COS: case ST_OP_ARB_SCS: case ST_OP_ARB_ARL:
        return swz_image(swz, 0x1);
    case ST_OP_ARB_TEX: case ST_OP_ARB_TXP: case ST_OP_ARB_TXB:
        return k == 0 ? swz_image(swz, mir_arb_tex_lanes(in->op, in->tex_target)) : 0;
    default: return swz_image(swz, 0xf);
    }
}

/* Index of the instruction closing the construct opened at i (ELSE or END*), or n. */
static unsigned match_forward(const struct mir_prog *p, unsigned i, bool stop_at_else)
{
    unsigned depth = 0;
    for (unsigned j = i + 1; j < p->n; j++) {
        unsigned op = p->ins[j].op;
        if (op == ST_OP_IF || op == ST_OP_IFC || op == ST_OP_REP || op == ST_OP_LOOP) {
            depth++;
        } else if (op == ST_OP_ENDIF || op == ST_OP_ENDREP || op == ST_OP_ENDLOOP) {
            if (depth == 0)
                return j;
            depth--;
        } else if (op == ST_OP_ELSE && depth == 0 && stop_at_else) {
            return j;
        }
    }
    return p->n;
}

static unsigned match_backward(const struct mir_prog *p, unsigned i)
{
    unsigned depth = 0;
    for (unsigned j = i; j-- > 0;) {
        unsigned op = p->ins[j].op;
        if (op == ST_OP_ENDIF || op == ST_OP_ENDREP || op == ST_OP_ENDLOOP) {
            depth++;
        } else if (op == ST_OP_IF || op == ST_OP_IFC || op == ST_OP_REP || op == ST_OP_LOOP) {
            if (depth == 0)
                return j;
            depth--;
        }
    }
    return 0;
}

/* The innermost loop closing after i (for break). */
static unsigned enclosing_loop_end(const struct mir_prog *p, unsigned i)
{
    unsigned depth = 0;
    for (unsigned j = i + 1; j < p->n; j++) {
        unsigned op = p->ins[j].op;
        if (op == ST_OP_IF || op == ST_OP_IFC || op == ST_OP_REP || op == ST_OP_LOOP)
            depth++;
        else if (op == ST_OP_ENDIF) {
            if (depth) /* at 0: the end of an if around the break itself */
                depth--;
        } else if (op == ST_OP_ENDREP || op == ST_OP_ENDLOOP) {
            if (depth == 0)
                return j;
            depth--;
        }
    }
    return p->n;
}

unsigned mir_succ(const struct mir_prog *p, unsigned i, unsigned succ[2])
{
    const struct mir_instr *in = &p->ins[i];
    switch (in->op) {
    case ST_OP_IF: case ST_OP_IFC: {
        unsigned e = match_forward(p, i, true);
        succ[0] = i + 1;
        succ[1] = e < p->n ? e + 1 : p->n; /* after ELSE, or after ENDIF (e is ENDIF) */
        if (e < p->n && p->ins[e].op == ST_OP_ENDIF)
            succ[1] = e;
        return 2;
    }
    case ST_OP_ELSE:
        succ[0] = match_forward(p, i, false);
        return 1;
    case ST_OP_REP: case ST_OP_LOOP: {
        unsigned e = match_forward(p, i, false);
        succ[0] = i + 1;
        succ[1] = e < p->n ? e + 1 : p->n; /* zero iterations */
        return 2;
    }
    case ST_OP_ENDREP: case ST_OP_ENDLOOP:
        succ[0] = match_backward(p, i) + 1;
        succ[1] = i + 1;
        return 2;
    case ST_OP_BREAK: {
        unsigned e = enclosing_loop_end(p, i);
        succ[0] = e < p->n ? e + 1 : p->n;
        return 1;
    }
    case ST_OP_BREAKC: {
        unsigned e = enclosing_loop_end(p, i);
        succ[0] = i + 1;
        succ[1] = e < p->n ? e + 1 : p->n;
        return 2;
    }
    case ST_OP_RET:
        succ[0] = p->n;
        return 1;
    default:
        succ[0] = i + 1;
        return 1;
    }
}

void mir_live_free(struct mir_live *lv)
{
    free(lv->in);
    free(lv->out);
    lv->in = lv->out = NULL;
}

bool mir_liveness(const struct mir_prog *p, struct mir_live *lv)
{
    unsigned n = p->n, nv = p->nvregs ? p->nvregs : 1;
    lv->n = n;
    lv->nv = nv;
    /* one extra row: the exit, where nothing is live */
    lv->in = calloc((size_t)(n + 1) * nv, 1);
    lv->out = calloc((size_t)(n + 1) * nv, 1);
    unsigned *succ = malloc(sizeof(unsigned) * 2 * (n + 1));
    unsigned *nsucc = malloc(sizeof(unsigned) * (n + 1));
    if (!lv->in || !lv->out || !succ || !nsucc) {
        free(succ);
        free(nsucc);
        mir_live_free(lv);
        return false;
    }
    for (unsigned i = 0; i < n; i++)
        nsucc[i] = mir_succ(p, i, &succ[2 * i]);
    /* ps_1_x's colour is the register r0 at the end */
    for (unsigned k = 0; k < p->nexit_live; k++)
        if (p->exit_live[k] < nv)
            lv->in[(size_t)n * nv + p->exit_live[k]] = 0xf;

    bool changed = true;
    while (changed) {
        changed = false;
        for (unsigned i = n; i-- > 0;) {
            const struct mir_instr *in = &p->ins[i];
            uint8_t *out = &lv->out[(size_t)i * nv], *inl = &lv->in[(size_t)i * nv];
            for (unsigned v = 0; v < nv; v++) {
                uint8_t o = 0;
                for (unsigned s = 0; s < nsucc[i]; s++)
                    o |= lv->in[(size_t)succ[2 * i + s] * nv + v];
                out[v] = o;
            }
            /* in = (out - killed) | read */
            uint8_t tmp_in_changed = 0;
            for (unsigned v = 0; v < nv; v++) {
                uint8_t x = out[v];
                if (!in->dead && in->has_dst && in->dst.kind == MIR_VREG && in->dst.vreg == v &&
                    !in->predicated)
                    x &= (uint8_t)~in->dst.mask;
                /* a predicated write keeps the old value in the lanes it skips */
                if (!in->dead && in->predicated && in->has_dst && in->dst.kind == MIR_VREG &&
                    in->dst.vreg == v)
                    x |= in->dst.mask;
                if (!in->dead)
                    for (unsigned k = 0; k < in->nsrc; k++)
                        if (in->src[k].kind == MIR_VREG && in->src[k].vreg == v)
                            x |= mir_src_lanes(in, k);
                if (x != inl[v]) {
                    inl[v] = x;
                    tmp_in_changed = 1;
                }
            }
            if (tmp_in_changed)
                changed = true;
        }
    }
    free(succ);
    free(nsucc);
    return true;
}

/* Lanes of the destination an instruction writes that are not a plain copy of `other`. */
static uint8_t written_not_copied(const struct mir_instr *in, uint32_t other)
{
    uint8_t w = in->dst.mask;
    if (in->op == MIR_OP_MERGE) {
        for (unsigned k = 0; k < in->nsrc; k++) {
            const struct mir_src *s = &in->src[k];
            if (s->kind != MIR_VREG || s->vreg != other || s->mod != MIR_MOD_NONE)
                continue;
            bool ident = true;
            for (unsigned l = 0; l < 4; l++)
                if ((in->lanes[k] >> l) & 1 && ST_SWZ_LANE(s->swz, l) != l)
                    ident = false;
            if (ident)
                w &= (uint8_t)~in->lanes[k];
        }
    }
    return w;
}

/*
 * A merge prints as one mov per input, in order: a later input read from a
 * register an earlier mov already wrote would see the new value.  So at a
 * merge, the inputs it reads count as live while it writes.
 */
static uint8_t merge_reads(const struct mir_instr *in, uint32_t v)
{
    uint8_t r = 0;
    if (in->op != MIR_OP_MERGE)
        return 0;
    for (unsigned k = 0; k < in->nsrc; k++)
        if (in->src[k].kind == MIR_VREG && in->src[k].vreg == v)
            r |= mir_src_lanes(in, k);
    return r;
}

uint8_t mir_interference(const struct mir_prog *p, const struct mir_live *lv, uint32_t a,
                         uint32_t b)
{
    if (a == b)
        return 0;
    uint8_t clash = 0;
    for (unsigned i = 0; i < p->n; i++) {
        const struct mir_instr *in = &p->ins[i];
        if (in->dead || !in->has_dst || in->dst.kind != MIR_VREG)
            continue;
        uint32_t d = in->dst.vreg;
        if (d != a && d != b)
            continue;
        uint32_t other = d == a ? b : a;
        uint8_t w = written_not_copied(in, other);
        uint8_t live = lv->out[(size_t)i * lv->nv + other];
        if (in->op == MIR_OP_MERGE)
            live |= merge_reads(in, other) & (uint8_t)~(in->dst.mask & ~w);
        live |= mir_reads_while_writing(in, other);
        clash |= (uint8_t)(w & live);
    }
    return clash;
}
