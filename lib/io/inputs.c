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
#include "io/reader_impl.h"
#include "io/zstdio.h"

const char *sc_input_name(const char *path)
{
    return strcmp(path, "-") == 0 ? "(standard input)" : path;
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

/* Opens a regular file to look at it, or standard input; -1 for anything
 * else: opening a FIFO would wait for its writer, and closing it again
 * would cut the writer off. */
static int open_regular(const char *path)
{
    struct stat st;
    if (strcmp(path, "-") == 0) return 0;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return -1;
    return open(path, O_RDONLY | O_NONBLOCK);
}

int64_t sc_inputs_size(const char *const *paths, size_t n, sc_format fmt)
{
    static const char *const stdin_path[] = { "-" };
    if (n == 0) { paths = stdin_path; n = 1; }
    if (fmt == SC_FMT_GZ || fmt == SC_FMT_ZST || fmt == SC_FMT_TEXT)
        return -1;
    int64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        int is_stdin = strcmp(paths[i], "-") == 0;
        int fd = open_regular(paths[i]);
        struct stat st;
        int ok = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
        off_t at = is_stdin && ok ? lseek(0, 0, SEEK_CUR) : 0;
        ok = ok && at >= 0 && at <= st.st_size;
        if (ok && fmt == SC_FMT_AUTO && is_compressed(sniff_file(fd, at)))
            ok = 0;
        if (fd > 0) close(fd);
        if (!ok) return -1;
        total += st.st_size - at;
    }
    return total;
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

/* A regular file in a format that is not read: under --in auto, and for
 * the compressed formats that are named and refused, under --in text. */
static sc_status check_kind(sc_ctx *ctx, const char *path, sc_format fmt)
{
    int is_stdin = strcmp(path, "-") == 0;
    int fd = open_regular(path);
    struct stat st;
    int kind = SC_KIND_RAW, packed = SC_KIND_RAW;
    off_t at = 0;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        at = is_stdin ? lseek(0, 0, SEEK_CUR) : 0;
        if (at >= 0) kind = sniff_file(fd, at);
    }
    if (fmt == SC_FMT_TEXT && (kind == SC_KIND_TEXT || kind == SC_KIND_CSV))
        kind = SC_KIND_RAW;
    if (fmt == SC_FMT_AUTO && is_compressed(kind) && !sc_kind_refused(kind)) {
        packed = kind;
        kind = sniff_decoded(fd, at, packed);
    }
    if (fd > 0) close(fd);
    if (!sc_kind_refused(kind)) return SC_OK;
    char msg[1024];
    sc_sniff_refusal(msg, sizeof msg, (sc_kind)kind, (sc_kind)packed,
                     sc_input_name(path), path);
    return sc_fail(ctx, SC_ERR_FORMAT, "%s", msg);
}

sc_status sc_inputs_check(sc_ctx *ctx, const char *const *paths, size_t n,
                          sc_format fmt)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(paths[i], "-") == 0) continue;
        struct stat st;
        int err = stat(paths[i], &st) != 0 ? errno
                : S_ISDIR(st.st_mode) ? EISDIR
                : access(paths[i], R_OK) != 0 ? errno : 0;
        if (err) return sc_fail(ctx, SC_ERR_OPEN, "%s: %s", paths[i],
                                strerror(err));
    }
    for (size_t i = 0; i < n && (fmt == SC_FMT_AUTO || fmt == SC_FMT_TEXT);
         i++) {
        sc_status st = check_kind(ctx, paths[i], fmt);
        if (st) return st;
    }
    return SC_OK;
}
