/*
 * driver.c — the library's entry points.  The whole pipeline reads top to
 * bottom in compile(): parse and check (translator/d3d9, translator/arb),
 * lower to LLVM IR (translator/lower), the pass pipeline (passes/), the
 * merges into writemasks (merge/), then the target (emit/): the Gen9
 * kernel or vector assembly, both compiled from the one vector IR the
 * merge stage hands over.  Every stage reports through one message
 * context; the shader's memory is one arena freed at the end.
 */
#include <locale.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "driver.h"

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

/* A shader with more instructions than max_instructions is refused before
 * any later stage sees it, at the first instruction past the limit. */
static bool within_size(struct st_ctx *ctx, const struct st_shader *sh, unsigned max)
{
    if (!max || sh->num_instrs <= max)
        return true;
    const struct st_instr *i = sh->first;
    for (unsigned k = 0; i && k < max; k++)
        i = i->next;
    st_error(ctx, i ? i->loc : sh->version.loc, ST_E_BUDGET,
             "the shader has %u instructions, more than the limit of %u", sh->num_instrs, max);
    return false;
}

/*
 * The texture type of every sampler stage (sh->stage_type): its dcl, else
 * what the options say (ps_1_x declares none).  An option that contradicts
 * a dcl is an error at the dcl.
 */
static bool stage_types(struct st_ctx *ctx, struct st_shader *sh, const struct st_options *o)
{
    /* the public values are the internal ones (shadertrans.h, translator.h) */
    _Static_assert((int)ST_TEXTURE_2D == (int)ST_SAMPLER_2D && (int)ST_TEXTURE_CUBE == (int)ST_SAMPLER_CUBE &&
                       (int)ST_TEXTURE_VOLUME == (int)ST_SAMPLER_VOLUME && (int)ST_TEXTURE_ANY == (int)ST_SAMPLER_NONE,
                   "texture type values");
    static const char *const name[] = {"any", "2d", "cube", "volume"};
    bool d3d9 = sh->dialect == ST_D3D9; /* ARB instructions name their targets */
    for (unsigned s = 0; s < 16; s++)
        sh->stage_type[s] = d3d9 ? (enum st_sampler_type)o->texture_types[s] : ST_SAMPLER_NONE;
    if (!d3d9)
        return true;
    bool ok = true;
    for (const struct st_instr *i = sh->first; i; i = i->next) {
        if (i->op != ST_OP_DCL || !i->has_dst || i->dst.reg.file != ST_REG_SAMPLER ||
            i->dst.reg.index >= 16 || i->sampler_type == ST_SAMPLER_NONE)
            continue;
        unsigned s = i->dst.reg.index;
        if (o->texture_types[s] != ST_TEXTURE_ANY &&
            (enum st_sampler_type)o->texture_types[s] != i->sampler_type) {
            st_error(ctx, i->loc, ST_E_DCL_RULE,
                     "s%u is declared dcl_%s, but the options compile it for a %s texture", s,
                     name[i->sampler_type], name[o->texture_types[s]]);
            ok = false;
        }
        sh->stage_type[s] = i->sampler_type;
    }
    return ok;
}

/* Parse and check: the front half every output shares. */
struct st_shader *st_front_end(struct st_ctx *ctx, const struct st_options *o,
                               struct st_arena *arena)
{
    bool arb = dialect_is_arb(o);
    struct st_shader *sh = arb ? st_parse_arb(ctx, arena) : st_front_d3d9(ctx, arena, o);
    if (!sh || st_error_count(ctx))
        return NULL;
    st_ctx_set_anchor(ctx, sh->version.loc);
    if (!within_size(ctx, sh, o->max_instructions) || !st_poll(ctx, 0))
        return NULL;
    if (!(arb ? st_check_arb(ctx, sh) : st_check(ctx, sh)))
        return NULL;
    /* the precision of _pp is the shader's for every later stage and engine */
    sh->pp_half = o->pp == ST_PP_FP16 && !arb;
    return stage_types(ctx, sh, o) ? sh : NULL;
}

/*
 * A copy of the caller's options with every field of this version: a
 * caller compiled against an older header passed a shorter struct, whose
 * fields we copy and whose newer fields stay zero (their defaults).  False
 * for a version we do not know or a value out of range.
 */
static bool options_copy(const struct st_options *in, struct st_options *o)
{
    if (!in || in->struct_version < 1 || in->struct_version > ST_OPTIONS_VERSION)
        return false;
    size_t n = in->struct_version == 1   ? offsetof(struct st_options, max_instructions)
               : in->struct_version == 2 ? offsetof(struct st_options, pp)
               : in->struct_version == 3 ? offsetof(struct st_options, texture_types)
                                         : sizeof(*o);
    memset(o, 0, sizeof(*o));
    memcpy(o, in, n);
    for (unsigned s = 0; s < 16; s++)
        if ((unsigned)o->texture_types[s] > ST_TEXTURE_VOLUME)
            return false;
    /* Enums are compared as unsigned: a negative value is out of range too. */
    return (o->source || o->source_len == 0) &&
           (unsigned)o->dialect <= ST_DIALECT_D3D9_BYTECODE && (unsigned)o->emit <= ST_EMIT_MIR &&
           (unsigned)o->float_rules <= ST_FLOAT_D3D9 &&
           (o->simd_width == 0 || o->simd_width == 8 || o->simd_width == 16 ||
            o->simd_width == 32) &&
           (unsigned)o->fp_contract <= ST_FP_CONTRACT_OFF && (unsigned)o->pp <= ST_PP_FP16;
}

static bool run_options_copy(const struct st_run_options *in, struct st_run_options *o)
{
    if (!in || in->struct_version < 1 || in->struct_version > ST_RUN_OPTIONS_VERSION)
        return false;
    size_t n = in->struct_version == 1 ? offsetof(struct st_run_options, max_run_instructions)
                                       : sizeof(*o);
    memset(o, 0, sizeof(*o));
    memcpy(o, in, n);
    return (o->inputs_json || o->inputs_len == 0) && (unsigned)o->engine <= ST_ENGINE_GEN &&
           (unsigned)o->float_rules <= ST_FLOAT_D3D9 &&
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
    struct st_limits limits; /* the budget and cancel callback of this call */
    /* The C locale for this thread while the call runs, and what was there
     * before: printf and strtod anywhere below (ours, LLVM's) write and read
     * '.' whatever the host set with setlocale.  uselocale() is per thread,
     * so concurrent calls disturb neither each other nor the host. */
    locale_t c_locale, old_locale;
};

static bool session_begin(struct session *s, const struct st_options *o)
{
    memset(s, 0, sizeof(*s));
    s->c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (!s->c_locale)
        return false;
    s->old_locale = uselocale(s->c_locale);
    s->want_stats = o->want_stats;
    s->limits.max_work = o->max_work;
    s->limits.cancel = o->cancel;
    s->limits.cancel_user = o->cancel_user;
    s->ctx = st_ctx_create(o->filename, o->source, o->source_len, o->max_errors);
    s->arena = st_arena_create();
    if (s->ctx && s->arena) {
        st_ctx_set_limits(s->ctx, &s->limits);
        st_arena_report_to(s->arena, s->ctx);
        return true;
    }
    st_ctx_destroy(s->ctx);
    st_arena_destroy(s->arena);
    uselocale(s->old_locale);
    freelocale(s->c_locale);
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
        res->work = s->limits.work;
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
    uselocale(s->old_locale);
    freelocale(s->c_locale);
    return rc;
}

/* Prints a module's text. */
static void print_module(LLVMModuleRef m, struct st_buf *out)
{
    char *text = LLVMPrintModuleToString(m);
    st_buf_printf(out, "%s", text);
    LLVMDisposeMessage(text);
}

/*
 * The compile pipeline from a checked shader to the vector IR: lower to
 * the marker form, the passes, the merges into writemasks.  `stop` (may be
 * NULL) receives the text of an intermediate step: ST_EMIT_LLVM_RAW (as
 * lowered) or ST_EMIT_LLVM (after the passes); then the pipeline stops
 * there.  stats (may be NULL) gets the passes' and the merge stage's counts.
 */
bool st_pipeline_mir(struct st_ctx *ctx, const struct st_shader *sh, enum st_emit stop,
                     struct st_buf *text, struct mir_prog *mir, struct st_pipeline_stats *stats)
{
    struct st_pipeline_stats local;
    if (!stats)
        stats = &local;
    memset(stats, 0, sizeof(*stats));
    LLVMContextRef c = LLVMContextCreate();
    if (!c) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    /* 1. lower: every source operation a marker, every partial write a merge */
    LLVMModuleRef m = st_lower_llvm_ex(ctx, sh, ST_FLOAT_IEEE, ST_LOWER_VECTOR, c);
    bool ok = m != NULL;
    if (ok && stop == ST_EMIT_LLVM_RAW) {
        ok = st_llvm_verify(ctx, m, "lowering");
        if (ok)
            print_module(m, text);
    }
    /* 2. the passes */
    ok = ok && st_llvm_pipeline_for(ctx, m, ST_PIPE_VECTOR, &stats->llvm);
    if (ok && stop == ST_EMIT_LLVM)
        print_module(m, text);
    /* 3. the merges back into writemasks: the vector IR */
    if (ok && stop != ST_EMIT_LLVM && stop != ST_EMIT_LLVM_RAW)
        ok = st_merge(ctx, sh, m, mir, &stats->merge);
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(c);
    return ok;
}

/* The target half of st_compile: one output from the checked shader. */
static void compile(struct session *s, const struct st_options *o, const struct st_shader *sh)
{
    struct st_pipeline_stats ps;
    memset(&ps, 0, sizeof(ps));
    struct mir_prog mir;
    memset(&mir, 0, sizeof(mir));
    switch (o->emit) {
    case ST_EMIT_NONE:
        return;
    case ST_EMIT_ASM:
        if (sh->dialect == ST_ARB)
            st_print_arb(sh, &s->out);
        else
            st_print_asm(sh, &s->out);
        return;
    case ST_EMIT_D3D9_BYTECODE:
        st_write_d3d9_bytecode(s->ctx, sh, &s->out);
        return;
    case ST_EMIT_REFLECT:
        st_reflect_json(s->ctx, sh, &s->out);
        return;
    case ST_EMIT_LLVM_RAW: case ST_EMIT_LLVM:
        if (st_pipeline_mir(s->ctx, sh, o->emit, &s->out, NULL, &ps))
            st_llvm_stats_format(&ps.llvm, &s->stats);
        return;
    case ST_EMIT_MIR: case ST_EMIT_VASM: case ST_EMIT_DEFAULT: case ST_EMIT_GEN:
        break;
    }
    if (!st_pipeline_mir(s->ctx, sh, o->emit, NULL, &mir, &ps))
        return;
    st_llvm_stats_format(&ps.llvm, &s->stats);
    /* 4. the target, from the vector IR */
    switch (o->emit) {
    case ST_EMIT_MIR:
        mir_print(&mir, &s->out);
        st_merge_stats_format(&ps.merge, &s->stats);
        break;
    case ST_EMIT_VASM:
        if (st_vasm_emit(s->ctx, sh, &mir, &s->out, &ps.merge))
            st_merge_stats_format(&ps.merge, &s->stats);
        break;
    default:
        st_gen_compile_ex(s->ctx, sh, &mir, o->simd_width, o->float_rules, o->fp_contract,
                          &s->out, &s->stats, NULL);
        break;
    }
    mir_free(&mir);
}

int st_compile(const struct st_options *opts, struct st_result **result)
{
    struct session s;
    struct st_options oc, *o = &oc;
    if (!result)
        return -1;
    *result = NULL;
    if (!options_copy(opts, o) || !session_begin(&s, o))
        return -1;
    struct st_shader *sh = st_front_end(s.ctx, o, s.arena);
    if (sh)
        compile(&s, o, sh);
    return session_end(&s, result);
}

/* The JIT engine: the expanded IR (rules baked in) through its passes. */
bool st_run_jit(struct st_ctx *ctx, const struct st_shader *sh, const char *inputs_name,
                const char *json, size_t json_len, enum st_float_rules rules, struct st_buf *out)
{
    LLVMContextRef c = LLVMContextCreate();
    if (!c) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    LLVMModuleRef m = st_lower_llvm(ctx, sh, rules, c);
    bool ok = m && st_llvm_pipeline_for(ctx, m, ST_PIPE_JIT, NULL) &&
              st_llvm_run(ctx, sh, m, inputs_name, json, json_len, rules, out);
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(c);
    return ok;
}

int st_run(const struct st_run_options *ropts, struct st_result **result)
{
    struct session s;
    struct st_run_options rc, *ro = &rc;
    struct st_options oc;
    if (!result)
        return -1;
    *result = NULL;
    if (!run_options_copy(ropts, ro) || !options_copy(ro->compile, &oc) ||
        !session_begin(&s, &oc))
        return -1;
    s.limits.max_run = ro->max_run_instructions;

    struct st_shader *sh = st_front_end(s.ctx, &oc, s.arena);
    if (sh) {
        switch (ro->engine) {
        case ST_ENGINE_INTERP:
            st_interp_run(s.ctx, sh, ro->inputs_filename, ro->inputs_json, ro->inputs_len,
                          ro->float_rules, &s.out);
            break;
        case ST_ENGINE_LLVM:
            st_run_jit(s.ctx, sh, ro->inputs_filename, ro->inputs_json, ro->inputs_len,
                       ro->float_rules, &s.out);
            break;
        case ST_ENGINE_GEN: {
            /* the kernel of the compile pipeline, in the Gen simulator */
            struct mir_prog mir;
            memset(&mir, 0, sizeof(mir));
            if (st_pipeline_mir(s.ctx, sh, ST_EMIT_GEN, NULL, &mir, NULL))
                st_gen_run(s.ctx, sh, &mir, ro->simd_width, ro->inputs_filename,
                           ro->inputs_json, ro->inputs_len, ro->float_rules, oc.fp_contract,
                           &s.out);
            mir_free(&mir);
            break;
        }
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
