/*
 * test_gen_ra.c — the Gen9 register allocator (emit/gen/ra.c) on small
 * hand-built programs: register classes and alignment, uniform packing,
 * contiguous message payloads, the EOT range, interference and reuse,
 * loops, copy coalescing, and spill/fill placement.
 *
 * Every expectation follows from the rules of docs/gen-backend.md (a
 * dword at 4-byte alignment, a divergent value at GRF alignment, values
 * alive at the same time never share bytes, except a destination written
 * over a source that dies in the same instruction at the same place: the
 * hardware reads the sources before it writes), checked here by an
 * independent liveness computation, not by re-reading the allocator.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "emit/gen/gen_ir.h"
#include "emit/gen/verify.h"

static void prog_init(struct gen_program *p, unsigned simd)
{
    memset(p, 0, sizeof(*p));
    p->simd = simd;
}

static struct gen_inst *op(struct gen_program *p, enum gen_op o, unsigned exec)
{
    struct gen_inst *i = gen_append(p);
    i->op = (uint8_t)o;
    i->exec = (uint8_t)exec;
    i->nomask = exec == 1;
    i->jip = i->uip = -1;
    return i;
}

/* dst = imm (defines v) */
static void def_imm(struct gen_program *p, uint32_t v, uint32_t off)
{
    struct gen_inst *i = op(p, GOP_MOV, p->vreg[v].uniform ? 1 : p->simd);
    i->dst = gen_vr(v, off, GT_F);
    i->src[0] = gen_imm(0x3f800000, GT_F);
}

/* sink = a + b (uses a and b; sink is a fresh value that is used by a final send) */
static void use2(struct gen_program *p, uint32_t dst, uint32_t a, uint32_t b)
{
    struct gen_inst *i = op(p, GOP_ADD, p->vreg[dst].uniform ? 1 : p->simd);
    i->dst = gen_vr(dst, 0, GT_F);
    i->src[0] = gen_vr(a, 0, GT_F);
    i->src[1] = gen_vr(b, 0, GT_F);
}

/* dst = a + 1.0: a value that is computed, not rematerializable */
static void def_from(struct gen_program *p, uint32_t dst, uint32_t a)
{
    struct gen_inst *i = op(p, GOP_ADD, p->vreg[dst].uniform ? 1 : p->simd);
    i->dst = gen_vr(dst, 0, GT_F);
    i->src[0] = gen_vr(a, 0, GT_F);
    i->src[1] = gen_imm(0x3f800000, GT_F);
}

/* An EOT message reading block v: keeps everything it depends on alive. */
static void eot(struct gen_program *p, uint32_t v)
{
    struct gen_inst *i = op(p, GOP_SEND, p->simd > 16 ? 16 : p->simd);
    i->dst = gen_null(GT_UD);
    i->src[0] = gen_vr(v, 0, GT_UD);
    i->eot = true;
    i->sfid = 5;
    i->exdesc = 5;
}

/* First and last instruction referencing each vreg (straight-line programs). */
static void ranges(const struct gen_program *p, int *first, int *last)
{
    for (unsigned v = 0; v < p->nvreg; v++)
        first[v] = last[v] = -1;
    for (unsigned k = 0; k < p->ninst; k++) {
        const struct gen_inst *i = &p->inst[k];
        const struct gen_opnd *o[4] = {&i->dst, &i->src[0], &i->src[1], &i->src[2]};
        for (unsigned s = 0; s < 4; s++)
            if (o[s]->kind == GO_VREG) {
                if (first[o[s]->vreg] < 0)
                    first[o[s]->vreg] = (int)k;
                last[o[s]->vreg] = (int)k;
            }
    }
}

/*
 * Instruction k writes b over a, its source, at the same place: an ALU
 * instruction reads a lane for lane before it writes b.
 */
static bool handoff(const struct gen_program *p, unsigned k, uint32_t a, uint32_t b)
{
    const struct gen_inst *i = &p->inst[k];
    if (i->dst.kind != GO_VREG || i->dst.vreg != b || i->op >= GOP_SEND)
        return false;
    bool reads_a = false;
    for (unsigned s2 = 0; s2 < 3; s2++)
        reads_a |= i->src[s2].kind == GO_VREG && i->src[s2].vreg == a && i->src[s2].off == 0;
    return reads_a && p->vreg[a].loc == p->vreg[b].loc && p->vreg[a].size == p->vreg[b].size;
}

/* No two vregs alive at the same time share a byte; all inside the file, off r0. */
static void assert_no_conflicts(const struct gen_program *p)
{
    int first[4096], last[4096];
    assert_true(p->nvreg <= 4096);
    ranges(p, first, last);
    for (unsigned a = 0; a < p->nvreg; a++) {
        if (first[a] < 0)
            continue;
        const struct gen_vreg *va = &p->vreg[a];
        assert_true(va->loc >= GEN_GRF_SIZE); /* r0 is the thread header */
        assert_true(va->loc + (int32_t)va->size <= GEN_FILE_BYTES);
        assert_int_equal(va->loc % va->align, 0);
        for (unsigned b = a + 1; b < p->nvreg; b++) {
            if (first[b] < 0)
                continue;
            const struct gen_vreg *vb = &p->vreg[b];
            bool live_together = !(last[a] < first[b] || last[b] < first[a]);
            if (last[a] == first[b] && handoff(p, (unsigned)first[b], a, b))
                live_together = false;
            if (last[b] == first[a] && handoff(p, (unsigned)first[a], b, a))
                live_together = false;
            bool overlap = va->loc < vb->loc + (int32_t)vb->size && vb->loc < va->loc + (int32_t)va->size;
            if (live_together && overlap)
                fail_msg("vregs %u and %u share bytes while both live", a, b);
        }
    }
}

static void test_classes_and_alignment(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 16);
    uint32_t u = gen_new_vreg(&p, 4, true);     /* uniform dword */
    uint32_t d = gen_new_vreg(&p, 64, false);   /* SIMD16 float: two GRFs */
    uint32_t blk = gen_new_vreg(&p, 96, false); /* 3-GRF payload */
    p.vreg[blk].no_spill = true;
    uint32_t out = gen_new_vreg(&p, 64, false);
    def_imm(&p, u, 0);
    def_imm(&p, d, 0);
    def_imm(&p, blk, 0);
    def_imm(&p, blk, 64);
    use2(&p, out, d, u);
    use2(&p, out, out, blk);
    eot(&p, out);
    assert_true(gen_allocate(&p));
    assert_int_equal(p.vreg[u].loc % 4, 0);
    assert_int_equal(p.vreg[d].loc % 32, 0);
    assert_int_equal(p.vreg[blk].loc % 32, 0);
    assert_int_equal(p.spills, 0);
    assert_no_conflicts(&p);
    gen_program_free(&p);
}

/*
 * A block that is not whole GRFs (48 bytes: three vectors of a relative
 * read) covers part of the GRF after its first: a first GRF that is free
 * is not enough when the next holds a live value (a = r1 dies, b = r2
 * lives on, the block must not start at r1).
 */
static void test_partial_grf_block(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t a = gen_new_vreg(&p, 32, false), b = gen_new_vreg(&p, 32, false);
    uint32_t blk = gen_new_vreg(&p, 48, true), out = gen_new_vreg(&p, 32, false);
    p.vreg[blk].no_spill = true;
    def_imm(&p, a, 0);
    def_imm(&p, b, 0);
    use2(&p, out, a, a);
    struct gen_inst *i = op(&p, GOP_MOV, 4);
    i->dst = gen_vr(blk, 0, GT_F);
    i->src[0] = gen_imm(0x3f800000, GT_F);
    i = op(&p, GOP_MOV, 4);
    i->dst = gen_vr(blk, 32, GT_F);
    i->src[0] = gen_imm(0x3f800000, GT_F);
    use2(&p, out, out, b);
    i = op(&p, GOP_ADD, 8);
    i->dst = gen_vr(out, 0, GT_F);
    i->src[0] = gen_vr(out, 0, GT_F);
    i->src[1] = gen_vr(blk, 32, GT_F);
    eot(&p, out);
    assert_true(gen_allocate(&p));
    assert_no_conflicts(&p);
    gen_program_free(&p);
}

static void test_uniform_packing(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t u[8];
    for (unsigned k = 0; k < 8; k++) {
        u[k] = gen_new_vreg(&p, 4, true);
        def_imm(&p, u[k], 0);
    }
    uint32_t acc = gen_new_vreg(&p, 32, false);
    def_imm(&p, acc, 0);
    for (unsigned k = 0; k < 8; k++)
        use2(&p, acc, acc, u[k]);
    eot(&p, acc);
    assert_true(gen_allocate(&p));
    /* eight live dwords fill exactly one GRF */
    int grf = p.vreg[u[0]].loc / GEN_GRF_SIZE;
    unsigned seen = 0;
    for (unsigned k = 0; k < 8; k++) {
        assert_int_equal(p.vreg[u[k]].loc / GEN_GRF_SIZE, grf);
        seen |= 1u << ((p.vreg[u[k]].loc % GEN_GRF_SIZE) / 4);
    }
    assert_int_equal(seen, 0xff);
    assert_no_conflicts(&p);
    gen_program_free(&p);
}

static void test_payload_contiguity_and_eot_range(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t a = gen_new_vreg(&p, 32, false);
    uint32_t msg = gen_new_vreg(&p, 5 * GEN_GRF_SIZE, false); /* URB write: handles + 4 */
    p.vreg[msg].no_spill = true;
    p.vreg[msg].grf_lo = GEN_EOT_FIRST_GRF;
    def_imm(&p, a, 0);
    for (unsigned k = 0; k < 5; k++) {
        struct gen_inst *i = op(&p, GOP_MOV, 8);
        i->dst = gen_vr(msg, k * GEN_GRF_SIZE, GT_F);
        i->src[0] = gen_vr(a, 0, GT_F);
    }
    eot(&p, msg);
    assert_true(gen_allocate(&p));
    assert_true(p.vreg[msg].loc >= GEN_EOT_FIRST_GRF * GEN_GRF_SIZE);
    assert_true(p.vreg[msg].loc + 5 * GEN_GRF_SIZE <= GEN_FILE_BYTES);
    assert_int_equal(p.vreg[msg].loc % GEN_GRF_SIZE, 0);
    assert_true(p.vreg[a].loc < GEN_EOT_FIRST_GRF * GEN_GRF_SIZE);
    gen_program_free(&p);
}

static void test_dead_registers_are_reused(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t a = gen_new_vreg(&p, 32, false), b = gen_new_vreg(&p, 32, false);
    uint32_t x = gen_new_vreg(&p, 32, false), y = gen_new_vreg(&p, 32, false);
    uint32_t s = gen_new_vreg(&p, 32, false);
    def_imm(&p, a, 0);
    def_imm(&p, b, 0);
    use2(&p, x, a, b); /* a and b die here */
    def_imm(&p, y, 0);
    use2(&p, s, x, y);
    eot(&p, s);
    assert_true(gen_allocate(&p));
    assert_true(p.vreg[a].loc != p.vreg[b].loc);
    /* y starts after a and b died: it takes one of their registers */
    assert_true(p.vreg[y].loc == p.vreg[a].loc || p.vreg[y].loc == p.vreg[b].loc);
    assert_no_conflicts(&p);
    gen_program_free(&p);
}

static void test_loop_keeps_values_alive(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t a = gen_new_vreg(&p, 32, false), b = gen_new_vreg(&p, 32, false);
    uint32_t s = gen_new_vreg(&p, 32, false);
    def_imm(&p, a, 0);
    def_imm(&p, s, 0);
    op(&p, GOP_LABEL, 8);
    use2(&p, s, s, a); /* a's last use in order, but the next iteration reads it again */
    def_imm(&p, b, 0);
    use2(&p, s, s, b);
    op(&p, GOP_WHILE, 8);
    eot(&p, s);
    assert_true(gen_allocate(&p));
    assert_true(p.vreg[a].loc != p.vreg[b].loc);
    assert_true(p.vreg[a].loc != p.vreg[s].loc);
    gen_program_free(&p);
}

static void test_copies_coalesce(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 16);
    uint32_t a = gen_new_vreg(&p, 64, false), b = gen_new_vreg(&p, 64, false);
    def_imm(&p, a, 0);
    struct gen_inst *m = op(&p, GOP_MOV, 16); /* b = a, a dies: a merge that must cost nothing */
    m->dst = gen_vr(b, 0, GT_F);
    m->src[0] = gen_vr(a, 0, GT_F);
    eot(&p, b);
    unsigned before = p.ninst;
    assert_true(gen_allocate(&p));
    assert_int_equal(p.ninst, before - 1);
    for (unsigned k = 0; k < p.ninst; k++)
        assert_false(p.inst[k].op == GOP_MOV && p.inst[k].src[0].kind == GO_VREG);
    gen_program_free(&p);
}

/* i = i - 1 at the end of a loop body: computed in i's register, no copy */
static void test_loop_latch_copy_coalesces(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t i = gen_new_vreg(&p, 32, false), n = gen_new_vreg(&p, 32, false);
    uint32_t s = gen_new_vreg(&p, 32, false);
    def_imm(&p, i, 0);
    def_imm(&p, s, 0);
    op(&p, GOP_LABEL, 8);
    use2(&p, s, s, i);
    struct gen_inst *d = op(&p, GOP_ADD, 8);
    d->dst = gen_vr(n, 0, GT_D);
    d->src[0] = gen_vr(i, 0, GT_D);
    d->src[1] = gen_imm((uint32_t)-1, GT_D);
    struct gen_inst *m = op(&p, GOP_MOV, 8);
    m->dst = gen_vr(i, 0, GT_D);
    m->src[0] = gen_vr(n, 0, GT_D);
    op(&p, GOP_WHILE, 8);
    eot(&p, s);
    unsigned before = p.ninst;
    assert_true(gen_allocate(&p));
    assert_int_equal(p.ninst, before - 1);
    /* the decrement now writes i itself */
    bool found = false;
    for (unsigned k = 0; k < p.ninst; k++)
        if (p.inst[k].op == GOP_ADD && p.inst[k].src[1].kind == GO_IMM) {
            found = true;
            assert_int_equal(p.inst[k].dst.vreg, p.inst[k].src[0].vreg);
        }
    assert_true(found);
    gen_program_free(&p);
}

/* The same copy is kept when the loop reads i again after the new value exists. */
static void test_loop_latch_copy_needs_dead_value(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t i = gen_new_vreg(&p, 32, false), n = gen_new_vreg(&p, 32, false);
    uint32_t s = gen_new_vreg(&p, 32, false);
    def_imm(&p, i, 0);
    def_imm(&p, s, 0);
    op(&p, GOP_LABEL, 8);
    struct gen_inst *d = op(&p, GOP_ADD, 8);
    d->dst = gen_vr(n, 0, GT_D);
    d->src[0] = gen_vr(i, 0, GT_D);
    d->src[1] = gen_imm((uint32_t)-1, GT_D);
    use2(&p, s, s, i); /* old i read after n is defined */
    struct gen_inst *m = op(&p, GOP_MOV, 8);
    m->dst = gen_vr(i, 0, GT_D);
    m->src[0] = gen_vr(n, 0, GT_D);
    op(&p, GOP_WHILE, 8);
    eot(&p, s);
    unsigned before = p.ninst;
    assert_true(gen_allocate(&p));
    assert_int_equal(p.ninst, before);
    assert_true(p.vreg[i].loc != p.vreg[n].loc);
    gen_program_free(&p);
}

static void test_copy_of_live_value_stays(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t a = gen_new_vreg(&p, 32, false), b = gen_new_vreg(&p, 32, false);
    uint32_t s = gen_new_vreg(&p, 32, false);
    def_imm(&p, a, 0);
    struct gen_inst *m = op(&p, GOP_MOV, 8);
    m->dst = gen_vr(b, 0, GT_F);
    m->src[0] = gen_vr(a, 0, GT_F);
    def_imm(&p, b, 0); /* b redefined while a still lives: they cannot be one register */
    use2(&p, s, a, b);
    eot(&p, s);
    assert_true(gen_allocate(&p));
    assert_true(p.vreg[a].loc != p.vreg[b].loc);
    assert_no_conflicts(&p);
    gen_program_free(&p);
}

/* Instructions the allocator inserted: scratch headers and messages. */
static bool spill_code(const struct gen_program *p, unsigned k)
{
    const struct gen_inst *i = &p->inst[k];
    if (i->spill || i->fill)
        return true;
    return i->op == GOP_MOV && i->nomask && i->dst.kind == GO_VREG && p->vreg[i->dst.vreg].no_spill &&
           (i->src[0].kind == GO_FIXED || (i->src[0].kind == GO_IMM && i->dst.off == 8));
}

/* 140 computed SIMD8 values alive at once cannot fit 127 GRFs: spill and fill. */
static void test_spill_and_fill_placement(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    enum { N = 140 };
    uint32_t v[N];
    uint32_t x = gen_new_vreg(&p, 32, false);
    def_imm(&p, x, 0);
    for (unsigned k = 0; k < N; k++) {
        v[k] = gen_new_vreg(&p, 32, false);
        def_from(&p, v[k], x);
    }
    uint32_t s = gen_new_vreg(&p, 32, false);
    def_imm(&p, s, 0);
    for (unsigned k = N; k-- > 0;)
        use2(&p, s, s, v[k]);
    eot(&p, s);
    assert_true(gen_allocate(&p));
    assert_true(p.spills > 0);
    assert_true(p.fills > 0);
    /* every spilled value has its own 32-byte scratch slot */
    unsigned nspilled = 0;
    for (unsigned a = 0; a < p.nvreg; a++) {
        if (p.vreg[a].spill_slot < 0)
            continue;
        nspilled++;
        assert_int_equal(p.vreg[a].spill_slot % 32, 0);
        for (unsigned b = a + 1; b < p.nvreg; b++)
            assert_true(p.vreg[b].spill_slot != p.vreg[a].spill_slot);
    }
    assert_true(nspilled > 0);
    assert_true(p.layout.scratch_bytes >= nspilled * 32);
    unsigned spills = 0, fills = 0;
    for (unsigned k = 0; k < p.ninst; k++) {
        const struct gen_inst *i = &p.inst[k];
        if (i->fill) {
            fills++;
            /* the fill lands right before the instruction that uses it (other
             * fills for the same instruction may come in between) */
            unsigned j = k + 1;
            while (j < p.ninst && spill_code(&p, j))
                j++;
            assert_true(j < p.ninst);
            const struct gen_inst *u = &p.inst[j];
            bool reads = false;
            for (unsigned s2 = 0; s2 < 3; s2++)
                reads |= u->src[s2].kind == GO_VREG && u->src[s2].vreg == i->dst.vreg;
            /* or writes part of it: a value defined more than once is filled
             * before each definition, so the channels it keeps stay right */
            reads |= u->dst.kind == GO_VREG && u->dst.vreg == i->dst.vreg;
            assert_true(reads);
            assert_int_equal(i->sfid, 0xA);
            assert_true(i->nomask);
            /* OWord block read of one GRF from BTI 253, header present, mlen 1, rlen 1 */
            assert_int_equal(i->desc, 0x021802FDu);
        }
        if (i->spill) {
            spills++;
            /* the spilled temporary was written just before the spill code */
            unsigned j = k;
            while (j > 0 && spill_code(&p, j - 1))
                j--;
            assert_true(j > 0);
            const struct gen_inst *d = &p.inst[j - 1];
            assert_true(d->dst.kind == GO_VREG && d->dst.vreg == i->src[1].vreg);
            assert_int_equal(i->op, GOP_SENDS);
            assert_int_equal(i->desc, 0x020A02FDu);
            assert_int_equal(i->exdesc, 0x4Au);
            /* header: a copy of r0 with dword 2 = scratch offset in OWords */
            assert_int_equal(p.inst[k - 1].dst.off, 8u);
            assert_int_equal(p.inst[k - 1].src[0].imm % 2, 0u);
        }
    }
    assert_int_equal(spills, p.spills);
    assert_int_equal(fills, p.fills);
    assert_no_conflicts(&p);
    gen_program_free(&p);
}

/* ---- copy coalescing on per-channel liveness (loops, breaks, if joins) ---- */

static struct gen_inst *mov(struct gen_program *p, uint32_t dst, uint32_t src, uint8_t pred)
{
    struct gen_inst *m = op(p, GOP_MOV, p->simd);
    m->dst = gen_vr(dst, 0, GT_F);
    m->src[0] = gen_vr(src, 0, GT_F);
    m->pred = pred;
    return m;
}

/* dst = a + 1.0 */
static void add1(struct gen_program *p, uint32_t dst, uint32_t a)
{
    struct gen_inst *i = op(p, GOP_ADD, p->simd);
    i->dst = gen_vr(dst, 0, GT_F);
    i->src[0] = gen_vr(a, 0, GT_F);
    i->src[1] = gen_imm(0x3f800000, GT_F);
}

/* f0.0 = (a > 0) */
static void cmp_gt0(struct gen_program *p, uint32_t a)
{
    struct gen_inst *c = op(p, GOP_CMP, p->simd);
    c->dst = gen_null(GT_F);
    c->src[0] = gen_vr(a, 0, GT_F);
    c->src[1] = gen_imm(0, GT_F);
    c->cmod = GC_GT;
}

static unsigned count_vreg_movs(const struct gen_program *p)
{
    unsigned n = 0;
    for (unsigned k = 0; k < p->ninst; k++)
        n += p->inst[k].op == GOP_MOV && p->inst[k].src[0].kind == GO_VREG &&
             p->inst[k].dst.kind == GO_VREG;
    return n;
}

/* Register of vreg operand o after allocation (renamed vregs are read through the instruction). */
static int32_t loc_of(const struct gen_program *p, const struct gen_opnd *o)
{
    assert_int_equal(o->kind, GO_VREG);
    return p->vreg[o->vreg].loc;
}

/*
 * fuzz-07's shape: a loop left by its count at the header and by a break
 * in the body, the exit value E a phi of both break edges, P the
 * loop-carried phi, N = P + 1 its next value:
 *
 *     P = x0
 *   L:  f0 = c > 0 ; (~f0) E = P ; (~f0) break
 *       N = P + 1
 *       f0 = N > 0 ; (f0) E = N ; (f0) break
 *       c = c + 1  ; P = N
 *     WHILE
 *     s = E + E ; EOT s
 *
 * Per channel: E is written only on the way out (the channel then stays
 * disabled until the loop ends), P is dead once N is computed, N dies at
 * the latch copy.  So E, P and N can be one register and all four copies
 * go, although the interval model sees E, P both alive over the whole loop.
 */
static void test_loop_exit_phi_shares_carried_register(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t x0 = gen_new_vreg(&p, 32, false), P = gen_new_vreg(&p, 32, false);
    uint32_t N = gen_new_vreg(&p, 32, false), E = gen_new_vreg(&p, 32, false);
    uint32_t c = gen_new_vreg(&p, 32, false), s = gen_new_vreg(&p, 32, false);
    def_imm(&p, x0, 0);
    def_imm(&p, c, 0);
    mov(&p, P, x0, GP_NONE);
    op(&p, GOP_LABEL, 8);
    cmp_gt0(&p, c);
    mov(&p, E, P, GP_INVERT);
    op(&p, GOP_BREAK, 8)->pred = GP_INVERT;
    add1(&p, N, P);
    cmp_gt0(&p, N);
    mov(&p, E, N, GP_NORMAL);
    op(&p, GOP_BREAK, 8)->pred = GP_NORMAL;
    add1(&p, c, c);
    mov(&p, P, N, GP_NONE);
    op(&p, GOP_WHILE, 8);
    use2(&p, s, E, E);
    eot(&p, s);
    assert_int_equal(count_vreg_movs(&p), 4);
    assert_true(gen_allocate(&p));
    assert_int_equal(count_vreg_movs(&p), 0);
    /* N = P + 1 writes P's register, and the final add reads E from it */
    const struct gen_inst *inc = NULL, *fin = NULL;
    for (unsigned k = 0; k < p.ninst; k++) {
        if (p.inst[k].op != GOP_ADD)
            continue;
        if (p.inst[k].src[1].kind == GO_VREG)
            fin = &p.inst[k];
        else if (!inc)
            inc = &p.inst[k]; /* the first add with an immediate: N = P + 1 */
    }
    assert_non_null(inc);
    assert_non_null(fin);
    assert_int_equal(loc_of(&p, &inc->dst), loc_of(&p, &inc->src[0]));
    assert_int_equal(loc_of(&p, &fin->src[0]), loc_of(&p, &inc->dst));
    /* the counter stays apart from it: both live through the loop */
    assert_true(p.vreg[c].loc != loc_of(&p, &inc->dst));
    gen_program_free(&p);
}

/*
 * SIMD32: the loop-carried value's first definition is two channel-group
 * writes, (16|M0) to bytes 0-63 and (16|M16) to bytes 64-127 (as the
 * interpolation and message copies are emitted per half).  Each half
 * writes its own channels' lanes, masked, so the value still takes part:
 * the exit phi, the carried phi and the next value share one register.
 */
static void test_half_written_value_coalesces(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 32);
    uint32_t P = gen_new_vreg(&p, 128, false), N = gen_new_vreg(&p, 128, false);
    uint32_t E = gen_new_vreg(&p, 128, false), c = gen_new_vreg(&p, 128, false);
    uint32_t s = gen_new_vreg(&p, 128, false);
    for (unsigned h = 0; h < 2; h++) {
        struct gen_inst *i = op(&p, GOP_MOV, 16);
        i->group = (uint8_t)(16 * h);
        i->dst = gen_vr(P, 64 * h, GT_F);
        i->src[0] = gen_imm(0x3f800000, GT_F);
    }
    def_imm(&p, c, 0);
    op(&p, GOP_LABEL, 32);
    cmp_gt0(&p, c);
    mov(&p, E, P, GP_INVERT);
    op(&p, GOP_BREAK, 32)->pred = GP_INVERT;
    add1(&p, N, P);
    cmp_gt0(&p, N);
    mov(&p, E, N, GP_NORMAL);
    op(&p, GOP_BREAK, 32)->pred = GP_NORMAL;
    add1(&p, c, c);
    mov(&p, P, N, GP_NONE);
    op(&p, GOP_WHILE, 32);
    use2(&p, s, E, E);
    eot(&p, s);
    assert_int_equal(count_vreg_movs(&p), 3);
    assert_true(gen_allocate(&p));
    assert_int_equal(count_vreg_movs(&p), 0);
    /* both halves write the register the loop then reads */
    int32_t r = -1;
    for (unsigned k = 0; k < p.ninst; k++)
        if (p.inst[k].op == GOP_ADD && p.inst[k].src[1].kind == GO_IMM && r < 0)
            r = loc_of(&p, &p.inst[k].src[0]);
    assert_true(r >= 0);
    assert_int_equal(loc_of(&p, &p.inst[0].dst), r);
    assert_int_equal(loc_of(&p, &p.inst[1].dst), r);
    gen_program_free(&p);
}

/*
 * t = v before a loop, t = t + 1 in it, v read only after the loop: inside
 * the loop v is alive only because the break leads there (and the back edge
 * leads to the break), so it is alive at t's redefinition: the copy must
 * stay and t, v get two registers.
 */
static void test_copy_across_break_interferes(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t v = gen_new_vreg(&p, 32, false), t = gen_new_vreg(&p, 32, false);
    uint32_t s = gen_new_vreg(&p, 32, false), r = gen_new_vreg(&p, 32, false);
    def_imm(&p, v, 0);
    def_imm(&p, s, 0);
    mov(&p, t, v, GP_NONE);
    op(&p, GOP_LABEL, 8);
    cmp_gt0(&p, s);
    op(&p, GOP_BREAK, 8)->pred = GP_NORMAL;
    add1(&p, t, t);
    use2(&p, s, s, t);
    op(&p, GOP_WHILE, 8);
    use2(&p, r, v, s);
    eot(&p, r);
    assert_true(gen_allocate(&p));
    assert_int_equal(count_vreg_movs(&p), 1);
    assert_true(p.vreg[t].loc >= 0 && p.vreg[v].loc >= 0);
    assert_true(p.vreg[t].loc != p.vreg[v].loc);
    gen_program_free(&p);
}

/*
 * b = a; a = a + 1; s = s + b in a loop body: the source is redefined while
 * the copy is still alive (and a is carried round the loop), so the copy
 * stays.
 */
static void test_copy_of_redefined_source_stays(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t a = gen_new_vreg(&p, 32, false), b = gen_new_vreg(&p, 32, false);
    uint32_t s = gen_new_vreg(&p, 32, false), r = gen_new_vreg(&p, 32, false);
    def_imm(&p, a, 0);
    def_imm(&p, s, 0);
    op(&p, GOP_LABEL, 8);
    mov(&p, b, a, GP_NONE);
    add1(&p, a, a);
    use2(&p, s, s, b);
    cmp_gt0(&p, s);
    op(&p, GOP_BREAK, 8)->pred = GP_NORMAL;
    op(&p, GOP_WHILE, 8);
    use2(&p, r, a, s);
    eot(&p, r);
    assert_true(gen_allocate(&p));
    assert_int_equal(count_vreg_movs(&p), 1);
    assert_true(p.vreg[a].loc != p.vreg[b].loc);
    gen_program_free(&p);
}

/*
 * An if-then join: J = a on the edge that skips the then-block (moves
 * predicated opposite to the IF), J = b at the end of the then-block.
 * Each channel writes J once, a dies at its copy, b is computed from a:
 * a, b and J share one register and both copies go.
 */
static void test_if_join_copies_coalesce(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 16);
    uint32_t a = gen_new_vreg(&p, 64, false), b = gen_new_vreg(&p, 64, false);
    uint32_t J = gen_new_vreg(&p, 64, false), s = gen_new_vreg(&p, 64, false);
    def_imm(&p, a, 0);
    cmp_gt0(&p, a);
    mov(&p, J, a, GP_NORMAL);
    op(&p, GOP_IF, 16)->pred = GP_INVERT;
    add1(&p, b, a);
    mov(&p, J, b, GP_NONE);
    op(&p, GOP_ENDIF, 16);
    use2(&p, s, J, J);
    eot(&p, s);
    assert_true(gen_allocate(&p));
    assert_int_equal(count_vreg_movs(&p), 0);
    for (unsigned k = 0; k < p.ninst; k++)
        if (p.inst[k].op == GOP_ADD && p.inst[k].src[1].kind == GO_IMM)
            assert_int_equal(loc_of(&p, &p.inst[k].dst), loc_of(&p, &p.inst[k].src[0]));
    gen_program_free(&p);
}

/*
 * A move predicated like the IF that follows it runs for the channels that
 * enter the then-block; it is not on the skipping edge.  Here J = y, then
 * (f0) J = a overwrites J for exactly the channels whose then-block reads
 * y: J and y must not share a register, the copy J = y stays.
 */
static void test_same_sense_moves_are_not_an_edge(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t a = gen_new_vreg(&p, 32, false), y = gen_new_vreg(&p, 32, false);
    uint32_t J = gen_new_vreg(&p, 32, false), s = gen_new_vreg(&p, 32, false);
    uint32_t r = gen_new_vreg(&p, 32, false);
    def_imm(&p, a, 0);
    def_imm(&p, y, 0);
    mov(&p, J, y, GP_NONE);
    cmp_gt0(&p, a);
    mov(&p, J, a, GP_NORMAL);
    op(&p, GOP_IF, 8)->pred = GP_NORMAL;
    use2(&p, s, y, y);
    op(&p, GOP_ENDIF, 8);
    use2(&p, r, J, s);
    eot(&p, r);
    assert_true(gen_allocate(&p));
    bool kept = false;
    for (unsigned k = 0; k < p.ninst; k++)
        if (p.inst[k].op == GOP_MOV && p.inst[k].pred == GP_NONE &&
            p.inst[k].src[0].kind == GO_VREG) {
            kept = true;
            assert_true(loc_of(&p, &p.inst[k].dst) != loc_of(&p, &p.inst[k].src[0]));
        }
    assert_true(kept);
    gen_program_free(&p);
}

/*
 * A value written twice, each time by an unpredicated whole-width SIMD
 * write outside control flow (a coalesced phi has such definitions), then
 * spilled: every channel is written by each definition, so no fill is
 * needed before either; a predicated second write keeps the other channels'
 * values and needs one.
 */
static void spill_two_defs(bool predicated, unsigned *fills_before_defs, unsigned *spilled_defs)
{
    struct gen_program p;
    prog_init(&p, 8);
    /*
     * M computed fillers that may not be spilled, v0, w (read once at the
     * end) and the sum s: M + 4 GRFs with r0 at the peak, one more than the
     * file.  v0 and w are the cheap ones to spill (two, as the scratch
     * header then takes a register); s is read and written everywhere.
     */
    enum { M = 125 };
    uint32_t x = gen_new_vreg(&p, 32, false), w = gen_new_vreg(&p, 32, false);
    uint32_t v0 = gen_new_vreg(&p, 32, false), f[M];
    p.vreg[x].no_spill = true;
    def_imm(&p, x, 0);
    def_from(&p, w, x);
    def_imm(&p, v0, 0);
    cmp_gt0(&p, v0);
    def_imm(&p, v0, 0); /* the second definition of v0 */
    p.inst[p.ninst - 1].pred = predicated ? GP_NORMAL : GP_NONE;
    for (unsigned k = 0; k < M; k++) {
        f[k] = gen_new_vreg(&p, 32, false);
        def_from(&p, f[k], x);
        p.vreg[f[k]].no_spill = true;
    }
    uint32_t s = gen_new_vreg(&p, 32, false);
    def_imm(&p, s, 0);
    for (unsigned k = M; k-- > 0;)
        use2(&p, s, s, f[k]);
    use2(&p, s, s, w);
    use2(&p, s, s, v0);
    eot(&p, s);
    uint32_t v[1] = {v0};
    assert_true(gen_allocate(&p));
    assert_true(p.vreg[v[0]].spill_slot >= 0);
    *fills_before_defs = *spilled_defs = 0;
    for (unsigned k = 0; k < p.ninst; k++) {
        const struct gen_inst *i = &p.inst[k];
        /* the definitions of v0 now write temporaries that are spilled to v0's slot */
        if (!i->spill || (int32_t)(p.inst[k - 1].src[0].imm * 16) != p.vreg[v[0]].spill_slot)
            continue;
        (*spilled_defs)++;
        unsigned j = k;
        while (j > 0 && spill_code(&p, j - 1))
            j--;
        const struct gen_inst *d = &p.inst[j - 1]; /* the definition */
        assert_true(d->dst.kind == GO_VREG && d->dst.vreg == i->src[1].vreg);
        /* a fill of the same temporary right before the definition? */
        unsigned f = j - 1;
        while (f > 0 && spill_code(&p, f - 1)) {
            if (p.inst[f - 1].fill && p.inst[f - 1].dst.vreg == d->dst.vreg)
                (*fills_before_defs)++;
            f--;
        }
    }
    gen_program_free(&p);
}

static void test_spilled_whole_defs_need_no_fill(void **state)
{
    (void)state;
    unsigned fills, defs;
    spill_two_defs(false, &fills, &defs);
    assert_int_equal(defs, 2);
    assert_int_equal(fills, 0);
    spill_two_defs(true, &fills, &defs);
    assert_int_equal(defs, 2);
    assert_int_equal(fills, 1);
}


/* ---- register classes, places, spill choice and rematerialization ---- */

/* A message block of g GRFs that may not be spilled, written whole, alive until read_block. */
static uint32_t fill_block(struct gen_program *p, unsigned g)
{
    uint32_t b = gen_new_vreg(p, g * GEN_GRF_SIZE, false);
    p->vreg[b].no_spill = true;
    for (unsigned k = 0; k < g; k++) {
        struct gen_inst *i = op(p, GOP_MOV, 8);
        i->dst = gen_vr(b, k * GEN_GRF_SIZE, GT_F);
        i->src[0] = gen_imm(0x40000000, GT_F);
    }
    return b;
}

static void read_block(struct gen_program *p, uint32_t b)
{
    struct gen_inst *i = op(p, GOP_SEND, 8);
    i->dst = gen_null(GT_UD);
    i->src[0] = gen_vr(b, 0, GT_UD);
    i->sfid = 6;
    i->exdesc = 6;
}

static unsigned count_messages(const struct gen_program *p)
{
    unsigned n = 0;
    for (unsigned k = 0; k < p->ninst; k++)
        n += p->inst[k].spill || p->inst[k].fill;
    return n;
}

/*
 * SIMD16 and SIMD32: a divergent dword is 2 and 4 GRFs, GRF aligned and
 * contiguous, and a 3-GRF block beside them too; eight values alive
 * together take 8 x size bytes without overlap.
 */
static void test_wide_classes(void **state)
{
    (void)state;
    for (unsigned simd = 16; simd <= 32; simd *= 2) {
        struct gen_program p;
        prog_init(&p, simd);
        uint32_t v[8], blk = fill_block(&p, 3);
        for (unsigned k = 0; k < 8; k++) {
            v[k] = gen_new_vreg(&p, 4 * simd, false);
            def_from(&p, v[k], k ? v[k - 1] : v[0]);
        }
        uint32_t s = gen_new_vreg(&p, 4 * simd, false);
        def_imm(&p, s, 0);
        for (unsigned k = 0; k < 8; k++)
            use2(&p, s, s, v[k]);
        read_block(&p, blk);
        eot(&p, s);
        assert_true(gen_allocate(&p));
        for (unsigned k = 0; k < 8; k++) {
            assert_int_equal(p.vreg[v[k]].loc % GEN_GRF_SIZE, 0);
            assert_int_equal(p.vreg[v[k]].size, 4 * simd);
        }
        assert_int_equal(p.vreg[blk].loc % GEN_GRF_SIZE, 0);
        assert_int_equal(p.spills, 0);
        assert_no_conflicts(&p);
        gen_program_free(&p);
    }
}

/*
 * Sub-GRF values (a SIMD8 half-float value will be 16 bytes): aligned to
 * their size, never across a GRF boundary, and two alive together share
 * one GRF, beside uniform dwords packed in the same way.
 */
static void test_sub_grf_values_pack(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t h[4], u[4];
    for (unsigned k = 0; k < 4; k++) {
        h[k] = gen_new_vreg(&p, 16, false);
        struct gen_inst *i = op(&p, GOP_MOV, 4);
        i->dst = gen_vr(h[k], 0, GT_F);
        i->src[0] = gen_imm(0x3f800000 + k, GT_F);
        u[k] = gen_new_vreg(&p, 4, true);
        def_imm(&p, u[k], 0);
    }
    uint32_t acc = gen_new_vreg(&p, 32, false);
    def_imm(&p, acc, 0);
    for (unsigned k = 0; k < 4; k++) {
        struct gen_inst *i = op(&p, GOP_ADD, 4);
        i->dst = gen_vr(acc, 0, GT_F);
        i->src[0] = gen_vr(acc, 0, GT_F);
        i->src[1] = gen_vr(h[k], 0, GT_F);
        use2(&p, acc, acc, u[k]);
    }
    eot(&p, acc);
    assert_true(gen_allocate(&p));
    assert_int_equal(p.vreg[h[0]].align, 16);
    bool grf[GEN_NUM_GRFS] = {false};
    unsigned ngrfs = 0;
    for (unsigned k = 0; k < 4; k++) {
        int32_t loc = p.vreg[h[k]].loc;
        assert_int_equal(loc % 16, 0);
        assert_true(loc % GEN_GRF_SIZE + 16 <= GEN_GRF_SIZE);
        assert_int_equal(p.vreg[u[k]].loc % 4, 0);
        int32_t g[2] = {loc / GEN_GRF_SIZE, p.vreg[u[k]].loc / GEN_GRF_SIZE};
        for (unsigned j = 0; j < 2; j++)
            if (!grf[g[j]]) {
                grf[g[j]] = true;
                ngrfs++;
            }
    }
    /* four 16-byte values and four dwords alive together, 80 bytes: three GRFs */
    assert_int_equal(ngrfs, 3);
    assert_no_conflicts(&p);
    gen_program_free(&p);
}

/* b = a + 1 where a dies: b is written over a (divergent and uniform alike). */
static void test_destination_takes_dying_source(void **state)
{
    (void)state;
    for (unsigned uniform = 0; uniform < 2; uniform++) {
        struct gen_program p;
        prog_init(&p, 16);
        uint32_t a = gen_new_vreg(&p, uniform ? 4 : 64, uniform);
        uint32_t c = gen_new_vreg(&p, uniform ? 4 : 64, uniform);
        uint32_t b = gen_new_vreg(&p, uniform ? 4 : 64, uniform);
        uint32_t s = gen_new_vreg(&p, 64, false);
        def_imm(&p, a, 0);
        def_imm(&p, c, 0);
        def_from(&p, b, a); /* a's last use */
        use2(&p, s, b, c);
        eot(&p, s);
        assert_true(gen_allocate(&p));
        assert_int_equal(p.vreg[b].loc, p.vreg[a].loc);
        assert_true(p.vreg[c].loc != p.vreg[a].loc);
        assert_no_conflicts(&p);
        gen_program_free(&p);
    }
}

/*
 * Spill choice by cost: a block of 123 GRFs that may not be spilled, r0,
 * and A (read in a loop), B and C (read after it), the loop's sum s and a
 * temporary t: 129 GRFs in the loop, one too many, and two too many once
 * the scratch header takes its register.  A use in a loop weighs 8: B and
 * C (one definition, one use each) go to scratch, A stays in a register.
 */
static void test_spill_choice_weighs_loops(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t F = fill_block(&p, 123);
    uint32_t A = gen_new_vreg(&p, 32, false), B = gen_new_vreg(&p, 32, false);
    uint32_t C = gen_new_vreg(&p, 32, false), S = gen_new_vreg(&p, 32, false);
    uint32_t t = gen_new_vreg(&p, 32, false), r = gen_new_vreg(&p, 32, false);
    def_from(&p, A, F);
    def_from(&p, B, F);
    def_from(&p, C, F);
    def_imm(&p, S, 0);
    op(&p, GOP_LABEL, 8);
    def_from(&p, t, A);
    use2(&p, S, S, t);
    cmp_gt0(&p, S);
    op(&p, GOP_BREAK, 8)->pred = GP_NORMAL;
    op(&p, GOP_WHILE, 8);
    use2(&p, r, S, B);
    use2(&p, r, r, C);
    read_block(&p, F);
    eot(&p, r);
    assert_true(gen_allocate(&p));
    assert_true(p.vreg[B].spill_slot >= 0);
    assert_true(p.vreg[C].spill_slot >= 0);
    assert_int_equal(p.vreg[A].spill_slot, -1);
    assert_true(p.vreg[A].loc >= 0);
    /* spill code sits outside the loop: a store after each definition, a fill before each use */
    assert_int_equal(p.spills, 2);
    assert_int_equal(p.fills, 2);
    int label = -1, loop_end = -1;
    for (unsigned k = 0; k < p.ninst; k++) {
        if (p.inst[k].op == GOP_LABEL)
            label = (int)k;
        if (p.inst[k].op == GOP_WHILE)
            loop_end = (int)k;
    }
    for (unsigned k = 0; k < p.ninst; k++)
        if (p.inst[k].spill || p.inst[k].fill)
            assert_true((int)k < label || (int)k > loop_end);
    gen_program_free(&p);
}

/*
 * An immediate is recomputed where it is read instead of spilled.  A block
 * of 123 GRFs that may not be spilled, r0, K1 and K2 (movs of immediates,
 * read near the end), and values x -> y -> z computed from the block: 129
 * GRFs where z is defined (a destination written over a dying source, as
 * y over x, needs no room of its own).  One value must go: recomputing K2
 * costs one mov and no scratch message, and K2 lives longer than K1, so K2
 * is rematerialized, nothing is spilled, a mov of K2's immediate writes a
 * temporary right before its reader and K2's own definition is gone.
 * Uniform dwords take an eighth of a GRF: nine of them are two GRFs, and
 * one more GRF of block makes exactly one go, the one read last.
 */
static void test_remat_immediate(void **state)
{
    (void)state;
    for (unsigned uniform = 0; uniform < 2; uniform++) {
        struct gen_program p;
        prog_init(&p, 8);
        unsigned nk = uniform ? 9 : 2;
        uint32_t F = fill_block(&p, 124), K[9];
        for (unsigned k = 0; k < nk; k++) {
            K[k] = gen_new_vreg(&p, uniform ? 4 : 32, uniform);
            def_imm(&p, K[k], 0);
            p.inst[p.ninst - 1].src[0].imm = 0x40400000 + k; /* 3.0 and a little more */
        }
        uint32_t x = gen_new_vreg(&p, 32, false), y = gen_new_vreg(&p, 32, false);
        uint32_t z = gen_new_vreg(&p, 32, false), r = gen_new_vreg(&p, 32, false);
        def_from(&p, x, F);
        def_from(&p, y, x);
        def_from(&p, z, y);
        use2(&p, r, y, K[0]);
        use2(&p, r, r, z);
        for (unsigned k = 1; k < nk; k++)
            use2(&p, r, r, K[k]);
        read_block(&p, F);
        eot(&p, r);
        assert_true(gen_allocate(&p));
        assert_int_equal(count_messages(&p), 0);
        assert_int_equal(p.spills, 0);
        for (unsigned k = 0; k + 1 < nk; k++)
            assert_false(p.vreg[K[k]].rematerialized);
        assert_true(p.vreg[K[nk - 1]].rematerialized);
        uint32_t last_imm = 0x40400000 + nk - 1;
        unsigned movs_of_last = 0;
        for (unsigned k = 0; k < p.ninst; k++) {
            const struct gen_inst *i = &p.inst[k];
            if (i->op == GOP_MOV && i->src[0].kind == GO_IMM && i->src[0].imm == last_imm) {
                movs_of_last++;
                /* into a temporary read by the very next instruction */
                assert_true(i->dst.vreg != K[nk - 1]);
                assert_true(k + 1 < p.ninst);
                assert_int_equal(p.inst[k + 1].src[1].kind, GO_VREG);
                assert_int_equal(p.inst[k + 1].src[1].vreg, i->dst.vreg);
            }
        }
        assert_int_equal(movs_of_last, 1);
        assert_no_conflicts(&p);
        gen_program_free(&p);
    }
}

/* v = pln(setup at setup_byte, barycentrics r1-r2), as a pixel shader's payload has them */
static void def_pln(struct gen_program *p, uint32_t v, unsigned setup_byte)
{
    struct gen_inst *i = op(p, GOP_PLN, 8);
    i->dst = gen_vr(v, 0, GT_F);
    i->src[0] = gen_fixed(setup_byte, GT_F, GR_SCALAR);
    i->src[1] = gen_fixed(1 * GEN_GRF_SIZE, GT_F, GR_VEC);
}

/*
 * An interpolant is recomputed from the payload only while the payload is
 * alive anyway.  With a second interpolation reading the same setup and
 * barycentric registers at the end, evicting P costs one pln before its
 * reader: rematerialized, no scratch.  Without it the payload dies at P's
 * definition, recomputing would keep it alive: P is spilled instead.
 */
static void test_remat_interpolant_needs_live_payload(void **state)
{
    (void)state;
    for (unsigned live = 0; live < 2; live++) {
        struct gen_program p;
        prog_init(&p, 8);
        /*
         * r0-r3 of payload until the last pln, the block, then P
         * and a chain x -> y -> z: 129 GRFs where z is defined, with 122
         * GRFs of block while the payload is alive; without the second pln,
         * three more values W1-W3 (each read twice, dearer than P) take its
         * place.
         */
        uint32_t F = fill_block(&p, 122);
        uint32_t P = gen_new_vreg(&p, 32, false), W1 = gen_new_vreg(&p, 32, false);
        uint32_t W2 = gen_new_vreg(&p, 32, false), W3 = gen_new_vreg(&p, 32, false);
        uint32_t x = gen_new_vreg(&p, 32, false), y = gen_new_vreg(&p, 32, false);
        uint32_t z = gen_new_vreg(&p, 32, false), r = gen_new_vreg(&p, 32, false);
        uint32_t Q = gen_new_vreg(&p, 32, false);
        def_pln(&p, P, 3 * GEN_GRF_SIZE);
        if (!live) {
            def_from(&p, W1, F);
            def_from(&p, W2, F);
            def_from(&p, W3, F);
        }
        def_from(&p, x, F);
        def_from(&p, y, x);
        def_from(&p, z, y);
        use2(&p, r, y, z);
        use2(&p, r, r, P);
        if (live) {
            def_pln(&p, Q, 3 * GEN_GRF_SIZE + 16);
            use2(&p, r, r, Q);
        } else {
            for (unsigned twice = 0; twice < 2; twice++) {
                use2(&p, r, r, W1);
                use2(&p, r, r, W2);
                use2(&p, r, r, W3);
            }
        }
        read_block(&p, F);
        eot(&p, r);
        assert_true(gen_allocate(&p));
        assert_int_equal(p.vreg[P].rematerialized, live);
        if (live) {
            assert_int_equal(p.spills, 0);
            unsigned plns = 0;
            for (unsigned k = 0; k < p.ninst; k++) {
                const struct gen_inst *i = &p.inst[k];
                plns += i->op == GOP_PLN;
                /* P's pln now sits right before its reader */
                if (i->op == GOP_PLN && i->src[0].off == 3 * GEN_GRF_SIZE) {
                    assert_true(k + 1 < p.ninst);
                    assert_int_equal(p.inst[k + 1].src[1].vreg, i->dst.vreg);
                }
            }
            assert_int_equal(plns, 2);
        } else {
            assert_true(p.vreg[P].spill_slot >= 0);
            assert_true(p.spills > 0);
        }
        assert_no_conflicts(&p);
        gen_program_free(&p);
    }
}

/*
 * SIMD semantics: x is defined before an IF and read only in the ELSE.
 * While the then-block runs, the channels that will take the else-block
 * wait with x in their lanes, so a NoMask write there (a message header,
 * which writes every channel) must not share x's register, although on
 * every single channel's path x is dead in the then-block.
 */
static void test_nomask_write_in_then_block_spares_else_value(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t x = gen_new_vreg(&p, 32, false), y = gen_new_vreg(&p, 32, false);
    uint32_t h = gen_new_vreg(&p, 32, false);
    p.vreg[h].no_spill = true;
    def_imm(&p, y, 0);
    def_from(&p, x, y);
    cmp_gt0(&p, y);
    op(&p, GOP_IF, 8)->pred = GP_NORMAL;
    struct gen_inst *m = op(&p, GOP_MOV, 8);
    m->nomask = true;
    m->dst = gen_vr(h, 0, GT_UD);
    m->src[0] = gen_fixed(0, GT_UD, GR_VEC);
    read_block(&p, h);
    op(&p, GOP_ELSE, 8);
    def_from(&p, y, x);
    op(&p, GOP_ENDIF, 8);
    eot(&p, y);
    assert_true(gen_allocate(&p));
    assert_true(p.vreg[h].loc >= 0 && p.vreg[x].loc >= 0);
    assert_true(p.vreg[h].loc != p.vreg[x].loc);
    gen_program_free(&p);
}

/*
 * The EOT payload must lie in r112-r127, so values alive across its first
 * write cannot use those registers.  A 110-GRF block read before the
 * payload is written, and nine values copied into the nine payload GRFs:
 * 121 GRFs at most at any point, but only if the block (dead by then) is
 * the one that takes the payload's registers and the nine values stay
 * below them.
 */
static void test_values_across_eot_payload_stay_below(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t F = fill_block(&p, 110), v[9];
    for (unsigned k = 0; k < 9; k++) {
        v[k] = gen_new_vreg(&p, 32, false);
        def_from(&p, v[k], F);
    }
    read_block(&p, F);
    uint32_t msg = gen_new_vreg(&p, 9 * GEN_GRF_SIZE, false);
    p.vreg[msg].no_spill = true;
    p.vreg[msg].grf_lo = GEN_EOT_FIRST_GRF;
    for (unsigned k = 0; k < 9; k++) {
        struct gen_inst *i = op(&p, GOP_MOV, 8);
        i->dst = gen_vr(msg, k * GEN_GRF_SIZE, GT_F);
        i->src[0] = gen_vr(v[k], 0, GT_F);
    }
    eot(&p, msg);
    assert_true(gen_allocate(&p));
    assert_int_equal(p.spills, 0);
    assert_true(p.vreg[msg].loc >= GEN_EOT_FIRST_GRF * GEN_GRF_SIZE);
    for (unsigned k = 1; k < 9; k++)
        assert_true(p.vreg[v[k]].loc + 32 <= p.vreg[msg].loc ||
                    p.vreg[v[k]].loc >= p.vreg[msg].loc + 9 * GEN_GRF_SIZE);
    assert_no_conflicts(&p);
    gen_program_free(&p);
}

/* Many values spilled in one allocation: every one gets its slot, nothing overlaps. */
static void test_many_spills_at_once(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    enum { N = 400 };
    uint32_t v[N];
    uint32_t x = gen_new_vreg(&p, 32, false);
    def_imm(&p, x, 0);
    for (unsigned k = 0; k < N; k++) {
        v[k] = gen_new_vreg(&p, 32, false);
        def_from(&p, v[k], k ? v[k - 1] : x);
    }
    uint32_t s = gen_new_vreg(&p, 32, false);
    def_imm(&p, s, 0);
    for (unsigned k = N; k-- > 0;)
        use2(&p, s, s, v[k]);
    eot(&p, s);
    assert_true(gen_allocate(&p));
    /* at least N - 126 values cannot stay in registers */
    assert_true(p.spills >= N - 126);
    assert_true(p.fills >= N - 126);
    assert_true(p.layout.scratch_bytes >= (N - 126) * 32);
    assert_no_conflicts(&p);
    gen_program_free(&p);
}

/*
 * Scratch slots are shared by spilled values that are never alive
 * together: two phases of 140 values each, summed one phase after the
 * other.  Values of one phase overlap and get distinct slots; the second
 * phase reuses the first one's, so the scratch space is that of one phase.
 */
static void test_spill_slots_shared(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    enum { N = 140 };
    uint32_t v[2][N], s[2];
    uint32_t x = gen_new_vreg(&p, 32, false);
    def_imm(&p, x, 0);
    for (unsigned ph = 0; ph < 2; ph++) {
        for (unsigned k = 0; k < N; k++) {
            v[ph][k] = gen_new_vreg(&p, 32, false);
            def_from(&p, v[ph][k], k ? v[ph][k - 1] : x);
        }
        s[ph] = gen_new_vreg(&p, 32, false);
        def_imm(&p, s[ph], 0);
        for (unsigned k = N; k-- > 0;)
            use2(&p, s[ph], s[ph], v[ph][k]);
        if (ph == 0) {
            uint32_t y = gen_new_vreg(&p, 32, false);
            use2(&p, y, s[0], x); /* x carries on into the second phase */
            x = y;
        }
    }
    uint32_t r = gen_new_vreg(&p, 32, false);
    use2(&p, r, s[0], s[1]);
    eot(&p, r);
    assert_true(gen_allocate(&p));
    unsigned spilled[2] = {0, 0};
    bool shared = false;
    for (unsigned ph = 0; ph < 2; ph++)
        for (unsigned k = 0; k < N; k++) {
            int32_t slot = p.vreg[v[ph][k]].spill_slot;
            if (slot < 0)
                continue;
            spilled[ph]++;
            for (unsigned j = 0; j < k; j++)
                assert_true(p.vreg[v[ph][j]].spill_slot != slot);
            if (ph == 1)
                for (unsigned j = 0; j < N; j++)
                    shared |= p.vreg[v[0][j]].spill_slot == slot;
        }
    assert_true(spilled[0] > 0 && spilled[1] > 0);
    assert_true(shared);
    unsigned most = spilled[0] > spilled[1] ? spilled[0] : spilled[1];
    assert_true(p.layout.scratch_bytes <= (most + 2) * 32);
    assert_no_conflicts(&p);
    gen_program_free(&p);
}

/* A value carried round a loop that only feeds itself is dead code. */
static void test_dce_removes_dead_cycle(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t a = gen_new_vreg(&p, 32, false), s = gen_new_vreg(&p, 32, false);
    def_imm(&p, a, 0);
    def_imm(&p, s, 0);
    op(&p, GOP_LABEL, 8);
    use2(&p, s, s, a);
    cmp_gt0(&p, a);
    op(&p, GOP_BREAK, 8)->pred = GP_NORMAL;
    op(&p, GOP_WHILE, 8);
    eot(&p, a);
    gen_dce(&p);
    for (unsigned k = 0; k < p.ninst; k++)
        assert_false(p.inst[k].dst.kind == GO_VREG && p.inst[k].dst.vreg == s);
    /* the compare feeding the break stays */
    assert_int_equal(p.ninst, 6);
    gen_program_free(&p);
}

static void test_dce_removes_unused(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t a = gen_new_vreg(&p, 32, false), dead = gen_new_vreg(&p, 32, false);
    def_imm(&p, a, 0);
    def_imm(&p, dead, 0);
    struct gen_inst *c = op(&p, GOP_CMP, 8); /* flag nobody reads */
    c->cmod = GC_LT;
    c->dst = gen_null(GT_F);
    c->src[0] = gen_vr(a, 0, GT_F);
    c->src[1] = gen_imm(0, GT_F);
    eot(&p, a);
    gen_dce(&p);
    assert_int_equal(p.ninst, 2);
    assert_int_equal(p.inst[0].dst.vreg, a);
    gen_program_free(&p);
}

/*
 * csel's conditional modifier only chooses (it leaves the flag alone, as
 * sel's does): a predicated instruction after a csel reads the flag the
 * compare before it wrote, so that compare stays.
 */
static void test_dce_csel_does_not_write_flag(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t a = gen_new_vreg(&p, 32, false), b = gen_new_vreg(&p, 32, false);
    uint32_t c = gen_new_vreg(&p, 32, false), d = gen_new_vreg(&p, 32, false);
    def_imm(&p, a, 0);
    def_imm(&p, b, 0);
    def_imm(&p, c, 0);
    struct gen_inst *i = op(&p, GOP_CMP, 8); /* f0.0 = a < 0 */
    i->cmod = GC_LT;
    i->dst = gen_null(GT_F);
    i->src[0] = gen_vr(a, 0, GT_F);
    i->src[1] = gen_imm(0, GT_F);
    i = op(&p, GOP_CSEL, 8); /* d = c < 0 ? a : b */
    i->cmod = GC_LT;
    i->dst = gen_vr(d, 0, GT_F);
    i->src[0] = gen_vr(a, 0, GT_F);
    i->src[1] = gen_vr(b, 0, GT_F);
    i->src[2] = gen_vr(c, 0, GT_F);
    i = op(&p, GOP_MOV, 8); /* (f0.0) d = b */
    i->pred = GP_NORMAL;
    i->dst = gen_vr(d, 0, GT_F);
    i->src[0] = gen_vr(b, 0, GT_F);
    eot(&p, d);
    gen_dce(&p);
    assert_int_equal(p.ninst, 7);
    assert_int_equal(p.inst[3].op, GOP_CMP);
    gen_program_free(&p);
}

/* gen_verify: a well-formed allocated program passes; each broken copy
 * of it is caught, with one error naming the step. */
static void test_verifier(void **state)
{
    (void)state;
    struct gen_program p;
    prog_init(&p, 8);
    uint32_t a = gen_new_vreg(&p, 32, false), b = gen_new_vreg(&p, 32, false);
    uint32_t s = gen_new_vreg(&p, 32, false);
    def_imm(&p, a, 0);
    def_imm(&p, b, 0);
    use2(&p, s, a, b);
    eot(&p, s);
    struct st_ctx *ctx = st_ctx_create("v.asm", "", 0, 10);
    struct st_loc at = {1, 1};
    assert_true(gen_verify(ctx, at, &p, "selection", false));
    assert_false(gen_verify(ctx, at, &p, "allocation", true)); /* nothing placed yet */
    assert_true(gen_allocate(&p));
    assert_true(gen_verify(ctx, at, &p, "allocation", true));
    unsigned errors = st_error_count(ctx);
    struct gen_inst keep = p.inst[2];
    p.inst[2].src[1].vreg = p.nvreg; /* a vreg that does not exist */
    assert_false(gen_verify(ctx, at, &p, "a test", false));
    p.inst[2] = keep;
    p.inst[2].src[0].off = 32; /* past the end of a 32-byte vreg */
    assert_false(gen_verify(ctx, at, &p, "a test", false));
    p.inst[2] = keep;
    p.inst[2].exec = 12;
    assert_false(gen_verify(ctx, at, &p, "a test", false));
    p.inst[2] = keep;
    p.inst[2].dst = gen_imm(0, GT_F);
    assert_false(gen_verify(ctx, at, &p, "a test", false));
    p.inst[2] = keep;
    p.inst[2].op = GOP_AND; /* takes no source modifier */
    p.inst[2].src[0].neg = true;
    assert_false(gen_verify(ctx, at, &p, "a test", false));
    p.inst[2] = keep;
    p.vreg[s].loc = GEN_FILE_BYTES - 16; /* runs past the file */
    assert_false(gen_verify(ctx, at, &p, "a test", true));
    assert_int_equal(st_error_count(ctx), errors + 6);
    gen_program_free(&p);

    /* flow: an endif without its if, a while without its loop start */
    prog_init(&p, 8);
    op(&p, GOP_ENDIF, 8);
    assert_false(gen_verify(ctx, at, &p, "a test", false));
    gen_program_free(&p);
    prog_init(&p, 8);
    op(&p, GOP_LABEL, 8);
    op(&p, GOP_IF, 8);
    op(&p, GOP_WHILE, 8);
    assert_false(gen_verify(ctx, at, &p, "a test", false));
    gen_program_free(&p);
    st_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes_and_alignment),
        cmocka_unit_test(test_partial_grf_block),
        cmocka_unit_test(test_uniform_packing),
        cmocka_unit_test(test_payload_contiguity_and_eot_range),
        cmocka_unit_test(test_dead_registers_are_reused),
        cmocka_unit_test(test_loop_keeps_values_alive),
        cmocka_unit_test(test_copies_coalesce),
        cmocka_unit_test(test_copy_of_live_value_stays),
        cmocka_unit_test(test_loop_latch_copy_coalesces),
        cmocka_unit_test(test_loop_latch_copy_needs_dead_value),
        cmocka_unit_test(test_loop_exit_phi_shares_carried_register),
        cmocka_unit_test(test_half_written_value_coalesces),
        cmocka_unit_test(test_copy_across_break_interferes),
        cmocka_unit_test(test_copy_of_redefined_source_stays),
        cmocka_unit_test(test_if_join_copies_coalesce),
        cmocka_unit_test(test_same_sense_moves_are_not_an_edge),
        cmocka_unit_test(test_spill_and_fill_placement),
        cmocka_unit_test(test_spilled_whole_defs_need_no_fill),
        cmocka_unit_test(test_wide_classes),
        cmocka_unit_test(test_sub_grf_values_pack),
        cmocka_unit_test(test_destination_takes_dying_source),
        cmocka_unit_test(test_spill_choice_weighs_loops),
        cmocka_unit_test(test_remat_immediate),
        cmocka_unit_test(test_remat_interpolant_needs_live_payload),
        cmocka_unit_test(test_nomask_write_in_then_block_spares_else_value),
        cmocka_unit_test(test_values_across_eot_payload_stay_below),
        cmocka_unit_test(test_many_spills_at_once),
        cmocka_unit_test(test_spill_slots_shared),
        cmocka_unit_test(test_dce_removes_dead_cycle),
        cmocka_unit_test(test_dce_removes_unused),
        cmocka_unit_test(test_dce_csel_does_not_write_flag),
        cmocka_unit_test(test_verifier),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
