/* parts.h — the CPU operations behind cutting a stream into parts by
 * value: the stable multi-way split of sc-split --ranges
 * (cpu_ranges.c), and the sample from which sc-stat --quantiles chooses
 * balanced bounds (cpu_sample.c).  Neither has a GPU kernel: sc-split
 * --ranges and sc-stat --quantiles run on the CPU alone. */
#ifndef SC_PARTS_H
#define SC_PARTS_H

#include "internal.h"

/* Stable split of in[0..n) into nb + 1 parts: part p holds the x with
 * exactly p bounds at or below it (bounds increase strictly).  out gets
 * the parts one after another, each in input order; counts[p] their
 * sizes. */
sc_status sc_cpu_ranges(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                        const uint32_t *bounds, unsigned nb, uint32_t *out,
                        uint64_t *counts);

/* A uniform sample without replacement of a stream's elements, of fixed
 * size: the `keep` elements whose positions hash lowest (a bottom-k
 * sample).  The positions alone decide, so the sample is the same
 * whatever the chunks, threads or order of the calls; memory stays
 * about 1.5 * keep * 16 bytes whatever the stream's length. */
typedef struct sc_sample_item { uint64_t h; uint32_t v; } sc_sample_item;
typedef struct sc_sample {
    sc_sample_item *items;
    size_t len, cap, keep;
    uint64_t limit;         /* a hash above it can no longer be kept */
    uint64_t salt;
} sc_sample;

#define SC_SAMPLE_KEEP ((size_t)1 << 20)

sc_status sc_sample_init(sc_ctx *ctx, sc_sample *s, size_t keep,
                         uint64_t seed);
void sc_sample_free(sc_sample *s);
/* Adds in[0..n), the elements at stream positions first, first + 1, ... */
sc_status sc_sample_add(sc_ctx *ctx, sc_sample *s, const uint32_t *in,
                        uint64_t n, uint64_t first);
/* Bounds cutting the sampled values into `parts` parts of about equal
 * count: strictly increasing and above the smallest value, so at most
 * parts - 1 of them (fewer where values repeat); their number goes to
 * *nb. */
sc_status sc_sample_bounds(sc_ctx *ctx, sc_sample *s, unsigned parts,
                           uint32_t *bounds, unsigned *nb);

#endif
