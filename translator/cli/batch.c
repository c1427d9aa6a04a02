/*
 * batch.c — `shadertrans batch`: many shaders in one process, on threads.
 *
 * The paths given are shader files, directories (every shader file below
 * them, in sorted order) and manifest files (the corpus's manifest.tsv:
 * tab-separated, a header row starting "path", then path, dialect, stage,
 * expect, ...; paths relative to the manifest).  Each shader is compiled
 * as `shadertrans [options] FILE` would, by -j N threads calling the
 * library at once (it keeps no shared state; tests/test_threads.c).  Every
 * shader ends up accepted, rejected (a mistake in the shader: any error of
 * 1xxx, 2xxx or 4xxx) or refused (only limits of this implementation or
 * of the call: 3xxx, 9xxx); the report lists every one, in input order,
 * whatever the number of threads (report.c writes it).
 *
 * --compare-engines runs each accepted shader with the interpreter, the
 * LLVM JIT and the Gen engine on the same inputs (--inputs FILE, else a
 * NAME.in.json beside it, else made up: inputs.c) and reports where the
 * JIT differs from the interpreter at all, or the Gen engine by more than
 * the tolerance of docs/gensim.md (st_tol_within).
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <threads.h>
#include <unistd.h>

#include "translator.h"

#include "batch.h"
#include "cli.h"

static const char batch_usage[] =
    "usage: shadertrans batch [options] PATH...\n"
    "\n"
    "Compiles every shader of the PATHs (shader files, directories searched for\n"
    "*.asm *.vsh *.psh *.vs *.ps *.vp *.fp, manifest files like the corpus's\n"
    "manifest.tsv) in one process and reports on each.\n"
    "\n"
    "options:\n"
    "  -j N                run N shaders at a time (default: the processors online)\n"
    "  --report FILE       the shader-db report (one line per shader and kernel)\n"
    "                      goes to FILE instead of standard output\n"
    "  --json FILE         also write the report as JSON\n"
    "  --simd=all          compile pixel shaders at SIMD8, 16 and 32 (one report\n"
    "                      line per kernel); auto|8|16|32 as for a single shader\n"
    "  --compare-engines   run every accepted shader with the interpreter, the\n"
    "                      LLVM JIT and the Gen engine and report disagreements\n"
    "  --inputs FILE       the inputs JSON for --compare-engines (default: NAME.in.json\n"
    "                      beside the shader, else inputs made up for it)\n"
    "  --invocations=N     invocations of made-up inputs (default 64)\n"
    "  --seed=N            seed of made-up inputs (default 1)\n"
    "  --progress, --no-progress\n"
    "                      the progress line on standard error (default: when it\n"
    "                      is a terminal)\n"
    "  --emit, --float-rules, --pp, --texture-types, -x, -D, -I, --max-errors,\n"
    "  --max-instructions, --max-work, --timeout\n"
    "                      as for a single shader (shadertrans --help)\n"
    "\n"
    "The summary (accepted, rejected, refused, shaders per error code) goes to\n"
    "standard error.  Exit status: 0 done, 1 engines disagreed, 2 bad usage or\n"
    "a file that could not be read or written.\n";

/* ---- collecting the shaders ---- */

static bool shader_name(const char *n)
{
    static const char *const ext[] = {".asm", ".vsh", ".psh", ".vs", ".ps", ".vp", ".fp"};
    size_t l = strlen(n);
    for (size_t k = 0; k < sizeof(ext) / sizeof(ext[0]); k++) {
        size_t e = strlen(ext[k]);
        if (l > e && strcmp(n + l - e, ext[k]) == 0)
            return true;
    }
    return false;
}

static bool add(struct batch *B, const char *path, const char *dialect, const char *stage,
                const char *expect)
{
    if (B->n == B->cap) {
        size_t cap = B->cap ? B->cap * 2 : 256;
        struct batch_shader *s = realloc(B->sh, cap * sizeof(*s));
        if (!s)
            return false;
        B->sh = s;
        B->cap = cap;
    }
    struct batch_shader *s = &B->sh[B->n];
    memset(s, 0, sizeof(*s));
    s->path = strdup(path);
    if (!s->path)
        return false;
    s->dialect = dialect && strcmp(dialect, "arb") == 0    ? ST_DIALECT_ARB
                 : dialect && strcmp(dialect, "d3d9") == 0 ? ST_DIALECT_D3D9
                                                           : ST_DIALECT_AUTO;
    if (stage)
        snprintf(s->stage, sizeof(s->stage), "%s",
                 strcmp(stage, "vs") == 0 || strcmp(stage, "vp") == 0   ? "VS"
                 : strcmp(stage, "ps") == 0 || strcmp(stage, "fp") == 0 ? "FS"
                                                                        : "");
    if (expect)
        snprintf(s->expect, sizeof(s->expect), "%s", expect);
    B->n++;
    return true;
}

static int by_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every shader file below dir, sorted; iterative (no recursion as deep as
 * the tree). */
static bool add_dir(struct batch *B, const char *dir)
{
    char **todo = NULL, **found = NULL;
    size_t ntodo = 0, ctodo = 0, nfound = 0, cfound = 0;
    bool ok = true;
#define PUSH(arr, n, c, v)                                                  \
    do {                                                                    \
        if (n == c) {                                                       \
            size_t nc = c ? c * 2 : 64;                                     \
            char **q = realloc(arr, nc * sizeof(*q));                       \
            if (!q) {                                                       \
                free(v);                                                    \
                ok = false;                                                 \
                break;                                                      \
            }                                                               \
            arr = q;                                                        \
            c = nc;                                                         \
        }                                                                   \
        arr[n++] = v;                                                       \
    } while (0)
    char *first = strdup(dir);
    if (!first)
        return false;
    PUSH(todo, ntodo, ctodo, first);
    while (ok && ntodo) {
        char *d = todo[--ntodo];
        DIR *h = opendir(d);
        if (!h) {
            fprintf(stderr, "shadertrans: cannot read directory '%s': %s\n", d, strerror(errno));
            free(d);
            ok = false;
            break;
        }
        for (struct dirent *e; ok && (e = readdir(h));) {
            if (e->d_name[0] == '.')
                continue;
            size_t l = strlen(d) + strlen(e->d_name) + 2;
            char *p = malloc(l);
            if (!p) {
                ok = false;
                break;
            }
            snprintf(p, l, "%s%s%s", d, d[strlen(d) - 1] == '/' ? "" : "/", e->d_name);
            struct stat st;
            if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
                PUSH(todo, ntodo, ctodo, p);
            else if (shader_name(e->d_name))
                PUSH(found, nfound, cfound, p);
            else
                free(p);
        }
        closedir(h);
        free(d);
    }
#undef PUSH
    qsort(found, nfound, sizeof(*found), by_path);
    for (size_t k = 0; k < nfound; k++) {
        if (ok && !add(B, found[k], NULL, NULL, NULL))
            ok = false;
        free(found[k]);
    }
    while (ntodo)
        free(todo[--ntodo]);
    free(todo);
    free(found);
    return ok;
}

/* A manifest: the corpus's manifest.tsv shape (a header row starting
 * "path\t"). */
static bool is_manifest(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char head[6] = {0};
    size_t n = fread(head, 1, 5, f);
    fclose(f);
    return n == 5 && memcmp(head, "path\t", 5) == 0;
}

static bool add_manifest(struct batch *B, const char *path)
{
    size_t len;
    char *text = cli_read_file(path, &len);
    if (!text) {
        fprintf(stderr, "shadertrans: cannot read '%s': %s\n", path, strerror(errno));
        return false;
    }
    const char *slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
    bool ok = true;
    char *line = text;
    bool header = true;
    while (ok && line && *line) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        line[strcspn(line, "\r")] = '\0';
        if (header) {
            header = false;
        } else if (*line) {
            char *col[4] = {line, NULL, NULL, NULL};
            for (int k = 1; k < 4; k++) {
                char *t = col[k - 1] ? strchr(col[k - 1], '\t') : NULL;
                if (t)
                    *t++ = '\0';
                col[k] = t;
            }
            char *t = col[3] ? strchr(col[3], '\t') : NULL;
            if (t)
                *t = '\0';
            size_t l = dlen + strlen(col[0]) + 1;
            char *p = malloc(l);
            if (!p) {
                ok = false;
                break;
            }
            snprintf(p, l, "%.*s%s", (int)dlen, path, col[0]);
            ok = add(B, p, col[1], col[2], col[3]);
            free(p);
        }
        line = end ? end + 1 : NULL;
    }
    free(text);
    return ok;
}

/* ---- one shader ---- */

/* "VS" or "FS" from the header ("vs_2_0", "ps.1.4", "!!ARBvp1.0"), skipping
 * white space and comment lines; "" when it is not there. */
static void sniff_stage(const char *t, size_t n, char stage[4])
{
    size_t i = n >= 3 && memcmp(t, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    while (i < n) {
        if (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n') {
            i++;
        } else if (t[i] == '#' || t[i] == ';' || (t[i] == '/' && i + 1 < n && t[i + 1] == '/')) {
            while (i < n && t[i] != '\n')
                i++;
        } else {
            break;
        }
    }
    if (n - i >= 7 && memcmp(t + i, "!!ARBvp", 7) == 0)
        snprintf(stage, 4, "VS");
    else if (n - i >= 7 && memcmp(t + i, "!!ARBfp", 7) == 0)
        snprintf(stage, 4, "FS");
    else if (n - i >= 3 && (t[i] == 'v' || t[i] == 'V') && (t[i + 1] == 's' || t[i + 1] == 'S') &&
             (t[i + 2] == '_' || t[i + 2] == '.'))
        snprintf(stage, 4, "VS");
    else if (n - i >= 3 && (t[i] == 'p' || t[i] == 'P') && (t[i + 1] == 's' || t[i + 1] == 'S') &&
             (t[i + 2] == '_' || t[i + 2] == '.'))
        snprintf(stage, 4, "FS");
}

bool cli_parse_kernel_stats(const char *text, struct cli_kernel *k)
{
    memset(k, 0, sizeof(*k));
    /* the line names the shader first ("a.ps.asm: SIMD8 shader: ..."), and
     * a file name may contain "SIMD" too: the first place the whole
     * pattern reads */
    const char *end = text ? strchr(text, '\n') : NULL;
    for (const char *p = text ? strstr(text, "SIMD") : NULL; p && (!end || p < end);
         p = strstr(p + 1, "SIMD"))
        if (sscanf(p, "SIMD%u shader: %u instructions. %u loops. %u cycles. %u:%u spills:fills, "
                      "%u sends",
                   &k->simd, &k->instructions, &k->loops, &k->cycles, &k->spills, &k->fills,
                   &k->sends) == 7)
            return true;
    memset(k, 0, sizeof(*k));
    return false;
}

/* An error code says the shader is wrong (1xxx syntax, 2xxx rules, 4xxx
 * inputs), rather than that we would not (3xxx, 9xxx). */
static bool shader_mistake(unsigned code)
{
    return code < 3000 || (code >= 4000 && code < 5000);
}

static void note(char **dst, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(char **dst, const char *fmt, ...)
{
    if (*dst)
        return; /* the first one is kept */
    char buf[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    *dst = strdup(buf);
}

/* Records the errors of a compile that failed and classifies the shader. */
static void record_errors(struct batch_shader *s, const struct st_result *res)
{
    bool mistake = false;
    for (size_t k = 0; k < res->num_diagnostics; k++) {
        struct st_diagnostic d = res->diagnostics[k];
        if (d.severity != ST_SEVERITY_ERROR)
            continue;
        mistake |= shader_mistake(d.code);
        bool seen = false;
        for (unsigned j = 0; j < s->ncodes; j++)
            seen |= s->codes[j] == d.code;
        if (!seen && s->ncodes < BATCH_MAX_CODES)
            s->codes[s->ncodes++] = d.code;
        if (!s->first_error) {
            char line[600];
            st_diagnostic_format(&d, line, sizeof(line));
            s->first_error = strdup(line);
        }
    }
    /* codes in ascending order, for reports that compare */
    for (unsigned a = 1; a < s->ncodes; a++)
        for (unsigned b = a; b > 0 && s->codes[b - 1] > s->codes[b]; b--) {
            unsigned t = s->codes[b];
            s->codes[b] = s->codes[b - 1];
            s->codes[b - 1] = t;
        }
    s->status = mistake ? BATCH_REJECTED : BATCH_REFUSED;
}

/* The inputs for --compare-engines: given, beside the shader, or made up. */
static char *engine_inputs(const struct batch *B, struct batch_shader *s,
                           const struct st_shader *sh)
{
    if (B->inputs_text) {
        s->inputs_from = "given";
        return strdup(B->inputs_text);
    }
    /* NAME.vs.asm -> NAME.vs.in.json, NAME.vp -> NAME.in.json */
    size_t l = strlen(s->path);
    char *p = malloc(l + 10);
    if (!p)
        return NULL;
    memcpy(p, s->path, l + 1);
    char *dot = strrchr(p, '.'), *slash = strrchr(p, '/');
    if (dot && (!slash || dot > slash)) {
        strcpy(dot, ".in.json");
        size_t n;
        char *text = cli_read_file(p, &n);
        free(p);
        if (text) {
            s->inputs_from = "beside";
            return text;
        }
    } else {
        free(p);
    }
    /* made up, from a seed that depends on the name only, so that the
     * inputs do not depend on the order or the number of threads */
    uint64_t h = 1469598103934665603ULL;
    for (const char *c = s->path; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ULL;
    struct st_buf b = {0};
    if (!cli_make_inputs(sh, B->seed ^ h, B->invocations, &b)) {
        st_buf_free(&b);
        return NULL;
    }
    s->inputs_from = "made";
    return b.data;
}

/* Runs one engine; its outputs JSON, or NULL with the reason noted. */
static char *run_engine(const struct batch *B, struct batch_shader *s, struct st_options *o,
                        const char *json, enum st_engine e, unsigned simd, const char *name)
{
    struct st_run_options ro = {.struct_version = ST_RUN_OPTIONS_VERSION, .compile = o,
                                .inputs_filename = s->inputs_from, .inputs_json = json,
                                .inputs_len = strlen(json), .float_rules = o->float_rules,
                                .engine = e, .simd_width = simd};
    struct st_result *res = NULL;
    if (st_run(&ro, &res) != 0 || !res) {
        note(&s->engine_note, "%s: the call was refused", name);
        return NULL;
    }
    char *out = NULL;
    if (res->ok) {
        out = strdup(res->output);
    } else {
        for (size_t k = 0; k < res->num_diagnostics; k++)
            if (res->diagnostics[k].severity == ST_SEVERITY_ERROR) {
                note(&s->engine_note, "%s could not run it: %s [ST%04u]", name,
                     res->diagnostics[k].message ? res->diagnostics[k].message : "",
                     res->diagnostics[k].code);
                break;
            }
    }
    st_result_free(res);
    (void)B;
    return out;
}

/*
 * Compares two outputs JSON token by token: punctuation, keys and strings
 * exactly, numbers (and "nan"/"inf") by st_tol_within with `inexact`.
 * False at the first difference, described in *why.
 */
static bool next_token(const char **p, const char **tok, size_t *len)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t')
        s++;
    if (!*s)
        return false;
    *tok = s;
    if (*s == '"') {
        s++;
        while (*s && *s != '"')
            s++;
        if (*s)
            s++;
    } else if (strchr("{}[]:,", *s)) {
        s++;
    } else {
        while (*s && !strchr("{}[]:, \n\r\t\"", *s))
            s++;
    }
    *len = (size_t)(s - *tok);
    *p = s;
    return true;
}

static bool number_token(const char *t, size_t n, float *v)
{
    char buf[64];
    if (n >= sizeof(buf))
        return false;
    if (t[0] == '"') { /* "nan", "inf", "-inf" */
        t++;
        n -= n >= 2 ? 2 : n;
    }
    memcpy(buf, t, n);
    buf[n] = '\0';
    if (strcmp(buf, "nan") == 0 || strcmp(buf, "inf") == 0 || strcmp(buf, "-inf") == 0) {
        *v = strcmp(buf, "nan") == 0 ? NAN : strcmp(buf, "inf") == 0 ? INFINITY : -INFINITY;
        return true;
    }
    char *end;
    *v = strtof(buf, &end);
    return end != buf && !*end;
}

/* b against a (and, when alt is not NULL, against alt, the other reading
 * of the multiply-adds, token for token the same shape as a). */
static bool same_outputs(const char *a, const char *alt, const char *b, unsigned inexact, char *why,
                         size_t wn)
{
    const char *ta, *tb, *tf = NULL, *key = "", *lastkey = "";
    size_t la, lb, lf = 0, klen = 0, lastklen = 0;
    unsigned invocation = 0, depth = 0, comp = 0;
    for (;;) {
        bool ma = next_token(&a, &ta, &la), mb = next_token(&b, &tb, &lb);
        bool mf = alt && next_token(&alt, &tf, &lf);
        if (!ma || !mb) {
            if (ma != mb)
                snprintf(why, wn, "the outputs differ in length");
            return ma == mb;
        }
        float x, y, xf;
        bool nx = number_token(ta, la, &x), ny = number_token(tb, lb, &y);
        bool nf = mf && number_token(tf, lf, &xf);
        if (nx && ny) {
            if (!(nf ? st_tol_within_either(x, xf, y, inexact) : st_tol_within(x, y, inexact))) {
                snprintf(why, wn, "invocation %u, %.*s[%u] is %.*s (the interpreter: %.*s)",
                         invocation, (int)lastklen, lastkey, comp, (int)lb, tb, (int)la, ta);
                return false;
            }
            comp++;
            continue;
        }
        if (la != lb || memcmp(ta, tb, la) != 0) {
            snprintf(why, wn, "invocation %u: %.*s where the interpreter has %.*s", invocation,
                     (int)lb, tb, (int)la, ta);
            return false;
        }
        if (*ta == '{' || *ta == '[')
            depth++;
        else if (*ta == '}' || *ta == ']') {
            depth--;
            if (*ta == '}' && depth == 2)
                invocation++; /* {"invocations": [ {..}, ... */
        } else if (*ta == '"') {
            key = ta;
            klen = la;
        } else if (*ta == ':') {
            lastkey = key;
            lastklen = klen;
            comp = 0;
        }
    }
}

/* The interpreter's outputs JSON under the fused reading of the
 * multiply-adds; NULL when it cannot say (then only the first reading
 * judges). */
static char *run_fused(const struct st_options *o, const struct st_shader *sh, const char *json)
{
    struct st_ctx *ctx = st_ctx_create(o->filename, o->source, o->source_len, 1);
    struct st_buf out = {0};
    bool ok = ctx && st_interp_run_fused(ctx, sh, "inputs", json, strlen(json), o->float_rules,
                                         &out) && !out.oom;
    st_ctx_destroy(ctx);
    if (!ok) {
        st_buf_free(&out);
        return NULL;
    }
    return out.data; /* (malloc'd, NUL-terminated) */
}

static void compare_engines(const struct batch *B, struct batch_shader *s, struct st_options *o)
{
    /* the shader itself, for the made-up inputs and the tolerance rule */
    struct st_ctx *ctx = st_ctx_create(o->filename, o->source, o->source_len, 0);
    struct st_arena *arena = st_arena_create();
    struct st_shader *sh = ctx && arena ? st_front_end(ctx, o, arena) : NULL;
    char *json = sh ? engine_inputs(B, s, sh) : NULL;
    if (!json) {
        note(&s->engine_note, "no inputs (out of memory)");
        s->engines = BATCH_ENGINES_FAILED;
    } else {
        unsigned inexact = st_tol_shader_inexact(sh);
        char *ref = run_engine(B, s, o, json, ST_ENGINE_INTERP, 0, "the interpreter");
        char *jit = ref ? run_engine(B, s, o, json, ST_ENGINE_LLVM, 0, "the LLVM JIT") : NULL;
        s->engines = ref && jit ? BATCH_ENGINES_AGREE : BATCH_ENGINES_FAILED;
        char why[400];
        if (ref && jit && !same_outputs(ref, NULL, jit, false, why, sizeof(why))) {
            note(&s->engine_note, "the LLVM JIT differs from the interpreter: %s", why);
            s->engines = BATCH_ENGINES_DISAGREE;
        }
        unsigned widths[3] = {o->simd_width, 0, 0}, nw = 1;
        if (s->nkernels) {
            nw = 0;
            for (unsigned k = 0; k < s->nkernels; k++)
                widths[nw++] = s->kernels[k].simd;
        }
        /* the kernels' multiply-adds are fused: the interpreter's reading
         * with each rounded once is a right answer too (docs/gensim.md) */
        char *fused = ref && st_tol_shader_muladd(sh) ? run_fused(o, sh, json) : NULL;
        for (unsigned k = 0; ref && k < nw; k++) {
            char name[40];
            snprintf(name, sizeof(name), "the Gen engine (SIMD%u)", widths[k]);
            char *gen = run_engine(B, s, o, json, ST_ENGINE_GEN, widths[k], name);
            if (!gen) {
                if (s->engines == BATCH_ENGINES_AGREE)
                    s->engines = BATCH_ENGINES_FAILED;
                continue;
            }
            if (!same_outputs(ref, fused, gen, inexact, why, sizeof(why))) {
                note(&s->engine_note, "%s differs from the interpreter%s: %s", name,
                     inexact ? " beyond the tolerance" : "", why);
                s->engines = BATCH_ENGINES_DISAGREE;
            }
            free(gen);
        }
        free(ref);
        free(fused);
        free(jit);
    }
    if (!sh && !s->engine_note)
        note(&s->engine_note, "the shader did not compile again");
    free(json);
    st_arena_destroy(arena);
    st_ctx_destroy(ctx);
}

static void process(const struct batch *B, struct batch_shader *s)
{
    double t0 = cli_now();
    size_t len = 0;
    char *text = cli_read_file(s->path, &len);
    if (!text) {
        char err[1024];
        snprintf(err, sizeof(err), "cannot read '%s': %s", s->path, strerror(errno));
        s->status = BATCH_UNREADABLE;
        s->first_error = strdup(err);
        s->seconds = cli_now() - t0;
        return;
    }
    char stage[4] = "";
    sniff_stage(text, len, stage);
    if (stage[0])
        memcpy(s->stage, stage, sizeof(stage));
    struct st_options o = B->c.o;
    o.filename = s->path;
    o.source = text;
    o.source_len = len;
    if (o.dialect == ST_DIALECT_AUTO)
        o.dialect = s->dialect;
    bool gen = o.emit == ST_EMIT_GEN || o.emit == ST_EMIT_DEFAULT;
    o.want_stats = gen;
    unsigned widths[3] = {o.simd_width, 0, 0}, nw = 1;
    if (gen && B->all_widths && strcmp(s->stage, "FS") == 0) {
        widths[0] = 8, widths[1] = 16, widths[2] = 32;
        nw = 3;
    } else if (gen && B->all_widths) {
        widths[0] = 8;
    }
    struct cli_deadline deadline = {0};
    if (B->c.has_timeout) {
        deadline.at = cli_now() + B->c.timeout;
        o.cancel = cli_deadline_passed;
        o.cancel_user = &deadline;
    }
    s->status = BATCH_ACCEPTED;
    for (unsigned k = 0; k < nw; k++) {
        o.simd_width = widths[k];
        struct st_result *res = NULL;
        if (st_compile(&o, &res) != 0 || !res) {
            s->status = BATCH_FAILED;
            s->first_error = strdup("shadertrans: internal error (out of memory?)");
            break;
        }
        if (!res->ok) {
            record_errors(s, res);
            st_result_free(res);
            break;
        }
        /* one stats line per kernel: the automatic width gives every kernel a
         * driver ships (a pixel shader's SIMD8 and SIMD16, say) */
        for (const char *line = gen ? res->stats : NULL; line && *line;) {
            struct cli_kernel kern;
            if (cli_parse_kernel_stats(line, &kern) && s->nkernels < 3)
                s->kernels[s->nkernels++] = kern;
            line = strchr(line, '\n');
            line = line ? line + 1 : NULL;
        }
        st_result_free(res);
    }
    if (s->status == BATCH_ACCEPTED && B->compare) {
        o.simd_width = B->c.o.simd_width;
        o.cancel = NULL; /* the engines get all the time they need */
        compare_engines(B, s, &o);
    }
    free(text);
    s->seconds = cli_now() - t0;
}

/* ---- threads ---- */

static int worker(void *arg)
{
    struct batch *B = arg;
    for (;;) {
        size_t k = atomic_fetch_add(&B->next, 1);
        if (k >= B->n)
            return 0;
        process(B, &B->sh[k]);
        atomic_fetch_add(&B->count[B->sh[k].status], 1);
        atomic_fetch_add(&B->done, 1);
    }
}

static void progress(struct batch *B, bool last)
{
    size_t done = atomic_load(&B->done);
    fprintf(stderr, "\r[%*zu/%zu] %zu accepted, %zu rejected, %zu refused%s", B->n > 999 ? 5 : 3,
            done, B->n, atomic_load(&B->count[BATCH_ACCEPTED]),
            atomic_load(&B->count[BATCH_REJECTED]), atomic_load(&B->count[BATCH_REFUSED]),
            last ? "\r\033[K" : "");
    fflush(stderr);
}

static unsigned processors(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

void batch_free(struct batch *B)
{
    for (size_t k = 0; k < B->n; k++) {
        free(B->sh[k].path);
        free(B->sh[k].first_error);
        free(B->sh[k].engine_note);
    }
    free(B->sh);
    free(B->inputs_text);
}

int cli_batch_main(int argc, char **argv)
{
    struct batch B;
    memset(&B, 0, sizeof(B));
    B.c.o.struct_version = ST_OPTIONS_VERSION;
    B.jobs = processors();
    B.invocations = 64;
    B.seed = 1;
    int show_progress = -1;
    const char *report = NULL, *json = NULL, *inputs = NULL, *val;
    const char **paths = calloc((size_t)argc, sizeof(*paths));
    unsigned npaths = 0;
    if (!paths)
        return EXIT_USAGE;
    int status = EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_opt_value(a, "--simd", &val) && strcmp(val, "all") == 0) {
            B.all_widths = true;
            B.c.o.simd_width = 0;
            continue;
        }
        int r = cli_compile_option(argc, argv, &i, &B.c);
        if (r > 1)
            goto out;
        if (r == 1)
            continue;
        uint64_t n;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            status = cli_fwrite(batch_usage, strlen(batch_usage), stdout) ? 0 : EXIT_USAGE;
            goto out;
        } else if (strcmp(a, "-j") == 0 || strncmp(a, "-j", 2) == 0) {
            val = a[2] ? a + 2 : i + 1 < argc ? argv[++i] : NULL;
            if (!cli_parse_u64(val, 1024, &n) || n == 0) {
                cli_usage_error("-j needs a number of threads from 1 to 1024, not '%s'",
                                val ? val : "");
                goto out;
            }
            B.jobs = (unsigned)n;
        } else if (strcmp(a, "--report") == 0 || strcmp(a, "--json") == 0 ||
                   strcmp(a, "--inputs") == 0) {
            if (++i == argc) {
                cli_usage_error("%s needs a file name", a);
                goto out;
            }
            *(a[2] == 'r' ? &report : a[2] == 'j' ? &json : &inputs) = argv[i];
        } else if (cli_opt_value(a, "--report", &val)) {
            report = val;
        } else if (cli_opt_value(a, "--json", &val)) {
            json = val;
        } else if (cli_opt_value(a, "--inputs", &val)) {
            inputs = val;
        } else if (strcmp(a, "--compare-engines") == 0) {
            B.compare = true;
        } else if (cli_opt_value(a, "--invocations", &val)) {
            if (!cli_parse_u64(val, 65536, &n) || n == 0) {
                cli_usage_error("--invocations needs a number from 1 to 65536, not '%s'", val);
                goto out;
            }
            B.invocations = (unsigned)n;
        } else if (cli_opt_value(a, "--seed", &val)) {
            if (!cli_parse_u64(val, UINT64_MAX, &n)) {
                cli_usage_error("--seed needs a number, not '%s'", val);
                goto out;
            }
            B.seed = n;
        } else if (strcmp(a, "--progress") == 0 || strcmp(a, "--no-progress") == 0) {
            show_progress = a[2] == 'p';
        } else if (a[0] == '-' && a[1]) {
            cli_usage_error("unknown batch option '%s'", a);
            goto out;
        } else {
            paths[npaths++] = a;
        }
    }
    if (!npaths) {
        cli_usage_error("%s", "batch needs shader files, directories or manifests");
        goto out;
    }
    if (inputs && !(B.inputs_text = cli_read_file(inputs, &(size_t){0}))) {
        fprintf(stderr, "shadertrans: cannot read '%s': %s\n", inputs, strerror(errno));
        goto out;
    }
    for (unsigned k = 0; k < npaths; k++) {
        struct stat st;
        bool ok;
        if (stat(paths[k], &st) == 0 && S_ISDIR(st.st_mode))
            ok = add_dir(&B, paths[k]);
        else if (is_manifest(paths[k]))
            ok = add_manifest(&B, paths[k]);
        else
            ok = add(&B, paths[k], NULL, NULL, NULL);
        if (!ok) {
            fprintf(stderr, "shadertrans: cannot collect the shaders of '%s'\n", paths[k]);
            goto out;
        }
    }

    double t0 = cli_now();
    unsigned nt = B.jobs < B.n ? B.jobs : (unsigned)(B.n ? B.n : 1);
    B.jobs = nt;
    thrd_t *t = calloc(nt, sizeof(*t));
    unsigned started = 0;
    if (t)
        for (; started < nt; started++)
            if (thrd_create(&t[started], worker, &B) != thrd_success)
                break;
    if (!started) /* no thread at all: this one does the work */
        worker(&B);
    bool tty = show_progress < 0 ? isatty(2) : show_progress;
    while (tty && atomic_load(&B.done) < B.n) {
        progress(&B, false);
        thrd_sleep(&(struct timespec){.tv_nsec = 100000000}, NULL);
    }
    for (unsigned k = 0; k < started; k++)
        thrd_join(t[k], NULL);
    free(t);
    if (tty)
        progress(&B, true);
    B.seconds = cli_now() - t0;

    status = batch_write_reports(&B, report, json);
    batch_print_summary(&B, stderr);
    if (status == 0 && B.count[BATCH_UNREADABLE])
        status = EXIT_USAGE;
    if (status == 0)
        for (size_t k = 0; k < B.n; k++)
            if (B.sh[k].engines == BATCH_ENGINES_DISAGREE)
                status = EXIT_BAD_INPUT;
out:
    batch_free(&B);
    free(paths);
    return status;
}
