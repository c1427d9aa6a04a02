/*
 * gen/opt.c — def/use facts of the Gen IR shared by the optimizer passes
 * and the scheduler (gen/opt.h says what they mean), and the pass driver.
 *
 * requires: a selected program (isel + kernel ABI), before allocation
 * invalidates: instruction indices (passes remove and rewrite instructions)
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

static unsigned type_bytes(uint8_t t)
{
    return gen_type_size((enum gen_type)t);
}

uint32_t gen_dst_bytes(const struct gen_program *p, const struct gen_inst *i)
{
    if (gen_op_info[i->op].send)
        return (uint32_t)i->rlen * GEN_GRF_SIZE;
    /* an indirect read (gen_ir.h) fills its whole block */
    if (i->op == GOP_MOVI && i->dst.kind == GO_VREG && i->dst.vreg < p->nvreg)
        return p->vreg[i->dst.vreg].size - i->dst.off;
    return (uint32_t)(i->exec ? i->exec : 1) * type_bytes(i->dst.type);
}

uint32_t gen_src_bytes(const struct gen_program *p, const struct gen_inst *i, unsigned s)
{
    const struct gen_opnd *o = &i->src[s];
    unsigned e = i->exec ? i->exec : 1;
    if (gen_op_info[i->op].send)
        return (uint32_t)(s == 0 ? (i->mlen ? i->mlen : 1) : i->src1len) * GEN_GRF_SIZE;
    if (i->op == GOP_MOVI && s == 1)
        return o->imm; /* every register the indirect read may reach */
    if (i->op == GOP_BCAST && o->kind == GO_VREG)
        return p->vreg[o->vreg].size - o->off; /* any channel's dword */
    bool vec = o->kind == GO_FIXED ? o->region >= GR_VEC
                                   : o->region >= GR_VEC ||
                                         (o->region == GR_AUTO && !p->vreg[o->vreg].uniform);
    unsigned ts = type_bytes(o->type);
    uint32_t bytes = vec ? e * ts : 4u;
    if (o->region == GR_PAIRS)
        bytes *= 2; /* every other pair of elements: twice the span */
    if (o->region == GR_REP8)
        bytes = 8 * ts; /* the first eight elements, twice */
    if (o->region == GR_SPLAT2)
        bytes = 2 * ts; /* two elements, eight times each */
    if (vec && i->op == GOP_PLN && s == 1)
        bytes *= 2;
    if (i->exec == 32)
        bytes = vec ? 32 * ts : 4; /* both halves */
    return bytes;
}

bool gen_reads_flag(const struct gen_inst *i, unsigned f)
{
    return i->pred != GP_NONE && i->flag == f;
}

bool gen_writes_flag(const struct gen_inst *i, unsigned f)
{
    /* sel with a conditional modifier is min/max and leaves the flag (Gen6+) */
    return gen_cmod_writes_flag(i) && i->flag == f;
}

int gen_vf_byte(uint32_t bits)
{
    uint32_t sign = bits >> 31, mag = bits & 0x7fffffffu;
    if (mag == 0)
        return (int)(sign << 7);
    int e = (int)(mag >> 23) - 127;
    /* byte 0 (and 0x80) is the zero: 0.125 (exponent field 0, mantissa 0) has no byte */
    if (e < -3 || e > 4 || (mag & 0x7ffffu) || (e == -3 && !(mag & 0x780000u)))
        return -1;
    return (int)((sign << 7) | ((uint32_t)(e + 3) << 4) | ((mag >> 19) & 15u));
}

bool gen_opnd_same(const struct gen_opnd *a, const struct gen_opnd *b)
{
    if (a->kind != b->kind || a->type != b->type || a->neg != b->neg || a->abs != b->abs)
        return false;
    switch (a->kind) {
    case GO_IMM: return a->imm == b->imm;
    case GO_VREG: return a->vreg == b->vreg && a->off == b->off && a->region == b->region;
    case GO_FIXED: return a->off == b->off && a->region == b->region;
    default: return true;
    }
}

unsigned gen_nesting(unsigned depth, const struct gen_inst *m)
{
    if (m->op == GOP_IF || m->op == GOP_LABEL)
        return depth + 1;
    if ((m->op == GOP_ENDIF || m->op == GOP_WHILE) && depth)
        return depth - 1;
    return depth;
}

bool gen_src_per_channel(const struct gen_program *p, const struct gen_opnd *s)
{
    if (s->kind == GO_FIXED)
        return s->region == GR_VEC;
    return s->kind == GO_VREG &&
           (s->region == GR_VEC || (s->region == GR_AUTO && !p->vreg[s->vreg].uniform));
}

void gen_remove_marked(struct gen_program *p, const bool *dead)
{
    unsigned w = 0;
    for (unsigned k = 0; k < p->ninst; k++)
        if (!dead[k])
            p->inst[w++] = p->inst[k];
    p->ninst = w;
}

/* ------------------------------------------------------------------ */
/* Def/use lists and the region structure.                             */

void gen_du_free(struct gen_du *du)
{
    free(du->def_start);
    free(du->def_list);
    free(du->use_start);
    free(du->use_list);
    free(du->region_end);
    free(du->loop_label);
    free(du->loop_while);
    free(du->loop_parent);
    free(du->flow_before);
    memset(du, 0, sizeof(*du));
}

bool gen_du_build(struct gen_program *p, struct gen_du *du)
{
    memset(du, 0, sizeof(*du));
    unsigned n = p->ninst, nv = p->nvreg;
    du->ninst = n;
    du->nvreg = nv;
    du->def_start = calloc(nv + 1, sizeof(*du->def_start));
    du->use_start = calloc(nv + 1, sizeof(*du->use_start));
    du->region_end = malloc((n + 1) * sizeof(*du->region_end));
    du->loop_label = malloc((n + 1) * sizeof(*du->loop_label));
    du->loop_while = malloc((n + 1) * sizeof(*du->loop_while));
    du->loop_parent = malloc((n + 1) * sizeof(*du->loop_parent));
    du->flow_before = malloc((n + 1) * sizeof(*du->flow_before));
    int32_t *stack = malloc((n + 1) * sizeof(*stack));  /* open regions: their first instruction */
    int32_t *region = malloc((n + 1) * sizeof(*region)); /* per instruction: its region's opener */
    int32_t *rend = malloc((n + 1) * sizeof(*rend));     /* per opener: the closing instruction */
    bool ok = du->def_start && du->use_start && du->region_end && du->loop_label &&
              du->loop_while && du->loop_parent && du->flow_before && stack && region && rend;
    if (!ok)
        goto fail;
    /* counts */
    unsigned nd = 0, nu = 0;
    for (unsigned k = 0; k < n; k++) {
        const struct gen_inst *i = &p->inst[k];
        if (i->dst.kind == GO_VREG && i->dst.vreg < nv) {
            du->def_start[i->dst.vreg + 1]++;
            nd++;
        }
        for (unsigned s = 0; s < 3; s++)
            if (i->src[s].kind == GO_VREG && i->src[s].vreg < nv) {
                du->use_start[i->src[s].vreg + 1]++;
                nu++;
            }
    }
    for (unsigned v = 0; v < nv; v++) {
        du->def_start[v + 1] += du->def_start[v];
        du->use_start[v + 1] += du->use_start[v];
    }
    du->def_list = malloc((nd + 1) * sizeof(*du->def_list));
    du->use_list = malloc((nu + 1) * sizeof(*du->use_list));
    uint32_t *dfill = calloc(nv + 1, sizeof(*dfill)), *ufill = calloc(nv + 1, sizeof(*ufill));
    if (!du->def_list || !du->use_list || !dfill || !ufill) {
        free(dfill);
        free(ufill);
        goto fail;
    }
    for (unsigned k = 0; k < n; k++) {
        const struct gen_inst *i = &p->inst[k];
        if (i->dst.kind == GO_VREG && i->dst.vreg < nv) {
            uint32_t v = i->dst.vreg;
            du->def_list[du->def_start[v] + dfill[v]++] = k;
        }
        for (unsigned s = 0; s < 3; s++)
            if (i->src[s].kind == GO_VREG && i->src[s].vreg < nv) {
                uint32_t v = i->src[s].vreg;
                du->use_list[du->use_start[v] + ufill[v]++] = (struct gen_use){k, (uint8_t)s};
            }
    }
    free(dfill);
    free(ufill);
    du->flow_before[0] = 0;
    for (unsigned k = 0; k < n; k++) {
        uint8_t op = p->inst[k].op;
        du->flow_before[k + 1] = du->flow_before[k] + (gen_op_info[op].flow || op == GOP_LABEL);
    }
    /* regions: then / else parts and loop bodies; -1 is the whole program */
    unsigned sp = 0;
    int32_t cur_loop = -1;
    for (unsigned k = 0; k < n; k++) {
        uint8_t op = p->inst[k].op;
        du->loop_while[k] = -1;
        du->loop_parent[k] = -1;
        region[k] = sp ? stack[sp - 1] : -1;
        du->loop_label[k] = cur_loop;
        switch (op) {
        case GOP_IF:
            stack[sp++] = (int32_t)k;
            break;
        case GOP_LABEL:
            du->loop_parent[k] = cur_loop;
            cur_loop = (int32_t)k;
            du->loop_label[k] = cur_loop;
            stack[sp++] = (int32_t)k;
            break;
        case GOP_ELSE:
            if (sp) {
                rend[stack[sp - 1]] = (int32_t)k;
                stack[sp - 1] = (int32_t)k;
                region[k] = sp > 1 ? stack[sp - 2] : -1;
            }
            break;
        case GOP_ENDIF:
        case GOP_WHILE:
            if (sp) {
                int32_t o = stack[--sp];
                rend[o] = (int32_t)k;
                region[k] = sp ? stack[sp - 1] : -1;
                if (op == GOP_WHILE && p->inst[o].op == GOP_LABEL) {
                    du->loop_while[o] = (int32_t)k;
                    du->loop_label[k] = o;
                    cur_loop = du->loop_parent[o];
                }
            }
            break;
        default:
            break;
        }
    }
    /* an unclosed region (never in a selected program) ends with the program */
    while (sp)
        rend[stack[--sp]] = (int32_t)n;
    for (unsigned k = 0; k < n; k++)
        du->region_end[k] = region[k] < 0 ? (int32_t)n : rend[region[k]];
    for (unsigned k = 0; k < n; k++)
        if (p->inst[k].op == GOP_LABEL && du->loop_while[k] < 0)
            du->loop_while[k] = (int32_t)n;
    free(stack);
    free(region);
    free(rend);
    return true;
fail:
    free(stack);
    free(region);
    free(rend);
    gen_du_free(du);
    p->oom = true;
    return false;
}

bool gen_du_same_block(const struct gen_du *du, uint32_t a, uint32_t b)
{
    if (a > b) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    return a == b || du->flow_before[b] == du->flow_before[a + 1];
}

bool gen_du_dominates(const struct gen_du *du, uint32_t d, uint32_t u)
{
    return d < u && u < du->ninst && (int32_t)u < du->region_end[d];
}

uint32_t gen_du_path_end(const struct gen_du *du, uint32_t d, uint32_t u)
{
    uint32_t end = u;
    for (int32_t L = du->loop_label[u]; L >= 0 && (uint32_t)L > d; L = du->loop_parent[L])
        end = (uint32_t)du->loop_while[L];
    return end;
}

bool gen_du_unchanged(const struct gen_program *p, const struct gen_du *du, uint32_t v,
                      uint32_t off, uint32_t size, uint32_t d, uint32_t u)
{
    uint32_t end = gen_du_path_end(du, d, u);
    /* (d, u) when u is in no loop that d is outside of, else (d, end] */
    uint32_t lim = end == u ? u : end + 1;
    for (uint32_t k = du->def_start[v]; k < du->def_start[v + 1]; k++) {
        uint32_t j = du->def_list[k];
        if (j <= d || j >= lim)
            continue;
        const struct gen_inst *i = &p->inst[j];
        uint32_t lo = i->dst.off, hi = lo + gen_dst_bytes(p, i);
        if (lo < off + size && off < hi)
            return false;
    }
    return true;
}

int32_t gen_du_single_def(const struct gen_program *p, const struct gen_du *du, uint32_t v)
{
    if (v >= du->nvreg || du->def_start[v + 1] - du->def_start[v] != 1)
        return -1;
    uint32_t k = du->def_list[du->def_start[v]];
    const struct gen_inst *i = &p->inst[k];
    const struct gen_vreg *r = &p->vreg[v];
    if (i->pred != GP_NONE || i->dst.off != 0 || gen_op_info[i->op].send || r->no_spill ||
        type_bytes(i->dst.type) != 4)
        return -1;
    if (r->uniform)
        return r->size == 4 && i->exec == 1 ? (int32_t)k : -1;
    return r->size == gen_vreg_dsize(p, r) && 4u * i->exec == r->size &&
                   i->group == gen_vreg_first_ch(r)
               ? (int32_t)k
               : -1;
}

/* ------------------------------------------------------------------ */
/* The driver.                                                         */

void gen_optimize(struct gen_program *p)
{
    /* each pass is linear in the program; a few rounds reach what one
     * pass exposes to another (a copy behind a CSE, a compare behind a copy) */
    gen_opt_webs(p);
    for (unsigned round = 0; round < 4 && !p->oom; round++) {
        bool changed = false;
        changed |= gen_opt_copy_prop(p);
        changed |= gen_opt_cse(p);
        changed |= gen_opt_fold(p);
        changed |= gen_opt_dce(p);
        if (!changed)
            break;
    }
    /* SIMD32: halves of values and messages (gen/opt_split.c), then the
     * copies the halves expose (a message response read where it arrived) */
    if (!p->oom && gen_opt_split32(p) && !p->oom) {
        gen_opt_copy_prop(p);
        if (!p->oom)
            gen_opt_dce(p);
    }
    if (!p->oom)
        gen_opt_trim_responses(p);
    if (!p->oom)
        gen_opt_payload(p);
    if (!p->oom)
        gen_opt_pack_consts(p);
}
