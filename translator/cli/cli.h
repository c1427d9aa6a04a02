/*
 * cli.h — what the parts of the shadertrans command share (translator/cli/).
 *
 * cli.c parses the command line and runs one shader; output.c writes
 * output files safely; source.c reads shader files and prints diagnostics; batch.c runs corpora in threads; report.c writes and compares
 * shader-db reports; engines.c compares the three engines.
 */
#ifndef ST_CLI_H
#define ST_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shadertrans.h"

/* Exit statuses (README, shadertrans(1)). */
enum { EXIT_OK = 0, EXIT_BAD_INPUT = 1, EXIT_USAGE = 2 };

/* ---- output.c ---- */
/*
 * Writes text to path; NULL or "-" is standard output.  A regular file (or
 * a symbolic link to one: the file it names) is replaced atomically by a
 * file with the same mode (a new file gets 0666 minus the umask); anything
 * else (a device, a FIFO, a link to one) is written in place, never
 * replaced.  Returns 0, or EXIT_USAGE after printing why; a broken pipe
 * returns EXIT_USAGE without a message.
 */
int cli_write_output(const char *path, const char *text, size_t len);
/* Writes to a stdio stream, noting a broken pipe; false on any error. */
bool cli_fwrite(const void *p, size_t n, void *stream);

/* ---- source.c ---- */
/* A whole file into a malloc'd NUL-terminated buffer ("-": stdin); NULL
 * with errno set when it cannot be read. */
char *cli_read_file(const char *path, size_t *len);

/* Prints the diagnostics (with source line and caret). */
void cli_print_diagnostics(const struct st_result *res);

/* ---- limits shared by the modes ---- */
/* The cancel callback of --timeout: user points at a struct cli_deadline. */
struct cli_deadline {
    double at; /* CLOCK_MONOTONIC seconds; 0: none */
};
double cli_now(void);
int cli_deadline_passed(void *user);

/* ---- cli.c: options every mode takes ---- */
enum { CLI_MAX_INCLUDE_DIRS = 64, CLI_MAX_DEFINES = 256 };
struct cli_compile_opts {
    struct st_options o; /* struct_version set by the caller; defines and
                          * include_dirs point at the arrays below */
    const char *dirs[CLI_MAX_INCLUDE_DIRS]; /* -I */
    unsigned ndirs;
    const char *defines[CLI_MAX_DEFINES]; /* -D */
    unsigned ndefines;
    double timeout; /* --timeout, seconds */
    bool has_timeout;
};
/* 1: argv[*i] was a compile option (a value after it consumed); 0: it is
 * not one; EXIT_USAGE + 10: a usage error, already printed. */
int cli_compile_option(int argc, char **argv, int *i, struct cli_compile_opts *c);
int cli_usage_error(const char *fmt, const char *arg);
bool cli_opt_value(const char *arg, const char *name, const char **val);
bool cli_parse_u64(const char *s, uint64_t max, uint64_t *out);

/* ---- inputs.c ---- */
struct st_shader;
struct st_buf;
/* Appends an inputs JSON for sh with `invocations` invocations made up
 * from seed (deterministic); false when memory ran out. */
bool cli_make_inputs(const struct st_shader *sh, uint64_t seed, unsigned invocations,
                     struct st_buf *out);

/* ---- batch.c, report.c ---- */
/* One kernel of a shader, as the shader-db line counts it. */
struct cli_kernel {
    unsigned simd, instructions, loops, cycles, spills, fills, sends;
};
/* Parses "NAME: SIMD16 shader: N instructions. N loops. N cycles. N:N
 * spills:fills, N sends" (the Gen back end's stats line, one per kernel;
 * the first line of text). */
bool cli_parse_kernel_stats(const char *text, struct cli_kernel *k);

int cli_batch_main(int argc, char **argv);
int cli_compare_main(int argc, char **argv);

#endif
