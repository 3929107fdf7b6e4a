/* tile_status.cuh — the one tile-status type of the tile engine and its
 * decoupled look-back (Merrill & Garland 2016), shared by compaction,
 * split, scan and the radix-sort passes.
 *
 * A tile publishes its aggregate as soon as it is known and, once it has
 * looked back, its inclusive prefix.  A successor sums aggregates back to
 * the nearest inclusive prefix, so it never waits for a whole chain.
 *
 * packed_status: value and state in one 64-bit word (value << 8 | code), so
 * one relaxed store publishes both and no fence is needed.  Values must be
 * below 2^56: counts, and 32-bit sums, maxima, minima and xors.  The code
 * carries an epoch: epoch e publishes 2e+1 (aggregate) and 2e+2 (prefix),
 * and anything lower reads as "not yet", so the sort runs all its passes
 * over one status array cleared once.  Zero, what a memset leaves, is "not
 * yet" in every epoch.  stride spaces the tiles' words, so the sort keeps
 * one column per digit in a [tile][digit] array.
 *
 * wide_status: 64-bit values (the wide sum), a 32-bit flag released after
 * the value; aggregate and prefix have separate slots, because a reader
 * that saw the aggregate flag may read the value after the writer moved on.
 *
 * Tiles must be numbered in the order their blocks start (dynamic tile ids
 * from a counter), so every tile waited on belongs to a running block: the
 * spin cannot deadlock, even when another kernel holds part of the GPU.
 */
#ifndef SC_TILE_STATUS_CUH
#define SC_TILE_STATUS_CUH

#include <stdint.h>
#include <cuda_runtime.h>
#include "warp_scan.cuh"

namespace te {

enum { ST_NONE = 0, ST_AGG = 1, ST_PREFIX = 2 };

/* Back-off between polls: a warp spinning flat out on L2 slows the tiles it
 * waits for (CUB waits too, 76..350 ns on sm_90). */
static const unsigned LOOKBACK_NS = 64;

__device__ __forceinline__ void st_relaxed(uint64_t *p, uint64_t w)
{
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" :: "l"(p), "l"(w) : "memory");
}
__device__ __forceinline__ uint64_t ld_relaxed(const uint64_t *p)
{
    uint64_t w;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(w) : "l"(p) : "memory");
    return w;
}
__device__ __forceinline__ void st_release(uint32_t *p, uint32_t w)
{
    asm volatile("st.release.gpu.global.u32 [%0], %1;" :: "l"(p), "r"(w) : "memory");
}
__device__ __forceinline__ uint32_t ld_acquire(const uint32_t *p)
{
    uint32_t w;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(w) : "l"(p) : "memory");
    return w;
}

struct packed_status {
    uint64_t *words;
    uint64_t stride;
    uint32_t code_agg;   /* 2 * epoch + 1 */

    __device__ __forceinline__ uint64_t *at(uint64_t tile) const
    {
        return words + tile * stride;
    }
    /* Tile 0's aggregate is its inclusive prefix. */
    template <typename T>
    __device__ __forceinline__ void publish_agg(uint64_t tile, T v) const
    {
        st_relaxed(at(tile), (uint64_t)v << 8 | (code_agg + (tile == 0)));
    }
    template <typename T>
    __device__ __forceinline__ void publish_prefix(uint64_t tile, T v) const
    {
        st_relaxed(at(tile), (uint64_t)v << 8 | (code_agg + 1));
    }
    template <typename T>
    __device__ __forceinline__ int decode(uint64_t w, T &v) const
    {
        uint32_t c = (uint32_t)w & 0xffu;
        v = (T)(w >> 8);
        return c < code_agg ? ST_NONE : c == code_agg ? ST_AGG : ST_PREFIX;
    }
    template <typename T>
    __device__ __forceinline__ int poll(uint64_t tile, T &v) const
    {
        return decode(ld_relaxed(at(tile)), v);
    }
    /* The word a lane's first look-back round reads for tile: issued
     * early, used later (warp_lookback_primed). */
    __device__ __forceinline__ uint64_t first_word(uint64_t tile) const
    {
        int64_t q = (int64_t)tile - 1 - (int64_t)lane_id();
        return q >= 0 ? ld_relaxed(at((uint64_t)q)) : 0;
    }
};

struct wide_status {
    uint32_t *flag;
    uint64_t *agg, *incl;

    template <typename T>
    __device__ __forceinline__ void publish_agg(uint64_t tile, T v) const
    {
        uint64_t *slot = tile == 0 ? incl : agg;
        slot[tile] = v;
        st_release(flag + tile, tile == 0 ? ST_PREFIX : ST_AGG);
    }
    template <typename T>
    __device__ __forceinline__ void publish_prefix(uint64_t tile, T v) const
    {
        incl[tile] = v;
        st_release(flag + tile, ST_PREFIX);
    }
    template <typename T>
    __device__ __forceinline__ int poll(uint64_t tile, T &v) const
    {
        int f = (int)ld_acquire(flag + tile);
        if (f != ST_NONE)
            v = (T)ld_relaxed((f == ST_AGG ? agg : incl) + tile);
        return f;
    }
};

/* Called by one whole warp for tile > 0 after the tile published its
 * aggregate.  Combines the predecessors' values, 32 tiles a step, nearest
 * first, down to the nearest inclusive prefix, and returns the exclusive
 * prefix in every lane.  The operators are commutative, so the order of
 * combination does not matter. */
template <class OP, class ST, bool PRIMED>
__device__ __forceinline__ typename OP::type lookback_rounds(const ST &st, uint64_t tile,
                                                             uint64_t w0)
{
    typedef typename OP::type T;
    unsigned lane = lane_id();
    T excl = OP::identity();
    int64_t p = (int64_t)tile - 1;
    for (bool first = true;; first = false) {
        int64_t q = p - (int64_t)lane;
        T v = OP::identity();
        int f = (int)ST_PREFIX;
        if constexpr (PRIMED) {
            if (q >= 0)
                f = first ? st.decode(w0, v) : st.poll((uint64_t)q, v);
        } else if (q >= 0) {
            f = st.poll((uint64_t)q, v);
        }
        while (__any_sync(FULL_MASK, f == ST_NONE)) {
            __nanosleep(LOOKBACK_NS);
            if (f == ST_NONE)
                f = st.poll((uint64_t)q, v);
        }
        unsigned pm = __ballot_sync(FULL_MASK, f == ST_PREFIX);
        unsigned stop = pm ? (unsigned)(__ffs(pm) - 1) : 31u;
        excl = OP::apply(excl, warp_reduce<OP, T>(lane <= stop ? v : OP::identity()));
        if (pm)
            return excl;
        p -= 32;
    }
}

template <class OP, class ST>
__device__ __forceinline__ typename OP::type warp_lookback(const ST &st, uint64_t tile)
{
    return lookback_rounds<OP, ST, false>(st, tile, 0);
}

/* The same, its first round's words read ahead by first_word(tile): what
 * they say is still true (a status only moves on), and one round trip to
 * L2 is off the critical path.  Words that said "not yet" are polled
 * again. */
template <class OP>
__device__ __forceinline__ typename OP::type warp_lookback_primed(const packed_status &st,
                                                                  uint64_t tile, uint64_t w0)
{
    return lookback_rounds<OP, packed_status, true>(st, tile, w0);
}

/* One thread's look-back over its own column (a digit of the sort): the
 * sum of the predecessors' counts back to the nearest inclusive prefix.
 * The walk passes some 15 aggregates a digit (H200, 2^28 keys), each a
 * round trip to L2, so BATCH predecessors are read at once and taken
 * nearest first, up to the first that has published nothing yet. */
template <int BATCH>
__device__ __forceinline__ uint64_t thread_lookback(const packed_status &st,
                                                    uint64_t tile)
{
    uint64_t excl = 0;
    int64_t q = (int64_t)tile - 1;
    for (;;) {
        uint64_t v[BATCH];
        int f[BATCH];
#pragma unroll
        for (int b = 0; b < BATCH; b++) {
            v[b] = 0;
            f[b] = q - b >= 0 ? st.poll((uint64_t)(q - b), v[b]) : (int)ST_PREFIX;
        }
        int taken = 0;
        bool open = true, done = false;
#pragma unroll
        for (int b = 0; b < BATCH; b++) {
            if (open && f[b] != ST_NONE) {
                excl += v[b];
                taken++;
                if (f[b] == ST_PREFIX) {
                    done = true;
                    open = false;
                }
            } else {
                open = false;
            }
        }
        if (done)
            return excl;
        q -= taken;
        if (taken == 0)
            __nanosleep(LOOKBACK_NS);
    }
}

} /* namespace te */

#endif /* SC_TILE_STATUS_CUH */
