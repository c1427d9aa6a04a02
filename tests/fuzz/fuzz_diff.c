/*
 * fuzz_diff.c — libFuzzer differential target: the fuzzer's bytes drive
 * the random shader generators of the tests (tests/shadergen.c for
 * Direct3D 9, tests/arbgen.c for ARB; their choices are taken from the
 * bytes, 4 a choice, then from a sequence seeded by the bytes), and the
 * valid shader and its inputs are run on all three engines:
 *
 * - the interpreter must run it (a run-time limit, ST4002, excepted);
 * - the LLVM JIT must print the same outputs JSON, under both float rules
 *   (bit for bit, any NaN equal to any NaN), unless it refuses (ST3001);
 * - the Gen engine (IEEE rules; SIMD8, and pixel shaders also 16 and 32)
 *   must give the interpreter's values within the tolerance of
 *   docs/gensim.md under either reading of the multiply-adds
 *   (st_tol_within_either, translator/run/tolerance.c), ARB lanes
 *   the generator marks as not judgeable excepted.  Refusals by design are skipped exactly as
 *   tests/test_fuzz.c and test_fuzz_arb.c skip them.
 *
 * Any other outcome is a finding: the shader and its inputs are printed
 * and the run aborts, so libFuzzer keeps the input.  The first byte picks
 * the dialect (even: Direct3D 9, odd: ARB).  The generators are linked in
 * as objects of their own (SConscript).
 */
#include "fuzz.h"

#include "driver.h" /* st_pipeline_mir: the MIR the Gen back end compiles */
#include "emit.h"
#include "translator.h"
#include "fuzz_util.h"

#include "arbgen.h"
#include "shadergen.h"

struct case_ {
    const char *name; /* file name of the diagnostics: fuzz.asm / .vp / .fp */
    const char *text, *inputs;
    const struct ag_program *arb; /* NULL for Direct3D 9 */
};

static void finding(const struct case_ *c, const char *what)
{
    fprintf(stderr, "FUZZ FINDING: %s\n--- %s\n%s--- inputs\n%s---\n", what, c->name, c->text,
            c->inputs);
    abort();
}

/* arbgen.c, "Judging": output lanes whose Gen value cannot be compared. */
static bool unjudged(const struct ag_program *p, const char *label, unsigned ncomp, unsigned c)
{
    unsigned lane = ncomp == 1 ? (strcmp(label, "result.depth") == 0 ? 2 : 0) : c;
    for (unsigned i = 0; p && i < p->num_unjudged; i++)
        if (strcmp(p->unjudged[i].output, label) == 0)
            return (p->unjudged[i].lanes >> lane) & 1;
    return false;
}

/* Interpreter against the Gen engine (IEEE), as test_fuzz*.c compare them. */
static void gen_compare(const struct case_ *c)
{
    size_t len = strlen(c->text);
    struct st_arena *arena = st_arena_create();
    struct st_ctx *ctx = st_ctx_create(c->name, c->text, len, 1000);
    struct st_shader *sh = c->arb ? st_parse_arb(ctx, arena) : st_parse_d3d9(ctx, arena);
    struct st_run_inputs *in = calloc(1, sizeof(*in));
    struct st_run_outputs *ref = NULL, *fused = NULL, *gen = NULL;
    struct mir_prog mir;
    memset(&mir, 0, sizeof(mir));
    if (!in || !sh || st_error_count(ctx) || !(c->arb ? st_check_arb(ctx, sh) : st_check(ctx, sh)) ||
        !st_run_inputs_parse(ctx, sh, "fuzz.in.json", c->inputs, strlen(c->inputs), arena, in) ||
        !(ref = calloc(in->num_invocations + 1, sizeof(*ref))) ||
        !st_interp_execute(ctx, sh, in, ST_FLOAT_IEEE, ref))
        goto done; /* the public runs before this one judged these */
    gen = calloc(in->num_invocations + 1, sizeof(*gen));
    fused = calloc(in->num_invocations + 1, sizeof(*fused));
    if (!gen || !fused)
        goto done;
    /* the other reading of the multiply-adds: each rounded once with its sum */
    if (st_tol_shader_muladd(sh) ? !st_interp_execute_ex(ctx, sh, in, ST_FLOAT_IEEE, true, fused)
                                 : !memcpy(fused, ref, in->num_invocations * sizeof(*ref)))
        goto done;
    unsigned inexact = st_tol_shader_inexact(sh);
    bool vs = sh->version.type == ST_VS;
    for (unsigned simd = 8; simd <= 32 && !(vs && simd > 8); simd *= 2) {
        struct st_ctx *c2 = st_ctx_create(c->name, c->text, len, 1000);
        memset(gen, 0, (in->num_invocations + 1) * sizeof(*gen));
        bool ok = (mir.ins || st_pipeline_mir(c2, sh, ST_EMIT_GEN, NULL, &mir, NULL)) &&
                  st_gen_execute(c2, sh, &mir, simd, in, ST_FLOAT_IEEE, ST_FP_CONTRACT_ON, gen,
                                 NULL);
        char msg[512];
        unsigned code = ok ? 0 : first_error(c2, msg, sizeof(msg));
        st_ctx_destroy(c2);
        if (!ok) {
            /* refusals by design: what the back end names as not supported,
             * derivatives of inputs that are not one rasterised quad, vPos
             * not at an integer pixel (tests/README.md, test_fuzz) */
            if (code == ST_E_NOT_SUPPORTED && strncmp(msg, "Gen engine", 10) != 0)
                break;
            if (code == ST_E_NOT_SUPPORTED && (strstr(msg, "not one rasterised quad") ||
                                               strstr(msg, "vPos.xy must be integers")))
                break;
            char what[640];
            snprintf(what, sizeof(what), "the Gen engine fails at SIMD%u: %s", simd, msg);
            finding(c, what);
        }
        for (unsigned k = 0; k < in->num_invocations; k++) {
            /* a discard a multiply-add decided: the reading that matches */
            const struct st_run_outputs *b = &gen[k], *f = &fused[k];
            const struct st_run_outputs *a = st_tol_reading(&ref[k], f, b);
            if (f->discarded != a->discarded || f->count != a->count)
                f = a;
            if (a->discarded != b->discarded && c->arb && c->arb->kil_unjudged)
                continue; /* KIL of an inexact value */
            char what[640];
            if (a->discarded != b->discarded || (!a->discarded && a->count != b->count)) {
                snprintf(what, sizeof(what), "interp and gen differ at SIMD%u, invocation %u: %s",
                         simd, k, a->discarded != b->discarded ? "discard" : "output count");
                finding(c, what);
            }
            for (unsigned r = 0; !a->discarded && r < a->count; r++)
                for (unsigned j = 0; j < a->reg[r].ncomp; j++) {
                    float w = a->reg[r].v[j], wf = f->reg[r].v[j], g = b->reg[r].v[j];
                    char nb[64];
                    const char *label = st_run_output_label(sh, &a->reg[r], nb);
                    if (st_tol_within_either(w, wf, g, inexact) || unjudged(c->arb, label, a->reg[r].ncomp, j))
                        continue;
                    snprintf(what, sizeof(what),
                             "interp and gen differ at SIMD%u, invocation %u, %s.%c: %.9g, %.9g", simd,
                             k, label, "xyzw"[j], (double)w, (double)g);
                    finding(c, what);
                }
        }
    }
done:
    mir_free(&mir);
    free(fused);
    free(gen);
    free(ref);
    free(in);
    st_ctx_destroy(ctx);
    st_arena_destroy(arena);
}

static void judge(const struct case_ *c)
{
    struct st_result *res = fuzz_compile(c->name, c->text, strlen(c->text), ST_DIALECT_AUTO,
                                         ST_EMIT_NONE, 0, ST_FLOAT_IEEE);
    if (!res->ok) {
        char buf[512];
        st_diagnostic_format(&res->diagnostics[0], buf, sizeof(buf));
        st_result_free(res);
        finding(c, "the checker rejects a generated shader");
    }
    st_result_free(res);
    for (int r = 0; r < 2; r++) {
        enum st_float_rules rules = r ? ST_FLOAT_D3D9 : ST_FLOAT_IEEE;
        unsigned code = 0;
        char *ref = run_shader(c->name, c->text, c->inputs, ST_ENGINE_INTERP, rules, &code, true);
        if (!ref) {
            if (code == ST_E_RUNTIME)
                return;
            finding(c, "the interpreter fails");
        }
        char *jit = run_shader(c->name, c->text, c->inputs, ST_ENGINE_LLVM, rules, &code, true);
        if (!jit && code != ST_E_NOT_SUPPORTED)
            finding(c, "the LLVM engine fails");
        if (jit && strcmp(ref, jit) != 0) {
            first_difference(ref, jit);
            finding(c, r ? "interp and llvm differ (d3d9 rules)" : "interp and llvm differ (ieee rules)");
        }
        free(jit);
        free(ref);
    }
    gen_compare(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (data[0] & 1) {
        struct ag_program p;
        if (ag_generate_bytes(data + 1, size - 1, -1, &p) != 0)
            return 0;
        struct case_ c = {p.kind == AG_FP ? "fuzz.fp" : "fuzz.vp", p.text, p.inputs, &p};
        judge(&c);
        ag_program_free(&p);
    } else {
        struct sg_shader s;
        if (sg_generate_bytes(data + 1, size - 1, -1, &s) != 0)
            return 0;
        struct case_ c = {"fuzz.asm", s.text, s.inputs, NULL};
        judge(&c);
        sg_shader_free(&s);
    }
    return 0;
}
