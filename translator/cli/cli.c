/*
 * cli.c — the shadertrans command: a thin client of libshadertrans.
 *
 *   shadertrans [options] FILE            compile (FILE "-" is standard input)
 *   shadertrans run [options] FILE --inputs IN.json
 *   shadertrans batch [options] PATH...   many shaders in one process (batch.c)
 *   shadertrans compare OLD NEW           two batch reports side by side (report.c)
 *
 * Exit status: 0 success, 1 bad input (diagnostics on stderr), 2 bad usage
 * or an I/O failure (also a reader of the output that went away).  An
 * output file is written only when there is no error (output.c).
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage_text[] =
    "usage: shadertrans [options] FILE\n"
    "       shadertrans run [options] FILE --inputs IN.json\n"
    "       shadertrans batch [batch options] PATH...\n"
    "       shadertrans compare OLD.report NEW.report\n"
    "\n"
    "Translates Direct3D 9 shader assembly (vs_1_1..vs_3_0, ps_1_1..ps_3_0, run\n"
    "through the C preprocessor), Direct3D 8/9 bytecode and ARB vertex/fragment\n"
    "programs; by default into an Intel Gen9 kernel (IGA assembly text).  FILE\n"
    "may be '-' for standard input.\n"
    "\n"
    "options:\n"
    "  -o FILE             write the output to FILE instead of standard output\n"
    "  --emit=KIND         what to print: gen (the default: a Gen9 kernel),\n"
    "                      asm (canonical assembly), llvm-raw (LLVM IR as lowered, every\n"
    "                      partial write a shufflevector merge), llvm (after the\n"
    "                      pass pipeline), vasm (optimized assembly of the\n"
    "                      input's dialect, merges back in writemasks),\n"
    "                      mir (the vector IR every target compiles),\n"
    "                      d3d9-bytecode (the Direct3D 9 token stream, binary),\n"
    "                      reflect (what the shader uses, as JSON), none (check only)\n"
    "  --float-rules=ieee|d3d9\n"
    "                      d3d9: 0 * anything = 0 (docs/float-rules.md)\n"
    "  --simd=auto|8|16|32 Gen SIMD width; auto keeps what a driver ships: SIMD8,\n"
    "                      SIMD16 unless it spills, SIMD32 when estimated faster\n"
    "                      (vertex shaders: SIMD8); run --engine=gen runs the\n"
    "                      widest one kept\n"
    "  --fp-contract=on|fast|off\n"
    "                      Gen multiply-adds: on (default) fuses the operations\n"
    "                      that are multiply-adds by definition (mad, dp*, lrp,\n"
    "                      crs, nrm, the matrices) into mad; fast also a separate\n"
    "                      mul then add; off rounds every product\n"
    "  --pp=ignore|fp16    _pp and dcl_pp: ignore (default) computes at full\n"
    "                      precision, fp16 in half floats (docs/interpreter.md)\n"
    "  --texture-types=T0,T1,...\n"
    "                      the texture type of sampler stages s0, s1, ...: any\n"
    "                      (default), 2d, cube or volume; for ps_1_x, which\n"
    "                      declares none (a 2d stage samples with u, v alone)\n"
    "  --stats             print counts to standard error (instructions, merges)\n"
    "  -x d3d9|d3d9-bytecode|arb\n"
    "                      the input (default: from the header or version token)\n"
    "  -D NAME[=VALUE]     define a preprocessor macro (Direct3D 9 text)\n"
    "  -I DIR              search DIR for #include files (after the including\n"
    "                      file's directory for \"name\"; in order given)\n"
    "  --max-errors=N      stop after N errors (default 50)\n"
    "  --max-instructions=N  refuse shaders with more than N instructions\n"
    "  --max-work=N        the compile budget in work units (docs/limits.md)\n"
    "  --timeout=SECONDS   give up on a shader after this long\n"
    "  --help              print this help\n"
    "  --version           print the version and the LLVM version linked\n"
    "\n"
    "run options:\n"
    "  --inputs FILE       the inputs JSON (docs/run-json.md)\n"
    "  --engine=interp|llvm|gen\n"
    "                      the execution engine: interp is the reference,\n"
    "                      llvm runs the optimized IR through LLVM's JIT,\n"
    "                      gen runs the Gen9 kernel (--simd) in the simulator\n"
    "  --max-run-instructions=N\n"
    "                      the run budget over all invocations (default: 2^26\n"
    "                      per invocation; docs/limits.md)\n"
    "\n"
    "'shadertrans batch --help' lists the batch options.\n";

int cli_usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "shadertrans: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'shadertrans --help'.\n");
    return EXIT_USAGE;
}

bool cli_opt_value(const char *arg, const char *name, const char **val)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) == 0 && arg[n] == '=') {
        *val = arg + n + 1;
        return true;
    }
    return false;
}

bool cli_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    if (!s || !*s || *s == '-' || *s == '+')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno || v > max)
        return false;
    *out = v;
    return true;
}

/*
 * The options a compile takes, shared by the single-shader modes and
 * batch: returns 1 when argv[*i] was one of them (consuming a value that
 * follows it), 0 when it is not, EXIT_USAGE + 10 after a usage error
 * (already printed).
 */
int cli_compile_option(int argc, char **argv, int *i, struct cli_compile_opts *c)
{
    const char *a = argv[*i], *val;
    if (strcmp(a, "-x") == 0 || cli_opt_value(a, "-x", &val)) {
        if (strcmp(a, "-x") == 0) {
            if (++*i == argc)
                return cli_usage_error("%s needs d3d9, d3d9-bytecode or arb", a) + 10;
            val = argv[*i];
        }
        if (strcmp(val, "d3d9") == 0)
            c->o.dialect = ST_DIALECT_D3D9;
        else if (strcmp(val, "d3d9-bytecode") == 0)
            c->o.dialect = ST_DIALECT_D3D9_BYTECODE;
        else if (strcmp(val, "arb") == 0)
            c->o.dialect = ST_DIALECT_ARB;
        else
            return cli_usage_error("unknown dialect '%s' (d3d9, d3d9-bytecode or arb)", val) + 10;
    } else if (strncmp(a, "-D", 2) == 0 || strncmp(a, "-I", 2) == 0) {
        bool def = a[1] == 'D';
        if (a[2] == '\0') {
            if (++*i == argc)
                return cli_usage_error(def ? "%s needs NAME[=VALUE]" : "%s needs a directory", a) +
                       10;
            val = argv[*i];
        } else {
            val = a + 2;
        }
        if (!*val)
            return cli_usage_error(def ? "%s needs NAME[=VALUE]" : "%s needs a directory", a) + 10;
        if (def && c->ndefines == CLI_MAX_DEFINES)
            return cli_usage_error("more than %s -D definitions", "256") + 10;
        if (!def && c->ndirs == CLI_MAX_INCLUDE_DIRS)
            return cli_usage_error("more than %s -I directories", "64") + 10;
        if (def)
            c->defines[c->ndefines++] = val;
        else
            c->dirs[c->ndirs++] = val;
        /* the library's preprocessor reads them (and #include files) */
        c->o.defines = c->defines;
        c->o.num_defines = c->ndefines;
        c->o.include_dirs = c->dirs;
        c->o.num_include_dirs = c->ndirs;
    } else if (cli_opt_value(a, "--emit", &val)) {
        if (strcmp(val, "asm") == 0)
            c->o.emit = ST_EMIT_ASM;
        else if (strcmp(val, "none") == 0)
            c->o.emit = ST_EMIT_NONE;
        else if (strcmp(val, "llvm-raw") == 0)
            c->o.emit = ST_EMIT_LLVM_RAW;
        else if (strcmp(val, "llvm") == 0)
            c->o.emit = ST_EMIT_LLVM;
        else if (strcmp(val, "vasm") == 0)
            c->o.emit = ST_EMIT_VASM;
        else if (strcmp(val, "mir") == 0)
            c->o.emit = ST_EMIT_MIR;
        else if (strcmp(val, "gen") == 0)
            c->o.emit = ST_EMIT_GEN;
        else if (strcmp(val, "d3d9-bytecode") == 0)
            c->o.emit = ST_EMIT_D3D9_BYTECODE;
        else if (strcmp(val, "reflect") == 0)
            c->o.emit = ST_EMIT_REFLECT;
        else
            return cli_usage_error("unknown --emit kind '%s'", val) + 10;
    } else if (cli_opt_value(a, "--max-errors", &val)) {
        uint64_t n;
        if (!cli_parse_u64(val, 100000, &n) || n == 0)
            return cli_usage_error("--max-errors needs a positive number, not '%s'", val) + 10;
        c->o.max_errors = (unsigned)n;
    } else if (cli_opt_value(a, "--max-instructions", &val)) {
        uint64_t n;
        if (!cli_parse_u64(val, 0xffffffffu, &n) || n == 0)
            return cli_usage_error("--max-instructions needs a positive number, not '%s'", val) + 10;
        c->o.max_instructions = (unsigned)n;
    } else if (cli_opt_value(a, "--max-work", &val)) {
        uint64_t n;
        if (!cli_parse_u64(val, UINT64_MAX, &n) || n == 0)
            return cli_usage_error("--max-work needs a positive number, not '%s'", val) + 10;
        c->o.max_work = n;
    } else if (cli_opt_value(a, "--timeout", &val)) {
        char *end;
        double t = strtod(val, &end);
        if (!*val || *end || !(t >= 0) || t > 1e6)
            return cli_usage_error("--timeout needs a number of seconds, not '%s'", val) + 10;
        c->timeout = t;
        c->has_timeout = true;
    } else if (cli_opt_value(a, "--simd", &val)) {
        if (strcmp(val, "auto") == 0)
            c->o.simd_width = 0;
        else if (strcmp(val, "8") == 0 || strcmp(val, "16") == 0 || strcmp(val, "32") == 0)
            c->o.simd_width = (unsigned)atoi(val);
        else
            return cli_usage_error("unknown SIMD width '%s' (auto, 8, 16 or 32)", val) + 10;
    } else if (cli_opt_value(a, "--fp-contract", &val)) {
        if (strcmp(val, "on") == 0)
            c->o.fp_contract = ST_FP_CONTRACT_ON;
        else if (strcmp(val, "fast") == 0)
            c->o.fp_contract = ST_FP_CONTRACT_FAST;
        else if (strcmp(val, "off") == 0)
            c->o.fp_contract = ST_FP_CONTRACT_OFF;
        else
            return cli_usage_error("unknown --fp-contract '%s' (on, fast or off)", val) + 10;
    } else if (cli_opt_value(a, "--pp", &val)) {
        if (strcmp(val, "ignore") == 0)
            c->o.pp = ST_PP_IGNORE;
        else if (strcmp(val, "fp16") == 0)
            c->o.pp = ST_PP_FP16;
        else
            return cli_usage_error("unknown --pp '%s' (ignore or fp16)", val) + 10;
    } else if (cli_opt_value(a, "--texture-types", &val)) {
        /* comma-separated, stage 0 first; every stage not named stays "any" */
        static const char *const names[] = {"any", "2d", "cube", "volume"};
        unsigned s = 0;
        const char *t = val;
        memset(c->o.texture_types, 0, sizeof(c->o.texture_types));
        for (;;) {
            size_t len = strcspn(t, ",");
            unsigned k = 0;
            while (k < 4 && !(strlen(names[k]) == len && strncmp(t, names[k], len) == 0))
                k++;
            if (k == 4 || s == 16)
                return cli_usage_error("--texture-types needs at most 16 of any, 2d, cube or volume, "
                                       "separated by commas, not '%s'",
                                       val) +
                       10;
            c->o.texture_types[s++] = (enum st_texture_type)k;
            if (!t[len])
                break;
            t += len + 1;
        }
    } else if (strcmp(a, "--stats") == 0) {
        c->o.want_stats = 1;
    } else if (cli_opt_value(a, "--float-rules", &val)) {
        if (strcmp(val, "ieee") == 0)
            c->o.float_rules = ST_FLOAT_IEEE;
        else if (strcmp(val, "d3d9") == 0)
            c->o.float_rules = ST_FLOAT_D3D9;
        else
            return cli_usage_error("unknown float rules '%s' (ieee or d3d9)", val) + 10;
    } else {
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    /* A reader that goes away is an EPIPE from write(), ended quietly
     * (output.c), not a signal that kills us half way. */
    signal(SIGPIPE, SIG_IGN);

    if (argc > 1 && strcmp(argv[1], "batch") == 0)
        return cli_batch_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "compare") == 0)
        return cli_compare_main(argc - 1, argv + 1);

    struct cli_compile_opts c;
    memset(&c, 0, sizeof(c));
    c.o.struct_version = ST_OPTIONS_VERSION;
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
        int r = cli_compile_option(argc, argv, &i, &c);
        if (r > 1)
            return r - 10;
        if (r == 1)
            continue;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            return cli_fwrite(usage_text, strlen(usage_text), stdout) ? 0 : EXIT_USAGE;
        } else if (strcmp(a, "--version") == 0) {
            printf("%s\n%s\n", st_version_string(), st_llvm_version_string());
            return fflush(stdout) == 0 ? 0 : EXIT_USAGE;
        } else if (strcmp(a, "-o") == 0) {
            if (++i == argc)
                return cli_usage_error("%s needs a file name", a);
            output = argv[i];
        } else if (run && (strcmp(a, "--inputs") == 0 || cli_opt_value(a, "--inputs", &val))) {
            if (strcmp(a, "--inputs") == 0) {
                if (++i == argc)
                    return cli_usage_error("%s needs a file name", a);
                val = argv[i];
            }
            inputs = val;
        } else if (run && cli_opt_value(a, "--engine", &val)) {
            if (strcmp(val, "interp") == 0)
                ropts.engine = ST_ENGINE_INTERP;
            else if (strcmp(val, "llvm") == 0)
                ropts.engine = ST_ENGINE_LLVM;
            else if (strcmp(val, "gen") == 0)
                ropts.engine = ST_ENGINE_GEN;
            else
                return cli_usage_error("unknown engine '%s' (interp, llvm or gen)", val);
        } else if (run && cli_opt_value(a, "--max-run-instructions", &val)) {
            uint64_t n;
            if (!cli_parse_u64(val, UINT64_MAX, &n) || n == 0)
                return cli_usage_error("--max-run-instructions needs a positive number, not '%s'",
                                       val);
            ropts.max_run_instructions = n;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_usage_error("unknown option '%s'", a);
        } else if (!input) {
            input = a;
        } else {
            return cli_usage_error("more than one input file ('%s')", a);
        }
    }
    if (!input)
        return cli_usage_error("%s", "no input file");
    if (run && !inputs)
        return cli_usage_error("%s", "run needs --inputs FILE");
    if (run && strcmp(inputs, "-") == 0 && strcmp(input, "-") == 0)
        return cli_usage_error("%s", "the shader and the inputs cannot both be standard input");

    size_t len = 0;
    char *src = cli_read_file(input, &len);
    if (!src) {
        fprintf(stderr, "shadertrans: cannot read '%s': %s\n", input, strerror(errno));
        return EXIT_USAGE;
    }
    struct st_options *opts = &c.o;
    opts->filename = strcmp(input, "-") == 0 ? "<stdin>" : input;
    opts->source = src;
    opts->source_len = len;
    struct cli_deadline deadline = {0};
    if (c.has_timeout) {
        deadline.at = cli_now() + c.timeout;
        opts->cancel = cli_deadline_passed;
        opts->cancel_user = &deadline;
    }

    char *in_json = NULL;
    size_t in_len = 0;
    if (run) {
        in_json = cli_read_file(inputs, &in_len);
        if (!in_json) {
            fprintf(stderr, "shadertrans: cannot read '%s': %s\n", inputs, strerror(errno));
            free(src);
            return EXIT_USAGE;
        }
        ropts.compile = opts;
        ropts.inputs_filename = inputs;
        ropts.inputs_json = in_json;
        ropts.inputs_len = in_len;
        ropts.float_rules = opts->float_rules;
        ropts.simd_width = opts->simd_width; /* --simd applies to --engine=gen */
    }

    struct st_result *res = NULL;
    int rc = run ? st_run(&ropts, &res) : st_compile(opts, &res);
    free(in_json);
    free(src);
    if (rc != 0 || !res) {
        fprintf(stderr, "shadertrans: internal error (out of memory?)\n");
        return EXIT_USAGE;
    }
    cli_print_diagnostics(res);
    if (res->stats) {
        fputs(res->stats, stderr);
        size_t n = strlen(res->stats);
        if (n && res->stats[n - 1] != '\n')
            fputc('\n', stderr);
    }
    int status = EXIT_BAD_INPUT;
    if (res->ok)
        status = cli_write_output(output, res->output, res->output_len);
    st_result_free(res);
    return status;
}
