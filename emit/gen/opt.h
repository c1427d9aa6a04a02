/*
 * gen/opt.h — the optimizer on the Gen IR (gen/opt*.c), private to emit/gen.
 *
 * The passes work on any program the selector produces: vregs may have
 * several definitions (phi moves, predicated writes, parts of blocks), so
 * every rewrite is justified by the def/use facts below, computed on the
 * structured linear program, not by assuming SSA.
 *
 * Dominance on a structured program: instruction d dominates a later
 * instruction u when no region that contains d (a then- or else-part, a
 * loop body) closes between them.  A value is unchanged from d to u when
 * none of its definitions lies on a path from d to u: in the linear range
 * (d, u), and, when u sits in loops that do not contain d, anywhere in the
 * outermost of those loops (its back edge reaches u again without passing
 * d).
 */
#ifndef ST_GEN_OPT_H
#define ST_GEN_OPT_H

#include "gen_ir.h"

struct gen_use {
    uint32_t inst;
    uint8_t slot; /* 0..2: src[slot] */
};

struct gen_du {
    unsigned ninst, nvreg;
    uint32_t *def_start; /* nvreg + 1: defs of v are def_list[def_start[v] .. def_start[v + 1]) */
    uint32_t *def_list;  /* instruction indices, ascending */
    uint32_t *use_start; /* nvreg + 1 */
    struct gen_use *use_list;
    int32_t *region_end; /* per instruction: the instruction closing its innermost region (ninst: none) */
    int32_t *loop_label; /* per instruction: LABEL of the innermost loop containing it, -1 */
    int32_t *loop_while; /* per LABEL: its WHILE; per other instruction: -1 */
    int32_t *loop_parent; /* per LABEL: the LABEL of the enclosing loop, -1 */
    uint32_t *flow_before; /* per instruction (and ninst): control-flow instructions before it */
};

/* false, with p->oom set, when memory runs out (every pass then stops) */
bool gen_du_build(struct gen_program *p, struct gen_du *du);
void gen_du_free(struct gen_du *du);

/* No control flow (if/else/endif/loop/break/cont) strictly between a and b: one basic block. */
bool gen_du_same_block(const struct gen_du *du, uint32_t a, uint32_t b);
/* d dominates u (d < u, no region containing d closes before u). */
bool gen_du_dominates(const struct gen_du *du, uint32_t d, uint32_t u);
/* The last instruction of the paths from d to u that do not pass d again:
 * u, or the WHILE of the outermost loop containing u but not d. */
uint32_t gen_du_path_end(const struct gen_du *du, uint32_t d, uint32_t u);
/* No definition of bytes [off, off + size) of v lies on a path from d to u
 * (d dominates u). */
bool gen_du_unchanged(const struct gen_program *p, const struct gen_du *du, uint32_t v,
                      uint32_t off, uint32_t size, uint32_t d, uint32_t u);
/* The one definition of v when there is exactly one and it writes all of v
 * for every channel that runs it (unpredicated; a divergent value at the
 * kernel's width or a SIMD32 half by its 16 channels, a uniform one with
 * exec 1); -1 otherwise. */
int32_t gen_du_single_def(const struct gen_program *p, const struct gen_du *du, uint32_t v);

/* Bytes an instruction writes of its destination vreg, from dst.off. */
uint32_t gen_dst_bytes(const struct gen_program *p, const struct gen_inst *i);
/* Bytes source s of an instruction may read, from its offset (a message's
 * payload length; an indirect read's reach). */
uint32_t gen_src_bytes(const struct gen_program *p, const struct gen_inst *i, unsigned s);
/* The instruction reads or writes flag f (0/1). */
bool gen_reads_flag(const struct gen_inst *i, unsigned f);
bool gen_writes_flag(const struct gen_inst *i, unsigned f);
/* Operands equal as values read (kind, register, offset, type, region, modifiers). */
bool gen_opnd_same(const struct gen_opnd *a, const struct gen_opnd *b);
/* The :vf byte (sign, 3-bit exponent of bias 3, 4-bit mantissa) whose
 * value has the float bits `bits`, or -1 (docs/gen9-target.md). */
int gen_vf_byte(uint32_t bits);
/* The nesting of control flow after instruction m, `depth` before it
 * (IF and a loop's LABEL open, ENDIF and WHILE close): the passes that
 * write with NoMask join instructions only where it is 0. */
unsigned gen_nesting(unsigned depth, const struct gen_inst *m);
/* Source s reads one element for every channel (a SIMD8/16 value), not
 * one for all (an immediate, a uniform, a scalar region); other regions
 * (derivatives, replicas) count as neither. */
bool gen_src_per_channel(const struct gen_program *p, const struct gen_opnd *s);
/* Removes the instructions marked dead[k] (keeps the order of the rest). */
void gen_remove_marked(struct gen_program *p, const bool *dead);

/* ---- the passes (each file opens with what it requires / invalidates) ---- */
/* gen/opt_webs.c: definitions that never reach a common use get vregs of their own. */
bool gen_opt_webs(struct gen_program *p);
/* gen/opt_copy.c: uses of a plain copy read its source instead. */
bool gen_opt_copy_prop(struct gen_program *p);
/* gen/opt_cse.c: a computation equal to a dominating one reads its result;
 * flag compares repeated while the flag still holds their result go. */
bool gen_opt_cse(struct gen_program *p);
/* gen/opt_fold.c: saturation folded into producers (bit exact). */
bool gen_opt_fold(struct gen_program *p);
/* gen/opt_dce.c: results and flag writes nobody reads. */
bool gen_opt_dce(struct gen_program *p);
/* gen/opt_dce.c: header-less sampler responses trimmed to the channels read. */
bool gen_opt_trim_responses(struct gen_program *p);
/* gen/opt_payload.c: values computed in the message payload that sends them. */
bool gen_opt_payload(struct gen_program *p);
/* gen/opt_split.c: SIMD32 instructions as two SIMD16 halves, values split in halves. */
bool gen_opt_split32(struct gen_program *p);
/* gen/opt_remat.c: interpolation recomputed next to distant uses (pressure). */
bool gen_opt_remat(struct gen_program *p);
/* gen/opt_consts.c: scalar float constants filled four to a mov (:vf). */
bool gen_opt_pack_consts(struct gen_program *p);
/* gen/opt_pair.c: at SIMD8, two like instructions on neighbouring GRFs as
 * one (W) SIMD16 instruction (values renamed into two-GRF pairs). */
bool gen_opt_pair(struct gen_program *p);
/* gen/opt.c: all of the above, to a fixed point (a few rounds). */
void gen_optimize(struct gen_program *p);

/* gen/sched.c: list scheduling of each basic block for latency, before
 * allocation (on vregs) and after it (on the allocated registers). */
void gen_schedule_pre(struct gen_program *p);
void gen_schedule_post(struct gen_program *p);


#endif
