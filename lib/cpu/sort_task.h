/* sort_task.h — what the CPU's sort is asked (cpu_sort.c), which its
 * bucketed form (cpu_buckets.c) takes over: the keys, their width and
 * type, the bits, and where the sorted pieces go. */
#ifndef SC_SORT_TASK_H
#define SC_SORT_TASK_H

#include "cpu/phases.h"
#include "cpu/radix.h"

/* Below this many keys the whole-array passes are as fast as buckets,
 * and there is little writing to overlap; a bucket of fewer is never
 * too large for one thread. */
#define SC_BUCKETED_MIN_KEYS ((uint64_t)1 << 18)

/* keys[0..n) of width w and type `type`, sorted on bits [lo, hi) of
 * their ranks with alt as the other buffer, handed on through ready (if
 * set). */
typedef struct sc_sort_task {
    sc_ctx *ctx;
    sc_phase_times *times;
    const sc_radix_width *w;
    void *keys, *alt;
    uint64_t n;
    sc_type type;
    unsigned lo, hi;
    int descending;
    sc_ready_fn ready;
    void *arg;
    int ranked;                 /* keys hold ranks, not elements */
    /* Sorted pieces are written over keys, as elements: a failure from
     * here on leaves them as they are. */
    int placed;
} sc_sort_task;

/* keys[0..m) of t, sorted, from ranks back to elements where t ranked
 * them: on the pool (a whole array), or on the calling thread where
 * pool is NULL (a piece it sorted, still in its cache). */
static inline void sc_sort_unrank(const sc_sort_task *t, sc_pool *pool,
                                  void *keys, uint64_t m)
{
    if (t->ranked)
        t->w->rank(pool, sc_phases_seqs(t->ctx, UINT64_MAX), t->type, keys, m,
                   1);
}

/* Narrows [*lo, *hi) to the bits in which keys[0..n) of width w are not
 * all the same (on the pool): the others order nothing.  *lo == *hi
 * after: the keys are all the same over them, sorted as they are. */
sc_status sc_sort_varying(sc_ctx *ctx, sc_phase_times *times,
                          const sc_radix_width *w, const void *keys,
                          uint64_t n, unsigned *lo, unsigned *hi);

/* t in buckets of its top digit (cpu_buckets.c); *one is set instead,
 * with nothing done but t->hi lowered below that digit, where every key
 * has the same top digit. */
sc_status sc_sort_buckets(sc_sort_task *t, int *one);

#endif
