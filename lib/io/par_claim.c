/* par_claim.c — whole units (BGZF members, zstd frames that carry their
 * size) claimed as one worker's chunk (source.h's claim): their headers
 * and sizes read where they lie in the file, under the workers' lock;
 * their bytes read and decoded by the worker's own thread, straight into
 * its chunk.  So every core decodes at once, with no round to wait for
 * and no copy, and the decoded chunk is in the cache of the core that
 * works on it next.
 *
 * A claim takes the units from where the file's decoding stands, as long
 * as they are whole in the file, decode to the element size's multiple
 * and fit the chunk; what does not (a unit cut short, an ordinary gzip
 * member, a frame without its size, pzstd's frames, the end-of-file
 * block, a chunk too small) is left to the stream's reader (par.c,
 * codecs.c), which reads on from there. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "io/bgzf.h"
#include "io/par_impl.h"

/* Enough for a member's header with the BC subfield among a few others;
 * one with a longer extra field is left to the stream's reader. */
#define HEAD_PEEK 64

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* The BGZF member at `at`, as sc_zframe_size_at says of a frame. */
static int member_at(int fd, off_t at, off_t end, size_t *cs, size_t *ds)
{
    unsigned char h[HEAD_PEEK];
    size_t want = end - at < HEAD_PEEK ? (size_t)(end - at) : HEAD_PEEK;
    if (sc_pread_full(fd, h, want, at) != (ssize_t)want) return SC_UNIT_NONE;
    long size = sc_bgzf_block_size(h, want);
    if (size <= 0 || end - at < size) return SC_UNIT_NONE;
    unsigned char t[4];
    if (sc_pread_full(fd, t, 4, at + size - 4) != 4) return SC_UNIT_NONE;
    uint32_t isize = le32(t);
    if (!sc_bgzf_isize_fits(isize, (size_t)size)) return SC_UNIT_NONE;
    *cs = (size_t)size;
    *ds = isize;
    return SC_UNIT_WHOLE;
}

/* The units from start that make a claim: up to max_bytes decoded, a
 * multiple of elem, ending with one that decodes (not a skippable frame,
 * not the end-of-file block at the file's end).  Returns where they end
 * (start: none); *bytes, *units, *empty_last. */
static off_t walk(int zstd, int fd, off_t start, off_t end, size_t max_bytes,
                  unsigned elem, size_t *bytes, uint64_t *units,
                  int *empty_last)
{
    off_t at = start, good = start;
    size_t total = 0, cs = 0, ds = 0;
    uint64_t k = 0;
    int kind;
    *bytes = 0;
    *units = 0;
    while (at < end &&
           (kind = (zstd ? sc_zframe_size_at : member_at)(fd, at, end, &cs,
                                                          &ds)) !=
               SC_UNIT_NONE &&
           total + ds <= max_bytes &&
           !(!zstd && ds == 0 && at + (off_t)cs == end)) {
        at += (off_t)cs;
        total += ds;
        if (kind != SC_UNIT_WHOLE) continue;
        k++;
        if (total % elem == 0 && total) {
            good = at;
            *bytes = total;
            *units = k;
            *empty_last = ds == 0;
        }
    }
    return good;
}

int sc_par_claim(sc_par *p, sc_reader *r, size_t max, sc_claim *cl)
{
    if (p->stage_pos < p->stage_len || p->bg_on || p->bad_why || p->eof)
        return 0;
    /* The compressed bytes in hand are read again by the claim. */
    size_t in_hand = p->end - p->pos;
    off_t cur = lseek(r->fd, 0, SEEK_CUR);
    if (cur < (off_t)in_hand) return 0;
    off_t start = cur - (off_t)in_hand;
    size_t bytes;
    uint64_t units;
    int empty_last = 0;
    off_t to = walk(p->zstd, r->fd, start, r->reg_size, max * r->size,
                    r->size, &bytes, &units, &empty_last);
    if (to == start || lseek(r->fd, to, SEEK_SET) < 0) return 0;
    *cl = (sc_claim){ r->fd, start, (size_t)(to - start), bytes / r->size,
                      1, r->file_bytes - in_hand, r->n_decs - 1 };
    p->claiming = 1;
    p->pos = p->end = 0;
    p->done_units += units;
    p->last_empty = empty_last;
    r->file_bytes += (uint64_t)(to - cur);
    r->decoded += bytes;
    atomic_fetch_add_explicit(&r->total_bytes, (uint64_t)(to - cur),
                              memory_order_relaxed);
    sc_decoding *d = &r->decs[cl->dec];
    d->bytes += bytes;
    d->par_units = p->done_units;
    if (d->claims_from == 0) d->claims_from = sc_now();
    return 1;
}

/* Keeps the fault of the claim that comes first in the file, whichever
 * thread met it first. */
static void hold_fault(sc_par *p, uint64_t at, sc_status st,
                       const char *fmt, ...) SC_PRINTF(4, 5);
static void hold_fault(sc_par *p, uint64_t at, sc_status st,
                       const char *fmt, ...)
{
    pthread_mutex_lock(&p->lock);
    if (!p->claim_st || at < p->claim_at) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->claim_msg, sizeof p->claim_msg, fmt, ap);
        va_end(ap);
        p->claim_at = at;
        p->claim_st = st;
    }
    pthread_mutex_unlock(&p->lock);
}

void sc_par_claim_fault(sc_par *p, sc_reader *r)
{
    if (p && p->claim_st) defer(r, p->claim_st, "%s", p->claim_msg);
}

/* One unit of the claim, in[0, len) from its start: decoded into out,
 * *cs its size (a skippable frame: nothing to decode), or -1 with *why. */
static int decode_unit(int zstd, sc_unit_scratch *s, const unsigned char *in,
                       size_t len, unsigned char *out, size_t room,
                       size_t *cs, size_t *ds, const char **why)
{
    int kind = (zstd ? sc_zframe_unit : sc_bgzf_unit)(in, len, cs, ds);
    if (kind == SC_UNIT_SKIP && zstd) {
        *ds = 0;
        return 0;
    }
    /* The file changed since its headers were read: whatever is there
     * now must still be the units the claim counted. */
    if (kind != SC_UNIT_WHOLE || *ds > room) {
        *why = "the file changed while it was read";
        return -1;
    }
    size_t got = 0;
    return zstd ? sc_zframe_decode(sc_unit_scratch_zstd(s), in, *cs, out, *ds,
                                   1, &got, why)
                : sc_bgzf_unit_decode(s, in, *cs, out, *ds, why);
}

/* The claim's units, in in[0, len), decoded into buf: the bytes decoded
 * before the first that failed (*why, *bad: its offset). */
static size_t decode_units(int zstd, sc_unit_scratch *s,
                           const unsigned char *in, size_t len,
                           unsigned char *buf, size_t cap, const char **why,
                           size_t *bad)
{
    size_t at = 0, out = 0;
    while (at < len && !*why) {
        size_t cs = 0, ds = 0;
        *bad = at;
        if (decode_unit(zstd, s, in + at, len - at, buf + out, cap - out,
                        &cs, &ds, why) != 0)
            break;
        at += cs;
        out += ds;
    }
    if (!*why && out != cap) *why = "the file changed while it was read";
    return out;
}

/* The claim's bytes into in: SC_OK, or the fault, held. */
static sc_status read_in(sc_par *p, sc_reader *r, const sc_claim *cl,
                         unsigned char *in)
{
    if (!in) {
        hold_fault(p, cl->member_at, SC_ERR_NOMEM, "out of memory");
        return SC_ERR_NOMEM;
    }
    ssize_t got = sc_pread_full(cl->fd, in, cl->len, cl->at);
    if (got >= 0 && (size_t)got == cl->len) return SC_OK;
    if (got < 0)
        hold_fault(p, cl->member_at, SC_ERR_IO, "%s: read error: %s",
                   r->name, strerror(errno));
    else
        hold_fault(p, cl->member_at, SC_ERR_IO, "%s: the file shrank "
                   "while it was read (at byte %llu)", r->name,
                   (unsigned long long)(cl->at + got));
    return SC_ERR_IO;
}

static void note_span(sc_par *p, sc_reader *r, const sc_claim *cl)
{
    double now = sc_now();
    pthread_mutex_lock(&p->lock);
    sc_decoding *d = &r->decs[cl->dec];
    if (now > d->claims_to) d->claims_to = now;
    pthread_mutex_unlock(&p->lock);
}

sc_status sc_par_claim_read(sc_par *p, sc_reader *r, const sc_claim *cl,
                            unsigned char *buf, size_t *n)
{
    size_t cap = *n * r->size, out = 0, bad = 0;
    const char *why = NULL;
    sc_unit_scratch *s = sc_par_take(p);
    sc_status st = read_in(p, r, cl, s ? sc_unit_scratch_input(s, cl->len)
                                       : NULL);
    if (st == SC_OK)
        out = decode_units(p->zstd, s, sc_unit_scratch_input(s, cl->len),
                           cl->len, buf, cap, &why, &bad);
    if (s) sc_par_give(p, s);
    *n = out / r->size;
    note_span(p, r, cl);
    if (!why) return st;
    sc_status bad_st = p->zstd ? SC_ERR_ZSTD : SC_ERR_GZIP;
    hold_fault(p, cl->member_at + bad, bad_st, "%s: corrupt %s data near "
               "compressed byte %llu: %s (in the %s that starts there)",
               r->name, p->zstd ? "zstd" : "gzip",
               (unsigned long long)(cl->member_at + bad), why,
               p->zstd ? "frame" : "BGZF member");
    return bad_st;
}
