/* reader.c — input streams: FILE operands in order as one stream, each
 * raw, gzip or zstd (auto-detected or forced) or text, delivered as whole
 * uint32 elements straight into the caller's buffer.
 *
 * Under --in auto each FILE's first bytes decide how it is decoded
 * (detect.c), as zcat -f decides per file: a gzip file and a raw one may
 * be given together; a compressed file's first decoded bytes are judged
 * again, so that compressed text is refused as plain text is. What they
 * decode to is one stream. Regular files are judged when the reader
 * opens, so a refused one (xz, text, ...) stops the run before anything
 * is written; pipes are judged when reached. Text input may be gzip or
 * zstd too: its numbers are read in what it decodes to.
 *
 * Faults in the data are held back until every whole element decoded
 * before them has been delivered, so a tool writes all it could decode
 * and then reports the fault: a fault is an error after everything decoded
 * before it has been processed (sc(7), INPUT FORMATS).
 *
 * The files are one stream, as cat would join them: an element or a text
 * number may straddle two files (pieces cut by split -b join up again).
 * Text line numbers in messages count from each file's start.
 *
 * A pipe or terminal is read as it comes: when the producer stalls, the
 * elements already there go out as a short chunk rather than waiting for
 * a whole one, so a slow live stream flows through (the output does not
 * depend on chunk sizes, so this changes only when it appears).
 *
 * This file reads the files in turn and gathers raw elements; gzip and
 * zstd are decoded in codecs.c, text numbers parsed in text_in.c, and the
 * inputs are checked before reading in inputs.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "io/detect.h"
#include "io/io.h"
#include "io/reader_impl.h"

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
uint64_t sc_reader_bytes_read(const sc_reader *r)
{
    return atomic_load_explicit(&r->total_bytes, memory_order_relaxed);
}

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

ssize_t sc_reader_file_read(sc_reader *r, void *buf, size_t len)
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
    atomic_fetch_add_explicit(&r->total_bytes, (uint64_t)got,
                              memory_order_relaxed);
    return got;
}

/* Reads the file's first bytes into zbuf, where they stay as input: two
 * for the gzip magic, under auto what detect.c needs to judge it, under
 * text what tells a compressed file. A pipe may hand them over one byte
 * at a time. Returns their count, -1. */
static ssize_t peek(sc_reader *r)
{
    size_t want = r->fmt == SC_FMT_GZ ? 2 : SC_SNIFF_BLOCK, got = 0;
    while (got < want &&
           (r->fmt == SC_FMT_GZ ||
            (r->fmt == SC_FMT_TEXT ? sc_sniff_magic_wants_more
                                   : sc_sniff_wants_more)(r->zbuf, got))) {
        ssize_t more = sc_reader_file_read(r, r->zbuf + got, want - got);
        if (more < 0) return -1;
        if (more == 0) break;
        got += (size_t)more;
    }
    r->z.next_in = r->zbuf;
    r->z.avail_in = (uInt)got;
    return (ssize_t)got;
}

/* A refusal of this kind noted (-1); packed: as sc_sniff_refusal's. */
static int refuse(sc_reader *r, sc_kind kind, sc_kind packed)
{
    char msg[1024];
    sc_sniff_refusal(msg, sizeof msg, kind, packed, r->name,
                     r->paths[r->next_path - 1]);
    defer(r, SC_ERR_FORMAT, "%s", msg);
    return -1;
}

/* --in auto or text: the codec for the peeked bytes, or a refusal noted
 * (-1). Text input may be compressed; its numbers are read in what it
 * decodes to. */
static int pick_codec(sc_reader *r, size_t got)
{
    sc_kind kind = sc_sniff(r->zbuf, got);
    if (r->fmt == SC_FMT_TEXT && (kind == SC_KIND_TEXT || kind == SC_KIND_CSV))
        kind = SC_KIND_RAW;
    if (sc_kind_refused(kind)) return refuse(r, kind, SC_KIND_RAW);
    r->codec = kind == SC_KIND_GZ ? CODEC_GZ
             : kind == SC_KIND_ZST ? CODEC_ZST : CODEC_NONE;
    return 0;
}

/* --in auto, a compressed file: its first decoded bytes are judged as a
 * raw file's are, so that compressed text is refused too; they wait in
 * head to be delivered first. 1, or -1 when refused or on a fault. */
static int judge_decoded(sc_reader *r)
{
    r->head_len = r->head_pos = 0;
    while (!pending(r) && sc_sniff_text_wants_more(r->head, r->head_len)) {
        unsigned char *to = r->head + r->head_len;
        size_t room = sizeof r->head - r->head_len;
        ssize_t got = r->codec == CODEC_GZ ? sc_gz_read(r, to, room)
                                           : sc_zst_read(r, to, room);
        if (got <= 0) break;
        r->head_len += (size_t)got;
    }
    sc_kind kind = sc_sniff_text(r->head, r->head_len);
    if (kind == SC_KIND_RAW) return 1;
    r->head_len = 0;
    return refuse(r, kind, r->codec == CODEC_GZ ? SC_KIND_GZ : SC_KIND_ZST);
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
    int known = fstat(r->fd, &st) == 0;
    r->live = known && !S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode);
    r->reg_size = known && S_ISREG(st.st_mode) ? st.st_size : -1;
    r->codec = r->fmt == SC_FMT_GZ ? CODEC_GZ
             : r->fmt == SC_FMT_ZST ? CODEC_ZST : CODEC_NONE;
    r->z.avail_in = 0;
    if (r->fmt != SC_FMT_RAW && r->fmt != SC_FMT_ZST) {
        ssize_t got = peek(r);
        if (got < 0) return -1;
        if (r->fmt != SC_FMT_GZ && pick_codec(r, (size_t)got) < 0)
            return -1;
    }
    int started = r->codec == CODEC_GZ ? sc_gz_start(r)
                : r->codec == CODEC_ZST ? sc_zst_start(r) : 1;
    if (started > 0 && r->codec != CODEC_NONE && r->fmt == SC_FMT_AUTO)
        return judge_decoded(r);
    return started;
}

static void close_current(sc_reader *r)
{
    if (r->fd > 0) close(r->fd);
    r->fd = -1;
}

/* The judged start of a compressed file, then the rest. */
static size_t from_head(sc_reader *r, unsigned char *dst, size_t len)
{
    size_t n = r->head_len - r->head_pos;
    if (n > len) n = len;
    memcpy(dst, r->head + r->head_pos, n);
    r->head_pos += n;
    return n;
}

ssize_t sc_reader_next_bytes(sc_reader *r, unsigned char *dst, size_t len)
{
    for (;;) {
        if (r->head_pos < r->head_len) {
            size_t n = from_head(r, dst, len);
            r->decoded += n;
            return (ssize_t)n;
        }
        if (pending(r)) return -1;
        if (r->fd < 0) {
            int o = open_next(r);
            if (o <= 0) return o;
            continue;                   /* its judged start first */
        }
        ssize_t got;
        if (r->codec == CODEC_GZ) {
            got = sc_gz_read(r, dst, len);
        } else if (r->codec == CODEC_ZST) {
            got = sc_zst_read(r, dst, len);
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
                got = sc_reader_file_read(r, dst, len);
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

/* Raw (and gunzipped raw): whole elements, a partial one carried. */
static sc_status read_raw(sc_reader *r, uint32_t *buf, size_t max, size_t *got)
{
    unsigned char *bytes = (unsigned char *)buf;
    size_t want = max * 4, have = r->carry_len;
    memcpy(bytes, r->carry, have);
    r->carry_len = 0;
    while (have < want && !r->at_end) {
        if (r->z.avail_in == 0 && stalled(r, have)) break;
        ssize_t n = sc_reader_next_bytes(r, bytes + have, want - have);
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

sc_status sc_reader_fill(sc_reader *r, uint32_t *buf, size_t max, size_t *got)
{
    *got = 0;
    if (max == 0) return SC_OK;
    if (!pending(r))
        (r->fmt == SC_FMT_TEXT ? sc_text_read : read_raw)(r, buf, max, got);
    return *got == 0 ? pending(r) : SC_OK;
}

sc_status sc_reader_read(sc_reader *r, uint32_t *buf, size_t max, size_t *got)
{
    sc_status st = sc_reader_fill(r, buf, max, got);
    return st != SC_OK ? sc_reader_raise(r) : SC_OK;
}

/* A claim is a whole chunk of plain bytes inside the current regular
 * file, with nothing decoded or peeked waiting before it; the file's
 * offset moves past it, so that fill() goes on after it.  The caller
 * keeps fill() and the file's close waiting until its read is done. */
int sc_reader_claim(sc_reader *r, size_t max, sc_claim *cl)
{
    size_t want = max * 4;
    if (want == 0 || pending(r) || r->fmt == SC_FMT_TEXT || r->fd < 0 ||
        r->live || r->codec != CODEC_NONE || r->carry_len ||
        r->z.avail_in || r->at_end || r->reg_size < 0)
        return 0;
    off_t at = lseek(r->fd, 0, SEEK_CUR);
    if (at < 0 || r->reg_size - at < (off_t)want ||
        lseek(r->fd, at + (off_t)want, SEEK_SET) < 0)
        return 0;
    cl->fd = r->fd;
    cl->at = at;
    cl->len = want;
    r->file_bytes += want;
    r->decoded += want;
    return 1;
}

sc_status sc_reader_claim_read(sc_reader *r, const sc_claim *cl,
                               uint32_t *buf)
{
    ssize_t got = sc_pread_full(cl->fd, buf, cl->len, cl->at);
    if (got < 0) {
        defer(r, SC_ERR_IO, "%s: read error: %s", r->name, strerror(errno));
    } else if ((size_t)got < cl->len) {
        /* Its size was taken when it opened: what follows would be
         * another length of data than the one the chunks before it
         * stand on. */
        defer(r, SC_ERR_IO, "%s: the file shrank while it was read "
              "(at byte %llu)", r->name,
              (unsigned long long)(cl->at + got));
    } else {
        atomic_fetch_add_explicit(&r->total_bytes, (uint64_t)got,
                                  memory_order_relaxed);
    }
    return pending(r);
}

sc_status sc_reader_raise(sc_reader *r)
{
    return sc_fault_raise(&r->fault, r->ctx);
}
