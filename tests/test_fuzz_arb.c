/*
 * test_fuzz_arb.c — random valid ARB programs (arbgen.c) through every
 * comparison the engines owe each other (the ARB counterpart of
 * test_fuzz.c):
 *
 * - the checker accepts the program (st_compile, ST_EMIT_NONE): the
 *   generator only writes valid programs, so a rejection is a bug on one
 *   side (the message says which rule the checker applied);
 * - the LLVM JIT prints the same outputs JSON as the reference interpreter,
 *   under both float rules.  The JSON prints every float with %.9g (which
 *   reads back to the same float32, -0 as "-0") and every NaN as "nan", so
 *   equal text is "bit for bit, any NaN equals any NaN";
 * - the --emit=vasm text of the program, run by the interpreter, prints the
 *   same outputs as the program itself (both float rules).  While the vasm
 *   emitter refuses ARB programs (ST3001) they are counted, not failed; once
 *   it emits them, they are compared with no change here;
 * - the Gen9 kernel run in the Gen simulator (st_gen_execute) gives the
 *   interpreter's outputs (both float rules) at SIMD8, and for fragment programs
 *   also at SIMD16 and SIMD32, within the tolerance of docs/gensim.md
 *   (st_tol_*, translator/run/tolerance.c: the rule every judge applies).
 *   Programs the back end refuses by design (ST3001 naming what it does not
 *   support, e.g. fragment.position) are counted apart, not failed.
 *
 * Environment:
 *   ST_FUZZ_COUNT    programs to generate (default below; CI runs that)
 *   ST_FUZZ_SEED     first seed (default 1); program k uses seed + k
 *   ST_FUZZ_KIND     only "vp" or "fp"
 *   ST_FUZZ_DUMP     a directory: each failing program is written there as
 *                    fuzz-SEED.vp/.fp and fuzz-SEED.in.json
 *   ST_VERBOSE=1     list the seeds of unsupported programs too
 *
 * The generator is compiled into this program (#include below) so that the
 * build needs no rule for a helper file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "shadertrans.h"
#include "emit.h"
#include "translator.h"
#include "test_util.h"
#include "fuzz_util.h"

#include "arbgen.c"

/* About 10 s in the plain build (and ~4x that under ASan+UBSan);
 * ST_FUZZ_COUNT=3000 or more for a real sweep. */
enum { DEFAULT_COUNT = 300 };

/*
 * KNOWN ENGINE BUGS, reported to the lead (each row names its report).  A
 * failure of the comparison `what` in a program that `applies` to is
 * counted as "known" instead of failing the test; everything else in the
 * run is still checked.  Remove a row when its bug is fixed.  A row must be
 * a real, reported engine bug, never a way to make a failure go away.
 */
struct known_bug {
    const char *what; /* the comparison that fails, as printed */
    bool (*applies)(const struct ag_program *p);
    const char *report;
};

/* Fixed, and so no longer listed: Gen dropped ARB_draw_buffers
 * result.color[4..7] (now eight render targets, samples/arb/21); LLVM 19's
 * instcombine folded MAX/MIN/_SAT select chains as if NaN did not exist
 * (passes/minmax_fence.c; the directed test below).  The NULL row keeps
 * the table valid C while it has no entries. */
static const struct known_bug known_bugs[] = {
    {NULL, NULL, NULL},
};

static const struct known_bug *known(const struct ag_program *p, const char *what)
{
    for (size_t i = 0; i < sizeof(known_bugs) / sizeof(known_bugs[0]); i++)
        if (known_bugs[i].what && strstr(what, known_bugs[i].what) && known_bugs[i].applies(p))
            return &known_bugs[i];
    return NULL;
}

struct totals {
    unsigned programs, per_kind[AG_NUM_KINDS], rejected;
    unsigned jit_runs, jit_mismatch, jit_unsupported, jit_failed, interp_failed;
    unsigned vasm_emitted, vasm_unsupported, vasm_failed, vasm_runs, vasm_mismatch;
    unsigned gen_runs, gen_mismatch, gen_unsupported, gen_failed, gen_tolerated, gen_unjudged;
    unsigned gen_fused_only;
    unsigned known;
    unsigned long packed_pixels, quad_pixels, single_pixels; /* how the Gen engine ran them */
    unsigned failures_printed;
    /* coverage */
    uint64_t ops[AG_NUM_KINDS];
    unsigned features, options, targets;
};

static const char *file_name(const struct ag_program *p)
{
    return p->kind == AG_FP ? "fuzz.fp" : "fuzz.vp";
}

static void dump(uint64_t seed, const struct ag_program *p)
{
    fuzz_dump(seed, p->kind == AG_FP ? "fp" : "vp", p->text, p->inputs);
}

/* Reports a failure; returns false when it is a known (reported) bug, which
 * the caller then does not count as a failure. */
static bool report(struct totals *t, uint64_t seed, const struct ag_program *p, const char *what,
                   const char *a, const char *b)
{
    const struct known_bug *k = known(p, what);
    if (k) {
        t->known++;
        if (verbose())
            fprintf(stderr, "known bug: seed %llu: %s (%s)\n", (unsigned long long)seed, what, k->report);
        return false;
    }
    fprintf(stderr, "FUZZ FAILURE seed %llu (%s): %s\n", (unsigned long long)seed, ag_kind_name(p->kind),
            what);
    fprintf(stderr, "  reproduce: ST_FUZZ_SEED=%llu ST_FUZZ_COUNT=1 build/tests/test_fuzz_arb\n",
            (unsigned long long)seed);
    if (a && b)
        first_difference(a, b);
    if (t->failures_printed++ < 3)
        fprintf(stderr, "--- program\n%s--- inputs\n%s---\n", p->text, p->inputs);
    dump(seed, p);
    return true;
}

/* Is component c (of ncomp) of output `label` one whose Gen value cannot be
 * judged (arbgen.c, "Judging")?  One-component outputs print the lane that
 * counts: z for result.depth, x otherwise. */
static bool unjudged(const struct ag_program *p, const char *label, unsigned ncomp, unsigned c)
{
    unsigned lane = ncomp == 1 ? (strcmp(label, "result.depth") == 0 ? 2 : 0) : c;
    for (unsigned i = 0; i < p->num_unjudged; i++)
        if (strcmp(p->unjudged[i].output, label) == 0)
            return (p->unjudged[i].lanes >> lane) & 1;
    return false;
}

/* Interpreter against the Gen engine on the program's own inputs, under one float rule. */
static void gen_compare(struct totals *t, uint64_t seed, const struct ag_program *gp,
                        enum st_float_rules rules)
{
    size_t len = strlen(gp->text);
    struct st_arena *arena = st_arena_create();
    struct st_ctx *ctx = st_ctx_create(file_name(gp), gp->text, len, 1000);
    struct st_shader *sh = st_parse_arb(ctx, arena);
    struct st_run_inputs *in = calloc(1, sizeof(*in));
    struct st_run_outputs *ref = NULL, *gen = NULL, *fused = NULL;
    assert_non_null(in);
    if (!sh || st_error_count(ctx) || !st_check_arb(ctx, sh) ||
        !st_run_inputs_parse(ctx, sh, "fuzz.in.json", gp->inputs, strlen(gp->inputs), arena, in) ||
        !st_interp_execute(ctx, sh, in, rules, (ref = calloc(in->num_invocations + 1, sizeof(*ref)))))
        goto done; /* the checks of fuzz_one already count these */
    gen = calloc(in->num_invocations + 1, sizeof(*gen));
    assert_non_null(gen);
    /* the other reading of the multiply-adds: each rounded once (st_tol_shader_muladd) */
    if (st_tol_shader_muladd(sh)) {
        fused = calloc(in->num_invocations + 1, sizeof(*fused));
        assert_non_null(fused);
        if (!st_interp_execute_ex(ctx, sh, in, rules, true, fused))
            goto done;
    }
    unsigned inexact = st_tol_shader_inexact(sh);
    bool vp = sh->version.type == ST_VS;
    for (unsigned simd = 8; simd <= 32 && !(vp && simd > 8); simd *= 2) {
        struct st_ctx *c2 = st_ctx_create(file_name(gp), gp->text, len, 1000);
        struct st_gen_run_stats stats;
        memset(gen, 0, (in->num_invocations + 1) * sizeof(*gen));
        bool ok = test_gen_execute(c2, sh, simd, in, rules, gen, &stats);
        if (!ok) {
            char msg[512];
            unsigned code = first_error(c2, msg, sizeof(msg));
            st_ctx_destroy(c2);
            if (code == ST_E_NOT_SUPPORTED && strncmp(msg, "Gen engine", 10) != 0) {
                /* the back end names what it does not support */
                t->gen_unsupported++;
                if (verbose())
                    fprintf(stderr, "gen not supported: seed %llu: %s\n", (unsigned long long)seed, msg);
            } else {
                char what[640];
                snprintf(what, sizeof(what), "the Gen engine fails at SIMD%u: %s", simd, msg);
                if (report(t, seed, gp, what, NULL, NULL))
                    t->gen_failed++;
            }
            break; /* the other widths would say the same */
        }
        st_ctx_destroy(c2);
        t->gen_runs++;
        t->packed_pixels += stats.packed_pixels;
        t->quad_pixels += stats.quad_pixels;
        t->single_pixels += stats.single_pixels;
        unsigned bad = 0;
        for (unsigned k = 0; k < in->num_invocations; k++) {
            const struct st_run_outputs *a = &ref[k], *b = &gen[k], *f = fused ? &fused[k] : a;
            a = st_tol_reading(a, f, b); /* a discard a multiply-add decided */
            if (f->discarded != a->discarded || f->count != a->count)
                f = a;
            if (a->discarded != b->discarded && gp->kil_unjudged) {
                t->gen_unjudged++; /* KIL of an inexact value */
                continue;
            }
            bool same = a->discarded == b->discarded && (a->discarded || a->count == b->count);
            for (unsigned r = 0; same && !a->discarded && r < a->count; r++)
                for (unsigned c = 0; c < a->reg[r].ncomp; c++) {
                    float w = a->reg[r].v[c], wf = f->reg[r].v[c], g = b->reg[r].v[c];
                    if (st_tol_within(w, g, false))
                        continue;
                    if (st_tol_within(wf, g, false)) {
                        t->gen_fused_only++;
                        continue;
                    }
                    char nb[64];
                    if (unjudged(gp, st_run_output_label(sh, &a->reg[r], nb), a->reg[r].ncomp, c)) {
                        t->gen_unjudged++;
                        continue;
                    }
                    if (st_tol_within_either(w, wf, g, inexact)) {
                        t->gen_tolerated++;
                        continue;
                    }
                    if (!bad && !known(gp, "interp and gen differ")) {
                        fprintf(stderr, "  gen SIMD%u inv %u %s.%c: interp %.9g, gen %.9g\n", stats.simd, k,
                                st_run_output_label(sh, &a->reg[r], nb), "xyzw"[c], (double)w, (double)g);
                    }
                    same = false;
                }
            if (!same && !bad++ && a->discarded != b->discarded && !known(gp, "interp and gen differ"))
                fprintf(stderr, "  gen SIMD%u inv %u: %s discards\n", stats.simd, k,
                        a->discarded ? "only the interpreter" : "only Gen");
        }
        if (bad) {
            char what[96];
            snprintf(what, sizeof(what), "interp and gen differ at SIMD%u in %u invocations", simd, bad);
            if (report(t, seed, gp, what, NULL, NULL))
                t->gen_mismatch++;
            break;
        }
    }
done:
    free(gen);
    free(fused);
    free(ref);
    free(in);
    st_ctx_destroy(ctx);
    st_arena_destroy(arena);
}

static void fuzz_one(struct totals *t, uint64_t seed, int kind)
{
    struct ag_program p;
    assert_int_equal(ag_generate(seed, kind, &p), 0);
    t->programs++;
    t->per_kind[p.kind]++;
    t->ops[p.kind] |= p.ops;
    t->features |= p.features;
    t->options |= p.options;
    t->targets |= p.targets;
    const char *name = file_name(&p);

    /* the checker must accept everything the generator writes */
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION,
                           .filename = name,
                           .source = p.text,
                           .source_len = strlen(p.text),
                           .emit = ST_EMIT_NONE};
    struct st_result *res = NULL;
    assert_int_equal(st_compile(&o, &res), 0);
    if (!res->ok) {
        if (report(t, seed, &p, "the checker rejects a generated program", NULL, NULL)) {
            t->rejected++;
            print_diags(res);
        }
        st_result_free(res);
        ag_program_free(&p);
        return;
    }
    st_result_free(res);

    for (int ri = 0; ri < 2; ri++) {
        enum st_float_rules rules = ri ? ST_FLOAT_D3D9 : ST_FLOAT_IEEE;
        unsigned code = 0;
        /* the vasm text, compiled under the rules it will run under */
        char *vasm = NULL;
        o.emit = ST_EMIT_VASM;
        o.float_rules = rules;
        assert_int_equal(st_compile(&o, &res), 0);
        if (res->ok && res->output) {
            vasm = strdup(res->output);
            t->vasm_emitted++;
        } else {
            bool unsupported = false;
            for (size_t k = 0; k < res->num_diagnostics; k++)
                if (res->diagnostics[k].code == ST_E_NOT_SUPPORTED)
                    unsupported = true;
            if (unsupported) {
                t->vasm_unsupported++;
                if (verbose() && !ri)
                    fprintf(stderr, "vasm not supported: seed %llu: %s\n", (unsigned long long)seed,
                            res->num_diagnostics ? res->diagnostics[0].message : "");
            } else if (report(t, seed, &p, "--emit=vasm fails on a valid program", NULL, NULL)) {
                t->vasm_failed++;
                print_diags(res);
            }
        }
        st_result_free(res);
        char *ref = run_shader(name, p.text, p.inputs, ST_ENGINE_INTERP, rules, &code, false);
        if (!ref) {
            if (report(t, seed, &p, "the interpreter fails", NULL, NULL)) {
                t->interp_failed++;
                free(run_shader(name, p.text, p.inputs, ST_ENGINE_INTERP, rules, &code, true));
            }
            free(vasm);
            continue;
        }
        char *jit = run_shader(name, p.text, p.inputs, ST_ENGINE_LLVM, rules, &code, false);
        if (!jit) {
            if (code == ST_E_NOT_SUPPORTED) {
                t->jit_unsupported++;
                if (verbose())
                    fprintf(stderr, "llvm not supported: seed %llu\n", (unsigned long long)seed);
            } else if (report(t, seed, &p, "the LLVM engine fails", NULL, NULL)) {
                t->jit_failed++;
                free(run_shader(name, p.text, p.inputs, ST_ENGINE_LLVM, rules, &code, true));
            }
        } else {
            t->jit_runs++;
            if (strcmp(ref, jit) != 0) {
                char what[64];
                snprintf(what, sizeof(what), "interp and llvm differ (%s rules)", rules_name(rules));
                if (report(t, seed, &p, what, ref, jit))
                    t->jit_mismatch++;
            }
        }
        if (vasm) {
            /* the vasm text is of the program's own dialect */
            char *v = run_shader(name, vasm, p.inputs, ST_ENGINE_INTERP, rules, &code, false);
            if (!v) {
                if (report(t, seed, &p, "the vasm text does not run", NULL, NULL)) {
                    t->vasm_failed++;
                    free(run_shader(name, vasm, p.inputs, ST_ENGINE_INTERP, rules, &code, true));
                }
            } else {
                t->vasm_runs++;
                if (strcmp(ref, v) != 0) {
                    char what[80];
                    snprintf(what, sizeof(what), "the program and its vasm differ (%s rules)",
                             rules_name(rules));
                    if (report(t, seed, &p, what, ref, v)) {
                        t->vasm_mismatch++;
                        if (t->failures_printed <= 3)
                            fprintf(stderr, "--- vasm\n%s---\n", vasm);
                    }
                }
            }
            free(v);
        }
        free(jit);
        free(ref);
        free(vasm);
    }
    gen_compare(t, seed, &p, ST_FLOAT_IEEE);
    gen_compare(t, seed, &p, ST_FLOAT_D3D9);
    ag_program_free(&p);
}

/*
 * Directed: the MAX/_SAT chains where the LLVM optimizer's select algebra
 * must keep NaN and -0 apart (docs/interpreter.md: MAX is (a > b) ? a : b,
 * MIN (a > b) ? b : a, _SAT gives +0 for NaN and keeps -0).  Expected
 * values worked out by hand for x = (NaN, -0, 2, 0.5):
 *   MAX t, 1, x; MAX r, t, 1   -> t = (NaN, 1, 2, 1), r = (1, 1, 2, 1)
 *   MAX_SAT r, 0, x            -> max = (NaN, -0, 2, 0.5), r = (0, -0, 1, 0.5)
 *   MAX t, 0, x; MAX r, t, 0   -> t = (NaN, -0, 2, 0.5), r = (0, 0, 2, 0.5)
 *   MAX_SAT t, 0, x; MIN r, t, 1 -> t = (0, -0, 1, 0.5), r = t
 *   MIN_SAT t, x, 0; MAX_SAT r, t, x -> min = (NaN, -0, 0, 0), t = (0, -0, 0, 0),
 *     max = (NaN, -0, 2, 0.5) (-0 > -0 is false: x), r = (0, -0, 1, 0.5)
 * The interpreter must give exactly these; the LLVM and Gen engines must
 * print what the interpreter prints (both float rules for LLVM).
 */
static void test_directed_select_chains(void **state)
{
    (void)state;
    static const struct {
        const char *body, *expect;
    } cases[] = {
        {"MAX t, {1}.x, x;\nMAX result.color, t, {1}.x;\n", "[1, 1, 2, 1]"},
        {"MAX_SAT result.color, {0}.x, x;\n", "[0, -0, 1, 0.5]"},
        {"MAX t, {0}.x, x;\nMAX result.color, t, {0}.x;\n", "[0, 0, 2, 0.5]"},
        {"MAX_SAT t, {0}.x, x;\nMIN result.color, t, {1}.x;\n", "[0, -0, 1, 0.5]"},
        {"MIN_SAT t, x, {0}.x;\nMAX_SAT result.color, t, x;\n", "[0, -0, 1, 0.5]"},
    };
    const char *inputs = "{\"invocations\": [{\"fragment.texcoord[0]\": [\"nan\", -0.0, 2, 0.5]}]}";
    struct totals t;
    memset(&t, 0, sizeof(t));
    unsigned failed = 0;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char text[512];
        snprintf(text, sizeof(text),
                 "!!ARBfp1.0\n# directed: select chain %u\nATTRIB x = fragment.texcoord[0];\nTEMP t;\n%sEND\n",
                 (unsigned)i, cases[i].body);
        struct ag_program p = {.kind = AG_FP, .text = text, .inputs = (char *)inputs};
        unsigned code;
        char *ref = run_shader("directed.fp", text, inputs, ST_ENGINE_INTERP, ST_FLOAT_IEEE, &code, true);
        assert_non_null(ref);
        /* the interpreter against the values worked out by hand */
        char want[128];
        snprintf(want, sizeof(want), "{\"result.color\": %s}", cases[i].expect);
        if (!strstr(ref, want)) {
            fprintf(stderr, "directed %u: interpreter %s, expected %s\n", (unsigned)i, ref, want);
            failed++;
        }
        for (int e = 0; e < 3; e++) {
            enum st_engine eng = e == 2 ? ST_ENGINE_GEN : ST_ENGINE_LLVM;
            enum st_float_rules rules = e == 1 ? ST_FLOAT_D3D9 : ST_FLOAT_IEEE;
            char *r0 = rules == ST_FLOAT_IEEE ? NULL
                                              : run_shader("directed.fp", text, inputs, ST_ENGINE_INTERP, rules, &code, true);
            char *out = run_shader("directed.fp", text, inputs, eng, rules, &code, true);
            assert_non_null(out);
            const char *cmp = r0 ? r0 : ref;
            if (strcmp(cmp, out) != 0) {
                char what[96];
                snprintf(what, sizeof(what), "interp and %s differ (%s rules)", e == 2 ? "gen" : "llvm",
                         rules_name(rules));
                if (report(&t, i, &p, what, cmp, out))
                    failed++;
            }
            free(out);
            free(r0);
        }
        free(ref);
    }
    printf("fuzz-arb: directed select chains: %u failures, %u known (known_bugs[])\n", failed, t.known);
    assert_int_equal(failed, 0);
}

/* The generator itself: deterministic, both kinds, the header asked for. */
static void test_generator_deterministic(void **state)
{
    (void)state;
    for (int k = 0; k < AG_NUM_KINDS; k++) {
        struct ag_program a, b;
        assert_int_equal(ag_generate(42, k, &a), 0);
        assert_int_equal(ag_generate(42, k, &b), 0);
        assert_string_equal(a.text, b.text);
        assert_string_equal(a.inputs, b.inputs);
        assert_int_equal(a.kind, k);
        assert_memory_equal(a.text, k == AG_VP ? "!!ARBvp1.0\n" : "!!ARBfp1.0\n", 11);
        ag_program_free(&a);
        ag_program_free(&b);
    }
    struct ag_program a, b;
    assert_int_equal(ag_generate(1, -1, &a), 0);
    assert_int_equal(ag_generate(2, -1, &b), 0);
    assert_true(strcmp(a.text, b.text) != 0);
    ag_program_free(&a);
    ag_program_free(&b);
}

static void print_coverage(const struct totals *t)
{
    for (int k = 0; k < AG_NUM_KINDS; k++) {
        printf("fuzz-arb: %s instructions not generated:", ag_kind_name((enum ag_kind)k));
        unsigned missing = 0;
        for (unsigned i = 0; i < ag_num_ops(); i++)
            if (ag_op_in(i, (enum ag_kind)k) && !(t->ops[k] & (1ull << i))) {
                printf(" %s", ag_op_name(i));
                missing++;
            }
        printf("%s\n", missing ? "" : " none");
    }
    printf("fuzz-arb: options not generated:");
    unsigned missing = 0;
    for (unsigned i = 0; i < AG_NUM_OPTIONS; i++)
        if (!(t->options & (1u << i))) {
            printf(" %s", ag_option_name(1u << i));
            missing++;
        }
    printf("%s\n", missing ? "" : " none");
    printf("fuzz-arb: texture targets %u of %u, features 0x%x\n", (unsigned)__builtin_popcount(t->targets),
           AG_NUM_TARGETS, t->features);
}

static void test_fuzz(void **state)
{
    (void)state;
    const char *e = getenv("ST_FUZZ_COUNT");
    unsigned count = e && atoi(e) > 0 ? (unsigned)atoi(e) : DEFAULT_COUNT;
    e = getenv("ST_FUZZ_SEED");
    uint64_t seed = e && *e ? strtoull(e, NULL, 10) : 1;
    int kind = -1;
    e = getenv("ST_FUZZ_KIND");
    for (int k = 0; e && k < AG_NUM_KINDS; k++)
        if (strcmp(e, ag_kind_name((enum ag_kind)k)) == 0)
            kind = k;
    struct totals t;
    memset(&t, 0, sizeof(t));
    clock_t start = clock();
    for (unsigned k = 0; k < count; k++)
        fuzz_one(&t, seed + k, kind);
    double secs = (double)(clock() - start) / CLOCKS_PER_SEC;
    printf("fuzz-arb: seeds %llu..%llu, %u programs (vp %u, fp %u), %u rejected by the checker\n",
           (unsigned long long)seed, (unsigned long long)(seed + count - 1), t.programs, t.per_kind[AG_VP],
           t.per_kind[AG_FP], t.rejected);
    printf("fuzz-arb: interp vs llvm: %u runs, %u mismatches, %u not supported, %u llvm failures, "
           "%u interp failures\n",
           t.jit_runs, t.jit_mismatch, t.jit_unsupported, t.jit_failed, t.interp_failed);
    printf("fuzz-arb: interp vs vasm: %u emitted, %u not supported (per program and rule), %u runs, "
           "%u mismatches, %u failures\n",
           t.vasm_emitted, t.vasm_unsupported, t.vasm_runs, t.vasm_mismatch, t.vasm_failed);
    printf("fuzz-arb: interp vs gen (SIMD8; fragment programs also 16, 32): %u runs, %u mismatches, "
           "%u not supported, %u failures, %u components within math tolerance, %u matching the fused "
           "reading of the multiply-adds only, %u differing components not judged (an inexact value "
           "through a cancelling or discontinuous operation)\n",
           t.gen_runs, t.gen_mismatch, t.gen_unsupported, t.gen_failed, t.gen_tolerated, t.gen_fused_only,
           t.gen_unjudged);
    printf("fuzz-arb: gen fragment threads: %lu pixels in full-width threads, %lu in one-quad threads, "
           "%lu alone\n",
           t.packed_pixels, t.quad_pixels, t.single_pixels);
    printf("fuzz-arb: %u failures are known, reported engine bugs (known_bugs[]); %.1f s\n", t.known, secs);
    print_coverage(&t);
    assert_int_equal(t.rejected, 0);
    assert_int_equal(t.interp_failed, 0);
    assert_int_equal(t.jit_failed, 0);
    assert_int_equal(t.jit_mismatch, 0);
    assert_int_equal(t.vasm_failed, 0);
    assert_int_equal(t.vasm_mismatch, 0);
    assert_int_equal(t.gen_failed, 0);
    assert_int_equal(t.gen_mismatch, 0);
    /* no refusal (issue 12) */
    assert_int_equal(t.vasm_unsupported, 0);
    assert_int_equal(t.gen_unsupported, 0);
    assert_true(t.programs == count);
    /* the default run covers every instruction of both kinds and every
     * option and texture target (a generator change that loses one fails) */
    if (count >= DEFAULT_COUNT && kind < 0) {
        for (int k = 0; k < AG_NUM_KINDS; k++)
            for (unsigned i = 0; i < ag_num_ops(); i++)
                if (ag_op_in(i, (enum ag_kind)k))
                    assert_true(t.ops[k] & (1ull << i));
        assert_int_equal(t.options, (1u << AG_NUM_OPTIONS) - 1);
        assert_int_equal(t.targets, (1u << AG_NUM_TARGETS) - 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generator_deterministic),
        cmocka_unit_test(test_directed_select_chains),
        cmocka_unit_test(test_fuzz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
