/* par_claim.c — whole BGZF members claimed as one worker's chunk
 * (source.h's claim): their headers and sizes read where they lie in the
 * file, under the workers' lock; their bytes read and decoded by the
 * worker's own thread, straight into its chunk.  So every core decodes at
 * once, with no round to wait for and no copy, and the decoded chunk is
 * in the cache of the core that works on it next.
 *
 * A claim takes the members from where the file's decoding stands, as
 * long as they are whole in the file, decode to the element size's
 * multiple and fit the chunk; what does not (a member cut short, an
 * ordinary gzip member, the end-of-file block, a chunk too small) is left
 * to the stream's reader (par.c, codecs.c), which reads on from there. */
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

/* The BGZF member at `at`, whole before `end`: 1 with its sizes, else 0. */
static int member_at(int fd, off_t at, off_t end, size_t *cs, size_t *ds)
{
    unsigned char h[HEAD_PEEK];
    size_t want = end - at < HEAD_PEEK ? (size_t)(end - at) : HEAD_PEEK;
    if (sc_pread_full(fd, h, want, at) != (ssize_t)want) return 0;
    long size = sc_bgzf_block_size(h, want);
    if (size <= 0 || end - at < size) return 0;
    unsigned char t[4];
    if (sc_pread_full(fd, t, 4, at + size - 4) != 4) return 0;
    uint32_t isize = le32(t);
    /* As sc_bgzf_unit: a size deflate cannot give is the stream's to
     * report. */
    if (isize > SC_UNIT_MAX_DECODED || isize / 1032 > (uint32_t)size)
        return 0;
    *cs = (size_t)size;
    *ds = isize;
    return 1;
}

/* The members from start that make a claim: up to max_bytes decoded, a
 * multiple of elem; the end-of-file block at the file's end left out.
 * Returns where they end (start: none); *bytes, *units, *empty_last. */
static off_t walk(int fd, off_t start, off_t end, size_t max_bytes,
                  unsigned elem, size_t *bytes, uint64_t *units,
                  int *empty_last)
{
    off_t at = start, good = start;
    size_t total = 0, cs = 0, ds = 0;
    uint64_t k = 0;
    *bytes = 0;
    *units = 0;
    while (at < end && member_at(fd, at, end, &cs, &ds) &&
           total + ds <= max_bytes && !(ds == 0 && at + (off_t)cs == end)) {
        at += (off_t)cs;
        total += ds;
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
    off_t to = walk(r->fd, start, r->reg_size, max * r->size, r->size,
                    &bytes, &units, &empty_last);
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

/* The claim's members, in in[0, len), decoded into buf: the bytes
 * decoded before the first that failed (*why, *bad: its offset). */
static size_t decode_members(sc_unit_scratch *s, const unsigned char *in,
                             size_t len, unsigned char *buf, size_t cap,
                             const char **why, size_t *bad)
{
    size_t at = 0, out = 0;
    while (at < len && !*why) {
        size_t cs = 0, ds = 0;
        *bad = at;
        /* The file changed since its headers were read: whatever is
         * there now must still be the members the claim counted. */
        if (sc_bgzf_unit(in + at, len - at, &cs, &ds) != SC_UNIT_WHOLE ||
            ds > cap - out) {
            *why = "the file changed while it was read";
            break;
        }
        if (sc_bgzf_unit_decode(s, in + at, cs, buf + out, ds, why) != 0)
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
        out = decode_members(s, sc_unit_scratch_input(s, cl->len), cl->len,
                             buf, cap, &why, &bad);
    if (s) sc_par_give(p, s);
    *n = out / r->size;
    note_span(p, r, cl);
    if (!why) return st;
    hold_fault(p, cl->member_at + bad, SC_ERR_GZIP, "%s: corrupt gzip data "
               "near compressed byte %llu: %s (in the BGZF member that "
               "starts there)", r->name,
               (unsigned long long)(cl->member_at + bad), why);
    return SC_ERR_GZIP;
}
