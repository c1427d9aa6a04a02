/*
 * source.c — reading shader files for the command, printing diagnostics,
 * and the deadline of --timeout.
 *
 * #include, -D and -I are the library's (its Direct3D 9 preprocessor,
 * docs/d3d9-front-end.md): the command hands it the file as read, and
 * every diagnostic comes back naming the file it is in.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "translator.h"

char *cli_read_file(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f)
        return NULL;
    bool oom;
    char *buf = st_read_stream(f, len, &oom);
    if (f != stdin)
        fclose(f);
    if (!buf)
        errno = oom ? ENOMEM : EIO;
    return buf;
}

void cli_print_diagnostics(const struct st_result *res)
{
    char line[4096];
    for (size_t i = 0; i < res->num_diagnostics; i++) {
        struct st_diagnostic d = res->diagnostics[i];
        st_diagnostic_format(&d, line, sizeof(line));
        fprintf(stderr, "%s\n", line);
        if (d.source_line && d.line) {
            fprintf(stderr, "  %s\n  ", d.source_line);
            /* The caret goes under the column; tabs are kept so it lines up. */
            for (unsigned c = 1; c < d.column && d.source_line[c - 1]; c++)
                fputc(d.source_line[c - 1] == '\t' ? '\t' : ' ', stderr);
            fprintf(stderr, "^\n");
        }
    }
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cli_deadline_passed(void *user)
{
    const struct cli_deadline *d = user;
    return d->at > 0 && cli_now() >= d->at;
}
