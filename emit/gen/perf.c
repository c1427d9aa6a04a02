/*
 * gen/perf.c — the static cycle estimate of a kernel (the "cycles" of the
 * shader-db statistics line) and the per-instruction timings the
 * scheduler (gen/sched.c) orders instructions by.
 *
 * The model is the one Mesa's brw compiler prints in its own statistics
 * line (brw_ir_performance.cpp), so the two figures can be compared:
 * the EU front end issues instructions in order; an instruction waits for
 * the registers and flags it reads or writes to be ready, takes `df`
 * cycles of the front end, waits for its back-end unit (FPU, extended math,
 * sampler, URB, render cache, data cache, constant cache) and keeps that
 * unit busy for `db` cycles; its destination is ready `ld` cycles after it
 * issued (`lf` for a flag), and a message's payload may be overwritten
 * `ls` cycles after it issued.  The estimate is the front end's time at
 * the last instruction, each cycle spent inside a loop counted ten times
 * (brw's loop weight), summed in integers as brw does.
 *
 * The timings are Mesa's Gen9 parameters of that file (linear in the
 * destination size `sd` and execution size `sx` in GRFs, and in a
 * message's payload size `ss`), as Mesa 22.3 uses them:
 *   mov/add/mul/cmp/sel/logic/frc/rnd*:  df 2sd, db 2sx, ld 8,  lf 12 (FPU)
 *   mad, lrp, csel: df 2sd (+sd on a bank conflict), db 2sx, ld 8 (FPU)
 *   pln:   df 4sd, db 4sx, ld 12 (FPU)
 *   math:  df 4sd-2, db 4sx, ld 16; pow (and fdiv): db 8sx, ld 24 (EM)
 *   sampler: df 2, db 16sx, ls 8+2ss, ld 750+2ss
 *   URB write: df 2, db 6sx, ls 32, ld 200
 *   render target write: df 2, db 450sx, ls 10, ld 300
 *   data cache (untyped reads, scratch): df 2, db 20sx, ls 10, ld 100
 *   constant cache: df 2, db 16sx, ls 10, ld 100
 *   if/else/endif/while/break/cont: df 8
 * A bank conflict (brw_fs_bank_conflicts.cpp): the two last sources of a
 * three-source instruction in GRFs of the same bank, bank = bit 0 and bit
 * 6 of the register number, unless src0 shares a register with one of them
 * or they are the same register.  Checked against brw's own figures: the
 * model gives brw's cycle count exactly for every SIMD8 and SIMD16 kernel
 * of ../shared/bench/brw-asm (within 2% at SIMD32).
 */
#include <string.h>

#include "gen_ir.h"

enum { GEN_FLAG_BYTES = 8 }; /* f0.0 f0.1 f1.0 f1.1, two bytes (16 channels) each */

static unsigned type_bytes(uint8_t t)
{
    return gen_type_size((enum gen_type)t);
}

static unsigned div_up(unsigned a, unsigned b)
{
    return (a + b - 1) / b;
}

/* The back-end unit of a message by its shared function. */
static uint8_t send_unit(uint8_t sfid)
{
    switch (sfid) {
    case 2: return GU_SAMPLER;
    case 6: return GU_URB;
    case 5: return GU_DP_RC;
    case 9: return GU_DP_CC;
    default: return GU_DP_DC; /* 0xA data cache (scratch), 0xC data cache 1 (untyped) */
    }
}

void gen_timing(const struct gen_inst *i, unsigned exec, bool bank_conflict,
                struct gen_timing *t)
{
    memset(t, 0, sizeof(*t));
    const struct gen_op_info *oi = &gen_op_info[i->op];
    unsigned e = exec ? exec : 1;
    if (oi->flow) {
        t->unit = GU_NONE;
        t->df = 8;
        return;
    }
    if (i->op == GOP_LABEL) {
        t->unit = GU_NONE;
        return;
    }
    if (oi->send) {
        unsigned sx = div_up(4 * e, GEN_GRF_SIZE), ss = (unsigned)i->mlen + i->src1len;
        t->unit = send_unit(i->sfid);
        t->df = 2;
        switch (t->unit) {
        case GU_SAMPLER: t->db = (int16_t)(16 * sx); t->ls = (int16_t)(8 + 2 * ss); t->ld = (int16_t)(750 + 2 * ss); break;
        case GU_URB: t->db = (int16_t)(6 * sx); t->ls = 32; t->ld = 200; break;
        case GU_DP_RC: t->db = (int16_t)(450 * sx); t->ls = 10; t->ld = 300; break;
        case GU_DP_CC: t->db = (int16_t)(16 * sx); t->ls = 10; t->ld = 100; break;
        default: t->db = (int16_t)(20 * sx); t->ls = 10; t->ld = 100; break;
        }
        return;
    }
    /* execution type: the widest source type (immediates included) */
    unsigned tx = 2;
    for (unsigned s = 0; s < oi->nsrc; s++)
        if (i->src[s].kind != GO_NONE && i->src[s].kind != GO_NULL && type_bytes(i->src[s].type) > tx)
            tx = type_bytes(i->src[s].type);
    unsigned sd = div_up(e * type_bytes(i->dst.type), GEN_GRF_SIZE);
    unsigned sx = div_up(e * tx, GEN_GRF_SIZE);
    t->unit = GU_FPU;
    t->ld = 8;
    t->lf = 12;
    switch (i->op) {
    case GOP_MAD:
    case GOP_LRP:
    case GOP_CSEL:
        t->df = (int16_t)(2 * sd + (bank_conflict ? sd : 0));
        t->db = (int16_t)(2 * sx);
        break;
    case GOP_PLN:
        t->df = (int16_t)(4 * sd);
        t->db = (int16_t)(4 * sx);
        t->ld = 12;
        t->lf = 16;
        break;
    case GOP_MATH:
        t->unit = GU_EM;
        t->df = (int16_t)(4 * sd - 2);
        if (i->math == GM_POW || i->math == GM_FDIV) {
            t->db = (int16_t)(8 * sx);
            t->ld = 24;
        } else {
            t->db = (int16_t)(4 * sx);
            t->ld = 16;
        }
        t->lf = 0;
        break;
    default:
        t->df = (int16_t)(2 * sd);
        t->db = (int16_t)(2 * sx);
        break;
    }
}

/* ------------------------------------------------------------------ */
/* The estimate over the allocated program.                            */

/* GRFs [*lo, *hi) an operand of one (half of an) instruction covers. */
static bool opnd_grfs(const struct gen_program *p, const struct gen_inst *i, unsigned srcno,
                      const struct gen_opnd *o, unsigned e, uint32_t half, unsigned *lo, unsigned *hi)
{
    if (o->kind != GO_VREG && o->kind != GO_FIXED)
        return false;
    bool vec = gen_opnd_per_channel(p, i, o);
    uint32_t a = gen_opnd_addr(p, o) + (vec ? half * type_bytes(o->type) : 0);
    uint32_t bytes = vec ? e * type_bytes(o->type) : type_bytes(o->type);
    if (vec && i->op == GOP_PLN && srcno == 1)
        bytes *= 2; /* X and Y */
    *lo = a / GEN_GRF_SIZE;
    *hi = div_up(a + bytes, GEN_GRF_SIZE);
    if (*hi > GEN_NUM_GRFS)
        *hi = GEN_NUM_GRFS;
    return *lo < *hi;
}

static bool grf_of(const struct gen_program *p, const struct gen_opnd *o, unsigned *g)
{
    if (o->kind != GO_VREG && o->kind != GO_FIXED)
        return false;
    *g = gen_opnd_addr(p, o) / GEN_GRF_SIZE;
    return true;
}

bool gen_bank_conflict(const struct gen_program *p, const struct gen_inst *i)
{
    unsigned r0, r1, r2;
    if (gen_op_info[i->op].nsrc != 3 || !grf_of(p, &i->src[1], &r1) || !grf_of(p, &i->src[2], &r2))
        return false;
    unsigned b1 = ((r1 & 0x40) >> 5) | (r1 & 1), b2 = ((r2 & 0x40) >> 5) | (r2 & 1);
    if (b1 != b2 || r1 == r2)
        return false;
    return !(grf_of(p, &i->src[0], &r0) && (r0 == r1 || r0 == r2));
}

/* Flag bytes (8 channels each) an instruction of `e` channels from `group` touches. */
static void flag_bytes(unsigned flag, unsigned group, unsigned e, unsigned *lo, unsigned *hi)
{
    *lo = flag * 4 + group / 8;
    *hi = flag * 4 + div_up(group + e, 8);
    if (*hi > GEN_FLAG_BYTES)
        *hi = GEN_FLAG_BYTES;
}

struct perf_state {
    unsigned unit_ready[GU_COUNT]; /* GU_NONE's slot is the front end */
    uint64_t unit_busy[GU_COUNT];  /* cycles each unit worked, loop-weighted */
    uint64_t weight;
    unsigned grf_ready[GEN_NUM_GRFS];
    unsigned flag_ready[GEN_FLAG_BYTES];
};

static void stall(unsigned *fe, unsigned ready)
{
    if (ready > *fe)
        *fe = ready;
}

/* One (half of an) instruction; returns the front end's advance. */
static unsigned issue(struct perf_state *st, const struct gen_program *p, const struct gen_inst *i,
                      unsigned e, unsigned group, uint32_t half)
{
    const struct gen_op_info *oi = &gen_op_info[i->op];
    struct gen_timing t;
    gen_timing(i, e, gen_bank_conflict(p, i), &t);
    unsigned *fe = &st->unit_ready[GU_NONE];
    unsigned clock0 = *fe, lo, hi;
    /* sources (a message's payload: mlen / src1len GRFs) */
    unsigned rd_lo[3], rd_hi[3], nrd = 0;
    if (oi->send) {
        const struct gen_opnd *s0 = &i->src[0], *s1 = &i->src[1];
        if (s0->kind == GO_VREG || s0->kind == GO_FIXED) {
            rd_lo[nrd] = gen_opnd_addr(p, s0) / GEN_GRF_SIZE;
            rd_hi[nrd] = rd_lo[nrd] + (i->mlen ? i->mlen : 1);
            nrd++;
        }
        if (i->op == GOP_SENDS && (s1->kind == GO_VREG || s1->kind == GO_FIXED) && i->src1len) {
            rd_lo[nrd] = gen_opnd_addr(p, s1) / GEN_GRF_SIZE;
            rd_hi[nrd] = rd_lo[nrd] + i->src1len;
            nrd++;
        }
    } else if (!oi->flow) {
        for (unsigned s = 0; s < oi->nsrc; s++)
            if (opnd_grfs(p, i, s, &i->src[s], e, half, &rd_lo[nrd], &rd_hi[nrd]))
                nrd++;
    }
    for (unsigned k = 0; k < nrd; k++)
        for (unsigned g = rd_lo[k]; g < rd_hi[k] && g < GEN_NUM_GRFS; g++)
            stall(fe, st->grf_ready[g]);
    if (i->pred != GP_NONE) {
        flag_bytes(i->flag, group, e, &lo, &hi);
        for (unsigned b = lo; b < hi; b++)
            stall(fe, st->flag_ready[b]);
    }
    /* destination: write after write, and after a message read it */
    unsigned wr_lo = 0, wr_hi = 0;
    if (oi->send) {
        if (i->dst.kind == GO_VREG && i->rlen) {
            wr_lo = gen_opnd_addr(p, &i->dst) / GEN_GRF_SIZE;
            wr_hi = wr_lo + i->rlen;
        }
    } else if (i->op == GOP_MOVI && i->dst.kind == GO_VREG) {
        uint32_t a = gen_opnd_addr(p, &i->dst);
        wr_lo = a / GEN_GRF_SIZE;
        wr_hi = div_up(a + p->vreg[i->dst.vreg].size - i->dst.off, GEN_GRF_SIZE);
    } else if (oi->has_dst && i->dst.kind == GO_VREG) {
        uint32_t a = gen_opnd_addr(p, &i->dst) + (e > 1 ? half * type_bytes(i->dst.type) : 0);
        wr_lo = a / GEN_GRF_SIZE;
        wr_hi = div_up(a + e * type_bytes(i->dst.type), GEN_GRF_SIZE);
    }
    if (wr_hi > GEN_NUM_GRFS)
        wr_hi = GEN_NUM_GRFS;
    for (unsigned g = wr_lo; g < wr_hi; g++)
        stall(fe, st->grf_ready[g]);
    bool wflag = gen_cmod_writes_flag(i);
    if (wflag) {
        flag_bytes(i->flag, group, e, &lo, &hi);
        for (unsigned b = lo; b < hi; b++)
            stall(fe, st->flag_ready[b]);
    }
    /* issue (a pseudo-instruction issues each native instruction it prints as) */
    if (i->op == GOP_MOVI || i->op == GOP_BCAST)
        t.df = (int16_t)(t.df * (int)gen_indirect_count(p, i));
    *fe += (unsigned)t.df;
    if (t.unit != GU_NONE) {
        stall(fe, st->unit_ready[t.unit]);
        st->unit_ready[t.unit] = *fe + (unsigned)t.db;
        st->unit_busy[t.unit] += st->weight * (unsigned)t.db;
    }
    if (oi->send)
        for (unsigned k = 0; k < nrd; k++)
            for (unsigned g = rd_lo[k]; g < rd_hi[k] && g < GEN_NUM_GRFS; g++)
                st->grf_ready[g] = *fe + (unsigned)t.ls;
    for (unsigned g = wr_lo; g < wr_hi; g++)
        st->grf_ready[g] = *fe + (unsigned)t.ld;
    if (wflag) {
        flag_bytes(i->flag, group, e, &lo, &hi);
        for (unsigned b = lo; b < hi; b++)
            st->flag_ready[b] = *fe + (unsigned)t.lf;
    }
    return *fe - clock0;
}

void gen_perf(const struct gen_program *p, unsigned *cycles, unsigned *thread_time)
{
    struct perf_state st;
    memset(&st, 0, sizeof(st));
    /* the cr0 prologue (gen_print_prologue): one 1-wide ALU instruction
     * nothing waits for, df 2 */
    uint64_t elapsed = gen_cr0_bits(p) ? 2 : 0;
    /* the loop weight is 10 per level (capped: the sum must not wrap) */
    uint64_t *weight = &st.weight;
    *weight = 1;
    unsigned depth = 0;
    for (unsigned k = 0; k < p->ninst; k++) {
        const struct gen_inst *i = &p->inst[k];
        if (i->op == GOP_LABEL) {
            if (++depth <= 6)
                *weight *= 10; /* brw's DO: the body counts ten times */
            continue;
        }
        bool split = i->exec == 32 && !gen_op_info[i->op].flow && !gen_op_info[i->op].send;
        if (split) {
            elapsed += *weight * issue(&st, p, i, 16, 0, 0);
            elapsed += *weight * issue(&st, p, i, 16, 16, 16);
        } else {
            elapsed += *weight * issue(&st, p, i, i->exec, i->group, 0);
        }
        if (i->op == GOP_WHILE && depth && depth-- <= 6)
            *weight /= 10;
    }
    /* a thread occupies the EU for its latency or for the busiest unit's
     * work, whichever is longer (brw's calculate_thread_throughput) */
    uint64_t busy = elapsed;
    for (unsigned u = 0; u < GU_COUNT; u++)
        busy = st.unit_busy[u] > busy ? st.unit_busy[u] : busy;
    *cycles = elapsed > UINT32_MAX ? UINT32_MAX : (unsigned)elapsed;
    *thread_time = busy > UINT32_MAX ? UINT32_MAX : (unsigned)busy;
}

unsigned gen_perf_cycles(const struct gen_program *p)
{
    unsigned c, t;
    gen_perf(p, &c, &t);
    return c;
}
