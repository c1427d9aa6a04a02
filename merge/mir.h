/*
 * mir.h — the vector machine IR of the merge stage (private to merge/ and
 * to emit/vasm/vasm.c, which prints it, and to tests/test_merge.c).
 *
 * One instruction is a D3D9-shaped vec4 operation: a destination with a
 * writemask, up to four sources with a swizzle and a modifier.  Values are
 * virtual registers (vregs) until regalloc.c gives each a temporary r#;
 * fixed registers (v#, t#, c#, outputs, samplers) are named directly.
 * Lanes never move: lane i of a vreg is lane i of the r# it gets, so two
 * vregs whose live lanes never overlap may share one register.
 *
 * MIR_MERGE is the pseudo the whole stage is about: its destination takes,
 * for each input k, the lanes lanes[k] from src[k] (disjoint sets).  An
 * input whose vreg the coalescer renamed into the destination disappears;
 * what is left prints as one writemasked mov per input.
 *
 * Control flow stays structured: IF/IFC/ELSE/ENDIF (and REP/ENDREP/BREAK
 * when the selector recovers them) appear in the list in program order;
 * mir_succ() derives the edges for the dataflow.
 */
#ifndef ST_MIR_H
#define ST_MIR_H

#include <stdbool.h>
#include <stdint.h>

#include "translator.h"

enum { MIR_OP_MERGE = ST_OP_COUNT + 1 };
/* A ps_1_x texture-phase instruction printed again as written (`ast`),
 * with the registers of its vreg sources (and pinned vreg destination)
 * filled in by allocation. */
enum { MIR_OP_OPAQUE = ST_OP_COUNT + 2 };
enum { MIR_NONE = UINT32_MAX };

enum mir_mod {
    MIR_MOD_NONE, MIR_MOD_NEG, MIR_MOD_ABS, MIR_MOD_ABSNEG,
    /* ps_1_x only: x - 0.5, 2 * (x - 0.5), 1 - x, 2 * x, and negated */
    MIR_MOD_BIAS, MIR_MOD_BIASNEG, MIR_MOD_BX2, MIR_MOD_BX2NEG, MIR_MOD_COMP, MIR_MOD_X2,
    MIR_MOD_X2NEG,
};

enum mir_opnd_kind {
    MIR_VREG,  /* a virtual register (a temporary after regalloc) */
    MIR_FIXED, /* a register the shader model names: v#, c#, oPos, s#, b# ... */
};

struct mir_src {
    uint8_t kind;        /* enum mir_opnd_kind */
    uint8_t rel;         /* MIR_FIXED only: 1 = c[aL + index]; 2..5 = c[a0.x..w + index] */
    uint8_t swz;         /* D3D9 swizzle byte: lane i reads lane ST_SWZ_LANE(swz, i) */
    uint8_t mod;         /* enum mir_mod */
    uint32_t vreg;       /* MIR_VREG */
    enum st_regfile file; /* MIR_FIXED */
    uint32_t index;
    /* ARB programs, a relative parameter read (rel 2): 1 + the index in
     * sh->arb->arrays of the array it reads (index = first slot + offset) */
    uint16_t arr1;
};

struct mir_dst {
    uint8_t kind;
    uint8_t mask;        /* writemask */
    uint8_t rel;         /* MIR_FIXED only: as mir_src.rel (o[aL + index], o[a0.c + index]) */
    uint32_t vreg;
    enum st_regfile file;
    uint32_t index;
};

struct mir_instr {
    uint16_t op;         /* enum st_opcode, or MIR_OP_MERGE */
    bool sat;
    bool dead;           /* removed (kept in place so indices stay stable) */
    enum st_compare cmp; /* IFC */
    bool has_dst;
    struct mir_dst dst;
    unsigned nsrc;
    struct mir_src src[4];
    uint8_t lanes[4];    /* MIR_OP_MERGE: lanes of the destination input k fills;
                            MIR_OP_OPAQUE: lanes of source k it reads */
    bool phi_copy;       /* MIR_OP_MERGE made for a phi (a copy on a CFG edge) */
    bool predicated;     /* (p0.swz) / (!p0.swz): lanes whose predicate is false keep
                            the old value (liveness: the write reads its destination) */
    uint8_t pred_swz;
    bool pred_not;
    int8_t shift;        /* ps_1_x _x2 (1), _x4 (2), _d2 (-1) ... */
    const struct st_instr *ast; /* MIR_OP_OPAQUE */
    /* ARB programs: SWZ selectors (0..3 = lane of src 0 as swizzled,
     * ST_ARB_SWZ_ZERO/ONE) and negations; TEX/TXP/TXB target (src 1 is
     * the sampler = texture unit) */
    uint8_t swz_sel[4], swz_neg;
    uint8_t tex_target;
};

struct mir_def { /* def c#, a, b, c, d made for LLVM constants */
    uint32_t index;
    float f[4];
    uint8_t pool_lanes; /* a pool of scalars: lanes in use (0: a vector constant) */
};

struct mir_defi { /* defi i#, a, b, c, d made for loop counts */
    uint32_t index;
    int32_t v[4];
};

struct mir_prog {
    struct mir_defi defis[16];
    unsigned ndefis;
    struct mir_instr *ins;
    unsigned n, cap;
    uint32_t nvregs;
    struct mir_def *defs;
    unsigned ndefs, capdefs;
    enum st_shader_type type;
    uint16_t ver;
    bool arb;            /* an ARB program: ARB instructions and rules (docs/merge.md) */
    uint32_t phys_temps; /* after regalloc: temporaries used */
    uint32_t *phys;      /* after regalloc: vreg -> r# (MIR_NONE: unused) */
    struct st_loc loc;   /* where diagnostics about the whole program point (the version) */
    /* vregs that must get one given temporary (ps_1_4 texld r#, ps_1_x's
     * final r0) and vregs live at the exit (ps_1_x's final r0) */
    struct { uint32_t vreg, reg; } pins[16];
    unsigned npins;
    uint32_t exit_live[4];
    unsigned nexit_live;
    /* an allocation failed on the way: the program may be incomplete, and
     * whoever prints it reports ST9001 instead */
    bool oom;
};

/* Building (mir.c lives in select.c). */
struct mir_instr *mir_append(struct mir_prog *p);
uint32_t mir_new_vreg(struct mir_prog *p);
void mir_free(struct mir_prog *p);
struct mir_src mir_src_vreg(uint32_t v, uint8_t swz);
struct mir_src mir_src_fixed(enum st_regfile f, uint32_t index, uint8_t swz);

/* select.c: ps_2_0 allows few swizzles (and texld coordinates none before
 * ps_3_0); others are rewritten lane by lane through replicate movs. */
bool mir_legalize_swizzles(struct mir_prog *p);

/* ---- liveness.c ---- */

/* Lanes of src k's register that instruction `in` reads (its swizzle applied). */
uint8_t mir_src_lanes(const struct mir_instr *in, unsigned k);
/* True when the op computes each lane from the same lanes of its sources
 * (so its writemask may shrink and its sources may be re-swizzled). */
bool mir_op_componentwise(unsigned op);
/* True when the op writes one scalar to every lane of the writemask. */
bool mir_op_replicates(unsigned op);
/* True when the op's writemask may shrink to the live lanes. */
bool mir_op_shrinkable(unsigned op);
/* ARB TEX/TXP/TXB: lanes of the coordinate the target reads. */
uint8_t mir_arb_tex_lanes(unsigned op, unsigned target);
/* ARB SWZ: lanes of the (swizzled) source the selectors of `written` lanes read. */
uint8_t mir_arb_swz_lanes(const struct mir_instr *in, uint8_t written);
/* 0xf when the instruction's destination must not share a register with v,
 * a vreg it reads (crs sources, sgn scratch registers), else 0. */
uint8_t mir_reads_while_writing(const struct mir_instr *in, uint32_t v);

/*
 * Lane liveness: out[i * nv + v] is the mask of lanes of vreg v live just
 * after instruction i; in[i * nv + v] just before it.  Dead instructions
 * are skipped.  Backward dataflow over the structured CFG to a fixpoint.
 */
struct mir_live {
    unsigned n, nv;
    uint8_t *in, *out;
};
bool mir_liveness(const struct mir_prog *p, struct mir_live *lv);
void mir_live_free(struct mir_live *lv);
/* Successors of instruction i (at most 2); n = exit.  Returns the count. */
unsigned mir_succ(const struct mir_prog *p, unsigned i, unsigned succ[2]);

/*
 * Lanes in which a and b interfere: lanes one of them writes at a point
 * where the other is live in the same lane (a copy of the same lanes from
 * the other, as a merge input, does not count).  0 = they may share one
 * register, lane for lane.
 */
uint8_t mir_interference(const struct mir_prog *p, const struct mir_live *lv, uint32_t a,
                         uint32_t b);

/* ---- coalesce.c ---- */
struct st_merge_stats;
/* Drops dead lanes from writemasks and dead instructions; true if it changed anything. */
bool mir_shrink(struct mir_prog *p, const struct mir_live *lv);
/* Merge inputs that are not plain vregs become movs into new vregs. */
bool mir_split_merge_inputs(struct mir_prog *p, struct st_merge_stats *stats);
/* Folds "mov D, V" into V's definition when V has no other use. */
unsigned mir_fold_copies(struct mir_prog *p);
/* "(p0) mov D, V": V's definition moves down and writes D under the predicate. */
unsigned mir_sink_predicated(struct mir_prog *p);
/* Vertex shaders: the definitions of a value only copied to an output write it. */
unsigned mir_fold_outputs(struct mir_prog *p);
/* Eliminates the merges lane liveness allows; counts in stats. */
bool mir_coalesce(struct st_ctx *ctx, struct mir_prog *p, struct st_merge_stats *stats);

/* After regalloc: consecutive dp3/dp4 by constant rows become m4x4 & co. */
unsigned mir_fuse_matrices(struct mir_prog *p);

/* ps_1_x: a new def past the eight constants, placed by mir_place_ps1x_defs */
#define MIR_PS1X_VIRTUAL_C 0x10000u
/* ps_1_x, the program final: defs nobody reads dropped, virtual defs put in
 * the freed registers (below nconst); false when none is left */
bool mir_place_ps1x_defs(struct mir_prog *p, unsigned nconst);

/* ---- regalloc.c ---- */
/* Assigns r# to vregs at lane granularity; max_temps: the model's limit. */
bool mir_regalloc(struct st_ctx *ctx, struct mir_prog *p, unsigned max_temps);

#endif
