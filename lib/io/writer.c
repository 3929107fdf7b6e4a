/* writer.c — output streams: raw, text, gzip or zstd, to standard output
 * or to a file that replaces its target only when the run succeeds
 * (writer_commit.c), or is removed when it is given up (here).
 *
 * Gzip output is a series of independent gzip members of GZ_BLOCK input
 * bytes each, compressed on all host threads (like BGZF): any gzip reader
 * reads the concatenation, and compression does not bound the speed.
 * Zstd output is independent frames and a seek table, compressed and
 * written on threads of zstd_out.c's own.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "io/fdio.h"
#include "io/replace.h"
#include "io/writer_impl.h"

sc_status sc_writer_error(sc_writer *w, int err)
{
    w->failed = 1;
    if (err == EPIPE) return SC_ERR_PIPE;
    return sc_fail_errno(w->ctx, SC_ERR_IO, err, "%s: write error", w->name);
}

static sc_status put(sc_writer *w, const void *buf, size_t len)
{
    if (sc_write_full(w->fd, buf, len) != 0) return sc_writer_error(w, errno);
    return SC_OK;
}

/* The replacement keeps the mode and, where allowed, the owner of the file
 * it replaces: a private file stays private. */
static void copy_attributes(int fd, const char *path)
{
    struct stat st;
    mode_t mask = umask(0);
    umask(mask);
    if (stat(path, &st) != 0) {
        fchmod(fd, 0666 & ~mask);
        return;
    }
    if (fchown(fd, st.st_uid, st.st_gid) != 0 && fchown(fd, -1, st.st_gid)) {
        /* Not ours to give away: the new file keeps its creator's ids. */
    }
    fchmod(fd, st.st_mode & 07777);
}

static sc_status open_temp(sc_writer *w, const char *path)
{
    w->path = sc_output_target(path);
    if (!w->path) return sc_fail(w->ctx, SC_ERR_NOMEM, "out of memory");
    if (sc_may_replace(w->path) != 0)
        return sc_fail_errno(w->ctx, SC_ERR_IO, errno, "%s", path);
    sc_sweep_beside(w->path);
    w->fd = sc_temp_beside(w->path, &w->tmp);
    if (w->fd < 0)
        return sc_fail_errno(w->ctx, SC_ERR_IO, errno, "%s: cannot create",
                             path);
    copy_attributes(w->fd, w->path);
    return SC_OK;
}

/* A device, FIFO or socket is written in place: renaming a file over it
 * would replace, say, /dev/null itself. */
static int is_special(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

static sc_status open_direct(sc_writer *w, const char *path)
{
    w->fd = open(path, O_WRONLY);
    w->direct = w->fd >= 0;
    if (w->fd < 0)
        return sc_fail_errno(w->ctx, SC_ERR_IO, errno, "%s: cannot open",
                             path);
    w->pipe = sc_grow_pipe(w->fd);
    return SC_OK;
}

/* A writer compressing on `threads` threads, or, for gzip, on `pool`
 * when not NULL. */
static sc_status writer_open(sc_writer **out, sc_ctx *ctx, const char *path,
                             const sc_writer_opts *opts, unsigned threads,
                             sc_pool *pool)
{
    if (!out || !ctx) return SC_ERR_USAGE;
    *out = NULL;
    if (!opts || opts->fmt == SC_FMT_AUTO || (unsigned)opts->fmt > SC_FMT_ZST)
        return sc_fail(ctx, SC_ERR_USAGE, "invalid output format");
    if (opts->fmt == SC_FMT_GZ && (opts->level < 1 || opts->level > 9))
        return sc_fail(ctx, SC_ERR_USAGE, "gzip level %d is not 1 to 9",
                       opts->level);
    if (opts->fmt == SC_FMT_ZST && (opts->level < 1 || opts->level > 19))
        return sc_fail(ctx, SC_ERR_USAGE, "zstd level %d is not 1 to 19",
                       opts->level);
    if (opts->fmt == SC_FMT_ZST && !sc_zstd_built())
        return sc_fail(ctx, SC_ERR_USAGE, "zstd output: this libsc was built "
                       "without zstd");
    if (path && !*path)
        return sc_fail(ctx, SC_ERR_USAGE, "an output file name is empty");
    sc_writer *w = calloc(1, sizeof *w);
    if (!w) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    w->ctx = ctx;
    w->o = *opts;
    w->fd = 1;
    w->batch = GZ_BATCH;
    w->name = "(standard output)";
    sc_status st = SC_OK, no_threads = SC_OK;
    if (path && strcmp(path, "-") != 0) {
        st = is_special(path) ? open_direct(w, path) : open_temp(w, path);
        w->name = path;
    } else {
        w->pipe = sc_grow_pipe(1);
    }
    if (st == SC_OK && w->o.fmt == SC_FMT_GZ) {
        w->stage = malloc(GZ_BLOCK * GZ_BATCH);
        w->pool = pool;
        w->pool_shared = pool != NULL;
        st = !w->stage ? SC_ERR_NOMEM
           : pool ? SC_OK : sc_pool_new(&w->pool, threads);
        if (st && w->stage)
            no_threads = sc_fail_errno(ctx, st, errno, "cannot start "
                                       "compression threads");
    }
    if (st == SC_OK && w->o.fmt == SC_FMT_TEXT) {
        w->text = malloc(TEXT_BUF);
        if (!w->text) st = SC_ERR_NOMEM;
    }
    const char *err = NULL;
    if (st == SC_OK && w->o.fmt == SC_FMT_ZST &&
        !(w->zout = sc_zout_new(w->o.level, threads, &err)))
        st = sc_fail(ctx, SC_ERR_NOMEM, "zstd: %s", err);
    if (st != SC_OK) {
        if (st == SC_ERR_NOMEM && !no_threads) sc_fail(ctx, st, "out of memory");
        sc_writer_abort(w);
        return st;
    }
    *out = w;
    return SC_OK;
}

sc_status sc_writer_open(sc_writer **out, sc_ctx *ctx, const char *path,
                         const sc_writer_opts *opts)
{
    return writer_open(out, ctx, path, opts, ctx ? ctx->threads : 1, NULL);
}

sc_status sc_writer_open_shared(sc_writer **out, sc_ctx *ctx,
                                const char *path, const sc_writer_opts *opts,
                                unsigned writers, sc_pool *pool)
{
    unsigned threads = ctx && writers ? ctx->threads / writers : 1;
    sc_status st = writer_open(out, ctx, path, opts, threads ? threads : 1,
                               pool);
    sc_writer *w = st == SC_OK ? *out : NULL;
    if (!w || writers < 2) return st;
    w->batch = writers < GZ_BATCH ? GZ_BATCH / writers : 1;
    if (w->zout) sc_zout_small_jobs(w->zout);
    return st;
}

static void compress_block(void *arg, unsigned i)
{
    gz_block *b = (gz_block *)arg + i;
    z_stream z;
    memset(&z, 0, sizeof z);
    b->failed = 1;
    if (deflateInit2(&z, b->level, Z_DEFLATED, 16 + MAX_WBITS, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK)
        return;
    z.next_in = (unsigned char *)b->in;
    z.avail_in = (uInt)b->in_len;
    z.next_out = b->out;
    z.avail_out = (uInt)b->out_cap;
    if (deflate(&z, Z_FINISH) == Z_STREAM_END) {
        b->out_len = b->out_cap - z.avail_out;
        b->failed = 0;
    }
    deflateEnd(&z);
}

/* Compresses the staged bytes as independent members, writes in order. */
static sc_status flush_gz(sc_writer *w)
{
    unsigned n = 0;
    size_t off = 0;
    do {
        gz_block *b = &w->blocks[n];
        b->in = w->stage + off;
        b->in_len = w->stage_len - off < GZ_BLOCK ? w->stage_len - off : GZ_BLOCK;
        size_t need = compressBound((uLong)b->in_len) + 64;
        if (b->out_cap < need) {
            free(b->out);
            b->out = malloc(need);
            b->out_cap = b->out ? need : 0;
            if (!b->out) return sc_fail(w->ctx, SC_ERR_NOMEM, "out of memory");
        }
        b->level = w->o.level;
        off += b->in_len;
        n++;
    } while (off < w->stage_len);
    w->wrote_gz = 1;
    sc_pool_run(w->pool, n, compress_block, w->blocks);
    for (unsigned i = 0; i < n; i++) {
        if (w->blocks[i].failed)
            return sc_fail(w->ctx, SC_ERR_NOMEM, "gzip compression failed");
        sc_status st = put(w, w->blocks[i].out, w->blocks[i].out_len);
        if (st) return st;
    }
    w->stage_len = 0;
    return SC_OK;
}

static sc_status write_gz(sc_writer *w, const unsigned char *p, size_t len)
{
    const size_t cap = GZ_BLOCK * w->batch;
    while (len) {
        size_t take = cap - w->stage_len < len ? cap - w->stage_len : len;
        memcpy(w->stage + w->stage_len, p, take);
        w->stage_len += take;
        p += take;
        len -= take;
        if (w->stage_len == cap) {
            sc_status st = flush_gz(w);
            if (st) return st;
        }
    }
    return SC_OK;
}

/* Called on zstd_out.c's threads: writes and returns errno, and the
 * caller's thread reports it (write_zst). */
static int zout_sink(void *arg, const void *buf, size_t len)
{
    const sc_writer *w = arg;
    if (sc_write_full(w->fd, buf, len) == 0) return 0;
    return errno ? errno : EIO;
}

/* end: closes the frame. */
static sc_status write_zst(sc_writer *w, const void *p, size_t len, int end)
{
    const char *err = NULL;
    int rc = sc_zout_write(w->zout, p, len, end, zout_sink, w, &err);
    if (rc > 0) return sc_writer_error(w, rc);
    if (rc < 0) {
        w->failed = 1;
        return sc_fail(w->ctx, SC_ERR_NOMEM, "zstd compression failed: %s",
                       err);
    }
    return SC_OK;
}

static char *format_u64(char *p, uint64_t v)
{
    char tmp[24];
    int n = 0;
    do { tmp[n++] = (char)('0' + v % 10); v /= 10; } while (v);
    while (n) *p++ = tmp[--n];
    *p++ = '\n';
    return p;
}

static sc_status write_text(sc_writer *w, const void *elems, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (w->text_len > TEXT_BUF - 32) {
            sc_status st = put(w, w->text, w->text_len);
            if (st) return st;
            w->text_len = 0;
        }
        uint64_t v = w->o.wide ? ((const uint64_t *)elems)[i]
                               : ((const uint32_t *)elems)[i];
        w->text_len = (size_t)(format_u64(w->text + w->text_len, v) - w->text);
    }
    /* Each chunk's text goes out with it, so a live stream stays live. */
    sc_status st = w->text_len ? put(w, w->text, w->text_len) : SC_OK;
    w->text_len = 0;
    return st;
}

sc_status sc_writer_write(sc_writer *w, const void *elems, size_t n)
{
    if (w->failed) return SC_ERR_IO;
    size_t bytes = n * (w->o.wide ? 8 : 4);
    switch (w->o.fmt) {
    case SC_FMT_TEXT: return write_text(w, elems, n);
    case SC_FMT_GZ:   return write_gz(w, elems, bytes);
    case SC_FMT_ZST:  return write_zst(w, elems, bytes, 0);
    default:          return put(w, elems, bytes);
    }
}

sc_status sc_writer_write_pages(sc_writer *w, const void *elems, size_t n)
{
    if (w->failed) return SC_ERR_IO;
    if (!w->pipe || w->o.fmt != SC_FMT_RAW || w->o.wide)
        return sc_writer_write(w, elems, n);
    size_t len = n * 4, done = 0;
    if (sc_splice_full(w->fd, elems, len, &done) == 0) return SC_OK;
    if (errno == EPIPE) return sc_writer_error(w, errno);
    /* A kernel or pipe that refuses vmsplice: write() does the rest. */
    w->pipe = 0;
    return put(w, (const char *)elems + done, len - done);
}

/* Raw bytes whatever the format: the one-line figures of --count. */
sc_status sc_writer_write_bytes(sc_writer *w, const void *buf, size_t len)
{
    w->wrote_gz = 1;            /* these bytes are the whole output */
    w->figures = 1;
    return put(w, buf, len);
}

sc_status sc_writer_drain(sc_writer *w)
{
    sc_status st = SC_OK;
    /* Empty output is still a gzip file: one empty member. */
    if (w->o.fmt == SC_FMT_GZ && (w->stage_len || !w->wrote_gz))
        st = flush_gz(w);
    /* Empty output too is a zstd frame. */
    if (!st && w->o.fmt == SC_FMT_ZST && !w->figures)
        st = write_zst(w, NULL, 0, 1);
    if (!st && w->o.fmt == SC_FMT_TEXT && w->text_len) {
        st = put(w, w->text, w->text_len);
        w->text_len = 0;
    }
    return st;
}

void sc_writer_release(sc_writer *w)
{
    for (int i = 0; i < GZ_BATCH; i++) free(w->blocks[i].out);
    if (!w->pool_shared) sc_pool_free(w->pool);
    sc_zout_free(w->zout);
    free(w->stage);
    free(w->text);
    free(w->path);
    free(w->tmp);
    free(w);
}

/* A writer given up: its temporary removed, nothing renamed. */
void sc_writer_abort(sc_writer *w)
{
    if (!w) return;
    sc_zout_free(w->zout);      /* its threads stop writing to fd first */
    w->zout = NULL;
    if (w->direct) close(w->fd);
    if (w->tmp) {
        if (w->fd >= 0) close(w->fd);
        unlink(w->tmp);
        sc_temp_unregister(w->tmp);
    }
    sc_writer_release(w);
}
