/*
 * parser.y — Direct3D 9 shader assembly -> st_shader (translator.h).
 *
 * One statement per line.  The grammar recognises the shape of a line: a
 * version, or [+][(pred)] word operand, operand, ...  An operand is a
 * register (with "-", "1 -", "!", "[...]", "_mod" and ".swizzle" around
 * it) or a number.  Which opcode a word names, what a register word means
 * and whether an operand is a destination depends on the opcode and the
 * version, so the actions collect the raw tokens and build_instr() (below)
 * decodes them with located diagnostics.  A line with an error is reported
 * and dropped; parsing resumes at the next line ("error NEWLINE"), so one
 * run reports every error of a file up to the context's limit.
 */
%define api.pure full
%define api.prefix {d3d9yy}
%define parse.error custom
%define parse.lac full
%locations
%parse-param {struct parse_state *ps}
%lex-param {struct parse_state *ps}

%code requires {
#include "parse_priv.h"
}

%code provides {
int d3d9yylex(D3D9YYSTYPE *lval, D3D9YYLTYPE *lloc, void *scanner);
}

%code {
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The scanner handle lives in the parse state. */
#undef yylex
#define yylex(lval, lloc, p) d3d9yylex(lval, lloc, (p)->scanner)

static void yyerror(const D3D9YYLTYPE *loc, struct parse_state *ps, const char *msg);
static struct st_loc yloc(const D3D9YYLTYPE *l);
static bool end_of_line(struct parse_state *ps);
static void do_version(struct parse_state *ps, const struct p_tok *t);
static void build_instr(struct parse_state *ps, const struct p_prefix *pre,
                        const struct p_tok *word, const struct p_tok *lead_comma,
                        const struct p_list *ops);
static struct p_operand *new_operand(struct parse_state *ps, enum p_opkind kind,
                                     struct st_loc loc);
static struct p_rel *rel_num(struct parse_state *ps, const struct p_tok *t, bool is_float);
static struct p_rel *rel_reg(struct parse_state *ps, const struct p_tok *t, const struct p_tok *swz);
static struct p_rel *rel_bin(struct parse_state *ps, int op, struct p_rel *a, struct p_rel *b,
                             struct st_loc op_loc);
static struct p_rel *rel_neg(struct parse_state *ps, struct p_rel *a, struct st_loc op_loc);
static void trailing_plus(struct parse_state *ps, const struct p_tok *plus);
}

%union {
    struct p_tok tok;
    struct p_operand *op;
    struct p_list list;
    struct p_rel *rel;
    struct p_prefix prefix;
}

%token <tok> IDENT "name" SUFFIX "modifier" SWIZZLE "swizzle" INTEGER "integer"
%token <tok> FLOAT "number" VERSION "version"
%token NEWLINE "end of line"
%token ',' "','" '+' "'+'" '-' "'-'" '(' "'('" ')' "')'" '[' "'['" ']' "']'"
%token '!' "'!'" '=' "'='" '.' "'.'"
%token '*' "'*'" '/' "'/'" '%' "'%'"

/* Index expressions inside "[...]" only. */
%left '+' '-'
%left '*' '/' '%'
%precedence UMINUS

%type <prefix> prefix pred
%type <tok> lead_comma swz_opt suffix_opt trail
%type <list> operands oplist
%type <op> operand src_reg
%type <rel> iexpr

%%

input:
    %empty
  | input line
  ;

line:
    NEWLINE                 { if (end_of_line(ps)) YYACCEPT; }
  | statement NEWLINE       { if (end_of_line(ps)) YYACCEPT; }
  | error NEWLINE           { yyerrok; ps->coissue_next = false; if (end_of_line(ps)) YYACCEPT; }
  ;

statement:
    VERSION                 { do_version(ps, &$1); }
  | prefix IDENT lead_comma operands trail
                            { build_instr(ps, &$1, &$2, &$3, &$4); trailing_plus(ps, &$5); }
  ;

/* "mul r0.rgb, r1, t1 +": the next instruction is co-issued (Direct3D 8). */
trail:
    %empty                  { memset(&$$, 0, sizeof($$)); }
  | '+'                     { $$.s = "+"; $$.len = 1; $$.loc = yloc(&@1); }
  ;

prefix:
    %empty                  { memset(&$$, 0, sizeof($$)); }
  | '+'                     { memset(&$$, 0, sizeof($$)); $$.coissue = true; $$.loc = yloc(&@1); }
  | pred                    { $$ = $1; $$.loc = yloc(&@1); }
  | '+' pred                { $$ = $2; $$.coissue = true; $$.loc = yloc(&@1); }
  ;

pred:
    '(' IDENT swz_opt ')'
        {
            memset(&$$, 0, sizeof($$));
            $$.pred = true;
            $$.pred_reg = $2;
            $$.pred_has_swz = $3.s != NULL;
            $$.pred_swz = $3;
            $$.pred_loc = yloc(&@2);
        }
  | '(' '!' IDENT swz_opt ')'
        {
            memset(&$$, 0, sizeof($$));
            $$.pred = true;
            $$.pred_not = true;
            $$.pred_reg = $3;
            $$.pred_has_swz = $4.s != NULL;
            $$.pred_swz = $4;
            $$.pred_loc = yloc(&@2);
        }
  ;

lead_comma:
    %empty                  { memset(&$$, 0, sizeof($$)); }
  | ','                     { $$.s = ","; $$.len = 1; $$.loc = yloc(&@1); }
  ;

operands:
    %empty                  { memset(&$$, 0, sizeof($$)); }
  | oplist                  { $$ = $1; }
  ;

oplist:
    operand                 { $$.first = $$.last = $1; $$.n = 1; }
  | oplist ',' operand
        {
            $$ = $1;
            $3->sep = ',';
            $3->sep_loc = yloc(&@2);
            $$.last->next = $3;
            $$.last = $3;
            $$.n++;
        }
  | oplist '=' operand
        {
            $$ = $1;
            $3->sep = '=';
            $3->sep_loc = yloc(&@2);
            $$.last->next = $3;
            $$.last = $3;
            $$.n++;
        }
  ;

operand:
    src_reg                 { $$ = $1; }
  | '-' src_reg             { $$ = $2; $$->neg = true; $$->loc = yloc(&@1); }
  | INTEGER '-' src_reg
        {
            $$ = $3;
            $$->comp = true;
            $$->comp_num = $1;
            $$->loc = yloc(&@1);
        }
  | '!' src_reg             { $$ = $2; $$->not_ = true; $$->loc = yloc(&@1); }
  | INTEGER                 { $$ = new_operand(ps, P_NUM, yloc(&@1)); $$->num = $1; }
  | FLOAT
        {
            $$ = new_operand(ps, P_NUM, yloc(&@1));
            $$->num = $1;
            $$->num_is_float = true;
        }
  | '-' INTEGER
        {
            $$ = new_operand(ps, P_NUM, yloc(&@1));
            $$->num = $2;
            $$->neg = true;
        }
  | '-' FLOAT
        {
            $$ = new_operand(ps, P_NUM, yloc(&@1));
            $$->num = $2;
            $$->num_is_float = true;
            $$->neg = true;
        }
  ;

src_reg:
    IDENT swz_opt
        {
            $$ = new_operand(ps, P_REG, yloc(&@1));
            $$->reg = $1;
            $$->has_swz = $2.s != NULL;
            $$->swz = $2;
        }
  | IDENT '[' iexpr ']' suffix_opt swz_opt
        {
            $$ = new_operand(ps, P_REG, yloc(&@1));
            $$->reg = $1;
            $$->rel = $3;
            $$->rel->loc = yloc(&@2);
            $$->has_suffix = $5.s != NULL;
            $$->suffix = $5;
            $$->has_swz = $6.s != NULL;
            $$->swz = $6;
        }
  ;

iexpr:
    INTEGER                 { $$ = rel_num(ps, &$1, false); }
  | FLOAT                   { $$ = rel_num(ps, &$1, true); }
  | IDENT swz_opt           { $$ = rel_reg(ps, &$1, &$2); }
  | '(' iexpr ')'           { $$ = $2; }
  | '-' iexpr %prec UMINUS  { $$ = rel_neg(ps, $2, yloc(&@1)); }
  | '+' iexpr %prec UMINUS  { $$ = $2; }
  | iexpr '+' iexpr         { $$ = rel_bin(ps, '+', $1, $3, yloc(&@2)); }
  | iexpr '-' iexpr         { $$ = rel_bin(ps, '-', $1, $3, yloc(&@2)); }
  | iexpr '*' iexpr         { $$ = rel_bin(ps, '*', $1, $3, yloc(&@2)); }
  | iexpr '/' iexpr         { $$ = rel_bin(ps, '/', $1, $3, yloc(&@2)); }
  | iexpr '%' iexpr         { $$ = rel_bin(ps, '%', $1, $3, yloc(&@2)); }
  ;

suffix_opt:
    %empty                  { memset(&$$, 0, sizeof($$)); }
  | SUFFIX                  { $$ = $1; }
  ;

swz_opt:
    %empty                  { memset(&$$, 0, sizeof($$)); }
  | SWIZZLE                 { $$ = $1; }
  ;

%%

/* ------------------------------------------------------------------ */
/* Diagnostics of the grammar itself.                                  */

static struct st_loc yloc(const D3D9YYLTYPE *l)
{
    struct st_loc loc = {(uint32_t)l->first_line, (uint32_t)l->first_column};
    return loc;
}

static void yyerror(const D3D9YYLTYPE *loc, struct parse_state *ps, const char *msg)
{
    /* Only reached for bison's own failures ("memory exhausted"): syntax
     * errors go through yyreport_syntax_error. */
    st_error(ps->ctx, yloc(loc), ST_E_OUT_OF_MEMORY, "%s", msg);
}

/* What the user calls each token in "expected ..." lists. */
static const char *token_desc(yysymbol_kind_t k)
{
    switch (k) {
    case YYSYMBOL_IDENT: return "a name";
    case YYSYMBOL_SUFFIX: return "a '_' modifier";
    case YYSYMBOL_SWIZZLE: return "a swizzle";
    case YYSYMBOL_INTEGER: return "an integer";
    case YYSYMBOL_FLOAT: return "a number";
    case YYSYMBOL_VERSION: return "a version";
    case YYSYMBOL_NEWLINE: return "end of line";
    case YYSYMBOL_YYEOF: return "end of input";
    default: return yysymbol_name(k);
    }
}

static int yyreport_syntax_error(const yypcontext_t *yyctx, struct parse_state *ps)
{
    enum { MAX_EXPECTED = 8 };
    yysymbol_kind_t expected[MAX_EXPECTED];
    int n = yypcontext_expected_tokens(yyctx, expected, MAX_EXPECTED);
    yysymbol_kind_t la = yypcontext_token(yyctx);
    const D3D9YYLTYPE *loc = yypcontext_location(yyctx);

    char what[96];
    switch (la) {
    case YYSYMBOL_NEWLINE:
    case YYSYMBOL_YYEOF:
        snprintf(what, sizeof(what), "%s", token_desc(la));
        break;
    case YYSYMBOL_IDENT:
    case YYSYMBOL_SUFFIX:
    case YYSYMBOL_SWIZZLE:
    case YYSYMBOL_INTEGER:
    case YYSYMBOL_FLOAT:
    case YYSYMBOL_VERSION:
        snprintf(what, sizeof(what), "%s '%s'", token_desc(la) + (token_desc(la)[1] == ' ' ? 2 : 3),
                 ps->last_text);
        break;
    default:
        snprintf(what, sizeof(what), "'%s'", ps->last_text);
        break;
    }

    char exp[256] = "";
    if (n > 0) {
        size_t off = 0;
        for (int i = 0; i < n && off < sizeof(exp); i++) {
            const char *sep = i == 0 ? ", expected " : i == n - 1 ? " or " : ", ";
            int w = snprintf(exp + off, sizeof(exp) - off, "%s%s", sep, token_desc(expected[i]));
            if (w < 0)
                break;
            off += (size_t)w;
        }
    }
    st_error(ps->ctx, yloc(loc), ST_E_SYNTAX, "unexpected %s%s", what, exp);
    return 0;
}

/* Called after every line.  Returns true when parsing should stop: at the
 * first error reported after the context's limit was reached (the context
 * turns that one into the "too many errors" notice). */
static bool end_of_line(struct parse_state *ps)
{
    st_arena_reset(ps->tmp);
    /* The compile budget and the caller's cancel callback, once a line;
     * the lexer has moved on to the next line already. */
    if (!st_poll_at(ps->ctx, (struct st_loc){ps->line > 1 ? ps->line - 1 : 1, 1}, 1))
        return true;
    if (!st_error_limit_reached(ps->ctx))
        return false;
    if (!ps->limit_seen) {
        ps->limit_seen = true;
        ps->limit_count = st_error_count(ps->ctx);
        return false;
    }
    return st_error_count(ps->ctx) > ps->limit_count;
}

/* ------------------------------------------------------------------ */
/* Small helpers.                                                      */

static struct p_operand *new_operand(struct parse_state *ps, enum p_opkind kind,
                                     struct st_loc loc)
{
    struct p_operand *op = st_arena_alloc(ps->tmp, sizeof(*op));
    op->kind = kind;
    op->loc = loc;
    return op;
}

static struct st_loc loc_plus(struct st_loc loc, size_t cols)
{
    loc.column += (uint32_t)cols;
    return loc;
}

/* Decimal digits -> uint64; false on overflow past UINT32_MAX. */
static bool parse_u32(const char *s, size_t n, uint32_t *out)
{
    uint64_t v = 0;
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (uint64_t)(s[i] - '0');
        if (v > UINT32_MAX)
            return false;
    }
    *out = (uint32_t)v;
    return true;
}

/* Index expressions keep their values within this range (an index is 32
 * bits; the bound leaves room to add the base register number). */
#define REL_LIMIT ((int64_t)1 << 33)

static struct p_rel *new_rel(struct parse_state *ps, struct st_loc loc)
{
    struct p_rel *rel = st_arena_alloc(ps->tmp, sizeof(*rel));
    rel->loc = loc;
    return rel;
}

static struct p_rel *rel_num(struct parse_state *ps, const struct p_tok *t, bool is_float)
{
    struct p_rel *r = new_rel(ps, t->loc);
    uint32_t v;
    if (is_float) {
        /* Reported when the whole expression is known (decode_rel). */
        struct p_tok *copy = st_arena_alloc(ps->tmp, sizeof(*copy));
        *copy = *t;
        r->float_term = copy;
    } else if (!parse_u32(t->s, t->len, &v)) {
        st_error(ps->ctx, t->loc, ST_E_BAD_RELADDR, "index '%s' inside [...] is too large", t->s);
        r->bad = true;
    } else {
        r->offset = v;
    }
    return r;
}

static struct p_rel *rel_reg(struct parse_state *ps, const struct p_tok *t, const struct p_tok *swz)
{
    struct p_rel *r = new_rel(ps, t->loc);
    r->has_reg = true;
    r->reg = *t;
    r->has_swz = swz->s != NULL;
    r->swz = *swz;
    return r;
}

/* a OP b, with the address register (when there is one) only added. */
static struct p_rel *rel_bin(struct parse_state *ps, int op, struct p_rel *a, struct p_rel *b,
                             struct st_loc op_loc)
{
    if (a->bad || b->bad) {
        a->bad = true;
        return a;
    }
    if (a->has_reg && b->has_reg) {
        st_error(ps->ctx, b->reg.loc, ST_E_BAD_RELADDR,
                 "a relative address has one address register; found '%s' after '%s'", b->reg.s,
                 a->reg.s);
        a->bad = true;
        return a;
    }
    if (op != '+' && (a->has_reg || b->has_reg)) {
        /* The address register is only ever added (Wine's assembler
         * rejects "v0[aL - 3 + 5]"); constants around it may be computed. */
        st_error(ps->ctx, op_loc, ST_E_BAD_RELADDR,
                 "'%c' is not allowed in a relative address; only '+' offsets exist", op);
        a->bad = true;
        return a;
    }
    if (!a->float_term)
        a->float_term = b->float_term;
    int64_t x = a->offset, y = b->offset, v = 0;
    switch (op) {
    case '+': v = x + y; break;
    case '-': v = x - y; break;
    case '*':
        v = x > -REL_LIMIT && x < REL_LIMIT && y > -REL_LIMIT && y < REL_LIMIT ? x * y : REL_LIMIT;
        break;
    case '/': case '%':
        if (y == 0 && b->float_term) {
            v = 0; /* "c[1 / 0.5]": the number is what is wrong */
            break;
        }
        if (y == 0) {
            st_error(ps->ctx, op_loc, ST_E_INDEX_EXPR, "division by zero in a register index");
            a->bad = true;
            return a;
        }
        v = op == '/' ? x / y : x % y;
        break;
    }
    if (v <= -REL_LIMIT || v >= REL_LIMIT) {
        st_error(ps->ctx, op_loc, ST_E_INDEX_EXPR, "register index expression out of range");
        a->bad = true;
        return a;
    }
    if (b->has_reg) {
        a->has_reg = true;
        a->reg = b->reg;
        a->has_swz = b->has_swz;
        a->swz = b->swz;
    }
    a->offset = v;
    return a;
}

static struct p_rel *rel_neg(struct parse_state *ps, struct p_rel *a, struct st_loc op_loc)
{
    if (!a->bad && a->has_reg) {
        st_error(ps->ctx, op_loc, ST_E_BAD_RELADDR,
                 "'-' is not allowed in a relative address; only '+' offsets exist");
        a->bad = true;
    }
    a->offset = -a->offset;
    return a;
}

static void trailing_plus(struct parse_state *ps, const struct p_tok *plus)
{
    if (plus->s) {
        ps->coissue_next = true;
        ps->coissue_next_loc = plus->loc;
    }
}

/* xyzw / rgba -> lane, or -1. */
static int lane_of(char c)
{
    switch (c) {
    case 'x': case 'X': case 'r': case 'R': return 0;
    case 'y': case 'Y': case 'g': case 'G': return 1;
    case 'z': case 'Z': case 'b': case 'B': return 2;
    case 'w': case 'W': case 'a': case 'A': return 3;
    default: return -1;
    }
}

static bool eq_ci(const char *s, size_t n, const char *lit)
{
    return strlen(lit) == n && strncasecmp(s, lit, n) == 0;
}

/* ------------------------------------------------------------------ */
/* Version statement.                                                  */

static void do_version(struct parse_state *ps, const struct p_tok *t)
{
    struct st_version *v = &ps->sh->version;
    if (ps->coissue_next) {
        st_error(ps->ctx, ps->coissue_next_loc, ST_E_COISSUE_RULE,
                 "'+' at the end of a line co-issues the next instruction, but a version follows");
        ps->coissue_next = false;
    }
    if (ps->have_version) {
        st_error(ps->ctx, t->loc, ST_E_DUP_VERSION,
                 "second version statement '%s'; the version is given once, first", t->s);
        return;
    }
    ps->have_version = true;
    v->loc = t->loc;
    v->type = (t->s[0] == 'v' || t->s[0] == 'V') ? ST_VS : ST_PS;

    /* t->s is [vp]s SEP digits SEP word (the lexer's pattern). */
    const char *s = t->s + 2;
    char sep1 = *s++;
    size_t nmaj = strspn(s, "0123456789");
    const char *maj = s;
    s += nmaj;
    char sep2 = *s++;
    const char *min = s;
    size_t nmin = strlen(min);
    v->dot_syntax = sep1 == '.';

    uint16_t ver = 0;
    if (sep1 == sep2 && nmaj == 1 && nmin == 1) {
        int M = maj[0] - '0';
        char m = min[0];
        bool vs = v->type == ST_VS;
        if (M == 1 && m == '0' && vs)
            ver = ST_VER(1, 0); /* D3D8's vs.1.0: same as 1.1 */
        else if (M == 1 && m == '1')
            ver = V11;
        else if (M == 1 && !vs && m >= '2' && m <= '4')
            ver = (uint16_t)ST_VER(1, m - '0');
        else if (M == 2 && m == '0')
            ver = V20;
        else if (M == 2 && (m == 'x' || m == 'X'))
            ver = V2X;
        else if (M == 3 && m == '0')
            ver = V30;
    }
    if (!ver) {
        st_error(ps->ctx, t->loc, ST_E_BAD_VERSION,
                 "unknown shader version '%s'; expected vs_1_1, vs_2_0, vs_2_x, vs_3_0, "
                 "ps_1_1 .. ps_1_4, ps_2_0, ps_2_x or ps_3_0", t->s);
    }
    v->ver = ver;
}

/* ------------------------------------------------------------------ */
/* Registers and operands.                                             */

enum reg_kind { RK_INDEXED, RK_SINGLE };

struct reg_name {
    const char *name;
    enum st_regfile file;
    enum reg_kind kind;
    uint32_t fixed_index; /* RK_SINGLE */
};

/* D3D9 register spellings; matched case-insensitively on the letters
 * before the number. "o" is decided by the version (see reg_file). */
static const struct reg_name reg_names[] = {
    {"r", ST_REG_TEMP, RK_INDEXED, 0},
    {"v", ST_REG_INPUT, RK_INDEXED, 0},
    {"c", ST_REG_CONST, RK_INDEXED, 0},
    {"a", ST_REG_ADDR, RK_INDEXED, 0},
    {"t", ST_REG_TEXTURE, RK_INDEXED, 0},
    {"oPos", ST_REG_RASTOUT, RK_SINGLE, ST_RASTOUT_POS},
    {"oFog", ST_REG_RASTOUT, RK_SINGLE, ST_RASTOUT_FOG},
    {"oPts", ST_REG_RASTOUT, RK_SINGLE, ST_RASTOUT_PTS},
    {"oD", ST_REG_ATTROUT, RK_INDEXED, 0},
    {"oT", ST_REG_TEXCRDOUT, RK_INDEXED, 0},
    {"o", ST_REG_OUTPUT, RK_INDEXED, 0},
    {"i", ST_REG_CONSTINT, RK_INDEXED, 0},
    {"oC", ST_REG_COLOROUT, RK_INDEXED, 0},
    {"oDepth", ST_REG_DEPTHOUT, RK_SINGLE, 0},
    {"s", ST_REG_SAMPLER, RK_INDEXED, 0},
    {"b", ST_REG_CONSTBOOL, RK_INDEXED, 0},
    {"aL", ST_REG_LOOP, RK_SINGLE, 0},
    {"l", ST_REG_LABEL, RK_INDEXED, 0},
    {"p", ST_REG_PREDICATE, RK_INDEXED, 0},
    {"vPos", ST_REG_MISC, RK_SINGLE, ST_MISC_POS},
    {"vFace", ST_REG_MISC, RK_SINGLE, ST_MISC_FACE},
};

static const struct reg_name *lookup_reg(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof(reg_names) / sizeof(reg_names[0]); i++)
        if (eq_ci(s, n, reg_names[i].name))
            return &reg_names[i];
    return NULL;
}

static enum st_regfile reg_file(const struct parse_state *ps, const struct reg_name *rn)
{
    /* "o#" is vs_3_0's output file; before 3.0 the same register type
     * (D3DSPR_TEXCRDOUT) is oT#, which is how D3D assemblers read it. */
    if (rn->file == ST_REG_OUTPUT && ps->have_version && ps->sh->version.type == ST_VS &&
        ps->sh->version.ver != 0 && ps->sh->version.ver < V30)
        return ST_REG_TEXCRDOUT;
    return rn->file;
}

/*
 * Splits a register word "r12_bx2" into file and index; *suffix gets the
 * "_bx2" part (or NULL).  has_bracket allows "c" without a number.  Returns
 * false after reporting an error.
 */
static bool decode_reg(struct parse_state *ps, const struct p_tok *w, bool has_bracket,
                       struct st_reg *out, struct p_tok *suffix)
{
    const char *s = w->s;
    size_t nl = 0;
    while (nl < w->len && ((s[nl] >= 'a' && s[nl] <= 'z') || (s[nl] >= 'A' && s[nl] <= 'Z')))
        nl++;
    size_t nd = 0;
    while (nl + nd < w->len && s[nl + nd] >= '0' && s[nl + nd] <= '9')
        nd++;
    size_t rest = nl + nd;

    memset(suffix, 0, sizeof(*suffix));
    const struct reg_name *rn = lookup_reg(s, nl);
    if (!rn || (rest < w->len && s[rest] != '_')) {
        /* Show the register part only, not a trailing modifier. */
        size_t shown = strcspn(s, "_");
        st_error(ps->ctx, w->loc, ST_E_UNKNOWN_REGISTER, "unknown register '%.*s'",
                 (int)shown, s);
        return false;
    }
    memset(out, 0, sizeof(*out));
    out->file = reg_file(ps, rn);
    out->loc = w->loc;
    if (rn->kind == RK_SINGLE) {
        if (nd) {
            st_error(ps->ctx, w->loc, ST_E_UNKNOWN_REGISTER,
                     "unknown register '%.*s': %s takes no number", (int)rest, s, rn->name);
            return false;
        }
        out->index = rn->fixed_index;
    } else if (nd) {
        if (!parse_u32(s + nl, nd, &out->index)) {
            st_error(ps->ctx, loc_plus(w->loc, nl), ST_E_BAD_NUMBER,
                     "register number '%.*s' is too large", (int)nd, s + nl);
            return false;
        }
    } else if (has_bracket) {
        out->bracket_only = true;
    } else {
        st_error(ps->ctx, w->loc, ST_E_UNKNOWN_REGISTER,
                 "register '%.*s' needs a number (e.g. %s0)", (int)nl, s, rn->name);
        return false;
    }
    if (rest < w->len) {
        suffix->s = s + rest;
        suffix->len = w->len - rest;
        suffix->loc = loc_plus(w->loc, rest);
    }
    return true;
}

/* "[a0.x + 5]" -> reg->rel and reg->index. */
static bool decode_rel(struct parse_state *ps, struct p_rel *prel, struct st_reg *reg)
{
    if (prel->bad)
        return false;
    int64_t index = (int64_t)reg->index + prel->offset;
    if (prel->float_term) {
        st_error(ps->ctx, prel->float_term->loc, ST_E_BAD_RELADDR,
                 prel->has_reg ? "relative address offset must be an integer, found '%s'"
                               : "a register index must be an integer, found '%s'",
                 prel->float_term->s);
        return false;
    }
    if (!prel->has_reg) {
        /* No address register: "c[2 + 10 + 12]" is c24, "c4[2]" is c6. */
        if (index < 0 || index > UINT32_MAX) {
            st_error(ps->ctx, prel->loc, ST_E_INDEX_EXPR, "register index %lld is %s",
                     (long long)index, index < 0 ? "negative" : "too large");
            return false;
        }
        reg->index = (uint32_t)index;
        return true;
    }
    const struct p_tok *w = &prel->reg;
    struct st_reladdr *rel = st_arena_alloc(ps->arena, sizeof(*rel));
    size_t nl = strspn(w->s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
    size_t nd = strspn(w->s + nl, "0123456789");
    if (nl + nd == w->len && nd && eq_ci(w->s, nl, "a")) {
        rel->file = ST_REG_ADDR;
        if (!parse_u32(w->s + nl, nd, &rel->index)) {
            st_error(ps->ctx, w->loc, ST_E_BAD_NUMBER, "register number too large");
            return false;
        }
    } else if (nl == w->len && eq_ci(w->s, nl, "aL")) {
        rel->file = ST_REG_LOOP;
    } else {
        st_error(ps->ctx, w->loc, ST_E_BAD_RELADDR,
                 "'%s' cannot address registers; use a0.x or aL", w->s);
        return false;
    }
    if (prel->has_swz) {
        /* Like Wine's assembler, ".xyww" uses its first letter; the other
         * letters must still be swizzle letters. */
        for (size_t i = 1; i < prel->swz.len; i++)
            if (lane_of(prel->swz.s[i]) < 0) {
                st_error(ps->ctx, loc_plus(prel->swz.loc, i), ST_E_BAD_SWIZZLE,
                         "invalid swizzle letter '%c' in '%s'", prel->swz.s[i], prel->swz.s);
                return false;
            }
        if (prel->swz.len > 5) {
            st_error(ps->ctx, prel->swz.loc, ST_E_BAD_SWIZZLE,
                     "swizzle '%s' has more than four letters", prel->swz.s);
            return false;
        }
        rel->component = (uint8_t)lane_of(prel->swz.s[1]);
        rel->has_component = true;
        size_t n = prel->swz.len - 1;
        if (n > 1) {
            int lanes[4];
            for (size_t i = 0; i < 4; i++)
                lanes[i] = lane_of(prel->swz.s[1 + (i < n ? i : n - 1)]);
            rel->swizzle = (uint8_t)ST_SWIZZLE(lanes[0], lanes[1], lanes[2], lanes[3]);
            rel->swizzle_len = (uint8_t)n;
        }
    }
    if (index < 0) {
        st_error(ps->ctx, prel->loc, ST_E_BAD_RELADDR,
                 "relative address offset %lld is negative: the index added to %s must be 0 or "
                 "more",
                 (long long)index, w->s);
        return false;
    }
    if (index > UINT32_MAX) {
        st_error(ps->ctx, prel->loc, ST_E_BAD_RELADDR, "relative address offset too large");
        return false;
    }
    reg->index = (uint32_t)index;
    reg->rel = rel;
    return true;
}

static bool parse_swizzle(struct parse_state *ps, const struct p_tok *t, uint8_t *swz,
                          uint8_t *len)
{
    size_t n = t->len - 1; /* without the dot */
    if (n > 4) {
        st_error(ps->ctx, t->loc, ST_E_BAD_SWIZZLE,
                 "swizzle '%s' has more than four letters", t->s);
        return false;
    }
    int lanes[4];
    for (size_t i = 0; i < n; i++) {
        lanes[i] = lane_of(t->s[1 + i]);
        if (lanes[i] < 0) {
            st_error(ps->ctx, loc_plus(t->loc, 1 + i), ST_E_BAD_SWIZZLE,
                     "invalid swizzle letter '%c' in '%s'", t->s[1 + i], t->s);
            return false;
        }
    }
    /* D3D repeats the last letter: .x = .xxxx, .xy = .xyyy. */
    for (size_t i = n; i < 4; i++)
        lanes[i] = lanes[n - 1];
    *swz = (uint8_t)ST_SWIZZLE(lanes[0], lanes[1], lanes[2], lanes[3]);
    *len = (uint8_t)n;
    return true;
}

static bool parse_writemask(struct parse_state *ps, const struct p_tok *t, uint8_t *mask)
{
    uint8_t m = 0;
    int last = -1;
    for (size_t i = 1; i < t->len; i++) {
        int l = lane_of(t->s[i]);
        if (l < 0 || l <= last) {
            st_error(ps->ctx, loc_plus(t->loc, i), ST_E_BAD_WRITEMASK,
                     l < 0 ? "invalid write mask letter '%c' in '%s'"
                           : "write mask letter '%c' in '%s' is repeated or out of xyzw order",
                     t->s[i], t->s);
            return false;
        }
        m |= (uint8_t)(1u << l);
        last = l;
    }
    *mask = m;
    return true;
}

static bool to_src(struct parse_state *ps, const struct p_operand *op, struct st_src *src)
{
    memset(src, 0, sizeof(*src));
    src->loc = op->loc;
    src->swizzle = ST_SWIZZLE_IDENTITY;
    if (op->kind != P_REG) {
        st_error(ps->ctx, op->loc, ST_E_SYNTAX, "expected a register, found number '%s%s'",
                 op->neg ? "-" : "", op->num.s);
        return false;
    }
    struct p_tok suffix;
    if (!decode_reg(ps, &op->reg, op->rel != NULL, &src->reg, &suffix))
        return false;
    bool ok = true;
    if (op->rel && !decode_rel(ps, op->rel, &src->reg))
        ok = false;
    if (suffix.s && op->has_suffix) {
        st_error(ps->ctx, op->suffix.loc, ST_E_BAD_SRCMOD,
                 "two source modifiers ('%s' and '%s')", suffix.s, op->suffix.s);
        return false;
    }
    if (op->has_suffix)
        suffix = op->suffix;

    enum st_srcmod mod = ST_SRCMOD_NONE;
    if (suffix.s) {
        const char *m = suffix.s + 1;
        size_t n = suffix.len - 1;
        if (eq_ci(m, n, "bias"))
            mod = ST_SRCMOD_BIAS;
        else if (eq_ci(m, n, "bx2"))
            mod = ST_SRCMOD_SIGN;
        else if (eq_ci(m, n, "x2"))
            mod = ST_SRCMOD_X2;
        else if (eq_ci(m, n, "dz") || eq_ci(m, n, "db"))
            mod = ST_SRCMOD_DZ;
        else if (eq_ci(m, n, "dw") || eq_ci(m, n, "da"))
            mod = ST_SRCMOD_DW;
        else if (eq_ci(m, n, "abs"))
            mod = ST_SRCMOD_ABS;
        else {
            st_error(ps->ctx, suffix.loc, ST_E_BAD_SRCMOD,
                     "unknown source modifier '%.*s' (expected _bias, _bx2, _x2, _dz, _db, "
                     "_dw, _da or _abs)", (int)suffix.len, suffix.s);
            return false;
        }
    }
    if (op->neg) {
        switch (mod) {
        case ST_SRCMOD_NONE: mod = ST_SRCMOD_NEG; break;
        case ST_SRCMOD_BIAS: mod = ST_SRCMOD_BIASNEG; break;
        case ST_SRCMOD_SIGN: mod = ST_SRCMOD_SIGNNEG; break;
        case ST_SRCMOD_X2: mod = ST_SRCMOD_X2NEG; break;
        case ST_SRCMOD_ABS: mod = ST_SRCMOD_ABSNEG; break;
        default:
            st_error(ps->ctx, suffix.loc, ST_E_BAD_SRCMOD,
                     "'-' cannot be combined with '%.*s'", (int)suffix.len, suffix.s);
            return false;
        }
    }
    if (op->comp) {
        if (!eq_ci(op->comp_num.s, op->comp_num.len, "1")) {
            st_error(ps->ctx, op->comp_num.loc, ST_E_BAD_SRCMOD,
                     "only '1 - register' is a source modifier, not '%s -'", op->comp_num.s);
            return false;
        }
        if (mod != ST_SRCMOD_NONE) {
            st_error(ps->ctx, suffix.loc, ST_E_BAD_SRCMOD,
                     "'1 -' cannot be combined with '%.*s'", (int)suffix.len, suffix.s);
            return false;
        }
        mod = ST_SRCMOD_COMP;
    }
    if (op->not_) {
        if (mod != ST_SRCMOD_NONE) {
            st_error(ps->ctx, suffix.s ? suffix.loc : op->loc, ST_E_BAD_SRCMOD,
                     "'!' cannot be combined with another source modifier");
            return false;
        }
        if (src->reg.file != ST_REG_CONSTBOOL && src->reg.file != ST_REG_PREDICATE) {
            st_error(ps->ctx, op->loc, ST_E_BAD_SRCMOD,
                     "'!' applies only to b# and p0 registers");
            return false;
        }
        mod = ST_SRCMOD_NOT;
    }
    src->mod = mod;
    if (op->has_swz && !parse_swizzle(ps, &op->swz, &src->swizzle, &src->swizzle_len))
        return false;
    return ok;
}

static bool to_dst(struct parse_state *ps, const struct p_operand *op, struct st_dst *dst)
{
    memset(dst, 0, sizeof(*dst));
    dst->loc = op->loc;
    dst->writemask = 0xf;
    if (op->kind != P_REG) {
        st_error(ps->ctx, op->loc, ST_E_SYNTAX,
                 "expected a destination register, found number '%s%s'", op->neg ? "-" : "",
                 op->num.s);
        return false;
    }
    if (op->neg || op->comp || op->not_) {
        st_error(ps->ctx, op->loc, ST_E_BAD_SRCMOD,
                 "a destination takes no source modifier ('%s')",
                 op->neg ? "-" : op->comp ? "1 -" : "!");
        return false;
    }
    struct p_tok suffix;
    if (!decode_reg(ps, &op->reg, op->rel != NULL, &dst->reg, &suffix))
        return false;
    if (suffix.s || op->has_suffix) {
        const struct p_tok *t = suffix.s ? &suffix : &op->suffix;
        st_error(ps->ctx, t->loc, ST_E_BAD_SRCMOD,
                 "a destination takes no source modifier ('%.*s'); instruction modifiers go "
                 "on the instruction name", (int)t->len, t->s);
        return false;
    }
    if (op->rel && !decode_rel(ps, op->rel, &dst->reg))
        return false;
    if (op->has_swz && !parse_writemask(ps, &op->swz, &dst->writemask))
        return false;
    return true;
}

/* ------------------------------------------------------------------ */
/* Instructions.                                                       */

static const char *const cmp_names[] = {NULL, "gt", "eq", "ge", "lt", "ne", "le"};

/* "dcl_<usage>[N]" or "dcl_2d"...: the first suffix of dcl. */
static bool decode_dcl_kind(struct parse_state *ps, struct st_instr *ins, const char *seg,
                            size_t n, struct st_loc loc)
{
    if (eq_ci(seg, n, "2d")) {
        ins->sampler_type = ST_SAMPLER_2D;
        return true;
    }
    if (eq_ci(seg, n, "cube")) {
        ins->sampler_type = ST_SAMPLER_CUBE;
        return true;
    }
    if (eq_ci(seg, n, "volume")) {
        ins->sampler_type = ST_SAMPLER_VOLUME;
        return true;
    }
    size_t nl = 0;
    while (nl < n && ((seg[nl] >= 'a' && seg[nl] <= 'z') || (seg[nl] >= 'A' && seg[nl] <= 'Z')))
        nl++;
    for (int u = 0; u < ST_USAGE_COUNT; u++) {
        if (!eq_ci(seg, nl, st_usage_names[u]))
            continue;
        if (nl < n && !parse_u32(seg + nl, n - nl, &ins->usage_index))
            break;
        ins->usage = (enum st_usage)u;
        ins->usage_index_written = nl < n;
        return true;
    }
    st_error(ps->ctx, loc, ST_E_BAD_DCL,
             "unknown declaration 'dcl_%.*s' (expected a usage such as position or "
             "texcoord0, or a sampler type 2d, cube or volume)", (int)n, seg);
    return false;
}

/* Opcode word: base name, then "_" suffixes. */
static bool decode_opword(struct parse_state *ps, const struct p_tok *w, struct st_instr *ins)
{
    const char *s = w->s;
    size_t nbase = strcspn(s, "_");
    int op = st_opcode_lookup(s, nbase);
    /* "ifc"/"breakc" are table names for if_gt/break_gt, not spellings. */
    if (op < 0 || op == ST_OP_IFC || op == ST_OP_BREAKC) {
        st_error(ps->ctx, w->loc, ST_E_UNKNOWN_OPCODE, "unknown instruction '%.*s'",
                 (int)nbase, s);
        return false;
    }
    ins->op = (enum st_opcode)op;
    ins->loc = w->loc;

    bool ok = true, first = true, had_kind = false;
    size_t pos = nbase;
    while (pos < w->len) {
        /* s[pos] == '_' */
        size_t start = pos + 1;
        size_t end = start;
        while (end < w->len && s[end] != '_')
            end++;
        const char *seg = s + start;
        size_t n = end - start;
        struct st_loc loc = loc_plus(w->loc, pos);
        if (first)
            ins->mod_loc = loc;
        bool dcl_kind = first && ins->op == ST_OP_DCL;
        first = false;
        pos = end;

        int shift = 0, cmp = 0;
        static const char *const shifts[] = {"d8", "d4", "d2", "", "x2", "x4", "x8"};
        for (int i = 0; i < 7; i++)
            if (i != 3 && eq_ci(seg, n, shifts[i]))
                shift = i - 3;
        for (int i = 1; i <= 6; i++)
            if (eq_ci(seg, n, cmp_names[i]))
                cmp = i;

        if (eq_ci(seg, n, "sat") || eq_ci(seg, n, "pp") || eq_ci(seg, n, "centroid")) {
            uint8_t bit = eq_ci(seg, n, "sat") ? ST_DSTMOD_SAT
                          : eq_ci(seg, n, "pp") ? ST_DSTMOD_PP : ST_DSTMOD_CENTROID;
            if (ins->dstmod & bit) {
                st_error(ps->ctx, loc, ST_E_BAD_MODIFIER, "modifier '_%.*s' given twice",
                         (int)n, seg);
                ok = false;
            }
            ins->dstmod |= bit;
        } else if (shift) {
            if (ins->shift) {
                st_error(ps->ctx, loc, ST_E_BAD_MODIFIER,
                         "second result shift '_%.*s' (one of _x2 _x4 _x8 _d2 _d4 _d8 only)",
                         (int)n, seg);
                ok = false;
            }
            ins->shift = (int8_t)shift;
        } else if (dcl_kind) {
            had_kind = true;
            if (!decode_dcl_kind(ps, ins, seg, n, loc))
                ok = false;
        } else if (cmp && (ins->op == ST_OP_IF || ins->op == ST_OP_BREAK ||
                           ins->op == ST_OP_SETP) && ins->cmp == ST_CMP_NONE) {
            ins->cmp = (enum st_compare)cmp;
            if (ins->op == ST_OP_IF)
                ins->op = ST_OP_IFC;
            else if (ins->op == ST_OP_BREAK)
                ins->op = ST_OP_BREAKC;
        } else {
            st_error(ps->ctx, loc, ST_E_BAD_MODIFIER, "unknown modifier '_%.*s' on '%.*s'",
                     (int)n, seg, (int)nbase, s);
            ok = false;
        }
    }
    /* No usage or sampler word: "dcl t0", "dcl vFace", "dcl_centroid t0". */
    if (ins->op == ST_OP_DCL && !had_kind)
        ins->dcl_bare = true;
    if (ok && ins->op == ST_OP_SETP && ins->cmp == ST_CMP_NONE) {
        st_error(ps->ctx, w->loc, ST_E_BAD_MODIFIER,
                 "setp needs a comparison: setp_gt, _eq, _ge, _lt, _ne or _le");
        ok = false;
    }
    return ok;
}

static bool parse_float(struct parse_state *ps, const struct p_operand *op, float *out)
{
    const struct p_tok *t = &op->num;
    size_t n = t->len;
    if (n && (t->s[n - 1] == 'f' || t->s[n - 1] == 'F'))
        n--;
    char *tmp = st_arena_strndup(ps->arena, t->s, n);
    /* The text is digits, '.', 'e' and signs only (the lexer's pattern),
     * so hex floats, "inf" and "nan" cannot reach strtof; it reads '.'
     * because st_compile/st_run run in the C locale (driver.c). */
    errno = 0;
    char *end;
    float v = strtof(tmp, &end);
    if (end != tmp + n || (errno == ERANGE && isinf(v))) {
        st_error(ps->ctx, t->loc, ST_E_BAD_NUMBER, "number '%s' is out of range for a float",
                 t->s);
        return false;
    }
    *out = op->neg ? -v : v;
    return true;
}

static bool parse_int(struct parse_state *ps, const struct p_operand *op, int32_t *out)
{
    uint32_t u;
    if (op->num_is_float) {
        st_error(ps->ctx, op->loc, ST_E_BAD_NUMBER, "defi needs integers, found '%s'",
                 op->num.s);
        return false;
    }
    if (!parse_u32(op->num.s, op->num.len, &u) || u > (op->neg ? 0x80000000u : 0x7fffffffu)) {
        st_error(ps->ctx, op->loc, ST_E_BAD_NUMBER, "integer '%s%s' is out of range",
                 op->neg ? "-" : "", op->num.s);
        return false;
    }
    *out = op->neg ? (int32_t)(0u - u) : (int32_t)u;
    return true;
}

static void build_def(struct parse_state *ps, struct st_instr *ins, const struct p_list *ops)
{
    unsigned want = ins->op == ST_OP_DEFB ? 1 : 4;
    const char *name = st_opinfo[ins->op].name;
    if (ops->n != want + 1) {
        /* Too many: point at the first extra operand; too few: at the name. */
        struct st_loc loc = ins->loc;
        if (ops->n > want + 1) {
            const struct p_operand *extra = ops->first;
            for (unsigned k = 0; k < want + 1; k++)
                extra = extra->next;
            loc = extra->loc;
        }
        st_error(ps->ctx, loc, ST_E_OPERAND_COUNT,
                 "%s takes a register and %u value%s, found %u operand%s", name, want,
                 want > 1 ? "s" : "", ops->n, ops->n == 1 ? "" : "s");
        return;
    }
    const struct p_operand *op = ops->first;
    ins->has_dst = to_dst(ps, op, &ins->dst);
    unsigned i = 0;
    for (op = op->next; op; op = op->next, i++) {
        if (op->sep == '=') {
            if (i == 0)
                st_warning(ps->ctx, op->sep_loc, ST_W_STRAY_COMMA,
                           "'=' after the register of %s read as ','", name);
            else
                st_error(ps->ctx, op->sep_loc, ST_E_SYNTAX, "unexpected '=', expected ','");
        }
        ins->imm_loc[i] = op->loc;
        if (ins->op == ST_OP_DEFB) {
            bool t = op->kind == P_REG && eq_ci(op->reg.s, op->reg.len, "true");
            bool f = op->kind == P_REG && eq_ci(op->reg.s, op->reg.len, "false");
            if ((!t && !f) || op->neg || op->comp || op->not_ || op->rel || op->has_swz) {
                st_error(ps->ctx, op->loc, ST_E_SYNTAX, "defb takes true or false");
                continue;
            }
            ins->imm.b = t;
        } else if (op->kind != P_NUM) {
            st_error(ps->ctx, op->loc, ST_E_SYNTAX, "expected a number, found '%s'",
                     op->reg.s);
        } else if (ins->op == ST_OP_DEF) {
            parse_float(ps, op, &ins->imm.f[i]);
        } else {
            parse_int(ps, op, &ins->imm.i[i]);
        }
    }
}

static void build_instr(struct parse_state *ps, const struct p_prefix *pre,
                        const struct p_tok *word, const struct p_tok *lead_comma,
                        const struct p_list *ops)
{
    /* The statement starts at "+", "(" or the opcode word. */
    struct st_loc stmt_loc = pre->coissue || pre->pred ? pre->loc : word->loc;
    bool coissue_before = ps->coissue_next; /* a '+' ended the line before */
    ps->coissue_next = false;
    unsigned errors_before = st_error_count(ps->ctx);
    if (!ps->have_version && !ps->no_version_reported) {
        st_error(ps->ctx, stmt_loc, ST_E_NO_VERSION,
                 "the first statement must be the version (e.g. vs_2_0 or ps_3_0), found '%s'",
                 word->s);
        ps->no_version_reported = true;
    }
    struct st_instr *ins = st_arena_alloc(ps->arena, sizeof(*ins));
    if (!ins || !decode_opword(ps, word, ins)) /* NULL: out of memory, reported at the end */
        return;

    if (lead_comma->s) {
        if (ins->op == ST_OP_DCL)
            st_warning(ps->ctx, lead_comma->loc, ST_W_STRAY_COMMA,
                       "stray ',' after '%s' ignored", word->s);
        else
            st_error(ps->ctx, lead_comma->loc, ST_E_SYNTAX,
                     "unexpected ',' after the instruction name '%s'", word->s);
    }

    ins->coissue = pre->coissue || coissue_before;
    if (pre->pred) {
        struct p_operand p;
        memset(&p, 0, sizeof(p));
        p.kind = P_REG;
        p.loc = pre->pred_loc;
        p.not_ = pre->pred_not;
        p.reg = pre->pred_reg;
        p.has_swz = pre->pred_has_swz;
        p.swz = pre->pred_swz;
        ins->predicated = to_src(ps, &p, &ins->pred);
    }

    if (ins->op == ST_OP_DEF || ins->op == ST_OP_DEFI || ins->op == ST_OP_DEFB) {
        build_def(ps, ins, ops);
    } else {
        unsigned ndst = st_opinfo[ins->op].ndst;
        unsigned idx = 0;
        bool too_many = false;
        for (const struct p_operand *op = ops->first; op; op = op->next, idx++) {
            if (op->sep == '=')
                st_error(ps->ctx, op->sep_loc, ST_E_SYNTAX, "unexpected '=', expected ','");
            if (idx < ndst) {
                ins->has_dst = to_dst(ps, op, &ins->dst);
            } else if (ins->nsrc < 5) {
                to_src(ps, op, &ins->src[ins->nsrc++]);
            } else if (!too_many) {
                st_error(ps->ctx, op->loc, ST_E_OPERAND_COUNT,
                         "too many operands for '%s'", st_opinfo[ins->op].name);
                too_many = true;
            }
        }
    }

    /* A line with errors is not added: later stages only see what parsed. */
    if (st_error_count(ps->ctx) != errors_before)
        return;
    struct st_shader *sh = ps->sh;
    if (sh->last)
        sh->last->next = ins;
    else
        sh->first = ins;
    sh->last = ins;
    sh->num_instrs++;
}
