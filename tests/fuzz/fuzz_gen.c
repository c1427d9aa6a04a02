/*
 * fuzz_gen.c — libFuzzer target: compile to an Intel Gen9 kernel
 * (--emit=gen) any text of either dialect: front end, lowering, the pass
 * pipeline and the Gen back end, with the contract of fuzz.h.  The SIMD
 * width comes from the input's length (automatic, 8, 16, 32), so every
 * width is fuzzed without a byte of the text spent on it.  Dictionaries:
 * dict/d3d9.dict, dict/arb.dict.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const unsigned widths[4] = {0, 8, 16, 32};
    const char *src = (const char *)data;
    struct st_result *res = fuzz_compile(fuzz_name(src, size), src, size, ST_DIALECT_AUTO,
                                         ST_EMIT_GEN, widths[size & 3],
                                         (size & 4) ? ST_FLOAT_D3D9 : ST_FLOAT_IEEE);
    st_result_free(res);
    return 0;
}
