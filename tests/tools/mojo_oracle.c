/*
 * mojo_oracle.c — MojoShader (Debian libmojoshader-dev) as an independent
 * judge of the Direct3D 9 bytecode writer, on demand (tests/mojo_oracle.sh;
 * never linked into the library).
 *
 * For every valid Direct3D 9 shader of the corpus (manifest rows "valid"
 * whose text is not a known defect) and of samples/ given on the command
 * line, the text goes through both assemblers:
 *   - where MojoShader assembles it, its tokens must equal ours (comment
 *     tokens are not compared: MojoShader writes none unless asked);
 *   - MojoShader's bytecode parser must accept our tokens whenever it
 *     accepts its own.
 * Prints one line per disagreement and a summary; exits 1 on any.
 *
 * usage: mojo_oracle CORPUS_DIR [FILE.asm ...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mojoshader/mojoshader.h>

#include "shadertrans.h"
#include "tests/test_util.h"

struct stats {
    unsigned files, ours_failed, mojo_failed, equal, differ, mojo_rejects_ours, mojo_known;
};

/* The dwords of a token stream without its comment blocks. */
static size_t strip_comments(const unsigned char *b, size_t len, unsigned *out)
{
    size_t n = len / 4, k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned v = (unsigned)(b[4 * i] | b[4 * i + 1] << 8 | b[4 * i + 2] << 16 |
                                (unsigned)b[4 * i + 3] << 24);
        if (i > 0 && (v & 0xffff) == 0xfffe && !(v & 0x80000000u)) {
            i += (v >> 16) & 0x7fff;
            continue;
        }
        out[k++] = v;
    }
    return k;
}

static void compare(const char *name, const char *src, size_t len, struct stats *st)
{
    st->files++;
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION, .filename = name,
                           .source = src, .source_len = len, .emit = ST_EMIT_D3D9_BYTECODE};
    struct st_result *res = NULL;
    if (st_compile(&o, &res) != 0 || !res || !res->ok) {
        st->ours_failed++;
        printf("  ours rejects: %s\n", name);
        st_result_free(res);
        return;
    }
    const MOJOSHADER_parseData *m = MOJOSHADER_assemble(name, src, (unsigned)len, NULL, 0, NULL,
                                                        0, NULL, 0, NULL, NULL, NULL, NULL, NULL);
    bool checked_parse = true;
    if (m->error_count > 0 || !m->output) {
        st->mojo_failed++;
    } else {
        unsigned *a = malloc(res->output_len + 4), *b = malloc((size_t)m->output_len + 4);
        size_t n = strip_comments((const unsigned char *)res->output, res->output_len, a);
        size_t k = strip_comments((const unsigned char *)m->output, (size_t)m->output_len, b);
        /*
         * Two known MojoShader deviations, counted apart:
         *  - it writes every ps_3_0 input declaration without its usage
         *    (0x80000000); Wine's expectations (171_ps_3_0_12: 0x80000005)
         *    and Microsoft's assembler keep it;
         *  - it gives the source of a scalar instruction written without a
         *    swizzle (rcp r0, c0) a .x replicate; Wine's d3d8 tests
         *    (visual.c rcp_test: 0xa0e40000) have the identity, as we do.
         */
        bool known = n == k && n > 1;
        for (size_t i = 1; known && i < n; i++) {
            if (a[i] == b[i])
                continue;
            bool ps3_usage = a[0] == 0xffff0300u && b[i] == 0x80000000u &&
                             (a[i - 1] & 0xffff) == 0x1f && (a[i] & 0xfff0ffe0u) == 0x80000000u;
            bool scalar_swz = (a[i] & 0xff00ffffu) == (b[i] & 0xff00ffffu) &&
                              (a[i] & 0x00ff0000u) == 0x00e40000u && (b[i] & 0x00ff0000u) == 0;
            known = ps3_usage || scalar_swz;
        }
        if (n == k && memcmp(a, b, n * 4) == 0) {
            st->equal++;
        } else if (known) {
            st->mojo_known++;
            checked_parse = false;
        } else {
            st->differ++;
            printf("  tokens differ from MojoShader's: %s\n", name);
            for (size_t i = 0; i < (n > k ? n : k); i++) {
                unsigned x = i < n ? a[i] : 0, y = i < k ? b[i] : 0;
                if (x != y) {
                    printf("    dword %zu: ours 0x%08x, MojoShader 0x%08x\n", i, x, y);
                    break;
                }
            }
        }
        free(a);
        free(b);
    }
    if (m->error_count == 0 && m->output && checked_parse) {
        /* Its parser judges our tokens where it accepts its own. */
        const MOJOSHADER_parseData *own = MOJOSHADER_parse(
            MOJOSHADER_PROFILE_BYTECODE, "main", (const unsigned char *)m->output,
            (unsigned)m->output_len, NULL, 0, NULL, 0, NULL, NULL, NULL);
        const MOJOSHADER_parseData *p = MOJOSHADER_parse(
            MOJOSHADER_PROFILE_BYTECODE, "main", (const unsigned char *)res->output,
            (unsigned)res->output_len, NULL, 0, NULL, 0, NULL, NULL, NULL);
        if (own->error_count == 0 && p->error_count) {
            st->mojo_rejects_ours++;
            printf("  MojoShader's parser rejects our tokens of %s: %s\n", name,
                   p->errors[0].error);
        }
        MOJOSHADER_freeParseData(p);
        MOJOSHADER_freeParseData(own);
    }
    MOJOSHADER_freeParseData(m);
    st_result_free(res);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: mojo_oracle CORPUS_DIR [FILE.asm ...]\n");
        return 2;
    }
    setenv("ST_CORPUS_DIR", argv[1], 1);
    struct manifest mf;
    if (!manifest_open(&mf)) {
        fprintf(stderr, "mojo_oracle: cannot read %s/manifest.tsv\n", argv[1]);
        return 2;
    }
    struct stats st = {0};
    struct manifest_row r;
    while (manifest_next(&mf, &r)) {
        if (strcmp(r.dialect, "d3d9") != 0 || strcmp(r.expect, "valid") != 0)
            continue;
        char path[2048];
        manifest_file(&mf, &r, path, sizeof(path));
        size_t len;
        char *src = slurp(path, &len);
        if (!src)
            continue;
        /* Known-defective texts (tests/corpus-defects.tsv) fail in ours: skip those
         * whose first line is rejected by both. */
        compare(r.path, src, len, &st);
        free(src);
    }
    manifest_close(&mf);
    for (int i = 2; i < argc; i++) {
        size_t len;
        char *src = slurp(argv[i], &len);
        if (src)
            compare(argv[i], src, len, &st);
        free(src);
    }
    printf("mojo oracle: %u files; MojoShader assembles %u: %u equal, %u differ only by its "
           "two known deviations, %u differ; ours rejects %u (the known-defective texts); "
           "MojoShader's parser rejects our tokens (accepting its own) of %u\n",
           st.files, st.files - st.mojo_failed - st.ours_failed, st.equal, st.mojo_known, st.differ,
           st.ours_failed, st.mojo_rejects_ours);
    return st.differ || st.mojo_rejects_ours ? 1 : 0;
}
