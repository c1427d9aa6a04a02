/*
 * fuzz_vasm.c — libFuzzer target: --emit=vasm (lowering, passes, the merge
 * stage and the vasm printer) on any text of either dialect, with the
 * contract of fuzz.h; the text it emits must be accepted again.
 * Dictionaries: dict/d3d9.dict, dict/arb.dict.
 *
 * Bounded input: merge/select.c need() recurses along a dependent chain of
 * instructions and overflows the stack on a long one (issue 17; the
 * regression case is tests/test_deep_chains.c test_chain_vasm).
 * Until the merge rewrite removes that recursion this target skips inputs
 * of more than FUZZ_VASM_MAX_LINES lines, so that it finds other faults
 * instead of that one again.  ST_FUZZ_VASM_MAX_LINES=0 lifts the bound.
 */
#include "fuzz.h"

enum { FUZZ_VASM_MAX_LINES = 200 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static long max_lines = -1;
    if (max_lines < 0) {
        const char *e = getenv("ST_FUZZ_VASM_MAX_LINES");
        max_lines = e && *e ? atol(e) : FUZZ_VASM_MAX_LINES;
    }
    const char *src = (const char *)data;
    if (max_lines > 0 && fuzz_lines(src, size) > (unsigned long)max_lines)
        return -1; /* not added to the corpus */
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
