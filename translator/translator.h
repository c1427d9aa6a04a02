/*
 * translator.h — the door of the front-end stage.
 *
 * Everything later stages may know about a shader comes through here: the
 * per-shader arena, the message context threaded through every stage, the
 * typed AST with source locations, and the entry points parse -> check ->
 * print.  Files inside translator/ may have private headers; no other
 * folder includes them.
 */
#ifndef ST_TRANSLATOR_H
#define ST_TRANSLATOR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "shadertrans.h"

/* ------------------------------------------------------------------ */
/* Arena: everything belonging to one shader, freed in one call.       */

struct st_arena;
struct st_ctx;
struct st_arena *st_arena_create(void);
void st_arena_destroy(struct st_arena *a);
/*
 * Zeroed memory.  When memory runs out st_arena_failed() becomes true and a
 * request of up to 128 bytes returns a scratch block (never NULL, so AST
 * builders can carry on and report); a larger one returns NULL.  Callers
 * check st_arena_failed() after any variable-sized allocation.
 */
void *st_arena_alloc(struct st_arena *a, size_t size);
char *st_arena_strndup(struct st_arena *a, const char *s, size_t n);
char *st_arena_printf(struct st_arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* True once an allocation failed; allocations then return a static dummy. */
/* Frees everything allocated so far, keeping one block for reuse: a
 * scratch arena for what one step builds and the next forgets (the
 * parser's operand nodes, one line at a time).  The failed flag stays. */
void st_arena_reset(struct st_arena *a);
bool st_arena_failed(const struct st_arena *a);
/* The first failed allocation of a is reported in ctx at once (ST9001),
 * which then records no more messages: what stages say while they wind
 * down without the memory they asked for is noise. */
void st_arena_report_to(struct st_arena *a, struct st_ctx *ctx);

/*
 * Memory a generated scanner (flex) allocates, kept on a list so that all
 * of it can be freed when the scanner gives up half way: flex's only fatal
 * error is running out of memory, and it leaves through longjmp with
 * blocks nobody else knows about.  The parsers route flex's yyalloc,
 * yyrealloc and yyfree here.  NULL when memory ran out.
 */
struct st_block_list {
    struct st_block *head;
};
void *st_blocks_alloc(struct st_block_list *l, size_t n);
void *st_blocks_realloc(struct st_block_list *l, void *p, size_t n);
void st_blocks_free(struct st_block_list *l, void *p);
void st_blocks_free_all(struct st_block_list *l);

/* A growable byte buffer (output text). Allocated with malloc. */
struct st_buf {
    char *data;
    size_t len, cap;
    bool oom;
};
void st_buf_printf(struct st_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void st_buf_vprintf(struct st_buf *b, const char *fmt, va_list ap);
void st_buf_putc(struct st_buf *b, char c);
/* The shortest "%g" text of a finite float that reads back as the same
 * float, with '.' for the decimal point whatever the locale. */
void st_float_text(float f, char buf[48]);
/* Appends n bytes (binary data, or text a printer built itself: no
 * formatting); a NUL still follows them. */
void st_buf_append(struct st_buf *b, const void *data, size_t n);
void st_buf_free(struct st_buf *b);
/* Reads f to its end into a malloc'd buffer with a NUL after the bytes
 * (*len does not count it).  NULL after a read error (*oom false) or when
 * memory ran out (*oom true).  The preprocessor's #include files and the
 * command's inputs. */
char *st_read_stream(FILE *f, size_t *len, bool *oom);

/* ------------------------------------------------------------------ */
/* Locations and the message context.                                  */

struct st_loc {
    uint32_t line, column; /* 1-based; 0 = unknown */
};

/*
 * Diagnostic codes.  Numbers are stable: never renumber, only append.
 * docs/diagnostics.md explains each one; tests/bad/ has an input for each.
 */
enum st_diag_code {
    /* 1xxx: lexical and syntax */
    ST_E_BAD_CHAR = 1001,        /* character that starts no token */
    ST_E_SYNTAX = 1002,          /* bison's "unexpected X, expected Y" */
    ST_E_BAD_NUMBER = 1003,      /* malformed or out of range literal */
    ST_E_NO_VERSION = 1004,      /* first statement is not a version */
    ST_E_BAD_VERSION = 1005,     /* vs_4_0, ps_1_5, ... */
    ST_E_UNKNOWN_OPCODE = 1006,  /* identifier where an instruction goes */
    ST_E_BAD_MODIFIER = 1007,    /* unknown _suffix on an instruction */
    ST_E_UNKNOWN_REGISTER = 1008,
    ST_E_BAD_SWIZZLE = 1009,
    ST_E_BAD_WRITEMASK = 1010,
    ST_E_BAD_SRCMOD = 1011,      /* unknown or conflicting source modifier */
    ST_E_BAD_DCL = 1012,         /* unknown usage / sampler type */
    ST_E_TOO_MANY_ERRORS = 1013,
    ST_E_BAD_RELADDR = 1014,     /* malformed relative address */
    ST_E_DUP_VERSION = 1015,
    ST_E_INDEX_EXPR = 1016,      /* a register index expression that has no value */
    /* 11xx: the Direct3D 9 preprocessor */
    ST_E_PP_DIRECTIVE = 1101,    /* unknown or malformed directive or macro definition */
    ST_E_PP_CONDITIONAL = 1102,  /* #if/#elif/#else/#endif that do not pair */
    ST_E_PP_EXPRESSION = 1103,   /* an #if expression without a value */
    ST_E_PP_INCLUDE = 1104,      /* #include not found, unreadable or nested too deep */
    ST_E_PP_MACRO = 1105,        /* a macro invocation that cannot expand */
    ST_E_PP_ERROR = 1106,        /* #error */
    ST_E_PP_COMMENT = 1107,      /* a comment without its end */
    /* 12xx: Direct3D 8/9 bytecode */
    ST_E_BC_FORMAT = 1201,       /* size, version token, end token, comment blocks */
    ST_E_BC_INSTRUCTION = 1202,  /* an instruction token that means nothing */
    ST_E_BC_OPERAND = 1203,      /* a parameter token that means nothing */
    /* 2xxx: semantic checks against the shader model */
    ST_E_OPCODE_VERSION = 2001,  /* instruction not in this version */
    ST_E_OPERAND_COUNT = 2002,
    ST_E_REG_VERSION = 2003,     /* register file not in this version/type */
    ST_E_REG_INDEX = 2004,       /* index out of range for the file */
    ST_E_DST_REG = 2005,         /* file cannot be written */
    ST_E_SRC_REG = 2006,         /* file cannot be read here */
    ST_E_SRCMOD_VERSION = 2007,
    ST_E_DSTMOD_VERSION = 2008,  /* _sat/_pp/shift/_centroid not allowed */
    ST_E_SWIZZLE_RULE = 2009,    /* e.g. scalar source needs replicate */
    ST_E_WRITEMASK_RULE = 2010,
    ST_E_RELADDR_RULE = 2011,
    ST_E_DCL_RULE = 2012,
    ST_E_DEF_RULE = 2013,
    ST_E_FLOW_NESTING = 2014,    /* unbalanced or too deep */
    ST_E_LABEL_RULE = 2015,      /* undefined/duplicate label, bad number */
    ST_E_PREDICATE_RULE = 2016,
    ST_E_COISSUE_RULE = 2017,
    ST_E_PHASE_RULE = 2018,
    ST_E_OPERAND_KIND = 2019,    /* wrong kind of operand for this slot */
    ST_E_TEX_RULE = 2020,        /* ps_1_x texture-op rules */
    ST_E_DUP_DEF = 2021,
    /* 21xx: rules only ARB programs have (docs/arb.md) */
    ST_E_ARB_BINDING = 2101,     /* no such binding, or a binding member that does not exist */
    ST_E_ARB_UNDECLARED = 2102,  /* a name used before any TEMP/PARAM/ATTRIB/... declares it */
    ST_E_ARB_DUP_NAME = 2103,    /* a name declared twice */
    ST_E_ARB_OPTION = 2104,      /* unknown OPTION, one of the other program type, options that exclude each other */
    ST_E_ARB_LIMIT = 2105,       /* more instructions, temporaries, parameters, ... than the limits reported */
    /* 3xxx: limits of this implementation */
    ST_E_NOT_SUPPORTED = 3001,
    /* 4xxx: inputs of shadertrans run */
    ST_E_INPUTS = 4001,          /* inputs JSON malformed or wrong shape: message names the JSON path */
    ST_E_RUNTIME = 4002,         /* execution cannot continue (e.g. loop limit) */
    ST_E_RUN_BUDGET = 4003,      /* the run could execute more than its budget */
    /* 9xxx: usage / environment */
    ST_E_OUT_OF_MEMORY = 9001,
    ST_E_BUDGET = 9002,          /* the compile budget (instructions, work units) is spent */
    ST_E_CANCELLED = 9003,       /* the caller's cancel callback said stop */
    /* warnings */
    ST_W_STRAY_COMMA = 5001,
    ST_W_IGNORED = 5002,
    ST_W_RELADDR_RANGE = 5003,   /* relative address out of range at run time: reads 0 */
    ST_W_UNUSED_INPUT = 5004,
    ST_W_PP_REDEFINED = 5005,    /* a macro defined again differently */
    ST_W_PP_WARNING = 5006,      /* #warning */
    ST_W_PP_EXTRA_TOKENS = 5007, /* text after a directive that takes none */
    ST_W_BC_CTAB = 5008,         /* a malformed constant table (ignored) */
};

struct st_ctx; /* the message context: one per st_compile call */

struct st_ctx *st_ctx_create(const char *filename, const char *source, size_t len,
                             unsigned max_errors);
void st_ctx_destroy(struct st_ctx *ctx);
void st_error(struct st_ctx *ctx, struct st_loc loc, enum st_diag_code code,
              const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void st_warning(struct st_ctx *ctx, struct st_loc loc, enum st_diag_code code,
                const char *fmt, ...) __attribute__((format(printf, 4, 5)));
unsigned st_error_count(const struct st_ctx *ctx);
/* The message of the first error reported (NULL: none), and where. */
const char *st_ctx_first_error(const struct st_ctx *ctx, struct st_loc *loc);
/* The same for warnings, and how many were reported. */
const char *st_ctx_first_warning(const struct st_ctx *ctx, struct st_loc *loc);
unsigned st_warning_count(const struct st_ctx *ctx);
/* True once memory ran out in this context (ST9001 reported, or a message
 * could not be recorded): a stage that tried something in a throwaway
 * context tells "it did not work" from "there was no memory to try". */
bool st_ctx_out_of_memory(const struct st_ctx *ctx);
/* True once max_errors were reported; parsers stop then. */
bool st_error_limit_reached(const struct st_ctx *ctx);
const char *st_ctx_source(const struct st_ctx *ctx, size_t *len);
const char *st_ctx_filename(const struct st_ctx *ctx);
/* Moves the diagnostics into a result (malloc'd, freed by st_result_free). */
bool st_ctx_export(struct st_ctx *ctx, struct st_result *res);

/*
 * Where a location is in what the user wrote.  Parsers locate everything
 * in the text they read (st_ctx_source).  When that text is not the one the
 * user gave (the Direct3D 9 preprocessor's output; the AST built from
 * bytecode), the stage that made it installs a locator, and every
 * diagnostic is translated when it is exported (and when a message names
 * another place, st_ctx_where).  A place:
 */
struct st_place {
    const char *file;      /* the name to report; NULL: the context's file name */
    uint32_t line, column; /* as reported; line 0 with a column: bytecode, column = byte offset + 1 */
    const char *text;      /* the source line to show (not NUL-terminated), or NULL */
    size_t text_len;
    const char *note;      /* places after the first: the note's message */
};
/*
 * Fills out[0] with where `loc` is and out[1..] with notes about it
 * (the #include sites, innermost first; the macro it was expanded from);
 * returns how many places it filled, 1 .. max.
 */
typedef unsigned (*st_locate_fn)(const void *map, struct st_loc loc, struct st_place *out,
                                 unsigned max);
/* From now on parsers read `text` (st_ctx_source), and diagnostics are
 * translated by locate(map, ...).  text and map must outlive the export. */
void st_ctx_set_text(struct st_ctx *ctx, const char *text, size_t len, st_locate_fn locate,
                     const void *map);
/* The source the context was created with (st_ctx_source is the text the
 * parsers read, which a preprocessor may have replaced). */
const char *st_ctx_original(const struct st_ctx *ctx, size_t *len);
/*
 * `there` as a message written at `here` names it, into buf: "line 5" when
 * both are in the same file, "b.inc:5" when not, "offset 0x1c" in bytecode.
 * Returns buf.
 */
const char *st_ctx_where(const struct st_ctx *ctx, struct st_loc here, struct st_loc there,
                         char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Limits: the compile budget and the caller's cancel callback.        */
/*
 * One st_limits belongs to one st_compile/st_run call; every context of the
 * call (the main one and any probe a stage makes) points at it, so the work
 * charged anywhere counts against one budget.  Stages call st_poll between
 * units of work, charging about one unit per instruction (AST, LLVM, MIR or
 * Gen) they handle; engines poll with 0 units while they execute (only the
 * cancel callback).  Once it returns false the stage stops and returns
 * failure: the error (ST9002 or ST9003) is already reported, once in each
 * context that polls.  docs/limits.md says what costs what.
 */
struct st_limits {
    uint64_t max_work;         /* 0: no limit */
    int (*cancel)(void *user); /* NULL: never cancelled */
    void *cancel_user;
    uint64_t work;             /* charged so far */
    enum st_diag_code stopped; /* 0, ST_E_BUDGET or ST_E_CANCELLED */
    /* st_run's budget in instructions over all invocations (see
     * st_run_budget_check); 0: ST_RUN_DEFAULT_BUDGET per invocation. */
    uint64_t max_run;
};
/* The context reads (and charges) lim from now on; lim outlives it. */
void st_ctx_set_limits(struct st_ctx *ctx, struct st_limits *lim);
struct st_limits *st_ctx_limits(const struct st_ctx *ctx);
/* Where a poll without a location reports (the shader's version line). */
void st_ctx_set_anchor(struct st_ctx *ctx, struct st_loc loc);
/* Charges `work` units; false once the budget is spent or the caller
 * cancelled (and then forever after). */
bool st_poll(struct st_ctx *ctx, uint64_t work);
/* The same, reporting at loc (e.g. the instruction being handled). */
bool st_poll_at(struct st_ctx *ctx, struct st_loc loc, uint64_t work);

/* ------------------------------------------------------------------ */
/* The AST.                                                            */

enum st_dialect { ST_D3D9, ST_ARB };
enum st_shader_type { ST_VS, ST_PS };

/* Version as a comparable number: V(1,1) = 0x0101; 2_x is 0x0201. */
#define ST_VER(maj, min) (((maj) << 8) | (min))
#define ST_VER_2X ST_VER(2, 1)

struct st_version {
    enum st_shader_type type;
    uint16_t ver;    /* ST_VER(major, minor) or ST_VER_2X */
    bool dot_syntax; /* written "vs.1.1": kept only for diagnostics */
    struct st_loc loc;
};

enum st_opcode {
#define OP(e, name, ndst, nsrc, vsmin, vsmax, psmin, psmax, flags) ST_OP_##e,
#include "opcodes.def"
#undef OP
    ST_OP_COUNT
};

enum { NSRC_VAR = 0xff };
enum st_opflags {
    OPF_SCALAR_SRC = 1 << 0, /* sources need a replicate swizzle */
    OPF_MATRIX = 1 << 1,     /* second source is the first of N rows */
    OPF_FLOW = 1 << 2,
    OPF_DECL = 1 << 3,
    OPF_TEX1X = 1 << 4,      /* ps_1_x texture-address instruction */
    OPF_COMPARE = 1 << 5,    /* takes a _gt/_lt/... comparison */
};
#define VNONE 0
#define V11 ST_VER(1, 1)
#define V12 ST_VER(1, 2)
#define V13 ST_VER(1, 3)
#define V14 ST_VER(1, 4)
#define V20 ST_VER(2, 0)
#define V2X ST_VER_2X
#define V30 ST_VER(3, 0)

struct st_opinfo {
    const char *name;
    uint8_t ndst, nsrc;
    uint16_t vs_min, vs_max, ps_min, ps_max;
    uint32_t flags;
};
extern const struct st_opinfo st_opinfo[ST_OP_COUNT];
/* Case-insensitive lookup of a bare opcode name; -1 when unknown. */
int st_opcode_lookup(const char *name, size_t len);

/*
 * Register files.  D3D9 numbers a0 and t# the same (type 3) and so do o#
 * and oT#; here every file the assembly spells differently is its own
 * enumerator, so checks and printing need no version switch.
 */
enum st_regfile {
    ST_REG_TEMP,      /* r# */
    ST_REG_INPUT,     /* v# */
    ST_REG_CONST,     /* c# */
    ST_REG_ADDR,      /* a0 */
    ST_REG_TEXTURE,   /* t# (ps) */
    ST_REG_RASTOUT,   /* oPos=0, oFog=1, oPts=2 */
    ST_REG_ATTROUT,   /* oD# */
    ST_REG_TEXCRDOUT, /* oT# (vs < 3.0) */
    ST_REG_OUTPUT,    /* o# (vs_3_0) */
    ST_REG_CONSTINT,  /* i# */
    ST_REG_COLOROUT,  /* oC# */
    ST_REG_DEPTHOUT,  /* oDepth */
    ST_REG_SAMPLER,   /* s# */
    ST_REG_CONSTBOOL, /* b# */
    ST_REG_LOOP,      /* aL */
    ST_REG_LABEL,     /* l# */
    ST_REG_PREDICATE, /* p0 */
    ST_REG_MISC,      /* vPos=0, vFace=1 */
    ST_REG_COUNT
};
enum { ST_RASTOUT_POS = 0, ST_RASTOUT_FOG = 1, ST_RASTOUT_PTS = 2 };
enum { ST_MISC_POS = 0, ST_MISC_FACE = 1 };

/* Swizzle: 2 bits per output lane, lane 0 in the low bits.  .xyzw = 0xe4 */
#define ST_SWIZZLE(x, y, z, w) ((x) | ((y) << 2) | ((z) << 4) | ((w) << 6))
#define ST_SWIZZLE_IDENTITY 0xe4
#define ST_SWZ_LANE(s, i) (((s) >> (2 * (i))) & 3)

/* A relative address: a0.x, aL, with a constant offset added. */
struct st_reladdr {
    enum st_regfile file; /* ST_REG_ADDR or ST_REG_LOOP */
    uint32_t index;       /* a0: 0 */
    uint8_t component;    /* the lane of a0 used; 0 for aL */
    bool has_component;   /* written "a0.x" rather than "a0" */
    /*
     * The swizzle as written when it had more than one letter ("a0.xyww":
     * component x, swizzle_len 4): the bytecode's address token keeps all
     * four lanes, so the text must too.  swizzle_len 0: the token's swizzle
     * is the component replicated, or .xyzw without one.
     */
    uint8_t swizzle, swizzle_len;
};

struct st_reg {
    enum st_regfile file;
    uint32_t index;
    /*
     * Relative addressing.  "c[a0.x + 5]" and "c5[a0.x]" and "c[5 + a0.x]"
     * all become index 5 + rel.  `bracket_only` records "c[...]" (no number
     * before the bracket) so the printer can say "v[aL]" as written.
     */
    struct st_reladdr *rel;
    bool bracket_only;
    struct st_loc loc;
};

enum st_srcmod {
    ST_SRCMOD_NONE,
    ST_SRCMOD_NEG,     /* -r */
    ST_SRCMOD_BIAS,    /* r_bias */
    ST_SRCMOD_BIASNEG, /* -r_bias */
    ST_SRCMOD_SIGN,    /* r_bx2 */
    ST_SRCMOD_SIGNNEG, /* -r_bx2 */
    ST_SRCMOD_COMP,    /* 1 - r */
    ST_SRCMOD_X2,      /* r_x2 */
    ST_SRCMOD_X2NEG,   /* -r_x2 */
    ST_SRCMOD_DZ,      /* r_dz, r_db */
    ST_SRCMOD_DW,      /* r_dw, r_da */
    ST_SRCMOD_ABS,     /* r_abs */
    ST_SRCMOD_ABSNEG,  /* -r_abs */
    ST_SRCMOD_NOT,     /* !b0, !p0 */
};

struct st_src {
    struct st_reg reg;
    uint8_t swizzle;     /* ST_SWIZZLE_IDENTITY when none was written */
    uint8_t swizzle_len; /* letters written: 0 (none), 1 (replicate), 2..4 */
    enum st_srcmod mod;
    struct st_loc loc;   /* of the operand's first character */
};

enum st_dstmod {
    ST_DSTMOD_SAT = 1 << 0,
    ST_DSTMOD_PP = 1 << 1,
    ST_DSTMOD_CENTROID = 1 << 2,
};

struct st_dst {
    struct st_reg reg;
    uint8_t writemask; /* bit i = lane i; 0xf when none was written */
    struct st_loc loc;
};

enum st_compare { ST_CMP_NONE, ST_CMP_GT, ST_CMP_EQ, ST_CMP_GE, ST_CMP_LT, ST_CMP_NE, ST_CMP_LE };

/* dcl usages (D3DDECLUSAGE order) */
enum st_usage {
    ST_USAGE_POSITION, ST_USAGE_BLENDWEIGHT, ST_USAGE_BLENDINDICES, ST_USAGE_NORMAL,
    ST_USAGE_PSIZE, ST_USAGE_TEXCOORD, ST_USAGE_TANGENT, ST_USAGE_BINORMAL,
    ST_USAGE_TESSFACTOR, ST_USAGE_POSITIONT, ST_USAGE_COLOR, ST_USAGE_FOG,
    ST_USAGE_DEPTH, ST_USAGE_SAMPLE, ST_USAGE_COUNT
};
extern const char *const st_usage_names[ST_USAGE_COUNT];
enum st_sampler_type { ST_SAMPLER_NONE, ST_SAMPLER_2D, ST_SAMPLER_CUBE, ST_SAMPLER_VOLUME };

struct st_instr {
    enum st_opcode op;
    struct st_loc loc; /* of the opcode */
    struct st_instr *next;

    /* Instruction modifiers. */
    uint8_t dstmod; /* ST_DSTMOD_* */
    int8_t shift;   /* _x2 = 1, _x4 = 2, _x8 = 3, _d2 = -1, _d4 = -2, _d8 = -3 */
    enum st_compare cmp;
    bool coissue; /* "+" before the instruction (ps_1_x) */
    struct st_loc mod_loc; /* of the first "_" modifier, for diagnostics */

    /* Predication: (p0.x) or (!p0). */
    bool predicated;
    struct st_src pred; /* mod is ST_SRCMOD_NOT for "!" */

    bool has_dst;
    struct st_dst dst;
    unsigned nsrc;
    struct st_src src[5];

    /* dcl */
    enum st_usage usage;
    uint32_t usage_index;
    bool usage_index_written;
    enum st_sampler_type sampler_type;
    bool dcl_bare; /* "dcl t0" of ps_2_x and "dcl v0" without usage */

    /* def / defi / defb: the values as written. */
    union {
        float f[4];
        int32_t i[4];
        bool b;
    } imm;
    struct st_loc imm_loc[4];
    struct st_arb_instr *arb; /* ARB programs only (see "ARB programs" below) */
};

/* A comment block of a Direct3D 9 token stream, kept where it was. */
struct st_d3d9_comment {
    const uint32_t *data; /* the block's dwords (after the comment token) */
    uint32_t ndwords;
    unsigned before;      /* the number of instructions in front of it */
    struct st_loc loc;
};

/* The constant table (a "CTAB" comment block): what each register is called
 * in the source the compiler read. */
struct st_ctab_constant {
    const char *name;
    enum st_regfile file;   /* ST_REG_CONSTBOOL, _CONSTINT, _CONST or _SAMPLER */
    uint32_t index, count;  /* registers index .. index + count - 1 */
    uint16_t klass, type;   /* D3DXPARAMETER_CLASS, D3DXPARAMETER_TYPE */
    uint16_t rows, columns, elements;
};
struct st_ctab {
    const char *creator, *target; /* "" when absent */
    uint32_t version, flags;
    struct st_ctab_constant *constants;
    unsigned num_constants;
};

struct st_shader {
    enum st_dialect dialect;
    struct st_version version;
    struct st_instr *first, *last;
    unsigned num_instrs;
    struct st_arena *arena;
    struct st_arb_program *arb; /* ARB programs only (see "ARB programs" below) */
    /* Read from bytecode (d3d9/bytecode/): its comment blocks, and the first
     * well-formed constant table among them (NULL: none). */
    struct st_d3d9_comment *comments;
    unsigned num_comments;
    const struct st_ctab *ctab;
    /* --pp=fp16 (st_options.pp, set by st_front_end): instructions marked
     * _pp and inputs declared dcl_pp compute in half floats in every stage
     * and engine (docs/interpreter.md, "Partial precision"); false: _pp
     * changes nothing. */
    bool pp_half;
    /* Direct3D 9: the texture type of sampler stage s, from its dcl or,
     * for a stage declared nowhere (ps_1_x), st_options.texture_types;
     * ST_SAMPLER_NONE: any type (set by st_front_end). */
    enum st_sampler_type stage_type[16];
};

/* ------------------------------------------------------------------ */
/* Entry points.                                                       */

/*
 * Parse and check o->source as st_compile does (driver.c): the front half
 * every output shares.  NULL after any error (in ctx).  o must be a
 * complete struct of this version (tools inside the library and the CLI).
 */
struct st_shader *st_front_end(struct st_ctx *ctx, const struct st_options *o,
                               struct st_arena *arena);

/* Parses the whole source; on syntax errors returns what it could build
 * (possibly NULL) and the errors are in ctx.  Never prints. */
struct st_shader *st_parse_d3d9(struct st_ctx *ctx, struct st_arena *arena);

/*
 * The Direct3D 9 preprocessor (d3d9/preproc/, docs/d3d9-front-end.md): C's
 * #define/#undef/#include/#if.../#line/#error/#pragma, \ continuation and
 * comments.  When the source needs it (a '#', a comment, a continuation or
 * a -D), replaces the context's text with the preprocessed text and
 * installs the locator that maps every location back to the file, line
 * and column written (with the #include chain as notes).  Problems are
 * reported through ctx; returns false when the text is not worth parsing
 * (memory ran out, #include nested too deep).
 */
struct st_pp_options {
    const char *const *defines; /* "NAME" or "NAME=VALUE" */
    unsigned num_defines;
    const char *const *include_dirs;
    unsigned num_include_dirs;
    st_include_fn include; /* NULL: read files */
    st_include_release_fn release;
    void *user;
};
bool st_preprocess_d3d9(struct st_ctx *ctx, struct st_arena *arena, const struct st_pp_options *o);

/*
 * The Direct3D 9 front end as st_compile runs it (d3d9/front.c): a token
 * stream (ST_DIALECT_D3D9_BYTECODE, or a version token at the start when
 * the dialect is automatic) is read by st_read_d3d9_bytecode; text is
 * preprocessed with the options' -D/-I/include callback and parsed.
 */
struct st_shader *st_front_d3d9(struct st_ctx *ctx, struct st_arena *arena,
                                const struct st_options *o);
/* Whether bytes start with a Direct3D 8/9 version token (0xFFFEmmnn vertex,
 * 0xFFFFmmnn pixel, little-endian). */
bool st_d3d9_is_bytecode(const char *data, size_t len);

/* Checks the shader against its shader model; returns false on errors. */
bool st_check(struct st_ctx *ctx, struct st_shader *sh);

/*
 * Direct3D 8/9 bytecode (d3d9/bytecode/, docs/d3d9-front-end.md).
 * st_read_d3d9_bytecode reads the context's source as a token stream into
 * the AST the parser would have built for its disassembly (plus the
 * comment blocks and constant table); every problem is a located
 * diagnostic whose location is {1, byte offset + 1} (the locator it
 * installs reports line 0, column byte offset + 1).  It never reads
 * outside the blob.  st_write_d3d9_bytecode appends the token stream of a
 * checked shader to out (little-endian dwords); false (reported) when the
 * shader has something the format cannot hold.
 */
struct st_shader *st_read_d3d9_bytecode(struct st_ctx *ctx, struct st_arena *arena);
bool st_write_d3d9_bytecode(struct st_ctx *ctx, const struct st_shader *sh, struct st_buf *out);
/*
 * What a checked Direct3D 9 shader uses (d3d9/reflect/, --emit=reflect):
 * appends the JSON docs/d3d9-front-end.md describes.  ARB programs are
 * ST_E_NOT_SUPPORTED.
 */
bool st_reflect_json(struct st_ctx *ctx, const struct st_shader *sh, struct st_buf *out);
/* Parses a comment block as a constant table; NULL when it is none
 * ("CTAB" missing) and, with *why set, when it is malformed. */
const struct st_ctab *st_d3d9_parse_ctab(const uint32_t *data, uint32_t ndwords,
                                         struct st_arena *arena, const char **why);

/* Prints canonical assembly; parse(print(x)) prints the same again. */
void st_print_asm(const struct st_shader *sh, struct st_buf *out);

/*
 * The reference interpreter (interp.c): runs a checked shader on the inputs
 * JSON and appends the outputs JSON to out.  Bad inputs are reported through
 * ctx with the JSON path; returns false then.
 */
bool st_interp_run(struct st_ctx *ctx, const struct st_shader *sh, const char *inputs_name,
                   const char *json, size_t json_len, enum st_float_rules rules,
                   struct st_buf *out);
/* The same under the fused reading of the multiply-adds (st_interp_execute_ex):
 * what a judge of the Gen engine compares with as well. */
bool st_interp_run_fused(struct st_ctx *ctx, const struct st_shader *sh, const char *inputs_name,
                         const char *json, size_t json_len, enum st_float_rules rules,
                         struct st_buf *out);

/*
 * What one instruction computes from its source values (run/ops.c): the
 * interpreter's definition of every operation that is a function of its
 * (swizzled, modified) sources alone, shared with the pipeline's constant
 * folder so that a folded value is the interpreter's.
 */
struct st_op_env {
    bool arb;              /* ARB semantics of MIN, MAX, CMP, LRP */
    bool legacy;           /* the d3d9 float rules: 0 * anything = 0 */
    uint16_t ver;          /* expp/logp before 2_0 fill four lanes */
    enum st_compare cmp;   /* setp */
    uint8_t swz_sel[4], swz_neg; /* ARB SWZ */
    /* the multiply-add operations (mad, dp2add, dp3, dp4, lrp, crs, nrm; ARB
     * MAD, DP3, DP4, DPH, XPD) with each product that is added rounded
     * together with the sum (fmaf): the other reading both specifications
     * allow, the one the Gen9 kernels compute (docs/gensim.md) */
    bool fused;
    /* a _pp instruction under --pp=fp16: its sources are halves already and
     * every step of the operation (a sum, a product, a multiply-add, a
     * reciprocal, one function value) is rounded to half (docs/interpreter.md,
     * "Partial precision") */
    bool half;
};
/* res gets the four lanes, *mask the lanes the operation defines; false
 * when op is not such an operation (texture, flow, matrix, ...). */
bool st_op_eval(const struct st_op_env *e, enum st_opcode op, const float s[3][4], float res[4],
                unsigned *mask);
float st_op_mul(bool legacy, float a, float b);
/* a * b + c: the product rounded, then the sum; with `fused`, rounded once. */
float st_op_muladd(bool legacy, bool fused, float a, float b, float c);
/* lrp's a * b + (1 - a) * c, its exact value rounded once to float (the
 * fused reading of lrp, ARB LRP and the ARB_fog_* blend; Gen's `lrp`) */
float st_op_lrp_once(float a, float b, float c);
/*
 * The fused reading's order of a dot product, shared by the interpreter
 * and the Gen kernels (docs/gensim.md rule 1): step j of an n-term chain
 * takes term st_op_dot_term(n, j): w, x, y, z for four terms, x, y(, z)
 * for fewer.  The chain starts from the operation's addend when it has
 * one (DPH's b.w, dp2add's c: in the place of a w term), else from the
 * first term's product, and each later term is one fused multiply-add
 * onto it.
 */
unsigned st_op_dot_term(unsigned n, unsigned step);
/* a . b over n lanes: unfused, each product rounded and summed left to
 * right (the specifications' order); fused, in st_op_dot_term's order. */
float st_op_dot(bool legacy, bool fused, const float a[4], const float b[4], unsigned n);
/* a . b over n lanes plus c (DPH, dp2add): unfused st_op_dot + c; fused,
 * c is the chain's start and every product a fused step onto it. */
float st_op_dot_add(bool legacy, bool fused, const float a[4], const float b[4], unsigned n,
                    float c);
bool st_op_compare(enum st_compare c, float a, float b);
int32_t st_op_round(float f);     /* mova: floor(x + 0.5), saturating, NaN -> 0 */
float st_op_partial(float f);     /* expp/logp: the low 8 mantissa bits cleared */
float st_op_saturate(float x);    /* _sat: NaN gives +0, -0 stays -0 */
/* a . b over n lanes as st_op_dot (and st_op_dot_add), every step rounded
 * as e says (e->half) */
float st_op_dot_env(const struct st_op_env *e, const float a[4], const float b[4], unsigned n);
float st_op_dot_add_env(const struct st_op_env *e, const float a[4], const float b[4], unsigned n,
                        float c);
/*
 * IEEE binary16 (run/ops.c): the bits of the half nearest f (ties to even;
 * 65520 and beyond are infinities, below 2^-14 denormals in steps of 2^-24,
 * up to 2^-25 zero; NaN a quiet NaN), the float a half's bits stand for
 * (exact), and f rounded to half as a float.
 */
uint16_t st_half_from_float(float f);
float st_half_to_float(uint16_t h);
float st_half_round(float f);

/* Helpers shared by the printer and diagnostics. */
const char *st_regfile_name(enum st_regfile file, uint32_t index);
const char *st_compare_name(enum st_compare cmp); /* "gt", ... */
/* Writes ".xy" (or "" for the full mask) into buf[6]. */
void st_writemask_str(uint8_t mask, char buf[6]);
/* Writes ".xyzw"-style swizzle text as the canonical form for (swz, len). */
void st_swizzle_str(uint8_t swizzle, uint8_t len, char buf[6]);

/* ---- LLVM lowering ---- */
/*
 * lower_llvm.c turns a checked shader into one LLVM module whose function
 * "st_main" follows the ABI of docs/llvm-abi.md.  The slot numbers below
 * are that ABI: the JIT (emit/) and the lowering agree through them.
 * Opaque LLVM types keep LLVM's headers out of this door.
 */
struct LLVMOpaqueModule;
struct LLVMOpaqueContext;

/* Input record of one invocation: ST_LL_IN_SLOTS x float[4]. */
enum {
    ST_LL_IN_V = 0,      /* v0..v15 */
    ST_LL_IN_T = 16,     /* t0..t7 */
    ST_LL_IN_VPOS = 24,  /* vPos */
    ST_LL_IN_VFACE = 25, /* vFace */
    ST_LL_IN_SLOTS = 26,
};
/* Output record of one invocation: ST_LL_OUT_SLOTS x float[4]. */
enum {
    ST_LL_OUT_POS = 0, ST_LL_OUT_FOG = 1, ST_LL_OUT_PTS = 2,
    ST_LL_OUT_D = 3,      /* oD0..oD1 */
    ST_LL_OUT_T = 5,      /* oT0..oT7 */
    ST_LL_OUT_O = 13,     /* o0..o11 */
    ST_LL_OUT_C = 25,     /* oC0..oC3 */
    ST_LL_OUT_DEPTH = 29, /* oDepth */
    ST_LL_OUT_SLOTS = 30,
};
enum {
    ST_LL_NUM_CONSTS = 256, /* float[4] each, the shader's def values applied */
    /* An ARB program's c[] holds its st_arb_run_slots().num_c parameter
     * slots, however many (the ARB limit is 4096 parameters counted as the
     * specifications count them; literal constants and the options' extra
     * slots come on top): the lowering refuses more than this many. */
    ST_LL_MAX_ARB_CONSTS = 1 << 16,
    ST_LL_NUM_ICONSTS = 16, /* int32[4] each */
    ST_LL_NUM_BCONSTS = 16, /* int32 each, nonzero = true */
};
/* Bits of the per-invocation status word st_main writes. */
enum {
    ST_LL_STATUS_KILLED = 1u,        /* texkill discarded the pixel */
    ST_LL_STATUS_RELADDR_RANGE = 2u, /* a relative address fell outside its file */
};
/*
 * Pixel shaders with dsx/dsy run as resumable lanes: st_main returns in
 * front of each derivative with the lane's registers saved in its lane
 * state, the caller computes the derivative across the 2x2 quad (as the
 * interpreter does) and calls st_main again to resume.  The header of a
 * lane state (the registers follow, "st-lane-state-bytes" in all):
 */
struct st_ll_lane_header {
    int32_t resume; /* in: 0 = start, else where to resume; out: ST_LL_DONE or the stop */
    int32_t pc;     /* out: index in the instruction list of the dsx/dsy waiting */
    float src[4];   /* out: its source operand's value */
    float deriv[4]; /* in: the derivative to write when resumed */
    int32_t pad[2];
};
enum { ST_LL_DONE = -1 };
/* Bump-environment record of one stage: float[ST_LL_BUMP_STRIDE]. */
enum { ST_LL_BUMP_STRIDE = 8 }; /* mat00, mat01, mat10, mat11, lscale, loffset, 0, 0 */
/* The sampling callback st_main calls: void st_sample(void *tex, int32_t stage,
 * float u, float v, float w, float out[4]); tex is st_main's `tex` argument. */
#define ST_LL_SAMPLE_FN "st_sample"

/*
 * Lowers a checked shader into a new module in llctx (the caller disposes
 * of it).  The float rules are baked into the IR (and recorded in the
 * function attribute "st-float-rules").  Anything the lowering cannot
 * express gets a located ST_E_NOT_SUPPORTED and the result is NULL.
 */
struct LLVMOpaqueModule *st_lower_llvm(struct st_ctx *ctx, const struct st_shader *sh,
                                       enum st_float_rules rules,
                                       struct LLVMOpaqueContext *llctx);
/*
 * The same with options (0: the form st_lower_llvm builds, which the JIT
 * runs).
 */
enum st_lower_flags {
    /* The compile pipeline's form (docs/pipeline.md "Markers"): every
     * source operation but mov/add/sub/abs/neg is one call to a marker
     * @"st.NAME" that keeps its identity through LLVM; relative reads and
     * writes, texture sampling, kill, _sat, shifts and the ps_1_x source
     * modifiers too.  Not runnable by the JIT (which lowers with 0). */
    ST_LOWER_VECTOR = 1u << 0,
};
struct LLVMOpaqueModule *st_lower_llvm_ex(struct st_ctx *ctx, const struct st_shader *sh,
                                          enum st_float_rules rules, unsigned flags,
                                          struct LLVMOpaqueContext *llctx);

/* ---- markers of ST_LOWER_VECTOR (core/markers.c) ---- */
/*
 * Callee names, all starting "st.":
 *   st.OPNAME(<4 x float> srcs..., i32 extras...)   ST_MK_OP: the instruction OPNAME
 *     (st_opinfo[].name: "st.mul", "st.dp4", "st.arb:dph"); <4 x float> result,
 *     except st.mova and st.arb:arl (<4 x i32>: the address value),
 *     st.setp.CMP (<4 x i1>; also the conditions of ifc/breakc, lane 0),
 *     st.texkill and st.arb:kil (void: discard).  Extra i32 operands:
 *     st.texld/texldp/texldb/texldl(coord, i32 stage, i32 dims),
 *     st.texldd(coord, ddx, ddy, i32 stage, i32 dims),
 *     st.arb:tex/txp/txb(coord, i32 unit, i32 target),
 *     st.arb:swz(src, i32 selectors (3 bits each), i32 negations).
 *     Scalar operations read lane 0 of their (swizzled) operands and
 *     return the result in every lane.
 *   st.sat(x), st.shift(x, i32 k) (x * 2^k), st.mod.bias|bx2|comp|x2(x)
 *     (ps_1_x source modifiers), componentwise
 *   st.rel(i32 file, i32 addr, i32 k, i32 first, i32 count): the register
 *     file[addr + k], or 0 when addr + k - first is outside 0..count-1
 *   st.ostore(i32 file, i32 reg, <4 x float> v, i32 mask),
 *   st.ostore.rel(i32 file, i32 addr, i32 k, i32 count, <4 x float> v, i32 mask):
 *     writes of an output file some instruction writes relatively (a
 *     write to addr + k outside 0..count-1 is dropped)
 *   st.opaque(i32 K, registers read...): ps_1_x texture-phase instruction K
 *     of the shader's list, as written
 *   st.NAME.f16: a _pp instruction under --pp=fp16: the marker NAME on
 *     <4 x half> operands with a <4 x half> result (st.setp.CMP.f16: <4 x i1>),
 *     every step of the operation rounded to half (st_op_env.half).  The
 *     sources arrive as fptrunc of the float registers (a rounding), the
 *     result leaves as fpext (exact); texld_pp samples with float
 *     coordinates and truncates the texel.
 */
enum st_marker_kind {
    ST_MK_NONE, ST_MK_OP, ST_MK_SAT, ST_MK_SHIFT, ST_MK_MOD, ST_MK_REL, ST_MK_OSTORE,
    ST_MK_OSTORE_REL, ST_MK_OPAQUE,
};
struct st_marker {
    enum st_marker_kind kind;
    enum st_opcode op;   /* ST_MK_OP */
    enum st_compare cmp; /* st.setp.CMP */
    int mod;             /* ST_MK_MOD: 1 bias, 2 bx2, 3 comp, 4 x2 */
    bool half;           /* "st.NAME.f16": computed in half on <4 x half> (--pp=fp16) */
};
/* st.opaque(i32 K, registers...): does instruction K write the register it
 * names (then its operands are its sources), or only read it (texkill,
 * texdepth, texm3x2depth: then the register it names comes first)?
 * texdepth and texm3x2depth return the depth they write to oDepth. */
bool st_opaque_writes(const struct st_instr *a);
/* The lanes of its operand k (after the register it names, when it only
 * reads that one) such an instruction reads. */
uint8_t st_opaque_reads(const struct st_instr *a, unsigned k);
/* Decodes a callee name; false when it is no marker. */
bool st_marker_decode(const char *name, size_t len, struct st_marker *m);
/* "gt", "eq", ... */
const char *st_marker_cmp_name(enum st_compare c);

/* Which lanes of source k (as swizzled) an operation reads to compute the
 * lanes `written` of its result. */
struct st_op_reads_q {
    enum st_opcode op;
    unsigned k;
    uint8_t written;
    uint8_t swz_sel[4];   /* ARB SWZ */
    unsigned tex_dims;    /* D3D9 texld*: 1, 2 or 3 coordinates */
    unsigned tex_target;  /* ARB TEX/TXP/TXB */
};
uint8_t st_op_reads(const struct st_op_reads_q *q);
/* Each lane of the result from the same lane of every source. */
bool st_op_componentwise(enum st_opcode op);
/* One scalar written to every lane (expp/logp from 2_0 on). */
bool st_op_replicates(enum st_opcode op, uint16_t ver);
/* The coordinate lanes an ARB texture instruction reads for its target. */
uint8_t st_arb_tex_lanes(enum st_opcode op, unsigned target);
/* ---- end of LLVM lowering ---- */

/* ---- run: inputs and outputs shared by every engine ---- */
/*
 * `shadertrans run` reads an inputs JSON and writes an outputs JSON
 * (docs/run-json.md is the contract).  run_io.c turns the JSON into the
 * plain structs below and back, so every engine (the interpreter, the LLVM
 * JIT, the Gen simulator) only executes: parse inputs -> execute -> write
 * outputs.  Slot numbers are those of the LLVM ABI above (ST_LL_IN_*,
 * ST_LL_OUT_*), so the records can be handed to the JIT unchanged.
 */
enum {
    ST_RUN_NUM_CONSTS = 256,  /* c0..c255 */
    ST_RUN_NUM_ICONSTS = 16,  /* i0..i15 */
    ST_RUN_NUM_BCONSTS = 16,  /* b0..b15 */
    ST_RUN_NUM_SAMPLERS = 16, /* s0..s15; ps_1_x texture stage n is sampler n */
    ST_RUN_MAX_OUTPUTS = 32,  /* at most ST_LL_OUT_SLOTS registers are written */
};

/* A texture of the inputs: level 0 only, RGBA float texels. */
struct st_run_texture {
    enum st_sampler_type type; /* ST_SAMPLER_NONE: none was given */
    uint32_t width, height;
    uint32_t depth;            /* volume: slices; cube: 6 (faces); 2d: 1 */
    /*
     * width*height*depth texels; x fastest, then y (row 0 is v = 0), then
     * the slice (volume) or face (cube: +x, -x, +y, -y, +z, -z).
     */
    const float (*texels)[4];
};

/* Bump-environment state of texture stage n (bem, texbem, texbeml). */
struct st_run_bumpenv {
    float mat[4];          /* BUMPENVMAT00, 01, 10, 11 */
    float lscale, loffset; /* BUMPENVLSCALE, BUMPENVLOFFSET (texbeml) */
};

/* Inputs of one invocation: every slot filled ((0,0,0,1) when not given). */
struct st_run_invocation {
    float in[ST_LL_IN_SLOTS][4];
};

struct st_run_inputs {
    /* Constants after the shader's def/defi/defb were applied (def wins). */
    float c[ST_RUN_NUM_CONSTS][4];
    /*
     * An ARB program with more parameter slots than that (up to the ARB
     * limits: st_arb_run_slots().num_c): slots ST_RUN_NUM_CONSTS.. as a
     * counted array in the parser's arena, so that only such programs pay
     * for them; NULL and 0 otherwise.  st_run_const() reads either part.
     */
    float (*c_more)[4];
    unsigned num_c_more;
    int32_t i[ST_RUN_NUM_ICONSTS][4];
    bool b[ST_RUN_NUM_BCONSTS];
    struct st_run_texture tex[ST_RUN_NUM_SAMPLERS];
    struct st_run_bumpenv bumpenv[ST_RUN_NUM_SAMPLERS];
    unsigned num_invocations;
    struct st_run_invocation *inv; /* in the arena given to the parser */
};

/* One output register of one invocation. */
struct st_run_output {
    enum st_regfile file; /* ST_REG_RASTOUT, _ATTROUT, _TEXCRDOUT, _OUTPUT, _COLOROUT, _DEPTHOUT */
    uint32_t index;
    uint8_t ncomp;        /* 1 for oFog, oPts, oDepth; else 4 */
    float v[4];
};

/* The outputs of one invocation. */
struct st_run_outputs {
    bool discarded;       /* texkill: the other fields are not printed */
    unsigned count;
    struct st_run_output reg[ST_RUN_MAX_OUTPUTS];
};

/* Constant vector k of the inputs: c[k], or c_more[k - ST_RUN_NUM_CONSTS];
 * NULL past the end. */
const float *st_run_const(const struct st_run_inputs *in, uint32_t k);
/* How many constant vectors the inputs hold (ST_RUN_NUM_CONSTS + num_c_more). */
unsigned st_run_num_consts(const struct st_run_inputs *in);

/*
 * Parses the inputs JSON for a checked shader.  Register names are checked
 * against the shader's version; def/defi/defb of the shader override the
 * file's constants.  Errors are ST_E_INPUTS through ctx, the message being
 * "NAME: PATH: what is wrong" (NAME = the inputs file name, may be NULL);
 * returns false then.  Everything allocated lives in `arena`.
 */
bool st_run_inputs_parse(struct st_ctx *ctx, const struct st_shader *sh, const char *name,
                         const char *json, size_t len, struct st_arena *arena,
                         struct st_run_inputs *out);

/*
 * The output registers of a shader, in the fixed order of the outputs JSON
 * (oPos, oD#, oT#, o#, oFog, oPts, oC#, oDepth), with v zeroed: every
 * register some instruction writes (ps_1_x: oC0, the final r0, and oDepth
 * after texdepth/texm3x2depth).  Engines copy this list into each
 * invocation's st_run_outputs and fill in the values.  Returns the count.
 */
unsigned st_run_output_regs(const struct st_shader *sh, struct st_run_output regs[ST_RUN_MAX_OUTPUTS]);

/* The ST_LL_IN_* slot an input register reads and the ST_LL_OUT_* slot an
 * output register writes; -1 when the register is not one. */
int st_run_in_slot(enum st_regfile file, uint32_t index);
int st_run_out_slot(enum st_regfile file, uint32_t index);

/* "oPos", "oD1", "o3", "oC0", "oDepth", ... into buf (at least 8 bytes). */
void st_run_output_name(enum st_regfile file, uint32_t index, char buf[8]);

/* Appends the outputs JSON of n invocations (floats as %.9g, NaN and
 * infinities as "nan", "inf", "-inf"). */
void st_run_outputs_write(const struct st_run_outputs *outs, unsigned n, struct st_buf *out);

/*
 * The reference interpreter's execution step (interp.c): runs every
 * invocation of `in` and fills outs[0 .. in->num_invocations).  Run-time
 * problems (loop or call limits) are ST_E_RUNTIME errors; returns false
 * then.  st_interp_run = st_run_engine with this step.
 */
bool st_interp_execute(struct st_ctx *ctx, const struct st_shader *sh,
                       const struct st_run_inputs *in, enum st_float_rules rules,
                       struct st_run_outputs *outs);
/* The same under the reading of the multiply-add operations in which each
 * is rounded once (st_op_env.fused): the judges accept either reading
 * from the Gen engine (docs/gensim.md, "Tolerances"). */
bool st_interp_execute_ex(struct st_ctx *ctx, const struct st_shader *sh,
                          const struct st_run_inputs *in, enum st_float_rules rules, bool fused,
                          struct st_run_outputs *outs);

/*
 * An engine's execution step for st_run_engine: fill outs[0 ..
 * in->num_invocations) (zeroed by the driver) or report an error through
 * ctx and return false.  `user` is the engine's own context (e.g. the Gen
 * engine's SIMD width); st_interp_execute is this with user unused.
 */
typedef bool (*st_run_execute_fn)(void *user, struct st_ctx *ctx, const struct st_shader *sh,
                                  const struct st_run_inputs *in, enum st_float_rules rules,
                                  struct st_run_outputs *outs);
/*
 * The whole of `shadertrans run` after the front end, for every engine:
 * parse the inputs JSON (st_run_inputs_parse, an arena of its own),
 * allocate the outputs, execute(user, ...), and append the outputs JSON
 * (st_run_outputs_write_sh) to out.  Out of memory is ST_E_OUT_OF_MEMORY;
 * returns false on any error, and then appends nothing.
 */
bool st_run_engine(struct st_ctx *ctx, const struct st_shader *sh, const char *inputs_name,
                   const char *json, size_t json_len, enum st_float_rules rules,
                   st_run_execute_fn execute, void *user, struct st_buf *out);

/*
 * The run budget (budget.c, docs/limits.md).  st_run_worst_case: the most
 * instructions one invocation of sh can execute with the integer constants
 * of `in` (loops at their full counts, the longer side of each branch,
 * calls at their subroutine's cost; saturating at UINT64_MAX), which is
 * never less than the interpreter's step count; *hot gets the top-level
 * loop or call costing the most (else the version line); *oom is set when
 * memory ran out.  st_run_budget_check compares it, times the number of
 * invocations, with the context's st_limits.max_run (or, when that is 0,
 * ST_RUN_DEFAULT_BUDGET per invocation): ST_E_RUN_BUDGET at *hot and false
 * when the run could exceed it.  st_run_engine calls it for every engine.
 */
uint64_t st_run_worst_case(const struct st_shader *sh, const struct st_run_inputs *in,
                           struct st_loc *hot, bool *oom);
bool st_run_budget_check(struct st_ctx *ctx, const struct st_shader *sh,
                         const struct st_run_inputs *in);
/*
 * The tolerance of the Gen engine against the interpreter (tolerance.c;
 * docs/gensim.md "Tolerances of the Gen engine"), for every judge that
 * compares them: an instruction whose kernel result may differ, and a
 * shader's level (ST_TOL_EXACT: none; ST_TOL_INEXACT: one computed in
 * float; ST_TOL_HALF: one a _pp instruction computes in half under
 * --pp=fp16), and whether two output components agree at a level (any NaN
 * matches any NaN; otherwise bit for bit, or within 2^-14 of the larger
 * magnitude or 2^-24 absolute (INEXACT), or 2^-8 of it or 2^-14 absolute
 * (HALF)).  A level is an unsigned; a bool `inexact` is the first two.
 */
enum { ST_TOL_EXACT = 0, ST_TOL_INEXACT = 1, ST_TOL_HALF = 2 };
bool st_tol_inexact_op(enum st_opcode op);
unsigned st_tol_shader_inexact(const struct st_shader *sh);
bool st_tol_within(float want, float got, unsigned level);
/* The operations that are multiply-adds by definition (each product may
 * be rounded alone or with its sum), and a shader with one. */
bool st_tol_muladd_op(enum st_opcode op);
bool st_tol_shader_muladd(const struct st_shader *sh);
/* A Gen value against the interpreter's two readings of the multiply-adds
 * (want: each product rounded; want_fused: rounded with its sum). */
bool st_tol_within_either(float want, float want_fused, float got, unsigned level);
/* The reading one invocation of the Gen engine is judged against: a
 * discard a multiply-add decided may follow either reading, so when only
 * the fused one discards as Gen did (or writes as Gen did), the fused one;
 * the plain reading otherwise. */
const struct st_run_outputs *st_tol_reading(const struct st_run_outputs *want,
                                            const struct st_run_outputs *want_fused,
                                            const struct st_run_outputs *got);
/* ---- end of run ---- */

/* ---- ARB programs ---- */
/*
 * ARB_vertex_program ("!!ARBvp1.0") and ARB_fragment_program ("!!ARBfp1.0")
 * use the AST above; docs/arb.md maps every ARB instruction to its
 * st_opcode.  An ARB shader has dialect ST_ARB, version.type ST_VS (vertex
 * program) or ST_PS (fragment program), version.ver ST_VER(1, 0), and
 * sh->arb naming what its register indices mean:
 *   ST_REG_TEMP   index into arb->temps     (TEMP names)
 *   ST_REG_ADDR   index into arb->addrs     (ADDRESS names; only lane x)
 *   ST_REG_INPUT  index into arb->inputs    ("vertex.*" / "fragment.*")
 *   ST_REG_CONST  index into arb->params    (one slot per 4-vector: literal,
 *                 program.env[n], program.local[n] or a state.* vector)
 *   ST_REG_OUTPUT index into arb->outputs   ("result.*")
 * Relative addressing (vertex programs: "a[A0.x + 3]"): reg.rel is
 * {ST_REG_ADDR, address register, lane 0}; reg.index holds
 * (uint32_t)(first slot of the array + constant offset), to be read as an
 * int32_t because the offset may be negative; the array's bounds are
 * arb->arrays[instr->arb->src[i].array].  Reads outside the array are
 * undefined in ARB; engines treat them like D3D9 out-of-range reads.
 * Binding names are canonical (one spelling per vector, as the inputs and
 * outputs JSON use them): "vertex.texcoord[0]", "fragment.color",
 * "state.matrix.mvp.row[0]", "program.local[3]", "result.color".
 */
enum { OPF_ARB = 1 << 16 }; /* opcodes.def: exists only in ARB programs */

enum st_arb_option {
    ST_ARB_OPT_POSITION_INVARIANT = 1 << 0, /* vp */
    ST_ARB_OPT_FOG_EXP = 1 << 1,            /* fp, ARB_fog_exp */
    ST_ARB_OPT_FOG_EXP2 = 1 << 2,
    ST_ARB_OPT_FOG_LINEAR = 1 << 3,
    ST_ARB_OPT_PRECISION_FASTEST = 1 << 4,  /* fp, ARB_precision_hint_fastest */
    ST_ARB_OPT_PRECISION_NICEST = 1 << 5,
    ST_ARB_OPT_DRAW_BUFFERS = 1 << 6,       /* fp, ARB_draw_buffers: result.color[n] */
    ST_ARB_OPT_SHADOW = 1 << 7,             /* fp, ARB_fragment_program_shadow */
    ST_ARB_OPT_ORIGIN_UPPER_LEFT = 1 << 8,  /* fp, ARB_fragment_coord_origin_upper_left */
    ST_ARB_OPT_PIXEL_CENTER_INTEGER = 1 << 9, /* fp, ARB_fragment_coord_pixel_center_integer */
};

enum st_arb_param_kind {
    ST_ARB_PARAM_CONST, /* value[] is the literal */
    ST_ARB_PARAM_ENV,   /* program.env[index]; value[] = default (0,0,0,0) */
    ST_ARB_PARAM_LOCAL, /* program.local[index]; value[] = default (0,0,0,0) */
    ST_ARB_PARAM_STATE, /* binding names the vector; value[] = its OpenGL default */
};

struct st_arb_param {
    enum st_arb_param_kind kind;
    float value[4];
    uint32_t index;      /* ENV, LOCAL */
    const char *binding; /* canonical name; NULL for CONST */
    int32_t array;       /* index into arb->arrays, -1 outside arrays */
    struct st_loc loc;
};

struct st_arb_binding { /* one input or output */
    const char *binding;   /* canonical name */
    struct st_loc loc;     /* first use or declaration */
};

struct st_arb_array {     /* PARAM name[n] = { ... } */
    const char *name;
    uint32_t first, count; /* slots params[first .. first+count) */
    bool size_written;     /* "[4]" rather than "[]" */
    bool relative;         /* some instruction indexes it with an address register */
    struct st_loc loc;
};

/* Declarations in program order (for printing and diagnostics). */
enum st_arb_decl_kind {
    ST_ARB_DECL_TEMP,    /* index: arb->temps */
    ST_ARB_DECL_ADDRESS, /* index: arb->addrs */
    ST_ARB_DECL_ATTRIB,  /* index: arb->inputs */
    ST_ARB_DECL_PARAM,   /* index: arb->params (a single slot) */
    ST_ARB_DECL_ARRAY,   /* index: arb->arrays */
    ST_ARB_DECL_OUTPUT,  /* index: arb->outputs */
    ST_ARB_DECL_ALIAS,   /* index: arb->decls entry it names (never an alias) */
};

struct st_arb_decl {
    enum st_arb_decl_kind kind;
    const char *name;
    uint32_t index;
    struct st_loc loc;
};

struct st_arb_program {
    uint32_t options;          /* ST_ARB_OPT_* */
    struct st_loc option_loc[10]; /* where each option bit was first given */
    struct st_arb_decl *decls;
    unsigned num_decls;
    const char **temps;        /* TEMP names */
    unsigned num_temps;
    const char **addrs;        /* ADDRESS names */
    unsigned num_addrs;
    struct st_arb_binding *inputs;
    unsigned num_inputs;
    struct st_arb_binding *outputs;
    unsigned num_outputs;
    struct st_arb_param *params;
    unsigned num_params;
    struct st_arb_array *arrays;
    unsigned num_arrays;
    struct st_loc end_loc;     /* of "END" */
};

/* How an operand was written, so the printer can say it the same way. */
struct st_arb_operand {
    const char *var; /* declared name used (may be an ALIAS); NULL: binding or literal in place */
    int32_t array;   /* arb->arrays index when var names an array, else -1 */
    int32_t offset;  /* element index (absolute) or constant offset (relative) */
};

enum st_arb_tex_target {
    ST_ARB_TEX_1D, ST_ARB_TEX_2D, ST_ARB_TEX_3D, ST_ARB_TEX_CUBE, ST_ARB_TEX_RECT,
    ST_ARB_TEX_SHADOW1D, ST_ARB_TEX_SHADOW2D, ST_ARB_TEX_SHADOWRECT, /* ARB_fragment_program_shadow */
};

/* SWZ selectors: 0..3 pick x..w of the operand; these two are constants. */
enum { ST_ARB_SWZ_ZERO = 4, ST_ARB_SWZ_ONE = 5 };

struct st_arb_instr {
    struct st_arb_operand dst, src[3];
    uint8_t swz_sel[4];   /* SWZ: result lane i = (swz_neg bit i ? -1 : 1) * sel(swz_sel[i]) */
    uint8_t swz_neg;
    uint32_t tex_unit;    /* TEX, TXP, TXB: texture[n] */
    enum st_arb_tex_target tex_target;
};

/* Parses an ARB program (the header decides vp or fp); bindings are resolved
 * while parsing.  Returns what it could build; errors are in ctx. */
struct st_shader *st_parse_arb(struct st_ctx *ctx, struct st_arena *arena);
/* Resource limits and the rules the specifications state; false on errors. */
bool st_check_arb(struct st_ctx *ctx, struct st_shader *sh);
/* Canonical ARB text; parse(print(x)) prints the same again. */
void st_print_arb(const struct st_shader *sh, struct st_buf *out);
/* One row of translator/arb/arb_opcodes.def (defined in arb_print.c). */
struct st_arb_opinfo {
    const char *name;     /* "MOV" */
    enum st_opcode op;
    bool vp, fp;
    const char *operands; /* operand letters, see arb_opcodes.def */
    bool tex;             /* fragment texture instruction */
};
extern const struct st_arb_opinfo st_arb_opinfo[];
extern const unsigned st_arb_num_opinfo;
/* The ARB mnemonic of an opcode ("MOV", "EX2"), or NULL. */
const char *st_arb_opcode_name(enum st_opcode op);
/* Texture target keyword ("2D", "SHADOWRECT"). */
const char *st_arb_tex_target_name(enum st_arb_tex_target t);
/* The OpenGL default value of a state binding (canonical name, docs/arb.md);
 * false when the name is not a state binding. */
bool st_arb_state_default(const char *binding, float out[4]);

/*
 * Running ARB programs (run_io.c; docs/run-json.md "ARB programs").  The run
 * structs above are used as for Direct3D 9 with these meanings: input slot
 * i is arb->inputs[i]; c[i] is the value of arb->params[i] (literal, given
 * in the inputs JSON, or the OpenGL default); output slot j (ST_LL_OUT_*
 * numbering not used) is arb->outputs[j]; tex[n] is texture[n] (1d and rect
 * textures are ST_SAMPLER_2D, 3d is ST_SAMPLER_VOLUME).  The fixed-function
 * steps the options ask for (ARB_position_invariant's transform, the
 * ARB_fog_* blend) need values the program may not bind; they have slots of
 * their own past the program's, listed here (-1: not needed), or share the
 * program's input slot when it binds the same name.
 */
struct st_arb_run_slots {
    int pos_in;     /* vertex.position, for ARB_position_invariant */
    int fog_in;     /* fragment.fogcoord, for ARB_fog_* */
    int mvp_c;      /* c[mvp_c + r] = state.matrix.mvp.row[r] */
    int fog_c;      /* c[fog_c] = state.fog.params, c[fog_c + 1] = state.fog.color */
    int pos_out;    /* output slot of result.position under ARB_position_invariant */
    unsigned num_c; /* c[] slots in use */
};
void st_arb_run_slots(const struct st_shader *sh, struct st_arb_run_slots *s);
/* After an invocation of an ARB program: applies the fixed-function steps
 * of its options to the output slots (both engines call it; `fused` is the
 * interpreter's fused reading of the multiply-adds, docs/gensim.md). */
void st_arb_run_finish(const struct st_shader *sh, const struct st_run_inputs *in,
                       const float (*inslots)[4], float (*outslots)[4], enum st_float_rules rules,
                       bool fused);
/* Fills o from the output slots of one invocation (any dialect): the
 * registers of st_run_output_regs with their values. */
void st_run_collect(const struct st_shader *sh, const struct st_run_output *regs, unsigned nregs,
                    const float (*outslots)[4], bool discarded, struct st_run_outputs *o);
/* The name an output has in the outputs JSON (ARB: its binding). */
const char *st_run_output_label(const struct st_shader *sh, const struct st_run_output *r,
                                char buf[8]);
/* st_run_outputs_write with ARB names for an ARB program. */
void st_run_outputs_write_sh(const struct st_shader *sh, const struct st_run_outputs *outs,
                             unsigned n, struct st_buf *out);
/* Sampling of texture image unit `unit` with an ARB target (TEX/TXP/TXB
 * after the projection): both engines call it; NULL texture (no texels) ->
 * (0,0,0,1).  SHADOW targets compare coordinate r (c[2]) with the texel's
 * red (GL_LEQUAL, depth mode GL_LUMINANCE). */
void st_arb_sample(const struct st_run_texture *t, enum st_arb_tex_target target, const float c[4],
                   float out[4]);
/*
 * The texture model of docs/run-json.md, shared by every engine: level 0,
 * nearest texel, repeat for 2D and volume textures, cube maps by major axis
 * and clamped on the face.  c holds u, v, w.  No texture: (0,0,0,1).
 */
void st_run_texel(const struct st_run_texture *t, const float c[3], float out[4]);
/* ---- end of ARB programs ---- */

#endif
