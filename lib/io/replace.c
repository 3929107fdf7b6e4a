/* replace.c — an output file replacing its target (see replace.h). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "io/replace.h"

/* Links a kernel follows before it gives up with ELOOP. */
#define MAX_HOPS 40

static char *dir_of(const char *path)
{
    char *dup = strdup(path);
    char *dir = dup ? strdup(dirname(dup)) : NULL;
    free(dup);
    return dir;
}

/* Where the link at path points, as a path usable from here. */
static char *link_target(const char *path, off_t size_hint)
{
    size_t cap = size_hint > 0 ? (size_t)size_hint + 1 : PATH_MAX;
    char *buf = malloc(cap);
    ssize_t n = buf ? readlink(path, buf, cap - 1) : -1;
    if (n < 0) { free(buf); return NULL; }
    buf[n] = '\0';
    if (buf[0] == '/') return buf;
    char *dir = dir_of(path);
    size_t len = dir ? strlen(dir) + (size_t)n + 2 : 0;
    char *joined = dir ? malloc(len) : NULL;
    if (joined) snprintf(joined, len, "%s/%s", dir, buf);
    free(dir);
    free(buf);
    return joined;
}

char *sc_output_target(const char *path)
{
    char *cur = strdup(path);
    for (int hops = 0; cur && hops < MAX_HOPS; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) return cur;
        char *real = realpath(cur, NULL);
        /* realpath needs the target to exist: a dangling link is followed
         * one hop at a time. */
        char *next = real ? real : link_target(cur, st.st_size);
        if (!next) return cur;      /* unreadable: the link is replaced */
        free(cur);
        cur = next;
        if (real) return cur;
    }
    return cur;
}

/* What the temporaries beside target are called before their
 * "-PID-START-XXXXXX": ".NAME.sc", or ".sc" where that would pass the
 * directory's longest name.  Sets *dir (free both); NULL when out of
 * memory. */
static char *beside_prefix(const char *target, char **dir)
{
    char *dup = strdup(target);
    *dir = dir_of(target);
    const char *base = dup ? basename(dup) : "";
    long name_max = *dir ? pathconf(*dir, _PC_NAME_MAX) : -1;
    if (name_max <= 0) name_max = NAME_MAX;
    /* The output's name in the temporary's tells a user whose it is; a
     * name near the limit gets the short form rather than ENAMETOOLONG. */
    size_t tail = strlen("---XXXXXX") + 10 + 20;    /* PID, START digits */
    int named = strlen(base) + strlen("..sc") + tail <= (size_t)name_max;
    size_t len = strlen(base) + 8;
    char *prefix = dup && *dir ? malloc(len) : NULL;
    if (prefix) snprintf(prefix, len, named ? ".%s.sc" : ".sc", base);
    free(dup);
    return prefix;
}

void sc_sweep_beside(const char *target)
{
    char *dir, *prefix = beside_prefix(target, &dir);
    const char *prefixes[2] = { prefix, NULL };
    if (prefix) sc_temp_sweep(dir, prefixes);
    free(prefix);
    free(dir);
}

int sc_temp_beside(const char *target, char **tmp)
{
    char *dir, *prefix = beside_prefix(target, &dir);
    size_t len = prefix ? strlen(dir) + strlen(prefix) + 64 : 0;
    *tmp = prefix ? malloc(len) : NULL;
    int fd = -1;
    if (*tmp)
        fd = sc_temp_open(dir, prefix, *tmp, len);
    else
        errno = ENOMEM;
    int err = errno;
    free(prefix);
    free(dir);
    errno = err;
    return fd;
}

int sc_may_replace(const char *target)
{
    struct stat st;
    /* A loop of symbolic links leaves sc_output_target on a link, which a
     * rename would replace: refused (ELOOP), as cp and sort -o refuse it. */
    if (stat(target, &st) != 0) return errno == ELOOP ? -1 : 0;
    if (!S_ISREG(st.st_mode)) return 0;
    return faccessat(AT_FDCWD, target, W_OK, AT_EACCESS);
}

int sc_rename(const char *from, const char *to)
{
    static long calls;
    const char *env = getenv("SC_TEST_FAIL_RENAME");
    long n = __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
    if (env && *env && strtol(env, NULL, 10) == n) {
        errno = EACCES;
        return -1;
    }
    return rename(from, to);
}

/* A hard link to path under a free temporary name beside it: NULL with
 * *had 0 when path does not exist, NULL with *had 1 when no backup could
 * be made. */
static char *backup(const char *path, int *had)
{
    struct stat st;
    *had = lstat(path, &st) == 0;
    if (!*had) return NULL;
    for (int tries = 0; tries < 100; tries++) {
        char *name;
        int fd = sc_temp_beside(path, &name);
        if (fd < 0) { free(name); return NULL; }
        /* The name mkstemp found free is freed again for link(), which
         * never replaces anything: a clash only means another try. */
        close(fd);
        unlink(name);
        if (link(path, name) == 0) return name;     /* still registered */
        int err = errno;
        sc_temp_unregister(name);
        free(name);
        if (err != EEXIST) { errno = err; return NULL; }
    }
    return NULL;
}

static sc_status rename_failed(sc_ctx *ctx, const char *path, int err)
{
    return sc_fail_errno(ctx, SC_ERR_IO, err, "%s: cannot rename temporary "
                         "file into place", path);
}

/* Puts paths[0..done) back as they were: each from its backup, or
 * removed where there was none.  Returns done, or the first that could
 * not be put back, with errno. */
static size_t put_back(char *const *paths, char **baks, size_t done)
{
    size_t bad = done;
    int err = 0;
    for (size_t k = 0; k < done; k++)
        if ((baks[k] ? sc_rename(baks[k], paths[k]) != 0
                     : unlink(paths[k]) != 0) && bad == done) {
            bad = k;
            err = errno;
        }
    errno = err;
    return bad;
}

/* Backups of every file but the last, which, renamed last, never needs
 * putting back.  NULL entries: nothing there to keep. */
static sc_status keep_backups(sc_ctx *ctx, size_t n, char *const *paths,
                              char **baks)
{
    for (size_t k = 0; k + 1 < n; k++) {
        int had;
        baks[k] = backup(paths[k], &had);
        if (had && !baks[k])
            return sc_fail_errno(ctx, SC_ERR_IO, errno, "%s: cannot keep a "
                                 "backup while %s replaced", paths[k],
                                 n == 2 ? "its pair is" : "the others are");
    }
    return SC_OK;
}

/* Two runs replacing the same files at once would interleave their
 * renames and leave a set made of both: each holds a lock (flock) on the
 * first file's directory while it replaces, so that one set replaces the
 * other whole.  The directory, not a file: it is there already, and
 * nothing is left behind.  One that cannot be opened (no read
 * permission) goes unlocked.  Returns the descriptor to close, or -1. */
static int lock_dir_of(const char *path)
{
    char *dir = dir_of(path);
    int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    free(dir);
    if (fd >= 0 && flock(fd, LOCK_EX) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

sc_status sc_replace_all(sc_ctx *ctx, size_t n, char *const *tmps,
                         char *const *paths)
{
    char **baks = calloc(n ? n : 1, sizeof *baks);
    if (!baks) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    int lock = n ? lock_dir_of(paths[0]) : -1;
    sc_status st = keep_backups(ctx, n, paths, baks);
    for (size_t k = 0; k < n && st == SC_OK; k++) {
        if (sc_rename(tmps[k], paths[k]) == 0) continue;
        st = rename_failed(ctx, paths[k], errno);
        /* Put back those already renamed; their temporaries are gone, so
         * nothing is left over. */
        size_t bad = put_back(paths, baks, k);
        if (bad < k)
            st = sc_fail_errno(ctx, SC_ERR_IO, errno, "%s: replaced, but %s "
                               "could not be, and the old %s could not be put "
                               "back", paths[bad], paths[k], paths[bad]);
    }
    for (size_t k = 0; k < n; k++)
        if (baks[k]) {
            unlink(baks[k]);        /* gone already if it was put back */
            sc_temp_unregister(baks[k]);
            free(baks[k]);
        }
    free(baks);
    if (lock >= 0) close(lock);
    return st;
}
