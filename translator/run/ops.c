/*
 * ops.c — what one instruction computes from its (swizzled, modified)
 * source values: the per-operation definitions of the reference
 * interpreter, as pure functions of the sources.
 *
 * The interpreter (interp.c) reads the sources, calls st_op_eval and
 * writes the result; the constant folder of the pipeline
 * (passes/fold_ops.c) calls the same function on constant operands, so a
 * folded value is by construction the interpreter's.  docs/interpreter.md
 * states every choice made where a specification leaves room.
 */
#include <math.h>
#include <string.h>

#include "translator.h"

/*
 * IEEE binary16: 1 sign bit, 5 exponent bits (bias 15), 10 mantissa bits.
 * The conversion rounds to nearest, ties to even, in integer arithmetic
 * (no dependence on the host's rounding mode): 65520 and above round to
 * infinity, magnitudes from 2^-14 down are denormals in steps of 2^-24, and
 * 2^-25 (the tie) and below round to zero.  NaN stays NaN (quiet).
 */
uint16_t st_half_from_float(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t exp = (u >> 23) & 0xffu, man = u & 0x7fffffu;
    if (exp == 0xffu) /* inf, or NaN with its top payload bits and the quiet bit */
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0u));
    int e = (int)exp - 127; /* f = 1.man * 2^e for normal f */
    if (e > 15)
        return (uint16_t)(sign | 0x7c00u);
    if (exp == 0 || e < -25) /* float denormals (< 2^-126) and anything below 2^-25 */
        return sign;
    /* the significand with its leading one, 24 bits, and how many of its
     * low bits fall below the half's last place: 13 for normal halves,
     * more below 2^-14 where the half's quantum stays 2^-24 */
    uint32_t sig = man | 0x800000u;
    unsigned drop = e >= -14 ? 13u : (unsigned)(13 + (-14 - e));
    uint32_t q = sig >> drop, rest = sig & ((1u << drop) - 1u), tie = 1u << (drop - 1);
    if (rest > tie || (rest == tie && (q & 1u)))
        q++;
    /* normal: q is 1.mmmmmmmmmm (11 bits, maybe 12 after rounding up, which
     * carries into the exponent); denormal: q is the mantissa alone (the
     * carry out of it is the smallest normal), exponent field 0 */
    uint32_t bits = e >= -14 ? ((uint32_t)(e + 15) << 10) + (q - 0x400u) : q;
    if (bits >= 0x7c00u)
        bits = 0x7c00u; /* rounded up past 65504 */
    return (uint16_t)(sign | bits);
}

float st_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    uint32_t u;
    if (exp == 0x1fu) {
        u = sign | 0x7f800000u | (man << 13);
    } else if (exp == 0) {
        float f = (float)man * 0x1p-24f; /* exact: man < 2^10 */
        return sign ? -f : f;
    } else {
        u = sign | ((exp + 112u) << 23) | (man << 13);
    }
    float f;
    memcpy(&f, &u, 4);
    return f;
}

float st_half_round(float f)
{
    return st_half_to_float(st_half_from_float(f));
}

/*
 * Every multiplication in an instruction's definition goes through here.
 * Under the d3d9 rule 0 * anything (inf and NaN included) is +0, as the
 * D3D9-era hardware did; under ieee it is the IEEE product.
 */
float st_op_mul(bool legacy, float a, float b)
{
    if (legacy && (a == 0.0f || b == 0.0f))
        return 0.0f;
    return a * b;
}

/*
 * a * b + c.  The specifications define the multiply-add operations by
 * their products and sums without saying whether a product is rounded
 * before it is added; this is the product rounded, then the sum, or with
 * `fused` the exact a * b + c rounded once.  Under the d3d9 rule a zero
 * factor makes the product +0 in both readings: the result is c + 0.
 */
float st_op_muladd(bool legacy, bool fused, float a, float b, float c)
{
    if (!fused)
        return st_op_mul(legacy, a, b) + c;
    if (legacy && (a == 0.0f || b == 0.0f))
        return c + 0.0f;
    return fmaf(a, b, c);
}

/*
 * lrp rounded once: the exact value of a * b + (1 - a) * c (the
 * specifications' formula; D3D9's "same as" c + a * (b - c) is the same
 * real number) rounded to the nearest float, ties to even: the fused
 * reading of lrp (docs/gensim.md, rule 1).  For finite sources that value
 * is a*b - a*c + c, three terms that are exact binary numbers (a product
 * of two floats has at most 48 significant bits) between 2^-298 and
 * 2^257.  They are added exactly as one signed integer in units of
 * 2^-298, which is then rounded by hand: no intermediate rounding, no
 * dependence on the host's precision or rounding mode.
 */
enum { LRP_LIMBS = 18 }; /* 576 bits of 2^-298: a sum up to 2^278 */

/* acc += sign * m * 2^(shift) (m < 2^49, shift >= 0), two's complement */
static void lrp_acc(uint32_t acc[LRP_LIMBS], bool neg, uint64_t m, unsigned shift)
{
    uint32_t add[LRP_LIMBS] = {0};
    unsigned w = shift / 32, b = shift % 32;
    /* m << b spans at most three limbs (49 + 31 bits) */
    uint64_t lo = m << b, hi = b ? m >> (64 - b) : 0;
    uint32_t part[3] = {(uint32_t)lo, (uint32_t)(lo >> 32), (uint32_t)hi};
    for (unsigned k = 0; k < 3 && w + k < LRP_LIMBS; k++)
        add[w + k] = part[k];
    if (neg) { /* two's complement of add */
        uint64_t carry = 1;
        for (unsigned k = 0; k < LRP_LIMBS; k++) {
            uint64_t v = (uint64_t)(uint32_t)~add[k] + carry;
            add[k] = (uint32_t)v;
            carry = v >> 32;
        }
    }
    uint64_t carry = 0;
    for (unsigned k = 0; k < LRP_LIMBS; k++) {
        uint64_t v = (uint64_t)acc[k] + add[k] + carry;
        acc[k] = (uint32_t)v;
        carry = v >> 32;
    }
}

/* f = sign * m * 2^(e - 149) with m < 2^24: the float's exact integer form */
static void float_parts(float f, bool *neg, uint64_t *m, int *e)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    *neg = u >> 31;
    uint32_t x = (u >> 23) & 0xffu;
    *m = x ? (u & 0x7fffffu) | 0x800000u : u & 0x7fffffu;
    *e = x ? (int)x - 1 : 0;
}

static bool limb_bit(const uint32_t acc[LRP_LIMBS], unsigned i)
{
    return acc[i / 32] >> (i % 32) & 1u;
}

float st_op_lrp_once(float a, float b, float c)
{
    if (!isfinite(a) || !isfinite(b) || !isfinite(c)) /* the result is inf or NaN */
        return (float)((double)a * b + (1.0 - (double)a) * c);
    bool na, nb, nc;
    uint64_t ma, mb, mc;
    int ea, eb, ec;
    float_parts(a, &na, &ma, &ea);
    float_parts(b, &nb, &mb, &eb);
    float_parts(c, &nc, &mc, &ec);
    uint32_t acc[LRP_LIMBS] = {0};
    /* a*b is ma*mb * 2^(ea + eb - 298), a*c likewise, c is mc * 2^(ec + 149 - 298) */
    lrp_acc(acc, na != nb, ma * mb, (unsigned)(ea + eb));
    lrp_acc(acc, na == nc, ma * mc, (unsigned)(ea + ec));
    lrp_acc(acc, nc, mc, (unsigned)(ec + 149));
    bool neg = acc[LRP_LIMBS - 1] >> 31;
    if (neg) {
        uint64_t carry = 1;
        for (unsigned k = 0; k < LRP_LIMBS; k++) {
            uint64_t v = (uint64_t)(uint32_t)~acc[k] + carry;
            acc[k] = (uint32_t)v;
            carry = v >> 32;
        }
    }
    int top = -1;
    for (int k = LRP_LIMBS - 1; k >= 0 && top < 0; k--)
        for (int j = 31; j >= 0; j--)
            if (acc[k] >> j & 1u) {
                top = 32 * k + j;
                break;
            }
    if (top < 0) {
        /* an exact zero: -0 only when both products a*b and (1-a)*c are -0,
         * as IEEE signs a sum of zeros (their signs are the doubles') */
        double p = (double)a * b, q = (1.0 - (double)a) * c;
        return p == 0.0 && q == 0.0 ? (float)(p + q) : 0.0f;
    }
    /* the float's last place: 23 bits below the top, or 2^-149 (bit 149)
     * for a result below 2^-126 */
    int lsb = top - 23 > 149 ? top - 23 : 149;
    uint32_t m = 0;
    for (int i = top; i >= lsb; i--)
        m = m << 1 | limb_bit(acc, (unsigned)i);
    bool half = lsb > 0 && limb_bit(acc, (unsigned)(lsb - 1)), rest = false;
    for (int i = lsb - 2; i >= 0 && !rest; i--)
        rest = limb_bit(acc, (unsigned)i);
    if (half && (rest || (m & 1u)))
        m++;
    /* value m * 2^(lsb - 298); encoded: a subnormal's bits are m itself
     * (m = 2^23 after rounding up is the smallest normal, as encoded) */
    uint32_t bits;
    if (lsb == 149 && m <= 0x800000u) {
        bits = m;
    } else {
        int exp = lsb - 298 + 23; /* of m's top bit, m in [2^23, 2^24] */
        if (m == 0x1000000u) {
            m >>= 1;
            exp++;
        }
        if (exp + 127 >= 255)
            bits = 0x7f800000u;
        else
            bits = (uint32_t)(exp + 127) << 23 | (m & 0x7fffffu);
    }
    bits |= (uint32_t)neg << 31;
    float r;
    memcpy(&r, &bits, 4);
    return r;
}

/*
 * A four-term dot product starts from its w term, then adds x, y, z;
 * shorter ones go x, y, z.  Why: a chain costs one instruction per
 * fused step plus its start, and the start is free when it is an addend
 * or a product known exactly without an instruction (x * 1 is x, x * -1
 * is -x).  Where a shader has such a product it is mostly the w of a
 * position, homogeneous w = 1 (`MOV p.w, 1;` then DP4 or m4x4 rows),
 * and DPH is a DP4 whose w product is 1 * b.w: its addend; in a three-term
 * one it is mostly the x of dst's (1, d, d*d, 1/d) against attenuation
 * factors, first already.  The order is fixed, not chosen from what a
 * kernel happens to know constant, because the interpreter must compute
 * the very same sums from values alone.
 */
unsigned st_op_dot_term(unsigned n, unsigned step)
{
    return n == 4 ? (step + 3u) % 4u : step;
}

/* Unfused: ((x + y) + z) + w, each product and each sum rounded to
 * float; fused: st_op_dot_term's order, each later product rounded with
 * its sum. */
float st_op_dot(bool legacy, bool fused, const float a[4], const float b[4], unsigned n)
{
    if (n > 4)
        n = 4;
    if (!fused) {
        float s = st_op_mul(legacy, a[0], b[0]);
        for (unsigned k = 1; k < n; k++)
            s = st_op_muladd(legacy, false, a[k], b[k], s);
        return s;
    }
    unsigned t = st_op_dot_term(n, 0);
    float s = st_op_mul(legacy, a[t], b[t]);
    for (unsigned j = 1; j < n; j++) {
        t = st_op_dot_term(n, j);
        s = st_op_muladd(legacy, true, a[t], b[t], s);
    }
    return s;
}

float st_op_dot_add(bool legacy, bool fused, const float a[4], const float b[4], unsigned n,
                    float c)
{
    if (n > 4)
        n = 4;
    if (!fused)
        return st_op_dot(legacy, false, a, b, n) + c;
    float s = c;
    for (unsigned j = 0; j < n; j++) {
        unsigned t = st_op_dot_term(n, j);
        s = st_op_muladd(legacy, true, a[t], b[t], s);
    }
    return s;
}

bool st_op_compare(enum st_compare c, float a, float b)
{
    switch (c) {
    case ST_CMP_GT: return a > b;
    case ST_CMP_EQ: return a == b;
    case ST_CMP_GE: return a >= b;
    case ST_CMP_LT: return a < b;
    case ST_CMP_NE: return a != b;
    case ST_CMP_LE: return a <= b;
    case ST_CMP_NONE: break;
    }
    return false;
}

/* Round to nearest, halves up (floor(x + 0.5)), saturating; NaN -> 0. */
int32_t st_op_round(float f)
{
    if (isnan(f))
        return 0;
    double d = floor((double)f + 0.5);
    if (d >= 2147483647.0)
        return INT32_MAX;
    if (d <= -2147483648.0)
        return INT32_MIN;
    return (int32_t)d;
}

/* Clears the low 8 mantissa bits: the "partial precision" of expp/logp. */
float st_op_partial(float f)
{
    if (!isfinite(f))
        return f;
    uint32_t u;
    memcpy(&u, &f, 4);
    u &= 0xffffff00u;
    memcpy(&f, &u, 4);
    return f;
}

/*
 * _sat: x < 0 ? +0 : x > 1 ? 1 : x, every NaN (quiet or signaling) -> +0.
 * -0 lies in [0, 1] and stays -0 (a compare-based clamp, as Gen's (sat)
 * computes it; docs/interpreter.md "Result modifiers" says why).
 */
float st_op_saturate(float x)
{
    return x >= 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;
}

/*
 * The rounding of one step of an operation: to float (what the C
 * expression did already), or, for a _pp instruction under --pp=fp16
 * (e->half), to half.  A step is one operation a Gen instruction computes:
 * a sum, a product, a multiply-add (two steps when the product is rounded
 * first), a reciprocal, a reciprocal square root, one function value.
 */
static float R(const struct st_op_env *e, float x)
{
    return e->half ? st_half_round(x) : x;
}

static float mul_e(const struct st_op_env *e, float a, float b)
{
    return R(e, st_op_mul(e->legacy, a, b));
}

static float muladd_e(const struct st_op_env *e, float a, float b, float c)
{
    if (!e->half)
        return st_op_muladd(e->legacy, e->fused, a, b, c);
    if (!e->fused)
        return R(e, mul_e(e, a, b) + c);
    /* one rounding to half of the fused float result (halves multiply
     * exactly in float, so only the sum was rounded before) */
    return R(e, st_op_muladd(e->legacy, true, a, b, c));
}

float st_op_dot_env(const struct st_op_env *e, const float a[4], const float b[4], unsigned n)
{
    if (n > 4)
        n = 4;
    if (!e->fused) {
        float s = mul_e(e, a[0], b[0]);
        for (unsigned k = 1; k < n; k++)
            s = muladd_e(e, a[k], b[k], s);
        return s;
    }
    unsigned t = st_op_dot_term(n, 0);
    float s = mul_e(e, a[t], b[t]);
    for (unsigned j = 1; j < n; j++) {
        t = st_op_dot_term(n, j);
        s = muladd_e(e, a[t], b[t], s);
    }
    return s;
}

float st_op_dot_add_env(const struct st_op_env *e, const float a[4], const float b[4], unsigned n,
                        float c)
{
    if (n > 4)
        n = 4;
    if (!e->fused)
        return R(e, st_op_dot_env(e, a, b, n) + c);
    float s = c;
    for (unsigned j = 0; j < n; j++) {
        unsigned t = st_op_dot_term(n, j);
        s = muladd_e(e, a[t], b[t], s);
    }
    return s;
}

/* LIT's power clamp in ARB programs: the largest float below 128. */
#define ARB_LIT_MAXP 127.99999237060546875f

static void splat(float res[4], float f)
{
    res[0] = res[1] = res[2] = res[3] = f;
}

/* a x b: a1 b2 - a2 b1, ...; fused, the first product is added exactly */
static void cross(const struct st_op_env *e, const float a[4], const float b[4], float res[4])
{
    static const int i1[3] = {1, 2, 0}, i2[3] = {2, 0, 1};
    for (int k = 0; k < 3; k++)
        res[k] = muladd_e(e, a[i1[k]], b[i2[k]], -mul_e(e, a[i2[k]], b[i1[k]]));
}

/* The instructions only ARB programs have (OPF_ARB rows of opcodes.def). */
static bool eval_arb(const struct st_op_env *e, enum st_opcode op, const float s0[4],
                     const float s1[4], float res[4], unsigned *mask)
{
    const bool lg = e->legacy;
    switch (op) {
    case ST_OP_ARB_ARL: /* floor into A0.x (D3D9's mova rounds) */
        splat(res, floorf(s0[0]));
        return true;
    case ST_OP_ARB_DPH:
        splat(res, st_op_dot_add(lg, e->fused, s0, s1, 3, s1[3]));
        return true;
    case ST_OP_ARB_FLR:
        for (int k = 0; k < 4; k++)
            res[k] = floorf(s0[k]);
        return true;
    case ST_OP_ARB_LIT: {
        /* The specification's pseudo-code: x, y clamped below at 0, the
         * power to +-(128 - epsilon), z = x > 0 ? y^w : 0 with 0^0 = 1. */
        float x = s0[0] < 0.0f ? 0.0f : s0[0];
        float y = s0[1] < 0.0f ? 0.0f : s0[1];
        float w = s0[3];
        if (w < -ARB_LIT_MAXP)
            w = -ARB_LIT_MAXP;
        else if (w > ARB_LIT_MAXP)
            w = ARB_LIT_MAXP;
        res[0] = 1.0f;
        res[1] = x;
        res[2] = x > 0.0f ? (float)pow((double)y, (double)w) : 0.0f;
        res[3] = 1.0f;
        return true;
    }
    case ST_OP_ARB_XPD: /* w is undefined in ARB; shadertrans writes 1 */
        cross(e, s0, s1, res);
        res[3] = 1.0f;
        return true;
    case ST_OP_ARB_SWZ:
        for (int k = 0; k < 4; k++) {
            uint8_t sel = e->swz_sel[k];
            float x = sel < 4 ? s0[sel] : sel == ST_ARB_SWZ_ONE ? 1.0f : 0.0f;
            res[k] = (e->swz_neg >> k) & 1 ? -x : x;
        }
        return true;
    case ST_OP_ARB_SIN:
        splat(res, (float)sin((double)s0[0]));
        return true;
    case ST_OP_ARB_COS:
        splat(res, (float)cos((double)s0[0]));
        return true;
    case ST_OP_ARB_SCS: /* z and w are undefined in ARB; shadertrans writes 0 */
        res[0] = (float)cos((double)s0[0]);
        res[1] = (float)sin((double)s0[0]);
        res[2] = res[3] = 0.0f;
        return true;
    default:
        *mask = 0;
        return false;
    }
}

/* mov, the sums and products (dot products, dst, lrp, crs, nrm included), frc,
 * abs: every product goes through st_op_mul, st_op_muladd or st_op_dot, where
 * the float rule and the fused reading live. */
static bool eval_arith(const struct st_op_env *e, enum st_opcode op, const float *s0,
                       const float *s1, const float *s2, float res[4], unsigned *mask)
{
    switch (op) {
    case ST_OP_MOV: case ST_OP_MOVA: case ST_OP_TEXCRD:
        memcpy(res, s0, 4 * sizeof(float));
        return true;
    case ST_OP_ADD:
        for (int k = 0; k < 4; k++)
            res[k] = R(e, s0[k] + s1[k]);
        return true;
    case ST_OP_SUB:
        for (int k = 0; k < 4; k++)
            res[k] = R(e, s0[k] - s1[k]);
        return true;
    case ST_OP_MUL:
        for (int k = 0; k < 4; k++)
            res[k] = mul_e(e, s0[k], s1[k]);
        return true;
    case ST_OP_MAD:
        for (int k = 0; k < 4; k++)
            res[k] = muladd_e(e, s0[k], s1[k], s2[k]);
        return true;
    case ST_OP_DP3:
        splat(res, st_op_dot_env(e, s0, s1, 3));
        return true;
    case ST_OP_DP4:
        splat(res, st_op_dot_env(e, s0, s1, 4));
        return true;
    case ST_OP_DP2ADD:
        splat(res, st_op_dot_add_env(e, s0, s1, 2, s2[0]));
        return true;
    case ST_OP_DST:
        res[0] = 1.0f;
        res[1] = mul_e(e, s0[1], s1[1]);
        res[2] = s0[2];
        res[3] = s1[3];
        return true;
    case ST_OP_LRP:
        /* src0 * (src1 - src2) + src2; ARB: src0 * src1 + (1 - src0) * src2.
         * The fused reading is the exact value rounded once (Gen's `lrp`);
         * under the d3d9 rule or for a _pp instruction, where the kernel
         * keeps the steps, the first product rounded with the sum. */
        for (int k = 0; k < 4; k++) {
            if (e->fused && !e->legacy && !e->half)
                res[k] = st_op_lrp_once(s0[k], s1[k], s2[k]);
            else if (e->arb)
                res[k] = muladd_e(e, s0[k], s1[k], mul_e(e, R(e, 1.0f - s0[k]), s2[k]));
            else
                res[k] = muladd_e(e, s0[k], R(e, s1[k] - s2[k]), s2[k]);
        }
        return true;
    case ST_OP_FRC:
        for (int k = 0; k < 4; k++)
            res[k] = R(e, s0[k] - floorf(s0[k]));
        return true;
    case ST_OP_CRS:
        cross(e, s0, s1, res);
        res[3] = 0.0f;
        *mask = 0x7;
        return true;
    case ST_OP_ABS:
        for (int k = 0; k < 4; k++)
            res[k] = fabsf(s0[k]);
        return true;
    case ST_OP_NRM: {
        /* src * (1 / sqrt(dot3(src, src))), w included, as the spec. */
        float d = st_op_dot_env(e, s0, s0, 3);
        float f = R(e, 1.0f / (float)sqrt((double)d));
        for (int k = 0; k < 4; k++)
            res[k] = mul_e(e, s0[k], f);
        return true;
    }
    default:
        return false;
    }
}

/* min, max, slt, sge, sgn, cmp, cnd, setp: a comparison per lane picks a value,
 * written as the specification's expression so that a NaN goes where it says. */
static bool eval_select(const struct st_op_env *e, enum st_opcode op, const float *s0,
                        const float *s1, const float *s2, float res[4], unsigned *mask)
{
    switch (op) {
    case ST_OP_MIN: /* the spec's (a < b) ? a : b, NaN included; ARB's (a > b) ? b : a */
        for (int k = 0; k < 4; k++)
            res[k] = e->arb ? (s0[k] > s1[k] ? s1[k] : s0[k]) : (s0[k] < s1[k] ? s0[k] : s1[k]);
        return true;
    case ST_OP_MAX: /* the spec's (a >= b) ? a : b; ARB's (a > b) ? a : b */
        for (int k = 0; k < 4; k++)
            res[k] = (e->arb ? s0[k] > s1[k] : s0[k] >= s1[k]) ? s0[k] : s1[k];
        return true;
    case ST_OP_SLT:
        for (int k = 0; k < 4; k++)
            res[k] = s0[k] < s1[k] ? 1.0f : 0.0f;
        return true;
    case ST_OP_SGE:
        for (int k = 0; k < 4; k++)
            res[k] = s0[k] >= s1[k] ? 1.0f : 0.0f;
        return true;
    case ST_OP_SGN: /* src1 and src2 are the spec's scratch registers */
        for (int k = 0; k < 4; k++)
            res[k] = s0[k] > 0.0f ? 1.0f : s0[k] < 0.0f ? -1.0f : 0.0f;
        return true;
    case ST_OP_CMP: /* ARB: (a < 0) ? b : c, so NaN gives c */
        for (int k = 0; k < 4; k++)
            res[k] = (e->arb ? s0[k] < 0.0f : s0[k] >= 0.0f) ? s1[k] : s2[k];
        return true;
    case ST_OP_CND:
        for (int k = 0; k < 4; k++)
            res[k] = s0[k] > 0.5f ? s1[k] : s2[k];
        return true;
    case ST_OP_SETP:
        for (int k = 0; k < 4; k++)
            res[k] = st_op_compare(e->cmp, s0[k], s1[k]) ? 1.0f : 0.0f;
        return true;
    default:
        return false;
    }
}

/* rcp, rsq, exp, log (and the partial-precision forms), lit, pow, sincos:
 * the scalar functions, with the special inputs the specification names. */
static bool eval_math(const struct st_op_env *e, enum st_opcode op, const float *s0,
                      const float *s1, const float *s2, float res[4], unsigned *mask)
{
    switch (op) {
    case ST_OP_RCP: {
        /* D3D9: 1.0 gives exactly 1.0; +-0 gives +inf (the text of the
         * spec; its code fragment says FLT_MAX); else the IEEE quotient.
         * ARB names one value, RCP(1) = 1, which the quotient is: so the
         * IEEE quotient throughout, -0 giving -inf. */
        float f = s0[0];
        splat(res, f == 0.0f && !e->arb ? INFINITY : f == 1.0f ? 1.0f : R(e, 1.0f / f));
        return true;
    }
    case ST_OP_RSQ: {
        /* The absolute value first; 0 -> +inf; 1 -> 1. */
        float f = fabsf(s0[0]);
        splat(res, f == 0.0f ? INFINITY : f == 1.0f ? 1.0f : R(e, 1.0f / (float)sqrt((double)f)));
        return true;
    }
    case ST_OP_EXP:
        splat(res, R(e, (float)exp2((double)s0[0])));
        return true;
    case ST_OP_LOG: {
        /* log2 of the absolute value; 0 -> -inf. */
        float v = fabsf(s0[0]);
        splat(res, v == 0.0f ? -INFINITY : R(e, (float)log2((double)v)));
        return true;
    }
    case ST_OP_EXPP: {
        float v = s0[0];
        if (e->ver < ST_VER(2, 0)) {
            float fl = floorf(v);
            res[0] = (float)exp2((double)fl);
            res[1] = v - fl;
            res[2] = st_op_partial((float)exp2((double)v));
            res[3] = 1.0f;
        } else {
            splat(res, R(e, st_op_partial((float)exp2((double)v))));
        }
        return true;
    }
    case ST_OP_LOGP: {
        float v = fabsf(s0[0]);
        float lgv = v == 0.0f ? -INFINITY : st_op_partial((float)log2((double)v));
        if (e->ver < ST_VER(2, 0)) {
            if (v == 0.0f) {
                res[0] = -INFINITY;
                res[1] = 1.0f;
                res[2] = -INFINITY;
            } else {
                /* The spec's bit fields: the biased exponent minus 127 and
                 * the mantissa under exponent 0 (so denormals give -127 and
                 * a y in [1, 2), inf gives 128 and 1). */
                uint32_t u, mant;
                memcpy(&u, &v, 4);
                res[0] = (float)((int)(u >> 23) - 127);
                mant = (u & 0x7fffffu) | 0x3f800000u;
                memcpy(&res[1], &mant, 4);
                res[2] = lgv;
            }
            res[3] = 1.0f;
        } else {
            splat(res, R(e, lgv));
        }
        return true;
    }
    case ST_OP_LIT: {
        /* As the spec: power clamped to +-127.9961, pow in double. */
        float power = s0[3];
        const float maxp = 127.9961f;
        if (power < -maxp)
            power = -maxp;
        else if (power > maxp)
            power = maxp;
        res[0] = 1.0f;
        res[1] = 0.0f;
        res[2] = 0.0f;
        res[3] = 1.0f;
        if (s0[0] > 0.0f) {
            res[1] = s0[0];
            if (s0[1] > 0.0f)
                res[2] = R(e, (float)pow((double)s0[1], (double)power));
        }
        return true;
    }
    case ST_OP_POW:
        /* |src0|^src1, the function both specifications name (D3D9:
         * "pow(abs(src0), src1)"; ARB: a power, 0^0 = 1 as LIT says), in
         * double and rounded once; C99's special values (pow(x, +-0) = 1,
         * pow(1, y) = 1, NaN included), which are also what the d3d9 rule
         * makes of the expansion exp2(src1 * log2|src0|), so the rule has
         * nothing to change here (docs/float-rules.md) */
        splat(res, R(e, (float)pow(fabs((double)s0[0]), (double)s1[0])));
        return true;
    case ST_OP_SINCOS: {
        /* Exact cos/sin of the scalar (the 2_0 constants are not needed). */
        double a = (double)s0[0];
        res[0] = R(e, (float)cos(a));
        res[1] = R(e, (float)sin(a));
        res[2] = res[3] = 0.0f;
        *mask = 0x3;
        return true;
    }
    default:
        return false;
    }
}

bool st_op_eval(const struct st_op_env *e, enum st_opcode op, const float s[3][4], float res[4],
                unsigned *mask)
{
    const float *s0 = s[0], *s1 = s[1], *s2 = s[2];
    *mask = 0xf;
    /* a family returns false, touching nothing, for an opcode it does not define */
    if (eval_arith(e, op, s0, s1, s2, res, mask) || eval_select(e, op, s0, s1, s2, res, mask) ||
        eval_math(e, op, s0, s1, s2, res, mask))
        return true;
    if (st_opinfo[op].flags & OPF_ARB)
        return eval_arb(e, op, s0, s1, res, mask);
    *mask = 0;
    return false;
}
