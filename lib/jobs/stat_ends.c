/* stat_ends.c — sc-stat --head / --tail: the first or last N elements.
 *
 * No device work, so no pipeline: --head stops reading as soon as it has
 * its elements (as head(1) does); --tail keeps a ring of the last N,
 * grown as the input proves long enough, so a large N on a short input
 * costs no memory.  Of records, the keys are the elements. */
#include <stdlib.h>
#include <string.h>
#include "jobs/stat.h"

#define STEP ((size_t)1 << 16)

/* What is read at a time: STEP elements, or records of as many bytes as
 * STEP u64 (at least one), with room for their keys. */
typedef struct batch {
    sc_ctx *ctx;
    const sc_job *j;
    sc_reader *r;
    size_t items;
    void *buf, *keys;
} batch;

/* Up to want items into b->buf; *x: their elements or keys, *got: how
 * many. */
static sc_status next(batch *b, size_t want, void **x, size_t *got)
{
    if (want > b->items) want = b->items;
    *got = 0;
    sc_status st = sc_reader_read(b->r, b->buf, want, got);
    *x = b->buf;
    if (b->j->record.size) {
        sc_gather_keys(b->ctx, NULL, b->buf, *got, &b->j->record,
                       b->j->big_endian, b->keys);
        *x = b->keys;
    }
    return st;
}

static sc_status head(const sc_job *j, batch *b, sc_writer *w, uint64_t *in)
{
    sc_status st = SC_OK;
    while (*in < j->head) {
        size_t want = j->head - *in < STEP ? (size_t)(j->head - *in) : STEP;
        size_t got = 0;
        void *x;
        if ((st = next(b, want, &x, &got)) || got == 0) break;
        *in += got;
        if ((st = sc_writer_write(w, x, got))) break;
    }
    return st;
}

/* The last `want` elements of `size` bytes seen. */
typedef struct ring {
    unsigned char *e;
    unsigned size;
    size_t cap, len, pos;       /* in elements; pos: the oldest once full */
    uint64_t want;
} ring;

static sc_status ring_add(sc_ctx *ctx, ring *g, const unsigned char *x,
                          size_t n)
{
    while (n) {
        if (g->len == g->cap && g->cap < g->want) {
            uint64_t cap = g->cap ? (uint64_t)g->cap * 2 : STEP;
            if (cap > g->want) cap = g->want;
            unsigned char *e = cap <= SIZE_MAX / g->size
                             ? realloc(g->e, cap * g->size) : NULL;
            if (!e) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory for "
                                   "--tail");
            g->e = e;
            g->cap = (size_t)cap;
        }
        /* Up to the end of the room, or of the ring, at once. */
        size_t at = g->len < g->cap ? g->len : g->pos;
        size_t m = g->cap - at < n ? g->cap - at : n;
        memcpy(g->e + at * g->size, x, m * g->size);
        if (g->len < g->cap) g->len += m;
        else g->pos = (g->pos + m) % g->cap;
        x += m * g->size;
        n -= m;
    }
    return SC_OK;
}

static sc_status tail(sc_ctx *ctx, const sc_job *j, batch *b, sc_writer *w,
                      uint64_t *in, uint64_t *out)
{
    ring g = { NULL, sc_type_size(j->type), 0, 0, 0, j->tail };
    sc_status st;
    for (;;) {
        size_t got = 0;
        void *x;
        if ((st = next(b, STEP, &x, &got)) || got == 0) break;
        *in += got;
        if ((st = ring_add(ctx, &g, x, got))) break;
    }
    /* After a data fault, the last elements decoded are still the tail. */
    if (st == SC_OK || sc_is_data_fault(st)) {
        sc_status s2 = sc_writer_write(w, g.e + g.pos * g.size,
                                       g.len - g.pos);
        if (s2 == SC_OK) s2 = sc_writer_write(w, g.e, g.pos);
        if (s2 != SC_OK) st = s2;
        else *out = g.len;
    }
    free(g.e);
    return st;
}

sc_status sc_stat_ends(sc_ctx *ctx, const sc_job *j, sc_reader *r,
                       sc_writer *w, uint64_t *in, uint64_t *out)
{
    size_t size = sc_type_size(j->type), rec = j->record.size;
    batch b = { ctx, j, r, rec ? (STEP * 8 + rec - 1) / rec : STEP, NULL,
                NULL };
    b.buf = malloc(b.items * (rec ? rec : size));
    b.keys = rec ? malloc(b.items * size) : NULL;
    sc_status st = b.buf && (b.keys || !rec)
                 ? SC_OK : sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    if (st == SC_OK)
        st = j->head ? head(j, &b, w, in) : tail(ctx, j, &b, w, in, out);
    if (j->head) *out = *in;
    free(b.buf);
    free(b.keys);
    return st;
}
