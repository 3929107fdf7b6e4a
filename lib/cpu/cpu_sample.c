/* cpu_sample.c — the bottom-k sample behind sc-stat --quantiles.
 *
 * Each position of the stream gets a pseudo-random hash; the sample is
 * the `keep` elements with the lowest hashes, a uniform sample without
 * replacement.  Taking elements in is a compaction by the three phases:
 * count those whose hash is still low enough, give each sequence its
 * offset after what is held, move them in.  Once more than keep are
 * held, a selection keeps the lowest keep and lowers the limit, so that
 * late in a long stream nearly every element fails one comparison.
 * Since the positions alone decide, the sample does not depend on how
 * the stream was cut into chunks or sequences. */
#include <stdlib.h>
#include <string.h>
#include "cpu/cpu.h"
#include "cpu/phases.h"

sc_status sc_cpu_sample_init(sc_ctx *ctx, sc_sample *s, size_t keep,
                             uint64_t seed, unsigned size)
{
    memset(s, 0, sizeof *s);
    s->size = size;
    s->keep = keep ? keep : 1;
    /* Room for keep, and half as much again taken in before a selection
     * (amortised: each selection pays for keep / 2 new elements). */
    s->cap = s->keep + (s->keep + 1) / 2;
    s->items = sc_big_alloc(s->cap * sizeof *s->items);
    s->limit = UINT64_MAX;
    s->salt = sc_mix64(seed ^ 0x5ca1ab1e5a3b1e00ULL);
    return s->items ? SC_OK : sc_fail(ctx, SC_ERR_NOMEM, "out of memory for "
                                      "the sample");
}

void sc_cpu_sample_free(sc_sample *s)
{
    free(s->items);
    s->items = NULL;
}

/* sc_mix64 is a bijection: distinct positions never share a hash, so
 * "the keep lowest" is one set, whatever the order they come in. */
static uint64_t hash_at(const sc_sample *s, uint64_t pos)
{
    return sc_mix64(pos ^ s->salt);
}

/* Puts the k items of lowest hash first (Hoare's selection; the hashes
 * are random, so the middle element is as good a pivot as any). */
static void select_lowest(sc_sample_item *a, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        uint64_t pivot = a[lo + (hi - lo) / 2].h;
        size_t i = lo, j = hi;
        while (i <= j) {
            while (a[i].h < pivot) i++;
            while (a[j].h > pivot) j--;
            if (i <= j) {
                sc_sample_item t = a[i];
                a[i++] = a[j];
                a[j] = t;
                if (j == 0) break;
                j--;
            }
        }
        if (k <= j) hi = j;
        else if (k >= i) lo = i;
        else return;
    }
}

/* Keeps the lowest keep; the highest of them is the new limit. */
static void shrink(sc_sample *s)
{
    if (s->len <= s->keep) return;
    select_lowest(s->items, s->len, s->keep);
    s->len = s->keep;
    uint64_t top = 0;
    for (size_t i = 0; i < s->len; i++)
        if (s->items[i].h > top) top = s->items[i].h;
    s->limit = top;
}

typedef struct take_op {
    const sc_sample *s;
    const void *in;
    uint64_t first;
    uint64_t ends[SC_MAX_SEQS];     /* where each sequence's items end */
} take_op;

static void take_count(void *arg, uint64_t b, uint64_t e, uint64_t *res)
{
    const take_op *op = arg;
    uint64_t c = 0;
    for (uint64_t i = b; i < e; i++)
        c += hash_at(op->s, op->first + i) <= op->s->limit;
    res[0] = c;
}

/* One sequence is not counted: its items go right after those held. */
static int take_prefix(void *arg, uint64_t *res, unsigned seqs)
{
    const take_op *op = arg;
    uint64_t at = op->s->len;
    for (unsigned q = 0; q < seqs; q++) {
        uint64_t c = res[q];
        res[q] = at;
        at += c;
    }
    return 0;
}

/* The move of elements of `size` bytes: a constant where it is called,
 * so that each width gets its own plain loop. */
static inline void take_run(take_op *op, unsigned seq, uint64_t b,
                            uint64_t e, const uint64_t *offsets,
                            unsigned size)
{
    sc_sample_item *items = op->s->items, *to = items + offsets[0];
    uint64_t limit = op->s->limit;
    for (uint64_t i = b; i < e; i++) {
        uint64_t h = hash_at(op->s, op->first + i);
        if (h <= limit)
            *to++ = (sc_sample_item){ h, sc_elem_bits(op->in, i, size) };
    }
    op->ends[seq] = (uint64_t)(to - items);
}

static void take_move(void *arg, unsigned seq, uint64_t b, uint64_t e,
                      const uint64_t *offsets)
{
    take_op *op = arg;
    if (op->s->size == 8) take_run(op, seq, b, e, offsets, 8);
    else take_run(op, seq, b, e, offsets, 4);
}

sc_status sc_cpu_sample_add(sc_ctx *ctx, sc_phase_times *times, sc_sample *s,
                            const void *in, uint64_t n, uint64_t first)
{
    /* Pieces of half the room beyond keep: a piece always fits after a
     * selection, so memory never grows with the chunk; and a selection
     * comes only after keep / 4 new items, which pays for it. */
    const uint64_t piece = (s->cap - s->keep + 1) / 2;
    take_op op;
    for (uint64_t off = 0; off < n; off += piece) {
        uint64_t m = n - off < piece ? n - off : piece;
        if (s->len + m > s->cap) shrink(s);
        op.s = s;
        op.in = (const unsigned char *)in + off * s->size;
        op.first = first + off;
        memset(op.ends, 0, sizeof op.ends);
        sc_phases ph = { m, 1, 1, take_count, take_prefix, take_move, &op };
        sc_status st = sc_phases_run(ctx, times, &ph);
        if (st != SC_OK) return st;
        /* The sequences fill one run from len on: the last end is new. */
        for (unsigned q = 0; q < SC_MAX_SEQS; q++)
            if (op.ends[q] > s->len) s->len = op.ends[q];
    }
    return SC_OK;
}

/* The sampled values sorted, as elements of the sample's width. */
static sc_status sorted_values(sc_ctx *ctx, sc_phase_times *times,
                               const sc_sample *s, void **out)
{
    size_t m = s->len;
    void *v = *out = malloc(m * s->size);
    if (!v) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    if (s->size == 8) {
        for (size_t i = 0; i < m; i++) ((uint64_t *)v)[i] = s->items[i].v;
        return sc_cpu_sort(ctx, times, v, m, SC_U64, 0, 64, 0);
    }
    for (size_t i = 0; i < m; i++) ((uint32_t *)v)[i] = (uint32_t)s->items[i].v;
    return sc_cpu_sort(ctx, times, v, m, SC_U32, 0, 32, 0);
}

sc_status sc_cpu_sample_bounds(sc_ctx *ctx, sc_phase_times *times,
                               sc_sample *s, unsigned parts, uint64_t *bounds,
                               unsigned *nb)
{
    *nb = 0;
    shrink(s);
    size_t m = s->len;
    if (m == 0 || parts < 2) return SC_OK;
    void *v;
    sc_status st = sorted_values(ctx, times, s, &v);
    if (st != SC_OK) { free(v); return st; }
    /* Bound j is the sampled value of rank j * m / parts: about j / parts
     * of the sample lies below it.  A bound equal to the one before (a
     * value repeated over a whole part) or to the smallest value (nothing
     * below it) would only make an empty part, so it is left out. */
    uint64_t least = sc_elem_bits(v, 0, s->size);
    for (unsigned j = 1; j < parts; j++) {
        size_t at = (size_t)((unsigned __int128)j * m / parts);
        uint64_t b = sc_elem_bits(v, at, s->size);
        if (b > least && (*nb == 0 || b > bounds[*nb - 1])) bounds[(*nb)++] = b;
    }
    free(v);
    return SC_OK;
}
