/*
 * batch.h — what batch.c (running) and report.c (reporting) share.
 */
#ifndef ST_CLI_BATCH_H
#define ST_CLI_BATCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"

enum batch_status {
    BATCH_PENDING,
    BATCH_ACCEPTED,   /* compiled */
    BATCH_REJECTED,   /* a mistake in the shader (1xxx, 2xxx, 4xxx) */
    BATCH_REFUSED,    /* only limits of ours or of the call (3xxx, 9xxx) */
    BATCH_UNREADABLE, /* the file (or an include) could not be read */
    BATCH_FAILED,     /* the library refused the call itself */
    BATCH_NSTATUS
};

enum batch_engines {
    BATCH_ENGINES_NONE,     /* not compared */
    BATCH_ENGINES_AGREE,
    BATCH_ENGINES_DISAGREE,
    BATCH_ENGINES_FAILED,   /* an engine could not run it (reason noted) */
};

enum { BATCH_MAX_CODES = 16 };

struct batch_shader {
    char *path;
    enum st_dialect_choice dialect; /* from a manifest, else AUTO */
    char expect[12];                /* from a manifest: "valid", "invalid" or "" */
    char stage[4];                  /* "VS", "FS" or "" */
    enum batch_status status;
    unsigned codes[BATCH_MAX_CODES]; /* distinct error codes, ascending */
    unsigned ncodes;
    char *first_error;               /* the first error, formatted */
    struct cli_kernel kernels[3];
    unsigned nkernels;
    enum batch_engines engines;
    const char *inputs_from;         /* "given", "beside" or "made" */
    char *engine_note;               /* the first disagreement or failure */
    double seconds;
};

struct batch {
    struct cli_compile_opts c;
    unsigned jobs;
    bool all_widths, compare;
    char *inputs_text;
    uint64_t seed;
    unsigned invocations;
    struct batch_shader *sh;
    size_t n, cap;
    atomic_size_t next, done;
    atomic_size_t count[BATCH_NSTATUS];
    double seconds;
};

void batch_free(struct batch *B);
/* report.c: the shader-db report (report: a file, NULL or "-" standard
 * output) and the JSON one (json: a file or NULL); 0 or EXIT_USAGE. */
int batch_write_reports(const struct batch *B, const char *report, const char *json);
void batch_print_summary(const struct batch *B, FILE *f);

#endif
