/* select_data.cuh — the input of the select benchmarks (bench_compact.cu,
 * ablate_select.cu): a hash of the index, zero with probability 1 - p,
 * else nonzero, so that x != 0 keeps a fraction p in an unpredictable
 * pattern.  keep_below = p * 2^64. */
#ifndef SC_BENCH_SELECT_DATA_CUH
#define SC_BENCH_SELECT_DATA_CUH

#include <stdint.h>
#include "core/sc_hd.h"

static __global__ void fill_kernel(uint32_t *d, uint64_t n, uint64_t keep_below)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t a = sc_mix64(i * 0x9e3779b97f4a7c15ULL + 12345);
        uint64_t b = sc_mix64(a);
        uint32_t v = (uint32_t)(b >> 32);
        d[i] = a < keep_below ? (v ? v : 1u) : 0u;
    }
}

#endif /* SC_BENCH_SELECT_DATA_CUH */
