/*
 * fuzz_parse_arb.c — libFuzzer target: the ARB front end (lexer, parser,
 * checker) on any bytes, with the contract of fuzz.h; a shader it accepts
 * must print (--emit=asm) as a text that is accepted again and prints the
 * same.  Dictionary: dict/arb.dict.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *name = "fuzz.vp";
    struct st_result *res =
        fuzz_compile(name, (const char *)data, size, ST_DIALECT_ARB, ST_EMIT_ASM, 0, ST_FLOAT_IEEE);
    if (res->ok)
        fuzz_roundtrip(name, ST_DIALECT_ARB, res->output);
    st_result_free(res);
    return 0;
}
