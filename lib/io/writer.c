/* writer.c — output streams: raw, text, gzip or zstd, to standard output
 * or to a file that replaces its target only when the run succeeds
 * (writer_commit.c), or is removed when it is given up (here).
 *
 * Gzip output is BGZF, compressed on all host threads while the caller
 * goes on (gz_out.c).  Zstd output is independent frames and a seek
 * table, compressed and written on threads of zstd_out.c's own.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "io/fdio.h"
#include "io/replace.h"
#include "io/writer_impl.h"

/* sc-split --ranges' parts: BGZF members staged per part, so that the
 * parts together stage about 64 MiB, and each at least 512 KiB. */
#define SHARED_MEMBERS 1024u
#define MIN_MEMBERS 8u

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

/* Called on gz_out's writer thread: w->fd stays as it is meanwhile. */
static int gz_sink(void *arg, const void *buf, size_t len)
{
    const sc_writer *w = arg;
    if (sc_write_full(w->fd, buf, len) == 0) return 0;
    return errno ? errno : EIO;
}

/* A writer compressing on `threads` threads, or, for gzip, on `pool`
 * when not NULL, in batches of `members` BGZF members. */
static sc_status writer_open(sc_writer **out, sc_ctx *ctx, const char *path,
                             const sc_writer_opts *opts, unsigned threads,
                             sc_pool *pool, unsigned members)
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
    if (sc_type_size(opts->type) == 0)
        return sc_fail(ctx, SC_ERR_USAGE, "sc_writer_open: no such element "
                       "type (%d)", (int)opts->type);
    /* wide is the 64-bit form of a 32-bit type: none is wider than 64. */
    if (opts->wide && sc_type_size(opts->type) != 4)
        return sc_fail(ctx, SC_ERR_USAGE, "wide output is for 32-bit "
                       "types, not %s", sc_type_name(opts->type));
    sc_record rec = { opts->record, 0, SC_U32 };
    const char *bad = sc_record_fault(&rec);
    if (!bad && opts->field)
        bad = sc_field_fault(opts->record, opts->field_off, opts->field_type);
    if (bad) return sc_fail(ctx, SC_ERR_USAGE, "sc_writer_open: %s", bad);
    if (opts->record && (opts->wide ||
                         (opts->fmt == SC_FMT_TEXT && !opts->field)))
        return sc_fail(ctx, SC_ERR_USAGE, "records are written as they are: "
                       "not as text (but for one field), not wide");
    if (opts->fmt == SC_FMT_ZST && !sc_zstd_built())
        return sc_fail(ctx, SC_ERR_USAGE, "zstd output: this libsc was built "
                       "without zstd");
    if (path && !*path)
        return sc_fail(ctx, SC_ERR_USAGE, "an output file name is empty");
    sc_writer *w = calloc(1, sizeof *w);
    if (!w) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    w->ctx = ctx;
    w->o = *opts;
    w->type = opts->field ? opts->field_type
            : opts->wide ? sc_type_wide(opts->type) : opts->type;
    w->size = opts->record && !opts->field ? opts->record
                                           : sc_type_size(w->type);
    /* Records are bytes, written as they are: their key was made or
     * read in the byte order asked for, and so is a field's copy.  Only
     * text reads the field's value. */
    w->field_swap = opts->field && opts->big_endian &&
                    opts->fmt == SC_FMT_TEXT;
    if (opts->record) w->o.big_endian = 0;
    w->fd = 1;
    w->name = "(standard output)";
    sc_status st = SC_OK;
    if (path && strcmp(path, "-") != 0) {
        st = is_special(path) ? open_direct(w, path) : open_temp(w, path);
        w->name = path;
    } else {
        w->pipe = sc_grow_pipe(1);
    }
    if (st == SC_OK && w->o.fmt == SC_FMT_GZ &&
        !(w->gz = sc_gzout_new(w->o.level, threads, pool, members, gz_sink,
                               w)))
        st = errno == ENOMEM ? sc_fail(ctx, SC_ERR_NOMEM, "out of memory")
           : sc_fail_errno(ctx, SC_ERR_NOMEM, errno, "cannot start "
                           "compression threads");
    if (st == SC_OK && w->o.fmt == SC_FMT_TEXT) {
        w->text = malloc(TEXT_BUF);
        if (!w->text) st = SC_ERR_NOMEM;
    }
    const char *err = NULL;
    if (st == SC_OK && w->o.fmt == SC_FMT_ZST &&
        !(w->zout = sc_zout_new(w->o.level, threads, &err)))
        st = sc_fail(ctx, SC_ERR_NOMEM, "zstd: %s", err);
    if (st != SC_OK) {
        if (st == SC_ERR_NOMEM && w->o.fmt == SC_FMT_TEXT)
            sc_fail(ctx, st, "out of memory");
        sc_writer_abort(w);
        return st;
    }
    *out = w;
    return SC_OK;
}

sc_status sc_writer_open(sc_writer **out, sc_ctx *ctx, const char *path,
                         const sc_writer_opts *opts)
{
    return writer_open(out, ctx, path, opts, ctx ? ctx->threads : 1, NULL, 0);
}

sc_status sc_writer_open_shared(sc_writer **out, sc_ctx *ctx,
                                const char *path, const sc_writer_opts *opts,
                                unsigned writers, sc_pool *pool)
{
    unsigned threads = ctx && writers ? ctx->threads / writers : 1;
    unsigned members = writers > 1 ? SHARED_MEMBERS / writers : 0;
    sc_status st = writer_open(out, ctx, path, opts, threads ? threads : 1,
                               pool, members < MIN_MEMBERS ? MIN_MEMBERS
                                                           : members);
    sc_writer *w = st == SC_OK ? *out : NULL;
    if (!w || writers < 2) return st;
    if (w->zout) sc_zout_small_jobs(w->zout);
    return st;
}

/* 0, or the first error of gz_out, reported once: the writer fails. */
static sc_status gz_status(sc_writer *w, int rc)
{
    if (rc == 0) return SC_OK;
    if (rc != SC_GZOUT_NOMEM) return sc_writer_error(w, rc);
    w->failed = 1;
    return sc_fail(w->ctx, SC_ERR_NOMEM, "gzip compression: out of memory");
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
        uint64_t v = w->size == 8 ? ((const uint64_t *)elems)[i]
                                  : ((const uint32_t *)elems)[i];
        char *at = w->text + w->text_len;
        if (w->type == SC_U32 || w->type == SC_U64) {
            w->text_len = (size_t)(format_u64(at, v) - w->text);
        } else {
            size_t len = sc_value_format(w->type, v, at);
            at[len] = '\n';
            w->text_len += len + 1;
        }
    }
    /* Each chunk's text goes out with it, so a live stream stays live. */
    sc_status st = w->text_len ? put(w, w->text, w->text_len) : SC_OK;
    w->text_len = 0;
    return st;
}

static sc_status write_binary(sc_writer *w, const void *elems, size_t n)
{
    size_t bytes = n * w->size;
    switch (w->o.fmt) {
    case SC_FMT_GZ:   return gz_status(w, sc_gzout_write(w->gz, elems, bytes));
    case SC_FMT_ZST:  return write_zst(w, elems, bytes, 0);
    default:          return put(w, elems, bytes);
    }
}

/* Big-endian output goes out a piece at a time, reversed in a buffer
 * of its own: the caller's elements are left as they were. */
#define SWAP_PIECE ((size_t)1 << 18)
static sc_status write_swapped(sc_writer *w, const void *elems, size_t n)
{
    if (!w->swapped && !(w->swapped = malloc(SWAP_PIECE * 8)))
        return sc_fail(w->ctx, SC_ERR_NOMEM, "out of memory");
    const char *p = elems;
    for (size_t done = 0; done < n;) {
        size_t k = n - done < SWAP_PIECE ? n - done : SWAP_PIECE;
        memcpy(w->swapped, p + done * w->size, k * w->size);
        sc_swap_bytes(w->swapped, k, w->size);
        sc_status st = write_binary(w, w->swapped, k);
        if (st) return st;
        done += k;
    }
    return SC_OK;
}

/* One field of each record, gathered a piece at a time into a buffer
 * of its own, then written as elements are. */
static sc_status write_fields(sc_writer *w, const void *recs, size_t n)
{
    if (!w->swapped && !(w->swapped = malloc(SWAP_PIECE * 8)))
        return sc_fail(w->ctx, SC_ERR_NOMEM, "out of memory");
    const unsigned char *p = (const unsigned char *)recs + w->o.field_off;
    size_t stride = w->o.record;
    unsigned char *buf = w->swapped;
    for (size_t done = 0; done < n;) {
        size_t k = n - done < SWAP_PIECE ? n - done : SWAP_PIECE;
        const unsigned char *from = p + done * stride;
        for (size_t i = 0; i < k; i++)
            if (w->size == 8) memcpy(buf + i * 8, from + i * stride, 8);
            else memcpy(buf + i * 4, from + i * stride, 4);
        if (w->field_swap) sc_swap_bytes(buf, k, w->size);
        sc_status st = w->o.fmt == SC_FMT_TEXT ? write_text(w, buf, k)
                                               : write_binary(w, buf, k);
        if (st) return st;
        done += k;
    }
    return SC_OK;
}

sc_status sc_writer_write(sc_writer *w, const void *elems, size_t n)
{
    if (!w || (n && !elems))   /* no crash on a NULL, as libsc(3) says */
        return w ? sc_fail(w->ctx, SC_ERR_USAGE, "no elements") : SC_ERR_USAGE;
    if (w->failed) return SC_ERR_IO;
    if (w->o.field) return write_fields(w, elems, n);
    if (w->o.fmt == SC_FMT_TEXT) return write_text(w, elems, n);
    if (w->o.big_endian) return write_swapped(w, elems, n);
    return write_binary(w, elems, n);
}

sc_status sc_writer_write_pages(sc_writer *w, const void *elems, size_t n)
{
    if (w->failed) return SC_ERR_IO;
    if (!w->pipe || w->o.fmt != SC_FMT_RAW || w->o.big_endian || w->o.field)
        return sc_writer_write(w, elems, n);
    size_t len = n * w->size, done = 0;
    if (sc_splice_full(w->fd, elems, len, &done) == 0) return SC_OK;
    if (errno == EPIPE) return sc_writer_error(w, errno);
    /* A kernel or pipe that refuses vmsplice: write() does the rest. */
    w->pipe = 0;
    return put(w, (const char *)elems + done, len - done);
}

/* Raw bytes whatever the format: the one-line figures of --count. */
sc_status sc_writer_write_bytes(sc_writer *w, const void *buf, size_t len)
{
    w->figures = 1;             /* these bytes are the whole output */
    return put(w, buf, len);
}

sc_status sc_writer_drain(sc_writer *w)
{
    sc_status st = SC_OK;
    /* Empty output too is a gzip file: the end-of-file block. */
    if (w->o.fmt == SC_FMT_GZ && !w->figures)
        st = gz_status(w, sc_gzout_finish(w->gz));
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
    sc_gzout_free(w->gz);
    sc_zout_free(w->zout);
    free(w->text);
    free(w->swapped);
    free(w->path);
    free(w->tmp);
    free(w);
}

void sc_writer_stop_threads(sc_writer *w)
{
    sc_gzout_free(w->gz);
    w->gz = NULL;
    sc_zout_free(w->zout);
    w->zout = NULL;
}

/* A writer given up: its temporary removed, nothing renamed. */
void sc_writer_abort(sc_writer *w)
{
    if (!w) return;
    sc_writer_stop_threads(w);
    if (w->direct) close(w->fd);
    if (w->tmp) {
        if (w->fd >= 0) close(w->fd);
        unlink(w->tmp);
        sc_temp_unregister(w->tmp);
    }
    sc_writer_release(w);
}
