/*
 * fuzz_vasm.c — libFuzzer target: --emit=vasm (lowering, passes, the merge
 * stage and the vasm printer) on any text of either dialect, with the
 * contract of fuzz.h; the text it emits must be accepted again.
 * Dictionaries: dict/d3d9.dict, dict/arb.dict.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *src = (const char *)data;
    const char *name = fuzz_name(src, size);
    struct st_result *res =
        fuzz_compile(name, src, size, ST_DIALECT_AUTO, ST_EMIT_VASM, 0, ST_FLOAT_IEEE);
    if (res->ok) {
        /* the emitter parses and checks its text before it returns it */
        struct st_result *again = fuzz_compile(name, res->output, res->output_len,
                                               ST_DIALECT_AUTO, ST_EMIT_NONE, 0, ST_FLOAT_IEEE);
        if (!again->ok)
            FUZZ_FAIL("the vasm text is rejected\n--- vasm\n%s---", res->output);
        st_result_free(again);
    }
    st_result_free(res);
    return 0;
}
