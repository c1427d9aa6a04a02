/*
 * fuzz_run_inputs.c — libFuzzer target: `shadertrans run` of a fixed shader
 * on a fuzzed inputs JSON (translator/run/run_io.c, docs/run-json.md), on
 * each engine.  The first byte picks one of the shaders below (together
 * they read every kind of input: constants of the three files, textures of
 * every type, bump-environment stages, loop counts, vPos/vFace, ARB state,
 * program.env/local, ARB texture targets); the rest is the JSON.
 * Dictionary: dict/json.dict.  Seeds: tests/fuzz/seeds.sh.
 */
#include "fuzz.h"

static const struct {
    const char *name, *text;
} shaders[] = {
    {"fuzz.asm", /* vertex shader: c[a0], loops on i#, branches on b#, texldl */
     "vs_3_0\n"
     "dcl_position v0\n"
     "dcl_texcoord0 v1\n"
     "dcl_position o0\n"
     "dcl_texcoord0 o1\n"
     "dcl_2d s0\n"
     "mova a0.x, v1.x\n"
     "mov r0, c[a0.x + 2]\n"
     "loop aL, i0\n"
     "    add r0, r0, c[aL]\n"
     "endloop\n"
     "if b0\n"
     "    mul r0, r0, v0\n"
     "endif\n"
     "mov r1, v1\n"
     "texldl r2, r1, s0\n"
     "add o0, r0, r2\n"
     "mov o1, v1\n"},
    {"fuzz.asm", /* pixel shader: 2d, cube and volume textures, vPos, vFace, derivatives */
     "ps_3_0\n"
     "dcl_texcoord0 v0\n"
     "dcl vPos.xy\n"
     "dcl vFace\n"
     "dcl_2d s0\n"
     "dcl_cube s1\n"
     "dcl_volume s2\n"
     "texld r0, v0, s0\n"
     "texld r1, v0, s1\n"
     "texld r2, v0, s2\n"
     "dsx r3, v0\n"
     "add r0, r0, r1\n"
     "add r0, r0, r2\n"
     "add r0, r0, r3\n"
     "mad r0.xy, vPos, c0, r0\n"
     "if_gt vFace, c0.z\n"
     "    mov r0.w, c1.x\n"
     "endif\n"
     "rep i1\n"
     "    add r0, r0, c2\n"
     "endrep\n"
     "mov oC0, r0\n"},
    {"fuzz.asm", /* ps_1_x: tex, bump environment, co-issue */
     "ps_1_3\n"
     "def c0, 0.5, 0.5, 0.5, 1\n"
     "tex t0\n"
     "texbeml t1, t0\n"
     "mul r0.rgb, t1, v0\n"
     "+mov r0.a, c1.a\n"},
    {"fuzz.vp", /* ARB vertex program: state, env, local */
     "!!ARBvp1.0\n"
     "OPTION ARB_position_invariant;\n"
     "PARAM e = program.env[1];\n"
     "PARAM l[2] = { program.local[0..1] };\n"
     "TEMP t;\n"
     "ADD t, vertex.color, e;\n"
     "MAD t, t, l[1], state.light[0].diffuse;\n"
     "DP4 result.texcoord[0].x, state.matrix.modelview.row[0], vertex.position;\n"
     "MUL result.color, t, state.material.diffuse;\n"
     "MOV result.fogcoord.x, state.fog.params.y;\n"
     "END\n"},
    {"fuzz.fp", /* ARB fragment program: every texture target, fog, shadow */
     "!!ARBfp1.0\n"
     "OPTION ARB_fog_linear;\n"
     "OPTION ARB_fragment_program_shadow;\n"
     "TEMP a, b;\n"
     "TEX a, fragment.texcoord[0], texture[0], 1D;\n"
     "TEX b, fragment.texcoord[0], texture[1], RECT;\n"
     "ADD a, a, b;\n"
     "TXP b, fragment.texcoord[1], texture[2], 3D;\n"
     "ADD a, a, b;\n"
     "TXB b, fragment.texcoord[1], texture[3], CUBE;\n"
     "ADD a, a, b;\n"
     "TEX b, fragment.texcoord[1], texture[4], SHADOW2D;\n"
     "MAD result.color, a, program.local[3], b;\n"
     "END\n"},
};
enum { NUM_SHADERS = sizeof(shaders) / sizeof(shaders[0]) };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *name = shaders[data[0] % NUM_SHADERS].name;
    const char *text = shaders[data[0] % NUM_SHADERS].text;
    const char *json = (const char *)data + 1;
    static const enum st_engine engines[3] = {ST_ENGINE_INTERP, ST_ENGINE_LLVM, ST_ENGINE_GEN};
    for (int e = 0; e < 3; e++) {
        struct st_result *res = fuzz_run(name, text, strlen(text), json, size - 1, engines[e],
                                         (data[0] & 0x80) ? ST_FLOAT_D3D9 : ST_FLOAT_IEEE, 0);
        for (size_t k = 0; k < res->num_diagnostics; k++)
            if (res->diagnostics[k].code < 3000)
                FUZZ_FAIL("the fixed shader %d is rejected: %s", data[0] % NUM_SHADERS,
                          res->diagnostics[k].message);
        /* the inputs are parsed by one reader for all engines: an input the
         * interpreter refuses is refused by the others the same way */
        bool bad_inputs = fuzz_listed(res, 4001);
        st_result_free(res);
        if (bad_inputs)
            break;
    }
    return 0;
}

