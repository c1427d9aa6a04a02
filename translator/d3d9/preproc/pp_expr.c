/*
 * pp_expr.c — #if and #elif expressions (C 6.10.1): integer constants,
 * ( ), unary + - ~ !, * / % + - << >> < > <= >= == != & ^ | && || ?:,
 * in intmax_t / uintmax_t arithmetic (64 bits here) with C's conversions.
 *
 * An operator-precedence parser with explicit operand and operator stacks
 * (no recursion: "((((...1...))))" nests as deep as it likes).  Every
 * operand is evaluated, so an error that C would only diagnose in an
 * evaluated operand (division by zero, a shift out of range) is carried
 * as a poisoned value: && || ?: drop it when their other operand decides
 * the result, and it is reported when it reaches the top.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pp_priv.h"

struct val {
    uint64_t v;     /* the bits; read as int64_t unless uns */
    bool uns;
    const struct pp_tok *poison; /* the operator that failed, or NULL */
    const char *why;
};

enum op {
    OP_LPAREN, OP_NEG, OP_PLUS, OP_BNOT, OP_LNOT,
    OP_MUL, OP_DIV, OP_MOD, OP_ADD, OP_SUB, OP_SHL, OP_SHR,
    OP_LT, OP_GT, OP_LE, OP_GE, OP_EQ, OP_NE,
    OP_BAND, OP_BXOR, OP_BOR, OP_LAND, OP_LOR, OP_QUEST, OP_COLON,
};

static int prec(enum op o)
{
    switch (o) {
    case OP_LPAREN: return 0;
    case OP_NEG: case OP_PLUS: case OP_BNOT: case OP_LNOT: return 14;
    case OP_MUL: case OP_DIV: case OP_MOD: return 13;
    case OP_ADD: case OP_SUB: return 12;
    case OP_SHL: case OP_SHR: return 11;
    case OP_LT: case OP_GT: case OP_LE: case OP_GE: return 10;
    case OP_EQ: case OP_NE: return 9;
    case OP_BAND: return 8;
    case OP_BXOR: return 7;
    case OP_BOR: return 6;
    case OP_LAND: return 5;
    case OP_LOR: return 4;
    case OP_QUEST: case OP_COLON: return 3;
    }
    return 0;
}

struct opent {
    enum op op;
    const struct pp_tok *tok;
};

struct stacks {
    struct val *v;
    uint32_t nv, capv;
    struct opent *o;
    uint32_t no, capo;
};

static bool push_val(struct stacks *s, struct val v)
{
    if (s->nv == s->capv) {
        uint32_t cap = s->capv ? s->capv * 2 : 32;
        struct val *n = realloc(s->v, (size_t)cap * sizeof(*n));
        if (!n)
            return false;
        s->v = n;
        s->capv = cap;
    }
    s->v[s->nv++] = v;
    return true;
}

static bool push_op(struct stacks *s, enum op op, const struct pp_tok *t)
{
    if (s->no == s->capo) {
        uint32_t cap = s->capo ? s->capo * 2 : 32;
        struct opent *n = realloc(s->o, (size_t)cap * sizeof(*n));
        if (!n)
            return false;
        s->o = n;
        s->capo = cap;
    }
    s->o[s->no++] = (struct opent){op, t};
    return true;
}

static bool truth(const struct val *v)
{
    return v->v != 0;
}

static struct val poisoned(const struct pp_tok *at, const char *why)
{
    struct val r = {0, false, at, why};
    return r;
}

/* a OP b with C's usual arithmetic conversions (both to unsigned when
 * either is); signed results wrap instead of being undefined. */
static struct val binary(enum op op, struct val a, struct val b, const struct pp_tok *at)
{
    /* && || ?: decide before poison spreads. */
    if (op == OP_LAND) {
        if (!a.poison && !truth(&a))
            return (struct val){0, false, NULL, NULL};
        if (a.poison)
            return a;
        if (b.poison)
            return b;
        return (struct val){truth(&b), false, NULL, NULL};
    }
    if (op == OP_LOR) {
        if (!a.poison && truth(&a))
            return (struct val){1, false, NULL, NULL};
        if (a.poison)
            return a;
        if (b.poison)
            return b;
        return (struct val){truth(&b), false, NULL, NULL};
    }
    if (a.poison)
        return a;
    if (b.poison)
        return b;
    bool uns = a.uns || b.uns;
    struct val r = {0, uns, NULL, NULL};
    int64_t sa = (int64_t)a.v, sb = (int64_t)b.v;
    switch (op) {
    case OP_MUL: r.v = a.v * b.v; break;
    case OP_ADD: r.v = a.v + b.v; break;
    case OP_SUB: r.v = a.v - b.v; break;
    case OP_DIV:
    case OP_MOD:
        if (b.v == 0)
            return poisoned(at, op == OP_DIV ? "division by zero in #if" : "remainder by zero in #if");
        if (uns)
            r.v = op == OP_DIV ? a.v / b.v : a.v % b.v;
        else if (sa == INT64_MIN && sb == -1)
            r.v = op == OP_DIV ? a.v : 0; /* wraps */
        else
            r.v = (uint64_t)(op == OP_DIV ? sa / sb : sa % sb);
        break;
    case OP_SHL:
    case OP_SHR: {
        r.uns = a.uns; /* the left operand's type */
        if ((!b.uns && sb < 0) || b.v >= 64)
            return poisoned(at, "shift count out of range (0 to 63) in #if");
        if (op == OP_SHL)
            r.v = a.v << b.v;
        else if (a.uns || sa >= 0)
            r.v = a.v >> b.v;
        else
            r.v = ~(~a.v >> b.v); /* arithmetic shift of a negative value */
        break;
    }
    case OP_LT: case OP_GT: case OP_LE: case OP_GE: case OP_EQ: case OP_NE: {
        bool lt = uns ? a.v < b.v : sa < sb;
        bool eq = a.v == b.v;
        bool t = op == OP_LT ? lt : op == OP_GT ? !lt && !eq : op == OP_LE ? lt || eq
                 : op == OP_GE ? !lt : op == OP_EQ ? eq : !eq;
        r.v = t;
        r.uns = false;
        break;
    }
    case OP_BAND: r.v = a.v & b.v; break;
    case OP_BXOR: r.v = a.v ^ b.v; break;
    case OP_BOR: r.v = a.v | b.v; break;
    default: break;
    }
    return r;
}

static struct val unary(enum op op, struct val a)
{
    if (a.poison)
        return a;
    switch (op) {
    case OP_NEG: a.v = 0 - a.v; break;
    case OP_BNOT: a.v = ~a.v; break;
    case OP_LNOT: a.v = !truth(&a); a.uns = false; break;
    default: break;
    }
    return a;
}

/* Applies the operator on top of the stack. */
static bool reduce(struct stacks *s)
{
    struct opent o = s->o[--s->no];
    if (prec(o.op) == 14) {
        s->v[s->nv - 1] = unary(o.op, s->v[s->nv - 1]);
        return true;
    }
    if (o.op == OP_COLON) {
        struct val c = s->v[--s->nv], b = s->v[--s->nv], a = s->v[--s->nv];
        if (a.poison)
            return push_val(s, a);
        struct val r = truth(&a) ? b : c;
        /* The result has the common type of both branches. */
        if (!r.poison)
            r.uns = b.uns || c.uns;
        return push_val(s, r);
    }
    struct val b = s->v[--s->nv], a = s->v[--s->nv];
    return push_val(s, binary(o.op, a, b, o.tok));
}

/* An integer constant: decimal, 0x hex, 0b binary, 0 octal, suffixes
 * u l ll in any case and order. */
static bool number(struct pp *pp, const struct pp_tok *t, struct val *out)
{
    const char *s = t->text;
    uint32_t n = t->len;
    bool uns = false;
    /* Suffixes. */
    while (n > 1) {
        char c = s[n - 1];
        if ((c == 'u' || c == 'U') && !uns) {
            uns = true;
            n--;
        } else if (c == 'l' || c == 'L') {
            n--;
        } else {
            break;
        }
    }
    unsigned base = 10;
    uint32_t i = 0;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        i = 2;
    } else if (n > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
        base = 2;
        i = 2;
    } else if (n > 1 && s[0] == '0') {
        base = 8;
        i = 1;
    }
    uint64_t v = 0;
    for (; i < n; i++) {
        char c = s[i];
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 99;
        if (d >= base) {
            bool fl = base == 10 && (c == '.' || c == 'e' || c == 'E');
            pp_error_tok(pp, t, ST_E_PP_EXPRESSION,
                         fl ? "floating-point number '%s' in #if: only integers are allowed"
                            : "invalid integer '%s' in #if",
                         t->text);
            return false;
        }
        if (v > (UINT64_MAX - d) / base) {
            pp_error_tok(pp, t, ST_E_PP_EXPRESSION, "integer '%s' is too large for #if",
                         t->text);
            return false;
        }
        v = v * base + d;
    }
    out->v = v;
    out->uns = uns || v > (uint64_t)INT64_MAX;
    out->poison = NULL;
    out->why = NULL;
    return true;
}

static bool binop_of(const struct pp_tok *t, enum op *op)
{
    static const struct {
        const char *s;
        enum op op;
    } ops[] = {
        {"*", OP_MUL}, {"/", OP_DIV}, {"%", OP_MOD}, {"+", OP_ADD}, {"-", OP_SUB},
        {"<<", OP_SHL}, {">>", OP_SHR}, {"<", OP_LT}, {">", OP_GT}, {"<=", OP_LE},
        {">=", OP_GE}, {"==", OP_EQ}, {"!=", OP_NE}, {"&", OP_BAND}, {"^", OP_BXOR},
        {"|", OP_BOR}, {"&&", OP_LAND}, {"||", OP_LOR},
    };
    if (t->kind != PT_PUNCT)
        return false;
    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
        if (t->len == strlen(ops[i].s) && memcmp(t->text, ops[i].s, t->len) == 0) {
            *op = ops[i].op;
            return true;
        }
    return false;
}

static bool is(const struct pp_tok *t, const char *s)
{
    return t->kind == PT_PUNCT && t->len == strlen(s) && memcmp(t->text, s, t->len) == 0;
}

bool pp_eval(struct pp *pp, const struct pp_tok *t, uint32_t n, struct pp_pos at, int64_t *value)
{
    struct stacks s = {NULL, 0, 0, NULL, 0, 0};
    bool ok = false, expect_operand = true;
    *value = 0;
    for (uint32_t i = 0; i < n; i++) {
        const struct pp_tok *k = &t[i];
        enum op op;
        if (expect_operand) {
            if (is(k, "(")) {
                if (!push_op(&s, OP_LPAREN, k))
                    goto oom;
            } else if (is(k, "-") || is(k, "+") || is(k, "~") || is(k, "!")) {
                op = is(k, "-") ? OP_NEG : is(k, "+") ? OP_PLUS : is(k, "~") ? OP_BNOT : OP_LNOT;
                if (!push_op(&s, op, k))
                    goto oom;
            } else if (k->kind == PT_NUMBER) {
                struct val v;
                if (!number(pp, k, &v))
                    goto out;
                if (!push_val(&s, v))
                    goto oom;
                expect_operand = false;
            } else if (k->kind == PT_IDENT) {
                /* An identifier that is no macro is 0 (C 6.10.1p4). */
                if (!push_val(&s, (struct val){0, false, NULL, NULL}))
                    goto oom;
                expect_operand = false;
            } else {
                pp_error_tok(pp, k, ST_E_PP_EXPRESSION, "expected a value in #if, found '%s'",
                             k->text);
                goto out;
            }
            continue;
        }
        if (is(k, ")")) {
            while (s.no && s.o[s.no - 1].op != OP_LPAREN) {
                if (s.o[s.no - 1].op == OP_QUEST) {
                    pp_error_tok(pp, s.o[s.no - 1].tok, ST_E_PP_EXPRESSION,
                                 "'?' without ':' in #if");
                    goto out;
                }
                if (!reduce(&s))
                    goto oom;
            }
            if (!s.no) {
                pp_error_tok(pp, k, ST_E_PP_EXPRESSION, "')' without '(' in #if");
                goto out;
            }
            s.no--;
        } else if (is(k, "?")) {
            while (s.no && prec(s.o[s.no - 1].op) > 3)
                if (!reduce(&s))
                    goto oom;
            if (!push_op(&s, OP_QUEST, k))
                goto oom;
            expect_operand = true;
        } else if (is(k, ":")) {
            while (s.no && s.o[s.no - 1].op != OP_QUEST && s.o[s.no - 1].op != OP_LPAREN)
                if (!reduce(&s))
                    goto oom;
            if (!s.no || s.o[s.no - 1].op != OP_QUEST) {
                pp_error_tok(pp, k, ST_E_PP_EXPRESSION, "':' without '?' in #if");
                goto out;
            }
            s.o[s.no - 1].op = OP_COLON;
            expect_operand = true;
        } else if (binop_of(k, &op)) {
            /* Left-associative: reduce while the stacked operator binds at
             * least as tightly. */
            while (s.no && prec(s.o[s.no - 1].op) >= prec(op) && s.o[s.no - 1].op != OP_LPAREN)
                if (!reduce(&s))
                    goto oom;
            if (!push_op(&s, op, k))
                goto oom;
            expect_operand = true;
        } else {
            pp_error_tok(pp, k, ST_E_PP_EXPRESSION, "expected an operator in #if, found '%s'",
                         k->text);
            goto out;
        }
    }
    if (expect_operand) {
        if (n)
            pp_error_tok(pp, &t[n - 1], ST_E_PP_EXPRESSION,
                         "the #if expression ends after '%s' where a value is expected",
                         t[n - 1].text);
        else
            pp_error(pp, at, ST_E_PP_EXPRESSION, "#if without an expression");
        goto out;
    }
    while (s.no) {
        enum op top = s.o[s.no - 1].op;
        if (top == OP_LPAREN || top == OP_QUEST) {
            pp_error_tok(pp, s.o[s.no - 1].tok, ST_E_PP_EXPRESSION,
                         top == OP_LPAREN ? "'(' without ')' in #if" : "'?' without ':' in #if");
            goto out;
        }
        if (!reduce(&s))
            goto oom;
    }
    if (s.nv != 1)
        goto out;
    if (s.v[0].poison) {
        pp_error_tok(pp, s.v[0].poison, ST_E_PP_EXPRESSION, "%s", s.v[0].why);
        goto out;
    }
    *value = (int64_t)s.v[0].v;
    ok = true;
    goto out;
oom:
    pp_error(pp, at, ST_E_OUT_OF_MEMORY, "out of memory");
out:
    free(s.v);
    free(s.o);
    return ok;
}
