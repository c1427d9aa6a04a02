/*
 * vasm.h — the vector-assembly target, private to emit/vasm/.
 *
 * The vector IR (merge.h) is target neutral; this target makes it a
 * program of the shader's own model, in the order of the files:
 *   legalize.c  literals into def/defi (or ARB literals), the model's
 *               register rules (a0, p0, aL, ps_1_x's t# and final r0,
 *               the texture-phase registers as written), its operand rules
 *               (swizzles, modifiers, read ports, scalar sources), before
 *               allocation;
 *   regalloc.c  temporaries at lane granularity (no more than the model
 *               has), then what depends on registers (ps_1_x writemasks,
 *               matrix instructions, ps_1_x constants);
 *   vasm.c      the AST of the program, printed by the dialect's own
 *               printer and checked again.
 */
#ifndef ST_VASM_H
#define ST_VASM_H

#include "emit.h"
#include "merge.h"

/* A register a vreg must be (ST_REG_COUNT: none, a temporary of the allocator's choice). */
struct vasm_pin {
    enum st_regfile file;
    int32_t index;
};

struct vasm_def { /* def c#, a, b, c, d (ARB: a literal parameter) */
    int32_t index;
    float f[4];
    uint8_t pool_lanes; /* a pool of scalars: lanes in use (0: a vector constant) */
    bool own;           /* the shader's own def */
};

struct vasm_defi {
    int32_t index;
    int32_t v[4];
    bool own;
};

struct vasm {
    struct st_ctx *ctx;
    const struct st_shader *sh;
    struct mir_prog p;        /* a private copy: legalization changes it */
    struct st_merge_stats *stats;
    bool arb, vs, ps, ps1x;
    uint16_t ver;
    struct vasm_pin *pin;     /* per vreg */
    uint32_t *phys;           /* per vreg after allocation: the register index */
    uint32_t temps;           /* temporaries used */
    uint32_t exit_live[1];    /* ps_1_x: the vreg of the final r0 */
    unsigned nexit;
    struct vasm_def *defs;
    unsigned ndefs, capdefs;
    struct vasm_defi defis[16];
    unsigned ndefis;
    bool c_used[4096];        /* constant registers the program reads or defines */
    unsigned max_c;
    bool failed;
    bool quiet;               /* a first try: refusals report nothing */
    unsigned tactics;         /* VASM_* */
};

/* Tactics that save instructions but keep values alive longer (a first
 * try; st_vasm_emit tries again without them when registers run short). */
enum {
    VASM_LONGER_LIVES = 1u << 0,
};

/* legalize.c */
bool vasm_legalize(struct vasm *V);
/* A located refusal (ST_E_NOT_SUPPORTED); returns false. */
bool vasm_fail(struct vasm *V, const char *what);
/* A new vreg (the pin table follows). */
uint32_t vasm_new_vreg(struct vasm *V, enum mir_class cls);

/* regalloc.c */
bool vasm_allocate(struct vasm *V);
/* Temporaries the model has (ps_2_0: 12, vs_3_0: 32, ARB: 256). */
unsigned vasm_max_temps(const struct st_shader *sh);

#endif
