/*
 * cli.c — the shadertrans command: a thin client of libshadertrans.
 *
 *   shadertrans [options] FILE            compile (FILE "-" is standard input)
 *   shadertrans run [options] FILE --inputs IN.json
 *
 * Exit status: 0 success, 1 bad input (diagnostics on stderr), 2 bad usage
 * or an I/O failure.  An output file is written only when there is no error:
 * we write to a temporary file beside it and rename.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shadertrans.h"

static const char usage_text[] =
    "usage: shadertrans [options] FILE\n"
    "       shadertrans run [options] FILE --inputs IN.json\n"
    "\n"
    "Translates Direct3D 9 shader assembly (vs_1_1..vs_3_0, ps_1_1..ps_3_0) and\n"
    "ARB vertex/fragment programs; by default into an Intel Gen9 kernel (IGA\n"
    "assembly text).  FILE may be '-' for standard input.\n"
    "\n"
    "options:\n"
    "  -o FILE             write the output to FILE instead of standard output\n"
    "  --emit=KIND         what to print: gen (the default: a Gen9 kernel),\n"
    "                      asm (canonical assembly), llvm-raw (LLVM IR as lowered, every\n"
    "                      partial write a shufflevector merge), llvm (after the\n"
    "                      pass pipeline), vasm (optimized assembly of the\n"
    "                      input's dialect, merges back in writemasks),\n"
    "                      none (check only)\n"
    "  --float-rules=ieee|d3d9\n"
    "                      d3d9: 0 * anything = 0 (docs/float-rules.md)\n"
    "  --simd=auto|8|16|32 Gen SIMD width; auto keeps what a driver ships: SIMD8,\n"
    "                      SIMD16 unless it spills, SIMD32 when estimated faster\n"
    "                      (vertex shaders: SIMD8); run --engine=gen runs the\n"
    "                      widest one kept\n"
    "  --stats             print counts to standard error (instructions, merges)\n"
    "  -x d3d9|arb         the input dialect (default: from the header)\n"
    "  --max-errors=N      stop after N errors (default 50)\n"
    "  --help              print this help\n"
    "  --version           print the version and the LLVM version linked\n"
    "\n"
    "run options:\n"
    "  --inputs FILE       the inputs JSON (docs/run-json.md)\n"
    "  --engine=interp|llvm|gen\n"
    "                      the execution engine: interp is the reference,\n"
    "                      llvm runs the optimized IR through LLVM's JIT,\n"
    "                      gen runs the Gen9 kernel (--simd) in the simulator\n";

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "shadertrans: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'shadertrans --help'.\n");
    return 2;
}

/* Reads a whole file ("-": stdin) into a malloc'd buffer. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
        if (n == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    int err = ferror(f);
    if (f != stdin)
        fclose(f);
    if (err) {
        free(buf);
        errno = EIO;
        return NULL;
    }
    *len = n;
    return buf;
}

static void print_diagnostics(const struct st_result *res)
{
    char line[4096];
    for (size_t i = 0; i < res->num_diagnostics; i++) {
        const struct st_diagnostic *d = &res->diagnostics[i];
        st_diagnostic_format(d, line, sizeof(line));
        fprintf(stderr, "%s\n", line);
        if (d->source_line && d->line) {
            fprintf(stderr, "  %s\n  ", d->source_line);
            /* The caret goes under the column; tabs are kept so it lines up. */
            for (unsigned c = 1; c < d->column && d->source_line[c - 1]; c++)
                fputc(d->source_line[c - 1] == '\t' ? '\t' : ' ', stderr);
            fprintf(stderr, "^\n");
        }
    }
}

/* Writes text to path atomically (temp file + rename), or to stdout. */
static int write_output(const char *path, const char *text, size_t len)
{
    if (!path || strcmp(path, "-") == 0) {
        if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
            fprintf(stderr, "shadertrans: error writing standard output\n");
            return 2;
        }
        return 0;
    }
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp)
        return 2;
    snprintf(tmp, plen + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    int rc = 0;
    if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "shadertrans: cannot write '%s': %s\n", path, strerror(errno));
        if (fd >= 0)
            unlink(tmp);
        rc = 2;
    }
    free(tmp);
    return rc;
}

static bool opt_value(const char *arg, const char *name, const char **val)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) == 0 && arg[n] == '=') {
        *val = arg + n + 1;
        return true;
    }
    return false;
}

int main(int argc, char **argv)
{
    struct st_options opts = {.struct_version = ST_OPTIONS_VERSION};
    struct st_run_options ropts = {.struct_version = ST_RUN_OPTIONS_VERSION};
    const char *input = NULL, *output = NULL, *inputs = NULL, *val;
    bool run = false;

    int i = 1;
    if (argc > 1 && strcmp(argv[1], "run") == 0) {
        run = true;
        i = 2;
    }
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_text, stdout);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            printf("%s\n%s\n", st_version_string(), st_llvm_version_string());
            return 0;
        } else if (strcmp(a, "-o") == 0) {
            if (++i == argc)
                return usage_error("%s needs a file name", a);
            output = argv[i];
        } else if (strcmp(a, "-x") == 0 || opt_value(a, "-x", &val)) {
            if (strcmp(a, "-x") == 0) {
                if (++i == argc)
                    return usage_error("%s needs d3d9 or arb", a);
                val = argv[i];
            }
            if (strcmp(val, "d3d9") == 0)
                opts.dialect = ST_DIALECT_D3D9;
            else if (strcmp(val, "arb") == 0)
                opts.dialect = ST_DIALECT_ARB;
            else
                return usage_error("unknown dialect '%s' (d3d9 or arb)", val);
        } else if (opt_value(a, "--emit", &val)) {
            if (strcmp(val, "asm") == 0)
                opts.emit = ST_EMIT_ASM;
            else if (strcmp(val, "none") == 0)
                opts.emit = ST_EMIT_NONE;
            else if (strcmp(val, "llvm-raw") == 0)
                opts.emit = ST_EMIT_LLVM_RAW;
            else if (strcmp(val, "llvm") == 0)
                opts.emit = ST_EMIT_LLVM;
            else if (strcmp(val, "vasm") == 0)
                opts.emit = ST_EMIT_VASM;
            else if (strcmp(val, "gen") == 0)
                opts.emit = ST_EMIT_GEN;
            else
                return usage_error("unknown --emit kind '%s'", val);
        } else if (opt_value(a, "--max-errors", &val)) {
            char *end;
            long n = strtol(val, &end, 10);
            if (*end || n <= 0 || n > 100000)
                return usage_error("--max-errors needs a positive number, not '%s'", val);
            opts.max_errors = (unsigned)n;
        } else if (run && (strcmp(a, "--inputs") == 0 || opt_value(a, "--inputs", &val))) {
            if (strcmp(a, "--inputs") == 0) {
                if (++i == argc)
                    return usage_error("%s needs a file name", a);
                val = argv[i];
            }
            inputs = val;
        } else if (run && opt_value(a, "--engine", &val)) {
            if (strcmp(val, "interp") == 0)
                ropts.engine = ST_ENGINE_INTERP;
            else if (strcmp(val, "llvm") == 0)
                ropts.engine = ST_ENGINE_LLVM;
            else if (strcmp(val, "gen") == 0)
                ropts.engine = ST_ENGINE_GEN;
            else
                return usage_error("unknown engine '%s' (interp, llvm or gen)", val);
        } else if (opt_value(a, "--simd", &val)) {
            if (strcmp(val, "auto") == 0)
                opts.simd_width = 0;
            else if (strcmp(val, "8") == 0 || strcmp(val, "16") == 0 || strcmp(val, "32") == 0)
                opts.simd_width = (unsigned)atoi(val);
            else
                return usage_error("unknown SIMD width '%s' (auto, 8, 16 or 32)", val);
        } else if (strcmp(a, "--stats") == 0) {
            opts.want_stats = 1;
        } else if (opt_value(a, "--float-rules", &val)) {
            if (strcmp(val, "ieee") == 0)
                opts.float_rules = ropts.float_rules = ST_FLOAT_IEEE;
            else if (strcmp(val, "d3d9") == 0)
                opts.float_rules = ropts.float_rules = ST_FLOAT_D3D9;
            else
                return usage_error("unknown float rules '%s' (ieee or d3d9)", val);
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage_error("unknown option '%s'", a);
        } else if (!input) {
            input = a;
        } else {
            return usage_error("more than one input file ('%s')", a);
        }
    }
    if (!input)
        return usage_error("%s", "no input file");
    if (run && !inputs)
        return usage_error("%s", "run needs --inputs FILE");

    size_t len = 0;
    char *src = read_file(input, &len);
    if (!src) {
        fprintf(stderr, "shadertrans: cannot read '%s': %s\n", input, strerror(errno));
        return 2;
    }
    opts.filename = strcmp(input, "-") == 0 ? "<stdin>" : input;
    opts.source = src;
    opts.source_len = len;

    char *in_json = NULL;
    size_t in_len = 0;
    if (run) {
        if (strcmp(inputs, "-") == 0 && strcmp(input, "-") == 0) {
            free(src);
            return usage_error("%s", "the shader and the inputs cannot both be standard input");
        }
        in_json = read_file(inputs, &in_len);
        if (!in_json) {
            fprintf(stderr, "shadertrans: cannot read '%s': %s\n", inputs, strerror(errno));
            free(src);
            return 2;
        }
        ropts.compile = &opts;
        ropts.inputs_filename = inputs;
        ropts.inputs_json = in_json;
        ropts.inputs_len = in_len;
        ropts.simd_width = opts.simd_width; /* --simd applies to --engine=gen */
    }

    struct st_result *res = NULL;
    int rc = run ? st_run(&ropts, &res) : st_compile(&opts, &res);
    free(src);
    free(in_json);
    if (rc != 0 || !res) {
        fprintf(stderr, "shadertrans: internal error (out of memory?)\n");
        return 2;
    }
    print_diagnostics(res);
    if (res->stats)
        fputs(res->stats, stderr);
    int status = 1;
    if (res->ok)
        status = write_output(output, res->output, res->output_len);
    st_result_free(res);
    return status;
}
