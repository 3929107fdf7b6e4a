/* cpu_sort.c — the CPU's sort: in buckets of the top digit where that
 * pays (cpu_buckets.c), else by LSD passes over the whole array.
 *
 * The passes over the whole array run at memory speed and could hand on
 * nothing before the last one ended; a small input, or keys of a single
 * top digit, take them.
 *
 * Keys of 32 and 64 bits take the same code: the passes of their width
 * come from its table (radix.h), called once per bucket or pass.
 *
 * Elements of a signed or float type are sorted as their ranks (sc_key):
 * all ranked on the pool first, and turned back piece by piece as they
 * are sorted (sort_task.h). */
#include <stdlib.h>
#include <string.h>
#include "cpu/sort_task.h"

/* Measured on 2 cores (128M keys to a file): the buckets' thread and the
 * hand-off's share them, and the whole-array passes were 0.92-1.19 s
 * against 1.25-1.5 s; the buckets pay where cores are left for writing. */
#define BUCKETED_MIN_THREADS 4
/* Past this many whole-array passes (64-bit keys over more than 33 bits)
 * the buckets pay at any thread count: one pass through memory, the
 * rest in cache (bench/RESULTS.md, Session 21). */
#define WHOLE_MAX_PASSES 3

/* keys[0..n), sorted, back to elements on the pool and handed on at
 * once; t0: when the sort's last move began. */
static sc_status hand_on_all(sc_sort_task *t, double t0)
{
    t->placed = 1;
    sc_sort_unrank(t, t->ctx->pool, t->keys, t->n);
    sc_phase_add(t->times, SC_PH_MOVE, sc_now() - t0);
    return t->ready && t->n ? t->ready(t->arg, t->keys, t->n) : SC_OK;
}

/* The whole-array passes over bits [t->lo, t->hi), with the result
 * handed on at the end. */
static sc_status sort_whole(sc_sort_task *t)
{
    void *res;
    sc_status st = t->w->lsd(t->ctx, t->times, t->keys, t->alt, t->n, t->lo,
                             t->hi, t->descending, &res);
    if (st != SC_OK) return st;
    double t0 = sc_now();
    if (res != t->keys) memcpy(t->keys, res, t->n * t->w->key_bytes);
    return hand_on_all(t, t0);
}

static unsigned passes_over(unsigned lo, unsigned hi)
{
    return (hi - lo + DIGIT_BITS - 1) / DIGIT_BITS;
}

/* Where the passes are many (64-bit keys), a read of the keys to drop
 * the bits that they all share from [lo, hi) pays: such bits order
 * nothing, and small integers or one sign's floats would otherwise
 * leave every key in one top-digit bucket. */
static sc_status drop_shared_bits(sc_sort_task *t)
{
    if (passes_over(t->lo, t->hi) <= WHOLE_MAX_PASSES) return SC_OK;
    return sc_sort_varying(t->ctx, t->times, t->w, t->keys, t->n, &t->lo,
                           &t->hi);
}

static sc_status sort_in_alt(sc_sort_task *t)
{
    unsigned passes = passes_over(t->lo, t->hi);
    int one = 0;
    sc_status st = SC_OK;
    if (t->n >= SC_BUCKETED_MIN_KEYS && passes > 1 &&
        (passes > WHOLE_MAX_PASSES ||
         sc_phases_seqs(t->ctx, UINT64_MAX) >= BUCKETED_MIN_THREADS)) {
        st = sc_sort_buckets(t, &one);
        if (st != SC_OK || !one) return st;
    }
    return sort_whole(t);
}

static sc_status sort_ranks(sc_sort_task *t)
{
    sc_status st = t->n > 1 && t->lo < t->hi ? drop_shared_bits(t) : SC_OK;
    if (st != SC_OK) return st;
    if (t->n < 2 || t->lo >= t->hi) return hand_on_all(t, sc_now());
    t->alt = sc_big_alloc(t->n * t->w->key_bytes);
    if (!t->alt) return sc_fail(t->ctx, SC_ERR_NOMEM, "out of memory sorting "
                                "%llu elements", (unsigned long long)t->n);
    st = sort_in_alt(t);
    free(t->alt);
    return st;
}

/* A sort that fails before its pieces are placed (out of memory: the
 * only failure without ready) leaves the keys elements again. */
static sc_status sort_keys(sc_sort_task *t)
{
    t->ranked = sc_type_ranked(t->type);
    if (t->ranked) {
        double t0 = sc_now();
        t->w->rank(t->ctx->pool, sc_phases_seqs(t->ctx, UINT64_MAX), t->type,
                   t->keys, t->n, 0);
        sc_phase_add(t->times, SC_PH_COUNT, sc_now() - t0);
    }
    sc_status st = sort_ranks(t);
    if (st != SC_OK && !t->placed)
        sc_sort_unrank(t, t->ctx->pool, t->keys, t->n);
    return st;
}

sc_status sc_cpu_sort_ready(sc_ctx *ctx, sc_phase_times *times, void *keys,
                            uint64_t n, sc_type type, unsigned lo_bit,
                            unsigned hi_bit, int descending,
                            sc_ready_fn ready, void *arg)
{
    sc_sort_task t = { ctx, times, sc_type_size(type) == 8 ? &sc_radix64
                                                           : &sc_radix32,
                       keys, NULL, n, type, lo_bit, hi_bit, descending, ready,
                       arg, 0, 0 };
    return sort_keys(&t);
}

sc_status sc_cpu_sort(sc_ctx *ctx, sc_phase_times *times, void *keys,
                      uint64_t n, sc_type type, unsigned lo_bit,
                      unsigned hi_bit, int descending)
{
    return sc_cpu_sort_ready(ctx, times, keys, n, type, lo_bit, hi_bit,
                             descending, NULL, NULL);
}
