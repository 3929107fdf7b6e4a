/* codecs.c — gzip and zstd input: the members or frames of one file
 * after another, decoded into the caller's buffer.  As gzip -d does,
 * members follow one another and zeros up to the end are padding; a
 * fault is held back (defer) until what was decoded before it is out. */
#include <stdlib.h>
#include <string.h>
#ifdef SC_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif
#include "io/reader_impl.h"

/* A stream of gzip members goes through ISA-L's inflate where built with
 * it, about twice as fast as zlib's; r->z then only holds the input and
 * output cursors. */
#ifdef SC_HAVE_ISAL
const char sc_gz_engine[] = "ISA-L";

static void gz_reset(sc_reader *r)
{
    isal_inflate_init(r->isal);
    r->isal->crc_flag = ISAL_GZIP;
    r->z_fault = NULL;
}

static int gz_new(sc_reader *r)
{
    if (!r->isal && !(r->isal = malloc(sizeof *r->isal))) return -1;
    gz_reset(r);
    return 0;
}

static const char *isal_why(int ret)
{
    switch (ret) {
    case ISAL_INVALID_BLOCK: return "invalid block";
    case ISAL_INVALID_SYMBOL: return "invalid code";
    case ISAL_INVALID_LOOKBACK: return "invalid distance too far back";
    case ISAL_INVALID_WRAPPER: return "incorrect header check";
    case ISAL_UNSUPPORTED_METHOD: return "unknown compression method";
    case ISAL_INCORRECT_CHECKSUM: return "incorrect data check";
    default: return "inflate failed";
    }
}

/* Whether the inflater holds decoded bytes not yet given out: into a short
 * output ISA-L decodes through a buffer of its own (up to 64 KiB), which it
 * empties on the next calls, input or not. */
static int gz_holds(const sc_reader *r)
{
    return r->isal->tmp_out_valid > r->isal->tmp_out_processed;
}

/* After a fault ISA-L still holds the bytes it decoded before it; another
 * inflate would decode on past the fault, so they are copied out here, and
 * the fault comes (-1) once none is left. */
static int gz_drain(sc_reader *r, const char **why)
{
    struct inflate_state *s = r->isal;
    uint32_t n = (uint32_t)(s->tmp_out_valid - s->tmp_out_processed);
    if (n > r->z.avail_out) n = r->z.avail_out;
    memcpy(r->z.next_out, s->tmp_out_buffer + s->tmp_out_processed, n);
    s->tmp_out_processed += (int32_t)n;
    r->z.next_out += n;
    r->z.avail_out -= n;
    if (gz_holds(r)) return 0;
    *why = r->z_fault;
    return -1;
}

/* 1 at a member's end, 0 going on, -1 with *why. */
static int gz_step(sc_reader *r, const char **why)
{
    struct inflate_state *s = r->isal;
    if (r->z_fault) return gz_drain(r, why);
    s->next_in = r->z.next_in;
    s->avail_in = r->z.avail_in;
    s->next_out = r->z.next_out;
    s->avail_out = r->z.avail_out;
    int ret = isal_inflate(s);
    r->z.next_in = s->next_in;
    r->z.avail_in = s->avail_in;
    r->z.next_out = s->next_out;
    r->z.avail_out = s->avail_out;
    if (ret < 0 || ret == ISAL_NEED_DICT) {
        r->z_fault = isal_why(ret);
        return gz_drain(r, why);
    }
    return s->block_state == ISAL_BLOCK_FINISH;
}
#else
const char sc_gz_engine[] = "zlib";

static void gz_reset(sc_reader *r) { inflateReset(&r->z); }

static int gz_new(sc_reader *r)
{
    if (r->z_ready) {
        inflateReset(&r->z);
        return 0;
    }
    if (inflateInit2(&r->z, 16 + MAX_WBITS) != Z_OK) return -1;
    r->z_ready = 1;
    return 0;
}

static int gz_step(sc_reader *r, const char **why)
{
    int ret = inflate(&r->z, Z_NO_FLUSH);
    if (ret == Z_STREAM_END) return 1;
    if (ret == Z_OK || ret == Z_BUF_ERROR) return 0;
    *why = r->z.msg ? r->z.msg : "inflate failed";
    return -1;
}

/* zlib writes all it decodes straight into the output. */
static int gz_holds(const sc_reader *r)
{
    (void)r;
    return 0;
}
#endif

int sc_gz_start(sc_reader *r)
{
    if (gz_new(r) != 0) {
        defer(r, SC_ERR_NOMEM, "out of memory for gzip");
        return -1;
    }
    /* An empty file is a gzip stream of no members: no data, no fault. */
    r->z_member_done = r->z.avail_in == 0;
    r->z_padding = 0;
    return 1;
}

int sc_zst_start(sc_reader *r)
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
        gz_reset(r);
        r->z_member_done = 0;
        return 0;
    }
    defer(r, SC_ERR_GZIP, "%s: trailing garbage after gzip data at byte %llu",
          r->name, (unsigned long long)(r->file_bytes - r->z.avail_in));
    return -1;
}

/* More compressed input into zbuf for a codec (st and name for its
 * message) that has `have` bytes decoded so far: 1 when refilled; 0 to
 * stop here, when a live input stalls, on a read fault, or at the file's
 * end (which, unless at a unit's end, cuts the last member or frame
 * short: a fault). */
static int refill(sc_reader *r, size_t have, int at_unit_end, sc_status st,
                  const char *name)
{
    if (stalled(r, have)) return 0;
    ssize_t got = sc_reader_file_read(r, r->zbuf, ZBUF_BYTES);
    if (got < 0) return 0;
    if (got == 0) {
        if (!at_unit_end)
            defer(r, st, "%s: truncated %s data (unexpected end after %llu "
                  "compressed bytes)", r->name, name,
                  (unsigned long long)r->file_bytes);
        return 0;
    }
    r->z.next_in = r->zbuf;
    r->z.avail_in = (uInt)got;
    return 1;
}

/* Whether p (n bytes, n > 0) may begin gzip or zstd data: as far as n
 * goes, gzip's magic number; zstd's (of any version) or a skippable
 * frame's, once there are 4 bytes. */
static int gz_magic(const unsigned char *p, size_t n)
{
    return p[0] == 0x1f && (n < 2 || p[1] == 0x8b);
}

static int zst_magic(const unsigned char *p, size_t n)
{
    return n < 4 || (p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd) ||
           ((p[0] & 0xf0) == 0x50 && p[1] == 0x2a && p[2] == 0x4d &&
            p[3] == 0x18);
}

/* A file that does not begin as its format must (--in gz or zst on other
 * data) is said to be so, at byte 0, as gzip -d says it, rather than as
 * corrupt where the decoder happened to give up.  Looked at only before
 * the file's first byte is taken. */
static int not_format(sc_reader *r, sc_status st, const char *name,
                      int (*magic)(const unsigned char *, size_t))
{
    if (r->file_bytes != r->z.avail_in || r->z.avail_in == 0 ||
        magic(r->z.next_in, r->z.avail_in))
        return 0;
    defer(r, st, "%s: not in %s format (no %s magic number at byte 0)",
          r->name, name, name);
    return 1;
}

/* Inflates into dst; returns bytes produced, 0 at the file's end, -1. */
ssize_t sc_gz_read(sc_reader *r, unsigned char *dst, size_t len)
{
    r->z.next_out = dst;
    r->z.avail_out = (uInt)(len > UINT32_MAX ? UINT32_MAX : len);
    while (r->z.avail_out > 0) {
        size_t have = (size_t)((unsigned char *)r->z.next_out - dst);
        /* What the inflater holds goes out before more input is sought,
         * above all before the file's end is judged a cut. */
        if (r->z.avail_in == 0 && !(!r->z_member_done && gz_holds(r)) &&
            !refill(r, have, r->z_member_done, SC_ERR_GZIP, "gzip"))
            break;
        if (r->z_member_done) {
            int next = next_member(r);
            if (next < 0) break;
            if (next > 0) continue;
        }
        if (not_format(r, SC_ERR_GZIP, "gzip", gz_magic)) break;
        const char *why = NULL;
        int ret = gz_step(r, &why);
        if (ret > 0) {
            r->z_member_done = 1;
        } else if (ret < 0) {
            defer(r, SC_ERR_GZIP, "%s: corrupt gzip data near compressed byte "
                  "%llu: %s", r->name, (unsigned long long)(r->file_bytes -
                  r->z.avail_in), why);
            break;
        }
    }
    size_t produced = (size_t)((unsigned char *)r->z.next_out - dst);
    if (produced == 0 && pending(r)) return -1;
    return (ssize_t)produced;
}

/* Decodes zstd frames into dst, as gz_read does gzip members: bytes
 * produced, 0 at the file's end, -1. */
ssize_t sc_zst_read(sc_reader *r, unsigned char *dst, size_t len)
{
    size_t out = 0;
    while (out < len) {
        if (r->z.avail_in == 0 && !r->zs_more &&
            !refill(r, out, r->zs_frame_done, SC_ERR_ZSTD, "zstd"))
            break;
        if (not_format(r, SC_ERR_ZSTD, "zstd", zst_magic)) break;
        size_t used = 0, before = out;
        int done;
        const char *err;
        int rc = sc_zin_decode(r->zs, r->z.next_in, r->z.avail_in, &used,
                               dst, len, &out, &done, &err);
        r->z.next_in += used;
        r->z.avail_in -= (uInt)used;
        unsigned long long at = r->file_bytes - r->z.avail_in;
        if (rc == -2) {
            defer(r, SC_ERR_NOMEM, "%s: not enough memory for the window of "
                  "the zstd frame near compressed byte %llu (zstd --long "
                  "frames take up to 2 GiB)", r->name, at);
            break;
        }
        if (rc) {
            defer(r, SC_ERR_ZSTD, "%s: corrupt zstd data near compressed byte "
                  "%llu: %s", r->name, at, err);
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

/* Decodes what one pass over in gives: gzip's first member, or zstd's
 * frames as far as in goes. */
size_t sc_decode_head(int packed, const unsigned char *in, size_t len,
                      unsigned char *out, size_t cap)
{
    size_t made = 0;
    if (packed == SC_KIND_GZ) {
        z_stream z = { .next_in = (unsigned char *)in, .avail_in = (uInt)len,
                       .next_out = out, .avail_out = (uInt)cap };
        if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return 0;
        while (z.avail_out && inflate(&z, Z_NO_FLUSH) == Z_OK) {}
        made = cap - z.avail_out;
        inflateEnd(&z);
    } else if (packed == SC_KIND_ZST) {
        sc_zin *zs = sc_zin_new();
        size_t used = 0;
        int done;
        const char *err;
        while (zs && made < cap && used < len) {
            size_t was_used = used, was_made = made;
            if (sc_zin_decode(zs, in, len, &used, out, cap, &made, &done,
                              &err) != 0 ||
                (used == was_used && made == was_made))
                break;
        }
        sc_zin_free(zs);
    }
    return made;
}
