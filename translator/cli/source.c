/*
 * source.c — reading shader files for the command: whole files, #include
 * expansion for Direct3D 9 sources, and printing diagnostics at the place
 * the user wrote.
 *
 * The library skips lines starting with '#' in Direct3D 9 assembly (what a
 * preprocessor leaves behind); legacy toolchains kept shared constants and
 * macros-free snippets in files pulled in with `#include "file"`, as
 * D3DXAssembleShader did.  The command expands those lines before it hands
 * the text to the library and keeps, for every line of the text, the file
 * and line it came from.  ARB programs use '#' for comments, so their
 * lines are never expanded.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

enum { MAX_INCLUDE_DEPTH = 32 };

char *cli_read_file(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
        if (n == cap - 1) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    int err = ferror(f);
    if (f != stdin)
        fclose(f);
    if (err || !buf) {
        free(buf);
        errno = err ? EIO : ENOMEM;
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Whether text is an ARB program (the library's rule: "!!ARB" after white
 * space, a byte order mark and whole '#' lines). */
static bool is_arb(const char *t, size_t n)
{
    size_t i = n >= 3 && memcmp(t, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    while (i < n) {
        if (t[i] == '#')
            while (i < n && t[i] != '\n')
                i++;
        else if (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n')
            i++;
        else
            break;
    }
    return n - i >= 5 && memcmp(t + i, "!!ARB", 5) == 0;
}

/* The file name of `#include "name"` (or <name>) on this line, or NULL. */
static const char *include_name(const char *line, size_t n, size_t *len)
{
    size_t i = 0;
    while (i < n && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (i >= n || line[i] != '#')
        return NULL;
    i++;
    while (i < n && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (n - i < 7 || memcmp(line + i, "include", 7) != 0)
        return NULL;
    i += 7;
    while (i < n && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (i >= n || (line[i] != '"' && line[i] != '<'))
        return NULL;
    char close = line[i] == '"' ? '"' : '>';
    size_t start = ++i;
    while (i < n && line[i] != close)
        i++;
    if (i >= n || i == start)
        return NULL;
    *len = i - start;
    return line + start;
}

struct growing {
    char *p;
    size_t len, cap;
    struct cli_line_origin *lines;
    unsigned nlines, lcap;
    bool oom;
};

static void put(struct growing *g, const char *p, size_t n)
{
    if (g->oom)
        return;
    if (g->len + n + 1 > g->cap) {
        size_t cap = g->cap ? g->cap : 4096;
        while (cap < g->len + n + 1)
            cap *= 2;
        char *q = realloc(g->p, cap);
        if (!q) {
            g->oom = true;
            return;
        }
        g->p = q;
        g->cap = cap;
    }
    memcpy(g->p + g->len, p, n);
    g->len += n;
    g->p[g->len] = '\0';
}

static void put_line_origin(struct growing *g, const char *file, unsigned line)
{
    if (g->oom)
        return;
    if (g->nlines == g->lcap) {
        unsigned cap = g->lcap ? g->lcap * 2 : 256;
        struct cli_line_origin *q = realloc(g->lines, cap * sizeof(*q));
        if (!q) {
            g->oom = true;
            return;
        }
        g->lines = q;
        g->lcap = cap;
    }
    g->lines[g->nlines++] = (struct cli_line_origin){file, line};
}

static char *join(const char *dir, size_t dlen, const char *name, size_t nlen)
{
    char *p = malloc(dlen + nlen + 2);
    if (!p)
        return NULL;
    memcpy(p, dir, dlen);
    size_t k = dlen;
    if (dlen && dir[dlen - 1] != '/')
        p[k++] = '/';
    memcpy(p + k, name, nlen);
    p[k + nlen] = '\0';
    return p;
}

/* Finds name next to `from`, then in the -I directories; the path found
 * (malloc'd) or NULL. */
static char *find_include(const char *from, const char *name, size_t nlen,
                          const struct cli_includes *inc)
{
    if (nlen && name[0] == '/') {
        char *p = join("", 0, name, nlen);
        FILE *f = p ? fopen(p, "rb") : NULL;
        if (f) {
            fclose(f);
            return p;
        }
        free(p);
        return NULL;
    }
    const char *slash = strrchr(from, '/');
    size_t dlen = slash ? (size_t)(slash - from) + 1 : 0;
    for (unsigned k = 0; k <= (inc ? inc->ndirs : 0); k++) {
        char *p = k == 0 ? join(from, dlen, name, nlen)
                         : join(inc->dirs[k - 1], strlen(inc->dirs[k - 1]), name, nlen);
        if (!p)
            return NULL;
        FILE *f = fopen(p, "rb");
        if (f) {
            fclose(f);
            return p;
        }
        free(p);
    }
    return NULL;
}

/* One file being copied: its text and where the copy is. */
struct open_file {
    char *text;
    size_t len, pos;
    const char *name; /* owned by cli_source.files */
    unsigned line;
};

bool cli_source_read(struct cli_source *s, const char *path, const struct cli_includes *inc,
                     char *err, size_t errlen)
{
    memset(s, 0, sizeof(*s));
    size_t len = 0;
    char *text = cli_read_file(path, &len);
    if (!text) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        return false;
    }
    s->files = malloc(sizeof(*s->files) * MAX_INCLUDE_DEPTH);
    if (!s->files || !(s->files[0] = strdup(path))) {
        free(text);
        free(s->files);
        s->files = NULL;
        snprintf(err, errlen, "out of memory");
        return false;
    }
    s->nfiles = 1;
    /* Quick way out: no "#include" anywhere, or an ARB program. */
    if (!strstr(text, "include") || is_arb(text, len)) {
        s->text = text;
        s->len = len;
        return true;
    }
    struct growing g = {0};
    struct open_file stack[MAX_INCLUDE_DEPTH];
    unsigned sp = 0, files_cap = MAX_INCLUDE_DEPTH;
    stack[sp++] = (struct open_file){text, len, 0, s->files[0], 1};
    bool ok = true;
    while (sp && ok && !g.oom) {
        struct open_file *f = &stack[sp - 1];
        if (f->pos >= f->len) {
            free(f->text);
            sp--;
            continue;
        }
        const char *line = f->text + f->pos;
        const char *nl = memchr(line, '\n', f->len - f->pos);
        size_t n = nl ? (size_t)(nl - line) : f->len - f->pos;
        f->pos += n + (nl ? 1 : 0);
        unsigned here = f->line++;
        size_t nlen;
        const char *name = include_name(line, n, &nlen);
        if (!name) {
            put(&g, line, n);
            put(&g, "\n", 1);
            put_line_origin(&g, f->name, here);
            continue;
        }
        char *found = find_include(f->name, name, nlen, inc);
        if (!found) {
            snprintf(err, errlen, "%s:%u: cannot find include file '%.*s'", f->name, here,
                     (int)nlen, name);
            ok = false;
            break;
        }
        if (sp == MAX_INCLUDE_DEPTH) {
            snprintf(err, errlen, "%s:%u: includes nested deeper than %d (a file including itself?)",
                     f->name, here, MAX_INCLUDE_DEPTH);
            free(found);
            ok = false;
            break;
        }
        size_t ilen = 0;
        char *itext = cli_read_file(found, &ilen);
        if (!itext) {
            snprintf(err, errlen, "%s:%u: cannot read '%s': %s", f->name, here, found,
                     strerror(errno));
            free(found);
            ok = false;
            break;
        }
        if (s->nfiles == files_cap) {
            char **q = realloc(s->files, sizeof(*q) * files_cap * 2);
            if (!q) {
                free(found);
                free(itext);
                g.oom = true;
                break;
            }
            s->files = q;
            files_cap *= 2;
        }
        s->files[s->nfiles++] = found;
        stack[sp++] = (struct open_file){itext, ilen, 0, found, 1};
    }
    while (sp)
        free(stack[--sp].text);
    if (g.oom) {
        snprintf(err, errlen, "out of memory");
        ok = false;
    }
    if (!ok) {
        free(g.p);
        free(g.lines);
        cli_source_free(s);
        return false;
    }
    s->text = g.p ? g.p : calloc(1, 1);
    s->len = g.len;
    s->lines = g.lines;
    s->nlines = g.nlines;
    return s->text != NULL;
}

void cli_source_free(struct cli_source *s)
{
    free(s->text);
    for (unsigned k = 0; k < s->nfiles; k++)
        free(s->files[k]);
    free(s->files);
    free(s->lines);
    memset(s, 0, sizeof(*s));
}

void cli_print_diagnostics(const struct st_result *res, const struct cli_source *src)
{
    char line[4096];
    for (size_t i = 0; i < res->num_diagnostics; i++) {
        struct st_diagnostic d = res->diagnostics[i];
        if (src && src->lines && d.line >= 1 && d.line <= src->nlines) {
            d.file = src->lines[d.line - 1].file;
            d.line = src->lines[d.line - 1].line;
        }
        st_diagnostic_format(&d, line, sizeof(line));
        fprintf(stderr, "%s\n", line);
        if (d.source_line && d.line) {
            fprintf(stderr, "  %s\n  ", d.source_line);
            /* The caret goes under the column; tabs are kept so it lines up. */
            for (unsigned c = 1; c < d.column && d.source_line[c - 1]; c++)
                fputc(d.source_line[c - 1] == '\t' ? '\t' : ' ', stderr);
            fprintf(stderr, "^\n");
        }
    }
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cli_deadline_passed(void *user)
{
    const struct cli_deadline *d = user;
    return d->at > 0 && cli_now() >= d->at;
}
