/*
 * shadergen.h — a deterministic generator of random, valid Direct3D 9
 * shaders (vs_1_1 .. vs_3_0, ps_1_1 .. ps_3_0) and of matching inputs JSON
 * (docs/run-json.md), for differential runs between the engines.
 *
 * Everything a shader depends on comes from the seed: the same seed gives
 * the same text and the same inputs on every machine.  No global state.
 *
 * What the shaders are made of (so that the engines' hard cases come up
 * often): registers built from several partial writes (merges), arbitrary
 * swizzles where the version has them, negate/_abs source modifiers, _sat,
 * predication, static and per-invocation branches, rep/loop with
 * break/break_comp/breakp, call/callnz, relative addressing through a0 and
 * aL, texture sampling, and every arithmetic opcode of the version; in the
 * pixel models with it, _pp and dcl_pp (partial precision).  Every
 * temporary lane is written before it is read and every output is written.
 */
#ifndef ST_TESTS_SHADERGEN_H
#define ST_TESTS_SHADERGEN_H

#include <stddef.h>
#include <stdint.h>

enum sg_version {
    SG_VS11,
    SG_VS20,
    SG_VS2X,
    SG_VS30,
    SG_PS20,
    SG_PS2X,
    SG_PS30,
    SG_PS11,
    SG_PS12,
    SG_PS13,
    SG_PS14,
    SG_NUM_VERSIONS
};

struct sg_shader {
    enum sg_version version;
    char *text;   /* the shader assembly, NUL-terminated (malloc) */
    char *inputs; /* the inputs JSON, NUL-terminated (malloc) */
};

/* "vs_2_x" etc. */
const char *sg_version_name(enum sg_version v);

/*
 * Generates one shader and its inputs from `seed`; `version` picks the
 * shader model, or is -1 to let the seed choose.  Returns 0, or -1 when
 * memory ran out (then *out holds nothing to free).
 */
int sg_generate(uint64_t seed, int version, struct sg_shader *out);
/* The same with pp_percent of the pixel shader instructions marked _pp
 * (sg_generate: 8); every other choice is the seed's as in sg_generate. */
int sg_generate_pp(uint64_t seed, int version, unsigned pp_percent, struct sg_shader *out);
/* The same, with the generator's choices taken from `bytes` (4 bytes a
 * choice) before the seeded sequence (a hash of the bytes) goes on: the
 * libFuzzer differential target (tests/fuzz/fuzz_diff.c). */
int sg_generate_bytes(const uint8_t *bytes, size_t nbytes, int version, struct sg_shader *out);
void sg_shader_free(struct sg_shader *s);

#endif
