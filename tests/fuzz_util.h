/*
 * fuzz_util.h — what the two fuzz tests (test_fuzz.c: Direct3D 9,
 * test_fuzz_arb.c: ARB programs) share: running a shader through the public
 * API, reporting the first difference of two outputs JSON, the first error
 * of a message context, and writing a failing case to $ST_FUZZ_DUMP.
 * Header-only: each test is its own program.
 */
#ifndef ST_FUZZ_UTIL_H
#define ST_FUZZ_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shadertrans.h"
#include "translator.h"

/* ST_VERBOSE set and not "0" */
static inline bool verbose(void)
{
    const char *v = getenv("ST_VERBOSE");
    return v && *v && *v != '0';
}

static inline const char *rules_name(enum st_float_rules r)
{
    return r == ST_FLOAT_D3D9 ? "d3d9" : "ieee";
}

static inline void print_diags(const struct st_result *res)
{
    for (size_t k = 0; k < res->num_diagnostics && k < 5; k++) {
        char buf[1024];
        st_diagnostic_format(&res->diagnostics[k], buf, sizeof(buf));
        fprintf(stderr, "    %s\n", buf);
    }
}

/* Runs `text` (diagnostics name it `name`) on `inputs` with --pp=`pp`;
 * returns the outputs JSON (malloc) or NULL, with the first error code in
 * *code. */
static inline char *run_shader_pp(const char *name, const char *text, const char *inputs,
                                  enum st_engine engine, enum st_float_rules rules,
                                  enum st_pp_mode pp, unsigned *code, bool show_errors)
{
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION,
                           .filename = name,
                           .source = text,
                           .source_len = strlen(text),
                           .pp = pp};
    struct st_run_options ro = {.struct_version = ST_RUN_OPTIONS_VERSION,
                                .compile = &o,
                                .inputs_filename = "fuzz.in.json",
                                .inputs_json = inputs,
                                .inputs_len = strlen(inputs),
                                .float_rules = rules,
                                .engine = engine};
    struct st_result *res = NULL;
    *code = 0;
    if (st_run(&ro, &res) != 0 || !res)
        return NULL;
    char *out = res->ok && res->output ? strdup(res->output) : NULL;
    if (!out) {
        for (size_t k = 0; k < res->num_diagnostics; k++)
            if (res->diagnostics[k].severity == ST_SEVERITY_ERROR) {
                *code = res->diagnostics[k].code;
                break;
            }
        if (show_errors)
            print_diags(res);
    }
    st_result_free(res);
    return out;
}

/* run_shader_pp under --pp=ignore */
static inline char *run_shader(const char *name, const char *text, const char *inputs,
                               enum st_engine engine, enum st_float_rules rules, unsigned *code,
                               bool show_errors)
{
    return run_shader_pp(name, text, inputs, engine, rules, ST_PP_IGNORE, code, show_errors);
}

/* $ST_FUZZ_DUMP/fuzz-SEED.EXT and fuzz-SEED.in.json, when that is set. */
static inline void fuzz_dump(uint64_t seed, const char *ext, const char *text, const char *inputs)
{
    const char *dir = getenv("ST_FUZZ_DUMP");
    if (!dir || !*dir)
        return;
    char path[1024];
    snprintf(path, sizeof(path), "%s/fuzz-%llu.%s", dir, (unsigned long long)seed, ext);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    snprintf(path, sizeof(path), "%s/fuzz-%llu.in.json", dir, (unsigned long long)seed);
    f = fopen(path, "w");
    if (f) {
        fputs(inputs, f);
        fclose(f);
    }
}

/* Prints the first line where two outputs JSON differ (one line per
 * invocation), with its invocation number. */
static inline void first_difference(const char *a, const char *b)
{
    unsigned line = 0;
    while (*a && *b) {
        const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');
        size_t la = ea ? (size_t)(ea - a) : strlen(a), lb = eb ? (size_t)(eb - b) : strlen(b);
        if (la != lb || memcmp(a, b, la) != 0) {
            fprintf(stderr, "  first difference, output line %u (invocation %u):\n    %.*s\n    %.*s\n",
                    line, line ? line - 1 : 0, (int)la, a, (int)lb, b);
            return;
        }
        if (!ea || !eb)
            break;
        a = ea + 1;
        b = eb + 1;
        line++;
    }
    fprintf(stderr, "  outputs differ in length\n");
}

/* The first error of ctx: its code (0: none) and message. */
static inline unsigned first_error(struct st_ctx *ctx, char *msg, size_t n)
{
    struct st_result res;
    memset(&res, 0, sizeof(res));
    st_ctx_export(ctx, &res);
    unsigned code = 0;
    snprintf(msg, n, "?");
    for (size_t k = 0; k < res.num_diagnostics; k++) {
        if (!code && res.diagnostics[k].severity == ST_SEVERITY_ERROR) {
            code = res.diagnostics[k].code;
            snprintf(msg, n, "%s", res.diagnostics[k].message ? res.diagnostics[k].message : "?");
        }
        free((char *)res.diagnostics[k].message);
        free((char *)res.diagnostics[k].source_line);
    }
    if (res.num_diagnostics)
        free((char *)res.diagnostics[0].file);
    free((void *)res.diagnostics);
    return code;
}

#endif
