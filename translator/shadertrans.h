/*
 * shadertrans.h — the one public header of libshadertrans.
 *
 * An embedder fills a struct st_options, calls st_compile() (or st_run()),
 * reads the struct st_result it gets back and hands it to st_result_free().
 * The library never prints, never exits and keeps no global state: every
 * call is independent and may run on any thread.
 *
 * Versioning: every public struct starts with `struct_version`.  Callers set
 * it to the ST_*_VERSION constant they were compiled against; the library
 * accepts any version it knows and only ever appends fields.
 */
#ifndef SHADERTRANS_H
#define SHADERTRANS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ST_API_VERSION 1
#define ST_OPTIONS_VERSION 4
#define ST_RESULT_VERSION 2

enum st_severity {
    ST_SEVERITY_ERROR = 0,
    ST_SEVERITY_WARNING = 1,
    ST_SEVERITY_NOTE = 2,
};

/*
 * One located message.  Codes are stable numbers (docs/diagnostics.md).
 * A diagnostic in a file the shader #includes is followed by notes (severity
 * ST_SEVERITY_NOTE, the same code) naming each #include that led there,
 * innermost first; one in text a macro produced, by a note naming the
 * macro's definition.  Bytecode has no lines: line is 0 and column is the
 * byte offset + 1 (st_diagnostic_format prints "file:0x1c:").
 */
struct st_diagnostic {
    enum st_severity severity;
    unsigned code;
    const char *file;        /* st_options.filename, or the file it #includes */
    unsigned line, column;   /* 1-based; 0 when the message has no location */
    const char *message;     /* without file, severity or code */
    const char *source_line; /* the text of that line, no newline, or NULL */
};

enum st_dialect_choice {
    ST_DIALECT_AUTO = 0, /* from the header: vs_/ps_, !!ARBvp/!!ARBfp or a bytecode version token */
    ST_DIALECT_D3D9 = 1,
    ST_DIALECT_ARB = 2,
    ST_DIALECT_D3D9_BYTECODE = 3, /* a Direct3D 8/9 shader token stream (docs/d3d9-front-end.md) */
};

enum st_emit {
    ST_EMIT_DEFAULT = 0,  /* the Intel Gen9 kernel (ST_EMIT_GEN) */
    ST_EMIT_ASM = 1,      /* the checked AST printed as canonical assembly */
    ST_EMIT_NONE = 2,     /* parse and check only */
    ST_EMIT_LLVM_RAW = 3, /* LLVM IR as lowered: every partial write a merge */
    ST_EMIT_LLVM = 4,     /* LLVM IR after the pass pipeline */
    ST_EMIT_VASM = 5,     /* optimized vector assembly of the input's dialect */
    ST_EMIT_GEN = 6,      /* an Intel Gen9 kernel as IGA assembly text (docs/gen-abi.md) */
    ST_EMIT_D3D9_BYTECODE = 7, /* the Direct3D 9 token stream (binary; output_len bytes) */
    ST_EMIT_REFLECT = 8,  /* what the shader uses, as JSON (docs/d3d9-front-end.md) */
    ST_EMIT_MIR = 9,      /* the vector machine IR every target receives (docs/merge.md) */
};

enum st_float_rules {
    ST_FLOAT_IEEE = 0, /* IEEE 754 float32 throughout (default) */
    ST_FLOAT_D3D9 = 1, /* legacy: 0 * anything = 0 in the ops docs/float-rules.md lists */
};

/* How the Gen9 target compiles multiply-adds (docs/gen-backend.md, "mad"). */
enum st_fp_contract {
    ST_FP_CONTRACT_ON = 0,   /* default: the operations that are multiply-adds by definition
                                (mad, dp2add, dp3, dp4, the matrices, lrp, crs, nrm; ARB MAD,
                                DP3, DP4, DPH, XPD) are one fused mad each */
    ST_FP_CONTRACT_FAST = 1, /* also a separate mul whose result only an add reads */
    ST_FP_CONTRACT_OFF = 2,  /* every product rounded before it is added */
};

/* What Direct3D 9's partial-precision modifier (_pp, dcl_pp) means
 * (docs/interpreter.md, "Partial precision"). */
enum st_pp_mode {
    ST_PP_IGNORE = 0, /* default: everything at full precision (float32) */
    ST_PP_FP16 = 1,   /* _pp instructions and dcl_pp inputs computed in half floats */
};

/* The type of texture a Direct3D 9 sampler stage is compiled for
 * (st_options.texture_types). */
enum st_texture_type {
    ST_TEXTURE_ANY = 0,    /* not known: the stage works with every type */
    ST_TEXTURE_2D = 1,
    ST_TEXTURE_CUBE = 2,
    ST_TEXTURE_VOLUME = 3,
};

/*
 * #include for the Direct3D 9 preprocessor.  An embedder that serves
 * include files itself (from memory) sets st_options.include: it is called
 * for every #include with the name as written, system = 1 for <name> and 0
 * for "name", and the path of the file that includes (st_options.filename
 * for the shader itself).  It returns 0 and fills *out, or nonzero when
 * there is no such file.  The library copies the data at once and then
 * calls include_release (when set) with the same *out.  Without a callback
 * the library reads files: "name" from the including file's directory,
 * then from include_dirs in order; <name> from include_dirs only.
 */
struct st_include_file {
    const char *data;    /* the file's bytes; need not be NUL-terminated */
    size_t len;
    const char *path;    /* the name diagnostics use; NULL: the name as written */
    void *handle;        /* the embedder's own, handed back to include_release */
};
typedef int (*st_include_fn)(void *user, const char *name, int system, const char *includer,
                             struct st_include_file *out);
typedef void (*st_include_release_fn)(void *user, struct st_include_file *file);

struct st_options {
    unsigned struct_version; /* ST_OPTIONS_VERSION */
    const char *filename;    /* used in diagnostics; may be NULL ("<input>") */
    const char *source;      /* need not be NUL-terminated */
    size_t source_len;
    enum st_dialect_choice dialect;
    enum st_emit emit;
    unsigned max_errors; /* 0: the default (50) */
    enum st_float_rules float_rules; /* for outputs that compute (LLVM IR) */
    int want_stats;                  /* fill st_result.stats */
    unsigned simd_width; /* ST_EMIT_GEN: 8, 16 or 32; 0 = the widest that does not spill */

    /* ---- version 2: limits (docs/limits.md) ---- */
    /* Refuse a shader with more instructions than this (ST9002, at the first
     * one beyond); 0: no limit. */
    unsigned max_instructions;
    /* The compile budget in work units (every stage charges about one unit
     * per instruction it handles); when it is spent the compile stops with
     * ST9002.  0: no limit.  The same count every time for the same input. */
    uint64_t max_work;
    /* Polled by every stage (and by st_run's engines while they execute);
     * returning nonzero stops the call with ST9003.  Called on the thread
     * that called st_compile/st_run, with the C locale in effect; NULL: never
     * cancelled. */
    int (*cancel)(void *user);
    void *cancel_user;
    /* ---- version 2: the Direct3D 9 preprocessor (docs/d3d9-front-end.md) ---- */
    const char *const *defines;      /* "NAME" or "NAME=VALUE", as -D gives them */
    unsigned num_defines;
    const char *const *include_dirs; /* searched for #include, in order */
    unsigned num_include_dirs;
    st_include_fn include;           /* NULL: include files are read from the file system */
    st_include_release_fn include_release;
    void *include_user;
    enum st_fp_contract fp_contract; /* ST_EMIT_GEN and the Gen engine (docs/gen-backend.md) */

    /* ---- version 3 ---- */
    /* Every output and every engine of st_run: with ST_PP_FP16 the
     * instructions marked _pp and the inputs declared dcl_pp compute in
     * half precision (LLVM half, Gen :hf). */
    enum st_pp_mode pp;

    /* ---- version 4 ---- */
    /*
     * Direct3D 9: the texture type each sampler stage s0-s15 samples.  A
     * ps_1_x shader declares none (the texture bound decides), so by
     * default its Gen kernels send every coordinate a cube or volume
     * texture would need; a driver that compiles for the textures bound
     * (as Wine and DXVK do) names them, and a 2D stage samples with u and
     * v alone.  A stage the shader declares (dcl_2d s0) must agree
     * (ST2012).  st_run refuses inputs that bind another type (ST4001).
     * ARB programs: unused (every instruction names its target).
     */
    enum st_texture_type texture_types[16];
};

struct st_result {
    unsigned struct_version; /* ST_RESULT_VERSION */
    int ok;                  /* 1 when output is valid; 0 after any error */
    char *output;            /* NUL-terminated; NULL when !ok */
    size_t output_len;
    const struct st_diagnostic *diagnostics;
    size_t num_diagnostics;
    unsigned num_errors, num_warnings;
    char *stats; /* with want_stats: counts as "name: value" lines, else NULL */

    /* ---- version 2 (the library allocates results: older callers simply
     * do not read these) ---- */
    uint64_t work; /* compile work units this call charged (st_options.max_work) */
};


enum st_engine {
    ST_ENGINE_INTERP = 0, /* the reference interpreter (default) */
    ST_ENGINE_LLVM = 1,   /* the optimized LLVM IR through LLVM's JIT */
    ST_ENGINE_GEN = 2,    /* the Gen9 kernel through the Gen simulator */
};

/* Options of st_run(): a shader plus the inputs JSON of docs/run-json.md. */
struct st_run_options {
    unsigned struct_version; /* ST_RUN_OPTIONS_VERSION */
    const struct st_options *compile; /* the shader, as for st_compile */
    const char *inputs_filename;      /* used in diagnostics */
    const char *inputs_json;          /* need not be NUL-terminated */
    size_t inputs_len;
    enum st_float_rules float_rules;
    enum st_engine engine;
    unsigned simd_width; /* ST_ENGINE_GEN: 8, 16 or 32; 0 = automatic */

    /* ---- version 2 ---- */
    /*
     * The run budget: the most shader instructions all invocations together
     * may execute, counted before anything runs as the worst case the
     * program allows (every loop running the count its integer constant
     * gives, the longer side of every branch; docs/limits.md).  A run that
     * could exceed it is refused with ST4003 by every engine alike.  0: the
     * default, ST_RUN_DEFAULT_BUDGET per invocation.
     */
    uint64_t max_run_instructions;
};
#define ST_RUN_OPTIONS_VERSION 2
/* The run budget when none is given: per invocation (2^26). */
#define ST_RUN_DEFAULT_BUDGET (UINT64_C(1) << 26)

/*
 * Compile opts->source.  Returns 0 and stores a result (to be freed with
 * st_result_free) even when the shader has errors: those are in the result.
 * Returns -1 only when the call itself is wrong (NULL, unknown struct
 * version, an enum value or SIMD width out of range) or memory ran out,
 * and then stores NULL.
 *
 * Output never depends on the caller's locale: numbers are always printed
 * and read with '.' (the call switches its own thread to the C locale
 * with uselocale() and back).  Calls on different threads are independent.
 */
int st_compile(const struct st_options *opts, struct st_result **result);
void st_result_free(struct st_result *result);

/*
 * Execute a shader for every invocation of the inputs JSON.  On success the
 * result's output is the outputs JSON (docs/run-json.md); errors in the
 * shader or in the inputs are diagnostics, and then output is NULL.
 */
int st_run(const struct st_run_options *opts, struct st_result **result);

/* Formats d as "file:line:col: error: message [STnnnn]". */
size_t st_diagnostic_format(const struct st_diagnostic *d, char *buf, size_t size);

const char *st_version_string(void);      /* "shadertrans 0.1.0" */
const char *st_llvm_version_string(void); /* the LLVM this build links */

#ifdef __cplusplus
}
#endif
#endif
