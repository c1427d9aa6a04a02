/*
 * gen/isel_tex.h — the ps_1_x texture-phase instructions (MIR_OP_OPAQUE:
 * tex, texcoord, texbem(l), texreg2*, texm3x2*, texm3x3*, texdp3*,
 * texdepth, texkill, ps_1_4 texld / texcrd / bem) as Gen instructions
 * (gen/isel_tex.c; emit/gen only).  Each follows the interpreter's
 * definition (translator/run/interp.c, compute()).
 */
#ifndef ST_GEN_ISEL_TEX_H
#define ST_GEN_ISEL_TEX_H

#include "isel_ops.h"
#include "kernel.h"

struct gen_tex1x {
    struct gen_opctx op;          /* arithmetic: float rule, fusion (never uniform) */
    struct gen_kernel_info *ki;   /* sampling, bump environment */
    /* the texture coordinates of sets d, d-1, d-2 (d: the destination
     * register's number), components x, y, z of set d and w of all three
     * (texm3x3vspec), filled by the caller */
    struct gen_opnd coord[3][4];
    struct gen_opnd pad[8];       /* texm3x2pad / texm3x3pad results by register, kept across calls */
    /* results besides the register written */
    bool kill;                    /* f0.0 holds "discard" in every channel */
};

/*
 * Instruction a (as written) with src[k] the raw values (x, y, z, w) of
 * the registers it reads, in the MIR's order: the register it names
 * when it writes none (st_opaque_writes: texkill, texdepth,
 * texm3x2depth), then its sources.  r: the value of the register it
 * writes (all four lanes); texdepth and texm3x2depth: the depth in x
 * (the MIR moves it to oDepth).  False when `a` is
 * not one of these instructions.
 */
bool gen_tex1x_compute(struct gen_tex1x *t, const struct st_instr *a, unsigned nsrc,
                       const struct gen_opnd src[4][4], struct gen_opnd r[4]);

/* Which coordinate components of set d (bits 0-3) and of sets d-1, d-2
 * (bit 3: their w) instruction a reads. */
uint8_t gen_tex1x_coords(const struct st_instr *a);

#endif
