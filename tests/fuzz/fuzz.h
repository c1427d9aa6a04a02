/*
 * fuzz.h — what the libFuzzer targets of tests/fuzz/ share (README.md there
 * says how to build and run them).  Header-only: each target is one program.
 *
 * A target fails (abort, so libFuzzer saves the input) not only on a crash
 * or a sanitizer report but whenever the library breaks its contract with
 * the caller (translator/shadertrans.h, docs/diagnostics.md): a call with
 * valid options refused, a result that is ok with errors or not ok without
 * one, an error without a code or message, a location outside the text.
 */
#ifndef ST_FUZZ_H
#define ST_FUZZ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shadertrans.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Prints why the input is a finding and aborts: libFuzzer keeps the input. */
#define FUZZ_FAIL(...)                                                                             \
    do {                                                                                           \
        fprintf(stderr, "FUZZ FINDING (%s:%d): ", __FILE__, __LINE__);                            \
        fprintf(stderr, __VA_ARGS__);                                                              \
        fputc('\n', stderr);                                                                       \
        abort();                                                                                   \
    } while (0)

static inline unsigned fuzz_lines(const char *text, size_t len)
{
    unsigned n = 1;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    return n;
}

/* Whether the text may renumber its lines or rename its file: a '#'
 * followed (blanks and line splices aside) by a digit ("# 12", a line
 * marker) or by an 'l' ("#line").  Then a diagnostic's line and file are
 * the ones the text asked for, not the physical ones.  Conservative: any
 * such '#', directive or not. */
static inline bool fuzz_may_renumber(const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (text[i] != '#')
            continue;
        size_t j = i + 1;
        for (;;) {
            if (j < len && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r' ||
                            text[j] == '\v' || text[j] == '\f'))
                j++;
            else if (j >= len || text[j] != '\\')
                break;
            else if (j + 1 < len && text[j + 1] == '\n')
                j += 2;
            else if (j + 2 < len && text[j + 1] == '\r' && text[j + 2] == '\n')
                j += 3;
            else
                break;
        }
        if (j < len && ((text[j] >= '0' && text[j] <= '9') || text[j] == 'l'))
            return true;
    }
    return false;
}

static inline bool fuzz_listed(const struct st_result *res, unsigned code)
{
    for (size_t k = 0; k < res->num_diagnostics; k++)
        if (res->diagnostics[k].code == code)
            return true;
    return false;
}

/* The contract of a result (see the top of this file). */
static inline void fuzz_check_result(int rc, const struct st_result *res, const char *src_name,
                                     const char *src, size_t src_len)
{
    if (rc != 0 || !res)
        FUZZ_FAIL("the call was refused (rc %d) though its options are valid", rc);
    if (res->struct_version != ST_RESULT_VERSION)
        FUZZ_FAIL("result struct_version %u", res->struct_version);
    unsigned errors = 0, warnings = 0;
    for (size_t k = 0; k < res->num_diagnostics; k++) {
        const struct st_diagnostic *d = &res->diagnostics[k];
        errors += d->severity == ST_SEVERITY_ERROR;
        warnings += d->severity == ST_SEVERITY_WARNING;
        if (!d->message || !*d->message)
            FUZZ_FAIL("diagnostic %zu has no message", k);
        if (d->code < 1000 || d->code > 9999)
            FUZZ_FAIL("diagnostic %zu (%s) has code %u", k, d->message, d->code);
        if (!d->file)
            FUZZ_FAIL("diagnostic %zu (%s) names no file", k, d->message);
        /* every message, also one about the inputs JSON, names the shader
         * (or the name and lines a #line or line marker gave it) */
        bool renumbered = fuzz_may_renumber(src, src_len);
        if (strcmp(d->file, src_name) != 0 && !renumbered)
            FUZZ_FAIL("diagnostic %zu (%s) names file '%s'", k, d->message, d->file);
        unsigned max_line = fuzz_lines(src, src_len);
        if (d->line > max_line && !renumbered)
            FUZZ_FAIL("diagnostic %zu (%s) at line %u of a %u-line text", k, d->message, d->line,
                      max_line);
        /* +2: the end of the line, and a '\r' before the newline (not in
         * source_line) */
        if (d->line && d->source_line && d->column > strlen(d->source_line) + 2)
            FUZZ_FAIL("diagnostic %zu (%s) at column %u of a line of %zu bytes", k, d->message,
                      d->column, strlen(d->source_line));
        char buf[512];
        size_t n = st_diagnostic_format(d, buf, sizeof(buf));
        if (n == 0 || !strstr(buf, " [ST"))
            FUZZ_FAIL("diagnostic %zu formats as '%s'", k, buf);
    }
    /* the counts may exceed the list (max_errors), and then the list says
     * so (ST1013) */
    if (errors > res->num_errors || warnings > res->num_warnings ||
        (errors < res->num_errors && !fuzz_listed(res, 1013)))
        FUZZ_FAIL("counts say %u errors, %u warnings; the list has %u, %u", res->num_errors,
                  res->num_warnings, errors, warnings);
    if (res->ok != (errors == 0))
        FUZZ_FAIL("ok is %d with %u errors", res->ok, errors);
    if (res->ok && (!res->output || strlen(res->output) != res->output_len))
        FUZZ_FAIL("ok without an output of output_len bytes");
    if (!res->ok && res->output)
        FUZZ_FAIL("an output after errors");
}

/* st_compile of `src` with `emit` and the contract checked; the result (to
 * be freed) is returned. */
static inline struct st_result *fuzz_compile(const char *name, const char *src, size_t len,
                                             enum st_dialect_choice dialect, enum st_emit emit,
                                             unsigned simd, enum st_float_rules rules)
{
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION,
                           .filename = name,
                           .source = src,
                           .source_len = len,
                           .dialect = dialect,
                           .emit = emit,
                           .float_rules = rules,
                           .want_stats = 1,
                           .simd_width = simd};
    struct st_result *res = NULL;
    int rc = st_compile(&o, &res);
    fuzz_check_result(rc, res, name, src, len);
    return res;
}

/* st_run of `src` on `inputs` with the contract checked; the result (to be
 * freed) is returned. */
static inline struct st_result *fuzz_run(const char *name, const char *src, size_t len,
                                         const char *inputs, size_t inputs_len,
                                         enum st_engine engine, enum st_float_rules rules,
                                         unsigned simd)
{
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION,
                           .filename = name,
                           .source = src,
                           .source_len = len};
    struct st_run_options ro = {.struct_version = ST_RUN_OPTIONS_VERSION,
                                .compile = &o,
                                .inputs_filename = "fuzz.in.json",
                                .inputs_json = inputs,
                                .inputs_len = inputs_len,
                                .float_rules = rules,
                                .engine = engine,
                                .simd_width = simd};
    struct st_result *res = NULL;
    int rc = st_run(&ro, &res);
    fuzz_check_result(rc, res, name, src, len);
    return res;
}

/*
 * An input of the run targets is a shader, then optionally a NUL byte and
 * the inputs JSON (tests/fuzz/seeds.sh makes such files from samples/).
 * Without the NUL the inputs are `dflt`.
 */
struct fuzz_split {
    const char *src, *in;
    size_t src_len, in_len;
};

static inline struct fuzz_split fuzz_split(const uint8_t *data, size_t size, const char *dflt)
{
    struct fuzz_split s = {(const char *)data, dflt, size, strlen(dflt)};
    const uint8_t *nul = memchr(data, 0, size);
    if (nul) {
        s.src_len = (size_t)(nul - data);
        s.in = (const char *)nul + 1;
        s.in_len = size - s.src_len - 1;
    }
    return s;
}

/* Inputs for a shader that comes without any: four invocations (one quad)
 * that give no register, so every input reads (0,0,0,1) and no name can be
 * wrong for the shader's version. */
static const char fuzz_default_inputs[] = "{\"invocations\": [{}, {}, {}, {}]}";

/* The file name diagnostics use: the dialect shows in the extension only. */
static inline const char *fuzz_name(const char *src, size_t len)
{
    return len >= 6 && memcmp(src, "!!ARBf", 6) == 0   ? "fuzz.fp"
           : len >= 6 && memcmp(src, "!!ARBv", 6) == 0 ? "fuzz.vp"
                                                       : "fuzz.asm";
}

/*
 * The printer's promise (--emit=asm): the canonical text of a checked
 * shader is a valid shader again and prints as itself.
 */
static inline void fuzz_roundtrip(const char *name, enum st_dialect_choice dialect,
                                  const char *text)
{
    struct st_result *again =
        fuzz_compile(name, text, strlen(text), dialect, ST_EMIT_ASM, 0, ST_FLOAT_IEEE);
    if (!again->ok) {
        char buf[512];
        st_diagnostic_format(&again->diagnostics[0], buf, sizeof(buf));
        FUZZ_FAIL("the canonical text is rejected: %s\n--- text\n%s---", buf, text);
    }
    if (strcmp(again->output, text) != 0)
        FUZZ_FAIL("the canonical text prints differently\n--- once\n%s--- twice\n%s---", text,
                  again->output);
    st_result_free(again);
}

#endif
