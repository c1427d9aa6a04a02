/*
 * jit.c — `shadertrans run --engine=llvm`: the optimized module executed
 * through LLVM's ORC LLJIT (C API), with the interpreter's inputs and
 * outputs (translator.h's run structs) so the two engines can be compared
 * bit for bit.
 *
 * The module's st_main follows docs/llvm-abi.md: one call per invocation
 * (or per 2x2 quad when the shader uses dsx/dsy).  Textures are sampled
 * through a callback, st_sample, that we define in the JIT's symbol table;
 * it is the interpreter's sampler (level 0, nearest, wrap; cube maps clamp
 * on the face), written again here because the interpreter keeps its own
 * private.  libm (exp2, log2, pow, sin, cos) comes from this process, so
 * the JIT calls the very functions the interpreter calls.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>

#include "emit.h"
#include "passes.h"

/* What st_sample reads: the inputs' textures; what it reports back. */
struct tex_state {
    const struct st_run_inputs *in;
    bool missing[ST_RUN_NUM_SAMPLERS];
};

/* The callback the JIT'd code calls: void st_sample(tex, stage, u, v, w, out[4]). */
static void jit_sample(void *state, int32_t stage, float u, float v, float w, float *out)
{
    struct tex_state *ts = state;
    if (stage >= 256) {
        /* ARB programs: unit | (target + 1) << 8; the shared ARB sampler. */
        int unit = stage & 0xff;
        const struct st_run_texture *t = unit < ST_RUN_NUM_SAMPLERS ? &ts->in->tex[unit] : NULL;
        if (t && t->type == ST_SAMPLER_NONE) {
            ts->missing[unit] = true;
            t = NULL;
        }
        const float c[4] = {u, v, w, 1.0f};
        st_arb_sample(t, (enum st_arb_tex_target)((stage >> 8) - 1), c, out);
        return;
    }
    const struct st_run_texture *t =
        stage >= 0 && stage < ST_RUN_NUM_SAMPLERS ? &ts->in->tex[stage] : NULL;
    if (!t || t->type == ST_SAMPLER_NONE || !t->texels) {
        if (stage >= 0 && stage < ST_RUN_NUM_SAMPLERS)
            ts->missing[stage] = true;
        out[0] = out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
        return;
    }
    const float c[3] = {u, v, w};
    st_run_texel(t, c, out);
}

static bool jit_error(struct st_ctx *ctx, LLVMErrorRef err, const char *what)
{
    char *msg = LLVMGetErrorMessage(err);
    st_error(ctx, (struct st_loc){0, 0}, ST_E_NOT_SUPPORTED, "LLVM JIT: %s: %s", what, msg);
    LLVMDisposeErrorMessage(msg);
    return false;
}

/* A string attribute of st_main copied into buf (NUL-terminated), or NULL. */
static const char *fn_attr(LLVMValueRef fn, const char *key, char *buf, size_t size)
{
    LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, key,
                                                       (unsigned)strlen(key));
    if (!a)
        return NULL;
    unsigned len = 0;
    const char *v = LLVMGetStringAttributeValue(a, &len);
    if (len >= size)
        len = (unsigned)size - 1;
    memcpy(buf, v, len);
    buf[len] = '\0';
    return buf;
}

/* The stage an instruction samples, as the lowering decides it; -1: none. */
static int sampled_stage(const struct st_shader *sh, const struct st_instr *i)
{
    bool ps1x = sh->version.type == ST_PS && sh->version.ver < ST_VER(2, 0);
    if (sh->dialect == ST_ARB)
        return (i->op == ST_OP_ARB_TEX || i->op == ST_OP_ARB_TXP || i->op == ST_OP_ARB_TXB) &&
                       i->arb ? (int)i->arb->tex_unit : -1;
    switch (i->op) {
    case ST_OP_TEXLD: case ST_OP_TEXLDP: case ST_OP_TEXLDB: case ST_OP_TEXLDL: case ST_OP_TEXLDD:
        return ps1x ? (int)i->dst.reg.index : i->nsrc > 1 ? (int)i->src[1].reg.index : 0;
    case ST_OP_TEX: case ST_OP_TEXBEM: case ST_OP_TEXBEML: case ST_OP_TEXREG2AR:
    case ST_OP_TEXREG2GB: case ST_OP_TEXREG2RGB: case ST_OP_TEXM3x2TEX: case ST_OP_TEXM3x3TEX:
    case ST_OP_TEXM3x3SPEC: case ST_OP_TEXM3x3VSPEC: case ST_OP_TEXDP3TEX:
        return (int)i->dst.reg.index;
    default:
        return -1;
    }
}

/* The warnings the interpreter gives while running, once each. */
static void run_warnings(struct st_ctx *ctx, const struct st_shader *sh, uint32_t all_status,
                         const struct tex_state *ts)
{
    if (all_status & ST_LL_STATUS_RELADDR_RANGE) {
        struct st_loc loc = {0, 0};
        for (const struct st_instr *i = sh->first; i && !loc.line; i = i->next) {
            for (unsigned k = 0; k < i->nsrc && !loc.line; k++)
                if (i->src[k].reg.rel)
                    loc = i->src[k].reg.loc;
            if (!loc.line && i->has_dst && i->dst.reg.rel)
                loc = i->dst.reg.loc;
        }
        st_warning(ctx, loc, ST_W_RELADDR_RANGE,
                   "a relative address fell outside its register file; reads give 0 and "
                   "writes are dropped");
    }
    for (int s = 0; s < ST_RUN_NUM_SAMPLERS; s++) {
        if (!ts->missing[s])
            continue;
        struct st_loc loc = {0, 0};
        for (const struct st_instr *i = sh->first; i && !loc.line; i = i->next)
            if (sampled_stage(sh, i) == s)
                loc = i->loc;
        if (sh->dialect == ST_ARB)
            st_warning(ctx, loc, ST_W_IGNORED,
                       "no texture texture[%d] in the inputs: sampling it gives (0,0,0,1)", s);
        else
            st_warning(ctx, loc, ST_W_IGNORED,
                       "no texture s%d in the inputs: sampling it gives (0,0,0,1)", s);
    }
}

typedef void (*st_main_fn)(const void *in, void *out, const void *c, const void *i, const void *b,
                           void *status, const void *bump, void *tex, void *lane);

struct env {
    st_main_fn fn;
    const struct st_run_inputs *in;
    const float (*c)[4]; /* st_main's c[]: in->c, or all of an ARB program's slots */
    int32_t b[ST_LL_NUM_BCONSTS];
    float bump[ST_RUN_NUM_SAMPLERS][ST_LL_BUMP_STRIDE];
    struct tex_state *ts;
    bool stops; /* st_main has dsx/dsy stops (and uses its lane state) */
};

/*
 * st_main is machine code the JIT made: it has no C function type to check.
 * clang's -fsanitize=function (part of -fsanitize=undefined) checks a call
 * through a function pointer by reading a signature from the 8 bytes in
 * front of the callee; in front of st_main there may be no mapped memory at
 * all (a module without constant data has its code at the start of its
 * mapping), and the check itself faulted: the "SEGV on unknown address" in
 * this function of issue 17 (tests/test_jit_calls.c reproduces it).
 */
#if defined(__clang__)
#define ST_JIT_CALL __attribute__((no_sanitize("function")))
#else
#define ST_JIT_CALL
#endif

/* One call of st_main for one lane: from the start or from its stop. */
ST_JIT_CALL static bool lane_call(struct env *e, const struct st_run_invocation *rec, float (*out)[4],
                      uint32_t *status, struct st_ll_lane_header *lane)
{
    e->fn(rec, out, e->c, e->in->i, e->b, status, e->bump, e->ts, lane);
    return e->stops && lane->resume != ST_LL_DONE; /* true: waiting at a dsx/dsy */
}

/*
 * Runs up to four lanes as one 2x2 quad (0 1 / 2 3), the interpreter's
 * run_quad: each lane runs until it ends or stops in front of dsx/dsy;
 * then the lanes waiting at the same instruction as the first waiting lane
 * get dsx = right - left within a row, dsy = bottom - top within a column
 * (0 when the neighbour is absent or elsewhere) and go on.
 */
static void run_quad(struct env *e, const struct st_run_invocation *rec, unsigned count,
                     float (*out)[ST_LL_OUT_SLOTS][4], uint32_t *status, unsigned char *states,
                     size_t state_bytes, const enum st_opcode *deriv_op)
{
    struct st_ll_lane_header *h[4];
    bool wait[4] = {false, false, false, false};
    for (unsigned k = 0; k < count; k++) {
        h[k] = (struct st_ll_lane_header *)(void *)(states + k * state_bytes);
        h[k]->resume = 0;
        wait[k] = lane_call(e, &rec[k], out[k], &status[k], h[k]);
    }
    for (;;) {
        int w = -1;
        for (unsigned k = 0; k < count; k++)
            if (wait[k]) {
                w = (int)k;
                break;
            }
        if (w < 0)
            return;
        int32_t pc = h[w]->pc;
        bool here[4] = {false, false, false, false};
        for (unsigned k = 0; k < count; k++)
            here[k] = wait[k] && h[k]->pc == pc;
        bool dsx = deriv_op[pc] == ST_OP_DSX;
        for (unsigned k = 0; k < count; k++) {
            if (!here[k])
                continue;
            unsigned a, b;
            if (dsx)
                a = k & 2u, b = (k & 2u) | 1u;
            else
                a = k & 1u, b = (k & 1u) | 2u;
            for (int c = 0; c < 4; c++)
                h[k]->deriv[c] = a < count && b < count && here[a] && here[b]
                                     ? h[b]->src[c] - h[a]->src[c] : 0.0f;
        }
        for (unsigned k = 0; k < count; k++)
            if (here[k])
                wait[k] = lane_call(e, &rec[k], out[k], &status[k], h[k]);
    }
}

/* Runs st_main over every invocation: alone, or as quads when it has stops. */
static bool run_all(struct st_ctx *ctx, const struct st_shader *sh, st_main_fn fn,
                    size_t state_bytes, const struct st_run_inputs *in, const float (*c)[4],
                    struct st_run_outputs *outs, struct tex_state *ts, uint32_t *all_status,
                    enum st_float_rules rules)
{
    struct env e;
    memset(&e, 0, sizeof(e));
    e.fn = fn;
    e.in = in;
    e.c = c;
    e.ts = ts;
    e.stops = state_bytes != 0;
    for (int k = 0; k < ST_LL_NUM_BCONSTS; k++)
        e.b[k] = k < ST_RUN_NUM_BCONSTS && in->b[k];
    for (int k = 0; k < ST_RUN_NUM_SAMPLERS; k++) {
        memcpy(e.bump[k], in->bumpenv[k].mat, 4 * sizeof(float));
        e.bump[k][4] = in->bumpenv[k].lscale;
        e.bump[k][5] = in->bumpenv[k].loffset;
    }
    struct st_run_output regs[ST_RUN_MAX_OUTPUTS];
    unsigned nregs = st_run_output_regs(sh, regs);

    /* Which instruction index is a dsx (the lane header reports indices). */
    unsigned ninstr = 0;
    for (const struct st_instr *i = sh->first; i; i = i->next)
        ninstr++;
    enum st_opcode *ops = malloc((ninstr ? ninstr : 1) * sizeof(*ops));
    size_t sb = state_bytes < sizeof(struct st_ll_lane_header) ? sizeof(struct st_ll_lane_header)
                                                               : (state_bytes + 15) / 16 * 16;
    unsigned char *states = aligned_alloc(16, 4 * sb);
    if (!ops || !states) {
        free(ops);
        free(states);
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    unsigned n = 0;
    for (const struct st_instr *i = sh->first; i; i = i->next)
        ops[n++] = i->op;

    unsigned group = state_bytes ? 4 : 1;
    float out[4][ST_LL_OUT_SLOTS][4];
    uint32_t status[4];
    bool ok = true;
    for (unsigned base = 0; base < in->num_invocations; base += group) {
        /* the caller may cancel between quads (an invocation's own work is
         * bounded by the run budget checked before) */
        if (!st_poll(ctx, 0)) {
            ok = false;
            break;
        }
        unsigned count = in->num_invocations - base < group ? in->num_invocations - base : group;
        memset(out, 0, sizeof(out));
        memset(status, 0, sizeof(status));
        memset(states, 0, 4 * sb);
        run_quad(&e, &in->inv[base], count, out, status, states, sb, ops);
        for (unsigned k = 0; k < count; k++) {
            struct st_run_outputs *o = &outs[base + k];
            if (sh->dialect == ST_ARB) {
                /* The options' fixed-function steps, then result.* by name:
                 * the code the interpreter runs too. */
                *all_status |= status[k];
                st_arb_run_finish(sh, in, (const float(*)[4])in->inv[base + k].in, out[k], rules,
                                  false);
                st_run_collect(sh, regs, nregs, (const float(*)[4])out[k],
                               (status[k] & ST_LL_STATUS_KILLED) != 0, o);
                continue;
            }
            memset(o, 0, sizeof(*o));
            o->discarded = (status[k] & ST_LL_STATUS_KILLED) != 0;
            *all_status |= status[k];
            o->count = nregs;
            for (unsigned r = 0; r < nregs; r++) {
                o->reg[r] = regs[r];
                int slot = st_run_out_slot(regs[r].file, regs[r].index);
                if (slot >= 0)
                    memcpy(o->reg[r].v, out[k][slot], sizeof(o->reg[r].v));
                for (unsigned c = regs[r].ncomp; c < 4; c++)
                    o->reg[r].v[c] = 0.0f;
            }
        }
    }
    free(ops);
    free(states);
    return ok;
}

static uint64_t ir_size(LLVMValueRef fn)
{
    uint64_t n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef v = LLVMGetFirstInstruction(bb); v; v = LLVMGetNextInstruction(v))
            n++;
    return n;
}

/*
 * LLVM's target registry is process-wide, and registering a target is not
 * safe while another thread does the same (two threads that both find the
 * target unregistered link it into the list twice).  So the native target
 * is registered once per process: the one piece of process state the
 * library touches, written once and never changed.
 */
static once_flag native_once = ONCE_FLAG_INIT;
/* (atomic: call_once orders it already, but not in a way ThreadSanitizer
 * sees; an atomic states the order for every reader) */
static atomic_bool native_ok;

static void init_native(void)
{
    atomic_store(&native_ok, !LLVMInitializeNativeTarget() && !LLVMInitializeNativeAsmPrinter());
}

bool st_llvm_jit_execute(struct st_ctx *ctx, const struct st_shader *sh, LLVMModuleRef m,
                         const struct st_run_inputs *in, enum st_float_rules rules,
                         struct st_run_outputs *outs)
{
    LLVMValueRef main_fn = LLVMGetNamedFunction(m, "st_main");
    if (!main_fn) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_NOT_SUPPORTED, "LLVM JIT: no st_main in the module");
        return false;
    }
    char frbuf[16], lbbuf[24];
    const char *fr = fn_attr(main_fn, "st-float-rules", frbuf, sizeof(frbuf));
    const char *want = rules == ST_FLOAT_D3D9 ? "d3d9" : "ieee";
    if (!fr || strcmp(fr, want) != 0) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_NOT_SUPPORTED,
                 "LLVM JIT: the module was lowered for float rules '%s', not '%s'",
                 fr ? fr : "?", want);
        return false;
    }
    const char *lb = fn_attr(main_fn, "st-lane-state-bytes", lbbuf, sizeof(lbbuf));
    size_t state_bytes = lb ? (size_t)strtoul(lb, NULL, 10) : 0;

    call_once(&native_once, init_native);
    if (!atomic_load(&native_ok)) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_NOT_SUPPORTED,
                 "LLVM JIT: this LLVM has no native target");
        return false;
    }
    LLVMOrcLLJITRef jit = NULL;
    LLVMErrorRef err = LLVMOrcCreateLLJIT(&jit, NULL);
    if (err)
        return jit_error(ctx, err, "creating the JIT");
    bool ok = true;
    LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(jit);

    /* libm and the rest of this process, for the calls the IR makes. */
    LLVMOrcDefinitionGeneratorRef gen = NULL;
    err = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&gen,
                                                               LLVMOrcLLJITGetGlobalPrefix(jit),
                                                               NULL, NULL);
    if (err)
        ok = jit_error(ctx, err, "finding this process's symbols");
    else
        LLVMOrcJITDylibAddGenerator(jd, gen);

    /* st_sample -> jit_sample */
    if (ok) {
        LLVMOrcCSymbolMapPair pair = {
            .Name = LLVMOrcLLJITMangleAndIntern(jit, ST_LL_SAMPLE_FN),
            .Sym = {.Address = (LLVMOrcExecutorAddress)(uintptr_t)&jit_sample,
                    .Flags = {.GenericFlags = LLVMJITSymbolGenericFlagsExported |
                                              LLVMJITSymbolGenericFlagsCallable,
                              .TargetFlags = 0}},
        };
        LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(&pair, 1);
        err = LLVMOrcJITDylibDefine(jd, mu);
        if (err) {
            LLVMOrcDisposeMaterializationUnit(mu);
            ok = jit_error(ctx, err, "defining st_sample");
        }
    }

    /*
     * The JIT takes ownership of what it compiles, so it gets a copy; the
     * copy lives in m's context, which the caller keeps alive for this
     * call, and everything is compiled on this thread.
     */
    if (ok) {
        LLVMModuleRef copy = LLVMCloneModule(m);
        LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
        LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(copy, tsc);
        LLVMOrcDisposeThreadSafeContext(tsc);
        err = LLVMOrcLLJITAddLLVMIRModule(jit, jd, tsm);
        if (err) {
            LLVMOrcDisposeThreadSafeModule(tsm);
            ok = jit_error(ctx, err, "adding the module");
        }
    }
    LLVMOrcExecutorAddress addr = 0;
    /* code generation happens in the lookup: charged per IR instruction */
    if (ok)
        ok = st_poll(ctx, ir_size(main_fn));
    if (ok) {
        err = LLVMOrcLLJITLookup(jit, &addr, "st_main");
        if (err)
            ok = jit_error(ctx, err, "compiling st_main");
    }
    if (ok) {
        struct tex_state ts;
        memset(&ts, 0, sizeof(ts));
        ts.in = in;
        uint32_t all_status = 0;
        st_main_fn fn;
        /* An executor address is a function pointer here (in-process JIT). */
        void *p = (void *)(uintptr_t)addr;
        memcpy(&fn, &p, sizeof(fn));
        /* c[] is one array in the ABI: an ARB program with more slots than
         * the run struct's fixed part gets a contiguous copy (only those) */
        float(*big)[4] = NULL;
        if (in->c_more && in->num_c_more) {
            unsigned nc = st_run_num_consts(in);
            big = malloc((size_t)nc * sizeof(big[0]));
            if (!big) {
                st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
                ok = false;
            } else {
                memcpy(big, in->c, sizeof(in->c));
                memcpy(big + ST_RUN_NUM_CONSTS, in->c_more, (size_t)in->num_c_more * sizeof(big[0]));
            }
        }
        if (ok) {
            ok = run_all(ctx, sh, fn, state_bytes, in, big ? (const float(*)[4])big : in->c, outs, &ts,
                         &all_status, rules);
            run_warnings(ctx, sh, all_status, &ts);
        }
        free(big);
    }
    err = LLVMOrcDisposeLLJIT(jit);
    if (err)
        ok = jit_error(ctx, err, "disposing of the JIT") && ok;
    return ok;
}

/* The JIT's st_run_engine step: lower, run the pass pipeline, JIT and execute. */
static bool llvm_step(void *user, struct st_ctx *ctx, const struct st_shader *sh,
                      const struct st_run_inputs *in, enum st_float_rules rules,
                      struct st_run_outputs *outs)
{
    return st_llvm_jit_execute(ctx, sh, (LLVMModuleRef)user, in, rules, outs);
}

bool st_llvm_run(struct st_ctx *ctx, const struct st_shader *sh, LLVMModuleRef m,
                 const char *inputs_name, const char *json, size_t json_len,
                 enum st_float_rules rules, struct st_buf *out)
{
    return st_run_engine(ctx, sh, inputs_name, json, json_len, rules, llvm_step, m, out);
}
