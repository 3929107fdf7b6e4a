/* reader_bytes.c — the reader's FILE operands in turn as one stream of
 * decoded bytes: each opened when the one before it ends, its format
 * decided from its first bytes under --in auto and text (detect.c), and
 * decoded by codecs.c where compressed. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "io/detect.h"
#include "io/io.h"
#include "io/reader_impl.h"

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
    const sc_input *in = &r->inputs[r->next_path - 1];
    /* A regular file was judged when it was checked. */
    sc_kind kind = in->packed ? (sc_kind)in->packed
                 : in->kind >= 0 ? (sc_kind)in->kind : sc_sniff(r->zbuf, got);
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
        ssize_t got = sc_decode(r, to, room);
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
    sc_input *in = &r->inputs[r->next_path];
    const char *path = r->paths[r->next_path++];
    r->name = sc_input_name(path);
    r->file_bytes = 0;
    r->line = 1;
    if (in->fd >= 0 || in->fd_is_stdin) {
        r->fd = in->fd_is_stdin ? 0 : in->fd;
        in->fd = -1;                    /* the reader's to close now */
    } else if (strcmp(path, "-") == 0) {
        r->fd = 0;
    } else {
        r->fd = open(path, O_RDONLY);
        if (r->fd < 0) {
            defer(r, SC_ERR_OPEN, "%s: %s", path, strerror(errno));
            return -1;
        }
    }
    if (in->size >= 0) {
        r->live = 0;
        r->reg_size = in->at + in->size;
    } else {
        sc_grow_pipe(r->fd);
        struct stat st;
        int known = fstat(r->fd, &st) == 0;
        r->live = known && !S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode);
        r->reg_size = known && S_ISREG(st.st_mode) ? st.st_size : -1;
    }
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
    if (started > 0 && r->codec != CODEC_NONE) started = sc_decode_begin(r);
    /* A regular file's decoded start was judged when it was checked. */
    if (started > 0 && r->codec != CODEC_NONE && r->fmt == SC_FMT_AUTO &&
        !in->packed)
        return judge_decoded(r);
    return started;
}

int sc_reader_open_current(sc_reader *r)
{
    if (r->fd >= 0) return 1;
    return pending(r) ? -1 : open_next(r);
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
        if (r->codec != CODEC_NONE) {
            got = sc_decode(r, dst, len);
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
