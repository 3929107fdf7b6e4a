/* sort_rank.cuh — the radix digits of sort.cu's passes (each the key
 * order of sc_hd.h over RADIX_BITS bits, fewer in the last pass; keys of
 * 4 or 8 bytes) and the
 * warp and block steps of one pass: the stable rank of each key among its
 * warp's keys of the same digit, the block's exclusive scan over digits,
 * and the look-back over tiles for one digit. */
#ifndef SC_SORT_RANK_CUH
#define SC_SORT_RANK_CUH

#include <cstdint>
#include "core/sc_hd.h"
#include "tile_status.cuh"
#include "tile_config.cuh"

namespace {

typedef unsigned long long u64;

constexpr int RADIX_BITS = 8;
constexpr int RADIX = 1 << RADIX_BITS;
constexpr int MAX_PASSES = (64 + RADIX_BITS - 1) / RADIX_BITS;

/* The digit of a ranked key of either width: sc_order_digit's, its
 * shift taken on the key's own width. */
template <class K>
__device__ __forceinline__ uint32_t key_digit(const sc_order &o, K k)
{
    return ((uint32_t)(k >> o.shift) & o.mask) ^ o.flip;
}

/* The look-back runs on the tile engine's packed status (tile_status.cuh),
 * one column per digit in a [tile][RADIX] array, pass e in epoch e: one
 * memset per sort serves all its passes. */

/* Exclusive scan of one value per thread over threads 0 .. RADIX-1; every
 * thread of the block must call it (it holds barriers). */
template <int THREADS>
__device__ uint32_t block_exclusive_radix(uint32_t x, uint32_t *s_warp)
{
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    uint32_t inc = te::warp_inclusive<te::plus<uint32_t>, uint32_t>(x);
    if (lane == 31 && warp < RADIX / 32) s_warp[warp] = inc;
    __syncthreads();
    uint32_t off = 0;
    for (int w = 0; w < warp && w < RADIX / 32; w++)
        off += s_warp[w];
    return off + inc - x;
}

/* Stable rank of each key among the keys of its digit in this warp's run,
 * in the order (item, lane); cnt[] (this warp's row) ends holding the
 * warp's digit counts.  Keys past n come last in the order, so leaving
 * them out ranks the rest right.
 *
 * The lanes that share a digit find each other through match[] (the
 * warp's row of RADIX words, zero between items): each ORs its bit into
 * its digit's word and reads the word back; the first lane of each digit
 * then updates the count and clears the word.  Measured against a ballot
 * per digit bit and against match_any (bench/RESULTS.md, "Figures behind
 * the kernels' comments"), it does the least work. */
template <int ITEMS, class K>
__device__ __forceinline__ void rank_warp(const K key[ITEMS], int rem,
                                          const sc_order &dig, uint32_t *cnt,
                                          uint32_t *match, uint32_t rank[ITEMS])
{
    uint32_t bit = 1u << (threadIdx.x & 31);
    uint32_t lt = te::lanemask_lt();
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
        bool valid = i * 32 < rem;
        uint32_t d = key_digit(dig, key[i]);
        if (valid)
            atomicOr(&match[d], bit);
        __syncwarp();
        uint32_t peers = valid ? match[d] : 0;
        uint32_t before = __popc(peers & lt);
        uint32_t c = valid ? cnt[d] : 0;
        rank[i] = c + before;
        __syncwarp();
        if (valid && before == 0) {
            cnt[d] = c + __popc(peers);
            match[d] = 0;
        }
        __syncwarp();
    }
}

/* Prefix over tiles for one digit: walk back from the predecessor until a
 * tile with an inclusive prefix, then publish ours. */
__device__ __forceinline__ u64 look_back_digit(const te::packed_status &st,
                                               uint32_t tile, uint32_t tile_count)
{
    u64 excl = te::thread_lookback<te::cfg::sort::LOOKBACK_BATCH>(st, tile);
    st.publish_prefix(tile, (uint64_t)excl + tile_count);
    return excl;
}

}  // namespace

#endif
