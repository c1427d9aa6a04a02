/*
 * output.c — writing the command's output where -o says, safely.
 *
 * A regular file is replaced atomically: the text goes to a temporary file
 * beside it, which gets the old file's mode (and owner, where we may set
 * it) and is renamed over it, so a reader sees the old file or the new one
 * and an error leaves the old one untouched.  A new file gets 0666 minus
 * the umask, as any file the user's shell would create.  Anything that is
 * not a regular file (a device such as /dev/null, a FIFO, a symbolic link
 * to one) is opened and written in place: renaming over it would replace
 * the device node or the pipe with a plain file.  A symbolic link to a
 * regular file keeps being a link: the file it names is replaced.  The
 * text is complete in memory before anything is opened, so a shader with
 * errors never produces a partial output either way.
 *
 * SIGPIPE is ignored (cli.c), so a reader that went away shows up as EPIPE:
 * the command then ends with status 2 without a message, as tools in a
 * pipeline whose reader stopped early are expected to.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static bool broken_pipe;

bool cli_fwrite(const void *p, size_t n, void *stream)
{
    FILE *f = stream;
    if (fwrite(p, 1, n, f) == n && fflush(f) == 0)
        return true;
    if (errno == EPIPE)
        broken_pipe = true;
    return false;
}

static bool write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EPIPE)
                broken_pipe = true;
            return false;
        }
        p += w;
        n -= (size_t)w;
    }
    return true;
}

static int failed(const char *path, int err)
{
    if (err == EPIPE)
        broken_pipe = true;
    else
        fprintf(stderr, "shadertrans: cannot write '%s': %s\n", path, strerror(err));
    return EXIT_USAGE;
}

/* Writes into what is there (device, FIFO): no rename, no truncation of
 * something that is not a file. */
static int write_in_place(const char *path, const char *text, size_t len)
{
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return failed(path, errno);
    bool ok = write_all(fd, text, len);
    int err = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        err = errno;
    }
    return ok ? 0 : failed(path, err);
}

static mode_t current_umask(void)
{
    /* umask() can only be read by setting it: the command is
     * single-threaded whenever it writes an output file */
    mode_t m = umask(022);
    umask(m);
    return m;
}

/* Replaces (or creates) the regular file `target` atomically. */
static int replace_file(const char *path, const char *target, const struct stat *old,
                        const char *text, size_t len)
{
    size_t tlen = strlen(target);
    char *tmp = malloc(tlen + 16);
    if (!tmp)
        return failed(path, ENOMEM);
    snprintf(tmp, tlen + 16, "%s.tmpXXXXXX", target);
    int fd = mkstemp(tmp); /* created 0600: the mode is set below */
    if (fd < 0) {
        int err = errno;
        free(tmp);
        return failed(path, err);
    }
    mode_t mode = old ? old->st_mode & 07777 : 0666 & ~current_umask();
    bool ok = true;
    int err = 0;
    if (old && (old->st_uid != geteuid() || old->st_gid != getegid()))
        (void)!fchown(fd, old->st_uid, old->st_gid); /* where we may: else ours */
    if (fchmod(fd, mode) != 0) {
        ok = false;
        err = errno;
    }
    if (ok && !write_all(fd, text, len)) {
        ok = false;
        err = errno;
    }
    if (close(fd) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (ok && rename(tmp, target) != 0) {
        ok = false;
        err = errno;
    }
    if (!ok)
        unlink(tmp);
    free(tmp);
    return ok ? 0 : failed(path, err);
}

int cli_write_output(const char *path, const char *text, size_t len)
{
    if (!path || strcmp(path, "-") == 0) {
        if (cli_fwrite(text, len, stdout))
            return 0;
        if (!broken_pipe)
            fprintf(stderr, "shadertrans: error writing standard output: %s\n", strerror(errno));
        return EXIT_USAGE;
    }
    struct stat st;
    if (stat(path, &st) == 0) {
        if (!S_ISREG(st.st_mode))
            return write_in_place(path, text, len);
        /* A link to a regular file: replace the file, keep the link. */
        char *target = realpath(path, NULL);
        if (!target)
            return failed(path, errno);
        int rc = replace_file(path, target, &st, text, len);
        free(target);
        return rc;
    }
    if (errno != ENOENT)
        return failed(path, errno);
    struct stat lst;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        /* A link to nothing yet: create what it names, through it. */
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0666);
        if (fd < 0)
            return failed(path, errno);
        bool ok = write_all(fd, text, len);
        int err = errno;
        if (close(fd) != 0 && ok) {
            ok = false;
            err = errno;
        }
        return ok ? 0 : failed(path, err);
    }
    return replace_file(path, path, NULL, text, len);
}
