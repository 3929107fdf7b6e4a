/* cpu_keys.c — what sc-scan and sc-stat look at in records, their keys,
 * gathered into an array of the key's type on the thread pool; and
 * sc-stat --bincount's counts of each value.  Parts of an array are
 * independent in both, so each thread takes one. */
#include <stdlib.h>
#include "cpu/cpu.h"
#include "cpu/phases.h"

/* Parts as the three phases cut their sequences. */
static unsigned parts_for(const sc_ctx *ctx, uint64_t n)
{
    return sc_phases_seqs(ctx, n);
}

typedef struct gather_task {
    const unsigned char *in;
    uint64_t n;
    unsigned size, off, ksize;
    int swap;
    void *out;
    unsigned parts;
} gather_task;

/* ksize is 4 or 8: a constant in each loop, so each is a plain copy. */
static void gather_part(void *arg, unsigned i)
{
    const gather_task *t = arg;
    uint64_t b = t->n * i / t->parts, e = t->n * (i + 1) / t->parts;
    const unsigned char *p = t->in + b * t->size + t->off;
    if (t->ksize == 8) {
        uint64_t *out = t->out;
        for (uint64_t k = b; k < e; k++, p += t->size) {
            uint64_t x;
            memcpy(&x, p, 8);
            out[k] = t->swap ? __builtin_bswap64(x) : x;
        }
    } else {
        uint32_t *out = t->out;
        for (uint64_t k = b; k < e; k++, p += t->size) {
            uint32_t x;
            memcpy(&x, p, 4);
            out[k] = t->swap ? __builtin_bswap32(x) : x;
        }
    }
}

void sc_cpu_gather_keys(sc_ctx *ctx, sc_phase_times *times, const void *in,
                        uint64_t n, const sc_record *rec, int big_endian,
                        void *keys)
{
    gather_task t = { in, n, rec->size, rec->key_off,
                      sc_type_size(rec->key_type), big_endian != 0, keys,
                      parts_for(ctx, n) };
    double t0 = sc_now();
    sc_pool_run(ctx->pool, t.parts, gather_part, &t);
    sc_phase_add(times, SC_PH_MOVE, sc_now() - t0);
}

typedef struct bin_task {
    const void *keys;
    uint64_t n, bins;
    unsigned ksize, parts;
    /* Each part's own counts (own), or the shared ones with atomic adds
     * (atomic), or the shared ones alone (one part). */
    uint64_t *counts, *own;
    int atomic;
    uint64_t bad[SC_MAX_SEQS];   /* a part's first value >= bins, or n */
    uint64_t top[SC_MAX_SEQS];   /* a part's greatest value */
} bin_task;

static uint64_t key_at(const bin_task *t, uint64_t k)
{
    return t->ksize == 8 ? ((const uint64_t *)t->keys)[k]
                         : ((const uint32_t *)t->keys)[k];
}

/* Counts keys [b, e), of type K, into c, atomically or not; returns the
 * first position of a key >= bins, or e.  Locals, so that the stores to
 * c need not make every key reload the task (bench/RESULTS.md,
 * "Session 26"). */
#define COUNT_LOOP(K, ATOMIC)                                               \
    do {                                                                    \
        const K *x = t->keys;                                               \
        for (uint64_t k = b; k < e; k++) {                                  \
            uint64_t v = x[k];                                              \
            if (v >= bins) return k;                                        \
            if (ATOMIC) __atomic_fetch_add(&c[v], 1, __ATOMIC_RELAXED);     \
            else c[v]++;                                                    \
        }                                                                   \
    } while (0)

static uint64_t count_range(const bin_task *t, uint64_t b, uint64_t e,
                            uint64_t *c)
{
    uint64_t bins = t->bins;
    if (t->ksize == 8 && t->atomic) COUNT_LOOP(uint64_t, 1);
    else if (t->ksize == 8) COUNT_LOOP(uint64_t, 0);
    else if (t->atomic) COUNT_LOOP(uint32_t, 1);
    else COUNT_LOOP(uint32_t, 0);
    return e;
}

static void count_part(void *arg, unsigned i)
{
    bin_task *t = arg;
    uint64_t b = t->n * i / t->parts, e = t->n * (i + 1) / t->parts;
    uint64_t *c = t->own ? t->own + (uint64_t)i * t->bins : t->counts;
    uint64_t bad = count_range(t, b, e, c);
    t->bad[i] = bad < e ? bad : t->n;
}

/* Bins [b, e) of the part counts into the shared ones. */
static void merge_part(void *arg, unsigned i)
{
    bin_task *t = arg;
    uint64_t b = t->bins * i / t->parts, e = t->bins * (i + 1) / t->parts;
    for (unsigned p = 0; p < t->parts; p++) {
        const uint64_t *own = t->own + (uint64_t)p * t->bins;
        for (uint64_t k = b; k < e; k++) t->counts[k] += own[k];
    }
}

static void max_part(void *arg, unsigned i)
{
    bin_task *t = arg;
    uint64_t b = t->n * i / t->parts, e = t->n * (i + 1) / t->parts, m = 0;
    for (uint64_t k = b; k < e; k++) {
        uint64_t x = key_at(t, k);
        if (x > m) m = x;
    }
    t->top[i] = m;
}

uint64_t sc_cpu_max_key(sc_ctx *ctx, const void *keys, uint64_t n,
                        unsigned ksize)
{
    bin_task t = { .keys = keys, .n = n, .ksize = ksize,
                   .parts = parts_for(ctx, n) };
    sc_pool_run(ctx->pool, t.parts, max_part, &t);
    uint64_t m = 0;
    for (unsigned i = 0; i < t.parts; i++)
        if (t.top[i] > m) m = t.top[i];
    return m;
}

/* Parts count privately when their counts are few beside the keys
 * (merging them costs parts * bins adds); else into the shared counts
 * with atomic adds, which cost more each but need no room. */
sc_status sc_cpu_bincount(sc_ctx *ctx, sc_phase_times *times,
                          const void *keys, uint64_t n, unsigned ksize,
                          uint64_t bins, uint64_t *counts, uint64_t *bad)
{
    double t0 = sc_now();
    bin_task t = { .keys = keys, .n = n, .bins = bins, .ksize = ksize,
                   .parts = parts_for(ctx, n), .counts = counts };
    if (t.parts > 1 && bins * t.parts <= n) {
        t.own = calloc(t.parts, bins * sizeof *t.own);
        if (!t.own) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    }
    t.atomic = t.parts > 1 && !t.own;
    sc_pool_run(ctx->pool, t.parts, count_part, &t);
    *bad = n;
    for (unsigned i = 0; i < t.parts; i++)
        if (t.bad[i] < *bad) *bad = t.bad[i];
    if (t.own && *bad == n) sc_pool_run(ctx->pool, t.parts, merge_part, &t);
    free(t.own);
    sc_phase_add(times, SC_PH_COUNT, sc_now() - t0);
    return SC_OK;
}
