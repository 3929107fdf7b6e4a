/* inputs.c — what is known of the inputs before they are read: their
 * names in messages, their size when a regular file tells it, and the
 * refusals made before anything is written (a missing or unreadable
 * file, or under --in auto a format that is not read). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "io/detect.h"
#include "io/io.h"
#include "io/bgzf.h"
#include "io/par.h"
#include "io/reader_impl.h"
#include "io/zstdio.h"

const char *sc_input_name(const char *path)
{
    return strcmp(path, "-") == 0 ? "(standard input)" : path;
}

sc_status sc_inputs_named(sc_ctx *ctx, const char *const *paths, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (!paths[k])
            return sc_fail(ctx, SC_ERR_USAGE, "input %zu's name is NULL", k);
    return SC_OK;
}

/* What a regular file at offset at is under --in auto, from its first
 * block; the file position does not move. -1: it cannot be read. */
static int sniff_file(int fd, off_t at)
{
    unsigned char b[SC_SNIFF_BLOCK];
    ssize_t n = pread(fd, b, sizeof b, at);
    return n < 0 ? -1 : (int)sc_sniff(b, (size_t)n);
}

static int is_compressed(int kind)
{
    return kind == SC_KIND_GZ || kind == SC_KIND_ZST;
}

int sc_kind_refused(int kind)
{
    return kind >= SC_KIND_XZ || (kind == SC_KIND_ZST && !sc_zstd_built());
}

/* Compressed bytes read to judge what a compressed file decodes to:
 * enough for a block of text at any ratio a text compresses at. */
#define SNIFF_PACKED ((size_t)64 << 10)

/* What the gzip or zstd file at offset at decodes to, judged as a raw
 * file is (SC_KIND_RAW when that cannot be read). */
static sc_kind sniff_decoded(int fd, off_t at, sc_kind packed)
{
    unsigned char *in = malloc(SNIFF_PACKED);
    unsigned char out[SC_SNIFF_BLOCK];
    ssize_t n = in ? pread(fd, in, SNIFF_PACKED, at) : -1;
    size_t made = n > 0 ? sc_decode_head(packed, in, (size_t)n, out,
                                         sizeof out) : 0;
    free(in);
    return sc_sniff_text(out, made);
}

/* What the first unit of the compressed file at offset at decodes to,
 * where claims may take it (a BGZF member: at most 64 KiB; a zstd frame
 * that carries its size), else 0. */
static size_t first_unit(int fd, off_t at, int zstd)
{
    unsigned char head[64];
    ssize_t n = pread(fd, head, sizeof head, at);
    if (n <= 0) return 0;
    if (zstd) return sc_zframe_first_size(head, (size_t)n);
    return sc_bgzf_block_size(head, (size_t)n) > 0 ? SC_BGZF_MAX_BLOCK : 0;
}

/* Inputs kept open from their check to their read, at most: a command
 * line of thousands of files is checked in full but reopened as read. */
#define KEEP_OPEN 64

/* One input looked at: standard input, or a path stat'ed once and, when
 * a regular file, opened once.  Its kind is judged where fmt asks. */
static sc_status look_at(sc_ctx *ctx, const char *path, sc_format fmt,
                         int keep, sc_input *in)
{
    struct stat st;
    int is_stdin = strcmp(path, "-") == 0;
    *in = (sc_input){ .fd = -1, .size = -1, .kind = -1 };
    if (is_stdin ? fstat(0, &st) != 0 : stat(path, &st) != 0) {
        if (is_stdin) return SC_OK;     /* closed: the read says so */
        return sc_fail(ctx, SC_ERR_OPEN, "%s: %s", path, strerror(errno));
    }
    if (S_ISDIR(st.st_mode))
        return sc_fail(ctx, SC_ERR_OPEN, "%s: %s", path, strerror(EISDIR));
    /* A FIFO is not opened here: that would wait for its writer, and
     * closing it again would cut the writer off. */
    if (!S_ISREG(st.st_mode)) {
        if (!is_stdin && access(path, R_OK) != 0)
            return sc_fail(ctx, SC_ERR_OPEN, "%s: %s", path,
                           strerror(errno));
        return SC_OK;
    }
    int fd = is_stdin ? 0 : open(path, O_RDONLY);
    if (fd < 0)
        return sc_fail(ctx, SC_ERR_OPEN, "%s: %s", path, strerror(errno));
    in->at = is_stdin ? lseek(0, 0, SEEK_CUR) : 0;
    if (in->at >= 0 && in->at <= st.st_size) in->size = st.st_size - in->at;
    if (fmt == SC_FMT_AUTO || fmt == SC_FMT_TEXT)
        in->kind = in->size >= 0 ? sniff_file(fd, in->at) : -1;
    if (is_compressed(in->kind) && fmt == SC_FMT_AUTO &&
        !sc_kind_refused(in->kind)) {
        in->packed = in->kind;
        in->kind = sniff_decoded(fd, in->at, (sc_kind)in->packed);
    }
    int gz = fmt == SC_FMT_GZ || in->packed == SC_KIND_GZ;
    if (in->size >= 0 && (gz || fmt == SC_FMT_ZST || in->packed == SC_KIND_ZST))
        in->unit = first_unit(fd, in->at, !gz);
    if (keep && !is_stdin) in->fd = fd;
    else if (!is_stdin) close(fd);
    in->fd_is_stdin = is_stdin;
    return SC_OK;
}

/* A regular file in a format that is not read: under --in auto, and for
 * the compressed formats that are named and refused, under --in text. */
static sc_status check_kind(sc_ctx *ctx, const char *path, sc_format fmt,
                            const sc_input *in)
{
    int kind = in->kind < 0 ? SC_KIND_RAW : in->kind;
    if (fmt == SC_FMT_TEXT && (kind == SC_KIND_TEXT || kind == SC_KIND_CSV))
        kind = SC_KIND_RAW;
    if (!sc_kind_refused(kind)) return SC_OK;
    char msg[1024];
    sc_sniff_refusal(msg, sizeof msg, (sc_kind)kind,
                     (sc_kind)(in->packed ? in->packed : SC_KIND_RAW),
                     sc_input_name(path), path);
    return sc_fail(ctx, SC_ERR_FORMAT, "%s", msg);
}

void sc_inputs_release(sc_input *in, size_t n)
{
    for (size_t i = 0; in && i < n; i++)
        if (in[i].fd > 0) close(in[i].fd);
    free(in);
}

/* Every input is looked at before any is refused for its kind, as a
 * missing file is the first thing to say. */
sc_status sc_inputs_scan(sc_ctx *ctx, const char *const *paths, size_t n,
                         sc_format fmt, sc_input **out)
{
    sc_status named = sc_inputs_named(ctx, paths, n);
    if (named) return named;
    sc_input *in = calloc(n ? n : 1, sizeof *in);
    if (!in) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    sc_status st = SC_OK;
    size_t i = 0;
    for (; i < n && st == SC_OK; i++)
        st = look_at(ctx, paths[i], fmt, out && i < KEEP_OPEN, &in[i]);
    for (size_t k = 0; st == SC_OK && k < n; k++)
        if (fmt == SC_FMT_AUTO || fmt == SC_FMT_TEXT)
            st = check_kind(ctx, paths[k], fmt, &in[k]);
    if (st != SC_OK || !out) {
        sc_inputs_release(in, i);
        return st;
    }
    *out = in;
    return SC_OK;
}

sc_status sc_inputs_check(sc_ctx *ctx, const char *const *paths, size_t n,
                          sc_format fmt)
{
    return sc_inputs_scan(ctx, paths, n, fmt, NULL);
}

int64_t sc_inputs_known_size(const sc_input *in, size_t n, sc_format fmt)
{
    if (fmt == SC_FMT_GZ || fmt == SC_FMT_ZST || fmt == SC_FMT_TEXT)
        return -1;
    int64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        if (in[i].size < 0 || in[i].packed ||
            (fmt == SC_FMT_AUTO && is_compressed(in[i].kind)))
            return -1;
        total += in[i].size;
    }
    return total;
}

int64_t sc_inputs_size(const char *const *paths, size_t n, sc_format fmt)
{
    static const char *const stdin_path[] = { "-" };
    if (n == 0) { paths = stdin_path; n = 1; }
    sc_input *in = NULL;
    /* No context: a fault here is only an unknown size; the read says it. */
    int64_t size = sc_inputs_scan(NULL, paths, n, fmt, &in) == SC_OK
                 ? sc_inputs_known_size(in, n, fmt) : -1;
    sc_inputs_release(in, in ? n : 0);
    return size;
}
