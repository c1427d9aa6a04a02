/*
 * fuzz_run.c — libFuzzer target: `shadertrans run` of a fuzzed shader on
 * each engine (the interpreter, the LLVM JIT, the Gen simulator), IEEE
 * rules, and the interpreter and the JIT also under the D3D9 rules for
 * inputs of odd length.  The input is a shader, optionally followed by a
 * NUL byte and its inputs JSON (fuzz.h; tests/fuzz/seeds.sh joins each
 * sample with its .in.json).  Only the contract is checked here: whether
 * the engines agree is fuzz_diff.c's question, on shaders known valid.
 * Dictionaries: dict/d3d9.dict, dict/arb.dict, dict/json.dict.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_split s = fuzz_split(data, size, fuzz_default_inputs);
    const char *name = fuzz_name(s.src, s.src_len);
    static const enum st_engine engines[3] = {ST_ENGINE_INTERP, ST_ENGINE_LLVM, ST_ENGINE_GEN};
    for (int e = 0; e < 3; e++) {
        struct st_result *res =
            fuzz_run(name, s.src, s.src_len, s.in, s.in_len, engines[e], ST_FLOAT_IEEE, 0);
        /* a shader the front end rejects is rejected the same by every engine */
        bool front_error = false;
        for (size_t k = 0; k < res->num_diagnostics; k++)
            front_error |= res->diagnostics[k].severity == ST_SEVERITY_ERROR &&
                           res->diagnostics[k].code < 3000;
        st_result_free(res);
        if (front_error)
            return 0;
        if ((size & 1) && e < 2) {
            res = fuzz_run(name, s.src, s.src_len, s.in, s.in_len, engines[e], ST_FLOAT_D3D9, 0);
            st_result_free(res);
        }
    }
    return 0;
}
