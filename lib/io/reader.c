/* reader.c — input streams: FILE operands in order as one stream, each
 * raw, gzip or zstd (auto-detected or forced) or text, delivered as whole
 * uint32 elements straight into the caller's buffer.
 *
 * Under --in auto each FILE's first bytes decide how it is decoded
 * (detect.c), as zcat -f decides per file: a gzip file and a raw one may
 * be given together. What they decode to is one stream. Regular files are
 * judged when the reader opens, so a refused one (xz, text, ...) stops the
 * run before anything is written; pipes are judged when reached.
 *
 * Faults in the data are held back until every whole element decoded
 * before them has been delivered, so a tool writes all it could decode
 * and then reports the fault (SPEC: "what was decoded before the fault is
 * processed and written, then an error").
 *
 * The files are one stream, as cat would join them: an element or a text
 * number may straddle two files (pieces cut by split -b join up again).
 * Text line numbers in messages count from each file's start.
 *
 * A pipe or terminal is read as it comes: when the producer stalls, the
 * elements already there go out as a short chunk rather than waiting for
 * a whole one, so a slow live stream flows through (the output does not
 * depend on chunk sizes, so this changes only when it appears).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "detect.h"
#include "fault.h"
#include "fdio.h"
#include "inputs.h"
#include "pread.h"
#include "zstdio.h"

#define ZBUF_BYTES ((size_t)1 << 20)
#define TBUF_BYTES ((size_t)1 << 20)

struct sc_reader {
    sc_ctx *ctx;
    const char *const *paths;
    size_t n_paths, next_path;
    sc_format fmt;
    int fd;                     /* -1: between files */
    const char *name;           /* current file, for messages */
    enum { CODEC_NONE, CODEC_GZ, CODEC_ZST } codec;  /* current file's */
    int live;                   /* current file is a pipe, tty or socket */
    z_stream z;
    int z_ready, z_member_done;
    int z_padding;              /* zeros seen after the last member */
    sc_zin *zs;
    int zs_frame_done;          /* zstd: at a frame boundary */
    int zs_more;                /* zstd: output was full, may hold more */
    unsigned char *zbuf;        /* compressed input; before a raw file's
                                 * data, its bytes peeked at for the magic */
    uint64_t file_bytes;        /* bytes taken from the current file */
    uint64_t total_bytes;       /* from all files, for progress */
    uint64_t decoded;           /* decoded bytes of the whole stream */
    unsigned char carry[4];     /* a partial element between reads */
    unsigned carry_len;
    char *tbuf;                 /* text: undigested bytes */
    size_t tlen, tpos;
    uint64_t line;              /* text: current line, 1-based */
    int64_t size_hint;
    sc_preader *par;            /* regular files: reads by several threads */
    int par_tried;
    int at_end;
    sc_fault fault;             /* to report once the data before it is out */
};

/* Holds a fault back, to report after the data decoded before it. */
static void defer(sc_reader *r, sc_status st, const char *fmt, ...)
    SC_PRINTF(3, 4);
static void defer(sc_reader *r, sc_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sc_fault_vset(&r->fault, st, fmt, ap);
    va_end(ap);
}

/* The status of the fault held back, SC_OK while none is. */
static sc_status pending(const sc_reader *r)
{
    return sc_fault_status(&r->fault);
}

static const char *const stdin_only[] = { "-" };

sc_status sc_reader_open(sc_reader **out, sc_ctx *ctx, const char *const *paths,
                         size_t n, sc_format fmt)
{
    *out = NULL;
    if (!ctx || (n && !paths) || (unsigned)fmt > SC_FMT_ZST)
        return ctx ? sc_fail(ctx, SC_ERR_USAGE, "sc_reader_open: bad argument")
                   : SC_ERR_USAGE;
    if (fmt == SC_FMT_ZST && !sc_zstd_built())
        return sc_fail(ctx, SC_ERR_USAGE, "zstd input: this libsc was built "
                       "without zstd");
    if (n == 0) { paths = stdin_only; n = 1; }
    sc_status st = sc_inputs_check(ctx, paths, n, fmt);
    if (st) return st;
    sc_reader *r = calloc(1, sizeof *r);
    if (!r) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    r->ctx = ctx;
    r->paths = paths;
    r->n_paths = n;
    r->fmt = fmt;
    r->fd = -1;
    r->line = 1;
    r->zbuf = malloc(ZBUF_BYTES);
    r->tbuf = fmt == SC_FMT_TEXT ? malloc(TBUF_BYTES + 1) : NULL;
    if (!r->zbuf || (fmt == SC_FMT_TEXT && !r->tbuf)) {
        sc_reader_close(r);
        return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    }
    r->size_hint = sc_inputs_size(paths, n, fmt);
    *out = r;
    return SC_OK;
}

void sc_reader_close(sc_reader *r)
{
    if (!r) return;
    if (r->fd > 0) close(r->fd);
    if (r->z_ready) inflateEnd(&r->z);
    sc_preader_free(r->par);
    sc_zin_free(r->zs);
    free(r->zbuf);
    free(r->tbuf);
    free(r);
}

int64_t sc_reader_size_hint(const sc_reader *r) { return r->size_hint; }
uint64_t sc_reader_bytes_read(const sc_reader *r) { return r->total_bytes; }

/* Large reads of a regular file go to several threads: half the
 * context's, leaving the rest to the work on what was read. */
#define PAR_READ_MIN ((size_t)2 << 20)

static ssize_t whole_read(sc_reader *r, void *buf, size_t len)
{
    if (len >= PAR_READ_MIN && !r->par_tried) {
        r->par_tried = 1;
        unsigned t = r->ctx->threads / 2;
        r->par = sc_preader_new(t > 8 ? 8 : t);
    }
    return r->par && len >= PAR_READ_MIN ? sc_preader_read(r->par, r->fd, buf, len)
                                         : sc_read_full(r->fd, buf, len);
}

/* Reads bytes of the current file, counting them. */
static ssize_t file_read(sc_reader *r, void *buf, size_t len)
{
    ssize_t got;
    if (r->live) {
        /* A pipeline stopped by a failure elsewhere may cancel a read
         * that waits on a slow input; nothing is held across it. */
        int old;
        pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old);
        got = sc_read_some(r->fd, buf, len);
        pthread_setcancelstate(old, NULL);
    } else {
        got = whole_read(r, buf, len);
    }
    if (got < 0) {
        defer(r, SC_ERR_IO, "%s: read error: %s", r->name, strerror(errno));
        return -1;
    }
    r->file_bytes += (uint64_t)got;
    r->total_bytes += (uint64_t)got;
    return got;
}

/* Reads the file's first bytes into zbuf, where they stay as input: two
 * for the gzip magic, or under auto what detect.c needs to judge it. A
 * pipe may hand them over one byte at a time. Returns their count, -1. */
static ssize_t peek(sc_reader *r)
{
    size_t want = r->fmt == SC_FMT_GZ ? 2 : SC_SNIFF_BLOCK, got = 0;
    while (got < want &&
           (r->fmt == SC_FMT_GZ || sc_sniff_wants_more(r->zbuf, got))) {
        ssize_t more = file_read(r, r->zbuf + got, want - got);
        if (more < 0) return -1;
        if (more == 0) break;
        got += (size_t)more;
    }
    r->z.next_in = r->zbuf;
    r->z.avail_in = (uInt)got;
    return (ssize_t)got;
}

/* --in auto: the codec for the peeked bytes, or a refusal noted (-1). */
static int pick_codec(sc_reader *r, size_t got)
{
    sc_kind kind = sc_sniff(r->zbuf, got);
    if (sc_kind_refused(kind)) {
        char msg[1024];
        sc_sniff_refusal(msg, sizeof msg, kind, r->name,
                         r->paths[r->next_path - 1]);
        defer(r, SC_ERR_FORMAT, "%s", msg);
        return -1;
    }
    r->codec = kind == SC_KIND_GZ ? CODEC_GZ
             : kind == SC_KIND_ZST ? CODEC_ZST : CODEC_NONE;
    return 0;
}

static int start_gz(sc_reader *r)
{
    if (!r->z_ready) {
        if (inflateInit2(&r->z, 16 + MAX_WBITS) != Z_OK) {
            defer(r, SC_ERR_NOMEM, "out of memory for gzip");
            return -1;
        }
        r->z_ready = 1;
    } else {
        inflateReset(&r->z);
    }
    /* An empty file is a gzip stream of no members: no data, no fault. */
    r->z_member_done = r->z.avail_in == 0;
    r->z_padding = 0;
    return 1;
}

static int start_zst(sc_reader *r)
{
    if (!r->zs && !(r->zs = sc_zin_new())) {
        defer(r, SC_ERR_NOMEM, "out of memory for zstd");
        return -1;
    }
    sc_zin_reset(r->zs);
    /* Like gzip: an empty file is no frames, no fault. */
    r->zs_frame_done = 1;
    r->zs_more = 0;
    return 1;
}

/* Opens the next input and decides its format; 0 at the end, -1 on error. */
static int open_next(sc_reader *r)
{
    if (r->next_path >= r->n_paths) return 0;
    const char *path = r->paths[r->next_path++];
    r->name = sc_input_name(path);
    r->file_bytes = 0;
    r->line = 1;
    if (strcmp(path, "-") == 0) {
        r->fd = 0;
    } else {
        r->fd = open(path, O_RDONLY);
        if (r->fd < 0) {
            defer(r, SC_ERR_OPEN, "%s: %s", path, strerror(errno));
            return -1;
        }
    }
    sc_grow_pipe(r->fd);
    struct stat st;
    r->live = fstat(r->fd, &st) == 0 && !S_ISREG(st.st_mode) &&
              !S_ISBLK(st.st_mode);
    r->codec = r->fmt == SC_FMT_GZ ? CODEC_GZ
             : r->fmt == SC_FMT_ZST ? CODEC_ZST : CODEC_NONE;
    r->z.avail_in = 0;
    if (r->fmt == SC_FMT_AUTO || r->fmt == SC_FMT_GZ) {
        ssize_t got = peek(r);
        if (got < 0) return -1;
        if (r->fmt == SC_FMT_AUTO && pick_codec(r, (size_t)got) < 0)
            return -1;
    }
    if (r->codec == CODEC_GZ) return start_gz(r);
    if (r->codec == CODEC_ZST) return start_zst(r);
    return 1;
}

static void close_current(sc_reader *r)
{
    if (r->fd > 0) close(r->fd);
    r->fd = -1;
}

/* A live input with data in hand but nothing more for a while: time to
 * hand over what there is. */
#define STALL_MS 50

static int stalled(const sc_reader *r, size_t have_bytes)
{
    return r->live && have_bytes >= 4 && r->fd >= 0 &&
           sc_read_would_wait(r->fd, STALL_MS);
}

/* After a member's end, with input in hand: zeros up to the file's end are
 * padding (tape or block), as gzip -d takes them; the magic starts another
 * member; anything else, also after padding, is garbage. 1: read more
 * input first; 0: inflate the next member; -1: a fault was noted. */
static int next_member(sc_reader *r)
{
    while (r->z.avail_in && r->z.next_in[0] == 0) {
        r->z.next_in++;
        r->z.avail_in--;
        r->z_padding = 1;
    }
    if (r->z.avail_in == 0) return 1;
    if (r->z.next_in[0] == 0x1f && !r->z_padding) {
        inflateReset(&r->z);
        r->z_member_done = 0;
        return 0;
    }
    defer(r, SC_ERR_GZIP, "%s: trailing garbage after gzip data at byte %llu",
          r->name, (unsigned long long)(r->file_bytes - r->z.avail_in));
    return -1;
}

/* Inflates into dst; returns bytes produced, 0 at the file's end, -1. */
static ssize_t gz_read(sc_reader *r, unsigned char *dst, size_t len)
{
    r->z.next_out = dst;
    r->z.avail_out = (uInt)(len > UINT32_MAX ? UINT32_MAX : len);
    while (r->z.avail_out > 0) {
        if (r->z.avail_in == 0) {
            if (stalled(r, (size_t)((unsigned char *)r->z.next_out - dst)))
                break;
            ssize_t got = file_read(r, r->zbuf, ZBUF_BYTES);
            if (got < 0) break;
            if (got == 0) {
                if (!r->z_member_done)
                    defer(r, SC_ERR_GZIP, "%s: truncated gzip data (unexpected "
                          "end after %llu compressed bytes)", r->name,
                          (unsigned long long)r->file_bytes);
                break;
            }
            r->z.next_in = r->zbuf;
            r->z.avail_in = (uInt)got;
        }
        if (r->z_member_done) {
            int next = next_member(r);
            if (next < 0) break;
            if (next > 0) continue;
        }
        int ret = inflate(&r->z, Z_NO_FLUSH);
        if (ret == Z_STREAM_END) {
            r->z_member_done = 1;
        } else if (ret != Z_OK && ret != Z_BUF_ERROR) {
            defer(r, SC_ERR_GZIP, "%s: corrupt gzip data near compressed byte "
                  "%llu: %s", r->name, (unsigned long long)(r->file_bytes -
                  r->z.avail_in), r->z.msg ? r->z.msg : "inflate failed");
            break;
        }
    }
    size_t produced = (size_t)((unsigned char *)r->z.next_out - dst);
    if (produced == 0 && pending(r)) return -1;
    return (ssize_t)produced;
}

/* Decodes zstd frames into dst, as gz_read does gzip members: bytes
 * produced, 0 at the file's end, -1. */
static ssize_t zs_read(sc_reader *r, unsigned char *dst, size_t len)
{
    size_t out = 0;
    while (out < len) {
        if (r->z.avail_in == 0 && !r->zs_more) {
            if (stalled(r, out)) break;
            ssize_t got = file_read(r, r->zbuf, ZBUF_BYTES);
            if (got < 0) break;
            if (got == 0) {
                if (!r->zs_frame_done)
                    defer(r, SC_ERR_ZSTD, "%s: truncated zstd data (unexpected "
                          "end after %llu compressed bytes)", r->name,
                          (unsigned long long)r->file_bytes);
                break;
            }
            r->z.next_in = r->zbuf;
            r->z.avail_in = (uInt)got;
        }
        size_t used = 0, before = out;
        int done;
        const char *err;
        int rc = sc_zin_decode(r->zs, r->z.next_in, r->z.avail_in, &used,
                               dst, len, &out, &done, &err);
        r->z.next_in += used;
        r->z.avail_in -= (uInt)used;
        if (rc) {
            defer(r, SC_ERR_ZSTD, "%s: corrupt zstd data near compressed byte "
                  "%llu: %s", r->name, (unsigned long long)(r->file_bytes -
                  r->z.avail_in), err);
            break;
        }
        /* A call that moved nothing says nothing new about the frame. */
        if (used || out > before) r->zs_frame_done = done;
        /* A full output may leave decoded bytes inside libzstd. */
        r->zs_more = out == len;
    }
    if (out == 0 && pending(r)) return -1;
    return (ssize_t)out;
}

/* Decoded bytes of the current file, opening the next one first when the
 * last has ended: >0; 0 at the end of a file (and when no file is left,
 * with more_files() false); -1 on a fault. */
static ssize_t src_read(sc_reader *r, unsigned char *dst, size_t len)
{
    for (;;) {
        if (pending(r)) return -1;
        if (r->fd < 0) {
            int o = open_next(r);
            if (o <= 0) return o;
        }
        ssize_t got;
        if (r->codec == CODEC_GZ) {
            got = gz_read(r, dst, len);
        } else if (r->codec == CODEC_ZST) {
            got = zs_read(r, dst, len);
        } else {
            /* Bytes peeked for the magic come first, on their own: a
             * live input may have nothing more for a while. */
            size_t pre = r->z.avail_in < len ? r->z.avail_in : len;
            if (pre) {
                memcpy(dst, r->z.next_in, pre);
                r->z.next_in += pre;
                r->z.avail_in -= (uInt)pre;
                got = (ssize_t)pre;
            } else {
                got = file_read(r, dst, len);
                if (got < 0) return -1;
            }
        }
        if (got > 0) {
            r->decoded += (uint64_t)got;
            return got;
        }
        if (got < 0) return -1;
        close_current(r);
        return 0;
    }
}

static int more_files(const sc_reader *r)
{
    return r->fd >= 0 || r->next_path < r->n_paths;
}

/* Raw (and gunzipped raw): whole elements, a partial one carried. */
static sc_status read_raw(sc_reader *r, uint32_t *buf, size_t max, size_t *got)
{
    unsigned char *bytes = (unsigned char *)buf;
    size_t want = max * 4, have = r->carry_len;
    memcpy(bytes, r->carry, have);
    r->carry_len = 0;
    while (have < want && !r->at_end) {
        if (r->z.avail_in == 0 && stalled(r, have)) break;
        ssize_t n = src_read(r, bytes + have, want - have);
        if (n < 0) break;
        if (n == 0 && !more_files(r)) r->at_end = 1;
        have += (size_t)n;
    }
    *got = have / 4;
    r->carry_len = (unsigned)(have % 4);
    memcpy(r->carry, bytes + *got * 4, r->carry_len);
    if (*got == 0 && r->at_end && r->carry_len && !pending(r)) {
        unsigned stray = r->carry_len;
        defer(r, SC_ERR_PARTIAL, "%s: the input ends with %u stray byte%s "
              "after %llu whole element%s (byte offset %llu%s)", r->name,
              stray, stray == 1 ? "" : "s",
              (unsigned long long)(r->decoded / 4),
              r->decoded / 4 == 1 ? "" : "s",
              (unsigned long long)(r->decoded - stray),
              r->n_paths > 1 ? " of the joined input files" : "");
    }
    return SC_OK;
}

static int is_space(char c)
{
    return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' ||
           c == '\f';
}

/* Parses one token; returns 0 and the value, or -1 / -2 (range). */
static int parse_token(const char *s, size_t len, uint32_t *v)
{
    uint64_t x = 0;
    size_t i = 0;
    int hex = len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    if (hex) i = 2;
    if (len == 0 || (hex && len == 2)) return -1;
    for (; i < len; i++) {
        unsigned d;
        char c = s[i];
        if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
        else if (hex && c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
        else if (hex && c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
        else return -1;
        x = x * (hex ? 16 : 10) + d;
        if (x > UINT32_MAX) return -2;
    }
    *v = (uint32_t)x;
    return 0;
}

/* A token as a message may show it: bytes that are not printable ASCII
 * (a NUL, say) as \xHH, and at most 40 of them. */
static void printable(char *dst, size_t cap, const char *s, size_t len)
{
    size_t o = 0;
    for (size_t i = 0; i < len && i < 40 && o + 5 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f) dst[o++] = (char)c;
        else o += (size_t)snprintf(dst + o, cap - o, "\\x%02x", c);
    }
    dst[o] = 0;
}

static sc_status read_text(sc_reader *r, uint32_t *buf, size_t max, size_t *got)
{
    size_t n = 0;
    while (n < max) {
        while (r->tpos < r->tlen && is_space(r->tbuf[r->tpos])) {
            if (r->tbuf[r->tpos] == '\n') r->line++;
            r->tpos++;
        }
        size_t end = r->tpos;
        while (end < r->tlen && !is_space(r->tbuf[end])) end++;
        if (end == r->tlen && !r->at_end) {
            /* The token may go on past the buffer: refill first. */
            memmove(r->tbuf, r->tbuf + r->tpos, r->tlen - r->tpos);
            r->tlen -= r->tpos;
            r->tpos = 0;
            if (r->tlen == TBUF_BYTES) {
                defer(r, SC_ERR_TEXT, "%s: line %llu: token too long", r->name,
                      (unsigned long long)r->line);
                break;
            }
            if (n > 0 && r->z.avail_in == 0 && stalled(r, 4)) break;
            ssize_t k = src_read(r, (unsigned char *)r->tbuf + r->tlen,
                                 TBUF_BYTES - r->tlen);
            if (k < 0) break;
            if (k == 0 && !more_files(r)) r->at_end = 1;
            r->tlen += (size_t)k;
            continue;
        }
        if (r->tpos == end) break;              /* nothing but space left */
        uint32_t v;
        int e = parse_token(r->tbuf + r->tpos, end - r->tpos, &v);
        if (e) {
            char shown[64];
            printable(shown, sizeof shown, r->tbuf + r->tpos, end - r->tpos);
            defer(r, e == -2 ? SC_ERR_RANGE : SC_ERR_TEXT,
                  "%s: line %llu: %s '%s'", r->name,
                  (unsigned long long)r->line,
                  e == -2 ? "number above 4294967295" : "malformed number",
                  shown);
            break;
        }
        buf[n++] = v;
        r->tpos = end;
    }
    *got = n;
    return SC_OK;
}

sc_status sc_reader_fill(sc_reader *r, uint32_t *buf, size_t max, size_t *got)
{
    *got = 0;
    if (max == 0) return SC_OK;
    if (!pending(r))
        (r->fmt == SC_FMT_TEXT ? read_text : read_raw)(r, buf, max, got);
    return *got == 0 ? pending(r) : SC_OK;
}

sc_status sc_reader_read(sc_reader *r, uint32_t *buf, size_t max, size_t *got)
{
    sc_status st = sc_reader_fill(r, buf, max, got);
    return st != SC_OK ? sc_reader_raise(r) : SC_OK;
}

sc_status sc_reader_raise(sc_reader *r)
{
    return sc_fault_raise(&r->fault, r->ctx);
}
