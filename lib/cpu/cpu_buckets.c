/* cpu_buckets.c — the CPU's sort in buckets.  One radix pass on the top
 * digit cuts the keys into up to 2048 buckets; then each thread takes
 * buckets in order and sorts each on the lower bits alone, where it fits
 * in cache, and a bucket is handed on (ready) as soon as it and every
 * bucket before it are final, so that writing the result overlaps
 * sorting the rest.
 *
 * A bucket too large for one thread (skewed keys) is sorted by the
 * whole pool before the others: cut again on its top digit where more
 * than one digit is left, so that its pieces too sort in cache.
 *
 * Ranks (sc_sort_task.ranked) are turned back into elements piece by
 * piece on the thread that sorted the piece, while it is in that
 * thread's cache, so that the hand-off thread only hands on. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "cpu/sort_task.h"

typedef struct bucketed {
    sc_sort_task *t;
    sc_ctx *ctx;
    sc_phase_times *times;
    const sc_radix_width *w;    /* the keys' width and its passes */
    char *keys, *alt;           /* the buckets lie in alt; results in keys */
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

sc_status sc_sort_varying(sc_ctx *ctx, sc_phase_times *times,
                          const sc_radix_width *w, const void *keys,
                          uint64_t n, unsigned *lo, unsigned *hi)
{
    uint64_t bits;
    sc_status st = w->varying(ctx, times, keys, n, &bits);
    if (st != SC_OK) return st;
    unsigned width = *hi - *lo;
    uint64_t range = width >= 64 ? UINT64_MAX : ((uint64_t)1 << width) - 1;
    bits &= range << *lo;
    if (!bits) {
        *hi = *lo;
        return SC_OK;
    }
    *lo = (unsigned)__builtin_ctzll(bits);
    *hi = 64 - (unsigned)__builtin_clzll(bits);
    return SC_OK;
}

static uint64_t bucket_len(const bucketed *bk, unsigned d)
{
    return bk->bounds[d + 1] - bk->bounds[d];
}

/* Key i of buf (keys or alt). */
static char *key_at(const bucketed *bk, char *buf, uint64_t i)
{
    return buf + i * bk->w->key_bytes;
}

/* Bucket d on one thread, alt to keys. */
static void sort_bucket(const bucketed *bk, unsigned d)
{
    uint64_t at = bk->bounds[d], m = bucket_len(bk, d);
    char *dst = key_at(bk, bk->keys, at);
    bk->w->local(key_at(bk, bk->alt, at), dst, m, bk->lo, bk->hi,
                 bk->descending, 0);
    sc_sort_unrank(bk->t, NULL, dst, m);
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
        sc_status st = to > from ? bk->ready(bk->arg,
                                             key_at(bk, bk->keys, from),
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

/* The pieces of a bucket too large for one thread, cut on their top
 * digit: each sorted on one of the pool's threads, src to dst, the
 * result in src (in_src) or dst; pieces past bk->big are done before. */
typedef struct pieces {
    const bucketed *bk;
    char *src, *dst;
    const uint64_t *bounds;     /* piece d is [bounds[d], bounds[d + 1]) */
    unsigned lo, hi;
    int in_src;
    atomic_uint next;
} pieces;

static void sort_pieces(void *arg, unsigned i)
{
    pieces *pc = arg;
    const bucketed *bk = pc->bk;
    (void)i;
    for (;;) {
        unsigned d = atomic_fetch_add(&pc->next, 1);
        if (d >= RADIX) return;
        uint64_t at = pc->bounds[d], m = pc->bounds[d + 1] - at;
        if (m && m <= bk->big)
            bk->w->local(key_at(bk, pc->src, at), key_at(bk, pc->dst, at), m,
                         pc->lo, pc->hi, bk->descending, pc->in_src);
    }
}

static sc_status sort_on_pool(bucketed *bk, char *src, char *dst, uint64_t m,
                              unsigned lo, unsigned hi, int in_src);

/* Cut on the top digit (src to dst), then each piece sorted where the
 * result belongs: the large ones on the pool again, the rest a thread
 * each. */
static sc_status sort_cut(bucketed *bk, char *src, char *dst, uint64_t m,
                          unsigned lo, unsigned hi, int in_src)
{
    unsigned top = hi - DIGIT_BITS;
    uint64_t *bounds = malloc((RADIX + 1) * sizeof *bounds);
    if (!bounds) return sc_fail(bk->ctx, SC_ERR_NOMEM, "out of memory");
    int one = 0;
    sc_status st = bk->w->split(bk->ctx, bk->times, src, dst, m, top,
                                DIGIT_BITS, bk->descending, bounds, &one);
    if (st == SC_OK && one) {
        free(bounds);
        return sort_on_pool(bk, src, dst, m, lo, top, in_src);
    }
    for (unsigned d = 0; st == SC_OK && d < RADIX; d++) {
        uint64_t at = bounds[d], len = bounds[d + 1] - at;
        if (len > bk->big)
            st = sort_on_pool(bk, key_at(bk, dst, at), key_at(bk, src, at),
                              len, lo, top, !in_src);
    }
    if (st == SC_OK) {
        pieces pc = { bk, dst, src, bounds, lo, top, !in_src, 0 };
        double t0 = sc_now();
        sc_pool_run(bk->ctx->pool, sc_phases_seqs(bk->ctx, UINT64_MAX),
                    sort_pieces, &pc);
        sc_phase_add(bk->times, SC_PH_MOVE, sc_now() - t0);
    }
    free(bounds);
    return st;
}

/* src[0..m) sorted on bits [lo, hi) by the whole pool, the result in
 * src (in_src) or dst.  Where more than one LSD pass would run over
 * many keys, a cut on the top digit first: one pass through memory, the
 * rest in cache, where LSD passes on the pool would each go through
 * memory, bucket after bucket of skewed keys. */
static sc_status sort_on_pool(bucketed *bk, char *src, char *dst, uint64_t m,
                              unsigned lo, unsigned hi, int in_src)
{
    if (hi - lo > DIGIT_BITS && m >= SC_CUT_MIN_KEYS)
        return sort_cut(bk, src, dst, m, lo, hi, in_src);
    void *res;
    sc_status st = bk->w->lsd(bk->ctx, bk->times, src, dst, m, lo, hi,
                              bk->descending, &res);
    if (st != SC_OK) return st;
    char *want = in_src ? src : dst;
    double t0 = sc_now();
    if (res != want) memcpy(want, res, m * bk->w->key_bytes);
    sc_phase_add(bk->times, SC_PH_MOVE, sc_now() - t0);
    return SC_OK;
}

/* Bucket d, too large for one thread: sorted on the pool, then turned
 * back to elements there. */
static sc_status sort_big_bucket(bucketed *bk, unsigned d)
{
    uint64_t at = bk->bounds[d], m = bucket_len(bk, d);
    char *dst = key_at(bk, bk->keys, at);
    sc_status st = sort_on_pool(bk, key_at(bk, bk->alt, at), dst, m, bk->lo,
                                bk->hi, 0);
    if (st != SC_OK) return st;
    double t0 = sc_now();
    sc_sort_unrank(bk->t, bk->ctx->pool, dst, m);
    sc_phase_add(bk->times, SC_PH_MOVE, sc_now() - t0);
    return SC_OK;
}

static sc_status sort_in_buckets(bucketed *bk)
{
    bk->t->placed = 1;
    for (unsigned d = 0; d < RADIX; d++) {
        sc_status st = bucket_len(bk, d) > bk->big ? sort_big_bucket(bk, d)
                                                   : SC_OK;
        if (st != SC_OK) return st;
    }
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
    unsigned bits = hi - lo > DIGIT_BITS ? DIGIT_BITS : hi - lo;
    sc_status st = bk->w->split(bk->ctx, bk->times, bk->keys, bk->alt,
                                bk->bounds[RADIX], hi - bits, bits,
                                bk->descending, bk->bounds, one);
    bk->lo = lo;
    bk->hi = hi - bits;
    return st;
}

sc_status sc_sort_buckets(sc_sort_task *t, int *one)
{
    bucketed *bk = calloc(1, sizeof *bk);
    if (!bk) return sc_fail(t->ctx, SC_ERR_NOMEM, "out of memory");
    bk->t = t;
    bk->ctx = t->ctx;
    bk->times = t->times;
    bk->w = t->w;
    bk->keys = t->keys;
    bk->alt = t->alt;
    bk->bounds[RADIX] = t->n;
    bk->descending = t->descending;
    bk->ready = t->ready;
    bk->arg = t->arg;
    unsigned threads = sc_phases_seqs(t->ctx, UINT64_MAX);
    bk->big = t->n / (2 * (uint64_t)threads);
    if (bk->big < SC_BUCKETED_MIN_KEYS) bk->big = SC_BUCKETED_MIN_KEYS;
    pthread_mutex_init(&bk->lock, NULL);
    pthread_cond_init(&bk->changed, NULL);
    *one = 0;
    sc_status st = split_top(bk, t->lo, t->hi, one);
    if (st == SC_OK && *one)
        t->hi = bk->hi;
    else if (st == SC_OK)
        st = sort_in_buckets(bk);
    pthread_cond_destroy(&bk->changed);
    pthread_mutex_destroy(&bk->lock);
    free(bk);
    return st;
}
