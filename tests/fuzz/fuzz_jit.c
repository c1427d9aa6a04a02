/*
 * fuzz_jit.c — libFuzzer target: lower to LLVM IR, run the pass pipeline
 * (--emit=llvm) and execute on LLVM's JIT (`run --engine=llvm`), under both
 * float rules, many shaders in one process (the persistent mode that found
 * issue 17's SEGV).  The input is a shader, optionally followed by a NUL
 * byte and its inputs JSON (fuzz.h).  Dictionaries: dict/d3d9.dict,
 * dict/arb.dict, dict/json.dict.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_split s = fuzz_split(data, size, fuzz_default_inputs);
    const char *name = fuzz_name(s.src, s.src_len);
    struct st_result *res = fuzz_compile(name, s.src, s.src_len, ST_DIALECT_AUTO, ST_EMIT_LLVM, 0,
                                         ST_FLOAT_IEEE);
    bool valid = res->ok;
    st_result_free(res);
    if (!valid)
        return 0;
    for (int r = 0; r < 2; r++) {
        res = fuzz_run(name, s.src, s.src_len, s.in, s.in_len, ST_ENGINE_LLVM,
                       r ? ST_FLOAT_D3D9 : ST_FLOAT_IEEE, 0);
        st_result_free(res);
    }
    return 0;
}
