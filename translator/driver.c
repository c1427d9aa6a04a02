/*
 * driver.c — the library's entry points.  The whole pipeline reads top to
 * bottom in compile_shader(): parse, check, then the requested output.
 * Every stage reports through one message context; the shader's memory is
 * one arena freed at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "merge.h"
#include "passes.h"
#include "translator.h"

#ifndef ST_VERSION
#define ST_VERSION "0.1.0"
#endif

const char *st_version_string(void)
{
    return "shadertrans " ST_VERSION;
}

const char *st_llvm_version_string(void)
{
    return "LLVM " ST_LLVM_VERSION_STRING;
}

static bool dialect_is_arb(const struct st_options *o)
{
    if (o->dialect != ST_DIALECT_AUTO)
        return o->dialect == ST_DIALECT_ARB;
    /* "!!ARB" after optional white space starts an ARB program.  A byte
     * order mark and whole '#' lines are skipped too: the header is then
     * misplaced, which the ARB parser reports precisely, where the D3D9
     * parser would only see noise. */
    size_t i = 0;
    if (o->source_len >= 3 && memcmp(o->source, "\xef\xbb\xbf", 3) == 0)
        i = 3;
    while (i < o->source_len) {
        char c = o->source[i];
        if (c == '#') {
            while (i < o->source_len && o->source[i] != '\n')
                i++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            i++;
        } else {
            break;
        }
    }
    return o->source_len - i >= 5 && memcmp(o->source + i, "!!ARB", 5) == 0;
}

/* Parse and check: the front half every output shares. */
static struct st_shader *front_end(struct st_ctx *ctx, const struct st_options *o,
                                   struct st_arena *arena)
{
    bool arb = dialect_is_arb(o);
    struct st_shader *sh = arb ? st_parse_arb(ctx, arena) : st_front_d3d9(ctx, arena, o);
    if (!sh || st_error_count(ctx))
        return NULL;
    if (!(arb ? st_check_arb(ctx, sh) : st_check(ctx, sh)))
        return NULL;
    return sh;
}

static bool options_ok(const struct st_options *o)
{
    return o && o->struct_version >= 1 && o->struct_version <= ST_OPTIONS_VERSION &&
           (o->source || o->source_len == 0) &&
           (o->simd_width == 0 || o->simd_width == 8 || o->simd_width == 16 ||
            o->simd_width == 32);
}

/* What one call owns: the message context, the shader's arena, the output. */
struct session {
    struct st_ctx *ctx;
    struct st_arena *arena;
    struct st_buf out;
    struct st_buf stats; /* "name: value" lines, kept when the caller asks */
    bool want_stats;
};

static bool session_begin(struct session *s, const struct st_options *o)
{
    memset(s, 0, sizeof(*s));
    s->want_stats = o->want_stats;
    s->ctx = st_ctx_create(o->filename, o->source, o->source_len, o->max_errors);
    s->arena = st_arena_create();
    if (s->ctx && s->arena)
        return true;
    st_ctx_destroy(s->ctx);
    st_arena_destroy(s->arena);
    return false;
}

/* Hands the diagnostics and, when there are no errors, the output to a new
 * result, and frees everything else the call owned. */
static int session_end(struct session *s, struct st_result **result)
{
    int rc = -1;
    struct st_result *res = calloc(1, sizeof(*res));
    if (st_arena_failed(s->arena) || s->out.oom)
        st_error(s->ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
    if (res && st_ctx_export(s->ctx, res)) {
        res->struct_version = ST_RESULT_VERSION;
        res->ok = res->num_errors == 0;
        if (res->ok) {
            if (!s->out.data)
                st_buf_printf(&s->out, "%s", "");
            res->output = s->out.data;
            res->output_len = s->out.len;
            memset(&s->out, 0, sizeof(s->out)); /* moved into the result */
        }
        if (s->want_stats && s->stats.data && !s->stats.oom) {
            res->stats = s->stats.data;
            memset(&s->stats, 0, sizeof(s->stats));
        }
        *result = res;
        rc = 0;
    } else {
        free(res);
    }
    st_buf_free(&s->out);
    st_buf_free(&s->stats);
    st_arena_destroy(s->arena);
    st_ctx_destroy(s->ctx);
    return rc;
}

int st_compile(const struct st_options *o, struct st_result **result)
{
    struct session s;
    if (!result)
        return -1;
    *result = NULL;
    if (!options_ok(o) || !session_begin(&s, o))
        return -1;

    struct st_shader *sh = front_end(s.ctx, o, s.arena);
    if (sh) {
        switch (o->emit) {
        case ST_EMIT_NONE:
            break;
        case ST_EMIT_DEFAULT:
        case ST_EMIT_GEN:
            st_gen_compile_ex(s.ctx, sh, o->simd_width, o->float_rules, &s.out, &s.stats, NULL);
            break;
        case ST_EMIT_ASM:
            if (sh->dialect == ST_ARB)
                st_print_arb(sh, &s.out);
            else
                st_print_asm(sh, &s.out);
            break;
        case ST_EMIT_LLVM_RAW:
        case ST_EMIT_LLVM: {
            struct st_llvm_stats st = {0};
            if (st_llvm_emit_text(s.ctx, sh, o->float_rules, o->emit == ST_EMIT_LLVM, &s.out,
                                  &st))
                st_llvm_stats_format(&st, &s.stats);
            break;
        }
        case ST_EMIT_VASM: {
            struct st_merge_stats ms = {0};
            if (st_vasm_emit(s.ctx, sh, &s.out, &ms))
                st_merge_stats_format(&ms, &s.stats);
            break;
        }
        case ST_EMIT_D3D9_BYTECODE:
            st_write_d3d9_bytecode(s.ctx, sh, &s.out);
            break;
        case ST_EMIT_REFLECT:
            st_reflect_json(s.ctx, sh, &s.out);
            break;
        }
    }
    return session_end(&s, result);
}

int st_run(const struct st_run_options *ro, struct st_result **result)
{
    struct session s;
    if (!result)
        return -1;
    *result = NULL;
    if (!ro || ro->struct_version < 1 || ro->struct_version > ST_RUN_OPTIONS_VERSION ||
        !options_ok(ro->compile) || (!ro->inputs_json && ro->inputs_len) ||
        !session_begin(&s, ro->compile))
        return -1;

    struct st_shader *sh = front_end(s.ctx, ro->compile, s.arena);
    if (sh) {
        switch (ro->engine) {
        case ST_ENGINE_INTERP:
            st_interp_run(s.ctx, sh, ro->inputs_filename, ro->inputs_json, ro->inputs_len,
                          ro->float_rules, &s.out);
            break;
        case ST_ENGINE_LLVM:
            st_llvm_run(s.ctx, sh, ro->inputs_filename, ro->inputs_json, ro->inputs_len,
                        ro->float_rules, &s.out);
            break;
        case ST_ENGINE_GEN:
            st_gen_run(s.ctx, sh, ro->simd_width, ro->inputs_filename, ro->inputs_json,
                       ro->inputs_len, ro->float_rules, &s.out);
            break;
        }
    }
    return session_end(&s, result);
}

void st_result_free(struct st_result *res)
{
    if (!res)
        return;
    free(res->output);
    free(res->stats);
    if (res->diagnostics) {
        struct st_diagnostic *d = (struct st_diagnostic *)res->diagnostics;
        /* The file names are one block, starting with the first
         * diagnostic's (st_ctx_export). */
        free((char *)d[0].file);
        for (size_t i = 0; i < res->num_diagnostics; i++) {
            free((char *)d[i].message);
            free((char *)d[i].source_line);
        }
        free(d);
    }
    free(res);
}
