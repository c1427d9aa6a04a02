/*
 * arbgen.h — a deterministic generator of random, valid ARB programs
 * (!!ARBvp1.0 and !!ARBfp1.0, docs/arb.md) and of matching inputs JSON
 * (docs/run-json.md, "ARB programs"), for differential runs between the
 * engines (tests/test_fuzz_arb.c).  The Direct3D 9 counterpart is
 * shadergen.h.
 *
 * Everything a program depends on comes from the seed: the same seed gives
 * the same text and the same inputs on every machine.  No global state.
 *
 * What the programs are made of: every instruction of the program kind
 * (the rows of translator/arb/arb_opcodes.def), write masks, swizzles (xyzw and,
 * in fragment programs, rgba), negation, _SAT, SWZ with 0/1/negated
 * selectors, TEMP/PARAM/ATTRIB/OUTPUT/ADDRESS/ALIAS declarations (also
 * between instructions), PARAM arrays read with constant indices and, in
 * vertex programs, with A0.x + k after ARL (always inside the array),
 * literal constants of every shape, state bindings (the inputs give some of
 * them and leave the others at their OpenGL defaults), program.env and
 * program.local, every option, and TEX/TXP/TXB/KIL with every texture
 * target.  Every TEMP lane is written before it is read.
 */
#ifndef ST_TESTS_ARBGEN_H
#define ST_TESTS_ARBGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ag_kind { AG_VP, AG_FP, AG_NUM_KINDS };

/* Coverage bits (ag_program.features): what a program contains, so that the
 * test can assert that a run covered everything. */
enum ag_feature {
    AG_F_SAT = 1u << 0,
    AG_F_SWZ01 = 1u << 1,       /* SWZ with a 0 or 1 selector */
    AG_F_SWZNEG = 1u << 2,      /* SWZ with a negated selector */
    AG_F_RELATIVE = 1u << 3,    /* a[A0.x + k] */
    AG_F_RELNEG = 1u << 4,      /* a[A0.x - k] */
    AG_F_ALIAS = 1u << 5,
    AG_F_OUTPUT_DECL = 1u << 6,
    AG_F_ATTRIB_DECL = 1u << 7,
    AG_F_STATE_GIVEN = 1u << 8,   /* a state binding with a value in the inputs */
    AG_F_STATE_DEFAULT = 1u << 9, /* ... and one left at its default */
    AG_F_ENV = 1u << 10,
    AG_F_LOCAL = 1u << 11,
    AG_F_LITERAL = 1u << 12,
    AG_F_ARRAY = 1u << 13,
    AG_F_LATE_DECL = 1u << 14,    /* a declaration after an instruction */
    AG_F_PLANE_INPUTS = 1u << 15, /* fragment inputs on rasterised planes */
    AG_F_PARTIAL_OUTPUT = 1u << 16, /* an output with lanes never written */
    AG_F_RGBA = 1u << 17,          /* rgba swizzles/masks (fp) */
    AG_F_NEGATE = 1u << 18,
    AG_F_MATRIX = 1u << 19,        /* a whole matrix in a PARAM array */
};

/* Option bits (ag_program.options), one per option the program gives. */
enum ag_option {
    AG_O_POSITION_INVARIANT = 1u << 0,
    AG_O_FOG_EXP = 1u << 1,
    AG_O_FOG_EXP2 = 1u << 2,
    AG_O_FOG_LINEAR = 1u << 3,
    AG_O_PRECISION_FASTEST = 1u << 4,
    AG_O_PRECISION_NICEST = 1u << 5,
    AG_O_DRAW_BUFFERS = 1u << 6,
    AG_O_SHADOW = 1u << 7,
    AG_O_ORIGIN_UPPER_LEFT = 1u << 8,
    AG_O_PIXEL_CENTER_INTEGER = 1u << 9,
    AG_NUM_OPTIONS = 10
};

/* Texture targets, in the order of enum st_arb_tex_target. */
enum { AG_NUM_TARGETS = 8 };

/* Output lanes whose Gen value cannot be judged against the interpreter's
 * (an inexact result through a cancelling or discontinuous operation;
 * arbgen.c, "Judging"). */
struct ag_unjudged {
    char output[80]; /* the output's canonical name */
    unsigned lanes;  /* bit c: lane c (x y z w) */
};

struct ag_program {
    enum ag_kind kind;
    char *text;   /* the program, NUL-terminated (malloc) */
    char *inputs; /* the inputs JSON, NUL-terminated (malloc) */
    uint64_t ops;  /* bit i: row i of arb_opcodes.def was used */
    unsigned features, options, targets; /* coverage: ag_feature, ag_option, 1 << target */
    struct ag_unjudged unjudged[16];
    unsigned num_unjudged;
    bool kil_unjudged; /* which invocations KIL discards cannot be judged */
};

/* "vp" / "fp" */
const char *ag_kind_name(enum ag_kind k);
/* The number of rows of arb_opcodes.def and the mnemonic of row i. */
unsigned ag_num_ops(void);
const char *ag_op_name(unsigned i);
/* Can row i appear in a program of kind k? */
bool ag_op_in(unsigned i, enum ag_kind k);
const char *ag_option_name(unsigned bit);

/*
 * Generates one program and its inputs from `seed`; `kind` is AG_VP, AG_FP
 * or -1 to let the seed choose.  Returns 0, or -1 when memory ran out (then
 * *out holds nothing to free).
 */
int ag_generate(uint64_t seed, int kind, struct ag_program *out);
/* The same, with the generator's choices taken from `bytes` first
 * (sg_generate_bytes in shadergen.h). */
int ag_generate_bytes(const uint8_t *bytes, size_t nbytes, int kind, struct ag_program *out);
void ag_program_free(struct ag_program *p);

#endif
