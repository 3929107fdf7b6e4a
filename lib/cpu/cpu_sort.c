/* cpu_sort.c — the CPU's sort.  One radix pass on the top digit cuts the
 * keys into up to 2048 buckets; then each thread takes buckets in order
 * and sorts each on the lower bits alone, where it fits in cache, and a
 * bucket is handed on (ready) as soon as it and every bucket before it
 * are final, so that writing the result overlaps sorting the rest.
 *
 * The passes over the whole array run at memory speed and could hand on
 * nothing before the last one ended.  A bucket too large for one thread
 * (skewed keys) is sorted by the whole pool before the others; a small
 * input, or keys of a single top digit, take the whole-array passes. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "cpu/radix.h"
#include "cpu/phases.h"

/* Below this many keys the whole-array passes are as fast, and there is
 * little writing to overlap. */
#define BUCKETED_MIN_KEYS ((uint64_t)1 << 18)
/* Measured on 2 cores (128M keys to a file): the buckets' thread and the
 * hand-off's share them, and the whole-array passes were 0.92-1.19 s
 * against 1.25-1.5 s; the buckets pay where cores are left for writing. */
#define BUCKETED_MIN_THREADS 4

typedef struct bucketed {
    sc_ctx *ctx;
    sc_phase_times *times;
    uint32_t *keys, *alt;       /* the buckets lie in alt; results in keys */
    uint64_t bounds[RADIX + 1]; /* bucket d is [bounds[d], bounds[d + 1]) */
    unsigned lo, hi;            /* the bits below the top digit */
    int descending;
    uint64_t big;               /* a bucket past this is the pool's */
    atomic_uint next_task;
    atomic_int stop;            /* ready() failed: sort no more */
    /* The hand-off, in bucket order. */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    unsigned char done[RADIX];
    unsigned next_out;
    sc_ready_fn ready;
    void *arg;
    sc_status ready_status;
} bucketed;

static uint64_t bucket_len(const bucketed *bk, unsigned d)
{
    return bk->bounds[d + 1] - bk->bounds[d];
}

/* Bucket d on one thread, alt to keys. */
static void sort_bucket(const bucketed *bk, unsigned d)
{
    uint64_t at = bk->bounds[d], m = bucket_len(bk, d);
    uint32_t *src = bk->alt + at, *dst = bk->keys + at;
    uint64_t hist[RADIX];
    for (unsigned lo = bk->lo; m > 1 && lo < bk->hi; lo += DIGIT_BITS) {
        unsigned bits = bk->hi - lo < DIGIT_BITS ? bk->hi - lo : DIGIT_BITS;
        sort_pass p = sc_radix_pass(src, dst, m, lo, bits, bk->descending);
        memset(hist, 0, sizeof hist);
        sc_radix_count(&p, 0, m, hist);
        if (sc_radix_prefix(&p, hist, 1)) continue;
        sc_radix_scatter(&p, 0, m, hist);
        uint32_t *t = src; src = dst; dst = t;
    }
    if (src != bk->keys + at) memcpy(bk->keys + at, src, m * sizeof *src);
}

static void mark_done(bucketed *bk, unsigned d)
{
    pthread_mutex_lock(&bk->lock);
    bk->done[d] = 1;
    if (d == bk->next_out) pthread_cond_signal(&bk->changed);
    pthread_mutex_unlock(&bk->lock);
}

/* A pool task: buckets in order, until none is left. */
static void sort_buckets(void *arg, unsigned i)
{
    bucketed *bk = arg;
    (void)i;
    for (;;) {
        unsigned d = atomic_fetch_add(&bk->next_task, 1);
        if (d >= RADIX || atomic_load(&bk->stop)) return;
        if (bucket_len(bk, d) <= bk->big) sort_bucket(bk, d);
        mark_done(bk, d);
    }
}

/* The hand-off thread: each run of final buckets, in order. */
static void *hand_on(void *arg)
{
    bucketed *bk = arg;
    pthread_mutex_lock(&bk->lock);
    while (bk->next_out < RADIX) {
        while (!bk->done[bk->next_out])
            pthread_cond_wait(&bk->changed, &bk->lock);
        unsigned b = bk->next_out, e = b;
        while (e < RADIX && bk->done[e]) e++;
        pthread_mutex_unlock(&bk->lock);
        uint64_t from = bk->bounds[b], to = bk->bounds[e];
        sc_status st = to > from ? bk->ready(bk->arg, bk->keys + from,
                                             to - from) : SC_OK;
        pthread_mutex_lock(&bk->lock);
        bk->next_out = e;
        if (st != SC_OK) {
            bk->ready_status = st;
            atomic_store(&bk->stop, 1);
            break;
        }
    }
    pthread_mutex_unlock(&bk->lock);
    return NULL;
}

/* Buckets too large for one thread, each on the whole pool, first. */
static sc_status sort_big_buckets(bucketed *bk)
{
    for (unsigned d = 0; d < RADIX; d++) {
        uint64_t at = bk->bounds[d], m = bucket_len(bk, d);
        if (m <= bk->big) continue;
        uint32_t *res;
        sc_status st = sc_radix_lsd(bk->ctx, bk->times, bk->alt + at,
                                    bk->keys + at, m, bk->lo, bk->hi,
                                    bk->descending, &res);
        if (st != SC_OK) return st;
        if (res != bk->keys + at) memcpy(bk->keys + at, res, m * sizeof *res);
    }
    return SC_OK;
}

static sc_status sort_in_buckets(bucketed *bk)
{
    sc_status st = sort_big_buckets(bk);
    if (st != SC_OK) return st;
    pthread_t t;
    int handing = bk->ready && sc_thread_start(&t, hand_on, bk) == 0;
    /* The hand-off thread writes while the pool sorts: leave it a core. */
    unsigned threads = sc_phases_seqs(bk->ctx, UINT64_MAX);
    if (handing && threads > 1) threads--;
    double t0 = sc_now();
    sc_pool_run(bk->ctx->pool, threads, sort_buckets, bk);
    sc_phase_add(bk->times, SC_PH_MOVE, sc_now() - t0);
    if (handing) {
        pthread_join(t, NULL);
        return bk->ready_status;
    }
    /* No thread to hand on from: all at once. */
    return bk->ready ? bk->ready(bk->arg, bk->keys, bk->bounds[RADIX]) : SC_OK;
}

/* The top digit's pass, keys to alt; *one is set when every key has the
 * same top digit (nothing moved). */
static sc_status split_top(bucketed *bk, unsigned lo, unsigned hi, int *one)
{
    uint64_t n = bk->bounds[RADIX];
    unsigned bits = hi - lo > DIGIT_BITS ? DIGIT_BITS : hi - lo;
    sort_pass p = sc_radix_pass(bk->keys, bk->alt, n, hi - bits, bits,
                                bk->descending);
    p.bounds = bk->bounds;
    sc_phases ph = { n, RADIX, 0, sc_radix_count, sc_radix_prefix,
                     sc_radix_move, &p };
    sc_status st = sc_phases_run(bk->ctx, bk->times, &ph);
    *one = p.skipped;
    bk->lo = lo;
    bk->hi = hi - bits;
    return st;
}

/* The whole-array passes, with the result handed on at the end. */
static sc_status sort_whole(sc_ctx *ctx, sc_phase_times *times,
                            uint32_t *keys, uint32_t *alt, uint64_t n,
                            unsigned lo, unsigned hi, int desc,
                            sc_ready_fn ready, void *arg)
{
    uint32_t *res;
    sc_status st = sc_radix_lsd(ctx, times, keys, alt, n, lo, hi, desc, &res);
    if (st != SC_OK) return st;
    if (res != keys) memcpy(keys, res, n * sizeof *keys);
    return ready ? ready(arg, keys, n) : SC_OK;
}

static sc_status sort_bucketed(sc_ctx *ctx, sc_phase_times *times,
                               uint32_t *keys, uint32_t *alt, uint64_t n,
                               unsigned lo, unsigned hi, int desc,
                               sc_ready_fn ready, void *arg)
{
    bucketed *bk = calloc(1, sizeof *bk);
    if (!bk) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    bk->ctx = ctx;
    bk->times = times;
    bk->keys = keys;
    bk->alt = alt;
    bk->bounds[RADIX] = n;
    bk->descending = desc;
    bk->ready = ready;
    bk->arg = arg;
    unsigned threads = sc_phases_seqs(ctx, UINT64_MAX);
    bk->big = n / (2 * (uint64_t)threads);
    if (bk->big < BUCKETED_MIN_KEYS) bk->big = BUCKETED_MIN_KEYS;
    pthread_mutex_init(&bk->lock, NULL);
    pthread_cond_init(&bk->changed, NULL);
    int one = 0;
    sc_status st = split_top(bk, lo, hi, &one);
    if (st == SC_OK && one)
        st = sort_whole(ctx, times, keys, alt, n, bk->lo, bk->hi, desc,
                        ready, arg);
    else if (st == SC_OK)
        st = sort_in_buckets(bk);
    pthread_cond_destroy(&bk->changed);
    pthread_mutex_destroy(&bk->lock);
    free(bk);
    return st;
}

sc_status sc_cpu_sort_ready(sc_ctx *ctx, sc_phase_times *times,
                            uint32_t *keys, uint64_t n, unsigned lo_bit,
                            unsigned hi_bit, int descending,
                            sc_ready_fn ready, void *arg)
{
    if (n < 2 || lo_bit >= hi_bit)
        return ready && n ? ready(arg, keys, n) : SC_OK;
    uint32_t *alt = sc_big_alloc(n * sizeof *alt);
    if (!alt) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory sorting %llu "
                             "elements", (unsigned long long)n);
    int bucketed = n >= BUCKETED_MIN_KEYS && hi_bit - lo_bit > DIGIT_BITS &&
                   sc_phases_seqs(ctx, UINT64_MAX) >= BUCKETED_MIN_THREADS;
    sc_status st = bucketed
        ? sort_bucketed(ctx, times, keys, alt, n, lo_bit, hi_bit, descending,
                        ready, arg)
        : sort_whole(ctx, times, keys, alt, n, lo_bit, hi_bit, descending,
                     ready, arg);
    free(alt);
    return st;
}

sc_status sc_cpu_sort(sc_ctx *ctx, sc_phase_times *times, uint32_t *keys,
                      uint64_t n, unsigned lo_bit, unsigned hi_bit,
                      int descending)
{
    return sc_cpu_sort_ready(ctx, times, keys, n, lo_bit, hi_bit, descending,
                             NULL, NULL);
}
