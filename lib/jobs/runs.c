/* runs.c — sorted runs, one after another in one temporary file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "io/io.h"
#include "jobs/runs.h"


struct sc_runs {
    sc_ctx *ctx;
    const char *dir;        /* for the files of later merge passes */
    char path[4096];
    int fd;
    unsigned size;          /* bytes an element */
    uint64_t *len;          /* elements of each run, in file order */
    size_t n, cap;
};

sc_status sc_runs_open(sc_runs **out, sc_ctx *ctx, const char *dir,
                       unsigned size)
{
    *out = NULL;
    sc_runs *rs = calloc(1, sizeof *rs);
    if (!rs) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    rs->ctx = ctx;
    rs->size = size;
    rs->dir = dir = sc_temp_dir(dir);
    rs->fd = sc_temp_open(dir, SC_TEMP_RUNS, rs->path, sizeof rs->path);
    if (rs->fd < 0) {
        sc_status st = sc_fail_errno(ctx, SC_ERR_IO, errno, "%s: cannot create "
                                     "temporary file", rs->path);
        free(rs);
        return st;
    }
    *out = rs;
    return SC_OK;
}

sc_status sc_runs_begin(sc_runs *rs)
{
    if (rs->n == rs->cap) {
        size_t cap = rs->cap ? rs->cap * 2 : 64;
        uint64_t *len = realloc(rs->len, cap * sizeof *len);
        if (!len) return sc_fail(rs->ctx, SC_ERR_NOMEM, "out of memory");
        rs->len = len;
        rs->cap = cap;
    }
    rs->len[rs->n++] = 0;
    return SC_OK;
}

sc_status sc_runs_append(sc_runs *rs, const void *v, size_t n)
{
    if (sc_write_full(rs->fd, v, n * rs->size) != 0)
        return sc_fail_errno(rs->ctx, SC_ERR_IO, errno, "%s: write error",
                             rs->path);
    rs->len[rs->n - 1] += n;
    return SC_OK;
}

sc_status sc_runs_add(sc_runs *rs, const void *v, size_t n)
{
    sc_status st = sc_runs_begin(rs);
    return st == SC_OK ? sc_runs_append(rs, v, n) : st;
}

size_t sc_runs_count(const sc_runs *rs) { return rs->n; }

void sc_runs_close(sc_runs *rs)
{
    if (!rs) return;
    close(rs->fd);
    unlink(rs->path);
    sc_temp_unregister(rs->path);
    free(rs->len);
    free(rs);
}

sc_status sc_runs_open_beside(sc_runs **out, const sc_runs *rs)
{
    return sc_runs_open(out, rs->ctx, rs->dir, rs->size);
}

uint64_t sc_runs_length(const sc_runs *rs, size_t i) { return rs->len[i]; }

sc_status sc_runs_read(const sc_runs *rs, uint64_t off, void *v, size_t n)
{
    size_t bytes = n * rs->size;
    ssize_t got = sc_pread_full(rs->fd, v, bytes, (off_t)(off * rs->size));
    if (got != (ssize_t)bytes)
        return sc_fail(rs->ctx, SC_ERR_IO, "%s: short read of temporary file",
                       rs->path);
    return SC_OK;
}

void sc_runs_replace(sc_runs *rs, sc_runs *next)
{
    sc_runs old = *rs;
    *rs = *next;
    *next = old;
    sc_runs_close(next);
}
