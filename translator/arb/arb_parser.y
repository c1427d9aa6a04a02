/*
 * arb_parser.y — grammar of ARB_vertex_program and ARB_fragment_program.
 *
 * The specifications' BNF spells every binding ("state.light[0].half",
 * "vertex.texcoord[2]") as keyword sequences, but words such as "color",
 * "position" or "x" are not reserved: they are also legal variable names and
 * swizzles.  So the grammar here only recognises the shape of an operand —
 * a first word (or number, or {vector}) followed by ".word" and "[...]"
 * suffixes — and the resolver at the end of this file matches that shape
 * against the binding tables of the specifications.  Doing it in C gives
 * one precise, located message per mistake ("state.light.half: expected
 * '[' and a light number") instead of bison's token soup, and keeps the
 * swizzle-or-binding question (".x" after "vertex.color") in one place.
 *
 * Names must be declared before use (both specifications say so), so every
 * declaration is entered into the program's tables as soon as it is
 * parsed, and every instruction is resolved when its ';' is reached.
 */
%define api.pure full
%define api.prefix {arb_yy}
%define parse.error verbose
/* Lookahead correction: without it, a default reduction runs its action
 * (arb_instruction, which counts operands) before a bad lookahead is seen,
 * so "MOV R0 R0;" first reported "MOV takes 2 operands, not 1".  LAC also
 * makes the "expecting ..." lists exact. */
%define parse.lac full
%locations
%lex-param {void *scanner}
%parse-param {struct arb_state *ps} {void *scanner}

%code requires {
#include <setjmp.h>
#include <stdint.h>

#include "translator.h"

/* A token as written (arena copy) with its position. */
struct arb_tok {
    const char *s;
    uint32_t len;
    struct st_loc loc;
    int op; /* T_OPCODE: index into st_arb_opinfo, | 0x100 for "_SAT" */
};

/* A ".word" or "[...]" written after an operand's first word. */
enum arb_suf_kind { SUF_DOT, SUF_INDEX, SUF_RANGE, SUF_REL };
struct arb_suffix {
    enum arb_suf_kind kind;
    struct arb_tok word;     /* SUF_DOT: the word; SUF_REL: the address register */
    bool rel_comp_written;   /* SUF_REL: "A0.x" rather than "A0" */
    struct arb_tok rel_comp; /* SUF_REL: "x" */
    int64_t a, b;            /* SUF_INDEX: a; SUF_RANGE: a .. b; SUF_REL: signed offset */
    const char *a_text, *b_text; /* a, b as written (no sign): messages quote these, as
                                  * a and b saturate at 2^31 - 1 */
    struct st_loc loc;       /* of "." or "[" */
    struct st_loc off_loc;   /* SUF_REL: of the offset number */
    struct arb_suffix *next;
};

enum arb_atom_kind { ATOM_WORD, ATOM_ROOT, ATOM_NUMBER, ATOM_VECTOR };

/* One operand as written, before it is known what it names. */
struct arb_opnd {
    struct st_loc loc;    /* first character (the sign when there is one) */
    int sign;             /* 0 none, -1 "-", +1 "+" */
    enum arb_atom_kind kind;
    struct arb_tok word;  /* WORD, ROOT; NUMBER: its text */
    float vec[4];         /* NUMBER: vec[0]; VECTOR: vec[0 .. nvec) */
    unsigned nvec;
    struct st_loc atom_loc;
    struct arb_suffix *suf, *suf_last;
    struct arb_opnd *next;
};

struct arb_list {
    struct arb_opnd *first, *last;
    unsigned n;
};

/* Everything one parse needs; no globals. */
struct arb_state {
    struct st_ctx *ctx;
    struct st_arena *arena;
    struct st_shader *sh;
    struct st_arb_program *arb;
    bool vp; /* vertex program (else fragment) */
    void *scanner;

    /* Lexer position and state. */
    uint32_t line, col;
    bool after_dot; /* the last token was "." : the next word is never a keyword */
    bool after_end; /* "END" seen: the rest is skipped */
    bool stmt_start; /* the next token starts a statement (after ';' or the header) */
    bool line_start; /* no token yet on this line */
    bool last_reserved; /* the last token was a keyword, instruction or binding word */
    bool trailing_warned;
    char last_text[40];

    /* Capacities of the growing tables in *arb. */
    unsigned cap_decls, cap_temps, cap_addrs, cap_inputs, cap_outputs, cap_params, cap_arrays;
    bool seen_statement; /* an OPTION after this is out of place */
    unsigned errors_at_limit; /* error count when the limit was first reached */

    /* Names whose declaration had an error: using them reports nothing
     * more (the declaration's error says it all). */
    const char **failed;
    unsigned num_failed, cap_failed;

    jmp_buf oom; /* flex's fatal errors land here */
    struct st_block_list flex_mem; /* everything flex allocated (arb_lexer.l) */
};
}

%code provides {
int arb_yylex(ARB_YYSTYPE *lval, ARB_YYLTYPE *lloc, void *scanner);
void arb_yyerror(ARB_YYLTYPE *loc, struct arb_state *ps, void *scanner, const char *msg);

/* Called by the parser's actions (defined below the grammar). */
void arb_option(struct arb_state *ps, const struct arb_tok *name);
void arb_instruction(struct arb_state *ps, const struct arb_tok *op, bool known,
                     struct arb_list *ops);
void arb_decl_names(struct arb_state *ps, bool address, struct arb_list *names);
void arb_decl_binding(struct arb_state *ps, bool output, const struct arb_tok *name,
                      struct arb_opnd *b);
void arb_decl_alias(struct arb_state *ps, const struct arb_tok *name, const struct arb_tok *target);
void arb_decl_param(struct arb_state *ps, const struct arb_tok *name, struct arb_opnd *init);
void arb_decl_array(struct arb_state *ps, const struct arb_tok *name,
                    const struct arb_tok *size, struct st_loc size_loc, struct arb_list *items);
}

%code {
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct st_loc L(const ARB_YYLTYPE *l)
{
    struct st_loc loc = {(uint32_t)l->first_line, (uint32_t)l->first_column};
    return loc;
}

static struct arb_opnd *new_opnd(struct arb_state *ps, struct st_loc loc)
{
    struct arb_opnd *o = st_arena_alloc(ps->arena, sizeof(*o));
    o->loc = loc;
    o->atom_loc = loc;
    return o;
}

static void add_suffix(struct arb_state *ps, struct arb_opnd *o, struct arb_suffix s)
{
    struct arb_suffix *n = st_arena_alloc(ps->arena, sizeof(*n));
    *n = s;
    n->next = NULL;
    if (o->suf_last)
        o->suf_last->next = n;
    else
        o->suf = n;
    o->suf_last = n;
}

static void list_add(struct arb_list *l, struct arb_opnd *o)
{
    if (!o)
        return;
    o->next = NULL;
    if (l->last)
        l->last->next = o;
    else
        l->first = o;
    l->last = o;
    l->n++;
}

static int64_t tok_int(const struct arb_tok *t)
{
    int64_t v = 0;
    for (uint32_t i = 0; i < t->len; i++) {
        v = v * 10 + (t->s[i] - '0');
        if (v > 0x7fffffff)
            return 0x7fffffff; /* "out of range" for every limit */
    }
    return v;
}

static float tok_float(struct arb_state *ps, const struct arb_tok *t)
{
    double d = strtod(t->s, NULL);
    if (!isfinite(d) || fabs(d) > 3.40282346638528859812e+38) {
        st_error(ps->ctx, t->loc, ST_E_BAD_NUMBER, "'%s' is out of the range of a float", t->s);
        return 0.0f;
    }
    return (float)d;
}

/* Stop once an error beyond the limit has been counted: that one becomes
 * the "too many errors" notice (ST1013), so the user learns that the list
 * is cut.  Stopping as soon as the limit is reached printed no notice. */
#define STOP_AT_LIMIT()                                                     \
    do {                                                                    \
        if (st_error_limit_reached(ps->ctx)) {                              \
            if (!ps->errors_at_limit)                                       \
                ps->errors_at_limit = st_error_count(ps->ctx);              \
            else if (st_error_count(ps->ctx) > ps->errors_at_limit)         \
                YYABORT;                                                    \
        }                                                                   \
    } while (0)
}

%union {
    struct arb_tok tok;
    struct arb_opnd *opnd;
    struct arb_list list;
    struct arb_suffix suf;
    int sign;
}

%token <tok> T_OPTION "OPTION" T_END "END" T_TEMP "TEMP" T_PARAM "PARAM" T_ATTRIB "ATTRIB"
%token <tok> T_OUTPUT "OUTPUT" T_ALIAS "ALIAS" T_ADDRESS "ADDRESS"
%token <tok> T_OPCODE "instruction" T_WORD "identifier" T_ROOT "binding"
%token <tok> T_INT "integer" T_FLOAT "number" T_DOTDOT "'..'"

%type <opnd> operand atom vector const_list
%type <list> operands names items
%type <suf> index
%type <sign> sign
%type <tok> number

%%

program
    : statements T_END              { ps->arb->end_loc = $2.loc; }
    ;

statements
    : %empty
    | statements statement          {
          STOP_AT_LIMIT();
          /* the compile budget and the caller's cancel callback */
          if (!st_poll_at(ps->ctx, (struct st_loc){ps->line, 1}, 1))
              YYABORT;
      }
    ;

statement
    : instruction ';'               { ps->seen_statement = true; }
    | declaration ';'               { ps->seen_statement = true; }
    | T_OPTION T_WORD ';'           {
          /* Options come first (both specifications); one list keeps the
           * grammar conflict-free and the message precise. */
          if (ps->seen_statement)
              st_error(ps->ctx, $1.loc, ST_E_SYNTAX,
                       "OPTION must come before every declaration and instruction");
          else
              arb_option(ps, &$2);
      }
    | error ';'                     { yyerrok; }
    ;

instruction
    : T_OPCODE operands             { arb_instruction(ps, &$1, true, &$2); }
    | T_WORD operands               { arb_instruction(ps, &$1, false, &$2); }
    ;

operands
    : operand                       { $$ = (struct arb_list){0}; list_add(&$$, $1); }
    | operands ',' operand          { $$ = $1; list_add(&$$, $3); }
    ;

operand
    : sign atom                     {
          $$ = $2;
          if ($1) {
              $$->sign = $1;
              $$->loc = L(&@1);
          }
      }
    | operand '.' T_WORD            {
          $$ = $1;
          add_suffix(ps, $$, (struct arb_suffix){.kind = SUF_DOT, .word = $3, .loc = L(&@2)});
      }
    | operand '[' index ']'         {
          $$ = $1;
          $3.loc = L(&@2);
          add_suffix(ps, $$, $3);
      }
    ;

sign
    : %empty                        { $$ = 0; }
    | '-'                           { $$ = -1; }
    | '+'                           { $$ = 1; }
    ;

atom
    : T_WORD                        { $$ = new_opnd(ps, $1.loc); $$->kind = ATOM_WORD; $$->word = $1; }
    | T_ROOT                        { $$ = new_opnd(ps, $1.loc); $$->kind = ATOM_ROOT; $$->word = $1; }
    | number                        {
          $$ = new_opnd(ps, $1.loc);
          $$->kind = ATOM_NUMBER;
          $$->word = $1;
          $$->vec[0] = tok_float(ps, &$1);
          $$->nvec = 1;
      }
    | vector                        { $$ = $1; }
    ;

number
    : T_INT | T_FLOAT
    ;

vector
    : '{' const_list '}'            { $$ = $2; $$->loc = $$->atom_loc = L(&@1); }
    ;

const_list
    : sign number                   {
          $$ = new_opnd(ps, L(&@1));
          $$->kind = ATOM_VECTOR;
          float v = tok_float(ps, &$2);
          $$->vec[0] = $1 < 0 ? -v : v;
          $$->nvec = 1;
      }
    | const_list ',' sign number    {
          $$ = $1;
          float v = tok_float(ps, &$4);
          if ($$->nvec == 4)
              st_error(ps->ctx, L(&@4), ST_E_SYNTAX, "a constant vector has at most four components");
          else
              $$->vec[$$->nvec++] = $3 < 0 ? -v : v;
      }
    ;

index
    : T_INT                         {
          $$ = (struct arb_suffix){.kind = SUF_INDEX, .a = tok_int(&$1), .a_text = $1.s};
      }
    | T_INT T_DOTDOT T_INT          {
          $$ = (struct arb_suffix){.kind = SUF_RANGE, .a = tok_int(&$1), .b = tok_int(&$3),
                                   .a_text = $1.s, .b_text = $3.s};
      }
    | T_WORD                        { $$ = (struct arb_suffix){.kind = SUF_REL, .word = $1}; }
    | T_WORD '+' T_INT              {
          $$ = (struct arb_suffix){.kind = SUF_REL, .word = $1, .a = tok_int(&$3), .a_text = $3.s,
                                   .off_loc = L(&@3)};
      }
    | T_WORD '-' T_INT              {
          $$ = (struct arb_suffix){.kind = SUF_REL, .word = $1, .a = -tok_int(&$3), .a_text = $3.s,
                                   .off_loc = L(&@3)};
      }
    | T_WORD '.' T_WORD             {
          $$ = (struct arb_suffix){.kind = SUF_REL, .word = $1, .rel_comp_written = true, .rel_comp = $3};
      }
    | T_WORD '.' T_WORD '+' T_INT   {
          $$ = (struct arb_suffix){.kind = SUF_REL, .word = $1, .rel_comp_written = true,
                                   .rel_comp = $3, .a = tok_int(&$5), .a_text = $5.s,
                                   .off_loc = L(&@5)};
      }
    | T_WORD '.' T_WORD '-' T_INT   {
          $$ = (struct arb_suffix){.kind = SUF_REL, .word = $1, .rel_comp_written = true,
                                   .rel_comp = $3, .a = -tok_int(&$5), .a_text = $5.s,
                                   .off_loc = L(&@5)};
      }
    ;

declaration
    : T_TEMP names                  { arb_decl_names(ps, false, &$2); }
    | T_ADDRESS names               { arb_decl_names(ps, true, &$2); }
    | T_ATTRIB T_WORD '=' operand   { arb_decl_binding(ps, false, &$2, $4); }
    | T_OUTPUT T_WORD '=' operand   { arb_decl_binding(ps, true, &$2, $4); }
    | T_ALIAS T_WORD '=' T_WORD     { arb_decl_alias(ps, &$2, &$4); }
    | T_PARAM T_WORD '=' operand    { arb_decl_param(ps, &$2, $4); }
    | T_PARAM T_WORD '[' ']' '=' '{' items '}' {
          arb_decl_array(ps, &$2, NULL, L(&@3), &$7);
      }
    | T_PARAM T_WORD '[' T_INT ']' '=' '{' items '}' {
          arb_decl_array(ps, &$2, &$4, $4.loc, &$8);
      }
    ;

names
    : T_WORD                        {
          $$ = (struct arb_list){0};
          struct arb_opnd *o = new_opnd(ps, $1.loc);
          o->kind = ATOM_WORD;
          o->word = $1;
          list_add(&$$, o);
      }
    | names ',' T_WORD              {
          $$ = $1;
          struct arb_opnd *o = new_opnd(ps, $3.loc);
          o->kind = ATOM_WORD;
          o->word = $3;
          list_add(&$$, o);
      }
    ;

items
    : operand                       { $$ = (struct arb_list){0}; list_add(&$$, $1); }
    | items ',' operand             { $$ = $1; list_add(&$$, $3); }
    ;

%%

void arb_yyerror(ARB_YYLTYPE *loc, struct arb_state *ps, void *scanner, const char *msg)
{
    (void)scanner;
    /* bison says "syntax error, unexpected identifier, expecting ..."; the
     * text of the token makes the message usable. */
    const char *m = msg;
    if (strncmp(m, "syntax error, ", 14) == 0)
        m += 14;
    char quoted[sizeof(ps->last_text) + 2];
    snprintf(quoted, sizeof(quoted), "'%s'", ps->last_text);
    if (ps->last_reserved && strstr(m, "expecting identifier"))
        st_error(ps->ctx, L(loc), ST_E_SYNTAX, "'%s' is a reserved word and cannot name a variable",
                 ps->last_text);
    else if (strcmp(m, "unexpected end of file") == 0)
        /* bison names no expected token where a statement or END may go */
        st_error(ps->ctx, L(loc), ST_E_SYNTAX, "unexpected end of file: an ARB program ends with END");
    else if (ps->last_text[0] && !strstr(m, quoted))
        st_error(ps->ctx, L(loc), ST_E_SYNTAX, "%s (at '%s')", m, ps->last_text);
    else /* the message already shows the token (';') or there is none (end of file) */
        st_error(ps->ctx, L(loc), ST_E_SYNTAX, "%s", m);
}

/* ------------------------------------------------------------------ */
/* Limits the grammar states as "integer from 0 to MAX_...-1".  The    */
/* values are this implementation's (docs/arb.md, "Limits").           */

enum {
    ARB_MAX_VERTEX_ATTRIBS = 16,
    ARB_MAX_VERTEX_UNITS = 4,       /* weights, matrix indices, modelview[n] */
    ARB_MAX_TEXTURE_COORDS = 8,
    ARB_MAX_TEXTURE_UNITS = 8,      /* legacy units: texenv[n] */
    ARB_MAX_TEXTURE_IMAGE_UNITS = 16,
    ARB_MAX_LIGHTS = 8,
    ARB_MAX_CLIP_PLANES = 8,
    ARB_MAX_PALETTE_MATRICES = 32,
    ARB_MAX_PROGRAM_MATRICES = 8,
    ARB_MAX_ENV_PARAMS = 256,
    ARB_MAX_LOCAL_PARAMS = 4096,
    ARB_MAX_DRAW_BUFFERS = 8,
    /* The grammar's "+0..63 / -0..64" is the specification's floor; like
     * Mesa (whose behaviour piglit's vp-arl-constant-array-huge-relative-
     * offset test expects) any offset within the parameter file is taken. */
    ARB_MAX_ADDRESS_OFFSET = 4096,
};

/* ------------------------------------------------------------------ */
/* Growing tables (arena memory; the old block is simply abandoned).   */

static void *grow(struct arb_state *ps, void *old, unsigned n, unsigned *cap, size_t elem)
{
    if (n < *cap)
        return old;
    unsigned ncap = *cap ? *cap * 2 : 8;
    void *p = st_arena_alloc(ps->arena, (size_t)ncap * elem);
    if (st_arena_failed(ps->arena))
        return old; /* caller checks n < cap again */
    if (old && n)
        memcpy(p, old, (size_t)n * elem);
    *cap = ncap;
    return p;
}

#define PUSH(ps, arr, num, cap) \
    ((arr) = grow((ps), (arr), (num), &(ps)->cap, sizeof(*(arr))), (num) < (ps)->cap)

static int add_decl(struct arb_state *ps, enum st_arb_decl_kind kind, const struct arb_tok *name,
                    uint32_t index)
{
    struct st_arb_program *a = ps->arb;
    if (!PUSH(ps, a->decls, a->num_decls, cap_decls))
        return -1;
    struct st_arb_decl *d = &a->decls[a->num_decls];
    d->kind = kind;
    d->name = name->s;
    d->index = index;
    d->loc = name->loc;
    return (int)a->num_decls++;
}

static int find_decl(const struct st_arb_program *a, const char *name)
{
    for (unsigned i = 0; i < a->num_decls; i++)
        if (strcmp(a->decls[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* A new name must not be declared yet (both specifications). */
static bool fresh_name(struct arb_state *ps, const struct arb_tok *name)
{
    int d = find_decl(ps->arb, name->s);
    if (d < 0)
        return true;
    struct st_loc prev = ps->arb->decls[d].loc;
    st_error(ps->ctx, name->loc, ST_E_ARB_DUP_NAME, "'%s' is already declared (line %u)", name->s,
             prev.line);
    return false;
}

/* A declaration of `name` failed (and was reported): remember the name,
 * unless it was declared before (then uses resolve to that one). */
static void failed_decl(struct arb_state *ps, const struct arb_tok *name)
{
    if (find_decl(ps->arb, name->s) >= 0 || !PUSH(ps, ps->failed, ps->num_failed, cap_failed))
        return;
    ps->failed[ps->num_failed++] = name->s;
}

static bool is_failed_decl(const struct arb_state *ps, const char *name)
{
    for (unsigned i = 0; i < ps->num_failed; i++)
        if (strcmp(ps->failed[i], name) == 0)
            return true;
    return false;
}

static int add_input(struct arb_state *ps, const char *binding, struct st_loc loc)
{
    struct st_arb_program *a = ps->arb;
    for (unsigned i = 0; i < a->num_inputs; i++)
        if (strcmp(a->inputs[i].binding, binding) == 0)
            return (int)i;
    if (!PUSH(ps, a->inputs, a->num_inputs, cap_inputs))
        return 0;
    a->inputs[a->num_inputs] = (struct st_arb_binding){binding, loc};
    return (int)a->num_inputs++;
}

static int add_output(struct arb_state *ps, const char *binding, struct st_loc loc)
{
    struct st_arb_program *a = ps->arb;
    for (unsigned i = 0; i < a->num_outputs; i++)
        if (strcmp(a->outputs[i].binding, binding) == 0)
            return (int)i;
    if (!PUSH(ps, a->outputs, a->num_outputs, cap_outputs))
        return 0;
    a->outputs[a->num_outputs] = (struct st_arb_binding){binding, loc};
    return (int)a->num_outputs++;
}

static int add_param(struct arb_state *ps, const struct st_arb_param *p)
{
    struct st_arb_program *a = ps->arb;
    if (!PUSH(ps, a->params, a->num_params, cap_params))
        return 0;
    a->params[a->num_params] = *p;
    return (int)a->num_params++;
}

/* Constants and bindings written inside an instruction share one slot per
 * distinct value (they are never part of an array, so sharing is exact). */
static int implicit_param(struct arb_state *ps, const struct st_arb_param *p)
{
    struct st_arb_program *a = ps->arb;
    for (unsigned i = 0; i < a->num_params; i++) {
        const struct st_arb_param *q = &a->params[i];
        if (q->array >= 0 || q->kind != p->kind)
            continue;
        if (p->kind == ST_ARB_PARAM_CONST ? memcmp(q->value, p->value, sizeof(p->value)) == 0
                                          : strcmp(q->binding, p->binding) == 0)
            return (int)i;
    }
    return add_param(ps, p);
}

/* ------------------------------------------------------------------ */
/* Operands as text, for messages.                                     */

static void suffix_text(struct st_buf *b, const struct arb_suffix *s)
{
    switch (s->kind) {
    case SUF_DOT: st_buf_printf(b, ".%s", s->word.s); break;
    case SUF_INDEX: st_buf_printf(b, "[%s]", s->a_text); break;
    case SUF_RANGE: st_buf_printf(b, "[%s..%s]", s->a_text, s->b_text); break;
    case SUF_REL:
        st_buf_printf(b, "[%s%s%s", s->word.s, s->rel_comp_written ? "." : "",
                      s->rel_comp_written ? s->rel_comp.s : "");
        if (s->a)
            st_buf_printf(b, " %c %s", s->a < 0 ? '-' : '+', s->a_text);
        st_buf_putc(b, ']');
        break;
    }
}

/* The operand up to (not including) suffix `stop` (NULL: all of it). */
static const char *opnd_text(struct arb_state *ps, const struct arb_opnd *o,
                             const struct arb_suffix *stop)
{
    struct st_buf b = {0};
    if (o->kind == ATOM_VECTOR) {
        st_buf_putc(&b, '{');
        for (unsigned i = 0; i < o->nvec; i++)
            st_buf_printf(&b, "%s%g", i ? ", " : "", o->vec[i]);
        st_buf_putc(&b, '}');
    } else {
        st_buf_printf(&b, "%s", o->word.s);
    }
    for (const struct arb_suffix *s = o->suf; s && s != stop; s = s->next)
        suffix_text(&b, s);
    const char *r = st_arena_strndup(ps->arena, b.data ? b.data : "", b.len);
    st_buf_free(&b);
    return r;
}

/* ------------------------------------------------------------------ */
/* Bindings: "vertex.*", "fragment.*", "result.*", "state.*",          */
/* "program.*", "texture[n]".                                          */

enum bind_kind { BIND_INPUT, BIND_OUTPUT, BIND_PARAM, BIND_TEXUNIT };

struct bind {
    enum bind_kind kind;
    const char *name;              /* INPUT, OUTPUT, single STATE: canonical name */
    enum st_arb_param_kind pkind;  /* PARAM: ENV, LOCAL or STATE */
    uint32_t first, count;         /* ENV/LOCAL: numbers; matrix: rows; else 0, 1 */
    const char *matrix;            /* STATE matrix rows: "state.matrix.mvp.inverse" */
    uint32_t unit;                 /* TEXUNIT */
};

/* A cursor over an operand's suffixes while a binding is matched. */
struct cur {
    struct arb_state *ps;
    const struct arb_opnd *o;
    struct arb_suffix *s;
    bool failed;
};

static bool dot_is(struct cur *c, const char *w)
{
    if (c->s && c->s->kind == SUF_DOT && strcmp(c->s->word.s, w) == 0) {
        c->s = c->s->next;
        return true;
    }
    return false;
}

/* Report "<text so far>: <what>" at the current suffix (or the operand). */
static bool bind_fail(struct cur *c, enum st_diag_code code, const char *what)
{
    if (c->failed)
        return false;
    c->failed = true;
    struct st_loc loc = c->s ? c->s->loc : c->o->atom_loc;
    const char *text = opnd_text(c->ps, c->o, c->s ? c->s->next : NULL);
    st_error(c->ps->ctx, loc, code, "%s: %s", text, what);
    return false;
}

/* "[n]" with 0 <= n < max.  *n keeps `dflt` when the index is optional and
 * absent. */
static bool take_index(struct cur *c, bool required, uint32_t max, const char *what, uint32_t *n)
{
    if (!c->s || c->s->kind == SUF_DOT) {
        if (required)
            return bind_fail(c, ST_E_ARB_BINDING, "expected '[' and a number");
        return true;
    }
    if (c->s->kind == SUF_REL)
        return bind_fail(c, ST_E_RELADDR_RULE,
                         c->ps->vp ? "relative addressing is only allowed on PARAM arrays"
                                   : "fragment programs have no relative addressing: the index "
                                     "must be a number");
    if (c->s->kind != SUF_INDEX)
        return bind_fail(c, ST_E_REG_INDEX, "a range is only allowed in a PARAM array");
    if (c->s->a >= max) {
        char msg[96];
        snprintf(msg, sizeof(msg), "%s %s is out of range (0..%u)", what, c->s->a_text, max - 1);
        return bind_fail(c, ST_E_REG_INDEX, msg);
    }
    *n = (uint32_t)c->s->a;
    c->s = c->s->next;
    return true;
}

/* "[a]" or, when `multi`, "[a..b]". */
static bool take_range(struct cur *c, bool multi, uint32_t max, const char *what, uint32_t *first,
                       uint32_t *count)
{
    if (c->s && c->s->kind == SUF_RANGE) {
        if (!multi)
            return bind_fail(c, ST_E_REG_INDEX, "a range is only allowed in a PARAM array");
        if (c->s->a > c->s->b)
            return bind_fail(c, ST_E_REG_INDEX, "the first number of a range must not exceed the second");
        if (c->s->b >= max) {
            char msg[96];
            snprintf(msg, sizeof(msg), "%s %s is out of range (0..%u)", what, c->s->b_text, max - 1);
            return bind_fail(c, ST_E_REG_INDEX, msg);
        }
        *first = (uint32_t)c->s->a;
        *count = (uint32_t)(c->s->b - c->s->a + 1);
        c->s = c->s->next;
        return true;
    }
    *count = 1;
    return take_index(c, true, max, what, first);
}

static const char *face_suffix(struct cur *c)
{
    if (dot_is(c, "front"))
        return "";
    if (dot_is(c, "back"))
        return ".back";
    return "";
}

static bool bind_vertex(struct cur *c, struct bind *b)
{
    struct st_arena *ar = c->ps->arena;
    uint32_t n = 0;
    b->kind = BIND_INPUT;
    if (dot_is(c, "position")) {
        b->name = "vertex.position";
    } else if (dot_is(c, "weight") || dot_is(c, "matrixindex")) {
        bool weight = strcmp(c->o->suf->word.s, "weight") == 0;
        /* Checked before take_index moves past "[n]", so the message
         * points at the number, not at the start of the operand. */
        if (c->s && c->s->kind == SUF_INDEX && c->s->a < ARB_MAX_VERTEX_UNITS && c->s->a % 4)
            return bind_fail(c, ST_E_REG_INDEX, "the number must be a multiple of four");
        if (!take_index(c, false, ARB_MAX_VERTEX_UNITS, weight ? "weight" : "matrix index", &n))
            return false;
        b->name = st_arena_printf(ar, "vertex.%s[%u]", weight ? "weight" : "matrixindex", n);
    } else if (dot_is(c, "normal")) {
        b->name = "vertex.normal";
    } else if (dot_is(c, "color")) {
        if (dot_is(c, "secondary"))
            b->name = "vertex.color.secondary";
        else {
            dot_is(c, "primary");
            b->name = "vertex.color";
        }
    } else if (dot_is(c, "fogcoord")) {
        b->name = "vertex.fogcoord";
    } else if (dot_is(c, "texcoord")) {
        if (!take_index(c, false, ARB_MAX_TEXTURE_COORDS, "texture coordinate set", &n))
            return false;
        b->name = st_arena_printf(ar, "vertex.texcoord[%u]", n);
    } else if (dot_is(c, "attrib")) {
        if (!take_index(c, true, ARB_MAX_VERTEX_ATTRIBS, "generic attribute", &n))
            return false;
        b->name = st_arena_printf(ar, "vertex.attrib[%u]", n);
    } else {
        return bind_fail(c, ST_E_ARB_BINDING, "not a vertex attribute binding "
                         "(position, weight, normal, color, fogcoord, texcoord, matrixindex, attrib)");
    }
    return true;
}

static bool bind_fragment(struct cur *c, struct bind *b)
{
    uint32_t n = 0;
    b->kind = BIND_INPUT;
    if (dot_is(c, "color")) {
        if (dot_is(c, "secondary"))
            b->name = "fragment.color.secondary";
        else {
            dot_is(c, "primary");
            b->name = "fragment.color";
        }
    } else if (dot_is(c, "texcoord")) {
        if (!take_index(c, false, ARB_MAX_TEXTURE_COORDS, "texture coordinate set", &n))
            return false;
        b->name = st_arena_printf(c->ps->arena, "fragment.texcoord[%u]", n);
    } else if (dot_is(c, "fogcoord")) {
        b->name = "fragment.fogcoord";
    } else if (dot_is(c, "position")) {
        b->name = "fragment.position";
    } else {
        return bind_fail(c, ST_E_ARB_BINDING,
                         "not a fragment attribute binding (color, texcoord, fogcoord, position)");
    }
    return true;
}

static bool bind_result(struct cur *c, struct bind *b)
{
    struct st_arena *ar = c->ps->arena;
    uint32_t n = 0;
    b->kind = BIND_OUTPUT;
    if (c->ps->vp) {
        if (c->s && c->s->kind == SUF_DOT && strcmp(c->s->word.s, "position") == 0 &&
            (c->ps->arb->options & ST_ARB_OPT_POSITION_INVARIANT)) {
            return bind_fail(c, ST_E_DST_REG, "not available with OPTION ARB_position_invariant "
                             "(fixed-function transform computes the position)");
        } else if (dot_is(c, "position")) {
            b->name = "result.position";
        } else if (dot_is(c, "color")) {
            const char *face = face_suffix(c);
            const char *type = "";
            if (dot_is(c, "secondary"))
                type = ".secondary";
            else
                dot_is(c, "primary");
            b->name = st_arena_printf(ar, "result.color%s%s", face, type);
        } else if (dot_is(c, "fogcoord")) {
            b->name = "result.fogcoord";
        } else if (dot_is(c, "pointsize")) {
            b->name = "result.pointsize";
        } else if (dot_is(c, "texcoord")) {
            if (!take_index(c, false, ARB_MAX_TEXTURE_COORDS, "texture coordinate set", &n))
                return false;
            b->name = st_arena_printf(ar, "result.texcoord[%u]", n);
        } else {
            return bind_fail(c, ST_E_ARB_BINDING, "not a vertex program result "
                             "(position, color, fogcoord, pointsize, texcoord)");
        }
    } else {
        if (dot_is(c, "color")) {
            if (c->s && c->s->kind != SUF_DOT) {
                if (!(c->ps->arb->options & ST_ARB_OPT_DRAW_BUFFERS))
                    return bind_fail(c, ST_E_REG_INDEX, "result.color[n] needs OPTION ARB_draw_buffers");
                if (!take_index(c, true, ARB_MAX_DRAW_BUFFERS, "color output", &n))
                    return false;
            }
            b->name = n ? st_arena_printf(ar, "result.color[%u]", n) : "result.color";
        } else if (dot_is(c, "depth")) {
            b->name = "result.depth";
        } else {
            return bind_fail(c, ST_E_ARB_BINDING, "not a fragment program result (color, depth)");
        }
    }
    return true;
}

static bool bind_matrix(struct cur *c, bool multi, struct bind *b)
{
    struct st_arena *ar = c->ps->arena;
    uint32_t n = 0;
    const char *base;
    if (dot_is(c, "modelview")) {
        if (!take_index(c, false, ARB_MAX_VERTEX_UNITS, "modelview matrix", &n))
            return false;
        base = st_arena_printf(ar, "state.matrix.modelview[%u]", n);
    } else if (dot_is(c, "projection")) {
        base = "state.matrix.projection";
    } else if (dot_is(c, "mvp")) {
        base = "state.matrix.mvp";
    } else if (dot_is(c, "texture")) {
        if (!take_index(c, false, ARB_MAX_TEXTURE_COORDS, "texture matrix", &n))
            return false;
        base = st_arena_printf(ar, "state.matrix.texture[%u]", n);
    } else if (dot_is(c, "palette")) {
        if (!take_index(c, true, ARB_MAX_PALETTE_MATRICES, "palette matrix", &n))
            return false;
        base = st_arena_printf(ar, "state.matrix.palette[%u]", n);
    } else if (dot_is(c, "program")) {
        if (!take_index(c, true, ARB_MAX_PROGRAM_MATRICES, "program matrix", &n))
            return false;
        base = st_arena_printf(ar, "state.matrix.program[%u]", n);
    } else {
        return bind_fail(c, ST_E_ARB_BINDING,
                         "not a matrix (modelview, projection, mvp, texture, palette, program)");
    }
    static const char *const mods[] = {"inverse", "transpose", "invtrans"};
    for (int i = 0; i < 3; i++)
        if (dot_is(c, mods[i])) {
            base = st_arena_printf(ar, "%s.%s", base, mods[i]);
            break;
        }
    b->matrix = base;
    if (dot_is(c, "row"))
        return take_range(c, multi, 4, "matrix row", &b->first, &b->count);
    if (!multi)
        return bind_fail(c, ST_E_OPERAND_KIND, "a matrix is four vectors: bind it to a PARAM "
                         "array or select one with .row[n]");
    b->first = 0;
    b->count = 4;
    return true;
}

static bool bind_state(struct cur *c, bool multi, struct bind *b)
{
    struct st_arena *ar = c->ps->arena;
    bool vp = c->ps->vp;
    uint32_t n = 0;
    b->kind = BIND_PARAM;
    b->pkind = ST_ARB_PARAM_STATE;
    b->count = 1;
    if (dot_is(c, "material")) {
        const char *face = face_suffix(c);
        static const char *const props[] = {"ambient", "diffuse", "specular", "emission", "shininess"};
        for (int i = 0; i < 5; i++)
            if (dot_is(c, props[i])) {
                b->name = st_arena_printf(ar, "state.material%s.%s", face, props[i]);
                return true;
            }
        return bind_fail(c, ST_E_ARB_BINDING,
                         "expected ambient, diffuse, specular, emission or shininess");
    }
    if (dot_is(c, "light")) {
        if (!take_index(c, true, ARB_MAX_LIGHTS, "light", &n))
            return false;
        static const char *const props[] = {"ambient", "diffuse", "specular", "position",
                                            "attenuation", "half"};
        for (int i = 0; i < 6; i++)
            if (dot_is(c, props[i])) {
                b->name = st_arena_printf(ar, "state.light[%u].%s", n, props[i]);
                return true;
            }
        if (dot_is(c, "spot")) {
            if (dot_is(c, "direction")) {
                b->name = st_arena_printf(ar, "state.light[%u].spot.direction", n);
                return true;
            }
            return bind_fail(c, ST_E_ARB_BINDING, "expected .direction");
        }
        return bind_fail(c, ST_E_ARB_BINDING,
                         "expected ambient, diffuse, specular, position, attenuation, spot.direction or half");
    }
    if (dot_is(c, "lightmodel")) {
        if (dot_is(c, "ambient")) {
            b->name = "state.lightmodel.ambient";
            return true;
        }
        const struct arb_suffix *before_face = c->s;
        const char *face = face_suffix(c);
        if (dot_is(c, "scenecolor")) {
            b->name = st_arena_printf(ar, "state.lightmodel%s.scenecolor", face);
            return true;
        }
        /* Only scenecolor has a front and a back. */
        return bind_fail(c, ST_E_ARB_BINDING, c->s != before_face
                         ? "expected scenecolor (the light model ambient has no face)"
                         : "expected ambient or scenecolor");
    }
    if (dot_is(c, "lightprod")) {
        if (!take_index(c, true, ARB_MAX_LIGHTS, "light", &n))
            return false;
        const char *face = face_suffix(c);
        static const char *const props[] = {"ambient", "diffuse", "specular"};
        for (int i = 0; i < 3; i++)
            if (dot_is(c, props[i])) {
                b->name = st_arena_printf(ar, "state.lightprod[%u]%s.%s", n, face, props[i]);
                return true;
            }
        return bind_fail(c, ST_E_ARB_BINDING, "expected ambient, diffuse or specular");
    }
    if (vp && dot_is(c, "texgen")) {
        if (!take_index(c, false, ARB_MAX_TEXTURE_COORDS, "texture unit", &n))
            return false;
        const char *type = dot_is(c, "eye") ? "eye" : dot_is(c, "object") ? "object" : NULL;
        if (!type)
            return bind_fail(c, ST_E_ARB_BINDING, "expected eye or object");
        static const char *const coords[] = {"s", "t", "r", "q"};
        for (int i = 0; i < 4; i++)
            if (dot_is(c, coords[i])) {
                b->name = st_arena_printf(ar, "state.texgen[%u].%s.%s", n, type, coords[i]);
                return true;
            }
        return bind_fail(c, ST_E_ARB_BINDING, "expected s, t, r or q");
    }
    if (dot_is(c, "fog")) {
        if (dot_is(c, "color"))
            b->name = "state.fog.color";
        else if (dot_is(c, "params"))
            b->name = "state.fog.params";
        else
            return bind_fail(c, ST_E_ARB_BINDING, "expected color or params");
        return true;
    }
    if (vp && dot_is(c, "clip")) {
        if (!take_index(c, true, ARB_MAX_CLIP_PLANES, "clip plane", &n))
            return false;
        if (!dot_is(c, "plane"))
            return bind_fail(c, ST_E_ARB_BINDING, "expected .plane");
        b->name = st_arena_printf(ar, "state.clip[%u].plane", n);
        return true;
    }
    if (vp && dot_is(c, "point")) {
        if (dot_is(c, "size"))
            b->name = "state.point.size";
        else if (dot_is(c, "attenuation"))
            b->name = "state.point.attenuation";
        else
            return bind_fail(c, ST_E_ARB_BINDING, "expected size or attenuation");
        return true;
    }
    if (!vp && dot_is(c, "texenv")) {
        if (!take_index(c, false, ARB_MAX_TEXTURE_UNITS, "texture unit", &n))
            return false;
        if (!dot_is(c, "color"))
            return bind_fail(c, ST_E_ARB_BINDING, "expected .color");
        b->name = st_arena_printf(ar, "state.texenv[%u].color", n);
        return true;
    }
    if (!vp && dot_is(c, "depth")) {
        if (!dot_is(c, "range"))
            return bind_fail(c, ST_E_ARB_BINDING, "expected .range");
        b->name = "state.depth.range";
        return true;
    }
    if (dot_is(c, "matrix"))
        return bind_matrix(c, multi, b);
    return bind_fail(c, ST_E_ARB_BINDING,
                     vp ? "not a vertex program state binding (material, light, lightmodel, "
                          "lightprod, texgen, fog, clip, point, matrix)"
                        : "not a fragment program state binding (material, light, lightmodel, "
                          "lightprod, texenv, fog, depth, matrix)");
}

static bool bind_program(struct cur *c, bool multi, struct bind *b)
{
    b->kind = BIND_PARAM;
    if (dot_is(c, "env")) {
        b->pkind = ST_ARB_PARAM_ENV;
        return take_range(c, multi, ARB_MAX_ENV_PARAMS, "environment parameter", &b->first, &b->count);
    }
    if (dot_is(c, "local")) {
        b->pkind = ST_ARB_PARAM_LOCAL;
        return take_range(c, multi, ARB_MAX_LOCAL_PARAMS, "local parameter", &b->first, &b->count);
    }
    return bind_fail(c, ST_E_ARB_BINDING, "expected env or local");
}

/* Matches a binding at the start of o; *rest is what follows it.  `multi`
 * allows what only a PARAM array may hold (ranges, whole matrices). */
static bool parse_binding(struct arb_state *ps, const struct arb_opnd *o, bool multi,
                          struct bind *b, struct arb_suffix **rest)
{
    struct cur c = {ps, o, o->suf, false};
    memset(b, 0, sizeof(*b));
    const char *root = o->word.s;
    bool ok;
    if (strcmp(root, "vertex") == 0)
        ok = bind_vertex(&c, b);
    else if (strcmp(root, "fragment") == 0)
        ok = bind_fragment(&c, b);
    else if (strcmp(root, "result") == 0)
        ok = bind_result(&c, b);
    else if (strcmp(root, "state") == 0)
        ok = bind_state(&c, multi, b);
    else if (strcmp(root, "program") == 0)
        ok = bind_program(&c, multi, b);
    else { /* texture */
        b->kind = BIND_TEXUNIT;
        ok = take_index(&c, false, ARB_MAX_TEXTURE_IMAGE_UNITS, "texture image unit", &b->unit);
    }
    *rest = c.s;
    return ok && !c.failed;
}

/* The parameter slot of one vector of a binding. */
static struct st_arb_param param_of(struct arb_state *ps, const struct bind *b, uint32_t i,
                                    struct st_loc loc)
{
    struct st_arb_param p = {.kind = b->pkind, .array = -1, .loc = loc};
    switch (b->pkind) {
    case ST_ARB_PARAM_ENV:
        p.index = b->first + i;
        p.binding = st_arena_printf(ps->arena, "program.env[%u]", p.index);
        break;
    case ST_ARB_PARAM_LOCAL:
        p.index = b->first + i;
        p.binding = st_arena_printf(ps->arena, "program.local[%u]", p.index);
        break;
    case ST_ARB_PARAM_STATE:
        p.binding = b->matrix ? st_arena_printf(ps->arena, "%s.row[%u]", b->matrix, b->first + i)
                              : b->name;
        st_arb_state_default(p.binding, p.value);
        break;
    case ST_ARB_PARAM_CONST:
        break;
    }
    return p;
}

/* ------------------------------------------------------------------ */
/* Swizzles and write masks.                                           */

/* Lane of a component letter, or -1; *set is 1 for xyzw, 2 for rgba. */
static int comp_lane(char ch, bool fp, int *set)
{
    const char *p = strchr("xyzw", ch);
    if (ch && p) {
        *set = 1;
        return (int)(p - "xyzw");
    }
    p = strchr("rgba", ch);
    if (fp && ch && p) {
        *set = 2;
        return (int)(p - "rgba");
    }
    return -1;
}

/* ".x" .. ".xyzw" (fp also ".rgba"): lanes in order, each once. */
static bool parse_mask(struct arb_state *ps, const struct arb_suffix *s, uint8_t *mask)
{
    int set = 0, last = -1;
    *mask = 0;
    for (uint32_t i = 0; i < s->word.len; i++) {
        int cs, l = comp_lane(s->word.s[i], !ps->vp, &cs);
        if (l < 0 || (set && cs != set) || l <= last || i >= 4) {
            st_error(ps->ctx, s->loc, ST_E_BAD_WRITEMASK,
                     "'.%s' is not a write mask (components in xyzw%s order, each at most once)",
                     s->word.s, ps->vp ? "" : " or rgba");
            return false;
        }
        set = cs;
        last = l;
        *mask |= (uint8_t)(1u << l);
    }
    return true;
}

/* ".x" (replicated) or four components. */
static bool parse_swizzle(struct arb_state *ps, const struct arb_suffix *s, bool scalar,
                          uint8_t *swz, uint8_t *len)
{
    int set = 0;
    uint8_t lanes[4] = {0, 0, 0, 0};
    bool ok = s->word.len == 1 || (!scalar && s->word.len == 4);
    for (uint32_t i = 0; ok && i < s->word.len; i++) {
        int cs, l = comp_lane(s->word.s[i], !ps->vp, &cs);
        if (l < 0 || (set && cs != set))
            ok = false;
        else
            lanes[i] = (uint8_t)l;
        set = cs;
    }
    if (!ok) {
        if (scalar && s->word.len > 1 && s->word.len <= 4)
            st_error(ps->ctx, s->loc, ST_E_SWIZZLE_RULE,
                     "this operand is a scalar: select one component (.x, .y, .z or .w), not '.%s'",
                     s->word.s);
        else
            st_error(ps->ctx, s->loc, ST_E_BAD_SWIZZLE,
                     "'.%s' is not a swizzle (one or four of xyzw%s)", s->word.s,
                     ps->vp ? "" : ", or of rgba");
        return false;
    }
    if (s->word.len == 1) {
        *swz = (uint8_t)ST_SWIZZLE(lanes[0], lanes[0], lanes[0], lanes[0]);
        *len = 1;
    } else {
        *swz = (uint8_t)ST_SWIZZLE(lanes[0], lanes[1], lanes[2], lanes[3]);
        *len = 4;
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* Operands.                                                           */

/* What an operand names, before its swizzle or mask. */
struct resolved {
    enum st_regfile file;
    uint32_t index;
    struct st_reladdr *rel;
    struct st_arb_operand ao;
    struct arb_suffix *rest; /* suffixes left: at most one ".swizzle" */
    bool is_texunit;
    uint32_t unit;
};

static bool resolve_array_index(struct arb_state *ps, const struct arb_opnd *o, int arr,
                                struct arb_suffix *s, struct resolved *r)
{
    struct st_arb_array *a = &ps->arb->arrays[arr];
    r->file = ST_REG_CONST;
    r->ao.array = arr;
    if (!s || s->kind == SUF_DOT) {
        st_error(ps->ctx, o->atom_loc, ST_E_OPERAND_KIND,
                 "'%s' is an array: select an element with [n]", o->word.s);
        return false;
    }
    if (s->kind == SUF_RANGE) {
        st_error(ps->ctx, s->loc, ST_E_REG_INDEX, "a range cannot select an array element");
        return false;
    }
    if (s->kind == SUF_INDEX) {
        if (s->a >= a->count) {
            st_error(ps->ctx, s->loc, ST_E_REG_INDEX,
                     "'%s[%s]' is out of bounds: the array has %u element%s", o->word.s,
                     s->a_text, a->count, a->count == 1 ? "" : "s");
            return false;
        }
        r->ao.offset = (int32_t)s->a;
        r->index = a->first + (uint32_t)s->a;
        r->rest = s->next;
        return true;
    }
    /* SUF_REL: "a[A0.x + n]" — vertex programs only. */
    if (!ps->vp) {
        st_error(ps->ctx, s->loc, ST_E_RELADDR_RULE,
                 "fragment programs have no relative addressing: the index must be a number");
        return false;
    }
    int d = find_decl(ps->arb, s->word.s);
    if (d >= 0 && ps->arb->decls[d].kind == ST_ARB_DECL_ALIAS)
        d = (int)ps->arb->decls[d].index;
    if (d < 0 && is_failed_decl(ps, s->word.s))
        return false;
    if (d < 0 || ps->arb->decls[d].kind != ST_ARB_DECL_ADDRESS) {
        st_error(ps->ctx, s->word.loc, ST_E_BAD_RELADDR,
                 d < 0 ? "'%s' is not declared (expected an ADDRESS register)"
                       : "'%s' is not an ADDRESS register", s->word.s);
        return false;
    }
    if (!s->rel_comp_written || strcmp(s->rel_comp.s, "x") != 0) {
        st_error(ps->ctx, s->rel_comp_written ? s->rel_comp.loc : s->word.loc, ST_E_BAD_RELADDR,
                 "relative addressing uses the x component: write '%s.x'", s->word.s);
        return false;
    }
    if (s->a > ARB_MAX_ADDRESS_OFFSET - 1 || s->a < -ARB_MAX_ADDRESS_OFFSET) {
        st_error(ps->ctx, s->off_loc, ST_E_BAD_RELADDR,
                 "the offset of a relative address must be in +0..%d or -0..%d (got %s%s)",
                 ARB_MAX_ADDRESS_OFFSET - 1, ARB_MAX_ADDRESS_OFFSET, s->a < 0 ? "-" : "", s->a_text);
        return false;
    }
    a->relative = true;
    struct st_reladdr *rel = st_arena_alloc(ps->arena, sizeof(*rel));
    rel->file = ST_REG_ADDR;
    rel->index = ps->arb->decls[d].index;
    rel->component = 0;
    rel->has_component = true;
    r->rel = rel;
    r->ao.offset = (int32_t)s->a;
    r->index = (uint32_t)((int64_t)a->first + s->a);
    r->rest = s->next;
    return true;
}

static bool resolve(struct arb_state *ps, const struct arb_opnd *o, struct resolved *r)
{
    memset(r, 0, sizeof(*r));
    r->ao.array = -1;
    r->rest = o->suf;
    switch (o->kind) {
    case ATOM_WORD: {
        int d = find_decl(ps->arb, o->word.s);
        if (d < 0) {
            if (!is_failed_decl(ps, o->word.s))
                st_error(ps->ctx, o->atom_loc, ST_E_ARB_UNDECLARED, "'%s' is not declared", o->word.s);
            return false;
        }
        r->ao.var = ps->arb->decls[d].name;
        const struct st_arb_decl *decl = &ps->arb->decls[d];
        if (decl->kind == ST_ARB_DECL_ALIAS)
            decl = &ps->arb->decls[decl->index];
        if (decl->kind == ST_ARB_DECL_ARRAY)
            return resolve_array_index(ps, o, (int)decl->index, o->suf, r);
        if (o->suf && o->suf->kind != SUF_DOT) {
            st_error(ps->ctx, o->suf->loc, ST_E_OPERAND_KIND, "'%s' is not a PARAM array",
                     o->word.s);
            return false;
        }
        r->index = decl->index;
        switch (decl->kind) {
        case ST_ARB_DECL_TEMP: r->file = ST_REG_TEMP; break;
        case ST_ARB_DECL_ADDRESS: r->file = ST_REG_ADDR; break;
        case ST_ARB_DECL_ATTRIB: r->file = ST_REG_INPUT; break;
        case ST_ARB_DECL_PARAM: r->file = ST_REG_CONST; break;
        case ST_ARB_DECL_OUTPUT: r->file = ST_REG_OUTPUT; break;
        case ST_ARB_DECL_ARRAY:
        case ST_ARB_DECL_ALIAS: break;
        }
        return true;
    }
    case ATOM_ROOT: {
        struct bind b;
        if (!parse_binding(ps, o, false, &b, &r->rest))
            return false;
        if (r->rest && r->rest->kind != SUF_DOT) {
            st_error(ps->ctx, r->rest->loc, ST_E_OPERAND_KIND, "unexpected '[' after %s",
                     opnd_text(ps, o, r->rest));
            return false;
        }
        switch (b.kind) {
        case BIND_INPUT:
            r->file = ST_REG_INPUT;
            r->index = (uint32_t)add_input(ps, b.name, o->atom_loc);
            break;
        case BIND_OUTPUT:
            r->file = ST_REG_OUTPUT;
            r->index = (uint32_t)add_output(ps, b.name, o->atom_loc);
            break;
        case BIND_PARAM: {
            struct st_arb_param p = param_of(ps, &b, 0, o->atom_loc);
            r->file = ST_REG_CONST;
            r->index = (uint32_t)implicit_param(ps, &p);
            break;
        }
        case BIND_TEXUNIT:
            r->is_texunit = true;
            r->unit = b.unit;
            break;
        }
        return true;
    }
    case ATOM_NUMBER:
    case ATOM_VECTOR: {
        struct st_arb_param p = {.kind = ST_ARB_PARAM_CONST, .array = -1, .loc = o->atom_loc};
        if (o->kind == ATOM_NUMBER) {
            for (int i = 0; i < 4; i++)
                p.value[i] = o->vec[0];
        } else {
            p.value[0] = o->vec[0];
            p.value[1] = o->nvec > 1 ? o->vec[1] : 0.0f;
            p.value[2] = o->nvec > 2 ? o->vec[2] : 0.0f;
            p.value[3] = o->nvec > 3 ? o->vec[3] : 1.0f;
        }
        if (o->suf && o->suf->kind != SUF_DOT) {
            st_error(ps->ctx, o->suf->loc, ST_E_OPERAND_KIND, "a constant cannot be indexed");
            return false;
        }
        r->file = ST_REG_CONST;
        r->index = (uint32_t)implicit_param(ps, &p);
        return true;
    }
    }
    return false;
}

/* The single ".suffix" an operand may end with; false (reported) when
 * there is more. */
static bool one_suffix(struct arb_state *ps, const struct arb_opnd *o, struct arb_suffix *rest,
                       struct arb_suffix **out)
{
    *out = rest;
    if (rest && rest->next) {
        /* ".x.y" is a syntax error; "[n]" after a complete operand indexes
         * something that is no array, as resolve() reports it. */
        bool dot = rest->next->kind == SUF_DOT;
        st_error(ps->ctx, rest->next->loc, dot ? ST_E_SYNTAX : ST_E_OPERAND_KIND,
                 "unexpected '%s' after %s", dot ? "." : "[", opnd_text(ps, o, rest->next));
        return false;
    }
    if (rest && rest->kind != SUF_DOT) {
        st_error(ps->ctx, rest->loc, ST_E_OPERAND_KIND, "unexpected '[' after %s",
                 opnd_text(ps, o, rest));
        return false;
    }
    return true;
}

static bool src_operand(struct arb_state *ps, const struct arb_opnd *o, char kind,
                        struct st_src *src, struct st_arb_operand *ao)
{
    struct resolved r;
    if (!resolve(ps, o, &r))
        return false;
    if (r.is_texunit) {
        st_error(ps->ctx, o->atom_loc, ST_E_OPERAND_KIND, "a texture unit is not a source register");
        return false;
    }
    if (r.file == ST_REG_OUTPUT || r.file == ST_REG_ADDR) {
        st_error(ps->ctx, o->atom_loc, ST_E_SRC_REG, "%s cannot be read: %s",
                 opnd_text(ps, o, r.rest),
                 r.file == ST_REG_OUTPUT ? "results are write-only"
                                         : "address registers are only used inside [ ]");
        return false;
    }
    struct arb_suffix *s;
    if (!one_suffix(ps, o, r.rest, &s))
        return false;
    memset(src, 0, sizeof(*src));
    src->reg.file = r.file;
    src->reg.index = r.index;
    src->reg.rel = r.rel;
    src->reg.loc = o->atom_loc;
    src->loc = o->loc;
    src->swizzle = ST_SWIZZLE_IDENTITY;
    src->mod = o->sign < 0 ? ST_SRCMOD_NEG : ST_SRCMOD_NONE;
    if (kind == 'R') {
        if (o->sign || s) {
            st_error(ps->ctx, o->sign ? o->loc : s->loc, ST_E_SWIZZLE_RULE,
                     "the source of SWZ takes no sign or suffix: the extended swizzle does both");
            return false;
        }
    } else if (s) {
        if (!parse_swizzle(ps, s, kind == 'S', &src->swizzle, &src->swizzle_len))
            return false;
    } else if (kind == 'S') {
        st_error(ps->ctx, o->loc, ST_E_SWIZZLE_RULE,
                 "this operand is a scalar: select one component (.x, .y, .z or .w)");
        return false;
    }
    *ao = r.ao;
    return true;
}

static bool dst_operand(struct arb_state *ps, const struct arb_opnd *o, char kind,
                        struct st_dst *dst, struct st_arb_operand *ao)
{
    if (o->sign) {
        st_error(ps->ctx, o->loc, ST_E_SYNTAX, "a destination takes no sign");
        return false;
    }
    struct resolved r;
    if (!resolve(ps, o, &r))
        return false;
    if (kind == 'A') {
        if (r.file != ST_REG_ADDR || r.is_texunit) {
            st_error(ps->ctx, o->atom_loc, ST_E_DST_REG, "ARL writes an ADDRESS register, not %s",
                     opnd_text(ps, o, r.rest));
            return false;
        }
    } else if (r.is_texunit || (r.file != ST_REG_TEMP && r.file != ST_REG_OUTPUT)) {
        st_error(ps->ctx, o->atom_loc, ST_E_DST_REG, "%s cannot be written: %s",
                 opnd_text(ps, o, r.rest),
                 r.file == ST_REG_ADDR ? "only ARL writes address registers"
                                       : "the destination must be a TEMP or a result");
        return false;
    }
    struct arb_suffix *s;
    if (!one_suffix(ps, o, r.rest, &s))
        return false;
    memset(dst, 0, sizeof(*dst));
    dst->reg.file = r.file;
    dst->reg.index = r.index;
    dst->reg.loc = o->atom_loc;
    dst->loc = o->loc;
    dst->writemask = 0xf;
    if (s && !parse_mask(ps, s, &dst->writemask))
        return false;
    if (kind == 'A' && (!s || dst->writemask != 0x1)) {
        st_error(ps->ctx, s ? s->loc : o->atom_loc, ST_E_BAD_WRITEMASK,
                 "an address register is written through '.x' only: write '%s.x'",
                 opnd_text(ps, o, s));
        return false;
    }
    *ao = r.ao;
    return true;
}

/* SWZ: four of 0, 1, x, y, z, w (fp: or r, g, b, a), each with a sign. */
static bool ext_swizzle(struct arb_state *ps, struct arb_opnd *o, unsigned i,
                        struct st_arb_instr *ai, int *set)
{
    int sel = -1, cs = 0;
    if (!o->suf) {
        if (o->kind == ATOM_NUMBER && o->word.len == 1 && (o->word.s[0] == '0' || o->word.s[0] == '1'))
            sel = o->word.s[0] == '0' ? ST_ARB_SWZ_ZERO : ST_ARB_SWZ_ONE;
        else if (o->kind == ATOM_WORD && o->word.len == 1)
            sel = comp_lane(o->word.s[0], !ps->vp, &cs);
    }
    if (sel < 0) {
        st_error(ps->ctx, o->loc, ST_E_BAD_SWIZZLE,
                 "'%s' is not an extended swizzle selector (0, 1, x, y, z, w%s)",
                 opnd_text(ps, o, NULL), ps->vp ? "" : ", or r, g, b, a");
        return false;
    }
    if (cs && *set && cs != *set) {
        st_error(ps->ctx, o->loc, ST_E_BAD_SWIZZLE,
                 "an extended swizzle uses either xyzw or rgba selectors, not both");
        return false;
    }
    if (cs)
        *set = cs;
    ai->swz_sel[i] = (uint8_t)sel;
    if (o->sign < 0)
        ai->swz_neg |= (uint8_t)(1u << i);
    return true;
}

static const char *const target_names[] = {"1D", "2D", "3D", "CUBE", "RECT",
                                           "SHADOW1D", "SHADOW2D", "SHADOWRECT"};

static bool tex_target(struct arb_state *ps, const struct arb_opnd *o, struct st_arb_instr *ai)
{
    if (o->kind == ATOM_WORD && !o->suf && !o->sign) {
        for (int t = 0; t < 8; t++)
            if (strcmp(o->word.s, target_names[t]) == 0) {
                if (t >= ST_ARB_TEX_SHADOW1D && !(ps->arb->options & ST_ARB_OPT_SHADOW)) {
                    st_error(ps->ctx, o->loc, ST_E_OPERAND_KIND,
                             "texture target %s needs OPTION ARB_fragment_program_shadow", o->word.s);
                    return false;
                }
                ai->tex_target = (enum st_arb_tex_target)t;
                return true;
            }
    }
    st_error(ps->ctx, o->loc, ST_E_OPERAND_KIND,
             "'%s' is not a texture target (1D, 2D, 3D, CUBE, RECT%s)", opnd_text(ps, o, NULL),
             (ps->arb->options & ST_ARB_OPT_SHADOW) ? ", SHADOW1D, SHADOW2D, SHADOWRECT" : "");
    return false;
}

static bool tex_unit(struct arb_state *ps, const struct arb_opnd *o, struct st_src *src,
                     struct st_arb_instr *ai)
{
    struct resolved r;
    if (o->kind != ATOM_ROOT || strcmp(o->word.s, "texture") != 0 || o->sign) {
        st_error(ps->ctx, o->loc, ST_E_OPERAND_KIND,
                 "expected a texture image unit (texture or texture[n]), not '%s'",
                 opnd_text(ps, o, NULL));
        return false;
    }
    if (!resolve(ps, o, &r))
        return false;
    if (r.rest) {
        st_error(ps->ctx, r.rest->loc, ST_E_OPERAND_KIND, "a texture unit takes no suffix");
        return false;
    }
    memset(src, 0, sizeof(*src));
    src->reg.file = ST_REG_SAMPLER;
    src->reg.index = r.unit;
    src->reg.loc = o->atom_loc;
    src->loc = o->loc;
    src->swizzle = ST_SWIZZLE_IDENTITY;
    ai->tex_unit = r.unit;
    return true;
}

/* ------------------------------------------------------------------ */
/* Statements.                                                         */

void arb_option(struct arb_state *ps, const struct arb_tok *name)
{
    static const struct {
        const char *name;
        uint32_t bit;
        bool vp;
    } known[] = {
        {"ARB_position_invariant", ST_ARB_OPT_POSITION_INVARIANT, true},
        {"ARB_fog_exp", ST_ARB_OPT_FOG_EXP, false},
        {"ARB_fog_exp2", ST_ARB_OPT_FOG_EXP2, false},
        {"ARB_fog_linear", ST_ARB_OPT_FOG_LINEAR, false},
        {"ARB_precision_hint_fastest", ST_ARB_OPT_PRECISION_FASTEST, false},
        {"ARB_precision_hint_nicest", ST_ARB_OPT_PRECISION_NICEST, false},
        {"ARB_draw_buffers", ST_ARB_OPT_DRAW_BUFFERS, false},
        {"ARB_fragment_program_shadow", ST_ARB_OPT_SHADOW, false},
        {"ARB_fragment_coord_origin_upper_left", ST_ARB_OPT_ORIGIN_UPPER_LEFT, false},
        {"ARB_fragment_coord_pixel_center_integer", ST_ARB_OPT_PIXEL_CENTER_INTEGER, false},
    };
    for (unsigned i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        if (strcmp(name->s, known[i].name) != 0)
            continue;
        if (known[i].vp != ps->vp) {
            st_error(ps->ctx, name->loc, ST_E_ARB_OPTION, "OPTION %s is a %s program option",
                     name->s, known[i].vp ? "vertex" : "fragment");
            return;
        }
        if (!(ps->arb->options & known[i].bit)) {
            ps->arb->options |= known[i].bit;
            unsigned bit = 0;
            while ((1u << bit) != known[i].bit)
                bit++;
            ps->arb->option_loc[bit] = name->loc;
        }
        return;
    }
    /* An extension prefix ("NV_", "ATI_", "MESA_") other than ARB_ names an
     * option of a vendor's extension: valid for drivers that have it, so
     * "not supported" rather than an error of the program.  Anything else
     * (an ARB_ name no ARB extension defines, a name without a prefix) is
     * an unknown option, which the specifications make an error. */
    size_t pre = 0;
    while (pre < name->len && name->s[pre] >= 'A' && name->s[pre] <= 'Z')
        pre++;
    bool vendor = pre >= 2 && pre < name->len && name->s[pre] == '_' &&
                  !(pre == 3 && strncmp(name->s, "ARB", 3) == 0);
    if (vendor)
        st_error(ps->ctx, name->loc, ST_E_NOT_SUPPORTED,
                 "OPTION %s is not supported: shadertrans implements the ARB options only", name->s);
    else
        st_error(ps->ctx, name->loc, ST_E_ARB_OPTION, "unknown program option %s", name->s);
}

static const struct st_arb_opinfo *lookup_op(const char *s, size_t len)
{
    for (unsigned i = 0; i < st_arb_num_opinfo; i++)
        if (strlen(st_arb_opinfo[i].name) == len && memcmp(st_arb_opinfo[i].name, s, len) == 0)
            return &st_arb_opinfo[i];
    return NULL;
}

void arb_instruction(struct arb_state *ps, const struct arb_tok *op, bool known,
                     struct arb_list *ops)
{
    const struct st_arb_opinfo *info;
    bool sat = false;
    if (known) {
        info = &st_arb_opinfo[op->op & 0xff];
        sat = (op->op & 0x100) != 0;
    } else {
        /* A word where an instruction goes: name the reason precisely. */
        size_t len = op->len;
        bool sat_written = len > 4 && strcmp(op->s + len - 4, "_SAT") == 0;
        info = lookup_op(op->s, sat_written ? len - 4 : len);
        bool avail = info && (ps->vp ? info->vp : info->fp);
        if (avail && sat_written) {
            st_error(ps->ctx, op->loc, ST_E_BAD_MODIFIER,
                     ps->vp ? "_SAT is only available in fragment programs"
                            : "%.*s has no _SAT form", (int)(len - 4), op->s);
        } else if (info) {
            st_error(ps->ctx, op->loc, ST_E_OPCODE_VERSION, "%.*s is not an %s instruction",
                     (int)(sat_written ? len - 4 : len), op->s,
                     ps->vp ? "ARB_vertex_program" : "ARB_fragment_program");
        } else if (!ps->vp && strcmp(op->s, "ADDRESS") == 0) {
            /* not reserved in fragment programs, so it arrives here */
            st_error(ps->ctx, op->loc, ST_E_OPCODE_VERSION,
                     "ADDRESS registers exist only in vertex programs");
        } else {
            /* D3D9 habit: "mov".  Mnemonics are case-sensitive upper case. */
            char up[16];
            size_t n = 0;
            for (; n < op->len && n < sizeof(up) - 1; n++)
                up[n] = (char)(op->s[n] >= 'a' && op->s[n] <= 'z' ? op->s[n] - 'a' + 'A' : op->s[n]);
            up[n] = '\0';
            const struct st_arb_opinfo *u = n == op->len ? lookup_op(up, n) : NULL;
            if (u && (ps->vp ? u->vp : u->fp))
                st_error(ps->ctx, op->loc, ST_E_UNKNOWN_OPCODE,
                         "unknown instruction '%s' (ARB instruction names are upper case: %s)",
                         op->s, u->name);
            else
                st_error(ps->ctx, op->loc, ST_E_UNKNOWN_OPCODE, "unknown instruction '%s'", op->s);
        }
        return;
    }

    unsigned want = 0;
    for (const char *k = info->operands; *k; k++)
        want += *k == 'X' ? 4 : 1;
    if (ops->n != want) {
        st_error(ps->ctx, op->loc, ST_E_OPERAND_COUNT, "%s takes %u operand%s, not %u", info->name,
                 want, want == 1 ? "" : "s", ops->n);
        return;
    }

    struct st_instr *in = st_arena_alloc(ps->arena, sizeof(*in));
    struct st_arb_instr *ai = st_arena_alloc(ps->arena, sizeof(*ai));
    if (!in || !ai) /* out of memory: the arena reported it */
        return;
    in->op = info->op;
    in->loc = op->loc;
    in->arb = ai;
    in->dstmod = sat ? ST_DSTMOD_SAT : 0;
    in->mod_loc = op->loc;
    ai->dst.array = -1;
    for (int i = 0; i < 3; i++)
        ai->src[i].array = -1;

    /* Every operand is resolved even after an error, so one pass reports
     * every mistake of the line. */
    bool ok = true;
    int set = 0;
    unsigned swz_i = 0;
    struct arb_opnd *o = ops->first;
    for (const char *k = info->operands; *k; k++) {
        switch (*k) {
        case 'D':
        case 'A':
            in->has_dst = true;
            ok &= dst_operand(ps, o, *k, &in->dst, &ai->dst);
            o = o->next;
            break;
        case 'V':
        case 'S':
        case 'R':
            ok &= src_operand(ps, o, *k, &in->src[in->nsrc], &ai->src[in->nsrc]);
            in->nsrc++;
            o = o->next;
            break;
        case 'X':
            for (int j = 0; j < 4; j++, o = o->next)
                ok &= ext_swizzle(ps, o, swz_i++, ai, &set);
            break;
        case 'U':
            ok &= tex_unit(ps, o, &in->src[in->nsrc], ai);
            in->nsrc++;
            o = o->next;
            break;
        case 'T':
            ok &= tex_target(ps, o, ai);
            o = o->next;
            break;
        }
    }
    if (!ok)
        return;
    struct st_shader *sh = ps->sh;
    if (sh->last)
        sh->last->next = in;
    else
        sh->first = in;
    sh->last = in;
    sh->num_instrs++;
}

void arb_decl_names(struct arb_state *ps, bool address, struct arb_list *names)
{
    struct st_arb_program *a = ps->arb;
    for (struct arb_opnd *o = names->first; o; o = o->next) {
        if (!fresh_name(ps, &o->word))
            continue;
        if (address) {
            if (!PUSH(ps, a->addrs, a->num_addrs, cap_addrs))
                return;
            a->addrs[a->num_addrs] = o->word.s;
            add_decl(ps, ST_ARB_DECL_ADDRESS, &o->word, a->num_addrs++);
        } else {
            if (!PUSH(ps, a->temps, a->num_temps, cap_temps))
                return;
            a->temps[a->num_temps] = o->word.s;
            add_decl(ps, ST_ARB_DECL_TEMP, &o->word, a->num_temps++);
        }
    }
}

void arb_decl_binding(struct arb_state *ps, bool output, const struct arb_tok *name,
                      struct arb_opnd *b)
{
    const char *want = output ? "result" : ps->vp ? "vertex" : "fragment";
    if (b->kind != ATOM_ROOT || strcmp(b->word.s, want) != 0 || b->sign) {
        st_error(ps->ctx, b->loc, ST_E_OPERAND_KIND, "%s needs a %s.* binding, not '%s'",
                 output ? "OUTPUT" : "ATTRIB", want, opnd_text(ps, b, NULL));
        failed_decl(ps, name);
        return;
    }
    struct resolved r;
    if (!resolve(ps, b, &r)) {
        failed_decl(ps, name);
        return;
    }
    if (r.rest) {
        st_error(ps->ctx, r.rest->loc, ST_E_OPERAND_KIND, "a binding in a declaration takes no suffix");
        failed_decl(ps, name);
        return;
    }
    if (fresh_name(ps, name))
        add_decl(ps, output ? ST_ARB_DECL_OUTPUT : ST_ARB_DECL_ATTRIB, name, r.index);
}

void arb_decl_alias(struct arb_state *ps, const struct arb_tok *name, const struct arb_tok *target)
{
    int d = find_decl(ps->arb, target->s);
    if (d < 0) {
        if (!is_failed_decl(ps, target->s))
            st_error(ps->ctx, target->loc, ST_E_ARB_UNDECLARED, "'%s' is not declared", target->s);
        failed_decl(ps, name);
        return;
    }
    if (ps->arb->decls[d].kind == ST_ARB_DECL_ALIAS)
        d = (int)ps->arb->decls[d].index;
    if (fresh_name(ps, name))
        add_decl(ps, ST_ARB_DECL_ALIAS, name, (uint32_t)d);
}

/* Appends the slots of one PARAM initializer item; returns how many, or -1
 * after an error.  `array` is the array the slots belong to (-1: single). */
static int param_item(struct arb_state *ps, struct arb_opnd *o, bool multi, int array)
{
    struct st_arb_param p = {.kind = ST_ARB_PARAM_CONST, .array = array, .loc = o->loc};
    switch (o->kind) {
    case ATOM_NUMBER:
        if (o->suf) {
            st_error(ps->ctx, o->suf->loc, ST_E_OPERAND_KIND, "a binding in a declaration takes no suffix");
            return -1;
        }
        for (int i = 0; i < 4; i++)
            p.value[i] = o->sign < 0 ? -o->vec[0] : o->vec[0];
        add_param(ps, &p);
        return 1;
    case ATOM_VECTOR:
        if (o->sign) {
            /* the grammar signs the components: {-1, -2} */
            st_error(ps->ctx, o->loc, ST_E_OPERAND_KIND,
                     "a constant vector in a declaration takes no sign: sign its components");
            return -1;
        }
        if (o->suf) {
            st_error(ps->ctx, o->suf->loc, ST_E_OPERAND_KIND, "a binding in a declaration takes no suffix");
            return -1;
        }
        p.value[0] = o->vec[0];
        p.value[1] = o->nvec > 1 ? o->vec[1] : 0.0f;
        p.value[2] = o->nvec > 2 ? o->vec[2] : 0.0f;
        p.value[3] = o->nvec > 3 ? o->vec[3] : 1.0f;
        add_param(ps, &p);
        return 1;
    case ATOM_ROOT: {
        if (strcmp(o->word.s, "state") != 0 && strcmp(o->word.s, "program") != 0)
            break;
        if (o->sign) {
            st_error(ps->ctx, o->loc, ST_E_OPERAND_KIND, "a binding in a declaration takes no sign");
            return -1;
        }
        struct bind b;
        struct arb_suffix *rest;
        if (!parse_binding(ps, o, multi, &b, &rest))
            return -1;
        if (rest) {
            if (rest->kind == SUF_DOT)
                st_error(ps->ctx, rest->loc, ST_E_OPERAND_KIND,
                         "a binding in a declaration takes no suffix");
            else
                st_error(ps->ctx, rest->loc, ST_E_OPERAND_KIND, "unexpected '[' after %s",
                         opnd_text(ps, o, rest));
            return -1;
        }
        for (uint32_t i = 0; i < b.count; i++) {
            struct st_arb_param q = param_of(ps, &b, i, o->loc);
            q.array = array;
            add_param(ps, &q);
        }
        return (int)b.count;
    }
    case ATOM_WORD:
        break;
    }
    st_error(ps->ctx, o->loc, ST_E_OPERAND_KIND,
             "'%s' cannot initialize a PARAM (expected a constant, state.* or program.* binding)",
             opnd_text(ps, o, NULL));
    return -1;
}

void arb_decl_param(struct arb_state *ps, const struct arb_tok *name, struct arb_opnd *init)
{
    if (!fresh_name(ps, name))
        return;
    unsigned slot = ps->arb->num_params;
    int n = param_item(ps, init, false, -1);
    if (n == 1)
        add_decl(ps, ST_ARB_DECL_PARAM, name, slot);
    else
        failed_decl(ps, name);
}

void arb_decl_array(struct arb_state *ps, const struct arb_tok *name,
                    const struct arb_tok *size_tok, struct st_loc size_loc, struct arb_list *items)
{
    bool size_written = size_tok != NULL;
    int64_t size = size_tok ? tok_int(size_tok) : 0;
    struct st_arb_program *a = ps->arb;
    if (!fresh_name(ps, name))
        return;
    if (size_written && size < 1) {
        st_error(ps->ctx, size_loc, ST_E_REG_INDEX, "an array has at least one element");
        failed_decl(ps, name);
        return;
    }
    if (!PUSH(ps, a->arrays, a->num_arrays, cap_arrays))
        return;
    int arr = (int)a->num_arrays;
    struct st_arb_array *ar = &a->arrays[arr];
    memset(ar, 0, sizeof(*ar));
    ar->name = name->s;
    ar->first = a->num_params;
    ar->size_written = size_written;
    ar->loc = name->loc;
    a->num_arrays++;
    bool ok = true;
    for (struct arb_opnd *o = items->first; o; o = o->next) {
        int n = param_item(ps, o, true, arr);
        if (n < 0)
            ok = false;
    }
    ar = &a->arrays[arr];
    ar->count = a->num_params - ar->first;
    if (!ok) {
        failed_decl(ps, name);
        return;
    }
    if (size_written && (uint64_t)size != ar->count) {
        st_error(ps->ctx, size_loc, ST_E_DCL_RULE,
                 "'%s' is declared with %s element%s but initialized with %u", name->s,
                 size_tok->s, size == 1 ? "" : "s", ar->count);
        failed_decl(ps, name);
        return;
    }
    add_decl(ps, ST_ARB_DECL_ARRAY, name, (uint32_t)arr);
}
