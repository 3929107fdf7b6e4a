/* parts.h — the CPU operations behind cutting a stream into parts by
 * value: the stable multi-way split of sc-split --ranges
 * (cpu_ranges.c).  It has no GPU kernel: the job that uses it is
 * CPU-only, as sc-stat is. */
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

#endif
