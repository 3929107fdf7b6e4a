/* radix.h — the LSD radix passes that cpu_sort.c runs over the whole
 * array and inside each bucket, for 32-bit and 64-bit keys (ranks, with
 * sc_key applied already).  One implementation (radix_impl.h) is
 * instantiated per width; cpu_sort.c reaches it through the width's
 * table, called once per pass or bucket, never per key. */
#ifndef SC_RADIX_H
#define SC_RADIX_H

#include "cpu/cpu.h"

/* Measured on 256M keys, 2 threads: 11-bit digits (3 passes) 2.3 s,
 * 8-bit digits (4 passes) 2.7 s; the line buffers keep 2048 streams fast. */
#define DIGIT_BITS 11
#define RADIX (1u << DIGIT_BITS)

/* Keys cut on their top digit before LSD passes over the rest (where
 * more than one pass is left) from this many on: their pieces then
 * average RADIX keys or more, and each pass over a piece costs a
 * histogram of RADIX counts besides its keys, which for pieces of a few
 * hundred keys costs more than the cut saves (bench/RESULTS.md, "The
 * CPU's sort of skewed keys"). */
#define SC_CUT_MIN_KEYS ((uint64_t)RADIX * RADIX)

typedef struct sc_radix_width {
    size_t key_bytes;
    /* Stable sort of src[0..n) on bits [lo, hi), on the pool, with dst as
     * the other buffer; *result is the one of the two that holds the
     * sorted keys. */
    sc_status (*lsd)(sc_ctx *ctx, sc_phase_times *times, void *src,
                     void *dst, uint64_t n, unsigned lo, unsigned hi,
                     int descending, void **result);
    /* The same on the calling thread, key by key with no line buffers:
     * for keys that fit in cache.  The keys end in dst, or back in src
     * where in_src is set. */
    void (*local)(void *src, void *dst, uint64_t n, unsigned lo, unsigned hi,
                  int descending, int in_src);
    /* One pass on the pool over bits [lo, lo + bits), src to dst, that
     * leaves digit d's first position in bounds[d] and n in
     * bounds[RADIX]; *one is set, and nothing moved, when every key has
     * the same digit. */
    sc_status (*split)(sc_ctx *ctx, sc_phase_times *times, const void *src,
                       void *dst, uint64_t n, unsigned lo, unsigned bits,
                       int descending, uint64_t *bounds, int *one);
    /* The bits in which keys[0..n) are not all the same (on the pool). */
    sc_status (*varying)(sc_ctx *ctx, sc_phase_times *times, const void *keys,
                         uint64_t n, uint64_t *bits);
    /* Elements of a type of the width to their ranks (sc_key), or back
     * (unrank): core's sc_keys_rank of the width (pool NULL: on the
     * calling thread). */
    void (*rank)(sc_pool *pool, unsigned threads, sc_type type, void *keys,
                 uint64_t n, int unrank);
} sc_radix_width;

extern const sc_radix_width sc_radix32, sc_radix64;

#endif
