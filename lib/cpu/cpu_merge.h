/* cpu_merge.h — sorted parts of one array merged into one sorted array on
 * the pool's threads: what a sort spread over several GPUs ends with
 * (cuda_sort.c). */
#ifndef SC_CPU_MERGE_H
#define SC_CPU_MERGE_H

#include "internal.h"

/* Merges the k (1 ≤ k ≤ SC_MAX_GPUS) parts src[bounds[i] .. bounds[i+1]),
 * each sorted stably by bits [lo_bit, hi_bit) (descending: in reverse),
 * into dst[0 .. bounds[k]) in the same order; ties keep part order, so
 * parts cut from one array in order merge into that array's stable sort.
 * src and dst must not overlap. */
void sc_cpu_merge_parts(sc_ctx *ctx, const uint32_t *src,
                        const uint64_t *bounds, unsigned k, unsigned lo_bit,
                        unsigned hi_bit, int descending, uint32_t *dst);

#endif
