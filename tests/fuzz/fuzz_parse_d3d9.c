/*
 * fuzz_parse_d3d9.c — libFuzzer target: the Direct3D 9 front end (lexer, parser,
 * checker) on any bytes, with the contract of fuzz.h; a shader it accepts
 * must print (--emit=asm) as a text that is accepted again and prints the
 * same.  Dictionary: dict/d3d9.dict.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *name = "fuzz.asm";
    struct st_result *res =
        fuzz_compile(name, (const char *)data, size, ST_DIALECT_D3D9, ST_EMIT_ASM, 0, ST_FLOAT_IEEE);
    if (res->ok)
        fuzz_roundtrip(name, ST_DIALECT_D3D9, res->output);
    st_result_free(res);
    return 0;
}
