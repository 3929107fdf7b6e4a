/* lookback_warp.cuh — the tile engine's persistent passes with the
 * decoupled look-back on a warp of its own, beside the block's compute
 * threads (the 32-bit scan in agent_scan.cuh; compaction and split
 * measured faster with warp 0 looking back inline, tile_config.cuh).
 *
 * Block b of G takes tiles b, b + G, b + 2G, ... (all G resident: the
 * launch is cooperative, so the look-back cannot deadlock).  Its BLOCK
 * compute threads work on tile k and publish its aggregate (tile 0: its
 * inclusive prefix, the carry in included), then arrive on BAR_COUNT + p.
 * The look-back warp, BLOCK + 32 threads on, waits there, finds tile k's
 * exclusive prefix, puts it in shared memory and arrives on BAR_OFFSET + p;
 * the compute threads wait there only when they write tile k out, one tile
 * later.  p is the parity of k, so that neither side can arrive on a
 * barrier twice before the other has waited on it.  bench/ablate_select.cu
 * measured why: with the whole block waiting for the look-back of the tile
 * it had just counted, a third of a compaction's time went to trips to L2
 * (the nearest inclusive prefix lay 2.6 rounds of 32 tiles back).  Waiting
 * one tile later, as compaction's inline pass does, costs far less.
 */
#ifndef SC_LOOKBACK_WARP_CUH
#define SC_LOOKBACK_WARP_CUH

#include <stdint.h>
#include <cuda_runtime.h>
#include "tile_status.cuh"

namespace te {

/* Named barriers: BAR_COMPUTE among the compute threads; BAR_COUNT and
 * BAR_OFFSET, +0 and +1 by parity, between them and the look-back warp. */
enum { BAR_COMPUTE = 1, BAR_COUNT = 2, BAR_OFFSET = 4 };

__device__ __forceinline__ void bar_sync(unsigned id, unsigned threads)
{
    asm volatile("bar.sync %0, %1;" :: "r"(id), "r"(threads) : "memory");
}
__device__ __forceinline__ void bar_arrive(unsigned id, unsigned threads)
{
    asm volatile("bar.arrive %0, %1;" :: "r"(id), "r"(threads) : "memory");
}

/* The parity of tile's place in this block's sequence. */
__device__ __forceinline__ unsigned parity_of(uint64_t tile)
{
    return (unsigned)(tile / gridDim.x) & 1u;
}

/* Compute threads: tile's aggregate v is published (thread 0 only); tile 0
 * publishes carry + v, its inclusive prefix.  All BLOCK threads call it. */
template <class OP, int BLOCK, class ST>
__device__ __forceinline__ void publish_tile(const ST &st, uint64_t tile,
                                             typename OP::type v,
                                             typename OP::type carry)
{
    if (threadIdx.x == 0) {
        if (tile == 0)
            st.publish_prefix(0, OP::apply(carry, v));
        else
            st.publish_agg(tile, v);
    }
    bar_arrive(BAR_COUNT + parity_of(tile), BLOCK + 32);
}

/* Compute threads: the exclusive prefix of tile, once the look-back warp
 * has it. */
template <int BLOCK, typename T>
__device__ __forceinline__ T offset_of(uint64_t tile, const T (&offset)[2])
{
    unsigned p = parity_of(tile);
    bar_sync(BAR_OFFSET + p, BLOCK + 32);
    return offset[p];
}

/* The look-back warp: each tile's exclusive prefix into offset[parity], in
 * the block's order; the last tile's inclusive prefix to *d_total.  The
 * tile's own aggregate is read back from its status word: it is there
 * once the compute threads have arrived. */
template <class OP, int BLOCK, class ST>
__device__ __forceinline__ void lookback_loop(uint64_t n_tiles, const ST &st,
                                              typename OP::type carry,
                                              uint64_t *d_total,
                                              typename OP::type (&offset)[2])
{
    typedef typename OP::type T;
    for (uint64_t tile = blockIdx.x; tile < n_tiles; tile += gridDim.x) {
        unsigned p = parity_of(tile);
        bar_sync(BAR_COUNT + p, BLOCK + 32);
        T v = OP::identity();
        if (lane_id() == 0)
            while (st.poll(tile, v) == ST_NONE)
                __nanosleep(LOOKBACK_NS);
        v = __shfl_sync(FULL_MASK, v, 0);
        T excl = tile ? warp_lookback<OP>(st, tile) : carry;
        T incl = tile ? OP::apply(excl, v) : v;
        if (lane_id() == 0) {
            if (tile)
                st.publish_prefix(tile, incl);
            offset[p] = excl;
            if (tile == n_tiles - 1)
                *d_total = (uint64_t)incl;
        }
        bar_arrive(BAR_OFFSET + p, BLOCK + 32);
    }
}

} /* namespace te */

#endif /* SC_LOOKBACK_WARP_CUH */
