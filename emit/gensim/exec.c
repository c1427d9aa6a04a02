/* gensim/exec.c — executes decoded Gen9 instructions on a thread state.
 *
 * Model (details and sources in docs/gensim.md):
 * - GRF = 128 x 32 bytes; operands are typed regions over bytes, read and
 *   written little-endian.  Registers are never shifted by the channel
 *   group: (16|M16) only selects execution-mask and flag bits 16-31.
 * - Every source element of every enabled channel is read before any
 *   destination element is written (dst may overlap a source).
 * - Execution mask = dispatch mask AND the structured-control-flow state,
 *   kept as a per-channel resume point (the PRM's per-channel IP): a
 *   disabled channel waits for a given instruction and becomes active
 *   again when the thread reaches it.  IF/ELSE/ENDIF/BREAK/CONT/HALT jump
 *   to JIP when no channel is left active, as the PRM describes.
 * - Floats: IEEE binary32 with round-to-nearest-even; f32 denormals are
 *   flushed to zero on input and output of arithmetic when cr0 bit 7 is 0
 *   (the Gen9 default), half denormals likewise when cr0 bit 10 is 0.  :hf
 *   arithmetic is computed in f32 and rounded once to half; mixed float
 *   mode (:f with :hf) is checked against the SKL PRM's restrictions.  math uses correctly rounded-or-better C library
 *   calls (sqrtf, exp2f, ...), not the hardware's ULP bounds.
 */
#include "gensim.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_INT, K_F, K_DF };

typedef struct val {
    int64_t i;
    float f;
    double d;
} val;

int gensim__fail(gensim_thread *t, const gensim_inst *in, const char *fmt, ...)
{
    int n = snprintf(t->err, sizeof t->err, "%s:%u: ", t->prog ? t->prog->name : "<gen>",
                     in ? in->line : 0);
    if (n < 0)
        n = 0;
    if ((size_t)n < sizeof t->err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(t->err + n, sizeof t->err - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static unsigned tsize(int t)
{
    switch (t) {
    case GS_T_UB: case GS_T_B: return 1;
    case GS_T_UW: case GS_T_W: case GS_T_HF: return 2;
    case GS_T_UQ: case GS_T_Q: case GS_T_DF: return 8;
    default: return 4;
    }
}

static int is_float_type(int t) { return t == GS_T_F || t == GS_T_HF || t == GS_T_DF || t == GS_T_VF; }
static int is_signed_int(int t) { return t == GS_T_D || t == GS_T_W || t == GS_T_B || t == GS_T_Q || t == GS_T_V; }
static int is_64(int t) { return t == GS_T_UQ || t == GS_T_Q || t == GS_T_DF; }

static const char *type_name(int t)
{
    static const char *n[] = {"none", "ud", "d", "uw", "w", "ub", "b", "uq", "q",
                              "f", "hf", "df", "v", "uv", "vf"};
    return (t >= 0 && t <= GS_T_VF) ? n[t] : "?";
}

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

/* IEEE half <-> float, round to nearest even */
static float half_to_float(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    if (e == 0x1f)
        return u2f(s | 0x7f800000u | (m << 13));
    if (e == 0) {
        float v = ldexpf((float)m, -24);
        return s ? -v : v;
    }
    return u2f(s | ((e + 112) << 23) | (m << 13));
}

static uint16_t float_to_half(float f)
{
    uint32_t u = f2u(f);
    uint16_t s = (uint16_t)((u >> 16) & 0x8000);
    uint32_t e = (u >> 23) & 0xff, m = u & 0x7fffff;
    if (e == 0xff)
        return (uint16_t)(s | 0x7c00 | (m ? 0x200 | (m >> 13) : 0));
    int ee = (int)e - 127 + 15;
    if (ee >= 0x1f)
        return (uint16_t)(s | 0x7c00);
    if (ee <= 0) {
        if (ee < -10)
            return s;
        m |= 0x800000;
        unsigned shift = (unsigned)(14 - ee);
        uint32_t hm = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (hm & 1)))
            hm++;
        return (uint16_t)(s | hm);
    }
    uint32_t hm = m >> 13, rem = m & 0x1fff;
    uint32_t r = ((uint32_t)ee << 10) | hm;
    if (rem > 0x1000 || (rem == 0x1000 && (hm & 1)))
        r++;
    return (uint16_t)(s | r);
}

/* restricted 8-bit float of :vf immediates: sign, 3-bit exponent (bias 3),
 * 4-bit mantissa; 0 encodes 0.0 */
static float vf_to_float(uint8_t b)
{
    if ((b & 0x7f) == 0)
        return (b & 0x80) ? -0.0f : 0.0f;
    int e = (b >> 4) & 7;
    float v = ldexpf(1.0f + (float)(b & 15) / 16.0f, e - 3);
    return (b & 0x80) ? -v : v;
}

static int flush32(const gensim_thread *t) { return !(t->cr[0] & 0x80); }
static int flush16(const gensim_thread *t) { return !(t->cr[1] & 0x04); } /* cr0 bit 10 */
static int flush64(const gensim_thread *t) { return !(t->cr[0] & 0x40); }

static float ftz(const gensim_thread *t, float f)
{
    if (flush32(t) && fpclassify(f) == FP_SUBNORMAL)
        return signbit(f) ? -0.0f : 0.0f;
    return f;
}
static double dtz(const gensim_thread *t, double d)
{
    if (flush64(t) && fpclassify(d) == FP_SUBNORMAL)
        return signbit(d) ? -0.0 : 0.0;
    return d;
}

/* ---- register files ---------------------------------------------------- */

static uint8_t *file_base(gensim_thread *t, int file, size_t *size, unsigned *regbytes,
                          uint8_t *ce_buf)
{
    switch (file) {
    case GS_F_GRF: *size = sizeof t->grf; *regbytes = 32; return t->grf;
    case GS_F_ACC: *size = sizeof t->acc; *regbytes = 32; return t->acc;
    case GS_F_FLAG: *size = sizeof t->flag; *regbytes = 4; return t->flag;
    case GS_F_ADDR: *size = sizeof t->addr; *regbytes = 32; return t->addr;
    case GS_F_CR: *size = sizeof t->cr; *regbytes = 12; return t->cr;
    case GS_F_SR: *size = sizeof t->sr; *regbytes = 16; return t->sr;
    case GS_F_CE: {
        /* ce0 does not consider the dispatch mask: channels of the thread's
         * width that were never dispatched read as enabled */
        uint32_t m = gensim_active_mask(t);
        unsigned w = t->cfg.dispatch_width;
        if (w)
            m |= ~t->cfg.dispatch_mask & (w >= 32 ? 0xffffffffu : (1u << w) - 1);
        ce_buf[0] = (uint8_t)m; ce_buf[1] = (uint8_t)(m >> 8);
        ce_buf[2] = (uint8_t)(m >> 16); ce_buf[3] = (uint8_t)(m >> 24);
        *size = 4; *regbytes = 4;
        return ce_buf;
    }
    default: *size = 0; *regbytes = 0; return NULL;
    }
}

static uint64_t load_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned k = 0; k < n; k++)
        v |= (uint64_t)p[k] << (8 * k);
    return v;
}
static void store_le(uint8_t *p, unsigned n, uint64_t v)
{
    for (unsigned k = 0; k < n; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}

static uint16_t addr_reg(const gensim_thread *t, unsigned sub)
{
    return (uint16_t)load_le(t->addr + 2 * sub, 2);
}

/* byte offset of element i of a source region (within its file) */
static int src_offset(gensim_thread *t, const gensim_inst *in, const gensim_operand *o,
                      unsigned i, size_t fsize, unsigned regbytes, size_t *off)
{
    unsigned ts = tsize(o->type);
    unsigned w = o->w ? o->w : 1;
    unsigned row = i / w, col = i % w;
    long base;
    if (o->addr_mode == GS_A_DIRECT) {
        base = (long)o->reg * regbytes + (long)o->sub * ts;
        base += ((long)row * o->vs + (long)col * o->hs) * ts;
    } else if (o->addr_mode == GS_A_VX1) {
        base = (long)addr_reg(t, o->addr_sub) + o->addr_off;
        base += ((long)row * o->vs + (long)col * o->hs) * ts;
    } else {
        if (o->addr_sub + row > 15)
            return gensim__fail(t, in, "VxH region needs a0.%u, which does not exist", o->addr_sub + row);
        base = (long)addr_reg(t, o->addr_sub + row) + o->addr_off + (long)col * o->hs * ts;
    }
    if (base < 0 || (size_t)base + ts > fsize)
        return gensim__fail(t, in, "operand element %u at byte %ld is outside the register file", i, base);
    *off = (size_t)base;
    return 0;
}

/* PRM region rules checked for direct GRF operands (docs/gen9-target.md
 * section 2, rules 4 and 5): a row may not cross a GRF, and an operand may
 * span at most two adjacent GRFs. */
static int check_region(gensim_thread *t, const gensim_inst *in, const gensim_operand *o,
                        int is_dst, unsigned n)
{
    if (o->file != GS_F_GRF || o->addr_mode != GS_A_DIRECT || n == 0)
        return 0;
    unsigned ts = tsize(o->type);
    long first = (long)o->reg * 32 + (long)o->sub * ts;
    unsigned w = is_dst ? n : (o->w ? o->w : 1);
    for (unsigned i = 0; i < n; i++) {
        long off;
        if (is_dst)
            off = first + (long)i * o->hs * ts;
        else
            off = first + ((long)(i / w) * o->vs + (long)(i % w) * o->hs) * ts;
        if (off / 32 > o->reg + 1 || (off + ts - 1) / 32 > o->reg + 1)
            return gensim__fail(t, in, "%s region spans more than two registers", is_dst ? "destination" : "source");
        if (!is_dst && i % w != 0) {
            long rowstart = first + (long)(i / w) * o->vs * ts;
            if (off / 32 != rowstart / 32 || (off + ts - 1) / 32 != rowstart / 32)
                return gensim__fail(t, in, "source region row crosses a register boundary (only VertStride may)");
        }
        if ((size_t)off + ts > sizeof t->grf)
            return gensim__fail(t, in, "operand runs past r127");
    }
    return 0;
}

static int src_type_of(const gensim_operand *o);

/* Mixed float mode: :f and :hf among the destination and the sources (Mesa
 * is_mixed_float). */
static int is_mixed_float(const gensim_inst *in)
{
    int f = in->dst.file != GS_F_NULL && in->dst.type == GS_T_F;
    int h = in->dst.file != GS_F_NULL && in->dst.type == GS_T_HF;
    for (unsigned k = 0; k < in->nsrc; k++) {
        f |= in->src[k].type == GS_T_F;
        h |= in->src[k].type == GS_T_HF;
    }
    return f && h;
}

/* The SKL PRM's rules for half floats in Align1 (Mesa brw_eu_validate.c:
 * general_restrictions_based_on_operand_types and
 * special_restrictions_for_mixed_float_mode, which quote it): mixed float
 * mode is SIMD8 when the destination is :f; a packed :hf destination is
 * SIMD8 and 16-byte aligned; a conversion to :hf writes every other word
 * unless it is such a packed mixed destination, one from an integer a
 * dword-strided, dword-aligned destination; mixed math reads strided
 * halves.  Mixed 3-source instructions are not modelled. */
static int check_half_rules(gensim_thread *t, const gensim_inst *in)
{
    const gensim_operand *d = &in->dst;
    int three = in->op == GS_OP_MAD || in->op == GS_OP_LRP || in->op == GS_OP_CSEL;
    int mixed = is_mixed_float(in);
    if (three) {
        if (mixed)
            return gensim__fail(t, in, "mixed :f/:hf 3-source instructions are not modelled");
        return 0;
    }
    int dst_real = d->file != GS_F_NULL && d->file != GS_F_NONE;
    unsigned n = in->exec_size;
    unsigned dbyte = dst_real && d->addr_mode == GS_A_DIRECT ? (unsigned)d->sub * tsize(d->type) : 0;
    if (mixed && dst_real && d->type == GS_T_F && n > 8)
        return gensim__fail(t, in, "mixed float mode with an :f destination is SIMD8 at most (SKL PRM)");
    if (mixed && dst_real && d->type == GS_T_HF && d->hs == 1) {
        if (dbyte % 16)
            return gensim__fail(t, in, "a packed :hf destination of mixed float mode must be 16-byte aligned");
        if (n > 8)
            return gensim__fail(t, in, "a packed :hf destination of mixed float mode is SIMD8 at most");
    }
    if (mixed && in->op == GS_OP_MATH)
        for (unsigned k = 0; k < in->nsrc; k++)
            if (in->src[k].type == GS_T_HF && in->src[k].file != GS_F_IMM && in->src[k].hs <= 1 &&
                !(in->src[k].vs == 0 && in->src[k].w == 1))
                return gensim__fail(t, in, "mixed float math reads :hf sources strided");
    if (!dst_real || in->op == GS_OP_CMP)
        return 0;
    for (unsigned k = 0; k < in->nsrc && k < 2; k++) {
        int st = src_type_of(&in->src[k]);
        if (st == d->type || (st != GS_T_HF && d->type != GS_T_HF))
            continue;
        int integer = !is_float_type(st) || !is_float_type(d->type);
        if (integer) {
            if (d->hs * tsize(d->type) != 4 || dbyte % 4)
                return gensim__fail(t, in, "a conversion between an integer and :hf needs a dword-strided, dword-aligned destination");
        } else if (d->type == GS_T_HF && d->hs != 2 && !(mixed && d->hs == 1 && dbyte % 16 == 0)) {
            return gensim__fail(t, in, "a conversion to :hf writes every other word, or a packed 16-byte aligned destination");
        }
    }
    return 0;
}

/* PRM "Register Region Restrictions" for Align1 sources (docs/gen9-target.md
 * section 2, rules 1-3) and the destination stride rule 6.  3-source
 * instructions are Align16 on Gen9 and are not subject to them. */
static int check_align1_rules(gensim_thread *t, const gensim_inst *in)
{
    unsigned n = in->exec_size;
    int three = in->op == GS_OP_MAD || in->op == GS_OP_LRP || in->op == GS_OP_CSEL;
    if (three || in->op == GS_OP_PLN)
        return 0;
    unsigned exec_bytes = 0;
    for (unsigned k = 0; k < in->nsrc; k++) {
        const gensim_operand *o = &in->src[k];
        int ty = o->file == GS_F_IMM ? (o->type == GS_T_VF ? GS_T_F : o->type == GS_T_V ? GS_T_W :
                                        o->type == GS_T_UV ? GS_T_UW : o->type)
                                     : o->type;
        if (tsize(ty) > exec_bytes)
            exec_bytes = tsize(ty);
        if (o->file == GS_F_IMM || o->file == GS_F_NULL || o->addr_mode == GS_A_VXH)
            continue;
        unsigned w = o->w ? o->w : 1;
        if (n < w)
            return gensim__fail(t, in, "src%u: Width %u is larger than the execution size %u", k, w, n);
        if (n == w && o->hs != 0 && o->vs != w * o->hs)
            return gensim__fail(t, in, "src%u: ExecSize == Width needs VertStride = Width*HorzStride (<%u;%u,%u>)",
                                k, o->vs, o->w, o->hs);
        if (w == 1 && o->hs != 0)
            return gensim__fail(t, in, "src%u: Width 1 needs HorzStride 0", k);
        if (n == 1 && w == 1 && o->vs != 0)
            return gensim__fail(t, in, "src%u: a scalar region must be <0;1,0>", k);
        if (o->vs == 0 && o->hs == 0 && w != 1)
            return gensim__fail(t, in, "src%u: VertStride = HorzStride = 0 needs Width 1", k);
    }
    const gensim_operand *d = &in->dst;
    int dt = d->type;
    /* vector immediates (Mesa vector_immediate_restrictions, quoting the
     * PRM): 16-byte aligned destination, word stride for :v/:uv, dword
     * stride for :vf */
    for (unsigned k = 0; k < in->nsrc; k++) {
        const gensim_operand *o = &in->src[k];
        if (o->file != GS_F_IMM || (o->type != GS_T_V && o->type != GS_T_UV && o->type != GS_T_VF))
            continue;
        unsigned want = o->type == GS_T_VF ? 4 : 2;
        if (d->addr_mode != GS_A_DIRECT || (d->sub * tsize(dt)) % 16 != 0)
            return gensim__fail(t, in, "a vector immediate needs a 16-byte aligned destination");
        if (d->hs * tsize(dt) != want)
            return gensim__fail(t, in, "a :%s immediate needs a destination stride of %u bytes",
                                o->type == GS_T_VF ? "vf" : "v", want);
    }
    /* math: a destination spanning two registers must split evenly */
    if (in->op == GS_OP_MATH && d->file == GS_F_GRF && d->addr_mode == GS_A_DIRECT) {
        unsigned start = (unsigned)d->sub * tsize(dt), first = 0;
        for (unsigned i = 0; i < n; i++)
            if (start + i * d->hs * tsize(dt) < 32)
                first++;
        if (first != n && first * 2 != n)
            return gensim__fail(t, in, "math destination spanning two registers must split its elements evenly (%u + %u)",
                                first, n - first);
    }
    if (d->file == GS_F_NULL || d->file == GS_F_NONE || n == 1 || dt == GS_T_HF ||
        in->op == GS_OP_CMP || in->op == GS_OP_MATH)
        return 0;
    unsigned ds = tsize(dt);
    if (ds == 1 && !(in->op == GS_OP_MOV && in->src[0].type != GS_T_F && tsize(in->src[0].type) == 1) &&
        d->hs < 2)
        return gensim__fail(t, in, "a byte destination needs a stride of at least 2 (except a raw byte mov)");
    if (exec_bytes > ds && ds > 1 && d->hs * ds != exec_bytes)
        return gensim__fail(t, in, "destination stride %u x %u bytes must equal the execution type size %u",
                            d->hs, ds, exec_bytes);
    return 0;
}

/* raw bits of source element i */
static int read_raw(gensim_thread *t, const gensim_inst *in, const gensim_operand *o,
                    unsigned i, uint64_t *bits)
{
    if (o->file == GS_F_IMM) {
        switch (o->type) {
        case GS_T_V: {
            uint64_t nib = (o->imm >> (4 * (i % 8))) & 15;
            *bits = (nib & 8) ? (nib | ~(uint64_t)15) : nib;
            return 0;
        }
        case GS_T_UV:
            *bits = (o->imm >> (4 * (i % 8))) & 15;
            return 0;
        case GS_T_VF:
            *bits = f2u(vf_to_float((uint8_t)(o->imm >> (8 * (i % 4)))));
            return 0;
        default:
            *bits = o->imm;
            return 0;
        }
    }
    if (o->file == GS_F_NULL) {
        *bits = 0;
        return 0;
    }
    uint8_t ce[4];
    size_t fsize, off = 0;
    unsigned regbytes;
    uint8_t *base = file_base(t, o->file, &fsize, &regbytes, ce);
    if (!base)
        return gensim__fail(t, in, "register file not readable");
    if (src_offset(t, in, o, i, fsize, regbytes, &off))
        return -1;
    *bits = load_le(base + off, tsize(o->type));
    return 0;
}

static int src_type_of(const gensim_operand *o)
{
    if (o->file == GS_F_IMM && o->type == GS_T_VF)
        return GS_T_F;
    if (o->file == GS_F_IMM && o->type == GS_T_V)
        return GS_T_W;
    if (o->file == GS_F_IMM && o->type == GS_T_UV)
        return GS_T_UW;
    return o->type;
}

/* converts raw bits of type `type` into the execution kind */
static val to_val(const gensim_thread *t, uint64_t bits, int type, int kind, int arith)
{
    val v = {0, 0.0f, 0.0};
    switch (type) {
    case GS_T_UD: v.i = (int64_t)(uint32_t)bits; break;
    case GS_T_D: v.i = (int32_t)(uint32_t)bits; break;
    case GS_T_UW: v.i = (uint16_t)bits; break;
    case GS_T_W: case GS_T_V: v.i = (int16_t)(uint16_t)bits; break;
    case GS_T_UB: v.i = (uint8_t)bits; break;
    case GS_T_B: v.i = (int8_t)(uint8_t)bits; break;
    case GS_T_UQ: case GS_T_Q: v.i = (int64_t)bits; break;
    case GS_T_UV: v.i = (int64_t)bits; break;
    case GS_T_F: case GS_T_VF: v.f = u2f((uint32_t)bits); if (arith) v.f = ftz(t, v.f); v.d = v.f; break;
    case GS_T_HF:
        /* a denormal half (exponent field 0) is flushed to its sign's zero */
        if (arith && flush16(t) && !((bits >> 10) & 0x1f))
            bits &= 0x8000u;
        v.f = half_to_float((uint16_t)bits);
        v.d = v.f;
        break;
    case GS_T_DF: v.d = u2d(bits); if (arith) v.d = dtz(t, v.d); v.f = (float)v.d; break;
    default: break;
    }
    if (!is_float_type(type) && type != GS_T_VF) {
        if (kind == K_F)
            v.f = (float)v.i;
        else if (kind == K_DF)
            v.d = (double)v.i;
    } else if (kind == K_DF && type != GS_T_DF) {
        v.d = (double)v.f;
    }
    return v;
}

static int is_logic(int op)
{
    return op == GS_OP_AND || op == GS_OP_OR || op == GS_OP_XOR || op == GS_OP_NOT;
}

/* source element with modifiers applied */
static int read_src(gensim_thread *t, const gensim_inst *in, unsigned k, unsigned i, int kind,
                    val *out)
{
    const gensim_operand *o = &in->src[k];
    uint64_t bits;
    if (read_raw(t, in, o, i, &bits))
        return -1;
    val v = to_val(t, bits, src_type_of(o), kind, 1);
    if (kind == K_F) {
        if (o->abs) v.f = fabsf(v.f);
        if (o->neg) v.f = -v.f;
    } else if (kind == K_DF) {
        if (o->abs) v.d = fabs(v.d);
        if (o->neg) v.d = -v.d;
    } else if (is_logic(in->op)) {
        /* Gen8+: the negate modifier of logic instructions is a bitwise NOT */
        if (o->neg) v.i = ~v.i;
    } else {
        if (o->abs && v.i < 0) v.i = (int64_t)(0 - (uint64_t)v.i);
        if (o->neg) v.i = (int64_t)(0 - (uint64_t)v.i);
    }
    *out = v;
    return 0;
}

/* ---- destination ---------------------------------------------------- */

static int64_t clamp_i(double d, int type)
{
    double lo, hi;
    switch (type) {
    case GS_T_UD: lo = 0; hi = 4294967295.0; break;
    case GS_T_D: lo = -2147483648.0; hi = 2147483647.0; break;
    case GS_T_UW: lo = 0; hi = 65535; break;
    case GS_T_W: lo = -32768; hi = 32767; break;
    case GS_T_UB: lo = 0; hi = 255; break;
    case GS_T_B: lo = -128; hi = 127; break;
    case GS_T_UQ: lo = 0; hi = 18446744073709549568.0; break;
    default: lo = -9223372036854775808.0; hi = 9223372036854774784.0; break;
    }
    if (isnan(d))
        return 0;
    d = trunc(d);
    if (d <= lo)
        d = lo;
    if (d >= hi)
        d = hi;
    if (type == GS_T_UQ)
        return (int64_t)(uint64_t)d;
    return (int64_t)d;
}

static int64_t sat_int(int64_t v, int type)
{
    int64_t lo, hi;
    switch (type) {
    case GS_T_UD: lo = 0; hi = 0xffffffffLL; break;
    case GS_T_D: lo = INT32_MIN; hi = INT32_MAX; break;
    case GS_T_UW: lo = 0; hi = 0xffff; break;
    case GS_T_W: lo = INT16_MIN; hi = INT16_MAX; break;
    case GS_T_UB: lo = 0; hi = 0xff; break;
    case GS_T_B: lo = INT8_MIN; hi = INT8_MAX; break;
    default: return v;
    }
    return v < lo ? lo : v > hi ? hi : v;
}

/* value in execution kind -> destination bits (conversion + saturation) */
static uint64_t to_bits(const gensim_thread *t, val v, int kind, int dtype, int sat, int arith)
{
    if (dtype == GS_T_F || dtype == GS_T_HF) {
        float f = kind == K_F ? v.f : kind == K_DF ? (float)v.d : (float)v.i;
        if (sat)
            f = isnan(f) ? 0.0f : f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
        if (dtype == GS_T_HF) {
            uint16_t h = float_to_half(f);
            if (arith && flush16(t) && !((h >> 10) & 0x1f))
                h &= 0x8000u;
            return h;
        }
        if (arith)
            f = ftz(t, f);
        return f2u(f);
    }
    if (dtype == GS_T_DF) {
        double d = kind == K_F ? (double)v.f : kind == K_DF ? v.d : (double)v.i;
        if (sat)
            d = isnan(d) ? 0.0 : d < 0.0 ? 0.0 : d > 1.0 ? 1.0 : d;
        if (arith)
            d = dtz(t, d);
        return d2u(d);
    }
    int64_t i;
    if (kind == K_F)
        i = clamp_i((double)v.f, dtype); /* float -> int: truncate, saturate, NaN -> 0 */
    else if (kind == K_DF)
        i = clamp_i(v.d, dtype);
    else
        i = sat ? sat_int(v.i, dtype) : v.i;
    unsigned ts = tsize(dtype);
    uint64_t u = (uint64_t)i;
    if (ts < 8)
        u &= (1ull << (8 * ts)) - 1;
    return u;
}

static int dst_offset(gensim_thread *t, const gensim_inst *in, unsigned i, size_t fsize,
                      unsigned regbytes, size_t *off)
{
    const gensim_operand *o = &in->dst;
    unsigned ts = tsize(o->type);
    long base;
    if (o->addr_mode == GS_A_DIRECT)
        base = (long)o->reg * regbytes + (long)o->sub * ts;
    else if (o->addr_mode == GS_A_VX1)
        base = (long)addr_reg(t, o->addr_sub) + o->addr_off;
    else
        return gensim__fail(t, in, "VxH destinations are not modelled");
    base += (long)i * o->hs * ts;
    if (base < 0 || (size_t)base + ts > fsize)
        return gensim__fail(t, in, "destination element %u at byte %ld is outside the register file", i, base);
    *off = (size_t)base;
    return 0;
}

static int write_bits(gensim_thread *t, const gensim_inst *in, unsigned i, uint64_t bits)
{
    const gensim_operand *o = &in->dst;
    if (o->file == GS_F_NULL)
        return 0;
    uint8_t ce[4];
    size_t fsize, off = 0;
    unsigned regbytes;
    uint8_t *base = file_base(t, o->file, &fsize, &regbytes, ce);
    if (!base || o->file == GS_F_CE || o->file == GS_F_SR)
        return gensim__fail(t, in, "destination register is not writable");
    if (dst_offset(t, in, i, fsize, regbytes, &off))
        return -1;
    store_le(base + off, tsize(o->type), bits);
    return 0;
}

/* ---- flags and masks ------------------------------------------------ */

static int flag_bit(const gensim_thread *t, unsigned bit)
{
    return (t->flag[bit / 8] >> (bit % 8)) & 1;
}
static void set_flag_bit(gensim_thread *t, unsigned bit, int v)
{
    if (v)
        t->flag[bit / 8] |= (uint8_t)(1u << (bit % 8));
    else
        t->flag[bit / 8] &= (uint8_t)~(1u << (bit % 8));
}

uint32_t gensim_active_mask(const gensim_thread *t)
{
    uint32_t m = 0;
    for (unsigned n = 0; n < GENSIM_MAX_CHANNELS; n++)
        if (t->chan_wait[n] == -1)
            m |= 1u << n;
    return m;
}

/* channels of the instruction allowed by the execution mask (bit i =
 * channel group+i) */
static uint32_t exec_mask(const gensim_thread *t, const gensim_inst *in)
{
    uint32_t all = in->exec_size >= 32 ? 0xffffffffu : ((1u << in->exec_size) - 1);
    if (in->nomask)
        return all;
    return (gensim_active_mask(t) >> in->group) & all;
}

/* predicate value per channel (bit i = channel group+i) */
static int pred_mask(gensim_thread *t, const gensim_inst *in, uint32_t *out)
{
    uint32_t all = in->exec_size >= 32 ? 0xffffffffu : ((1u << in->exec_size) - 1);
    if (in->pred == GS_P_NONE) {
        *out = all;
        return 0;
    }
    unsigned base = in->pred_flag & ~31u, first = in->pred_flag & 31u;
    unsigned group = 1;
    int any = 0;
    switch (in->pred) {
    case GS_P_ANY2H: group = 2; any = 1; break;
    case GS_P_ANY4H: group = 4; any = 1; break;
    case GS_P_ANY8H: group = 8; any = 1; break;
    case GS_P_ANY16H: group = 16; any = 1; break;
    case GS_P_ANY32H: group = 32; any = 1; break;
    case GS_P_ALL2H: group = 2; break;
    case GS_P_ALL4H: group = 4; break;
    case GS_P_ALL8H: group = 8; break;
    case GS_P_ALL16H: group = 16; break;
    case GS_P_ALL32H: group = 32; break;
    default: break;
    }
    uint32_t m = 0;
    for (unsigned i = 0; i < in->exec_size; i++) {
        unsigned ch = in->group + i;
        int v;
        if (in->pred == GS_P_NORMAL) {
            if (first + ch >= 32)
                return gensim__fail(t, in, "predicate flag bit %u is outside f%u", first + ch, base / 32);
            v = flag_bit(t, base + first + ch);
        } else {
            unsigned g0 = (ch / group) * group;
            if (first + g0 + group > 32)
                return gensim__fail(t, in, "predicate group reaches outside f%u", base / 32);
            v = any ? 0 : 1;
            for (unsigned k = 0; k < group; k++) {
                int b = flag_bit(t, base + first + g0 + k);
                if (any)
                    v |= b;
                else
                    v &= b;
            }
        }
        if (in->pred_inv)
            v = !v;
        if (v)
            m |= 1u << i;
    }
    *out = m;
    return 0;
}

static int cmod_flag_check(gensim_thread *t, const gensim_inst *in)
{
    if (in->cmod && (in->cmod_flag & 31u) + in->group + in->exec_size > 32)
        return gensim__fail(t, in, "conditional modifier flag bits reach outside f%u", in->cmod_flag / 32);
    return 0;
}

static void write_cmod_flag(gensim_thread *t, const gensim_inst *in, unsigned i, int v)
{
    set_flag_bit(t, in->cmod_flag + in->group + i, v);
}

static int eval_cmod_f(int cm, double r, int overflowed)
{
    switch (cm) {
    case GS_CM_EQ: return r == 0;
    case GS_CM_NE: return !(r == 0);
    case GS_CM_GT: return r > 0;
    case GS_CM_GE: return r >= 0;
    case GS_CM_LT: return r < 0;
    case GS_CM_LE: return r <= 0;
    case GS_CM_OV: return overflowed;
    case GS_CM_UN: return isnan(r);
    default: return 0;
    }
}

/* integer result (wrapped to the execution width) against zero */
static int eval_cmod_i(int cm, int64_t r, int is_signed, int width64)
{
    if (!width64)
        r = is_signed ? (int64_t)(int32_t)(uint32_t)r : (int64_t)(uint32_t)r;
    int neg = is_signed && r < 0;
    switch (cm) {
    case GS_CM_EQ: return r == 0;
    case GS_CM_NE: return r != 0;
    case GS_CM_GT: return !neg && r != 0;
    case GS_CM_GE: return !neg;
    case GS_CM_LT: return neg;
    case GS_CM_LE: return neg || r == 0;
    default: return 0;
    }
}

static int compare_f(int cm, double a, double b)
{
    switch (cm) {
    case GS_CM_EQ: return a == b;
    case GS_CM_NE: return !(a == b);  /* unordered compares not-equal */
    case GS_CM_GT: return a > b;
    case GS_CM_GE: return a >= b;
    case GS_CM_LT: return a < b;
    case GS_CM_LE: return a <= b;
    case GS_CM_UN: return isnan(a) || isnan(b);
    default: return 0;
    }
}

static int compare_i(int cm, int64_t a, int64_t b)
{
    switch (cm) {
    case GS_CM_EQ: return a == b;
    case GS_CM_NE: return a != b;
    case GS_CM_GT: return a > b;
    case GS_CM_GE: return a >= b;
    case GS_CM_LT: return a < b;
    case GS_CM_LE: return a <= b;
    default: return 0;
    }
}

/* ---- ALU ------------------------------------------------------------- */

static int exec_kind(const gensim_inst *in)
{
    int kind = K_INT;
    for (unsigned k = 0; k < in->nsrc; k++) {
        int ty = src_type_of(&in->src[k]);
        if (ty == GS_T_DF)
            return K_DF;
        if (is_float_type(ty))
            kind = K_F;
    }
    return kind;
}

static int needs_int(gensim_thread *t, const gensim_inst *in, const char *what)
{
    for (unsigned k = 0; k < in->nsrc; k++)
        if (is_float_type(src_type_of(&in->src[k])))
            return gensim__fail(t, in, "%s takes integer sources, not :%s", what, type_name(in->src[k].type));
    if (is_float_type(in->dst.type))
        return gensim__fail(t, in, "%s needs an integer destination", what);
    return 0;
}

static int needs_float(gensim_thread *t, const gensim_inst *in, const char *what)
{
    for (unsigned k = 0; k < in->nsrc; k++)
        if (!is_float_type(src_type_of(&in->src[k])))
            return gensim__fail(t, in, "%s takes floating-point sources, not :%s", what, type_name(in->src[k].type));
    return 0;
}

static unsigned clz32(uint32_t v)
{
    unsigned n = 0;
    if (!v)
        return 32;
    while (!(v & 0x80000000u)) {
        v <<= 1;
        n++;
    }
    return n;
}

static int exec_math(gensim_thread *t, const gensim_inst *in, const val *a, const val *b,
                     val *r, int kind)
{
    switch (in->math_fn) {
    case GS_MATH_INV: r->f = 1.0f / a->f; break;
    case GS_MATH_LOG: r->f = log2f(a->f); break;
    case GS_MATH_EXP: r->f = exp2f(a->f); break;
    case GS_MATH_SQT: r->f = sqrtf(a->f); break;
    case GS_MATH_RSQT: r->f = 1.0f / sqrtf(a->f); break;
    case GS_MATH_SIN: r->f = sinf(a->f); break;
    case GS_MATH_COS: r->f = cosf(a->f); break;
    case GS_MATH_POW: r->f = powf(a->f, b->f); break;
    case GS_MATH_FDIV: r->f = a->f / b->f; break;
    case GS_MATH_IQOT: case GS_MATH_IREM: {
        int sgn = is_signed_int(in->src[0].type) || is_signed_int(in->src[1].type);
        int64_t x = a->i, y = b->i;
        if (!sgn) {
            x = (int64_t)(uint32_t)x;
            y = (int64_t)(uint32_t)y;
        } else {
            x = (int32_t)x;
            y = (int32_t)y;
        }
        if (y == 0)
            return gensim__fail(t, in, "integer division by zero (result undefined in the PRM)");
        if (sgn && x == INT32_MIN && y == -1)
            return gensim__fail(t, in, "integer division overflow (INT_MIN / -1)");
        r->i = in->math_fn == GS_MATH_IQOT ? x / y : x % y;
        break;
    }
    default:
        return gensim__fail(t, in, "math function not modelled");
    }
    (void)kind;
    return 0;
}

/* One ALU instruction's per-channel values.  Every source element is read
 * into s before any result is written (dst may overlap a source), and dp*
 * reads the sources of its whole group of 4, so the values of all channels
 * stay available until the write-back. */
typedef struct alu_lanes {
    val s[3][GENSIM_MAX_CHANNELS];
    val r[GENSIM_MAX_CHANNELS];
    uint8_t fl[GENSIM_MAX_CHANNELS];   /* cmp: the outcome per channel */
    uint8_t ovf[GENSIM_MAX_CHANNELS];  /* float add/mul overflowed: (ov) */
} alu_lanes;

/* Refuses what the PRM leaves undefined or the model does not cover before
 * anything is read, so a refused instruction changes no state. */
static int alu_check(gensim_thread *t, const gensim_inst *in, int kind)
{
    const int op = in->op;
    unsigned n = in->exec_size;

    if (in->dst.file == GS_F_IMM)
        return gensim__fail(t, in, "destination cannot be an immediate");
    if (cmod_flag_check(t, in))
        return -1;
    if (check_region(t, in, &in->dst, 1, n))
        return -1;
    for (unsigned k = 0; k < in->nsrc; k++)
        if (op != GS_OP_PLN && check_region(t, in, &in->src[k], 0, n))
            return -1;
    if (in->nsrc >= 2 && in->src[0].file == GS_F_IMM && op != GS_OP_MAD && op != GS_OP_LRP)
        return gensim__fail(t, in, "an immediate is only allowed as the last source");
    if (check_align1_rules(t, in) || check_half_rules(t, in))
        return -1;
    if (kind != K_INT && ((t->cr[0] >> 4) & 3))
        return gensim__fail(t, in, "cr0 rounding mode %u is not modelled (only round to nearest even)",
                            (t->cr[0] >> 4) & 3);

    switch (op) {
    case GS_OP_AND: case GS_OP_OR: case GS_OP_XOR: case GS_OP_NOT:
    case GS_OP_SHL: case GS_OP_SHR: case GS_OP_ASR: case GS_OP_LZD: case GS_OP_FBH:
    case GS_OP_FBL: case GS_OP_CBIT: case GS_OP_BFREV: case GS_OP_AVG: case GS_OP_MACH:
        if (needs_int(t, in, "this instruction"))
            return -1;
        for (unsigned k = 0; k < in->nsrc; k++)
            if (is_logic(op) && in->src[k].abs)
                return gensim__fail(t, in, "(abs) is not allowed on logic instructions");
        break;
    case GS_OP_FRC: case GS_OP_RNDD: case GS_OP_RNDE: case GS_OP_RNDZ: case GS_OP_RNDU:
    case GS_OP_MAD: case GS_OP_LRP: case GS_OP_PLN: case GS_OP_LINE: case GS_OP_DP2:
    case GS_OP_DP3: case GS_OP_DP4: case GS_OP_DPH: case GS_OP_CSEL:
        if (needs_float(t, in, "this instruction"))
            return -1;
        if (kind == K_DF && op != GS_OP_MAD)
            return gensim__fail(t, in, ":df is not modelled for this instruction");
        break;
    case GS_OP_MATH:
        if (in->math_fn >= GS_MATH_IDIV) {
            if (needs_int(t, in, "integer math"))
                return -1;
            if (in->math_fn == GS_MATH_IDIV)
                return gensim__fail(t, in, "math.idiv (two destinations) is not modelled; use iqot/irem");
            if (n > 8)
                return gensim__fail(t, in, "integer math is SIMD8 only on Gen9");
            for (unsigned k = 0; k < 2; k++)
                if (tsize(in->src[k].type) != 4)
                    return gensim__fail(t, in, "integer math takes :d/:ud operands");
        } else {
            /* :f, or :hf throughout (SIMD8 at most, Mesa brw_get_lowered_simd_width) */
            int ht = in->dst.type == GS_T_HF;
            for (unsigned k = 0; k < in->nsrc; k++)
                if (src_type_of(&in->src[k]) != (ht ? GS_T_HF : GS_T_F))
                    return gensim__fail(t, in, "float math takes :f (or :hf throughout) operands here (:%s given)",
                                        type_name(in->src[k].type));
            if (in->dst.type != GS_T_F && !ht)
                return gensim__fail(t, in, "float math needs an :f or :hf destination");
            if (n > (ht ? 8u : 16u))
                return gensim__fail(t, in, ht ? ":hf math is at most SIMD8 on Gen9"
                                              : "math is at most SIMD16 on Gen9");
        }
        if (in->dst.hs != 1)
            return gensim__fail(t, in, "math destination stride must be 1");
        break;
    default:
        break;
    }
    if (op == GS_OP_MUL && kind == K_INT && (in->sat || in->cmod) &&
        (tsize(src_type_of(&in->src[0])) == 4 || tsize(src_type_of(&in->src[1])) == 4))
        return gensim__fail(t, in, "integer mul with a dword source: (sat) and conditional modifiers are undefined (SKL PRM, Multiply)");
    if (op == GS_OP_MACH && n > 8)
        return gensim__fail(t, in, "mach works on the 8-dword accumulator: SIMD8 at most");
    return 0;
}

/* A mov without a type change keeps the bits as they are (NaN payloads,
 * denormals): no conversion to a value and back. */
static int is_raw_mov(const gensim_inst *in)
{
    return in->op == GS_OP_MOV && in->src[0].type == in->dst.type && !in->sat &&
           in->src[0].type != GS_T_V && in->src[0].type != GS_T_UV && in->src[0].type != GS_T_VF;
}

static int exec_raw_mov(gensim_thread *t, const gensim_inst *in, uint32_t wmask, int flag_written)
{
    unsigned n = in->exec_size;
    uint64_t rawbits[GENSIM_MAX_CHANNELS];
    int ty = in->dst.type;
    unsigned ts = tsize(ty);

    for (unsigned i = 0; i < n; i++)
        if ((wmask & (1u << i)) && read_raw(t, in, &in->src[0], i, &rawbits[i]))
            return -1;
    for (unsigned i = 0; i < n; i++) {
        if (!(wmask & (1u << i)))
            continue;
        uint64_t b = rawbits[i];
        if (is_float_type(ty)) {
            uint64_t sign = 1ull << (8 * ts - 1);
            if (in->src[0].abs) b &= ~sign;
            if (in->src[0].neg) b ^= sign;
        } else if (in->src[0].abs || in->src[0].neg) {
            val v = to_val(t, b, ty, K_INT, 0);
            if (in->src[0].abs && v.i < 0) v.i = (int64_t)(0 - (uint64_t)v.i);
            if (in->src[0].neg) v.i = (int64_t)(0 - (uint64_t)v.i);
            b = (uint64_t)v.i;
            if (ts < 8) b &= (1ull << (8 * ts)) - 1;
        }
        if (flag_written) {
            val v = to_val(t, b, ty, is_float_type(ty) ? (ty == GS_T_DF ? K_DF : K_F) : K_INT, 0);
            int f = is_float_type(ty) ? eval_cmod_f(in->cmod, ty == GS_T_DF ? v.d : v.f, 0)
                                      : eval_cmod_i(in->cmod, v.i, is_signed_int(ty), is_64(ty));
            write_cmod_flag(t, in, i, f);
        }
        if (write_bits(t, in, i, b))
            return -1;
    }
    return 0;
}

/* pln: p0*X + p1*Y + p3 with X/Y from the barycentric layout.  Its sources
 * are not regions but fixed register layouts, so it reads them itself. */
static int exec_pln(gensim_thread *t, const gensim_inst *in, uint32_t wmask, alu_lanes *L)
{
    const gensim_operand *p = &in->src[0], *q = &in->src[1];
    unsigned n = in->exec_size;
    if (n > 16)
        return gensim__fail(t, in, "pln is at most SIMD16");
    if (p->file != GS_F_GRF || p->addr_mode != GS_A_DIRECT || p->vs || p->hs || p->w != 1 || (p->sub % 4))
        return gensim__fail(t, in, "pln src0 must be a scalar region on a 16-byte aligned group (rN.0 or rN.4)");
    if (q->file != GS_F_GRF || q->addr_mode != GS_A_DIRECT || q->sub != 0)
        return gensim__fail(t, in, "pln src1 must start at a register boundary");
    unsigned need = n > 8 ? 4 : 2;
    if (q->reg + need > GENSIM_GRF_COUNT)
        return gensim__fail(t, in, "pln src1 runs past r127");
    float p0 = ftz(t, gensim_f32(t, p->reg, (unsigned)p->sub));
    float p1 = ftz(t, gensim_f32(t, p->reg, (unsigned)p->sub + 1));
    float p3 = ftz(t, gensim_f32(t, p->reg, (unsigned)p->sub + 3));
    if (p->abs) { p0 = fabsf(p0); p1 = fabsf(p1); p3 = fabsf(p3); }
    if (p->neg) { p0 = -p0; p1 = -p1; p3 = -p3; }
    for (unsigned i = 0; i < n; i++) {
        if (!(wmask & (1u << i)))
            continue;
        unsigned rx = q->reg + (i >= 8 ? 2 : 0);
        float x = ftz(t, gensim_f32(t, rx, i % 8)), y = ftz(t, gensim_f32(t, rx + 1, i % 8));
        if (q->abs) { x = fabsf(x); y = fabsf(y); }
        if (q->neg) { x = -x; y = -y; }
        L->r[i].f = fmaf(p0, x, fmaf(p1, y, p3));
    }
    return 0;
}

static int alu_read_sources(gensim_thread *t, const gensim_inst *in, int kind, uint32_t wmask,
                            alu_lanes *L)
{
    const int op = in->op;
    unsigned n = in->exec_size;
    uint32_t rmask = wmask;
    if (op == GS_OP_DP2 || op == GS_OP_DP3 || op == GS_OP_DP4 || op == GS_OP_DPH) {
        /* a dp result needs all 4 channels of its group, enabled or not */
        uint32_t g = 0;
        for (unsigned i = 0; i < n; i++)
            if (wmask & (1u << i))
                g |= 0xfu << (i & ~3u);
        rmask = g & (n >= 32 ? 0xffffffffu : ((1u << n) - 1));
        if (n % 4)
            return gensim__fail(t, in, "dp instructions work on groups of 4 channels");
    }
    for (unsigned i = 0; i < n; i++) {
        if (!(rmask & (1u << i)))
            continue;
        for (unsigned k = 0; k < in->nsrc; k++)
            if (read_src(t, in, k, i, kind, &L->s[k][i]))
                return -1;
    }
    return 0;
}

/* s + *e = x + y exactly (Knuth's two-sum; round to nearest, no overflow) */
static double two_sum(double x, double y, double *e)
{
    double s = x + y, bv = s - x, av = s - bv;
    *e = (x - av) + (y - bv);
    return s;
}

/* x + y rounded to odd: the nearer-to-zero neighbour if that one's last
 * bit is odd, else the other one; exact sums stay */
static double sum_odd(double x, double y)
{
    double e, s = two_sum(x, y, &e);
    uint64_t u;
    memcpy(&u, &s, 8);
    if (e != 0.0 && !(u & 1u)) {
        u = (e > 0.0) == (s > 0.0) ? u + 1u : u - 1u; /* one ulp towards e */
        memcpy(&s, &u, 8);
    }
    return s;
}

/*
 * Gen's lrp, src1 * src0 + src2 * (1 - src0), as its exact value rounded
 * once to float (docs/gensim.md, "Assumptions").  For finite sources
 * that is p + q + r with p = src0 * src1, q = -src0 * src2, r = src2,
 * each an exact double.  Boldo and Melquiond's sum of three (2008): the
 * error-free sums r + q = uh + ul and p + uh = th + tl, then the errors
 * and th added with rounding to odd, give the sum rounded to odd in
 * double; a double rounded to odd with two bits to spare rounds to the
 * nearest float exactly as the real number would.
 */
static float gen_lrp(float s0, float s1, float s2)
{
    if (!isfinite(s0) || !isfinite(s1) || !isfinite(s2)) /* inf or NaN */
        return (float)((double)s0 * s1 + (1.0 - (double)s0) * s2);
    double p = (double)s0 * s1, q = -(double)s0 * s2, r = s2;
    double ul, uh = two_sum(q, r, &ul);
    double tl, th = two_sum(p, uh, &tl);
    double z = sum_odd(th, sum_odd(tl, ul));
    if (z == 0.0) {
        /* an exact zero: -0 only from two -0 products, as IEEE sums */
        double x = (double)s0 * s1, y = (1.0 - (double)s0) * s2;
        return x == 0.0 && y == 0.0 ? (float)(x + y) : 0.0f;
    }
    if (fabs(z) >= 0x1.ffffffp127) /* at or past the tie with 2^128 */
        return z > 0.0 ? INFINITY : -INFINITY;
    return (float)z;
}

/* mov, add, mul, mad, lrp: the operations of every type */
static int alu_arith(gensim_thread *t, const gensim_inst *in, int kind, val a, val b, val c,
                     val *o, uint8_t *ovf)
{
    switch (in->op) {
    case GS_OP_MOV: *o = a; break;
    case GS_OP_ADD:
        if (kind == K_F) o->f = a.f + b.f;
        else if (kind == K_DF) o->d = a.d + b.d;
        else o->i = (int64_t)((uint64_t)a.i + (uint64_t)b.i);
        if (kind == K_F) *ovf = isinf(o->f) && !isinf(a.f) && !isinf(b.f);
        break;
    case GS_OP_MUL:
        if (kind == K_F) o->f = a.f * b.f;
        else if (kind == K_DF) o->d = a.d * b.d;
        else o->i = (int64_t)((uint64_t)a.i * (uint64_t)b.i);
        if (kind == K_F) *ovf = isinf(o->f) && !isinf(a.f) && !isinf(b.f);
        break;
    case GS_OP_MAD:
        if (kind == K_DF) o->d = fma(b.d, c.d, a.d);
        else if (kind == K_F) o->f = fmaf(b.f, c.f, a.f);
        else return gensim__fail(t, in, "integer mad is not modelled on Gen9");
        break;
    case GS_OP_LRP:
        if (kind != K_F)
            return gensim__fail(t, in, "lrp is modelled for :f only");
        o->f = gen_lrp(a.f, b.f, c.f);
        break;
    default:
        return gensim__fail(t, in, "instruction not modelled");
    }
    return 0;
}

/* the integer-only operations: logic, shifts, bit counts, avg, mach */
static int64_t alu_int(const gensim_inst *in, val a, val b)
{
    switch (in->op) {
    case GS_OP_AVG:
        /* (a + b + 1) >> 1 without 64-bit overflow */
        return (a.i >> 1) + (b.i >> 1) + (((a.i & 1) + (b.i & 1) + 1) >> 1);
    case GS_OP_MACH: {
        /* high 32 bits of the full 64-bit product */
        int sgn = is_signed_int(in->src[0].type) || is_signed_int(in->src[1].type);
        int64_t x = sgn ? (int64_t)(int32_t)a.i : (int64_t)(uint32_t)a.i;
        int64_t y = sgn ? (int64_t)(int32_t)b.i : (int64_t)(uint32_t)b.i;
        if (sgn)
            return (int64_t)((x * y) >> 32);
        return (int64_t)(((uint64_t)x * (uint64_t)y) >> 32);
    }
    case GS_OP_AND: return a.i & b.i;
    case GS_OP_OR: return a.i | b.i;
    case GS_OP_XOR: return a.i ^ b.i;
    case GS_OP_NOT: return ~a.i;
    case GS_OP_SHL: case GS_OP_SHR: case GS_OP_ASR: {
        int w64 = is_64(in->dst.type) || is_64(in->src[0].type);
        unsigned cnt = (unsigned)(b.i & (w64 ? 63 : 31));
        if (in->op == GS_OP_SHL)
            return (int64_t)((uint64_t)a.i << cnt);
        if (in->op == GS_OP_SHR)
            return (int64_t)((w64 ? (uint64_t)a.i : (uint64_t)(uint32_t)a.i) >> cnt);
        return (w64 ? a.i : (int64_t)(int32_t)a.i) >> cnt;
    }
    case GS_OP_LZD: return clz32((uint32_t)a.i);
    case GS_OP_FBH: {
        uint32_t v = (uint32_t)a.i;
        if (is_signed_int(in->src[0].type) && (v & 0x80000000u))
            v = ~v;
        return v ? (int64_t)clz32(v) : (int64_t)0xffffffff;
    }
    case GS_OP_FBL: {
        uint32_t v = (uint32_t)a.i;
        unsigned k = 0;
        if (!v)
            return 0xffffffff;
        while (!(v & 1)) { v >>= 1; k++; }
        return k;
    }
    case GS_OP_CBIT: {
        uint32_t v = (uint32_t)a.i;
        unsigned k = 0;
        while (v) { k += v & 1; v >>= 1; }
        return k;
    }
    case GS_OP_BFREV: {
        uint32_t v = (uint32_t)a.i, rv = 0;
        for (unsigned k = 0; k < 32; k++)
            if (v & (1u << k))
                rv |= 1u << (31 - k);
        return rv;
    }
    default:
        return 0; /* alu_lane sends only the operations above */
    }
}

/* the :f-only operations: rounding, line, the dot products */
static int alu_float(gensim_thread *t, const gensim_inst *in, unsigned i, val a, val b,
                     const alu_lanes *L, val *o)
{
    switch (in->op) {
    case GS_OP_FRC: o->f = a.f - floorf(a.f); break;
    case GS_OP_RNDD: o->f = floorf(a.f); break;
    case GS_OP_RNDU: o->f = ceilf(a.f); break;
    case GS_OP_RNDE: o->f = nearbyintf(a.f); break;
    case GS_OP_RNDZ: o->f = truncf(a.f); break;
    case GS_OP_LINE: {
        const gensim_operand *p = &in->src[0];
        if (p->file != GS_F_GRF || p->vs || p->hs || (p->sub % 4))
            return gensim__fail(t, in, "line src0 must be a scalar region on a 16-byte aligned group");
        float p0 = a.f, p3 = ftz(t, gensim_f32(t, p->reg, (unsigned)p->sub + 3));
        if (p->abs) p3 = fabsf(p3);
        if (p->neg) p3 = -p3;
        o->f = fmaf(p0, b.f, p3);
        break;
    }
    case GS_OP_DP2: case GS_OP_DP3: case GS_OP_DP4: case GS_OP_DPH: {
        unsigned g = i & ~3u;
        unsigned cnt = in->op == GS_OP_DP2 ? 2 : in->op == GS_OP_DP4 ? 4 : 3;
        float acc = 0.0f;
        for (unsigned k = 0; k < cnt; k++)
            acc += L->s[0][g + k].f * L->s[1][g + k].f;
        if (in->op == GS_OP_DPH)
            acc += L->s[1][g + 3].f;
        o->f = acc;
        break;
    }
    default:
        return gensim__fail(t, in, "instruction not modelled");
    }
    return 0;
}

/* cmp, sel, csel: a comparison that sets a flag or chooses a source */
static int alu_compare(gensim_thread *t, const gensim_inst *in, int kind, unsigned i,
                       uint32_t pmask, val a, val b, val c, val *o, uint8_t *fl)
{
    int take0;
    switch (in->op) {
    case GS_OP_CMP:
        if (kind == K_F) *fl = (uint8_t)compare_f(in->cmod, a.f, b.f);
        else if (kind == K_DF) *fl = (uint8_t)compare_f(in->cmod, a.d, b.d);
        else {
            if (in->cmod == GS_CM_OV || in->cmod == GS_CM_UN)
                return gensim__fail(t, in, "(ov)/(un) compare is not modelled for integers");
            *fl = (uint8_t)compare_i(in->cmod, a.i, b.i);
        }
        return 0;
    case GS_OP_SEL:
        if (in->cmod != GS_CM_NONE) {
            if (kind == K_F && (isnan(a.f) || isnan(b.f)))
                take0 = isnan(b.f); /* min/max return the non-NaN source */
            else if (kind == K_DF && (isnan(a.d) || isnan(b.d)))
                take0 = isnan(b.d);
            else if (kind == K_F) take0 = compare_f(in->cmod, a.f, b.f);
            else if (kind == K_DF) take0 = compare_f(in->cmod, a.d, b.d);
            else take0 = compare_i(in->cmod, a.i, b.i);
        } else {
            take0 = (pmask >> i) & 1;
        }
        *o = take0 ? a : b;
        return 0;
    case GS_OP_CSEL:
        /* dst = (src2 <cmod> 0) ? src0 : src1 ; flags are not written */
        take0 = compare_f(in->cmod ? in->cmod : GS_CM_NE, c.f, 0.0);
        *o = take0 ? a : b;
        return 0;
    default:
        return gensim__fail(t, in, "instruction not modelled");
    }
}

static int alu_lane(gensim_thread *t, const gensim_inst *in, int kind, unsigned i, uint32_t pmask,
                    alu_lanes *L)
{
    val a = L->s[0][i], b = in->nsrc > 1 ? L->s[1][i] : a, c = in->nsrc > 2 ? L->s[2][i] : a;
    val o = {0, 0.0f, 0.0};
    int rc = 0;
    switch (in->op) {
    case GS_OP_MOV: case GS_OP_ADD: case GS_OP_MUL: case GS_OP_MAD: case GS_OP_LRP:
        rc = alu_arith(t, in, kind, a, b, c, &o, &L->ovf[i]);
        break;
    case GS_OP_AVG: case GS_OP_MACH: case GS_OP_AND: case GS_OP_OR: case GS_OP_XOR:
    case GS_OP_NOT: case GS_OP_SHL: case GS_OP_SHR: case GS_OP_ASR: case GS_OP_LZD:
    case GS_OP_FBH: case GS_OP_FBL: case GS_OP_CBIT: case GS_OP_BFREV:
        o.i = alu_int(in, a, b);
        break;
    case GS_OP_FRC: case GS_OP_RNDD: case GS_OP_RNDU: case GS_OP_RNDE: case GS_OP_RNDZ:
    case GS_OP_LINE: case GS_OP_DP2: case GS_OP_DP3: case GS_OP_DP4: case GS_OP_DPH:
        rc = alu_float(t, in, i, a, b, L, &o);
        break;
    case GS_OP_CMP: case GS_OP_SEL: case GS_OP_CSEL:
        rc = alu_compare(t, in, kind, i, pmask, a, b, c, &o, &L->fl[i]);
        break;
    case GS_OP_MATH:
        rc = exec_math(t, in, &a, &b, &o, kind);
        break;
    default:
        return gensim__fail(t, in, "instruction not modelled");
    }
    if (rc)
        return -1;
    L->r[i] = o;
    return 0;
}

static int alu_write_back(gensim_thread *t, const gensim_inst *in, int kind, uint32_t wmask,
                          int flag_written, const alu_lanes *L)
{
    for (unsigned i = 0; i < in->exec_size; i++) {
        if (!(wmask & (1u << i)))
            continue;
        if (in->op == GS_OP_CMP) {
            /* cmp writes all ones for true, zero for false, in dst size */
            unsigned ts = tsize(in->dst.type);
            uint64_t b = L->fl[i] ? (ts == 8 ? ~0ull : ((1ull << (8 * ts)) - 1)) : 0;
            write_cmod_flag(t, in, i, L->fl[i]);
            if (write_bits(t, in, i, b))
                return -1;
            continue;
        }
        if (flag_written) {
            int f;
            if (kind == K_INT) {
                int w64 = is_64(in->dst.type);
                for (unsigned k = 0; k < in->nsrc; k++)
                    w64 |= is_64(in->src[k].type);
                f = eval_cmod_i(in->cmod, L->r[i].i, is_signed_int(in->dst.type), w64);
            } else {
                /* post-condition flags come from the result before .sat
                 * (SKL PRM "Assigning Conditional Mods") */
                double fr = kind == K_F ? (double)L->r[i].f : L->r[i].d;
                if (kind == K_F)
                    fr = ftz(t, (float)fr);
                f = eval_cmod_f(in->cmod, fr, L->ovf[i]);
            }
            write_cmod_flag(t, in, i, f);
        }
        uint64_t bits = to_bits(t, L->r[i], kind, in->dst.type, in->sat, in->op != GS_OP_MOV);
        if (write_bits(t, in, i, bits))
            return -1;
    }
    return 0;
}

static int exec_alu(gensim_thread *t, const gensim_inst *in, uint32_t emask, uint32_t pmask)
{
    const int op = in->op;
    int kind = exec_kind(in);
    int sel_pred = op == GS_OP_SEL && in->pred != GS_P_NONE && in->cmod == GS_CM_NONE;
    /* sel uses the predicate to choose, not to mask the write */
    uint32_t wmask = sel_pred ? emask : (emask & pmask);
    int flag_written = in->cmod != GS_CM_NONE && op != GS_OP_SEL && op != GS_OP_CSEL;
    alu_lanes L;

    memset(L.fl, 0, sizeof L.fl);
    memset(L.ovf, 0, sizeof L.ovf);
    if (alu_check(t, in, kind))
        return -1;
    if (is_raw_mov(in))
        return exec_raw_mov(t, in, wmask, flag_written);
    if (op == GS_OP_PLN) {
        if (exec_pln(t, in, wmask, &L))
            return -1;
        return alu_write_back(t, in, K_F, wmask, flag_written, &L);
    }
    if (alu_read_sources(t, in, kind, wmask, &L))
        return -1;
    for (unsigned i = 0; i < in->exec_size; i++)
        if ((wmask & (1u << i)) && alu_lane(t, in, kind, i, pmask, &L))
            return -1;
    return alu_write_back(t, in, kind, wmask, flag_written, &L);
}

/* ---- control flow ------------------------------------------------------ */

static int target_ok(gensim_thread *t, const gensim_inst *in, int32_t target, const char *what)
{
    if (target < 0 || (size_t)target > t->prog->count)
        return gensim__fail(t, in, "%s target missing or out of range", what);
    return 0;
}

static int any_active_in(const gensim_thread *t, const gensim_inst *in)
{
    for (unsigned i = 0; i < in->exec_size; i++)
        if (t->chan_wait[in->group + i] == -1)
            return 1;
    return 0;
}

static int any_waiting_at(const gensim_thread *t, const gensim_inst *in, int32_t ip)
{
    for (unsigned i = 0; i < in->exec_size; i++)
        if (t->chan_wait[in->group + i] == ip)
            return 1;
    return 0;
}

static int exec_cf(gensim_thread *t, const gensim_inst *in, uint32_t emask, uint32_t pmask,
                   size_t *next)
{
    int32_t ip = (int32_t)t->ip;
    *next = t->ip + 1;
    if (in->nomask && in->op != GS_OP_JMPI)
        return gensim__fail(t, in, "structured control flow with (W) is not modelled");
    switch (in->op) {
    case GS_OP_IF:
        if (target_ok(t, in, in->jip, "if JIP") || target_ok(t, in, in->uip, "if UIP"))
            return -1;
        for (unsigned i = 0; i < in->exec_size; i++)
            if ((emask >> i & 1) && !(pmask >> i & 1))
                t->chan_wait[in->group + i] = in->jip;
        if (!any_active_in(t, in))
            *next = (size_t)in->jip;
        return 0;
    case GS_OP_ELSE:
        if (target_ok(t, in, in->jip, "else JIP"))
            return -1;
        for (unsigned i = 0; i < in->exec_size; i++)
            if (emask >> i & 1)
                t->chan_wait[in->group + i] = in->jip;
        if (!any_waiting_at(t, in, ip + 1))
            *next = (size_t)in->jip;
        return 0;
    case GS_OP_ENDIF:
        if (target_ok(t, in, in->jip, "endif JIP"))
            return -1;
        if (!any_active_in(t, in))
            *next = (size_t)in->jip;
        return 0;
    case GS_OP_BREAK: case GS_OP_CONT: case GS_OP_HALT: {
        if (target_ok(t, in, in->jip, "JIP") || target_ok(t, in, in->uip, "UIP"))
            return -1;
        int32_t resume = in->uip;
        if (in->op == GS_OP_BREAK) {
            /* Gen7+: break's UIP names the WHILE; a broken channel resumes
             * after it (the loop exit) */
            if ((size_t)in->uip >= t->prog->count || t->prog->insts[in->uip].op != GS_OP_WHILE)
                return gensim__fail(t, in, "break UIP must be the loop's while");
            resume = in->uip + 1;
        } else if (in->op == GS_OP_CONT) {
            if ((size_t)in->uip >= t->prog->count || t->prog->insts[in->uip].op != GS_OP_WHILE)
                return gensim__fail(t, in, "cont UIP must be the loop's while");
        }
        for (unsigned i = 0; i < in->exec_size; i++)
            if ((emask >> i & 1) && (pmask >> i & 1))
                t->chan_wait[in->group + i] = resume;
        if (!any_active_in(t, in))
            *next = (size_t)in->jip;
        return 0;
    }
    case GS_OP_WHILE: {
        if (target_ok(t, in, in->jip, "while JIP"))
            return -1;
        if (in->jip > ip)
            return gensim__fail(t, in, "while must jump backwards");
        int loop = 0;
        for (unsigned i = 0; i < in->exec_size; i++) {
            if (!(emask >> i & 1))
                continue;
            if (pmask >> i & 1)
                loop = 1;
            else
                t->chan_wait[in->group + i] = ip + 1;
        }
        if (loop)
            *next = (size_t)in->jip;
        return 0;
    }
    case GS_OP_JMPI:
        if (target_ok(t, in, in->jip, "jmpi target"))
            return -1;
        /* jmpi is scalar: channel 0's predicate (any/all forms combine) */
        if (pmask & 1)
            *next = (size_t)in->jip;
        return 0;
    default:
        return gensim__fail(t, in, "not a control-flow instruction");
    }
}

/* ---- driver --------------------------------------------------------------- */

gensim_thread *gensim_thread_new(const gensim_program *p, const gensim_config *cfg)
{
    gensim_thread *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->prog = p;
    if (cfg)
        t->cfg = *cfg;
    if (!t->cfg.undef_bits)
        t->cfg.undef_bits = 0xffbadbadu;
    store_le(t->cr, 4, t->cfg.cr0);
    /* sr0.2 = dispatch mask (DMask), sr0.3 = vector mask (VMask): the
     * channels dispatched, helpers included */
    store_le(t->sr + 8, 4, t->cfg.dispatch_mask);
    store_le(t->sr + 12, 4, t->cfg.dispatch_mask);
    for (unsigned n = 0; n < GENSIM_MAX_CHANNELS; n++)
        t->chan_wait[n] = (t->cfg.dispatch_mask >> n & 1) ? -1 : -2;
    return t;
}

void gensim_thread_free(gensim_thread *t)
{
    free(t);
}

const char *gensim_error(const gensim_thread *t)
{
    return t->err;
}

static int is_send(int op)
{
    return op == GS_OP_SEND || op == GS_OP_SENDC || op == GS_OP_SENDS || op == GS_OP_SENDSC;
}

static int is_cf(int op)
{
    return op == GS_OP_IF || op == GS_OP_ELSE || op == GS_OP_ENDIF || op == GS_OP_WHILE ||
           op == GS_OP_BREAK || op == GS_OP_CONT || op == GS_OP_HALT || op == GS_OP_JMPI;
}

gensim_status gensim_run(gensim_thread *t, uint64_t max_steps)
{
    if (!t->prog)
        return GENSIM_ERROR;
    if (t->paused) {
        t->paused = 0;
        t->err[0] = '\0';
    }
    if (t->err[0])
        return GENSIM_ERROR;
    uint64_t done = 0;
    while (!t->ended) {
        if (t->ip >= t->prog->count) {
            gensim__fail(t, t->prog->count ? &t->prog->insts[t->prog->count - 1] : NULL,
                         "thread ran past the last instruction without an EOT message");
            return GENSIM_ERROR;
        }
        if (done >= max_steps) {
            snprintf(t->err, sizeof t->err, "%s:%u: step limit of %llu instructions reached",
                     t->prog->name, t->prog->insts[t->ip].line, (unsigned long long)max_steps);
            t->paused = 1;
            return GENSIM_STEP_LIMIT;
        }
        const gensim_inst *in = &t->prog->insts[t->ip];
        /* channels waiting for this instruction become active again */
        for (unsigned n = 0; n < GENSIM_MAX_CHANNELS; n++)
            if (t->chan_wait[n] == (int32_t)t->ip)
                t->chan_wait[n] = -1;
        uint32_t emask = exec_mask(t, in), pmask = 0;
        if (pred_mask(t, in, &pmask))
            return GENSIM_ERROR;
        size_t next = t->ip + 1;
        int rc = 0;
        if (in->op == GS_OP_NOP) {
            rc = 0;
        } else if (is_cf(in->op)) {
            rc = exec_cf(t, in, emask, pmask, &next);
        } else if (is_send(in->op)) {
            rc = gensim__send(t, in, emask & pmask);
        } else {
            rc = exec_alu(t, in, emask, pmask);
        }
        if (rc)
            return GENSIM_ERROR;
        t->ip = next;
        t->steps++;
        done++;
    }
    return GENSIM_OK;
}
