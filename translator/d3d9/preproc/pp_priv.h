/*
 * pp_priv.h — private to the Direct3D 9 preprocessor (translator/d3d9/preproc/).
 *
 * pp.c reads files line by line (splices, comments, directives, includes,
 * conditionals) and writes the text the assembly parser reads, with a map
 * from every output column back to the file, line and column the user
 * wrote; pp_macro.c expands macros; pp_expr.c evaluates #if expressions.
 *
 * Nothing here recurses as deep as the input: files are a heap stack,
 * macro rescanning pushes token arrays on a heap stack, #if expressions
 * use explicit operand/operator stacks.  Nothing grows faster than the
 * tokens produced: a token carries one flag, not a set of macros.  The only recursion, expanding a
 * macro's arguments before they are substituted, stops with a located
 * error at PP_MAX_ARG_DEPTH.
 */
#ifndef ST_PP_PRIV_H
#define ST_PP_PRIV_H

#include "translator.h"

enum {
    PP_MAX_INCLUDE_DEPTH = 200,  /* nested #include (GCC's limit) */
    PP_MAX_ARG_DEPTH = 200,      /* macro arguments inside macro arguments */
    PP_MAX_EXPANSION = 1u << 20, /* tokens all macro expansions may produce */
};

enum pp_kind {
    PT_IDENT,
    PT_NUMBER,
    PT_STRING,  /* "..." (directives; # stringification) */
    PT_PUNCT,   /* "...", one of ## << >> <= >= == != && ||, or one character */
    PT_OTHER,   /* a character that starts no other token (passed through) */
    PT_PARAM,   /* macro bodies only: parameter `param` */
    PT_PLACEMARKER, /* an empty argument while pasting (C 6.10.3.3) */
};

/* A position in a file: instance (one inclusion of a file), physical line
 * and column (characters, 1-based). */
struct pp_pos {
    uint32_t inst, line, col;
};

/* A line splice inside a token of the file: from byte `off` of the token's
 * text on, the text is the file's at `pos` (the next physical line). */
struct pp_splice {
    uint32_t off;
    struct pp_pos pos;
};

struct pp_tok {
    uint8_t kind;        /* enum pp_kind */
    bool space;          /* white space before it */
    bool stringify;      /* macro bodies: '#' before this parameter */
    bool paste_after;    /* macro bodies: '##' follows this token */
    uint32_t len;
    const char *text;
    uint32_t param;      /* PT_PARAM */
    struct pp_pos pos;   /* from the file: where; from an expansion: the invocation */
    int32_t macro;       /* -1: from the file; else the outermost macro it came from */
    bool noexpand;       /* named a macro while that macro was being rescanned: it never
                          * expands again (C 6.10.3.4p2) */
    uint32_t nsplices;   /* from the file: line splices inside the token (rare) */
    const struct pp_splice *splices;
    const char *spliced; /* the text the splices are of: a token copied with a new
                          * text (__LINE__, a paste, a stringified argument) has none */
};

struct pp_macro {
    const char *name;
    uint32_t name_len;
    bool defined;
    bool function, variadic;
    int builtin;         /* 1 __LINE__, 2 __FILE__ */
    uint32_t nparams;
    const char **params; /* names (variadic: the last is __VA_ARGS__) */
    uint32_t *param_lens;
    struct pp_tok *body;
    uint32_t nbody;
    struct pp_pos def;   /* the name in its #define */
};

struct pp_vec { /* a growable token array (malloc) */
    struct pp_tok *v;
    uint32_t n, cap;
};

struct pp; /* pp.c */

/* ---- pp.c, for the other two files ---- */
struct st_arena *pp_scratch(struct pp *pp);
bool pp_vec_push(struct pp *pp, struct pp_vec *v, const struct pp_tok *t);
/* Reports at a position of the files, or at a token (which may come from
 * a macro: the invocation, with a note at the macro). */
void pp_error(struct pp *pp, struct pp_pos at, enum st_diag_code code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void pp_warning(struct pp *pp, struct pp_pos at, enum st_diag_code code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void pp_error_tok(struct pp *pp, const struct pp_tok *t, enum st_diag_code code,
                  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Whether processing should end (error limit, out of memory). */
bool pp_stopped(const struct pp *pp);
/* The index of a definition (for tokens' `macro`). */
int32_t pp_macro_index(struct pp *pp, const struct pp_macro *m);
/* The macro named s (its slot, created undefined when missing); -1 when out of memory. */
int32_t pp_macro_slot(struct pp *pp, const char *s, uint32_t len);
struct pp_macro *pp_macro_at(struct pp *pp, int32_t slot);
/* Re-lexes text as one token; false when it is not exactly one. */
bool pp_lex_one(const char *text, uint32_t len, enum pp_kind *kind);
/* __LINE__ and __FILE__ at a position. */
uint32_t pp_shown_line(struct pp *pp, struct pp_pos at);
const char *pp_shown_file(struct pp *pp, struct pp_pos at);
/*
 * The source the top-level expansion reads when its tokens run out: the
 * rest of the current line, then (for arguments and a '(' after a macro
 * name at the end of a line) the following lines.
 */
bool pp_source_next(struct pp *pp, struct pp_tok *t, bool more_lines);
bool pp_source_peek_lparen(struct pp *pp, bool more_lines);

/* ---- pp_macro.c ---- */
/* Expands `in` (a line's tokens, or more from pp_source_next when
 * from_source) into out.  Errors are reported; returns false only when
 * out of memory. */
bool pp_expand(struct pp *pp, const struct pp_tok *in, uint32_t n, bool from_source,
               struct pp_vec *out);
/* The same for #if and #elif: the operand of `defined` stays as it is. */
bool pp_expand_if(struct pp *pp, const struct pp_tok *in, uint32_t n, struct pp_vec *out);
/* While a macro's replacement is rescanned the macro is disabled: a
 * counter per macro name (the name's slot), raised and lowered by
 * pp_macro.c as replacement lists are pushed and finished. */
bool pp_macro_disabled(struct pp *pp, int32_t slot);
void pp_macro_disable(struct pp *pp, int32_t slot, int delta);
/* Counts tokens macros produced, for PP_MAX_EXPANSION. */
struct pp_budget {
    uint64_t used;
    bool reported;
};
struct pp_budget *pp_budget(struct pp *pp);
/* Set when the expansion of the current line went wrong (arguments nested
 * too deep, a bad invocation or paste): the rest of the line expands no
 * more, and the line is dropped. */
bool *pp_line_abort(struct pp *pp);

/* ---- pp_expr.c ---- */
/* Evaluates the tokens of #if/#elif (defined already replaced, macros
 * expanded).  Reports at the tokens' positions, `at` when they are
 * missing; false on an error (*value is then 0). */
bool pp_eval(struct pp *pp, const struct pp_tok *t, uint32_t n, struct pp_pos at, int64_t *value);

#endif
