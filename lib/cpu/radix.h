/* radix.h — the LSD radix pass that cpu_sort.c runs over the whole array
 * and inside each bucket. */
#ifndef SC_RADIX_H
#define SC_RADIX_H

#include "cpu/cpu.h"

/* Measured on 256M keys, 2 threads: 11-bit digits (3 passes) 2.3 s,
 * 8-bit digits (4 passes) 2.7 s; the line buffers keep 2048 streams fast. */
#define DIGIT_BITS 11
#define RADIX (1u << DIGIT_BITS)

typedef struct sort_pass {
    const uint32_t *src;
    uint32_t *dst;
    sc_order digit;         /* the digit: the rank over the pass's bits */
    uint64_t n;
    int skipped;            /* set by the prefix when no key moves */
    uint64_t *bounds;       /* if set, the prefix leaves each digit's first
                               position here, and n at [RADIX] */
} sort_pass;

/* The pass over bits [lo, lo + bits) of keys src[0..n) into dst. */
sort_pass sc_radix_pass(const uint32_t *src, uint32_t *dst, uint64_t n,
                        unsigned lo, unsigned bits, int descending);

/* The three phases of a pass (sc_phases), usable on one thread as well:
 * hist has RADIX entries per sequence. */
void sc_radix_count(void *pass, uint64_t b, uint64_t e, uint64_t *hist);
int sc_radix_prefix(void *pass, uint64_t *hist, unsigned seqs);
void sc_radix_move(void *pass, unsigned seq, uint64_t b, uint64_t e,
                   const uint64_t *off);

/* The move, key by key with no line buffers: for a destination that
 * fits in cache, where streaming stores would only evict it.  pos holds
 * the offsets and is advanced. */
void sc_radix_scatter(const sort_pass *p, uint64_t b, uint64_t e,
                      uint64_t *pos);

/* Stable sort of src[0..n) on bits [lo, hi), on the pool, with dst as the
 * other buffer; *result is the one of the two that holds the sorted keys. */
sc_status sc_radix_lsd(sc_ctx *ctx, sc_phase_times *times, uint32_t *src,
                       uint32_t *dst, uint64_t n, unsigned lo, unsigned hi,
                       int descending, uint32_t **result);

#endif
