/* gensim/parse.c — IGA (Gen9) assembly text -> decoded gensim_inst array.
 *
 * Accepts the subset of `iga64 -p=9` syntax that docs/gen9-target.md and
 * its examples use: one instruction per line, labels alone on a line,
 * `//` and block comments.  Anything outside the subset is a located
 * error string, never an abort.  Where IGA rejects a spelling (e.g. the
 * option {NoMask}, decimal integer literals for :f) we reject it too, so
 * kernels that pass here also pass `iga64 -a`.
 */
#include "gensim.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct label {
    char name[64];
    int32_t index;
} label;

typedef struct fixup {
    size_t inst;
    int which;      /* 0 jip, 1 uip */
    char name[64];
    unsigned line;
} fixup;

typedef struct parser {
    const char *name;
    unsigned line;
    const char *s;   /* cursor in the current line */
    char *err;
    size_t errlen;
    int failed;
    gensim_inst *insts;
    size_t count, cap;
    label *labels;
    size_t nlabels, caplabels;
    fixup *fixups;
    size_t nfixups, capfixups;
} parser;

static int perr(parser *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int perr(parser *p, const char *fmt, ...)
{
    if (p->failed)
        return -1;
    p->failed = 1;
    if (p->err && p->errlen) {
        int n = snprintf(p->err, p->errlen, "%s:%u: ", p->name, p->line);
        if (n < 0)
            n = 0;
        if ((size_t)n < p->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

static void skip_ws(parser *p)
{
    while (*p->s == ' ' || *p->s == '\t' || *p->s == '\r')
        p->s++;
}

static int at_end(parser *p)
{
    skip_ws(p);
    return *p->s == '\0';
}

static int accept(parser *p, char c)
{
    skip_ws(p);
    if (*p->s == c) {
        p->s++;
        return 1;
    }
    return 0;
}

static int expect(parser *p, char c, const char *what)
{
    if (!accept(p, c))
        return perr(p, "expected '%c' %s near '%.20s'", c, what, p->s);
    return 0;
}

static int is_ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static int is_ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* reads an identifier (letters, digits, '_') into buf; returns length */
static size_t read_ident(parser *p, char *buf, size_t cap)
{
    size_t n = 0;
    skip_ws(p);
    if (!is_ident_start(*p->s))
        return 0;
    while (is_ident_char(*p->s)) {
        if (n + 1 < cap)
            buf[n] = *p->s;
        n++;
        p->s++;
    }
    buf[n < cap ? n : cap - 1] = '\0';
    return n;
}

static int read_uint(parser *p, unsigned long *out)
{
    char *end;
    skip_ws(p);
    if (!isdigit((unsigned char)*p->s))
        return perr(p, "expected a number near '%.20s'", p->s);
    errno = 0;
    unsigned long v = strtoul(p->s, &end, 0);
    if (errno)
        return perr(p, "number out of range near '%.20s'", p->s);
    p->s = end;
    *out = v;
    return 0;
}

static unsigned type_size(int t)
{
    switch (t) {
    case GS_T_UB: case GS_T_B: return 1;
    case GS_T_UW: case GS_T_W: case GS_T_HF: return 2;
    case GS_T_UQ: case GS_T_Q: case GS_T_DF: return 8;
    default: return 4;
    }
}

static int parse_type(parser *p, uint8_t *type)
{
    char buf[8];
    static const struct { const char *n; int t; } types[] = {
        {"ud", GS_T_UD}, {"d", GS_T_D}, {"uw", GS_T_UW}, {"w", GS_T_W},
        {"ub", GS_T_UB}, {"b", GS_T_B}, {"uq", GS_T_UQ}, {"q", GS_T_Q},
        {"f", GS_T_F}, {"hf", GS_T_HF}, {"df", GS_T_DF}, {"v", GS_T_V},
        {"uv", GS_T_UV}, {"vf", GS_T_VF},
    };
    if (*p->s != ':')
        return perr(p, "expected ':type' near '%.20s'", p->s);
    p->s++;
    if (!read_ident(p, buf, sizeof buf))
        return perr(p, "expected a type after ':'");
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(buf, types[i].n) == 0) {
            *type = (uint8_t)types[i].t;
            return 0;
        }
    return perr(p, "unknown type ':%s'", buf);
}

/* f0.0 / f1.1 -> flag bit offset r*32 + s*16 */
static int parse_flag_name(parser *p, uint8_t *bit)
{
    unsigned long r, s;
    skip_ws(p);
    if (*p->s != 'f')
        return perr(p, "expected a flag register (f0.0) near '%.20s'", p->s);
    p->s++;
    if (read_uint(p, &r))
        return -1;
    if (*p->s != '.')
        return perr(p, "flag register needs a sub-register (f%lu.0)", r);
    p->s++;
    if (read_uint(p, &s))
        return -1;
    if (r > 1 || s > 1)
        return perr(p, "no flag register f%lu.%lu on Gen9 (f0.0-f1.1)", r, s);
    *bit = (uint8_t)(r * 32 + s * 16);
    return 0;
}

/* (W) (W&f0.0) (f0.0) (~f0.0) (f0.0.any8h) ... */
static int parse_predication(parser *p, gensim_inst *in)
{
    p->s++; /* '(' */
    skip_ws(p);
    if (*p->s == 'W') {
        in->nomask = 1;
        p->s++;
        if (accept(p, ')'))
            return 0;
        if (expect(p, '&', "after W in predication"))
            return -1;
    }
    skip_ws(p);
    if (*p->s == '~') {
        in->pred_inv = 1;
        p->s++;
    } else if (*p->s == '-' || *p->s == '+') {
        return perr(p, "IGA has no '%c' predicate; use (f0.0) or (~f0.0)", *p->s);
    }
    if (parse_flag_name(p, &in->pred_flag))
        return -1;
    in->pred = GS_P_NORMAL;
    if (*p->s == '.') {
        char buf[16];
        static const struct { const char *n; int c; } ctl[] = {
            {"any2h", GS_P_ANY2H}, {"any4h", GS_P_ANY4H}, {"any8h", GS_P_ANY8H},
            {"any16h", GS_P_ANY16H}, {"any32h", GS_P_ANY32H},
            {"all2h", GS_P_ALL2H}, {"all4h", GS_P_ALL4H}, {"all8h", GS_P_ALL8H},
            {"all16h", GS_P_ALL16H}, {"all32h", GS_P_ALL32H},
        };
        p->s++;
        read_ident(p, buf, sizeof buf);
        size_t i;
        for (i = 0; i < sizeof ctl / sizeof ctl[0]; i++)
            if (strcmp(buf, ctl[i].n) == 0)
                break;
        if (i == sizeof ctl / sizeof ctl[0])
            return perr(p, "unsupported predicate control '.%s' (Align16 .anyv/.allv are not modelled)", buf);
        in->pred = (uint8_t)ctl[i].c;
    }
    return expect(p, ')', "to close the predication");
}

static const struct { const char *name; int op; int nsrc; } opcodes[] = {
    {"mov", GS_OP_MOV, 1}, {"sel", GS_OP_SEL, 2}, {"not", GS_OP_NOT, 1},
    {"and", GS_OP_AND, 2}, {"or", GS_OP_OR, 2}, {"xor", GS_OP_XOR, 2},
    {"shr", GS_OP_SHR, 2}, {"shl", GS_OP_SHL, 2}, {"asr", GS_OP_ASR, 2},
    {"cmp", GS_OP_CMP, 2}, {"csel", GS_OP_CSEL, 3}, {"add", GS_OP_ADD, 2},
    {"mul", GS_OP_MUL, 2}, {"mach", GS_OP_MACH, 2}, {"avg", GS_OP_AVG, 2},
    {"mad", GS_OP_MAD, 3}, {"lrp", GS_OP_LRP, 3}, {"frc", GS_OP_FRC, 1},
    {"rndd", GS_OP_RNDD, 1}, {"rnde", GS_OP_RNDE, 1}, {"rndz", GS_OP_RNDZ, 1},
    {"rndu", GS_OP_RNDU, 1}, {"lzd", GS_OP_LZD, 1}, {"fbh", GS_OP_FBH, 1},
    {"fbl", GS_OP_FBL, 1}, {"cbit", GS_OP_CBIT, 1}, {"bfrev", GS_OP_BFREV, 1},
    {"dp2", GS_OP_DP2, 2}, {"dp3", GS_OP_DP3, 2}, {"dp4", GS_OP_DP4, 2},
    {"dph", GS_OP_DPH, 2}, {"line", GS_OP_LINE, 2}, {"pln", GS_OP_PLN, 2},
    {"math", GS_OP_MATH, 0},
    {"if", GS_OP_IF, 0}, {"else", GS_OP_ELSE, 0}, {"endif", GS_OP_ENDIF, 0},
    {"while", GS_OP_WHILE, 0}, {"break", GS_OP_BREAK, 0}, {"cont", GS_OP_CONT, 0},
    {"halt", GS_OP_HALT, 0}, {"jmpi", GS_OP_JMPI, 0}, {"nop", GS_OP_NOP, 0},
    {"send", GS_OP_SEND, 0}, {"sendc", GS_OP_SENDC, 0}, {"sends", GS_OP_SENDS, 0},
    {"sendsc", GS_OP_SENDSC, 0},
};

static const struct { const char *name; int fn; int nsrc; } mathfns[] = {
    {"inv", GS_MATH_INV, 1}, {"log", GS_MATH_LOG, 1}, {"exp", GS_MATH_EXP, 1},
    {"sqt", GS_MATH_SQT, 1}, {"rsqt", GS_MATH_RSQT, 1}, {"sin", GS_MATH_SIN, 1},
    {"cos", GS_MATH_COS, 1}, {"pow", GS_MATH_POW, 2}, {"fdiv", GS_MATH_FDIV, 2},
    {"idiv", GS_MATH_IDIV, 2}, {"iqot", GS_MATH_IQOT, 2}, {"irem", GS_MATH_IREM, 2},
};

/* register name at the cursor: fills file/reg/sub (sub in raw units,
 * converted to type units by the caller once the type is known) */
static int parse_reg_name(parser *p, gensim_operand *o, int *has_sub, unsigned long *sub)
{
    char buf[16];
    const char *start = p->s;
    *has_sub = 0;
    *sub = 0;
    if (p->s[0] == 'r' && p->s[1] == '[') {
        /* indirect: r[a0.N] or r[a0.N,off] */
        unsigned long an;
        p->s += 2;
        skip_ws(p);
        if (strncmp(p->s, "a0.", 3) != 0)
            return perr(p, "indirect operand needs an a0 sub-register: '%.20s'", start);
        p->s += 3;
        if (read_uint(p, &an))
            return -1;
        if (an > 15)
            return perr(p, "no address sub-register a0.%lu", an);
        o->file = GS_F_GRF;
        o->addr_mode = GS_A_VX1;
        o->addr_sub = (uint16_t)an;
        if (accept(p, ',')) {
            skip_ws(p);
            int neg = 0;
            if (*p->s == '-') {
                neg = 1;
                p->s++;
            }
            unsigned long off;
            if (read_uint(p, &off))
                return -1;
            if (off > 511)
                return perr(p, "indirect offset %s%lu out of range", neg ? "-" : "", off);
            o->addr_off = (int16_t)(neg ? -(long)off : (long)off);
        }
        return expect(p, ']', "to close the indirect operand");
    }
    if (!read_ident(p, buf, sizeof buf))
        return perr(p, "expected a register near '%.20s'", start);
    size_t n = strlen(buf);
    const char *num = buf;
    while (*num && !isdigit((unsigned char)*num))
        num++;
    size_t plen = (size_t)(num - buf);
    unsigned long rn = 0;
    int has_num = *num != '\0';
    if (has_num) {
        char *end;
        rn = strtoul(num, &end, 10);
        if (*end)
            return perr(p, "bad register name '%s'", buf);
    }
    (void)n;
    if (plen == 1 && buf[0] == 'r' && has_num) {
        if (rn >= GENSIM_GRF_COUNT)
            return perr(p, "register r%lu does not exist (r0-r127)", rn);
        o->file = GS_F_GRF;
    } else if (strcmp(buf, "null") == 0) {
        o->file = GS_F_NULL;
    } else if (plen == 3 && strncmp(buf, "acc", 3) == 0 && has_num) {
        if (rn > 1)
            return perr(p, "accumulator acc%lu is not modelled (acc0, acc1)", rn);
        o->file = GS_F_ACC;
    } else if (plen == 1 && buf[0] == 'f' && has_num) {
        if (rn > 1)
            return perr(p, "no flag register f%lu", rn);
        o->file = GS_F_FLAG;
    } else if (plen == 1 && buf[0] == 'a' && has_num) {
        if (rn != 0)
            return perr(p, "no address register a%lu", rn);
        o->file = GS_F_ADDR;
    } else if (plen == 2 && strncmp(buf, "cr", 2) == 0 && has_num && rn == 0) {
        o->file = GS_F_CR;
    } else if (plen == 2 && strncmp(buf, "sr", 2) == 0 && has_num && rn == 0) {
        o->file = GS_F_SR;
    } else if (strcmp(buf, "ce") == 0 || strcmp(buf, "ce0") == 0) {
        o->file = GS_F_CE;
    } else {
        return perr(p, "unsupported register '%s'", buf);
    }
    o->reg = (uint16_t)rn;
    if (*p->s == '.' && isdigit((unsigned char)p->s[1])) {
        p->s++;
        if (read_uint(p, sub))
            return -1;
        *has_sub = 1;
    }
    return 0;
}

/* numbers in a region */
static int parse_region_nums(parser *p, unsigned long nums[3], char seps[2], int *count)
{
    *count = 0;
    p->s++; /* '<' */
    for (;;) {
        if (*count == 3)
            return perr(p, "too many region fields");
        if (read_uint(p, &nums[*count]))
            return -1;
        (*count)++;
        skip_ws(p);
        if (*p->s == '>') {
            p->s++;
            return 0;
        }
        if (*p->s != ';' && *p->s != ',')
            return perr(p, "bad region near '%.20s'", p->s);
        if (*count <= 2)
            seps[*count - 1] = *p->s;
        p->s++;
    }
}

static int valid_width(unsigned long v)
{
    return v == 1 || v == 2 || v == 4 || v == 8 || v == 16;
}
static int valid_stride(unsigned long v)
{
    return v == 0 || v == 1 || v == 2 || v == 4 || v == 8 || v == 16 || v == 32;
}

/* immediate literal followed by :type */
static int parse_immediate(parser *p, gensim_operand *o)
{
    const char *start = p->s;
    int neg = 0;
    if (*p->s == '-') {
        neg = 1;
        p->s++;
    }
    const char *lit = p->s;
    int is_hex = lit[0] == '0' && (lit[1] == 'x' || lit[1] == 'X');
    int is_inf = strncmp(lit, "inf", 3) == 0;
    const char *q = lit;
    int is_float_lit = 0;
    if (is_inf) {
        q = lit + 3;
    } else if (is_hex) {
        q = lit + 2;
        while (isxdigit((unsigned char)*q))
            q++;
    } else {
        while (isdigit((unsigned char)*q) || *q == '.' || *q == 'e' || *q == 'E' ||
               ((*q == '-' || *q == '+') && (q[-1] == 'e' || q[-1] == 'E'))) {
            if (*q == '.' || *q == 'e' || *q == 'E')
                is_float_lit = 1;
            q++;
        }
    }
    if (q == lit)
        return perr(p, "bad operand '%.20s'", start);
    char numbuf[64];
    size_t len = (size_t)(q - lit);
    if (len >= sizeof numbuf)
        return perr(p, "literal too long");
    memcpy(numbuf, lit, len);
    numbuf[len] = '\0';
    p->s = q;
    if (parse_type(p, &o->type))
        return -1;
    o->file = GS_F_IMM;
    int t = o->type;
    int float_type = t == GS_T_F || t == GS_T_DF || t == GS_T_HF;
    if (t == GS_T_V || t == GS_T_UV || t == GS_T_VF) {
        if (!is_hex || neg)
            return perr(p, "packed vector immediates must be hex literals");
        o->imm = strtoull(numbuf, NULL, 16) & 0xffffffffu;
        return 0;
    }
    if (float_type && !is_hex) {
        if (!is_float_lit && !is_inf)
            return perr(p, "integer literals for floating-point immediates must be hex (e.g. 0x3F800000:f)");
        double d = is_inf ? (double)INFINITY : strtod(numbuf, NULL);
        if (neg)
            d = -d;
        if (t == GS_T_F) {
            union { float f; uint32_t u; } v;
            v.f = (float)d;
            o->imm = v.u;
        } else if (t == GS_T_DF) {
            union { double f; uint64_t u; } v;
            v.f = d;
            o->imm = v.u;
        } else {
            return perr(p, ":hf immediates are only accepted as hex literals here");
        }
        return 0;
    }
    if (is_float_lit || is_inf)
        return perr(p, "floating-point literal with integer type");
    errno = 0;
    unsigned long long v = strtoull(numbuf, NULL, is_hex ? 16 : 10);
    if (errno)
        return perr(p, "immediate out of range");
    if (neg)
        v = (unsigned long long)(-(long long)v);
    unsigned sz = type_size(t);
    if (sz < 8)
        v &= (1ull << (8 * sz)) - 1;
    o->imm = v;
    return 0;
}

enum { OPND_DST, OPND_SRC, OPND_SRC3_01, OPND_SRC3_2, OPND_SEND };

static int parse_operand(parser *p, gensim_operand *o, int kind, gensim_inst *in)
{
    memset(o, 0, sizeof *o);
    skip_ws(p);
    if (kind == OPND_DST && strncmp(p->s, "(sat)", 5) == 0) {
        in->sat = 1;
        p->s += 5;
    }
    if (kind != OPND_DST) {
        if (*p->s == '-' && !isdigit((unsigned char)p->s[1]) && strncmp(p->s + 1, "inf", 3) != 0) {
            o->neg = 1;
            p->s++;
        } else if (*p->s == '~') {
            o->neg = 1;
            p->s++;
        }
        if (strncmp(p->s, "(abs)", 5) == 0) {
            o->abs = 1;
            p->s += 5;
        }
    }
    if (isdigit((unsigned char)*p->s) || *p->s == '-' || strncmp(p->s, "inf", 3) == 0) {
        if (kind == OPND_DST)
            return perr(p, "destination cannot be an immediate");
        if (o->neg || o->abs)
            return perr(p, "source modifiers on an immediate are not allowed");
        return parse_immediate(p, o);
    }
    int has_sub;
    unsigned long sub;
    if (parse_reg_name(p, o, &has_sub, &sub))
        return -1;
    unsigned long nums[3] = {0, 0, 0};
    char seps[2] = {0, 0};
    int nnum = 0;
    if (*p->s == '<') {
        if (parse_region_nums(p, nums, seps, &nnum))
            return -1;
        o->has_region = 1;
    }
    if (*p->s == ':') {
        if (parse_type(p, &o->type))
            return -1;
    } else if (kind == OPND_SEND || o->file == GS_F_NULL) {
        o->type = GS_T_UD;
    } else {
        return perr(p, "operand needs a type (':f', ':ud', ...)");
    }
    if (o->type == GS_T_V || o->type == GS_T_UV || o->type == GS_T_VF)
        return perr(p, "vector types are only valid for immediates");
    unsigned tsz = type_size(o->type);
    if (has_sub)
        o->sub = (int16_t)sub;
    /* bounds of sub-registers, in bytes */
    if (o->addr_mode == GS_A_DIRECT && has_sub) {
        unsigned limit = 32;
        switch (o->file) {
        case GS_F_FLAG: limit = 4; break;
        case GS_F_ADDR: limit = 32; break;
        case GS_F_CR: limit = 12; break;
        case GS_F_SR: limit = 16; break;
        case GS_F_CE: limit = 4; break;
        default: break;
        }
        if ((sub + 1) * tsz > limit)
            return perr(p, "sub-register %lu out of range for this register and type", sub);
    }
    if (kind == OPND_DST) {
        if (o->has_region) {
            if (nnum != 1)
                return perr(p, "destination region is <HorzStride>");
            if (nums[0] == 0)
                return perr(p, "destination horizontal stride must not be 0");
            if (!valid_stride(nums[0]) || nums[0] > 4)
                return perr(p, "invalid destination stride %lu", nums[0]);
            o->hs = (uint8_t)nums[0];
        } else {
            o->hs = 1;
        }
        return 0;
    }
    if (kind == OPND_SEND)
        return 0;
    if (kind == OPND_SRC3_01 || kind == OPND_SRC3_2) {
        /* 3-source instructions are Align16-encoded on Gen9; IGA shows
         * src0/src1 as <2;1> (normal) or <0;0> (replicate), src2 as <1>/<0> */
        if (o->file == GS_F_IMM)
            return 0;
        if (!o->has_region)
            return perr(p, "3-source operand needs a region");
        if (o->addr_mode != GS_A_DIRECT)
            return perr(p, "3-source operands cannot be indirect");
        int scalar;
        if (kind == OPND_SRC3_01) {
            if (nnum != 2 || seps[0] != ';')
                return perr(p, "3-source src0/src1 region must be <2;1> or <0;0>");
            if (nums[0] == 0 && nums[1] == 0)
                scalar = 1;
            else if (nums[0] == 2 && nums[1] == 1)
                scalar = 0;
            else
                return perr(p, "3-source region <%lu;%lu> is not modelled (use <2;1> or <0;0>)", nums[0], nums[1]);
        } else {
            if (nnum != 1 || nums[0] > 1)
                return perr(p, "3-source src2 region must be <1> or <0>");
            scalar = nums[0] == 0;
        }
        if (scalar) {
            o->vs = 0; o->w = 1; o->hs = 0;
        } else {
            o->vs = 8; o->w = 8; o->hs = 1;
        }
        return 0;
    }
    /* ordinary Align1 source */
    if (!o->has_region) {
        if (in->exec_size == 1 || o->file == GS_F_NULL) {
            o->vs = 0; o->w = 1; o->hs = 0;
            return 0;
        }
        return perr(p, "source operand needs a region <VertStride;Width,HorzStride>");
    }
    if (nnum == 2 && o->addr_mode == GS_A_VX1 && seps[0] == ',') {
        /* <Width,HorzStride> = VxH: one address register per row */
        o->addr_mode = GS_A_VXH;
        if (!valid_width(nums[0]) || !valid_stride(nums[1]))
            return perr(p, "invalid VxH region <%lu,%lu>", nums[0], nums[1]);
        o->w = (uint8_t)nums[0];
        o->hs = (uint8_t)nums[1];
        o->vs = 0;
        return 0;
    }
    if (nnum != 3 || seps[0] != ';' || seps[1] != ',')
        return perr(p, "source region must be <VertStride;Width,HorzStride>");
    if (!valid_stride(nums[0]) || !valid_width(nums[1]) || !valid_stride(nums[2]) || nums[2] > 4)
        return perr(p, "invalid region <%lu;%lu,%lu>", nums[0], nums[1], nums[2]);
    o->vs = (uint8_t)nums[0];
    o->w = (uint8_t)nums[1];
    o->hs = (uint8_t)nums[2];
    return 0;
}

static int add_fixup(parser *p, size_t inst, int which, const char *name)
{
    if (p->nfixups == p->capfixups) {
        size_t nc = p->capfixups ? p->capfixups * 2 : 32;
        fixup *n = realloc(p->fixups, nc * sizeof *n);
        if (!n)
            return perr(p, "out of memory");
        p->fixups = n;
        p->capfixups = nc;
    }
    fixup *f = &p->fixups[p->nfixups++];
    f->inst = inst;
    f->which = which;
    f->line = p->line;
    snprintf(f->name, sizeof f->name, "%s", name);
    return 0;
}

static int parse_label_ref(parser *p, int which)
{
    char buf[64];
    skip_ws(p);
    if (!read_ident(p, buf, sizeof buf))
        return perr(p, "expected a label near '%.20s' (numeric branch offsets are not modelled)", p->s);
    return add_fixup(p, p->count, which, buf);
}

static int parse_desc(parser *p, uint32_t *imm, uint8_t *is_reg, uint16_t *reg)
{
    skip_ws(p);
    if (strncmp(p->s, "a0.", 3) == 0) {
        unsigned long s;
        p->s += 3;
        if (read_uint(p, &s))
            return -1;
        if (s > 15)
            return perr(p, "no address sub-register a0.%lu", s);
        *is_reg = 1;
        *reg = (uint16_t)s;
        return 0;
    }
    unsigned long v;
    if (read_uint(p, &v))
        return -1;
    if (v > 0xffffffffUL)
        return perr(p, "descriptor does not fit in 32 bits");
    *imm = (uint32_t)v;
    return 0;
}

static int parse_options(parser *p, gensim_inst *in)
{
    static const struct { const char *n; uint32_t f; } opts[] = {
        {"EOT", GS_OPT_EOT}, {"Switch", GS_OPT_SWITCH}, {"Atomic", GS_OPT_ATOMIC},
        {"AccWrEn", GS_OPT_ACCWREN}, {"Compacted", GS_OPT_COMPACTED},
        {"NoCompact", GS_OPT_NOCOMPACT}, {"NoDDClr", GS_OPT_NODDCLR},
        {"NoDDChk", GS_OPT_NODDCHK}, {"Breakpoint", GS_OPT_BREAKPOINT},
        {"NoPreempt", GS_OPT_NOPREEMPT}, {"NoSrcDepSet", GS_OPT_NOSRCDEPSET},
        {"Serialize", GS_OPT_SERIALIZE},
    };
    p->s++; /* '{' */
    for (;;) {
        char buf[32];
        skip_ws(p);
        if (*p->s == '}') {
            p->s++;
            return 0;
        }
        if (!read_ident(p, buf, sizeof buf))
            return perr(p, "bad instruction option near '%.20s'", p->s);
        if (strcmp(buf, "NoMask") == 0)
            return perr(p, "NoMask is written as the (W) prefix in IGA syntax");
        size_t i;
        for (i = 0; i < sizeof opts / sizeof opts[0]; i++)
            if (strcmp(buf, opts[i].n) == 0)
                break;
        if (i == sizeof opts / sizeof opts[0])
            return perr(p, "invalid instruction option '%s'", buf);
        in->opts |= opts[i].f;
        skip_ws(p);
        if (*p->s == ',')
            p->s++;
    }
}

static int parse_instruction(parser *p)
{
    gensim_inst in;
    memset(&in, 0, sizeof in);
    in.line = p->line;
    in.jip = in.uip = -1;
    skip_ws(p);
    if (*p->s == '(' && parse_predication(p, &in))
        return -1;
    char mn[32];
    skip_ws(p);
    if (!read_ident(p, mn, sizeof mn))
        return perr(p, "expected a mnemonic near '%.20s'", p->s);
    size_t oi;
    for (oi = 0; oi < sizeof opcodes / sizeof opcodes[0]; oi++)
        if (strcmp(mn, opcodes[oi].name) == 0)
            break;
    if (oi == sizeof opcodes / sizeof opcodes[0])
        return perr(p, "unsupported or unknown mnemonic '%s'", mn);
    in.op = (uint8_t)opcodes[oi].op;
    in.nsrc = (uint8_t)opcodes[oi].nsrc;
    if (*p->s == '.') {
        char fn[16];
        p->s++;
        if (in.op != GS_OP_MATH) {
            read_ident(p, fn, sizeof fn);
            return perr(p, "'%s.%s' is not Gen9 IGA syntax", mn, fn);
        }
        read_ident(p, fn, sizeof fn);
        size_t fi;
        for (fi = 0; fi < sizeof mathfns / sizeof mathfns[0]; fi++)
            if (strcmp(fn, mathfns[fi].name) == 0)
                break;
        if (fi == sizeof mathfns / sizeof mathfns[0])
            return perr(p, "unsupported math function '%s'", fn);
        in.math_fn = (uint8_t)mathfns[fi].fn;
        in.nsrc = (uint8_t)mathfns[fi].nsrc;
    } else if (in.op == GS_OP_MATH) {
        return perr(p, "math needs a function (math.inv, ...)");
    }
    /* execution size and channel group */
    skip_ws(p);
    in.exec_size = 1;
    if (*p->s == '(' && isdigit((unsigned char)p->s[1])) {
        unsigned long es, g = 0;
        p->s++;
        if (read_uint(p, &es))
            return -1;
        if (es != 1 && es != 2 && es != 4 && es != 8 && es != 16 && es != 32)
            return perr(p, "invalid execution size %lu", es);
        if (accept(p, '|')) {
            skip_ws(p);
            if (*p->s != 'M')
                return perr(p, "expected channel group Mn after '|'");
            p->s++;
            if (read_uint(p, &g))
                return -1;
            if (g % 4 || g > 28)
                return perr(p, "invalid channel group M%lu", g);
            if (es >= 8 && g % es != 0 && !(es == 8 && g % 8 == 0))
                return perr(p, "channel group M%lu not aligned to execution size %lu", g, es);
        }
        if (expect(p, ')', "after the execution size"))
            return -1;
        if (es + g > GENSIM_MAX_CHANNELS)
            return perr(p, "channels M%lu..%lu exceed 32", g, g + es - 1);
        in.exec_size = (uint8_t)es;
        in.group = (uint8_t)g;
    } else if (in.op != GS_OP_NOP && in.op != GS_OP_JMPI) {
        return perr(p, "expected execution size (N|Mg) after '%s'", mn);
    }
    if (in.op == GS_OP_JMPI)
        in.nomask = 1; /* IGA adds (W) to jmpi */
    /* conditional modifier */
    skip_ws(p);
    if (*p->s == '(' && isalpha((unsigned char)p->s[1])) {
        char cm[8];
        static const struct { const char *n; int c; } cms[] = {
            {"eq", GS_CM_EQ}, {"ze", GS_CM_EQ}, {"ne", GS_CM_NE}, {"nz", GS_CM_NE},
            {"gt", GS_CM_GT}, {"ge", GS_CM_GE}, {"lt", GS_CM_LT}, {"le", GS_CM_LE},
            {"ov", GS_CM_OV}, {"un", GS_CM_UN},
        };
        const char *save = p->s;
        p->s++;
        read_ident(p, cm, sizeof cm);
        if (strcmp(cm, "sat") == 0 || strcmp(cm, "abs") == 0) {
            p->s = save;
        } else {
            size_t ci;
            for (ci = 0; ci < sizeof cms / sizeof cms[0]; ci++)
                if (strcmp(cm, cms[ci].n) == 0)
                    break;
            if (ci == sizeof cms / sizeof cms[0])
                return perr(p, "unknown conditional modifier '(%s)'", cm);
            if (expect(p, ')', "after the conditional modifier"))
                return -1;
            in.cmod = (uint8_t)cms[ci].c;
            if (parse_flag_name(p, &in.cmod_flag))
                return -1;
        }
    }
    /* operands */
    switch (in.op) {
    case GS_OP_NOP:
        break;
    case GS_OP_IF: case GS_OP_ELSE: case GS_OP_BREAK: case GS_OP_CONT: case GS_OP_HALT:
        if (parse_label_ref(p, 0))
            return -1;
        skip_ws(p);
        if (is_ident_start(*p->s)) {
            if (parse_label_ref(p, 1))
                return -1;
        } else if (in.op != GS_OP_ELSE && in.op != GS_OP_IF) {
            return perr(p, "'%s' needs JIP and UIP labels", mn);
        } else {
            /* a single label serves as both JIP and UIP */
            char same[64];
            snprintf(same, sizeof same, "%s", p->fixups[p->nfixups - 1].name);
            if (add_fixup(p, p->count, 1, same))
                return -1;
        }
        break;
    case GS_OP_ENDIF: case GS_OP_WHILE: case GS_OP_JMPI:
        if (parse_label_ref(p, 0))
            return -1;
        break;
    case GS_OP_SEND: case GS_OP_SENDC: case GS_OP_SENDS: case GS_OP_SENDSC: {
        int split = in.op == GS_OP_SENDS || in.op == GS_OP_SENDSC;
        if (parse_operand(p, &in.dst, OPND_SEND, &in))
            return -1;
        if (parse_operand(p, &in.src[0], OPND_SEND, &in))
            return -1;
        in.nsrc = 1;
        if (split) {
            if (parse_operand(p, &in.src[1], OPND_SEND, &in))
                return -1;
            in.nsrc = 2;
        }
        for (unsigned i = 0; i < in.nsrc; i++)
            if (in.src[i].file != GS_F_GRF || in.src[i].addr_mode != GS_A_DIRECT)
                if (!(i == 1 && in.src[i].file == GS_F_NULL))
                    return perr(p, "send payload must be a directly addressed GRF");
        if (in.dst.file != GS_F_GRF && in.dst.file != GS_F_NULL)
            return perr(p, "send destination must be a GRF or null");
        if (in.dst.addr_mode != GS_A_DIRECT)
            return perr(p, "send destination must be directly addressed");
        if (parse_desc(p, &in.exdesc, &in.exdesc_is_reg, &in.exdesc_reg))
            return -1;
        if (parse_desc(p, &in.desc, &in.desc_is_reg, &in.desc_reg))
            return -1;
        break;
    }
    default: {
        int three = in.op == GS_OP_MAD || in.op == GS_OP_LRP || in.op == GS_OP_CSEL;
        if (parse_operand(p, &in.dst, OPND_DST, &in))
            return -1;
        if (in.dst.file == GS_F_CE || in.dst.file == GS_F_SR)
            return perr(p, "register is read-only");
        for (unsigned i = 0; i < in.nsrc; i++) {
            int kind = three ? (i < 2 ? OPND_SRC3_01 : OPND_SRC3_2) : OPND_SRC;
            skip_ws(p);
            if (*p->s == '\0' || *p->s == '{')
                return perr(p, "'%s' needs %u source operand(s)", mn, in.nsrc);
            if (parse_operand(p, &in.src[i], kind, &in))
                return -1;
        }
        if (three && in.dst.has_region && in.dst.hs != 1)
            return perr(p, "3-source destination stride must be 1");
        break;
    }
    }
    skip_ws(p);
    if (*p->s == '{' && parse_options(p, &in))
        return -1;
    if (!at_end(p))
        return perr(p, "unexpected text '%.30s'", p->s);
    if ((in.opts & GS_OPT_EOT) && in.op != GS_OP_SEND && in.op != GS_OP_SENDC &&
        in.op != GS_OP_SENDS && in.op != GS_OP_SENDSC)
        return perr(p, "{EOT} is only valid on send instructions");
    if (p->count == p->cap) {
        size_t nc = p->cap ? p->cap * 2 : 64;
        gensim_inst *n = realloc(p->insts, nc * sizeof *n);
        if (!n)
            return perr(p, "out of memory");
        p->insts = n;
        p->cap = nc;
    }
    p->insts[p->count++] = in;
    return 0;
}

static int add_label(parser *p, const char *name)
{
    for (size_t i = 0; i < p->nlabels; i++)
        if (strcmp(p->labels[i].name, name) == 0)
            return perr(p, "label '%s' defined twice", name);
    if (p->nlabels == p->caplabels) {
        size_t nc = p->caplabels ? p->caplabels * 2 : 32;
        label *n = realloc(p->labels, nc * sizeof *n);
        if (!n)
            return perr(p, "out of memory");
        p->labels = n;
        p->caplabels = nc;
    }
    snprintf(p->labels[p->nlabels].name, sizeof p->labels[0].name, "%s", name);
    p->labels[p->nlabels].index = (int32_t)p->count;
    p->nlabels++;
    return 0;
}

static int parse_line(parser *p, char *line)
{
    p->s = line;
    skip_ws(p);
    if (*p->s == '\0')
        return 0;
    if (is_ident_start(*p->s)) {
        const char *save = p->s;
        char buf[64];
        size_t n = read_ident(p, buf, sizeof buf);
        if (*p->s == ':' && p->s[1] != ':') {
            if (n >= sizeof buf)
                return perr(p, "label too long");
            p->s++;
            if (!at_end(p))
                return perr(p, "a label must be alone on its line");
            return add_label(p, buf);
        }
        p->s = save;
    }
    return parse_instruction(p);
}

gensim_program *gensim_parse(const char *text, const char *name, char *err, size_t errlen)
{
    parser p;
    memset(&p, 0, sizeof p);
    p.name = name ? name : "<gen>";
    p.err = err;
    p.errlen = errlen;
    if (err && errlen)
        err[0] = '\0';
    if (!text) {
        perr(&p, "no text");
        return NULL;
    }
    size_t len = strlen(text);
    char *buf = malloc(len + 1);
    if (!buf) {
        perr(&p, "out of memory");
        return NULL;
    }
    memcpy(buf, text, len + 1);
    /* blank out comments, keeping newlines so line numbers stay right */
    int in_block = 0;
    for (size_t i = 0; i < len; i++) {
        if (in_block) {
            if (buf[i] == '*' && buf[i + 1] == '/') {
                buf[i] = buf[i + 1] = ' ';
                i++;
                in_block = 0;
            } else if (buf[i] != '\n') {
                buf[i] = ' ';
            }
        } else if (buf[i] == '/' && buf[i + 1] == '*') {
            buf[i] = buf[i + 1] = ' ';
            i++;
            in_block = 1;
        } else if (buf[i] == '/' && buf[i + 1] == '/') {
            while (i < len && buf[i] != '\n')
                buf[i++] = ' ';
        }
    }
    char *line = buf;
    p.line = 1;
    while (line && !p.failed) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        parse_line(&p, line);
        if (!nl)
            break;
        line = nl + 1;
        p.line++;
    }
    free(buf);
    if (!p.failed && in_block)
        perr(&p, "unterminated /* comment");
    for (size_t i = 0; i < p.nfixups && !p.failed; i++) {
        fixup *f = &p.fixups[i];
        size_t k;
        for (k = 0; k < p.nlabels; k++)
            if (strcmp(p.labels[k].name, f->name) == 0)
                break;
        if (k == p.nlabels) {
            p.line = f->line;
            perr(&p, "undefined label '%s'", f->name);
            break;
        }
        if (f->which == 0)
            p.insts[f->inst].jip = p.labels[k].index;
        else
            p.insts[f->inst].uip = p.labels[k].index;
    }
    free(p.labels);
    free(p.fixups);
    if (p.failed) {
        free(p.insts);
        return NULL;
    }
    gensim_program *prog = calloc(1, sizeof *prog);
    if (!prog) {
        free(p.insts);
        perr(&p, "out of memory");
        return NULL;
    }
    prog->insts = p.insts;
    prog->count = p.count;
    snprintf(prog->name, sizeof prog->name, "%s", p.name);
    return prog;
}

void gensim_program_free(gensim_program *p)
{
    if (!p)
        return;
    free(p->insts);
    free(p);
}
