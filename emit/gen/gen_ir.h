/*
 * gen_ir.h — the Gen9 back end's private IR (emit/ only).
 *
 * One gen_inst is one SIMD instruction of the logical width of the kernel
 * (8, 16 or 32 channels; 1 for uniform values computed with NoMask).  The
 * printer splits a logical SIMD32 instruction into its (16|M0) and
 * (16|M16) halves, so isel and the allocator never see the halves.
 *
 * Operands name virtual registers (vregs) with a byte offset into them, so
 * one vreg can be a contiguous message payload or response of several
 * GRFs whose parts are other values' components: a sampler response is one
 * vreg and its R, G, B, A are (vreg, 0), (vreg, size), ...  The allocator
 * works on one byte-addressed file: a vreg is a size (4 for a uniform
 * dword, 32/64/128 for a divergent dword at SIMD8/16/32, n*32 for blocks)
 * plus an allowed GRF range (EOT payloads live in r112-r127).
 *
 * Fixed operands address the thread payload (r0, barycentrics, pushed
 * constants, attribute setup data) by absolute byte address.
 */
#ifndef ST_GEN_IR_H
#define ST_GEN_IR_H

#include <stdbool.h>
#include <stdint.h>

#include "emit.h"
#include "translator.h"

enum { GEN_GRF_SIZE = 32, GEN_NUM_GRFS = 128, GEN_FILE_BYTES = GEN_GRF_SIZE * GEN_NUM_GRFS,
       GEN_EOT_FIRST_GRF = 112,
       /* payload + pushed constants + inputs stay below this GRF (room for
        * the kernel's own values); constants past it are pulled */
       GEN_PUSH_LIMIT = 100,
       /* zero vectors before and after the constants in the constant
        * buffer (docs/gen-abi.md): c[i] is at byte 16 * (GEN_CBUF_PAD + i), so a
        * block read a little outside the constants reads zeros */
       GEN_CBUF_PAD = 8 };

/* Binding table (docs/gen-abi.md): render target n at BTI n (0-7, as Mesa
 * binds them), then the constant buffer, then textures 0-15, then a view
 * of the constant buffer per relatively addressed range (st_gen_rel_block). */
enum { GEN_BTI_RT0 = 0, GEN_BTI_CONSTANTS = ST_GEN_MAX_RT, GEN_BTI_TEXTURE0 = ST_GEN_MAX_RT + 1,
       GEN_BTI_REL0 = ST_GEN_MAX_RT + 1 + 16, GEN_BTI_SCRATCH = 253 };

/* How a group of relative constant reads is done (gen/isel_const.c). */
enum gen_rel_strategy {
    GEN_REL_VX1,       /* uniform index, pushed constants: a0 + one mov per two vectors */
    GEN_REL_VXH,       /* an index per channel, pushed constants: a0.0-a0.15, a mov per component */
    GEN_REL_BLOCK,     /* uniform index, pulled: one OWord block read */
    GEN_REL_GATHER,    /* an index per channel, pulled: an untyped read per vector */
    GEN_REL_WATERFALL, /* an index per channel, pulled, few distinct values: a loop of block reads */
    GEN_REL_STRATEGIES
};

/* GT_HF: IEEE half (--pp=fp16): a divergent half value is two bytes per
 * channel (SIMD8: 16 bytes, half a GRF), a uniform one the low word of a
 * dword; an immediate holds the half's 16 bits. */
enum gen_type {
    GT_F, GT_D, GT_UD, GT_UW, GT_W, GT_V, GT_HF,
    GT_VF, /* immediates only: 4 x 8-bit floats */
    GT_UQ  /* 64 bits: logic on pairs of dword lanes (the derivative masks) */
};

enum gen_opnd_kind {
    GO_NONE,
    GO_VREG,  /* vreg + off */
    GO_FIXED, /* absolute byte address `off` in the register file */
    GO_IMM,   /* 32-bit immediate of `type` */
    GO_NULL,  /* the null register */
};

/* How a source is read. */
enum gen_region {
    GR_AUTO,   /* scalar <0;1,0> for uniform vregs, one element per channel otherwise */
    GR_SCALAR, /* <0;1,0> */
    GR_VEC,    /* one element per channel: <8;8,1> */
    GR_DDX,    /* <2;2,0>: each channel reads element 2*(ch/2) (+ offset): left/right pairs */
    GR_DDY,    /* <0;2,1>: in a SIMD4 subspan, channel ch reads element ch%2: the top row */
    GR_SUBSPAN,/* <2;4,0>:uw: channel ch reads word 2*(ch/4): a subspan's X or Y */
    GR_VEC16,  /* <16;16,1>: one word per channel */
    GR_PAIRS,  /* <4;2,1>: channel ch reads element 4*(ch/2) + ch%2: the top rows of the subspans, packed */
    GR_REP2,   /* <1;2,0>: channel ch reads element ch/2: each element twice */
    GR_REP8,   /* <0;8,1>: channel ch reads element ch%8: a SIMD8 value twice, by a (W)
                * SIMD16 instruction over two GRFs (gen/opt_pair.c, gen/opt_payload.c) */
    GR_SPLAT2, /* <1;8,0>: channel ch reads element ch/8: two consecutive scalars (pushed
                * constants), eight times each, by a (W) SIMD16 instruction (gen/opt_pair.c,
                * gen/opt_payload.c constant_quads) */
};

struct gen_opnd {
    uint8_t kind;   /* enum gen_opnd_kind */
    uint8_t type;   /* enum gen_type */
    uint8_t region; /* enum gen_region */
    bool neg, abs;
    uint32_t vreg;
    uint32_t off;
    uint32_t imm;
};

/* Opcodes: gen/print.c's table (gen_op_info) gives each its IGA name and shape. */
enum gen_op {
    GOP_MOV, GOP_ADD, GOP_MUL, GOP_SEL, GOP_CMP, GOP_AND, GOP_OR, GOP_XOR, GOP_NOT,
    GOP_SHL, GOP_SHR, GOP_ASR, GOP_FRC, GOP_RNDD, GOP_RNDE, GOP_RNDZ, GOP_MAD, GOP_PLN,
    GOP_MATH, GOP_SEND, GOP_SENDC, GOP_SENDS,
    GOP_IF, GOP_ELSE, GOP_ENDIF, GOP_WHILE, GOP_BREAK, GOP_CONT,
    GOP_LABEL, /* pseudo: the start of a loop body (WHILE's target); prints nothing */
    GOP_CSEL,  /* dst = (src2 <cmod> 0.0) ? src0 : src1, float, three-source (Gen8+) */
    GOP_LRP,   /* dst = src0 * src1 + (1 - src0) * src2, float, three-source (Gen9, not Gen11) */
    /* Register-indirect reads (gen/indirect.c prints each as the native
     * instructions it stands for, setting a0 itself, so that no other step
     * ever sees the address register):
     * GOP_MOVI: vectors of 16 bytes from the pushed constants.  src[0] is
     *   the vector number (a dword, never negative), src[1] a GO_FIXED
     *   whose `off` and `imm` are the first byte and the length of the
     *   registers the read may reach (the allocator keeps them live), src[2]
     *   an immediate: gen_movi_imm(base, span, comps, vecs).  exec 1
     *   (uniform index, Vx1): dst is a uniform block of 16 * span bytes,
     *   the whole vectors base + 16 * (src0 + v), v < span (those of vecs;
     *   the rest of the block is not written).  exec = the kernel's width
     *   (an index per channel, VxH): dst is a block of one divergent dword
     *   per (vector v in vecs, component c in comps), in that order.
     *   With GEN_MOVI_INPUT, one input register (gen_ir.h, below).
     * GOP_BCAST: dst (a uniform dword) = src[0] (a divergent dword) in the
     *   first channel that runs it (the waterfall loop's next index). */
    GOP_MOVI, GOP_BCAST,
    GOP_COUNT
};

enum gen_math { GM_INV, GM_LOG, GM_EXP, GM_SQT, GM_RSQ, GM_SIN, GM_COS, GM_POW, GM_FDIV };

enum gen_cmod { GC_NONE, GC_EQ, GC_NE, GC_GT, GC_GE, GC_LT, GC_LE };

enum gen_pred { GP_NONE, GP_NORMAL, GP_INVERT };

struct gen_op_info {
    const char *name;
    uint8_t nsrc;
    bool has_dst;  /* writes its dst operand */
    bool flow;     /* control flow: no operands, JIP/UIP */
    bool send;     /* message */
    bool mods;     /* accepts source modifiers */
    bool sat;      /* accepts (sat) */
};
extern const struct gen_op_info gen_op_info[GOP_COUNT];
extern const char *const gen_math_name[];
extern const char *const gen_cmod_name[];
extern const char *const gen_type_name[];

struct gen_inst {
    uint8_t op;     /* enum gen_op */
    uint8_t math;   /* enum gen_math for GOP_MATH */
    uint8_t exec;   /* 1, 8, 16 or 32 */
    uint8_t group;  /* first channel: 0, or 16 for a SIMD32 half (M16), or a multiple of 4 for a subspan (M4..M28) */
    bool nomask;    /* (W) */
    bool sat;
    uint8_t cmod;   /* enum gen_cmod, writing `flag` */
    uint8_t pred;   /* enum gen_pred on `flag` */
    uint8_t flag;   /* 0 = f0.0, 1 = f1.0 */
    struct gen_opnd dst, src[3];
    /* messages */
    uint8_t sfid;
    uint32_t desc, exdesc;
    bool eot;
    uint8_t mlen, rlen, src1len;
    bool spill, fill; /* inserted by the allocator */
    /* control flow: jip/uip as instruction indices, filled in by gen_resolve_flow */
    int32_t jip, uip;
};

struct gen_vreg {
    uint32_t size;    /* bytes */
    uint16_t align;   /* bytes: 4 (dword) or 32 (GRF) */
    bool uniform;     /* one dword shared by all channels */
    bool no_spill;    /* message blocks, spill temporaries */
    uint8_t grf_lo, grf_hi; /* allowed GRF range, inclusive (0..127) */
    int32_t loc;      /* byte address after allocation; -1 before */
    int32_t spill_slot; /* scratch byte offset when spilled; -1 otherwise */
    uint32_t alias_of;  /* vreg + 1 this one was renamed into (payload coalescing); 0: none */
    uint32_t alias_off;
    bool rematerialized; /* recomputed at each use by the allocator instead of kept */
    /* 1 or 2: the first or second half (channels 0-15 / 16-31) of a SIMD32
     * value split in two (gen/opt_split.c), 64 bytes; 0: not split */
    uint8_t half32;
};

struct gen_program {
    struct gen_inst *inst;
    unsigned ninst, cap_inst;
    struct gen_vreg *vreg;
    unsigned nvreg, cap_vreg;
    unsigned simd;
    bool oom;
    /* The optimizer may not lengthen the live range of a message block
     * (payload or response: one allocation unit the allocator cannot
     * spill): set for the second try after an allocation that spilled. */
    bool keep_block_ranges;
    /* SIMD32 kept as whole 32-channel instructions and values (no
     * gen/opt_split.c): the last try after allocations that spilled, as
     * halves spill and fill separately. */
    bool whole32;
    /* Handed out by gen_append once memory ran out, so callers
     * can keep filling fields; per program, as the library has no globals. */
    struct gen_inst oom_scratch;
    struct st_gen_layout layout;
    /* filled by the allocator */
    unsigned spills, fills;
    unsigned grfs_used;
    /* relative constant reads (gen/isel_const.c): one comment line each for
     * the kernel's header, and how many groups took each strategy */
    struct st_buf rel_notes;
    unsigned rel_strategy[GEN_REL_STRATEGIES];
};

/* A conditional modifier that updates its flag: not on sel (min/max) nor
 * csel, whose modifier only chooses (Gen6+; Mesa flags_written). */
static inline bool gen_cmod_writes_flag(const struct gen_inst *i)
{
    return i->cmod != GC_NONE && i->op != GOP_SEL && i->op != GOP_CSEL;
}

/* ---- gen/ra.c ---- */
uint32_t gen_new_vreg(struct gen_program *p, uint32_t size, bool uniform);
struct gen_inst *gen_append(struct gen_program *p);
void gen_program_free(struct gen_program *p);
/* Size in bytes of a divergent dword at the program's width. */
static inline uint32_t gen_dsize(const struct gen_program *p)
{
    return 4u * p->simd;
}
/* The bytes of a divergent dword value v (its width: the kernel's, or 16
 * channels for a SIMD32 half) and the channel of its first lane. */
static inline uint32_t gen_vreg_dsize(const struct gen_program *p, const struct gen_vreg *v)
{
    return v->half32 ? 64u : gen_dsize(p);
}
static inline unsigned gen_vreg_first_ch(const struct gen_vreg *v)
{
    return v->half32 == 2 ? 16u : 0u;
}
/* Bytes of one element of type t. */
static inline unsigned gen_type_size(enum gen_type t)
{
    return t == GT_UW || t == GT_W || t == GT_HF ? 2 : t == GT_UQ ? 8 : 4;
}
/*
 * Allocates every vreg (coalescing copies first, rematerializing or
 * spilling to scratch when the file is full).  Returns false when even
 * spilling cannot make it fit (or memory ran out: p->oom).
 */
bool gen_allocate(struct gen_program *p);
/* Removes instructions whose results nobody reads. */
void gen_dce(struct gen_program *p);

/* ---- gen/indirect.c: the register-indirect pseudo-instructions ---- */
static inline uint32_t gen_movi_imm(uint32_t base, unsigned span, unsigned comps, unsigned vecs)
{
    return (base & 0xffffu) | ((uint32_t)(span - 1) & 7u) << 16 | ((uint32_t)comps & 15u) << 20 |
           ((uint32_t)vecs & 0xffu) << 24;
}
/* The input form (gen_movi_imm | GEN_MOVI_INPUT): one input register
 * through a uniform index, each component of comps into its slot: a vertex
 * shader's attribute (4 GRFs, the index * 128; exec 8, one GRF per
 * component), a pixel shader's setup data (2 GRFs, the index * 64; exec 1,
 * the 4-dword group of each component, for pln). */
enum { GEN_MOVI_INPUT = 1u << 19 };
static inline uint32_t gen_movi_base(const struct gen_inst *i)
{
    return i->src[2].imm & 0xffffu;
}
static inline unsigned gen_movi_span(const struct gen_inst *i)
{
    return ((i->src[2].imm >> 16) & 7u) + 1;
}
static inline unsigned gen_movi_comps(const struct gen_inst *i)
{
    return (i->src[2].imm >> 20) & 15u;
}
static inline bool gen_movi_input(const struct gen_inst *i)
{
    return (i->src[2].imm & GEN_MOVI_INPUT) != 0;
}
/* The vectors of the span read (bit v): the others are skipped. */
static inline unsigned gen_movi_vecs(const struct gen_inst *i)
{
    return (i->src[2].imm >> 24) & 0xffu;
}
/* Native instructions a pseudo-instruction prints as (after allocation). */
unsigned gen_indirect_count(const struct gen_program *p, const struct gen_inst *i);
void gen_indirect_print(const struct gen_program *p, const struct gen_inst *i, struct st_buf *out);

/* ---- gen/print.c ---- */
/* Fills jip/uip of the control-flow instructions from the nesting. */
void gen_resolve_flow(struct gen_program *p);
/* IGA text of the allocated program. */
void gen_print(const struct gen_program *p, struct st_buf *out);
/* cr0.0 as a pixel shader thread starts: the driver programs 3DSTATE_PS
 * "Single Precision Denormal Mode" = Retained (DW3 bit 26), which is
 * bit 7 of cr0.0 at dispatch (docs/gen-abi.md).  3DSTATE_VS has no such
 * field: a vertex shader starts with the reset value, 0. */
enum { GEN_PS_DISPATCH_CR0 = 0x80 };
/* The bits the kernel's first instruction ORs into cr0.0 (0: no such
 * instruction): bit 7 keeps f32 denormals, bit 10 halves (docs/gen-abi.md). */
uint32_t gen_cr0_bits(const struct gen_program *p);
/* The cr0 instruction itself, or nothing when gen_cr0_bits is 0. */
void gen_print_prologue(const struct gen_program *p, struct st_buf *out);
/* Native instructions (SIMD32 halves and the cr0 prologue counted) and
 * sends; loops; cycles estimate. */
void gen_count(const struct gen_program *p, unsigned *insts, unsigned *sends, unsigned *loops,
               unsigned *cycles);
/* "NAME: SIMD8 shader: N instructions. N loops. N cycles. N:N spills:fills, N sends" */
void gen_print_stats(const struct gen_program *p, const char *name, struct st_buf *out);
/* Whether an operand reads one element per channel (else a scalar), and its
 * byte address in the register file (after allocation). */
bool gen_opnd_per_channel(const struct gen_program *p, const struct gen_inst *i,
                          const struct gen_opnd *o);
uint32_t gen_opnd_addr(const struct gen_program *p, const struct gen_opnd *o);

/* ---- gen/perf.c: timings and the cycle estimate (Mesa's brw model) ---- */
enum gen_unit { GU_NONE, GU_FPU, GU_EM, GU_SAMPLER, GU_URB, GU_DP_RC, GU_DP_DC, GU_DP_CC,
                GU_COUNT };
struct gen_timing {
    uint8_t unit;   /* enum gen_unit; GU_NONE: the front end only */
    int16_t df, db; /* front-end and back-end issue cycles */
    int16_t ls, ld, lf; /* payload read, destination and flag latencies */
};
/* The timing of one instruction at `exec` channels (a SIMD32 ALU
 * instruction is two of 16). */
void gen_timing(const struct gen_inst *i, unsigned exec, bool bank_conflict, struct gen_timing *t);
/* A three-source instruction whose last two sources share a GRF bank (allocated program). */
bool gen_bank_conflict(const struct gen_program *p, const struct gen_inst *i);
/* The estimate of the statistics line (allocated program; loops count ten times). */
unsigned gen_perf_cycles(const struct gen_program *p);
/* The same, and the cycles a thread keeps the EU busy (the estimate or the
 * busiest unit's work, whichever is longer): SIMD-width / thread_time is
 * brw's throughput figure, which decides whether SIMD32 is kept. */
void gen_perf(const struct gen_program *p, unsigned *cycles, unsigned *thread_time);

/* ---- gen/compile.c ---- */
/* st_gen_compile_ex, but only the widest kernel kept (auto width) goes to
 * `out`: what the Gen engine runs. */
bool gen_compile_widest(struct st_ctx *ctx, const struct st_shader *sh, const struct mir_prog *mir,
                        unsigned simd, enum st_float_rules rules, enum st_fp_contract contract,
                        struct st_buf *out, struct st_gen_layout *layout);

/* A message descriptor: mlen, rlen, header present, function control. */
static inline uint32_t gen_desc(unsigned mlen, unsigned rlen, bool header, uint32_t fc)
{
    return ((uint32_t)mlen << 25) | ((uint32_t)rlen << 20) | (header ? 1u << 19 : 0u) |
           (fc & 0x7ffffu);
}

/* Operand constructors. */
static inline struct gen_opnd gen_vr(uint32_t v, uint32_t off, enum gen_type t)
{
    struct gen_opnd o = {GO_VREG, (uint8_t)t, GR_AUTO, false, false, v, off, 0};
    return o;
}
static inline struct gen_opnd gen_fixed(uint32_t byte, enum gen_type t, enum gen_region r)
{
    struct gen_opnd o = {GO_FIXED, (uint8_t)t, (uint8_t)r, false, false, 0, byte, 0};
    return o;
}
static inline struct gen_opnd gen_imm(uint32_t bits, enum gen_type t)
{
    struct gen_opnd o = {GO_IMM, (uint8_t)t, GR_SCALAR, false, false, 0, 0, bits};
    return o;
}
static inline struct gen_opnd gen_opnd_none(void)
{
    struct gen_opnd o = {GO_NONE, GT_F, GR_AUTO, false, false, 0, 0, 0};
    return o;
}
static inline struct gen_opnd gen_null(enum gen_type t)
{
    struct gen_opnd o = {GO_NULL, (uint8_t)t, GR_AUTO, false, false, 0, 0, 0};
    return o;
}

#endif
