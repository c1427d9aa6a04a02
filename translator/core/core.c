/*
 * core.c — the per-shader arena, growable text buffers and the message
 * context every stage reports through.
 *
 * No global state: everything hangs off objects the caller owns.
 */
#include <locale.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translator.h"

/* ------------------------------------------------------------------ */
/* Arena                                                               */

struct arena_block {
    struct arena_block *next;
    size_t used, size;
    max_align_t data[];
};

struct st_arena {
    struct arena_block *head;
    bool failed;
    struct st_ctx *report_to;
    max_align_t dummy[8]; /* handed out after a failed allocation */
};

struct st_arena *st_arena_create(void)
{
    return calloc(1, sizeof(struct st_arena));
}

void st_arena_destroy(struct st_arena *a)
{
    if (!a)
        return;
    for (struct arena_block *b = a->head, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    free(a);
}

void st_arena_reset(struct st_arena *a)
{
    /* keep the newest block for the next round; its size is the usual one */
    struct arena_block *keep = a->head;
    if (!keep)
        return;
    for (struct arena_block *b = keep->next, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    keep->next = NULL;
    keep->used = 0;
}

bool st_arena_failed(const struct st_arena *a)
{
    return a->failed;
}

void st_arena_report_to(struct st_arena *a, struct st_ctx *ctx)
{
    a->report_to = ctx;
}

static void arena_out_of_memory(struct st_arena *a)
{
    if (!a->failed && a->report_to)
        st_error(a->report_to, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
    a->failed = true;
}

void *st_arena_alloc(struct st_arena *a, size_t size)
{
    const size_t align = sizeof(max_align_t);
    size = (size + align - 1) / align * align;
    struct arena_block *b = a->head;
    if (!b || b->size - b->used < size) {
        size_t bsize = size > 16384 ? size : 16384;
        b = malloc(sizeof(*b) + bsize);
        if (!b) {
            arena_out_of_memory(a);
            /* Small nodes get a scratch block so parsers can keep going and
             * report; a large request has no such fallback. */
            if (size > sizeof(a->dummy))
                return NULL;
            memset(a->dummy, 0, sizeof(a->dummy));
            return a->dummy;
        }
        b->used = 0;
        b->size = bsize;
        b->next = a->head;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

char *st_arena_strndup(struct st_arena *a, const char *s, size_t n)
{
    char *p = st_arena_alloc(a, n + 1);
    if (!a->failed)
        memcpy(p, s, n);
    return p;
}

char *st_arena_printf(struct st_arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    char *p = st_arena_alloc(a, (size_t)n + 1);
    if (a->failed)
        return p;
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

/* ------------------------------------------------------------------ */
/* Block lists (the scanners' memory)                                  */

struct st_block {
    struct st_block *prev, *next;
    max_align_t data[];
};

static struct st_block *block_of(void *p)
{
    return (struct st_block *)(void *)((char *)p - offsetof(struct st_block, data));
}

static void *block_link(struct st_block_list *l, struct st_block *b)
{
    b->prev = NULL;
    b->next = l->head;
    if (l->head)
        l->head->prev = b;
    l->head = b;
    return b->data;
}

static void block_unlink(struct st_block_list *l, struct st_block *b)
{
    if (b->prev)
        b->prev->next = b->next;
    else
        l->head = b->next;
    if (b->next)
        b->next->prev = b->prev;
}

void *st_blocks_alloc(struct st_block_list *l, size_t n)
{
    if (n > SIZE_MAX - sizeof(struct st_block))
        return NULL;
    struct st_block *b = malloc(sizeof(*b) + n);
    return b ? block_link(l, b) : NULL;
}

void *st_blocks_realloc(struct st_block_list *l, void *p, size_t n)
{
    if (!p)
        return st_blocks_alloc(l, n);
    if (n > SIZE_MAX - sizeof(struct st_block))
        return NULL;
    struct st_block *b = block_of(p);
    block_unlink(l, b);
    struct st_block *q = realloc(b, sizeof(*q) + n);
    if (!q) {
        block_link(l, b); /* the old block stays, on the list */
        return NULL;
    }
    return block_link(l, q);
}

void st_blocks_free(struct st_block_list *l, void *p)
{
    if (!p)
        return;
    struct st_block *b = block_of(p);
    block_unlink(l, b);
    free(b);
}

void st_blocks_free_all(struct st_block_list *l)
{
    while (l->head) {
        struct st_block *b = l->head;
        l->head = b->next;
        free(b);
    }
}

/* ------------------------------------------------------------------ */
/* Growable buffers                                                    */

static bool buf_reserve(struct st_buf *b, size_t extra)
{
    if (b->oom)
        return false;
    if (b->len + extra + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        b->oom = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void st_buf_vprintf(struct st_buf *b, const char *fmt, va_list ap)
{
    /* print into the room left first; measure and grow only when it does not fit */
    va_list ap2;
    va_copy(ap2, ap);
    size_t room = b->data && !b->oom ? b->cap - b->len : 0;
    int n = vsnprintf(room ? b->data + b->len : NULL, room, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        if (room)
            b->data[b->len] = '\0';
        return;
    }
    if ((size_t)n < room) {
        b->len += (size_t)n;
        return;
    }
    if (room)
        b->data[b->len] = '\0'; /* keep the text terminated if growing fails */
    if (!buf_reserve(b, (size_t)n))
        return;
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void st_buf_printf(struct st_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    st_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void st_buf_putc(struct st_buf *b, char c)
{
    if (!buf_reserve(b, 1))
        return;
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
}

void st_buf_append(struct st_buf *b, const void *data, size_t n)
{
    if (!buf_reserve(b, n))
        return;
    if (n)
        memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = '\0';
}

char *st_read_stream(FILE *f, size_t *len, bool *oom)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
        if (n == cap - 1) {
            char *nb = cap < SIZE_MAX / 4 ? realloc(buf, cap * 2) : NULL;
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    *oom = !buf;
    if (!buf || ferror(f)) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

void st_float_text(float f, char buf[48])
{
    for (int prec = 6; prec <= 9; prec++) {
        snprintf(buf, 48, "%.*g", prec, (double)f);
        float back = strtof(buf, NULL);
        if (back == f && signbit(back) == signbit(f))
            break;
    }
    /* snprintf writes the locale's decimal point; our texts want '.'. */
    const char *dp = localeconv()->decimal_point;
    if (dp && dp[0] && strcmp(dp, ".") != 0) {
        char *at = strstr(buf, dp);
        if (at) {
            size_t dl = strlen(dp);
            *at = '.';
            memmove(at + 1, at + dl, strlen(at + dl) + 1);
        }
    }
}

void st_buf_free(struct st_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof(*b));
}

/* ------------------------------------------------------------------ */
/* Message context                                                     */

struct diag {
    enum st_severity severity;
    enum st_diag_code code;
    struct st_loc loc;
    char *message;
};

struct st_ctx {
    const char *filename;
    const char *source; /* as given */
    size_t source_len;
    const char *text;   /* what the parsers read: the source, or a preprocessor's output */
    size_t text_len;
    st_locate_fn locate; /* NULL: locations are in the source itself */
    const void *map;
    unsigned max_errors;
    unsigned errors, warnings;
    bool limit_reported, oom;
    struct diag *diags;
    size_t ndiags, cap;
    struct st_limits *limits; /* the call's budget; NULL: none */
    struct st_loc anchor;     /* where a budget error without location goes */
    bool stop_reported;       /* this context has reported limits->stopped */
    bool oom_reported;        /* ... or ST9001 */
};

struct st_ctx *st_ctx_create(const char *filename, const char *source, size_t len,
                             unsigned max_errors)
{
    struct st_ctx *ctx = calloc(1, sizeof(*ctx));
    if (!ctx)
        return NULL;
    ctx->filename = filename ? filename : "<input>";
    ctx->source = source;
    ctx->source_len = len;
    ctx->text = source;
    ctx->text_len = len;
    ctx->max_errors = max_errors ? max_errors : 50;
    ctx->anchor = (struct st_loc){1, 1};
    return ctx;
}

void st_ctx_destroy(struct st_ctx *ctx)
{
    if (!ctx)
        return;
    for (size_t i = 0; i < ctx->ndiags; i++)
        free(ctx->diags[i].message);
    free(ctx->diags);
    free(ctx);
}

const char *st_ctx_source(const struct st_ctx *ctx, size_t *len)
{
    *len = ctx->text_len;
    return ctx->text;
}

const char *st_ctx_original(const struct st_ctx *ctx, size_t *len)
{
    *len = ctx->source_len;
    return ctx->source;
}

void st_ctx_set_text(struct st_ctx *ctx, const char *text, size_t len, st_locate_fn locate,
                     const void *map)
{
    ctx->text = text;
    ctx->text_len = len;
    ctx->locate = locate;
    ctx->map = map;
}

const char *st_ctx_filename(const struct st_ctx *ctx)
{
    return ctx->filename;
}

unsigned st_error_count(const struct st_ctx *ctx)
{
    return ctx->errors + (ctx->oom ? 1 : 0);
}

const char *st_ctx_first_error(const struct st_ctx *ctx, struct st_loc *loc)
{
    for (size_t i = 0; i < ctx->ndiags; i++)
        if (ctx->diags[i].severity == ST_SEVERITY_ERROR) {
            if (loc)
                *loc = ctx->diags[i].loc;
            return ctx->diags[i].message;
        }
    return NULL;
}

const char *st_ctx_first_warning(const struct st_ctx *ctx, struct st_loc *loc)
{
    for (size_t i = 0; i < ctx->ndiags; i++)
        if (ctx->diags[i].severity == ST_SEVERITY_WARNING) {
            if (loc)
                *loc = ctx->diags[i].loc;
            return ctx->diags[i].message;
        }
    return NULL;
}

unsigned st_warning_count(const struct st_ctx *ctx)
{
    return ctx->warnings;
}

bool st_ctx_out_of_memory(const struct st_ctx *ctx)
{
    return ctx->oom || ctx->oom_reported;
}

bool st_error_limit_reached(const struct st_ctx *ctx)
{
    return ctx->errors >= ctx->max_errors;
}

static void add_diag(struct st_ctx *ctx, enum st_severity sev, struct st_loc loc,
                     enum st_diag_code code, const char *fmt, va_list ap)
{
    /* After the budget or the caller stopped the call, or memory ran out,
     * what stages say on their way out (a truncated parse, a pass left
     * half done) is noise. */
    if (ctx->stop_reported)
        return;
    if (code == ST_E_OUT_OF_MEMORY) {
        if (ctx->oom_reported)
            return;
        ctx->oom_reported = true;
    } else if (ctx->oom_reported) {
        return;
    }
    if (sev == ST_SEVERITY_ERROR) {
        if (ctx->errors >= ctx->max_errors) {
            /* Count it, but keep the list at the cap plus one notice. */
            ctx->errors++;
            if (ctx->limit_reported)
                return;
            ctx->limit_reported = true;
            code = ST_E_TOO_MANY_ERRORS;
            fmt = NULL;
        }
    }
    if (ctx->ndiags == ctx->cap) {
        size_t cap = ctx->cap ? ctx->cap * 2 : 16;
        struct diag *d = realloc(ctx->diags, cap * sizeof(*d));
        if (!d) {
            ctx->oom = true;
            return;
        }
        ctx->diags = d;
        ctx->cap = cap;
    }
    char *msg;
    if (fmt) {
        va_list ap2;
        va_copy(ap2, ap);
        int n = vsnprintf(NULL, 0, fmt, ap2);
        va_end(ap2);
        msg = malloc(n > 0 ? (size_t)n + 1 : 1);
        if (msg)
            vsnprintf(msg, n > 0 ? (size_t)n + 1 : 1, fmt, ap);
    } else {
        char tmp[96];
        snprintf(tmp, sizeof(tmp), "too many errors (%u); stopping here", ctx->max_errors);
        msg = strdup(tmp);
    }
    if (!msg) {
        ctx->oom = true;
        return;
    }
    struct diag *d = &ctx->diags[ctx->ndiags++];
    d->severity = sev;
    d->code = code;
    d->loc = loc;
    d->message = msg;
    if (sev == ST_SEVERITY_ERROR && code != ST_E_TOO_MANY_ERRORS)
        ctx->errors++;
    else if (sev == ST_SEVERITY_WARNING)
        ctx->warnings++;
}

void st_error(struct st_ctx *ctx, struct st_loc loc, enum st_diag_code code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_diag(ctx, ST_SEVERITY_ERROR, loc, code, fmt, ap);
    va_end(ap);
}

void st_warning(struct st_ctx *ctx, struct st_loc loc, enum st_diag_code code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_diag(ctx, ST_SEVERITY_WARNING, loc, code, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------ */
/* Limits                                                              */

void st_ctx_set_limits(struct st_ctx *ctx, struct st_limits *lim)
{
    ctx->limits = lim;
}

struct st_limits *st_ctx_limits(const struct st_ctx *ctx)
{
    return ctx->limits;
}

void st_ctx_set_anchor(struct st_ctx *ctx, struct st_loc loc)
{
    ctx->anchor = loc;
}

bool st_poll_at(struct st_ctx *ctx, struct st_loc loc, uint64_t work)
{
    /* (white-box tests run single passes without a context) */
    struct st_limits *l = ctx ? ctx->limits : NULL;
    if (!l)
        return true; /* the common case: nothing to count, nobody to ask */
    if (!l->stopped) {
        l->work += work;
        if (l->max_work && l->work > l->max_work)
            l->stopped = ST_E_BUDGET;
        else if (l->cancel && l->cancel(l->cancel_user))
            l->stopped = ST_E_CANCELLED;
        else
            return true;
    }
    /* Each context reports once: a probe context a stage throws away must
     * not take the only copy of the message with it. */
    if (!ctx->stop_reported) {
        if (!loc.line)
            loc = ctx->anchor;
        if (l->stopped == ST_E_BUDGET)
            st_error(ctx, loc, ST_E_BUDGET, "compile budget of %llu work units spent",
                     (unsigned long long)l->max_work);
        else
            st_error(ctx, loc, ST_E_CANCELLED, "cancelled by the caller");
        ctx->stop_reported = true;
    }
    return false;
}

bool st_poll(struct st_ctx *ctx, uint64_t work)
{
    return st_poll_at(ctx, (struct st_loc){0, 0}, work);
}

/* The text of line `line` (1-based), without its newline. */
static const char *find_line(const char *src, size_t len, unsigned line, size_t *out_len)
{
    size_t pos = 0;
    for (unsigned l = 1; l < line && pos < len; pos++)
        if (src[pos] == '\n')
            l++;
    if (pos >= len && !(line == 1 && len == 0))
        return NULL;
    size_t end = pos;
    while (end < len && src[end] != '\n')
        end++;
    if (end > pos && src[end - 1] == '\r')
        end--;
    *out_len = end - pos;
    return src + pos;
}

/* A copy of a source line for st_diagnostic.source_line.  A NUL byte in the
 * line would end the C string there, and a column after it would point past
 * the text: it is shown as a space, so the line keeps its length. */
static char *line_copy(const char *l, size_t len)
{
    char *s = malloc(len + 1);
    if (!s)
        return NULL;
    for (size_t k = 0; k < len; k++)
        s[k] = l[k] ? l[k] : ' ';
    s[len] = '\0';
    return s;
}

/* The diagnostics, sorted by position (stable), copied into one malloc'd
 * block per string so the result owns everything it points to. */
static int cmp_diag(const void *a, const void *b)
{
    const struct diag *x = *(const struct diag *const *)a, *y = *(const struct diag *const *)b;
    if (x->code == ST_E_TOO_MANY_ERRORS || y->code == ST_E_TOO_MANY_ERRORS)
        return (x->code == ST_E_TOO_MANY_ERRORS) - (y->code == ST_E_TOO_MANY_ERRORS);
    if (x->loc.line != y->loc.line)
        return x->loc.line < y->loc.line ? -1 : 1;
    if (x->loc.column != y->loc.column)
        return x->loc.column < y->loc.column ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* Notes one diagnostic may carry: its include chain (the preprocessor
 * allows 200 nested files) and a macro. */
enum { MAX_PLACES = 256 };

/* Where loc is: through the locator, or a line of the source itself. */
static unsigned place_of(const struct st_ctx *ctx, struct st_loc loc, struct st_place *out,
                         unsigned max)
{
    if (ctx->locate && loc.line) {
        unsigned n = ctx->locate(ctx->map, loc, out, max);
        if (n >= 1 && n <= max) {
            /* a locator's line may end in the '\r' of a CRLF file, which
             * source_line leaves out (find_line below does the same) */
            for (unsigned k = 0; k < n; k++)
                if (out[k].text && out[k].text_len && out[k].text[out[k].text_len - 1] == '\r')
                    out[k].text_len--;
            return n;
        }
    }
    memset(out, 0, sizeof(*out));
    out->line = loc.line;
    out->column = loc.column;
    if (loc.line)
        out->text = find_line(ctx->source, ctx->source_len, loc.line, &out->text_len);
    return 1;
}

const char *st_ctx_where(const struct st_ctx *ctx, struct st_loc here, struct st_loc there,
                         char *buf, size_t size)
{
    struct st_place h, t;
    place_of(ctx, here, &h, 1);
    place_of(ctx, there, &t, 1);
    const char *hf = h.file ? h.file : ctx->filename;
    const char *tf = t.file ? t.file : ctx->filename;
    if (t.line == 0 && t.column)
        snprintf(buf, size, "offset 0x%x", (unsigned)(t.column - 1));
    else if (strcmp(hf, tf) == 0)
        snprintf(buf, size, "line %u", (unsigned)t.line);
    else
        snprintf(buf, size, "%s:%u", tf, (unsigned)t.line);
    return buf;
}

/* One exported diagnostic before its strings are copied. */
struct out_item {
    struct diag *d;       /* the diagnostic, or NULL for a note */
    struct st_place place;
    enum st_severity severity;
    unsigned code;
};

bool st_ctx_export(struct st_ctx *ctx, struct st_result *res)
{
    res->num_errors = st_error_count(ctx);
    res->num_warnings = ctx->warnings;
    if (ctx->ndiags == 0 && !ctx->oom)
        return true;
    struct diag **order = malloc(ctx->ndiags * sizeof(*order) + 1);
    struct st_place *places = malloc(MAX_PLACES * sizeof(*places));
    struct out_item *items = NULL;
    size_t nitems = 0, cap = 0;
    bool ok = order && places;
    for (size_t i = 0; ok && i < ctx->ndiags; i++)
        order[i] = &ctx->diags[i];
    if (ok)
        qsort(order, ctx->ndiags, sizeof(*order), cmp_diag);
    /* Each diagnostic, then its notes. */
    for (size_t i = 0; ok && i <= ctx->ndiags; i++) {
        unsigned np = 1;
        if (i < ctx->ndiags) {
            np = place_of(ctx, order[i]->loc, places, MAX_PLACES);
        } else if (ctx->oom) {
            memset(places, 0, sizeof(*places));
        } else {
            break;
        }
        if (nitems + np > cap) {
            size_t nc = (cap ? cap * 2 : 16) + np;
            struct out_item *ni = realloc(items, nc * sizeof(*ni));
            if (!ni) {
                ok = false;
                break;
            }
            items = ni;
            cap = nc;
        }
        for (unsigned k = 0; k < np; k++) {
            struct out_item *it = &items[nitems++];
            it->d = k == 0 && i < ctx->ndiags ? order[i] : NULL;
            it->place = places[k];
            it->severity = k ? ST_SEVERITY_NOTE
                             : i < ctx->ndiags ? order[i]->severity : ST_SEVERITY_ERROR;
            it->code = i < ctx->ndiags ? (unsigned)order[i]->code : ST_E_OUT_OF_MEMORY;
        }
    }
    /* The file names, each once, in one block that starts with the first
     * diagnostic's: st_result_free frees diagnostics[0].file only. */
    size_t names_len = 0;
    char *names = NULL;
    if (ok) {
        for (size_t i = 0; i < nitems; i++) {
            if (!items[i].place.file)
                items[i].place.file = ctx->filename;
            bool seen = false;
            for (size_t j = 0; j < i && !seen; j++)
                seen = strcmp(items[j].place.file, items[i].place.file) == 0;
            if (!seen)
                names_len += strlen(items[i].place.file) + 1;
        }
        names = malloc(names_len ? names_len : 1);
        ok = names != NULL;
    }
    struct st_diagnostic *out = ok ? calloc(nitems, sizeof(*out)) : NULL;
    if (!out) {
        free(order);
        free(places);
        free(items);
        free(names);
        return false;
    }
    size_t used = 0;
    for (size_t i = 0; i < nitems; i++) {
        const struct st_place *p = &items[i].place;
        const char *fname = NULL;
        for (size_t j = 0; j < i && !fname; j++)
            if (strcmp(items[j].place.file, p->file) == 0)
                fname = out[j].file;
        if (!fname) {
            size_t l = strlen(p->file) + 1;
            memcpy(names + used, p->file, l);
            fname = names + used;
            used += l;
        }
        out[i].severity = items[i].severity;
        out[i].code = items[i].code;
        out[i].file = fname;
        out[i].line = p->line;
        out[i].column = p->column;
        if (items[i].d) {
            out[i].message = items[i].d->message;
            items[i].d->message = NULL; /* moved */
        } else {
            out[i].message = strdup(p->note ? p->note : "out of memory");
        }
        out[i].source_line = p->text ? line_copy(p->text, p->text_len) : NULL;
    }
    free(order);
    free(places);
    free(items);
    res->diagnostics = out;
    res->num_diagnostics = nitems;
    return true;
}

size_t st_diagnostic_format(const struct st_diagnostic *d, char *buf, size_t size)
{
    static const char *const sev[] = {"error", "warning", "note"};
    int n;
    if (d->line)
        n = snprintf(buf, size, "%s:%u:%u: %s: %s [ST%04u]", d->file, d->line, d->column,
                     sev[d->severity], d->message ? d->message : "", d->code);
    else if (d->column) /* bytecode: the column is the byte offset + 1 */
        n = snprintf(buf, size, "%s:0x%x: %s: %s [ST%04u]", d->file, d->column - 1,
                     sev[d->severity], d->message ? d->message : "", d->code);
    else
        n = snprintf(buf, size, "%s: %s: %s [ST%04u]", d->file, sev[d->severity],
                     d->message ? d->message : "", d->code);
    return n < 0 ? 0 : (size_t)n;
}
