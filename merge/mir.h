/*
 * mir.h — the vector machine IR: what the merge stage hands to every
 * target (emit/vasm and emit/gen read it; merge.h, the stage's door,
 * includes this file).
 *
 * One instruction is one source operation as the shader wrote it: a vec4
 * operation (an st_opcode: the Direct3D 9 and ARB instruction sets) with a
 * destination under a writemask and up to four sources, each with a
 * swizzle and a modifier.  Values live in virtual registers (vregs) of
 * three classes: float vec4 (temporaries), integer vec4 (what mova/ARL
 * write: address values, and the aL of a loop) and boolean vec4 (what
 * setp writes), plus half vec4 (the values a _pp instruction computes under
 * --pp=fp16).  Registers the shader model names (v#, c#, i#, b#, s#, t#,
 * outputs) are fixed operands; constants the program computed are
 * immediates (the program's table of vec4 literals).  Lanes never move:
 * lane i of a vreg is lane i of whatever register a target gives it.
 *
 * MIR_OP_MERGE is the pseudo the stage is about: its destination takes,
 * for each input k, the lanes lanes[k] from src[k] (disjoint sets).  The
 * coalescer (coalesce.c) renames each input it can into the destination;
 * what is left is one writemasked move per input.
 *
 * Control flow is structured and appears in the list in program order:
 * IF/IFC/ELSE/ENDIF, REP/ENDREP, LOOP/ENDLOOP, BREAK/BREAKC/BREAKP.
 *
 * The IR is target neutral: any swizzle, any writemask, any number of
 * vregs and immediates; what a shader model cannot say (a swizzle of
 * ps_2_0, a writemask of ps_1_1, more temporaries than it has) is the
 * vector target's to legalize (emit/vasm), what Gen cannot say directly
 * the Gen back end's to expand.  docs/merge.md documents it whole.
 */
#ifndef ST_MIR_H
#define ST_MIR_H

#include <stdbool.h>
#include <stdint.h>

#include "translator.h"

enum {
    MIR_OP_MERGE = ST_OP_COUNT + 1,
    /* A ps_1_x texture-phase instruction as written (`ast`): its sources
     * are the registers it reads (vregs, fixed t#), its destination (if
     * it writes a register) the value that register holds afterwards. */
    MIR_OP_OPAQUE = ST_OP_COUNT + 2,
};
enum { MIR_NONE = UINT32_MAX };

enum mir_mod {
    MIR_MOD_NONE, MIR_MOD_NEG, MIR_MOD_ABS, MIR_MOD_ABSNEG,
    /* ps_1_x only: x - 0.5, 2 * (x - 0.5), 1 - x, 2 * x, and negated */
    MIR_MOD_BIAS, MIR_MOD_BIASNEG, MIR_MOD_BX2, MIR_MOD_BX2NEG, MIR_MOD_COMP, MIR_MOD_X2,
    MIR_MOD_X2NEG,
    /* boolean sources (if, breakp, predicates): the negation */
    MIR_MOD_NOT,
};

enum mir_opnd_kind {
    MIR_VREG,  /* a virtual register */
    MIR_FIXED, /* a register the shader model names: v#, c#, oPos, s#, b# ... */
    MIR_IMM,   /* a literal: prog->imm[index] */
};

enum mir_class {
    MIR_CLASS_FLOAT, /* vec4 of float */
    MIR_CLASS_INT,   /* vec4 of int32: address values (a0), aL */
    MIR_CLASS_BOOL,  /* vec4 of bool: predicates (p0) */
    MIR_CLASS_HALF,  /* vec4 of half: what a half instruction writes (--pp=fp16) */
};

struct mir_src {
    uint8_t kind;        /* enum mir_opnd_kind */
    uint8_t swz;         /* lane i reads lane ST_SWZ_LANE(swz, i) */
    uint8_t mod;         /* enum mir_mod */
    bool rel;            /* MIR_FIXED: file[index + lane rel_lane of vreg rel_vreg] */
    uint8_t rel_lane;
    uint32_t vreg;       /* MIR_VREG: the vreg; MIR_IMM: the literal's index */
    enum st_regfile file; /* MIR_FIXED */
    int32_t index;       /* MIR_FIXED: the register; relative: the offset */
    uint32_t rel_vreg;   /* relative: the address (class INT) vreg */
    /* relative: a register outside first..first+count-1 reads 0 */
    int32_t rel_first;
    uint32_t rel_count;
    uint16_t arr1;       /* ARB programs: 1 + the array a relative read names */
};

struct mir_dst {
    uint8_t kind;        /* MIR_VREG or MIR_FIXED */
    uint8_t mask;        /* writemask */
    bool rel;            /* MIR_FIXED: o[index + lane rel_lane of rel_vreg] */
    uint8_t rel_lane;
    uint32_t vreg;
    enum st_regfile file;
    int32_t index;
    uint32_t rel_vreg;
    uint32_t rel_count;  /* relative: a write to index + L outside 0..rel_count-1 is dropped */
};

struct mir_instr {
    uint16_t op;         /* enum st_opcode, or MIR_OP_* */
    bool sat;
    bool dead;           /* removed (kept in place so indices stay stable) */
    int8_t shift;        /* ps_1_x _x2 (1), _x4 (2), _d2 (-1) ... */
    bool has_dst;
    bool phi_copy;       /* MIR_OP_MERGE made for a phi (a copy on a CFG edge) */
    bool uniform;        /* the value written (or the branch) is the same in every invocation */
    bool predicated;     /* lanes whose predicate is false keep the old value */
    /* Computes in half precision (a _pp instruction under --pp=fp16, and
     * the moves and merges of its values): each source, as read, is
     * rounded to half (exact for a HALF vreg), every step of the operation
     * rounds to half (st_op_env.half), and the result is a half.  Its
     * vreg destination is of class HALF (BOOL for setp); a fixed one (an
     * output) takes the half as a float.  A texture instruction reads its
     * coordinates as they are and rounds the texel.  An instruction that
     * is not half reads a HALF vreg as the float it holds (exactly). */
    bool half;
    enum st_compare cmp; /* SETP, IFC, BREAKC */
    struct mir_dst dst;
    unsigned nsrc;
    struct mir_src src[4];
    struct mir_src pred; /* predicated: a boolean source (swz, MIR_MOD_NOT) */
    uint8_t lanes[4];    /* MIR_OP_MERGE: lanes of the destination input k fills */
    /* texld*: the sampler stage and the coordinates its type reads;
     * ARB TEX/TXP/TXB: the texture unit and target */
    uint8_t tex_stage, tex_dims, tex_target;
    uint8_t swz_sel[4], swz_neg; /* ARB SWZ: selectors and negations */
    const struct st_instr *ast;  /* MIR_OP_OPAQUE: the instruction as written */
    struct st_loc loc;           /* where diagnostics about it point */
};

/* A literal: four 32-bit lanes, float or int32 by class. */
struct mir_imm {
    uint32_t bits[4];
    uint8_t cls;         /* MIR_CLASS_FLOAT, MIR_CLASS_INT */
};

struct mir_prog {
    struct mir_instr *ins;
    unsigned n, cap;
    uint8_t *vclass;     /* per vreg: enum mir_class */
    uint32_t nvregs, capv;
    struct mir_imm *imm;
    unsigned nimm, capimm;
    const struct st_shader *sh;
    enum st_shader_type type;
    uint16_t ver;
    bool arb;            /* an ARB program: ARB semantics (docs/arb.md) */
    bool oom;            /* an allocation failed: the program is incomplete */
    struct st_loc loc;   /* where diagnostics about the whole program point */
};

/* ---- building and reading (mir.c) ---- */
/* A zeroed instruction at the end (NULL when memory ran out: p->oom). */
struct mir_instr *mir_append(struct mir_prog *p);
uint32_t mir_new_vreg(struct mir_prog *p, enum mir_class cls);
/* The index of a literal (shared when the same bits are already there). */
uint32_t mir_imm(struct mir_prog *p, const uint32_t bits[4], enum mir_class cls);
uint32_t mir_imm_f(struct mir_prog *p, float x, float y, float z, float w);
void mir_free(struct mir_prog *p);
struct mir_src mir_src_vreg(uint32_t v, uint8_t swz);
struct mir_src mir_src_fixed(enum st_regfile f, int32_t index, uint8_t swz);
struct mir_src mir_src_imm(uint32_t index, uint8_t swz);
bool mir_is_flow(unsigned op);
/* The register lanes a swizzle reads for the given operand lanes. */
uint8_t mir_swz_image(uint8_t swz, uint8_t lanes);
/* The lanes of src k's register that instruction `in` reads (swizzle applied). */
uint8_t mir_src_lanes(const struct mir_prog *p, const struct mir_instr *in, unsigned k);
/* The text of --emit=mir. */
void mir_print(const struct mir_prog *p, struct st_buf *out);
/* The structural rules every pass keeps (balanced flow, vregs defined
 * before use on every path, operand kinds and classes); false with a
 * located ST_E_NOT_SUPPORTED naming `after`.  Run after every pass in
 * debug builds. */
bool mir_verify(struct st_ctx *ctx, const struct mir_prog *p, const char *after);

#endif
