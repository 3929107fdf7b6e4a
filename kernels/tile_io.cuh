/* tile_io.cuh — how the tile engine reads its input: an aligned view of an
 * array of 4-, 8- or 16-byte elements (or records), the tile geometry,
 * 16-byte loads (straight into registers, or ahead into shared memory
 * with cp.async).  A 16-byte vector holds EPV elements (4 of 4 bytes, 2
 * of 8, 1 of 16), each of 4 / EPV 32-bit words; registers hold the
 * vector's words, so one geometry and one load serve every width.
 *
 * Alignment.  The input may start anywhere (a chunk of a stream is often an
 * odd offset into a buffer).  Tiles are laid on a "virtual" index space that
 * starts at the 16-byte boundary at or before the first element, so every
 * uint4 load is aligned; virtual indices outside [lo, hi) are not elements.
 * A vector only partly inside is read with scalar loads of its valid part,
 * so no byte outside the array is ever read.
 *
 * Layout.  A tile is BLOCK threads x VEC uint4.  Load j of thread t reads
 * uint4 number j*BLOCK + t of the tile, so each load instruction of a warp is
 * one contiguous 512-byte run (a "chunk" of 32 x EPV elements).  Chunk
 * c = j*WARPS + warp covers tile elements [32 EPV c, 32 EPV (c + 1)): the
 * order of the input is chunk, then lane, then element of the vector.
 */
#ifndef SC_TILE_IO_CUH
#define SC_TILE_IO_CUH

#include <stdint.h>
#include <cuda_runtime.h>
#include "warp_scan.cuh"

namespace te {

struct input {
    const uint4 *base;   /* 16-byte aligned, at or before element 0 */
    uint64_t lo, hi;     /* elements are the virtual indices [lo, hi) */
};

/* n elements of `size` bytes (4, 8 or 16) at p, aligned to their size:
 * then the 16-byte boundary at or before p is a whole number of elements
 * before it. */
static inline input make_input_of(const void *p, uint64_t n, uint32_t size)
{
    const uintptr_t EPV = 16 / size;
    uint32_t mis = (uint32_t)(((uintptr_t)p / size) & (EPV - 1));
    input in;
    in.base = (const uint4 *)((const char *)p - (size_t)mis * size);
    in.lo = mis;
    in.hi = n + mis;
    return in;
}
template <typename T>
static inline input make_input(const T *p, uint64_t n)
{
    return make_input_of(p, n, (uint32_t)sizeof(T));
}

template <int BLOCK, int VEC, int EPV = 4>
struct geom {
    enum {
        WARPS = BLOCK / 32,
        CHUNKS = WARPS * VEC,
        VECS = BLOCK * VEC,             /* 16-byte vectors a tile */
        WORDS = VECS * 4,
        SIZE = VECS * EPV,              /* elements a tile */
        PER_LANE = (CHUNKS + 31) / 32   /* chunk counts each lane scans */
    };
    static_assert(BLOCK % 32 == 0, "whole warps");
    static_assert(CHUNKS <= 32 * 8, "the chunk scan gives each lane 1..8 chunks");
};

static inline uint64_t n_tiles(const input &in, uint64_t tile)
{
    return (in.hi + tile - 1) / tile;
}

__host__ __device__ __forceinline__ bool tile_full(const input &in,
                                                   uint64_t vt, uint64_t size)
{
    return vt >= in.lo && vt + size <= in.hi;
}

/* Where the tile's elements are: head (virtual indices before the first
 * element, nonzero only in tile 0 of a misaligned input), how many are
 * valid, and the global index of the first. */
struct tile_span {
    uint32_t head, valid;
    uint64_t first;
};

__device__ __forceinline__ tile_span span_of(const input &in, uint64_t vt,
                                             uint32_t size)
{
    uint64_t b = vt > in.lo ? vt : in.lo;
    uint64_t e = vt + size < in.hi ? vt + size : in.hi;
    tile_span s;
    s.head = (uint32_t)(b - vt);
    s.valid = (uint32_t)(e - b);
    s.first = b - in.lo;
    return s;
}

/* Reads the tile at virtual index vt into x (the words of vector j in
 * x[j]); ok[j] has bit k set when element k of x[j] is an element (pad
 * words elsewhere).  FULL: the whole tile is inside, no test at all.  The
 * input is read once, so loads are streaming. */
template <int BLOCK, int VEC, bool FULL, int EPV = 4>
__device__ __forceinline__ void load_tile(const input &in, uint64_t vt,
                                          uint32_t (&x)[VEC][4],
                                          uint32_t (&ok)[VEC], uint32_t pad = 0)
{
    const int W = 4 / EPV;
#pragma unroll
    for (int j = 0; j < VEC; j++) {
        uint64_t v0 = vt + (uint64_t)EPV * (uint64_t)(j * BLOCK + threadIdx.x);
        if (FULL || (v0 >= in.lo && v0 + EPV <= in.hi)) {
            uint4 u = __ldcs(in.base + v0 / EPV);
            x[j][0] = u.x; x[j][1] = u.y; x[j][2] = u.z; x[j][3] = u.w;
            ok[j] = (1u << EPV) - 1;
        } else {
            const uint32_t *s = (const uint32_t *)in.base;
            ok[j] = 0;
#pragma unroll
            for (int k = 0; k < EPV; k++) {
                uint64_t v = v0 + k;
                bool inside = v >= in.lo && v < in.hi;
#pragma unroll
                for (int w = 0; w < W; w++)
                    x[j][k * W + w] = inside ? s[v * W + w] : pad;
                ok[j] |= (uint32_t)inside << k;
            }
        }
    }
}

/* cp.async: 16 bytes global -> shared without passing through registers,
 * so the bytes in flight are bounded by shared memory, not registers. */
__device__ __forceinline__ void cp_async16(void *smem, const void *gmem)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;"
                 :: "r"(a), "l"(gmem) : "memory");
}
__device__ __forceinline__ void cp_async_commit()
{
    asm volatile("cp.async.commit_group;" ::: "memory");
}
template <int N>
__device__ __forceinline__ void cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;" :: "n"(N) : "memory");
}

/* Each thread copies exactly the uint4 it will read itself (j*BLOCK + t),
 * so its own cp.async.wait_group is all the synchronisation needed, and it
 * may refill a buffer as soon as it has read its own part of it. */
template <int BLOCK, int VEC, int EPV = 4>
__device__ __forceinline__ void prefetch_tile(const input &in, uint64_t vt,
                                              uint4 *dst)
{
#pragma unroll
    for (int j = 0; j < VEC; j++) {
        unsigned q = j * BLOCK + threadIdx.x;
        cp_async16(dst + q, in.base + vt / EPV + q);
    }
}

template <int BLOCK, int VEC, int EPV = 4>
__device__ __forceinline__ void read_prefetched(const uint4 *buf,
                                                uint32_t (&x)[VEC][4],
                                                uint32_t (&ok)[VEC])
{
#pragma unroll
    for (int j = 0; j < VEC; j++) {
        uint4 u = buf[j * BLOCK + threadIdx.x];
        x[j][0] = u.x; x[j][1] = u.y; x[j][2] = u.z; x[j][3] = u.w;
        ok[j] = (1u << EPV) - 1;
    }
}

/* After a barrier that makes the tile's CHUNKS chunk totals visible:
 * every warp scans them (a few shuffles, cheaper than another barrier).
 * off[j] is the exclusive prefix of this thread's chunk j (j * WARPS +
 * warp); returns the tile's total. */
template <class OP, int BLOCK, int VEC>
__device__ __forceinline__ typename OP::type chunk_prefixes(const typename OP::type *chunk,
                                                            typename OP::type (&off)[VEC])
{
    typedef typename OP::type T;
    typedef geom<BLOCK, VEC> G;
    const int PL = G::PER_LANE;
    unsigned lane = lane_id(), warp = warp_id();
    T ex[PL], sum = OP::identity();
#pragma unroll
    for (int p = 0; p < PL; p++) {
        unsigned c = lane * PL + p;
        ex[p] = sum;
        sum = OP::apply(sum, c < (unsigned)G::CHUNKS ? chunk[c] : OP::identity());
    }
    T incl = warp_inclusive<OP, T>(sum);
    T base = warp_exclusive_of<OP, T>(incl);
#pragma unroll
    for (int j = 0; j < VEC; j++) {
        unsigned c = j * G::WARPS + warp;
        off[j] = OP::identity();
#pragma unroll
        for (int p = 0; p < PL; p++) {
            T t = __shfl_sync(FULL_MASK, OP::apply(base, ex[p]), c / PL);
            if (c % PL == (unsigned)p)
                off[j] = t;
        }
    }
    return __shfl_sync(FULL_MASK, incl, 31);
}

/* A tile prefetched into buf if it exists and is whole; one commit group
 * either way, so that a pass can count groups by tiles. */
template <int BLOCK, int VEC, int EPV = 4>
__device__ __forceinline__ void prefetch_if_full(const input &in, uint64_t tile,
                                                 uint64_t n_tiles, uint4 *buf)
{
    typedef geom<BLOCK, VEC, EPV> G;
    if (tile < n_tiles && tile_full(in, tile * G::SIZE, G::SIZE))
        prefetch_tile<BLOCK, VEC, EPV>(in, tile * G::SIZE, buf);
    cp_async_commit();
}

} /* namespace te */

#endif /* SC_TILE_IO_CUH */
