/*
 * test_util.h — small helpers the cmocka programs share (header-only: every
 * tests/test_*.c is its own program).
 */
#ifndef ST_TEST_UTIL_H
#define ST_TEST_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <locale.h>

#include "driver.h" /* st_pipeline_mir: what the targets receive */

/* The whole file, NUL-terminated, malloc'd; NULL when it cannot be read.
 * *len (when len is not NULL) gets the size without the NUL. */
static inline char *slurp(const char *path, size_t *len)
{
    if (len)
        *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
        buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = '\0';
        if (len)
            *len = (size_t)n;
    }
    return buf;
}

/* A growing text buffer for the random shader generators; oom sticks. */
struct gen_buf {
    char *p;
    size_t len, cap;
    bool oom;
};

static inline void gen_printf(struct gen_buf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->cap - b->len;
        int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? room : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = true;
            return;
        }
        if (b->p && (size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->len + (size_t)n + 1)
            cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) {
            b->oom = true;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
}

/*
 * The shared corpus: $ST_CORPUS_DIR (default ../shared/corpus) and its
 * manifest.tsv, one row per file: path, dialect, stage, expect
 * (valid/invalid), source, mojo, notes.  A missing manifest is the
 * caller's failure, never a skip.
 */
struct manifest_row {
    const char *path, *dialect, *stage, *expect, *source, *mojo, *notes; /* "" when absent */
};

struct manifest {
    const char *dir;
    char *text, *next;
};

static inline const char *test_corpus_dir(void)
{
    const char *dir = getenv("ST_CORPUS_DIR");
    return dir && *dir ? dir : "../shared/corpus";
}

/* Reads the manifest; false (m->text NULL) when it cannot be read. */
static inline bool manifest_open(struct manifest *m)
{
    char path[2048];
    m->dir = test_corpus_dir();
    snprintf(path, sizeof(path), "%s/manifest.tsv", m->dir);
    m->text = slurp(path, NULL);
    m->next = m->text;
    if (m->next && strncmp(m->next, "path\t", 5) == 0) { /* the header row */
        m->next = strchr(m->next, '\n');
        m->next = m->next ? m->next + 1 : NULL;
    }
    return m->text != NULL;
}

/* The next row (its fields split in place), or false at the end. */
static inline bool manifest_next(struct manifest *m, struct manifest_row *r)
{
    while (m->next && *m->next) {
        char *line = m->next;
        m->next = strchr(line, '\n');
        if (m->next)
            *m->next++ = '\0';
        line[strcspn(line, "\r")] = '\0';
        if (!*line)
            continue;
        const char **col[7] = {&r->path, &r->dialect, &r->stage, &r->expect,
                               &r->source, &r->mojo, &r->notes};
        char *q = line;
        for (int k = 0; k < 7; k++) {
            *col[k] = q ? q : "";
            if (q) {
                q = strchr(q, '\t');
                if (q)
                    *q++ = '\0';
            }
        }
        return true;
    }
    return false;
}

static inline void manifest_close(struct manifest *m)
{
    free(m->text);
    m->text = m->next = NULL;
}

/* dir/path of a row's file. */
static inline void manifest_file(const struct manifest *m, const struct manifest_row *r, char *buf,
                                 size_t n)
{
    snprintf(buf, n, "%s/%s", m->dir, r->path);
}

/* A valid program that needs another vendor's extension (piglit's NV_*
 * option programs): the front end refuses those as not supported. */
static inline bool manifest_needs_vendor(const struct manifest_row *r)
{
    return strstr(r->notes, "options=NV") || strstr(r->notes, ",NV_") ||
           strstr(r->notes, "requires=GL_NV");
}

/*
 * The Gen engine on a checked shader, as `shadertrans run --engine=gen`
 * runs it: the MIR of the compile pipeline (st_pipeline_mir), then the
 * kernel in the simulator (st_gen_execute).  Errors go to ctx.
 */
/* Does a Direct3D 9 shader mark anything _pp (an instruction or a dcl)?
 * The differential tests run such a shader under --pp=fp16 as well. */
static inline bool test_has_pp(const struct st_shader *sh)
{
    if (sh->dialect != ST_D3D9)
        return false;
    for (const struct st_instr *i = sh->first; i; i = i->next)
        if (i->dstmod & ST_DSTMOD_PP)
            return true;
    return false;
}

static inline bool test_gen_execute_ex(struct st_ctx *ctx, const struct st_shader *sh,
                                       unsigned simd, const struct st_run_inputs *in,
                                       enum st_float_rules rules, enum st_fp_contract contract,
                                       struct st_run_outputs *outs, struct st_gen_run_stats *stats)
{
    struct mir_prog mir;
    memset(&mir, 0, sizeof(mir));
    bool ok = st_pipeline_mir(ctx, sh, ST_EMIT_GEN, NULL, &mir, NULL) &&
              st_gen_execute(ctx, sh, &mir, simd, in, rules, contract, outs, stats);
    mir_free(&mir);
    return ok;
}

static inline bool test_gen_execute(struct st_ctx *ctx, const struct st_shader *sh, unsigned simd,
                                    const struct st_run_inputs *in, enum st_float_rules rules,
                                    struct st_run_outputs *outs, struct st_gen_run_stats *stats)
{
    return test_gen_execute_ex(ctx, sh, simd, in, rules, ST_FP_CONTRACT_ON, outs, stats);
}

/* st_gen_compile_ex on the shader's MIR (the kernel text, its stats line, its layout). */
static inline bool test_gen_compile(struct st_ctx *ctx, const struct st_shader *sh, unsigned simd,
                                    enum st_float_rules rules, enum st_fp_contract contract,
                                    struct st_buf *out, struct st_buf *stats,
                                    struct st_gen_layout *layout)
{
    struct mir_prog mir;
    memset(&mir, 0, sizeof(mir));
    bool ok = st_pipeline_mir(ctx, sh, ST_EMIT_GEN, NULL, &mir, NULL) &&
              st_gen_compile_ex(ctx, sh, &mir, simd, rules, contract, out, stats, layout);
    mir_free(&mir);
    return ok;
}

/*
 * A locale that writes numbers with a decimal comma (de_DE.UTF-8), for the
 * tests that check our output does not depend on the host's locale.  When
 * the system has not generated it, it is compiled from the Debian package
 * `locales` (.ci/install-deps installs it) into a directory of our own, and
 * LOCPATH points there.  NULL only when neither works: the caller fails.
 */
static char test_locale_dir[] = "/tmp/st-locale-XXXXXX";

/* glibc keeps a block of its own (an argz list of the locale path) when it
 * loads a locale through LOCPATH; LeakSanitizer, in the ASan build, would
 * put it on our account.  A program calling test_comma_locale() says
 * TEST_LOCPATH_LSAN_SUPPRESSION once at file scope: an external definition
 * here would be made twice in the fuzz targets, which link shadergen.c and
 * arbgen.c (both include this header) as two objects. */
#define TEST_LOCPATH_LSAN_SUPPRESSION                                  \
    const char *__lsan_default_suppressions(void);                     \
    const char *__lsan_default_suppressions(void)                      \
    {                                                                  \
        return "leak:__argz_add_sep\n";                                \
    }

static inline void test_locale_dir_remove(void)
{
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", test_locale_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", test_locale_dir);
}

static inline locale_t test_comma_locale(void)
{
    locale_t l = newlocale(LC_ALL_MASK, "de_DE.UTF-8", (locale_t)0);
    if (l)
        return l;
    char *dir = test_locale_dir;
    if (strchr(dir, 'X')) {
        if (!mkdtemp(dir))
            return (locale_t)0;
        atexit(test_locale_dir_remove);
    }
    char cmd[512];
    snprintf(cmd, sizeof(cmd), "localedef -i de_DE -f UTF-8 %s/de_DE.UTF-8 >/dev/null 2>&1", dir);
    if (system(cmd) != 0)
        return (locale_t)0;
    setenv("LOCPATH", dir, 1);
    return newlocale(LC_ALL_MASK, "de_DE.UTF-8", (locale_t)0);
}

#endif
