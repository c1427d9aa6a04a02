/*
 * gen/kernel.h — the Gen9 kernel ABI (gen/kernel.c), private to emit/gen:
 * where the thread payload, the pushed constants and the attributes are,
 * and the messages that read constants and textures and write the
 * outputs.  docs/gen-abi.md is the contract these functions implement.
 * The instruction selection calls them; they call nothing of it.
 */
#ifndef ST_GEN_KERNEL_H
#define ST_GEN_KERNEL_H

#include "build.h"

/* What gen/kernel.c knows about one kernel being built. */
struct gen_kernel_info {
    struct st_ctx *ctx;
    const struct st_shader *sh;
    const struct mir_prog *mir;
    struct gen_build *b;
    struct gen_program *p;
    bool legacy; /* --float-rules=d3d9: the fixed-function steps' products too */
    bool fuse;   /* multiply-adds as fused mads (not --fp-contract=off): theirs too */
    /* outputs (ST_LL_OUT_* slots; ARB: output indices) by component, and
     * which slots the kernel writes; set by the selection before the epilogue */
    struct gen_opnd out[ST_LL_OUT_SLOTS][4];
    bool out_set[ST_LL_OUT_SLOTS];
    /* per channel: bit 0 = discarded (texkill / KIL), when has_status */
    struct gen_opnd status;
    bool has_status;
    enum st_sampler_type sampler_type[16]; /* from dcl; NONE when not declared */
    /* ARB programs: output indices by role (-1: none) and the fixed-function slots */
    bool arb;
    struct st_arb_run_slots arb_slots;
    int arb_pos, arb_psize, arb_depth, arb_color[ST_GEN_MAX_RT]; /* result.color[n] */
    int arb_fog;                                                 /* result.fogcoord */
    int arb_frag_pos; /* input index of fragment.position (fragment programs), -1 */
    /* constants the epilogue pulled (not pushed): c[idx], once each */
    struct { int idx; struct gen_opnd v[4]; } pulled[8];
    unsigned npulled;
    /* per MIR vreg: the index of the LOOP instruction whose aL it is (its
     * only writer), -1 otherwise (gen_kernel_layout) */
    int32_t *aloop;
};
void gen_kernel_free(struct gen_kernel_info *ki);

/*
 * The registers 0..n-1 a relative source (or destination: rel_vreg and
 * index) may name, when the program says: the aL of a loop over literal
 * counts takes start + j * step for j < count.  reach[k] for each; *oob
 * when some index falls outside 0..n-1.  False: unknown (a0, a loop over
 * an i# register).
 */
bool gen_kernel_rel_reach(const struct gen_kernel_info *ki, uint32_t rel_vreg, int32_t index,
                          unsigned n, bool *reach, bool *oob);

/* The payload the MIR program needs (p->layout); false on a located error. */
bool gen_kernel_layout(struct gen_kernel_info *ki);

/* Input slot `slot` (ST_LL_IN_*; ARB: the input index), component c: a
 * payload operand (vertex shaders), or interpolated now into a new value
 * (pixel shaders; vPos, vFace and ARB fragment.position from the thread
 * payload).  GO_NONE after a located error. */
struct gen_opnd gen_kernel_input(struct gen_kernel_info *ki, int slot, unsigned c);
/* v[index + k] component c for lanes c in `comps`: 0 outside v0..v(limit-1);
 * reach (NULL: every register) limits the registers index + k can name,
 * oob that it may also fall outside them all.  A uniform index whose
 * registers are all inside and pushed one after the other reads through
 * a0; otherwise a chain of compares and predicated reads. */
bool gen_kernel_input_rel(struct gen_kernel_info *ki, struct gen_opnd index, int32_t k,
                          const bool *reach, bool oob, uint8_t comps, struct gen_opnd out[4]);
/* Is c[idx] pushed?  Then gen_kernel_const reads it in place. */
bool gen_kernel_const_pushed(const struct gen_kernel_info *ki, uint32_t idx);
struct gen_opnd gen_kernel_const(struct gen_kernel_info *ki, uint32_t idx, unsigned c);
/* c[index] from the constant buffer, the components in `comps` (an index
 * past the buffer reads 0): one untyped read (two at SIMD32).  index is an
 * immediate (the vector number), or a dword (per channel or uniform)
 * holding the vector number plus GEN_CBUF_PAD (the buffer's leading zeros). */
bool gen_kernel_pull(struct gen_kernel_info *ki, struct gen_opnd index, uint8_t comps,
                     struct gen_opnd out[4]);
/* The same at byte address bytes + k (bytes: a per-channel dword, the
 * address of the vector's first component; k: a constant added) of the
 * surface at binding table index bti (the constant buffer, or a range's
 * view of it). */
void gen_kernel_pull_at(struct gen_kernel_info *ki, struct gen_opnd bytes, int32_t k, uint8_t comps,
                        unsigned bti, struct gen_opnd out[4]);
struct gen_opnd gen_kernel_int(struct gen_kernel_info *ki, uint32_t idx, unsigned c);
struct gen_opnd gen_kernel_bool(struct gen_kernel_info *ki, uint32_t idx);
/* Bump-environment value j (mat00, mat01, mat10, mat11, lscale, loffset) of a stage. */
struct gen_opnd gen_kernel_bump(struct gen_kernel_info *ki, uint32_t stage, unsigned j);
/* How a sample picks its level of detail: from the pixel's quad (a pixel
 * shader's implicit derivatives; a vertex shader has none, so level 0),
 * that plus a bias (texldb, TXB), an explicit level (texldl), or explicit
 * gradients (texldd). */
enum gen_lod_kind { GEN_LOD_IMPLICIT, GEN_LOD_BIAS, GEN_LOD_LEVEL, GEN_LOD_GRAD };
struct gen_sample_lod {
    enum gen_lod_kind kind;
    struct gen_opnd lod;            /* the bias or the level */
    struct gen_opnd ddx[3], ddy[3]; /* the gradients of u, v, r */
};
/*
 * Samples texture stage `stage` at coord[0..2] (u, v, r; ARB shadow
 * targets: the reference is r).  arb_target: the ARB target + 1, or 0 for
 * Direct3D 9 (the sampler's dcl type, else two coordinates when r is the
 * immediate 0).  lod: NULL for implicit.  The texel's R, G, B, A into out.
 */
void gen_kernel_sample(struct gen_kernel_info *ki, unsigned stage, unsigned arb_target,
                       const struct gen_opnd coord[3], const struct gen_sample_lod *lod,
                       struct gen_opnd out[4]);
/* The URB write (vertex shaders) or render target writes (pixel shaders),
 * with the ARB options' fixed-function steps first. */
void gen_kernel_epilogue(struct gen_kernel_info *ki);

/* The values the aL in rel_vreg takes (a loop over literal counts) into
 * vals, their number; -1 when unknown (an address register, a loop over
 * an i# register). */
int gen_kernel_rel_aL(const struct gen_kernel_info *ki, uint32_t rel_vreg, uint32_t vals[256]);
/* The pushed block of c[first .. first + count - 1] (CURBE block 6), or NULL. */
const struct st_gen_rel_block *gen_kernel_rel_block(const struct gen_kernel_info *ki, int first,
                                                    uint32_t count);
/* One OWord block read of `nvec` (1-8) vectors of the constant buffer from
 * OWord `off` (a uniform dword or an immediate: the vector number plus
 * GEN_CBUF_PAD) into a uniform block (vector v at byte 16 * v); the
 * caller keeps off + nvec inside the buffer and its pads. */
uint32_t gen_kernel_block_read(struct gen_kernel_info *ki, struct gen_opnd off, unsigned nvec);

/* Registers relative addressing of a file may reach (the interpreter's limits). */
unsigned gen_kernel_rel_limit(const struct st_shader *sh, enum st_regfile file);

#endif
