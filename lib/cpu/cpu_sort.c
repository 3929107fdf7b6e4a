/* cpu_sort.c — the CPU's sort.  One radix pass on the top digit cuts the
 * keys into up to 2048 buckets; then each thread takes buckets in order
 * and sorts each on the lower bits alone, where it fits in cache, and a
 * bucket is handed on (ready) as soon as it and every bucket before it
 * are final, so that writing the result overlaps sorting the rest.
 *
 * The passes over the whole array run at memory speed and could hand on
 * nothing before the last one ended.  A bucket too large for one thread
 * (skewed keys) is sorted by the whole pool before the others; a small
 * input, or keys of a single top digit, take the whole-array passes.
 *
 * Keys of 32 and 64 bits take the same code: the passes of their width
 * come from its table (radix.h), called once per bucket or pass. */
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
/* Past this many whole-array passes (64-bit keys over more than 33 bits)
 * the buckets pay at any thread count: one pass through memory, the
 * rest in cache (bench/RESULTS.md, Session 21). */
#define WHOLE_MAX_PASSES 3

typedef struct bucketed {
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
    void *res = bk->w->local(key_at(bk, bk->alt, at), dst, m, bk->lo, bk->hi,
                             bk->descending);
    if (res != dst) memcpy(dst, res, m * bk->w->key_bytes);
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

/* Buckets too large for one thread, each on the whole pool, first. */
static sc_status sort_big_buckets(bucketed *bk)
{
    for (unsigned d = 0; d < RADIX; d++) {
        uint64_t at = bk->bounds[d], m = bucket_len(bk, d);
        if (m <= bk->big) continue;
        char *dst = key_at(bk, bk->keys, at);
        void *res;
        sc_status st = bk->w->lsd(bk->ctx, bk->times, key_at(bk, bk->alt, at),
                                  dst, m, bk->lo, bk->hi, bk->descending,
                                  &res);
        if (st != SC_OK) return st;
        if (res != dst) memcpy(dst, res, m * bk->w->key_bytes);
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
    unsigned bits = hi - lo > DIGIT_BITS ? DIGIT_BITS : hi - lo;
    sc_status st = bk->w->split(bk->ctx, bk->times, bk->keys, bk->alt,
                                bk->bounds[RADIX], hi - bits, bits,
                                bk->descending, bk->bounds, one);
    bk->lo = lo;
    bk->hi = hi - bits;
    return st;
}

/* What a sort is asked: keys[0..n) of width w on bits [lo, hi), with
 * alt as the other buffer, handed on through ready (if set). */
typedef struct sort_task {
    sc_ctx *ctx;
    sc_phase_times *times;
    const sc_radix_width *w;
    void *keys, *alt;
    uint64_t n;
    unsigned lo, hi;
    int descending;
    sc_ready_fn ready;
    void *arg;
} sort_task;

/* The whole-array passes over bits [lo, hi), with the result handed on
 * at the end. */
static sc_status sort_whole(const sort_task *t, unsigned lo, unsigned hi)
{
    void *res;
    sc_status st = t->w->lsd(t->ctx, t->times, t->keys, t->alt, t->n, lo, hi,
                             t->descending, &res);
    if (st != SC_OK) return st;
    if (res != t->keys) memcpy(t->keys, res, t->n * t->w->key_bytes);
    return t->ready ? t->ready(t->arg, t->keys, t->n) : SC_OK;
}

static sc_status sort_bucketed(const sort_task *t)
{
    bucketed *bk = calloc(1, sizeof *bk);
    if (!bk) return sc_fail(t->ctx, SC_ERR_NOMEM, "out of memory");
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
    if (bk->big < BUCKETED_MIN_KEYS) bk->big = BUCKETED_MIN_KEYS;
    pthread_mutex_init(&bk->lock, NULL);
    pthread_cond_init(&bk->changed, NULL);
    int one = 0;
    sc_status st = split_top(bk, t->lo, t->hi, &one);
    if (st == SC_OK && one)
        st = sort_whole(t, bk->lo, bk->hi);
    else if (st == SC_OK)
        st = sort_in_buckets(bk);
    pthread_cond_destroy(&bk->changed);
    pthread_mutex_destroy(&bk->lock);
    free(bk);
    return st;
}

static unsigned passes_over(unsigned lo, unsigned hi)
{
    return (hi - lo + DIGIT_BITS - 1) / DIGIT_BITS;
}

/* Where the passes are many (64-bit keys), a read of the keys to drop
 * the bits that they all share from [lo, hi) pays: such bits order
 * nothing, and small integers or one sign's floats would otherwise
 * leave every key in one top-digit bucket.  lo == hi after it: the
 * keys are all the same over the bits, sorted as they are. */
static sc_status drop_shared_bits(sort_task *t)
{
    if (passes_over(t->lo, t->hi) <= WHOLE_MAX_PASSES) return SC_OK;
    uint64_t bits;
    sc_status st = t->w->varying(t->ctx, t->times, t->keys, t->n, &bits);
    if (st != SC_OK) return st;
    unsigned width = t->hi - t->lo;
    uint64_t range = width >= 64 ? UINT64_MAX : ((uint64_t)1 << width) - 1;
    bits &= range << t->lo;
    if (!bits) {
        t->hi = t->lo;
        return SC_OK;
    }
    t->lo = (unsigned)__builtin_ctzll(bits);
    t->hi = 64 - (unsigned)__builtin_clzll(bits);
    return SC_OK;
}

static sc_status sort_keys(sort_task *t)
{
    sc_status st = t->n > 1 && t->lo < t->hi ? drop_shared_bits(t) : SC_OK;
    if (st != SC_OK) return st;
    if (t->n < 2 || t->lo >= t->hi)
        return t->ready && t->n ? t->ready(t->arg, t->keys, t->n) : SC_OK;
    t->alt = sc_big_alloc(t->n * t->w->key_bytes);
    if (!t->alt) return sc_fail(t->ctx, SC_ERR_NOMEM, "out of memory sorting "
                                "%llu elements", (unsigned long long)t->n);
    unsigned passes = passes_over(t->lo, t->hi);
    int bucketed = t->n >= BUCKETED_MIN_KEYS && passes > 1 &&
                   (passes > WHOLE_MAX_PASSES ||
                    sc_phases_seqs(t->ctx, UINT64_MAX) >= BUCKETED_MIN_THREADS);
    st = bucketed ? sort_bucketed(t) : sort_whole(t, t->lo, t->hi);
    free(t->alt);
    return st;
}

sc_status sc_cpu_sort_ready(sc_ctx *ctx, sc_phase_times *times,
                            uint32_t *keys, uint64_t n, unsigned lo_bit,
                            unsigned hi_bit, int descending,
                            sc_ready_fn ready, void *arg)
{
    sort_task t = { ctx, times, &sc_radix32, keys, NULL, n, lo_bit, hi_bit,
                    descending, ready, arg };
    return sort_keys(&t);
}

sc_status sc_cpu_sort64_ready(sc_ctx *ctx, sc_phase_times *times,
                              uint64_t *keys, uint64_t n, unsigned lo_bit,
                              unsigned hi_bit, int descending,
                              sc_ready_fn ready, void *arg)
{
    sort_task t = { ctx, times, &sc_radix64, keys, NULL, n, lo_bit, hi_bit,
                    descending, ready, arg };
    return sort_keys(&t);
}

sc_status sc_cpu_sort(sc_ctx *ctx, sc_phase_times *times, uint32_t *keys,
                      uint64_t n, unsigned lo_bit, unsigned hi_bit,
                      int descending)
{
    return sc_cpu_sort_ready(ctx, times, keys, n, lo_bit, hi_bit, descending,
                             NULL, NULL);
}
