/*
 * gen/indirect.c — the register-indirect pseudo-instructions (gen_ir.h:
 * GOP_MOVI, GOP_BCAST) as the native instructions they stand for.
 *
 * Gen9 reads a register whose number is only known at run time through
 * the address register a0 (../shared/docs/gen9-target.md section 6):
 * `r[a0.0, imm]<v;w,h>` (Vx1: one address for the instruction) or
 * `r[a0.0, imm]<w,h>` (VxH: channel n uses a0.n).  The selection never
 * names a0: each pseudo-instruction sets it and reads through it in one
 * piece, printed here after allocation, so that no step between selection
 * and printing (clean-ups, scheduling, allocation, spilling) can separate
 * a write of a0 from its reads or put another between them.  The address
 * immediate is 10 bits signed (Mesa brw_inst.h, AddrImm[9:0]); offsets
 * up to 511 are folded into it, larger bases are added to a0 first.
 */
#include <stdarg.h>
#include <stdio.h>

#include "gen_ir.h"

enum { IMM_MAX = 511 };

static uint32_t addr_of(const struct gen_program *p, const struct gen_opnd *o)
{
    if (o->kind == GO_FIXED)
        return o->off;
    if (o->kind != GO_VREG || o->vreg >= p->nvreg)
        return 0;
    int32_t loc = p->vreg[o->vreg].loc;
    return (uint32_t)(loc < 0 ? 0 : loc) + o->off;
}

static unsigned popcount4(unsigned x)
{
    return (x & 1) + (x >> 1 & 1) + (x >> 2 & 1) + (x >> 3 & 1);
}

/* Does the largest offset the reads use fit the address immediate? */
static bool imm_fits(const struct gen_inst *i)
{
    return gen_movi_base(i) + 16u * (gen_movi_span(i) - 1) + 12u <= IMM_MAX;
}

/* Byte offset of component c in an input register (gen_ir.h, GEN_MOVI_INPUT). */
static uint32_t input_comp_off(const struct gen_program *p, unsigned c)
{
    return p->layout.stage == ST_VS ? 32u * c : 32u * (c >> 1) + 16u * (c & 1);
}

unsigned gen_indirect_count(const struct gen_program *p, const struct gen_inst *i)
{
    if (i->op == GOP_BCAST)
        return addr_of(p, &i->src[0]) > IMM_MAX ? 6 : 5;
    if (gen_movi_input(i))
        return (gen_movi_base(i) + input_comp_off(p, 3) <= IMM_MAX ? 1 : 2) +
               popcount4(gen_movi_comps(i));
    unsigned setup = imm_fits(i) ? 1 : 2, span = gen_movi_span(i), vecs = gen_movi_vecs(i);
    if (i->exec == 1) {
        unsigned movs = 0;
        for (unsigned v = 0; v < span; v += 2)
            movs += (vecs >> v & 3) != 0;
        return setup + movs;
    }
    unsigned halves = i->exec == 32 ? 2 : 1, n = 0;
    for (unsigned v = 0; v < span; v++)
        n += vecs >> v & 1;
    return halves * (setup + n * popcount4(gen_movi_comps(i)));
}

/* One native instruction: the (W) column, then the text. */
static void line(struct st_buf *out, bool nomask, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void line(struct st_buf *out, bool nomask, const char *fmt, ...)
{
    st_buf_printf(out, "%-10s", nomask ? "(W)" : "");
    va_list ap;
    va_start(ap, fmt);
    st_buf_vprintf(out, fmt, ap);
    va_end(ap);
    st_buf_putc(out, '\n');
}

/* rN.s with s in units of `size` bytes */
static void reg_name(char *buf, size_t n, uint32_t byte, unsigned size)
{
    snprintf(buf, n, "r%u.%u", byte / GEN_GRF_SIZE, (byte % GEN_GRF_SIZE) / size);
}

/* An input register through a uniform index: a0.0 = index * 128 (a vertex
 * attribute's 4 GRFs) or * 64 (a pixel shader's 2 setup GRFs), then one
 * mov per component: the component's GRF (vertices), or its 4-dword setup
 * group into a 16-byte slot (pln reads it there). */
static void print_input(const struct gen_program *p, const struct gen_inst *i, struct st_buf *out)
{
    char idx[24], dst[24];
    bool vs = p->layout.stage == ST_VS;
    uint32_t base = gen_movi_base(i), d = addr_of(p, &i->dst);
    bool fits = base + input_comp_off(p, 3) <= IMM_MAX;
    reg_name(idx, sizeof(idx), addr_of(p, &i->src[0]), 2);
    line(out, true, "shl (1|M0)      a0.0<1>:uw %s<0;1,0>:uw 0x%X:uw", idx, vs ? 7u : 6u);
    if (!fits)
        line(out, true, "add (1|M0)      a0.0<1>:uw a0.0<0;1,0>:uw 0x%X:uw", base);
    unsigned slot = 0;
    for (unsigned c = 0; c < 4; c++) {
        if (!(gen_movi_comps(i) >> c & 1))
            continue;
        uint32_t off = (fits ? base : 0) + input_comp_off(p, c);
        if (vs) {
            reg_name(dst, sizeof(dst), d + slot * 4u * p->simd, 4);
            line(out, false, "mov (%u|M0)      %s<1>:f r[a0.0,%u]<8;8,1>:f", p->simd, dst, off);
        } else {
            reg_name(dst, sizeof(dst), d + 16 * slot, 4);
            line(out, true, "mov (4|M0)      %s<1>:f r[a0.0,%u]<4;4,1>:f", dst, off);
        }
        slot++;
    }
}

static void print_movi(const struct gen_program *p, const struct gen_inst *i, struct st_buf *out)
{
    char idx[24], dst[24];
    uint32_t base = gen_movi_base(i), imm = imm_fits(i) ? base : 0;
    unsigned span = gen_movi_span(i), comps = gen_movi_comps(i), vecs = gen_movi_vecs(i);
    uint32_t d = addr_of(p, &i->dst);
    if (gen_movi_input(i)) {
        print_input(p, i, out);
        return;
    }
    if (i->exec == 1) {
        /* a0.0 = index * 16 (+ base); two vectors per mov as rows of four dwords */
        reg_name(idx, sizeof(idx), addr_of(p, &i->src[0]), 2);
        line(out, true, "shl (1|M0)      a0.0<1>:uw %s<0;1,0>:uw 0x4:uw", idx);
        if (!imm_fits(i))
            line(out, true, "add (1|M0)      a0.0<1>:uw a0.0<0;1,0>:uw 0x%X:uw", base);
        for (unsigned v = 0; v < span; v += 2) {
            if (!(vecs >> v & 3))
                continue;
            unsigned n = span - v >= 2 ? 8 : 4;
            reg_name(dst, sizeof(dst), d + 16 * v, 4);
            line(out, true, "mov (%u|M0)      %s<1>:ud r[a0.0,%u]<4;4,1>:ud", n, dst, imm + 16 * v);
        }
        return;
    }
    /* one address per channel: the index's low word * 16 into a0.n */
    unsigned halves = i->exec == 32 ? 2 : 1, e = i->exec == 32 ? 16 : i->exec;
    uint32_t dsize = 4u * p->simd;
    for (unsigned h = 0; h < halves; h++) {
        char es[16];
        snprintf(es, sizeof(es), "(%u|M%u)", e, 16 * h);
        reg_name(idx, sizeof(idx), addr_of(p, &i->src[0]) + 64 * h, 2);
        line(out, false, "shl %-11s a0.0<1>:uw %s<16;8,2>:uw 0x4:uw", es, idx);
        if (!imm_fits(i))
            line(out, false, "add %-11s a0.0<1>:uw a0.0<%u;%u,1>:uw 0x%X:uw", es, e, e, base);
        unsigned slot = 0;
        for (unsigned v = 0; v < span; v++)
            for (unsigned c = 0; c < 4; c++) {
                if (!(vecs >> v & 1) || !(comps >> c & 1))
                    continue;
                reg_name(dst, sizeof(dst), d + slot * dsize + 64 * h, 4);
                line(out, false, "mov %-11s %s<1>:f r[a0.0,%u]<1,0>:f", es, dst,
                     imm + 16 * v + 4 * c);
                slot++;
            }
    }
}

/*
 * The first channel that runs the instruction, as Mesa finds it: ce0 does
 * not consider the dispatch mask, so it is ANDed with DMask (sr0.2) in a
 * vertex shader and VMask (sr0.3, helpers included) in a pixel shader;
 * fbl numbers the channel, and its dword of src0 is read through a0.
 */
static void print_bcast(const struct gen_program *p, const struct gen_inst *i, struct st_buf *out)
{
    char d[24], dw[24];
    uint32_t da = addr_of(p, &i->dst), sa = addr_of(p, &i->src[0]);
    reg_name(d, sizeof(d), da, 4);
    reg_name(dw, sizeof(dw), da, 2);
    line(out, true, "mov (1|M0)      %s<1>:ud sr0.%u<0;1,0>:ud", d,
         p->layout.stage == ST_PS ? 3u : 2u);
    line(out, true, "and (1|M0)      %s<1>:ud ce0.0<0;1,0>:ud %s<0;1,0>:ud", d, d);
    line(out, true, "fbl (1|M0)      %s<1>:ud %s<0;1,0>:ud", d, d);
    line(out, true, "shl (1|M0)      a0.0<1>:uw %s<0;1,0>:uw 0x2:uw", dw);
    uint32_t imm = sa;
    if (sa > IMM_MAX) {
        line(out, true, "add (1|M0)      a0.0<1>:uw a0.0<0;1,0>:uw 0x%X:uw", sa);
        imm = 0;
    }
    line(out, true, "mov (1|M0)      %s<1>:ud r[a0.0,%u]<0;1,0>:ud", d, imm);
}

void gen_indirect_print(const struct gen_program *p, const struct gen_inst *i, struct st_buf *out)
{
    if (i->op == GOP_BCAST)
        print_bcast(p, i, out);
    else
        print_movi(p, i, out);
}
