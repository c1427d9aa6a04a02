/*
 * test_gen_opt.c — the optimizer on the Gen IR (emit/gen/opt*.c) and the
 * cycle estimate (emit/gen/perf.c) on small hand-built programs.
 *
 * Each optimizer test states a rewrite that is valid (it must happen) and
 * its neighbours that are not (a source redefined on the way, a use in the
 * other branch, a value read again by the next loop iteration): the
 * expectations follow from the program's meaning per channel, worked out
 * by hand.  The end-to-end judges of the same passes are the differential
 * tests (test_diff_gen, test_fuzz*: every kernel against the interpreter).
 *
 * The cycle figures are worked out by hand from the model of
 * docs/gen-backend.md ("Statistics"), itself Mesa's brw_ir_performance.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "emit/gen/opt.h"

static void prog_init(struct gen_program *p, unsigned simd)
{
    memset(p, 0, sizeof(*p));
    p->simd = simd;
}

static struct gen_inst *op(struct gen_program *p, enum gen_op o)
{
    struct gen_inst *i = gen_append(p);
    i->op = (uint8_t)o;
    i->exec = (uint8_t)p->simd;
    i->jip = i->uip = -1;
    return i;
}

static uint32_t val(struct gen_program *p)
{
    return gen_new_vreg(p, gen_dsize(p), false);
}

static uint32_t block(struct gen_program *p, unsigned grfs)
{
    uint32_t b = gen_new_vreg(p, grfs * GEN_GRF_SIZE, false);
    p->vreg[b].no_spill = true;
    return b;
}

static struct gen_opnd V(uint32_t v)
{
    return gen_vr(v, 0, GT_F);
}

static struct gen_opnd F(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return gen_imm(u, GT_F);
}

static struct gen_inst *alu(struct gen_program *p, enum gen_op o, uint32_t d, struct gen_opnd a,
                            struct gen_opnd b)
{
    struct gen_inst *i = op(p, o);
    i->dst = V(d);
    i->src[0] = a;
    i->src[1] = b;
    return i;
}

static struct gen_inst *mov(struct gen_program *p, uint32_t d, struct gen_opnd a)
{
    struct gen_inst *i = op(p, GOP_MOV);
    i->dst = V(d);
    i->src[0] = a;
    return i;
}

static void flow(struct gen_program *p, enum gen_op o, bool pred)
{
    struct gen_inst *i = op(p, o);
    if (pred)
        i->pred = GP_NORMAL;
}

/* A render target write of block b (4 colour GRFs at SIMD8): the kernel's end. */
static void rt_write(struct gen_program *p, uint32_t b)
{
    struct gen_inst *i = op(p, GOP_SENDC);
    i->dst = gen_null(GT_UW);
    i->src[0] = gen_vr(b, 0, GT_F);
    i->sfid = 5;
    i->mlen = (uint8_t)(4 * p->simd / 8);
    i->eot = true;
}

/* A URB write that does not end the thread: header r1, then `grfs` GRFs
 * of data from `data` (a split send), at VUE slot `slot`. */
static struct gen_inst *urb_sends(struct gen_program *p, struct gen_opnd data, unsigned grfs,
                                  unsigned slot)
{
    struct gen_inst *w = op(p, GOP_SENDS);
    w->dst = gen_null(GT_UD);
    w->src[0] = gen_fixed(GEN_GRF_SIZE, GT_UD, GR_VEC);
    w->src[1] = data;
    w->sfid = 6;
    w->mlen = 1;
    w->src1len = (uint8_t)grfs;
    w->exdesc = 6u | (grfs << 6);
    w->desc = gen_desc(1, 0, true, 7u | (slot << 4));
    return w;
}

/* The four colour parts of an EOT block from values r, g, b, a. */
static uint32_t colour(struct gen_program *p, const uint32_t c[4])
{
    uint32_t b = block(p, 4 * p->simd / 8);
    p->vreg[b].grf_lo = GEN_EOT_FIRST_GRF;
    for (unsigned k = 0; k < 4; k++) {
        struct gen_inst *i = op(p, GOP_MOV);
        i->dst = gen_vr(b, k * gen_dsize(p), GT_F);
        i->src[0] = V(c[k]);
    }
    return b;
}

static unsigned count_op(const struct gen_program *p, enum gen_op o)
{
    unsigned n = 0;
    for (unsigned k = 0; k < p->ninst; k++)
        n += p->inst[k].op == o;
    return n;
}

static const struct gen_inst *find_op(const struct gen_program *p, enum gen_op o, unsigned nth)
{
    for (unsigned k = 0; k < p->ninst; k++)
        if (p->inst[k].op == o && nth-- == 0)
            return &p->inst[k];
    return NULL;
}

/* ------------------------------------------------------------------ */
/* The cycle estimate.                                                 */

static void place(struct gen_program *p, uint32_t v, unsigned grf)
{
    p->vreg[v].loc = (int32_t)(grf * GEN_GRF_SIZE);
}

static void test_perf_sampler_latency(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    p.layout.stage = ST_PS; /* no cr0 instruction: 3DSTATE_PS keeps denormals */
    uint32_t pl = block(&p, 2), resp = block(&p, 4), x = val(&p), out = block(&p, 4);
    place(&p, pl, 10);
    place(&p, resp, 20);
    place(&p, x, 30);
    place(&p, out, 112);
    struct gen_inst *s = op(&p, GOP_SEND);
    s->dst = gen_vr(resp, 0, GT_F);
    s->src[0] = gen_vr(pl, 0, GT_F);
    s->sfid = 2;
    s->mlen = 2;
    s->rlen = 4;
    alu(&p, GOP_ADD, x, gen_vr(resp, 0, GT_F), F(1.0f));
    struct gen_inst *m = op(&p, GOP_MOV);
    m->dst = gen_vr(out, 0, GT_F);
    m->src[0] = V(x);
    rt_write(&p, out);
    /* send: issues at 0, front end at 2, response ready 2 + 750 + 2*2 = 756;
     * add waits for r20: 756 + 2 = 758, r30 ready at 766; mov waits: 768;
     * r112 ready at 776; the render target write waits: 776 + 2 = 778 */
    assert_int_equal(gen_perf_cycles(&p), 778);
    gen_program_free(&p);
}

static void test_perf_loop_weight_and_bank_conflict(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    p.layout.stage = ST_VS; /* the kernel sets cr0 bit 7 itself */
    uint32_t a = val(&p), b = val(&p), c = val(&p), d = val(&p);
    place(&p, a, 10);
    place(&p, b, 12); /* same bank as r10: even, below r64 */
    place(&p, c, 14);
    place(&p, d, 15);
    flow(&p, GOP_LABEL, false);
    struct gen_inst *m = op(&p, GOP_MAD);
    m->dst = V(d);
    m->src[0] = V(c);
    m->src[1] = V(a);
    m->src[2] = V(b);
    flow(&p, GOP_WHILE, true);
    /* the cr0 prologue: 2, once; mad: df 2 + 1 (conflict) = 3, counted ten
     * times; while: 8 more (it reads f0.0, never written), also ten times:
     * 112 */
    assert_int_equal(gen_perf_cycles(&p), 112);
    /* src0 sharing src1's register: the hardware reads it once, no conflict */
    p.inst[1].src[0] = V(a);
    assert_int_equal(gen_perf_cycles(&p), 102);
    gen_program_free(&p);
}

/* ------------------------------------------------------------------ */
/* Webs.                                                               */

static void test_webs_split_straight_line(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t t = val(&p), u = val(&p), w = val(&p), c[4];
    mov(&p, t, F(1.0f));        /* t: first web */
    alu(&p, GOP_ADD, u, V(t), F(2.0f));
    mov(&p, t, F(3.0f));        /* t: second web, nothing reads the first any more */
    alu(&p, GOP_ADD, w, V(t), F(4.0f));
    c[0] = u, c[1] = w, c[2] = u, c[3] = w;
    rt_write(&p, colour(&p, c));
    assert_true(gen_opt_webs(&p));
    assert_int_not_equal(p.inst[0].dst.vreg, p.inst[2].dst.vreg);
    assert_int_equal(p.inst[1].src[0].vreg, p.inst[0].dst.vreg);
    assert_int_equal(p.inst[3].src[0].vreg, p.inst[2].dst.vreg);
    gen_program_free(&p);
}

static void test_webs_join_at_endif_and_loop(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t t = val(&p), u = val(&p), c[4];
    /* if: t = 1 else t = 2 endif; u = t + t: both definitions reach u */
    flow(&p, GOP_IF, true);
    mov(&p, t, F(1.0f));
    flow(&p, GOP_ELSE, false);
    mov(&p, t, F(2.0f));
    flow(&p, GOP_ENDIF, false);
    alu(&p, GOP_ADD, u, V(t), V(t));
    /* loop: s read at the top is last iteration's value */
    uint32_t s = val(&p);
    mov(&p, s, F(0.0f));
    flow(&p, GOP_LABEL, false);
    alu(&p, GOP_ADD, u, V(s), V(u));
    mov(&p, s, V(u));
    flow(&p, GOP_WHILE, true);
    c[0] = c[1] = c[2] = c[3] = u;
    rt_write(&p, colour(&p, c));
    gen_opt_webs(&p);
    assert_int_equal(p.inst[1].dst.vreg, p.inst[3].dst.vreg);
    assert_int_equal(p.inst[5].src[0].vreg, p.inst[1].dst.vreg);
    assert_int_equal(p.inst[6].dst.vreg, p.inst[9].dst.vreg); /* s before and in the loop */
    assert_int_equal(p.inst[8].src[0].vreg, p.inst[6].dst.vreg);
    gen_program_free(&p);
}

/* ------------------------------------------------------------------ */
/* Copy propagation.                                                   */

static void test_copy_prop_dominated_use(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t a = val(&p), d = val(&p), e = val(&p), c[4];
    alu(&p, GOP_ADD, a, gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC), F(1.0f));
    mov(&p, d, V(a))->src[0].neg = true; /* d = -a */
    alu(&p, GOP_MUL, e, V(d), V(d));
    c[0] = c[1] = c[2] = c[3] = e;
    rt_write(&p, colour(&p, c));
    assert_true(gen_opt_copy_prop(&p));
    const struct gen_inst *m = find_op(&p, GOP_MUL, 0);
    assert_int_equal(m->src[0].vreg, a);
    assert_true(m->src[0].neg);
    assert_int_equal(m->src[1].vreg, a);
    gen_opt_dce(&p);
    assert_int_equal(count_op(&p, GOP_MOV), 4); /* the copy went; the four payload movs stay */
    gen_program_free(&p);
}

static void test_copy_prop_blocked(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t s = val(&p), d = val(&p), e = val(&p), f = val(&p), c[4];
    mov(&p, s, F(1.0f));
    mov(&p, s, F(5.0f)); /* s has two definitions: not a single value */
    mov(&p, d, V(s));
    flow(&p, GOP_IF, true);
    alu(&p, GOP_ADD, s, V(s), F(1.0f)); /* s changes on the way to the use below */
    flow(&p, GOP_ENDIF, false);
    alu(&p, GOP_ADD, e, V(d), F(2.0f));
    /* a copy in a then-part does not reach the else-part */
    uint32_t h = val(&p);
    flow(&p, GOP_IF, true);
    mov(&p, f, V(e));
    flow(&p, GOP_ELSE, false);
    alu(&p, GOP_ADD, h, V(f), F(3.0f));
    flow(&p, GOP_ENDIF, false);
    c[0] = c[1] = f;
    c[2] = c[3] = h;
    rt_write(&p, colour(&p, c));
    gen_opt_copy_prop(&p);
    assert_int_equal(p.inst[6].src[0].vreg, d);
    assert_int_equal(p.inst[10].src[0].vreg, f);
    gen_program_free(&p);
}

static void test_copy_prop_immediates(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t k = val(&p), x = val(&p), y = val(&p), z = val(&p), c[4];
    mov(&p, k, F(2.0f));
    alu(&p, GOP_MUL, x, V(k), gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC)); /* swapped: imm last */
    struct gen_inst *m = op(&p, GOP_MATH);                              /* math: registers only */
    m->math = GM_INV;
    m->dst = V(y);
    m->src[0] = V(k);
    alu(&p, GOP_ADD, z, V(x), V(y));
    c[0] = c[1] = c[2] = c[3] = z;
    rt_write(&p, colour(&p, c));
    assert_true(gen_opt_copy_prop(&p));
    assert_int_equal(p.inst[1].src[1].kind, GO_IMM);
    assert_int_equal(p.inst[1].src[0].kind, GO_FIXED);
    assert_int_equal(p.inst[2].src[0].kind, GO_VREG);
    gen_program_free(&p);
}

/* ------------------------------------------------------------------ */
/* CSE and dead code.                                                  */

/* A URB write (not the end) of a 4-GRF block at SIMD8: the block's message. */
static void urb_write(struct gen_program *p, uint32_t b)
{
    struct gen_inst *i = op(p, GOP_SEND);
    i->dst = gen_null(GT_UD);
    i->src[0] = gen_vr(b, 0, GT_UD);
    i->sfid = 6;
    i->mlen = 4;
}

static struct gen_inst *log_abs(struct gen_program *p, struct gen_opnd d, struct gen_opnd x)
{
    struct gen_inst *m = op(p, GOP_MATH);
    m->math = GM_LOG;
    m->dst = d;
    m->src[0] = x;
    m->src[0].abs = true;
    return m;
}

/*
 * A value computed twice, first into a payload part (selection writes an
 * output's value in its URB slot: `log oT3, w` then `logp r, w`): the
 * second is not computed again.  When the block has other readers than
 * its messages (the slot copied into the other components), the second's
 * readers read the part in place.  When only messages read the block, the
 * first computes into a value of its own and the second becomes the copy
 * into the part (payload coalescing may put it back), so the second's
 * readers read that value.  Not when the block is written between the
 * two: the second stays.
 */
static void test_cse_payload_part(void **state)
{
    (void)state;
    struct gen_program p;
    struct gen_opnd in = gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC);
    for (unsigned form = 0; form < 3; form++) {
        prog_init(&p, 8);
        uint32_t blk = block(&p, 4), t = val(&p), u = val(&p), c[4];
        log_abs(&p, gen_vr(blk, 32, GT_F), in);
        if (form == 0) { /* the slot's value copied into another component */
            struct gen_inst *m = mov(&p, blk, gen_vr(blk, 32, GT_F));
            m->dst.off = 64;
        }
        if (form == 2) /* the block written between the two */
            mov(&p, blk, F(0.0f));
        log_abs(&p, V(t), in);
        alu(&p, GOP_ADD, u, V(t), F(1.0f));
        urb_write(&p, blk);
        c[0] = c[1] = c[2] = c[3] = u;
        rt_write(&p, colour(&p, c));
        gen_opt_cse(&p);
        gen_opt_dce(&p);
        const struct gen_inst *add = find_op(&p, GOP_ADD, 0);
        if (form == 0) {
            assert_int_equal(count_op(&p, GOP_MATH), 1);
            assert_int_equal(add->src[0].vreg, blk); /* the part, in place */
            assert_int_equal(add->src[0].off, 32);
        } else if (form == 1) {
            assert_int_equal(count_op(&p, GOP_MATH), 1);
            const struct gen_inst *lg = find_op(&p, GOP_MATH, 0);
            assert_int_not_equal(lg->dst.vreg, blk);
            assert_int_equal(add->src[0].vreg, lg->dst.vreg);
            /* the copy into the part, before the message */
            const struct gen_inst *cp = find_op(&p, GOP_MOV, 0);
            assert_int_equal(cp->dst.vreg, blk);
            assert_int_equal(cp->dst.off, 32);
            assert_int_equal(cp->src[0].vreg, lg->dst.vreg);
        } else {
            assert_int_equal(count_op(&p, GOP_MATH), 2);
            assert_int_equal(add->src[0].vreg, t);
        }
        gen_program_free(&p);
    }
}

/*
 * A compare with zero folded into the instruction computing its operand
 * (Mesa's cmod propagation): `mad x; ...; cmp.gt f0 null x, 0.0` is
 * `mad.gt f0 x` when nothing between touches f0, and the compare goes
 * (gen/opt_fold.c, after the csel folds); the predicated sel reading f0
 * stays.  Not folded: a producer with
 * (sat) (Gen sets the flag from the result before the clamp, the compare
 * reads it after: cmp.eq of a clamped -5 is true, of -5 false), a flag
 * written between, a compare with another constant, a compare of -x.
 */
static void test_fold_cmod(void **state)
{
    (void)state;
    struct gen_program p;
    struct gen_opnd in = gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC);
    for (unsigned form = 0; form < 5; form++) {
        prog_init(&p, 8);
        uint32_t x = val(&p), y = val(&p), d = val(&p), c[4];
        struct gen_inst *m = op(&p, GOP_MAD);
        m->dst = V(x);
        m->src[0] = in;
        m->src[1] = in;
        m->src[2] = in;
        m->sat = form == 1;
        alu(&p, GOP_MUL, y, in, F(3.0f)); /* between: no flag */
        if (form == 2) { /* between: another compare writes f0 */
            struct gen_inst *o = alu(&p, GOP_CMP, 0, V(y), F(1.0f));
            o->dst = gen_null(GT_F);
            o->cmod = GC_LT;
        }
        struct gen_inst *i = alu(&p, GOP_CMP, 0, V(x), F(form == 3 ? 1.0f : 0.0f));
        i->dst = gen_null(GT_F);
        i->cmod = GC_GT;
        i->src[0].neg = form == 4;
        /* an immediate: csel (which would take the compare first) needs a
         * register for it, and one compare does not pay for one */
        alu(&p, GOP_SEL, d, V(y), F(2.0f))->pred = GP_NORMAL;
        c[0] = c[1] = c[2] = c[3] = d;
        rt_write(&p, colour(&p, c));
        gen_opt_fold(&p);
        gen_opt_dce(&p);
        const struct gen_inst *mad = find_op(&p, GOP_MAD, 0);
        if (form == 0) {
            assert_int_equal(mad->cmod, GC_GT);
            assert_int_equal(mad->flag, 0);
            assert_int_equal(count_op(&p, GOP_CMP), 0);
            assert_int_equal(find_op(&p, GOP_SEL, 0)->pred, GP_NORMAL);
        } else {
            assert_int_equal(mad->cmod, GC_NONE);
            assert_int_equal(count_op(&p, GOP_CMP), 1); /* form 2: the one between is dead */
        }
        gen_program_free(&p);
    }
}

static void test_cse(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    struct gen_opnd in = gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC);
    uint32_t a = val(&p), b = val(&p), s = val(&p), x = val(&p), y = val(&p), z1 = val(&p),
             z2 = val(&p), c[4];
    alu(&p, GOP_ADD, a, in, F(1.0f))->sat = true;
    alu(&p, GOP_ADD, b, F(1.0f), in)->sat = true; /* the same sum: a */
    mov(&p, s, F(1.0f));
    alu(&p, GOP_MUL, x, V(s), V(a));
    mov(&p, s, F(2.0f)); /* s changes: the next product is another value */
    alu(&p, GOP_MUL, y, V(s), V(a));
    flow(&p, GOP_IF, true);
    alu(&p, GOP_ADD, z1, V(x), V(y));
    flow(&p, GOP_ELSE, false);
    alu(&p, GOP_ADD, z2, V(x), V(y)); /* not dominated by the then-part's */
    flow(&p, GOP_ENDIF, false);
    c[0] = z1, c[1] = z2, c[2] = b, c[3] = y;
    rt_write(&p, colour(&p, c));
    assert_true(gen_opt_cse(&p));
    assert_int_equal(count_op(&p, GOP_ADD), 3); /* b went */
    assert_int_equal(count_op(&p, GOP_MUL), 2);
    const struct gen_inst *m = find_op(&p, GOP_MOV, 4);
    assert_int_equal(m->src[0].vreg, a); /* the payload reads a for b */
    gen_program_free(&p);
}

static void test_flag_retest_and_dead_flags(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    struct gen_opnd in = gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC);
    uint32_t bl = val(&p), r = val(&p), g = val(&p), c[4];
    struct gen_inst *i = alu(&p, GOP_CMP, bl, in, F(0.5f));
    i->cmod = GC_GT;
    i->dst.type = GT_D;
    i = op(&p, GOP_CMP); /* the boolean tested again: the flag already holds it */
    i->cmod = GC_NE;
    i->dst = gen_null(GT_D);
    i->src[0] = gen_vr(bl, 0, GT_D);
    i->src[1] = gen_imm(0, GT_D);
    alu(&p, GOP_SEL, r, in, F(0.0f))->pred = GP_NORMAL;
    i = op(&p, GOP_CMP); /* written over before anyone reads it */
    i->cmod = GC_LT;
    i->dst = gen_null(GT_F);
    i->src[0] = in;
    i->src[1] = F(2.0f);
    i = op(&p, GOP_CMP);
    i->cmod = GC_GE;
    i->dst = gen_null(GT_F);
    i->src[0] = in;
    i->src[1] = F(3.0f);
    alu(&p, GOP_SEL, g, in, F(1.0f))->pred = GP_INVERT;
    c[0] = r, c[1] = g, c[2] = r, c[3] = g;
    rt_write(&p, colour(&p, c));
    assert_true(gen_opt_cse(&p));
    assert_int_equal(count_op(&p, GOP_CMP), 3);
    assert_true(gen_opt_dce(&p));
    assert_int_equal(count_op(&p, GOP_CMP), 2);
    const struct gen_inst *c0 = find_op(&p, GOP_CMP, 0), *c1 = find_op(&p, GOP_CMP, 1);
    assert_int_equal(c0->cmod, GC_GT);
    assert_int_equal(c0->dst.kind, GO_NULL); /* its boolean is read by nobody now */
    assert_int_equal(c1->cmod, GC_GE);
    gen_program_free(&p);
}

/* ------------------------------------------------------------------ */
/* Saturation.                                                         */

/* mov.sat d, x: the selector's saturate (Gen's (sat) is _sat: -0 kept) */
static struct gen_inst *sat_of(struct gen_program *p, uint32_t d, struct gen_opnd x)
{
    struct gen_inst *i = mov(p, d, x);
    i->sat = true;
    return i;
}

static void test_fold_saturate(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    struct gen_opnd in = gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC);
    uint32_t x = val(&p), a = val(&p), m = val(&p), b = val(&p), s1 = val(&p), s2 = val(&p),
             y = val(&p), ny = val(&p), w = val(&p), w1 = val(&p), w2 = val(&p), h = val(&p),
             hs = val(&p), c[4];
    alu(&p, GOP_ADD, x, in, F(0.5f));    /* 0 */
    sat_of(&p, a, V(x));                 /* 1: -> add.sat x, in, 0.5 */
    alu(&p, GOP_MUL, m, in, in);         /* 2: a product may round to -0: */
    sat_of(&p, b, V(m));                 /* 3: (sat) keeps it as _sat does: folds too */
    sat_of(&p, s1, V(b));                /* 4: b is m saturated: a copy */
    sat_of(&p, s2, V(s1));               /* 5: so is s1: a copy */
    alu(&p, GOP_MUL, y, in, F(3.0f));    /* 6 */
    struct gen_opnd negy = V(y);
    negy.neg = true;
    sat_of(&p, ny, negy);                /* 7: sat(-y) is not y's (sat): stays */
    alu(&p, GOP_MUL, w, in, F(2.0f));    /* 8: read twice */
    sat_of(&p, w1, V(w));                /* 9: stays */
    alu(&p, GOP_ADD, w2, V(w), F(1.0f)); /* 10 */
    struct gen_inst *hi = alu(&p, GOP_MUL, h, in, F(0.25f)); /* 11: a half product */
    hi->dst.type = GT_HF;
    hi->src[0].type = GT_HF;
    hi->src[1] = gen_imm(0x3400u, GT_HF); /* 0.25 */
    struct gen_opnd hv = V(h);
    hv.type = GT_HF;
    struct gen_inst *hm = sat_of(&p, hs, hv); /* 12: the clamp of a rounded half: stays */
    hm->dst.type = GT_HF;
    c[0] = s2, c[1] = ny, c[2] = w1, c[3] = w2; /* (a, hs: unread results) */
    rt_write(&p, colour(&p, c));
    assert_true(gen_opt_fold(&p));
    assert_true(p.inst[0].sat);
    assert_int_equal(p.inst[1].op, GOP_MOV);
    assert_false(p.inst[1].sat);
    assert_true(p.inst[2].sat);
    assert_false(p.inst[3].sat);
    assert_int_equal(p.inst[3].src[0].vreg, m);
    assert_int_equal(p.inst[4].op, GOP_MOV);
    assert_false(p.inst[4].sat);
    assert_int_equal(p.inst[4].src[0].vreg, b);
    assert_false(p.inst[5].sat);
    assert_false(p.inst[6].sat);
    assert_true(p.inst[7].sat);
    assert_false(p.inst[8].sat);
    assert_true(p.inst[9].sat);
    assert_false(p.inst[11].sat);
    assert_true(p.inst[12].sat);
    gen_program_free(&p);
}

static void test_fold_constants(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t u = gen_new_vreg(&p, 4, true), k = gen_new_vreg(&p, 4, true),
             i0 = gen_new_vreg(&p, 4, true), i1 = gen_new_vreg(&p, 4, true), c[4];
    struct gen_inst *m = op(&p, GOP_MOV);
    m->exec = 1;
    m->nomask = true;
    m->dst = V(u);
    m->src[0] = F(0.1f);
    struct gen_inst *a = alu(&p, GOP_MUL, k, V(u), F(3.0f)); /* 0.1f * 3, rounded once */
    a->exec = 1;
    a->nomask = true;
    a->src[0].neg = true;
    struct gen_inst *b = alu(&p, GOP_SHL, i0, gen_imm(0xffffffffu, GT_D), gen_imm(33, GT_D));
    b->exec = 1;
    b->dst.type = GT_D;
    struct gen_inst *d = alu(&p, GOP_ADD, i1, gen_vr(i0, 0, GT_D), gen_imm(0x7fffffffu, GT_D));
    d->exec = 1;
    d->dst.type = GT_D;
    uint32_t x = val(&p);
    mov(&p, x, V(k));
    c[0] = c[1] = c[2] = c[3] = x;
    rt_write(&p, colour(&p, c));
    assert_true(gen_opt_fold(&p));
    float want = -0.1f * 3.0f, got;
    memcpy(&got, &p.inst[1].src[0].imm, 4);
    assert_int_equal(p.inst[1].op, GOP_MOV);
    assert_true(memcmp(&want, &got, 4) == 0);
    assert_int_equal(p.inst[2].op, GOP_MOV);
    assert_int_equal(p.inst[2].src[0].imm, 0xfffffffeu); /* the count wraps at 32 */
    assert_int_equal(p.inst[3].op, GOP_MOV);
    assert_int_equal(p.inst[3].src[0].imm, 0x7ffffffdu); /* 32-bit wrap-around */
    gen_program_free(&p);
}

static void test_fold_csel(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 16);
    struct gen_opnd in = gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC);
    uint32_t x = val(&p), y = val(&p), z = val(&p), a = val(&p), b = val(&p), d = val(&p), c[4];
    alu(&p, GOP_ADD, x, in, F(-1.0f));
    alu(&p, GOP_MUL, y, in, F(2.0f));
    alu(&p, GOP_MUL, z, in, F(3.0f));
    struct gen_inst *i = alu(&p, GOP_CMP, 0, V(x), F(0.0f));
    i->dst = gen_null(GT_F);
    i->cmod = GC_GE;
    alu(&p, GOP_SEL, a, V(y), V(z))->pred = GP_NORMAL;
    alu(&p, GOP_SEL, b, V(y), V(z))->pred = GP_INVERT;
    /* a select with an immediate: no three-source form, its compare stays */
    i = alu(&p, GOP_CMP, 0, V(y), F(0.0f));
    i->dst = gen_null(GT_F);
    i->cmod = GC_LT;
    alu(&p, GOP_SEL, d, V(z), F(1.0f))->pred = GP_NORMAL;
    c[0] = a, c[1] = b, c[2] = d, c[3] = a;
    rt_write(&p, colour(&p, c));
    assert_true(gen_opt_fold(&p));
    gen_opt_dce(&p);
    assert_int_equal(count_op(&p, GOP_CMP), 1);
    assert_int_equal(count_op(&p, GOP_CSEL), 2);
    const struct gen_inst *s0 = find_op(&p, GOP_CSEL, 0), *s1 = find_op(&p, GOP_CSEL, 1);
    assert_int_equal(s0->cmod, GC_GE);
    assert_int_equal(s0->src[2].vreg, x);
    assert_int_equal(s0->src[0].vreg, y);
    assert_int_equal(s1->src[0].vreg, z); /* ~f0: (x >= 0) ? z : y */
    assert_int_equal(s1->pred, GP_NONE);
    assert_int_equal(find_op(&p, GOP_CMP, 0)->cmod, GC_LT);
    assert_int_equal(find_op(&p, GOP_SEL, 0)->pred, GP_NORMAL);
    gen_program_free(&p);
}

/*
 * csel with a constant in a register: two compares with zero (ARB LIT's
 * `x < 0 ? 0 : x`, keeping NaN, and `x > 0 ? y : 0`) whose sels choose
 * the immediate 0.0 fold when one `(W) mov (1) k, 0.0`, placed first, can
 * serve both (2 compares for 1 mov); the csels read k where the sels read
 * 0.0.  A single such compare is not worth a register of its own
 * (test_fold_csel), but takes one that already holds the value for free.
 */
static void test_fold_csel_constant_register(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    struct gen_opnd in = gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC);
    uint32_t x = val(&p), y = val(&p), a = val(&p), b = val(&p), c[4];
    alu(&p, GOP_ADD, x, in, F(-1.0f));
    alu(&p, GOP_MUL, y, in, F(2.0f));
    struct gen_inst *i = alu(&p, GOP_CMP, 0, V(x), F(0.0f));
    i->dst = gen_null(GT_F);
    i->cmod = GC_LT;
    alu(&p, GOP_SEL, a, V(x), F(0.0f))->pred = GP_INVERT; /* x < 0 ? 0 : x */
    i = alu(&p, GOP_CMP, 0, V(x), F(0.0f));
    i->dst = gen_null(GT_F);
    i->cmod = GC_GT;
    alu(&p, GOP_SEL, b, V(y), F(0.0f))->pred = GP_NORMAL; /* x > 0 ? y : 0 */
    c[0] = a, c[1] = b, c[2] = a, c[3] = b;
    rt_write(&p, colour(&p, c));
    unsigned before = p.ninst;
    assert_true(gen_opt_fold(&p));
    gen_opt_dce(&p);
    assert_int_equal(count_op(&p, GOP_CMP), 0);
    assert_int_equal(count_op(&p, GOP_CSEL), 2);
    assert_int_equal(count_op(&p, GOP_SEL), 0);
    assert_int_equal(p.ninst, before + 1 - 2);
    const struct gen_inst *k = &p.inst[0];
    assert_int_equal(k->op, GOP_MOV);
    assert_true(k->nomask);
    assert_int_equal(k->exec, 1);
    assert_true(p.vreg[k->dst.vreg].uniform);
    assert_int_equal(k->src[0].kind, GO_IMM);
    assert_int_equal(k->src[0].imm, 0u);
    const struct gen_inst *s0 = find_op(&p, GOP_CSEL, 0), *s1 = find_op(&p, GOP_CSEL, 1);
    /* (x < 0) ? k : x, and (x > 0) ? y : k */
    assert_int_equal(s0->cmod, GC_LT);
    assert_int_equal(s0->src[0].vreg, k->dst.vreg);
    assert_int_equal(s0->src[1].vreg, x);
    assert_int_equal(s0->src[2].vreg, x);
    assert_int_equal(s1->cmod, GC_GT);
    assert_int_equal(s1->src[0].vreg, y);
    assert_int_equal(s1->src[1].vreg, k->dst.vreg);
    gen_program_free(&p);

    /* one compare, and a constant register already holding 0.0 first */
    prog_init(&p, 8);
    uint32_t kz = gen_new_vreg(&p, 4, true);
    x = val(&p), a = val(&p);
    i = mov(&p, kz, F(0.0f));
    i->exec = 1;
    i->nomask = true;
    alu(&p, GOP_ADD, x, in, F(-1.0f));
    i = alu(&p, GOP_CMP, 0, V(x), F(0.0f));
    i->dst = gen_null(GT_F);
    i->cmod = GC_LT;
    alu(&p, GOP_SEL, a, V(x), F(0.0f))->pred = GP_INVERT;
    c[0] = c[1] = c[2] = c[3] = a;
    rt_write(&p, colour(&p, c));
    before = p.ninst;
    assert_true(gen_opt_fold(&p));
    gen_opt_dce(&p);
    assert_int_equal(p.ninst, before - 1);
    assert_int_equal(count_op(&p, GOP_CMP), 0);
    assert_int_equal(find_op(&p, GOP_CSEL, 0)->src[0].vreg, kz);
    gen_program_free(&p);
}

/*
 * Clamps: cmp.ge x, 0.5 choosing x or 0.5 is sel.ge x, 0.5 (max(x, 0.5),
 * NaN -> 0.5 both ways), also through an inverted predicate with the
 * operands swapped; cmp.lt y, 2 choosing y or 2 is sel.l.  Not folded:
 * a compare whose sel chooses another value than its operand (z for y),
 * a NaN constant (the compare gives K, sel.ge would give x), and cmp.gt
 * (not a min/max).
 */
static void test_fold_clamp_to_sel_cmod(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    struct gen_opnd in = gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC);
    uint32_t x = val(&p), y = val(&p), z = val(&p), a = val(&p), b = val(&p), d = val(&p);
    uint32_t e = val(&p), g = val(&p), h = val(&p), c[4];
    alu(&p, GOP_ADD, x, in, F(-1.0f));
    alu(&p, GOP_MUL, y, in, F(2.0f));
    alu(&p, GOP_MUL, z, in, F(3.0f));
    struct gen_inst *i = alu(&p, GOP_CMP, 0, V(x), F(0.5f));
    i->dst = gen_null(GT_F);
    i->cmod = GC_GE;
    alu(&p, GOP_SEL, a, V(x), F(0.5f))->pred = GP_NORMAL;
    alu(&p, GOP_SEL, b, F(0.5f), V(x))->pred = GP_INVERT;
    i = alu(&p, GOP_CMP, 0, V(y), F(2.0f));
    i->dst = gen_null(GT_F);
    i->cmod = GC_LT;
    alu(&p, GOP_SEL, d, V(y), F(2.0f))->pred = GP_NORMAL;
    /* kept: the sel chooses z, not the compared y */
    i = alu(&p, GOP_CMP, 0, V(y), F(1.0f));
    i->dst = gen_null(GT_F);
    i->cmod = GC_GE;
    alu(&p, GOP_SEL, e, V(z), F(1.0f))->pred = GP_NORMAL;
    /* kept: a NaN constant */
    i = alu(&p, GOP_CMP, 0, V(z), gen_imm(0x7fc00000u, GT_F));
    i->dst = gen_null(GT_F);
    i->cmod = GC_GE;
    alu(&p, GOP_SEL, g, V(z), gen_imm(0x7fc00000u, GT_F))->pred = GP_NORMAL;
    /* kept: > is no min/max */
    i = alu(&p, GOP_CMP, 0, V(z), F(1.0f));
    i->dst = gen_null(GT_F);
    i->cmod = GC_GT;
    alu(&p, GOP_SEL, h, V(z), F(1.0f))->pred = GP_NORMAL;
    alu(&p, GOP_ADD, a, V(a), V(e));
    alu(&p, GOP_ADD, b, V(b), V(g));
    alu(&p, GOP_ADD, d, V(d), V(h));
    c[0] = a, c[1] = b, c[2] = d, c[3] = a;
    rt_write(&p, colour(&p, c));
    assert_true(gen_opt_fold(&p));
    gen_opt_dce(&p);
    assert_int_equal(count_op(&p, GOP_CMP), 3);
    const struct gen_inst *s[6];
    for (unsigned k = 0; k < 6; k++)
        s[k] = find_op(&p, GOP_SEL, k);
    assert_int_equal(s[0]->cmod, GC_GE);
    assert_int_equal(s[0]->pred, GP_NONE);
    assert_int_equal(s[0]->src[0].vreg, x);
    assert_int_equal(s[1]->cmod, GC_GE); /* (~f0) sel 0.5, x: the same max */
    assert_int_equal(s[1]->pred, GP_NONE);
    assert_int_equal(s[1]->src[0].vreg, x);
    assert_int_equal(s[1]->src[1].kind, GO_IMM);
    assert_int_equal(s[2]->cmod, GC_LT);
    assert_int_equal(s[2]->src[0].vreg, y);
    for (unsigned k = 3; k < 6; k++) {
        assert_int_equal(s[k]->cmod, GC_NONE);
        assert_int_equal(s[k]->pred, GP_NORMAL);
    }
    gen_program_free(&p);
}

/*
 * The clamps that keep a NaN (lit's: x < K ? K : x) are min/max when x is
 * never NaN: here x = max(in, -0.5) (sel.ge with a constant never gives
 * NaN).  (~f) sel x, 0 after cmp.l x, 0 becomes sel.ge x, 0; (f) sel 128,
 * x after cmp.g x, 128 becomes sel.l x, 128 (x <= 128 and x < 128 choose
 * the same value, 128 not being zero).  Kept: the same clamp of y = in * 2
 * (NaN for a NaN input, which the clamp keeps and sel.ge would not), and
 * cmp.g x, 0 (not x > +0 is x <= +0, which chooses x = -0 where x < +0
 * would choose +0).
 */
static void test_fold_nan_keeping_clamp_of_a_number(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    struct gen_opnd in = gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC);
    uint32_t x = val(&p), y = val(&p), a = val(&p), b = val(&p), d = val(&p), e = val(&p), c[4];
    alu(&p, GOP_SEL, x, in, F(-0.5f))->cmod = GC_GE;
    alu(&p, GOP_MUL, y, in, F(2.0f));
    struct gen_inst *i = alu(&p, GOP_CMP, 0, V(x), F(0.0f));
    i->dst = gen_null(GT_F);
    i->cmod = GC_LT;
    alu(&p, GOP_SEL, a, V(x), F(0.0f))->pred = GP_INVERT;
    i = alu(&p, GOP_CMP, 0, V(y), F(0.0f));
    i->dst = gen_null(GT_F);
    i->cmod = GC_LT;
    alu(&p, GOP_SEL, b, V(y), F(0.0f))->pred = GP_INVERT;
    i = alu(&p, GOP_CMP, 0, V(x), F(128.0f));
    i->dst = gen_null(GT_F);
    i->cmod = GC_GT;
    alu(&p, GOP_SEL, d, F(128.0f), V(x))->pred = GP_NORMAL;
    i = alu(&p, GOP_CMP, 0, V(x), F(0.0f));
    i->dst = gen_null(GT_F);
    i->cmod = GC_GT;
    alu(&p, GOP_SEL, e, F(0.0f), V(x))->pred = GP_NORMAL;
    alu(&p, GOP_ADD, a, V(a), V(b));
    alu(&p, GOP_ADD, d, V(d), V(e));
    c[0] = a, c[1] = d, c[2] = a, c[3] = d;
    rt_write(&p, colour(&p, c));
    assert_true(gen_opt_fold(&p));
    gen_opt_dce(&p);
    /* the definitions of a, b, d, e: a and d min/max, b and e not (their
     * compares stay, or become a csel or a producer's conditional
     * modifier: the NaN of y, the -0 of x, kept either way) */
    const struct gen_inst *def[4] = {NULL, NULL, NULL, NULL};
    const uint32_t vr[4] = {a, b, d, e};
    for (unsigned k = 0; k < p.ninst; k++)
        for (unsigned q = 0; q < 4; q++)
            if (!def[q] && p.inst[k].dst.kind == GO_VREG && p.inst[k].dst.vreg == vr[q])
                def[q] = &p.inst[k];
    assert_int_equal(def[0]->op, GOP_SEL); /* a = max(x, 0) */
    assert_int_equal(def[0]->cmod, GC_GE);
    assert_int_equal(def[0]->pred, GP_NONE);
    assert_int_equal(def[0]->src[0].vreg, x);
    assert_int_equal(def[0]->src[1].imm, 0u);
    assert_false(def[1]->op == GOP_SEL && def[1]->cmod != GC_NONE); /* b: y may be NaN */
    assert_int_equal(def[2]->op, GOP_SEL); /* d = min(x, 128) */
    assert_int_equal(def[2]->cmod, GC_LT);
    assert_int_equal(def[2]->pred, GP_NONE);
    assert_int_equal(def[2]->src[0].vreg, x);
    assert_int_equal(def[2]->src[1].kind, GO_IMM);
    assert_false(def[3]->op == GOP_SEL && def[3]->cmod != GC_NONE); /* e: K = 0 */
    gen_program_free(&p);
}

/*
 * A min of two registers: `cmp.l f, a, b; (f) sel d, a, b` is sel.l when
 * neither is NaN (a = max(in, 0), b = an and with the bits of 1.0); kept
 * when b = in * 2 may be NaN (the compare would give b, sel.l a).
 */
static void test_fold_min_of_numbers(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    struct gen_opnd in = gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC);
    uint32_t x = val(&p), m = val(&p), y = val(&p), d = val(&p), e = val(&p), c[4];
    alu(&p, GOP_SEL, x, in, F(0.0f))->cmod = GC_GE;
    struct gen_inst *i = alu(&p, GOP_AND, m, gen_fixed(5 * GEN_GRF_SIZE, GT_UD, GR_VEC),
                             gen_imm(0x3f800000u, GT_UD));
    i->dst.type = GT_UD;
    alu(&p, GOP_MUL, y, in, F(2.0f));
    struct gen_opnd mf = V(m);
    i = alu(&p, GOP_CMP, 0, V(x), mf);
    i->dst = gen_null(GT_F);
    i->cmod = GC_LT;
    alu(&p, GOP_SEL, d, V(x), mf)->pred = GP_NORMAL;
    i = alu(&p, GOP_CMP, 0, V(x), V(y));
    i->dst = gen_null(GT_F);
    i->cmod = GC_LT;
    alu(&p, GOP_SEL, e, V(x), V(y))->pred = GP_NORMAL;
    alu(&p, GOP_ADD, d, V(d), V(e));
    c[0] = d, c[1] = d, c[2] = d, c[3] = d;
    rt_write(&p, colour(&p, c));
    assert_true(gen_opt_fold(&p));
    gen_opt_dce(&p);
    assert_int_equal(count_op(&p, GOP_CMP), 1);
    const struct gen_inst *s1 = find_op(&p, GOP_SEL, 1), *s2 = find_op(&p, GOP_SEL, 2);
    assert_int_equal(s1->cmod, GC_LT);
    assert_int_equal(s1->pred, GP_NONE);
    assert_int_equal(s1->src[1].vreg, m);
    assert_int_equal(s2->cmod, GC_NONE);
    assert_int_equal(s2->pred, GP_NORMAL);
    gen_program_free(&p);
}

/*
 * max(max(x, a), b): with a < b and the inner max read there alone, the
 * outer one takes x (MAX then lit's clamp at 0); with a > b it is a copy
 * of the inner one (MAX then lit's clamp at -128).  Kept: a min inside a
 * max, and an inner max read elsewhere too.
 */
static void test_fold_minmax_chain(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    struct gen_opnd in = gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC);
    uint32_t x = val(&p), y1 = val(&p), j1 = val(&p), y2 = val(&p), j2 = val(&p);
    uint32_t y3 = val(&p), j3 = val(&p), y4 = val(&p), j4 = val(&p), c[4];
    alu(&p, GOP_MUL, x, in, F(2.0f));
    alu(&p, GOP_SEL, y1, V(x), F(-0.5f))->cmod = GC_GT;
    alu(&p, GOP_SEL, j1, V(y1), F(0.0f))->cmod = GC_GE;
    alu(&p, GOP_SEL, y2, V(x), F(4.0f))->cmod = GC_GE;
    alu(&p, GOP_SEL, j2, V(y2), F(1.0f))->cmod = GC_GE;
    alu(&p, GOP_SEL, y3, V(x), F(1.0f))->cmod = GC_LT;
    alu(&p, GOP_SEL, j3, V(y3), F(0.0f))->cmod = GC_GE;
    alu(&p, GOP_SEL, y4, V(x), F(-1.0f))->cmod = GC_GE;
    alu(&p, GOP_SEL, j4, V(y4), F(2.0f))->cmod = GC_GE;
    alu(&p, GOP_ADD, j4, V(j4), V(y4));
    alu(&p, GOP_ADD, j1, V(j1), V(j2));
    alu(&p, GOP_ADD, j3, V(j3), V(j4));
    c[0] = j1, c[1] = j3, c[2] = j1, c[3] = j3;
    rt_write(&p, colour(&p, c));
    assert_true(gen_opt_fold(&p));
    gen_opt_copy_prop(&p);
    gen_opt_dce(&p);
    /* y1 and j2 went: sels y2, j1, y3, j3, y4, j4 */
    assert_int_equal(count_op(&p, GOP_SEL), 6);
    const struct gen_inst *s[6];
    for (unsigned k = 0; k < 6; k++)
        s[k] = find_op(&p, GOP_SEL, k);
    assert_int_equal(s[0]->dst.vreg, j1); /* max(x, 0) */
    assert_int_equal(s[0]->src[0].vreg, x);
    assert_int_equal(s[0]->cmod, GC_GE);
    assert_int_equal(s[1]->dst.vreg, y2); /* j2 is y2 */
    assert_int_equal(s[3]->dst.vreg, j3); /* min inside: kept */
    assert_int_equal(s[3]->src[0].vreg, y3);
    assert_int_equal(s[5]->dst.vreg, j4); /* y4 read twice: kept */
    assert_int_equal(s[5]->src[0].vreg, y4);
    gen_program_free(&p);
}

/* ------------------------------------------------------------------ */
/* Payloads.                                                           */

static void test_payload_coalescing(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 16);
    struct gen_opnd in = gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC);
    uint32_t u = val(&p), v = val(&p), w = val(&p), c[4];
    alu(&p, GOP_ADD, u, in, F(1.0f));
    alu(&p, GOP_MUL, v, in, F(2.0f));
    alu(&p, GOP_ADD, w, V(u), V(v));
    /* a sampler message (u, v), then a colour (w, u, w, v): u and v are
     * in the sampler payload, w goes into the colour; u and v copied again */
    uint32_t pl = block(&p, 4), resp = block(&p, 8);
    mov(&p, 0, V(u))->dst = gen_vr(pl, 0, GT_F);
    mov(&p, 0, V(v))->dst = gen_vr(pl, 64, GT_F);
    struct gen_inst *s = op(&p, GOP_SEND);
    s->dst = gen_vr(resp, 0, GT_F);
    s->src[0] = gen_vr(pl, 0, GT_F);
    s->sfid = 2;
    s->mlen = 4;
    s->rlen = 8;
    c[0] = w, c[1] = u, c[2] = w, c[3] = v;
    uint32_t out = colour(&p, c);
    /* the texel's red goes nowhere but the colour of w's second copy is kept */
    rt_write(&p, out);
    assert_true(gen_opt_payload(&p));
    /* u, v computed in the sampler payload; w in the colour; its second copy stays */
    assert_int_equal(p.inst[0].dst.vreg, pl);
    assert_int_equal(p.inst[0].dst.off, 0);
    assert_int_equal(p.inst[1].dst.vreg, pl);
    assert_int_equal(p.inst[1].dst.off, 64);
    assert_int_equal(p.inst[2].dst.vreg, out);
    assert_int_equal(count_op(&p, GOP_MOV), 3); /* w again, u and v into the colour */
    gen_program_free(&p);
}

/* A SIMD8/16 header-less sample of coordinates pl into a fresh response block. */
static struct gen_inst *sample(struct gen_program *p, uint32_t pl, uint32_t resp, bool header)
{
    unsigned per = p->simd / 8;
    struct gen_inst *s = op(p, GOP_SEND);
    s->dst = gen_vr(resp, 0, GT_F);
    s->src[0] = gen_vr(pl, 0, GT_F);
    s->sfid = 2;
    s->mlen = (uint8_t)(2 * per + header);
    s->rlen = (uint8_t)(4 * per);
    s->desc = gen_desc(s->mlen, s->rlen, header, (per == 1 ? 1u : 2u) << 17);
    return s;
}

/*
 * Sampler responses asking only for the channels read: at SIMD16 a texel
 * read in R and B (bytes 0-63, 128-191) needs R, G, B: rlen 6 of 8, the
 * descriptor's bits 24:20 too, the block 192 bytes.  A texel whose A is
 * read keeps all four; a message with a header (whose channel mask would
 * say what comes back) is left alone.
 */
static void test_trim_sampler_responses(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 16);
    uint32_t pl = block(&p, 4), r1 = block(&p, 8), r2 = block(&p, 8), r3 = block(&p, 8);
    uint32_t x = val(&p), y = val(&p), z = val(&p), w = val(&p), c[4];
    sample(&p, pl, r1, false);
    sample(&p, pl, r2, false);
    sample(&p, pl, r3, true);
    alu(&p, GOP_ADD, x, gen_vr(r1, 0, GT_F), gen_vr(r1, 128, GT_F));
    alu(&p, GOP_MUL, y, gen_vr(r2, 192, GT_F), F(2.0f));
    alu(&p, GOP_MUL, z, gen_vr(r3, 0, GT_F), F(3.0f));
    alu(&p, GOP_ADD, w, V(y), V(z));
    c[0] = x, c[1] = y, c[2] = z, c[3] = w;
    rt_write(&p, colour(&p, c));
    assert_true(gen_opt_trim_responses(&p));
    const struct gen_inst *s1 = find_op(&p, GOP_SEND, 0), *s2 = find_op(&p, GOP_SEND, 1),
                          *s3 = find_op(&p, GOP_SEND, 2);
    assert_int_equal(s1->rlen, 6);
    assert_int_equal(s1->desc >> 20 & 0x1f, 6);
    assert_int_equal(s1->desc >> 25 & 0xf, 4); /* mlen kept */
    assert_int_equal(p.vreg[r1].size, 192);
    assert_int_equal(s2->rlen, 8);
    assert_int_equal(p.vreg[r2].size, 256);
    assert_int_equal(s3->rlen, 8);
    assert_int_equal(s3->desc >> 20 & 0x1f, 8);
    assert_false(gen_opt_trim_responses(&p)); /* nothing left to trim */
    gen_program_free(&p);
}

/*
 * 25-glass-fog's density: a SIMD8 texel read in R alone, by a log and by
 * the copy into the colour's alpha.  Trimmed to one GRF it is a value like
 * any other: the sample writes the colour part and the log reads it there.
 */
static void test_trimmed_response_into_payload(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t pl = block(&p, 2), r = block(&p, 4), l = val(&p), c[4];
    sample(&p, pl, r, false);
    struct gen_inst *lg = op(&p, GOP_MATH);
    lg->math = GM_LOG;
    lg->dst = V(l);
    lg->src[0] = gen_vr(r, 0, GT_F);
    uint32_t d = val(&p);
    mov(&p, d, gen_vr(r, 0, GT_F));
    c[0] = l, c[1] = l, c[2] = l, c[3] = d;
    uint32_t out = colour(&p, c);
    rt_write(&p, out);
    gen_optimize(&p);
    const struct gen_inst *s = find_op(&p, GOP_SEND, 0);
    assert_int_equal(s->rlen, 1);
    assert_int_equal(s->desc >> 20 & 0x1f, 1);
    assert_int_equal(s->dst.vreg, out);
    assert_int_equal(s->dst.off, 3 * 32);
    const struct gen_inst *lg2 = find_op(&p, GOP_MATH, 0);
    assert_int_equal(lg2->src[0].vreg, out);
    assert_int_equal(lg2->src[0].off, 3 * 32);
    gen_program_free(&p);
}

/*
 * A value computed before control flow and copied into a payload after
 * it (a vertex shader's position, computed before an if or a loop, into
 * its URB slot), or a variable written in both arms of a branch: computed
 * in the payload part, the copy gone.  Not on the retry that keeps
 * message blocks' live ranges (keep_block_ranges): the block would live
 * from u's definition on.
 */
static void test_payload_coalescing_across_flow(void **state)
{
    (void)state;
    struct gen_program p;
    struct gen_opnd in = gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC);
    for (unsigned form = 0; form < 3; form++) {
        prog_init(&p, 8);
        p.keep_block_ranges = form == 1;
        uint32_t u = val(&p), t = val(&p), w = val(&p), c[4];
        if (form != 2)
            alu(&p, GOP_ADD, u, in, F(1.0f));
        flow(&p, GOP_IF, true);
        if (form == 2)
            alu(&p, GOP_ADD, u, in, F(1.0f));
        mov(&p, t, F(1.0f));
        flow(&p, GOP_ELSE, false);
        if (form == 2)
            alu(&p, GOP_ADD, u, in, F(3.0f));
        mov(&p, t, F(2.0f));
        flow(&p, GOP_ENDIF, false);
        alu(&p, GOP_MUL, w, V(t), in);
        uint32_t pl = block(&p, 4);
        mov(&p, 0, V(u))->dst = gen_vr(pl, 32, GT_F);
        mov(&p, 0, V(w))->dst = gen_vr(pl, 64, GT_F);
        urb_write(&p, pl);
        c[0] = c[1] = c[2] = c[3] = w;
        rt_write(&p, colour(&p, c));
        gen_opt_payload(&p);
        const struct gen_inst *add = find_op(&p, GOP_ADD, 0);
        if (form != 1) {
            assert_int_equal(add->dst.vreg, pl);
            assert_int_equal(add->dst.off, 32);
            if (form == 2) /* both arms' definitions */
                assert_int_equal(find_op(&p, GOP_ADD, 1)->dst.vreg, pl);
        } else {
            assert_int_equal(add->dst.vreg, u);
        }
        gen_program_free(&p);
    }
}

/*
 * Two sampler messages at the same coordinates (u, v): the first payload
 * computes u and v in place, the second would copy them again; it sends
 * the first payload instead.  A third message at (u, w), w computed after
 * the second, keeps its own payload: it is not the same block.
 */
static void test_payload_sent_twice(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 16);
    struct gen_opnd in = gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC);
    uint32_t u = val(&p), v = val(&p), w = val(&p), c[4];
    alu(&p, GOP_ADD, u, in, F(1.0f));
    alu(&p, GOP_MUL, v, in, F(2.0f));
    uint32_t pl[3], resp[3];
    struct gen_inst *snd[3];
    for (unsigned k = 0; k < 3; k++) {
        if (k == 2)
            alu(&p, GOP_MUL, w, in, F(3.0f));
        pl[k] = block(&p, 4);
        resp[k] = block(&p, 8);
        mov(&p, 0, V(u))->dst = gen_vr(pl[k], 0, GT_F);
        mov(&p, 0, V(k == 2 ? w : v))->dst = gen_vr(pl[k], 64, GT_F);
        struct gen_inst *sn = op(&p, GOP_SEND);
        sn->dst = gen_vr(resp[k], 0, GT_F);
        sn->src[0] = gen_vr(pl[k], 0, GT_F);
        sn->sfid = 2;
        sn->mlen = 4;
        sn->rlen = 8;
    }
    c[0] = gen_new_vreg(&p, gen_dsize(&p), false);
    alu(&p, GOP_ADD, c[0], gen_vr(resp[0], 0, GT_F), gen_vr(resp[1], 0, GT_F));
    alu(&p, GOP_ADD, c[0], V(c[0]), gen_vr(resp[2], 0, GT_F));
    c[1] = c[2] = c[3] = c[0];
    rt_write(&p, colour(&p, c));
    assert_true(gen_opt_payload(&p));
    for (unsigned k = 0; k < 2; k++)
        snd[k] = (struct gen_inst *)find_op(&p, GOP_SEND, k);
    snd[2] = (struct gen_inst *)find_op(&p, GOP_SENDS, 0);
    assert_non_null(snd[2]);
    assert_int_equal(snd[0]->src[0].vreg, pl[0]);
    assert_int_equal(snd[1]->src[0].vreg, pl[0]); /* the first payload, sent again */
    assert_int_equal(snd[1]->src[0].off, 0);
    /* the third: u where it was computed (the first payload's part 0) as
     * src0 of a split send, w computed in the third payload, src1 */
    assert_int_equal(snd[2]->src[0].vreg, pl[0]);
    assert_int_equal(snd[2]->src[0].off, 0);
    assert_int_equal(snd[2]->mlen, 2);
    assert_int_equal(snd[2]->src[1].vreg, pl[2]);
    assert_int_equal(snd[2]->src1len, 2);
    assert_int_equal((snd[2]->exdesc >> 6) & 0xf, 2);
    unsigned to_pl = 0;
    for (unsigned k = 0; k < p.ninst; k++)
        to_pl += p.inst[k].op == GOP_MOV && p.inst[k].dst.vreg != c[0] &&
                 (p.inst[k].dst.vreg == pl[0] || p.inst[k].dst.vreg == pl[1] ||
                  p.inst[k].dst.vreg == pl[2]);
    assert_int_equal(to_pl, 0);
    gen_program_free(&p);
}

/*
 * SIMD32 in halves (gen/opt_split.c): u = in * k is sent by two SIMD16
 * messages, half by half, so once split each half of u is computed in its
 * message's payload and both copies go; t, read whole by the broadcast
 * that makes k (an instruction that keeps its width), stays one 128-byte
 * value.  The halves compute what the printer made of the SIMD32
 * instruction: the second reads the input 64 bytes on, under (16|M16).
 */
static void test_split_simd32_into_halves(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 32);
    struct gen_opnd in = gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC);
    uint32_t u = val(&p), t = val(&p), one = gen_new_vreg(&p, 4, true);
    alu(&p, GOP_ADD, t, in, F(1.0f));
    struct gen_inst *bc = op(&p, GOP_BCAST);
    bc->exec = 1;
    bc->nomask = true;
    bc->dst = gen_vr(one, 0, GT_F);
    bc->src[0] = V(t);
    alu(&p, GOP_MUL, u, in, V(one));
    uint32_t pl[2];
    for (unsigned h = 0; h < 2; h++) {
        pl[h] = block(&p, 2);
        struct gen_inst *m = mov(&p, 0, gen_vr(u, 64 * h, GT_F));
        m->dst = gen_vr(pl[h], 0, GT_F);
        m->exec = 16;
        m->group = (uint8_t)(16 * h);
        struct gen_inst *w = op(&p, GOP_SENDC);
        w->exec = 16;
        w->group = (uint8_t)(16 * h);
        w->dst = gen_null(GT_UW);
        w->src[0] = gen_vr(pl[h], 0, GT_F);
        w->sfid = 5;
        w->mlen = 2;
        w->eot = h == 1;
    }
    gen_optimize(&p);
    assert_int_equal(count_op(&p, GOP_MOV), 0);
    /* u's halves: mul (16|M0) pl0, in and mul (16|M16) pl1, in + 64 */
    const struct gen_inst *m0 = find_op(&p, GOP_MUL, 0), *m1 = find_op(&p, GOP_MUL, 1);
    assert_non_null(m0);
    assert_non_null(m1);
    assert_int_equal(m0->exec, 16);
    assert_int_equal(m0->group, 0);
    assert_int_equal(m0->dst.vreg, pl[0]);
    assert_int_equal(m0->src[0].off, 4 * GEN_GRF_SIZE);
    assert_int_equal(m1->exec, 16);
    assert_int_equal(m1->group, 16);
    assert_int_equal(m1->dst.vreg, pl[1]);
    assert_int_equal(m1->src[0].off, 4 * GEN_GRF_SIZE + 64);
    /* t: two halves of one instruction, into one value the broadcast reads whole */
    const struct gen_inst *a0 = find_op(&p, GOP_ADD, 0), *a1 = find_op(&p, GOP_ADD, 1);
    assert_non_null(a1);
    assert_int_equal(a0->dst.vreg, t);
    assert_int_equal(a1->dst.vreg, t);
    assert_int_equal(a1->dst.off, 64);
    assert_int_equal(p.vreg[t].size, 128);
    assert_int_equal(find_op(&p, GOP_BCAST, 0)->src[0].vreg, t);
    gen_program_free(&p);
}

/* A URB write of two slots: slot 1 passes the attribute in r8-r11 through,
 * slot 2 is computed; the pass-through is written in place. */
static void test_urb_slot_in_place(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    p.layout.stage = ST_VS;
    uint32_t x = val(&p), d = block(&p, 8), e = block(&p, 5);
    p.vreg[e].grf_lo = GEN_EOT_FIRST_GRF;
    alu(&p, GOP_ADD, x, gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC), F(1.0f));
    for (unsigned c = 0; c < 4; c++)
        mov(&p, 0, gen_fixed((8 + c) * GEN_GRF_SIZE, GT_F, GR_VEC))->dst = gen_vr(d, c * 32, GT_F);
    for (unsigned c = 0; c < 4; c++)
        mov(&p, 0, V(x))->dst = gen_vr(d, (4 + c) * 32, GT_F);
    struct gen_inst *w = urb_sends(&p, gen_vr(d, 0, GT_UD), 8, 1);
    /* the end of the thread: slot 3 */
    struct gen_inst *h = mov(&p, 0, gen_fixed(GEN_GRF_SIZE, GT_UD, GR_VEC));
    h->dst = gen_vr(e, 0, GT_UD);
    h->nomask = true;
    for (unsigned c = 0; c < 4; c++)
        mov(&p, 0, V(x))->dst = gen_vr(e, (1 + c) * 32, GT_F);
    w = op(&p, GOP_SEND);
    w->dst = gen_null(GT_UD);
    w->src[0] = gen_vr(e, 0, GT_UD);
    w->sfid = 6;
    w->mlen = 5;
    w->eot = true;
    w->desc = gen_desc(5, 0, true, 7u | (3u << 4));
    assert_true(gen_opt_payload(&p));
    const struct gen_inst *s0 = find_op(&p, GOP_SENDS, 0), *s1 = find_op(&p, GOP_SENDS, 1);
    assert_non_null(s0);
    assert_non_null(s1);
    assert_int_equal(s0->src[1].kind, GO_FIXED); /* r8-r11 as they are, VUE slot 1 */
    assert_int_equal(s0->src[1].off, 8 * GEN_GRF_SIZE);
    assert_int_equal(s0->src1len, 4);
    assert_int_equal((s0->desc >> 4) & 0x7ff, 1);
    assert_int_equal(s1->src[1].vreg, d); /* the computed slot, now slot 2 alone */
    assert_int_equal(s1->src1len, 4);
    assert_int_equal(s1->exdesc, 6u | (4u << 6));
    assert_int_equal((s1->desc >> 4) & 0x7ff, 2);
    assert_int_equal((s1->desc >> 25) & 0xf, 1);
    /* x and its copies fill d's four GRFs (the copy of x's result
     * replicated by x itself at SIMD16 or not: bytes are counted) */
    unsigned in_d = 0;
    for (unsigned k = 0; k < p.ninst; k++)
        if (p.inst[k].dst.kind == GO_VREG && p.inst[k].dst.vreg == d) {
            assert_true(p.inst[k].dst.off + gen_dst_bytes(&p, &p.inst[k]) <= 4 * GEN_GRF_SIZE);
            in_d += gen_dst_bytes(&p, &p.inst[k]) / GEN_GRF_SIZE;
        }
    assert_int_equal(in_d, 4);
    gen_program_free(&p);
}

/* SIMD16 values gathered from two SIMD8 responses: a reader that can run
 * as two halves reads the responses where they arrived (u = t + 1: two
 * add (8), no copies); a reader whose source is its own destination's
 * vreg 32 bytes lower (d.1 = t + d.0) is not split, since its second
 * half would read what the first wrote, and t keeps its two copies. */
static void test_split_gathers(void **state)
{
    (void)state;
    for (unsigned hazard = 0; hazard < 2; hazard++) {
        struct gen_program p;
        prog_init(&p, 16);
        uint32_t resp[2], t = val(&p), u = val(&p), d = gen_new_vreg(&p, 128, false);
        for (unsigned h = 0; h < 2; h++) {
            resp[h] = block(&p, 4);
            struct gen_inst *sn = op(&p, GOP_SEND);
            sn->exec = 8;
            sn->group = (uint8_t)(8 * h);
            sn->dst = gen_vr(resp[h], 0, GT_F);
            sn->src[0] = gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC);
            sn->sfid = 2;
            sn->mlen = 1;
            sn->rlen = 4;
        }
        for (unsigned h = 0; h < 2; h++) {
            struct gen_inst *m = mov(&p, 0, gen_vr(resp[h], 0, GT_F));
            m->exec = 8;
            m->group = (uint8_t)(8 * h);
            m->dst = gen_vr(t, 32 * h, GT_F);
            m->src[0].region = GR_VEC;
        }
        if (hazard) {
            alu(&p, GOP_ADD, 0, gen_fixed(6 * GEN_GRF_SIZE, GT_F, GR_VEC), F(2.0f))->dst =
                gen_vr(d, 0, GT_F);
            alu(&p, GOP_ADD, 0, V(t), gen_vr(d, 0, GT_F))->dst = gen_vr(d, 32, GT_F);
            alu(&p, GOP_ADD, u, gen_vr(d, 32, GT_F), F(1.0f));
        } else {
            alu(&p, GOP_ADD, u, V(t), F(1.0f));
        }
        uint32_t c[4] = {u, u, u, u};
        rt_write(&p, colour(&p, c));
        gen_opt_payload(&p);
        unsigned halves = 0, copies = 0;
        for (unsigned k = 0; k < p.ninst; k++) {
            const struct gen_inst *i = &p.inst[k];
            if (i->op == GOP_ADD && i->exec == 8 && i->src[0].kind == GO_VREG &&
                i->src[0].vreg == resp[i->group / 8] && i->src[0].off == 0)
                halves++;
            if (i->op == GOP_MOV && i->dst.kind == GO_VREG && i->dst.vreg == t)
                copies++;
        }
        assert_int_equal(halves, hazard ? 0 : 2);
        assert_int_equal(copies, hazard ? 2 : 0);
        gen_program_free(&p);
    }
}

/* gen/opt_pair.c joins two copies into consecutive GRFs of a payload only
 * when neither reads the other's GRF: B.1 = B.0 then B.2 = B.1 looks like
 * "the next GRF" source for source, but the second copies the first's
 * result, which one (W) mov (16) reading B.0 and B.1 together would not.
 * B.3 and B.4 = the same value do pair. */
static void test_pairs_keep_order(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    p.layout.stage = ST_VS;
    uint32_t b = block(&p, 5), x = val(&p);
    alu(&p, GOP_ADD, 0, gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC), F(1.0f))->dst = gen_vr(b, 0, GT_F);
    alu(&p, GOP_MUL, x, gen_fixed(5 * GEN_GRF_SIZE, GT_F, GR_VEC), F(3.0f));
    mov(&p, 0, gen_vr(b, 0, GT_F))->dst = gen_vr(b, 32, GT_F);
    mov(&p, 0, gen_vr(b, 32, GT_F))->dst = gen_vr(b, 64, GT_F);
    mov(&p, 0, V(x))->dst = gen_vr(b, 96, GT_F);
    mov(&p, 0, V(x))->dst = gen_vr(b, 128, GT_F);
    urb_sends(&p, gen_vr(b, 0, GT_UD), 5, 1);
    gen_opt_payload(&p);
    gen_opt_pair(&p);
    unsigned wide = 0, chained = 0;
    for (unsigned k = 0; k < p.ninst; k++) {
        const struct gen_inst *i = &p.inst[k];
        if (i->op != GOP_MOV || i->dst.kind != GO_VREG || i->dst.vreg != b)
            continue;
        if (i->exec == 16) {
            wide++;
            assert_int_equal(i->dst.off, 96); /* x into B.3 and B.4 */
            assert_int_equal(i->src[0].region, GR_REP8);
        }
        if (i->dst.off == 64) {
            chained++;
            assert_int_equal(i->exec, 8); /* still B.2 = B.1, after B.1 = B.0 */
            assert_int_equal(i->src[0].off, 32);
        }
    }
    assert_int_equal(wide, 1);
    assert_int_equal(chained, 1);
    gen_program_free(&p);
}

/* The allocator keeps every payload register a message reads in place
 * (src1len GRFs from r8) until the message: none of the values computed
 * before it may land in r9-r11. */
static void test_payload_read_in_place_stays_live(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    p.layout.stage = ST_VS;
    uint32_t v[40];
    for (unsigned k = 0; k < 40; k++) {
        v[k] = val(&p);
        alu(&p, GOP_ADD, v[k], gen_fixed(8 * GEN_GRF_SIZE, GT_F, GR_VEC), F((float)k));
    }
    struct gen_inst *w = urb_sends(&p, gen_fixed(8 * GEN_GRF_SIZE, GT_UD, GR_VEC), 4, 1);
    uint32_t e = block(&p, 5);
    p.vreg[e].grf_lo = GEN_EOT_FIRST_GRF;
    for (unsigned k = 0; k < 40; k += 8) /* everything stays alive to the end */
        alu(&p, GOP_ADD, 0, V(v[k]), V(v[k + 1]))->dst = gen_vr(e, 32, GT_F);
    for (unsigned k = 0; k < 40; k++)
        alu(&p, GOP_ADD, 0, V(v[k]), F(1.0f))->dst = gen_vr(e, 32 + 32 * (k % 4), GT_F);
    w = op(&p, GOP_SEND);
    w->dst = gen_null(GT_UD);
    w->src[0] = gen_vr(e, 0, GT_UD);
    w->sfid = 6;
    w->mlen = 5;
    w->eot = true;
    assert_true(gen_allocate(&p));
    for (unsigned k = 0; k < 40; k++) {
        int32_t g = p.vreg[v[k]].loc / GEN_GRF_SIZE;
        if (g >= 8 && g <= 11)
            fail_msg("v%u in r%d, which the URB write reads in place", k, g);
    }
    gen_program_free(&p);
}

/* ------------------------------------------------------------------ */
/* Rematerialization.                                                  */

static void test_remat_interpolation(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    struct gen_opnd in = gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC);
    uint32_t v = val(&p), near = val(&p), acc = val(&p), far = val(&p), c[4];
    struct gen_inst *i = op(&p, GOP_PLN);
    i->dst = V(v);
    i->src[0] = gen_fixed(6 * GEN_GRF_SIZE, GT_F, GR_SCALAR);
    i->src[1] = gen_fixed(2 * GEN_GRF_SIZE, GT_F, GR_VEC);
    alu(&p, GOP_MUL, near, V(v), F(2.0f)); /* close by: reads v */
    alu(&p, GOP_ADD, acc, in, F(1.0f));
    for (unsigned k = 0; k < 40; k++)
        alu(&p, GOP_MUL, acc, V(acc), V(acc));
    alu(&p, GOP_ADD, far, V(v), V(acc)); /* 40 instructions later: recomputed here */
    c[0] = near, c[1] = far, c[2] = acc, c[3] = near;
    rt_write(&p, colour(&p, c));
    unsigned before = p.ninst;
    assert_true(gen_opt_remat(&p));
    assert_int_equal(p.ninst, before + 1);
    assert_int_equal(count_op(&p, GOP_PLN), 2);
    const struct gen_inst *again = find_op(&p, GOP_PLN, 1);
    const struct gen_inst *use = again + 1;
    assert_int_equal(use->op, GOP_ADD);
    assert_int_equal(use->src[0].vreg, again->dst.vreg);
    assert_int_not_equal(again->dst.vreg, v);
    assert_int_equal(p.inst[1].src[0].vreg, v); /* the near use keeps v */
    gen_program_free(&p);
}

/* ------------------------------------------------------------------ */
/* Scheduling.                                                         */

static int index_of_op(const struct gen_program *p, enum gen_op o, unsigned nth)
{
    const struct gen_inst *i = find_op(p, o, nth);
    return i ? (int)(i - p->inst) : -1;
}

static void test_schedule_hides_sampler_latency(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    struct gen_opnd in = gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC);
    uint32_t pl = block(&p, 2), resp = block(&p, 4), x = val(&p), y = val(&p), z = val(&p),
             w = val(&p), c[4];
    alu(&p, GOP_ADD, 0, in, F(1.0f))->dst = gen_vr(pl, 0, GT_F);
    alu(&p, GOP_ADD, 0, in, F(2.0f))->dst = gen_vr(pl, 32, GT_F);
    struct gen_inst *s = op(&p, GOP_SEND);
    s->dst = gen_vr(resp, 0, GT_F);
    s->src[0] = gen_vr(pl, 0, GT_F);
    s->sfid = 2;
    s->mlen = 2;
    s->rlen = 4;
    alu(&p, GOP_ADD, x, gen_vr(resp, 0, GT_F), F(1.0f)); /* waits for the texel */
    alu(&p, GOP_MUL, y, in, F(3.0f));                     /* independent work */
    alu(&p, GOP_MUL, z, V(y), V(y));
    /* a compare, its select, then another compare of the same flag */
    struct gen_inst *i = alu(&p, GOP_CMP, 0, V(z), F(0.5f));
    i->dst = gen_null(GT_F);
    i->cmod = GC_GT;
    alu(&p, GOP_SEL, w, V(z), V(x))->pred = GP_NORMAL;
    i = alu(&p, GOP_CMP, 0, V(w), F(0.25f));
    i->dst = gen_null(GT_F);
    i->cmod = GC_LT;
    alu(&p, GOP_SEL, w, V(w), F(0.0f))->pred = GP_NORMAL;
    c[0] = c[1] = c[2] = c[3] = w;
    rt_write(&p, colour(&p, c));
    unsigned before = p.ninst;
    gen_schedule_pre(&p);
    assert_int_equal(p.ninst, before);
    int send = index_of_op(&p, GOP_SEND, 0), add_x = -1;
    for (unsigned k = 0; k < p.ninst; k++)
        if (p.inst[k].op == GOP_ADD && p.inst[k].dst.kind == GO_VREG && p.inst[k].dst.vreg == x)
            add_x = (int)k;
    /* the texel's reader after the independent products, the payload before the send */
    assert_true(send > index_of_op(&p, GOP_ADD, 1));
    assert_true(index_of_op(&p, GOP_MUL, 1) < add_x);
    assert_true(send < add_x);
    /* each select between its compare and the next write of the flag */
    int c0 = index_of_op(&p, GOP_CMP, 0), s0 = index_of_op(&p, GOP_SEL, 0);
    int c1 = index_of_op(&p, GOP_CMP, 1), s1 = index_of_op(&p, GOP_SEL, 1);
    assert_true(c0 < s0 && s0 < c1 && c1 < s1);
    assert_true(p.inst[c0].cmod == GC_GT && p.inst[c1].cmod == GC_LT);
    /* the end of the thread stays last */
    assert_true(p.inst[p.ninst - 1].eot);
    gen_program_free(&p);
}

static void test_schedule_after_allocation_keeps_register_reuse(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    struct gen_opnd in = gen_fixed(4 * GEN_GRF_SIZE, GT_F, GR_VEC);
    uint32_t a = val(&p), b = val(&p), out = block(&p, 4);
    place(&p, a, 10);
    place(&p, b, 10); /* b reuses a's register once a is dead */
    place(&p, out, 112);
    struct gen_inst *m = op(&p, GOP_MATH);
    m->math = GM_INV;
    m->dst = V(a);
    m->src[0] = in;
    alu(&p, GOP_ADD, 0, V(a), F(1.0f))->dst = gen_vr(out, 0, GT_F);
    alu(&p, GOP_MUL, b, in, F(2.0f)); /* would fill the math latency, but overwrites r10 */
    alu(&p, GOP_ADD, 0, V(b), F(1.0f))->dst = gen_vr(out, 32, GT_F);
    mov(&p, 0, F(0.0f))->dst = gen_vr(out, 64, GT_F);
    mov(&p, 0, F(0.0f))->dst = gen_vr(out, 96, GT_F);
    rt_write(&p, out);
    gen_schedule_post(&p);
    int rd_a = -1, wr_b = -1;
    for (unsigned k = 0; k < p.ninst; k++) {
        if (p.inst[k].op == GOP_ADD && p.inst[k].src[0].kind == GO_VREG && p.inst[k].src[0].vreg == a)
            rd_a = (int)k;
        if (p.inst[k].op == GOP_MUL)
            wr_b = (int)k;
    }
    assert_true(rd_a >= 0 && rd_a < wr_b); /* r10 is read as a before it is written as b */
    assert_int_equal(p.inst[0].op, GOP_MATH);
    gen_program_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perf_sampler_latency),
        cmocka_unit_test(test_perf_loop_weight_and_bank_conflict),
        cmocka_unit_test(test_webs_split_straight_line),
        cmocka_unit_test(test_webs_join_at_endif_and_loop),
        cmocka_unit_test(test_copy_prop_dominated_use),
        cmocka_unit_test(test_copy_prop_blocked),
        cmocka_unit_test(test_copy_prop_immediates),
        cmocka_unit_test(test_cse),
        cmocka_unit_test(test_fold_cmod),
        cmocka_unit_test(test_cse_payload_part),
        cmocka_unit_test(test_flag_retest_and_dead_flags),
        cmocka_unit_test(test_fold_saturate),
        cmocka_unit_test(test_fold_constants),
        cmocka_unit_test(test_fold_csel),
        cmocka_unit_test(test_fold_csel_constant_register),
        cmocka_unit_test(test_fold_clamp_to_sel_cmod),
        cmocka_unit_test(test_fold_nan_keeping_clamp_of_a_number),
        cmocka_unit_test(test_fold_minmax_chain),
        cmocka_unit_test(test_fold_min_of_numbers),
        cmocka_unit_test(test_payload_coalescing),
        cmocka_unit_test(test_trim_sampler_responses),
        cmocka_unit_test(test_trimmed_response_into_payload),
        cmocka_unit_test(test_payload_coalescing_across_flow),
        cmocka_unit_test(test_payload_sent_twice),
        cmocka_unit_test(test_split_simd32_into_halves),
        cmocka_unit_test(test_urb_slot_in_place),
        cmocka_unit_test(test_pairs_keep_order),
        cmocka_unit_test(test_split_gathers),
        cmocka_unit_test(test_payload_read_in_place_stays_live),
        cmocka_unit_test(test_remat_interpolation),
        cmocka_unit_test(test_schedule_hides_sampler_latency),
        cmocka_unit_test(test_schedule_after_allocation_keeps_register_reuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
