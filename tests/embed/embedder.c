/*
 * embedder.c — a small program that embeds libshadertrans the way a legacy
 * toolchain would: built by tests/embed.sh against an installed tree,
 * through pkg-config, once with the shared library and once with the
 * static one.
 *
 *   embedder SHADER INPUTS.json     prints the Gen kernel of SHADER, then
 *                                   the outputs JSON of running it
 *
 * It defines functions with names the library uses inside (its parsers'
 * yy* functions, gen_print, mir_free, internal st_* helpers) with other
 * meanings: the library exports only its API, so both link and each side
 * calls its own.  It also runs with a comma-decimal locale when one is
 * installed, as a host application might.
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shadertrans.h>

int gen_print(int x) { return x + 11; }
int mir_free(int x) { return x + 2; }
int d3d9yyparse(void) { return 7; }
int arb_yylex(void) { return 8; }
int st_ctx_create(int x) { return x * 5; }
int st_poll(void) { return 9; }

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 20);
    size_t n = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = '\0';
    *len = n;
    return buf;
}

static int print_result(int rc, struct st_result *res)
{
    if (rc != 0 || !res) {
        fprintf(stderr, "embedder: call refused\n");
        return 1;
    }
    char line[1024];
    for (size_t k = 0; k < res->num_diagnostics; k++) {
        st_diagnostic_format(&res->diagnostics[k], line, sizeof(line));
        fprintf(stderr, "%s\n", line);
    }
    int ok = res->ok;
    if (ok)
        fputs(res->output, stdout);
    st_result_free(res);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    setlocale(LC_ALL, "de_DE.UTF-8"); /* a host's locale: our output must not care */
    if (gen_print(1) != 12 || mir_free(1) != 3 || d3d9yyparse() != 7 || arb_yylex() != 8 ||
        st_ctx_create(2) != 10 || st_poll() != 9) {
        fprintf(stderr, "embedder: a library symbol took the place of our own\n");
        return 3;
    }
    size_t len = 0, jlen = 0;
    char *src = slurp(argv[1], &len), *json = slurp(argv[2], &jlen);
    if (!src || !json)
        return 2;
    struct st_options o = {.struct_version = ST_OPTIONS_VERSION, .filename = argv[1],
                           .source = src, .source_len = len, .emit = ST_EMIT_GEN};
    struct st_result *res = NULL;
    int rc = st_compile(&o, &res);
    int status = print_result(rc, res);
    struct st_run_options ro = {.struct_version = ST_RUN_OPTIONS_VERSION, .compile = &o,
                                .inputs_filename = argv[2], .inputs_json = json,
                                .inputs_len = jlen, .engine = ST_ENGINE_INTERP};
    res = NULL;
    rc = st_run(&ro, &res);
    status |= print_result(rc, res);
    printf("%s\n", st_version_string());
    free(src);
    free(json);
    return status;
}
