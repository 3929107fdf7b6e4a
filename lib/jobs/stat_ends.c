/* stat_ends.c — sc-stat --head / --tail: the first or last N elements.
 *
 * No device work, so no pipeline: --head stops reading as soon as it has
 * its elements (as head(1) does); --tail keeps a ring of the last N,
 * grown as the input proves long enough, so a large N on a short input
 * costs no memory. */
#include <stdlib.h>
#include <string.h>
#include "jobs/stat.h"

#define STEP ((size_t)1 << 16)

static sc_status head(const sc_job *j, sc_reader *r, sc_writer *w,
                      uint32_t *buf, uint64_t *in)
{
    sc_status st = SC_OK;
    while (*in < j->head) {
        size_t want = j->head - *in < STEP ? (size_t)(j->head - *in) : STEP;
        size_t got = 0;
        if ((st = sc_reader_read(r, buf, want, &got)) || got == 0) break;
        *in += got;
        if ((st = sc_writer_write(w, buf, got))) break;
    }
    return st;
}

typedef struct ring {
    uint32_t *e;
    size_t cap, len, pos;       /* pos: the oldest once full */
    uint64_t want;
} ring;

static sc_status ring_add(sc_ctx *ctx, ring *g, const uint32_t *x, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (g->len == g->cap && g->cap < g->want) {
            uint64_t cap = g->cap ? (uint64_t)g->cap * 2 : STEP;
            if (cap > g->want) cap = g->want;
            uint32_t *e = cap <= SIZE_MAX / 4 ? realloc(g->e, cap * 4) : NULL;
            if (!e) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory for "
                                   "--tail");
            g->e = e;
            g->cap = (size_t)cap;
        }
        if (g->len < g->cap) {
            g->e[g->len++] = x[i];
        } else {
            g->e[g->pos] = x[i];
            g->pos = (g->pos + 1) % g->cap;
        }
    }
    return SC_OK;
}

static sc_status tail(sc_ctx *ctx, const sc_job *j, sc_reader *r,
                      sc_writer *w, uint32_t *buf, uint64_t *in, uint64_t *out)
{
    ring g = { NULL, 0, 0, 0, j->tail };
    sc_status st;
    for (;;) {
        size_t got = 0;
        if ((st = sc_reader_read(r, buf, STEP, &got)) || got == 0) break;
        *in += got;
        if ((st = ring_add(ctx, &g, buf, got))) break;
    }
    /* After a data fault, the last elements decoded are still the tail. */
    if (st == SC_OK || sc_is_data_fault(st)) {
        sc_status s2 = sc_writer_write(w, g.e + g.pos, g.len - g.pos);
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
    uint32_t *buf = malloc(STEP * 4);
    if (!buf) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    sc_status st = j->head ? head(j, r, w, buf, in)
                           : tail(ctx, j, r, w, buf, in, out);
    if (j->head) *out = *in;
    free(buf);
    return st;
}
