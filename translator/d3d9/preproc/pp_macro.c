/*
 * pp_macro.c — macro expansion for the Direct3D 9 preprocessor (C 6.10.3).
 *
 * Rescanning is a loop over a heap stack of token arrays: a macro's
 * replacement is pushed in front of what remains, so a chain A -> B -> C
 * -> ... of any length is iterative.  While a replacement list is on the
 * stack its macro is disabled (a counter per name, pp_macro_disable); a
 * token that names a disabled macro is marked and never expands again
 * (C 6.10.3.4p2), which is what ends every expansion.  A list leaves the
 * stack when the token after its last one is read (so a macro whose name
 * ends a list is expanded with that list still on the stack), and a
 * function-like name at its end that takes its arguments from what
 * follows sees the macro enabled again (C's example f(2)(9) gives 2*9*g,
 * as in GCC).  Each
 * token carries one flag, so work and memory grow with the tokens
 * produced, even for a chain of 20000 macros.
 *
 * The one recursion is the complete expansion of each argument before
 * substitution: it goes as deep as arguments nest inside arguments, and
 * stops with a located error at PP_MAX_ARG_DEPTH.  What all expansions
 * produce together is bounded by PP_MAX_EXPANSION tokens (#define A B B,
 * #define B C C, ... doubles with each macro).
 *
 * Positions: tokens a replacement list contributes are placed at the
 * invocation (and remember the outermost macro, for the note); tokens of
 * arguments keep their own positions, so an error in an argument points at
 * the argument as written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pp_priv.h"

struct frame {
    const struct pp_tok *t;
    uint32_t n, i;
    int32_t slot; /* the macro whose replacement this is; -1: none */
};

struct exp {
    struct pp *pp;
    struct frame *fr;
    uint32_t nfr, capfr;
    bool from_source; /* past the frames, read the line (and more lines for arguments) */
    bool in_if;       /* #if: the operand of `defined` is not expanded */
    uint32_t depth;   /* argument pre-expansion depth */
};

static bool tok_is(const struct pp_tok *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->text, s, n) == 0;
}

/* ------------------------------------------------------------------ */
/* The input: frames of replacement lists over the source.              */

static void pop_frame(struct exp *e)
{
    pp_macro_disable(e->pp, e->fr[--e->nfr].slot, -1);
}

static bool next_tok(struct exp *e, struct pp_tok *out, bool more_lines)
{
    while (e->nfr) {
        struct frame *f = &e->fr[e->nfr - 1];
        if (f->i < f->n) {
            *out = f->t[f->i++];
            return true;
        }
        pop_frame(e);
    }
    return e->from_source && pp_source_next(e->pp, out, more_lines);
}

/* Is the next token '(' (a function-like macro's name is an invocation)? */
static bool peek_lparen(struct exp *e)
{
    for (uint32_t k = e->nfr; k-- > 0;) {
        const struct frame *f = &e->fr[k];
        if (f->i < f->n)
            return tok_is(&f->t[f->i], "(");
    }
    return e->from_source && pp_source_peek_lparen(e->pp, true);
}

/* A replacement goes on top even of a finished list: the macro that
 * produced the name being replaced stays disabled while the replacement
 * is rescanned (#define a a b, #define b a: a gives "a a"). */
static bool push_frame(struct exp *e, const struct pp_tok *t, uint32_t n, int32_t slot)
{
    if (n == 0)
        return true;
    if (e->nfr == e->capfr) {
        uint32_t cap = e->capfr ? e->capfr * 2 : 16;
        struct frame *nf = realloc(e->fr, (size_t)cap * sizeof(*nf));
        if (!nf)
            return false;
        e->fr = nf;
        e->capfr = cap;
    }
    e->fr[e->nfr++] = (struct frame){t, n, 0, slot};
    pp_macro_disable(e->pp, slot, +1);
    return true;
}

/* Ends an expansion: whatever is left enables its macros again. */
static void drop_frames(struct exp *e)
{
    while (e->nfr)
        pop_frame(e);
    free(e->fr);
}

/* ------------------------------------------------------------------ */
/* Substitution.                                                       */

static bool budget_ok(struct pp *pp, const struct pp_tok *at, uint32_t more)
{
    struct pp_budget *b = pp_budget(pp);
    b->used += more;
    if (b->used <= PP_MAX_EXPANSION)
        return true;
    if (!b->reported) {
        b->reported = true;
        pp_error_tok(pp, at, ST_E_PP_MACRO,
                     "macro expansion produces more than %u tokens; stopped here",
                     (unsigned)PP_MAX_EXPANSION);
    }
    return false;
}

/* "#param": the argument's spelling as one string token. */
static bool stringify(struct pp *pp, const struct pp_vec *arg, struct pp_tok *out)
{
    size_t n = 3;
    for (uint32_t i = 0; i < arg->n; i++)
        n += (size_t)arg->v[i].len * 2 + 1;
    char *s = st_arena_alloc(pp_scratch(pp), n);
    if (st_arena_failed(pp_scratch(pp)))
        return false;
    size_t k = 0;
    s[k++] = '"';
    for (uint32_t i = 0; i < arg->n; i++) {
        const struct pp_tok *t = &arg->v[i];
        if (i && t->space)
            s[k++] = ' ';
        for (uint32_t j = 0; j < t->len; j++) {
            char c = t->text[j];
            if (t->kind == PT_STRING && (c == '"' || c == '\\'))
                s[k++] = '\\';
            s[k++] = c;
        }
    }
    s[k++] = '"';
    s[k] = '\0';
    out->kind = PT_STRING;
    out->text = s;
    out->len = (uint32_t)k;
    return true;
}

/* a ## b.  False (reported) when the two do not make one token. */
static bool paste(struct pp *pp, const struct pp_tok *a, const struct pp_tok *b,
                  const struct pp_tok *origin, struct pp_tok *out)
{
    if (a->kind == PT_PLACEMARKER) {
        *out = *b;
        out->space = a->space;
        return true;
    }
    if (b->kind == PT_PLACEMARKER) {
        *out = *a;
        return true;
    }
    uint32_t n = a->len + b->len;
    char *s = st_arena_alloc(pp_scratch(pp), (size_t)n + 1);
    if (st_arena_failed(pp_scratch(pp)))
        return false;
    memcpy(s, a->text, a->len);
    memcpy(s + a->len, b->text, b->len);
    s[n] = '\0';
    enum pp_kind k;
    if (!pp_lex_one(s, n, &k)) {
        pp_error_tok(pp, origin, ST_E_PP_MACRO,
                     "pasting '%s' and '%s' does not give one token ('%s')", a->text, b->text, s);
        *pp_line_abort(pp) = true;
        return false;
    }
    *out = *a;
    out->kind = (uint8_t)k;
    out->text = s;
    out->len = n;
    out->pos = origin->pos;
    out->macro = origin->macro;
    return true;
}

static bool expand_list(struct pp *pp, const struct pp_tok *in, uint32_t n, uint32_t depth,
                        const struct pp_tok *origin, struct pp_vec *out);

/*
 * The replacement of macro m (arguments args[0..nargs)), as an array in
 * the scratch arena.  `origin` carries the position and
 * outermost macro the new tokens get, and the invocation's leading space.
 */
static bool substitute(struct exp *e, const struct pp_macro *m, const struct pp_vec *args,
                       const struct pp_tok *origin,
                       struct pp_tok **res, uint32_t *nres)
{
    struct pp *pp = e->pp;
    struct pp_vec r = {NULL, 0, 0};
    struct pp_vec *expanded = NULL;
    bool *have = NULL; /* expanded[k] is computed */
    bool ok = false;
    if (m->nparams) {
        expanded = calloc(m->nparams, sizeof(*expanded));
        have = calloc(m->nparams, sizeof(bool));
        if (!expanded || !have)
            goto out;
    }
    for (uint32_t i = 0; i < m->nbody; i++) {
        const struct pp_tok *bt = &m->body[i];
        bool pasted_into = i > 0 && m->body[i - 1].paste_after;
        struct pp_tok one;
        const struct pp_tok *seq = &one;
        uint32_t nseq = 1;
        bool keep_pos = false; /* tokens of arguments keep their own place */
        if (bt->kind == PT_PARAM) {
            const struct pp_vec *raw = &args[bt->param];
            if (bt->stringify) {
                one = *origin;
                if (!stringify(pp, raw, &one))
                    goto out;
            } else if (bt->paste_after || pasted_into) {
                if (raw->n == 0) {
                    one = *origin;
                    one.kind = PT_PLACEMARKER;
                    one.text = "";
                    one.len = 0;
                } else {
                    seq = raw->v;
                    nseq = raw->n;
                    keep_pos = true;
                }
            } else {
                if (!have[bt->param]) {
                    have[bt->param] = true;
                    if (!expand_list(pp, raw->v, raw->n, e->depth + 1, origin,
                                     &expanded[bt->param]))
                        goto out;
                }
                seq = expanded[bt->param].v;
                nseq = expanded[bt->param].n;
                keep_pos = true;
            }
        } else {
            one = *bt;
            one.pos = origin->pos;
            one.macro = origin->macro;
        }
        for (uint32_t k = 0; k < nseq; k++) {
            struct pp_tok t = seq[k];
            if (!keep_pos)
                t.noexpand = false; /* fresh from the definition */
            t.stringify = false;
            t.paste_after = false;
            if (k == 0)
                t.space = bt->space;
            if (k == 0 && pasted_into && r.n) {
                struct pp_tok joined;
                struct pp_tok *last = &r.v[r.n - 1];
                if (paste(pp, last, &t, origin, &joined)) {
                    joined.noexpand = false;
                    *last = joined;
                    continue;
                }
                if (st_arena_failed(pp_scratch(pp)))
                    goto out;
            }
            if (!pp_vec_push(pp, &r, &t))
                goto out;
        }
    }
    /* Placemarkers go; the first token takes the invocation's space. */
    uint32_t o = 0;
    for (uint32_t i = 0; i < r.n; i++)
        if (r.v[i].kind != PT_PLACEMARKER)
            r.v[o++] = r.v[i];
    r.n = o;
    if (r.n)
        r.v[0].space = origin->space;
    if (!budget_ok(pp, origin, r.n)) {
        r.n = 0;
    }
    *res = st_arena_alloc(pp_scratch(pp), (size_t)(r.n ? r.n : 1) * sizeof(**res));
    if (st_arena_failed(pp_scratch(pp)))
        goto out;
    if (r.n)
        memcpy(*res, r.v, (size_t)r.n * sizeof(**res));
    *nres = r.n;
    ok = true;
out:
    for (uint32_t i = 0; expanded && i < m->nparams; i++)
        free(expanded[i].v);
    free(expanded);
    free(have);
    free(r.v);
    return ok;
}

/* Reads "( a, b, ... )" after a function-like macro's name.  False when
 * the list is not there or is wrong (reported); *fail on out of memory. */
static bool collect_args(struct exp *e, const struct pp_macro *m, const struct pp_tok *name,
                         struct pp_vec **args, uint32_t *nargs, bool *fail)
{
    struct pp *pp = e->pp;
    struct pp_tok t;
    if (!next_tok(e, &t, true)) /* the '(' */
        return false;
    uint32_t cap = 4, n = 1;
    struct pp_vec *a = calloc(cap, sizeof(*a));
    if (!a) {
        *fail = true;
        return false;
    }
    uint32_t depth = 0;
    for (;;) {
        if (!next_tok(e, &t, true)) {
            pp_error_tok(pp, name, ST_E_PP_MACRO,
                         "unterminated argument list invoking macro '%s'%s", m->name,
                         e->from_source ? " (the arguments end at a directive or the end of "
                                          "the file)"
                                        : "");
            goto bad;
        }
        if (tok_is(&t, "(")) {
            depth++;
        } else if (tok_is(&t, ")")) {
            if (depth == 0)
                break;
            depth--;
        } else if (tok_is(&t, ",") && depth == 0 && !(m->variadic && n >= m->nparams)) {
            if (n == cap) {
                struct pp_vec *na = realloc(a, (size_t)cap * 2 * sizeof(*na));
                if (!na) {
                    *fail = true;
                    goto bad;
                }
                memset(na + cap, 0, (size_t)cap * sizeof(*na));
                a = na;
                cap *= 2;
            }
            n++;
            continue;
        }
        if (a[n - 1].n == 0)
            t.space = false;
        if (!pp_vec_push(pp, &a[n - 1], &t)) {
            *fail = true;
            goto bad;
        }
    }
    /* F() is one empty argument; a variadic macro may get no variable part. */
    bool ok;
    if (m->nparams == 0)
        ok = n == 1 && a[0].n == 0;
    else if (m->variadic)
        ok = n >= m->nparams - 1;
    else
        ok = n == m->nparams;
    if (!ok) {
        uint32_t given = m->nparams == 0 && n == 1 && a[0].n == 0 ? 0 : n;
        pp_error_tok(pp, name, ST_E_PP_MACRO, "macro '%s' takes %s%u argument%s, %u given",
                     m->name, m->variadic ? "at least " : "",
                     m->variadic ? m->nparams - 1 : m->nparams,
                     (m->variadic ? m->nparams - 1 : m->nparams) == 1 ? "" : "s", given);
        goto bad;
    }
    if (m->variadic && n < m->nparams) { /* an empty __VA_ARGS__ */
        if (n == cap) {
            struct pp_vec *na = realloc(a, (size_t)(cap + 1) * sizeof(*na));
            if (!na) {
                *fail = true;
                goto bad;
            }
            a = na;
            cap++;
        }
        memset(&a[n], 0, sizeof(a[n]));
        n++;
    }
    *args = a;
    *nargs = n;
    return true;
bad:
    for (uint32_t i = 0; i < n && i < cap; i++)
        free(a[i].v);
    free(a);
    return false;
}

/* __LINE__ and __FILE__. */
static bool builtin(struct pp *pp, const struct pp_macro *m, const struct pp_tok *at,
                    struct pp_tok *out)
{
    *out = *at;
    out->noexpand = false;
    if (m->builtin == 1) {
        char buf[16];
        int n = snprintf(buf, sizeof(buf), "%u", (unsigned)pp_shown_line(pp, at->pos));
        out->kind = PT_NUMBER;
        out->text = st_arena_strndup(pp_scratch(pp), buf, (size_t)n);
        out->len = (uint32_t)n;
    } else {
        const char *f = pp_shown_file(pp, at->pos);
        size_t n = strlen(f);
        char *s = st_arena_alloc(pp_scratch(pp), n * 2 + 3);
        if (st_arena_failed(pp_scratch(pp)))
            return false;
        size_t k = 0;
        s[k++] = '"';
        for (size_t i = 0; i < n; i++) {
            if (f[i] == '"' || f[i] == '\\')
                s[k++] = '\\';
            s[k++] = f[i];
        }
        s[k++] = '"';
        s[k] = '\0';
        out->kind = PT_STRING;
        out->text = s;
        out->len = (uint32_t)k;
    }
    return !st_arena_failed(pp_scratch(pp));
}

/* The expansion loop: reads e's input, writes out. */
static bool run(struct exp *e, struct pp_vec *out)
{
    struct pp *pp = e->pp;
    struct pp_tok t;
    while (!pp_stopped(pp) && next_tok(e, &t, false)) {
        if (t.kind != PT_IDENT) {
            if (!pp_vec_push(pp, out, &t))
                return false;
            continue;
        }
        if (e->in_if && tok_is(&t, "defined")) {
            /* "defined X", "defined ( X )": X stays a name (as in GCC; a
             * macro that expands to `defined` is not portable C). */
            if (!pp_vec_push(pp, out, &t))
                return false;
            struct pp_tok u;
            bool paren = peek_lparen(e);
            for (int k = 0; k < (paren ? 3 : 1) && next_tok(e, &u, false); k++)
                if (!pp_vec_push(pp, out, &u))
                    return false;
            continue;
        }
        int32_t slot = pp_macro_slot(pp, t.text, t.len);
        const struct pp_macro *m = pp_macro_at(pp, slot);
        if (m && !t.noexpand && pp_macro_disabled(pp, slot))
            t.noexpand = true; /* its own replacement names it: never again */
        if (!m || t.noexpand || pp_budget(pp)->reported || *pp_line_abort(pp)) {
            if (!pp_vec_push(pp, out, &t))
                return false;
            continue;
        }
        struct pp_tok origin = t;
        if (origin.macro < 0)
            origin.macro = pp_macro_index(pp, m);
        if (m->builtin) {
            /* In place of the name, which keeps its place (a builtin has
             * no definition to point a note at). */
            struct pp_tok b;
            if (!builtin(pp, m, &t, &b) || !pp_vec_push(pp, out, &b))
                return false;
            continue;
        }
        struct pp_tok *res = NULL;
        uint32_t nres = 0;
        if (!m->function) {
            if (!substitute(e, m, NULL, &origin, &res, &nres))
                return false;
        } else {
            if (!peek_lparen(e)) {
                if (!pp_vec_push(pp, out, &t))
                    return false;
                continue;
            }
            struct pp_vec *args = NULL;
            uint32_t nargs = 0;
            bool fail = false;
            if (!collect_args(e, m, &origin, &args, &nargs, &fail)) {
                if (fail)
                    return false;
                /* Reported; the line is dropped (what is left of it would
                 * only bring more errors). */
                *pp_line_abort(pp) = true;
                continue;
            }
            bool ok = substitute(e, m, args, &origin, &res, &nres);
            for (uint32_t i = 0; i < nargs; i++)
                free(args[i].v);
            free(args);
            if (!ok)
                return false;
        }
        if (!push_frame(e, res, nres, slot))
            return false;
    }
    return true;
}

/* The complete expansion of an argument, before it is substituted. */
static bool expand_list(struct pp *pp, const struct pp_tok *in, uint32_t n, uint32_t depth,
                        const struct pp_tok *origin, struct pp_vec *out)
{
    if (depth > PP_MAX_ARG_DEPTH) {
        bool *abort = pp_line_abort(pp);
        if (!*abort) {
            *abort = true; /* the rest of the line expands no more */
            pp_error_tok(pp, origin, ST_E_PP_MACRO,
                         "macro arguments nested more than %d deep; stopped here",
                         PP_MAX_ARG_DEPTH);
        }
        for (uint32_t i = 0; i < n; i++)
            if (!pp_vec_push(pp, out, &in[i]))
                return false;
        return true;
    }
    struct exp e = {pp, NULL, 0, 0, false, false, depth};
    bool ok = push_frame(&e, in, n, -1) && run(&e, out);
    drop_frames(&e);
    return ok;
}

bool pp_expand(struct pp *pp, const struct pp_tok *in, uint32_t n, bool from_source,
               struct pp_vec *out)
{
    struct exp e = {pp, NULL, 0, 0, from_source, false, 0};
    bool ok = push_frame(&e, in, n, -1) && run(&e, out);
    drop_frames(&e);
    return ok && !pp_stopped(pp);
}

bool pp_expand_if(struct pp *pp, const struct pp_tok *in, uint32_t n, struct pp_vec *out)
{
    struct exp e = {pp, NULL, 0, 0, false, true, 0};
    bool ok = push_frame(&e, in, n, -1) && run(&e, out);
    drop_frames(&e);
    return ok && !pp_stopped(pp);
}
