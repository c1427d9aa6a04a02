/*
 * pp.c — the Direct3D 9 preprocessor: files, lines, directives, output.
 *
 * Microsoft's assemblers run the C preprocessor over shader assembly; this
 * is that preprocessor, written for our diagnostics: every column of its
 * output stays traceable to the file, line and column the user wrote, and
 * it keeps no global state (the C preprocessor libraries Debian has, mcpp
 * for one, keep theirs in globals and print their own messages).
 *
 * The -D definitions (as "#define" lines of a file named "<command line>")
 * and then the main file are read one logical line at a time: physical
 * lines joined where one ends in "\", comments taken out (a block comment
 * is one space and joins the lines it spans; "//" and the assembly's ";"
 * run to the end of the line).  A logical line whose first character is
 * '#' is a directive; any other line of an active group is macro-expanded
 * (pp_macro.c) and written as one line of output.  For each output line we
 * record pieces: from output column c on, the text is the file's text at
 * instance/line/column, or a macro expansion invoked there.  pp_locate()
 * reads that map for every diagnostic, so messages name the file the user
 * wrote, with its #include chain as notes; the output itself is never
 * shown.  The preprocessor's own diagnostics are at file positions: each
 * gets an empty output line mapped to its position, placed before the
 * output of the line concerned, so all diagnostics sort in reading order.
 *
 * Included files are a heap stack (PP_MAX_INCLUDE_DEPTH deep at most), so
 * nothing recurses as deep as the input.  Everything the locator needs
 * goes to the shader's arena; tokens and macro bodies to a scratch arena
 * freed at the end.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pp_priv.h"

/* ------------------------------------------------------------------ */
/* Growable arrays (malloc; failure sets pp->oom).                     */

#define VEC(T)                                                                              \
    struct {                                                                                \
        T *v;                                                                               \
        uint32_t n, cap;                                                                    \
    }

static bool grow(void **v, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    uint64_t nc = *cap ? (uint64_t)*cap * 2 : 16;
    while (nc < need)
        nc *= 2;
    if (nc > UINT32_MAX / 2 || nc > SIZE_MAX / 2 / elem)
        return false;
    void *p = realloc(*v, (size_t)nc * elem);
    if (!p)
        return false;
    *v = p;
    *cap = (uint32_t)nc;
    return true;
}

#define PUSH(pp, vec, val)                                                                  \
    (grow((void **)&(vec).v, &(vec).cap, (vec).n + 1, sizeof(*(vec).v))                     \
         ? ((vec).v[(vec).n++] = (val), true)                                               \
         : ((pp)->oom = true, false))

/* ------------------------------------------------------------------ */
/* The map the locator reads.                                          */

struct pp_file {
    const char *name;   /* as reported (the path it was found at) */
    const char *text;   /* the bytes (in the shader's arena) */
    size_t len;
    uint32_t *line_off; /* line_off[k]: first byte of physical line k + 1 */
    uint32_t nlines;
    bool once;          /* #pragma once */
};

struct pp_linedir { /* #line: from physical line `from` on */
    uint32_t from;
    int64_t delta;    /* shown line = physical + delta */
    const char *name; /* shown file name */
};

struct pp_inst { /* one inclusion of a file */
    uint32_t file;
    int32_t parent;     /* -1: the main file, the command line */
    struct pp_pos site; /* the name in the parent's #include */
    struct pp_linedir *dirs;
    uint32_t ndirs, capdirs;
};

struct pp_piece {
    uint32_t out_col;
    struct pp_pos src;
    int32_t macro; /* -1: the file's text; else the definition expanded here */
};

struct pp_mdef { /* what a note about a macro needs */
    const char *note;
    struct pp_pos def;
};

struct pp_map {
    const struct pp_file *files;
    const struct pp_inst *insts;
    const struct pp_mdef *mdefs;
    const struct pp_piece *pieces;
    const uint32_t *line_first; /* pieces of output line l: [line_first[l-1], line_first[l]) */
    uint32_t nlines;
    struct pp_pos eof;          /* the end of the main file */
};

/* ------------------------------------------------------------------ */
/* State.                                                              */

struct lpos { /* where a byte of a logical line came from */
    uint32_t line, col;
};

struct lline { /* one logical line */
    VEC(char) buf;
    VEC(struct lpos) pos; /* one per byte of buf */
    uint32_t inst, first_line;
    bool directive;
};

struct fstate { /* a file being read */
    uint32_t inst, file;
    size_t pos;          /* next byte */
    uint32_t line, col;  /* of that byte */
    uint32_t cond_base;  /* conditionals open when the file started */
};

struct cond {
    struct pp_pos at;  /* the #if */
    const char *name;  /* "if", "ifdef", "ifndef" */
    bool outer_active; /* the group around it is active */
    bool taken;        /* one of its branches was active */
    bool active;       /* the current branch is */
    bool seen_else;
};

struct slot { /* a macro name and its current definition */
    const char *name;
    uint32_t len;
    int32_t def;     /* index into defs; -1: none yet */
    uint32_t active; /* replacement lists of this name being rescanned */
};

struct pending { /* a diagnostic waiting for its output line */
    bool error;
    enum st_diag_code code;
    struct pp_pos pos;
    int32_t macro;
    char *msg;
};

struct pp {
    struct st_ctx *ctx;
    struct st_arena *arena;   /* the shader's: what the locator reads */
    struct st_arena *scratch; /* tokens, macro bodies */
    const struct st_pp_options *opt;
    bool oom, stop;
    bool fatal; /* an error after which the text is not worth parsing */

    VEC(struct pp_file) files;
    VEC(struct pp_inst) insts;
    VEC(struct fstate) stack;
    VEC(struct cond) conds;
    VEC(struct pp_macro) defs;
    VEC(struct pp_mdef) mdefs;
    VEC(struct pending) pending;
    struct slot *slots; /* open addressing, a power of two */
    uint32_t nslots, slot_cap;

    struct lline ll;
    struct pp_vec line_toks; /* the text line being expanded */
    uint32_t line_i;
    struct pp_vec expanded;

    struct st_buf out;
    VEC(struct pp_piece) pieces;
    VEC(uint32_t) line_first;
    uint32_t out_col;       /* column of the next output character */
    bool line_has_tok;
    struct pp_tok prev;     /* the last token written on this line */
    struct pp_pos line_origin;
    struct pp_budget budget;
    bool line_abort;
};

struct st_arena *pp_scratch(struct pp *pp) { return pp->scratch; }
bool pp_stopped(const struct pp *pp) { return pp->stop || pp->oom || pp->fatal; }
struct pp_budget *pp_budget(struct pp *pp) { return &pp->budget; }
bool *pp_line_abort(struct pp *pp) { return &pp->line_abort; }

bool pp_vec_push(struct pp *pp, struct pp_vec *v, const struct pp_tok *t)
{
    if (!grow((void **)&v->v, &v->cap, v->n + 1, sizeof(*v->v))) {
        pp->oom = true;
        return false;
    }
    v->v[v->n++] = *t;
    return true;
}

/* ------------------------------------------------------------------ */
/* Characters.                                                         */

static bool is_cont(unsigned char c) { return (c & 0xc0) == 0x80; }
static bool is_ident_start(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static bool is_ident_char(unsigned char c) { return is_ident_start(c) || is_digit(c); }
static bool is_blank(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Width in columns: UTF-8 continuation bytes take none (as in the lexer). */
static uint32_t width(const char *s, uint32_t n)
{
    uint32_t w = 0;
    for (uint32_t i = 0; i < n; i++)
        w += !is_cont((unsigned char)s[i]);
    return w;
}

/* ------------------------------------------------------------------ */
/* Output lines and their pieces.                                      */

static void begin_line(struct pp *pp, struct pp_pos origin, int32_t macro)
{
    pp->out_col = 1;
    pp->line_has_tok = false;
    pp->line_origin = origin;
    if (!PUSH(pp, pp->line_first, pp->pieces.n))
        return;
    struct pp_piece p = {1, origin, macro};
    PUSH(pp, pp->pieces, p);
}

static void end_line(struct pp *pp)
{
    st_buf_putc(&pp->out, '\n');
}

/* A new piece unless the text at out_col continues the current one. */
static void piece_for(struct pp *pp, const struct pp_tok *t)
{
    const struct pp_piece *cur = &pp->pieces.v[pp->pieces.n - 1];
    if (t->macro < 0) {
        if (cur->macro < 0 && cur->src.inst == t->pos.inst && cur->src.line == t->pos.line &&
            (int64_t)t->pos.col - cur->src.col == (int64_t)pp->out_col - cur->out_col)
            return;
    } else if (cur->macro == t->macro && cur->src.inst == t->pos.inst &&
               cur->src.line == t->pos.line && cur->src.col == t->pos.col) {
        return;
    }
    struct pp_piece p = {pp->out_col, t->pos, t->macro};
    PUSH(pp, pp->pieces, p);
}

static void put_spaces(struct pp *pp, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        st_buf_putc(&pp->out, ' ');
    pp->out_col += n;
}

/* Writes one token: white space as in the file where the two tokens are
 * neighbours there (so plain lines keep their columns), else one space
 * where the token had some or where the two would read as one word. */
static void emit_tok(struct pp *pp, const struct pp_tok *t)
{
    if (t->kind == PT_PLACEMARKER || t->len == 0)
        return;
    const struct pp_tok *p = &pp->prev;
    uint32_t pad = 0;
    if (!pp->line_has_tok) {
        if (t->macro < 0 && t->pos.inst == pp->line_origin.inst &&
            t->pos.line == pp->line_origin.line && t->pos.col >= 1)
            pad = t->pos.col - 1;
    } else if (t->macro < 0 && p->macro < 0 && p->pos.inst == t->pos.inst &&
               p->pos.line == t->pos.line && t->pos.col >= p->pos.col + width(p->text, p->len)) {
        pad = t->pos.col - (p->pos.col + width(p->text, p->len));
    } else if (t->space) {
        pad = 1;
    } else if (is_ident_char((unsigned char)p->text[p->len - 1]) &&
               is_ident_char((unsigned char)t->text[0])) {
        pad = 1; /* "r" then "0" from two places must not become "r0" */
    }
    put_spaces(pp, pad);
    piece_for(pp, t);
    st_buf_append(&pp->out, t->text, t->len);
    if (t->macro < 0 && t->spliced == t->text) {
        /* the rest of a spliced token is on the next physical line */
        uint32_t done = 0;
        for (uint32_t k = 0; k < t->nsplices; k++) {
            const struct pp_splice *sp = &t->splices[k];
            pp->out_col += width(t->text + done, sp->off - done);
            done = sp->off;
            struct pp_piece pc = {pp->out_col, sp->pos, -1};
            PUSH(pp, pp->pieces, pc);
        }
        pp->out_col += width(t->text + done, t->len - done);
    } else {
        pp->out_col += width(t->text, t->len);
    }
    pp->prev = *t;
    pp->line_has_tok = true;
}

/* ------------------------------------------------------------------ */
/* Diagnostics: kept until the output line they go before.             */

static void add_pending(struct pp *pp, bool error, struct pp_pos at, int32_t macro,
                        enum st_diag_code code, const char *fmt, va_list ap)
{
    char msg[600];
    vsnprintf(msg, sizeof(msg), fmt, ap);
    struct pending d = {error, code, at, macro, NULL};
    size_t n = strlen(msg);
    d.msg = st_arena_strndup(pp->scratch, msg, n);
    if (st_arena_failed(pp->scratch)) {
        pp->oom = true;
        return;
    }
    PUSH(pp, pp->pending, d);
}

void pp_error(struct pp *pp, struct pp_pos at, enum st_diag_code code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_pending(pp, true, at, -1, code, fmt, ap);
    va_end(ap);
}

void pp_warning(struct pp *pp, struct pp_pos at, enum st_diag_code code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_pending(pp, false, at, -1, code, fmt, ap);
    va_end(ap);
}

void pp_error_tok(struct pp *pp, const struct pp_tok *t, enum st_diag_code code,
                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_pending(pp, true, t->pos, t->macro, code, fmt, ap);
    va_end(ap);
}

/* Each waiting diagnostic gets an empty output line mapped to its place. */
static void flush_pending(struct pp *pp)
{
    for (uint32_t i = 0; i < pp->pending.n && !pp->oom; i++) {
        const struct pending *d = &pp->pending.v[i];
        struct pp_pos origin = d->pos;
        uint32_t col = d->pos.col ? d->pos.col : 1;
        origin.col = 1;
        if (d->macro >= 0)
            origin = d->pos;
        begin_line(pp, origin, d->macro);
        end_line(pp);
        struct st_loc loc = {pp->line_first.n, d->macro >= 0 ? 1 : col};
        if (d->error)
            st_error(pp->ctx, loc, d->code, "%s", d->msg);
        else
            st_warning(pp->ctx, loc, d->code, "%s", d->msg);
    }
    pp->pending.n = 0;
    if (st_error_limit_reached(pp->ctx))
        pp->stop = true;
}

/* ------------------------------------------------------------------ */
/* Files and instances.                                                */

static const char *arena_dup(struct pp *pp, const char *s, size_t n)
{
    char *p = st_arena_strndup(pp->arena, s, n);
    if (st_arena_failed(pp->arena))
        pp->oom = true;
    return p;
}

/* A file's text, copied into the shader's arena (the locator shows its
 * lines after the embedder freed the original).  -1: out of memory. */
static int32_t add_file(struct pp *pp, const char *name, const char *text, size_t len)
{
    struct pp_file f;
    memset(&f, 0, sizeof(f));
    f.name = arena_dup(pp, name, strlen(name));
    char *t = st_arena_alloc(pp->arena, len + 1);
    uint32_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    f.line_off = st_arena_alloc(pp->arena, (size_t)n * sizeof(uint32_t));
    if (!t || !f.line_off || st_arena_failed(pp->arena)) {
        pp->oom = true;
        return -1;
    }
    if (len)
        memcpy(t, text, len);
    f.text = t;
    f.len = len;
    f.line_off[0] = 0;
    uint32_t k = 1;
    for (size_t i = 0; i < len; i++)
        if (t[i] == '\n')
            f.line_off[k++] = (uint32_t)(i + 1);
    f.nlines = n;
    if (!PUSH(pp, pp->files, f))
        return -1;
    return (int32_t)pp->files.n - 1;
}

static bool push_file(struct pp *pp, uint32_t file, int32_t parent, struct pp_pos site)
{
    struct pp_inst in;
    memset(&in, 0, sizeof(in));
    in.file = file;
    in.parent = parent;
    in.site = site;
    if (!PUSH(pp, pp->insts, in))
        return false;
    struct fstate fs;
    memset(&fs, 0, sizeof(fs));
    fs.inst = pp->insts.n - 1;
    fs.file = file;
    fs.line = 1;
    fs.col = 1;
    fs.cond_base = pp->conds.n;
    const struct pp_file *f = &pp->files.v[file];
    if (f->len >= 3 && memcmp(f->text, "\xef\xbb\xbf", 3) == 0)
        fs.pos = 3; /* a byte order mark takes no column */
    return PUSH(pp, pp->stack, fs);
}

/* The #line in force at a physical line (they come in order). */
static const struct pp_linedir *linedir_at(const struct pp_inst *in, uint32_t line)
{
    uint32_t lo = 0, hi = in->ndirs;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (in->dirs[mid].from <= line)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? &in->dirs[lo - 1] : NULL;
}

static uint32_t shown_line(const struct pp_inst *in, uint32_t line)
{
    const struct pp_linedir *d = linedir_at(in, line);
    int64_t l = (int64_t)line + (d ? d->delta : 0);
    return l < 0 ? 0 : l > UINT32_MAX ? UINT32_MAX : (uint32_t)l;
}

static const char *shown_name(const struct pp_file *files, const struct pp_inst *in,
                              uint32_t line)
{
    const struct pp_linedir *d = linedir_at(in, line);
    return d && d->name ? d->name : files[in->file].name;
}

uint32_t pp_shown_line(struct pp *pp, struct pp_pos at)
{
    return at.inst < pp->insts.n ? shown_line(&pp->insts.v[at.inst], at.line) : at.line;
}

const char *pp_shown_file(struct pp *pp, struct pp_pos at)
{
    return at.inst < pp->insts.n ? shown_name(pp->files.v, &pp->insts.v[at.inst], at.line) : "";
}

/* "line 5" or "b.inc:5": `there` as a message at `here` names it. */
static const char *pp_where(struct pp *pp, struct pp_pos here, struct pp_pos there, char *buf,
                            size_t n)
{
    const char *hf = pp_shown_file(pp, here), *tf = pp_shown_file(pp, there);
    if (strcmp(hf, tf) == 0)
        snprintf(buf, n, "line %u", (unsigned)pp_shown_line(pp, there));
    else
        snprintf(buf, n, "%s:%u", tf, (unsigned)pp_shown_line(pp, there));
    return buf;
}

/* ------------------------------------------------------------------ */
/* Reading logical lines.                                              */

/* The byte at fs->pos after any line splices ("\" then a line break)
 * there, which are consumed; -1 at the end of the file. */
static int cur(struct fstate *fs, const struct pp_file *f)
{
    for (;;) {
        if (fs->pos >= f->len)
            return -1;
        if (f->text[fs->pos] == '\\') {
            size_t q = fs->pos + 1;
            if (q < f->len && f->text[q] == '\r')
                q++;
            if (q < f->len && f->text[q] == '\n') {
                fs->pos = q + 1;
                fs->line++;
                fs->col = 1;
                continue;
            }
        }
        return (unsigned char)f->text[fs->pos];
    }
}

/* Past the byte cur() returned. */
static void step(struct fstate *fs, const struct pp_file *f)
{
    unsigned char c = (unsigned char)f->text[fs->pos++];
    if (c == '\n') {
        fs->line++;
        fs->col = 1;
    } else if (!is_cont(c)) {
        fs->col++;
    }
}

/* The byte after the current one (splices skipped), without moving. */
static int peek2(const struct fstate *fs, const struct pp_file *f)
{
    struct fstate t = *fs;
    if (cur(&t, f) < 0)
        return -1;
    step(&t, f);
    return cur(&t, f);
}

static bool ll_put(struct pp *pp, struct lline *ll, char c, uint32_t line, uint32_t col)
{
    struct lpos p = {line, col};
    return PUSH(pp, ll->pos, p) && PUSH(pp, ll->buf, c);
}

/* Where byte `off` of the logical line came from. */
static struct pp_pos ll_pos(const struct lline *ll, uint32_t off)
{
    struct pp_pos p = {ll->inst, ll->first_line, 1};
    if (off < ll->pos.n) {
        p.line = ll->pos.v[off].line;
        p.col = ll->pos.v[off].col;
    } else if (ll->pos.n) {
        p.line = ll->pos.v[ll->pos.n - 1].line;
        p.col = ll->pos.v[ll->pos.n - 1].col + 1;
    }
    return p;
}

/* Reads the next logical line of fs into pp->ll; false at the end of the
 * file (or out of memory). */
static bool read_logical(struct pp *pp, struct fstate *fs)
{
    const struct pp_file *f = &pp->files.v[fs->file];
    struct lline *ll = &pp->ll;
    if (cur(fs, f) < 0)
        return false;
    ll->buf.n = 0;
    ll->pos.n = 0;
    ll->inst = fs->inst;
    ll->first_line = fs->line;
    ll->directive = false;
    bool seen_nonblank = false, in_comment = false, in_string = false;
    struct pp_pos comment_at = {0, 0, 0};
    for (;;) {
        int c = cur(fs, f);
        if (c < 0) {
            if (in_comment)
                pp_error(pp, comment_at, ST_E_PP_COMMENT,
                         "unterminated comment: '/*' without '*/' before the end of the file");
            break;
        }
        uint32_t line = fs->line, col = fs->col;
        int c2 = peek2(fs, f);
        if (in_comment) {
            step(fs, f);
            if (c == '*' && c2 == '/') {
                cur(fs, f);
                step(fs, f);
                in_comment = false;
            }
            continue;
        }
        if (c == '\n') {
            step(fs, f);
            break;
        }
        if (!in_string) {
            if (c == '/' && c2 == '*') {
                comment_at = (struct pp_pos){fs->inst, line, col};
                step(fs, f);
                cur(fs, f);
                step(fs, f);
                in_comment = true;
                /* A comment is one space. */
                if (!ll_put(pp, ll, ' ', line, col))
                    return false;
                continue;
            }
            if ((c == '/' && c2 == '/') || c == ';') {
                /* To the end of the line (a splice continues it, as in C). */
                for (;;) {
                    int d = cur(fs, f);
                    if (d < 0 || d == '\n')
                        break;
                    step(fs, f);
                }
                continue;
            }
        }
        if (!seen_nonblank && !is_blank((unsigned char)c)) {
            seen_nonblank = true;
            ll->directive = c == '#';
        }
        if (ll->directive && c == '"') {
            in_string = !in_string;
        } else if (in_string && c == '\\' && c2 >= 0 && c2 != '\n') {
            /* An escaped character in a directive's string: both bytes. */
            if (!ll_put(pp, ll, (char)c, line, col))
                return false;
            step(fs, f);
            c = cur(fs, f);
            line = fs->line;
            col = fs->col;
        }
        if (!ll_put(pp, ll, (char)c, line, col))
            return false;
        step(fs, f);
    }
    return !pp->oom;
}

/*
 * The first character of what follows in fs (white space, comments and
 * line breaks skipped, when across_lines), without reading it: -1 at the
 * end of the file, at a line break (when !across_lines), or at a '#' that
 * starts a line (a directive).
 */
static int peek_next(struct pp *pp, const struct fstate *fs0, bool line_start)
{
    const struct pp_file *f = &pp->files.v[fs0->file];
    struct fstate fs = *fs0;
    for (;;) {
        int c = cur(&fs, f);
        if (c < 0)
            return -1;
        int c2 = peek2(&fs, f);
        if (c == '\n') {
            line_start = true;
            step(&fs, f);
        } else if (is_blank((unsigned char)c)) {
            step(&fs, f);
        } else if (c == '/' && c2 == '*') {
            step(&fs, f);
            cur(&fs, f);
            step(&fs, f);
            for (;;) {
                int d = cur(&fs, f);
                if (d < 0)
                    return -1;
                int d2 = peek2(&fs, f);
                step(&fs, f);
                if (d == '*' && d2 == '/') {
                    cur(&fs, f);
                    step(&fs, f);
                    break;
                }
            }
        } else if ((c == '/' && c2 == '/') || c == ';') {
            for (;;) {
                int d = cur(&fs, f);
                if (d < 0 || d == '\n')
                    break;
                step(&fs, f);
            }
        } else {
            return line_start && c == '#' ? -1 : c;
        }
    }
}

/* ------------------------------------------------------------------ */
/* Tokens.                                                             */

static const char *const puncts2[] = {"##", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||"};

/* The length of the token at s[0..n) and its kind. */
static uint32_t lex_at(const char *s, uint32_t n, enum pp_kind *kind, bool strings)
{
    unsigned char c = (unsigned char)s[0];
    uint32_t i = 1;
    if (is_ident_start(c)) {
        while (i < n && is_ident_char((unsigned char)s[i]))
            i++;
        *kind = PT_IDENT;
        return i;
    }
    if (is_digit(c) || (c == '.' && n > 1 && is_digit((unsigned char)s[1]))) {
        /* A pp-number: digits, letters, '_', '.', and e+ e- p+ p-. */
        while (i < n) {
            unsigned char d = (unsigned char)s[i];
            if ((d == '+' || d == '-') &&
                (s[i - 1] == 'e' || s[i - 1] == 'E' || s[i - 1] == 'p' || s[i - 1] == 'P'))
                i++;
            else if (is_ident_char(d) || d == '.')
                i++;
            else
                break;
        }
        *kind = PT_NUMBER;
        return i;
    }
    if (c == '"' && strings) {
        while (i < n && s[i] != '"') {
            if (s[i] == '\\' && i + 1 < n)
                i++;
            i++;
        }
        if (i < n) {
            *kind = PT_STRING;
            return i + 1;
        }
        *kind = PT_OTHER;
        return 1;
    }
    if (n >= 3 && memcmp(s, "...", 3) == 0) {
        *kind = PT_PUNCT;
        return 3;
    }
    for (size_t k = 0; k < sizeof(puncts2) / sizeof(puncts2[0]); k++)
        if (n >= 2 && memcmp(s, puncts2[k], 2) == 0) {
            *kind = PT_PUNCT;
            return 2;
        }
    if (c >= 0x21 && c < 0x7f && c != '"' && c != '\'' && c != '`' && c != '$' && c != '@' &&
        c != '\\') {
        *kind = PT_PUNCT;
        return 1;
    }
    /* Anything else; a UTF-8 sequence is one. */
    if (c >= 0xc0)
        while (i < n && is_cont((unsigned char)s[i]))
            i++;
    *kind = PT_OTHER;
    return i;
}

bool pp_lex_one(const char *text, uint32_t len, enum pp_kind *kind)
{
    return len && lex_at(text, len, kind, true) == len;
}

/* A token that runs over a line splice ("set\\" then "p_gt") gets where
 * each of its physical pieces starts, so that a column inside it maps to
 * the physical line it is on. */
static bool note_splices(struct pp *pp, struct pp_tok *t, uint32_t at)
{
    const struct lpos *p = pp->ll.pos.v + at;
    uint32_t n = 0;
    for (uint32_t j = 1; j < t->len; j++)
        n += p[j].line != p[j - 1].line;
    if (!n)
        return true;
    struct pp_splice *sp = st_arena_alloc(pp->scratch, n * sizeof(*sp));
    if (!sp) {
        pp->oom = true;
        return false;
    }
    t->splices = sp;
    t->nsplices = n;
    t->spliced = t->text;
    for (uint32_t j = 1, k = 0; j < t->len; j++)
        if (p[j].line != p[j - 1].line)
            sp[k++] = (struct pp_splice){j, {pp->ll.inst, p[j].line, p[j].col}};
    return true;
}

/* Tokens of pp->ll from byte `from` on, appended to v. */
static bool tokenize(struct pp *pp, uint32_t from, struct pp_vec *v, bool first_space)
{
    const struct lline *ll = &pp->ll;
    const char *s = ll->buf.v;
    uint32_t n = ll->buf.n, i = from;
    bool space = first_space;
    while (i < n) {
        if (is_blank((unsigned char)s[i])) {
            space = true;
            i++;
            continue;
        }
        struct pp_tok t;
        memset(&t, 0, sizeof(t));
        enum pp_kind k;
        uint32_t len = lex_at(s + i, n - i, &k, ll->directive);
        t.text = st_arena_strndup(pp->scratch, s + i, len);
        if (st_arena_failed(pp->scratch)) {
            pp->oom = true;
            return false;
        }
        t.kind = (uint8_t)k;
        t.len = len;
        t.space = space;
        t.pos = ll_pos(ll, i);
        t.macro = -1;
        if (!note_splices(pp, &t, i))
            return false;
        if (!pp_vec_push(pp, v, &t))
            return false;
        space = false;
        i += len;
    }
    return true;
}

static bool tok_is(const struct pp_tok *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->text, s, n) == 0;
}

/* ------------------------------------------------------------------ */
/* Macros: a hash table of names, each naming its current definition. */

static uint32_t hash(const char *s, uint32_t n)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static int32_t lookup_slot(const struct pp *pp, const char *s, uint32_t n)
{
    if (!pp->slots)
        return -1;
    uint32_t h = hash(s, n) & (pp->slot_cap - 1);
    while (pp->slots[h].name) {
        if (pp->slots[h].len == n && memcmp(pp->slots[h].name, s, n) == 0)
            return (int32_t)h;
        h = (h + 1) & (pp->slot_cap - 1);
    }
    return -1;
}

/* The slot of a name, created when missing.  Only between lines: slot
 * numbers change when the table grows (no expansion is under way then). */
static int32_t make_slot(struct pp *pp, const char *s, uint32_t n)
{
    int32_t found = lookup_slot(pp, s, n);
    if (found >= 0)
        return found;
    if ((pp->nslots + 1) * 2 > pp->slot_cap) {
        uint32_t cap = pp->slot_cap ? pp->slot_cap * 2 : 256;
        struct slot *ns = calloc(cap, sizeof(*ns));
        if (!ns || cap > (1u << 30)) {
            free(ns);
            pp->oom = true;
            return -1;
        }
        for (uint32_t i = 0; i < pp->slot_cap; i++) {
            if (!pp->slots[i].name)
                continue;
            uint32_t h = hash(pp->slots[i].name, pp->slots[i].len) & (cap - 1);
            while (ns[h].name)
                h = (h + 1) & (cap - 1);
            ns[h] = pp->slots[i];
        }
        free(pp->slots);
        pp->slots = ns;
        pp->slot_cap = cap;
    }
    uint32_t h = hash(s, n) & (pp->slot_cap - 1);
    while (pp->slots[h].name)
        h = (h + 1) & (pp->slot_cap - 1);
    pp->slots[h].name = st_arena_strndup(pp->scratch, s, n);
    if (st_arena_failed(pp->scratch)) {
        pp->oom = true;
        return -1;
    }
    pp->slots[h].len = n;
    pp->slots[h].def = -1;
    pp->nslots++;
    return (int32_t)h;
}

int32_t pp_macro_slot(struct pp *pp, const char *s, uint32_t len)
{
    return lookup_slot(pp, s, len);
}

struct pp_macro *pp_macro_at(struct pp *pp, int32_t slot)
{
    if (slot < 0 || (uint32_t)slot >= pp->slot_cap || pp->slots[slot].def < 0)
        return NULL;
    struct pp_macro *m = &pp->defs.v[pp->slots[slot].def];
    return m->defined ? m : NULL;
}

bool pp_macro_disabled(struct pp *pp, int32_t slot)
{
    return slot >= 0 && (uint32_t)slot < pp->slot_cap && pp->slots[slot].active;
}

void pp_macro_disable(struct pp *pp, int32_t slot, int delta)
{
    if (slot >= 0 && (uint32_t)slot < pp->slot_cap)
        pp->slots[slot].active += (uint32_t)delta;
}

int32_t pp_macro_index(struct pp *pp, const struct pp_macro *m)
{
    return (int32_t)(m - pp->defs.v);
}

static bool same_definition(const struct pp_macro *a, const struct pp_macro *b)
{
    if (a->function != b->function || a->variadic != b->variadic ||
        a->nparams != b->nparams || a->nbody != b->nbody || a->builtin != b->builtin)
        return false;
    for (uint32_t i = 0; i < a->nparams; i++)
        if (a->param_lens[i] != b->param_lens[i] ||
            memcmp(a->params[i], b->params[i], a->param_lens[i]) != 0)
            return false;
    for (uint32_t i = 0; i < a->nbody; i++) {
        const struct pp_tok *x = &a->body[i], *y = &b->body[i];
        if (x->kind != y->kind || x->len != y->len || (i && x->space != y->space) ||
            x->stringify != y->stringify || x->paste_after != y->paste_after ||
            x->param != y->param || memcmp(x->text, y->text, x->len) != 0)
            return false;
    }
    return true;
}

static void install(struct pp *pp, struct pp_macro *m)
{
    int32_t s = make_slot(pp, m->name, m->name_len);
    if (s < 0)
        return;
    const struct pp_macro *old = pp_macro_at(pp, s);
    if (old && !same_definition(old, m)) {
        char where[300];
        pp_warning(pp, m->def, ST_W_PP_REDEFINED,
                   "macro '%s' redefined; this definition replaces the one at %s", m->name,
                   old->builtin ? "the start" : pp_where(pp, m->def, old->def, where, sizeof(where)));
    }
    if (!PUSH(pp, pp->defs, *m))
        return;
    char note[200];
    snprintf(note, sizeof(note), "the macro '%.120s' is defined here", m->name);
    struct pp_mdef md = {arena_dup(pp, note, strlen(note)), m->def};
    PUSH(pp, pp->mdefs, md);
    pp->slots[s].def = (int32_t)pp->defs.n - 1;
}

/* #define NAME[(params)] body: t[0] is the name; `at` the directive. */
static void do_define(struct pp *pp, const struct pp_tok *t, uint32_t n, struct pp_pos at)
{
    if (n == 0) {
        pp_error(pp, at, ST_E_PP_DIRECTIVE, "#define needs a macro name");
        return;
    }
    if (t[0].kind != PT_IDENT) {
        pp_error(pp, t[0].pos, ST_E_PP_DIRECTIVE, "a macro name must be an identifier, found '%s'",
                 t[0].text);
        return;
    }
    if (tok_is(&t[0], "defined")) {
        pp_error(pp, t[0].pos, ST_E_PP_DIRECTIVE, "'defined' cannot be defined as a macro");
        return;
    }
    struct pp_macro m;
    memset(&m, 0, sizeof(m));
    m.name = t[0].text;
    m.name_len = t[0].len;
    m.defined = true;
    m.def = t[0].pos;
    uint32_t i = 1;
    if (i < n && tok_is(&t[i], "(") && !t[i].space) {
        m.function = true;
        i++;
        m.params = st_arena_alloc(pp->scratch, (size_t)n * sizeof(*m.params));
        m.param_lens = st_arena_alloc(pp->scratch, (size_t)n * sizeof(*m.param_lens));
        if (st_arena_failed(pp->scratch)) {
            pp->oom = true;
            return;
        }
        bool want_name = true, closed = false;
        while (i < n && !closed) {
            const struct pp_tok *p = &t[i++];
            if (want_name && tok_is(p, ")") && m.nparams == 0) {
                closed = true;
            } else if (want_name && tok_is(p, "...")) {
                m.variadic = true;
                m.params[m.nparams] = "__VA_ARGS__";
                m.param_lens[m.nparams++] = 11;
                if (i >= n || !tok_is(&t[i], ")")) {
                    pp_error(pp, i < n ? t[i].pos : p->pos, ST_E_PP_DIRECTIVE,
                             "'...' must be the last parameter of macro '%s'", m.name);
                    return;
                }
                i++;
                closed = true;
            } else if (want_name) {
                if (p->kind != PT_IDENT) {
                    pp_error(pp, p->pos, ST_E_PP_DIRECTIVE,
                             "expected a parameter name in the definition of '%s', found '%s'",
                             m.name, p->text);
                    return;
                }
                for (uint32_t k = 0; k < m.nparams; k++)
                    if (m.param_lens[k] == p->len && memcmp(m.params[k], p->text, p->len) == 0) {
                        pp_error(pp, p->pos, ST_E_PP_DIRECTIVE,
                                 "macro '%s' names the parameter '%s' twice", m.name, p->text);
                        return;
                    }
                m.params[m.nparams] = p->text;
                m.param_lens[m.nparams++] = p->len;
                want_name = false;
            } else if (tok_is(p, ",")) {
                want_name = true;
            } else if (tok_is(p, ")")) {
                closed = true;
            } else {
                pp_error(pp, p->pos, ST_E_PP_DIRECTIVE,
                         "expected ',' or ')' in the parameters of '%s', found '%s'", m.name,
                         p->text);
                return;
            }
        }
        if (!closed) {
            pp_error(pp, t[n - 1].pos, ST_E_PP_DIRECTIVE,
                     "missing ')' after the parameters of macro '%s'", m.name);
            return;
        }
    }
    /* The body: parameters become PT_PARAM; '#' and '##' become flags. */
    struct pp_tok *body = st_arena_alloc(pp->scratch, (size_t)(n - i + 1) * sizeof(*body));
    if (st_arena_failed(pp->scratch)) {
        pp->oom = true;
        return;
    }
    uint32_t nb = 0;
    bool stringify = false, stringify_space = false;
    struct pp_pos hash_at = at;
    for (; i < n; i++) {
        struct pp_tok b = t[i];
        b.noexpand = false;
        b.macro = -1;
        b.stringify = b.paste_after = false;
        if (m.function && b.kind == PT_IDENT)
            for (uint32_t k = 0; k < m.nparams; k++)
                if (m.param_lens[k] == b.len && memcmp(m.params[k], b.text, b.len) == 0) {
                    b.kind = PT_PARAM;
                    b.param = k;
                }
        if (stringify) {
            if (b.kind != PT_PARAM) {
                pp_error(pp, hash_at, ST_E_PP_DIRECTIVE,
                         "'#' in macro '%s' is not followed by a parameter", m.name);
                return;
            }
            b.stringify = true;
            b.space = stringify_space;
            stringify = false;
        } else if (m.function && tok_is(&b, "#")) {
            stringify = true;
            stringify_space = b.space;
            hash_at = b.pos;
            continue;
        } else if (tok_is(&b, "##")) {
            if (nb == 0 || i + 1 == n) {
                pp_error(pp, b.pos, ST_E_PP_DIRECTIVE,
                         "'##' cannot be at either end of the definition of '%s'", m.name);
                return;
            }
            body[nb - 1].paste_after = true;
            continue;
        }
        if (nb == 0)
            b.space = false;
        body[nb++] = b;
    }
    if (stringify) {
        pp_error(pp, hash_at, ST_E_PP_DIRECTIVE,
                 "'#' in macro '%s' is not followed by a parameter", m.name);
        return;
    }
    m.body = body;
    m.nbody = nb;
    install(pp, &m);
}

static void define_builtin(struct pp *pp, const char *name, int which)
{
    struct pp_macro m;
    memset(&m, 0, sizeof(m));
    m.name = name;
    m.name_len = (uint32_t)strlen(name);
    m.defined = true;
    m.builtin = which;
    install(pp, &m);
}

/* ------------------------------------------------------------------ */
/* Conditionals.                                                       */

static bool active(const struct pp *pp)
{
    return pp->conds.n == 0 || pp->conds.v[pp->conds.n - 1].active;
}

/* Replaces `defined X` and `defined ( X )` by 1 or 0 (before and after
 * expansion: a macro that expands to `defined` works as in GCC). */
static bool replace_defined(struct pp *pp, struct pp_vec *v)
{
    uint32_t o = 0;
    for (uint32_t i = 0; i < v->n; i++) {
        struct pp_tok t = v->v[i];
        if (t.kind == PT_IDENT && tok_is(&t, "defined")) {
            uint32_t j = i + 1;
            bool paren = j < v->n && tok_is(&v->v[j], "(");
            if (paren)
                j++;
            if (j >= v->n || v->v[j].kind != PT_IDENT) {
                pp_error_tok(pp, &t, ST_E_PP_EXPRESSION, "'defined' needs a macro name");
                return false;
            }
            bool is = pp_macro_at(pp, lookup_slot(pp, v->v[j].text, v->v[j].len)) != NULL;
            if (paren) {
                if (j + 1 >= v->n || !tok_is(&v->v[j + 1], ")")) {
                    pp_error_tok(pp, &t, ST_E_PP_EXPRESSION, "missing ')' after 'defined(%s'",
                                 v->v[j].text);
                    return false;
                }
                j++;
            }
            t.kind = PT_NUMBER;
            t.text = is ? "1" : "0";
            t.len = 1;
            i = j;
        }
        v->v[o++] = t;
    }
    v->n = o;
    return true;
}

/* The value of an #if/#elif line's tokens. */
static bool condition(struct pp *pp, const struct pp_tok *t, uint32_t n, struct pp_pos at)
{
    struct pp_vec raw = {NULL, 0, 0}, exp = {NULL, 0, 0};
    bool value = false;
    for (uint32_t i = 0; i < n; i++)
        if (!pp_vec_push(pp, &raw, &t[i]))
            goto out;
    if (!replace_defined(pp, &raw))
        goto out;
    if (!pp_expand_if(pp, raw.v, raw.n, &exp) || !replace_defined(pp, &exp))
        goto out;
    int64_t v = 0;
    if (pp_eval(pp, exp.v, exp.n, at, &v))
        value = v != 0;
out:
    free(raw.v);
    free(exp.v);
    return value;
}

static struct cond *top_cond(struct pp *pp, const struct fstate *fs, const struct pp_tok *dir)
{
    if (pp->conds.n <= fs->cond_base) {
        pp_error(pp, dir->pos, ST_E_PP_CONDITIONAL, "#%s without #if", dir->text);
        return NULL;
    }
    return &pp->conds.v[pp->conds.n - 1];
}

static void extra_tokens(struct pp *pp, const struct pp_tok *t, uint32_t n, const char *dir)
{
    if (n)
        pp_warning(pp, t[0].pos, ST_W_PP_EXTRA_TOKENS, "extra text after #%s ignored", dir);
}

/* #if, #ifdef, #ifndef, #elif, #elifdef, #elifndef, #else, #endif.  `t`
 * are the tokens after the directive's name. */
static void conditional(struct pp *pp, struct fstate *fs, const struct pp_tok *dir,
                        const struct pp_tok *t, uint32_t n)
{
    bool is_if = tok_is(dir, "if"), is_ifdef = tok_is(dir, "ifdef"),
         is_ifndef = tok_is(dir, "ifndef");
    bool is_elif = tok_is(dir, "elif"), is_elifdef = tok_is(dir, "elifdef"),
         is_elifndef = tok_is(dir, "elifndef");
    bool defined_form = is_ifdef || is_ifndef || is_elifdef || is_elifndef;
    if (is_if || is_ifdef || is_ifndef) {
        struct cond c = {dir->pos, is_if ? "if" : is_ifdef ? "ifdef" : "ifndef", active(pp),
                         false, false, false};
        if (c.outer_active) {
            bool v = false;
            if (defined_form) {
                if (n == 0 || t[0].kind != PT_IDENT)
                    pp_error(pp, n ? t[0].pos : dir->pos, ST_E_PP_DIRECTIVE,
                             "#%s needs a macro name", dir->text);
                else {
                    v = pp_macro_at(pp, lookup_slot(pp, t[0].text, t[0].len)) != NULL;
                    v = is_ifndef ? !v : v;
                    extra_tokens(pp, t + 1, n - 1, dir->text);
                }
            } else if (n == 0) {
                pp_error(pp, dir->pos, ST_E_PP_EXPRESSION, "#if without an expression");
            } else {
                v = condition(pp, t, n, dir->pos);
            }
            c.taken = c.active = v;
        }
        PUSH(pp, pp->conds, c);
        return;
    }
    struct cond *c = top_cond(pp, fs, dir);
    if (!c)
        return;
    if (is_elif || is_elifdef || is_elifndef) {
        if (c->seen_else) {
            pp_error(pp, dir->pos, ST_E_PP_CONDITIONAL, "#%s after #else", dir->text);
            c->active = false;
            return;
        }
        if (!c->outer_active || c->taken) {
            c->active = false;
            return;
        }
        bool v = false;
        if (defined_form) {
            if (n == 0 || t[0].kind != PT_IDENT)
                pp_error(pp, n ? t[0].pos : dir->pos, ST_E_PP_DIRECTIVE,
                         "#%s needs a macro name", dir->text);
            else
                v = (pp_macro_at(pp, lookup_slot(pp, t[0].text, t[0].len)) != NULL) ==
                    is_elifdef;
        } else if (n == 0) {
            pp_error(pp, dir->pos, ST_E_PP_EXPRESSION, "#elif without an expression");
        } else {
            v = condition(pp, t, n, dir->pos);
        }
        c = &pp->conds.v[pp->conds.n - 1]; /* condition() may have grown nothing, but be safe */
        c->active = c->taken = v;
    } else if (tok_is(dir, "else")) {
        if (c->seen_else) {
            char where[300];
            pp_error(pp, dir->pos, ST_E_PP_CONDITIONAL, "second #else for the #%s at %s",
                     c->name, pp_where(pp, dir->pos, c->at, where, sizeof(where)));
            c->active = false;
            return;
        }
        c->seen_else = true;
        c->active = c->outer_active && !c->taken;
        c->taken = true;
        if (c->outer_active)
            extra_tokens(pp, t, n, "else");
    } else { /* endif */
        if (c->outer_active)
            extra_tokens(pp, t, n, "endif");
        pp->conds.n--;
    }
}

/* ------------------------------------------------------------------ */
/* #include.                                                           */

/* Reads a whole file; errno-like reason in *why when it cannot. */
static char *read_whole(const char *path, size_t *len, const char **why)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        *why = errno == ENOENT ? NULL : errno == EACCES ? "permission denied" : "cannot open it";
        return NULL;
    }
    bool oom;
    char *buf = st_read_stream(f, len, &oom);
    fclose(f);
    if (!buf)
        *why = oom ? "out of memory" : "read error (a directory?)";
    return buf;
}

static char *join_path(const char *dir, size_t dlen, const char *name)
{
    size_t nl = strlen(name);
    char *p = malloc(dlen + nl + 2);
    if (!p)
        return NULL;
    memcpy(p, dir, dlen);
    size_t k = dlen;
    if (dlen && dir[dlen - 1] != '/')
        p[k++] = '/';
    memcpy(p + k, name, nl + 1);
    return p;
}

static bool once_seen(const struct pp *pp, const char *path)
{
    for (uint32_t i = 0; i < pp->files.n; i++)
        if (pp->files.v[i].once && strcmp(pp->files.v[i].name, path) == 0)
            return true;
    return false;
}

/* Opens `name` for the instance reading it; pushes it.  at: the name. */
static void include_file(struct pp *pp, const char *name, bool system, struct pp_pos at)
{
    const struct fstate *fs = &pp->stack.v[pp->stack.n - 1];
    const char *includer = pp->files.v[fs->file].name;
    int32_t parent = (int32_t)fs->inst;
    if (pp->stack.n > PP_MAX_INCLUDE_DEPTH) {
        /* Almost surely a file including itself: going on would repeat
         * every error of every level, so this ends preprocessing. */
        pp_error(pp, at, ST_E_PP_INCLUDE,
                 "#include nested more than %d deep (does '%s' include itself?); stopped here",
                 PP_MAX_INCLUDE_DEPTH, name);
        pp->fatal = true;
        return;
    }
    if (pp->opt && pp->opt->include) {
        struct st_include_file inc;
        memset(&inc, 0, sizeof(inc));
        if (pp->opt->include(pp->opt->user, name, system ? 1 : 0, includer, &inc) != 0) {
            pp_error(pp, at, ST_E_PP_INCLUDE, "cannot find the include file '%s'", name);
            return;
        }
        const char *path = inc.path ? inc.path : name;
        int32_t file = -1;
        if (!inc.data && inc.len)
            pp_error(pp, at, ST_E_PP_INCLUDE, "the include callback gave '%s' no data", path);
        else if (inc.len > UINT32_MAX / 4)
            pp_error(pp, at, ST_E_PP_INCLUDE, "the include file '%s' is too large", path);
        else if (!once_seen(pp, path))
            file = add_file(pp, path, inc.data ? inc.data : "", inc.len);
        if (pp->opt->release)
            pp->opt->release(pp->opt->user, &inc);
        if (file >= 0)
            push_file(pp, (uint32_t)file, parent, at);
        return;
    }
    /* The file system: "name" next to the includer, then the -I list. */
    const char *why = NULL, *why_path = NULL;
    char *found = NULL, *data = NULL;
    size_t len = 0;
    unsigned ndirs = pp->opt ? pp->opt->num_include_dirs : 0;
    for (int k = system && name[0] != '/' ? 0 : -1; k < (int)ndirs && !found; k++) {
        char *path;
        if (name[0] == '/') {
            path = join_path("", 0, name);
            k = (int)ndirs;
        } else if (k < 0) {
            const char *slash = strrchr(includer, '/');
            bool real = includer[0] != '<'; /* not "<stdin>", "<command line>" */
            path = join_path(includer, real && slash ? (size_t)(slash - includer + 1) : 0, name);
        } else {
            const char *d = pp->opt->include_dirs[k];
            path = join_path(d ? d : "", d ? strlen(d) : 0, name);
        }
        if (!path) {
            pp->oom = true;
            return;
        }
        const char *w = NULL;
        data = read_whole(path, &len, &w);
        if (data) {
            found = path;
        } else {
            if (w && !why) {
                why = w;
                why_path = arena_dup(pp, path, strlen(path));
            }
            free(path);
        }
    }
    if (!found) {
        if (why)
            pp_error(pp, at, ST_E_PP_INCLUDE, "cannot read the include file '%s': %s", why_path,
                     why);
        else
            pp_error(pp, at, ST_E_PP_INCLUDE, "cannot find the include file '%s'%s", name,
                     system && ndirs == 0 ? " (no include directories given: -I)" : "");
        return;
    }
    if (len > UINT32_MAX / 4) {
        pp_error(pp, at, ST_E_PP_INCLUDE, "the include file '%s' is too large", found);
    } else if (!once_seen(pp, found)) {
        int32_t file = add_file(pp, found, data, len);
        if (file >= 0)
            push_file(pp, (uint32_t)file, parent, at);
    }
    free(found);
    free(data);
}

/* The text of a string token without its quotes ("\"" and "\\" undone). */
static char *unquote(struct pp *pp, const struct pp_tok *t)
{
    char *s = st_arena_alloc(pp->scratch, t->len);
    if (st_arena_failed(pp->scratch)) {
        pp->oom = true;
        return NULL;
    }
    uint32_t k = 0;
    for (uint32_t i = 1; i + 1 < t->len; i++) {
        if (t->text[i] == '\\' && i + 2 < t->len && (t->text[i + 1] == '"' || t->text[i + 1] == '\\'))
            i++;
        s[k++] = t->text[i];
    }
    s[k] = '\0';
    return s;
}

static void do_include(struct pp *pp, const struct pp_tok *dir, const struct pp_tok *t, uint32_t n)
{
    struct pp_vec exp = {NULL, 0, 0};
    if (n && t[0].kind != PT_STRING && !tok_is(&t[0], "<")) {
        /* #include MACRO */
        if (!pp_expand(pp, t, n, false, &exp))
            goto out;
        t = exp.v;
        n = exp.n;
    }
    if (n == 0) {
        pp_error(pp, dir->pos, ST_E_PP_DIRECTIVE, "#include needs a file name: \"name\" or <name>");
        goto out;
    }
    if (t[0].kind == PT_STRING) {
        char *name = unquote(pp, &t[0]);
        if (!name)
            goto out;
        extra_tokens(pp, t + 1, n - 1, "include");
        if (!name[0])
            pp_error(pp, t[0].pos, ST_E_PP_DIRECTIVE, "#include \"\": an empty file name");
        else
            include_file(pp, name, false, t[0].pos);
    } else if (tok_is(&t[0], "<")) {
        /* <name>: the tokens up to '>' spelled again. */
        size_t total = 0;
        uint32_t end = 1;
        while (end < n && !tok_is(&t[end], ">")) {
            total += t[end].len + 1;
            end++;
        }
        if (end == n) {
            pp_error(pp, t[0].pos, ST_E_PP_DIRECTIVE, "missing '>' after #include <");
            goto out;
        }
        char *name = st_arena_alloc(pp->scratch, total + 1);
        if (st_arena_failed(pp->scratch)) {
            pp->oom = true;
            goto out;
        }
        size_t k = 0;
        for (uint32_t i = 1; i < end; i++) {
            if (i > 1 && t[i].space)
                name[k++] = ' ';
            memcpy(name + k, t[i].text, t[i].len);
            k += t[i].len;
        }
        name[k] = '\0';
        extra_tokens(pp, t + end + 1, n - end - 1, "include");
        if (!name[0])
            pp_error(pp, t[0].pos, ST_E_PP_DIRECTIVE, "#include <>: an empty file name");
        else
            include_file(pp, name, true, t[0].pos);
    } else {
        pp_error(pp, t[0].pos, ST_E_PP_DIRECTIVE,
                 "#include needs a file name: \"name\" or <name>, found '%s'", t[0].text);
    }
out:
    free(exp.v);
}

/* ------------------------------------------------------------------ */
/* #line, #error, #warning, #pragma.                                   */

static void do_line(struct pp *pp, struct fstate *fs, const struct pp_tok *dir,
                    const struct pp_tok *t, uint32_t n, bool marker)
{
    struct pp_vec exp = {NULL, 0, 0};
    if (!marker) {
        if (!pp_expand(pp, t, n, false, &exp))
            goto out;
        t = exp.v;
        n = exp.n;
    }
    if (n == 0 || t[0].kind != PT_NUMBER) {
        pp_error(pp, n ? t[0].pos : dir->pos, ST_E_PP_DIRECTIVE,
                 "#line needs a line number%s%s%s", n ? ", found '" : "", n ? t[0].text : "",
                 n ? "'" : "");
        goto out;
    }
    uint64_t v = 0;
    for (uint32_t i = 0; i < t[0].len; i++) {
        char c = t[0].text[i];
        if (c < '0' || c > '9' || v > 2147483647u) {
            v = UINT64_MAX;
            break;
        }
        v = v * 10 + (uint64_t)(c - '0');
    }
    if (v > 2147483647u) {
        pp_error(pp, t[0].pos, ST_E_PP_DIRECTIVE,
                 "#line needs a decimal line number up to 2147483647, found '%s'", t[0].text);
        goto out;
    }
    const char *name = NULL;
    if (n >= 2) {
        if (t[1].kind != PT_STRING) {
            pp_error(pp, t[1].pos, ST_E_PP_DIRECTIVE, "#line takes a file name in quotes, found '%s'",
                     t[1].text);
            goto out;
        }
        const char *u = unquote(pp, &t[1]);
        if (!u)
            goto out;
        name = arena_dup(pp, u, strlen(u));
        if (!marker)
            extra_tokens(pp, t + 2, n - 2, "line");
    }
    struct pp_inst *in = &pp->insts.v[fs->inst];
    if (!name)
        name = shown_name(pp->files.v, in, fs->line);
    /* From the next physical line on. */
    struct pp_linedir d = {fs->line, (int64_t)v - fs->line, name};
    if (!grow((void **)&in->dirs, &in->capdirs, in->ndirs + 1, sizeof(*in->dirs))) {
        pp->oom = true;
        goto out;
    }
    in->dirs[in->ndirs++] = d;
out:
    free(exp.v);
}

/* The directive's text after its name, trimmed. */
static void rest_of_line(const struct lline *ll, const struct pp_tok *dir, const char **s,
                         size_t *n)
{
    /* The name's byte offset: '#', blanks, name. */
    uint32_t i = 0;
    while (i < ll->buf.n && ll->buf.v[i] != '#')
        i++;
    i++;
    while (i < ll->buf.n && is_blank((unsigned char)ll->buf.v[i]))
        i++;
    i += dir->len;
    while (i < ll->buf.n && is_blank((unsigned char)ll->buf.v[i]))
        i++;
    uint32_t e = ll->buf.n;
    while (e > i && is_blank((unsigned char)ll->buf.v[e - 1]))
        e--;
    *s = ll->buf.v + i;
    *n = e > i ? e - i : 0;
}

/* ------------------------------------------------------------------ */
/* Directives.                                                         */

static void directive(struct pp *pp, uint32_t fsi)
{
    struct pp_vec v = {NULL, 0, 0};
    if (!tokenize(pp, 0, &v, false))
        goto out;
    struct fstate *fs = &pp->stack.v[fsi];
    /* v.v[0] is '#'. */
    if (v.n < 2)
        goto out; /* the null directive */
    const struct pp_tok *dir = &v.v[1], *t = v.v + 2;
    uint32_t n = v.n - 2;
    if (dir->kind == PT_NUMBER) { /* "# 12 "file"": a line marker, as cpp writes them */
        if (active(pp))
            do_line(pp, fs, &v.v[0], v.v + 1, v.n - 1, true);
        goto out;
    }
    if (dir->kind != PT_IDENT) {
        if (active(pp))
            pp_error(pp, dir->pos, ST_E_PP_DIRECTIVE, "'%s' after '#' is no preprocessor directive",
                     dir->text);
        goto out;
    }
    static const char *const conds[] = {"if", "ifdef", "ifndef", "elif", "elifdef",
                                        "elifndef", "else", "endif"};
    for (size_t k = 0; k < sizeof(conds) / sizeof(conds[0]); k++)
        if (tok_is(dir, conds[k])) {
            conditional(pp, fs, dir, t, n);
            goto out;
        }
    if (!active(pp))
        goto out;
    if (tok_is(dir, "define")) {
        do_define(pp, t, n, dir->pos);
    } else if (tok_is(dir, "undef")) {
        if (n == 0 || t[0].kind != PT_IDENT) {
            pp_error(pp, n ? t[0].pos : dir->pos, ST_E_PP_DIRECTIVE, "#undef needs a macro name");
        } else {
            int32_t s = lookup_slot(pp, t[0].text, t[0].len);
            if (s >= 0 && pp->slots[s].def >= 0)
                pp->defs.v[pp->slots[s].def].defined = false;
            extra_tokens(pp, t + 1, n - 1, "undef");
        }
    } else if (tok_is(dir, "include")) {
        do_include(pp, dir, t, n);
    } else if (tok_is(dir, "line")) {
        do_line(pp, fs, dir, t, n, false);
    } else if (tok_is(dir, "error") || tok_is(dir, "warning")) {
        const char *s;
        size_t len;
        rest_of_line(&pp->ll, dir, &s, &len);
        bool err = tok_is(dir, "error");
        if (err)
            pp_error(pp, dir->pos, ST_E_PP_ERROR, "#error %.*s", (int)(len > 400 ? 400 : len), s);
        else
            pp_warning(pp, dir->pos, ST_W_PP_WARNING, "#warning %.*s",
                       (int)(len > 400 ? 400 : len), s);
    } else if (tok_is(dir, "pragma")) {
        if (n && tok_is(&t[0], "once")) {
            pp->files.v[fs->file].once = true;
            extra_tokens(pp, t + 1, n - 1, "pragma once");
        } else {
            const char *s;
            size_t len;
            rest_of_line(&pp->ll, dir, &s, &len);
            pp_warning(pp, dir->pos, ST_W_IGNORED, "#pragma %.*s ignored",
                       (int)(len > 200 ? 200 : len), s);
        }
    } else {
        pp_error(pp, dir->pos, ST_E_PP_DIRECTIVE, "unknown preprocessor directive '#%s'",
                 dir->text);
    }
out:
    free(v.v);
}

/* ------------------------------------------------------------------ */
/* Text lines.                                                         */

bool pp_source_next(struct pp *pp, struct pp_tok *t, bool more_lines)
{
    while (pp->line_i >= pp->line_toks.n) {
        /* Arguments of a macro go on over the next lines of the same file,
         * up to a directive (C leaves that undefined: we stop there). */
        if (!more_lines || pp->stack.n == 0 || pp_stopped(pp))
            return false;
        struct fstate *fs = &pp->stack.v[pp->stack.n - 1];
        if (peek_next(pp, fs, true) < 0)
            return false;
        if (!read_logical(pp, fs) || !tokenize(pp, 0, &pp->line_toks, true))
            return false;
    }
    *t = pp->line_toks.v[pp->line_i++];
    return true;
}

bool pp_source_peek_lparen(struct pp *pp, bool more_lines)
{
    if (pp->line_i < pp->line_toks.n)
        return tok_is(&pp->line_toks.v[pp->line_i], "(");
    if (!more_lines || pp->stack.n == 0)
        return false;
    return peek_next(pp, &pp->stack.v[pp->stack.n - 1], true) == '(';
}

static void text_line(struct pp *pp)
{
    struct pp_pos origin = {pp->ll.inst, pp->ll.first_line, 1};
    pp->line_toks.n = 0;
    pp->line_i = 0;
    pp->expanded.n = 0;
    if (!tokenize(pp, 0, &pp->line_toks, false))
        return;
    bool over = pp->budget.reported;
    pp->line_abort = false;
    pp_expand(pp, NULL, 0, true, &pp->expanded);
    /* A line whose expansion was cut short is not shown to the parser:
     * its remains would only bring more errors. */
    if ((pp->budget.reported && !over) || pp->line_abort)
        pp->expanded.n = 0;
    pp->line_abort = false;
    flush_pending(pp); /* diagnostics about the line go before it */
    begin_line(pp, origin, -1);
    for (uint32_t i = 0; i < pp->expanded.n; i++)
        emit_tok(pp, &pp->expanded.v[i]);
    end_line(pp);
}

/* ------------------------------------------------------------------ */
/* The locator.                                                        */

static struct st_place place_at(const struct pp_map *m, struct pp_pos pos, const char *note)
{
    struct st_place p;
    memset(&p, 0, sizeof(p));
    const struct pp_inst *in = &m->insts[pos.inst];
    const struct pp_file *f = &m->files[in->file];
    p.file = shown_name(m->files, in, pos.line);
    p.line = shown_line(in, pos.line);
    p.column = pos.col;
    p.note = note;
    if (pos.line >= 1 && pos.line <= f->nlines) {
        size_t b = f->line_off[pos.line - 1], e = b;
        if (pos.line == 1 && f->len >= 3 && memcmp(f->text, "\xef\xbb\xbf", 3) == 0)
            b = e = 3;
        while (e < f->len && f->text[e] != '\n')
            e++;
        if (e > b || pos.line < f->nlines) {
            p.text = f->text + b;
            p.text_len = e - b;
        }
    }
    return p;
}

static unsigned pp_locate(const void *mapv, struct st_loc loc, struct st_place *out,
                          unsigned max)
{
    const struct pp_map *m = mapv;
    struct pp_pos pos = m->eof;
    int32_t macro = -1;
    if (loc.line >= 1 && loc.line <= m->nlines) {
        uint32_t lo = m->line_first[loc.line - 1], hi = m->line_first[loc.line];
        /* The last piece that starts at or before the column. */
        uint32_t a = lo, b = hi;
        while (a < b) {
            uint32_t mid = a + (b - a) / 2;
            if (m->pieces[mid].out_col <= loc.column)
                a = mid + 1;
            else
                b = mid;
        }
        const struct pp_piece *pc = &m->pieces[a > lo ? a - 1 : lo];
        pos = pc->src;
        macro = pc->macro;
        if (macro < 0 && loc.column >= pc->out_col)
            pos.col += loc.column - pc->out_col;
    } else if (loc.line > m->nlines) {
        pos.col = 1;
    }
    unsigned n = 0;
    out[n++] = place_at(m, pos, NULL);
    if (macro >= 0 && n < max)
        out[n++] = place_at(m, m->mdefs[macro].def, m->mdefs[macro].note);
    for (int32_t i = (int32_t)pos.inst; m->insts[i].parent >= 0 && n < max; i = m->insts[i].parent)
        out[n++] = place_at(m, m->insts[i].site, "included from here");
    return n;
}

/* ------------------------------------------------------------------ */
/* The whole run.                                                      */

/* The -D definitions as the text of "#define" lines. */
static bool command_line(struct pp *pp, const struct st_pp_options *o, struct st_buf *b)
{
    for (unsigned i = 0; i < o->num_defines; i++) {
        const char *d = o->defines[i] ? o->defines[i] : "";
        const char *eq = strchr(d, '=');
        st_buf_printf(b, "#define ");
        size_t nl = eq ? (size_t)(eq - d) : strlen(d);
        for (size_t k = 0; k < nl; k++)
            st_buf_putc(b, d[k] == '\n' || d[k] == '\r' ? ' ' : d[k]);
        st_buf_putc(b, ' ');
        const char *v = eq ? eq + 1 : "1";
        for (; *v; v++)
            st_buf_putc(b, *v == '\n' || *v == '\r' ? ' ' : *v);
        st_buf_putc(b, '\n');
    }
    return !b->oom;
}

/* Whether the source needs the preprocessor at all: without a '#', a
 * comment start, a continuation or a -D it is its own output, and the
 * lexer reads it as it always did. */
static bool needs_preprocessing(const char *s, size_t n, const struct st_pp_options *o)
{
    if (o && o->num_defines)
        return true;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '#')
            return true;
        if (s[i] == '/' && i + 1 < n && s[i + 1] == '*')
            return true;
        if (s[i] == '\\' && (i + 1 < n && (s[i + 1] == '\n' || s[i + 1] == '\r')))
            return true;
    }
    return false;
}

#define ARENA_COPY(pp, dst, src, count)                                                     \
    do {                                                                                    \
        size_t bytes_ = (size_t)(count) * sizeof(*(src));                                   \
        void *p_ = st_arena_alloc((pp)->arena, bytes_ ? bytes_ : 1);                        \
        if (!p_ || st_arena_failed((pp)->arena)) {                                          \
            (pp)->oom = true;                                                               \
            break;                                                                          \
        }                                                                                   \
        if (bytes_)                                                                         \
            memcpy(p_, (src), bytes_);                                                      \
        (dst) = p_;                                                                         \
    } while (0)

/* Moves what the locator needs into the shader's arena and hands the
 * output to the context. */
static void finish(struct pp *pp, uint32_t main_inst)
{
    PUSH(pp, pp->line_first, pp->pieces.n);
    if (pp->oom)
        return;
    struct pp_map *m = st_arena_alloc(pp->arena, sizeof(*m));
    if (!m || st_arena_failed(pp->arena)) {
        pp->oom = true;
        return;
    }
    ARENA_COPY(pp, m->files, pp->files.v, pp->files.n);
    ARENA_COPY(pp, m->mdefs, pp->mdefs.v, pp->mdefs.n);
    ARENA_COPY(pp, m->pieces, pp->pieces.v, pp->pieces.n);
    ARENA_COPY(pp, m->line_first, pp->line_first.v, pp->line_first.n);
    struct pp_inst *insts = NULL;
    ARENA_COPY(pp, insts, pp->insts.v, pp->insts.n);
    if (pp->oom)
        return;
    for (uint32_t i = 0; i < pp->insts.n; i++) {
        insts[i].dirs = NULL;
        ARENA_COPY(pp, insts[i].dirs, pp->insts.v[i].dirs, pp->insts.v[i].ndirs);
    }
    m->insts = insts;
    m->nlines = pp->line_first.n - 1;
    const struct pp_file *mf = &pp->files.v[pp->insts.v[main_inst].file];
    m->eof = (struct pp_pos){main_inst, mf->nlines, 1};
    char *text = st_arena_alloc(pp->arena, pp->out.len + 1);
    if (!text || st_arena_failed(pp->arena) || pp->out.oom) {
        pp->oom = true;
        return;
    }
    if (pp->out.len)
        memcpy(text, pp->out.data, pp->out.len);
    text[pp->out.len] = '\0';
    st_ctx_set_text(pp->ctx, text, pp->out.len, pp_locate, m);
}

static void release(struct pp *pp)
{
    for (uint32_t i = 0; i < pp->insts.n; i++)
        free(pp->insts.v[i].dirs);
    free(pp->files.v);
    free(pp->insts.v);
    free(pp->stack.v);
    free(pp->conds.v);
    free(pp->defs.v);
    free(pp->mdefs.v);
    free(pp->pending.v);
    free(pp->slots);
    free(pp->ll.buf.v);
    free(pp->ll.pos.v);
    free(pp->line_toks.v);
    free(pp->expanded.v);
    free(pp->pieces.v);
    free(pp->line_first.v);
    st_buf_free(&pp->out);
    st_arena_destroy(pp->scratch);
}

bool st_preprocess_d3d9(struct st_ctx *ctx, struct st_arena *arena, const struct st_pp_options *o)
{
    size_t len;
    const char *src = st_ctx_source(ctx, &len);
    if (!src)
        len = 0;
    if (!needs_preprocessing(src, len, o))
        return true;
    if (len > UINT32_MAX / 4) {
        st_error(ctx, (struct st_loc){1, 1}, ST_E_NOT_SUPPORTED, "source text too large");
        return true;
    }

    struct pp pp;
    memset(&pp, 0, sizeof(pp));
    pp.ctx = ctx;
    pp.arena = arena;
    pp.opt = o;
    pp.scratch = st_arena_create();
    if (!pp.scratch) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    define_builtin(&pp, "__LINE__", 1);
    define_builtin(&pp, "__FILE__", 2);

    int32_t main_file = add_file(&pp, st_ctx_filename(ctx), src ? src : "", len);
    uint32_t main_inst = 0;
    struct pp_pos nowhere = {0, 0, 0};
    if (main_file >= 0 && push_file(&pp, (uint32_t)main_file, -1, nowhere)) {
        main_inst = pp.insts.n - 1;
        struct st_buf cl = {0};
        if (o && o->num_defines && command_line(&pp, o, &cl)) {
            int32_t f = add_file(&pp, "<command line>", cl.data, cl.len);
            if (f >= 0)
                push_file(&pp, (uint32_t)f, -1, nowhere);
        } else if (cl.oom) {
            pp.oom = true;
        }
        st_buf_free(&cl);
    }

    while (pp.stack.n && !pp_stopped(&pp)) {
        flush_pending(&pp);
        if (pp_stopped(&pp))
            break;
        uint32_t fsi = pp.stack.n - 1;
        struct fstate *fs = &pp.stack.v[fsi];
        if (!read_logical(&pp, fs)) {
            if (pp.oom)
                break;
            /* The end of a file closes nothing: #if ... #endif pair within a file. */
            for (uint32_t k = fs->cond_base; k < pp.conds.n; k++)
                pp_error(&pp, pp.conds.v[k].at, ST_E_PP_CONDITIONAL,
                         "#%s without #endif at the end of the file", pp.conds.v[k].name);
            pp.conds.n = fs->cond_base;
            pp.stack.n--;
            continue;
        }
        if (pp.ll.directive)
            directive(&pp, fsi);
        else if (active(&pp))
            text_line(&pp);
    }
    if (!pp.oom)
        flush_pending(&pp);
    if (!pp.oom)
        finish(&pp, main_inst);
    bool oom = pp.oom, fatal = pp.fatal;
    release(&pp);
    if (oom)
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
    return !oom && !fatal;
}
