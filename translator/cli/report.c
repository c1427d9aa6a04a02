/*
 * report.c — the reports of `shadertrans batch`, and `shadertrans compare`.
 *
 * The text report is in the form of Mesa's shader-db runs, one line per
 * shader and kernel, which shader-db's report.py (and `shadertrans
 * compare`) read:
 *
 *   d3d9/x.vs.asm - VS SIMD8 shader: 85 inst, 0 loops, 278 cycles, 0:0 spills:fills, 2 sends
 *
 * A shader without a kernel still has its line, in a shape report.py
 * skips: "NAME - VS accepted", "NAME - FS rejected: ST1002 ST2004",
 * "NAME - FS refused: ST3001", "NAME - ?? unreadable"; engine disagreements
 * add "NAME - VS engines disagree: ...".  Spaces in names are written %20.
 * The JSON report carries the same and more (docs/batch.md).
 *
 * `shadertrans compare OLD NEW` reads two reports (text or JSON) and
 * prints, per measurement, the kernels it helped and hurt with their
 * deltas, and the totals over the kernels both have, as report.py does;
 * then the shaders whose verdict changed, and kernels lost and gained.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "translator.h"

#include "batch.h"
#include "cli.h"

static const char *const status_name[BATCH_NSTATUS] = {
    "pending", "accepted", "rejected", "refused", "unreadable", "failed",
};
static const char *const engines_name[] = {"none", "agree", "disagree", "failed"};

static void put_name(struct st_buf *b, const char *name)
{
    for (const char *c = name; *c; c++) {
        if (*c == ' ')
            st_buf_printf(b, "%%20");
        else if (*c == '%')
            st_buf_printf(b, "%%25");
        else
            st_buf_putc(b, *c);
    }
}

static const char *stage_of(const struct batch_shader *s)
{
    return s->stage[0] ? s->stage : "??";
}

static void text_report(const struct batch *B, struct st_buf *b)
{
    st_buf_printf(b, "# %s batch report: %zu shaders\n", st_version_string(), B->n);
    for (size_t k = 0; k < B->n; k++) {
        const struct batch_shader *s = &B->sh[k];
        for (unsigned j = 0; j < s->nkernels; j++) {
            const struct cli_kernel *kk = &s->kernels[j];
            put_name(b, s->path);
            st_buf_printf(b,
                          " - %s SIMD%u shader: %u inst, %u loops, %u cycles, %u:%u spills:fills, "
                          "%u sends\n",
                          stage_of(s), kk->simd, kk->instructions, kk->loops, kk->cycles,
                          kk->spills, kk->fills, kk->sends);
        }
        if (s->status != BATCH_ACCEPTED || !s->nkernels) {
            put_name(b, s->path);
            st_buf_printf(b, " - %s %s", stage_of(s), status_name[s->status]);
            for (unsigned j = 0; j < s->ncodes; j++)
                st_buf_printf(b, "%sST%04u", j ? " " : ": ", s->codes[j]);
            st_buf_printf(b, "\n");
        }
        if (s->engines == BATCH_ENGINES_DISAGREE || s->engines == BATCH_ENGINES_FAILED) {
            put_name(b, s->path);
            st_buf_printf(b, " - %s engines %s: %s\n", stage_of(s),
                          s->engines == BATCH_ENGINES_DISAGREE ? "disagree" : "failed",
                          s->engine_note ? s->engine_note : "");
        }
    }
}

static json_t *json_report(const struct batch *B)
{
    static const char *const emits[] = {"gen", "asm", "none", "llvm-raw", "llvm", "vasm", "gen"};
    json_t *root = json_object(), *shaders = json_array(), *codes = json_object();
    size_t count[BATCH_NSTATUS] = {0}, engines[4] = {0}, valid = 0, invalid = 0, valid_bad = 0,
           invalid_ok = 0;
    json_object_set_new(root, "shadertrans", json_string(st_version_string()));
    json_t *opts = json_object();
    json_object_set_new(opts, "emit", json_string(emits[B->c.o.emit]));
    json_object_set_new(opts, "simd", B->all_widths ? json_string("all")
                                      : B->c.o.simd_width ? json_integer(B->c.o.simd_width)
                                                          : json_string("auto"));
    json_object_set_new(opts, "float_rules",
                        json_string(B->c.o.float_rules == ST_FLOAT_D3D9 ? "d3d9" : "ieee"));
    json_object_set_new(opts, "compare_engines", json_boolean(B->compare));
    json_object_set_new(root, "options", opts);
    for (size_t k = 0; k < B->n; k++) {
        const struct batch_shader *s = &B->sh[k];
        json_t *o = json_object();
        json_object_set_new(o, "file", json_string(s->path));
        json_object_set_new(o, "stage", json_string(s->stage));
        json_object_set_new(o, "status", json_string(status_name[s->status]));
        count[s->status]++;
        if (s->expect[0]) {
            json_object_set_new(o, "expect", json_string(s->expect));
            bool v = strcmp(s->expect, "valid") == 0;
            valid += v;
            invalid += !v;
            valid_bad += v && s->status != BATCH_ACCEPTED;
            invalid_ok += !v && s->status == BATCH_ACCEPTED;
        }
        json_t *errs = json_array();
        for (unsigned j = 0; j < s->ncodes; j++) {
            char c[8];
            snprintf(c, sizeof(c), "ST%04u", s->codes[j]);
            json_array_append_new(errs, json_string(c));
            json_t *n = json_object_get(codes, c);
            json_object_set_new(codes, c, json_integer(n ? json_integer_value(n) + 1 : 1));
        }
        json_object_set_new(o, "errors", errs);
        if (s->first_error)
            json_object_set_new(o, "first_error", json_string(s->first_error));
        json_t *ks = json_array();
        for (unsigned j = 0; j < s->nkernels; j++) {
            const struct cli_kernel *kk = &s->kernels[j];
            json_array_append_new(
                ks, json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i}", "simd", (json_int_t)kk->simd,
                              "instructions", (json_int_t)kk->instructions, "loops",
                              (json_int_t)kk->loops, "cycles", (json_int_t)kk->cycles, "spills",
                              (json_int_t)kk->spills, "fills", (json_int_t)kk->fills, "sends",
                              (json_int_t)kk->sends));
        }
        json_object_set_new(o, "kernels", ks);
        if (s->engines != BATCH_ENGINES_NONE) {
            engines[s->engines]++;
            json_t *e = json_object();
            json_object_set_new(e, "result", json_string(engines_name[s->engines]));
            json_object_set_new(e, "inputs", json_string(s->inputs_from ? s->inputs_from : ""));
            if (s->engine_note)
                json_object_set_new(e, "note", json_string(s->engine_note));
            json_object_set_new(o, "engines", e);
        }
        json_array_append_new(shaders, o);
    }
    json_object_set_new(root, "shaders", shaders);
    json_t *sum = json_object();
    json_object_set_new(sum, "shaders", json_integer((json_int_t)B->n));
    for (int st = BATCH_ACCEPTED; st < BATCH_NSTATUS; st++)
        json_object_set_new(sum, status_name[st], json_integer((json_int_t)count[st]));
    json_object_set_new(sum, "codes", codes);
    if (valid || invalid)
        json_object_set_new(sum, "manifest",
                            json_pack("{s:I, s:I, s:I, s:I}", "valid", (json_int_t)valid,
                                      "valid_not_accepted", (json_int_t)valid_bad, "invalid",
                                      (json_int_t)invalid, "invalid_accepted",
                                      (json_int_t)invalid_ok));
    if (B->compare)
        json_object_set_new(sum, "engines",
                            json_pack("{s:I, s:I, s:I}", "agree", (json_int_t)engines[1],
                                      "disagree", (json_int_t)engines[2], "failed",
                                      (json_int_t)engines[3]));
    json_object_set_new(root, "summary", sum);
    return root;
}

int batch_write_reports(const struct batch *B, const char *report, const char *json)
{
    struct st_buf b = {0};
    text_report(B, &b);
    if (b.oom) {
        st_buf_free(&b);
        fprintf(stderr, "shadertrans: out of memory\n");
        return EXIT_USAGE;
    }
    int rc = cli_write_output(report, b.data ? b.data : "", b.len);
    st_buf_free(&b);
    if (rc == 0 && json) {
        json_t *root = json_report(B);
        char *text = root ? json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER) : NULL;
        json_decref(root);
        if (!text) {
            fprintf(stderr, "shadertrans: out of memory\n");
            return EXIT_USAGE;
        }
        size_t n = strlen(text);
        char *with_nl = realloc(text, n + 2);
        if (with_nl) {
            text = with_nl;
            text[n++] = '\n';
            text[n] = '\0';
        }
        rc = cli_write_output(json, text, n);
        free(text);
    }
    return rc;
}

static int by_count(const void *a, const void *b)
{
    const unsigned *x = a, *y = b;
    return x[1] != y[1] ? (x[1] < y[1] ? 1 : -1) : (x[0] > y[0]) - (x[0] < y[0]);
}

void batch_print_summary(const struct batch *B, FILE *f)
{
    size_t count[BATCH_NSTATUS] = {0}, engines[4] = {0}, valid = 0, invalid = 0, valid_bad = 0,
           invalid_ok = 0;
    unsigned (*codes)[2] = calloc(B->n * BATCH_MAX_CODES + 1, sizeof(*codes));
    size_t ncodes = 0;
    for (size_t k = 0; k < B->n; k++) {
        const struct batch_shader *s = &B->sh[k];
        count[s->status]++;
        engines[s->engines]++;
        if (s->expect[0]) {
            bool v = strcmp(s->expect, "valid") == 0;
            valid += v;
            invalid += !v;
            valid_bad += v && s->status != BATCH_ACCEPTED;
            invalid_ok += !v && s->status == BATCH_ACCEPTED;
        }
        for (unsigned j = 0; codes && j < s->ncodes; j++) {
            size_t c = 0;
            while (c < ncodes && codes[c][0] != s->codes[j])
                c++;
            if (c == ncodes)
                codes[ncodes++][0] = s->codes[j];
            codes[c][1]++;
        }
    }
    fprintf(f, "batch: %zu shaders in %.2f s with %u thread%s: %zu accepted, %zu rejected, %zu refused",
            B->n, B->seconds, B->jobs, B->jobs == 1 ? "" : "s", count[BATCH_ACCEPTED],
            count[BATCH_REJECTED], count[BATCH_REFUSED]);
    if (count[BATCH_UNREADABLE])
        fprintf(f, ", %zu unreadable", count[BATCH_UNREADABLE]);
    if (count[BATCH_FAILED])
        fprintf(f, ", %zu failed", count[BATCH_FAILED]);
    fprintf(f, "\n");
    if (ncodes) {
        qsort(codes, ncodes, sizeof(*codes), by_count);
        fprintf(f, "batch: shaders per error code:");
        for (size_t c = 0; c < ncodes; c++)
            fprintf(f, "%s ST%04u %u", c ? "," : "", codes[c][0], codes[c][1]);
        fprintf(f, "\n");
    }
    free(codes);
    if (valid || invalid)
        fprintf(f, "batch: against the manifests: %zu of %zu valid shaders not accepted, %zu of %zu "
                   "invalid shaders accepted\n",
                valid_bad, valid, invalid_ok, invalid);
    if (B->compare) {
        fprintf(f, "batch: engines on the same inputs: %zu agree, %zu disagree, %zu could not run\n",
                engines[BATCH_ENGINES_AGREE], engines[BATCH_ENGINES_DISAGREE],
                engines[BATCH_ENGINES_FAILED]);
        unsigned shown = 0;
        for (size_t k = 0; k < B->n && shown < 10; k++)
            if (B->sh[k].engines == BATCH_ENGINES_DISAGREE) {
                fprintf(f, "  %s: %s\n", B->sh[k].path, B->sh[k].engine_note);
                shown++;
            }
    }
}

/* ------------------------------------------------------------------ */
/* shadertrans compare OLD NEW                                         */

static const char compare_usage[] =
    "usage: shadertrans compare [options] OLD NEW\n"
    "\n"
    "Compares two reports of shadertrans batch (text, as --report writes it, or\n"
    "JSON, as --json does; also Mesa shader-db runs) kernel by kernel.\n"
    "\n"
    "options:\n"
    "  --measurements=LIST comma-separated, from instructions, cycles, loops,\n"
    "                      spills, fills, sends (default: all of them)\n"
    "  --summary-only      only the totals, not each kernel helped or hurt\n"
    "  --changes-only      only the measurements that changed\n";

enum { M_INSTRUCTIONS, M_CYCLES, M_LOOPS, M_SPILLS, M_FILLS, M_SENDS, M_COUNT };
static const char *const mname[M_COUNT] = {"instructions", "cycles", "loops",
                                           "spills", "fills", "sends"};

struct record {
    char *key;    /* "NAME KIND": "x.asm FS SIMD16" for kernels, "x.asm" for verdicts */
    bool kernel;
    long long m[M_COUNT];
    char *verdict; /* for verdicts: "rejected: ST1002" ... */
};

struct report {
    struct record *r;
    size_t n, cap;
};

static bool rec_add(struct report *R, const char *key, bool kernel, const long long *m,
                    const char *verdict)
{
    if (R->n == R->cap) {
        size_t cap = R->cap ? R->cap * 2 : 256;
        struct record *q = realloc(R->r, cap * sizeof(*q));
        if (!q)
            return false;
        R->r = q;
        R->cap = cap;
    }
    struct record *r = &R->r[R->n];
    memset(r, 0, sizeof(*r));
    r->key = strdup(key);
    r->kernel = kernel;
    if (m)
        memcpy(r->m, m, sizeof(r->m));
    r->verdict = verdict ? strdup(verdict) : NULL;
    if (!r->key || (verdict && !r->verdict))
        return false;
    R->n++;
    return true;
}

static void report_free(struct report *R)
{
    for (size_t k = 0; k < R->n; k++) {
        free(R->r[k].key);
        free(R->r[k].verdict);
    }
    free(R->r);
}

/* "85 inst, 0 loops, 278 cycles, 0:0 spills:fills, 2 sends" (and Mesa's
 * other fields, which are skipped). */
static void parse_stats(const char *s, long long m[M_COUNT])
{
    for (int k = 0; k < M_COUNT; k++)
        m[k] = 0;
    while (*s) {
        long long v = 0, w = 0;
        char name[40];
        int used = 0;
        if (sscanf(s, "%lld:%lld %39s%n", &v, &w, name, &used) == 3 &&
            strncmp(name, "spills:fills", 12) == 0) {
            m[M_SPILLS] = v;
            m[M_FILLS] = w;
        } else if (sscanf(s, "%lld %39[a-z]%n", &v, name, &used) == 2) {
            if (strcmp(name, "inst") == 0 || strcmp(name, "instructions") == 0)
                m[M_INSTRUCTIONS] = v;
            else if (strcmp(name, "loops") == 0)
                m[M_LOOPS] = v;
            else if (strcmp(name, "cycles") == 0)
                m[M_CYCLES] = v;
            else if (strcmp(name, "sends") == 0)
                m[M_SENDS] = v;
        }
        const char *c = strstr(s, ", ");
        if (!c)
            break;
        s = c + 2;
    }
}

static bool read_text_report(struct report *R, char *text)
{
    char last[2048] = "";
    for (char *line = text; line && *line;) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        char *sep = strstr(line, " - ");
        if (line[0] != '#' && sep) {
            *sep = '\0';
            const char *rest = sep + 3;
            const char *sh = strstr(rest, " shader: ");
            char key[2048];
            if (sh) {
                long long m[M_COUNT];
                parse_stats(sh + 9, m);
                snprintf(key, sizeof(key), "%s %.*s", line, (int)(sh - rest), rest);
                if (!rec_add(R, key, true, m, NULL))
                    return false;
                /* the kernels of one shader come together: its verdict once */
                if (strcmp(last, line) != 0) {
                    char verdict[64];
                    const char *sp = strchr(rest, ' ');
                    snprintf(verdict, sizeof(verdict), "%.*s accepted",
                             (int)(sp && sp < sh ? sp - rest : sh - rest), rest);
                    if (!rec_add(R, line, false, NULL, verdict))
                        return false;
                    snprintf(last, sizeof(last), "%s", line);
                }
            } else if (!strstr(rest, " engines ")) {
                if (!rec_add(R, line, false, NULL, rest)) /* "VS rejected: ST1006" */
                    return false;
            }
        }
        line = end ? end + 1 : NULL;
    }
    return true;
}

static bool read_json_report(struct report *R, const char *text, const char *path)
{
    json_error_t err;
    json_t *root = json_loads(text, 0, &err);
    json_t *shaders = root ? json_object_get(root, "shaders") : NULL;
    if (!json_is_array(shaders)) {
        fprintf(stderr, "shadertrans: '%s' is not a batch report: %s\n", path,
                root ? "no \"shaders\" array" : err.text);
        json_decref(root);
        return false;
    }
    bool ok = true;
    size_t i;
    json_t *s;
    json_array_foreach(shaders, i, s) {
        const char *file = json_string_value(json_object_get(s, "file"));
        const char *stage = json_string_value(json_object_get(s, "stage"));
        const char *status = json_string_value(json_object_get(s, "status"));
        if (!file || !status)
            continue;
        if (!stage || !*stage)
            stage = "??";
        char key[2048], verdict[256];
        size_t j;
        json_t *k;
        json_array_foreach(json_object_get(s, "kernels"), j, k) {
            long long m[M_COUNT] = {
                json_integer_value(json_object_get(k, "instructions")),
                json_integer_value(json_object_get(k, "cycles")),
                json_integer_value(json_object_get(k, "loops")),
                json_integer_value(json_object_get(k, "spills")),
                json_integer_value(json_object_get(k, "fills")),
                json_integer_value(json_object_get(k, "sends")),
            };
            snprintf(key, sizeof(key), "%s %s SIMD%lld", file, stage,
                     (long long)json_integer_value(json_object_get(k, "simd")));
            ok = ok && rec_add(R, key, true, m, NULL);
        }
        {
            int n = snprintf(verdict, sizeof(verdict), "%s %s", stage, status);
            json_t *c;
            json_array_foreach(json_object_get(s, "errors"), j, c)
                if (n > 0 && (size_t)n < sizeof(verdict))
                    n += snprintf(verdict + n, sizeof(verdict) - (size_t)n, "%s%s", j ? " " : ": ",
                                  json_string_value(c) ? json_string_value(c) : "?");
            ok = ok && rec_add(R, file, false, NULL, verdict);
        }
    }
    json_decref(root);
    return ok;
}

static bool read_report(struct report *R, const char *path)
{
    size_t len;
    char *text = cli_read_file(path, &len);
    if (!text) {
        fprintf(stderr, "shadertrans: cannot read '%s': %s\n", path, strerror(errno));
        return false;
    }
    const char *p = text;
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
        p++;
    bool ok = *p == '{' ? read_json_report(R, text, path) : read_text_report(R, text);
    free(text);
    return ok;
}

static int by_key(const void *a, const void *b)
{
    const struct record *x = a, *y = b;
    if (x->kernel != y->kernel)
        return x->kernel ? -1 : 1;
    return strcmp(x->key, y->key);
}

static const struct record *find(const struct report *R, const struct record *r)
{
    return bsearch(r, R->r, R->n, sizeof(*R->r), by_key);
}

/* "100 -> 90 (-10.00%)" */
static void change(char *buf, size_t n, long long b, long long a)
{
    int k = snprintf(buf, n, "%lld -> %lld", b, a);
    if (b != 0 && a != 0 && k > 0 && (size_t)k < n) {
        double frac = (double)a / (double)b - 1.0;
        if (fabs(frac) > 0 && fabs(frac) < 0.0001)
            snprintf(buf + k, n - (size_t)k, " (<.01%%)");
        else
            snprintf(buf + k, n - (size_t)k, " (%+.2f%%)", frac * 100.0);
    }
}

struct delta {
    const struct record *old, *new_;
    double rel;
};

static int by_rel(const void *a, const void *b)
{
    const struct delta *x = a, *y = b;
    return x->rel < y->rel ? -1 : x->rel > y->rel ? 1 : strcmp(x->new_->key, y->new_->key);
}

int cli_compare_main(int argc, char **argv)
{
    bool want[M_COUNT] = {true, true, true, true, true, true};
    bool summary_only = false, changes_only = false;
    const char *files[2] = {NULL, NULL}, *val;
    unsigned nfiles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            return cli_fwrite(compare_usage, strlen(compare_usage), stdout) ? 0 : EXIT_USAGE;
        if (cli_opt_value(a, "--measurements", &val)) {
            for (int k = 0; k < M_COUNT; k++)
                want[k] = false;
            char list[256];
            snprintf(list, sizeof(list), "%s", val);
            for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
                int k = 0;
                while (k < M_COUNT && strcmp(t, mname[k]) != 0)
                    k++;
                if (k == M_COUNT)
                    return cli_usage_error("unknown measurement '%s'", t);
                want[k] = true;
            }
        } else if (strcmp(a, "--summary-only") == 0) {
            summary_only = true;
        } else if (strcmp(a, "--changes-only") == 0) {
            changes_only = true;
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("unknown compare option '%s'", a);
        } else if (nfiles < 2) {
            files[nfiles++] = a;
        } else {
            return cli_usage_error("compare takes two reports; '%s' is a third", a);
        }
    }
    if (nfiles != 2)
        return cli_usage_error("%s", "compare needs two reports: OLD NEW");
    struct report R[2];
    memset(R, 0, sizeof(R));
    int status = EXIT_USAGE;
    if (!read_report(&R[0], files[0]) || !read_report(&R[1], files[1]))
        goto out;
    for (int k = 0; k < 2; k++)
        qsort(R[k].r, R[k].n, sizeof(*R[k].r), by_key);
    struct st_buf b = {0};
    struct delta *d = malloc((R[1].n + 1) * sizeof(*d));
    if (!d)
        goto out;
    for (int m = 0; m < M_COUNT; m++) {
        if (!want[m])
            continue;
        long long tb = 0, ta = 0, ab = 0, aa = 0;
        size_t nd = 0;
        for (size_t k = 0; k < R[1].n; k++) {
            const struct record *n = &R[1].r[k], *o = n->kernel ? find(&R[0], n) : NULL;
            if (!o)
                continue;
            /* as report.py: a kernel whose loop count changed (a loop
             * unrolled, say) is not comparable in anything else */
            if (m != M_LOOPS && o->m[M_LOOPS] != n->m[M_LOOPS])
                continue;
            tb += o->m[m];
            ta += n->m[m];
            if (o->m[m] != n->m[m]) {
                ab += o->m[m];
                aa += n->m[m];
                d[nd].old = o;
                d[nd].new_ = n;
                d[nd].rel = o->m[m] ? (double)(n->m[m] - o->m[m]) / (double)o->m[m]
                                    : (double)n->m[m];
                nd++;
            }
        }
        qsort(d, nd, sizeof(*d), by_rel);
        size_t helped = 0, hurt = 0;
        for (size_t k = 0; k < nd; k++) {
            if (d[k].new_->m[m] < d[k].old->m[m])
                helped++;
            else
                hurt++;
        }
        if (!summary_only) {
            char c[96];
            for (int pass = 0; pass < 2; pass++) {
                bool any = false;
                for (size_t k = 0; k < nd; k++) {
                    /* (sorted: helped from the most helped, hurt from the least) */
                    const struct delta *x = &d[k];
                    bool is_help = x->new_->m[m] < x->old->m[m];
                    if (is_help != (pass == 0))
                        continue;
                    change(c, sizeof(c), x->old->m[m], x->new_->m[m]);
                    st_buf_printf(&b, "%s %s %-50s %s\n", mname[m], pass == 0 ? "helped:" : "HURT:  ",
                                  x->new_->key, c);
                    any = true;
                }
                if (any)
                    st_buf_printf(&b, "\n");
            }
        }
        if (!changes_only || helped || hurt) {
            char c1[96], c2[96];
            change(c1, sizeof(c1), tb, ta);
            change(c2, sizeof(c2), ab, aa);
            st_buf_printf(&b,
                          "total %s in shared programs: %s\n"
                          "%s in affected programs: %s\n"
                          "helped: %zu\n"
                          "HURT: %zu\n\n",
                          mname[m], c1, mname[m], c2, helped, hurt);
        }
    }
    free(d);
    /* verdicts that changed, kernels lost and gained */
    size_t lost = 0, gained = 0, changed = 0;
    for (size_t k = 0; k < R[1].n; k++) {
        const struct record *r = &R[1].r[k], *other = r->kernel ? NULL : find(&R[0], r);
        if (other && strcmp(other->verdict, r->verdict) != 0) {
            st_buf_printf(&b, "VERDICT: %s: %s -> %s\n", r->key, other->verdict, r->verdict);
            changed++;
        }
    }
    for (int side = 0; side < 2; side++)
        for (size_t k = 0; k < R[side].n; k++) {
            const struct record *r = &R[side].r[k];
            if (!r->kernel || find(&R[1 - side], r))
                continue;
            if (!summary_only)
                st_buf_printf(&b, "%s %s\n", side ? "GAINED:" : "LOST:  ", r->key);
            if (side)
                gained++;
            else
                lost++;
        }
    st_buf_printf(&b, "%sverdicts changed: %zu\nLOST:   %zu\nGAINED: %zu\n",
                  changed || lost || gained ? "\n" : "", changed, lost, gained);
    status = cli_write_output(NULL, b.data ? b.data : "", b.len);
    st_buf_free(&b);
out:
    report_free(&R[0]);
    report_free(&R[1]);
    return status;
}
