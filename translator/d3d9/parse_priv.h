/*
 * parse_priv.h — private to the D3D9 lexer (lexer.l) and parser (parser.y).
 *
 * The grammar only recognises the shape of a line (prefix, opcode word,
 * comma-separated operands).  What a word means (which opcode, which
 * register file, which modifier) depends on the opcode and the shader
 * version, so the parser collects raw tokens in the structures below and
 * parser.y's build functions turn them into st_instr nodes.  Everything is
 * allocated from the shader's arena, so error recovery never leaks.
 */
#ifndef ST_PARSE_PRIV_H
#define ST_PARSE_PRIV_H

#include <setjmp.h>

#include "translator.h"

/* One token as written: NUL-terminated copy in the arena. */
struct p_tok {
    const char *s;
    size_t len;
    struct st_loc loc;
};

/*
 * The inside of "[...]", evaluated as it is parsed: an integer expression
 * (+ - * / % and parentheses) that computes an index ("c[2 + 10 + 12]" is
 * c24, "c4[2]" is c6), or a relative address: one address register added
 * to such an expression (Wine's assembler rejects "v0[aL - 3 + 5]").
 */
struct p_rel {
    bool has_reg;
    struct p_tok reg;
    bool has_swz;
    struct p_tok swz;
    int64_t offset;       /* the value of the integer part */
    const struct p_tok *float_term; /* the first number that is no integer */
    bool bad;             /* error already reported */
    struct st_loc loc;    /* of "[" (of the term, while parsing) */
};

enum p_opkind { P_REG, P_NUM };

/* One operand as written, before it is known to be a dst, src or value. */
struct p_operand {
    enum p_opkind kind;
    struct st_loc loc; /* first character */
    bool neg;          /* leading "-" */
    bool comp;         /* "N -" in front; comp_num is N */
    struct p_tok comp_num;
    bool not_;         /* leading "!" */
    struct p_tok reg;  /* P_REG: the register word, e.g. "r1_bx2" */
    struct p_rel *rel;
    bool has_suffix;   /* a "_mod" written after "]" */
    struct p_tok suffix;
    bool has_swz;
    struct p_tok swz;  /* ".xyzw" including the dot */
    struct p_tok num;  /* P_NUM */
    bool num_is_float;
    char sep;          /* separator written before it: 0, ',' or '=' */
    struct st_loc sep_loc;
    struct p_operand *next;
};

struct p_list {
    struct p_operand *first, *last;
    unsigned n;
};

struct p_prefix {
    struct st_loc loc; /* of "+" or "(" when either is present */
    bool coissue;
    bool pred;
    bool pred_not;
    struct p_tok pred_reg;
    bool pred_has_swz;
    struct p_tok pred_swz;
    struct st_loc pred_loc; /* of "(" + 1: the "!" or the register */
};

struct parse_state {
    struct st_ctx *ctx;
    struct st_arena *arena;
    /* The operand nodes of the line being parsed (p_operand, p_rel): the
     * statement's action turns them into the shader's instruction, and the
     * line's end resets this arena, so the parser's memory does not grow
     * with them (they were two thirds of the front end's). */
    struct st_arena *tmp;
    struct st_shader *sh;
    void *scanner;

    bool have_version;
    bool no_version_reported;
    /* A '+' ended the last instruction's line: the next one is co-issued
     * (the Direct3D 8 spelling of the leading '+'). */
    bool coissue_next;
    struct st_loc coissue_next_loc;
    bool preprocessed; /* the text is the preprocessor's output */

    /* Lexer position (1-based) and bookkeeping. */
    uint32_t line, col;
    bool line_has_tokens; /* a NEWLINE is owed before EOF */
    bool eof_sent;
    bool bad_char_on_line; /* one BAD_CHAR per line is enough */
    bool in_brackets;      /* between '[' and ']': '*', '/', '%' are operators */
    unsigned paren_depth;  /* '(' open inside the brackets */
    char last_text[40];    /* text of the last token, for syntax errors */

    /* Error limit handling: stop at the first error after the limit. */
    bool limit_seen;
    unsigned limit_count;

    jmp_buf oom; /* flex's fatal errors (out of memory) land here */
    struct st_block_list flex_mem; /* everything flex allocated (lexer.l) */
};

#endif
